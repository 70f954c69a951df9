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
#include "log.h"
#include "select.h"
#include "waits.h"

struct oc_report_options {
	/* what to show (src/select.h) */
	struct oc_select_options sel;
	bool json;
	bool scan;		/* "?" entries */
	bool group;		/* identical stacks once, with a count */
	bool log;		/* the whole kernel log */
	bool regs;		/* registers of every pt_regs frame (default on) */
	bool progress;		/* progress on stderr */
	bool no_header;		/* text: no header (its WARNINGs go to stderr) */
	unsigned int log_tail;	/* lines of log in the header */
	const char *vmlinux;	/* for the header */
	/* file:line and inlined frames (src/lines.h); NULL: none */
	struct oc_lines *lines;
	/* each frame's parameters and locals (src/framevars.h) */
	bool locals;
	/* --blocked-states: the states whose tasks get BLOCKED and WAITS
	 * ON (JSON "blocked"): "D" (the default) or "DS" */
	const char *blocked_states;
	/* --folded: the leading fields, 's' (state) and 'c' (comm) in
	 * order; NULL: not --folded, "" for none */
	const char *folded_fields;
};

#ifndef OC_VERSION
#define OC_VERSION "0.1"
#endif

/* Exit codes, documented in docs/orccrash.1. */
enum {
	OC_EXIT_OK = 0,
	OC_EXIT_ERROR = 1,	/* the dump or vmlinux could not be read */
	OC_EXIT_USAGE = 2,
	OC_EXIT_UNRELIABLE = 3,	/* report complete; some traces unreliable */
};

void oc_report_options_init(struct oc_report_options *opts);

/*
 * The reports.  Each returns NULL when it wrote the whole report, and
 * sets *@reliable: false when some trace is unreliable or the dump's
 * picture is partial (exit 3); or the error that stopped it (a
 * selection no task matches, out of memory, an unwritable file), which
 * only the front ends print (src/main.c, src/crash/: exit 1).
 */
struct oc_error *oc_report_text(const struct oc_kernel *k,
				const struct oc_report_options *opts,
				FILE *out, bool *reliable);
struct oc_error *oc_report_json(const struct oc_kernel *k,
				const struct oc_report_options *opts,
				FILE *out, bool *reliable);
/* --folded: the selected tasks' stacks for flame graph tools
 * (src/report_folded.c); its WARNINGs on stderr. */
struct oc_error *oc_report_folded(const struct oc_kernel *k,
				  const struct oc_report_options *opts,
				  FILE *out, bool *reliable);
/* The selected tasks' folded stacks without the counts, one a task,
 * sorted (equal stacks next to each other); *@reliable as
 * oc_report_folded()'s.  Free them with oc_report_folded_free(). */
struct oc_error *oc_report_folded_lines(const struct oc_kernel *k,
					const struct oc_report_options *opts,
					char ***lines, size_t *nr,
					bool *reliable);
void oc_report_folded_free(char **lines, size_t nr);
/* --html FILE: one self-contained page (src/report_html.c,
 * docs/html.md): the crash summary, the panic CPU's trace, the wait
 * chains and their graph, an icicle of every task's stack, the log's
 * tail. */
struct oc_error *oc_report_html(const struct oc_kernel *k,
				const struct oc_report_options *opts,
				const char *path, bool *reliable);
struct oc_crash;
/* The report's header (crash summary, dump facts, WARNINGs, the log's
 * last opts->log_tail records); @log and @waits may be NULL, and @crash
 * (src/triage.h: oc_triage() computes it when NULL). */
void oc_report_print_header(const struct oc_kernel *k,
			    const struct oc_report_options *opts,
			    const struct oc_log *log,
			    const struct oc_waits *waits,
			    const struct oc_crash *crash, FILE *out);
/* A task's "PID: ... COMM: ... TASK: ..." line, as the report and the
 * crash extension print it. */
void oc_report_print_task_line(const struct oc_task *t, FILE *out);
/* A CPU's "CPU N (panic): PID: ..." heading, as the report and the
 * crash extension print it; false, after saying so, when the dump saved
 * no registers for it (nothing to unwind). */
bool oc_report_print_cpu_heading(const struct oc_kernel *k, unsigned int c,
				 FILE *out);
struct oc_sched_clock;
/* A D task's " BLOCKED: N s off CPU, since [ts]" line (src/triage.h's
 * clock, oc_triage_sched_clock()), and an S task's when @waits (may be
 * NULL) was computed for S too (--blocked-states); nothing for another. */
void oc_report_print_blocked(const struct oc_kernel *k,
			     const struct oc_sched_clock *clk,
			     const struct oc_waits *waits,
			     const struct oc_task *t, FILE *out);
/*
 * What each task's part of the tasks report is made from: the text's and
 * the JSON's renderers of src/tasktraces.h (struct oc_task_render), which
 * run in several threads at once and read all of it, changing none.
 */
struct oc_report_tasks_ctx {
	const struct oc_kernel *k;
	const struct oc_report_options *opts;
	const struct oc_selection *sel;
	const struct oc_sched_clock *clk;
	const struct oc_waits *waits;
};
/* A D (S) task's " WAITS ON: mutex ... held by pid N (comm)" line, when
 * @waits (may be NULL) knows what it waits on. */
void oc_report_print_wait(const struct oc_waits *waits,
			  const struct oc_task *t, FILE *out);
struct json_object;
/* The wait chains as JSON (docs/json.md "chains"): the first @max, an
 * array of {pids, deadlock, text}; @waits may be NULL (an empty array). */
struct json_object *oc_report_json_chains(const struct oc_waits *waits,
					  size_t max);
/* --triage: one dump's JSON Lines object, or the line of a dump that
 * could not be opened (src/report_json.c). */
struct json_object *oc_report_triage_json(const struct oc_kernel *k,
					  const char *path);
struct json_object *oc_report_triage_error_json(const char *path,
						const char *message);
/* --triage DUMP...: the lines in argument order, the dumps read in
 * parallel (src/report_triage.c); *@worst the worst exit code of them
 * (a dump that cannot be read is a line of its own, exit 1); an error
 * when a dump got no line at all (the first such). */
struct oc_error *oc_report_triage(char *const *paths, size_t n,
				  const struct oc_kernel_options *ko,
				  FILE *out, int *worst);
/* --dot: the wait-for graph in Graphviz DOT (src/report_dot.c); its
 * WARNINGs on stderr. */
struct oc_error *oc_report_dot(const struct oc_kernel *k,
			       const struct oc_report_options *opts,
			       FILE *out, bool *reliable);
/* The graph of @waits alone, titled @title (for tests). */
void oc_report_dot_graph(const struct oc_waits *waits, const char *title,
			 FILE *out);
/* The header's CHAIN: / DEADLOCK: lines (the first @max chains). */
void oc_report_print_chains(const struct oc_waits *waits, size_t max,
			    FILE *out);
/* The dump's WARNINGs, one a line ("orccrash: WARNING: " on stderr). */
void oc_report_print_warnings(const struct oc_kernel *k, FILE *out);
/* --log alone: the whole kernel log, nothing else (an error if it
 * cannot be read). */
struct oc_error *oc_report_log(const struct oc_kernel *k, FILE *out,
			       bool *reliable);

/* What both reports start from: the selection, the log, the dump's state. */
struct oc_report_start {
	struct oc_selection sel;
	struct oc_log log;
	bool have_log;
	struct oc_error *log_err;	/* why not have_log */
	/* false when tasks or memory are missing: a partial report (exit 3) */
	bool complete;
	/* what the D tasks wait on and the wait chains (src/waits.h);
	 * have_waits false only on out of memory */
	struct oc_waits waits;
	bool have_waits;
};

/*
 * Chooses what to show (src/select.h) and reads the log; returns a
 * selection error (a --pid no task has), or NULL: oc_report_finish() it.
 */
struct oc_error *oc_report_begin(const struct oc_kernel *k,
				 const struct oc_report_options *opts,
				 struct oc_report_start *ret);
void oc_report_finish(struct oc_report_start *start);
/*
 * The report's traces for @sel: the CPUs part, then, when
 * sel->show_tasks, the tasks part and its summary (the `bt` command
 * prints these alone).  *@reliable is cleared for an unreliable trace;
 * *@no_part_yet says no part came before (no blank line first).
 * Returns NULL, or out of memory.
 */
struct oc_waits;
struct oc_error *oc_report_traces(const struct oc_kernel *k,
				  const struct oc_report_options *opts,
				  const struct oc_selection *sel,
				  const struct oc_waits *waits, bool *reliable,
				  bool *no_part_yet, FILE *out);
struct json_object;
/* A string from the dump as JSON, through the one sanitiser
 * (formats/strutil.h OC_ESC_JSON); NULL for NULL. */
struct json_object *oc_json_str(const char *s);
/* An address as JSON: "0x..." (numbers lose precision above 2^53). */
struct json_object *oc_json_hex(uint64_t v);
/*
 * json-c calls that can fail, checked (src/report_json.c): @o as is, a
 * NULL noted; a member set, an element pushed (the value freed if it
 * cannot be).  Out of memory anywhere is noted per thread, and
 * oc_json_oom_take() says whether it was since the last call: a
 * document made then is not whole, and not to be printed.
 */
struct json_object *oc_json_chk(struct json_object *o);
void oc_json_set(struct json_object *o, const char *key, struct json_object *v);
int oc_json_push(struct json_object *a, struct json_object *v);
bool oc_json_oom_take(void);
/* A CPU's object and a task's object of the JSON report (docs/json.md:
 * "cpus" and "tasks"), its trace included; *@ok cleared when the trace
 * is unreliable. */
struct json_object *oc_report_cpu_json(const struct oc_kernel *k,
				       const struct oc_report_options *opts,
				       unsigned int cpu, bool *ok);
struct json_object *oc_report_task_json(const struct oc_kernel *k,
					const struct oc_report_options *opts,
					const struct oc_sched_clock *clk,
					const struct oc_waits *waits,
					const struct oc_task *t, bool *ok);
/* --group: the same frames (ips, "?" entries) and the same end. */
bool oc_report_same_trace(const struct oc_trace *a, const struct oc_trace *b);

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
