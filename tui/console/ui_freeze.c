/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ui_freeze.c: freezing the console on one kept snapshot and stepping through the history,
 * while sorting, scrolling, views and search go on working on the frozen one. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/replay/replay_time.h"
#include "core/xalloc.h"
#include "tui/after.h"
#include "tui/console/ui.h"

static int ui_freeze_at(struct ui *ui, uint64_t id);

/* Samples { and } step over. */
#define UI_FREEZE_BIG_STEP 10

void ui_freeze_init(struct ui *ui)
{
	double d = ui->opt->delay_s > 0 ? ui->opt->delay_s : 1.0;
	ui->live = ui->snap;
	ui->frozen_snap = snapshot_new();
	ui->speed = 1.0;
	history_init(&ui->history, (size_t)ceil(UI_HISTORY_SECONDS / d));
}

void ui_freeze_free(struct ui *ui)
{
	history_free(&ui->history);
	snapshot_free(ui->frozen_snap);
	ui->frozen_snap = NULL;
	ui->snap = ui->live;
}

void ui_freeze_note(struct ui *ui)
{
	char msg[sizeof(ui->status)];
	bool err;
	if (after_record_note(ui->after, msg, sizeof(msg), &err))
		ui_status(ui, err, "%s", msg);
	/* The frozen sample fell out of the window: hold on to the oldest kept. */
	uint64_t oldest = history_oldest(&ui->history);
	if (ui->frozen && ui->frozen_id < oldest) {
		if (ui->frozen_hi < oldest)
			ui->frozen_hi =
			    oldest; /* the whole window went: it is the oldest kept now */
		ui_freeze_at(ui, oldest);
	}
}

/* Show sample id (clamped to what is kept); returns redo flags. */
static int ui_freeze_at(struct ui *ui, uint64_t id)
{
	uint64_t lo = history_oldest(&ui->history), hi = history_newest(&ui->history);
	if (!hi)
		return 0;
	/* Freezing takes the window kept now: stepping stays in it, so the label and the
	 * charts (which end at its newest) stand still while samples go on coming. */
	if (!ui->frozen) {
		ui->frozen_lo = lo;
		ui->frozen_hi = hi;
	}
	if (ui->frozen_hi < hi)
		hi = ui->frozen_hi;
	if (ui->frozen_lo > lo)
		lo = ui->frozen_lo;
	id = id < lo ? lo : id > hi ? hi : id;
	if (!history_get(&ui->history, id, ui->frozen_snap)) {
		ui_status(ui, true, "sample %llu cannot be shown", (unsigned long long)id);
		return UI_REDRAW;
	}
	ui->frozen_snap->mono_ns = ui->live->mono_ns;
	ui->frozen = true;
	ui->frozen_id = id;
	ui->snap = ui->frozen_snap;
	return UI_REBUILD | UI_REDRAW;
}

int ui_live(struct ui *ui)
{
	if (!ui->frozen)
		return 0;
	ui->frozen = false;
	ui->snap = ui->live;
	ui_status(ui, false, "live again");
	return UI_REBUILD | UI_REDRAW;
}

void ui_freeze_knob_note(struct ui *ui)
{
	char said[sizeof(ui->status)];
	snprintf(said, sizeof(said), "%s", ui->status);
	ui_status(ui, ui->status_err, "back to live: a knob change needs live figures; %s", said);
}

/* The oldest of the frozen window still kept. */
static uint64_t frozen_oldest(const struct ui *ui)
{
	uint64_t lo = history_oldest(&ui->history);
	return ui->frozen && ui->frozen_lo > lo ? ui->frozen_lo : lo;
}

const char *ui_freeze_label(const struct ui *ui, char *buf, size_t len)
{
	const struct history_entry *e = history_find(&ui->history, ui->frozen_id);
	if (!ui->frozen || !e) {
		snprintf(buf, len, "LIVE");
		return buf;
	}
	char hms[16];
	replay_hms(e->wall_ns, hms, sizeof(hms)); /* as the events view shows times */
	/* Counted in the window frozen, not in the history that grows behind it. */
	snprintf(buf, len, "FROZEN %llu/%llu %s",
		 (unsigned long long)(ui->frozen_id - ui->frozen_lo + 1),
		 (unsigned long long)(ui->frozen_hi - ui->frozen_lo + 1), hms);
	return buf;
}

/* A step past the newest sample kept: live again, as stepping on in htop's or atop's
 * history does, and said, so the key's effect is plain (a recording plays on from there). */
static int freeze_past_newest(struct ui *ui)
{
	int redo = ui_live(ui);
	ui_status(ui, false, "past the newest sample: %s",
		  source_paced(ui->src) ? "back to the replay" : "live again");
	return redo;
}

int ui_freeze_key(struct ui *ui, int ch)
{
	uint64_t newest = ui->frozen ? ui->frozen_hi : history_newest(&ui->history);
	uint64_t at = ui->frozen ? ui->frozen_id : newest, oldest = frozen_oldest(ui);
	int step = (ch == '[' || ch == ']') ? 1 : UI_FREEZE_BIG_STEP, redo;

	switch (ch) {
	case ' ':
	case 'Z': /* htop's pause */
		if (ui->frozen)
			return ui_live(ui);
		ui_status(ui, false, "frozen: [ ] step one, { } ten, space or Esc: live");
		return ui_freeze_at(ui, newest);
	case 27:
		return ui_live(ui);
	case '[':
	case '{':
		/* A step that lands on the oldest says so as one that cannot move does: the
		 * next one would not move either. */
		redo = ui_freeze_at(
		    ui, at - (at - oldest < (uint64_t)step ? at - oldest : (uint64_t)step));
		if (ui->frozen && ui->frozen_id <= oldest)
			ui_status(ui, false, "the oldest sample kept (%llu in the window)",
				  (unsigned long long)(newest - oldest + 1));
		return redo;
	default: /* ']' and '}' */
		if (!ui->frozen)
			return 0;
		/* A step that reaches the newest of the window goes live: live shows the newest,
		 * and stopping on it left the view frozen while newer samples kept coming. */
		if (ch == '}' && at + (uint64_t)step >= newest)
			return freeze_past_newest(ui);
		if (at + (uint64_t)step > newest)
			return at == newest ? freeze_past_newest(ui) : ui_freeze_at(ui, newest);
		return ui_freeze_at(ui, at + (uint64_t)step);
	}
}
