/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a batch report shows: the CPUs and the tasks, chosen once from
 * the command line's selection (--all-tasks, --active, --pid, --comm,
 * --cpu, --state), then rendered by the text and the JSON report alike.
 */
#ifndef OC_SELECT_H
#define OC_SELECT_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "kernel.h"

/* One --pid or --comm, in the order given. */
struct oc_select_task {
	int pid;		/* --pid; -1 for a --comm */
	const char *comm;	/* --comm: an fnmatch(3) pattern; NULL for a --pid */
};

struct oc_select_options {
	bool all_tasks;		/* every task, not only the CPUs */
	bool active;		/* only the CPUs */
	const struct oc_select_task *which;	/* --pid / --comm */
	size_t nr_which;
	int cpu;		/* -1: any */
	char state;		/* 0: any */
};

struct oc_selection {
	/* the CPUs shown, in CPU order */
	unsigned int *cpus;
	size_t nr_cpus;
	/* whether the report has a task part at all */
	bool show_tasks;
	/* the tasks of that part: in the order of the --pid and --comm
	 * options (each task once), else in the kernel's task list order */
	const struct oc_task **tasks;
	size_t nr_tasks;
};

void oc_select_options_init(struct oc_select_options *opts);

/*
 * Chooses what to show.  A --pid or --comm that matches no task of the
 * dump, or a --cpu it does not have, is an error (OC_ERR_LOOKUP, naming
 * it, without the dump's path) rather than an empty report; a --state no
 * task is in is not.
 */
struct oc_error *oc_select(const struct oc_kernel *k,
			   const struct oc_select_options *opts,
			   struct oc_selection *ret);
void oc_selection_deinit(struct oc_selection *sel);

#endif /* OC_SELECT_H */
