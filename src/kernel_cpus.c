// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * CPUs: per-CPU offsets, the task current on each, the CPU's stacks
 * (IRQ, exception, entry), and its registers at the time of the crash.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "dump.h"
#include "elfnote.h"
#include "kmodel.h"

static const unsigned int max_cpus = 8192;

static struct oc_error *read_u64_sym(struct oc_kernel *k, const char *name,
				     uint64_t *ret)
{
	uint64_t addr = oc_kernel_symbol_addr(k, name);

	if (!addr)
		return oc_error_format(OC_ERR_LOOKUP, "no symbol %s", name);
	return oc_mem_read_u64(&k->mem, addr, ret);
}

/*
 * The per-CPU address of a member of the x86 "hot" per-CPU data: in
 * struct pcpu_hot from 6.2 until it was split up again, a per-CPU
 * variable of its own before and after.
 */
static uint64_t hot_percpu_addr(struct oc_kernel *k, const char *member,
				unsigned int cpu)
{
	uint64_t base = oc_kernel_percpu_addr(k, "pcpu_hot", cpu), off;
	struct oc_error *err;

	if (base) {
		err = oc_kernel_offsetof(k, "struct pcpu_hot", member, &off);
		if (!err)
			return base + off;
		oc_error_destroy(err);
	}
	return oc_kernel_percpu_addr(k, member, cpu);
}

struct oc_error *oc_kmodel_read_cpus(struct oc_kernel *k)
{
	uint64_t nr = 0, offs_addr, present_addr, words[128];
	struct oc_error *err;
	uint32_t n32;
	uint64_t addr = oc_kernel_symbol_addr(k, "nr_cpu_ids");

	if (!addr || (err = oc_mem_read_u32(&k->mem, addr, &n32)))
		return oc_error_format(OC_ERR_FORMAT,
				       "cannot read nr_cpu_ids");
	nr = n32;
	if (!nr || nr > max_cpus)
		return oc_error_format(OC_ERR_FORMAT,
				       "implausible nr_cpu_ids %" PRIu64, nr);
	k->nr_cpus = (unsigned int)nr;
	k->cpus = calloc(nr, sizeof(*k->cpus));
	if (!k->cpus)
		return &oc_enomem;

	offs_addr = oc_kernel_symbol_addr(k, "__per_cpu_offset");
	if (!offs_addr)
		return oc_error_format(OC_ERR_LOOKUP, "no symbol __per_cpu_offset");
	present_addr = oc_kernel_symbol_addr(k, "__cpu_present_mask");
	memset(words, 0xff, sizeof(words));
	if (present_addr) {
		size_t nw = (nr + 63) / 64;

		err = oc_mem_read(&k->mem, present_addr, words, nw * 8);
		if (err) {
			oc_error_destroy(err);
			memset(words, 0xff, sizeof(words));
		}
	}
	for (unsigned int i = 0; i < nr; i++) {
		struct oc_cpu *c = &k->cpus[i];

		c->cpu = i;
		c->present = i >= 128 * 64 || (words[i / 64] >> (i % 64)) & 1;
		err = oc_mem_read_u64(&k->mem, offs_addr + 8 * i,
				      &c->per_cpu_offset);
		if (err)
			return err;
	}
	for (unsigned int i = 0; i < nr; i++) {
		uint64_t cur = hot_percpu_addr(k, "current_task", i);

		if (!cur)
			return oc_error_format(OC_ERR_LOOKUP,
					       "no per-CPU current_task");
		err = oc_mem_read_u64(&k->mem, cur, &k->cpus[i].current);
		if (err) {
			oc_kernel_warn(k, "CPU %u: cannot read current task", i);
			oc_error_destroy(err);
		}
	}
	addr = oc_kernel_symbol_addr(k, "panic_cpu");
	if (addr && oc_ok(oc_mem_read_u32(&k->mem, addr, &n32)) &&
	    (int32_t)n32 >= 0 && n32 < nr)
		k->panic_cpu = (int)n32;
	return NULL;
}

static void read_irq_stack(struct oc_kernel *k, unsigned int cpu,
			   struct oc_cpu_stacks *cs)
{
	uint64_t ptr_addr, ptr = 0, size = 0;
	struct oc_error *err;

	/* hardirq_stack_ptr since 5.2, irq_stack_ptr in 4.x */
	ptr_addr = hot_percpu_addr(k, "hardirq_stack_ptr", cpu);
	if (!ptr_addr)
		ptr_addr = oc_kernel_percpu_addr(k, "irq_stack_ptr", cpu);
	if (!ptr_addr || !oc_ok(oc_mem_read_u64(&k->mem, ptr_addr, &ptr)) || !ptr)
		return;
	err = oc_types_size(k->types, "struct irq_stack", &size);
	if (err) {
		oc_error_destroy(err);
		size = k->thread_size;	/* IRQ_STACK_SIZE == THREAD_SIZE */
	}
	/* since 5.12 the pointer is at the top-most word, not past it */
	cs->irq_end = ptr + (k->version >= OC_KERNEL_VERSION(5, 12, 0) ? 8 : 0);
	cs->irq_size = size;
}

static void read_exception_stacks(struct oc_kernel *k, unsigned int cpu,
				  struct oc_cpu_stacks *cs)
{
	static const char *const names[OC_NR_ESTACKS] = {
		"DF_stack", "NMI_stack", "DB_stack", "MCE_stack", "VC_stack",
		"VC2_stack",
	};
	uint64_t ptr_addr = oc_kernel_percpu_addr(k, "cea_exception_stacks", cpu);
	uint64_t ptr = 0, off;
	struct oc_member m;
	struct oc_error *err;

	if (!ptr_addr || !oc_ok(oc_mem_read_u64(&k->mem, ptr_addr, &ptr)) || !ptr)
		return;
	for (int i = 0; i < OC_NR_ESTACKS; i++) {
		err = oc_types_member(k->types, "struct cea_exception_stacks",
				      names[i], &m);
		if (err) {
			/* #VC stacks exist only with CONFIG_AMD_MEM_ENCRYPT */
			oc_error_destroy(err);
			continue;
		}
		cs->estack_begin[i] = ptr + m.offset;
		cs->estack_end[i] = ptr + m.offset + m.size;
	}
	/* the entry stack lives in the same cpu_entry_area */
	err = oc_kernel_offsetof(k, "struct cpu_entry_area", "estacks", &off);
	if (err) {
		oc_error_destroy(err);
		return;
	}
	err = oc_types_member(k->types, "struct cpu_entry_area",
			      "entry_stack_page", &m);
	if (err) {
		oc_error_destroy(err);
		return;
	}
	cs->entry_begin = ptr - off + m.offset;
	cs->entry_end = cs->entry_begin + m.size;
}

struct oc_error *oc_kmodel_read_stacks(struct oc_kernel *k)
{
	struct oc_stack_map *map = &k->stacks;
	struct oc_error *err;

	map->rules = k->version >= OC_KERNEL_VERSION(5, 2, 0) ?
		OC_STACK_RULES_5_2 : OC_STACK_RULES_4_14;
	err = oc_types_size(k->types, "struct pt_regs", &map->pt_regs_size);
	if (!err)
		err = oc_kernel_offsetof(k, "struct pt_regs", "sp",
					 &map->pt_regs_sp_offset);
	if (err)
		return err;
	map->cpus = calloc(k->nr_cpus, sizeof(*map->cpus));
	if (!map->cpus)
		return &oc_enomem;
	map->nr_cpus = k->nr_cpus;
	for (unsigned int i = 0; i < k->nr_cpus; i++) {
		read_irq_stack(k, i, &map->cpus[i]);
		read_exception_stacks(k, i, &map->cpus[i]);
	}
	return NULL;
}

/*
 * A CPU's crash_notes buffer holds the "CORE" NT_PRSTATUS note that
 * crash_save_cpu() wrote (kernel/crash_core.c): a 12-byte header, the
 * name padded to 8 bytes, struct elf_prstatus (formats/elfnote.h).
 */
enum { CRASH_NOTE_SIZE = 12 + 8 + 336 };

static bool read_crash_note(struct oc_kernel *k, uint64_t addr,
			    struct oc_regs *regs)
{
	uint8_t buf[CRASH_NOTE_SIZE];
	struct oc_cursor c;
	struct oc_elfnote n;
	struct oc_prstatus st;
	bool more = false;

	if (!oc_ok(oc_mem_read(&k->mem, addr, buf, sizeof(buf))))
		return false;
	oc_cursor_init(&c, buf, sizeof(buf), "crash_notes");
	if (!oc_ok(oc_elfnote_next(&c, &n, &more)) || !more ||
	    !oc_elfnote_named(&n, "CORE") || n.type != OC_NT_PRSTATUS ||
	    !oc_ok(oc_elfnote_prstatus(&n, &st)))
		return false;
	*regs = st.regs;
	return true;
}

void oc_kmodel_read_regs(struct oc_kernel *k)
{
	size_t n = oc_dump_nr_cpu_notes(k->dump);
	uint64_t notes = 0;
	struct oc_error *err;

	if (oc_dump_is_qemu(k->dump)) {
		/* QEMU: one note per vCPU, pid = CPU index + 1 */
		for (size_t i = 0; i < n; i++) {
			const struct oc_prstatus *note =
				oc_dump_cpu_note(k->dump, i);

			if (!note || note->pid < 1 || note->pid > k->nr_cpus)
				continue;
			k->cpus[note->pid - 1].regs = note->regs;
			k->cpus[note->pid - 1].has_regs = true;
		}
		return;
	}
	/*
	 * kdump: the registers each CPU saved into its per-CPU crash_notes
	 * buffer (crash_save_cpu()), which is what /proc/vmcore exported;
	 * reading them from memory maps notes to CPUs without guessing.
	 */
	err = read_u64_sym(k, "crash_notes", &notes);
	if (err)
		oc_error_destroy(err);
	else if (notes) {
		for (unsigned int i = 0; i < k->nr_cpus; i++) {
			struct oc_cpu *c = &k->cpus[i];

			c->has_regs = read_crash_note(
				k, notes + c->per_cpu_offset, &c->regs);
			c->crash_notes = c->has_regs;
		}
		return;
	}
	/* No crash_notes: take the dump's notes in CPU order. */
	for (size_t i = 0; i < n && i < k->nr_cpus; i++) {
		const struct oc_prstatus *note = oc_dump_cpu_note(k->dump, i);

		k->cpus[i].regs = note->regs;
		k->cpus[i].has_regs = true;
	}
	if (n)
		oc_kernel_warn(k, "no crash_notes: CPU registers taken in note order");
}
