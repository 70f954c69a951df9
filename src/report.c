// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The text report: a header, every CPU's trace from its crash
 * registers, then the tasks, each laid out like the kernel's own
 * show_trace_log_lvl() output so it can be put beside an oops.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array.h"
#include "dump.h"
#include "framevars.h"
#include "lines.h"
#include "log.h"
#include "report.h"
#include "tasktraces.h"
#include "triage.h"
#include "strutil.h"

void oc_report_options_init(struct oc_report_options *opts)
{
	memset(opts, 0, sizeof(*opts));
	oc_select_options_init(&opts->sel);
	opts->regs = true;
	opts->log_tail = 10;
}

/*
 * Text appended at *@p, never past @end, as snprintf() cuts it: a frame's
 * symbol is made for every frame of every task, and snprintf() was a
 * tenth of a 10,000-task report's CPU.
 */
static void put_str(char **p, char *end, const char *s)
{
	size_t n = strlen(s);

	if (n > (size_t)(end - *p))
		n = (size_t)(end - *p);
	memcpy(*p, s, n);
	*p += n;
}

/* @v in lowercase hex, @width digits with leading zeros, as "%016" PRIx64 */
static void put_hex_width(char **p, char *end, uint64_t v, int width)
{
	char digits[16];
	int n = 0;

	do {
		digits[n++] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	while (width-- > n && *p < end)
		*(*p)++ = '0';
	while (n && *p < end)
		*(*p)++ = digits[--n];
}

/* @v in lowercase hex without leading zeros, as "%" PRIx64 */
static void put_hex(char **p, char *end, uint64_t v)
{
	put_hex_width(p, end, v, 0);
}

/* @v in decimal, as "%lld"; then spaces up to @width characters from
 * where it began, as "%-WIDTHlld" (0: none) */
static void put_dec(char **p, char *end, long long v, int width)
{
	char digits[24];
	char *start = *p;
	unsigned long long u = v < 0 ? 0ull - (unsigned long long)v :
				       (unsigned long long)v;
	int n = 0;

	do {
		digits[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		digits[n++] = '-';
	while (n && *p < end)
		*(*p)++ = digits[--n];
	while (*p - start < width && *p < end)
		*(*p)++ = ' ';
}

/* @s escaped (strutil.h's oc_esc(), cut as it is in a buffer of @max
 * bytes); the escape's NUL is written at *p, so *@end must be writable,
 * as every buffer here keeps its last byte (end = buf + size - 1) */
static void put_esc(char **p, char *end, const char *s, size_t max,
		    unsigned int flags)
{
	size_t room = (size_t)(end - *p) + 1;

	if (!s)
		s = "";
	if (max > room)
		max = room;
	if (!max)
		return;
	/* NUL-terminated in @max bytes; *p moves to the NUL */
	oc_str_escape(*p, max, s, strlen(s), flags);
	*p += strlen(*p);
}

/* The line made from @buf up to @p, written whole. */
static void put_line(FILE *out, const char *buf, const char *p)
{
	fwrite(buf, 1, (size_t)(p - buf), out);
}

static void format_sym(const struct oc_sym_result *sr, bool found,
		       uint64_t addr, char *buf, size_t size)
{
	const struct oc_sym_result s = *sr;
	char *p = buf, *end;

	if (!size)
		return;
	end = buf + size - 1;
	/* symbol and module names may come from the dump (kallsyms, modules) */
	if (found) {
		char name[1024], mod[256];

		put_str(&p, end, oc_esc(name, sizeof(name), s.name, 0));
		put_str(&p, end, "+0x");
		put_hex(&p, end, s.offset);
		put_str(&p, end, "/0x");
		put_hex(&p, end, s.size);
		if (s.module) {
			put_str(&p, end, " [");
			put_str(&p, end, oc_esc(mod, sizeof(mod), s.module, 0));
			put_str(&p, end, "]");
		}
	} else {
		put_str(&p, end, "0x");
		put_hex(&p, end, addr);
	}
	*p = '\0';
}

void oc_report_format_addr(const struct oc_kernel *k, uint64_t addr,
			   char *buf, size_t size)
{
	struct oc_sym_result s;
	bool found = oc_kernel_symbolize(k, addr, &s);

	format_sym(&s, found, addr, buf, size);
}

void oc_report_format_frame(const struct oc_kernel *k, const struct oc_frame *f,
			    char *buf, size_t size)
{
	struct oc_sym_result s;
	bool found = oc_kernel_symbolize_frame(k, f, &s);

	format_sym(&s, found, f->ip, buf, size);
}

void oc_report_print_regs(const struct oc_kernel *k, const struct oc_frame *f,
			  const char *indent, FILE *out)
{
	const struct oc_regs *r = &f->regs;
	char rip[256];

	/* every user task's trace ends with its registers: appended, not
	 * printf-formatted (as format_sym()) */
	const struct {
		const char *name[3];
		uint64_t v[3];
	} rows[] = {
		{ { "RAX", "RBX", "RCX" }, { r->ax, r->bx, r->cx } },
		{ { "RDX", "RSI", "RDI" }, { r->dx, r->si, r->di } },
		{ { "RBP", "R08", "R09" }, { r->bp, r->r8, r->r9 } },
		{ { "R10", "R11", "R12" }, { r->r10, r->r11, r->r12 } },
		{ { "R13", "R14", "R15" }, { r->r13, r->r14, r->r15 } },
	};
	char line[512], *p = line, *end = line + sizeof(line) - 1;

	oc_report_format_addr(k, r->ip, rip, sizeof(rip));
	put_str(&p, end, indent);
	put_str(&p, end, "RIP: ");
	put_hex_width(&p, end, r->cs & 0xffff, 4);
	put_str(&p, end, ":");
	put_str(&p, end, rip);
	put_str(&p, end, "\n");
	put_str(&p, end, indent);
	put_str(&p, end, "RSP: ");
	put_hex_width(&p, end, r->ss & 0xffff, 4);
	put_str(&p, end, ":");
	put_hex_width(&p, end, r->sp, 16);
	put_str(&p, end, " EFLAGS: ");
	put_hex_width(&p, end, r->flags, 8);
	if (f->regs_kind == OC_REGS_FULL && r->orig_ax != UINT64_MAX) {
		put_str(&p, end, " ORIG_RAX: ");
		put_hex_width(&p, end, r->orig_ax, 16);
	}
	put_str(&p, end, "\n");
	put_line(out, line, p);
	if (f->regs_kind != OC_REGS_FULL)
		return;
	p = line;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		put_str(&p, end, indent);
		for (int j = 0; j < 3; j++) {
			put_str(&p, end, j ? " " : "");
			put_str(&p, end, rows[i].name[j]);
			put_str(&p, end, ": ");
			put_hex_width(&p, end, rows[i].v[j], 16);
		}
		put_str(&p, end, "\n");
	}
	put_line(out, line, p);
}

static pthread_mutex_t lines_lock = PTHREAD_MUTEX_INITIALIZER;

size_t oc_report_frame_lines(const struct oc_kernel *k,
			     const struct oc_report_options *opts,
			     const struct oc_frame *f,
			     struct oc_line_info *chain, size_t max)
{
	/* an exact ip shows its own line; a return address its call's */
	bool exact = f->exact;
	struct oc_sym_result s;
	struct oc_error *err;
	size_t nr = 0;

	if (!opts || !opts->lines || !f->ip)
		return 0;
	if (!oc_kernel_symbolize_frame(k, f, &s))
		return 0;
	/* the lines cache grows as it answers: one thread at a time
	 * (the tasks' parts are made in several, src/tasktraces.h) */
	pthread_mutex_lock(&lines_lock);
	if (s.module)
		err = oc_lines_lookup_module(opts->lines, s.module, s.name,
					     s.offset, exact, chain, max, &nr);
	else
		err = oc_lines_lookup(opts->lines,
				      oc_lines_addr(f->ip, exact, k->kaslr_offset),
				      chain, max, &nr);
	pthread_mutex_unlock(&lines_lock);
	if (err) {
		oc_error_destroy(err);
		return 0;
	}
	return nr;
}

/* "  file:line" of the containing function, after a frame's own line. */
static void put_line_suffix(char **p, char *end,
			    const struct oc_line_info *chain, size_t nr)
{
	if (nr && chain[nr - 1].file) {
		put_str(p, end, "  ");
		put_esc(p, end, oc_lines_short_file(chain[nr - 1].file), 256, 0);
		put_str(p, end, ":");
		put_dec(p, end, chain[nr - 1].line, 0);
	}
}

/* --locals: one level's parameters and locals, under its line. */
static void print_level_vars(const struct oc_framevars_level *l,
			     const char *indent, FILE *out)
{
	char buf[512];

	for (size_t i = 0; l && i < l->nr_vars; i++) {
		oc_framevar_format(&l->vars[i], buf, sizeof(buf));
		fprintf(out, "%s      ", indent);
		oc_str_fput(out, buf, strlen(buf), 0);
		fputc('\n', out);
	}
}

/* --locals: the variables of trace->frames[i]; NULL if not asked for. */
static struct oc_framevars *frame_vars(const struct oc_kernel *k,
				       const struct oc_report_options *opts,
				       const struct oc_trace *trace, size_t i)
{
	struct oc_framevars *fv = NULL;
	struct oc_error *err;

	if (!opts || !opts->locals || trace->frames[i].scanned)
		return NULL;
	err = oc_framevars_get(k, opts->lines, trace, i, NULL, &fv);
	if (err) {
		oc_error_destroy(err);	/* out of memory: no variables */
		return NULL;
	}
	return fv;
}

/* The level of @fv shown under inline line @i of a @nr-line chain. */
static const struct oc_framevars_level *inline_level(
	const struct oc_framevars *fv, size_t i, size_t nr)
{
	if (!fv || !fv->nr_levels || i + 1 >= fv->nr_levels || i + 1 >= nr)
		return NULL;
	return &fv->levels[i];
}

/* The variables under the frame's own line: the containing function's
 * (and any inlined level the chain had no line for). */
static void print_frame_vars(const struct oc_framevars *fv, size_t nr,
			     const char *indent, FILE *out)
{
	char e[512];

	if (!fv)
		return;
	if (fv->unavailable) {
		fprintf(out, "%s      (variables %s)\n", indent,
			oc_esc(e, sizeof(e), fv->unavailable, 0));
		return;
	}
	for (size_t i = nr ? nr - 1 : 0; i + 1 < fv->nr_levels; i++) {
		fprintf(out, "%s      (in %s, inlined)\n", indent,
			oc_esc(e, sizeof(e), fv->levels[i].function ?
			       fv->levels[i].function : "?", 0));
		print_level_vars(&fv->levels[i], indent, out);
	}
	if (fv->nr_levels)
		print_level_vars(&fv->levels[fv->nr_levels - 1], indent, out);
}

/* The inlined functions a frame is in, innermost first, like drgn. */
static void print_inlines(const struct oc_line_info *chain, size_t nr,
			  bool scanned, const struct oc_framevars *fv,
			  const char *indent, FILE *out)
{
	for (size_t i = 0; i + 1 < nr; i++) {
		char line[1024], *p = line, *end = line + sizeof(line) - 1;

		put_str(&p, end, indent);
		put_str(&p, end, scanned ? "? " : "");
		put_esc(&p, end, chain[i].function ? chain[i].function : "?", 256, 0);
		put_str(&p, end, " (inlined)  ");
		put_esc(&p, end, chain[i].file ?
			oc_lines_short_file(chain[i].file) : "?", 256, 0);
		put_str(&p, end, ":");
		put_dec(&p, end, chain[i].line, 0);
		put_str(&p, end, "\n");
		put_line(out, line, p);
		print_level_vars(inline_level(fv, i, nr), indent, out);
	}
}

void oc_report_print_trace(const struct oc_kernel *k,
			   const struct oc_report_options *opts,
			   const struct oc_trace *trace, const char *indent,
			   FILE *out)
{
	enum oc_stack_type cur = OC_STACK_UNKNOWN;
	struct oc_line_info chain[16];
	char buf[320];

	for (size_t i = 0; i < trace->nr; i++) {
		const struct oc_frame *f = &trace->frames[i];
		size_t nr = oc_report_frame_lines(k, opts, f, chain, 16);
		struct oc_framevars *fv = frame_vars(k, opts, trace, i);

		if (f->stack != cur) {
			if (cur != OC_STACK_UNKNOWN)
				fprintf(out, "%s</%s>\n", indent, oc_stack_name(cur));
			if (f->stack != OC_STACK_UNKNOWN)
				fprintf(out, "%s<%s>\n", indent, oc_stack_name(f->stack));
			cur = f->stack;
		}
		print_inlines(chain, nr, f->scanned, fv, indent, out);
		if (f->regs_kind != OC_REGS_NONE && (!opts || opts->regs)) {
			oc_report_print_regs(k, f, indent, out);
			if (nr) {
				char e[256];

				fprintf(out, "%sRIP at %s:%u\n", indent,
					oc_esc(e, sizeof(e), oc_lines_short_file(
						chain[nr - 1].file), 0),
					chain[nr - 1].line);
			}
			print_frame_vars(fv, nr, indent, out);
			oc_framevars_free(fv);
			continue;
		}
		oc_report_format_frame(k, f, buf, sizeof(buf));
		{
			char line[1024], *p = line, *end = line + sizeof(line) - 1;

			put_str(&p, end, indent);
			put_str(&p, end, f->scanned ? "? " : "");
			put_str(&p, end, buf);
			put_line_suffix(&p, end, chain, nr);
			put_str(&p, end, "\n");
			put_line(out, line, p);
		}
		print_frame_vars(fv, nr, indent, out);
		oc_framevars_free(fv);
	}
	if (cur != OC_STACK_UNKNOWN)
		fprintf(out, "%s</%s>\n", indent, oc_stack_name(cur));
	if (!trace->reliable || trace->stop == OC_STOP_ERROR ||
	    trace->stop == OC_STOP_FRAME_LIMIT) {
		oc_trace_stop_string(trace, buf, sizeof(buf));
		fprintf(out, "%s(unreliable: ", indent);
		oc_str_fput(out, buf, strlen(buf), 0);
		fputs(")\n", out);
	}
}

/* The header's WARNING lines; with --no-header, on stderr. */
void oc_report_print_warnings(const struct oc_kernel *k, FILE *out)
{
	for (unsigned int i = 0; i < k->nr_warnings; i++) {
		fprintf(out, "%sWARNING: ", out == stderr ? "orccrash: " : "   ");
		oc_str_fput(out, k->warnings[i], strlen(k->warnings[i]), 0);
		fputc('\n', out);
	}
}

/*
 * The crash summary (src/triage.h, docs/triage.md), first in the header:
 * @crash when the caller has it, else computed here.
 */
static void print_crash(const struct oc_kernel *k,
			const struct oc_report_options *opts,
			const struct oc_log *log, const struct oc_waits *waits,
			const struct oc_crash *crash, FILE *out)
{
	struct oc_line_info chain[16];
	struct oc_crash own;
	const struct oc_crash *c = crash ? crash : &own;
	char buf[320], e[1024];
	size_t nr;

	if (!crash) {
		struct oc_error *err = oc_triage(k, opts->lines, log, &own);

		if (err) {
			fprintf(out, "     CRASH: (not analysed: ");
			oc_error_fprint(out, err);
			fprintf(out, ")\n");
			oc_error_destroy(err);
			return;
		}
	}
	fprintf(out, "     CRASH: %s\n", oc_esc(e, sizeof(e), c->title, 0));
	fprintf(out, "      KIND: %s\n", oc_crash_kind_name(c->kind));
	if (c->have_guilty) {
		char line[1024], *p = line, *end = line + sizeof(line) - 1;

		oc_report_format_frame(k, &c->guilty, buf, sizeof(buf));
		nr = oc_report_frame_lines(k, opts, &c->guilty, chain, 16);
		put_str(&p, end, "    GUILTY: ");
		put_str(&p, end, buf);
		put_line_suffix(&p, end, chain, nr);
		put_str(&p, end, "\n");
		put_line(out, line, p);
		fprintf(out, " SIGNATURE: %s\n", c->signature);
	}
	if (c->have_bug)
		fprintf(out, "    BUG AT: %s:%u%s\n", oc_esc(e, sizeof(e), c->bug.file, 0), c->bug.line,
			c->bug.warning ? " (a WARN)" : "");
	if (c->have_address)
		fprintf(out, "   ADDRESS: 0x%" PRIx64 " (from the %s)\n", c->address,
			c->address_from);
	if (c->have_error_code && c->error_access[0])
		fprintf(out, "ERROR CODE: 0x%04" PRIx64 ": %s, %s (from the %s)\n",
			c->error_code, c->error_access, c->error_why, c->error_code_from);
	else if (c->have_error_code)
		fprintf(out, "ERROR CODE: 0x%" PRIx64 " (from the %s)\n",
			c->error_code, c->error_code_from);
	if (c->have_taint) {
		fprintf(out, "     TAINT: %s", c->nr_taints ? c->taint : "(none)");
		for (size_t i = 0; i < c->nr_taints; i++) {
			const struct oc_taint *t = &c->taints[i];

			fprintf(out, "%s%c=%s", i ? "; " : " (", t->letter, t->name);
			for (size_t m = 0; m < t->nr_modules; m++)
				fprintf(out, "%s%s", m ? ", " : ": ",
					oc_esc(e, sizeof(e), t->modules[m], 0));
			if (t->more_modules)
				fprintf(out, ", ...");
		}
		fprintf(out, "%s\n", c->nr_taints ? ")" : "");
	}
	for (size_t i = 0; i < c->nr_details; i++)
		fprintf(out, "    DETAIL: %s\n", oc_esc(e, sizeof(e), c->details[i], 0));
	oc_report_print_chains(waits, 8, out);
}

void oc_report_print_header(const struct oc_kernel *k,
			    const struct oc_report_options *opts,
			    const struct oc_log *log,
			    const struct oc_waits *waits,
			    const struct oc_crash *crash, FILE *out)
{
	const struct oc_task *pt = NULL;
	char msg[256], e[1024];

	if (k->panic_cpu >= 0)
		pt = k->cpus[k->panic_cpu].task;
	print_crash(k, opts, log, waits, crash, out);
	fprintf(out, "      DUMP: %s (%s)\n",
		oc_esc(e, sizeof(e), oc_dump_path(k->dump), 0),
		oc_dump_format_name(k->dump));
	fprintf(out, "   VMLINUX: %s\n", opts->vmlinux ?
		oc_esc(e, sizeof(e), opts->vmlinux, 0) :
		"(none: symbols, types and ORC from the dump)");
	/* every string below comes from the dump: docs/hardening.md */
	fprintf(out, "   RELEASE: %s\n", oc_esc(e, sizeof(e), k->release, 0));
	if (k->banner[0])
		fprintf(out, "    BANNER: %s\n", oc_esc(e, sizeof(e), k->banner, 0));
	fprintf(out, "   MACHINE: x86_64\n");
	fprintf(out, "     KASLR: 0x%" PRIx64 "%s\n", k->kaslr_offset,
		k->kaslr_offset ? "" : " (off)");
	fprintf(out, "      CPUS: %u\n", k->nr_cpus);
	fprintf(out, "       ORC: %s\n", oc_orc_version_name(k->orc_version));
	if (k->uptime_ns)
		fprintf(out, "    UPTIME: %" PRIu64 ".%06" PRIu64 " s\n",
			k->uptime_ns / 1000000000, k->uptime_ns / 1000 % 1000000);
	else if (log && log->nr) {
		/* printk's timestamp is local_clock(): time since boot */
		uint64_t ns = log->records[log->nr - 1].ts_nsec;

		fprintf(out, "    UPTIME: %" PRIu64 ".%06" PRIu64
			" s (the last log record)\n", ns / 1000000000,
			ns / 1000 % 1000000);
	}
	fprintf(out, "     TASKS: %zu%s\n", k->nr_tasks,
		k->tasks_incomplete ? " (list incomplete: unreliable, see WARNING)" : "");
	if (k->panic_cpu >= 0)
		fprintf(out, "     PANIC: CPU %d, PID %d (%s)\n", k->panic_cpu,
			pt ? pt->pid : -1,
			pt ? oc_esc(e, sizeof(e), pt->comm, 0) : "?");
	else
		fprintf(out, "     PANIC: (no panic CPU recorded)\n");
	if (k->panic_message[0])
		fprintf(out, "   MESSAGE: %s\n",
			oc_esc(e, sizeof(e), k->panic_message, 0));
	else if (log && oc_log_panic_message(log, msg, sizeof(msg)))
		fprintf(out, "   MESSAGE: %s\n", oc_esc(e, sizeof(e), msg, 0));
	oc_report_print_warnings(k, out);
	if (log && log->nr && opts->log_tail) {
		size_t from = log->nr > opts->log_tail ? log->nr - opts->log_tail : 0;

		struct oc_log tail = *log;

		tail.records += from;
		tail.nr -= from;
		fprintf(out, "\nLast kernel log lines:\n");
		oc_log_print(&tail, out);
	}
}

bool oc_report_same_trace(const struct oc_trace *a, const struct oc_trace *b)
{
	if (a->nr != b->nr || a->stop != b->stop || a->reliable != b->reliable ||
	    strcmp(a->message, b->message) || strcmp(a->note, b->note))
		return false;
	for (size_t i = 0; i < a->nr; i++)
		if (a->frames[i].ip != b->frames[i].ip ||
		    a->frames[i].scanned != b->frames[i].scanned)
			return false;
	return true;
}

void oc_report_print_task_line(const struct oc_task *t, FILE *out)
{
	char line[512], *p = line, *end = line + sizeof(line) - 1;
	char state[2] = { t->state, 0 };

	/* "PID: %-7d TGID: %-7d CPU: %-3d STATE: %c  COMM: \"%s\"  TASK:
	 * %016" PRIx64, appended (a line per task, as format_sym()) */
	put_str(&p, end, "PID: ");
	put_dec(&p, end, t->pid, 7);
	put_str(&p, end, " TGID: ");
	put_dec(&p, end, t->tgid, 7);
	put_str(&p, end, " CPU: ");
	put_dec(&p, end, t->cpu, 3);
	put_str(&p, end, " STATE: ");
	if (state[0])
		put_str(&p, end, state);
	else if (p < end)
		*p++ = 0;	/* %c of NUL writes it */
	put_str(&p, end, "  COMM: \"");
	/* inside the quotes a '"' or '\\' in the comm is escaped too */
	put_esc(&p, end, t->comm, 128, OC_ESC_QUOTE);
	put_str(&p, end, "\"  TASK: ");
	put_hex_width(&p, end, t->addr, 16);
	put_str(&p, end, t->running_on >= 0 ? "  (running)\n" : "\n");
	put_line(out, line, p);
}

bool oc_report_print_cpu_heading(const struct oc_kernel *k, unsigned int c,
				 FILE *out)
{
	const struct oc_cpu *cpu = &k->cpus[c];

	fprintf(out, "CPU %u%s: ", c, (int)c == k->panic_cpu ? " (panic)" : "");
	if (cpu->task)
		oc_report_print_task_line(cpu->task, out);
	else
		fprintf(out, "TASK: %016" PRIx64 "\n", cpu->current);
	if (!cpu->has_regs)
		fprintf(out, " (no registers saved for this CPU)\n");
	return cpu->has_regs;
}

/*
 * A task in D: how long it has been off the CPU (src/triage.h), with
 * the time it last got one as the log prints its timestamps.
 */
void oc_report_print_blocked(const struct oc_kernel *k,
			     const struct oc_sched_clock *clk,
			     const struct oc_waits *waits,
			     const struct oc_task *t, FILE *out)
{
	uint64_t ns, since;
	char ts[40];

	if ((t->state != 'D' && !oc_waits_blocked(waits, t)) ||
	    !oc_triage_off_cpu(k, clk, t, &ns, &since))
		return;
	oc_log_format_time(since, ts, sizeof(ts));
	fprintf(out, " BLOCKED: %" PRIu64 ".%03" PRIu64 " s off CPU, since %s"
		"(sched_info.last_arrival)\n", ns / 1000000000,
		ns / 1000000 % 1000, ts);
}

void oc_report_print_wait(const struct oc_waits *waits,
			  const struct oc_task *t, FILE *out)
{
	const struct oc_task_wait *tw = oc_waits_blocked(waits, t);
	char lock[256], comm[128];

	if (!tw || tw->kind == OC_WAIT_NONE)
		return;
	oc_waits_lock_string(tw, lock, sizeof(lock));
	fprintf(out, " WAITS ON: %s", lock);
	if (tw->have_address && tw->symbol[0])
		fprintf(out, " at 0x%" PRIx64, tw->address);
	if (tw->owner)
		fprintf(out, ", held by pid %d (%s)", tw->owner->pid,
			oc_esc(comm, sizeof(comm), tw->owner->comm, 0));
	else if (tw->have_owner)
		fprintf(out, ", held by 0x%" PRIx64, tw->owner_addr);
	else if (tw->readers >= 0)
		fprintf(out, ", held by %ld reader%s", tw->readers,
			tw->readers == 1 ? "" : "s");
	if (tw->from)
		fprintf(out, " (%s)", !strcmp(tw->from, "dwarf") ?
			"from the DWARF" : !strcmp(tw->from, "waiter") ?
			"from the wait list" : !strcmp(tw->from, "pi_blocked_on") ?
			"from the task's pi_blocked_on" : !strcmp(tw->from, "owner") ?
			"from the rt_mutex it owns" : !strcmp(tw->from, "dwarf+owner") ?
			"from the DWARF and the rt_mutex it owns" :
			"from the DWARF and the wait list");
	if (!tw->reliable)
		fprintf(out, " (unreliable: %s)", oc_esc(comm, sizeof(comm), tw->why, 0));
	fputc('\n', out);
}

void oc_report_print_chains(const struct oc_waits *waits, size_t max,
			    FILE *out)
{
	char buf[2048], e[4096];
	size_t i;

	if (!waits)
		return;
	for (i = 0; i < waits->nr_chains && i < max; i++) {
		oc_waits_chain_string(waits, &waits->chains[i], buf, sizeof(buf));
		fprintf(out, "%s%s\n", waits->chains[i].cycle ? "  DEADLOCK: " :
			"     CHAIN: ", oc_esc(e, sizeof(e), buf, 0));
	}
	if (i < waits->nr_chains)
		fprintf(out, "     CHAIN: ... and %zu more\n", waits->nr_chains - i);
}

struct oc_error *oc_report_log(const struct oc_kernel *k, FILE *out,
			       bool *reliable)
{
	struct oc_error *err;
	struct oc_log log;

	err = oc_kernel_read_log(k, &log);
	if (err)
		return oc_error_set_path(err, oc_dump_path(k->dump));
	/* the header's WARNINGs still count: a dump cut short can lose
	 * part of the log (exit 3 as for a report) */
	oc_report_print_warnings(k, stderr);
	oc_log_print(&log, out);
	oc_log_deinit(&log);
	*reliable = !k->dump_truncated;
	return NULL;
}

/*
 * The empty line between the report's parts; none before the first one
 * (with --no-header, the report starts with its first part).
 */
static void part_break(FILE *out, bool *first)
{
	if (!*first)
		fputc('\n', out);
	*first = false;
}

/* The CPUs part: each selected CPU's trace from its crash registers. */
static bool print_cpus(const struct oc_kernel *k,
		       const struct oc_report_options *opts,
		       const struct oc_selection *sel, bool *first, FILE *out)
{
	struct oc_unwind_options uo = { .scan = opts->scan };
	bool reliable = true;

	for (size_t i = 0; i < sel->nr_cpus; i++) {
		unsigned int c = sel->cpus[i];
		struct oc_error *err;
		struct oc_trace tr;

		part_break(out, first);
		if (!oc_report_print_cpu_heading(k, c, out))
			continue;
		oc_trace_init(&tr);
		err = oc_kernel_unwind_cpu(k, c, &uo, &tr);
		if (err) {
			fprintf(out, " error: ");
			oc_error_fprint(out, err);
			fputc('\n', out);
			oc_error_destroy(err);
			reliable = false;
		} else {
			oc_report_print_trace(k, opts, &tr, " ", out);
			if (!tr.reliable)
				reliable = false;
		}
		oc_trace_deinit(&tr);
	}
	return reliable;
}

/*
 * --group: the stacks, each once, after the count and (the first 16 of)
 * the tasks that share it.  The variables of --locals are each task's
 * own, so a shared stack is shown without them.
 */
static void print_groups(const struct oc_kernel *k,
			 const struct oc_report_options *opts,
			 const struct oc_selection *sel,
			 const struct oc_trace *groups, const size_t *group_of,
			 const size_t *first, size_t ngroups, FILE *out)
{
	struct oc_report_options shared = *opts;

	shared.locals = false;
	for (size_t g = 0; g < ngroups; g++) {
		size_t count = 0, shown = 0;

		for (size_t i = first[g]; i < sel->nr_tasks; i++)
			count += group_of[i] == g;
		fprintf(out, "\n%zu task%s with this stack:", count,
			count == 1 ? "" : "s");
		for (size_t i = first[g]; i < sel->nr_tasks && shown < 16; i++) {
			if (group_of[i] != g)
				continue;
			char comm[128];

			fprintf(out, " %d(%s)", sel->tasks[i]->pid,
				oc_esc(comm, sizeof(comm), sel->tasks[i]->comm, 0));
			shown++;
		}
		fprintf(out, "%s\n", count > shown ? " ..." : "");
		oc_report_print_trace(k, &shared, &groups[g], " ", out);
	}
}

/*
 * What the summary keeps of the traces, taken in task order: how many
 * are unreliable, and the first SUMMARY_SHOWN of them's stop reasons
 * (not the traces: a 10,000-task report's would be 4 MB, 428 bytes each).
 */
enum { SUMMARY_SHOWN = 20 };

struct summary {
	size_t nbad, nshown;
	struct {
		size_t task;
		char stop[256];
	} shown[SUMMARY_SHOWN];
};

static void summary_add(struct summary *sum, size_t i, const struct oc_trace *tr)
{
	if (tr->reliable)
		return;
	if (sum->nshown < SUMMARY_SHOWN) {
		sum->shown[sum->nshown].task = i;
		oc_trace_stop_string(tr, sum->shown[sum->nshown].stop,
				     sizeof(sum->shown[0].stop));
		sum->nshown++;
	}
	sum->nbad++;
}

static void print_summary(const struct oc_selection *sel,
			  const struct summary *sum, FILE *out)
{
	size_t counts[128] = {0};

	for (size_t i = 0; i < sel->nr_tasks; i++)
		counts[(unsigned char)sel->tasks[i]->state & 127]++;
	fprintf(out, "\nSummary: %zu tasks", sel->nr_tasks);
	for (int c = 0; c < 128; c++)
		if (counts[c])
			fprintf(out, ", %zu %c", counts[c], c);
	fprintf(out, "; %zu unreliable trace%s\n", sum->nbad, sum->nbad == 1 ? "" : "s");
	for (size_t j = 0; j < sum->nshown; j++) {
		const struct oc_task *t = sel->tasks[sum->shown[j].task];
		char comm[128];

		fprintf(out, "  PID %d (%s): ", t->pid,
			oc_esc(comm, sizeof(comm), t->comm, 0));
		oc_str_fput(out, sum->shown[j].stop, strlen(sum->shown[j].stop), 0);
		fputc('\n', out);
	}
}

/* A failed unwind as a trace that ends in the error. */
static void trace_take_error(struct oc_trace *tr, struct oc_error *err)
{
	if (!err)
		return;
	tr->reliable = false;
	tr->stop = OC_STOP_ERROR;
	oc_error_take(err, tr->message, sizeof(tr->message));
}

/* One task's part, in any thread (src/tasktraces.h). */
static bool render_task(void *arg, size_t i, struct oc_trace *tr,
			struct oc_error *err, FILE *out, bool *ok)
{
	const struct oc_report_tasks_ctx *r = arg;
	const struct oc_task *t = r->sel->tasks[i];

	trace_take_error(tr, err);
	*ok = tr->reliable;
	fputc('\n', out);
	oc_report_print_task_line(t, out);
	oc_report_print_blocked(r->k, r->clk, r->waits, t, out);
	oc_report_print_wait(r->waits, t, out);
	oc_report_print_trace(r->k, r->opts, tr, " ", out);
	return true;
}

/*
 * The tasks part.  A printed trace keeps nothing but what the summary
 * shows (struct summary): a 10,000-task report holds no traces, where
 * keeping them had been 75 MB with their frames (docs/benchmarks.md) and
 * 4 MB without; with --group, each group's first trace keeps its frames.
 * Without --group each task's part is made where its trace was unwound,
 * on another core when there are many (src/tasktraces.h).
 */
static struct oc_error *print_tasks(const struct oc_kernel *k,
				     const struct oc_report_options *opts,
				     const struct oc_selection *sel,
				     const struct oc_waits *waits,
				     bool *reliable, bool *no_part_yet,
				     FILE *out)
{
	struct oc_unwind_options uo = { .scan = opts->scan };
	bool tty = opts->progress && isatty(STDERR_FILENO);
	struct oc_sched_clock clk;
	struct oc_report_tasks_ctx tr_arg = {
		.k = k, .opts = opts, .sel = sel, .clk = &clk, .waits = waits,
	};
	struct oc_task_render render = {
		.fn = render_task, .arg = &tr_arg, .serial = opts->locals,
	};
	size_t n = sel->nr_tasks ? sel->nr_tasks : 1, ngroups = 0, cap = 0;
	/* --group: each group's first trace, and which group a task is in */
	struct oc_trace *groups = NULL;
	size_t *group_of = NULL, *first = NULL;
	struct summary *sum = calloc(1, sizeof(*sum));
	struct oc_task_traces *tt = NULL;
	bool oom = false;

	oc_triage_sched_clock(k, &clk);
	if (opts->group) {
		group_of = calloc(n, sizeof(*group_of));
		first = calloc(n, sizeof(*first));
	}
	if (!sum || (opts->group && (!group_of || !first)) ||
	    oc_task_traces_begin(k, sel->tasks, sel->nr_tasks, &uo,
				 opts->group ? NULL : &render, &tt)) {
		free(sum);
		free(group_of);
		free(first);
		return &oc_enomem;
	}
	part_break(out, no_part_yet);
	fprintf(out, "Tasks:\n");
	for (size_t i = 0; i < sel->nr_tasks; i++) {
		struct oc_task_result res;
		struct oc_trace *tr = &res.trace;
		size_t g;

		if (tty && i % 64 == 0)
			fprintf(stderr, "\rorccrash: %zu/%zu tasks", i, sel->nr_tasks);
		oc_task_traces_next(tt, &res);
		trace_take_error(tr, res.err);
		if (!tr->reliable)
			*reliable = false;
		summary_add(sum, i, tr);
		if (opts->group) {
			for (g = 0; g < ngroups; g++)
				if (oc_report_same_trace(&groups[g], tr))
					break;
			group_of[i] = g;
			if (g == ngroups) {
				struct oc_trace *p = oc_array_grow(groups, ngroups, 1, &cap,
								   sizeof(*groups), 16);

				if (p) {
					groups = p;
					first[ngroups] = i;
					groups[ngroups++] = *tr;
					continue;	/* its frames kept */
				}
				oom = true;
				group_of[i] = SIZE_MAX;	/* in no group */
			}
		} else if (res.text) {
			fwrite(res.text, 1, res.len, out);
			free(res.text);
		} else {
			oom = true;
		}
		oc_trace_deinit(tr);
	}
	oc_task_traces_end(tt);
	if (tty)
		fprintf(stderr, "\r%40s\r", "");
	print_groups(k, opts, sel, groups, group_of, first, ngroups, out);
	print_summary(sel, sum, out);
	for (size_t g = 0; g < ngroups; g++)
		oc_trace_deinit(&groups[g]);
	free(groups);
	free(group_of);
	free(first);
	free(sum);
	return oom ? &oc_enomem : NULL;
}

struct oc_error *oc_report_traces(const struct oc_kernel *k,
				  const struct oc_report_options *opts,
				  const struct oc_selection *sel,
				  const struct oc_waits *waits, bool *reliable,
				  bool *no_part_yet, FILE *out)
{
	*reliable &= print_cpus(k, opts, sel, no_part_yet, out);
	if (!sel->show_tasks)
		return NULL;
	return print_tasks(k, opts, sel, waits, reliable, no_part_yet, out);
}

struct oc_error *oc_report_begin(const struct oc_kernel *k,
				 const struct oc_report_options *opts,
				 struct oc_report_start *ret)
{
	struct oc_error *err;

	memset(ret, 0, sizeof(*ret));
	err = oc_select(k, &opts->sel, &ret->sel);
	if (err)
		return oc_error_set_path(err, oc_dump_path(k->dump));
	ret->log_err = oc_kernel_read_log(k, &ret->log);
	ret->have_log = !ret->log_err;
	/* out of memory leaves the waits out, as the log's absence does */
	ret->have_waits = oc_ok(oc_waits_compute_states(k, opts->lines,
							opts->blocked_states ?
							opts->blocked_states : "D",
							&ret->waits));
	ret->complete = !k->tasks_incomplete && !k->modules_incomplete &&
			!k->dump_truncated && !k->release_mismatch;
	return NULL;
}

void oc_report_finish(struct oc_report_start *start)
{
	oc_selection_deinit(&start->sel);
	if (start->have_waits)
		oc_waits_deinit(&start->waits);
	if (start->have_log)
		oc_log_deinit(&start->log);
	oc_error_destroy(start->log_err);
}

struct oc_error *oc_report_text(const struct oc_kernel *k,
				const struct oc_report_options *opts,
				FILE *out, bool *reliable)
{
	struct oc_report_start st;
	const struct oc_log *log;
	bool first = opts->no_header;
	struct oc_error *err = oc_report_begin(k, opts, &st);

	if (err)
		return err;
	log = st.have_log ? &st.log : NULL;
	*reliable = st.complete;
	if (st.log_err) {
		FILE *to = opts->no_header ? stderr : out;

		fprintf(to, "%sWARNING: kernel log: ",
			opts->no_header ? "orccrash: " : "   ");
		oc_error_fprint(to, st.log_err);
		fputc('\n', to);
	}
	if (opts->no_header)
		oc_report_print_warnings(k, stderr);
	else
		oc_report_print_header(k, opts, log, st.have_waits ? &st.waits : NULL,
				       NULL, out);
	if (opts->log && log) {
		part_break(out, &first);
		fprintf(out, "Kernel log:\n");
		oc_log_print(log, out);
	}
	err = oc_report_traces(k, opts, &st.sel, st.have_waits ? &st.waits : NULL,
			       reliable, &first, out);
	oc_report_finish(&st);
	return err;
}
