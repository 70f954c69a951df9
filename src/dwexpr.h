/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A DWARF location-expression evaluator over what one unwound frame
 * knows (parameters and locals, docs/lines.md).  Pure code: the registers,
 * the CFA and target memory come from the caller (src/framevars.c, or a
 * unit test), the expression bytes from the DWARF (formats/dwarfvars.c).
 *
 * It never guesses: an operation that needs a register or the CFA the
 * frame does not know makes the result "unavailable" with the reason,
 * DW_OP_entry_value too (the value at the function's entry is not
 * recoverable from a post-mortem stack), and an empty expression is
 * "optimized out".  The DWARF stack depth and the number of operations
 * executed are capped, so hostile bytes cannot loop or overflow.
 */
#ifndef OC_DWEXPR_H
#define OC_DWEXPR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mem.h"

/* x86-64 DWARF register numbers (System V psABI, figure 3.36). */
enum {
	OC_DWREG_RAX = 0, OC_DWREG_RDX, OC_DWREG_RCX, OC_DWREG_RBX,
	OC_DWREG_RSI, OC_DWREG_RDI, OC_DWREG_RBP, OC_DWREG_RSP,
	OC_DWREG_R8, OC_DWREG_R9, OC_DWREG_R10, OC_DWREG_R11,
	OC_DWREG_R12, OC_DWREG_R13, OC_DWREG_R14, OC_DWREG_R15,
	OC_DWREG_RIP,
	OC_DWREG_NR,
};

enum {
	OC_DWEXPR_MAX_STACK = 64,	/* DWARF stack entries */
	OC_DWEXPR_MAX_OPS = 4096,	/* operations executed */
	OC_DWEXPR_MAX_VALUE = 8,	/* bytes of a value kept */
};

/* What the frame knows. */
struct oc_dwexpr_ctx {
	uint64_t regs[OC_DWREG_NR];
	uint32_t known;		/* bit n: regs[n] holds DWARF register n */
	bool cfa_known;
	uint64_t cfa;
	/* target memory for DW_OP_deref and pieces in memory; NULL: none */
	const struct oc_mem *mem;
	/* added to DW_OP_addr (link-time) operands: the KASLR offset */
	uint64_t addr_offset;
	/* DW_OP_addr is not usable (a module's DWARF laid out by us) */
	bool no_addr;
	/* the subprogram's DW_AT_frame_base at the pc, for DW_OP_fbreg;
	 * NULL/0: none */
	const uint8_t *frame_base;
	size_t frame_base_len;
};

enum oc_dwexpr_status {
	OC_DWEXPR_OK,
	OC_DWEXPR_UNAVAILABLE,	/* ->why */
	OC_DWEXPR_OPTIMIZED_OUT,
	OC_DWEXPR_BAD,		/* malformed expression; ->why */
};

enum oc_dwexpr_loc {
	OC_DWLOC_MEMORY,	/* the object is at ->addr in target memory */
	OC_DWLOC_VALUE,		/* ->bytes[0 .. nr_bytes) is the value
				 * itself (register, stack value, implicit
				 * value, pieces), little-endian */
};

struct oc_dwexpr_result {
	enum oc_dwexpr_status status;
	enum oc_dwexpr_loc loc;
	uint64_t addr;
	uint8_t bytes[OC_DWEXPR_MAX_VALUE];
	size_t nr_bytes;
	/* "%rbx", "[CFA-0x30]", "[%rsp+0x8]", "global 0x...", "computed",
	 * "constant", pieces joined with " + "; "" when unknown */
	char where[96];
	/* UNAVAILABLE / BAD: why ("in %r12, not recovered", "entry value",
	 * "CFA unknown", "read of 8 bytes at 0x... failed", ...) */
	char why[96];
};

/*
 * Evaluate a location description (DW_AT_location's expression at the
 * pc).  Never fails as a call: the outcome is in @ret.
 */
void oc_dwexpr_eval(const struct oc_dwexpr_ctx *ctx, const uint8_t *expr,
		    size_t len, struct oc_dwexpr_result *ret);

/* "rax", "rdx", ... "r15", "rip", "xmm0".."xmm15"; "reg<N>" otherwise.
 * Always NUL-terminated in @buf. */
const char *oc_dwexpr_reg_name(unsigned reg, char *buf, size_t size);

#endif /* OC_DWEXPR_H */
