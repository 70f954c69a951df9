// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Crash dumps over libkdumpfile (Debian's 0.5.1): ELF vmcores,
 * kdump-compressed files and makedumpfile's flattened format, which we
 * reassemble into an anonymous file first (formats/flat.c).
 *
 * libkdumpfile gives us physical reads and VMCOREINFO.  The saved
 * registers and the "written by QEMU" flag come from the ELF notes,
 * which we read ourselves (the PT_NOTE segments of an ELF dump, the
 * note area named by the kdump sub-header), so the notes stay in file
 * order.  Kernel virtual addresses go through our own page-table walk
 * (formats/pgwalk.c) from VMCOREINFO's init_top_pgt and phys_base;
 * libkdumpfile's own KVADDR translation is only the fallback.
 */
#include <elf.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libkdumpfile/kdumpfile.h>

#include "dump.h"
#include "flat.h"
#include "pgwalk.h"

enum {
	PAGE_SIZE = 4096,
	PCACHE_PAGES = 32,	/* physical pages kept (decompressed) */
	MAX_NOTES_SIZE = 64 << 20,
	MAX_CPU_NOTES = 8192,
	/* struct elf_prstatus on x86-64: pr_pid at 32, pr_reg at 112 */
	PRSTATUS_PID = 32,
	PRSTATUS_REG = 112,
	PRSTATUS_NREGS = 27,	/* struct user_regs_struct */
	PRSTATUS_MIN = PRSTATUS_REG + PRSTATUS_NREGS * 8,
	/* flattened dumps above this size are reassembled on disk, not in RAM */
	FLAT_MEMFD_MAX = 1 << 30,
};

/*
 * The kdump-compressed header, from makedumpfile's diskdump_mod.h
 * (struct disk_dump_header, struct kdump_sub_header) for x86-64; only
 * the fields we use, by offset.
 */
enum {
	KDUMP_HDR_VERSION = 8,		/* int header_version */
	KDUMP_HDR_STATUS = 424,		/* unsigned int status */
	KDUMP_HDR_BLOCK_SIZE = 428,	/* int block_size */
	KDUMP_HDR_SUB_HDR_SIZE = 432,	/* int sub_hdr_size (blocks) */
	KDUMP_HDR_BITMAP_BLOCKS = 436,	/* unsigned int bitmap_blocks */
	KDUMP_HDR_MAX_MAPNR = 440,	/* unsigned int max_mapnr */
	KDUMP_HDR_MIN = 464,
	/* struct kdump_sub_header */
	KDUMP_SUB_OFFSET_VMCOREINFO = 32,	/* version >= 3 */
	KDUMP_SUB_SIZE_VMCOREINFO = 40,
	KDUMP_SUB_OFFSET_NOTE = 48,		/* version >= 4 */
	KDUMP_SUB_SIZE_NOTE = 56,
	KDUMP_SUB_OFFSET_ERASEINFO = 64,	/* version >= 5 */
	KDUMP_SUB_SIZE_ERASEINFO = 72,
	KDUMP_SUB_MAX_MAPNR_64 = 96,		/* version >= 6 */
	KDUMP_SUB_MIN = 104,
	/* status: makedumpfile could not write the whole dump (ENOSPC) */
	KDUMP_DH_COMPRESSED_INCOMPLETE = 0x8,
	/* struct page_desc: off, size, flags, page_flags */
	KDUMP_PAGE_DESC_SIZE = 24,
};

struct pcache_page {
	uint64_t pfn;
	uint64_t stamp;
	bool valid;
	unsigned char data[PAGE_SIZE];
};

struct oc_dump {
	char *path;
	int fd;			/* the file we were given */
	int view_fd;		/* the reassembled flattened dump, or -1 */
	kdump_ctx_t *ctx;
	const char *format;
	bool qemu;

	char *vmcoreinfo;	/* raw text */
	char *vmcoreinfo_lines;	/* the same with '\n' -> '\0' */
	size_t vmcoreinfo_len;

	struct oc_dump_cpu_note *notes;
	size_t nr_notes;

	/* virtual addresses */
	bool use_walk;		/* false: libkdumpfile's KVADDR reads */
	struct oc_pgwalk walk;
	uint64_t phys_base;

	struct pcache_page *pcache;
	struct pcache_page *pcache_last;	/* the page of the last read */
	/*
	 * Pages libkdumpfile could not read, never asked for again:
	 * libkdumpfile 0.5.1 corrupts its page cache when the same excluded
	 * page of a kdump-compressed file is read repeatedly (every later
	 * read then fails with "Decompresion failed: error -2").
	 */
	uint64_t bad_pfn[64];
	unsigned int nr_bad_pfn;
	uint64_t pcache_clock;
	uint64_t pcache_hits, pcache_misses;

	/* ELF: the physical ranges of the PT_LOAD segments; [cut, end) of
	 * each lies past the end of a truncated file (cut == end: whole) */
	struct phys_range { uint64_t start, end, vaddr, cut; } *loads;
	size_t nr_loads;
	/* the file's size, and the size its ELF segments or its last kdump
	 * page descriptor need */
	uint64_t file_size, file_needed;
	/* kdump-compressed: makedumpfile marked the dump incomplete */
	bool incomplete;
};

static struct oc_error *kdump_error(struct oc_dump *dump, const char *call)
{
	return oc_error_file(OC_ERR_FORMAT, dump->path, "%s: %s", call,
			     kdump_get_err(dump->ctx));
}

/* ------------------------------------------------------------------ */
/* Physical reads, through a small cache of whole pages                */

/*
 * libkdumpfile 0.5.1 reads the page just below an ELF segment that
 * starts on a page boundary as zeros (seen at 0xbf000 below QEMU's
 * 0xc0000 segment); the segments themselves say what is in the dump.
 */
static bool in_loads(const struct oc_dump *dump, uint64_t paddr)
{
	for (size_t i = 0; i < dump->nr_loads; i++)
		if (paddr < dump->loads[i].end &&
		    paddr + PAGE_SIZE > dump->loads[i].start)
			return true;
	return false;
}

/*
 * A truncated ELF file: libkdumpfile 0.5.1 reads what lies past its end
 * as zeros, and a stack of zeros unwinds into a column of bogus frames.
 * Such pages are not in the dump.
 */
static const struct phys_range *past_eof(const struct oc_dump *dump,
					 uint64_t paddr)
{
	for (size_t i = 0; i < dump->nr_loads; i++) {
		const struct phys_range *r = &dump->loads[i];

		if (r->cut < r->end && paddr < r->end &&
		    paddr + PAGE_SIZE > r->cut)
			return r;
	}
	return NULL;
}

static struct oc_error *read_page(struct oc_dump *dump, uint64_t pfn,
				  const unsigned char **ret)
{
	struct pcache_page *victim = &dump->pcache[0];
	size_t len = PAGE_SIZE;
	kdump_status st;

	/* the unwinder reads one stack word after the other */
	if (dump->pcache_last && dump->pcache_last->pfn == pfn &&
	    dump->pcache_last->valid) {
		dump->pcache_hits++;
		*ret = dump->pcache_last->data;
		return NULL;
	}
	for (size_t i = 0; i < PCACHE_PAGES; i++) {
		struct pcache_page *p = &dump->pcache[i];

		if (p->valid && p->pfn == pfn) {
			p->stamp = ++dump->pcache_clock;
			dump->pcache_hits++;
			dump->pcache_last = p;
			*ret = p->data;
			return NULL;
		}
		if (!p->valid || (victim->valid && p->stamp < victim->stamp))
			victim = p;
	}
	dump->pcache_misses++;
	if (dump->nr_loads && !in_loads(dump, pfn * PAGE_SIZE))
		return oc_error_fault(pfn * PAGE_SIZE,
				      "physical address 0x%" PRIx64 " not in the dump (no ELF segment)",
				      pfn * PAGE_SIZE);
	if (dump->nr_loads && past_eof(dump, pfn * PAGE_SIZE))
		return oc_error_fault(pfn * PAGE_SIZE,
				      "physical address 0x%" PRIx64 " not in the dump (past the end of the truncated file)",
				      pfn * PAGE_SIZE);
	for (unsigned int i = 0; i < dump->nr_bad_pfn && i < 64; i++)
		if (dump->bad_pfn[i] == pfn)
			return oc_error_fault(pfn * PAGE_SIZE,
					      "physical address 0x%" PRIx64 " not in the dump",
					      pfn * PAGE_SIZE);
	victim->valid = false;
	st = kdump_read(dump->ctx, KDUMP_KPHYSADDR, pfn * PAGE_SIZE,
			victim->data, &len);
	if (st != KDUMP_OK) {
		uint64_t addr = pfn * PAGE_SIZE + len;

		struct oc_error *err = oc_error_fault(addr,
				      "physical address 0x%" PRIx64 " not in the dump (kdump_read: %s)",
				      addr, kdump_get_err(dump->ctx));

		dump->bad_pfn[dump->nr_bad_pfn++ % 64] = pfn;
		kdump_clear_err(dump->ctx);
		return err;
	}
	victim->valid = true;
	victim->pfn = pfn;
	victim->stamp = ++dump->pcache_clock;
	dump->pcache_last = victim;
	*ret = victim->data;
	return NULL;
}

struct oc_error *oc_dump_read_phys(struct oc_dump *dump, uint64_t paddr,
				   void *buf, size_t len)
{
	unsigned char *out = buf;

	if (paddr + len < paddr)
		return oc_error_fault(paddr, "physical read of %zu bytes at 0x%" PRIx64 " wraps",
				      len, paddr);
	while (len) {
		size_t off = paddr % PAGE_SIZE;
		size_t n = PAGE_SIZE - off < len ? PAGE_SIZE - off : len;
		const unsigned char *page = NULL;
		struct oc_error *err = read_page(dump, paddr / PAGE_SIZE, &page);

		if (err)
			return err;
		memcpy(out, page + off, n);
		out += n;
		paddr += n;
		len -= n;
	}
	return NULL;
}

static struct oc_error *walk_read_phys(void *arg, uint64_t paddr, void *buf,
				       size_t len)
{
	return oc_dump_read_phys(arg, paddr, buf, len);
}

/* ------------------------------------------------------------------ */
/* Virtual reads                                                       */

struct oc_error *oc_dump_virt_to_phys(struct oc_dump *dump, uint64_t vaddr,
				      uint64_t *paddr_ret)
{
	if (!dump->use_walk)
		return oc_error_format(OC_ERR_UNSUPPORTED,
				       "0x%" PRIx64 ": no page-table walk (VMCOREINFO lacks init_top_pgt or phys_base)",
				       vaddr);
	return oc_pgwalk_translate(&dump->walk, vaddr, paddr_ret);
}

static struct oc_error *read_kvaddr_kdump(struct oc_dump *dump, uint64_t addr,
					  void *buf, size_t len)
{
	size_t got = len;
	kdump_status st = kdump_read(dump->ctx, KDUMP_KVADDR, addr, buf, &got);

	if (st != KDUMP_OK)
		return oc_error_fault(addr + got, "kdump_read(0x%" PRIx64 "): %s",
				      addr + got, kdump_get_err(dump->ctx));
	return NULL;
}

static struct oc_error *dump_mem_read(void *arg, uint64_t addr, void *buf,
				      size_t len)
{
	struct oc_dump *dump = arg;
	unsigned char *out = buf;

	if (!dump->use_walk)
		return read_kvaddr_kdump(dump, addr, buf, len);
	/* page by page: contiguous virtual pages need not be physically so */
	while (len) {
		size_t off = addr % PAGE_SIZE;
		size_t n = PAGE_SIZE - off < len ? PAGE_SIZE - off : len;
		uint64_t paddr;
		struct oc_error *err;

		err = oc_pgwalk_translate(&dump->walk, addr, &paddr);
		if (err)
			return err;
		err = oc_dump_read_phys(dump, paddr, out, n);
		if (err) {
			oc_error_destroy(err);
			return oc_error_fault(addr,
					      "0x%" PRIx64 ": physical page 0x%" PRIx64 " is not in the dump",
					      addr, paddr & ~(uint64_t)(PAGE_SIZE - 1));
		}
		out += n;
		addr += n;
		len -= n;
	}
	return NULL;
}

void oc_dump_mem(struct oc_dump *dump, struct oc_mem *ret)
{
	ret->read = dump_mem_read;
	ret->arg = dump;
}

/* ------------------------------------------------------------------ */
/* VMCOREINFO                                                          */

const char *oc_dump_vmcoreinfo(const struct oc_dump *dump)
{
	return dump->vmcoreinfo;
}

const char *oc_dump_vmcoreinfo_value(const struct oc_dump *dump,
				     const char *key, size_t *len_ret)
{
	size_t klen = strlen(key);
	const char *p = dump->vmcoreinfo_lines;
	const char *end;

	if (!p)
		return NULL;
	end = p + dump->vmcoreinfo_len;
	while (p < end) {
		size_t llen = strlen(p);

		if (llen > klen && !memcmp(p, key, klen) && p[klen] == '=') {
			if (len_ret)
				*len_ret = llen - klen - 1;
			return p + klen + 1;
		}
		p += llen + 1;
	}
	return NULL;
}

static bool key_is_hex(const char *key)
{
	/* vmcoreinfo_append_str("SYMBOL(%s)=%lx"), "KERNELOFFSET=%lx" */
	return !strncmp(key, "SYMBOL(", 7) || !strcmp(key, "KERNELOFFSET") ||
	       !strcmp(key, "PHYS_OFFSET") || !strcmp(key, "KERNELPACMASK");
}

struct oc_error *oc_dump_vmcoreinfo_u64(const struct oc_dump *dump,
					const char *key, uint64_t *ret)
{
	size_t len;
	const char *v = oc_dump_vmcoreinfo_value(dump, key, &len);
	char *end;
	bool neg = false;
	uint64_t val;

	if (!v)
		return oc_error_format(OC_ERR_LOOKUP, "VMCOREINFO has no %s", key);
	/* NUMBER() is printed with %ld: it may be negative */
	if (!key_is_hex(key) && *v == '-') {
		neg = true;
		v++;
	}
	if (!*v || !((*v >= '0' && *v <= '9') ||
		     (key_is_hex(key) && ((*v >= 'a' && *v <= 'f') ||
					  (*v >= 'A' && *v <= 'F')))))
		goto bad;
	errno = 0;
	val = strtoull(v, &end, key_is_hex(key) ? 16 : 10);
	if (errno || *end)
		goto bad;
	*ret = neg ? -val : val;
	return NULL;
bad:
	return oc_error_format(OC_ERR_FORMAT, "VMCOREINFO %s: bad value \"%s\"",
			       key, oc_dump_vmcoreinfo_value(dump, key, NULL));
}

/*
 * libkdumpfile 0.5.1 makes each VMCOREINFO key an attribute path and
 * crashes (SIGSEGV in kdump_open_fd) on one that starts with '.': refuse
 * it before it reads the text, in all of it as it reads it, past any NUL
 * (found by fuzz_dump).
 */
static struct oc_error *check_vmcoreinfo_keys(struct oc_dump *dump,
					      const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if ((i == 0 || text[i - 1] == '\n' || text[i - 1] == '\0') &&
		    text[i] == '.')
			return oc_error_file(OC_ERR_FORMAT, dump->path,
					     "VMCOREINFO line at byte %zu has a key starting with '.'",
					     i);
	return NULL;
}

static struct oc_error *set_vmcoreinfo(struct oc_dump *dump, const char *text,
				       size_t len)
{
	struct oc_error *err = check_vmcoreinfo_keys(dump, text, len);

	if (err)
		return err;
	/* stop at a NUL: the note's descsz includes padding */
	len = strnlen(text, len);
	dump->vmcoreinfo = malloc(len + 1);
	dump->vmcoreinfo_lines = malloc(len + 1);
	if (!dump->vmcoreinfo || !dump->vmcoreinfo_lines)
		return &oc_enomem;
	memcpy(dump->vmcoreinfo, text, len);
	dump->vmcoreinfo[len] = '\0';
	memcpy(dump->vmcoreinfo_lines, text, len);
	dump->vmcoreinfo_lines[len] = '\0';
	for (size_t i = 0; i < len; i++)
		if (dump->vmcoreinfo_lines[i] == '\n')
			dump->vmcoreinfo_lines[i] = '\0';
	dump->vmcoreinfo_len = len;
	return NULL;
}

/* ------------------------------------------------------------------ */
/* ELF notes                                                           */

static struct oc_error *pread_all(struct oc_dump *dump, int fd, void *buf,
				  size_t len, uint64_t off, const char *what)
{
	struct oc_error *err = oc_flat_read_fd(&fd, off, buf, len);

	if (err && err->code == OC_ERR_FORMAT) {
		oc_error_destroy(err);
		return oc_error_file(OC_ERR_FORMAT, dump->path, "truncated %s",
				     what);
	}
	return oc_error_set_path(err, dump->path);
}

static struct oc_error *add_cpu_note(struct oc_dump *dump,
				     const unsigned char *desc, size_t size)
{
	struct oc_dump_cpu_note *n;
	uint64_t regs[PRSTATUS_NREGS];
	uint32_t pid;

	if (size < PRSTATUS_MIN)
		return oc_error_file(OC_ERR_FORMAT, dump->path,
				     "NT_PRSTATUS note of %zu bytes (want %d)",
				     size, PRSTATUS_MIN);
	if (dump->nr_notes >= MAX_CPU_NOTES)
		return oc_error_file(OC_ERR_FORMAT, dump->path,
				     "more than %d NT_PRSTATUS notes",
				     MAX_CPU_NOTES);
	n = realloc(dump->notes, (dump->nr_notes + 1) * sizeof(*n));
	if (!n)
		return &oc_enomem;
	dump->notes = n;
	n = &dump->notes[dump->nr_notes++];
	memset(n, 0, sizeof(*n));
	memcpy(&pid, desc + PRSTATUS_PID, sizeof(pid));
	memcpy(regs, desc + PRSTATUS_REG, sizeof(regs));
	n->pid = pid;
	/* user_regs_struct starts with pt_regs' 21 fields in the same order */
	memcpy(&n->regs, regs, sizeof(n->regs));
	n->fs_base = regs[21];
	n->gs_base = regs[22];
	return NULL;
}

/* Walk a buffer of ELF notes: CPU registers, VMCOREINFO, "QEMU". */
static struct oc_error *parse_notes(struct oc_dump *dump,
				    const unsigned char *buf, size_t size,
				    const char **vmcoreinfo, size_t *vmcoreinfo_len)
{
	size_t pos = 0;

	while (size - pos >= sizeof(Elf64_Nhdr)) {
		Elf64_Nhdr nh;
		size_t namesz, descsz;
		const char *name;
		const unsigned char *desc;
		struct oc_error *err;

		memcpy(&nh, buf + pos, sizeof(nh));
		pos += sizeof(nh);
		namesz = (nh.n_namesz + 3) & ~(size_t)3;
		descsz = (nh.n_descsz + 3) & ~(size_t)3;
		if (!nh.n_namesz && !nh.n_descsz && !nh.n_type)
			break;	/* padding at the end of a kdump note area */
		if (namesz > size - pos || descsz > size - pos - namesz)
			return oc_error_file(OC_ERR_FORMAT, dump->path,
					     "truncated ELF note at offset %zu of the note area",
					     pos - sizeof(nh));
		name = (const char *)buf + pos;
		desc = buf + pos + namesz;
		pos += namesz + descsz;

		if (nh.n_namesz == 5 && !memcmp(name, "CORE", 5) &&
		    nh.n_type == NT_PRSTATUS) {
			err = add_cpu_note(dump, desc, nh.n_descsz);
			if (err)
				return err;
		} else if (nh.n_namesz == 5 && !memcmp(name, "QEMU", 5)) {
			/* QEMU's per-CPU state note (target/i386/arch_dump.c) */
			dump->qemu = true;
		} else if (nh.n_namesz == 11 && !memcmp(name, "VMCOREINFO", 11)) {
			*vmcoreinfo = (const char *)desc;
			*vmcoreinfo_len = nh.n_descsz;
		}
	}
	return NULL;
}

static struct oc_error *read_notes_at(struct oc_dump *dump, int fd,
				      uint64_t off, uint64_t size)
{
	const char *vmci = NULL;
	size_t vmci_len = 0;
	unsigned char *buf;
	struct oc_error *err;

	if (!size)
		return NULL;
	if (size > MAX_NOTES_SIZE)
		return oc_error_file(OC_ERR_FORMAT, dump->path,
				     "note area of %" PRIu64 " bytes", size);
	buf = malloc(size);
	if (!buf)
		return &oc_enomem;
	err = pread_all(dump, fd, buf, size, off, "note area");
	if (!err)
		err = parse_notes(dump, buf, size, &vmci, &vmci_len);
	if (!err && vmci && !dump->vmcoreinfo)
		err = set_vmcoreinfo(dump, vmci, vmci_len);
	free(buf);
	return err;
}

static struct oc_error *read_elf_notes(struct oc_dump *dump, int fd,
				       uint64_t file_size)
{
	Elf64_Ehdr eh;
	struct oc_error *err;

	dump->file_size = file_size;
	err = pread_all(dump, fd, &eh, sizeof(eh), 0, "ELF header");
	if (err)
		return err;
	if (eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB)
		return oc_error_file(OC_ERR_UNSUPPORTED, dump->path,
				     "not a little-endian 64-bit ELF file");
	if (eh.e_type != ET_CORE)
		return oc_error_file(OC_ERR_FORMAT, dump->path,
				     "ELF file is not a core dump (e_type %u)",
				     eh.e_type);
	if (eh.e_machine != EM_X86_64)
		return oc_error_file(OC_ERR_UNSUPPORTED, dump->path,
				     "ELF machine %u is not x86-64", eh.e_machine);
	/*
	 * libkdumpfile 0.5.1 trusts the section headers (with e_shnum 0,
	 * section 0's sh_size is the count): check them before it reads.
	 */
	if (eh.e_shoff || eh.e_shnum) {
		uint64_t shnum = eh.e_shnum;
		Elf64_Shdr sh0;

		if (!eh.e_shoff || eh.e_shentsize != sizeof(Elf64_Shdr) ||
		    eh.e_shoff > file_size ||
		    file_size - eh.e_shoff < sizeof(sh0))
			return oc_error_file(OC_ERR_FORMAT, dump->path,
					     "bad ELF section headers");
		if (!shnum || eh.e_phnum == PN_XNUM) {
			err = pread_all(dump, fd, &sh0, sizeof(sh0), eh.e_shoff,
					"section header");
			if (err)
				return err;
			if (!shnum)
				shnum = sh0.sh_size;
		}
		if (shnum > (file_size - eh.e_shoff) / sizeof(Elf64_Shdr) ||
		    (eh.e_shstrndx != SHN_UNDEF && eh.e_shstrndx != SHN_XINDEX &&
		     eh.e_shstrndx >= shnum))
			return oc_error_file(OC_ERR_FORMAT, dump->path,
					     "truncated or bad ELF section headers");
		/* it also mallocs and reads each section's sh_size (a 9 KB
		 * file with a 20 GB .shstrtab took 18 GB and never ended;
		 * found by fuzz_dump).  A section merely past the end is a
		 * truncated dump (QEMU writes one at the very end): that one
		 * is left to the reads, which say "truncated". */
		for (uint64_t i = 1; i < shnum; i++) {
			Elf64_Shdr sh;

			err = pread_all(dump, fd, &sh, sizeof(sh),
					eh.e_shoff + i * sizeof(sh),
					"section header");
			if (err)
				return err;
			if (sh.sh_type != SHT_NOBITS && sh.sh_size > file_size)
				return oc_error_file(OC_ERR_FORMAT, dump->path,
						     "ELF section %" PRIu64 " claims %" PRIu64 " bytes, more than the whole file",
						     i, (uint64_t)sh.sh_size);
		}
	}
	if (eh.e_phnum == PN_XNUM)
		return oc_error_file(OC_ERR_UNSUPPORTED, dump->path,
				     "more than 65534 ELF program headers");
	if (eh.e_phentsize != sizeof(Elf64_Phdr) || !eh.e_phnum ||
	    eh.e_phoff > file_size ||
	    (uint64_t)eh.e_phnum * sizeof(Elf64_Phdr) > file_size - eh.e_phoff)
		return oc_error_file(OC_ERR_FORMAT, dump->path,
				     "truncated or bad ELF program headers");
	for (unsigned int i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr ph;

		err = pread_all(dump, fd, &ph, sizeof(ph),
				eh.e_phoff + i * sizeof(ph), "program header");
		if (err)
			return err;
		if (ph.p_type == PT_LOAD && ph.p_memsz &&
		    ph.p_paddr + ph.p_memsz > ph.p_paddr) {
			struct phys_range *r;

			r = realloc(dump->loads,
				    (dump->nr_loads + 1) * sizeof(*r));
			if (!r)
				return &oc_enomem;
			dump->loads = r;
			r[dump->nr_loads++] = (struct phys_range){
				ph.p_paddr, ph.p_paddr + ph.p_memsz, ph.p_vaddr,
				ph.p_paddr + ph.p_memsz };
			/* p_filesz bytes at p_offset; the rest of p_memsz is
			 * zeros by definition */
			if (ph.p_filesz <= ph.p_memsz &&
			    ph.p_offset + ph.p_filesz >= ph.p_offset) {
				uint64_t have = ph.p_offset >= file_size ? 0 :
					file_size - ph.p_offset;

				if (ph.p_offset + ph.p_filesz > dump->file_needed)
					dump->file_needed = ph.p_offset + ph.p_filesz;
				if (have < ph.p_filesz)
					r[dump->nr_loads - 1].cut =
						ph.p_paddr + have;
			}
		}
		if (ph.p_type != PT_NOTE)
			continue;
		if (ph.p_offset > file_size || ph.p_filesz > file_size - ph.p_offset)
			return oc_error_file(OC_ERR_FORMAT, dump->path,
					     "truncated ELF note segment");
		err = read_notes_at(dump, fd, ph.p_offset, ph.p_filesz);
		if (err)
			return err;
	}
	return NULL;
}

/* [off, off + size) lies inside a file of @file_size bytes */
static bool in_file(uint64_t off, uint64_t size, uint64_t file_size)
{
	return off <= file_size && size <= file_size - off;
}

/*
 * Check what libkdumpfile 0.5.1 would trust (it allocates the bitmaps
 * and VMCOREINFO by these sizes), then read the notes.
 */
/*
 * How long a kdump-compressed file should be: its page descriptors
 * follow the bitmaps, one per page set in the second (dump) bitmap, and
 * makedumpfile writes the pages' data in pfn order behind them, so the
 * last descriptor's data ends the page data.  libkdumpfile fails reads
 * past the end of a cut file by itself; this only lets the report say
 * that the file was cut.  Best effort: 0 if anything is unreadable.
 */
static uint64_t kdump_needed_size(struct oc_dump *dump, int fd,
				  uint64_t bitmap_off, uint64_t bitmap_len,
				  uint64_t nbits, uint64_t desc_off)
{
	unsigned char buf[65536];
	uint64_t pages = 0, len = (nbits + 7) / 8, end, data_off;
	uint32_t data_size;
	struct oc_error *err;

	if (len > bitmap_len)
		len = bitmap_len;
	for (uint64_t done = 0; done < len;) {
		size_t n = len - done < sizeof(buf) ? (size_t)(len - done) :
			   sizeof(buf);

		err = pread_all(dump, fd, buf, n, bitmap_off + done, "bitmap");
		if (err) {
			oc_error_destroy(err);
			return 0;
		}
		for (size_t i = 0; i < n; i++) {
			unsigned char b = buf[i];

			/* bits past max_mapnr in the last byte */
			if (done + i == len - 1 && nbits % 8)
				b &= (unsigned char)((1u << (nbits % 8)) - 1);
			pages += (uint64_t)__builtin_popcount(b);
		}
		done += n;
	}
	end = desc_off + pages * KDUMP_PAGE_DESC_SIZE;
	if (!pages || end > dump->file_size)
		return end;
	/*
	 * Zero pages all point at one block written first, right behind
	 * the descriptors: the last descriptor of another page ends the
	 * data.  Backwards, a chunk at a time, for at most 16 MiB.
	 */
	for (uint64_t at = end, seen = 0; at > desc_off && seen < (16u << 20);) {
		size_t n = at - desc_off < sizeof(buf) ? (size_t)(at - desc_off) :
			   sizeof(buf) / KDUMP_PAGE_DESC_SIZE * KDUMP_PAGE_DESC_SIZE;

		err = pread_all(dump, fd, buf, n, at - n, "page descriptors");
		if (err) {
			oc_error_destroy(err);
			return 0;
		}
		for (size_t i = n; i >= KDUMP_PAGE_DESC_SIZE;
		     i -= KDUMP_PAGE_DESC_SIZE) {
			memcpy(&data_off, buf + i - KDUMP_PAGE_DESC_SIZE, 8);
			memcpy(&data_size,
			       buf + i - KDUMP_PAGE_DESC_SIZE + 8, 4);
			if (data_off == end)
				continue;	/* the zero page */
			/* a garbled descriptor is libkdumpfile's to report */
			if (data_off < end || data_off + data_size < data_off)
				return end;
			return data_off + data_size;
		}
		at -= n;
		seen += n;
	}
	return end;
}

static struct oc_error *read_kdump_notes(struct oc_dump *dump, int fd,
					 uint64_t file_size)
{
	unsigned char hdr[KDUMP_HDR_MIN], sub[KDUMP_SUB_MIN];
	int32_t version, block_size, sub_hdr_size, bitmap_blocks;
	uint32_t max_mapnr;
	uint64_t off_note, size_note, off_vmci, size_vmci, bitmap_bits;
	uint64_t off_erase, size_erase, max_mapnr_64;
	struct oc_error *err;

	err = pread_all(dump, fd, hdr, sizeof(hdr), 0, "kdump header");
	if (err)
		return err;
	dump->file_size = file_size;
	memcpy(&version, hdr + KDUMP_HDR_VERSION, 4);
	memcpy(&block_size, hdr + KDUMP_HDR_BLOCK_SIZE, 4);
	memcpy(&sub_hdr_size, hdr + KDUMP_HDR_SUB_HDR_SIZE, 4);
	memcpy(&bitmap_blocks, hdr + KDUMP_HDR_BITMAP_BLOCKS, 4);
	memcpy(&max_mapnr, hdr + KDUMP_HDR_MAX_MAPNR, 4);
	if (block_size < 512 || block_size > (1 << 20) ||
	    (block_size & (block_size - 1)))
		return oc_error_file(OC_ERR_FORMAT, dump->path,
				     "bad kdump block size %d", block_size);
	/* makedumpfile writes 6 (since 1.5.0); 1 is the old diskdump */
	if (version < 1 || version > 16)
		return oc_error_file(OC_ERR_UNSUPPORTED, dump->path,
				     "kdump header version %d", version);
	if (sub_hdr_size < 0 || bitmap_blocks <= 0 || (bitmap_blocks & 1) ||
	    !in_file(0, (1 + (uint64_t)sub_hdr_size + bitmap_blocks) * block_size,
		     file_size))
		return oc_error_file(OC_ERR_FORMAT, dump->path,
				     "truncated or bad kdump header (sub-header %d blocks, bitmaps %d blocks of %d bytes)",
				     sub_hdr_size, bitmap_blocks, block_size);
	/* two bitmaps, one bit per page frame */
	bitmap_bits = (uint64_t)bitmap_blocks * block_size / 2 * 8;
	if (max_mapnr > bitmap_bits)
		return oc_error_file(OC_ERR_FORMAT, dump->path,
				     "kdump max_mapnr %u exceeds its bitmap (%" PRIu64 " pages)",
				     max_mapnr, bitmap_bits);
	{
		uint32_t status;
		uint64_t bitmap_off = (1 + (uint64_t)sub_hdr_size) * block_size,
			 half = (uint64_t)bitmap_blocks * block_size / 2, nbits;

		memcpy(&status, hdr + KDUMP_HDR_STATUS, 4);
		dump->incomplete = status & KDUMP_DH_COMPRESSED_INCOMPLETE;
		/* max_mapnr_64 (version 6) when the 32-bit field is too
		 * small; the bitmap's own size bounds it either way */
		nbits = bitmap_bits;
		if (version < 6 && max_mapnr)
			nbits = max_mapnr;
		dump->file_needed = kdump_needed_size(dump, fd,
						       bitmap_off + half, half,
						       nbits,
						       bitmap_off + 2 * half);
	}
	if (version < 3)
		return NULL;	/* no VMCOREINFO before version 3, no notes before 4 */
	if (!sub_hdr_size)
		return oc_error_file(OC_ERR_FORMAT, dump->path,
				     "kdump header version %d without a sub-header",
				     version);
	err = pread_all(dump, fd, sub, sizeof(sub), block_size,
			"kdump sub-header");
	if (err)
		return err;
	memcpy(&off_vmci, sub + KDUMP_SUB_OFFSET_VMCOREINFO, 8);
	memcpy(&size_vmci, sub + KDUMP_SUB_SIZE_VMCOREINFO, 8);
	memcpy(&off_note, sub + KDUMP_SUB_OFFSET_NOTE, 8);
	memcpy(&size_note, sub + KDUMP_SUB_SIZE_NOTE, 8);
	memcpy(&off_erase, sub + KDUMP_SUB_OFFSET_ERASEINFO, 8);
	memcpy(&size_erase, sub + KDUMP_SUB_SIZE_ERASEINFO, 8);
	memcpy(&max_mapnr_64, sub + KDUMP_SUB_MAX_MAPNR_64, 8);
	if (!in_file(off_vmci, size_vmci, file_size) ||
	    size_vmci > MAX_NOTES_SIZE)
		return oc_error_file(OC_ERR_FORMAT, dump->path,
				     "kdump VMCOREINFO (%" PRIu64 " bytes at %" PRIu64 ") is past the end of the file",
				     size_vmci, off_vmci);
	if (size_vmci) {	/* libkdumpfile parses it: check it first */
		char *vmci = malloc(size_vmci);

		if (!vmci)
			return &oc_enomem;
		err = pread_all(dump, fd, vmci, size_vmci, off_vmci,
				"kdump VMCOREINFO");
		if (!err)
			err = check_vmcoreinfo_keys(dump, vmci, size_vmci);
		free(vmci);
		if (err)
			return err;
	}
	if (version < 4)
		return NULL;
	if (!in_file(off_note, size_note, file_size))
		return oc_error_file(OC_ERR_FORMAT, dump->path,
				     "kdump note area (%" PRIu64 " bytes at %" PRIu64 ") is past the end of the file",
				     size_note, off_note);
	if (version >= 5 && !in_file(off_erase, size_erase, file_size))
		return oc_error_file(OC_ERR_FORMAT, dump->path,
				     "kdump eraseinfo (%" PRIu64 " bytes at %" PRIu64 ") is past the end of the file",
				     size_erase, off_erase);
	if (version >= 6 && max_mapnr_64 > bitmap_bits)
		return oc_error_file(OC_ERR_FORMAT, dump->path,
				     "kdump max_mapnr_64 %" PRIu64 " exceeds its bitmap (%" PRIu64 " pages)",
				     max_mapnr_64, bitmap_bits);
	return read_notes_at(dump, fd, off_note, size_note);
}

/* ------------------------------------------------------------------ */
/* Opening                                                             */

static struct oc_error *reassemble_flat(struct oc_dump *dump, uint64_t size)
{
	struct oc_flat_index index;
	struct oc_error *err;
	int fd = -1;

	err = oc_flat_index(oc_flat_read_fd, &dump->fd, size, &index);
	if (err)
		return oc_error_set_path(err, dump->path);
	/* big dumps go to a sparse, already-unlinked file on disk */
	if (index.out_size <= FLAT_MEMFD_MAX)
		fd = memfd_create("orccrash-flat", MFD_CLOEXEC);
	if (fd < 0) {
		const char *dir = getenv("TMPDIR");

		fd = open(dir && *dir ? dir : "/var/tmp",
			  O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
		if (fd < 0 && index.out_size > FLAT_MEMFD_MAX)
			fd = memfd_create("orccrash-flat", MFD_CLOEXEC);
	}
	if (fd < 0) {
		err = oc_error_os(errno, dump->path,
				  "cannot create a file to reassemble the flattened dump into (memfd_create, O_TMPFILE in $TMPDIR or /var/tmp)");
		goto out;
	}
	err = oc_flat_reassemble(dump->fd, &index, fd);
	if (err) {
		close(fd);
		err = oc_error_set_path(err, dump->path);
		goto out;
	}
	dump->view_fd = fd;
out:
	oc_flat_index_deinit(&index);
	return err;
}

enum oc_file_kind oc_dump_sniff(const char *path)
{
	unsigned char head[sizeof(Elf64_Ehdr)] = { 0 };
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)head;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return OC_FILE_OTHER;
	n = pread(fd, head, sizeof(head), 0);
	close(fd);
	if (n < 16)
		return OC_FILE_OTHER;
	if (!memcmp(head, "KDUMP   ", 8) || !memcmp(head, "DISKDUMP", 8) ||
	    oc_flat_detect(head, (size_t)n))
		return OC_FILE_DUMP;
	if (memcmp(head, ELFMAG, SELFMAG) || n < (ssize_t)sizeof(*eh) ||
	    head[EI_CLASS] != ELFCLASS64 || head[EI_DATA] != ELFDATA2LSB)
		return OC_FILE_OTHER;
	if (le16toh(eh->e_type) == ET_CORE)
		return OC_FILE_DUMP;
	if (le16toh(eh->e_type) == ET_EXEC && le16toh(eh->e_machine) == EM_X86_64)
		return OC_FILE_KERNEL;
	return OC_FILE_OTHER;
}

enum dump_kind { KIND_ELF, KIND_KDUMP };

static struct oc_error *detect(struct oc_dump *dump, int fd, uint64_t size,
			       enum dump_kind *ret)
{
	unsigned char head[16] = { 0 };
	struct oc_error *err;

	if (size == 0)
		return oc_error_file(OC_ERR_FORMAT, dump->path, "empty file");
	err = pread_all(dump, fd, head, size < 16 ? size : 16, 0, "header");
	if (err)
		return err;
	if (!memcmp(head, ELFMAG, SELFMAG)) {
		if (size < sizeof(Elf64_Ehdr))
			return oc_error_file(OC_ERR_FORMAT, dump->path,
					     "truncated ELF header");
		*ret = KIND_ELF;
		return NULL;
	}
	if (!memcmp(head, "KDUMP   ", 8) || !memcmp(head, "DISKDUMP", 8)) {
		if (size < KDUMP_HDR_MIN)
			return oc_error_file(OC_ERR_FORMAT, dump->path,
					     "truncated kdump header");
		*ret = KIND_KDUMP;
		return NULL;
	}
	if (oc_flat_detect(head, sizeof(head)))
		return oc_error_file(OC_ERR_FORMAT, dump->path,
				     "flattened dump holds neither an ELF nor a kdump-compressed file");
	return oc_error_file(OC_ERR_FORMAT, dump->path,
			     "not a crash dump (no ELF, KDUMP or makedumpfile signature)");
}

static struct oc_error *open_kdump(struct oc_dump *dump, int fd)
{
	kdump_status st;
	const char *arch = NULL;
	kdump_num_t page_size;

	dump->ctx = kdump_new();
	if (!dump->ctx)
		return &oc_enomem;
	st = kdump_set_string_attr(dump->ctx, KDUMP_ATTR_OSTYPE, "linux");
	if (st != KDUMP_OK)
		return kdump_error(dump, "kdump_set_attr(addrxlat.ostype)");
	/*
	 * Even physical reads fail ("Cannot determine 5-level paging")
	 * when libkdumpfile cannot set up its own translation, e.g. for an
	 * ELF file with kernel-text segments but no
	 * NUMBER(pgtable_l5_enabled).  48 bits is only its fallback.
	 */
	st = kdump_set_number_attr(dump->ctx, KDUMP_ATTR_XLAT_DEFAULT ".virt_bits",
				   48);
	if (st != KDUMP_OK)
		return kdump_error(dump, "kdump_set_attr(addrxlat.default.virt_bits)");
	/*
	 * read(2), not mmap(2): a segment that runs past the end of a
	 * truncated or corrupted file must be a failed read, not SIGBUS.
	 */
	st = kdump_set_number_attr(dump->ctx, KDUMP_ATTR_FILE_MMAP_POLICY,
				   KDUMP_MMAP_NEVER);
	if (st != KDUMP_OK)
		return kdump_error(dump, "kdump_set_attr(file.mmap_policy)");
	st = kdump_open_fd(dump->ctx, fd);
	if (st != KDUMP_OK)
		return kdump_error(dump, "kdump_open");
	/*
	 * libkdumpfile's own cache stays at its default (1024 pages), though
	 * it searches it linearly on every read (a third of --all-tasks' CPU
	 * time on a 10,000-task dump, docs/benchmarks.md): with 64 entries,
	 * a failed read of an excluded page of a kdump-compressed file left
	 * a cache slot behind that made later reads of good pages fail with
	 * "Decompresion failed: error -2" (libkdumpfile 0.5.1; seen on the
	 * 6.12 real-kdump sample, whose makedumpfile excluded slab pages).
	 */
	/* QEMU's kdump-compressed files may not name the architecture */
	if (kdump_get_string_attr(dump->ctx, KDUMP_ATTR_ARCH_NAME, &arch) !=
	    KDUMP_OK || !arch) {
		kdump_clear_err(dump->ctx);
		st = kdump_set_string_attr(dump->ctx, KDUMP_ATTR_ARCH_NAME,
					   "x86_64");
		if (st != KDUMP_OK)
			return kdump_error(dump, "kdump_set_attr(arch.name)");
	} else if (strcmp(arch, "x86_64")) {
		return oc_error_file(OC_ERR_UNSUPPORTED, dump->path,
				     "a %s dump; only x86_64 is supported", arch);
	}
	st = kdump_get_number_attr(dump->ctx, KDUMP_ATTR_PAGE_SIZE, &page_size);
	if (st == KDUMP_OK && page_size != PAGE_SIZE)
		return oc_error_file(OC_ERR_UNSUPPORTED, dump->path,
				     "page size %llu (want 4096)",
				     (unsigned long long)page_size);
	kdump_clear_err(dump->ctx);
	return NULL;
}

static struct oc_error *vmcoreinfo_from_kdump(struct oc_dump *dump)
{
	char *raw = NULL;
	struct oc_error *err;

	if (dump->vmcoreinfo)
		return NULL;
	if (kdump_vmcoreinfo_raw(dump->ctx, &raw) != KDUMP_OK || !raw) {
		kdump_clear_err(dump->ctx);
		return NULL;	/* none: oc_dump_vmcoreinfo() says NULL */
	}
	err = set_vmcoreinfo(dump, raw, strlen(raw));
	free(raw);
	return err;
}

/* libkdumpfile's cpu.N.PRSTATUS, when we found no notes ourselves. */
static struct oc_error *notes_from_kdump(struct oc_dump *dump)
{
	kdump_num_t n;

	if (dump->nr_notes ||
	    kdump_get_number_attr(dump->ctx, KDUMP_ATTR_NUM_CPUS, &n) != KDUMP_OK) {
		kdump_clear_err(dump->ctx);
		return NULL;
	}
	for (kdump_num_t i = 0; i < n && i < MAX_CPU_NOTES; i++) {
		char key[64];
		kdump_attr_t attr;
		struct oc_error *err;

		snprintf(key, sizeof(key), "cpu.%llu.PRSTATUS",
			 (unsigned long long)i);
		if (kdump_get_typed_attr(dump->ctx, key, &attr) != KDUMP_OK ||
		    attr.type != KDUMP_BLOB) {
			kdump_clear_err(dump->ctx);
			continue;
		}
		err = add_cpu_note(dump, kdump_blob_pin(attr.val.blob),
				   kdump_blob_size(attr.val.blob));
		kdump_blob_unpin(attr.val.blob);
		if (err)
			return err;
	}
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
static bool phys_base_from_loads(const struct oc_dump *dump, uint64_t *ret)
{
	for (size_t i = 0; i < dump->nr_loads; i++) {
		const struct phys_range *r = &dump->loads[i];

		if (r->vaddr >= OC_START_KERNEL_MAP &&
		    r->vaddr < OC_START_KERNEL_MAP + (1ULL << 30)) {
			*ret = r->start - (r->vaddr - OC_START_KERNEL_MAP);
			return true;
		}
	}
	return false;
}

/*
 * The page walk needs the top-level table and where the kernel image
 * is in physical memory.  VMCOREINFO has both since 4.13
 * (SYMBOL(init_top_pgt); swapper_pg_dir before), NUMBER(phys_base)
 * since 4.10 (printed with %ld: negative under KASLR when the kernel
 * sits below its link address) and NUMBER(pgtable_l5_enabled) since
 * 4.17.
 */
static void setup_walk(struct oc_dump *dump)
{
	uint64_t top, l5 = 0;
	struct oc_error *err;

	err = oc_dump_vmcoreinfo_u64(dump, "SYMBOL(init_top_pgt)", &top);
	if (err) {
		oc_error_destroy(err);
		err = oc_dump_vmcoreinfo_u64(dump, "SYMBOL(swapper_pg_dir)", &top);
	}
	if (err) {
		oc_error_destroy(err);
		return;
	}
	err = oc_dump_vmcoreinfo_u64(dump, "NUMBER(phys_base)", &dump->phys_base);
	if (err) {
		oc_error_destroy(err);
		if (!phys_base_from_loads(dump, &dump->phys_base))
			return;
	}
	err = oc_dump_vmcoreinfo_u64(dump, "NUMBER(pgtable_l5_enabled)", &l5);
	oc_error_destroy(err);	/* absent: 4-level */
	if (top < OC_START_KERNEL_MAP)
		return;
	err = oc_pgwalk_init(&dump->walk, walk_read_phys, dump,
			     top - OC_START_KERNEL_MAP + dump->phys_base,
			     l5 ? 5 : 4);
	if (err) {
		oc_error_destroy(err);
		return;
	}
	dump->use_walk = true;
}

struct oc_error *oc_dump_open(const char *path, struct oc_dump **ret)
{
	struct oc_dump *dump;
	struct oc_error *err;
	enum dump_kind kind = KIND_ELF;
	struct stat st;
	int fd;

	dump = calloc(1, sizeof(*dump));
	if (!dump)
		return &oc_enomem;
	dump->fd = dump->view_fd = -1;
	dump->path = strdup(path);
	dump->pcache = calloc(PCACHE_PAGES, sizeof(*dump->pcache));
	if (!dump->path || !dump->pcache) {
		err = &oc_enomem;
		goto fail;
	}
	dump->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (dump->fd < 0) {
		err = oc_error_os(errno, path, "open");
		goto fail;
	}
	if (fstat(dump->fd, &st) < 0) {
		err = oc_error_os(errno, path, "fstat");
		goto fail;
	}
	if (S_ISDIR(st.st_mode)) {
		err = oc_error_file(OC_ERR_FORMAT, path, "is a directory");
		goto fail;
	}
	fd = dump->fd;
	if (st.st_size >= 16) {
		unsigned char head[16];

		err = pread_all(dump, fd, head, sizeof(head), 0, "header");
		if (err)
			goto fail;
		if (oc_flat_detect(head, sizeof(head))) {
			err = reassemble_flat(dump, st.st_size);
			if (err)
				goto fail;
			fd = dump->view_fd;
			if (fstat(fd, &st) < 0) {
				err = oc_error_os(errno, path, "fstat");
				goto fail;
			}
		}
	}
	err = detect(dump, fd, st.st_size, &kind);
	if (err)
		goto fail;
	if (kind == KIND_ELF) {
		/* makedumpfile -E -F flattens ELF output too */
		dump->format = dump->view_fd >= 0 ? "flattened elf" : "elf";
		err = read_elf_notes(dump, fd, st.st_size);
	} else {
		dump->format = dump->view_fd >= 0 ? "flattened kdump-compressed"
						  : "kdump-compressed";
		err = read_kdump_notes(dump, fd, st.st_size);
	}
	if (err)
		goto fail;
	err = open_kdump(dump, fd);
	if (!err)
		err = vmcoreinfo_from_kdump(dump);
	if (!err)
		err = notes_from_kdump(dump);
	if (err)
		goto fail;
	setup_walk(dump);
	*ret = dump;
	return NULL;
fail:
	oc_dump_close(dump);
	return err;
}

void oc_dump_close(struct oc_dump *dump)
{
	if (!dump)
		return;
	if (dump->ctx)
		kdump_free(dump->ctx);
	if (dump->view_fd >= 0)
		close(dump->view_fd);
	if (dump->fd >= 0)
		close(dump->fd);
	free(dump->pcache);
	free(dump->notes);
	free(dump->loads);
	free(dump->vmcoreinfo);
	free(dump->vmcoreinfo_lines);
	free(dump->path);
	free(dump);
}

const char *oc_dump_format_name(const struct oc_dump *dump)
{
	return dump->format;
}

const char *oc_dump_path(const struct oc_dump *dump)
{
	return dump->path;
}

bool oc_dump_is_qemu(const struct oc_dump *dump)
{
	return dump->qemu;
}

bool oc_dump_has_page_walk(const struct oc_dump *dump)
{
	return dump->use_walk;
}

bool oc_dump_incomplete(const struct oc_dump *dump)
{
	return dump->incomplete;
}

bool oc_dump_truncated(const struct oc_dump *dump, uint64_t *size_ret,
		       uint64_t *needed_ret)
{
	if (dump->file_needed <= dump->file_size)
		return false;
	*size_ret = dump->file_size;
	*needed_ret = dump->file_needed;
	return true;
}

size_t oc_dump_nr_cpu_notes(const struct oc_dump *dump)
{
	return dump->nr_notes;
}

const struct oc_dump_cpu_note *oc_dump_cpu_note(const struct oc_dump *dump,
						size_t i)
{
	return i < dump->nr_notes ? &dump->notes[i] : NULL;
}
