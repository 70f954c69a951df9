// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Source lines with a per-build-id cache (see lines.h).
 *
 * The cache is a file per build-id of every address looked up and its
 * chain (innermost first); a chain of none means the DWARF has nothing
 * for the address (remembered too, so it is not searched again).  It is
 * mapped read-only and searched where it lies (struct lines_head, below,
 * draws its layout); what a run adds is kept in memory, and at close the
 * file is written anew (temporary + rename) with both.  A file of another
 * layout or build-id, cut short or out of order, is ignored and replaced;
 * a record that does not check out (a chain out of the file, a string
 * with a control character) is a miss, and is left out of the next file.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
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

/* The cache file as read, mapped (see file_map()). */
struct lines_file {
	struct oc_cache_map map;
	const struct lines_rec *recs;
	size_t nr_recs;
	const struct lines_entry *entries;
	size_t nr_entries;
	const char *strs;
	size_t strs_len;
};

struct oc_lines {
	char *vmlinux;
	char *cache_path;	/* NULL: no cache */
	char *build_id_hex;	/* NULL with oc_lines_open_cache() */
	uint8_t build_id[64];
	size_t build_id_len;
	struct lines_file file;
	bool dirty;

	/* what this run added (and, before a write, the file's records):
	 * open addressing over recs, keyed by addr; slots hold index + 1 */
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

/* The slot of @s in the strings' table: where it is, or the free one
 * where it goes (the table is never full: str_intern() grows it). */
static size_t str_slot(const struct oc_lines *l, const char *s)
{
	size_t j;

	for (j = hash_str(s) & (l->cap_strs - 1); l->strs[j];
	     j = (j + 1) & (l->cap_strs - 1))
		if (!strcmp(l->strs[j], s))
			break;
	return j;
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
	j = str_slot(l, s);
	if (l->strs[j]) {
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

/* --- the cache file ---------------------------------------------------- */

/*
 * The file (native byte order, like the symbol cache): the head, the
 * records sorted by address (struct lines_rec, first counting entries
 * from 0), every chain's entries (struct lines_entry) and the strings,
 * each ending in '\0'.  A run maps it and looks addresses up where they
 * are: a report needs a few dozen of its thousands of records.
 */
struct lines_head {
	char magic[8];
	uint32_t build_id_len;	/* 0: a cache of oc_lines_open_cache() */
	uint8_t build_id[64];
	uint32_t pad;
	/* what follows; not part of what names the file */
	uint32_t nr_recs, nr_entries, strs_len, pad2;
};
/* an entry of a chain: its strings as offsets in the string table */
struct lines_entry {
	uint32_t line, inlined, function, file;
};
enum { LINES_NO_STR = UINT32_MAX };
/* a change of the layout is a new magic (and a new file name, below) */
static const char lines_magic[8] = "OCLINES2";
#define LINES_HEAD_ID_LEN offsetof(struct lines_head, nr_recs)
_Static_assert(sizeof(struct lines_head) % 8 == 0 &&
	       sizeof(struct lines_rec) == 16 &&
	       sizeof(struct lines_entry) == 16, "lines cache layout");

static void head_of(const struct oc_lines *l, struct lines_head *h)
{
	memset(h, 0, sizeof(*h));
	memcpy(h->magic, lines_magic, sizeof(h->magic));
	h->build_id_len = l->build_id_len;
	memcpy(h->build_id, l->build_id, l->build_id_len);
}

static void file_unmap(struct lines_file *f)
{
	oc_cache_unmap(&f->map);
	memset(f, 0, sizeof(*f));
}

/* Map @path into @f.  false (nothing mapped) when there is no file the
 * cache rules accept; *@bad when there is a file, but not of this
 * layout and build-id, cut short, or out of order. */
static bool file_map(const struct oc_lines *l, const char *path,
		     struct lines_file *f, bool *bad)
{
	const struct lines_head *h;
	struct lines_head want;
	const uint8_t *p;

	memset(f, 0, sizeof(*f));
	*bad = false;
	if (!oc_cache_map_read(path, max_cache_size, &f->map))
		return false;
	head_of(l, &want);
	h = f->map.base;
	p = (const uint8_t *)f->map.base + sizeof(*h);
	if (f->map.len < sizeof(*h) || memcmp(h, &want, LINES_HEAD_ID_LEN) ||
	    f->map.len != sizeof(*h) + (size_t)h->nr_recs * sizeof(*f->recs) +
			  (size_t)h->nr_entries * sizeof(*f->entries) +
			  h->strs_len ||
	    (h->strs_len && p[f->map.len - sizeof(*h) - 1] != '\0'))
		goto bad;
	f->recs = (const struct lines_rec *)p;
	f->nr_recs = h->nr_recs;
	f->entries = (const struct lines_entry *)(f->recs + f->nr_recs);
	f->nr_entries = h->nr_entries;
	f->strs = (const char *)(f->entries + f->nr_entries);
	f->strs_len = h->strs_len;
	/* each address once, in order: the search finds the one record a
	 * rewrite keeps (16 bytes a record, a few thousand of them) */
	for (size_t i = 1; i < f->nr_recs; i++)
		if (f->recs[i - 1].addr >= f->recs[i].addr)
			goto bad;
	return true;
bad:
	file_unmap(f);
	*bad = true;
	return false;
}

/* @addr's record in @f (NULL: none). */
static const struct lines_rec *file_find(const struct lines_file *f,
					 uint64_t addr)
{
	size_t lo = 0, hi = f->nr_recs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->recs[mid].addr == addr)
			return &f->recs[mid];
		if (f->recs[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* A cache string as the writer writes them: no control character. */
static bool plain_field(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return false;
	return true;
}

/* A string of @f at @off: false when it is out of the table, too long or
 * holds a control character (not what the writer writes). */
static bool file_str(const struct lines_file *f, uint32_t off,
		     const char **ret)
{
	const char *s;

	*ret = NULL;
	if (off == LINES_NO_STR)
		return true;
	if (off >= f->strs_len)
		return false;
	s = f->strs + off;	/* the table ends in '\0' (file_map()) */
	if (strnlen(s, LINES_MAX_STRING) >= LINES_MAX_STRING || !plain_field(s))
		return false;
	*ret = s;
	return true;
}

/* @r's chain as the writer wrote it, its strings in @f's mapping; false
 * (a bad record: treated as absent) when it is not. */
static bool file_chain(const struct lines_file *f, const struct lines_rec *r,
		       struct oc_line_info chain[LINES_MAX_CHAIN])
{
	if (r->nr > LINES_MAX_CHAIN || r->first > f->nr_entries ||
	    r->nr > f->nr_entries - r->first)
		return false;
	for (uint32_t i = 0; i < r->nr; i++) {
		const struct lines_entry *e = &f->entries[r->first + i];

		if (e->inlined > 1 ||
		    !file_str(f, e->function, &chain[i].function) ||
		    !file_str(f, e->file, &chain[i].file))
			return false;
		chain[i].line = chain[i].file ? e->line : 0;
		chain[i].inlined = e->inlined;
	}
	return true;
}

/* @f's good records that @l lacks, added to @l (before a write). */
static struct oc_error *file_merge(struct oc_lines *l,
				   const struct lines_file *f)
{
	struct oc_line_info chain[LINES_MAX_CHAIN];
	struct oc_error *err;

	for (size_t i = 0; i < f->nr_recs; i++) {
		const struct lines_rec *r = &f->recs[i];

		if (rec_find(l, r->addr) || !file_chain(f, r, chain))
			continue;
		err = rec_add(l, r->addr, chain, r->nr);
		if (err)
			return err;
	}
	return NULL;
}

static int rec_cmp(const void *a, const void *b)
{
	const struct lines_rec *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* An interned string's offset in the file's table (str_offs by slot). */
static uint32_t str_offset(const struct oc_lines *l, const uint32_t *str_offs,
			   const char *s)
{
	return s ? str_offs[str_slot(l, s)] : LINES_NO_STR;
}

/* The file of every record of @arg (an oc_lines), to @fp. */
static bool write_cache(FILE *fp, void *arg)
{
	const struct oc_lines *l = arg;
	struct lines_rec *sorted = NULL;
	uint32_t *str_offs = NULL;
	struct lines_head h;
	uint64_t off = 0;
	uint32_t first = 0;
	bool ok = false;

	head_of(l, &h);
	h.nr_recs = l->nr_recs;
	h.nr_entries = l->nr_infos;
	str_offs = calloc(l->cap_strs ? l->cap_strs : 1, sizeof(*str_offs));
	sorted = malloc((l->nr_recs ? l->nr_recs : 1) * sizeof(*sorted));
	if (!str_offs || !sorted)
		goto out;
	for (size_t j = 0; j < l->cap_strs; j++) {
		if (!l->strs[j])
			continue;
		str_offs[j] = off;
		off += strlen(l->strs[j]) + 1;
		if (off > (uint64_t)max_cache_size)
			goto out;
	}
	h.strs_len = off;
	if (l->nr_recs) {
		memcpy(sorted, l->recs, l->nr_recs * sizeof(*sorted));
		qsort(sorted, l->nr_recs, sizeof(*sorted), rec_cmp);
	}
	if (fwrite(&h, sizeof(h), 1, fp) != 1)
		goto out;
	for (size_t i = 0; i < l->nr_recs; i++) {
		struct lines_rec r = { sorted[i].addr, first, sorted[i].nr };

		fwrite(&r, sizeof(r), 1, fp);
		first += r.nr;
	}
	for (size_t i = 0; i < l->nr_recs; i++)
		for (uint32_t k = 0; k < sorted[i].nr; k++) {
			const struct oc_line_info *info =
				&l->infos[sorted[i].first + k];
			struct lines_entry e = {
				.line = info->line,
				.inlined = info->inlined,
				.function = str_offset(l, str_offs, info->function),
				.file = str_offset(l, str_offs, info->file),
			};

			fwrite(&e, sizeof(e), 1, fp);
		}
	for (size_t j = 0; j < l->cap_strs; j++)
		if (l->strs[j])
			fwrite(l->strs[j], strlen(l->strs[j]) + 1, 1, fp);
	ok = !ferror(fp);
out:
	free(sorted);
	free(str_offs);
	return ok;
}

static void cache_write(struct oc_lines *l)
{
	struct lines_file now;
	struct oc_error *err;
	bool bad;

	/* The records of the file we read, and of the file there is now:
	 * another run on the same kernel may have written it since (a
	 * rename by a third run between this read and ours can still lose
	 * some; they are looked up again). */
	err = file_merge(l, &l->file);
	if (!err && file_map(l, l->cache_path, &now, &bad)) {
		err = file_merge(l, &now);
		file_unmap(&now);
	}
	if (err) {
		oc_error_destroy(err);
		return;
	}
	oc_cache_write(l->cache_path, write_cache, l);
}

/* --- open, lookup, close ------------------------------------------------ */

static struct oc_error *lines_create(const char *vmlinux,
				     const char *cache_path,
				     const uint8_t *build_id, size_t build_id_len,
				     struct oc_lines **ret)
{
	struct oc_lines *l = calloc(1, sizeof(*l));
	char hex[2 * 64 + 1];
	bool bad;

	*ret = NULL;	/* on every error: a caller may close what it got */
	if (!l)
		return &oc_enomem;
	if (build_id_len) {
		l->build_id_len = build_id_len;
		memcpy(l->build_id, build_id, build_id_len);
		oc_hex_string(build_id, build_id_len, hex, sizeof(hex));
	}
	l->vmlinux = strdup(vmlinux ? vmlinux : "");
	l->cache_path = cache_path ? strdup(cache_path) : NULL;
	l->build_id_hex = build_id_len ? strdup(hex) : NULL;
	if (!l->vmlinux || (cache_path && !l->cache_path) ||
	    (build_id_len && !l->build_id_hex)) {
		oc_lines_close(l);
		return &oc_enomem;
	}
	if (l->cache_path) {
		file_map(l, l->cache_path, &l->file, &bad);
		/* a bad file is replaced at close */
		l->dirty = bad;
		l->stats.cached = l->file.nr_recs;
	}
	*ret = l;
	return NULL;
}

struct oc_error *oc_lines_open_cache(const char *vmlinux,
				     const char *cache_path,
				     struct oc_lines **ret)
{
	return lines_create(vmlinux, cache_path, NULL, 0, ret);
}

struct oc_error *oc_lines_open(const char *vmlinux, const uint8_t *build_id,
			       size_t len, struct oc_lines **ret)
{
	struct oc_error *err;
	char hex[2 * 64 + 3], *path;

	if (!build_id || !len || len > 64)
		return lines_create(vmlinux, NULL, NULL, 0, ret);
	oc_hex_string(build_id, len, hex, sizeof(hex));
	/* -2: the binary layout; an older build keeps its text file */
	path = oc_cache_path("lines", strcat(hex, "-2"));
	err = lines_create(vmlinux, path, build_id, len, ret);
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
	r = file_find(&l->file, link_addr);
	if (r) {
		/* checked once, then kept with this run's records: a report
		 * of many tasks looks the same few hundred addresses up */
		if (file_chain(&l->file, r, tmp)) {
			err = rec_add(l, link_addr, tmp, r->nr);
			if (err)
				return err;
			l->stats.hits++;
			copy_out(l, &l->recs[l->nr_recs - 1], chain, max, nr_ret);
			return NULL;
		}
		l->dirty = true;	/* a bad record: the file is written anew */
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
	file_unmap(&l->file);
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
	err = lines_create(chosen, NULL, NULL, 0, &m->sub);
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
