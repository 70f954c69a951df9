/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A read-only model of the crashed kernel: release, KASLR offset,
 * per-CPU areas, tasks, modules, stacks, ORC tables.  Built once from a
 * dump (and a vmlinux when given); the reports, the browser and the
 * crash extension only read it.
 */
#ifndef OC_KERNEL_H
#define OC_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "mem.h"
#include "orc.h"
#include "stacks.h"
#include "symtab.h"
#include "symcache.h"
#include "types.h"
#include "unwind.h"

struct oc_dump;
struct oc_elf;

enum { OC_COMM_LEN = 16 };

struct oc_task {
	uint64_t addr;		/* struct task_struct * */
	int32_t pid, tgid, ppid;
	char comm[OC_COMM_LEN + 1];
	char state;		/* the kernel's letter: R S D T t X Z P I */
	uint32_t state_raw;	/* __state | exit_state */
	int cpu;		/* task_cpu() */
	int running_on;		/* the CPU it is current on, or -1 */
	bool kthread;		/* PF_KTHREAD */
	bool idle;		/* an idle task (pid 0) */
	uint64_t stack;		/* task->stack */
	uint64_t thread_sp;	/* task->thread.sp */
};

struct oc_cpu {
	unsigned int cpu;
	bool present;
	uint64_t per_cpu_offset;
	uint64_t current;	/* struct task_struct * current on this CPU */
	struct oc_task *task;	/* its entry in the task list, or NULL */
	bool has_regs;		/* registers saved in the dump */
	/* they are what crash_save_cpu() wrote into crash_notes (kdump):
	 * for a CPU other than the panicking one, the context the crash
	 * NMI interrupted (oc_unwind_nmi_stopped()) */
	bool crash_notes;
	struct oc_regs regs;
};

struct oc_module {
	char name[64];
	uint64_t addr;		/* struct module * */
	uint64_t text_start, text_end;	/* core text */
	uint64_t init_start, init_end;	/* init text, if still there */
	/* where /proc/modules says it is (kernel/module/procfs.c m_show()):
	 * the core text's base (mem[MOD_TEXT] since 6.4, core_layout
	 * before) and the size of all its memory (module_total_size(): every
	 * mem[] since 6.4, init_layout + core_layout before) */
	uint64_t base, size;
	/* every memory region it has (the mem[] array since 6.4, or
	 * core_layout and init_layout), for within_module() */
	struct { uint64_t base, size; } regions[8];
	unsigned int nr_regions;
	struct oc_orc_table orc;
	struct oc_symtab syms;
	/* its GNU build-id note (mod->notes_attrs), for matching debuginfo
	 * files; build_id_len 0 when the dump does not say */
	uint8_t build_id[64];
	size_t build_id_len;
	/* its split BTF from the dump (src/kernel_modbtf.c), NULL: none or
	 * not read yet (oc_kernel_module_btf() reads it) */
	struct oc_types *btf;
};

struct oc_kernel_options {
	bool force;		/* go on when the vmlinux does not match */
	bool no_vmlinux;	/* ignore the vmlinux (dump-only path) */
	/*
	 * Dump-only path: find the kallsyms tables in the kernel image by
	 * their shape even when VMCOREINFO lists them (the tests hold the
	 * search, which pre-6.0 kernels need, to the listed tables).
	 */
	bool kallsyms_scan;
	/*
	 * Read kernel memory through this source instead of the dump's own
	 * reader (the crash extension passes crash's readmem); the dump file
	 * is still opened for VMCOREINFO and the CPU notes.
	 */
	const struct oc_mem *mem;
	/*
	 * The browser's: the open lists the CPUs' tasks only, a thread
	 * reads the whole list behind it (oc_kernel_tasks_sync()).  Not
	 * with @mem (one reader only).
	 */
	bool tasks_later;
};

struct oc_kernel {
	struct oc_dump *dump;
	struct oc_elf *elf;		/* NULL without a vmlinux */
	/* how the model reads memory: the dump's reader, or the calling
	 * thread's own (oc_kernel_reader_use()), or opts->mem */
	struct oc_mem mem;
	struct oc_mem dump_mem;		/* the dump's first reader */
	struct oc_types *types;		/* a memo over the BTF (read_btf()) */
	/* the vmlinux's .BTF (in libelf's mapping), and the memo's file */
	const void *btf_data;
	uint64_t btf_size;
	struct oc_typecache *typecache;
	struct oc_symtab syms;		/* vmlinux, relocated */
	struct oc_symtab percpu_syms;	/* zero-based per-CPU symbols */
	struct oc_cache_map symcache;	/* the two over a cache file */

	char release[65];
	char banner[256];
	uint64_t kaslr_offset;
	unsigned int version;		/* KERNEL_VERSION(a,b,c) of release */

	unsigned int nr_cpus;
	struct oc_cpu *cpus;
	int panic_cpu;			/* -1 if unknown */
	char panic_message[256];
	uint64_t crash_time;		/* VMCOREINFO CRASHTIME, 0 if absent */
	uint64_t uptime_ns;		/* 0 if unknown */

	struct oc_task *tasks;
	size_t nr_tasks;
	struct oc_task_job *task_job;	/* opts->tasks_later's reading */
	struct oc_module *modules;
	size_t nr_modules;
	/* the modules' BTF was looked for (src/kernel_modbtf.c); the types
	 * the commands read: k->types, then each module's BTF */
	bool modules_btf_read;
	struct oc_types all_types;

	struct oc_orc_table orc;	/* vmlinux */
	enum oc_orc_version orc_version;
	struct orc_job *orc_job;	/* the open's decoding (src/kernel.c) */
	/* the vmlinux's .debug_frame, for frames without ORC data; NULL
	 * when it has none (stripped, or no vmlinux) */
	struct oc_cfi *cfi;	/* made on first use (src/kernel.c vmlinux_cfi()) */
	struct oc_cache_map cficache;	/* the file k->cfi is over, if any */
	/* the vmlinux's .debug_frame (libelf's mapping), or NULL */
	const uint8_t *debug_frame;
	size_t debug_frame_size;
	bool cfi_read;
	struct oc_stack_map stacks;
	uint64_t thread_size;
	uint64_t text_start, text_end;	/* _stext, _etext */
	uint64_t sinittext, einittext;
	uint64_t ret_from_fork;
	uint64_t inactive_frame_size, inactive_bp_offset, inactive_ret_offset;

	/* set when something was read with errors; each a one-line note */
	char warnings[12][192];
	unsigned int nr_warnings;
	/* the task list was cut short (a loop, a bad pointer, unreadable
	 * task_structs): tasks are missing, reports exit 3 */
	bool tasks_incomplete;
	/* the same for the module list: modules are missing */
	bool modules_incomplete;
	/* the dump file is shorter than its ELF segments: memory is missing
	 * (a WARNING says how much); reports exit 3 */
	bool dump_truncated;
	/* VMCOREINFO, the banner and init_uts_ns name different releases
	 * (--force went on, a WARNING says which): reports exit 3 */
	bool release_mismatch;
};

#define OC_KERNEL_VERSION(a, b, c) (((a) << 16) + ((b) << 8) + (c))

struct oc_error *oc_kernel_open(const char *vmcore, const char *vmlinux,
				const struct oc_kernel_options *opts,
				struct oc_kernel **ret);
void oc_kernel_close(struct oc_kernel *k);

/*
 * The facts about the inputs that front ends show or pass on, so that
 * they need not reach into k->dump or k->elf (formats/ stays below
 * them): the dump's path and format ("elf", "kdump-compressed",
 * "flattened elf", "flattened kdump-compressed"), and the vmlinux's path
 * and GNU build-id (for the line cache and debuginfo lookups), NULL (and
 * *len_ret 0) without a vmlinux or without the note.
 */
const char *oc_kernel_dump_path(const struct oc_kernel *k);
const char *oc_kernel_dump_format(const struct oc_kernel *k);
const char *oc_kernel_vmlinux_path(const struct oc_kernel *k);
const uint8_t *oc_kernel_vmlinux_build_id(const struct oc_kernel *k,
					  size_t *len_ret);

/*
 * The types the commands take from a user (struct, p, the browser's
 * struct views): the kernel's BTF, then each loaded module's own
 * (read from the dump at the first question the kernel's cannot
 * answer); NULL without BTF.  Owned by @k.  A module's BTF alone, NULL
 * when it has none.  Not for the kernel model's own lookups (k->types).
 */
struct oc_types *oc_kernel_all_types(struct oc_kernel *k);
struct oc_types *oc_kernel_module_btf(struct oc_kernel *k,
					    const struct oc_module *m);

/* A symbol for @addr: vmlinux first, then module symbols. */
struct oc_sym_result {
	const char *name;	/* NULL if unknown */
	uint64_t offset, size;
	const char *module;	/* NULL for vmlinux */
	char type;		/* nm-style: 'T', 't', 'D', ... */
};
bool oc_kernel_symbolize(const struct oc_kernel *k, uint64_t addr,
			 struct oc_sym_result *ret);
/*
 * A frame's symbol as the kernel's "%pB" prints it in a backtrace: a
 * return address is looked up at address - 1 (a call at the very end of a
 * function returns past it) and the offset printed is from there + 1; an
 * exact ip (the first frame, or one from pt_regs) is looked up as is.
 */
bool oc_kernel_symbolize_frame(const struct oc_kernel *k,
			       const struct oc_frame *f,
			       struct oc_sym_result *ret);
/* Address of a vmlinux symbol (relocated); 0 if unknown. */
uint64_t oc_kernel_symbol_addr(const struct oc_kernel *k, const char *name);
/* The address of a per-CPU variable on @cpu; 0 if unknown. */
uint64_t oc_kernel_percpu_addr(const struct oc_kernel *k, const char *name,
			       unsigned int cpu);

/*
 * The task list of an open with opts->tasks_later: pending while its
 * thread reads it (k->tasks holds the CPUs' tasks until then).
 * oc_kernel_tasks_sync() installs the whole list once it is read (@wait:
 * waits for it) and says whether k->tasks changed: every struct oc_task
 * pointer taken before (k->cpus[].task too) is stale then.  The list's
 * warnings and k->tasks_incomplete come with it.
 */
bool oc_kernel_tasks_pending(const struct oc_kernel *k);
bool oc_kernel_tasks_sync(struct oc_kernel *k, bool wait);

const struct oc_task *oc_kernel_find_task(const struct oc_kernel *k,
					  int32_t pid);
const struct oc_module *oc_kernel_module_of(const struct oc_kernel *k,
					    uint64_t addr);
bool oc_kernel_is_text(const struct oc_kernel *k, uint64_t addr);
/* The module any of whose memory holds @addr (the kernel's
 * within_module(): text, data, init), or NULL. */
const struct oc_module *oc_kernel_module_at(const struct oc_kernel *k,
					    uint64_t addr);
/*
 * A symbol for any kernel address, text or data: a module's own symbols
 * when a module's memory holds @addr (the kernel's
 * module_address_lookup()), else the vmlinux's.
 */
bool oc_kernel_symbolize_data(const struct oc_kernel *k, uint64_t addr,
			      struct oc_sym_result *ret);
/* @m's symbol table; the vmlinux's for NULL */
const struct oc_symtab *oc_kernel_symtab(const struct oc_kernel *k,
					 const struct oc_module *m);
/* By name: the vmlinux first, then each module in list order; *mod_ret
 * the module (NULL: vmlinux); the address: oc_symtab_addr() with
 * oc_kernel_symtab(k, *mod_ret). */
const struct oc_symbol *oc_kernel_find_symbol(const struct oc_kernel *k,
					      const char *name,
					      const struct oc_module **mod_ret);

/*
 * Unwind a task: from the CPU's saved registers when it was running on
 * a CPU with registers in the dump, else from its thread.sp.
 */
struct oc_error *oc_kernel_unwind_task(const struct oc_kernel *k,
				       const struct oc_task *task,
				       const struct oc_unwind_options *opts,
				       struct oc_trace *ret);
/*
 * Another thread's reader of the dump: the model is read only after
 * its open, but reading k->mem goes through one page cache and one
 * libkdumpfile context, which are not thread-safe.  A thread that
 * calls oc_kernel_reader_use() with its own reader reads k->mem through
 * it (until it passes NULL), so any code of the model may then run in
 * that thread beside the others (src/tasktraces.c).  OC_ERR_UNSUPPORTED
 * when the model reads through its caller's oc_mem.
 */
struct oc_kernel_reader;
struct oc_error *oc_kernel_reader_open(const struct oc_kernel *k,
				       struct oc_kernel_reader **ret);
void oc_kernel_reader_use(const struct oc_kernel_reader *r);
void oc_kernel_reader_close(struct oc_kernel_reader *r);
/*
 * How many threads (the caller's among them) should share work on @nr
 * tasks: ORCCRASH_THREADS=N in the environment (1: the caller alone;
 * for tests and benchmarks), else one per online CPU up to
 * OC_KERNEL_MAX_THREADS, and 1 for fewer than OC_KERNEL_MIN_TASKS tasks
 * (a thread and a dump reader cost more than a few tasks' work).
 * ORCCRASH_THREADS_DEBUG set: each user says on stderr what it got
 * (tests/realdump/threads.sh).
 */
#define OC_KERNEL_MAX_THREADS 8
#define OC_KERNEL_MIN_TASKS 256
unsigned int oc_kernel_threads(size_t nr);
bool oc_kernel_threads_debug(void);
/*
 * Unwind a CPU from its saved registers; a kdump CPU stopped by the
 * crash NMI gets the NMI handler's frames first (<NMI> ...
 * crash_nmi_callback ... </NMI>), when a verified walk finds them.
 */
struct oc_error *oc_kernel_unwind_cpu(const struct oc_kernel *k,
				      unsigned int cpu,
				      const struct oc_unwind_options *opts,
				      struct oc_trace *ret);
struct oc_log;
/* The kernel log buffer (src/log.h), read from dump memory. */
struct oc_error *oc_kernel_read_log(const struct oc_kernel *k,
				    struct oc_log *ret);

/* Which stack @addr is on, for @task (NULL: the CPU's current task). */
bool oc_kernel_stack_info(const struct oc_kernel *k,
			  const struct oc_task *task, int cpu, uint64_t addr,
			  struct oc_stack_info *ret);

#endif /* OC_KERNEL_H */
