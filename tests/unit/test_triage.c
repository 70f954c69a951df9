// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The crash summary's pure rules (src/triage.c) on synthetic traces:
 * the guilty-frame skip table, the kind from the machinery the trace
 * passes through, clone suffixes, the page fault error code as the
 * kernel's show_fault_oops() prints it, and the signature.
 */
#include "test.h"
#include "triage.h"

#define F(sym) { sym, NULL, false, false }
#define M(sym, mod) { sym, mod, false, false }
#define R(sym, mod) { sym, mod, true, false }
#define Q(sym) { sym, NULL, false, true }
#define N(a) (sizeof(a) / sizeof((a)[0]))

/* A trace and what oc_triage_classify() must say of it. */
#define ANY (-100)	/* not checked */
struct classify_case {
	const char *name;
	const struct oc_triage_frame *frames;
	size_t nr;
	long kind, guilty, exception;
};
#define CASE(tr, kind, guilty, exception) \
	{ #tr, tr, N(tr), kind, guilty, exception }

static void check_classify(const struct classify_case *cases, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		const struct classify_case *t = &cases[i];
		struct oc_triage_frames c;

		oc_triage_classify(t->frames, t->nr, &c);
		if (t->kind != ANY && (long)c.kind != t->kind)
			FAIL_AT("%s: kind %d, not %ld", t->name, c.kind, t->kind);
		if (t->guilty != ANY && c.guilty != t->guilty)
			FAIL_AT("%s: guilty %ld, not %ld", t->name, c.guilty,
				t->guilty);
		if (t->exception != ANY && c.exception != t->exception)
			FAIL_AT("%s: exception %ld, not %ld", t->name,
				c.exception, t->exception);
	}
}

TEST(skip_table)
{
	static const char *const skipped[] = {
		"panic", "vpanic", "oops_end.cold", "page_fault_oops",
		"asm_exc_page_fault", "exc_double_fault", "__warn", "_printk",
		"vprintk_emit", "lockdep_hardirqs_on", "__asan_load8",
		"kasan_report", "memcpy", "_raw_spin_lock_irqsave",
	};
	/* prefixes only where the table says so */
	static const char *const kept[] = {
		"panicky_driver_fn", "dieselfn", "memcpy_toio_wrapper",
		"sysrq_handle_crash", "orccrash_oops",
	};

	CHECK_EACH(oc_triage_skipped, skipped, true);
	CHECK_EACH(oc_triage_skipped, kept, false);
	CHECK(!oc_triage_skipped(NULL));
}

TEST(base_name)
{
	char b[64];

	oc_triage_base_name("orccrash_oops_deref.constprop.0", b, sizeof(b));
	CHECK(!strcmp(b, "orccrash_oops_deref"));
	oc_triage_base_name("__handle_sysrq.cold", b, sizeof(b));
	CHECK(!strcmp(b, "__handle_sysrq"));
	oc_triage_base_name("nmi_handle.part.0", b, sizeof(b));
	CHECK(!strcmp(b, "nmi_handle"));
	oc_triage_base_name("foo.llvm.123456", b, sizeof(b));
	CHECK(!strcmp(b, "foo"));
	oc_triage_base_name("plain", b, sizeof(b));
	CHECK(!strcmp(b, "plain"));
	oc_triage_base_name("truncated_name", b, 5);
	CHECK(!strcmp(b, "trun"));
}

/* 6.12's mod-oops panic trace, as the unwinder gives it */
static const struct oc_triage_frame oops[] = {
	F("delay_tsc"), F("vpanic"), F("panic"), F("oops_end"),
	F("page_fault_oops"), F("exc_page_fault"), F("asm_exc_page_fault"),
	R("orccrash_oops_deref.constprop.0", "orccrash_test"),
	M("orccrash_oops", "orccrash_test"), M("orccrash_write", "orccrash_test"),
	F("proc_reg_write"), F("vfs_write"), F("ksys_write"),
	F("do_syscall_64"), F("entry_SYSCALL_64_after_hwframe"),
};

TEST(classify_oops)
{
	static const struct classify_case c =
		CASE(oops, OC_CRASH_PAGE_FAULT, 7, 7);

	check_classify(&c, 1);
}

TEST(classify_sysrq_and_panic)
{
	/* 6.1: no vpanic; the sysrq handler is the guilty frame */
	static const struct oc_triage_frame sysrq[] = {
		F("delay_tsc"), F("panic"), F("sysrq_handle_crash"),
		F("__handle_sysrq.cold"), F("write_sysrq_trigger"),
	};
	/* kdump: __crash_kexec on top, panic() from a module's timer */
	static const struct oc_triage_frame timer[] = {
		F("__crash_kexec"), F("vpanic"), F("panic"),
		M("orccrash_timer_panic", "orccrash_test"),
		M("orccrash_timer_fn", "orccrash_test"), F("call_timer_fn"),
	};
	/* a panic() from an NMI handler: the NMI entry is below the culprit */
	static const struct oc_triage_frame nmi[] = {
		F("delay_tsc"), F("vpanic"), F("panic"),
		M("orccrash_nmi_panic", "orccrash_test"),
		M("orccrash_nmi_handler", "orccrash_test"),
		F("nmi_handle.part.0"), F("default_do_nmi"), F("exc_nmi"),
		F("end_repeat_nmi"), R("rep_stos_alternative", NULL),
	};
	static const struct classify_case cases[] = {
		CASE(sysrq, OC_CRASH_SYSRQ, 2, ANY),
		CASE(timer, OC_CRASH_PANIC, 3, ANY),
		CASE(nmi, OC_CRASH_PANIC, 3, -1),
	};

	check_classify(cases, N(cases));
}

TEST(classify_exceptions)
{
	static const struct oc_triage_frame overflow[] = {
		F("delay_tsc"), F("panic"), F("oops_end.cold"),
		F("handle_stack_overflow"), F("exc_double_fault"),
		F("asm_exc_double_fault"), R("recurse", "m"), M("recurse", "m"),
	};
	/* exc_double_fault() -> die("double fault") -> oops_end() */
	static const struct oc_triage_frame df[] = {
		F("panic"), F("oops_end"), F("die"), F("exc_double_fault"),
		F("asm_exc_double_fault"), R("bad_fn", NULL),
	};
	/* panic_on_warn: __warn says WARN before exc_invalid_op says BUG */
	static const struct oc_triage_frame warn[] = {
		F("panic"), F("check_panic_on_warn"), F("__warn"),
		F("report_bug"), F("handle_bug"), F("exc_invalid_op"),
		F("asm_exc_invalid_op"), R("my_fn", "mymod"),
	};
	static const struct oc_triage_frame bug[] = {
		F("panic"), F("oops_end"), F("do_trap"), F("do_error_trap"),
		F("handle_invalid_op"), F("exc_invalid_op"),
		F("asm_exc_invalid_op"), R("my_fn", "mymod"),
	};
	static const struct oc_triage_frame gpf[] = {
		F("panic"), F("oops_end"), F("die_addr"),
		F("exc_general_protection"), F("asm_exc_general_protection"),
		R("memcpy", NULL), F("my_copy"),
	};
	static const struct classify_case cases[] = {
		CASE(overflow, OC_CRASH_STACK_OVERFLOW, 6, ANY),
		CASE(df, OC_CRASH_DOUBLE_FAULT, 5, ANY),
		CASE(warn, OC_CRASH_WARN, 7, ANY),
		CASE(bug, OC_CRASH_BUG, 7, ANY),
		/* a generic wrapper at the fault: its caller is guilty */
		CASE(gpf, OC_CRASH_GPF, 6, 5),
	};

	check_classify(cases, N(cases));
}

TEST(classify_lockups)
{
	/* softlockup_panic: the culprit is below the timer interrupt's regs */
	static const struct oc_triage_frame soft[] = {
		F("panic"), F("watchdog_timer_fn"), F("__hrtimer_run_queues"),
		F("hrtimer_interrupt"), F("__sysvec_apic_timer_interrupt"),
		F("sysvec_apic_timer_interrupt"),
		F("asm_sysvec_apic_timer_interrupt"), R("spin_forever", "m"),
		M("caller", "m"),
	};
	static const struct oc_triage_frame hard[] = {
		F("panic"), F("watchdog_hardlockup_check"),
		F("watchdog_overflow_callback"), F("__perf_event_overflow"),
		F("perf_event_nmi_handler"), F("nmi_handle"),
		F("default_do_nmi"), F("exc_nmi"), F("end_repeat_nmi"),
		R("_raw_spin_lock", NULL), F("stuck_fn"),
	};
	static const struct oc_triage_frame hung[] = {
		F("panic"), F("check_hung_uninterruptible_tasks"),
		F("watchdog"), F("kthread"),
	};
	static const struct classify_case cases[] = {
		CASE(soft, OC_CRASH_SOFT_LOCKUP, 7, ANY),
		/* the spin lock is a wrapper */
		CASE(hard, OC_CRASH_HARD_LOCKUP, 10, ANY),
		CASE(hung, OC_CRASH_HUNG_TASK, -1, ANY),
	};

	check_classify(cases, N(cases));
}

TEST(classify_edges)
{
	static const struct oc_triage_frame none[] = {
		F("native_safe_halt"), F("default_idle"), F("do_idle"),
	};
	static const struct oc_triage_frame scanned[] = {
		F("panic"), Q("stale_fn"), F("real_fn"),
	};
	static const struct oc_triage_frame unknown[] = {
		F("panic"), { NULL, NULL, false, false }, F("x"),
	};
	static const struct classify_case cases[] = {
		/* no panic(): the kind is not made up */
		CASE(none, OC_CRASH_UNKNOWN, 0, ANY),
		CASE(scanned, ANY, 2, ANY),
		CASE(unknown, ANY, 1, ANY),
		{ "no frames", NULL, 0, OC_CRASH_UNKNOWN, -1, ANY },
	};

	check_classify(cases, N(cases));
}

TEST(pf_error_code)
{
	/* an error code and the two lines show_fault_oops() makes of it
	 * (NULL: not checked) */
	static const struct {
		uint64_t code;
		bool user_mode;
		const char *access, *why;
	} cases[] = {
		/* the lines of the 6.1 and 6.12 mod-oops logs:
		 * error_code(0x0000) */
		{ 0, false, "supervisor read access in kernel mode",
		  "not-present page" },
		{ 0x0002, false, "supervisor write access in kernel mode", NULL },
		{ 0x0011, false, "supervisor instruction fetch in kernel mode",
		  "permissions violation" },
		{ 0x0007, true, "user write access in user mode",
		  "permissions violation" },
		{ 0x0009, false, NULL, "reserved bit violation" },
		{ 0x0021, false, NULL, "protection keys violation" },
		{ 0x8001, false, NULL, "SGX violation" },
	};
	char a[64], w[64];

	for (size_t i = 0; i < N(cases); i++) {
		oc_triage_pf_error(cases[i].code, cases[i].user_mode, a,
				   sizeof(a), w, sizeof(w));
		if (cases[i].access)
			CHECK_STR(a, cases[i].access);
		if (cases[i].why)
			CHECK_STR(w, cases[i].why);
	}
}

TEST(signature)
{
	/* the same bug in another build: clone suffixes, a 6.1 .cold part */
	static const struct oc_triage_frame oops61[] = {
		F("delay_tsc"), F("panic"), F("oops_end.cold"),
		F("page_fault_oops"), F("exc_page_fault"), F("asm_exc_page_fault"),
		R("orccrash_oops_deref.constprop.0", "orccrash_test"),
		M("orccrash_oops", "orccrash_test"),
		M("orccrash_write.cold", "orccrash_test"),
		F("proc_reg_write"), F("vfs_write"), F("ksys_write"),
	};
	static const struct oc_triage_frame other_mod[] = {
		R("orccrash_oops_deref", "other"), M("orccrash_oops", "orccrash_test"),
		M("orccrash_write", "orccrash_test"), F("proc_reg_write"),
		F("vfs_write"),
	};
	struct oc_triage_frames c;
	char a[17], b[17], d[17], e[17];

	oc_triage_classify(oops, N(oops), &c);
	oc_triage_signature(c.kind, oops, N(oops), c.guilty, a);
	CHECK_EQ(strlen(a), 16);
	oc_triage_classify(oops61, N(oops61), &c);
	oc_triage_signature(c.kind, oops61, N(oops61), c.guilty, b);
	CHECK(!strcmp(a, b));
	/* the kind counts */
	oc_triage_signature(OC_CRASH_NULL_DEREF, oops61, N(oops61), c.guilty, d);
	CHECK(strcmp(a, d));
	/* the module counts */
	oc_triage_signature(OC_CRASH_PAGE_FAULT, other_mod, N(other_mod), 0, e);
	CHECK(strcmp(a, e));
	/* only five frames from the guilty one count */
	oc_triage_signature(OC_CRASH_PAGE_FAULT, oops, 7 + OC_TRIAGE_SIG_FRAMES,
			    7, d);
	CHECK(!strcmp(a, d));
	oc_triage_signature(OC_CRASH_PAGE_FAULT, oops, 7 + OC_TRIAGE_SIG_FRAMES - 1,
			    7, d);
	CHECK(strcmp(a, d));
	/* no guilty frame, no signature */
	oc_triage_signature(OC_CRASH_PANIC, oops, N(oops), -1, d);
	CHECK(!d[0]);
	/* FNV-1a 64 of "unknown\0x\0\0", computed with Python: fixed,
	 * so a bug's signature stays the same from one orccrash version to
	 * the next */
	{
		static const struct oc_triage_frame x[] = { F("x") };

		oc_triage_signature(OC_CRASH_UNKNOWN, x, 1, 0, d);
		CHECK(!strcmp(d, "6d9a6887f979ccc1"));
	}
}

TEST(kind_names)
{
	CHECK(!strcmp(oc_crash_kind_name(OC_CRASH_NULL_DEREF), "null-deref"));
	CHECK(!strcmp(oc_crash_kind_name(OC_CRASH_PANIC), "panic"));
	CHECK(!strcmp(oc_crash_kind_name((enum oc_crash_kind)999), "unknown"));
}

/* Puts a struct bug_entry (6.1-6.12 x86-64 layout: s32 bug_addr_disp,
 * s32 file_disp, u16 line, u16 flags) for @bug at entry @i of @tab. */
static void bug_entry(uint8_t *tab, size_t i, uint64_t tab_addr, uint64_t bug)
{
	int32_t disp = (int32_t)(int64_t)(bug - (tab_addr + i * 12));

	memcpy(tab + i * 12, &disp, 4);
}

TEST(bug_table_find)
{
	const uint64_t base = 0xffffffff82a00000ULL;
	uint8_t tab[4 * 12] = {0};

	/* relative to the entry's own address: forwards and backwards */
	bug_entry(tab, 0, base, 0xffffffff81000100ULL);
	bug_entry(tab, 1, base, 0xffffffff81000200ULL);
	bug_entry(tab, 2, base, 0xffffffff82b00000ULL);
	bug_entry(tab, 3, base, 0xffffffff81000200ULL + 2);
	CHECK_EQ(oc_triage_bug_find(tab, 4, 12, 0, base, 0xffffffff81000100ULL), 0);
	CHECK_EQ(oc_triage_bug_find(tab, 4, 12, 0, base, 0xffffffff81000200ULL), 1);
	CHECK_EQ(oc_triage_bug_find(tab, 4, 12, 0, base, 0xffffffff82b00000ULL), 2);
	CHECK_EQ(oc_triage_bug_find(tab, 4, 12, 0, base, 0xffffffff81000202ULL), 3);
	/* not an entry; the same displacement at another entry is another address */
	CHECK_EQ(oc_triage_bug_find(tab, 4, 12, 0, base, 0xffffffff81000101ULL), -1);
	CHECK_EQ(oc_triage_bug_find(tab, 4, 12, 0, base + 12, 0xffffffff81000100ULL), -1);
	/* an entry too small for the displacement */
	CHECK_EQ(oc_triage_bug_find(tab, 4, 3, 0, base, 0xffffffff81000100ULL), -1);
	CHECK_EQ(oc_triage_bug_find(tab, 0, 12, 0, base, 0xffffffff81000100ULL), -1);
}
