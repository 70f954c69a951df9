// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * taskscheck VMCORE VMLINUX: the task list the browser's open reads
 * behind its first screen (oc_kernel_options.tasks_later: a thread with
 * its own reader of the dump) is the list a plain open reads.  Opens the
 * dump three times:
 *   - plainly: the oracle;
 *   - with tasks_later: right after the open the list must be pending,
 *     hold each CPU's task and no more than two a CPU (its current and
 *     idle task); oc_kernel_tasks_sync(wait) must then install it, and
 *     every task (order, address, pid, tgid, ppid, comm, state, CPU,
 *     stack, thread.sp, flags), each CPU's link to its task, the
 *     warnings and the incomplete flag must be the plain open's;
 *   - with tasks_later, closed at once: the reading is stopped (the
 *     sanitizers' builds see it end without a leak or a race).
 * Prints "N tasks, the same" and exits 0; else what differs, exit 1;
 * exit 2 if the dump cannot be opened.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel.h"

const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libkdumpfile.so\n";
}

static struct oc_kernel *open_kernel(const char *vmcore, const char *vmlinux,
				     bool later)
{
	struct oc_kernel_options ko = { .tasks_later = later };
	struct oc_kernel *k = NULL;
	struct oc_error *err = oc_kernel_open(vmcore, vmlinux, &ko, &k);
	char buf[256];

	if (err) {
		fprintf(stderr, "taskscheck: %s\n", oc_error_take(err, buf, sizeof(buf)));
		exit(2);
	}
	return k;
}

static unsigned int differ;

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	va_list ap;

	if (differ++ >= 10)
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static bool same_task(const struct oc_task *a, const struct oc_task *b)
{
	return a->addr == b->addr && a->pid == b->pid && a->tgid == b->tgid &&
	       a->ppid == b->ppid && !memcmp(a->comm, b->comm, sizeof(a->comm)) &&
	       a->state == b->state && a->state_raw == b->state_raw &&
	       a->cpu == b->cpu && a->running_on == b->running_on &&
	       a->kthread == b->kthread && a->idle == b->idle &&
	       a->stack == b->stack && a->thread_sp == b->thread_sp;
}

static bool has_warning(const struct oc_kernel *k, const char *w)
{
	for (unsigned int i = 0; i < k->nr_warnings; i++)
		if (!strcmp(k->warnings[i], w))
			return true;
	return false;
}

int main(int argc, char **argv)
{
	struct oc_kernel *plain, *later;

	if (argc != 3) {
		fprintf(stderr, "usage: taskscheck VMCORE VMLINUX\n");
		return 2;
	}
	plain = open_kernel(argv[1], argv[2], false);
	if (oc_kernel_tasks_pending(plain))
		say("a plain open left its task list pending");

	later = open_kernel(argv[1], argv[2], true);
	/* a reading that ended before this line is still not installed */
	if (!oc_kernel_tasks_pending(later))
		say("tasks_later: the list is not pending after the open");
	if (later->nr_tasks > 2 * (size_t)later->nr_cpus)
		say("tasks_later: %zu tasks listed by the open, more than the %u CPUs' own",
		    later->nr_tasks, later->nr_cpus);
	for (unsigned int c = 0; c < later->nr_cpus; c++)
		if (plain->cpus[c].task && !later->cpus[c].task)
			say("tasks_later: CPU %u has no task before the list is in", c);
	if (!oc_kernel_tasks_sync(later, true))
		say("tasks_later: oc_kernel_tasks_sync(wait) installed nothing");
	if (oc_kernel_tasks_pending(later) || oc_kernel_tasks_sync(later, true))
		say("tasks_later: the list still pending after it was installed");

	if (plain->nr_tasks != later->nr_tasks)
		say("%zu tasks, %zu read behind the open", plain->nr_tasks,
		    later->nr_tasks);
	for (size_t i = 0; i < plain->nr_tasks && i < later->nr_tasks; i++)
		if (!same_task(&plain->tasks[i], &later->tasks[i]))
			say("task %zu: pid %d at 0x%" PRIx64 ", behind the open pid %d at 0x%" PRIx64,
			    i, plain->tasks[i].pid, plain->tasks[i].addr,
			    later->tasks[i].pid, later->tasks[i].addr);
	for (unsigned int c = 0; c < plain->nr_cpus; c++) {
		const struct oc_task *a = plain->cpus[c].task, *b = later->cpus[c].task;

		if ((a ? a - plain->tasks : -1) != (b ? b - later->tasks : -1))
			say("CPU %u: task %td, behind the open %td", c,
			    a ? a - plain->tasks : -1, b ? b - later->tasks : -1);
	}
	if (plain->tasks_incomplete != later->tasks_incomplete)
		say("task list incomplete: %d, behind the open %d",
		    plain->tasks_incomplete, later->tasks_incomplete);
	/* the same warnings; the list's come after the open's others */
	if (plain->nr_warnings != later->nr_warnings)
		say("%u warnings, %u behind the open", plain->nr_warnings,
		    later->nr_warnings);
	for (unsigned int i = 0; i < plain->nr_warnings; i++)
		if (!has_warning(later, plain->warnings[i]))
			say("the warning \"%s\" missing behind the open", plain->warnings[i]);
	oc_kernel_close(later);

	/* closed while the list is read: stopped, joined, freed */
	later = open_kernel(argv[1], argv[2], true);
	oc_kernel_close(later);

	if (differ) {
		printf("%u differences\n", differ);
		oc_kernel_close(plain);
		return 1;
	}
	printf("%zu tasks, the same\n", plain->nr_tasks);
	oc_kernel_close(plain);
	return 0;
}
