/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ui_confirm.c: the question before a key changes a real machine: the change on the status
 * line, Enter applies it, any other key (Esc) cancels; on the engine keys act at once. */
#include <stdarg.h>
#include <stdio.h>

#include "tui/console/ui.h"

/* Only a source whose writes reach the machine, and only with --write: without it the
 * source refuses the write itself and says so (a question first would be one key wasted). */
bool ui_confirm_needed(const struct ui *ui)
{
	return ui->src->ops->writes_machine && ui->opt && ui->opt->write;
}

int ui_confirm_ask(struct ui *ui, int (*fn)(struct ui *ui, int knob, int64_t v), int knob,
		   int64_t v, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(ui->status, sizeof(ui->status), fmt, ap);
	va_end(ap);
	ui->status_err = false;
	ui->confirm = (struct ui_confirm){.fn = fn, .knob = knob, .v = v, .open = true};
	return UI_REDRAW;
}

int ui_confirm_key(struct ui *ui, int ch)
{
	struct ui_confirm c = ui->confirm;
	ui->confirm.open = false;
	if (ch == '\n' || ch == '\r' || ch == KEY_ENTER)
		return c.fn(ui, c.knob, c.v);
	/* Any other key is a no, and is not also taken as a key: a second knob key typed while
	 * the question is up must not step from a value that was never applied. */
	ui_status(ui, false, "cancelled: nothing changed");
	return UI_REDRAW;
}

static int knob_set(struct ui *ui, int knob, int64_t v)
{
	return ui_knob_set(ui, (enum knob_id)knob, v);
}

int ui_knob_key_set(struct ui *ui, enum knob_id id, int64_t v)
{
	char from[64], to[64];
	if (!ui_confirm_needed(ui))
		return ui_knob_set(ui, id, v);
	if (knob_table[id].type == KNOB_ACTION)
		return ui_confirm_ask(ui, knob_set, id, v,
				      "%s on this machine: Enter runs, Esc cancels",
				      knob_table[id].name);
	/* Before the source's first sample the value shown is a default, not the machine's: a
	 * step from it would ask "0 -> 1" of a knob that reads 1. */
	if (ui->snap->seq == 0 && ui->pending[id] <= 0) {
		ui_status(ui, true, "%s: no sample from this machine yet: its value is not known",
			  knob_table[id].name);
		return UI_REDRAW;
	}
	/* From the value shown: a write still on its way is the value sent. */
	int64_t now = ui->pending[id] > 0 ? ui->pending_v[id] : ui->snap->knobs[id];
	return ui_confirm_ask(ui, knob_set, id, v, "%s %s -> %s: Enter applies, Esc cancels",
			      knob_table[id].name, knob_format(id, now, from, sizeof(from)),
			      knob_format(id, v, to, sizeof(to)));
}
