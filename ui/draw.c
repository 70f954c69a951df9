// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Drawing with ncurses: the only file of orccrash that calls it.
 * Styles become colour pairs when the terminal has colours and
 * NO_COLOR (https://no-color.org) is not set, else plain attributes,
 * so every distinction still shows on a monochrome terminal.
 */
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "draw.h"

static bool use_color;

struct style_attr {
	short fg;
	attr_t color_attr;	/* with a colour pair */
	attr_t plain;		/* without colours */
};

static const struct style_attr styles[OC_STYLE_NR] = {
	[OC_STYLE_NORMAL] = { -1, A_NORMAL, A_NORMAL },
	[OC_STYLE_DIM] = { COLOR_BLUE, A_NORMAL, A_DIM },
	[OC_STYLE_SEPARATOR] = { COLOR_CYAN, A_NORMAL, A_BOLD },
	[OC_STYLE_PANIC] = { COLOR_RED, A_BOLD, A_BOLD | A_UNDERLINE },
	[OC_STYLE_ERROR] = { COLOR_RED, A_NORMAL, A_BOLD },
	[OC_STYLE_TITLE] = { COLOR_YELLOW, A_BOLD, A_BOLD },
	[OC_STYLE_MARK] = { COLOR_GREEN, A_NORMAL, A_UNDERLINE },
};

static attr_t style_attr(enum oc_ui_style s)
{
	if ((unsigned)s >= OC_STYLE_NR)
		s = OC_STYLE_NORMAL;
	if (use_color)
		return styles[s].color_attr | COLOR_PAIR((short)s + 1);
	return styles[s].plain;
}

void oc_draw_init(bool color)
{
	/* Esc alone must not wait a second for an escape sequence */
	if (!getenv("ESCDELAY"))
		set_escdelay(25);
	initscr();
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	mousemask(BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED, NULL);
	use_color = color && has_colors();
	if (use_color) {
		start_color();
		use_default_colors();
		for (int s = 0; s < OC_STYLE_NR; s++)
			init_pair((short)(s + 1), styles[s].fg, -1);
	}
}

void oc_draw_deinit(void)
{
	endwin();
}

void oc_draw_size(int *h_ret, int *w_ret)
{
	getmaxyx(stdscr, *h_ret, *w_ret);
}

int oc_draw_key(int timeout_ms)
{
	int c;

	timeout(timeout_ms);
	c = getch();
	if (c == ERR)
		return OC_DRAW_NO_KEY;
	if (c == KEY_RESIZE)
		return OC_DRAW_RESIZE;
	if (c == KEY_MOUSE)
		return OC_DRAW_MOUSE;
	/* Backspace is DEL or ^H as the terminal has it (as the prompt
	 * below takes it): one key */
	if (c == 127 || c == 8)
		return KEY_BACKSPACE;
	return c;
}

bool oc_draw_key_is_backspace(int key)
{
	return key == KEY_BACKSPACE;
}

const char *oc_draw_key_name(int key)
{
	const char *name = keyname(key);

	return name ? name : "?";
}

bool oc_draw_mouse(int *y_ret, int *x_ret, bool *double_ret)
{
	MEVENT ev;

	if (getmouse(&ev) != OK)
		return false;
	if (!(ev.bstate & (BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED)))
		return false;
	*y_ret = ev.y;
	*x_ret = ev.x;
	*double_ret = ev.bstate & BUTTON1_DOUBLE_CLICKED;
	return true;
}

void oc_draw_erase(void)
{
	erase();
}

/* Text from the dump must not drive the terminal: a newline would end
 * the row, other control characters show as ^X and shift the columns. */
static void add_text(int y, int x, const char *text, int w)
{
	move(y, x);
	for (int i = 0; i < w && text[i]; i++) {
		unsigned char c = (unsigned char)text[i];

		addch(c >= ' ' && c < 127 ? c : '?');
	}
}

void oc_draw_text(int y, int x, int w, enum oc_ui_style style, bool bar,
		  const char *text)
{
	attr_t a = style_attr(style) | (bar ? A_REVERSE : A_NORMAL);

	if (w <= 0)
		return;
	attrset(a);
	mvhline(y, x, ' ', w);
	add_text(y, x, text, w);
	attrset(A_NORMAL);
}

int oc_draw_pane_rows(const struct oc_draw_pane *p)
{
	int n = p->h - 1 - (p->heading ? 1 : 0);

	return n > 0 ? n : 0;
}

void oc_draw_pane(const struct oc_draw_pane *p)
{
	int y = p->y, rows = oc_draw_pane_rows(p);

	if (p->h <= 0 || p->w <= 0)
		return;
	/* the focused pane's title is a bar, the others are underlined */
	attrset(p->focused ? A_REVERSE | A_BOLD : A_UNDERLINE);
	mvhline(y, p->x, ' ', p->w);
	add_text(y, p->x, p->title, p->w);
	attrset(A_NORMAL);
	y++;
	if (p->heading && y < p->y + p->h)
		oc_draw_text(y++, p->x, p->w, OC_STYLE_TITLE, false,
			     p->heading);
	for (int i = 0; i < rows; i++, y++) {
		size_t n = p->top + (size_t)i;

		if (n >= p->lines->nr) {
			mvhline(y, p->x, ' ', p->w);
			continue;
		}
		oc_draw_text(y, p->x, p->w, p->lines->v[n].style,
			     p->cursor && n == p->sel && p->focused,
			     p->lines->v[n].text);
		/* an unfocused pane still shows where its cursor is */
		if (p->cursor && n == p->sel && !p->focused)
			mvchgat(y, p->x, p->w, A_BOLD, 0, NULL);
	}
}

void oc_draw_vline(int y, int x, int h)
{
	if (h > 0)
		mvvline(y, x, '|', h);	/* ACS lines need a capable terminal */
}

void oc_draw_refresh(void)
{
	refresh();
}

void oc_draw_redraw(void)
{
	clearok(curscr, TRUE);
	refresh();
}

bool oc_draw_prompt(int y, const char *prompt, char *buf, size_t size)
{
	size_t len = 0;
	int w = COLS;

	buf[0] = '\0';
	curs_set(1);
	timeout(-1);
	for (;;) {
		int c;

		attrset(A_BOLD);
		mvhline(y, 0, ' ', w);
		mvaddnstr(y, 0, prompt, w);
		attrset(A_NORMAL);
		addnstr(buf, w - (int)strlen(prompt) - 1);
		refresh();
		c = getch();
		if (c == 27 || c == ERR) {
			curs_set(0);
			return false;
		}
		if (c == '\n' || c == '\r' || c == KEY_ENTER)
			break;
		if ((c == KEY_BACKSPACE || c == 127 || c == 8) && len)
			buf[--len] = '\0';
		else if (c == 'U' - '@')
			buf[len = 0] = '\0';
		else if (c >= ' ' && c < 127 && len + 1 < size) {
			buf[len++] = (char)c;
			buf[len] = '\0';
		}
	}
	curs_set(0);
	return true;
}
