/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ui_setup.c: the setup screen (F2): the settings tunetoprc keeps, changed in place and written
 * (tui/settings.h) when the screen closes and at exit, only when one changed. */
#include <stdio.h>
#include <string.h>

#include "tui/console/ui.h"

/* The settings file names views and sorts by index: the console's enums must match it. */
_Static_assert(SETTINGS_NVIEWS == VIEW_COUNT, "settings_view_names follows enum ui_view");
_Static_assert(SETTINGS_NSORTS == SORT_COUNT, "settings_sort_names follows enum ui_sort");

/* The refresh intervals Left/Right step through (any value -d or the file gave is kept
 * until stepped, then the next of these). */
static const double setup_delays[] = {0.1, 0.2, 0.3, 0.5, 1, 2, 3, 5, 10, 30, 60};
#define SETUP_NDELAYS (sizeof(setup_delays) / sizeof(setup_delays[0]))

/* What the screen shows now, the view and the sort read from the console. */
static void setup_current(const struct ui *ui, struct settings *s)
{
	*s = ui->set_now;
	s->view = (int)ui->view;
	s->sort = (int)ui->sort;
	s->sort_asc = ui->sort_asc;
}

/* Bad lines: the first on the status line with how many more, and all of them kept for
 * ui_setup_errors_print at exit, when the status line is long gone. */
static void setup_errors(struct ui *ui, const char *msg)
{
	unsigned more = 0;
	for (const char *p = msg; (p = strchr(p, '\n')); p++)
		more++;
	snprintf(ui->set_errors, sizeof(ui->set_errors), "%s", msg);
	if (more)
		ui_status(ui, true,
			  "settings: %u bad lines, all listed at exit (the file is not rewritten "
			  "this run): %.*s",
			  more + 1, (int)strcspn(msg, "\n"), msg);
	else
		ui_status(ui, true, "settings: %s (the file is not rewritten this run)", msg);
}

void ui_setup_errors_print(const struct ui *ui)
{
	for (const char *p = ui->set_errors; *p;) {
		size_t n = strcspn(p, "\n");
		fprintf(stderr, "tunetop: settings: %.*s\n", (int)n, p);
		p += n + (p[n] == '\n');
	}
}

void ui_setup_init(struct ui *ui, struct options *eff)
{
	char msg[sizeof(ui->set_errors)];
	int rc = 0;

	settings_defaults(&ui->set_file);
	ui->set_keep = false;
	if (!eff->no_config) {
		if (settings_path(ui->set_path, sizeof(ui->set_path), msg, sizeof(msg)) != 0) {
			ui_status(ui, true, "settings: %s: not kept", msg);
		} else {
			rc = settings_load(&ui->set_file, ui->set_path, msg, sizeof(msg));
			/* A file that did not read cleanly is the user's to fix: it is not
			 * overwritten this run (its good lines still apply). */
			ui->set_keep = rc >= 0;
			if (rc < 0)
				setup_errors(ui, msg);
			else if (rc > 0)
				ui_status(ui, false, "settings: %s", msg);
		}
	}
	ui->set_start = ui->set_file;
	settings_apply_options(&ui->set_start, eff);
	ui->set_now = ui->set_start;
	ui->view = (enum ui_view)ui->set_start.view;
	ui->sort = (enum ui_sort)ui->set_start.sort;
	ui->sort_asc = ui->set_start.sort_asc;
	eff->delay_s = ui->set_start.delay_s;
	ui->delay_ns = (uint64_t)(eff->delay_s * 1e9);
	eff->ascii = ui->set_start.ascii;
	eff->mouse = ui->set_start.mouse;
	if (!eff->theme)
		eff->theme = ui->set_start.theme;
}

int ui_setup_save(struct ui *ui, char *err, size_t errlen)
{
	struct settings now, out;
	if (!ui->set_keep)
		return 0;
	setup_current(ui, &now);
	settings_merge(&ui->set_file, &ui->set_start, &now, &out);
	if (settings_equal(&out, &ui->set_file))
		return 0; /* nothing changed: the file is not touched */
	if (settings_save(&out, ui->set_path, err, errlen) != 0)
		return -1;
	/* What is on disk now; the start stays, so a change undone is written back too. */
	ui->set_file = out;
	return 0;
}

int ui_setup_key(struct ui *ui, int ch)
{
	(void)ch;
	ui->setup = true;
	ui->setup_sel = 0;
	return UI_REDRAW;
}

/* One row of the screen: its name, its value as text, and a step (dir -1 or +1). */
struct setup_row {
	const char *name;
	void (*text)(const struct ui *ui, char *buf, size_t len);
	void (*step)(struct ui *ui, int dir);
};

static int wrap(int v, int dir, int n)
{
	return ((v + dir) % n + n) % n;
}

static void view_text(const struct ui *ui, char *buf, size_t len)
{
	snprintf(buf, len, "%s", settings_view_names[ui->view]);
}

static void view_step(struct ui *ui, int dir)
{
	ui_view_set(ui, (enum ui_view)wrap((int)ui->view, dir, VIEW_COUNT));
	ui->fleet = false;
}

static void sort_text(const struct ui *ui, char *buf, size_t len)
{
	snprintf(buf, len, "%s", ui_sort_name(ui->sort));
}

static void sort_step(struct ui *ui, int dir)
{
	ui->sort = (enum ui_sort)wrap((int)ui->sort, dir, SORT_COUNT);
	ui_table_rebuild(ui);
}

static void order_text(const struct ui *ui, char *buf, size_t len)
{
	snprintf(buf, len, "%s", ui->sort_asc ? "ascending" : "descending");
}

static void order_step(struct ui *ui, int dir)
{
	(void)dir;
	ui->sort_asc = !ui->sort_asc;
	ui_table_rebuild(ui);
}

static void delay_text(const struct ui *ui, char *buf, size_t len)
{
	snprintf(buf, len, "%g s", ui->set_now.delay_s);
}

static void delay_step(struct ui *ui, int dir)
{
	double v = ui->set_now.delay_s;
	size_t i;
	if (dir > 0) {
		for (i = 0; i < SETUP_NDELAYS && setup_delays[i] <= v; i++)
			;
		if (i == SETUP_NDELAYS)
			return;
	} else {
		for (i = SETUP_NDELAYS; i > 0 && setup_delays[i - 1] >= v; i--)
			;
		if (i == 0)
			return;
		i--;
	}
	ui->set_now.delay_s = setup_delays[i];
	ui->delay_ns = (uint64_t)(setup_delays[i] * 1e9); /* the loop takes it (screen.c) */
}

static void theme_text(const struct ui *ui, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s", ui->set_now.theme,
		 ui->opt->no_color ? " (--no-color / NO_COLOR)" : "");
}

static void theme_step(struct ui *ui, int dir)
{
	size_t i = 0, n = theme_builtin_count;
	char err[256];
	if (ui->opt->no_color) {
		ui_status(ui, true, "theme: --no-color or NO_COLOR asks for no colour");
		return;
	}
	while (i < n && strcmp(theme_builtins[i].name, ui->set_now.theme) != 0)
		i++;
	i = i == n ? 0 : (size_t)wrap((int)i, dir, (int)n);
	snprintf(ui->set_now.theme, sizeof(ui->set_now.theme), "%s", theme_builtins[i].name);
	/* A built-in theme is in memory: loading it reads no file. */
	if (ui->color && theme_load(&ui->theme, ui->set_now.theme, NULL, err, sizeof(err)) == 0)
		ui_colors_apply(ui);
	else if (!ui->color)
		ui_status(ui, false, "theme %s: from the next start (no colour now)",
			  ui->set_now.theme);
}

static void charts_text(const struct ui *ui, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s", ui->set_now.ascii ? "ascii" : "braille",
		 !ui->set_now.ascii && !ui->utf8 ? " (ascii: not a UTF-8 terminal)" : "");
}

static void charts_step(struct ui *ui, int dir)
{
	(void)dir;
	ui->set_now.ascii = !ui->set_now.ascii;
	ui->ascii = ui->set_now.ascii || !ui->utf8;
}

static void mouse_text(const struct ui *ui, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s", ui->set_now.mouse ? "on" : "off",
		 ui->set_now.mouse != ui->opt->mouse ? " (from the next start)" : "");
}

/* The mouse is set up with the terminal (and its crash reset): it changes at the next start. */
static void mouse_step(struct ui *ui, int dir)
{
	(void)dir;
	ui->set_now.mouse = !ui->set_now.mouse;
}

static const struct setup_row setup_rows[] = {
    {"view", view_text, view_step},	    {"sort", sort_text, sort_step},
    {"sort order", order_text, order_step}, {"refresh", delay_text, delay_step},
    {"theme", theme_text, theme_step},	    {"charts", charts_text, charts_step},
    {"mouse", mouse_text, mouse_step},
};
#define SETUP_NROWS ((int)(sizeof(setup_rows) / sizeof(setup_rows[0])))

void ui_setup_draw(struct ui *ui)
{
	char val[96];
	ui_fill_line(ui, 0, ROLE_TITLE);
	move(0, 0);
	ui_put(ui, ROLE_TITLE,
	       " tunetop setup: arrows move, Enter/Space/Left/Right change, Esc/F10 "
	       "close");
	for (int r = 0; r < SETUP_NROWS && 2 + r < LINES - 3; r++) {
		setup_rows[r].text(ui, val, sizeof(val));
		move(2 + r, 0);
		enum theme_role role = r == ui->setup_sel ? ROLE_SELECTED : ROLE_NORMAL;
		if (r == ui->setup_sel)
			ui_fill_line(ui, 2 + r, role);
		move(2 + r, 0);
		ui_put(ui, ROLE_LABEL, "  %-12s", setup_rows[r].name);
		ui_put(ui, role, "%s", val);
	}
	int y = 3 + SETUP_NROWS;
	if (y < LINES - 2) {
		move(y, 0);
		if (ui->opt->no_config)
			ui_put(ui, ROLE_DIM, "  --no-config: not saved");
		else if (!ui->set_keep)
			ui_put(ui, ROLE_DIM, "  not saved this run (see the message at start)");
		else
			ui_put(ui, ROLE_DIM, "  saved on close to %.*s", COLS > 30 ? COLS - 22 : 8,
			       ui->set_path);
	}
	if (y + 1 < LINES - 2) {
		move(y + 1, 0);
		ui_put(ui, ROLE_DIM,
		       "  knob values are not settings: a restart starts from the "
		       "scenario");
	}
	if (ui->status[0]) {
		move(LINES - 2, 0);
		ui_put(ui, ui->status_err ? ROLE_ERROR : ROLE_STATUS, "%s", ui->status);
	}
}

int ui_setup_keys(struct ui *ui, int ch)
{
	char err[640];
	switch (ch) {
	case 27:
	case 'q':
	case KEY_F(2):
	case KEY_F(10):
		ui->setup = false;
		/* A small local file: written here, on close (docs/settings.md). */
		if (ui_setup_save(ui, err, sizeof(err)) != 0)
			ui_status(ui, true, "settings not saved: %s", err);
		return UI_REDRAW | UI_REBUILD;
	case KEY_UP:
		ui->setup_sel = wrap(ui->setup_sel, -1, SETUP_NROWS);
		return UI_REDRAW;
	case KEY_DOWN:
		ui->setup_sel = wrap(ui->setup_sel, 1, SETUP_NROWS);
		return UI_REDRAW;
	case KEY_LEFT:
	case KEY_RIGHT:
	case ' ':
	case '\n':
	case '\r':
	case KEY_ENTER:
		setup_rows[ui->setup_sel].step(ui, ch == KEY_LEFT ? -1 : 1);
		return UI_REDRAW;
	default:
		return 0;
	}
}
