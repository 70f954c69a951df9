// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * formats/vmcoreinfo.c: values as the kernel prints them, malformed
 * lines, duplicates, limits.  The first text is the 6.1 sample's own
 * (samples/default/vmcore), cut down.
 */
#include "test.h"
#include "vmcoreinfo.h"

static const char REAL[] =
	"OSRELEASE=6.1.0-57-cloud-amd64\n"
	"BUILD-ID=01d2640d3a13145ee314eb05b155f141b7b7058b\n"
	"PAGESIZE=4096\n"
	"SYMBOL(init_uts_ns)=ffffffffa8c14b60\n"
	"OFFSET(uts_namespace.name)=0\n"
	"SIZE(printk_ringbuffer)=80\n"
	"LENGTH(zone.free_area)=11\n"
	"OFFSET(list_head.next)=0\n"
	"NUMBER(PAGE_BUDDY_MAPCOUNT_VALUE)=-129\n"
	"NUMBER(phys_base)=-557842432\n"
	"SYMBOL(init_top_pgt)=ffffffffa8a0a000\n"
	"NUMBER(pgtable_l5_enabled)=0\n"
	"KERNELOFFSET=27400000\n"
	"NUMBER(KERNEL_IMAGE_SIZE)=1073741824\n"
	"CRASHTIME=1796292949\n";

static struct oc_vmcoreinfo *parse(const char *text)
{
	struct oc_vmcoreinfo *vi = NULL;

	CHECK_OK(oc_vmcoreinfo_parse(text, strlen(text), &vi));
	return vi;
}

/* @key's text is @want */
static void check_value(const struct oc_vmcoreinfo *vi, const char *key,
			const char *want)
{
	const char *v = NULL;

	CHECK_OK(oc_vmcoreinfo_value(vi, key, &v));
	if (!v || strcmp(v, want))
		FAIL_AT("%s: \"%s\", want \"%s\"", key, v ? v : "(none)", want);
}

static enum oc_error_code code_of(struct oc_error *err)
{
	enum oc_error_code c = err ? err->code : 0;

	oc_error_destroy(err);
	return c;
}

TEST(vmcoreinfo_kernel_text)
{
	struct oc_vmcoreinfo *vi = parse(REAL);
	const char *v = NULL;
	uint64_t u = 0;
	int64_t s = 0;
	size_t first = 99;

	if (!vi)
		return;
	CHECK_STR(oc_vmcoreinfo_text(vi), REAL);
	CHECK_EQ(oc_vmcoreinfo_nr_malformed(vi, &first), 0);
	CHECK_EQ(first, 0);
	check_value(vi, "OSRELEASE", "6.1.0-57-cloud-amd64");
	check_value(vi, "BUILD-ID", "01d2640d3a13145ee314eb05b155f141b7b7058b");
	CHECK_OK(oc_vmcoreinfo_symbol(vi, "init_top_pgt", &u));
	CHECK_EQ(u, 0xffffffffa8a0a000ull);
	CHECK_OK(oc_vmcoreinfo_u64(vi, "KERNELOFFSET", &u));
	CHECK_EQ(u, 0x27400000);
	CHECK_OK(oc_vmcoreinfo_number(vi, "phys_base", &s));
	CHECK_EQ(s, -557842432);
	CHECK_OK(oc_vmcoreinfo_u64(vi, "NUMBER(PAGE_BUDDY_MAPCOUNT_VALUE)", &u));
	CHECK_EQ((int64_t)u, -129);
	CHECK_OK(oc_vmcoreinfo_number(vi, "KERNEL_IMAGE_SIZE", &s));
	CHECK_EQ(s, 1 << 30);
	CHECK_OK(oc_vmcoreinfo_offset(vi, "uts_namespace", "name", &u));
	CHECK_EQ(u, 0);
	CHECK_OK(oc_vmcoreinfo_size(vi, "printk_ringbuffer", &u));
	CHECK_EQ(u, 80);
	CHECK_OK(oc_vmcoreinfo_length(vi, "zone.free_area", &u));
	CHECK_EQ(u, 11);
	CHECK_OK(oc_vmcoreinfo_u64(vi, "PAGESIZE", &u));
	CHECK_EQ(u, 4096);
	CHECK_OK(oc_vmcoreinfo_u64(vi, "CRASHTIME", &u));
	CHECK_EQ(u, 1796292949);
	/* absent: LOOKUP; a prefix of a key is not the key */
	CHECK_EQ(code_of(oc_vmcoreinfo_value(vi, "OSREL", &v)), OC_ERR_LOOKUP);
	CHECK_EQ(code_of(oc_vmcoreinfo_symbol(vi, "nope", &u)), OC_ERR_LOOKUP);
	CHECK_EQ(code_of(oc_vmcoreinfo_offset(vi, "list_head", "prev", &u)),
		 OC_ERR_LOOKUP);
	/* not a number */
	CHECK_EQ(code_of(oc_vmcoreinfo_u64(vi, "OSRELEASE", &u)), OC_ERR_FORMAT);
	oc_vmcoreinfo_destroy(vi);
}

/* Values at and past the limits of each kind. */
TEST(vmcoreinfo_values)
{
	static const struct {
		const char *line;	/* KEY=VALUE */
		int ok;
		uint64_t v;
	} cases[] = {
		{ "SYMBOL(a)=ffffffffffffffff", 1, UINT64_MAX },
		{ "SYMBOL(a)=0xffffffff81000000", 1, 0xffffffff81000000ull },
		{ "SYMBOL(a)=FFFFFFFF81000000", 1, 0xffffffff81000000ull },
		{ "SYMBOL(a)=10000000000000000", 0, 0 },	/* 65 bits */
		{ "SYMBOL(a)=", 0, 0 },
		{ "SYMBOL(a)=0x", 0, 0 },
		{ "SYMBOL(a)=xyz", 0, 0 },
		{ "SYMBOL(a)= ff", 0, 0 },
		{ "SYMBOL(a)=ff ", 0, 0 },
		{ "SYMBOL(a)=-1", 0, 0 },
		{ "NUMBER(a)=9223372036854775807", 1, INT64_MAX },
		{ "NUMBER(a)=9223372036854775808", 0, 0 },
		{ "NUMBER(a)=-9223372036854775808", 1, (uint64_t)INT64_MIN },
		{ "NUMBER(a)=-9223372036854775809", 0, 0 },
		{ "NUMBER(a)=0xffffffffffffffff", 1, UINT64_MAX },
		{ "NUMBER(a)=+1", 0, 0 },
		{ "NUMBER(a)=-", 0, 0 },
		{ "NUMBER(a)=12a", 0, 0 },
		{ "OFFSET(a.b)=18446744073709551615", 1, UINT64_MAX },
		{ "OFFSET(a.b)=18446744073709551616", 0, 0 },
		{ "OFFSET(a.b)=-1", 0, 0 },
		{ "SIZE(a)=0x10", 0, 0 },
		{ "CRASHTIME=17 ", 0, 0 },
		{ "KERNELOFFSET=0", 1, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct oc_vmcoreinfo *vi = parse(cases[i].line);
		char key[64];
		const char *eq = strchr(cases[i].line, '=');
		uint64_t u = 0;
		struct oc_error *err;

		if (!vi)
			continue;
		snprintf(key, sizeof(key), "%.*s", (int)(eq - cases[i].line),
			 cases[i].line);
		err = oc_vmcoreinfo_u64(vi, key, &u);
		if (cases[i].ok) {
			if (err)
				FAIL_AT("%s: %s", cases[i].line, err->message);
			else if (u != cases[i].v)
				FAIL_AT("%s: 0x%llx", cases[i].line,
					(unsigned long long)u);
		} else if (!err || err->code != OC_ERR_FORMAT) {
			FAIL_AT("%s: accepted", cases[i].line);
		}
		oc_error_destroy(err);
		oc_vmcoreinfo_destroy(vi);
	}
}

TEST(vmcoreinfo_malformed_lines)
{
	static const char text[] =
		"OSRELEASE=6.1.0\n"
		"no equals sign\n"			/* 2 */
		"=value\n"				/* 3 */
		"\n"					/* empty: fine */
		"KEY WITH SPACE=1\n"			/* 5 */
		"CTRL=a\x01z\n"				/* 6 */
		"HIGH=\xc3\xa9\n"			/* 7 */
		"CR=1\r\n"				/* 8 */
		"EMPTY=\n"				/* an empty value: fine */
		"SYMBOL(x)=ffffffff81000000";		/* no final newline */
	struct oc_vmcoreinfo *vi = parse(text);
	const char *v = NULL;
	uint64_t u = 0;
	size_t first = 0;

	if (!vi)
		return;
	CHECK_EQ(oc_vmcoreinfo_nr_malformed(vi, &first), 6);
	CHECK_EQ(first, 2);
	/* the well-formed ones, in order */
	if (CHECKED_EQ(oc_vmcoreinfo_nr(vi), 3)) {
		const char *k = NULL;

		oc_vmcoreinfo_line(vi, 0, &k, &v);
		CHECK_STR(k, "OSRELEASE");
		CHECK_STR(v, "6.1.0");
		oc_vmcoreinfo_line(vi, 2, &k, &v);
		CHECK_STR(k, "SYMBOL(x)");
		CHECK_STR(v, "ffffffff81000000");
	}
	check_value(vi, "OSRELEASE", "6.1.0");
	check_value(vi, "EMPTY", "");
	CHECK_OK(oc_vmcoreinfo_symbol(vi, "x", &u));
	CHECK_EQ(u, 0xffffffff81000000ull);
	/* malformed lines are not found, whole or in part */
	CHECK_EQ(code_of(oc_vmcoreinfo_value(vi, "CTRL", &v)), OC_ERR_LOOKUP);
	CHECK_EQ(code_of(oc_vmcoreinfo_value(vi, "CR", &v)), OC_ERR_LOOKUP);
	CHECK_EQ(code_of(oc_vmcoreinfo_value(vi, "", &v)), OC_ERR_LOOKUP);
	CHECK_EQ(code_of(oc_vmcoreinfo_value(vi, "KEY WITH SPACE", &v)),
		 OC_ERR_LOOKUP);
	oc_vmcoreinfo_destroy(vi);
}

TEST(vmcoreinfo_duplicates_nul_and_size)
{
	struct oc_vmcoreinfo *vi;
	const char *v = NULL;
	uint64_t u = 0;
	static const char nul[] = "OSRELEASE=6.1\n\0SYMBOL(x)=1\n";
	char *big;

	/* the same value twice is fine; two values are ambiguous */
	vi = parse("SIZE(a)=8\nSIZE(a)=8\nSIZE(b)=8\nSIZE(b)=16\n");
	if (vi) {
		CHECK_OK(oc_vmcoreinfo_size(vi, "a", &u));
		CHECK_EQ(u, 8);
		CHECK_EQ(code_of(oc_vmcoreinfo_size(vi, "b", &u)), OC_ERR_FORMAT);
		oc_vmcoreinfo_destroy(vi);
	}
	/* the text ends at a NUL: a note's size includes its padding */
	vi = NULL;
	CHECK_OK(oc_vmcoreinfo_parse(nul, sizeof(nul), &vi));
	if (vi) {
		CHECK_STR(oc_vmcoreinfo_text(vi), "OSRELEASE=6.1\n");
		CHECK_EQ(code_of(oc_vmcoreinfo_symbol(vi, "x", &u)), OC_ERR_LOOKUP);
		oc_vmcoreinfo_destroy(vi);
	}
	/* the empty text, and none */
	vi = parse("");
	if (vi) {
		CHECK_STR(oc_vmcoreinfo_text(vi), "");
		CHECK_EQ(code_of(oc_vmcoreinfo_value(vi, "OSRELEASE", &v)),
			 OC_ERR_LOOKUP);
		oc_vmcoreinfo_destroy(vi);
	}
	vi = NULL;
	CHECK_OK(oc_vmcoreinfo_parse(NULL, 0, &vi));
	oc_vmcoreinfo_destroy(vi);
	/* a key too long to be one */
	big = malloc(1000);
	if (big) {
		memset(big, 'a', 999);
		big[999] = '\0';
		vi = parse("SYMBOL(a)=1\n");
		if (vi) {
			CHECK_EQ(code_of(oc_vmcoreinfo_symbol(vi, big, &u)),
				 OC_ERR_LOOKUP);
			oc_vmcoreinfo_destroy(vi);
		}
		free(big);
	}
	/* more than OC_VMCOREINFO_MAX: refused */
	big = malloc(OC_VMCOREINFO_MAX + 2);
	if (big) {
		struct oc_error *err;

		memset(big, '\n', OC_VMCOREINFO_MAX + 1);
		big[OC_VMCOREINFO_MAX + 1] = '\0';
		vi = NULL;
		err = oc_vmcoreinfo_parse(big, OC_VMCOREINFO_MAX + 1, &vi);
		CHECK(err && err->code == OC_ERR_FORMAT && !vi);
		oc_error_destroy(err);
		CHECK_OK(oc_vmcoreinfo_parse(big, OC_VMCOREINFO_MAX, &vi));
		oc_vmcoreinfo_destroy(vi);
		free(big);
	}
}
