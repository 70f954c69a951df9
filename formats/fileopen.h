/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Opening an input file (a dump, a vmlinux, a .ko, a debuginfo file):
 * only what can be read at random offsets, never blocking in open().
 */
#ifndef OC_FILEOPEN_H
#define OC_FILEOPEN_H

#include <stdbool.h>
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

#endif
