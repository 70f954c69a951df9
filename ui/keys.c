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

#define REQUEST_ROW(id, name, help, contexts, footer, ...)                   \
	{ OC_REQ_##id, name, help, contexts, footer },
const struct oc_ui_request_info oc_ui_requests[] = {
	OC_UI_REQUESTS(REQUEST_ROW)
};
const size_t oc_ui_nr_requests =
	sizeof(oc_ui_requests) / sizeof(oc_ui_requests[0]);

/* { key, request } for each of a request's 1 to 3 keys, in their order */
#define KEY_ROW(req, k) { k, req },
#define KEYS_1(req, a) KEY_ROW(req, a)
#define KEYS_2(req, a, b) KEY_ROW(req, a) KEY_ROW(req, b)
#define KEYS_3(req, a, b, c) KEY_ROW(req, a) KEY_ROW(req, b) KEY_ROW(req, c)
#define KEYS_PICK(_1, _2, _3, n, ...) n
#define KEY_ROWS(id, name, help, contexts, footer, ...)                      \
	KEYS_PICK(__VA_ARGS__, KEYS_3, KEYS_2, KEYS_1, )(OC_REQ_##id, __VA_ARGS__)
const struct oc_ui_key oc_ui_keys[] = {
	OC_UI_REQUESTS(KEY_ROWS)
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
		{ KEY_BACKSPACE, "Backspace" },
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
