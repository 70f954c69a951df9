// SPDX-License-Identifier: GPL-2.0-or-later
#include "mem.h"

struct oc_error *oc_mem_read_string(const struct oc_mem *mem, uint64_t addr,
				    char *buf, size_t size)
{
	size_t done = 0;

	if (!size)
		return NULL;
	while (done + 1 < size) {
		size_t chunk = 4096 - ((addr + done) & 4095);
		struct oc_error *err;

		if (chunk > size - 1 - done)
			chunk = size - 1 - done;
		err = oc_mem_read(mem, addr + done, buf + done, chunk);
		if (err) {
			buf[done] = '\0';
			return err;
		}
		if (memchr(buf + done, '\0', chunk))
			return NULL;
		done += chunk;
	}
	buf[done] = '\0';
	return NULL;
}

static struct oc_error *buffers_read(void *arg, uint64_t addr, void *buf,
				     size_t len)
{
	const struct oc_mem_buffers *bufs = arg;

	for (size_t i = 0; i < bufs->nr; i++) {
		const struct oc_mem_region *r = &bufs->regions[i];

		if (addr >= r->addr && addr - r->addr <= r->len &&
		    len <= r->len - (addr - r->addr)) {
			memcpy(buf, (const char *)r->data + (addr - r->addr),
			       len);
			return NULL;
		}
	}
	return oc_error_fault(addr, "cannot read %zu bytes at 0x%llx", len,
			      (unsigned long long)addr);
}

void oc_mem_buffers_init(struct oc_mem *mem, struct oc_mem_buffers *bufs)
{
	mem->read = buffers_read;
	mem->arg = bufs;
}
