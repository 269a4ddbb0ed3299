/*
 * agent.c: the agent's line protocol. Out: the first snapshot whole (schema-1 JSON, compact),
 * then {"delta":{PATH:VALUE,...}} with only the leaves that changed (backends/jdelta.h), and
 * one {"reply":...} line per command (a set that took is followed by a snapshot at once).
 * In: `set KNOB VALUE`, `interval SECONDS`, `full`
 * (send the next snapshot whole), `quit`. stdin at EOF (the ssh link gone) ends it.
 */
#include "tui/agent.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/jdelta.h"
#include "core/clock.h"
#include "tui/batch.h"
#include "tui/batch_diag.h"
#include "tui/sig.h"
#include "tui/snapjson.h"

/* A command line longer than this is an error (and skipped to its newline). */
#define AGENT_LINE_MAX 1024

struct agent {
	struct source *src;
	double delay_s;
	bool quit, full_next, failed;
	bool sample_now; /* a knob changed: the next snapshot now, not at the interval */
	char in[AGENT_LINE_MAX];
	size_t in_len;
	bool in_overflow;
	json_t *prev; /* the last snapshot sent, for the next delta */
	struct diag_state diag; /* the far side's findings, as -b writes them (zero: not begun) */
};

static void agent_emit(struct agent *a, json_t *o)
{
	char *line = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(12));
	if (!line || fputs(line, stdout) == EOF || fputc('\n', stdout) == EOF ||
	    fflush(stdout) == EOF) {
		if (errno != EPIPE)
			a->failed = true;
		a->quit = true; /* nobody reads us any more */
	}
	free(line);
}

static void agent_reply(struct agent *a, const char *cmd, bool ok, const char *key,
			const char *text)
{
	json_t *o = json_pack("{s:s, s:b}", "reply", cmd, "ok", ok);
	if (text)
		json_object_set_new(o, key, json_string(text));
	agent_emit(a, o);
	json_decref(o);
}

static void agent_set(struct agent *a, const char *args)
{
	char name[128], value[256], err[512], shown[64];
	if (sscanf(args, "%127s %255[^\n]", name, value) != 2) {
		agent_reply(a, "set", false, "error", "usage: set KNOB VALUE");
		return;
	}
	int id = knob_find(name);
	if (id < 0) {
		snprintf(err, sizeof(err), "unknown knob '%s' (see --list-knobs)", name);
		agent_reply(a, "set", false, "error", err);
		return;
	}
	int rc = source_knob_set_text(a->src, (enum knob_id)id, value, err, sizeof(err));
	int64_t v = source_knob(a->src, (enum knob_id)id);
	knob_format((enum knob_id)id, v, shown, sizeof(shown));
	json_t *o = json_pack("{s:s, s:b, s:s, s:s}", "reply", "set", "ok", rc == 0, "knob", name,
			      "value", shown);
	if (rc != 0)
		json_object_set_new(o, "error", json_string(err));
	agent_emit(a, o);
	json_decref(o);
	a->sample_now = rc == 0;
}

static void agent_command(struct agent *a, char *line)
{
	size_t n = strlen(line);
	while (n && (line[n - 1] == '\r' || line[n - 1] == ' '))
		line[--n] = '\0';
	char *p = line;
	while (*p == ' ')
		p++;
	if (!*p)
		return; /* an empty line: nothing asked */
	if (strncmp(p, "set ", 4) == 0) {
		agent_set(a, p + 4);
	} else if (strncmp(p, "interval ", 9) == 0) {
		double d;
		if (options_parse_delay(p + 9, &d) != 0) {
			agent_reply(a, "interval", false, "error",
				    "not a delay in seconds (valid: 0.05 to 3600)");
			return;
		}
		a->delay_s = d;
		agent_reply(a, "interval", true, "value", p + 9);
	} else if (strcmp(p, "full") == 0) {
		a->full_next = true;
		agent_reply(a, "full", true, NULL, NULL);
	} else if (strcmp(p, "quit") == 0) {
		agent_reply(a, "quit", true, NULL, NULL);
		a->quit = true;
	} else {
		char err[AGENT_LINE_MAX + 96];
		snprintf(err, sizeof(err),
			 "unknown command '%.64s' (valid: set KNOB VALUE, interval S, full, quit)", p);
		agent_reply(a, "error", false, "error", err);
	}
}

/* Read what stdin has (poll said so); run each whole line. Returns false at EOF. */
static bool agent_read(struct agent *a)
{
	char buf[4096];
	ssize_t n = read(STDIN_FILENO, buf, sizeof(buf));
	if (n < 0)
		return errno == EINTR || errno == EAGAIN;
	if (n == 0)
		return false;
	for (ssize_t i = 0; i < n && !a->quit; i++) {
		if (buf[i] == '\n') {
			a->in[a->in_len] = '\0';
			if (a->in_overflow)
				agent_reply(a, "error", false, "error", "command line too long");
			else
				agent_command(a, a->in);
			a->in_len = 0;
			a->in_overflow = false;
		} else if (a->in_len + 1 < sizeof(a->in)) {
			a->in[a->in_len++] = buf[i];
		} else {
			a->in_overflow = true;
		}
	}
	return true;
}

static void agent_snapshot(struct agent *a, struct snapshot *snap)
{
	source_sample(a->src, snap);
	json_t *cur = snapjson_build(snap);
	batch_diag_add(cur, &a->diag, snap);
	if (!a->prev || a->full_next) {
		agent_emit(a, cur);
		a->full_next = false;
	} else {
		json_t *d = jdelta_make(a->prev, cur);
		json_t *o = json_pack("{s:o}", "delta", d);
		agent_emit(a, o);
		json_decref(o);
	}
	json_decref(a->prev);
	a->prev = cur;
}

int agent_run(struct source *src, const struct options *o)
{
	struct agent a = {.src = src, .delay_s = o->delay_s};
	struct snapshot *snap = snapshot_new();
	uint64_t next = clock_mono_ns() + (uint64_t)(BATCH_FIRST_INTERVAL_S * 1e9);
	long n = 0;

	while (!a.quit && !sig_quit) {
		uint64_t now = clock_mono_ns();
		if (a.sample_now) {
			/* After a knob write, as the console does: the far side's screen shows the
			 * new value at once. The interval's grid is kept. */
			a.sample_now = false;
			agent_snapshot(&a, snap);
			continue;
		}
		if (now >= next) {
			agent_snapshot(&a, snap);
			if (o->iterations && ++n >= o->iterations)
				break;
			next += (uint64_t)(a.delay_s * 1e9);
			if (next < clock_mono_ns())
				next = clock_mono_ns();
			continue;
		}
		uint64_t ms = (next - now + NS_PER_MS - 1) / NS_PER_MS;
		struct pollfd p = {.fd = STDIN_FILENO, .events = POLLIN};
		int r = poll(&p, 1, ms > 100 ? 100 : (int)ms);
		if (r < 0 && errno != EINTR)
			break;
		/* Readable, or hung up: a read of 0 is the link closing. */
		if (r > 0 && !agent_read(&a))
			break;
	}
	json_decref(a.prev);
	snapshot_free(snap);
	return a.failed ? 1 : 0;
}
