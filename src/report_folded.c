// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --folded: the selected tasks' stacks in the "folded" format of the flame
 * graph tools (Brendan Gregg's stackcollapse output, read by flamegraph.pl,
 * inferno and speedscope): one line per distinct stack, its frames from
 * the outermost to the innermost joined by ';', a space and the number of
 * tasks with that stack.  Optional leading fields (--folded=state,comm)
 * turn the task's state and comm into the outermost frames.  A frame is
 * its function's name, "func [mod]" in a module, "[user]" for the user
 * mode the task entered the kernel from, "[unknown]" where no symbol
 * covers it; "?" entries found by --scan are not frames and are
 * left out.  Dump bytes that would break a line (';', control bytes) are
 * written as '_'.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "dump.h"
#include "report.h"
#include "select.h"
#include "tasktraces.h"
#include "unwind.h"

struct buf {
	char *s;
	size_t len, cap;
};

/*
 * One field of the line, after a ';' unless it is the first: what would
 * end the field or the line (';', a control byte) becomes '_'.
 */
static bool buf_field(struct buf *b, const char *s)
{
	size_t n = strlen(s);
	char *p = oc_array_grow(b->s, b->len, n + 2, &b->cap, 1, 256);

	if (!p)
		return false;
	b->s = p;
	if (b->len)
		b->s[b->len++] = ';';
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		b->s[b->len++] = c < 0x20 || c == 0x7f || c == ';' ? '_' : (char)c;
	}
	b->s[b->len] = 0;
	return true;
}

static void frame_name(const struct oc_kernel *k, const struct oc_frame *f,
		       char *out, size_t size)
{
	struct oc_sym_result s;

	if ((int64_t)f->ip >= 0)	/* where the task entered the kernel */
		snprintf(out, size, "[user]");
	else if (!oc_kernel_symbolize_frame(k, f, &s) || !s.name)
		snprintf(out, size, "[unknown]");
	else if (s.module)
		snprintf(out, size, "%s [%s]", s.name, s.module);
	else
		snprintf(out, size, "%s", s.name);
}

/* One task's line without the count; NULL when out of memory. */
static char *fold_task(const struct oc_kernel *k,
		       const struct oc_report_options *opts,
		       const struct oc_task *t, const struct oc_trace *tr)
{
	struct buf b = { 0 };
	char name[300];
	size_t frames = 0;

	for (const char *f = opts->folded_fields; f && *f; f++) {
		bool ok = true;

		if (*f == 's') {
			char st[2] = { t->state ? t->state : '?', 0 };

			ok = buf_field(&b, st);
		} else if (*f == 'c') {
			ok = buf_field(&b, t->comm[0] ? t->comm : "[no comm]");
		}
		if (!ok)
			goto oom;
	}
	for (size_t i = tr->nr; i-- > 0;) {
		const struct oc_frame *f = &tr->frames[i];

		if (f->scanned)
			continue;
		frame_name(k, f, name, sizeof(name));
		if (!buf_field(&b, name))
			goto oom;
		frames++;
	}
	/* a task whose stack could not be read (a page missing from the
	 * dump) still has a stack of its own, under its state and comm */
	if (!frames && !buf_field(&b, "[no frames]"))
		goto oom;
	return b.s;
oom:
	free(b.s);
	return NULL;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

struct oc_error *oc_report_folded_lines(const struct oc_kernel *k,
					const struct oc_report_options *opts,
					char ***lines_ret, size_t *nr_ret,
					bool *reliable)
{
	struct oc_unwind_options uo = { .scan = false };
	struct oc_task_traces *tt = NULL;
	struct oc_selection sel;
	struct oc_error *err;
	char **lines;
	size_t n = 0;

	*lines_ret = NULL;
	*nr_ret = 0;
	*reliable = true;
	err = oc_select(k, &opts->sel, &sel);
	if (err)
		return oc_error_set_path(err, oc_dump_path(k->dump));
	lines = calloc(sel.nr_tasks ? sel.nr_tasks : 1, sizeof(*lines));
	if (!lines ||
	    oc_task_traces_begin(k, sel.tasks, sel.nr_tasks, &uo, NULL, &tt))
		goto oom;
	for (size_t i = 0; i < sel.nr_tasks; i++) {
		struct oc_task_result res;
		struct oc_trace tr;

		oc_task_traces_next(tt, &res);
		tr = res.trace;
		err = res.err;
		if (err) {
			oc_error_destroy(err);
			tr.reliable = false;
		}
		if (!tr.reliable)
			*reliable = false;
		lines[n] = fold_task(k, opts, sel.tasks[i], &tr);
		oc_trace_deinit(&tr);
		if (!lines[n])
			goto oom;
		n++;
	}
	oc_task_traces_end(tt);
	tt = NULL;
	qsort(lines, n, sizeof(*lines), cmp_str);
	/* as the text report: a task list or module list not followed to
	 * its end, or a dump cut short, is an incomplete picture */
	if (k->tasks_incomplete || k->modules_incomplete || k->dump_truncated)
		*reliable = false;
	oc_selection_deinit(&sel);
	*lines_ret = lines;
	*nr_ret = n;
	return NULL;
oom:
	oc_task_traces_end(tt);
	oc_report_folded_free(lines, n);
	oc_selection_deinit(&sel);
	return &oc_enomem;
}

void oc_report_folded_free(char **lines, size_t n)
{
	oc_strv_free(lines, n);
}

struct oc_error *oc_report_folded(const struct oc_kernel *k,
				  const struct oc_report_options *opts,
				  FILE *out, bool *reliable)
{
	struct oc_error *err;
	char **lines;
	size_t n;

	oc_report_print_warnings(k, stderr);
	err = oc_report_folded_lines(k, opts, &lines, &n, reliable);
	if (err)
		return err;
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && !strcmp(lines[i], lines[j]); j++)
			;
		fprintf(out, "%s %zu\n", lines[i], j - i);
	}
	oc_report_folded_free(lines, n);
	return NULL;
}
