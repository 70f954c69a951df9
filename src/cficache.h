/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The index of the vmlinux's .debug_frame (formats/dwarfcfi.h), kept per
 * build in the user's cache (~/.cache/orccrash/cfi/BUILD-ID-1).  Every
 * kdump's panic CPU needs one CFI row: its registers were saved in
 * __crash_kexec(), which objtool leaves without ORC
 * (STACK_FRAME_NON_STANDARD); listing the section's 46,000 FDEs for it
 * was a tenth of a report of a small dump, and reads 2.5 MB of the
 * vmlinux.  A cache file names the vmlinux it was made from
 * (src/cachefile.h's head) and the section's size; it is mapped
 * read-only and the index borrows its entries (oc_cfi_view()); the FDEs
 * themselves are still read from the section, bounds-checked.
 */
#ifndef OC_CFICACHE_H
#define OC_CFICACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cachefile.h"
#include "dwarfcfi.h"
#include "elffile.h"

/* The index of @elf's .debug_frame @sec (@size bytes), from the cache,
 * over its file mapped in @map (unmapped with oc_cache_unmap() once
 * *@ret is destroyed): false (*@ret NULL, nothing mapped) on a miss or
 * a file that does not read back. */
bool oc_cficache_load(struct oc_elf *elf, const uint8_t *sec, size_t size,
		      struct oc_cfi **ret, struct oc_cache_map *map);
/* Keep @cfi's index (made now if it was not), made from @elf's
 * .debug_frame; quietly nothing when the cache cannot be written. */
void oc_cficache_save(struct oc_elf *elf, struct oc_cfi *cfi);

#endif /* OC_CFICACHE_H */
