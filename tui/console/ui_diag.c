/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ui_diag.c: the diagnoses in the console: their events, the line under the header, the `D`
 * list with the evidence and the `X` key that applies the worst fix. Below the key table and
 * the loop: it calls only the knob path and the drawing primitives. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/knob.h"
#include "diag/diag.h"
#include "tui/rowfmt.h"
#include "tui/console/ui.h"

/* A finding starting or clearing goes to the events view, as -b puts it on its line. */
static void event_put(struct ui *ui, const struct snapshot *s, const char *text)
{
	struct event e = {.mono_ns = s->mono_ns, .wall_ns = s->wall_ns, .kind = EV_DIAG};
	snprintf(e.text, sizeof(e.text), "%s", text);
	ui_event_push(ui, &e);
}

void ui_diag_note(struct ui *ui)
{
	const struct snapshot *s = ui->live;
	/* The findings tui/after.c put on the snapshot (with --remote, from the selected host's
	 * own state, fed while it is selected) started or cleared: to the events view. */
	for (int k = 0; k < s->diag.nchanges; k++)
		event_put(ui, s, s->diag.change[k]);
}

/* The findings of the sample shown: the live ones, or the frozen sample's (kept with it in
 * the history, tui/history.h). */
static int shown(struct ui *ui, const struct diag_finding **f)
{
	*f = ui->snap->diag.f;
	return ui->snap->diag.evaluated ? ui->snap->diag.n : 0; /* none before the first */
}

static enum theme_role sev_role(enum diag_severity s)
{
	return s == DIAG_CRITICAL ? ROLE_ERROR : s == DIAG_WARNING ? ROLE_WARN : ROLE_LABEL;
}

/* Whether the source takes the knob of a "knob=value" fix. */
static bool diag_fix_taken(const struct ui *ui, const char *fix)
{
	char name[DIAG_FIX_MAX];
	snprintf(name, sizeof(name), "%s", fix);
	char *eq = strchr(name, '=');
	if (eq)
		*eq = '\0';
	int id = knob_find(name);
	return id >= 0 && ui_knob_taken(ui, (enum knob_id)id);
}

/* The first finding with a fix (they come most severe first), or NULL. */
static const struct diag_finding *worst_fix(const struct diag_finding *f, int n)
{
	for (int i = 0; i < n; i++)
		if (f[i].fix[0])
			return &f[i];
	return NULL;
}

int ui_diag_line(struct ui *ui, int y)
{
	const struct diag_finding *f;
	int n = shown(ui, &f);
	/* Nothing active: no line at all, so a small screen keeps every row it has today. */
	if (n == 0)
		return 0;
	char head[96], tail[DIAG_FIX_MAX + 48] = "", more[32] = "";
	snprintf(head, sizeof(head), "%s %s: ", diag_severity_name(f[0].severity), f[0].id);
	if (f[0].fix[0])
		/* "key X" only where the source takes that knob (not an engine knob on the host,
		 * nor anything in a recording). */
		snprintf(tail, sizeof(tail), "  fix: %s%s", f[0].fix,
			 diag_fix_taken(ui, f[0].fix) ? ", key X" : "");
	if (n > 1)
		snprintf(more, sizeof(more), "  +%d (D)", n - 1);
	else
		snprintf(more, sizeof(more), "  (D)");
	/* The conclusion gets what the id, the fix and the count leave, cut with a marker. */
	const char *mark = ui->utf8 && !ui->ascii ? "\xe2\x80\xa6" : "~";
	int room = COLS - (int)strlen(head) - (int)strlen(tail) - (int)strlen(more);
	int len = (int)strlen(f[0].conclusion);
	move(y, 0);
	if (room < 8) {
		/* Too narrow for any of the conclusion (80 columns, a long fix): without it;
		 * narrower still (60): the fix first, the id cut. */
		const char *sev = diag_severity_name(f[0].severity);
		if ((int)(strlen(sev) + 1 + strlen(f[0].id) + strlen(tail) + strlen(more)) <=
		    COLS) {
			ui_put(ui, sev_role(f[0].severity), "%s %s", sev, f[0].id);
			ui_put(ui, ROLE_VALUE, "%s", tail);
			ui_put(ui, ROLE_DIM, "%s", more);
			return 1;
		}
		if (f[0].fix[0])
			snprintf(tail, sizeof(tail), " fix: %s", f[0].fix);
		int idroom = COLS - (int)strlen(sev) - 1 - (int)strlen(tail);
		int idlen = (int)strlen(f[0].id);
		ui_put(ui, sev_role(f[0].severity), "%s ", sev);
		if (idlen <= idroom)
			ui_put(ui, sev_role(f[0].severity), "%s", f[0].id);
		else if (idroom > 1)
			ui_put(ui, sev_role(f[0].severity), "%.*s%s", idroom - 1, f[0].id, mark);
		ui_put(ui, ROLE_VALUE, "%s", tail);
		return 1;
	}
	ui_put(ui, sev_role(f[0].severity), "%s", head);
	if (len <= room)
		ui_put(ui, ROLE_NORMAL, "%s", f[0].conclusion);
	else
		ui_put(ui, ROLE_NORMAL, "%.*s%s", room - 1, f[0].conclusion, mark);
	ui_put(ui, ROLE_VALUE, "%s", tail);
	ui_put(ui, ROLE_DIM, "%s", more);
	return 1;
}

/* Line i of the list (one block per finding) into buf; false past the end. */
static bool list_line(struct ui *ui, int i, char *buf, size_t len, enum theme_role *role)
{
	const struct diag_finding *f;
	int n = shown(ui, &f);
	*role = ROLE_NORMAL;
	if (i == 0) {
		*role = ROLE_LABEL;
		snprintf(buf, len, "Diagnoses, %s sample: %d active (Esc/q closes, X: first fix)",
			 ui->frozen ? "frozen" : "live", n);
		return true;
	}
	i--;
	if (n == 0) {
		if (i > 0)
			return false;
		snprintf(buf, len, "  none: every rule of docs/diag.md is quiet");
		return true;
	}
	for (int k = 0; k < n; k++) {
		/* A block: the title, the conclusion, the fix, the evidence, a blank line. */
		int nc = rowfmt_wrap(f[k].conclusion, COLS - 3, 20, 2, 0, NULL, 0);
		int lines = 3 + nc + f[k].nevidence;
		if (i >= lines) {
			i -= lines;
			continue;
		}
		buf[0] = '\0';
		if (i >= 1 && i <= nc) {
			rowfmt_wrap(f[k].conclusion, COLS - 3, 20, 2, i - 1, buf, len);
			return true;
		}
		if (i > nc)
			i -= nc - 1; /* from here on as if the conclusion took one line */
		if (i == 0) {
			*role = sev_role(f[k].severity);
			snprintf(buf, len, "%s %s  since sample %llu",
				 diag_severity_name(f[k].severity), f[k].id,
				 (unsigned long long)f[k].since_seq);
		} else if (i == 2) {
			*role = ROLE_VALUE;
			snprintf(buf, len, "  fix: %s",
				 f[k].fix[0] ? f[k].fix : "none (no knob fixes it)");
		} else if (i - 3 < f[k].nevidence) {
			const struct diag_evidence *e = &f[k].evidence[i - 3];
			snprintf(buf, len, "  %s = %.2f %s", e->figure, e->value,
				 e->unit ? e->unit : "");
		} else {
			buf[0] = '\0';
		}
		return true;
	}
	return false;
}

static int list_lines(struct ui *ui)
{
	char buf[512];
	enum theme_role r;
	int n = 0;
	while (list_line(ui, n, buf, sizeof(buf), &r))
		n++;
	return n;
}

void ui_diag_list_draw(struct ui *ui)
{
	ui_page_draw(ui, list_line, &ui->diag_top, list_lines(ui), 0, LINES - 1);
	move(LINES - 1, 0);
	ui_put(ui, ROLE_STATUS, "%s",
	       ui->status[0] ? ui->status : "arrows scroll, Esc or q closes");
}

int ui_diag_list_key(struct ui *ui, int ch)
{
	switch (ch) {
	case 'q':
	case 'D':
	case 27:
		ui->diag_list = false;
		return UI_REDRAW;
	case KEY_F(10):
		return UI_QUIT;
	case 'X':
		return ui_diag_fix_key(ui, ch);
	}
	return ui_scroll_key(ch, &ui->diag_top, LINES - 2, list_lines(ui)) ? UI_REDRAW : 0;
}

int ui_diag_open(struct ui *ui, int ch)
{
	(void)ch;
	ui->diag_list = true;
	ui->diag_top = 0;
	return UI_REDRAW;
}

static int diag_fix_set(struct ui *ui, int knob, int64_t v)
{
	return ui_knob_set(ui, (enum knob_id)knob, v);
}

int ui_diag_fix_key(struct ui *ui, int ch)
{
	const struct diag_finding *f;
	char err[256];
	enum knob_id id;
	int64_t v;
	(void)ch;
	int n = shown(ui, &f);
	const struct diag_finding *w = worst_fix(f, n);
	if (!w) {
		ui_status(ui, true, "X: no active finding has a fix");
		return UI_REDRAW;
	}
	/* "knob=value", the --set syntax. */
	if (knob_parse_assignment(w->fix, &id, &v, err, sizeof(err)) != 0) {
		ui_status(ui, true, "X: %s: not a knob assignment this console knows", w->fix);
		return UI_REDRAW;
	}
	/* A real machine changes only with --write and after Enter (ui_confirm.c). */
	if (ui->src->ops->writes_machine && !(ui->opt && ui->opt->write)) {
		ui_status(ui, true, "X: %s changes this machine: start tunetop with --write",
			  w->fix);
		return UI_REDRAW;
	}
	if (ui_confirm_needed(ui))
		return ui_confirm_ask(ui, diag_fix_set, id, v,
				      "X: set %s on this machine (%s): Enter applies, Esc cancels",
				      w->fix, w->id);
	return ui_knob_set(ui, id, v);
}
