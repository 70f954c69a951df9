/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The x86-64 register set as the kernel saves it: struct pt_regs of
 * arch/x86/include/asm/ptrace.h (the 64-bit half), field for field and
 * in the kernel's order, so that a pt_regs read from the stack or the
 * first 21 words of an NT_PRSTATUS note's user_regs_struct
 * (arch/x86/include/asm/user_64.h) copy straight in.  Shared by the dump
 * readers below and the walker above.
 */
#ifndef OC_FORMATS_REGS_H
#define OC_FORMATS_REGS_H

#include <stdint.h>

struct oc_regs {
	uint64_t r15, r14, r13, r12, bp, bx, r11, r10, r9, r8;
	uint64_t ax, cx, dx, si, di, orig_ax, ip, cs, flags, sp, ss;
};

#endif /* OC_FORMATS_REGS_H */
