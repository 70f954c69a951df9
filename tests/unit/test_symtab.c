// SPDX-License-Identifier: GPL-2.0-or-later
#include "symtab.h"
#include "test.h"

static void build(struct oc_symtab *tab)
{
	oc_symtab_init(tab);
	CHECK_OK(oc_symtab_add(tab, "entry_SYSCALL_64", 0x1000, 'T'));
	CHECK_OK(oc_symtab_add(tab, "entry_SYSCALL_64_after_hwframe", 0x1040, 't'));
	CHECK_OK(oc_symtab_add(tab, "__handle_sysrq.cold", 0x3000, 't'));
	CHECK_OK(oc_symtab_add(tab, "b_alias", 0x2000, 't'));
	CHECK_OK(oc_symtab_add(tab, "a_global", 0x2000, 'T'));
	CHECK_OK(oc_symtab_add(tab, "_etext", 0x3100, 'T'));
	CHECK_OK(oc_symtab_finish(tab));
}

TEST(symtab_nearest_label_wins)
{
	struct oc_symtab tab;
	const struct oc_symbol *s;

	build(&tab);
	s = oc_symtab_lookup(&tab, 0x1050);
	CHECK(s);
	if (s) {
		CHECK_STR(oc_symtab_name(&tab, s), "entry_SYSCALL_64_after_hwframe");
		CHECK_EQ(s->size, 0x2000 - 0x1040);
	}
	s = oc_symtab_lookup(&tab, 0x103f);
	CHECK(s && !strcmp(oc_symtab_name(&tab, s), "entry_SYSCALL_64"));
	CHECK(s && s->size == 0x40);
	oc_symtab_deinit(&tab);
}

TEST(symtab_bounds)
{
	struct oc_symtab tab;

	build(&tab);
	CHECK(!oc_symtab_lookup(&tab, 0xfff));
	CHECK(oc_symtab_lookup(&tab, 0x30ff));
	/* the last symbol has no size: nothing is known past it */
	CHECK(!oc_symtab_lookup(&tab, 0x3100));
	CHECK(!oc_symtab_lookup(&tab, UINT64_MAX));
	oc_symtab_deinit(&tab);
}

TEST(symtab_aliases_in_added_order)
{
	struct oc_symtab tab;
	const struct oc_symbol *s;

	/* a table read from the kernel's own kallsyms: at one address the
	 * first one added is the one kallsyms_lookup() answers */
	build(&tab);
	s = oc_symtab_lookup(&tab, 0x2010);
	CHECK(s && !strcmp(oc_symtab_name(&tab, s), "b_alias"));
	CHECK(s && s->size == 0x1000);
	s = oc_symtab_find(&tab, "b_alias");
	CHECK(s && oc_symtab_addr(&tab, s) == 0x2000);
	/* by name, a global wins */
	s = oc_symtab_find(&tab, "a_global");
	CHECK(s && oc_symtab_addr(&tab, s) == 0x2000);
	s = oc_symtab_find(&tab, "__handle_sysrq.cold");
	CHECK(s && oc_symtab_addr(&tab, s) == 0x3000 && s->size == 0x100);
	CHECK(!oc_symtab_find(&tab, "nope"));
	oc_symtab_deinit(&tab);
}

TEST(symtab_aliases_like_scripts_kallsyms)
{
	/* the 6.1 vmlinux's aliases at __do_sys_rt_sigreturn, in symtab
	 * order: the kernel's sysrq-t printed "__do_sys_rt_sigreturn"
	 * (nm -n order by name when weakness, linker-script names and the
	 * leading underscores tie) */
	static const struct { const char *name; char type; } in[] = {
		{ "__x64_sys_rt_sigreturn", 'T' },
		{ "__ia32_sys_rt_sigreturn", 'T' },
		{ "__do_sys_rt_sigreturn", 't' },
		{ "sys_ni_weak", 'W' },		/* weak: last */
		{ "__start_fake_section", 'T' },	/* linker script: after */
		{ "_one_underscore", 't' },		/* fewer underscores: first */
	};
	const char *want[] = { "_one_underscore", "__do_sys_rt_sigreturn",
			       "__ia32_sys_rt_sigreturn", "__x64_sys_rt_sigreturn",
			       "__start_fake_section", "sys_ni_weak" };
	struct oc_symtab tab;
	const struct oc_symbol *s;

	oc_symtab_init(&tab);
	tab.ties = OC_SYMTAB_TIES_KALLSYMS_SCRIPT;
	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++)
		CHECK_OK(oc_symtab_add(&tab, in[i].name, 0x2f0, in[i].type));
	CHECK_OK(oc_symtab_add(&tab, "next", 0x3e0, 'T'));
	CHECK_OK(oc_symtab_finish(&tab));
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		CHECK(i < tab.nr && !strcmp(oc_symtab_name(&tab, &tab.syms[i]), want[i]));
	s = oc_symtab_lookup(&tab, 0x2f0 + 0xdd);
	CHECK(s && !strcmp(oc_symtab_name(&tab, s), "_one_underscore"));
	oc_symtab_deinit(&tab);

	/* without _one_underscore, the kernel's own answer */
	oc_symtab_init(&tab);
	tab.ties = OC_SYMTAB_TIES_KALLSYMS_SCRIPT;
	for (size_t i = 0; i < 3; i++)
		CHECK_OK(oc_symtab_add(&tab, in[i].name, 0x2f0, in[i].type));
	CHECK_OK(oc_symtab_add(&tab, "next", 0x3e0, 'T'));
	CHECK_OK(oc_symtab_finish(&tab));
	s = oc_symtab_lookup(&tab, 0x2f0 + 0xdd);
	CHECK(s && !strcmp(oc_symtab_name(&tab, s), "__do_sys_rt_sigreturn"));
	oc_symtab_deinit(&tab);
}

TEST(symtab_empty)
{
	struct oc_symtab tab;

	oc_symtab_init(&tab);
	CHECK_OK(oc_symtab_finish(&tab));
	CHECK(!oc_symtab_lookup(&tab, 0x1000));
	CHECK(!oc_symtab_find(&tab, "x"));
	oc_symtab_deinit(&tab);
}

/*
 * The sort (a radix sort on the address, then each address's aliases
 * by the kernel's order) against qsort() with the same order: symbols
 * spread over all 64 bits of address, and piles of aliases at a few
 * addresses, in both tie orders; after finishing, each address once per
 * name, the aliases in the order the rule gives.
 */
static int alias_order_ok(const struct oc_symtab *tab, const struct oc_symbol *x,
			  const struct oc_symbol *y)
{
	const char *nx = oc_symtab_name(tab, x), *ny = oc_symtab_name(tab, y);
	size_t ux = strspn(nx, "_"), uy = strspn(ny, "_");

	if (tab->ties == OC_SYMTAB_TIES_ADDED)
		return x->seq < y->seq;
	/* no weak or linker-script names below: underscores, name, seq */
	if (ux != uy)
		return ux < uy;
	if (strcmp(nx, ny))
		return strcmp(nx, ny) < 0;
	return x->seq < y->seq;
}

TEST(symtab_sort_orders_addresses_and_aliases)
{
	uint64_t st = 12345;

	for (int ties = 0; ties < 2; ties++) {
		struct oc_symtab tab;
		size_t bad = 0, n;

		oc_symtab_init(&tab);
		tab.ties = ties ? OC_SYMTAB_TIES_KALLSYMS_SCRIPT : OC_SYMTAB_TIES_ADDED;
		for (int i = 0; i < 20000; i++) {
			uint64_t r = oc_test_rand(&st);
			char name[32];
			/* a quarter at 16 addresses, the rest anywhere */
			uint64_t addr = r % 4 ? oc_test_rand(&st)
					      : 0xffffffff81000000ull + (r >> 60) * 64;

			snprintf(name, sizeof(name), "%.*ssym%u",
				 (int)(oc_test_rand(&st) % 3), "__",
				 (unsigned)(oc_test_rand(&st) % 5000));
			CHECK_OK(oc_symtab_add(&tab, name, addr, 't'));
		}
		CHECK_OK(oc_symtab_finish(&tab));
		n = tab.nr;
		CHECK(n > 10000);
		for (size_t i = 1; i < n; i++) {
			const struct oc_symbol *x = &tab.syms[i - 1], *y = &tab.syms[i];

			if (x->value > y->value ||
			    (x->value == y->value && !alias_order_ok(&tab, x, y)))
				bad++;
		}
		CHECK_EQ(bad, 0);
		oc_symtab_deinit(&tab);
	}
}

/* Every byte outside 0x20..0x7e of a name becomes '?', wherever it is in
 * the eight-byte words the check reads (formats/symtab.c printable()),
 * and a name of plain bytes is kept as it is. */
TEST(symtab_names_sanitised_at_every_position)
{
	static const unsigned char bad[] = { 0x01, 0x1b, 0x1f, 0x7f, 0x80, 0xff };
	struct oc_symtab tab;
	char name[40], want[40];
	uint64_t addr = 0x1000;

	oc_symtab_init(&tab);
	for (size_t len = 1; len < 24; len++) {
		for (size_t pos = 0; pos < len; pos++) {
			for (size_t b = 0; b < sizeof(bad); b++) {
				memset(name, 'a' + (int)(len % 26), len);
				name[len] = 0;
				name[pos] = (char)bad[b];
				CHECK_OK(oc_symtab_add(&tab, name, addr++, 't'));
			}
		}
		/* plain: the edges of the range */
		memset(name, len % 2 ? ' ' : '~', len);
		name[len] = 0;
		CHECK_OK(oc_symtab_add(&tab, name, addr++, 't'));
	}
	/* the last symbol has no size: lookups stop before it */
	CHECK_OK(oc_symtab_add(&tab, "_etext", addr, 'T'));
	CHECK_OK(oc_symtab_finish(&tab));
	addr = 0x1000;
	for (size_t len = 1; len < 24; len++) {
		for (size_t pos = 0; pos < len; pos++) {
			for (size_t b = 0; b < sizeof(bad); b++) {
				const struct oc_symbol *s = oc_symtab_lookup(&tab, addr++);

				memset(want, 'a' + (int)(len % 26), len);
				want[len] = 0;
				want[pos] = '?';
				CHECK(s && !strcmp(oc_symtab_name(&tab, s), want));
			}
		}
		memset(want, len % 2 ? ' ' : '~', len);
		want[len] = 0;
		{
			const struct oc_symbol *s = oc_symtab_lookup(&tab, addr++);

			CHECK(s && !strcmp(oc_symtab_name(&tab, s), want));
		}
	}
	oc_symtab_deinit(&tab);
}

/* The file's bytes in an 8-byte aligned buffer of their own. */
static unsigned char *file_bytes(FILE *fp, size_t *len_ret)
{
	long size = ftell(fp);
	unsigned char *b;

	rewind(fp);
	b = size > 0 ? malloc((size_t)size) : NULL;
	if (b && fread(b, 1, (size_t)size, fp) != (size_t)size) {
		free(b);
		b = NULL;
	}
	*len_ret = b ? (size_t)size : 0;
	return b;
}

/* The table written as bytes (src/symcache.c's file) and viewed where
 * they are: every lookup the same, relocated by the bias alone; then
 * damaged copies, each refused whole. */
TEST(symtab_write_view_and_refused)
{
	struct oc_symtab tab, back;
	const char *path = oc_test_tmp_path("symtab.bin");
	const char *names[] = { "entry_SYSCALL_64", "entry_SYSCALL_64_after_hwframe",
				"__handle_sysrq.cold", "b_alias", "a_global", "_etext" };
	const uint64_t delta = 0x3a000000;
	unsigned char *bytes;
	size_t size, used = 0;
	FILE *fp;

	build(&tab);
	fp = fopen(path, "w+");
	CHECK(fp);
	if (!fp)
		return;
	CHECK_OK(oc_symtab_write(&tab, fp));
	bytes = file_bytes(fp, &size);
	fclose(fp);
	CHECK(bytes && size % 8 == 0);	/* names padded: what follows aligned */
	if (!bytes)
		return;
	CHECK_OK(oc_symtab_view(&back, bytes, size, &used));
	CHECK_EQ(used, size);		/* its own bytes, no more */
	CHECK_EQ(back.nr, tab.nr);
	for (int reloc = 0; reloc < 2; reloc++) {
		uint64_t d = reloc ? delta : 0;

		for (uint64_t a = 0xff0; a < 0x3110; a += 8) {
			const struct oc_symbol *x = oc_symtab_lookup(&tab, a);
			const struct oc_symbol *y = oc_symtab_lookup(&back, a + d);

			CHECK(!x == !y);
			if (x && y) {
				CHECK_STR(oc_symtab_name(&back, y), oc_symtab_name(&tab, x));
				CHECK_EQ(y->size, x->size);
				CHECK_EQ(oc_symtab_addr(&back, y), oc_symtab_addr(&tab, x) + d);
			}
		}
		/* below the first symbol, relocated: nothing */
		CHECK(!oc_symtab_lookup(&back, d + 0x10));
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
			const struct oc_symbol *x = oc_symtab_find(&tab, names[i]);
			const struct oc_symbol *y = oc_symtab_find(&back, names[i]);

			CHECK(x && y && !strcmp(oc_symtab_name(&back, y), names[i]));
			if (x && y)
				CHECK_EQ(oc_symtab_addr(&back, y), oc_symtab_addr(&tab, x) + d);
		}
		CHECK(!oc_symtab_find(&back, "no_such_name"));
		oc_symtab_relocate(&back, delta);
	}
	/* read-only: adding to a view is refused, not a write */
	{
		struct oc_error *err = oc_symtab_add(&back, "more", 0x5000, 't');

		CHECK(err && err->code == OC_ERR_INVALID);
		oc_error_destroy(err);
	}
	oc_symtab_deinit(&back);	/* frees nothing of @bytes */

	/* damaged: cut short, misaligned: refused whole.  The arrays are
	 * not read by the view, but checked where a lookup reads them: a
	 * name offset past the pool reads "?"; two symbols out of order
	 * answer wrong, inside the table; a name index entry past the
	 * symbols, or every slot of the index used (a lookup would never
	 * end): names not found, addresses found as before */
	for (int damage = 0; damage < 6; damage++) {
		unsigned char *b = malloc(size + 8);
		size_t head = 32, syms = head, pool = syms + tab.nr * sizeof(struct oc_symbol);
		size_t hash = pool + ((tab.pool_len + 7) & ~(size_t)7), n = size;
		unsigned char *at = b;
		struct oc_symbol s0;
		struct oc_error *err;
		bool refused = true;

		if (!b)
			break;
		memcpy(b, bytes, size);
		memcpy(&s0, b + syms, sizeof(s0));
		if (damage == 0) {
			n = size - 5;
		} else if (damage == 1) {
			s0.name = (uint32_t)tab.pool_len + 3;
			memcpy(b + syms, &s0, sizeof(s0));
			refused = false;
		} else if (damage == 2) {
			s0.value = UINT64_MAX;
			memcpy(b + syms, &s0, sizeof(s0));
			refused = false;
		} else if (damage == 3) {
			memmove(b + 4, b, size);
			at = b + 4;
		} else if (damage == 4) {
			for (size_t i = 0; i < tab.hash_size; i++) {
				uint32_t past = (uint32_t)tab.nr + 1;

				memcpy(b + hash + 8 * i, &past, 4);
			}
			refused = false;
		} else {
			for (size_t i = 0; i < tab.hash_size; i++) {
				uint32_t one = 1;

				memcpy(b + hash + 8 * i, &one, 4);
			}
			refused = false;
		}
		err = oc_symtab_view(&back, at, n, &used);
		if (refused) {
			CHECK(err && err->code == OC_ERR_FORMAT);
			CHECK_EQ(back.nr, 0);
			CHECK(!back.borrowed);
		} else if (damage == 1) {
			CHECK_OK(err);
			CHECK(back.nr && !strcmp(oc_symtab_name(&back, &back.syms[0]), "?"));
			CHECK(oc_symtab_find(&back, "b_alias"));
		} else if (damage == 2) {
			const struct oc_symbol *x;

			CHECK_OK(err);
			for (uint64_t a = 0; a < 0x4000; a += 0x10) {
				x = oc_symtab_lookup(&back, a);
				CHECK(!x || (x >= back.syms && x < back.syms + back.nr));
			}
			CHECK(oc_symtab_find(&back, "b_alias"));
			/* relocated, the first value wraps: every address
			 * above it is below it once the bias is taken off */
			oc_symtab_relocate(&back, 0x30000000);
			for (uint64_t a = 0x2fff0000; a < 0x30010000; a += 0x100) {
				x = oc_symtab_lookup(&back, a);
				CHECK(!x || (x >= back.syms && x < back.syms + back.nr));
			}
			CHECK(!oc_symtab_lookup(&back, 0xffffffff81000000ull));
		} else {
			CHECK_OK(err);
			CHECK(!oc_symtab_find(&back, "no_such_name"));
			CHECK(!oc_symtab_find(&back, "b_alias"));
			CHECK(oc_symtab_lookup(&back, 0x2010));
		}
		oc_error_destroy(err);
		oc_symtab_deinit(&back);
		free(b);
	}
	free(bytes);
	oc_symtab_deinit(&tab);
}
