/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The crash extension's commands over the kernel model, free of crash's
 * defs.h: src/crash/ext.c (the only file that includes defs.h) parses
 * crash's args[], resolves pids and task addresses with crash's own
 * context table and hands the result here.  Keeping the two apart keeps
 * crash's thousands of macros out of the core headers, and lets the
 * commands run without crash.
 */
#ifndef OC_CRASH_CMDS_H
#define OC_CRASH_CMDS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"
#include "kernel.h"
#include "mem.h"

/* What crash gives the commands. */
struct oc_crash_host {
	const char *vmcore;		/* crash's pc->dumpfile */
	const char *vmlinux;		/* crash's pc->namelist */
	/* the DWARF for source lines: crash's separate debuginfo file
	 * (pc->namelist_debug, pc->debuginfo_file) if it was given one,
	 * else NULL (the vmlinux itself) */
	const char *debuginfo;
	const struct oc_mem *mem;	/* crash's readmem(KVADDR) */
	uint64_t current_task;		/* CURRENT_TASK() */
	/* a message said once (crash's error(INFO)); NULL: stderr */
	void (*info)(const char *msg);
};

/* Source lines (src/lines.h) for a command; see oc_crash_lines(). */
struct oc_crash_lines_args {
	bool no_lines;			/* --no-lines: this command only */
	const char *modules_dir;	/* --modules-dir DIR: kept for the session */
};

enum { OC_CRASH_MAX_TASKS = 64 };

/*
 * A task argument: a task_struct address (crash's context table knew it,
 * or it was given in hex), else a pid looked up in the model's own task
 * list.  crash 8.0.2 cannot read the pid hash of 6.1 kernels and knows
 * only the active tasks, so the model's list is the one to trust.
 */
struct oc_crash_task_ref {
	uint64_t addr;		/* 0: by pid */
	int32_t pid;
};

struct oc_crash_bt_args {
	bool all_cpus;		/* -a */
	bool all_tasks;		/* -t */
	bool regs;		/* -r: registers of every pt_regs frame */
	bool scan;		/* -s: "?" entries */
	bool json;		/* -j, --json */
	int cpu;		/* -c CPU, or -1 */
	struct oc_crash_lines_args lines;
	/* pid or task arguments; none: the current context */
	struct oc_crash_task_ref tasks[OC_CRASH_MAX_TASKS];
	unsigned int nr_tasks;
};

void oc_crash_bt_args_init(struct oc_crash_bt_args *a);

/*
 * The model, opened at the first command and kept for the session (a
 * failed open is tried again at the next command).
 */
struct oc_error *oc_crash_model(const struct oc_crash_host *h,
				struct oc_kernel **ret);
/* Closes the lines too (which writes their cache). */
void oc_crash_model_close(void);

/*
 * The session's source lines, NULL with --no-lines or when they cannot
 * be had (no vmlinux in the model).  Opening reads only the per-build-id
 * cache (the one `orccrash` uses, src/lines.c): the DWARF is opened by
 * the first frame that needs it, never at `extend` time.  A command
 * interrupted inside a lookup (crash's ^C longjmps to its prompt) leaves
 * the handle behind: the next command opens a fresh one.
 */
struct oc_lines *oc_crash_lines(const struct oc_crash_host *h,
				const struct oc_crash_lines_args *a);
/* After a command that used oc_crash_lines(): says once why the lines
 * were unavailable. */
void oc_crash_lines_done(const struct oc_crash_host *h);

/* orcbt */
struct oc_error *oc_crash_bt(const struct oc_crash_host *h,
			     const struct oc_crash_bt_args *a, FILE *out);
/* orcstack: @addr, or without @have_addr the current task's sp */
struct oc_error *oc_crash_stack(const struct oc_crash_host *h, bool have_addr,
				uint64_t addr, FILE *out);
/* orcstack -c CPU: every stack of @cpu (its current task's, IRQ, entry,
 * exception stacks) with its bounds */
struct oc_error *oc_crash_stack_map(const struct oc_crash_host *h, int cpu,
				    FILE *out);
/* orcbrowse: the browser on the terminal; the terminal is restored. */
struct oc_crash_browse_args {
	struct oc_crash_lines_args lines;
	const char *source_dir;		/* --source DIR */
};
struct oc_error *oc_crash_browse(const struct oc_crash_host *h,
				 const struct oc_crash_browse_args *a);

#endif /* OC_CRASH_CMDS_H */
