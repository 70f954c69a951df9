/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Line tables and inlined-subroutine chains from a vmlinux's DWARF,
 * through libdwarf.  Only formats/dwarflines.c includes libdwarf.  (Not
 * named dwarf.h: with -Iformats that would shadow libdwarf's <dwarf.h>.)
 *
 * The file is mapped and handed to libdwarf section by section through
 * its object-access interface, so opening costs no reads: Debian's
 * libdwarf 20210528 on its own (dwarf_init_path) reads every debug section
 * into memory and applies the 6.1 vmlinux's .rela.debug_* sections
 * (kept by --emit-relocs), 3 s and 770 MB before the first lookup.  The
 * relocations are already applied in a linked vmlinux (ET_EXEC), so we
 * hide them.  Per-CU line tables are read on the first address in the CU
 * (.debug_aranges finds the CU), by formats/lineprog.c: 3x
 * faster than dwarf_srclines_b(), and right about DWARF 5's initial file
 * register where libdwarf 20210528 (and binutils 2.40) are not.  The
 * environment variable OC_DWARF_LIBDWARF_LINES=1 selects libdwarf's
 * reader instead (tests/realdump/lines.sh uses it as a reference).
 */
#ifndef OC_FORMATS_DWARFLINES_H
#define OC_FORMATS_DWARFLINES_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "lineinfo.h"

struct oc_dwarf;

/*
 * OC_ERR_LOOKUP when the file has no .debug_info/.debug_line (a stripped
 * vmlinux, or a split one); OC_ERR_UNSUPPORTED for dwz-compressed or
 * compressed DWARF.  A relocatable object (.ko) gets its allocated
 * sections laid out from 0x1000 and its .rela.debug_* applied; its
 * addresses are then only meaningful through oc_dwarf_symbol_addr().
 */
struct oc_error *oc_dwarf_open(const char *path, struct oc_dwarf **ret);
void oc_dwarf_close(struct oc_dwarf *d);

/*
 * The chain for link-time address @addr, innermost first (see
 * oc_lines_lookup()).  Strings live until oc_dwarf_close().  *nr_ret is 0
 * when no CU or line row covers @addr.  An error means this address's DWARF
 * could not be read (malformed); later lookups may still work.
 */
struct oc_error *oc_dwarf_lookup(struct oc_dwarf *d, uint64_t addr,
				 struct oc_line_info *chain, size_t max,
				 size_t *nr_ret);

/*
 * The address of symbol @name in the file's own terms (the link address
 * for a vmlinux, our layout for a .ko), preferring a function; 0 if
 * there is none.  Add the ip's offset from the symbol to look it up.
 */
uint64_t oc_dwarf_symbol_addr(const struct oc_dwarf *d, const char *name);

#endif /* OC_FORMATS_DWARFLINES_H */
