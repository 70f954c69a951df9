// SPDX-License-Identifier: GPL-2.0-or-later
/* The stack map on synthetic layouts of each kernel generation. */
#include "stacks.h"
#include "test.h"

enum {
	PT_REGS_SIZE = 168,
	PT_REGS_SP = 152,
	IRQ_SIZE = 16384,
	EST_SIZE = 4096,
};

/*
 * 4.14's layout (irq_stack_union, orig_ist): the IRQ stack is directly
 * followed by the exception stacks, #DF first, with no guard page: an
 * address at an exception stack's begin is the IRQ stack's end (the
 * 4.14 boundary rules of src/stacks.h).
 */
static struct oc_cpu_stacks layout_4_14(uint64_t base)
{
	struct oc_cpu_stacks cs = {0};
	uint64_t irq_begin = base;

	cs.irq_end = irq_begin + IRQ_SIZE;
	cs.irq_size = IRQ_SIZE;
	/* #DF begins where the IRQ stack ends */
	for (int k = 0; k < 4; k++) {
		cs.estack_begin[k] = cs.irq_end + (uint64_t)k * EST_SIZE;
		cs.estack_end[k] = cs.estack_begin[k] + EST_SIZE;
	}
	return cs;
}

/* 5.2+: cea_exception_stacks with a guard page before each stack. */
static struct oc_cpu_stacks layout_6_x(uint64_t cea, uint64_t irq_top_word)
{
	struct oc_cpu_stacks cs = {0};
	uint64_t p = cea;

	for (int k = 0; k < OC_NR_ESTACKS; k++) {
		p += 4096;	/* guard */
		cs.estack_begin[k] = p;
		cs.estack_end[k] = p + EST_SIZE;
		p += EST_SIZE;
	}
	/* hardirq_stack_ptr points at the top-most word since 5.12 */
	cs.irq_end = irq_top_word + 8;
	cs.irq_size = IRQ_SIZE;
	cs.entry_begin = 0xfffffe0000001000;
	cs.entry_end = cs.entry_begin + 4096;
	return cs;
}

static struct oc_stack_map map_of(struct oc_cpu_stacks *cs, unsigned n,
				  enum oc_stack_rules rules)
{
	return (struct oc_stack_map){
		.rules = rules,
		.pt_regs_size = PT_REGS_SIZE,
		.pt_regs_sp_offset = PT_REGS_SP,
		.nr_cpus = n,
		.cpus = cs,
	};
}

TEST(stacks_seed005_empty_irq_stack_is_not_df)
{
	struct oc_cpu_stacks cs = layout_4_14(0xffff880000100000);
	struct oc_stack_map map = map_of(&cs, 1, OC_STACK_RULES_4_14);
	struct oc_stack_info info;

	/* An empty IRQ stack's pointer equals its end, which is also the
	 * begin address of the #DF stack: it is on the IRQ stack. */
	CHECK(oc_stack_map_find(&map, 0, 0, 0, cs.irq_end, &info));
	CHECK_EQ(info.type, OC_STACK_IRQ);
	CHECK_EQ(info.next_sp_addr, cs.irq_end - 8);
	/* the IRQ stack's own begin address is not part of it */
	CHECK(!oc_stack_map_find(&map, 0, 0, 0, cs.irq_end - IRQ_SIZE, &info));
	CHECK(oc_stack_map_find(&map, 0, 0, 0, cs.irq_end - IRQ_SIZE + 8, &info));
	CHECK_EQ(info.type, OC_STACK_IRQ);
	/* one word into #DF is #DF; its end is not (next is NMI's begin,
	 * which is not NMI's either) */
	CHECK(oc_stack_map_find(&map, 0, 0, 0, cs.estack_begin[0] + 8, &info));
	CHECK_EQ(info.type, OC_STACK_DF);
	CHECK_EQ(info.next_sp_addr,
		 cs.estack_end[0] - PT_REGS_SIZE + PT_REGS_SP);
	CHECK(!oc_stack_map_find(&map, 0, 0, 0, cs.estack_end[0], &info));
	CHECK(oc_stack_map_find(&map, 0, 0, 0, cs.estack_end[0] - 8, &info));
	CHECK_EQ(info.type, OC_STACK_DF);
	CHECK(oc_stack_map_find(&map, 0, 0, 0, cs.estack_begin[1] + 8, &info));
	CHECK_EQ(info.type, OC_STACK_NMI);
}

TEST(stacks_6x_half_open_and_guard_pages)
{
	struct oc_cpu_stacks cs[2] = {
		layout_6_x(0xfffffe0000010000, 0xffffc90000003ff8),
		layout_6_x(0xfffffe0000050000, 0xffffc90000007ff8),
	};
	struct oc_stack_map map = map_of(cs, 2, OC_STACK_RULES_5_2);
	struct oc_stack_info info;

	/* the top-most word of the IRQ stack holds the link */
	CHECK(oc_stack_map_find(&map, 0, 0, 0, 0xffffc90000003ff8, &info));
	CHECK_EQ(info.type, OC_STACK_IRQ);
	CHECK_EQ(info.next_sp_addr, 0xffffc90000003ff8);
	CHECK_EQ(info.begin, 0xffffc90000000000);
	CHECK_EQ(info.end, 0xffffc90000004000);
	/* end is outside; begin is inside (half-open) */
	CHECK(!oc_stack_map_find(&map, 0, 0, 0, 0xffffc90000004000, &info));
	CHECK(oc_stack_map_find(&map, 0, 0, 0, 0xffffc90000000000, &info));
	/* guard page before #DF belongs to no stack */
	CHECK(!oc_stack_map_find(&map, 0, 0, 0, cs[0].estack_begin[0] - 8, &info));
	CHECK(oc_stack_map_find(&map, 0, 0, 0, cs[0].estack_begin[0], &info));
	CHECK_EQ(info.type, OC_STACK_DF);
	CHECK(oc_stack_map_find(&map, 0, 0, 0, cs[0].estack_begin[1] + 0x100, &info));
	CHECK_EQ(info.type, OC_STACK_NMI);
	CHECK(oc_stack_map_find(&map, 0, 0, 0, cs[0].estack_begin[3], &info));
	CHECK_EQ(info.type, OC_STACK_MCE);
	CHECK(oc_stack_map_find(&map, 0, 0, 0, cs[0].estack_end[5] - 8, &info));
	CHECK_EQ(info.type, OC_STACK_VC2);
	/* each CPU sees only its own stacks */
	CHECK(!oc_stack_map_find(&map, 0, 0, 0, cs[1].estack_begin[1] + 8, &info));
	CHECK(oc_stack_map_find(&map, 1, 0, 0, cs[1].estack_begin[1] + 8, &info));
	CHECK_EQ(info.type, OC_STACK_NMI);
	CHECK(oc_stack_map_find(&map, 0, 0, 0, cs[0].entry_begin, &info));
	CHECK_EQ(info.type, OC_STACK_ENTRY);
	CHECK_EQ(info.next_sp_addr, 0);
}

TEST(stacks_task_stack_and_not_running)
{
	struct oc_cpu_stacks cs = layout_6_x(0xfffffe0000010000, 0xffffc90000003ff8);
	struct oc_stack_map map = map_of(&cs, 1, OC_STACK_RULES_5_2);
	struct oc_stack_info info;
	uint64_t tb = 0xffffc90000010000, ts = 16384;

	CHECK(oc_stack_map_find(&map, 0, tb, ts, tb, &info));
	CHECK_EQ(info.type, OC_STACK_TASK);
	CHECK_EQ(info.end, tb + ts);
	CHECK(!oc_stack_map_find(&map, 0, tb, ts, tb + ts, &info) ||
	      info.type != OC_STACK_TASK);
	/* a task that is not running sees no CPU stacks */
	CHECK(!oc_stack_map_find(&map, -1, tb, ts, 0xffffc90000003ff8, &info));
	CHECK_EQ(info.type, OC_STACK_UNKNOWN);
	/* a CPU out of range, and address 0 */
	CHECK(!oc_stack_map_find(&map, 7, tb, ts, 0xffffc90000003ff8, &info));
	CHECK(!oc_stack_map_find(&map, 0, tb, ts, 0, &info));
}

TEST(stacks_on_stack_bounds)
{
	struct oc_stack_info info = {.type = OC_STACK_TASK, .begin = 0x1000, .end = 0x2000};

	CHECK(oc_stack_on(&info, 0x1000, 8));
	CHECK(oc_stack_on(&info, 0x1ff8, 8));
	CHECK(!oc_stack_on(&info, 0x1ffc, 8));
	CHECK(!oc_stack_on(&info, 0xff8, 8));
	CHECK(!oc_stack_on(&info, 0x1ff8, SIZE_MAX));
	info.type = OC_STACK_UNKNOWN;
	CHECK(!oc_stack_on(&info, 0x1000, 8));
}

TEST(stacks_names)
{
	CHECK_STR(oc_stack_name(OC_STACK_DF), "#DF");
	CHECK_STR(oc_stack_name(OC_STACK_NMI), "NMI");
	CHECK_STR(oc_stack_name(OC_STACK_IRQ), "IRQ");
	CHECK_STR(oc_stack_name(OC_STACK_TASK), "TASK");
	CHECK_STR(oc_stack_json_name(OC_STACK_MCE), "mc");
	CHECK_STR(oc_stack_name((enum oc_stack_type)99), "UNKNOWN");
}
