/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One level of the source-line chain of an address: what the DWARF
 * reader (formats/dwarflines.c) fills and the line cache (src/lines.c)
 * hands to the front ends.
 */
#ifndef OC_FORMATS_LINEINFO_H
#define OC_FORMATS_LINEINFO_H

#include <stdbool.h>

/*
 * Strings are owned by whoever filled the entry (struct oc_dwarf or
 * struct oc_lines) and live until it is closed.  file is NULL (and line
 * 0) when unknown; function is NULL when no DIE covers the address.
 */
struct oc_line_info {
	const char *file;	/* as the DWARF names it (often absolute) */
	unsigned line;
	const char *function;
	bool inlined;		/* function was inlined into the next entry */
};

#endif /* OC_FORMATS_LINEINFO_H */
