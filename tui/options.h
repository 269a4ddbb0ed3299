/* SPDX-License-Identifier: GPL-2.0-or-later */
/* options.h: the command line (tunetop.1, --help), parsed into one struct. */
#ifndef TT_OPTIONS_H
#define TT_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define TUNETOP_VERSION "0.1.0"

enum opt_action {
	ACT_RUN,
	ACT_HELP,
	ACT_VERSION,
	ACT_LIST_KNOBS,
	ACT_LIST_THEMES,
	ACT_LIST_SCENARIOS,
	ACT_LIST_KEYS,
	ACT_EXPERIMENT,
	ACT_LIST_METRICS,
	ACT_LIST_FIGURES,
	ACT_LIST_JSON,
	ACT_LIST_OPTIONS,
};

struct options {
	enum opt_action action;
	double delay_s; /* 0.05 .. 3600, default 1.0 */
	long iterations; /* 0 = forever */
	bool batch;
	const char **sets; /* --set KNOB=VALUE, in order */
	size_t nsets;
	const char *scenario; /* NULL: "default" */
	const char *backend; /* "engine" or "host" */
	bool write; /* --write: the host source may change the live machine */
	const char *theme;
	bool no_color, ascii, mouse;
	const char *experiment; /* ACT_EXPERIMENT: its name */
	int exp_argc; /* and the arguments after it */
	char **exp_argv;
	const char *serve; /* --serve [ADDR:]PORT: the /metrics endpoint (NULL: none) */
	bool metrics_tid; /* --metrics-tid: thread series by tid, not summed by name */
	const char *web_config; /* --web.config.file FILE: TLS, basic auth (NULL: plain) */
	const char *output; /* -o FILE: batch output there instead of stdout */
	int format; /* --format: enum opt_format */
	const char *replay; /* --replay FILE: a recording as the source */
	const char *from, *to; /* --from / --to: the slice of it to play */
	const char *record; /* --record FILE: every snapshot also to FILE (.zst/.gz compress) */
	const char
	    *record_dir; /* --record-dir DIR: a rotating store (backends/replay/recstore.h) */
	uint64_t record_rotate_s, record_rotate_bytes; /* --record-rotate (one of the two) */
	uint64_t record_keep_s, record_max_bytes; /* --record-keep, --record-max-size (0: none) */
	bool store_given; /* one of the three above was given */
	bool follow; /* --follow: --replay keeps reading a file still being written */
	bool agent; /* --agent: the line protocol on stdin/stdout (tui/agent.c) */
	const char **remotes; /* --remote [USER@]HOST, in order */
	size_t nremotes;
	const char *ssh; /* --ssh "ssh -p 2222 ...": the command line before HOST */
	const char *agent_path; /* --agent-path: tunetop on the far side (default "tunetop") */
	bool host_flag; /* --host or --backend host was given (with --remote: the far side's) */
	bool delay_given; /* -d was given: it wins over the settings file (tui/settings.h) */
	bool no_config; /* --no-config: the settings file is neither read nor written */
};

/* -b output: JSON Lines, OpenMetrics 1.0.0 text, or the Prometheus 0.0.4 text (the one
 * node_exporter's textfile collector parses: it refuses OpenMetrics' "info" type). */
enum opt_format { OPT_FORMAT_JSON, OPT_FORMAT_OPENMETRICS, OPT_FORMAT_PROMETHEUS };

#define OPT_DELAY_MIN 0.05
#define OPT_DELAY_MAX 3600.0

/*
 * Parse argv. Returns 0, or 2 (a usage error) with the message in err.
 * Validates numbers and ranges; knob names and values are checked later
 * against the knob table (still usage errors).
 */
int options_parse(struct options *o, int argc, char **argv, char *err, size_t errlen);
void options_free(struct options *o);
void options_usage(FILE *out);
/* --list-options: the option table, one option a line, tab-separated (tui/options_help.c). */
void options_list(FILE *out);
/* Strict decimal parse for -d; -1 when not a number in range. */
int options_parse_delay(const char *s, double *out);

#endif
