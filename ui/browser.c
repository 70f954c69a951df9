// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The browser: which view is up, where the cursors are, and the trace
 * cache.  Rows come from ui/rows.c, drawing from ui/draw.c, keys from
 * the table in ui/keys.c.
 *
 * Traces are unwound lazily: the selected thread's at once, the rest a
 * batch at a time while no key is waiting, so the first screen shows
 * before every task's "top frame" is known.
 *
 * Source lines never hold the screen up either: every DWARF call is made
 * by one worker thread (ui/worker.c), fed the selected thread's frames
 * first, then every other trace's as it is unwound; the loop collects
 * what it found and fills the rows in.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd.h"
#include "draw.h"
#include "keys.h"
#include "lines.h"
#include "log.h"
#include "rows.h"
#include "source.h"
#include "triage.h"
#include "waits.h"
#include "ui.h"
#include "worker.h"

enum pane { PANE_THREADS, PANE_FRAMES, PANE_REGS, PANE_NR };

enum {
	HEADER_ROWS = 2,
	FOOTER_ROWS = 2,	/* status line, keys */
	MEMORY_WORDS = 1024,
	BATCH_MS = 40,		/* unwinding per idle tick */
	WORKER_POLL_MS = 40,	/* how often to look for the worker's results */
	TASKS_POLL_MS = 10,	/* and for the task list read behind the screen */
};

/* What the frame-details pane (right) shows. */
enum detail { DETAIL_REGS, DETAIL_SOURCE };

struct cursor {
	size_t top, sel;
};

struct browser;

/*
 * A view, as tig's struct view_ops: the main view (threads, frames and
 * frame-details panes) or one full-screen list (stack memory, the kernel
 * log, the help).  The event loop asks the view that is up; nothing
 * switches on which one it is.
 */
struct view_ops {
	/* where its requests apply (enum oc_ui_context); 0: by the pane */
	unsigned int context;
	void (*draw)(struct browser *b);
	/* the focused lines, their cursor and the rows of a page */
	struct cursor *(*cursor)(struct browser *b,
				 const struct oc_ui_lines **lines, int *rows);
	/* q, Esc: close it, or leave a pane */
	void (*back)(struct browser *b);
	/* Enter; NULL where it does nothing */
	void (*enter)(struct browser *b);
	/* / and n; NULL where there is nothing to search */
	void (*search)(struct browser *b);
};

static const struct view_ops main_view, memory_view, log_view, help_view,
			      waits_view, command_view;

struct browser {
	struct oc_kernel *k;	/* not const: commands read the modules' BTF on first use */
	const struct oc_ui_options *opts;
	struct oc_ui_threads th;
	struct oc_ui_lines thread_lines, frame_lines, regs_lines;
	struct oc_ui_lines mem_lines, log_lines, help_lines, waits_lines, cmd_lines;
	struct cursor cur[PANE_NR], mem_cur, log_cur, help_cur, waits_cur, cmd_cur;
	/* the wait view's model, computed when first opened (no DWARF: the
	 * worker alone uses the lines; the wait lists need none) */
	bool waits_loaded;
	struct oc_waits waits;
	char cmd[128];		/* the command whose output cmd_lines holds */
	bool cmd_is_command;	/* not a frame's variables (Enter in its pane) */
	/* the views before it, as pointers were followed (Enter on a
	 * pointer row): their title, rows and cursor; q or Backspace goes
	 * back to them as they were */
	struct cmd_back {
		char cmd[128];
		bool is_command;
		struct cursor cur;
		struct oc_ui_lines lines;
	} cmd_back[16];
	size_t nr_cmd_back;
	const struct view_ops *view, *help_from, *cmd_from;
	enum pane pane;
	size_t shown;		/* thread in the frames pane (index in th.v) */
	size_t next_pending;	/* where the idle unwinding goes on */
	/* the task list is read behind the first screen: not taken in
	 * before this (now_ms(); the screen tests' hold-back) */
	long long tasks_hold_until;
	bool log_loaded;
	struct oc_log log;
	/* source lines: the worker is the only user of opts->lines */
	struct oc_ui_worker *worker;
	bool lines_said;	/* "lines unavailable: ..." said once */
	enum detail detail;
	bool files;		/* file:line in the frames pane */
	int frames_w;		/* the width the frame rows were made for */
	struct oc_ui_source src;	/* the last source file read */
	char src_heading[OC_UI_LINE_MAX];	/* the source view's fixed row */
	char src_said[PATH_MAX];	/* "not found" said for this file */
	char panic_message[256];	/* the model's, else the log's */
	/* the crash summary's title, for a crash that is not a plain
	 * panic() (docs/triage.md), and its signature; "" if none */
	char crash_title[320];
	char crash_signature[17];
	char status[256];
	bool status_error;
	char query[64];
	bool quit;
	/* layout */
	int h, w;
	struct oc_draw_pane panes[PANE_NR], full;
};

static void set_status(struct browser *b, bool error, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void open_command(struct browser *b, const char *line);
static void follow_command(struct browser *b, const char *line);

static void set_status(struct browser *b, bool error, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(b->status, sizeof(b->status), fmt, ap);
	va_end(ap);
	b->status_error = error;
}

/* An error inside (out of memory building rows) goes to the status line. */
static void report(struct browser *b, struct oc_error *err)
{
	char msg[200];

	if (!err)
		return;
	oc_error_string(err, msg, sizeof(msg));
	set_status(b, true, "%s", msg);
	oc_error_destroy(err);
}

/* ---- traces ---- */

static void queue_lines(struct browser *b, struct oc_ui_thread *t, bool front);

static void unwind_thread(struct browser *b, struct oc_ui_thread *t)
{
	const struct oc_unwind_options opts = { .scan = true };
	struct oc_trace trace;
	struct oc_error *err;

	if (t->trace_state != OC_UI_TRACE_PENDING)
		return;
	oc_trace_init(&trace);
	if (t->cpu >= 0)
		err = oc_kernel_unwind_cpu(b->k, (unsigned)t->cpu, &opts,
					   &trace);
	else
		err = oc_kernel_unwind_task(b->k, t->task, &opts, &trace);
	if (err) {
		char msg[192];

		oc_error_take(err, msg, sizeof(msg));
		oc_trace_deinit(&trace);
		oc_ui_thread_set_error(t, msg);
	} else {
		oc_ui_thread_set_trace(b->k, t, &trace);
		/* a bounded number of whole traces (docs/hardening.md) */
		oc_ui_threads_keep(&b->th, (size_t)(t - b->th.v), b->shown);
		/* its lines, after the ones on screen */
		queue_lines(b, t, false);
	}
	if (!t->dropped)
		b->th.nr_ready++;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static bool pending(const struct browser *b)
{
	return b->th.nr_ready < b->th.nr;
}

/* ---- source lines: jobs for the worker ---- */

/*
 * Ask the worker for the lines of @t's frames not asked yet: at the
 * front of its queue for the thread on screen, else at the back.  The
 * model is read here, in the UI thread (symbols, the KASLR offset); the
 * worker only sees addresses and names.
 */
static void queue_lines(struct browser *b, struct oc_ui_thread *t, bool front)
{
	size_t ti = (size_t)(t - b->th.v);

	if (!b->worker || t->trace_state != OC_UI_TRACE_READY || !t->info)
		return;
	for (size_t n = 0; n < t->trace.nr; n++) {
		/* pushed at the front in reverse: frame #0 comes first */
		size_t i = front ? t->trace.nr - 1 - n : n;
		const struct oc_frame *f = &t->trace.frames[i];
		/* as the batch report: an exact ip shows its own line, a
		 * return address its call's (src/report.c) */
		bool exact = f->exact;
		struct oc_ui_frame_info *fi = &t->info[i];
		struct oc_sym_result s;
		struct oc_ui_job *j;

		if (fi->queued || fi->ready)
			continue;
		fi->queued = true;
		if (!f->ip || !oc_kernel_symbolize_frame(b->k, f, &s)) {
			fi->ready = true;	/* nothing to look up */
			continue;
		}
		j = calloc(1, sizeof(*j));
		if (!j) {
			fi->queued = false;
			report(b, &oc_enomem);
			return;
		}
		j->thread = ti;
		j->frame = i;
		j->exact = exact;
		if (s.module) {
			j->module = s.module;
			j->symbol = s.name;
			j->offset = s.offset;
		} else {
			j->addr = oc_lines_addr(f->ip, exact, b->k->kaslr_offset);
		}
		oc_ui_worker_push(b->worker, j, front);
	}
	if (front)
		oc_ui_worker_promote(b->worker, ti);
}

/* Ask the worker for the variables of @t's frame @f (the selected one). */
static void queue_vars(struct browser *b, struct oc_ui_thread *t, size_t f)
{
	struct oc_ui_frame_info *fi = t->info ? &t->info[f] : NULL;
	struct oc_ui_job *j;

	if (!b->worker || !fi || fi->vars_queued || f >= t->trace.nr)
		return;
	j = calloc(1, sizeof(*j));
	if (!j) {
		report(b, &oc_enomem);
		return;
	}
	fi->vars_queued = true;
	j->kind = OC_UI_JOB_VARS;
	j->thread = (size_t)(t - b->th.v);
	j->frame = f;
	j->k = b->k;
	j->trace = t->trace;
	/* a CPU's trace starts from its crash registers, not thread.sp */
	j->task = t->cpu >= 0 ? NULL : t->task;
	oc_ui_worker_push(b->worker, j, true);
}

static void show_details(struct browser *b);
static void rebuild_frames(struct browser *b);
static long selected_frame(struct browser *b);

/* Take in what the worker found; redraw the panes it changes. */
static void collect_lines(struct browser *b)
{
	struct oc_ui_job *j = b->worker ? oc_ui_worker_done(b->worker) : NULL;
	bool frames = false, details = false;
	long sel = selected_frame(b);

	while (j) {
		struct oc_ui_job *next = j->next;
		struct oc_ui_thread *t = &b->th.v[j->thread];

		if (j->err) {
			report(b, j->err);
			j->err = NULL;
		}
		if (j->kind == OC_UI_JOB_VARS) {
			if (t->info && j->frame < t->trace.nr) {
				struct oc_ui_frame_info *fi = &t->info[j->frame];

				oc_framevars_free(fi->vars);
				fi->vars = j->vars;
				fi->vars_ready = true;
				j->vars = NULL;
			}
			details |= j->thread == b->shown && (long)j->frame == sel;
			oc_ui_job_free(j);
			j = next;
			continue;
		}
		report(b, oc_ui_thread_set_lines(t, j->frame, j->chain, j->nr,
						 j->unavailable));
		/* no debuginfo: once, on the status line */
		if (!j->nr && j->unavailable && !j->module && !b->lines_said) {
			b->lines_said = true;
			set_status(b, true, "lines unavailable: %s", j->unavailable);
		}
		if (j->thread == b->shown) {
			frames = true;
			details |= (long)j->frame == sel;
		}
		oc_ui_job_free(j);
		j = next;
	}
	if (frames)
		rebuild_frames(b);
	if (details)
		show_details(b);
}

/*
 * One idle tick: unwind threads for up to BATCH_MS, the rows on screen
 * in the threads pane first, then the rest in model order.
 */
static void idle_work(struct browser *b)
{
	long long until = now_ms() + BATCH_MS;
	const struct cursor *c = &b->cur[PANE_THREADS];
	size_t rows = (size_t)oc_draw_pane_rows(&b->panes[PANE_THREADS]);

	/* a dropped trace's row still has its text: no need to unwind */
	for (size_t i = c->top; i < c->top + rows &&
	     i < b->thread_lines.nr && now_ms() < until; i++)
		if (!b->th.v[b->thread_lines.v[i].ref].dropped)
			unwind_thread(b, &b->th.v[b->thread_lines.v[i].ref]);
	while (b->next_pending < b->th.nr && now_ms() < until)
		unwind_thread(b, &b->th.v[b->next_pending++]);
	report(b, oc_ui_threads_lines(&b->th, &b->thread_lines));
}

/* ---- cursors ---- */

static struct oc_ui_lines *pane_lines(struct browser *b, enum pane p)
{
	return p == PANE_THREADS ? &b->thread_lines :
	       p == PANE_FRAMES ? &b->frame_lines : &b->regs_lines;
}

static void clamp(struct cursor *c, const struct oc_ui_lines *lines, int rows)
{
	if (rows < 1)
		rows = 1;
	if (!lines->nr) {
		c->sel = c->top = 0;
		return;
	}
	if (c->sel >= lines->nr)
		c->sel = lines->nr - 1;
	if (c->top > c->sel)
		c->top = c->sel;
	if (c->sel >= c->top + (size_t)rows)
		c->top = c->sel - (size_t)rows + 1;
	if (c->top + (size_t)rows > lines->nr)
		c->top = lines->nr > (size_t)rows ? lines->nr - (size_t)rows : 0;
}

static struct oc_ui_thread *selected_thread(struct browser *b)
{
	const struct oc_ui_lines *l = &b->thread_lines;
	size_t sel = b->cur[PANE_THREADS].sel;

	if (sel >= l->nr)
		return NULL;
	return &b->th.v[l->v[sel].ref];
}

static long selected_frame(struct browser *b)
{
	const struct oc_ui_lines *l = &b->frame_lines;
	size_t sel = b->cur[PANE_FRAMES].sel;

	if (sel >= l->nr || l->v[sel].ref < 0)
		return -1;
	return (long)l->v[sel].ref;
}

static int selected_level(struct browser *b)
{
	const struct oc_ui_lines *l = &b->frame_lines;
	size_t sel = b->cur[PANE_FRAMES].sel;

	return sel < l->nr ? l->v[sel].level : -1;
}

/* The source file of DWARF name @file under --source DIR, read once. */
static const struct oc_ui_source *load_source(struct browser *b,
					      const char *file, char *why,
					      size_t size)
{
	const char *dir = b->opts->source_dir;
	char path[PATH_MAX];
	struct oc_error *err;

	if (!dir) {
		snprintf(why, size, "no source tree (start with --source DIR); "
			 "v: registers");
		return NULL;
	}
	if (!file || !oc_ui_source_find(dir, file, path, sizeof(path))) {
		snprintf(why, size, "%s not found under %s",
			 file ? oc_lines_short_file(file) : "(no file name)",
			 dir);
		if (file && strcmp(b->src_said, file)) {
			snprintf(b->src_said, sizeof(b->src_said), "%s", file);
			set_status(b, true, "source: %s", why);
		}
		return NULL;
	}
	if (b->src.path && !strcmp(b->src.path, path))
		return &b->src;
	oc_ui_source_deinit(&b->src);
	err = oc_ui_source_read(path, &b->src);
	if (err) {
		oc_error_take(err, why, size);
		return NULL;
	}
	return &b->src;
}

/* The source view: the selected level's line amid its file, centred. */
static void show_source(struct browser *b, const struct oc_ui_thread *t,
			size_t f, int level)
{
	const struct oc_ui_frame_info *fi = t->info ? &t->info[f] : NULL;
	/* the pane less its title and the heading (the view's title row) */
	int rows = b->panes[PANE_REGS].h - 2;
	const struct oc_ui_source *src;
	const struct oc_line_info *e;
	char why[PATH_MAX + 64];
	size_t cur;

	if (!b->opts->lines || !fi) {
		report(b, oc_ui_lines_add(&b->regs_lines, OC_STYLE_DIM, -1,
					  "#%zu: no source lines (--no-lines, "
					  "or no vmlinux)", f));
		return;
	}
	if (!fi->ready) {
		report(b, oc_ui_lines_add(&b->regs_lines, OC_STYLE_DIM, -1,
					  "#%zu lines: loading", f));
		return;
	}
	if (!fi->nr) {
		report(b, oc_ui_lines_add(&b->regs_lines, OC_STYLE_DIM, -1,
					  "#%zu source: %s", f, fi->why ? fi->why :
					  "no line information"));
		return;
	}
	e = &fi->chain[level >= 0 && (size_t)level < fi->nr ? (size_t)level :
		       fi->nr - 1];
	src = load_source(b, e->file, why, sizeof(why));
	report(b, oc_ui_source_view(f, e, src, why, (size_t)(rows > 0 ? rows : 1),
				    &b->regs_lines, &cur));
	/* its title row stays on screen, as the pane's heading */
	if (b->regs_lines.nr && b->regs_lines.v[0].style == OC_STYLE_TITLE) {
		snprintf(b->src_heading, sizeof(b->src_heading), "%s",
			 b->regs_lines.v[0].text);
		memmove(&b->regs_lines.v[0], &b->regs_lines.v[1],
			--b->regs_lines.nr * sizeof(b->regs_lines.v[0]));
		cur = cur ? cur - 1 : 0;
	}
	/* the current line in the middle of the pane */
	if (rows < 1)
		rows = 1;
	cur = cur > (size_t)rows / 2 ? cur - (size_t)rows / 2 : 0;
	b->cur[PANE_REGS] = (struct cursor){ cur, cur };
}

/* The frame-details pane for the selected row: registers and source
 * lines, or the source view. */
static void show_details(struct browser *b)
{
	struct oc_ui_thread *t = selected_thread(b);
	long f = selected_frame(b);
	int level = selected_level(b);
	const struct oc_ui_frame_info *fi;
	struct oc_ui_lines src;

	b->cur[PANE_REGS] = (struct cursor){ 0, 0 };
	oc_ui_lines_clear(&b->regs_lines);
	b->src_heading[0] = '\0';
	if (!t || f < 0 || t->trace_state != OC_UI_TRACE_READY ||
	    (size_t)f >= t->trace.nr)
		return;
	if (b->detail == DETAIL_SOURCE) {
		show_source(b, t, (size_t)f, level);
		return;
	}
	report(b, oc_ui_regs_lines(b->k, t, (size_t)f, &b->regs_lines));
	if (!b->opts->lines || b->regs_lines.nr < 1)
		return;
	/* under the title: where the frame is, from the selected level out */
	fi = t->info ? &t->info[f] : NULL;
	oc_ui_lines_init(&src);
	if (!fi || !fi->ready) {
		report(b, oc_ui_lines_add(&src, OC_STYLE_DIM, -1, "lines: loading"));
	} else {
		size_t from = level >= 0 && (size_t)level < fi->nr ? (size_t)level : 0;

		/* no chain (NULL) when there are no lines: no NULL + 0 */
		report(b, oc_ui_source_lines(fi->nr ? fi->chain + from : NULL,
					     fi->nr - from, fi->why, &src));
	}
	/* the selected level's parameters and locals, from the worker */
	if (fi && !t->trace.frames[f].scanned) {
		if (!fi->vars_ready) {
			queue_vars(b, t, (size_t)f);
			report(b, oc_ui_lines_add(&src, OC_STYLE_DIM, -1,
						  "variables: loading"));
		} else {
			report(b, oc_ui_vars_lines(fi->vars, level, &src));
		}
	}
	report(b, oc_ui_lines_insert(&b->regs_lines, 1, &src));
	oc_ui_lines_deinit(&src);
}

/* The frame rows again (lines arrived, the pane's width changed), with
 * the cursor on the same frame and level. */
static void rebuild_frames(struct browser *b)
{
	struct oc_ui_thread *t = &b->th.v[b->shown];
	struct oc_ui_frame_opts fo = {
		.files = b->files,
		.width = b->panes[PANE_FRAMES].w,
	};
	struct cursor *c = &b->cur[PANE_FRAMES];
	long f = selected_frame(b);
	int level = selected_level(b);
	size_t above = c->sel - (c->top <= c->sel ? c->top : c->sel);
	const struct oc_ui_lines *l = &b->frame_lines;

	b->frames_w = fo.width;
	report(b, oc_ui_frame_lines(b->k, t, &fo, &b->frame_lines));
	for (size_t i = 0; f >= 0 && i < l->nr; i++)
		if (l->v[i].ref == f && (l->v[i].level == level ||
					 l->v[i].level == -1)) {
			c->sel = i;
			if (l->v[i].level == level)
				break;
		}
	/* the selected row stays where it was on the screen */
	c->top = c->sel > above ? c->sel - above : 0;
}

/* Put frame @frame (or the first frame line) under the cursor. */
static void select_frame(struct browser *b, long frame)
{
	const struct oc_ui_lines *l = &b->frame_lines;
	size_t sel = oc_ui_lines_selectable(l, 0, 1);

	for (size_t i = 0; frame >= 0 && i < l->nr; i++)
		if (l->v[i].ref == frame && l->v[i].level == -1)
			sel = i;
	b->cur[PANE_FRAMES] = (struct cursor){ 0, sel };
	show_details(b);
}

/* The threads cursor moved: unwind the thread if needed, fill frames. */
static void show_thread(struct browser *b)
{
	struct oc_ui_thread *t = selected_thread(b);

	oc_ui_lines_clear(&b->frame_lines);
	if (!t) {
		oc_ui_lines_clear(&b->regs_lines);
		return;
	}
	b->shown = (size_t)(t - b->th.v);
	if (t->trace_state == OC_UI_TRACE_PENDING) {
		unwind_thread(b, t);
		report(b, oc_ui_threads_lines(&b->th, &b->thread_lines));
	}
	/* this thread's lines before anything else */
	queue_lines(b, t, true);
	b->cur[PANE_FRAMES] = (struct cursor){ 0, 0 };
	rebuild_frames(b);
	select_frame(b, -1);
}

/* Re-sort or re-filter, keeping the same thread under the cursor. */
/*
 * The model's task list, read behind the first screen, once it is in
 * (@wait: now, for what reads every task): the task rows join the CPUs'.
 */
static void take_tasks(struct browser *b, bool wait)
{
	if (!b->th.tasks_pending || (!wait && now_ms() < b->tasks_hold_until))
		return;
	if (!oc_kernel_tasks_sync(b->k, wait))
		return;
	report(b, oc_ui_threads_add_tasks(b->k, &b->th));
	report(b, oc_ui_threads_lines(&b->th, &b->thread_lines));
	if (!b->status[0] && b->k->nr_warnings)
		set_status(b, true, "warning: %s", b->k->warnings[0]);
}

static void refresh_threads(struct browser *b)
{
	struct oc_ui_thread *t = selected_thread(b);
	long long want = t ? (long long)(t - b->th.v) : -1;

	report(b, oc_ui_threads_update(&b->th));
	report(b, oc_ui_threads_lines(&b->th, &b->thread_lines));
	b->cur[PANE_THREADS].sel = 0;
	for (size_t i = 0; i < b->thread_lines.nr; i++)
		if (b->thread_lines.v[i].ref == want)
			b->cur[PANE_THREADS].sel = i;
	if (b->thread_lines.nr &&
	    b->thread_lines.v[b->cur[PANE_THREADS].sel].ref != want)
		show_thread(b);
}

/* ---- layout and drawing ---- */

static void layout(struct browser *b)
{
	int body, top_h, bottom_h, fw;

	oc_draw_size(&b->h, &b->w);
	body = b->h - HEADER_ROWS - FOOTER_ROWS;
	if (body < 3)
		body = 3;
	top_h = body * 2 / 5;
	if (top_h < 3)
		top_h = 3;
	bottom_h = body - top_h;
	fw = b->w / 2;
	if (fw < 40)
		fw = b->w < 40 ? b->w : 40;
	b->panes[PANE_THREADS] = (struct oc_draw_pane){
		.y = HEADER_ROWS, .x = 0, .h = top_h, .w = b->w,
	};
	b->panes[PANE_FRAMES] = (struct oc_draw_pane){
		.y = HEADER_ROWS + top_h, .x = 0, .h = bottom_h, .w = fw,
	};
	b->panes[PANE_REGS] = (struct oc_draw_pane){
		.y = HEADER_ROWS + top_h, .x = fw + 1, .h = bottom_h,
		.w = b->w - fw - 1,
	};
	b->full = (struct oc_draw_pane){
		.y = HEADER_ROWS, .x = 0, .h = body, .w = b->w,
	};
}

static unsigned int context(const struct browser *b)
{
	if (b->view->context)
		return b->view->context;
	return b->pane == PANE_THREADS ? OC_CTX_THREADS :
	       b->pane == PANE_FRAMES ? OC_CTX_FRAMES : OC_CTX_REGS;
}

/*
 * The crash summary for the header (src/triage.h), made once before the
 * DWARF worker may touch the model; without the DWARF (the worker's),
 * so a page fault's address comes from the log.  A plain panic() keeps
 * its message: its title would only prefix "kernel panic: ".
 */
static void load_log(struct browser *b);

static void crash_summary(struct browser *b)
{
	struct oc_crash *c = malloc(sizeof(*c));
	struct oc_error *err;

	if (!c)
		return;
	load_log(b);
	err = oc_triage(b->k, NULL, b->log.nr ? &b->log : NULL, c);
	if (err) {
		oc_error_destroy(err);
		free(c);
		return;
	}
	if (c->kind != OC_CRASH_PANIC && c->kind != OC_CRASH_SYSRQ &&
	    c->kind != OC_CRASH_UNKNOWN)
		snprintf(b->crash_title, sizeof(b->crash_title), "%s", c->title);
	snprintf(b->crash_signature, sizeof(b->crash_signature), "%s",
		 c->signature);
	free(c);
}

static void draw_header(struct browser *b)
{
	const struct oc_kernel *k = b->k;
	char line[768], panic[400] = "", tasks[40];
	const char *what = b->crash_title[0] ? b->crash_title : b->panic_message;

	if (what[0] && k->panic_cpu >= 0)
		snprintf(panic, sizeof(panic), "  panic on CPU %d: %s",
			 k->panic_cpu, what);
	else if (what[0])
		snprintf(panic, sizeof(panic), "  panic: %s", what);
	else if (k->panic_cpu >= 0)
		snprintf(panic, sizeof(panic), "  panic on CPU %d",
			 k->panic_cpu);
	snprintf(line, sizeof(line), "orccrash  Linux %s%s%s%s",
		 k->release[0] ? k->release : "?", panic,
		 b->crash_signature[0] ? "  signature " : "", b->crash_signature);
	oc_draw_text(0, 0, b->w, OC_STYLE_NORMAL, true, line);
	/* the counts first: a long path is what the width cuts off */
	if (b->th.tasks_pending)
		snprintf(tasks, sizeof(tasks), "reading the task list");
	else
		snprintf(tasks, sizeof(tasks), "%zu tasks", k->nr_tasks);
	snprintf(line, sizeof(line),
		 "%u CPUs, %s, traces %zu/%zu%s%s  dump %s  vmlinux %s",
		 k->nr_cpus, tasks, b->th.nr_ready, b->th.nr,
		 !b->opts->lines ? ", no lines" : b->lines_said ?
		 ", lines unavailable" : b->worker && oc_ui_worker_busy(b->worker) ?
		 ", lines: loading" : "",
		 k->nr_warnings ? "  (warnings: see the log)" : "",
		 b->opts->vmcore ? b->opts->vmcore : "?",
		 b->opts->vmlinux ? b->opts->vmlinux : "(none)");
	oc_draw_text(1, 0, b->w, OC_STYLE_DIM, false, line);
}

static void draw_footer(struct browser *b)
{
	const struct oc_ui_thread *t = &b->th.v[b->shown];
	char keys[512], why[200];

	if (b->status[0] || b->view != &main_view)
		oc_draw_text(b->h - 2, 0, b->w,
			     b->status_error ? OC_STYLE_ERROR : OC_STYLE_NORMAL,
			     false, b->status);
	else if (t->trace_state == OC_UI_TRACE_FAILED)
		oc_draw_text(b->h - 2, 0, b->w, OC_STYLE_ERROR, false, t->error);
	else if (t->trace_state == OC_UI_TRACE_READY && !t->trace.reliable) {
		/* the shown thread's problem, until something else is said */
		snprintf(keys, sizeof(keys), "unreliable trace: %s",
			 oc_trace_stop_string(&t->trace, why, sizeof(why)));
		oc_draw_text(b->h - 2, 0, b->w, OC_STYLE_ERROR, false, keys);
	}
	oc_ui_footer(context(b), keys, sizeof(keys));
	oc_draw_text(b->h - 1, 0, b->w, OC_STYLE_NORMAL, true, keys);
}

static void draw_main(struct browser *b)
{
	static char heading[128];
	char titles[PANE_NR][256], name[96];
	struct oc_ui_thread *t = &b->th.v[b->shown];
	long f = selected_frame(b);

	oc_ui_threads_heading(heading, sizeof(heading));
	snprintf(titles[PANE_THREADS], sizeof(titles[0]),
		 " Threads: %zu shown, sort %s, state %s%c",
		 b->thread_lines.nr, oc_ui_sort_name(b->th.sort),
		 b->th.state ? "" : "all", b->th.state);
	oc_ui_thread_name(t, name, sizeof(name));
	snprintf(titles[PANE_FRAMES], sizeof(titles[0]), " Frames: %s%s", name,
		 t->trace_state == OC_UI_TRACE_READY && !t->trace.reliable ?
		 " (unreliable)" : "");
	if (b->panes[PANE_FRAMES].w != b->frames_w)
		rebuild_frames(b);
	titles[PANE_REGS][0] = '\0';
	if (f >= 0 && selected_level(b) >= 0 && t->info &&
	    (size_t)selected_level(b) < t->info[f].nr) {
		const struct oc_line_info *e = &t->info[f].chain[selected_level(b)];

		snprintf(titles[PANE_REGS], sizeof(titles[0]), " %s: #%ld %s (inlined)",
			 b->detail == DETAIL_SOURCE ? "Source" : "Registers", f,
			 e->function ? e->function : "?");
	} else if (f >= 0) {
		snprintf(titles[PANE_REGS], sizeof(titles[0]), " %s: #%ld",
			 b->detail == DETAIL_SOURCE ? "Source" : "Registers", f);
	} else {
		snprintf(titles[PANE_REGS], sizeof(titles[0]), " %s",
			 b->detail == DETAIL_SOURCE ? "Source" : "Registers");
	}
	for (int p = 0; p < PANE_NR; p++) {
		struct oc_draw_pane *d = &b->panes[p];

		d->title = titles[p];
		d->heading = p == PANE_THREADS ? heading :
			     p == PANE_REGS && b->detail == DETAIL_SOURCE &&
			     b->src_heading[0] ? b->src_heading : NULL;
		d->lines = pane_lines(b, p);
		d->focused = b->pane == (enum pane)p;
		d->cursor = p != PANE_REGS;
		clamp(&b->cur[p], d->lines, oc_draw_pane_rows(d));
		d->top = b->cur[p].top;
		d->sel = b->cur[p].sel;
		oc_draw_pane(d);
	}
	oc_draw_vline(b->panes[PANE_REGS].y, b->panes[PANE_REGS].x - 1,
		      b->panes[PANE_REGS].h);
}

static void draw_full(struct browser *b, const char *title,
		      const struct oc_ui_lines *lines, struct cursor *c)
{
	b->full.title = title;
	b->full.heading = NULL;
	b->full.lines = lines;
	b->full.focused = true;
	b->full.cursor = true;
	clamp(c, lines, oc_draw_pane_rows(&b->full));
	b->full.top = c->top;
	b->full.sel = c->sel;
	oc_draw_pane(&b->full);
}

static void draw_memory(struct browser *b)
{
	char title[256], name[96];

	oc_ui_thread_name(&b->th.v[b->shown], name, sizeof(name));
	snprintf(title, sizeof(title), " Stack memory: %s, frame #%ld", name,
		 selected_frame(b));
	draw_full(b, title, &b->mem_lines, &b->mem_cur);
}

static void draw_log(struct browser *b)
{
	char title[256];

	snprintf(title, sizeof(title), " Kernel log: %zu lines",
		 b->log_lines.nr);
	draw_full(b, title, &b->log_lines, &b->log_cur);
}

static void draw_waits(struct browser *b)
{
	char title[256];

	snprintf(title, sizeof(title),
		 " Waits: %zu tasks in D, %zu chains (Enter: the task)",
		 b->waits.nr_blocked, b->waits.nr_chains);
	draw_full(b, title, &b->waits_lines, &b->waits_cur);
}

static void draw_command(struct browser *b)
{
	char title[200];

	snprintf(title, sizeof(title), " %s%s", b->cmd_is_command ? ":" : "", b->cmd);
	draw_full(b, title, &b->cmd_lines, &b->cmd_cur);
}

static void draw_help(struct browser *b)
{
	draw_full(b, " Help", &b->help_lines, &b->help_cur);
}

static void draw(struct browser *b)
{
	layout(b);
	oc_draw_erase();
	draw_header(b);
	b->view->draw(b);
	draw_footer(b);
	oc_draw_refresh();
}

/* ---- requests ---- */

static struct cursor *main_cursor(struct browser *b,
				  const struct oc_ui_lines **lines, int *rows)
{
	*lines = pane_lines(b, b->pane);
	*rows = oc_draw_pane_rows(&b->panes[b->pane]);
	return &b->cur[b->pane];
}

/* A full-screen view's lines @l and cursor @c. */
static struct cursor *full_cursor(struct browser *b,
				  const struct oc_ui_lines *l, struct cursor *c,
				  const struct oc_ui_lines **lines, int *rows)
{
	*lines = l;
	*rows = oc_draw_pane_rows(&b->full);
	return c;
}

static struct cursor *memory_cursor(struct browser *b,
				    const struct oc_ui_lines **lines, int *rows)
{
	return full_cursor(b, &b->mem_lines, &b->mem_cur, lines, rows);
}

static struct cursor *log_cursor(struct browser *b,
				 const struct oc_ui_lines **lines, int *rows)
{
	return full_cursor(b, &b->log_lines, &b->log_cur, lines, rows);
}

static struct cursor *waits_cursor(struct browser *b,
				   const struct oc_ui_lines **lines, int *rows)
{
	return full_cursor(b, &b->waits_lines, &b->waits_cur, lines, rows);
}

static struct cursor *command_cursor(struct browser *b,
				     const struct oc_ui_lines **lines, int *rows)
{
	return full_cursor(b, &b->cmd_lines, &b->cmd_cur, lines, rows);
}

static struct cursor *help_cursor(struct browser *b,
				  const struct oc_ui_lines **lines, int *rows)
{
	return full_cursor(b, &b->help_lines, &b->help_cur, lines, rows);
}

static void move_cursor(struct browser *b, enum oc_ui_request req)
{
	const struct oc_ui_lines *lines;
	int rows;
	struct cursor *c = b->view->cursor(b, &lines, &rows);
	size_t old = c->sel, page = rows > 1 ? (size_t)rows - 1 : 1;
	bool scroll = b->view == &main_view && b->pane == PANE_REGS;
	int dir = 1;

	if (!lines->nr)
		return;
	if (scroll)	/* the registers pane scrolls, it has no cursor */
		c->sel = c->top;
	switch (req) {
	case OC_REQ_UP:
		c->sel = c->sel ? c->sel - 1 : 0;
		dir = -1;
		break;
	case OC_REQ_DOWN:
		c->sel++;
		break;
	case OC_REQ_PAGE_UP:
		c->sel = c->sel > page ? c->sel - page : 0;
		c->top = c->top > page ? c->top - page : 0;
		dir = -1;
		break;
	case OC_REQ_PAGE_DOWN:
		c->sel += page;
		c->top += page;
		break;
	case OC_REQ_HOME:
		c->sel = c->top = 0;
		break;
	case OC_REQ_END:	/* the last page, trailing separators included */
		c->sel = lines->nr - 1;
		c->top = lines->nr > (size_t)rows ? lines->nr - (size_t)rows : 0;
		dir = -1;
		break;
	default:
		return;
	}
	if (c->sel >= lines->nr)
		c->sel = lines->nr - 1;
	if (scroll) {
		c->top = c->sel;
		if (c->top + (size_t)rows > lines->nr)
			c->top = lines->nr > (size_t)rows ? lines->nr - (size_t)rows : 0;
		c->sel = c->top;
		return;
	}
	if (b->view == &main_view && b->pane == PANE_FRAMES) {
		c->sel = oc_ui_lines_selectable(lines, c->sel, dir);
		if (lines->v[c->sel].ref < 0)
			c->sel = old;
	}
	clamp(c, lines, rows);
	if (b->view != &main_view || c->sel == old)
		return;
	if (b->pane == PANE_THREADS)
		show_thread(b);
	else if (b->pane == PANE_FRAMES)
		show_details(b);
}

static void open_memory(struct browser *b)
{
	struct oc_ui_thread *t = &b->th.v[b->shown];
	long f = selected_frame(b);
	struct oc_error *fault = NULL;

	if (f < 0) {
		set_status(b, true, "no frame selected");
		return;
	}
	report(b, oc_ui_memory_lines(b->k, t, (size_t)f, MEMORY_WORDS,
				     &b->mem_lines, &fault));
	if (fault) {
		char msg[200];

		oc_error_string(fault, msg, sizeof(msg));
		set_status(b, true, "stack memory: %s", msg);
		oc_error_destroy(fault);
	}
	b->mem_cur = (struct cursor){ 0, b->mem_lines.nr > 1 ? 1 : 0 };
	b->view = &memory_view;
}

static void load_log(struct browser *b)
{
	if (!b->log_loaded) {
		struct oc_error *err = oc_kernel_read_log(b->k, &b->log);

		b->log_loaded = true;
		oc_ui_lines_clear(&b->log_lines);
		for (unsigned int i = 0; i < b->k->nr_warnings; i++)
			report(b, oc_ui_lines_add(&b->log_lines, OC_STYLE_ERROR,
						  -1, "orccrash warning: %s",
						  b->k->warnings[i]));
		if (err) {
			char msg[200];

			oc_error_take(err, msg, sizeof(msg));
			memset(&b->log, 0, sizeof(b->log));
			report(b, oc_ui_lines_add(&b->log_lines, OC_STYLE_ERROR,
						  -1, "log not available: %s",
						  msg));
		} else {
			struct oc_ui_lines tmp;

			oc_ui_lines_init(&tmp);
			report(b, oc_ui_log_lines(&b->log, &tmp));
			for (size_t i = 0; i < tmp.nr; i++)
				report(b, oc_ui_lines_add(&b->log_lines,
							  tmp.v[i].style,
							  tmp.v[i].ref, "%s",
							  tmp.v[i].text));
			oc_ui_lines_deinit(&tmp);
		}
		/* the log ends at the panic: start at its end */
		b->log_cur.sel = b->log_lines.nr ? b->log_lines.nr - 1 : 0;
		b->log_cur.top = b->log_cur.sel;
	}
}

/*
 * Enter on a stack word: a frame's return-address slot goes to that
 * frame; a pointer to another word of the view moves there (follow a
 * saved frame pointer or a stack link).
 */
/*
 * A value with no type (a stack word, a register) that is a kernel
 * address: the user names the struct there at a prompt, which opens
 * as the command struct TYPE ADDRESS (@follow: from the command view,
 * which Backspace comes back to).  False: not a kernel address.
 */
static bool ask_struct(struct browser *b, uint64_t addr, bool follow)
{
	char prompt[64], type[96], cmd[sizeof(b->cmd)];
	const char *name = type;

	if (addr < 0xffff800000000000ull)
		return false;
	snprintf(prompt, sizeof(prompt), "struct TYPE at 0x%" PRIx64 ": ", addr);
	if (!oc_draw_prompt(b->h - 2, prompt, type, sizeof(type)) || !type[0])
		return true;
	if (!strncmp(type, "struct ", 7))
		name += 7;
	snprintf(cmd, sizeof(cmd), "struct %s 0x%" PRIx64, name, addr);
	if (follow)
		follow_command(b, cmd);
	else
		open_command(b, cmd);
	return true;
}

static void memory_enter(struct browser *b)
{
	const struct oc_ui_lines *l = &b->mem_lines;
	const struct oc_ui_thread *t = &b->th.v[b->shown];
	const struct oc_ui_line *line;

	/* refs here are addresses: negative as long long, -1 is "none" */
	if (b->mem_cur.sel >= l->nr || l->v[b->mem_cur.sel].ref == -1)
		return;
	line = &l->v[b->mem_cur.sel];
	for (size_t j = 0; j < t->trace.nr; j++) {
		const struct oc_frame *f = &t->trace.frames[j];

		if (!f->scanned && f->ip_addr &&
		    f->ip_addr == (uint64_t)line->ref) {
			b->view = &main_view;
			b->pane = PANE_FRAMES;
			select_frame(b, (long)j);
			set_status(b, false, "frame #%zu", j);
			return;
		}
	}
	for (size_t i = 0; i < l->nr; i++)
		if (l->v[i].ref != -1 && (uint64_t)l->v[i].ref == line->value) {
			b->mem_cur.sel = i;
			set_status(b, false, "-> %016" PRIx64, line->value);
			return;
		}
	/* a kernel address elsewhere: a stack word has no type, so the
	 * user names the struct it points to */
	if (ask_struct(b, line->value, false))
		return;
	set_status(b, false, "%016" PRIx64 ": not a return slot, not a "
		   "pointer into this view, not a kernel address", (uint64_t)line->ref);
}

static void open_log(struct browser *b)
{
	load_log(b);
	b->view = &log_view;
}

/* The next line of @l after the cursor's with the query in it. */
static void search_lines(struct browser *b, const struct oc_ui_lines *l,
			 struct cursor *c)
{
	for (size_t n = 1; n <= l->nr; n++) {
		size_t i = (c->sel + n) % l->nr;

		if (strcasestr(l->v[i].text, b->query)) {
			c->sel = i;
			set_status(b, false, "line %zu", i + 1);
			return;
		}
	}
	set_status(b, true, "no match for \"%s\"", b->query);
}

static void search_log(struct browser *b)
{
	search_lines(b, &b->log_lines, &b->log_cur);
}

static void search_command(struct browser *b)
{
	search_lines(b, &b->cmd_lines, &b->cmd_cur);
}

/*
 * A command of the command layer (src/cmd.h, the one of -e and --shell),
 * its text output in a view of its own, a line a row (tabs to spaces); a
 * failure is the status line's error, and the view stays as it was.
 */
static bool show_command(struct browser *b, const char *line)
{
	char *text = NULL;
	size_t len = 0;
	struct oc_error *err;
	FILE *out;

	out = open_memstream(&text, &len);
	if (!out) {
		set_status(b, true, "out of memory");
		return false;
	}
	/* the worker's lines, borrowed between its jobs: p's DWARF, dis -l */
	err = oc_cmd_run(b->k, oc_ui_worker_borrow_lines(b->worker), line,
			 false, out);
	oc_ui_worker_return_lines(b->worker);
	fclose(out);
	if (err) {
		char msg[300];

		oc_error_take(err, msg, sizeof(msg));
		set_status(b, true, "%s", msg);
		free(text);
		return false;
	}
	oc_ui_lines_clear(&b->cmd_lines);
	for (char *p = text, *nl; p && *p; p = nl ? nl + 1 : NULL) {
		char row[OC_UI_LINE_MAX];
		size_t n = 0;

		nl = strchr(p, '\n');
		for (char *q = p; q < (nl ? nl : p + strlen(p)) && n + 8 < sizeof(row); q++) {
			if (*q == '\t')
				do
					row[n++] = ' ';
				while (n % 8);
			else
				row[n++] = *q;
		}
		row[n] = '\0';
		report(b, oc_ui_lines_add(&b->cmd_lines, OC_STYLE_NORMAL, -1, "%s", row));
	}
	free(text);
	snprintf(b->cmd, sizeof(b->cmd), "%s", line);
	b->cmd_is_command = true;
	b->cmd_cur = (struct cursor){ 0, 0 };
	if (b->view != &command_view)
		b->cmd_from = b->view;
	b->view = &command_view;
	set_status(b, false, "%zu lines", b->cmd_lines.nr);
	return true;
}

/* What was behind the command view's chain of views. */
static void drop_cmd_back(struct browser *b)
{
	while (b->nr_cmd_back)
		oc_ui_lines_deinit(&b->cmd_back[--b->nr_cmd_back].lines);
}

/*
 * A command that starts a new chain of views (':', d, a stack word's
 * struct): once it is up, Back leads out of the command view.  On a
 * failure the view and its chain stay as they were (every way into the
 * command view drops an old chain).
 */
static void open_command(struct browser *b, const char *line)
{
	if (show_command(b, line))
		drop_cmd_back(b);
}

/* ':': a command typed at the prompt */
static void run_command(struct browser *b)
{
	char line[sizeof(b->cmd)];

	if (oc_draw_prompt(b->h - 2, ":", line, sizeof(line)) && line[0])
		open_command(b, line);
}

/*
 * In the command view, a command whose output follows from the current
 * view's (a pointer's struct): the current view is kept as it is, so q or
 * Backspace comes back to it where the cursor was.
 */
static void follow_command(struct browser *b, const char *line)
{
	const size_t max = sizeof(b->cmd_back) / sizeof(b->cmd_back[0]);
	struct cmd_back from = { .is_command = b->cmd_is_command, .cur = b->cmd_cur,
				 .lines = b->cmd_lines };

	snprintf(from.cmd, sizeof(from.cmd), "%s", b->cmd);
	oc_ui_lines_init(&b->cmd_lines);	/* the rows move to @from */
	if (!show_command(b, line)) {
		oc_ui_lines_deinit(&b->cmd_lines);	/* the view as it was */
		b->cmd_lines = from.lines;
		return;
	}
	if (b->nr_cmd_back == max) {	/* the oldest goes */
		oc_ui_lines_deinit(&b->cmd_back[0].lines);
		memmove(&b->cmd_back[0], &b->cmd_back[1],
			(max - 1) * sizeof(b->cmd_back[0]));
		b->nr_cmd_back--;
	}
	b->cmd_back[b->nr_cmd_back++] = from;
}

/* q or Backspace in a command's output: the view before it, else back
 * where ':' was typed */
static void command_back(struct browser *b)
{
	if (b->nr_cmd_back) {
		struct cmd_back *e = &b->cmd_back[--b->nr_cmd_back];

		oc_ui_lines_deinit(&b->cmd_lines);
		b->cmd_lines = e->lines;
		snprintf(b->cmd, sizeof(b->cmd), "%s", e->cmd);
		b->cmd_is_command = e->is_command;
		b->cmd_cur = e->cur;
		set_status(b, false, "back to %s", b->cmd);
		return;
	}
	b->view = b->cmd_from ? b->cmd_from : &main_view;
}

/* NAME's end in "NAME ..." (a C identifier), or NAME itself if none */
static const char *ident_end(const char *name)
{
	while (*name == '_' || (*name >= '0' && *name <= '9') ||
	       (*name >= 'a' && *name <= 'z') || (*name >= 'A' && *name <= 'Z'))
		name++;
	return name;
}

/*
 * The struct a row points to, as the command that prints it ("struct
 * NAME ADDR"); false when the row holds none, or a NULL pointer.  The
 * rows are struct's, p's and task's ("(struct NAME *)0xADDR",
 * formats/types.c) and a frame's variables (oc_framevar_format(): "=
 * 0xADDR (struct NAME *)" for a pointer, "= struct NAME at 0xADDR, N
 * bytes" for a struct on the stack).
 */
static bool row_pointer(const char *text, char *cmd, size_t size)
{
	static const char *const kinds[] = { "struct ", "union " };

	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		size_t kl = strlen(kinds[k]);

		for (const char *p = strstr(text, kinds[k]); p; p = strstr(p + 1, kinds[k])) {
			const char *name = p + kl, *end = ident_end(name), *hex = NULL;
			const char *open = p;	/* the qualifiers' start */
			unsigned long long addr;
			char *after;

			if (end == name)
				continue;
			/* "struct", "const struct", "const volatile struct" */
			for (bool more = true; more;) {
				more = false;
				for (size_t qi = 0; qi < 2; qi++) {
					static const char *const qual[] = { "const ", "volatile " };
					size_t ql = strlen(qual[qi]);

					if ((size_t)(open - text) >= ql &&
					    !strncmp(open - ql, qual[qi], ql)) {
						open -= ql;
						more = true;
					}
				}
			}
			if (open > text && open[-1] == '(' &&
			    (open - 1 == text + strspn(text, " ") ||
			     (open - text >= 3 && !strncmp(open - 3, "= (", 3))) &&
			    !strncmp(end, " *)0x", 5)) {
				/* "= (struct NAME *)0xADDR", or a row of it alone
				 * (p of a pointer variable) */
				hex = end + 3;
			} else if (open - text >= 2 && !strncmp(open - 2, " (", 2) &&
				   !strncmp(end, " *)", 3)) {
				/* = 0xADDR (struct NAME *): the type right after the
				 * value, not a struct inside another type (a function
				 * pointer's "(void (*)(struct timer_list *))") */
				const char *q = strstr(text, "= 0x");

				if (q && q < open) {
					strtoull(q + 2, &after, 16);
					if (after == open - 2)
						hex = q + 2;
				}
			} else if (open - text >= 2 && !strncmp(open - 2, "= ", 2) &&
				   !strncmp(end, " at 0x", 6)) {
				hex = end + 4;		/* = struct NAME at 0xADDR */
			}
			if (!hex)
				continue;
			addr = strtoull(hex, &after, 16);
			if (!addr)
				return false;	/* NULL */
			snprintf(cmd, size, "struct %.*s 0x%llx", (int)(end - name), name,
				 addr);
			return true;
		}
	}
	return false;
}

/*
 * Enter in the frame-details pane: the selected frame's parameters and
 * locals (the worker's, as the pane shows them) in the command view,
 * where Enter on a pointer to a struct shows the struct.
 */
static void open_variables(struct browser *b)
{
	const struct oc_ui_thread *t = selected_thread(b);
	long f = selected_frame(b);
	const struct oc_ui_frame_info *fi;

	if (!t || f < 0 || t->trace_state != OC_UI_TRACE_READY ||
	    (size_t)f >= t->trace.nr) {
		set_status(b, true, "no frame selected");
		return;
	}
	fi = t->info ? &t->info[f] : NULL;
	oc_ui_lines_clear(&b->cmd_lines);
	if (fi && fi->vars_ready)
		report(b, oc_ui_vars_lines(fi->vars, selected_level(b), &b->cmd_lines));
	else
		report(b, oc_ui_lines_add(&b->cmd_lines, OC_STYLE_DIM, -1,
					  "#%ld: no variables (a frame the scan found, --no-lines, "
					  "no vmlinux, or still loading)", f));
	/* then its registers, the registers pane's rows: a register has no
	 * type, Enter on one asks for the struct at its value */
	{
		struct oc_ui_lines regs;

		oc_ui_lines_init(&regs);
		report(b, oc_ui_regs_lines(b->k, t, (size_t)f, &regs));
		for (size_t i = 0; i < regs.nr; i++) {
			if (oc_ui_lines_add(&b->cmd_lines, regs.v[i].style, -1, "%s",
					    regs.v[i].text))
				break;
			b->cmd_lines.v[b->cmd_lines.nr - 1].value = regs.v[i].value;
		}
		oc_ui_lines_deinit(&regs);
	}
	drop_cmd_back(b);
	snprintf(b->cmd, sizeof(b->cmd), "variables and registers of frame #%ld", f);
	b->cmd_is_command = false;
	b->cmd_cur = (struct cursor){ 0, 0 };
	b->cmd_from = b->view;
	b->view = &command_view;
	set_status(b, false, "Enter on a pointer to a struct shows it");
}

/* Enter in a command's output: the struct a pointer row points to */
static void command_enter(struct browser *b)
{
	char cmd[sizeof(b->cmd)];

	if (b->cmd_cur.sel >= b->cmd_lines.nr)
		return;
	if (!row_pointer(b->cmd_lines.v[b->cmd_cur.sel].text, cmd, sizeof(cmd))) {
		/* a register's row (the variables view): its value */
		if (!ask_struct(b, b->cmd_lines.v[b->cmd_cur.sel].value, true))
			set_status(b, false, "not a pointer to a struct or union");
		return;
	}
	follow_command(b, cmd);
}

/* d: the selected frame's function, disassembled from dump memory, its
 * ip marked (dis -f) */
static void disassemble_frame(struct browser *b)
{
	const struct oc_ui_thread *t = &b->th.v[b->shown];
	long f = selected_frame(b);
	char cmd[sizeof(b->cmd)];

	if (f < 0 || t->trace_state != OC_UI_TRACE_READY ||
	    (size_t)f >= t->trace.nr) {
		set_status(b, true, "no frame selected");
		return;
	}
	snprintf(cmd, sizeof(cmd), "dis -f 0x%" PRIx64, t->trace.frames[f].ip);
	open_command(b, cmd);
}

static void search_threads(struct browser *b)
{
	const struct oc_ui_lines *l = &b->thread_lines;
	char name[96];

	for (size_t n = 1; n <= l->nr; n++) {
		size_t i = (b->cur[PANE_THREADS].sel + n) % l->nr;
		struct oc_ui_thread *t = &b->th.v[l->v[i].ref];
		long frame;
		bool match = oc_ui_thread_matches(b->k, t, b->query, &frame);

		/* a function search needs the trace: unwind it now */
		if (!match && t->trace_state == OC_UI_TRACE_PENDING) {
			unwind_thread(b, t);
			match = oc_ui_thread_matches(b->k, t, b->query, &frame);
		}
		if (!match)
			continue;
		b->cur[PANE_THREADS].sel = i;
		report(b, oc_ui_threads_lines(&b->th, &b->thread_lines));
		show_thread(b);
		oc_ui_thread_name(t, name, sizeof(name));
		if (frame >= 0) {
			select_frame(b, frame);
			b->pane = PANE_FRAMES;
			set_status(b, false, "%s: frame #%ld", name, frame);
		} else {
			set_status(b, false, "%s", name);
		}
		return;
	}
	report(b, oc_ui_threads_lines(&b->th, &b->thread_lines));
	set_status(b, true, "no thread matches \"%s\"", b->query);
}

static void search(struct browser *b, bool prompt)
{
	if (prompt) {
		char buf[sizeof(b->query)];

		if (!oc_draw_prompt(b->h - 2, "/", buf, sizeof(buf)) || !buf[0])
			return;
		memcpy(b->query, buf, sizeof(buf));
	}
	if (!b->query[0]) {
		set_status(b, true, "no search yet: press /");
		return;
	}
	if (b->view->search)
		b->view->search(b);
}

static void main_back(struct browser *b)
{
	if (b->pane == PANE_THREADS)
		b->quit = true;
	else
		b->pane--;
}

static void back_to_main(struct browser *b)
{
	b->view = &main_view;
}

static void open_waits(struct browser *b)
{
	if (!b->waits_loaded) {
		struct oc_error *err = oc_waits_compute(b->k, NULL, &b->waits);

		if (err) {
			report(b, err);
			return;
		}
		b->waits_loaded = true;
		report(b, oc_ui_waits_lines(&b->waits, &b->th, &b->waits_lines));
	}
	b->view = &waits_view;
}

/* Enter on a wait row: that task in the threads pane, all states shown
 * if the filter hides it. */
static void waits_enter(struct browser *b)
{
	const struct oc_ui_lines *l = &b->waits_lines;
	long long want;

	if (b->waits_cur.sel >= l->nr || l->v[b->waits_cur.sel].ref < 0)
		return;
	want = l->v[b->waits_cur.sel].ref;
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < b->thread_lines.nr; i++) {
			if (b->thread_lines.v[i].ref != want)
				continue;
			b->view = &main_view;
			b->pane = PANE_THREADS;
			b->cur[PANE_THREADS].sel = i;
			show_thread(b);
			return;
		}
		b->th.state = 0;
		refresh_threads(b);
	}
}

static void help_back(struct browser *b)
{
	b->view = b->help_from;
}

static void main_enter(struct browser *b)
{
	if (b->pane == PANE_THREADS)
		b->pane = PANE_FRAMES;
	else if (b->pane == PANE_REGS)
		open_variables(b);
	else
		open_memory(b);
}

static const struct view_ops main_view = {
	.draw = draw_main,
	.cursor = main_cursor,
	.back = main_back,
	.enter = main_enter,
	.search = search_threads,
};

static const struct view_ops memory_view = {
	.context = OC_CTX_MEMORY,
	.draw = draw_memory,
	.cursor = memory_cursor,
	.back = back_to_main,
	.enter = memory_enter,
};

static const struct view_ops log_view = {
	.context = OC_CTX_LOG,
	.draw = draw_log,
	.cursor = log_cursor,
	.back = back_to_main,
	.search = search_log,
};

static const struct view_ops waits_view = {
	.context = OC_CTX_WAITS,
	.draw = draw_waits,
	.cursor = waits_cursor,
	.back = back_to_main,
	.enter = waits_enter,
};

static const struct view_ops command_view = {
	.context = OC_CTX_COMMAND,
	.draw = draw_command,
	.cursor = command_cursor,
	.back = command_back,
	.enter = command_enter,
	.search = search_command,
};

static const struct view_ops help_view = {
	.context = OC_CTX_HELP,
	.draw = draw_help,
	.cursor = help_cursor,
	.back = help_back,
};

static void request(struct browser *b, enum oc_ui_request req)
{
	unsigned int ctx = context(b);
	const struct oc_ui_request_info *info = oc_ui_request_info(req);

	if (!info)
		return;
	if (!(info->contexts & ctx)) {
		set_status(b, false, "%s: not here", info->name);
		return;
	}
	b->status[0] = '\0';
	b->status_error = false;
	/* what reads every task waits for the whole list */
	if (req == OC_REQ_SEARCH || req == OC_REQ_SEARCH_NEXT || req == OC_REQ_SORT ||
	    req == OC_REQ_FILTER_NEXT || req == OC_REQ_FILTER_PREV ||
	    req == OC_REQ_WAITS || req == OC_REQ_COMMAND)
		take_tasks(b, true);
	switch (req) {
	case OC_REQ_UP:
	case OC_REQ_DOWN:
	case OC_REQ_PAGE_UP:
	case OC_REQ_PAGE_DOWN:
	case OC_REQ_HOME:
	case OC_REQ_END:
		move_cursor(b, req);
		break;
	case OC_REQ_NEXT_PANE:
		b->pane = (b->pane + 1) % PANE_NR;
		break;
	case OC_REQ_PREV_PANE:
		b->pane = (b->pane + PANE_NR - 1) % PANE_NR;
		break;
	case OC_REQ_ENTER:
		if (b->view->enter)
			b->view->enter(b);
		break;
	case OC_REQ_BACK:
		b->view->back(b);
		break;
	case OC_REQ_QUIT:
		b->quit = true;
		break;
	case OC_REQ_SEARCH:
	case OC_REQ_SEARCH_NEXT:
		search(b, req == OC_REQ_SEARCH);
		break;
	case OC_REQ_SORT:
		b->th.sort = (b->th.sort + 1) % OC_SORT_NR;
		refresh_threads(b);
		set_status(b, false, "tasks sorted by %s",
			   oc_ui_sort_name(b->th.sort));
		break;
	case OC_REQ_FILTER_NEXT:
	case OC_REQ_FILTER_PREV:
		b->th.state = oc_ui_threads_next_state(
			&b->th, b->th.state, req == OC_REQ_FILTER_NEXT ? 1 : -1);
		refresh_threads(b);
		if (b->th.state)
			set_status(b, false, "tasks in state %c: %zu",
				   b->th.state,
				   b->thread_lines.nr - b->th.nr_cpus);
		else
			set_status(b, false, "all tasks");
		break;
	case OC_REQ_LOG:
		open_log(b);
		break;
	case OC_REQ_MEMORY:
		open_memory(b);
		break;
	case OC_REQ_WAITS:
		open_waits(b);
		break;
	case OC_REQ_HELP:
		if (b->view != &help_view)
			b->help_from = b->view;
		b->view = &help_view;
		break;
	case OC_REQ_COMMAND:
		run_command(b);
		break;
	case OC_REQ_DISASM:
		disassemble_frame(b);
		break;
	case OC_REQ_REDRAW:
		oc_draw_redraw();
		break;
	case OC_REQ_DETAILS:
		b->detail = b->detail == DETAIL_REGS ? DETAIL_SOURCE : DETAIL_REGS;
		show_details(b);
		set_status(b, false, "frame details: %s",
			   b->detail == DETAIL_REGS ? "registers" : "source");
		break;
	case OC_REQ_FILES:
		b->files = !b->files;
		rebuild_frames(b);
		set_status(b, false, "file:line in the frames pane: %s",
			   b->files ? "on" : "off");
		break;
	case OC_REQ_NONE:
	case OC_REQ_NR:
		break;
	}
}

static bool in_pane(const struct oc_draw_pane *p, int y, int x)
{
	return y >= p->y && y < p->y + p->h && x >= p->x && x < p->x + p->w;
}

static void click(struct browser *b)
{
	int y, x, row;
	bool twice;

	if (!oc_draw_mouse(&y, &x, &twice) || b->view != &main_view)
		return;
	for (int p = 0; p < PANE_NR; p++) {
		struct oc_draw_pane *d = &b->panes[p];
		struct cursor *c = &b->cur[p];

		if (!in_pane(d, y, x))
			continue;
		b->pane = (enum pane)p;
		row = y - d->y - 1 - (d->heading ? 1 : 0);
		if (row < 0 || p == PANE_REGS ||
		    c->top + (size_t)row >= d->lines->nr ||
		    d->lines->v[c->top + (size_t)row].ref < 0)
			return;
		c->sel = c->top + (size_t)row;
		if (p == PANE_THREADS)
			show_thread(b);
		else
			show_details(b);
		if (twice)
			request(b, OC_REQ_ENTER);
		return;
	}
}

/* ---- start ---- */

/* Open on the panic CPU (else the first CPU with registers). */
static void select_start(struct browser *b)
{
	long long want = -1;

	for (size_t i = 0; i < b->th.nr_cpus; i++)
		if (b->th.v[i].panic)
			want = (long long)i;
	for (size_t i = 0; want < 0 && i < b->th.nr_cpus; i++)
		if (b->k->cpus[b->th.v[i].cpu].has_regs)
			want = (long long)i;
	b->cur[PANE_THREADS].sel = 0;
	for (size_t i = 0; i < b->thread_lines.nr; i++)
		if (b->thread_lines.v[i].ref == want)
			b->cur[PANE_THREADS].sel = i;
	show_thread(b);
	b->pane = PANE_FRAMES;
}

static void browser_deinit(struct browser *b)
{
	/* drops its queue, waits for the lookup in progress only */
	oc_ui_worker_stop(b->worker);
	b->worker = NULL;
	oc_ui_threads_deinit(&b->th);
	oc_ui_lines_deinit(&b->thread_lines);
	oc_ui_lines_deinit(&b->frame_lines);
	oc_ui_lines_deinit(&b->regs_lines);
	oc_ui_lines_deinit(&b->mem_lines);
	oc_ui_lines_deinit(&b->log_lines);
	oc_ui_lines_deinit(&b->waits_lines);
	if (b->waits_loaded)
		oc_waits_deinit(&b->waits);
	oc_ui_lines_deinit(&b->help_lines);
	oc_ui_lines_deinit(&b->cmd_lines);
	drop_cmd_back(b);
	if (b->log_loaded)
		oc_log_deinit(&b->log);
	oc_ui_source_deinit(&b->src);
}

struct oc_error *oc_ui_run(struct oc_kernel *k,
			   const struct oc_ui_options *opts)
{
	struct browser b = {
		.k = k, .opts = opts, .files = true, .view = &main_view,
		.detail = opts->source_dir ? DETAIL_SOURCE : DETAIL_REGS,
	};
	struct oc_error *err;
	const char *nc = getenv("NO_COLOR");
	const char *delay = getenv("ORCCRASH_TEST_LINES_DELAY_MS");
	const char *tasks_delay = getenv("ORCCRASH_TEST_TASKS_DELAY_MS");

	oc_ui_lines_init(&b.thread_lines);
	oc_ui_lines_init(&b.frame_lines);
	oc_ui_lines_init(&b.regs_lines);
	oc_ui_lines_init(&b.mem_lines);
	oc_ui_lines_init(&b.log_lines);
	oc_ui_lines_init(&b.waits_lines);
	oc_ui_lines_init(&b.help_lines);
	oc_ui_lines_init(&b.cmd_lines);
	/* the screen tests can hold the task list back to see the first
	 * screen without it */
	if (tasks_delay)
		b.tasks_hold_until = now_ms() + atoi(tasks_delay);
	err = oc_ui_threads_build(k, &b.th);
	if (!err)
		err = oc_ui_threads_lines(&b.th, &b.thread_lines);
	if (!err)
		err = oc_ui_help_lines(&b.help_lines);
	/* the DWARF worker; the screen tests can hold its first lookup
	 * back to see the first screen without lines */
	if (!err && opts->lines)
		err = oc_ui_worker_start(opts->lines,
					 delay ? (unsigned)atoi(delay) : 0,
					 &b.worker);
	if (!err && !b.th.nr)
		err = oc_error_file(OC_ERR_FORMAT, opts->vmcore,
				    "the dump has no CPUs and no tasks");
	if (err) {
		browser_deinit(&b);
		return err;
	}
	snprintf(b.panic_message, sizeof(b.panic_message), "%s",
		 k->panic_message);
	if (!b.panic_message[0]) {
		/* the header wants the message; the log is read once anyway */
		load_log(&b);
		if (b.log.nr)
			oc_log_panic_message(&b.log, b.panic_message,
					     sizeof(b.panic_message));
	}
	crash_summary(&b);
	oc_draw_init(!opts->no_color && !(nc && nc[0]));
	layout(&b);
	select_start(&b);
	if (!b.status[0] && k->nr_warnings)
		set_status(&b, true, "warning: %s", k->warnings[0]);
	while (!b.quit) {
		int key;

		take_tasks(&b, false);
		collect_lines(&b);
		draw(&b);
		/* the worker may read the dump only while we wait here; when
		 * it wants to, the idle unwinding makes room for it */
		oc_ui_worker_model_release(b.worker);
		key = oc_draw_key(pending(&b) ?
				  (b.worker && oc_ui_worker_model_wanted(b.worker) ?
				   5 : 0) :
				  b.th.tasks_pending ? TASKS_POLL_MS :
				  b.worker && oc_ui_worker_busy(b.worker) ?
				  WORKER_POLL_MS : -1);
		oc_ui_worker_model_take(b.worker);
		if (key == OC_DRAW_NO_KEY) {
			if (pending(&b))
				idle_work(&b);
			continue;
		}
		if (key == OC_DRAW_RESIZE)
			continue;	/* draw() lays out again */
		if (key == OC_DRAW_MOUSE) {
			click(&b);
			continue;
		}
		if (oc_ui_key_request(key) == OC_REQ_NONE) {
			set_status(&b, false, "no key %s: press ? for help",
				   oc_draw_key_name(key));
			continue;
		}
		/* Backspace walks back through views; it does not quit, as q
		 * does from the threads pane (one press too many would) */
		if (oc_draw_key_is_backspace(key) && b.view == &main_view &&
		    b.pane == PANE_THREADS) {
			set_status(&b, false, "q quits");
			continue;
		}
		request(&b, oc_ui_key_request(key));
	}
	oc_draw_deinit();
	browser_deinit(&b);
	return NULL;
}
