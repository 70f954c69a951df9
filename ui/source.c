// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Source files for the browser's source view.  DWARF file names come
 * from the vmlinux (or a module) and may be anything: absolute paths of
 * the machine that built the kernel, names relative to its build
 * directory, "../" names.  They are only ever looked up under the
 * directory the user gave (--source DIR).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileopen.h"
#include "lines.h"
#include "source.h"

enum {
	MAX_SOURCE = 64 << 20,	/* bytes of one source file */
	MAX_STRIP = 32,		/* leading directories taken off a name */
};

/* Does @path have a ".." component? */
static bool has_dotdot(const char *path)
{
	for (const char *p = path; *p; ) {
		size_t n = strcspn(p, "/");

		if (n == 2 && p[0] == '.' && p[1] == '.')
			return true;
		p += n;
		while (*p == '/')
			p++;
	}
	return false;
}

/* DIR/@rel if it is a regular file whose real path is inside @real_dir. */
static bool try_under(const char *dir, const char *real_dir, const char *rel,
		      char *buf, size_t size)
{
	char real[PATH_MAX];
	size_t n = strlen(real_dir);
	struct stat st;
	int len;

	while (*rel == '/' || (rel[0] == '.' && rel[1] == '/'))
		rel += *rel == '/' ? 1 : 2;
	if (!*rel || has_dotdot(rel))
		return false;
	len = snprintf(buf, size, "%s/%s", dir, rel);
	if (len < 0 || (size_t)len >= size)
		return false;
	if (stat(buf, &st) || !S_ISREG(st.st_mode) || !realpath(buf, real))
		return false;
	/* a symlink in the tree must not lead out of it */
	return !strncmp(real, real_dir, n) &&
	       (real[n] == '/' || (n == 1 && real_dir[0] == '/'));
}

bool oc_ui_source_find(const char *dir, const char *file, char *buf,
		       size_t size)
{
	char real_dir[PATH_MAX];
	const char *p;
	int strip = 0;

	if (!dir || !*dir || !file || !*file || !realpath(dir, real_dir))
		return false;
	if (try_under(dir, real_dir, oc_lines_short_file(file), buf, size) ||
	    try_under(dir, real_dir, file, buf, size))
		return true;
	/* DIR in place of the build directory's prefix, whatever it was */
	for (p = strchr(file, '/'); p && strip < MAX_STRIP;
	     p = strchr(p + 1, '/'), strip++)
		if (try_under(dir, real_dir, p + 1, buf, size))
			return true;
	return false;
}

void oc_ui_source_deinit(struct oc_ui_source *s)
{
	free(s->path);
	free(s->text);
	free(s->lines);
	memset(s, 0, sizeof(*s));
}

struct oc_error *oc_ui_source_read(const char *path, struct oc_ui_source *ret)
{
	struct oc_error *err = NULL;
	size_t len = 0, nr = 1, cap;
	struct stat st;
	FILE *fp;
	int fd;

	memset(ret, 0, sizeof(*ret));
	/* a FIFO in the source tree must not block the browser */
	err = oc_file_open(path, false, &fd, &st);
	if (err)
		return err;
	fp = fdopen(fd, "rb");
	if (!fp) {
		err = oc_error_os(errno, path, "fdopen");
		close(fd);
		return err;
	}
	if (st.st_size > MAX_SOURCE) {
		fclose(fp);
		return oc_error_file(OC_ERR_FORMAT, path, "more than %d MiB",
				     MAX_SOURCE >> 20);
	}
	cap = (size_t)st.st_size + 1;
	ret->path = strdup(path);
	ret->text = malloc(cap);
	if (!ret->path || !ret->text) {
		err = &oc_enomem;
		goto out;
	}
	len = fread(ret->text, 1, cap - 1, fp);
	if (ferror(fp)) {
		err = oc_error_format(OC_ERR_OS, "%s: read error", path);
		goto out;
	}
	ret->text[len] = '\0';
	for (size_t i = 0; i < len; i++)
		nr += ret->text[i] == '\n';
	ret->lines = calloc(nr, sizeof(*ret->lines));
	if (!ret->lines) {
		err = &oc_enomem;
		goto out;
	}
	ret->lines[ret->nr++] = ret->text;
	for (size_t i = 0; i < len; i++)
		if (ret->text[i] == '\n') {
			ret->text[i] = '\0';
			if (i + 1 < len)
				ret->lines[ret->nr++] = &ret->text[i + 1];
		}
out:
	fclose(fp);
	if (err)
		oc_ui_source_deinit(ret);
	return err;
}

void oc_ui_source_line(const struct oc_ui_source *s, size_t line, char *buf,
		       size_t size)
{
	size_t col = 0;

	if (!size)
		return;
	buf[0] = '\0';
	if (!line || line > s->nr)
		return;
	for (const char *p = s->lines[line - 1]; *p && col + 1 < size; p++) {
		unsigned char c = (unsigned char)*p;

		if (c == '\t') {
			do
				buf[col++] = ' ';
			while (col % 8 && col + 1 < size);
		} else if (c == '\r' && !p[1]) {
			break;	/* a CRLF file */
		} else {
			buf[col++] = c < ' ' || c == 127 ? '?' : (char)c;
		}
	}
	buf[col] = '\0';
}
