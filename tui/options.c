/* options.c: getopt_long parsing and validation of the command line. */
#include "tui/options.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/source.h"
#include "core/xalloc.h"
#include "tui/metrics/serve.h"

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
	OPT_REPLAY,
	OPT_FROM,
	OPT_TO,
	OPT_RECORD,
	OPT_AGENT,
	OPT_REMOTE,
	OPT_SSH,
	OPT_AGENT_PATH,
};

static const struct option long_opts[] = {
	{ "delay", required_argument, NULL, 'd' },
	{ "iterations", required_argument, NULL, 'n' },
	{ "batch", no_argument, NULL, 'b' },
	{ "set", required_argument, NULL, OPT_SET },
	{ "scenario", required_argument, NULL, OPT_SCENARIO },
	{ "backend", required_argument, NULL, OPT_BACKEND },
	{ "host", no_argument, NULL, OPT_HOST },
	{ "theme", required_argument, NULL, OPT_THEME },
	{ "no-color", no_argument, NULL, OPT_NO_COLOR },
	{ "no-colour", no_argument, NULL, OPT_NO_COLOR },
	{ "ascii", no_argument, NULL, OPT_ASCII },
	{ "mouse", no_argument, NULL, OPT_MOUSE },
	{ "write", no_argument, NULL, OPT_WRITE },
	{ "list-knobs", no_argument, NULL, OPT_LIST_KNOBS },
	{ "list-themes", no_argument, NULL, OPT_LIST_THEMES },
	{ "list-keys", no_argument, NULL, OPT_LIST_KEYS },
	{ "list-scenarios", no_argument, NULL, OPT_LIST_SCENARIOS },
	{ "serve", required_argument, NULL, OPT_SERVE },
	{ "output", required_argument, NULL, 'o' },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "list-metrics", no_argument, NULL, OPT_LIST_METRICS },
	{ "replay", required_argument, NULL, OPT_REPLAY },
	{ "from", required_argument, NULL, OPT_FROM },
	{ "to", required_argument, NULL, OPT_TO },
	{ "record", required_argument, NULL, OPT_RECORD },
	{ "agent", no_argument, NULL, OPT_AGENT },
	{ "remote", required_argument, NULL, OPT_REMOTE },
	{ "ssh", required_argument, NULL, OPT_SSH },
	{ "agent-path", required_argument, NULL, OPT_AGENT_PATH },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

void options_usage(FILE *out)
{
	fputs("Usage: tunetop [OPTIONS]                   interactive console on the embedded engine\n"
	      "       tunetop -b [-n COUNT] [-d SECONDS]  batch: one JSON snapshot a line on stdout\n"
	      "       tunetop experiment NAME [OPTIONS]   run an experiment, print a table\n"
	      "\n"
	      "  -d, --delay SECONDS      refresh / snapshot interval (0.05 to 3600, default 1)\n"
	      "  -n, --iterations COUNT   stop after COUNT refreshes\n"
	      "  -b, --batch              no curses; JSON Lines to stdout\n"
	      "      --set KNOB=VALUE     set a knob at start (repeatable; see --list-knobs)\n"
	      "      --scenario NAME|FILE starting knobs and workloads (see --list-scenarios)\n"
	      "      --backend engine|host, --host   the embedded engine (default) or the live host\n"
	      "      --write              let --host change the live machine (read-only without it)\n"
	      "      --theme NAME|PATH    colours (see --list-themes)\n"
	      "      --no-color           monochrome (also when NO_COLOR is set)\n"
	      "      --ascii              ASCII drawing only\n"
	      "      --mouse              enable mouse clicks\n"
	      "      --serve [ADDR:]PORT  serve GET /metrics (Prometheus / OpenMetrics text);\n"
	      "                           ADDR defaults to 127.0.0.1, [::1]:PORT for IPv6\n"
	      "  -o, --output FILE        -b writes to FILE instead of stdout\n"
	      "      --format json|openmetrics|prometheus  -b output: JSON Lines (default),\n"
	      "                           OpenMetrics text, or Prometheus 0.0.4 text (node_exporter's\n"
	      "                           textfile collector); with -o FILE the text replaces FILE\n"
	      "                           atomically each interval\n"
	      "      --list-knobs, --list-themes, --list-scenarios, --list-keys, --list-metrics\n"
	      "      --record FILE        also write every snapshot to FILE (JSON Lines; .zst/.gz compress)\n"
	      "      --replay FILE        play a recording (at its own pace; -b re-emits it)\n"
	      "      --from T, --to T     replay only from/to T: seconds into it, or 2026-12-01T10:00:00Z\n"
	      "      --agent              line protocol on stdin/stdout (snapshots out, commands in)\n"
	      "      --remote [USER@]HOST watch HOST over ssh (repeatable: the fleet view)\n"
	      "      --ssh \"CMD ARGS\"     the ssh command for --remote (default \"ssh\")\n"
	      "      --agent-path PATH    tunetop on the far side (default: tunetop from PATH)\n"
	      "  -h, --help               this text\n"
	      "  -V, --version            version\n"
	      "\n"
	      "Exit status: 0 ok, 1 runtime failure, 2 usage error.\n",
	      out);
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

/* --from/--to: a number of seconds, or an ISO 8601 time (checked again by the source). */
static bool options_time_ok(const char *s)
{
	char *end;
	int y, mo, d, h, mi, sec;
	double v = strtod(s, &end);
	if (end != s && *end == '\0' && v >= 0 && isfinite(v))
		return true;
	return sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d", &y, &mo, &d, &h, &mi, &sec) == 6;
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

int options_parse(struct options *o, int argc, char **argv, char *err, size_t errlen)
{
	int c;

	memset(o, 0, sizeof(*o));
	o->delay_s = 1.0;
	o->backend = "engine";
	o->sets = xcalloc((size_t)argc + 1, sizeof(*o->sets));
	o->remotes = xcalloc((size_t)argc + 1, sizeof(*o->remotes));

	if (argc > 1 && strcmp(argv[1], "experiment") == 0) {
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

	opterr = 0; /* our own messages, with the valid choices */
	optind = 1;
	while ((c = getopt_long(argc, argv, ":d:n:bo:hV", long_opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			if (options_parse_delay(optarg, &o->delay_s) != 0) {
				snprintf(err, errlen,
					 "-d: '%s' is not a delay in seconds (valid: %g to %g, decimals allowed)",
					 optarg, OPT_DELAY_MIN, OPT_DELAY_MAX);
				return 2;
			}
			break;
		case 'n':
			if (options_parse_count(optarg, &o->iterations) != 0) {
				snprintf(err, errlen, "-n: '%s' is not a count (valid: a whole number >= 1)",
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
					 "--format: '%s' is not valid (valid: json, openmetrics, prometheus)",
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
		case OPT_SET:
			o->sets[o->nsets++] = optarg;
			break;
		case OPT_SCENARIO:
			o->scenario = optarg;
			break;
		case OPT_BACKEND:
			if (!source_find(optarg)) {
				snprintf(err, errlen, "--backend: '%s' is not valid (valid: %s)", optarg,
					 source_kinds());
				return 2;
			}
			o->backend = optarg;
			o->host_flag = strcmp(optarg, "host") == 0;
			break;
		case OPT_HOST:
			o->backend = "host";
			o->host_flag = true;
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
		case OPT_REPLAY:
			o->replay = optarg;
			o->backend = "replay";
			break;
		case OPT_FROM:
		case OPT_TO:
			if (!options_time_ok(optarg)) {
				snprintf(err, errlen,
					 "--%s: '%s' is not a time (valid: seconds into the recording, or 2026-12-01T10:00:00Z)",
					 c == OPT_FROM ? "from" : "to", optarg);
				return 2;
			}
			*(c == OPT_FROM ? &o->from : &o->to) = optarg;
			break;
		case OPT_RECORD:
			o->record = optarg;
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
			snprintf(err, errlen, "option '%s' needs a value (see --help)", argv[optind - 1]);
			return 2;
		default:
			if (optopt)
				snprintf(err, errlen, "unknown option '-%c' (see --help)", optopt);
			else
				snprintf(err, errlen, "unknown option '%s' (see --help)", argv[optind - 1]);
			return 2;
		}
	}
	if (optind < argc) {
		snprintf(err, errlen, "unexpected argument '%s' (see --help)", argv[optind]);
		return 2;
	}
	if (o->action == ACT_RUN && !o->batch && (o->output || o->format != OPT_FORMAT_JSON)) {
		snprintf(err, errlen, "%s is for batch output: add -b",
			 o->output ? "-o" : "--format");
		return 2;
	}
	if (o->nremotes)
		o->backend = "remote"; /* --host then names the far side's source */
	if ((o->from || o->to) && !o->replay) {
		snprintf(err, errlen, "--from/--to slice a recording: they need --replay FILE");
		return 2;
	}
	if (o->replay && o->nremotes) {
		snprintf(err, errlen, "--replay and --remote are two sources: pick one");
		return 2;
	}
	if (o->agent && (o->nremotes || o->batch)) {
		snprintf(err, errlen, "--agent runs a local source: not with %s",
			 o->batch ? "-b" : "--remote");
		return 2;
	}
	const char *nc = getenv("NO_COLOR");
	if (nc && *nc)
		o->no_color = true;
	return 0;
}

void options_free(struct options *o)
{
	free(o->sets);
	o->sets = NULL;
	free(o->remotes);
	o->remotes = NULL;
}
