/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ui_paste.c: bracketed paste: pasted text goes to the open prompt, never to the hotkeys. */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include "tui/console/ui.h"

/* The most of one paste that is used (typed into the prompt, run line by line): a
 * screenful of commands. The rest is dropped in large reads, never byte by byte. */
#define UI_PASTE_MAX (16 * 1024)
/* The terminal's end mark (ui_tty.c defines it as a key). */
static const char paste_end_seq[] = "\033[201~";

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

static int paste_end(struct ui *ui)
{
	ui->pasting = false;
	/* The paste ended with a newline: the prompt reopened for nothing. */
	if (ui->paste_ran && ui->input == INPUT_COMMAND && ui->line_len == 0)
		ui->input = INPUT_NONE;
	if (ui->paste_cut)
		ui_status(ui, true, "paste cut: %u bytes past the first %d were dropped",
			  ui->paste_dropped, UI_PASTE_MAX);
	else if (ui->paste_dropped && ui->input == INPUT_NONE && !ui->paste_ran)
		ui_status(ui, true, "paste ignored (%u bytes): press ':' first to paste commands",
			  ui->paste_dropped);
	return UI_REDRAW;
}

/*
 * A paste being dropped: read what the terminal has sent of it in large reads, straight
 * from stdin, up to its end mark (curses' getch() would take it a byte and a system call
 * at a time: a 10 MB paste held the keys for most of a minute). Only what poll() says is
 * there is read, so this never waits; what follows the end mark in the last read goes
 * back to curses (ungetch), so keys typed after the paste are not lost.
 */
static int paste_drain(struct ui *ui)
{
	char buf[4096];
	size_t mlen = sizeof(paste_end_seq) - 1;
	for (;;) {
		struct pollfd p = {.fd = STDIN_FILENO, .events = POLLIN};
		if (poll(&p, 1, 0) <= 0 || !(p.revents & POLLIN))
			return 0;
		ssize_t n = read(STDIN_FILENO, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return 0;
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] == paste_end_seq[ui->paste_match])
				ui->paste_match++;
			else
				ui->paste_match = buf[i] == paste_end_seq[0] ? 1 : 0;
			ui->paste_dropped++;
			if (ui->paste_match < mlen)
				continue;
			ui->paste_match = 0;
			ui->paste_dropped -= (unsigned)mlen;
			for (ssize_t j = n - 1; j > i; j--)
				ungetch((unsigned char)buf[j]);
			return paste_end(ui);
		}
	}
}

int ui_paste_key(struct ui *ui, int ch)
{
	if (ch == UI_KEY_PASTE_BEGIN) {
		ui->pasting = true;
		ui->paste_ran = false;
		ui->paste_dropped = 0;
		ui->paste_used = 0;
		ui->paste_match = 0;
		ui->paste_cut = false;
		return 0;
	}
	if (ch == UI_KEY_PASTE_END)
		return paste_end(ui);
	if (!ui->paste_cut && ++ui->paste_used > UI_PASTE_MAX)
		ui->paste_cut = true;
	if (ui->paste_cut || ui->input == INPUT_NONE || ui->help ||
	    (ui->paste_ran && ui->input != INPUT_COMMAND)) {
		ui->paste_dropped++;
		return paste_drain(ui);
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
