/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vmlinux and .ko files through libelf: sections, the symbol table in
 * kallsyms form, the build-id.  Only this file's .c includes libelf.
 */
#ifndef OC_FORMATS_ELFFILE_H
#define OC_FORMATS_ELFFILE_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "symtab.h"

struct oc_elf;

struct oc_elf_section {
	const char *name;
	uint64_t addr;		/* sh_addr */
	uint64_t size;
	const void *data;	/* NULL for SHT_NOBITS */
	size_t index;		/* the section's index, for oc_elf_rela() */
};

struct oc_error *oc_elf_open(const char *path, struct oc_elf **ret);
void oc_elf_close(struct oc_elf *elf);
const char *oc_elf_path(const struct oc_elf *elf);

/* OC_ERR_LOOKUP if there is no such section. */
struct oc_error *oc_elf_section(struct oc_elf *elf, const char *name,
				struct oc_elf_section *ret);
/*
 * Add the symbols kallsyms would hold (functions, objects and labels;
 * no section, file, absolute or undefined symbols) to @tab.  Per-CPU
 * symbols (in .data..percpu, zero-based) are left out here and listed by
 * oc_elf_percpu_symtab() instead, since KASLR does not move them.
 */
struct oc_error *oc_elf_symtab(struct oc_elf *elf, struct oc_symtab *tab);
/*
 * Names older kernels' kallsyms kept and oc_elf_symtab() leaves out by
 * default (before oc_elf_symtab()):
 *   OC_ELF_KEEP_LOCAL_LABELS  .L local labels but .LASANPC (gcc's .LC<n>
 *       string labels in 5.10's table): before 5.18, commit d4c858643263
 *       "kallsyms: ignore all local labels prefixed by '.L'";
 *   OC_ELF_KEEP_KSTRTAB  EXPORT_SYMBOL's __kstrtab_ and __kstrtabns_
 *       strings: before 6.1, "kallsyms: ignore __kstrtab_* and
 *       __kstrtabns_* symbols" (Masahiro Yamada).
 * and one that newer kernels' keep:
 *   OC_ELF_KEEP_KALLSYMS_TABLES  kallsyms' own tables (kallsyms_names,
 *       kallsyms_token_index, ...): 6.1's scripts/kallsyms.c left them out
 *       (ignored_symbols[]), 6.2's lost that list ("kallsyms: drop
 *       duplicated ignore patterns from kallsyms.c"); seen in the samples'
 *       kallsyms: absent on 5.10 and 6.1, present on 6.12 and 7.2.
 */
enum {
	OC_ELF_KEEP_LOCAL_LABELS = 1 << 0,
	OC_ELF_KEEP_KSTRTAB = 1 << 1,
	OC_ELF_KEEP_KALLSYMS_TABLES = 1 << 2,
};
void oc_elf_kallsyms_keep(struct oc_elf *elf, unsigned int keep);
struct oc_error *oc_elf_percpu_symtab(struct oc_elf *elf,
				      struct oc_symtab *tab);
/* Both at once, in one pass over .symtab (either may be NULL). */
struct oc_error *oc_elf_symtabs(struct oc_elf *elf, struct oc_symtab *tab,
				struct oc_symtab *percpu);
/*
 * Read @len bytes at link-time address @addr from the allocated section
 * that holds them (e.g. linux_banner in .rodata).
 */
struct oc_error *oc_elf_read(struct oc_elf *elf, uint64_t addr, void *buf,
			     size_t len);
/*
 * The value of the first symbol named @name in .symtab (any type, as
 * linked: not relocated for KASLR); OC_ERR_LOOKUP if there is none.
 */
struct oc_error *oc_elf_symbol(struct oc_elf *elf, const char *name,
			       uint64_t *addr_ret);
/*
 * A NUL-terminated string at link-time address @addr of an allocated
 * section, cut at @size - 1 bytes or the section's end (linux_banner).
 */
struct oc_error *oc_elf_read_string(struct oc_elf *elf, uint64_t addr,
				    char *buf, size_t size);
/*
 * Relocation @i of the SHT_RELA section @rela (from oc_elf_section(); it
 * holds rela->size / 24 entries), as objtool's orc_dump() names it: the
 * symbol's name, or for a section symbol (a .ko's .text) the section's,
 * and the addend.  Strings live until oc_elf_close().
 */
struct oc_error *oc_elf_rela(struct oc_elf *elf,
			     const struct oc_elf_section *rela, size_t i,
			     const char **name_ret, int64_t *addend_ret);
/* The GNU build-id note, or NULL. */
const uint8_t *oc_elf_build_id(struct oc_elf *elf, size_t *len_ret);

#endif /* OC_FORMATS_ELFFILE_H */
