// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Raw ORC tables of every format version -> struct oc_orc_table, and the
 * detection of the format version.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "orc.h"
#include "orc_abi.h"
#include "strutil.h"

const char *oc_orc_version_name(enum oc_orc_version v)
{
	switch (v) {
	case OC_ORC_V_4_14:
		return "4.14";
	case OC_ORC_V_4_18:
		return "4.18";
	case OC_ORC_V_6_3:
		return "6.3";
	case OC_ORC_V_6_4:
		return "6.4";
	case OC_ORC_V_6_4_AX:
		return "6.4+ax";
	case OC_ORC_V_7_1:
		return "7.1";
	case OC_ORC_V_UNKNOWN:
		break;
	}
	return "unknown";
}

static enum orc_abi_layout layout_of(enum oc_orc_version v)
{
	switch (v) {
	case OC_ORC_V_4_14:
		return ORC_ABI_LAYOUT_4_14;
	case OC_ORC_V_4_18:
		return ORC_ABI_LAYOUT_4_18;
	case OC_ORC_V_6_3:
		return ORC_ABI_LAYOUT_6_3;
	default:
		return ORC_ABI_LAYOUT_6_4;
	}
}

/* On-disk register number -> enum oc_orc_reg, for @v. */
static uint8_t norm_reg(enum oc_orc_version v, unsigned int r)
{
	if (v == OC_ORC_V_7_1) {
		switch (r) {
		case ORC_ABI7_REG_UNDEFINED:
			return OC_ORC_REG_UNDEFINED;
		case ORC_ABI7_REG_AX:
			return OC_ORC_REG_AX;
		case ORC_ABI7_REG_DX:
			return OC_ORC_REG_DX;
		case ORC_ABI7_REG_SP:
			return OC_ORC_REG_SP;
		case ORC_ABI7_REG_BP:
			return OC_ORC_REG_BP;
		case ORC_ABI7_REG_DI:
			return OC_ORC_REG_DI;
		case ORC_ABI7_REG_R10:
			return OC_ORC_REG_R10;
		case ORC_ABI7_REG_R13:
			return OC_ORC_REG_R13;
		case ORC_ABI7_REG_PREV_SP:
			return OC_ORC_REG_PREV_SP;
		case ORC_ABI7_REG_SP_INDIRECT:
			return OC_ORC_REG_SP_INDIRECT;
		case ORC_ABI7_REG_BP_INDIRECT:
			return OC_ORC_REG_BP_INDIRECT;
		default:
			return OC_ORC_REG_BAD;
		}
	}
	switch (r) {
	case ORC_ABI_REG_UNDEFINED:
		return OC_ORC_REG_UNDEFINED;
	case ORC_ABI_REG_PREV_SP:
		return OC_ORC_REG_PREV_SP;
	case ORC_ABI_REG_DX:
		return OC_ORC_REG_DX;
	case ORC_ABI_REG_DI:
		return OC_ORC_REG_DI;
	case ORC_ABI_REG_BP:
		return OC_ORC_REG_BP;
	case ORC_ABI_REG_SP:
		return OC_ORC_REG_SP;
	case ORC_ABI_REG_R10:
		return OC_ORC_REG_R10;
	case ORC_ABI_REG_R13:
		return OC_ORC_REG_R13;
	case ORC_ABI_REG_BP_INDIRECT:
		return OC_ORC_REG_BP_INDIRECT;
	case ORC_ABI_REG_SP_INDIRECT:
		return OC_ORC_REG_SP_INDIRECT;
	case ORC_ABI_REG_AX:
		return v == OC_ORC_V_6_4_AX ? OC_ORC_REG_AX : OC_ORC_REG_BAD;
	default:
		return OC_ORC_REG_BAD;
	}
}

/*
 * The raw type field's meaning: 6.4+ (arch/x86/include/asm/orc_types.h
 * after commit fb799447ae29, UNDEFINED 0 and END_OF_STACK its own type)
 * and before.  A value not listed is the kernel's "unknown .orc_unwind
 * entry type": undefined, an error.
 */
static const enum oc_orc_type types_6_4[] = {
	[ORC_ABI_TYPE_UNDEFINED] = OC_ORC_TYPE_UNDEFINED,
	[ORC_ABI_TYPE_END_OF_STACK] = OC_ORC_TYPE_END_OF_STACK,
	[ORC_ABI_TYPE_CALL] = OC_ORC_TYPE_CALL,
	[ORC_ABI_TYPE_REGS] = OC_ORC_TYPE_REGS,
	[ORC_ABI_TYPE_REGS_PARTIAL] = OC_ORC_TYPE_REGS_PARTIAL,
};
static const enum oc_orc_type types_old[] = {
	[ORC_ABI_OLD_TYPE_CALL] = OC_ORC_TYPE_CALL,
	[ORC_ABI_OLD_TYPE_REGS] = OC_ORC_TYPE_REGS,
	[ORC_ABI_OLD_TYPE_REGS_PARTIAL] = OC_ORC_TYPE_REGS_PARTIAL,
};

static enum oc_orc_type type_of(const enum oc_orc_type *types, size_t n,
				unsigned int raw)
{
	return raw < n ? types[raw] : OC_ORC_TYPE_UNDEFINED;
}

void oc_orc_entry_decode(enum oc_orc_version version, const void *raw,
			 struct oc_orc_entry *ret)
{
	struct orc_abi_raw r;

	orc_abi_decode(raw, layout_of(version), &r);
	memset(ret, 0, sizeof(*ret));
	ret->sp_offset = r.sp_offset;
	ret->bp_offset = r.bp_offset;
	ret->sp_reg = norm_reg(version, r.sp_reg);
	ret->bp_reg = norm_reg(version, r.bp_reg);
	ret->raw_sp_reg = (uint8_t)r.sp_reg;
	ret->raw_bp_reg = (uint8_t)r.bp_reg;
	ret->raw_type = (uint8_t)r.type;
	ret->end = r.end;

	if (version >= OC_ORC_V_6_4) {
		/* 6.4+: the type says it all; UNDEFINED is 0, 5..7 unknown */
		ret->type = type_of(types_6_4, sizeof(types_6_4) /
				    sizeof(types_6_4[0]), r.type);
		ret->signal = r.signal;
		return;
	}

	ret->type = type_of(types_old, sizeof(types_old) / sizeof(types_old[0]),
			    r.type);
	/*
	 * Before 6.4 sp_reg UNDEFINED ended the walk: 4.14 always ("End-of-
	 * stack check for kernel threads"), 4.18+ only with `end` set, else
	 * it is an error.
	 */
	if (r.sp_reg == ORC_ABI_REG_UNDEFINED) {
		if (version == OC_ORC_V_4_14 || r.end)
			ret->type = OC_ORC_TYPE_END_OF_STACK;
		else
			ret->type = OC_ORC_TYPE_UNDEFINED;
	}
	if (version == OC_ORC_V_6_3)
		ret->signal = r.signal;
	else
		/* pre-6.3 unwind_next_frame(): REGS and REGS_PARTIAL set
		 * state->signal = true, CALL clears it */
		ret->signal = ret->type == OC_ORC_TYPE_REGS ||
			      ret->type == OC_ORC_TYPE_REGS_PARTIAL;
}

bool oc_orc_entry_is_weak(enum oc_orc_version version,
			  const struct oc_orc_entry *e)
{
	/* 4.14 orc_sort_cmp(): sp_reg == ORC_REG_UNDEFINED;
	 * 4.18-6.3: sp_reg == UNDEFINED && !end; 6.4+: type UNDEFINED */
	if (version == OC_ORC_V_4_14)
		return e->sp_reg == OC_ORC_REG_UNDEFINED;
	return e->type == OC_ORC_TYPE_UNDEFINED;
}

struct sort_item {
	uint64_t ip;
	size_t idx;
	bool weak;
};

static int sort_cmp(const void *pa, const void *pb)
{
	const struct sort_item *a = pa, *b = pb;

	if (a->ip != b->ip)
		return a->ip < b->ip ? -1 : 1;
	if (a->weak != b->weak)
		return a->weak ? -1 : 1;
	/* stable: keep the table's order among equals */
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static struct oc_error *sort_table(struct oc_orc_table *tab)
{
	struct sort_item *items;
	uint64_t *ips;
	struct oc_orc_entry *entries;

	items = malloc(tab->nr * sizeof(*items));
	ips = malloc(tab->nr * sizeof(*ips));
	entries = malloc(tab->nr * sizeof(*entries));
	if (!items || !ips || !entries) {
		free(items);
		free(ips);
		free(entries);
		return &oc_enomem;
	}
	for (size_t i = 0; i < tab->nr; i++) {
		items[i].ip = tab->ips[i];
		items[i].idx = i;
		items[i].weak = oc_orc_entry_is_weak(tab->version,
						     &tab->entries[i]);
	}
	qsort(items, tab->nr, sizeof(*items), sort_cmp);
	for (size_t i = 0; i < tab->nr; i++) {
		ips[i] = items[i].ip;
		entries[i] = tab->entries[items[i].idx];
	}
	free(items);
	free(tab->ips);
	free(tab->entries);
	tab->ips = ips;
	tab->entries = entries;
	return NULL;
}

static struct oc_error *parse(struct oc_orc_table *tab,
			      enum oc_orc_version version, uint64_t ip_addr,
			      const void *ip_data, size_t ip_len,
			      const void *orc_data, size_t orc_len,
			      bool borrow);

struct oc_error *oc_orc_table_parse(struct oc_orc_table *tab,
				    enum oc_orc_version version,
				    uint64_t ip_addr, const void *ip_data,
				    size_t ip_len, const void *orc_data,
				    size_t orc_len)
{
	return parse(tab, version, ip_addr, ip_data, ip_len, orc_data,
		     orc_len, false);
}

struct oc_error *oc_orc_table_parse_borrowed(struct oc_orc_table *tab,
					     enum oc_orc_version version,
					     uint64_t ip_addr,
					     const void *ip_data, size_t ip_len,
					     const void *orc_data,
					     size_t orc_len)
{
	return parse(tab, version, ip_addr, ip_data, ip_len, orc_data,
		     orc_len, true);
}

/*
 * Whether the nr ips at @ip_data (orc_ip()'s, @ip_addr their first's
 * address) ascend, as a table sorted at build time does (the kernel's
 * scripts/sorttable since 5.6).  orc_abi_ip() inline, not a call of
 * oc_orc_table_ip() per entry: the check reads a vmlinux's 370,000 at
 * every open.
 */
static bool ips_sorted(const void *ip_data, uint64_t ip_addr, size_t nr)
{
	uint64_t prev = orc_abi_ip(ip_data, ip_addr, 0);

	for (size_t i = 1; i < nr; i++) {
		uint64_t ip = orc_abi_ip(ip_data, ip_addr, i);

		if (ip < prev)
			return false;
		prev = ip;
	}
	return true;
}

static struct oc_error *parse(struct oc_orc_table *tab,
			      enum oc_orc_version version, uint64_t ip_addr,
			      const void *ip_data, size_t ip_len,
			      const void *orc_data, size_t orc_len,
			      bool borrow)
{
	size_t nr;
	bool sorted;
	struct oc_error *err;

	oc_orc_table_deinit(tab);
	if (version == OC_ORC_V_UNKNOWN || version > OC_ORC_V_7_1)
		return oc_error_format(OC_ERR_INVALID,
				       "unknown ORC format version %d",
				       (int)version);
	if (ip_len % ORC_ABI_IP_SIZE)
		return oc_error_format(OC_ERR_FORMAT,
				       ".orc_unwind_ip size %zu is not a multiple of %d",
				       ip_len, ORC_ABI_IP_SIZE);
	if (orc_len % ORC_ABI_ENTRY_SIZE)
		return oc_error_format(OC_ERR_FORMAT,
				       ".orc_unwind size %zu is not a multiple of %d",
				       orc_len, ORC_ABI_ENTRY_SIZE);
	nr = ip_len / ORC_ABI_IP_SIZE;
	if (nr != orc_len / ORC_ABI_ENTRY_SIZE)
		return oc_error_format(OC_ERR_FORMAT,
				       "ORC tables disagree: %zu ips, %zu entries",
				       nr, orc_len / ORC_ABI_ENTRY_SIZE);
	if (nr && (!ip_data || !orc_data))
		return oc_error_format(OC_ERR_INVALID, "ORC table without data");
	if (nr > UINT32_MAX)
		return oc_error_format(OC_ERR_FORMAT,
				       "ORC table of %zu entries is too large",
				       nr);
	tab->version = version;
	if (!nr)
		return NULL;
	tab->nr = nr;
	tab->ip_raw = ip_data;
	tab->ip_addr = ip_addr;
	sorted = ips_sorted(ip_data, ip_addr, nr);
	if (sorted && borrow) {
		/* ips and entries read on lookup (oc_orc_table_ip(),
		 * oc_orc_table_entry()), where they are */
		tab->raw = orc_data;
	} else if (sorted) {
		tab->ip_owned = malloc(ip_len);
		tab->raw_owned = oc_malloc_big(orc_len);
		if (!tab->ip_owned || !tab->raw_owned) {
			oc_orc_table_deinit(tab);
			return &oc_enomem;
		}
		memcpy(tab->ip_owned, ip_data, ip_len);
		memcpy(tab->raw_owned, orc_data, orc_len);
		tab->ip_raw = tab->ip_owned;
		tab->raw = tab->raw_owned;
	} else {
		/* what the kernel sorted in place (unwind_module_init(), and
		 * unwind_init() before 5.6), sorted here with absolute ips:
		 * a moved entry's s32 would be relative to another slot */
		uint64_t *ips = oc_malloc_big(nr * sizeof(*ips));

		tab->entries = malloc(nr * sizeof(*tab->entries));
		if (!ips || !tab->entries) {
			free(ips);
			oc_orc_table_deinit(tab);
			return &oc_enomem;
		}
		for (size_t i = 0; i < nr; i++) {
			ips[i] = oc_orc_table_ip(tab, i);
			oc_orc_entry_decode(version,
					    (const uint8_t *)orc_data +
						    ORC_ABI_ENTRY_SIZE * i,
					    &tab->entries[i]);
		}
		tab->ips = ips;
		tab->ip_raw = NULL;
		err = sort_table(tab);
		if (err) {
			oc_orc_table_deinit(tab);
			return err;
		}
	}
	err = oc_orc_table_build_lookup(tab);
	if (err)
		oc_orc_table_deinit(tab);
	return err;
}

/* Known ORC_HASH values (scripts/orc_hash.sh: sha1 of the #define
 * ORC_(REG|TYPE)_ lines and struct orc_entry of orc_types.h). */
static const struct {
	uint8_t hash[ORC_ABI_HASH_SIZE];
	enum oc_orc_version version;
	const char *what;
} orc_hashes[] = {
	{ /* fe5d32bf581bd63b2ca9a5c65ba5a625eab3fe24: read from Debian's
	     6.12.118 vmlinux and recomputed from v6.4's orc_types.h */
	  { 0xfe, 0x5d, 0x32, 0xbf, 0x58, 0x1b, 0xd6, 0x3b, 0x2c, 0xa9,
	    0xa5, 0xc6, 0x5b, 0xa5, 0xa6, 0x25, 0xea, 0xb3, 0xfe, 0x24 },
	  OC_ORC_V_6_4, "6.4 .. 7.0" },
	{ /* edfa4d15552fdd2e1d56679728416379f2fe4534: v6.4 file plus
	     "#define ORC_REG_AX 10" (commit 96f3b16a9de5) */
	  { 0xed, 0xfa, 0x4d, 0x15, 0x55, 0x2f, 0xdd, 0x2e, 0x1d, 0x56,
	    0x67, 0x97, 0x28, 0x41, 0x63, 0x79, 0xf2, 0xfe, 0x45, 0x34 },
	  OC_ORC_V_6_4_AX, "ORC_REG_AX 10" },
	{ /* 137c36ad7627c4dd55932176bb0ecdbd5041fc82: renumbered registers,
	     struct unchanged */
	  { 0x13, 0x7c, 0x36, 0xad, 0x76, 0x27, 0xc4, 0xdd, 0x55, 0x93,
	    0x21, 0x76, 0xbb, 0x0e, 0xcd, 0xbd, 0x50, 0x41, 0xfc, 0x82 },
	  OC_ORC_V_7_1, "renumbered registers" },
};

bool oc_orc_release_code(const char *release, unsigned int *ret)
{
	unsigned int a = 0, b = 0, c = 0;
	int n;

	if (!release)
		return false;
	n = sscanf(release, "%u.%u.%u", &a, &b, &c);
	if (n < 2 || a > 255 || b > 255)
		return false;
	if (n < 3 || c > 255)
		c = n < 3 ? 0 : 255;
	*ret = a << 16 | b << 8 | c;
	return true;
}

#define KV(a, b) ((unsigned int)(a) << 16 | (unsigned int)(b) << 8)

bool oc_orc_sp_indirect_deref_first(const char *release)
{
	unsigned int v;

	if (!oc_orc_release_code(release, &v))
		return true;
	return v >= KV(5, 12);
}

bool oc_orc_has_fp_fallback(const char *release)
{
	unsigned int v;

	if (!oc_orc_release_code(release, &v))
		return true;
	return v >= KV(6, 1);
}

struct oc_error *oc_orc_detect_version(const void *orc_header,
				       size_t header_len, const char *release,
				       enum oc_orc_version *ret)
{
	unsigned int v;

	if (orc_header && header_len) {
		char hex[2 * ORC_ABI_HASH_SIZE + 1];

		if (header_len != ORC_ABI_HASH_SIZE)
			return oc_error_format(OC_ERR_FORMAT,
					       ".orc_header is %zu bytes, not %d",
					       header_len, ORC_ABI_HASH_SIZE);
		for (size_t i = 0;
		     i < sizeof(orc_hashes) / sizeof(orc_hashes[0]); i++) {
			if (!memcmp(orc_header, orc_hashes[i].hash,
				    ORC_ABI_HASH_SIZE)) {
				*ret = orc_hashes[i].version;
				return NULL;
			}
		}
		oc_hex_string(orc_header, ORC_ABI_HASH_SIZE, hex, sizeof(hex));
		return oc_error_format(OC_ERR_UNSUPPORTED,
				       "unknown ORC format: .orc_header hash %s",
				       hex);
	}
	if (!oc_orc_release_code(release, &v))
		return oc_error_format(OC_ERR_UNSUPPORTED,
				       "no .orc_header and no usable kernel release (%s) to tell the ORC format",
				       release ? release : "none");
	if (v < KV(4, 14))
		return oc_error_format(OC_ERR_UNSUPPORTED,
				       "kernel %s predates the ORC unwinder (4.14)",
				       release);
	if (v < KV(4, 18))
		*ret = OC_ORC_V_4_14;
	else if (v < KV(6, 3))
		*ret = OC_ORC_V_4_18;
	else if (v < KV(6, 4))
		*ret = OC_ORC_V_6_3;
	else
		return oc_error_format(OC_ERR_FORMAT,
				       "kernel %s (6.4+) must have an .orc_header section",
				       release);
	return NULL;
}
