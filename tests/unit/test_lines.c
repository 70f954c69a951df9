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

#include "array.h"
#include "elffile.h"
#include "lines.h"
#include "symtab.h"
#include "test.h"
#include "unwind.h"

/* --- the cache file alone -------------------------------------------- */

/*
 * Cache files made here after docs/lines.md's layout, not by src/lines.c:
 * a head (magic "OCLINES2", the build-id's length and 64 bytes of it, 4
 * bytes of padding, the numbers of records and entries and the strings'
 * length, 4 more bytes), the records (address, first entry, count; sorted
 * by address), the entries (line, inlined, function and file as string
 * offsets, ~0 for none), the strings.
 */
struct t_ent {
	uint32_t line, inlined;
	const char *function, *file;
};

struct t_rec {
	uint64_t addr;
	uint32_t nr;
	struct t_ent ents[3];
};

enum { T_HEAD = 96, T_NONE = 0xffffffff };

struct t_file {
	uint8_t b[4096];
	size_t len;
};

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static uint32_t t_str(struct t_file *f, size_t strs, size_t *strs_len,
		      const char *s)
{
	uint32_t off = *strs_len;

	if (!s)
		return T_NONE;
	memcpy(f->b + strs + off, s, strlen(s) + 1);
	*strs_len += strlen(s) + 1;
	return off;
}

/* The file of @nr @recs for build-id @id (@id_len bytes, 0: none). */
static struct t_file t_cache(const uint8_t *id, size_t id_len,
			     const struct t_rec *recs, size_t nr)
{
	struct t_file f;
	size_t nr_ents = 0, strs, strs_len = 0, e;

	memset(&f, 0, sizeof(f));
	for (size_t i = 0; i < nr; i++)
		nr_ents += recs[i].nr;
	memcpy(f.b, "OCLINES2", 8);
	put32(f.b + 8, id_len);
	if (id_len)
		memcpy(f.b + 12, id, id_len);
	put32(f.b + 80, nr);
	put32(f.b + 84, nr_ents);
	strs = T_HEAD + 16 * nr + 16 * nr_ents;
	e = T_HEAD + 16 * nr;
	for (size_t i = 0, first = 0; i < nr; i++) {
		uint8_t *r = f.b + T_HEAD + 16 * i;

		memcpy(r, &recs[i].addr, 8);
		put32(r + 8, first);
		put32(r + 12, recs[i].nr);
		for (uint32_t k = 0; k < recs[i].nr; k++, e += 16) {
			const struct t_ent *te = &recs[i].ents[k];

			put32(f.b + e, te->line);
			put32(f.b + e + 4, te->inlined);
			put32(f.b + e + 8, t_str(&f, strs, &strs_len, te->function));
			put32(f.b + e + 12, t_str(&f, strs, &strs_len, te->file));
		}
		first += recs[i].nr;
	}
	put32(f.b + 88, strs_len);
	f.len = strs + strs_len;
	return f;
}

static void t_write(const char *path, const struct t_file *f)
{
	oc_test_write_file(path, f->b, f->len);
}

/* @path holds exactly @f. */
static bool same_file(const char *path, const struct t_file *f)
{
	static uint8_t buf[8192];
	FILE *fp = fopen(path, "r");
	size_t n;

	if (!fp)
		return false;
	n = fread(buf, 1, sizeof(buf), fp);
	fclose(fp);
	return n == f->len && !memcmp(buf, f->b, n);
}

static const struct t_rec good_recs[] = {
	{ 0xffffffff81000010, 3, {
		{ 58, 1, "native_halt", "/src/arch/x86/include/asm/irqflags.h" },
		{ 103, 1, "__clear_user", "/src/arch/x86/include/asm/uaccess_64.h" },
		{ 808, 0, "stop_this_cpu", "/src/arch/x86/kernel/process.c" } } },
	{ 0xffffffff81000020, 0, { { 0 } } },
	{ 0xffffffff81000030, 1, { { 0, 0, "asm_label", NULL } } },
};

TEST(lines_cache_chain_order)
{
	struct t_file good = t_cache(NULL, 0, good_recs, 3);
	struct oc_line_info chain[8];
	struct oc_lines *l;
	struct oc_lines_stats st;
	const char *path = oc_test_tmp_path("cache-good");
	size_t nr = 99;

	t_write(path, &good);
	CHECK_OK(oc_lines_open_cache("/nonexistent/vmlinux", path, &l));
	CHECK_OK(oc_lines_lookup(l, 0xffffffff81000010, chain, 8, &nr));
	if (CHECKED_EQ(nr, 3)) {
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
	/* no file: an unknown file, line 0 */
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
	CHECK_OK(oc_lines_lookup(l, 0xffffffff81000000, chain, 8, &nr));
	CHECK_EQ(nr, 0);
	CHECK(oc_lines_unavailable(l) != NULL);
	oc_lines_close(l);
	/* nothing was added (an unavailable DWARF is not remembered): the
	 * file is left as it was */
	CHECK(same_file(path, &good));
}

/* The line the cache file @path gives for 0xffffffff81000010, or 0. */
static unsigned cached_line_at(const char *path)
{
	struct oc_line_info chain[4];
	struct oc_lines *l;
	size_t nr = 0;

	if (oc_lines_open_cache("/nonexistent/vmlinux", path, &l))
		return 0;
	oc_error_destroy(oc_lines_lookup(l, 0xffffffff81000010, chain, 4, &nr));
	oc_lines_close(l);
	return nr ? chain[0].line : 0;
}

/* Bytes @off.. of @f set to @v (4 of them). */
static struct t_file t_patch(struct t_file f, size_t off, uint32_t v)
{
	put32(f.b + off, v);
	return f;
}

TEST(lines_cache_corrupt_ignored)
{
	static const uint8_t id[] = { 0x01, 0x23 };
	static const struct t_rec one[] = {
		{ 0xffffffff81000010, 1, { { 7, 0, "f", "/x.c" } } },
	};
	static const struct t_rec twice[] = {
		{ 0xffffffff81000010, 1, { { 7, 0, "f", "/x.c" } } },
		{ 0xffffffff81000010, 0, { { 0 } } },
		{ 0xffffffff81000008, 0, { { 0 } } },
	};
	static const struct t_rec ctl[] = {
		{ 0xffffffff81000010, 1, { { 1, 0, "f\x1b[2J", "x" } } },
		{ 0xffffffff81000010, 1, { { 1, 0, "f", "x\x7f" } } },
	};
	struct t_file good = t_cache(NULL, 0, one, 1);
	struct t_file empty = t_cache(NULL, 0, NULL, 0);
	/* the entry of the record, its strings after it */
	size_t rec = T_HEAD, ent = T_HEAD + 16;
	struct t_file text = { "orccrash-lines 1 -\nffffffff81000010 0\n", 38 };
	struct {
		struct t_file f;
		bool head_ok;	/* the head is good, a record is not */
	} bad[] = {
		{ t_patch(good, 0, 0x4e494c43), false },	/* magic */
		{ t_cache(id, sizeof(id), one, 1), false },	/* build-id */
		{ text, false },				/* the old layout */
		{ t_patch(good, 80, 2), false },		/* records past the end */
		{ t_patch(good, 88, good.len), false },	/* strings past the end */
		{ t_patch(good, good.len - 4, 0x41414141), false }, /* no last '\0' */
		/* an address twice, addresses out of order */
		{ t_cache(NULL, 0, twice, 2), false },
		{ t_cache(NULL, 0, twice + 1, 2), false },
		{ t_patch(good, rec + 12, 65), true },	/* chain too long */
		{ t_patch(good, rec + 8, 1), true },	/* chain out of the file */
		{ t_patch(good, rec + 8, 0xffffffff), true },
		{ t_patch(good, ent + 4, 2), true },	/* inlined 2 */
		{ t_patch(good, ent + 8, 1000), true },	/* string out of the table */
		{ t_patch(good, ent + 12, 0xfffffffe), true },
		/* a control character in a name: not what the writer writes */
		{ t_cache(NULL, 0, ctl, 1), true },
		{ t_cache(NULL, 0, ctl + 1, 1), true },
	};

	good.len--;	/* cut short: the last case */
	for (size_t i = 0; i < OC_ARRAY_LEN(bad) + 1; i++) {
		const struct t_file *f = i < OC_ARRAY_LEN(bad) ? &bad[i].f : &good;
		bool head_ok = i < OC_ARRAY_LEN(bad) && bad[i].head_ok;
		struct oc_line_info chain[4];
		struct oc_lines *l;
		struct oc_lines_stats st;
		const char *path = oc_test_tmp_path("cache-bad");
		size_t nr = 99;

		t_write(path, f);
		CHECK_OK(oc_lines_open_cache("/nonexistent/vmlinux", path, &l));
		oc_lines_get_stats(l, &st);
		if (st.cached != head_ok)
			FAIL_AT("bad cache %zu: %zu records", i, st.cached);
		CHECK_OK(oc_lines_lookup(l, 0xffffffff81000010, chain, 4, &nr));
		if (nr)
			FAIL_AT("bad cache %zu: a chain of %zu", i, nr);
		oc_lines_close(l);
		/* replaced by a valid cache, without the bad record */
		if (!same_file(path, &empty))
			FAIL_AT("bad cache %zu: not replaced", i);
	}
	/* an empty file is no cache: nothing to replace it with */
	oc_test_write_file(oc_test_tmp_path("cache-bad"), "", 0);
	CHECK(cached_line_at(oc_test_tmp_path("cache-bad")) == 0);
}

/*
 * The cache cannot be redirected: in a directory others can write it is
 * neither read nor written; a link at the cache path is not followed
 * when reading, and writing replaces the link, not what it points to.
 */
TEST(lines_cache_not_redirected)
{
	static const struct t_rec one[] = {
		{ 0xffffffff81000010, 1, { { 7, 0, "f", "/x.c" } } },
	};
	struct t_file valid = t_cache(NULL, 0, one, 1);
	/* a bad cache is replaced at close: each case below makes a write */
	struct t_file bad = t_patch(valid, 0, 0x4e494c43);
	struct t_file empty = t_cache(NULL, 0, NULL, 0);
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
	t_write(path, &bad);
	CHECK_OK(oc_lines_open_cache("/nonexistent/vmlinux", path, &l));
	oc_lines_close(l);
	CHECK(same_file(path, &bad));
	t_write(path, &valid);
	CHECK_EQ(cached_line_at(path), 0);
	CHECK(chmod(dir, 0700) == 0);
	CHECK_EQ(cached_line_at(path), 7);
	t_write(path, &bad);

	/* our own directory, a link planted where the temporary file of
	 * this process would have been named <path>.tmp.<pid> */
	t_write(victim, &valid);
	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid());
	CHECK(symlink(victim, tmp) == 0);
	CHECK_OK(oc_lines_open_cache("/nonexistent/vmlinux", path, &l));
	oc_lines_close(l);
	CHECK(same_file(victim, &valid));
	CHECK(same_file(path, &empty));
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
	CHECK(same_file(victim, &valid));
}

static const uint8_t cache_id[] = { 0x01, 0xd2, 0x64, 0xff };

/* A cache for cache_id whose chain for 0xffffffff81000010 has @line. */
static void write_cache_of_id(const char *path, uint32_t line)
{
	const struct t_rec one[] = {
		{ 0xffffffff81000010, 1, { { line, 0, "f", "/x.c" } } },
	};
	struct t_file f = t_cache(cache_id, sizeof(cache_id), one, 1);

	t_write(path, &f);
}

TEST(lines_cache_path_from_build_id)
{
	struct oc_line_info chain[4];
	struct oc_lines *l;
	const char *old = getenv("ORCCRASH_CACHE");
	char *saved = old ? strdup(old) : NULL;
	size_t nr = 0;

	mkdir(oc_test_tmp_path("c"), 0755);
	mkdir(oc_test_tmp_path("c/lines"), 0755);
	write_cache_of_id(oc_test_tmp_path("c/lines/01d264ff-2"), 7);
	setenv("ORCCRASH_CACHE", oc_test_tmp_path("c"), 1);
	CHECK_OK(oc_lines_open("/nonexistent/vmlinux", cache_id,
			       sizeof(cache_id), &l));
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

/* The line the cache of cache_id gives for 0xffffffff81000010, or 0. */
static unsigned cached_line(void)
{
	struct oc_line_info chain[4];
	struct oc_lines *l;
	size_t nr = 0;

	if (oc_lines_open("/nonexistent/vmlinux", cache_id, sizeof(cache_id),
			  &l))
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
	write_cache_of_id(oc_test_tmp_path("xdg/orccrash/lines/01d264ff-2"), 11);
	write_cache_of_id(oc_test_tmp_path("home/.cache/orccrash/lines/01d264ff-2"),
			  22);
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
	if (CHECKED_EQ(nr, 3)) {
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
	if (CHECKED_EQ(nr, 1)) {
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
	if (CHECKED_EQ(nr, 3)) {
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
	if (CHECKED_EQ(nr, 1)) {
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
