/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * src_remote.c: remote hosts as a source, and the fleet API the console and the batch writer
 * use (src_remote.h). Each host is an ssh link (remote_host.c); sample() never waits: it
 * hands over the selected host's latest whole snapshot. Knob sets go to the far side and the
 * reply comes back through knob_result(); a host that drops is marked down and tried again.
 */
#include "backends/remote/src_remote.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/remote/remote_int.h"
#include "backends/replay/snapdec.h"
#include "core/clock.h"
#include "core/utf8.h"
#include "core/xalloc.h"

/* Closing: how long ssh gets to end on its own once its stdin closed. */
#define REMOTE_CLOSE_WAIT_MS 1500

/* The fleet view asks for every row and the notes each frame, and each asks to pump: once
 * in this long is enough, so a frame pays each host's read budget once, not once a row. */
#define REMOTE_PUMP_EVERY_NS (10 * NS_PER_MS)

static void remote_pump(struct remote *r)
{
	uint64_t now = clock_mono_ns();
	if (r->pumped_ns && now - r->pumped_ns < REMOTE_PUMP_EVERY_NS)
		return;
	r->pumped_ns = now;
	for (int i = 0; i < r->n; i++)
		remote_host_pump(r, &r->h[i], now);
}

static int remote_open(struct source *src, const struct source_conf *conf, char *err, size_t errlen)
{
	if (!conf->nremotes) {
		snprintf(err, errlen, "needs --remote HOST");
		return KNOB_ERR_USAGE;
	}
	for (size_t i = 0; i < conf->nremotes; i++) {
		const char *name = conf->remotes[i];
		char safe[256];
		utf8_sanitize_term(safe, sizeof(safe), name);
		/* A leading '-': ssh would take it for an option (-oProxyCommand=... runs a
		 * command). A control character: no host has one, and the name is printed. */
		if (!name[0] || name[0] == '-' || strcmp(safe, name) != 0) {
			snprintf(err, errlen, "--remote '%s': not a host name", safe);
			return KNOB_ERR_USAGE;
		}
	}
	struct remote *r = xcalloc(1, sizeof(*r));
	r->ssh_argv = remote_split_argv(conf->ssh ? conf->ssh : "ssh", err, errlen);
	if (!r->ssh_argv) {
		free(r);
		return KNOB_ERR_USAGE;
	}
	while (r->ssh_argv[r->ssh_argc])
		r->ssh_argc++;
	r->delay_s = conf->delay_s > 0 ? conf->delay_s : 1.0;
	/* exec: the far shell becomes the agent, so no shell is left when it ends. */
	size_t len = 4;
	char num[32];
	r->far_cmd = xstrdup("exec");
	remote_shell_quote(&r->far_cmd, &len, conf->agent_path ? conf->agent_path : "tunetop");
	remote_shell_quote(&r->far_cmd, &len, "--agent");
	remote_shell_quote(&r->far_cmd, &len, "-d");
	snprintf(num, sizeof(num), "%g", r->delay_s);
	remote_shell_quote(&r->far_cmd, &len, num);
	if (conf->host_write)
		remote_shell_quote(&r->far_cmd, &len, "--write");
	for (const char *const *a = conf->agent_args; a && *a; a++)
		remote_shell_quote(&r->far_cmd, &len, *a);
	r->n = (int)conf->nremotes;
	r->h = xcalloc(conf->nremotes, sizeof(*r->h));
	for (int i = 0; i < r->n; i++)
		remote_host_init(&r->h[i], conf->remotes[i]);
	src->priv = r;
	return 0;
}

static int remote_start(struct source *src, char *err, size_t errlen)
{
	struct remote *r = src->priv;
	for (int i = 0; i < r->n; i++)
		if (remote_host_spawn(r, &r->h[i]) != 0) {
			snprintf(err, errlen, "%s: cannot start ssh: %s", r->h[i].name,
				 strerror(errno));
			return -1;
		}
	return 0;
}

static void remote_sample(struct source *src, struct snapshot *snap)
{
	struct remote *r = src->priv;
	struct remote_host *h = &r->h[r->sel];
	struct timespec ts;

	remote_pump(r);
	if (h->have) {
		snapshot_copy(snap, h->snap);
		if (!h->fresh)
			snap->nevents = 0; /* its events were shown with it already */
		h->fresh = false;
	} else {
		/* Nothing yet: an empty snapshot (the header says so), no stale figures. */
		snap->ncpus = 0;
		snap->nthreads = 0;
		snap->has_est = snap->has_pmd = snap->has_blk = snap->has_host = false;
		snap->nevents = 0;
		snap->governor = -1;
		snap->governor_absent = true;
		for (int k = 0; k < K_COUNT; k++)
			snap->knobs[k] = knob_table[k].def;
		clock_gettime(CLOCK_REALTIME, &ts);
		snap->wall_ns = clock_ts_to_ns(&ts);
		snap->backend = "remote";
	}
	snap->mono_ns = clock_mono_ns();
	for (size_t i = 0; i < r->nev && snap->nevents < SNAP_MAX_EVENTS; i++)
		snap->events[snap->nevents++] = r->ev[i];
	r->nev = 0;
}

static int remote_knob_set(struct source *src, enum knob_id id, int64_t v, int64_t *stored,
			   char *err, size_t errlen)
{
	struct remote *r = src->priv;
	struct remote_host *h = &r->h[r->sel];
	char val[64], cmd[256];
	if (h->state == REMOTE_DOWN) {
		snprintf(err, errlen, "%s is down (%s)", h->name, h->reason);
		return KNOB_ERR_RUNTIME;
	}
	knob_format(id, v, val, sizeof(val));
	snprintf(cmd, sizeof(cmd), "set %s %s\n", knob_table[id].name, val);
	remote_host_queue(h, cmd);
	remote_host_flush(r, h);
	*stored = v; /* sent: the far side's reply (note()) says what it stored */
	return 0;
}

static int remote_knob_get(struct source *src, enum knob_id id, int64_t *out)
{
	struct remote *r = src->priv;
	struct remote_host *h = &r->h[r->sel];
	if (!h->have)
		return -1;
	*out = h->snap->knobs[id];
	return 0;
}

static size_t remote_status(struct source *src, char *buf, size_t len)
{
	struct remote *r = src->priv;
	struct remote_host *h = &r->h[r->sel];
	int up = 0;
	for (int i = 0; i < r->n; i++)
		up += r->h[i].state == REMOTE_UP;
	const char *state = h->state == REMOTE_UP     ? "up"
			    : h->state == REMOTE_DOWN ? "down"
						      : "connecting";
	int n;
	if (r->n > 1)
		n = snprintf(buf, len, "%s (%d/%d hosts up) %s %.0f B/s", h->name, up, r->n, state,
			     h->rate);
	else
		n = snprintf(buf, len, "remote %s %s %.0f B/s", h->name, state, h->rate);
	return n < 0 ? 0 : (size_t)n < len ? (size_t)n : len - 1;
}

static bool remote_note_pop(struct source *src, char *buf, size_t len, bool *err)
{
	struct remote *r = src->priv;
	remote_pump(r);
	if (!r->nnotes)
		return false;
	snprintf(buf, len, "%s", r->notes[r->nhead]);
	*err = r->note_err[r->nhead];
	r->nhead = (r->nhead + 1) % REMOTE_NOTES;
	r->nnotes--;
	return true;
}

static bool remote_knob_result(struct source *src, struct source_knob_result *out)
{
	struct remote *r = src->priv;
	remote_pump(r);
	if (!r->nres)
		return false;
	*out = r->res[r->rhead];
	r->rhead = (r->rhead + 1) % REMOTE_NOTES;
	r->nres--;
	return true;
}

static void remote_close(struct source *src)
{
	struct remote *r = src->priv;
	if (!r)
		return;
	/* Every host is told first, then waited for: they end together, within one wait. */
	for (int i = 0; i < r->n; i++)
		remote_host_hangup(r, &r->h[i]);
	uint64_t end = clock_mono_ns() + REMOTE_CLOSE_WAIT_MS * NS_PER_MS;
	for (int i = 0; i < r->n; i++)
		remote_host_reap(&r->h[i], end);
	free(r->h);
	free(r->far_cmd);
	remote_argv_free(r->ssh_argv);
	free(r);
	src->priv = NULL;
}

/* The fleet's ops (backends/source.h "struct source_fleet_ops"). */
static int remote_count(struct source *src)
{
	return ((struct remote *)src->priv)->n;
}

/* The host states are the fleet's, in the same order. */
_Static_assert((int)REMOTE_CONNECTING == (int)FLEET_CONNECTING && (int)REMOTE_UP == (int)FLEET_UP &&
		   (int)REMOTE_DOWN == (int)FLEET_DOWN,
	       "enum remote_state follows enum fleet_state");

static bool remote_row(struct source *src, int i, struct fleet_row *row)
{
	if (i < 0 || i >= remote_count(src))
		return false;
	struct remote *r = src->priv;
	struct remote_host *h = &r->h[i];
	uint64_t now = clock_mono_ns();
	remote_pump(r);
	*row = (struct fleet_row){
	    .name = h->name,
	    .state = (enum fleet_state)h->state,
	    .reason = h->reason,
	    .broken = h->broken,
	    .snap = h->have ? h->snap : NULL,
	    .age_s = h->have ? (double)(now - h->snap_ns) / 1e9 : 0,
	    .retry_in_s = h->state != REMOTE_DOWN     ? 0
			  : h->retry_ns == UINT64_MAX ? -1
			  : h->retry_ns > now	      ? (double)(h->retry_ns - now) / 1e9
						      : 0,
	    .rx_bytes = h->rx_bytes,
	    .rx_bytes_per_s = h->rate,
	    .dropped_paths = h->dropped_paths,
	};
	return true;
}

static void remote_select(struct source *src, int i)
{
	if (i >= 0 && i < remote_count(src))
		((struct remote *)src->priv)->sel = i;
}

static int remote_selected(struct source *src)
{
	return ((struct remote *)src->priv)->sel;
}

static int remote_set_all(struct source *src, const char *assignment, char *err, size_t errlen)
{
	struct remote *r = src->priv;
	enum knob_id id;
	int64_t v;
	char val[64], cmd[256];
	int rc = knob_parse_assignment(assignment, &id, &v, err, errlen), sent = 0;
	if (rc != 0)
		return rc;
	knob_format(id, v, val, sizeof(val));
	snprintf(cmd, sizeof(cmd), "set %s %s\n", knob_table[id].name, val);
	for (int i = 0; i < r->n; i++) {
		struct remote_host *h = &r->h[i];
		if (h->state == REMOTE_DOWN) {
			remote_note(r, true, "%s: not sent (down: %s)", h->name, h->reason);
			continue;
		}
		remote_host_queue(h, cmd);
		remote_host_flush(r, h);
		sent++;
	}
	return sent;
}

static bool remote_take_new(struct source *src, int i, const struct snapshot **out)
{
	if (i < 0 || i >= remote_count(src))
		return false;
	struct remote_host *h = &((struct remote *)src->priv)->h[i];
	/* A mark of its own, apart from sample()'s: -b and --record see every snapshot once. */
	if (!h->have || h->taken_ns == h->snap_ns)
		return false;
	*out = h->snap;
	h->taken_ns = h->snap_ns;
	return true;
}

static const struct source_fleet_ops remote_fleet_ops = {
    .count = remote_count,
    .row = remote_row,
    .select = remote_select,
    .selected = remote_selected,
    .set_all = remote_set_all,
    .take_new = remote_take_new,
};

const struct source_ops source_remote_ops = {
    .name = "remote",
    .fleet = &remote_fleet_ops,
    .open = remote_open,
    .start = remote_start,
    .sample = remote_sample,
    .knob_set = remote_knob_set,
    .knob_get = remote_knob_get,
    .close = remote_close,
    .recorded = true,
    .status = remote_status,
    .async_knobs = true,
    .far_scenarios = true,
    .knob_result = remote_knob_result,
    .note = remote_note_pop,
};
