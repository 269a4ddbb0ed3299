/* main.c: tunetop's entry: parse the command line, build the engine, run a front end. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/engine.h"
#include "../engine/scenario.h"
#include "batch.h"
#include "options.h"
#include "screen.h"
#include "sig.h"

static void main_list_knobs(void)
{
	char range[256], def[64];
	for (int k = 0; k < K_COUNT; k++) {
		const struct knob_def *d = &knob_table[k];
		printf("%-22s %-28s default %-12s %s\n", d->name,
		       knob_range_text(k, range, sizeof(range)), knob_format(k, d->def, def, sizeof(def)),
		       d->help);
	}
}

static void main_list_scenarios(void)
{
	for (size_t i = 0; i < scenario_count; i++)
		printf("%-10s %s\n", scenario_table[i].name, scenario_table[i].summary);
}

/* Scenario, then --set in order; usage errors give 2, refusals 1. */
static int main_configure(struct engine *eng, const struct options *o)
{
	char err[512];
	int rc = scenario_apply(eng, o->scenario ? o->scenario : "default", err, sizeof(err));
	if (rc != 0) {
		fprintf(stderr, "tunetop: --scenario: %s\n", err);
		return rc == KNOB_ERR_USAGE ? 2 : 1;
	}
	for (size_t i = 0; i < o->nsets; i++) {
		rc = engine_knob_assign(eng, o->sets[i], err, sizeof(err));
		if (rc != 0) {
			fprintf(stderr, "tunetop: --set: %s\n", err);
			return rc == KNOB_ERR_USAGE ? 2 : 1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct options o;
	char err[512];
	int rc;

	if (options_parse(&o, argc, argv, err, sizeof(err)) != 0) {
		fprintf(stderr, "tunetop: %s\n", err);
		options_free(&o);
		return 2;
	}
	switch (o.action) {
	case ACT_HELP:
		options_usage(stdout);
		options_free(&o);
		return 0;
	case ACT_VERSION:
		printf("tunetop %s\n", TUNETOP_VERSION);
		options_free(&o);
		return 0;
	case ACT_LIST_KNOBS:
		main_list_knobs();
		options_free(&o);
		return 0;
	case ACT_LIST_SCENARIOS:
		main_list_scenarios();
		options_free(&o);
		return 0;
	default:
		break;
	}

	struct engine *eng = engine_new();
	rc = main_configure(eng, &o);
	if (rc == 0) {
		sig_install();
		if (engine_start(eng, err, sizeof(err)) != 0) {
			fprintf(stderr, "tunetop: engine: %s\n", err);
			rc = 1;
		} else {
			rc = o.batch ? batch_run(eng, &o) : screen_run(eng, &o);
		}
	}
	engine_free(eng);
	options_free(&o);
	return rc;
}
