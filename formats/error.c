// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "strutil.h"

struct oc_error oc_enomem = {
	.code = OC_ERR_NOMEM,
	.message = "cannot allocate memory",
};

struct oc_error oc_stop = {
	.code = OC_ERR_STOP,
	.message = "stop iteration",
};

static struct oc_error *error_vformat(enum oc_error_code code, const char *fmt,
				      va_list ap)
{
	struct oc_error *err = calloc(1, sizeof(*err));

	if (!err)
		return &oc_enomem;
	if (vasprintf(&err->message, fmt, ap) < 0) {
		free(err);
		return &oc_enomem;
	}
	err->code = code;
	err->needs_destroy = true;
	return err;
}

struct oc_error *oc_error_create(enum oc_error_code code, const char *message)
{
	return oc_error_format(code, "%s", message);
}

struct oc_error *oc_error_format(enum oc_error_code code, const char *fmt, ...)
{
	struct oc_error *err;
	va_list ap;

	va_start(ap, fmt);
	err = error_vformat(code, fmt, ap);
	va_end(ap);
	return err;
}

struct oc_error *oc_error_fault(uint64_t address, const char *fmt, ...)
{
	struct oc_error *err;
	va_list ap;

	va_start(ap, fmt);
	err = error_vformat(OC_ERR_FAULT, fmt, ap);
	va_end(ap);
	if (err->needs_destroy) {
		err->has_address = true;
		err->address = address;
	}
	return err;
}

struct oc_error *oc_error_set_path(struct oc_error *err, const char *path)
{
	if (!err || !err->needs_destroy || err->path || !path)
		return err;
	err->path = strdup(path);
	if (!err->path) {
		oc_error_destroy(err);
		return &oc_enomem;
	}
	return err;
}

struct oc_error *oc_error_file(enum oc_error_code code, const char *path,
			       const char *fmt, ...)
{
	struct oc_error *err;
	va_list ap;

	va_start(ap, fmt);
	err = error_vformat(code, fmt, ap);
	va_end(ap);
	return oc_error_set_path(err, path);
}

struct oc_error *oc_error_os(int errnum, const char *path, const char *fmt,
			     ...)
{
	struct oc_error *err, *ret;
	va_list ap;

	va_start(ap, fmt);
	err = error_vformat(OC_ERR_OS, fmt, ap);
	va_end(ap);
	if (!err->needs_destroy)
		return err;
	ret = oc_error_file(OC_ERR_OS, path, "%s: %s", err->message,
			    strerror(errnum));
	oc_error_destroy(err);
	if (ret->needs_destroy)
		ret->errnum = errnum;
	return ret;
}

void oc_error_destroy(struct oc_error *err)
{
	if (!err || !err->needs_destroy)
		return;
	free(err->path);
	free(err->message);
	free(err);
}

void oc_error_string(const struct oc_error *err, char *buf, size_t size)
{
	if (!size)
		return;
	if (!err) {
		snprintf(buf, size, "success");
		return;
	}
	if (err->path)
		snprintf(buf, size, "%s: %s", err->path, err->message);
	else
		snprintf(buf, size, "%s", err->message);
}

char *oc_error_take(struct oc_error *err, char *buf, size_t size)
{
	oc_error_string(err, buf, size);
	oc_error_destroy(err);
	return buf;
}

void oc_error_fprint(FILE *fp, const struct oc_error *err)
{
	char buf[1024];

	oc_error_string(err, buf, sizeof(buf));
	/* one line: fold any newline a foreign library put in */
	for (char *p = buf; *p; p++)
		if (*p == '\n')
			*p = ' ';
	/* messages quote dump bytes (libkdumpfile's, a release): escape them */
	oc_str_fput(fp, buf, strlen(buf), 0);
}

void oc_error_report(FILE *fp, const char *prog, struct oc_error *err)
{
	fprintf(fp, "%s: ", prog);
	oc_error_fprint(fp, err);
	fputc('\n', fp);
	oc_error_destroy(err);
}
