/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One sanitiser for every string that comes from a dump (a release, a
 * comm, a log record, a module or symbol name, a libkdumpfile message
 * that quotes one) before it reaches a terminal, a file or JSON.
 * docs/hardening.md lists what it escapes and why.
 */
#ifndef OC_STRUTIL_H
#define OC_STRUTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum oc_esc_flags {
	/* keep '\n' (multi-line log records in JSON) */
	OC_ESC_KEEP_NL = 1,
	/* inside "...": escape '"' and '\\' too, so the quotes are unambiguous */
	OC_ESC_QUOTE = 2,
	/*
	 * for JSON: leave C0 controls, which the JSON writer escapes as
	 * \u00XX without loss; DEL, C1, bidi and invalid UTF-8 are still
	 * escaped here, so the output is valid UTF-8 with none of them
	 */
	OC_ESC_JSON = 4,
};

/*
 * Escape len bytes of s into buf (always NUL-terminated when size > 0,
 * cut only between whole escapes or characters).  Returns the length
 * the whole escaped string has, like snprintf.
 */
size_t oc_str_escape(char *buf, size_t size, const char *s, size_t len,
		     unsigned int flags);

/* oc_str_escape() of a NUL-terminated string into buf; returns buf. */
const char *oc_esc(char *buf, size_t size, const char *s, unsigned int flags);

/* The same, malloc'ed (NULL only when out of memory). */
char *oc_str_escape_dup(const char *s, size_t len, unsigned int flags);

/* Write the escaped bytes to out. */
void oc_str_fput(FILE *out, const char *s, size_t len, unsigned int flags);

/* @len bytes as lowercase hex (a build-id, an instruction's bytes) into
 * @buf, NUL-terminated, cut at a whole byte when @size is short. */
void oc_hex_string(const uint8_t *bytes, size_t len, char *buf, size_t size);

#endif
