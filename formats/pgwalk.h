/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The x86-64 page-table walk (4- and 5-level paging, 1G and 2M pages)
 * over a physical-read callback, with a small per-page translation
 * cache.  Pure logic: no dump format here, so a unit test can walk
 * page tables it built in a buffer.
 */
#ifndef OC_FORMATS_PGWALK_H
#define OC_FORMATS_PGWALK_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

/* Read @len bytes of physical memory at @paddr. */
typedef struct oc_error *oc_pgwalk_read_fn(void *arg, uint64_t paddr,
					    void *buf, size_t len);

enum {
	OC_PGWALK_CACHE_SIZE = 256,	/* translations kept, per 4K page */
};

struct oc_pgwalk_cache_entry {
	uint64_t vpage;		/* vaddr >> 12, or UINT64_MAX when empty */
	uint64_t ppage;		/* physical page (4K-aligned) */
};

struct oc_pgwalk {
	oc_pgwalk_read_fn *read_phys;
	void *arg;
	uint64_t top;		/* physical address of the PML4 / PML5 */
	unsigned int levels;	/* 4 or 5 */
	struct oc_pgwalk_cache_entry cache[OC_PGWALK_CACHE_SIZE];
	/* statistics, for tests and tuning */
	uint64_t hits, misses;
};

/*
 * @top is the physical address of the top-level table (CR3 without its
 * flag bits); @levels is 4 or 5.
 */
struct oc_error *oc_pgwalk_init(struct oc_pgwalk *walk,
				oc_pgwalk_read_fn *read_phys, void *arg,
				uint64_t top, unsigned int levels);
void oc_pgwalk_flush(struct oc_pgwalk *walk);

/*
 * Translate @vaddr.  A non-canonical address, a not-present entry or an
 * unreadable table is an OC_ERR_FAULT error naming @vaddr.
 */
struct oc_error *oc_pgwalk_translate(struct oc_pgwalk *walk, uint64_t vaddr,
				     uint64_t *paddr_ret);

/* The kernel-text mapping: phys = vaddr - START_KERNEL_MAP + phys_base. */
static const uint64_t OC_START_KERNEL_MAP = 0xffffffff80000000ULL;

/* x86-64: no kernel address lies below this (5-level paging's kernel
 * half starts here, Documentation/arch/x86/x86_64/mm.rst) */
#define OC_KERNEL_HALF 0xff00000000000000ULL

#endif /* OC_FORMATS_PGWALK_H */
