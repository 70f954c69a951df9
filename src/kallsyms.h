/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's own symbol table (kernel/kallsyms.c) decoded from target
 * memory, for the dump-only path: names compressed with a 256-entry
 * token table, the type letter as the first expanded character, and
 * addresses stored as 32-bit offsets from kallsyms_relative_base
 * (CONFIG_KALLSYMS_BASE_RELATIVE) or as plain addresses.  Kernels since
 * 6.0 publish where the tables are in VMCOREINFO (commits 5fd8fea935a1
 * "vmcoreinfo: include kallsyms symbols" and f09bddbd8661).
 */
#ifndef OC_KALLSYMS_H
#define OC_KALLSYMS_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"
#include "mem.h"
#include "symtab.h"

/* Where the tables are (VMCOREINFO SYMBOL(...) values); 0 = absent. */
struct oc_kallsyms_loc {
	uint64_t names;		/* kallsyms_names */
	uint64_t num_syms;	/* kallsyms_num_syms (unsigned int) */
	uint64_t token_table;	/* kallsyms_token_table */
	uint64_t token_index;	/* kallsyms_token_index (256 x u16) */
	uint64_t offsets;	/* kallsyms_offsets (s32), base-relative */
	uint64_t relative_base;	/* kallsyms_relative_base (unsigned long) */
	uint64_t addresses;	/* kallsyms_addresses, without BASE_RELATIVE */
	/*
	 * The address of _stext (VMCOREINFO SYMBOL(_stext)): the offset rule
	 * in use (absolute per-CPU or not) and, when the kernel no longer has
	 * kallsyms_relative_base, the base itself are derived from it.
	 */
	uint64_t stext;
	/*
	 * Prefer the two-byte length encoding of "big" symbols (commit
	 * 73bbb94466fd "kallsyms: support "big" kernel symbols", 6.1) first.
	 * Nothing in the tables says which encoding is used; both are tried
	 * and the one that kallsyms_markers confirms wins.
	 */
	bool long_names;
};

/* How the tables decoded, for reports and tests. */
enum oc_kallsyms_rule {
	OC_KALLSYMS_ABSOLUTE = 1,	/* kallsyms_addresses[] */
	OC_KALLSYMS_RELATIVE,		/* base + (u32)offset */
	OC_KALLSYMS_ABSOLUTE_PERCPU,	/* offset >= 0: absolute, else base - 1 - offset */
	OC_KALLSYMS_PLACE_RELATIVE,	/* 7.x: &kallsyms_offsets[i] + (s32)offset */
};

struct oc_kallsyms_info {
	uint32_t nr_syms;		/* kallsyms_num_syms */
	size_t nr_percpu;		/* of them, per-CPU symbols */
	enum oc_kallsyms_rule rule;
	uint64_t base;			/* kallsyms_relative_base (or derived);
					 * place-relative: kallsyms_offsets */
	bool base_derived;		/* from _stext: no kallsyms_relative_base */
	bool long_names;		/* the length encoding that decoded */
	bool markers_checked;		/* kallsyms_markers agreed with the decode */
	size_t names_len;		/* bytes of kallsyms_names */
};

/* Caps on what a hostile dump can make us allocate. */
enum {
	OC_KALLSYMS_MAX_SYMS = 1 << 22,
	OC_KALLSYMS_MAX_NAMES = 64 << 20,
	OC_KALLSYMS_NAME_LEN = 512,	/* KSYM_NAME_LEN since 6.1 */
};

/*
 * Decode every symbol into @syms (relocated addresses, as the kernel
 * sees them) and the per-CPU ones into @percpu_syms (their offsets into
 * a CPU's per-CPU area: the absolute 'A' symbols under
 * CONFIG_KALLSYMS_ABSOLUTE_PERCPU, else those in
 * [__per_cpu_start, __per_cpu_end)).  Both tables are finished.
 * @info_ret may be NULL.
 */
struct oc_error *oc_kallsyms_read(const struct oc_mem *mem,
				  const struct oc_kallsyms_loc *loc,
				  struct oc_symtab *syms,
				  struct oc_symtab *percpu_syms,
				  struct oc_kallsyms_info *info_ret);

/*
 * Where the tables may be, found by their shape in a copy of the kernel
 * image (@img: @len bytes read from address @addr; unreadable pages
 * zero), for kernels whose VMCOREINFO does not say (before 6.0).  See
 * kallsyms.c for the rules.  Each candidate in @cands (at most @max) has
 * the names, count and token tables, and one way the addresses may be
 * stored; the caller tries them in order with oc_kallsyms_read() and
 * checks the result against VMCOREINFO.  Returns how many were found
 * and, in *@why_ret when none, which step failed.
 */
size_t oc_kallsyms_scan(const uint8_t *img, size_t len, uint64_t addr,
			bool long_names_first, struct oc_kallsyms_loc *cands,
			size_t max, const char **why_ret);

#endif /* OC_KALLSYMS_H */
