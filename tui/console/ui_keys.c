/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ui_keys.c: the key table (dispatch and help read the same rows) and the knob keys' steps;
 * the writes go through ui_knob.c. */
#include <string.h>

#include "tui/console/ui.h"

/* The timer slacks `W` toggles between: PMD_TIMER_RES_NS and Linux's default
 * (docs/pmd.md §1.1). */
#define UI_SLACK_PMD_NS 1000
#define UI_SLACK_LINUX_NS 50000
/* est.count step of F7 / F8 in the est view. */
#define UI_EST_STEP 1000

/* The next value of the 1-2-5 series above (up) or below v, within [lo, hi]; 0 is a step. */
static int64_t ladder(int64_t v, bool up, int64_t first, int64_t lo, int64_t hi)
{
	int64_t prev = 0;
	if (up && v < first)
		return first < hi ? first : hi;
	for (int64_t m = first;; m *= 10)
		for (int k = 0; k < 3; k++) {
			int64_t s = m * (k == 0 ? 1 : k == 1 ? 2 : 5);
			if (up && (s > v || s >= hi))
				return s < hi ? s : hi;
			if (!up && (s >= v || s >= hi))
				return prev > lo ? prev : lo;
			prev = s;
		}
}

/* Keys step from the value in force (the snapshot's), never from a default; while a write
 * is on its way, from the value sent (m m m goes up three steps, not one three times). */
static int64_t shown(const struct ui *ui, enum knob_id id)
{
	int64_t v;
	if (ui->pending[id] > 0)
		return ui->pending_v[id];
	/* A source sampled on this thread answers at once, and may be ahead of the snapshot
	 * drawn: a fleet host selected by the key just before this one in the same read, or
	 * a host whose first snapshot came in after the last sample (whose knobs were still
	 * the table's defaults). The host source is asked on its sampler thread only. */
	if (!ui->async && source_knob_get(ui->src, id, &v) == 0)
		return v;
	return ui->snap->knobs[id];
}

static int key_help(struct ui *ui, int ch)
{
	(void)ch;
	ui->help = true;
	ui->help_top = 0;
	return UI_REDRAW;
}

static int key_quit(struct ui *ui, int ch)
{
	(void)ui;
	(void)ch;
	return UI_QUIT;
}

static int key_view(struct ui *ui, int ch)
{
	if (ch == '0') {
		if (!ui_fleet_active(ui)) {
			ui_status(ui, true, "0: the fleet view needs two or more --remote hosts");
			return UI_REDRAW;
		}
		ui->fleet = true;
		return UI_REDRAW;
	}
	ui->fleet = false;
	if (ch == '\t')
		return ui_view_set(ui, (ui->view + 1) % VIEW_COUNT);
	if (ch == KEY_BTAB)
		return ui_view_set(ui, (ui->view + VIEW_COUNT - 1) % VIEW_COUNT);
	return ui_view_set(ui, (enum ui_view)(ch - '1'));
}

/* Arrows and paging: the thread table on the overview, else the detail view scrolls
 * (the events view counts back from the newest line). */
static int key_move(struct ui *ui, int ch)
{
	if (ui->fleet)
		return ui_fleet_key(ui, ch);
	if (ui->view == VIEW_OVERVIEW)
		return ui_table_key(ui, ch, LINES / 2);
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
	default: /* KEY_END: the last line: the newest event */
		top = dir > 0 ? ui->view_max_top : 0;
		break;
	}
	/* Held within what the last frame had to show: no scrolling into nothing that the
	 * same number of keys back would first have to undo. */
	ui->view_top = top < 0 ? 0 : top > ui->view_max_top ? ui->view_max_top : top;
	ui->view_end = ch == KEY_END && dir > 0;
	return UI_REDRAW;
}

/* Sorting and search-next act on the thread table, whichever view is shown. */
static int key_table(struct ui *ui, int ch)
{
	return ui_table_key(ui, ch, LINES / 2);
}

static int key_search(struct ui *ui, int ch)
{
	ui_view_set(ui, VIEW_OVERVIEW);
	ui_input_begin(ui, ch == '/' || ch == KEY_F(3) ? INPUT_SEARCH : INPUT_FILTER);
	return UI_REDRAW;
}

static int key_command(struct ui *ui, int ch)
{
	(void)ch;
	ui_input_begin(ui, INPUT_COMMAND);
	return UI_REDRAW;
}

/* Space, [ ] { } and Esc: the history (ui_freeze.c); Esc also leaves a host for the fleet,
 * and first of all cancels a trade-off sweep under way (one key, one meaning at a time). */
static int key_freeze(struct ui *ui, int ch)
{
	if (ch == 27 && ui->charts.to.state == TRADEOFF_RUN)
		return ui_tradeoff_key(ui, ch);
	if (ch == 27 && tune_running(&ui->charts.tune.t))
		return ui_tune_key(ui, ch);
	if (ch == 27 && !ui->frozen && ui_fleet_active(ui) && !ui->fleet) {
		ui->fleet = true;
		return UI_REDRAW;
	}
	return ui_freeze_key(ui, ch);
}

static int key_enter(struct ui *ui, int ch)
{
	return ui->fleet ? ui_fleet_key(ui, ch) : 0;
}

/* A recording plays faster or slower (a live source samples at -d). */
static int key_speed(struct ui *ui, int ch)
{
	if (!source_paced(ui->src)) {
		ui_status(ui, true,
			  "speed: only a recording (--replay) has one; -d sets the interval");
		return UI_REDRAW;
	}
	if (ui->opt->follow) {
		ui_status(ui, true, "speed: --follow plays each line as it is appended");
		return UI_REDRAW;
	}
	double s = ch == 'f' ? ui->speed * 2 : ui->speed / 2;
	ui->speed = s > 64 ? 64 : s < 1.0 / 64 ? 1.0 / 64 : s;
	ui_status(ui, false, "replay speed %gx", ui->speed);
	return UI_REDRAW;
}

static int key_repaint(struct ui *ui, int ch)
{
	(void)ui;
	(void)ch;
	clearok(curscr, TRUE);
	return UI_REDRAW;
}

/* htop's '#' hides the meters; here it swaps the engine's emulated CPUs for the machine's own
 * real ones and back, each meter saying which (docs/reference.md "The console"). */
static int key_meters(struct ui *ui, int ch)
{
	(void)ch;
	if (ui->snap->has_host) {
		ui_status(ui, false, "#: the meters are this machine's already");
		return UI_REDRAW;
	}
	ui->meters_machine = !ui->meters_machine;
	ui_status(ui, false, "meters: %s",
		  !ui->meters_machine	    ? "the engine's emulated CPUs"
		  : ui->snap->machine_ncpus ? "this machine's real CPUs"
					    : "this machine's real CPUs, from the next sample (a "
					      "recording has none)");
	return UI_REDRAW;
}

static int key_mouse(struct ui *ui, int ch)
{
	MEVENT me;
	(void)ch;
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

static int key_governor(struct ui *ui, int ch)
{
	(void)ch;
	return ui_knob_key_set(ui, K_CPU_GOVERNOR, (shown(ui, K_CPU_GOVERNOR) + 1) % GOV_COUNT);
}

static int key_slack(struct ui *ui, int ch)
{
	(void)ch;
	int64_t v = shown(ui, K_PMD_TIMER_SLACK_NS) == UI_SLACK_PMD_NS ? UI_SLACK_LINUX_NS
								       : UI_SLACK_PMD_NS;
	return ui_knob_key_set(ui, K_PMD_TIMER_SLACK_NS, v);
}

/* 0 -> 1 -> 2 -> 0: the values that mean something (3 and up are accepted and ignored). */
static int key_rq_affinity(struct ui *ui, int ch)
{
	(void)ch;
	int64_t v = shown(ui, K_BLK_RQ_AFFINITY);
	return ui_knob_key_set(ui, K_BLK_RQ_AFFINITY, v >= BLK_RQ_AFFINITY_MAX ? 0 : v + 1);
}

static int key_recalibrate(struct ui *ui, int ch)
{
	(void)ch;
	return ui_knob_key_set(ui, K_EST_RECALIBRATE, 1);
}

/*
 * F7 / F8, htop's nice - / nice + of the thread under the cursor: here the knob of the
 * view shown, one step down / up: est.count in the est view, pmd.maxsleep_us in the pmd
 * view and the fleet, blk.rq_affinity in the blk view, the offered load (gen.rate_pps) in
 * the overview and the events view.
 */
static int key_view_knob(struct ui *ui, int ch)
{
	bool up = ch == KEY_F(8);
	int64_t v;
	switch (ui->fleet ? VIEW_PMD : ui->view) {
	case VIEW_EST: {
		const struct knob_def *d = &knob_table[K_EST_COUNT];
		v = shown(ui, K_EST_COUNT) + (up ? UI_EST_STEP : -UI_EST_STEP);
		return ui_knob_key_set(ui, K_EST_COUNT,
				       v < d->min   ? d->min
				       : v > d->max ? d->max
						    : v);
	}
	case VIEW_PMD: {
		const struct knob_def *d = &knob_table[K_PMD_MAXSLEEP_US];
		v = ladder(shown(ui, K_PMD_MAXSLEEP_US), up, 10, d->min, d->max);
		return ui_knob_key_set(ui, K_PMD_MAXSLEEP_US, v);
	}
	case VIEW_BLK:
		v = shown(ui, K_BLK_RQ_AFFINITY) + (up ? 1 : -1);
		return ui_knob_key_set(ui, K_BLK_RQ_AFFINITY,
				       v < 0			 ? 0
				       : v > BLK_RQ_AFFINITY_MAX ? BLK_RQ_AFFINITY_MAX
								 : v);
	default: {
		const struct knob_def *d = &knob_table[K_GEN_RATE_PPS];
		v = ladder(shown(ui, K_GEN_RATE_PPS), up, 1000, d->min, d->max);
		return ui_knob_key_set(ui, K_GEN_RATE_PPS, v);
	}
	}
}

static int key_kill(struct ui *ui, int ch)
{
	ui_status(ui, false, "%s: nothing to kill: tunetop never signals a thread",
		  ch == 'k' ? "k" : "F9");
	return UI_REDRAW;
}

static int key_tree(struct ui *ui, int ch)
{
	(void)ch;
	ui->tree = !ui->tree;
	ui_status(ui, false,
		  ui->tree ? "tree: threads grouped by subsystem (F5: list)"
			   : "list: threads by the sort column (F5: tree)");
	return UI_REBUILD | UI_REDRAW;
}

/* htop's N and P: sort by PID (the thread id here) and by CPU%. */
static int key_sort_by(struct ui *ui, int ch)
{
	ui->sort = ch == 'N' ? SORT_TID : SORT_PCT;
	ui->sort_asc = ch == 'N';
	ui_status(ui, false, "sort by %s", ui_sort_name(ui->sort));
	return UI_REBUILD | UI_REDRAW;
}

/*
 * htop's keys that mean nothing here: each says so, and where tunetop put what it had on
 * that key before, so a habit never changes a knob (docs/reference.md "The console").
 */
static const struct {
	int ch;
	const char *htop, *here;
} htop_only[] = {
    {'M', "sort by MEM%", "no memory column; pmd.maxsleep_us: F7/F8 in the pmd view (3)"},
    {'T', "sort by TIME", "no time column; sort: F6 < >, N, P"},
    {'m', "merged command", "pmd.maxsleep_us: F7/F8 in the pmd view (3)"},
    {'s', "strace", "pmd.timer_slack_ns: W"},
    {'a', "CPU affinity", "est.count: F7/F8 in the est view (2)"},
    {'c', "tag children", "est.recalibrate: E"},
    {'t', "tree view", "tree: F5; the trade-off sweep: o"},
    {'+', "expand the tree", "gen.rate_pps: F7/F8 in the overview (1)"},
    {'-', "collapse the tree", "gen.rate_pps: F7/F8 in the overview (1)"},
    {'=', "expand the tree", "gen.rate_pps: F7/F8 in the overview (1)"},
    {'*', "fold every branch", "the tree: F5"},
    {127, "collapse into parent", "the tree: F5"},
    {'F', "follow", "the cursor always follows its thread; replay slower: d"},
    {'H', "hide threads", "every thread of the source shows"},
    {'K', "hide kernel threads", "every thread of the source shows"},
    {'O', "hide containers", "every thread of the source shows"},
    {'u', "one user", "no users here; filter: F4 \\"},
    {'U', "untag all", "nothing is tagged"},
    {'p', "program path", "threads have no command line"},
    {'w', "wrap command", "threads have no command line"},
    {'e', "environment", "threads have no environment here"},
    {'l', "lsof", "no files listed here"},
    {'x', "file locks", "no locks listed here"},
    {'b', "backtrace", "no stacks here"},
    {'i', "IO priority", "the knobs: F7/F8 and :"},
    {'Y', "scheduling policy", "the knobs: F7/F8 and :"},
};

static int key_htop_only(struct ui *ui, int ch)
{
	for (size_t i = 0; i < sizeof(htop_only) / sizeof(htop_only[0]); i++)
		if (htop_only[i].ch == ch) {
			ui_status(ui, false, "%s: htop's %s; here nothing (%s)",
				  ch == 127 ? "Backspace" : (char[2]){(char)ch, 0},
				  htop_only[i].htop, htop_only[i].here);
			return UI_REDRAW;
		}
	return 0;
}

const struct ui_keydef ui_keydefs[] = {
    {"F1 h ?", {KEY_F(1), 'h', '?'}, -1, "this help", key_help},
    {"F2 S C",
     {KEY_F(2), 'S', 'C'},
     -1,
     "setup: view, sort, refresh, theme... kept in tunetoprc",
     ui_setup_key},
    {"F10 q", {KEY_F(10), 'q', 'Q'}, -1, "quit", key_quit},
    {"arrows",
     {KEY_UP, KEY_DOWN, KEY_PPAGE, KEY_NPAGE, KEY_HOME, KEY_END},
     -1,
     "move the cursor; PgUp PgDn Home End jump",
     key_move},
    {"Tab 0-5",
     {'\t', KEY_BTAB, '0', '1', '2', '3', '4', '5'},
     -1,
     "views: 0 fleet, 1 overview, 2 est, 3 pmd, 4 blk, 5 events",
     key_view},
    {"F3 /", {KEY_F(3), '/'}, -1, "search a thread by name (F3 or n: next match)", key_search},
    {"n", {'n'}, -1, "next search match", key_table},
    {"F4 \\", {KEY_F(4), '\\'}, -1, "filter threads by name or subsystem (Esc clears)", key_search},
    {"F5", {KEY_F(5)}, -1, "tree: the threads grouped by subsystem / back to the list", key_tree},
    {"F6 < >", {KEY_F(6), '<', '>', ',', '.'}, -1, "sort by the previous / next column", key_table},
    {"N P", {'N', 'P'}, -1, "sort by TID / by CPU%", key_sort_by},
    {"I", {'I'}, -1, "invert the sort order", key_table},
    {"F7 / F8",
     {KEY_F(7), KEY_F(8)},
     -1,
     "htop's nice -/+: the view's knob down / up: est.count (2), pmd.maxsleep_us (3, 0 "
     "fleet), blk.rq_affinity (4), gen.rate_pps (1, 5)",
     key_view_knob},
    {"F9 k", {KEY_F(9), 'k'}, -1, "nothing to kill: tunetop never signals a thread", key_kill},
    {"space Z",
     {' ', 'Z'},
     -1,
     "freeze on this sample / back to live (sampling goes on)",
     key_freeze},
    {"[ ] { }",
     {'[', ']', '{', '}'},
     -1,
     "frozen: one sample back / forward, { } ten; past newest: live",
     key_freeze},
    {"Esc", {27}, -1, "back to live; with --remote hosts, back to the fleet", key_freeze},
    {"Enter",
     {'\n', '\r', KEY_ENTER},
     -1,
     "fleet view: dive into the host under the cursor; --host --write: apply the change shown",
     key_enter},
    {"f / d", {'f', 'd'}, -1, "replay speed x2 / /2", key_speed},
    {"g", {'g'}, K_CPU_GOVERNOR, "cycle", key_governor},
    {"W", {'W'}, K_PMD_TIMER_SLACK_NS, "toggle 1000 / 50000:", key_slack},
    {"r", {'r'}, K_BLK_RQ_AFFINITY, "cycle 0 1 2:", key_rq_affinity},
    {"E", {'E'}, K_EST_RECALIBRATE, "run", key_recalibrate},
    {"o Esc",
     {'o'}, /* Esc reaches it through the Esc row above while a sweep runs */
     -1,
     "maxsleep x slack trade-off curve in the pmd view (o/Esc: cancel)",
     ui_tradeoff_key},
    {"A Esc",
     {'A'}, /* Esc reaches it through the Esc row above while the tuner runs */
     -1,
     "pmd view: the live tuner: the diagnosis's fix, then pmd.maxsleep_us stepped, the cheapest "
     "within drop 0.1% kept (A/Esc: stop, start values back)",
     ui_tune_key},
    {"v",
     {'v'},
     -1,
     "pmd view on OVS (--host): scroll to the next PMD's pmd-perf-show histograms, a bar "
     "chart each",
     ui_pmd_hist_key},
    {"D", {'D'}, -1, "list every active diagnosis with its evidence (Esc/q closes)", ui_diag_open},
    {"X",
     {'X'},
     -1,
     "apply the worst diagnosis's fix (a real machine: --write, then Enter)",
     ui_diag_fix_key},
    {":",
     {':'},
     -1,
     "command: set NAME=VALUE, NAME (show), goto TIME (a replay), q (Tab completes names)",
     key_command},
    {"Ctrl-L", {12}, -1, "repaint the whole terminal", key_repaint},
    {"#",
     {'#'},
     -1,
     "meters: the engine's emulated CPUs, or this machine's real ones (htop: hide meters)",
     key_meters},
    {"mouse", {KEY_MOUSE}, -1, "with --mouse: click selects, wheel scrolls", key_mouse},
    {"M T m s a c t",
     {'M', 'T', 'm', 's', 'a', 'c', 't'},
     -1,
     "htop's keys, nothing here: the status line says where tunetop has it",
     key_htop_only},
    {"+ - = * F H K O",
     {'+', '-', '=', '*', 127, 'F', 'H', 'K', 'O'},
     -1,
     "htop's keys (and Backspace), nothing here",
     key_htop_only},
    {"u U p w e l x b i Y",
     {'u', 'U', 'p', 'w', 'e', 'l', 'x', 'b', 'i', 'Y'},
     -1,
     "htop's keys, nothing here",
     key_htop_only},
};
const size_t ui_nkeydefs = sizeof(ui_keydefs) / sizeof(ui_keydefs[0]);

const struct ui_keydef *ui_keydef_find(int ch)
{
	for (size_t i = 0; i < ui_nkeydefs; i++)
		for (size_t j = 0; j < UI_KEY_CODES && ui_keydefs[i].codes[j]; j++)
			if (ui_keydefs[i].codes[j] == ch)
				return &ui_keydefs[i];
	return NULL;
}
