// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The text report's per-task lines (src/report.c), which are made by
 * appending rather than by printf: every task's line and every user
 * task's registers must read exactly as the printf formats they replaced
 * (kept here as the oracle: crash's "PID: %-7d ..." task line, the
 * kernel's __show_regs() register lines), whatever the numbers' widths
 * and signs and whatever bytes a comm holds.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "report.h"
#include "strutil.h"
#include "test.h"

/* What @fn wrote to a memory stream, malloc'd. */
#define CAPTURE(buf, len, call)                                             \
	do {                                                                \
		FILE *out = open_memstream(&(buf), &(len));                 \
		CHECK(out != NULL);                                         \
		call;                                                       \
		CHECK(fclose(out) == 0);                                    \
	} while (0)

static void old_task_line(const struct oc_task *t, FILE *out)
{
	char comm[128];

	fprintf(out, "PID: %-7d TGID: %-7d CPU: %-3d STATE: %c  COMM: \"%s\"  TASK: %016" PRIx64 "%s\n",
		t->pid, t->tgid, t->cpu, t->state,
		oc_esc(comm, sizeof(comm), t->comm, OC_ESC_QUOTE), t->addr,
		t->running_on >= 0 ? "  (running)" : "");
}

static void check_same(const char *what, const char *got, size_t got_len,
		       const char *want, size_t want_len)
{
	if (got_len != want_len || memcmp(got, want, want_len))
		FAIL_AT("%s:\n    got  \"%.*s\"\n    want \"%.*s\"", what,
			(int)got_len, got, (int)want_len, want);
}

TEST(report_task_line_as_printf)
{
	static const int32_t ids[] = { 0, 1, 7, 1234567, 12345678, INT32_MAX,
				       -1, -123456, INT32_MIN };
	static const int cpus[] = { 0, 3, 99, 100, 12345, -1, -42 };
	static const char *const comms[] = {
		"", "init", "kworker/0:1H", "0123456789abcde",
		"a\"b\\c", "tab\there", "\x1b[31mred", "caf\xc3\xa9", "\xff\xfe",
		"\x7f\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e",
	};
	static const char states[] = "RSDTtXZPI?";
	uint64_t seed = 0x5eed;
	size_t n = 0;

	for (size_t i = 0; i < 400; i++) {
		struct oc_task t;
		char *got = NULL, *want = NULL;
		size_t got_len = 0, want_len = 0;

		memset(&t, 0, sizeof(t));
		t.pid = ids[oc_test_rand(&seed) % (sizeof(ids) / sizeof(ids[0]))];
		t.tgid = ids[oc_test_rand(&seed) % (sizeof(ids) / sizeof(ids[0]))];
		t.cpu = cpus[oc_test_rand(&seed) % (sizeof(cpus) / sizeof(cpus[0]))];
		t.state = states[oc_test_rand(&seed) % (sizeof(states) - 1)];
		snprintf(t.comm, sizeof(t.comm), "%s",
			 comms[i % (sizeof(comms) / sizeof(comms[0]))]);
		t.addr = i % 3 == 0 ? 0 : i % 3 == 1 ? UINT64_MAX :
					   oc_test_rand(&seed) >> (i % 64);
		t.running_on = i % 2 ? -1 : (int)(i % 8);
		CAPTURE(got, got_len, oc_report_print_task_line(&t, out));
		CAPTURE(want, want_len, old_task_line(&t, out));
		check_same("task line", got, got_len, want, want_len);
		n += got_len == want_len;
		free(got);
		free(want);
	}
	CHECK_EQ(n, 400);
}

static void old_regs(const struct oc_kernel *k, const struct oc_frame *f,
		     const char *indent, FILE *out)
{
	const struct oc_regs *r = &f->regs;
	char rip[256];

	oc_report_format_addr(k, r->ip, rip, sizeof(rip));
	fprintf(out, "%sRIP: %04x:%s\n", indent, (unsigned)(r->cs & 0xffff), rip);
	fprintf(out, "%sRSP: %04x:%016" PRIx64 " EFLAGS: %08" PRIx64, indent,
		(unsigned)(r->ss & 0xffff), r->sp, r->flags);
	if (f->regs_kind == OC_REGS_FULL && r->orig_ax != UINT64_MAX)
		fprintf(out, " ORIG_RAX: %016" PRIx64, r->orig_ax);
	fputc('\n', out);
	if (f->regs_kind != OC_REGS_FULL)
		return;
	fprintf(out, "%sRAX: %016" PRIx64 " RBX: %016" PRIx64 " RCX: %016" PRIx64 "\n",
		indent, r->ax, r->bx, r->cx);
	fprintf(out, "%sRDX: %016" PRIx64 " RSI: %016" PRIx64 " RDI: %016" PRIx64 "\n",
		indent, r->dx, r->si, r->di);
	fprintf(out, "%sRBP: %016" PRIx64 " R08: %016" PRIx64 " R09: %016" PRIx64 "\n",
		indent, r->bp, r->r8, r->r9);
	fprintf(out, "%sR10: %016" PRIx64 " R11: %016" PRIx64 " R12: %016" PRIx64 "\n",
		indent, r->r10, r->r11, r->r12);
	fprintf(out, "%sR13: %016" PRIx64 " R14: %016" PRIx64 " R15: %016" PRIx64 "\n",
		indent, r->r13, r->r14, r->r15);
}

/* A kernel with no symbols: a RIP prints as its number. */
TEST(report_regs_as_printf)
{
	static const char *const indents[] = { "", " ", "    " };
	struct oc_kernel k;
	uint64_t seed = 0xfeed;
	size_t n = 0;

	memset(&k, 0, sizeof(k));
	for (size_t i = 0; i < 300; i++) {
		struct oc_frame f;
		uint64_t *w = (uint64_t *)&f.regs;
		char *got = NULL, *want = NULL;
		size_t got_len = 0, want_len = 0;

		memset(&f, 0, sizeof(f));
		/* every register 0, all ones, or a random width */
		for (size_t j = 0; j < sizeof(f.regs) / sizeof(*w); j++) {
			uint64_t r = oc_test_rand(&seed);

			w[j] = r % 5 == 0 ? 0 : r % 5 == 1 ? UINT64_MAX :
						      oc_test_rand(&seed) >> (r % 64);
		}
		f.regs_kind = i % 3 == 0 ? OC_REGS_PARTIAL : OC_REGS_FULL;
		if (i % 4 == 0)
			f.regs.orig_ax = UINT64_MAX;
		CAPTURE(got, got_len,
			oc_report_print_regs(&k, &f, indents[i % 3], out));
		CAPTURE(want, want_len, old_regs(&k, &f, indents[i % 3], out));
		check_same("registers", got, got_len, want, want_len);
		n += got_len == want_len;
		free(got);
		free(want);
	}
	CHECK_EQ(n, 300);
}
