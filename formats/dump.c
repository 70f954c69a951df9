// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Crash dumps over libkdumpfile (Debian's 0.5.1): ELF vmcores,
 * kdump-compressed files and makedumpfile's flattened format, which we
 * reassemble into an anonymous file first (formats/flat.c).
 *
 * This file opens the dump and reads it: physical pages (kept in
 * formats/pcache.c) come from an ELF file's segments or a kdump file's
 * page descriptors (formats/dump_elf.c, formats/dump_kdump.c), kernel
 * virtual addresses go through our own page-table walk (formats/pgwalk.c)
 * from VMCOREINFO's init_top_pgt and phys_base.  What we take from the
 * headers ourselves (notes in file order, the ELF segments, a cut or
 * incomplete file) comes from those files first (dumppriv.h).
 *
 * libkdumpfile is the fallback for the rest: files our readers leave to
 * it (need_kdumpfile()), notes or VMCOREINFO we did not find, KVADDR
 * reads without the page walk.  It is opened with dlopen() (formats/dl.h)
 * only then: with libaddrxlat, libsnappy and libstdc++ behind it, it was
 * half of what ld.so mapped and relocated at every start, ~3.5 ms of a
 * sample's 35 ms --all-tasks (docs/benchmarks.md).
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libkdumpfile/kdumpfile.h>

#include "cursor.h"
#include "dl.h"
#include "dump.h"
#include "fileopen.h"
#include "dumppriv.h"
#include "flat.h"
#include "pcache.h"
#include "pgwalk.h"
#include "vmcoreinfo.h"

enum {
	PAGE_SIZE = OC_PCACHE_PAGE_SIZE,
	PCACHE_PAGES = 32,	/* physical pages kept (decompressed) */
	/* flattened dumps above this size are reassembled on disk, not in RAM */
	FLAT_MEMFD_MAX = 1 << 30,
	NR_BAD_PFN = 64,
};

struct oc_dump {
	char *path;
	int fd;			/* the file we were given */
	int view_fd;		/* the reassembled flattened dump, or -1 */
	kdump_ctx_t *ctx;	/* libkdumpfile's, NULL until needed */
	bool ctx_broken;	/* see kdump_error(): never kdump_free()d */
	/* the open of libkdumpfile's context after ours failed: its error's
	 * code and message (the path is the dump's) */
	bool ctx_failed;
	enum oc_error_code ctx_code;
	char ctx_why[256];
	const char *format;
	struct oc_dump_hdr hdr;

	/* virtual addresses */
	bool use_walk;		/* false: libkdumpfile's KVADDR reads */
	struct oc_pgwalk walk;
	uint64_t phys_base;

	struct oc_pcache *pcache;
	/* a second reader made by oc_dump_clone(): hdr is the first's */
	bool clone;
	bool elf_own_reads;	/* oc_dump_hdr_elf_reads_own() */
	/* a kdump-compressed file's pages, when hdr.rank is set */
	struct oc_kdump_pager *pager;
	/*
	 * The last pages found missing: excluded by the kdump file's
	 * bitmap (never asked of libkdumpfile, see fill_page()), or pages
	 * libkdumpfile could not read, never asked for again.  Read by
	 * oc_kmodel_explain_missing() through oc_dump_missing_pfns().
	 */
	uint64_t bad_pfn[NR_BAD_PFN];
	unsigned int nr_bad_pfn;
};

/* the static inline ones of <libkdumpfile/kdumpfile.h> (kdump_open_fd,
 * kdump_set_number_attr, ...) call these: see the wrappers below.
 * dlsym() finds libaddrxlat's through libkdumpfile's dependencies. */
#define KDUMPFILE_FNS(X)						\
	X(kdump_new) X(kdump_free) X(kdump_open_fdset) X(kdump_set_attr)	\
	X(kdump_get_typed_attr) X(kdump_read) X(kdump_get_err)		\
	X(kdump_clear_err) X(kdump_vmcoreinfo_raw) X(kdump_blob_pin)	\
	X(kdump_blob_unpin) X(kdump_blob_size) X(kdump_get_addrxlat)	\
	X(addrxlat_fulladdr_conv) X(addrxlat_ctx_get_err)		\
	X(addrxlat_ctx_decref) X(addrxlat_sys_decref)
OC_DL_DEFINE(kf, OC_KDUMPFILE_SONAME, KDUMPFILE_FNS);

static kdump_status set_number(kdump_ctx_t *ctx, const char *key,
			       kdump_num_t num)
{
	kdump_attr_t attr = { .type = KDUMP_NUMBER, .val.number = num };

	return kf.kdump_set_attr(ctx, key, &attr);
}

static kdump_status set_string(kdump_ctx_t *ctx, const char *key,
			       const char *str)
{
	kdump_attr_t attr = { .type = KDUMP_STRING, .val.string = str };

	return kf.kdump_set_attr(ctx, key, &attr);
}

static kdump_status get_number(kdump_ctx_t *ctx, const char *key,
			       kdump_num_t *num)
{
	kdump_attr_t attr = { .type = KDUMP_NUMBER };
	kdump_status st = kf.kdump_get_typed_attr(ctx, key, &attr);

	if (st == KDUMP_OK)
		*num = attr.val.number;
	return st;
}

static kdump_status get_string(kdump_ctx_t *ctx, const char *key,
			       const char **str)
{
	kdump_attr_t attr = { .type = KDUMP_STRING };
	kdump_status st = kf.kdump_get_typed_attr(ctx, key, &attr);

	if (st == KDUMP_OK)
		*str = attr.val.string;
	return st;
}

static struct oc_error *kdump_error(struct oc_dump *dump, const char *call)
{
	/*
	 * An allocation failed inside libkdumpfile (0.5.1): its context is
	 * then half made, and kdump_free() of it crashes (found by
	 * tests/corrupt/oom.sh).  Such a context is left to the exit.
	 */
	if (errno == ENOMEM) {
		dump->ctx_broken = true;
		return &oc_enomem;
	}
	return oc_error_file(OC_ERR_FORMAT, dump->path, "%s: %s", call,
			     kf.kdump_get_err(dump->ctx));
}

/* ------------------------------------------------------------------ */
/* Physical reads, behind formats/pcache.c: from an ELF file's         */
/* segments or a kdump file's descriptors (dump_elf.c, dump_kdump.c),  */
/* else libkdumpfile's                                                  */

static bool is_bad_pfn(const struct oc_dump *dump, uint64_t pfn)
{
	for (unsigned int i = 0; i < dump->nr_bad_pfn && i < NR_BAD_PFN; i++)
		if (dump->bad_pfn[i] == pfn)
			return true;
	return false;
}

/* Remember @pfn as missing (once): oc_dump_missing_pfns() */
static void add_bad_pfn(struct oc_dump *dump, uint64_t pfn)
{
	if (!is_bad_pfn(dump, pfn))
		dump->bad_pfn[dump->nr_bad_pfn++ % NR_BAD_PFN] = pfn;
}

static struct oc_error *ctx_ready(struct oc_dump *dump);

static struct oc_error *fill_page(void *arg, uint64_t pfn,
				  unsigned char *page)
{
	struct oc_dump *dump = arg;
	uint64_t paddr = pfn * PAGE_SIZE;
	const char *missing = oc_dump_hdr_elf_page_missing(&dump->hdr, paddr);
	size_t len = PAGE_SIZE;
	struct oc_error *err;

	/*
	 * A page the kdump file's bitmap leaves out is never asked of
	 * libkdumpfile: in 0.5.1 a read of an excluded page ("Excluded
	 * page") leaves its page cache in a state in which later reads of
	 * pages that are in the file fail ("Decompresion failed: error
	 * -2"), so what a reader could read depended on what it had read
	 * before (seen on the 7.2 bench dump made by makedumpfile -d 31:
	 * init_task's stack unreadable after the open's reads, readable in
	 * a fresh process).
	 */
	if (!missing && (missing = oc_dump_hdr_kdump_page_missing(&dump->hdr, paddr)))
		add_bad_pfn(dump, pfn);
	if (missing)
		return oc_error_fault(paddr,
				      "physical address 0x%" PRIx64 " not in the dump (%s)",
				      paddr, missing);
	if (is_bad_pfn(dump, pfn))
		return oc_error_fault(paddr,
				      "physical address 0x%" PRIx64 " not in the dump",
				      paddr);
	if (dump->elf_own_reads || dump->pager) {
		char why[256];

		err = dump->pager ?
		      oc_dump_hdr_kdump_read_page(&dump->hdr, dump->pager,
						  paddr, page) :
		      oc_dump_hdr_elf_read_page(&dump->hdr, paddr, page);
		if (!err)
			return NULL;
		add_bad_pfn(dump, pfn);
		return oc_error_fault(paddr,
				      "physical address 0x%" PRIx64 " not in the dump (%s)",
				      paddr, oc_error_take(err, why, sizeof(why)));
	}
	if ((err = ctx_ready(dump)))
		return err;
	if (kf.kdump_read(dump->ctx, KDUMP_KPHYSADDR, paddr, page, &len) ==
	    KDUMP_OK)
		return NULL;
	err = oc_error_fault(paddr + len,
			     "physical address 0x%" PRIx64 " not in the dump (kdump_read: %s)",
			     paddr + len, kf.kdump_get_err(dump->ctx));
	add_bad_pfn(dump, pfn);
	kf.kdump_clear_err(dump->ctx);
	return err;
}

size_t oc_dump_missing_pfns(const struct oc_dump *dump, uint64_t *ret,
			    size_t max)
{
	size_t n = dump->nr_bad_pfn < NR_BAD_PFN ? dump->nr_bad_pfn : NR_BAD_PFN;

	if (n > max)
		n = max;
	memcpy(ret, dump->bad_pfn, n * sizeof(*ret));
	return n;
}

void oc_dump_add_missing(struct oc_dump *dump, const struct oc_dump *other)
{
	uint64_t pfns[NR_BAD_PFN];
	size_t n = oc_dump_missing_pfns(other, pfns, NR_BAD_PFN);

	for (size_t i = 0; i < n; i++)
		add_bad_pfn(dump, pfns[i]);
}

struct oc_error *oc_dump_read_phys(struct oc_dump *dump, uint64_t paddr,
				   void *buf, size_t len)
{
	return oc_pcache_read(dump->pcache, paddr, buf, len);
}

static struct oc_error *walk_read_phys(void *arg, uint64_t paddr, void *buf,
				       size_t len)
{
	return oc_dump_read_phys(arg, paddr, buf, len);
}

struct oc_error *oc_dump_translate_in(struct oc_dump *dump, uint64_t top,
				      uint64_t vaddr, uint64_t *paddr_ret)
{
	struct oc_pgwalk walk;
	struct oc_error *err;

	if (!dump->use_walk)
		return oc_error_format(OC_ERR_UNSUPPORTED,
				       "no page-table walk for this dump (no init_top_pgt or phys_base)");
	err = oc_pgwalk_init(&walk, walk_read_phys, dump, top, dump->walk.levels);
	if (err)
		return err;
	return oc_pgwalk_translate(&walk, vaddr, paddr_ret);
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

struct oc_error *oc_dump_virt_to_phys_kdump(struct oc_dump *dump,
					    uint64_t vaddr,
					    uint64_t *paddr_ret)
{
	addrxlat_ctx_t *actx = NULL;
	addrxlat_sys_t *asys = NULL;
	addrxlat_fulladdr_t fa = { .addr = vaddr, .as = ADDRXLAT_KVADDR };
	struct oc_error *err = ctx_ready(dump);

	if (err)
		return err;
	if (kf.kdump_get_addrxlat(dump->ctx, &actx, &asys) != KDUMP_OK) {
		err = kdump_error(dump, "kdump_get_addrxlat");
		kf.kdump_clear_err(dump->ctx);
		return err;
	}
	if (kf.addrxlat_fulladdr_conv(&fa, ADDRXLAT_KPHYSADDR, actx, asys) !=
	    ADDRXLAT_OK)
		err = oc_error_fault(vaddr, "addrxlat_fulladdr_conv(0x%" PRIx64 "): %s",
				     vaddr, kf.addrxlat_ctx_get_err(actx));
	else
		*paddr_ret = fa.addr;
	kf.addrxlat_ctx_decref(actx);
	kf.addrxlat_sys_decref(asys);
	return err;
}

static struct oc_error *read_kvaddr_kdump(struct oc_dump *dump, uint64_t addr,
					  void *buf, size_t len)
{
	size_t got = len;
	struct oc_error *err = ctx_ready(dump);
	kdump_status st;

	if (err)
		return err;
	st = kf.kdump_read(dump->ctx, KDUMP_KVADDR, addr, buf, &got);
	if (st != KDUMP_OK)
		return oc_error_fault(addr + got, "kdump_read(0x%" PRIx64 "): %s",
				      addr + got, kf.kdump_get_err(dump->ctx));
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
	uint16_t type = 0, machine = 0;
	struct oc_cursor c;
	ssize_t n;
	int fd;

	/* the open of each file says what is wrong with it, not this */
	if (!oc_ok(oc_file_open(path, true, &fd, NULL)))
		return OC_FILE_OTHER;
	n = pread(fd, head, sizeof(head), 0);
	close(fd);
	if (n < 16)
		return OC_FILE_OTHER;
	if (!memcmp(head, "KDUMP   ", 8) || !memcmp(head, "DISKDUMP", 8) ||
	    oc_flat_detect(head, (size_t)n))
		return OC_FILE_DUMP;
	if (memcmp(head, ELFMAG, SELFMAG) || n < (ssize_t)sizeof(Elf64_Ehdr) ||
	    head[EI_CLASS] != ELFCLASS64 || head[EI_DATA] != ELFDATA2LSB)
		return OC_FILE_OTHER;
	/* e_type and e_machine follow e_ident */
	oc_cursor_init(&c, head, sizeof(head), "ELF header");
	if (!oc_ok(oc_cursor_seek(&c, EI_NIDENT)) ||
	    !oc_ok(oc_cursor_le16(&c, &type)) ||
	    !oc_ok(oc_cursor_le16(&c, &machine)))
		return OC_FILE_OTHER;
	if (type == ET_CORE)
		return OC_FILE_DUMP;
	if (type == ET_EXEC && machine == EM_X86_64)
		return OC_FILE_KERNEL;
	return OC_FILE_OTHER;
}

enum dump_kind { KIND_ELF, KIND_KDUMP };

static struct oc_error *detect(struct oc_dump *dump, uint64_t size,
			       enum dump_kind *ret)
{
	unsigned char head[16] = { 0 };
	struct oc_error *err;

	if (size == 0)
		return oc_error_file(OC_ERR_FORMAT, dump->path, "empty file");
	err = oc_dump_hdr_pread(&dump->hdr, head, size < 16 ? size : 16, 0,
				"header");
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
		if (size < OC_DUMP_KDUMP_HDR_MIN)
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
	const char *why = oc_dl_load(&kf_dl);

	if (why)
		return oc_error_file(OC_ERR_UNSUPPORTED, dump->path,
				     "reading this dump needs libkdumpfile: %s",
				     why);
	dump->ctx = kf.kdump_new();
	if (!dump->ctx)
		return &oc_enomem;
	st = set_string(dump->ctx, KDUMP_ATTR_OSTYPE, "linux");
	if (st != KDUMP_OK)
		return kdump_error(dump, "kdump_set_attr(addrxlat.ostype)");
	/*
	 * Even physical reads fail ("Cannot determine 5-level paging")
	 * when libkdumpfile cannot set up its own translation, e.g. for an
	 * ELF file with kernel-text segments but no
	 * NUMBER(pgtable_l5_enabled).  48 bits is only its fallback.
	 */
	st = set_number(dump->ctx, KDUMP_ATTR_XLAT_DEFAULT ".virt_bits", 48);
	if (st != KDUMP_OK)
		return kdump_error(dump, "kdump_set_attr(addrxlat.default.virt_bits)");
	/*
	 * read(2), not mmap(2): a segment that runs past the end of a
	 * truncated or corrupted file must be a failed read, not SIGBUS.
	 */
	st = set_number(dump->ctx, KDUMP_ATTR_FILE_MMAP_POLICY,
			KDUMP_MMAP_NEVER);
	if (st != KDUMP_OK)
		return kdump_error(dump, "kdump_set_attr(file.mmap_policy)");
	st = kf.kdump_open_fdset(dump->ctx, 1, &fd);
	if (st != KDUMP_OK)
		return kdump_error(dump, "kdump_open");
	/*
	 * libkdumpfile's own cache: 64 pages instead of its default 1,024,
	 * which it searches linearly on every read (a third of --all-tasks'
	 * CPU time on a 10,000-task dump, docs/benchmarks.md); our page cache
	 * (formats/pcache.c) keeps what is read again.  Commit 9513607 did
	 * this once and 75833b1 undid it: a failed read of an excluded page
	 * of a kdump-compressed file left a cache slot behind that made later
	 * reads of good pages fail ("Decompresion failed: error -2",
	 * libkdumpfile 0.5.1, the 6.12 real-kdump sample); bad_pfn[] then
	 * kept an excluded page from being asked for twice, which was not
	 * enough (once each still broke it), and now the kdump file's own
	 * bitmap keeps every excluded page from it (fill_page()).  At its default
	 * size the cache failed good reads on the 8-CPU 4 GB real kdump
	 * (docs/benchmarks.md).  Only a speed setting: go on if this
	 * libkdumpfile does not know it.
	 */
	if (set_number(dump->ctx, "cache.size", 64) != KDUMP_OK)
		kf.kdump_clear_err(dump->ctx);
	/* QEMU's kdump-compressed files may not name the architecture */
	if (get_string(dump->ctx, KDUMP_ATTR_ARCH_NAME, &arch) !=
	    KDUMP_OK || !arch) {
		kf.kdump_clear_err(dump->ctx);
		st = set_string(dump->ctx, KDUMP_ATTR_ARCH_NAME, "x86_64");
		if (st != KDUMP_OK)
			return kdump_error(dump, "kdump_set_attr(arch.name)");
	} else if (strcmp(arch, "x86_64")) {
		return oc_error_file(OC_ERR_UNSUPPORTED, dump->path,
				     "a %s dump; only x86_64 is supported", arch);
	}
	st = get_number(dump->ctx, KDUMP_ATTR_PAGE_SIZE, &page_size);
	if (st == KDUMP_OK && page_size != PAGE_SIZE)
		return oc_error_file(OC_ERR_UNSUPPORTED, dump->path,
				     "page size %llu (want 4096)",
				     (unsigned long long)page_size);
	kf.kdump_clear_err(dump->ctx);
	return NULL;
}

/*
 * libkdumpfile's context for a read that only it can do, opened now when
 * the open did without it (need_kdumpfile()).  A failed open is not
 * tried again: every later read says why.
 */
static struct oc_error *ctx_ready(struct oc_dump *dump)
{
	struct oc_error *err;

	if (dump->ctx && !dump->ctx_failed)
		return NULL;
	if (!dump->ctx_failed) {
		err = open_kdump(dump, dump->hdr.fd);
		if (!err)
			return NULL;
		dump->ctx_failed = true;
		dump->ctx_code = err->code;
		snprintf(dump->ctx_why, sizeof(dump->ctx_why), "%s",
			 err->message ? err->message : "libkdumpfile's open failed");
		oc_error_destroy(err);
	}
	return oc_error_file(dump->ctx_code, dump->path, "%s", dump->ctx_why);
}

/*
 * Whether the open needs libkdumpfile: not when our own readers cover
 * the file, that is its pages (an ELF file's segments with physical
 * addresses, a kdump file's descriptors: dump_elf.c, dump_kdump.c), its
 * notes and VMCOREINFO, and an x86-64 machine; then libkdumpfile is
 * never opened unless a read asks for it (ctx_ready()).  Anything else
 * is opened by libkdumpfile as it always was, and its checks (the
 * architecture, the page size) stand.
 */
static bool need_kdumpfile(const struct oc_dump *dump)
{
	return !(dump->elf_own_reads || dump->pager) || !dump->hdr.vmcoreinfo ||
	       !dump->hdr.nr_notes || dump->hdr.foreign_machine;
}

/* VMCOREINFO from libkdumpfile, when the notes we read had none. */
static struct oc_error *vmcoreinfo_from_kdump(struct oc_dump *dump)
{
	char *raw = NULL;
	struct oc_error *err;

	if (dump->hdr.vmcoreinfo)
		return NULL;
	if (kf.kdump_vmcoreinfo_raw(dump->ctx, &raw) != KDUMP_OK || !raw) {
		kf.kdump_clear_err(dump->ctx);
		return NULL;	/* none: oc_dump_vmcoreinfo() says NULL */
	}
	err = oc_dump_hdr_set_vmcoreinfo(&dump->hdr, raw, strlen(raw));
	free(raw);
	return err;
}

/* libkdumpfile's cpu.N.PRSTATUS, when we found no notes ourselves. */
static struct oc_error *notes_from_kdump(struct oc_dump *dump)
{
	kdump_num_t n;

	if (dump->hdr.nr_notes ||
	    get_number(dump->ctx, KDUMP_ATTR_NUM_CPUS, &n) != KDUMP_OK) {
		kf.kdump_clear_err(dump->ctx);
		return NULL;
	}
	for (kdump_num_t i = 0; i < n && i < OC_DUMP_MAX_CPU_NOTES; i++) {
		char key[64];
		kdump_attr_t attr;
		struct oc_elfnote note = { .type = OC_NT_PRSTATUS };
		struct oc_error *err;

		snprintf(key, sizeof(key), "cpu.%llu.PRSTATUS",
			 (unsigned long long)i);
		if (kf.kdump_get_typed_attr(dump->ctx, key, &attr) != KDUMP_OK ||
		    attr.type != KDUMP_BLOB) {
			kf.kdump_clear_err(dump->ctx);
			continue;
		}
		note.desc = kf.kdump_blob_pin(attr.val.blob);
		note.descsz = kf.kdump_blob_size(attr.val.blob) > UINT32_MAX ?
			      UINT32_MAX : (uint32_t)kf.kdump_blob_size(attr.val.blob);
		err = oc_dump_hdr_add_cpu(&dump->hdr, &note);
		kf.kdump_blob_unpin(attr.val.blob);
		if (err)
			return err;
	}
	return NULL;
}

/*
 * The page walk needs the top-level table and where the kernel image
 * is in physical memory.  VMCOREINFO has both since 4.13
 * (SYMBOL(init_top_pgt); swapper_pg_dir before), NUMBER(phys_base)
 * since 4.10 (printed with %ld: negative under KASLR when the kernel
 * sits below its link address) and NUMBER(pgtable_l5_enabled) since
 * 4.17.  Without NUMBER(phys_base), an ELF dump's kernel-text segment
 * gives it (oc_dump_hdr_phys_base()).
 */
static void setup_walk(struct oc_dump *dump)
{
	const struct oc_vmcoreinfo *vi = dump->hdr.vmcoreinfo;
	uint64_t top;
	int64_t phys_base, l5 = 0;

	if (!oc_ok(oc_vmcoreinfo_symbol(vi, "init_top_pgt", &top)) &&
	    !oc_ok(oc_vmcoreinfo_symbol(vi, "swapper_pg_dir", &top)))
		return;
	if (oc_ok(oc_vmcoreinfo_number(vi, "phys_base", &phys_base)))
		dump->phys_base = (uint64_t)phys_base;
	else if (!oc_dump_hdr_phys_base(&dump->hdr, &dump->phys_base))
		return;
	/* absent: 4-level */
	oc_ok(oc_vmcoreinfo_number(vi, "pgtable_l5_enabled", &l5));
	if (top < OC_START_KERNEL_MAP)
		return;
	if (!oc_ok(oc_pgwalk_init(&dump->walk, walk_read_phys, dump,
				  top - OC_START_KERNEL_MAP + dump->phys_base,
				  l5 ? 5 : 4)))
		return;
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
	dump->fd = dump->view_fd = dump->hdr.fd = -1;
	dump->path = strdup(path);
	dump->hdr.path = dump->path;
	err = dump->path ? oc_pcache_create(PCACHE_PAGES, fill_page, dump,
					    &dump->pcache) : &oc_enomem;
	if (err)
		goto fail;
	/* a regular file or a block device, never a FIFO or /dev/zero */
	err = oc_file_open(path, true, &dump->fd, &st);
	if (err)
		goto fail;
	fd = dump->hdr.fd = dump->fd;
	if (st.st_size >= 16) {
		unsigned char head[16];

		err = oc_dump_hdr_pread(&dump->hdr, head, sizeof(head), 0,
					"header");
		if (err)
			goto fail;
		if (oc_flat_detect(head, sizeof(head))) {
			err = reassemble_flat(dump, st.st_size);
			if (err)
				goto fail;
			fd = dump->hdr.fd = dump->view_fd;
			if (fstat(fd, &st) < 0) {
				err = oc_error_os(errno, path, "fstat");
				goto fail;
			}
		}
	}
	err = detect(dump, st.st_size, &kind);
	if (err)
		goto fail;
	dump->hdr.file_size = st.st_size;
	if (kind == KIND_ELF) {
		/* makedumpfile -E -F flattens ELF output too */
		dump->format = dump->view_fd >= 0 ? "flattened elf" : "elf";
		err = oc_dump_hdr_read_elf(&dump->hdr);
		dump->elf_own_reads = oc_dump_hdr_elf_reads_own(&dump->hdr);
	} else {
		dump->format = dump->view_fd >= 0 ? "flattened kdump-compressed"
						  : "kdump-compressed";
		err = oc_dump_hdr_read_kdump(&dump->hdr);
		if (!err && dump->hdr.rank)
			err = oc_kdump_pager_create(&dump->pager);
		/* the pager's descriptors and data, read where they are */
		if (!err && dump->pager)
			oc_dump_hdr_map(&dump->hdr);
	}
	if (err)
		goto fail;
	if (need_kdumpfile(dump)) {
		err = open_kdump(dump, fd);
		if (!err)
			err = vmcoreinfo_from_kdump(dump);
		if (!err)
			err = notes_from_kdump(dump);
		if (err)
			goto fail;
	}
	setup_walk(dump);
	/* without the page walk, KVADDR reads are libkdumpfile's */
	if (!dump->use_walk && !dump->ctx && (err = open_kdump(dump, fd)))
		goto fail;
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
	if (dump->ctx && !dump->ctx_broken)
		kf.kdump_free(dump->ctx);
	if (dump->view_fd >= 0)
		close(dump->view_fd);
	if (dump->fd >= 0)
		close(dump->fd);
	oc_pcache_destroy(dump->pcache);
	oc_kdump_pager_destroy(dump->pager);
	if (!dump->clone)
		oc_dump_hdr_deinit(&dump->hdr);
	free(dump->path);
	free(dump);
}

/*
 * A second reader of the same file for another thread: its own file
 * description, libkdumpfile context, page cache and page walk (none of
 * them is thread-safe), the headers (notes, VMCOREINFO, segments: read
 * only after the open) shared with @dump, which must outlive it.
 * /proc/self/fd reopens the reassembled flattened dump too (a memfd or
 * an unlinked O_TMPFILE), so it is not reassembled again.
 */
struct oc_error *oc_dump_clone(struct oc_dump *dump, struct oc_dump **ret)
{
	struct oc_dump *c = calloc(1, sizeof(*c));
	struct oc_error *err;
	char proc[64];

	if (!c)
		return &oc_enomem;
	c->fd = c->view_fd = -1;
	c->clone = true;
	c->hdr = dump->hdr;
	c->format = dump->format;
	c->elf_own_reads = dump->elf_own_reads;
	if (dump->pager) {
		err = oc_kdump_pager_create(&c->pager);
		if (err)
			goto fail;
	}
	c->path = strdup(dump->path);
	err = c->path ? oc_pcache_create(PCACHE_PAGES, fill_page, c, &c->pcache)
		      : &oc_enomem;
	if (err)
		goto fail;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d",
		 dump->view_fd >= 0 ? dump->view_fd : dump->fd);
	c->fd = open(proc, O_RDONLY | O_CLOEXEC);
	if (c->fd < 0) {
		err = oc_error_os(errno, dump->path, "reopening %s", proc);
		goto fail;
	}
	c->hdr.fd = c->fd;
	/* libkdumpfile only where the first reader needed it at its open */
	if (dump->ctx && !dump->ctx_failed && (err = open_kdump(c, c->fd)))
		goto fail;
	setup_walk(c);
	*ret = c;
	return NULL;
fail:
	oc_dump_close(c);
	return err;
}

const struct oc_vmcoreinfo *oc_dump_vmcoreinfo(const struct oc_dump *dump)
{
	return dump->hdr.vmcoreinfo;
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
	return dump->hdr.qemu;
}

bool oc_dump_has_page_walk(const struct oc_dump *dump)
{
	return dump->use_walk;
}

bool oc_dump_incomplete(const struct oc_dump *dump)
{
	return dump->hdr.incomplete;
}

bool oc_dump_truncated(const struct oc_dump *dump, uint64_t *size_ret,
		       uint64_t *needed_ret)
{
	if (dump->hdr.file_needed <= dump->hdr.file_size)
		return false;
	*size_ret = dump->hdr.file_size;
	*needed_ret = dump->hdr.file_needed;
	return true;
}

size_t oc_dump_nr_cpu_notes(const struct oc_dump *dump)
{
	return dump->hdr.nr_notes;
}

const struct oc_prstatus *oc_dump_cpu_note(const struct oc_dump *dump,
					   size_t i)
{
	return i < dump->hdr.nr_notes ? &dump->hdr.notes[i] : NULL;
}
