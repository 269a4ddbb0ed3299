/* ui_paste.c: bracketed paste: pasted text goes to the open prompt, never to the hotkeys. */
#include <string.h>

#include "tui/console/ui.h"

/*
 * Decision: a paste into the ':' prompt runs each complete line as a command, as
 * if Enter ended it (pasting "set est.count=5\nset pmd.enabled=on" sets both), and
 * leaves a last line without a newline in the prompt to edit. A paste into the
 * search or filter prompt keeps its first line only. With no prompt open, nothing
 * of a paste is used: the status line says how to paste commands. A pasted "q"
 * never quits: quitting is a key, not text.
 */
static int paste_line_end(struct ui *ui)
{
	if (ui->input != INPUT_COMMAND) {
		ui->paste_ran = true; /* search and filter: the rest of the paste is dropped */
		return 0;
	}
	char line[sizeof(ui->line)];
	memcpy(line, ui->line, sizeof(line));
	ui->input = INPUT_NONE;
	int redo = ui_command_run(ui, line);
	if (redo & UI_QUIT) {
		redo &= ~UI_QUIT;
		ui_status(ui, true, "paste: '%s' is not run from a paste (type it)", line);
	}
	/* The next pasted line needs a prompt again; keep the message of this one. */
	char status[sizeof(ui->status)];
	bool status_err = ui->status_err;
	memcpy(status, ui->status, sizeof(status));
	ui_input_begin(ui, INPUT_COMMAND);
	memcpy(ui->status, status, sizeof(status));
	ui->status_err = status_err;
	ui->paste_ran = true;
	return redo | UI_REDRAW;
}

int ui_paste_key(struct ui *ui, int ch)
{
	if (ch == UI_KEY_PASTE_BEGIN) {
		ui->pasting = true;
		ui->paste_ran = false;
		ui->paste_dropped = 0;
		return 0;
	}
	if (ch == UI_KEY_PASTE_END) {
		ui->pasting = false;
		/* The paste ended with a newline: the prompt reopened for nothing. */
		if (ui->paste_ran && ui->input == INPUT_COMMAND && ui->line_len == 0)
			ui->input = INPUT_NONE;
		if (ui->paste_dropped && ui->input == INPUT_NONE && !ui->paste_ran)
			ui_status(ui, true,
				  "paste ignored (%u bytes): press ':' first to paste commands",
				  ui->paste_dropped);
		return UI_REDRAW;
	}
	if (ui->input == INPUT_NONE || ui->help || (ui->paste_ran && ui->input != INPUT_COMMAND)) {
		ui->paste_dropped++;
		return 0;
	}
	if (ch == '\n' || ch == '\r' || ch == KEY_ENTER)
		return paste_line_end(ui);
	if (ch == '\t')
		ch = ' '; /* text, not completion */
	if (ch < 32 || ch >= 127) {
		ui->paste_dropped++; /* Esc, ^U, Backspace... would edit: text only */
		return 0;
	}
	return ui_input_key(ui, ch);
}
