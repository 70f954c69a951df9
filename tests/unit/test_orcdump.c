// SPDX-License-Identifier: GPL-2.0-or-later
/* orc-dump line formats, per objtool version (lines taken from objtool
 * --dump=orc on Debian's 6.1 and 6.12 vmlinux). */
#include "orc.h"
#include "orc_abi.h"
#include "orc_entries.h"
#include "orcdump.h"
#include "test.h"

static char *dump_line(enum oc_orc_version v, bool deref_first,
		       const char *loc, const uint8_t raw[6])
{
	struct oc_orcdump_style style = { v, deref_first };
	struct oc_orc_entry e;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	oc_orc_entry_decode(v, raw, &e);
	oc_orcdump_entry(f, &style, loc, &e);
	fclose(f);
	return buf;
}

/* One entry and the line objtool prints for it. */
struct dump_case {
	enum oc_orc_version v;
	bool deref_first;
	const char *loc;
	const uint8_t *raw;
	const char *want;
};

static void check_lines(const struct dump_case *cases, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		const struct dump_case *c = &cases[i];
		char *line = dump_line(c->v, c->deref_first, c->loc, c->raw);

		CHECK_STR(line, c->want);
		free(line);
	}
}

TEST(orcdump_61_format)
{
	static const uint8_t partial[6] = { 16, 0, 0, 0, 0x05, 0x02 };
	static const uint8_t spind[6] = { 16, 0, 0, 0, 0x09, 0x00 };
	static const uint8_t bpind[6] = { 0xd8, 0xff, 0, 0, 0x48, 0x00 };
	static const uint8_t bad[6] = { 8, 0, 0, 0, 0x0c, 0x01 };
	static const uint8_t call[6] = { 8, 0, 0, 0, 0x05, 0x00 };
	static const struct dump_case cases[] = {
		{ OC_ORC_V_4_18, true, ".text+70", call,
		  ".text+70: sp:sp+8 bp:(und) type:call end:0\n" },
		{ OC_ORC_V_4_18, true, ".text+1b50", orc_end_61,
		  ".text+1b50: sp:(und) bp:(und) type:call end:1\n" },
		{ OC_ORC_V_4_18, true, ".text+2c0", partial,
		  ".text+2c0: sp:sp+16 bp:(und) type:regs (partial) end:0\n" },
		{ OC_ORC_V_4_18, true, ".text+99", orc_fp_61,
		  ".text+99: sp:bp+16 bp:prevsp-16 type:call end:0\n" },
		{ OC_ORC_V_4_18, true, ".text+11510", spind,
		  ".text+11510: sp:(sp)+16 bp:(und) type:call end:0\n" },
		/* before 5.12 objtool printed *(sp+off) as "(sp+16)" */
		{ OC_ORC_V_4_18, false, "x", spind,
		  "x: sp:(sp+16) bp:(und) type:call end:0\n" },
		{ OC_ORC_V_4_18, true, "x", bpind,
		  "x: sp:(bp-40) bp:bp+0 type:call end:0\n" },
		{ OC_ORC_V_4_18, true, "x", bad,
		  "x: sp:?+8 bp:(und) type:regs end:0\n" },
		{ OC_ORC_V_4_14, false, "x", partial,
		  "x: sp:sp+16 bp:(und) type:iret\n" },
	};

	check_lines(cases, sizeof(cases) / sizeof(cases[0]));
}

TEST(orcdump_612_format)
{
	static const uint8_t undef[6] = { 0, 0, 0, 0, 0x00, 0x00 };
	static const uint8_t end[6] = { 0, 0, 0, 0, 0x00, 0x01 };
	static const uint8_t prevsp[6] = { 24, 0, 0xe8, 0xff, 0x15, 0x02 };
	static const uint8_t ax[6] = { 0, 0, 0, 0, 0x0a, 0x02 };
	/* 7.1 numbering: 3 is SP, 8 PREV_SP */
	static const uint8_t v71[6] = { 24, 0, 0xe8, 0xff, 0x83, 0x02 };
	static const struct dump_case cases[] = {
		{ OC_ORC_V_6_4, true, "ffffffff81000000", orc_call_612,
		  "ffffffff81000000:type:call sp:sp+8 bp:(und) signal:0\n" },
		{ OC_ORC_V_6_4, true, "ffffffff81000032", undef,
		  "ffffffff81000032:type:(und) sp:(und) bp:(und) signal:0\n" },
		{ OC_ORC_V_6_4, true, "x", end,
		  "x:type:end sp:(und) bp:(und) signal:0\n" },
		{ OC_ORC_V_6_4, true, "x", orc_partial_612,
		  "x:type:regs (partial) sp:dx+8 bp:(und) signal:1\n" },
		{ OC_ORC_V_6_4, true, "ffffffff81000056", prevsp,
		  "ffffffff81000056:type:call sp:sp+24 bp:prevsp-24 signal:0\n" },
		{ OC_ORC_V_6_4, true, "x", ax,
		  "x:type:call sp:?+0 bp:(und) signal:0\n" },
		{ OC_ORC_V_6_4_AX, true, "x", ax,
		  "x:type:call sp:ax+0 bp:(und) signal:0\n" },
		{ OC_ORC_V_7_1, true, "x", v71,
		  "x:type:call sp:sp+24 bp:prevsp-24 signal:0\n" },
		{ OC_ORC_V_6_3, true, "x", orc_partial_612,
		  "x: sp:dx+8 bp:(und) type:call signal:1 end:1\n" },
	};

	check_lines(cases, sizeof(cases) / sizeof(cases[0]));
}

static bool resolve(void *arg, uint64_t addr, char *buf, size_t size)
{
	if (addr < 0xffffffff81000010ull)
		return false;
	snprintf(buf, size, "func+%llx",
		 (unsigned long long)(addr - 0xffffffff81000010ull));
	return true;
}

TEST(orcdump_table_with_resolver)
{
	/* two entries at 0xffffffff81000000 and ...20 */
	uint8_t ip[8], orc[12];
	uint32_t r0 = (uint32_t)(0xffffffff81000000ull - 0xffffffff82000000ull);
	uint32_t r1 = (uint32_t)(0xffffffff81000020ull - 0xffffffff82000004ull);
	struct oc_orc_table tab;
	struct oc_orcdump_style style = { OC_ORC_V_6_4, true };
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	memcpy(ip, &r0, 4);
	memcpy(ip + 4, &r1, 4);
	memcpy(orc, orc_call_612, 6);
	memcpy(orc + 6, orc_call_612, 6);
	oc_orc_table_init(&tab);
	CHECK_OK(oc_orc_table_parse(&tab, OC_ORC_V_6_4, 0xffffffff82000000ull,
				    ip, 8, orc, 12));
	f = open_memstream(&buf, &len);
	CHECK_OK(oc_orcdump_table(&tab, &style, resolve, NULL, f));
	fclose(f);
	CHECK_STR(buf,
		  "ffffffff81000000:type:call sp:sp+8 bp:(und) signal:0\n"
		  "func+10:type:call sp:sp+8 bp:(und) signal:0\n");
	free(buf);
	oc_orc_table_deinit(&tab);
}

TEST(orcdump_missing_file)
{
	struct oc_error *err = oc_orcdump_elf("/nonexistent/vmlinux", stdout);

	CHECK(err && err->code == OC_ERR_OS);
	oc_error_destroy(err);
}
