// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: the DWARF location-expression evaluator
 * (src/dwexpr.h) that gives parameters and locals their values.
 * Input:
 *	u8  flags		bit 0: CFA known, bit 1: no DW_OP_addr,
 *				bit 2: a memory reader
 *	u32 known		bit n: DWARF register n known
 *	u64 regs[17]		rax .. r15, rip (DWARF order)
 *	u64 cfa, addr_offset
 *	u8  frame_base_len, that many bytes (DW_AT_frame_base)
 *	u16 expr_len, that many bytes (the location expression)
 *	then a memory image (fuzz_common.h) for DW_OP_deref and memory pieces
 * Invariants: a status and location kind in range, at most 8 value
 * bytes, "where" and "why" terminated, a reason for every unavailable or
 * bad result, and the same answer twice (no hidden state).
 */
#include "dwexpr.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	struct oc_dwexpr_ctx ctx;
	struct oc_dwexpr_result r1, r2;
	struct fuzz_image img;
	const uint8_t *fb, *expr;
	size_t fb_len, expr_len;
	uint8_t flags;

	memset(&ctx, 0, sizeof(ctx));
	flags = fuzz_u8(&in);
	ctx.known = fuzz_u32(&in);
	for (int i = 0; i < OC_DWREG_NR; i++)
		ctx.regs[i] = fuzz_u64(&in);
	ctx.cfa = fuzz_u64(&in);
	ctx.addr_offset = fuzz_u64(&in);
	ctx.cfa_known = flags & 1;
	ctx.no_addr = flags & 2;
	fb_len = fuzz_u8(&in);
	fb = fuzz_bytes(&in, &fb_len);
	expr_len = fuzz_u16(&in);
	expr = fuzz_bytes(&in, &expr_len);
	if (fb_len) {
		ctx.frame_base = fb;
		ctx.frame_base_len = fb_len;
	}
	fuzz_image_read(&in, &img);
	if (flags & 4)
		ctx.mem = &img.mem;

	memset(&r1, 0xa5, sizeof(r1));
	memset(&r2, 0x5a, sizeof(r2));
	oc_dwexpr_eval(&ctx, expr, expr_len, &r1);
	oc_dwexpr_eval(&ctx, expr, expr_len, &r2);

	FUZZ_ASSERT(r1.status <= OC_DWEXPR_BAD);
	FUZZ_ASSERT(memchr(r1.where, 0, sizeof(r1.where)));
	FUZZ_ASSERT(memchr(r1.why, 0, sizeof(r1.why)));
	if (r1.status == OC_DWEXPR_UNAVAILABLE || r1.status == OC_DWEXPR_BAD)
		FUZZ_ASSERT(r1.why[0]);
	if (r1.status == OC_DWEXPR_OK) {
		FUZZ_ASSERT(r1.loc == OC_DWLOC_MEMORY || r1.loc == OC_DWLOC_VALUE);
		FUZZ_ASSERT(r1.nr_bytes <= OC_DWEXPR_MAX_VALUE);
	}
	FUZZ_ASSERT(r1.status == r2.status);
	FUZZ_ASSERT(!strcmp(r1.where, r2.where) && !strcmp(r1.why, r2.why));
	if (r1.status == OC_DWEXPR_OK) {
		FUZZ_ASSERT(r1.loc == r2.loc && r1.nr_bytes == r2.nr_bytes);
		FUZZ_ASSERT(r1.loc != OC_DWLOC_MEMORY || r1.addr == r2.addr);
		FUZZ_ASSERT(!memcmp(r1.bytes, r2.bytes, r1.nr_bytes));
	}
	return 0;
}
