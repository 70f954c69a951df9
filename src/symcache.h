/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The vmlinux's symbol tables, finished (sorted, sized, the name index
 * built), kept per build in the user's cache (~/.cache/orccrash/syms/
 * BUILD-ID): reading a vmlinux's ~150,000 ELF symbols and sorting them is
 * a third of a sample report's instructions, loading them back a few
 * reads.  A cache file names the vmlinux it was made from (its build-id,
 * size, modification time, inode and device) and the symbols kept
 * (formats/elffile.h OC_ELF_KEEP_*): another file, or the same one
 * changed, is a miss, and the tables are read from the ELF again and the
 * file replaced.  Tables are kept unrelocated (KASLR differs per dump).
 * A loaded cache is the file mapped read-only, the tables borrowing its
 * bytes (oc_symtab_view()) and relocated by their bias: ~7 MB that a
 * copy would take of fresh memory stay the page cache's.
 */
#ifndef OC_SYMCACHE_H
#define OC_SYMCACHE_H

#include <stdbool.h>
#include <stddef.h>

#include "cachefile.h"
#include "elffile.h"
#include "symtab.h"

/* The tables made from @elf with @keep, from the cache, over its file
 * mapped in @map (src/cachefile.h; unmapped with oc_cache_unmap() once
 * both tables are deinit'ed): false (both empty, nothing mapped) on a
 * miss or a file that does not read back. */
bool oc_symcache_load(struct oc_elf *elf, unsigned int keep,
		      struct oc_symtab *syms, struct oc_symtab *percpu,
		      struct oc_cache_map *map);
/* Keep the finished tables made from @elf with @keep (quietly nothing
 * when the cache cannot be written). */
void oc_symcache_save(struct oc_elf *elf, unsigned int keep,
		      const struct oc_symtab *syms,
		      const struct oc_symtab *percpu);

#endif /* OC_SYMCACHE_H */
