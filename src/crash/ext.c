// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * orccrash.so: the crash utility's side of the extension, and the only
 * file that includes crash's defs.h (built with -DX86_64).  It registers
 * the commands, parses crash's args[] with getopt like crash's own
 * commands, resolves pids and task addresses through crash's context
 * table, gives the model crash's readmem() as its memory, and turns
 * errors into error(INFO, ...) so a failure never leaves crash.
 *
 *	crash> extend orccrash.so
 *	crash> orcbt -a
 */
#include <crash/defs.h>
#include <getopt.h>

#include "cmds.h"

/* The model reads kernel memory through crash: KVADDR, no messages, no
 * longjmp back to the prompt on a failed read. */
static struct oc_error *crash_read(void *arg, uint64_t addr, void *buf,
				   size_t len)
{
	if (len > LONG_MAX)
		return oc_error_fault(addr, "read of %zu bytes at 0x%llx is too large",
				      len, (unsigned long long)addr);
	if (!readmem((ulonglong)addr, KVADDR, buf, (long)len, "orccrash",
		     RETURN_ON_ERROR | QUIET))
		return oc_error_fault(addr, "readmem(0x%llx, %zu) failed",
				      (unsigned long long)addr, len);
	return NULL;
}

static const struct oc_mem crash_mem = { .read = crash_read };

static void crash_info(const char *msg)
{
	error(INFO, "%s\n", msg);
}

static void host_init(struct oc_crash_host *h)
{
	/* A live system (/dev/mem, /proc/kcore) has no dump file with the
	 * VMCOREINFO and CPU notes the model is built from. */
	h->vmcore = ACTIVE() ? NULL : pc->dumpfile;
	h->vmlinux = pc->namelist;
	/* `crash vmlinux vmlinux.debug vmcore`: the DWARF is in the second */
	h->debuginfo = pc->namelist_debug ? pc->namelist_debug :
		       pc->debuginfo_file;
	h->mem = &crash_mem;
	h->info = crash_info;
	h->current_task = tt->current ? CURRENT_TASK() : 0;
}

/* error(INFO) names the command and goes on: crash keeps running. */
static void report(struct oc_error *err)
{
	char buf[512];

	if (!err)
		return;
	oc_error_take(err, buf, sizeof(buf));
	error(INFO, "%s\n", buf);
}

/*
 * A pid or task_struct address, as crash's bt takes them: through
 * crash's context table when it knows the task, else as a decimal pid
 * or a hex address for the model's own task list (crash 8.0.2 knows only
 * the active tasks of a 6.1 kernel).
 */
static bool resolve_task(char *arg, struct oc_crash_task_ref *ret)
{
	struct task_context *tc = NULL;
	ulong value;
	int kind;

	memset(ret, 0, sizeof(*ret));
	kind = str_to_context(arg, &value, &tc);
	if ((kind == STR_PID || kind == STR_TASK) && tc) {
		ret->addr = tc->task;
		return true;
	}
	if (decimal(arg, 0)) {
		value = stol(arg, RETURN_ON_ERROR | QUIET, NULL);
		if (value <= INT32_MAX) {
			ret->pid = (int32_t)value;
			return true;
		}
	} else if (hexadecimal(arg, 0)) {
		ret->addr = htol(arg, RETURN_ON_ERROR | QUIET, NULL);
		if (ret->addr && ret->addr != BADADDR)
			return true;
	}
	error(INFO, "invalid task or pid value: %s\n", arg);
	return false;
}

/* A CPU number for -c; false (after an error(INFO)) if it is not one. */
static bool parse_cpu(char *arg, int *ret)
{
	ulong v;

	if (!decimal(arg, 0) ||
	    (v = stol(arg, RETURN_ON_ERROR | QUIET, NULL)) > INT_MAX) {
		error(INFO, "invalid CPU: %s\n", arg);
		return false;
	}
	*ret = (int)v;
	return true;
}

enum { OPT_MODULES_DIR = 256, OPT_SOURCE };

/* -L/--no-lines and --modules-dir, the options of every command that
 * prints source lines; false for another option. */
static bool lines_option(int c, struct oc_crash_lines_args *l)
{
	if (c == 'L')
		l->no_lines = true;
	else if (c == OPT_MODULES_DIR)
		l->modules_dir = optarg;
	else
		return false;
	return true;
}

static void cmd_orcbt(void)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "no-lines", no_argument, NULL, 'L' },
		{ "modules-dir", required_argument, NULL, OPT_MODULES_DIR },
		{ NULL, 0, NULL, 0 },
	};
	struct oc_crash_bt_args a;
	struct oc_crash_host h;
	int c;

	oc_crash_bt_args_init(&a);
	while ((c = getopt_long(argcnt, args, "ac:rstjL", longopts, NULL)) != EOF) {
		switch (c) {
		case 'a':
			a.all_cpus = true;
			break;
		case 'c':
			if (!parse_cpu(optarg, &a.cpu))
				return;
			break;
		case 'r':
			a.regs = true;
			break;
		case 's':
			a.scan = true;
			break;
		case 't':
			a.all_tasks = true;
			break;
		case 'j':
			a.json = true;
			break;
		default:
			if (!lines_option(c, &a.lines))
				argerrs++;
			break;
		}
	}
	if (argerrs)
		cmd_usage(pc->curcmd, SYNOPSIS);
	if ((a.all_cpus || a.cpu >= 0 || a.all_tasks) && args[optind]) {
		error(INFO, "-a, -c and -t take no task argument\n");
		return;
	}
	for (; args[optind]; optind++) {
		if (a.nr_tasks == OC_CRASH_MAX_TASKS) {
			error(INFO, "at most %d tasks at a time\n", OC_CRASH_MAX_TASKS);
			return;
		}
		if (!resolve_task(args[optind], &a.tasks[a.nr_tasks]))
			return;
		a.nr_tasks++;
	}
	host_init(&h);
	report(oc_crash_bt(&h, &a, fp));
}

static void cmd_orcstack(void)
{
	struct oc_crash_host h;
	bool have_addr = false;
	uint64_t addr = 0;
	int c, cpu = -1;

	while ((c = getopt(argcnt, args, "c:")) != EOF) {
		if (c != 'c')
			argerrs++;
		else if (!parse_cpu(optarg, &cpu))
			return;
	}
	if (argerrs || (cpu >= 0 && args[optind]))
		cmd_usage(pc->curcmd, SYNOPSIS);
	if (cpu >= 0) {
		host_init(&h);
		report(oc_crash_stack_map(&h, cpu, fp));
		return;
	}
	if (args[optind]) {
		if (!hexadecimal(args[optind], 0)) {
			error(INFO, "invalid address: %s\n", args[optind]);
			return;
		}
		addr = htol(args[optind], RETURN_ON_ERROR | QUIET, NULL);
		have_addr = true;
		if (args[optind + 1])
			cmd_usage(pc->curcmd, SYNOPSIS);
	}
	host_init(&h);
	report(oc_crash_stack(&h, have_addr, addr, fp));
}

static void cmd_orcbrowse(void)
{
	static const struct option longopts[] = {
		{ "no-lines", no_argument, NULL, 'L' },
		{ "modules-dir", required_argument, NULL, OPT_MODULES_DIR },
		{ "source", required_argument, NULL, OPT_SOURCE },
		{ NULL, 0, NULL, 0 },
	};
	struct oc_crash_browse_args a = { 0 };
	struct oc_crash_host h;
	int c;

	while ((c = getopt_long(argcnt, args, "L", longopts, NULL)) != EOF) {
		if (c == OPT_SOURCE)
			a.source_dir = optarg;
		else if (!lines_option(c, &a.lines))
			argerrs++;
	}
	if (argerrs || args[optind])
		cmd_usage(pc->curcmd, SYNOPSIS);
	host_init(&h);
	report(oc_crash_browse(&h, &a));
}

static char *help_orcbt[] = {
	"orcbt",
	"backtrace with the kernel's ORC unwinder (orccrash)",
	"[-a | -c cpu | -t] [-r] [-s] [-j|--json] [-L|--no-lines] [--modules-dir dir]\n"
	"        [pid | task] ...",
	"  This command unwinds stacks with the kernel's own ORC tables, the way",
	"  arch/x86/kernel/unwind_orc.c does, and prints them the way the kernel",
	"  prints an oops: one \"symbol+offset/size\" per frame, <IRQ>, <NMI>,",
	"  <#DF> ... and <TASK> around the frames of each stack.  Without an",
	"  argument it shows the current context (see \"set\").  A running task is",
	"  unwound from the registers its CPU saved at the crash; any other from",
	"  its thread.sp, like sysrq-t.",
	"",
	"    pid | task  one or more tasks, by pid or task_struct address.",
	"            -a  every CPU, from the registers saved at the crash.",
	"        -c cpu  that CPU only.",
	"            -t  every task.",
	"            -r  print the registers of every pt_regs frame crossed",
	"                (exceptions, interrupts, system calls).",
	"            -s  also list the unreliable \"?\" return addresses found",
	"                on the stack between frames (show_trace_log_lvl()).",
	" -j, --json     the JSON document of \"orccrash --json\" for the same",
	"                selection (the tasks' pids in order, -a, -c or -t).",
	" -L, --no-lines no file:line and no inlined frames (see below).",
	" --modules-dir dir  find module .ko files with DWARF under dir for the",
	"                lines of module frames; kept for the rest of the session.",
	"",
	"  Each frame is followed by its file:line and preceded by the inlined",
	"  functions it is in, each marked (inlined), from the DWARF of crash's",
	"  vmlinux (or of the separate debuginfo file crash was given).  The DWARF",
	"  is read at the first frame that needs it; what was looked up is cached",
	"  per build-id in ~/.cache/orccrash/lines/ ($ORCCRASH_CACHE/lines/ or",
	"  $XDG_CACHE_HOME/orccrash/lines/ when set), shared with orccrash.",
	"",
	"  The model is read once, at the first orccrash command, from crash's",
	"  dump file and namelist, with kernel memory read through crash's",
	"  readmem().  See docs/crash-extension.md.",
	"\nEXAMPLES",
	"  The panic task's trace:\n",
	"    crash> orcbt",
	"    PID: 111     TGID: 111     CPU: 1   STATE: R  COMM: \"dd\"  TASK: ffff8dc54fa80000  (running)",
	"     <IRQ>",
	"     __preempt_count_add (inlined)  arch/x86/include/asm/preempt.h:80",
	"     delay_tsc+0x33/0xa0  arch/x86/lib/delay.c:79",
	"     panic+0x2e9/0x2f4  kernel/panic.c:459",
	"     sysrq_handle_crash+0x16/0x20  drivers/tty/sysrq.c:155",
	"     ...",
	"     </IRQ>",
	"     <TASK>",
	"     clear_user_rep_good+0xe/0x30  arch/x86/lib/clear_page_64.S:139",
	"     __clear_user (inlined)  arch/x86/include/asm/uaccess_64.h:103",
	"     clear_user (inlined)  arch/x86/include/asm/uaccess_64.h:124",
	"     read_zero+0x5d/0x110  drivers/char/mem.c:521",
	"     ...",
	"     </TASK>",
	"",
	"  Every CPU with its pt_regs blocks, and a sleeping task by pid:\n",
	"    crash> orcbt -a -r",
	"    crash> orcbt 1",
	NULL
};

static char *help_orcstack[] = {
	"orcstack",
	"which kernel stack an address is on (orccrash)",
	"[address | -c cpu]",
	"  This command tells which stack the address is on, the way the kernel's",
	"  get_stack_info() sees it: a task's stack (and whose), or a CPU's IRQ,",
	"  entry or exception stack (#DF, NMI, #DB, #MC, #VC), with its bounds",
	"  and, for IRQ and exception stacks, the word that links back to the",
	"  stack it was entered from.  Without an address it takes the current",
	"  task's stack pointer: the one saved at the crash if the task was",
	"  running, else its thread.sp.",
	"",
	"    -c cpu  list every stack of the CPU instead: its current task's,",
	"            the IRQ stack, the entry stack and the exception stacks,",
	"            with the bounds the unwinder uses.",
	"\nEXAMPLE",
	"    crash> orcstack ffffce05000d0cc8",
	"       ADDRESS: ffffce05000d0cc8",
	"         STACK: IRQ stack of CPU 1",
	"        BOUNDS: ffffce05000cd000 - ffffce05000d1000  (16384 bytes, 824 above the address)",
	"          LINK: ffffce05000d0ff8: previous sp ffffce0500433c08 on the TASK stack of PID 111 (dd), task ffff8dc54fa80000",
	NULL
};

static char *help_orcbrowse[] = {
	"orcbrowse",
	"browse CPUs, tasks and stacks in orccrash's full-screen browser",
	"[-L|--no-lines] [--modules-dir dir] [--source dir]",
	"  This command opens orccrash's ncurses browser over the same model as",
	"  orcbt (press ? in it for the keys, q to come back to crash).  The",
	"  terminal is restored on return; ^C is ignored while it runs.  It needs",
	"  crash to run on a terminal.",
	"",
	" -L, --no-lines     no file:line and no inlined frames.",
	" --modules-dir dir  module .ko files with DWARF for module frames' lines",
	"                    (as for orcbt; kept for the session).",
	" --source dir       the kernel source tree: the frame details show the",
	"                    source around each frame's line.",
	NULL
};

static struct command_table_entry command_table[] = {
	{ "orcbt", cmd_orcbt, help_orcbt, 0 },
	{ "orcstack", cmd_orcstack, help_orcstack, 0 },
	{ "orcbrowse", cmd_orcbrowse, help_orcbrowse, 0 },
	{ NULL, NULL, NULL, 0 },
};

static void __attribute__((constructor)) orccrash_init(void)
{
	register_extension(command_table);
}

static void __attribute__((destructor)) orccrash_fini(void)
{
	oc_crash_model_close();
}
