// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the kernel's walker does not do by itself, kept apart from it
 * (src/unwind.c): the "?" entries show_trace_log_lvl() prints
 * (arch/x86/kernel/dumpstack.c), merged into a trace, and the
 * resynchronisation after a failed walk, the last of the rules of
 * docs/design.md.  Every frame either finds is unreliable.
 */
#include <stdlib.h>
#include <string.h>

#include "unwind_priv.h"

enum {
	/* words scanned for "?" entries, over all stacks of one trace */
	MAX_SCAN_WORDS = 1 << 20,
	/* words above the failing sp tried by opts->resync */
	MAX_RESYNC_WORDS = 1024,
};

/*
 * The word at @addr when it reads and points into kernel text (a return
 * address or not: both the scan and the resync decide that after).
 */
static bool text_word(const struct oc_unwind_target *t, uint64_t addr,
		      uint64_t *word)
{
	return oc_ok(oc_mem_read_u64(t->mem, addr, word)) &&
	       t->is_text(t->arg, *word);
}

/*
 * opts->resync: the first text address above the failing sp from which
 * a walk (as if it were a return address) ends cleanly.  The last
 * resort, after ORC, CFI and a verified call site: every frame from
 * there is unreliable.
 */
struct oc_error *oc_unwind_resync(struct walk *w, unsigned int max)
{
	const struct oc_unwind_target *t = w->t;
	struct oc_stack_info info;
	struct oc_unwind_options sub_opts = { 0 };
	unsigned int words = 0;

	if (w->trace->nr >= max || !t->stack_info(t->arg, w->sp, &info) ||
	    info.type == OC_STACK_UNKNOWN || info.type >= OC_STACK_NR)
		return NULL;
	sub_opts.max_frames = max - (unsigned int)w->trace->nr;
	for (uint64_t a = (w->sp + 7) & ~(uint64_t)7;
	     a + 8 <= info.end && words < MAX_RESYNC_WORDS; a += 8, words++) {
		struct oc_trace sub;
		struct walk s;
		struct oc_frame f;
		struct oc_error *err;
		uint64_t word;

		if (!text_word(t, a, &word))
			continue;
		oc_unwind_walk_init(&s, t, &sub);
		s.ip = word;
		s.sp = a + 8;
		s.bp = w->bp;
		/* the stacks already left behind stay visited */
		s.visit_mask = w->visit_mask & ~(1UL << info.type);
		s.how = OC_HOW_SCAN;
		oc_unwind_fill_frame(&s, a, &f);
		err = oc_unwind_push(&sub, &f);
		if (!err && oc_unwind_start_stack(&s))
			err = oc_unwind_walk_run(&s, &sub_opts, 0);
		if (err) {
			oc_trace_deinit(&sub);
			return err;
		}
		if (sub.stop != OC_STOP_END_OF_STACK &&
		    sub.stop != OC_STOP_USER_MODE) {
			oc_trace_deinit(&sub);
			continue;
		}
		for (size_t i = 0; i < sub.nr && !err; i++) {
			sub.frames[i].reliable = false;
			err = oc_unwind_push(w->trace, &sub.frames[i]);
		}
		w->trace->stop = sub.stop;
		w->trace->reliable = false;
		w->trace->resynced = true;
		w->trace->resync_addr = a;
		oc_trace_deinit(&sub);
		return err;
	}
	return NULL;
}


/*
 * The pt_regs or iret frame that is the next unwound frame, when the
 * kernel prints it now: show_trace_log_lvl() prints a frame's registers as
 * soon as unwind_next_frame() reaches them, right after the frame before
 * (or on entering the stack that holds them), if they are on the stack
 * being scanned (show_regs_if_on_stack(), arch/x86/kernel/dumpstack.c,
 * v6.1), so "?" entries found in the pt_regs come after its RIP line.
 * Pushes it and returns the address of its ip slot, which the scan skips
 * as the kernel does; 0 if there is none.
 */
static uint64_t push_regs_now(struct oc_trace *trace, const struct oc_frame *unwound,
			      size_t nr, size_t *next, const struct oc_stack_info *info,
			      uint64_t stack, struct oc_error **err)
{
	const struct oc_frame *f;

	if (*next >= nr)
		return 0;
	f = &unwound[*next];
	if (f->regs_kind == OC_REGS_NONE || f->ip_addr <= stack ||
	    f->regs_addr < info->begin || f->regs_addr >= info->end)
		return 0;
	*err = oc_unwind_push(trace, f);
	(*next)++;
	return f->ip_addr;
}

/*
 * show_trace_log_lvl(): scan each stack in turn from the starting sp,
 * word by word; a word that is the return address slot of the next
 * unwound frame gives that frame, any other kernel text address a "?"
 * entry; registers crossed come where the kernel prints them
 * (push_regs_now()).  Frames the scan does not meet (the starting
 * registers, frames on stacks it cannot reach) keep their order.
 */
struct oc_error *oc_unwind_scan_merge(const struct walk *w, uint64_t start,
				      struct oc_trace *trace)
{
	const struct oc_unwind_target *t = w->t;
	struct oc_frame *unwound = trace->frames;
	size_t nr = trace->nr, next = 0;
	unsigned long mask = 0;
	size_t budget = MAX_SCAN_WORDS;
	uint64_t stack = start & ~(uint64_t)7;
	uint64_t regs_ip = 0;	/* &regs->ip of registers already pushed */
	struct oc_error *err = NULL;

	trace->frames = NULL;
	trace->nr = trace->cap = 0;

	/* frames that are not on a stack slot come first (regs->ip) */
	while (next < nr && !unwound[next].ip_addr) {
		err = oc_unwind_push(trace, &unwound[next++]);
		if (err)
			goto out;
	}

	while (stack && budget) {
		struct oc_stack_info info;
		struct oc_error *rerr;

		if (!t->stack_info(t->arg, stack, &info) ||
		    info.type == OC_STACK_UNKNOWN || info.type >= OC_STACK_NR) {
			stack = (stack + PAGE_SIZE_X86 - 1) &
				~(uint64_t)(PAGE_SIZE_X86 - 1);
			if (!t->stack_info(t->arg, stack, &info) ||
			    info.type == OC_STACK_UNKNOWN ||
			    info.type >= OC_STACK_NR)
				break;
		}
		if (mask & (1UL << info.type))
			break;
		/* a stack after the first: registers on it print first */
		if (mask)
			regs_ip = push_regs_now(trace, unwound, nr, &next, &info,
						stack, &err);
		if (err)
			goto out;
		mask |= 1UL << info.type;

		for (; stack + 8 <= info.end && budget; stack += 8, budget--) {
			uint64_t word;
			struct oc_frame f;

			if (stack == regs_ip ||
			    (next < nr && unwound[next].ip_addr == stack)) {
				if (stack != regs_ip)
					err = oc_unwind_push(trace, &unwound[next++]);
				if (!err)
					regs_ip = push_regs_now(trace, unwound, nr, &next,
								&info, stack, &err);
				if (err)
					goto out;
				continue;
			}
			if (!text_word(t, stack, &word))
				continue;
			memset(&f, 0, sizeof(f));
			f.ip = word;
			f.sp = stack;
			f.ip_addr = stack;
			f.stack = info.type;
			f.scanned = true;
			f.how = OC_HOW_SCAN;
			err = oc_unwind_push(trace, &f);
			if (err)
				goto out;
		}
		if (!info.next_sp_addr)
			break;
		/* the link to the previous stack (PTR_ALIGN(next_sp)) */
		rerr = oc_mem_read_u64(t->mem, info.next_sp_addr, &stack);
		if (rerr) {
			oc_error_destroy(rerr);
			break;
		}
		stack = (stack + 7) & ~(uint64_t)7;
	}
	while (next < nr) {
		err = oc_unwind_push(trace, &unwound[next++]);
		if (err)
			goto out;
	}
out:
	free(unwound);
	return err;
}
