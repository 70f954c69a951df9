// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * formats/types.c's member access on a struct copy: plain members, bit
 * fields, and layouts a hostile BTF could give (past the struct, wider
 * than 8 bytes, bit offsets that overflow).
 */
#include "test.h"
#include "types.h"

TEST(member_get)
{
	/* u32 a at 0, u16 b at 4, u8 bits at 6: flags:5 level:3, u64 c at 8 */
	static const uint8_t s[16] = { 0x78, 0x56, 0x34, 0x12, 0xcd, 0xab,
				       (6 << 5) | 0x12, 0, 1, 2, 3, 4, 5, 6,
				       7, 8 };
	struct oc_member a = { .offset = 0, .size = 4 };
	struct oc_member b = { .offset = 4, .size = 2 };
	struct oc_member flags = { .offset = 6, .size = 1, .bit_size = 5 };
	struct oc_member level = { .offset = 6, .size = 1, .bit_offset = 5,
				   .bit_size = 3 };
	struct oc_member c = { .offset = 8, .size = 8 };

	CHECK_EQ(oc_member_get(s, sizeof(s), &a), 0x12345678);
	CHECK_EQ(oc_member_get(s, sizeof(s), &b), 0xabcd);
	CHECK_EQ(oc_member_get(s, sizeof(s), &flags), 0x12);
	CHECK_EQ(oc_member_get(s, sizeof(s), &level), 6);
	CHECK_EQ(oc_member_get(s, sizeof(s), &c), 0x0807060504030201ull);
	CHECK_EQ(oc_member_span(&level), 1);
	CHECK(oc_member_fits(&c, 16) && !oc_member_fits(&c, 15));
}

TEST(member_hostile_layouts)
{
	static const uint8_t s[16] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
				       0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
				       0xff, 0xff, 0xff, 0xff };
	const struct oc_member bad[] = {
		{ .offset = 16, .size = 1 },		/* just past */
		{ .offset = 12, .size = 8 },		/* straddles the end */
		{ .offset = UINT64_MAX - 2, .size = 8 },	/* wraps */
		{ .offset = 0, .size = 9 },		/* wider than 8 */
		{ .offset = 0, .size = 0 },		/* a flexible array */
		{ .offset = 0, .size = 4, .bit_offset = 60, .bit_size = 8 },
		{ .offset = 0, .size = 4, .bit_offset = 65, .bit_size = 1 },
		{ .offset = 0, .size = 4, .bit_size = 64 },
		{ .offset = 15, .size = 1, .bit_offset = 7, .bit_size = 2 },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (oc_member_fits(&bad[i], sizeof(s)))
			FAIL_AT("layout %zu fits", i);
		CHECK_EQ(oc_member_get(s, sizeof(s), &bad[i]), 0);
	}
}
