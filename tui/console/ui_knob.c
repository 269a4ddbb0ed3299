/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ui_knob.c: the knob setter the keys and the ':' prompt share, its results on the status
 * line, and the knob values as the screen shows them; every value shown comes back from the
 * source. Below the key table and the loop: it calls neither. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tui/console/ui.h"

void ui_status(struct ui *ui, bool err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(ui->status, sizeof(ui->status), fmt, ap);
	va_end(ap);
	ui->status_err = err;
}

const char *ui_knob_text(const struct ui *ui, enum knob_id id, char *buf, size_t len)
{
	if (ui->snap->knob_absent[id]) {
		snprintf(buf, len, "-"); /* the source has no such setting */
		return buf;
	}
	return knob_format(id, ui->snap->knobs[id], buf, len);
}

bool ui_knob_taken(const struct ui *ui, enum knob_id id)
{
	return !ui->src->ops->read_only && !source_knob_refusal(ui->src, id);
}

const char *ui_not_running(const struct ui *ui, const char *what, enum knob_id id, char *buf,
			   size_t len)
{
	const char *why = source_knob_refusal(ui->src, id);
	if (ui_knob_taken(ui, id))
		snprintf(buf, len, "%s is not running (:set %s=on)", what, knob_table[id].name);
	else
		snprintf(buf, len, "%s is not running: %s", what,
			 why ? why : "this source takes no knob");
	return buf;
}

void ui_knobs_refresh(struct ui *ui)
{
	for (int k = 0; k < K_COUNT; k++) {
		int64_t v = ui->snap->knobs[k];
		if (ui->have_knobs && v != ui->knobs[k])
			ui->flash_until[k] = ui->now_ns + UI_FLASH_NS;
		ui->knobs[k] = v;
	}
	ui->have_knobs = true;
}

/*
 * One request, whatever the source: on the sampler thread when the source blocks
 * (ui->async), else to the source itself. Its answer always comes back through
 * ui_knob_result(): at once, or later (from the sampler thread, or a far host's reply).
 */
int ui_knob_set(struct ui *ui, enum knob_id id, int64_t v)
{
	struct source_knob_result r;
	char val[64], now[64];
	/* The value in force before the write, for "setting X old -> new...". */
	ui_knob_text(ui, id, now, sizeof(now));
	if (ui->async && ui->pending[id] > 0)
		knob_format(id, ui->pending_v[id], now, sizeof(now));
	int later = ui->async ? source_async_knob_request(ui->async, id, v, &r)
			      : source_knob_request(ui->src, id, v, &r);
	if (!later)
		return ui_knob_result(ui, &r);
	/* Keys step from the value sent until its answer comes. The sampler thread answers
	 * every request; a far host may drop first, or the fleet cursor move to another
	 * host, so its keys step from what it last reported (shown() in ui_keys.c). */
	if (ui->async) {
		ui->pending[id]++;
		ui->pending_v[id] = v;
	}
	/* Until the source answers with the value read back from the host (for the max sleep:
	 * once ovs-vswitchd has taken it, docs/pmd.md "Configuration"). */
	ui_status(ui, false, "setting %s %s -> %s...", knob_table[id].name, now,
		  knob_format(id, v, val, sizeof(val)));
	return UI_REDRAW;
}

int ui_knob_result(struct ui *ui, const struct source_knob_result *r)
{
	const struct knob_def *d = &knob_table[r->knob];
	char val[64], want[64], from[80] = "";

	if (r->from[0])
		snprintf(from, sizeof(from), "%s: ", r->from);
	/* An answer from the sampler thread (it has a request id) ends one pending write. */
	if (r->id && ui->pending[r->knob] > 0)
		ui->pending[r->knob]--;
	if (r->rc != 0) {
		/* The source left the value as it was: say so, with the value in force ("-"
		 * where the source has none). */
		if (ui->snap->knob_absent[r->knob])
			snprintf(val, sizeof(val), "-");
		else
			knob_format(r->knob, r->stored, val, sizeof(val));
		/* An error that names the value still in force already says it; a knob the
		 * source does not have (an engine knob on the live host) has none to stay. */
		if (strstr(r->err, "still in force") || source_knob_refusal(ui->src, r->knob))
			ui_status(ui, true, "%s%s", from, r->err);
		else
			ui_status(ui, true, "%s%s (%s stays %s)", from, r->err, d->name, val);
		return UI_REDRAW;
	}
	if (d->type == KNOB_ACTION)
		ui_status(ui, false, "%s%s: done", from, d->name);
	else if (r->stored != r->requested)
		ui_status(ui, false, "%s%s = %s (the source kept this, not %s)", from, d->name,
			  knob_format(r->knob, r->stored, val, sizeof(val)),
			  knob_format(r->knob, r->requested, want, sizeof(want)));
	else
		ui_status(ui, false, "%s%s = %s", from, d->name,
			  knob_format(r->knob, r->stored, val, sizeof(val)));
	/* Another fleet host's answer (set --all) is said, but is not the value shown here. */
	if (r->elsewhere || d->type == KNOB_ACTION)
		return UI_REDRAW;
	/* The stored value goes into the snapshot at once (the next key in the same read
	 * steps from it), and a fresh snapshot follows before the next frame, so the
	 * header, the views and help show the same value. It goes into the live snapshot:
	 * a frozen one keeps the values its figures were sampled with. */
	struct snapshot *dst = ui->frozen ? ui->live : ui->snap; /* live: the same */
	dst->knobs[r->knob] = r->stored;
	/* The host's ovsdb text beside it is the old snapshot's: none until the fresh one. */
	if (r->knob == K_PMD_MAXSLEEP_US)
		dst->host.ovs_maxsleep_value[0] = '\0';
	if (!ui->frozen)
		ui_knobs_refresh(ui);
	return ui->paused ? UI_REDRAW : UI_KNOB | UI_REDRAW;
}
