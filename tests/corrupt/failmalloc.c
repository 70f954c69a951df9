// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * LD_PRELOAD fault injection for tests/corrupt/oom.sh: with
 * FAILMALLOC_AFTER=N, the first N allocations succeed and every later
 * one fails (ENOMEM); with FAILMALLOC_COUNT=FILE, nothing fails and the
 * number of allocations is written to FILE at exit.  glibc's own
 * allocator does the work (__libc_malloc and friends).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);

static long after = -1;
static unsigned long count;
static int ready;

static int fail(void)
{
	if (!ready) {
		const char *s = getenv("FAILMALLOC_AFTER");

		ready = 1;
		if (s)
			after = strtol(s, NULL, 10);
	}
	if (after >= 0 && count >= (unsigned long)after) {
		errno = ENOMEM;
		return 1;
	}
	count++;
	return 0;
}

void *malloc(size_t n)
{
	return fail() ? NULL : __libc_malloc(n);
}

void *calloc(size_t a, size_t b)
{
	return fail() ? NULL : __libc_calloc(a, b);
}

void *realloc(void *p, size_t n)
{
	return fail() ? NULL : __libc_realloc(p, n);
}

__attribute__((destructor)) static void report(void)
{
	const char *f = getenv("FAILMALLOC_COUNT");
	FILE *o;

	if (f && (o = fopen(f, "w"))) {
		fprintf(o, "%lu\n", count);
		fclose(o);
	}
}
