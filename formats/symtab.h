/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An address-sorted symbol table with kallsyms semantics: a lookup
 * answers the nearest symbol at or below an address, and a symbol's
 * size is the distance to the next higher symbol address (as
 * kallsyms_lookup_size_offset() computes it), so "+0xoff/0xsize" reads
 * exactly like the kernel's own traces.  Filled from the vmlinux ELF
 * symbol table (formats/elffile.c), from kallsyms in dump memory, or from a
 * module's in-memory symbols.
 */
#ifndef OC_SYMTAB_H
#define OC_SYMTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"

struct oc_symbol {
	/* the address before the table's bias: oc_symtab_addr() */
	uint64_t value;
	uint64_t size;		/* kallsyms-style, set by oc_symtab_finish() */
	uint32_t name;		/* offset into the string pool */
	uint32_t seq;		/* the order it was added in */
	uint32_t hash;		/* of the name, for the name index */
	char type;		/* nm-style type: 't', 'T', 'd', ... */
};

/*
 * Which of several symbols at one address an address lookup answers:
 * the one the kernel's own lookup would.  The kernel takes the first in
 * its table (kernel/kallsyms.c get_symbol_pos() steps back to the first
 * alias; kernel/module/kallsyms.c find_kallsyms_symbol() keeps the first
 * of equal values).
 */
enum oc_symtab_ties {
	/* the order the symbols were added in: a table read from the
	 * kernel's own kallsyms, or a module's symtab */
	OC_SYMTAB_TIES_ADDED = 0,
	/* the order scripts/kallsyms.c gives the vmlinux's symbols
	 * (compare_symbols(): weak symbols last, then the linker script's
	 * __start_/__stop_/_start/_end names, then fewer leading
	 * underscores first, then its input order, which is `nm -n`'s: by
	 * name in the C locale) */
	OC_SYMTAB_TIES_KALLSYMS_SCRIPT,
};

struct oc_symtab {
	/* each symbol's address is its value plus the bias (KASLR's delta:
	 * oc_symtab_relocate()), so that a table kept unrelocated, a mapped
	 * cache file's, is used as it is, never written */
	uint64_t bias;
	struct oc_symbol *syms;
	size_t nr, cap;
	char *pool;		/* names, NUL-separated */
	size_t pool_len, pool_cap;
	/* name -> index + 1, open addressing; each slot also holds the
	 * name's hash, compared before the name */
	struct oc_symtab_slot { uint32_t idx, tag; } *hash;
	size_t hash_size;
	bool finished;
	/* the arrays are borrowed (oc_symtab_view()): read-only, not freed */
	bool borrowed;
	enum oc_symtab_ties ties;
};

void oc_symtab_init(struct oc_symtab *tab);
void oc_symtab_deinit(struct oc_symtab *tab);
struct oc_error *oc_symtab_add(struct oc_symtab *tab, const char *name,
			       uint64_t addr, char type);
/* Room for @nr more symbols and @pool_bytes more of names (a hint: adding
 * more still works). */
struct oc_error *oc_symtab_reserve(struct oc_symtab *tab, size_t nr,
				   size_t pool_bytes);
/* Sort, drop exact duplicates, compute sizes, build the name index. */
struct oc_error *oc_symtab_finish(struct oc_symtab *tab);
/* Add @delta to every address (KASLR): to the table's bias, before or
 * after finishing (the order and the sizes stay: kernel addresses do not
 * wrap). */
void oc_symtab_relocate(struct oc_symtab *tab, uint64_t delta);

/*
 * A finished table as bytes (its arrays as they are in memory, the names
 * padded to 8 bytes: for a cache of this build's own, src/symcache.c),
 * and a table over such bytes, borrowed where they are (a mapped file;
 * they must outlive the table, 8-byte aligned).  The view checks the
 * sizes (every array inside the bytes, the name index's size a power of
 * two) and that the pool ends in a NUL; bytes that fail are OC_ERR_FORMAT
 * and @tab is left empty.  The arrays themselves are not read (megabytes
 * of a vmlinux's): a name offset outside the pool reads "?", a name
 * index entry past the symbols or a full index finds nothing, symbols
 * out of order only answer wrong.  *@used_ret: the table's bytes
 * (what follows is the caller's).  The view has bias 0.
 */
struct oc_error *oc_symtab_write(const struct oc_symtab *tab, FILE *fp);
struct oc_error *oc_symtab_view(struct oc_symtab *tab, const void *buf,
				size_t len, size_t *used_ret);

static inline const char *oc_symtab_name(const struct oc_symtab *tab,
					 const struct oc_symbol *sym)
{
	/* a view's offsets are checked here (oc_symtab_view()); the pool
	 * ends in a NUL */
	return sym->name < tab->pool_len ? tab->pool + sym->name : "?";
}

/* @sym's address (a symbol of @tab) */
static inline uint64_t oc_symtab_addr(const struct oc_symtab *tab,
				      const struct oc_symbol *sym)
{
	return sym->value + tab->bias;
}

/*
 * The symbol containing @addr (nearest at or below, and below the next
 * symbol); NULL if @addr is below the first symbol or at/after the
 * last symbol's end.
 */
const struct oc_symbol *oc_symtab_lookup(const struct oc_symtab *tab,
					 uint64_t addr);
/* By name; when a name is not unique, the first global one wins. */
const struct oc_symbol *oc_symtab_find(const struct oc_symtab *tab,
				       const char *name);

#endif /* OC_SYMTAB_H */
