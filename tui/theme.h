/* SPDX-License-Identifier: GPL-2.0-or-later */
/* theme.h: colour themes: roles, the forgiving `role = value` parser, built-ins. */
#ifndef TT_THEME_H
#define TT_THEME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* What a piece of the screen is; each role gets one curses colour pair. */
enum theme_role {
	ROLE_NORMAL, /* table rows, plain text */
	ROLE_TITLE, /* the first line */
	ROLE_LABEL, /* meter and field labels */
	ROLE_BAR_LOW, /* meter bar under 50% */
	ROLE_BAR_MID, /* 50..80% */
	ROLE_BAR_HIGH, /* over 80% */
	ROLE_VALUE, /* knob values and measured figures in the header */
	ROLE_TABLE_HEAD, /* column headings */
	ROLE_TABLE_SORT, /* the sort column's heading */
	ROLE_SELECTED, /* the cursor row */
	ROLE_EST, /* subsystem tags */
	ROLE_PMD,
	ROLE_BLK,
	ROLE_FLASH, /* a knob value that just changed */
	ROLE_STATUS, /* the status line */
	ROLE_ERROR, /* refused changes, hangs, drops */
	ROLE_GOOD, /* within goal */
	ROLE_WARN, /* near a limit */
	ROLE_CHART, /* sparklines and bars */
	ROLE_FKEY, /* function bar keys ("F1") */
	ROLE_FLABEL, /* function bar labels ("Help") */
	ROLE_DIM, /* the self-cost line, idle threads */
	ROLE_PROMPT, /* the ':' '/' '\' input line */
	ROLE_COUNT
};

#define THEME_COLOR_DEFAULT (-1) /* the terminal's own colour */
#define THEME_ATTR_BOLD 0x1
#define THEME_ATTR_DIM 0x2
#define THEME_ATTR_REVERSE 0x4
#define THEME_ATTR_UNDERLINE 0x8

struct theme_style {
	int16_t fg, bg; /* 256-colour index (RGB is mapped to the xterm cube) or -1 */
	int16_t fg16, bg16; /* fallback for 8/16-colour terminals: 0..15 or -1 */
	unsigned attrs; /* THEME_ATTR_*, in every mode (also monochrome) */
};

struct theme {
	char name[64];
	bool mono; /* no colour at all, attributes only */
	struct theme_style role[ROLE_COUNT];
};

#define THEME_DIAG_KEEP 8 /* messages kept; the count goes on */

/* What was wrong with a theme file: each message names its line. */
struct theme_diag {
	unsigned count;
	char msg[THEME_DIAG_KEEP][160];
};

#define THEME_MAX_BYTES (64 * 1024)
#define THEME_MAX_DEPTH 4 /* inherit nesting */

struct theme_builtin {
	const char *name, *summary, *text;
};
extern const struct theme_builtin theme_builtins[];
extern const size_t theme_builtin_count;

/*
 * Parse theme text over t (which holds the base values): a bad line is
 * skipped, its role keeps the value it had, and the line is reported in diag
 * ("origin:LINE: why"). Never fails; returns the number of bad lines.
 */
unsigned theme_parse(struct theme *t, const char *origin, const char *text,
		     struct theme_diag *diag);
/* Reset t to the built-in "default" theme. */
void theme_default(struct theme *t);
/*
 * Load a built-in by name or a file by path (a name with '/' or ending in
 * .theme, or an existing file). Returns 0 (problems inside the file are in
 * diag, the default used for those lines), or -1 with err set when the name
 * is unknown or the file unreadable (t then holds the default theme).
 */
int theme_load(struct theme *t, const char *name_or_path, struct theme_diag *diag, char *err,
	       size_t errlen);
void theme_list(FILE *out);
/* Parse a colour ("#rrggbb", "#rgb", 0..255, a name, "default"); -2 if bad. */
int theme_color_parse(const char *s);
/* Nearest of the 16 ANSI colours to a 256-colour index (-1 stays -1). */
int theme_color_to16(int c);

#endif
