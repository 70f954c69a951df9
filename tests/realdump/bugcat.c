// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bugcat VMCORE VMLINUX < ADDRESSES: the BUG()/WARN() site the crash
 * summary finds (oc_triage_bug_site(), src/triage.c) for each address
 * read from standard input (hex, as in the vmlinux, before KASLR), one
 * line each: "ADDR FILE LINE B|W", or "ADDR -" when no bug table entry
 * has it.  tests/realdump/triage.sh feeds it the ud2 instructions objdump
 * finds and holds the answers to addr2line.  Exits 2 if the dump cannot
 * be opened.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "kernel.h"
#include "triage.h"

const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libkdumpfile.so\n";
}

int main(int argc, char **argv)
{
	struct oc_kernel_options ko = { 0 };
	struct oc_kernel *k = NULL;
	struct oc_error *err;
	char line[64];

	if (argc != 3) {
		fprintf(stderr, "usage: bugcat VMCORE VMLINUX < ADDRESSES\n");
		return 2;
	}
	err = oc_kernel_open(argv[1], argv[2], &ko, &k);
	if (err) {
		oc_error_fprint(stderr, err);
		fputc('\n', stderr);
		oc_error_destroy(err);
		return 2;
	}
	while (fgets(line, sizeof(line), stdin)) {
		uint64_t a = strtoull(line, NULL, 16);
		struct oc_bug_site b;

		if (oc_triage_bug_site(k, a + k->kaslr_offset, &b))
			printf("%" PRIx64 " %s %u %c\n", a, b.file, b.line,
			       b.warning ? 'W' : 'B');
		else
			printf("%" PRIx64 " -\n", a);
	}
	oc_kernel_close(k);
	return 0;
}
