// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * formats/cursor.c, the one reader of hostile bytes: every read cut
 * short at every byte, LEB128 at the limits of 64 bits and past them,
 * overlong (padded) encodings, and errors that name the offset.
 */
#include "cursor.h"
#include "test.h"

static size_t uleb(uint8_t *out, uint64_t v)
{
	size_t n = 0;

	do {
		uint8_t byte = v & 0x7f;

		v >>= 7;
		out[n++] = byte | (v ? 0x80 : 0);
	} while (v);
	return n;
}

static size_t sleb(uint8_t *out, int64_t v)
{
	size_t n = 0;
	bool more = true;

	while (more) {
		uint8_t byte = v & 0x7f;

		v >>= 7;	/* arithmetic on gcc and clang */
		more = !((v == 0 && !(byte & 0x40)) ||
			 (v == -1 && (byte & 0x40)));
		out[n++] = byte | (more ? 0x80 : 0);
	}
	return n;
}

/* An error whose message contains @what; destroys it. */
static int is_error(struct oc_error *err, const char *what)
{
	int ok = err && err->code == OC_ERR_FORMAT &&
		 strstr(err->message, what) != NULL;

	if (err && !ok)
		printf("  unexpected error: %s\n", err->message);
	oc_error_destroy(err);
	return ok;
}

static const uint64_t u_limits[] = {
	0, 1, 0x3f, 0x40, 0x7f, 0x80, 0x3fff, 0x4000, 0xffffffff,
	0x100000000ull, 0x7fffffffffffffffull, 0x8000000000000000ull,
	0xfffffffffffffffeull, 0xffffffffffffffffull,
};

static const int64_t s_limits[] = {
	0, 1, -1, 63, 64, -64, -65, 0x1fff, -0x2000, INT32_MAX, INT32_MIN,
	INT64_MAX, INT64_MIN, INT64_MAX - 1, INT64_MIN + 1,
};

/* @b (@n bytes) reads whole as @want, and every cut of it is an error
 * that consumes nothing. */
static void check_leb(const uint8_t *b, size_t n, bool sign, uint64_t want)
{
	for (size_t cut = 0; cut <= n; cut++) {
		struct oc_cursor c;
		struct oc_error *err;
		uint64_t u = 1234;
		int64_t s = 1234;

		oc_cursor_init(&c, b, cut, "t");
		err = sign ? oc_cursor_sleb128(&c, &s) : oc_cursor_uleb128(&c, &u);
		if (sign)
			u = (uint64_t)s;
		if (cut < n) {
			CHECK(is_error(err, sign ? "t+0x0: truncated SLEB128" :
					     "t+0x0: truncated ULEB128"));
			CHECK_EQ(oc_cursor_offset(&c), 0);
		} else {
			CHECK_OK(err);
			CHECK_EQ(u, want);
			CHECK_EQ(oc_cursor_left(&c), 0);
		}
	}
}

TEST(cursor_leb128_limits)
{
	uint8_t b[16];

	for (size_t i = 0; i < sizeof(u_limits) / sizeof(u_limits[0]); i++)
		check_leb(b, uleb(b, u_limits[i]), false, u_limits[i]);
	for (size_t i = 0; i < sizeof(s_limits) / sizeof(s_limits[0]); i++)
		check_leb(b, sleb(b, s_limits[i]), true, (uint64_t)s_limits[i]);
	/* 10 bytes is the longest a 64-bit value needs */
	CHECK_EQ(uleb(b, UINT64_MAX), 10);
	CHECK_EQ(b[9], 0x01);
	CHECK_EQ(sleb(b, INT64_MIN), 10);
	CHECK_EQ(b[9], 0x7f);
}

TEST(cursor_leb128_overlong)
{
	struct oc_cursor c;
	uint64_t u = 1;
	int64_t s = 1;

	/* zero padded to 20 bytes: valid, 0 */
	{
		uint8_t b[20];

		memset(b, 0x80, sizeof(b));
		b[19] = 0;
		oc_cursor_init(&c, b, sizeof(b), "t");
		CHECK_OK(oc_cursor_uleb128(&c, &u));
		CHECK_EQ(u, 0);
		CHECK_EQ(oc_cursor_left(&c), 0);
		oc_cursor_init(&c, b, sizeof(b), "t");
		CHECK_OK(oc_cursor_sleb128(&c, &s));
		CHECK_EQ(s, 0);
	}
	/* UINT64_MAX padded with a zero group: bits past 64 are zero */
	{
		uint8_t b[] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
				0xff, 0xff, 0x81, 0x00 };

		oc_cursor_init(&c, b, sizeof(b), "t");
		CHECK_OK(oc_cursor_uleb128(&c, &u));
		CHECK_EQ(u, UINT64_MAX);
	}
	/* -1 padded with 0x7f groups, INT64_MIN exactly */
	{
		uint8_t m1[] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
				 0xff, 0xff, 0xff, 0xff, 0x7f };
		uint8_t min[] = { 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
				  0x80, 0x80, 0x7f };

		oc_cursor_init(&c, m1, sizeof(m1), "t");
		CHECK_OK(oc_cursor_sleb128(&c, &s));
		CHECK_EQ(s, -1);
		oc_cursor_init(&c, min, sizeof(min), "t");
		CHECK_OK(oc_cursor_sleb128(&c, &s));
		CHECK_EQ(s, INT64_MIN);
	}
	/* a bit past the 64th: overflow, at the number's first byte */
	{
		uint8_t b[] = { 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
				0xff, 0xff, 0xff, 0x03 };
		uint8_t far[] = { 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
				  0x80, 0x80, 0x80, 0x80, 0x01 };

		oc_cursor_init(&c, b, sizeof(b), "t");
		c.base = 0x100;
		CHECK_OK(oc_cursor_skip(&c, 1));
		CHECK(is_error(oc_cursor_uleb128(&c, &u),
			       "t+0x101: ULEB128 overflows 64 bits"));
		CHECK_EQ(oc_cursor_offset(&c), 1);
		oc_cursor_init(&c, far, sizeof(far), "t");
		CHECK(is_error(oc_cursor_uleb128(&c, &u), "overflows"));
		/* 2^63 is not an int64_t; nor is a positive number whose
		 * padding says negative */
		{
			uint8_t p63[] = { 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
					  0x80, 0x80, 0x80, 0x01 };
			uint8_t mix[] = { 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
					  0x80, 0x80, 0x80, 0x80, 0x7f };

			oc_cursor_init(&c, p63, sizeof(p63), "t");
			CHECK(is_error(oc_cursor_sleb128(&c, &s),
				       "SLEB128 overflows 64 bits"));
			oc_cursor_init(&c, mix, sizeof(mix), "t");
			CHECK(is_error(oc_cursor_sleb128(&c, &s), "overflows"));
		}
	}
	/* a long run of continuation bytes: no shift wraps, no hang */
	{
		static uint8_t big[1 << 16];

		memset(big, 0x80, sizeof(big));
		oc_cursor_init(&c, big, sizeof(big), "t");
		CHECK(is_error(oc_cursor_uleb128(&c, &u), "truncated"));
		oc_cursor_init(&c, big, sizeof(big), "t");
		CHECK(is_error(oc_cursor_sleb128(&c, &s), "truncated"));
	}
}

/* A record of every fixed-size kind, read whole and cut at every byte. */
static struct oc_error *read_record(struct oc_cursor *c, uint64_t *sum)
{
	uint8_t u8;
	uint16_t a;
	uint32_t b;
	uint64_t d, e, f;
	int64_t g;
	const char *str;
	size_t len;
	struct oc_error *err;

	if ((err = oc_cursor_u8(c, &u8)) || (err = oc_cursor_le16(c, &a)) ||
	    (err = oc_cursor_le32(c, &b)) || (err = oc_cursor_le64(c, &d)) ||
	    (err = oc_cursor_be32(c, &b)) || (err = oc_cursor_be64(c, &e)) ||
	    (err = oc_cursor_le(c, 3, &f)) || (err = oc_cursor_sle(c, 3, &g)) ||
	    (err = oc_cursor_string(c, &str, &len)))
		return err;
	*sum = u8 + a + b + d + e + f + (uint64_t)g + len;
	return NULL;
}

TEST(cursor_fixed_and_truncation)
{
	static const uint8_t rec[] = {
		0x11,				/* u8 */
		0x34, 0x12,			/* le16 0x1234 */
		0x78, 0x56, 0x34, 0x12,		/* le32 */
		8, 7, 6, 5, 4, 3, 2, 1,		/* le64 0x0102030405060708 */
		0x12, 0x34, 0x56, 0x78,		/* be32 0x12345678 */
		1, 2, 3, 4, 5, 6, 7, 8,		/* be64 0x0102030405060708 */
		0x01, 0x02, 0x03,		/* le 3 bytes 0x030201 */
		0xfe, 0xff, 0xff,		/* sle 3 bytes: -2 */
		'a', 'b', 'c', 0,		/* string */
	};
	struct oc_cursor c;
	uint64_t sum = 0, v = 0;
	uint16_t h = 0;
	uint32_t w = 0;
	int64_t s = 0;

	oc_cursor_init(&c, rec, sizeof(rec), "rec");
	CHECK_OK(read_record(&c, &sum));
	CHECK_EQ(oc_cursor_left(&c), 0);
	CHECK_EQ(sum, 0x11 + 0x1234 + 0x12345678 + 0x0102030405060708ull +
		      0x0102030405060708ull + 0x030201 - 2 + 3);
	/* each value on its own */
	oc_cursor_init(&c, rec + 1, 2, "rec");
	CHECK_OK(oc_cursor_le16(&c, &h));
	CHECK_EQ(h, 0x1234);
	oc_cursor_init(&c, rec + 15, 4, "rec");
	CHECK_OK(oc_cursor_be32(&c, &w));
	CHECK_EQ(w, 0x12345678);
	oc_cursor_init(&c, rec + 19, 8, "rec");
	CHECK_OK(oc_cursor_be64(&c, &v));
	CHECK_EQ(v, 0x0102030405060708ull);
	oc_cursor_init(&c, rec + 30, 3, "rec");
	CHECK_OK(oc_cursor_sle(&c, 3, &s));
	CHECK_EQ(s, -2);
	oc_cursor_init(&c, rec + 7, 8, "rec");
	CHECK_OK(oc_cursor_sle(&c, 8, &s));
	CHECK_EQ(s, 0x0102030405060708ll);
	oc_cursor_init(&c, rec + 27, 1, "rec");
	CHECK_OK(oc_cursor_sle(&c, 1, &s));
	CHECK_EQ(s, 1);
	/* every cut: an error that names a position inside the record */
	for (size_t cut = 0; cut < sizeof(rec); cut++) {
		struct oc_error *err;

		oc_cursor_init(&c, rec, cut, "rec");
		err = read_record(&c, &sum);
		CHECK(err != NULL);
		if (err) {
			CHECK(!strncmp(err->message, "rec+0x", 6));
			CHECK(strstr(err->message, "truncated") ||
			      strstr(err->message, "unterminated string"));
		}
		oc_error_destroy(err);
		CHECK(oc_cursor_offset(&c) <= cut);
	}
}

TEST(cursor_skip_sub_seek)
{
	static const uint8_t b[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct oc_cursor c, sub;
	const uint8_t *p = b;
	uint8_t x = 0;
	uint32_t w = 0;

	oc_cursor_init(&c, b, sizeof(b), "buf");
	c.base = 0x1000;
	CHECK_OK(oc_cursor_skip(&c, 2));
	CHECK_OK(oc_cursor_sub(&c, 3, &sub));
	CHECK_EQ(oc_cursor_offset(&c), 5);
	CHECK_EQ(oc_cursor_left(&sub), 3);
	CHECK_OK(oc_cursor_u8(&sub, &x));
	CHECK_EQ(x, 3);
	/* the sub-cursor ends where its unit ends, and says where */
	CHECK(is_error(oc_cursor_le32(&sub, &w),
		       "buf+0x1003: truncated (4 bytes wanted, 2 left)"));
	CHECK_OK(oc_cursor_bytes(&sub, 2, &p));
	CHECK_EQ(p[0], 4);
	CHECK_EQ(oc_cursor_left(&sub), 0);
	CHECK(is_error(oc_cursor_u8(&sub, &x), "truncated"));
	/* more than is left, and sizes that would wrap a pointer */
	CHECK(is_error(oc_cursor_sub(&c, 4, &sub), "truncated"));
	CHECK(is_error(oc_cursor_skip(&c, UINT64_MAX), "truncated"));
	CHECK(is_error(oc_cursor_bytes(&c, UINT64_MAX - 2, &p), "truncated"));
	CHECK_EQ(oc_cursor_offset(&c), 5);
	CHECK_OK(oc_cursor_skip(&c, 3));
	CHECK_EQ(oc_cursor_left(&c), 0);
	CHECK_OK(oc_cursor_skip(&c, 0));
	/* seek: anywhere up to the end, not past it */
	CHECK_OK(oc_cursor_seek(&c, 1));
	CHECK_OK(oc_cursor_u8(&c, &x));
	CHECK_EQ(x, 2);
	CHECK_OK(oc_cursor_seek(&c, sizeof(b)));
	CHECK(is_error(oc_cursor_seek(&c, sizeof(b) + 1), "past the end"));
	CHECK(is_error(oc_cursor_seek(&c, UINT64_MAX), "past the end"));
	/* a custom error at the last read's start */
	CHECK_OK(oc_cursor_seek(&c, 6));
	CHECK_OK(oc_cursor_u8(&c, &x));
	CHECK(is_error(oc_cursor_error(&c, "bad value %u", x),
		       "buf+0x1006: bad value 7"));
}

TEST(cursor_strings_and_empty)
{
	static const char s[] = "one\0two\0unterminated";
	struct oc_cursor c;
	const char *str;
	size_t len;
	uint64_t v;

	oc_cursor_init(&c, s, sizeof(s) - 1, "strs");
	CHECK_OK(oc_cursor_string(&c, &str, &len));
	CHECK_STR(str, "one");
	CHECK_EQ(len, 3);
	CHECK_OK(oc_cursor_string(&c, &str, NULL));
	CHECK_STR(str, "two");
	CHECK(is_error(oc_cursor_string(&c, &str, &len),
		       "strs+0x8: unterminated string"));
	CHECK_EQ(oc_cursor_offset(&c), 8);
	/* a loop over bytes ends without an error */
	{
		static const uint8_t ops[] = { 1, 2, 3 };
		unsigned sum = 0, n = 0;
		uint8_t op;

		oc_cursor_init(&c, ops, sizeof(ops), "ops");
		while (oc_cursor_next(&c, &op)) {
			sum += op;
			n++;
		}
		CHECK_EQ(n, 3);
		CHECK_EQ(sum, 6);
		CHECK_EQ(c.prev - ops, 2);	/* errors would name the last */
	}
	/* the empty buffer, even a NULL one */
	oc_cursor_init(&c, NULL, 0, NULL);
	CHECK_EQ(oc_cursor_left(&c), 0);
	CHECK(is_error(oc_cursor_uleb128(&c, &v), "data+0x0: truncated"));
	CHECK(is_error(oc_cursor_string(&c, &str, &len), "unterminated"));
	CHECK(is_error(oc_cursor_le64(&c, &v), "truncated"));
	CHECK_OK(oc_cursor_skip(&c, 0));
	CHECK(!oc_cursor_next(&c, (uint8_t *)&v));
}
