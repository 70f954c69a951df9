/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the files of a dump share (private to formats/dump*.c), in
 * libkdumpfile's per-format split: formats/dump.c opens the file, hands
 * it to libkdumpfile and reads pages through formats/pcache.c and the
 * page walk.  Before that, formats/dump_elf.c (an ELF vmcore's headers
 * and segments) or formats/dump_kdump.c (a kdump-compressed file's
 * headers, bitmap and descriptors) read what we take from the headers
 * ourselves, with formats/dump_notes.c for the notes both carry; the
 * same two read the pages (libkdumpfile where they cannot: see
 * docs/design.md).  All of that lands in struct oc_dump_hdr.
 */
#ifndef OC_FORMATS_DUMPPRIV_H
#define OC_FORMATS_DUMPPRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "elfnote.h"
#include "error.h"

struct oc_vmcoreinfo;

enum {
	OC_DUMP_MAX_NOTES_SIZE = 64 << 20,
	OC_DUMP_MAX_CPU_NOTES = 8192,
	/* makedumpfile's struct disk_dump_header, x86-64 (dump_kdump.c) */
	OC_DUMP_KDUMP_HDR_MIN = 464,
};

/* An ELF PT_LOAD's physical range; [cut, end) lies past the end of a
 * truncated file (cut == end: all there).  Its first @filesz bytes are
 * in the file at @offset, the rest of it is zeros. */
struct oc_dump_load {
	uint64_t start, end, vaddr, cut;
	uint64_t offset, filesz;
};

struct oc_dump_hdr {
	const char *path;	/* for errors */
	int fd;			/* the file (or the reassembled one) */
	uint64_t file_size;
	/* kdump, its pages read by oc_dump_hdr_kdump_read_page(): the whole
	 * file mapped read-only (a regular file), or NULL: they pread() it
	 * (oc_dump_hdr_map()) */
	const unsigned char *map;
	/* the size the ELF segments or the last kdump page descriptor need */
	uint64_t file_needed;
	bool qemu;		/* a "QEMU" note: written by QEMU */
	bool incomplete;	/* kdump: DUMP_DH_COMPRESSED_INCOMPLETE */
	/* kdump: its utsname names a machine other than x86_64 (libkdumpfile
	 * then opens it and says which: formats/dump.c need_kdumpfile()) */
	bool foreign_machine;
	struct oc_prstatus *notes;	/* NT_PRSTATUS, in file order */
	size_t nr_notes;
	struct oc_vmcoreinfo *vmcoreinfo;	/* NULL if none found */
	struct oc_dump_load *loads;		/* ELF only */
	size_t nr_loads;
	/* kdump only: the dump bitmap, a bit per page frame in the file */
	unsigned char *bitmap;			/* NULL if not kept */
	uint64_t bitmap_bits;
	/* kdump only, with the bitmap and 4 KB blocks: set bits before
	 * each 1024-bit block (the rank that indexes a page frame's
	 * descriptor) and where the descriptors start; NULL: libkdumpfile
	 * reads the pages */
	uint64_t *rank;
	uint64_t desc_off;
};

void oc_dump_hdr_deinit(struct oc_dump_hdr *h);

/* Map @h's file (fd and file_size set) for the kdump page reader, if it
 * is a regular file; else (or if mmap() fails) it pread()s windows of it.
 * An ELF dump's pages are pread() one by one: a 4 KB page copied costs
 * less than a fault on a mapping (ELF samples' --all-tasks took 10-15%
 * more CPU mapped).  oc_dump_hdr_deinit() unmaps it. */
void oc_dump_hdr_map(struct oc_dump_hdr *h);

/* Read @len bytes at @off; a short read is "truncated WHAT". */
struct oc_error *oc_dump_hdr_pread(const struct oc_dump_hdr *h, void *buf,
				   size_t len, uint64_t off, const char *what);

/* formats/dump_elf.c: an ELF vmcore's headers, its loads and notes. */
struct oc_error *oc_dump_hdr_read_elf(struct oc_dump_hdr *h);
/* Why physical page @paddr is not in the ELF dump, or NULL if it is
 * (or the dump is not ELF). */
const char *oc_dump_hdr_elf_page_missing(const struct oc_dump_hdr *h,
					 uint64_t paddr);
/* Whether an ELF dump's pages are read by oc_dump_hdr_elf_read_page()
 * (false: not ELF, or no usable physical addresses: libkdumpfile's). */
bool oc_dump_hdr_elf_reads_own(const struct oc_dump_hdr *h);
/* Physical page @paddr of an ELF dump into @page, from the file's
 * segments as libkdumpfile 0.5.1 reads it; the caller has asked
 * oc_dump_hdr_elf_page_missing() first. */
struct oc_error *oc_dump_hdr_elf_read_page(const struct oc_dump_hdr *h,
					   uint64_t paddr, unsigned char *page);
/* phys_base from a PT_LOAD of the kernel-text mapping; false if none. */
bool oc_dump_hdr_phys_base(const struct oc_dump_hdr *h, uint64_t *ret);

/* formats/dump_kdump.c: a kdump-compressed file's headers and notes. */
struct oc_error *oc_dump_hdr_read_kdump(struct oc_dump_hdr *h);
/* Why physical page @paddr is not in the kdump-compressed file (its
 * dump bitmap's bit is clear), or NULL if it is or no bitmap was kept. */
const char *oc_dump_hdr_kdump_page_missing(const struct oc_dump_hdr *h,
					   uint64_t paddr);

/* A kdump-compressed file's pages read without libkdumpfile (h->rank
 * set): one reader's decompression state (zlib, zstd), per thread. */
struct oc_kdump_pager;
struct oc_error *oc_kdump_pager_create(struct oc_kdump_pager **ret);
void oc_kdump_pager_destroy(struct oc_kdump_pager *pg);
/* Page @paddr, in the file by oc_dump_hdr_kdump_page_missing(), into
 * @page from its page descriptor, as libkdumpfile 0.5.1's
 * diskdump_read_page() reads it. */
struct oc_error *oc_dump_hdr_kdump_read_page(const struct oc_dump_hdr *h,
					     struct oc_kdump_pager *pg,
					     uint64_t paddr,
					     unsigned char *page);

/* formats/dump_notes.c: a note area at @off (CPU registers, VMCOREINFO,
 * the QEMU note). */
struct oc_error *oc_dump_hdr_read_notes(struct oc_dump_hdr *h, uint64_t off,
					uint64_t size);
/* One NT_PRSTATUS note, appended to h->notes. */
struct oc_error *oc_dump_hdr_add_cpu(struct oc_dump_hdr *h,
				     const struct oc_elfnote *n);
/* The VMCOREINFO text (the first one found wins), parsed. */
struct oc_error *oc_dump_hdr_set_vmcoreinfo(struct oc_dump_hdr *h,
					    const char *text, size_t len);
/* Refuse VMCOREINFO text that crashes libkdumpfile 0.5.1 (see there). */
struct oc_error *oc_dump_hdr_check_vmcoreinfo(const struct oc_dump_hdr *h,
					      const char *text, size_t len);

#endif /* OC_FORMATS_DUMPPRIV_H */
