// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The ORC walker: arch/x86/kernel/unwind_orc.c's __unwind_start() and
 * unwind_next_frame() over target memory, for every ORC generation
 * (checked against v4.14, v4.18, v6.1 and v6.12 sources):
 *
 * - the ORC entry of ip - 1 for call frames, of ip for signal frames;
 *   ip 0 uses the kernel's null_orc_entry (a call through NULL);
 * - no entry: an error, or since 6.1 the orc_fp_entry guess (unreliable);
 *   UNDEFINED: an error; but before either, not the kernel's: the
 *   function's .debug_frame CFI or a verified call site
 *   (src/unwind_fallback.c, docs/design.md);
 * - END_OF_STACK (pre-6.4: sp_reg UNDEFINED with the end bit, 4.14:
 *   without): a clean end;
 * - every stack read goes through stack_access_ok(): on the current stack,
 *   else get_stack_info() for the address, each stack type once;
 * - "stack going in the wrong direction": same stack type, sp not up.
 *
 * It never prints; the trace carries frames and a reason for stopping.
 * The "?" scan and the resynchronisation are in src/unwind_scan.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "unwind_priv.h"

/* x86-64 struct pt_regs (arch/x86/include/asm/ptrace.h) */
enum {
	PT_REGS_SIZE = 21 * 8,
	PT_REGS_IP = 16 * 8,
	IRET_FRAME_OFFSET = PT_REGS_IP,
	IRET_FRAME_SIZE = PT_REGS_SIZE - IRET_FRAME_OFFSET,
};

_Static_assert(sizeof(struct oc_regs) == PT_REGS_SIZE,
	       "struct oc_regs must mirror struct pt_regs");

const char *oc_frame_how_name(enum oc_frame_how how)
{
	switch (how) {
	case OC_HOW_START:
		return "start";
	case OC_HOW_ORC:
		return "orc";
	case OC_HOW_CFI:
		return "cfi";
	case OC_HOW_CALLSITE:
		return "callsite";
	case OC_HOW_FP:
		return "fp";
	case OC_HOW_SCAN:
		return "scan";
	}
	return "?";
}

void oc_trace_init(struct oc_trace *trace)
{
	memset(trace, 0, sizeof(*trace));
	trace->reliable = true;
}

void oc_trace_deinit(struct oc_trace *trace)
{
	free(trace->frames);
	oc_trace_init(trace);
}

const char *oc_trace_stop_string(const struct oc_trace *trace, char *buf,
				 size_t size)
{
	switch (trace->stop) {
	case OC_STOP_END_OF_STACK:
		snprintf(buf, size, "end of stack");
		break;
	case OC_STOP_USER_MODE:
		snprintf(buf, size, "user mode");
		break;
	case OC_STOP_ERROR:
		snprintf(buf, size, "error: %s", trace->message);
		break;
	case OC_STOP_FRAME_LIMIT:
		snprintf(buf, size, "frame limit");
		break;
	}
	if (trace->resynced && trace->stop != OC_STOP_ERROR) {
		size_t len = strlen(buf);

		snprintf(buf + len, size - len,
			 " (resynchronised at 0x%llx, after: %s)",
			 (unsigned long long)trace->resync_addr,
			 trace->message);
	}
	if (trace->note[0]) {
		size_t len = strlen(buf);

		snprintf(buf + len, size - len, " (%s)", trace->note);
	}
	return buf;
}

struct oc_error *oc_unwind_push(struct oc_trace *trace,
				const struct oc_frame *f)
{
	struct oc_frame *n = oc_array_grow(trace->frames, trace->nr, 1,
					   &trace->cap, sizeof(*n), 32);

	if (!n)
		return &oc_enomem;
	trace->frames = n;
	trace->frames[trace->nr++] = *f;
	return NULL;
}

/* goto err: state->error = true, and say why */
bool oc_unwind_fail(struct walk *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->trace->message, sizeof(w->trace->message), fmt, ap);
	va_end(ap);
	w->trace->stop = OC_STOP_ERROR;
	w->trace->reliable = false;
	w->error = true;
	w->done = true;
	w->info.type = OC_STACK_UNKNOWN;
	return false;
}

void oc_unwind_note(struct walk *w, const char *fmt, ...)
{
	va_list ap;

	w->error = true;
	w->trace->reliable = false;
	if (w->trace->note[0])
		return;
	va_start(ap, fmt);
	vsnprintf(w->trace->note, sizeof(w->trace->note), fmt, ap);
	va_end(ap);
}

/* goto the_end */
static bool walk_end(struct walk *w, enum oc_stop_reason why)
{
	w->trace->stop = why;
	w->done = true;
	w->info.type = OC_STACK_UNKNOWN;
	return false;
}

/* get_stack_info() with the visit mask */
static bool get_stack_info(struct walk *w, uint64_t addr,
			   struct oc_stack_info *info, unsigned long *mask,
			   const char **why)
{
	if (!addr || !w->t->stack_info(w->t->arg, addr, info) ||
	    info->type == OC_STACK_UNKNOWN || info->type >= OC_STACK_NR) {
		*why = "not on a known stack";
		info->type = OC_STACK_UNKNOWN;
		return false;
	}
	if (mask) {
		if (*mask & (1UL << info->type)) {
			*why = "stack recursion";
			info->type = OC_STACK_UNKNOWN;
			return false;
		}
		*mask |= 1UL << info->type;
	}
	return true;
}

/* stack_access_ok(): the kernel's on_stack() || get_stack_info() */
static bool stack_access_ok(struct walk *w, uint64_t addr, size_t len,
			    const char **why)
{
	if (oc_stack_on(&w->info, addr, len))
		return true;
	if (w->info.type != OC_STACK_UNKNOWN && addr >= w->info.begin &&
	    addr < w->info.end) {
		/* the kernel asks get_stack_info() again, which fails on
		 * the visit mask; say what really happened */
		*why = "crosses the end of its stack";
		w->info.type = OC_STACK_UNKNOWN;
		return false;
	}
	if (!get_stack_info(w, addr, &w->info, &w->visit_mask, why))
		return false;
	if (!oc_stack_on(&w->info, addr, len)) {
		*why = "crosses the end of its stack";
		return false;
	}
	return true;
}

/* @what: "stack", or "registers"/"iret registers" for pt_regs frames */
static bool deref_stack(struct walk *w, uint64_t addr, void *buf,
			size_t len, const char *what)
{
	const char *why = "";
	struct oc_error *err;

	if (!stack_access_ok(w, addr, len, &why))
		return oc_unwind_fail(w, "cannot read %s at 0x%llx (%s) for ip 0x%llx",
				 what, (unsigned long long)addr, why,
				 (unsigned long long)w->ip);
	err = oc_mem_read(w->t->mem, addr, buf, len);
	if (err) {
		oc_error_destroy(err);
		return oc_unwind_fail(w, "cannot read %s at 0x%llx (read failed) for ip 0x%llx",
				 what, (unsigned long long)addr,
				 (unsigned long long)w->ip);
	}
	return true;
}

bool oc_unwind_deref(struct walk *w, uint64_t addr, uint64_t *val)
{
	uint64_t tmp;

	/* *val may be w->ip, which the failure message names */
	if (!deref_stack(w, addr, &tmp, sizeof(tmp), "stack"))
		return false;
	*val = tmp;
	return true;
}

static uint64_t reg_value(const struct oc_regs *r, enum oc_orc_reg reg)
{
	switch (reg) {
	case OC_ORC_REG_DX:
		return r->dx;
	case OC_ORC_REG_DI:
		return r->di;
	case OC_ORC_REG_R10:
		return r->r10;
	case OC_ORC_REG_R13:
		return r->r13;
	case OC_ORC_REG_AX:
		return r->ax;
	case OC_ORC_REG_BP:
		return r->bp;
	default:
		return 0;
	}
}

/*
 * get_reg(): from the full regs, else (since the IRQ-then-NMI fix) from
 * the full regs seen before a partial iret frame.  4.14 knew only full
 * regs.
 */
static bool get_reg(const struct walk *w, enum oc_orc_reg reg,
		    uint64_t *val)
{
	if (!w->have_regs)
		return false;
	if (w->full_regs) {
		*val = reg_value(&w->regs, reg);
		return true;
	}
	if (w->have_prev_regs && w->t->version != OC_ORC_V_4_14) {
		*val = reg_value(&w->prev_regs, reg);
		return true;
	}
	return false;
}

static const char *reg_name(enum oc_orc_reg reg)
{
	switch (reg) {
	case OC_ORC_REG_DX:
		return "DX";
	case OC_ORC_REG_DI:
		return "DI";
	case OC_ORC_REG_R10:
		return "R10";
	case OC_ORC_REG_R13:
		return "R13";
	case OC_ORC_REG_AX:
		return "AX";
	default:
		return "?";
	}
}

/* the kernel's null_orc_entry and orc_fp_entry */
static const struct oc_orc_entry null_orc_entry = {
	.sp_offset = 8,
	.sp_reg = OC_ORC_REG_SP,
	.bp_reg = OC_ORC_REG_UNDEFINED,
	.type = OC_ORC_TYPE_CALL,
};

static const struct oc_orc_entry orc_fp_entry = {
	.type = OC_ORC_TYPE_CALL,
	.sp_reg = OC_ORC_REG_BP,
	.sp_offset = 16,
	.bp_reg = OC_ORC_REG_PREV_SP,
	.bp_offset = -16,
};

static bool user_mode(const struct walk *w)
{
	return w->have_regs && (w->regs.cs & 3);
}

void oc_unwind_fill_frame(const struct walk *w, uint64_t ip_addr,
			  struct oc_frame *f)
{
	struct oc_stack_info info;

	memset(f, 0, sizeof(*f));
	f->ip = w->ip;
	f->sp = w->sp;
	f->bp = w->bp;
	f->bp_unknown = w->bp_unknown;
	f->ip_addr = ip_addr;
	f->reliable = !w->error;
	f->signal = w->signal;
	f->how = w->how;
	f->exact = w->signal || w->regs_kind != OC_REGS_NONE;
	f->stack = OC_STACK_UNKNOWN;
	if (w->t->stack_info(w->t->arg, ip_addr ? ip_addr : w->sp, &info))
		f->stack = info.type;
	f->regs_kind = w->regs_kind;
	if (w->regs_kind != OC_REGS_NONE) {
		f->regs_addr = w->regs_addr;
		f->regs = w->regs;
	}
}

/* the kernel's "goto err" when the fallbacks found nothing (@why) */
static bool no_orc(struct walk *w, bool found, const char *why)
{
	return oc_unwind_fail(w, "%s ORC entry for 0x%llx%s%s%s",
			      found ? "undefined" : "no",
			      (unsigned long long)w->ip, why[0] ? " (" : "",
			      why, why[0] ? ")" : "");
}

/*
 * An ORC entry that reads bp while bp may not be the caller's (after a
 * call-site step, which restores no register).  The frame it gives is
 * taken if its return address is a call into this function (or a call
 * through a pointer): a bp the function below had changed would not
 * point at one.
 */
static bool uses_bp(const struct oc_orc_entry *orc)
{
	return orc->sp_reg == OC_ORC_REG_BP ||
	       orc->sp_reg == OC_ORC_REG_BP_INDIRECT ||
	       orc->bp_reg == OC_ORC_REG_BP;
}

static void check_bp_frame(struct walk *w, const struct oc_orc_entry *orc,
			   uint64_t ip, bool exact)
{
	enum oc_link l = OC_LINK_NOT_CALL;

	if (orc->type == OC_ORC_TYPE_CALL)
		l = oc_unwind_link(w, w->ip, ip, exact);
	if (l != OC_LINK_TARGET && l != OC_LINK_UNKNOWN)
		oc_unwind_note(w, "the ORC entry of 0x%llx uses bp, which the call-site step before it could not restore, and the frame it gives does not return after a call into it",
			       (unsigned long long)ip);
}

bool oc_unwind_check_ret(struct walk *w, uint64_t ip, uint64_t ip_p)
{
	struct oc_stack_info info;

	/*
	 * A return address in the user half (zeros, a stack page that is
	 * not in the dump, garbage) is no frame: the kernel's
	 * unwind_get_return_address() gives 0 for it and arch_stack_walk()
	 * stops there.  Going on through the null_orc_entry would print a
	 * column of "0x0" frames.  Nor is an address on a stack (no
	 * __kernel_text_address() holds one).
	 */
	if (ip < OC_KERNEL_HALF)
		return oc_unwind_fail(w, "return address 0x%llx at 0x%llx is not a kernel address",
				      (unsigned long long)ip,
				      (unsigned long long)ip_p);
	if (w->t->stack_info(w->t->arg, ip, &info) &&
	    info.type != OC_STACK_UNKNOWN)
		return oc_unwind_fail(w, "return address 0x%llx at 0x%llx is a stack address",
				      (unsigned long long)ip,
				      (unsigned long long)ip_p);
	return true;
}

/*
 * unwind_next_frame().  On success fills @f with the new frame and
 * returns true; otherwise the trace's stop reason is set.
 */
bool oc_unwind_step(struct walk *w, struct oc_frame *f)
{
	const struct oc_unwind_target *t = w->t;
	uint64_t sp, tmp, ip_p = 0, orig_ip = w->ip, prev_sp = w->sp;
	enum oc_stack_type prev_type = w->info.type;
	bool orig_exact = w->signal || w->regs_kind != OC_REGS_NONE;
	struct oc_orc_entry orc;
	bool indirect = false, found, bp_check;
	char why[128] = "";

	if (w->done)
		return false;
	/* End-of-stack check for user tasks: */
	if (user_mode(w))
		return walk_end(w, OC_STOP_USER_MODE);

	w->how = OC_HOW_ORC;
	if (!w->ip) {
		orc = null_orc_entry;
	} else if (!(found = t->find_orc(t->arg, w->signal ? w->ip : w->ip - 1,
					 &orc)) ||
		   orc.type == OC_ORC_TYPE_UNDEFINED) {
		/*
		 * Not the kernel's: where objtool left no ORC data
		 * (STACK_FRAME_NON_STANDARD, __crash_kexec()), the
		 * function's CFI, else a verified call site
		 * (src/unwind_fallback.c).  Then the kernel's own rule.
		 */
		switch (oc_unwind_fallback(w, f, why, sizeof(why))) {
		case OC_FALLBACK_FRAME:
			return true;
		case OC_FALLBACK_STOP:
			return false;
		case OC_FALLBACK_NONE:
			break;
		}
		if (found || !t->fp_fallback)
			return no_orc(w, found, why);
		/* 6.1+: guess a frame-pointer frame; unreliable from here */
		orc = orc_fp_entry;
		w->how = OC_HOW_FP;
		oc_unwind_note(w, "no ORC entry for 0x%llx: the kernel's frame-pointer guess from there",
			       (unsigned long long)w->ip);
	} else if (orc.type == OC_ORC_TYPE_END_OF_STACK) {
		return walk_end(w, OC_STOP_END_OF_STACK);
	}
	bp_check = w->bp_unknown && uses_bp(&orc);

	/* Find the previous frame's stack: */
	switch (orc.sp_reg) {
	case OC_ORC_REG_SP:
		sp = w->sp + (int64_t)orc.sp_offset;
		break;
	case OC_ORC_REG_BP:
		sp = w->bp + (int64_t)orc.sp_offset;
		break;
	case OC_ORC_REG_SP_INDIRECT:
		/* since 5.12 *(sp) + off, before *(sp + off) */
		if (t->sp_indirect_deref_first)
			sp = w->sp;
		else
			sp = w->sp + (int64_t)orc.sp_offset;
		indirect = true;
		break;
	case OC_ORC_REG_BP_INDIRECT:
		sp = w->bp + (int64_t)orc.sp_offset;
		indirect = true;
		break;
	case OC_ORC_REG_R10:
	case OC_ORC_REG_R13:
	case OC_ORC_REG_DI:
	case OC_ORC_REG_DX:
	case OC_ORC_REG_AX:
		if (!get_reg(w, orc.sp_reg, &sp))
			return oc_unwind_fail(w, "missing %s value at 0x%llx",
					 reg_name(orc.sp_reg),
					 (unsigned long long)w->ip);
		break;
	default:
		return oc_unwind_fail(w, "unknown SP base reg %u at 0x%llx",
				 (unsigned int)orc.raw_sp_reg,
				 (unsigned long long)w->ip);
	}

	if (indirect) {
		if (!oc_unwind_deref(w, sp, &sp))
			return false;
		if (orc.sp_reg == OC_ORC_REG_SP_INDIRECT &&
		    t->sp_indirect_deref_first)
			sp += (int64_t)orc.sp_offset;
	}

	/* Find IP, SP and possibly regs: */
	switch (orc.type) {
	case OC_ORC_TYPE_CALL:
		ip_p = sp - 8;
		if (!oc_unwind_deref(w, ip_p, &w->ip))
			return false;
		if (!oc_unwind_check_ret(w, w->ip, ip_p))
			return false;
		if (w->verify_links) {
			enum oc_link l = oc_unwind_link(w, w->ip, orig_ip,
							orig_exact);

			if (l == OC_LINK_NOT_CALL || l == OC_LINK_OTHER)
				return oc_unwind_fail(w, "return address 0x%llx at 0x%llx: %s",
						      (unsigned long long)w->ip,
						      (unsigned long long)ip_p,
						      l == OC_LINK_NOT_CALL ?
						      "no call before it" :
						      "the call before it goes elsewhere");
		}
		w->sp = sp;
		w->have_regs = false;
		w->have_prev_regs = false;
		w->regs_kind = OC_REGS_NONE;
		break;

	case OC_ORC_TYPE_REGS: {
		struct oc_regs r;

		/* the kernel's "can't access registers" */
		if (!deref_stack(w, sp, &r, sizeof(r), "registers"))
			return false;
		ip_p = sp + PT_REGS_IP;
		w->ip = r.ip;
		w->sp = r.sp;
		w->regs = r;
		w->regs_addr = sp;
		w->regs_kind = OC_REGS_FULL;
		w->have_regs = true;
		w->have_prev_regs = false;
		w->full_regs = true;
		break;
	}

	case OC_ORC_TYPE_REGS_PARTIAL: {
		uint64_t iret[IRET_FRAME_SIZE / 8];

		if (!deref_stack(w, sp, iret, sizeof(iret), "iret registers"))
			return false;
		ip_p = sp;
		/* keep the interrupted full regs (IRQ-then-NMI) */
		if (w->have_regs && w->full_regs) {
			w->prev_regs = w->regs;
			w->have_prev_regs = true;
		}
		memset(&w->regs, 0, sizeof(w->regs));
		w->regs.ip = iret[0];
		w->regs.cs = iret[1];
		w->regs.flags = iret[2];
		w->regs.sp = iret[3];
		w->regs.ss = iret[4];
		w->ip = iret[0];
		w->sp = iret[3];
		w->regs_addr = sp;
		w->regs_kind = OC_REGS_PARTIAL;
		w->have_regs = true;
		w->full_regs = false;
		break;
	}

	default:
		return oc_unwind_fail(w, "unknown .orc_unwind entry type %u at 0x%llx",
				 (unsigned int)orc.raw_type,
				 (unsigned long long)orig_ip);
	}

	/* Find BP: */
	switch (orc.bp_reg) {
	case OC_ORC_REG_UNDEFINED:
		if (get_reg(w, OC_ORC_REG_BP, &tmp)) {
			w->bp = tmp;
			w->bp_unknown = false;
		}
		break;
	case OC_ORC_REG_PREV_SP:
		if (!oc_unwind_deref(w, sp + (int64_t)orc.bp_offset, &w->bp))
			return false;
		w->bp_unknown = false;
		break;
	case OC_ORC_REG_BP:
		if (!oc_unwind_deref(w, w->bp + (int64_t)orc.bp_offset, &w->bp))
			return false;
		w->bp_unknown = false;
		break;
	default:
		return oc_unwind_fail(w, "unknown BP base reg %u for ip 0x%llx",
				 (unsigned int)orc.raw_bp_reg,
				 (unsigned long long)orig_ip);
	}

	/* Prevent a recursive loop due to bad ORC data: */
	if (w->info.type == prev_type && oc_stack_on(&w->info, w->sp, 8) &&
	    w->sp <= prev_sp)
		return oc_unwind_fail(w, "stack going in the wrong direction at 0x%llx (sp 0x%llx -> 0x%llx)",
				 (unsigned long long)orig_ip,
				 (unsigned long long)prev_sp,
				 (unsigned long long)w->sp);

	if (bp_check)
		check_bp_frame(w, &orc, orig_ip, orig_exact);
	w->signal = orc.signal;
	oc_unwind_fill_frame(w, ip_p, f);
	return true;
}

/*
 * __unwind_start()'s get_stack_info(), with its guard-page rule (v6.1
 * and v6.12 arch/x86/kernel/unwind_orc.c): a stack pointer on no stack
 * may have overflowed into the guard page below one, so the walk goes
 * on with the stack of PAGE_ALIGN(sp), marked unreliable
 * (state->error = true).  show_trace_log_lvl()
 * (arch/x86/kernel/dumpstack.c) does the same for its scan.
 */
bool oc_unwind_start_stack(struct walk *w)
{
	const char *why = "";
	uint64_t next_page;

	if (get_stack_info(w, w->sp, &w->info, &w->visit_mask, &why))
		return true;
	next_page = (w->sp + PAGE_SIZE_X86 - 1) & ~(uint64_t)(PAGE_SIZE_X86 - 1);
	if (get_stack_info(w, next_page, &w->info, &w->visit_mask, &why)) {
		oc_unwind_note(w, "sp 0x%llx is below the %s stack (its guard page): went on at 0x%llx as the kernel does",
			       (unsigned long long)w->sp,
			       oc_stack_name(w->info.type),
			       (unsigned long long)next_page);
		return true;
	}
	return oc_unwind_fail(w, "stack pointer 0x%llx is not on a known stack",
			      (unsigned long long)w->sp);
}

struct oc_error *oc_unwind_walk_run(struct walk *w,
				    const struct oc_unwind_options *opts,
				    uint64_t scan_start)
{
	unsigned int max = opts && opts->max_frames ? opts->max_frames
						    : DEFAULT_MAX_FRAMES;
	struct oc_frame f;
	struct oc_error *err;

	while (!w->done) {
		if (w->trace->nr >= max) {
			w->trace->stop = OC_STOP_FRAME_LIMIT;
			w->trace->reliable = false;
			snprintf(w->trace->message, sizeof(w->trace->message),
				 "more than %u frames", max);
			break;
		}
		if (!oc_unwind_step(w, &f))
			break;
		err = oc_unwind_push(w->trace, &f);
		if (err)
			return err;
	}
	if (opts && opts->resync && w->trace->stop == OC_STOP_ERROR) {
		err = oc_unwind_resync(w, max);
		if (err)
			return err;
	}
	if (opts && opts->scan)
		return oc_unwind_scan_merge(w, scan_start, w->trace);
	return NULL;
}

void oc_unwind_walk_init(struct walk *w, const struct oc_unwind_target *t,
			 struct oc_trace *ret)
{
	memset(w, 0, sizeof(*w));
	w->t = t;
	w->trace = ret;
	oc_trace_init(ret);
	ret->stop = OC_STOP_END_OF_STACK;
}

/* the walk state of registers @regs, before its first frame */
static void regs_start(struct walk *w, const struct oc_regs *regs)
{
	w->ip = regs->ip;
	w->sp = regs->sp;
	w->bp = regs->bp;
	w->regs = *regs;
	w->regs_kind = OC_REGS_FULL;
	w->regs_addr = 0;
	w->have_regs = true;
	w->full_regs = true;
	w->signal = true;
	w->how = OC_HOW_START;
}

struct oc_error *oc_unwind_regs(const struct oc_unwind_target *target,
				const struct oc_regs *regs,
				const struct oc_unwind_options *opts,
				struct oc_trace *ret)
{
	struct walk w;
	struct oc_frame f;
	struct oc_error *err;

	oc_unwind_walk_init(&w, target, ret);
	regs_start(&w, regs);
	oc_unwind_fill_frame(&w, 0, &f);
	err = oc_unwind_push(ret, &f);
	if (err)
		return err;
	/* __unwind_start(): user regs end the walk at once */
	if (user_mode(&w)) {
		walk_end(&w, OC_STOP_USER_MODE);
		return NULL;
	}
	if (!oc_unwind_start_stack(&w))
		return NULL;
	/* the stack show_trace_log_lvl() prints the first frame on */
	if (ret->frames[0].stack == OC_STACK_UNKNOWN)
		ret->frames[0].stack = w.info.type;
	return oc_unwind_walk_run(&w, opts, regs->sp);
}

struct oc_error *oc_unwind_blocked(const struct oc_unwind_target *target,
				   uint64_t thread_sp,
				   const struct oc_unwind_options *opts,
				   struct oc_trace *ret)
{
	struct walk w;
	struct oc_frame f;
	struct oc_error *err, *rerr;

	oc_unwind_walk_init(&w, target, ret);
	rerr = oc_mem_read_u64(target->mem,
			       thread_sp + target->inactive_bp_offset, &w.bp);
	if (!rerr)
		rerr = oc_mem_read_u64(target->mem,
				       thread_sp + target->inactive_ret_offset,
				       &w.ip);
	if (rerr) {
		oc_error_destroy(rerr);
		w.ip = 0;
		oc_unwind_fail(&w, "cannot read stack at 0x%llx (inactive_task_frame)",
			       (unsigned long long)thread_sp);
		return NULL;
	}
	w.sp = thread_sp + target->inactive_frame_size;
	/* a new task "returns" to ret_from_fork: exact, not a call site */
	w.signal = target->ret_from_fork && w.ip == target->ret_from_fork;
	w.how = OC_HOW_START;
	oc_unwind_fill_frame(&w, thread_sp + target->inactive_ret_offset, &f);
	err = oc_unwind_push(ret, &f);
	if (err)
		return err;
	if (!oc_unwind_start_stack(&w))
		return NULL;
	return oc_unwind_walk_run(&w, opts, thread_sp);
}
