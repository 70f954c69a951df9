/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The ncurses browser over the kernel model (docs/browser.md).
 */
#ifndef OC_UI_H
#define OC_UI_H

#include <stdbool.h>

#include "kernel.h"

struct oc_ui_options {
	const char *vmcore, *vmlinux;
	bool no_color;		/* also when NO_COLOR is set in the environment */
};

/* Runs the browser until the user quits; returns an exit code (0 ok). */
int oc_ui_run(const struct oc_kernel *k, const struct oc_ui_options *opts);

#endif /* OC_UI_H */
