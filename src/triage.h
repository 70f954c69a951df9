/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The crash summary (docs/triage.md): what kind of crash, in whose code,
 * a one-line title in syzkaller's style, a signature that is the same
 * for the same bug across boots, KASLR and dump formats, and the taint
 * flags with the modules that set them.
 *
 * Derived from the dump: the panic CPU's trace (which functions panic()
 * was called from, the exception pt_regs crossed and their error code),
 * checked against the kernel's own oops and panic lines in the log.
 * Producers only: the text and JSON reports render it.
 */
#ifndef OC_TRIAGE_H
#define OC_TRIAGE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "kernel.h"

struct oc_log;

enum oc_crash_kind {
	OC_CRASH_UNKNOWN,	/* no panic CPU, or no trace to read */
	OC_CRASH_PAGE_FAULT,	/* oops on a kernel page fault */
	OC_CRASH_NULL_DEREF,	/* the same, below PAGE_SIZE */
	OC_CRASH_GPF,		/* general protection fault */
	OC_CRASH_BUG,		/* BUG(): ud2 + __bug_table */
	OC_CRASH_WARN,		/* WARN() with panic_on_warn */
	OC_CRASH_STACK_OVERFLOW,	/* #DF on a stack's guard page */
	OC_CRASH_DOUBLE_FAULT,
	OC_CRASH_HARD_LOCKUP,	/* the NMI watchdog */
	OC_CRASH_NMI,		/* unknown NMI, SERR, IOCHK */
	OC_CRASH_SOFT_LOCKUP,
	OC_CRASH_HUNG_TASK,
	OC_CRASH_RCU_STALL,
	OC_CRASH_MCE,
	OC_CRASH_SYSRQ,		/* sysrq-c */
	OC_CRASH_PANIC,		/* panic() called from code */
};

/* "page-fault", "null-deref", ... (docs/triage.md, docs/json.md) */
const char *oc_crash_kind_name(enum oc_crash_kind kind);

/* One frame as the classification sees it: names only, no addresses. */
struct oc_triage_frame {
	const char *symbol;	/* NULL when unknown */
	const char *module;	/* NULL for vmlinux */
	bool regs;		/* a pt_regs frame: the CPU was interrupted here */
	bool scanned;		/* a "?" entry: never used */
};

/*
 * The classification of a trace, innermost frame first: the kind as the
 * frames say it, the index of the guilty frame (-1 if none) and of the
 * exception pt_regs frame the crash came through (-1 if none).
 */
struct oc_triage_frames {
	enum oc_crash_kind kind;
	long guilty;
	long exception;
};
void oc_triage_classify(const struct oc_triage_frame *frames, size_t nr,
			struct oc_triage_frames *ret);
/* Whether the guilty-frame search skips @symbol (the table in triage.c). */
bool oc_triage_skipped(const char *symbol);
/*
 * A function's name without the compiler's clone suffixes (".cold",
 * ".part.0", ".constprop.0", ".isra.0", ".llvm.123"): the same function
 * in every build.
 */
void oc_triage_base_name(const char *symbol, char *buf, size_t size);
/*
 * The page fault error code the way the kernel's show_fault_oops()
 * prints it (arch/x86/mm/fault.c, 6.1-6.12): "supervisor read access in
 * kernel mode" into @access, "not-present page" into @why.
 */
void oc_triage_pf_error(uint64_t error_code, bool user_mode, char *access,
			size_t asize, char *why, size_t wsize);
/*
 * The signature: 16 hex digits of FNV-1a 64 over the kind and, from the
 * guilty frame on, up to OC_TRIAGE_SIG_FRAMES frames' base names and
 * modules (scanned entries left out).
 */
enum { OC_TRIAGE_SIG_FRAMES = 5 };
void oc_triage_signature(enum oc_crash_kind kind,
			 const struct oc_triage_frame *frames, size_t nr,
			 long guilty, char buf[17]);

/*
 * The BUG()/WARN() site of the ud2 at @ip, as the kernel's find_bug()
 * (lib/bug.c) finds it: the struct bug_entry of vmlinux's __bug_table or
 * of the module that has @ip, with relative pointers (x86-64's
 * CONFIG_GENERIC_BUG_RELATIVE_POINTERS) and, with
 * CONFIG_DEBUG_BUGVERBOSE, __FILE__ and __LINE__ of the macro.  The
 * layout comes from the kernel's types.  false when none matches.
 */
struct oc_bug_site {
	char file[160];
	unsigned int line;
	bool warning;		/* BUGFLAG_WARNING: a WARN(), not a BUG() */
};
bool oc_triage_bug_site(const struct oc_kernel *k, uint64_t ip,
			struct oc_bug_site *ret);
/*
 * The pure part, for tests: the index of the entry of @tab (@n entries
 * of @esize bytes, loaded at @tab_addr) whose bug_addr_disp (a s32 at
 * @disp_off) points at @ip; -1 if none.
 */
long oc_triage_bug_find(const uint8_t *tab, size_t n, size_t esize,
			size_t disp_off, uint64_t tab_addr, uint64_t ip);

/* One taint flag set (kernel/panic.c taint_flags[]). */
struct oc_taint {
	char letter;
	const char *name;	/* "OOT_MODULE" */
	/* the loaded modules whose ->taints has it (their names in the
	 * kernel model), the first 8 of them */
	const char *modules[8];
	size_t nr_modules;
	bool more_modules;	/* and more than that */
};

struct oc_crash {
	enum oc_crash_kind kind;
	char title[320];
	char message[256];	/* the panic message; "" if none */
	int cpu;		/* the panic CPU, -1 if unknown */
	/* the guilty frame: its index in the panic CPU's trace and a copy */
	bool have_guilty;
	struct oc_frame guilty;
	char guilty_symbol[128];	/* base name */
	char guilty_module[64];		/* "" for vmlinux */
	char signature[17];	/* "" without a guilty frame */
	/* the faulting address (from the kernel's oops line; the dump
	 * keeps no CR2) and the exception's error code (its pt_regs'
	 * orig_ax, where the entry code stores it) */
	bool have_address, have_error_code;
	uint64_t address, error_code;
	/* where each came from: "dump" (exc_page_fault's DWARF variables,
	 * values the walk vouches for) or "log" (the oops lines) */
	const char *address_from, *error_code_from;
	char error_access[64], error_why[64];
	/* tainted_mask; have_taint false when it could not be read */
	bool have_taint;
	uint64_t tainted_mask;
	char taint[24];		/* the letters set, in bit order: "OE" */
	struct oc_taint taints[24];
	size_t nr_taints;
	/* the scheduler's clock when the CPUs stopped: time since boot on
	 * the clock of the log's timestamps (oc_triage_sched_clock()); a
	 * little after the panic when its CPU ticked on in panic()'s final
	 * loop (interrupts on) until the dump was taken */
	bool have_uptime;
	uint64_t uptime_ns;
	/* BUG(): the site from the bug table (have_bug) */
	bool have_bug;
	struct oc_bug_site bug;
	/* notes: where the dump and the log disagree, what was not read */
	char details[6][192];
	size_t nr_details;
};

struct oc_lines;
/*
 * Computes the summary; @log may be NULL, and @lines (src/lines.h: the
 * DWARF, for the page fault's address and error code) too.  Never fails: what could not
 * be read is said in ->details (only allocation failure is an error).
 */
struct oc_error *oc_triage(const struct oc_kernel *k, struct oc_lines *lines,
			   const struct oc_log *log, struct oc_crash *ret);

/*
 * How long a task has been off the CPU, on the scheduler's clock:
 * "now" is the latest runqueues.clock of the CPUs (rq->clock,
 * sched_clock_cpu(): the clock of the log's timestamps), the task's mark
 * sched_info.last_arrival, when it was last put on a CPU
 * (sched_info_arrive(), kernel/sched/stats.h; CONFIG_SCHED_INFO).  For a
 * task in D that ran only to block, about how long it has been blocked.
 */
struct oc_sched_clock {
	bool known;
	uint64_t now;		/* ns */
	uint64_t last_arrival_off;	/* in struct task_struct */
	uint64_t rq_clock_off;		/* in struct rq */
};
void oc_triage_sched_clock(const struct oc_kernel *k, struct oc_sched_clock *ret);

/* Module @i's own taint flags (struct module's taints: what it set on
 * load); false when the dump does not say (0 in *mask). */
bool oc_triage_module_taints(const struct oc_kernel *k, size_t i,
			     uint64_t *mask);
/* The letters of the taint flags in @mask, in bit order as the kernel
 * prints them (print_tainted(), module_flags(): "OE"); their count. */
size_t oc_triage_taint_letters(uint64_t mask, char *buf, size_t size);
/* One CPU's runqueue clock (rq->clock, ns); false when unknown. */
bool oc_triage_cpu_clock(const struct oc_kernel *k, const struct oc_sched_clock *clk,
			 unsigned int cpu, uint64_t *ret);
/* A task's sched_info.last_arrival (when it last got a CPU, on its
 * CPU's runqueue clock); false when unknown or 0 (never). */
bool oc_triage_last_arrival(const struct oc_kernel *k, const struct oc_sched_clock *clk,
			    const struct oc_task *t, uint64_t *ret);
/* false when unknown (no clock, unreadable, later than "now"). */
bool oc_triage_off_cpu(const struct oc_kernel *k, const struct oc_sched_clock *clk,
		       const struct oc_task *t, uint64_t *ns_ret,
		       uint64_t *since_ret);

#endif /* OC_TRIAGE_H */
