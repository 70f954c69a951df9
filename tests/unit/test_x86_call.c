// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The call forms that can end at a return address (src/x86_call.c), on
 * bytes GNU as 2.40 assembled (objdump -d shown beside each).
 */
#include "test.h"
#include "x86_call.h"

static const uint64_t RET = 0xffffffff81001000ull;

/* the forms found when @bytes end at RET, with 0xcc (int3) before */
static size_t decode(const uint8_t *bytes, size_t len,
		     struct oc_call_insn *forms)
{
	uint8_t code[OC_CALL_MAX_LEN];

	memset(code, 0xcc, sizeof(code));
	memcpy(code + sizeof(code) - len, bytes, len);
	return oc_x86_calls_ending_at(code, sizeof(code), RET, forms);
}

/* exactly one form, of @kind, as long as all of @bytes */
#define one(bytes, kind) one_((bytes), sizeof(bytes), (kind))

static const struct oc_call_insn *one_(const uint8_t *bytes, size_t len,
				       enum oc_call_kind kind)
{
	static struct oc_call_insn forms[OC_CALL_MAX_FORMS];
	size_t n = decode(bytes, len, forms);

	if (!CHECKED_EQ(n, 1))
		return NULL;
	CHECK_EQ(forms[0].kind, kind);
	CHECK_EQ(forms[0].len, len);
	return &forms[0];
}

TEST(x86_call_direct)
{
	/* e8 fb ff ff ff	call f (5 bytes back) */
	const uint8_t b[] = { 0xe8, 0xfb, 0xff, 0xff, 0xff };
	const struct oc_call_insn *f = one(b, OC_CALL_DIRECT);

	CHECK(f && f->target == RET - 5);
}

TEST(x86_call_register_and_memory)
{
	/* ff d0	call *%rax */
	one(((const uint8_t[]){ 0xff, 0xd0 }), OC_CALL_INDIRECT);
	/* 41 ff d3	call *%r11 */
	one(((const uint8_t[]){ 0x41, 0xff, 0xd3 }), OC_CALL_INDIRECT);
	/* ff 10	call *(%rax) */
	one(((const uint8_t[]){ 0xff, 0x10 }), OC_CALL_INDIRECT);
	/* ff 14 24	call *(%rsp) */
	one(((const uint8_t[]){ 0xff, 0x14, 0x24 }), OC_CALL_INDIRECT);
	/* ff 54 24 08	call *0x8(%rsp) */
	one(((const uint8_t[]){ 0xff, 0x54, 0x24, 0x08 }), OC_CALL_INDIRECT);
	/* ff 54 cb 08	call *0x8(%rbx,%rcx,8) */
	one(((const uint8_t[]){ 0xff, 0x54, 0xcb, 0x08 }), OC_CALL_INDIRECT);
	/* ff 94 c3 78 56 34 12	call *0x12345678(%rbx,%rax,8) */
	one(((const uint8_t[]){ 0xff, 0x94, 0xc3, 0x78, 0x56, 0x34, 0x12 }),
	    OC_CALL_INDIRECT);
	/* 43 ff 94 ec 78 56 34 12	call *0x12345678(%r12,%r13,8) */
	one(((const uint8_t[]){ 0x43, 0xff, 0x94, 0xec, 0x78, 0x56, 0x34,
			       0x12 }), OC_CALL_INDIRECT);
}

TEST(x86_call_through_a_pointer)
{
	/* ff 15 78 56 34 12	call *0x12345678(%rip): the pointer
	 * is at the next instruction + disp (pv_ops calls) */
	const struct oc_call_insn *f =
		one(((const uint8_t[]){ 0xff, 0x15, 0x78, 0x56, 0x34, 0x12 }),
		    OC_CALL_MEMORY);

	CHECK(f && f->mem_addr == RET + 0x12345678);
	/* ff 14 25 78 56 34 12	call *0x12345678 (absolute) */
	f = one(((const uint8_t[]){ 0xff, 0x14, 0x25, 0x78, 0x56, 0x34, 0x12 }),
		OC_CALL_MEMORY);
	CHECK(f && f->mem_addr == 0x12345678);
	/* a negative disp32 is sign-extended */
	f = one(((const uint8_t[]){ 0xff, 0x15, 0x00, 0x00, 0x00, 0xff }),
		OC_CALL_MEMORY);
	CHECK(f && f->mem_addr == RET - 0x1000000);
	/* 65 ff 14 25 10 00 00 00	call *%gs:0x10: no pointer to read
	 * (the form found is the 7 bytes after the prefix) */
	{
		struct oc_call_insn forms[OC_CALL_MAX_FORMS];
		size_t n = decode((const uint8_t[]){ 0x65, 0xff, 0x14, 0x25,
						     0x10, 0, 0, 0 }, 8, forms);

		CHECK(n == 1 && forms[0].kind == OC_CALL_INDIRECT &&
		      forms[0].len == 7);
	}
}

TEST(x86_call_not_a_call)
{
	struct oc_call_insn forms[OC_CALL_MAX_FORMS];

	/* ff e0	jmp *%rax */
	CHECK_EQ(decode((const uint8_t[]){ 0xff, 0xe0 }, 2, forms), 0);
	/* ff 35 78 56 34 12	push 0x12345678(%rip) */
	CHECK_EQ(decode((const uint8_t[]){ 0xff, 0x35, 0x78, 0x56, 0x34, 0x12 },
			6, forms), 0);
	/* f3 90	pause; 48 89 e3	mov %rsp,%rbx */
	CHECK_EQ(decode((const uint8_t[]){ 0xf3, 0x90 }, 2, forms), 0);
	CHECK_EQ(decode((const uint8_t[]){ 0x48, 0x89, 0xe3 }, 3, forms), 0);
	/* ff d0 cut short: the ModRM byte must end at the return address */
	CHECK_EQ(decode((const uint8_t[]){ 0xff, 0xd0, 0x90 }, 3, forms), 0);
	/* fewer bytes than a form needs */
	CHECK_EQ(oc_x86_calls_ending_at((const uint8_t[]){ 0xd0 }, 1, RET,
					forms), 0);
}

TEST(x86_call_ambiguous_bytes)
{
	/* e8 00 00 ff d0: a direct call whose rel32 ends in ff d0, which
	 * also reads as "call *%rax": both forms, the caller decides */
	struct oc_call_insn forms[OC_CALL_MAX_FORMS];
	size_t n = decode((const uint8_t[]){ 0xe8, 0x00, 0x00, 0xff, 0xd0 }, 5,
			  forms);

	CHECK_EQ(n, 2);
	CHECK(n == 2 && forms[0].kind == OC_CALL_DIRECT &&
	      forms[1].kind == OC_CALL_INDIRECT && forms[1].len == 2);
}

TEST(x86_jmp_thunk)
{
	/* e9 rel32: a static-call trampoline's jump */
	const uint8_t jmp[] = { 0xe9, 0x0b, 0x00, 0x00, 0x00 };
	/* f3 0f 1e fa (endbr64), then the jump */
	const uint8_t ibt[] = { 0xf3, 0x0f, 0x1e, 0xfa, 0xe9, 0xf0, 0xff, 0xff,
				0xff };
	uint64_t target = 0;

	CHECK(oc_x86_jmp_at(jmp, sizeof(jmp), RET, &target));
	CHECK_EQ(target, RET + 5 + 0xb);
	CHECK(oc_x86_jmp_at(ibt, sizeof(ibt), RET, &target));
	CHECK_EQ(target, RET + 9 - 0x10);
	CHECK(!oc_x86_jmp_at((const uint8_t[]){ 0xc3, 0xcc, 0xcc, 0xcc, 0xcc },
			     5, RET, &target));
	CHECK(!oc_x86_jmp_at(ibt, 6, RET, &target));
}
