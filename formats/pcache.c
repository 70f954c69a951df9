// SPDX-License-Identifier: GPL-2.0-or-later
/* The physical page cache (see pcache.h). */
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "pcache.h"

struct pcache_page {
	uint64_t pfn;
	uint64_t stamp;
	bool valid;
	unsigned char data[OC_PCACHE_PAGE_SIZE];
};

struct oc_pcache {
	oc_pcache_fill_fn *fill;
	void *arg;
	struct pcache_page *pages;
	size_t nr;
	struct pcache_page *last;	/* the page of the last read */
	uint64_t clock;
};

struct oc_error *oc_pcache_create(size_t nr_pages, oc_pcache_fill_fn *fill,
				  void *arg, struct oc_pcache **ret)
{
	struct oc_pcache *pc = calloc(1, sizeof(*pc));

	if (!pc || !nr_pages)
		goto fail;
	pc->pages = calloc(nr_pages, sizeof(*pc->pages));
	if (!pc->pages)
		goto fail;
	pc->nr = nr_pages;
	pc->fill = fill;
	pc->arg = arg;
	*ret = pc;
	return NULL;
fail:
	free(pc);
	return nr_pages ? &oc_enomem :
	       oc_error_create(OC_ERR_INVALID, "a page cache of no pages");
}

void oc_pcache_destroy(struct oc_pcache *pc)
{
	if (!pc)
		return;
	free(pc->pages);
	free(pc);
}

struct oc_error *oc_pcache_page(struct oc_pcache *pc, uint64_t pfn,
				const unsigned char **ret)
{
	struct pcache_page *victim = &pc->pages[0];
	struct oc_error *err;

	if (pc->last && pc->last->valid && pc->last->pfn == pfn) {
		*ret = pc->last->data;
		return NULL;
	}
	for (size_t i = 0; i < pc->nr; i++) {
		struct pcache_page *p = &pc->pages[i];

		if (p->valid && p->pfn == pfn) {
			p->stamp = ++pc->clock;
			pc->last = p;
			*ret = p->data;
			return NULL;
		}
		if (!p->valid || (victim->valid && p->stamp < victim->stamp))
			victim = p;
	}
	victim->valid = false;
	err = pc->fill(pc->arg, pfn, victim->data);
	if (err)
		return err;
	victim->valid = true;
	victim->pfn = pfn;
	victim->stamp = ++pc->clock;
	pc->last = victim;
	*ret = victim->data;
	return NULL;
}

struct oc_error *oc_pcache_read(struct oc_pcache *pc, uint64_t paddr,
				void *buf, size_t len)
{
	unsigned char *out = buf;

	if (paddr + len < paddr)
		return oc_error_fault(paddr, "physical read of %zu bytes at 0x%" PRIx64 " wraps",
				      len, paddr);
	while (len) {
		size_t off = paddr % OC_PCACHE_PAGE_SIZE;
		size_t n = OC_PCACHE_PAGE_SIZE - off < len ?
			   OC_PCACHE_PAGE_SIZE - off : len;
		const unsigned char *page = NULL;
		struct oc_error *err = oc_pcache_page(pc, paddr / OC_PCACHE_PAGE_SIZE,
						      &page);

		if (err)
			return err;
		memcpy(out, page + off, n);
		out += n;
		paddr += n;
		len -= n;
	}
	return NULL;
}
