// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The JSON report (docs/json.md), built with json-c: no hand-made JSON.
 * Addresses are strings ("0xffffffff81000000"): JSON numbers lose
 * precision above 2^53.
 */
#include <inttypes.h>
#include <json-c/json.h>
#include <json-c/printbuf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dwexpr.h"
#include "framevars.h"
#include "lines.h"
#include "log.h"
#include "report.h"
#include "tasktraces.h"
#include "triage.h"
#include "strutil.h"

/*
 * Out of memory while making the document: every json-c call that can
 * fail is checked (json-c asserts on a NULL object, and prints nothing
 * for an object it cannot print), the document goes on without what
 * could not be made, and the report ends in one "out of memory" error,
 * never in a document that looks whole.  Per thread: one report a thread.
 */
static _Thread_local bool json_oom;

static struct json_object *chk(struct json_object *o)
{
	if (!o)
		json_oom = true;
	return o;
}

/*
 * A member: every key is a string literal, once per object, so json-c
 * neither copies it nor looks for it (json_object_object_add_ex()).
 */
static void add(struct json_object *o, const char *key,
		struct json_object *v)
{
	if (!o || json_object_object_add_ex(o, key, v, JSON_C_OBJECT_ADD_KEY_IS_NEW |
					    JSON_C_OBJECT_ADD_CONSTANT_KEY)) {
		json_object_put(v);
		json_oom = true;
	}
}

/* An element at the end of array @a. */
static int push(struct json_object *a, struct json_object *v)
{
	if (!a || json_object_array_add(a, v)) {
		json_object_put(v);
		json_oom = true;
		return -1;
	}
	return 0;
}

/*
 * Every string goes through the one sanitiser (formats/strutil.h): the
 * output is valid UTF-8, without DEL, C1 controls or bidi overrides;
 * json-c escapes the C0 controls (docs/json.md).
 */
/* True when oc_str_escape(OC_ESC_JSON) keeps @s as it is: printable
 * ASCII and the controls json-c escapes itself, no NUL */
static bool json_plain(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!s[i] || (unsigned char)s[i] >= 0x7f)
			return false;
	return true;
}

static struct json_object *jstr_len(const char *s, size_t len)
{
	struct json_object *o;
	char *e;

	if (json_plain(s, len))		/* no copy to make */
		return chk(json_object_new_string_len(s, (int)len));
	e = oc_str_escape_dup(s, len, OC_ESC_JSON);

	if (!e) {
		json_oom = true;
		return NULL;
	}
	o = chk(json_object_new_string(e));
	free(e);
	return o;
}

struct json_object *oc_json_chk(struct json_object *o)
{
	return chk(o);
}

void oc_json_set(struct json_object *o, const char *key, struct json_object *v)
{
	if (!o || json_object_object_add(o, key, v)) {
		json_object_put(v);
		json_oom = true;
	}
}

int oc_json_push(struct json_object *a, struct json_object *v)
{
	return push(a, v);
}

bool oc_json_oom_take(void)
{
	bool oom = json_oom;

	json_oom = false;
	return oom;
}

struct json_object *oc_json_str(const char *s)
{
	return s ? jstr_len(s, strlen(s)) : NULL;
}

struct json_object *oc_json_hex(uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
	return chk(json_object_new_string(buf));
}

/* One log record as the JSON documents have it: {ts_nsec, level, text}. */
static struct json_object *log_record_json(const struct oc_log *log, size_t i)
{
	struct json_object *r = chk(json_object_new_object());

	add(r, "ts_nsec", chk(json_object_new_int64((int64_t)log->records[i].ts_nsec)));
	add(r, "level", chk(json_object_new_int(log->records[i].level)));
	add(r, "text", jstr_len(log->records[i].text, log->records[i].len));
	return r;
}

struct json_object *oc_report_log_json(const struct oc_log *log)
{
	struct json_object *lines = chk(json_object_new_array());

	for (size_t i = 0; i < log->nr; i++)
		push(lines, log_record_json(log, i));
	return lines;
}

static struct json_object *regs_json(const struct oc_frame *f)
{
	const struct oc_regs *r = &f->regs;
	struct json_object *o = chk(json_object_new_object());
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

	add(o, "kind", oc_json_str(
		f->regs_kind == OC_REGS_FULL ? "pt_regs" : "iret"));
	for (size_t i = 0; i < sizeof(regs) / sizeof(regs[0]); i++)
		if (regs[i].partial || f->regs_kind == OC_REGS_FULL)
			add(o, regs[i].name, oc_json_hex(regs[i].v));
	return o;
}

static struct json_object *str_or_null(const char *s)
{
	return s ? oc_json_str(s) : NULL;
}

/* --locals: one level's variables (docs/json.md) */
static struct json_object *vars_json(const struct oc_framevars_level *l)
{
	struct json_object *a = chk(json_object_new_array());

	for (size_t i = 0; l && i < l->nr_vars; i++) {
		const struct oc_framevar *v = &l->vars[i];
		struct json_object *o = chk(json_object_new_object());

		add(o, "name", oc_json_str(v->name));
		add(o, "type", oc_json_str(v->type));
		add(o, "kind", oc_json_str(
			oc_framevar_kind_string(v->kind)));
		add(o, "status", oc_json_str(
			oc_framevar_status_string(v->status)));
		add(o, "value", str_or_null(v->value));
		add(o, "raw", v->has_raw ? oc_json_hex(v->raw) : NULL);
		add(o, "address", v->address ? oc_json_hex(v->address) : NULL);
		add(o, "size", v->size ?
		    chk(json_object_new_int64((int64_t)v->size)) : NULL);
		add(o, "where", str_or_null(v->where));
		add(o, "why", str_or_null(v->why));
		push(a, o);
	}
	return a;
}

/* --locals: the callee-saved registers recovered through CFI */
static struct json_object *cfi_regs_json(const struct oc_framevars *fv)
{
	struct json_object *a = chk(json_object_new_array());

	for (unsigned reg = 0; reg < 32; reg++) {
		char name[16];

		if (fv->cfi_regs >> reg & 1)
			push(a, oc_json_str(
				oc_dwexpr_reg_name(reg, name, sizeof(name))));
	}
	return a;
}

/* how every document is printed (the layout: see struct jw below) */
static const int json_flags = JSON_C_TO_STRING_PRETTY |
			      JSON_C_TO_STRING_NOSLASHESCAPE;

/*
 * The "frames" array is written as text when it is made, not as a
 * json-c tree (a tree of ~15 objects a frame, each allocated, hashed
 * and freed, was most of a --json --all-tasks run): the text is the
 * same as json-c 0.16 prints (json_object.c: json_object_object_to_
 * json_string(), _array_to_json_string(), json_escape_str()), and the
 * array object prints it through json_object_set_serializer(), indented
 * to its depth.  A frame's registers and --locals variables are made
 * as json-c objects and printed by json-c into the text (pb_json()).
 */
static void pb_put(struct printbuf *pb, const char *s, size_t len)
{
	if (printbuf_memappend(pb, s, (int)len) < 0)
		json_oom = true;
}

#define PB_LIT(pb, lit) pb_put(pb, lit, sizeof(lit) - 1)

static void pb_indent(struct printbuf *pb, int level)
{
	static const char spaces[] = "                ";

	for (int n = 2 * level; n > 0; n -= (int)sizeof(spaces) - 1)
		pb_put(pb, spaces, n < (int)sizeof(spaces) - 1 ?
		       (size_t)n : sizeof(spaces) - 1);
}

/* json-c 0.16's json_escape_str() with JSON_C_TO_STRING_NOSLASHESCAPE */
static void pb_escaped(struct printbuf *pb, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t start = 0;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		char e[7] = "\\";
		size_t n = 2;

		switch (c) {
		case '\b': e[1] = 'b'; break;
		case '\n': e[1] = 'n'; break;
		case '\r': e[1] = 'r'; break;
		case '\t': e[1] = 't'; break;
		case '\f': e[1] = 'f'; break;
		case '"': e[1] = '"'; break;
		case '\\': e[1] = '\\'; break;
		default:
			if (c >= ' ')
				continue;
			memcpy(e, "\\u00", 4);
			e[4] = hex[c >> 4];
			e[5] = hex[c & 0xf];
			n = 6;
		}
		pb_put(pb, s + start, i - start);
		pb_put(pb, e, n);
		start = i + 1;
	}
	pb_put(pb, s + start, len - start);
}

/* A string as oc_json_str() makes it, printed; NULL is null. */
static void pb_str(struct printbuf *pb, const char *s)
{
	size_t len;
	char *e;

	if (!s) {
		PB_LIT(pb, "null");
		return;
	}
	len = strlen(s);
	PB_LIT(pb, "\"");
	if (json_plain(s, len)) {
		pb_escaped(pb, s, len);
	} else if ((e = oc_str_escape_dup(s, len, OC_ESC_JSON))) {
		pb_escaped(pb, e, strlen(e));
		free(e);
	} else {
		json_oom = true;
	}
	PB_LIT(pb, "\"");
}

/* The separator, indent and "key": of an object's member at @level. */
static void pb_key(struct printbuf *pb, int level, bool *first,
		   const char *key)
{
	if (!*first)
		PB_LIT(pb, ",\n");
	*first = false;
	pb_indent(pb, level);
	PB_LIT(pb, "\"");
	pb_put(pb, key, strlen(key));
	PB_LIT(pb, "\":");
}

static void pb_int(struct printbuf *pb, int64_t v)
{
	char buf[24];
	int n = snprintf(buf, sizeof(buf), "%" PRId64, v);

	pb_put(pb, buf, (size_t)n);
}

static void pb_hex(struct printbuf *pb, uint64_t v)
{
	char buf[24];
	int n = snprintf(buf, sizeof(buf), "\"0x%" PRIx64 "\"", v);

	pb_put(pb, buf, (size_t)n);
}

static void pb_bool(struct printbuf *pb, bool v)
{
	if (v)
		PB_LIT(pb, "true");
	else
		PB_LIT(pb, "false");
}

/* @text (json-c's layout at depth 0) at depth @level: each line after
 * the first indented by 2 * @level more spaces */
static void pb_reindent(struct printbuf *pb, const char *text, size_t len,
			int level)
{
	size_t start = 0;

	for (size_t i = 0; i < len; i++) {
		if (text[i] != '\n')
			continue;
		pb_put(pb, text + start, i + 1 - start);
		pb_indent(pb, level);
		start = i + 1;
	}
	pb_put(pb, text + start, len - start);
}

/* @o (given up) as json-c prints it at depth @level; NULL is null */
static void pb_json(struct printbuf *pb, struct json_object *o, int level)
{
	size_t len = 0;
	const char *text;

	if (!o) {
		PB_LIT(pb, "null");
		return;
	}
	text = json_object_to_json_string_length(o, json_flags, &len);
	if (text)
		pb_reindent(pb, text, len, level);
	else
		json_oom = true;
	json_object_put(o);
}

/* --locals: the containing function's variables (the innermost levels
 * are under "inlines"; a level the lines had no entry for comes here) */
static struct json_object *function_vars_json(const struct oc_framevars *fv,
					      size_t nr_lines)
{
	struct json_object *a = vars_json(NULL);
	size_t from = nr_lines ? nr_lines - 1 : 0;

	if (fv->nr_levels && from >= fv->nr_levels)
		from = fv->nr_levels - 1;
	for (size_t i = from; !fv->unavailable && i < fv->nr_levels; i++) {
		struct json_object *lv = vars_json(&fv->levels[i]);

		for (size_t n = 0; n < json_object_array_length(lv); n++)
			push(a, json_object_get(json_object_array_get_idx(lv, n)));
		json_object_put(lv);
	}
	return a;
}

/* One frame (docs/json.md), as json-c would print it at depth @level */
static void pb_frame(const struct oc_kernel *k,
		     const struct oc_report_options *opts,
		     const struct oc_trace *tr, size_t index, int level,
		     struct printbuf *pb)
{
	const struct oc_frame *f = &tr->frames[index];
	struct oc_framevars *fv = NULL;
	struct oc_sym_result sr;
	struct oc_line_info chain[16];
	const struct oc_line_info *own;
	bool have, first = true;
	size_t nr;

	if (opts->locals && !f->scanned)
		/* out of memory: no variables */
		oc_error_destroy(oc_framevars_get(k, opts->lines, tr, index,
						  NULL, &fv));
	have = oc_kernel_symbolize_frame(k, f, &sr);
	nr = oc_report_frame_lines(k, opts, f, chain, 16);
	own = nr ? &chain[nr - 1] : NULL;
	PB_LIT(pb, "{\n");
	pb_key(pb, level + 1, &first, "ip");
	pb_hex(pb, f->ip);
	pb_key(pb, level + 1, &first, "sp");
	pb_hex(pb, f->sp);
	pb_key(pb, level + 1, &first, "symbol");
	pb_str(pb, have ? sr.name : NULL);
	pb_key(pb, level + 1, &first, "offset");
	if (have)
		pb_int(pb, (int64_t)sr.offset);
	else
		PB_LIT(pb, "null");
	pb_key(pb, level + 1, &first, "size");
	if (have)
		pb_int(pb, (int64_t)sr.size);
	else
		PB_LIT(pb, "null");
	pb_key(pb, level + 1, &first, "module");
	pb_str(pb, sr.module);
	pb_key(pb, level + 1, &first, "stack");
	pb_str(pb, oc_stack_json_name(f->stack));
	pb_key(pb, level + 1, &first, "reliable");
	pb_bool(pb, f->reliable);
	pb_key(pb, level + 1, &first, "scanned");
	pb_bool(pb, f->scanned);
	pb_key(pb, level + 1, &first, "how");
	pb_str(pb, oc_frame_how_name(f->how));
	pb_key(pb, level + 1, &first, "file");
	pb_str(pb, own && own->file ? oc_lines_short_file(own->file) : NULL);
	pb_key(pb, level + 1, &first, "line");
	if (own)
		pb_int(pb, (int)own->line);
	else
		PB_LIT(pb, "null");
	if (nr > 1) {
		/* the inlined functions the ip is in, innermost first */
		pb_key(pb, level + 1, &first, "inlines");
		PB_LIT(pb, "[\n");
		for (size_t i = 0; i + 1 < nr; i++) {
			bool efirst = true;

			if (i)
				PB_LIT(pb, ",\n");
			pb_indent(pb, level + 2);
			PB_LIT(pb, "{\n");
			pb_key(pb, level + 3, &efirst, "function");
			pb_str(pb, chain[i].function);
			pb_key(pb, level + 3, &efirst, "file");
			pb_str(pb, chain[i].file ?
			       oc_lines_short_file(chain[i].file) : NULL);
			pb_key(pb, level + 3, &efirst, "line");
			pb_int(pb, (int)chain[i].line);
			if (fv && !fv->unavailable) {
				pb_key(pb, level + 3, &efirst, "variables");
				pb_json(pb, vars_json(i + 1 < fv->nr_levels ?
						      &fv->levels[i] : NULL),
					level + 3);
			}
			PB_LIT(pb, "\n");
			pb_indent(pb, level + 2);
			PB_LIT(pb, "}");
		}
		PB_LIT(pb, "\n");
		pb_indent(pb, level + 1);
		PB_LIT(pb, "]");
	}
	pb_key(pb, level + 1, &first, "regs");
	pb_json(pb, f->regs_kind != OC_REGS_NONE ? regs_json(f) : NULL, level + 1);
	if (fv) {
		pb_key(pb, level + 1, &first, "variables");
		pb_json(pb, function_vars_json(fv, nr), level + 1);
		pb_key(pb, level + 1, &first, "variables_unavailable");
		pb_str(pb, fv->unavailable);
		pb_key(pb, level + 1, &first, "cfi_registers");
		pb_json(pb, cfi_regs_json(fv), level + 1);
		pb_key(pb, level + 1, &first, "cfi_note");
		pb_str(pb, fv->cfi_note);
		oc_framevars_free(fv);
	}
	PB_LIT(pb, "\n");
	pb_indent(pb, level);
	PB_LIT(pb, "}");
}

/*
 * The depth json-c prints a trace's "frames" at in the documents'
 * layout (a task or CPU object inside "tasks" or "cpus": depth 2, its
 * members at 3): the text is made at it, printed as it is there (one
 * copy, where reindenting every line was 3% of a 10,000-task --json run)
 * and moved by the difference anywhere else (oc_report_task_json()'s
 * single task, the crash extension).
 */
enum { FRAMES_LEVEL = 3 };

/* @text, made at depth FRAMES_LEVEL, at depth @level */
static void pb_move(struct printbuf *pb, const char *text, size_t len,
		    int level)
{
	size_t start = 0, strip = level < FRAMES_LEVEL ?
				  (size_t)(2 * (FRAMES_LEVEL - level)) : 0;

	if (level >= FRAMES_LEVEL) {
		pb_reindent(pb, text, len, level - FRAMES_LEVEL);
		return;
	}
	for (size_t i = 0; i < len; i++) {
		if (text[i] != '\n')
			continue;
		pb_put(pb, text + start, i + 1 - start);
		start = i + 1;
		for (size_t n = 0; n < strip && start < len && text[start] == ' '; n++)
			start++;
	}
	pb_put(pb, text + start, len - start);
}

static int frames_serialize(struct json_object *o, struct printbuf *pb,
			    int level, int flags)
{
	const struct printbuf *text = json_object_get_userdata(o);

	(void)flags;
	if (level == FRAMES_LEVEL)
		pb_put(pb, text->buf, (size_t)text->bpos);
	else
		pb_move(pb, text->buf, (size_t)text->bpos, level);
	return 0;
}

static void frames_free(struct json_object *o, void *userdata)
{
	(void)o;
	printbuf_free(userdata);
}

/* The trace's "frames" array (an array object that prints the text) */
static struct json_object *frames_json(const struct oc_kernel *k,
				       const struct oc_report_options *opts,
				       const struct oc_trace *tr)
{
	struct json_object *a = chk(json_object_new_array());
	struct printbuf *pb = printbuf_new();

	if (!a || !pb) {
		if (pb)
			printbuf_free(pb);
		json_oom = true;
		return a;
	}
	/* as json-c prints an array at depth FRAMES_LEVEL */
	PB_LIT(pb, "[\n");
	for (size_t i = 0; i < tr->nr; i++) {
		if (i)
			PB_LIT(pb, ",\n");
		pb_indent(pb, FRAMES_LEVEL + 1);
		pb_frame(k, opts, tr, i, FRAMES_LEVEL + 1, pb);
	}
	if (tr->nr)
		PB_LIT(pb, "\n");
	pb_indent(pb, FRAMES_LEVEL);
	PB_LIT(pb, "]");
	json_object_set_serializer(a, frames_serialize, pb, frames_free);
	return a;
}

/* Adds "frames", "stop", "reliable" (and "error" on failure) to @o. */
static bool add_trace(const struct oc_kernel *k,
		      const struct oc_report_options *opts,
		      struct json_object *o, struct oc_error *err,
		      const struct oc_trace *tr)
{
	char buf[256];

	if (err) {
		oc_error_take(err, buf, sizeof(buf));
		add(o, "frames", chk(json_object_new_array()));
		add(o, "stop", oc_json_str("error"));
		add(o, "error", oc_json_str(buf));
		add(o, "reliable", chk(json_object_new_boolean(false)));
		return false;
	}
	add(o, "frames", frames_json(k, opts, tr));
	oc_trace_stop_string(tr, buf, sizeof(buf));
	add(o, "stop", oc_json_str(buf));
	add(o, "reliable", chk(json_object_new_boolean(tr->reliable)));
	return tr->reliable;
}

static struct json_object *kernel_json(const struct oc_kernel *k,
				       const struct oc_log *log)
{
	struct json_object *o = chk(json_object_new_object()), *panic, *warn;
	const struct oc_task *pt = k->panic_cpu >= 0 ? k->cpus[k->panic_cpu].task : NULL;
	char msg[256] = "";

	add(o, "release", oc_json_str(k->release));
	add(o, "banner", oc_json_str(k->banner));
	add(o, "kaslr_offset", oc_json_hex(k->kaslr_offset));
	add(o, "cpus", chk(json_object_new_int((int)k->nr_cpus)));
	add(o, "orc_version",
	    oc_json_str(oc_orc_version_name(k->orc_version)));
	panic = chk(json_object_new_object());
	add(panic, "cpu", k->panic_cpu >= 0 ?
	    chk(json_object_new_int(k->panic_cpu)) : NULL);
	add(panic, "pid", pt ? chk(json_object_new_int(pt->pid)) : NULL);
	if (k->panic_message[0])
		snprintf(msg, sizeof(msg), "%s", k->panic_message);
	else if (log)
		oc_log_panic_message(log, msg, sizeof(msg));
	add(panic, "message", msg[0] ? oc_json_str(msg) : NULL);
	add(o, "panic", panic);
	warn = chk(json_object_new_array());
	for (unsigned int i = 0; i < k->nr_warnings; i++)
		push(warn, oc_json_str(k->warnings[i]));
	add(o, "warnings", warn);
	return o;
}

/* @ns as seconds, printed to the microsecond, not the double's 17 digits. */
static struct json_object *seconds_json(uint64_t ns)
{
	char sec[32];

	snprintf(sec, sizeof(sec), "%" PRIu64 ".%06" PRIu64,
		 ns / 1000000000, ns / 1000 % 1000000);
	return chk(json_object_new_double_s(ns / 1e9, sec));
}

/* What a D task waits on (src/waits.h); NULL when nothing known. */
static struct json_object *wait_on_json(const struct oc_task_wait *tw)
{
	struct json_object *o;

	if (!tw || tw->kind == OC_WAIT_NONE)
		return NULL;
	o = chk(json_object_new_object());
	add(o, "kind", oc_json_str(oc_wait_kind_name(tw->kind)));
	add(o, "address", tw->have_address ? oc_json_hex(tw->address) : NULL);
	add(o, "symbol", tw->symbol[0] ? oc_json_str(tw->symbol) : NULL);
	add(o, "module", tw->module[0] ? oc_json_str(tw->module) : NULL);
	add(o, "bit", tw->bit[0] ? oc_json_str(tw->bit) : NULL);
	add(o, "queue", tw->kind == OC_WAIT_QUEUE || tw->kind == OC_WAIT_FOLIO ?
	    oc_json_hex(tw->queue) : NULL);
	add(o, "owner", tw->owner ? chk(json_object_new_int(tw->owner->pid)) : NULL);
	add(o, "owner_task", tw->have_owner ? oc_json_hex(tw->owner_addr) : NULL);
	add(o, "readers", tw->readers >= 0 ?
	    chk(json_object_new_int64(tw->readers)) : NULL);
	add(o, "from", oc_json_str(tw->from));
	add(o, "reliable", chk(json_object_new_boolean(tw->reliable)));
	add(o, "why", tw->why[0] ? oc_json_str(tw->why) : NULL);
	return o;
}

struct json_object *oc_report_json_chains(const struct oc_waits *w,
					  size_t max)
{
	struct json_object *a = chk(json_object_new_array());
	char buf[2048];

	for (size_t i = 0; w && i < w->nr_chains && i < max; i++) {
		const struct oc_wait_chain *c = &w->chains[i];
		struct json_object *o = chk(json_object_new_object()),
				   *pids = chk(json_object_new_array());

		for (size_t j = 0; j < c->nr; j++)
			push(pids, chk(json_object_new_int(
				w->waits[c->idx[j]].task->pid)));
		add(o, "pids", pids);
		add(o, "deadlock", chk(json_object_new_boolean(c->cycle)));
		oc_waits_chain_string(w, c, buf, sizeof(buf));
		add(o, "text", oc_json_str(buf));
		push(a, o);
	}
	return a;
}

/* The crash summary (src/triage.h, docs/triage.md); NULL on error. */
static struct json_object *crash_json(const struct oc_kernel *k,
				      const struct oc_report_options *opts,
				      const struct oc_log *log,
				      const struct oc_waits *waits)
{
	struct json_object *o, *g = NULL, *a = NULL, *e = NULL, *b, *t, *flags, *d;
	struct oc_line_info chain[16];
	struct oc_crash c;
	struct oc_error *err = oc_triage(k, opts->lines, log, &c);
	size_t nr;

	if (err) {
		oc_error_destroy(err);
		return NULL;
	}
	o = chk(json_object_new_object());
	add(o, "kind", oc_json_str(oc_crash_kind_name(c.kind)));
	add(o, "title", oc_json_str(c.title));
	add(o, "message", c.message[0] ? oc_json_str(c.message) : NULL);
	if (c.have_guilty) {
		g = chk(json_object_new_object());
		add(g, "symbol", oc_json_str(c.guilty_symbol));
		add(g, "module", c.guilty_module[0] ?
		    oc_json_str(c.guilty_module) : NULL);
		add(g, "ip", oc_json_hex(c.guilty.ip));
		nr = oc_report_frame_lines(k, opts, &c.guilty, chain, 16);
		add(g, "file", nr && chain[nr - 1].file ? oc_json_str(
			oc_lines_short_file(chain[nr - 1].file)) : NULL);
		add(g, "line", nr && chain[nr - 1].file ?
		    chk(json_object_new_int((int)chain[nr - 1].line)) : NULL);
	}
	add(o, "guilty", g);
	b = NULL;
	if (c.have_bug) {
		b = chk(json_object_new_object());
		add(b, "file", c.bug.file[0] ? oc_json_str(c.bug.file) : NULL);
		add(b, "line", c.bug.file[0] ? chk(json_object_new_int((int)c.bug.line)) : NULL);
		add(b, "warning", chk(json_object_new_boolean(c.bug.warning)));
	}
	add(o, "bug", b);
	add(o, "signature", c.signature[0] ?
	    oc_json_str(c.signature) : NULL);
	if (c.have_address) {
		a = chk(json_object_new_object());
		add(a, "value", oc_json_hex(c.address));
		add(a, "from", oc_json_str(c.address_from));
	}
	add(o, "address", a);
	if (c.have_error_code) {
		e = chk(json_object_new_object());
		add(e, "value", oc_json_hex(c.error_code));
		add(e, "from", oc_json_str(c.error_code_from));
		add(e, "access", c.error_access[0] ?
		    oc_json_str(c.error_access) : NULL);
		add(e, "reason", c.error_why[0] ?
		    oc_json_str(c.error_why) : NULL);
	}
	add(o, "error_code", e);
	t = NULL;
	if (c.have_taint) {
		t = chk(json_object_new_object());
		add(t, "mask", oc_json_hex(c.tainted_mask));
		add(t, "letters", oc_json_str(c.taint));
		flags = chk(json_object_new_array());
		for (size_t i = 0; i < c.nr_taints; i++) {
			struct json_object *f = chk(json_object_new_object()), *mods;
			char letter[2] = { c.taints[i].letter, 0 };

			add(f, "flag", oc_json_str(letter));
			add(f, "name", oc_json_str(c.taints[i].name));
			mods = chk(json_object_new_array());
			for (size_t m = 0; m < c.taints[i].nr_modules; m++)
				push(mods, oc_json_str(
					c.taints[i].modules[m]));
			add(f, "modules", mods);
			push(flags, f);
		}
		add(t, "flags", flags);
	}
	add(o, "taint", t);
	add(o, "uptime", c.have_uptime ? seconds_json(c.uptime_ns) : NULL);
	d = chk(json_object_new_array());
	for (size_t i = 0; i < c.nr_details; i++)
		push(d, oc_json_str(c.details[i]));
	add(o, "details", d);
	/* since 1.4.0: the wait chains, deadlocks first */
	add(o, "chains", oc_report_json_chains(waits, SIZE_MAX));
	return o;
}

static struct json_object *task_json(const struct oc_kernel *k,
				     const struct oc_sched_clock *clk,
				     const struct oc_waits *waits,
				     const struct oc_task *t)
{
	struct json_object *o = chk(json_object_new_object()), *b;
	char st[2] = { t->state, 0 };
	uint64_t ns = 0, since = 0;

	add(o, "pid", chk(json_object_new_int(t->pid)));
	add(o, "tgid", chk(json_object_new_int(t->tgid)));
	add(o, "ppid", chk(json_object_new_int(t->ppid)));
	add(o, "comm", oc_json_str(t->comm));
	add(o, "state", oc_json_str(st));
	add(o, "cpu", chk(json_object_new_int(t->cpu)));
	add(o, "on_cpu", chk(json_object_new_boolean(t->running_on >= 0)));
	add(o, "task", oc_json_hex(t->addr));
	add(o, "kthread", chk(json_object_new_boolean(t->kthread)));
	/* a task in D (in S with --blocked-states DS): how long it has been
	 * off the CPU (src/triage.h), what it waits on */
	if (t->state == 'D' || oc_waits_blocked(waits, t)) {
		const struct oc_task_wait *tw = oc_waits_blocked(waits, t);
		bool off = oc_triage_off_cpu(k, clk, t, &ns, &since);

		b = NULL;
		if (off || (tw && tw->kind != OC_WAIT_NONE)) {
			b = chk(json_object_new_object());
			add(b, "seconds", off ? seconds_json(ns) : NULL);
			add(b, "since_ns", off ?
			    chk(json_object_new_int64((int64_t)since)) : NULL);
			/* since 1.4.0 */
			add(b, "sleeps_in", tw && tw->sleeps_in[0] ?
			    oc_json_str(tw->sleeps_in) : NULL);
			add(b, "on", wait_on_json(tw));
		}
		add(o, "blocked", b);
	}
	return o;
}

/*
 * The document is written as it is made: json-c makes each object (the
 * kernel, a CPU, a task, a log record) and prints it, in json-c's own
 * pretty layout, at its depth, then frees it, so memory does not grow
 * with the number of tasks.  The layout is json_object_to_json_string_ext()'s
 * (json-c 0.16 json_object.c): "{" or "[", a newline, the members one a
 * line indented two spaces a level and separated by ",", a newline and
 * the closing bracket at the parent's indent ("[\n  ]" when empty).
 */

struct jw {
	FILE *out;
	bool first[4];		/* no member yet at that depth */
};

static void jw_indent(struct jw *w, int level)
{
	static const char spaces[] = "        ";

	fwrite(spaces, 1, (size_t)(2 * level), w->out);
}

/*
 * @o (consumed) as a value at depth @level (at most 2): json-c prints it
 * inside @level arrays, so at that depth, and the arrays' own brackets
 * are left out: "[\n  " ... "\n]" a level (2 + 2i characters before
 * the value at depth i, as many after it at depth i - 1).
 */
static void jw_value(struct jw *w, struct json_object *o, int level)
{
	size_t pre = (size_t)(2 * level + level * (level + 1)),
	       post = (size_t)(2 * level + level * (level - 1)), len = 0;
	struct json_object *outer = o;
	const char *s;

	for (int i = 0; i < level && outer; i++) {
		struct json_object *a = chk(json_object_new_array());

		outer = push(a, outer) ? NULL : a;
	}
	if (!outer) {
		json_oom = true;
		return;
	}
	s = json_object_to_json_string_length(outer, json_flags, &len);
	if (s && len >= pre + post)
		fwrite(s + pre, 1, len - pre - post, w->out);
	else
		json_oom = true;
	json_object_put(outer);
}

/* The separator and indent before the next member at depth @level. */
static void jw_next(struct jw *w, int level)
{
	if (!w->first[level])
		fputs(",\n", w->out);
	w->first[level] = false;
	jw_indent(w, level);
}

/* "key": at depth @level (a member of the object one level up) */
static void jw_key(struct jw *w, int level, const char *key)
{
	jw_next(w, level);
	fprintf(w->out, "\"%s\":", key);
}

static void jw_member(struct jw *w, int level, const char *key,
		      struct json_object *o)
{
	jw_key(w, level, key);
	jw_value(w, o, level);
}

/* An object or array begins: its members are at @level + 1. */
static void jw_open(struct jw *w, int level, char c)
{
	fprintf(w->out, "%c\n", c);
	w->first[level + 1] = true;
}

static void jw_close(struct jw *w, int level, char c)
{
	if (!w->first[level + 1])
		fputc('\n', w->out);
	jw_indent(w, level);
	fputc(c, w->out);
}

/* An element of the array at depth 1 (its elements at depth 2). */
static void jw_element(struct jw *w, struct json_object *o)
{
	jw_next(w, 2);
	jw_value(w, o, 2);
}

struct json_object *oc_report_cpu_json(const struct oc_kernel *k,
				       const struct oc_report_options *opts,
				       unsigned int c, bool *ok)
{
	struct oc_unwind_options uo = { .scan = opts->scan };
	const struct oc_cpu *cpu = &k->cpus[c];
	struct json_object *o = chk(json_object_new_object());
	struct oc_error *err;
	struct oc_trace tr;

	add(o, "cpu", chk(json_object_new_int((int)c)));
	add(o, "pid", cpu->task ? chk(json_object_new_int(cpu->task->pid)) : NULL);
	add(o, "comm", cpu->task ? oc_json_str(cpu->task->comm) : NULL);
	add(o, "panic", chk(json_object_new_boolean((int)c == k->panic_cpu)));
	oc_trace_init(&tr);
	err = oc_kernel_unwind_cpu(k, c, &uo, &tr);
	*ok &= add_trace(k, opts, o, err, &tr);
	oc_trace_deinit(&tr);
	return o;
}

/* A task and its trace (@err: the unwind's, taken). */
static struct json_object *task_trace_json(const struct oc_kernel *k,
					   const struct oc_report_options *opts,
					   const struct oc_sched_clock *clk,
					   const struct oc_waits *waits,
					   const struct oc_task *t,
					   struct oc_error *err,
					   struct oc_trace *tr, bool *ok)
{
	struct json_object *o = task_json(k, clk, waits, t);

	*ok &= add_trace(k, opts, o, err, tr);
	return o;
}

struct json_object *oc_report_task_json(const struct oc_kernel *k,
					const struct oc_report_options *opts,
					const struct oc_sched_clock *clk,
					const struct oc_waits *waits,
					const struct oc_task *t, bool *ok)
{
	struct oc_unwind_options uo = { .scan = opts->scan };
	struct json_object *o;
	struct oc_error *err;
	struct oc_trace tr;

	oc_trace_init(&tr);
	err = oc_kernel_unwind_task(k, t, &uo, &tr);
	o = task_trace_json(k, opts, clk, waits, t, err, &tr, ok);
	oc_trace_deinit(&tr);
	return o;
}

static void json_cpus(const struct oc_kernel *k,
		      const struct oc_report_options *opts,
		      const struct oc_selection *sel, bool *ok, struct jw *w)
{
	jw_key(w, 1, "cpus");
	jw_open(w, 1, '[');
	for (size_t i = 0; i < sel->nr_cpus; i++)
		jw_element(w, oc_report_cpu_json(k, opts, sel->cpus[i], ok));
	jw_close(w, 1, ']');
}

/* --group: each distinct stack once, with the pids that share it. */
struct json_group {
	struct oc_trace trace;	/* the first task's */
	struct oc_error *err;	/* the first task's, if its unwind failed */
	struct json_object *pids;
};

static struct json_object *group_json(const struct oc_kernel *k,
				      const struct oc_report_options *opts,
				      struct json_group *g)
{
	struct json_object *o = chk(json_object_new_object());
	/* the variables of --locals are each task's own: none here */
	struct oc_report_options shared = *opts;

	shared.locals = false;
	add(o, "count", chk(json_object_new_int(
		(int)json_object_array_length(g->pids))));
	add(o, "pids", g->pids);
	g->pids = NULL;
	add_trace(k, &shared, o, g->err, &g->trace);
	g->err = NULL;
	return o;
}

/* One task's element of "tasks", in any thread (src/tasktraces.h):
 * json_oom is the thread's own. */
static bool render_task(void *arg, size_t i, struct oc_trace *tr,
			struct oc_error *err, FILE *out, bool *ok)
{
	const struct oc_report_tasks_ctx *r = arg;
	struct jw w = { .out = out };

	jw_value(&w, task_trace_json(r->k, r->opts, r->clk, r->waits,
				     r->sel->tasks[i], err, tr, ok), 2);
	return !oc_json_oom_take();
}

/*
 * The tasks; with --group, "tasks" stays empty and "groups" holds them.
 * Returns false on out of memory.
 */
static bool json_tasks(const struct oc_kernel *k,
		       const struct oc_report_options *opts,
		       const struct oc_selection *sel,
		       const struct oc_waits *waits, bool *ok, struct jw *w)
{
	struct oc_unwind_options uo = { .scan = opts->scan };
	struct json_group *groups = NULL;
	struct oc_task_traces *tt;
	struct oc_sched_clock clk;
	struct oc_report_tasks_ctx tr_arg = {
		.k = k, .opts = opts, .sel = sel, .clk = &clk, .waits = waits,
	};
	struct oc_task_render render = {
		.fn = render_task, .arg = &tr_arg, .serial = opts->locals,
	};
	size_t ngroups = 0;
	bool mem = true;

	oc_triage_sched_clock(k, &clk);

	if (opts->group && sel->nr_tasks) {
		groups = calloc(sel->nr_tasks, sizeof(*groups));
		if (!groups)
			return false;
	}
	if (oc_task_traces_begin(k, sel->tasks, sel->nr_tasks, &uo,
				 opts->group ? NULL : &render, &tt)) {
		free(groups);
		return false;
	}
	jw_key(w, 1, "tasks");
	jw_open(w, 1, '[');
	for (size_t i = 0; i < sel->nr_tasks; i++) {
		const struct oc_task *t = sel->tasks[i];
		struct oc_task_result res;
		struct oc_error *err;
		struct oc_trace tr;
		size_t g;

		oc_task_traces_next(tt, &res);
		tr = res.trace;
		err = res.err;
		if (!opts->group) {
			jw_next(w, 2);
			if (res.text)
				fwrite(res.text, 1, res.len, w->out);
			else
				mem = false;
			*ok &= res.ok;
			free(res.text);
			oc_trace_deinit(&tr);
			continue;
		}
		if (err) {
			/* grouped by its message, like a failed text trace */
			tr.reliable = false;
			tr.stop = OC_STOP_ERROR;
			oc_error_string(err, tr.message, sizeof(tr.message));
		}
		*ok &= tr.reliable;
		for (g = 0; g < ngroups; g++)
			if (oc_report_same_trace(&groups[g].trace, &tr))
				break;
		if (g == ngroups) {
			groups[g].trace = tr;
			groups[g].err = err;
			groups[g].pids = chk(json_object_new_array());
			ngroups++;
		} else {
			oc_error_destroy(err);
			oc_trace_deinit(&tr);
		}
		if (!groups[g].pids ||
		    push(groups[g].pids, chk(json_object_new_int(t->pid))))
			mem = false;
	}
	oc_task_traces_end(tt);
	jw_close(w, 1, ']');
	if (opts->group) {
		jw_key(w, 1, "groups");
		jw_open(w, 1, '[');
		for (size_t g = 0; g < ngroups; g++) {
			jw_element(w, group_json(k, opts, &groups[g]));
			oc_trace_deinit(&groups[g].trace);
		}
		jw_close(w, 1, ']');
	}
	free(groups);
	return mem;
}

static void json_log(const struct oc_log *log, struct jw *w)
{
	jw_key(w, 1, "log");
	jw_open(w, 1, '[');
	for (size_t i = 0; i < log->nr; i++)
		jw_element(w, log_record_json(log, i));
	jw_close(w, 1, ']');
}

struct oc_error *oc_report_json(const struct oc_kernel *k,
				const struct oc_report_options *opts,
				FILE *out, bool *reliable)
{
	struct jw w = { .out = out };
	struct oc_report_start st;
	const struct oc_log *log;
	bool mem = true, ok;
	struct oc_error *err = oc_report_begin(k, opts, &st);

	if (err)
		return err;
	json_oom = false;
	log = st.have_log ? &st.log : NULL;
	ok = st.complete;
	jw_open(&w, 0, '{');
	/* the document's schema version, semver (docs/json.md, docs/json-schema.json) */
	jw_member(&w, 1, "version", oc_json_str("1.6.0"));
	jw_member(&w, 1, "kernel", kernel_json(k, log));
	jw_member(&w, 1, "crash", crash_json(k, opts, log,
						   st.have_waits ? &st.waits : NULL));
	json_cpus(k, opts, &st.sel, &ok, &w);
	if (st.sel.show_tasks) {
		mem = json_tasks(k, opts, &st.sel, st.have_waits ? &st.waits : NULL,
				 &ok, &w);
	} else {
		jw_member(&w, 1, "tasks", chk(json_object_new_array()));
		if (opts->group)
			jw_member(&w, 1, "groups", chk(json_object_new_array()));
	}
	if (opts->log && log)
		json_log(log, &w);
	jw_close(&w, 0, '}');
	fputc('\n', out);
	oc_report_finish(&st);
	if (!mem || json_oom)
		return &oc_enomem;
	*reliable = ok;
	return NULL;
}

/*
 * --triage: one dump in one line (docs/json.md, "--triage"): the file,
 * its release, the crash summary with the first few wait chains, the
 * task and blocked-task counts.  Dump-only (no vmlinux): no DWARF.
 */
struct json_object *oc_report_triage_json(const struct oc_kernel *k,
					  const char *path)
{
	struct oc_report_options opts;
	struct json_object *o = chk(json_object_new_object()), *b, *crash;
	struct oc_sched_clock clk;
	struct oc_waits waits;
	bool have_waits;
	struct oc_log log;
	bool have_log;
	size_t nd = 0, non = 0;
	uint64_t longest = 0, ns, since;
	bool have_longest = false;

	json_oom = false;
	oc_report_options_init(&opts);
	have_log = oc_ok(oc_kernel_read_log(k, &log));
	have_waits = oc_ok(oc_waits_compute(k, NULL, &waits));
	oc_triage_sched_clock(k, &clk);
	add(o, "file", oc_json_str(path));
	add(o, "format", oc_json_str(oc_kernel_dump_format(k)));
	add(o, "release", oc_json_str(k->release));
	crash = crash_json(k, &opts, have_log ? &log : NULL,
			   have_waits ? &waits : NULL);
	if (crash && have_waits) {
		/* the first few chains here; how many there are beside them */
		struct json_object *c = oc_report_json_chains(&waits, 5);

		if (json_object_object_add(crash, "chains", c)) {
			json_object_put(c);
			json_oom = true;
		}
	}
	add(o, "crash", crash);
	add(o, "chains_total", have_waits ?
	    chk(json_object_new_int64((int64_t)waits.nr_chains)) : NULL);
	add(o, "tasks", chk(json_object_new_int64((int64_t)k->nr_tasks)));
	for (size_t i = 0; i < k->nr_tasks; i++) {
		const struct oc_task *t = &k->tasks[i];
		const struct oc_task_wait *tw;

		if (t->state != 'D')
			continue;
		nd++;
		tw = have_waits ? oc_waits_find(&waits, t) : NULL;
		non += tw && tw->kind != OC_WAIT_NONE;
		if (oc_triage_off_cpu(k, &clk, t, &ns, &since) &&
		    (!have_longest || ns > longest)) {
			longest = ns;
			have_longest = true;
		}
	}
	b = chk(json_object_new_object());
	add(b, "count", chk(json_object_new_int64((int64_t)nd)));
	add(b, "waiting_on_known", chk(json_object_new_int64((int64_t)non)));
	add(b, "longest_seconds", have_longest ? seconds_json(longest) : NULL);
	add(o, "blocked", b);
	add(o, "complete", chk(json_object_new_boolean(
		!k->tasks_incomplete && !k->modules_incomplete &&
		!k->dump_truncated && !k->release_mismatch)));
	add(o, "error", NULL);
	if (have_waits)
		oc_waits_deinit(&waits);
	if (have_log)
		oc_log_deinit(&log);
	if (json_oom) {
		/* not a line that looks whole */
		json_object_put(o);
		return NULL;
	}
	return o;
}

/* A dump --triage could not open: its file and the one-line error. */
struct json_object *oc_report_triage_error_json(const char *path,
						const char *message)
{
	struct json_object *o;

	json_oom = false;
	o = chk(json_object_new_object());
	add(o, "file", oc_json_str(path));
	add(o, "error", oc_json_str(message));
	if (json_oom) {
		json_object_put(o);
		return NULL;
	}
	return o;
}
