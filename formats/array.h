/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Growing an array: the one rule every table of ours follows (double,
 * from a first size; nothing changed when memory runs out or the size
 * would overflow).  The kernel's krealloc_array() and drgn's vector.h
 * check the same overflow.
 */
#ifndef OC_FORMATS_ARRAY_H
#define OC_FORMATS_ARRAY_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* The number of elements of the array @a (an array, not a pointer). */
#define OC_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Append a line snprintf()'d from the format and arguments to @lines, a
 * fixed array of char[N] of which @nr are used: a full array drops it
 * (a model's notes, a crash summary's details).
 */
#define OC_APPEND_LINE(lines, nr, ...)                                     \
	do {                                                               \
		if ((nr) < OC_ARRAY_LEN(lines))                            \
			snprintf((lines)[(nr)++], sizeof((lines)[0]),      \
				 __VA_ARGS__);                             \
	} while (0)

/*
 * Room for @more elements of @size bytes after the @nr used in @p, which
 * has room for *@cap: @p itself when they fit, else @p reallocated to
 * double its room (@first at the least) as often as needed, and *@cap
 * updated (an array still NULL is allocated, even for no element).  NULL when out of memory or the size overflows; @p and *@cap
 * are then unchanged.
 */
static inline void *oc_array_grow(void *p, size_t nr, size_t more,
				  size_t *cap, size_t size, size_t first)
{
	size_t n = *cap ? *cap : first;
	void *q;

	if (more > SIZE_MAX - nr)
		return NULL;
	if (p && nr + more <= *cap)
		return p;
	while (n < nr + more) {
		if (n > SIZE_MAX / 2)
			return NULL;
		n *= 2;
	}
	if (n > SIZE_MAX / size)
		return NULL;
	q = realloc(p, n * size);
	if (q)
		*cap = n;
	return q;
}

/*
 * The binary search of every table sorted by an address: how many of the
 * @nr elements at @base (@size bytes each, ascending by the uint64_t
 * @off bytes into each) have that key <= @key, so the last element
 * starting at or below @key is the one before the index returned.
 */
static inline size_t oc_array_upper_bound(const void *base, size_t nr,
					  size_t size, size_t off, uint64_t key)
{
	const unsigned char *p = base;
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t k;

		memcpy(&k, p + mid * size + off, sizeof(k));
		if (k <= key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* An array of @nr malloc'd strings (NULL ones too) and the array itself. */
static inline void oc_strv_free(char **v, size_t nr)
{
	for (size_t i = 0; v && i < nr; i++)
		free(v[i]);
	free(v);
}

/*
 * An array filled whole at once (a table read from a file, an index made
 * over one): malloc'd memory as usual (free() frees it), but aligned to
 * 2 MB, rounded up to it and advised MADV_HUGEPAGE, so that filling it
 * faults once per 2 MB instead of once per 4 KB page where transparent
 * huge pages are enabled.  src/heap.c does the same for the program's
 * main heap; this serves the arrays a thread fills (threads have heaps
 * of their own) and the crash extension.  On the virtual machines
 * measured a 4 KB fault costs ~10 us and a 2 MB one (zeroing included)
 * ~0.2-0.3 ms, so a huge page pays from ~128 KB filled on; but the rest
 * of the 2 MB is memory too, which a run that starts after the machine
 * was idle pays the host's faults for (docs/benchmarks.md, "Fresh memory
 * after a peer"): oc_malloc_big() takes huge pages from 2 MB on.  An
 * array of which a run reads a few pages is best not filled whole at
 * all (src/orc.c's ORC lookup index, filled on lookup).
 */
/* x86-64's transparent huge page (a PMD's 2 MB) */
enum { OC_HUGE_PAGE = 2 << 20 };

/* @size bytes in huge pages from 2 MB on, malloc() below */
static inline void *oc_malloc_big(size_t size)
{
	const size_t huge = OC_HUGE_PAGE;
	size_t round;
	void *p;

	if (size < huge || size > SIZE_MAX - huge)
		return malloc(size);
	round = (size + huge - 1) & ~(huge - 1);
	p = aligned_alloc(huge, round);
	if (!p)
		return malloc(size);
	madvise(p, round, MADV_HUGEPAGE);
	return p;
}

#endif /* OC_FORMATS_ARRAY_H */
