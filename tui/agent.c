/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * agent.c: the agent's line protocol. Out: the first snapshot whole (schema-1 JSON, compact),
 * then {"delta":{PATH:VALUE,...}} with only the leaves that changed (backends/remote/jdelta.h), and
 * one {"reply":...} line per command (a set that took is followed by a snapshot at once; on the
 * live host a set's reply comes once the write is read back, snapshots going on meanwhile).
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

#include "backends/remote/jdelta.h"
#include "backends/source_async.h"
#include "core/clock.h"
#include "core/utf8.h"
#include "tui/after.h"
#include "tui/batch.h"
#include "tui/sig.h"
#include "tui/snapjson.h"

/* A command line longer than this is an error (and skipped to its newline). */
#define AGENT_LINE_MAX 1024

struct agent {
	struct source *src;
	double delay_s;
	bool quit, full_next, failed;
	bool sample_now; /* a knob changed: the next snapshot now, not at the interval */
	/* The live host's knob writes, on a thread of their own (tt-writer) so that one waiting
	 * on OVS holds up no snapshot; its replies come when the write is read back. NULL:
	 * writes run here, between snapshots. */
	struct source_async *writer;
	char in[AGENT_LINE_MAX];
	size_t in_len;
	bool in_overflow;
	json_t *prev; /* the last snapshot sent, for the next delta */
	struct after *after; /* the findings on each snapshot, as -b writes them */
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

/* s as a JSON string: each byte of an invalid UTF-8 sequence becomes '?'. */
static json_t *agent_jstr(const char *s)
{
	json_t *j = json_string(s);
	if (j)
		return j;
	size_t n = strlen(s);
	char *t = malloc(n + 1);
	if (!t)
		return json_string("?");
	for (size_t i = 0; i < n; i++)
		t[i] = (unsigned char)s[i] < 0x80 ? s[i] : '?';
	t[n] = '\0';
	j = json_string(t);
	free(t);
	return j ? j : json_string("?");
}

json_t *agent_reply_new(const char *cmd, bool ok, const char *knob, const char *value,
			const char *error)
{
	json_t *o = json_object();
	json_object_set_new(o, "reply", agent_jstr(cmd));
	json_object_set_new(o, "ok", json_boolean(ok));
	if (knob)
		json_object_set_new(o, "knob", agent_jstr(knob));
	if (value)
		json_object_set_new(o, "value", agent_jstr(value));
	if (error)
		json_object_set_new(o, "error", agent_jstr(error));
	return o;
}

static void agent_send(struct agent *a, json_t *o)
{
	agent_emit(a, o);
	json_decref(o);
}

static void agent_parse_error(struct agent_cmd *c, const char *cmd, const char *msg)
{
	c->kind = AGENT_CMD_ERROR;
	c->cmd = cmd;
	snprintf(c->error, sizeof(c->error), "%s", msg);
}

void agent_parse(const char *line, size_t len, struct agent_cmd *c)
{
	char buf[AGENT_LINE_MAX];
	memset(c, 0, sizeof(*c));
	c->knob = -1;
	c->cmd = "error";
	if (len >= sizeof(buf)) {
		agent_parse_error(c, "error", "command line too long");
		return;
	}
	if (memchr(line, '\0', len)) {
		agent_parse_error(c, "error", "a NUL byte in the command line");
		return;
	}
	memcpy(buf, line, len);
	buf[len] = '\0';
	while (len && (buf[len - 1] == '\r' || buf[len - 1] == ' '))
		buf[--len] = '\0';
	char *p = buf;
	while (*p == ' ')
		p++;
	if (!*p) {
		c->kind = AGENT_CMD_NONE;
		return;
	}
	bool utf8 = utf8_valid(p);
	if (strncmp(p, "set ", 4) == 0) {
		c->cmd = "set";
		if (sscanf(p + 4, "%127s %255[^\n]", c->name, c->value) != 2) {
			agent_parse_error(c, "set", "usage: set KNOB VALUE");
			return;
		}
		c->knob = knob_find(c->name);
		if (!utf8) {
			agent_parse_error(c, "set", "the command is not valid UTF-8");
			return;
		}
		if (c->knob < 0) {
			snprintf(c->error, sizeof(c->error),
				 "unknown knob '%.64s' (see --list-knobs)", c->name);
			c->kind = AGENT_CMD_ERROR;
			return;
		}
		c->kind = AGENT_CMD_SET;
	} else if (strncmp(p, "interval ", 9) == 0) {
		c->cmd = "interval";
		if (!utf8 || options_parse_delay(p + 9, &c->delay_s) != 0) {
			agent_parse_error(c, "interval",
					  "not a delay in seconds (valid: 0.05 to 3600)");
			return;
		}
		snprintf(c->value, sizeof(c->value), "%s", p + 9);
		c->kind = AGENT_CMD_INTERVAL;
	} else if (strcmp(p, "full") == 0) {
		c->cmd = "full";
		c->kind = AGENT_CMD_FULL;
	} else if (strcmp(p, "quit") == 0) {
		c->cmd = "quit";
		c->kind = AGENT_CMD_QUIT;
	} else {
		/* The line is echoed (cut, its bad bytes shown as '?' by agent_reply_new). */
		snprintf(c->error, sizeof(c->error),
			 "unknown command '%.64s' (valid: set KNOB VALUE, interval S, full, quit)",
			 p);
		c->kind = AGENT_CMD_ERROR;
	}
}

static void agent_set_reply(struct agent *a, const struct source_knob_result *r)
{
	char shown[64];
	knob_format(r->knob, r->rc == 0 ? r->stored : source_knob(a->src, r->knob), shown,
		    sizeof(shown));
	agent_send(a, agent_reply_new("set", r->rc == 0, knob_table[r->knob].name, shown,
				      r->rc != 0 ? r->err : NULL));
	a->sample_now |= r->rc == 0;
}

/* The writer's answers, in the order asked. */
static void agent_results(struct agent *a)
{
	struct snapshot *none = NULL;
	struct source_knob_result r;
	source_async_take(a->writer, &none); /* resets its fd: it publishes no snapshot */
	while (source_async_result(a->writer, &r))
		agent_set_reply(a, &r);
}

static void agent_set(struct agent *a, const struct agent_cmd *c)
{
	char err[512], shown[64];
	if (a->writer) {
		struct source_knob_result r = {.knob = (enum knob_id)c->knob};
		int64_t v;
		r.rc = knob_parse(r.knob, c->value, &v, r.err, sizeof(r.err));
		if (r.rc == 0 && source_async_knob_request(a->writer, r.knob, v, &r) == 1)
			return; /* answered when read back (agent_results) */
		agent_set_reply(a, &r);
		return;
	}
	int rc = source_knob_set_text(a->src, (enum knob_id)c->knob, c->value, err, sizeof(err));
	int64_t v = source_knob(a->src, (enum knob_id)c->knob);
	knob_format((enum knob_id)c->knob, v, shown, sizeof(shown));
	agent_send(a, agent_reply_new("set", rc == 0, c->name, shown, rc != 0 ? err : NULL));
	a->sample_now = rc == 0;
}

static void agent_command(struct agent *a, const char *line, size_t len)
{
	struct agent_cmd c;
	agent_parse(line, len, &c);
	switch (c.kind) {
	case AGENT_CMD_NONE:
		break;
	case AGENT_CMD_SET:
		agent_set(a, &c);
		break;
	case AGENT_CMD_INTERVAL:
		a->delay_s = c.delay_s;
		agent_send(a, agent_reply_new("interval", true, NULL, c.value, NULL));
		break;
	case AGENT_CMD_FULL:
		a->full_next = true;
		agent_send(a, agent_reply_new("full", true, NULL, NULL, NULL));
		break;
	case AGENT_CMD_QUIT:
		agent_send(a, agent_reply_new("quit", true, NULL, NULL, NULL));
		a->quit = true;
		break;
	case AGENT_CMD_ERROR: {
		/* A set keeps its knob (and the value in force) in the reply, as before. */
		char shown[64];
		const char *value = NULL;
		if (strcmp(c.cmd, "set") == 0 && c.knob >= 0) {
			knob_format((enum knob_id)c.knob, source_knob(a->src, (enum knob_id)c.knob),
				    shown, sizeof(shown));
			value = shown;
		}
		agent_send(
		    a, agent_reply_new(c.cmd, false, c.knob >= 0 ? c.name : NULL, value, c.error));
		break;
	}
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
			if (a->in_overflow)
				agent_send(a, agent_reply_new("error", false, NULL, NULL,
							      "command line too long"));
			else
				agent_command(a, a->in, a->in_len);
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
	after_sample(a->after, a->src, snap, false);
	json_t *cur = snapjson_build(snap);
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
	char err[160];
	int rc;
	if (!(a.after = after_open(o, &rc))) { /* --agent records nothing: it cannot fail */
		snapshot_free(snap);
		return rc;
	}
	if (src->ops->knobs_apart && !(a.writer = source_async_start_writer(src, err, sizeof(err))))
		fprintf(stderr, "tunetop: --agent: %s: knob writes wait between snapshots\n", err);
	uint64_t next = clock_mono_ns() + (uint64_t)(BATCH_FIRST_INTERVAL_S * 1e9);
	long n = 0;

	while (!a.quit && !sig_quit) {
		uint64_t now = clock_mono_ns();
		if (a.sample_now) {
			/* After a knob write, as the console does: the far side's screen shows the
			 * new value at once. The interval's grid is kept. */
			a.sample_now = false;
			agent_snapshot(&a, snap);
		} else if (now >= next) {
			agent_snapshot(&a, snap);
			if (o->iterations && ++n >= o->iterations)
				break;
			next =
			    clock_next_due(next, (uint64_t)(a.delay_s * 1e9), now, clock_mono_ns());
		}
		/* stdin is looked at after every snapshot, also when the next is due at once (a
		 * sample as long as the interval: a stopped ovs-vswitchd's 500 ms deadline), or
		 * a command would wait until the host answers again. */
		now = clock_mono_ns();
		uint64_t ms = next > now ? (next - now + NS_PER_MS - 1) / NS_PER_MS : 0;
		struct pollfd p[2] = {
		    {.fd = STDIN_FILENO, .events = POLLIN},
		    {.fd = a.writer ? source_async_fd(a.writer) : -1, .events = POLLIN}};
		int r = poll(p, 2, ms > 100 ? 100 : (int)ms);
		if (r < 0 && errno != EINTR)
			break;
		if (r > 0 && (p[1].revents & POLLIN))
			agent_results(&a);
		/* Readable, or hung up: a read of 0 is the link closing. */
		if (r > 0 && p[0].revents && !agent_read(&a))
			break;
	}
	source_async_stop(a.writer); /* a write in progress ends within its own deadline */
	json_decref(a.prev);
	snapshot_free(snap);
	after_close(a.after);
	return a.failed ? 1 : 0;
}
