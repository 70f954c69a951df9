/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * DWARF call-frame information from .debug_frame (callee-saved registers
 * of the frames above the innermost one, docs/lines.md).  Our own parser over
 * the mapped section, no libdwarf: the kernel's .debug_frame is 2.5 MB of
 * CIEs and FDEs with empty augmentation (gcc -fno-asynchronous-unwind-
 * tables -g), and all we need is the row at one pc.  In a vmlinux
 * (ET_EXEC) .rela.debug_frame is already applied; a .ko's is applied by
 * formats/dwarflines.c's layout, so its FDE addresses are in that layout
 * (oc_dwarf_symbol_addr()).
 *
 * The FDEs are listed once, in 12 bytes each (formats/dwarfcfi.c), and
 * indexed by address once lookups make it pay; a pc that two FDEs cover
 * is answered "no FDE".  The CFA program is run with caps on its length,
 * its operations and the remember_state stack, so hostile bytes end with
 * "malformed", never a crash or a loop.
 */
#ifndef OC_FORMATS_DWARFCFI_H
#define OC_FORMATS_DWARFCFI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"

struct oc_dwarf;
struct oc_cfi;

/* Registers a row keeps rules for: the x86-64 DWARF numbers 0..16
 * (rax .. r15, and 16, the return address column). */
enum { OC_CFI_NR_REGS = 17 };

enum oc_cfi_rule_kind {
	OC_CFI_UNSPECIFIED,	/* not mentioned: for a callee-saved register
				 * gcc's convention is "same value" */
	OC_CFI_UNDEFINED,	/* DW_CFA_undefined */
	OC_CFI_SAME_VALUE,	/* DW_CFA_same_value */
	OC_CFI_OFFSET,		/* saved at CFA + off */
	OC_CFI_VAL_OFFSET,	/* the value is CFA + off */
	OC_CFI_REGISTER,	/* in register ->reg */
	OC_CFI_EXPRESSION,	/* DW_CFA_(val_)expression: not evaluated */
};

struct oc_cfi_rule {
	enum oc_cfi_rule_kind kind;
	int64_t off;
	unsigned reg;
};

enum oc_cfi_cfa_kind {
	OC_CFI_CFA_REG_OFFSET,	/* CFA = reg + off */
	OC_CFI_CFA_EXPRESSION,	/* DW_CFA_def_cfa_expression: not computed */
	OC_CFI_CFA_UNDEFINED,	/* no CFA rule (a bad CIE) */
};

struct oc_cfi_row {
	uint64_t fde_start, fde_end;	/* the FDE's range */
	enum oc_cfi_cfa_kind cfa_kind;
	unsigned cfa_reg;
	int64_t cfa_off;
	struct oc_cfi_rule regs[OC_CFI_NR_REGS];
};

enum oc_cfi_status {
	OC_CFI_FOUND,		/* *ret is the row at the pc */
	OC_CFI_NO_FDE,		/* no FDE (or two) covers the pc */
	OC_CFI_MALFORMED,	/* the FDE or its CIE could not be read */
};

/*
 * An index over the bytes of a .debug_frame section (@sec stays owned by
 * the caller and must outlive the index).  Entries that cannot be parsed
 * are skipped (counted in *nr_bad_ret if not NULL); a length that runs
 * past the section ends the scan.  Only allocation fails.
 */
struct oc_error *oc_cfi_create(const uint8_t *sec, size_t size,
			       struct oc_cfi **ret, size_t *nr_bad_ret);
void oc_cfi_destroy(struct oc_cfi *cfi);
size_t oc_cfi_nr_fdes(const struct oc_cfi *cfi);

/*
 * The index as bytes, for oc_cfi_view() over the same section in a later
 * run (made now if lookups had not made it yet).  Only a write fails.
 */
struct oc_error *oc_cfi_write_index(struct oc_cfi *cfi, FILE *fp);
/*
 * The index oc_cfi_write_index() wrote for @sec (@size bytes), over
 * @index itself (8-byte aligned, @len bytes; borrowed: it must outlive
 * the result): nothing is listed or sorted.  Bytes of another section's
 * size, or that do not make whole entries, are OC_ERR_FORMAT.  Damaged
 * entries cost answers, not safety: an FDE is read from the section
 * with its bounds checked and answers only the pcs it covers.
 */
struct oc_error *oc_cfi_view(const uint8_t *sec, size_t size,
			     const void *index, size_t len,
			     struct oc_cfi **ret);

/* The row at @pc.  @why, when not NULL and the status is MALFORMED, gets
 * a short reason (NUL-terminated). */
enum oc_cfi_status oc_cfi_find(const struct oc_cfi *cfi, uint64_t pc,
			       struct oc_cfi_row *ret, char *why,
			       size_t why_size);

/*
 * The row at link-time address @pc of a vmlinux or .ko opened with
 * oc_dwarf_open() (index built on the first call, kept until
 * oc_dwarf_close()).  No .debug_frame: OC_CFI_NO_FDE.  Only allocation
 * failure is an error.
 */
struct oc_error *oc_dwarf_cfi_find(struct oc_dwarf *d, uint64_t pc,
				   struct oc_cfi_row *row,
				   enum oc_cfi_status *status_ret);

/* "unspecified", "undefined", "same value", "offset", ... */
const char *oc_cfi_rule_kind_string(enum oc_cfi_rule_kind kind);

#endif /* OC_FORMATS_DWARFCFI_H */
