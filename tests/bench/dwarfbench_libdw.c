// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dwarfbench-libdw MODE VMLINUX: the libdw half of tests/bench/dwarfbench.c
 * (modes libdw-open, libdw-cus; same output).  A program of its own:
 * libdw and libdwarf export the same symbols (dwarf_child, ...), so one
 * process cannot link both.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <elfutils/libdw.h>

#include "peak_rss.h"

static long walk_dies(Dwarf_Die *die, int depth)
{
	Dwarf_Die child;
	long n = 0;

	do {
		n++;
		if (depth < 64 && dwarf_child(die, &child) == 0)
			n += walk_dies(&child, depth + 1);
	} while (dwarf_siblingof(die, die) == 0);
	return n;
}

/* The lines row and the scopes (inline chain) of one address, the way
 * eu-addr2line -i does it. */
static long lookup(Dwarf *dw, Dwarf_Addr addr)
{
	Dwarf_Die cu, *scopes = NULL;
	Dwarf_Line *line;
	int nscopes;
	int lineno = 0;

	if (!dwarf_addrdie(dw, addr, &cu))
		return -1;
	line = dwarf_getsrc_die(&cu, addr);
	if (line)
		dwarf_lineno(line, &lineno);
	nscopes = dwarf_getscopes(&cu, addr, &scopes);
	free(scopes);
	return lineno > 0 ? nscopes : -1;
}

static int libdw_run(const char *path, int walk, long *items)
{
	Dwarf_Off off = 0, next;
	size_t hsize;
	Dwarf *dw;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0) {
		perror(path);
		return 1;
	}
	dw = dwarf_begin(fd, DWARF_C_READ);
	if (!dw) {
		fprintf(stderr, "dwarfbench: %s: dwarf_begin: %s\n", path,
			dwarf_errmsg(-1));
		return 1;
	}
	while ((walk == 1 || walk == 2) && dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL,
				    NULL) == 0) {
		Dwarf_Die die;

		if (dwarf_offdie(dw, off + hsize, &die))
			*items += walk == 2 ? walk_dies(&die, 0) : 1;
		off = next;
	}
	if (walk == 3) {
		Dwarf_Addr addr = strtoull(getenv("DWARFBENCH_ADDR") ?
					   getenv("DWARFBENCH_ADDR") : "0", NULL, 0);

		*items = lookup(dw, addr);
		if (*items < 0) {
			fprintf(stderr, "dwarfbench-libdw: no line for 0x%llx\n",
				(unsigned long long)addr);
			return 1;
		}
	}
	dwarf_end(dw);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	struct timespec t0, t1;
	long items = 0;

	static const char *const modes[] = {
		"libdw-open", "libdw-cus", "libdw-dies", "libdw-lookup",
	};
	int walk = -1;

	for (int i = 0; argc == 3 && i < 4; i++)
		if (!strcmp(argv[1], modes[i]))
			walk = i;
	if (walk < 0) {
		fprintf(stderr, "usage: dwarfbench-libdw libdw-open|libdw-cus|libdw-dies|libdw-lookup VMLINUX\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (libdw_run(argv[2], walk, &items))
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("seconds %.6f rss_kb %ld items %ld\n",
	       (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
	       peak_rss_kb(), items);
	return 0;
}
