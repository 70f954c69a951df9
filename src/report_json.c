// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The JSON report (docs/json.md), built with json-c: no hand-made JSON.
 * Addresses are strings ("0xffffffff81000000"): JSON numbers lose
 * precision above 2^53.
 */
#include <inttypes.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "dwexpr.h"
#include "framevars.h"
#include "lines.h"
#include "log.h"
#include "report.h"

static struct json_object *hex(uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
	return json_object_new_string(buf);
}

struct json_object *oc_report_log_json(const struct oc_log *log)
{
	struct json_object *lines = json_object_new_array();

	for (size_t i = 0; i < log->nr; i++) {
		struct json_object *r = json_object_new_object();

		json_object_object_add(r, "ts_nsec", json_object_new_int64((int64_t)log->records[i].ts_nsec));
		json_object_object_add(r, "level", json_object_new_int(log->records[i].level));
		json_object_object_add(r, "text", json_object_new_string_len(
			log->records[i].text, (int)log->records[i].len));
		json_object_array_add(lines, r);
	}
	return lines;
}

static struct json_object *regs_json(const struct oc_frame *f)
{
	const struct oc_regs *r = &f->regs;
	struct json_object *o = json_object_new_object();
	const struct { const char *name; uint64_t v; bool partial; } regs[] = {
		{ "ip", r->ip, true }, { "cs", r->cs, true },
		{ "flags", r->flags, true }, { "sp", r->sp, true },
		{ "ss", r->ss, true }, { "ax", r->ax, false },
		{ "bx", r->bx, false }, { "cx", r->cx, false },
		{ "dx", r->dx, false }, { "si", r->si, false },
		{ "di", r->di, false }, { "bp", r->bp, false },
		{ "r8", r->r8, false }, { "r9", r->r9, false },
		{ "r10", r->r10, false }, { "r11", r->r11, false },
		{ "r12", r->r12, false }, { "r13", r->r13, false },
		{ "r14", r->r14, false }, { "r15", r->r15, false },
		{ "orig_ax", r->orig_ax, false },
	};

	json_object_object_add(o, "kind", json_object_new_string(
		f->regs_kind == OC_REGS_FULL ? "pt_regs" : "iret"));
	for (size_t i = 0; i < sizeof(regs) / sizeof(regs[0]); i++)
		if (regs[i].partial || f->regs_kind == OC_REGS_FULL)
			json_object_object_add(o, regs[i].name, hex(regs[i].v));
	return o;
}

static struct json_object *str_or_null(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

/* --locals: one level's variables (docs/json.md) */
static struct json_object *vars_json(const struct oc_framevars_level *l)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; l && i < l->nr_vars; i++) {
		const struct oc_framevar *v = &l->vars[i];
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "name", json_object_new_string(v->name));
		json_object_object_add(o, "type", json_object_new_string(v->type));
		json_object_object_add(o, "kind", json_object_new_string(
			oc_framevar_kind_string(v->kind)));
		json_object_object_add(o, "status", json_object_new_string(
			oc_framevar_status_string(v->status)));
		json_object_object_add(o, "value", str_or_null(v->value));
		json_object_object_add(o, "raw", v->has_raw ? hex(v->raw) : NULL);
		json_object_object_add(o, "address", v->address ? hex(v->address) : NULL);
		json_object_object_add(o, "size", v->size ?
				       json_object_new_int64((int64_t)v->size) : NULL);
		json_object_object_add(o, "where", str_or_null(v->where));
		json_object_object_add(o, "why", str_or_null(v->why));
		json_object_array_add(a, o);
	}
	return a;
}

/* --locals: the callee-saved registers recovered through CFI */
static struct json_object *cfi_regs_json(const struct oc_framevars *fv)
{
	struct json_object *a = json_object_new_array();

	for (unsigned reg = 0; reg < 32; reg++) {
		char name[16];

		if (fv->cfi_regs >> reg & 1)
			json_object_array_add(a, json_object_new_string(
				oc_dwexpr_reg_name(reg, name, sizeof(name))));
	}
	return a;
}

static struct json_object *frame_json(const struct oc_kernel *k,
				      const struct oc_report_options *opts,
				      const struct oc_trace *tr, size_t index)
{
	const struct oc_frame *f = &tr->frames[index];
	struct json_object *o = json_object_new_object();
	struct oc_framevars *fv = NULL;
	struct oc_sym_result s;
	bool have = oc_kernel_symbolize_frame(k, f, &s);
	struct oc_line_info chain[16];
	size_t nr = oc_report_frame_lines(k, opts, f, chain, 16);
	const struct oc_line_info *own = nr ? &chain[nr - 1] : NULL;

	if (opts->locals && !f->scanned) {
		struct oc_error *err = oc_framevars_get(k, opts->lines, tr,
							index, NULL, &fv);

		oc_error_destroy(err);	/* out of memory: no variables */
	}

	json_object_object_add(o, "ip", hex(f->ip));
	json_object_object_add(o, "sp", hex(f->sp));
	json_object_object_add(o, "symbol", have ? json_object_new_string(s.name) : NULL);
	json_object_object_add(o, "offset", have ? json_object_new_int64((int64_t)s.offset) : NULL);
	json_object_object_add(o, "size", have ? json_object_new_int64((int64_t)s.size) : NULL);
	json_object_object_add(o, "module", s.module ? json_object_new_string(s.module) : NULL);
	json_object_object_add(o, "stack", json_object_new_string(oc_stack_json_name(f->stack)));
	json_object_object_add(o, "reliable", json_object_new_boolean(f->reliable));
	json_object_object_add(o, "scanned", json_object_new_boolean(f->scanned));
	json_object_object_add(o, "how", json_object_new_string(oc_frame_how_name(f->how)));
	json_object_object_add(o, "file", own && own->file ?
			       json_object_new_string(oc_lines_short_file(own->file)) : NULL);
	json_object_object_add(o, "line", own ? json_object_new_int((int)own->line) : NULL);
	if (nr > 1) {
		/* the inlined functions the ip is in, innermost first */
		struct json_object *in = json_object_new_array();

		for (size_t i = 0; i + 1 < nr; i++) {
			struct json_object *e = json_object_new_object();

			json_object_object_add(e, "function", chain[i].function ?
					       json_object_new_string(chain[i].function) : NULL);
			json_object_object_add(e, "file", chain[i].file ?
					       json_object_new_string(oc_lines_short_file(chain[i].file)) : NULL);
			json_object_object_add(e, "line", json_object_new_int((int)chain[i].line));
			if (fv && !fv->unavailable)
				json_object_object_add(e, "variables", vars_json(
					i + 1 < fv->nr_levels ? &fv->levels[i] : NULL));
			json_object_array_add(in, e);
		}
		json_object_object_add(o, "inlines", in);
	}
	json_object_object_add(o, "regs", f->regs_kind != OC_REGS_NONE ? regs_json(f) : NULL);
	if (fv) {
		/* the containing function's (the innermost levels are under
		 * "inlines"; a level the lines had no entry for comes here) */
		struct json_object *a = vars_json(NULL);

		size_t from = nr ? nr - 1 : 0;

		if (fv->nr_levels && from >= fv->nr_levels)
			from = fv->nr_levels - 1;
		for (size_t i = from; !fv->unavailable && i < fv->nr_levels;
		     i++) {
			struct json_object *lv = vars_json(&fv->levels[i]);

			for (size_t n = 0; n < json_object_array_length(lv); n++)
				json_object_array_add(a, json_object_get(
					json_object_array_get_idx(lv, n)));
			json_object_put(lv);
		}
		json_object_object_add(o, "variables", a);
		json_object_object_add(o, "variables_unavailable",
				       str_or_null(fv->unavailable));
		json_object_object_add(o, "cfi_registers", cfi_regs_json(fv));
		json_object_object_add(o, "cfi_note", str_or_null(fv->cfi_note));
		oc_framevars_free(fv);
	}
	return o;
}

/* Adds "frames", "stop", "reliable" (and "error" on failure) to @o. */
static bool add_trace(const struct oc_kernel *k,
		      const struct oc_report_options *opts,
		      struct json_object *o, struct oc_error *err,
		      const struct oc_trace *tr)
{
	struct json_object *frames = json_object_new_array();
	char buf[256];

	if (err) {
		oc_error_string(err, buf, sizeof(buf));
		oc_error_destroy(err);
		json_object_object_add(o, "frames", frames);
		json_object_object_add(o, "stop", json_object_new_string("error"));
		json_object_object_add(o, "error", json_object_new_string(buf));
		json_object_object_add(o, "reliable", json_object_new_boolean(false));
		return false;
	}
	for (size_t i = 0; i < tr->nr; i++)
		json_object_array_add(frames, frame_json(k, opts, tr, i));
	json_object_object_add(o, "frames", frames);
	oc_trace_stop_string(tr, buf, sizeof(buf));
	json_object_object_add(o, "stop", json_object_new_string(buf));
	json_object_object_add(o, "reliable", json_object_new_boolean(tr->reliable));
	return tr->reliable;
}

static struct json_object *kernel_json(const struct oc_kernel *k,
				       const struct oc_log *log)
{
	struct json_object *o = json_object_new_object(), *panic, *warn;
	const struct oc_task *pt = k->panic_cpu >= 0 ? k->cpus[k->panic_cpu].task : NULL;
	char msg[256] = "";

	json_object_object_add(o, "release", json_object_new_string(k->release));
	json_object_object_add(o, "banner", json_object_new_string(k->banner));
	json_object_object_add(o, "kaslr_offset", hex(k->kaslr_offset));
	json_object_object_add(o, "cpus", json_object_new_int((int)k->nr_cpus));
	json_object_object_add(o, "orc_version",
			       json_object_new_string(oc_orc_version_name(k->orc_version)));
	panic = json_object_new_object();
	json_object_object_add(panic, "cpu", k->panic_cpu >= 0 ?
			       json_object_new_int(k->panic_cpu) : NULL);
	json_object_object_add(panic, "pid", pt ? json_object_new_int(pt->pid) : NULL);
	if (k->panic_message[0])
		snprintf(msg, sizeof(msg), "%s", k->panic_message);
	else if (log)
		oc_log_panic_message(log, msg, sizeof(msg));
	json_object_object_add(panic, "message", msg[0] ? json_object_new_string(msg) : NULL);
	json_object_object_add(o, "panic", panic);
	warn = json_object_new_array();
	for (unsigned int i = 0; i < k->nr_warnings; i++)
		json_object_array_add(warn, json_object_new_string(k->warnings[i]));
	json_object_object_add(o, "warnings", warn);
	return o;
}

static struct json_object *task_json(const struct oc_task *t)
{
	struct json_object *o = json_object_new_object();
	char st[2] = { t->state, 0 };

	json_object_object_add(o, "pid", json_object_new_int(t->pid));
	json_object_object_add(o, "tgid", json_object_new_int(t->tgid));
	json_object_object_add(o, "ppid", json_object_new_int(t->ppid));
	json_object_object_add(o, "comm", json_object_new_string(t->comm));
	json_object_object_add(o, "state", json_object_new_string(st));
	json_object_object_add(o, "cpu", json_object_new_int(t->cpu));
	json_object_object_add(o, "on_cpu", json_object_new_boolean(t->running_on >= 0));
	json_object_object_add(o, "task", hex(t->addr));
	json_object_object_add(o, "kthread", json_object_new_boolean(t->kthread));
	return o;
}

static bool task_selected(const struct oc_task *t,
			  const struct oc_report_options *opts)
{
	return (opts->pid < 0 || t->pid == opts->pid) &&
	       (opts->cpu < 0 || t->running_on == opts->cpu) &&
	       (!opts->state || t->state == opts->state);
}

int oc_report_json(const struct oc_kernel *k,
		   const struct oc_report_options *opts, FILE *out)
{
	struct oc_unwind_options uo = { .scan = opts->scan };
	struct json_object *root = json_object_new_object(), *cpus, *tasks;
	struct oc_log log;
	/* tasks or memory are missing: the document is partial (exit 3) */
	bool have_log, ok = !k->tasks_incomplete && !k->modules_incomplete &&
			 !k->dump_truncated;
	struct oc_error *err = oc_kernel_read_log(k, &log);

	have_log = !err;
	oc_error_destroy(err);
	/* the document's schema version, semver (docs/json.md, docs/json-schema.json) */
	json_object_object_add(root, "version", json_object_new_string("1.1.0"));
	json_object_object_add(root, "kernel", kernel_json(k, have_log ? &log : NULL));

	cpus = json_object_new_array();
	for (unsigned int c = 0; c < k->nr_cpus; c++) {
		const struct oc_cpu *cpu = &k->cpus[c];
		struct json_object *o;
		struct oc_trace tr;

		if (opts->cpu >= 0 && (unsigned)opts->cpu != c)
			continue;
		if ((opts->pid >= 0 || opts->state) &&
		    (!cpu->task || !task_selected(cpu->task, opts)))
			continue;
		o = json_object_new_object();
		json_object_object_add(o, "cpu", json_object_new_int((int)c));
		json_object_object_add(o, "pid", cpu->task ? json_object_new_int(cpu->task->pid) : NULL);
		json_object_object_add(o, "comm", cpu->task ? json_object_new_string(cpu->task->comm) : NULL);
		json_object_object_add(o, "panic", json_object_new_boolean((int)c == k->panic_cpu));
		oc_trace_init(&tr);
		err = oc_kernel_unwind_cpu(k, c, &uo, &tr);
		ok &= add_trace(k, opts, o, err, &tr);
		oc_trace_deinit(&tr);
		json_object_array_add(cpus, o);
	}
	json_object_object_add(root, "cpus", cpus);

	tasks = json_object_new_array();
	if (!opts->active && (opts->all_tasks || opts->pid >= 0 || opts->state)) {
		for (size_t i = 0; i < k->nr_tasks; i++) {
			const struct oc_task *t = &k->tasks[i];
			struct json_object *o;
			struct oc_trace tr;

			if (!task_selected(t, opts))
				continue;
			o = task_json(t);
			oc_trace_init(&tr);
			err = oc_kernel_unwind_task(k, t, &uo, &tr);
			ok &= add_trace(k, opts, o, err, &tr);
			oc_trace_deinit(&tr);
			json_object_array_add(tasks, o);
		}
	}
	json_object_object_add(root, "tasks", tasks);
	if (opts->log && have_log)
		json_object_object_add(root, "log", oc_report_log_json(&log));
	fputs(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
					     JSON_C_TO_STRING_NOSLASHESCAPE), out);
	fputc('\n', out);
	json_object_put(root);
	if (have_log)
		oc_log_deinit(&log);
	return ok ? OC_EXIT_OK : OC_EXIT_UNRELIABLE;
}
