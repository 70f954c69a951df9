/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `orccrash orc-dump`: every ORC entry of a vmlinux or .ko, or of a
 * parsed table, in objtool's `--dump=orc` format for the format version
 * at hand (tools/objtool/orc_dump.c; arch/x86/orc.c since 6.9):
 *
 *   4.18-6.2 (checked against 6.1's objtool):
 *	.text+70: sp:sp+8 bp:(und) type:call end:0
 *   6.4+ (checked against 6.12's objtool):
 *	ffffffff81000000:type:call sp:sp+8 bp:(und) signal:0
 *
 * The location is "name+addend" from .rela.orc_unwind_ip when the file
 * kept it, else the absolute address, exactly as objtool chooses.
 */
#ifndef OC_ORCDUMP_H
#define OC_ORCDUMP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"
#include "orc.h"

/* Dump @path's tables to @out (the version from .orc_header or the
 * release in linux_banner). */
struct oc_error *oc_orcdump_elf(const char *path, FILE *out);

/*
 * Name @addr for the location column ("sym+off" without the colon);
 * false to print the address in hex instead.
 */
typedef bool (*oc_orcdump_resolve_fn)(void *arg, uint64_t addr, char *buf,
				      size_t size);

struct oc_orcdump_style {
	enum oc_orc_version version;
	/* objtool since 5.12 prints SP_INDIRECT as "(sp)+8", before as
	 * "(sp+8)" */
	bool sp_indirect_deref_first;
};

/* Every entry of a parsed (sorted) table; @resolve may be NULL. */
struct oc_error *oc_orcdump_table(const struct oc_orc_table *tab,
				  const struct oc_orcdump_style *style,
				  oc_orcdump_resolve_fn resolve, void *arg,
				  FILE *out);

/* One line; @loc is the location without the colon. */
void oc_orcdump_entry(FILE *out, const struct oc_orcdump_style *style,
		      const char *loc, const struct oc_orc_entry *e);

#endif /* OC_ORCDUMP_H */
