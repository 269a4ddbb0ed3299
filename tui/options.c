/* options.c: getopt_long parsing and validation of the command line. */
#include "tui/options.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/recstore.h"
#include "backends/snapdec.h"
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
	OPT_LIST_FIGURES,
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

static const struct opt_entry opt_table[] = {
    {"delay", 'd', "SECONDS", "general", NULL,
     "refresh / snapshot interval (0.05 to 3600, default 1)",
     "Decimals allowed. In batch mode the first line covers min(delay, 0.1 s). A replay "
     "plays at its recorded pace instead."},
    {"iterations", 'n', "COUNT", "general", NULL,
     "stop after COUNT refreshes (the console too, like htop)", NULL},
    {"batch", 'b', NULL, "general", NULL, "no curses; JSON Lines to stdout",
     "One snapshot (schema 1) a line, flushed per line. A closed pipe or SIGINT, SIGTERM "
     "or SIGHUP ends it quietly with status 0, every thread joined."},
    {"set", OPT_SET, "KNOB=VALUE", "general", "<knob>",
     "set a knob at start (repeatable; see --list-knobs)",
     "Applied in order after the scenario, with the validation of the : prompt."},
    {"scenario", OPT_SCENARIO, "NAME|FILE", "general", "<scenario>",
     "starting knobs and workloads (default: default; see --list-scenarios)",
     "A file holds knob = value lines; # starts a comment; scenario = NAME first applies "
     "a built-in or another file, found beside the including one."},
    {"backend", OPT_BACKEND, "engine|host", "source", "engine host",
     "the embedded engine (default) or the live host", NULL},
    {"host", OPT_HOST, NULL, "source", NULL, "the live host: short for --backend host",
     "Reads threads, CPUs, links, block completions and Open vSwitch's PMDs of this "
     "machine; knobs with a host counterpart drive it (with --write)."},
    {"write", OPT_WRITE, NULL, "source", NULL,
     "let --host change the live machine (read-only without it)",
     "Governor, rq_affinity, OVS max sleep, timer slack. Without it such a --set exits 2. "
     "Every host write is read back and logged to the events view and syslog."},
    {"replay", OPT_REPLAY, "FILE", "source", "<file>",
     "play a recording (plain, .gz, .zst) as the source; -b re-emits it",
     "At its recorded pace; knob changes are refused; bad lines are skipped and counted. "
     "A directory of --record-dir is one recording, its files in time order; :goto 10:42 "
     "moves in it. "
     "Not with --host, --backend, --write, --scenario or --remote: a recording is the "
     "source."},
    {"follow", OPT_FOLLOW, NULL, "source", NULL,
     "with --replay: keep reading a recording still being written",
     "As tail -f: what the file holds, then each line as it is appended (a DIR: its newest "
     "file, then the next one when it appears). Read on a thread of its own, in bounded "
     "memory."},
    {"from", OPT_FROM, "T", "source", NULL,
     "replay only from T: seconds into the recording, or 2026-12-01T10:00:00Z", NULL},
    {"to", OPT_TO, "T", "source", NULL, "replay only to T (as --from)",
     "--from after --to, a time that is not one, or a slice holding no snapshot exits 2."},
    {"remote", OPT_REMOTE, "[USER@]HOST", "source", NULL,
     "watch HOST over ssh (repeatable: two or more give the fleet view)",
     "Runs tunetop --agent there; --host, --scenario and --set go to the far side. With -b, "
     "every host's snapshots with a \"host\" field, to stdout or -o FILE (not with --serve or "
     "--format)."},
    {"ssh", OPT_SSH, "\"CMD ARGS\"", "source", NULL,
     "the ssh command for --remote (default ssh; -F FILE for host aliases)", NULL},
    {"agent-path", OPT_AGENT_PATH, "PATH", "source", "<file>",
     "tunetop on the far side (default: tunetop from its PATH)", NULL},
    {"agent", OPT_AGENT, NULL, "source", NULL,
     "line protocol on stdin/stdout (what --remote runs on the far side)",
     "Snapshots out (the first whole, then deltas); set KNOB VALUE, interval S, full and "
     "quit in, one {\"reply\":...} line each. Ends when stdin closes. Not with -b, "
     "--remote, --serve or --record."},
    {"serve", OPT_SERVE, "[ADDR:]PORT", "output", NULL,
     "serve GET /metrics (Prometheus text; OpenMetrics when asked)",
     "ADDR defaults to 127.0.0.1; [::1]:PORT for IPv6. From the latest snapshot: a scrape "
     "costs no sampling. With the console and with -b."},
    {"web.config.file", OPT_WEB_CONFIG, "FILE", "output", "<file>",
     "--serve with TLS and/or basic auth from FILE (node_exporter's web configuration)",
     "YAML: tls_server_config (cert_file, key_file, client_auth_type, client_ca_file, "
     "min_version, max_version) and basic_auth_users (user: bcrypt hash); an unknown key "
     "exits 2. Without it /metrics is plain HTTP (docs/metrics.md, Deploying the exporter)."},
    {"metrics-tid", OPT_METRICS_TID, NULL, "output", NULL,
     "per-thread metrics carry a tid label (default: one series per thread name)",
     "Thread series are summed by thread name so that restarted threads do not make new "
     "series (docs/metrics.md, Threads); with this option every thread is its own series."},
    {"output", 'o', "FILE", "output", "<file>", "-b writes to FILE instead of stdout", NULL},
    {"format", OPT_FORMAT, "json|openmetrics|prometheus", "output", "json openmetrics prometheus",
     "-b output: JSON Lines (default), OpenMetrics or Prometheus 0.0.4 text",
     "prometheus is the text node_exporter's textfile collector reads. With -o FILE the "
     "text replaces FILE atomically each interval (a temporary file, then rename)."},
    {"record", OPT_RECORD, "FILE", "output", "<file>",
     "also write every snapshot to FILE (JSON Lines; .zst/.gz compress)",
     "Flushed per line, by a writer thread: a slow disk never stalls a frame."},
    {"record-dir", OPT_RECORD_DIR, "DIR", "output", "<file>",
     "record into DIR: zstd files that rotate, with retention (--replay DIR plays them)",
     "Files tunetop-YYYYMMDD-HHMMSS.jsonl.zst (UTC, their start); DIR is made 0750 and "
     "refused when it is a symlink or not ours. docs/recording.md has the sizes per hour."},
    {"record-rotate", OPT_RECORD_ROTATE, "AGE|SIZE", "output", NULL,
     "--record-dir: a new file every AGE (default 1h) or past SIZE (20KB, 64MB)", NULL},
    {"record-keep", OPT_RECORD_KEEP, "AGE", "output", NULL,
     "--record-dir: delete files older than AGE (default 28d; 0 keeps all)", NULL},
    {"record-max-size", OPT_RECORD_MAX, "SIZE", "output", NULL,
     "--record-dir: delete the oldest files while DIR holds more than SIZE",
     "Retention runs at each rotation, on the writer thread, on the store's own names only."},
    {"theme", OPT_THEME, "NAME|PATH", "looks", "<theme>", "colours (see --list-themes)", NULL},
    {"no-color", OPT_NO_COLOR, NULL, "looks", NULL, "monochrome (also when NO_COLOR is set)", NULL},
    {"no-colour", OPT_NO_COLOR, NULL, "alias", NULL, "the same as --no-color", NULL},
    {"ascii", OPT_ASCII, NULL, "looks", NULL, "ASCII drawing only (as under LANG=C)", NULL},
    {"mouse", OPT_MOUSE, NULL, "looks", NULL,
     "enable mouse clicks (off by default, so terminal selection works)", NULL},
    {"no-config", OPT_NO_CONFIG, NULL, "looks", NULL,
     "neither read nor write the console's settings (~/.config/tunetop/tunetoprc)",
     "The file ($XDG_CONFIG_HOME/tunetop/tunetoprc) keeps the view, the sort, -d, the theme, "
     "the chart style and the mouse from the setup screen (F2); options given here win over "
     "it for the run. Knob values are never kept."},
    {"list-knobs", OPT_LIST_KNOBS, NULL, "lists", NULL,
     "print the knobs: name, valid values, default, meaning", NULL},
    {"list-themes", OPT_LIST_THEMES, NULL, "lists", NULL, "print the built-in themes", NULL},
    {"list-scenarios", OPT_LIST_SCENARIOS, NULL, "lists", NULL, "print the scenarios", NULL},
    {"list-keys", OPT_LIST_KEYS, NULL, "lists", NULL, "print the console's keys", NULL},
    {"list-metrics", OPT_LIST_METRICS, NULL, "lists", NULL,
     "print the /metrics families: name, type, unit, labels, help", NULL},
    {"list-figures", OPT_LIST_FIGURES, NULL, "lists", NULL,
     "print the screen's figures: view, label, unit, base, source, meaning", NULL},
    {"list-options", OPT_LIST_OPTIONS, NULL, "lists", NULL,
     "print this option table, tab-separated (docs and completion are made from it)", NULL},
    {"help", 'h', NULL, "info", NULL, "this text", NULL},
    {"version", 'V', NULL, "info", NULL, "print the version", NULL},
};
#define OPT_N (sizeof(opt_table) / sizeof(opt_table[0]))

static const struct {
	const char *group, *title;
} opt_groups[] = {
    {"general", NULL},	{"source", "Sources"}, {"output", "Output"},
    {"looks", "Looks"}, {"lists", "Lists"},    {"info", NULL},
};

/* "-d, --delay SECONDS" or "    --set KNOB=VALUE" */
static int options_left(const struct opt_entry *e, char *buf, size_t len)
{
	char s[8] = "    ";
	if (e->val < 256)
		snprintf(s, sizeof(s), "-%c, ", e->val);
	return snprintf(buf, len, "%s--%s%s%s", s, e->name, e->arg ? " " : "",
			e->arg ? e->arg : "");
}

/* help after the left column, wrapped at 79 columns under itself. */
static void options_put_help(FILE *out, const char *left, const char *help)
{
	enum { COL = 28, WIDTH = 79 };
	int at = fprintf(out, "  %s", left);
	if (at > COL - 1) {
		fputc('\n', out);
		at = 0;
	}
	fprintf(out, "%*s", COL - at, "");
	at = COL;
	for (const char *w = help; *w;) {
		size_t n = strcspn(w, " ");
		if (at > COL && at + 1 + (int)n > WIDTH) {
			fprintf(out, "\n%*s", COL, "");
			at = COL;
		} else if (at > COL) {
			fputc(' ', out);
			at++;
		}
		fwrite(w, 1, n, out);
		at += (int)n;
		w += n;
		while (*w == ' ')
			w++;
	}
	fputc('\n', out);
}

void options_usage(FILE *out)
{
	char left[96];
	fputs(
	    "Usage: tunetop [OPTIONS]                   interactive console on the embedded "
	    "engine\n"
	    "       tunetop -b [-n COUNT] [-d SECONDS]  batch: one JSON snapshot a line on stdout\n"
	    "       tunetop experiment NAME [OPTIONS]   run an experiment, print a table\n",
	    out);
	for (size_t g = 0; g < sizeof(opt_groups) / sizeof(opt_groups[0]); g++) {
		fprintf(out, "\n%s%s", opt_groups[g].title ? opt_groups[g].title : "",
			opt_groups[g].title ? ":\n" : "");
		for (size_t i = 0; i < OPT_N; i++) {
			if (strcmp(opt_table[i].group, opt_groups[g].group) != 0)
				continue;
			options_left(&opt_table[i], left, sizeof(left));
			options_put_help(out, left, opt_table[i].help);
		}
	}
	fputs("\nExit status: 0 ok, 1 runtime failure, 2 usage error.\n", out);
}

/* One option a line: --NAME, -X or -, ARG or -, group, completion or -, help, more or -. */
void options_list(FILE *out)
{
	for (size_t i = 0; i < OPT_N; i++) {
		const struct opt_entry *e = &opt_table[i];
		char s[4] = "-";
		if (e->val < 256)
			snprintf(s, sizeof(s), "-%c", e->val);
		fprintf(out, "--%s\t%s\t%s\t%s\t%s\t%s\t%s\n", e->name, s, e->arg ? e->arg : "-",
			e->group, e->complete ? e->complete : "-", e->help,
			e->more ? e->more : "-");
	}
}

/* getopt_long's table and short string, from opt_table (":" first: missing values are ours). */
static void options_getopt(struct option *lo, char *shorts)
{
	char *s = shorts;
	*s++ = ':';
	for (size_t i = 0; i < OPT_N; i++) {
		lo[i] = (struct option){opt_table[i].name,
					opt_table[i].arg ? required_argument : no_argument, NULL,
					opt_table[i].val};
		if (opt_table[i].val < 256) {
			*s++ = (char)opt_table[i].val;
			if (opt_table[i].arg)
				*s++ = ':';
		}
	}
	lo[OPT_N] = (struct option){NULL, 0, NULL, 0};
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

static int options_conflicts(struct options *o, const char *source_opt, char *err, size_t errlen);

/* --record-rotate, --record-keep, --record-max-size into o (backends/recstore.h). */
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

	struct option long_opts[OPT_N + 1];
	char shorts[2 * OPT_N + 2];
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
	if (o->follow && (!o->replay || o->from || o->to)) {
		snprintf(err, errlen, "--follow reads a recording being written: %s",
			 o->replay ? "not with --from/--to" : "it needs --replay");
		return 2;
	}
	if (o->store_given && !o->record_dir) {
		snprintf(err, errlen, "--record-rotate/-keep/-max-size need --record-dir DIR");
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
	return options_conflicts(o, source_opt, err, errlen);
}

/*
 * Options that cannot work together are a usage error naming both, never one silently
 * winning or ignored: a recording is its own source and read-only; the agent's stdout is
 * the protocol and it neither serves nor records; -b --remote writes every host's JSON lines
 * (to stdout or -o FILE), so the one-source outputs (--serve, the metrics text) have nothing
 * to take.
 */
static int options_conflicts(struct options *o, const char *source_opt, char *err, size_t errlen)
{
	const char *a = NULL, *b = NULL, *why = "";
	if (o->replay && source_opt)
		a = "--replay", b = source_opt, why = "two sources: pick one";
	else if (o->replay && o->write)
		a = "--replay", b = "--write", why = "a recording is read-only";
	else if (o->replay && o->scenario)
		a = "--replay", b = "--scenario", why = "a recording's knobs are what they were";
	else if (o->agent && o->serve)
		a = "--agent", b = "--serve", why = "serve on the console's side of --remote";
	else if (o->record && o->record_dir)
		a = "--record", b = "--record-dir", why = "one recording: a file or a store";
	else if (o->agent && (o->record || o->record_dir))
		a = "--agent", b = "--record", why = "record on the console's side of --remote";
	else if (o->batch && o->nremotes && o->serve)
		a = "-b --remote", b = "--serve", why = "serve from the console, or one host each";
	else if (o->batch && o->nremotes && o->format != OPT_FORMAT_JSON)
		a = "-b --remote", b = "--format", why = "it writes every host's snapshots as JSON";
	/* The agent is the far side of --remote --write: it takes --write for either source. */
	else if (o->write && !o->host_flag && !o->nremotes && !o->agent)
		a = "--write", b = "the engine",
		why = "--write changes the live host: add --host, "
		      "or --remote; the engine's knobs need no --write";
	else if (o->ssh && !o->nremotes)
		a = "--ssh", b = "no --remote", why = "it says how to reach the --remote hosts";
	else if (o->web_config && !o->serve)
		a = "--web.config.file", b = "no --serve", why = "it configures --serve's endpoint";
	else if (o->agent_path && !o->nremotes)
		a = "--agent-path", b = "no --remote",
		why = "it names tunetop on the --remote hosts";
	if (a) {
		snprintf(err, errlen, "%s and %s do not go together (%s)", a, b, why);
		return 2;
	}
	return 0;
}

void options_free(struct options *o)
{
	free(o->sets);
	o->sets = NULL;
	free(o->remotes);
	o->remotes = NULL;
}
