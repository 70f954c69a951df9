/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The variables in scope at an address, from the DWARF opened by
 * formats/dwarflines.h (parameters and locals, docs/lines.md).  Only what the
 * DWARF says: names, C types, and the location expression valid at the
 * address.  Evaluating it against a frame is src/dwexpr.c's job.
 *
 * Lazy like the lines: only the CU of the address is read, and in it
 * only the DIEs whose ranges hold the address.
 */
#ifndef OC_FORMATS_DWARFVARS_H
#define OC_FORMATS_DWARFVARS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

struct oc_dwarf;

/* What a value of the variable's type looks like, typedefs and
 * qualifiers looked through. */
enum oc_dwtype_enc {
	OC_DWENC_UNKNOWN,
	OC_DWENC_SIGNED,
	OC_DWENC_UNSIGNED,
	OC_DWENC_BOOL,
	OC_DWENC_SIGNED_CHAR,
	OC_DWENC_UNSIGNED_CHAR,
	OC_DWENC_FLOAT,
	OC_DWENC_POINTER,
	OC_DWENC_ENUM,		/* ->enums; signedness in ->enum_signed */
	OC_DWENC_COMPOSITE,	/* struct, union, array */
};

struct oc_dwenumerator {
	char *name;
	int64_t value;
};

enum oc_dwvar_loc {
	OC_DWVAR_EXPR,		/* ->expr is the location at the address */
	OC_DWVAR_CONST,		/* ->expr holds DW_AT_const_value's bytes */
	OC_DWVAR_NONE,		/* no location here: optimized out */
	OC_DWVAR_BAD,		/* the location could not be read: ->why */
};

struct oc_dwvar {
	char *name;		/* NULL if anonymous */
	char *type;		/* C type string */
	bool param;		/* DW_TAG_formal_parameter */
	enum oc_dwtype_enc enc;
	bool enum_signed;
	uint64_t size;		/* bytes; 0 if unknown */
	char *composite;	/* OC_DWENC_COMPOSITE: "struct foo", "char [16]" */
	struct oc_dwenumerator *enums;
	size_t nr_enums;
	enum oc_dwvar_loc loc;
	uint8_t *expr;
	size_t expr_len;
	char *why;
};

/* One level of the inline chain, as oc_dwarf_lookup() counts them. */
struct oc_dwscope {
	char *function;
	bool inlined;
	struct oc_dwvar *vars;	/* parameters first, then locals */
	size_t nr_vars;
};

struct oc_dwvars {
	struct oc_dwscope *scopes;	/* innermost first */
	size_t nr_scopes;
	/* the subprogram's DW_AT_frame_base at the address (shared by its
	 * inlined levels); NULL when it has none */
	uint8_t *frame_base;
	size_t frame_base_len;
	char *frame_base_why;	/* set when it could not be read */
};

/*
 * The scopes around link-time address @addr (a .ko: our layout, see
 * oc_dwarf_symbol_addr()).  nr_scopes is 0 when no subprogram covers
 * it.  Errors: allocation failure, or OC_ERR_FORMAT when this address's
 * DWARF could not be read.  A variable whose own DWARF is bad is kept,
 * as OC_DWVAR_BAD.
 */
struct oc_error *oc_dwarf_vars(struct oc_dwarf *d, uint64_t addr,
			       struct oc_dwvars **ret);
void oc_dwvars_free(struct oc_dwvars *v);

/*
 * The C type of the global (or file-static) variable @name whose
 * location is link-time address @addr, as a declaration prints it
 * ("struct task_struct", "volatile long unsigned int", "char [301]",
 * "char *"), into @buf.  From the variables with a DW_OP_addr location
 * at the top level of every CU, indexed by name on the first call (a
 * vmlinux's every CU read once); with none at @addr, an extern's
 * declaration of @name (what only the linker script defines: jiffies).
 * *@size_ret: the type's size in bytes by the DWARF (0: unknown), for
 * the caller to check a layout of the same name against.  OC_ERR_LOOKUP
 * when the DWARF has no such variable at that address.
 */
struct oc_error *oc_dwarf_global_type(struct oc_dwarf *d, const char *name,
				      uint64_t addr, char *buf, size_t size,
				      uint64_t *size_ret);

/*
 * The expression a location list gives for @pc, parsed from raw
 * section bytes (exported for the unit tests): DWARF 5 .debug_loclists
 * (@version >= 5) or DWARF 2-4 .debug_loc.  @list is the list's first
 * entry, @base the CU's base address, @addrs/@nr_addrs the CU's
 * .debug_addr entries from DW_AT_addr_base.  Returns 1 with the
 * expression in *expr_ret and *len_ret, 0 when no entry covers @pc (the
 * variable is optimized out there), -1 when the list is malformed.
 */
int oc_dwarf_loclist_find(const uint8_t *list, size_t size, int version,
			  uint64_t base, const uint8_t *addrs,
			  size_t nr_addrs, uint64_t pc,
			  const uint8_t **expr_ret, size_t *len_ret);

#endif /* OC_FORMATS_DWARFVARS_H */
