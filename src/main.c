// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * orccrash: the command line.  One core, three front ends: the browser
 * (default), the batch report (--all-tasks and friends), orc-dump.
 */
#include <ctype.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/uio.h>

#include "cmd.h"
#include "dump.h"
#include "elffile.h"
#include "fileopen.h"
#include "heap.h"
#include "kernel.h"
#include "lines.h"
#include "report.h"
#include "strutil.h"
#include "orcdump.h"
#include "shell.h"
#include "ui.h"

#ifndef OC_DATADIR
#define OC_DATADIR "/usr/local/share/orccrash"
#endif

/*
 * LeakSanitizer (make check-asan): libkdumpfile 0.5.1 leaks on some error
 * paths of kdump_open_fd(); not ours to fix, and a report on stderr would
 * break the one-line error of exit 1.  Unused in normal builds.
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libkdumpfile.so\n";
}

const char *__lsan_default_options(void);
const char *__lsan_default_options(void)
{
	return "print_suppressions=0";
}

static void usage(FILE *fp)
{
	fputs("usage: orccrash [OPTIONS] [VMCORE [VMLINUX]]\n"
	      "       orccrash orc-dump FILE\n"
	      "\n"
	      "Without a batch option, opens the interactive browser.\n"
	      "Without VMCORE, opens the default sample dump.\n"
	      "VMLINUX VMCORE, crash's order, is accepted too.\n"
	      "\n"
	      "Batch report:\n"
	      "  -a, --all-tasks   every CPU's and every task's backtrace\n"
	      "      --active      only the CPUs (their crash-time traces)\n"
	      "  -p, --pid PID     this task (repeatable: each, in the order given)\n"
	      "      --comm PATTERN  tasks whose comm matches the glob PATTERN (repeatable)\n"
	      "  -c, --cpu CPU     only this CPU (and the task running on it)\n"
	      "  -s, --state S     only tasks in state S (R S D T t X Z P I)\n"
	      "  -g, --group       identical stacks once, with a count\n"
	      "      --blocked-states DS  BLOCKED and WAITS ON for tasks in S too (default D)\n"
	      "      --folded[=state,comm]  the tasks' stacks for flame graph tools\n"
	      "      --dot         the wait-for graph (tasks, locks, deadlocks) for Graphviz\n"
	      "      --html FILE   one self-contained page: summary, panic trace, waits, stacks, log\n"
	      "      --scan        also list unreliable '?' entries found on the stack\n"
	      "      --no-regs     do not print pt_regs register blocks\n"
	      "      --log         the whole kernel log: alone, nothing else\n"
	      "      --no-header   no header (text; its warnings go to stderr)\n"
	      "  -j, --json        a JSON document instead of text (docs/json.md)\n"
	      "      --no-lines    no file:line or inlined frames (they need VMLINUX's DWARF)\n"
	      "      --modules-dir DIR  find module .ko files with DWARF for their lines\n"
	      "      --locals      each frame's parameters and locals (from the DWARF)\n"
	      "      --source DIR  browser: show source lines from the kernel tree DIR\n"
	      "      --progress    progress on stderr (when it is a terminal)\n"
	      "\n"
	      "Commands:", fp);
	/* the command layer's own table (src/cmd.c): bash completion reads
	 * this line */
	for (size_t i = 0; oc_cmd_name(i); i++)
		fprintf(fp, " %s", oc_cmd_name(i));
	fputs(" (docs/commands.md)\n"
	      "  -e, --exec CMD    run the command CMD ('sym schedule') and exit; repeatable,\n"
	      "                    in order; with --json one document each\n"
	      "      --shell       a prompt for commands, with history and completion\n"
	      "\n"
	      "Many dumps:\n"
	      "      --triage DUMP...  one JSON line each (JSON Lines: the crash summary,\n"
	      "                    blocked tasks, wait chains), dumps read in parallel,\n"
	      "                    from the dump alone (no vmlinux)\n"
	      "\n"
	      "Input:\n"
	      "  -f, --force       go on when the vmlinux does not match the dump, or the\n"
	      "                    dump's release sources disagree\n"
	      "      --no-vmlinux  ignore VMLINUX: symbols, types and ORC from the dump\n"
	      "\n"
	      "  -h, --help        this help\n"
	      "  -V, --version     the version\n"
	      "\n"
	      "Exit status: 0 complete report, 1 the dump or vmlinux could not be read\n"
	      "(or has no such pid, comm or CPU), 2 usage error, 3 report complete but\n"
	      "some traces were unreliable.\n",
	      fp);
}

/*
 * A usage error: what was wrong (when @fmt is given: getopt_long() has
 * already said it otherwise), then one short usage line; exit status 2.
 */
static int usage_error(const char *fmt, ...)
{
	va_list ap;

	if (fmt) {
		fputs("orccrash: ", stderr);
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
		fputc('\n', stderr);
	}
	fputs("usage: orccrash [OPTIONS] [VMCORE [VMLINUX]] (try 'orccrash --help')\n",
	      stderr);
	return OC_EXIT_USAGE;
}

/*
 * The positional arguments: VMCORE [VMLINUX], or crash's order VMLINUX
 * VMCORE, told apart by their first bytes (oc_dump_sniff()): swapped when
 * the first is a kernel and the second a dump.  A kernel alone is a usage
 * error rather than "not a core dump".  Returns 0 or the exit status.
 */
static int positional_args(int nargs, char **args, const char **vmcore,
			   const char **vmlinux)
{
	enum oc_file_kind k0, k1;

	if (nargs > 2)
		return usage_error("too many arguments: %s", args[2]);
	if (nargs == 0)
		return 0;
	*vmcore = args[0];
	k0 = oc_dump_sniff(args[0]);
	if (nargs == 1) {
		if (k0 == OC_FILE_KERNEL)
			return usage_error("%s is a kernel (ELF executable), not a dump: give the dump first",
					   args[0]);
		return 0;
	}
	*vmlinux = args[1];
	k1 = oc_dump_sniff(args[1]);
	if (k0 == OC_FILE_KERNEL && k1 == OC_FILE_DUMP) {
		*vmcore = args[1];
		*vmlinux = args[0];
	}
	return 0;
}

/* The default sample: $ORCCRASH_DEFAULT_DUMP, the source tree, the install. */
static const char *default_dump(const char *argv0, char *buf, size_t size)
{
	const char *env = getenv("ORCCRASH_DEFAULT_DUMP");
	char exe[PATH_MAX - 32];
	ssize_t n;

	if (env && *env)
		return env;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		char *slash;

		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			snprintf(buf, size, "%s/../samples/default/vmcore", exe);
			if (!access(buf, R_OK))
				return buf;
		}
	}
	snprintf(buf, size, "%s/vmcore", OC_DATADIR);
	if (!access(buf, R_OK))
		return buf;
	(void)argv0;
	return NULL;
}

enum {
	OPT_ACTIVE = 256,
	OPT_BLOCKED_STATES,
	OPT_SCAN,
	OPT_NO_REGS,
	OPT_LOG,
	OPT_NO_VMLINUX,
	OPT_PROGRESS,
	OPT_NO_LINES,
	OPT_MODULES_DIR,
	OPT_SOURCE,
	OPT_LOCALS,
	OPT_COMM,
	OPT_NO_HEADER,
	OPT_FOLDED,
	OPT_SHELL,
	OPT_TRIAGE,
	OPT_DOT,
	OPT_HTML,
};

static const struct option long_opts[] = {
	{ "all-tasks", no_argument, NULL, 'a' },
	{ "active", no_argument, NULL, OPT_ACTIVE },
	{ "pid", required_argument, NULL, 'p' },
	{ "comm", required_argument, NULL, OPT_COMM },
	{ "cpu", required_argument, NULL, 'c' },
	{ "state", required_argument, NULL, 's' },
	{ "group", no_argument, NULL, 'g' },
	{ "blocked-states", required_argument, NULL, OPT_BLOCKED_STATES },
	{ "folded", optional_argument, NULL, OPT_FOLDED },
	{ "scan", no_argument, NULL, OPT_SCAN },
	{ "no-regs", no_argument, NULL, OPT_NO_REGS },
	{ "log", no_argument, NULL, OPT_LOG },
	{ "no-header", no_argument, NULL, OPT_NO_HEADER },
	{ "json", no_argument, NULL, 'j' },
	{ "progress", no_argument, NULL, OPT_PROGRESS },
	{ "no-lines", no_argument, NULL, OPT_NO_LINES },
	{ "modules-dir", required_argument, NULL, OPT_MODULES_DIR },
	{ "source", required_argument, NULL, OPT_SOURCE },
	{ "locals", no_argument, NULL, OPT_LOCALS },
	{ "exec", required_argument, NULL, 'e' },
	{ "shell", no_argument, NULL, OPT_SHELL },
	{ "triage", no_argument, NULL, OPT_TRIAGE },
	{ "dot", no_argument, NULL, OPT_DOT },
	{ "html", required_argument, NULL, OPT_HTML },
	{ "force", no_argument, NULL, 'f' },
	{ "no-vmlinux", no_argument, NULL, OPT_NO_VMLINUX },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/*
 * --folded[=FIELDS]: FIELDS a comma-separated list of "state" and "comm",
 * each at most once, into @ret as 's'/'c' in order.  Returns 0, or -1 if
 * FIELDS is not such a list.
 */
static int parse_folded(const char *arg, char *ret, size_t size)
{
	size_t n = 0;

	ret[0] = 0;
	while (arg && *arg) {
		size_t len = strcspn(arg, ",");
		char c;

		if (len == 5 && !strncmp(arg, "state", 5))
			c = 's';
		else if (len == 4 && !strncmp(arg, "comm", 4))
			c = 'c';
		else
			return -1;
		if (memchr(ret, c, n) || n + 1 >= size)
			return -1;
		ret[n++] = c;
		ret[n] = 0;
		arg += len;
		if (*arg == ',' && !*++arg)
			return -1;
	}
	return 0;
}

static int parse_int(const char *s, const char *what, int *ret)
{
	char *end;
	long v = strtol(s, &end, 0);

	if (!*s || *end || v < 0 || v > INT_MAX) {
		usage_error("bad %s: %s", what, s);
		return -1;
	}
	*ret = (int)v;
	return 0;
}

/* "orccrash: ERROR" on stderr, the one place a batch run says one;
 * destroys @err; returns exit 1. */
static int print_error(struct oc_error *err)
{
	oc_error_report(stderr, "orccrash", err);
	return OC_EXIT_ERROR;
}

/* A report's exit code: 1 on @err (said here), 3 when not @reliable. */
static int report_exit(struct oc_error *err, bool reliable)
{
	if (err)
		return print_error(err);
	return reliable ? OC_EXIT_OK : OC_EXIT_UNRELIABLE;
}

static int orc_dump_main(int argc, char **argv)
{
	struct oc_error *err;

	if (argc != 2) {
		fprintf(stderr, "usage: orccrash orc-dump FILE (try 'orccrash --help')\n");
		return OC_EXIT_USAGE;
	}
	err = oc_orcdump_elf(argv[1], stdout);
	return err ? print_error(err) : OC_EXIT_OK;
}

/*
 * A release fit to be one path component: what "make kernelrelease"
 * makes of VERSION, PATCHLEVEL, SUBLEVEL, EXTRAVERSION and LOCALVERSION
 * (letters, digits, ".+-_~"), with no "/" and no leading ".", so neither
 * ".." nor a hidden name.
 */
static bool release_is_name(const char *release)
{
	if (!release[0] || release[0] == '.')
		return false;
	for (const char *c = release; *c; c++)
		if (!isalnum((unsigned char)*c) && !strchr(".+-_~", *c))
			return false;
	return true;
}

/*
 * Where a distribution puts debug information: the vmlinux's DWARF when
 * the vmlinux given has none (by build-id, then Debian's -dbg package's
 * place), and, without --modules-dir, the modules' debug .ko files of the
 * same package.  $ORCCRASH_DEBUG_ROOT replaces /usr/lib/debug (tests).
 */
static struct oc_error *debuginfo_paths(const struct oc_kernel *k,
					struct oc_lines *l,
					const char **modules_dir)
{
	static char mods[PATH_MAX];
	const char *root = getenv("ORCCRASH_DEBUG_ROOT");
	struct oc_error *err = NULL;
	const uint8_t *id;
	char path[PATH_MAX];
	size_t len = 0;
	struct stat st;

	if (!root || !*root)
		root = "/usr/lib/debug";
	id = oc_elf_build_id(k->elf, &len);
	if (id && len > 1 && len <= 64) {
		int n = snprintf(path, sizeof(path), "%s/.build-id/%02x/", root, id[0]);

		for (size_t i = 1; i < len && n > 0 && (size_t)n + 3 < sizeof(path); i++)
			n += snprintf(path + n, sizeof(path) - n, "%02x", id[i]);
		if (n > 0 && (size_t)n + 7 < sizeof(path)) {
			strcat(path, ".debug");
			err = oc_lines_add_debug_file(l, path);
		}
	}
	/* the release names a file and a directory under root: one path
	 * component, or not used at all (docs/hardening.md) */
	if (!err && release_is_name(k->release)) {
		snprintf(path, sizeof(path), "%s/boot/vmlinux-%s", root, k->release);
		err = oc_lines_add_debug_file(l, path);
		snprintf(mods, sizeof(mods), "%s/lib/modules/%s", root, k->release);
		if (!*modules_dir && !stat(mods, &st) && S_ISDIR(st.st_mode))
			*modules_dir = mods;
	}
	return err;
}

/*
 * Source lines from the vmlinux's DWARF: opening reads only the
 * per-build-id cache; the DWARF itself is read at the first address the
 * cache lacks.  Failing here only costs the lines.
 */
static void open_lines(const struct oc_kernel *k, const char *vmlinux,
		       const char *modules_dir,
		       struct oc_report_options *ro)
{
	const uint8_t *id;
	size_t len = 0;
	struct oc_error *err;

	id = oc_elf_build_id(k->elf, &len);
	err = oc_lines_open(vmlinux, id, len, &ro->lines);
	if (!err)
		err = debuginfo_paths(k, ro->lines, &modules_dir);
	if (!err && modules_dir)
		err = oc_lines_set_modules_dir(ro->lines, modules_dir);
	for (size_t i = 0; !err && modules_dir && i < k->nr_modules; i++)
		err = oc_lines_set_module_build_id(ro->lines, k->modules[i].name,
						   k->modules[i].build_id,
						   k->modules[i].build_id_len);
	if (err)
		oc_error_report(stderr, "orccrash: no source lines", err);
}

/*
 * A batch report into a pipe or a file: stdout gets a 1 MB buffer, not
 * the st_blksize glibc gives it (4 KB for a pipe: a 52 MB JSON report
 * was 12,765 write()s), and a pipe 1 MB (F_SETPIPE_SZ, up to
 * /proc/sys/fs/pipe-max-size, 1 MB by default) instead of 64 KB, so
 * that the report does not wait for its reader every 64 KB.  Only a
 * speed setting: what fails is left as it was.  Before any output.
 */
static void batch_stdout(void)
{
	static char buf[1 << 20];
	struct stat st;

	if (isatty(STDOUT_FILENO) || fstat(STDOUT_FILENO, &st))
		return;
	setvbuf(stdout, buf, _IOFBF, sizeof(buf));
	if (S_ISFIFO(st.st_mode))
		(void)fcntl(STDOUT_FILENO, F_SETPIPE_SZ, (int)sizeof(buf));
}

/* @rc, once what stdout holds is written; a write error is exit 1 */
static int flush_stdout(int rc, const char *what)
{
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "orccrash: error writing the %s\n", what);
		return OC_EXIT_ERROR;
	}
	return rc;
}

/*
 * -e: each command in order; the first that fails prints its one line
 * and ends the run with exit 1.
 */
static int run_commands(struct oc_kernel *k, struct oc_lines *lines,
			char **cmds, int nr, bool json)
{
	for (int i = 0; i < nr; i++) {
		struct oc_error *err = oc_cmd_run(k, lines, cmds[i], json, stdout);

		if (err) {
			fflush(stdout);	/* after what was already printed */
			return print_error(err);
		}
	}
	return OC_EXIT_OK;
}

/*
 * A kdump-compressed dump (formats/dump_notes.c oc_dump_hdr_map()) and
 * the vmlinux's DWARF (formats/dwarflines.c) are read through mmap(2),
 * every access checked against the file's size at its open: only a file
 * cut short, or one the kernel cannot read (an I/O error), while
 * orccrash runs raises SIGBUS.  One line naming the file then, not a
 * core dump (the terminal is left as it is: endwin() is not
 * async-signal-safe).
 */
static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
	static const char head[] = "orccrash: ";
	static const char tail[] = ": cut short or unreadable while orccrash read it (SIGBUS at offset 0x";
	const char *path;
	char num[17], *p = num + sizeof(num);
	uint64_t off = 0;
	struct iovec v[5];
	int n = 0;

	(void)sig;
	(void)uc;
	path = oc_file_mapped_at(si->si_addr, &off);
	v[n++] = (struct iovec){ (void *)head, sizeof(head) - 1 };
	if (path) {
		v[n++] = (struct iovec){ (void *)path, strlen(path) };
		do
			*--p = "0123456789abcdef"[off & 15];
		while ((off >>= 4) && p > num);
		v[n++] = (struct iovec){ (void *)tail, sizeof(tail) - 1 };
		v[n++] = (struct iovec){ p, (size_t)(num + sizeof(num) - p) };
		v[n++] = (struct iovec){ (void *)")\n", 2 };
	} else {
		static const char what[] = "bus error (SIGBUS) outside the files orccrash maps\n";

		v[n++] = (struct iovec){ (void *)what, sizeof(what) - 1 };
	}
	if (writev(STDERR_FILENO, v, n) < 0) {
		/* nothing else to do */
	}
	_exit(OC_EXIT_ERROR);
}

int main(int argc, char **argv)
{
	/* static: still reachable (LeakSanitizer) on a usage error's return */
	static struct oc_select_task *which;
	size_t nr_which = 0;
	struct oc_report_options ro;
	struct oc_kernel_options ko = { 0 };
	struct oc_kernel *k = NULL;
	struct oc_error *err;
	const char *vmcore = NULL, *vmlinux = NULL;
	char defbuf[PATH_MAX];
	char folded[3] = "";
	bool batch = false, no_lines = false, selection = false, ui;
	const char *modules_dir = NULL, *source_dir = NULL;
	char *cmds[argc];
	int ncmds = 0;
	bool shell = false, triage = false, dot = false;
	const char *html = NULL;
	int c, rc;

	oc_heap_setup();
	{
		struct sigaction sa = { .sa_sigaction = on_sigbus,
					.sa_flags = SA_SIGINFO };

		sigaction(SIGBUS, &sa, NULL);
	}
	if (argc > 1 && !strcmp(argv[1], "orc-dump"))
		return orc_dump_main(argc - 1, argv + 1);

	oc_report_options_init(&ro);
	while ((c = getopt_long(argc, argv, "ap:c:s:gjfhVe:", long_opts, NULL)) != -1) {
		switch (c) {
		case 'a':
			ro.sel.all_tasks = true;
			batch = selection = true;
			break;
		case OPT_ACTIVE:
			ro.sel.active = true;
			batch = selection = true;
			break;
		case 'p':
		case OPT_COMM: {
			/* at most one per argument: argc bounds them */
			struct oc_select_task *w;

			if (!which)
				which = calloc((size_t)argc, sizeof(*which));
			if (!which) {
				fprintf(stderr, "orccrash: out of memory\n");
				return OC_EXIT_ERROR;
			}
			w = &which[nr_which++];
			w->pid = -1;
			if (c == OPT_COMM)
				w->comm = optarg;
			else if (parse_int(optarg, "pid", &w->pid))
				return OC_EXIT_USAGE;
			ro.sel.which = which;
			ro.sel.nr_which = nr_which;
			batch = selection = true;
			break;
		}
		case 'c':
			if (parse_int(optarg, "cpu", &ro.sel.cpu))
				return OC_EXIT_USAGE;
			batch = selection = true;
			break;
		case 's':
			if (strlen(optarg) != 1 || !strchr("RSDTtXZPI", optarg[0]))
				return usage_error("bad state %s (one of R S D T t X Z P I)",
						   optarg);
			ro.sel.state = optarg[0];
			batch = selection = true;
			break;
		case 'g':
			ro.group = true;
			break;
		case OPT_FOLDED:
			if (parse_folded(optarg, folded, sizeof(folded)))
				return usage_error("bad --folded=%s (a comma-separated list of state, comm)",
						   optarg);
			ro.folded_fields = folded;
			batch = true;
			break;
		case OPT_SCAN:
			ro.scan = true;
			break;
		case OPT_NO_REGS:
			ro.regs = false;
			break;
		case OPT_LOG:
			ro.log = true;
			batch = true;
			break;
		case OPT_NO_HEADER:
			ro.no_header = true;
			batch = true;
			break;
		case 'j':
			ro.json = true;
			batch = true;
			break;
		case OPT_PROGRESS:
			ro.progress = true;
			break;
		case OPT_NO_LINES:
			no_lines = true;
			break;
		case OPT_MODULES_DIR:
			modules_dir = optarg;
			break;
		case OPT_SOURCE:
			source_dir = optarg;
			break;
		case OPT_LOCALS:
			ro.locals = true;
			break;
		case OPT_BLOCKED_STATES:
			/* D always; S beside it: what else sleeps waits on nothing */
			if (strcmp(optarg, "D") && strcmp(optarg, "DS") && strcmp(optarg, "SD"))
				return usage_error("--blocked-states takes D or DS");
			ro.blocked_states = optarg;
			break;
		case 'e':
			cmds[ncmds++] = optarg;	/* fewer than argc */
			break;
		case OPT_DOT:
			dot = true;
			batch = true;
			break;
		case OPT_HTML:
			html = optarg;
			batch = true;
			break;
		case OPT_TRIAGE:
			triage = true;
			break;
		case OPT_SHELL:
			shell = true;
			break;
		case 'f':
			ko.force = true;
			break;
		case OPT_NO_VMLINUX:
			ko.no_vmlinux = true;
			break;
		case 'h':
			usage(stdout);
			return OC_EXIT_OK;
		case 'V':
			printf("orccrash %s\n", OC_VERSION);
			return OC_EXIT_OK;
		default:
			return usage_error(NULL);
		}
	}
	if (triage) {
		/* every argument a dump; nothing else but --force */
		if (batch || ncmds || shell || ro.json || ro.log || ro.group ||
		    ro.folded_fields || ro.no_header || no_lines || modules_dir ||
		    ro.locals || !ro.regs || ro.scan || source_dir || ro.blocked_states)
			return usage_error("--triage takes no other options (but --force)");
		if (optind == argc)
			return usage_error("--triage needs at least one DUMP");
		ko.no_vmlinux = true;
		batch_stdout();
		err = oc_report_triage(argv + optind, (size_t)(argc - optind),
				       &ko, stdout, &rc);
		if (err)
			return print_error(err);
		return flush_stdout(rc, "report");
	}
	rc = positional_args(argc - optind, argv + optind, &vmcore, &vmlinux);
	if (!rc && (ncmds || shell) &&
	    (selection || ro.log || ro.group || ro.folded_fields || ro.no_header ||
	     ro.blocked_states))
		rc = usage_error("-e and --shell take no report options (but --json)");
	if (!rc && dot && (selection || ro.log || ro.group || ro.folded_fields ||
			   ro.no_header || ro.json || ncmds || shell))
		rc = usage_error("--dot takes no report options: the graph is of every task");
	if (!rc && html && (selection || ro.log || ro.group || ro.folded_fields ||
			    ro.no_header || ro.json || ncmds || shell || dot))
		rc = usage_error("--html takes no report options: the page is of the whole dump");
	if (!rc && ncmds && shell)
		rc = usage_error("-e or --shell, not both");
	if (rc)
		return rc;
	if (!vmcore) {
		vmcore = default_dump(argv[0], defbuf, sizeof(defbuf));
		if (!vmcore)
			return usage_error("no VMCORE given and no default sample dump found (%s/vmcore)",
					   OC_DATADIR);
	}
	ro.vmlinux = ko.no_vmlinux ? NULL : vmlinux;
	/* the browser: its first screen does not wait for the task list */
	ui = !ncmds && !shell && !batch && isatty(STDIN_FILENO) &&
	     isatty(STDOUT_FILENO);
	ko.tasks_later = ui;
	if (!ui && !shell)
		batch_stdout();

	err = oc_kernel_open(vmcore, vmlinux, &ko, &k);
	if (err)
		return print_error(err);
	if (ncmds || shell) {
		/* for dis -l: opening reads the per-build-id cache only */
		if (k->elf && !no_lines)
			open_lines(k, vmlinux, modules_dir, &ro);
		rc = ncmds ? run_commands(k, ro.lines, cmds, ncmds, ro.json)
			   : oc_shell_run(k, ro.lines, ro.json, stdin, stdout);
		if (ro.lines)
			oc_lines_close(ro.lines);
		oc_kernel_close(k);
		return flush_stdout(rc, "output");
	}
	if (k->elf && !no_lines)
		open_lines(k, vmlinux, modules_dir, &ro);
	if (ro.locals && !ro.lines) {
		/* said once here rather than under every frame */
		fprintf(stderr, "orccrash: --locals needs VMLINUX's DWARF (%s): no variables\n",
			no_lines ? "not with --no-lines" : "no vmlinux");
		ro.locals = false;
	}
	if (ui) {
		struct oc_ui_options uo = {
			.vmcore = vmcore,
			.vmlinux = ro.vmlinux,
			.no_color = getenv("NO_COLOR") != NULL,
			.lines = ro.lines,
			.source_dir = source_dir,
		};

		rc = report_exit(oc_ui_run(k, &uo), true);
	} else {
		bool reliable = true;

		if (!selection)
			ro.sel.active = true;
		if (html) {
			err = oc_report_html(k, &ro, html, &reliable);
		} else if (dot) {
			err = oc_report_dot(k, &ro, stdout, &reliable);
		} else if (ro.folded_fields) {
			/* every task unless a selection says which */
			if (!selection)
				ro.sel.all_tasks = true;
			ro.sel.active = false;
			err = oc_report_folded(k, &ro, stdout, &reliable);
		} else if (ro.log && !selection && !ro.json)
			err = oc_report_log(k, stdout, &reliable);	/* --log alone */
		else if (ro.json)
			err = oc_report_json(k, &ro, stdout, &reliable);
		else
			err = oc_report_text(k, &ro, stdout, &reliable);
		rc = report_exit(err, reliable);
	}
	if (ro.lines) {
		const char *why = oc_lines_unavailable(ro.lines);
		const char *mod;

		char e1[256], e2[1024];

		if (why)
			fprintf(stderr, "orccrash: %s\n",
				oc_esc(e2, sizeof(e2), why, 0));
		/* module names come from the dump */
		while ((why = oc_lines_take_module_note(ro.lines, &mod)))
			fprintf(stderr, "orccrash: module %s: no source lines: %s\n",
				oc_esc(e1, sizeof(e1), mod, 0),
				oc_esc(e2, sizeof(e2), why, 0));
		oc_lines_close(ro.lines);
	}
	oc_kernel_close(k);
	free(which);
	return flush_stdout(rc, "report");
}
