/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Source lines and inlined frames for kernel addresses (docs/lines.md).
 *
 * The DWARF of a Debian vmlinux is large (600 MB file, 200 MB of
 * .debug_info), so nothing here touches it at open time: oc_lines_open()
 * only reads the per-build-id cache file, and the DWARF is opened on the
 * first address the cache does not know (formats/dwarflines.c).  Every address
 * looked up is remembered and written back by oc_lines_close(), so a second
 * run over the same kernel costs a hash lookup per frame.
 *
 * ALL ADDRESSES HERE ARE LINK-TIME (vmlinux) ADDRESSES: a dump's
 * addresses are KASLR-relocated, pass addr - kaslr_offset
 * (oc_lines_frame_addr() does that, and the ip - 1 for return addresses).
 */
#ifndef OC_LINES_H
#define OC_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "lineinfo.h"

struct oc_frame;

struct oc_lines;

/*
 * Cheap: no DWARF is read here.  @build_id (from oc_elf_build_id()) names
 * the cache file DIR/lines/<hex>, DIR being $ORCCRASH_CACHE, else
 * $XDG_CACHE_HOME/orccrash (when absolute), else $HOME/.cache/orccrash;
 * with build_id NULL there is no cache.  A missing or unreadable cache is
 * not an error (it is rebuilt); only allocation failure is.
 */
struct oc_error *oc_lines_open(const char *vmlinux, const uint8_t *build_id,
			       size_t len, struct oc_lines **ret);
/* The same with an explicit cache file (NULL: none); for tests. */
struct oc_error *oc_lines_open_cache(const char *vmlinux,
				     const char *cache_path,
				     struct oc_lines **ret);
/*
 * Where else the DWARF may be when the vmlinux has none (a stripped
 * vmlinux; Debian's is in linux-image-RELEASE-dbg at
 * /usr/lib/debug/boot/vmlinux-RELEASE): files tried in the order added,
 * and used only when their build-id is the vmlinux's (the one given to
 * oc_lines_open()).  Missing files are skipped quietly.
 */
struct oc_error *oc_lines_add_debug_file(struct oc_lines *l, const char *path);
/* The debug file the DWARF was read from, NULL if the vmlinux's own (or
 * none yet). */
const char *oc_lines_debug_file(const struct oc_lines *l);
/*
 * The chain for one link-time address: innermost inlined function first,
 * the containing (out-of-line) function last, as addr2line -i prints it.
 * Each entry's file:line is where that function was executing: the line
 * table's row for the innermost one, the call site (DW_AT_call_file/line)
 * of the inner entry for the others.  At most @max entries are stored
 * (the outermost are dropped); *nr_ret is the number stored, 0 when the
 * address has no line information or the DWARF is unavailable
 * (see oc_lines_unavailable()).  Only allocation failure is an error.
 */
struct oc_error *oc_lines_lookup(struct oc_lines *l, uint64_t link_addr,
				 struct oc_line_info *chain, size_t max,
				 size_t *nr_ret);
/*
 * Why lines are unavailable (no debug info, DWARF unreadable, ...), once
 * a lookup has needed the DWARF and could not have it; NULL otherwise.
 * Front ends print it once.
 */
const char *oc_lines_unavailable(const struct oc_lines *l);
/*
 * Module frames (--modules-dir DIR, docs/lines.md): DIR is searched, depth
 * first, for NAME.ko and NAME.ko.debug files ('-' and '_' alike in
 * names).  A module frame is looked up by its symbol and the offset of ip
 * from it (frame ip - symbol address, as %pB prints it), @exact as for
 * oc_lines_addr(): the file's own symbol table places the symbol, so no
 * load address is needed.  When the dump gave the module's build-id
 * (oc_lines_set_module_build_id(), from struct oc_module), only a file
 * with that build-id is used: a .ko of another build would give
 * plausible wrong lines.  Otherwise the first file found.  *nr_ret is 0
 * when the module has no usable file there or the file no DWARF (see
 * oc_lines_module_unavailable()).  A file's DWARF is read (and
 * relocated) on its first frame; module lines are not cached across runs
 * (opening a .ko costs milliseconds).  Strings live until oc_lines_close().
 */
struct oc_error *oc_lines_set_modules_dir(struct oc_lines *l, const char *dir);
struct oc_error *oc_lines_set_module_build_id(struct oc_lines *l,
					      const char *module,
					      const uint8_t *id, size_t len);
struct oc_error *oc_lines_lookup_module(struct oc_lines *l, const char *module,
					const char *symbol, uint64_t offset,
					bool exact, struct oc_line_info *chain,
					size_t max, size_t *nr_ret);
/* Why a module had no lines ("no NAME.ko under DIR", a build-id
 * mismatch, no DWARF); NULL if it has or no frame of it was looked up. */
const char *oc_lines_module_unavailable(const struct oc_lines *l,
					const char *module);
/* Each of those reasons once, for front ends to print: the next one not
 * handed out yet and its module's name; NULL when there is none (call it
 * again after more lookups). */
const char *oc_lines_take_module_note(struct oc_lines *l,
				      const char **module_ret);
/*
 * The DWARF behind @l, for src/framevars.c (parameters and locals): the
 * vmlinux's, opened now if no lookup has yet (NULL when unavailable, see
 * oc_lines_unavailable()), or module @module's .ko under the modules dir
 * (NULL in *ret when there is none, it does not match or has no DWARF,
 * see oc_lines_module_unavailable(); an error only on allocation
 * failure).  Owned by @l.
 */
struct oc_dwarf;
struct oc_dwarf *oc_lines_dwarf(struct oc_lines *l);
struct oc_error *oc_lines_module_dwarf(struct oc_lines *l, const char *module,
				       struct oc_dwarf **ret);
/* Writes the cache if anything was added, then frees everything. */
void oc_lines_close(struct oc_lines *l);

/*
 * The link-time address whose line a frame shows: ip - 1 for a return
 * address (the line of the call), ip itself when it is exact
 * (frame->exact, decided by the walker).
 */
uint64_t oc_lines_frame_addr(const struct oc_frame *frame,
			     uint64_t kaslr_offset);
/* The same from the raw facts, for front ends that keep no oc_frame. */
uint64_t oc_lines_addr(uint64_t ip, bool exact, uint64_t kaslr_offset);

/*
 * A shorter file name for display: the part after the kernel build or
 * source directory ("/build/.../linux-6.1.192/kernel/sched/core.c" and
 * "debian/build/build_amd64_none_cloud-amd64/kernel/sched/core.c" both
 * give "kernel/sched/core.c").  Points into @file.
 */
const char *oc_lines_short_file(const char *file);

/* Statistics for docs/lines.md and the tests. */
struct oc_lines_stats {
	size_t cached;		/* addresses loaded from the cache file */
	size_t hits, misses;	/* lookups served by the cache / by DWARF */
	double dwarf_open_sec;	/* time to open the DWARF (0 if never) */
	double dwarf_lookup_sec; /* total time in DWARF lookups */
};
void oc_lines_get_stats(const struct oc_lines *l, struct oc_lines_stats *ret);

#endif /* OC_LINES_H */
