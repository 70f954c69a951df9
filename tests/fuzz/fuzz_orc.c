// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: ORC format detection, table parsing and lookup
 * (src/orc.h).  Input:
 *   u8 version (mod 7: 0 = detect it), u8 flags, u64 ip_addr,
 *   20 bytes .orc_header (used when flags & 1), a NUL-terminated release,
 *   u64 lookup start, u64 lookup stop (flags & 2), u64 KASLR delta
 *   (flags & 4), then n x s32 .orc_unwind_ip and n x 6-byte .orc_unwind
 *   (n from the bytes left; a ragged tail is passed on too when flags & 8).
 * Invariants checked: oc_orc_table_find() answers like a linear search
 * for the rightmost entry at or below the ip, inside and outside the
 * lookup range; with an .orc_header, the detected format is the same
 * whatever release comes with it.
 */
#include "fuzz_common.h"
#include "orc.h"

static bool linear_find(const struct oc_orc_table *tab, uint64_t ip,
			uint64_t *entry_ip_ret)
{
	bool found = false;

	for (size_t i = 0; i < tab->nr; i++) {
		uint64_t at = oc_orc_table_ip(tab, i);

		if (at <= ip && (!found || at >= *entry_ip_ret)) {
			*entry_ip_ret = at;
			found = true;
		}
	}
	return found;
}

static void check_find(const struct oc_orc_table *tab, uint64_t ip)
{
	struct oc_orc_entry e;
	uint64_t got = 0, want = 0;
	bool found = oc_orc_table_find(tab, ip, &e, &got);

	FUZZ_ASSERT(found == linear_find(tab, ip, &want));
	if (found) {
		FUZZ_ASSERT(got == want);
		FUZZ_ASSERT(e.type <= OC_ORC_TYPE_REGS_PARTIAL);
		FUZZ_ASSERT(e.sp_reg <= OC_ORC_REG_BAD);
		FUZZ_ASSERT(e.bp_reg <= OC_ORC_REG_BAD);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	struct oc_orc_table tab;
	enum oc_orc_version version = (enum oc_orc_version)(fuzz_u8(&in) % 7);
	uint8_t flags = fuzz_u8(&in), header[20];
	uint64_t ip_addr = fuzz_u64(&in), start, stop, delta;
	size_t nr, ip_len, orc_len;
	const uint8_t *ips, *orcs;
	char *release;
	struct oc_error *err;

	fuzz_take(&in, header, sizeof(header));
	release = fuzz_string(&in);
	start = fuzz_u64(&in);
	stop = fuzz_u64(&in);
	delta = fuzz_u64(&in);

	if (version == OC_ORC_V_UNKNOWN) {
		err = oc_orc_detect_version(flags & 1 ? header : NULL,
					    flags & 1 ? sizeof(header) : 0,
					    release, &version);
		if (err) {
			FUZZ_ASSERT(version == OC_ORC_V_UNKNOWN);
			fuzz_check_error(err);
		}
		/* an .orc_header decides alone: a release that says another
		 * kernel (VMCOREINFO's OSRELEASE is the least trusted source,
		 * docs/hardening.md) changes nothing */
		if (flags & 1) {
			static const char *const others[] = {
				NULL, "", "4.14.0-hostile", "6.1.0-18-amd64", "../../x",
			};

			for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
				enum oc_orc_version again = OC_ORC_V_UNKNOWN;
				struct oc_error *e2 = oc_orc_detect_version(header, sizeof(header),
									    others[i], &again);

				FUZZ_ASSERT(again == version);
				FUZZ_ASSERT(!e2 == !err);
				fuzz_check_error(e2);
			}
		}
	}
	/* the release rules must take any string */
	(void)oc_orc_sp_indirect_deref_first(release);
	(void)oc_orc_has_fp_fallback(release);
	free(release);
	if (version == OC_ORC_V_UNKNOWN)
		return 0;
	FUZZ_ASSERT(oc_orc_version_name(version) != NULL);

	/* a table whose ips span up to 4 GiB makes a direct index of up
	 * to 2^24 blocks (the cap in src/orc.c), 64 MB mapped each time:
	 * allowed for flags 0xff only, to keep the fuzzer fast */
	if (flags != 0xff && in.left >= 10) {
		int32_t lo = INT32_MAX, hi = INT32_MIN;

		for (size_t i = 0; i < in.left / 10; i++) {
			int32_t rel;

			memcpy(&rel, in.p + 4 * i, 4);
			if (rel / 4 + (int32_t)i < lo)
				lo = rel / 4 + (int32_t)i;
			if (rel / 4 + (int32_t)i > hi)
				hi = rel / 4 + (int32_t)i;
		}
		if ((int64_t)hi - lo > (1 << 22))
			return 0;
	}
	nr = in.left / 10;
	ip_len = 4 * nr;
	orc_len = 6 * nr;
	if (flags & 8) {	/* sizes that do not fit */
		ip_len = in.left / 2;
		orc_len = in.left - ip_len;
	}
	ips = fuzz_bytes(&in, &ip_len);
	orcs = fuzz_bytes(&in, &orc_len);

	oc_orc_table_init(&tab);
	err = oc_orc_table_parse(&tab, version, ip_addr, ips, ip_len, orcs,
				 orc_len);
	if (err) {
		fuzz_check_error(err);
		oc_orc_table_deinit(&tab);
		return 0;
	}
	for (size_t i = 1; i < tab.nr; i++)
		FUZZ_ASSERT(oc_orc_table_ip(&tab, i - 1) <=
			    oc_orc_table_ip(&tab, i));
	/* a huge range is allowed (up to 2^24 blocks) but slow: keep the
	 * fuzzer fast, the cap itself is read in src/orc.c */
	if ((flags & 2) && stop - start < (1u << 20))
		fuzz_check_error(oc_orc_table_set_lookup_range(&tab, start, stop));
	/* the relocation contract: no ip wraps (src/kernel.c refuses a
	 * KERNELOFFSET beyond the 1 GiB KASLR window, found here) */
	if ((flags & 4) && tab.nr) {
		uint64_t first = oc_orc_table_ip(&tab, 0);
		uint64_t last = oc_orc_table_ip(&tab, tab.nr - 1);

		if (last + delta >= first + delta && first + delta >= delta)
			oc_orc_table_relocate(&tab, delta);
	}

	check_find(&tab, 0);
	check_find(&tab, UINT64_MAX);
	check_find(&tab, start);
	check_find(&tab, stop);
	for (size_t i = 0; i < tab.nr && i < 64; i++) {
		uint64_t at = oc_orc_table_ip(&tab, i);

		check_find(&tab, at);
		check_find(&tab, at - 1);
		check_find(&tab, at + 1);
		check_find(&tab, at + 300);
	}
	oc_orc_table_deinit(&tab);
	return 0;
}
