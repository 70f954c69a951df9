// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * get_stack_info() of arch/x86/kernel/dumpstack_64.c over a layout read
 * from the dump.  The order of the checks is the kernel's: the task's own
 * stack, then (only for a task running on a CPU) the exception stacks,
 * the IRQ stack and the entry stack.
 */
#include "stacks.h"

/* each stack's name as the kernel prints it, and its name in JSON */
static const struct {
	const char *name, *json;
} stack_names[OC_STACK_NR] = {
	[OC_STACK_UNKNOWN] = { "UNKNOWN", "unknown" },
	[OC_STACK_TASK] = { "TASK", "task" },
	[OC_STACK_IRQ] = { "IRQ", "irq" },
	[OC_STACK_SOFTIRQ] = { "SOFTIRQ", "softirq" },
	[OC_STACK_ENTRY] = { "ENTRY_TRAMPOLINE", "entry" },
	[OC_STACK_DF] = { "#DF", "df" },
	[OC_STACK_NMI] = { "NMI", "nmi" },
	[OC_STACK_DB] = { "#DB", "db" },
	[OC_STACK_MCE] = { "#MC", "mc" },
	[OC_STACK_VC] = { "#VC", "vc" },
	[OC_STACK_VC2] = { "#VC2", "vc2" },
};

const char *oc_stack_name(enum oc_stack_type type)
{
	return (unsigned)type < OC_STACK_NR ? stack_names[type].name
					    : "UNKNOWN";
}

const char *oc_stack_json_name(enum oc_stack_type type)
{
	return (unsigned)type < OC_STACK_NR ? stack_names[type].json
					    : "unknown";
}

/* in_task_stack(): [begin, end) in every version; no link. */
static bool in_task_stack(uint64_t begin, uint64_t size, uint64_t addr,
			  struct oc_stack_info *info)
{
	if (!size || addr < begin || addr - begin >= size)
		return false;
	*info = (struct oc_stack_info){
		.type = OC_STACK_TASK,
		.begin = begin,
		.end = begin + size,
	};
	return true;
}

/*
 * in_exception_stack(): the link is pt_regs->sp of the hardware frame at
 * the top.  4.14 (arch/x86/kernel/dumpstack_64.c, v4.14): "stack <=
 * begin || stack >= end" — the begin address is not part of the stack.
 * 5.2+ (cea_exception_stacks, arch/x86/include/asm/cpu_entry_area.h):
 * half-open [begin, end); guard pages lie outside every range.
 */
static bool in_exception_stack(const struct oc_stack_map *map,
			       const struct oc_cpu_stacks *cs, uint64_t addr,
			       struct oc_stack_info *info)
{
	for (int k = 0; k < OC_NR_ESTACKS; k++) {
		uint64_t begin = cs->estack_begin[k], end = cs->estack_end[k];

		if (!end || end <= begin)
			continue;
		if (map->rules == OC_STACK_RULES_4_14) {
			if (addr <= begin || addr >= end)
				continue;
		} else if (addr < begin || addr >= end) {
			continue;
		}
		*info = (struct oc_stack_info){
			.type = (enum oc_stack_type)(OC_STACK_DF + k),
			.begin = begin,
			.end = end,
			.next_sp_addr = end - map->pt_regs_size +
					map->pt_regs_sp_offset,
		};
		return true;
	}
	return false;
}

/*
 * in_irq_stack(): the previous stack pointer is stored in the top-most
 * word before the switch.  4.14 (arch/x86/kernel/dumpstack_64.c,
 * v4.14): "stack <= begin || stack > end" (an empty IRQ stack's pointer
 * equals end, and begin borders the #DF stack).  Since 5.2 the range is [begin, end): RSP can never equal
 * end because the switch's final "popq %rsp" leaves the stack.
 */
static bool in_irq_stack(const struct oc_stack_map *map,
			 const struct oc_cpu_stacks *cs, uint64_t addr,
			 struct oc_stack_info *info)
{
	uint64_t end = cs->irq_end, begin;

	if (!end || !cs->irq_size || end < cs->irq_size)
		return false;
	begin = end - cs->irq_size;
	if (map->rules == OC_STACK_RULES_4_14) {
		if (addr <= begin || addr > end)
			return false;
	} else if (addr < begin || addr >= end) {
		return false;
	}
	*info = (struct oc_stack_info){
		.type = OC_STACK_IRQ,
		.begin = begin,
		.end = end,
		.next_sp_addr = end - 8,
	};
	return true;
}

/* in_entry_stack(): [begin, end) of the CPU's entry stack; no link. */
static bool in_entry_stack(const struct oc_cpu_stacks *cs, uint64_t addr,
			   struct oc_stack_info *info)
{
	if (!cs->entry_end || addr < cs->entry_begin || addr >= cs->entry_end)
		return false;
	*info = (struct oc_stack_info){
		.type = OC_STACK_ENTRY,
		.begin = cs->entry_begin,
		.end = cs->entry_end,
	};
	return true;
}

bool oc_stack_map_find(const struct oc_stack_map *map, int cpu,
		       uint64_t task_begin, uint64_t task_size, uint64_t addr,
		       struct oc_stack_info *ret)
{
	const struct oc_cpu_stacks *cs;

	ret->type = OC_STACK_UNKNOWN;
	if (!addr)
		return false;
	if (in_task_stack(task_begin, task_size, addr, ret))
		return true;
	/* the kernel: "if (task != current) goto unknown" */
	if (cpu < 0 || !map || (unsigned)cpu >= map->nr_cpus)
		return false;
	cs = &map->cpus[cpu];
	if (in_exception_stack(map, cs, addr, ret))
		return true;
	if (in_irq_stack(map, cs, addr, ret))
		return true;
	if (in_entry_stack(cs, addr, ret))
		return true;
	ret->type = OC_STACK_UNKNOWN;
	return false;
}
