/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one way the core reads target memory.  Behind it: a dump
 * (formats/dump.c), crash's readmem (src/crash/), or a synthetic buffer
 * in a unit test.  Every read is bounds-checked by the provider; a
 * failed read returns an OC_ERR_FAULT error with the address.
 */
#ifndef OC_MEM_H
#define OC_MEM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "error.h"

struct oc_mem {
	/* Read @len bytes of kernel virtual memory at @addr into @buf. */
	struct oc_error *(*read)(void *arg, uint64_t addr, void *buf,
				 size_t len);
	void *arg;
};

static inline struct oc_error *oc_mem_read(const struct oc_mem *mem,
					   uint64_t addr, void *buf,
					   size_t len)
{
	if (addr + len < addr)
		return oc_error_fault(addr, "read of %zu bytes at 0x%llx wraps",
				      len, (unsigned long long)addr);
	return mem->read(mem->arg, addr, buf, len);
}

static inline struct oc_error *oc_mem_read_u64(const struct oc_mem *mem,
					       uint64_t addr, uint64_t *ret)
{
	return oc_mem_read(mem, addr, ret, sizeof(*ret));
}

static inline struct oc_error *oc_mem_read_u32(const struct oc_mem *mem,
					       uint64_t addr, uint32_t *ret)
{
	return oc_mem_read(mem, addr, ret, sizeof(*ret));
}

/*
 * Read a NUL-terminated string of at most @size - 1 bytes; the result is
 * always terminated.  Reads page by page so a string near an unreadable
 * page still works.
 */
struct oc_error *oc_mem_read_string(const struct oc_mem *mem, uint64_t addr,
				    char *buf, size_t size);

/* A synthetic memory source over buffers, for tests and fuzzers. */
struct oc_mem_region {
	uint64_t addr;
	size_t len;
	const void *data;
};

struct oc_mem_buffers {
	const struct oc_mem_region *regions;
	size_t nr;
};

void oc_mem_buffers_init(struct oc_mem *mem, struct oc_mem_buffers *bufs);

#endif /* OC_MEM_H */
