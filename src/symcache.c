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
	struct oc_error *err;
	size_t used = 0, used2 = 0, len;
	const uint8_t *b;
	bool ok;

	if (!oc_cache_map_made_of(elf, "syms", file_suffix, magic, keep,
				  max_file, map, &b, &len))
		return false;
	/* the tables after the head, the percpu table ending the file */
	err = oc_symtab_view(syms, b, len, &used);
	if (!err)
		err = oc_symtab_view(percpu, b + used, len - used, &used2);
	ok = !err && used + used2 == len;
	oc_error_destroy(err);
	if (ok)
		return true;
	oc_symtab_deinit(syms);
	oc_symtab_deinit(percpu);
	oc_cache_unmap(map);
	return false;
}

struct tables {
	const struct oc_symtab *syms, *percpu;
};

static bool write_tables(FILE *fp, void *arg)
{
	const struct tables *t = arg;
	struct oc_error *err = oc_symtab_write(t->syms, fp);

	if (!err)
		err = oc_symtab_write(t->percpu, fp);
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
	struct tables t = { .syms = syms, .percpu = percpu };

	oc_cache_write_made_of(elf, "syms", file_suffix, magic, keep,
			       write_tables, &t);
}
