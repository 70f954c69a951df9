/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `orccrash --shell`: a prompt over the command layer (src/cmd.h), with
 * libedit's line editing, history and completion of command and symbol
 * names on a terminal; lines read plainly from a pipe.  A front end: only
 * src/main.c calls it (it is not in the core library, which the crash
 * extension links).
 */
#ifndef OC_SHELL_H
#define OC_SHELL_H

#include <stdbool.h>
#include <stdio.h>

#include "kernel.h"

/* Runs until EOF or quit; returns the exit status (0, or 1 when reading
 * the input failed).  A failed command prints its one line on stderr and
 * the shell goes on.  @lines: source lines for dis -l, or NULL. */
struct oc_lines;
int oc_shell_run(struct oc_kernel *k, struct oc_lines *lines, bool json,
		 FILE *in, FILE *out);

#endif /* OC_SHELL_H */
