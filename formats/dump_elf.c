// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * An ELF vmcore's headers (kdump's /proc/vmcore, QEMU dump-guest-memory,
 * makedumpfile -E): checked before libkdumpfile trusts them, the PT_LOAD
 * ranges (what is in the dump, what a cut file lost) and the PT_NOTE
 * segments (formats/dump_notes.c).  libkdumpfile's elfdump.c reads the
 * same.
 */
#include <elf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "dumppriv.h"
#include "pgwalk.h"

enum { PAGE_SIZE = 4096 };

/*
 * libkdumpfile 0.5.1 trusts the section headers (with e_shnum 0,
 * section 0's sh_size is the count): check them before it reads.
 */
static struct oc_error *check_sections(struct oc_dump_hdr *h,
				       const Elf64_Ehdr *eh)
{
	uint64_t file_size = h->file_size, shnum = eh->e_shnum;
	Elf64_Shdr sh;
	struct oc_error *err;

	if (!eh->e_shoff && !eh->e_shnum)
		return NULL;
	if (!eh->e_shoff || eh->e_shentsize != sizeof(Elf64_Shdr) ||
	    eh->e_shoff > file_size || file_size - eh->e_shoff < sizeof(sh))
		return oc_error_file(OC_ERR_FORMAT, h->path,
				     "bad ELF section headers");
	if (!shnum || eh->e_phnum == PN_XNUM) {
		err = oc_dump_hdr_pread(h, &sh, sizeof(sh), eh->e_shoff,
					"section header");
		if (err)
			return err;
		if (!shnum)
			shnum = sh.sh_size;
	}
	if (shnum > (file_size - eh->e_shoff) / sizeof(Elf64_Shdr) ||
	    (eh->e_shstrndx != SHN_UNDEF && eh->e_shstrndx != SHN_XINDEX &&
	     eh->e_shstrndx >= shnum))
		return oc_error_file(OC_ERR_FORMAT, h->path,
				     "truncated or bad ELF section headers");
	/* it also mallocs and reads each section's sh_size (a 9 KB file
	 * with a 20 GB .shstrtab took 18 GB and never ended; found by
	 * fuzz_dump).  A section merely past the end is a truncated dump
	 * (QEMU writes one at the very end): that one is left to the
	 * reads, which say "truncated". */
	for (uint64_t i = 1; i < shnum; i++) {
		err = oc_dump_hdr_pread(h, &sh, sizeof(sh),
					eh->e_shoff + i * sizeof(sh),
					"section header");
		if (err)
			return err;
		if (sh.sh_type != SHT_NOBITS && sh.sh_size > file_size)
			return oc_error_file(OC_ERR_FORMAT, h->path,
					     "ELF section %" PRIu64 " claims %" PRIu64 " bytes, more than the whole file",
					     i, (uint64_t)sh.sh_size);
	}
	return NULL;
}

/* A PT_LOAD: its physical range, and what of it a cut file lost. */
static struct oc_error *add_load(struct oc_dump_hdr *h, const Elf64_Phdr *ph)
{
	struct oc_dump_load *r;

	if (!ph->p_memsz || ph->p_paddr + ph->p_memsz <= ph->p_paddr)
		return NULL;
	r = realloc(h->loads, (h->nr_loads + 1) * sizeof(*r));
	if (!r)
		return &oc_enomem;
	h->loads = r;
	r = &h->loads[h->nr_loads++];
	*r = (struct oc_dump_load){ ph->p_paddr, ph->p_paddr + ph->p_memsz,
				    ph->p_vaddr, ph->p_paddr + ph->p_memsz,
				    ph->p_offset,
				    ph->p_filesz < ph->p_memsz ? ph->p_filesz :
				    ph->p_memsz };
	/* p_filesz bytes at p_offset; the rest of p_memsz is zeros by
	 * definition */
	if (ph->p_filesz <= ph->p_memsz &&
	    ph->p_offset + ph->p_filesz >= ph->p_offset) {
		uint64_t have = ph->p_offset >= h->file_size ? 0 :
				h->file_size - ph->p_offset;

		if (ph->p_offset + ph->p_filesz > h->file_needed)
			h->file_needed = ph->p_offset + ph->p_filesz;
		if (have < ph->p_filesz)
			r->cut = ph->p_paddr + have;
	}
	return NULL;
}

struct oc_error *oc_dump_hdr_read_elf(struct oc_dump_hdr *h)
{
	uint64_t file_size = h->file_size;
	Elf64_Ehdr eh;
	struct oc_error *err;

	err = oc_dump_hdr_pread(h, &eh, sizeof(eh), 0, "ELF header");
	if (err)
		return err;
	if (eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB)
		return oc_error_file(OC_ERR_UNSUPPORTED, h->path,
				     "not a little-endian 64-bit ELF file");
	if (eh.e_type != ET_CORE)
		return oc_error_file(OC_ERR_FORMAT, h->path,
				     "ELF file is not a core dump (e_type %u)",
				     eh.e_type);
	if (eh.e_machine != EM_X86_64)
		return oc_error_file(OC_ERR_UNSUPPORTED, h->path,
				     "ELF machine %u is not x86-64", eh.e_machine);
	err = check_sections(h, &eh);
	if (err)
		return err;
	if (eh.e_phnum == PN_XNUM)
		return oc_error_file(OC_ERR_UNSUPPORTED, h->path,
				     "more than 65534 ELF program headers");
	if (eh.e_phentsize != sizeof(Elf64_Phdr) || !eh.e_phnum ||
	    eh.e_phoff > file_size ||
	    (uint64_t)eh.e_phnum * sizeof(Elf64_Phdr) > file_size - eh.e_phoff)
		return oc_error_file(OC_ERR_FORMAT, h->path,
				     "truncated or bad ELF program headers");
	for (unsigned int i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr ph;

		err = oc_dump_hdr_pread(h, &ph, sizeof(ph),
					eh.e_phoff + i * sizeof(ph),
					"program header");
		if (!err && ph.p_type == PT_LOAD)
			err = add_load(h, &ph);
		if (err)
			return err;
		if (ph.p_type != PT_NOTE)
			continue;
		if (ph.p_offset > file_size || ph.p_filesz > file_size - ph.p_offset)
			return oc_error_file(OC_ERR_FORMAT, h->path,
					     "truncated ELF note segment");
		err = oc_dump_hdr_read_notes(h, ph.p_offset, ph.p_filesz);
		if (err)
			return err;
	}
	return NULL;
}

/*
 * libkdumpfile 0.5.1 reads the page just below an ELF segment that
 * starts on a page boundary as zeros (seen at 0xbf000 below QEMU's
 * 0xc0000 segment); the segments themselves say what is in the dump.
 */
static bool in_loads(const struct oc_dump_hdr *h, uint64_t paddr)
{
	for (size_t i = 0; i < h->nr_loads; i++)
		if (paddr < h->loads[i].end &&
		    paddr + PAGE_SIZE > h->loads[i].start)
			return true;
	return false;
}

/*
 * A truncated ELF file: libkdumpfile 0.5.1 reads what lies past its end
 * as zeros, and a stack of zeros unwinds into a column of bogus frames.
 * Such pages are not in the dump.
 */
static bool past_eof(const struct oc_dump_hdr *h, uint64_t paddr)
{
	for (size_t i = 0; i < h->nr_loads; i++) {
		const struct oc_dump_load *r = &h->loads[i];

		if (r->cut < r->end && paddr < r->end &&
		    paddr + PAGE_SIZE > r->cut)
			return true;
	}
	return false;
}

const char *oc_dump_hdr_elf_page_missing(const struct oc_dump_hdr *h,
					 uint64_t paddr)
{
	if (!h->nr_loads)
		return NULL;
	if (!in_loads(h, paddr))
		return "no ELF segment";
	if (past_eof(h, paddr))
		return "past the end of the truncated file";
	return NULL;
}

/*
 * The segment libkdumpfile's find_closest_load() takes for @addr, with
 * @dist bytes of the page left: of the segments whose file part ends
 * past @addr and that start before @addr + @dist, the one that starts
 * first (the first in its list sorted by p_paddr).  Its file part, not
 * p_memsz: libkdumpfile 0.5.1 reads a page past a segment's p_filesz as
 * "Page not found" (QEMU writes p_filesz 0 for memory it did not save),
 * which tests/unit/test_dump.c holds it to.
 */
static const struct oc_dump_load *closest_load(const struct oc_dump_hdr *h,
					       uint64_t addr, uint64_t dist)
{
	const struct oc_dump_load *best = NULL;

	for (size_t i = 0; i < h->nr_loads; i++) {
		const struct oc_dump_load *r = &h->loads[i];

		if (!r->filesz || (addr >= r->start && addr - r->start >= r->filesz))
			continue;	/* no file part, or it ends before @addr */
		if (r->start > addr && r->start - addr >= dist)
			continue;
		if (!best || r->start < best->start)
			best = r;
	}
	return best;
}

bool oc_dump_hdr_elf_reads_own(const struct oc_dump_hdr *h)
{
	/* libkdumpfile's open_common(): segments that all say physical
	 * address 0 have no usable one (it then reads by virtual address
	 * only); such a file stays libkdumpfile's */
	for (size_t i = 0; i < h->nr_loads; i++)
		if (h->loads[i].start)
			return true;
	return h->nr_loads == 1;
}

/*
 * As libkdumpfile 0.5.1's elf_get_page() and elf_read_page()
 * (src/kdumpfile/elfdump.c) fill a physical page, from the file without
 * its page cache: a page no segment's file part reaches is not in the
 * dump; the others get each byte from the segment that covers it and
 * zeros where none does.  Where segments overlap, the one that starts
 * first gives the bytes (0.5.1's choice there depends on the segment it
 * used last; a vmcore's overlapping segments, the kernel text's and its
 * RAM's, hold the same bytes).  Asking libkdumpfile cost a copy through its
 * cache and a page fault for each page of that cache on every run
 * (docs/benchmarks.md).
 */
struct oc_error *oc_dump_hdr_elf_read_page(const struct oc_dump_hdr *h,
					   uint64_t paddr, unsigned char *page)
{
	uint64_t addr = paddr, end = paddr + PAGE_SIZE;
	const struct oc_dump_load *r = closest_load(h, addr, PAGE_SIZE);
	unsigned char *p = page;

	if (!r)
		return oc_error_format(OC_ERR_FAULT,
				       "past its ELF segment's file data");
	do {
		struct oc_error *err;
		uint64_t n;

		if (r->start > addr) {
			memset(p, 0, r->start - addr);
			p += r->start - addr;
			addr = r->start;
		}
		n = r->filesz - (addr - r->start);
		if (n > end - addr)
			n = end - addr;
		err = oc_dump_hdr_pread(h, p, n, r->offset + (addr - r->start),
					"page data");
		if (err)
			return err;
		p += n;
		addr += n;
	} while (addr < end && (r = closest_load(h, addr, end - addr)));
	memset(p, 0, end - addr);	/* no segment for the rest */
	return NULL;
}

/*
 * Without NUMBER(phys_base) (before 4.10): a kdump ELF file maps the
 * kernel image with a PT_LOAD whose p_vaddr is in the kernel-text
 * mapping, which gives phys_base as crash and drgn derive it.  QEMU
 * dumps without -p have no such segment, and the phys_base field of
 * QEMU's kdump sub-header is not reliable (0xfffffffc7e97e99c in a
 * 6.1 KASLR dump whose VMCOREINFO says -0x16c00000).
 */
bool oc_dump_hdr_phys_base(const struct oc_dump_hdr *h, uint64_t *ret)
{
	for (size_t i = 0; i < h->nr_loads; i++) {
		const struct oc_dump_load *r = &h->loads[i];

		if (r->vaddr >= OC_START_KERNEL_MAP &&
		    r->vaddr < OC_START_KERNEL_MAP + (1ULL << 30)) {
			*ret = r->start - (r->vaddr - OC_START_KERNEL_MAP);
			return true;
		}
	}
	return false;
}
