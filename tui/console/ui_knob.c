/* ui_knob.c: the knob setter the keys and the ':' prompt share, its results on the status
 * line, and the knob values as the screen shows them; every value shown comes back from the
 * source. Below the key table and the loop: it calls neither. */
#include <stdarg.h>
#include <stdio.h>

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

int ui_knob_set(struct ui *ui, enum knob_id id, int64_t v)
{
	char err[512], val[64];
	const struct knob_def *d = &knob_table[id];
	int64_t stored;

	if (ui->async) {
		/* The write runs on the sampler thread: say so now, the result follows. */
		uint64_t req;
		int rq = source_async_knob_request(ui->async, id, v, &req, err, sizeof(err));
		if (rq != 0) {
			ui_status(ui, true, "%s (%s stays %s)", err, d->name,
				  knob_format(id, ui->snap->knobs[id], val, sizeof(val)));
			return UI_REDRAW;
		}
		ui->pending[id]++;
		ui->pending_v[id] = v;
		ui_status(ui, false, "%s: setting %s...", d->name,
			  knob_format(id, v, val, sizeof(val)));
		return UI_REDRAW;
	}
	int rc = source_knob_set(ui->src, id, v, &stored, err, sizeof(err));
	if (rc == 0 && ui->src->ops->async_knobs) {
		/* Sent to a remote host: its reply comes later (source_note), the value with
		 * its next snapshot. */
		source_status(ui->src, val, sizeof(val));
		ui_status(ui, false, "%s = %s sent to %.40s", d->name,
			  knob_format(id, v, err, sizeof(err)), val);
		return UI_REDRAW;
	}
	if (rc != 0) {
		/* The source left the value as it was: say so, with the value in force. */
		ui_status(ui, true, "%s (%s stays %s)", err, d->name,
			  ui_knob_text(ui, id, val, sizeof(val)));
		return UI_REDRAW;
	}
	if (d->type == KNOB_ACTION)
		ui_status(ui, false, "%s: done", d->name);
	else if (stored != v)
		ui_status(ui, false, "%s = %s (the source kept this, not %s)", d->name,
			  knob_format(id, stored, val, sizeof(val)),
			  knob_format(id, v, err, sizeof(err)));
	else
		ui_status(ui, false, "%s = %s", d->name, knob_format(id, stored, val, sizeof(val)));
	/* The stored value goes into the snapshot at once (the next key in the same read
	 * steps from it), and a fresh snapshot follows before the next frame, so the
	 * header, the views and help show the same value; a frozen screen keeps its
	 * snapshot with only this value changed. */
	ui->snap->knobs[id] = stored;
	ui_knobs_refresh(ui);
	return ui->paused ? UI_REDRAW : UI_KNOB | UI_REDRAW;
}

int ui_knob_result(struct ui *ui, const struct source_async_result *r)
{
	const struct knob_def *d = &knob_table[r->knob];
	char val[64], want[64];

	if (ui->pending[r->knob] > 0)
		ui->pending[r->knob]--;
	if (r->rc != 0) {
		/* Nothing changed: the value in force is the one read back. */
		ui_status(ui, true, "%s (%s stays %s)", r->err, d->name,
			  knob_format(r->knob, r->stored, val, sizeof(val)));
	} else if (d->type == KNOB_ACTION) {
		ui_status(ui, false, "%s: done", d->name);
	} else if (r->stored != r->requested) {
		ui_status(ui, false, "%s = %s (the source kept this, not %s)", d->name,
			  knob_format(r->knob, r->stored, val, sizeof(val)),
			  knob_format(r->knob, r->requested, want, sizeof(want)));
	} else {
		ui_status(ui, false, "%s = %s", d->name,
			  knob_format(r->knob, r->stored, val, sizeof(val)));
	}
	if (d->type != KNOB_ACTION) {
		ui->snap->knobs[r->knob] = r->stored;
		ui_knobs_refresh(ui);
	}
	return UI_REDRAW;
}
