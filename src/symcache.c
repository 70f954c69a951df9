// SPDX-License-Identifier: GPL-2.0-or-later
/* The per-build cache of the vmlinux's symbol tables (see symcache.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cachefile.h"
#include "strutil.h"
#include "symcache.h"

/* the file's own layout: a change of it or of struct oc_symbol is a
 * new magic (the symbol size is checked too, formats/symtab.c) */
static const char magic[8] = "OCSYMS1";
/* a vmlinux's two tables: ~5 MB */
static const off_t max_file = 64 << 20;

struct head {
	char magic[8];
	uint32_t keep, build_id_len;
	uint8_t build_id[64];
	uint64_t size, mtime_sec, mtime_nsec, ino, dev;
};

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
		      struct oc_symtab *syms, struct oc_symtab *percpu)
{
	struct head want, got;
	struct oc_error *err;
	char *path;
	FILE *fp;
	bool ok = false;

	if (!make_head(elf, keep, &want, &path))
		return false;
	fp = oc_cache_open_read(path, max_file);
	free(path);
	if (!fp)
		return false;
	if (fread(&got, sizeof(got), 1, fp) == 1 && !memcmp(&got, &want, sizeof(got))) {
		err = oc_symtab_read(syms, fp);
		/* the percpu table follows the first: its read ends at EOF */
		if (!err)
			err = oc_symtab_read(percpu, fp);
		ok = !err && fgetc(fp) == EOF;
		oc_error_destroy(err);
	}
	fclose(fp);
	if (!ok) {
		oc_symtab_deinit(syms);
		oc_symtab_deinit(percpu);
	}
	return ok;
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
