/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Opening an input file (a dump, a vmlinux, a .ko, a debuginfo file):
 * only what can be read at random offsets, never blocking in open().
 */
#ifndef OC_FILEOPEN_H
#define OC_FILEOPEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "error.h"

/*
 * Open path read-only for random access.  A FIFO, a socket, a character
 * device (/dev/zero, a terminal) or a directory is refused with an
 * OC_ERR_FORMAT error naming the path and what it is; a block device
 * only when allow_blockdev (a dump on a raw partition).  O_NONBLOCK on
 * the open() keeps a FIFO without a writer from blocking; it is cleared
 * again before the descriptor is returned.  st_ret (may be NULL) gets
 * the fstat() of what was opened.
 */
struct oc_error *oc_file_open(const char *path, bool allow_blockdev,
			      int *fd_ret, struct stat *st_ret);

/*
 * A read-only mapping of the whole of @path (@fd, @size bytes), noted for
 * oc_file_mapped_at(); NULL if it cannot be made (the caller reads
 * with pread() then).  Every access must be checked against @size: only
 * a file cut short or unreadable (an I/O error) while it is mapped then
 * raises SIGBUS.  @path must outlive the mapping; oc_file_unmap() ends it.
 */
const void *oc_file_map(int fd, size_t size, const char *path);
void oc_file_unmap(const void *map, size_t size);
/* A mapping made otherwise (formats/dwarflines.c's private one), noted
 * for oc_file_mapped_at() until forgotten. */
void oc_file_map_note(const void *map, size_t size, const char *path);
void oc_file_map_forget(const void *map);

/*
 * The path of the mapping made by oc_file_map() that holds @addr, and
 * the offset in the file (@off), or NULL: for a SIGBUS handler, so
 * async-signal-safe (a fixed table read with atomic loads).
 */
const char *oc_file_mapped_at(const void *addr, uint64_t *off);

#endif
