// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The dump-only readers of src/kernel_nov.c on a synthetic kernel: ORC
 * tables and BTF found through __start_/__stop_ symbols in a symbol
 * table (as kallsyms gives them) and read from memory, at KASLR'd
 * addresses that must not be relocated again.
 */
#include "kmodel.h"
#include "orc_abi.h"
#include "test.h"

static const uint64_t kaslr_text = 0xffffffff9e000000ull;
static const uint64_t tables = 0xffffffff9f400000ull;

struct fake {
	struct oc_kernel k;
	uint8_t *buf;
	struct oc_mem_region region;
	struct oc_mem_buffers bufs;
};

static void fake_init(struct fake *f, const char *release, size_t size)
{
	unsigned int a = 0, b = 0;

	memset(f, 0, sizeof(*f));
	f->buf = calloc(1, size);
	f->region = (struct oc_mem_region){
		.addr = tables, .len = size, .data = f->buf,
	};
	f->bufs = (struct oc_mem_buffers){ .regions = &f->region, .nr = 1 };
	oc_mem_buffers_init(&f->k.mem, &f->bufs);
	oc_symtab_init(&f->k.syms);
	oc_symtab_init(&f->k.percpu_syms);
	oc_orc_table_init(&f->k.orc);
	snprintf(f->k.release, sizeof(f->k.release), "%s", release);
	/* KASLR is already in every address: applying it again is a bug */
	f->k.kaslr_offset = kaslr_text - 0xffffffff81000000ull;
	sscanf(release, "%u.%u", &a, &b);
	f->k.version = OC_KERNEL_VERSION(a, b, 0);
}

static void fake_sym(struct fake *f, const char *name, uint64_t addr)
{
	CHECK_OK(oc_symtab_add(&f->k.syms, name, addr, 'R'));
}

static void fake_free(struct fake *f)
{
	oc_orc_table_deinit(&f->k.orc);
	oc_symtab_deinit(&f->k.syms);
	oc_symtab_deinit(&f->k.percpu_syms);
	oc_types_destroy(f->k.types);
	free(f->buf);
}

enum { NR_ORC = 100 };

/*
 * An ORC table of NR_ORC entries, one per 0x40 bytes of text from
 * kaslr_text, sp_offset 8 * (i + 1); its sections at @at in the image.
 */
static void put_orc(struct fake *f, enum orc_abi_layout layout, size_t at,
		    bool with_header, const uint8_t *hash)
{
	uint64_t ip_sec = tables + at;
	uint64_t orc_sec = ip_sec + NR_ORC * 4;
	uint64_t hdr_sec = orc_sec + NR_ORC * 6 + 2;

	for (int i = 0; i < NR_ORC; i++) {
		int32_t rel = (int32_t)(kaslr_text + 0x40 * i - (ip_sec + 4 * i));
		struct orc_abi_raw e = {
			.sp_offset = (int16_t)(8 * (i + 1)),
			.sp_reg = ORC_ABI_REG_SP,
			.bp_reg = ORC_ABI_REG_UNDEFINED,
			.type = layout == ORC_ABI_LAYOUT_6_4 ?
				ORC_ABI_TYPE_CALL : ORC_ABI_OLD_TYPE_CALL,
		};

		memcpy(f->buf + at + 4 * i, &rel, 4);
		orc_abi_encode(&e, layout, f->buf + (orc_sec - tables) + 6 * i);
	}
	fake_sym(f, "__start_orc_unwind_ip", ip_sec);
	fake_sym(f, "__stop_orc_unwind_ip", orc_sec);
	fake_sym(f, "__start_orc_unwind", orc_sec);
	fake_sym(f, "__stop_orc_unwind", orc_sec + NR_ORC * 6);
	if (with_header) {
		memcpy(f->buf + (hdr_sec - tables), hash, ORC_ABI_HASH_SIZE);
		fake_sym(f, "__start_orc_header", hdr_sec);
		fake_sym(f, "__stop_orc_header", hdr_sec + ORC_ABI_HASH_SIZE);
	}
	CHECK_OK(oc_symtab_finish(&f->k.syms));
}

static void check_orc(struct fake *f)
{
	struct oc_orc_entry e;
	uint64_t at = 0;

	CHECK_EQ(f->k.orc.nr, NR_ORC);
	/* addresses are the running kernel's: no relocation */
	CHECK(oc_orc_table_find(&f->k.orc, kaslr_text + 0x40 * 7 + 5, &e, &at));
	CHECK_EQ(at, kaslr_text + 0x40 * 7);
	CHECK_EQ(e.sp_offset, 8 * 8);
	CHECK_EQ(e.sp_reg, OC_ORC_REG_SP);
	CHECK_EQ(e.type, OC_ORC_TYPE_CALL);
	CHECK(!oc_orc_table_find(&f->k.orc, kaslr_text - 1, &e, NULL));
}

/* read from Debian's 6.12.118 vmlinux .orc_header */
static const uint8_t hash_6_12[ORC_ABI_HASH_SIZE] = {
	0xfe, 0x5d, 0x32, 0xbf, 0x58, 0x1b, 0xd6, 0x3b, 0x2c, 0xa9,
	0xa5, 0xc6, 0x5b, 0xa5, 0xa6, 0x25, 0xea, 0xb3, 0xfe, 0x24,
};

/*
 * A @release kernel with a @layout table (and an .orc_header of @hash
 * unless NULL): read as @version, the whole table, without a warning.
 */
static void check_read(const char *release, enum orc_abi_layout layout,
		       const uint8_t *hash, enum oc_orc_version version)
{
	struct fake f;

	fake_init(&f, release, 65536);
	put_orc(&f, layout, 0x100, hash != NULL, hash);
	CHECK_OK(oc_kmodel_orc_from_memory(&f.k));
	CHECK_EQ(f.k.orc_version, version);
	check_orc(&f);
	CHECK_EQ(f.k.nr_warnings, 0);
	fake_free(&f);
}

TEST(nov_orc_6_1_by_release)
{
	check_read("6.1.0-57-cloud-amd64", ORC_ABI_LAYOUT_4_18, NULL,
		   OC_ORC_V_4_18);
}

TEST(nov_orc_6_12_by_header)
{
	struct fake f;
	uint8_t bad[ORC_ABI_HASH_SIZE];
	struct oc_error *err;

	check_read("6.12.118+deb12-cloud-amd64", ORC_ABI_LAYOUT_6_4, hash_6_12,
		   OC_ORC_V_6_4);

	/* an unknown hash is an error, never a guess */
	memcpy(bad, hash_6_12, sizeof(bad));
	bad[0] ^= 0xff;
	fake_init(&f, "6.12.118+deb12-cloud-amd64", 65536);
	put_orc(&f, ORC_ABI_LAYOUT_6_4, 0x100, true, bad);
	err = oc_kmodel_orc_from_memory(&f.k);
	CHECK(err && err->code == OC_ERR_UNSUPPORTED);
	oc_error_destroy(err);
	fake_free(&f);

	/* a 6.4+ kernel whose kallsyms lacks the header: refused too */
	fake_init(&f, "6.12.118+deb12-cloud-amd64", 65536);
	put_orc(&f, ORC_ABI_LAYOUT_6_4, 0x100, false, NULL);
	err = oc_kmodel_orc_from_memory(&f.k);
	CHECK(err && strstr(err->message, ".orc_header"));
	oc_error_destroy(err);
	fake_free(&f);
}

static void check_fails(struct fake *f, enum oc_error_code code,
			const char *text, struct oc_error *err)
{
	CHECK(err);
	if (!err)
		return;
	CHECK_EQ(err->code, code);
	if (text && !strstr(err->message, text))
		FAIL_AT("\"%s\" not in \"%s\"", text, err->message);
	oc_error_destroy(err);
	(void)f;
}

/*
 * A 6.1 kernel whose symbol table has only @syms (at tables + off, up to
 * a NULL name) and whose memory is zeros: @load fails with @code and,
 * unless NULL, @text in the message.
 */
struct hostile {
	struct {
		const char *name;
		uint64_t off;
	} syms[5];
	enum oc_error_code code;
	const char *text;
};

static void check_hostile(const struct hostile *cases, size_t nr,
			  struct oc_error *(*load)(struct oc_kernel *k))
{
	for (size_t i = 0; i < nr; i++) {
		struct fake f;

		fake_init(&f, "6.1.0-57-cloud-amd64", 65536);
		for (size_t k = 0; cases[i].syms[k].name; k++)
			fake_sym(&f, cases[i].syms[k].name,
				 tables + cases[i].syms[k].off);
		CHECK_OK(oc_symtab_finish(&f.k.syms));
		check_fails(&f, cases[i].code, cases[i].text, load(&f.k));
		fake_free(&f);
	}
}

TEST(nov_orc_hostile_bounds)
{
	static const struct hostile cases[] = {
		/* no ORC symbols at all */
		{ { { "linux_banner", 0 } },
		  OC_ERR_UNSUPPORTED, "CONFIG_UNWINDER_ORC" },
		/* __stop before __start */
		{ { { "__start_orc_unwind_ip", 0x1000 },
		    { "__stop_orc_unwind_ip", 0x800 } },
		  OC_ERR_FORMAT, "plausible" },
		/* a table larger than any kernel's (1 << 24 entries) */
		{ { { "__start_orc_unwind_ip", 0 },
		    { "__stop_orc_unwind_ip", (4ull << 24) + 4 } },
		  OC_ERR_FORMAT, "plausible" },
		/* ip and entry counts disagree */
		{ { { "__start_orc_unwind_ip", 0 },
		    { "__stop_orc_unwind_ip", 40 },
		    { "__start_orc_unwind", 40 },
		    { "__stop_orc_unwind", 40 + 54 } },
		  OC_ERR_FORMAT, NULL },
	};
	struct fake f;

	check_hostile(cases, sizeof(cases) / sizeof(cases[0]),
		      oc_kmodel_orc_from_memory);

	/* the tables are not in the dump */
	fake_init(&f, "6.1.0-57-cloud-amd64", 65536);
	put_orc(&f, ORC_ABI_LAYOUT_4_18, 0x100, false, NULL);
	f.region.len = 0x200;
	check_fails(&f, OC_ERR_FAULT, NULL, oc_kmodel_orc_from_memory(&f.k));
	fake_free(&f);
}

/* A minimal BTF blob (include/uapi/linux/btf.h): int, long, struct foo. */
enum {
	BTF_MAGIC_LE = 0xeb9f,
	KIND_INT = 1,
	KIND_STRUCT = 4,
	INT_SIGNED = 1,
};

static size_t make_btf(uint8_t *out)
{
	static const char strs[] = "\0int\0long\0foo\0a\0b";
	uint32_t types[] = {
		/* [1] int: name, info, size, encoding|offset|bits */
		1, KIND_INT << 24, 4, INT_SIGNED << 24 | 32,
		/* [2] long */
		5, KIND_INT << 24, 8, INT_SIGNED << 24 | 64,
		/* [3] struct foo { int a; long b; }: member offsets in bits */
		10, KIND_STRUCT << 24 | 2, 16,
		14, 1, 0,
		16, 2, 64,
	};
	uint32_t hdr[6] = {
		BTF_MAGIC_LE | 1 << 16,	/* magic, version 1, flags 0 */
		24,			/* hdr_len */
		0, sizeof(types),	/* type_off, type_len */
		sizeof(types), sizeof(strs),	/* str_off, str_len */
	};

	memcpy(out, hdr, sizeof(hdr));
	memcpy(out + sizeof(hdr), types, sizeof(types));
	memcpy(out + sizeof(hdr) + sizeof(types), strs, sizeof(strs));
	return sizeof(hdr) + sizeof(types) + sizeof(strs);
}

TEST(nov_btf_from_memory)
{
	static const struct hostile no_btf[] = {
		{ { { "linux_banner", 0 } },
		  OC_ERR_UNSUPPORTED, "CONFIG_DEBUG_INFO_BTF" },
	};
	struct fake f;
	uint64_t v = 0;
	size_t len;

	fake_init(&f, "6.1.0-57-cloud-amd64", 65536);
	len = make_btf(f.buf + 0x2000);
	fake_sym(&f, "__start_BTF", tables + 0x2000);
	fake_sym(&f, "__stop_BTF", tables + 0x2000 + len);
	CHECK_OK(oc_symtab_finish(&f.k.syms));
	CHECK_OK(oc_kmodel_btf_from_memory(&f.k));
	CHECK(f.k.types);
	if (f.k.types) {
		CHECK_OK(oc_types_offsetof(f.k.types, "struct foo", "b", &v));
		CHECK_EQ(v, 8);
		CHECK_OK(oc_types_size(f.k.types, "struct foo", &v));
		CHECK_EQ(v, 16);
	}
	fake_free(&f);

	/* no BTF symbols: say what is missing */
	check_hostile(no_btf, 1, oc_kmodel_btf_from_memory);

	/* bytes that are not BTF */
	fake_init(&f, "6.1.0-57-cloud-amd64", 65536);
	memset(f.buf + 0x2000, 0x5a, 0x100);
	fake_sym(&f, "__start_BTF", tables + 0x2000);
	fake_sym(&f, "__stop_BTF", tables + 0x2100);
	CHECK_OK(oc_symtab_finish(&f.k.syms));
	check_fails(&f, OC_ERR_FORMAT, NULL, oc_kmodel_btf_from_memory(&f.k));
	CHECK(!f.k.types);
	fake_free(&f);
}
