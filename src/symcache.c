// SPDX-License-Identifier: GPL-2.0-or-later
/* The per-build cache of the vmlinux's symbol tables (see symcache.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cachefile.h"
#include "strutil.h"
#include "symcache.h"

/* the file's own layout: a change of it or of struct oc_symbol is a
 * new magic (the symbol size is checked too, formats/symtab.c) */
static const char magic[8] = "OCSYMS2";	/* 2: names padded to 8 bytes */
/* a file per layout: builds of another layout (the crash extension of an
 * older install) keep theirs instead of replacing it at each run */
static const char file_suffix[] = "2";
/* a vmlinux's two tables: ~5 MB */
static const off_t max_file = 64 << 20;

/* the tables after it are viewed where they are (8-byte aligned) */
_Static_assert(sizeof(struct oc_cache_head) % 8 == 0, "symbol cache head");

bool oc_symcache_load(struct oc_elf *elf, unsigned int keep,
		      struct oc_symtab *syms, struct oc_symtab *percpu,
		      struct oc_cache_map *map)
{
	struct oc_cache_head want;
	struct oc_error *err = NULL;
	size_t used = 0, used2 = 0;
	const uint8_t *b;
	char *path;
	bool ok = false;

	memset(map, 0, sizeof(*map));
	if (!oc_cache_head_of(elf, "syms", file_suffix, magic, keep, &want, &path))
		return false;
	ok = oc_cache_map_read(path, max_file, map);
	free(path);
	if (!ok)
		return false;
	b = map->base;
	/* the head (8-byte aligned in size), the tables, and the percpu
	 * table ending the file */
	ok = false;
	if (map->len >= sizeof(want) && !memcmp(b, &want, sizeof(want))) {
		size_t left = map->len - sizeof(want);

		err = oc_symtab_view(syms, b + sizeof(want), left, &used);
		if (!err)
			err = oc_symtab_view(percpu, b + sizeof(want) + used,
					     left - used, &used2);
		ok = !err && used + used2 == left;
		oc_error_destroy(err);
	}
	if (!ok) {
		oc_symtab_deinit(syms);
		oc_symtab_deinit(percpu);
		oc_cache_unmap(map);
	}
	return ok;
}

struct save {
	const struct oc_cache_head *h;
	const struct oc_symtab *syms, *percpu;
};

static bool write_tables(FILE *fp, void *arg)
{
	const struct save *s = arg;
	struct oc_error *err;

	if (fwrite(s->h, sizeof(*s->h), 1, fp) != 1)
		return false;
	err = oc_symtab_write(s->syms, fp);
	if (!err)
		err = oc_symtab_write(s->percpu, fp);
	if (err) {
		oc_error_destroy(err);
		return false;
	}
	return true;
}

void oc_symcache_save(struct oc_elf *elf, unsigned int keep,
		      const struct oc_symtab *syms,
		      const struct oc_symtab *percpu)
{
	struct oc_cache_head h;
	struct save s = { .h = &h, .syms = syms, .percpu = percpu };
	char *path;

	if (!oc_cache_head_of(elf, "syms", file_suffix, magic, keep, &h, &path))
		return;
	oc_cache_write(path, write_tables, &s);
	free(path);
}
