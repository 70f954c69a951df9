// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: a symbol cache file's table viewed where its bytes
 * are (formats/symtab.h oc_symtab_view(), src/symcache.c), relocated and
 * asked.  The view reads none of the arrays, so the lookups are what
 * meet a corrupt file.  Input: u64 the KASLR bias, then the table's
 * bytes as oc_symtab_write() lays them out.
 * Invariants: a refused view is OC_ERR_FORMAT and leaves the table empty;
 * a taken one's lookups by address answer a symbol of the table or none
 * (a first value that wraps with the bias included), its names are
 * inside the pool or "?", a lookup by name ends and answers a symbol of
 * the table or none.
 */
#include "fuzz_common.h"

static void check_sym(const struct oc_symtab *tab, const struct oc_symbol *s)
{
	FUZZ_ASSERT(!s || (s >= tab->syms && s < tab->syms + tab->nr));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint64_t addrs[] = { 0, 0x1000, 0xffffffff81000000ull,
					  0xffffffffc0000000ull, UINT64_MAX };
	struct oc_symtab tab;
	struct oc_error *err;
	uint64_t bias;
	size_t used = 0;
	uint8_t *buf;

	if (size < 8)
		return 0;
	memcpy(&bias, data, 8);
	/* malloc: 8-byte aligned, as a mapped file is */
	buf = malloc(size - 8 + 1);
	if (!buf)
		return 0;
	memcpy(buf, data + 8, size - 8);
	err = oc_symtab_view(&tab, buf, size - 8, &used);
	if (err) {
		FUZZ_ASSERT(err->code == OC_ERR_FORMAT && !tab.nr && !tab.syms);
		oc_error_destroy(err);
		free(buf);
		return 0;
	}
	FUZZ_ASSERT(used <= size - 8);
	oc_symtab_relocate(&tab, bias);
	for (size_t i = 0; i < tab.nr && i < 512; i++) {
		const struct oc_symbol *s = &tab.syms[i];
		const char *name = oc_symtab_name(&tab, s);

		FUZZ_ASSERT(!strcmp(name, "?") ||
			    (name >= tab.pool && name < tab.pool + tab.pool_len));
		FUZZ_ASSERT(strlen(name) < tab.pool_len + 2);
		check_sym(&tab, oc_symtab_lookup(&tab, oc_symtab_addr(&tab, s)));
		check_sym(&tab, oc_symtab_lookup(&tab, oc_symtab_addr(&tab, s) + s->size / 2));
		check_sym(&tab, oc_symtab_find(&tab, name));
	}
	for (size_t i = 0; i < sizeof(addrs) / sizeof(addrs[0]); i++) {
		check_sym(&tab, oc_symtab_lookup(&tab, addrs[i]));
		check_sym(&tab, oc_symtab_lookup(&tab, addrs[i] + bias));
	}
	check_sym(&tab, oc_symtab_find(&tab, "linux_banner"));
	oc_symtab_deinit(&tab);		/* frees nothing of buf */
	free(buf);
	return 0;
}
