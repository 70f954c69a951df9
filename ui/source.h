/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The browser's source view (--source DIR): finding a DWARF file name
 * under DIR and reading the file's lines.  Pure file-system code, no
 * ncurses, no model: unit-tested in tests/unit/test_ui_source.c.
 */
#ifndef OC_UI_SOURCE_H
#define OC_UI_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"

/*
 * The file under @dir that DWARF file name @file stands for, into @buf:
 * DIR/<@file relative to the build directory> (oc_lines_short_file()),
 * DIR/<@file as it is>, then DIR with @file's leading directories taken
 * off one by one (DIR in place of the build prefix, e.g.
 * /root/build/module/x.c -> DIR/module/x.c -> DIR/x.c).  Only regular
 * files inside @dir are returned: a name with a ".." component is never
 * tried and a candidate whose real path (symlinks resolved) leaves @dir
 * is refused.  False if none is there.
 */
bool oc_ui_source_find(const char *dir, const char *file, char *buf,
		       size_t size);

/* A source file split in lines (without their '\n'). */
struct oc_ui_source {
	char *path;
	char *text;		/* the whole file, NUL-terminated */
	char **lines;		/* into text */
	size_t nr;
};

/* Reads @path (at most 64 MiB). */
struct oc_error *oc_ui_source_read(const char *path, struct oc_ui_source *ret);
void oc_ui_source_deinit(struct oc_ui_source *s);

/* Line @line (from 1) with tabs expanded to 8 columns and control
 * characters as '?', into @buf; "" past the end. */
void oc_ui_source_line(const struct oc_ui_source *s, size_t line, char *buf,
		       size_t size);

#endif /* OC_UI_SOURCE_H */
