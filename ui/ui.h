/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The ncurses browser over the kernel model (docs/browser.md).
 */
#ifndef OC_UI_H
#define OC_UI_H

#include <stdbool.h>

#include "kernel.h"

struct oc_lines;

struct oc_ui_options {
	const char *vmcore, *vmlinux;
	bool no_color;		/* also when NO_COLOR is set in the environment */
	/*
	 * Source lines (src/lines.h), NULL for none (--no-lines, no
	 * vmlinux).  While the browser runs only its worker thread calls
	 * oc_lines_*() on it; the caller closes it after oc_ui_run().
	 */
	struct oc_lines *lines;
	const char *source_dir;	/* --source DIR, or NULL */
};

/* Runs the browser until the user quits; returns NULL, or why it could
 * not start (the caller prints it). */
struct oc_error *oc_ui_run(struct oc_kernel *k,
			   const struct oc_ui_options *opts);

#endif /* OC_UI_H */
