// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: the DWARF byte formats read outside libdwarf through
 * formats/cursor.h: .debug_line programs (formats/lineprog.h) and
 * location lists (oc_dwarf_loclist_find(), formats/dwarfvars.h).
 * Input:
 *	u8  mode		even: a line program, odd: a location list
 *	mode even: the rest is .debug_line from a unit's start
 *	mode odd:
 *	u8  version		< 5: .debug_loc pairs, else .debug_loclists
 *	u64 base, pc
 *	u8  nr_addrs, that many u64 (.debug_addr)
 *	then the list bytes
 * Invariants: a line program gives at most one row per byte, and the
 * same rows twice; a location list's expression lies inside the list;
 * the same answer twice.
 */
#include "dwarfvars.h"
#include "fuzz_common.h"
#include "lineprog.h"

struct rows {
	size_t nr;
	uint64_t sum;
};

static bool row(void *arg, uint64_t addr, uint64_t line, uint64_t file,
		bool end)
{
	struct rows *r = arg;

	r->nr++;
	r->sum = r->sum * 31 + addr + line * 7 + file * 3 + end;
	return true;
}

static void line_program(const uint8_t *unit, size_t len)
{
	struct rows a = { 0 }, b = { 0 };
	struct oc_error *e1 = oc_lineprog_decode(unit, len, row, &a);
	struct oc_error *e2 = oc_lineprog_decode(unit, len, row, &b);

	FUZZ_ASSERT(!e1 == !e2);
	FUZZ_ASSERT(a.nr == b.nr && a.sum == b.sum);
	FUZZ_ASSERT(a.nr <= len);
	if (e1)
		FUZZ_ASSERT(e1->code == OC_ERR_FORMAT);
	fuzz_check_error(e1);
	fuzz_check_error(e2);
}

static void location_list(struct fuzz_in *in)
{
	int version = fuzz_u8(in) < 5 ? 4 : 5;
	uint64_t base = fuzz_u64(in), pc = fuzz_u64(in), addrs[256];
	size_t nr = fuzz_u8(in), len;
	const uint8_t *list, *e1 = NULL, *e2 = NULL;
	size_t l1 = 0, l2 = 0;
	uint8_t *copy;
	int r1, r2;

	for (size_t i = 0; i < nr; i++)
		addrs[i] = fuzz_u64(in);
	len = in->left;
	list = fuzz_bytes(in, &len);
	/* an exact-size heap copy: ASan sees any read past the list */
	copy = malloc(len ? len : 1);
	if (!copy)
		abort();
	if (len)
		memcpy(copy, list, len);
	r1 = oc_dwarf_loclist_find(copy, len, version, base,
				   (const uint8_t *)addrs, nr, pc, &e1, &l1);
	r2 = oc_dwarf_loclist_find(copy, len, version, base,
				   (const uint8_t *)addrs, nr, pc, &e2, &l2);
	FUZZ_ASSERT(r1 >= -1 && r1 <= 1 && r1 == r2);
	if (r1 == 1) {
		FUZZ_ASSERT(e1 == e2 && l1 == l2);
		FUZZ_ASSERT(e1 >= copy && l1 <= len &&
			    (size_t)(e1 - copy) <= len - l1);
	}
	free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	uint8_t mode = fuzz_u8(&in);

	if (mode & 1) {
		location_list(&in);
	} else {
		size_t len = in.left;
		const uint8_t *unit = fuzz_bytes(&in, &len);
		uint8_t *copy = malloc(len ? len : 1);

		if (!copy)
			abort();
		if (len)
			memcpy(copy, unit, len);
		line_program(copy, len);
		free(copy);
	}
	return 0;
}
