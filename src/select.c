// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The batch reports' selection (src/select.h): one rule for the text
 * report, the JSON report and the crash extension's JSON.
 *
 * --pid and --comm name tasks (each option adds its tasks, in the order
 * given, like ps -p/-C); --cpu and --state filter them.  The CPUs shown
 * are those asked for, or, with a task selection, those running a
 * selected task.
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "select.h"

void oc_select_options_init(struct oc_select_options *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->cpu = -1;
}

static bool which_matches(const struct oc_select_task *w,
			  const struct oc_task *t)
{
	if (w->comm)
		return !fnmatch(w->comm, t->comm, 0);
	return t->pid == w->pid;
}

/* The filters every shown task passes: --pid/--comm (any), --cpu, --state. */
static bool task_matches(const struct oc_select_options *o,
			 const struct oc_task *t)
{
	size_t i;

	for (i = 0; i < o->nr_which; i++)
		if (which_matches(&o->which[i], t))
			break;
	if (o->nr_which && i == o->nr_which)
		return false;
	if (o->cpu >= 0 && t->running_on != o->cpu)
		return false;
	return !o->state || t->state == o->state;
}

/* A user's pattern in an error line: no raw control characters. */
static void quote(const char *s, char *buf, size_t size)
{
	size_t n = 0;

	for (; *s && n + 5 < size; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f)
			n += (size_t)snprintf(buf + n, size - n, "\\x%02x", c);
		else
			buf[n++] = (char)c;
	}
	buf[n] = '\0';
}

/* Each --pid and --comm must name a task, --cpu a CPU, of the dump. */
static struct oc_error *check_exists(const struct oc_kernel *k,
				     const struct oc_select_options *o)
{
	char pat[256];

	if (o->cpu >= 0 && (unsigned int)o->cpu >= k->nr_cpus)
		return oc_error_format(OC_ERR_LOOKUP,
				       "no CPU %d (the dump has %u: 0-%u)", o->cpu,
				       k->nr_cpus, k->nr_cpus ? k->nr_cpus - 1 : 0);
	for (size_t i = 0; i < o->nr_which; i++) {
		const struct oc_select_task *w = &o->which[i];
		size_t t;

		for (t = 0; t < k->nr_tasks; t++)
			if (which_matches(w, &k->tasks[t]))
				break;
		if (t < k->nr_tasks)
			continue;
		if (!w->comm)
			return oc_error_format(OC_ERR_LOOKUP,
					       "no task with pid %d", w->pid);
		quote(w->comm, pat, sizeof(pat));
		return oc_error_format(OC_ERR_LOOKUP,
				       "no task whose comm matches '%s'", pat);
	}
	return NULL;
}

static void select_cpus(const struct oc_kernel *k,
			const struct oc_select_options *o,
			struct oc_selection *sel)
{
	for (unsigned int c = 0; c < k->nr_cpus; c++) {
		const struct oc_task *t = k->cpus[c].task;

		if (o->cpu >= 0 && (unsigned int)o->cpu != c)
			continue;
		/* a task selection shows the CPUs running a selected task */
		if ((o->nr_which || o->state) && (!t || !task_matches(o, t)))
			continue;
		sel->cpus[sel->nr_cpus++] = c;
	}
}

static void select_tasks(const struct oc_kernel *k,
			 const struct oc_select_options *o, bool *taken,
			 struct oc_selection *sel)
{
	if (!o->nr_which) {
		for (size_t t = 0; t < k->nr_tasks; t++)
			if (task_matches(o, &k->tasks[t]))
				sel->tasks[sel->nr_tasks++] = &k->tasks[t];
		return;
	}
	for (size_t i = 0; i < o->nr_which; i++) {
		for (size_t t = 0; t < k->nr_tasks; t++) {
			if (taken[t] || !which_matches(&o->which[i], &k->tasks[t]) ||
			    !task_matches(o, &k->tasks[t]))
				continue;
			taken[t] = true;
			sel->tasks[sel->nr_tasks++] = &k->tasks[t];
		}
	}
}

struct oc_error *oc_select(const struct oc_kernel *k,
			   const struct oc_select_options *opts,
			   struct oc_selection *ret)
{
	struct oc_error *err;
	bool *taken = NULL;

	memset(ret, 0, sizeof(*ret));
	err = check_exists(k, opts);
	if (err)
		return err;
	ret->cpus = calloc(k->nr_cpus ? k->nr_cpus : 1, sizeof(*ret->cpus));
	if (!ret->cpus)
		return &oc_enomem;
	select_cpus(k, opts, ret);
	ret->show_tasks = !opts->active &&
			  (opts->all_tasks || opts->nr_which || opts->state);
	if (!ret->show_tasks)
		return NULL;
	ret->tasks = calloc(k->nr_tasks ? k->nr_tasks : 1, sizeof(*ret->tasks));
	if (opts->nr_which)
		taken = calloc(k->nr_tasks ? k->nr_tasks : 1, sizeof(*taken));
	if (!ret->tasks || (opts->nr_which && !taken)) {
		free(taken);
		oc_selection_deinit(ret);
		return &oc_enomem;
	}
	select_tasks(k, opts, taken, ret);
	free(taken);
	return NULL;
}

void oc_selection_deinit(struct oc_selection *sel)
{
	free(sel->cpus);
	free(sel->tasks);
	memset(sel, 0, sizeof(*sel));
}
