// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * src/lines.c and formats/dwarflines.c on synthetic inputs: cache files
 * written by hand (good and corrupted), and a small program compiled here
 * with known inlining and line numbers (DWARF 5 and DWARF 4), looked up
 * through the DWARF and then through the cache alone.
 */
#include <stdarg.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elffile.h"
#include "lines.h"
#include "symtab.h"
#include "test.h"
#include "unwind.h"

static char *read_all(const char *path)
{
	static char buf[65536];
	FILE *fp = fopen(path, "r");
	size_t n;

	if (!fp)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	return buf;
}

/* --- the cache file alone -------------------------------------------- */

static const char good_cache[] =
	"orccrash-lines 1 -\n"
	"ffffffff81000010 3\n"
	"\t58\t1\tnative_halt\t/src/arch/x86/include/asm/irqflags.h\n"
	"\t103\t1\t__clear_user\t/src/arch/x86/include/asm/uaccess_64.h\n"
	"\t808\t0\tstop_this_cpu\t/src/arch/x86/kernel/process.c\n"
	"ffffffff81000020 0\n"
	"ffffffff81000030 1\n"
	"\t0\t0\tasm_label\t\n";

TEST(lines_cache_chain_order)
{
	struct oc_line_info chain[8];
	struct oc_lines *l;
	struct oc_lines_stats st;
	const char *path = oc_test_tmp_path("cache-good");
	size_t nr = 99;

	oc_test_write_text(path, good_cache);
	CHECK_OK(oc_lines_open_cache("/nonexistent/vmlinux", path, &l));
	CHECK_OK(oc_lines_lookup(l, 0xffffffff81000010, chain, 8, &nr));
	CHECK_EQ(nr, 3);
	if (nr == 3) {
		/* innermost first, the containing function last */
		CHECK_STR(chain[0].function, "native_halt");
		CHECK_EQ(chain[0].line, 58);
		CHECK(chain[0].inlined);
		CHECK_STR(chain[1].function, "__clear_user");
		CHECK(chain[1].inlined);
		CHECK_STR(chain[2].function, "stop_this_cpu");
		CHECK_STR(chain[2].file, "/src/arch/x86/kernel/process.c");
		CHECK_EQ(chain[2].line, 808);
		CHECK(!chain[2].inlined);
	}
	/* a short buffer keeps the innermost entries */
	CHECK_OK(oc_lines_lookup(l, 0xffffffff81000010, chain, 2, &nr));
	CHECK_EQ(nr, 2);
	CHECK_STR(chain[1].function, "__clear_user");
	/* "no line here" is remembered as such */
	CHECK_OK(oc_lines_lookup(l, 0xffffffff81000020, chain, 8, &nr));
	CHECK_EQ(nr, 0);
	/* an empty file field is an unknown file, line 0 */
	CHECK_OK(oc_lines_lookup(l, 0xffffffff81000030, chain, 8, &nr));
	CHECK_EQ(nr, 1);
	CHECK(chain[0].file == NULL);
	CHECK_STR(chain[0].function, "asm_label");
	/* all from the cache: the (missing) DWARF was never needed */
	CHECK(oc_lines_unavailable(l) == NULL);
	oc_lines_get_stats(l, &st);
	CHECK_EQ(st.cached, 3);
	CHECK_EQ(st.hits, 4);
	CHECK_EQ(st.misses, 0);
	/* an address the cache lacks needs the DWARF, which is missing */
	CHECK_OK(oc_lines_lookup(l, 0xffffffff81000040, chain, 8, &nr));
	CHECK_EQ(nr, 0);
	CHECK(oc_lines_unavailable(l) != NULL);
	oc_lines_close(l);
	/* nothing was added (an unavailable DWARF is not remembered): the
	 * file is left as it was */
	CHECK_STR(read_all(path), good_cache);
}

TEST(lines_cache_corrupt_ignored)
{
	static const char *const bad[] = {
		"orccrash-lines 2 -\nffffffff81000010 0\n",	/* version */
		"orccrash-lines 1 0123\nffffffff81000010 0\n", /* build-id */
		"orccrash-lines 1 -\nffffffff81000010 1\n",	/* truncated */
		"orccrash-lines 1 -\nzzzz 0\n",			/* address */
		"orccrash-lines 1 -\nffffffff81000010 -1\n",	/* count */
		"orccrash-lines 1 -\nffffffff81000010 99999\n",
		"orccrash-lines 1 -\nffffffff81000010 1\n\t1\t0\tf\n", /* fields */
		"orccrash-lines 1 -\nffffffff81000010 1\n\t1\t0\tf\tx\ty\n",
		"orccrash-lines 1 -\nffffffff81000010 1\n\tx\t0\tf\tx\n",
		"orccrash-lines 1 -\nffffffff81000010 1\n\t1\t2\tf\tx\n",
		"orccrash-lines 1 -\nffffffff81000010 0\nffffffff81000010 0\n",
		"orccrash-lines 1 -\nffffffff81000010 0",	/* no newline */
		"",
		/* a control character in a name: not what cache_print() writes */
		"orccrash-lines 1 -\nffffffff81000010 1\n\t1\t0\tf\x1b[2J\tx\n",
		"orccrash-lines 1 -\nffffffff81000010 1\n\t1\t0\tf\tx\x7f\n",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct oc_line_info chain[4];
		struct oc_lines *l;
		struct oc_lines_stats st;
		const char *path = oc_test_tmp_path("cache-bad");
		size_t nr = 99;

		oc_test_write_text(path, bad[i]);
		CHECK_OK(oc_lines_open_cache("/nonexistent/vmlinux", path, &l));
		oc_lines_get_stats(l, &st);
		if (st.cached)
			FAIL_AT("bad cache %zu: %zu records loaded", i, st.cached);
		CHECK_OK(oc_lines_lookup(l, 0xffffffff81000010, chain, 4, &nr));
		CHECK_EQ(nr, 0);
		oc_lines_close(l);
		/* replaced by a valid cache: empty, except that the merge at
		 * close keeps a valid first record of the duplicate case */
		CHECK_STR(read_all(path), i == 10 ?
			  "orccrash-lines 1 -\nffffffff81000010 0\n" :
			  "orccrash-lines 1 -\n");
	}
}

/*
 * The cache cannot be redirected: in a directory others can write it is
 * neither read nor written; a link at the cache path is not followed
 * when reading, and writing replaces the link, not what it points to.
 */
TEST(lines_cache_not_redirected)
{
	static const char valid[] = "orccrash-lines 1 -\nffffffff81000010 1\n"
				    "\t7\t0\tf\t/x.c\n";
	/* a bad cache is replaced at close: each case below makes a write */
	static const char bad[] = "orccrash-lines 1 -\nzzzz 0\n";
	const char *dir = oc_test_tmp_path("shared");
	const char *victim = oc_test_tmp_path("victim");
	char path[256], tmp[300];
	struct oc_lines *l;
	struct oc_lines_stats st;
	struct stat sb;

	/* a world-writable directory (like /tmp, without the sticky bit):
	 * the cache there is neither read nor replaced */
	mkdir(dir, 0700);
	CHECK(chmod(dir, 0777) == 0);
	snprintf(path, sizeof(path), "%s/cache", dir);
	oc_test_write_text(path, bad);
	CHECK_OK(oc_lines_open_cache("/nonexistent/vmlinux", path, &l));
	oc_lines_close(l);
	CHECK_STR(read_all(path), bad);
	CHECK(chmod(dir, 0700) == 0);

	/* our own directory, a link planted where the temporary file of
	 * this process would have been named <path>.tmp.<pid> */
	oc_test_write_text(victim, valid);
	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid());
	CHECK(symlink(victim, tmp) == 0);
	CHECK_OK(oc_lines_open_cache("/nonexistent/vmlinux", path, &l));
	oc_lines_close(l);
	CHECK_STR(read_all(victim), valid);
	CHECK_STR(read_all(path), "orccrash-lines 1 -\n");
	CHECK(lstat(path, &sb) == 0 && S_ISREG(sb.st_mode) &&
	      (sb.st_mode & 0777) == 0600);
	unlink(tmp);

	/* the cache path a link to another file: not read through */
	unlink(path);
	CHECK(symlink(victim, path) == 0);
	CHECK_OK(oc_lines_open_cache("/nonexistent/vmlinux", path, &l));
	oc_lines_get_stats(l, &st);
	CHECK_EQ(st.cached, 0);
	oc_lines_close(l);
	CHECK_STR(read_all(victim), valid);
}

TEST(lines_cache_path_from_build_id)
{
	static const uint8_t id[] = { 0x01, 0xd2, 0x64, 0xff };
	struct oc_line_info chain[4];
	struct oc_lines *l;
	const char *old = getenv("ORCCRASH_CACHE");
	char *saved = old ? strdup(old) : NULL;
	size_t nr = 0;

	mkdir(oc_test_tmp_path("c"), 0755);
	mkdir(oc_test_tmp_path("c/lines"), 0755);
	oc_test_write_text(oc_test_tmp_path("c/lines/01d264ff"),
			   "orccrash-lines 1 01d264ff\nffffffff81000010 1\n"
			   "\t7\t0\tf\t/x.c\n");
	setenv("ORCCRASH_CACHE", oc_test_tmp_path("c"), 1);
	CHECK_OK(oc_lines_open("/nonexistent/vmlinux", id, sizeof(id), &l));
	CHECK_OK(oc_lines_lookup(l, 0xffffffff81000010, chain, 4, &nr));
	CHECK_EQ(nr, 1);
	CHECK_EQ(nr ? chain[0].line : 0, 7);
	oc_lines_close(l);
	if (saved)
		setenv("ORCCRASH_CACHE", saved, 1);
	else
		unsetenv("ORCCRASH_CACHE");
	free(saved);
}

/* Restores an environment variable saved by env_save(). */
struct saved_env {
	const char *name;
	char *value;
};

static struct saved_env env_save(const char *name, const char *value)
{
	const char *old = getenv(name);
	struct saved_env e = { name, old ? strdup(old) : NULL };

	if (value)
		setenv(name, value, 1);
	else
		unsetenv(name);
	return e;
}

static void env_restore(struct saved_env *e)
{
	if (e->value)
		setenv(e->name, e->value, 1);
	else
		unsetenv(e->name);
	free(e->value);
}

/* The line a cache at @dir/01d264ff gives for 0xffffffff81000010, or 0. */
static unsigned cached_line(void)
{
	static const uint8_t id[] = { 0x01, 0xd2, 0x64, 0xff };
	struct oc_line_info chain[4];
	struct oc_lines *l;
	size_t nr = 0;

	if (oc_lines_open("/nonexistent/vmlinux", id, sizeof(id), &l))
		return 0;
	oc_error_destroy(oc_lines_lookup(l, 0xffffffff81000010, chain, 4, &nr));
	oc_lines_close(l);
	return nr ? chain[0].line : 0;
}

/*
 * Without ORCCRASH_CACHE: $XDG_CACHE_HOME/orccrash/lines when it is
 * absolute (XDG Base Directory Specification 0.8: a relative path is
 * invalid and ignored), else $HOME/.cache/orccrash/lines.
 */
TEST(lines_cache_path_xdg)
{
	struct saved_env oc = env_save("ORCCRASH_CACHE", NULL);
	struct saved_env xdg = env_save("XDG_CACHE_HOME", oc_test_tmp_path("xdg"));
	struct saved_env home = env_save("HOME", oc_test_tmp_path("home"));
	static const char *const dirs[] = {
		"xdg", "xdg/orccrash", "xdg/orccrash/lines", "home",
		"home/.cache", "home/.cache/orccrash",
		"home/.cache/orccrash/lines",
	};

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		mkdir(oc_test_tmp_path(dirs[i]), 0755);
	oc_test_write_text(oc_test_tmp_path("xdg/orccrash/lines/01d264ff"),
			   "orccrash-lines 1 01d264ff\nffffffff81000010 1\n"
			   "\t11\t0\tf\t/x.c\n");
	oc_test_write_text(oc_test_tmp_path("home/.cache/orccrash/lines/01d264ff"),
			   "orccrash-lines 1 01d264ff\nffffffff81000010 1\n"
			   "\t22\t0\tf\t/x.c\n");
	CHECK_EQ(cached_line(), 11);
	setenv("XDG_CACHE_HOME", "relative/cache", 1);
	CHECK_EQ(cached_line(), 22);
	setenv("XDG_CACHE_HOME", "", 1);
	CHECK_EQ(cached_line(), 22);
	unsetenv("XDG_CACHE_HOME");
	CHECK_EQ(cached_line(), 22);
	env_restore(&home);
	env_restore(&xdg);
	env_restore(&oc);
}

/* --- addresses and names ------------------------------------------ */

TEST(lines_frame_addr)
{
	struct oc_frame f;

	memset(&f, 0, sizeof(f));
	f.ip = 0xffffffff8b4ccb2d;
	/* a return address: the call before it, KASLR undone */
	CHECK_EQ(oc_lines_frame_addr(&f, 0xa400000), 0xffffffff810ccb2c);
	f.signal = f.exact = true;	/* interrupted: the exact instruction */
	CHECK_EQ(oc_lines_frame_addr(&f, 0xa400000), 0xffffffff810ccb2d);
	CHECK_EQ(oc_lines_addr(0xffffffff81000005, false, 0), 0xffffffff81000004);
}

TEST(lines_short_file)
{
	CHECK_STR(oc_lines_short_file("debian/build/build_amd64_none_cloud-amd64/kernel/sched/core.c"),
		  "kernel/sched/core.c");
	CHECK_STR(oc_lines_short_file("/build/reproducible-path/linux-6.1.192/arch/x86/include/asm/irqflags.h"),
		  "arch/x86/include/asm/irqflags.h");
	CHECK_STR(oc_lines_short_file("/usr/src/linux/mm/slub.c"), "mm/slub.c");
	/* the file's own name is never taken for a directory */
	CHECK_STR(oc_lines_short_file("/tmp/kernel"), "/tmp/kernel");
	CHECK_STR(oc_lines_short_file("prog.c"), "prog.c");
	CHECK(oc_lines_short_file(NULL) == NULL);
}

/* --- a compiled program ------------------------------------------------ */

/* Line numbers below are the program's: keep them in step. */
static const char prog_src[] =
	"/* generated by tests/unit/test_lines.c */\n"			/* 1 */
	"static inline __attribute__((always_inline)) int inner(int x)\n" /* 2 */
	"{\n"								/* 3 */
	"\tasm volatile(\".globl mark_inner\\nmark_inner: nop\");\n"	/* 4 */
	"\treturn x * 3;\n"						/* 5 */
	"}\n"								/* 6 */
	"static inline __attribute__((always_inline)) int middle(int x)\n" /* 7 */
	"{\n"								/* 8 */
	"\treturn inner(x + 1) + 2;\n"					/* 9 */
	"}\n"								/* 10 */
	"__attribute__((noinline)) int outer(int x)\n"			/* 11 */
	"{\n"								/* 12 */
	"\tint r = middle(x);\n"					/* 13 */
	"\tasm volatile(\".globl mark_outer\\nmark_outer: nop\");\n"	/* 14 */
	"\treturn r;\n"							/* 15 */
	"}\n"								/* 16 */
	"int main(int argc, char **argv)\n"				/* 17 */
	"{\n"								/* 18 */
	"\treturn outer(argc);\n"					/* 19 */
	"}\n";								/* 20 */

/* Compile prog_src with @flags into @out; its mark_* addresses. */
static bool build_prog(const char *out, const char *flags, uint64_t *inner,
		       uint64_t *outer)
{
	const char *src = oc_test_tmp_path("prog.c");

	oc_test_write_text(src, prog_src);
	if (!oc_test_system("%s %s -o %s %s", oc_test_cc(), flags, out, src))
		return false;
	*inner = oc_test_sym_addr(out, "mark_inner");
	*outer = oc_test_sym_addr(out, "mark_outer");
	return *inner && *outer;
}

static void check_prog_chains(struct oc_lines *l, uint64_t inner,
			      uint64_t outer)
{
	struct oc_line_info chain[8];
	const char *src = oc_test_tmp_path("prog.c");
	size_t nr = 0;

	CHECK_OK(oc_lines_lookup(l, inner, chain, 8, &nr));
	CHECK_EQ(nr, 3);
	if (nr == 3) {
		CHECK_STR(chain[0].function, "inner");
		CHECK_EQ(chain[0].line, 4);
		CHECK(chain[0].inlined);
		CHECK_STR(chain[0].file, src);
		/* the call sites, each in its caller */
		CHECK_STR(chain[1].function, "middle");
		CHECK_EQ(chain[1].line, 9);
		CHECK(chain[1].inlined);
		CHECK_STR(chain[1].file, src);
		CHECK_STR(chain[2].function, "outer");
		CHECK_EQ(chain[2].line, 13);
		CHECK(!chain[2].inlined);
		CHECK_STR(chain[2].file, src);
	}
	CHECK_OK(oc_lines_lookup(l, outer, chain, 8, &nr));
	CHECK_EQ(nr, 1);
	if (nr == 1) {
		CHECK_STR(chain[0].function, "outer");
		CHECK_EQ(chain[0].line, 14);
		CHECK(!chain[0].inlined);
	}
	/* far below the program: no CU */
	CHECK_OK(oc_lines_lookup(l, 0x10, chain, 8, &nr));
	CHECK_EQ(nr, 0);
}

/* With the binary gone, @cache alone: check_prog_chains()'s answers, and
 * the stats in *@st to say they came from the cache. */
static struct oc_lines *open_warm(const char *bin, const char *cache,
				  uint64_t inner, uint64_t outer,
				  struct oc_lines_stats *st)
{
	struct oc_lines *l = NULL;

	unlink(bin);
	CHECK_OK(oc_lines_open_cache(bin, cache, &l));
	check_prog_chains(l, inner, outer);
	oc_lines_get_stats(l, st);
	return l;
}

static void prog_test(const char *flags, const char *name,
		      const char *post)
{
	const char *bin = oc_test_tmp_path(name);
	char cache[256];
	struct oc_lines *l;
	struct oc_lines_stats st;
	uint64_t inner = 0, outer = 0;

	snprintf(cache, sizeof(cache), "%s.cache", bin);
	if (!build_prog(bin, flags, &inner, &outer))
		return;
	if (post && !oc_test_system("%s %s", post, bin))
		return;
	/* cold: from the DWARF, then written to the cache */
	CHECK_OK(oc_lines_open_cache(bin, cache, &l));
	check_prog_chains(l, inner, outer);
	CHECK(oc_lines_unavailable(l) == NULL);
	oc_lines_get_stats(l, &st);
	CHECK_EQ(st.misses, 3);
	oc_lines_close(l);
	/* warm, with the binary gone: the same answers from the cache */
	l = open_warm(bin, cache, inner, outer, &st);
	CHECK_EQ(st.cached, 3);
	CHECK_EQ(st.hits, 3);
	CHECK_EQ(st.misses, 0);
	CHECK(oc_lines_unavailable(l) == NULL);
	oc_lines_close(l);
}

TEST(lines_dwarf5_inline_chain)
{
	prog_test("-g -gdwarf-5 -O2", "prog5", NULL);
}

/* Without .debug_aranges (as clang builds): the CUs' own ranges. */
TEST(lines_no_aranges)
{
	prog_test("-g -gdwarf-5 -O2", "prog5-noar",
		  "objcopy --remove-section=.debug_aranges");
}

/* Two runs on one kernel at once: the second to close keeps the
 * first one's addresses. */
TEST(lines_cache_merge)
{
	const char *bin = oc_test_tmp_path("prog-merge");
	const char *cache = oc_test_tmp_path("prog-merge.cache");
	struct oc_line_info chain[8];
	struct oc_lines *a, *b;
	struct oc_lines_stats st;
	uint64_t inner = 0, outer = 0;
	size_t nr;

	if (!build_prog(bin, "-g -O2", &inner, &outer))
		return;
	CHECK_OK(oc_lines_open_cache(bin, cache, &a));
	CHECK_OK(oc_lines_open_cache(bin, cache, &b));
	CHECK_OK(oc_lines_lookup(a, inner, chain, 8, &nr));
	CHECK_OK(oc_lines_lookup(b, outer, chain, 8, &nr));
	oc_lines_close(a);
	oc_lines_close(b);
	a = open_warm(bin, cache, inner, outer, &st);
	CHECK_EQ(st.cached, 2);
	CHECK_EQ(st.hits, 2);
	oc_lines_close(a);
}

TEST(lines_dwarf4_inline_chain)
{
	prog_test("-g -gdwarf-4 -O2", "prog4", NULL);
}

/* A relocatable object as a module's .ko: relocated, placed by symbol. */
TEST(lines_module_ko)
{
	const char *src = oc_test_tmp_path("prog.c");
	const char *dir = oc_test_tmp_path("mods");
	char ko[256];
	struct oc_line_info chain[8];
	struct oc_lines *l;
	size_t nr = 0;

	mkdir(dir, 0755);
	mkdir(oc_test_tmp_path("mods/sub"), 0755);
	snprintf(ko, sizeof(ko), "%s/sub/test-prog.ko", dir);
	oc_test_write_text(src, prog_src);
	if (!oc_test_system("%s -g -gdwarf-5 -O2 -c -o %s %s", oc_test_cc(),
			    ko, src))
		return;
	CHECK_OK(oc_lines_open_cache("/nonexistent/vmlinux", NULL, &l));
	/* no modules dir: nothing, and no error */
	CHECK_OK(oc_lines_lookup_module(l, "test_prog", "mark_inner", 0, true,
					chain, 8, &nr));
	CHECK_EQ(nr, 0);
	CHECK_OK(oc_lines_set_modules_dir(l, dir));
	/* '-' in the file name, '_' in the kernel's module name */
	CHECK_OK(oc_lines_lookup_module(l, "test_prog", "mark_inner", 0, true,
					chain, 8, &nr));
	CHECK_EQ(nr, 3);
	if (nr == 3) {
		CHECK_STR(chain[0].function, "inner");
		CHECK_EQ(chain[0].line, 4);
		CHECK_STR(chain[0].file, src);
		CHECK_STR(chain[1].function, "middle");
		CHECK_EQ(chain[1].line, 9);
		CHECK_STR(chain[2].function, "outer");
		CHECK_EQ(chain[2].line, 13);
	}
	/* a return address one past mark_outer's nop: ip - 1 is the nop */
	CHECK_OK(oc_lines_lookup_module(l, "test_prog", "mark_outer", 1, false,
					chain, 8, &nr));
	CHECK_EQ(nr, 1);
	CHECK_EQ(nr ? chain[0].line : 0, 14);
	CHECK_OK(oc_lines_lookup_module(l, "test_prog", "no_such_symbol", 0,
					true, chain, 8, &nr));
	CHECK_EQ(nr, 0);
	CHECK_OK(oc_lines_lookup_module(l, "other", "mark_inner", 0, true,
					chain, 8, &nr));
	CHECK_EQ(nr, 0);
	CHECK(oc_lines_module_unavailable(l, "test_prog") == NULL);
	oc_lines_close(l);
}

/* How many lines test_prog's mark_inner has with the modules in @dir. */
static size_t module_lines_found(const char *dir)
{
	struct oc_line_info chain[8];
	struct oc_lines *l;
	size_t nr = 0;

	CHECK_OK(oc_lines_open_cache("/nonexistent/vmlinux", NULL, &l));
	CHECK_OK(oc_lines_set_modules_dir(l, dir));
	CHECK_OK(oc_lines_lookup_module(l, "test_prog", "mark_inner", 0, true,
					chain, 8, &nr));
	oc_lines_close(l);
	return nr;
}

/*
 * The module search does not follow a link to a directory: a link can
 * lead out of the modules directory (build/, source/) or round in a loop.
 * A linked .ko file is still taken.
 */
TEST(lines_module_dir_links)
{
	const char *src = oc_test_tmp_path("prog2.c");
	const char *outside = oc_test_tmp_path("outside");
	const char *dir = oc_test_tmp_path("mods2");
	char ko[256], link[256];

	mkdir(outside, 0755);
	mkdir(dir, 0755);
	snprintf(ko, sizeof(ko), "%s/test-prog.ko", outside);
	oc_test_write_text(src, prog_src);
	if (!oc_test_system("%s -g -gdwarf-5 -O2 -c -o %s %s", oc_test_cc(),
			    ko, src))
		return;
	snprintf(link, sizeof(link), "%s/build", dir);
	CHECK(symlink(outside, link) == 0);
	snprintf(link, sizeof(link), "%s/loop", dir);
	CHECK(symlink(".", link) == 0);
	CHECK_EQ(module_lines_found(dir), 0);
	/* a link to the file itself is a regular file: found */
	snprintf(link, sizeof(link), "%s/test-prog.ko", dir);
	CHECK(symlink(ko, link) == 0);
	CHECK_EQ(module_lines_found(dir), 3);
}

/*
 * DWARF 5 starts the line program's file register at 1 like DWARF 4, but
 * entry 1 is no longer the primary file: here gcc numbers hdr.h 1, and
 * the first rows of main's CU come before any DW_LNS_set_file.  binutils
 * 2.40 addr2line and libdwarf 20210528 answer m.c:3 (entry 0); elfutils,
 * gdb and our decoder hdr.h:3.
 */
TEST(lines_dwarf5_initial_file)
{
	const char *hdr = oc_test_tmp_path("hdr.h"), *src = oc_test_tmp_path("m.c");
	const char *bin = oc_test_tmp_path("m");
	struct oc_line_info chain[4];
	struct oc_lines *l;
	uint64_t mark;
	size_t nr = 0;

	oc_test_write_text(hdr, "static int __attribute__((noinline, used)) from_header(int x)\n"
			"{\n"
			"\tasm volatile(\".globl mark_hdr\\nmark_hdr: nop\");\n"
			"\treturn x + 1;\n"
			"}\n");
	oc_test_write_text(src, "#include \"hdr.h\"\n"
			"int main(int c, char **v)\n"
			"{\n"
			"\treturn from_header(c);\n"
			"}\n");
	if (!oc_test_system("%s -g -gdwarf-5 -O2 -o %s %s", oc_test_cc(), bin,
			    src))
		return;
	mark = oc_test_sym_addr(bin, "mark_hdr");
	CHECK(mark);
	CHECK_OK(oc_lines_open_cache(bin, NULL, &l));
	if (mark)
		CHECK_OK(oc_lines_lookup(l, mark, chain, 4, &nr));
	CHECK_EQ(nr, 1);
	if (nr == 1) {
		CHECK_STR(chain[0].file, hdr);
		CHECK_EQ(chain[0].line, 3);
		CHECK_STR(chain[0].function, "from_header");
	}
	oc_lines_close(l);
}

TEST(lines_no_debuginfo)
{
	const char *bin = oc_test_tmp_path("prog-nodebug");
	struct oc_line_info chain[8];
	struct oc_lines *l;
	uint64_t inner = 0, outer = 0;
	size_t nr = 99;

	if (!build_prog(bin, "-O2", &inner, &outer))
		return;
	CHECK_OK(oc_lines_open_cache(bin, NULL, &l));
	CHECK_OK(oc_lines_lookup(l, inner, chain, 8, &nr));
	CHECK_EQ(nr, 0);
	CHECK(oc_lines_unavailable(l) != NULL);
	if (oc_lines_unavailable(l))
		CHECK(strstr(oc_lines_unavailable(l), "no DWARF") != NULL);
	CHECK_OK(oc_lines_lookup(l, outer, chain, 8, &nr));
	CHECK_EQ(nr, 0);
	oc_lines_close(l);
}
