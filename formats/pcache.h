/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A small cache of whole physical pages in front of a page reader (for
 * a dump: libkdumpfile's kdump_read(), which decompresses a
 * kdump-compressed page on every call).  Least recently used pages go
 * first; the last page read is checked before the rest, since the
 * unwinder reads one stack word after the other.  Pure: the reader is a
 * callback, so a unit test can count its calls.  One thread at a time.
 */
#ifndef OC_FORMATS_PCACHE_H
#define OC_FORMATS_PCACHE_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

enum { OC_PCACHE_PAGE_SIZE = 4096 };

/* Fill @page (OC_PCACHE_PAGE_SIZE bytes) with page frame @pfn. */
typedef struct oc_error *oc_pcache_fill_fn(void *arg, uint64_t pfn,
					    unsigned char *page);

struct oc_pcache;

struct oc_error *oc_pcache_create(size_t nr_pages, oc_pcache_fill_fn *fill,
				  void *arg, struct oc_pcache **ret);
void oc_pcache_destroy(struct oc_pcache *pc);

/* Page @pfn, valid until the next call; a failed fill is not cached. */
struct oc_error *oc_pcache_page(struct oc_pcache *pc, uint64_t pfn,
				const unsigned char **ret);
/* @len bytes at physical address @paddr, across pages. */
struct oc_error *oc_pcache_read(struct oc_pcache *pc, uint64_t paddr,
				void *buf, size_t len);

#endif /* OC_FORMATS_PCACHE_H */
