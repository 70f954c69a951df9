// SPDX-License-Identifier: GPL-2.0-or-later
/* formats/array.h: growing an array, and the big arrays' allocation. */
#include <stdint.h>

#include "array.h"
#include "test.h"

TEST(array_grow_doubles_from_first)
{
	size_t cap = 0;
	int *p = oc_array_grow(NULL, 0, 1, &cap, sizeof(*p), 8);

	CHECK(p != NULL);
	CHECK_EQ(cap, 8);
	/* what fits: the same array */
	CHECK(oc_array_grow(p, 3, 5, &cap, sizeof(*p), 8) == p);
	CHECK_EQ(cap, 8);
	/* one more: doubled as often as needed */
	p = oc_array_grow(p, 8, 20, &cap, sizeof(*p), 8);
	CHECK(p != NULL);
	CHECK_EQ(cap, 32);
	for (int i = 0; i < 28; i++)
		p[i] = i;
	free(p);
}

TEST(array_grow_overflow_leaves_it)
{
	size_t cap = 4;
	char *p = malloc(4), *q;

	CHECK(p != NULL);
	q = oc_array_grow(p, 4, SIZE_MAX - 2, &cap, 1, 4);
	CHECK(q == NULL);
	CHECK_EQ(cap, 4);
	q = oc_array_grow(p, 4, SIZE_MAX / 4, &cap, 8, 4);
	CHECK(q == NULL);
	CHECK_EQ(cap, 4);
	free(p);
}

TEST(malloc_big_alignment)
{
	/* below 2 MB: plain malloc'd memory */
	char *small = oc_malloc_big(100);
	/* from 2 MB: 2 MB-aligned, all of it usable, free() frees it */
	size_t size = (5 << 20) + 123;
	char *big = oc_malloc_big(size);

	CHECK(small != NULL && big != NULL);
	CHECK_EQ((uintptr_t)big % (2 << 20), 0);
	memset(big, 0x5a, size);
	CHECK(big[0] == 0x5a && big[size - 1] == 0x5a);
	free(small);
	free(big);
}
