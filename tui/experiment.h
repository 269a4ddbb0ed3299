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
	bool json;              /* --json: one JSON object on stdout instead of a table */
	const char *scenario;   /* --scenario (each experiment has its own default) */
	const char *sets[EXP_MAX_SETS]; /* --set KNOB=VALUE, applied after the scenario */
	size_t nsets;
	double seconds;         /* --seconds: measurement window per point/pass */
	double warmup;          /* --warmup: settle time before each window */
};

/* Entry from main: argv[0] is the experiment's name. Returns an exit status. */
int experiment_main(int argc, char **argv);

/* Experiments (exp_*.c); argv holds only their own options, already split off. */
int exp_sweep_run(const struct exp_common *c, int argc, char **argv);
int exp_ab_run(const struct exp_common *c, int argc, char **argv);
int exp_calib_run(const struct exp_common *c, int argc, char **argv);

/* Shared helpers (experiment.c). */
/* A started engine source with the scenario, the common --set and then extra[] applied. */
struct source *exp_source(const struct exp_common *c, const char *const *extra, size_t nextra,
			  char *err, size_t errlen, int *status);
/* Sleep warmup, sample (discarded), sleep seconds, sample: the window's JSON (decref it). */
json_t *exp_window(struct source *src, double warmup, double seconds);
/* Parse "a,b,c" into at most EXP_MAX_LIST strings (pointers into a copy you free). */
size_t exp_split_list(const char *list, char **copy, const char **out, size_t max);
/* Parse a positive decimal for an option; 2 (usage) with a message when invalid. */
int exp_parse_double(const char *opt, const char *s, double lo, double hi, double *out);
/* One value formatted for a table cell. */
void exp_fmt(char *buf, size_t len, double v);

#endif
