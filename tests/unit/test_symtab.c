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
	CHECK(s && s->addr == 0x2000);
	/* by name, a global wins */
	s = oc_symtab_find(&tab, "a_global");
	CHECK(s && s->addr == 0x2000);
	s = oc_symtab_find(&tab, "__handle_sysrq.cold");
	CHECK(s && s->addr == 0x3000 && s->size == 0x100);
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

			if (x->addr > y->addr ||
			    (x->addr == y->addr && !alias_order_ok(&tab, x, y)))
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

/* The table written as bytes (src/symcache.c's file) and read back:
 * every lookup the same; then damaged copies, each refused whole. */
TEST(symtab_write_read_and_refused)
{
	struct oc_symtab tab, back;
	const char *path = oc_test_tmp_path("symtab.bin");
	const char *names[] = { "entry_SYSCALL_64", "entry_SYSCALL_64_after_hwframe",
				"__handle_sysrq.cold", "b_alias", "a_global", "_etext" };
	unsigned char *bytes;
	long size;
	FILE *fp;

	build(&tab);
	fp = fopen(path, "w+");
	CHECK(fp);
	if (!fp)
		return;
	CHECK_OK(oc_symtab_write(&tab, fp));
	size = ftell(fp);
	rewind(fp);
	CHECK_OK(oc_symtab_read(&back, fp));
	CHECK_EQ(fgetc(fp), EOF);	/* it read its own bytes, no more */
	CHECK_EQ(back.nr, tab.nr);
	for (uint64_t a = 0xff0; a < 0x3110; a += 8) {
		const struct oc_symbol *x = oc_symtab_lookup(&tab, a);
		const struct oc_symbol *y = oc_symtab_lookup(&back, a);

		CHECK(!x == !y);
		if (x && y) {
			CHECK_STR(oc_symtab_name(&back, y), oc_symtab_name(&tab, x));
			CHECK_EQ(y->size, x->size);
		}
	}
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct oc_symbol *y = oc_symtab_find(&back, names[i]);

		CHECK(y && !strcmp(oc_symtab_name(&back, y), names[i]));
	}
	CHECK(!oc_symtab_find(&back, "no_such_name"));
	oc_symtab_deinit(&back);

	/* damaged: cut short; a name offset past the pool; two symbols
	 * out of order; a name index entry past the symbols; every slot
	 * of the name index used (a lookup would never end) */
	bytes = malloc((size_t)size);
	rewind(fp);
	CHECK(bytes && fread(bytes, 1, (size_t)size, fp) == (size_t)size);
	fclose(fp);
	if (!bytes)
		return;
	for (int damage = 0; damage < 5; damage++) {
		unsigned char *b = malloc((size_t)size);
		size_t head = 32, syms = head, pool = syms + tab.nr * sizeof(struct oc_symbol);
		size_t hash = pool + tab.pool_len, n = (size_t)size;
		struct oc_symbol s0;
		struct oc_error *err;

		memcpy(b, bytes, (size_t)size);
		memcpy(&s0, b + syms, sizeof(s0));
		if (damage == 0) {
			n = (size_t)size - 5;
		} else if (damage == 1) {
			s0.name = (uint32_t)tab.pool_len + 3;
			memcpy(b + syms, &s0, sizeof(s0));
		} else if (damage == 2) {
			s0.addr = UINT64_MAX;
			memcpy(b + syms, &s0, sizeof(s0));
		} else if (damage == 3) {
			uint32_t idx = (uint32_t)tab.nr + 1;

			memcpy(b + hash, &idx, 4);
		} else {
			for (size_t i = 0; i < tab.hash_size; i++) {
				uint32_t one = 1;

				memcpy(b + hash + 8 * i, &one, 4);
			}
		}
		fp = fopen(path, "w+");
		CHECK(fp && fwrite(b, 1, n, fp) == n);
		if (fp) {
			rewind(fp);
			err = oc_symtab_read(&back, fp);
			CHECK(err && err->code == OC_ERR_FORMAT);
			CHECK_EQ(back.nr, 0);
			oc_error_destroy(err);
			fclose(fp);
		}
		free(b);
	}
	free(bytes);
	oc_symtab_deinit(&tab);
}
