/* ui_keys.c: the key table and dispatcher; knob keys go through the engine's setters. */
#include <stdarg.h>
#include <string.h>

#include "ui.h"

const struct ui_keydef ui_keydefs[] = {
    {"F1 h ?", -1, "this help"},
    {"F10 q", -1, "quit"},
    {"arrows", -1, "move the cursor; PgUp PgDn Home End jump"},
    {"Tab 1-5", -1, "views: 1 overview, 2 est, 3 pmd, 4 blk, 5 events"},
    {"/", -1, "search a thread by name (n or F3: next match)"},
    {"\\", -1, "filter threads by name or subsystem (Esc clears)"},
    {"F6 < >", -1, "sort by the previous / next column"},
    {"I", -1, "invert the sort order"},
    {"space", -1, "pause / resume sampling"},
    {"g", K_CPU_GOVERNOR, "cycle"},
    {"m / M", K_PMD_MAXSLEEP_US, "up / down"},
    {"s", K_PMD_TIMER_SLACK_NS, "toggle 1000 / 50000:"},
    {"r", K_BLK_RQ_AFFINITY, "cycle"},
    {"+ / -", K_GEN_RATE_PPS, "up / down (offered load)"},
    {"a / A", K_EST_COUNT, "add / remove 1000:"},
    {"c", K_EST_RECALIBRATE, "run"},
    {":", -1, "command: set NAME=VALUE, NAME (show), q (Tab completes names)"},
    {"Ctrl-L", -1, "repaint the whole terminal"},
};
const size_t ui_nkeydefs = sizeof(ui_keydefs) / sizeof(ui_keydefs[0]);

/* The timer slacks `s` toggles between: PMD_TIMER_RES_NS and Linux's default
 * (spec/pmd-sleep.md 1.1). */
#define UI_SLACK_PMD_NS 1000
#define UI_SLACK_LINUX_NS 50000
/* est.count step of a / A. */
#define UI_EST_STEP 1000

void ui_status(struct ui *ui, bool err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(ui->status, sizeof(ui->status), fmt, ap);
	va_end(ap);
	ui->status_err = err;
}

void ui_knobs_refresh(struct ui *ui)
{
	for (int k = 0; k < K_COUNT; k++) {
		int64_t v = engine_knob(ui->eng, k);
		if (ui->have_knobs && v != ui->knobs[k])
			ui->flash_until[k] = ui->now_ns + UI_FLASH_NS;
		ui->knobs[k] = v;
	}
	ui->have_knobs = true;
}

/* The next value of the 1-2-5 series above (up) or below v, within [lo, hi]; 0 is a step. */
static int64_t ladder(int64_t v, bool up, int64_t first, int64_t lo, int64_t hi)
{
	int64_t prev = 0;
	if (up) {
		if (v < first)
			return first < hi ? first : hi;
		for (int64_t m = first;; m *= 10)
			for (int k = 0; k < 3; k++) {
				int64_t s = m * (k == 0 ? 1 : k == 1 ? 2 : 5);
				if (s > v)
					return s < hi ? s : hi;
				if (s >= hi)
					return hi;
			}
	}
	for (int64_t m = first;; m *= 10)
		for (int k = 0; k < 3; k++) {
			int64_t s = m * (k == 0 ? 1 : k == 1 ? 2 : 5);
			if (s >= v || s >= hi)
				return prev > lo ? prev : lo;
			prev = s;
		}
}

/* Set knob id to v through the engine; the status line says what happened. */
static int knob_key(struct ui *ui, enum knob_id id, int64_t v)
{
	char err[512], val[64];
	const struct knob_def *d = &knob_table[id];

	if (engine_knob_set_value(ui->eng, id, v, err, sizeof(err)) != 0) {
		ui_status(ui, true, "%s", err);
		return UI_REDRAW;
	}
	ui_knobs_refresh(ui);
	if (d->type == KNOB_ACTION)
		ui_status(ui, false, "%s: done", d->name);
	else
		ui_status(ui, false, "%s = %s", d->name,
			  knob_format(id, engine_knob(ui->eng, id), val, sizeof(val)));
	return UI_REDRAW;
}

static int knob_step(struct ui *ui, enum knob_id id, bool up, int64_t first)
{
	const struct knob_def *d = &knob_table[id];
	int64_t v = engine_knob(ui->eng, id);
	return knob_key(ui, id, ladder(v, up, first, d->min, d->max));
}

static int mouse_key(struct ui *ui)
{
	MEVENT me;
	if (getmouse(&me) != OK)
		return 0;
	if (me.bstate & BUTTON4_PRESSED)
		return ui_table_key(ui, KEY_UP, 1);
	if (me.bstate & BUTTON5_PRESSED)
		return ui_table_key(ui, KEY_DOWN, 1);
	/* A click on a thread row selects it, as in htop. */
	if ((me.bstate & BUTTON1_CLICKED) && ui->view == VIEW_OVERVIEW && me.y > ui->table_y) {
		int i = ui->top + me.y - ui->table_y - 1;
		if (i < (int)ui->nrows) {
			ui->sel = i;
			ui->sel_tid = ui->snap->threads[ui->rows[i]].tid;
			return UI_REDRAW;
		}
	}
	return 0;
}

/*
 * A new view starts at its top; how far it scrolls is known once it is drawn,
 * so until then End, PgDn... may go far (the draw clamps) and are not held at the
 * previous view's end by keys that arrive in the same read as the view key.
 */
#define UI_VIEW_TOP_UNKNOWN (1 << 20)
static void ui_view_reset(struct ui *ui)
{
	ui->view_top = 0;
	ui->view_max_top = UI_VIEW_TOP_UNKNOWN;
}

int ui_key(struct ui *ui, int ch)
{
	int64_t v;

	if (ch == KEY_RESIZE)
		return UI_RESIZE | UI_REDRAW;
	if (ui->too_small) /* only quitting makes sense until it grows again */
		return (ch == 'q' || ch == 'Q' || ch == KEY_F(10)) ? UI_QUIT : 0;
	if (ui->input != INPUT_NONE)
		return ui_input_key(ui, ch);
	if (ui->help)
		return ui_help_key(ui, ch);
	switch (ch) {
	case 'q':
	case 'Q':
	case KEY_F(10):
		return UI_QUIT;
	case 'h':
	case '?':
	case KEY_F(1):
		ui->help = true;
		ui->help_top = 0;
		return UI_REDRAW;
	case '\t':
		ui->view = (ui->view + 1) % VIEW_COUNT;
		ui_view_reset(ui);
		return UI_REDRAW;
	case KEY_BTAB:
		ui->view = (ui->view + VIEW_COUNT - 1) % VIEW_COUNT;
		ui_view_reset(ui);
		return UI_REDRAW;
	case '1':
	case '2':
	case '3':
	case '4':
	case '5':
		ui->view = (enum ui_view)(ch - '1');
		ui_view_reset(ui);
		return UI_REDRAW;
	case ' ':
		ui->paused = !ui->paused;
		ui_status(ui, false, ui->paused ? "paused (space resumes)" : "resumed");
		return UI_REDRAW;
	case '/':
		ui->view = VIEW_OVERVIEW;
		ui_input_begin(ui, INPUT_SEARCH);
		return UI_REDRAW;
	case '\\':
		ui->view = VIEW_OVERVIEW;
		ui_input_begin(ui, INPUT_FILTER);
		return UI_REDRAW;
	case ':':
		ui_input_begin(ui, INPUT_COMMAND);
		return UI_REDRAW;
	case 12: /* ^L */
		clearok(curscr, TRUE);
		return UI_REDRAW;
	case 'g':
		v = (engine_knob(ui->eng, K_CPU_GOVERNOR) + 1) % GOV_COUNT;
		return knob_key(ui, K_CPU_GOVERNOR, v);
	case 'm':
		return knob_step(ui, K_PMD_MAXSLEEP_US, true, 10);
	case 'M':
		return knob_step(ui, K_PMD_MAXSLEEP_US, false, 10);
	case 's':
		v = engine_knob(ui->eng, K_PMD_TIMER_SLACK_NS) == UI_SLACK_PMD_NS
			? UI_SLACK_LINUX_NS
			: UI_SLACK_PMD_NS;
		return knob_key(ui, K_PMD_TIMER_SLACK_NS, v);
	case 'r':
		v = (engine_knob(ui->eng, K_BLK_RQ_AFFINITY) + 1) %
		    (knob_table[K_BLK_RQ_AFFINITY].max + 1);
		return knob_key(ui, K_BLK_RQ_AFFINITY, v);
	case '+':
	case '=':
		return knob_step(ui, K_GEN_RATE_PPS, true, 1000);
	case '-':
		return knob_step(ui, K_GEN_RATE_PPS, false, 1000);
	case 'a':
	case 'A': {
		const struct knob_def *d = &knob_table[K_EST_COUNT];
		v = engine_knob(ui->eng, K_EST_COUNT) + (ch == 'a' ? UI_EST_STEP : -UI_EST_STEP);
		v = v < d->min ? d->min : v > d->max ? d->max : v;
		return knob_key(ui, K_EST_COUNT, v);
	}
	case 'c':
		return knob_key(ui, K_EST_RECALIBRATE, 1);
	case KEY_MOUSE:
		return mouse_key(ui);
	default:
		break;
	}
	if (ui->view == VIEW_OVERVIEW)
		return ui_table_key(ui, ch, LINES / 2);
	/* The detail views scroll; the events view counts back from the newest line. */
	int dir = ui->view == VIEW_EVENTS ? -1 : 1, top = ui->view_top;
	switch (ch) {
	case KEY_UP:
		top -= dir;
		break;
	case KEY_DOWN:
		top += dir;
		break;
	case KEY_PPAGE:
		top -= dir * (LINES / 2);
		break;
	case KEY_NPAGE:
		top += dir * (LINES / 2);
		break;
	case KEY_HOME: /* the first line: the oldest event */
		top = dir > 0 ? 0 : ui->view_max_top;
		break;
	case KEY_END: /* the last line: the newest event */
		top = dir > 0 ? ui->view_max_top : 0;
		break;
	default:
		return 0;
	}
	/* Held within what the last frame had to show: no scrolling into nothing that the
	 * same number of keys back would first have to undo. */
	ui->view_top = top < 0 ? 0 : top > ui->view_max_top ? ui->view_max_top : top;
	return UI_REDRAW;
}
