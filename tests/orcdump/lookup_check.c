// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Real-data check of the ORC lookup: the kernel filled orc_lookup[] at
 * boot (unwind_init() in arch/x86/kernel/unwind_orc.c).  Our direct index
 * over [_stext, _etext) must hold exactly the same entry numbers, and
 * oc_orc_table_find() must answer like the kernel's orc_find() run on the
 * kernel's own array, for every ip in text.
 *
 *   lookup_check VMCORE VMLINUX   -> PASS/FAIL lines
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel.h"
#include "orc.h"

static int failed;

static void result(bool ok, const char *what, const char *detail)
{
	printf("%s %s%s%s\n", ok ? "PASS" : "FAIL", what, detail ? ": " : "",
	       detail ? detail : "");
	failed += !ok;
}

/*
 * the kernel's orc_find() for vmlinux text, over the kernel's array: its
 * block's entries [first, last] from orc_lookup[], then __orc_find()'s
 * answer, the rightmost entry whose ip <= @ip (first when none is),
 * found by a plain scan: this is the oracle oc_orc_table_find() is held
 * to, so it must not run src/orc.c's binary search (orc_find_range(),
 * checked against another search by tests/unit/test_orc.c).
 */
static long kernel_find(const struct oc_orc_table *tab, const uint32_t *lk,
			uint32_t blocks, uint64_t start, uint64_t ip)
{
	uint64_t idx = (ip - start) / OC_ORC_LOOKUP_BLOCK_SIZE;
	uint32_t first, last;
	long found;

	if (idx >= (uint64_t)blocks - 1)
		return -1;
	first = lk[idx];
	last = lk[idx + 1];	/* stop - 1 */
	if (first >= tab->nr || last >= tab->nr)
		return -1;
	found = first;
	for (uint32_t i = first; i <= last; i++)
		if (oc_orc_table_ip(tab, i) <= ip)
			found = i;
	return found;
}

int main(int argc, char **argv)
{
	struct oc_kernel *k;
	struct oc_error *err;
	uint64_t lk_addr, nb_addr;
	uint32_t blocks;
	uint32_t *lk;
	char buf[256];
	size_t bad = 0, checked = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: lookup_check VMCORE VMLINUX\n");
		return 2;
	}
	err = oc_kernel_open(argv[1], argv[2], NULL, &k);
	if (err) {
		oc_error_string(err, buf, sizeof(buf));
		printf("FAIL open: %s\n", buf);
		return 1;
	}
	lk_addr = oc_kernel_symbol_addr(k, "orc_lookup");
	nb_addr = oc_kernel_symbol_addr(k, "lookup_num_blocks");
	if (!lk_addr || !nb_addr ||
	    oc_mem_read_u32(&k->mem, nb_addr, &blocks) || !blocks ||
	    blocks > (1u << 24)) {
		printf("SKIP orc_lookup: not readable in this dump\n");
		oc_kernel_close(k);
		return 0;
	}
	lk = malloc(4ul * blocks);
	if (!lk || oc_mem_read(&k->mem, lk_addr, lk, 4ul * blocks)) {
		printf("SKIP orc_lookup: cannot read %u blocks\n", blocks);
		free(lk);
		oc_kernel_close(k);
		return 0;
	}

	err = oc_orc_table_set_lookup_range(&k->orc, k->text_start,
					    k->text_end);
	if (err) {
		result(false, "index", "cannot build");
		goto out;
	}
	snprintf(buf, sizeof(buf), "%u blocks from the dump, %zu built",
		 blocks, k->orc.lookup_blocks);
	if (k->orc.lookup_blocks != blocks) {
		result(false, "orc_lookup size", buf);
	} else {
		size_t diff = 0;

		for (uint32_t i = 0; i < blocks; i++)
			diff += oc_orc_table_lookup_at(&k->orc, i) != lk[i];
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf),
			 ", %zu differ", diff);
		result(!diff, "orc_lookup identical to the kernel's", buf);
	}

	/* every 7th byte of text, plus every entry ip */
	for (uint64_t ip = k->text_start; ip < k->text_end; ip += 7) {
		long want = kernel_find(&k->orc, lk, blocks, k->text_start, ip);
		struct oc_orc_entry e;
		uint64_t at = 0;
		bool got = oc_orc_table_find(&k->orc, ip, &e, &at);

		checked++;
		if (want < 0 ? got : (!got || at != oc_orc_table_ip(&k->orc, want)))
			bad++;
	}
	for (size_t i = 0; i < k->orc.nr; i++) {
		uint64_t ip = oc_orc_table_ip(&k->orc, i);
		long want;
		uint64_t at = 0;

		if (ip < k->text_start || ip >= k->text_end)
			continue;
		want = kernel_find(&k->orc, lk, blocks, k->text_start, ip);
		checked++;
		if (want < 0 || !oc_orc_table_find(&k->orc, ip, NULL, &at) ||
		    at != oc_orc_table_ip(&k->orc, want))
			bad++;
	}
	snprintf(buf, sizeof(buf), "%zu of %zu text addresses disagree", bad,
		 checked);
	result(!bad, "orc_find agrees with the kernel's lookup", buf);
out:
	free(lk);
	oc_kernel_close(k);
	return failed ? 1 : 0;
}
