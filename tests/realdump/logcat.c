// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * logcat: the kernel log of a dump, like dmesg, for the real-dump checks
 * (tests/realdump/log_check.sh).
 *   logcat [--stats] [--panic] DUMP            layouts from VMCOREINFO only
 *   logcat [--stats] [--panic] DUMP VMLINUX    through the kernel model
 *                                              (symbols, BTF/DWARF types)
 * --stats  one "format=... records=N lost=N bad=N truncated=0|1 note=..."
 *          line on stderr
 * --panic  print only the panic message ("" and exit 2 if none)
 * --levels like crash's "log -m": "[    1.234567] <6>text" on every line
 * --types-only  with VMLINUX: layouts from BTF/DWARF and addresses from
 *          the symbol table only, VMCOREINFO hidden (proves that path)
 */
#include <stdio.h>
#include <string.h>

#include "dump.h"
#include "kernel.h"
#include "log.h"

static int fail(struct oc_error *err)
{
	oc_error_report(stderr, "logcat", err);
	return 1;
}

static const char *const format_names[] = {
	[OC_LOG_NONE] = "none",
	[OC_LOG_RINGBUFFER] = "ringbuffer",
	[OC_LOG_LEGACY] = "legacy",
};

/* crash's "log -m": the level after the time, the text as it is */
static void print_level_line(void *arg, const struct oc_log_record *r,
			     const char *prefix, const char *line, size_t len)
{
	printf("%s<%u>", prefix, r->level);
	fwrite(line, 1, len, stdout);
	putchar('\n');
}

static int output(const struct oc_log *log, bool stats, bool panic,
		  bool levels)
{
	int rc = 0;

	if (stats)
		fprintf(stderr,
			"format=%s records=%zu lost=%zu bad=%zu truncated=%d note=%s\n",
			format_names[log->format], log->nr, log->nr_lost,
			log->nr_bad, log->truncated, log->note);
	if (panic) {
		char msg[256];

		if (oc_log_panic_message(log, msg, sizeof(msg)))
			printf("%s\n", msg);
		else
			rc = 2;
	} else if (levels) {
		oc_log_each_line(log, print_level_line, NULL);
	} else {
		oc_log_print(log, stdout);
	}
	return rc;
}

static uint64_t kernel_symbol(void *arg, const char *name)
{
	return oc_kernel_symbol_addr(arg, name);
}

int main(int argc, char **argv)
{
	bool stats = false, panic = false, types_only = false;
	bool levels = false;
	struct oc_log log;
	struct oc_error *err;
	struct oc_dump *dump = NULL;	/* DUMP alone */
	struct oc_kernel *k = NULL;	/* DUMP VMLINUX */
	struct oc_mem mem;
	int i = 1, rc = 0;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--stats"))
			stats = true;
		else if (!strcmp(argv[i], "--panic"))
			panic = true;
		else if (!strcmp(argv[i], "--levels"))
			levels = true;
		else if (!strcmp(argv[i], "--types-only"))
			types_only = true;
		else
			break;
	}
	if (argc - i != 1 && argc - i != 2) {
		fprintf(stderr, "usage: logcat [--stats] [--panic] [--levels] [--types-only] DUMP [VMLINUX]\n");
		return 1;
	}
	/* the log read from the dump alone, or with the vmlinux */
	if (argc - i == 1) {
		struct oc_log_env env = { .mem = &mem };

		err = oc_dump_open(argv[i], &dump);
		if (err)
			return fail(err);
		oc_dump_mem(dump, &mem);
		env.vmcoreinfo = oc_dump_vmcoreinfo(dump);
		err = oc_log_read(&env, &log);
	} else {
		err = oc_kernel_open(argv[i], argv[i + 1], NULL, &k);
		if (err)
			return fail(err);
		if (types_only) {
			struct oc_log_env env = {
				.mem = &k->mem, .types = k->types,
				.symbol = kernel_symbol, .arg = k,
			};

			err = k->types ? oc_log_read(&env, &log) :
			      oc_error_format(OC_ERR_LOOKUP, "no type information");
		} else {
			err = oc_kernel_read_log(k, &log);
		}
	}
	if (!err) {
		rc = output(&log, stats, panic, levels);
		oc_log_deinit(&log);
	}
	oc_dump_close(dump);
	oc_kernel_close(k);
	return err ? fail(err) : rc;
}
