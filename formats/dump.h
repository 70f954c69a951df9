/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Crash dumps: ELF vmcores (kdump /proc/vmcore, QEMU dump-guest-memory
 * with and without -p), kdump-compressed files, and makedumpfile's
 * flattened format (reassembled on the fly).  Only this file's .c
 * includes libkdumpfile.
 *
 * Kernel virtual addresses are translated here by our own x86-64
 * page-table walk (4- and 5-level) over physical reads, from
 * VMCOREINFO's init_top_pgt and phys_base (why, and how it compares
 * with libkdumpfile's own translation: docs/design.md, "Page walk: the
 * evidence").
 *
 * A struct oc_dump caches pages and translations: use it from one
 * thread at a time.
 */
#ifndef OC_FORMATS_DUMP_H
#define OC_FORMATS_DUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "elfnote.h"
#include "error.h"
#include "mem.h"

struct oc_dump;

struct oc_error *oc_dump_open(const char *path, struct oc_dump **ret);

/*
 * What a file is by its first bytes, without opening it as a dump (the
 * command line takes crash's order, VMLINUX VMCORE, too): a dump has an
 * ELF ET_CORE, KDUMP, DISKDUMP or makedumpfile signature; a kernel is an
 * x86-64 ELF ET_EXEC (vmlinux, or its -dbg copy).  Anything else, or a
 * file that cannot be read, is OC_FILE_OTHER: the open that follows names
 * the problem.
 */
enum oc_file_kind { OC_FILE_OTHER, OC_FILE_DUMP, OC_FILE_KERNEL };
enum oc_file_kind oc_dump_sniff(const char *path);
void oc_dump_close(struct oc_dump *dump);
/*
 * Another reader of @dump's file, for a second thread (each struct
 * oc_dump is one thread's): the same pages through its own context and
 * caches.  Close it before @dump.
 */
struct oc_error *oc_dump_clone(struct oc_dump *dump, struct oc_dump **ret);

/* "elf", "kdump-compressed", "flattened kdump-compressed", "flattened elf" */
const char *oc_dump_format_name(const struct oc_dump *dump);
const char *oc_dump_path(const struct oc_dump *dump);
/* True if the dump was written by QEMU (note pids are CPU + 1). */
bool oc_dump_is_qemu(const struct oc_dump *dump);

struct oc_vmcoreinfo;
/* The dump's VMCOREINFO (formats/vmcoreinfo.h: oc_vmcoreinfo_text(),
 * oc_vmcoreinfo_symbol(), ...); NULL if the dump has none. */
const struct oc_vmcoreinfo *oc_dump_vmcoreinfo(const struct oc_dump *dump);

struct oc_error *oc_dump_read_phys(struct oc_dump *dump, uint64_t paddr,
				   void *buf, size_t len);
/* Translate a kernel virtual address (page-table walk, cached). */
struct oc_error *oc_dump_virt_to_phys(struct oc_dump *dump, uint64_t vaddr,
				      uint64_t *paddr_ret);
/*
 * Translate @vaddr through the page tables whose top-level table is at
 * physical @top (a task's mm->pgd), the kernel's paging levels: a
 * process's user addresses.
 */
struct oc_error *oc_dump_translate_in(struct oc_dump *dump, uint64_t top,
				      uint64_t vaddr, uint64_t *paddr_ret);
/*
 * The same by libkdumpfile's own translation (addrxlat, what reads fall
 * back to without the page walk), for tests/realdump/xlat.sh, which
 * holds the two against the kernel's own mappings.
 */
struct oc_error *oc_dump_virt_to_phys_kdump(struct oc_dump *dump,
					    uint64_t vaddr,
					    uint64_t *paddr_ret);
/*
 * The page frames the dump was asked for and did not hold (excluded by
 * makedumpfile, or unreadable), the first @max of at most 64, in the order
 * they were first asked for; returns how many were copied to @ret.
 */
size_t oc_dump_missing_pfns(const struct oc_dump *dump, uint64_t *ret,
			    size_t max);
/* Another reader's missing page frames (oc_dump_missing_pfns()) as this
 * reader's too, after its own. */
void oc_dump_add_missing(struct oc_dump *dump, const struct oc_dump *other);
/* A memory source reading kernel virtual addresses of this dump. */
void oc_dump_mem(struct oc_dump *dump, struct oc_mem *ret);
/* False if VMCOREINFO lacks init_top_pgt, or phys_base and the dump has
 * no kernel-text ELF segment to derive it from: virtual reads then fall
 * back to libkdumpfile's own translation. */
bool oc_dump_has_page_walk(const struct oc_dump *dump);

/* A dump shorter than its headers say (a copy cut short, a disk that
 * filled up): its size and the size it needs (ELF: its segments;
 * kdump-compressed: its last page's data).  The pages past the end read
 * as not in the dump. */
/* kdump-compressed: makedumpfile set DUMP_DH_COMPRESSED_INCOMPLETE (it
 * ran out of space and wrote what it could). */
bool oc_dump_incomplete(const struct oc_dump *dump);
bool oc_dump_truncated(const struct oc_dump *dump, uint64_t *size_ret,
		       uint64_t *needed_ret);

/* The saved-register notes (NT_PRSTATUS), in file order: a task pid
 * and its registers (kdump), or CPU + 1 (QEMU); NULL past the last. */
size_t oc_dump_nr_cpu_notes(const struct oc_dump *dump);
const struct oc_prstatus *oc_dump_cpu_note(const struct oc_dump *dump,
					   size_t i);

#endif /* OC_FORMATS_DUMP_H */
