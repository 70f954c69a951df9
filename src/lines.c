// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Source lines with a per-build-id cache (see lines.h).
 *
 * The cache is a text file, one record per address looked up:
 *
 *	orccrash-lines 1 <build-id hex>
 *	<link address, hex> <n>
 *	\t<line>\t<inlined 0|1>\t<function>\t<file>	(n times, innermost first)
 *
 * An empty function or file means unknown; n = 0 means the DWARF has
 * nothing for the address (remembered too, so it is not searched again).
 * The file is rewritten whole (temporary + rename) when a run added
 * addresses.  A file that does not parse is ignored and replaced.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "array.h"
#include "cachefile.h"
#include "dwarflines.h"
#include "elffile.h"
#include "lines.h"
#include "strutil.h"
#include "unwind.h"

/* A record: the chain of one address, infos[first .. first + nr). */
struct lines_rec {
	uint64_t addr;
	uint32_t first, nr;
};

struct oc_lines {
	char *vmlinux;
	char *cache_path;	/* NULL: no cache */
	char *build_id_hex;	/* NULL with oc_lines_open_cache() */
	bool dirty;

	/* open addressing over recs, keyed by addr; slots hold index + 1 */
	uint32_t *slots;
	size_t nr_slots;
	struct lines_rec *recs;
	size_t nr_recs, cap_recs;
	struct oc_line_info *infos;
	size_t nr_infos, cap_infos;

	/* interned strings, the same open addressing */
	char **strs;
	size_t nr_strs, cap_strs;

	struct oc_dwarf *dwarf;
	bool dwarf_tried;
	/* files to read the DWARF from when the vmlinux has none (see
	 * oc_lines_add_debug_file()); the one used, if any */
	char **debug_files;
	size_t nr_debug_files;
	char *debug_used;
	char *unavailable;
	struct oc_lines_stats stats;

	/* --modules-dir: the .ko files found there, opened on first use */
	char *modules_dir;
	bool modules_listed;
	struct lines_module *mods;
	size_t nr_mods, cap_mods;
};

struct lines_module {
	char *name;		/* as the kernel names it, '_' not '-' */
	char **paths;		/* NAME.ko / NAME.ko.debug files found */
	size_t nr_paths;
	uint8_t build_id[64];	/* the dump's module, when known */
	size_t build_id_len;
	bool tried;
	struct oc_lines *sub;	/* the chosen file's DWARF, no cache */
	char *why;		/* why it has no lines (NULL: it has, or unseen) */
	bool said;		/* why was handed out by oc_lines_take_module_note() */
};

/* Longest chain kept: the kernel's deepest inlining is ~15 levels. */
enum { LINES_MAX_CHAIN = 64, LINES_MAX_STRING = 4096 };
/* a cache holds a few thousand addresses, 8-10 KB (docs/lines.md) */
static const off_t max_cache_size = 64 << 20;

static double now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t hash_u64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;	/* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

/* --- strings ------------------------------------------------------------ */

static struct oc_error *str_grow(struct oc_lines *l)
{
	size_t cap = l->cap_strs ? 2 * l->cap_strs : 1024;
	char **n = calloc(cap, sizeof(*n));

	if (!n)
		return &oc_enomem;
	for (size_t i = 0; i < l->cap_strs; i++) {
		char *s = l->strs[i];
		size_t j;

		if (!s)
			continue;
		for (j = hash_str(s) & (cap - 1); n[j]; j = (j + 1) & (cap - 1))
			;
		n[j] = s;
	}
	free(l->strs);
	l->strs = n;
	l->cap_strs = cap;
	return NULL;
}

/* The interned copy of @s (NULL stays NULL). */
static struct oc_error *str_intern(struct oc_lines *l, const char *s,
				   const char **ret)
{
	struct oc_error *err;
	size_t j;

	*ret = NULL;
	if (!s)
		return NULL;
	if (2 * (l->nr_strs + 1) > l->cap_strs) {
		err = str_grow(l);
		if (err)
			return err;
	}
	for (j = hash_str(s) & (l->cap_strs - 1); l->strs[j];
	     j = (j + 1) & (l->cap_strs - 1))
		if (!strcmp(l->strs[j], s)) {
			*ret = l->strs[j];
			return NULL;
		}
	l->strs[j] = strdup(s);
	if (!l->strs[j])
		return &oc_enomem;
	l->nr_strs++;
	*ret = l->strs[j];
	return NULL;
}

/* --- records -------------------------------------------------------- */

static const struct lines_rec *rec_find(const struct oc_lines *l,
					uint64_t addr)
{
	if (!l->nr_slots)
		return NULL;
	for (size_t j = hash_u64(addr) & (l->nr_slots - 1); l->slots[j];
	     j = (j + 1) & (l->nr_slots - 1))
		if (l->recs[l->slots[j] - 1].addr == addr)
			return &l->recs[l->slots[j] - 1];
	return NULL;
}

static void slot_put(uint32_t *slots, size_t nr_slots, uint64_t addr,
		     uint32_t value)
{
	size_t j;

	for (j = hash_u64(addr) & (nr_slots - 1); slots[j];
	     j = (j + 1) & (nr_slots - 1))
		;
	slots[j] = value;
}

/* Add a record for @addr (not present yet) with @nr entries of @chain. */
static struct oc_error *rec_add(struct oc_lines *l, uint64_t addr,
				const struct oc_line_info *chain, size_t nr)
{
	struct oc_error *err;
	struct lines_rec *rec, *recs;
	struct oc_line_info *infos;

	if (l->nr_recs >= UINT32_MAX - 1 || nr > LINES_MAX_CHAIN)
		return oc_error_format(OC_ERR_INVALID, "line cache too big");
	if (2 * (l->nr_recs + 1) > l->nr_slots) {
		size_t n = l->nr_slots ? 2 * l->nr_slots : 1024;
		uint32_t *slots = calloc(n, sizeof(*slots));

		if (!slots)
			return &oc_enomem;
		for (size_t i = 0; i < l->nr_recs; i++)
			slot_put(slots, n, l->recs[i].addr, i + 1);
		free(l->slots);
		l->slots = slots;
		l->nr_slots = n;
	}
	recs = oc_array_grow(l->recs, l->nr_recs, 1, &l->cap_recs,
			     sizeof(*recs), 256);
	if (!recs)
		return &oc_enomem;
	l->recs = recs;
	infos = oc_array_grow(l->infos, l->nr_infos, nr, &l->cap_infos,
			      sizeof(*infos), 1024);
	if (!infos)
		return &oc_enomem;
	l->infos = infos;
	for (size_t i = 0; i < nr; i++) {
		struct oc_line_info *info = &l->infos[l->nr_infos + i];

		err = str_intern(l, chain[i].file, &info->file);
		if (!err)
			err = str_intern(l, chain[i].function, &info->function);
		if (err)
			return err;
		info->line = info->file ? chain[i].line : 0;
		info->inlined = chain[i].inlined;
	}
	rec = &l->recs[l->nr_recs++];
	rec->addr = addr;
	rec->first = l->nr_infos;
	rec->nr = nr;
	l->nr_infos += nr;
	slot_put(l->slots, l->nr_slots, addr, l->nr_recs);
	return NULL;
}

static void recs_clear(struct oc_lines *l)
{
	if (l->slots)
		memset(l->slots, 0, l->nr_slots * sizeof(*l->slots));
	l->nr_recs = 0;
	l->nr_infos = 0;
}

/* --- the cache file ---------------------------------------------------- */

/* Split @s at tabs into at most @max fields; returns how many. */
static size_t split_tabs(char *s, char **fields, size_t max)
{
	size_t n = 0;

	while (n < max) {
		fields[n++] = s;
		s = strchr(s, '\t');
		if (!s)
			break;
		*s++ = '\0';
	}
	return s ? max + 1 : n;
}

static bool parse_u64(const char *s, int base, uint64_t max, uint64_t *ret)
{
	char *end;
	unsigned long long v;

	if (!*s || *s == '-' || *s == ' ')
		return false;
	errno = 0;
	v = strtoull(s, &end, base);
	if (errno || *end || v > max)
		return false;
	*ret = v;
	return true;
}

/* A cache string as cache_print() writes them: no control character. */
static bool plain_field(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return false;
	return true;
}

/*
 * Load @fp's records.  false when the file does not parse (or names
 * another build-id); the records loaded so far are then dropped.  With
 * @merge (another run wrote the file since we read it), addresses we
 * already have are skipped and a bad record only ends the merge.
 */
static struct oc_error *cache_parse(struct oc_lines *l, FILE *fp, bool merge,
				    bool *ok)
{
	struct oc_error *err = NULL;
	char *buf = NULL, *nl;
	size_t cap = 0;
	ssize_t len;
	char want[160];

	*ok = false;
	snprintf(want, sizeof(want), "orccrash-lines 1 %s",
		 l->build_id_hex ? l->build_id_hex : "-");
	if ((len = getline(&buf, &cap, fp)) <= 0)
		goto out;
	if ((nl = strchr(buf, '\n')))
		*nl = '\0';
	if (strcmp(buf, want))
		goto out;
	while ((len = getline(&buf, &cap, fp)) > 0) {
		struct oc_line_info chain[LINES_MAX_CHAIN];
		char *sp, *fields[5];
		uint64_t addr, nr;

		if (buf[len - 1] != '\n')
			goto out;
		buf[len - 1] = '\0';
		sp = strchr(buf, ' ');
		if (!sp)
			goto out;
		*sp = '\0';
		if (!parse_u64(buf, 16, UINT64_MAX, &addr) ||
		    !parse_u64(sp + 1, 10, LINES_MAX_CHAIN, &nr))
			goto out;
		bool have = rec_find(l, addr) != NULL;

		if (have && !merge)
			goto out;
		/* the chain's strings are interned by rec_add() before buf
		 * is reused, so keep every line's copy until then */
		char *lines[LINES_MAX_CHAIN] = { 0 };
		bool good = true;

		for (uint64_t i = 0; i < nr && good; i++) {
			uint64_t line, inl;

			good = false;
			if ((len = getline(&buf, &cap, fp)) <= 1 ||
			    buf[len - 1] != '\n' || buf[0] != '\t' ||
			    len > LINES_MAX_STRING)
				break;
			buf[len - 1] = '\0';
			lines[i] = strdup(buf + 1);
			if (!lines[i]) {
				err = &oc_enomem;
				break;
			}
			if (split_tabs(lines[i], fields, 4) != 4 ||
			    !parse_u64(fields[0], 10, UINT32_MAX, &line) ||
			    !parse_u64(fields[1], 10, 1, &inl) ||
			    !plain_field(fields[2]) || !plain_field(fields[3]))
				break;
			chain[i].line = line;
			chain[i].inlined = inl;
			chain[i].function = *fields[2] ? fields[2] : NULL;
			chain[i].file = *fields[3] ? fields[3] : NULL;
			good = true;
		}
		if (good && !have)
			err = rec_add(l, addr, chain, nr);
		for (uint64_t i = 0; i < nr; i++)
			free(lines[i]);
		if (err || !good)
			goto out;
	}
	*ok = !ferror(fp);
out:
	free(buf);
	if (!*ok && !merge)
		recs_clear(l);
	return err;
}

static void put_field(FILE *fp, const char *s)
{
	/* the format's separators cannot appear inside a field */
	for (; s && *s; s++)
		fputc(*s == '\t' || *s == '\n' ? '?' : *s, fp);
}

/* The cache text of every record, to @fp. */
static void cache_print(const struct oc_lines *l, FILE *fp)
{
	fprintf(fp, "orccrash-lines 1 %s\n",
		l->build_id_hex ? l->build_id_hex : "-");
	for (size_t i = 0; i < l->nr_recs; i++) {
		const struct lines_rec *r = &l->recs[i];

		fprintf(fp, "%" PRIx64 " %" PRIu32 "\n", r->addr, r->nr);
		for (uint32_t k = 0; k < r->nr; k++) {
			const struct oc_line_info *info = &l->infos[r->first + k];

			fprintf(fp, "\t%u\t%d\t", info->line, info->inlined);
			put_field(fp, info->function);
			fputc('\t', fp);
			put_field(fp, info->file);
			fputc('\n', fp);
		}
	}
}

static bool print_cache(FILE *fp, void *arg)
{
	cache_print(arg, fp);
	return true;
}

static void cache_write(struct oc_lines *l)
{
	FILE *fp;
	bool ok;

	/* Another run on the same kernel may have written the file since we
	 * read it: keep its addresses too (a rename by a third run between
	 * this read and ours can still lose some; they are looked up again). */
	fp = oc_cache_open_read(l->cache_path, max_cache_size);
	if (fp) {
		oc_error_destroy(cache_parse(l, fp, true, &ok));
		fclose(fp);
	}
	oc_cache_write(l->cache_path, print_cache, l);
}

/* --- open, lookup, close ------------------------------------------------ */

static struct oc_error *lines_create(const char *vmlinux,
				     const char *cache_path,
				     const char *build_id_hex,
				     struct oc_lines **ret)
{
	struct oc_lines *l = calloc(1, sizeof(*l));
	struct oc_error *err = NULL;
	FILE *fp;

	*ret = NULL;	/* on every error: a caller may close what it got */
	if (!l)
		return &oc_enomem;
	l->vmlinux = strdup(vmlinux ? vmlinux : "");
	l->cache_path = cache_path ? strdup(cache_path) : NULL;
	l->build_id_hex = build_id_hex ? strdup(build_id_hex) : NULL;
	if (!l->vmlinux || (cache_path && !l->cache_path) ||
	    (build_id_hex && !l->build_id_hex)) {
		oc_lines_close(l);
		return &oc_enomem;
	}
	if (l->cache_path && (fp = oc_cache_open_read(l->cache_path, max_cache_size))) {
		bool ok;

		err = cache_parse(l, fp, false, &ok);
		fclose(fp);
		if (err) {
			oc_lines_close(l);
			return err;
		}
		/* a bad file is replaced at close */
		l->dirty = !ok;
		l->stats.cached = l->nr_recs;
	}
	*ret = l;
	return NULL;
}

struct oc_error *oc_lines_open_cache(const char *vmlinux,
				     const char *cache_path,
				     struct oc_lines **ret)
{
	return lines_create(vmlinux, cache_path, NULL, ret);
}

struct oc_error *oc_lines_open(const char *vmlinux, const uint8_t *build_id,
			       size_t len, struct oc_lines **ret)
{
	struct oc_error *err;
	char hex[2 * 64 + 1], *path;

	if (!build_id || !len || len > 64)
		return lines_create(vmlinux, NULL, NULL, ret);
	oc_hex_string(build_id, len, hex, sizeof(hex));
	path = oc_cache_path("lines", hex);
	err = lines_create(vmlinux, path, hex, ret);
	free(path);
	return err;
}

struct oc_error *oc_lines_add_debug_file(struct oc_lines *l, const char *path)
{
	char **n;

	if (l->nr_debug_files >= 16)
		return NULL;
	n = realloc(l->debug_files, (l->nr_debug_files + 1) * sizeof(*n));
	if (!n)
		return &oc_enomem;
	l->debug_files = n;
	if (!(n[l->nr_debug_files] = strdup(path)))
		return &oc_enomem;
	l->nr_debug_files++;
	return NULL;
}

/*
 * The vmlinux has no DWARF: the first debug file whose build-id is the
 * vmlinux's (a file of another build would give wrong lines).  Files
 * that do not exist are skipped quietly; *why_ret says what was wrong
 * with the others.
 */
static struct oc_dwarf *open_debug_file(struct oc_lines *l, char *why,
					size_t size)
{
	for (size_t i = 0; i < l->nr_debug_files; i++) {
		const char *path = l->debug_files[i];
		char have[129] = "none";
		struct oc_dwarf *d = NULL;
		struct oc_error *err;
		struct oc_elf *elf;
		const uint8_t *id;
		size_t len = 0;

		if (access(path, R_OK))
			continue;
		err = oc_elf_open(path, &elf);
		if (err) {
			oc_error_take(err, why, size);
			continue;
		}
		id = oc_elf_build_id(elf, &len);
		if (id && len)
			oc_hex_string(id, len, have, sizeof(have));
		oc_elf_close(elf);
		if (!l->build_id_hex || strcmp(have, l->build_id_hex)) {
			snprintf(why, size, "%s has build-id %s, the vmlinux %s",
				 path, have, l->build_id_hex ? l->build_id_hex : "none");
			continue;
		}
		err = oc_dwarf_open(path, &d);
		if (err) {
			oc_error_take(err, why, size);
			continue;
		}
		l->debug_used = strdup(path);
		return d;
	}
	return NULL;
}

static void lines_open_dwarf(struct oc_lines *l)
{
	struct oc_error *err;
	char buf[512], why[512] = "";
	double t0 = now_sec();

	l->dwarf_tried = true;
	err = oc_dwarf_open(l->vmlinux, &l->dwarf);
	if (err && err->code == OC_ERR_LOOKUP && l->nr_debug_files)
		l->dwarf = open_debug_file(l, why, sizeof(why));
	l->stats.dwarf_open_sec = now_sec() - t0;
	if (!err || l->dwarf) {
		oc_error_destroy(err);
		return;
	}
	oc_error_take(err, buf, sizeof(buf));
	l->dwarf = NULL;
	if (asprintf(&l->unavailable, "source lines unavailable: %s%s%s", buf,
		     why[0] ? "; " : "", why) < 0)
		l->unavailable = NULL;
}

const char *oc_lines_debug_file(const struct oc_lines *l)
{
	return l->debug_used;
}

static void copy_out(const struct oc_lines *l, const struct lines_rec *r,
		     struct oc_line_info *chain, size_t max, size_t *nr_ret)
{
	size_t n = r->nr < max ? r->nr : max;

	memcpy(chain, &l->infos[r->first], n * sizeof(*chain));
	*nr_ret = n;
}

struct oc_error *oc_lines_lookup(struct oc_lines *l, uint64_t link_addr,
				 struct oc_line_info *chain, size_t max,
				 size_t *nr_ret)
{
	struct oc_line_info tmp[LINES_MAX_CHAIN];
	const struct lines_rec *r;
	struct oc_error *err;
	size_t nr = 0;
	double t0;

	*nr_ret = 0;
	r = rec_find(l, link_addr);
	if (r) {
		l->stats.hits++;
		copy_out(l, r, chain, max, nr_ret);
		return NULL;
	}
	if (!l->dwarf_tried)
		lines_open_dwarf(l);
	if (!l->dwarf)
		return NULL;	/* not remembered: the DWARF may come back */
	l->stats.misses++;
	t0 = now_sec();
	err = oc_dwarf_lookup(l->dwarf, link_addr, tmp, LINES_MAX_CHAIN, &nr);
	l->stats.dwarf_lookup_sec += now_sec() - t0;
	if (err == &oc_enomem)
		return err;
	/* A malformed part of the DWARF gives no line for this address,
	 * remembered like any other answer. */
	oc_error_destroy(err);
	if (err)
		nr = 0;
	err = rec_add(l, link_addr, tmp, nr);
	if (err)
		return err;
	l->dirty = true;
	copy_out(l, &l->recs[l->nr_recs - 1], chain, max, nr_ret);
	return NULL;
}

const char *oc_lines_unavailable(const struct oc_lines *l)
{
	return l->unavailable;
}

void oc_lines_get_stats(const struct oc_lines *l, struct oc_lines_stats *ret)
{
	*ret = l->stats;
}

void oc_lines_close(struct oc_lines *l)
{
	if (!l)
		return;
	if (l->dirty && l->cache_path)
		cache_write(l);
	oc_dwarf_close(l->dwarf);
	for (size_t i = 0; i < l->nr_mods; i++) {
		oc_lines_close(l->mods[i].sub);
		free(l->mods[i].name);
		oc_strv_free(l->mods[i].paths, l->mods[i].nr_paths);
		free(l->mods[i].why);
	}
	free(l->mods);
	free(l->modules_dir);
	oc_strv_free(l->strs, l->cap_strs);
	free(l->slots);
	free(l->recs);
	free(l->infos);
	free(l->unavailable);
	oc_strv_free(l->debug_files, l->nr_debug_files);
	free(l->debug_used);
	free(l->build_id_hex);
	free(l->cache_path);
	free(l->vmlinux);
	free(l);
}

/* --- modules ------------------------------------------------------------- */

struct oc_error *oc_lines_set_modules_dir(struct oc_lines *l, const char *dir)
{
	char *copy = strdup(dir);

	if (!copy)
		return &oc_enomem;
	free(l->modules_dir);
	l->modules_dir = copy;
	l->modules_listed = false;
	return NULL;
}

static struct lines_module *module_get(struct oc_lines *l, const char *name,
				       bool create)
{
	struct lines_module *m;
	char norm[256];

	snprintf(norm, sizeof(norm), "%s", name);
	for (char *p = norm; *p; p++)
		if (*p == '-')
			*p = '_';
	for (size_t i = 0; i < l->nr_mods; i++)
		if (!strcmp(l->mods[i].name, norm))
			return &l->mods[i];
	if (!create)
		return NULL;
	m = oc_array_grow(l->mods, l->nr_mods, 1, &l->cap_mods, sizeof(*m), 16);
	if (!m)
		return NULL;
	l->mods = m;
	m = &l->mods[l->nr_mods];
	memset(m, 0, sizeof(*m));
	m->name = strdup(norm);
	if (!m->name)
		return NULL;
	l->nr_mods++;
	return m;
}

/* Add @path (taken) to @m's candidates. */
static struct oc_error *module_add_path(struct lines_module *m, char *path)
{
	char **n;

	if (m->nr_paths >= 64) {	/* a tree full of copies: enough */
		free(path);
		return NULL;
	}
	n = realloc(m->paths, (m->nr_paths + 1) * sizeof(*n));
	if (!n) {
		free(path);
		return &oc_enomem;
	}
	m->paths = n;
	m->paths[m->nr_paths++] = path;
	return NULL;
}

/*
 * Note every NAME.ko and NAME.ko.debug under @dir (depth-capped, in
 * readdir order): module names use '_' where file names may have '-'.
 * Which of a name's files is used is decided on its first frame
 * (module_open()), by build-id when the dump gives one.
 */
/*
 * The .ko files under the modules directory.  Bounded: 8 levels, at
 * most max_module_entries names in all, and no directory reached
 * through a symbolic link (/lib/modules/RELEASE/build and source point
 * into a source tree, and a link can point anywhere).  A linked .ko
 * file is taken if it is a regular file.
 */
static const size_t max_module_entries = 1u << 16;

static struct oc_error *modules_list(struct oc_lines *l, const char *dir,
				     int depth, size_t *entries)
{
	struct dirent *de;
	DIR *dp;

	if (depth > 8 || !(dp = opendir(dir)))
		return NULL;
	while ((de = readdir(dp))) {
		size_t n = strlen(de->d_name), suffix = 0;
		struct oc_error *err = NULL;
		char *path;
		struct stat st;

		if (de->d_name[0] == '.')
			continue;
		if (++*entries > max_module_entries)
			break;
		if (asprintf(&path, "%s/%s", dir, de->d_name) < 0) {
			closedir(dp);
			return &oc_enomem;
		}
		if (lstat(path, &st) != 0 ||
		    (S_ISLNK(st.st_mode) &&
		     (stat(path, &st) != 0 || S_ISDIR(st.st_mode)))) {
			free(path);	/* a link to a directory: not followed */
		} else if (S_ISDIR(st.st_mode)) {
			err = modules_list(l, path, depth + 1, entries);
			free(path);
		} else {
			if (n > 3 && !strcmp(de->d_name + n - 3, ".ko"))
				suffix = 3;
			else if (n > 9 && !strcmp(de->d_name + n - 9, ".ko.debug"))
				suffix = 9;
			if (suffix && S_ISREG(st.st_mode)) {
				struct lines_module *m;

				de->d_name[n - suffix] = '\0';
				m = module_get(l, de->d_name, true);
				err = m ? module_add_path(m, path) : &oc_enomem;
			} else {
				free(path);
			}
		}
		if (err) {
			closedir(dp);
			return err;
		}
	}
	closedir(dp);
	return NULL;
}

struct oc_error *oc_lines_set_module_build_id(struct oc_lines *l,
					      const char *module,
					      const uint8_t *id, size_t len)
{
	struct lines_module *m;

	if (!module || !id || !len || len > sizeof(m->build_id))
		return NULL;
	m = module_get(l, module, true);
	if (!m)
		return &oc_enomem;
	memcpy(m->build_id, id, len);
	m->build_id_len = len;
	return NULL;
}

/*
 * Choose @m's file and open its DWARF: the one whose build-id is the
 * dump's module's when the dump gave one (a .ko from another build would
 * give lines that look right and are not), else the first found.
 */
static struct oc_error *module_open(struct oc_lines *l, struct lines_module *m)
{
	char want[129], have[129] = "", *chosen = NULL, *other = NULL;
	struct oc_error *err;

	m->tried = true;
	if (!m->nr_paths) {
		if (asprintf(&m->why, "no %s.ko under %s", m->name,
			     l->modules_dir) < 0)
			m->why = NULL;
		return NULL;
	}
	if (!m->build_id_len) {
		chosen = m->paths[0];
	} else {
		oc_hex_string(m->build_id, m->build_id_len, want, sizeof(want));
		for (size_t i = 0; i < m->nr_paths && !chosen; i++) {
			struct oc_elf *elf;
			const uint8_t *id;
			size_t len = 0;

			err = oc_elf_open(m->paths[i], &elf);
			if (err == &oc_enomem)
				return err;
			if (err) {
				oc_error_destroy(err);
				continue;
			}
			id = oc_elf_build_id(elf, &len);
			if (id && len == m->build_id_len &&
			    !memcmp(id, m->build_id, len)) {
				chosen = m->paths[i];
			} else if (!other) {
				other = m->paths[i];
				if (id)
					oc_hex_string(id, len, have, sizeof(have));
				else
					snprintf(have, sizeof(have), "none");
			}
			oc_elf_close(elf);
		}
		if (!chosen) {
			if (asprintf(&m->why, "%s has build-id %s, the dump's %s has %s",
				     other ? other : m->paths[0], have, m->name,
				     want) < 0)
				m->why = NULL;
			return NULL;
		}
	}
	err = lines_create(chosen, NULL, NULL, &m->sub);
	if (err)
		return err;
	lines_open_dwarf(m->sub);
	if (m->sub->unavailable && !(m->why = strdup(m->sub->unavailable)))
		return &oc_enomem;
	return NULL;
}

/*
 * Module @module's lines, its .ko found under the modules dir and opened
 * on first use; NULL in *ret when there is none or it has no DWARF.
 */
static struct oc_error *module_lines(struct oc_lines *l, const char *module,
				     struct oc_lines **ret)
{
	struct lines_module *m;
	struct oc_error *err;

	*ret = NULL;
	if (!l->modules_dir || !module)
		return NULL;
	if (!l->modules_listed) {
		size_t entries = 0;

		l->modules_listed = true;
		err = modules_list(l, l->modules_dir, 0, &entries);
		if (err)
			return err;
	}
	m = module_get(l, module, false);
	if (!m)
		return NULL;
	if (!m->tried) {
		err = module_open(l, m);
		if (err)
			return err;
	}
	if (m->sub && m->sub->dwarf)
		*ret = m->sub;
	return NULL;
}

struct oc_error *oc_lines_lookup_module(struct oc_lines *l, const char *module,
					const char *symbol, uint64_t offset,
					bool exact, struct oc_line_info *chain,
					size_t max, size_t *nr_ret)
{
	struct oc_lines *sub;
	struct oc_error *err;
	uint64_t addr;

	*nr_ret = 0;
	if (!symbol)
		return NULL;
	err = module_lines(l, module, &sub);
	if (err || !sub)
		return err;
	addr = oc_dwarf_symbol_addr(sub->dwarf, symbol);
	if (!addr)
		return NULL;
	addr += offset;
	if (!exact)
		addr--;
	err = oc_lines_lookup(sub, addr, chain, max, nr_ret);
	if (err)
		return err;
	/* the strings must outlive the module's struct: intern them here */
	for (size_t i = 0; i < *nr_ret; i++) {
		err = str_intern(l, chain[i].file, &chain[i].file);
		if (!err)
			err = str_intern(l, chain[i].function, &chain[i].function);
		if (err)
			return err;
	}
	return NULL;
}

struct oc_dwarf *oc_lines_dwarf(struct oc_lines *l)
{
	if (!l->dwarf_tried)
		lines_open_dwarf(l);
	return l->dwarf;
}

struct oc_error *oc_lines_module_dwarf(struct oc_lines *l, const char *module,
				       struct oc_dwarf **ret)
{
	struct oc_lines *sub;
	struct oc_error *err = module_lines(l, module, &sub);

	*ret = sub ? sub->dwarf : NULL;
	return err;
}

const char *oc_lines_module_unavailable(const struct oc_lines *l,
					const char *module)
{
	for (size_t i = 0; i < l->nr_mods; i++)
		if (!strcmp(l->mods[i].name, module))
			return l->mods[i].why;
	return NULL;
}

const char *oc_lines_take_module_note(struct oc_lines *l,
				      const char **module_ret)
{
	for (size_t i = 0; i < l->nr_mods; i++) {
		struct lines_module *m = &l->mods[i];

		if (m->tried && m->why && !m->said) {
			m->said = true;
			*module_ret = m->name;
			return m->why;
		}
	}
	return NULL;
}

/* --- helpers for front ends ------------------------------------------ */

uint64_t oc_lines_addr(uint64_t ip, bool exact, uint64_t kaslr_offset)
{
	/* A return address is the instruction after the call, which may
	 * belong to the next line or even the next function (a noreturn
	 * call at a function's end); the kernel's %pB does the same - 1. */
	return ip - kaslr_offset - (exact ? 0 : 1);
}

uint64_t oc_lines_frame_addr(const struct oc_frame *frame,
			     uint64_t kaslr_offset)
{
	return oc_lines_addr(frame->ip, frame->exact, kaslr_offset);
}

const char *oc_lines_short_file(const char *file)
{
	/* top-level directories of the kernel tree ("usr" left out: it
	 * would match /usr/src/...) */
#define TOP(s) { s, sizeof(s) - 1 }
	static const struct { const char *name; size_t len; } tops[] = {
		TOP("arch"), TOP("block"), TOP("certs"), TOP("crypto"),
		TOP("drivers"), TOP("fs"), TOP("include"), TOP("init"),
		TOP("io_uring"), TOP("ipc"), TOP("kernel"), TOP("lib"),
		TOP("mm"), TOP("net"), TOP("rust"), TOP("samples"),
		TOP("security"), TOP("sound"), TOP("virt"),
	};
#undef TOP
	const char *p;

	if (!file)
		return NULL;
	for (p = file; p && *p; p = strchr(p, '/'), p = p ? p + 1 : NULL) {
		size_t n = strcspn(p, "/");

		if (!p[n])
			break;	/* the file name itself */
		for (size_t i = 0; i < sizeof(tops) / sizeof(tops[0]); i++)
			if (tops[i].len == n && !memcmp(p, tops[i].name, n))
				return p;
	}
	return file;
}
