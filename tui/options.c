/* SPDX-License-Identifier: GPL-2.0-or-later */
/* options.c: the command line parsed by getopt_long from the option table, each value
 * validated as it is read (the cross-option rules: options_check.c). */
#include "tui/options.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/replay/recstore.h"
#include "backends/replay/snapdec.h"
#include "backends/source.h"
#include "core/xalloc.h"
#include "tui/options_check.h"
#include "tui/options_table.h"
#include "tui/metrics/serve.h"

/* getopt_long's table and short string, from options_table (":" first: missing values are ours). */
static void options_getopt(struct option *lo, char *shorts)
{
	char *s = shorts;
	*s++ = ':';
	for (size_t i = 0; i < options_table_n; i++) {
		lo[i] = (struct option){options_table[i].name,
					options_table[i].arg ? required_argument : no_argument,
					NULL, options_table[i].val};
		if (options_table[i].val < 256) {
			*s++ = (char)options_table[i].val;
			if (options_table[i].arg)
				*s++ = ':';
		}
	}
	lo[options_table_n] = (struct option){NULL, 0, NULL, 0};
	*s = '\0';
}

int options_parse_delay(const char *s, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || *end != '\0' || !isfinite(v) || v < OPT_DELAY_MIN ||
	    v > OPT_DELAY_MAX)
		return -1;
	*out = v;
	return 0;
}

/* --from/--to: a number of seconds (any, saturating past the end), or a valid ISO 8601 UTC
 * time; the source reads it again against the recording's first sample. */
static bool options_time_ok(const char *s)
{
	char *end;
	uint64_t ns;
	double v = strtod(s, &end);
	if (end != s && *end == '\0' && v >= 0 && isfinite(v))
		return true;
	return snapdec_iso8601_strict(s, &ns) == 0;
}

static int options_parse_count(const char *s, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end != '\0' || v < 1)
		return -1;
	*out = v;
	return 0;
}

/* --record-rotate, --record-keep, --record-max-size into o (backends/replay/recstore.h). */
static int options_store(struct options *o, int c, const char *arg, char *err, size_t errlen)
{
	struct recstore_conf rc = {0};
	uint64_t v;
	o->store_given = true;
	if (c == OPT_RECORD_ROTATE && recstore_parse_rotate(arg, &rc) == 0) {
		o->record_rotate_s = rc.rotate_s;
		o->record_rotate_bytes = rc.rotate_bytes;
		return 0;
	}
	if (c == OPT_RECORD_KEEP && recstore_parse_age(arg, &v) == 0) {
		o->record_keep_s = v;
		return 0;
	}
	if (c == OPT_RECORD_MAX && recstore_parse_size(arg, &v) == 0) {
		o->record_max_bytes = v;
		return 0;
	}
	snprintf(err, errlen, "--record-%s: '%s' is not %s",
		 c == OPT_RECORD_ROTATE ? "rotate"
		 : c == OPT_RECORD_KEEP ? "keep"
					: "max-size",
		 arg,
		 c == OPT_RECORD_ROTATE ? "an age or a size (valid: 1h, 30m, 20KB, 64MB)"
		 : c == OPT_RECORD_KEEP ? "an age (valid: 28d, 12h, 0)"
					: "a size (valid: 500MB, 2GB)");
	return 2;
}

/* An option whose value is checked as it is read (-d, -n, -o, --format, --serve, --backend,
 * --from, --to, --record-rotate/keep/max-size): 0, 2 with err filled, or 1 when c is none. */
static int options_checked(struct options *o, int c, const char *arg, const char **source_opt,
			   char *err, size_t errlen)
{
	switch (c) {
	case 'd':
		o->delay_given = true;
		if (options_parse_delay(arg, &o->delay_s) != 0) {
			snprintf(err, errlen,
				 "-d: '%s' is not a delay in seconds (valid: %g to %g, "
				 "decimals allowed)",
				 arg, OPT_DELAY_MIN, OPT_DELAY_MAX);
			return 2;
		}
		return 0;
	case 'n':
		if (options_parse_count(arg, &o->iterations) != 0) {
			snprintf(err, errlen,
				 "-n: '%s' is not a count (valid: a whole number >= 1)", arg);
			return 2;
		}
		return 0;
	case 'o':
		if (!*arg) {
			snprintf(err, errlen, "-o: needs a file name");
			return 2;
		}
		o->output = arg;
		return 0;
	case OPT_FORMAT:
		if (strcmp(arg, "json") == 0) {
			o->format = OPT_FORMAT_JSON;
		} else if (strcmp(arg, "openmetrics") == 0) {
			o->format = OPT_FORMAT_OPENMETRICS;
		} else if (strcmp(arg, "prometheus") == 0) {
			o->format = OPT_FORMAT_PROMETHEUS;
		} else {
			snprintf(err, errlen,
				 "--format: '%s' is not valid (valid: json, openmetrics, "
				 "prometheus)",
				 arg);
			return 2;
		}
		return 0;
	case OPT_SERVE: {
		struct serve_addr a;
		char why[160];
		if (serve_parse_addr(arg, &a, why, sizeof(why)) != 0) {
			snprintf(err, errlen, "--serve: %s", why);
			return 2;
		}
		o->serve = arg;
		return 0;
	}
	case OPT_BACKEND:
		if (!source_find(arg)) {
			snprintf(err, errlen, "--backend: '%s' is not valid (valid: %s)", arg,
				 source_kinds());
			return 2;
		}
		o->backend = arg;
		o->host_flag = strcmp(arg, "host") == 0;
		*source_opt = "--backend";
		return 0;
	case OPT_FROM:
	case OPT_TO:
		if (!options_time_ok(arg)) {
			snprintf(err, errlen,
				 "--%s: '%s' is not a time (valid: seconds into the "
				 "recording, or 2026-12-01T10:00:00Z)",
				 c == OPT_FROM ? "from" : "to", arg);
			return 2;
		}
		*(c == OPT_FROM ? &o->from : &o->to) = arg;
		return 0;
	case OPT_RECORD_ROTATE:
	case OPT_RECORD_KEEP:
	case OPT_RECORD_MAX:
		return options_store(o, c, arg, err, errlen) != 0 ? 2 : 0;
	}
	return 1;
}

/* An option taken as it is (a flag, a name or a path): false when c is none. */
static bool options_plain(struct options *o, int c, char *arg, const char **source_opt)
{
#define OFF(f) offsetof(struct options, f)
	static const struct {
		int c;
		size_t off;
		bool flag; /* a bool set, else the argument kept */
	} plain[] = {
	    {'b', OFF(batch), true},
	    {OPT_METRICS_TID, OFF(metrics_tid), true},
	    {OPT_NO_COLOR, OFF(no_color), true},
	    {OPT_ASCII, OFF(ascii), true},
	    {OPT_MOUSE, OFF(mouse), true},
	    {OPT_WRITE, OFF(write), true},
	    {OPT_NO_CONFIG, OFF(no_config), true},
	    {OPT_FOLLOW, OFF(follow), true},
	    {OPT_AGENT, OFF(agent), true},
	    {OPT_WEB_CONFIG, OFF(web_config), false},
	    {OPT_SCENARIO, OFF(scenario), false},
	    {OPT_THEME, OFF(theme), false},
	    {OPT_RECORD, OFF(record), false},
	    {OPT_RECORD_DIR, OFF(record_dir), false},
	    {OPT_SSH, OFF(ssh), false},
	    {OPT_AGENT_PATH, OFF(agent_path), false},
	};
#undef OFF
	for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]); i++) {
		if (plain[i].c != c)
			continue;
		if (plain[i].flag)
			*(bool *)((char *)o + plain[i].off) = true;
		else
			*(const char **)((char *)o + plain[i].off) = arg;
		return true;
	}
	switch (c) {
	case OPT_SET:
		o->sets[o->nsets++] = arg;
		return true;
	case OPT_HOST:
		o->backend = "host";
		o->host_flag = true;
		*source_opt = "--host";
		return true;
	case OPT_REPLAY:
		o->replay = arg;
		o->backend = "replay";
		return true;
	case OPT_REMOTE:
		o->remotes[o->nremotes++] = arg;
		o->backend = "remote";
		return true;
	}
	return false;
}

/* An option that asks for something other than a run (--list-*, -h, -V): false when c is none. */
static bool options_action(struct options *o, int c)
{
	static const struct {
		int c;
		enum opt_action action;
	} acts[] = {
	    {OPT_LIST_METRICS, ACT_LIST_METRICS},
	    {OPT_LIST_KNOBS, ACT_LIST_KNOBS},
	    {OPT_LIST_THEMES, ACT_LIST_THEMES},
	    {OPT_LIST_KEYS, ACT_LIST_KEYS},
	    {OPT_LIST_SCENARIOS, ACT_LIST_SCENARIOS},
	    {OPT_LIST_OPTIONS, ACT_LIST_OPTIONS},
	    {OPT_LIST_FIGURES, ACT_LIST_FIGURES},
	    {OPT_LIST_JSON, ACT_LIST_JSON},
	    {'h', ACT_HELP},
	    {'V', ACT_VERSION},
	};
	for (size_t i = 0; i < sizeof(acts) / sizeof(acts[0]); i++)
		if (acts[i].c == c) {
			o->action = acts[i].action;
			return true;
		}
	return false;
}

/* getopt_long's ':' (a value missing) or '?' (an unknown option): 2 with err filled. */
static int options_unknown(int c, char **argv, char *err, size_t errlen)
{
	if (c == ':')
		snprintf(err, errlen, "option '%s' needs a value (see --help)", argv[optind - 1]);
	else if (optopt)
		snprintf(err, errlen, "unknown option '-%c' (see --help)", optopt);
	else
		snprintf(err, errlen, "unknown option '%s' (see --help)", argv[optind - 1]);
	return 2;
}

/* The defaults before any option is read. */
static void options_defaults(struct options *o, int argc)
{
	memset(o, 0, sizeof(*o));
	o->delay_s = 1.0;
	o->record_rotate_s = RECSTORE_ROTATE_S_DEF;
	o->record_keep_s = RECSTORE_KEEP_S_DEF;
	o->backend = "engine";
	o->sets = xcalloc((size_t)argc + 1, sizeof(*o->sets));
	o->remotes = xcalloc((size_t)argc + 1, sizeof(*o->remotes));
}

/* `tunetop experiment NAME ARGS...`: the rest of the line is the experiment's. */
static int options_experiment(struct options *o, int argc, char **argv, char *err, size_t errlen)
{
	if (argc < 3) {
		snprintf(err, errlen, "experiment: missing NAME (see 'tunetop experiment --list')");
		return 2;
	}
	o->action = ACT_EXPERIMENT;
	o->experiment = argv[2];
	o->exp_argc = argc - 2;
	o->exp_argv = argv + 2;
	return 0;
}

int options_parse(struct options *o, int argc, char **argv, char *err, size_t errlen)
{
	int c;

	options_defaults(o, argc);
	if (argc > 1 && strcmp(argv[1], "experiment") == 0)
		return options_experiment(o, argc, argv, err, errlen);

	struct option long_opts[OPTIONS_TABLE_MAX + 1];
	char shorts[2 * OPTIONS_TABLE_MAX + 2];
	const char *source_opt = NULL; /* "--host" or "--backend": the option that chose it */
	options_getopt(long_opts, shorts);
	opterr = 0; /* our own messages, with the valid choices */
	optind = 1;
	while ((c = getopt_long(argc, argv, shorts, long_opts, NULL)) != -1) {
		int r = options_checked(o, c, optarg, &source_opt, err, errlen);
		if (r == 1 && (options_plain(o, c, optarg, &source_opt) || options_action(o, c)))
			r = 0;
		if (r == 1)
			r = options_unknown(c, argv, err, errlen);
		if (r)
			return r;
	}
	if (optind < argc) {
		snprintf(err, errlen, "unexpected argument '%s' (see --help)", argv[optind]);
		return 2;
	}
	if (o->nremotes)
		o->backend = "remote"; /* --host then names the far side's source */
	const char *nc = getenv("NO_COLOR");
	if (nc && *nc)
		o->no_color = true;
	return options_check(o, source_opt, err, errlen);
}

void options_free(struct options *o)
{
	free(o->sets);
	o->sets = NULL;
	free(o->remotes);
	o->remotes = NULL;
}
