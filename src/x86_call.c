// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The call forms of x86-64 that can end at a return address (see
 * x86_call.h).  Lengths from the Intel SDM vol. 2, section 2.1-2.2:
 * opcode, ModRM, an SIB byte when ModRM.rm = 100 and mod != 11, a
 * displacement of 0, 1 or 4 bytes by mod (mod = 00 with rm = 101 is
 * RIP-relative disp32 in 64-bit mode; SIB.base = 101 with mod = 00 has
 * a disp32 and no base), an optional REX prefix (40-4F) in front.
 */
#include <string.h>

#include "cursor.h"
#include "x86_call.h"

/* A rel32 or disp32 at @p, inside the bytes the caller checked. */
static int32_t rd32(const uint8_t *p)
{
	struct oc_cursor c;
	int64_t v = 0;

	oc_cursor_init(&c, p, 4, "x86 instruction");
	oc_ok(oc_cursor_sle(&c, 4, &v));
	return (int32_t)v;
}

/*
 * FF /2 with its opcode at @code[@op] and REX @rex (0: none): the
 * length from the opcode on, and the form, if it is a call.
 */
static bool ff2_form(const uint8_t *code, size_t n, size_t op, uint8_t rex,
		     uint64_t ret, struct oc_call_insn *f, size_t *len_ret)
{
	uint8_t modrm, mod, rm, sib = 0;
	size_t len = 2, disp = 0;
	bool has_sib;

	if (op + 1 >= n || code[op] != 0xff)
		return false;
	modrm = code[op + 1];
	if (((modrm >> 3) & 7) != 2)
		return false;
	mod = modrm >> 6;
	rm = modrm & 7;
	has_sib = mod != 3 && rm == 4;
	if (has_sib) {
		if (op + 2 >= n)
			return false;
		sib = code[op + 2];
		len++;
	}
	if (mod == 1)
		disp = 1;
	else if (mod == 2 || (mod == 0 && rm == 5) ||
		 (mod == 0 && has_sib && (sib & 7) == 5))
		disp = 4;
	len += disp;
	*len_ret = len;
	f->kind = OC_CALL_INDIRECT;
	if (op + len != n)
		return true;	/* the caller checks the length */
	if (mod == 0 && rm == 5) {
		f->kind = OC_CALL_MEMORY;
		f->mem_addr = ret + (uint64_t)(int64_t)rd32(code + n - 4);
	} else if (mod == 0 && has_sib && (sib & 7) == 5 &&
		   ((sib >> 3) & 7) == 4 && !(rex & 0x2)) {
		/* [disp32] with no base and no index: an absolute pointer */
		f->kind = OC_CALL_MEMORY;
		f->mem_addr = (uint64_t)(int64_t)rd32(code + n - 4);
	}
	return true;
}

size_t oc_x86_calls_ending_at(const uint8_t *code, size_t n, uint64_t ret,
			      struct oc_call_insn *forms)
{
	size_t nr = 0;

	if (n > OC_CALL_MAX_LEN) {
		code += n - OC_CALL_MAX_LEN;
		n = OC_CALL_MAX_LEN;
	}
	if (n >= 5 && code[n - 5] == 0xe8) {
		forms[nr++] = (struct oc_call_insn){
			.kind = OC_CALL_DIRECT,
			.len = 5,
			.target = ret + (uint64_t)(int64_t)rd32(code + n - 4),
		};
	}
	for (size_t len = 2; len <= n && nr < OC_CALL_MAX_FORMS; len++) {
		size_t start = n - len, flen;
		struct oc_call_insn f = { 0 };

		/* the opcode first, or a REX prefix and then the opcode */
		/* a REX byte before the opcode is its prefix (next length) */
		if (!(start && (code[start - 1] & 0xf0) == 0x40) &&
		    ff2_form(code, n, start, 0, ret, &f, &flen) &&
		    flen == len) {
			f.len = (unsigned int)len;
		} else if ((code[start] & 0xf0) == 0x40 &&
			   ff2_form(code, n, start + 1, code[start], ret, &f,
				    &flen) &&
			   flen + 1 == len) {
			f.len = (unsigned int)len;
		} else {
			continue;
		}
		/* %fs:/%gs: in front (a per-CPU pointer): not an address
		 * we can read the pointer at */
		if (f.kind == OC_CALL_MEMORY && start &&
		    (code[start - 1] == 0x64 || code[start - 1] == 0x65))
			f.kind = OC_CALL_INDIRECT;
		forms[nr++] = f;
	}
	return nr;
}

bool oc_x86_is_endbr64(const uint8_t *code, size_t n)
{
	static const uint8_t endbr64[4] = { 0xf3, 0x0f, 0x1e, 0xfa };

	return n >= 4 && !memcmp(code, endbr64, 4);
}

bool oc_x86_jmp_at(const uint8_t *code, size_t n, uint64_t addr,
		   uint64_t *target_ret)
{
	size_t off = oc_x86_is_endbr64(code, n) ? 4 : 0;

	if (n < off + 5 || code[off] != 0xe9)
		return false;
	*target_ret = addr + off + 5 + (uint64_t)(int64_t)rd32(code + off + 1);
	return true;
}
