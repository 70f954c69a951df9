// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * orc-dump: objtool's --dump=orc output, byte for byte, for each ORC
 * generation.  Formats (tools/objtool/orc_dump.c, arch/x86/orc.c):
 *
 *   4.14:      "LOC: sp:R bp:R type:T"             types call/regs/iret
 *   4.18-6.2:  "LOC: sp:R bp:R type:T end:E"       (6.1: regs (partial))
 *   6.3:       "LOC: sp:R bp:R type:T signal:S end:E"
 *   6.4+:      "LOC:type:T sp:R bp:R signal:S"     types (und)/end/...
 *
 * The 6.1 and 6.12 forms are checked against objtool itself
 * (tests/orcdump/run.sh); the 6.3 one against the objtool patch that
 * added "signal:%d" (ffb1b4a41016), 4.14's against its orc_dump.c.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "orc_abi.h"
#include "orc_elf.h"
#include "orcdump.h"
#include "strutil.h"

static const char *reg_name(uint8_t reg)
{
	switch (reg) {
	case OC_ORC_REG_PREV_SP:
		return "prevsp";
	case OC_ORC_REG_DX:
		return "dx";
	case OC_ORC_REG_DI:
		return "di";
	case OC_ORC_REG_BP:
		return "bp";
	case OC_ORC_REG_SP:
		return "sp";
	case OC_ORC_REG_R10:
		return "r10";
	case OC_ORC_REG_R13:
		return "r13";
	case OC_ORC_REG_BP_INDIRECT:
		return "bp(ind)";
	case OC_ORC_REG_SP_INDIRECT:
		return "sp(ind)";
	case OC_ORC_REG_AX:
		return "ax";
	default:
		return "?";
	}
}

static void print_reg(FILE *out, const struct oc_orcdump_style *style,
		      uint8_t reg, int offset)
{
	if (reg == OC_ORC_REG_BP_INDIRECT)
		fprintf(out, "(bp%+d)", offset);
	else if (reg == OC_ORC_REG_SP_INDIRECT)
		/* objtool follows the 5.12 meaning change */
		fprintf(out, style->sp_indirect_deref_first ? "(sp)%+d"
							    : "(sp%+d)",
			offset);
	else if (reg == OC_ORC_REG_UNDEFINED)
		fputs("(und)", out);
	else
		fprintf(out, "%s%+d", reg_name(reg), offset);
}

static const char *type_name(enum oc_orc_version v, unsigned int raw)
{
	if (v >= OC_ORC_V_6_4) {
		switch (raw) {
		case ORC_ABI_TYPE_UNDEFINED:
			return "(und)";
		case ORC_ABI_TYPE_END_OF_STACK:
			return "end";
		case ORC_ABI_TYPE_CALL:
			return "call";
		case ORC_ABI_TYPE_REGS:
			return "regs";
		case ORC_ABI_TYPE_REGS_PARTIAL:
			return "regs (partial)";
		default:
			return "?";
		}
	}
	switch (raw) {
	case ORC_ABI_OLD_TYPE_CALL:
		return "call";
	case ORC_ABI_OLD_TYPE_REGS:
		return "regs";
	case ORC_ABI_OLD_TYPE_REGS_PARTIAL:
		return v == OC_ORC_V_4_14 ? "iret" : "regs (partial)";
	default:
		return "?";
	}
}

void oc_orcdump_entry(FILE *out, const struct oc_orcdump_style *style,
		      const char *loc, const struct oc_orc_entry *e)
{
	enum oc_orc_version v = style->version;

	if (v >= OC_ORC_V_6_4) {
		fprintf(out, "%s:type:%s sp:", loc, type_name(v, e->raw_type));
		print_reg(out, style, e->sp_reg, e->sp_offset);
		fputs(" bp:", out);
		print_reg(out, style, e->bp_reg, e->bp_offset);
		fprintf(out, " signal:%d\n", e->signal);
		return;
	}
	fprintf(out, "%s: sp:", loc);
	print_reg(out, style, e->sp_reg, e->sp_offset);
	fputs(" bp:", out);
	print_reg(out, style, e->bp_reg, e->bp_offset);
	fprintf(out, " type:%s", type_name(v, e->raw_type));
	if (v == OC_ORC_V_6_3)
		fprintf(out, " signal:%d end:%d\n", e->signal, e->end);
	else if (v == OC_ORC_V_4_18)
		fprintf(out, " end:%d\n", e->end);
	else
		fputc('\n', out);
}

struct oc_error *oc_orcdump_table(const struct oc_orc_table *tab,
				  const struct oc_orcdump_style *style,
				  oc_orcdump_resolve_fn resolve, void *arg,
				  FILE *out)
{
	for (size_t i = 0; i < tab->nr; i++) {
		uint64_t ip = oc_orc_table_ip(tab, i);
		struct oc_orc_entry e;
		char loc[256];

		if (!resolve || !resolve(arg, ip, loc, sizeof(loc)))
			snprintf(loc, sizeof(loc), "%" PRIx64, ip);
		oc_orc_table_entry(tab, i, &e);
		oc_orcdump_entry(out, style, loc, &e);
	}
	if (ferror(out))
		return oc_error_format(OC_ERR_OS, "writing the ORC dump failed");
	return NULL;
}

struct oc_error *oc_orcdump_elf(const char *path, FILE *out)
{
	struct oc_orc_elf *e;
	const struct oc_orc_elf_info *info;
	struct oc_orcdump_style style;
	struct oc_error *err;
	size_t nr;

	err = oc_orc_elf_open(path, &e);
	if (err)
		return err;
	info = oc_orc_elf_info(e);
	err = oc_orc_detect_version(info->header, info->header_len,
				    info->release[0] ? info->release : NULL,
				    &style.version);
	if (err) {
		err = oc_error_set_path(err, path);
		goto out;
	}
	style.sp_indirect_deref_first =
		style.version >= OC_ORC_V_6_4 ||
		oc_orc_sp_indirect_deref_first(info->release);

	/* objtool: "bad .orc_unwind section size" */
	if (info->orc_len % ORC_ABI_ENTRY_SIZE) {
		err = oc_error_file(OC_ERR_FORMAT, path,
				    "bad .orc_unwind section size %zu",
				    info->orc_len);
		goto out;
	}
	nr = info->orc_len / ORC_ABI_ENTRY_SIZE;
	if (info->ip_len / ORC_ABI_IP_SIZE < nr ||
	    (info->nr_rela && info->nr_rela < nr)) {
		err = oc_error_file(OC_ERR_FORMAT, path,
				    ".orc_unwind_ip is shorter than .orc_unwind (%zu entries)",
				    nr);
		goto out;
	}
	/* file order, like objtool: no sorting */
	for (size_t i = 0; i < nr; i++) {
		struct oc_orc_entry ent;
		char loc[256];

		if (info->nr_rela) {
			const char *name;
			int64_t addend;

			err = oc_orc_elf_rela(e, i, &name, &addend);
			if (err)
				goto out;
			char ename[192];

			/* a section or symbol name of the file: escaped */
			snprintf(loc, sizeof(loc), "%s+%llx",
				 oc_esc(ename, sizeof(ename), name, 0),
				 (unsigned long long)addend);
		} else {
			snprintf(loc, sizeof(loc), "%llx",
				 (unsigned long long)orc_abi_ip(info->ip_data,
								info->ip_addr, i));
		}
		oc_orc_entry_decode(style.version,
				    (const uint8_t *)info->orc_data +
					    ORC_ABI_ENTRY_SIZE * i,
				    &ent);
		oc_orcdump_entry(out, &style, loc, &ent);
	}
	if (ferror(out))
		err = oc_error_file(OC_ERR_OS, path, "writing the ORC dump failed");
out:
	oc_orc_elf_close(e);
	return err;
}
