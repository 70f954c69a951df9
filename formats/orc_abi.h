/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The raw ORC ABI of every kernel generation, copied in one place
 * (STYLE.md 12).  Each block names the kernel file and version it
 * mirrors: arch/x86/include/asm/orc_types.h.
 *
 * On disk an ORC entry is 6 packed little-endian bytes:
 *
 *	s16 sp_offset; s16 bp_offset; u16 bits;
 *
 * and the kernel describes "bits" with C bit-fields, which on x86 are
 * allocated from the least significant bit up.  We never overlay a
 * struct: orc_abi_decode() takes the bytes apart with shifts.
 *
 * .orc_unwind_ip is an array of s32, each relative to its own address.
 */
#ifndef OC_ORC_ABI_H
#define OC_ORC_ABI_H

#include <stdint.h>
#include <string.h>

enum {
	ORC_ABI_ENTRY_SIZE = 6,
	ORC_ABI_IP_SIZE = 4,
	/* arch/x86/include/asm/orc_lookup.h (since 4.14) */
	ORC_ABI_LOOKUP_BLOCK_ORDER = 8,
	ORC_ABI_LOOKUP_BLOCK_SIZE = 1 << ORC_ABI_LOOKUP_BLOCK_ORDER,
	/* .orc_header: ORC_HASH, a SHA-1 (scripts/orc_hash.sh, since 6.4) */
	ORC_ABI_HASH_SIZE = 20,
};

/*
 * v4.14 .. v6.3 and v6.4 .. v7.0 (commit 39358a033b2e, "objtool, x86: Add
 * facility for asm code to provide unwind hints"):
 *
 *	#define ORC_REG_UNDEFINED	0
 *	#define ORC_REG_PREV_SP		1
 *	#define ORC_REG_DX		2
 *	#define ORC_REG_DI		3
 *	#define ORC_REG_BP		4
 *	#define ORC_REG_SP		5
 *	#define ORC_REG_R10		6
 *	#define ORC_REG_R13		7
 *	#define ORC_REG_BP_INDIRECT	8
 *	#define ORC_REG_SP_INDIRECT	9
 *	#define ORC_REG_MAX		15
 *
 * Upstream commit 96f3b16a9de5 ("objtool: Support Clang RAX DRAP
 * sequence", after v7.0, also queued for 6.12+ stable) appends
 *	#define ORC_REG_AX		10
 * and so changes ORC_HASH without changing any other number.
 */
enum {
	ORC_ABI_REG_UNDEFINED = 0,
	ORC_ABI_REG_PREV_SP = 1,
	ORC_ABI_REG_DX = 2,
	ORC_ABI_REG_DI = 3,
	ORC_ABI_REG_BP = 4,
	ORC_ABI_REG_SP = 5,
	ORC_ABI_REG_R10 = 6,
	ORC_ABI_REG_R13 = 7,
	ORC_ABI_REG_BP_INDIRECT = 8,
	ORC_ABI_REG_SP_INDIRECT = 9,
	ORC_ABI_REG_AX = 10,		/* only with the AX hash */
};

/*
 * The renumbered registers (what this code calls the "7.1" layout,
 * OC_ORC_V_7_1; seen in a vendored orc_types.h whose ORC_HASH
 * 137c36ad... we reproduce exactly):
 *
 *	UNDEFINED 0, AX 1, DX 2, SP 3, BP 4, DI 5, R10 6, R13 7,
 *	PREV_SP 8, SP_INDIRECT 9, BP_INDIRECT 10, MAX 15
 *
 * struct orc_entry itself is unchanged from v6.4.
 */
enum {
	ORC_ABI7_REG_UNDEFINED = 0,
	ORC_ABI7_REG_AX = 1,
	ORC_ABI7_REG_DX = 2,
	ORC_ABI7_REG_SP = 3,
	ORC_ABI7_REG_BP = 4,
	ORC_ABI7_REG_DI = 5,
	ORC_ABI7_REG_R10 = 6,
	ORC_ABI7_REG_R13 = 7,
	ORC_ABI7_REG_PREV_SP = 8,
	ORC_ABI7_REG_SP_INDIRECT = 9,
	ORC_ABI7_REG_BP_INDIRECT = 10,
};

/*
 * Types before v6.4 (2 bits):
 *	v4.14: ORC_TYPE_CALL 0, ORC_TYPE_REGS 1, ORC_TYPE_REGS_IRET 2
 *	(renamed ORC_TYPE_REGS_PARTIAL later, same number)
 */
enum {
	ORC_ABI_OLD_TYPE_CALL = 0,
	ORC_ABI_OLD_TYPE_REGS = 1,
	ORC_ABI_OLD_TYPE_REGS_PARTIAL = 2,
};

/*
 * Types since v6.4 (3 bits; commit fb799447ae29 "x86,objtool: Split
 * UNWIND_HINT_EMPTY in two", which also dropped `end`):
 */
enum {
	ORC_ABI_TYPE_UNDEFINED = 0,
	ORC_ABI_TYPE_END_OF_STACK = 1,
	ORC_ABI_TYPE_CALL = 2,
	ORC_ABI_TYPE_REGS = 3,
	ORC_ABI_TYPE_REGS_PARTIAL = 4,
};

/*
 * struct orc_entry bit-fields (little-endian), after the two s16:
 *
 * v4.14 .. v4.17:  sp_reg:4 bp_reg:4 type:2
 * v4.18 .. v6.2:   sp_reg:4 bp_reg:4 type:2 end:1
 * v6.3:            sp_reg:4 bp_reg:4 type:2 signal:1 end:1  (ffb1b4a41016)
 * v6.4 ..:         sp_reg:4 bp_reg:4 type:3 signal:1
 */
struct orc_abi_raw {
	int16_t sp_offset;
	int16_t bp_offset;
	unsigned int sp_reg;
	unsigned int bp_reg;
	unsigned int type;
	unsigned int end;	/* 4.18 .. 6.3 */
	unsigned int signal;	/* 6.3 .. */
};

/* Layouts, in the order of enum oc_orc_version. */
enum orc_abi_layout {
	ORC_ABI_LAYOUT_4_14,
	ORC_ABI_LAYOUT_4_18,
	ORC_ABI_LAYOUT_6_3,
	ORC_ABI_LAYOUT_6_4,
};

/*
 * Where each layout keeps the flags word's fields past sp_reg:4 and
 * bp_reg:4 (the table above): type at bit 8, as wide as its mask; the
 * signal and end bits, 0 where the layout has none.  The decoder and
 * the encoder both read it.
 */
struct orc_abi_bits {
	uint8_t type_mask, signal_bit, end_bit;
};

static inline const struct orc_abi_bits *orc_abi_bits(enum orc_abi_layout layout)
{
	static const struct orc_abi_bits bits[] = {
		[ORC_ABI_LAYOUT_4_14] = { .type_mask = 3 },
		[ORC_ABI_LAYOUT_4_18] = { .type_mask = 3, .end_bit = 10 },
		[ORC_ABI_LAYOUT_6_3] = { .type_mask = 3, .signal_bit = 10,
					 .end_bit = 11 },
		[ORC_ABI_LAYOUT_6_4] = { .type_mask = 7, .signal_bit = 11 },
	};

	return &bits[layout];
}

static inline void orc_abi_decode(const void *p, enum orc_abi_layout layout,
				  struct orc_abi_raw *ret)
{
	const struct orc_abi_bits *l = orc_abi_bits(layout);
	const uint8_t *b = p;
	uint16_t sp = (uint16_t)(b[0] | b[1] << 8);
	uint16_t bp = (uint16_t)(b[2] | b[3] << 8);
	unsigned int bits = (unsigned int)(b[4] | b[5] << 8);

	memset(ret, 0, sizeof(*ret));
	ret->sp_offset = (int16_t)sp;
	ret->bp_offset = (int16_t)bp;
	ret->sp_reg = bits & 0xf;
	ret->bp_reg = (bits >> 4) & 0xf;
	ret->type = (bits >> 8) & l->type_mask;
	if (l->signal_bit)
		ret->signal = (bits >> l->signal_bit) & 1;
	if (l->end_bit)
		ret->end = (bits >> l->end_bit) & 1;
}

/* The inverse, for tests that build raw tables. */
static inline void orc_abi_encode(const struct orc_abi_raw *e,
				  enum orc_abi_layout layout, void *p)
{
	const struct orc_abi_bits *l = orc_abi_bits(layout);
	uint8_t *b = p;
	unsigned int bits = (e->sp_reg & 0xf) | (e->bp_reg & 0xf) << 4;

	bits |= (e->type & l->type_mask) << 8;
	if (l->signal_bit)
		bits |= (e->signal & 1) << l->signal_bit;
	if (l->end_bit)
		bits |= (e->end & 1) << l->end_bit;
	b[0] = (uint8_t)e->sp_offset;
	b[1] = (uint8_t)((uint16_t)e->sp_offset >> 8);
	b[2] = (uint8_t)e->bp_offset;
	b[3] = (uint8_t)((uint16_t)e->bp_offset >> 8);
	b[4] = (uint8_t)bits;
	b[5] = (uint8_t)(bits >> 8);
}

static inline int32_t orc_abi_ip_rel(const void *ip_data, size_t i)
{
	const uint8_t *b = (const uint8_t *)ip_data + i * ORC_ABI_IP_SIZE;

	return (int32_t)((uint32_t)b[0] | (uint32_t)b[1] << 8 |
			 (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24);
}

/*
 * The kernel's orc_ip(): "return (unsigned long)ip + *ip;" of entry @i,
 * the table's first ip slot at @ip_addr (relocated by the caller: KASLR,
 * or a module's load address).
 */
static inline uint64_t orc_abi_ip(const void *ip_data, uint64_t ip_addr,
				  size_t i)
{
	return ip_addr + ORC_ABI_IP_SIZE * (uint64_t)i +
	       (uint64_t)(int64_t)orc_abi_ip_rel(ip_data, i);
}

#endif /* OC_ORC_ABI_H */
