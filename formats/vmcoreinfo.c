// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The VMCOREINFO parser (see vmcoreinfo.h for the rules).  The text is
 * split once into a NUL-separated copy; lookups scan its ~150 lines.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vmcoreinfo.h"

struct vi_line {
	const char *key;	/* NUL-terminated, in ->lines */
	const char *value;
};

struct oc_vmcoreinfo {
	char *text;		/* as given, up to its first NUL */
	char *lines;		/* the same with '=' of each line and '\n' -> NUL
				 * (in ->text's allocation) */
	struct vi_line *v;
	size_t nr;
	size_t nr_malformed, first_malformed;
};

static bool key_char(char c)
{
	return c > ' ' && c <= '~' && c != '=';
}

static bool value_char(char c)
{
	return c >= ' ' && c <= '~';
}

/* Split one line in place; false if it is malformed. */
static bool split_line(char *line, struct vi_line *ret)
{
	char *eq = strchr(line, '=');

	if (!eq || eq == line)
		return false;
	for (const char *p = line; p < eq; p++)
		if (!key_char(*p))
			return false;
	for (const char *p = eq + 1; *p; p++)
		if (!value_char(*p))
			return false;
	*eq = '\0';
	ret->key = line;
	ret->value = eq + 1;
	return true;
}

struct oc_error *oc_vmcoreinfo_parse(const char *text, size_t len,
				     struct oc_vmcoreinfo **ret)
{
	struct oc_vmcoreinfo *vi;
	size_t cap = 1, lineno = 0;
	char *p;

	*ret = NULL;
	len = text ? strnlen(text, len) : 0;
	if (len > OC_VMCOREINFO_MAX)
		return oc_error_format(OC_ERR_FORMAT,
				       "VMCOREINFO of %zu bytes (at most %d)", len,
				       OC_VMCOREINFO_MAX);
	for (size_t i = 0; i < len; i++)
		cap += text[i] == '\n';
	vi = calloc(1, sizeof(*vi));
	if (!vi)
		return &oc_enomem;
	/* the text, then its split copy */
	vi->text = malloc(2 * (len + 1));
	vi->lines = vi->text ? vi->text + len + 1 : NULL;
	vi->v = calloc(cap, sizeof(*vi->v));
	if (!vi->text || !vi->lines || !vi->v) {
		oc_vmcoreinfo_destroy(vi);
		return &oc_enomem;
	}
	if (len)
		memcpy(vi->text, text, len);
	vi->text[len] = '\0';
	memcpy(vi->lines, vi->text, len + 1);
	for (p = vi->lines; p < vi->lines + len;) {
		char *nl = strchr(p, '\n'), *next;

		next = nl ? nl + 1 : vi->lines + len;
		if (nl)
			*nl = '\0';
		lineno++;
		if (!*p) {
			/* an empty line: nothing to find, nothing wrong */
		} else if (split_line(p, &vi->v[vi->nr])) {
			vi->nr++;
		} else if (!vi->nr_malformed++) {
			vi->first_malformed = lineno;
		}
		p = next;
	}
	*ret = vi;
	return NULL;
}

void oc_vmcoreinfo_destroy(struct oc_vmcoreinfo *vi)
{
	if (!vi)
		return;
	free(vi->text);		/* and ->lines */
	free(vi->v);
	free(vi);
}

const char *oc_vmcoreinfo_text(const struct oc_vmcoreinfo *vi)
{
	return vi->text;
}

size_t oc_vmcoreinfo_nr_malformed(const struct oc_vmcoreinfo *vi,
				  size_t *first_line_ret)
{
	if (first_line_ret)
		*first_line_ret = vi->first_malformed;
	return vi->nr_malformed;
}

size_t oc_vmcoreinfo_nr(const struct oc_vmcoreinfo *vi)
{
	return vi ? vi->nr : 0;
}

void oc_vmcoreinfo_line(const struct oc_vmcoreinfo *vi, size_t i,
			const char **key_ret, const char **value_ret)
{
	*key_ret = vi->v[i].key;
	*value_ret = vi->v[i].value;
}

struct oc_error *oc_vmcoreinfo_value(const struct oc_vmcoreinfo *vi,
				     const char *key, const char **ret)
{
	const char *found = NULL;

	for (size_t i = 0; vi && i < vi->nr; i++) {
		if (strcmp(vi->v[i].key, key))
			continue;
		if (found && strcmp(found, vi->v[i].value))
			return oc_error_format(OC_ERR_FORMAT,
					       "VMCOREINFO has %s twice, with different values (\"%s\", \"%s\")",
					       key, found, vi->v[i].value);
		found = vi->v[i].value;
	}
	if (!found)
		return oc_error_format(OC_ERR_LOOKUP, "VMCOREINFO has no %s",
				       key);
	*ret = found;
	return NULL;
}

/* ---- numbers, as the kernel prints them ------------------------------- */

static int digit(char c, unsigned base)
{
	int d = c >= '0' && c <= '9' ? c - '0' :
		c >= 'a' && c <= 'f' ? c - 'a' + 10 :
		c >= 'A' && c <= 'F' ? c - 'A' + 10 : 99;

	return d < (int)base ? d : -1;
}

/* All of @s, at least one digit, no overflow. */
static bool read_unsigned(const char *s, unsigned base, uint64_t *ret)
{
	uint64_t v = 0;

	if (!*s)
		return false;
	for (; *s; s++) {
		int d = digit(*s, base);

		if (d < 0 || v > (UINT64_MAX - (uint64_t)d) / base)
			return false;
		v = v * base + (uint64_t)d;
	}
	*ret = v;
	return true;
}

static bool has_0x(const char *s)
{
	return s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
}

enum vi_kind { VI_HEX, VI_SIGNED, VI_UNSIGNED };

static enum vi_kind kind_of(const char *key)
{
	/* vmcoreinfo_append_str("SYMBOL(%s)=%lx\n"), "KERNELOFFSET=%lx\n";
	 * PHYS_OFFSET=%llx on arm64 before 5.3 */
	if (!strncmp(key, "SYMBOL(", 7) || !strcmp(key, "KERNELOFFSET") ||
	    !strcmp(key, "PHYS_OFFSET"))
		return VI_HEX;
	/* VMCOREINFO_NUMBER(): "NUMBER(%s)=%ld\n" */
	if (!strncmp(key, "NUMBER(", 7))
		return VI_SIGNED;
	return VI_UNSIGNED;
}

static bool read_value(const char *v, enum vi_kind kind, uint64_t *ret)
{
	uint64_t u;

	switch (kind) {
	case VI_HEX:
		return read_unsigned(has_0x(v) ? v + 2 : v, 16, ret);
	case VI_SIGNED:
		if (has_0x(v))
			return read_unsigned(v + 2, 16, ret);
		if (*v == '-') {
			if (!read_unsigned(v + 1, 10, &u) ||
			    u > (uint64_t)INT64_MAX + 1)
				return false;
			*ret = -u;
			return true;
		}
		if (!read_unsigned(v, 10, &u) || u > INT64_MAX)
			return false;
		*ret = u;
		return true;
	case VI_UNSIGNED:
		return read_unsigned(v, 10, ret);
	}
	return false;
}

struct oc_error *oc_vmcoreinfo_u64(const struct oc_vmcoreinfo *vi,
				   const char *key, uint64_t *ret)
{
	const char *v;
	struct oc_error *err = oc_vmcoreinfo_value(vi, key, &v);

	if (err)
		return err;
	if (!read_value(v, kind_of(key), ret))
		return oc_error_format(OC_ERR_FORMAT,
				       "VMCOREINFO %s: bad value \"%s\"", key, v);
	return NULL;
}

static struct oc_error *lookup(const struct oc_vmcoreinfo *vi,
			       uint64_t *ret, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static struct oc_error *lookup(const struct oc_vmcoreinfo *vi,
			       uint64_t *ret, const char *fmt, ...)
{
	char key[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(key, sizeof(key), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(key))
		return oc_error_format(OC_ERR_LOOKUP,
				       "VMCOREINFO key too long (%d bytes)", n);
	return oc_vmcoreinfo_u64(vi, key, ret);
}

struct oc_error *oc_vmcoreinfo_symbol(const struct oc_vmcoreinfo *vi,
				      const char *name, uint64_t *ret)
{
	return lookup(vi, ret, "SYMBOL(%s)", name);
}

struct oc_error *oc_vmcoreinfo_number(const struct oc_vmcoreinfo *vi,
				      const char *name, int64_t *ret)
{
	uint64_t v;
	struct oc_error *err = lookup(vi, &v, "NUMBER(%s)", name);

	if (!err)
		*ret = (int64_t)v;
	return err;
}

struct oc_error *oc_vmcoreinfo_offset(const struct oc_vmcoreinfo *vi,
				      const char *type, const char *member,
				      uint64_t *ret)
{
	return lookup(vi, ret, "OFFSET(%s.%s)", type, member);
}

struct oc_error *oc_vmcoreinfo_size(const struct oc_vmcoreinfo *vi,
				    const char *type, uint64_t *ret)
{
	return lookup(vi, ret, "SIZE(%s)", type);
}

struct oc_error *oc_vmcoreinfo_length(const struct oc_vmcoreinfo *vi,
				      const char *name, uint64_t *ret)
{
	return lookup(vi, ret, "LENGTH(%s)", name);
}
