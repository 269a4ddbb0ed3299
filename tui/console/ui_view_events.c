/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ui_view_events.c: the events view: the kept events as a log, newest at the bottom. */
#include "backends/replay/replay_time.h"
#include "tui/console/ui_body.h"

static enum theme_role event_role(enum event_kind k)
{
	return k == EV_HANG || k == EV_ERROR ? ROLE_ERROR : k == EV_KNOB ? ROLE_VALUE : ROLE_NORMAL;
}

void ui_view_events(struct body *b)
{
	struct ui *ui = b->ui;
	int h = b->end - b->y;
	/* Frozen: only the events up to the sample shown (its time is rounded to the ms). */
	size_t nev = ui->nev;
	while (ui->frozen && nev &&
	       ui->ev[(ui->ev_head + UI_EVENTS_KEEP - ui->nev + nev - 1) % UI_EVENTS_KEEP].wall_ns >
		   ui->snap->wall_ns + NS_PER_MS)
		nev--;
	/* Newest at the bottom, like a log; view_top scrolls back, at most to the oldest. Scrolled
	 * back, the view holds its lines when its height changes (a finding's line comes or
	 * goes above it), as it does when events come (ui_event_push). */
	if (ui->view_top > 0 && ui->ev_rows > 0 && !ui->frozen) {
		ui->view_top += ui->ev_rows - h;
		if (ui->view_top < 0)
			ui->view_top = 0;
	}
	ui->ev_rows = h;
	ui->view_max_top = (int)nev > h ? (int)nev - h : 0;
	if (ui->view_top > ui->view_max_top)
		ui->view_top = ui->view_max_top;
	int first = (int)nev - h - ui->view_top;
	if (first < 0)
		first = 0;
	if (nev == 0)
		body_title(b, "no events yet");
	for (int i = first; i < (int)nev; i++) {
		const struct event *e =
		    &ui->ev[(ui->ev_head + UI_EVENTS_KEEP - ui->nev + (size_t)i) % UI_EVENTS_KEEP];
		if (!body_line(b))
			break;
		char ts[16];
		replay_hms(e->wall_ns, ts, sizeof(ts));
		ui_put(ui, ROLE_DIM, "%s ", ts);
		ui_put(ui, event_role(e->kind), "%-13s %s", event_kind_name(e->kind), e->text);
	}
}
