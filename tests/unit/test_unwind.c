// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The ORC walker on synthetic kernels: an ORC table encoded as raw bytes
 * in each format version, a task stack, an IRQ stack with its link word
 * and an NMI stack with pt_regs at its top, behind a fake get_stack_info();
 * text bytes (int3, with call instructions put where a test needs one),
 * symbols and a CFI row for the fallbacks where ORC has no entry.
 */
#include "orc.h"
#include "orc_abi.h"
#include "test.h"
#include "unwind.h"

static const uint64_t T = 0xffffffff81000000ull;	/* text */
enum {
	TEXT_SIZE = 0x10000,
	F_LEAF = 0x000, F_A = 0x100, F_B = 0x200, F_C = 0x300, F_END = 0x400,
	F_REGS = 0x500, F_IRET = 0x600, F_IND = 0x700, F_UNDEF = 0x800,
	F_BAD = 0x900, F_LOOP = 0xa00, F_DX = 0xb00, F_BPIND = 0xc00,
	F_AX = 0xd00, F_TERM = 0xe00,
	NR_SPECS = 15,
	/* no ORC entry of their own (the UNDEFINED F_TERM covers them) */
	F_TRAMP = 0xf00, F_COLD = 0x1000, F_SYMS_END = 0x1100,
};

enum { TASK_SIZE = 0x4000, IRQ_SIZE = 0x4000, NMI_SIZE = 0x1000 };
static const uint64_t TASK = 0xffffc90000010000ull;
static const uint64_t IRQ = 0xffffc90000100000ull;
static const uint64_t NMI = 0xfffffe0000010000ull;
static const uint64_t PT_REGS = 168;
/* TASK + 0x2000: where most walks' sp starts, well inside the task stack */
static const uint64_t S = 0xffffc90000012000ull;

/* one ORC entry per function, in normalised terms */
struct spec {
	uint64_t off;
	uint8_t type, sp_reg, bp_reg;
	int16_t sp_off, bp_off;
	bool signal;
	unsigned int raw_sp;	/* nonzero: this raw register number */
};

static const struct spec specs[NR_SPECS] = {
	{ F_LEAF, OC_ORC_TYPE_CALL, OC_ORC_REG_SP, OC_ORC_REG_UNDEFINED, 8, 0, 0, 0 },
	{ F_A, OC_ORC_TYPE_CALL, OC_ORC_REG_SP, OC_ORC_REG_UNDEFINED, 16, 0, 0, 0 },
	{ F_B, OC_ORC_TYPE_CALL, OC_ORC_REG_BP, OC_ORC_REG_PREV_SP, 16, -16, 0, 0 },
	{ F_C, OC_ORC_TYPE_CALL, OC_ORC_REG_SP, OC_ORC_REG_PREV_SP, 32, -16, 0, 0 },
	{ F_END, OC_ORC_TYPE_END_OF_STACK, OC_ORC_REG_UNDEFINED, OC_ORC_REG_UNDEFINED, 0, 0, 0, 0 },
	{ F_REGS, OC_ORC_TYPE_REGS, OC_ORC_REG_SP, OC_ORC_REG_UNDEFINED, 0, 0, 1, 0 },
	{ F_IRET, OC_ORC_TYPE_REGS_PARTIAL, OC_ORC_REG_SP, OC_ORC_REG_UNDEFINED, 0, 0, 1, 0 },
	{ F_IND, OC_ORC_TYPE_CALL, OC_ORC_REG_SP_INDIRECT, OC_ORC_REG_UNDEFINED, 8, 0, 0, 0 },
	{ F_UNDEF, OC_ORC_TYPE_UNDEFINED, OC_ORC_REG_UNDEFINED, OC_ORC_REG_UNDEFINED, 0, 0, 0, 0 },
	{ F_BAD, OC_ORC_TYPE_CALL, OC_ORC_REG_SP, OC_ORC_REG_UNDEFINED, 8, 0, 0, 12 },
	{ F_LOOP, OC_ORC_TYPE_CALL, OC_ORC_REG_SP, OC_ORC_REG_UNDEFINED, 0, 0, 0, 0 },
	{ F_DX, OC_ORC_TYPE_CALL, OC_ORC_REG_DX, OC_ORC_REG_UNDEFINED, 8, 0, 0, 0 },
	{ F_BPIND, OC_ORC_TYPE_CALL, OC_ORC_REG_BP_INDIRECT, OC_ORC_REG_PREV_SP, -16, -16, 0, 0 },
	{ F_AX, OC_ORC_TYPE_CALL, OC_ORC_REG_AX, OC_ORC_REG_UNDEFINED, 8, 0, 0, 0 },
	{ F_TERM, OC_ORC_TYPE_UNDEFINED, OC_ORC_REG_UNDEFINED, OC_ORC_REG_UNDEFINED, 0, 0, 0, 0 },
};

/* normalised register -> on-disk number of @v (inverse of formats/orc.c) */
static unsigned int raw_reg(enum oc_orc_version v, uint8_t r)
{
	/* each register's number before 7.1 and in 7.1's renumbering */
#define R(name) \
	[OC_ORC_REG_##name] = { ORC_ABI_REG_##name, ORC_ABI7_REG_##name }
	static const struct {
		uint8_t old, v71;
	} raw[] = {
		R(UNDEFINED),
		R(PREV_SP),
		R(DX),
		R(DI),
		R(BP),
		R(SP),
		R(R10),
		R(R13),
		R(BP_INDIRECT),
		R(SP_INDIRECT),
		R(AX),
	};
#undef R

	return v == OC_ORC_V_7_1 ? raw[r].v71 : raw[r].old;
}

static enum orc_abi_layout layout_of(enum oc_orc_version v)
{
	return v == OC_ORC_V_4_14 ? ORC_ABI_LAYOUT_4_14 :
	       v == OC_ORC_V_4_18 ? ORC_ABI_LAYOUT_4_18 :
	       v == OC_ORC_V_6_3  ? ORC_ABI_LAYOUT_6_3 :
				    ORC_ABI_LAYOUT_6_4;
}

/* what objtool of version @v would have written for @s */
static void encode(enum oc_orc_version v, const struct spec *s, uint8_t *out)
{
	struct orc_abi_raw r = { .sp_offset = s->sp_off,
				 .bp_offset = s->bp_off };

	r.sp_reg = s->raw_sp ? s->raw_sp : raw_reg(v, s->sp_reg);
	r.bp_reg = raw_reg(v, s->bp_reg);
	if (v >= OC_ORC_V_6_4) {
		static const uint8_t t[] = {
			[OC_ORC_TYPE_UNDEFINED] = ORC_ABI_TYPE_UNDEFINED,
			[OC_ORC_TYPE_END_OF_STACK] = ORC_ABI_TYPE_END_OF_STACK,
			[OC_ORC_TYPE_CALL] = ORC_ABI_TYPE_CALL,
			[OC_ORC_TYPE_REGS] = ORC_ABI_TYPE_REGS,
			[OC_ORC_TYPE_REGS_PARTIAL] = ORC_ABI_TYPE_REGS_PARTIAL,
		};
		r.type = t[s->type];
		r.signal = s->signal;
	} else {
		switch (s->type) {
		case OC_ORC_TYPE_END_OF_STACK:
			r.sp_reg = ORC_ABI_REG_UNDEFINED;
			r.end = 1;
			break;
		case OC_ORC_TYPE_UNDEFINED:
			r.sp_reg = ORC_ABI_REG_UNDEFINED;
			break;
		case OC_ORC_TYPE_REGS:
			r.type = ORC_ABI_OLD_TYPE_REGS;
			break;
		case OC_ORC_TYPE_REGS_PARTIAL:
			r.type = ORC_ABI_OLD_TYPE_REGS_PARTIAL;
			break;
		default:
			r.type = ORC_ABI_OLD_TYPE_CALL;
		}
		if (v == OC_ORC_V_6_3)
			r.signal = s->signal;
	}
	orc_abi_encode(&r, layout_of(v), out);
}

struct world {
	struct oc_orc_table tab;
	uint64_t task[TASK_SIZE / 8], irq[IRQ_SIZE / 8], nmi[NMI_SIZE / 8];
	uint8_t text[TEXT_SIZE];
	/* find_cfi answers this row for [cfi_lo, cfi_hi) */
	struct oc_cfi_row cfi;
	uint64_t cfi_lo, cfi_hi;
	struct oc_mem_region regions[4];
	struct oc_mem_buffers bufs;
	struct oc_mem mem;
	struct oc_unwind_target t;
	struct oc_trace trace;
	char stop[256];
};

static bool w_find_orc(void *arg, uint64_t ip, struct oc_orc_entry *ret)
{
	struct world *w = arg;

	return oc_orc_table_find(&w->tab, ip, ret, NULL);
}

static bool w_is_text(void *arg, uint64_t addr)
{
	return addr >= T && addr < T + TEXT_SIZE;
}

/* one function per 0x100 bytes; F_UNDEF is the one without ORC data,
 * like __crash_kexec(); F_COLD its split-off part */
static bool w_func_of(void *arg, uint64_t addr, struct oc_unwind_func *ret)
{
	static const char *const names[F_SYMS_END >> 8] = {
		"leaf", "fa", "fb", "fc", "fend", "fregs", "firet", "find",
		"crash_kexec", "fbad", "floop", "fdx", "fbpind", "fax",
		"fterm", "__SCT__crash", "crash_kexec.cold",
	};

	memset(ret, 0, sizeof(*ret));
	if (addr < T || addr >= T + F_SYMS_END)
		return false;
	ret->start = T + ((addr - T) & ~0xffull);
	ret->name = names[(addr - T) >> 8];
	if (ret->start == T + F_COLD)
		ret->parent = T + F_UNDEF;
	return true;
}

static bool w_find_cfi(void *arg, uint64_t pc, struct oc_cfi_row *ret)
{
	struct world *w = arg;

	if (pc < w->cfi_lo || pc >= w->cfi_hi)
		return false;
	*ret = w->cfi;
	return true;
}

static bool w_stack_info(void *arg, uint64_t addr, struct oc_stack_info *ret)
{
	memset(ret, 0, sizeof(*ret));
	if (addr >= TASK && addr < TASK + TASK_SIZE) {
		*ret = (struct oc_stack_info){ OC_STACK_TASK, TASK,
					       TASK + TASK_SIZE, 0 };
		return true;
	}
	if (addr >= IRQ && addr < IRQ + IRQ_SIZE) {
		*ret = (struct oc_stack_info){ OC_STACK_IRQ, IRQ,
					       IRQ + IRQ_SIZE,
					       IRQ + IRQ_SIZE - 8 };
		return true;
	}
	if (addr >= NMI && addr < NMI + NMI_SIZE) {
		*ret = (struct oc_stack_info){ OC_STACK_NMI, NMI,
					       NMI + NMI_SIZE,
					       NMI + NMI_SIZE - PT_REGS + 152 };
		return true;
	}
	return false;
}

static struct world *world_new(enum oc_orc_version v)
{
	struct world *w = calloc(1, sizeof(*w));
	uint8_t ipb[4 * NR_SPECS], orcb[6 * NR_SPECS];
	const uint64_t ip_addr = T + 0x200000;

	for (int i = 0; i < NR_SPECS; i++) {
		uint32_t rel = (uint32_t)(T + specs[i].off - (ip_addr + 4 * i));

		memcpy(ipb + 4 * i, &rel, 4);	/* x86 host: little-endian */
		encode(v, &specs[i], orcb + 6 * i);
	}
	oc_orc_table_init(&w->tab);
	CHECK_OK(oc_orc_table_parse(&w->tab, v, ip_addr, ipb, sizeof(ipb),
				    orcb, sizeof(orcb)));
	w->regions[0] = (struct oc_mem_region){ TASK, TASK_SIZE, w->task };
	w->regions[1] = (struct oc_mem_region){ IRQ, IRQ_SIZE, w->irq };
	w->regions[2] = (struct oc_mem_region){ NMI, NMI_SIZE, w->nmi };
	memset(w->text, 0xcc, sizeof(w->text));	/* int3 */
	w->regions[3] = (struct oc_mem_region){ T, TEXT_SIZE, w->text };
	w->bufs = (struct oc_mem_buffers){ w->regions, 4 };
	oc_mem_buffers_init(&w->mem, &w->bufs);
	w->t = (struct oc_unwind_target){
		.mem = &w->mem,
		.find_orc = w_find_orc,
		.is_text = w_is_text,
		.stack_info = w_stack_info,
		.arg = w,
		.version = v,
		.sp_indirect_deref_first = true,
		.inactive_frame_size = 56,
		.inactive_bp_offset = 40,
		.inactive_ret_offset = 48,
		.ret_from_fork = T + F_END,
	};
	oc_trace_init(&w->trace);
	return w;
}

static void world_free(struct world *w)
{
	oc_trace_deinit(&w->trace);
	oc_orc_table_deinit(&w->tab);
	free(w);
}

static void put(struct world *w, uint64_t addr, uint64_t val)
{
	if (addr >= TASK && addr + 8 <= TASK + TASK_SIZE)
		w->task[(addr - TASK) / 8] = val;
	else if (addr >= IRQ && addr + 8 <= IRQ + IRQ_SIZE)
		w->irq[(addr - IRQ) / 8] = val;
	else if (addr >= NMI && addr + 8 <= NMI + NMI_SIZE)
		w->nmi[(addr - NMI) / 8] = val;
	else
		FAIL_AT("put outside the stacks: 0x%llx",
			(unsigned long long)addr);
}

/* "call @target" (e8 rel32) ending at return address @ret */
static void put_call(struct world *w, uint64_t ret, uint64_t target)
{
	uint32_t rel = (uint32_t)(target - ret);

	w->text[ret - 5 - T] = 0xe8;
	memcpy(&w->text[ret - 4 - T], &rel, 4);
}

static void put_code(struct world *w, uint64_t addr, const uint8_t *code,
		     size_t n)
{
	memcpy(&w->text[addr - T], code, n);
}

/* a struct pt_regs at @addr */
static void put_regs(struct world *w, uint64_t addr, const struct oc_regs *r)
{
	uint64_t words[21];

	memcpy(words, r, sizeof(words));
	for (int i = 0; i < 21; i++)
		put(w, addr + 8 * i, words[i]);
}

static const char *run_regs(struct world *w, const struct oc_regs *r,
			    const struct oc_unwind_options *o)
{
	oc_trace_deinit(&w->trace);
	CHECK_OK(oc_unwind_regs(&w->t, r, o, &w->trace));
	return oc_trace_stop_string(&w->trace, w->stop, sizeof(w->stop));
}

/* a word a test puts on a stack: *addr = val */
struct word {
	uint64_t addr, val;
};

/* A world of version @v with @words on its stacks. */
static struct world *world_with(enum oc_orc_version v,
				const struct word *words, size_t n)
{
	struct world *w = world_new(v);

	for (size_t i = 0; i < n; i++)
		put(w, words[i].addr, words[i].val);
	return w;
}

#define WORLD_WITH(v, words) \
	world_with(v, words, sizeof(words) / sizeof((words)[0]))

/*
 * Most tests' first walk: the world of WORLD_WITH() unwound from @r
 * without options, the stop string checked against @stop; the world
 * stays for the test's own checks of the trace.
 */
static struct world *walk(enum oc_orc_version v, const struct word *words,
			  size_t n, const struct oc_regs *r, const char *stop)
{
	struct world *w = world_with(v, words, n);

	CHECK_STR(run_regs(w, r, NULL), stop);
	return w;
}

#define WALK(v, words, r, stop) \
	walk(v, words, sizeof(words) / sizeof((words)[0]), r, stop)

static const enum oc_orc_version all_versions[] = {
	OC_ORC_V_4_14, OC_ORC_V_4_18, OC_ORC_V_6_3, OC_ORC_V_6_4,
	OC_ORC_V_6_4_AX, OC_ORC_V_7_1,
};

/*
 * Task stack S0: A (sp+16) <- B (bp frame) <- C (sp+32, bp saved) <- END.
 */
static void build_chain(struct world *w, struct oc_regs *r)
{
	const uint64_t s0 = TASK + 0x3000;

	memset(r, 0, sizeof(*r));
	r->ip = T + F_A + 0x10;
	r->sp = s0;
	r->bp = s0 + 0x40;
	r->cs = 0x10;
	put(w, s0 + 0x08, T + F_B + 0x20);	/* A's return address */
	put(w, s0 + 0x40, s0 + 0x60);		/* B's saved bp */
	put(w, s0 + 0x48, T + F_C + 0x30);	/* B's return address */
	put(w, s0 + 0x60, 0x1234);		/* C's saved bp */
	put(w, s0 + 0x68, T + F_END + 0x8);	/* C's return address */
}

TEST(unwind_call_chain_every_version)
{
	for (size_t i = 0; i < sizeof(all_versions) / sizeof(all_versions[0]);
	     i++) {
		struct world *w = world_new(all_versions[i]);
		const uint64_t s0 = TASK + 0x3000;
		struct oc_regs r;
		const struct oc_frame *f;

		build_chain(w, &r);
		CHECK_STR(run_regs(w, &r, NULL), "end of stack");
		CHECK(w->trace.reliable);
		if (!CHECKED_EQ(w->trace.nr, 4)) {
			printf("  version %s\n",
			       oc_orc_version_name(all_versions[i]));
			world_free(w);
			continue;
		}
		f = w->trace.frames;
		CHECK_EQ(f[0].ip, T + F_A + 0x10);
		CHECK(f[0].signal);
		CHECK_EQ(f[0].regs_kind, OC_REGS_FULL);
		CHECK_EQ(f[0].ip_addr, 0);
		CHECK_EQ(f[0].stack, OC_STACK_TASK);
		CHECK_EQ(f[1].ip, T + F_B + 0x20);
		CHECK_EQ(f[1].ip_addr, s0 + 0x08);
		CHECK_EQ(f[1].sp, s0 + 0x10);
		CHECK(!f[1].signal);
		CHECK_EQ(f[1].regs_kind, OC_REGS_NONE);
		CHECK_EQ(f[2].ip, T + F_C + 0x30);
		CHECK_EQ(f[2].ip_addr, s0 + 0x48);
		CHECK_EQ(f[2].sp, s0 + 0x50);
		CHECK_EQ(f[2].bp, s0 + 0x60);	/* *(prevsp - 16) */
		CHECK_EQ(f[3].ip, T + F_END + 0x8);
		CHECK_EQ(f[3].sp, s0 + 0x70);
		CHECK_EQ(f[3].bp, 0x1234);
		CHECK(f[3].reliable && f[3].stack == OC_STACK_TASK);
		world_free(w);
	}
}

TEST(unwind_blocked_task)
{
	struct world *w = world_new(OC_ORC_V_6_4);
	const uint64_t tsp = TASK + 0x3f00;

	/* inactive_task_frame: r15 r14 r13 r12 bx bp ret_addr */
	put(w, tsp + 40, 0xb0b0);
	put(w, tsp + 48, T + F_C + 0x30);
	put(w, tsp + 56 + 24, T + F_END + 0x10);
	CHECK_OK(oc_unwind_blocked(&w->t, tsp, NULL, &w->trace));
	CHECK_EQ(w->trace.stop, OC_STOP_END_OF_STACK);
	if (CHECKED_EQ(w->trace.nr, 2)) {
		CHECK_EQ(w->trace.frames[0].ip, T + F_C + 0x30);
		CHECK_EQ(w->trace.frames[0].sp, tsp + 56);
		CHECK_EQ(w->trace.frames[0].bp, 0xb0b0);
		CHECK_EQ(w->trace.frames[0].ip_addr, tsp + 48);
		CHECK(!w->trace.frames[0].signal);
		CHECK_EQ(w->trace.frames[1].ip, T + F_END + 0x10);
		CHECK_EQ(w->trace.frames[1].ip_addr, tsp + 56 + 24);
	}

	/* a new task: ret_addr is ret_from_fork, exact: its own entry (END),
	 * whereas ip - 1 would be in F_C's range */
	oc_trace_deinit(&w->trace);
	put(w, tsp + 48, T + F_END);
	CHECK_OK(oc_unwind_blocked(&w->t, tsp, NULL, &w->trace));
	CHECK_EQ(w->trace.stop, OC_STOP_END_OF_STACK);
	CHECK_EQ(w->trace.nr, 1);
	CHECK(w->trace.nr && w->trace.frames[0].signal);
	oc_trace_deinit(&w->trace);
	w->t.ret_from_fork = 0;
	CHECK_OK(oc_unwind_blocked(&w->t, tsp, NULL, &w->trace));
	CHECK_EQ(w->trace.stop, OC_STOP_END_OF_STACK);
	CHECK_EQ(w->trace.nr, 2);	/* unwound as a call from F_C */
	CHECK(w->trace.nr == 2 && !w->trace.frames[0].signal &&
	      w->trace.frames[1].ip == T + F_END + 0x10);

	/* thread.sp that cannot be read */
	oc_trace_deinit(&w->trace);
	CHECK_OK(oc_unwind_blocked(&w->t, 0xdead000000000000ull, NULL,
				   &w->trace));
	CHECK_EQ(w->trace.stop, OC_STOP_ERROR);
	CHECK(!w->trace.reliable);
	CHECK(strstr(w->trace.message, "cannot read stack at 0xdead000000000000"));
	world_free(w);
}

/*
 * IRQ stack -> task stack through the link word (call_on_irqstack): A on
 * the IRQ stack returns into IND, whose frame is on the task stack at
 * the word the link word points to (returned), C's frame after it.
 */
static uint64_t build_link_word(struct world *w, struct oc_regs *r)
{
	const uint64_t top = IRQ + IRQ_SIZE, p = TASK + 0x3800;

	*r = (struct oc_regs){ .ip = T + F_A + 4, .sp = top - 8 - 16,
			       .cs = 0x10 };
	put(w, top - 8, p);			/* the link word */
	put(w, top - 16, T + F_IND + 0x10);	/* A returns into IND */
	put(w, p, T + F_C + 0x30);		/* at *(sp)+8 - 8 */
	put(w, p + 8 + 24, T + F_END + 0x8);
	return p;
}

TEST(unwind_irq_to_task_via_link_word)
{
	const enum oc_orc_version vs[] = { OC_ORC_V_4_18, OC_ORC_V_6_4,
					   OC_ORC_V_7_1 };

	for (size_t i = 0; i < 3; i++) {
		struct world *w = world_new(vs[i]);
		const uint64_t top = IRQ + IRQ_SIZE;
		struct oc_regs r;
		const uint64_t p = build_link_word(w, &r);

		CHECK_STR(run_regs(w, &r, NULL), "end of stack");
		if (CHECKED_EQ(w->trace.nr, 4)) {
			CHECK_EQ(w->trace.frames[0].stack, OC_STACK_IRQ);
			CHECK_EQ(w->trace.frames[1].ip, T + F_IND + 0x10);
			CHECK_EQ(w->trace.frames[1].stack, OC_STACK_IRQ);
			CHECK_EQ(w->trace.frames[2].ip, T + F_C + 0x30);
			CHECK_EQ(w->trace.frames[2].ip_addr, p);
			CHECK_EQ(w->trace.frames[2].sp, p + 8);
			CHECK_EQ(w->trace.frames[2].stack, OC_STACK_TASK);
			CHECK_EQ(w->trace.frames[3].ip, T + F_END + 0x8);
		}

		/* back onto the IRQ stack: each stack is visited once */
		put(w, p + 8 + 24, T + F_IND + 0x20);
		put(w, p + 8 + 32, top - 64);
		CHECK_STR(run_regs(w, &r, NULL),
			  "error: cannot read stack at 0xffffc90000103fc0 (stack recursion) for ip 0xffffffff81000720");
		CHECK(!w->trace.reliable);
		world_free(w);
	}
}

TEST(unwind_sp_indirect_both_semantics)
{
	const struct oc_regs r = { .ip = T + F_IND + 4, .sp = S, .cs = 0x10 };
	const struct word words[] = {
		/* since 5.12: *(sp) + 8 */
		{ S, S + 0x100 },
		{ S + 0x100, T + F_END + 1 },
		/* before: *(sp + 8) */
		{ S + 8, S + 0x200 },
		{ S + 0x1f8, T + F_END + 2 },
	};
	struct world *w = WORLD_WITH(OC_ORC_V_4_18, words);

	w->t.sp_indirect_deref_first = true;
	CHECK_STR(run_regs(w, &r, NULL), "end of stack");
	CHECK(w->trace.nr == 2 && w->trace.frames[1].ip == T + F_END + 1 &&
	      w->trace.frames[1].sp == S + 0x108);
	w->t.sp_indirect_deref_first = false;
	CHECK_STR(run_regs(w, &r, NULL), "end of stack");
	CHECK(w->trace.nr == 2 && w->trace.frames[1].ip == T + F_END + 2 &&
	      w->trace.frames[1].sp == S + 0x200);
	world_free(w);
}

TEST(unwind_bp_indirect)
{
	const struct oc_regs r = { .ip = T + F_BPIND + 4, .sp = S,
				   .bp = S + 0x40, .cs = 0x10 };
	const struct word words[] = {
		{ S + 0x30, S + 0x90 },		/* *(bp - 16): prev sp */
		{ S + 0x88, T + F_END + 3 },
		{ S + 0x80, 0xbeef },		/* bp at prevsp - 16 */
	};
	struct world *w = WALK(OC_ORC_V_6_4, words, &r, "end of stack");

	if (CHECKED_EQ(w->trace.nr, 2)) {
		CHECK_EQ(w->trace.frames[1].sp, S + 0x90);
		CHECK_EQ(w->trace.frames[1].bp, 0xbeef);
	}
	world_free(w);
}

/*
 * #NMI stack -> task stack through the pt_regs at its top: A on the NMI
 * stack returns into REGS, whose pt_regs are @pt interrupted in C (ip,
 * cs and sp set here: the task stack at @p, C's frame returning to END
 * there).  Returns the pt_regs' address.
 */
static uint64_t build_nmi_regs(struct world *w, struct oc_regs *r,
			       struct oc_regs *pt, uint64_t p)
{
	const uint64_t regs = NMI + NMI_SIZE - PT_REGS;

	*r = (struct oc_regs){ .ip = T + F_A + 4, .sp = regs - 16,
			       .cs = 0x10 };
	pt->ip = T + F_C + 0x30;
	pt->sp = p;
	pt->cs = 0x10;
	put(w, regs - 8, T + F_REGS + 0x8);
	put_regs(w, regs, pt);
	put(w, p + 24, T + F_END + 0x8);
	return regs;
}

TEST(unwind_exception_stack_regs_to_task)
{
	for (size_t i = 0; i < sizeof(all_versions) / sizeof(all_versions[0]);
	     i++) {
		struct world *w = world_new(all_versions[i]);
		const uint64_t p = TASK + 0x3000;
		struct oc_regs r, pt = { .bp = 0x5555, .r12 = 12 };
		const uint64_t regs = build_nmi_regs(w, &r, &pt, p);
		const struct oc_frame *f;

		put(w, p + 16, 0x7777);
		CHECK_STR(run_regs(w, &r, NULL), "end of stack");
		if (!CHECKED_EQ(w->trace.nr, 4)) {
			world_free(w);
			continue;
		}
		f = w->trace.frames;
		CHECK_EQ(f[1].ip, T + F_REGS + 0x8);
		CHECK_EQ(f[1].stack, OC_STACK_NMI);
		CHECK_EQ(f[2].ip, T + F_C + 0x30);
		CHECK(f[2].signal);		/* exact: look up ip itself */
		CHECK_EQ(f[2].regs_kind, OC_REGS_FULL);
		CHECK_EQ(f[2].regs_addr, regs);
		CHECK_EQ(f[2].ip_addr, regs + 128);
		CHECK_EQ(f[2].stack, OC_STACK_NMI);
		CHECK_EQ(f[2].regs.r12, 12);
		CHECK_EQ(f[2].sp, p);
		CHECK_EQ(f[2].bp, 0x5555);	/* bp UNDEFINED: regs->bp */
		CHECK_EQ(f[3].sp, p + 32);
		CHECK_EQ(f[3].bp, 0x7777);
		CHECK_EQ(f[3].stack, OC_STACK_TASK);

		/* the same pt_regs from user mode end the walk */
		pt.cs = 0x33;
		put_regs(w, regs, &pt);
		CHECK_STR(run_regs(w, &r, NULL), "user mode");
		CHECK_EQ(w->trace.nr, 3);
		CHECK(w->trace.reliable);
		world_free(w);
	}
}

TEST(unwind_user_mode_start)
{
	struct world *w = world_new(OC_ORC_V_6_4);
	struct oc_regs r = { .ip = 0x401000, .sp = 0x7ffc0000, .cs = 0x33 };

	CHECK_STR(run_regs(w, &r, NULL), "user mode");
	CHECK_EQ(w->trace.nr, 1);
	world_free(w);
}

/* REGS_PARTIAL: an iret frame; the full regs before it still serve DX */
TEST(unwind_iret_frame_and_prev_regs)
{
	const enum oc_orc_version vs[] = { OC_ORC_V_4_14, OC_ORC_V_4_18,
					   OC_ORC_V_6_4, OC_ORC_V_7_1 };

	for (size_t i = 0; i < 4; i++) {
		const struct oc_regs r = { .ip = T + F_IRET + 4, .sp = S,
					   .cs = 0x10, .dx = S + 0x200 };
		const struct word words[] = {
			/* iret frame: ip cs flags sp ss */
			{ S, T + F_DX + 4 },
			{ S + 8, 0x10 },
			{ S + 16, 0x246 },
			{ S + 24, S + 0x80 },
			{ S + 32, 0x18 },
			/* like the kernel, sp = regs->dx: the offset is not
			 * added */
			{ S + 0x1f8, T + F_END + 0x8 },
		};
		struct world *w = WORLD_WITH(vs[i], words);
		const struct oc_frame *f;

		run_regs(w, &r, NULL);
		f = w->trace.frames;
		CHECK(w->trace.nr >= 2);
		if (w->trace.nr >= 2) {
			CHECK_EQ(f[1].ip, T + F_DX + 4);
			CHECK_EQ(f[1].regs_kind, OC_REGS_PARTIAL);
			CHECK_EQ(f[1].regs_addr, S);
			CHECK_EQ(f[1].ip_addr, S);
			CHECK_EQ(f[1].regs.flags, 0x246);
			CHECK_EQ(f[1].sp, S + 0x80);
			CHECK(f[1].signal);
		}
		if (vs[i] == OC_ORC_V_4_14) {
			/* 4.14 get_reg() knew only full regs */
			CHECK_STR(w->stop,
				  "error: missing DX value at 0xffffffff81000b04");
		} else {
			CHECK_STR(w->stop, "end of stack");
			if (CHECKED_EQ(w->trace.nr, 3))
				CHECK_EQ(w->trace.frames[2].sp, S + 0x200);
		}
		world_free(w);
	}
}

TEST(unwind_ax_register_only_where_defined)
{
	const struct oc_regs r = { .ip = T + F_AX + 4, .sp = S, .cs = 0x10,
				   .ax = S + 0x100 };
	const struct word words[] = { { S + 0xf8, T + F_END + 8 } };
	/* 6.4 with AX, and 7.1's renumbered registers (AX is 1) */
	const enum oc_orc_version vs[] = { OC_ORC_V_6_4_AX, OC_ORC_V_7_1 };
	struct world *w;

	for (size_t i = 0; i < 2; i++) {
		w = WALK(vs[i], words, &r, "end of stack");
		CHECK(w->trace.nr == 2 && w->trace.frames[1].sp == S + 0x100);
		world_free(w);
	}

	/* the same raw entry (register 10) in a 6.4 table is bad */
	w = world_new(OC_ORC_V_6_4);
	{
		uint8_t raw[6];
		struct orc_abi_raw e = { .sp_reg = 10, .sp_offset = 8,
					 .type = ORC_ABI_TYPE_CALL };

		orc_abi_encode(&e, ORC_ABI_LAYOUT_6_4, raw);
		/* the world's table is sorted: its entries stay raw (its
		 * own copy, oc_orc_table_parse()) */
		CHECK(w->tab.raw != NULL && w->tab.raw == w->tab.raw_owned);
		memcpy(w->tab.raw_owned + 13 * ORC_ABI_ENTRY_SIZE, raw, sizeof(raw));	/* F_AX */
	}
	CHECK_STR(run_regs(w, &r, NULL),
		  "error: unknown SP base reg 10 at 0xffffffff81000d04");
	world_free(w);
}

TEST(unwind_corrupt_entries)
{
	struct world *w = world_new(OC_ORC_V_6_4);
	struct oc_regs r = { .sp = S, .cs = 0x10 };

	r.ip = T + F_BAD + 4;
	CHECK_STR(run_regs(w, &r, NULL),
		  "error: unknown SP base reg 12 at 0xffffffff81000904");
	CHECK(!w->trace.reliable);
	CHECK_EQ(w->trace.nr, 1);

	r.ip = T + F_UNDEF + 4;
	CHECK_STR(run_regs(w, &r, NULL),
		  "error: undefined ORC entry for 0xffffffff81000804");

	/* a pt_regs that would run off the top of the stack */
	r.ip = T + F_REGS + 4;
	r.sp = TASK + TASK_SIZE - 0x40;
	CHECK_STR(run_regs(w, &r, NULL),
		  "error: cannot read registers at 0xffffc90000013fc0 (crosses the end of its stack) for ip 0xffffffff81000504");
	r.sp = S;
	r.ip = T + F_UNDEF + 4;
	/* pre-6.4: sp_reg UNDEFINED without the end bit */
	world_free(w);
	w = world_new(OC_ORC_V_4_18);
	CHECK_STR(run_regs(w, &r, NULL),
		  "error: undefined ORC entry for 0xffffffff81000804");
	/* a return address just past the end of text: ip - 1 is in the
	 * section terminator */
	r.ip = T + F_TERM + 0x50;
	CHECK_STR(run_regs(w, &r, NULL),
		  "error: undefined ORC entry for 0xffffffff81000e50");
	world_free(w);
}

TEST(unwind_no_orc_entry)
{
	/* BPF-like code below the first entry, with a frame pointer */
	struct oc_regs r = { .ip = T - 0x1000, .sp = S, .bp = S + 0x20,
			     .cs = 0x10 };
	const struct word words[] = {
		{ S + 0x20, S + 0x60 },
		{ S + 0x28, T + F_C + 0x30 },
		{ S + 0x30 + 24, T + F_END + 8 },
	};
	struct world *w = WALK(OC_ORC_V_6_4, words, &r,
			       "error: no ORC entry for 0xffffffff80fff000");

	CHECK_EQ(w->trace.nr, 1);

	/* 6.1+: orc_fp_entry guess, unreliable from there on, and the
	 * trace says why */
	w->t.fp_fallback = true;
	CHECK_STR(run_regs(w, &r, NULL),
		  "end of stack (no ORC entry for 0xffffffff80fff000: the kernel's frame-pointer guess from there)");
	CHECK(!w->trace.reliable);
	if (CHECKED_EQ(w->trace.nr, 3)) {
		CHECK_EQ(w->trace.frames[1].how, OC_HOW_FP);
		CHECK_EQ(w->trace.frames[1].ip, T + F_C + 0x30);
		CHECK_EQ(w->trace.frames[1].sp, S + 0x30);
		CHECK_EQ(w->trace.frames[1].bp, S + 0x60);
		CHECK(!w->trace.frames[1].reliable);
	}

	/* ip 0 (a call through NULL): null_orc_entry, ret at sp */
	w->t.fp_fallback = false;
	r.ip = 0;
	put(w, S, T + F_END + 8);
	CHECK_STR(run_regs(w, &r, NULL), "end of stack");
	CHECK(w->trace.reliable && w->trace.nr == 2);

	/* ... whose return address is 0 (a stack page read as zeros): no
	 * column of 0x0 frames through null_orc_entry, one error */
	put(w, S, 0);
	CHECK_STR(run_regs(w, &r, NULL),
		  "error: return address 0x0 at 0xffffc90000012000 is not a kernel address");
	CHECK(!w->trace.reliable);
	CHECK_EQ(w->trace.nr, 1);
	/* a user-half word as a return address from a normal frame */
	r.ip = T + F_A + 0x10;
	put(w, S + 8, 0x00007f0012345678ull);
	CHECK_STR(run_regs(w, &r, NULL),
		  "error: return address 0x7f0012345678 at 0xffffc90000012008 is not a kernel address");
	CHECK_EQ(w->trace.nr, 1);
	world_free(w);
}

TEST(unwind_loop_and_truncation)
{
	struct oc_regs r = { .ip = T + F_LOOP + 4, .sp = S, .cs = 0x10 };
	/* sp + 0: sp does not move up */
	const struct word words[] = { { S - 8, T + F_LOOP + 8 } };
	struct world *w = WALK(OC_ORC_V_6_4, words, &r,
			       "error: stack going in the wrong direction at 0xffffffff81000a04 (sp 0xffffc90000012000 -> 0xffffc90000012000)");

	/* sp + 8 forever: runs off the top of the task stack */
	r.ip = T + F_LEAF + 4;
	for (uint64_t a = S; a < TASK + TASK_SIZE; a += 8)
		put(w, a, T + F_LEAF + 8);
	CHECK_STR(run_regs(w, &r, &(struct oc_unwind_options){
					  .max_frames = 10000 }),
		  "error: cannot read stack at 0xffffc90000014000 (not on a known stack) for ip 0xffffffff81000008");
	CHECK_EQ(w->trace.nr, 1 + (TASK + TASK_SIZE - S) / 8);

	/* the dump lacks the top of the stack: the read fails */
	w->regions[0].len = 0x2100;
	CHECK_STR(run_regs(w, &r, &(struct oc_unwind_options){
					  .max_frames = 10000 }),
		  "error: cannot read stack at 0xffffc90000012100 (read failed) for ip 0xffffffff81000008");
	w->regions[0].len = TASK_SIZE;

	/* the frame cap */
	CHECK_STR(run_regs(w, &r, NULL), "frame limit");
	CHECK_EQ(w->trace.nr, 256);
	CHECK(!w->trace.reliable);
	CHECK_STR(run_regs(w, &r, &(struct oc_unwind_options){
					  .max_frames = 10 }),
		  "frame limit");
	CHECK_EQ(w->trace.nr, 10);

	/* a stack pointer on no stack at all */
	r.sp = 0x1000;
	CHECK_STR(run_regs(w, &r, NULL),
		  "error: stack pointer 0x1000 is not on a known stack");
	CHECK_EQ(w->trace.nr, 1);
	world_free(w);
}

TEST(unwind_scan_lists_unreliable_addresses)
{
	struct world *w = world_new(OC_ORC_V_6_4);
	const uint64_t s0 = TASK + 0x3000;
	struct oc_regs r;
	const struct oc_frame *f;

	build_chain(w, &r);
	put(w, s0 + 0x20, T + F_LOOP + 1);	/* stale, between A and B */
	put(w, s0 + 0x28, 0xffff888000001234ull);	/* data, not text */
	put(w, s0 + 0x200, T + F_BAD + 2);	/* above the last frame */
	put(w, TASK + 0x100, T + F_BAD + 3);	/* below sp: not scanned */
	CHECK_STR(run_regs(w, &r, &(struct oc_unwind_options){ .scan = true }),
		  "end of stack");
	CHECK(w->trace.reliable);
	if (!CHECKED_EQ(w->trace.nr, 6))
		goto out;
	f = w->trace.frames;
	CHECK(!f[0].scanned && f[0].ip == T + F_A + 0x10);
	CHECK(!f[1].scanned && f[1].ip == T + F_B + 0x20);
	CHECK(f[2].scanned && !f[2].reliable && f[2].ip == T + F_LOOP + 1);
	CHECK_EQ(f[2].ip_addr, s0 + 0x20);
	CHECK(!f[3].scanned && f[3].ip == T + F_C + 0x30);
	CHECK(!f[4].scanned && f[4].ip == T + F_END + 0x8);
	CHECK(f[5].scanned && f[5].ip == T + F_BAD + 2);
out:
	world_free(w);
}

TEST(unwind_scan_follows_the_link_word)
{
	struct world *w = world_new(OC_ORC_V_6_4);
	struct oc_regs r;
	const uint64_t p = build_link_word(w, &r);
	size_t scanned = 0, irq = 0;

	put(w, p + 8, T + F_B + 1);		/* stale on the task stack */
	CHECK_STR(run_regs(w, &r, &(struct oc_unwind_options){ .scan = true }),
		  "end of stack");
	for (size_t i = 0; i < w->trace.nr; i++) {
		scanned += w->trace.frames[i].scanned;
		irq += w->trace.frames[i].stack == OC_STACK_IRQ;
	}
	CHECK_EQ(w->trace.nr, 5);
	CHECK_EQ(scanned, 1);
	CHECK_EQ(irq, 2);
	if (w->trace.nr == 5) {
		CHECK_EQ(w->trace.frames[2].ip, T + F_C + 0x30);
		CHECK(w->trace.frames[3].scanned);
		CHECK_EQ(w->trace.frames[3].stack, OC_STACK_TASK);
	}
	world_free(w);
}

/*
 * A text address inside a pt_regs (a saved cx): the kernel prints the
 * registers as soon as the unwinder reaches them, right after the frame
 * before them, and the words of the pt_regs after that, all but &regs->ip
 * (show_trace_log_lvl(), arch/x86/kernel/dumpstack.c, v6.1; seen on 6.1
 * rt's hard hrtimer panic, samples mod-hrtimer).
 */
TEST(unwind_scan_regs_before_their_words)
{
	struct world *w = world_new(OC_ORC_V_6_4);
	struct oc_regs r, pt = { .cx = T + F_LOOP + 1 };
	const uint64_t regs = build_nmi_regs(w, &r, &pt, TASK + 0x3000);
	const struct oc_frame *f;

	CHECK_STR(run_regs(w, &r, &(struct oc_unwind_options){ .scan = true }),
		  "end of stack");
	if (!CHECKED_EQ(w->trace.nr, 5))
		goto out;
	f = w->trace.frames;
	CHECK(!f[0].scanned && f[0].ip == T + F_A + 4);
	CHECK(!f[1].scanned && f[1].ip == T + F_REGS + 0x8);
	CHECK(!f[2].scanned && f[2].regs_kind == OC_REGS_FULL &&
	      f[2].ip == T + F_C + 0x30);
	/* the saved cx, after the registers; regs->ip is no "?" entry */
	CHECK(f[3].scanned && f[3].ip == T + F_LOOP + 1);
	CHECK_EQ(f[3].ip_addr, regs + 88);
	CHECK(!f[4].scanned && f[4].ip == T + F_END + 0x8);
out:
	world_free(w);
}

/* opts->resync: regs where objtool left no ORC data (__crash_kexec) */
TEST(unwind_resync_after_undefined_start)
{
	const struct oc_regs r = { .ip = T + F_UNDEF + 4, .sp = S,
				   .cs = 0x10, .bp = 0xb9 };
	const struct word words[] = {
		{ S + 0x10, T + F_UNDEF + 8 },	/* stale: leads nowhere */
		{ S + 0x20, 0xffff888000001000ull },
		{ S + 0x28, T + F_C + 0x30 },	/* the real return address */
		{ S + 0x40, 0xb1 },		/* C's saved bp */
		{ S + 0x48, T + F_END + 8 },
	};
	struct world *w = WALK(OC_ORC_V_4_18, words, &r,
			       "error: undefined ORC entry for 0xffffffff81000804");
	struct oc_unwind_options o = { .resync = true };
	const struct oc_frame *f;

	CHECK_STR(run_regs(w, &r, &o),
		  "end of stack (resynchronised at 0xffffc90000012028, after: undefined ORC entry for 0xffffffff81000804)");
	CHECK(!w->trace.reliable && w->trace.resynced);
	if (CHECKED_EQ(w->trace.nr, 3)) {
		f = w->trace.frames;
		CHECK_EQ(f[1].ip, T + F_C + 0x30);
		CHECK_EQ(f[1].ip_addr, S + 0x28);
		CHECK_EQ(f[1].sp, S + 0x30);
		CHECK_EQ(f[1].bp, 0xb9);
		CHECK(!f[1].reliable && !f[1].scanned);
		CHECK_EQ(f[2].ip, T + F_END + 8);
		CHECK_EQ(f[2].bp, 0xb1);
		CHECK(!f[2].reliable);
	}
	/* with the scan as well: the stale address is a "?" entry */
	o.scan = true;
	run_regs(w, &r, &o);
	CHECK_EQ(w->trace.nr, 4);
	CHECK(w->trace.nr == 4 && w->trace.frames[1].scanned &&
	      w->trace.frames[1].ip == T + F_UNDEF + 8);

	/* nothing to resynchronise on: the error stays */
	put(w, S + 0x28, 0);
	put(w, S + 0x48, 0);
	o.scan = false;
	CHECK_STR(run_regs(w, &r, &o),
		  "error: undefined ORC entry for 0xffffffff81000804");
	CHECK(!w->trace.resynced);
	world_free(w);
}

/*
 * A kdump's panic CPU: registers saved in a function objtool left without
 * ORC data (crash_kexec here, covered by an UNDEFINED entry), called
 * from fc.  On its stack, below the real return address, a stale one of
 * fa's, after a call that went to fb.
 */
static void build_crash_kexec(struct world *w, struct oc_regs *r)
{
	memset(r, 0, sizeof(*r));
	r->ip = T + F_UNDEF + 0x40;
	r->sp = S;
	r->bp = 0xb9;
	r->cs = 0x10;
	put(w, S + 0x08, T + F_A + 0x20);	/* stale: after "call fb" */
	put_call(w, T + F_A + 0x20, T + F_B);
	put(w, S + 0x28, T + F_C + 0x30);	/* after "call crash_kexec" */
	put_call(w, T + F_C + 0x30, T + F_UNDEF);
	put(w, S + 0x40, 0xb1);			/* fc's saved bp */
	put(w, S + 0x48, T + F_END + 8);
	/* its CFI: CFA = rsp + 0x30, return address at CFA - 8 */
	w->cfi = (struct oc_cfi_row){
		.cfa_kind = OC_CFI_CFA_REG_OFFSET, .cfa_reg = 7, .cfa_off = 0x30,
	};
	w->cfi.regs[16] = (struct oc_cfi_rule){ OC_CFI_OFFSET, -8, 0 };
	w->cfi.regs[3] = (struct oc_cfi_rule){ OC_CFI_OFFSET, -16, 0 };
	w->cfi_lo = T + F_UNDEF;
	w->cfi_hi = T + F_UNDEF + 0x100;
}

/* frames 1 and 2 of build_crash_kexec()'s trace, found by @how */
static void check_crash_kexec(struct world *w, enum oc_frame_how how)
{
	const struct oc_frame *f = w->trace.frames;

	if (!CHECKED_EQ(w->trace.nr, 3))
		return;
	CHECK_EQ(f[0].how, OC_HOW_START);
	CHECK_EQ(f[1].ip, T + F_C + 0x30);
	CHECK_EQ(f[1].ip_addr, S + 0x28);
	CHECK_EQ(f[1].sp, S + 0x30);
	CHECK_EQ(f[1].how, how);
	CHECK(!f[1].exact && !f[1].scanned);
	/* the CFI row leaves rbp as it was (known); the call-site step
	 * restores nothing: fc's rbp is not known until ORC reads it */
	CHECK_EQ(f[1].bp_unknown, how == OC_HOW_CALLSITE);
	CHECK_EQ(f[2].ip, T + F_END + 8);
	CHECK_EQ(f[2].bp, 0xb1);
	CHECK(!f[2].bp_unknown);
	CHECK_EQ(f[2].how, OC_HOW_ORC);
}

TEST(unwind_cfi_where_orc_has_none)
{
	struct world *w = world_new(OC_ORC_V_4_18);
	struct oc_regs r;

	build_crash_kexec(w, &r);
	w->t.find_cfi = w_find_cfi;
	w->t.func_of = w_func_of;
	CHECK_STR(run_regs(w, &r, NULL), "end of stack");
	CHECK(w->trace.reliable);
	check_crash_kexec(w, OC_HOW_CFI);

	/* CFI alone (no symbols): the call is still checked, not its target */
	w->t.func_of = NULL;
	CHECK_STR(run_regs(w, &r, NULL), "end of stack");
	CHECK(w->trace.reliable);
	check_crash_kexec(w, OC_HOW_CFI);

	/* the return address CFI finds follows no call: the frame is
	 * unreliable, and the trace says which and why */
	w->t.func_of = w_func_of;
	memset(&w->text[F_C + 0x30 - 5], 0xcc, 5);
	CHECK_STR(run_regs(w, &r, NULL),
		  "end of stack (return address 0xffffffff81000330 at 0xffffc90000012028, found by the CFI of 0xffffffff81000840, follows no call)");
	CHECK(!w->trace.reliable);
	CHECK(w->trace.nr == 3 && !w->trace.frames[1].reliable);
	world_free(w);
}

TEST(unwind_callsite_where_orc_and_cfi_have_none)
{
	struct world *w = world_new(OC_ORC_V_6_4);
	struct oc_regs r;

	build_crash_kexec(w, &r);
	w->t.func_of = w_func_of;
	/* the stale fa word at s + 8 is refused: its call went to fb */
	CHECK_STR(run_regs(w, &r, NULL), "end of stack");
	CHECK(w->trace.reliable);
	check_crash_kexec(w, OC_HOW_CALLSITE);

	/* a function pointer left on the stack (fb's entry, as the timer
	 * callback's pointer below panic's return address on a real
	 * kdump) follows no call: refused, not a frame */
	put(w, S + 0x18, T + F_B);
	CHECK_STR(run_regs(w, &r, NULL), "end of stack");
	check_crash_kexec(w, OC_HOW_CALLSITE);

	/* a word after a call through a register is not taken either:
	 * only a direct call says where it went */
	put(w, S + 0x10, T + F_B + 0x42);
	put_code(w, T + F_B + 0x40, (const uint8_t[]){ 0xff, 0xd0 }, 2);
	CHECK_STR(run_regs(w, &r, NULL), "end of stack");
	check_crash_kexec(w, OC_HOW_CALLSITE);

	/* called through a static-call trampoline that jumps there */
	put_call(w, T + F_C + 0x30, T + F_TRAMP);
	put_code(w, T + F_TRAMP,
		 (const uint8_t[]){ 0xe9, 0xfb, 0xf8, 0xff, 0xff }, 5);
	CHECK_STR(run_regs(w, &r, NULL), "end of stack");
	check_crash_kexec(w, OC_HOW_CALLSITE);

	/* the registers in crash_kexec.cold: the call went to crash_kexec */
	put_call(w, T + F_C + 0x30, T + F_UNDEF);
	r.ip = T + F_COLD + 0x10;
	CHECK_STR(run_regs(w, &r, NULL), "end of stack");
	check_crash_kexec(w, OC_HOW_CALLSITE);
	r.ip = T + F_UNDEF + 0x40;

	/* only stale words: nothing is taken, the error says what was
	 * tried, and the resynchronisation stays the last resort */
	put(w, S + 0x28, 0);
	put(w, S + 0x48, 0);
	CHECK_STR(run_regs(w, &r, NULL),
		  "error: undefined ORC entry for 0xffffffff81000840 (no .debug_frame CFI, no call to crash_kexec in 512 words above sp)");
	CHECK_EQ(w->trace.nr, 1);
	world_free(w);
}

/*
 * After a call-site step nothing restores bp; an ORC entry that needs it
 * (fb: sp = bp + 16) is taken only if the frame it gives returns after
 * a call into fb.
 */
TEST(unwind_callsite_then_bp_frame)
{
	struct oc_regs r = { .ip = T + F_UNDEF + 0x40, .sp = S, .cs = 0x10,
			     .bp = S + 0x40 };
	const struct word words[] = {
		{ S + 0x18, T + F_B + 0x30 },	/* after "call crash_kexec" */
		{ S + 0x40, 0xb2 },		/* fb's saved bp */
		{ S + 0x48, T + F_END + 8 },	/* after "call fb" */
	};
	struct world *w = WORLD_WITH(OC_ORC_V_6_4, words);

	w->t.func_of = w_func_of;
	put_call(w, T + F_B + 0x30, T + F_UNDEF);
	put_call(w, T + F_END + 8, T + F_B);
	CHECK_STR(run_regs(w, &r, NULL), "end of stack");
	CHECK(w->trace.reliable);
	CHECK(w->trace.nr == 3 && w->trace.frames[2].ip == T + F_END + 8 &&
	      w->trace.frames[2].bp == 0xb2);

	/* crash_kexec had changed bp: the frame bp gives is no call into fb
	 * (here not even up the stack) */
	r.bp = S + 0x10;
	run_regs(w, &r, NULL);
	CHECK(!w->trace.reliable);
	r.bp = S + 0x30;
	put(w, S + 0x38, T + F_A + 0x20);	/* after "call fb"? no: fa's */
	put(w, S + 0x40, 0);
	put_call(w, T + F_A + 0x20, T + F_A);
	run_regs(w, &r, NULL);
	CHECK(!w->trace.reliable);
	CHECK(strstr(w->trace.note, "uses bp") != NULL);
	world_free(w);
}

/*
 * A CPU stopped by the crash NMI: crash_save_cpu() saved the interrupted
 * registers (a task-stack chain, as build_chain()); the CPU sits in the
 * handler (fa, which called leaf to halt) on its NMI stack, whose entry
 * code (fregs: a pt_regs frame) called fa.  Below, a stale frame of fc
 * whose walk reaches fa's return address, but fa's call went to leaf,
 * not fc.
 */
TEST(unwind_nmi_stopped_cpu)
{
	struct world *w = world_new(OC_ORC_V_6_4);
	const uint64_t p = NMI + NMI_SIZE - PT_REGS, n0 = p - 0x18;
	const struct oc_stack_info nmi = { OC_STACK_NMI, NMI, NMI + NMI_SIZE,
					   NMI + NMI_SIZE - PT_REGS + 152 };
	struct oc_regs r, other;
	const struct oc_frame *f;
	bool found = false;

	build_chain(w, &r);
	w->t.func_of = w_func_of;
	put_regs(w, p, &r);
	put(w, n0, T + F_A + 0x20);		/* after "call leaf" */
	put_call(w, T + F_A + 0x20, T + F_LEAF);
	put(w, n0 + 0x10, T + F_REGS + 0x10);	/* after "call fa" */
	put_call(w, T + F_REGS + 0x10, T + F_A);
	put(w, n0 - 0x20, T + F_C + 0x30);	/* stale, after "call fb" */
	put_call(w, T + F_C + 0x30, T + F_B);

	CHECK_OK(oc_unwind_nmi_stopped(&w->t, &r, &nmi, NULL, &w->trace,
				       &found));
	CHECK(found);
	CHECK(w->trace.reliable && w->trace.stop == OC_STOP_END_OF_STACK);
	if (CHECKED_EQ(w->trace.nr, 6)) {
		f = w->trace.frames;
		CHECK_EQ(f[0].ip, T + F_A + 0x20);
		CHECK_EQ(f[0].ip_addr, n0);
		CHECK_EQ(f[0].how, OC_HOW_CALLSITE);
		CHECK_EQ(f[0].stack, OC_STACK_NMI);
		/* no register was saved where the handler sits: the
		 * interrupted context's bp is not the NMI frames' */
		CHECK(f[0].bp_unknown);
		CHECK_EQ(f[1].ip, T + F_REGS + 0x10);
		CHECK_EQ(f[1].stack, OC_STACK_NMI);
		CHECK(f[1].bp_unknown);
		CHECK_EQ(f[2].ip, r.ip);
		CHECK(!f[2].bp_unknown && f[2].bp == r.bp);
		CHECK_EQ(f[2].regs_kind, OC_REGS_FULL);
		CHECK_EQ(f[2].regs_addr, p);
		CHECK(f[2].exact);
		CHECK_EQ(f[3].ip, T + F_B + 0x20);
		CHECK_EQ(f[3].stack, OC_STACK_TASK);
		CHECK_EQ(f[5].ip, T + F_END + 0x8);
	}

	/* the pt_regs on the NMI stack are not the saved registers: no
	 * NMI frames, the walk from the registers as before */
	other = r;
	other.r12 ^= 1;
	oc_trace_deinit(&w->trace);
	CHECK_OK(oc_unwind_nmi_stopped(&w->t, &other, &nmi, NULL, &w->trace,
				       &found));
	CHECK(!found);
	CHECK(w->trace.nr == 4 && w->trace.frames[0].ip == r.ip &&
	      w->trace.frames[0].how == OC_HOW_START);

	/* fa's return address follows no call: nothing verifies */
	memset(&w->text[F_REGS + 0x10 - 5], 0xcc, 5);
	oc_trace_deinit(&w->trace);
	CHECK_OK(oc_unwind_nmi_stopped(&w->t, &r, &nmi, NULL, &w->trace,
				       &found));
	CHECK(!found);
	world_free(w);
}

/*
 * __unwind_start() and show_trace_log_lvl() on a stack pointer in the
 * guard page below the task stack: on at PAGE_ALIGN(sp), state->error.
 */
TEST(unwind_guard_page)
{
	const struct oc_regs r = { .ip = T + F_C + 0x10, .sp = TASK - 0x10,
				   .cs = 0x10 };
	const struct word words[] = {
		{ TASK + 0x00, 0xb3 },		/* fc's saved bp */
		{ TASK + 0x08, T + F_END + 8 },
	};
	struct world *w = WALK(OC_ORC_V_6_4, words, &r,
			       "end of stack (sp 0xffffc9000000fff0 is below the TASK stack (its guard page): went on at 0xffffc90000010000 as the kernel does)");

	CHECK(!w->trace.reliable);
	if (CHECKED_EQ(w->trace.nr, 2)) {
		CHECK_EQ(w->trace.frames[0].stack, OC_STACK_TASK);
		CHECK_EQ(w->trace.frames[1].ip, T + F_END + 8);
		CHECK_EQ(w->trace.frames[1].stack, OC_STACK_TASK);
	}
	world_free(w);
}

static uint64_t fuzz_state = 0x1234567887654321ull;

static uint64_t fuzz_rnd(void)
{
	return oc_test_rand(&fuzz_state);
}

/* a plausible-looking but random stack word */
static uint64_t fuzz_word(void)
{
	switch (fuzz_rnd() % 5) {
	case 0:
		return T + fuzz_rnd() % 0x1000;
	case 1:
		return TASK + fuzz_rnd() % TASK_SIZE;
	case 2:
		return IRQ + fuzz_rnd() % IRQ_SIZE;
	case 3:
		return fuzz_rnd() % 4 ? 0x10 : 0x33;
	default:
		return fuzz_rnd();
	}
}

/* Random tables of every version over random stacks: every walk ends
 * with a reason, within the cap, whatever the options. */
TEST(unwind_fuzz_never_hangs)
{
	enum { N = 64 };
	uint8_t ipb[4 * N], orcb[6 * N];
	const uint64_t ip_addr = T + 0x200000;
	int bad = 0;

	for (int iter = 0; iter < 3000 && !bad; iter++) {
		enum oc_orc_version v =
			all_versions[iter % (sizeof(all_versions) /
					     sizeof(all_versions[0]))];
		struct world *w = world_new(v);
		struct oc_unwind_options o = {
			.max_frames = (unsigned int)(fuzz_rnd() % 300),
			.scan = fuzz_rnd() & 1,
			.resync = fuzz_rnd() & 1,
		};
		struct oc_regs r;
		uint64_t words[21];

		for (int i = 0; i < N; i++) {
			uint32_t rel = (uint32_t)(T + (uint64_t)i * 0x40 -
						  (ip_addr + 4 * i));

			memcpy(ipb + 4 * i, &rel, 4);
			for (int b = 0; b < 6; b++)
				orcb[6 * i + b] = (uint8_t)fuzz_rnd();
			/* small offsets most of the time */
			if (fuzz_rnd() % 4) {
				orcb[6 * i + 1] = 0;
				orcb[6 * i + 3] = 0;
			}
		}
		oc_orc_table_deinit(&w->tab);
		CHECK_OK(oc_orc_table_parse(&w->tab, v, ip_addr, ipb,
					    sizeof(ipb), orcb, sizeof(orcb)));
		for (size_t i = 0; i < TASK_SIZE / 8; i++)
			w->task[i] = fuzz_word();
		for (size_t i = 0; i < IRQ_SIZE / 8; i++)
			w->irq[i] = fuzz_word();
		for (size_t i = 0; i < NMI_SIZE / 8; i++)
			w->nmi[i] = fuzz_word();
		for (int i = 0; i < 21; i++)
			words[i] = fuzz_word();
		memcpy(&r, words, sizeof(r));
		r.cs = 0x10;
		r.ip = T + fuzz_rnd() % 0x1100;
		w->t.fp_fallback = fuzz_rnd() & 1;
		w->t.sp_indirect_deref_first = fuzz_rnd() & 1;
		if (fuzz_rnd() & 1)
			w->t.func_of = w_func_of;
		if (fuzz_rnd() & 1) {
			w->t.find_cfi = w_find_cfi;
			w->cfi_lo = T;
			w->cfi_hi = T + TEXT_SIZE;
			w->cfi.cfa_kind = OC_CFI_CFA_REG_OFFSET;
			w->cfi.cfa_reg = fuzz_rnd() & 1 ? 7 : 6;
			w->cfi.cfa_off = (int64_t)(fuzz_rnd() % 64) - 8;
			w->cfi.regs[16] = (struct oc_cfi_rule){
				OC_CFI_OFFSET, -8 * (int64_t)(fuzz_rnd() % 3), 0 };
		}
		for (int i = 0; i < 64; i++)
			w->text[fuzz_rnd() % TEXT_SIZE] = (uint8_t)fuzz_rnd();
		oc_trace_deinit(&w->trace);
		if (iter & 1)
			CHECK_OK(oc_unwind_regs(&w->t, &r, &o, &w->trace));
		else
			CHECK_OK(oc_unwind_blocked(&w->t, r.sp, &o,
						   &w->trace));
		{
			unsigned int cap = o.max_frames ? o.max_frames : 256;
			size_t unwound = 0;

			for (size_t i = 0; i < w->trace.nr; i++)
				unwound += !w->trace.frames[i].scanned;
			if (unwound > cap ||
			    (w->trace.stop == OC_STOP_ERROR &&
			     !w->trace.message[0]) ||
			    (w->trace.stop == OC_STOP_ERROR &&
			     w->trace.reliable)) {
				FAIL_AT("iteration %d: %zu frames, stop %d", iter,
					unwound, w->trace.stop);
				bad++;
			}
		}
		world_free(w);
	}
}
