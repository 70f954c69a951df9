// SPDX-License-Identifier: GPL-2.0-or-later
/* The per-build cache of the vmlinux's symbol tables (see symcache.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "cachefile.h"
#include "strutil.h"
#include "symcache.h"

/* the file's own layout: a change of it or of struct oc_symbol is a
 * new magic (the symbol size is checked too, formats/symtab.c) */
static const char magic[8] = "OCSYMS2";	/* 2: names padded to 8 bytes */
/* a vmlinux's two tables: ~5 MB */
static const off_t max_file = 64 << 20;

struct head {
	char magic[8];
	uint32_t keep, build_id_len;
	uint8_t build_id[64];
	uint64_t size, mtime_sec, mtime_nsec, ino, dev;
};
/* the tables after it are viewed where they are (8-byte aligned) */
_Static_assert(sizeof(struct head) % 8 == 0, "symbol cache head");

/* What names @elf's file as it is now; false without a build-id. */
static bool make_head(struct oc_elf *elf, unsigned int keep, struct head *h,
		      char **path_ret)
{
	size_t len;
	const uint8_t *id = oc_elf_build_id(elf, &len);
	char hex[2 * 64 + 1];
	struct stat st;

	*path_ret = NULL;
	if (!id || !len || len > sizeof(h->build_id) ||
	    stat(oc_elf_path(elf), &st))
		return false;
	memset(h, 0, sizeof(*h));
	memcpy(h->magic, magic, sizeof(magic));
	h->keep = keep;
	h->build_id_len = (uint32_t)len;
	memcpy(h->build_id, id, len);
	h->size = (uint64_t)st.st_size;
	h->mtime_sec = (uint64_t)st.st_mtim.tv_sec;
	h->mtime_nsec = (uint64_t)st.st_mtim.tv_nsec;
	h->ino = (uint64_t)st.st_ino;
	h->dev = (uint64_t)st.st_dev;
	oc_hex_string(id, len, hex, sizeof(hex));
	*path_ret = oc_cache_path("syms", hex);
	return *path_ret != NULL;
}

bool oc_symcache_load(struct oc_elf *elf, unsigned int keep,
		      struct oc_symtab *syms, struct oc_symtab *percpu,
		      struct oc_symcache *map)
{
	struct head want;
	struct oc_error *err = NULL;
	size_t len = 0, used = 0, used2 = 0;
	const uint8_t *b;
	char *path;
	bool ok = false;

	memset(map, 0, sizeof(*map));
	if (!make_head(elf, keep, &want, &path))
		return false;
	b = oc_cache_map_read(path, max_file, &len);
	free(path);
	if (!b)
		return false;
	/* the head (8-byte aligned in size), the tables, and the percpu
	 * table ending the file */
	if (len >= sizeof(want) && !memcmp(b, &want, sizeof(want))) {
		err = oc_symtab_view(syms, b + sizeof(want), len - sizeof(want), &used);
		if (!err)
			err = oc_symtab_view(percpu, b + sizeof(want) + used,
					     len - sizeof(want) - used, &used2);
		ok = !err && sizeof(want) + used + used2 == len;
		oc_error_destroy(err);
	}
	if (!ok) {
		oc_symtab_deinit(syms);
		oc_symtab_deinit(percpu);
		munmap((void *)(uintptr_t)b, len);
		return false;
	}
	map->base = (void *)(uintptr_t)b;
	map->len = len;
	return true;
}

void oc_symcache_unmap(struct oc_symcache *map)
{
	if (map->base)
		munmap(map->base, map->len);
	memset(map, 0, sizeof(*map));
}

struct save {
	const struct head *h;
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
	struct head h;
	struct save s = { .h = &h, .syms = syms, .percpu = percpu };
	char *path;

	if (!make_head(elf, keep, &h, &path))
		return;
	oc_cache_write(path, write_tables, &s);
	free(path);
}
