/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The types memo (formats/typememo.h) of a vmlinux's BTF, kept per build
 * in the user's cache (~/.cache/orccrash/types/BUILD-ID-PROGRAM, PROGRAM
 * the first 8 bytes of orccrash's own build-id): the sizes,
 * members and enumerators the runs over this vmlinux asked, so that a
 * report over it answers them without opening the BTF.  A file names the
 * vmlinux as the symbol cache does (src/cachefile.h), the BTF section's
 * size, and this program's own build-id: the answers are this build's
 * reading of the BTF, and another build of orccrash reads it again.
 */
#ifndef OC_TYPECACHE_H
#define OC_TYPECACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "elffile.h"
#include "typememo.h"

/* The memo over @elf's BTF (@btf_size bytes) from the cache, made
 * with @load(@arg) as its backend: false on a miss (no file, another
 * vmlinux or build, bytes that do not parse). */
bool oc_typecache_load(struct oc_elf *elf, uint64_t btf_size,
		       oc_types_load_fn load, void *arg,
		       struct oc_types **ret);
/* Keep memo @types when it has answers the file lacks (quietly nothing
 * when the cache cannot be written, or this build has no build-id). */
void oc_typecache_save(struct oc_elf *elf, uint64_t btf_size,
		       const struct oc_types *types);

#endif /* OC_TYPECACHE_H */
