/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ORC tables normalised across every format the kernel has shipped.
 * The raw per-version ABI lives in formats/orc_abi.h; formats/orc.c
 * turns a raw table (vmlinux sections, a .ko, or dump memory) into an
 * struct oc_orc_table, which src/orc.c searches.
 */
#ifndef OC_ORC_H
#define OC_ORC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

enum oc_orc_version {
	OC_ORC_V_UNKNOWN = 0,
	OC_ORC_V_4_14,	/* sp_reg:4 bp_reg:4 type:2 (CALL, REGS, REGS_IRET) */
	OC_ORC_V_4_18,	/* + end:1 */
	OC_ORC_V_6_3,	/* + signal:1 */
	OC_ORC_V_6_4,	/* type:3 (UNDEFINED, END_OF_STACK, ...), .orc_header */
	OC_ORC_V_7_1,	/* renumbered registers, AX */
};

/* Normalised base registers (not the on-disk numbers). */
enum oc_orc_reg {
	OC_ORC_REG_UNDEFINED = 0,
	OC_ORC_REG_PREV_SP,
	OC_ORC_REG_DX,
	OC_ORC_REG_DI,
	OC_ORC_REG_BP,
	OC_ORC_REG_SP,
	OC_ORC_REG_R10,
	OC_ORC_REG_R13,
	OC_ORC_REG_BP_INDIRECT,
	OC_ORC_REG_SP_INDIRECT,
	OC_ORC_REG_AX,
	OC_ORC_REG_BAD,		/* a number the format does not define */
};

/* Normalised types, as of 6.4. */
enum oc_orc_type {
	OC_ORC_TYPE_UNDEFINED = 0,
	OC_ORC_TYPE_END_OF_STACK,
	OC_ORC_TYPE_CALL,
	OC_ORC_TYPE_REGS,
	OC_ORC_TYPE_REGS_PARTIAL,	/* REGS_IRET before 5.x */
};

struct oc_orc_entry {
	int16_t sp_offset;
	int16_t bp_offset;
	uint8_t sp_reg;		/* enum oc_orc_reg */
	uint8_t bp_reg;		/* enum oc_orc_reg */
	uint8_t type;		/* enum oc_orc_type */
	bool signal;		/* ip after this frame is exact, not ret-1 */
	bool end;		/* pre-6.4 end bit, kept for orc-dump */
	uint8_t raw_type;	/* the on-disk type, kept for orc-dump */
};

struct oc_orc_table {
	uint64_t *ips;		/* absolute, sorted ascending */
	struct oc_orc_entry *entries;
	size_t nr;
	enum oc_orc_version version;
	/* direct index over [lookup_start, lookup_end), LOOKUP_BLOCK_SIZE */
	uint32_t *lookup;
	size_t lookup_blocks;
	uint64_t lookup_start;
};

const char *oc_orc_version_name(enum oc_orc_version v);

/* Empty table; safe to deinit. */
void oc_orc_table_init(struct oc_orc_table *tab);
void oc_orc_table_deinit(struct oc_orc_table *tab);

/*
 * Build a table from raw sections.  @ip_addr is the address of the
 * .orc_unwind_ip section (its s32 entries are relative to their own
 * address).  Sizes are checked; the table is sorted if it is not
 * (vmlinux tables are sorted at build time only since 5.6, module
 * tables never).
 */
struct oc_error *oc_orc_table_parse(struct oc_orc_table *tab,
				    enum oc_orc_version version,
				    uint64_t ip_addr, const void *ip_data,
				    size_t ip_len, const void *orc_data,
				    size_t orc_len);
/* Add @delta to every ip (KASLR); rebuilds the lookup index. */
void oc_orc_table_relocate(struct oc_orc_table *tab, uint64_t delta);

/*
 * The entry covering @ip: the rightmost one at or below @ip.  Returns
 * false when @ip is below the first entry or the table is empty.
 */
bool oc_orc_table_find(const struct oc_orc_table *tab, uint64_t ip,
		       struct oc_orc_entry *ret, uint64_t *entry_ip_ret);

/*
 * Detect the format version: from a .orc_header hash when there is one
 * (6.4+), else from a kernel release string ("6.1.0-57-cloud-amd64").
 * An unknown header hash is an error, never a guess.
 */
struct oc_error *oc_orc_detect_version(const void *orc_header,
				       size_t header_len, const char *release,
				       enum oc_orc_version *ret);

#endif /* OC_ORC_H */
