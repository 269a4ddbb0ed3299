/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ui_views.c: the detail view drawn and scrolled (the views: ui_view_*.c), events kept for it. */
#include <string.h>

#include "tui/console/ui_body.h"

/* est and pmd scroll as a whole: view_top lines skipped, held at the last page. */
static void scrolled_draw(struct ui *ui, void (*draw)(struct body *), int y, int h)
{
	struct body b = {ui, y, y + h, ui->view_top, 0};
	draw(&b);
	ui->view_max_top = b.n > h ? b.n - h : 0;
	if (ui->view_end ? ui->view_top == ui->view_max_top : ui->view_top <= ui->view_max_top)
		return;
	/* Scrolled past the end (the view got shorter or the window taller), or held at its end
	 * (End) while it grew: the last page. */
	ui->view_top = ui->view_max_top;
	for (int r = y; r < y + h; r++) {
		move(r, 0);
		clrtoeol();
	}
	b = (struct body){ui, y, y + h, ui->view_top, 0};
	draw(&b);
}

/*
 * A new view starts at its top; how far it scrolls is known once it is drawn,
 * so until then End, PgDn... may go far (the draw clamps) and are not held at the
 * previous view's end by keys that arrive in the same read as the view key.
 */
#define UI_VIEW_TOP_UNKNOWN (1 << 20)
int ui_view_set(struct ui *ui, enum ui_view v)
{
	ui->view = v;
	ui->view_top = 0;
	ui->view_max_top = UI_VIEW_TOP_UNKNOWN;
	ui->view_end = false;
	return UI_REDRAW;
}

void ui_view_draw(struct ui *ui, int y, int h)
{
	struct body b = {ui, y, y + h, 0, 0};
	ui->view_max_top = 0; /* a view that scrolls sets its own */
	if (ui->fleet) {
		ui_fleet_draw(ui, y, h);
		return;
	}
	switch (ui->view) {
	case VIEW_EST:
		scrolled_draw(ui, ui_view_est, y, h);
		break;
	case VIEW_PMD:
		scrolled_draw(ui, ui_view_pmd, y, h);
		break;
	case VIEW_BLK:
		ui_view_blk(&b);
		break;
	case VIEW_EVENTS:
		ui_view_events(&b);
		break;
	default:
		ui_table_draw(ui, y, h);
		break;
	}
}

void ui_event_push(struct ui *ui, const struct event *e)
{
	ui->ev[ui->ev_head] = *e;
	ui->ev_head = (ui->ev_head + 1) % UI_EVENTS_KEEP;
	if (ui->nev == UI_EVENTS_KEEP)
		return; /* the oldest made room: every line moves up one */
	ui->nev++;
	/* The live events view scrolled back (Home, PgUp) keeps its lines, as less does: the
	 * newest grows below them. */
	if (ui->view == VIEW_EVENTS && ui->view_top > 0 && !ui->frozen)
		ui->view_top++;
}

/* Keep the new events and calibrations of this snapshot for the views. */
void ui_events_note(struct ui *ui)
{
	const struct snapshot *s = ui->snap;
	for (size_t i = 0; i < s->nevents; i++) {
		/* The console computes its own diagnoses (ui_diag.c) and logs their changes, as
		 * -b does: a recording's or a far agent's diag events would come twice. */
		if (s->events[i].kind != EV_DIAG)
			ui_event_push(ui, &s->events[i]);
	}
	for (int i = 0; i < ui->charts.tune.nev; i++) /* the tuner's whys (ui_tune.c) */
		ui_event_push(ui, &ui->charts.tune.ev[i]);
	ui->charts.tune.nev = 0;
	if (s->has_est && s->est.calib.count &&
	    (ui->ncalib == 0 || ui->calib[ui->ncalib - 1].count != s->est.calib.count)) {
		if (ui->ncalib == UI_CALIB_KEEP) {
			memmove(ui->calib, ui->calib + 1,
				sizeof(ui->calib[0]) * (UI_CALIB_KEEP - 1));
			ui->ncalib--;
		}
		ui->calib[ui->ncalib++] = s->est.calib;
	}
}
