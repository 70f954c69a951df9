/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The benchmark programs' one measure of memory. */
#ifndef OC_BENCH_PEAK_RSS_H
#define OC_BENCH_PEAK_RSS_H

#include <stdio.h>

/* Peak RSS of this program: VmHWM, not getrusage()'s ru_maxrss, which
 * keeps the parent's peak across fork + exec (a python driver's 40 MB). */
static inline long peak_rss_kb(void)
{
	char line[128];
	long kb = -1;
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmHWM: %ld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

#endif /* OC_BENCH_PEAK_RSS_H */
