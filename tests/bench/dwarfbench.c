// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * How long the DWARF libraries take on a vmlinux, so that the choice of
 * libdwarf stays a measured one (docs/benchmarks.md, docs/lines.md).  One measurement per process, so that the peak
 * RSS is that measurement's alone:
 *
 *   dwarfbench MODE VMLINUX       prints "seconds <s> rss_kb <kb> items <n>"
 *
 *   libdwarf-open   dwarf_init_path(): Debian's libdwarf 20210528 opened the
 *                   stock way (reads the debug sections, applies .rela.debug_*)
 *   libdwarf-cus    the same, then every CU header and its CU DIE
 *   libdwarf-dies   the same, then every DIE of every CU
 *   libdw-open      elfutils' dwarf_begin() (mmap),
 *   libdw-cus       the same, then every CU DIE,
 *   libdw-dies      every DIE of every CU, and
 *   libdw-lookup    the line and scopes of panic+0x10 (DWARFBENCH_ADDR):
 *                   in dwarfbench-libdw
 *                   (tests/bench/dwarfbench_libdw.c; needs libdw-dev), a
 *                   program of its own because libdw and libdwarf export
 *                   the same symbols (dwarf_child, dwarf_formudata, ...)
 *   ours-open       oc_dwarf_open() (formats/dwarflines.c: the mapping handed
 *                   to libdwarf section by section)
 *   ours-lookup     oc_dwarf_open() and the lines + inline chain of one
 *                   address (panic+0x10; DWARFBENCH_ADDR overrides)
 *
 * tests/bench/bench.py runs it; see docs/benchmarks.md.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libdwarf.h>

#include "dwarflines.h"
#include "error.h"
#include "peak_rss.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static long walk_dies(Dwarf_Debug dbg, Dwarf_Die die, int depth)
{
	Dwarf_Error err = NULL;
	Dwarf_Die child, sib;
	long n = 0;

	while (die) {
		n++;
		if (depth < 64 && dwarf_child(die, &child, &err) == DW_DLV_OK)
			n += walk_dies(dbg, child, depth + 1);
		if (dwarf_siblingof_b(dbg, die, 1, &sib, &err) != DW_DLV_OK)
			sib = NULL;
		dwarf_dealloc_die(die);
		die = sib;
	}
	return n;
}

static int libdwarf_run(const char *path, int walk, long *items)
{
	Dwarf_Debug dbg;
	Dwarf_Error err = NULL;
	int rc;

	rc = dwarf_init_path(path, NULL, 0, DW_DLC_READ, DW_GROUPNUMBER_ANY,
			     NULL, NULL, &dbg, NULL, 0, NULL, &err);
	if (rc != DW_DLV_OK) {
		fprintf(stderr, "dwarfbench: %s: dwarf_init_path: %s\n", path,
			rc == DW_DLV_ERROR ? dwarf_errmsg(err) : "no DWARF");
		return 1;
	}
	while (walk) {
		Dwarf_Unsigned next;
		Dwarf_Half type;
		Dwarf_Die die;

		rc = dwarf_next_cu_header_d(dbg, 1, NULL, NULL, NULL, NULL,
					    NULL, NULL, NULL, NULL, &next,
					    &type, &err);
		if (rc == DW_DLV_NO_ENTRY)
			break;
		if (rc != DW_DLV_OK) {
			fprintf(stderr, "dwarfbench: %s: dwarf_next_cu_header_d: %s\n",
				path, dwarf_errmsg(err));
			return 1;
		}
		if (dwarf_siblingof_b(dbg, NULL, 1, &die, &err) == DW_DLV_OK) {
			if (walk == 2) {
				*items += walk_dies(dbg, die, 0);
			} else {
				(*items)++;
				dwarf_dealloc_die(die);
			}
		}
	}
	dwarf_finish(dbg, &err);
	return 0;
}


static int ours_run(const char *path, int lookup, long *items)
{
	struct oc_line_info chain[16];
	struct oc_dwarf *d;
	struct oc_error *err;
	char buf[256];
	size_t nr = 0;

	err = oc_dwarf_open(path, &d);
	if (!err && lookup) {
		const char *env = getenv("DWARFBENCH_ADDR");
		uint64_t addr = env ? strtoull(env, NULL, 0) :
			oc_dwarf_symbol_addr(d, "panic") + 0x10;

		if (!addr || addr == 0x10) {
			fprintf(stderr, "dwarfbench: %s: no symbol panic\n", path);
			return 1;
		}
		err = oc_dwarf_lookup(d, addr, chain, 16, &nr);
		*items = (long)nr;
	}
	if (err) {
		oc_error_string(err, buf, sizeof(buf));
		fprintf(stderr, "dwarfbench: %s\n", buf);
		return 1;
	}
	oc_dwarf_close(d);
	return 0;
}

int main(int argc, char **argv)
{
	long items = 0;
	const char *m;
	double t0;
	int rc;

	if (argc != 3) {
		fprintf(stderr, "usage: dwarfbench MODE VMLINUX\n");
		return 2;
	}
	m = argv[1];
	t0 = now();
	if (!strcmp(m, "libdwarf-open") || !strcmp(m, "libdwarf-cus") ||
	    !strcmp(m, "libdwarf-dies")) {
		rc = libdwarf_run(argv[2], !strcmp(m, "libdwarf-cus") ? 1 :
				  !strcmp(m, "libdwarf-dies") ? 2 : 0, &items);
	} else if (!strcmp(m, "libdw-open") || !strcmp(m, "libdw-cus")) {
		fprintf(stderr, "dwarfbench: %s is dwarfbench-libdw's\n", m);
		return 2;
	} else if (!strcmp(m, "ours-open") || !strcmp(m, "ours-lookup")) {
		rc = ours_run(argv[2], !strcmp(m, "ours-lookup"), &items);
	} else {
		fprintf(stderr, "dwarfbench: unknown mode %s\n", m);
		return 2;
	}
	if (rc)
		return 1;
	printf("seconds %.6f rss_kb %ld items %ld\n", now() - t0, peak_rss_kb(),
	       items);
	return 0;
}
