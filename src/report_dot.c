// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --dot: the wait-for graph in Graphviz's DOT language (docs/triage.md,
 * "The wait-for graph"): a box for each task in D that waits on a known
 * lock or completion and for each owner, an ellipse for each lock; an
 * edge "waits for" from a task to its lock, "held by" from a lock to its
 * owner.  The tasks and edges of a deadlock cycle are red.  `dot -Tsvg`
 * renders it; orccrash does not need Graphviz.
 *
 * Every label is escaped twice: the dump's bytes through the report's
 * sanitiser (no control characters), then '"' and '\' for DOT's quoted
 * strings, so a comm cannot end a string or start an escape.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "strutil.h"
#include "waits.h"

/* @s as the inside of a DOT quoted string. */
static void dot_str(FILE *out, const char *s)
{
	char e[512];

	for (const char *c = oc_esc(e, sizeof(e), s, 0); *c; c++) {
		if (*c == '"' || *c == '\\')
			fputc('\\', out);
		fputc(*c, out);
	}
}

static void task_node(const struct oc_waits *w, size_t i, bool red, FILE *out)
{
	const struct oc_task_wait *tw = &w->waits[i];
	char line[160];

	fprintf(out, "  t%d [shape=box, label=\"", tw->task->pid);
	snprintf(line, sizeof(line), "pid %d (%s) %c", tw->task->pid,
		 tw->task->comm, tw->task->state);
	dot_str(out, line);
	if (tw->next < 0 && tw->kind == OC_WAIT_NONE) {
		if (tw->task->running_on >= 0)
			snprintf(line, sizeof(line), "running on CPU %d",
				 tw->task->running_on);
		else if (tw->sleeps_in[0])
			snprintf(line, sizeof(line), "in %s", tw->sleeps_in);
		else
			line[0] = 0;
		if (line[0]) {
			fputs("\\n", out);
			dot_str(out, line);
		}
	}
	fprintf(out, "\"%s];\n", red ? ", color=red, fontcolor=red, penwidth=2" : "");
}

void oc_report_dot_graph(const struct oc_waits *w, const char *title,
			 FILE *out)
{
	bool *red = calloc(w->nr + 1, sizeof(*red));
	bool *shown = calloc(w->nr + 1, sizeof(*shown));
	char lock[256];

	fputs("digraph waits {\n  labelloc=t;\n  label=\"", out);
	dot_str(out, title);
	fputs("\";\n  node [fontname=\"monospace\"];\n  edge [fontname=\"monospace\", fontsize=10];\n", out);
	/* the cycles' tasks: from cycle_from to the chain's end */
	for (size_t c = 0; red && c < w->nr_chains; c++)
		if (w->chains[c].cycle)
			for (size_t j = w->chains[c].cycle_from; j < w->chains[c].nr; j++)
				red[w->chains[c].idx[j]] = true;
	/* the waiters and the owners they wait for */
	for (size_t i = 0; shown && i < w->nr; i++) {
		const struct oc_task_wait *tw = &w->waits[i];

		if (tw->kind == OC_WAIT_NONE)
			continue;
		shown[i] = true;
		if (tw->next >= 0)
			shown[tw->next] = true;
	}
	for (size_t i = 0; i < w->nr; i++)
		if (shown && shown[i])
			task_node(w, i, red && red[i], out);
	/* one node per lock, the first waiter's view of it */
	for (size_t i = 0; shown && i < w->nr; i++) {
		const struct oc_task_wait *tw = &w->waits[i];
		bool first = true;

		if (!shown[i] || tw->kind == OC_WAIT_NONE)
			continue;
		for (size_t j = 0; j < i && tw->have_address; j++)
			if (w->waits[j].kind != OC_WAIT_NONE && w->waits[j].have_address &&
			    w->waits[j].address == tw->address)
				first = false;
		if (first) {
			oc_waits_lock_string(tw, lock, sizeof(lock));
			if (tw->have_address)
				fprintf(out, "  l%" PRIx64, tw->address);
			else
				fprintf(out, "  u%d", tw->task->pid);
			fputs(" [shape=ellipse, label=\"", out);
			dot_str(out, lock);
			if (tw->readers >= 0)
				fprintf(out, "\\n%ld readers", tw->readers);
			fprintf(out, "\"%s];\n", red && red[i] ? ", color=red, fontcolor=red" : "");
			if (tw->owner && tw->next >= 0) {
				bool r = red && red[i] && red[tw->next];

				if (tw->have_address)
					fprintf(out, "  l%" PRIx64, tw->address);
				else
					fprintf(out, "  u%d", tw->task->pid);
				fprintf(out, " -> t%d [label=\"held by\"%s];\n",
					tw->owner->pid, r ? ", color=red, penwidth=2" : "");
			}
		}
		fprintf(out, "  t%d -> ", tw->task->pid);
		if (tw->have_address)
			fprintf(out, "l%" PRIx64, tw->address);
		else
			fprintf(out, "u%d", tw->task->pid);
		fprintf(out, " [label=\"waits for\"%s];\n",
			red && red[i] && tw->next >= 0 && red[tw->next] ?
			", color=red, penwidth=2" : "");
	}
	fputs("}\n", out);
	free(red);
	free(shown);
}

struct oc_error *oc_report_dot(const struct oc_kernel *k,
			       const struct oc_report_options *opts,
			       FILE *out, bool *reliable)
{
	struct oc_waits w;
	struct oc_error *err;
	char title[256];

	oc_report_print_warnings(k, stderr);
	err = oc_waits_compute_states(k, opts->lines, opts->blocked_states ?
				      opts->blocked_states : "D", &w);
	if (err)
		return err;
	snprintf(title, sizeof(title), "%s: who waits for whom (%zu chain%s)",
		 k->release, w.nr_chains, w.nr_chains == 1 ? "" : "s");
	oc_report_dot_graph(&w, title, out);
	oc_waits_deinit(&w);
	*reliable = !k->tasks_incomplete && !k->dump_truncated;
	return NULL;
}
