// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: the ORC walker (src/unwind.h) over arbitrary stack
 * memory, registers and ORC entries.  Input:
 *   u8 version (1..6), u8 flags (1 scan, 2 resync, 4 fp_fallback,
 *   8 sp_indirect_deref_first, 16 blocked task walk, 32 symbols (a
 *   function every 64 bytes of text) for the call-site rule, 64 a CFI
 *   row for all text, from the bytes of regs.orig_ax, 128 the crash-NMI
 *   search on the first stack of type NMI), u16 max_frames,
 *   u16 n, u8 nr_stacks, struct oc_regs (21 x u64),
 *   n x { u64 ip, 6 raw ORC bytes of that version },
 *   nr_stacks x { u8 stack type, u64 begin, u32 len, len bytes }.
 * The stacks are the only readable memory; get_stack_info() answers
 * from them (an IRQ stack links through its top word, exception stacks
 * through the pt_regs->sp at their top, as in dumpstack_64.c).  Text is
 * [first ORC ip, last ORC ip + 4 KiB).
 * Invariants: at most max_frames unwound frames (256 by default), an
 * error stop always has a message and makes the trace unreliable, and
 * so does a note.
 */
#include "fuzz_common.h"
#include "orc.h"
#include "unwind.h"

enum { MAX_STACKS = 4, MAX_STACK = 64 << 10, PT_REGS_SIZE = 168,
       PT_REGS_SP = 152 };

struct world {
	struct oc_orc_table tab;
	struct oc_mem_region regions[MAX_STACKS];
	enum oc_stack_type types[MAX_STACKS];
	size_t nr;
	uint64_t text_begin, text_end;
	struct oc_cfi_row cfi;
};

static bool w_func_of(void *arg, uint64_t addr, struct oc_unwind_func *ret)
{
	struct world *w = arg;

	memset(ret, 0, sizeof(*ret));
	if (addr < w->text_begin || addr >= w->text_end)
		return false;
	ret->start = addr & ~(uint64_t)63;
	ret->name = (addr >> 6) & 1 ? "f.cold" : "f";
	if ((addr >> 6) & 1)
		ret->parent = ret->start - 64;
	return true;
}

static bool w_find_cfi(void *arg, uint64_t pc, struct oc_cfi_row *ret)
{
	struct world *w = arg;

	*ret = w->cfi;
	return pc >= w->text_begin && pc < w->text_end;
}

static bool w_find_orc(void *arg, uint64_t ip, struct oc_orc_entry *ret)
{
	struct world *w = arg;

	return oc_orc_table_find(&w->tab, ip, ret, NULL);
}

static bool w_is_text(void *arg, uint64_t addr)
{
	struct world *w = arg;

	return addr >= w->text_begin && addr < w->text_end;
}

static bool w_stack_info(void *arg, uint64_t addr, struct oc_stack_info *ret)
{
	struct world *w = arg;

	memset(ret, 0, sizeof(*ret));
	for (size_t i = 0; i < w->nr; i++) {
		const struct oc_mem_region *r = &w->regions[i];
		uint64_t end = r->addr + r->len;

		if (addr < r->addr || addr >= end)
			continue;
		ret->type = w->types[i];
		ret->begin = r->addr;
		ret->end = end;
		if (ret->type == OC_STACK_IRQ)
			ret->next_sp_addr = end - 8;
		else if (ret->type >= OC_STACK_DF && r->len >= PT_REGS_SIZE)
			ret->next_sp_addr = end - PT_REGS_SIZE + PT_REGS_SP;
		return true;
	}
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	struct world w;
	struct oc_mem_buffers bufs;
	struct oc_mem mem;
	struct oc_unwind_target t;
	struct oc_unwind_options o = { 0 };
	struct oc_trace trace;
	struct oc_regs regs;
	enum oc_orc_version v = (enum oc_orc_version)(fuzz_u8(&in) % 6 + 1);
	uint8_t flags = fuzz_u8(&in);
	size_t n, nr_stacks, unwound = 0;
	uint8_t *ipb, *orcb;
	uint64_t ip_addr = 0;
	struct oc_error *err;

	memset(&w, 0, sizeof(w));
	o.max_frames = fuzz_u16(&in) % 1024;
	o.scan = flags & 1;
	o.resync = flags & 2;
	n = fuzz_u16(&in) % 4096;
	nr_stacks = fuzz_u8(&in) % (MAX_STACKS + 1);
	fuzz_take(&in, &regs, sizeof(regs));
	if (n > in.left / 14)
		n = in.left / 14;

	ipb = malloc(4 * n + 1);
	orcb = malloc(6 * n + 1);
	if (!ipb || !orcb)
		abort();
	for (size_t i = 0; i < n; i++) {
		uint64_t ip = fuzz_u64(&in);
		uint32_t rel;

		if (!i)
			ip_addr = ip;
		rel = (uint32_t)(ip - (ip_addr + 4 * i));
		memcpy(ipb + 4 * i, &rel, 4);
		fuzz_take(&in, orcb + 6 * i, 6);
	}
	oc_orc_table_init(&w.tab);
	err = oc_orc_table_parse(&w.tab, v, ip_addr, ipb, 4 * n, orcb, 6 * n);
	free(ipb);
	free(orcb);
	if (err) {
		fuzz_check_error(err);
		return 0;
	}
	if (w.tab.nr) {
		w.text_begin = oc_orc_table_ip(&w.tab, 0);
		w.text_end = oc_orc_table_ip(&w.tab, w.tab.nr - 1) + 4096;
	}

	for (size_t i = 0; i < nr_stacks && in.left >= 13; i++) {
		uint8_t type = fuzz_u8(&in) % OC_STACK_NR;
		uint64_t begin = fuzz_u64(&in);
		size_t len = fuzz_u32(&in) % MAX_STACK;
		const uint8_t *bytes = fuzz_bytes(&in, &len);

		if (begin + len < begin)
			continue;
		w.types[w.nr] = type ? type : OC_STACK_TASK;
		w.regions[w.nr++] = (struct oc_mem_region){ begin, len, bytes };
	}
	bufs = (struct oc_mem_buffers){ w.regions, w.nr };
	oc_mem_buffers_init(&mem, &bufs);
	t = (struct oc_unwind_target){
		.mem = &mem,
		.find_orc = w_find_orc,
		.is_text = w_is_text,
		.stack_info = w_stack_info,
		.arg = &w,
		.version = v,
		.sp_indirect_deref_first = flags & 8,
		.inactive_frame_size = 56,
		.inactive_bp_offset = 40,
		.inactive_ret_offset = 48,
		.ret_from_fork = w.text_begin,
		.fp_fallback = flags & 4,
	};
	if (flags & 32)
		t.func_of = w_func_of;
	if (flags & 64) {
		uint64_t c = regs.orig_ax;

		t.find_cfi = w_find_cfi;
		w.cfi.cfa_kind = (enum oc_cfi_cfa_kind)(c % 3);
		w.cfi.cfa_reg = (c >> 2) & 1 ? 7 : 6;
		w.cfi.cfa_off = (int8_t)(c >> 8);
		w.cfi.regs[16] = (struct oc_cfi_rule){
			(enum oc_cfi_rule_kind)((c >> 16) % 7), (int8_t)(c >> 24), 0 };
		w.cfi.regs[6] = (struct oc_cfi_rule){
			(enum oc_cfi_rule_kind)((c >> 32) % 7), (int8_t)(c >> 40), 0 };
	}

	oc_trace_init(&trace);
	if (flags & 16) {
		err = oc_unwind_blocked(&t, regs.sp, &o, &trace);
	} else if (flags & 128) {
		struct oc_stack_info nmi = { 0 };
		bool found;

		for (size_t i = 0; i < w.nr && !nmi.type; i++)
			if (w.types[i] == OC_STACK_NMI)
				w_stack_info(&w, w.regions[i].addr, &nmi);
		err = oc_unwind_nmi_stopped(&t, &regs, &nmi, &o, &trace,
					    &found);
	} else {
		err = oc_unwind_regs(&t, &regs, &o, &trace);
	}
	FUZZ_ASSERT(!err || err == &oc_enomem);
	for (size_t i = 0; i < trace.nr; i++) {
		unwound += !trace.frames[i].scanned;
		FUZZ_ASSERT(!trace.frames[i].scanned ||
			    !trace.frames[i].reliable);
	}
	FUZZ_ASSERT(unwound <= (o.max_frames ? o.max_frames : 256u));
	if (trace.stop == OC_STOP_ERROR) {
		FUZZ_ASSERT(trace.message[0]);
		FUZZ_ASSERT(!trace.reliable);
	}
	FUZZ_ASSERT(memchr(trace.message, 0, sizeof(trace.message)));
	FUZZ_ASSERT(memchr(trace.note, 0, sizeof(trace.note)));
	FUZZ_ASSERT(!trace.note[0] || !trace.reliable);
	{
		char buf[256];

		FUZZ_ASSERT(oc_trace_stop_string(&trace, buf, sizeof(buf)));
		if (getenv("FUZZ_VERBOSE"))	/* checking a seed */
			fprintf(stderr, "%zu frames (%zu unwound), %s, %s\n",
				trace.nr, unwound, buf,
				trace.reliable ? "reliable" : "unreliable");
	}
	oc_trace_deinit(&trace);
	oc_orc_table_deinit(&w.tab);
	return 0;
}
