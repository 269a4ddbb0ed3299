/* SPDX-License-Identifier: GPL-2.0-or-later */
/* options_table.h: the one option table of the command line, inside tui/options*.c only:
 * parsing (options.c), checks (options_check.c) and help (options_help.c) read it. */
#ifndef TT_OPTIONS_TABLE_H
#define TT_OPTIONS_TABLE_H

#include <stddef.h>

/* Options without a short letter: getopt_long's values past any char. */
enum {
	OPT_SET = 256,
	OPT_SCENARIO,
	OPT_BACKEND,
	OPT_HOST,
	OPT_THEME,
	OPT_NO_COLOR,
	OPT_ASCII,
	OPT_MOUSE,
	OPT_WRITE,
	OPT_LIST_KNOBS,
	OPT_LIST_THEMES,
	OPT_LIST_KEYS,
	OPT_LIST_SCENARIOS,
	OPT_SERVE,
	OPT_FORMAT,
	OPT_LIST_METRICS,
	OPT_LIST_FIGURES,
	OPT_LIST_JSON,
	OPT_METRICS_TID,
	OPT_WEB_CONFIG,
	OPT_REPLAY,
	OPT_FROM,
	OPT_TO,
	OPT_RECORD,
	OPT_RECORD_DIR,
	OPT_RECORD_ROTATE,
	OPT_RECORD_KEEP,
	OPT_RECORD_MAX,
	OPT_FOLLOW,
	OPT_AGENT,
	OPT_REMOTE,
	OPT_SSH,
	OPT_AGENT_PATH,
	OPT_LIST_OPTIONS,
	OPT_NO_CONFIG,
};

/*
 * The one option table. getopt's long options and short string, --help and --list-options
 * are built from it, and through --list-options the man page's OPTIONS, docs/reference.md and
 * the bash completion (tools/readme_gen.py), so a new option is written here once.
 * complete: what the argument completes to: "<file>", "<knob>", "<scenario>", "<theme>",
 * a list of words, or NULL (free text). help is one line; more is the man page's detail.
 */
struct opt_entry {
	const char *name; /* long name, without "--" */
	int val; /* short letter, or an OPT_* above 255 */
	const char *arg; /* argument's name; NULL: takes none */
	const char *group;
	const char *complete;
	const char *help;
	const char *more;
};

/* Every option, in --help's order within a group (options_table.c). At most OPTIONS_TABLE_MAX
 * rows (checked where the table is), so the parser sizes getopt's tables without a VLA. */
#define OPTIONS_TABLE_MAX 96
extern const struct opt_entry options_table[];
extern const size_t options_table_n;

/* --help's sections, in order; a NULL title prints no heading. */
struct opt_group {
	const char *group, *title;
};
extern const struct opt_group options_groups[];
extern const size_t options_groups_n;

#endif
