/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ui_help.c: the help screen, generated from the key, figure and knob tables. */
#include <string.h>

#include "tui/figures.h"
#include "tui/rowfmt.h"
#include "tui/rowfmt_host.h"
#include "tui/console/ui.h"

/* The indent of a knob's "what" when it goes under the knob's line. */
#define HELP_WHAT_INDENT 8

/* The lines of what, wrapped under a heading line (row 0); fills line `row` of them. */
static int what_under(const char *what, int row, char *buf, size_t len)
{
	return rowfmt_wrap(what, COLS - HELP_WHAT_INDENT, 10, HELP_WHAT_INDENT, row - 1,
			   row > 0 ? buf : NULL, len);
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

	/* The live host lists only the knobs it takes, none of the engine's; a recording,
	 * which takes none, still shows what each one was. */
	if (ui->src->ops->writes_machine && !ui_knob_taken(ui, (enum knob_id)k))
		return 0;
	ui_knob_text(ui, k, val, sizeof(val));
	knob_range_text(k, range, sizeof(range));
	snprintf(what, sizeof(what), "%s%s", d->help, d->start_only ? " [at start only]" : "");
	/* buf is scratch until the row asked for is known. */
	if (snprintf(buf, len, "  %-22s %-11s %-24s %s", d->name, val, range, what) <= COLS)
		return 1;
	if (row == 0)
		snprintf(buf, len, "  %-22s %-11s %s", d->name, val, range);
	return 1 + what_under(what, row, buf, len);
}

/* The figures the help lists: the view's own (the fleet's, OVS's on a live OVS), then header. */
static enum fig_view help_fig_view(const struct ui *ui)
{
	if (ui_fleet_active(ui) && ui->fleet)
		return FIG_FLEET;
	switch (ui->view) {
	case VIEW_EST:
		return FIG_EST;
	case VIEW_PMD:
		return rowfmt_host_pmd(ui->snap) ? FIG_PMD_HOST : FIG_PMD;
	case VIEW_BLK:
		return FIG_BLK;
	case VIEW_EVENTS:
		return FIG_EVENTS;
	default:
		return FIG_OVERVIEW;
	}
}

/*
 * Figure f's help: "  LABEL  UNIT, BASE" then its meaning and source wrapped
 * under it, so the base (a % of what) is on the label's own line.
 */
static int figure_help(int f, int row, char *buf, size_t len)
{
	const struct figure *d = &figure_table[f];
	char ub[256], what[640];
	bool unit = strcmp(d->unit, "-") != 0, base = strcmp(d->base, "-") != 0;

	if (unit && base && strcmp(d->unit, "%") == 0)
		snprintf(ub, sizeof(ub), "%% of %s", d->base);
	else
		snprintf(ub, sizeof(ub), "%s%s%s", unit ? d->unit : "", unit && base ? ", " : "",
			 base ? d->base : "");
	snprintf(what, sizeof(what), "%s (%s)", d->meaning, d->source);
	if (row == 0)
		snprintf(buf, len, "  %-20s %s", d->label, ub);
	return 1 + what_under(what, row, buf, len);
}

/* The figures' part: a heading, then the figures of v; line i of it, or its length when buf is
 * NULL. */
static int figures_part(enum fig_view v, int i, char *buf, size_t len, enum theme_role *role)
{
	int n = 1;
	if (i == 0 && buf) {
		*role = ROLE_LABEL;
		snprintf(buf, len, "Figures of %s:  LABEL  UNIT, BASE  what (from where)",
			 figure_view_title(v));
	}
	for (size_t f = 0; f < figure_count; f++) {
		if (figure_table[f].view != v)
			continue;
		int rows = figure_help((int)f, -1, NULL, 0);
		if (buf && i >= n && i < n + rows)
			figure_help((int)f, i - n, buf, len);
		n += rows;
	}
	return n;
}

/* The figures after the keys: the view's, a blank line, the header's, a blank line. */
static int figures_lines(const struct ui *ui, int i, char *buf, size_t len, enum theme_role *role)
{
	enum fig_view v = help_fig_view(ui);
	int a = figures_part(v, -1, NULL, 0, role), h = figures_part(FIG_ALL, -1, NULL, 0, role);
	if (!buf)
		return a + 1 + h + 1;
	if (i < a)
		return figures_part(v, i, buf, len, role), 1;
	if (i >= a + 1 && i < a + 1 + h)
		return figures_part(FIG_ALL, i - a - 1, buf, len, role), 1;
	buf[0] = '\0';
	return 1;
}

/* Key row k's help: one line, or the text wrapped under the keys when it is wider than the
 * screen (the F7 / F8 row names a knob per view). Returns the lines; fills line `row`. */
static int key_help(const struct ui *ui, int k, int row, char *buf, size_t len)
{
	char range[256], what[512];
	const struct ui_keydef *d = &ui_keydefs[k];
	if (d->knob >= 0 && ui->src->ops->writes_machine && !ui_knob_taken(ui, d->knob))
		snprintf(what, sizeof(what), "%s %s (not on this source)", d->what,
			 knob_table[d->knob].name);
	else if (d->knob >= 0)
		snprintf(what, sizeof(what), "%s %s (%s)", d->what, knob_table[d->knob].name,
			 knob_range_text(d->knob, range, sizeof(range)));
	else
		snprintf(what, sizeof(what), "%s", d->what);
	if (snprintf(buf, len, "  %-13s %s", d->keys, what) <= COLS)
		return 1;
	if (row == 0)
		snprintf(buf, len, "  %s", d->keys);
	return 1 + what_under(what, row, buf, len);
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
		int rows = key_help(ui, k, i, buf, len);
		if (i < rows)
			return true;
		i -= rows;
	}
	if (i == 0) {
		buf[0] = '\0';
		return true;
	}
	i--;
	int nfig = figures_lines(ui, -1, NULL, 0, role);
	if (i < nfig) {
		figures_lines(ui, i, buf, len, role);
		return true;
	}
	i -= nfig - 1;
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
	enum theme_role role;
	int n = 1 + 2 + figures_lines(ui, -1, NULL, 0, &role);
	for (int k = 0; k < (int)ui_nkeydefs; k++)
		n += key_help(ui, k, -1, buf, sizeof(buf));
	for (int k = 0; k < K_COUNT; k++)
		n += knob_help(ui, k, -1, buf, sizeof(buf));
	return n;
}

void ui_help_draw(struct ui *ui)
{
	ui_fill_line(ui, 0, ROLE_TITLE);
	move(0, 0);
	ui_put(ui, ROLE_TITLE, " tunetop %s help: Esc, q or h returns; arrows and PgUp/PgDn scroll",
	       TUNETOP_VERSION);
	ui_page_draw(ui, help_line, &ui->help_top, help_lines(ui), 1, LINES - 2);
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
	}
	return ui_scroll_key(ch, &ui->help_top, LINES - 3, help_lines(ui)) ? UI_REDRAW : 0;
}
