// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * formats/lineprog.c on line-number programs assembled here byte by byte.
 */
#include "lineprog.h"
#include "test.h"

struct buf {
	uint8_t b[1024];
	size_t n;
	size_t len_at, hlen_at, prog_at;
	bool dwarf64;
};

static void put(struct buf *b, uint64_t v, size_t size)
{
	for (size_t i = 0; i < size; i++)
		b->b[b->n++] = v >> (8 * i);
}

static void uleb(struct buf *b, uint64_t v)
{
	do {
		uint8_t byte = v & 0x7f;

		v >>= 7;
		b->b[b->n++] = byte | (v ? 0x80 : 0);
	} while (v);
}

static void sleb(struct buf *b, int64_t v)
{
	bool more = true;

	while (more) {
		uint8_t byte = v & 0x7f;

		v >>= 7;
		more = !((v == 0 && !(byte & 0x40)) || (v == -1 && (byte & 0x40)));
		b->b[b->n++] = byte | (more ? 0x80 : 0);
	}
}

enum { BASE = 13, LBASE = -5, LRANGE = 14 };

/* Header up to the program; the file tables are junk we must skip. */
static void header(struct buf *b, unsigned ver, bool dwarf64,
		   uint8_t max_ops)
{
	static const uint8_t std_lens[BASE - 1] = { 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1 };
	size_t off = dwarf64 ? 8 : 4;

	memset(b, 0, sizeof(*b));
	b->dwarf64 = dwarf64;
	if (dwarf64)
		put(b, 0xffffffff, 4);
	b->len_at = b->n;
	put(b, 0, off);
	put(b, ver, 2);
	if (ver >= 5)
		put(b, 0x0008, 2);	/* address_size 8, no segments */
	b->hlen_at = b->n;
	put(b, 0, off);
	put(b, 1, 1);			/* minimum_instruction_length */
	if (ver >= 4)
		put(b, max_ops, 1);
	put(b, 1, 1);			/* default_is_stmt */
	put(b, (uint8_t)LBASE, 1);
	put(b, LRANGE, 1);
	put(b, BASE, 1);
	for (int i = 0; i < BASE - 1; i++)
		put(b, std_lens[i], 1);
	for (int i = 0; i < 7; i++)	/* "file tables" */
		put(b, 0xee, 1);
	b->prog_at = b->n;
}

static void finish(struct buf *b)
{
	size_t off = b->dwarf64 ? 8 : 4;
	uint64_t len = b->n - b->len_at - off;
	uint64_t hlen = b->prog_at - b->hlen_at - off;

	for (size_t i = 0; i < off; i++) {
		b->b[b->len_at + i] = len >> (8 * i);
		b->b[b->hlen_at + i] = hlen >> (8 * i);
	}
}

static void set_address(struct buf *b, uint64_t a)
{
	put(b, 0, 1);
	uleb(b, 9);
	put(b, 2, 1);
	put(b, a, 8);
}

static void end_sequence(struct buf *b)
{
	put(b, 0, 1);
	uleb(b, 1);
	put(b, 1, 1);
}

/* line_adv in [LBASE, LBASE + LRANGE - 1] */
static void special(struct buf *b, unsigned addr_adv, int line_adv)
{
	put(b, (line_adv - LBASE) + LRANGE * addr_adv + BASE, 1);
}

struct rows {
	struct { uint64_t addr, line, file; bool end; } v[64];
	size_t nr;
	size_t fail_at;		/* refuse (out of memory) at this row, 0: never */
};

static bool collect(void *arg, uint64_t addr, uint64_t line, uint64_t file,
		    bool end)
{
	struct rows *r = arg;

	if (r->fail_at && r->nr + 1 == r->fail_at)
		return false;
	if (r->nr < 64) {
		r->v[r->nr].addr = addr;
		r->v[r->nr].line = line;
		r->v[r->nr].file = file;
		r->v[r->nr].end = end;
	}
	r->nr++;
	return true;
}

#define CHECK_ROW(r, i, a, l, f, e)                                          \
	do {                                                                 \
		CHECK_EQ((r).v[i].addr, a);                                  \
		CHECK_EQ((r).v[i].line, l);                                  \
		CHECK_EQ((r).v[i].file, f);                                  \
		CHECK_EQ((r).v[i].end, e);                                   \
	} while (0)

/* Every opcode kind once, then a second sequence. */
static void program(struct buf *b)
{
	set_address(b, 0xffffffff81000000);
	put(b, 3, 1);			/* DW_LNS_advance_line +9 */
	sleb(b, 9);
	special(b, 0, 0);		/* row: +0, line 10, file 1 */
	special(b, 4, -2);		/* row: +4, line 8 */
	put(b, 3, 1);			/* DW_LNS_advance_line */
	sleb(b, -5);			/* line 3 */
	put(b, 4, 1);			/* DW_LNS_set_file 7 */
	uleb(b, 7);
	put(b, 2, 1);			/* DW_LNS_advance_pc 0x100 */
	uleb(b, 0x100);
	put(b, 5, 1);			/* DW_LNS_set_column: skipped */
	uleb(b, 300);
	put(b, 0, 1);			/* DW_LNE_set_discriminator: skipped */
	uleb(b, 2);
	put(b, 4, 1);
	put(b, 3, 1);
	put(b, 1, 1);			/* DW_LNS_copy: row +0x104 line 3 file 7 */
	put(b, 8, 1);			/* DW_LNS_const_add_pc: +17 */
	put(b, 9, 1);			/* DW_LNS_fixed_advance_pc +0x20 */
	put(b, 0x20, 2);
	put(b, 1, 1);			/* row +0x135 */
	put(b, 2, 1);
	uleb(b, 3);
	end_sequence(b);		/* end row +0x138 */
	set_address(b, 0xffffffff81002000);
	special(b, 1, 0);		/* fresh state: line 1, file 1 */
	end_sequence(b);
}

static void check_program(const struct rows *r)
{
	if (!CHECKED_EQ(r->nr, 7))
		return;
	CHECK_ROW(*r, 0, 0xffffffff81000000, 10, 1, false);
	CHECK_ROW(*r, 1, 0xffffffff81000004, 8, 1, false);
	CHECK_ROW(*r, 2, 0xffffffff81000104, 3, 7, false);
	CHECK_ROW(*r, 3, 0xffffffff81000135, 3, 7, false);
	CHECK_ROW(*r, 4, 0xffffffff81000138, 3, 7, true);
	CHECK_ROW(*r, 5, 0xffffffff81002001, 1, 1, false);
	CHECK_ROW(*r, 6, 0xffffffff81002001, 1, 1, true);
}

/* program()'s rows in a unit with this header */
static void unit(struct buf *b, unsigned ver, bool dwarf64, uint8_t max_ops)
{
	header(b, ver, dwarf64, max_ops);
	program(b);
	finish(b);
}

/* ... which decodes to check_program()'s rows */
static void check_unit(unsigned ver, bool dwarf64)
{
	struct buf b;
	struct rows r = { .nr = 0 };

	unit(&b, ver, dwarf64, 1);
	CHECK_OK(oc_lineprog_decode(b.b, b.n, collect, &r));
	check_program(&r);
}

TEST(lineprog_dwarf5)
{
	struct buf b;
	struct rows r = { .nr = 0 };

	unit(&b, 5, false, 1);
	/* a following unit in the section is not ours to read */
	put(&b, 0xdeadbeef, 4);
	CHECK_OK(oc_lineprog_decode(b.b, b.n, collect, &r));
	check_program(&r);
}

TEST(lineprog_dwarf4_64bit_and_v3)
{
	check_unit(4, true);
	check_unit(3, false);	/* no maximum_operations_per_instruction */
}

TEST(lineprog_refused)
{
	struct buf b;
	struct rows r = { .nr = 0 };
	struct oc_error *err;

	unit(&b, 4, false, 4);	/* VLIW */
	err = oc_lineprog_decode(b.b, b.n, collect, &r);
	CHECK(err && err->code == OC_ERR_FORMAT);
	oc_error_destroy(err);
	CHECK_EQ(r.nr, 0);

	unit(&b, 6, false, 1);	/* unknown version */
	err = oc_lineprog_decode(b.b, b.n, collect, &r);
	CHECK(err && err->code == OC_ERR_FORMAT);
	oc_error_destroy(err);

	/* out of memory at the third row */
	unit(&b, 5, false, 1);
	r.nr = 0;
	r.fail_at = 3;
	CHECK(oc_lineprog_decode(b.b, b.n, collect, &r) == &oc_enomem);
}

/*
 * A unit cut anywhere (its length field saying so, the buffer ending
 * there: make check-asan catches a read past it) is refused, unless the
 * cut falls right after the header or a sequence's end.
 */
TEST(lineprog_truncated)
{
	struct buf b;
	size_t first_end;

	unit(&b, 5, false, 1);
	/* the second sequence is 11 + 1 + 3 bytes */
	first_end = b.n - 15;
	for (size_t n = 0; n < b.n; n++) {
		struct rows r = { .nr = 0 };
		uint8_t *copy = malloc(n ? n : 1);
		struct oc_error *err;

		memcpy(copy, b.b, n);
		if (n >= 4 + 2)	/* unit_length = the rest of the cut */
			for (size_t i = 0; i < 4; i++)
				copy[i] = (n - 4) >> (8 * i);
		err = oc_lineprog_decode(copy, n, collect, &r);
		if (n == first_end) {
			CHECK(err == NULL);
			CHECK_EQ(r.nr, 5);
		} else if (n == b.prog_at) {
			/* an empty program: a CU without code */
			CHECK(err == NULL);
			CHECK_EQ(r.nr, 0);
		} else if (!err) {
			FAIL_AT("cut at %zu of %zu bytes: decoded", n, b.n);
		}
		oc_error_destroy(err);
		free(copy);
	}
}
