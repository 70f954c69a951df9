// SPDX-License-Identifier: GPL-2.0-or-later
/* makedumpfile's flattened format on synthetic streams built here. */
#include <endian.h>
#include <sys/mman.h>
#include <unistd.h>

#include "flat.h"
#include "test.h"

struct stream {
	unsigned char buf[16384];
	size_t len;
};

static struct oc_error *stream_read(void *arg, uint64_t offset, void *buf,
				    size_t len)
{
	struct stream *s = arg;

	if (offset > s->len || len > s->len - offset)
		return oc_error_format(OC_ERR_FORMAT, "read past end");
	memcpy(buf, s->buf + offset, len);
	return NULL;
}

static void put_be64(struct stream *s, int64_t v)
{
	uint64_t be = htobe64((uint64_t)v);

	memcpy(s->buf + s->len, &be, 8);
	s->len += 8;
}

static void put_record(struct stream *s, int64_t offset, const void *data,
		       int64_t size)
{
	put_be64(s, offset);
	put_be64(s, size);
	memcpy(s->buf + s->len, data, size);
	s->len += size;
}

static void put_header(struct stream *s)
{
	memset(s, 0, sizeof(*s));
	memcpy(s->buf, "makedumpfile", 12);
	s->len = 16;
	put_be64(s, 1);
	put_be64(s, 1);
	s->len = 4096;
}

/* The end marker: offset and size -1 (makedumpfile's END_FLAG_FLAT_HEADER) */
static void put_end(struct stream *s)
{
	put_be64(s, -1);
	put_be64(s, -1);
}

/* oc_flat_index() over the first @len bytes of @s must fail with @code
 * and, unless NULL, a message with @what in it */
static void expect_error(struct stream *s, uint64_t len,
			 enum oc_error_code code, const char *what)
{
	struct oc_flat_index index;
	struct oc_error *err = oc_flat_index(stream_read, s, len, &index);

	CHECK(err && err->code == code &&
	      (!what || strstr(err->message, what)));
	oc_error_destroy(err);
}

/* Three records (the third overwrites part of the first), a hole, end. */
static void build(struct stream *s, unsigned char *expect, size_t *expect_len)
{
	static const char a[] = "KDUMP   first record";
	static const char b[] = "far away";
	static const char c[] = "XY";

	put_header(s);
	put_record(s, 0, a, sizeof(a));
	put_record(s, 8192, b, sizeof(b));
	put_record(s, 0, "", 0);	/* empty records are legal */
	put_record(s, 3, c, 2);
	put_end(s);
	memset(expect, 0, 8192 + sizeof(b));
	memcpy(expect, a, sizeof(a));
	memcpy(expect + 8192, b, sizeof(b));
	memcpy(expect + 3, c, 2);
	*expect_len = 8192 + sizeof(b);
}

TEST(flat_detect)
{
	struct stream s;

	put_header(&s);
	CHECK(oc_flat_detect(s.buf, s.len));
	CHECK(!oc_flat_detect(s.buf, 8));
	CHECK(!oc_flat_detect("KDUMP   \0\0\0\0\0\0\0\0", 16));
	CHECK(!oc_flat_detect("\177ELF\2\1\1\0\0\0\0\0\0\0\0\0", 16));
}

TEST(flat_index_and_reassemble)
{
	static struct stream s;
	static unsigned char expect[16384], got[16384];
	size_t expect_len;
	struct oc_flat_index index;
	int src, dst;

	build(&s, expect, &expect_len);
	CHECK_OK(oc_flat_index(stream_read, &s, s.len, &index));
	CHECK_EQ(index.nr, 3);
	CHECK_EQ(index.out_size, expect_len);
	CHECK_EQ(index.records[0].src, 4096 + 16);
	CHECK_EQ(index.records[1].dst, 8192);

	src = memfd_create("flat-src", 0);
	dst = memfd_create("flat-dst", 0);
	CHECK(src >= 0 && dst >= 0);
	CHECK_EQ(write(src, s.buf, s.len), s.len);
	/* leftover bytes in the destination must not survive */
	CHECK_EQ(write(dst, "junkjunkjunk", 12), 12);
	CHECK_OK(oc_flat_reassemble(src, &index, dst));
	CHECK_EQ(lseek(dst, 0, SEEK_END), expect_len);
	CHECK_EQ(pread(dst, got, sizeof(got), 0), expect_len);
	CHECK(!memcmp(got, expect, expect_len));
	/* the fd reader agrees with the buffer reader */
	oc_flat_index_deinit(&index);
	CHECK_OK(oc_flat_index(oc_flat_read_fd, &src, s.len, &index));
	CHECK_EQ(index.nr, 3);
	oc_flat_index_deinit(&index);
	close(src);
	close(dst);
}

TEST(flat_every_truncation_is_an_error)
{
	static struct stream s;
	static unsigned char expect[16384];
	size_t expect_len, full;
	struct oc_flat_index index;
	unsigned int errors = 0;

	build(&s, expect, &expect_len);
	full = s.len;
	for (size_t len = 0; len < full; len++) {
		struct oc_error *err = oc_flat_index(stream_read, &s, len,
						     &index);

		if (err && err->code == OC_ERR_FORMAT)
			errors++;
		else if (!err)
			oc_flat_index_deinit(&index);
		oc_error_destroy(err);
	}
	CHECK_EQ(errors, full);
	/* and the reason is spelled out */
	{
		struct oc_error *err = oc_flat_index(stream_read, &s, full - 16,
						     &index);

		CHECK(err && strstr(err->message, "no end marker"));
		oc_error_destroy(err);
		err = oc_flat_index(stream_read, &s, 100, &index);
		CHECK(err && strstr(err->message, "truncated flattened header"));
		oc_error_destroy(err);
		err = oc_flat_index(stream_read, &s, 4096 + 20, &index);
		CHECK(err && strstr(err->message, "truncated flattened record"));
		oc_error_destroy(err);
	}
}

TEST(flat_garbage)
{
	static struct stream s;
	struct oc_flat_index index;
	struct oc_error *err;

	/* negative offset */
	put_header(&s);
	put_record(&s, -5, "abc", 3);
	put_end(&s);
	expect_error(&s, s.len, OC_ERR_FORMAT, "bad flattened record");

	/* a size that would wrap the output offset */
	put_header(&s);
	put_be64(&s, INT64_MAX);
	put_be64(&s, INT64_MAX);
	expect_error(&s, s.len, OC_ERR_FORMAT, NULL);

	/* an offset past any real dump (64 TiB) */
	put_header(&s);
	put_record(&s, 1LL << 50, "abc", 3);
	put_end(&s);
	expect_error(&s, s.len, OC_ERR_FORMAT, "bad flattened record");

	/* a huge size with little data left */
	put_header(&s);
	put_be64(&s, 0);
	put_be64(&s, 1LL << 40);
	expect_error(&s, s.len + 100, OC_ERR_FORMAT, NULL);

	/* only an end marker */
	put_header(&s);
	put_end(&s);
	err = oc_flat_index(stream_read, &s, s.len, &index);
	CHECK(err && strstr(err->message, "empty"));
	oc_error_destroy(err);

	/* wrong type/version */
	put_header(&s);
	s.buf[23] = 2;
	put_be64(&s, -1);
	err = oc_flat_index(stream_read, &s, 8192, &index);
	CHECK(err && err->code == OC_ERR_UNSUPPORTED);
	oc_error_destroy(err);

	/* no signature */
	memset(&s, 0xa5, sizeof(s));
	err = oc_flat_index(stream_read, &s, sizeof(s.buf), &index);
	CHECK(err && strstr(err->message, "not a flattened dump"));
	oc_error_destroy(err);
}

/* A random number from a fixed sequence (xorshift64). */
static uint64_t next_rand(uint64_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

static void fd_put_be64(int fd, int64_t v)
{
	uint64_t be = htobe64((uint64_t)v);

	CHECK_EQ(write(fd, &be, 8), 8);
}

/*
 * Reassembly by windows and runs (formats/flat.c) against writing each
 * record at its offset in turn: a long stream of small records, most
 * following the last in the output, some jumping back over earlier ones
 * (a later record wins), some forward, a few bigger than the 1 MB window.
 */
TEST(flat_reassemble_matches_record_by_record)
{
	enum { OUT_MAX = 24 << 20, NR = 3000 };
	unsigned char *expect = calloc(1, OUT_MAX), *got = malloc(OUT_MAX);
	unsigned char *data = malloc(3 << 20);
	uint64_t state = 0x9e3779b97f4a7c15ull, dst = 0, out_size = 0;
	struct oc_flat_index index;
	unsigned char head[4096] = "makedumpfile";
	int src = memfd_create("flat-src", 0), dst_fd = memfd_create("flat-dst", 0);
	size_t runs = 0, big = 0, back = 0;

	CHECK(expect && got && data && src >= 0 && dst_fd >= 0);
	for (size_t i = 0; i < 3 << 20; i++)
		data[i] = (unsigned char)next_rand(&state);
	CHECK_EQ(write(src, head, 16), 16);
	fd_put_be64(src, 1);
	fd_put_be64(src, 1);
	CHECK_EQ(pwrite(src, head + 32, 4096 - 32, 32), 4096 - 32);
	CHECK_EQ(lseek(src, 4096, SEEK_SET), 4096);
	for (int i = 0; i < NR; i++) {
		uint64_t r = next_rand(&state), size, from;

		size = r % 97 == 0 ? (1 << 20) + r % (2 << 20) : 1 + r % 20000;
		big += size > (1 << 20);
		if (r % 13 == 0) {		/* back over earlier records */
			dst = dst > 100000 ? dst - r % 100000 : 0;
			back++;
		} else if (r % 11 == 0) {	/* a hole */
			dst += r % 50000;
		}
		runs += r % 13 == 0 || r % 11 == 0;
		if (dst + size > OUT_MAX)
			dst = r % (OUT_MAX / 2);
		from = next_rand(&state) % ((3 << 20) - size);
		fd_put_be64(src, (int64_t)dst);
		fd_put_be64(src, (int64_t)size);
		CHECK_EQ(write(src, data + from, size), (ssize_t)size);
		memcpy(expect + dst, data + from, size);
		dst += size;
		if (dst > out_size)
			out_size = dst;
	}
	fd_put_be64(src, -1);
	fd_put_be64(src, -1);
	CHECK(big > 10 && back > 100 && runs > 300);

	CHECK_OK(oc_flat_index(oc_flat_read_fd, &src, (uint64_t)lseek(src, 0, SEEK_END),
			       &index));
	CHECK_EQ(index.nr, NR);
	CHECK_EQ(index.out_size, out_size);
	CHECK_OK(oc_flat_reassemble(src, &index, dst_fd));
	CHECK_EQ(lseek(dst_fd, 0, SEEK_END), (off_t)out_size);
	CHECK_EQ(pread(dst_fd, got, out_size, 0), (ssize_t)out_size);
	CHECK(!memcmp(got, expect, out_size));
	oc_flat_index_deinit(&index);
	close(src);
	close(dst_fd);
	free(expect);
	free(got);
	free(data);
}
