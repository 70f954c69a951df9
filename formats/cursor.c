// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The bounds-checked byte cursor (see cursor.h): the error messages and
 * the multi-byte LEB128 decoders.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cursor.h"

void oc_cursor_init(struct oc_cursor *c, const void *buf, size_t len,
		    const char *name)
{
	c->start = c->pos = c->prev = c->end = buf;
	/* NULL + 0 is undefined: no buffer is the empty one */
	if (buf)
		c->end = c->start + len;
	c->name = name ? name : "data";
	c->base = 0;
}

struct oc_error *oc_cursor_error(const struct oc_cursor *c, const char *fmt,
				 ...)
{
	struct oc_error *err;
	char *msg;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (n < 0)
		return &oc_enomem;
	err = oc_error_format(OC_ERR_FORMAT, "%s+0x%llx: %s", c->name,
			      (unsigned long long)(c->base +
						   (uint64_t)(c->prev - c->start)),
			      msg);
	free(msg);
	return err;
}

struct oc_error *oc_cursor_truncated(const struct oc_cursor *c, uint64_t n)
{
	return oc_cursor_error(c, "truncated (%llu bytes wanted, %zu left)",
			       (unsigned long long)n,
			       (size_t)(c->end - c->prev));
}

struct oc_error *oc_cursor_sub(struct oc_cursor *c, uint64_t n,
			       struct oc_cursor *ret)
{
	struct oc_error *err = oc_cursor_need(c, n);

	if (err)
		return err;
	*ret = *c;
	ret->end = oc_cursor_at(c, n);
	c->pos = ret->end;
	return NULL;
}

struct oc_error *oc_cursor_seek(struct oc_cursor *c, uint64_t off)
{
	c->prev = c->pos;
	if (off > (uint64_t)(c->end - c->start))
		return oc_cursor_error(c, "offset 0x%llx is past the end (0x%zx)",
				       (unsigned long long)off,
				       (size_t)(c->end - c->start));
	c->pos = off ? c->start + off : c->start;
	return NULL;
}

/*
 * Bits past the 64th must be zero (unsigned) or copies of bit 63
 * (signed); any number of padding bytes is fine.  shift stops growing at
 * 70 so that a gigabyte of 0x80 cannot wrap it.
 */
static struct oc_error *leb128(struct oc_cursor *c, bool sign, uint64_t *ret)
{
	const char *kind = sign ? "SLEB128" : "ULEB128";
	const uint8_t *p = c->pos;
	uint64_t v = 0;
	unsigned shift = 0;

	c->prev = p;
	while (p < c->end) {
		uint8_t b = *p++, bits = b & 0x7f, high;

		if (shift < 63) {
			v |= (uint64_t)bits << shift;
		} else {
			/* at 63: bit 63, then bits 64-69; past it: padding */
			if (shift == 63)
				v |= (uint64_t)(bits & 1) << 63;
			high = sign && v >> 63 ? 0x7f : 0;
			if ((shift == 63 ? bits >> 1 : bits) !=
			    (shift == 63 ? high >> 1 : high))
				return oc_cursor_error(c, "%s overflows 64 bits",
						       kind);
		}
		if (shift < 64)
			shift += 7;
		if (!(b & 0x80)) {
			if (sign && shift < 64 && (b & 0x40))
				v |= ~(uint64_t)0 << shift;
			c->pos = p;
			*ret = v;
			return NULL;
		}
	}
	return oc_cursor_error(c, "truncated %s", kind);
}

struct oc_error *oc_cursor_uleb128_slow(struct oc_cursor *c, uint64_t *ret)
{
	return leb128(c, false, ret);
}

struct oc_error *oc_cursor_sleb128_slow(struct oc_cursor *c, int64_t *ret)
{
	uint64_t v;
	struct oc_error *err = leb128(c, true, &v);

	if (!err)
		*ret = (int64_t)v;
	return err;
}

struct oc_error *oc_cursor_string(struct oc_cursor *c, const char **ret,
				  size_t *len_ret)
{
	const uint8_t *nul;

	c->prev = c->pos;
	nul = c->pos < c->end ? memchr(c->pos, '\0', (size_t)(c->end - c->pos)) :
				NULL;
	if (!nul)
		return oc_cursor_error(c, "unterminated string");
	*ret = (const char *)c->pos;
	if (len_ret)
		*len_ret = (size_t)(nul - c->pos);
	c->pos = nul + 1;
	return NULL;
}
