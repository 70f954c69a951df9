// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Where ORC has no entry (docs/design.md, "Where ORC has no entry").
 * The kernel's unwinder stops there (v6.1+: guesses a frame-pointer
 * frame, unreliable); objtool leaves no ORC data for code marked
 * STACK_FRAME_NON_STANDARD, such as __crash_kexec(), which is where a
 * kdump's panic CPU saved its registers.  Not guessing there, in this
 * order:
 *
 * 1. CFI.  The function's DWARF call-frame information from the
 *    vmlinux's .debug_frame (formats/dwarfcfi.c) gives the CFA and where
 *    the return address is, as drgn does when ORC has nothing
 *    (libdrgn/debug_info.c drgn_module_find_cfi(): an UNDEFINED ORC
 *    entry is "not found", arch_x86_64.c drgn_orc_to_cfi_x86_64(), and
 *    the DWARF CFI is tried).  The frame is reliable when its return
 *    address follows a call instruction.
 * 2. A verified call site.  Without CFI: the first word above sp whose
 *    preceding instruction is a direct call (read from dump memory) to
 *    the function holding ip, or to code that reaches it (the entry of
 *    a NAME.cold part's NAME; a jump thunk or static-call trampoline
 *    whose first instruction jumps there; the call-depth accounting
 *    thunk objtool names __pfx_NAME).  A word whose call goes
 *    elsewhere, or that follows no call, is never taken.
 *
 * Then the kernel's own rule again (unwind.c), and only after a failed
 * walk the resynchronisation of unwind_scan.c.
 *
 * Also here: the frames of a CPU stopped by the crash NMI, found by a
 * walk in which every return address is such a verified call.
 */
#include <stdio.h>
#include <string.h>

#include "unwind_priv.h"
#include "x86_call.h"

enum {
	/* words above sp tried by the call-site rule: 4 KiB */
	MAX_CALLSITE_WORDS = 512,
	/* jumps followed from a call target to the function */
	MAX_JMP_HOPS = 4,
	/* frames from an NMI-stack word to the NMI's pt_regs */
	MAX_NMI_FRAMES = 32,
	/* x86-64 DWARF register numbers (System V psABI, 3.6.2) */
	DW_RBP = 6,
	DW_RSP = 7,
	DW_RA = 16,
};

static bool read_code(const struct walk *w, uint64_t addr, uint8_t *buf,
		      size_t n)
{
	return oc_ok(oc_mem_read(w->t->mem, addr, buf, n));
}

static bool func_of(const struct walk *w, uint64_t addr,
		    struct oc_unwind_func *ret)
{
	memset(ret, 0, sizeof(*ret));
	return w->t->func_of && w->t->func_of(w->t->arg, addr, ret) &&
	       ret->start;
}

/* the retpoline and call-depth thunks (arch/x86/lib/retpoline.S:
 * __x86_indirect_thunk_<reg>, __x86_indirect_call_thunk_<reg>,
 * __x86_indirect_its_thunk_<reg>): a call through a register.  7.x
 * also gives the thunks a __pi_ alias for the confined startup code
 * (SYM_PIC_ALIAS; 7.2.13+deb14 has __pi___x86_indirect_thunk_rax at
 * __x86_indirect_thunk_array), which kallsyms' tie rule may pick. */
static bool is_indirect_thunk(const char *name)
{
	if (name && !strncmp(name, "__pi_", 5))
		name += 5;
	return name && !strncmp(name, "__x86_indirect_", 15);
}

/* objtool's symbol for the padding before NAME (--prefix): __pfx_NAME */
static bool is_prefix_of(const char *name, const struct oc_unwind_func *fn)
{
	return name && fn->name && !strncmp(name, "__pfx_", 6) &&
	       !strcmp(name + 6, fn->name);
}

/* a call to @target ends up in @fn (see the header comment, 2.) */
static bool reaches(const struct walk *w, uint64_t target,
		    const struct oc_unwind_func *fn)
{
	for (int hop = 0; hop <= MAX_JMP_HOPS; hop++) {
		struct oc_unwind_func tf;
		uint8_t code[9];

		if (target == fn->start || (fn->parent && target == fn->parent))
			return true;
		if (func_of(w, target, &tf) && is_prefix_of(tf.name, fn) &&
		    target < fn->start)
			return true;
		if (!read_code(w, target, code, sizeof(code)) ||
		    !oc_x86_jmp_at(code, sizeof(code), target, &target))
			return false;
	}
	return false;
}

/*
 * A call's target is real if it is where calls go: a function's entry,
 * a retpoline thunk, or the padding thunk before a function.  A
 * direct-call form whose target is in the middle of a function is
 * bytes that only look like one.
 */
static bool plausible_target(const struct walk *w, uint64_t target,
			     bool *thunk_ret)
{
	struct oc_unwind_func tf;

	*thunk_ret = false;
	if (!w->t->is_text(w->t->arg, target))
		return false;
	if (!w->t->func_of)
		return true;	/* no symbols to say more */
	if (!func_of(w, target, &tf))
		return false;
	if (is_indirect_thunk(tf.name)) {
		*thunk_ret = true;
		return true;
	}
	return target == tf.start || (tf.name && !strncmp(tf.name, "__pfx_", 6));
}

static enum oc_link link_to(const struct walk *w, uint64_t ret,
			    const struct oc_unwind_func *fn)
{
	uint8_t code[OC_CALL_MAX_LEN];
	struct oc_call_insn forms[OC_CALL_MAX_FORMS];
	bool other = false, unknown = false;
	size_t n;

	if (ret < OC_CALL_MAX_LEN ||
	    !read_code(w, ret - OC_CALL_MAX_LEN, code, sizeof(code)))
		return OC_LINK_NOT_CALL;
	n = oc_x86_calls_ending_at(code, sizeof(code), ret, forms);
	for (size_t i = 0; i < n; i++) {
		uint64_t target = forms[i].target;
		bool thunk;

		switch (forms[i].kind) {
		case OC_CALL_INDIRECT:
			unknown = true;
			continue;
		case OC_CALL_MEMORY:
			/* the pointer as it was: pv_ops, a function table */
			if (!oc_ok(oc_mem_read_u64(w->t->mem, forms[i].mem_addr,
						   &target))) {
				unknown = true;
				continue;
			}
			break;
		case OC_CALL_DIRECT:
			break;
		}
		if (!plausible_target(w, target, &thunk))
			continue;
		if (thunk || !fn) {
			unknown = true;
			continue;
		}
		if (reaches(w, target, fn))
			return OC_LINK_TARGET;
		other = true;
	}
	/* a real call elsewhere says more than bytes that could also be
	 * the tail of a call through a register */
	if (other)
		return OC_LINK_OTHER;
	return unknown ? OC_LINK_UNKNOWN : OC_LINK_NOT_CALL;
}

enum oc_link oc_unwind_link(const struct walk *w, uint64_t ret,
			    uint64_t callee, bool exact)
{
	struct oc_unwind_func fn;
	bool have = callee && func_of(w, exact ? callee : callee - 1, &fn);

	return link_to(w, ret, have ? &fn : NULL);
}

/* the walk goes on as after a call frame: ip from a return address */
static void set_call_frame(struct walk *w, uint64_t ip, uint64_t sp,
			   enum oc_frame_how how)
{
	w->ip = ip;
	w->sp = sp;
	w->signal = false;
	w->have_regs = false;
	w->have_prev_regs = false;
	w->regs_kind = OC_REGS_NONE;
	w->how = how;
}

/* 1. the CFI row at @pc */
static enum oc_unwind_fallback cfi_step(struct walk *w, struct oc_frame *f,
					uint64_t pc, char *why, size_t size)
{
	const struct oc_cfi_rule *ra, *bp;
	struct oc_cfi_row row;
	struct oc_unwind_func fn;
	uint64_t cfa, ip_p, ret, new_bp = w->bp, prev_sp = w->sp;
	enum oc_stack_type prev_type = w->info.type;
	bool bp_unknown = w->bp_unknown;
	enum oc_link link;

	if (!w->t->find_cfi || !w->t->find_cfi(w->t->arg, pc, &row)) {
		snprintf(why, size, "no .debug_frame CFI");
		return OC_FALLBACK_NONE;
	}
	if (row.cfa_kind != OC_CFI_CFA_REG_OFFSET ||
	    (row.cfa_reg != DW_RSP && row.cfa_reg != DW_RBP) ||
	    (row.cfa_reg == DW_RBP && w->bp_unknown)) {
		snprintf(why, size, "a CFA rule the walk cannot compute");
		return OC_FALLBACK_NONE;
	}
	ra = &row.regs[DW_RA];
	if (ra->kind != OC_CFI_OFFSET) {
		snprintf(why, size, "CFI without a saved return address");
		return OC_FALLBACK_NONE;
	}
	cfa = (row.cfa_reg == DW_RSP ? w->sp : w->bp) + (uint64_t)row.cfa_off;
	ip_p = cfa + (uint64_t)ra->off;
	if (!oc_unwind_deref(w, ip_p, &ret) ||
	    !oc_unwind_check_ret(w, ret, ip_p))
		return OC_FALLBACK_STOP;
	bp = &row.regs[DW_RBP];
	switch (bp->kind) {
	case OC_CFI_OFFSET:
		if (!oc_unwind_deref(w, cfa + (uint64_t)bp->off, &new_bp))
			return OC_FALLBACK_STOP;
		bp_unknown = false;
		break;
	case OC_CFI_VAL_OFFSET:
		new_bp = cfa + (uint64_t)bp->off;
		bp_unknown = false;
		break;
	case OC_CFI_UNSPECIFIED:	/* gcc: callee-saved, so unchanged */
	case OC_CFI_SAME_VALUE:
		break;
	default:
		bp_unknown = true;
	}
	/* "stack going in the wrong direction", as for ORC */
	if (w->info.type == prev_type && cfa <= prev_sp) {
		oc_unwind_fail(w, "stack going in the wrong direction at 0x%llx (CFI: sp 0x%llx -> 0x%llx)",
			       (unsigned long long)w->ip,
			       (unsigned long long)prev_sp,
			       (unsigned long long)cfa);
		return OC_FALLBACK_STOP;
	}
	link = link_to(w, ret, func_of(w, pc, &fn) ? &fn : NULL);
	if (link == OC_LINK_NOT_CALL)
		oc_unwind_note(w, "return address 0x%llx at 0x%llx, found by the CFI of 0x%llx, follows no call",
			       (unsigned long long)ret,
			       (unsigned long long)ip_p,
			       (unsigned long long)w->ip);
	set_call_frame(w, ret, cfa, OC_HOW_CFI);
	w->bp = new_bp;
	w->bp_unknown = bp_unknown;
	oc_unwind_fill_frame(w, ip_p, f);
	return OC_FALLBACK_FRAME;
}

/* 2. the first word above sp after a verified call to the function */
static enum oc_unwind_fallback callsite_step(struct walk *w,
					     struct oc_frame *f, uint64_t pc,
					     char *why, size_t size)
{
	struct oc_unwind_func fn;
	unsigned int words = 0;

	if (!func_of(w, pc, &fn)) {
		snprintf(why, size, "no .debug_frame CFI, no symbol for 0x%llx",
			 (unsigned long long)pc);
		return OC_FALLBACK_NONE;
	}
	if (w->info.type == OC_STACK_UNKNOWN)
		return OC_FALLBACK_NONE;
	for (uint64_t a = (w->sp + 7) & ~(uint64_t)7;
	     a + 8 <= w->info.end && words < MAX_CALLSITE_WORDS;
	     a += 8, words++) {
		uint64_t word;

		if (!oc_ok(oc_mem_read_u64(w->t->mem, a, &word)) ||
		    !w->t->is_text(w->t->arg, word) ||
		    link_to(w, word, &fn) != OC_LINK_TARGET)
			continue;
		if (!oc_unwind_check_ret(w, word, a))
			return OC_FALLBACK_STOP;
		set_call_frame(w, word, a + 8, OC_HOW_CALLSITE);
		/* the function may have changed bp; nothing restores it */
		w->bp_unknown = true;
		oc_unwind_fill_frame(w, a, f);
		return OC_FALLBACK_FRAME;
	}
	snprintf(why, size, "no .debug_frame CFI, no call to %s in %u words above sp",
		 fn.name ? fn.name : "it", words);
	return OC_FALLBACK_NONE;
}

enum oc_unwind_fallback oc_unwind_fallback(struct walk *w, struct oc_frame *f,
					   char *why, size_t size)
{
	uint64_t pc = w->signal ? w->ip : w->ip - 1;
	enum oc_unwind_fallback r;

	why[0] = 0;
	if (!w->t->find_cfi && !w->t->func_of)
		return OC_FALLBACK_NONE;
	r = cfi_step(w, f, pc, why, size);
	if (r != OC_FALLBACK_NONE)
		return r;
	return callsite_step(w, f, pc, why, size);
}

/* ---- CPUs stopped by the crash NMI ----------------------------------- */

/*
 * The walk from the NMI-stack word at @slot, each return address a
 * verified call into the frame below, must reach the NMI's pt_regs and
 * find there the registers crash_save_cpu() saved.  On success @s goes
 * on with that walk (@sub holds its frames so far).
 */
static bool nmi_walk(const struct oc_unwind_target *t,
		     const struct oc_regs *regs, enum oc_stack_type type,
		     uint64_t slot, uint64_t word,
		     struct walk *s, struct oc_trace *sub, struct oc_error **err)
{
	struct oc_frame f;

	oc_unwind_walk_init(s, t, sub);
	s->ip = word;
	s->sp = slot + 8;
	s->bp = regs->bp;
	s->bp_unknown = true;
	s->verify_links = true;
	s->how = OC_HOW_CALLSITE;
	oc_unwind_fill_frame(s, slot, &f);
	if ((*err = oc_unwind_push(sub, &f)))
		return false;
	if (!oc_unwind_start_stack(s) || s->info.type != type)
		return false;
	for (int n = 0; n < MAX_NMI_FRAMES; n++) {
		if (!oc_unwind_step(s, &f) || s->error)
			return false;
		if ((*err = oc_unwind_push(sub, &f)))
			return false;
		if (f.regs_kind == OC_REGS_FULL)
			return !memcmp(&f.regs, regs, sizeof(*regs));
		if (f.regs_kind != OC_REGS_NONE || f.stack != type)
			return false;
	}
	return false;
}

struct oc_error *oc_unwind_nmi_stopped(const struct oc_unwind_target *t,
				       const struct oc_regs *regs,
				       const struct oc_stack_info *nmi,
				       const struct oc_unwind_options *opts,
				       struct oc_trace *ret, bool *found_ret)
{
	struct walk probe = { .t = t };

	*found_ret = false;
	if (!nmi || (nmi->type != OC_STACK_NMI && nmi->type != OC_STACK_TASK) ||
	    !t->func_of || nmi->end <= nmi->begin)
		return oc_unwind_regs(t, regs, opts, ret);
	/* the lowest word first: stale frames lie below the live ones,
	 * and a live frame's words are above it */
	for (uint64_t a = (nmi->begin + 7) & ~(uint64_t)7; a + 8 <= nmi->end;
	     a += 8) {
		struct oc_error *err = NULL;
		struct oc_trace sub;
		struct walk s;
		uint64_t word;

		if (!oc_ok(oc_mem_read_u64(t->mem, a, &word)) ||
		    !t->is_text(t->arg, word) ||
		    link_to(&probe, word, NULL) == OC_LINK_NOT_CALL)
			continue;
		if (!nmi_walk(t, regs, nmi->type, a, word, &s, &sub, &err)) {
			oc_trace_deinit(&sub);
			if (err)
				return err;
			continue;
		}
		*ret = sub;
		s.trace = ret;
		s.verify_links = false;
		*found_ret = true;
		return oc_unwind_walk_run(&s, opts, a);
	}
	return oc_unwind_regs(t, regs, opts, ret);
}
