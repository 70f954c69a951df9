/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one reader of hostile bytes: a bounds-checked cursor over a
 * buffer, modelled on drgn's libdrgn/binary_buffer.h.  Every format
 * that is decoded byte by byte goes through it: DWARF expressions,
 * .debug_frame, .debug_line, location lists, ELF notes, makedumpfile's
 * headers.
 *
 * Each read checks the bytes are there, advances, and returns NULL or an
 * OC_ERR_FORMAT error that names the offset where the read began
 * ("line program+0x1c: truncated ULEB128").  On an error the cursor has
 * not moved.  Integers are little-endian (the x86-64 target) unless the
 * name says be; LEB128 numbers that do not fit 64 bits are an error
 * (overlong encodings that do fit, such as 0x80 0x80 0x00, are valid
 * DWARF: linkers pad with them).
 *
 *	struct oc_cursor c;
 *	uint64_t len;
 *
 *	oc_cursor_init(&c, buf, size, ".debug_line");
 *	if ((err = oc_cursor_le32(&c, &len)) ||
 *	    (err = oc_cursor_skip(&c, len)))
 *		return err;
 */
#ifndef OC_FORMATS_CURSOR_H
#define OC_FORMATS_CURSOR_H

#include <endian.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "error.h"

struct oc_cursor {
	const uint8_t *start;	/* the buffer: offsets count from here */
	const uint8_t *pos;	/* the next byte */
	const uint8_t *end;	/* one past the last byte */
	const uint8_t *prev;	/* where the last read began */
	const char *name;	/* what the bytes are, for errors */
	uint64_t base;		/* offset of start in its file or section */
};

/* @buf may be NULL when @len is 0. */
void oc_cursor_init(struct oc_cursor *c, const void *buf, size_t len,
		    const char *name);

/* Bytes read so far (from start) and bytes left. */
static inline size_t oc_cursor_offset(const struct oc_cursor *c)
{
	return (size_t)(c->pos - c->start);
}

static inline size_t oc_cursor_left(const struct oc_cursor *c)
{
	return (size_t)(c->end - c->pos);
}

/*
 * An OC_ERR_FORMAT error about the last read: "NAME+0xOFF: MESSAGE",
 * OFF being base + where that read began.
 */
struct oc_error *oc_cursor_error(const struct oc_cursor *c, const char *fmt,
				 ...) __attribute__((format(printf, 2, 3)));

/* Out-of-line halves of the readers below. */
struct oc_error *oc_cursor_truncated(const struct oc_cursor *c, uint64_t n);
struct oc_error *oc_cursor_uleb128_slow(struct oc_cursor *c, uint64_t *ret);
struct oc_error *oc_cursor_sleb128_slow(struct oc_cursor *c, int64_t *ret);

/* Are @n more bytes there?  Marks the read's start either way. */
static inline struct oc_error *oc_cursor_need(struct oc_cursor *c,
					      uint64_t n)
{
	c->prev = c->pos;
	if (__builtin_expect(n > (uint64_t)(c->end - c->pos), 0))
		return oc_cursor_truncated(c, n);
	return NULL;
}

/* pos + n, with no arithmetic on a NULL (empty) buffer */
static inline const uint8_t *oc_cursor_at(const struct oc_cursor *c,
					  uint64_t n)
{
	return n ? c->pos + n : c->pos;
}

static inline struct oc_error *oc_cursor_skip(struct oc_cursor *c, uint64_t n)
{
	struct oc_error *err = oc_cursor_need(c, n);

	if (!err)
		c->pos = oc_cursor_at(c, n);
	return err;
}

/* A pointer to the next @n bytes (in the buffer), then skip them. */
static inline struct oc_error *oc_cursor_bytes(struct oc_cursor *c,
					       uint64_t n,
					       const uint8_t **ret)
{
	struct oc_error *err = oc_cursor_need(c, n);

	if (!err) {
		*ret = c->pos;
		c->pos = oc_cursor_at(c, n);
	}
	return err;
}

/*
 * The next @n bytes as a cursor of their own (a length-prefixed unit):
 * same buffer, name and base, so its errors name offsets in the whole;
 * @c skips them.
 */
struct oc_error *oc_cursor_sub(struct oc_cursor *c, uint64_t n,
			       struct oc_cursor *ret);

/* Move to offset @off from start (a branch); @off may be the end. */
struct oc_error *oc_cursor_seek(struct oc_cursor *c, uint64_t off);

/* An unsigned integer of @n bytes, 1 <= n <= 8, in either byte order. */
static inline struct oc_error *oc_cursor_uint(struct oc_cursor *c, size_t n,
					      bool big_endian, uint64_t *ret)
{
	struct oc_error *err = oc_cursor_need(c, n);
	uint64_t v = 0;

	if (err)
		return err;
	/* the common widths at once (the DWARF's offsets and addresses) */
	if (n == 8 || n == 4) {
		uint32_t w;

		if (n == 8)
			memcpy(&v, c->pos, 8);
		else
			memcpy(&w, c->pos, 4);
		v = n == 8 ? (big_endian ? be64toh(v) : le64toh(v)) :
			     (big_endian ? be32toh(w) : le32toh(w));
	} else {
		for (size_t i = 0; i < n; i++)
			v = v << 8 | c->pos[big_endian ? i : n - 1 - i];
	}
	c->pos = oc_cursor_at(c, n);
	*ret = v;
	return NULL;
}

/* Little-endian (the x86-64 target), and big-endian (makedumpfile's
 * flattened headers). */
static inline struct oc_error *oc_cursor_le(struct oc_cursor *c, size_t n,
					    uint64_t *ret)
{
	return oc_cursor_uint(c, n, false, ret);
}

static inline struct oc_error *oc_cursor_be(struct oc_cursor *c, size_t n,
					    uint64_t *ret)
{
	return oc_cursor_uint(c, n, true, ret);
}

/* A signed little-endian integer of @n bytes, sign-extended. */
static inline struct oc_error *oc_cursor_sle(struct oc_cursor *c, size_t n,
					     int64_t *ret)
{
	uint64_t v;
	struct oc_error *err = oc_cursor_le(c, n, &v);

	if (err)
		return err;
	if (n && n < 8 && (v >> (8 * n - 1)) & 1)
		v |= ~(uint64_t)0 << (8 * n);
	*ret = (int64_t)v;
	return NULL;
}

/*
 * The next byte, for a loop over opcodes: false at the end, which is no
 * error there.  while (oc_cursor_next(&c, &op)) switch (op) ...
 */
static inline bool oc_cursor_next(struct oc_cursor *c, uint8_t *ret)
{
	if (c->pos == c->end)
		return false;
	c->prev = c->pos;
	*ret = *c->pos++;
	return true;
}

static inline struct oc_error *oc_cursor_u8(struct oc_cursor *c, uint8_t *ret)
{
	struct oc_error *err = oc_cursor_need(c, 1);

	if (!err)
		*ret = *c->pos++;
	return err;
}

#define OC_CURSOR_FIXED(name, type, n, fn)                                   \
	static inline struct oc_error *oc_cursor_##name(struct oc_cursor *c,  \
							type *ret)            \
	{                                                                     \
		uint64_t v;                                                   \
		struct oc_error *err = fn(c, n, &v);                          \
                                                                              \
		if (!err)                                                     \
			*ret = (type)v;                                       \
		return err;                                                   \
	}
OC_CURSOR_FIXED(le16, uint16_t, 2, oc_cursor_le)
OC_CURSOR_FIXED(le32, uint32_t, 4, oc_cursor_le)
OC_CURSOR_FIXED(le64, uint64_t, 8, oc_cursor_le)
OC_CURSOR_FIXED(be16, uint16_t, 2, oc_cursor_be)
OC_CURSOR_FIXED(be32, uint32_t, 4, oc_cursor_be)
OC_CURSOR_FIXED(be64, uint64_t, 8, oc_cursor_be)
#undef OC_CURSOR_FIXED

/*
 * Unsigned and signed LEB128 (DWARF 5 section 7.6), the signed one in
 * two's complement.  Numbers of one and two bytes, most of a line
 * program's, are read here; the rest, and every error, out of line.
 */
static inline struct oc_error *oc_cursor_leb128(struct oc_cursor *c,
						bool sign, uint64_t *ret)
{
	const uint8_t *p = c->pos;
	size_t left = (size_t)(c->end - p), n;
	uint64_t v;

	c->prev = p;
	if (left && !(p[0] & 0x80))
		n = 1;
	else if (left >= 2 && !(p[1] & 0x80))
		n = 2;
	else
		return sign ? oc_cursor_sleb128_slow(c, (int64_t *)ret) :
			      oc_cursor_uleb128_slow(c, ret);
	v = n == 1 ? p[0] : (uint64_t)(p[0] & 0x7f) | (uint64_t)p[1] << 7;
	/* the sign is the top bit of the last group */
	if (sign && (p[n - 1] & 0x40))
		v |= ~(uint64_t)0 << (7 * n);
	c->pos = p + n;
	*ret = v;
	return NULL;
}

static inline struct oc_error *oc_cursor_uleb128(struct oc_cursor *c,
						 uint64_t *ret)
{
	return oc_cursor_leb128(c, false, ret);
}

static inline struct oc_error *oc_cursor_sleb128(struct oc_cursor *c,
						 int64_t *ret)
{
	uint64_t v;
	struct oc_error *err = oc_cursor_leb128(c, true, &v);

	if (!err)
		*ret = (int64_t)v;
	return err;
}

/*
 * A NUL-terminated string that ends inside the buffer: *ret points at
 * it (in the buffer), *len_ret (may be NULL) is its length without the
 * NUL; the cursor moves past the NUL.
 */
struct oc_error *oc_cursor_string(struct oc_cursor *c, const char **ret,
				  size_t *len_ret);

#endif /* OC_FORMATS_CURSOR_H */
