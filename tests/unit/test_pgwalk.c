// SPDX-License-Identifier: GPL-2.0-or-later
/* The x86-64 page-table walk on page tables built here. */
#include "pgwalk.h"
#include "test.h"

enum { NPAGES = 32 };

/* Synthetic physical memory: page N is at physical N * 4096. */
struct phys {
	uint64_t mem[NPAGES][512];
	unsigned int reads;
};

static struct oc_error *phys_read(void *arg, uint64_t paddr, void *buf,
				  size_t len)
{
	struct phys *p = arg;

	p->reads++;
	if (paddr >= sizeof(p->mem) || len > sizeof(p->mem) - paddr)
		return oc_error_fault(paddr, "physical 0x%llx not in the dump",
				      (unsigned long long)paddr);
	memcpy(buf, (char *)p->mem + paddr, len);
	return NULL;
}

static const uint64_t P = 1, RW = 2, PS = 1ULL << 7, NX = 1ULL << 63;
/* protection key and software bits: must be masked off */
static const uint64_t HIGH_JUNK = 0xfULL << 59 | 1ULL << 52;

static unsigned int idx(uint64_t va, unsigned int level)
{
	return (va >> (12 + 9 * (level - 1))) & 0x1ff;
}

static void set(struct phys *p, unsigned int page, unsigned int index,
		uint64_t entry)
{
	p->mem[page][index] = entry;
}

static const uint64_t KVA = 0xffffffff81234567ULL;

/* 4-level: PML4 page 1, PDPT page 2, PD page 3, PT page 4, data page 7 */
static void build4(struct phys *p)
{
	memset(p, 0, sizeof(*p));
	set(p, 1, idx(KVA, 4), 2 * 4096 | P | RW);
	set(p, 2, idx(KVA, 3), 3 * 4096 | P | RW | 0x60);
	set(p, 3, idx(KVA, 2), 4 * 4096 | P);
	set(p, 4, idx(KVA, 1), 7 * 4096 | P | NX | HIGH_JUNK | 0x163);
}

TEST(pgwalk_4level_4k)
{
	static struct phys p;
	struct oc_pgwalk w;
	uint64_t pa = 0;

	build4(&p);
	CHECK_OK(oc_pgwalk_init(&w, phys_read, &p, 1 * 4096 | 0x18, 4));
	CHECK_OK(oc_pgwalk_translate(&w, KVA, &pa));
	CHECK_EQ(pa, 7 * 4096 + 0x567);
	CHECK_EQ(p.reads, 4);
	/* same page again: from the cache, no table reads */
	CHECK_OK(oc_pgwalk_translate(&w, KVA + 0x10, &pa));
	CHECK_EQ(pa, 7 * 4096 + 0x577);
	CHECK_EQ(p.reads, 4);
	CHECK_EQ(w.hits, 1);
	oc_pgwalk_flush(&w);
	CHECK_OK(oc_pgwalk_translate(&w, KVA, &pa));
	CHECK_EQ(p.reads, 8);
}

TEST(pgwalk_not_present_names_address)
{
	static struct phys p;
	struct oc_pgwalk w;
	uint64_t pa = 0;
	struct oc_error *err;
	uint64_t next_page = (KVA & ~0xfffULL) + 0x1000;

	build4(&p);
	CHECK_OK(oc_pgwalk_init(&w, phys_read, &p, 1 * 4096, 4));
	err = oc_pgwalk_translate(&w, next_page + 8, &pa);
	CHECK(err && err->code == OC_ERR_FAULT);
	CHECK(err && err->has_address && err->address == next_page + 8);
	CHECK(err && strstr(err->message, "ffffffff81235008"));
	CHECK(err && strstr(err->message, "PTE"));
	oc_error_destroy(err);
	/* a failed walk is not cached */
	set(&p, 4, idx(next_page, 1), 9 * 4096 | P);
	CHECK_OK(oc_pgwalk_translate(&w, next_page + 8, &pa));
	CHECK_EQ(pa, 9 * 4096 + 8);
	/* a missing PML4 entry */
	err = oc_pgwalk_translate(&w, 0xffff888000000000ULL, &pa);
	CHECK(err && err->code == OC_ERR_FAULT &&
	      err->address == 0xffff888000000000ULL);
	CHECK(err && strstr(err->message, "PML4"));
	oc_error_destroy(err);
}

TEST(pgwalk_large_pages)
{
	static struct phys p;
	struct oc_pgwalk w;
	uint64_t pa = 0;
	uint64_t va2m = 0xffff888012345678ULL, va1g = 0xffff888123456789ULL;

	memset(&p, 0, sizeof(p));
	/* both share PML4 slot 273 -> PDPT page 2 */
	set(&p, 1, idx(va2m, 4), 2 * 4096 | P);
	CHECK_EQ(idx(va1g, 4), idx(va2m, 4));
	/* 2M: PDPT -> PD page 3, PD entry with PS, PAT bit (12) set */
	set(&p, 2, idx(va2m, 3), 3 * 4096 | P);
	set(&p, 3, idx(va2m, 2), 0x40000000ULL | PS | P | (1ULL << 12) | NX);
	/* 1G: PDPT entry with PS, PAT bit set, junk in high bits */
	CHECK(idx(va1g, 3) != idx(va2m, 3));
	set(&p, 2, idx(va1g, 3), 0x1c0000000ULL | PS | P | (1ULL << 12) |
				  HIGH_JUNK | NX);
	CHECK_OK(oc_pgwalk_init(&w, phys_read, &p, 1 * 4096, 4));
	CHECK_OK(oc_pgwalk_translate(&w, va2m, &pa));
	CHECK_EQ(pa, 0x40000000ULL + (va2m & 0x1fffff));
	CHECK_OK(oc_pgwalk_translate(&w, va1g, &pa));
	CHECK_EQ(pa, 0x1c0000000ULL + (va1g & 0x3fffffff));
	/* PS in a PTE is the PAT bit, not a large page */
	set(&p, 3, idx(va2m, 2), 4 * 4096 | P);
	set(&p, 4, idx(va2m, 1), 5 * 4096 | P | PS);
	oc_pgwalk_flush(&w);
	CHECK_OK(oc_pgwalk_translate(&w, va2m, &pa));
	CHECK_EQ(pa, 5 * 4096 + 0x678);
}

TEST(pgwalk_5level)
{
	static struct phys p;
	struct oc_pgwalk w;
	uint64_t pa = 0;
	/* a 5-level direct-map address: PML5 index 0x1ff - 1 */
	uint64_t va = 0xff11000000abc123ULL;
	struct oc_error *err;

	memset(&p, 0, sizeof(p));
	set(&p, 1, idx(va, 5), 2 * 4096 | P);
	set(&p, 2, idx(va, 4), 3 * 4096 | P);
	set(&p, 3, idx(va, 3), 4 * 4096 | P);
	set(&p, 4, idx(va, 2), 5 * 4096 | P);
	set(&p, 5, idx(va, 1), 6 * 4096 | P);
	CHECK_OK(oc_pgwalk_init(&w, phys_read, &p, 1 * 4096, 5));
	CHECK_OK(oc_pgwalk_translate(&w, va, &pa));
	CHECK_EQ(pa, 6 * 4096 + 0x123);
	CHECK_EQ(p.reads, 5);
	/* the same address is non-canonical with 4 levels */
	CHECK_OK(oc_pgwalk_init(&w, phys_read, &p, 1 * 4096, 4));
	err = oc_pgwalk_translate(&w, va, &pa);
	CHECK(err && err->code == OC_ERR_FAULT && err->address == va);
	CHECK(err && strstr(err->message, "non-canonical"));
	oc_error_destroy(err);
	/* and with 5 levels, bits 63..57 must agree */
	CHECK_OK(oc_pgwalk_init(&w, phys_read, &p, 1 * 4096, 5));
	err = oc_pgwalk_translate(&w, 0x7f00000000000000ULL, &pa);
	CHECK(err && strstr(err->message, "non-canonical"));
	oc_error_destroy(err);
	err = oc_pgwalk_init(&w, phys_read, &p, 0, 3);
	CHECK(err && err->code == OC_ERR_INVALID);
	oc_error_destroy(err);
}

TEST(pgwalk_table_outside_memory)
{
	static struct phys p;
	struct oc_pgwalk w;
	uint64_t pa = 0;
	struct oc_error *err;

	build4(&p);
	/* the PDPT pointer goes past the end of "physical memory" */
	set(&p, 1, idx(KVA, 4), 0x7ffff000ULL | P);
	CHECK_OK(oc_pgwalk_init(&w, phys_read, &p, 1 * 4096, 4));
	err = oc_pgwalk_translate(&w, KVA, &pa);
	CHECK(err && err->code == OC_ERR_FAULT && err->address == KVA);
	CHECK(err && strstr(err->message, "PUD"));
	oc_error_destroy(err);
}
