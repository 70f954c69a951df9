// SPDX-License-Identifier: GPL-2.0-or-later
/* The per-build types memo of the vmlinux's BTF (see typecache.h). */
#include <stdlib.h>
#include <string.h>

#include "btf.h"
#include "cachefile.h"
#include "elfnote.h"
#include "strutil.h"
#include "typecache.h"

static const char magic[8] = "OCTYPES";
/* formats/typememo.c's limits (4096 answers of at most ~2 KB) fit */
static const off_t max_file = 16 << 20;

struct head {
	struct oc_cache_head vmlinux;
	uint32_t prog_id_len, lib_id_len;
	uint8_t prog_id[64], lib_id[64];
	uint64_t btf_size;
};

struct oc_typecache {
	struct head h;		/* made once, at the open */
	char *path;
};

struct oc_typecache *oc_typecache_open(struct oc_elf *elf, uint64_t btf_size)
{
	struct oc_typecache *tc = calloc(1, sizeof(*tc));
	char prog[2 * 8 + 1];

	if (!tc)
		return NULL;
	if (!oc_elfnote_loaded_build_id((const void *)(uintptr_t)oc_typecache_open,
					tc->h.prog_id, &tc->h.prog_id_len) ||
	    !oc_elfnote_loaded_build_id(oc_btf_library_address(), tc->h.lib_id,
					&tc->h.lib_id_len))
		goto none;
	tc->h.btf_size = btf_size;
	/* a file per orccrash build (the program and the crash extension
	 * are two), named by the first 8 bytes of its build-id */
	oc_hex_string(tc->h.prog_id, tc->h.prog_id_len < 8 ? tc->h.prog_id_len : 8,
		      prog, sizeof(prog));
	if (!oc_cache_head_of(elf, "types", prog, magic, 0, &tc->h.vmlinux, &tc->path))
		goto none;
	return tc;
none:
	free(tc->path);
	free(tc);
	return NULL;
}

bool oc_typecache_load(const struct oc_typecache *tc, oc_types_load_fn load,
		       void *arg, struct oc_types **ret)
{
	struct oc_cache_map map;
	bool ok;

	if (!tc || !oc_cache_map_with_head(tc->path, max_file, &tc->h,
					   sizeof(tc->h), &map))
		return false;
	ok = oc_ok(oc_types_memo_create(NULL, load, arg,
					(const uint8_t *)map.base + sizeof(tc->h),
					map.len - sizeof(tc->h), ret));
	oc_cache_unmap(&map);
	return ok;
}

struct save {
	const struct head *h;
	const struct oc_types *types;
};

static bool write_memo(FILE *fp, void *arg)
{
	const struct save *s = arg;

	return fwrite(s->h, sizeof(*s->h), 1, fp) == 1 &&
	       oc_ok(oc_types_memo_write(s->types, fp));
}

void oc_typecache_close(struct oc_typecache *tc, const struct oc_types *types)
{
	struct save s;

	if (!tc)
		return;
	s = (struct save){ .h = &tc->h, .types = types };
	if (oc_types_memo_changed(types))
		oc_cache_write(tc->path, write_memo, &s);
	free(tc->path);
	free(tc);
}
