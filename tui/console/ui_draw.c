/* ui_draw.c: the console's drawing primitives, below every file that draws: clipped text in
 * a colour role, a filled row, a knob's flash. They call nothing of the console's own. */
#include <stdarg.h>
#include <stdio.h>

#include "tui/console/ui.h"

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
	if (room <= 0 || y == ui->full_y)
		return;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	attrset(ui->attr[role]);
	addnstr(buf, room); /* clipped: never wraps onto the next line */
	attrset(ui->attr[ROLE_NORMAL]);
	if (n >= room) {
		ui->full_y = y;
		move(y, COLS - 1);
	}
}

void ui_fill_line(struct ui *ui, int y, enum theme_role role)
{
	mvwhline(stdscr, y, 0, ' ' | ui->attr[role], COLS);
}

bool ui_flashing(const struct ui *ui, enum knob_id id)
{
	return ui->flash_until[id] > ui->now_ns;
}
