/* SPDX-License-Identifier: GPL-2.0-or-later */
/* nocurses.c: a tunetop without the console, linked without curses (make tests builds it):
 * `nocurses -b [OPTIONS]` is the batch writer, `nocurses experiment ...` the experiments.
 * That it links at all shows they need no curses; tests/cli/test_layers.sh runs it. */
#include <stdio.h>

#include "backends/source.h"
#include "core/scenario.h"
#include "tui/batch.h"
#include "tui/exp/experiment.h"
#include "tui/options.h"
#include "tui/sig.h"

int main(int argc, char **argv)
{
	struct options o;
	char err[512];
	int rc;

	if (options_parse(&o, argc, argv, err, sizeof(err)) != 0) {
		fprintf(stderr, "nocurses: %s\n", err);
		options_free(&o);
		return 2;
	}
	if (o.action == ACT_EXPERIMENT) {
		rc = experiment_main(o.exp_argc, o.exp_argv);
		options_free(&o);
		return rc;
	}
	if (!o.batch) {
		fprintf(stderr, "nocurses: only -b or experiment (no console here)\n");
		options_free(&o);
		return 2;
	}
	sig_install();
	struct source *src = source_open(&source_engine_ops, NULL, err, sizeof(err));
	rc = src ? 0 : 1;
	if (rc == 0)
		rc = scenario_apply(o.scenario ? o.scenario : "default", source_scenario_assign,
				    src, err, sizeof(err)) == 0
			 ? 0
			 : 2;
	if (rc == 0 && source_start(src, err, sizeof(err)) != 0)
		rc = 1;
	if (rc == 0)
		rc = batch_run(src, &o);
	else
		fprintf(stderr, "nocurses: %s\n", err);
	source_close(src);
	options_free(&o);
	return rc;
}
