/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * VMCOREINFO: the "KEY=VALUE" lines the kernel leaves for dump tools
 * (kernel/vmcore_info.c since 6.9, kernel/crash_core.c before; the x86-64
 * lines from arch/x86/kernel/vmcore_info_64.c, crash_core_64.c before).  The one parser of it, as
 * libkdumpfile keeps src/kdumpfile/vmcoreinfo.c: formats/dump.c hands
 * it the note, and the model, the log reader and the test drivers look
 * values up here.
 *
 * The rules, strict because the text is dump data:
 *  - the text ends at its first NUL (a note's size includes padding) and
 *    may be at most OC_VMCOREINFO_MAX bytes (the kernel's note is one
 *    page, VMCOREINFO_BYTES);
 *  - a line is KEY=VALUE up to '\n'; the key is printable ASCII without
 *    spaces or '=', the value printable ASCII (anything after the first
 *    '=').  A line that breaks this (no '=', an empty key, a control or
 *    non-ASCII byte) is malformed: no lookup finds it, and it is counted
 *    (oc_vmcoreinfo_nr_malformed()).  Empty lines are not counted;
 *  - a key that appears twice with different values answers
 *    OC_ERR_FORMAT: tools disagree on which one wins (crash takes the
 *    first, libkdumpfile and makedumpfile the last);
 *  - values are read as the kernel prints them, nothing else (no spaces,
 *    no '+', every byte used, no overflow):
 *      SYMBOL(name), KERNELOFFSET     hex, "%lx" (an optional 0x)
 *      NUMBER(name)                   "%ld": decimal, may be negative;
 *                                     or 0x-prefixed hex (arm64's
 *                                     "NUMBER(kimage_voffset)=0x%llx")
 *      OFFSET(s.m), SIZE(s), LENGTH(name), PAGESIZE, CRASHTIME and any
 *      other key                      unsigned decimal
 *    A value that does not read is OC_ERR_FORMAT; an absent key is
 *    OC_ERR_LOOKUP, also when @vi is NULL (a dump without VMCOREINFO).
 */
#ifndef OC_FORMATS_VMCOREINFO_H
#define OC_FORMATS_VMCOREINFO_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

enum { OC_VMCOREINFO_MAX = 1 << 20 };

struct oc_vmcoreinfo;

/* OC_ERR_FORMAT only when @len (up to the first NUL) is too large. */
struct oc_error *oc_vmcoreinfo_parse(const char *text, size_t len,
				     struct oc_vmcoreinfo **ret);
void oc_vmcoreinfo_destroy(struct oc_vmcoreinfo *vi);

/* The text as given (up to its first NUL), NUL-terminated. */
const char *oc_vmcoreinfo_text(const struct oc_vmcoreinfo *vi);
/* Malformed lines, and the 1-based number of the first (0 if none). */
size_t oc_vmcoreinfo_nr_malformed(const struct oc_vmcoreinfo *vi,
				  size_t *first_line_ret);

/* The well-formed lines in text order, 0 <= @i < oc_vmcoreinfo_nr()
 * (to walk every SYMBOL(), say); strings owned by @vi. */
size_t oc_vmcoreinfo_nr(const struct oc_vmcoreinfo *vi);
void oc_vmcoreinfo_line(const struct oc_vmcoreinfo *vi, size_t i,
			const char **key_ret, const char **value_ret);

/*
 * The value of @key as text, NUL-terminated, owned by @vi.  OC_ERR_LOOKUP
 * if absent; OC_ERR_FORMAT if the key is there twice with different
 * values.
 */
struct oc_error *oc_vmcoreinfo_value(const struct oc_vmcoreinfo *vi,
				     const char *key, const char **ret);
/* @key's value as a number by the rules above (NUMBER()s in two's
 * complement). */
struct oc_error *oc_vmcoreinfo_u64(const struct oc_vmcoreinfo *vi,
				   const char *key, uint64_t *ret);

/* The same by kind: SYMBOL(@name), NUMBER(@name), OFFSET(@type.@member),
 * SIZE(@type), LENGTH(@name). */
struct oc_error *oc_vmcoreinfo_symbol(const struct oc_vmcoreinfo *vi,
				      const char *name, uint64_t *ret);
struct oc_error *oc_vmcoreinfo_number(const struct oc_vmcoreinfo *vi,
				      const char *name, int64_t *ret);
struct oc_error *oc_vmcoreinfo_offset(const struct oc_vmcoreinfo *vi,
				      const char *type, const char *member,
				      uint64_t *ret);
struct oc_error *oc_vmcoreinfo_size(const struct oc_vmcoreinfo *vi,
				    const char *type, uint64_t *ret);
struct oc_error *oc_vmcoreinfo_length(const struct oc_vmcoreinfo *vi,
				      const char *name, uint64_t *ret);

#endif /* OC_FORMATS_VMCOREINFO_H */
