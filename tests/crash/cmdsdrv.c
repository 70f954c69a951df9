// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * crash-cmds: the crash extension's commands (src/crash/cmds.c) without
 * crash, over orccrash's own dump reader instead of crash's readmem().
 * tests/crash/run.sh runs it beside crash on the same dumps: the output
 * must be the same, and it is the way the commands run under the
 * sanitizers (crash cannot load a sanitizer build of orccrash.so).
 *
 *   crash-cmds VMCORE VMLINUX bt [-a] [-c CPU] [-r] [-s] [-t] [-j] [-L|--no-lines]
 *                                [--modules-dir DIR] [PID|0xTASK ...]
 *   crash-cmds VMCORE VMLINUX stack [ADDR | -c CPU]
 *
 * The current context is the panic CPU's task, as at crash's start-up
 * (--current TASK to choose another; --debuginfo FILE as crash's
 * separate debuginfo file).  Errors and notes are printed like crash's
 * error(INFO): "orcbt: MESSAGE" on stdout.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"

static int fail(const char *cmd, struct oc_error *err)
{
	char buf[512];

	if (!err)
		return 0;
	oc_error_string(err, buf, sizeof(buf));
	oc_error_destroy(err);
	printf("%s: %s\n", cmd, buf);
	return 1;
}

static void info(const char *msg)
{
	printf("orcbt: %s\n", msg);
}

static bool parse_u64(const char *s, int base, uint64_t *ret)
{
	char *end;

	if (!*s)
		return false;
	*ret = strtoull(s, &end, base);
	return !*end;
}

static int do_bt(const struct oc_crash_host *h, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "no-lines", no_argument, NULL, 'L' },
		{ "modules-dir", required_argument, NULL, 'M' },
		{ NULL, 0, NULL, 0 },
	};
	struct oc_crash_bt_args a;
	uint64_t v;
	int c;

	oc_crash_bt_args_init(&a);
	optind = 1;
	while ((c = getopt_long(argc, argv, "ac:rstjL", longopts, NULL)) != -1) {
		switch (c) {
		case 'a': a.all_cpus = true; break;
		case 'c':
			if (!parse_u64(optarg, 10, &v) || v > 4096)
				return fail("orcbt", oc_error_create(OC_ERR_INVALID, "invalid CPU"));
			a.cpu = (int)v;
			break;
		case 'r': a.regs = true; break;
		case 's': a.scan = true; break;
		case 't': a.all_tasks = true; break;
		case 'j': a.json = true; break;
		case 'L': a.lines.no_lines = true; break;
		case 'M': a.lines.modules_dir = optarg; break;
		default: return 2;
		}
	}
	for (; optind < argc && a.nr_tasks < OC_CRASH_MAX_TASKS; optind++) {
		struct oc_crash_task_ref *r = &a.tasks[a.nr_tasks++];

		memset(r, 0, sizeof(*r));
		if (parse_u64(argv[optind], 10, &v) && v <= INT32_MAX)
			r->pid = (int32_t)v;
		else if (!parse_u64(argv[optind], 16, &r->addr) || !r->addr)
			return fail("orcbt", oc_error_format(OC_ERR_INVALID,
				    "invalid task or pid value: %s", argv[optind]));
	}
	return fail("orcbt", oc_crash_bt(h, &a, stdout));
}

int main(int argc, char **argv)
{
	struct oc_crash_host h = { 0 };
	struct oc_kernel *k;
	uint64_t addr = 0;
	int rc, i = 3;

	if (argc < 4) {
		fprintf(stderr, "usage: crash-cmds VMCORE VMLINUX [--current TASK] [--debuginfo FILE] bt|stack [ARGS]\n");
		return 2;
	}
	h.vmcore = argv[1];
	h.vmlinux = argv[2];
	h.info = info;
	if (fail("crash-cmds", oc_crash_model(&h, &k)))
		return 1;
	if (k->panic_cpu >= 0 && k->cpus[k->panic_cpu].task)
		h.current_task = k->cpus[k->panic_cpu].task->addr;
	for (;;) {
		if (!strcmp(argv[i], "--current") && i + 2 < argc) {
			if (!parse_u64(argv[i + 1], 16, &h.current_task))
				return 2;
			i += 2;
		} else if (!strcmp(argv[i], "--debuginfo") && i + 2 < argc) {
			h.debuginfo = argv[i + 1];
			i += 2;
		} else {
			break;
		}
	}
	if (!strcmp(argv[i], "bt")) {
		rc = do_bt(&h, argc - i, argv + i);
	} else if (!strcmp(argv[i], "stack") && i + 2 < argc && !strcmp(argv[i + 1], "-c")) {
		if (!parse_u64(argv[i + 2], 10, &addr) || addr > 4096)
			return 2;
		rc = fail("orcstack", oc_crash_stack_map(&h, (int)addr, stdout));
	} else if (!strcmp(argv[i], "stack")) {
		if (i + 1 < argc && !parse_u64(argv[i + 1], 16, &addr))
			return 2;
		rc = fail("orcstack", oc_crash_stack(&h, i + 1 < argc, addr, stdout));
	} else {
		fprintf(stderr, "crash-cmds: unknown command %s\n", argv[i]);
		rc = 2;
	}
	fflush(stdout);
	oc_crash_model_close();
	return rc;
}
