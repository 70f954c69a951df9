// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The command layer (src/cmd.h, docs/commands.md): crash's command names
 * and, where a crash user reads them side by side, crash's layouts (`rd`,
 * `ps`, `mod`, `sym`); the values come from the kernel model only.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "disasm.h"
#include "dwarflines.h"
#include "dwarfvars.h"
#include "lineinfo.h"
#include "lines.h"
#include "dump.h"
#include "strutil.h"
#include "log.h"
#include "report.h"
#include "select.h"
#include "triage.h"
#include "waits.h"

enum { MAX_ARGS = 32, LINE_MAX_LEN = 4096 };

/* rd reads at most this much at once: every printer is capped */
enum { RD_MAX_COUNT = 1 << 16 };

struct cmd_ctx {
	struct oc_kernel *k;	/* not const: the modules' BTF is read on first use */
	struct oc_lines *lines;	/* NULL: none (dis -l says so) */
	bool json;
	FILE *out;
	const char *name;
	int argc;
	char **argv;
	/* the JSON document's "result" (json only) */
	struct json_object *result;
};

void oc_cmd_put_safe(FILE *out, const char *s)
{
	oc_str_fput(out, s, strlen(s), 0);	/* formats/strutil.c, the one sanitiser */
}

static struct oc_error *cmd_error(const struct cmd_ctx *c, enum oc_error_code code,
				  const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* the types a user names: the kernel's BTF, then the modules' own */
static struct oc_types *user_types(struct cmd_ctx *c)
{
	return oc_kernel_all_types(c->k);
}

/* "NAME: message": the one line a front end prints */
static struct oc_error *cmd_error(const struct cmd_ctx *c, enum oc_error_code code,
				  const char *fmt, ...)
{
	char msg[512], safe[1024];
	va_list ap;
	int n = snprintf(msg, sizeof(msg), "%s: ", c->name);

	va_start(ap, fmt);
	vsnprintf(msg + n, sizeof(msg) - n, fmt, ap);
	va_end(ap);
	/* an argument echoed back may carry control bytes: the one
	 * sanitiser (formats/strutil.h) */
	return oc_error_create(code, oc_esc(safe, sizeof(safe), msg, 0));
}

/* ---- arguments -------------------------------------------------------- */

/* A hex number, with or without 0x (crash's convention for addresses). */
static bool parse_hex(const char *s, uint64_t *ret)
{
	char *end;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	if (!isxdigit((unsigned char)*s))
		return false;
	errno = 0;
	*ret = strtoull(s, &end, 16);
	return !*end && !errno;
}

/*
 * An address argument: a symbol (vmlinux, then modules), SYMBOL+OFF, or
 * a hex number.  A name that is both a symbol and hex ("add") is the
 * symbol, as in crash.
 */
static struct oc_error *parse_addr(const struct cmd_ctx *c, const char *s,
				   uint64_t *ret)
{
	const struct oc_module *m;
	const struct oc_symbol *sym;
	char name[256];
	const char *plus = strchr(s, '+');
	uint64_t off = 0;

	if (plus && plus != s && (size_t)(plus - s) < sizeof(name)) {
		char *end;

		memcpy(name, s, plus - s);
		name[plus - s] = '\0';
		errno = 0;
		off = strtoull(plus + 1, &end, 0);
		if (!plus[1] || *end || errno)
			return cmd_error(c, OC_ERR_INVALID, "bad offset: %s", s);
		s = name;
	}
	sym = oc_kernel_find_symbol(c->k, s, &m);
	if (sym) {
		*ret = oc_symtab_addr(oc_kernel_symtab(c->k, m), sym) + off;
		return NULL;
	}
	if (!plus && parse_hex(s, ret))
		return NULL;
	return cmd_error(c, OC_ERR_LOOKUP, "no symbol %s", s);
}

static bool parse_count(const char *s, uint64_t *ret)
{
	char *end;

	if (!isdigit((unsigned char)*s))
		return false;
	errno = 0;
	*ret = strtoull(s, &end, 0);
	return !*end && !errno;
}

/* Split @line into @argv (in @buf), honouring '...' and "..." quotes. */
static int split_line(const char *line, char *buf, size_t size, char **argv,
		      int max)
{
	size_t n = 0;
	int argc = 0;

	while (*line) {
		char quote = 0;

		while (isspace((unsigned char)*line))
			line++;
		if (!*line)
			break;
		if (argc == max)
			return -1;
		argv[argc++] = buf + n;
		while (*line && (quote || !isspace((unsigned char)*line))) {
			if (!quote && (*line == '\'' || *line == '"'))
				quote = *line;
			else if (quote && *line == quote)
				quote = 0;
			else if (n + 1 < size)
				buf[n++] = *line;
			else
				return -1;
			line++;
		}
		if (quote)
			return -2;
		buf[n++] = '\0';
	}
	return argc;
}

static bool is_kernel_addr(uint64_t addr)
{
	return (int64_t)addr < 0;
}

/* ---- sym -------------------------------------------------------------- */

static void sym_print(const struct cmd_ctx *c, uint64_t addr,
		      const struct oc_sym_result *s, bool exact, bool percpu)
{
	if (c->json) {
		struct json_object *o = c->result;

		oc_json_set(o, "address", oc_json_hex(addr));
		oc_json_set(o, "name", oc_json_str(s->name));
		oc_json_set(o, "type", oc_json_chk(json_object_new_string_len(&s->type, 1)));
		oc_json_set(o, "offset", oc_json_chk(json_object_new_int64((int64_t)s->offset)));
		oc_json_set(o, "size", oc_json_chk(json_object_new_int64((int64_t)s->size)));
		oc_json_set(o, "module", oc_json_str(s->module));
		oc_json_set(o, "per_cpu", oc_json_chk(json_object_new_boolean(percpu)));
		return;
	}
	fprintf(c->out, "%016" PRIx64 " (%c) ", addr, isprint((unsigned char)s->type) ? s->type : '?');
	oc_cmd_put_safe(c->out, s->name);
	if (!exact)
		fprintf(c->out, "+0x%" PRIx64 "/0x%" PRIx64, s->offset, s->size);
	if (s->module) {
		fputs(" [", c->out);
		oc_cmd_put_safe(c->out, s->module);
		fputc(']', c->out);
	}
	/* a per-CPU symbol is an offset into each CPU's area until 6.15,
	 * then the section's link address (kernel.c read_vmlinux()) */
	if (percpu)
		fputs(is_kernel_addr(addr) ? " (per-CPU: plus a CPU's __per_cpu_offset)" :
		      " (per-CPU offset)", c->out);
	fputc('\n', c->out);
}

/* sym -m MODULE: the module's symbols in address order, as crash lists them */
static struct oc_error *sym_module(struct cmd_ctx *c, const char *name)
{
	const struct oc_module *m = NULL;
	struct json_object *a = NULL;

	for (size_t i = 0; i < c->k->nr_modules && !m; i++)
		if (!strcmp(c->k->modules[i].name, name))
			m = &c->k->modules[i];
	if (!m)
		return cmd_error(c, OC_ERR_LOOKUP, "no module %s", name);
	if (c->json)
		a = oc_json_chk(json_object_new_array());
	for (size_t i = 0; i < m->syms.nr; i++) {
		const struct oc_symbol *sym = &m->syms.syms[i];
		const char *sname = oc_symtab_name(&m->syms, sym);

		if (c->json) {
			struct json_object *o = oc_json_chk(json_object_new_object());

			oc_json_set(o, "address", oc_json_hex(oc_symtab_addr(&m->syms, sym)));
			oc_json_set(o, "name", oc_json_str(sname));
			oc_json_set(o, "type", oc_json_chk(json_object_new_string_len(&sym->type, 1)));
			oc_json_set(o, "size", oc_json_chk(json_object_new_int64((int64_t)sym->size)));
			oc_json_push(a, o);
			continue;
		}
		fprintf(c->out, "%016" PRIx64 " (%c) ", oc_symtab_addr(&m->syms, sym),
			isprint((unsigned char)sym->type) ? sym->type : '?');
		oc_cmd_put_safe(c->out, sname);
		fputc('\n', c->out);
	}
	if (c->json) {
		oc_json_set(c->result, "module", oc_json_str(m->name));
		oc_json_set(c->result, "symbols", a);
	}
	return NULL;
}

static struct oc_error *cmd_sym(struct cmd_ctx *c)
{
	const struct oc_module *m;
	const struct oc_symbol *sym;
	struct oc_sym_result s;
	uint64_t addr;

	if (c->argc == 3 && !strcmp(c->argv[1], "-m"))
		return sym_module(c, c->argv[2]);
	if (c->argc != 2 || c->argv[1][0] == '-')
		return cmd_error(c, OC_ERR_INVALID, "usage: sym NAME|ADDRESS, sym -m MODULE");
	sym = oc_kernel_find_symbol(c->k, c->argv[1], &m);
	if (sym) {
		const struct oc_symtab *tab = oc_kernel_symtab(c->k, m);

		s = (struct oc_sym_result){
			.name = oc_symtab_name(tab, sym), .offset = 0,
			.size = sym->size, .module = m ? m->name : NULL,
			.type = sym->type,
		};
		sym_print(c, oc_symtab_addr(tab, sym), &s, true, false);
		return NULL;
	}
	/* a per-CPU variable: its offset in each CPU's area, as crash
	 * shows it (the vmlinux's zero-based .data..percpu address) */
	sym = oc_symtab_find(&c->k->percpu_syms, c->argv[1]);
	if (sym) {
		s = (struct oc_sym_result){
			.name = oc_symtab_name(&c->k->percpu_syms, sym),
			.size = sym->size, .type = sym->type,
		};
		sym_print(c, oc_symtab_addr(&c->k->percpu_syms, sym), &s, true, true);
		return NULL;
	}
	if (!parse_hex(c->argv[1], &addr))
		return cmd_error(c, OC_ERR_LOOKUP, "no symbol %s", c->argv[1]);
	if (!oc_kernel_symbolize_data(c->k, addr, &s))
		return cmd_error(c, OC_ERR_LOOKUP, "no symbol at 0x%" PRIx64, addr);
	sym_print(c, addr, &s, false, false);
	return NULL;
}

/* ---- mod -------------------------------------------------------------- */

/* The end of a list of modules or tasks: --json's array and whether the
 * list is complete; text: a last line when it is not. */
static void list_end(struct cmd_ctx *c, const char *key, struct json_object *a,
		     bool incomplete)
{
	if (c->json) {
		oc_json_set(c->result, key, a);
		oc_json_set(c->result, "incomplete", oc_json_chk(json_object_new_boolean(incomplete)));
	} else if (incomplete) {
		fprintf(c->out, "(%s list incomplete: unreliable)\n",
			!strcmp(key, "tasks") ? "task" : "module");
	}
}

static void build_id_string(const struct oc_module *m, char *buf, size_t size)
{
	oc_hex_string(m->build_id, m->build_id_len, buf, size);
}

/* Why module @name has no lines: the lines' reason, or that no .ko of it
 * was found (no modules dir: no reason recorded). */
static const char *module_no_lines(struct oc_lines *lines, const char *name)
{
	const char *why = oc_lines_module_unavailable(lines, name);

	return why ? why : "no .ko of it found (--modules-dir DIR, docs/lines.md)";
}

static struct oc_error *cmd_mod(struct cmd_ctx *c)
{
	struct oc_kernel *k = c->k;
	struct json_object *a = NULL;
	char bid[132];

	if (c->argc != 1)
		return cmd_error(c, OC_ERR_INVALID, "usage: mod");
	if (c->json)
		a = oc_json_chk(json_object_new_array());
	else
		fprintf(c->out, "     MODULE       NAME                         BASE         SIZE  ORC   SYMBOLS  TAINT  BTF  DEBUGINFO  BUILD-ID\n");
	for (size_t i = 0; i < k->nr_modules; i++) {
		const struct oc_module *m = &k->modules[i];
		uint64_t tmask;
		bool have_taint = oc_triage_module_taints(k, i, &tmask);
		char taint[32] = "";
		/* its .ko's DWARF (--modules-dir, docs/lines.md); unknown
		 * without the lines */
		struct oc_dwarf *dw = NULL;
		const char *debuginfo = "-";
		/* its own types, from the dump (src/kernel_modbtf.c) */
		bool btf = oc_kernel_module_btf(k, m) != NULL;

		oc_triage_taint_letters(tmask, taint, sizeof(taint));
		if (c->lines) {
			struct oc_error *err = oc_lines_module_dwarf(c->lines, m->name, &dw);

			if (err) {	/* out of memory */
				json_object_put(a);
				return err;
			}
			debuginfo = dw ? "yes" : "no";
		}
		build_id_string(m, bid, sizeof(bid));
		if (c->json) {
			struct json_object *o = oc_json_chk(json_object_new_object());
			const char *why = c->lines && !dw ?
				module_no_lines(c->lines, m->name) : NULL;

			oc_json_set(o, "name", oc_json_str(m->name));
			oc_json_set(o, "module", oc_json_hex(m->addr));
			oc_json_set(o, "base", oc_json_hex(m->base));
			oc_json_set(o, "size", oc_json_chk(json_object_new_int64((int64_t)m->size)));
			oc_json_set(o, "orc_entries", oc_json_chk(json_object_new_int64((int64_t)m->orc.nr)));
			oc_json_set(o, "symbols", oc_json_chk(json_object_new_int64((int64_t)m->syms.nr)));
			oc_json_set(o, "build_id", bid[0] ? oc_json_str(bid) : NULL);
			oc_json_set(o, "taint", have_taint ? oc_json_str(taint) : NULL);
			oc_json_set(o, "btf", oc_json_chk(json_object_new_boolean(btf)));
			oc_json_set(o, "debuginfo", c->lines ?
				    oc_json_chk(json_object_new_boolean(dw != NULL)) : NULL);
			oc_json_set(o, "debuginfo_why", why ? oc_json_str(why) : NULL);
			oc_json_push(a, o);
			continue;
		}
		/* the name was made printable when read (kernel_modules.c) */
		fprintf(c->out, "%016" PRIx64 "  %-22s %016" PRIx64 " %6" PRIu64
			"  %-4s %8zu  %-5s  %-3s  %-9s  %s\n", m->addr, m->name, m->base, m->size,
			m->orc.nr ? "yes" : "no", m->syms.nr,
			have_taint ? (taint[0] ? taint : "-") : "?", btf ? "yes" : "no", debuginfo,
			bid[0] ? bid : "-");
	}
	list_end(c, "modules", a, k->modules_incomplete);
	return NULL;
}

/* ---- log -------------------------------------------------------------- */

static struct oc_error *cmd_log(struct cmd_ctx *c)
{
	struct oc_log log;
	struct oc_error *err;

	if (c->argc != 1)
		return cmd_error(c, OC_ERR_INVALID, "usage: log");
	err = oc_kernel_read_log(c->k, &log);
	if (err) {
		char buf[300];

		oc_error_take(err, buf, sizeof(buf));
		oc_log_deinit(&log);
		return cmd_error(c, OC_ERR_FORMAT, "%s", buf);
	}
	if (c->json) {
		oc_json_set(c->result, "records", oc_report_log_json(&log));
		oc_json_set(c->result, "lost", oc_json_chk(json_object_new_int64((int64_t)log.nr_lost)));
		oc_json_set(c->result, "bad", oc_json_chk(json_object_new_int64((int64_t)log.nr_bad)));
	} else {
		oc_log_print(&log, c->out);
	}
	oc_log_deinit(&log);
	return NULL;
}

/* ---- rd --------------------------------------------------------------- */

/* crash's rd -s: a symbol, "+DEC" past it, for a value that is one */
static bool rd_symbol(const struct oc_kernel *k, uint64_t v, char *buf,
		      size_t size)
{
	struct oc_sym_result s;

	if (!is_kernel_addr(v) || !oc_kernel_symbolize_data(k, v, &s))
		return false;
	char name[256];

	oc_esc(name, sizeof(name), s.name, 0);
	if (s.offset)
		snprintf(buf, size, "%s+%" PRIu64, name, s.offset);
	else
		snprintf(buf, size, "%s", name);
	return true;
}

static uint64_t get_le(const uint8_t *p, unsigned int width)
{
	uint64_t v = 0;

	for (unsigned int i = width; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

enum rd_space { RD_KERNEL, RD_PHYS, RD_USER };

/*
 * rd -u PID: the physical address of the task's top-level page table
 * (mm->pgd, in the direct map), which maps its user half too (with PTI
 * the kernel's copy, the one mm->pgd points at, keeps the user
 * mappings: arch/x86/mm/pti.c).
 */
static struct oc_error *user_pgd(struct cmd_ctx *c, const char *pid_arg,
				 uint64_t addr, uint64_t *top)
{
	const struct oc_task *t;
	uint64_t mm_off, pgd_off, mm, pgd;
	char *end;
	long pid;

	errno = 0;
	pid = strtol(pid_arg, &end, 10);
	if (!*pid_arg || *end || errno || pid < 0 || pid > INT32_MAX)
		return cmd_error(c, OC_ERR_INVALID, "bad pid %s", pid_arg);
	if (is_kernel_addr(addr))
		return cmd_error(c, OC_ERR_INVALID, "0x%" PRIx64 ": not a user address", addr);
	t = oc_kernel_find_task(c->k, (int32_t)pid);
	if (!t)
		return cmd_error(c, OC_ERR_LOOKUP, "no task with pid %ld", pid);
	if (!c->k->types ||
	    !oc_ok(oc_types_offsetof(c->k->types, "struct task_struct", "mm", &mm_off)) ||
	    !oc_ok(oc_types_offsetof(c->k->types, "struct mm_struct", "pgd", &pgd_off)))
		return cmd_error(c, OC_ERR_LOOKUP, "no task_struct.mm or mm_struct.pgd in the types");
	if (!oc_ok(oc_mem_read_u64(&c->k->mem, t->addr + mm_off, &mm)) ||
	    (mm && !oc_ok(oc_mem_read_u64(&c->k->mem, mm + pgd_off, &pgd))))
		return cmd_error(c, OC_ERR_FAULT, "pid %ld: its mm is not in the dump", pid);
	if (!mm)
		return cmd_error(c, OC_ERR_INVALID, "pid %ld: a kernel thread, no user memory", pid);
	if (!oc_ok(oc_dump_virt_to_phys(c->k->dump, pgd, top)))
		return cmd_error(c, OC_ERR_FAULT, "pid %ld: its pgd 0x%" PRIx64 " is not in the dump",
				 pid, pgd);
	return NULL;
}

/* @len bytes at @at in @space, a page at a time (user pages translate
 * one by one) */
static struct oc_error *rd_read(struct cmd_ctx *c, enum rd_space space,
				uint64_t top, uint64_t at, uint8_t *buf, size_t len)
{
	if (space == RD_KERNEL)
		return oc_mem_read(&c->k->mem, at, buf, len);
	while (len) {
		size_t n = 4096 - (at & 4095);
		uint64_t pa = at;
		struct oc_error *err;

		if (n > len)
			n = len;
		if (space == RD_USER && (err = oc_dump_translate_in(c->k->dump, top, at, &pa)))
			return err;
		if ((err = oc_dump_read_phys(c->k->dump, pa, buf, n)))
			return err;
		at += n;
		buf += n;
		len -= n;
	}
	return NULL;
}

static struct oc_error *cmd_rd(struct cmd_ctx *c)
{
	unsigned int width = 8, per_line;
	bool syms = false;
	uint64_t addr, count = 1;
	const char *where = NULL, *cnt = NULL;
	struct json_object *words = NULL;
	struct oc_error *err;
	enum rd_space space = RD_KERNEL;
	const char *pid_arg = NULL;
	uint64_t top = 0;

	for (int i = 1; i < c->argc; i++) {
		const char *a = c->argv[i];

		if (!strcmp(a, "-8"))
			width = 1;
		else if (!strcmp(a, "-16"))
			width = 2;
		else if (!strcmp(a, "-32"))
			width = 4;
		else if (!strcmp(a, "-64"))
			width = 8;
		else if (!strcmp(a, "-s"))
			syms = true;
		else if (!strcmp(a, "-p"))
			space = RD_PHYS;
		else if (!strcmp(a, "-u") && i + 1 < c->argc)
			space = RD_USER, pid_arg = c->argv[++i];
		else if (a[0] == '-' && a[1])
			return cmd_error(c, OC_ERR_INVALID, "unknown option %s (-8 -16 -32 -64 -s -p -u PID)", a);
		else if (!where)
			where = a;
		else if (!cnt)
			cnt = a;
		else
			return cmd_error(c, OC_ERR_INVALID, "usage: rd [-8|-16|-32|-64] [-s] [-p|-u PID] ADDRESS [COUNT]");
	}
	if (!where)
		return cmd_error(c, OC_ERR_INVALID, "usage: rd [-8|-16|-32|-64] [-s] [-p|-u PID] ADDRESS [COUNT]");
	if (syms)
		width = 8;	/* crash's -s: 64-bit words */
	if (cnt && (!parse_count(cnt, &count) || !count))
		return cmd_error(c, OC_ERR_INVALID, "bad count: %s", cnt);
	if (count > RD_MAX_COUNT)
		return cmd_error(c, OC_ERR_INVALID, "count %" PRIu64 " over the limit of %d",
				 count, RD_MAX_COUNT);
	if (space == RD_KERNEL) {
		if ((err = parse_addr(c, where, &addr)))
			return err;
		if (!is_kernel_addr(addr))
			return cmd_error(c, OC_ERR_INVALID,
					 "0x%" PRIx64 ": not a kernel virtual address", addr);
	} else if (!parse_hex(where, &addr)) {
		return cmd_error(c, OC_ERR_INVALID, "%s: not a hex address", where);
	} else if (space == RD_USER && (err = user_pgd(c, pid_arg, addr, &top))) {
		return err;
	}
	if (addr + count * width < addr)
		return cmd_error(c, OC_ERR_INVALID, "0x%" PRIx64 ": the range wraps", addr);
	per_line = 16 / width;
	if (c->json) {
		words = oc_json_chk(json_object_new_array());
		oc_json_set(c->result, "address", oc_json_hex(addr));
		oc_json_set(c->result, "width", oc_json_chk(json_object_new_int((int)width * 8)));
		oc_json_set(c->result, "words", words);
		oc_json_set(c->result, "space", oc_json_str(space == RD_PHYS ? "physical" :
								       space == RD_USER ? "user" : "kernel"));
		oc_json_set(c->result, "pid", space == RD_USER ?
				       oc_json_chk(json_object_new_int(atoi(pid_arg))) : NULL);
	}
	for (uint64_t done = 0; done < count; done += per_line) {
		uint64_t at = addr + done * width;
		unsigned int n = count - done < per_line ? (unsigned)(count - done) : per_line;
		uint8_t buf[16];
		char ascii[17];

		err = rd_read(c, space, top, at, buf, (size_t)n * width);
		if (err) {
			oc_error_destroy(err);
			return cmd_error(c, OC_ERR_FAULT, "0x%" PRIx64 ": not in the dump", at);
		}
		if (c->json) {
			for (unsigned int i = 0; i < n; i++) {
				struct json_object *o = oc_json_chk(json_object_new_object());
				uint64_t v = get_le(buf + i * width, width);
				char sym[300];

				oc_json_set(o, "address", oc_json_hex(at + i * width));
				oc_json_set(o, "value", oc_json_hex(v));
				oc_json_set(o, "symbol", width == 8 && rd_symbol(c->k, v, sym, sizeof(sym)) ?
						       oc_json_str(sym) : NULL);
				oc_json_push(words, o);
			}
			continue;
		}
		fprintf(c->out, "%16" PRIx64 ":  ", at);	/* crash: "%16lx:" */
		for (unsigned int i = 0; i < n; i++) {
			uint64_t v = get_le(buf + i * width, width);
			char sym[300];

			if (syms && rd_symbol(c->k, v, sym, sizeof(sym)))
				fprintf(c->out, "%-16s ", sym);
			else
				fprintf(c->out, "%0*" PRIx64 " ", (int)width * 2, v);
		}
		if (syms) {
			fputc('\n', c->out);
			continue;
		}
		for (unsigned int i = n; i < per_line; i++)
			fprintf(c->out, "%*s", (int)width * 2 + 1, "");
		for (unsigned int i = 0; i < n * width; i++)
			ascii[i] = buf[i] >= 0x20 && buf[i] < 0x7f ? (char)buf[i] : '.';
		ascii[n * width] = '\0';
		fprintf(c->out, "  %s\n", ascii);
	}
	return NULL;
}

/* ---- ps --------------------------------------------------------------- */

static const struct oc_kernel *ps_sort_k;

/* crash's order: by pid, the idle tasks by CPU */
static int ps_cmp(const void *a, const void *b)
{
	const struct oc_task *x = &ps_sort_k->tasks[*(const size_t *)a];
	const struct oc_task *y = &ps_sort_k->tasks[*(const size_t *)b];

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

/* a task as ps's JSON has it */
static struct json_object *ps_json(const struct oc_task *t)
{
	struct json_object *o = oc_json_chk(json_object_new_object());

	oc_json_set(o, "pid", oc_json_chk(json_object_new_int(t->pid)));
	oc_json_set(o, "ppid", oc_json_chk(json_object_new_int(t->ppid)));
	oc_json_set(o, "tgid", oc_json_chk(json_object_new_int(t->tgid)));
	oc_json_set(o, "cpu", oc_json_chk(json_object_new_int(t->cpu)));
	oc_json_set(o, "state", oc_json_chk(json_object_new_string_len(&t->state, 1)));
	oc_json_set(o, "comm", oc_json_str(t->comm));
	oc_json_set(o, "task", oc_json_hex(t->addr));
	oc_json_set(o, "kthread", oc_json_chk(json_object_new_boolean(t->kthread)));
	oc_json_set(o, "on_cpu", t->running_on >= 0 ?
			       oc_json_chk(json_object_new_int(t->running_on)) : NULL);
	return o;
}

/* ps -m: when each task last got a CPU, and how long ago on its CPU's
 * runqueue clock (src/triage.c, the clock of the BLOCKED lines) */
struct ps_last {
	bool known;
	uint64_t arrival, ago;
};

static struct ps_last *ps_last_ran;

/* crash's ps -m order: the most recently run first */
static int ps_m_cmp(const void *a, const void *b)
{
	const struct ps_last *x = &ps_last_ran[*(const size_t *)a];
	const struct ps_last *y = &ps_last_ran[*(const size_t *)b];

	if (x->known != y->known)
		return x->known ? -1 : 1;
	if (x->known && x->arrival != y->arrival)
		return x->arrival > y->arrival ? -1 : 1;
	return ps_cmp(a, b);
}

static struct oc_error *ps_m(struct cmd_ctx *c, char state, size_t *order)
{
	const struct oc_kernel *k = c->k;
	struct json_object *a = c->json ? oc_json_chk(json_object_new_array()) : NULL;
	struct oc_sched_clock clk;
	struct ps_last *last = calloc(k->nr_tasks ? k->nr_tasks : 1, sizeof(*last));

	if (!last) {
		json_object_put(a);
		return &oc_enomem;
	}
	oc_triage_sched_clock(c->k, &clk);
	for (size_t i = 0; i < k->nr_tasks; i++) {
		const struct oc_task *t = &k->tasks[i];
		uint64_t now;

		if (t->cpu >= 0 && oc_triage_cpu_clock(k, &clk, (unsigned int)t->cpu, &now) &&
		    oc_triage_last_arrival(k, &clk, t, &last[i].arrival) && last[i].arrival <= now) {
			last[i].known = true;
			last[i].ago = now - last[i].arrival;
		}
	}
	ps_last_ran = last;
	qsort(order, k->nr_tasks, sizeof(*order), ps_m_cmp);
	for (size_t i = 0; i < k->nr_tasks; i++) {
		const struct oc_task *t = &k->tasks[order[i]];
		const struct ps_last *l = &last[order[i]];
		char comm[128];

		if (state && t->state != state)
			continue;
		if (c->json) {
			struct json_object *o = ps_json(t);

			oc_json_set(o, "last_arrival_ns", l->known ?
					       oc_json_chk(json_object_new_int64((int64_t)l->arrival)) : NULL);
			oc_json_set(o, "since_ns", l->known ?
					       oc_json_chk(json_object_new_int64((int64_t)l->ago)) : NULL);
			oc_json_push(a, o);
			continue;
		}
		if (l->known) {
			uint64_t ms = l->ago / 1000000, sec = ms / 1000;

			fprintf(c->out, "[%" PRIu64 " %02" PRIu64 ":%02" PRIu64 ":%02" PRIu64 ".%03" PRIu64 "]",
				sec / 86400, sec / 3600 % 24, sec / 60 % 60, sec % 60, ms % 1000);
		} else {
			fputs("[? ??:??:??.???]", c->out);
		}
		fprintf(c->out, " [%c]  PID: %-8d TASK: %016" PRIx64 "  CPU: %-3d  COMMAND: \"%s\"\n",
			t->state, t->pid, t->addr, t->cpu, oc_esc(comm, sizeof(comm), t->comm, OC_ESC_QUOTE));
	}
	free(last);
	ps_last_ran = NULL;
	list_end(c, "tasks", a, k->tasks_incomplete);
	return NULL;
}

static struct oc_error *cmd_ps(struct cmd_ctx *c)
{
	const struct oc_kernel *k = c->k;
	struct json_object *a = NULL;
	char state = 0;
	bool m = false;
	size_t *order;

	for (int i = 1; i < c->argc; i++) {
		if (!strcmp(c->argv[i], "-m"))
			m = true;
		else if (!strcmp(c->argv[i], "-S") && i + 1 < c->argc &&
			 strlen(c->argv[i + 1]) == 1 && strchr("RSDTtXZPI", c->argv[i + 1][0]))
			state = c->argv[++i][0];
		else
			return cmd_error(c, OC_ERR_INVALID, "usage: ps [-m] [-S STATE] (R S D T t X Z P I)");
	}
	order = malloc((k->nr_tasks ? k->nr_tasks : 1) * sizeof(*order));
	if (!order)
		return &oc_enomem;
	for (size_t i = 0; i < k->nr_tasks; i++)
		order[i] = i;
	ps_sort_k = k;
	qsort(order, k->nr_tasks, sizeof(*order), ps_cmp);
	if (m) {
		struct oc_error *err = ps_m(c, state, order);

		free(order);
		return err;
	}
	if (c->json)
		a = oc_json_chk(json_object_new_array());
	else
		fprintf(c->out, "      PID    PPID  CPU       TASK        ST  COMM\n");
	for (size_t i = 0; i < k->nr_tasks; i++) {
		const struct oc_task *t = &k->tasks[order[i]];

		if (state && t->state != state)
			continue;
		if (c->json) {
			oc_json_push(a, ps_json(t));
			continue;
		}
		/* the comm was made printable when read (kernel_tasks.c);
		 * kernel threads in brackets, as crash and ps(1) show them */
		fprintf(c->out, "%c%8d %7d %3d  %016" PRIx64 "  %c   %s%s%s\n",
			t->running_on >= 0 ? '>' : ' ', t->pid, t->ppid, t->cpu,
			t->addr, t->state, t->kthread ? "[" : "", t->comm,
			t->kthread ? "]" : "");
	}
	free(order);
	list_end(c, "tasks", a, k->tasks_incomplete);
	return NULL;
}

/* ---- struct ------------------------------------------------------------ */

/* what a struct command reads at most: task_struct is ~10 KiB */
enum { STRUCT_MAX_SIZE = 1 << 20, STRUCT_MAX_TEXT = 16 << 20 };

struct text_buf {
	char *s;
	size_t len, cap;
	bool full;
	const struct oc_kernel *k;
};

/* "name", "name+0xoff", then " [module]" */
static void symbol_text(const struct oc_sym_result *s, char *buf, size_t size)
{
	snprintf(buf, size, "%s%s%.0" PRIx64 "%s%s%s", s->name, s->offset ? "+0x" : "",
		 s->offset, s->module ? " [" : "", s->module ? s->module : "",
		 s->module ? "]" : "");
}

/* a pointer member's target, "name", "name+0xoff", " [module]" */
static bool text_symbol(void *arg, uint64_t addr, bool string, char *buf, size_t size)
{
	const struct text_buf *t = arg;
	struct oc_sym_result s;

	/* a char pointer's string: whole to its NUL (or the printer's cap),
	 * else nothing (a pointer into a page the dump lacks, a user
	 * address: the symbol or the bare value) */
	if (string)
		return is_kernel_addr(addr) && oc_ok(oc_mem_read_string(&t->k->mem, addr, buf, size));
	if (!is_kernel_addr(addr) || !oc_kernel_symbolize_data(t->k, addr, &s))
		return false;
	symbol_text(&s, buf, size);
	return true;
}

static void text_emit(void *arg, const char *fmt, va_list ap)
{
	struct text_buf *t = arg;
	va_list aq;
	int n;

	if (t->full)
		return;
	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		return;
	if (t->len + n + 1 > t->cap) {
		size_t cap = t->cap ? t->cap : 4096;
		char *p;

		while (cap < t->len + n + 1)
			cap *= 2;
		if (cap > STRUCT_MAX_TEXT || !(p = realloc(t->s, cap))) {
			t->full = true;
			return;
		}
		t->s = p;
		t->cap = cap;
	}
	vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
	t->len += n;
}

/*
 * The value of @type (or its member @path) at @addr, @size bytes, read
 * whole from the dump and printed by the types' printer (over BTF:
 * formats/btf.c) under the line "@label at 0xADDR:"; --json: the type,
 * member, address, size and text, added to the result.
 */
static struct oc_error *print_value(struct cmd_ctx *c, const char *label,
				    const char *type, const char *path,
				    uint64_t addr, uint64_t size,
				    unsigned int flags)
{
	struct text_buf t = { .k = c->k };
	struct oc_error *err;
	void *buf;

	if (size > STRUCT_MAX_SIZE)
		return cmd_error(c, OC_ERR_INVALID, "%s: %" PRIu64 " bytes, over the limit of %d",
				 type, size, STRUCT_MAX_SIZE);
	buf = malloc(size ? size : 1);
	if (!buf)
		return &oc_enomem;
	err = oc_mem_read(&c->k->mem, addr, buf, size);
	if (err) {
		oc_error_destroy(err);
		free(buf);
		return cmd_error(c, OC_ERR_FAULT, "0x%" PRIx64 " (%" PRIu64 " bytes): not in the dump",
				 addr, size);
	}
	err = oc_types_dump(user_types(c), type, path, buf, size, flags, text_emit,
			    text_symbol, &t);
	free(buf);
	if (err) {
		char msg[300];

		oc_error_take(err, msg, sizeof(msg));
		free(t.s);
		return cmd_error(c, OC_ERR_FORMAT, "%s", msg);
	}
	if (!t.s || t.full) {
		free(t.s);
		return cmd_error(c, OC_ERR_FORMAT, "%s: no text (or over %d bytes)", type,
				 STRUCT_MAX_TEXT);
	}
	if (c->json) {
		char tname[300];

		/* the type's C name: "struct rq" for p's "typeof(runqueues)" */
		if (!oc_ok(oc_types_name(user_types(c), type, NULL, tname, sizeof(tname))))
			snprintf(tname, sizeof(tname), "%s", type);
		oc_json_set(c->result, "type", oc_json_str(tname));
		oc_json_set(c->result, "member", oc_json_str(path));
		oc_json_set(c->result, "address", oc_json_hex(addr));
		oc_json_set(c->result, "size", oc_json_chk(json_object_new_int64((int64_t)size)));
		oc_json_set(c->result, "text", oc_json_str(t.s));
	} else {
		oc_cmd_put_safe(c->out, label);
		fprintf(c->out, " at 0x%" PRIx64 ":\n", addr);
		/* the printer's layout is tabs (4 spaces here) and newlines;
		 * anything else below 0x20 came from the dump: the one
		 * sanitiser */
		for (const char *p = t.s; *p;) {
			size_t n = strcspn(p, "\t");

			oc_str_fput(c->out, p, n, OC_ESC_KEEP_NL);
			p += n;
			for (; *p == '\t'; p++)
				fputs("    ", c->out);
		}
		if (t.len && t.s[t.len - 1] != '\n')
			fputc('\n', c->out);
	}
	free(t.s);
	return NULL;
}

/* @path's offset and size in @type (the whole type when @path is NULL) */
static struct oc_error *member_span(struct cmd_ctx *c, const char *type,
				    const char *path, uint64_t *offset,
				    uint64_t *size)
{
	struct oc_member m;
	struct oc_error *err;

	*offset = 0;
	if (!path)
		return NULL;
	err = oc_types_member(user_types(c), type, path, &m);
	if (err) {
		char msg[300];

		oc_error_take(err, msg, sizeof(msg));
		return cmd_error(c, OC_ERR_LOOKUP, "%s", msg);
	}
	*offset = m.offset;
	*size = m.size;
	if (!m.size)
		return cmd_error(c, OC_ERR_INVALID, "%s.%s: a flexible array, no size to print",
				 type, path);
	return NULL;
}

/* @flag among the arguments: whether it was there; the others shifted down */
static bool take_flag(struct cmd_ctx *c, const char *flag)
{
	bool seen = false;
	int n = 1;

	for (int i = 1; i < c->argc; i++) {
		if (!strcmp(c->argv[i], flag))
			seen = true;
		else
			c->argv[n++] = c->argv[i];
	}
	c->argc = n;
	return seen;
}

/* -x among the arguments: integers in hex */
static unsigned int take_hex_flag(struct cmd_ctx *c)
{
	return take_flag(c, "-x") ? OC_TYPES_HEX : 0;
}

/*
 * struct [-x] TYPE ADDRESS: TYPE is "task_struct" (a struct, else a
 * union, else a typedef or base type by that name) or "struct
 * task_struct" in quotes.
 */
/*
 * struct's TYPE as the types name it: @base "task_struct" is a struct's
 * name, else a union's, else a typedef's or a base type's; "struct x"
 * given whole is taken as it is.  Into @type, its size into *@size_ret;
 * false: no such type.
 */
static bool struct_type_name(struct oc_types *types, const char *base, char *type,
			     size_t size, uint64_t *size_ret)
{
	static const char *const tries[] = { "struct ", "union ", "" };

	for (size_t i = 0; i < sizeof(tries) / sizeof(tries[0]); i++) {
		if (strchr(base, ' ') && i < 2)
			continue;	/* "struct x" given whole */
		snprintf(type, size, "%s%s", tries[i], base);
		if (oc_ok(oc_types_size(types, type, size_ret)) && *size_ret)
			return true;
	}
	return false;
}

/* struct_layout()'s member names, in the type's order */
struct name_list {
	char (*v)[128];
	size_t nr, cap;
};

static bool add_name(void *ctx, const char *name)
{
	struct name_list *l = ctx;

	if (l->nr == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 64;
		void *p = cap <= 4096 ? realloc(l->v, cap * sizeof(*l->v)) : NULL;

		if (!p)
			return false;	/* a type of 4096 members is printed so far */
		l->v = p;
		l->cap = cap;
	}
	snprintf(l->v[l->nr++], sizeof(*l->v), "%s", name);
	return true;
}

/*
 * struct TYPE[.MEMBER...] with no address (crash's struct -o): the
 * layout, each member's offset, C type and name (bit fields with their
 * bit offset and width), anonymous structs' and unions' members among
 * the type's own at their offsets, then the size.  Names, offsets and
 * types from the types' own answers (complete, member, type_name).
 */
static struct oc_error *struct_layout(struct cmd_ctx *c, const char *type, const char *path,
				      uint64_t size)
{
	struct oc_types *types = user_types(c);
	struct name_list names = { 0 };
	struct json_object *a = c->json ? oc_json_chk(json_object_new_array()) : NULL;
	char tname[300];
	uint64_t base = 0;

	if (path) {
		struct oc_member pm;

		if (!oc_ok(oc_types_member(types, type, path, &pm))) {
			json_object_put(a);
			return cmd_error(c, OC_ERR_LOOKUP, "%s has no member %s", type, path);
		}
		base = pm.offset;
	}
	if (!oc_ok(oc_types_name(types, type, path, tname, sizeof(tname))))
		snprintf(tname, sizeof(tname), "%s", type);
	oc_types_complete(types, type, path, "", add_name, &names);
	if (!c->json) {
		oc_cmd_put_safe(c->out, tname);
		fputs(" {\n", c->out);
	}
	for (size_t i = 0; i < names.nr; i++) {
		char mpath[600], mtype[300], *dims;
		struct oc_member m;

		snprintf(mpath, sizeof(mpath), "%s%s%s", path ? path : "", path ? "." : "", names.v[i]);
		if (!oc_ok(oc_types_member(types, type, mpath, &m)))
			continue;
		if (!oc_ok(oc_types_name(types, type, mpath, mtype, sizeof(mtype))))
			snprintf(mtype, sizeof(mtype), "?");
		m.offset -= base;
		if (c->json) {
			struct json_object *o = oc_json_chk(json_object_new_object());

			oc_json_set(o, "name", oc_json_str(names.v[i]));
			oc_json_set(o, "type", oc_json_str(mtype));
			oc_json_set(o, "offset", oc_json_chk(json_object_new_int64((int64_t)m.offset)));
			oc_json_set(o, "size", oc_json_chk(json_object_new_int64((int64_t)m.size)));
			oc_json_set(o, "bit_offset", m.bit_size ?
				    oc_json_chk(json_object_new_int((int)m.bit_offset)) : NULL);
			oc_json_set(o, "bit_size", m.bit_size ?
				    oc_json_chk(json_object_new_int((int)m.bit_size)) : NULL);
			oc_json_push(a, o);
			continue;
		}
		if (m.bit_size)
			fprintf(c->out, "  [%" PRIu64 ":%u] ", m.offset, m.bit_offset);
		else
			fprintf(c->out, "  [%" PRIu64 "] ", m.offset);
		/* as C declares it: "struct x *name", "int name[3]" */
		dims = strchr(mtype, '[');
		if (dims)
			*dims = '\0';
		oc_cmd_put_safe(c->out, mtype);
		if (!*mtype || mtype[strlen(mtype) - 1] != '*')
			fputc(' ', c->out);
		oc_cmd_put_safe(c->out, names.v[i]);
		if (dims) {
			*dims = '[';
			oc_cmd_put_safe(c->out, dims);
		}
		if (m.bit_size)
			fprintf(c->out, " : %u", m.bit_size);
		fputs(";\n", c->out);
	}
	free(names.v);
	if (c->json) {
		oc_json_set(c->result, "type", oc_json_str(tname));
		oc_json_set(c->result, "member", oc_json_str(path));
		oc_json_set(c->result, "size", oc_json_chk(json_object_new_int64((int64_t)size)));
		oc_json_set(c->result, "members", a);
	} else {
		fprintf(c->out, "}\nSIZE: %" PRIu64 "\n", size);
	}
	return NULL;
}

static struct oc_error *cmd_struct(struct cmd_ctx *c)
{
	char type[256], base[256], label[600];
	struct oc_error *err = NULL;
	uint64_t addr, size = 0, offset = 0;
	const char *path = NULL;
	unsigned int flags = take_hex_flag(c);
	char *dot;
	/* -o: crash's offsets, which the layout always has */
	bool layout = take_flag(c, "-o");

	if (c->argc == 2)
		layout = true;
	if ((c->argc != 3 && !(layout && c->argc == 2)) || (layout && flags))
		return cmd_error(c, OC_ERR_INVALID, "usage: struct [-x] TYPE[.MEMBER...] ADDRESS | struct [-o] TYPE[.MEMBER...]");
	if (!c->k->types)
		return cmd_error(c, OC_ERR_LOOKUP, "no type information (no BTF)");
	/* TYPE.member.member: the member alone (crash's struct TYPE.member) */
	snprintf(base, sizeof(base), "%s", c->argv[1]);
	dot = strchr(base, '.');
	if (dot) {
		*dot = '\0';
		path = c->argv[1] + (dot - base) + 1;
	}
	if (!struct_type_name(user_types(c), base, type, sizeof(type), &size))
		return cmd_error(c, OC_ERR_LOOKUP, "no type %s", base);
	if ((err = member_span(c, type, path, &offset, &size)))
		return err;
	if (layout)
		return struct_layout(c, type, path, size);
	if ((err = parse_addr(c, c->argv[2], &addr)))
		return err;
	if (!is_kernel_addr(addr))
		return cmd_error(c, OC_ERR_INVALID, "0x%" PRIx64 ": not a kernel virtual address", addr);
	snprintf(label, sizeof(label), "%s%s%s", type, path ? "." : "", path ? path : "");
	return print_value(c, label, type, path, addr + offset, size, flags);
}

/* @t without its qualifiers, leading ("volatile long unsigned int", and an
 * array's elements: "const char [3]") and after a '*' ("char *const",
 * "char *const [5]": the '*' stays); they change no value */
static char *drop_qualifiers(char *t)
{
	static const char *const quals[] = { "const", "volatile", "restrict", "_Atomic" };
	bool again = true;

	while (again) {
		again = false;
		for (size_t i = 0; i < sizeof(quals) / sizeof(quals[0]); i++) {
			size_t q = strlen(quals[i]);

			if (!strncmp(t, quals[i], q) && t[q] == ' ') {
				t += q + 1;
				again = true;
			}
		}
	}
	for (char *s = strchr(t, '*'); s; s = strchr(s + 1, '*')) {
		again = true;
		while (again) {
			char *w = s + 1;

			again = false;
			while (*w == ' ')
				w++;
			for (size_t i = 0; i < sizeof(quals) / sizeof(quals[0]); i++) {
				size_t q = strlen(quals[i]);

				if (!strncmp(w, quals[i], q) && !isalnum((unsigned char)w[q]) &&
				    w[q] != '_') {
					w += q;
					/* "char *const [5]" -> "char *[5]" */
					if (*w == ' ' && (w[1] == '[' || w[1] == '*'))
						w++;
					memmove(s + 1, w, strlen(w) + 1);
					again = true;
					break;
				}
			}
		}
	}
	return t;
}

/*
 * A global BTF has no VAR for (every one but the per-CPU variables on the
 * kernels pahole built without global_var; on 5.10's, not even those)
 * typed by the vmlinux's DWARF at its link address @link, or a module's
 * by its .ko's (@link unused: the .ko's own symbol): into @type, the C name the BTF knows it by
 * ("struct task_struct", "long unsigned int"; qualifiers dropped), and
 * its size by the BTF into *@size_ret.  Left as it was when there is no
 * DWARF or no such variable in it (*@why then says which, for the
 * caller's error).  An array is "ELEM [N]" (formats/btf.c prints those).
 * A type the BTF has not, or has with another size, is an error.
 */
static struct oc_error *dwarf_global_type(struct cmd_ctx *c, const char *name, uint64_t link,
					  uint64_t sym_size, const struct oc_module *m,
					  char *type, size_t size, uint64_t *size_ret,
					  const char **why)
{
	struct oc_dwarf *d = NULL;
	char dtype[300], what[300], *t;
	struct oc_error *err;
	uint64_t dsize, bsize;
	size_t len;
	int n;

	*why = m ? "its .ko's DWARF is not here (--modules-dir)" : "the vmlinux's DWARF is not here";
	if (!c->lines)
		return NULL;
	if (m) {
		/* its .ko's DWARF, by the symbol's address in the .ko's own
		 * layout (one symbol of the name: a module seldom has two
		 * file statics alike) */
		if ((err = oc_lines_module_dwarf(c->lines, m->name, &d)))
			return err;
		link = d ? oc_dwarf_symbol_addr(d, name) : 0;
		if (d && !link)
			*why = "its .ko has no such symbol";
	} else {
		d = oc_lines_dwarf(c->lines);
	}
	if (!d || !link)
		return NULL;
	*why = "the DWARF has no such variable";
	err = oc_dwarf_global_type(d, name, link, dtype, sizeof(dtype), &dsize);
	if (err && err->code == OC_ERR_LOOKUP) {
		oc_error_destroy(err);
		return NULL;
	}
	if (err)
		return err;
	snprintf(what, sizeof(what), "%s", dtype);
	t = drop_qualifiers(dtype);
	len = strlen(t);
	/* an array of unknown length ("extern const char linux_banner[]"
	 * where it is defined too): a string, read to its symbol's end
	 * (kallsyms-style, to the next symbol), at most 4 KiB */
	if (len > 3 && !strcmp(t + len - 3, " []")) {
		t[len - 3] = '\0';
		if (strcmp(t, "char") && strcmp(t, "unsigned char") && strcmp(t, "signed char"))
			return cmd_error(c, OC_ERR_INVALID, "%s: an array of unknown length (%s): "
					 "rd %s reads it", name, what, name);
		n = snprintf(type, size, "%s [%" PRIu64 "]", t,
			     sym_size ? (sym_size < 4096 ? sym_size : 4096) : 1);
	} else {
		n = snprintf(type, size, "%s", t);
	}
	if (n < 0 || (size_t)n >= size)
		return cmd_error(c, OC_ERR_INVALID, "%s: its type in the DWARF, %s, has too long "
				 "a name; rd %s reads it", name, what, name);
	if (!oc_ok(oc_types_size(user_types(c), type, &bsize)))
		return cmd_error(c, OC_ERR_LOOKUP, "%s: its type in the DWARF, %s, is not one the "
				 "kernel's BTF has%s; rd %s reads it", name, type,
				 m ? " (nor a module's BTF in the dump)" : "", name);
	/* the BTF finds a type by its name: a module's own struct foo, or
	 * one of a name several files define, may be another layout */
	if (dsize && bsize != dsize)
		return cmd_error(c, OC_ERR_LOOKUP, "%s: its type %s has %" PRIu64 " bytes in the "
				 "DWARF and %" PRIu64 " in the kernel's BTF (another layout of the "
				 "name); rd %s reads it", name, type, dsize, bsize, name);
	*size_ret = bsize;
	return NULL;
}

/*
 * p [-x] NAME[:CPU][.MEMBER...]: a global variable, typed by the BTF
 * (formats/btf.c typeof(NAME): the per-CPU variables; every global when
 * the kernel's BTF has them, pahole 1.27's global_var) and printed as
 * struct prints it.  A per-CPU variable without :CPU lists each CPU's
 * address, as crash's p does.  A variable BTF does not type is an error
 * naming what does work (struct TYPE NAME, rd NAME): its symbol's size
 * is kallsyms-style (to the next symbol), no type.
 */
static struct oc_error *cmd_p(struct cmd_ctx *c)
{
	static const char usage[] = "usage: p [-x] NAME[:CPU][.MEMBER...]";
	unsigned int flags = take_hex_flag(c);
	char name[256], type[300], label[600];
	const struct oc_symbol *sym;
	const struct oc_module *m;
	const char *path = NULL;
	uint64_t addr, sym_addr, size = 0, offset = 0;
	long cpu = -1;
	char tname[320];
	const char *why = "there is no BTF";
	struct oc_types *vt;
	bool percpu = false, typed;
	struct oc_error *err;
	char *p;

	if (c->argc != 2 || c->argv[1][0] == '-')
		return cmd_error(c, OC_ERR_INVALID, "%s", usage);
	snprintf(name, sizeof(name), "%s", c->argv[1]);
	if ((p = strchr(name, '.'))) {
		*p = '\0';
		path = c->argv[1] + (p - name) + 1;
	}
	if ((p = strchr(name, ':'))) {
		char *end;

		*p++ = '\0';
		errno = 0;
		cpu = strtol(p, &end, 10);
		if (!isdigit((unsigned char)*p) || *end || errno || cpu < 0 ||
		    (unsigned long)cpu >= c->k->nr_cpus)
			return cmd_error(c, OC_ERR_INVALID, "bad CPU %s (the dump has %u)", p,
					 c->k->nr_cpus);
	}
	sym = oc_kernel_find_symbol(c->k, name, &m);
	if (!sym) {
		sym = oc_symtab_find(&c->k->percpu_syms, name);
		percpu = sym != NULL;
	}
	if (!sym)
		return cmd_error(c, OC_ERR_LOOKUP, "no symbol %s", name);
	sym_addr = oc_symtab_addr(percpu ? &c->k->percpu_syms : oc_kernel_symtab(c->k, m), sym);
	if (cpu >= 0 && !percpu)
		return cmd_error(c, OC_ERR_INVALID, "%s: not a per-CPU variable", name);
	snprintf(type, sizeof(type), "typeof(%s)", name);
	/* a module's own variables: its BTF has the per-CPU ones' VARs */
	vt = m ? oc_kernel_module_btf(c->k, m) : c->k->types;
	typed = vt && oc_ok(oc_types_size(vt, type, &size));
	/* pahole encodes the per-CPU variables' VARs since 1.18 (its
	 * btf_encoder.c); 5.10's BTF in Debian 11 has none.  A per-CPU
	 * symbol is its link address, an offset into the area, until 6.15;
	 * from then a kernel address KASLR moved, like any other (kernel.c
	 * read_vmlinux()), as sym_print() tells them apart */
	if (c->k->types && !typed) {
		uint64_t link = sym_addr -
				(percpu && !is_kernel_addr(sym_addr) ? 0 : c->k->kaslr_offset);

		if ((err = dwarf_global_type(c, name, link, sym->size, m, type, sizeof(type),
					     &size, &why)))
			return err;
		typed = strncmp(type, "typeof(", 7) != 0;
	}
	if (!typed)
		return cmd_error(c, OC_ERR_LOOKUP, "%s: no type in the kernel's BTF (%s), and %s; "
				 "struct TYPE %s prints it as TYPE, rd %s reads it",
				 name, m ? "a module's variable" : percpu ? "a per-CPU variable it lacks" :
				 "it types only the per-CPU variables",
				 why, name, name);
	if ((err = member_span(c, type, path, &offset, &size)))
		return err;
	if (!oc_ok(oc_types_name(user_types(c), type, path, tname, sizeof(tname))))
		snprintf(tname, sizeof(tname), "%s", type);
	if (percpu && cpu < 0) {
		struct json_object *a = c->json ? oc_json_chk(json_object_new_array()) : NULL;

		if (!c->json)
			fprintf(c->out, "PER-CPU DATA TYPE: %s\nPER-CPU ADDRESSES:\n", tname);
		for (unsigned int i = 0; i < c->k->nr_cpus; i++) {
			uint64_t at = oc_kernel_percpu_addr(c->k, name, i);

			if (c->json)
				oc_json_push(a, at ? oc_json_hex(at + offset) : NULL);
			else if (at)
				fprintf(c->out, "  [%u]: %" PRIx64 "\n", i, at + offset);
			else
				fprintf(c->out, "  [%u]: (unknown)\n", i);
		}
		if (c->json) {
			oc_json_set(c->result, "variable", oc_json_str(name));
			oc_json_set(c->result, "type", oc_json_str(tname));
			oc_json_set(c->result, "member", oc_json_str(path));
			oc_json_set(c->result, "per_cpu_addresses", a);
		}
		return NULL;
	}
	addr = percpu ? oc_kernel_percpu_addr(c->k, name, (unsigned int)cpu) : sym_addr;
	if (!addr)
		return cmd_error(c, OC_ERR_LOOKUP, "%s: no address for CPU %ld", name, cpu);
	if (c->json) {
		oc_json_set(c->result, "variable", oc_json_str(name));
		oc_json_set(c->result, "cpu", cpu >= 0 ? oc_json_chk(json_object_new_int((int)cpu)) : NULL);
	}
	if (cpu >= 0)
		snprintf(label, sizeof(label), "%s:%ld%s%s", name, cpu, path ? "." : "",
			 path ? path : "");
	else
		snprintf(label, sizeof(label), "%s%s%s", name, path ? "." : "", path ? path : "");
	return print_value(c, label, type, path, addr + offset, size, flags);
}

/* task PID: the task_struct of a task, as struct prints it */
static struct oc_error *cmd_task(struct cmd_ctx *c)
{
	const struct oc_task *t;
	char *end, addr[24];
	char *argv[3] = { "task", "task_struct", addr };
	struct cmd_ctx sc = *c;
	long pid;

	if (c->argc != 2)
		return cmd_error(c, OC_ERR_INVALID, "usage: task PID");
	errno = 0;
	pid = strtol(c->argv[1], &end, 10);
	if (!*c->argv[1] || *end || errno || pid < 0 || pid > INT32_MAX)
		return cmd_error(c, OC_ERR_INVALID, "bad pid %s", c->argv[1]);
	t = oc_kernel_find_task(c->k, (int32_t)pid);
	if (!t)
		return cmd_error(c, OC_ERR_LOOKUP, "no task with pid %ld", pid);
	snprintf(addr, sizeof(addr), "0x%" PRIx64, t->addr);
	sc.argc = 3;
	sc.argv = argv;
	return cmd_struct(&sc);
}

/* ---- bt --------------------------------------------------------------- */

/*
 * bt: the report's traces (src/report.c oc_report_traces(), chosen by
 * src/select.c as --active, --cpu, --pid, --comm and --state choose
 * them): no argument is the panic CPU (crash's current context), -a
 * every CPU, PID and COMM (an fnmatch(3) pattern) tasks, -s STATE the
 * tasks in STATE; --scan adds the report's "?" entries.
 */
static struct oc_error *cmd_bt(struct cmd_ctx *c)
{
	static const char usage[] = "usage: bt [--scan] [-a] [-s STATE] [PID|COMM]...";
	struct oc_select_task which[MAX_ARGS];
	struct oc_report_options ro;
	struct oc_selection sel;
	struct oc_error *err;
	bool reliable = true, first = true, all_cpus = false;

	oc_report_options_init(&ro);
	ro.sel.which = which;
	for (int i = 1; i < c->argc; i++) {
		const char *a = c->argv[i];
		uint64_t pid;

		if (!strcmp(a, "-a")) {
			all_cpus = true;
		} else if (!strcmp(a, "--scan")) {
			ro.scan = true;
		} else if (!strcmp(a, "-s")) {
			if (i + 1 == c->argc || strlen(c->argv[i + 1]) != 1 ||
			    !strchr("RSDTtXZPI", c->argv[i + 1][0]))
				return cmd_error(c, OC_ERR_INVALID, "-s STATE: one of R S D T t X Z P I");
			ro.sel.state = c->argv[++i][0];
		} else if (a[0] == '-') {
			return cmd_error(c, OC_ERR_INVALID, "unknown option %s (%s)", a, usage);
		} else if (parse_count(a, &pid)) {
			if (pid > INT32_MAX)
				return cmd_error(c, OC_ERR_INVALID, "bad pid %s", a);
			which[ro.sel.nr_which++] = (struct oc_select_task){ .pid = (int)pid };
		} else {
			which[ro.sel.nr_which++] = (struct oc_select_task){ .pid = -1, .comm = a };
		}
	}
	if (all_cpus && (ro.sel.nr_which || ro.sel.state))
		return cmd_error(c, OC_ERR_INVALID, "-a with tasks (%s)", usage);
	if (all_cpus) {
		ro.sel.active = true;
	} else if (!ro.sel.nr_which && !ro.sel.state) {
		if (c->k->panic_cpu < 0)
			return cmd_error(c, OC_ERR_LOOKUP, "no panic CPU recorded (bt -a: every CPU)");
		ro.sel.active = true;
		ro.sel.cpu = c->k->panic_cpu;
	}
	err = oc_select(c->k, &ro.sel, &sel);
	if (err) {
		char msg[300];

		oc_error_take(err, msg, sizeof(msg));
		return cmd_error(c, OC_ERR_LOOKUP, "%s", msg);
	}
	/* what the D tasks wait on, as the report computes it without DWARF
	 * (--no-lines): the same WAITS ON lines and "blocked"."on" */
	struct oc_waits waits;
	bool have_waits = sel.show_tasks && oc_ok(oc_waits_compute(c->k, NULL, &waits));

	if (c->json) {
		struct json_object *cpus = oc_json_chk(json_object_new_array()), *tasks = NULL;
		struct oc_sched_clock clk;

		for (size_t i = 0; i < sel.nr_cpus; i++)
			oc_json_push(cpus, oc_report_cpu_json(c->k, &ro, sel.cpus[i], &reliable));
		if (sel.show_tasks) {
			oc_triage_sched_clock(c->k, &clk);
			tasks = oc_json_chk(json_object_new_array());
			for (size_t i = 0; i < sel.nr_tasks; i++)
				oc_json_push(tasks, oc_report_task_json(c->k, &ro, &clk,
									have_waits ? &waits : NULL,
									sel.tasks[i], &reliable));
		}
		oc_json_set(c->result, "cpus", cpus);
		oc_json_set(c->result, "tasks", tasks);
		oc_json_set(c->result, "reliable", oc_json_chk(json_object_new_boolean(reliable)));
	} else {
		err = oc_report_traces(c->k, &ro, &sel, have_waits ? &waits : NULL,
				       &reliable, &first, c->out);
	}
	if (have_waits)
		oc_waits_deinit(&waits);
	oc_selection_deinit(&sel);
	return err;
}

/* ---- dis -------------------------------------------------------------- */

/* what dis decodes at most: a function of 64 KiB, 4096 instructions */
enum { DIS_MAX_BYTES = 64 << 10, DIS_MAX_INSNS = 4096, X86_MAX_INSN = 15 };

struct dis_state {
	struct cmd_ctx *c;
	bool have_mark;
	uint64_t mark;		/* the instruction holding it is marked */
	struct json_object *insns;
	size_t n;		/* instructions so far */
	bool marked;		/* an instruction was */
	bool lines;		/* -l */
	const char *last_file;	/* the last source line printed (-l) */
	unsigned int last_line;
};

/*
 * -l: the source line an instruction is from, the innermost of its
 * inline chain (as addr2line without -i and objdump -l print it), found
 * as a trace's exact ip is (oc_report_frame_lines(): the vmlinux's or
 * the module's DWARF).  False when the DWARF has no line for it.
 */
static bool dis_line(struct dis_state *st, uint64_t addr,
		     struct oc_line_info *ret)
{
	struct oc_report_options ro = { .lines = st->c->lines };
	struct oc_frame f = { .ip = addr, .exact = true };
	struct oc_line_info chain[16];

	/* line 0: no source line (DWARF 5's "not attributable") */
	if (!oc_report_frame_lines(st->c->k, &ro, &f, chain, 16) || !chain[0].file ||
	    !chain[0].line)
		return false;
	*ret = chain[0];
	return true;
}

/*
 * A RIP-relative operand's symbol, "name+0xoff [module]": a kernel
 * address's, or in the gs segment a per-CPU variable's (its offset into
 * each CPU's area until 6.15, an address from then on: kernel.c
 * read_vmlinux(); the per-CPU symbols are kept as such)
 */
static void ref_symbol(const struct oc_kernel *k, const struct oc_insn *in, char *buf,
		       size_t size)
{
	struct text_buf tb = { .k = k };
	const struct oc_symbol *s;

	buf[0] = '\0';
	if (!in->ref_percpu) {
		if (!text_symbol(&tb, in->ref, false, buf, size))
			buf[0] = '\0';
		return;
	}
	s = oc_symtab_lookup(&k->percpu_syms, in->ref);
	if (s)
		symbol_text(&(struct oc_sym_result){ .name = oc_symtab_name(&k->percpu_syms, s),
						     .offset = in->ref - oc_symtab_addr(&k->percpu_syms, s) },
			    buf, size);
}

static bool dis_one(void *arg, const struct oc_insn *in)
{
	struct dis_state *st = arg;
	struct cmd_ctx *c = st->c;
	bool marked = st->have_mark && st->mark >= in->addr && st->mark < in->addr + in->len;

	st->marked |= marked;
	char where[300] = "", target[300] = "", ref[300] = "";
	struct text_buf tb = { .k = c->k };

	struct oc_line_info li;
	bool have_line = st->lines && dis_line(st, in->addr, &li);

	st->n++;
	/* text_symbol(): "name+0xoff [module]", the struct printer's */
	if (!text_symbol(&tb, in->addr, false, where, sizeof(where)))
		where[0] = '\0';
	if (in->has_target && !text_symbol(&tb, in->target, false, target, sizeof(target)))
		target[0] = '\0';
	if (in->has_ref)
		ref_symbol(c->k, in, ref, sizeof(ref));
	if (c->json) {
		struct json_object *o = oc_json_chk(json_object_new_object());
		char bytes[2 * sizeof(in->bytes) + 1];

		if (st->lines) {
			oc_json_set(o, "file", have_line ?
				    oc_json_str(oc_lines_short_file(li.file)) : NULL);
			oc_json_set(o, "line", have_line ?
				    oc_json_chk(json_object_new_int64(li.line)) : NULL);
		}

		oc_hex_string(in->bytes, in->len, bytes, sizeof(bytes));
		oc_json_set(o, "address", oc_json_hex(in->addr));
		oc_json_set(o, "bytes", oc_json_str(bytes));
		oc_json_set(o, "mnemonic", oc_json_str(in->mnemonic));
		oc_json_set(o, "operands", oc_json_str(in->operands));
		oc_json_set(o, "target", in->has_target ? oc_json_hex(in->target) : NULL);
		oc_json_set(o, "target_symbol", target[0] ? oc_json_str(target) : NULL);
		oc_json_set(o, "reference", in->has_ref ? oc_json_hex(in->ref) : NULL);
		oc_json_set(o, "reference_symbol", ref[0] ? oc_json_str(ref) : NULL);
		oc_json_set(o, "marked", oc_json_chk(json_object_new_boolean(marked)));
		oc_json_push(st->insns, o);
		return true;
	}
	/* -l: the source line above the first instruction of each run of
	 * them from the same line, as objdump -l prints it */
	if (have_line && (!st->last_file || li.line != st->last_line ||
			  strcmp(li.file, st->last_file))) {
		/* the trace's file names: from the source tree's top */
		oc_cmd_put_safe(c->out, oc_lines_short_file(li.file));
		fprintf(c->out, ":%u\n", li.line);
		st->last_file = li.file;
		st->last_line = li.line;
	}
	fprintf(c->out, "%s0x%016" PRIx64 " <", st->have_mark ? (marked ? "=> " : "   ") : "",
		in->addr);
	oc_cmd_put_safe(c->out, where[0] ? where : "?");
	fprintf(c->out, ">:\t%-7s %s", in->mnemonic, in->operands);
	if (target[0]) {
		fputs(" <", c->out);
		oc_cmd_put_safe(c->out, target);
		fputc('>', c->out);
	}
	if (ref[0]) {
		fprintf(c->out, "  # 0x%" PRIx64 " <", in->ref);
		oc_cmd_put_safe(c->out, ref);
		fputc('>', c->out);
	}
	fputc('\n', c->out);
	return true;
}

/*
 * dis [-f] FUNC|ADDRESS [COUNT]: the code as it is in the dump's memory
 * (alternatives, static calls, jump labels and ftrace as the kernel
 * patched them), decoded by libopcodes (formats/disasm.c), Intel syntax.
 * A function's name (or its first address) without COUNT: the whole
 * function (its symbol's extent); an address: COUNT instructions from
 * it (default 1); -f ADDRESS: the whole function holding it, its
 * instruction marked "=>" (a trace frame's ip).
 */
static struct oc_error *cmd_dis(struct cmd_ctx *c)
{
	static const char usage[] = "usage: dis [-f] [-l] FUNCTION|ADDRESS [COUNT]";
	struct dis_state st = { .c = c };
	const char *where = NULL, *cnt = NULL;
	struct oc_sym_result s;
	bool func = false, whole = false;
	uint64_t addr, start, count = 0, len, got = 0, stopped;
	struct oc_error *err;
	uint8_t *code;

	for (int i = 1; i < c->argc; i++) {
		const char *a = c->argv[i];

		if (!strcmp(a, "-f"))
			func = true;
		else if (!strcmp(a, "-l"))
			st.lines = true;
		else if (a[0] == '-' && a[1])
			return cmd_error(c, OC_ERR_INVALID, "unknown option %s (%s)", a, usage);
		else if (!where)
			where = a;
		else if (!cnt)
			cnt = a;
		else
			return cmd_error(c, OC_ERR_INVALID, "%s", usage);
	}
	if (!where)
		return cmd_error(c, OC_ERR_INVALID, "%s", usage);
	if (st.lines && !c->lines)
		return cmd_error(c, OC_ERR_UNSUPPORTED,
				 "-l: no source lines here (a vmlinux with DWARF, not --no-lines)");
	if (cnt && (!parse_count(cnt, &count) || !count || count > DIS_MAX_INSNS))
		return cmd_error(c, OC_ERR_INVALID, "bad count %s (1 to %d)", cnt, DIS_MAX_INSNS);
	if ((err = parse_addr(c, where, &addr)))
		return err;
	if (!is_kernel_addr(addr))
		return cmd_error(c, OC_ERR_INVALID, "0x%" PRIx64 ": not a kernel virtual address", addr);
	if (!oc_kernel_symbolize_data(c->k, addr, &s))
		s.name = NULL;
	/* -f NAME+OFF, as a trace prints a frame: NAME's function, also
	 * when OFF is its end (the return address of a call that does not
	 * return is the next function's first byte) */
	if (func && strchr(where, '+')) {
		char name[256];
		uint64_t base;

		snprintf(name, sizeof(name), "%.*s", (int)(strchr(where, '+') - where), where);
		if (!(err = parse_addr(c, name, &base)) && oc_kernel_symbolize_data(c->k, base, &s) &&
		    addr - base > s.size)
			return cmd_error(c, OC_ERR_INVALID, "%s: past the end of %s (0x%" PRIx64 " bytes)",
					 where, name, s.size);
		if (err)
			oc_error_destroy(err);
		else
			s.offset = addr - base;
	}
	whole = s.name && !cnt && (func || s.offset == 0);
	if (func && cnt)
		return cmd_error(c, OC_ERR_INVALID, "-f takes no COUNT (%s)", usage);
	if (func && !whole)
		return cmd_error(c, OC_ERR_LOOKUP, "-f 0x%" PRIx64 ": no symbol holds it", addr);
	if (func) {
		st.have_mark = true;
		st.mark = addr;
	}
	start = whole ? addr - s.offset : addr;
	/* -l with no DWARF behind the lines (a stripped vmlinux and no -dbg
	 * package, a module without its .ko): say so, not a silent dis */
	if (st.lines) {
		struct oc_line_info li;
		const char *why;

		if (!dis_line(&st, start, &li)) {
			why = s.name && s.module ? module_no_lines(c->lines, s.module)
						 : oc_lines_unavailable(c->lines);
			if (why)
				return cmd_error(c, OC_ERR_UNSUPPORTED, "-l: no source lines: %s", why);
		}
	}
	len = whole ? s.size : (cnt ? count : 1) * X86_MAX_INSN;
	if (!len)
		return cmd_error(c, OC_ERR_LOOKUP, "%s: a symbol of no size", s.name);
	if (len > DIS_MAX_BYTES)
		return cmd_error(c, OC_ERR_INVALID, "%" PRIu64 " bytes, over the limit of %d",
				 len, DIS_MAX_BYTES);
	code = malloc(len);
	if (!code)
		return &oc_enomem;
	/* page by page: what follows a page the dump lacks is not read */
	while (got < len) {
		uint64_t n = 4096 - ((start + got) & 4095);

		if (n > len - got)
			n = len - got;
		err = oc_mem_read(&c->k->mem, start + got, code + got, n);
		if (err) {
			oc_error_destroy(err);
			break;
		}
		got += n;
	}
	if (!got || (whole && got < len)) {
		free(code);
		return cmd_error(c, OC_ERR_FAULT, "0x%" PRIx64 ": not in the dump", start + got);
	}
	if (c->json) {
		st.insns = oc_json_chk(json_object_new_array());
		oc_json_set(c->result, "address", oc_json_hex(start));
		oc_json_set(c->result, "symbol", s.name ? oc_json_str(s.name) : NULL);
		oc_json_set(c->result, "module", s.name && s.module ? oc_json_str(s.module) : NULL);
		oc_json_set(c->result, "instructions", st.insns);
	}
	err = oc_disasm(code, got, start, whole ? DIS_MAX_INSNS : (cnt ? count : 1), dis_one,
			&st, &stopped);
	free(code);
	if (err) {
		char msg[300];

		oc_error_take(err, msg, sizeof(msg));
		return cmd_error(c, OC_ERR_FORMAT, "%s", msg);
	}
	/* a function's bytes that do not decode (or past the cap) */
	if (whole && stopped < start + got) {
		if (c->json)
			oc_json_set(c->result, "stopped", oc_json_hex(stopped));
		else
			fprintf(c->out, "(stopped at 0x%" PRIx64 ": %s)\n", stopped,
				st.n < DIS_MAX_INSNS ? "does not decode" : "the instruction limit");
	} else if (c->json) {
		oc_json_set(c->result, "stopped", NULL);
	}
	/* the vmlinux's init text: free_initmem() (init/main.c
	 * kernel_init()) gives it back after boot */
	{
		uint64_t ib = oc_kernel_symbol_addr(c->k, "__init_begin");
		uint64_t ie = oc_kernel_symbol_addr(c->k, "__init_end");
		bool init = ib && ie && start >= ib && start < ie;

		if (c->json)
			oc_json_set(c->result, "init_text", oc_json_chk(json_object_new_boolean(init)));
		else if (init)
			fputs("(init text, __init_begin..__init_end: the kernel frees it after boot; "
			      "what is there may be other data now)\n", c->out);
	}
	/* -f at the function's end: what follows a call that does not
	 * return */
	if (st.have_mark && !st.marked && st.mark == start + got) {
		if (c->json)
			oc_json_set(c->result, "end_marked", oc_json_chk(json_object_new_boolean(true)));
		else
			fprintf(c->out, "=> 0x%016" PRIx64 " (the function's end: a return address "
				"after a call that does not return)\n", st.mark);
	} else if (c->json) {
		oc_json_set(c->result, "end_marked", oc_json_chk(json_object_new_boolean(false)));
	}
	return NULL;
}

/* ---- waitq ------------------------------------------------------------ */

/* The task at @addr, or NULL. */
static const struct oc_task *task_by_addr(const struct oc_kernel *k, uint64_t addr)
{
	for (size_t i = 0; i < k->nr_tasks; i++)
		if (k->tasks[i].addr == addr)
			return &k->tasks[i];
	return NULL;
}

/*
 * waitq SYMBOL|ADDRESS: the tasks on the wait queue (struct
 * wait_queue_head) at ADDRESS, in its list's order, as crash's waitq
 * lists them: each wait_queue_entry's private that is a task (an entry
 * of another kind, a poll or epoll hook, is passed over).  waitq -p PID:
 * the wait queue PID sleeps on, from the wait_queue_entry on its
 * sleeping frame's stack (src/waits.h oc_waits_queue_of()), then the same
 * list.  Layouts from BTF; the list is followed for at most 4096 entries
 * and only while linked both ways.
 */
static struct oc_error *cmd_waitq(struct cmd_ctx *c)
{
	const struct oc_kernel *k = c->k;
	uint64_t head, hoff, list_off, priv_off, first, n, back, priv;
	struct json_object *a = NULL;
	char sym[300] = "";
	bool by_pid = c->argc == 3 && !strcmp(c->argv[1], "-p");
	bool incomplete = true;
	size_t nr = 0;

	if (c->argc != 2 && !by_pid)
		return cmd_error(c, OC_ERR_INVALID, "usage: waitq SYMBOL|ADDRESS | -p PID");
	if (!k->types ||
	    !oc_ok(oc_types_offsetof(k->types, "struct wait_queue_head", "head", &hoff)) ||
	    !oc_ok(oc_types_offsetof(k->types, "struct wait_queue_entry", "entry", &list_off)) ||
	    !oc_ok(oc_types_offsetof(k->types, "struct wait_queue_entry", "private", &priv_off)))
		return cmd_error(c, OC_ERR_UNSUPPORTED,
				 "no struct wait_queue_head or wait_queue_entry in the types");
	if (by_pid) {
		const struct oc_task *t;
		char *end, why[192];
		long pid;

		errno = 0;
		pid = strtol(c->argv[2], &end, 10);
		if (!*c->argv[2] || *end || errno || pid < 0 || pid > INT32_MAX)
			return cmd_error(c, OC_ERR_INVALID, "bad pid %s", c->argv[2]);
		t = oc_kernel_find_task(k, (int32_t)pid);
		if (!t)
			return cmd_error(c, OC_ERR_LOOKUP, "no task with pid %ld", pid);
		if (!oc_waits_queue_of(k, t, &head, why, sizeof(why)))
			return cmd_error(c, OC_ERR_LOOKUP, "pid %ld sleeps on no wait queue: %s",
					 pid, why);
	} else {
		struct oc_error *err = parse_addr(c, c->argv[1], &head);

		if (err)
			return err;
	}
	oc_waits_data_symbol(k, head, sym, sizeof(sym), NULL, 0);
	if (c->json) {
		oc_json_set(c->result, "address", oc_json_hex(head));
		oc_json_set(c->result, "symbol", sym[0] ? oc_json_str(sym) : NULL);
		a = oc_json_chk(json_object_new_array());
	}
	first = head + hoff;
	if (!oc_ok(oc_mem_read_u64(&k->mem, first, &n)))
		return cmd_error(c, OC_ERR_FAULT, "cannot read the wait queue at 0x%" PRIx64, head);
	for (size_t steps = 0; steps < 4096; steps++) {
		const struct oc_task *t;

		if (n == first) {
			incomplete = false;
			break;
		}
		if (!oc_ok(oc_mem_read_u64(&k->mem, n + 8, &back)) || back == 0 ||
		    !oc_ok(oc_mem_read_u64(&k->mem, n - list_off + priv_off, &priv)))
			break;
		t = task_by_addr(k, priv);
		if (t) {
			nr++;
			if (c->json) {
				struct json_object *o = oc_json_chk(json_object_new_object());

				oc_json_set(o, "pid", json_object_new_int(t->pid));
				oc_json_set(o, "task", oc_json_hex(t->addr));
				oc_json_set(o, "cpu", json_object_new_int(t->cpu));
				oc_json_set(o, "comm", oc_json_str(t->comm));
				oc_json_set(o, "entry", oc_json_hex(n - list_off));
				oc_json_push(a, o);
			} else {
				fprintf(c->out, "PID: %-5d  TASK: %" PRIx64 "  CPU: %-2d  COMMAND: \"",
					t->pid, t->addr, t->cpu);
				oc_cmd_put_safe(c->out, t->comm);
				fputs("\"\n", c->out);
			}
		}
		if (!oc_ok(oc_mem_read_u64(&k->mem, n, &n)))
			break;
	}
	if (!c->json) {
		if (!nr) {
			fputs("wait queue ", c->out);
			if (sym[0]) {
				fputc('"', c->out);
				oc_cmd_put_safe(c->out, sym);
				fputs("\" (", c->out);
			}
			fprintf(c->out, "%" PRIx64 "%s is empty\n", head, sym[0] ? ")" : "");
		}
		if (incomplete)
			fprintf(c->out, "(wait queue list incomplete: unreliable)\n");
	} else {
		oc_json_set(c->result, "tasks", a);
		oc_json_set(c->result, "incomplete", oc_json_chk(json_object_new_boolean(incomplete)));
	}
	return NULL;
}

/* ---- the table -------------------------------------------------------- */

static struct oc_error *cmd_help(struct cmd_ctx *c);

static const struct cmd {
	const char *name;
	struct oc_error *(*run)(struct cmd_ctx *c);
	bool takes_symbol;
	const char *usage;
	const char *help;
} cmds[] = {
	{ "bt", cmd_bt, false, "bt [--scan] [-a] [-s STATE] [PID|COMM]...",
	  "traces, as the report prints them: the panic CPU, every CPU, tasks" },
	{ "dis", cmd_dis, true, "dis [-f] [-l] FUNCTION|ADDRESS [COUNT]",
	  "disassemble dump memory: a function, COUNT instructions, -f the function around an ip, -l source lines" },
	{ "help", cmd_help, false, "help", "this list" },
	{ "log", cmd_log, false, "log", "the kernel log buffer" },
	{ "mod", cmd_mod, false, "mod", "loaded modules: base, size, ORC, symbols, taint, debuginfo, build-id" },
	{ "p", cmd_p, true, "p [-x] NAME[:CPU][.MEMBER...]",
	  "a global or per-CPU variable, typed by BTF (else the integer of its size)" },
	{ "ps", cmd_ps, false, "ps [-m] [-S STATE]",
	  "every task (or those in STATE): pid, ppid, cpu, task_struct, state, comm; -m: since it last ran" },
	{ "rd", cmd_rd, true, "rd [-8|-16|-32|-64] [-s] [-p|-u PID] ADDRESS [COUNT]",
	  "read kernel virtual, physical (-p) or a task's user (-u) memory" },
	{ "struct", cmd_struct, true, "struct [-x] TYPE[.MEMBER...] ADDRESS | struct [-o] TYPE[.MEMBER...]",
	  "a struct (union, type) or one member in memory, from BTF; without ADDRESS its layout" },
	{ "task", cmd_task, false, "task PID", "a task's task_struct, as struct prints it" },
	{ "sym", cmd_sym, true, "sym NAME|ADDRESS | -m MODULE",
	  "a symbol's address, an address's symbol, a module's symbols" },
	{ "waitq", cmd_waitq, true, "waitq SYMBOL|ADDRESS | -p PID",
	  "the tasks on a wait queue; -p: the wait queue a task sleeps on" },
};

static struct oc_error *cmd_help(struct cmd_ctx *c)
{
	struct json_object *a = NULL;

	if (c->json)
		a = oc_json_chk(json_object_new_array());
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		if (c->json) {
			struct json_object *o = oc_json_chk(json_object_new_object());

			oc_json_set(o, "name", oc_json_str(cmds[i].name));
			oc_json_set(o, "usage", oc_json_str(cmds[i].usage));
			oc_json_set(o, "help", oc_json_str(cmds[i].help));
			oc_json_push(a, o);
		} else {
			fprintf(c->out, "  %-40s %s\n", cmds[i].usage, cmds[i].help);
		}
	}
	if (c->json)
		oc_json_set(c->result, "commands", a);
	return NULL;
}

const char *oc_cmd_name(size_t i)
{
	return i < sizeof(cmds) / sizeof(cmds[0]) ? cmds[i].name : NULL;
}

bool oc_cmd_takes_symbol(const char *name)
{
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(cmds[i].name, name))
			return cmds[i].takes_symbol;
	return false;
}

static bool complete_tab(const struct oc_symtab *tab, const char *prefix,
			 size_t len, bool (*fn)(void *arg, const char *name),
			 void *arg)
{
	for (size_t i = 0; i < tab->nr; i++) {
		const char *name = oc_symtab_name(tab, &tab->syms[i]);

		if (!strncmp(name, prefix, len) && !fn(arg, name))
			return false;
	}
	return true;
}

void oc_cmd_complete_symbol(const struct oc_kernel *k, const char *prefix,
			    bool (*fn)(void *arg, const char *name),
			    void *arg)
{
	size_t len = strlen(prefix);

	if (!complete_tab(&k->syms, prefix, len, fn, arg))
		return;
	for (size_t i = 0; i < k->nr_modules; i++)
		if (!complete_tab(&k->modules[i].syms, prefix, len, fn, arg))
			return;
}

bool oc_cmd_takes_type(const char *name)
{
	return !strcmp(name, "struct");
}

/* oc_cmd_complete_type()'s member names, after the text's "TYPE.path." */
struct with_head {
	bool (*fn)(void *arg, const char *name);
	void *arg;
	const char *head;	/* up to and with the last '.' */
	size_t len;
};

static bool member_match(void *ctx, const char *name)
{
	const struct with_head *h = ctx;
	char buf[512];

	if (snprintf(buf, sizeof(buf), "%.*s%s", (int)h->len, h->head, name) >= (int)sizeof(buf))
		return true;	/* too long to be typed: skipped */
	return h->fn(h->arg, buf);
}

void oc_cmd_complete_type(struct oc_kernel *k, const char *text,
			  bool (*fn)(void *arg, const char *name), void *arg)
{
	struct oc_types *types = oc_kernel_all_types(k);
	const char *last = strrchr(text, '.');
	struct with_head h = { fn, arg, text, last ? (size_t)(last - text) + 1 : 0 };
	char base[256], type[300];
	const char *path = NULL;
	uint64_t size;
	char *dot;

	if (!types)
		return;
	if (!last) {
		oc_types_complete(types, NULL, NULL, text, fn, arg);
		return;
	}
	/* "task_struct.se.vr": the members of task_struct's se with "vr" */
	if ((size_t)(last - text) >= sizeof(base))
		return;
	memcpy(base, text, (size_t)(last - text));
	base[last - text] = '\0';
	if ((dot = strchr(base, '.'))) {
		*dot = '\0';
		path = dot + 1;
	}
	if (struct_type_name(types, base, type, sizeof(type), &size))
		oc_types_complete(types, type, path, last + 1, member_match, &h);
}

struct oc_error *oc_cmd_run(struct oc_kernel *k, struct oc_lines *lines,
			    const char *line, bool json, FILE *out)
{
	char *buf, *argv[MAX_ARGS];
	struct cmd_ctx c = { .k = k, .lines = lines, .json = json, .out = out,
			     .name = "command line" };
	struct oc_error *err = NULL;
	size_t len = strlen(line);
	int argc;

	if (len > LINE_MAX_LEN)
		return cmd_error(&c, OC_ERR_INVALID, "longer than %d bytes",
				 LINE_MAX_LEN);
	buf = malloc(len + 1);
	if (!buf)
		return &oc_enomem;
	argc = split_line(line, buf, len + 1, argv, MAX_ARGS);
	if (argc < 0) {
		free(buf);
		return cmd_error(&c, OC_ERR_INVALID, argc == -2 ? "unterminated quote" :
				 "more than %d arguments", MAX_ARGS);
	}
	if (argc == 0) {
		free(buf);
		return NULL;
	}
	c.argc = argc;
	c.argv = argv;
	c.name = argv[0];
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		struct json_object *doc, *args;

		if (strcmp(cmds[i].name, argv[0]))
			continue;
		if (json) {
			const char *text;

			oc_json_oom_take();
			c.result = oc_json_chk(json_object_new_object());
			err = cmds[i].run(&c);
			if (err) {
				json_object_put(c.result);
				break;
			}
			doc = oc_json_chk(json_object_new_object());
			args = oc_json_chk(json_object_new_array());
			for (int a = 1; a < argc; a++)
				oc_json_push(args, oc_json_str(argv[a]));
			oc_json_set(doc, "version",
					       oc_json_str(OC_CMD_JSON_VERSION));
			oc_json_set(doc, "command", oc_json_str(argv[0]));
			oc_json_set(doc, "args", args);
			oc_json_set(doc, "result", c.result);
			text = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
							      JSON_C_TO_STRING_NOSLASHESCAPE);
			/* never a document that is not whole */
			if (oc_json_oom_take() || !text) {
				json_object_put(doc);
				free(buf);
				return &oc_enomem;
			}
			fputs(text, out);
			fputc('\n', out);
			json_object_put(doc);
		} else {
			err = cmds[i].run(&c);
		}
		free(buf);
		return err;
	}
	if (!err)
		err = cmd_error(&c, OC_ERR_LOOKUP, "unknown command (try 'help')");
	free(buf);
	return err;
}
