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

enum oc_ui_request {
	OC_REQ_NONE = 0,
	OC_REQ_UP,
	OC_REQ_DOWN,
	OC_REQ_PAGE_UP,
	OC_REQ_PAGE_DOWN,
	OC_REQ_HOME,
	OC_REQ_END,
	OC_REQ_NEXT_PANE,
	OC_REQ_PREV_PANE,
	OC_REQ_ENTER,
	OC_REQ_BACK,
	OC_REQ_QUIT,
	OC_REQ_SEARCH,
	OC_REQ_SEARCH_NEXT,
	OC_REQ_SORT,
	OC_REQ_FILTER_NEXT,
	OC_REQ_FILTER_PREV,
	OC_REQ_LOG,
	OC_REQ_MEMORY,
	OC_REQ_HELP,
	OC_REQ_REDRAW,
	OC_REQ_DETAILS,
	OC_REQ_FILES,
	OC_REQ_NR,
};

/* Where a request does something; the footer shows only those. */
enum oc_ui_context {
	OC_CTX_THREADS = 1 << 0,	/* main view, threads pane */
	OC_CTX_FRAMES = 1 << 1,		/* main view, frames pane */
	OC_CTX_REGS = 1 << 2,		/* main view, registers pane */
	OC_CTX_MEMORY = 1 << 3,
	OC_CTX_LOG = 1 << 4,
	OC_CTX_HELP = 1 << 5,
	OC_CTX_MAIN = OC_CTX_THREADS | OC_CTX_FRAMES | OC_CTX_REGS,
	OC_CTX_ALL = (1 << 6) - 1,
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
