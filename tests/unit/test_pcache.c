// SPDX-License-Identifier: GPL-2.0-or-later
/* formats/pcache.c over a fake page reader that counts its calls. */
#include "pcache.h"
#include "test.h"

struct reader {
	unsigned fills;
	uint64_t bad_pfn;	/* this page cannot be read */
};

static struct oc_error *fill(void *arg, uint64_t pfn, unsigned char *page)
{
	struct reader *r = arg;

	r->fills++;
	if (pfn == r->bad_pfn)
		return oc_error_fault(pfn * OC_PCACHE_PAGE_SIZE, "no page %llu",
				      (unsigned long long)pfn);
	for (size_t i = 0; i < OC_PCACHE_PAGE_SIZE; i++)
		page[i] = (unsigned char)(pfn * 7 + i);
	return NULL;
}

TEST(pcache_hits_and_eviction)
{
	struct reader r = { .bad_pfn = 99 };
	struct oc_pcache *pc = NULL;
	const unsigned char *p = NULL;

	CHECK_OK(oc_pcache_create(3, fill, &r, &pc));
	if (!pc)
		return;
	CHECK_OK(oc_pcache_page(pc, 1, &p));
	CHECK(p && p[0] == 7 && p[1] == 8);
	CHECK_OK(oc_pcache_page(pc, 1, &p));	/* the last page */
	CHECK_EQ(r.fills, 1);
	CHECK_OK(oc_pcache_page(pc, 2, &p));
	CHECK_OK(oc_pcache_page(pc, 3, &p));
	CHECK_OK(oc_pcache_page(pc, 1, &p));	/* in the cache */
	CHECK_EQ(r.fills, 3);
	CHECK_OK(oc_pcache_page(pc, 4, &p));	/* evicts 2, the oldest */
	CHECK_EQ(r.fills, 4);
	CHECK_OK(oc_pcache_page(pc, 3, &p));
	CHECK_OK(oc_pcache_page(pc, 1, &p));
	CHECK_EQ(r.fills, 4);
	CHECK_OK(oc_pcache_page(pc, 2, &p));
	CHECK_EQ(r.fills, 5);
	CHECK(p && p[0] == 14);
	/* a failed fill is an error each time, never a cached page */
	for (int i = 0; i < 2; i++) {
		struct oc_error *err = oc_pcache_page(pc, 99, &p);

		CHECK(err && err->code == OC_ERR_FAULT);
		oc_error_destroy(err);
	}
	CHECK_EQ(r.fills, 7);
	CHECK_OK(oc_pcache_page(pc, 2, &p));
	CHECK(p && p[0] == 14);
	oc_pcache_destroy(pc);
}

TEST(pcache_reads_across_pages)
{
	struct reader r = { .bad_pfn = 5 };
	struct oc_pcache *pc = NULL;
	unsigned char buf[OC_PCACHE_PAGE_SIZE + 16];
	struct oc_error *err;

	CHECK_OK(oc_pcache_create(2, fill, &r, &pc));
	if (!pc)
		return;
	CHECK_OK(oc_pcache_read(pc, 2 * OC_PCACHE_PAGE_SIZE - 8, buf, 24));
	CHECK_EQ(buf[0], (unsigned char)(1 * 7 + OC_PCACHE_PAGE_SIZE - 8));
	CHECK_EQ(buf[8], (unsigned char)(2 * 7));
	CHECK_EQ(buf[23], (unsigned char)(2 * 7 + 15));
	CHECK_OK(oc_pcache_read(pc, 0, buf, 0));
	/* a range that touches the bad page fails, naming it */
	err = oc_pcache_read(pc, 5 * OC_PCACHE_PAGE_SIZE - 4, buf, 8);
	CHECK(err && err->code == OC_ERR_FAULT &&
	      err->address == 5 * OC_PCACHE_PAGE_SIZE);
	oc_error_destroy(err);
	/* a range that wraps the address space */
	err = oc_pcache_read(pc, UINT64_MAX - 3, buf, 8);
	CHECK(err && err->code == OC_ERR_FAULT);
	oc_error_destroy(err);
	oc_pcache_destroy(pc);
	/* no pages: refused */
	err = oc_pcache_create(0, fill, &r, &pc);
	CHECK(err && err->code == OC_ERR_INVALID);
	oc_error_destroy(err);
}
