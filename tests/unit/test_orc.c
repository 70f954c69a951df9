// SPDX-License-Identifier: GPL-2.0-or-later
/* ORC tables of every format version: raw bytes -> parse -> find. */
#include "orc.h"
#include "orc_abi.h"
#include "orc_entries.h"
#include "test.h"

/* Build raw .orc_unwind_ip / .orc_unwind for absolute @ips at @ip_addr. */
static void build_raw(uint64_t ip_addr, const uint64_t *ips,
		      const struct orc_abi_raw *e, size_t n,
		      enum orc_abi_layout layout, uint8_t *ip_buf,
		      uint8_t *orc_buf)
{
	for (size_t i = 0; i < n; i++) {
		int32_t rel = (int32_t)(ips[i] - (ip_addr + 4 * i));
		uint32_t u = (uint32_t)rel;

		ip_buf[4 * i] = (uint8_t)u;
		ip_buf[4 * i + 1] = (uint8_t)(u >> 8);
		ip_buf[4 * i + 2] = (uint8_t)(u >> 16);
		ip_buf[4 * i + 3] = (uint8_t)(u >> 24);
		orc_abi_encode(&e[i], layout, orc_buf + 6 * i);
	}
}

TEST(orc_decode_hand_made_bytes)
{
	/* the entries and their objtool lines: orc_entries.h */
	struct oc_orc_entry e;

	oc_orc_entry_decode(OC_ORC_V_6_4, orc_call_612, &e);
	CHECK_EQ(e.sp_offset, 8);
	CHECK_EQ(e.sp_reg, OC_ORC_REG_SP);
	CHECK_EQ(e.bp_reg, OC_ORC_REG_UNDEFINED);
	CHECK_EQ(e.type, OC_ORC_TYPE_CALL);
	CHECK(!e.signal);

	oc_orc_entry_decode(OC_ORC_V_4_18, orc_fp_61, &e);
	CHECK_EQ(e.sp_reg, OC_ORC_REG_BP);
	CHECK_EQ(e.sp_offset, 16);
	CHECK_EQ(e.bp_reg, OC_ORC_REG_PREV_SP);
	CHECK_EQ((int)e.bp_offset, -16);
	CHECK_EQ(e.type, OC_ORC_TYPE_CALL);

	/* the same bytes are REGS_PARTIAL before 6.4 and CALL after */
	oc_orc_entry_decode(OC_ORC_V_4_18, orc_call_612, &e);
	CHECK_EQ(e.type, OC_ORC_TYPE_REGS_PARTIAL);
	CHECK(e.signal);	/* derived: pre-6.3 partial frames are signal */

	oc_orc_entry_decode(OC_ORC_V_4_18, orc_end_61, &e);
	CHECK_EQ(e.type, OC_ORC_TYPE_END_OF_STACK);
	CHECK(e.end);

	oc_orc_entry_decode(OC_ORC_V_6_4, orc_partial_612, &e);
	CHECK_EQ(e.type, OC_ORC_TYPE_REGS_PARTIAL);
	CHECK_EQ(e.sp_reg, OC_ORC_REG_DX);
	CHECK(e.signal);
}

TEST(orc_decode_every_layout)
{
	struct orc_abi_raw r = { .sp_offset = -24, .bp_offset = 32,
				 .sp_reg = ORC_ABI_REG_SP_INDIRECT,
				 .bp_reg = ORC_ABI_REG_BP };
	uint8_t raw[6];
	struct oc_orc_entry e;

	/* 4.14: sp_reg UNDEFINED is always the end */
	r.type = ORC_ABI_OLD_TYPE_CALL;
	orc_abi_encode(&r, ORC_ABI_LAYOUT_4_14, raw);
	oc_orc_entry_decode(OC_ORC_V_4_14, raw, &e);
	CHECK_EQ(e.sp_reg, OC_ORC_REG_SP_INDIRECT);
	CHECK_EQ(e.bp_reg, OC_ORC_REG_BP);
	CHECK_EQ((int)e.sp_offset, -24);
	CHECK_EQ(e.bp_offset, 32);
	CHECK_EQ(e.type, OC_ORC_TYPE_CALL);
	r.sp_reg = ORC_ABI_REG_UNDEFINED;
	orc_abi_encode(&r, ORC_ABI_LAYOUT_4_14, raw);
	oc_orc_entry_decode(OC_ORC_V_4_14, raw, &e);
	CHECK_EQ(e.type, OC_ORC_TYPE_END_OF_STACK);

	/* 4.18: only with the end bit; without it undefined */
	orc_abi_encode(&r, ORC_ABI_LAYOUT_4_18, raw);
	oc_orc_entry_decode(OC_ORC_V_4_18, raw, &e);
	CHECK_EQ(e.type, OC_ORC_TYPE_UNDEFINED);
	CHECK(oc_orc_entry_is_weak(OC_ORC_V_4_18, &e));
	r.end = 1;
	orc_abi_encode(&r, ORC_ABI_LAYOUT_4_18, raw);
	CHECK_EQ(raw[5], 0x04);
	oc_orc_entry_decode(OC_ORC_V_4_18, raw, &e);
	CHECK_EQ(e.type, OC_ORC_TYPE_END_OF_STACK);
	CHECK(!oc_orc_entry_is_weak(OC_ORC_V_4_18, &e));

	/* 6.3: signal is bit 10, end bit 11; a CALL may be a signal */
	r.sp_reg = ORC_ABI_REG_SP;
	r.end = 0;
	r.signal = 1;
	r.type = ORC_ABI_OLD_TYPE_CALL;
	orc_abi_encode(&r, ORC_ABI_LAYOUT_6_3, raw);
	CHECK_EQ(raw[5], 0x04);
	oc_orc_entry_decode(OC_ORC_V_6_3, raw, &e);
	CHECK(e.signal);
	CHECK_EQ(e.type, OC_ORC_TYPE_CALL);
	/* a 6.3 REGS entry without signal stays non-signal */
	r.signal = 0;
	r.type = ORC_ABI_OLD_TYPE_REGS;
	orc_abi_encode(&r, ORC_ABI_LAYOUT_6_3, raw);
	oc_orc_entry_decode(OC_ORC_V_6_3, raw, &e);
	CHECK_EQ(e.type, OC_ORC_TYPE_REGS);
	CHECK(!e.signal);

	/* 6.4: 3-bit type, signal bit 11, every type */
	for (unsigned int t = 0; t < 8; t++) {
		static const uint8_t want[8] = {
			OC_ORC_TYPE_UNDEFINED, OC_ORC_TYPE_END_OF_STACK,
			OC_ORC_TYPE_CALL, OC_ORC_TYPE_REGS,
			OC_ORC_TYPE_REGS_PARTIAL, OC_ORC_TYPE_UNDEFINED,
			OC_ORC_TYPE_UNDEFINED, OC_ORC_TYPE_UNDEFINED,
		};
		r.type = t;
		r.signal = t & 1;
		orc_abi_encode(&r, ORC_ABI_LAYOUT_6_4, raw);
		oc_orc_entry_decode(OC_ORC_V_6_4, raw, &e);
		CHECK_EQ(e.type, want[t]);
		CHECK_EQ(e.signal, t & 1);
		CHECK_EQ(e.raw_type, t);
	}

	/* register 10: AX only with the AX hash; 7.1 renumbering */
	r.type = ORC_ABI_TYPE_CALL;
	r.sp_reg = 10;
	r.bp_reg = 12;
	orc_abi_encode(&r, ORC_ABI_LAYOUT_6_4, raw);
	oc_orc_entry_decode(OC_ORC_V_6_4, raw, &e);
	CHECK_EQ(e.sp_reg, OC_ORC_REG_BAD);
	CHECK_EQ(e.bp_reg, OC_ORC_REG_BAD);
	CHECK_EQ(e.raw_sp_reg, 10);
	oc_orc_entry_decode(OC_ORC_V_6_4_AX, raw, &e);
	CHECK_EQ(e.sp_reg, OC_ORC_REG_AX);
	oc_orc_entry_decode(OC_ORC_V_7_1, raw, &e);
	CHECK_EQ(e.sp_reg, OC_ORC_REG_BP_INDIRECT);
	{
		static const uint8_t map71[11] = {
			OC_ORC_REG_UNDEFINED, OC_ORC_REG_AX, OC_ORC_REG_DX,
			OC_ORC_REG_SP, OC_ORC_REG_BP, OC_ORC_REG_DI,
			OC_ORC_REG_R10, OC_ORC_REG_R13, OC_ORC_REG_PREV_SP,
			OC_ORC_REG_SP_INDIRECT, OC_ORC_REG_BP_INDIRECT,
		};
		static const uint8_t map64[10] = {
			OC_ORC_REG_UNDEFINED, OC_ORC_REG_PREV_SP,
			OC_ORC_REG_DX, OC_ORC_REG_DI, OC_ORC_REG_BP,
			OC_ORC_REG_SP, OC_ORC_REG_R10, OC_ORC_REG_R13,
			OC_ORC_REG_BP_INDIRECT, OC_ORC_REG_SP_INDIRECT,
		};
		for (unsigned int i = 1; i < 16; i++) {
			r.sp_reg = i;
			r.bp_reg = i;
			orc_abi_encode(&r, ORC_ABI_LAYOUT_6_4, raw);
			oc_orc_entry_decode(OC_ORC_V_7_1, raw, &e);
			CHECK_EQ(e.bp_reg, i < 11 ? map71[i] : OC_ORC_REG_BAD);
			oc_orc_entry_decode(OC_ORC_V_6_4, raw, &e);
			CHECK_EQ(e.bp_reg, i < 10 ? map64[i] : OC_ORC_REG_BAD);
			oc_orc_entry_decode(OC_ORC_V_4_18, raw, &e);
			CHECK_EQ(e.bp_reg, i < 10 ? map64[i] : OC_ORC_REG_BAD);
		}
	}
}

TEST(orc_parse_checks_sizes)
{
	struct oc_orc_table tab;
	uint8_t ip[8] = { 0 }, orc[12] = { 0 };
	struct oc_error *err;

	oc_orc_table_init(&tab);
	err = oc_orc_table_parse(&tab, OC_ORC_V_6_4, 0x1000, ip, 7, orc, 12);
	CHECK(err && err->code == OC_ERR_FORMAT);
	oc_error_destroy(err);
	err = oc_orc_table_parse(&tab, OC_ORC_V_6_4, 0x1000, ip, 8, orc, 11);
	CHECK(err && err->code == OC_ERR_FORMAT);
	oc_error_destroy(err);
	err = oc_orc_table_parse(&tab, OC_ORC_V_6_4, 0x1000, ip, 4, orc, 12);
	CHECK(err && err->code == OC_ERR_FORMAT);
	oc_error_destroy(err);
	err = oc_orc_table_parse(&tab, OC_ORC_V_UNKNOWN, 0x1000, ip, 8, orc,
				 12);
	CHECK(err);
	oc_error_destroy(err);
	CHECK_OK(oc_orc_table_parse(&tab, OC_ORC_V_6_4, 0x1000, ip, 0, orc,
				    0));
	CHECK_EQ(tab.nr, 0);
	CHECK(!oc_orc_table_find(&tab, 0x1000, NULL, NULL));
	oc_orc_table_deinit(&tab);
}

TEST(orc_parse_relative_ips_and_sort)
{
	/* a module-style unsorted table with a weak terminator sharing an
	 * ip with a real entry, placed after it */
	const uint64_t base = 0xffffffffc0001000ull;
	uint64_t ips[5] = { base + 0x40, base + 0x10, base + 0x40, base,
			    base + 0x80 };
	struct orc_abi_raw e[5] = {
		{ .sp_reg = ORC_ABI_REG_SP, .sp_offset = 8,
		  .type = ORC_ABI_TYPE_CALL },
		{ .sp_reg = ORC_ABI_REG_SP, .sp_offset = 16,
		  .type = ORC_ABI_TYPE_CALL },
		{ .type = ORC_ABI_TYPE_UNDEFINED },	/* weak */
		{ .sp_reg = ORC_ABI_REG_SP, .sp_offset = 24,
		  .type = ORC_ABI_TYPE_CALL },
		{ .type = ORC_ABI_TYPE_END_OF_STACK },
	};
	uint8_t ipb[20], orcb[30];
	struct oc_orc_table tab;
	struct oc_orc_entry got;
	uint64_t at;

	build_raw(base + 0x10000, ips, e, 5, ORC_ABI_LAYOUT_6_4, ipb, orcb);
	oc_orc_table_init(&tab);
	CHECK_OK(oc_orc_table_parse(&tab, OC_ORC_V_6_4, base + 0x10000, ipb,
				    20, orcb, 30));
	CHECK_EQ(tab.nr, 5);
	for (size_t i = 1; i < tab.nr; i++)
		CHECK(oc_orc_table_ip(&tab, i - 1) <= oc_orc_table_ip(&tab, i));
	CHECK_EQ(oc_orc_table_ip(&tab, 0), base);
	/* unsorted as read: every entry decoded and every ip made absolute,
	 * in the sorted order */
	CHECK(tab.entries != NULL && tab.raw == NULL);
	CHECK(tab.ips != NULL && tab.ip_raw == NULL);
	CHECK_EQ(tab.entries[0].sp_offset, 24);
	/* the weak entry sorts left of the real one at the same ip */
	CHECK_EQ(oc_orc_table_ip(&tab, 2), base + 0x40);
	CHECK_EQ(tab.entries[2].type, OC_ORC_TYPE_UNDEFINED);
	CHECK_EQ(tab.entries[3].sp_offset, 8);
	CHECK(oc_orc_table_find(&tab, base + 0x47, &got, &at));
	CHECK_EQ(got.sp_offset, 8);
	CHECK_EQ(at, base + 0x40);
	CHECK(oc_orc_table_find(&tab, base + 0x3f, &got, &at));
	CHECK_EQ(got.sp_offset, 16);
	CHECK(!oc_orc_table_find(&tab, base - 1, &got, &at));
	CHECK(oc_orc_table_find(&tab, base + 0x100000, &got, &at));
	CHECK_EQ(got.type, OC_ORC_TYPE_END_OF_STACK);

	/* KASLR */
	oc_orc_table_relocate(&tab, 0x200000);
	CHECK(oc_orc_table_find(&tab, base + 0x200047, &got, &at));
	CHECK_EQ(got.sp_offset, 8);
	CHECK_EQ(at, base + 0x200040);
	CHECK(!oc_orc_table_find(&tab, base + 0x1fffff, &got, &at));
	oc_orc_table_deinit(&tab);
}

static uint64_t rnd_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	return oc_test_rand(&rnd_state);
}

/* the reference: rightmost entry <= ip by plain binary search */
static long plain_find(const struct oc_orc_table *tab, uint64_t ip)
{
	size_t lo = 0, hi = tab->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (oc_orc_table_ip(tab, mid) <= ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (long)lo - 1;
}

/* Returns the number of disagreements (the first one is reported).  The
 * tables are random_entries()'s: entry i's sp_offset is i. */
static int check_random_lookups(const struct oc_orc_table *tab,
				uint64_t lo, uint64_t span, int n)
{
	int bad = 0;

	for (int i = 0; i < n; i++) {
		uint64_t ip = lo + rnd() % span;
		long want = plain_find(tab, ip);
		struct oc_orc_entry got;
		uint64_t at = 0;
		bool found = oc_orc_table_find(tab, ip, &got, &at);

		if (found != (want >= 0) ||
		    (found && (at != oc_orc_table_ip(tab, want) ||
			       got.sp_offset != (int16_t)want))) {
			if (!bad++)
				printf("  lookup of 0x%llx disagrees with binary search\n",
				       (unsigned long long)ip);
		}
	}
	return bad;
}

/* @n CALL entries (sp_offset: their number) from @ip on, with gaps of
 * 0..@max_gap-1 bytes, a quarter of them 0 (duplicate ips) when @dups;
 * the last ip. */
static uint64_t random_entries(uint64_t *ips, struct orc_abi_raw *e, int n,
			       uint64_t ip, unsigned int max_gap, bool dups)
{
	for (int i = 0; i < n; i++) {
		if (dups)
			ip += rnd() % 4 ? rnd() % max_gap : 0;
		else
			ip += rnd() % max_gap;
		ips[i] = ip;
		e[i] = (struct orc_abi_raw){ .sp_reg = ORC_ABI_REG_SP,
					     .sp_offset = (int16_t)i,
					     .type = ORC_ABI_TYPE_CALL };
	}
	return ip;
}

/* A random table of N entries in kernel text, for the tests below. */
enum { N = 20000 };
static const uint64_t text = 0xffffffff81000000ull;
static uint64_t ips[N];
static struct orc_abi_raw e[N];
static uint8_t ipb[4 * N], orcb[6 * N];

TEST(orc_lookup_agrees_with_binary_search)
{
	struct oc_orc_table tab;
	uint64_t ip = text;

	/* gaps of 0..600 bytes: blocks with no entry, with many, and
	 * duplicate ips */
	ip = random_entries(ips, e, N, ip, 600, true);
	build_raw(text + 0x1000000, ips, e, N, ORC_ABI_LAYOUT_6_4, ipb, orcb);
	oc_orc_table_init(&tab);
	CHECK_OK(oc_orc_table_parse(&tab, OC_ORC_V_6_4, text + 0x1000000, ipb,
				    sizeof(ipb), orcb, sizeof(orcb)));
	CHECK(tab.lookup != NULL);
	/* sorted as read: the ips and entries stay as on disk (copies: not
	 * borrowed), read on lookup */
	CHECK(tab.raw != NULL && tab.entries == NULL);
	CHECK(tab.ip_raw != NULL && tab.ips == NULL);
	CHECK(tab.ip_raw != ipb && tab.raw != orcb);
	CHECK_EQ(check_random_lookups(&tab, text - 0x1000, ip - text + 0x4000,
				      200000), 0);
	/* entry ips and their neighbours */
	{
		int bad = 0;

		for (int i = 0; i < N && !bad; i += 7)
			bad += check_random_lookups(&tab, ips[i] - 1, 3, 4);
		CHECK_EQ(bad, 0);
	}

	/* a lookup range like _stext.._etext that leaves the tail out */
	CHECK_OK(oc_orc_table_set_lookup_range(&tab, text, text + (ip - text) / 2));
	CHECK_EQ(check_random_lookups(&tab, text - 0x1000, ip - text + 0x4000,
				      100000), 0);
	oc_orc_table_relocate(&tab, 0x3a000000);
	CHECK_EQ(check_random_lookups(&tab, text + 0x3a000000 - 0x1000,
				      ip - text + 0x4000, 100000), 0);
	oc_orc_table_deinit(&tab);
}

/* How many of tab's ips are not @ips[i] + @delta (the first is reported). */
static int count_wrong_ips(const struct oc_orc_table *tab, const uint64_t *want,
			   uint64_t delta)
{
	int bad = 0;

	for (size_t i = 0; i < tab->nr; i++) {
		if (oc_orc_table_ip(tab, i) != want[i] + delta && !bad++)
			printf("  ip %zu is 0x%llx, not 0x%llx\n", i,
			       (unsigned long long)oc_orc_table_ip(tab, i),
			       (unsigned long long)(want[i] + delta));
	}
	return bad;
}

TEST(orc_sorted_table_reads_its_ip_section)
{
	/* the section after the text (negative s32s, as in a vmlinux) and
	 * before it (positive) */
	static const uint64_t at[] = { text + 0x1000000, text - 0x10000 };
	static uint8_t saved[4 * N];
	uint64_t ip = random_entries(ips, e, N, text, 600, true);

	for (size_t a = 0; a < sizeof(at) / sizeof(at[0]); a++) {
		struct oc_orc_table tab;

		build_raw(at[a], ips, e, N, ORC_ABI_LAYOUT_6_4, ipb, orcb);
		memcpy(saved, ipb, sizeof(ipb));
		oc_orc_table_init(&tab);
		CHECK_OK(oc_orc_table_parse_borrowed(&tab, OC_ORC_V_6_4, at[a],
						     ipb, sizeof(ipb), orcb,
						     sizeof(orcb)));
		/* borrowed: no array of ips, nothing copied */
		CHECK(tab.ips == NULL && tab.ip_owned == NULL);
		CHECK(tab.ip_raw == ipb && tab.raw == orcb);
		CHECK_EQ(count_wrong_ips(&tab, ips, 0), 0);
		CHECK_EQ(check_random_lookups(&tab, text - 0x1000,
					      ip - text + 0x4000, 50000), 0);
		/* KASLR moves the ips, not the borrowed bytes */
		oc_orc_table_relocate(&tab, 0x3a000000);
		CHECK(tab.ip_raw == ipb && !memcmp(saved, ipb, sizeof(ipb)));
		CHECK_EQ(count_wrong_ips(&tab, ips, 0x3a000000), 0);
		CHECK_EQ(check_random_lookups(&tab, text + 0x3a000000 - 0x1000,
					      ip - text + 0x4000, 50000), 0);
		/* and again: relocations add up */
		oc_orc_table_relocate(&tab, (uint64_t)-0x200000);
		CHECK_EQ(count_wrong_ips(&tab, ips, 0x39e00000), 0);
		oc_orc_table_deinit(&tab);

		/* parsed from bytes the caller frees: a copy, read the same */
		CHECK_OK(oc_orc_table_parse(&tab, OC_ORC_V_6_4, at[a], ipb,
					    sizeof(ipb), orcb, sizeof(orcb)));
		CHECK(tab.ips == NULL && tab.ip_owned != NULL &&
		      tab.ip_raw == tab.ip_owned);
		memset(ipb, 0, sizeof(ipb));
		CHECK_EQ(count_wrong_ips(&tab, ips, 0), 0);
		oc_orc_table_relocate(&tab, 0x200000);
		CHECK_EQ(count_wrong_ips(&tab, ips, 0x200000), 0);
		oc_orc_table_deinit(&tab);
	}
}

/* The kernel's orc_lookup[] for @tab's range, from the test's own sorted
 * @want ips by a walk: block i's rightmost entry at or below its start
 * (0 when none is), the last block's at the range's stop. */
static uint32_t *reference_index(const struct oc_orc_table *tab,
				 const uint64_t *want)
{
	uint32_t *ref = calloc(tab->lookup_blocks, sizeof(*ref));

	for (size_t b = 0, j = 0; ref && b < tab->lookup_blocks; b++) {
		uint64_t at = b + 1 < tab->lookup_blocks ?
			tab->lookup_start + OC_ORC_LOOKUP_BLOCK_SIZE * b :
			tab->lookup_stop;

		while (j + 1 < tab->nr && want[j + 1] <= at)
			j++;
		ref[b] = (uint32_t)j;
	}
	return ref;
}

TEST(orc_lookup_filled_on_first_use)
{
	struct oc_orc_table tab;
	uint64_t ip = random_entries(ips, e, N, text + 0x37, 600, true);
	uint64_t start;
	uint32_t *ref;
	size_t filled = 0;
	int bad = 0, n;

	build_raw(text + 0x1000000, ips, e, N, ORC_ABI_LAYOUT_6_4, ipb, orcb);
	oc_orc_table_init(&tab);
	CHECK_OK(oc_orc_table_parse_borrowed(&tab, OC_ORC_V_6_4,
					     text + 0x1000000, ipb,
					     sizeof(ipb), orcb, sizeof(orcb)));
	CHECK(tab.lookup != NULL && tab.lookup_blocks > 2);
	if (!tab.lookup)
		goto out;
	start = tab.lookup_start;
	CHECK_EQ(start, ips[0] & ~(uint64_t)(OC_ORC_LOOKUP_BLOCK_SIZE - 1));
	CHECK_EQ(tab.lookup_stop, ip + 1);
	for (size_t b = 0; b < tab.lookup_blocks; b++)
		filled += tab.lookup[b] != 0;
	CHECK_EQ(filled, 0);	/* nothing until a lookup */
	ref = reference_index(&tab, ips);
	CHECK(ref != NULL);
	if (!ref)
		goto out;

	/* a few blocks' edges: the last byte before, the first and the last
	 * of the block; then the range's end (the last ip, the ending
	 * block); only the blocks these lookups read are filled */
	for (int k = 0; k < 64; k++) {
		size_t b = 1 + rnd() % (tab.lookup_blocks - 3);
		uint64_t at = start + OC_ORC_LOOKUP_BLOCK_SIZE * b;

		bad += check_random_lookups(&tab, at - 1, 1, 1);
		bad += check_random_lookups(&tab, at, 1, 1);
		bad += check_random_lookups(&tab, at + 255, 1, 1);
	}
	bad += check_random_lookups(&tab, ip, 1, 1);
	bad += check_random_lookups(&tab, start, 1, 1);
	CHECK_EQ(bad, 0);
	filled = 0;
	for (size_t b = 0; b < tab.lookup_blocks; b++) {
		uint32_t v = tab.lookup[b];

		filled += v != 0;
		if (v && v != ref[b] + 1 && !bad++)
			printf("  block %zu filled with %u, not %u + 1\n", b, v,
			       ref[b]);
	}
	CHECK_EQ(bad, 0);
	CHECK(filled >= 2 && filled <= 3 * 64 + 4);
	CHECK(tab.lookup[tab.lookup_blocks - 1] != 0);	/* the ending block */

	/* KASLR's whole blocks keep what was filled; the rest is filled at
	 * the new addresses */
	oc_orc_table_relocate(&tab, 0x200000);
	CHECK_EQ(tab.lookup_start, start + 0x200000);
	for (size_t b = 0; b < tab.lookup_blocks; b++)
		filled -= tab.lookup[b] != 0;
	CHECK_EQ(filled, 0);
	CHECK_EQ(check_random_lookups(&tab, text + 0x200000 - 0x1000,
				      ip - text + 0x4000, 50000), 0);
	for (size_t b = 0; b < tab.lookup_blocks; b++)
		bad += oc_orc_table_lookup_at(&tab, b) != ref[b];
	CHECK_EQ(bad, 0);
	free(ref);

	/* a range like _stext.._etext, entries after its end: the ending
	 * block is the stop's, not its own start's (an entry just above
	 * the stop, below the next block) */
	oc_orc_table_relocate(&tab, -(uint64_t)0x200000);
	for (n = N / 2; n + 1 < N; n++)
		if (ips[n] > ips[n - 1] &&
		    (ips[n] - 1 - start) % OC_ORC_LOOKUP_BLOCK_SIZE)
			break;
	CHECK_OK(oc_orc_table_set_lookup_range(&tab, start, ips[n] - 1));
	ref = reference_index(&tab, ips);
	CHECK(ref != NULL);
	for (size_t b = 0; ref && b < tab.lookup_blocks; b++)
		bad += oc_orc_table_lookup_at(&tab, b) != ref[b];
	CHECK_EQ(bad, 0);
	free(ref);
out:
	oc_orc_table_deinit(&tab);
}

TEST(orc_unsorted_table_lookups)
{
	/* distinct ips (entry i's sp_offset is its place once sorted),
	 * stored out of order as a module's before the kernel sorts it */
	struct oc_orc_table tab;
	uint64_t ip = text;
	uint64_t *shuf_ips = malloc(N * sizeof(*shuf_ips));
	struct orc_abi_raw *shuf_e = malloc(N * sizeof(*shuf_e));
	uint32_t *ref;
	int bad = 0;

	CHECK(shuf_ips && shuf_e);
	if (!shuf_ips || !shuf_e)
		goto out;
	for (int i = 0; i < N; i++) {
		ip += 1 + rnd() % 600;
		ips[i] = ip;
		e[i] = (struct orc_abi_raw){ .sp_reg = ORC_ABI_REG_SP,
					     .sp_offset = (int16_t)i,
					     .type = ORC_ABI_TYPE_CALL };
	}
	memcpy(shuf_ips, ips, N * sizeof(*ips));
	memcpy(shuf_e, e, N * sizeof(*e));
	for (int i = N - 1; i > 0; i--) {
		int j = (int)(rnd() % (uint64_t)(i + 1));
		uint64_t t = shuf_ips[i];
		struct orc_abi_raw te = shuf_e[i];

		shuf_ips[i] = shuf_ips[j];
		shuf_ips[j] = t;
		shuf_e[i] = shuf_e[j];
		shuf_e[j] = te;
	}
	build_raw(text + 0x1000000, shuf_ips, shuf_e, N, ORC_ABI_LAYOUT_6_4,
		  ipb, orcb);
	oc_orc_table_init(&tab);
	CHECK_OK(oc_orc_table_parse_borrowed(&tab, OC_ORC_V_6_4,
					     text + 0x1000000, ipb,
					     sizeof(ipb), orcb, sizeof(orcb)));
	/* borrowed or not, an unsorted table is the sorted copy */
	CHECK(tab.ips != NULL && tab.entries != NULL && tab.ip_raw == NULL);
	CHECK_EQ(count_wrong_ips(&tab, ips, 0), 0);
	CHECK_EQ(check_random_lookups(&tab, text - 0x1000, ip - text + 0x4000,
				      50000), 0);
	oc_orc_table_relocate(&tab, 0x3a000000);
	CHECK_EQ(count_wrong_ips(&tab, ips, 0x3a000000), 0);
	CHECK_EQ(check_random_lookups(&tab, text + 0x3a000000 - 0x1000,
				      ip - text + 0x4000, 50000), 0);
	ref = reference_index(&tab, tab.ips);
	for (size_t b = 0; ref && b < tab.lookup_blocks; b++)
		bad += oc_orc_table_lookup_at(&tab, b) != ref[b];
	CHECK(ref != NULL);
	CHECK_EQ(bad, 0);
	free(ref);
	oc_orc_table_deinit(&tab);
out:
	free(shuf_ips);
	free(shuf_e);
}

/* The index a relocation keeps (a whole number of blocks) or rebuilds is
 * the one built from scratch at the new addresses. */
static int check_index_as_built(struct oc_orc_table *tab)
{
	uint32_t *kept = NULL;
	size_t blocks = tab->lookup_blocks;
	uint64_t start = tab->lookup_start, stop = tab->lookup_stop;
	int bad = 0;

	if (tab->lookup) {
		kept = malloc(blocks * sizeof(*kept));
		if (!kept)
			return 1;
		for (size_t i = 0; i < blocks; i++)
			kept[i] = oc_orc_table_lookup_at(tab, i);
	}
	CHECK_OK(oc_orc_table_build_lookup(tab));
	if (!tab->lookup != !kept || tab->lookup_blocks != blocks ||
	    tab->lookup_start != start || tab->lookup_stop != stop)
		bad = 1;
	for (size_t i = 0; kept && !bad && i < blocks; i++)
		bad = kept[i] != oc_orc_table_lookup_at(tab, i);
	free(kept);
	return bad;
}

TEST(orc_relocate_keeps_or_rebuilds_the_index)
{
	/* KASLR's 2 MiB steps, one block, and deltas the index cannot
	 * follow: a byte, half a block, one that wraps the last ips
	 * round (0xffffffff81000000 + 0x7ef80000 + 8 MiB) */
	static const uint64_t deltas[] = { 0x200000, 0x3a000000, 256, 1, 128,
					   0x7ef80000, 0 };
	uint64_t ip = text + 0x37;	/* the first block starts below it */

	ip = random_entries(ips, e, N, ip, 800, false);
	build_raw(text, ips, e, N, ORC_ABI_LAYOUT_6_4, ipb, orcb);
	for (size_t d = 0; d < sizeof(deltas) / sizeof(deltas[0]); d++) {
		for (int ranged = 0; ranged < 2; ranged++) {
			struct oc_orc_table tab;
			uint64_t at = text + deltas[d];

			oc_orc_table_init(&tab);
			CHECK_OK(oc_orc_table_parse(&tab, OC_ORC_V_6_4, text, ipb,
						    sizeof(ipb), orcb, sizeof(orcb)));
			if (ranged)
				CHECK_OK(oc_orc_table_set_lookup_range(
					&tab, text, text + (ip - text) / 2));
			oc_orc_table_relocate(&tab, deltas[d]);
			CHECK_EQ(oc_orc_table_ip(&tab, 0), ips[0] + deltas[d]);
			CHECK_EQ(check_index_as_built(&tab), 0);
			if (at > text && oc_orc_table_ip(&tab, N - 1) > oc_orc_table_ip(&tab, 0))	/* not wrapped */
				CHECK_EQ(check_random_lookups(&tab, at - 0x1000,
							      ip - text + 0x4000,
							      20000), 0);
			oc_orc_table_deinit(&tab);
		}
	}
}

TEST(orc_detect_version_by_hash)
{
	/* read from Debian's 6.12.118 vmlinux .orc_header */
	static const uint8_t h612[20] = { 0xfe, 0x5d, 0x32, 0xbf, 0x58, 0x1b,
					  0xd6, 0x3b, 0x2c, 0xa9, 0xa5, 0xc6,
					  0x5b, 0xa5, 0xa6, 0x25, 0xea, 0xb3,
					  0xfe, 0x24 };
	uint8_t other[20];
	enum oc_orc_version v = OC_ORC_V_UNKNOWN;
	struct oc_error *err;

	CHECK_OK(oc_orc_detect_version(h612, 20, "6.12.118+deb12-cloud-amd64",
				       &v));
	CHECK_EQ(v, OC_ORC_V_6_4);
	/* the hash wins over the release */
	CHECK_OK(oc_orc_detect_version(h612, 20, "4.19.0", &v));
	CHECK_EQ(v, OC_ORC_V_6_4);

	memcpy(other, h612, 20);
	other[19] ^= 1;
	err = oc_orc_detect_version(other, 20, "6.12.0", &v);
	CHECK(err);
	if (err) {
		CHECK(strstr(err->message,
			     "fe5d32bf581bd63b2ca9a5c65ba5a625eab3fe25"));
		oc_error_destroy(err);
	}
	err = oc_orc_detect_version(h612, 19, "6.12.0", &v);
	CHECK(err);
	oc_error_destroy(err);
}

TEST(orc_detect_version_by_release)
{
	static const struct {
		const char *release;
		enum oc_orc_version want;	/* UNKNOWN: an error */
	} cases[] = {
		{ "4.14.0-3-amd64", OC_ORC_V_4_14 },
		{ "4.17.19", OC_ORC_V_4_14 },
		{ "4.18.0-553.el8_10.x86_64", OC_ORC_V_4_18 },
		{ "4.19.0-27-amd64", OC_ORC_V_4_18 },
		{ "5.10.0-35-cloud-amd64", OC_ORC_V_4_18 },
		{ "6.1.0-57-cloud-amd64", OC_ORC_V_4_18 },
		{ "6.2.16", OC_ORC_V_4_18 },
		{ "6.3.13", OC_ORC_V_6_3 },
		{ "6.4.0", OC_ORC_V_UNKNOWN },
		{ "6.12.118+deb12-cloud-amd64", OC_ORC_V_UNKNOWN },
		{ "4.9.0-19-amd64", OC_ORC_V_UNKNOWN },
		{ "garbage", OC_ORC_V_UNKNOWN },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		enum oc_orc_version v = OC_ORC_V_UNKNOWN;
		struct oc_error *err =
			oc_orc_detect_version(NULL, 0, cases[i].release, &v);

		if (cases[i].want == OC_ORC_V_UNKNOWN) {
			if (!err)
				FAIL_AT("%s: no error", cases[i].release);
			oc_error_destroy(err);
		} else {
			if (err) {
				FAIL_AT("%s: %s", cases[i].release,
					err->message);
				oc_error_destroy(err);
			}
			if (v != cases[i].want)
				FAIL_AT("%s: version %s", cases[i].release,
					oc_orc_version_name(v));
		}
	}
}

TEST(orc_kernel_semantics_by_release)
{
	CHECK(!oc_orc_sp_indirect_deref_first("5.11.22"));
	CHECK(oc_orc_sp_indirect_deref_first("5.12.0"));
	CHECK(oc_orc_sp_indirect_deref_first("6.1.0-57-cloud-amd64"));
	CHECK(!oc_orc_sp_indirect_deref_first("4.19.0-27-amd64"));
	CHECK(!oc_orc_has_fp_fallback("5.10.0"));
	CHECK(oc_orc_has_fp_fallback("6.1.0-57-cloud-amd64"));
	CHECK(oc_orc_has_fp_fallback("6.12.118+deb12-cloud-amd64"));
}
