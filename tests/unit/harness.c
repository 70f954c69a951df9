// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elffile.h"
#include "error.h"
#include "symtab.h"
#include "test.h"

int oc_test_failed_now;

extern const struct oc_test __start_oc_tests[], __stop_oc_tests[];

static char tmpdir[64];

static int remove_one(const char *path, const struct stat *st, int flag,
		      struct FTW *ftw)
{
	return remove(path);
}

static void remove_tmpdir(void)
{
	nftw(tmpdir, remove_one, 8, FTW_DEPTH | FTW_PHYS);
}

const char *oc_test_tmp_path(const char *name)
{
	static char buf[8][256];
	static unsigned int n;
	char *p = buf[n++ % 8];

	if (!tmpdir[0]) {
		struct stat st;

		snprintf(tmpdir, sizeof(tmpdir), "%s/oc-%s-XXXXXX",
			 stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) &&
			 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp",
			 program_invocation_short_name);
		if (!mkdtemp(tmpdir)) {
			perror("mkdtemp");
			abort();
		}
		atexit(remove_tmpdir);
	}
	snprintf(p, sizeof(buf[0]), "%s/%s", tmpdir, name);
	return p;
}

void oc_test_write_file(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd < 0 || write(fd, data, len) != (ssize_t)len) {
		perror(path);
		abort();
	}
	close(fd);
}

void oc_test_write_text(const char *path, const char *text)
{
	oc_test_write_file(path, text, strlen(text));
}

const char *oc_test_cc(void)
{
	const char *cc = getenv("CC");

	return cc && *cc ? cc : "cc";
}

bool oc_test_system(const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	if (system(cmd) != 0) {
		FAIL_AT("%s failed", cmd);
		return false;
	}
	return true;
}

uint64_t oc_test_sym_addr(const char *path, const char *name)
{
	struct oc_symtab tab;
	struct oc_elf *elf = NULL;
	const struct oc_symbol *s;
	uint64_t a = 0;

	oc_symtab_init(&tab);
	CHECK_OK(oc_elf_open(path, &elf));
	if (!elf)
		return 0;
	CHECK_OK(oc_elf_symtab(elf, &tab));
	CHECK_OK(oc_symtab_finish(&tab));
	s = oc_symtab_find(&tab, name);
	if (s)
		a = oc_symtab_addr(&tab, s);
	else
		FAIL_AT("no %s in %s", name, path);
	oc_symtab_deinit(&tab);
	oc_elf_close(elf);
	return a;
}

int main(int argc, char **argv)
{
	int passed = 0, failed = 0;

	for (const struct oc_test *t = __start_oc_tests; t < __stop_oc_tests;
	     t++) {
		if (argc > 1 && !strstr(t->name, argv[1]))
			continue;
		oc_test_failed_now = 0;
		t->fn();
		if (oc_test_failed_now) {
			printf("FAIL %s\n", t->name);
			failed++;
		} else {
			printf("PASS %s\n", t->name);
			passed++;
		}
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
