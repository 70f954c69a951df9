// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * linescat: a small driver over src/lines.c for tests/realdump/lines.sh
 * and the timings in docs/lines.md.
 *
 *   linescat [OPTS] addrs VMLINUX [ADDR...]
 *	link-time addresses (hex; from stdin when none are given), printed
 *	like `addr2line -a -i -f`: the address, then function and file:line
 *	per level of the inline chain, innermost first.
 *   linescat [OPTS] report VMLINUX JSON
 *	the frames of `orccrash --json` (KASLR offset from the report), with
 *	file:line and inlined frames, then a summary line
 *	"vmlinux-frames N with-line M" and the cache statistics.
 *
 *   linescat [--modules] lookups JSON
 *	only the link-time addresses report would look up, one per line
 *	(for comparing with addr2line); with --modules the module frames
 *	instead, as "NAME SYMBOL OFFSET EXACT".
 *   linescat --modules-dir DIR modaddrs VMLINUX
 *	those module lines from stdin, each followed by its chain like addrs.
 *
 *   --cache FILE   this cache file instead of the build-id one
 *   --no-cache     no cache at all
 *   --modules-dir DIR  .ko files with DWARF for module frames
 *   --full         full file names (default: shortened for display,
 *                  always full in addrs mode)
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "elffile.h"
#include "lines.h"

enum { MAX_CHAIN = 64 };

static bool full_names;
static bool list_only;	/* lookups: print the addresses, look nothing up */
static bool list_modules;	/* lookups --modules: the module frames */

static double now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int fail(struct oc_error *err)
{
	oc_error_fprint(stderr, err);
	fputc('\n', stderr);
	oc_error_destroy(err);
	return 1;
}

static struct oc_error *open_lines(const char *vmlinux, const char *mode,
				   const char *cache, struct oc_lines **ret)
{
	struct oc_error *err;
	struct oc_elf *elf;
	const uint8_t *id;
	size_t len = 0;

	if (!strcmp(mode, "none"))
		return oc_lines_open_cache(vmlinux, NULL, ret);
	if (cache)
		return oc_lines_open_cache(vmlinux, cache, ret);
	err = oc_elf_open(vmlinux, &elf);
	if (err)
		return err;
	id = oc_elf_build_id(elf, &len);
	err = oc_lines_open(vmlinux, id, len, ret);
	oc_elf_close(elf);
	return err;
}

static const char *fname(const char *file)
{
	return full_names ? file : oc_lines_short_file(file);
}

static struct oc_error *print_addr(struct oc_lines *l, uint64_t addr)
{
	struct oc_line_info chain[MAX_CHAIN];
	struct oc_error *err;
	size_t nr;

	err = oc_lines_lookup(l, addr, chain, MAX_CHAIN, &nr);
	if (err)
		return err;
	printf("0x%016" PRIx64 "\n", addr);
	if (!nr)
		printf("??\n??:0\n");
	for (size_t i = 0; i < nr; i++)
		printf("%s\n%s:%u\n", chain[i].function ? chain[i].function : "??",
		       chain[i].file ? chain[i].file : "??", chain[i].line);
	return NULL;
}

static int cmd_addrs(struct oc_lines *l, int argc, char **argv)
{
	struct oc_error *err;
	char buf[128];

	for (int i = 0; i < argc; i++) {
		err = print_addr(l, strtoull(argv[i], NULL, 16));
		if (err)
			return fail(err);
	}
	if (argc)
		return 0;
	while (fgets(buf, sizeof(buf), stdin)) {
		if (buf[0] == '\n' || buf[0] == '#')
			continue;
		err = print_addr(l, strtoull(buf, NULL, 16));
		if (err)
			return fail(err);
	}
	return 0;
}

/* "NAME SYMBOL OFFSET EXACT" lines from stdin, chains like addrs. */
static int cmd_modaddrs(struct oc_lines *l)
{
	char buf[512], name[128], sym[256];
	unsigned long long off;
	int exact;

	while (fgets(buf, sizeof(buf), stdin)) {
		struct oc_line_info chain[MAX_CHAIN];
		struct oc_error *err;
		size_t nr;

		if (sscanf(buf, "%127s %255s %llu %d", name, sym, &off,
			   &exact) != 4)
			continue;
		err = oc_lines_lookup_module(l, name, sym, off, exact, chain,
					     MAX_CHAIN, &nr);
		if (err)
			return fail(err);
		printf("%s %s %llu %d\n", name, sym, off, exact);
		if (!nr)
			printf("??\n??:0\n");
		for (size_t i = 0; i < nr; i++)
			printf("%s\n%s:%u\n",
			       chain[i].function ? chain[i].function : "??",
			       chain[i].file ? chain[i].file : "??",
			       chain[i].line);
	}
	return 0;
}

static uint64_t json_hex(json_object *o, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return 0;
	return strtoull(json_object_get_string(v), NULL, 16);
}

static bool json_null(json_object *o, const char *key)
{
	json_object *v;

	return !json_object_object_get_ex(o, key, &v) || !v;
}

struct report_count {
	size_t frames, vmlinux, with_line, modframes, mod_with_line;
};

/* Innermost first, like drgn: inlined callees, then the function the
 * ip is in; *with_line counts the chains whose function has a line. */
static void print_chain(const struct oc_line_info *chain, size_t nr,
			size_t *with_line)
{
	if (nr && chain[nr - 1].file)
		(*with_line)++;
	for (size_t k = 0; k < nr; k++) {
		const struct oc_line_info *in = &chain[k];

		if (in->inlined)
			printf("\n      %s (inlined)",
			       in->function ? in->function : "??");
		else if (k)
			printf("\n      %s", in->function ? in->function : "??");
		printf(" %s:%u", in->file ? fname(in->file) : "??", in->line);
	}
	printf("\n");
}

/*
 * One trace.  Exact ips (looked up as is): the first frame of a CPU or
 * of a task on a CPU, and frames that crossed pt_regs; the others are
 * return addresses (ip - 1), as in the kernel's %pB.
 */
static struct oc_error *report_trace(struct oc_lines *l, json_object *t,
				     uint64_t kaslr, bool first_exact,
				     struct report_count *c)
{
	json_object *frames, *v;
	struct oc_error *err;

	if (!json_object_object_get_ex(t, "frames", &frames))
		return NULL;
	if (!list_only) {
		if (json_object_object_get_ex(t, "comm", &v))
			printf("== %s", json_object_get_string(v));
		if (json_object_object_get_ex(t, "pid", &v))
			printf(" pid %d", json_object_get_int(v));
		if (json_object_object_get_ex(t, "cpu", &v))
			printf(" cpu %d", json_object_get_int(v));
		printf("\n");
	}
	for (size_t i = 0; i < json_object_array_length(frames); i++) {
		json_object *f = json_object_array_get_idx(frames, i);
		struct oc_line_info chain[MAX_CHAIN];
		uint64_t ip = json_hex(f, "ip");
		bool exact = (i == 0 && first_exact) || !json_null(f, "regs");
		json_object *sym;
		size_t nr = 0;

		c->frames++;
		if (!json_object_object_get_ex(f, "symbol", &sym))
			sym = NULL;
		if (!list_only)
			printf("  %#" PRIx64 " %s", ip,
			       sym ? json_object_get_string(sym) : "?");
		if (sym && !json_null(f, "module")) {
			json_object *mod, *off;
			const char *mname;

			json_object_object_get_ex(f, "module", &mod);
			mname = json_object_get_string(mod);
			uint64_t offset = json_object_object_get_ex(f, "offset", &off) ?
					  (uint64_t)json_object_get_int64(off) : 0;

			c->modframes++;
			if (list_only) {
				if (list_modules)
					printf("%s %s %" PRIu64 " %d\n", mname,
					       json_object_get_string(sym),
					       offset, exact);
				continue;
			}
			printf(" [%s]", mname);
			err = oc_lines_lookup_module(l, mname,
						     json_object_get_string(sym),
						     offset, exact, chain,
						     MAX_CHAIN, &nr);
			if (err)
				return err;
			print_chain(chain, nr, &c->mod_with_line);
			continue;
		}
		if (!sym) {
			if (!list_only)
				printf("\n");
			continue;
		}
		c->vmlinux++;
		if (list_only) {
			if (!list_modules)
				printf("%#" PRIx64 "\n",
				       oc_lines_addr(ip, exact, kaslr));
			continue;
		}
		err = oc_lines_lookup(l, oc_lines_addr(ip, exact, kaslr), chain,
				      MAX_CHAIN, &nr);
		if (err)
			return err;
		print_chain(chain, nr, &c->with_line);
	}
	return NULL;
}

static int cmd_report(struct oc_lines *l, const char *path)
{
	json_object *root, *kernel, *list;
	struct report_count c = { 0 };
	struct oc_error *err;
	uint64_t kaslr = 0;

	root = json_object_from_file(path);
	if (!root) {
		fprintf(stderr, "%s: %s\n", path, json_util_get_last_err());
		return 1;
	}
	if (json_object_object_get_ex(root, "kernel", &kernel))
		kaslr = json_hex(kernel, "kaslr_offset");
	if (json_object_object_get_ex(root, "cpus", &list))
		for (size_t i = 0; i < json_object_array_length(list); i++) {
			err = report_trace(l, json_object_array_get_idx(list, i),
					   kaslr, true, &c);
			if (err)
				return fail(err);
		}
	if (json_object_object_get_ex(root, "tasks", &list))
		for (size_t i = 0; i < json_object_array_length(list); i++) {
			json_object *t = json_object_array_get_idx(list, i), *v;
			bool on_cpu = json_object_object_get_ex(t, "on_cpu", &v) &&
				      json_object_get_boolean(v);

			err = report_trace(l, t, kaslr, on_cpu, &c);
			if (err)
				return fail(err);
		}
	json_object_put(root);
	if (list_only)
		return 0;
	if (oc_lines_unavailable(l))
		printf("%s\n", oc_lines_unavailable(l));
	printf("module-frames %zu with-line %zu\n", c.modframes,
	       c.mod_with_line);
	printf("frames %zu vmlinux-frames %zu with-line %zu\n", c.frames,
	       c.vmlinux, c.with_line);
	return 0;
}

int main(int argc, char **argv)
{
	struct oc_lines_stats st;
	struct oc_lines *l;
	struct oc_error *err;
	const char *cache = NULL, *mode = "build-id", *moddir = NULL;
	double t0 = now_sec(), t1;
	int i = 1, rc;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--cache") && i + 1 < argc)
			cache = argv[++i];
		else if (!strcmp(argv[i], "--no-cache"))
			mode = "none";
		else if (!strcmp(argv[i], "--full"))
			full_names = true;
		else if (!strcmp(argv[i], "--modules-dir") && i + 1 < argc)
			moddir = argv[++i];
		else if (!strcmp(argv[i], "--modules"))
			list_modules = true;
		else
			break;
	}
	if (argc - i == 2 && !strcmp(argv[i], "lookups")) {
		list_only = true;
		return cmd_report(NULL, argv[i + 1]);
	}
	if (argc - i < 2 || (strcmp(argv[i], "addrs") && strcmp(argv[i], "report") &&
			     strcmp(argv[i], "modaddrs")) ||
	    (!strcmp(argv[i], "report") && argc - i != 3)) {
		fprintf(stderr, "usage: linescat [--cache FILE|--no-cache] [--full] addrs VMLINUX [ADDR...]\n"
				"       linescat [--cache FILE|--no-cache] [--full] report VMLINUX JSON\n"
				"       linescat [--modules] lookups JSON\n"
				"       linescat --modules-dir DIR modaddrs VMLINUX\n");
		return 2;
	}
	err = open_lines(argv[i + 1], mode, cache, &l);
	if (err)
		return fail(err);
	if (moddir) {
		err = oc_lines_set_modules_dir(l, moddir);
		if (err)
			return fail(err);
	}
	if (!strcmp(argv[i], "modaddrs")) {
		full_names = true;
		rc = cmd_modaddrs(l);
	} else if (!strcmp(argv[i], "addrs")) {
		full_names = true;
		rc = cmd_addrs(l, argc - i - 2, argv + i + 2);
	} else {
		rc = cmd_report(l, argv[i + 2]);
	}
	oc_lines_get_stats(l, &st);
	t1 = now_sec();
	oc_lines_close(l);
	fprintf(stderr,
		"lines: cached %zu hits %zu misses %zu dwarf-open %.3fs dwarf-lookups %.3fs total %.3fs (close %.3fs)\n",
		st.cached, st.hits, st.misses, st.dwarf_open_sec,
		st.dwarf_lookup_sec, now_sec() - t0, now_sec() - t1);
	return rc;
}
