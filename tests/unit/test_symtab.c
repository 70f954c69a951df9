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

TEST(symtab_aliases_prefer_global)
{
	struct oc_symtab tab;
	const struct oc_symbol *s;

	build(&tab);
	s = oc_symtab_lookup(&tab, 0x2010);
	CHECK(s && !strcmp(oc_symtab_name(&tab, s), "a_global"));
	CHECK(s && s->size == 0x1000);
	s = oc_symtab_find(&tab, "b_alias");
	CHECK(s && s->addr == 0x2000);
	s = oc_symtab_find(&tab, "__handle_sysrq.cold");
	CHECK(s && s->addr == 0x3000 && s->size == 0x100);
	CHECK(!oc_symtab_find(&tab, "nope"));
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
