/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ubench: in-process micro-benchmarks for `make bench` (tests/bench/).
 *
 *   ubench [-n ITER] [-l LOOKUPS] [-P] VMCORE [VMLINUX]
 *
 * Opens the kernel model once (src/kernel.h), then:
 *   - unwinds every task ITER times (oc_kernel_unwind_task): frames/s;
 *   - looks up LOOKUPS random addresses of kernel text in the vmlinux ORC
 *     table with oc_orc_table_find(), and the same addresses with a bare
 *     binary search over a sorted copy of the same ips; every answer of
 *     the two is compared (a mismatch is reported and fails the run);
 *   - unless -P: the physical floor of a report.  The model is opened once
 *     more with its memory read through a counter, which notes every
 *     distinct physical page the opening (task list included) and one
 *     unwind of every task touch; then each of those pages is read once
 *     from a freshly opened dump (every read a miss of both caches: one
 *     decompression each in a compressed dump) and, as the bare floor,
 *     each page is deflated with zlib (level 1, as makedumpfile -c and
 *     QEMU's kdump-zlib write it) and inflated again by libdeflate, as
 *     formats/dump_kdump.c inflates, timed.
 * Times are the thread's CPU seconds.  Prints "key value" lines for
 * tests/bench/bench.py.  Never asserts timings.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <libdeflate.h>
#include <zlib.h>

#include "dump.h"
#include "kernel.h"

/*
 * The thread's CPU time, not the wall clock: the machine is shared, and
 * everything timed here is computation or reads from the page cache.
 */
static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
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
	lo = k->text_start ? k->text_start : oc_orc_table_ip(tab, 0);
	hi = k->text_end > lo ? k->text_end :
				oc_orc_table_ip(tab, tab->nr - 1);
	addrs = malloc(NR_ADDRS * sizeof(*addrs));
	ips = malloc(tab->nr * sizeof(*ips));
	if (!addrs || !ips) {
		free(addrs);
		free(ips);
		return 1;
	}
	for (i = 0; i < tab->nr; i++)
		ips[i] = oc_orc_table_ip(tab, i);
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

		struct oc_orc_entry e;

		if (j != SIZE_MAX) {
			oc_orc_table_entry(tab, j, &e);
			sum_bs += ips[j] + (uint64_t)e.sp_offset;
		}
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

/* ---- the physical floor: distinct pages, and the cost of one ---------- */

struct page_set {
	uint64_t *slots;	/* pfn + 1; 0 = empty */
	size_t cap, nr;
	uint64_t *order;	/* pfns in first-touch order */
};

static int page_set_add(struct page_set *ps, uint64_t pfn)
{
	size_t i;

	if (2 * (ps->nr + 1) > ps->cap) {
		struct page_set n = { .cap = ps->cap ? 2 * ps->cap : 1 << 16 };

		n.slots = calloc(n.cap, sizeof(*n.slots));
		n.order = realloc(ps->order, n.cap * sizeof(*n.order));
		if (!n.slots || !n.order) {
			free(n.slots);
			return -1;
		}
		ps->order = n.order;
		for (i = 0; i < ps->cap; i++) {
			size_t j;

			if (!ps->slots[i])
				continue;
			for (j = (ps->slots[i] * 0x9e3779b97f4a7c15ull) & (n.cap - 1);
			     n.slots[j]; j = (j + 1) & (n.cap - 1))
				;
			n.slots[j] = ps->slots[i];
		}
		free(ps->slots);
		ps->slots = n.slots;
		ps->cap = n.cap;
	}
	for (i = ((pfn + 1) * 0x9e3779b97f4a7c15ull) & (ps->cap - 1);
	     ps->slots[i]; i = (i + 1) & (ps->cap - 1))
		if (ps->slots[i] == pfn + 1)
			return 0;
	ps->slots[i] = pfn + 1;
	ps->order[ps->nr++] = pfn;
	return 1;
}

struct counting_mem {
	struct oc_dump *dump;
	struct oc_mem inner;
	struct page_set pages;
	uint64_t reads;
};

static struct oc_error *counting_read(void *arg, uint64_t addr, void *buf,
				      size_t len)
{
	struct counting_mem *cm = arg;
	uint64_t a = addr & ~4095ull, end = addr + len;

	cm->reads++;
	for (; a < end; a += 4096) {
		uint64_t pa;
		struct oc_error *err = oc_dump_virt_to_phys(cm->dump, a, &pa);

		if (err) {
			oc_error_destroy(err);
			continue;
		}
		page_set_add(&cm->pages, pa / 4096);
	}
	return oc_mem_read(&cm->inner, addr, buf, len);
}

static int bench_pages(const char *vmcore, const char *vmlinux)
{
	struct counting_mem cm = { 0 };
	struct oc_kernel_options opts = { .mem = NULL };
	struct oc_mem mem = { .read = counting_read, .arg = &cm };
	struct oc_kernel *k = NULL;
	struct oc_dump *fresh = NULL;
	struct oc_error *err;
	uint64_t frames = 0, done = 0, bad = 0, raw_total = 0, z_total = 0;
	size_t pages_open, i, nz = 0;
	unsigned char page[4096], *zbuf = NULL;
	uLongf *zlen = NULL;
	double t0, t_read, t_inflate = 0;
	int rc = 1;

	err = oc_dump_open(vmcore, &cm.dump);
	if (err)
		goto out;
	oc_dump_mem(cm.dump, &cm.inner);
	if (!oc_dump_has_page_walk(cm.dump)) {
		printf("pages_note no page-table walk: not counted\n");
		rc = 0;
		goto out;
	}
	opts.mem = &mem;
	err = oc_kernel_open(vmcore, vmlinux, &opts, &k);
	if (err)
		goto out;
	pages_open = cm.pages.nr;
	for (i = 0; i < k->nr_tasks; i++) {
		struct oc_trace tr;
		struct oc_error *e;

		oc_trace_init(&tr);
		e = oc_kernel_unwind_task(k, &k->tasks[i], NULL, &tr);
		if (e)
			oc_error_destroy(e);
		frames += tr.nr;
		oc_trace_deinit(&tr);
	}
	printf("pages_open %zu\n", pages_open);
	printf("pages_unwind_new %zu\n", cm.pages.nr - pages_open);
	printf("pages_total %zu\n", cm.pages.nr);
	printf("pages_reads %" PRIu64 "\n", cm.reads);
	printf("pages_frames %" PRIu64 "\n", frames);

	/* each page once from a dump opened afresh: every read a miss */
	err = oc_dump_open(vmcore, &fresh);
	if (err)
		goto out;
	t0 = now();
	for (i = 0; i < cm.pages.nr; i++) {
		struct oc_error *e = oc_dump_read_phys(fresh, cm.pages.order[i] * 4096,
						       page, sizeof(page));

		if (e) {
			oc_error_destroy(e);
			bad++;
		} else {
			done++;
		}
	}
	t_read = now() - t0;
	printf("page_read_cold_pages %" PRIu64 "\n", done);
	printf("page_read_cold_missing %" PRIu64 "\n", bad);
	printf("page_read_cold_us %.3f\n", done ? 1e6 * t_read / (double)done : 0);

	/* deflate level 1 (zlib), then time the inflates (libdeflate) */
	{
		struct libdeflate_decompressor *dd = libdeflate_alloc_decompressor();

		size_t n = cm.pages.nr < 20000 ? cm.pages.nr : 20000;
		uLong bound = compressBound(sizeof(page));

		zbuf = malloc(n * bound);
		zlen = calloc(n, sizeof(*zlen));
		if (!zbuf || !zlen || !dd) {
			libdeflate_free_decompressor(dd);
			goto out;
		}
		for (i = 0; i < n; i++) {
			struct oc_error *e = oc_dump_read_phys(fresh, cm.pages.order[i] * 4096,
							       page, sizeof(page));

			if (e) {
				oc_error_destroy(e);
				continue;
			}
			zlen[nz] = bound;
			if (compress2(zbuf + nz * bound, &zlen[nz], page,
				      sizeof(page), 1) != Z_OK)
				continue;
			z_total += zlen[nz];
			nz++;
		}
		t0 = now();
		for (int rep = 0; rep < 5; rep++)
			for (i = 0; i < nz; i++) {
				size_t out = 0;

				if (libdeflate_zlib_decompress(dd, zbuf + i * bound, zlen[i],
							       page, sizeof(page), &out) ==
				    LIBDEFLATE_SUCCESS)
					raw_total += out;
			}
		t_inflate = now() - t0;
		libdeflate_free_decompressor(dd);
		printf("inflate_pages %zu\n", nz);
		printf("inflate_ratio %.3f\n", nz ? (double)z_total / (double)(nz * sizeof(page)) : 0);
		printf("inflate_us %.3f\n", nz ? 1e6 * t_inflate / (double)(5 * nz) : 0);
	}
	rc = raw_total == 5ull * nz * sizeof(page) ? 0 : 1;
out:
	if (err) {
		fprintf(stderr, "ubench: pages: %s\n", err->message);
		oc_error_destroy(err);
	}
	free(zbuf);
	free(zlen);
	oc_kernel_close(k);
	oc_dump_close(fresh);
	oc_dump_close(cm.dump);
	free(cm.pages.slots);
	free(cm.pages.order);
	return rc;
}

int main(int argc, char **argv)
{
	unsigned int iters = 5;
	size_t lookups = 10000000;
	struct oc_kernel *k;
	struct oc_error *err;
	double t0;
	int opt, rc, pages = 1;

	while ((opt = getopt(argc, argv, "n:l:P")) != -1) {
		switch (opt) {
		case 'n':
			iters = (unsigned int)strtoul(optarg, NULL, 0);
			break;
		case 'l':
			lookups = strtoull(optarg, NULL, 0);
			break;
		case 'P':
			pages = 0;
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
	if (!rc && pages)
		rc = bench_pages(argv[optind],
				 optind + 1 < argc ? argv[optind + 1] : NULL);
	return rc;
usage:
	fprintf(stderr, "usage: ubench [-n ITER] [-l LOOKUPS] [-P] VMCORE [VMLINUX]\n");
	return 2;
}
