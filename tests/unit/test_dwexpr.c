// SPDX-License-Identifier: GPL-2.0-or-later
/* The DWARF expression evaluator (src/dwexpr.c) on hand-made expressions. */
#include "test.h"

#include "dwexpr.h"
#include "error.h"
#include "mem.h"

/* target memory: a "stack" page at 0x1000 and a "global" at 0x9000 */
static uint8_t stack_page[4096];
static uint8_t global[64];
static const struct oc_mem_region regions[] = {
	{ 0x1000, sizeof(stack_page), stack_page },
	{ 0x9000, sizeof(global), global },
};
static struct oc_mem_buffers bufs = { regions, 2 };
static struct oc_mem mem;

static const uint8_t fb_cfa[] = { 0x9c };	/* DW_OP_call_frame_cfa */

static void ctx_init(struct oc_dwexpr_ctx *c)
{
	memset(c, 0, sizeof(*c));
	oc_mem_buffers_init(&mem, &bufs);
	c->mem = &mem;
	for (unsigned i = 0; i < OC_DWREG_NR; i++)
		c->regs[i] = 0x100 * (i + 1);
	c->regs[OC_DWREG_RSP] = 0x1800;
	c->regs[OC_DWREG_RBP] = 0x1900;
	c->known = 1u << OC_DWREG_RSP | 1u << OC_DWREG_RBP |
		   1u << OC_DWREG_RBX;
	c->cfa_known = true;
	c->cfa = 0x1a00;
	c->frame_base = fb_cfa;
	c->frame_base_len = sizeof(fb_cfa);
	for (size_t i = 0; i < sizeof(stack_page); i++)
		stack_page[i] = (uint8_t)i;
	for (size_t i = 0; i < sizeof(global); i++)
		global[i] = 0xa0 + (uint8_t)i;
}

static uint64_t value_of(const struct oc_dwexpr_result *r)
{
	uint64_t v = 0;

	memcpy(&v, r->bytes, r->nr_bytes < 8 ? r->nr_bytes : 8);
	return v;
}

#define EVAL(ctx, res, ...)                                                 \
	do {                                                                \
		static const uint8_t _x[] = { __VA_ARGS__ };                \
		oc_dwexpr_eval(ctx, _x, sizeof(_x), res);                   \
	} while (0)

/* a computed value: expr ... DW_OP_stack_value */
static uint64_t computed(const uint8_t *x, size_t n, int *status)
{
	struct oc_dwexpr_ctx c;
	struct oc_dwexpr_result r;
	uint8_t buf[64];

	ctx_init(&c);
	memcpy(buf, x, n);
	buf[n] = 0x9f;
	oc_dwexpr_eval(&c, buf, n + 1, &r);
	*status = r.status;
	return value_of(&r);
}

#define COMPUTES(expect, ...)                                               \
	do {                                                                \
		static const uint8_t _x[] = { __VA_ARGS__ };                \
		int _st;                                                    \
		uint64_t _v = computed(_x, sizeof(_x), &_st);               \
		CHECK_EQ(_st, OC_DWEXPR_OK);                                \
		CHECK_EQ(_v, (uint64_t)(expect));                           \
	} while (0)

/* expr ... DW_OP_stack_value is malformed: no value */
#define COMPUTES_BAD(...)                                                   \
	do {                                                                \
		static const uint8_t _x[] = { __VA_ARGS__ };                \
		int _st;                                                    \
		computed(_x, sizeof(_x), &_st);                             \
		CHECK_EQ(_st, OC_DWEXPR_BAD);                               \
	} while (0)

TEST(dwexpr_registers)
{
	struct oc_dwexpr_ctx c;
	struct oc_dwexpr_result r;

	ctx_init(&c);
	EVAL(&c, &r, 0x53);		/* DW_OP_reg3 (rbx) */
	CHECK_EQ(r.status, OC_DWEXPR_OK);
	CHECK_EQ(r.loc, OC_DWLOC_VALUE);
	CHECK_EQ(value_of(&r), 0x400);
	CHECK_STR(r.where, "%rbx");

	EVAL(&c, &r, 0x5c);		/* DW_OP_reg12: not known */
	CHECK_EQ(r.status, OC_DWEXPR_UNAVAILABLE);
	CHECK_STR(r.why, "in %r12, not recovered");
	CHECK_STR(r.where, "%r12");

	EVAL(&c, &r, 0x90, 0x06);	/* DW_OP_regx 6 (rbp) */
	CHECK_EQ(r.status, OC_DWEXPR_OK);
	CHECK_EQ(value_of(&r), 0x1900);

	EVAL(&c, &r, 0x90, 0x11);	/* DW_OP_regx 17: xmm0 */
	CHECK_EQ(r.status, OC_DWEXPR_UNAVAILABLE);
	CHECK_STR(r.why, "in %xmm0, not recovered");

	EVAL(&c, &r, 0x77, 0x08);	/* DW_OP_breg7 8: memory at rsp+8 */
	CHECK_EQ(r.status, OC_DWEXPR_OK);
	CHECK_EQ(r.loc, OC_DWLOC_MEMORY);
	CHECK_EQ(r.addr, 0x1808);
	CHECK_STR(r.where, "[%rsp+0x8]");

	EVAL(&c, &r, 0x76, 0x78);	/* DW_OP_breg6 -8 */
	CHECK_EQ(r.addr, 0x18f8);
	CHECK_STR(r.where, "[%rbp-0x8]");

	EVAL(&c, &r, 0x92, 0x03, 0x10);	/* DW_OP_bregx 3 16 */
	CHECK_EQ(r.addr, 0x410);

	EVAL(&c, &r, 0x70, 0x00);	/* DW_OP_breg0: rax unknown */
	CHECK_EQ(r.status, OC_DWEXPR_UNAVAILABLE);
	CHECK_STR(r.why, "needs %rax, not recovered");

	/* the instruction pointer register */
	c.known |= 1u << OC_DWREG_RIP;
	EVAL(&c, &r, 0x90, 0x10);
	CHECK_EQ(r.status, OC_DWEXPR_OK);
	CHECK_EQ(value_of(&r), 0x1100);
	CHECK_STR(r.where, "%rip");
}

TEST(dwexpr_frame_base_and_cfa)
{
	struct oc_dwexpr_ctx c;
	struct oc_dwexpr_result r;
	static const uint8_t fb_breg[] = { 0x77, 0x10 };	/* rsp+16 */
	static const uint8_t fb_reg[] = { 0x56 };		/* rbp */
	static const uint8_t fb_fbreg[] = { 0x91, 0x00 };
	static const uint8_t fb_entry[] = { 0xa3, 0x01, 0x55 };

	ctx_init(&c);
	EVAL(&c, &r, 0x91, 0x50);	/* DW_OP_fbreg -48 */
	CHECK_EQ(r.status, OC_DWEXPR_OK);
	CHECK_EQ(r.loc, OC_DWLOC_MEMORY);
	CHECK_EQ(r.addr, 0x1a00 - 48);
	CHECK_STR(r.where, "[CFA-0x30]");

	EVAL(&c, &r, 0x9c);		/* DW_OP_call_frame_cfa */
	CHECK_EQ(r.addr, 0x1a00);
	CHECK_STR(r.where, "[CFA]");

	EVAL(&c, &r, 0x9c, 0x23, 0x08);	/* cfa + 8 */
	CHECK_STR(r.where, "[CFA+0x8]");

	EVAL(&c, &r, 0x9c, 0x38, 0x1c);	/* cfa - 8 (lit8, minus) */
	CHECK_EQ(r.addr, 0x19f8);
	CHECK_STR(r.where, "[CFA-0x8]");

	c.frame_base = fb_breg;
	c.frame_base_len = sizeof(fb_breg);
	EVAL(&c, &r, 0x91, 0x08);
	CHECK_EQ(r.addr, 0x1818);
	CHECK_STR(r.where, "[%rsp+0x18]");

	c.frame_base = fb_reg;
	c.frame_base_len = sizeof(fb_reg);
	EVAL(&c, &r, 0x91, 0x08);
	CHECK_EQ(r.status, OC_DWEXPR_OK);
	CHECK_EQ(r.addr, 0x1908);

	c.frame_base = fb_fbreg;	/* recursion refused */
	c.frame_base_len = sizeof(fb_fbreg);
	EVAL(&c, &r, 0x91, 0x08);
	CHECK_EQ(r.status, OC_DWEXPR_BAD);

	c.frame_base = fb_entry;
	c.frame_base_len = sizeof(fb_entry);
	EVAL(&c, &r, 0x91, 0x08);
	CHECK_EQ(r.status, OC_DWEXPR_UNAVAILABLE);
	CHECK(strstr(r.why, "frame base: entry value") != NULL);

	c.frame_base = NULL;
	c.frame_base_len = 0;
	EVAL(&c, &r, 0x91, 0x08);
	CHECK_EQ(r.status, OC_DWEXPR_UNAVAILABLE);

	ctx_init(&c);
	c.cfa_known = false;
	EVAL(&c, &r, 0x91, 0x50);
	CHECK_EQ(r.status, OC_DWEXPR_UNAVAILABLE);
	CHECK_STR(r.why, "frame base: CFA unknown");
	EVAL(&c, &r, 0x9c);
	CHECK_STR(r.why, "CFA unknown");
}

TEST(dwexpr_addr_and_deref)
{
	struct oc_dwexpr_ctx c;
	struct oc_dwexpr_result r;

	ctx_init(&c);
	c.addr_offset = 0x8000;
	/* DW_OP_addr 0x1000 (+ KASLR 0x8000) */
	EVAL(&c, &r, 0x03, 0x00, 0x10, 0, 0, 0, 0, 0, 0);
	CHECK_EQ(r.status, OC_DWEXPR_OK);
	CHECK_EQ(r.loc, OC_DWLOC_MEMORY);
	CHECK_EQ(r.addr, 0x9000);
	CHECK_STR(r.where, "global 0x9000");

	/* DW_OP_addr; DW_OP_deref; DW_OP_stack_value */
	EVAL(&c, &r, 0x03, 0x00, 0x10, 0, 0, 0, 0, 0, 0, 0x06, 0x9f);
	CHECK_EQ(r.status, OC_DWEXPR_OK);
	CHECK_EQ(r.loc, OC_DWLOC_VALUE);
	CHECK_EQ(value_of(&r), 0xa7a6a5a4a3a2a1a0ull);
	CHECK_STR(r.where, "computed");

	/* deref_size 2 */
	EVAL(&c, &r, 0x03, 0x02, 0x10, 0, 0, 0, 0, 0, 0, 0x94, 0x02, 0x9f);
	CHECK_EQ(value_of(&r), 0xa3a2);

	/* deref of an address nothing backs */
	EVAL(&c, &r, 0x0c, 0x00, 0x00, 0x00, 0x40, 0x06, 0x9f);
	CHECK_EQ(r.status, OC_DWEXPR_UNAVAILABLE);
	CHECK_STR(r.why, "read of 8 bytes at 0x40000000 failed");

	/* deref_size 0 / 9 */
	EVAL(&c, &r, 0x77, 0x00, 0x94, 0x00);
	CHECK_EQ(r.status, OC_DWEXPR_BAD);
	EVAL(&c, &r, 0x77, 0x00, 0x94, 0x09);
	CHECK_EQ(r.status, OC_DWEXPR_BAD);

	/* a module: DW_OP_addr is in our own layout */
	c.no_addr = true;
	EVAL(&c, &r, 0x03, 0x00, 0x10, 0, 0, 0, 0, 0, 0);
	CHECK_EQ(r.status, OC_DWEXPR_UNAVAILABLE);

	/* no memory at all */
	ctx_init(&c);
	c.mem = NULL;
	EVAL(&c, &r, 0x77, 0x00, 0x06, 0x9f);
	CHECK_EQ(r.status, OC_DWEXPR_UNAVAILABLE);
}

TEST(dwexpr_constants)
{
	COMPUTES(0, 0x30);
	COMPUTES(31, 0x4f);
	COMPUTES(0xff, 0x08, 0xff);
	COMPUTES(-1, 0x09, 0xff);
	COMPUTES(0xfffe, 0x0a, 0xfe, 0xff);
	COMPUTES(-2, 0x0b, 0xfe, 0xff);
	COMPUTES(0xfffffffd, 0x0c, 0xfd, 0xff, 0xff, 0xff);
	COMPUTES(-3, 0x0d, 0xfd, 0xff, 0xff, 0xff);
	COMPUTES(0x0102030405060708ull, 0x0e, 8, 7, 6, 5, 4, 3, 2, 1);
	COMPUTES(0x0102030405060708ull, 0x0f, 8, 7, 6, 5, 4, 3, 2, 1);
	COMPUTES(624485, 0x10, 0xe5, 0x8e, 0x26);
	COMPUTES(-123456, 0x11, 0xc0, 0xbb, 0x78);

	struct oc_dwexpr_ctx c;
	struct oc_dwexpr_result r;

	ctx_init(&c);
	EVAL(&c, &r, 0x35, 0x9f);
	CHECK_STR(r.where, "constant");
}

TEST(dwexpr_arithmetic)
{
	COMPUTES(7, 0x33, 0x34, 0x22);			/* 3 + 4 */
	COMPUTES(-1, 0x33, 0x34, 0x1c);			/* 3 - 4 */
	COMPUTES(12, 0x33, 0x34, 0x1e);			/* 3 * 4 */
	COMPUTES(-3, 0x09, 0xfa, 0x32, 0x1b);		/* -6 / 2 */
	COMPUTES(1, 0x37, 0x33, 0x1d);			/* 7 % 3 */
	COMPUTES(0x0c & 0x0a, 0x3c, 0x3a, 0x1a);	/* and */
	COMPUTES(0x0c | 0x0a, 0x3c, 0x3a, 0x21);	/* or */
	COMPUTES(0x0c ^ 0x0a, 0x3c, 0x3a, 0x27);	/* xor */
	COMPUTES(0x30, 0x33, 0x34, 0x24);		/* 3 << 4 */
	COMPUTES(0, 0x33, 0x08, 64, 0x24);		/* 3 << 64 */
	COMPUTES(0x0fffffffffffffffull, 0x09, 0xff, 0x34, 0x25); /* shr */
	COMPUTES(-1, 0x09, 0xff, 0x34, 0x26);		/* shra */
	COMPUTES(-1, 0x09, 0xf0, 0x08, 70, 0x26);	/* shra 70 */
	COMPUTES(2, 0x38, 0x32, 0x26);			/* 8 >> 2 */
	COMPUTES(-5, 0x35, 0x1f);			/* neg */
	COMPUTES(~(uint64_t)5, 0x35, 0x20);		/* not */
	COMPUTES(5, 0x09, 0xfb, 0x19);			/* abs */
	COMPUTES(13, 0x35, 0x23, 0x08);			/* plus_uconst */
	COMPUTES(1, 0x33, 0x33, 0x29);			/* eq */
	COMPUTES(0, 0x33, 0x33, 0x2e);			/* ne */
	COMPUTES(1, 0x09, 0xff, 0x33, 0x2d);		/* -1 < 3 (signed) */
	COMPUTES(1, 0x33, 0x33, 0x2c);			/* le */
	COMPUTES(0, 0x33, 0x34, 0x2b);			/* gt */
	COMPUTES(1, 0x34, 0x33, 0x2a);			/* ge */
	/* INT64_MIN / -1 does not trap */
	COMPUTES(0x8000000000000000ull, 0x0e, 0, 0, 0, 0, 0, 0, 0, 0x80,
		 0x09, 0xff, 0x1b);
	/* by zero */
	COMPUTES_BAD(0x33, 0x30, 0x1b);			/* div */
	COMPUTES_BAD(0x33, 0x30, 0x1d);			/* mod */
}

TEST(dwexpr_stack_ops)
{
	COMPUTES(3, 0x33, 0x12, 0x1c, 0x33, 0x22);	/* dup: 3-3+3 */
	COMPUTES(3, 0x33, 0x34, 0x13);			/* drop */
	COMPUTES(3, 0x33, 0x34, 0x14);			/* over */
	COMPUTES(3, 0x33, 0x34, 0x35, 0x15, 0x02);	/* pick 2 */
	COMPUTES(1, 0x33, 0x34, 0x16, 0x1c);		/* swap: 4-3 */
	/* rot: 1 2 3 (top) -> 3 1 2 (top) */
	COMPUTES(2, 0x31, 0x32, 0x33, 0x17);
	COMPUTES(1, 0x31, 0x32, 0x33, 0x17, 0x13);
	COMPUTES(3, 0x31, 0x32, 0x33, 0x17, 0x13, 0x13);
	COMPUTES_BAD(0x33, 0x15, 0x01);			/* pick past the bottom */
	COMPUTES_BAD(0x33, 0x22);			/* plus of one */
	COMPUTES_BAD(0x96);				/* nop; stack_value */
}

TEST(dwexpr_branches)
{
	/* lit1; bra +1; lit5 (skipped); lit7 -> 7 */
	COMPUTES(7, 0x31, 0x28, 0x01, 0x00, 0x35, 0x37);
	/* lit0; bra +1 (not taken); lit5; lit7; plus -> 12 */
	COMPUTES(12, 0x30, 0x28, 0x01, 0x00, 0x35, 0x37, 0x22);
	/* skip +1 over lit5 */
	COMPUTES(7, 0x2f, 0x01, 0x00, 0x35, 0x37);
	/* an endless loop: skip -3 */
	COMPUTES_BAD(0x2f, 0xfd, 0xff);
	COMPUTES_BAD(0x2f, 0x10, 0x00);			/* skip past the end */
	COMPUTES_BAD(0x2f, 0xf0, 0xff);			/* skip before the start */
}

TEST(dwexpr_values)
{
	struct oc_dwexpr_ctx c;
	struct oc_dwexpr_result r;

	ctx_init(&c);
	/* DW_OP_implicit_value 4 bytes */
	EVAL(&c, &r, 0x9e, 0x04, 0x78, 0x56, 0x34, 0x12);
	CHECK_EQ(r.status, OC_DWEXPR_OK);
	CHECK_EQ(r.loc, OC_DWLOC_VALUE);
	CHECK_EQ(r.nr_bytes, 4);
	CHECK_EQ(value_of(&r), 0x12345678);
	CHECK_STR(r.where, "constant");

	/* 16 bytes: too big to show */
	EVAL(&c, &r, 0x9e, 0x10, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
	     14, 15, 16);
	CHECK_EQ(r.status, OC_DWEXPR_UNAVAILABLE);

	/* truncated */
	EVAL(&c, &r, 0x9e, 0x08, 1, 2);
	CHECK_EQ(r.status, OC_DWEXPR_BAD);

	/* a pointer computed from a register: breg3 16; stack_value */
	EVAL(&c, &r, 0x73, 0x10, 0x9f);
	CHECK_EQ(r.status, OC_DWEXPR_OK);
	CHECK_EQ(value_of(&r), 0x410);
	CHECK_STR(r.where, "computed");

	/* anything but a piece after a register location */
	EVAL(&c, &r, 0x53, 0x30);
	CHECK_EQ(r.status, OC_DWEXPR_BAD);
	EVAL(&c, &r, 0x30, 0x9f, 0x30);
	CHECK_EQ(r.status, OC_DWEXPR_BAD);
}

TEST(dwexpr_pieces)
{
	struct oc_dwexpr_ctx c;
	struct oc_dwexpr_result r;

	ctx_init(&c);
	/* rbx low 4 bytes, then 4 bytes at rsp (0x1800: 00 01 02 03) */
	EVAL(&c, &r, 0x53, 0x93, 0x04, 0x77, 0x00, 0x93, 0x04);
	CHECK_EQ(r.status, OC_DWEXPR_OK);
	CHECK_EQ(r.loc, OC_DWLOC_VALUE);
	CHECK_EQ(r.nr_bytes, 8);
	CHECK_EQ(value_of(&r), 0x0302010000000400ull);
	CHECK_STR(r.where, "%rbx + [%rsp]");

	/* a constant piece and an implicit piece */
	EVAL(&c, &r, 0x3a, 0x9f, 0x93, 0x02, 0x9e, 0x02, 0x34, 0x12, 0x93,
	     0x02);
	CHECK_EQ(r.status, OC_DWEXPR_OK);
	CHECK_EQ(r.nr_bytes, 4);
	CHECK_EQ(value_of(&r), 0x1234000a);

	/* one part optimized out */
	EVAL(&c, &r, 0x53, 0x93, 0x04, 0x93, 0x04);
	CHECK_EQ(r.status, OC_DWEXPR_UNAVAILABLE);
	CHECK(strstr(r.why, "optimized out") != NULL);

	/* one part in a register we do not have */
	EVAL(&c, &r, 0x53, 0x93, 0x04, 0x50, 0x93, 0x04);
	CHECK_EQ(r.status, OC_DWEXPR_UNAVAILABLE);
	CHECK_STR(r.why, "in %rax, not recovered");

	/* more than 8 bytes */
	EVAL(&c, &r, 0x53, 0x93, 0x08, 0x56, 0x93, 0x08);
	CHECK_EQ(r.status, OC_DWEXPR_UNAVAILABLE);

	/* something after the last piece */
	EVAL(&c, &r, 0x53, 0x93, 0x04, 0x30);
	CHECK_EQ(r.status, OC_DWEXPR_BAD);

	/* bit pieces are not combined */
	EVAL(&c, &r, 0x53, 0x9d, 0x04, 0x00);
	CHECK_EQ(r.status, OC_DWEXPR_UNAVAILABLE);
}

TEST(dwexpr_unavailable_kinds)
{
	struct oc_dwexpr_ctx c;
	struct oc_dwexpr_result r;

	ctx_init(&c);
	/* DW_OP_entry_value(DW_OP_reg5); DW_OP_stack_value */
	EVAL(&c, &r, 0xa3, 0x01, 0x55, 0x9f);
	CHECK_EQ(r.status, OC_DWEXPR_UNAVAILABLE);
	CHECK_STR(r.why, "entry value (of %rdi)");
	EVAL(&c, &r, 0xf3, 0x01, 0x54, 0x9f);
	CHECK_STR(r.why, "entry value (of %rsi)");
	EVAL(&c, &r, 0xa3, 0x02, 0x77, 0x00, 0x9f);
	CHECK_STR(r.why, "entry value");
	EVAL(&c, &r, 0xa3, 0x09, 0x55);			/* truncated */
	CHECK_EQ(r.status, OC_DWEXPR_BAD);
	EVAL(&c, &r, 0xfa, 1, 2, 3, 4);			/* parameter_ref */
	CHECK_EQ(r.status, OC_DWEXPR_UNAVAILABLE);
	CHECK(strstr(r.why, "entry value") != NULL);
	EVAL(&c, &r, 0xf2, 1, 2, 3, 4, 0x00);		/* implicit ptr */
	CHECK_EQ(r.status, OC_DWEXPR_UNAVAILABLE);
	EVAL(&c, &r, 0xa8, 0x01);			/* convert */
	CHECK_EQ(r.status, OC_DWEXPR_UNAVAILABLE);
	EVAL(&c, &r, 0xa1, 0x01);			/* addrx */
	CHECK_EQ(r.status, OC_DWEXPR_UNAVAILABLE);
	EVAL(&c, &r, 0xe0);				/* TLS */
	CHECK_EQ(r.status, OC_DWEXPR_UNAVAILABLE);
	EVAL(&c, &r, 0x02);				/* no such op */
	CHECK_EQ(r.status, OC_DWEXPR_BAD);

	/* the empty location: optimized out */
	oc_dwexpr_eval(&c, NULL, 0, &r);
	CHECK_EQ(r.status, OC_DWEXPR_OPTIMIZED_OUT);
	EVAL(&c, &r, 0x96);				/* just a nop */
	CHECK_EQ(r.status, OC_DWEXPR_OPTIMIZED_OUT);
}

TEST(dwexpr_limits)
{
	struct oc_dwexpr_ctx c;
	struct oc_dwexpr_result r;
	uint8_t x[200];

	ctx_init(&c);
	/* 65 pushes overflow the DWARF stack */
	memset(x, 0x31, 65);
	oc_dwexpr_eval(&c, x, 65, &r);
	CHECK_EQ(r.status, OC_DWEXPR_BAD);
	CHECK(strstr(r.why, "overflow") != NULL);
	/* 64 are fine */
	oc_dwexpr_eval(&c, x, 64, &r);
	CHECK_EQ(r.status, OC_DWEXPR_OK);

	/* truncated operands of every width */
	EVAL(&c, &r, 0x03, 1, 2, 3);
	CHECK_EQ(r.status, OC_DWEXPR_BAD);
	EVAL(&c, &r, 0x10, 0x80);
	CHECK_EQ(r.status, OC_DWEXPR_BAD);
	EVAL(&c, &r, 0x11, 0xff);
	CHECK_EQ(r.status, OC_DWEXPR_BAD);
	EVAL(&c, &r, 0x0b, 0x01);
	CHECK_EQ(r.status, OC_DWEXPR_BAD);
	/* a 20-byte LEB128 does not overflow the shift: one whose value
	 * fits (zero padding, as linkers write) is read, one with bits past
	 * the 64th is refused (formats/cursor.c, as drgn does) */
	EVAL(&c, &r, 0x10, 0xff, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
	     0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
	     0x80, 0x00, 0x9f);
	CHECK_EQ(r.status, OC_DWEXPR_OK);
	CHECK_EQ(value_of(&r), 0x7f);
	EVAL(&c, &r, 0x10, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	     0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	     0xff, 0x01, 0x9f);
	CHECK_EQ(r.status, OC_DWEXPR_BAD);
	CHECK(strstr(r.why, "DWARF expression+0x1: ULEB128 overflows 64 bits") != NULL);
}

/* random bytes as an expression: no crash, no hang, a status */
TEST(dwexpr_garbage)
{
	struct oc_dwexpr_ctx c;
	struct oc_dwexpr_result r;
	uint8_t x[64];
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	unsigned counts[4] = { 0 };

	ctx_init(&c);
	c.known = ~0u;
	for (int round = 0; round < 200000; round++) {
		size_t n = round % sizeof(x) + 1;

		for (size_t i = 0; i < n; i++) {
			seed ^= seed << 13;
			seed ^= seed >> 7;
			seed ^= seed << 17;
			x[i] = (uint8_t)seed;
			/* more registers and memory than chance gives */
			if (round & 1 && (seed >> 20) % 4 == 0)
				x[i] = 0x70 + (seed >> 32) % 16;
		}
		oc_dwexpr_eval(&c, x, n, &r);
		if (r.status > OC_DWEXPR_BAD) {
			FAIL_AT("status %d", r.status);
			break;
		}
		counts[r.status]++;
		CHECK(memchr(r.why, 0, sizeof(r.why)) != NULL);
		CHECK(memchr(r.where, 0, sizeof(r.where)) != NULL);
		CHECK(r.nr_bytes <= OC_DWEXPR_MAX_VALUE);
	}
	/* the mix covers every outcome */
	CHECK(counts[OC_DWEXPR_OK] > 0);
	CHECK(counts[OC_DWEXPR_UNAVAILABLE] > 0);
	CHECK(counts[OC_DWEXPR_BAD] > 0);
}

TEST(dwexpr_reg_names)
{
	char b[16];

	CHECK_STR(oc_dwexpr_reg_name(0, b, sizeof(b)), "rax");
	CHECK_STR(oc_dwexpr_reg_name(7, b, sizeof(b)), "rsp");
	CHECK_STR(oc_dwexpr_reg_name(15, b, sizeof(b)), "r15");
	CHECK_STR(oc_dwexpr_reg_name(16, b, sizeof(b)), "rip");
	CHECK_STR(oc_dwexpr_reg_name(32, b, sizeof(b)), "xmm15");
	CHECK_STR(oc_dwexpr_reg_name(99, b, sizeof(b)), "reg99");
}
