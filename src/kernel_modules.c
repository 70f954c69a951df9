// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Loaded modules: name, text ranges, symbols (mod->kallsyms) and ORC
 * tables (mod->arch), all from dump memory: a module's tables exist only
 * there.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "cursor.h"
#include "elfnote.h"
#include "kmodel.h"

static const char mod_t[] = "struct module";
/* MODULES_VADDR without KASLR (__START_KERNEL_map + 512 MiB) and MODULES_END */
static const uint64_t modules_vaddr_min = 0xffffffffa0000000ull;
static const uint64_t modules_end = 0xffffffffff000000ull;

/*
 * Every mem[] region since 6.4 (enum mod_mem_type, include/linux/module.h:
 * text, data, rodata, ro_after_init and the three init ones), and their
 * total: /proc/modules' size (kernel/module/procfs.c module_total_size()).
 */
static void module_regions(struct oc_kernel *k, uint64_t mem, uint64_t nr,
			   uint64_t elem, uint64_t base_off, uint64_t size_off,
			   struct oc_module *m)
{
	const unsigned int max = sizeof(m->regions) / sizeof(m->regions[0]);

	for (uint64_t i = 0; i < nr && m->nr_regions < max; i++) {
		uint64_t base, size = 0;

		if (!oc_ok(oc_mem_read_u64(&k->mem, mem + i * elem + base_off, &base)) ||
		    !oc_ok(oc_mem_read(&k->mem, mem + i * elem + size_off, &size, 4)))
			continue;
		size &= 0xffffffff;
		m->size += size;
		if (base && size) {
			m->regions[m->nr_regions].base = base;
			m->regions[m->nr_regions++].size = size;
		}
	}
}

/*
 * Text ranges: mem[MOD_TEXT] and mem[MOD_INIT_TEXT] since 6.4
 * (struct module_memory), core_layout/init_layout before.
 */
static struct oc_error *module_text(struct oc_kernel *k, uint64_t mod,
				    struct oc_module *m)
{
	struct oc_member mem;
	uint64_t elem, base_off, size_off, base, size;
	struct oc_error *err;

	err = oc_types_member(k->types, mod_t, "mem", &mem);
	if (!err) {
		enum { MOD_TEXT = 0, MOD_INIT_TEXT = 4 };

		if ((err = oc_types_size(k->types, "struct module_memory", &elem)) ||
		    (err = oc_kernel_offsetof(k, "struct module_memory", "base", &base_off)) ||
		    (err = oc_kernel_offsetof(k, "struct module_memory", "size", &size_off)))
			return err;
		if ((err = oc_mem_read_u64(&k->mem, mod + mem.offset + MOD_TEXT * elem + base_off, &base)) ||
		    (err = oc_mem_read(&k->mem, mod + mem.offset + MOD_TEXT * elem + size_off, &size, 4)))
			return err;
		size &= 0xffffffff;
		m->text_start = base;
		m->text_end = base + size;
		m->base = base;
		module_regions(k, mod + mem.offset, mem.size / (elem ? elem : 1),
			       elem, base_off, size_off, m);
		if (oc_ok(oc_mem_read_u64(&k->mem, mod + mem.offset + MOD_INIT_TEXT * elem + base_off, &base)) &&
		    oc_ok(oc_mem_read(&k->mem, mod + mem.offset + MOD_INIT_TEXT * elem + size_off, &size, 4)) && base) {
			m->init_start = base;
			m->init_end = base + (size & 0xffffffff);
		}
		return NULL;
	}
	oc_error_destroy(err);
	/* before 6.4: core_layout.base and .text_size */
	if ((err = oc_kernel_read_member(k, mod, mod_t, "core_layout.base", &base)) ||
	    (err = oc_kernel_read_member(k, mod, mod_t, "core_layout.text_size", &size)))
		return err;
	m->text_start = base;
	m->text_end = base + size;
	m->base = base;
	/* 5.19 - 6.3 kernel/module/procfs.c: init_layout.size +
	 * core_layout.size (kernel/module.c before) */
	if (oc_ok(oc_kernel_read_member(k, mod, mod_t, "core_layout.size", &size))) {
		m->regions[m->nr_regions].base = base;
		m->regions[m->nr_regions++].size = size & 0xffffffff;
		m->size += size & 0xffffffff;
	}
	if (oc_ok(oc_kernel_read_member(k, mod, mod_t, "init_layout.base", &base)) &&
	    oc_ok(oc_kernel_read_member(k, mod, mod_t, "init_layout.size", &size)) &&
	    base && (size & 0xffffffff)) {
		m->regions[m->nr_regions].base = base;
		m->regions[m->nr_regions++].size = size & 0xffffffff;
		m->size += size & 0xffffffff;
	}
	if (oc_ok(oc_kernel_read_member(k, mod, mod_t, "init_layout.base", &base)) &&
	    oc_ok(oc_kernel_read_member(k, mod, mod_t, "init_layout.text_size", &size)) && base) {
		m->init_start = base;
		m->init_end = base + size;
	}
	return NULL;
}

/* Elf64_Sym: name u32, info u8, other u8, shndx u16, value u64, size u64 */
enum { ELF64_SYM_SIZE = 24, STT_SECTION_ = 3, STT_FILE_ = 4 };

struct msym {
	uint32_t name;
	uint8_t info, other;
	uint16_t shndx;
	uint64_t value;
};

static bool read_sym(const uint8_t *s, struct msym *ret)
{
	struct oc_cursor c;

	oc_cursor_init(&c, s, ELF64_SYM_SIZE, "module symbol");
	return oc_ok(oc_cursor_le32(&c, &ret->name)) &&
	       oc_ok(oc_cursor_u8(&c, &ret->info)) &&
	       oc_ok(oc_cursor_u8(&c, &ret->other)) &&
	       oc_ok(oc_cursor_le16(&c, &ret->shndx)) &&
	       oc_ok(oc_cursor_le64(&c, &ret->value));
}

static struct oc_error *module_syms(struct oc_kernel *k, uint64_t mod,
				    struct oc_module *m, uint64_t *budget)
{
	uint64_t ks, symtab, num, strtab, typetab = 0;
	struct oc_error *err;
	uint8_t *syms, *types = NULL;

	if ((err = oc_kernel_read_member(k, mod, mod_t, "kallsyms", &ks)))
		return err;
	if (!ks)
		return NULL;
	if ((err = oc_kernel_read_member(k, ks, "struct mod_kallsyms", "symtab", &symtab)) ||
	    (err = oc_kernel_read_member(k, ks, "struct mod_kallsyms", "num_symtab", &num)) ||
	    (err = oc_kernel_read_member(k, ks, "struct mod_kallsyms", "strtab", &strtab)))
		return err;
	if (num > *budget)
		return oc_error_format(OC_ERR_FORMAT, "%" PRIu64
				       " symbols, over what is left of the budget for all modules (%" PRIu64 "): corrupt?",
				       num, *budget);
	*budget -= num;
	syms = malloc(num * ELF64_SYM_SIZE + 1);
	if (!syms)
		return &oc_enomem;
	err = oc_mem_read(&k->mem, symtab, syms, num * ELF64_SYM_SIZE);
	/*
	 * The nm-style type of each symbol, as /proc/kallsyms shows it:
	 * mod_kallsyms.typetab since 5.2 (commit 1c7651f43777 "kallsyms:
	 * store type information in its own array"); without it, 't' or 'd'
	 * by where the symbol lies.
	 */
	if (!err && oc_ok(oc_kernel_read_member(k, ks, "struct mod_kallsyms", "typetab", &typetab)) &&
	    typetab && (types = malloc(num + 1)) &&
	    !oc_ok(oc_mem_read(&k->mem, typetab, types, num))) {
		free(types);
		types = NULL;
	}
	/* room for them all and names of ~24 bytes (a table's first growth
	 * is 32 KB of symbols and 64 KB of names: many modules are smaller) */
	if (!err)
		err = oc_symtab_reserve(&m->syms, num, num * 24);
	for (uint64_t i = 1; !err && i < num; i++) {
		struct msym sym;
		uint64_t value;
		char buf[256];
		struct oc_error *e2;
		bool text;

		if (!read_sym(syms + i * ELF64_SYM_SIZE, &sym) || !sym.shndx ||
		    (sym.info & 0xf) == STT_SECTION_ ||
		    (sym.info & 0xf) == STT_FILE_ || !sym.value)
			continue;
		value = sym.value;
		e2 = oc_mem_read_string(&k->mem, strtab + sym.name, buf, sizeof(buf));
		if (e2) {
			oc_error_destroy(e2);
			continue;
		}
		if (!buf[0] || buf[0] == '$' || !strncmp(buf, ".L", 2))
			continue;
		text = (value >= m->text_start && value < m->text_end) ||
		       (value >= m->init_start && value < m->init_end);
		err = oc_symtab_add(&m->syms, buf, value,
				    types && types[i] > 0x20 && types[i] < 0x7f ?
				    (char)types[i] : text ? 't' : 'd');
	}
	free(types);
	free(syms);
	if (!err)
		err = oc_symtab_finish(&m->syms);
	/*
	 * The last symbol has no next one to end it: the kernel ends it at
	 * the end of the module memory it is in (find_kallsyms_symbol(),
	 * kernel/module/kallsyms.c: "At worse, next value is at end of
	 * module"), so a static in .bss after every other symbol (a mutex
	 * on PREEMPT_RT) still has a name.
	 */
	for (size_t i = m->syms.nr; !err && i-- > 0 && !m->syms.syms[i].size;) {
		struct oc_symbol *sym = &m->syms.syms[i];
		uint64_t addr = oc_symtab_addr(&m->syms, sym);

		for (unsigned int r = 0; r < m->nr_regions; r++)
			if (addr >= m->regions[r].base &&
			    addr - m->regions[r].base < m->regions[r].size)
				sym->size = m->regions[r].base + m->regions[r].size - addr;
	}
	return err;
}

/* whether [addr, addr + len) lies in one of the module's memory regions */
static bool in_module(const struct oc_module *m, uint64_t addr, uint64_t len)
{
	for (unsigned int i = 0; i < m->nr_regions; i++)
		if (addr >= m->regions[i].base && len <= m->regions[i].size &&
		    addr - m->regions[i].base <= m->regions[i].size - len)
			return true;
	return false;
}

/*
 * The module's ORC tables.  The kernel takes them from the module's own
 * .orc_unwind_ip and .orc_unwind sections (module_finalize(),
 * arch/x86/kernel/module.c), which the loader placed in the module's
 * own memory (layout_sections(), kernel/module/main.c; kernel/module.c
 * before 5.19): tables anywhere else are not the module's, and are not
 * used.  *budget is what is left of the entries all modules together
 * may take (one bound on the memory, however many modules a corrupt
 * list names).
 */
static struct oc_error *module_orc(struct oc_kernel *k, uint64_t mod,
				   struct oc_module *m, uint64_t *budget)
{
	uint64_t num, ip, orc;
	struct oc_error *err;
	void *ipbuf, *orcbuf;

	if ((err = oc_kernel_read_member(k, mod, mod_t, "arch.num_orcs", &num)) ||
	    (err = oc_kernel_read_member(k, mod, mod_t, "arch.orc_unwind_ip", &ip)) ||
	    (err = oc_kernel_read_member(k, mod, mod_t, "arch.orc_unwind", &orc)))
		return err;
	if (!num || !ip || !orc)
		return NULL;
	if (num > *budget)
		return oc_error_format(OC_ERR_FORMAT, "%" PRIu64
				       " ORC entries, over what is left of the budget for all modules (%" PRIu64 "): corrupt?",
				       num, *budget);
	if (m->nr_regions && (!in_module(m, ip, num * 4) ||
			      !in_module(m, orc, num * 6)))
		return oc_error_format(OC_ERR_FORMAT,
				       "tables at 0x%" PRIx64 " and 0x%" PRIx64
				       " are outside the module's memory: not used",
				       ip, orc);
	*budget -= num;
	ipbuf = malloc(num * 4);
	orcbuf = malloc(num * 6);
	if (!ipbuf || !orcbuf) {
		free(ipbuf);
		free(orcbuf);
		return &oc_enomem;
	}
	err = oc_mem_read(&k->mem, ip, ipbuf, num * 4);
	if (!err)
		err = oc_mem_read(&k->mem, orc, orcbuf, num * 6);
	if (!err)
		err = oc_orc_table_parse(&m->orc, k->orc_version, ip, ipbuf,
					 num * 4, orcbuf, num * 6);
	free(ipbuf);
	free(orcbuf);
	return err;
}

/*
 * The module an earlier one of the list shares memory with, or NULL:
 * the kernel allocates each module's memory on its own (module_alloc(),
 * execmem_alloc() since 6.10), so two modules never overlap; a list
 * that says otherwise is corrupt, and the later module's tables (which
 * would be a second parsed copy of the same bytes) are not read.
 */
static const struct oc_module *module_overlap(const struct oc_kernel *k,
					      const struct oc_module *m)
{
	for (size_t j = 0; j + 1 < k->nr_modules; j++) {
		const struct oc_module *o = &k->modules[j];

		for (unsigned int a = 0; a < m->nr_regions; a++)
			for (unsigned int b = 0; b < o->nr_regions; b++)
				if (m->regions[a].base < o->regions[b].base + o->regions[b].size &&
				    o->regions[b].base < m->regions[a].base + m->regions[a].size)
					return o;
	}
	return NULL;
}

/*
 * The module's GNU build-id, as /sys/module/NAME/notes/.note.gnu.build-id
 * shows it: mod->notes_attrs->attrs[i] (struct bin_attribute) has the
 * note section's address in .private and its size in .size (CONFIG_SYSFS
 * and CONFIG_KALLSYMS; drgn reads it the same way).  Missing or
 * unreadable notes leave build_id_len 0: the build-id is only a check.
 */
static void module_build_id(struct oc_kernel *k, uint64_t mod,
			    struct oc_module *m)
{
	uint64_t notes_attrs, nr, attrs_off, attr_size, size_off, priv_off;
	struct oc_error *err;

	err = oc_kernel_read_member(k, mod, mod_t, "notes_attrs", &notes_attrs);
	if (!err && notes_attrs) {
		err = oc_kernel_read_member(k, notes_attrs,
					    "struct module_notes_attrs", "notes",
					    &nr);
		/*
		 * Without ->notes (dropped in 6.14's sysfs rework,
		 * kernel/module/sysfs.c), the count is that of
		 * grp.bin_attrs, a NULL-terminated array of pointers to
		 * the attrs[] entries.
		 */
		uint64_t list;

		if (err && oc_ok(oc_kernel_read_member(k, notes_attrs,
						       "struct module_notes_attrs",
						       "grp.bin_attrs", &list)) && list) {
			uint64_t p = 0;

			oc_error_destroy(err);
			err = NULL;
			for (nr = 0; nr < 64 &&
			     oc_ok(oc_mem_read_u64(&k->mem, list + nr * 8, &p)) && p;)
				nr++;
		}
	}
	if (!err && notes_attrs)
		if ((err = oc_kernel_offsetof(k, "struct module_notes_attrs", "attrs", &attrs_off)) ||
		    (err = oc_types_size(k->types, "struct bin_attribute", &attr_size)) ||
		    (err = oc_kernel_offsetof(k, "struct bin_attribute", "size", &size_off)) ||
		    (err = oc_kernel_offsetof(k, "struct bin_attribute", "private", &priv_off)))
			nr = 0;
	if (err || !notes_attrs) {
		oc_error_destroy(err);
		return;
	}
	for (uint64_t i = 0; i < nr && i < 64; i++) {
		uint64_t attr = notes_attrs + attrs_off + i * attr_size;
		uint64_t addr, size;
		uint8_t buf[1024];
		struct oc_cursor c;
		struct oc_elfnote n;
		bool more = false;

		err = oc_mem_read_u64(&k->mem, attr + size_off, &size);
		if (!err)
			err = oc_mem_read_u64(&k->mem, attr + priv_off, &addr);
		if (!err && (size < 12 || size > sizeof(buf)))
			size = 0;
		if (!err && size)
			err = oc_mem_read(&k->mem, addr, buf, size);
		if (err || !size) {
			oc_error_destroy(err);
			continue;
		}
		oc_cursor_init(&c, buf, size, "module notes");
		while (oc_ok(oc_elfnote_next(&c, &n, &more)) && more) {
			if (n.type == OC_NT_GNU_BUILD_ID &&
			    oc_elfnote_named(&n, "GNU") && n.descsz &&
			    n.descsz <= sizeof(m->build_id)) {
				memcpy(m->build_id, n.desc, n.descsz);
				m->build_id_len = n.descsz;
				return;
			}
		}
	}
}

struct oc_error *oc_kmodel_read_modules(struct oc_kernel *k,
					size_t max_modules,
					uint64_t max_orcs, uint64_t max_syms)
{
	uint64_t head = oc_kernel_symbol_addr(k, "modules"), node, list_off,
		 name_off;
	struct oc_member name_m;
	struct oc_error *err;
	size_t cap = 0;
	/* max_orcs and max_syms bound all modules together */
	uint64_t orcs_left = max_orcs, syms_left = max_syms;

	if (!head)
		return oc_error_format(OC_ERR_LOOKUP, "no symbol modules");
	if ((err = oc_kernel_offsetof(k, mod_t, "list", &list_off)) ||
	    (err = oc_types_member(k->types, mod_t, "name", &name_m)))
		return err;
	name_off = name_m.offset;
	if ((err = oc_mem_read_u64(&k->mem, head, &node)))
		return err;
	while (node != head) {
		uint64_t mod = node - list_off;
		struct oc_module *m;
		void *p;

		/*
		 * struct module is in the modules area (module_alloc(),
		 * MODULES_VADDR..MODULES_END of arch/x86/include/asm/
		 * pgtable_64_types.h: from __START_KERNEL_map + 512 MiB, or
		 * 1 GiB with KASLR, to 0xffffffffff000000).  The list is
		 * circular: NULL or a pointer elsewhere is no way to end it.
		 */
		if (node < modules_vaddr_min || node >= modules_end)
			return oc_error_format(OC_ERR_FORMAT,
					       "pointer 0x%" PRIx64 " outside the modules area after %s",
					       node, k->nr_modules ?
					       k->modules[k->nr_modules - 1].name :
					       "the list head");

		if (k->nr_modules >= max_modules)
			return oc_error_format(OC_ERR_FORMAT,
					       "more than %zu modules: list corrupt?",
					       max_modules);
		/* a list that comes back to a module already read would
		 * read it again up to max_modules times */
		for (size_t i = 0; i < k->nr_modules; i++)
			if (k->modules[i].addr == mod)
				return oc_error_format(OC_ERR_FORMAT,
						       "module list loops back to %s at 0x%" PRIx64,
						       k->modules[i].name, mod);
		p = oc_array_grow(k->modules, k->nr_modules, 1, &cap,
				  sizeof(*k->modules), 16);
		if (!p)
			return &oc_enomem;
		k->modules = p;
		m = &k->modules[k->nr_modules++];
		memset(m, 0, sizeof(*m));
		oc_symtab_init(&m->syms);
		oc_orc_table_init(&m->orc);
		m->addr = mod;
		err = oc_mem_read_string(&k->mem, mod + name_off, m->name,
					 sizeof(m->name) < name_m.size + 1 ?
					 sizeof(m->name) : name_m.size + 1);
		for (char *c = m->name; !err && *c; c++)	/* hostile bytes */
			if ((unsigned char)*c < 0x20 || (unsigned char)*c > 0x7e)
				*c = '?';
		if (!err)
			err = module_text(k, mod, m);
		if (err)
			return err;
		const struct oc_module *o = module_overlap(k, m);

		if (o) {
			oc_kernel_warn(k, "module %s: its memory overlaps module %s's: list corrupt? (its symbols and ORC not used)",
				       m->name, o->name);
			k->modules_incomplete = true;
			if ((err = oc_mem_read_u64(&k->mem, node, &node)))
				return err;
			continue;
		}
		err = module_syms(k, mod, m, &syms_left);
		if (err)
			oc_kernel_warn_err(k, err, "module %s: symbols", m->name);
		module_build_id(k, mod, m);
		err = module_orc(k, mod, m, &orcs_left);
		if (err)
			oc_kernel_warn_err(k, err, "module %s: ORC", m->name);
		if ((err = oc_mem_read_u64(&k->mem, node, &node)))
			return err;
	}
	return NULL;
}
