/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one module that talks to ncurses: panes of rows, a header and a
 * footer, keys and mouse clicks, a one-line prompt.
 */
#ifndef OC_UI_DRAW_H
#define OC_UI_DRAW_H

#include <stdbool.h>
#include <stddef.h>

#include "rows.h"

/* oc_draw_key() events that are not keys */
enum {
	OC_DRAW_NO_KEY = -1,	/* nothing before the timeout */
	OC_DRAW_RESIZE = -2,	/* the terminal changed size */
	OC_DRAW_MOUSE = -3,	/* a mouse event: see oc_draw_mouse() */
};

struct oc_draw_pane {
	int y, x, h, w;		/* the whole pane, title row included */
	const char *title;
	const char *heading;	/* a fixed row under the title, or NULL */
	const struct oc_ui_lines *lines;
	size_t top, sel;
	bool focused;
	bool cursor;		/* highlight ->sel */
};

/* Start curses; colours when @color and the terminal has them. */
void oc_draw_init(bool color);
void oc_draw_deinit(void);
void oc_draw_size(int *h_ret, int *w_ret);
/* The next key, or OC_DRAW_NO_KEY after @timeout_ms (-1: wait). */
int oc_draw_key(int timeout_ms);
/* ncurses' name of a key, for messages */
const char *oc_draw_key_name(int key);
/* Whether @key is Backspace (oc_draw_key() gives DEL and ^H as it). */
bool oc_draw_key_is_backspace(int key);
/* After OC_DRAW_MOUSE: where button 1 was clicked. */
bool oc_draw_mouse(int *y_ret, int *x_ret, bool *double_ret);
/* The rows of list a pane shows (its height minus title and heading). */
int oc_draw_pane_rows(const struct oc_draw_pane *p);

void oc_draw_erase(void);
void oc_draw_text(int y, int x, int w, enum oc_ui_style style, bool bar,
		  const char *text);
void oc_draw_pane(const struct oc_draw_pane *p);
void oc_draw_vline(int y, int x, int h);
void oc_draw_refresh(void);
/* Repaint everything (^L). */
void oc_draw_redraw(void);
/* Read a line on row @y after @prompt; false if cancelled (Esc). */
bool oc_draw_prompt(int y, const char *prompt, char *buf, size_t size);

#endif /* OC_UI_DRAW_H */
