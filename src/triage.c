// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The crash summary (src/triage.h, docs/triage.md).
 *
 * The panic CPU's trace is read innermost first.  The frames above the
 * outermost panic()/vpanic() are what panic() itself called (mdelay,
 * __crash_kexec, printk) and say nothing about the crash.  Below it the
 * kernel's own reporting machinery comes first (oops_end, die,
 * page_fault_oops, exc_page_fault, the asm_exc_* entry whose pt_regs the
 * walk crosses ...): the functions it passes through say which kind of
 * crash the kernel saw, and the first frame that is not machinery is the
 * guilty one.  The machinery table is modelled on syzkaller's
 * skipPatterns (pkg/report/linux.go), which does the same on oops text;
 * here it is matched against the unwound frames, not a log.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "framevars.h"
#include "log.h"
#include "triage.h"

static const char *const kind_names[] = {
	[OC_CRASH_UNKNOWN] = "unknown",
	[OC_CRASH_PAGE_FAULT] = "page-fault",
	[OC_CRASH_NULL_DEREF] = "null-deref",
	[OC_CRASH_GPF] = "general-protection",
	[OC_CRASH_BUG] = "bug",
	[OC_CRASH_WARN] = "warn",
	[OC_CRASH_STACK_OVERFLOW] = "stack-overflow",
	[OC_CRASH_DOUBLE_FAULT] = "double-fault",
	[OC_CRASH_HARD_LOCKUP] = "hard-lockup",
	[OC_CRASH_NMI] = "nmi",
	[OC_CRASH_SOFT_LOCKUP] = "soft-lockup",
	[OC_CRASH_HUNG_TASK] = "hung-task",
	[OC_CRASH_RCU_STALL] = "rcu-stall",
	[OC_CRASH_MCE] = "machine-check",
	[OC_CRASH_SYSRQ] = "sysrq",
	[OC_CRASH_PANIC] = "panic",
};

const char *oc_crash_kind_name(enum oc_crash_kind kind)
{
	return (size_t)kind < OC_ARRAY_LEN(kind_names) ? kind_names[kind]
						       : "unknown";
}

/*
 * The functions the guilty-frame search skips: panic, oops, exception,
 * printk, lockdep and sanitizer machinery, and generic wrappers that are
 * never the culprit themselves.  A trailing '*' matches a prefix.  Names
 * are base names (oc_triage_base_name()).  Kernel functions of 6.1-6.12
 * (kernel/panic.c, arch/x86/kernel/{traps,dumpstack,nmi}.c,
 * arch/x86/mm/fault.c, lib/bug.c, kernel/watchdog*.c, kernel/hung_task.c).
 */
static const char *const skip_table[] = {
	/* panic() and what it calls */
	"panic", "vpanic", "nmi_panic", "__crash_kexec", "crash_kexec",
	"check_panic_on_warn", "panic_smp_self_stop",
	/* oops reporting */
	"oops_end", "oops_begin", "die", "die_addr", "__die", "__die_body",
	"do_trap", "do_error_trap", "do_int3*",
	"page_fault_oops", "kernelmode_fixup_or_oops", "no_context",
	"bad_area_nosemaphore", "__bad_area_nosemaphore", "__bad_area",
	"bad_area", "do_user_addr_fault", "do_kern_addr_fault",
	"handle_page_fault", "spurious_kernel_fault", "fixup_exception",
	"handle_stack_overflow", "handle_bug", "handle_invalid_op",
	"report_bug", "__report_bug", "__warn", "warn_slowpath_fmt",
	"__warn_printk", "fixup_bug",
	/* exception and interrupt entry */
	"exc_*", "asm_exc_*", "sysvec_*", "asm_sysvec_*", "__sysvec_*",
	"common_interrupt", "asm_common_interrupt", "__common_interrupt",
	"irq_exit_rcu", "__irq_exit_rcu",
	/* NMI, watchdogs, MCE */
	"nmi_handle", "default_do_nmi", "end_repeat_nmi", "repeat_nmi",
	"nmi_restore", "unknown_nmi_error", "pci_serr_error",
	"io_check_error", "watchdog_timer_fn", "watchdog_overflow_callback",
	"watchdog_hardlockup_check", "watchdog_check_hardlockup",
	"mce_panic", "do_machine_check", "rcu_sched_clock_irq",
	"print_cpu_stall", "check_cpu_stall", "rcu_pending",
	/* printing */
	"printk", "_printk", "vprintk*", "printk_*", "dump_stack*",
	"show_stack", "show_regs", "__show_regs", "show_trace_log_lvl",
	"show_stack_log_lvl",
	/* lockdep and the sanitizers */
	"lockdep_*", "lock_acquire", "lock_release", "__lock_acquire",
	"kasan_*", "__kasan_*", "__asan_*", "kmsan_*", "__msan_*",
	"__ubsan_*", "ubsan_*", "kcsan_*", "__tsan_*",
	/* generic wrappers */
	"memcpy", "__memcpy", "memmove", "__memmove", "memset", "__memset",
	"memcmp", "strcpy", "strncpy", "strlen", "strcmp", "strncmp",
	"mutex_lock", "mutex_unlock", "__mutex_lock*", "_raw_spin_*",
	"_raw_read_*", "_raw_write_*", "queued_spin_lock_slowpath",
	"down_read", "down_write", "up_read", "up_write",
	"__might_sleep", "__might_fault", "__might_resched",
};

static bool name_matches(const char *name, const char *pat)
{
	size_t n = strlen(pat);

	if (n && pat[n - 1] == '*')
		return !strncmp(name, pat, n - 1);
	return !strcmp(name, pat);
}

bool oc_triage_skipped(const char *symbol)
{
	char base[128];

	if (!symbol)
		return false;
	oc_triage_base_name(symbol, base, sizeof(base));
	for (size_t i = 0; i < sizeof(skip_table) / sizeof(skip_table[0]); i++)
		if (name_matches(base, skip_table[i]))
			return true;
	return false;
}

void oc_triage_base_name(const char *symbol, char *buf, size_t size)
{
	/* GCC's clones (.cold, .part.N, .constprop.N, .isra.N) and clang's
	 * .llvm.N: the first '.' ends a C identifier */
	size_t n = strcspn(symbol, ".");

	if (!size)
		return;
	if (n >= size)
		n = size - 1;
	memcpy(buf, symbol, n);
	buf[n] = 0;
}

/*
 * The functions that say the kind: the first one met below panic()
 * decides (a WARN's __warn comes before its exc_invalid_op, a guard
 * page's handle_stack_overflow before exc_double_fault).  to_regs: the
 * culprit is the code the interrupt or NMI stopped, below the next
 * pt_regs frame.
 */
static const struct {
	const char *name;
	enum oc_crash_kind kind;
	bool to_regs;
} markers[] = {
	{ "sysrq_handle_crash", OC_CRASH_SYSRQ, false },
	{ "__warn", OC_CRASH_WARN, false },
	{ "check_panic_on_warn", OC_CRASH_WARN, false },
	{ "handle_stack_overflow", OC_CRASH_STACK_OVERFLOW, false },
	{ "exc_double_fault", OC_CRASH_DOUBLE_FAULT, false },
	{ "page_fault_oops", OC_CRASH_PAGE_FAULT, false },
	{ "exc_page_fault", OC_CRASH_PAGE_FAULT, false },
	{ "exc_general_protection", OC_CRASH_GPF, false },
	{ "exc_invalid_op", OC_CRASH_BUG, false },
	{ "handle_bug", OC_CRASH_BUG, false },
	{ "watchdog_overflow_callback", OC_CRASH_HARD_LOCKUP, true },
	{ "watchdog_hardlockup_check", OC_CRASH_HARD_LOCKUP, true },
	{ "watchdog_check_hardlockup", OC_CRASH_HARD_LOCKUP, true },
	{ "watchdog_timer_fn", OC_CRASH_SOFT_LOCKUP, true },
	{ "check_hung_uninterruptible_tasks", OC_CRASH_HUNG_TASK, false },
	{ "check_hung_task", OC_CRASH_HUNG_TASK, false },
	{ "rcu_sched_clock_irq", OC_CRASH_RCU_STALL, true },
	{ "print_cpu_stall", OC_CRASH_RCU_STALL, true },
	{ "check_cpu_stall", OC_CRASH_RCU_STALL, true },
	{ "unknown_nmi_error", OC_CRASH_NMI, true },
	{ "pci_serr_error", OC_CRASH_NMI, true },
	{ "io_check_error", OC_CRASH_NMI, true },
	{ "mce_panic", OC_CRASH_MCE, true },
	{ "do_machine_check", OC_CRASH_MCE, true },
	{ "exc_machine_check", OC_CRASH_MCE, true },
};

static bool is_panic_fn(const char *base)
{
	return !strcmp(base, "panic") || !strcmp(base, "vpanic") ||
	       !strcmp(base, "nmi_panic");
}

/* How far down panic() is looked for: what it calls is a few frames. */
enum { PANIC_SEARCH = 24 };

void oc_triage_classify(const struct oc_triage_frame *frames, size_t nr,
			struct oc_triage_frames *ret)
{
	long p = -1;
	bool to_regs = false;
	char base[128];

	ret->kind = OC_CRASH_UNKNOWN;
	ret->guilty = -1;
	ret->exception = -1;
	/* the outermost of the first run of panic()/vpanic() frames */
	for (size_t i = 0; i < nr && i < PANIC_SEARCH; i++) {
		if (frames[i].scanned || !frames[i].symbol)
			continue;
		oc_triage_base_name(frames[i].symbol, base, sizeof(base));
		if (is_panic_fn(base))
			p = (long)i;
		else if (p >= 0)
			break;
	}
	for (size_t i = p + 1; i < nr; i++) {
		const struct oc_triage_frame *f = &frames[i];

		if (f->scanned)
			continue;
		if (f->regs && ret->exception < 0)
			ret->exception = (long)i;
		if (!f->symbol) {
			if (!to_regs || f->regs) {
				ret->guilty = (long)i;
				break;
			}
			continue;
		}
		oc_triage_base_name(f->symbol, base, sizeof(base));
		for (size_t m = 0; m < sizeof(markers) / sizeof(markers[0]); m++) {
			if (strcmp(base, markers[m].name))
				continue;
			if (ret->kind == OC_CRASH_UNKNOWN) {
				ret->kind = markers[m].kind;
				to_regs = markers[m].to_regs;
			}
			break;
		}
		if (ret->kind == OC_CRASH_HUNG_TASK)
			break;	/* the culprit is the hung task, not khungtaskd */
		if (to_regs && !f->regs)
			continue;
		if (f->regs)
			to_regs = false;
		if (!oc_triage_skipped(f->symbol)) {
			ret->guilty = (long)i;
			break;
		}
	}
	if (ret->kind == OC_CRASH_UNKNOWN && p >= 0)
		ret->kind = OC_CRASH_PANIC;
}

/* arch/x86/include/asm/trap_pf.h, enum x86_pf_error_code */
enum {
	PF_PROT = 1 << 0, PF_WRITE = 1 << 1, PF_USER = 1 << 2,
	PF_RSVD = 1 << 3, PF_INSTR = 1 << 4, PF_PK = 1 << 5,
	PF_SHSTK = 1 << 6, PF_SGX = 1 << 15,
};

void oc_triage_pf_error(uint64_t ec, bool user_mode, char *access,
			size_t asize, char *why, size_t wsize)
{
	/* show_fault_oops(), arch/x86/mm/fault.c (6.1 - 6.12) */
	snprintf(access, asize, "%s %s in %s mode",
		 (ec & PF_USER) ? "user" : "supervisor",
		 (ec & PF_INSTR) ? "instruction fetch" :
		 (ec & PF_WRITE) ? "write access" : "read access",
		 user_mode ? "user" : "kernel");
	snprintf(why, wsize, "%s",
		 !(ec & PF_PROT) ? "not-present page" :
		 (ec & PF_RSVD) ? "reserved bit violation" :
		 (ec & PF_PK) ? "protection keys violation" :
		 (ec & PF_SGX) ? "SGX violation" : "permissions violation");
}

static uint64_t fnv1a(uint64_t h, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

void oc_triage_signature(enum oc_crash_kind kind,
			 const struct oc_triage_frame *frames, size_t nr,
			 long guilty, char buf[17])
{
	const char *kn = oc_crash_kind_name(kind);
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t used = 0;
	char base[128];

	buf[0] = 0;
	if (guilty < 0 || (size_t)guilty >= nr)
		return;
	h = fnv1a(h, kn, strlen(kn) + 1);
	for (size_t i = guilty; i < nr && used < OC_TRIAGE_SIG_FRAMES; i++) {
		const struct oc_triage_frame *f = &frames[i];
		const char *mod = f->module ? f->module : "";

		if (f->scanned)
			continue;
		oc_triage_base_name(f->symbol ? f->symbol : "?", base, sizeof(base));
		h = fnv1a(h, base, strlen(base) + 1);
		h = fnv1a(h, mod, strlen(mod) + 1);
		used++;
	}
	snprintf(buf, 17, "%016" PRIx64, h);
}

#define detail(c, ...) OC_APPEND_LINE((c)->details, (c)->nr_details, __VA_ARGS__)

/* Printable ASCII only: dump bytes never reach the terminal raw. */
static void sanitize(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e)
			*s = '?';
}

/* kernel/panic.c taint_flags[] (6.12; bit 19 'J' is 6.15's FWCTL) */
static const struct { char letter; const char *name; } taint_flags[] = {
	{ 'P', "PROPRIETARY_MODULE" }, { 'F', "FORCED_MODULE" },
	{ 'S', "CPU_OUT_OF_SPEC" }, { 'R', "FORCED_RMMOD" },
	{ 'M', "MACHINE_CHECK" }, { 'B', "BAD_PAGE" }, { 'U', "USER" },
	{ 'D', "DIE" }, { 'A', "OVERRIDDEN_ACPI_TABLE" }, { 'W', "WARN" },
	{ 'C', "CRAP" }, { 'I', "FIRMWARE_WORKAROUND" },
	{ 'O', "OOT_MODULE" }, { 'E', "UNSIGNED_MODULE" },
	{ 'L', "SOFTLOCKUP" }, { 'K', "LIVEPATCH" }, { 'X', "AUX" },
	{ 'T', "RANDSTRUCT" }, { 'N', "TEST" }, { 'J', "FWCTL" },
};
enum { NR_TAINTS = sizeof(taint_flags) / sizeof(taint_flags[0]) };

bool oc_triage_module_taints(const struct oc_kernel *k, size_t i,
			     uint64_t *mask)
{
	struct oc_member m = {0};
	uint8_t b[8] = {0};

	*mask = 0;
	/* struct module's taints: the flags the module set on load
	 * (add_taint_module(), kernel/module/main.c) */
	if (!k->types || i >= k->nr_modules ||
	    !oc_ok(oc_types_member(k->types, "struct module", "taints", &m)) ||
	    !m.size || m.size > 8 ||
	    !oc_ok(oc_mem_read(&k->mem, k->modules[i].addr + m.offset, b, m.size)))
		return false;
	memcpy(mask, b, 8);
	return true;
}

size_t oc_triage_taint_letters(uint64_t mask, char *buf, size_t size)
{
	size_t n = 0;

	for (size_t bit = 0; bit < NR_TAINTS && n + 1 < size; bit++)
		if (mask & (1ULL << bit))
			buf[n++] = taint_flags[bit].letter;
	if (size)
		buf[n] = '\0';
	return n;
}

static void read_taint(const struct oc_kernel *k, struct oc_crash *c)
{
	uint64_t addr = oc_kernel_symbol_addr(k, "tainted_mask");
	uint64_t mod_taints[256] = {0};
	struct oc_error *err;
	size_t n = 0;

	if (!addr || (err = oc_mem_read_u64(&k->mem, addr, &c->tainted_mask))) {
		if (addr)
			oc_error_destroy(err);
		detail(c, "taint: tainted_mask %s", addr ? "unreadable" : "not found");
		return;
	}
	c->have_taint = true;
	for (size_t i = 0; i < k->nr_modules && i < 256; i++)
		oc_triage_module_taints(k, i, &mod_taints[i]);
	for (size_t bit = 0; bit < NR_TAINTS; bit++) {
		struct oc_taint *t;

		if (!(c->tainted_mask & (1ULL << bit)))
			continue;
		c->taint[n] = taint_flags[bit].letter;
		t = &c->taints[n++];
		t->letter = taint_flags[bit].letter;
		t->name = taint_flags[bit].name;
		for (size_t i = 0; i < k->nr_modules && i < 256; i++) {
			if (!(mod_taints[i] & (1ULL << bit)))
				continue;
			if (t->nr_modules == sizeof(t->modules) / sizeof(t->modules[0])) {
				t->more_modules = true;
				break;
			}
			t->modules[t->nr_modules++] = k->modules[i].name;
		}
	}
	c->taint[n] = 0;
	c->nr_taints = n;
	if (c->tainted_mask >> NR_TAINTS)
		detail(c, "taint: unknown bits 0x%" PRIx64,
		       c->tainted_mask >> NR_TAINTS << NR_TAINTS);
}

/* The kernel's oops lines, the last of each in the log. */
struct log_facts {
	bool null_line, pf_line, ec_line, guard_line, gpf_line, bug_line;
	uint64_t address, error_code;
	char bug_at[128];	/* "file:line" of "kernel BUG at file:line!" */
};

static void scan_line(const char *s, size_t n, struct log_facts *lf)
{
	static const char nul[] = "BUG: kernel NULL pointer dereference, address: ";
	static const char pf[] = "BUG: unable to handle page fault for address: ";
	static const char ec[] = "#PF: error_code(";
	static const char bug[] = "kernel BUG at ";
	char line[256];
	const char *p;

	if (n >= sizeof(line))
		n = sizeof(line) - 1;
	memcpy(line, s, n);
	line[n] = 0;
	if (!strncmp(line, nul, sizeof(nul) - 1)) {
		lf->null_line = true;
		lf->address = strtoull(line + sizeof(nul) - 1, NULL, 16);
	} else if (!strncmp(line, pf, sizeof(pf) - 1)) {
		lf->pf_line = true;
		lf->address = strtoull(line + sizeof(pf) - 1, NULL, 16);
	} else if (!strncmp(line, ec, sizeof(ec) - 1)) {
		lf->ec_line = true;
		lf->error_code = strtoull(line + sizeof(ec) - 1, NULL, 16);
	} else if (strstr(line, "stack guard page was hit")) {
		lf->guard_line = true;
	} else if (strstr(line, "general protection fault")) {
		lf->gpf_line = true;
	} else if ((p = strstr(line, bug))) {
		size_t l;

		lf->bug_line = true;
		snprintf(lf->bug_at, sizeof(lf->bug_at), "%s", p + sizeof(bug) - 1);
		l = strlen(lf->bug_at);
		if (l && lf->bug_at[l - 1] == '!')
			lf->bug_at[l - 1] = 0;
		sanitize(lf->bug_at);
	}
}

static void scan_log(const struct oc_log *log, struct log_facts *lf)
{
	memset(lf, 0, sizeof(*lf));
	for (size_t i = 0; log && i < log->nr; i++) {
		const char *t = log->records[i].text, *end = t + log->records[i].len;

		while (t < end) {
			const char *nl = memchr(t, '\n', end - t);
			size_t n = nl ? (size_t)(nl - t) : (size_t)(end - t);

			scan_line(t, n, lf);
			t += n + 1;
		}
	}
}

/* Cross-checks with the log, and what only the log has (CR2). */
static void check_log(struct oc_crash *c, const struct oc_log *log)
{
	struct log_facts lf;

	if (!log) {
		detail(c, "no kernel log: not cross-checked");
		return;
	}
	scan_log(log, &lf);
	switch (c->kind) {
	case OC_CRASH_PAGE_FAULT:
		if ((lf.null_line || lf.pf_line) && c->have_address &&
		    lf.address != c->address)
			detail(c, "the log's fault address 0x%" PRIx64 " differs "
			       "from exc_page_fault's 0x%" PRIx64, lf.address,
			       c->address);
		else if ((lf.null_line || lf.pf_line) && !c->have_address) {
			c->have_address = true;
			c->address = lf.address;
			c->address_from = "log";
		} else if (!c->have_address) {
			detail(c, "the log has no page fault line: address unknown");
		}
		/* show_fault_oops(): below PAGE_SIZE from kernel mode */
		if (c->have_address && c->address < 4096 &&
		    !(c->have_guilty && (c->guilty.regs.cs & 3) == 3))
			c->kind = OC_CRASH_NULL_DEREF;
		if (lf.ec_line && c->have_error_code &&
		    lf.error_code != c->error_code)
			detail(c, "the log's #PF error_code(0x%04" PRIx64
			       ") differs from exc_page_fault's 0x%04" PRIx64,
			       lf.error_code, c->error_code);
		else if (lf.ec_line && !c->have_error_code) {
			c->have_error_code = true;
			c->error_code = lf.error_code;
			c->error_code_from = "log";
		}
		if (c->have_error_code)
			oc_triage_pf_error(c->error_code, c->have_guilty &&
					   (c->guilty.regs.cs & 3) == 3,
					   c->error_access, sizeof(c->error_access),
					   c->error_why, sizeof(c->error_why));
		break;
	case OC_CRASH_STACK_OVERFLOW:
		if (!lf.guard_line)
			detail(c, "the log has no \"stack guard page was hit\" line");
		break;
	case OC_CRASH_GPF:
		if (!lf.gpf_line)
			detail(c, "the log has no \"general protection fault\" line");
		break;
	case OC_CRASH_BUG:
		if (lf.bug_line && !c->have_bug)
			detail(c, "the log says: kernel BUG at %s", lf.bug_at);
		break;
	default:
		if (lf.null_line || lf.pf_line || lf.guard_line || lf.gpf_line)
			detail(c, "the log has an oops line the panic trace does not show");
		break;
	}
}

/*
 * The titles, in syzkaller's style: "%s" is the guilty frame ("fn
 * [mod]"), or the panic message for the kinds with by_message.
 */
static const struct {
	const char *fmt;
	bool by_message;
} titles[] = {
	[OC_CRASH_UNKNOWN] = { "unknown crash in %s", false },
	[OC_CRASH_PAGE_FAULT] = { "BUG: unable to handle page fault in %s", false },
	[OC_CRASH_NULL_DEREF] = { "BUG: kernel NULL pointer dereference in %s", false },
	[OC_CRASH_GPF] = { "general protection fault in %s", false },
	[OC_CRASH_BUG] = { "kernel BUG in %s", false },
	[OC_CRASH_WARN] = { "WARNING in %s", false },
	[OC_CRASH_STACK_OVERFLOW] = { "stack guard page was hit in %s", false },
	[OC_CRASH_DOUBLE_FAULT] = { "double fault in %s", false },
	[OC_CRASH_HARD_LOCKUP] = { "hard LOCKUP in %s", false },
	[OC_CRASH_NMI] = { "NMI: %s", true },
	[OC_CRASH_SOFT_LOCKUP] = { "BUG: soft lockup in %s", false },
	[OC_CRASH_HUNG_TASK] = { "INFO: task hung%.0s", false },
	[OC_CRASH_RCU_STALL] = { "INFO: rcu detected stall in %s", false },
	[OC_CRASH_MCE] = { "machine check in %s", false },
	[OC_CRASH_SYSRQ] = { "kernel panic: %s", true },
	[OC_CRASH_PANIC] = { "kernel panic: %s", true },
};

static void make_title(struct oc_crash *c)
{
	char arg[256];

	if (titles[c->kind].by_message)
		snprintf(arg, sizeof(arg), "%s", c->message[0] ? c->message :
			 "(no message)");
	else if (!c->have_guilty && c->kind == OC_CRASH_UNKNOWN) {
		/* no panic CPU, no trace: nothing to name */
		snprintf(c->title, sizeof(c->title), "unknown crash");
		return;
	} else if (!c->have_guilty)
		snprintf(arg, sizeof(arg), "?");
	else if (c->guilty_module[0])
		snprintf(arg, sizeof(arg), "%s [%s]", c->guilty_symbol,
			 c->guilty_module);
	else
		snprintf(arg, sizeof(arg), "%s", c->guilty_symbol);
	/* the formats are the literals above, each with one %s */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	snprintf(c->title, sizeof(c->title), titles[c->kind].fmt, arg);
#pragma GCC diagnostic pop
}

/* A value the walk vouches for: @name in @fv's out-of-line level. */
static bool var_value(const struct oc_framevars *fv, const char *name,
		      uint64_t *ret)
{
	const struct oc_framevars_level *l;

	if (!fv || !fv->nr_levels)
		return false;
	l = &fv->levels[fv->nr_levels - 1];
	for (size_t i = 0; i < l->nr_vars; i++)
		if (!strcmp(l->vars[i].name, name) &&
		    l->vars[i].status == OC_FRAMEVAR_VALUE && l->vars[i].has_raw) {
			*ret = l->vars[i].raw;
			return true;
		}
	return false;
}

/*
 * The page fault's address (CR2, read by exc_page_fault() into its
 * local "address") and error code (its parameter "error_code"), from
 * the DWARF variables of its frame (arch/x86/mm/fault.c, 5.8+): the
 * dump keeps no CR2 of its own.
 */
static struct oc_error *pf_from_dwarf(const struct oc_kernel *k,
				      struct oc_lines *lines,
				      const struct oc_trace *tr,
				      const struct oc_triage_frame *tf, long x,
				      struct oc_crash *c)
{
	char base[128];

	for (long i = 0; lines && i < x; i++) {
		struct oc_framevars *fv = NULL;
		struct oc_error *err;

		if (!tf[i].symbol || tf[i].module)
			continue;
		oc_triage_base_name(tf[i].symbol, base, sizeof(base));
		if (strcmp(base, "exc_page_fault"))
			continue;
		err = oc_framevars_get(k, lines, tr, (size_t)i, NULL, &fv);
		if (err)
			return err;
		if (var_value(fv, "address", &c->address)) {
			c->have_address = true;
			c->address_from = "dump";
		}
		if (var_value(fv, "error_code", &c->error_code)) {
			c->have_error_code = true;
			c->error_code_from = "dump";
		}
		oc_framevars_free(fv);
		break;
	}
	return NULL;
}

/* The exception pt_regs frame: the entry it came through, its error code. */
static void exception_facts(const struct oc_kernel *k, const struct oc_trace *tr,
			    long x, struct oc_crash *c)
{
	const struct oc_frame *f = &tr->frames[x];

	if (f->regs_kind != OC_REGS_FULL)
		return;
	/* the error code is no longer in pt_regs: idtentry_body passes
	 * orig_ax to the handler and stores -1 there
	 * (arch/x86/entry/entry_64.S, 5.8+); older kernels leave it */
	if (f->regs.orig_ax != UINT64_MAX &&
	    (c->kind == OC_CRASH_PAGE_FAULT || c->kind == OC_CRASH_GPF ||
	     c->kind == OC_CRASH_DOUBLE_FAULT ||
	     c->kind == OC_CRASH_STACK_OVERFLOW)) {
		c->have_error_code = true;
		c->error_code = f->regs.orig_ax;
		c->error_code_from = "dump";
	}
	if (c->kind == OC_CRASH_STACK_OVERFLOW && k->panic_cpu >= 0) {
		/* the kernel's rule (exc_double_fault(), get_stack_guard_info()):
		 * the fault was in the guard page below a stack; the task's
		 * is the one vmap'ed with a guard page of 4 KiB */
		const struct oc_task *t = k->cpus[k->panic_cpu].task;

		if (t && t->stack && !(f->regs.sp < t->stack &&
				       f->regs.sp + 4096 >= t->stack))
			detail(c, "the faulting sp 0x%" PRIx64 " is not in the "
			       "task stack's guard page", f->regs.sp);
	}
}

struct oc_error *oc_triage(const struct oc_kernel *k, struct oc_lines *lines,
			   const struct oc_log *log, struct oc_crash *ret)
{
	struct oc_unwind_options uo = {0};
	struct oc_triage_frame *tf = NULL;
	struct oc_sym_result *syms = NULL;
	struct oc_triage_frames cl = { OC_CRASH_UNKNOWN, -1, -1 };
	struct oc_trace tr;
	struct oc_error *err;

	memset(ret, 0, sizeof(*ret));
	ret->cpu = k->panic_cpu;
	if (k->panic_message[0])
		snprintf(ret->message, sizeof(ret->message), "%s", k->panic_message);
	else if (log)
		oc_log_panic_message(log, ret->message, sizeof(ret->message));
	sanitize(ret->message);
	read_taint(k, ret);
	{
		struct oc_sched_clock clk;

		oc_triage_sched_clock(k, &clk);
		ret->have_uptime = clk.known;
		ret->uptime_ns = clk.now;
	}
	oc_trace_init(&tr);
	if (k->panic_cpu < 0 || !k->cpus[k->panic_cpu].has_regs) {
		detail(ret, k->panic_cpu < 0 ? "no panic CPU recorded" :
		       "no registers saved for the panic CPU");
		goto out;
	}
	err = oc_kernel_unwind_cpu(k, (unsigned int)k->panic_cpu, &uo, &tr);
	if (err)
		return err;
	tf = calloc(tr.nr ? tr.nr : 1, sizeof(*tf));
	syms = calloc(tr.nr ? tr.nr : 1, sizeof(*syms));
	if (!tf || !syms) {
		free(tf);
		free(syms);
		oc_trace_deinit(&tr);
		return &oc_enomem;
	}
	for (size_t i = 0; i < tr.nr; i++) {
		const struct oc_frame *f = &tr.frames[i];

		if (oc_kernel_symbolize_frame(k, f, &syms[i])) {
			tf[i].symbol = syms[i].name;
			tf[i].module = syms[i].module;
		}
		tf[i].regs = f->regs_kind != OC_REGS_NONE;
		tf[i].scanned = f->scanned;
	}
	oc_triage_classify(tf, tr.nr, &cl);
	ret->kind = cl.kind;
	if (cl.guilty >= 0) {
		ret->have_guilty = true;
		ret->guilty = tr.frames[cl.guilty];
		oc_triage_base_name(tf[cl.guilty].symbol ? tf[cl.guilty].symbol : "?",
				    ret->guilty_symbol, sizeof(ret->guilty_symbol));
		snprintf(ret->guilty_module, sizeof(ret->guilty_module), "%s",
			 tf[cl.guilty].module ? tf[cl.guilty].module : "");
		sanitize(ret->guilty_symbol);
		sanitize(ret->guilty_module);
	}
	if (cl.exception >= 0 && (cl.guilty < 0 || cl.exception <= cl.guilty)) {
		exception_facts(k, &tr, cl.exception, ret);
		/* the ud2 of a BUG() or WARN(): its site from the bug table */
		if ((ret->kind == OC_CRASH_BUG || ret->kind == OC_CRASH_WARN) &&
		    oc_triage_bug_site(k, tr.frames[cl.exception].regs.ip, &ret->bug))
			ret->have_bug = true;
		if (ret->kind == OC_CRASH_PAGE_FAULT &&
		    (err = pf_from_dwarf(k, lines, &tr, tf, cl.exception, ret))) {
			free(tf);
			free(syms);
			oc_trace_deinit(&tr);
			return err;
		}
	}
	if (!tr.reliable)
		detail(ret, "the panic CPU's trace is unreliable");
	if (tr.nr && tr.frames[0].stack == OC_STACK_NMI)
		detail(ret, "panic in NMI context");
out:
	check_log(ret, log);
	/* the kind may have become null-deref: sign the final one */
	if (ret->have_guilty)
		oc_triage_signature(ret->kind, tf, tr.nr, cl.guilty, ret->signature);
	make_title(ret);
	free(tf);
	free(syms);
	oc_trace_deinit(&tr);
	return NULL;
}

void oc_triage_sched_clock(const struct oc_kernel *k, struct oc_sched_clock *ret)
{
	struct oc_member m;
	uint64_t off, clock;

	memset(ret, 0, sizeof(*ret));
	if (!k->types ||
	    !oc_ok(oc_types_offsetof(k->types, "struct rq", "clock", &off)) ||
	    !oc_ok(oc_types_member(k->types, "struct task_struct",
				   "sched_info.last_arrival", &m)) || m.size != 8)
		return;
	ret->last_arrival_off = m.offset;
	ret->rq_clock_off = off;
	for (unsigned int c = 0; c < k->nr_cpus; c++)
		if (oc_triage_cpu_clock(k, ret, c, &clock) && clock > ret->now)
			ret->now = clock;
	ret->known = ret->now != 0;
}

bool oc_triage_cpu_clock(const struct oc_kernel *k, const struct oc_sched_clock *clk,
			 unsigned int cpu, uint64_t *ret)
{
	uint64_t rq = cpu < k->nr_cpus ? oc_kernel_percpu_addr(k, "runqueues", cpu) : 0;
	struct oc_error *err;

	if (!rq || !k->cpus[cpu].present || !clk->last_arrival_off)
		return false;
	err = oc_mem_read_u64(&k->mem, rq + clk->rq_clock_off, ret);
	if (err) {
		oc_error_destroy(err);
		return false;
	}
	return *ret != 0;
}

bool oc_triage_last_arrival(const struct oc_kernel *k, const struct oc_sched_clock *clk,
			    const struct oc_task *t, uint64_t *ret)
{
	if (!clk->last_arrival_off)
		return false;
	return oc_ok(oc_mem_read_u64(&k->mem, t->addr + clk->last_arrival_off, ret)) && *ret;
}

bool oc_triage_off_cpu(const struct oc_kernel *k, const struct oc_sched_clock *clk,
		       const struct oc_task *t, uint64_t *ns_ret,
		       uint64_t *since_ret)
{
	struct oc_error *err;
	uint64_t since;

	if (!clk->known)
		return false;
	err = oc_mem_read_u64(&k->mem, t->addr + clk->last_arrival_off, &since);
	if (err) {
		oc_error_destroy(err);
		return false;
	}
	/* 0: never ran since sched_info was on; later than now: hostile */
	if (!since || since > clk->now)
		return false;
	*ns_ret = clk->now - since;
	*since_ret = since;
	return true;
}

/* s32 little-endian at @p */
static int32_t s32_at(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return (int32_t)v;
}

long oc_triage_bug_find(const uint8_t *tab, size_t n, size_t esize,
			size_t disp_off, uint64_t tab_addr, uint64_t ip)
{
	if (esize < disp_off + 4)
		return -1;
	for (size_t i = 0; i < n; i++) {
		uint64_t at = tab_addr + i * esize + disp_off;

		/* bug_addr(): (unsigned long)&bug->bug_addr_disp + disp */
		if (at + (uint64_t)(int64_t)s32_at(tab + i * esize + disp_off) == ip)
			return (long)i;
	}
	return -1;
}

/* The bug table that covers @ip: vmlinux's, or its module's. */
static bool bug_table_of(const struct oc_kernel *k, uint64_t ip,
			 uint64_t *addr, uint64_t *n, uint64_t esize)
{
	const struct oc_module *m = oc_kernel_module_of(k, ip);
	struct oc_member mb, mn;
	uint8_t b[8] = {0};

	if (!m) {
		uint64_t start = oc_kernel_symbol_addr(k, "__start___bug_table");
		uint64_t stop = oc_kernel_symbol_addr(k, "__stop___bug_table");

		if (!start || stop < start)
			return false;
		*addr = start;
		*n = (stop - start) / esize;
		return true;
	}
	/* struct module's bug_table and num_bugs (CONFIG_GENERIC_BUG) */
	if (!oc_ok(oc_types_member(k->types, "struct module", "bug_table", &mb)) ||
	    !oc_ok(oc_types_member(k->types, "struct module", "num_bugs", &mn)) ||
	    mb.size != 8 || !mn.size || mn.size > 8 ||
	    !oc_ok(oc_mem_read_u64(&k->mem, m->addr + mb.offset, addr)) ||
	    !oc_ok(oc_mem_read(&k->mem, m->addr + mn.offset, b, mn.size)))
		return false;
	memcpy(n, b, 8);
	return *addr != 0;
}

/* Hostile sizes: a table is read in one piece up to this. */
enum { BUG_TABLE_MAX = 16 << 20 };
/* include/asm-generic/bug.h */
enum { BUGFLAG_WARNING = 1 << 0 };

bool oc_triage_bug_site(const struct oc_kernel *k, uint64_t ip,
			struct oc_bug_site *ret)
{
	static const char entry[] = "struct bug_entry";
	struct oc_member disp, file, line, flags;
	uint64_t esize, addr, n;
	uint8_t *tab;
	long i;
	bool ok = false;

	memset(ret, 0, sizeof(*ret));
	if (!k->types || !oc_ok(oc_types_size(k->types, entry, &esize)) ||
	    !esize || esize > 64 ||
	    !oc_ok(oc_types_member(k->types, entry, "bug_addr_disp", &disp)) ||
	    disp.size != 4 || disp.offset + 4 > esize ||
	    !bug_table_of(k, ip, &addr, &n, esize) || !n ||
	    n > BUG_TABLE_MAX / esize)
		return false;
	tab = malloc(n * esize);
	if (!tab || !oc_ok(oc_mem_read(&k->mem, addr, tab, n * esize)))
		goto out;
	i = oc_triage_bug_find(tab, n, esize, disp.offset, addr, ip);
	if (i < 0)
		goto out;
	ok = true;
	/* without CONFIG_DEBUG_BUGVERBOSE there is no file and line */
	if (oc_ok(oc_types_member(k->types, entry, "file_disp", &file)) &&
	    oc_ok(oc_types_member(k->types, entry, "line", &line)) &&
	    file.size == 4 && line.size == 2 && file.offset + 4 <= esize &&
	    line.offset + 2 <= esize) {
		const uint8_t *e = tab + (size_t)i * esize;
		uint64_t fa = addr + (size_t)i * esize + file.offset +
			      (uint64_t)(int64_t)s32_at(e + file.offset);
		uint16_t l;

		memcpy(&l, e + line.offset, 2);
		ret->line = l;
		if (!oc_ok(oc_mem_read_string(&k->mem, fa, ret->file,
					      sizeof(ret->file))))
			snprintf(ret->file, sizeof(ret->file), "?");
		sanitize(ret->file);
	}
	if (oc_ok(oc_types_member(k->types, entry, "flags", &flags)) &&
	    flags.size == 2 && flags.offset + 2 <= esize) {
		uint16_t f;

		memcpy(&f, tab + (size_t)i * esize + flags.offset, 2);
		ret->warning = f & BUGFLAG_WARNING;
	}
out:
	free(tab);
	return ok;
}
