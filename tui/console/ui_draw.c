/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ui_draw.c: the console's drawing primitives, below every file that draws: clipped text in
 * a colour role, a filled row, a knob's flash. They call nothing of the console's own. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tui/console/ui.h"

/* Text cut at the right margin ends in a marker, so a cut figure never reads as whole. */
static void cut_mark(struct ui *ui, int y, enum theme_role role)
{
	attrset(ui->attr[role]);
	mvaddstr(y, COLS - 1, ui->ascii ? "~" : "\u2026");
	attrset(ui->attr[ROLE_NORMAL]);
	move(y, COLS - 1);
}

/* Bytes of the first `cells` characters of s (one cell each, as everything drawn here),
 * and in *all the cells of the whole string. */
static int cells_bytes(const char *s, int cells, int *all)
{
	int n = 0, off = -1;
	for (int i = 0; s[i]; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80) {
			if (n == cells)
				off = i;
			n++;
		}
	*all = n;
	return off < 0 ? (int)strlen(s) : off;
}

void ui_put(struct ui *ui, enum theme_role role, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int y = getcury(stdscr), room = COLS - getcurx(stdscr);

	/*
	 * Text that reaches the right margin leaves curses' cursor at the start of
	 * the next row (or, in the last cell of the screen, on that cell), so the
	 * next piece of the same line would land on the next row or overwrite the
	 * last cell (a stray "Q" of "Quit" at 60 columns). A full row takes no more.
	 */
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (room <= 0 || y == ui->full_y) {
		/* The row is full: more text (not just padding) means it was cut. */
		if (y == ui->full_y && buf[strspn(buf, " ")])
			cut_mark(ui, y, role);
		return;
	}
	int cells, bytes = cells_bytes(buf, room, &cells);
	attrset(ui->attr[role]);
	addnstr(buf, bytes); /* clipped: never wraps onto the next line */
	attrset(ui->attr[ROLE_NORMAL]);
	if (cells >= room) {
		ui->full_y = y;
		move(y, COLS - 1);
		/* Only trailing padding cut is no cut. */
		if (buf[bytes + strspn(buf + bytes, " ")])
			cut_mark(ui, y, role);
	}
}

bool ui_fits_whole(struct ui *ui, const char *text)
{
	int y = getcury(stdscr), room = COLS - getcurx(stdscr), cells;
	if (y == ui->full_y)
		return false;
	cells_bytes(text, room > 0 ? room : 0, &cells);
	return cells < room - 1; /* as ui_put_whole: the last two cells stay free */
}

bool ui_put_whole(struct ui *ui, enum theme_role role, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int y = getcury(stdscr), room = COLS - getcurx(stdscr), cells;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (y == ui->full_y)
		return false; /* an earlier piece was left out and marked: nothing after it */
	cells_bytes(buf, room > 0 ? room : 0, &cells);
	/* A piece never takes the last two cells: they stay free for a blank and the marker of
	 * the next one, so the marker never reads as the end of a cut figure. */
	if (cells < room - 1) {
		ui_put(ui, role, "%s", buf);
		return true;
	}
	ui->full_y = y;
	if (room >= 2) {
		/* The marker a blank after the last whole piece, where the eye looks for more. */
		addch(' ');
		attrset(ui->attr[role]);
		addstr(ui->ascii ? "~" : "\u2026");
		attrset(ui->attr[ROLE_NORMAL]);
		move(y, COLS - 1); /* as ui_put leaves a full row: nothing more goes on it */
	} else {
		cut_mark(ui, y, role);
	}
	return false;
}

void ui_fill_line(struct ui *ui, int y, enum theme_role role)
{
	mvwhline(stdscr, y, 0, ' ' | ui->attr[role], COLS);
}

bool ui_flashing(const struct ui *ui, enum knob_id id)
{
	return ui->flash_until[id] > ui->now_ns;
}

void ui_page_draw(struct ui *ui, ui_page_line line, int *top, int n, int y, int h)
{
	char buf[512];
	enum theme_role role;
	*top = *top > n - h ? n - h : *top;
	*top = *top < 0 ? 0 : *top;
	for (int r = 0; r < h && line(ui, *top + r, buf, sizeof(buf), &role); r++) {
		move(y + r, 0);
		ui_put(ui, role, "%s", buf);
	}
}

bool ui_scroll_key(int ch, int *top, int page, int end)
{
	switch (ch) {
	case KEY_UP:
		(*top)--;
		return true;
	case KEY_DOWN:
		(*top)++;
		return true;
	case KEY_PPAGE:
		*top -= page;
		return true;
	case KEY_NPAGE:
	case ' ':
		*top += page;
		return true;
	case KEY_HOME:
		*top = 0;
		return true;
	case KEY_END:
		*top = end;
		return true;
	default:
		return false;
	}
}
