/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ubench: in-process micro-benchmarks for `make bench` (tests/bench/).
 *
 *   ubench [-n ITER] [-l LOOKUPS] VMCORE [VMLINUX]
 *
 * Opens the kernel model once (src/kernel.h), then:
 *   - unwinds every task ITER times (oc_kernel_unwind_task): frames/s;
 *   - looks up LOOKUPS random addresses of kernel text in the vmlinux ORC
 *     table with oc_orc_table_find(), and the same addresses with a bare
 *     binary search over a sorted copy of the same ips; every answer of
 *     the two is compared (a mismatch is reported and fails the run).
 * Prints "key value" lines for tests/bench/bench.py.  Never asserts timings.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kernel.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64_t xorshift(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*s = x;
	return x;
}

/* The rightmost ip <= addr, or SIZE_MAX: the baseline. */
static size_t bare_bsearch(const uint64_t *ips, size_t nr, uint64_t addr)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ips[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? lo - 1 : SIZE_MAX;
}

static int bench_unwind(const struct oc_kernel *k, unsigned int iters)
{
	uint64_t frames = 0, traces = 0, unreliable = 0;
	double t0, t;
	unsigned int it;
	size_t i;

	t0 = now();
	for (it = 0; it < iters; it++) {
		for (i = 0; i < k->nr_tasks; i++) {
			struct oc_trace tr;
			struct oc_error *err;

			oc_trace_init(&tr);
			err = oc_kernel_unwind_task(k, &k->tasks[i], NULL, &tr);
			if (err) {
				fprintf(stderr, "ubench: pid %d: %s\n",
					k->tasks[i].pid, err->message);
				oc_error_destroy(err);
				oc_trace_deinit(&tr);
				return 1;
			}
			frames += tr.nr;
			traces++;
			unreliable += !tr.reliable;
			oc_trace_deinit(&tr);
		}
	}
	t = now() - t0;
	printf("tasks %zu\n", k->nr_tasks);
	printf("unwind_iters %u\n", iters);
	printf("unwind_traces %" PRIu64 "\n", traces);
	printf("unwind_frames %" PRIu64 "\n", frames);
	printf("unwind_unreliable %" PRIu64 "\n", unreliable);
	printf("unwind_s %.6f\n", t);
	printf("unwind_frames_per_s %.0f\n", t > 0 ? (double)frames / t : 0);
	printf("unwind_tasks_per_s %.0f\n", t > 0 ? (double)traces / t : 0);
	return 0;
}

static int bench_orc(const struct oc_kernel *k, size_t lookups)
{
	const struct oc_orc_table *tab = &k->orc;
	enum { NR_ADDRS = 1 << 16 };
	uint64_t *addrs, *ips, seed = 0x9e3779b97f4a7c15ull, sum_orc = 0,
		 sum_bs = 0, lo, hi;
	size_t i, mismatches = 0;
	double t0, t_orc, t_bs;

	if (!tab->nr) {
		printf("orc_entries 0\n");
		return 0;
	}
	lo = k->text_start ? k->text_start : tab->ips[0];
	hi = k->text_end > lo ? k->text_end : tab->ips[tab->nr - 1];
	addrs = malloc(NR_ADDRS * sizeof(*addrs));
	ips = malloc(tab->nr * sizeof(*ips));
	if (!addrs || !ips) {
		free(addrs);
		free(ips);
		return 1;
	}
	memcpy(ips, tab->ips, tab->nr * sizeof(*ips));
	for (i = 0; i < NR_ADDRS; i++)
		addrs[i] = lo + xorshift(&seed) % (hi - lo);

	/* the two must agree on every address */
	for (i = 0; i < NR_ADDRS; i++) {
		uint64_t eip = 0;
		bool found = oc_orc_table_find(tab, addrs[i], NULL, &eip);
		size_t j = bare_bsearch(ips, tab->nr, addrs[i]);

		if (found != (j != SIZE_MAX) || (found && eip != ips[j]))
			mismatches++;
	}

	t0 = now();
	for (i = 0; i < lookups; i++) {
		struct oc_orc_entry e;
		uint64_t eip = 0;

		if (oc_orc_table_find(tab, addrs[i & (NR_ADDRS - 1)], &e, &eip))
			sum_orc += eip + (uint64_t)e.sp_offset;
	}
	t_orc = now() - t0;
	t0 = now();
	for (i = 0; i < lookups; i++) {
		size_t j = bare_bsearch(ips, tab->nr, addrs[i & (NR_ADDRS - 1)]);

		if (j != SIZE_MAX)
			sum_bs += ips[j] + (uint64_t)tab->entries[j].sp_offset;
	}
	t_bs = now() - t0;

	printf("orc_entries %zu\n", tab->nr);
	printf("orc_lookup_index %s\n", tab->lookup ? "yes" : "no");
	printf("orc_lookups %zu\n", lookups);
	printf("orc_mismatches %zu\n", mismatches);
	printf("orc_checksum_equal %s\n", sum_orc == sum_bs ? "yes" : "no");
	printf("orc_find_s %.6f\n", t_orc);
	printf("orc_find_per_s %.0f\n", t_orc > 0 ? (double)lookups / t_orc : 0);
	printf("bsearch_s %.6f\n", t_bs);
	printf("bsearch_per_s %.0f\n", t_bs > 0 ? (double)lookups / t_bs : 0);
	/* > 1: oc_orc_table_find is slower than the bare search */
	printf("orc_find_vs_bsearch %.3f\n", t_bs > 0 ? t_orc / t_bs : 0);
	free(addrs);
	free(ips);
	return mismatches || sum_orc != sum_bs;
}

int main(int argc, char **argv)
{
	unsigned int iters = 5;
	size_t lookups = 10000000;
	struct oc_kernel *k;
	struct oc_error *err;
	double t0;
	int opt, rc;

	while ((opt = getopt(argc, argv, "n:l:")) != -1) {
		switch (opt) {
		case 'n':
			iters = (unsigned int)strtoul(optarg, NULL, 0);
			break;
		case 'l':
			lookups = strtoull(optarg, NULL, 0);
			break;
		default:
			goto usage;
		}
	}
	if (optind >= argc || argc - optind > 2)
		goto usage;
	t0 = now();
	err = oc_kernel_open(argv[optind],
			     optind + 1 < argc ? argv[optind + 1] : NULL, NULL,
			     &k);
	if (err) {
		fprintf(stderr, "ubench: %s\n", err->message);
		oc_error_destroy(err);
		return 1;
	}
	printf("open_s %.6f\n", now() - t0);
	rc = bench_unwind(k, iters);
	if (!rc)
		rc = bench_orc(k, lookups);
	oc_kernel_close(k);
	return rc;
usage:
	fprintf(stderr, "usage: ubench [-n ITER] [-l LOOKUPS] VMCORE [VMLINUX]\n");
	return 2;
}
