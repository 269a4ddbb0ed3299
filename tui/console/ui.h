/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ui.h: the console's shared state and the functions of its ui_*.c parts (htop-like). */
#ifndef TT_UI_H
#define TT_UI_H

#include <curses.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/clock.h"
#include "backends/source.h"
#include "backends/source_async.h"
#include "core/governor.h"
#include "core/limits.h"
#include "tui/options.h"
#include "tui/pass.h"
#include "tui/pass_cost.h"
#include "tui/tune.h"
#include "tui/theme.h"
#include "tui/history.h"
#include "tui/settings.h"

struct after;

/* Below this the console shows "terminal too small" (an 80x24 terminal fits easily). */
#define UI_MIN_COLS 60
#define UI_MIN_ROWS 16
/*
 * The estimator tick goal: IPVS_EST_CHAIN_FACTOR (48) chains x 100 us = 4.8 ms
 * per 40 ms tick (docs/est.md, section 1 constants table).
 */
#define UI_EST_TICK_GOAL_NS (48ULL * 100ULL * NS_PER_US)
/* A changed knob value stays highlighted this long. */
#define UI_FLASH_NS (1500 * NS_PER_MS)
/* History kept for the charts: 4 minutes at the default 1 s refresh. */
#define UI_HIST_LEN 240
/* Events kept for the events view (the engine keeps its own ring too). */
#define UI_EVENTS_KEEP 200
/* Calibrations remembered for the est view. */
#define UI_CALIB_KEEP 16
/* The longest wait in one poll where something due has no descriptor to wake it (remote
 * hosts' notes, or no signal pipe): what is due is seen this soon. */
#define UI_POLL_SLICE_MS 100
#define UI_INPUT_MAX 200
/* Polls in a row that found stdin readable but no key: it is at EOF. */
#define UI_STDIN_EOF_POLLS 3

/* What a key handler asks the loop to redo (htop's Htop_Reaction). */
enum ui_redo {
	UI_REDRAW = 1 << 0, /* draw the frame again */
	UI_RESAMPLE = 1 << 1, /* take a snapshot now */
	UI_REBUILD = 1 << 2, /* re-sort / re-filter the rows */
	UI_RESIZE = 1 << 3, /* the terminal changed size */
	UI_QUIT = 1 << 4,
	UI_KNOB = 1 << 5, /* a knob changed: a fresh snapshot now, even mid-interval */
	UI_ASYNC = 1 << 6, /* the sampler thread published a snapshot or a result */
	UI_LAST = 1 << 7, /* the last snapshot of -n was drawn: leave */
};

enum ui_view { VIEW_OVERVIEW, VIEW_EST, VIEW_PMD, VIEW_BLK, VIEW_EVENTS, VIEW_COUNT };

enum ui_sort {
	SORT_TID,
	SORT_NAME,
	SORT_SUBSYS,
	SORT_CPU,
	SORT_PCT,
	SORT_STATE,
	SORT_RUNQ,
	SORT_COUNT
};

enum ui_input { INPUT_NONE, INPUT_COMMAND, INPUT_SEARCH, INPUT_FILTER };

/* The charts' series (ui_hist.c). */
enum ui_series {
	HIST_PMD_DROP_PCT,
	HIST_PMD_CPU_PCT,
	HIST_EST_TICK_US,
	HIST_BLK_IOPS,
	HIST_BLK_P99_US,
	HIST_SELF_CPU_PCT,
	HIST_COUNT
};

struct ui_hist {
	double v[UI_HIST_LEN];
	unsigned n, head; /* head: next slot to write */
};

/* The multi-row graphs' own history (ui_hist.c, ui_chart*.c). */
#define UI_CHART_PMDS 4 /* PMDs charted one by one */
#define UI_MARKS_KEEP 64 /* knob changes remembered for the graphs' markers */
#define UI_TRADEOFF_MAX 12 /* points of the `o` sweep */

/* A knob changed between two snapshots: marked at the first sample with the new value. */
struct ui_mark {
	uint64_t sample; /* ui_charts.samples when it was seen */
	int knob;
	int64_t value;
};

enum ui_tradeoff_state { TRADEOFF_OFF, TRADEOFF_RUN, TRADEOFF_DONE };

/* One setting of the `o` sweep and what it measured. */
struct ui_tradeoff_pt {
	int64_t maxsleep_us, slack_ns;
	double drop_sum, cpu_sum, secs; /* interval-weighted sums over the measured seconds */
	struct pass_pmd_acc acc; /* the measured intervals' counters (tui/pass_cost.h) */
	bool done;
	bool aside; /* the host took more than the limit of its window: drawn, never the best */
};

/* The `o` key's sweep: a state machine the sampling loop steps, never waiting. */
struct ui_tradeoff {
	enum ui_tradeoff_state state;
	int point, npoints;
	uint64_t set_ns; /* when this point's knobs were set */
	struct pass_pmd_mark last; /* the previous snapshot's counters: an interval's start */
	int64_t saved_maxsleep_us, saved_slack_ns; /* restored at the end */
	bool confirm; /* a real machine: Enter said yes to the question (ui_confirm.c) */
	struct ui_tradeoff_pt pts[UI_TRADEOFF_MAX];
	/* Which point runs next and whether a window is kept: the pass runner, stepped
	 * (tui/pass.h), so a window the host took too much of is set aside as the sweep's are. */
	struct pass_run run;
};

/* The `A` key's live tuner (ui_tune.c): the state machine of tui/tune.h, stepped by the
 * sampling loop one snapshot at a time. */
#define UI_TUNE_EVENTS 8
struct ui_tune {
	struct tune t;
	/* Its verdicts and whys for the events view, taken by ui_events_note (ui_views.c). */
	struct event ev[UI_TUNE_EVENTS];
	int nev;
	bool confirm; /* a real machine: Enter said yes to the first step (ui_confirm.c) */
	bool announce; /* ended: how, said again once the last write is answered */
};

struct ui_charts {
	uint64_t samples; /* snapshots pushed so far */
	struct ui_hist pmd_drop[UI_CHART_PMDS], pmd_cpu[UI_CHART_PMDS];
	struct ui_hist est_tick_ms, est_kt_cpu; /* tick avg; the busiest kthread's CPU% */
	int64_t prev_knobs[K_COUNT];
	bool have_prev;
	struct ui_mark marks[UI_MARKS_KEEP];
	size_t nmarks, mark_head;
	struct ui_tradeoff to;
	struct ui_tune tune;
};

/* Bytes written to the terminal (ui_tty.c). */
struct ui_tty {
	int fd;
	int io_fd; /* /proc/thread-self/io of the UI thread, or -1 */
	uint64_t wchar0; /* its write count when curses started */
	uint64_t bytes; /* written since curses started */
	bool dead; /* the terminal hung up (ssh dropped) */
};

struct ui {
	struct source *src;
	const struct options *opt;
	struct snapshot *snap;
	SCREEN *scr;
	FILE *out;
	struct ui_tty tty;

	struct theme theme;
	attr_t attr[ROLE_COUNT];
	bool color, ascii, utf8;

	enum ui_view view;
	bool help;
	int help_top;
	int view_top; /* scroll of the detail views */
	/* The farthest view_top that still shows something, as of the last frame: the keys
	 * clamp to it, so scrolling past an end is not stored (and undone key by key). */
	int view_max_top;
	/* The events view's height at its last draw: scrolled back, it holds its lines. */
	int ev_rows;
	/* The pmd view on OVS: the line each PMD's histograms start at, as of the last frame
	 * (ui_view_pmdhist.c), for the key that scrolls to them. */
	int pmd_hist_at[HOST_SNAP_MAX_OVS_PMDS];
	int npmd_hist_at;
	bool paused;
	bool too_small;

	/* Thread table: indexes into snap->threads, sorted and filtered. */
	size_t *rows;
	size_t nrows, rows_cap;
	int sel, top;
	int table_y; /* screen row of the table heading (mouse clicks) */
	pid_t sel_tid; /* keeps the cursor on a thread across re-sorts */
	enum ui_sort sort;
	bool sort_asc;
	char search[64];
	char filter[64];

	enum ui_input input;
	char line[UI_INPUT_MAX];
	size_t line_len;

	int full_y; /* the row ui_put() filled to the right margin this frame, or -1 */

	char status[256];
	bool status_err;

	int64_t knobs[K_COUNT]; /* the previous snapshot's values: what flashes on a change */
	uint64_t flash_until[K_COUNT];
	bool have_knobs;

	struct ui_hist hist[HIST_COUNT];
	struct event ev[UI_EVENTS_KEEP];
	size_t nev, ev_head;
	struct est_calib_snap calib[UI_CALIB_KEEP];
	size_t ncalib;

	unsigned stdin_idle;
	bool stdin_eof;

	uint64_t tty_bytes_at_sample;
	uint64_t render_us;
	uint64_t now_ns;

	struct ui_charts charts; /* the graphs' history, markers and the `o` sweep */
	/* Bracketed paste (ui_paste.c): between the terminal's begin and end marks,
	 * bytes are text for the open prompt, never keys. */
	bool pasting;
	bool paste_ran; /* a pasted line ran as a command: the prompt reopened */
	unsigned paste_dropped; /* bytes of this paste that had nowhere to go */
	unsigned paste_used; /* bytes of this paste taken as text (at most UI_PASTE_MAX) */
	bool paste_cut; /* past UI_PASTE_MAX: the rest is dropped */
	size_t paste_match; /* bytes of the end mark matched by the raw reads so far */
	/* A source whose I/O may block (the host) samples and writes knobs on its own thread
	 * (backends/source_async.h); NULL: the source is sampled here (the engine: microseconds).
	 */
	struct source_async *async;
	int pending[K_COUNT]; /* knob writes sent and not answered */
	int64_t pending_v[K_COUNT]; /* the last value sent */
	uint64_t key_ns; /* when the keys being handled were read, 0 none */
	uint64_t key_us, key_max_us; /* key read to frame on the terminal: last, largest */
	uint64_t ui_cpu_ns; /* this thread's CPU time at the last snapshot */
	/* With a recorded source the snapshot's self figures are the recording console's or a
	 * remote host's agent's: the console's own, measured here at each snapshot (screen.c),
	 * are these. */
	struct snap_self own;
	uint64_t own_cpu_ns, own_mono_ns; /* this thread's CPU time and the clock then */
	/* History and freeze (ui_freeze.c): ui->snap is live, or frozen on one kept sample. */
	struct history history;
	struct snapshot *live; /* what the source fills; ui->snap when not frozen */
	struct snapshot *frozen_snap;
	bool frozen;
	/* End in a view that scrolls: it stays at its end as the view grows or its rows move
	 * down, until another move (as less +F follows a file). */
	bool view_end;
	bool meters_machine; /* '#' on the engine: the meters show the machine's real CPUs */
	uint64_t frozen_id; /* the history id shown while frozen */
	/* The window frozen with it: the ids kept when space was pressed. Stepping stays in it
	 * and the charts end at its newest, so the frozen screen does not move while sampling
	 * goes on (docs/reference.md, "History, freeze"). */
	uint64_t frozen_lo, frozen_hi;
	double speed; /* replay speed (1 = as recorded) */
	bool source_done; /* a recording played to its end */
	/* What follows every sample (tui/after.h): findings, --serve, the history, --record. */
	struct after *after;
	bool rec; /* --record or --record-dir: the header says REC */
	bool fleet; /* the fleet view (ui_fleet.c) instead of a host's view */
	/* Diagnoses (ui_diag.c): the D list. */
	bool diag_list;
	int diag_top;
	/* Settings (tui/settings.h, ui_setup.c): the file as read, what was in force at start,
	 * the looks now (the view and the sort are the fields above). */
	struct settings set_file, set_start, set_now;
	char set_path[4096];
	bool set_keep; /* a path, no --no-config, a file read cleanly: written when changed */
	char set_errors[2048]; /* its bad lines, one "PATH:LINE: why" a line: said again at exit */
	bool setup; /* the setup screen (F2) is open */
	int setup_sel;
	uint64_t delay_ns; /* the refresh interval in force (the setup screen may change it) */
	bool tree; /* F5: the thread table grouped by subsystem (ui_table.c) */
	/* A question open on the status line (ui_confirm.c): Enter runs fn, any other key not. */
	struct ui_confirm {
		int (*fn)(struct ui *ui, int knob, int64_t v);
		int knob;
		int64_t v;
		bool open;
	} confirm;
};

/* Key codes ui_tty.c gives the terminal's paste marks (ESC [200~ and ESC [201~). */
#define UI_KEY_PASTE_BEGIN (KEY_MAX + 1)
#define UI_KEY_PASTE_END (KEY_MAX + 2)
/* ui_paste.c: the paste marks and the bytes between them; returns redo flags. */
int ui_paste_key(struct ui *ui, int ch);

/* ui_tty.c: the counting stream, curses start/stop, the crash handler. */
int ui_tty_open(struct ui *ui, char *err, size_t errlen);
void ui_tty_close(struct ui *ui);
/* Follow the terminal's size; true when it changed. */
bool ui_tty_resize(struct ui *ui);
/* Update ui->tty.bytes (after a frame). */
void ui_tty_count(struct ui *ui);
void ui_colors_apply(struct ui *ui);

/* ui_hist.c */
void ui_hist_push(struct ui *ui);
/* The value of series s at the sample shown: the newest, or the frozen sample's. */
double ui_hist_shown(const struct ui *ui, enum ui_series s);
/* Draw the last w values of h at (y, x) as a one-line sparkline; max <= 0: auto scale. */
void ui_hist_draw(struct ui *ui, enum ui_series s, int y, int x, int w, double max);

/* Copy the last (at most max) values of h, oldest first; returns how many. */
size_t ui_hist_copy(const struct ui_hist *h, double *out, size_t max);
/* Frozen: samples from the newest back to the frozen window's end (the charts' right edge)
 * and to the sample shown; false (both 0) when live. */
bool ui_hist_frozen(const struct ui *ui, size_t *end_back, size_t *cur_back);
/* The seconds per sample the charts' time axis counts (-d, or a recording's own gaps). */
double ui_hist_interval(const struct ui *ui);

/* ui_chart.c: a multi-row graph with a y-axis, a goal line and knob markers. */
struct ui_graph {
	char title[48]; /* on the first row, with the newest value */
	const char *unit; /* after the axis figures: "%", "ms" */
	const double *v; /* values, oldest first */
	size_t n;
	double goal; /* a line at this value; NAN: none */
	double min_top; /* the axis reaches at least this (a scale for flat data) */
	int slots_per_value; /* > 1: each value drawn this many dots wide (bars) */
	/* Markers: values back from the newest and their text. */
	const int *mark_back;
	const char *const *mark_text;
	size_t nmarks;
	/* Frozen: a cursor at the sample shown, cursor_back values back from the newest. */
	bool has_cursor;
	int cursor_back;
	double interval_s; /* seconds a value stands for: the time axis (0: none) */
	void *built; /* the grid for one size, from ui_graph_prepare() */
	int built_w, built_h;
};
/* Build g's grid once for a w x h graph, so drawing it row by row does not rebuild it;
 * ui_graph_release() frees it. */
void ui_graph_prepare(struct ui *ui, struct ui_graph *g, int w, int h);
void ui_graph_release(struct ui_graph *g);
/* Draw only row `row` of g (0: the title) at the cursor's row, columns x..x+w-1. */
void ui_graph_row(struct ui *ui, const struct ui_graph *g, int row, int x, int w, int h);
/* Markers of knobs owned by one of the subsystems in mask (1 << enum subsys), for a graph
 * of n values ending skip samples before the newest: fills back[] and text[] (text points
 * into bufs, max entries of 48 bytes). */
size_t ui_chart_marks(const struct ui *ui, unsigned mask, size_t n, size_t skip, int *back,
		      const char **text, char (*bufs)[48], size_t max);

/* Row `row` of a chart grid at the cursor, each cell in the colour role(kind) gives. */
struct chart_grid;
void ui_chart_cells(struct ui *ui, struct chart_grid *g, int row,
		    enum theme_role (*role)(unsigned kind));

/* ui_chart_tradeoff.c: the `o` key's maxsleep x slack sweep. */
int ui_tradeoff_key(struct ui *ui, int ch); /* t: start or cancel; Esc: cancel */
void ui_tradeoff_step(struct ui *ui); /* one snapshot more (from ui_hist_push) */
/* The console is closing (the source is the caller's again, after source_async_stop()): a
 * sweep under way puts its knobs back, here and now. */
void ui_tradeoff_quit(struct ui *ui);
/* ui_tune.c: the `A` key's live tuner in the pmd view. */
int ui_tune_key(struct ui *ui, int ch); /* A: start or stop; Esc: stop (start value back) */
/* ui_view_pmdhist.c: v in the pmd view on OVS: scroll to the next PMD's histograms. */
int ui_pmd_hist_key(struct ui *ui, int ch);
void ui_tune_step(struct ui *ui); /* one snapshot more (from ui_hist_push) */
void ui_tune_quit(struct ui *ui); /* the console quits: a run's start value back */
/* The curve (drop% against PMD CPU%) in rows y.. of h, full width; h includes its title. */
void ui_tradeoff_row(struct ui *ui, int row, int h);

/* ui_header.c: title, CPU meters, one line per running subsystem; returns rows used. */
int ui_header_draw(struct ui *ui);
/* ui_frame.c: draw one whole frame (header, view or overlay screen, the bottom lines) and
 * send it; render_us is its cost. */
void ui_frame_draw(struct ui *ui);

/* ui_table.c */
void ui_table_rebuild(struct ui *ui);
void ui_table_draw(struct ui *ui, int y, int h);
int ui_table_key(struct ui *ui, int ch, int page);
const char *ui_sort_name(enum ui_sort s);
/* Move the cursor to the first match of ui->search (the input line calls it). */
void ui_table_search(struct ui *ui);

/* ui_views.c: the detail views (ui_view_*.c) in the rows between header and status. */
void ui_view_draw(struct ui *ui, int y, int h);
/* Show view v from its top (the keys and the setup screen); UI_REDRAW. */
int ui_view_set(struct ui *ui, enum ui_view v);
void ui_events_note(struct ui *ui);
/* One event into the kept log of the events view (ui_views.c). */
void ui_event_push(struct ui *ui, const struct event *e);

/* ui_help.c */
void ui_help_draw(struct ui *ui);
int ui_help_key(struct ui *ui, int ch);

/* ui_input.c: the ':' prompt, '/' search and '\' filter line. */
void ui_input_begin(struct ui *ui, enum ui_input mode);
int ui_input_key(struct ui *ui, int ch);
void ui_input_draw(struct ui *ui, int y);
/* Complete the knob name in "set NAME..." / "NAME", or an enum or bool value after
 * "NAME=" or "NAME " (both forms ui_command_run() takes); returns candidates found. */
int ui_input_complete(char *line, size_t cap, char *hint, size_t hintlen);
/* Run one command line ("set k=v", "k=v", "q"); returns redo flags. */
int ui_command_run(struct ui *ui, const char *cmd);

/* ui_keys.c: the key table: ui_key() (ui_dispatch.c) dispatches from it and the help screen
 * lists it. */
#define UI_KEY_CODES 16
struct ui_keydef {
	const char *keys; /* as shown: "F7 / F8" */
	int codes[UI_KEY_CODES]; /* the curses codes it takes (0 ends the list) */
	int knob; /* the knob it turns, or -1 */
	const char *what;
	int (*fn)(struct ui *ui, int ch); /* returns redo flags */
};
extern const struct ui_keydef ui_keydefs[];
extern const size_t ui_nkeydefs;
const struct ui_keydef *ui_keydef_find(int ch); /* NULL: no key does that */
int ui_key(struct ui *ui, int ch);

/* ui_confirm.c: a key's change to a real machine (--host --write) is shown on the status
 * line and waits for Enter; on the engine it is made at once. */
/* A key's knob change: ui_knob_set() now, or after Enter where it writes the machine. */
int ui_knob_key_set(struct ui *ui, enum knob_id id, int64_t v);
/* Open a question (the status line says fmt): Enter runs fn(ui, knob, v), another key not. */
int ui_confirm_ask(struct ui *ui, int (*fn)(struct ui *ui, int knob, int64_t v), int knob,
		   int64_t v, const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Every key while a question is open: Enter answers yes, any other key no. */
int ui_confirm_key(struct ui *ui, int ch);
/* Whether a key's change waits for Enter: a source that writes the machine, with --write. */
bool ui_confirm_needed(const struct ui *ui);

/* ui_knob.c: knob writes and the status line, below the key table and the loop. */
/* Set a knob through the source; the status line says what the source stored (or why
 * the value stayed). Returns redo flags (UI_KNOB: a fresh snapshot now). */
int ui_knob_set(struct ui *ui, enum knob_id id, int64_t v);
void ui_status(struct ui *ui, bool err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Note the snapshot's knob values; a change since the last one starts its flash. */
void ui_knobs_refresh(struct ui *ui);
/* A knob's value as the screen shows it: "-" when the source has none. */
const char *ui_knob_text(const struct ui *ui, enum knob_id id, char *buf, size_t len);
/* "est is not running" and how to start it (":set est.enabled=on") where the source takes knob
 * id, else why it cannot (the live host, a recording): a hint is only of what the source takes. */
const char *ui_not_running(const struct ui *ui, const char *what, enum knob_id id, char *buf,
			   size_t len);
/* Whether the source takes knob id (a refused knob is never suggested). */
bool ui_knob_taken(const struct ui *ui, enum knob_id id);
/* A knob write's answer (at once, from the sampler thread, or a far host's reply): the
 * status says it and the shown snapshot takes the value; returns redo flags. */
int ui_knob_result(struct ui *ui, const struct source_knob_result *r);

/* ui_freeze.c: Space freezes on the shown sample, [ ] { } step through the history. */
void ui_freeze_init(struct ui *ui);
void ui_freeze_free(struct ui *ui);
/* After the live snapshot was kept (tui/after.c): the recording's news, the frozen window. */
void ui_freeze_note(struct ui *ui);
int ui_live(struct ui *ui);
/* A knob key or :set while frozen went live (ui_live()) before writing: the status line
 * says so ahead of the write's own answer. */
void ui_freeze_knob_note(struct ui *ui);
/* "LIVE" or "FROZEN 12/600 00:27:48" (counted in the window frozen) for the header. */
const char *ui_freeze_label(const struct ui *ui, char *buf, size_t len);
int ui_freeze_key(struct ui *ui, int ch);

/* ui_fleet.c: two or more --remote: the fleet view. */
bool ui_fleet_active(const struct ui *ui);
/* The host dived into from the fleet view (its --remote name), NULL in the fleet or alone. */
const char *ui_fleet_host(const struct ui *ui);
void ui_fleet_draw(struct ui *ui, int y, int h);
int ui_fleet_key(struct ui *ui, int ch);

/* ui_diag.c: the diagnoses (diag/diag.h) of the shown sample, below the key table. */
/* Log the starts and clears of the live snapshot's findings (tui/after.h put them on it). */
void ui_diag_note(struct ui *ui);
/* The worst finding on row y under the header; returns the rows used (0: none active). */
int ui_diag_line(struct ui *ui, int y);
void ui_diag_list_draw(struct ui *ui); /* the D list, full screen like help */
int ui_diag_list_key(struct ui *ui, int ch); /* its keys while open */
int ui_diag_open(struct ui *ui, int ch); /* D */
int ui_diag_fix_key(struct ui *ui, int ch); /* X: the worst finding's fix */

/* ui_setup.c: the setup screen (F2) and tunetoprc (tui/settings.h, docs/settings.md). */
/* Before the theme and the terminal: read the file, put its looks into *eff (ui->opt's copy,
 * the command line winning), the view and the sort into ui. */
void ui_setup_init(struct ui *ui, struct options *eff);
int ui_setup_key(struct ui *ui, int ch); /* the key table's entry: opens the screen */
int ui_setup_keys(struct ui *ui, int ch); /* its keys while open */
void ui_setup_draw(struct ui *ui);
/* Write tunetoprc when a setting changed since it was read; 0, or -1 with why in err. */
int ui_setup_save(struct ui *ui, char *err, size_t errlen);
/* After the terminal is back: every bad line of the settings file on stderr, one a line. */
void ui_setup_errors_print(const struct ui *ui);

/* ui_draw.c: the drawing primitives (they call nothing of the console above them). */
void ui_put(struct ui *ui, enum theme_role role, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* ui_put for a piece that must show whole or not at all (a figure and its label): false,
 * and the row ends in the cut marker, when it does not fit in what is left of the row; every
 * piece after it on that row is left out too, so no later figure reads as following it. */
/* Whether ui_put_whole would draw text whole here (for a piece drawn in several roles). */
bool ui_fits_whole(struct ui *ui, const char *text);
bool ui_put_whole(struct ui *ui, enum theme_role role, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void ui_fill_line(struct ui *ui, int y, enum theme_role role);
bool ui_flashing(const struct ui *ui, enum knob_id id);
/* A scrolling page's keys (Up, Down, PgUp, PgDn or Space, Home, End) moved *top: a page is
 * `page` lines, End goes to `end` (the caller clamps when it draws). False for other keys. */
bool ui_scroll_key(int ch, int *top, int page, int end);
/* Line i of a text page into buf with its role; false past its end. */
typedef bool (*ui_page_line)(struct ui *ui, int i, char *buf, size_t len, enum theme_role *role);
/* A page of n lines from line *top (held within them) in rows y .. y + h - 1 (the help screen,
 * the diagnosis list). */
void ui_page_draw(struct ui *ui, ui_page_line line, int *top, int n, int y, int h);

#endif
