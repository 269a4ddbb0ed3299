/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ui_dispatch.c: ui_key(), where a key goes: an open prompt, the help screen, a question, the
 * diagnosis list or setup take it first, else its row of the key table (ui_keys.c). Apart from
 * the table so the help screen, which lists the table, and the table are no circle. */
#include "tui/console/ui.h"

int ui_key(struct ui *ui, int ch)
{
	if (ch == KEY_RESIZE)
		return UI_RESIZE | UI_REDRAW;
	if (ui->pasting || ch == UI_KEY_PASTE_BEGIN || ch == UI_KEY_PASTE_END)
		return ui_paste_key(ui, ch); /* pasted text is never a key */
	/* An open prompt keeps its keys even when the terminal shrinks: a 'q' typed
	 * into ":set gen.pattern=..." is a letter, not a request to quit. */
	if (ui->input != INPUT_NONE)
		return ui_input_key(ui, ch);
	if (ui->too_small) /* only quitting makes sense until it grows again */
		return (ch == 'q' || ch == 'Q' || ch == KEY_F(10)) ? UI_QUIT : 0;
	if (ui->help)
		return ui_help_key(ui, ch);
	if (ui->confirm.open) /* a change to a real machine asked: Enter or not, nothing else */
		return ui_confirm_key(ui, ch);
	if (ui->diag_list)
		return ui_diag_list_key(ui, ch);
	if (ui->setup)
		return ui_setup_keys(ui, ch);
	const struct ui_keydef *k = ui_keydef_find(ch);
	if (k && k->knob >= 0 && ui->frozen) {
		/* The new value beside an old sample's figures would compare nothing. */
		int redo = ui_live(ui) | k->fn(ui, ch);
		ui_freeze_knob_note(ui);
		return redo;
	}
	return k ? k->fn(ui, ch) : 0;
}
