/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The browser's DWARF worker: one thread that makes every oc_lines_*()
 * call and every oc_framevars_get() while the browser runs, so that
 * opening the dump and drawing never wait for the DWARF.  The UI thread
 * queues jobs and collects the finished ones from its event loop; the
 * lines handle is used by no other thread until oc_ui_worker_stop(), but
 * for the UI thread's commands while it borrows the handle.
 *
 * A variables job also reads the dump (through the model's oc_mem, which
 * is not thread-safe, nor is crash's readmem() behind it in orccrash.so):
 * the model lock.  The UI thread holds it except while it waits for a
 * key (oc_ui_worker_model_release() / _take() around the wait); the
 * worker takes it for each variables job only.
 */
#ifndef OC_UI_WORKER_H
#define OC_UI_WORKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "framevars.h"
#include "kernel.h"
#include "lines.h"

enum { OC_UI_CHAIN_MAX = 16 };

enum oc_ui_job_kind {
	OC_UI_JOB_LINES,	/* a frame's source lines */
	OC_UI_JOB_VARS,		/* a frame's parameters and locals */
};

/* One lookup. */
struct oc_ui_job {
	enum oc_ui_job_kind kind;
	/* which frame, for the caller: index of the thread and frame */
	size_t thread, frame;
	/* OC_UI_JOB_VARS in: oc_framevars_get()'s arguments (a copy of
	 * the thread's trace, not its owner: its frames stay put while a
	 * job is in flight, the row holding it may move when the task
	 * list comes in); out: the list */
	const struct oc_kernel *k;
	struct oc_trace trace;
	const struct oc_task *task;
	struct oc_framevars *vars;
	/* OC_UI_JOB_LINES: */
	/* in: a vmlinux frame by its link-time address (oc_lines_addr()),
	 * or a module frame by module, symbol and offset (report.c's
	 * oc_report_frame_lines() does the same) */
	const char *module, *symbol;	/* module NULL: a vmlinux frame */
	uint64_t addr;			/* vmlinux: link-time address */
	uint64_t offset;		/* module: ip - symbol */
	bool exact;
	/* out; strings owned by the oc_lines handle */
	struct oc_line_info chain[OC_UI_CHAIN_MAX];
	size_t nr;
	const char *unavailable;	/* why there are no lines, if known */
	struct oc_error *err;		/* out of memory */
	struct oc_ui_job *next;
};

struct oc_ui_worker;

/*
 * Starts the thread (with every signal blocked: they stay the UI
 * thread's, SIGWINCH and crash's SIGINT included).  @test_delay_ms, for
 * the screen tests, holds the first lookup back that long.
 */
struct oc_error *oc_ui_worker_start(struct oc_lines *lines,
				    unsigned int test_delay_ms,
				    struct oc_ui_worker **ret);
/* Queue @job (allocated by the caller with malloc) at the front (done
 * next) or the back. */
void oc_ui_worker_push(struct oc_ui_worker *w, struct oc_ui_job *job,
		       bool front);
/* Move the queued jobs of @thread to the front, in their order. */
void oc_ui_worker_promote(struct oc_ui_worker *w, size_t thread);
/* The finished jobs (the caller frees them), oldest first; NULL if none. */
struct oc_ui_job *oc_ui_worker_done(struct oc_ui_worker *w);
/* Jobs queued or running, plus one if finished jobs wait to be collected:
 * while it is non-zero the UI thread must poll. */
size_t oc_ui_worker_busy(struct oc_ui_worker *w);
/* Jobs queued and not yet started. */
size_t oc_ui_worker_queued(struct oc_ui_worker *w);
/* The model lock (see above), taken by oc_ui_worker_start()'s caller. */
void oc_ui_worker_model_release(struct oc_ui_worker *w);
void oc_ui_worker_model_take(struct oc_ui_worker *w);
/* Is the worker waiting for the model? (the UI thread then lets go) */
bool oc_ui_worker_model_wanted(struct oc_ui_worker *w);
/*
 * The lines handle for the UI thread (a command's DWARF: p, dis -l),
 * after the job in progress; no job runs until
 * oc_ui_worker_return_lines().  Called with the model lock held (let go
 * of and taken again while it waits).  NULL-safe: NULL for no worker.
 */
struct oc_lines *oc_ui_worker_borrow_lines(struct oc_ui_worker *w);
void oc_ui_worker_return_lines(struct oc_ui_worker *w);
/* Frees a finished job (and its variables). */
void oc_ui_job_free(struct oc_ui_job *j);
/*
 * Drops the queue, waits for the lookup in progress (lookups are not
 * interrupted) and joins the thread; NULL-safe.  Called with the model
 * lock held (it is let go of, for the job in progress).
 */
void oc_ui_worker_stop(struct oc_ui_worker *w);

#endif /* OC_UI_WORKER_H */
