// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Rows of the browser's views, built from the kernel model.  Nothing
 * here draws or reads the dump: frames and registers come from traces
 * the model produced, symbols from oc_kernel_symbolize(), stack memory
 * through the model's oc_mem (bounds-checked by its provider).
 */
#include <ctype.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "framevars.h"
#include "keys.h"
#include "lines.h"
#include "report.h"
#include "rows.h"
#include "source.h"
#include "strutil.h"
#include "waits.h"

/* ---- lines ---- */

void oc_ui_lines_init(struct oc_ui_lines *lines)
{
	memset(lines, 0, sizeof(*lines));
}

void oc_ui_lines_deinit(struct oc_ui_lines *lines)
{
	free(lines->v);
	oc_ui_lines_init(lines);
}

void oc_ui_lines_clear(struct oc_ui_lines *lines)
{
	lines->nr = 0;
}

struct oc_error *oc_ui_lines_add(struct oc_ui_lines *lines,
				 enum oc_ui_style style, long long ref,
				 const char *fmt, ...)
{
	struct oc_ui_line *l;
	va_list ap;

	l = oc_array_grow(lines->v, lines->nr, 1, &lines->cap, sizeof(*l), 64);
	if (!l)
		return &oc_enomem;
	lines->v = l;
	l = &lines->v[lines->nr++];
	l->style = style;
	l->ref = ref;
	l->level = -1;
	l->value = 0;
	va_start(ap, fmt);
	vsnprintf(l->text, sizeof(l->text), fmt, ap);
	va_end(ap);
	return NULL;
}

size_t oc_ui_lines_selectable(const struct oc_ui_lines *lines, size_t from,
			      int dir)
{
	size_t i = from;

	if (!lines->nr)
		return 0;
	if (i >= lines->nr)
		i = lines->nr - 1;
	for (;;) {
		if (lines->v[i].ref != -1)
			return i;
		if (dir >= 0 ? i + 1 >= lines->nr : i == 0)
			return from < lines->nr ? from : lines->nr - 1;
		i = dir >= 0 ? i + 1 : i - 1;
	}
}

/* ---- threads ---- */

struct oc_error *oc_ui_threads_build(const struct oc_kernel *k,
				     struct oc_ui_threads *ret)
{
	bool pending = oc_kernel_tasks_pending(k);
	size_t n = k->nr_cpus + (pending ? 0 : k->nr_tasks), j = 0;

	memset(ret, 0, sizeof(*ret));
	ret->tasks_pending = pending;
	ret->v = calloc(n ? n : 1, sizeof(*ret->v));
	ret->shown = calloc(n ? n : 1, sizeof(*ret->shown));
	ret->max_kept = OC_UI_MAX_TRACES;
	ret->kept = calloc(ret->max_kept + 1, sizeof(*ret->kept));
	if (!ret->v || !ret->shown || !ret->kept) {
		oc_ui_threads_deinit(ret);
		return &oc_enomem;
	}
	for (unsigned int c = 0; c < k->nr_cpus; c++) {
		struct oc_ui_thread *t = &ret->v[j++];

		t->cpu = (int)c;
		t->task = k->cpus[c].task;
		t->panic = k->panic_cpu == (int)c;
		t->top_frame = -1;
		oc_trace_init(&t->trace);
	}
	ret->nr_cpus = ret->nr = j;
	if (pending)
		return oc_ui_threads_update(ret);
	return oc_ui_threads_add_tasks(k, ret);
}

struct oc_error *oc_ui_threads_add_tasks(const struct oc_kernel *k,
					 struct oc_ui_threads *th)
{
	size_t n = th->nr_cpus + k->nr_tasks;
	struct oc_ui_thread *v;
	size_t *shown;

	if (th->nr != th->nr_cpus)
		return oc_error_format(OC_ERR_INVALID, "the task rows are there");
	v = realloc(th->v, (n ? n : 1) * sizeof(*v));
	if (!v)
		return &oc_enomem;
	th->v = v;
	shown = realloc(th->shown, (n ? n : 1) * sizeof(*shown));
	if (!shown)
		return &oc_enomem;
	th->shown = shown;
	for (size_t c = 0; c < th->nr_cpus; c++)
		v[c].task = k->cpus[v[c].cpu].task;
	for (size_t i = 0; i < k->nr_tasks; i++) {
		struct oc_ui_thread *t = &v[th->nr++];

		memset(t, 0, sizeof(*t));
		t->cpu = -1;
		t->task = &k->tasks[i];
		t->top_frame = -1;
		oc_trace_init(&t->trace);
	}
	th->tasks_pending = false;
	return oc_ui_threads_update(th);
}

static void free_info(struct oc_ui_thread *t)
{
	if (!t->info)
		return;
	for (size_t i = 0; i < t->trace.nr; i++) {
		free(t->info[i].chain);
		oc_framevars_free(t->info[i].vars);
	}
	free(t->info);
	t->info = NULL;
}

void oc_ui_thread_deinit(struct oc_ui_thread *t)
{
	free_info(t);
	oc_trace_deinit(&t->trace);
}

void oc_ui_threads_deinit(struct oc_ui_threads *th)
{
	for (size_t i = 0; th->v && i < th->nr; i++)
		oc_ui_thread_deinit(&th->v[i]);
	free(th->v);
	free(th->shown);
	free(th->kept);
	memset(th, 0, sizeof(*th));
}

/* a variables job of the worker holds a pointer to the trace */
static bool vars_in_flight(const struct oc_ui_thread *t)
{
	for (size_t i = 0; t->info && i < t->trace.nr; i++)
		if (t->info[i].vars_queued && !t->info[i].vars_ready)
			return true;
	return false;
}

void oc_ui_threads_keep(struct oc_ui_threads *th, size_t i, size_t shown)
{
	size_t n = 0;

	/* once in the list: a thread unwound again moves to the end */
	for (size_t j = 0; j < th->nr_kept; j++)
		if (th->kept[j] != i)
			th->kept[n++] = th->kept[j];
	th->nr_kept = n;
	while (th->nr_kept >= th->max_kept && th->nr_kept) {
		size_t j = 0;

		while (j < th->nr_kept && (th->kept[j] == shown ||
					   vars_in_flight(&th->v[th->kept[j]])))
			j++;
		if (j == th->nr_kept)
			break;
		struct oc_ui_thread *t = &th->v[th->kept[j]];

		oc_ui_thread_deinit(t);
		oc_trace_init(&t->trace);
		t->trace_state = OC_UI_TRACE_PENDING;
		t->dropped = true;
		memmove(&th->kept[j], &th->kept[j + 1],
			(th->nr_kept - j - 1) * sizeof(*th->kept));
		th->nr_kept--;
	}
	if (th->nr_kept <= th->max_kept)
		th->kept[th->nr_kept++] = i;
}

const char *oc_ui_sort_name(enum oc_ui_sort sort)
{
	static const char *const names[OC_SORT_NR] = {
		[OC_SORT_PID] = "pid",
		[OC_SORT_STATE] = "state",
		[OC_SORT_COMM] = "comm",
		[OC_SORT_CPU] = "cpu",
	};

	return (unsigned)sort < OC_SORT_NR ? names[sort] : "?";
}

static int cmp_int(long long a, long long b)
{
	return a < b ? -1 : a > b;
}

static int compare_threads(const void *pa, const void *pb, void *arg)
{
	const struct oc_ui_threads *th = arg;
	const struct oc_ui_thread *a = &th->v[*(const size_t *)pa];
	const struct oc_ui_thread *b = &th->v[*(const size_t *)pb];
	int r = 0;

	switch (th->sort) {
	case OC_SORT_STATE:
		r = cmp_int(a->task->state, b->task->state);
		break;
	case OC_SORT_COMM:
		r = strcmp(a->task->comm, b->task->comm);
		break;
	case OC_SORT_CPU:
		r = cmp_int(a->task->cpu, b->task->cpu);
		break;
	case OC_SORT_PID:
	case OC_SORT_NR:
		break;
	}
	if (!r)
		r = cmp_int(a->task->pid, b->task->pid);
	if (!r)	/* stable: the model's order (idle tasks share pid 0) */
		r = cmp_int((long long)(a - th->v), (long long)(b - th->v));
	return r;
}

struct oc_error *oc_ui_threads_update(struct oc_ui_threads *th)
{
	size_t n = 0, first_task;

	for (size_t i = 0; i < th->nr_cpus; i++)
		th->shown[n++] = i;
	first_task = n;
	for (size_t i = th->nr_cpus; i < th->nr; i++)
		if (!th->state || th->v[i].task->state == th->state)
			th->shown[n++] = i;
	th->nr_shown = n;
	qsort_r(th->shown + first_task, n - first_task, sizeof(*th->shown),
		compare_threads, th);
	return NULL;
}

char oc_ui_threads_next_state(const struct oc_ui_threads *th, char cur,
			      int dir)
{
	bool present[256] = { false };
	char states[257];
	size_t n = 0, pos = 0;

	for (size_t i = th->nr_cpus; i < th->nr; i++)
		present[(unsigned char)th->v[i].task->state] = true;
	states[n++] = 0;	/* all */
	/* a useful order for a post-mortem: runnable, blocked, then the rest */
	for (const char *p = "RDSITtZXP"; *p; p++)
		if (present[(unsigned char)*p]) {
			states[n++] = *p;
			present[(unsigned char)*p] = false;
		}
	for (int c = 1; c < 256; c++)
		if (present[c])
			states[n++] = (char)c;
	for (size_t i = 0; i < n; i++)
		if (states[i] == cur)
			pos = i;
	pos = dir >= 0 ? (pos + 1) % n : (pos + n - 1) % n;
	return states[pos];
}

int oc_ui_thread_cpu(const struct oc_kernel *k, const struct oc_ui_thread *t)
{
	int cpu = t->cpu >= 0 ? t->cpu : t->task ? t->task->running_on : -1;

	if (cpu < 0 || (unsigned)cpu >= k->nr_cpus || !k->cpus[cpu].has_regs)
		return -1;
	return cpu;
}

/*
 * A comm as the dump has it may hold any byte (prctl(PR_SET_NAME)):
 * control characters and bytes past ASCII become '?', so a row keeps
 * its width and a name cannot move the cursor.
 */
static const char *printable_comm(const char *comm, char *buf)
{
	size_t i;

	for (i = 0; i < OC_COMM_LEN && comm[i]; i++)
		buf[i] = comm[i] >= ' ' && comm[i] < 127 ? comm[i] : '?';
	buf[i] = '\0';
	return buf;
}

void oc_ui_thread_name(const struct oc_ui_thread *t, char *buf, size_t size)
{
	char cpu[16] = "", comm[OC_COMM_LEN + 1];

	if (t->cpu >= 0)
		snprintf(cpu, sizeof(cpu), "CPU %d%s", t->cpu,
			 t->task ? " " : "");
	if (t->task)
		snprintf(buf, size, "%spid %d [%s]", cpu, t->task->pid,
			 printable_comm(t->task->comm, comm));
	else
		snprintf(buf, size, "%s (no task)", cpu);
}

/*
 * The "top frame" column wants the function a task is really in, not
 * the scheduler it is sleeping in.  These are the primitives every
 * sleeping task has on top of its stack (kernel/sched/core.c,
 * kernel/time/{timer,hrtimer}.c (msleep() and schedule_timeout() in
 * sleep_timeout.c since 6.13), kernel/sched/{completion,wait}.c,
 * kernel/locking/{mutex,rwsem,semaphore}.c), as fnmatch() patterns.
 */
static const char *const wait_primitives[] = {
	"__schedule", "schedule", "schedule_idle", "schedule_preempt_disabled",
	"preempt_schedule*", "__cond_resched", "_cond_resched",
	"*schedule_timeout*", "schedule_hrtimeout*", "io_schedule*",
	"__switch_to", "__switch_to_asm", "do_nanosleep", "hrtimer_nanosleep",
	"msleep*", "usleep_range*", "ssleep",
	"wait_for_*", "*_wait_*", "wait_woken", "__wait_*",
	"__mutex_lock*", "mutex_lock*", "rwsem_down_*_slowpath", "__down*",
	"down", "down_*",
};

bool oc_ui_is_wait_primitive(const char *name)
{
	for (size_t i = 0;
	     i < sizeof(wait_primitives) / sizeof(wait_primitives[0]); i++)
		if (!fnmatch(wait_primitives[i], name, 0))
			return true;
	return false;
}

/* The function of a frame: at ip - 1 for a return address (%pB). */
static bool frame_symbol(const struct oc_kernel *k, const struct oc_frame *f,
			 struct oc_sym_result *ret)
{
	return oc_kernel_symbolize_frame(k, f, ret);
}


long oc_ui_top_frame(const struct oc_kernel *k, const struct oc_trace *trace)
{
	long first = -1;

	for (size_t i = 0; i < trace->nr; i++) {
		const struct oc_frame *f = &trace->frames[i];
		struct oc_sym_result s;

		if (f->scanned)	/* a "?" word, not a frame */
			continue;
		if (first < 0)
			first = (long)i;
		if (!frame_symbol(k, f, &s) || !oc_ui_is_wait_primitive(s.name))
			return (long)i;
	}
	return first;
}

void oc_ui_format_frame_addr(const struct oc_kernel *k,
			     const struct oc_frame *f, char *buf, size_t size)
{
	struct oc_sym_result s;

	if (frame_symbol(k, f, &s))
		snprintf(buf, size, "%s+0x%" PRIx64 "/0x%" PRIx64 "%s%s%s",
			 s.name, s.offset, s.size, s.module ? " [" : "",
			 s.module ? s.module : "", s.module ? "]" : "");
	else
		snprintf(buf, size, "0x%" PRIx64, f->ip);
}

void oc_ui_thread_set_trace(const struct oc_kernel *k, struct oc_ui_thread *t,
			    struct oc_trace *trace)
{
	oc_ui_thread_deinit(t);
	t->trace = *trace;
	t->info = calloc(t->trace.nr ? t->trace.nr : 1, sizeof(*t->info));
	oc_trace_init(trace);
	t->trace_state = OC_UI_TRACE_READY;
	t->error[0] = '\0';
	t->top_frame = oc_ui_top_frame(k, &t->trace);
	if (t->top_frame >= 0)
		oc_ui_format_frame_addr(k, &t->trace.frames[t->top_frame],
					t->top, sizeof(t->top));
	else
		snprintf(t->top, sizeof(t->top), "(no frames)");
}

void oc_ui_thread_set_error(struct oc_ui_thread *t, const char *message)
{
	oc_ui_thread_deinit(t);
	t->trace_state = OC_UI_TRACE_FAILED;
	t->top_frame = -1;
	snprintf(t->error, sizeof(t->error), "%s", message);
	snprintf(t->top, sizeof(t->top), "(error: %s)", message);
}

struct oc_error *oc_ui_thread_set_lines(struct oc_ui_thread *t, size_t frame,
					const struct oc_line_info *chain,
					size_t nr, const char *why)
{
	struct oc_ui_frame_info *fi;

	if (t->trace_state != OC_UI_TRACE_READY || !t->info ||
	    frame >= t->trace.nr)
		return NULL;
	fi = &t->info[frame];
	free(fi->chain);
	fi->chain = NULL;
	fi->nr = 0;
	fi->ready = true;
	fi->why = nr ? NULL : why;
	if (!nr)
		return NULL;
	fi->chain = malloc(nr * sizeof(*chain));
	if (!fi->chain)
		return &oc_enomem;
	memcpy(fi->chain, chain, nr * sizeof(*chain));
	fi->nr = nr;
	return NULL;
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

bool oc_ui_thread_matches(const struct oc_kernel *k,
			  const struct oc_ui_thread *t, const char *query,
			  long *frame_ret)
{
	*frame_ret = -1;
	if (!*query)
		return false;
	if (t->task) {
		if (all_digits(query) && t->task->pid == atoi(query))
			return true;
		if (strcasestr(t->task->comm, query))
			return true;
	}
	if (t->trace_state != OC_UI_TRACE_READY)
		return false;
	for (size_t i = 0; i < t->trace.nr; i++) {
		struct oc_sym_result s;

		if (frame_symbol(k, &t->trace.frames[i], &s) &&
		    strstr(s.name, query)) {
			*frame_ret = (long)i;
			return true;
		}
	}
	return false;
}

void oc_ui_threads_heading(char *buf, size_t size)
{
	snprintf(buf, size, "%-5s %7s %4s %-2s %-16s %s", "", "PID", "CPU",
		 "ST", "COMM", "TOP FRAME");
}

static void thread_row(const struct oc_ui_thread *t, char *buf, size_t size)
{
	char kind[16] = "", pid[16] = "-", cpu[16] = "", st[4] = "";
	char name[OC_COMM_LEN + 1];
	const char *comm = "", *top;

	if (t->cpu >= 0)
		snprintf(kind, sizeof(kind), "CPU%d%s", t->cpu,
			 t->panic ? "!" : "");
	if (t->task) {
		snprintf(pid, sizeof(pid), "%d", t->task->pid);
		snprintf(cpu, sizeof(cpu), "%d%s", t->task->cpu,
			 t->task->running_on >= 0 ? "*" : "");
		snprintf(st, sizeof(st), "%c",
			 t->task->state > ' ' && t->task->state < 127 ?
			 t->task->state : '?');
		comm = printable_comm(t->task->comm, name);
	} else if (t->cpu >= 0) {
		snprintf(cpu, sizeof(cpu), "%d", t->cpu);
	}
	top = t->trace_state == OC_UI_TRACE_PENDING && !t->dropped ? "..." :
	      t->top;
	snprintf(buf, size, "%-5s %7s %4s %-2s %-16s %s", kind, pid, cpu, st,
		 comm, top);
}

struct oc_error *oc_ui_threads_lines(const struct oc_ui_threads *th,
				     struct oc_ui_lines *lines)
{
	char buf[OC_UI_LINE_MAX];

	oc_ui_lines_clear(lines);
	for (size_t i = 0; i < th->nr_shown; i++) {
		const struct oc_ui_thread *t = &th->v[th->shown[i]];
		enum oc_ui_style style = t->panic ? OC_STYLE_PANIC :
					 t->trace_state == OC_UI_TRACE_FAILED ?
					 OC_STYLE_ERROR : OC_STYLE_NORMAL;
		struct oc_error *err;

		thread_row(t, buf, sizeof(buf));
		err = oc_ui_lines_add(lines, style, (long long)th->shown[i],
				      "%s", buf);
		if (err)
			return err;
	}
	return NULL;
}

/* ---- frames ---- */

static struct oc_error *separator(struct oc_ui_lines *lines, bool close,
				  enum oc_stack_type type)
{
	return oc_ui_lines_add(lines, OC_STYLE_SEPARATOR, -1, "%s%s>",
			       close ? "</" : "<", oc_stack_name(type));
}

/* "  file:line" after a frame's row, the base name alone if the whole
 * name would make the row wider than @width. */
static void file_suffix(const char *row, const struct oc_line_info *e,
			int width, char *buf, size_t size)
{
	const char *file = oc_lines_short_file(e->file), *base;

	snprintf(buf, size, "  %s:%u", file, e->line);
	if (width > 0 && strlen(row) + strlen(buf) > (size_t)width) {
		base = strrchr(file, '/');
		snprintf(buf, size, "  %s:%u", base ? base + 1 : file, e->line);
	}
}

struct oc_error *oc_ui_frame_lines(const struct oc_kernel *k,
				   const struct oc_ui_thread *t,
				   const struct oc_ui_frame_opts *opts,
				   struct oc_ui_lines *lines)
{
	static const struct oc_ui_frame_opts defaults = { .files = true };
	const struct oc_trace *tr = &t->trace;
	enum oc_stack_type cur = OC_STACK_UNKNOWN;
	struct oc_error *err = NULL;
	char buf[256], row[OC_UI_LINE_MAX], file[OC_UI_LINE_MAX];

	if (!opts)
		opts = &defaults;
	oc_ui_lines_clear(lines);
	if (t->trace_state == OC_UI_TRACE_PENDING)
		return oc_ui_lines_add(lines, OC_STYLE_DIM, -1, "unwinding...");
	if (t->trace_state == OC_UI_TRACE_FAILED)
		return oc_ui_lines_add(lines, OC_STYLE_ERROR, -1,
				       "no trace: %s", t->error);
	for (size_t i = 0; i < tr->nr && !err; i++) {
		const struct oc_frame *f = &tr->frames[i];
		const struct oc_ui_frame_info *fi = t->info ? &t->info[i] : NULL;
		size_t nr = fi && fi->ready ? fi->nr : 0;
		enum oc_ui_style style = OC_STYLE_NORMAL;
		const char *mark = "";

		if (f->stack != cur) {
			if (cur != OC_STACK_UNKNOWN)
				err = separator(lines, true, cur);
			if (!err && f->stack != OC_STACK_UNKNOWN)
				err = separator(lines, false, f->stack);
			if (err)
				break;
			cur = f->stack;
		}
		/* the inlined functions first, innermost first (drgn, and
		 * the batch report's order) */
		for (size_t j = 0; j + 1 < nr && !err; j++) {
			const struct oc_line_info *e = &fi->chain[j];

			snprintf(row, sizeof(row), "     %s%s (inlined)",
				 f->scanned ? "? " : "",
				 e->function ? e->function : "?");
			file[0] = '\0';
			if (opts->files && e->file)
				file_suffix(row, e, opts->width, file,
					    sizeof(file));
			err = oc_ui_lines_add(lines, !f->reliable || f->scanned ?
					      OC_STYLE_DIM : OC_STYLE_NORMAL,
					      (long long)i, "%s%s", row, file);
			if (!err)
				lines->v[lines->nr - 1].level = (int)j;
		}
		if (err)
			break;
		if (f->regs_kind == OC_REGS_FULL && (f->regs.cs & 3) == 3) {
			mark = "  [pt_regs, user mode]";
			style = OC_STYLE_MARK;
		} else if (f->regs_kind == OC_REGS_FULL) {
			mark = f->regs_addr ? "  [pt_regs]" : "  [crash regs]";
			style = OC_STYLE_MARK;
		} else if (f->regs_kind == OC_REGS_PARTIAL) {
			mark = "  [iret frame]";
			style = OC_STYLE_MARK;
		}
		/* "?" for the scan's entries, as the kernel prints them;
		 * dimmed also for unwound frames that are not reliable
		 * (after a resynchronisation) */
		if (!f->reliable || f->scanned)
			style = OC_STYLE_DIM;
		oc_ui_format_frame_addr(k, f, buf, sizeof(buf));
		snprintf(row, sizeof(row), "#%-3zu %s%s%s", i,
			 f->scanned ? "? " : "", buf, mark);
		file[0] = '\0';
		if (opts->files && nr && fi->chain[nr - 1].file)
			file_suffix(row, &fi->chain[nr - 1], opts->width, file,
				    sizeof(file));
		err = oc_ui_lines_add(lines, style, (long long)i, "%s%s", row,
				      file);
	}
	if (!err && cur != OC_STACK_UNKNOWN)
		err = separator(lines, true, cur);
	if (!err && (!tr->reliable || tr->stop == OC_STOP_ERROR ||
		     tr->stop == OC_STOP_FRAME_LIMIT)) {
		oc_trace_stop_string(tr, buf, sizeof(buf));
		err = oc_ui_lines_add(lines, OC_STYLE_ERROR, -1,
				      "(unreliable: %s)", buf);
	}
	return err;
}

/* ---- registers ---- */

/* A vmlinux data address (_stext .. _end) as "symbol+0xoff". */
static bool vmlinux_data(const struct oc_kernel *k, uint64_t v, char *buf,
			 size_t size)
{
	const struct oc_symbol *end = oc_symtab_find(&k->syms, "_end");
	struct oc_sym_result s;

	if (!end || v < k->text_start || v >= oc_symtab_addr(&k->syms, end) ||
	    !oc_kernel_symbolize(k, v, &s) || s.module)
		return false;
	snprintf(buf, size, "%s+0x%" PRIx64, s.name, s.offset);
	return true;
}

/* What a register or stack word points at: text, vmlinux data, or a
 * stack. */
static void annotate(const struct oc_kernel *k, const struct oc_ui_thread *t,
		     uint64_t v, char *buf, size_t size)
{
	struct oc_stack_info si;
	int cpu = oc_ui_thread_cpu(k, t);

	buf[0] = '\0';
	if (v < 0xffff800000000000ULL)	/* not a kernel address */
		return;
	if (oc_kernel_is_text(k, v)) {
		oc_report_format_addr(k, v, buf, size);
		return;
	}
	if (vmlinux_data(k, v, buf, size))
		return;
	if (oc_kernel_stack_info(k, cpu >= 0 ? NULL : t->task, cpu, v, &si))
		snprintf(buf, size, "-> %s stack +0x%" PRIx64,
			 oc_stack_name(si.type), v - si.begin);
}

static struct oc_error *reg_line(const struct oc_kernel *k,
				 const struct oc_ui_thread *t,
				 struct oc_ui_lines *lines, const char *name,
				 uint64_t v, bool resolve)
{
	char note[256] = "";

	struct oc_error *err;

	if (resolve)
		annotate(k, t, v, note, sizeof(note));
	err = oc_ui_lines_add(lines, OC_STYLE_NORMAL, -1, "%-6s %016" PRIx64
			      "%s%s", name, v, note[0] ? " " : "", note);
	if (!err)
		lines->v[lines->nr - 1].value = v;	/* for Enter: a struct there */
	return err;
}

struct oc_error *oc_ui_regs_lines(const struct oc_kernel *k,
				  const struct oc_ui_thread *t, size_t frame,
				  struct oc_ui_lines *lines)
{
	const struct oc_frame *f;
	const struct oc_regs *r;
	struct oc_error *err;

	oc_ui_lines_clear(lines);
	if (t->trace_state != OC_UI_TRACE_READY || frame >= t->trace.nr)
		return oc_ui_lines_add(lines, OC_STYLE_DIM, -1, "no frame");
	f = &t->trace.frames[frame];
	r = &f->regs;
	if (f->regs_kind == OC_REGS_FULL && !f->regs_addr)
		err = oc_ui_lines_add(lines, OC_STYLE_TITLE, -1,
				      "#%zu registers saved at the crash", frame);
	else if (f->regs_kind == OC_REGS_FULL)
		err = oc_ui_lines_add(lines, OC_STYLE_TITLE, -1,
				      "#%zu pt_regs at %016" PRIx64, frame,
				      f->regs_addr);
	else if (f->regs_kind == OC_REGS_PARTIAL)
		err = oc_ui_lines_add(lines, OC_STYLE_TITLE, -1,
				      "#%zu iret frame at %016" PRIx64, frame,
				      f->regs_addr);
	else
		err = oc_ui_lines_add(lines, OC_STYLE_TITLE, -1,
				      "#%zu frame (no saved registers)", frame);
	if (err)
		return err;
	if (f->regs_kind == OC_REGS_NONE) {
		char buf[256];
		struct {
			const char *name;
			uint64_t v;
		} regs[] = { { "RIP", f->ip }, { "RSP", f->sp },
			     { "RBP", f->bp } };

		for (size_t i = 0; i < 2; i++)
			if ((err = reg_line(k, t, lines, regs[i].name,
					    regs[i].v, true)))
				return err;
		if (f->bp_unknown)
			err = oc_ui_lines_add(lines, OC_STYLE_NORMAL, -1,
					      "%-6s unknown (no rule restores it here)",
					      regs[2].name);
		else
			err = reg_line(k, t, lines, regs[2].name, regs[2].v,
				       true);
		if (err)
			return err;
		if (!f->ip_addr)
			return NULL;
		oc_ui_format_frame_addr(k, f, buf, sizeof(buf));
		return oc_ui_lines_add(lines, OC_STYLE_DIM, -1,
				       "return address at %016" PRIx64 " (%s)",
				       f->ip_addr, oc_stack_name(f->stack));
	}
	{
		/* __show_regs() order; the iret frame is the last five */
		const struct {
			const char *name;
			uint64_t v;
			bool full;	/* only in a whole pt_regs */
			bool resolve;
		} regs[] = {
			{ "RIP", r->ip, false, true },
			{ "CS", r->cs, false, false },
			{ "EFLAGS", r->flags, false, false },
			{ "RSP", r->sp, false, true },
			{ "SS", r->ss, false, false },
			{ "RAX", r->ax, true, true },
			{ "RBX", r->bx, true, true },
			{ "RCX", r->cx, true, true },
			{ "RDX", r->dx, true, true },
			{ "RSI", r->si, true, true },
			{ "RDI", r->di, true, true },
			{ "RBP", r->bp, true, true },
			{ "R08", r->r8, true, true },
			{ "R09", r->r9, true, true },
			{ "R10", r->r10, true, true },
			{ "R11", r->r11, true, true },
			{ "R12", r->r12, true, true },
			{ "R13", r->r13, true, true },
			{ "R14", r->r14, true, true },
			{ "R15", r->r15, true, true },
			{ "ORIG_RAX", r->orig_ax, true, false },
		};

		for (size_t i = 0; i < sizeof(regs) / sizeof(regs[0]); i++) {
			if (regs[i].full && f->regs_kind != OC_REGS_FULL)
				continue;
			err = reg_line(k, t, lines, regs[i].name, regs[i].v,
				       regs[i].resolve);
			if (err)
				return err;
		}
	}
	return NULL;
}

/* ---- stack memory ---- */

static void word_note(const struct oc_kernel *k, const struct oc_ui_thread *t,
		      uint64_t addr, uint64_t v, char *buf, size_t size,
		      enum oc_ui_style *style)
{
	const struct oc_trace *tr = &t->trace;
	char sym[200];

	for (size_t j = 0; j < tr->nr; j++) {
		const struct oc_frame *f = &tr->frames[j];

		if (f->ip_addr == addr && f->ip == v && !f->scanned &&
		    f->regs_kind == OC_REGS_NONE) {
			oc_ui_format_frame_addr(k, f, sym, sizeof(sym));
			snprintf(buf, size, "<- #%zu return to %s", j, sym);
			*style = OC_STYLE_MARK;
			return;
		}
		if (f->regs_addr == addr && f->regs_kind != OC_REGS_NONE) {
			snprintf(buf, size, "<- #%zu %s starts here", j,
				 f->regs_kind == OC_REGS_FULL ? "pt_regs" :
				 "iret frame");
			*style = OC_STYLE_MARK;
			return;
		}
	}
	*style = OC_STYLE_NORMAL;
	annotate(k, t, v, sym, sizeof(sym));
	if (sym[0] && oc_kernel_is_text(k, v))
		snprintf(buf, size, "? %s", sym);
	else
		snprintf(buf, size, "%s", sym);
}

struct oc_error *oc_ui_memory_lines(const struct oc_kernel *k,
				    const struct oc_ui_thread *t, size_t frame,
				    size_t max_words, struct oc_ui_lines *lines,
				    struct oc_error **fault_ret)
{
	const struct oc_frame *f;
	struct oc_stack_info si;
	uint64_t start, end;
	int cpu = oc_ui_thread_cpu(k, t);
	struct oc_error *err;

	*fault_ret = NULL;
	oc_ui_lines_clear(lines);
	if (t->trace_state != OC_UI_TRACE_READY || frame >= t->trace.nr)
		return oc_ui_lines_add(lines, OC_STYLE_DIM, -1, "no frame");
	f = &t->trace.frames[frame];
	start = f->sp & ~(uint64_t)7;
	if (oc_kernel_stack_info(k, cpu >= 0 ? NULL : t->task, cpu, start,
				 &si)) {
		end = si.end;
		err = oc_ui_lines_add(lines, OC_STYLE_TITLE, -1,
				      "#%zu sp %016" PRIx64 " on the %s stack "
				      "[%016" PRIx64 ", %016" PRIx64 ")",
				      frame, f->sp, oc_stack_name(si.type),
				      si.begin, si.end);
	} else {
		end = UINT64_MAX;
		err = oc_ui_lines_add(lines, OC_STYLE_TITLE, -1,
				      "#%zu sp %016" PRIx64 " on no known stack",
				      frame, f->sp);
	}
	if (err)
		return err;
	for (size_t n = 0; n < max_words && start < end; n++, start += 8) {
		enum oc_ui_style style;
		char note[OC_UI_LINE_MAX - 64], sp[24] = "";
		uint64_t v;

		*fault_ret = oc_mem_read_u64(&k->mem, start, &v);
		if (*fault_ret) {
			char msg[192];

			oc_error_string(*fault_ret, msg, sizeof(msg));
			return oc_ui_lines_add(lines, OC_STYLE_ERROR, -1,
					       "%016" PRIx64 ": unreadable (%s)",
					       start, msg);
		}
		for (size_t j = 0; j < t->trace.nr; j++)
			if (t->trace.frames[j].sp == start &&
			    !t->trace.frames[j].scanned) {
				snprintf(sp, sizeof(sp), "sp#%zu", j);
				break;
			}
		word_note(k, t, start, v, note, sizeof(note), &style);
		err = oc_ui_lines_add(lines, style, (long long)start,
				      "%-6s %016" PRIx64 ": %016" PRIx64 "  %s",
				      sp, start, v, note);
		if (err)
			return err;
		lines->v[lines->nr - 1].value = v;
		if (start + 8 < start)
			break;
	}
	return NULL;
}

/* ---- source lines ---- */

struct oc_error *oc_ui_source_lines(const struct oc_line_info *chain,
				    size_t nr, const char *why,
				    struct oc_ui_lines *lines)
{
	struct oc_error *err = NULL;

	if (!nr)
		return oc_ui_lines_add(lines, OC_STYLE_DIM, -1, "source: %s",
				       why ? why : "no line information");
	for (size_t i = 0; i < nr && !err; i++) {
		const struct oc_line_info *c = &chain[i];
		const char *fn = c->function ? c->function : "?";
		const char *tail = c->inlined ? ", inlined" : "";

		if (c->file)
			err = oc_ui_lines_add(lines, OC_STYLE_MARK, -1,
					      "at %s:%u (%s%s)",
					      oc_lines_short_file(c->file),
					      c->line, fn, tail);
		else
			err = oc_ui_lines_add(lines, OC_STYLE_MARK, -1,
					      "in %s%s", fn, tail);
	}
	return err;
}

struct oc_error *oc_ui_source_view(size_t frame, const struct oc_line_info *e,
				   const struct oc_ui_source *src,
				   const char *why, size_t context,
				   struct oc_ui_lines *lines,
				   size_t *current_ret)
{
	char text[OC_UI_LINE_MAX - 8];
	struct oc_error *err;
	size_t from, to;

	*current_ret = 0;
	/* the file name last: a narrow pane cuts that, not the line */
	err = oc_ui_lines_add(lines, OC_STYLE_TITLE, -1, "#%zu %s%s, line %u: %s",
			      frame, e->function ? e->function : "?",
			      e->inlined ? " (inlined)" : "", e->line,
			      e->file ? oc_lines_short_file(e->file) : "?");
	if (err)
		return err;
	if (!src || !e->line || e->line > src->nr)
		return oc_ui_lines_add(lines, OC_STYLE_DIM, -1, "source: %s",
				       why ? why : src ? "no such line in the file" :
				       "not read");
	from = e->line > context ? e->line - context : 1;
	to = e->line + context < src->nr ? e->line + context : src->nr;
	for (size_t n = from; n <= to; n++) {
		bool here = n == e->line;

		oc_ui_source_line(src, n, text, sizeof(text));
		if (here)
			*current_ret = lines->nr;
		err = oc_ui_lines_add(lines, here ? OC_STYLE_MARK : OC_STYLE_NORMAL,
				      -1, "%5zu%c %s", n, here ? '>' : ' ', text);
		if (err)
			return err;
	}
	return NULL;
}

struct oc_error *oc_ui_vars_lines(const struct oc_framevars *fv, int level,
				  struct oc_ui_lines *lines)
{
	const struct oc_framevars_level *l;
	char buf[OC_UI_LINE_MAX];
	struct oc_error *err;
	size_t i;

	if (!fv || fv->unavailable || !fv->nr_levels)
		return oc_ui_lines_add(lines, OC_STYLE_DIM, -1, "variables: %s",
				       fv && fv->unavailable ? fv->unavailable :
				       "none known");
	i = level >= 0 && (size_t)level < fv->nr_levels ? (size_t)level :
	    fv->nr_levels - 1;
	l = &fv->levels[i];
	err = oc_ui_lines_add(lines, OC_STYLE_TITLE, -1, "variables of %s%s:",
			      l->function ? l->function : "?",
			      l->inlined ? " (inlined)" : "");
	if (!err && !l->nr_vars)
		err = oc_ui_lines_add(lines, OC_STYLE_DIM, -1,
				      "  (no parameters or locals here)");
	for (size_t v = 0; v < l->nr_vars && !err; v++) {
		const struct oc_framevar *var = &l->vars[v];

		oc_framevar_format(var, buf, sizeof(buf));
		err = oc_ui_lines_add(lines, var->status == OC_FRAMEVAR_VALUE ||
				      var->status == OC_FRAMEVAR_IN_MEMORY ?
				      OC_STYLE_NORMAL : OC_STYLE_DIM, -1, "  %s",
				      buf);
	}
	return err;
}

struct oc_error *oc_ui_lines_insert(struct oc_ui_lines *lines, size_t pos,
				    const struct oc_ui_lines *more)
{
	size_t old = lines->nr;

	if (pos > old)
		pos = old;
	/* grow through the one allocator, then move the tail up */
	for (size_t i = 0; i < more->nr; i++) {
		struct oc_error *err = oc_ui_lines_add(lines, OC_STYLE_NORMAL,
						       -1, "%s", "");

		if (err) {
			lines->nr = old;
			return err;
		}
	}
	memmove(&lines->v[pos + more->nr], &lines->v[pos],
		(old - pos) * sizeof(*lines->v));
	memcpy(&lines->v[pos], more->v, more->nr * sizeof(*lines->v));
	return NULL;
}

/* ---- log, help, footer ---- */

struct oc_error *oc_ui_log_lines(const struct oc_log *log,
				 struct oc_ui_lines *lines)
{
	oc_ui_lines_clear(lines);
	for (size_t i = 0; i < log->nr; i++) {
		const struct oc_log_record *r = &log->records[i];
		enum oc_ui_style style = r->level <= 3 ? OC_STYLE_ERROR :
					 r->level >= 7 ? OC_STYLE_DIM :
					 OC_STYLE_NORMAL;
		size_t pos = 0;

		do {
			char text[OC_UI_LINE_MAX - 20];
			struct oc_error *err;
			const char *nl = memchr(r->text + pos, '\n', r->len - pos);
			size_t end = nl ? (size_t)(nl - r->text) : r->len;

			/* the escapes of --log (formats/strutil.h); a long line is cut */
			oc_str_escape(text, sizeof(text), r->text + pos,
				      end - pos, 0);
			pos = end;
			err = oc_ui_lines_add(lines, style, (long long)i,
					      "[%5" PRIu64 ".%06" PRIu64 "] %s",
					      r->ts_nsec / 1000000000,
					      r->ts_nsec % 1000000000 / 1000,
					      text);
			if (err)
				return err;
			pos++;	/* the '\n' */
		} while (pos < r->len);
	}
	return NULL;
}

struct oc_error *oc_ui_help_lines(struct oc_ui_lines *lines)
{
	static const char *const panes[] = {
		"Threads: CPUs first (the panic CPU marked '!'), then every task:",
		"  PID, CPU (task_cpu, '*' when running), state, comm and the top",
		"  frame: the first one that is not a scheduler or wait primitive.",
		"Frames: the selected thread's trace, '#N symbol+off/size [module]',",
		"  <IRQ>/<NMI>/<#DF>/<TASK> where it changes stacks, '?' entries dimmed;",
		"  file:line from the DWARF (L: on/off), inlined functions as rows of",
		"  their own, '(inlined)', before their frame.  Lines load in the",
		"  background ('lines: loading').",
		"Registers: pt_regs at exception and interrupt frames, else ip/sp/bp,",
		"  under the frame's source lines.  v: the source around the line",
		"  instead (--source DIR), for the selected inlined level too.",
		"Memory: the stack words from the frame's sp, annotated.",
	};
	char keys[64];
	struct oc_error *err;

	oc_ui_lines_clear(lines);
	err = oc_ui_lines_add(lines, OC_STYLE_TITLE, -1, "orccrash browser: keys");
	for (size_t i = 0; i < oc_ui_nr_requests && !err; i++) {
		const struct oc_ui_request_info *r = &oc_ui_requests[i];

		oc_ui_request_keys(r->req, keys, sizeof(keys));
		err = oc_ui_lines_add(lines, OC_STYLE_NORMAL, (long long)i,
				      "  %-22s %s", keys, r->help);
	}
	if (!err)
		err = oc_ui_lines_add(lines, OC_STYLE_TITLE, -1, "Panes");
	for (size_t i = 0; i < sizeof(panes) / sizeof(panes[0]) && !err; i++)
		err = oc_ui_lines_add(lines, OC_STYLE_NORMAL, -1, "  %s",
				      panes[i]);
	if (!err)
		err = oc_ui_lines_add(lines, OC_STYLE_TITLE, -1,
				      "Top frame skips");
	for (size_t i = 0;
	     i < sizeof(wait_primitives) / sizeof(wait_primitives[0]) && !err;
	     i += 6) {
		char buf[OC_UI_LINE_MAX] = "  ";
		size_t len = 2;

		for (size_t j = i; j < i + 6 &&
		     j < sizeof(wait_primitives) / sizeof(wait_primitives[0]);
		     j++)
			len += (size_t)snprintf(buf + len, sizeof(buf) - len,
						"%s ", wait_primitives[j]);
		err = oc_ui_lines_add(lines, OC_STYLE_NORMAL, -1, "%s", buf);
	}
	return err;
}

void oc_ui_footer(unsigned int contexts, char *buf, size_t size)
{
	size_t len = 0;
	char key[16];

	if (size)
		buf[0] = '\0';
	for (size_t i = 0; i < oc_ui_nr_requests; i++) {
		const struct oc_ui_request_info *r = &oc_ui_requests[i];
		int n;

		if (!r->footer || !(r->contexts & contexts))
			continue;
		/* the first key bound is the one to show */
		for (size_t j = 0; j < oc_ui_nr_keys; j++)
			if (oc_ui_keys[j].req == r->req) {
				oc_ui_key_name(oc_ui_keys[j].key, key,
					       sizeof(key));
				break;
			}
		n = snprintf(buf + len, size - len, "%s%s %s", len ? "  " : "",
			     key, r->name);
		if (n < 0 || (size_t)n >= size - len) {
			buf[len] = '\0';
			break;
		}
		len += (size_t)n;
	}
}

/* ---- waits ---- */

static long long thread_of(const struct oc_ui_threads *th,
			   const struct oc_task *t)
{
	for (size_t i = th->nr_cpus; t && i < th->nr; i++)
		if (th->v[i].task == t)
			return (long long)i;
	return -1;
}

struct oc_error *oc_ui_waits_lines(const struct oc_waits *w,
				   const struct oc_ui_threads *th,
				   struct oc_ui_lines *lines)
{
	struct oc_error *err = NULL;
	char chain[1024], lock[1100], comm[128];

	oc_ui_lines_clear(lines);
	if (!w->nr_blocked)
		return oc_ui_lines_add(lines, OC_STYLE_DIM, -1,
				       "no task in D state");
	if (w->nr_chains)
		err = oc_ui_lines_add(lines, OC_STYLE_TITLE, -1,
				      "Wait chains (deadlocks first):");
	for (size_t i = 0; i < w->nr_chains && !err; i++) {
		const struct oc_wait_chain *c = &w->chains[i];

		oc_waits_chain_string(w, c, chain, sizeof(chain));
		err = oc_ui_lines_add(lines, c->cycle ? OC_STYLE_ERROR :
				      OC_STYLE_NORMAL,
				      c->nr ? thread_of(th, w->waits[c->idx[0]].task) : -1,
				      "%s %s", c->cycle ? "DEADLOCK:" : "CHAIN:",
				      chain);
	}
	if (!err)
		err = oc_ui_lines_add(lines, OC_STYLE_TITLE, -1,
				      "Tasks in D (%zu):", w->nr_blocked);
	for (size_t i = 0; i < w->nr_blocked && !err; i++) {
		const struct oc_task_wait *tw = &w->waits[i];
		char holder[200] = "";

		if (tw->kind == OC_WAIT_NONE) {
			snprintf(lock, sizeof(lock), "sleeps in %s (no lock found)",
				 tw->sleeps_in[0] ? tw->sleeps_in : "?");
		} else {
			oc_waits_lock_string(tw, chain, sizeof(chain));
			snprintf(lock, sizeof(lock), "waits on %s", chain);
		}
		if (tw->owner)
			snprintf(holder, sizeof(holder), ", held by pid %d (%s)",
				 tw->owner->pid,
				 oc_esc(comm, sizeof(comm), tw->owner->comm, 0));
		else if (tw->have_owner)
			snprintf(holder, sizeof(holder), ", held by 0x%" PRIx64,
				 tw->owner_addr);
		else if (tw->readers >= 0)
			snprintf(holder, sizeof(holder), ", held by %ld reader%s",
				 tw->readers, tw->readers == 1 ? "" : "s");
		err = oc_ui_lines_add(lines, tw->reliable ? OC_STYLE_NORMAL :
				      OC_STYLE_DIM, thread_of(th, tw->task),
				      "pid %-7d %-16s %s%s%s", tw->task->pid,
				      oc_esc(comm, sizeof(comm), tw->task->comm, 0),
				      lock, holder,
				      tw->reliable ? "" : " (unreliable)");
	}
	return err;
}
