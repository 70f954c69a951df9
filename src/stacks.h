/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The stack map: for an address, which stack it is on, that stack's
 * bounds, and where the link to the previous stack is kept.  This is
 * the kernel's get_stack_info() (arch/x86/kernel/dumpstack_64.c) over a
 * layout read from the dump, with the boundary rules of the kernel
 * version analysed.
 */
#ifndef OC_STACKS_H
#define OC_STACKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum oc_stack_type {
	OC_STACK_UNKNOWN = 0,
	OC_STACK_TASK,
	OC_STACK_IRQ,
	OC_STACK_SOFTIRQ,	/* 32-bit only in the kernel; kept for naming */
	OC_STACK_ENTRY,
	OC_STACK_DF,		/* exception (IST) stacks, in ESTACK order */
	OC_STACK_NMI,
	OC_STACK_DB,
	OC_STACK_MCE,
	OC_STACK_VC,
	OC_STACK_VC2,
	OC_STACK_NR,
};

/* Exception stacks in the kernel's ESTACK_* order (DF, NMI, DB, MCE, VC, VC2). */
enum { OC_NR_ESTACKS = OC_STACK_VC2 - OC_STACK_DF + 1 };

/* The name the kernel prints between < and > ("IRQ", "#DF", "TASK"). */
const char *oc_stack_name(enum oc_stack_type type);
/* Short lower-case name for JSON ("task", "irq", "df", "nmi", ...). */
const char *oc_stack_json_name(enum oc_stack_type type);

struct oc_stack_info {
	enum oc_stack_type type;
	uint64_t begin, end;	/* [begin, end) of usable stack memory */
	/*
	 * Address of the word that holds the previous stack's sp (the top
	 * word of the IRQ stack; pt_regs->sp at the top of an exception
	 * stack); 0 when the stack has no link (task, entry).
	 */
	uint64_t next_sp_addr;
};

/*
 * Boundary rules by generation.  4.14 (in_exception_stack() and
 * in_irq_stack(), arch/x86/kernel/dumpstack_64.c, v4.14): the begin
 * address of an IRQ or exception stack is not part of it, and the IRQ
 * stack's end is (an empty software stack).  Since 5.2 the kernel uses half-open
 * [begin, end) ranges everywhere and keeps the IRQ link word at end - 8.
 */
enum oc_stack_rules {
	OC_STACK_RULES_4_14,
	OC_STACK_RULES_5_2,
};

struct oc_cpu_stacks {
	/*
	 * IRQ stack: the kernel's "end" (4.14: irq_stack_ptr; 5.2-5.11:
	 * hardirq_stack_ptr; 5.12+: hardirq_stack_ptr + 8, since it then
	 * points at the top-most word) and its size; 0 when unknown.  The
	 * link to the previous stack is the word at irq_end - 8.
	 */
	uint64_t irq_end;
	uint64_t irq_size;
	/* [begin, end) of each exception stack, guard pages excluded; 0/0
	 * when the kernel has no such stack. */
	uint64_t estack_begin[OC_NR_ESTACKS];
	uint64_t estack_end[OC_NR_ESTACKS];
	uint64_t entry_begin, entry_end;
};

struct oc_stack_map {
	enum oc_stack_rules rules;
	uint64_t pt_regs_size;		/* sizeof(struct pt_regs) */
	uint64_t pt_regs_sp_offset;	/* offsetof(struct pt_regs, sp) */
	unsigned int nr_cpus;
	struct oc_cpu_stacks *cpus;	/* nr_cpus entries */
};

/*
 * Which stack @addr is on, for a walk of the task whose stack is
 * [task_begin, task_begin + task_size), running on @cpu (-1 for a task
 * that is not running: then only its own stack counts, like the
 * kernel's "task != current" rule).
 */
bool oc_stack_map_find(const struct oc_stack_map *map, int cpu,
		       uint64_t task_begin, uint64_t task_size, uint64_t addr,
		       struct oc_stack_info *ret);

/* True if [addr, addr + len) lies inside @info. */
static inline bool oc_stack_on(const struct oc_stack_info *info,
			       uint64_t addr, size_t len)
{
	return info->type != OC_STACK_UNKNOWN && addr >= info->begin &&
	       addr < info->end && len <= info->end - addr;
}

#endif /* OC_STACKS_H */
