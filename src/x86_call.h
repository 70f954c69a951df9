/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * "Is the instruction that ends at this return address a call?"  The
 * one question the unwinder's fallbacks ask of machine code
 * (docs/design.md, "Where ORC has no entry").  Not a disassembler: only
 * the x86-64 call forms the kernel's code contains, decoded backwards
 * from the return address, each one only if its length ends exactly
 * there (Intel SDM vol. 2, CALL: E8 cd and FF /2, with the ModRM/SIB
 * lengths of table 2-2 and 2-3):
 *
 *   E8 rel32                 call rel32 (also a retpoline
 *                            "call __x86_indirect_thunk_<reg>" and a
 *                            static call's "call __SCT__<name>")
 *   [REX] FF /2 mod=11       call *%reg                     2-3 bytes
 *   [REX] FF /2 mod=00       call *(%reg), *disp32(%rip),
 *                            *(SIB), *disp32(,SIB)          2-8 bytes
 *   [REX] FF /2 mod=01/10    call *disp8/32(%reg[,SIB])     3-8 bytes
 *
 * The bytes are read from dump memory, so alternatives, paravirt
 * patching and static calls are decoded as they ran (a 6-byte
 * "call *pv_ops+X(%rip)" that apply_paravirt() rewrote to a 5-byte
 * "call native_halt" and a NOP returns to the NOP).
 */
#ifndef OC_X86_CALL_H
#define OC_X86_CALL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum oc_call_kind {
	OC_CALL_DIRECT,		/* call rel32: ->target */
	OC_CALL_MEMORY,		/* call *disp32(%rip) or *disp32: the target
				 * is the pointer at ->mem_addr */
	OC_CALL_INDIRECT,	/* call through a register or a register-based
				 * address: the target is not in the code */
};

struct oc_call_insn {
	enum oc_call_kind kind;
	unsigned int len;	/* bytes, ending at the return address */
	uint64_t target;	/* OC_CALL_DIRECT */
	uint64_t mem_addr;	/* OC_CALL_MEMORY */
};

enum { OC_CALL_MAX_LEN = 8, OC_CALL_MAX_FORMS = 8 };

/*
 * Every call form whose last byte is @code[@n - 1], the byte before
 * return address @ret (@n <= OC_CALL_MAX_LEN bytes ending there).  The
 * byte stream backwards is ambiguous: more than one form may fit, and
 * the caller decides (a direct call whose target is a function entry
 * says more than a two-byte FF D0 that happens to end there).  Returns
 * the number of forms written to @forms (at most OC_CALL_MAX_FORMS).
 */
size_t oc_x86_calls_ending_at(const uint8_t *code, size_t n, uint64_t ret,
			      struct oc_call_insn *forms);

/*
 * The target of a "jmp rel32" (E9 cd) at @code, after an optional
 * ENDBR64 (F3 0F 1E FA): what a static-call trampoline (__SCT__*) or a
 * jump thunk does first.  @n bytes at @addr.  False if the code starts
 * with anything else.
 */
bool oc_x86_jmp_at(const uint8_t *code, size_t n, uint64_t addr,
		   uint64_t *target_ret);

/* The four bytes of ENDBR64 at @code (@n bytes). */
bool oc_x86_is_endbr64(const uint8_t *code, size_t n);

#endif /* OC_X86_CALL_H */
