/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ui_input.c: the one-line input: ':' command prompt (with completion), '/' search, '\' filter. */
#include <ctype.h>
#include <string.h>

#include "tui/console/ui.h"

void ui_input_begin(struct ui *ui, enum ui_input mode)
{
	ui->input = mode;
	ui->status[0] = '\0'; /* the line is the prompt now; an old message would mislead */
	ui->line[0] = '\0';
	ui->line_len = 0;
	if (mode == INPUT_SEARCH)
		ui->search[0] = '\0';
	if (mode == INPUT_FILTER) {
		/* Edit the filter in place, as htop does. */
		snprintf(ui->line, sizeof(ui->line), "%s", ui->filter);
		ui->line_len = strlen(ui->line);
	}
}

static size_t common_prefix(const char *a, const char *b)
{
	size_t n = 0;
	while (a[n] && a[n] == b[n])
		n++;
	return n;
}

/* Complete the prefix in dst (cap bytes) among cands (n of them, or n < 0: up to a NULL): the
 * one match whole with tail after it, or the part the matches share; hint lists the matches
 * when more than one. Returns how many matched. */
static int complete_among(const char *const *cands, int n, char *dst, size_t cap, const char *tail,
			  char *hint, size_t hintlen)
{
	const char *first = NULL;
	size_t pl = strlen(dst), best = 0, hl = 0;
	int found = 0;
	for (int i = 0; n < 0 ? cands[i] != NULL : i < n; i++) {
		if (strncmp(cands[i], dst, pl) != 0)
			continue;
		size_t c = first ? common_prefix(first, cands[i]) : strlen(cands[i]);
		best = first && best < c ? best : c;
		first = first ? first : cands[i];
		if (hl < hintlen)
			hl += (size_t)snprintf(hint + hl, hintlen - hl, "%s%s", found ? " " : "",
					       cands[i]);
		found++;
	}
	if (found == 1) {
		snprintf(dst, cap, "%s%s", first, tail);
		hint[0] = '\0';
	} else if (found > 1 && best > pl) {
		snprintf(dst, cap, "%.*s", (int)best, first);
	}
	return found;
}

/* "name=pre" or "name pre" (eq: the '=' or ' '): complete pre among the knob's names of
 * values (enum and bool knobs). */
static int complete_value(char *word, char *eq, size_t cap, char *hint, size_t hintlen)
{
	static const char *const bools[] = {"off", "on", NULL};
	char name[64];
	snprintf(name, sizeof(name), "%.*s", (int)(eq - word), word);
	int id = knob_find(name);
	if (id < 0)
		return 0;
	const char *const *choices = knob_table[id].type == KNOB_ENUM	? knob_table[id].choices
				     : knob_table[id].type == KNOB_BOOL ? bools
									: NULL;
	if (!choices)
		return 0;
	return complete_among(choices, -1, eq + 1, cap - (size_t)(eq + 1 - word), "", hint,
			      hintlen);
}

int ui_input_complete(char *line, size_t cap, char *hint, size_t hintlen)
{
	char *word = line;
	const char *names[K_COUNT];

	hint[0] = '\0';
	while (*word == ' ')
		word++;
	/* "s", "se" -> "set "; then the knob name after it. */
	if (!strchr(word, ' ') && strlen(word) <= 3 && !strncmp("set", word, strlen(word)) &&
	    knob_find(word) < 0 && word[0]) {
		snprintf(line, cap, "set ");
		return 1;
	}
	if (!strncmp(word, "set ", 4))
		word += 4;
	while (*word == ' ')
		word++;
	/* "set NAME=VALUE", and "set NAME VALUE" as ui_command_run() takes it too. */
	char *eq = strchr(word, '=');
	if (!eq)
		eq = strchr(word, ' ');
	if (eq)
		return complete_value(word, eq, cap - (size_t)(word - line), hint, hintlen);
	for (int k = 0; k < K_COUNT; k++)
		names[k] = knob_table[k].name;
	return complete_among(names, K_COUNT, word, cap - (size_t)(word - line), "=", hint,
			      hintlen);
}

/* "goto TIME": a recording's position (backends/source.h seek); the next sample is there. */
static int command_goto(struct ui *ui, const char *buf)
{
	char err[512];
	if (source_seek(ui->src, buf + 4 + (buf[4] == ' '), err, sizeof(err)) != 0) {
		ui_status(ui, true, "%s", err);
		return UI_REDRAW;
	}
	ui_status(ui, false, "%s", err);
	ui->source_done = false;
	return UI_RESAMPLE | UI_REDRAW;
}

/* "set --all NAME=VALUE": every remote host; each one's answer comes back through
 * ui_knob_result() (and as an event). a is what follows "--all ". */
static int command_set_all(struct ui *ui, char *a)
{
	char err[512];
	if (!source_fleet_count(ui->src)) {
		ui_status(ui, true, "set --all: only with --remote hosts");
		return UI_REDRAW;
	}
	while (*a == ' ')
		a++;
	char *sp = strchr(a, '=') ? NULL : strchr(a, ' ');
	if (sp)
		*sp = '=';
	int n = source_fleet_set_all(ui->src, a, err, sizeof(err));
	if (n < 0)
		ui_status(ui, true, "%s", err);
	else
		ui_status(ui, false, "%s sent to %d host%s; each reply follows", a, n,
			  n == 1 ? "" : "s");
	return UI_REDRAW;
}

/* "NAME" alone: the knob's value and range on the status line. */
static int command_show(struct ui *ui, const char *a)
{
	char val[64], range[256];
	int id = knob_find(a);
	if (id < 0)
		ui_status(ui, true, "unknown knob '%s' (Tab completes, h lists them)", a);
	else
		ui_status(ui, false, "%s = %s (%s)", a, ui_knob_text(ui, id, val, sizeof(val)),
			  knob_range_text(id, range, sizeof(range)));
	return UI_REDRAW;
}

/* "[set] NAME=VALUE" or "[set] NAME VALUE" (a, "set " skipped): the knob set. */
static int command_set(struct ui *ui, char *a)
{
	char err[512];
	if (!strchr(a, '=')) {
		char *sp = strchr(a, ' ');
		if (!sp)
			return command_show(ui, a);
		*sp = '='; /* "set name value" */
	}
	enum knob_id id;
	int64_t v;
	if (knob_parse_assignment(a, &id, &v, err, sizeof(err)) != 0) {
		ui_status(ui, true, "%s", err);
		return UI_REDRAW;
	}
	if (!ui->frozen)
		return ui_knob_set(ui, id, v) | UI_REBUILD;
	int redo = ui_live(ui) | ui_knob_set(ui, id, v) | UI_REBUILD;
	ui_freeze_knob_note(ui);
	return redo;
}

int ui_command_run(struct ui *ui, const char *cmd)
{
	char buf[UI_INPUT_MAX];

	while (isspace((unsigned char)*cmd))
		cmd++;
	snprintf(buf, sizeof(buf), "%s", cmd);
	for (size_t n = strlen(buf); n && isspace((unsigned char)buf[n - 1]);)
		buf[--n] = '\0';
	if (!buf[0])
		return UI_REDRAW;
	if (!strcmp(buf, "q") || !strcmp(buf, "quit"))
		return UI_QUIT;
	if (!strcmp(buf, "help")) {
		ui->help = true;
		return UI_REDRAW;
	}
	if (!strncmp(buf, "goto ", 5) || !strcmp(buf, "goto"))
		return command_goto(ui, buf);
	char *a = buf;
	if (!strncmp(a, "set ", 4))
		a += 4;
	while (*a == ' ')
		a++;
	if (!strncmp(a, "--all ", 6))
		return command_set_all(ui, a + 6);
	return command_set(ui, a);
}

/* The text changed: search and filter act as you type. */
static int input_changed(struct ui *ui)
{
	if (ui->input == INPUT_SEARCH) {
		snprintf(ui->search, sizeof(ui->search), "%.63s", ui->line);
		ui_table_search(ui);
	} else if (ui->input == INPUT_FILTER) {
		snprintf(ui->filter, sizeof(ui->filter), "%.63s", ui->line);
		return UI_REBUILD | UI_REDRAW;
	}
	return UI_REDRAW;
}

int ui_input_key(struct ui *ui, int ch)
{
	char hint[512];
	enum ui_input mode = ui->input;

	switch (ch) {
	case 27: /* Esc: cancel; a filter or search is cleared */
		ui->input = INPUT_NONE;
		if (mode == INPUT_FILTER) {
			ui->filter[0] = '\0';
			return UI_REBUILD | UI_REDRAW;
		}
		if (mode == INPUT_SEARCH)
			ui->search[0] = '\0';
		return UI_REDRAW;
	case '\n':
	case '\r':
	case KEY_ENTER:
		ui->input = INPUT_NONE;
		if (mode == INPUT_COMMAND)
			return ui_command_run(ui, ui->line);
		return UI_REDRAW;
	case KEY_BACKSPACE:
	case 127:
	case 8:
		if (ui->line_len)
			ui->line[--ui->line_len] = '\0';
		return input_changed(ui);
	case KEY_F(3): /* htop: F3 while searching finds the next match */
		return mode == INPUT_SEARCH ? ui_table_key(ui, ch, 1) : 0;
	case 21: /* ^U */
		ui->line[0] = '\0';
		ui->line_len = 0;
		return input_changed(ui);
	case '\t':
		if (mode != INPUT_COMMAND)
			return 0;
		if (ui_input_complete(ui->line, sizeof(ui->line), hint, sizeof(hint)) > 1)
			ui_status(ui, false, "%s", hint);
		else if (!hint[0])
			ui->status[0] = '\0';
		ui->line_len = strlen(ui->line);
		return UI_REDRAW;
	default:
		if (ch >= 32 && ch < 127 && ui->line_len + 1 < sizeof(ui->line)) {
			ui->line[ui->line_len++] = (char)ch;
			ui->line[ui->line_len] = '\0';
			return input_changed(ui);
		}
		return 0;
	}
}

void ui_input_draw(struct ui *ui, int y)
{
	static const char *const prompt[] = {"", ":", "Search: ", "Filter: "};
	ui_fill_line(ui, y, ROLE_PROMPT);
	move(y, 0);
	ui_put(ui, ROLE_PROMPT, "%s%s", prompt[ui->input], ui->line);
}
