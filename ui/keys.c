// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The key table.  Only ncurses' KEY_* constants are used here (no
 * calls), so the table and the help built from it are unit-testable.
 */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "keys.h"

enum { KEY_ESC = 27, KEY_TAB = '\t', KEY_CTRL_L = 'L' - '@' };

/* In the order of the footer and the help screen: what a newcomer
 * needs first, so that "? help" survives a narrow terminal. */
const struct oc_ui_request_info oc_ui_requests[] = {
	{ OC_REQ_HELP, "help", "this help", OC_CTX_ALL, true },
	{ OC_REQ_UP, "up", "move up one line", OC_CTX_ALL, false },
	{ OC_REQ_DOWN, "down", "move down one line", OC_CTX_ALL, false },
	{ OC_REQ_PAGE_UP, "page up", "move up one page", OC_CTX_ALL, false },
	{ OC_REQ_PAGE_DOWN, "page down", "move down one page", OC_CTX_ALL,
	  false },
	{ OC_REQ_HOME, "first", "go to the first line", OC_CTX_ALL, false },
	{ OC_REQ_END, "last", "go to the last line", OC_CTX_ALL, false },
	{ OC_REQ_NEXT_PANE, "pane", "next pane (threads, frames, registers)",
	  OC_CTX_MAIN, true },
	{ OC_REQ_PREV_PANE, "prev pane", "previous pane", OC_CTX_MAIN, false },
	{ OC_REQ_ENTER, "open",
	  "threads: its frames; frames: stack memory; memory: follow the word",
	  OC_CTX_THREADS | OC_CTX_FRAMES | OC_CTX_MEMORY, true },
	{ OC_REQ_BACK, "back",
	  "back: close a view, leave a pane; quit from the threads pane",
	  OC_CTX_ALL, true },
	{ OC_REQ_QUIT, "quit", "quit at once", OC_CTX_ALL, false },
	{ OC_REQ_SEARCH, "search",
	  "search threads by comm, pid or a function in the stack "
	  "(in the log: its text)",
	  OC_CTX_MAIN | OC_CTX_LOG, true },
	{ OC_REQ_SEARCH_NEXT, "next", "next match of the last search",
	  OC_CTX_MAIN | OC_CTX_LOG, true },
	{ OC_REQ_SORT, "sort", "sort tasks by pid, state, comm, CPU",
	  OC_CTX_MAIN, true },
	{ OC_REQ_FILTER_NEXT, "state",
	  "show only tasks in the next state (all, R, D, S, ...)",
	  OC_CTX_MAIN, true },
	{ OC_REQ_FILTER_PREV, "state-", "state filter, backwards",
	  OC_CTX_MAIN, false },
	{ OC_REQ_LOG, "log", "the kernel log, ending at the panic",
	  OC_CTX_MAIN | OC_CTX_MEMORY, true },
	{ OC_REQ_MEMORY, "memory", "stack memory of the selected frame",
	  OC_CTX_MAIN, true },
	{ OC_REQ_DETAILS, "source",
	  "frame details: registers or the source around the line (--source)",
	  OC_CTX_MAIN, true },
	{ OC_REQ_FILES, "files", "file:line in the frames pane on or off",
	  OC_CTX_MAIN, false },
	{ OC_REQ_REDRAW, "redraw", "redraw the screen", OC_CTX_ALL, false },
};
const size_t oc_ui_nr_requests =
	sizeof(oc_ui_requests) / sizeof(oc_ui_requests[0]);

const struct oc_ui_key oc_ui_keys[] = {
	{ KEY_UP, OC_REQ_UP },
	{ 'k', OC_REQ_UP },
	{ KEY_DOWN, OC_REQ_DOWN },
	{ 'j', OC_REQ_DOWN },
	{ KEY_PPAGE, OC_REQ_PAGE_UP },
	{ KEY_NPAGE, OC_REQ_PAGE_DOWN },
	{ ' ', OC_REQ_PAGE_DOWN },
	{ KEY_HOME, OC_REQ_HOME },
	{ 'g', OC_REQ_HOME },
	{ KEY_END, OC_REQ_END },
	{ 'G', OC_REQ_END },
	{ KEY_TAB, OC_REQ_NEXT_PANE },
	{ KEY_RIGHT, OC_REQ_NEXT_PANE },
	{ KEY_BTAB, OC_REQ_PREV_PANE },
	{ KEY_LEFT, OC_REQ_PREV_PANE },
	{ '\n', OC_REQ_ENTER },
	{ '\r', OC_REQ_ENTER },
	{ KEY_ENTER, OC_REQ_ENTER },
	{ 'q', OC_REQ_BACK },
	{ KEY_ESC, OC_REQ_BACK },
	{ 'Q', OC_REQ_QUIT },
	{ '/', OC_REQ_SEARCH },
	{ 'n', OC_REQ_SEARCH_NEXT },
	{ 's', OC_REQ_SORT },
	{ 'f', OC_REQ_FILTER_NEXT },
	{ 'S', OC_REQ_FILTER_NEXT },
	{ 'F', OC_REQ_FILTER_PREV },
	{ 'l', OC_REQ_LOG },
	{ 'm', OC_REQ_MEMORY },
	{ 'v', OC_REQ_DETAILS },
	{ 'L', OC_REQ_FILES },
	{ '?', OC_REQ_HELP },
	{ KEY_F(1), OC_REQ_HELP },
	{ KEY_CTRL_L, OC_REQ_REDRAW },
};
const size_t oc_ui_nr_keys = sizeof(oc_ui_keys) / sizeof(oc_ui_keys[0]);

enum oc_ui_request oc_ui_key_request(int key)
{
	for (size_t i = 0; i < oc_ui_nr_keys; i++)
		if (oc_ui_keys[i].key == key)
			return oc_ui_keys[i].req;
	return OC_REQ_NONE;
}

const struct oc_ui_request_info *oc_ui_request_info(enum oc_ui_request req)
{
	for (size_t i = 0; i < oc_ui_nr_requests; i++)
		if (oc_ui_requests[i].req == req)
			return &oc_ui_requests[i];
	return NULL;
}

const char *oc_ui_key_name(int key, char *buf, size_t size)
{
	static const struct {
		int key;
		const char *name;
	} names[] = {
		{ KEY_UP, "Up" },	{ KEY_DOWN, "Down" },
		{ KEY_LEFT, "Left" },	{ KEY_RIGHT, "Right" },
		{ KEY_PPAGE, "PgUp" },	{ KEY_NPAGE, "PgDn" },
		{ KEY_HOME, "Home" },	{ KEY_END, "End" },
		{ KEY_TAB, "Tab" },	{ KEY_BTAB, "S-Tab" },
		{ '\n', "Enter" },	{ '\r', "Return" },
		{ KEY_ENTER, "KEnter" }, { KEY_ESC, "Esc" },
		{ ' ', "Space" },	{ KEY_F(1), "F1" },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].key == key) {
			snprintf(buf, size, "%s", names[i].name);
			return buf;
		}
	if (key > 0 && key < ' ')
		snprintf(buf, size, "^%c", key + '@');
	else if (key >= ' ' && key < 127)
		snprintf(buf, size, "%c", key);
	else
		snprintf(buf, size, "<%d>", key);
	return buf;
}

const char *oc_ui_request_keys(enum oc_ui_request req, char *buf, size_t size)
{
	size_t len = 0;
	char name[16];

	if (size)
		buf[0] = '\0';
	for (size_t i = 0; i < oc_ui_nr_keys; i++) {
		int n;

		/* Return and keypad Enter are the same key to a reader */
		if (oc_ui_keys[i].req != req || oc_ui_keys[i].key == '\r' ||
		    oc_ui_keys[i].key == KEY_ENTER)
			continue;
		oc_ui_key_name(oc_ui_keys[i].key, name, sizeof(name));
		n = snprintf(buf + len, size - len, "%s%s", len ? " " : "",
			     name);
		if (n < 0 || (size_t)n >= size - len)
			break;
		len += (size_t)n;
	}
	return buf;
}
