/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Many tasks' traces, in order, unwound ahead on the machine's other
 * cores: the reports (text, JSON, folded) take each task's trace in the
 * order they print them, while worker threads, each with its own reader
 * of the dump (oc_kernel_reader_open()), unwind the tasks after it.  The
 * output does not depend on the thread count: a trace is the same from
 * any reader of the same dump.
 *
 * Threads: oc_kernel_threads() (src/kernel.h) of the task count;
 * ORCCRASH_THREADS_DEBUG set: each use says on stderr how many workers
 * it got (tests/realdump/threads.sh).
 */
#ifndef OC_SRC_TASKTRACES_H
#define OC_SRC_TASKTRACES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "kernel.h"

struct oc_task_traces;

/*
 * What becomes of each trace, in whichever thread unwound it: @fn
 * writes the task's part of a report to @out (a memory stream; the
 * caller writes the texts in order) and takes @err, the unwind's error
 * (NULL if none); *ok false when the part is not reliable; false when
 * memory ran out.  It may run in
 * several threads at once: it reads the model, never k->mem (another
 * thread's reader), and takes the lines cache's lock
 * (oc_report_frame_lines()).  @serial: run it in the caller's thread
 * only (--locals: the DWARF variables read k->mem).
 */
struct oc_task_render {
	bool (*fn)(void *arg, size_t i, struct oc_trace *trace,
		   struct oc_error *err, FILE *out, bool *ok);
	void *arg;
	bool serial;
};

/* One task's result: its trace (frames freed by oc_trace_deinit()), and
 * with a render its text (malloc'd) and ok, without one its error. */
struct oc_task_result {
	struct oc_trace trace;
	struct oc_error *err;
	char *text;
	size_t len;
	bool ok;
};

/*
 * Start unwinding @tasks (kept by the caller until oc_task_traces_end()),
 * rendering each when @render is not NULL.  Only out of memory fails;
 * without worker threads (none wanted, or a reader or thread could not
 * be made) oc_task_traces_next() does the work in the caller's thread,
 * as before.
 */
struct oc_error *oc_task_traces_begin(const struct oc_kernel *k,
				      const struct oc_task *const *tasks,
				      size_t nr,
				      const struct oc_unwind_options *opts,
				      const struct oc_task_render *render,
				      struct oc_task_traces **ret);
/*
 * The next task's result, in @tasks' order; the caller's (trace, err,
 * text).  False after the last task.  A render's text is NULL when
 * memory ran out.
 */
bool oc_task_traces_next(struct oc_task_traces *tt,
			 struct oc_task_result *ret);
/* Stops the workers (results not taken are freed). */
void oc_task_traces_end(struct oc_task_traces *tt);

#endif /* OC_SRC_TASKTRACES_H */
