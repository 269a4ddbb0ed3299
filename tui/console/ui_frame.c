/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ui_frame.c: one frame of the console: the header and the view, or the help, diagnoses or
 * setup screen; the status, debug and function-key lines; the cursor while typing. */
#include <stdio.h>
#include <string.h>

#include "core/clock.h"
#include "tui/rowfmt.h"
#include "tui/console/ui.h"

static void status_draw(struct ui *ui, int y)
{
	if (ui->input != INPUT_NONE) {
		ui_input_draw(ui, y);
		return;
	}
	move(y, 0);
	if (ui->status[0]) {
		/* "error:" keeps a refusal readable without colour. */
		ui_put(ui, ui->status_err ? ROLE_ERROR : ROLE_STATUS, "%s%s",
		       ui->status_err ? "error: " : "", ui->status);
		return;
	}
	/* With a fleet, view 0 is the fleet, and it is the one lit while it is shown. */
	bool fleet = ui_fleet_active(ui) && ui->fleet;
	if (ui_fleet_active(ui))
		ui_put(ui, fleet ? ROLE_TABLE_SORT : ROLE_STATUS, "0 fleet"),
		    ui_put(ui, ROLE_STATUS, " ");
	for (int v = 0; v < VIEW_COUNT; v++)
		ui_put(ui, v == (int)ui->view && !fleet ? ROLE_TABLE_SORT : ROLE_STATUS, "%d %s",
		       v + 1, settings_view_names[v]),
		    ui_put(ui, ROLE_STATUS, " ");
	ui_put(ui, ROLE_STATUS, " sort %s%s  threads %zu/%zu", ui_sort_name(ui->sort),
	       ui->sort_asc ? "+" : "-", ui->nrows, ui->snap->nthreads);
	if (ui->filter[0])
		ui_put(ui, ROLE_WARN, "  filter '%s'", ui->filter);
	if (ui->search[0])
		ui_put(ui, ROLE_WARN, "  search '%s'", ui->search);
}

/* This console's own cost (ui->own, measured at each snapshot), after a recorded source's
 * figures: they vary from run to run, so the golden tests mask them or cut them off at 80
 * columns (tests/tui/test_replay_self.sh reads them whole). */
static void own_draw(struct ui *ui)
{
	const struct snap_self *s = &ui->own;
	ui_put(ui, ROLE_DIM, "self cpu %.1f%%  render %llu us  tty %llu B (%.0f B/s)", s->cpu_pct,
	       (unsigned long long)s->render_us, (unsigned long long)s->tty_bytes,
	       s->tty_bytes_per_s);
	ui_put(ui, ROLE_DIM, "  key %llu us (max %llu)", (unsigned long long)ui->key_us,
	       (unsigned long long)ui->key_max_us);
}

/* The self-cost line: what the console itself costs (snapshot "self"). */
static void debug_draw(struct ui *ui, int y)
{
	const struct snap_self *s = &ui->snap->self;
	struct fleet_row r;
	char st[160], f[4][32];
	move(y, 0);
	/* The source's own line first (a recording's position, lines it skipped). */
	if (source_status(ui->src, st, sizeof(st))[0])
		ui_put(ui, strstr(st, "skipped") || strstr(st, "damaged") ? ROLE_WARN : ROLE_DIM,
		       "%s  ", st);
	if (source_fleet_row(ui->src, source_fleet_selected(ui->src), &r)) {
		/* A remote host's figures are its agent's, named by the host; the console's own
		 * after them (they vary from run to run, the host's figures of one snapshot do
		 * not: tests/tui/test_golden_fleet.sh masks the rest of the line from "self"). */
		if (r.snap)
			ui_put(ui, ROLE_DIM, "%s: agent cpu %s  sample %s  ", r.name,
			       rowfmt_opt(s->cpu_pct, s->absent & SELF_ABSENT_CPU, "%.1f%%", f[0],
					  sizeof(f[0])),
			       rowfmt_opt((double)s->sample_us, s->absent & SELF_ABSENT_SAMPLE,
					  "%.0f us", f[1], sizeof(f[0])));
		own_draw(ui);
		return;
	}
	if (ui->src->ops->recorded) {
		/* A recording's figures are the recording console's, labelled so; this console's
		 * own after them, as with a remote host. */
		ui_put(ui, ROLE_DIM, "rec: cpu %s  sample %s  render %s  tty %s  frame %llu  ",
		       rowfmt_opt(s->cpu_pct, s->absent & SELF_ABSENT_CPU, "%.1f%%", f[0],
				  sizeof(f[0])),
		       rowfmt_opt((double)s->sample_us, s->absent & SELF_ABSENT_SAMPLE, "%.0f us",
				  f[1], sizeof(f[0])),
		       rowfmt_opt((double)s->render_us, s->absent & SELF_ABSENT_RENDER, "%.0f us",
				  f[2], sizeof(f[0])),
		       rowfmt_opt((double)s->tty_bytes, s->absent & SELF_ABSENT_TTY, "%.0f B", f[3],
				  sizeof(f[0])),
		       (unsigned long long)ui->snap->seq);
		own_draw(ui);
		return;
	}
	ui_put(ui, ROLE_DIM,
	       "self cpu %.1f%%  sample %llu us  render %llu us  tty %llu B (%.0f B/s)  frame %llu",
	       s->cpu_pct, (unsigned long long)s->sample_us, (unsigned long long)s->render_us,
	       (unsigned long long)s->tty_bytes, s->tty_bytes_per_s,
	       (unsigned long long)ui->snap->seq);
	/* Key read to frame sent, the last one and the worst: the console never waits on I/O. */
	ui_put(ui, ROLE_DIM, "  key %llu us (max %llu)%s", (unsigned long long)ui->key_us,
	       (unsigned long long)ui->key_max_us, ui->async ? "  async" : "");
}

/*
 * htop's function bar, with htop's keys where they mean what they mean in htop (F2 setup, F3
 * search, F4 filter, F5 tree, F6 sort, F10 quit) and F7/F8, htop's nice -/+, on the knob of
 * the view shown (docs/reference.md "The console"): a key, then its label on a coloured field of
 * htop's six columns. Views are the numbered tabs above; Space, ':' and the rest are in F1.
 */
static void fbar_draw(struct ui *ui, int y)
{
	static const char *const keys[][2] = {
	    {"F1", "Help"},   {"F2", "Setup"},	{"F3", "Search"}, {"F4", "Filter"}, {"F5", "Tree"},
	    {"F6", "SortBy"}, {"F7", "Knob -"}, {"F8", "Knob +"}, {"F10", "Quit"},
	};
	size_t n = sizeof(keys) / sizeof(keys[0]);
	/* The last entry is how to leave: on a narrow terminal the entries before it give
	 * way, whole, so "F10Quit" always shows. */
	int quit_w = (int)strlen(keys[n - 1][0]) + 6;
	ui_fill_line(ui, y, ROLE_FLABEL);
	move(y, 0);
	for (size_t i = 0; i < n; i++) {
		int w = (int)strlen(keys[i][0]) + 6;
		if (i + 1 < n && getcurx(stdscr) + w + quit_w > COLS)
			continue;
		ui_put(ui, ROLE_FKEY, "%s", keys[i][0]);
		ui_put(ui, ROLE_FLABEL, "%-6s", keys[i][1]);
	}
}

static void too_small_draw(struct ui *ui)
{
	char msg[96];
	snprintf(msg, sizeof(msg), "terminal too small: %dx%d (needs %dx%d)", COLS, LINES,
		 UI_MIN_COLS, UI_MIN_ROWS);
	int y = LINES / 2 - 1;
	move(y > 0 ? y : 0, 0);
	ui_put(ui, ROLE_ERROR, "%s", msg);
	move(y + 1 > 0 ? y + 1 : 1, 0);
	ui_put(ui, ROLE_NORMAL, "q quits");
}

void ui_frame_draw(struct ui *ui)
{
	uint64_t t0 = clock_mono_ns();

	ui->now_ns = t0;
	ui->full_y = -1;
	erase(); /* the virtual screen only; doupdate() sends just what changed */
	if (ui->too_small) {
		too_small_draw(ui);
	} else if (ui->help) {
		ui_help_draw(ui);
	} else if (ui->diag_list) {
		ui_diag_list_draw(ui);
	} else if (ui->setup) {
		ui_setup_draw(ui);
	} else {
		int y = ui_header_draw(ui);
		y += ui_diag_line(ui, y);
		int bottom = LINES - 3;
		ui_view_draw(ui, y, bottom - y);
		status_draw(ui, bottom);
		if (ui->input != INPUT_NONE && ui->status[0]) {
			/* While typing, messages (completion candidates) go on the line above. */
			move(LINES - 2, 0);
			ui_put(ui, ui->status_err ? ROLE_ERROR : ROLE_STATUS, "%s", ui->status);
		} else {
			debug_draw(ui, LINES - 2);
		}
		fbar_draw(ui, LINES - 1);
	}
	if (ui->input != INPUT_NONE && !ui->too_small && !ui->help && !ui->diag_list &&
	    !ui->setup) {
		leaveok(stdscr, FALSE);
		curs_set(1);
		move(LINES - 3, (int)(ui->input == INPUT_COMMAND ? 1 : 8) + (int)ui->line_len);
	} else {
		leaveok(stdscr, TRUE);
		curs_set(0);
	}
	wnoutrefresh(stdscr);
	doupdate();
	ui_tty_count(ui);
	ui->render_us = (clock_mono_ns() - t0) / NS_PER_US;
}
