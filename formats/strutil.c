// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "strutil.h"

/*
 * Decode one UTF-8 character at s[0..len) the strict way (RFC 3629:
 * no overlong forms, no surrogates, nothing past U+10FFFF).  Returns
 * its length, 0 if the bytes are not valid UTF-8.
 */
static size_t utf8_decode(const unsigned char *s, size_t len, uint32_t *cp)
{
	uint32_t c = s[0], min;
	size_t n;

	if (c < 0x80) {
		*cp = c;
		return 1;
	} else if (c >= 0xc2 && c <= 0xdf) {
		n = 2, c &= 0x1f, min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3, c &= 0x0f, min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4, c &= 0x07, min = 0x10000;
	} else {
		return 0;
	}
	if (len < n)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return n;
}

/*
 * Characters that change how a terminal reads what follows: the C1
 * controls (U+0080..U+009F; a terminal may take U+009B as CSI) and the
 * bidirectional embeddings, overrides and isolates of Unicode's UAX #9
 * (U+202A..U+202E, U+2066..U+2069), which reorder the text shown.
 */
static bool dangerous_cp(uint32_t cp)
{
	return (cp >= 0x80 && cp <= 0x9f) ||
	       (cp >= 0x202a && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069);
}

struct esc_out {
	char *buf;
	size_t size, len;
	bool full;
};

static void emit(struct esc_out *o, const char *p, size_t n)
{
	if (!o->full && o->size && o->len + n < o->size)
		memcpy(o->buf + o->len, p, n);
	else
		o->full = true;	/* nothing after a cut, not even a short escape */
	o->len += n;
}

size_t oc_str_escape(char *buf, size_t size, const char *str, size_t len,
		     unsigned int flags)
{
	const unsigned char *s = (const unsigned char *)str;
	struct esc_out o = { .buf = buf, .size = size };
	size_t kept = 0;

	for (size_t i = 0; i < len;) {
		unsigned char c = s[i];
		char tmp[16];
		uint32_t cp;
		size_t n;

		if (c == '\t' || (c == '\n' && (flags & OC_ESC_KEEP_NL)) ||
		    (c && c < 0x20 && (flags & OC_ESC_JSON))) {
			emit(&o, (const char *)s + i, 1);
			i++;
		} else if (c < 0x20 || c == 0x7f) {
			snprintf(tmp, sizeof(tmp), "\\x%02x", c);
			emit(&o, tmp, 4);
			i++;
		} else if ((c == '"' || c == '\\') && (flags & OC_ESC_QUOTE)) {
			tmp[0] = '\\';
			tmp[1] = (char)c;
			emit(&o, tmp, 2);
			i++;
		} else if (c < 0x80) {
			/* a run of plain ASCII at once (most strings are one):
			 * byte by byte only where it meets the end of buf */
			size_t j = i + 1;

			while (j < len && s[j] >= 0x20 && s[j] < 0x7f &&
			       !((s[j] == '"' || s[j] == '\\') &&
				 (flags & OC_ESC_QUOTE)))
				j++;
			if (o.full || !o.size || o.len + (j - i) < o.size) {
				emit(&o, (const char *)s + i, j - i);
				i = j;
			} else {
				emit(&o, (const char *)s + i, 1);
				i++;
			}
		} else if (!(n = utf8_decode(s + i, len - i, &cp))) {
			snprintf(tmp, sizeof(tmp), "\\x%02x", c);
			emit(&o, tmp, 4);
			i++;
		} else if (dangerous_cp(cp)) {
			int w = snprintf(tmp, sizeof(tmp), "\\u{%x}", cp);

			emit(&o, tmp, (size_t)w);
			i += n;
		} else {
			emit(&o, (const char *)s + i, n);
			i += n;
		}
		if (!o.full)
			kept = o.len;
	}
	if (size)
		buf[kept] = '\0';
	return o.len;
}

const char *oc_esc(char *buf, size_t size, const char *s, unsigned int flags)
{
	oc_str_escape(buf, size, s ? s : "", s ? strlen(s) : 0, flags);
	return buf;
}

char *oc_str_escape_dup(const char *s, size_t len, unsigned int flags)
{
	size_t n = oc_str_escape(NULL, 0, s, len, flags);
	char *buf = malloc(n + 1);

	if (buf)
		oc_str_escape(buf, n + 1, s, len, flags);
	return buf;
}

void oc_str_fput(FILE *out, const char *s, size_t len, unsigned int flags)
{
	char buf[256 * 4 + 1];

	/* in pieces that end on a character boundary the escape keeps */
	while (len) {
		size_t take = len < 256 ? len : 256;

		/* do not split a UTF-8 sequence: back up over continuation bytes */
		if (take < len)
			for (size_t k = 0; k < 3 && take > 1 &&
			     ((unsigned char)s[take] & 0xc0) == 0x80; k++)
				take--;
		oc_str_escape(buf, sizeof(buf), s, take, flags);
		fputs(buf, out);
		s += take;
		len -= take;
	}
}

void oc_hex_string(const uint8_t *bytes, size_t len, char *buf, size_t size)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	if (!size)
		return;
	for (i = 0; i < len && 2 * i + 2 < size; i++) {
		buf[2 * i] = digits[bytes[i] >> 4];
		buf[2 * i + 1] = digits[bytes[i] & 0xf];
	}
	buf[2 * i] = '\0';
}
