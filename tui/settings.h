/* SPDX-License-Identifier: GPL-2.0-or-later */
/* settings.h: the console's setup kept across runs in tunetoprc (a key=value file like htoprc). */
#ifndef TT_SETTINGS_H
#define TT_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "tui/options.h"

/*
 * What the file holds and how it is read and written: docs/settings.md. Only the console's
 * looks and layout are settings; knob values never are (a restart starts from the scenario).
 */
#define SETTINGS_VERSION 1
/* The file is a few hundred bytes; anything past this is not a settings file. */
#define SETTINGS_MAX_BYTES (16u * 1024u)
#define SETTINGS_MAX_LINE 512u
#define SETTINGS_THEME_MAX 32 /* a built-in theme's name */
/* The views and sort columns by name, in the order of the console's enum ui_view and enum
 * ui_sort (tui/console/ui.h checks the counts). */
#define SETTINGS_NVIEWS 5
#define SETTINGS_NSORTS 7
extern const char *const settings_view_names[SETTINGS_NVIEWS];

struct settings {
	int view; /* index into settings_view_names */
	int sort; /* index into settings_sort_names */
	bool sort_asc;
	double delay_s; /* the refresh interval, OPT_DELAY_MIN .. OPT_DELAY_MAX */
	char theme[SETTINGS_THEME_MAX]; /* a built-in theme (tui/theme_builtin.c) */
	bool ascii; /* charts and meters in ASCII even on a UTF-8 terminal */
	bool mouse;
};

/* The console's own defaults (what a run without a file shows). */
void settings_defaults(struct settings *s);
bool settings_equal(const struct settings *a, const struct settings *b);

/* $XDG_CONFIG_HOME/tunetop/tunetoprc (an absolute XDG_CONFIG_HOME only, as the XDG spec
 * says), else $HOME/.config/tunetop/tunetoprc. 0, or -1 with why in err. */
int settings_path(char *buf, size_t len, char *err, size_t errlen);

/*
 * Parse text (what path holds) over s. A line that names no known key is skipped; a bad line
 * (no '=', a bad value, a version this tunetop does not read) is skipped too and keeps the
 * value s had. Returns 0 when clean, 1 when only unknown keys were skipped (msg: one
 * warning naming the first and how many), -1 on a bad line (msg: "PATH:LINE: why" for every
 * bad line, one a line, as many as msglen holds; the good lines still apply).
 */
int settings_parse(struct settings *s, const char *path, const char *text, char *msg,
		   size_t msglen);
/* The file's text for s, version line first; the length written (it always fits a few
 * hundred bytes; len must be at least SETTINGS_MAX_LINE). */
size_t settings_format(const struct settings *s, char *buf, size_t len);

/*
 * Read path over s (settings_defaults() first is the caller's). A missing file is 0 with s
 * untouched; a symlink is refused (it is never written through either); a file over
 * SETTINGS_MAX_BYTES or a line over SETTINGS_MAX_LINE is -1 with s untouched. Otherwise as
 * settings_parse.
 */
int settings_load(struct settings *s, const char *path, char *msg, size_t msglen);
/* Write s to path atomically (core/safefile.h), its directory made 0700 when missing.
 * 0, or -1 / SAFEFILE_REFUSED (a symlink, ...) with why in err. */
int settings_save(const struct settings *s, const char *path, char *err, size_t errlen);

/* The command line wins over the file: -d, --theme / --no-color (and NO_COLOR), --ascii and
 * --mouse replace what the file said, for this run. */
void settings_apply_options(struct settings *s, const struct options *o);
/*
 * What to write back: the file's values, with each setting changed during the run (now
 * differs from start, what was in force at start) taking its new value. So a -d given once
 * is not kept, but a refresh chosen in the setup screen is.
 */
void settings_merge(const struct settings *file, const struct settings *start,
		    const struct settings *now, struct settings *out);

#endif
