// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fileopen.h"

static const char *kind_name(mode_t mode)
{
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISFIFO(mode))
		return "a pipe (FIFO)";
	if (S_ISSOCK(mode))
		return "a socket";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	return "not a regular file";
}

struct oc_error *oc_file_open(const char *path, bool allow_blockdev,
			      int *fd_ret, struct stat *st_ret)
{
	struct stat st;
	int fd, flags;

	*fd_ret = -1;
	/* O_NONBLOCK: open(2) of a FIFO with no writer would wait forever */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return oc_error_os(errno, path, "cannot open");
	if (fstat(fd, &st) < 0) {
		int e = errno;

		close(fd);
		return oc_error_os(e, path, "fstat");
	}
	if (!S_ISREG(st.st_mode) && !(allow_blockdev && S_ISBLK(st.st_mode))) {
		close(fd);
		return oc_error_file(OC_ERR_FORMAT, path,
				     "%s, not a regular file%s",
				     kind_name(st.st_mode),
				     allow_blockdev ? " or a block device" : "");
	}
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0) {
		int e = errno;

		close(fd);
		return oc_error_os(e, path, "fcntl");
	}
	if (S_ISBLK(st.st_mode)) {
		/* a block device's st_size is 0: its size is the device's */
		uint64_t size;

		if (ioctl(fd, BLKGETSIZE64, &size) < 0 || size > INT64_MAX) {
			int e = errno;

			close(fd);
			return oc_error_os(e, path, "BLKGETSIZE64");
		}
		st.st_size = (off_t)size;
	}
	if (st_ret)
		*st_ret = st;
	*fd_ret = fd;
	return NULL;
}

/* The mappings oc_file_mapped_at() knows: a dump (and its clones' share
 * of it), a vmlinux's DWARF, a few debuginfo files. */
static struct {
	_Atomic(uintptr_t) start;	/* 0: a free slot */
	size_t size;
	const char *path;
} maps[32];

void oc_file_map_note(const void *map, size_t size, const char *path)
{
	for (size_t i = 0; i < sizeof(maps) / sizeof(maps[0]); i++) {
		uintptr_t free_slot = 0;

		if (atomic_load(&maps[i].start))
			continue;
		maps[i].size = size;
		maps[i].path = path;
		if (atomic_compare_exchange_strong(&maps[i].start, &free_slot,
						   (uintptr_t)map))
			return;
	}
	/* a full table: a SIGBUS there is not named */
}

void oc_file_map_forget(const void *map)
{
	for (size_t i = 0; i < sizeof(maps) / sizeof(maps[0]); i++) {
		uintptr_t at = (uintptr_t)map;

		if (atomic_compare_exchange_strong(&maps[i].start, &at, 0))
			return;
	}
}

const void *oc_file_map(int fd, size_t size, const char *path)
{
	void *p;

	if (!size)
		return NULL;
	p = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return NULL;
	oc_file_map_note(p, size, path);
	return p;
}

void oc_file_unmap(const void *map, size_t size)
{
	if (!map)
		return;
	oc_file_map_forget(map);
	munmap((void *)map, size);
}

const char *oc_file_mapped_at(const void *addr, uint64_t *off)
{
	uintptr_t a = (uintptr_t)addr;

	for (size_t i = 0; i < sizeof(maps) / sizeof(maps[0]); i++) {
		uintptr_t start = atomic_load(&maps[i].start);

		if (start && a >= start && a - start < maps[i].size) {
			*off = a - start;
			return maps[i].path;
		}
	}
	return NULL;
}
