/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside the unwinder: the walk state (the kernel's struct unwind_state)
 * shared by src/unwind.c (the kernel's walker), src/unwind_fallback.c
 * (CFI, verified call sites, the crash NMI's frames) and
 * src/unwind_scan.c (the "?" scan and the resynchronisation).  Not for
 * use outside those three files.
 */
#ifndef OC_UNWIND_PRIV_H
#define OC_UNWIND_PRIV_H

#include "pgwalk.h"
#include "unwind.h"

enum {
	PAGE_SIZE_X86 = 4096,
	DEFAULT_MAX_FRAMES = 256,
};

/* the kernel's struct unwind_state, with register contents copied */
struct walk {
	const struct oc_unwind_target *t;
	struct oc_trace *trace;
	uint64_t ip, sp, bp;
	bool signal;
	bool have_regs;		/* state->regs != NULL */
	bool full_regs;
	enum oc_regs_kind regs_kind;
	uint64_t regs_addr;
	struct oc_regs regs;
	bool have_prev_regs;
	struct oc_regs prev_regs;
	struct oc_stack_info info;	/* state->stack_info */
	unsigned long visit_mask;
	bool error;		/* state->error: unreliable */
	bool done;
	/* how the next frame is found (set by each step) */
	enum oc_frame_how how;
	/*
	 * Not the kernel's: bp is not known to be the caller's (after a
	 * call-site step, which restores no register); an ORC entry that
	 * needs it makes the trace unreliable.  Cleared when bp is read
	 * from the stack or from pt_regs.
	 */
	bool bp_unknown;
	/* the crash-NMI search: each return address must be a verified
	 * call into the frame below (oc_unwind_link_ok()) */
	bool verify_links;
};

struct oc_error *oc_unwind_push(struct oc_trace *trace,
				const struct oc_frame *f);
void oc_unwind_walk_init(struct walk *w, const struct oc_unwind_target *t,
			 struct oc_trace *ret);
/* __unwind_start()'s get_stack_info(), with the guard-page retry */
bool oc_unwind_start_stack(struct walk *w);
/* unwind_next_frame(): true and @f the next frame, else the stop reason
 * is set */
bool oc_unwind_step(struct walk *w, struct oc_frame *f);
/* the loop of unwind_next_frame() calls, then resync and scan */
struct oc_error *oc_unwind_walk_run(struct walk *w,
				    const struct oc_unwind_options *opts,
				    uint64_t scan_start);
void oc_unwind_fill_frame(const struct walk *w, uint64_t ip_addr,
			  struct oc_frame *f);
bool oc_unwind_fail(struct walk *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* the first reason a trace that ends cleanly is unreliable */
void oc_unwind_note(struct walk *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* a stack read through stack_access_ok(); fails the walk if it cannot */
bool oc_unwind_deref(struct walk *w, uint64_t addr, uint64_t *val);
/* a CALL step's new ip: a kernel address that is no stack address */
bool oc_unwind_check_ret(struct walk *w, uint64_t ip, uint64_t ip_p);

/* ---- src/unwind_fallback.c ---- */

enum oc_unwind_fallback {
	OC_FALLBACK_FRAME,	/* @f is the next frame */
	OC_FALLBACK_NONE,	/* nothing verifies: the caller goes on */
	OC_FALLBACK_STOP,	/* the walk failed (reason set) */
};

/*
 * No usable ORC entry for w->ip: the .debug_frame CFI of the function,
 * else the first stack word above sp after a verified direct call to
 * it (docs/design.md).
 */
enum oc_unwind_fallback oc_unwind_fallback(struct walk *w, struct oc_frame *f,
					   char *why, size_t size);

/* What the call before return address @ret is, against @callee. */
enum oc_link {
	OC_LINK_NOT_CALL,	/* no call ends at @ret */
	OC_LINK_TARGET,		/* a call to @callee (or a thunk/trampoline
				 * that jumps there) */
	OC_LINK_UNKNOWN,	/* a call whose target is not in the code
				 * (a register, a retpoline thunk) */
	OC_LINK_OTHER,		/* a call to another function */
};

/*
 * @callee: the function the frame below was in (ip exact when @exact,
 * else ip - 1 is looked up), 0: unknown.
 */
enum oc_link oc_unwind_link(const struct walk *w, uint64_t ret,
			    uint64_t callee, bool exact);

/* ---- src/unwind_scan.c ---- */

/* opts->scan: merge the "?" entries of show_trace_log_lvl() */
struct oc_error *oc_unwind_scan_merge(const struct walk *w, uint64_t start,
				      struct oc_trace *trace);
/* opts->resync: go on from a return address above the failing sp */
struct oc_error *oc_unwind_resync(struct walk *w, unsigned int max);

#endif /* OC_UNWIND_PRIV_H */
