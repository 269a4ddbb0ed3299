/* SPDX-License-Identifier: GPL-2.0-or-later */
/* main.c: tunetop's entry: parse the command line, open a source, run a front end. */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/source.h"
#include "core/scenario.h"
#include "core/snap_schema.h"
#include "core/xalloc.h"
#include "tui/agent.h"
#include "tui/batch.h"
#include "tui/exp/experiment.h"
#include "tui/figures.h"
#include "tui/options.h"
#include "tui/metrics/metrics.h"
#include "tui/console/screen.h"
#include "tui/metrics/serve.h"
#include "tui/sig.h"
#include "tui/theme.h"
#include "tui/console/ui.h"

static void main_list_knobs(void)
{
	char range[256], def[64];
	for (int k = 0; k < K_COUNT; k++) {
		const struct knob_def *d = &knob_table[k];
		printf("%-22s %-28s default %-12s %s\n", d->name,
		       knob_range_text(k, range, sizeof(range)),
		       knob_format(k, d->def, def, sizeof(def)), d->help);
	}
}

/* The console's keys, as the help screen lists them (README's table is made from this). */
static void main_list_keys(void)
{
	char range[256];
	for (size_t i = 0; i < ui_nkeydefs; i++) {
		const struct ui_keydef *k = &ui_keydefs[i];
		if (k->knob >= 0)
			printf("%s\t%s %s (%s)\n", k->keys, k->what, knob_table[k->knob].name,
			       knob_range_text(k->knob, range, sizeof(range)));
		else
			printf("%s\t%s\n", k->keys, k->what);
	}
}

/* The screen's figures, tab-separated (docs/reference.md's and the man page's are made from it);
 * last the -b JSON field the figure is ("-" none: tunetop --list-json names them). */
static void main_list_figures(void)
{
	for (size_t i = 0; i < figure_count; i++) {
		const struct figure *f = &figure_table[i];
		printf("%s\t%s\t%s\t%s\t%s\t%s\t%s\n", figure_view_name(f->view), f->label, f->unit,
		       f->base, f->source, f->meaning, f->json ? f->json : "-");
	}
}

static void main_list_scenarios(void)
{
	for (size_t i = 0; i < scenario_count; i++)
		printf("%-10s %s\n", scenario_table[i].name, scenario_table[i].summary);
}

static int main_exit_code(int knob_rc)
{
	return knob_rc == KNOB_ERR_USAGE ? 2 : 1;
}

/*
 * The scenario, then each --set in order, then start: every source takes its
 * knobs before it starts (the engine's start-only ones need that; the host
 * source is open already, so a --set reaches the real knob). Usage errors
 * (unknown knob, bad value, a knob the source refuses) give 2, refusals 1.
 */
static int main_start(struct source *src, const struct options *o)
{
	char err[512];
	if (src->ops->read_only) {
		/* A recording's knobs are what they were: no scenario, and --set is refused. */
		if (o->nsets) {
			fprintf(stderr, "tunetop: --set: %s\n",
				source_knob_refusal(src, K_CPU_GOVERNOR));
			return 2;
		}
		return source_start(src, err, sizeof(err)) == 0 ? 0 : 1;
	}
	if (src->ops->far_scenarios) /* the far side applied them (--agent's arguments) */
		return source_start(src, err, sizeof(err)) == 0 ? 0 : 1;
	int rc = scenario_apply(o->scenario ? o->scenario : "default", source_scenario_assign, src,
				err, sizeof(err));
	if (rc != 0) {
		fprintf(stderr, "tunetop: --scenario: %s\n", err);
		return main_exit_code(rc);
	}
	for (size_t i = 0; i < o->nsets; i++) {
		rc = source_knob_assign(src, o->sets[i], err, sizeof(err));
		if (rc != 0) {
			fprintf(stderr, "tunetop: --set: %s\n", err);
			return main_exit_code(rc);
		}
	}
	rc = source_start(src, err, sizeof(err));
	if (rc != 0) {
		fprintf(stderr, "tunetop: %s: %s\n", source_name(src), err);
		return main_exit_code(rc);
	}
	return 0;
}

/* An unknown theme is a usage error; a broken theme file is reported and its lines defaulted. */
static int main_check_theme(const struct options *o)
{
	struct theme t;
	struct theme_diag diag = {0};
	char err[512];

	if (o->no_color || !o->theme)
		return 0;
	if (theme_load(&t, o->theme, &diag, err, sizeof(err)) != 0) {
		fprintf(stderr, "tunetop: --theme: %s\n", err);
		return 2;
	}
	for (unsigned i = 0; i < diag.count && i < THEME_DIAG_KEEP; i++)
		fprintf(stderr, "tunetop: theme %s (the default is used for that line)\n",
			diag.msg[i]);
	if (diag.count > THEME_DIAG_KEEP)
		fprintf(stderr, "tunetop: theme %s: %u more problems\n", o->theme,
			diag.count - THEME_DIAG_KEEP);
	return 0;
}

/* An action other than a run (--help, --version, --list-*, experiment): its exit code, or -1
 * when o asks for a run. */
static int main_action(const struct options *o)
{
	switch (o->action) {
	case ACT_HELP:
		options_usage(stdout);
		return 0;
	case ACT_VERSION:
		printf("tunetop %s\n", TUNETOP_VERSION);
		return 0;
	case ACT_LIST_KNOBS:
		main_list_knobs();
		return 0;
	case ACT_LIST_KEYS:
		main_list_keys();
		return 0;
	case ACT_LIST_SCENARIOS:
		main_list_scenarios();
		return 0;
	case ACT_LIST_METRICS:
		metrics_list(stdout);
		return 0;
	case ACT_LIST_FIGURES:
		main_list_figures();
		return 0;
	case ACT_LIST_JSON:
		snap_schema_list(stdout);
		return 0;
	case ACT_LIST_OPTIONS:
		options_list(stdout);
		return 0;
	case ACT_LIST_THEMES:
		theme_list(stdout);
		return 0;
	case ACT_EXPERIMENT:
		return experiment_main(o->exp_argc, o->exp_argv);
	default:
		return -1;
	}
}

/* What must hold before any source opens: the theme, a terminal for the console, the exporter
 * module and its web configuration. 0, or the exit code. */
static int main_precheck(const struct options *o)
{
	char err[512];
	int rc;
	if (!o->batch && !o->agent && main_check_theme(o) != 0)
		return 2;
	/* Curses into a file or a pipe writes escape codes, not a console: say so, run nothing. */
	if (!o->batch && !o->agent && !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "tunetop: standard output is not a terminal: the console needs one "
				"(-b writes JSON Lines)\n");
		return 2;
	}
	/* No exporter module, or a bad web configuration, stops the start before any source
	 * opens (as node_exporter's). */
	if (o->serve && serve_load(err, sizeof(err)) != 0) {
		fprintf(stderr, "tunetop: --serve: %s\n", err);
		return 1;
	}
	if (o->serve && (rc = serve_configure(o->web_config, err, sizeof(err))) != 0) {
		fprintf(stderr, "tunetop: --web.config.file: %s\n", err);
		return rc;
	}
	return 0;
}

/* The source o names, opened (after the signal handlers); NULL with *rc the exit code. */
static struct source *main_open(struct options *o, int *rc)
{
	char err[512];
	const struct source_ops *kind = source_find(o->backend);
	struct source_conf conf = {.host_write = o->write,
				   .replay_path = o->replay,
				   .replay_follow = o->follow,
				   .replay_from = o->from,
				   .replay_to = o->to,
				   .remotes = o->remotes,
				   .nremotes = o->nremotes,
				   .ssh = o->ssh,
				   .agent_path = o->agent_path,
				   .delay_s = o->delay_s,
				   .no_machine = o->batch || o->agent};
	/* --host, --scenario and --set go to the far side's agent. */
	const char **far = xcalloc(2 * o->nsets + 4, sizeof(*far));
	size_t nfar = 0;
	if (o->host_flag)
		far[nfar++] = "--host";
	if (o->scenario) {
		far[nfar++] = "--scenario";
		far[nfar++] = o->scenario;
	}
	for (size_t i = 0; i < o->nsets; i++) {
		far[nfar++] = "--set";
		far[nfar++] = o->sets[i];
	}
	conf.agent_args = far;
	/* The host has no engine workloads: start from the idle scenario unless told. */
	if (kind->idle_scenario && !o->scenario)
		o->scenario = "idle";
	sig_install();
	struct source *src = source_open_rc(kind, &conf, rc, err, sizeof(err));
	free(far);
	if (!src) {
		fprintf(stderr, "tunetop: %s: %s\n", o->backend, err);
		*rc = main_exit_code(*rc);
	}
	return src;
}

/* --serve: the exporter started on the source's snapshots; 0, or 1 when it cannot listen. */
static int main_serve(const struct options *o)
{
	char err[512];
	serve_metrics_tid(o->metrics_tid);
	if (serve_start(o->serve, err, sizeof(err)) != 0) {
		fprintf(stderr, "tunetop: --serve: %s\n", err);
		return 1;
	}
	char host[INET6_ADDRSTRLEN];
	serve_addr_host(o->serve, host, sizeof(host));
	fprintf(stderr, "tunetop: serving /metrics on port %u at %s%s\n", serve_port(), host,
		o->web_config ? " (--web.config.file)" : "");
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
	rc = main_action(&o);
	if (rc >= 0) {
		options_free(&o);
		return rc;
	}
	struct source *src = NULL;
	rc = main_precheck(&o);
	if (rc == 0)
		src = main_open(&o, &rc);
	if (!src) {
		options_free(&o);
		return rc;
	}
	rc = main_start(src, &o);
	if (rc == 0 && o.serve)
		rc = main_serve(&o);
	if (rc == 0)
		rc = o.agent   ? agent_run(src, &o)
		     : o.batch ? batch_run(src, &o)
			       : screen_run(src, &o);
	serve_stop();
	source_close(src);
	options_free(&o);
	return rc;
}
