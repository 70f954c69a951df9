// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The shell (src/shell.h).  libedit's readline interface (Debian's
 * libedit-dev: <editline/readline.h>): readline(), add_history(),
 * rl_attempted_completion_function.  History persists in
 * $ORCCRASH_HISTORY, else ~/.orccrash_history.
 *
 * libedit is opened with dlopen() when a shell starts on a terminal
 * (formats/dl.h): with libbsd and libmd behind it, it cost every other
 * run ~1 ms of ld.so's time.  Without it the shell reads plain lines.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <editline/readline.h>

#include "cmd.h"
#include "dl.h"
#include "shell.h"

/* functions, and variables (a pointer to each) */
#define EDIT_SYMS(X)							\
	X(readline) X(using_history) X(add_history) X(read_history)	\
	X(write_history) X(rl_completion_matches) X(rl_line_buffer)	\
	X(rl_readline_name) X(rl_attempted_completion_function)		\
	X(rl_attempted_completion_over) X(rl_completion_append_character)
OC_DL_DEFINE(ed, OC_EDIT_SONAME, EDIT_SYMS);

enum { MAX_MATCHES = 2000 };

static struct oc_kernel *shell_k;

/* The matches of one completion, collected at state 0. */
static struct {
	char **v;
	size_t nr, next;
} matches;

static void matches_clear(void)
{
	for (size_t i = matches.next; i < matches.nr; i++)
		free(matches.v[i]);
	free(matches.v);
	memset(&matches, 0, sizeof(matches));
}

static bool add_match(void *arg, const char *name)
{
	char *s;

	(void)arg;
	if (matches.nr == MAX_MATCHES)
		return false;
	/* a struct and a typedef of one name, a type in two modules */
	for (size_t i = 0; i < matches.nr; i++)
		if (!strcmp(matches.v[i], name))
			return true;
	if (!matches.v) {
		matches.v = calloc(MAX_MATCHES, sizeof(*matches.v));
		if (!matches.v)
			return false;
	}
	s = strdup(name);
	if (!s)
		return false;
	matches.v[matches.nr++] = s;
	return true;
}

static char *next_match(void)
{
	if (matches.next >= matches.nr) {
		matches_clear();
		return NULL;
	}
	return matches.v[matches.next++];	/* readline frees it */
}

static char *command_generator(const char *text, int state)
{
	if (!state) {
		const char *name;

		matches_clear();
		for (size_t i = 0; (name = oc_cmd_name(i)); i++)
			if (!strncmp(name, text, strlen(text)) && !add_match(NULL, name))
				break;
	}
	return next_match();
}

static char *symbol_generator(const char *text, int state)
{
	if (!state) {
		matches_clear();
		oc_cmd_complete_symbol(shell_k, text, add_match, NULL);
	}
	return next_match();
}

static char *type_generator(const char *text, int state)
{
	if (!state) {
		matches_clear();
		oc_cmd_complete_type(shell_k, text, add_match, NULL);
	}
	return next_match();
}

/* Whether the word at @start is the first argument after the command
 * that ends at @p, options (-x) aside */
static bool first_argument(const char *p, int start)
{
	const char *line = *ed.rl_line_buffer;

	while (p - line < start) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (p - line >= start)
			break;
		if (*p != '-')
			return false;
		while (*p && *p != ' ' && *p != '\t')
			p++;
	}
	return true;
}

static char **complete(const char *text, int start, int end)
{
	char cmd[64];
	size_t n = 0;
	const char *p = *ed.rl_line_buffer;

	(void)end;
	*ed.rl_attempted_completion_over = 1;	/* never file names */
	while (*p == ' ' || *p == '\t')
		p++;
	if (p - *ed.rl_line_buffer >= start)
		return ed.rl_completion_matches(text, command_generator);
	while (*p && *p != ' ' && *p != '\t' && n + 1 < sizeof(cmd))
		cmd[n++] = *p++;
	cmd[n] = '\0';
	if (text[0] == '-')
		return NULL;
	/* struct TYPE[.MEMBER...] ADDRESS: types and members (no space
	 * after one: a '.' and a member may follow), then symbols */
	*ed.rl_completion_append_character = ' ';
	if (oc_cmd_takes_type(cmd) && first_argument(p, start)) {
		*ed.rl_completion_append_character = '\0';
		return ed.rl_completion_matches(text, type_generator);
	}
	if (!oc_cmd_takes_symbol(cmd))
		return NULL;
	return ed.rl_completion_matches(text, symbol_generator);
}

static const char *history_path(char *buf, size_t size)
{
	const char *env = getenv("ORCCRASH_HISTORY"), *home = getenv("HOME");

	if (env)
		return *env ? env : NULL;	/* empty: no history file */
	if (!home || !*home)
		return NULL;
	snprintf(buf, size, "%s/.orccrash_history", home);
	return buf;
}

static bool is_quit(const char *line)
{
	while (*line == ' ' || *line == '\t')
		line++;
	return !strncmp(line, "quit", 4) || !strncmp(line, "exit", 4) ||
	       (line[0] == 'q' && (!line[1] || line[1] == ' '));
}

static void run_line(struct oc_kernel *k, struct oc_lines *lines,
		     const char *line, bool json, FILE *out)
{
	struct oc_error *err = oc_cmd_run(k, lines, line, json, out);

	fflush(out);
	if (err)
		oc_error_report(stderr, "orccrash", err);
}

/* Not a terminal: plain lines, no prompt, no history. */
static int run_plain(struct oc_kernel *k, struct oc_lines *lines, bool json,
		     FILE *in, FILE *out)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	while ((n = getline(&line, &cap, in)) >= 0) {
		if (n && line[n - 1] == '\n')
			line[n - 1] = '\0';
		if (is_quit(line))
			break;
		run_line(k, lines, line, json, out);
	}
	free(line);
	return ferror(in) ? 1 : 0;
}

int oc_shell_run(struct oc_kernel *k, struct oc_lines *lines, bool json,
		 FILE *in, FILE *out)
{
	char hbuf[PATH_MAX];
	const char *hist, *why;
	char *line;

	if (!isatty(fileno(in)))
		return run_plain(k, lines, json, in, out);
	if ((why = oc_dl_load(&ed_dl))) {
		fprintf(stderr, "orccrash: no line editing (%s): plain lines\n", why);
		return run_plain(k, lines, json, in, out);
	}
	shell_k = k;
	*ed.rl_readline_name = "orccrash";
	*ed.rl_attempted_completion_function = complete;
	ed.using_history();
	hist = history_path(hbuf, sizeof(hbuf));
	if (hist)
		ed.read_history(hist);
	while ((line = ed.readline("orccrash> "))) {
		if (is_quit(line)) {
			free(line);
			break;
		}
		if (line[strspn(line, " \t")])
			ed.add_history(line);
		run_line(k, lines, line, json, out);
		free(line);
	}
	if (hist)
		ed.write_history(hist);
	matches_clear();
	return 0;
}
