/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A DWARF 2-5 line-number program decoder over raw .debug_line bytes, for
 * the rows only: address, line, file register, end of sequence (no
 * columns, views or flags; the file table is skipped, names come from
 * elsewhere).  Pure: no libdwarf, no I/O, so it is unit-tested on
 * hand-made programs.  formats/dwarflines.c runs it on the mapping instead
 * of libdwarf's dwarf_srclines_b(), which allocates a struct per row
 * (20-40 ms for a large kernel CU) and starts a DWARF 5 program's file
 * register at entry 0 rather than 1.
 */
#ifndef OC_FORMATS_LINEPROG_H
#define OC_FORMATS_LINEPROG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

/* Called per row; false means out of memory (decoding stops). */
typedef bool oc_lineprog_row_fn(void *arg, uint64_t addr, uint64_t line,
				uint64_t file, bool end_sequence);

/*
 * Run the line-number program unit starting at @unit, with @size bytes
 * available from there (to the end of .debug_line).  The file register is
 * as in the program (DWARF 5: 0-based entries, initial 1; DWARF 2-4:
 * 1-based, initial 1).  OC_ERR_FORMAT for a unit we do not read (a VLIW
 * maximum_operations_per_instruction, an address size other than 8,
 * truncation, ...): the caller falls back to another reader; rows already
 * reported stay reported.
 */
struct oc_error *oc_lineprog_decode(const uint8_t *unit, size_t size,
				    oc_lineprog_row_fn *row, void *arg);

#endif /* OC_FORMATS_LINEPROG_H */
