// SPDX-License-Identifier: GPL-2.0-or-later
/* The per-build cache of the vmlinux's CFI index (see cficache.h). */
#include "cficache.h"

/* the file's layout: a change of it, or of formats/dwarfcfi.c's entries,
 * is a new magic and a new suffix (a file per layout) */
static const char magic[8] = "OCCFI1";
static const char file_suffix[] = "1";
/* a vmlinux's ~46,000 FDEs: ~0.55 MB (twice that when wide) */
static const off_t max_file = 64 << 20;

/* the entries after it are viewed where they are (8-byte aligned) */
_Static_assert(sizeof(struct oc_cache_head) % 8 == 0, "CFI cache head");

bool oc_cficache_load(struct oc_elf *elf, const uint8_t *sec, size_t size,
		      struct oc_cfi **ret, struct oc_cache_map *map)
{
	const uint8_t *b;
	size_t len;

	*ret = NULL;
	if (!oc_cache_map_made_of(elf, "cfi", file_suffix, magic, 0, max_file,
				  map, &b, &len))
		return false;
	if (oc_ok(oc_cfi_view(sec, size, b, len, ret)))
		return true;
	oc_cache_unmap(map);
	return false;
}

static bool write_index(FILE *fp, void *arg)
{
	return oc_ok(oc_cfi_write_index(arg, fp));
}

void oc_cficache_save(struct oc_elf *elf, struct oc_cfi *cfi)
{
	oc_cache_write_made_of(elf, "cfi", file_suffix, magic, 0, write_index,
			       cfi);
}
