/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The command layer: one command line ("sym schedule", "rd -32 jiffies
 * 4") parsed into a command and its arguments and run against the
 * kernel model, printing text or one JSON document (docs/commands.md).
 * Every front end calls it: `orccrash -e`, `orccrash --shell`.  Text
 * never carries a raw control character from the dump (\xNN instead).
 */
#ifndef OC_CMD_H
#define OC_CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "kernel.h"

/* The version of the commands' JSON documents (docs/commands-schema.json). */
#define OC_CMD_JSON_VERSION "1.5.0"

struct oc_lines;

/*
 * Run @line.  On success NULL, the output written to @out.  On bad input
 * (an unknown command, symbol or option, an address not in the dump) an
 * error whose message is one line naming the command and the problem;
 * output already written stays (rd stops at the first unreadable line).
 * @lines: the vmlinux's (and modules') source lines and DWARF (dis -l,
 * p's globals, mod's DEBUGINFO); NULL when there are none (no vmlinux,
 * --no-lines).  The browser borrows its worker's between jobs.
 */
struct oc_error *oc_cmd_run(struct oc_kernel *k, struct oc_lines *lines,
			    const char *line, bool json, FILE *out);

/* The command names, for completion: NULL after the last. */
const char *oc_cmd_name(size_t i);
/* Whether the command named @name takes symbols or addresses (for
 * completion of its arguments). */
bool oc_cmd_takes_symbol(const char *name);

/*
 * Symbol names starting with @prefix, vmlinux first then modules:
 * calls @fn for each until it returns false.  For completion.
 */
void oc_cmd_complete_symbol(const struct oc_kernel *k, const char *prefix,
			    bool (*fn)(void *arg, const char *name),
			    void *arg);

/* @s with every byte below 0x20 or above 0x7e as \xNN (tab too). */
void oc_cmd_put_safe(FILE *out, const char *s);
/* Whether command @name's first argument is a type (struct's TYPE). */
bool oc_cmd_takes_type(const char *name);
/* Completion of struct's TYPE[.MEMBER...]: the type names (kernel's and
 * modules' BTF) with @text as prefix, or with a '.', the members of the
 * type's path so far, each match the whole text ("task_struct.se.vruntime");
 * @fn false: stop. */
void oc_cmd_complete_type(struct oc_kernel *k, const char *text,
			  bool (*fn)(void *arg, const char *name), void *arg);

#endif /* OC_CMD_H */
