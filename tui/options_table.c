/* SPDX-License-Identifier: GPL-2.0-or-later */
/* options_table.c: every command-line option, once: name, letter, argument, group, completion,
 * help and the man page's detail. */
#include "tui/options_table.h"

const struct opt_entry options_table[] = {
    {"delay", 'd', "SECONDS", "general", NULL,
     "refresh / snapshot interval (0.05 to 3600, default 1)",
     "Decimals allowed. In batch mode the first line covers min(delay, 0.1 s). A replay "
     "plays at its recorded pace instead."},
    {"iterations", 'n', "COUNT", "general", NULL,
     "stop after COUNT refreshes (the console too, like htop)",
     "Every -b run with it ends: with --serve it samples every -d, scraped or not; with "
     "--remote it counts lines, and a host with no snapshot 10 s (plus one -d) after the "
     "start is given up, named on stderr, exit status 1."},
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
     "ADDR defaults to 127.0.0.1; [::1]:PORT for IPv6; a multicast or broadcast ADDR exits 2. "
     "From the latest snapshot: a scrape costs no sampling. With the console and with -b."},
    {"web.config.file", OPT_WEB_CONFIG, "FILE", "output", "<file>",
     "--serve with TLS and/or basic auth from FILE (node_exporter's web configuration)",
     "YAML: tls_server_config (cert_file, key_file, client_auth_type, client_ca_file, "
     "min_version, max_version) and basic_auth_users (user: bcrypt hash, cost 4..17); an "
     "unknown key, a symlink or a key not the certificate's exits 2. Without it /metrics is plain "
     "HTTP (docs/metrics.md, Deploying the exporter)."},
    {"metrics-tid", OPT_METRICS_TID, NULL, "output", NULL,
     "per-thread metrics carry a tid label (default: one series per thread name)",
     "Thread series are summed by thread name so that restarted threads do not make new "
     "series (docs/metrics.md, Threads); with this option every thread is its own series."},
    {"output", 'o', "FILE", "output", "<file>", "-b writes to FILE instead of stdout (- is stdout)",
     NULL},
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
     "refused when it is a symlink, not ours or writable by others. docs/recording.md has the "
     "sizes per hour."},
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
     "print the screen's figures: view, label, unit, base, source, meaning, JSON field", NULL},
    {"list-json", OPT_LIST_JSON, NULL, "lists", NULL,
     "print the -b JSON line's fields: path, type, unit, meaning", NULL},
    {"list-options", OPT_LIST_OPTIONS, NULL, "lists", NULL,
     "print this option table, tab-separated (docs and completion are made from it)", NULL},
    {"help", 'h', NULL, "info", NULL, "this text", NULL},
    {"version", 'V', NULL, "info", NULL, "print the version", NULL},
};
#define OPTIONS_TABLE_ROWS (sizeof(options_table) / sizeof(options_table[0]))
_Static_assert(OPTIONS_TABLE_ROWS <= OPTIONS_TABLE_MAX, "raise OPTIONS_TABLE_MAX");
const size_t options_table_n = OPTIONS_TABLE_ROWS;

const struct opt_group options_groups[] = {
    {"general", NULL},	{"source", "Sources"}, {"output", "Output"},
    {"looks", "Looks"}, {"lists", "Lists"},    {"info", NULL},
};
const size_t options_groups_n = sizeof(options_groups) / sizeof(options_groups[0]);
