/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Batch reports over the kernel model: the text post-mortem and the JSON
 * document (docs/json.md).  Renderers only: they unwind through the model
 * and print, never read the dump themselves.
 */
#ifndef OC_REPORT_H
#define OC_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "kernel.h"

struct oc_report_options {
	bool all_tasks;		/* every task, not only the CPUs */
	bool active;		/* only the CPUs */
	bool json;
	bool scan;		/* "?" entries */
	bool group;		/* identical stacks once, with a count */
	bool log;		/* the whole kernel log */
	bool regs;		/* registers of every pt_regs frame (default on) */
	bool progress;		/* progress on stderr */
	int pid;		/* -1: any */
	int cpu;		/* -1: any */
	char state;		/* 0: any */
	unsigned int log_tail;	/* lines of log in the header */
	const char *vmlinux;	/* for the header */
	/* file:line and inlined frames (src/lines.h); NULL: none */
	struct oc_lines *lines;
	/* each frame's parameters and locals (src/framevars.h) */
	bool locals;
};

/* Exit codes, documented in docs/orccrash.1. */
enum {
	OC_EXIT_OK = 0,
	OC_EXIT_ERROR = 1,	/* the dump or vmlinux could not be read */
	OC_EXIT_USAGE = 2,
	OC_EXIT_UNRELIABLE = 3,	/* report complete; some traces unreliable */
};

void oc_report_options_init(struct oc_report_options *opts);

/* Writes the report; returns one of the exit codes above. */
int oc_report_text(const struct oc_kernel *k,
		   const struct oc_report_options *opts, FILE *out);
int oc_report_json(const struct oc_kernel *k,
		   const struct oc_report_options *opts, FILE *out);

/* "sym+0xoff/0xsize [mod]" or "0x..." into buf. */
void oc_report_format_addr(const struct oc_kernel *k, uint64_t addr,
			   char *buf, size_t size);
/* A frame's address the way the kernel's backtraces print it (%pB). */
void oc_report_format_frame(const struct oc_kernel *k, const struct oc_frame *f,
			    char *buf, size_t size);
struct oc_line_info;
/*
 * A frame's source lines: the inline chain, innermost first, the
 * containing function last (src/lines.h); 0 when unknown or no lines.
 */
size_t oc_report_frame_lines(const struct oc_kernel *k,
			     const struct oc_report_options *opts,
			     const struct oc_frame *f,
			     struct oc_line_info *chain, size_t max);
struct json_object;
struct oc_log;
/* The log records as the JSON documents have them: an array of
 * {ts_nsec, level, text} (docs/json.md). */
struct json_object *oc_report_log_json(const struct oc_log *log);
/* The kernel's __show_regs() / show_iret_regs() lines. */
void oc_report_print_regs(const struct oc_kernel *k, const struct oc_frame *f,
			  const char *indent, FILE *out);
/* One trace, kernel style (stack markers, regs blocks, "?" lines). */
void oc_report_print_trace(const struct oc_kernel *k,
			   const struct oc_report_options *opts,
			   const struct oc_trace *trace, const char *indent,
			   FILE *out);

#endif /* OC_REPORT_H */
