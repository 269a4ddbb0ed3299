/* SPDX-License-Identifier: GPL-2.0-or-later */
/* figures.h: every figure the console's screens print, per view: label, unit, base, meaning. */
#ifndef TUI_FIGURES_H
#define TUI_FIGURES_H

#include <stddef.h>

/*
 * The screen a figure is on. FIG_ALL is the header and the footer, shown
 * above and below every view; FIG_PMD_HOST is the pmd view on a live OVS
 * (--host), whose columns are OVS's own, not the engine's.
 */
enum fig_view {
	FIG_ALL,
	FIG_OVERVIEW,
	FIG_EST,
	FIG_PMD,
	FIG_PMD_HOST,
	FIG_BLK,
	FIG_EVENTS,
	FIG_FLEET,
	FIG_VIEW_COUNT
};

/*
 * One figure. label is the text on screen, exactly as printed (a column
 * heading, or the word before a figure in a line); unit is what its number
 * counts ("-" for a name or a state); base says what a % is a % of (or a rate
 * per what), "-" when neither applies; source is where it comes from (engine
 * counter, /proc, OVS pmd-perf-show, eBPF, a knob, the console itself).
 */
struct figure {
	enum fig_view view;
	const char *json; /* the -b JSON field it shows (tunetop --list-json), NULL none */
	const char *label, *unit, *base, *source, *meaning;
};

extern const struct figure figure_table[];
extern const size_t figure_count;

/* "header", "overview", "est", "pmd", "pmd-host", "blk", "events", "fleet". */
const char *figure_view_name(enum fig_view v);
/* Its title, for the help screen and the docs ("the pmd view on a live OVS (--host)"). */
const char *figure_view_title(enum fig_view v);

#endif
