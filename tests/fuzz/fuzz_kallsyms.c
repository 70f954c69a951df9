// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: the kallsyms decoder (src/kallsyms.h) over a memory
 * image.  Input: struct oc_kallsyms_loc's eight addresses (u64 each:
 * names, num_syms, token_table, token_index, offsets, relative_base,
 * addresses, stext), u8 flags (1: long_names; 2: ignore the addresses
 * but stext and find the tables in the first region with
 * oc_kallsyms_scan(), then decode each candidate), then a memory image
 * (fuzz_common.h).
 * Invariants: on success at most OC_KALLSYMS_MAX_SYMS symbols, each
 * name terminated and shorter than OC_KALLSYMS_NAME_LEN.
 */
#include "fuzz_common.h"
#include "kallsyms.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	struct fuzz_image img;
	struct oc_kallsyms_loc loc = { 0 };
	struct oc_kallsyms_info info;
	struct oc_symtab syms, percpu;
	struct oc_error *err;
	uint8_t flags;

	loc.names = fuzz_u64(&in);
	loc.num_syms = fuzz_u64(&in);
	loc.token_table = fuzz_u64(&in);
	loc.token_index = fuzz_u64(&in);
	loc.offsets = fuzz_u64(&in);
	loc.relative_base = fuzz_u64(&in);
	loc.addresses = fuzz_u64(&in);
	loc.stext = fuzz_u64(&in);
	flags = fuzz_u8(&in);
	loc.long_names = flags & 1;
	fuzz_image_read(&in, &img);

	if ((flags & 2) && img.bufs.nr) {
		struct oc_kallsyms_loc cands[8];
		const char *why = NULL;
		size_t n = oc_kallsyms_scan(img.regions[0].data,
					    img.regions[0].len,
					    img.regions[0].addr, loc.long_names,
					    cands, 8, &why);

		FUZZ_ASSERT(n <= 8 && (n > 0) == !why);
		for (size_t i = 0; i < n; i++) {
			cands[i].stext = loc.stext;
			oc_symtab_init(&syms);
			oc_symtab_init(&percpu);
			err = oc_kallsyms_read(&img.mem, &cands[i], &syms,
					       &percpu, &info);
			if (err) {
				fuzz_check_error(err);
			} else {
				FUZZ_CHECK_SYMTAB(&syms);
				FUZZ_CHECK_SYMTAB(&percpu);
			}
			oc_symtab_deinit(&syms);
			oc_symtab_deinit(&percpu);
		}
		return 0;
	}
	oc_symtab_init(&syms);
	oc_symtab_init(&percpu);
	err = oc_kallsyms_read(&img.mem, &loc, &syms, &percpu, &info);
	if (getenv("FUZZ_VERBOSE"))	/* checking a seed */
		fprintf(stderr, "%s: %zu symbols, markers %s\n",
			err ? err->message : "ok", syms.nr,
			!err && info.markers_checked ? "checked" : "not checked");
	if (err) {
		fuzz_check_error(err);
	} else {
		FUZZ_ASSERT(info.nr_syms <= OC_KALLSYMS_MAX_SYMS);
		FUZZ_CHECK_SYMTAB(&syms);
		FUZZ_CHECK_SYMTAB(&percpu);
	}
	oc_symtab_deinit(&syms);
	oc_symtab_deinit(&percpu);
	return 0;
}
