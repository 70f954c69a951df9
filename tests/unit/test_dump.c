// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * formats/dump.c on small synthetic vmcores written here: a QEMU-style
 * ELF core (notes + one PT_LOAD of "physical memory" holding page
 * tables), the same flattened, and broken files of every kind.
 */
#include <elf.h>
#include <endian.h>
#include <fcntl.h>
#include <libkdumpfile/kdumpfile.h>
#include <lzo/lzo1x.h>
#include <snappy-c.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "dump.h"
#include "flat.h"
#include "test.h"
#include "vmcoreinfo.h"

/* LeakSanitizer (make check-asan): libkdumpfile 0.5.1 leaks on some
 * error paths of kdump_open_fd(); not ours to fix. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libkdumpfile.so\n";
}

enum {
	NPAGES = 16,
	LOAD_OFFSET = 0x1000,	/* file offset of physical address 0 */
	PHYS_BASE = 0x1000,
};

static const uint64_t KTEXT = 0xffffffff81000000ULL;
static const uint64_t DIRECT = 0xffff888000000000ULL;

struct buf {
	unsigned char *p;
	size_t len;
};

static void put(struct buf *b, size_t off, const void *data, size_t len)
{
	if (off + len > b->len) {
		b->p = realloc(b->p, off + len);
		memset(b->p + b->len, 0, off + len - b->len);
		b->len = off + len;
	}
	memcpy(b->p + off, data, len);
}

static size_t put_note(struct buf *b, size_t off, const char *name,
		       uint32_t type, const void *desc, size_t descsz)
{
	Elf64_Nhdr nh = { strlen(name) + 1, descsz, type };
	size_t namesz = (nh.n_namesz + 3) & ~3u;

	put(b, off, &nh, sizeof(nh));
	put(b, off + sizeof(nh), name, nh.n_namesz);
	put(b, off + sizeof(nh) + namesz, desc, descsz);
	return off + sizeof(nh) + namesz + ((descsz + 3) & ~3u);
}

static void pte(struct buf *b, unsigned int page, unsigned int index,
		uint64_t entry)
{
	put(b, LOAD_OFFSET + page * 4096 + index * 8, &entry, 8);
}

static unsigned int idx(uint64_t va, unsigned int level)
{
	return (va >> (12 + 9 * (level - 1))) & 0x1ff;
}

/* An x86-64 ELF core's header, @phnum program headers right behind it */
static Elf64_Ehdr core_ehdr(unsigned int phnum)
{
	Elf64_Ehdr eh = { 0 };

	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = ET_CORE;
	eh.e_machine = EM_X86_64;
	eh.e_version = EV_CURRENT;
	eh.e_phoff = sizeof(eh);
	eh.e_ehsize = sizeof(eh);
	eh.e_phentsize = sizeof(Elf64_Phdr);
	eh.e_phnum = (Elf64_Half)phnum;
	return eh;
}

/*
 * Physical memory: page 1 PML4, 2 PDPT (kernel text), 3 PD, 4 PT,
 * 5 PDPT (direct map), data in pages 6..14, 15 PD (direct map).  KTEXT page 0 -> phys
 * page 8, KTEXT page 1 -> phys page 6 (not contiguous), KTEXT page 2
 * not present; DIRECT maps the first 2M with one large page.
 */
static void build_elf_phdrs(struct buf *b, const char *vmcoreinfo,
			    bool text_segment)
{
	Elf64_Ehdr eh = core_ehdr(text_segment ? 3 : 2);
	Elf64_Phdr ph[3] = { { 0 } };
	unsigned char prstatus[336] = { 0 };
	size_t notes = 0x200, end;
	uint64_t v;

	b->p = NULL;
	b->len = 0;

	/* two CPUs, QEMU style: pid = CPU + 1; ip is pt_regs slot 16 */
	end = notes;
	for (uint32_t cpu = 0; cpu < 2; cpu++) {
		uint32_t pid = cpu + 1;

		memcpy(prstatus + 32, &pid, 4);
		v = KTEXT + 0x100 * (cpu + 1);
		memcpy(prstatus + 112 + 16 * 8, &v, 8);
		v = 0xffffc90000004000ULL + cpu;	/* sp, slot 19 */
		memcpy(prstatus + 112 + 19 * 8, &v, 8);
		v = 0xffff88801f400000ULL + cpu * 0x100000;	/* gs_base */
		memcpy(prstatus + 112 + 22 * 8, &v, 8);
		end = put_note(b, end, "CORE", NT_PRSTATUS, prstatus,
			       sizeof(prstatus));
	}
	end = put_note(b, end, "QEMU", 0, prstatus, 64);
	end = put_note(b, end, "VMCOREINFO", 0, vmcoreinfo, strlen(vmcoreinfo));

	ph[0].p_type = PT_NOTE;
	ph[0].p_offset = notes;
	ph[0].p_filesz = end - notes;
	ph[1].p_type = PT_LOAD;
	ph[1].p_offset = LOAD_OFFSET;
	ph[1].p_paddr = 0;
	ph[1].p_filesz = ph[1].p_memsz = NPAGES * 4096;
	ph[1].p_flags = PF_R | PF_W | PF_X;
	/* kdump style: the kernel image again, at its kernel-text address */
	ph[2] = ph[1];
	ph[2].p_offset = LOAD_OFFSET + PHYS_BASE;
	ph[2].p_paddr = PHYS_BASE;
	ph[2].p_vaddr = 0xffffffff80000000ULL;
	ph[2].p_filesz = ph[2].p_memsz = (NPAGES - 1) * 4096;
	put(b, 0, &eh, sizeof(eh));
	put(b, sizeof(eh), ph, eh.e_phnum * sizeof(ph[0]));

	put(b, LOAD_OFFSET + NPAGES * 4096 - 1, "", 1);	/* the whole segment */
	/* every data byte says where it is: page number, then offset */
	for (unsigned int pg = 6; pg < NPAGES - 1; pg++)
		for (unsigned int off = 0; off < 4096; off += 8) {
			uint64_t tag = (uint64_t)pg << 32 | off;

			put(b, LOAD_OFFSET + pg * 4096 + off, &tag, 8);
		}
	pte(b, 1, idx(KTEXT, 4), 2 * 4096 | 0x63);
	pte(b, 2, idx(KTEXT, 3), 3 * 4096 | 0x63);
	pte(b, 3, idx(KTEXT, 2), 4 * 4096 | 0x63);
	pte(b, 4, idx(KTEXT, 1), 8 * 4096 | 0x163 | 1ULL << 63);
	pte(b, 4, idx(KTEXT, 1) + 1, 6 * 4096 | 0x163);
	pte(b, 1, idx(DIRECT, 4), 5 * 4096 | 0x63);
	pte(b, 5, idx(DIRECT, 3), 15 * 4096 | 0x63);
	pte(b, 15, idx(DIRECT, 2), 0x0 | 0xe3 | 1ULL << 63);	/* 2M at 0 */
}

static void build_elf(struct buf *b, const char *vmcoreinfo)
{
	build_elf_phdrs(b, vmcoreinfo, false);
}

/* A VMCOREINFO value of the dump and its length; NULL if absent. */
static const char *vmcoreinfo_value(const struct oc_dump *dump,
				    const char *key, size_t *len_ret)
{
	const char *v;

	if (!oc_ok(oc_vmcoreinfo_value(oc_dump_vmcoreinfo(dump), key, &v)))
		return NULL;
	*len_ret = strlen(v);
	return v;
}

static const char VMCOREINFO[] =
	"OSRELEASE=6.1.0-test\n"
	"PAGESIZE=4096\n"
	"SYMBOL(init_top_pgt)=ffffffff80000000\n"
	"NUMBER(phys_base)=4096\n"
	"NUMBER(PAGE_BUDDY_MAPCOUNT_VALUE)=-129\n"
	"NUMBER(pgtable_l5_enabled)=0\n"
	"KERNELOFFSET=0\n"
	"SYMBOL(bad)=xyz\n"
	"CRASHTIME=1764754031\n";

static const char *write_good(void)
{
	static const char *path;
	struct buf b;

	if (path)
		return path;
	path = oc_test_tmp_path("good.elf");
	build_elf(&b, VMCOREINFO);
	oc_test_write_file(path, b.p, b.len);
	free(b.p);
	return path;
}

TEST(dump_elf_notes_and_vmcoreinfo)
{
	struct oc_dump *dump = NULL;
	const struct oc_prstatus *n;
	const struct oc_vmcoreinfo *vi;
	const char *v;
	size_t len;
	uint64_t u;
	struct oc_error *err;

	CHECK_OK(oc_dump_open(write_good(), &dump));
	if (!dump)
		return;
	CHECK_STR(oc_dump_format_name(dump), "elf");
	CHECK(oc_dump_is_qemu(dump));
	CHECK(oc_dump_has_page_walk(dump));
	CHECK_EQ(oc_dump_nr_cpu_notes(dump), 2);
	n = oc_dump_cpu_note(dump, 1);
	CHECK(n && n->pid == 2 && n->regs.ip == KTEXT + 0x200 &&
	      n->regs.sp == 0xffffc90000004001ULL &&
	      n->gs_base == 0xffff88801f500000ULL);
	CHECK(!oc_dump_cpu_note(dump, 2));

	vi = oc_dump_vmcoreinfo(dump);
	CHECK(vi && !strncmp(oc_vmcoreinfo_text(vi), "OSRELEASE=6.1.0-test\n", 21));
	v = vmcoreinfo_value(dump, "OSRELEASE", &len);
	CHECK(v && len == 10 && !strncmp(v, "6.1.0-test", len));
	CHECK(!vmcoreinfo_value(dump, "OSREL", &len));
	CHECK_OK(oc_vmcoreinfo_u64(vi, "SYMBOL(init_top_pgt)", &u));
	CHECK_EQ(u, 0xffffffff80000000ULL);
	CHECK_OK(oc_vmcoreinfo_u64(vi, "NUMBER(phys_base)", &u));
	CHECK_EQ(u, 4096);
	CHECK_OK(oc_vmcoreinfo_u64(vi, "NUMBER(PAGE_BUDDY_MAPCOUNT_VALUE)", &u));
	CHECK_EQ((int64_t)u, -129);
	CHECK_OK(oc_vmcoreinfo_u64(vi, "CRASHTIME", &u));
	CHECK_EQ(u, 1764754031);
	err = oc_vmcoreinfo_u64(vi, "SYMBOL(nope)", &u);
	CHECK(err && err->code == OC_ERR_LOOKUP);
	oc_error_destroy(err);
	err = oc_vmcoreinfo_u64(vi, "SYMBOL(bad)", &u);
	CHECK(err && err->code == OC_ERR_FORMAT);
	oc_error_destroy(err);
	oc_dump_close(dump);
}

static void check_reads(struct oc_dump *dump)
{
	struct oc_mem mem;
	uint64_t v[4], pa;
	struct oc_error *err;

	oc_dump_mem(dump, &mem);
	/* kernel text page 0 is physical page 8 */
	CHECK_OK(oc_mem_read_u64(&mem, KTEXT + 0x18, &v[0]));
	CHECK_EQ(v[0], 8ULL << 32 | 0x18);
	CHECK_OK(oc_dump_virt_to_phys(dump, KTEXT + 0x18, &pa));
	CHECK_EQ(pa, 8 * 4096 + 0x18);
	/* a read across the page boundary: page 8's end, then page 6 */
	CHECK_OK(oc_mem_read(&mem, KTEXT + 4096 - 16, v, 32));
	CHECK_EQ(v[0], 8ULL << 32 | 0xff0);
	CHECK_EQ(v[1], 8ULL << 32 | 0xff8);
	CHECK_EQ(v[2], 6ULL << 32 | 0x000);
	CHECK_EQ(v[3], 6ULL << 32 | 0x008);
	/* the direct map's 2M page */
	CHECK_OK(oc_mem_read_u64(&mem, DIRECT + 9 * 4096 + 0x40, &v[0]));
	CHECK_EQ(v[0], 9ULL << 32 | 0x40);
	/* physical reads */
	CHECK_OK(oc_dump_read_phys(dump, 10 * 4096 + 8, &v[0], 8));
	CHECK_EQ(v[0], 10ULL << 32 | 8);
	/* kernel text page 2 is not present */
	err = oc_mem_read(&mem, KTEXT + 2 * 4096 - 4, v, 8);
	CHECK(err && err->code == OC_ERR_FAULT &&
	      err->address == KTEXT + 2 * 4096);
	oc_error_destroy(err);
	/* mapped by the 2M page but beyond the dump's memory */
	err = oc_mem_read_u64(&mem, DIRECT + 0x100000, &v[0]);
	CHECK(err && err->code == OC_ERR_FAULT &&
	      err->address == DIRECT + 0x100000);
	CHECK(err && strstr(err->message, "ffff888000100000"));
	oc_error_destroy(err);
	err = oc_dump_read_phys(dump, 0x100000, v, 8);
	CHECK(err && err->code == OC_ERR_FAULT && err->address == 0x100000);
	oc_error_destroy(err);
}

/* @path opens as a @format dump of two CPU notes and reads right. */
static void check_opens(const char *path, const char *format)
{
	struct oc_dump *dump = NULL;

	CHECK_OK(oc_dump_open(path, &dump));
	if (!dump)
		return;
	CHECK_STR(oc_dump_format_name(dump), format);
	CHECK_EQ(oc_dump_nr_cpu_notes(dump), 2);
	check_reads(dump);
	oc_dump_close(dump);
}

TEST(dump_elf_virtual_reads)
{
	struct oc_dump *dump = NULL;

	CHECK_OK(oc_dump_open(write_good(), &dump));
	if (!dump)
		return;
	check_reads(dump);
	/* again, now from the caches */
	check_reads(dump);
	oc_dump_close(dump);
}

static void put_be64(struct buf *b, int64_t v)
{
	uint64_t be = htobe64((uint64_t)v);

	put(b, b->len, &be, 8);
}

/* makedumpfile -E -F style: the ELF file in shuffled chunks */
TEST(dump_flattened_elf)
{
	struct oc_dump *dump = NULL;
	struct buf elf, flat = { NULL, 0 };
	const char *path = oc_test_tmp_path("good.flat");
	static const char sig[16] = "makedumpfile";
	size_t chunk = 1000;

	build_elf(&elf, VMCOREINFO);
	put(&flat, 0, sig, sizeof(sig));
	put_be64(&flat, 1);
	put_be64(&flat, 1);
	put(&flat, 4095, "", 1);
	/* back to front, so the reassembly has to seek */
	for (size_t off = (elf.len - 1) / chunk * chunk;; off -= chunk) {
		size_t n = elf.len - off < chunk ? elf.len - off : chunk;

		put_be64(&flat, off);
		put_be64(&flat, n);
		put(&flat, flat.len, elf.p + off, n);
		if (!off)
			break;
	}
	put_be64(&flat, -1);
	put_be64(&flat, -1);
	oc_test_write_file(path, flat.p, flat.len);

	check_opens(path, "flattened elf");
	/* cut before the end marker: a clear error */
	oc_test_write_file(path, flat.p, flat.len - 16);
	{
		struct oc_error *err = oc_dump_open(path, &dump);
		char msg[512];

		oc_error_string(err, msg, sizeof(msg));
		CHECK(err && strstr(msg, "good.flat: ") &&
		      strstr(msg, "no end marker"));
		oc_error_destroy(err);
	}
	free(elf.p);
	free(flat.p);
}

/* Open must fail with one line naming the file and the problem. */
static void expect_error(const char *path, const char *what)
{
	struct oc_dump *dump = NULL;
	struct oc_error *err = oc_dump_open(path, &dump);
	char msg[512];

	CHECK(err != NULL);
	if (!err) {
		oc_dump_close(dump);
		return;
	}
	oc_error_string(err, msg, sizeof(msg));
	if (!strstr(msg, path) || !strstr(msg, what))
		FAIL_AT("%s: want \"%s\", got \"%s\"", path, what, msg);
	CHECK(!strchr(msg, '\n'));
	oc_error_destroy(err);
}

TEST(dump_bad_files)
{
	const char *p = oc_test_tmp_path("bad");
	struct buf b;
	unsigned char kdump[600] = "KDUMP   ";

	oc_test_write_file(p, "", 0);
	expect_error(p, "empty file");
	oc_test_write_file(p, "hello, world\n", 13);
	expect_error(p, "not a crash dump");
	oc_test_write_file(p, "\177ELF\2\1\1", 7);
	expect_error(p, "truncated ELF header");
	oc_test_write_file(p, "KDUMP   \6\0\0\0", 12);
	expect_error(p, "truncated kdump header");
	/* a kdump header with a silly block size */
	oc_test_write_file(p, kdump, sizeof(kdump));
	expect_error(p, "bad kdump block size");
	/* a flattened file that is only a header */
	oc_test_write_file(p, "makedumpfile\0\0\0\0\0\0\0\0\0\0\0\1\0\0\0\0\0\0\0\1", 32);
	expect_error(p, "truncated flattened header");
	expect_error(oc_test_tmp_path("does-not-exist"), "open: No such file");
	mkdir(oc_test_tmp_path("dir"), 0700);
	expect_error(oc_test_tmp_path("dir"), "a directory, not a regular file");
	/* not "empty file" for what is no file, and no blocking on a FIFO */
	expect_error("/dev/zero", "a character device, not a regular file");
	mkfifo(oc_test_tmp_path("fifo"), 0600);
	expect_error(oc_test_tmp_path("fifo"), "a pipe (FIFO), not a regular file");

	/* an ELF file that is not a core dump */
	build_elf(&b, VMCOREINFO);
	b.p[16] = ET_EXEC;
	oc_test_write_file(p, b.p, b.len);
	expect_error(p, "not a core dump");
	free(b.p);
}

/* Every truncation of a good dump opens or fails cleanly; none crashes. */
TEST(dump_truncations)
{
	const char *p = oc_test_tmp_path("cut.elf");
	struct buf b;
	unsigned int opened = 0, failed = 0;

	build_elf(&b, VMCOREINFO);
	for (size_t len = 0; len < b.len; len += (len < 0x800 ? 7 : 997)) {
		struct oc_dump *dump = NULL;
		struct oc_error *err;

		oc_test_write_file(p, b.p, len);
		err = oc_dump_open(p, &dump);
		if (err) {
			char msg[512];

			oc_error_string(err, msg, sizeof(msg));
			if (!strstr(msg, p))
				FAIL_AT("len %zu: error without the path: %s",
					len, msg);
			oc_error_destroy(err);
			failed++;
		} else {
			/* reads may fault, but only with an error */
			struct oc_mem mem;
			uint64_t v;

			oc_dump_mem(dump, &mem);
			oc_error_destroy(oc_mem_read_u64(&mem, KTEXT + 4096, &v));
			oc_dump_close(dump);
			opened++;
		}
	}
	/* a cut inside the headers or notes cannot open */
	CHECK(failed > 0x200 / 7);
	free(b.p);
}

/* No NUMBER(phys_base): taken from a kernel-text PT_LOAD, like kdump's. */
TEST(dump_phys_base_from_segments)
{
	struct oc_dump *dump = NULL;
	const char *p = oc_test_tmp_path("kdump-style.elf");
	struct buf b;

	build_elf_phdrs(&b, "OSRELEASE=6.1.0-test\n"
			    "SYMBOL(init_top_pgt)=ffffffff80000000\n", true);
	oc_test_write_file(p, b.p, b.len);
	free(b.p);
	CHECK_OK(oc_dump_open(p, &dump));
	if (!dump)
		return;
	CHECK(oc_dump_has_page_walk(dump));
	check_reads(dump);
	oc_dump_close(dump);
	/* and without that segment there is no walk */
	build_elf(&b, "OSRELEASE=6.1.0-test\nSYMBOL(init_top_pgt)=ffffffff80000000\n");
	oc_test_write_file(p, b.p, b.len);
	free(b.p);
	CHECK_OK(oc_dump_open(p, &dump));
	if (dump) {
		CHECK(!oc_dump_has_page_walk(dump));
		oc_dump_close(dump);
	}
}

/* libkdumpfile on @path, the oracle of the page readers' tests (*@fd:
 * its file, -1 if none, closed by the caller); NULL if it cannot. */
static kdump_ctx_t *oracle_open(const char *path, int *fd)
{
	kdump_ctx_t *ctx = kdump_new();

	*fd = open(path, O_RDONLY);
	CHECK(ctx && *fd >= 0);
	if (ctx && *fd >= 0 &&
	    kdump_set_number_attr(ctx, KDUMP_ATTR_FILE_FD, *fd) == KDUMP_OK)
		return ctx;
	CHECK(!"libkdumpfile opens the file");
	if (ctx)
		kdump_free(ctx);
	return NULL;
}

static void oracle_close(kdump_ctx_t *ctx, int fd)
{
	if (ctx)
		kdump_free(ctx);
	if (fd >= 0)
		close(fd);
}

/*
 * An ELF dump's pages are read from its segments by formats/dump_elf.c,
 * as libkdumpfile 0.5.1's elf_read_page() reads them: held to
 * libkdumpfile itself on segments that end inside a page, have zeros
 * past their file part, leave holes, and overlap with other data.
 */
TEST(dump_elf_pages_as_libkdumpfile)
{
	/* physical start, memsz, filesz; each segment's file bytes are its
	 * index + 1 */
	static const uint64_t seg[][3] = {
		{ 0x0000, 0x1800, 0x1000 },	/* zeros 0x1000-0x17ff */
		{ 0x1c00, 0x0c00, 0x0c00 },	/* a hole 0x1800-0x1bff */
		{ 0x2800, 0x2800, 0x2000 },	/* overlapped by the next */
		{ 0x3000, 0x0800, 0x0800 },	/* never read */
		{ 0x6000, 0x2000, 0x1000 },	/* 0x7000: past its file part */
		{ 0x9000, 0x1000, 0x0000 },	/* no file part at all */
	};
	enum { NSEG = sizeof(seg) / sizeof(seg[0]), DATA = 0x1000 };
	const char *p = oc_test_tmp_path("segments.elf");
	Elf64_Ehdr eh = core_ehdr(NSEG + 1);
	Elf64_Phdr ph[NSEG + 1] = { { 0 } };
	unsigned char prstatus[336] = { 0 }, ours[4096], theirs[4096];
	struct oc_dump *dump = NULL;
	kdump_ctx_t *ctx;
	struct buf b = { 0 };
	size_t notes = 0x200, end, off = DATA;
	int fd;

	end = put_note(&b, notes, "CORE", NT_PRSTATUS, prstatus, sizeof(prstatus));
	end = put_note(&b, end, "VMCOREINFO", 0, VMCOREINFO, strlen(VMCOREINFO));
	ph[0].p_type = PT_NOTE;
	ph[0].p_offset = notes;
	ph[0].p_filesz = end - notes;
	for (size_t i = 0; i < NSEG; i++) {
		ph[i + 1].p_type = PT_LOAD;
		ph[i + 1].p_paddr = seg[i][0];
		ph[i + 1].p_vaddr = DIRECT + seg[i][0];
		ph[i + 1].p_memsz = seg[i][1];
		ph[i + 1].p_filesz = seg[i][2];
		ph[i + 1].p_offset = off;
		for (uint64_t j = 0; j < seg[i][2]; j++) {
			unsigned char v = (unsigned char)(i + 1);

			put(&b, off + j, &v, 1);
		}
		off += seg[i][2];
	}
	put(&b, 0, &eh, sizeof(eh));
	put(&b, sizeof(eh), ph, sizeof(ph));
	oc_test_write_file(p, b.p, b.len);
	free(b.p);

	CHECK_OK(oc_dump_open(p, &dump));
	ctx = oracle_open(p, &fd);
	if (!dump || !ctx)
		goto out;
	for (uint64_t pa = 0; pa < 0xa000; pa += 4096) {
		size_t len = sizeof(theirs);
		kdump_status st = kdump_read(ctx, KDUMP_MACHPHYSADDR, pa, theirs, &len);
		struct oc_error *err = oc_dump_read_phys(dump, pa, ours, sizeof(ours));

		/* 0x5000 and 0x8000, pages without a segment just below one:
		 * libkdumpfile 0.5.1 reads zeros there, formats/dump_elf.c
		 * in_loads() says "no ELF segment" on purpose */
		if (pa == 0x5000 || pa == 0x8000) {
			CHECK(err && strstr(err->message, "no ELF segment"));
			CHECK(st == KDUMP_OK || pa == 0x8000);
		} else {
			if ((st == KDUMP_OK) != !err)
				fprintf(stderr, "  at 0x%" PRIx64 ": libkdumpfile %s, orccrash %s\n",
					pa, st == KDUMP_OK ? "read it" : kdump_get_err(ctx),
					err ? err->message : "read it");
			CHECK((st == KDUMP_OK) == !err);
		}
		if (st == KDUMP_OK && !err)
			CHECK(!memcmp(ours, theirs, sizeof(ours)));
		oc_error_destroy(err);
		kdump_clear_err(ctx);
	}
	/* and what the segments say, byte by byte (the oracle's rule) */
	CHECK_OK(oc_dump_read_phys(dump, 0x1000, ours, sizeof(ours)));
	CHECK(ours[0] == 0 && ours[0x7ff] == 0 && ours[0xbff] == 0 &&
	      ours[0xc00] == 2 && ours[0xfff] == 2);
	/* the segment that starts first wins where two overlap */
	CHECK_OK(oc_dump_read_phys(dump, 0x3000, ours, sizeof(ours)));
	CHECK(ours[0] == 3 && ours[0x7ff] == 3 && ours[0xfff] == 3);
	CHECK_OK(oc_dump_read_phys(dump, 0x4000, ours, sizeof(ours)));
	CHECK(ours[0x7ff] == 3 && ours[0x800] == 0);
out:
	oracle_close(ctx, fd);
	oc_dump_close(dump);
}

TEST(dump_without_page_walk_info)
{
	struct oc_dump *dump = NULL;
	const char *p = oc_test_tmp_path("nowalk.elf");
	struct buf b;

	build_elf(&b, "OSRELEASE=6.1.0-test\nPAGESIZE=4096\n");
	oc_test_write_file(p, b.p, b.len);
	free(b.p);
	CHECK_OK(oc_dump_open(p, &dump));
	if (!dump)
		return;
	CHECK(!oc_dump_has_page_walk(dump));
	{
		uint64_t pa;
		struct oc_error *err = oc_dump_virt_to_phys(dump, KTEXT, &pa);

		CHECK(err && err->code == OC_ERR_UNSUPPORTED);
		oc_error_destroy(err);
	}
	/* libkdumpfile's own translation cannot help either: a fault */
	{
		struct oc_mem mem;
		uint64_t v;
		struct oc_error *err;

		oc_dump_mem(dump, &mem);
		err = oc_mem_read_u64(&mem, KTEXT + 8, &v);
		CHECK(err && err->code == OC_ERR_FAULT && err->has_address &&
		      err->address == KTEXT + 8);
		CHECK(err && strstr(err->message, "kdump_read(0xffffffff81000008)"));
		oc_error_destroy(err);
	}
	oc_dump_close(dump);
}

/* makedumpfile's page_desc.flags: how a page is compressed (0: raw) */
static const uint32_t COMPRESSION[] = { 0, 0x1, 0x2, 0x4, 0x20 };

/* @page compressed by @flags (one of COMPRESSION) into @out, as
 * makedumpfile does; 0 if that is not smaller (then stored raw). */
static size_t compress_page(uint32_t flags, const unsigned char *page,
			    unsigned char *out, size_t cap)
{
	static unsigned char lzo_mem[LZO1X_1_MEM_COMPRESS];
	uLongf zn = cap;
	lzo_uint ln = cap;
	size_t n = cap;

	switch (flags) {
	case 0x1:
		n = compress2(out, &zn, page, 4096, 1) == Z_OK ? zn : 0;
		break;
	case 0x2:
		n = lzo_init() == LZO_E_OK &&
		    lzo1x_1_compress(page, 4096, out, &ln, lzo_mem) == LZO_E_OK ? ln : 0;
		break;
	case 0x4:
		if (snappy_compress((const char *)page, 4096, (char *)out, &n) != SNAPPY_OK)
			n = 0;
		break;
	case 0x20:
		n = ZSTD_compress(out, cap, page, 4096, 1);
		if (ZSTD_isError(n))
			n = 0;
		break;
	default:
		n = 0;
	}
	return n < 4096 ? n : 0;
}

/*
 * A kdump-compressed file of the page frames @pfns (ascending, @n of
 * them, at most 170: one block of descriptors) out of @max_mapnr (at
 * most 32,768: one block a bitmap); a frame below NPAGES holds that
 * page of build_elf()'s memory, a higher one its own tags (frame
 * number, then offset).  @mixed: frame N compressed by
 * COMPRESSION[N % 5].  @split_from (NO_SPLIT: none): one file of
 * makedumpfile --split, for frames from there to @max_mapnr: the whole
 * bitmap, the descriptors and pages of its frames only.
 */
enum { NO_SPLIT = -1 };

static void build_kdump_pfns(struct buf *k, const uint64_t *pfns, size_t n,
			     uint32_t max_mapnr, bool mixed, int split_from)
{
	struct buf e;
	Elf64_Phdr note;
	unsigned char hdr[4096] = "KDUMP   ", bitmap[4096] = { 0 };
	int32_t i32;
	uint64_t u64;
	size_t notes_at = 4096 + 0x100, vmci_at;

	build_elf(&e, VMCOREINFO);
	memcpy(&note, e.p + sizeof(Elf64_Ehdr), sizeof(note));
	k->p = NULL;
	k->len = 0;
	i32 = 6;
	memcpy(hdr + 8, &i32, 4);			/* header_version */
	memcpy(hdr + 12 + 4 * 65, "x86_64", 6);		/* utsname.machine */
	i32 = 4096;
	memcpy(hdr + 428, &i32, 4);			/* block_size */
	i32 = 1;
	memcpy(hdr + 432, &i32, 4);			/* sub_hdr_size */
	i32 = 2;
	memcpy(hdr + 436, &i32, 4);			/* bitmap_blocks */
	memcpy(hdr + 440, &max_mapnr, 4);		/* max_mapnr */
	i32 = 2;
	memcpy(hdr + 460, &i32, 4);			/* nr_cpus */
	put(k, 0, hdr, sizeof(hdr));

	/* sub-header: offsets of the notes and VMCOREINFO */
	put(k, notes_at, e.p + note.p_offset, note.p_filesz);
	vmci_at = notes_at + note.p_filesz;
	put(k, vmci_at, VMCOREINFO, strlen(VMCOREINFO));
	i32 = 1;
	put(k, 4096 + 8, &i32, 4);			/* dump_level */
	if (split_from != NO_SPLIT) {
		put(k, 4096 + 12, &i32, 4);		/* split */
		u64 = (uint64_t)split_from;
		put(k, 4096 + 16, &u64, 8);		/* start_pfn */
		put(k, 4096 + 80, &u64, 8);		/* start_pfn_64 */
		u64 = max_mapnr;
		put(k, 4096 + 24, &u64, 8);		/* end_pfn */
		put(k, 4096 + 88, &u64, 8);		/* end_pfn_64 */
	}
	u64 = vmci_at;
	put(k, 4096 + 32, &u64, 8);
	u64 = strlen(VMCOREINFO);
	put(k, 4096 + 40, &u64, 8);
	u64 = notes_at;
	put(k, 4096 + 48, &u64, 8);
	u64 = note.p_filesz;
	put(k, 4096 + 56, &u64, 8);
	u64 = max_mapnr;
	put(k, 4096 + 96, &u64, 8);			/* max_mapnr_64 */

	/* every frame below max_mapnr present (first bitmap), @pfns dumped
	 * (second) */
	for (uint32_t pfn = 0; pfn < max_mapnr; pfn++)
		bitmap[pfn / 8] |= (unsigned char)(1u << (pfn % 8));
	put(k, 2 * 4096, bitmap, sizeof(bitmap));
	memset(bitmap, 0, sizeof(bitmap));
	for (size_t i = 0; i < n; i++)
		bitmap[pfns[i] / 8] |= (unsigned char)(1u << (pfns[i] % 8));
	put(k, 3 * 4096, bitmap, sizeof(bitmap));
	/* descriptors of the dumped pages, in pfn order: offset, size,
	 * flags (0: stored raw), page_flags; the data in pfn order */
	for (uint64_t i = 0, d = 0, at = 5 * 4096; i < n; i++) {
		uint64_t pfn = pfns[i], tags[512];
		const unsigned char *page = (const unsigned char *)tags;
		unsigned char z[8192];
		uint32_t flags = mixed ? COMPRESSION[pfn % 5] : 0;
		size_t size;
		uint32_t desc[6];

		if (split_from != NO_SPLIT && pfn < (uint64_t)split_from)
			continue;
		if (pfn < NPAGES)
			page = e.p + LOAD_OFFSET + pfn * 4096;
		else
			for (unsigned int off = 0; off < 4096; off += 8)
				tags[off / 8] = pfn << 32 | off;
		size = compress_page(flags, page, z, sizeof(z));
		desc[0] = (uint32_t)at;
		desc[1] = (uint32_t)(at >> 32);
		desc[2] = size ? (uint32_t)size : 4096;
		desc[3] = size ? flags : 0;
		desc[4] = desc[5] = 0;
		put(k, 4 * 4096 + d++ * 24, desc, 24);
		put(k, at, size ? z : page, size ? size : 4096);
		at += size ? size : 4096;
	}
	free(e.p);
}

/*
 * The same memory and notes as a kdump-compressed file (makedumpfile's
 * diskdump_mod.h layout, header version 6): block 0 header, block 1
 * sub-header + notes + VMCOREINFO, blocks 2-3 the two bitmaps, block 4
 * page descriptors, then the pages (raw, or by each method: @mixed).
 * Page frame @skip (NPAGES: none) is left out, as makedumpfile excludes
 * a page: its bit clear in the second bitmap, no descriptor.
 */
static void build_kdump_methods(struct buf *k, unsigned int skip, bool mixed)
{
	uint64_t pfns[NPAGES];
	size_t n = 0;

	for (uint64_t pfn = 0; pfn < NPAGES; pfn++)
		if (pfn != skip)
			pfns[n++] = pfn;
	build_kdump_pfns(k, pfns, n, NPAGES, mixed, NO_SPLIT);
}

static void build_kdump(struct buf *k, unsigned int skip)
{
	build_kdump_methods(k, skip, false);
}

static void flatten(const struct buf *in, struct buf *out, size_t chunk)
{
	static const char sig[16] = "makedumpfile";

	out->p = NULL;
	out->len = 0;
	put(out, 0, sig, sizeof(sig));
	put_be64(out, 1);
	put_be64(out, 1);
	put(out, 4095, "", 1);
	/* back to front, so the reassembly has to seek */
	for (size_t off = (in->len - 1) / chunk * chunk;; off -= chunk) {
		size_t n = in->len - off < chunk ? in->len - off : chunk;

		put_be64(out, off);
		put_be64(out, n);
		put(out, out->len, in->p + off, n);
		if (!off)
			break;
	}
	put_be64(out, -1);
	put_be64(out, -1);
}

TEST(dump_kdump_compressed)
{
	struct oc_dump *dump = NULL;
	const char *p = oc_test_tmp_path("good.kdump"), *pf = oc_test_tmp_path("good-kdump.flat");
	const struct oc_prstatus *n;
	struct buf k, f;
	size_t len;
	const char *v;

	build_kdump(&k, NPAGES);
	oc_test_write_file(p, k.p, k.len);
	flatten(&k, &f, 3000);
	oc_test_write_file(pf, f.p, f.len);
	CHECK_OK(oc_dump_open(p, &dump));
	if (dump) {
		CHECK_STR(oc_dump_format_name(dump), "kdump-compressed");
		CHECK(oc_dump_is_qemu(dump));
		CHECK_EQ(oc_dump_nr_cpu_notes(dump), 2);
		n = oc_dump_cpu_note(dump, 0);
		CHECK(n && n->pid == 1 && n->regs.ip == KTEXT + 0x100);
		v = vmcoreinfo_value(dump, "OSRELEASE", &len);
		CHECK(v && len == 10 && !strncmp(v, "6.1.0-test", 10));
		CHECK(oc_dump_has_page_walk(dump));
		check_reads(dump);
		oc_dump_close(dump);
	}
	check_opens(pf, "flattened kdump-compressed");
	free(k.p);
	free(f.p);
}

/*
 * A kdump-compressed file's pages are read from their descriptors by
 * formats/dump_kdump.c, as libkdumpfile 0.5.1 reads them: held to
 * libkdumpfile itself on pages stored raw and compressed by each of
 * makedumpfile's methods (zlib, lzo, snappy, zstd), one page excluded,
 * and on a page whose compressed data is garbage.
 */
TEST(dump_kdump_pages_as_libkdumpfile)
{
	const char *p = oc_test_tmp_path("methods.kdump");
	unsigned char ours[4096], theirs[4096];
	struct oc_dump *dump = NULL;
	kdump_ctx_t *ctx = NULL;
	unsigned int methods = 0;
	struct buf k;
	int fd = -1;

	build_kdump_methods(&k, 11, true);
	/* every method made it into the file, not only raw pages */
	for (unsigned int n = 0; n < NPAGES - 1; n++) {
		uint32_t flags;

		memcpy(&flags, k.p + 4 * 4096 + n * 24 + 12, 4);
		methods |= flags;
	}
	CHECK_EQ(methods, 0x1u | 0x2 | 0x4 | 0x20);
	oc_test_write_file(p, k.p, k.len);
	CHECK_OK(oc_dump_open(p, &dump));
	ctx = oracle_open(p, &fd);
	if (!dump || !ctx)
		goto out;
	for (uint64_t pfn = 0; pfn < NPAGES; pfn++) {
		size_t len = sizeof(theirs);
		kdump_status st = kdump_read(ctx, KDUMP_MACHPHYSADDR, pfn * 4096,
					     theirs, &len);
		struct oc_error *err = oc_dump_read_phys(dump, pfn * 4096, ours,
							 sizeof(ours));

		CHECK((st == KDUMP_OK) == !err);
		CHECK(!err == (pfn != 11));
		if (st == KDUMP_OK && !err)
			CHECK(!memcmp(ours, theirs, sizeof(ours)));
		oc_error_destroy(err);
		kdump_clear_err(ctx);
	}
	check_reads(dump);
	oc_dump_close(dump);
	dump = NULL;

	/* pfn 6 is zlib's (6 % 5): garbage in its data is an error */
	{
		uint64_t off;
		uint32_t size;
		struct oc_error *err;

		memcpy(&off, k.p + 4 * 4096 + 6 * 24, 8);
		memcpy(&size, k.p + 4 * 4096 + 6 * 24 + 8, 4);
		memset(k.p + off, 0x5a, size);
		oc_test_write_file(p, k.p, k.len);
		CHECK_OK(oc_dump_open(p, &dump));
		if (!dump)
			goto out;
		err = oc_dump_read_phys(dump, 6 * 4096, ours, 8);
		CHECK(err && err->code == OC_ERR_FAULT &&
		      strstr(err->message, "not in the dump") &&
		      strstr(err->message, "zlib"));
		oc_error_destroy(err);
		/* its neighbours still read */
		CHECK_OK(oc_dump_read_phys(dump, 7 * 4096, ours, 8));
	}
out:
	oracle_close(ctx, fd);
	oc_dump_close(dump);
	free(k.p);
}

/*
 * A descriptor's index is the count of the dump bitmap's set bits
 * before its page frame: frames around the 1,024-frame blocks the
 * counts are kept for, after long runs of excluded frames, read as
 * libkdumpfile reads them, every frame of 4,096 asked.  Then one file
 * of makedumpfile --split (frames from 1,017 on): its descriptors start
 * at its first frame, and libkdumpfile reads its pages
 * (formats/dump_kdump.c); the frames before are not in it.
 */
TEST(dump_kdump_sparse_frames)
{
	static const uint64_t ranges[][2] = {
		{ 0, 16 }, { 1017, 1031 }, { 2047, 2049 }, { 3000, 3004 },
		{ 4095, 4096 },
	};
	const char *p = oc_test_tmp_path("sparse.kdump");
	unsigned char ours[4096], theirs[4096];
	uint64_t pfns[64];
	size_t n = 0;

	for (size_t r = 0; r < sizeof(ranges) / sizeof(ranges[0]); r++)
		for (uint64_t pfn = ranges[r][0]; pfn < ranges[r][1]; pfn++)
			pfns[n++] = pfn;
	for (int split = 0; split < 2; split++) {
		int from = split ? 1017 : NO_SPLIT;
		struct oc_dump *dump = NULL;
		kdump_ctx_t *ctx;
		size_t in = 0, read = 0, at = 0;
		struct buf k;
		int fd;

		build_kdump_pfns(&k, pfns, n, 4096, true, from);
		oc_test_write_file(p, k.p, k.len);
		free(k.p);
		CHECK_OK(oc_dump_open(p, &dump));
		ctx = oracle_open(p, &fd);
		for (uint64_t pfn = 0; dump && ctx && pfn < 4096; pfn++) {
			size_t len = sizeof(theirs);
			kdump_status st = kdump_read(ctx, KDUMP_MACHPHYSADDR,
						     pfn * 4096, theirs, &len);
			struct oc_error *err = oc_dump_read_phys(dump, pfn * 4096,
								 ours, sizeof(ours));

			while (at < n && pfns[at] < pfn)
				at++;
			in += at < n && pfns[at] == pfn && (!split || pfn >= 1017);
			read += !err;
			CHECK((st == KDUMP_OK) == !err);
			if (!err && st == KDUMP_OK)
				CHECK(!memcmp(ours, theirs, sizeof(ours)));
			if (!err && pfn >= NPAGES) {
				uint64_t tag;

				memcpy(&tag, ours + 0x48, 8);
				CHECK_EQ(tag, pfn << 32 | 0x48);
			}
			oc_error_destroy(err);
			kdump_clear_err(ctx);
		}
		CHECK_EQ(in, (split ? n - 16 : n));
		CHECK_EQ(read, in);
		oracle_close(ctx, fd);
		oc_dump_close(dump);
	}
}

/*
 * A page the kdump file leaves out is "not in the dump" by its bitmap,
 * the same on every read, and is never asked of libkdumpfile (0.5.1
 * failed later reads of pages that are in the file after such reads,
 * formats/dump.c fill_page()): its message names the bitmap, not
 * kdump_read().  The pages around it read right after many such reads,
 * and oc_dump_missing_pfns() lists it once.
 */
TEST(dump_kdump_excluded_page)
{
	struct oc_dump *dump = NULL;
	const char *p = oc_test_tmp_path("excluded.kdump");
	struct oc_error *err;
	uint64_t v, pfns[4];
	struct buf k;

	build_kdump(&k, 11);
	oc_test_write_file(p, k.p, k.len);
	CHECK_OK(oc_dump_open(p, &dump));
	if (dump) {
		for (int i = 0; i < 100; i++) {
			err = oc_dump_read_phys(dump, 11 * 4096 + (i % 512) * 8, &v, 8);
			CHECK(err && err->code == OC_ERR_FAULT &&
			      err->address == 11 * 4096 &&
			      strstr(err->message, "excluded from the kdump file"));
			oc_error_destroy(err);
			/* a page dumped behind it: its descriptor is one earlier */
			CHECK_OK(oc_dump_read_phys(dump, 12 * 4096 + 8, &v, 8));
			CHECK_EQ(v, 12ULL << 32 | 8);
		}
		CHECK_OK(oc_dump_read_phys(dump, 10 * 4096 + 16, &v, 8));
		CHECK_EQ(v, 10ULL << 32 | 16);
		CHECK_EQ(oc_dump_missing_pfns(dump, pfns, 4), 1);
		CHECK_EQ(pfns[0], 11);
		check_reads(dump);
		oc_dump_close(dump);
	}
	free(k.p);
}

/*
 * A version 5 header (no max_mapnr_64) whose max_mapnr, 13, ends inside
 * a bitmap byte: the bits past it are not pages of the file, whatever
 * the byte holds, and pages below it read.
 */
TEST(dump_kdump_max_mapnr_mid_byte)
{
	struct oc_dump *dump = NULL;
	const char *p = oc_test_tmp_path("v5.kdump");
	struct oc_error *err;
	int32_t i32;
	uint64_t v;
	struct buf k;

	build_kdump(&k, NPAGES);
	i32 = 5;
	memcpy(k.p + 8, &i32, 4);			/* header_version */
	i32 = 13;
	memcpy(k.p + 440, &i32, 4);			/* max_mapnr */
	oc_test_write_file(p, k.p, k.len);
	CHECK_OK(oc_dump_open(p, &dump));
	if (dump) {
		CHECK_OK(oc_dump_read_phys(dump, 12 * 4096 + 8, &v, 8));
		CHECK_EQ(v, 12ULL << 32 | 8);
		err = oc_dump_read_phys(dump, 14 * 4096, &v, 8);
		CHECK(err && err->code == OC_ERR_FAULT &&
		      strstr(err->message, "past the kdump file's last page frame"));
		oc_error_destroy(err);
		oc_dump_close(dump);
	}
	free(k.p);
}

/*
 * @b with byte @off set to @v, written to @path and opened: 1 when the
 * dump opens (its reads then fail cleanly or succeed, its CPU notes are
 * there), 0 when the open refuses it, -1 when the byte already is @v.
 */
static int open_corrupted(struct buf *b, size_t off, unsigned char v,
			  const char *path)
{
	unsigned char saved = b->p[off];
	struct oc_dump *dump = NULL;
	struct oc_error *err;
	struct oc_mem mem;
	uint64_t x;

	if (saved == v)
		return -1;
	b->p[off] = v;
	oc_test_write_file(path, b->p, b->len);
	b->p[off] = saved;
	if (getenv("OC_TEST_TRACE"))
		fprintf(stderr, "off 0x%zx = 0x%02x\n", off, v);
	err = oc_dump_open(path, &dump);
	if (err) {
		oc_error_destroy(err);
		return 0;
	}
	oc_dump_mem(dump, &mem);
	oc_error_destroy(oc_mem_read_u64(&mem, KTEXT, &x));
	oc_error_destroy(oc_dump_read_phys(dump, 0x3000, &x, 8));
	for (size_t i = 0; i < oc_dump_nr_cpu_notes(dump); i++)
		CHECK(oc_dump_cpu_note(dump, i) != NULL);
	oc_dump_close(dump);
	return 1;
}

/* Corrupt the kdump header, sub-header, bitmaps and descriptors. */
TEST(dump_kdump_corrupted)
{
	static const size_t ranges[][2] = {
		{ 0, 464 }, { 4096, 4096 + 104 }, { 2 * 4096, 2 * 4096 + 4 },
		{ 3 * 4096, 3 * 4096 + 4 }, { 4 * 4096, 4 * 4096 + 48 },
	};
	const char *p = oc_test_tmp_path("corrupt.kdump");
	struct buf k;
	unsigned int opened = 0, failed = 0;

	build_kdump(&k, NPAGES);
	for (size_t r = 0; r < sizeof(ranges) / sizeof(ranges[0]); r++) {
		for (size_t off = ranges[r][0]; off < ranges[r][1]; off++) {
			/* utsname and the timestamp are only text */
			if (off >= 12 && off < 424)
				continue;
			for (int v = 0; v < 2; v++) {
				int got = open_corrupted(&k, off, v ? 0x00 : 0xff, p);

				opened += got == 1;
				failed += got == 0;
			}
		}
	}
	CHECK(opened > 0 && failed > 0);
	free(k.p);
}

/* Every byte of the headers and notes set to 0xff or 0x00: no crash. */
TEST(dump_corrupted_headers)
{
	const char *p = oc_test_tmp_path("corrupt.elf");
	struct buf b;
	size_t end;
	unsigned int opened = 0;

	build_elf(&b, VMCOREINFO);
	end = 0x200 + 2 * (20 + 336) + 20 + 64 + 12 + sizeof(VMCOREINFO) + 3;
	for (size_t off = 0; off < end && off < b.len; off++)
		for (int v = 0; v < 2; v++)
			opened += open_corrupted(&b, off, v ? 0x00 : 0xff, p) == 1;
	/* most bytes are padding or register values: those still open */
	CHECK(opened > 0);
	free(b.p);
}
