/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The browser's requests and the keys bound to them, declared once
 * (tig's request.h): the event loop maps a key to a request, the
 * footer and the help screen are generated from the same table.
 */
#ifndef OC_UI_KEYS_H
#define OC_UI_KEYS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Every request once, in the order of the footer and the help screen
 * (what a newcomer needs first, so that "? help" survives a narrow
 * terminal): R(ID, name for the footer, one line of help, contexts where
 * it does something (enum oc_ui_context), worth a place in the footer,
 * its keys (1 to 3: characters or ncurses KEY_* codes; KEY_ESC, KEY_TAB
 * and KEY_CTRL_L are ui/keys.c's)).  The enum, the request table and the
 * key table are made from it.
 */
#define OC_UI_REQUESTS(R)                                                    \
	R(HELP, "help", "this help", OC_CTX_ALL, true, '?', KEY_F(1))        \
	R(UP, "up", "move up one line", OC_CTX_ALL, false, KEY_UP, 'k')      \
	R(DOWN, "down", "move down one line", OC_CTX_ALL, false, KEY_DOWN,   \
	  'j')                                                               \
	R(PAGE_UP, "page up", "move up one page", OC_CTX_ALL, false,         \
	  KEY_PPAGE)                                                         \
	R(PAGE_DOWN, "page down", "move down one page", OC_CTX_ALL, false,   \
	  KEY_NPAGE, ' ')                                                    \
	R(HOME, "first", "go to the first line", OC_CTX_ALL, false,          \
	  KEY_HOME, 'g')                                                     \
	R(END, "last", "go to the last line", OC_CTX_ALL, false, KEY_END,    \
	  'G')                                                               \
	R(NEXT_PANE, "pane", "next pane (threads, frames, registers)",       \
	  OC_CTX_MAIN, true, KEY_TAB, KEY_RIGHT)                             \
	R(PREV_PANE, "prev pane", "previous pane", OC_CTX_MAIN, false,       \
	  KEY_BTAB, KEY_LEFT)                                                \
	R(ENTER, "open",                                                     \
	  "threads: its frames; frames: stack memory; frame details: its "    \
	  "variables and registers; memory: follow the word; a command's "    \
	  "output or the variables: the struct a pointer (or a register, "    \
	  "its type asked) points to",                                       \
	  OC_CTX_MAIN | OC_CTX_MEMORY | OC_CTX_WAITS | OC_CTX_COMMAND, true, \
	  '\n', '\r', KEY_ENTER)                                              \
	R(BACK, "back",                                                      \
	  "back: close a view (a followed pointer's: the struct before), "   \
	  "leave a pane; quit from the threads pane",                        \
	  OC_CTX_ALL, true, 'q', KEY_ESC, KEY_BACKSPACE)                     \
	R(QUIT, "quit", "quit at once", OC_CTX_ALL, false, 'Q')              \
	R(SEARCH, "search",                                                  \
	  "search threads by comm, pid or a function in the stack "          \
	  "(in the log: its text)",                                          \
	  OC_CTX_MAIN | OC_CTX_LOG | OC_CTX_COMMAND, true, '/')              \
	R(SEARCH_NEXT, "next", "next match of the last search",              \
	  OC_CTX_MAIN | OC_CTX_LOG | OC_CTX_COMMAND, true, 'n')              \
	R(SORT, "sort", "sort tasks by pid, state, comm, CPU", OC_CTX_MAIN,  \
	  true, 's')                                                         \
	R(FILTER_NEXT, "state",                                              \
	  "show only tasks in the next state (all, R, D, S, ...)",           \
	  OC_CTX_MAIN, true, 'f', 'S')                                       \
	R(FILTER_PREV, "state-", "state filter, backwards", OC_CTX_MAIN,     \
	  false, 'F')                                                        \
	R(LOG, "log", "the kernel log, ending at the panic",                 \
	  OC_CTX_MAIN | OC_CTX_MEMORY, true, 'l')                            \
	R(WAITS, "waits",                                                    \
	  "what tasks in D wait on, who holds it: wait chains, deadlocks",   \
	  OC_CTX_MAIN | OC_CTX_LOG, true, 'w')                               \
	R(MEMORY, "memory", "stack memory of the selected frame",            \
	  OC_CTX_MAIN, true, 'm')                                            \
	R(DETAILS, "source",                                                 \
	  "frame details: registers or the source around the line (--source)", \
	  OC_CTX_MAIN, true, 'v')                                            \
	R(FILES, "files", "file:line in the frames pane on or off",          \
	  OC_CTX_MAIN, false, 'L')                                           \
	R(DISASM, "dis",                                                     \
	  "disassemble the selected frame's function, its ip marked (dis -f)", \
	  OC_CTX_MAIN, false, 'd')                                           \
	R(COMMAND, "command",                                                \
	  "run a command (bt, sym, rd, struct, p, dis ...: docs/commands.md);" \
	  " its output in a view", OC_CTX_ALL & ~OC_CTX_HELP, true, ':')     \
	R(REDRAW, "redraw", "redraw the screen", OC_CTX_ALL, false,          \
	  KEY_CTRL_L)

#define OC_UI_REQ_ENUM(id, ...) OC_REQ_##id,
enum oc_ui_request {
	OC_REQ_NONE = 0,
	OC_UI_REQUESTS(OC_UI_REQ_ENUM)
	OC_REQ_NR,
};
#undef OC_UI_REQ_ENUM

/* Where a request does something; the footer shows only those. */
enum oc_ui_context {
	OC_CTX_THREADS = 1 << 0,	/* main view, threads pane */
	OC_CTX_FRAMES = 1 << 1,		/* main view, frames pane */
	OC_CTX_REGS = 1 << 2,		/* main view, registers pane */
	OC_CTX_MEMORY = 1 << 3,
	OC_CTX_LOG = 1 << 4,
	OC_CTX_HELP = 1 << 5,
	OC_CTX_WAITS = 1 << 6,
	OC_CTX_COMMAND = 1 << 7,	/* a command's output (:) */
	OC_CTX_MAIN = OC_CTX_THREADS | OC_CTX_FRAMES | OC_CTX_REGS,
	OC_CTX_ALL = (1 << 8) - 1,
};

struct oc_ui_request_info {
	enum oc_ui_request req;
	const char *name;	/* short, for the footer: "search" */
	const char *help;	/* one line for the help screen */
	unsigned int contexts;	/* enum oc_ui_context bits */
	bool footer;		/* worth a place in the footer */
};

struct oc_ui_key {
	int key;		/* a character or an ncurses KEY_* code */
	enum oc_ui_request req;
};

extern const struct oc_ui_request_info oc_ui_requests[];
extern const size_t oc_ui_nr_requests;
extern const struct oc_ui_key oc_ui_keys[];
extern const size_t oc_ui_nr_keys;

/* The request bound to @key; OC_REQ_NONE if none. */
enum oc_ui_request oc_ui_key_request(int key);
const struct oc_ui_request_info *oc_ui_request_info(enum oc_ui_request req);
/* "j", "Down", "PgUp", "Tab", "Esc", "^L" into @buf. */
const char *oc_ui_key_name(int key, char *buf, size_t size);
/* Every key of @req, "Up k" style, into @buf. */
const char *oc_ui_request_keys(enum oc_ui_request req, char *buf, size_t size);

#endif /* OC_UI_KEYS_H */
