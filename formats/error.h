/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One error type for all of orccrash, returned by pointer (drgn's
 * struct drgn_error).  A function that can fail returns
 * struct oc_error *; NULL is success.
 *
 * It lives in formats/, the bottom layer, with the other types every
 * layer shares (mem.h, symtab.h, types.h, regs.h, lineinfo.h): headers
 * include downward only (docs/design.md).
 */
#ifndef OC_ERROR_H
#define OC_ERROR_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum oc_error_code {
	OC_ERR_NOMEM = 1,	/* out of memory (static sentinel) */
	OC_ERR_STOP,		/* iteration stopped on purpose (static sentinel) */
	OC_ERR_OS,		/* a system call failed; errno in ->errnum */
	OC_ERR_FORMAT,		/* a file or table is malformed */
	OC_ERR_FAULT,		/* target memory could not be read; ->address */
	OC_ERR_LOOKUP,		/* a symbol, type or member was not found */
	OC_ERR_INVALID,		/* bad argument or usage */
	OC_ERR_MISMATCH,	/* vmlinux does not match the dump */
	OC_ERR_UNSUPPORTED,	/* a format or kernel we do not handle */
	OC_ERR_OTHER,
};

struct oc_error {
	enum oc_error_code code;
	bool needs_destroy;	/* false for the static sentinels */
	bool has_address;
	int errnum;
	uint64_t address;
	char *path;		/* file the error is about, or NULL */
	char *message;
};

extern struct oc_error oc_enomem;
extern struct oc_error oc_stop;

struct oc_error *oc_error_create(enum oc_error_code code, const char *message);
struct oc_error *oc_error_format(enum oc_error_code code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A read of target memory at @address failed. */
struct oc_error *oc_error_fault(uint64_t address, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* An error about a file: rendered as "PATH: MESSAGE". */
struct oc_error *oc_error_file(enum oc_error_code code, const char *path,
			       const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A failed system call: rendered as "MESSAGE: strerror(errnum)". */
struct oc_error *oc_error_os(int errnum, const char *path, const char *fmt,
			     ...)
	__attribute__((format(printf, 3, 4)));
/* Prefix an error's message with a path (if it has none yet). */
struct oc_error *oc_error_set_path(struct oc_error *err, const char *path);
void oc_error_destroy(struct oc_error *err);
/* For a call whose failure only means "not there": true if it worked;
 * the error, if any, is destroyed.  if (oc_ok(oc_mem_read_u64(...))) */
static inline bool oc_ok(struct oc_error *err)
{
	oc_error_destroy(err);
	return !err;
}
/* One line, no trailing newline: "path: message". */
void oc_error_fprint(FILE *fp, const struct oc_error *err);
/* How a program says an error: "PROG: path: message" and a newline on
 * @fp, then @err destroyed (src/main.c, src/shell.c, the test tools). */
void oc_error_report(FILE *fp, const char *prog, struct oc_error *err);
/* The same line into buf (always NUL-terminated). */
void oc_error_string(const struct oc_error *err, char *buf, size_t size);
/* oc_error_string(), then @err destroyed: for an error that goes on as
 * text (a warning, a trace's message, another error's detail);
 * returns @buf. */
char *oc_error_take(struct oc_error *err, char *buf, size_t size);

#endif /* OC_ERROR_H */
