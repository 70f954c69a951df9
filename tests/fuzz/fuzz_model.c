// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: the kernel model's list walks over a memory image:
 * every task (src/kernel_tasks.c: the tasks list, each process's thread
 * list, the children walk past a hole, the CPUs' current tasks) and the
 * module list with each module's text, symbols, build-id and ORC tables
 * (src/kernel_modules.c).  The struct layouts come from the input too,
 * through a types backend of this file (the model reads them from BTF,
 * which a hostile dump can make say anything).  Input:
 *   u8  flags		1: "__state" (5.14+) not "state"; 2: no thread lists
 *			(signal_struct.thread_head unknown); 4: modules with
 *			mem[] (6.4+), else core_layout/init_layout;
 *			8: module_notes_attrs.notes absent (6.14+: grp.bin_attrs)
 *   u64 init_task, modules (the list head), page_offset_base (the symbol's
 *       address; 0: no such symbol), current (CPU 0's task)
 *   u16 sizeof(struct task_struct)
 *   u16 offset of each member of the layout table below, in its order
 *       (0xffff: the member does not exist)
 *   then a memory image (fuzz_common.h)
 * Invariants:
 *   - bounded cost: the reads of the task walks are at most a constant
 *     times the model's step budget, and the tasks at most the budget;
 *     the modules' ORC entries and symbols together within their budgets;
 *   - never a silent wrong answer: when the tasks list or a thread list
 *     (walked here the simple way, as the kernel's list_for_each() would)
 *     ends otherwise than back at its head — a NULL, an unreadable
 *     link, a loop to another entry, more entries than the budget — the
 *     model says the task list is incomplete or fails; when the module
 *     list does, reading it fails;
 *   - each task listed once; module names printable; no two modules
 *     whose tables were read share memory; errors well formed.
 * tests/fuzz/make-seeds.py writes seeds of each hostile class (looping
 * and NULL-ended lists, a zeroed hole, a looping thread list, fake
 * modules sharing one ORC region, a module list leaving the modules area).
 * With FUZZ_VERBOSE set in the environment, each input's outcome is
 * one line on stdout, for tests/fuzz/run.sh to hold the seeds to what
 * each is made to show (tests/fuzz/model.expected).
 */
#include <inttypes.h>

#include "fuzz_common.h"
#include "kernel.h"
#include "kmodel.h"
#include "types.h"

enum {
	MAX_TASKS = 512,
	MAX_MODULES = 64,
	MAX_ORCS = 1 << 14,
	MAX_SYMS = 1 << 12,
	MODULE_MEMORY_SIZE = 64,
	BIN_ATTRIBUTE_SIZE = 64,
};

#define FLAG_STATE_NEW 1
#define FLAG_NO_THREADS 2
#define FLAG_MOD_MEM 4
#define FLAG_NO_NOTES_COUNT 8

/* The layout table: its order is the input's (make-seeds.py has a copy). */
static const struct {
	const char *type, *path;
	uint64_t size;
} layout[] = {
	{ "struct task_struct", "pid", 4 },
	{ "struct task_struct", "tgid", 4 },
	{ "struct task_struct", "comm", 16 },
	{ "struct task_struct", "state", 4 },	/* __state with flag 1 */
	{ "struct task_struct", "exit_state", 4 },
	{ "struct task_struct", "flags", 4 },
	{ "struct task_struct", "stack", 8 },
	{ "struct task_struct", "thread.sp", 8 },
	{ "struct task_struct", "tasks", 16 },
	{ "struct task_struct", "real_parent", 8 },
	{ "struct task_struct", "thread_info.cpu", 4 },
	{ "struct task_struct", "children", 16 },
	{ "struct task_struct", "sibling", 16 },
	{ "struct task_struct", "signal", 8 },
	{ "struct task_struct", "thread_node", 16 },
	{ "struct signal_struct", "thread_head", 16 },
	{ "struct module", "list", 16 },
	{ "struct module", "name", 56 },
	{ "struct module", "mem", 7 * MODULE_MEMORY_SIZE },	/* flag 4 */
	{ "struct module", "core_layout.base", 8 },
	{ "struct module", "core_layout.text_size", 4 },
	{ "struct module", "core_layout.size", 4 },
	{ "struct module", "init_layout.base", 8 },
	{ "struct module", "init_layout.size", 4 },
	{ "struct module", "init_layout.text_size", 4 },
	{ "struct module", "kallsyms", 8 },
	{ "struct module", "arch.num_orcs", 4 },
	{ "struct module", "arch.orc_unwind_ip", 8 },
	{ "struct module", "arch.orc_unwind", 8 },
	{ "struct module", "notes_attrs", 8 },
	{ "struct module_memory", "base", 8 },
	{ "struct module_memory", "size", 4 },
	{ "struct mod_kallsyms", "symtab", 8 },
	{ "struct mod_kallsyms", "num_symtab", 4 },
	{ "struct mod_kallsyms", "strtab", 8 },
	{ "struct mod_kallsyms", "typetab", 8 },
	{ "struct module_notes_attrs", "notes", 4 },	/* absent with flag 8 */
	{ "struct module_notes_attrs", "grp.bin_attrs", 8 },
	{ "struct module_notes_attrs", "attrs", 0 },
	{ "struct bin_attribute", "size", 8 },
	{ "struct bin_attribute", "private", 8 },
};
#define NR_LAYOUT (sizeof(layout) / sizeof(layout[0]))

struct fake_types {
	uint8_t flags;
	uint16_t task_size;
	uint16_t offset[NR_LAYOUT];
};

static struct oc_error *fake_size(void *arg, const char *type, uint64_t *ret)
{
	const struct fake_types *ft = arg;

	if (!strcmp(type, "struct task_struct"))
		*ret = ft->task_size;
	else if (!strcmp(type, "struct module_memory"))
		*ret = MODULE_MEMORY_SIZE;
	else if (!strcmp(type, "struct bin_attribute"))
		*ret = BIN_ATTRIBUTE_SIZE;
	else
		return oc_error_format(OC_ERR_LOOKUP, "no %s", type);
	return NULL;
}

static struct oc_error *fake_member(void *arg, const char *type,
				    const char *path, struct oc_member *ret)
{
	const struct fake_types *ft = arg;
	const char *want = path;

	/* the flags choose which of the alternatives the kernel has */
	if (!strcmp(type, "struct task_struct")) {
		if (!strcmp(path, "__state") && (ft->flags & FLAG_STATE_NEW))
			want = "state";
		else if (!strcmp(path, "state") && (ft->flags & FLAG_STATE_NEW))
			want = "";
	}
	if (!strcmp(type, "struct signal_struct") && (ft->flags & FLAG_NO_THREADS))
		want = "";
	if (!strcmp(type, "struct module")) {
		bool mem = ft->flags & FLAG_MOD_MEM;

		if ((!strcmp(path, "mem") && !mem) ||
		    (!strncmp(path, "core_layout.", 12) && mem) ||
		    (!strncmp(path, "init_layout.", 12) && mem))
			want = "";
	}
	if (!strcmp(type, "struct module_notes_attrs") &&
	    !strcmp(path, "notes") && (ft->flags & FLAG_NO_NOTES_COUNT))
		want = "";
	for (size_t i = 0; i < NR_LAYOUT; i++) {
		if (strcmp(layout[i].type, type) || strcmp(layout[i].path, want))
			continue;
		if (ft->offset[i] == 0xffff)
			break;
		memset(ret, 0, sizeof(*ret));
		ret->offset = ft->offset[i];
		ret->size = layout[i].size;
		return NULL;
	}
	return oc_error_format(OC_ERR_LOOKUP, "no %s.%s", type, path);
}

/* Every read of the model goes through here, counted. */
struct counted {
	struct oc_mem inner;
	uint64_t reads;
};

static struct oc_error *counted_read(void *arg, uint64_t addr, void *buf,
				     size_t len)
{
	struct counted *c = arg;

	c->reads++;
	return oc_mem_read(&c->inner, addr, buf, len);
}

static uint64_t offset_of(const struct fake_types *ft, const char *type,
			  const char *path)
{
	struct oc_member m;
	struct oc_error *err = fake_member((void *)ft, type, path, &m);

	if (err) {
		oc_error_destroy(err);
		return UINT64_MAX;
	}
	return m.offset;
}

/*
 * list_for_each() from @head: true when it comes back to @head through
 * distinct, readable entries within @max steps.
 */
static bool list_whole(const struct oc_mem *mem, uint64_t head, size_t max)
{
	uint64_t node, seen[MAX_TASKS + 1];
	size_t nr = 0;

	if (!oc_ok(oc_mem_read_u64(mem, head, &node)))
		return false;
	while (node != head) {
		if (!node || nr > max || nr >= MAX_TASKS)
			return false;
		for (size_t i = 0; i < nr; i++)
			if (seen[i] == node)
				return false;	/* a loop not through the head */
		seen[nr++] = node;
		if (!oc_ok(oc_mem_read_u64(mem, node, &node)))
			return false;
	}
	return true;
}

/* Whether the tasks list and every thread list of its processes are whole. */
static bool tasks_whole(const struct oc_mem *mem, const struct fake_types *ft,
			uint64_t init_task)
{
	uint64_t tasks = offset_of(ft, "struct task_struct", "tasks");
	uint64_t signal = offset_of(ft, "struct task_struct", "signal");
	uint64_t head = offset_of(ft, "struct signal_struct", "thread_head");
	uint64_t node;
	size_t n = 0;

	if (tasks == UINT64_MAX || !list_whole(mem, init_task + tasks, MAX_TASKS))
		return false;
	if (signal == UINT64_MAX || head == UINT64_MAX ||
	    offset_of(ft, "struct task_struct", "thread_node") == UINT64_MAX)
		return true;	/* no thread lists to read */
	node = init_task + tasks;
	do {
		uint64_t sig;

		if (oc_ok(oc_mem_read_u64(mem, node - tasks + signal, &sig)) && sig &&
		    !list_whole(mem, sig + head, MAX_TASKS))
			return false;
		if (!oc_ok(oc_mem_read_u64(mem, node, &node)))
			return false;
	} while (node != init_task + tasks && ++n <= MAX_TASKS);
	return true;
}

static bool modules_whole(const struct oc_mem *mem, uint64_t head)
{
	uint64_t node;
	uint64_t seen[MAX_MODULES + 1];
	size_t nr = 0;

	if (!oc_ok(oc_mem_read_u64(mem, head, &node)))
		return false;
	while (node != head) {
		/* MODULES_VADDR (no KASLR) to MODULES_END */
		if (node < 0xffffffffa0000000ull || node >= 0xffffffffff000000ull ||
		    nr >= MAX_MODULES)
			return false;
		for (size_t i = 0; i < nr; i++)
			if (seen[i] == node)
				return false;
		seen[nr++] = node;
		if (!oc_ok(oc_mem_read_u64(mem, node, &node)))
			return false;
	}
	return true;
}

static void summary(const struct oc_kernel *k, bool tasks_err,
		    bool modules_err)
{
	uint64_t orcs = 0, syms = 0, ids = 0;
	unsigned int budget = 0;

	for (size_t i = 0; i < k->nr_modules; i++) {
		orcs += k->modules[i].orc.nr;
		syms += k->modules[i].syms.nr;
		ids += k->modules[i].build_id_len > 0;
	}
	for (unsigned int i = 0; i < k->nr_warnings; i++)
		budget += strstr(k->warnings[i], "budget") != NULL;
	printf("model: tasks %zu incomplete %d error %d modules %zu incomplete %d error %d orcs %" PRIu64 " syms %" PRIu64 " build-ids %" PRIu64 " warnings %u budget %u\n",
	       k->nr_tasks, k->tasks_incomplete, tasks_err, k->nr_modules,
	       k->modules_incomplete, modules_err, orcs, syms, ids,
	       k->nr_warnings, budget);
	for (unsigned int i = 0; i < k->nr_warnings; i++)
		printf("model: WARNING: %s\n", k->warnings[i]);
	fflush(stdout);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static bool overlap(const struct oc_module *a, const struct oc_module *b)
{
	for (unsigned int i = 0; i < a->nr_regions; i++)
		for (unsigned int j = 0; j < b->nr_regions; j++)
			if (a->regions[i].base < b->regions[j].base + b->regions[j].size &&
			    b->regions[j].base < a->regions[i].base + a->regions[i].size)
				return true;
	return false;
}

static void check_tasks(struct oc_kernel *k, struct oc_error *err,
			bool whole, uint64_t reads)
{
	uint64_t *addrs;

	/* add_task(): 1 read, or the 11 members one by one, and the
	 * parent's pid; a step of a walk: its link and the signal pointer;
	 * the children walk: two links a task */
	FUZZ_ASSERT(reads <= 16ull * MAX_TASKS + 8ull * k->nr_tasks + 64);
	FUZZ_ASSERT(k->nr_tasks <= MAX_TASKS);
	if (!whole)
		FUZZ_ASSERT(err || k->tasks_incomplete);
	fuzz_check_error(err);
	addrs = malloc((k->nr_tasks + 1) * sizeof(*addrs));
	if (!addrs)
		abort();
	for (size_t i = 0; i < k->nr_tasks; i++)
		addrs[i] = k->tasks[i].addr;
	qsort(addrs, k->nr_tasks, sizeof(*addrs), cmp_u64);
	for (size_t i = 1; i < k->nr_tasks; i++)
		FUZZ_ASSERT(addrs[i - 1] != addrs[i]);
	free(addrs);
}

static void check_modules(struct oc_kernel *k, struct oc_error *err,
			  bool whole)
{
	uint64_t orcs = 0, syms = 0;

	if (!whole)
		FUZZ_ASSERT(err != NULL);
	fuzz_check_error(err);
	FUZZ_ASSERT(k->nr_modules <= MAX_MODULES);
	for (size_t i = 0; i < k->nr_modules; i++) {
		const struct oc_module *m = &k->modules[i];

		FUZZ_ASSERT(memchr(m->name, 0, sizeof(m->name)));
		for (const char *c = m->name; *c; c++)
			FUZZ_ASSERT(*c >= 0x20 && *c <= 0x7e);
		orcs += m->orc.nr;
		syms += m->syms.nr;
		FUZZ_CHECK_SYMTAB(&m->syms);
		if (!m->orc.nr && !m->syms.nr)
			continue;
		for (size_t j = 0; j < i; j++)
			FUZZ_ASSERT(!overlap(m, &k->modules[j]));
	}
	FUZZ_ASSERT(orcs <= MAX_ORCS);
	FUZZ_ASSERT(syms <= MAX_SYMS);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct oc_types_ops ops = {
		.type_size = fake_size, .member = fake_member,
	};
	struct fuzz_in in = { data, size };
	struct fake_types ft;
	struct oc_types types = { &ops, &ft, NULL };
	struct fuzz_image img;
	struct counted counted;
	struct oc_kernel *k = calloc(1, sizeof(*k));
	struct oc_cpu *cpus = calloc(1, sizeof(*cpus));
	uint64_t init_task, modules, pob, current;
	struct oc_error *err;
	bool whole, tasks_err;

	if (!k || !cpus)
		abort();
	ft.flags = fuzz_u8(&in);
	init_task = fuzz_u64(&in);
	modules = fuzz_u64(&in);
	pob = fuzz_u64(&in);
	current = fuzz_u64(&in);
	ft.task_size = fuzz_u16(&in);
	for (size_t i = 0; i < NR_LAYOUT; i++)
		ft.offset[i] = fuzz_u16(&in);
	fuzz_image_read(&in, &img);

	k->panic_cpu = -1;
	k->types = &types;
	k->orc_version = OC_ORC_V_6_4;
	oc_symtab_init(&k->syms);
	oc_symtab_init(&k->percpu_syms);
	if ((init_task && oc_symtab_add(&k->syms, "init_task", init_task, 'D')) ||
	    (modules && oc_symtab_add(&k->syms, "modules", modules, 'd')) ||
	    (pob && oc_symtab_add(&k->syms, "page_offset_base", pob, 'D')) ||
	    oc_symtab_finish(&k->syms) || oc_symtab_finish(&k->percpu_syms))
		abort();
	cpus[0].current = current;
	k->cpus = cpus;
	k->nr_cpus = 1;
	counted.inner = img.mem;
	counted.reads = 0;
	k->mem.read = counted_read;
	k->mem.arg = &counted;

	whole = init_task && tasks_whole(&img.mem, &ft, init_task);
	err = oc_kmodel_read_tasks(k, MAX_TASKS, false);
	tasks_err = err != NULL;
	check_tasks(k, err, whole, counted.reads);

	whole = modules && modules_whole(&img.mem, modules);
	err = oc_kmodel_read_modules(k, MAX_MODULES, MAX_ORCS, MAX_SYMS);
	if (getenv("FUZZ_VERBOSE"))	/* checking a seed */
		summary(k, tasks_err, err != NULL);
	check_modules(k, err, whole);

	for (size_t i = 0; i < k->nr_modules; i++) {
		oc_symtab_deinit(&k->modules[i].syms);
		oc_orc_table_deinit(&k->modules[i].orc);
	}
	free(k->modules);
	free(k->tasks);
	oc_symtab_deinit(&k->syms);
	oc_symtab_deinit(&k->percpu_syms);
	free(cpus);
	free(k);
	return 0;
}
