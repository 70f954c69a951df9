// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * orcbt, orcstack and orcbrowse over the kernel model.  The text output
 * is the batch report's (src/report.c): the same task and CPU lines and
 * oc_report_print_trace(), so a trace in crash can be put beside
 * `orccrash --all-tasks` or the kernel's own oops line for line.
 */
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "cmds.h"
#include "elffile.h"
#include "lines.h"
#include "report.h"
#include "triage.h"
#include "strutil.h"
#include "ui.h"

static struct oc_kernel *model;

/* The session's source lines (oc_crash_lines()). */
static struct {
	struct oc_lines *l;
	bool tried;		/* opened, or could not be */
	bool busy;		/* a command is using them */
	bool said;		/* "unavailable" said once */
	char *modules_dir;	/* --modules-dir, kept for the session */
} lines;

void oc_crash_bt_args_init(struct oc_crash_bt_args *a)
{
	memset(a, 0, sizeof(*a));
	a->cpu = -1;
}

struct oc_error *oc_crash_model(const struct oc_crash_host *h,
				struct oc_kernel **ret)
{
	struct oc_kernel_options opts = { .mem = h->mem };
	struct oc_kernel *k = NULL;
	struct oc_error *err;

	if (!model) {
		if (!h->vmcore || !h->vmcore[0])
			return oc_error_create(OC_ERR_UNSUPPORTED,
					       "crash has no dump file open (a live system): orccrash needs one");
		if (!h->vmlinux || !h->vmlinux[0])
			return oc_error_create(OC_ERR_UNSUPPORTED,
					       "crash has no vmlinux open");
		/*
		 * Into a local first: a ^C in crash longjmps out of the
		 * command, and a half-built model must not be kept.
		 */
		err = oc_kernel_open(h->vmcore, h->vmlinux, &opts, &k);
		if (err)
			return err;
		model = k;
	}
	*ret = model;
	return NULL;
}

void oc_crash_model_close(void)
{
	/* after an interrupted lookup the handle is not closed (its state
	 * may be half updated): only the cache additions are lost */
	if (!lines.busy)
		oc_lines_close(lines.l);	/* writes the cache */
	free(lines.modules_dir);
	memset(&lines, 0, sizeof(lines));
	if (model)
		oc_kernel_close(model);
	model = NULL;
}

static void say(const struct oc_crash_host *h, const char *msg)
{
	if (h->info)
		h->info(msg);
	else
		fprintf(stderr, "%s\n", msg);
}

static void say_error(const struct oc_crash_host *h, const char *what,
		      struct oc_error *err)
{
	char buf[512];
	size_t n = (size_t)snprintf(buf, sizeof(buf), "%s: ", what);

	oc_error_take(err, buf + n, sizeof(buf) - n);
	say(h, buf);
}

struct oc_lines *oc_crash_lines(const struct oc_crash_host *h,
				const struct oc_crash_lines_args *a)
{
	const char *path = h->debuginfo && h->debuginfo[0] ? h->debuginfo :
			   h->vmlinux;
	const uint8_t *id;
	struct oc_error *err;
	size_t len = 0;

	if (lines.busy) {
		/* the last command was left by a longjmp (^C), maybe in
		 * the middle of a lookup: leave that handle, open anew */
		lines.l = NULL;
		lines.tried = false;
		lines.busy = false;
	}
	if (a && a->modules_dir) {
		char *dir = strdup(a->modules_dir);

		if (!dir) {
			say_error(h, "no source lines", &oc_enomem);
			return NULL;
		}
		free(lines.modules_dir);
		lines.modules_dir = dir;
		if (lines.l && (err = oc_lines_set_modules_dir(lines.l, dir)))
			say_error(h, "module lines", err);
	}
	if ((a && a->no_lines) || !model || !model->elf || !path)
		return NULL;
	if (!lines.tried) {
		lines.tried = true;
		id = oc_elf_build_id(model->elf, &len);
		err = oc_lines_open(path, id, len, &lines.l);
		if (!err && lines.modules_dir)
			err = oc_lines_set_modules_dir(lines.l, lines.modules_dir);
		/* debug .ko files must be of the modules in the dump */
		for (size_t i = 0; !err && i < model->nr_modules; i++)
			err = oc_lines_set_module_build_id(lines.l,
							   model->modules[i].name,
							   model->modules[i].build_id,
							   model->modules[i].build_id_len);
		if (err) {
			oc_lines_close(lines.l);
			lines.l = NULL;
			say_error(h, "no source lines", err);
		}
	}
	lines.busy = lines.l != NULL;
	return lines.l;
}

void oc_crash_lines_done(const struct oc_crash_host *h)
{
	const char *why;

	const char *mod;

	lines.busy = false;
	if (lines.l && !lines.said && (why = oc_lines_unavailable(lines.l))) {
		lines.said = true;
		say(h, why);
	}
	while (lines.l && (why = oc_lines_take_module_note(lines.l, &mod))) {
		char buf[512];

		snprintf(buf, sizeof(buf), "module %s: no source lines: %s", mod, why);
		say(h, buf);
	}
}

static const struct oc_task *task_at(const struct oc_kernel *k, uint64_t addr)
{
	for (size_t i = 0; i < k->nr_tasks; i++)
		if (k->tasks[i].addr == addr)
			return &k->tasks[i];
	return NULL;
}

static struct oc_error *find_task(const struct oc_kernel *k, uint64_t addr,
				  const struct oc_task **ret)
{
	*ret = task_at(k, addr);
	if (!*ret)
		return oc_error_format(OC_ERR_LOOKUP,
				       "task %" PRIx64 " is not in orccrash's task list",
				       addr);
	return NULL;
}

static struct oc_error *find_ref(const struct oc_kernel *k,
				 const struct oc_crash_task_ref *ref,
				 const struct oc_task **ret)
{
	if (ref->addr)
		return find_task(k, ref->addr, ret);
	*ret = oc_kernel_find_task(k, ref->pid);
	if (!*ret)
		return oc_error_format(OC_ERR_LOOKUP, "no task with pid %d",
				       (int)ref->pid);
	return NULL;
}

static void print_walk(const struct oc_kernel *k, struct oc_error *err,
		       const struct oc_trace *tr, bool regs,
		       struct oc_lines *l, FILE *out)
{
	if (err) {
		fprintf(out, " error: ");
		oc_error_fprint(out, err);
		fputc('\n', out);
		oc_error_destroy(err);
		return;
	}
	struct oc_report_options ro;

	oc_report_options_init(&ro);
	ro.regs = regs;
	ro.lines = l;
	oc_report_print_trace(k, &ro, tr, " ", out);
}

static void bt_task(const struct oc_kernel *k, const struct oc_task *t,
		    const struct oc_sched_clock *clk,
		    const struct oc_waits *waits,
		    const struct oc_crash_bt_args *a, struct oc_lines *l,
		    FILE *out)
{
	struct oc_unwind_options uo = { .scan = a->scan };
	struct oc_trace tr;
	struct oc_error *err;

	oc_report_print_task_line(t, out);
	oc_report_print_blocked(k, clk, waits, t, out);
	oc_report_print_wait(waits, t, out);
	oc_trace_init(&tr);
	err = oc_kernel_unwind_task(k, t, &uo, &tr);
	print_walk(k, err, &tr, a->regs, l, out);
	oc_trace_deinit(&tr);
}

static void bt_cpu(const struct oc_kernel *k, unsigned int c,
		   const struct oc_crash_bt_args *a, struct oc_lines *l,
		   FILE *out)
{
	struct oc_unwind_options uo = { .scan = a->scan };
	struct oc_trace tr;
	struct oc_error *err;

	if (!oc_report_print_cpu_heading(k, c, out))
		return;
	oc_trace_init(&tr);
	err = oc_kernel_unwind_cpu(k, c, &uo, &tr);
	print_walk(k, err, &tr, a->regs, l, out);
	oc_trace_deinit(&tr);
}

static struct oc_error *bt_json(const struct oc_kernel *k,
				const struct oc_crash_host *h,
				const struct oc_crash_bt_args *a,
				struct oc_lines *l, FILE *out)
{
	struct oc_select_task which[OC_CRASH_MAX_TASKS];
	struct oc_report_options ro;
	bool reliable;
	const struct oc_task *t;
	struct oc_error *err;

	oc_report_options_init(&ro);
	ro.json = true;
	ro.scan = a->scan;
	ro.vmlinux = h->vmlinux;
	ro.lines = l;
	if (a->all_tasks) {
		ro.sel.all_tasks = true;
	} else if (a->all_cpus || a->cpu >= 0) {
		ro.sel.active = true;
		ro.sel.cpu = a->cpu;
	} else {
		/* the tasks by pid, in the order given (--json --pid P...) */
		for (unsigned int i = 0; i < a->nr_tasks || i == 0; i++) {
			if (a->nr_tasks)
				err = find_ref(k, &a->tasks[i], &t);
			else
				err = find_task(k, h->current_task, &t);
			if (err)
				return err;
			which[i] = (struct oc_select_task){ .pid = t->pid };
			ro.sel.nr_which = i + 1;
		}
		ro.sel.which = which;
	}
	/* an unreliable trace says so in the document ("reliable") */
	return oc_report_json(k, &ro, out, &reliable);
}

static struct oc_error *bt(const struct oc_kernel *k,
			   const struct oc_crash_host *h,
			   const struct oc_crash_bt_args *a, struct oc_lines *l,
			   FILE *out)
{
	const struct oc_task *t;
	struct oc_sched_clock clk;
	struct oc_error *err = NULL;
	struct oc_waits waits;
	const struct oc_waits *w = NULL;

	if (a->json)
		return bt_json(k, h, a, l, out);
	if (!a->all_tasks && (a->all_cpus || a->cpu >= 0)) {
		bool first = true;

		for (unsigned int c = 0; c < k->nr_cpus; c++) {
			if (a->cpu >= 0 && (unsigned)a->cpu != c)
				continue;
			if (!first)
				fputc('\n', out);
			first = false;
			bt_cpu(k, c, a, l, out);
		}
		return NULL;
	}
	oc_triage_sched_clock(k, &clk);	/* once, as the report's task part */
	/* what the D tasks wait on, as the report's WAITS ON lines */
	if (oc_ok(oc_waits_compute(k, l, &waits)))
		w = &waits;
	if (a->all_tasks) {
		for (size_t i = 0; i < k->nr_tasks; i++) {
			if (i)
				fputc('\n', out);
			bt_task(k, &k->tasks[i], &clk, w, a, l, out);
		}
	} else if (!a->nr_tasks) {
		err = find_task(k, h->current_task, &t);
		if (!err)
			bt_task(k, t, &clk, w, a, l, out);
	} else {
		for (unsigned int i = 0; i < a->nr_tasks && !err; i++) {
			err = find_ref(k, &a->tasks[i], &t);
			if (err)
				break;
			if (i)
				fputc('\n', out);
			bt_task(k, t, &clk, w, a, l, out);
		}
	}
	if (w)
		oc_waits_deinit(&waits);
	return err;
}

struct oc_error *oc_crash_bt(const struct oc_crash_host *h,
			     const struct oc_crash_bt_args *a, FILE *out)
{
	struct oc_kernel *k;
	struct oc_error *err = oc_crash_model(h, &k);
	struct oc_lines *l;

	if (err)
		return err;
	if (a->cpu >= 0 && (unsigned)a->cpu >= k->nr_cpus)
		return oc_error_format(OC_ERR_INVALID, "no CPU %d (the dump has %u)",
				       a->cpu, k->nr_cpus);
	l = oc_crash_lines(h, &a->lines);
	err = bt(k, h, a, l, out);
	oc_crash_lines_done(h);
	return err;
}

/* The task whose stack holds @addr, if any. */
static const struct oc_task *stack_owner(const struct oc_kernel *k,
					 uint64_t addr)
{
	for (size_t i = 0; i < k->nr_tasks; i++) {
		const struct oc_task *t = &k->tasks[i];

		if (t->stack && addr >= t->stack && addr - t->stack < k->thread_size)
			return t;
	}
	return NULL;
}

static void describe(const struct oc_kernel *k, const struct oc_stack_info *si,
		     int cpu, uint64_t addr, FILE *out)
{
	const struct oc_task *owner;

	if (si->type == OC_STACK_TASK && (owner = stack_owner(k, addr)))
		fprintf(out, "TASK stack of PID %d (%s), task %016" PRIx64,
			owner->pid, owner->comm, owner->addr);
	else if (cpu >= 0)
		fprintf(out, "%s stack of CPU %d", oc_stack_name(si->type), cpu);
	else
		fprintf(out, "%s stack", oc_stack_name(si->type));
}

/*
 * Which stack @addr is on: for the current task first (on its CPU if it
 * is running), then for each CPU's current task, then any task's own
 * stack, like get_stack_info() would for each of those walks.
 */
static bool locate(const struct oc_kernel *k, const struct oc_task *cur,
		   uint64_t addr, struct oc_stack_info *si, int *cpu_ret)
{
	const struct oc_task *owner;

	if (cur && oc_kernel_stack_info(k, cur, cur->running_on, addr, si)) {
		*cpu_ret = si->type == OC_STACK_TASK ? -1 : cur->running_on;
		return true;
	}
	for (unsigned int c = 0; c < k->nr_cpus; c++) {
		if (oc_kernel_stack_info(k, NULL, (int)c, addr, si)) {
			*cpu_ret = si->type == OC_STACK_TASK ? -1 : (int)c;
			return true;
		}
	}
	owner = stack_owner(k, addr);
	if (owner && oc_kernel_stack_info(k, owner, -1, addr, si)) {
		*cpu_ret = -1;
		return true;
	}
	return false;
}

struct oc_error *oc_crash_stack(const struct oc_crash_host *h, bool have_addr,
				uint64_t addr, FILE *out)
{
	struct oc_kernel *k;
	struct oc_error *err = oc_crash_model(h, &k);
	const struct oc_task *cur;
	struct oc_stack_info si, prev;
	int cpu = -1, pcpu;
	uint64_t link;

	if (err)
		return err;
	cur = task_at(k, h->current_task);
	if (!have_addr) {
		if (!cur)
			return oc_error_format(OC_ERR_LOOKUP,
					       "task %" PRIx64 " is not in orccrash's task list",
					       h->current_task);
		if (cur->running_on >= 0 && k->cpus[cur->running_on].has_regs) {
			addr = k->cpus[cur->running_on].regs.sp;
			fprintf(out, "   ADDRESS: %016" PRIx64 "  (sp of PID %d at the crash, CPU %d)\n",
				addr, cur->pid, cur->running_on);
		} else {
			addr = cur->thread_sp;
			fprintf(out, "   ADDRESS: %016" PRIx64 "  (thread.sp of PID %d)\n",
				addr, cur->pid);
		}
	} else {
		fprintf(out, "   ADDRESS: %016" PRIx64 "\n", addr);
	}
	if (!locate(k, cur, addr, &si, &cpu)) {
		fprintf(out, "     STACK: none (not on a task, IRQ, entry or exception stack)\n");
		return NULL;
	}
	fprintf(out, "     STACK: ");
	describe(k, &si, cpu, addr, out);
	fputc('\n', out);
	fprintf(out, "    BOUNDS: %016" PRIx64 " - %016" PRIx64 "  (%" PRIu64 " bytes, %" PRIu64 " above the address)\n",
		si.begin, si.end, si.end - si.begin, si.end - addr);
	if (!si.next_sp_addr)
		return NULL;
	fprintf(out, "      LINK: %016" PRIx64 ": ", si.next_sp_addr);
	err = oc_mem_read_u64(&k->mem, si.next_sp_addr, &link);
	if (err) {
		oc_error_fprint(out, err);
		fputc('\n', out);
		oc_error_destroy(err);
		return NULL;
	}
	fprintf(out, "previous sp %016" PRIx64, link);
	if (locate(k, cur, link, &prev, &pcpu)) {
		fprintf(out, " on the ");
		describe(k, &prev, pcpu, link, out);
	}
	fputc('\n', out);
	return NULL;
}

/* One line of the map: the stack get_stack_info() finds at @probe. */
static void map_line(const struct oc_kernel *k, const struct oc_task *t,
		     int cpu, uint64_t probe, FILE *out)
{
	struct oc_stack_info si;

	if (!oc_kernel_stack_info(k, t, cpu, probe, &si))
		return;
	fprintf(out, "  %-16s %016" PRIx64 " - %016" PRIx64 "  %6" PRIu64 " bytes",
		oc_stack_name(si.type), si.begin, si.end, si.end - si.begin);
	if (si.next_sp_addr)
		fprintf(out, "  link at %016" PRIx64, si.next_sp_addr);
	fputc('\n', out);
}

struct oc_error *oc_crash_stack_map(const struct oc_crash_host *h, int cpu,
				    FILE *out)
{
	struct oc_kernel *k;
	struct oc_error *err = oc_crash_model(h, &k);
	const struct oc_cpu_stacks *cs;
	const struct oc_task *t;

	if (err)
		return err;
	if (cpu < 0 || (unsigned)cpu >= k->nr_cpus || (unsigned)cpu >= k->stacks.nr_cpus)
		return oc_error_format(OC_ERR_INVALID, "no CPU %d (the dump has %u)",
				       cpu, k->nr_cpus);
	cs = &k->stacks.cpus[cpu];
	t = k->cpus[cpu].task;
	fprintf(out, "CPU %d", cpu);
	if (t) {
		char comm[128];

		fprintf(out, ": PID %d (%s), task %016" PRIx64, t->pid,
			oc_esc(comm, sizeof(comm), t->comm, 0), t->addr);
	}
	fputc('\n', out);
	/* Probe the middle of each stack: the bounds printed are the ones
	 * the walker uses (oc_stack_map_find()), not recomputed here. */
	if (t && t->stack)
		map_line(k, t, cpu, t->stack + k->thread_size / 2, out);
	if (cs->irq_end && cs->irq_size)
		map_line(k, NULL, cpu, cs->irq_end - cs->irq_size / 2, out);
	if (cs->entry_end > cs->entry_begin)
		map_line(k, NULL, cpu, cs->entry_begin + (cs->entry_end - cs->entry_begin) / 2, out);
	for (int i = 0; i < OC_NR_ESTACKS; i++)
		if (cs->estack_end[i] > cs->estack_begin[i])
			map_line(k, NULL, cpu, cs->estack_begin[i] +
				 (cs->estack_end[i] - cs->estack_begin[i]) / 2, out);
	return NULL;
}

struct oc_error *oc_crash_browse(const struct oc_crash_host *h,
				 const struct oc_crash_browse_args *a)
{
	struct oc_ui_options uo = {
		.vmcore = h->vmcore,
		.vmlinux = h->vmlinux,
		.source_dir = a ? a->source_dir : NULL,
	};
	static const int sigs[] = { SIGINT, SIGWINCH, SIGTSTP, SIGCONT, SIGTERM };
	struct sigaction saved[sizeof(sigs) / sizeof(sigs[0])];
	struct oc_kernel *k;
	struct oc_error *err;
	struct termios tio;
	bool have_tio;

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
		return oc_error_create(OC_ERR_UNSUPPORTED,
				       "orcbrowse needs a terminal (crash's stdin and stdout are not one)");
	err = oc_crash_model(h, &k);
	if (err)
		return err;
	/*
	 * ncurses changes the terminal modes and installs its own SIGWINCH
	 * and SIGTSTP handlers; crash keeps handlers of its own.  Put
	 * everything back on the way out.  crash's SIGINT handler longjmps
	 * to its prompt, which would leave the terminal in curses mode
	 * (cbreak, no echo, the alternate screen): ^C is ignored while the
	 * browser runs (q leaves it).
	 */
	have_tio = tcgetattr(STDIN_FILENO, &tio) == 0;
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], NULL, &saved[i]);
	signal(SIGINT, SIG_IGN);
	fflush(stdout);
	/* the browser's worker thread is the only user of the lines
	 * while it runs (it is joined before oc_ui_run() returns) */
	uo.lines = oc_crash_lines(h, a ? &a->lines : NULL);
	err = oc_ui_run(k, &uo);
	oc_crash_lines_done(h);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &saved[i], NULL);
	if (have_tio)
		tcsetattr(STDIN_FILENO, TCSANOW, &tio);
	return err;
}
