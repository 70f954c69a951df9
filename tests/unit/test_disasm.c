// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * formats/disasm.c over libopcodes: what it makes of objdump's decoding
 * (the mnemonic with its prefixes, the operands, a branch's target, a
 * RIP-relative reference) and where it stops.  The bytes are from real
 * kernels (objdump -d -M intel of the vmlinux or the dump's bytes beside
 * each); among them the two capstone 4.0.2 lost step on.
 */
#include "test.h"
#include "disasm.h"

#define AT 0xffffffff815e3b13ull

struct want {
	const char *what;
	uint8_t bytes[16];
	uint8_t len;
	const char *mnemonic, *operands;
	bool has_target, call;
	uint64_t target;
	bool has_ref, ref_percpu;
	uint64_t ref;
};

static const struct want wants[] = {
	/* 7.2's WARN trap, patched over a call to __SCT__WARN_trap */
	{ .what = "ud1", .bytes = { 0x67, 0x48, 0x0f, 0xb9, 0x3a }, .len = 5,
	  .mnemonic = "ud1", .operands = "rdi,QWORD PTR [edx]" },
	/* 6.1's internal_get_user_pages_fast() */
	{ .what = "rdpkru", .bytes = { 0x0f, 0x01, 0xee }, .len = 3,
	  .mnemonic = "rdpkru", .operands = "" },
	{ .what = "padding", .bytes = { 0x66, 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0, 0, 0, 0, 0 },
	  .len = 11, .mnemonic = "data16 cs nop", .operands = "WORD PTR [rax+rax*1+0x0]" },
	{ .what = "ds wrmsr", .bytes = { 0x3e, 0x0f, 0x30 }, .len = 3,
	  .mnemonic = "ds wrmsr", .operands = "" },
	{ .what = "rep stos", .bytes = { 0xf3, 0x48, 0xab }, .len = 3,
	  .mnemonic = "rep stos", .operands = "QWORD PTR es:[rdi],rax" },
	/* e8 rel32 */
	{ .what = "call", .bytes = { 0xe8, 0x83, 0xec, 0x00, 0x00 }, .len = 5,
	  .mnemonic = "call", .operands = "0xffffffff815f279b",
	  .has_target = true, .call = true, .target = AT + 5 + 0xec83 },
	/* 74 rel8 */
	{ .what = "je", .bytes = { 0x74, 0x7d }, .len = 2, .mnemonic = "je",
	  .operands = "0xffffffff815e3b92", .has_target = true, .target = AT + 2 + 0x7d },
	/* call [rip+disp32]: indirect, no target; its reference is the slot */
	{ .what = "indirect call", .bytes = { 0xff, 0x15, 0x01, 0x02, 0x03, 0x04 }, .len = 6,
	  .mnemonic = "call", .operands = "QWORD PTR [rip+0x4030201]", .call = true,
	  .has_ref = true, .ref = AT + 6 + 0x4030201 },
	/* 6.1 schedule(): inc DWORD PTR gs:[rip+0x5720e5fd] (__preempt_count) */
	{ .what = "gs reference", .bytes = { 0x65, 0xff, 0x05, 0xfd, 0xe5, 0x20, 0x57 },
	  .len = 7, .mnemonic = "inc", .operands = "DWORD PTR gs:[rip+0x5720e5fd]",
	  .has_ref = true, .ref_percpu = true, .ref = AT + 7 + 0x5720e5fd },
	{ .what = "ret", .bytes = { 0xc3 }, .len = 1, .mnemonic = "ret", .operands = "" },
};

struct got {
	struct oc_insn insn[8];
	size_t n;
};

static bool collect(void *arg, const struct oc_insn *in)
{
	struct got *g = arg;

	if (g->n < 8)
		g->insn[g->n++] = *in;
	return true;
}

static void check_one(const struct want *w)
{
	struct got g = { .n = 0 };
	uint64_t stopped = 0;
	const struct oc_insn *in = &g.insn[0];

	CHECK(oc_ok(oc_disasm(w->bytes, w->len, AT, 8, collect, &g, &stopped)));
	CHECK_EQ(g.n, 1);
	CHECK_EQ(stopped, AT + w->len);
	if (g.n != 1)
		return;
	CHECK_EQ(in->addr, AT);
	CHECK_EQ(in->len, w->len);
	CHECK(!memcmp(in->bytes, w->bytes, w->len));
	CHECK_STR(in->mnemonic, w->mnemonic);
	CHECK_STR(in->operands, w->operands);
	CHECK_EQ(in->has_target, w->has_target);
	CHECK_EQ(in->call, w->call);
	if (w->has_target)
		CHECK_EQ(in->target, w->target);
	CHECK_EQ(in->has_ref, w->has_ref);
	CHECK_EQ(in->ref_percpu, w->ref_percpu);
	if (w->has_ref)
		CHECK_EQ(in->ref, w->ref);
}

TEST(disasm_instructions)
{
	for (size_t i = 0; i < sizeof(wants) / sizeof(wants[0]); i++)
		check_one(&wants[i]);
}

/* In sequence, each at the address the one before ends at */
TEST(disasm_sequence)
{
	uint8_t code[64];
	size_t len = 0;
	struct got g = { .n = 0 };
	uint64_t stopped = 0, at = AT;

	for (size_t i = 0; i < 6; i++) {
		memcpy(code + len, wants[i].bytes, wants[i].len);
		len += wants[i].len;
	}
	CHECK(oc_ok(oc_disasm(code, len, AT, 8, collect, &g, &stopped)));
	CHECK_EQ(g.n, 6);
	CHECK_EQ(stopped, AT + len);
	for (size_t i = 0; i < g.n; i++) {
		CHECK_EQ(g.insn[i].addr, at);
		CHECK_STR(g.insn[i].mnemonic, wants[i].mnemonic);
		at += wants[i].len;
	}
	/* at most @max */
	g.n = 0;
	CHECK(oc_ok(oc_disasm(code, len, AT, 2, collect, &g, &stopped)));
	CHECK_EQ(g.n, 2);
	CHECK_EQ(stopped, AT + 5 + 3);
}

/* Bytes that are no instruction ("(bad)": 06, push es, is invalid in
 * 64-bit mode) and one cut off by the end of what was read stop it,
 * *stopped_at at the first byte not decoded */
TEST(disasm_stops)
{
	const uint8_t bad[] = { 0x90, 0x06, 0x90 };
	const uint8_t cut[] = { 0x90, 0xe8, 0x83, 0xec };
	struct got g = { .n = 0 };
	uint64_t stopped = 0;

	CHECK(oc_ok(oc_disasm(bad, sizeof(bad), AT, 8, collect, &g, &stopped)));
	CHECK_EQ(g.n, 1);
	CHECK_EQ(stopped, AT + 1);
	g.n = 0;
	CHECK(oc_ok(oc_disasm(cut, sizeof(cut), AT, 8, collect, &g, &stopped)));
	CHECK_EQ(g.n, 1);
	CHECK_EQ(stopped, AT + 1);
}
