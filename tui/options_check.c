/* SPDX-License-Identifier: GPL-2.0-or-later */
/* options_check.c: the command line's cross-option rules, checked after parsing. */
#include "tui/options_check.h"

#include <stdio.h>

/*
 * Options that cannot work together are a usage error naming both, never one silently
 * winning or ignored: a recording is its own source and read-only; the agent's stdout is
 * the protocol and it neither serves nor records; -b --remote writes every host's JSON lines
 * (to stdout or -o FILE), so the one-source outputs (--serve, the metrics text) have nothing
 * to take.
 */
static int options_conflicts(const struct options *o, const char *source_opt, char *err,
			     size_t errlen)
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

int options_check(const struct options *o, const char *source_opt, char *err, size_t errlen)
{
	if (o->action == ACT_RUN && !o->batch && (o->output || o->format != OPT_FORMAT_JSON)) {
		snprintf(err, errlen, "%s is for batch output: add -b",
			 o->output ? "-o" : "--format");
		return 2;
	}
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
	return options_conflicts(o, source_opt, err, errlen);
}
