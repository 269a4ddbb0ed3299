/* ui_help.c: the help screen, generated from the key table and the knob table. */
#include <string.h>

#include "tui/console/ui.h"

/* The indent of a knob's "what" when it goes under the knob's line. */
#define HELP_WHAT_INDENT 8

/*
 * Line `row` of text wrapped at spaces to width w into buf (the text from
 * there when w is too small to matter); returns the number of lines.
 */
static int wrap_line(const char *text, int w, int row, char *buf, size_t len)
{
	int n = 0;
	const char *p = text;
	if (w < 10)
		w = 10;
	while (*p) {
		int take = (int)strlen(p);
		if (take > w) {
			take = w;
			while (take > 0 && p[take] != ' ')
				take--;
			if (take == 0)
				take = w; /* one long word: cut it */
		}
		if (n == row && buf)
			snprintf(buf, len, "%*s%.*s", HELP_WHAT_INDENT, "", take, p);
		n++;
		p += take;
		while (*p == ' ')
			p++;
	}
	return n ? n : 1;
}

/*
 * Knob k's help: "  NAME VALUE RANGE what" on one line when that fits the
 * screen; else "what" goes under it, wrapped, indented: at 80 columns the
 * range of an enum knob leaves no room for it, and what a knob does is what
 * the help screen is for. Returns the lines it takes; fills line `row`.
 */
static int knob_help(struct ui *ui, int k, int row, char *buf, size_t len)
{
	char range[256], val[64], what[512];
	const struct knob_def *d = &knob_table[k];

	ui_knob_text(ui, k, val, sizeof(val));
	knob_range_text(k, range, sizeof(range));
	snprintf(what, sizeof(what), "%s%s", d->help, d->start_only ? " [at start only]" : "");
	/* buf is scratch until the row asked for is known. */
	if (snprintf(buf, len, "  %-22s %-11s %-24s %s", d->name, val, range, what) <= COLS)
		return 1;
	if (row == 0)
		snprintf(buf, len, "  %-22s %-11s %s", d->name, val, range);
	return 1 + wrap_line(what, COLS - HELP_WHAT_INDENT, row - 1, row > 0 ? buf : NULL, len);
}

/* Key row k's help: one line, or the text wrapped under the keys when it is wider than the
 * screen (the F7 / F8 row names a knob per view). Returns the lines; fills line `row`. */
static int key_help(int k, int row, char *buf, size_t len)
{
	char range[256], what[512];
	const struct ui_keydef *d = &ui_keydefs[k];
	if (d->knob >= 0)
		snprintf(what, sizeof(what), "%s %s (%s)", d->what, knob_table[d->knob].name,
			 knob_range_text(d->knob, range, sizeof(range)));
	else
		snprintf(what, sizeof(what), "%s", d->what);
	if (snprintf(buf, len, "  %-13s %s", d->keys, what) <= COLS)
		return 1;
	if (row == 0)
		snprintf(buf, len, "  %s", d->keys);
	return 1 + wrap_line(what, COLS - HELP_WHAT_INDENT, row - 1, row > 0 ? buf : NULL, len);
}

/* Line i of the help text into buf; false past the end. */
static bool help_line(struct ui *ui, int i, char *buf, size_t len, enum theme_role *role)
{
	int n_keys = (int)ui_nkeydefs;

	*role = ROLE_NORMAL;
	if (i == 0) {
		*role = ROLE_LABEL;
		snprintf(buf, len, "Keys (htop's where htop has one):");
		return true;
	}
	i--;
	for (int k = 0; k < n_keys; k++) {
		int rows = key_help(k, i, buf, len);
		if (i < rows)
			return true;
		i -= rows;
	}
	if (i == 0) {
		buf[0] = '\0';
		return true;
	}
	if (i == 1) {
		*role = ROLE_LABEL;
		snprintf(buf, len,
			 "Knobs (:set NAME=VALUE, Tab completes):  NAME  VALUE  RANGE  what");
		return true;
	}
	i -= 2;
	for (int k = 0; k < K_COUNT; k++) {
		int rows = knob_help(ui, k, i, buf, len);
		if (i >= rows) {
			i -= rows;
			continue;
		}
		*role = ui_flashing(ui, k) ? ROLE_FLASH : ROLE_NORMAL;
		return true;
	}
	return false;
}

static int help_lines(struct ui *ui)
{
	char buf[512];
	int n = 1 + 2;
	for (int k = 0; k < (int)ui_nkeydefs; k++)
		n += key_help(k, -1, buf, sizeof(buf));
	for (int k = 0; k < K_COUNT; k++)
		n += knob_help(ui, k, -1, buf, sizeof(buf));
	return n;
}

void ui_help_draw(struct ui *ui)
{
	char buf[512];
	enum theme_role role;
	int body = LINES - 2;

	if (ui->help_top > help_lines(ui) - body)
		ui->help_top = help_lines(ui) - body;
	if (ui->help_top < 0)
		ui->help_top = 0;
	ui_fill_line(ui, 0, ROLE_TITLE);
	move(0, 0);
	ui_put(ui, ROLE_TITLE, " tunetop %s help: Esc, q or h returns; arrows and PgUp/PgDn scroll",
	       TUNETOP_VERSION);
	for (int r = 0; r < body; r++) {
		if (!help_line(ui, ui->help_top + r, buf, sizeof(buf), &role))
			break;
		move(1 + r, 0);
		ui_put(ui, role, "%s", buf);
	}
}

int ui_help_key(struct ui *ui, int ch)
{
	switch (ch) {
	case 'q':
	case 'h':
	case 27:
	case KEY_F(1):
	case '?':
		ui->help = false;
		return UI_REDRAW;
	case KEY_F(10):
		return UI_QUIT;
	case KEY_UP:
		ui->help_top--;
		break;
	case KEY_DOWN:
		ui->help_top++;
		break;
	case KEY_PPAGE:
		ui->help_top -= LINES - 3;
		break;
	case KEY_NPAGE:
	case ' ':
		ui->help_top += LINES - 3;
		break;
	case KEY_HOME:
		ui->help_top = 0;
		break;
	case KEY_END:
		ui->help_top = help_lines(ui);
		break;
	default:
		return 0;
	}
	return UI_REDRAW;
}
