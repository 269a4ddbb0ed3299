/* exp_sweep.c: the sleep/drop sweep: maxsleep x timer slack x offered load, side by side. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/exp_metric.h"
#include "tui/experiment.h"
#include "tui/sig.h"

struct sweep_col {
	const char *title;
	const char *path;
};

/* What the seed's tables put side by side. */
static const struct sweep_col sweep_cols[] = {
	{ "offered_pps", "pmd.offered_pps" },
	{ "drop%", "pmd.drop_pct" },
	{ "pmd_cpu%", "pmd.threads[*].cpu_pct" },
	{ "sleep_iter%", "pmd.threads[avg].sleep_iter_pct" },
	{ "sleep_us_avg", "pmd.threads[avg].sleep_us_avg" },
	{ "oversh_p99_us", "pmd.threads[avg].sleep_overshoot_us.p99" },
};
#define SWEEP_NCOLS (sizeof(sweep_cols) / sizeof(sweep_cols[0]))

int exp_sweep_run(const struct exp_common *c0, int argc, char **argv)
{
	struct exp_common c = *c0;
	const char *ms_list = "0,50,500", *slack_list = "1000,50000", *rate_list = NULL;
	const char *ms[EXP_MAX_LIST], *slack[EXP_MAX_LIST], *rate[EXP_MAX_LIST] = { NULL };
	char *ms_copy, *slack_copy, *rate_copy = NULL, err[512];
	size_t nms, nslack, nrate = 1;
	int rc = 0;

	if (!c.scenario)
		c.scenario = "pmd-seed";
	for (int i = 0; i < argc; i++) {
		if (i + 1 < argc && strcmp(argv[i], "--maxsleep") == 0)
			ms_list = argv[++i];
		else if (i + 1 < argc && strcmp(argv[i], "--slack") == 0)
			slack_list = argv[++i];
		else if (i + 1 < argc && strcmp(argv[i], "--rate") == 0)
			rate_list = argv[++i];
		else {
			fprintf(stderr,
				"tunetop: experiment sweep: unknown option '%s' (valid: --maxsleep LIST, "
				"--slack LIST, --rate LIST and the common options)\n",
				argv[i]);
			return 2;
		}
	}
	nms = exp_split_list(ms_list, &ms_copy, ms, EXP_MAX_LIST);
	nslack = exp_split_list(slack_list, &slack_copy, slack, EXP_MAX_LIST);
	if (rate_list)
		nrate = exp_split_list(rate_list, &rate_copy, rate, EXP_MAX_LIST);

	json_t *rows = json_array();
	if (!c.json) {
		printf("%-10s %-11s %-9s", "rate_pps", "maxsleep_us", "slack_ns");
		for (size_t k = 0; k < SWEEP_NCOLS; k++)
			printf(" %13s", sweep_cols[k].title);
		printf("\n");
	}
	for (size_t r = 0; r < nrate && rc == 0 && !sig_quit; r++) {
		for (size_t s = 0; s < nslack && rc == 0 && !sig_quit; s++) {
			for (size_t m = 0; m < nms && rc == 0 && !sig_quit; m++) {
				char a_ms[64], a_sl[64], a_rt[64];
				const char *extra[3];
				size_t nextra = 0;
				snprintf(a_ms, sizeof(a_ms), "pmd.maxsleep_us=%s", ms[m]);
				snprintf(a_sl, sizeof(a_sl), "pmd.timer_slack_ns=%s", slack[s]);
				extra[nextra++] = a_ms;
				extra[nextra++] = a_sl;
				if (rate[r]) {
					snprintf(a_rt, sizeof(a_rt), "gen.rate_pps=%s", rate[r]);
					extra[nextra++] = a_rt;
				}
				struct source *src = exp_source(&c, extra, nextra, err, sizeof(err), &rc);
				if (!src) {
					fprintf(stderr, "tunetop: experiment sweep: %s\n", err);
					break;
				}
				json_t *snap = exp_window(src, c.warmup, c.seconds);
				double rate_v = 0;
				exp_metric(snap, "knobs.gen.rate_pps", &rate_v);
				json_t *row = json_pack("{s:f, s:s, s:s}", "rate_pps", rate_v,
							"maxsleep_us", ms[m], "timer_slack_ns", slack[s]);
				if (!c.json)
					printf("%-10.0f %-11s %-9s", rate_v, ms[m], slack[s]);
				for (size_t k = 0; k < SWEEP_NCOLS; k++) {
					double v = 0;
					char cell[32];
					bool have = exp_metric(snap, sweep_cols[k].path, &v) == 0;
					json_object_set_new(row, sweep_cols[k].path,
							    have ? json_real(v) : json_null());
					exp_fmt(cell, sizeof(cell), v);
					if (!c.json)
						printf(" %13s", have ? cell : "-");
				}
				if (!c.json) {
					printf("\n");
					fflush(stdout);
				}
				json_array_append_new(rows, row);
				json_decref(snap);
				source_close(src);
			}
		}
	}
	if (c.json && rc == 0) {
		json_t *o = json_pack("{s:s, s:s, s:f, s:f, s:o}", "experiment", "sweep", "scenario",
				      c.scenario, "seconds", c.seconds, "warmup_s", c.warmup, "rows",
				      rows);
		json_dumpf(o, stdout, JSON_COMPACT | JSON_REAL_PRECISION(10));
		printf("\n");
		json_decref(o);
	} else {
		json_decref(rows);
	}
	free(ms_copy);
	free(slack_copy);
	free(rate_copy);
	return rc;
}
