/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The types memo (formats/typememo.h) of a vmlinux's BTF, kept per build
 * in the user's cache (~/.cache/orccrash/types/BUILD-ID-PROGRAM, PROGRAM
 * the first 8 bytes of orccrash's own build-id): the sizes, members and
 * enumerators the runs over this vmlinux asked, so that a report over it
 * answers them without opening the BTF.  A file names the vmlinux as the
 * symbol cache does (src/cachefile.h), the BTF section's size, this
 * program's own build-id and the BTF library's (libbpf's): the answers
 * are those builds' reading of the BTF, and other builds read it again.
 */
#ifndef OC_TYPECACHE_H
#define OC_TYPECACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "elffile.h"
#include "typememo.h"

struct oc_typecache;

/* The cache file of @elf's BTF (@btf_size bytes) as it is now: NULL when
 * none can be named (no build-id: the vmlinux's, ours or libbpf's). */
struct oc_typecache *oc_typecache_open(struct oc_elf *elf, uint64_t btf_size);
/* The memo from the file, made with @load(@arg) as its backend: false on
 * a miss (no file, another vmlinux or build, bytes that do not parse). */
bool oc_typecache_load(const struct oc_typecache *tc, oc_types_load_fn load,
		       void *arg, struct oc_types **ret);
/* Keep memo @types when it has answers the file lacks (quietly nothing
 * when the cache cannot be written), then free @tc. */
void oc_typecache_close(struct oc_typecache *tc, const struct oc_types *types);

#endif /* OC_TYPECACHE_H */
