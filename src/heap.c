// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The program's heap, set up for what an open does: a few arrays of
 * megabytes each (the symbol tables, BTF, the ORC tables, the dump's
 * page cache) filled once and kept until the exit.
 *
 * glibc's defaults give every allocation above 128 KB a fresh mmap(2)
 * whose pages then fault in one 4 KB page at a time, and give freed
 * memory back at once.  On the machines measured a page fault costs
 * 5-10 us (a virtual machine's exception path), and the open of a
 * sample took ~5,400 of them: half of the time to the browser's first
 * screen (docs/benchmarks.md, "fifth look").  So, as glibc's own
 * glibc.malloc.hugetlb=1 tunable does (malloc/arena.c, madvise_thp(),
 * glibc 2.35), but from inside the program:
 *
 * - arrays up to 32 MB (M_MMAP_THRESHOLD's ceiling on 64-bit) come from
 *   the heap, which grows 64 MB at a time (M_TOP_PAD: address space;
 *   a page costs only when touched) and is not trimmed below 256 MB of
 *   free top (M_TRIM_THRESHOLD);
 * - the heap's first 64 MB step is made at once, from a 2 MB boundary,
 *   and advised as MADV_HUGEPAGE, so that it faults in 2 MB pages where
 *   transparent huge pages are enabled ("always" or "madvise"; under
 *   "never" the advice does nothing and only the first point stays).
 *   The program break starts anywhere (ASLR): below the first 2 MB
 *   boundary, up to 2 MB would be where the first megabytes are
 *   allocated, a fault per 4 KB page; and a 2 MB page is only made for
 *   a range nothing has touched yet, while malloc writes a header at
 *   each end of the block that grows the heap before the advice can be
 *   given.  So the break is first moved with sbrk() to one page below a
 *   2 MB boundary (address space, never touched), and the heap is grown
 *   by a small block: its headers stay in that page, the advice starts
 *   at the boundary.  (Seen when libkdumpfile and libstdc++ stopped
 *   being loaded at the start, which had allocated before us: 770 to
 *   1,240 faults a run where it had been 670.)  When something
 *   allocated before, the small block may not grow the heap: then a
 *   megabyte does, as before, and the advice covers what it can.
 *
 * Threads' own arenas keep glibc's defaults (one arena for all threads
 * made the parallel JSON report twice as slow: lock contention).  Under
 * a sanitizer or valgrind, whose allocators replace glibc's, none of
 * this has an effect (sbrk() does not move: nothing is advised).  The
 * tunables are speed settings only: a call that fails changes nothing
 * else.
 */
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "array.h"
#include "heap.h"

enum {
	HEAP_STEP = 64 << 20,
	HEAP_MMAP_THRESHOLD = 32 << 20,
	HEAP_TRIM_THRESHOLD = 256 << 20,
};

void oc_heap_setup(void)
{
	uintptr_t start, end, page = (uintptr_t)sysconf(_SC_PAGESIZE);
	/* volatile: the compiler may drop a malloc() whose block is unused */
	void *volatile grow;

	mallopt(M_MMAP_THRESHOLD, HEAP_MMAP_THRESHOLD);
	mallopt(M_TRIM_THRESHOLD, HEAP_TRIM_THRESHOLD);
	mallopt(M_TOP_PAD, HEAP_STEP);
	start = (uintptr_t)sbrk(0);
	if (start != (uintptr_t)-1) {
		uintptr_t below = ((start + page + OC_HUGE_PAGE - 1) &
				   ~(uintptr_t)(OC_HUGE_PAGE - 1)) - page;

		if (below > start && sbrk((intptr_t)(below - start)) != (void *)-1)
			start = below;
	}
	grow = malloc(64);
	end = (uintptr_t)sbrk(0);
	free(grow);
	if (end == start) {	/* the heap had room: see above */
		grow = malloc(1 << 20);
		end = (uintptr_t)sbrk(0);
		free(grow);
	}
	if (start == (uintptr_t)-1 || end == (uintptr_t)-1)
		return;
	start = (start + OC_HUGE_PAGE - 1) & ~(uintptr_t)(OC_HUGE_PAGE - 1);
	end &= ~(uintptr_t)(OC_HUGE_PAGE - 1);
	if (end > start)
		madvise((void *)start, end - start, MADV_HUGEPAGE);
}
