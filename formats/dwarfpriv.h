/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What formats/dwarflines.c and formats/dwarfvars.c share: the mapped
 * file, its CU index and the DIE helpers.  Private to formats/ (it
 * includes libdwarf).
 */
#ifndef OC_FORMATS_DWARFPRIV_H
#define OC_FORMATS_DWARFPRIV_H

#include <elf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libdwarf/dwarf.h>
#include <libdwarf/libdwarf.h>

#include "cursor.h"
#include "dwarfcfi.h"
#include "error.h"

/* A line-table row, copied out of libdwarf once per CU. */
struct dw_row {
	uint64_t addr;
	uint32_t line;
	uint32_t file;		/* index into cu->files (already adjusted) */
	bool end;		/* DW_LNE_end_sequence */
};

struct dw_cu {
	Dwarf_Off off;		/* of the CU DIE in .debug_info */
	Dwarf_Die die;
	Dwarf_Half version;
	bool lines_done;
	struct dw_row *rows;
	size_t nr_rows;
	char **files;
	Dwarf_Signed nr_files;
};

struct dw_arange {
	uint64_t lo, hi;
	uint64_t off;
};

/*
 * Where a DIE's address ranges go: tested against one address, or
 * collected into the CU index (for a vmlinux without .debug_aranges).
 */
struct range_sink {
	struct oc_dwarf *d;
	uint64_t addr;
	bool found;
	bool collect;
	bool nomem;
	uint64_t cu_off;
};

/* A variable defined at a CU's top level: its name, its DW_OP_addr
 * location (link-time), and the DIE that has its DW_AT_type. */
struct dw_global {
	char *name;
	uint64_t addr;
	Dwarf_Off type_die;
};

/* Kept at most this many DIEs deep into a subprogram; CUs read at most
 * (the walks over every CU go on to the end without reading more);
 * CU views kept (oc_dw_cu_view()). */
enum { DW_MAX_DEPTH = 32, DW_MAX_CUS = 1 << 20, DW_MAX_VIEWS = 64 };

/* Entry @idx of .debug_addr (8-byte addresses), @nr of them at @addrs. */
static inline bool oc_dw_addrx(const uint8_t *addrs, size_t nr, uint64_t idx,
			       uint64_t *ret)
{
	struct oc_cursor c;

	if (!addrs || idx >= nr)
		return false;
	oc_cursor_init(&c, addrs + idx * 8, 8, ".debug_addr");
	return oc_ok(oc_cursor_le64(&c, ret));
}

/* Two ULEB128s (a DW_LLE_* or DW_RLE_* entry's operands). */
static inline bool oc_dw_uleb2(struct oc_cursor *c, uint64_t *a, uint64_t *b)
{
	return oc_ok(oc_cursor_uleb128(c, a)) && oc_ok(oc_cursor_uleb128(c, b));
}

/* Entries a location or range list may have before it is called malformed */
enum { DW_MAX_LIST_ENTRIES = 1 << 16 };

/*
 * The ranges of the DWARF 5 range list (.debug_rnglists) whose first
 * entry is at @list, @size bytes to the section's end, each [lo, hi) to
 * @fn until it returns false: @base is the CU's base address (its
 * DW_AT_low_pc), @addrs/@nr_addrs its .debug_addr entries (from
 * DW_AT_addr_base).  False when the list is malformed (the ranges before
 * the bad entry were given).  Exported for the unit tests.
 */
bool oc_dwarf_rnglist_each(const uint8_t *list, size_t size, uint64_t base,
			   const uint8_t *addrs, size_t nr_addrs,
			   bool (*fn)(void *arg, uint64_t lo, uint64_t hi),
			   void *arg);

/* A CU's own view, by the offset of its header in .debug_info */
struct dw_view {
	uint64_t off;
	struct oc_dwarf *d;
};

struct oc_dwarf {
	char *path;
	int fd;
	const uint8_t *map;
	size_t size;
	const Elf64_Shdr *shdrs;
	size_t shnum;
	const char *shstr;
	size_t shstr_size;
	bool rel;		/* ET_REL (.ko): sections laid out by us */
	uint64_t *secaddr;	/* per section: sh_addr, or our layout */

	Dwarf_Obj_Access_Interface obj;
	Dwarf_Debug dbg;
	/* address -> CU, sorted by lo; off is a CU header offset (from
	 * .debug_aranges) or, when off_is_die, the CU DIE's (from a scan) */
	bool index_done;
	bool off_is_die;
	struct dw_arange *ar;
	size_t nr_ar, cap_ar;

	struct dw_cu *cus;
	size_t nr_cus, cap_cus;

	/* the CUs' top-level variables that have an address, sorted by
	 * name (formats/dwarfvars.c oc_dwarf_global_type()), on first use */
	bool globals_done, globals_broken;
	/* a walk over the CUs met an unreadable header (oc_dw_next_cu()) */
	bool cus_broken;
	struct dw_global *globals;
	size_t nr_globals, cap_globals;

	/* .debug_frame's FDE index (formats/dwarfcfi.c), on first use */
	bool cfi_done;
	struct oc_cfi *cfi;

	/* views of single CUs (oc_dw_cu_view()), made on first use; in a
	 * view, parent is the file's oc_dwarf, whose path, mapping, names
	 * and section addresses it borrows, and shdrs is view_shdrs, a copy
	 * with .debug_info cut to the CU */
	struct dw_view *views;
	size_t nr_views, cap_views;
	struct oc_dwarf *parent;
	Elf64_Shdr *view_shdrs;
};

/*
 * The next CU of .debug_info: 1 with its DIE in *@die (NULL when
 * unreadable: skip it; the caller deallocates it), 0 after the last,
 * -1 on an error (*@err; @n, the CUs so far, names where).  A walk that
 * goes on to the 0 leaves libdwarf's next-CU state to start over for
 * the next one: every walk must.
 */
int oc_dw_next_cu(struct oc_dwarf *d, unsigned long n, Dwarf_Half *version,
		  Dwarf_Die *die, struct oc_error **err);

/*
 * The view of the CU holding link-time address @addr: a libdwarf of its
 * own whose .debug_info is that CU alone, so that reaching its DIEs does
 * not make libdwarf read every CU before it.  @d itself when the CU
 * cannot be cut out (a DIE of it may refer outside it, a .ko, no index,
 * out of memory): the answers are the same, only slower.  Lives as long
 * as @d.
 */
struct oc_dwarf *oc_dw_cu_view(struct oc_dwarf *d, uint64_t addr);

/* A section's bytes from offset @off on; NULL if out of range. */
const uint8_t *oc_dw_section_at(const struct oc_dwarf *d, const char *name,
				uint64_t off, size_t *size_ret);

/*
 * DWARF 5's DW_FORM_loclistx and DW_FORM_rnglistx: entry @idx of the
 * @offsz-byte offsets at @base of section @name (those that follow a list
 * table's header: DW_AT_loclists_base, DW_AT_rnglists_base), as an offset
 * in the section (base + the entry); false when outside it.
 */
bool oc_dw_list_index(const struct oc_dwarf *d, const char *name,
		      uint64_t base, uint64_t idx, unsigned int offsz,
		      Dwarf_Off *off_ret);

/* @at's value as a section offset (a reference or sec_offset form);
 * false when @die has none */
bool oc_dw_attr_offset(struct oc_dwarf *d, Dwarf_Die die, Dwarf_Half at,
		       Dwarf_Off *off);

/* The CU holding link-time address @addr (NULL in *ret if none). */
struct oc_error *oc_dw_find_cu(struct oc_dwarf *d, uint64_t addr,
			       struct dw_cu **ret);
/* Whether @die's ranges (low/high pc or DW_AT_ranges) hold @addr. */
bool oc_dw_die_contains(struct oc_dwarf *d, const struct dw_cu *cu,
			Dwarf_Die die, uint64_t addr);
/* The DIE that attribute @at of @die refers to; NULL if none. */
Dwarf_Die oc_dw_die_ref(struct oc_dwarf *d, Dwarf_Die die, Dwarf_Half at);
/*
 * A walk along a chain of DIEs (abstract origins, a type's qualifiers)
 * from @start, which its caller owns: every later DIE is the walk's own.
 * oc_dw_die_hop() moves from @cur to @next, freeing @cur unless it is
 * @start; oc_dw_die_let_go() frees where the walk stopped (NULL is fine).
 */
static inline Dwarf_Die oc_dw_die_hop(Dwarf_Die start, Dwarf_Die cur,
				      Dwarf_Die next)
{
	if (cur != start)
		dwarf_dealloc_die(cur);
	return next;
}

static inline void oc_dw_die_let_go(Dwarf_Die start, Dwarf_Die cur)
{
	if (cur && cur != start)
		dwarf_dealloc_die(cur);
}
/* A function's name through abstract origins and specifications. */
const char *oc_dw_die_function_name(struct oc_dwarf *d, Dwarf_Die die);
/* An unsigned attribute (DW_FORM_implicit_const too); 0 if absent. */
Dwarf_Unsigned oc_dw_die_udata(struct oc_dwarf *d, Dwarf_Die die,
			       Dwarf_Half at);
/*
 * The children of a DIE, one at a time, each deallocated when the next
 * is fetched unless the caller took it:
 *
 *	struct dw_children it;
 *
 *	for (Dwarf_Die c = oc_dw_child_first(&it, d, parent); c;
 *	     c = oc_dw_child_next(&it))
 *		if (wanted(c)) {
 *			found = oc_dw_child_take(&it);	(the caller's now)
 *			break;
 *		}
 *	oc_dw_child_end(&it);
 *
 * oc_dw_child_end() after a loop that ran to its end is a no-op; after a
 * break it deallocates the current child (unless taken).
 */
struct dw_children {
	struct oc_dwarf *d;
	Dwarf_Die die;		/* the current child; NULL at the end */
	bool taken;
};

Dwarf_Die oc_dw_child_first(struct dw_children *it, struct oc_dwarf *d,
			    Dwarf_Die parent);
Dwarf_Die oc_dw_child_next(struct dw_children *it);
Dwarf_Die oc_dw_child_take(struct dw_children *it);
void oc_dw_child_end(struct dw_children *it);

const Elf64_Shdr *oc_dw_find_section(const struct oc_dwarf *d,
				     const char *name);
/* A libdwarf error as ours (deallocates @e). */
struct oc_error *oc_dw_err(struct oc_dwarf *d, Dwarf_Error e,
			   const char *what, uint64_t addr);

#endif /* OC_FORMATS_DWARFPRIV_H */
