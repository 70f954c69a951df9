// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel model: everything orccrash knows about the crashed kernel,
 * read once from the dump (and the vmlinux when given).  Struct layouts
 * come from BTF; nothing here hard-codes an offset that BTF can answer.
 */
#include <ctype.h>
#include <pthread.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "btf.h"
#include "dump.h"
#include "cficache.h"
#include "dwarfcfi.h"
#include "elffile.h"
#include "kernel.h"
#include "kmodel.h"
#include "log.h"
#include "pgwalk.h"
#include "strutil.h"
#include "symcache.h"
#include "typecache.h"
#include "vmcoreinfo.h"

/* Caps on everything that follows a pointer in dump memory. */
static const size_t max_tasks = 1u << 20;
static const size_t max_modules = 4096;
static const uint64_t max_module_orcs = 1u << 22;
static const uint64_t max_module_syms = 1u << 20;

void oc_kernel_warn(struct oc_kernel *k, const char *fmt, ...)
{
	va_list ap;

	if (k->nr_warnings >= sizeof(k->warnings) / sizeof(k->warnings[0]))
		return;
	va_start(ap, fmt);
	vsnprintf(k->warnings[k->nr_warnings++], sizeof(k->warnings[0]), fmt,
		  ap);
	va_end(ap);
}

void oc_kernel_warn_err(struct oc_kernel *k, struct oc_error *err,
			const char *fmt, ...)
{
	char what[160], buf[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	oc_kernel_warn(k, "%s: %s", what,
		       oc_error_take(err, buf, sizeof(buf)));
}

static unsigned int parse_version(const char *release)
{
	unsigned int a = 0, b = 0, c = 0;

	if (sscanf(release, "%u.%u.%u", &a, &b, &c) < 2)
		return 0;
	if (c > 255)
		c = 255;
	return OC_KERNEL_VERSION(a, b, c);
}

/* ---- small typed readers ------------------------------------------- */

struct oc_error *oc_kernel_offsetof(struct oc_kernel *k, const char *type,
				    const char *member, uint64_t *ret)
{
	return oc_types_offsetof(k->types, type, member, ret);
}

/* Read an integer member of 1, 2, 4 or 8 bytes, zero-extended. */
struct oc_error *oc_kernel_read_member(struct oc_kernel *k, uint64_t obj,
				       const char *type, const char *member,
				       uint64_t *ret)
{
	struct oc_member m;
	struct oc_error *err = oc_types_member(k->types, type, member, &m);
	uint8_t buf[8] = {0};

	if (err)
		return err;
	if (!m.size || m.size > 8)
		return oc_error_format(OC_ERR_FORMAT, "%s.%s is %" PRIu64
				       " bytes, not an integer", type, member,
				       m.size);
	err = oc_mem_read(&k->mem, obj + m.offset, buf, m.size);
	if (err)
		return err;
	memcpy(ret, buf, 8);
	if (m.bit_size) {
		*ret >>= m.bit_offset;
		if (m.bit_size < 64)
			*ret &= (1ull << m.bit_size) - 1;
	}
	return NULL;
}

uint64_t oc_kernel_symbol_addr(const struct oc_kernel *k, const char *name)
{
	const struct oc_symbol *s = oc_symtab_find(&k->syms, name);
	uint64_t v;

	if (s)
		return oc_symtab_addr(&k->syms, s);
	/* VMCOREINFO exports a few symbols, already relocated (none
	 * without a dump: tests/fuzz/fuzz_model.c's model over memory alone) */
	if (k->dump &&
	    oc_ok(oc_vmcoreinfo_symbol(oc_dump_vmcoreinfo(k->dump), name, &v)))
		return v;
	return 0;
}

static uint64_t percpu_sym(const struct oc_kernel *k, const char *name)
{
	const struct oc_symbol *s = oc_symtab_find(&k->percpu_syms, name);

	return s ? oc_symtab_addr(&k->percpu_syms, s) : UINT64_MAX;
}

uint64_t oc_kernel_percpu_addr(const struct oc_kernel *k, const char *name,
			       unsigned int cpu)
{
	uint64_t off = percpu_sym(k, name);

	if (off == UINT64_MAX || cpu >= k->nr_cpus)
		return 0;
	return off + k->cpus[cpu].per_cpu_offset;
}

/* ---- opening: dump, vmlinux, symbols, types ------------------------- */

/* k->mem when the model reads the dump (readers for other threads, below) */
static struct oc_error *model_read(void *arg, uint64_t addr, void *buf,
				   size_t len);

/*
 * The vmlinux's symbols and per-CPU symbols, finished, unrelocated:
 * from the per-build cache (src/symcache.c), else from its ELF symbol
 * table, then cached.
 */
static struct oc_error *vmlinux_symbols(struct oc_kernel *k, unsigned int keep)
{
	struct oc_error *err;

	oc_elf_kallsyms_keep(k->elf, keep);
	if (oc_symcache_load(k->elf, keep, &k->syms, &k->percpu_syms,
			     &k->symcache))
		return NULL;
	err = oc_elf_symtabs(k->elf, &k->syms, &k->percpu_syms);
	if (err)
		return err;
	/* names at one address as the kernel's kallsyms orders them (the
	 * per-CPU ones too: 7.x's const_current_task and current_task) */
	k->syms.ties = OC_SYMTAB_TIES_KALLSYMS_SCRIPT;
	k->percpu_syms.ties = OC_SYMTAB_TIES_KALLSYMS_SCRIPT;
	err = oc_symtab_finish(&k->syms);
	if (!err)
		err = oc_symtab_finish(&k->percpu_syms);
	if (!err)
		oc_symcache_save(k->elf, keep, &k->syms, &k->percpu_syms);
	return err;
}

static struct oc_error *read_vmlinux(struct oc_kernel *k, const char *vmlinux)
{
	struct oc_error *err;
	unsigned int keep = 0;

	err = oc_elf_open(vmlinux, &k->elf);
	if (err)
		return err;
	/* what older kernels' own tables kept (formats/elffile.h) */
	if (k->version && k->version < OC_KERNEL_VERSION(6, 1, 0))
		keep = OC_ELF_KEEP_KSTRTAB |
		       (k->version < OC_KERNEL_VERSION(5, 18, 0) ?
			OC_ELF_KEEP_LOCAL_LABELS : 0);
	else if (k->version >= OC_KERNEL_VERSION(6, 2, 0))
		keep = OC_ELF_KEEP_KALLSYMS_TABLES;
	err = vmlinux_symbols(k, keep);
	if (err)
		return oc_error_set_path(err, vmlinux);
	oc_symtab_relocate(&k->syms, k->kaslr_offset);
	/*
	 * Until 6.14 x86-64 linked .data..percpu at address 0
	 * (arch/x86/kernel/vmlinux.lds.S: PERCPU_VADDR(..., 0, :percpu) under
	 * CONFIG_X86_64_SMP): a per-CPU symbol is an offset into each CPU's
	 * area, which KASLR does not move.  6.15's per-CPU rework
	 * ("x86/percpu/64: Use relative percpu offsets"; PERCPU_VADDR is in
	 * 6.12's include/asm-generic/vmlinux.lds.h, not in 7.2's) links the
	 * section in place, like any data: its symbols are kernel addresses,
	 * relocated by KASLR.  __per_cpu_offset[cpu] is the CPU's area minus
	 * __per_cpu_start in both (arch/x86/kernel/setup_percpu.c
	 * setup_per_cpu_areas(): delta = pcpu_base_addr - __per_cpu_start),
	 * so symbol + __per_cpu_offset[cpu] is right for both once the
	 * symbol is relocated.  Keyed on the section's link address, not the
	 * version (7.2.13+deb14: .data..percpu at 0xffffffff83da5000).
	 */
	{
		struct oc_elf_section sec;

		err = oc_elf_section(k->elf, ".data..percpu", &sec);
		if (!err && sec.addr)
			oc_symtab_relocate(&k->percpu_syms, k->kaslr_offset);
		oc_error_destroy(err);
		/* where vmlinux_cfi() finds it, from any thread: libelf's
		 * mapping, nothing read now */
		if (oc_ok(oc_elf_section(k->elf, ".debug_frame", &sec)) &&
		    sec.data && sec.size) {
			k->debug_frame = sec.data;
			k->debug_frame_size = sec.size;
		}
	}
	return NULL;
}

/*
 * Since 5.9 (0935288c6e00, "kdump: append kernel build-id string to
 * VMCOREINFO") the dump names the kernel's GNU build-id: a vmlinux with
 * another one is another build, whatever its banner says.  false, with
 * a detail, when both are known and differ.
 */
static bool build_id_matches(struct oc_kernel *k, char *detail, size_t size)
{
	const char *want = NULL;
	const uint8_t *id;
	char have[2 * 64 + 1];
	size_t len = 0;

	if (!oc_ok(oc_vmcoreinfo_value(oc_dump_vmcoreinfo(k->dump), "BUILD-ID",
				       &want)) || !want || !*want)
		return true;
	id = oc_elf_build_id(k->elf, &len);
	if (!id || !len || len > 64)
		return true;
	oc_hex_string(id, len, have, sizeof(have));
	if (!strcasecmp(want, have))
		return true;
	snprintf(detail, size, "the dump's build-id is %.64s, this vmlinux's %.64s",
		 want, have);
	return false;
}

/*
 * The vmlinux must be the crashed kernel's: its linux_banner (release,
 * build host, date) must equal the one in dump memory.
 */
static struct oc_error *check_match(struct oc_kernel *k, bool force)
{
	const struct oc_symbol *s = oc_symtab_find(&k->syms, "linux_banner");
	char file_banner[256] = "", mem_banner[256] = "", detail_id[256];
	struct oc_error *err;

	if (!s)
		return oc_error_file(OC_ERR_MISMATCH, oc_elf_path(k->elf),
				     "no linux_banner symbol: not a vmlinux?");
	err = oc_elf_read(k->elf, s->value, file_banner,
			  sizeof(file_banner) - 1);
	if (err)
		return err;
	file_banner[strcspn(file_banner, "\n")] = '\0';
	err = oc_mem_read_string(&k->mem, oc_symtab_addr(&k->syms, s), mem_banner,
				 sizeof(mem_banner));
	mem_banner[strcspn(mem_banner, "\n")] = '\0';
	if (err && !force) {
		/* the vmlinux may be right; the dump lacks the page */
		char detail[200];
		uint64_t size, needed;

		oc_error_take(err, detail, sizeof(detail));
		if (oc_dump_truncated(k->dump, &size, &needed))
			return oc_error_file(OC_ERR_FAULT, oc_dump_path(k->dump),
					     "cannot read the kernel banner: the dump is truncated: %" PRIu64 " of %" PRIu64 " bytes (%s)",
					     size, needed, detail);
		return oc_error_file(OC_ERR_FAULT, oc_dump_path(k->dump),
				     "cannot read the kernel banner: the dump is truncated or incomplete (%s)",
				     detail);
	}
	if (!err && !strcmp(file_banner, mem_banner) &&
	    !build_id_matches(k, detail_id, sizeof(detail_id)))
		err = oc_error_format(OC_ERR_MISMATCH, "%s", detail_id);
	if (err || strcmp(file_banner, mem_banner)) {
		char detail[200];

		if (err) {
			oc_error_take(err, detail, sizeof(detail));
		} else {
			/* "Linux version RELEASE (...": the vmlinux's release */
			const char *v = strstr(file_banner, "version ");
			int len = 0;

			if (v) {
				v += 8;
				len = (int)strcspn(v, " ");
			}
			snprintf(detail, sizeof(detail),
				 "the dump is %s, this vmlinux is %.*s%s",
				 k->release, len, v ? v : "",
				 v && len == (int)strlen(k->release) &&
				 !strncmp(v, k->release, len) ?
				 " but another build" : "");
		}
		if (!force)
			return oc_error_file(OC_ERR_MISMATCH, oc_elf_path(k->elf),
					     "does not match the dump (%s); use --force to go on",
					     detail);
		oc_kernel_warn(k, "vmlinux does not match the dump (%s)",
			       detail);
	}
	/* with --force the dump's "banner" may be any bytes */
	for (char *c = mem_banner; *c; c++)
		if (!isprint((unsigned char)*c))
			*c = '?';
	snprintf(k->banner, sizeof(k->banner), "%s", mem_banner[0] ?
		 mem_banner : file_banner);
	return NULL;
}

/* The release in a "Linux version RELEASE (builder) ..." banner. */
static bool banner_release(const char *banner, char *buf, size_t size)
{
	static const char prefix[] = "Linux version ";
	size_t n;

	if (strncmp(banner, prefix, sizeof(prefix) - 1))
		return false;
	banner += sizeof(prefix) - 1;
	n = strcspn(banner, " ");
	if (!n || n >= size)
		return false;
	memcpy(buf, banner, n);
	buf[n] = '\0';
	return true;
}

/* init_uts_ns.name.release in memory; false if it cannot be read. */
static bool uts_release(struct oc_kernel *k, char *buf, size_t size)
{
	uint64_t ns = oc_kernel_symbol_addr(k, "init_uts_ns"), name, rel;

	if (!ns || size < 65 ||
	    !oc_ok(oc_kernel_offsetof(k, "struct uts_namespace", "name", &name)) ||
	    !oc_ok(oc_kernel_offsetof(k, "struct new_utsname", "release", &rel)) ||
	    !oc_ok(oc_mem_read(&k->mem, ns + name + rel, buf, 65)))
		return false;
	buf[64] = '\0';	/* __NEW_UTS_LEN + 1 */
	return buf[0] != '\0';
}

/*
 * One kernel, one release.  VMCOREINFO's OSRELEASE is the crashed
 * kernel's init_uts_ns.name.release (kernel/crash_core.c), linux_banner
 * is built from the same UTS_RELEASE (init/version.c): they agree in
 * every dump a kernel wrote.  When they do not, something rewrote one
 * of them, and the release the ORC format and the debuginfo paths
 * follow must not be the least trusted: VMCOREINFO is a note any tool
 * can rewrite; the banner was compared with the vmlinux's own (or, with
 * no vmlinux, is kernel memory like the tables read from it).  Refuse,
 * or with --force warn and go on with the banner's release.
 */
static struct oc_error *check_release(struct oc_kernel *k, bool force)
{
	char from_banner[65] = "", from_uts[65] = "", trusted[65];
	bool have_banner = banner_release(k->banner, from_banner,
					  sizeof(from_banner));
	bool have_uts = uts_release(k, from_uts, sizeof(from_uts));
	char detail[320];

	snprintf(trusted, sizeof(trusted), "%s", have_banner ? from_banner :
		 have_uts ? from_uts : k->release);
	if (!strcmp(k->release, trusted) &&
	    (!have_uts || !strcmp(from_uts, trusted)))
		return NULL;
	snprintf(detail, sizeof(detail),
		 "VMCOREINFO OSRELEASE %s, linux_banner %s, init_uts_ns %s",
		 k->release, have_banner ? from_banner : "(none)",
		 have_uts ? from_uts : "(unreadable)");
	if (!force)
		return oc_error_file(OC_ERR_MISMATCH, oc_dump_path(k->dump),
				     "the kernel's release sources disagree (%s): one was rewritten; use --force to go on with %s",
				     detail, trusted);
	oc_kernel_warn(k, "the kernel's release sources disagree (%s): using %s",
		       detail, trusted);
	snprintf(k->release, sizeof(k->release), "%s", trusted);
	k->version = parse_version(k->release);
	k->release_mismatch = true;
	return NULL;
}

/* The vmlinux's BTF itself: the types memo's backend, made in any
 * thread (the bytes found by read_btf(): libelf in the opening thread
 * only). */
static struct oc_error *load_vmlinux_btf(void *arg, struct oc_types **ret)
{
	const struct oc_kernel *k = arg;

	return oc_btf_types_create(k->btf_data, k->btf_size, ret);
}

/*
 * The kernel's types: the vmlinux's BTF behind a memo of the answers
 * (src/typecache.c): kept from the last run over this vmlinux, the BTF
 * is opened only for a question the memo lacks; else opened now, as it
 * always was, and the memo written at the close.  Without a vmlinux,
 * the BTF in the dump's memory.
 */
static struct oc_error *read_btf(struct oc_kernel *k)
{
	struct oc_elf_section sec;
	struct oc_types *btf;
	struct oc_error *err;

	if (k->elf) {
		err = oc_elf_section(k->elf, ".BTF", &sec);
		if (!err && sec.data) {
			k->btf_data = sec.data;
			k->btf_size = sec.size;
			k->typecache = oc_typecache_open(k->elf, sec.size);
			if (oc_typecache_load(k->typecache, load_vmlinux_btf, k,
					      &k->types))
				return NULL;
			err = load_vmlinux_btf(k, &btf);
			if (!err) {
				err = oc_types_memo_create(btf, NULL, NULL, NULL, 0,
							   &k->types);
				if (err)
					oc_types_destroy(btf);
			}
			return err;
		}
		oc_error_destroy(err);
	}
	return oc_kmodel_btf_from_memory(k);
}

/*
 * The vmlinux's ORC tables are decoded in a thread of their own while
 * the model reads the CPUs, stacks and tasks (a quarter of a sample's
 * instructions, 368,000 entries on 6.12), and joined before the modules:
 * orc_begin() finds the sections and the ORC version (libelf, in the
 * opening thread; after check_release(), whose release picks the ORC
 * format: tests/corrupt/run.sh's OSRELEASE case), the thread only
 * decodes the bytes libelf already holds into k->orc, which nothing
 * reads until orc_end().  An error found by either is returned by
 * orc_end(), where the tables were read before.
 */
struct orc_job {
	struct oc_kernel *k;
	struct oc_elf_section ip, orc;
	struct oc_error *err;
	pthread_t thread;
	bool started;
};

static void *orc_parse(void *arg)
{
	struct orc_job *j = arg;
	/* .orc_unwind stays where libelf mapped it: k->elf is closed
	 * after k->orc (oc_kernel_close()) */
	struct oc_error *err = oc_orc_table_parse_borrowed(&j->k->orc,
							   j->k->orc_version,
							   j->ip.addr, j->ip.data,
							   j->ip.size, j->orc.data,
							   j->orc.size);

	j->err = err ? oc_error_set_path(err, oc_elf_path(j->k->elf)) : NULL;
	return NULL;
}

static void orc_begin(struct oc_kernel *k)
{
	struct orc_job *j = calloc(1, sizeof(*j));
	struct oc_elf_section hdr;
	struct oc_error *err;
	const void *hdr_data = NULL;
	size_t hdr_len = 0;

	k->orc_job = j;
	if (!j)
		return;		/* orc_end() says out of memory */
	j->k = k;
	err = oc_elf_section(k->elf, ".orc_unwind_ip", &j->ip);
	if (!err)
		err = oc_elf_section(k->elf, ".orc_unwind", &j->orc);
	if (err) {
		oc_error_destroy(err);
		j->err = oc_error_file(OC_ERR_UNSUPPORTED, oc_elf_path(k->elf),
				       "no ORC tables (.orc_unwind_ip/.orc_unwind): kernel built without CONFIG_UNWINDER_ORC?");
		return;
	}
	err = oc_elf_section(k->elf, ".orc_header", &hdr);
	if (!err) {
		hdr_data = hdr.data;
		hdr_len = hdr.size;
	} else {
		oc_error_destroy(err);
	}
	err = oc_orc_detect_version(hdr_data, hdr_len, k->release,
				    &k->orc_version);
	if (err) {
		j->err = oc_error_set_path(err, oc_elf_path(k->elf));
		return;
	}
	if (!j->ip.data || !j->orc.data) {
		j->err = oc_error_file(OC_ERR_FORMAT, oc_elf_path(k->elf),
				       "ORC sections have no data");
		return;
	}
	/* no thread: decoded here */
	if (pthread_create(&j->thread, NULL, orc_parse, j))
		orc_parse(j);
	else
		j->started = true;
}

/* The decoding's end: its error, or the tables relocated. */
static struct oc_error *orc_end(struct oc_kernel *k)
{
	struct orc_job *j = k->orc_job;
	struct oc_error *err;

	if (!j)
		return &oc_enomem;
	if (j->started)
		pthread_join(j->thread, NULL);
	err = j->err;
	free(j);
	k->orc_job = NULL;
	if (err)
		return err;
	oc_orc_table_relocate(&k->orc, k->kaslr_offset);
	return NULL;
}

static struct oc_error *read_vmlinux_orc(struct oc_kernel *k)
{
	if (!k->elf)
		return oc_kmodel_orc_from_memory(k);
	return orc_end(k);
}

/*
 * The vmlinux's .debug_frame (Debian's -dbg vmlinux has one; the ET_EXEC
 * file's addresses are final): indexed on its first lookup, which only a
 * frame without ORC data makes (a kdump's panic CPU, in __crash_kexec();
 * a sample's few non-standard frames), the index from the per-build cache
 * (src/cficache.c), else made by listing the FDEs and then cached.  The
 * lock makes the one reading of it safe from the browser's worker or any
 * other thread that unwinds; on failure (memory) there is no CFI, as for
 * a vmlinux without .debug_frame.
 */
static pthread_mutex_t cfi_lock = PTHREAD_MUTEX_INITIALIZER;

static const struct oc_cfi *vmlinux_cfi(const struct oc_kernel *ck)
{
	/* the model's one part made lazily: k is the caller's own model */
	struct oc_kernel *k = (struct oc_kernel *)ck;
	const uint8_t *sec = k->debug_frame;
	size_t size = k->debug_frame_size;

	pthread_mutex_lock(&cfi_lock);
	if (!k->cfi_read) {
		k->cfi_read = true;
		/* (no libelf here: the section was found at the open) */
		if (sec && !oc_cficache_load(k->elf, sec, size, &k->cfi,
					     &k->cficache) &&
		    oc_ok(oc_cfi_create(sec, size, &k->cfi, NULL)))
			oc_cficache_save(k->elf, k->cfi);
	}
	pthread_mutex_unlock(&cfi_lock);
	return k->cfi;
}

static void read_text_bounds(struct oc_kernel *k)
{
	k->text_start = oc_kernel_symbol_addr(k, "_stext");
	k->text_end = oc_kernel_symbol_addr(k, "_etext");
	k->sinittext = oc_kernel_symbol_addr(k, "_sinittext");
	k->einittext = oc_kernel_symbol_addr(k, "_einittext");
	/* ret_from_fork_asm since 6.8, ret_from_fork before */
	k->ret_from_fork = oc_kernel_symbol_addr(k, "ret_from_fork_asm");
	if (!k->ret_from_fork)
		k->ret_from_fork = oc_kernel_symbol_addr(k, "ret_from_fork");
}

static struct oc_error *read_frame_layout(struct oc_kernel *k)
{
	struct oc_error *err;
	uint64_t size;

	err = oc_types_size(k->types, "struct inactive_task_frame",
			    &k->inactive_frame_size);
	if (!err)
		err = oc_kernel_offsetof(k, "struct inactive_task_frame", "bp",
					 &k->inactive_bp_offset);
	if (!err)
		err = oc_kernel_offsetof(k, "struct inactive_task_frame",
					 "ret_addr", &k->inactive_ret_offset);
	if (err)
		return err;
	/*
	 * THREAD_SIZE: union thread_union when BTF kept it, else struct
	 * irq_stack (IRQ_STACK_SIZE == THREAD_SIZE on x86-64, both
	 * PAGE_SIZE << (2 + KASAN_STACK_ORDER)).
	 */
	err = oc_types_size(k->types, "union thread_union", &size);
	if (err) {
		oc_error_destroy(err);
		err = oc_types_size(k->types, "struct irq_stack", &size);
	}
	if (err) {
		oc_error_destroy(err);
		size = 16384;
		oc_kernel_warn(k, "no union thread_union: assuming THREAD_SIZE 16K");
	}
	k->thread_size = size;
	return NULL;
}

/* a reader of the dump for another thread (below) */
struct oc_kernel_reader {
	const struct oc_kernel *k;
	struct oc_dump *dump;
	struct oc_mem mem;
};

/*
 * Why pages the report needed are missing, when the kernel itself says.
 * makedumpfile's -d classes are zero, cache, user and free pages; a slab
 * page is none of them, so a dump without one that the report needed (a
 * task_struct, a signal_struct) was written by a makedumpfile that
 * misjudged the page.  Since 6.10 a slab page is marked by its page_type
 * (include/linux/page-flags.h, PGTY_slab; VMCOREINFO's
 * NUMBER(PAGE_SLAB_MAPCOUNT_VALUE) is its value, in the page_type/
 * _mapcount word, whose top byte is the type) instead of PG_slab, and
 * Debian 12's makedumpfile 1.7.2 ("The kernel version is not supported"
 * for 6.12) drops such pages under -d 31 and under -d 15 alike (seen on
 * 6.12.118: every page it dropped that a task needed has page_type
 * 0xf5000000).  Failing that, a page whose struct page's mapping has
 * PAGE_MAPPING_ANON (bit 0) set, though the rest is no anon_vma pointer,
 * is what makedumpfile's isAnon() (makedumpfile.h) takes for a user
 * page, dropped under -d 8, but is none (a real user page the report
 * needed, e.g. through a stale pointer, is not counted): seen on
 * 7.2.13, whose struct page (memdesc_flags_t, a separate struct slab)
 * Debian 12's makedumpfile 1.7.2 reads as a 6.x one, so that the pages
 * of task_structs it dropped have page_type 0xffffffff and mapping
 * 0xffffffff (6.12's dropped slab pages have the bit too: the slab type
 * says more, so it is named first).  The struct page is read through
 * the vmemmap (SYMBOL(vmemmap), SIZE(page), OFFSET(page._mapcount),
 * OFFSET(page.mapping)).  One WARNING, which replaces the last when the
 * list is full: it explains the others.
 */
/*
 * include/linux/page-flags.h: bit 0 of page->mapping marks an anon page,
 * whose mapping is then its anon_vma (a kernel pointer) with the low
 * bits (PAGE_MAPPING_FLAGS) set.  A mapping with the bit but no kernel
 * pointer is no user page, whatever makedumpfile's isAnon() says.
 */
#define PAGE_MAPPING_ANON 0x1
#define PAGE_MAPPING_FLAGS 0x3

void oc_kmodel_explain_missing(struct oc_kernel *k,
			       const struct oc_kernel_reader *other)
{
	const struct oc_vmcoreinfo *vi = oc_dump_vmcoreinfo(k->dump);
	uint64_t pfns[128], vmemmap, size, off = 0, map_off = 0;
	int64_t slab = 0;
	size_t n, nr_slab = 0, nr_anon = 0;
	bool have_slab, have_mapping;

	n = oc_dump_missing_pfns(k->dump, pfns, sizeof(pfns) / sizeof(pfns[0]) / 2);
	if (other) {
		size_t m = oc_dump_missing_pfns(other->dump, pfns + n,
						sizeof(pfns) / sizeof(pfns[0]) / 2);
		size_t all = n;

		/*
		 * The list's reader found a ring full of missing pages: those
		 * alone, about the last a plain open's one reader keeps (it
		 * reads the list last), so that the counts agree with it
		 * (taskscheck holds them to it on the bench's real kdumps)
		 */
		if (m == sizeof(pfns) / sizeof(pfns[0]) / 2) {
			memmove(pfns, pfns + n, m * sizeof(pfns[0]));
			n = all = m;
			m = 0;
		}

		/* a page both missed counts once */
		for (size_t i = n; i < n + m; i++) {
			bool seen = false;

			for (size_t j = 0; j < all && !seen; j++)
				seen = pfns[j] == pfns[i];
			if (!seen)
				pfns[all++] = pfns[i];
		}
		n = all;
	}
	if (!n || !vi ||
	    !oc_ok(oc_vmcoreinfo_symbol(vi, "vmemmap", &vmemmap)) ||
	    !oc_ok(oc_vmcoreinfo_size(vi, "page", &size)) ||
	    !size || size > 4096)
		return;
	have_slab = oc_ok(oc_vmcoreinfo_number(vi, "PAGE_SLAB_MAPCOUNT_VALUE", &slab)) &&
		    oc_ok(oc_vmcoreinfo_offset(vi, "page", "_mapcount", &off)) &&
		    off + 4 <= size;
	have_mapping = oc_ok(oc_vmcoreinfo_offset(vi, "page", "mapping", &map_off)) &&
		       map_off + 8 <= size;
	for (size_t i = 0; i < n; i++) {
		uint64_t page = vmemmap + pfns[i] * size, mapping;
		uint32_t type;

		if (pfns[i] > UINT64_MAX / size)
			continue;
		if (have_slab && oc_ok(oc_mem_read_u32(&k->mem, page + off, &type)) &&
		    type >> 24 == (uint32_t)slab >> 24)
			nr_slab++;
		else if (have_mapping &&
			 oc_ok(oc_mem_read_u64(&k->mem, page + map_off, &mapping)) &&
			 (mapping & PAGE_MAPPING_ANON) &&
			 (mapping & ~PAGE_MAPPING_FLAGS) < OC_KERNEL_HALF)
			nr_anon++;
	}
	if (!nr_slab && !nr_anon)
		return;
	if (k->nr_warnings == sizeof(k->warnings) / sizeof(k->warnings[0]))
		k->nr_warnings--;
	if (nr_slab)
		oc_kernel_warn(k, "%zu of the %zu missing pages are slab pages (their struct page says so): "
			       "makedumpfile misjudged them (1.7.2 does on 6.10+, which it does not support)",
			       nr_slab, n);
	else
		oc_kernel_warn(k, "%zu of the %zu missing pages have PAGE_MAPPING_ANON in their struct page's mapping: "
			       "makedumpfile took them for user data (-d 8), misreading this kernel's struct page",
			       nr_anon, n);
}

void oc_kernel_close(struct oc_kernel *k)
{
	if (!k)
		return;
	oc_kmodel_tasks_stop(k);	/* before the dump: its reader is a clone */
	if (k->orc_job)		/* an open that failed before orc_end() */
		oc_error_destroy(orc_end(k));
	for (size_t i = 0; i < k->nr_modules; i++) {
		oc_orc_table_deinit(&k->modules[i].orc);
		oc_symtab_deinit(&k->modules[i].syms);
		oc_types_destroy(k->modules[i].btf);
	}
	free(k->modules);
	free(k->tasks);
	free(k->cpus);
	free(k->stacks.cpus);
	oc_orc_table_deinit(&k->orc);
	oc_symtab_deinit(&k->syms);
	oc_symtab_deinit(&k->percpu_syms);
	oc_cache_unmap(&k->symcache);
	/* the answers this run added, for the next (src/typecache.c) */
	if (k->btf_data) {
		if (getenv("ORCCRASH_TYPES_DEBUG")) {
			size_t answered, asked;
			bool loaded;

			oc_types_memo_stats(k->types, &answered, &asked, &loaded);
			fprintf(stderr, "orccrash: types memo: %zu answers kept, %zu asked of the BTF (%s)\n",
				answered, asked, loaded ? "opened" : "not opened");
		}
		oc_typecache_close(k->typecache, k->types);
	}
	oc_types_destroy(k->types);
	oc_cfi_destroy(k->cfi);
	oc_cache_unmap(&k->cficache);
	oc_elf_close(k->elf);
	oc_dump_close(k->dump);
	free(k);
}

struct oc_error *oc_kernel_open(const char *vmcore, const char *vmlinux,
				const struct oc_kernel_options *opts,
				struct oc_kernel **ret)
{
	static const struct oc_kernel_options no_opts;
	struct oc_kernel *k;
	struct oc_error *err;
	const struct oc_vmcoreinfo *vi;
	const char *rel;
	size_t nr_bad, bad_line;

	if (!opts)
		opts = &no_opts;
	k = calloc(1, sizeof(*k));
	if (!k)
		return &oc_enomem;
	k->panic_cpu = -1;
	oc_symtab_init(&k->syms);
	oc_symtab_init(&k->percpu_syms);
	oc_orc_table_init(&k->orc);

	err = oc_dump_open(vmcore, &k->dump);
	if (err)
		goto fail;
	oc_dump_mem(k->dump, &k->dump_mem);
	k->mem = (struct oc_mem){ .read = model_read, .arg = k };
	{
		uint64_t size, needed;

		k->dump_truncated = oc_dump_truncated(k->dump, &size, &needed);
		if (k->dump_truncated)
			oc_kernel_warn(k, "the dump is truncated: %" PRIu64 " of %" PRIu64 " bytes (%" PRIu64 "%%); memory past the end is missing",
				       size, needed, size * 100 / needed);
		if (oc_dump_incomplete(k->dump)) {
			k->dump_truncated = true;
			oc_kernel_warn(k, "makedumpfile marked the dump incomplete (it ran out of space?): pages it did not write are missing");
		}
	}
	if (opts->mem)
		k->mem = *opts->mem;
	vi = oc_dump_vmcoreinfo(k->dump);
	if (!vi) {
		err = oc_error_file(OC_ERR_FORMAT, vmcore,
				    "the dump has no VMCOREINFO (needed for the release, KASLR offset and page tables)");
		goto fail;
	}
	nr_bad = oc_vmcoreinfo_nr_malformed(vi, &bad_line);
	if (nr_bad)
		oc_kernel_warn(k, "VMCOREINFO: %zu malformed line%s ignored (the first is line %zu)",
			       nr_bad, nr_bad == 1 ? "" : "s", bad_line);
	err = oc_vmcoreinfo_value(vi, "OSRELEASE", &rel);
	if (!err && !*rel)
		err = oc_error_format(OC_ERR_FORMAT, "VMCOREINFO has no OSRELEASE");
	if (err) {
		if (err->code == OC_ERR_LOOKUP)
			err->code = OC_ERR_FORMAT;	/* a broken dump */
		err = oc_error_set_path(err, vmcore);
		goto fail;
	}
	snprintf(k->release, sizeof(k->release), "%s", rel);
	k->version = parse_version(k->release);
	/* absent when the kernel was not relocated */
	if (!oc_ok(oc_vmcoreinfo_u64(vi, "KERNELOFFSET", &k->kaslr_offset)))
		k->kaslr_offset = 0;
	/* x86-64 KASLR keeps the kernel image in its 1 GiB window
	 * (KERNEL_IMAGE_SIZE, arch/x86/include/asm/page_64_types.h): a larger
	 * offset is corruption and would wrap every relocated address */
	if (k->kaslr_offset >= (1ULL << 30)) {
		err = oc_error_file(OC_ERR_FORMAT, vmcore,
				    "VMCOREINFO KERNELOFFSET=%llx is beyond the 1 GiB KASLR range",
				    (unsigned long long)k->kaslr_offset);
		goto fail;
	}
	if (!oc_ok(oc_vmcoreinfo_u64(vi, "CRASHTIME", &k->crash_time)))
		k->crash_time = 0;

	if (vmlinux && !opts->no_vmlinux) {
		err = read_vmlinux(k, vmlinux);
		if (!err)
			err = check_match(k, opts->force);
	} else {
		err = oc_kmodel_kallsyms(k, opts->kallsyms_scan);
	}
	if (err)
		goto fail;
	read_text_bounds(k);
	err = read_btf(k);
	if (!err)
		err = check_release(k, opts->force);
	if (!err)
		err = read_frame_layout(k);
	/* after check_release(): the ORC format is the trusted release's */
	if (!err && k->elf)
		orc_begin(k);
	if (!err)
		err = oc_kmodel_read_cpus(k);
	if (!err)
		err = oc_kmodel_read_stacks(k);
	if (!err)
		err = oc_kmodel_read_tasks(k, max_tasks,
					   opts->tasks_later && !opts->mem);
	if (!err)
		err = read_vmlinux_orc(k);
	if (err)
		goto fail;
	err = oc_kmodel_read_modules(k, max_modules, max_module_orcs,
				     max_module_syms);
	if (err) {
		oc_kernel_warn_err(k, err, "module list incomplete, report unreliable");
		k->modules_incomplete = true;
	}
	oc_kmodel_read_regs(k);
	/* with the whole list, when it is read later */
	if (!k->task_job)
		oc_kmodel_explain_missing(k, NULL);
	*ret = k;
	return NULL;
fail:
	oc_kernel_close(k);
	return err;
}

/* ---- queries --------------------------------------------------------- */

const struct oc_module *oc_kernel_module_of(const struct oc_kernel *k,
					    uint64_t addr)
{
	for (size_t i = 0; i < k->nr_modules; i++) {
		const struct oc_module *m = &k->modules[i];

		if ((addr >= m->text_start && addr < m->text_end) ||
		    (addr >= m->init_start && addr < m->init_end))
			return m;
	}
	return NULL;
}

const struct oc_module *oc_kernel_module_at(const struct oc_kernel *k,
					    uint64_t addr)
{
	for (size_t i = 0; i < k->nr_modules; i++) {
		const struct oc_module *m = &k->modules[i];

		for (unsigned int r = 0; r < m->nr_regions; r++)
			if (addr >= m->regions[r].base &&
			    addr - m->regions[r].base < m->regions[r].size)
				return m;
	}
	return oc_kernel_module_of(k, addr);
}

bool oc_kernel_symbolize_data(const struct oc_kernel *k, uint64_t addr,
			      struct oc_sym_result *ret)
{
	const struct oc_module *m = oc_kernel_module_at(k, addr);
	const struct oc_symbol *s;

	if (!m)
		return oc_kernel_symbolize(k, addr, ret);
	memset(ret, 0, sizeof(*ret));
	ret->module = m->name;
	s = oc_symtab_lookup(&m->syms, addr);
	if (!s)
		return false;
	ret->name = oc_symtab_name(&m->syms, s);
	ret->offset = addr - oc_symtab_addr(&m->syms, s);
	ret->size = s->size;
	ret->type = s->type;
	return true;
}

const struct oc_symtab *oc_kernel_symtab(const struct oc_kernel *k,
					 const struct oc_module *m)
{
	return m ? &m->syms : &k->syms;
}

const struct oc_symbol *oc_kernel_find_symbol(const struct oc_kernel *k,
					      const char *name,
					      const struct oc_module **mod_ret)
{
	const struct oc_symbol *s = oc_symtab_find(&k->syms, name);

	*mod_ret = NULL;
	for (size_t i = 0; !s && i < k->nr_modules; i++) {
		s = oc_symtab_find(&k->modules[i].syms, name);
		if (s)
			*mod_ret = &k->modules[i];
	}
	return s;
}

static bool in_vmlinux_text(const struct oc_kernel *k, uint64_t addr)
{
	return (addr >= k->text_start && addr < k->text_end) ||
	       (addr >= k->sinittext && addr < k->einittext);
}

bool oc_kernel_is_text(const struct oc_kernel *k, uint64_t addr)
{
	return in_vmlinux_text(k, addr) || oc_kernel_module_of(k, addr);
}

bool oc_kernel_symbolize(const struct oc_kernel *k, uint64_t addr,
			 struct oc_sym_result *ret)
{
	const struct oc_module *m = oc_kernel_module_of(k, addr);
	const struct oc_symtab *tab = oc_kernel_symtab(k, m);
	const struct oc_symbol *s = oc_symtab_lookup(tab, addr);

	memset(ret, 0, sizeof(*ret));
	ret->module = m ? m->name : NULL;
	/* only the kernel half holds kernel symbols: a user RIP prints as a
	 * number, as the kernel's %pS does (kallsyms_lookup() finds nothing
	 * outside the kernel's text and ksym ranges) */
	if (!s || (int64_t)addr >= 0)
		return false;
	ret->name = oc_symtab_name(tab, s);
	ret->offset = addr - oc_symtab_addr(tab, s);
	ret->size = s->size;
	ret->type = s->type;
	return true;
}

bool oc_kernel_symbolize_frame(const struct oc_kernel *k,
			       const struct oc_frame *f,
			       struct oc_sym_result *ret)
{
	if (f->exact || !f->ip)
		return oc_kernel_symbolize(k, f->ip, ret);
	if (!oc_kernel_symbolize(k, f->ip - 1, ret))
		return false;
	ret->offset++;
	return true;
}

const struct oc_task *oc_kernel_find_task(const struct oc_kernel *k,
					  int32_t pid)
{
	for (size_t i = 0; i < k->nr_tasks; i++)
		if (k->tasks[i].pid == pid && !k->tasks[i].idle)
			return &k->tasks[i];
	/* pid 0: the boot CPU's idle task */
	for (size_t i = 0; i < k->nr_tasks; i++)
		if (k->tasks[i].pid == pid)
			return &k->tasks[i];
	return NULL;
}

/* ---- unwinding ------------------------------------------------------- */

struct walk_ctx {
	const struct oc_kernel *k;
	uint64_t task_stack;
	int cpu;
};

static bool walk_find_orc(void *arg, uint64_t ip, struct oc_orc_entry *ret)
{
	const struct walk_ctx *w = arg;
	const struct oc_kernel *k = w->k;
	const struct oc_module *m;

	if (in_vmlinux_text(k, ip))
		return oc_orc_table_find(&k->orc, ip, ret, NULL);
	m = oc_kernel_module_of(k, ip);
	if (m)
		return oc_orc_table_find(&m->orc, ip, ret, NULL);
	return false;
}

static bool walk_is_text(void *arg, uint64_t addr)
{
	const struct walk_ctx *w = arg;

	return oc_kernel_is_text(w->k, addr);
}

static bool walk_find_cfi(void *arg, uint64_t pc, struct oc_cfi_row *ret)
{
	const struct walk_ctx *w = arg;
	const struct oc_kernel *k = w->k;

	/* modules: their .ko's .debug_frame is not known to the model */
	return in_vmlinux_text(k, pc) &&
	       oc_cfi_find(vmlinux_cfi(k), pc - k->kaslr_offset, ret, NULL, 0) ==
		       OC_CFI_FOUND;
}

/* gcc's names for the parts it splits off a function: NAME.cold,
 * NAME.cold.N (gcc -freorder-blocks-and-partition) */
static size_t cold_part_base(const char *name)
{
	const char *c = strstr(name, ".cold");

	if (!c || c == name)
		return 0;
	for (const char *p = c + 5; *p; p++)
		if (!(*p == '.' || (*p >= '0' && *p <= '9')))
			return 0;
	return (size_t)(c - name);
}

static bool walk_func_of(void *arg, uint64_t addr, struct oc_unwind_func *ret)
{
	const struct walk_ctx *w = arg;
	const struct oc_kernel *k = w->k;
	const struct oc_symtab *tab;
	const struct oc_symbol *s;
	struct oc_sym_result r;
	char base[256];
	size_t len;

	memset(ret, 0, sizeof(*ret));
	if (!oc_kernel_symbolize(k, addr, &r) || !r.name)
		return false;
	ret->start = addr - r.offset;
	ret->name = r.name;
	len = cold_part_base(r.name);
	if (!len || len >= sizeof(base))
		return true;
	memcpy(base, r.name, len);
	base[len] = 0;
	tab = oc_kernel_symtab(k, oc_kernel_module_of(k, addr));
	s = oc_symtab_find(tab, base);
	if (s)
		ret->parent = oc_symtab_addr(tab, s);
	return true;
}

static bool walk_stack_info(void *arg, uint64_t addr,
			    struct oc_stack_info *ret)
{
	const struct walk_ctx *w = arg;

	return oc_stack_map_find(&w->k->stacks, w->cpu, w->task_stack,
				 w->k->thread_size, addr, ret);
}

static void make_target(const struct oc_kernel *k, struct walk_ctx *w,
			struct oc_unwind_target *t)
{
	*t = (struct oc_unwind_target){
		.mem = &k->mem,
		.find_orc = walk_find_orc,
		.is_text = walk_is_text,
		.stack_info = walk_stack_info,
		.arg = w,
		.version = k->orc_version,
		.sp_indirect_deref_first =
			k->version >= OC_KERNEL_VERSION(5, 12, 0),
		.inactive_frame_size = k->inactive_frame_size,
		.inactive_bp_offset = k->inactive_bp_offset,
		.inactive_ret_offset = k->inactive_ret_offset,
		.ret_from_fork = k->ret_from_fork,
		.fp_fallback = oc_orc_has_fp_fallback(k->release),
		.find_cfi = walk_find_cfi,
		.func_of = walk_func_of,
	};
}

bool oc_kernel_stack_info(const struct oc_kernel *k,
			  const struct oc_task *task, int cpu, uint64_t addr,
			  struct oc_stack_info *ret)
{
	if (!task && cpu >= 0 && (unsigned)cpu < k->nr_cpus)
		task = k->cpus[cpu].task;
	return oc_stack_map_find(&k->stacks, cpu, task ? task->stack : 0,
				 k->thread_size, addr, ret);
}

struct oc_error *oc_kernel_unwind_cpu(const struct oc_kernel *k,
				      unsigned int cpu,
				      const struct oc_unwind_options *opts,
				      struct oc_trace *ret)
{
	const struct oc_cpu *c;
	struct walk_ctx w;
	struct oc_unwind_target t;
	struct oc_unwind_options uo = { 0 };

	if (cpu >= k->nr_cpus)
		return oc_error_format(OC_ERR_INVALID, "no CPU %u (the dump has %u)",
				       cpu, k->nr_cpus);
	c = &k->cpus[cpu];
	if (!c->has_regs)
		return oc_error_format(OC_ERR_LOOKUP,
				       "CPU %u: no registers saved in the dump",
				       cpu);
	w = (struct walk_ctx){
		.k = k,
		.task_stack = c->task ? c->task->stack : 0,
		.cpu = (int)cpu,
	};
	make_target(k, &w, &t);
	/*
	 * Crash registers may be taken where objtool left no ORC data
	 * (kdump's panic CPU in __crash_kexec()); the walker's CFI and
	 * call-site rules handle that, and if they cannot, it goes on from
	 * a return address above, marked unreliable, rather than stop.
	 */
	if (opts)
		uo = *opts;
	uo.resync = true;
	if (c->crash_notes && (int)cpu != k->panic_cpu) {
		const struct oc_cpu_stacks *cs = &k->stacks.cpus[cpu];
		uint64_t nmi = cs->estack_begin[OC_STACK_NMI - OC_STACK_DF];
		struct oc_stack_info info;
		bool found;

		/* an NMI from user mode runs its handler on the task's
		 * stack (entry_64.S asm_exc_nmi), from the kernel on the
		 * NMI stack */
		bool user = (c->regs.cs & 3) != 0;
		uint64_t where = user ? w.task_stack : nmi;

		if (where && oc_stack_map_find(&k->stacks, (int)cpu,
					       w.task_stack, k->thread_size, where,
					       &info) &&
		    info.type == (user ? OC_STACK_TASK : OC_STACK_NMI))
			return oc_unwind_nmi_stopped(&t, &c->regs, &info, &uo,
						     ret, &found);
	}
	return oc_unwind_regs(&t, &c->regs, &uo, ret);
}

struct oc_error *oc_kernel_unwind_task(const struct oc_kernel *k,
				       const struct oc_task *task,
				       const struct oc_unwind_options *opts,
				       struct oc_trace *ret)
{
	struct walk_ctx w;
	struct oc_unwind_target t;

	if (task->running_on >= 0 && k->cpus[task->running_on].has_regs)
		return oc_kernel_unwind_cpu(k, (unsigned)task->running_on, opts,
					    ret);
	w = (struct walk_ctx){ .k = k, .task_stack = task->stack, .cpu = -1 };
	make_target(k, &w, &t);
	return oc_unwind_blocked(&t, task->thread_sp, opts, ret);
}

/* ---- readers for other threads ------------------------------------------- */

/* the calling thread's reader (oc_kernel_reader_use()) */
static _Thread_local const struct oc_kernel_reader *thread_reader;

/* The calling thread's own reader of @k, or NULL: the dump's first. */
static const struct oc_kernel_reader *own_reader(const struct oc_kernel *k)
{
	return thread_reader && thread_reader->k == k ? thread_reader : NULL;
}

/*
 * k->mem when the model reads the dump: through the calling thread's
 * own reader when it has one for this model, else the dump's first
 * reader, the opening thread's.  Whatever reads k->mem (unwinding, the
 * off-CPU time, a wait's owner) is then safe in a worker thread.
 */
static struct oc_error *model_read(void *arg, uint64_t addr, void *buf,
				   size_t len)
{
	const struct oc_kernel *k = arg;
	const struct oc_kernel_reader *r = own_reader(k);
	const struct oc_mem *m = r ? &r->mem : &k->dump_mem;

	return m->read(m->arg, addr, buf, len);
}

/*
 * A reader for another thread: a clone of the dump (formats/dump.c
 * oc_dump_clone()).  Not when the model reads through its caller's
 * oc_mem (the crash extension's readmem, which is crash's and one
 * thread's): OC_ERR_UNSUPPORTED then, and the caller works alone.
 */
struct oc_error *oc_kernel_reader_open(const struct oc_kernel *k,
				       struct oc_kernel_reader **ret)
{
	struct oc_kernel_reader *r;
	struct oc_error *err;

	if (k->mem.read != model_read)
		return oc_error_format(OC_ERR_UNSUPPORTED,
				       "the model reads memory through its caller");
	r = calloc(1, sizeof(*r));
	if (!r)
		return &oc_enomem;
	err = oc_dump_clone(k->dump, &r->dump);
	if (err) {
		free(r);
		return err;
	}
	r->k = k;
	oc_dump_mem(r->dump, &r->mem);
	*ret = r;
	return NULL;
}

void oc_kmodel_reader_add_missing(const struct oc_kernel *k,
				  const struct oc_kernel_reader *from)
{
	const struct oc_kernel_reader *r = own_reader(k);

	oc_dump_add_missing(r ? r->dump : k->dump, from->dump);
}

void oc_kernel_reader_use(const struct oc_kernel_reader *r)
{
	thread_reader = r;
}

void oc_kernel_reader_close(struct oc_kernel_reader *r)
{
	if (!r)
		return;
	if (thread_reader == r)
		thread_reader = NULL;
	oc_dump_close(r->dump);
	free(r);
}

unsigned int oc_kernel_threads(size_t nr)
{
	const char *env = getenv("ORCCRASH_THREADS");
	long n;

	if (env && *env) {
		char *end;

		n = strtol(env, &end, 10);
		if (!*end && n >= 1)
			return n > OC_KERNEL_MAX_THREADS ?
			       OC_KERNEL_MAX_THREADS : (unsigned int)n;
	}
	if (nr < OC_KERNEL_MIN_TASKS)
		return 1;
	n = sysconf(_SC_NPROCESSORS_ONLN);
	if (n < 1)
		return 1;
	return n > OC_KERNEL_MAX_THREADS ? OC_KERNEL_MAX_THREADS
					 : (unsigned int)n;
}

bool oc_kernel_threads_debug(void)
{
	return getenv("ORCCRASH_THREADS_DEBUG") != NULL;
}

/* ---- the inputs, for front ends ------------------------------------------ */

const char *oc_kernel_dump_path(const struct oc_kernel *k)
{
	return oc_dump_path(k->dump);
}

const char *oc_kernel_dump_format(const struct oc_kernel *k)
{
	return oc_dump_format_name(k->dump);
}

const char *oc_kernel_vmlinux_path(const struct oc_kernel *k)
{
	return k->elf ? oc_elf_path(k->elf) : NULL;
}

const uint8_t *oc_kernel_vmlinux_build_id(const struct oc_kernel *k,
					  size_t *len_ret)
{
	*len_ret = 0;
	return k->elf ? oc_elf_build_id(k->elf, len_ret) : NULL;
}

/* ---- the log ----------------------------------------------------------- */

static uint64_t log_symbol(void *arg, const char *name)
{
	return oc_kernel_symbol_addr(arg, name);
}

struct oc_error *oc_kernel_read_log(const struct oc_kernel *k,
				    struct oc_log *ret)
{
	struct oc_log_env env = {
		.mem = &k->mem,
		.types = k->types,
		.vmcoreinfo = oc_dump_vmcoreinfo(k->dump),
		.symbol = log_symbol,
		.arg = (void *)k,
	};

	return oc_log_read(&env, ret);
}
