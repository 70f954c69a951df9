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
	OC_ORC_V_6_4_AX, /* 6.4 numbering + ORC_REG_AX 10 (96f3b16a9de5) */
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

/*
 * One entry, whatever the format.  Before 6.4 an entry with sp_reg
 * UNDEFINED was the end marker (4.14: always; 4.18-6.3: when `end` is
 * set, else an undefined "weak" entry); it is normalised here to type
 * END_OF_STACK or UNDEFINED so that the walker has one rule.  Before 6.3
 * `signal` is derived the way the kernel derived it: REGS and
 * REGS_PARTIAL frames are signal frames.
 */
struct oc_orc_entry {
	int16_t sp_offset;
	int16_t bp_offset;
	uint8_t sp_reg;		/* enum oc_orc_reg */
	uint8_t bp_reg;		/* enum oc_orc_reg */
	uint8_t type;		/* enum oc_orc_type */
	bool signal;		/* ip after this frame is exact, not ret-1 */
	bool end;		/* pre-6.4 end bit, kept for orc-dump */
	uint8_t raw_type;	/* the on-disk type, kept for orc-dump */
	uint8_t raw_sp_reg;	/* the on-disk register numbers, for orc-dump */
	uint8_t raw_bp_reg;
};

struct oc_orc_table {
	/*
	 * The ips, ascending (oc_orc_table_ip() reads either form).  A
	 * table sorted as it was read (a vmlinux's since 5.6, sorted by
	 * scripts/sorttable; a module's, sorted by the kernel at load)
	 * keeps its .orc_unwind_ip bytes, each s32 relative to its own
	 * address as the kernel's orc_ip() reads them: ip i is ip_addr +
	 * 4 * i + s32 i, ip_addr the section's address plus any
	 * relocation.  An array of 64-bit ips would be twice the bytes
	 * (3.6 MB for the vmlinux's ~450,000 entries), all of it fresh
	 * memory, where the section is the vmlinux file's page cache.
	 * An unsorted table: ips, absolute, in the order it was sorted to.
	 */
	const uint8_t *ip_raw;
	uint8_t *ip_owned;	/* ip_raw, when it is the table's copy */
	uint64_t ip_addr;
	uint64_t *ips;
	/* the entries, decoded (oc_orc_table_entry() reads either form);
	 * or, for a table sorted as it was read (a vmlinux's, since 5.6),
	 * their on-disk bytes, ORC_ABI_ENTRY_SIZE each, decoded on lookup:
	 * a lookup touches a few of the ~400,000, an open decoded them all */
	struct oc_orc_entry *entries;
	const uint8_t *raw;
	uint8_t *raw_owned;	/* raw, when it is the table's copy */
	size_t nr;
	enum oc_orc_version version;
	/* direct index over [lookup_start, lookup_stop), a slot per
	 * LOOKUP_BLOCK_SIZE, filled on first use (src/orc.c): read it with
	 * oc_orc_table_lookup_at() */
	uint32_t *lookup;
	size_t lookup_blocks;
	uint64_t lookup_start;
	/* the text range the index covers (the kernel's _stext.._etext);
	 * by default the table's own [first ip, last ip] */
	uint64_t lookup_stop;
	bool lookup_range_set;
};

enum { OC_ORC_LOOKUP_BLOCK_SIZE = 256 };	/* the kernel's LOOKUP_BLOCK_SIZE */

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
/* The same, but a sorted table's ips and entries stay at @ip_data and
 * @orc_data, not copied: the caller keeps them until
 * oc_orc_table_deinit() (the vmlinux's .orc_unwind_ip and .orc_unwind,
 * mapped by libelf while the model lives). */
struct oc_error *oc_orc_table_parse_borrowed(struct oc_orc_table *tab,
					     enum oc_orc_version version,
					     uint64_t ip_addr,
					     const void *ip_data, size_t ip_len,
					     const void *orc_data,
					     size_t orc_len);
/* Add @delta to every ip (KASLR); keeps or rebuilds the lookup index. */
void oc_orc_table_relocate(struct oc_orc_table *tab, uint64_t delta);
/*
 * Cover [start, stop) with the direct index, like the kernel's
 * LOOKUP_START_IP/LOOKUP_STOP_IP (_stext/_etext).  Addresses outside fall
 * back to a binary search over the whole table; results are the same.
 * Optional (relocated together with the table).
 */
struct oc_error *oc_orc_table_set_lookup_range(struct oc_orc_table *tab,
					       uint64_t start, uint64_t stop);

/* (Re)make the direct index after the ips changed, every block to be
 * filled on first use; parse and relocate call it. */
struct oc_error *oc_orc_table_build_lookup(struct oc_orc_table *tab);

/* Decode one raw 6-byte entry of @version into the normalised form. */
void oc_orc_entry_decode(enum oc_orc_version version, const void *raw,
			 struct oc_orc_entry *ret);
/* The kernel's sort rule: "weak" section terminators sort first. */
bool oc_orc_entry_is_weak(enum oc_orc_version version,
			  const struct oc_orc_entry *e);

/* The ip of entry @i (< tab->nr), relocated. */
uint64_t oc_orc_table_ip(const struct oc_orc_table *tab, size_t i);

/* Block @i (< tab->lookup_blocks) of the direct index: the first entry
 * of its range, as the kernel's orc_lookup[i] (filled now if it was
 * not; safe from several threads). */
uint32_t oc_orc_table_lookup_at(const struct oc_orc_table *tab, size_t i);

/* Entry @i (< tab->nr), decoded. */
void oc_orc_table_entry(const struct oc_orc_table *tab, size_t i,
			struct oc_orc_entry *ret);

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

/*
 * Kernel semantics that are not in the table format, by release
 * ("6.1.0-57-cloud-amd64"); an unparsable release answers for the
 * newest kernels.
 *
 * Since 5.12 (commit "x86/unwind/orc: Change REG_SP_INDIRECT")
 * SP_INDIRECT means *(sp) + off; before, *(sp + off).
 */
bool oc_orc_sp_indirect_deref_first(const char *release);
/*
 * Since 6.1 unwind_next_frame() falls back to a frame-pointer guess
 * (orc_fp_entry: prev sp = bp + 16, bp at prev sp - 16) when an ip has no
 * ORC entry, marking the unwind unreliable, instead of stopping (the
 * static orc_fp_entry is in Debian's 6.1 vmlinux).
 */
bool oc_orc_has_fp_fallback(const char *release);
/* Parse "X.Y[.Z]..." into X*65536 + Y*256 + Z; false if unparsable. */
bool oc_orc_release_code(const char *release, unsigned int *ret);

#endif /* OC_ORC_H */
