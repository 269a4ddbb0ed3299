/* SPDX-License-Identifier: GPL-2.0-or-later */
/* options.c: the command line parsed by getopt_long from the option table, each value
 * validated as it is read (the cross-option rules: options_check.c). */
#include "tui/options.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
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

int options_parse(struct options *o, int argc, char **argv, char *err, size_t errlen)
{
	int c;

	memset(o, 0, sizeof(*o));
	o->delay_s = 1.0;
	o->record_rotate_s = RECSTORE_ROTATE_S_DEF;
	o->record_keep_s = RECSTORE_KEEP_S_DEF;
	o->backend = "engine";
	o->sets = xcalloc((size_t)argc + 1, sizeof(*o->sets));
	o->remotes = xcalloc((size_t)argc + 1, sizeof(*o->remotes));

	if (argc > 1 && strcmp(argv[1], "experiment") == 0) {
		if (argc < 3) {
			snprintf(err, errlen,
				 "experiment: missing NAME (see 'tunetop experiment --list')");
			return 2;
		}
		o->action = ACT_EXPERIMENT;
		o->experiment = argv[2];
		o->exp_argc = argc - 2;
		o->exp_argv = argv + 2;
		return 0;
	}

	struct option long_opts[OPTIONS_TABLE_MAX + 1];
	char shorts[2 * OPTIONS_TABLE_MAX + 2];
	const char *source_opt = NULL; /* "--host" or "--backend": the option that chose it */
	options_getopt(long_opts, shorts);
	opterr = 0; /* our own messages, with the valid choices */
	optind = 1;
	while ((c = getopt_long(argc, argv, shorts, long_opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			o->delay_given = true;
			if (options_parse_delay(optarg, &o->delay_s) != 0) {
				snprintf(err, errlen,
					 "-d: '%s' is not a delay in seconds (valid: %g to %g, "
					 "decimals allowed)",
					 optarg, OPT_DELAY_MIN, OPT_DELAY_MAX);
				return 2;
			}
			break;
		case 'n':
			if (options_parse_count(optarg, &o->iterations) != 0) {
				snprintf(err, errlen,
					 "-n: '%s' is not a count (valid: a whole number >= 1)",
					 optarg);
				return 2;
			}
			break;
		case 'b':
			o->batch = true;
			break;
		case 'o':
			if (!*optarg) {
				snprintf(err, errlen, "-o: needs a file name");
				return 2;
			}
			o->output = optarg;
			break;
		case OPT_FORMAT:
			if (strcmp(optarg, "json") == 0) {
				o->format = OPT_FORMAT_JSON;
			} else if (strcmp(optarg, "openmetrics") == 0) {
				o->format = OPT_FORMAT_OPENMETRICS;
			} else if (strcmp(optarg, "prometheus") == 0) {
				o->format = OPT_FORMAT_PROMETHEUS;
			} else {
				snprintf(err, errlen,
					 "--format: '%s' is not valid (valid: json, openmetrics, "
					 "prometheus)",
					 optarg);
				return 2;
			}
			break;
		case OPT_SERVE: {
			struct serve_addr a;
			char why[160];
			if (serve_parse_addr(optarg, &a, why, sizeof(why)) != 0) {
				snprintf(err, errlen, "--serve: %s", why);
				return 2;
			}
			o->serve = optarg;
			break;
		}
		case OPT_LIST_METRICS:
			o->action = ACT_LIST_METRICS;
			break;
		case OPT_METRICS_TID:
			o->metrics_tid = true;
			break;
		case OPT_WEB_CONFIG:
			o->web_config = optarg;
			break;
		case OPT_SET:
			o->sets[o->nsets++] = optarg;
			break;
		case OPT_SCENARIO:
			o->scenario = optarg;
			break;
		case OPT_BACKEND:
			if (!source_find(optarg)) {
				snprintf(err, errlen, "--backend: '%s' is not valid (valid: %s)",
					 optarg, source_kinds());
				return 2;
			}
			o->backend = optarg;
			o->host_flag = strcmp(optarg, "host") == 0;
			source_opt = "--backend";
			break;
		case OPT_HOST:
			o->backend = "host";
			o->host_flag = true;
			source_opt = "--host";
			break;
		case OPT_THEME:
			o->theme = optarg;
			break;
		case OPT_NO_COLOR:
			o->no_color = true;
			break;
		case OPT_ASCII:
			o->ascii = true;
			break;
		case OPT_MOUSE:
			o->mouse = true;
			break;
		case OPT_WRITE:
			o->write = true;
			break;
		case OPT_NO_CONFIG:
			o->no_config = true;
			break;
		case OPT_LIST_KNOBS:
			o->action = ACT_LIST_KNOBS;
			break;
		case OPT_LIST_THEMES:
			o->action = ACT_LIST_THEMES;
			break;
		case OPT_LIST_KEYS:
			o->action = ACT_LIST_KEYS;
			break;
		case OPT_LIST_SCENARIOS:
			o->action = ACT_LIST_SCENARIOS;
			break;
		case OPT_LIST_OPTIONS:
			o->action = ACT_LIST_OPTIONS;
			break;
		case OPT_LIST_FIGURES:
			o->action = ACT_LIST_FIGURES;
			break;
		case OPT_REPLAY:
			o->replay = optarg;
			o->backend = "replay";
			break;
		case OPT_FROM:
		case OPT_TO:
			if (!options_time_ok(optarg)) {
				snprintf(err, errlen,
					 "--%s: '%s' is not a time (valid: seconds into the "
					 "recording, or 2026-12-01T10:00:00Z)",
					 c == OPT_FROM ? "from" : "to", optarg);
				return 2;
			}
			*(c == OPT_FROM ? &o->from : &o->to) = optarg;
			break;
		case OPT_RECORD:
			o->record = optarg;
			break;
		case OPT_RECORD_DIR:
			o->record_dir = optarg;
			break;
		case OPT_RECORD_ROTATE:
		case OPT_RECORD_KEEP:
		case OPT_RECORD_MAX:
			if (options_store(o, c, optarg, err, errlen) != 0)
				return 2;
			break;
		case OPT_FOLLOW:
			o->follow = true;
			break;
		case OPT_AGENT:
			o->agent = true;
			break;
		case OPT_REMOTE:
			o->remotes[o->nremotes++] = optarg;
			o->backend = "remote";
			break;
		case OPT_SSH:
			o->ssh = optarg;
			break;
		case OPT_AGENT_PATH:
			o->agent_path = optarg;
			break;
		case 'h':
			o->action = ACT_HELP;
			break;
		case 'V':
			o->action = ACT_VERSION;
			break;
		case ':':
			snprintf(err, errlen, "option '%s' needs a value (see --help)",
				 argv[optind - 1]);
			return 2;
		default:
			if (optopt)
				snprintf(err, errlen, "unknown option '-%c' (see --help)", optopt);
			else
				snprintf(err, errlen, "unknown option '%s' (see --help)",
					 argv[optind - 1]);
			return 2;
		}
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
