// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * oc_file_open(): inputs are regular files (or, for a dump, a block
 * device); a FIFO is refused without blocking, a directory or a
 * character device with words that say what it is.
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileopen.h"
#include "test.h"

static void check_refused(const char *path, const char *what)
{
	struct oc_error *err;
	int fd = 123;

	err = oc_file_open(path, true, &fd, NULL);
	CHECK(err != NULL);
	CHECK_EQ(fd, -1);
	if (err) {
		CHECK_STR(err->path, path);
		if (!strstr(err->message, what))
			FAIL_AT("%s: \"%s\" does not say %s", path,
				err->message, what);
	}
	oc_error_destroy(err);
}

TEST(fileopen_refuses_what_is_not_a_file)
{
	char dir[] = "/tmp/oc-fileopen.XXXXXX", path[64];

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/fifo", dir);
	CHECK(mkfifo(path, 0600) == 0);
	/* no writer: a plain open(O_RDONLY) would never return */
	check_refused(path, "pipe (FIFO)");
	check_refused(dir, "a directory");
	check_refused("/dev/zero", "a character device");
	check_refused("/dev/null", "a character device");
	unlink(path);
	rmdir(dir);
}

TEST(fileopen_regular_file)
{
	char path[] = "/tmp/oc-fileopen.XXXXXX";
	int tmp = mkstemp(path), fd = -1;
	struct stat st;
	struct oc_error *err;

	CHECK(tmp >= 0);
	CHECK(write(tmp, "abc", 3) == 3);
	close(tmp);
	err = oc_file_open(path, false, &fd, &st);
	CHECK(err == NULL);
	CHECK(fd >= 0);
	CHECK_EQ(st.st_size, 3);
	/* blocking again: O_NONBLOCK was only for the open */
	CHECK_EQ(fcntl(fd, F_GETFL) & O_NONBLOCK, 0);
	close(fd);
	oc_error_destroy(err);
	check_refused("/nonexistent/oc-fileopen", "No such file");
	unlink(path);
}
