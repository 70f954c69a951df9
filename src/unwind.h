/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The ORC walker: the kernel's unwind_next_frame()
 * (arch/x86/kernel/unwind_orc.c) over target memory.  It never prints
 * and never exits: it returns frames and a reason for stopping, and
 * marks the trace reliable or not like the kernel's unwind_state.error.
 */
#ifndef OC_UNWIND_H
#define OC_UNWIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dwarfcfi.h"
#include "error.h"
#include "mem.h"
#include "orc.h"
#include "regs.h"
#include "stacks.h"

enum oc_regs_kind {
	OC_REGS_NONE = 0,
	OC_REGS_FULL,		/* a whole pt_regs */
	OC_REGS_PARTIAL,	/* only the iret frame: ip, cs, flags, sp, ss */
};

/* The function that holds an address (for the fallbacks' call checks). */
struct oc_unwind_func {
	uint64_t start;		/* its entry (symbol address) */
	/* for a part the compiler split off (NAME.cold), the entry of NAME,
	 * which jumps into it; else 0 */
	uint64_t parent;
	const char *name;	/* NULL if unknown */
};

/* What the walker needs from the kernel model (or a test). */
struct oc_unwind_target {
	const struct oc_mem *mem;
	/* The ORC entry covering @ip; false if there is none. */
	bool (*find_orc)(void *arg, uint64_t ip, struct oc_orc_entry *ret);
	/* __kernel_text_address(): kernel or module text. */
	bool (*is_text)(void *arg, uint64_t addr);
	/* get_stack_info() for the task and CPU of this walk. */
	bool (*stack_info)(void *arg, uint64_t addr,
			   struct oc_stack_info *ret);
	void *arg;

	enum oc_orc_version version;
	/* Since 5.12 SP_INDIRECT means *(sp)+off; before, *(sp+off). */
	bool sp_indirect_deref_first;
	/* struct inactive_task_frame: size and where bp and ret_addr are.
	 * The walk starts at sp = thread.sp + inactive_frame_size, as
	 * kernels do since the GCC 10 fix ("x86/unwind/orc: Fix inactive
	 * tasks with stack pointer in %sp on GCC 10 compiled kernels",
	 * 5.8 and stable); older kernels started at thread.sp: pass 0. */
	uint64_t inactive_frame_size;
	uint64_t inactive_bp_offset;
	uint64_t inactive_ret_offset;
	/* ret_from_fork (ret_from_fork_asm since 6.8): a new task's first
	 * "return address" is exact, not a call site */
	uint64_t ret_from_fork;
	/* Since 6.1: no ORC entry -> guess a frame-pointer frame and mark
	 * the trace unreliable (orc_fp_entry), instead of stopping.  See
	 * oc_orc_has_fp_fallback().  False: stop with "no ORC entry".
	 * Tried after the CFI and the call-site rule below. */
	bool fp_fallback;

	/*
	 * Where ORC has no usable entry (docs/design.md, "Where ORC has no
	 * entry"); either may be NULL.
	 *
	 * find_cfi: the .debug_frame CFI row at @pc (a runtime address;
	 * ip - 1 for a return address), from the vmlinux's or module's
	 * debuginfo; false when there is none.
	 */
	bool (*find_cfi)(void *arg, uint64_t pc, struct oc_cfi_row *ret);
	/* func_of: the function holding @addr; false if no symbol does. */
	bool (*func_of)(void *arg, uint64_t addr, struct oc_unwind_func *ret);
};

struct oc_unwind_options {
	unsigned int max_frames;	/* 0: the default cap (256) */
	/* Also list the unreliable text addresses found on the stack
	 * between real frames, like show_trace_log_lvl()'s "?" lines. */
	bool scan;
	/*
	 * Not the kernel's behaviour: when the walk fails, look above the
	 * failing sp for a return address from which the ORC walk runs to a
	 * clean end, and go on from there (all frames from it unreliable).
	 * Meant for regs taken where objtool left no ORC data, such as a
	 * kdump's panic CPU in __crash_kexec() (STACK_FRAME_NON_STANDARD).
	 */
	bool resync;
};

/*
 * How a frame was found (JSON "how", docs/json.md): the rule applied to
 * the frame below it.
 */
enum oc_frame_how {
	OC_HOW_START = 0,	/* the starting registers or switch frame */
	OC_HOW_ORC,		/* the ORC entry of the frame below */
	OC_HOW_CFI,		/* its .debug_frame CFI (no ORC entry there) */
	OC_HOW_CALLSITE,	/* the first stack word after a verified call
				 * to the function below */
	OC_HOW_FP,		/* the kernel's frame-pointer guess */
	OC_HOW_SCAN,		/* a word found by scanning: a "?" entry, or
				 * where a resynchronisation went on */
};

/* "start", "orc", "cfi", "callsite", "fp", "scan" */
const char *oc_frame_how_name(enum oc_frame_how how);

struct oc_frame {
	uint64_t ip;		/* exact ip (signal) or return address */
	uint64_t sp;		/* the unwinder's sp at this frame */
	uint64_t bp;
	/* bp is not this frame's: no rule restored it since a step that
	 * knows nothing of it (a verified call site, the stopped CPU's
	 * NMI-stack walk); bp then holds a stale value, never to be used */
	bool bp_unknown;
	/* where ip was found: the return address slot, or &pt_regs->ip;
	 * 0 for the starting registers */
	uint64_t ip_addr;
	enum oc_stack_type stack;	/* the stack ip_addr (else sp) is on */
	bool reliable;		/* false for "?" scan entries */
	bool scanned;		/* a "?" entry, not an unwound frame */
	bool signal;		/* the walker's state->signal for this ip */
	enum oc_frame_how how;
	/*
	 * The one rule for looking a frame up (symbol, line, variables,
	 * debug address): true when the CPU was at ip itself (the starting
	 * registers, a pt_regs or iret frame's ip, ret_from_fork) — look up
	 * ip as is; false for a return address — look up ip - 1, as the
	 * kernel's %pB does (lib/vsprintf.c, sprint_backtrace()).  Set by
	 * the walker only; "?" entries found by scanning are never exact.
	 */
	bool exact;
	enum oc_regs_kind regs_kind;	/* registers crossed at this frame */
	uint64_t regs_addr;	/* address of the pt_regs / iret frame */
	struct oc_regs regs;
};

enum oc_stop_reason {
	OC_STOP_END_OF_STACK,	/* clean: ORC end marker / unwind hint */
	OC_STOP_USER_MODE,	/* clean: pt_regs from user mode */
	OC_STOP_ERROR,		/* see ->message */
	OC_STOP_FRAME_LIMIT,	/* the frame cap was reached */
};

struct oc_trace {
	struct oc_frame *frames;
	size_t nr, cap;
	enum oc_stop_reason stop;
	bool reliable;		/* false on any error, like state->error */
	char message[192];	/* for OC_STOP_ERROR: what and where; after
				 * a resync, the error that was skipped */
	/* opts->resync went on from the return address slot resync_addr */
	bool resynced;
	uint64_t resync_addr;
	/* why a trace that ended cleanly is not reliable (the first
	 * reason: which frame, which rule); empty otherwise */
	char note[192];
};

void oc_trace_init(struct oc_trace *trace);
void oc_trace_deinit(struct oc_trace *trace);
/* "end of stack", "user mode", "error: <message>", "frame limit";
 * after a resync: "... (resynchronised at 0x..., after: <message>)";
 * with a note: "... (<note>)" */
const char *oc_trace_stop_string(const struct oc_trace *trace, char *buf,
				 size_t size);

/*
 * Walk from full registers (a CPU at the time of the crash).  The first
 * frame is regs->ip itself (signal).  Only allocation failure is
 * returned as an error; everything else ends the trace with a reason.
 */
struct oc_error *oc_unwind_regs(const struct oc_unwind_target *target,
				const struct oc_regs *regs,
				const struct oc_unwind_options *opts,
				struct oc_trace *ret);

/*
 * Walk a task that is not running, from thread.sp (its
 * inactive_task_frame), as the kernel's unwind_start() does: the first
 * frame is frame->ret_addr (ip_addr = thread_sp + inactive_ret_offset),
 * with sp = thread_sp + inactive_frame_size and bp = frame->bp.
 */
struct oc_error *oc_unwind_blocked(const struct oc_unwind_target *target,
				   uint64_t thread_sp,
				   const struct oc_unwind_options *opts,
				   struct oc_trace *ret);

/*
 * A CPU stopped by the crash NMI of a kdump (nmi_shootdown_cpus(),
 * arch/x86/kernel/reboot.c): @regs are the registers the NMI
 * interrupted, which crash_save_cpu() saved from the NMI's pt_regs; the
 * CPU itself stays in crash_nmi_callback() on its NMI stack @nmi, with
 * no registers saved; or, when the NMI came from user mode, on the
 * task's stack (@nmi is that stack then: arch/x86/entry/entry_64.S
 * asm_exc_nmi runs exc_nmi() on the thread stack for an NMI from user
 * space, like any other entry from there).  Finds the handler's frames by a verified walk:
 * the lowest word on @nmi from which every return address is a call
 * into the frame below it (checked in the code as it ran) up to a
 * pt_regs frame equal to @regs; the trace is those frames and the walk
 * on from there.  *found_ret false: none verifies, and @ret is what
 * oc_unwind_regs() gives.
 */
struct oc_error *oc_unwind_nmi_stopped(const struct oc_unwind_target *target,
				       const struct oc_regs *regs,
				       const struct oc_stack_info *nmi,
				       const struct oc_unwind_options *opts,
				       struct oc_trace *ret, bool *found_ret);

#endif /* OC_UNWIND_H */
