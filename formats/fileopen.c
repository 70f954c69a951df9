// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdint.h>
#include <sys/ioctl.h>
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
