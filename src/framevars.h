/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Parameters and locals of a frame (docs/lines.md): what the DWARF says about
 * the variables in scope at the frame's pc, with the values the unwinder
 * can vouch for.  Never a made-up value: a variable whose location needs
 * a register or CFA this frame does not know is "unavailable" with the
 * reason (see docs/lines.md, "Parameters and locals", for which registers
 * are known in which frame).
 *
 * The DWARF is the one src/lines.h already opened (the vmlinux's, or a
 * module's .ko under --modules-dir), read lazily: only the CU of the pc.
 * Like the oc_lines_* calls, these must all be made from one thread.
 *
 *	struct oc_framevars *fv;
 *
 *	err = oc_framevars_get(k, lines, &trace, i, task, &fv);
 *	if (fv->unavailable)
 *		print fv->unavailable;
 *	for (size_t l = 0; l < fv->nr_levels; l++)		innermost first
 *		for (size_t v = 0; v < fv->levels[l].nr_vars; v++) {
 *			oc_framevar_format(&fv->levels[l].vars[v], buf, sizeof(buf));
 *			...
 *		}
 *	oc_framevars_free(fv);
 */
#ifndef OC_FRAMEVARS_H
#define OC_FRAMEVARS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

struct oc_kernel;
struct oc_lines;
struct oc_task;
struct oc_trace;

enum oc_framevar_kind {
	OC_FRAMEVAR_PARAM,	/* DW_TAG_formal_parameter */
	OC_FRAMEVAR_LOCAL,	/* DW_TAG_variable */
};

enum oc_framevar_status {
	OC_FRAMEVAR_VALUE,	/* ->value is the value ("42", "0xffff...") */
	OC_FRAMEVAR_IN_MEMORY,	/* an object larger than 8 bytes (struct,
				 * array) at ->address; ->value reads
				 * "struct foo at 0x..., 64 bytes" */
	OC_FRAMEVAR_UNAVAILABLE, /* ->why says why */
	OC_FRAMEVAR_OPTIMIZED_OUT, /* no location at this pc */
};

/* One variable.  Every string is owned by the struct oc_framevars. */
struct oc_framevar {
	const char *name;	/* "<anonymous>" if the DWARF has none */
	const char *type;	/* C type: "struct task_struct *", "int",
				 * "void (*)(struct timer_list *)"; "?" if
				 * unknown */
	enum oc_framevar_kind kind;
	enum oc_framevar_status status;
	/* VALUE / IN_MEMORY: the rendered value; NULL otherwise.  Ints in
	 * decimal, pointers and unsigned longs in hex, bool as true/false,
	 * char as 65 'A', an enum as its enumerator's NAME when one matches. */
	const char *value;
	/* where the value was found: "%rbx", "[CFA-0x30]", "[%rbp-0x8]",
	 * "global 0xffffffff82a0c4c0", "constant", "computed", pieces joined
	 * with " + "; NULL when unknown (optimized out) */
	const char *where;
	/* UNAVAILABLE: "in %r12, not recovered", "entry value",
	 * "read of 8 bytes at 0x... failed", "CFA unknown", ...; else NULL */
	const char *why;
	uint64_t size;		/* byte size of the type; 0 if unknown */
	bool has_raw;		/* VALUE of at most 8 bytes: raw holds it */
	uint64_t raw;		/* zero-extended bits, for tests and oracles */
	uint64_t address;	/* the object's address when it lives in target
				 * memory (stack slot, global); else 0 */
};

/*
 * One level of the frame's inline chain: the same levels, in the same
 * order, as oc_lines_lookup()'s chain for the frame's address
 * (oc_lines_frame_addr()): innermost inlined function first, the
 * out-of-line function last.  Parameters come first, in declaration
 * order, then the locals in scope at the pc (outer blocks first).
 */
struct oc_framevars_level {
	const char *function;	/* NULL if unknown */
	bool inlined;
	struct oc_framevar *vars;
	size_t nr_vars;
};

struct oc_framevars {
	struct oc_framevars_level *levels;	/* innermost first */
	size_t nr_levels;
	/*
	 * Non-NULL when nothing could be said about this frame:
	 * "unavailable: no debuginfo", "unavailable: module orccrash_test
	 * (no .ko under --modules-dir)", "unavailable: not a frame (scanned)",
	 * "unavailable: bad DWARF: ...".  nr_levels is then 0.
	 */
	const char *unavailable;
	void *priv;		/* string storage */
	/*
	 * The callee-saved registers (rbx, r12-r15) this frame knows
	 * through .debug_frame CFI, carried out from the inner frames (bit
	 * n: DWARF register n; docs/lines.md).  Their variables say so in
	 * ->where: "%rbx, saved by a callee at 0x...".
	 */
	uint32_t cfi_regs;
	/*
	 * Set when the CFI disagreed with the ORC walk on the way into this
	 * frame: "CFI rbp 0x... differs from ORC's 0x...: ORC's used", or
	 * the CFA ("...: no CFI from here").  NULL otherwise.
	 */
	const char *cfi_note;
};

/*
 * The variables of frame @index of @trace (trace->frames[index]), the
 * trace oc_kernel_unwind_task() or oc_kernel_unwind_cpu() returned.  A
 * blocked task's first frame (where its struct inactive_task_frame gives
 * rbx, rbp, r12-r15) is told from the trace itself: a walk from
 * thread.sp starts with no registers and ip_addr = thread.sp +
 * offsetof(ret_addr).  @task, when not NULL, must then agree (its
 * thread.sp), else those registers are not used.  @lines
 * is the handle the report or browser already has (oc_lines_open(), with
 * oc_lines_set_modules_dir() for module frames).  Reads target memory
 * through k->mem (stack slots, derefs, globals).
 *
 * Always returns a list in *ret unless allocation fails (the only error):
 * an unusable frame, missing debuginfo or malformed DWARF give a list with
 * ->unavailable set.  Free it with oc_framevars_free().
 */
struct oc_error *oc_framevars_get(const struct oc_kernel *k,
				  struct oc_lines *lines,
				  const struct oc_trace *trace, size_t index,
				  const struct oc_task *task,
				  struct oc_framevars **ret);

void oc_framevars_free(struct oc_framevars *fv);

/* "param" or "local". */
const char *oc_framevar_kind_string(enum oc_framevar_kind kind);
/* "value", "in memory", "unavailable", "optimized out". */
const char *oc_framevar_status_string(enum oc_framevar_status status);

/*
 * One line, as the report prints it (always NUL-terminated):
 *   "param prev = 0xffff888003df0000 (struct task_struct *) [%rbx]"
 *   "local pos = 0 (loff_t) at [CFA-0x38]"
 *   "local buf = char [200] at 0xffffc90000123e48, 200 bytes at [CFA-0xe0]"
 *   "local rq: unavailable (in %r12, not recovered) (struct rq *)"
 *   "param flags: optimized out (unsigned int)"
 */
void oc_framevar_format(const struct oc_framevar *v, char *buf, size_t size);

#endif /* OC_FRAMEVARS_H */
