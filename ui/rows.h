/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The browser's views as rows of text: pure functions over the kernel
 * model and traces, with no ncurses, so they are unit-tested on a fake
 * model (tests/unit/test_ui_rows.c).  ui/draw.c puts the rows on the
 * screen; ui/browser.c decides which rows to build.
 */
#ifndef OC_UI_ROWS_H
#define OC_UI_ROWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "kernel.h"
#include "log.h"
#include "unwind.h"

/* How a row looks; ui/draw.c maps each to colours or attributes. */
enum oc_ui_style {
	OC_STYLE_NORMAL = 0,
	OC_STYLE_DIM,		/* unreliable "?" frames, pending rows */
	OC_STYLE_SEPARATOR,	/* <IRQ> ... </IRQ> stack transitions */
	OC_STYLE_PANIC,		/* the panic CPU */
	OC_STYLE_ERROR,		/* stop reasons, unreadable memory */
	OC_STYLE_TITLE,		/* headings inside a pane */
	OC_STYLE_MARK,		/* pt_regs frames, return-address slots */
	OC_STYLE_NR,
};

enum { OC_UI_LINE_MAX = 320 };

struct oc_ui_line {
	enum oc_ui_style style;
	/* What the row stands for (a frame index, a thread index, a
	 * word's address); -1 for a row the cursor skips. */
	long long ref;
	/* frames pane: -1 for a frame's own row, N for the row of level N
	 * of its inline chain (0 innermost); -1 elsewhere */
	int level;
	uint64_t value;		/* a stack word's or a register's value; 0 elsewhere */
	char text[OC_UI_LINE_MAX];
};

struct oc_ui_lines {
	struct oc_ui_line *v;
	size_t nr, cap;
};

void oc_ui_lines_init(struct oc_ui_lines *lines);
void oc_ui_lines_deinit(struct oc_ui_lines *lines);
void oc_ui_lines_clear(struct oc_ui_lines *lines);
struct oc_error *oc_ui_lines_add(struct oc_ui_lines *lines,
				 enum oc_ui_style style, long long ref,
				 const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* The first line at or after (@dir > 0) / before (@dir < 0) @from whose
 * ref is not -1; @from itself if there is none that way. */
size_t oc_ui_lines_selectable(const struct oc_ui_lines *lines, size_t from,
			      int dir);

/* ---- threads ---- */

struct oc_line_info;

/*
 * What the browser's DWARF worker (ui/worker.c) found for one frame:
 * its inline chain (src/lines.h), innermost first, the frame's own
 * function last.  Strings belong to the oc_lines handle.
 */
struct oc_ui_frame_info {
	bool queued;			/* asked of the worker */
	bool ready;			/* answered */
	size_t nr;
	struct oc_line_info *chain;	/* nr entries (malloc'd) */
	const char *why;		/* nr == 0: why, when known */
	/* its parameters and locals (src/framevars.h), asked for when
	 * the frame is selected */
	bool vars_queued, vars_ready;
	struct oc_framevars *vars;
};

enum oc_ui_trace_state {
	OC_UI_TRACE_PENDING = 0,	/* not unwound yet */
	OC_UI_TRACE_READY,
	OC_UI_TRACE_FAILED,		/* ->error says why */
};

struct oc_ui_thread {
	int cpu;			/* a CPU row: its number; else -1 */
	const struct oc_task *task;	/* NULL for a CPU with no known task */
	bool panic;			/* the panic CPU */
	enum oc_ui_trace_state trace_state;
	struct oc_trace trace;
	char error[192];
	long top_frame;			/* oc_ui_top_frame(), -1 if none */
	char top[160];			/* its text, "" while pending */
	/* READY: one per frame of the trace (NULL if that allocation
	 * failed: no lines for this thread) */
	struct oc_ui_frame_info *info;
	/* unwound before, its trace since dropped to bound the memory
	 * (oc_ui_threads_keep()): PENDING again, top and top_frame kept for
	 * its row; unwound again when it is shown or searched */
	bool dropped;
};

enum oc_ui_sort {
	OC_SORT_PID = 0,
	OC_SORT_STATE,
	OC_SORT_COMM,
	OC_SORT_CPU,
	OC_SORT_NR,
};

struct oc_ui_threads {
	struct oc_ui_thread *v;		/* CPUs in order, then the task list */
	size_t nr, nr_cpus;
	size_t *shown;			/* indices into v, sorted and filtered */
	size_t nr_shown;
	enum oc_ui_sort sort;
	char state;			/* state filter letter; 0 for all */
	size_t nr_ready;		/* traces no longer pending */
	/* the threads whose whole trace is kept, oldest first: at most
	 * max_kept (OC_UI_MAX_TRACES unless set after building), whatever
	 * the task count (docs/hardening.md) */
	size_t *kept, nr_kept, max_kept;
	/* the model's task list is read behind the first screen
	 * (oc_kernel_tasks_pending()): CPU rows only until
	 * oc_ui_threads_add_tasks() */
	bool tasks_pending;
};

/* traces the browser keeps whole (each up to 256 frames) */
#define OC_UI_MAX_TRACES 256

/*
 * v[i] now holds a whole trace: remember it, and if more than max_kept
 * are kept, drop the oldest one other than v[i] and v[shown] (->dropped).
 */
void oc_ui_threads_keep(struct oc_ui_threads *th, size_t i, size_t shown);

/* One row per CPU, then one per task (none while the model's task list
 * is pending); every trace pending. */
struct oc_error *oc_ui_threads_build(const struct oc_kernel *k,
				     struct oc_ui_threads *ret);
/*
 * The model's task list came in (oc_kernel_tasks_sync() said so): the
 * CPU rows take their tasks' new entries, a row per task follows them,
 * sorted and filtered as set.  Rows keep their indices; @th->v moves.
 */
struct oc_error *oc_ui_threads_add_tasks(const struct oc_kernel *k,
					 struct oc_ui_threads *th);
void oc_ui_threads_deinit(struct oc_ui_threads *th);
/* Recompute ->shown after a change of sort or state filter.  CPU rows
 * always come first, in CPU order; the filter applies to task rows. */
struct oc_error *oc_ui_threads_update(struct oc_ui_threads *th);
/* The next (@dir > 0) or previous state filter among the states the
 * tasks are in, cycling through 0 (all). */
char oc_ui_threads_next_state(const struct oc_ui_threads *th, char cur,
			      int dir);
const char *oc_ui_sort_name(enum oc_ui_sort sort);

/* Hand @trace over to @t (it now owns the frames) and find its top
 * frame; @trace is left empty.  Every frame's info is "not asked". */
void oc_ui_thread_set_trace(const struct oc_kernel *k, struct oc_ui_thread *t,
			    struct oc_trace *trace);
void oc_ui_thread_set_error(struct oc_ui_thread *t, const char *message);
/* Frame @frame's lines arrived: @nr entries of @chain are copied. */
struct oc_error *oc_ui_thread_set_lines(struct oc_ui_thread *t, size_t frame,
					const struct oc_line_info *chain,
					size_t nr, const char *why);
/* Frees the trace and the frames' info. */
void oc_ui_thread_deinit(struct oc_ui_thread *t);
/* The CPU whose saved registers this thread's trace starts from, or -1. */
int oc_ui_thread_cpu(const struct oc_kernel *k, const struct oc_ui_thread *t);
/* "CPU 1 pid 123 [bash]" */
void oc_ui_thread_name(const struct oc_ui_thread *t, char *buf, size_t size);

/*
 * The scheduler and wait primitives the "top frame" column skips (see
 * the list in rows.c and docs/browser.md): true if @name is one.
 */
bool oc_ui_is_wait_primitive(const char *name);
/* Index of the first unwound (not "?") frame whose function is not a
 * wait primitive; the first unwound frame if all are; -1 if none. */
long oc_ui_top_frame(const struct oc_kernel *k, const struct oc_trace *trace);

/*
 * Does @t match @query: its pid (all digits), its comm (substring,
 * any case), or a function in its stack (substring)?  On a function
 * match *frame_ret is that frame, else -1.  Pending traces are not
 * searched; the caller unwinds first.
 */
bool oc_ui_thread_matches(const struct oc_kernel *k,
			  const struct oc_ui_thread *t, const char *query,
			  long *frame_ret);

/* The column heading and one row per shown thread (ref = index in v). */
void oc_ui_threads_heading(char *buf, size_t size);
struct oc_error *oc_ui_threads_lines(const struct oc_ui_threads *th,
				     struct oc_ui_lines *lines);

/* ---- one thread ---- */

/* A frame's address like the kernel's %pB: a return address is looked
 * up at ip - 1 (the call may be a function's last instruction). */
void oc_ui_format_frame_addr(const struct oc_kernel *k,
			     const struct oc_frame *f, char *buf, size_t size);
/*
 * "#N symbol+off/size [module]" rows (ref = frame index), <STACK> and
 * </STACK> separators, and the stop reason when the trace is not clean.
 * Where the frame's lines are known (t->info), the inlined functions it
 * is in get rows of their own before it, innermost first, like the batch
 * report: "     name (inlined)  file:line" (ref = the frame, level = the
 * chain index), and with @opts->files the frame's row ends with its
 * function's "  file:line", the file's base name alone when the whole
 * name would not fit in @opts->width columns (0: no limit).  @opts NULL:
 * files on, no limit.
 */
struct oc_ui_frame_opts {
	bool files;
	int width;
};
struct oc_error *oc_ui_frame_lines(const struct oc_kernel *k,
				   const struct oc_ui_thread *t,
				   const struct oc_ui_frame_opts *opts,
				   struct oc_ui_lines *lines);
/* Registers of frame @frame: the whole pt_regs at exception and
 * interrupt frames, the iret frame for partial ones, else ip/sp/bp;
 * kernel addresses resolved; each register's row has its value. */
struct oc_error *oc_ui_regs_lines(const struct oc_kernel *k,
				  const struct oc_ui_thread *t, size_t frame,
				  struct oc_ui_lines *lines);
/*
 * Stack memory from frame @frame's sp: up to @max_words words (to the
 * end of that stack), each annotated (return address of #N, text
 * symbol, pointer into a stack).  A failed read ends the rows with an
 * error row and is returned in *fault_ret (NULL if none; the caller
 * destroys it).  ref = the word's address, value = the word.
 */
struct oc_error *oc_ui_memory_lines(const struct oc_kernel *k,
				    const struct oc_ui_thread *t, size_t frame,
				    size_t max_words, struct oc_ui_lines *lines,
				    struct oc_error **fault_ret);

struct oc_line_info;
/*
 * Source rows for a frame from its src/lines.h chain (innermost first):
 * "at kernel/panic.c:459 (panic)", "at FILE:LINE (func, inlined)";
 * "source: <why>" when there is none.  Appended to @lines.
 */
struct oc_error *oc_ui_source_lines(const struct oc_line_info *chain,
				    size_t nr, const char *why,
				    struct oc_ui_lines *lines);
struct oc_ui_source;
/*
 * The source view of one level of a frame: a title row
 * "#N FUNCTION, line LINE: FILE", then the lines of @src around @e->line,
 * @context above and below (fewer at the ends), each "%5u  text", the
 * current line "%5u> text" in OC_STYLE_MARK.  *current_ret is the row
 * index of the current line.  @src NULL or @e->line past its end: the
 * title and a row saying @why.
 */
struct oc_error *oc_ui_source_view(size_t frame, const struct oc_line_info *e,
				   const struct oc_ui_source *src,
				   const char *why, size_t context,
				   struct oc_ui_lines *lines,
				   size_t *current_ret);
struct oc_framevars;
/*
 * The parameters and locals of level @level of a frame (the chain's
 * index, innermost first; -1: the frame's own function), one row each as
 * the batch report's --locals prints them, under a "variables of FUNC:"
 * row; "variables: <why>" when the frame has none to show.  Appended.
 */
struct oc_error *oc_ui_vars_lines(const struct oc_framevars *fv, int level,
				  struct oc_ui_lines *lines);
/* Insert @more's rows into @lines before row @pos. */
struct oc_error *oc_ui_lines_insert(struct oc_ui_lines *lines, size_t pos,
				    const struct oc_ui_lines *more);

/* ---- the rest ---- */

/* "[    1.234567] text" per line of every record; control characters
 * shown as \xNN. */
struct oc_error *oc_ui_log_lines(const struct oc_log *log,
				 struct oc_ui_lines *lines);
struct oc_waits;
/*
 * The wait view: each wait chain ("DEADLOCK: ..." first, in the error
 * style, then "CHAIN: ..."), then each task in D with what it waits on
 * and who holds it; each row's ref is the thread (index in th->v) of the
 * task it starts with, -1 for headings.
 */
struct oc_error *oc_ui_waits_lines(const struct oc_waits *w,
				   const struct oc_ui_threads *th,
				   struct oc_ui_lines *lines);
/* The help screen, generated from the key table (ui/keys.c). */
struct oc_error *oc_ui_help_lines(struct oc_ui_lines *lines);
/* Keys that matter in @contexts, "Tab pane  / search ..." */
void oc_ui_footer(unsigned int contexts, char *buf, size_t size);

#endif /* OC_UI_ROWS_H */
