/* SPDX-License-Identifier: GPL-2.0-or-later */
/* experiment.h: `tunetop experiment NAME`: sweeps, A/B passes, calibration stability. */
#ifndef TT_EXPERIMENT_H
#define TT_EXPERIMENT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "backends/source.h"

#define EXP_MAX_SETS 64
#define EXP_MAX_LIST 32

/* Options every experiment takes. */
struct exp_common {
	bool json; /* --json: one JSON object on stdout instead of a table */
	const char *scenario; /* --scenario (each experiment has its own default) */
	const char *sets[EXP_MAX_SETS]; /* --set KNOB=VALUE, applied after the scenario */
	size_t nsets;
	double seconds; /* --seconds: measurement window per point/pass */
	double warmup; /* --warmup: settle time before each window */
	const char *png; /* --png FILE: the result drawn as a PNG picture */
	const char *svg; /* --svg FILE: the same as SVG */
};

/* Entry from main: argv[0] is the experiment's name. Returns an exit status. */
int experiment_main(int argc, char **argv);

/* Experiments (exp_*.c); argv holds only their own options, already split off. */
int exp_sweep_run(const struct exp_common *c, int argc, char **argv);
/* A sweep point's picture label from its result row (exp_sweep_report.c), as its table says it:
 * "500 us / 1000 ns, host 12%" (" / 20000 pps" too when rates); a point with no pass counted
 * says why: " (hung)", or " (set aside)" when the host took every pass. */
void exp_sweep_label(const json_t *row, bool rates, char *buf, size_t len);
int exp_ab_run(const struct exp_common *c, int argc, char **argv);
int exp_calib_run(const struct exp_common *c, int argc, char **argv);
int exp_tune_run(const struct exp_common *c, int argc, char **argv); /* exp_tune.c */

/* Shared helpers (exp_util.c). */
/* A started source, the engine or with host the live machine, with the scenario (when one),
 * the common --set and then extra[] applied; NULL with *status 2 (usage) or 1 and err. */
struct source *exp_source(const struct exp_common *c, const struct source_conf *host,
			  const char *const *extra, size_t nextra, char *err, size_t errlen,
			  int *status);
/* Sleep s seconds, or until Ctrl-C. */
void exp_sleep(double s);
/* Sleep warmup, sample, sleep seconds, sample: the window's JSON (decref it). hang (hanglen
 * bytes) gets the reason the window cannot be trusted (exp_check.h), or "". With PMDs, its
 * "pass" object holds the window's cost from its counters (pass_cost.h):
 * drop_pct, cpu_ns_per_pkt, cpu_share_pct, host_took_pct, window_s, packets. With a hang
 * the watchdog timed, "hang_since_s" says when it began (exp_hang_since). */
json_t *exp_window(struct source *src, double warmup, double seconds, char *hang, size_t hanglen);
/*
 * Parse an option's LIST "a,b,c" whose items are values of knob id (-1: any text) into at
 * most max strings (pointers into *copy, which you free):
 * each checked with the knob table; an empty list, an empty item or more than max
 * items is a usage error. Returns the count, or 0 after printing the error.
 */
size_t exp_parse_list(const char *exp, const char *opt, const char *list, int id, char **copy,
		      const char **out, size_t max);

/* An experiment's own option: its kind says what out points at. */
enum exp_opt_kind {
	EXP_OPT_TEXT, /* const char *: the value as given */
	EXP_OPT_FLAG, /* bool: no value */
	EXP_OPT_COUNT, /* long: a whole number in [lo, hi] ("2.5" is refused) */
	EXP_OPT_REAL, /* double: a decimal in [lo, hi] */
	EXP_OPT_MANY, /* const char *[hi], its count in *n: repeatable, at most hi times */
	EXP_OPT_FN, /* fn(o, value) (value NULL when arg is): 0, or what the parse returns */
};
struct exp_opt {
	const char *name, *arg; /* "--knob", "KNOB" (NULL: no value): the usage error's list */
	enum exp_opt_kind kind;
	void *out;
	double lo, hi;
	size_t *n; /* EXP_OPT_MANY: how many were given */
	const char *many; /* EXP_OPT_MANY: the error past hi, its "%d" the limit */
	int (*fn)(const struct exp_opt *o, const char *value);
};
#define EXP_OPT(name, arg, kind, out, lo, hi, n, many, fn)                                         \
	((struct exp_opt){name, arg, kind, out, lo, hi, n, many, fn})
#define EXP_TEXT(name, arg, out) EXP_OPT(name, arg, EXP_OPT_TEXT, out, 0, 0, NULL, NULL, NULL)
#define EXP_FLAG(name, out) EXP_OPT(name, NULL, EXP_OPT_FLAG, out, 0, 0, NULL, NULL, NULL)
#define EXP_COUNT(name, arg, out, lo, hi)                                                          \
	EXP_OPT(name, arg, EXP_OPT_COUNT, out, lo, hi, NULL, NULL, NULL)
#define EXP_REAL(name, arg, out, lo, hi)                                                           \
	EXP_OPT(name, arg, EXP_OPT_REAL, out, lo, hi, NULL, NULL, NULL)
#define EXP_MANY(name, arg, out, n, max, many)                                                     \
	EXP_OPT(name, arg, EXP_OPT_MANY, out, 0, max, n, many, NULL)
#define EXP_FN(name, arg, out, fn) EXP_OPT(name, arg, EXP_OPT_FN, out, 0, 0, NULL, NULL, fn)
/* argv[0..argc) by the table opts[n] of experiment exp: 0, else the status to exit with
 * after saying why. An unknown option, or one that wants a value and has none, goes to
 * rest[*nrest] when rest is given, else is a usage error (2) that names the valid ones. */
int exp_opts_parse(const char *exp, const struct exp_opt *opts, size_t n, int argc, char **argv,
		   char **rest, int *nrest);
/* Write the result's pictures (--png, --svg) through draw(path, svg, arg, err, errlen);
 * returns 0, or 1 after printing why a file could not be written. */
int exp_pictures(const struct exp_common *c, const char *exp,
		 int (*draw)(const char *path, bool svg, void *arg, char *err, size_t errlen),
		 void *arg);
/* Ctrl-C was pressed (sig_quit): the pass runner's ops->stop (tui/pass.h). */
bool exp_stopped(void *ctx);
/* A knob value as the snapshot's "knobs" object writes it: a number for an integer knob,
 * true/false for a switch, the name for a choice; of text as given, else of v. */
json_t *exp_knob_json(int id, const char *text, int64_t v);
/* One value formatted for a table cell. */
void exp_fmt(char *buf, size_t len, double v);
/* A median and its spread as a table cell, "12.5 +-3.00"; when at_least (a pass's figure fell in a
 * histogram's open top bucket, so each is a lower bound and so is their median) "≥1023": a bound,
 * with no spread. */
void exp_fmt_spread(char *buf, size_t len, double median, double half, bool at_least);

#endif
