/* SPDX-License-Identifier: GPL-2.0-or-later */
/* src_host.c: the live host as a source: host threads, CPUs and the knobs the host owns.
 * Read-only unless opened with --write; every write is read back and logged. */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <syslog.h>
#include <unistd.h>

#include "backends/host/host.h"
#include "backends/host/host_blk.h"
#include "backends/host/ovs/host_ovs.h"
#include "backends/host/host_sched.h"
#include "backends/source.h"
#include "core/clock.h"
#include "core/event.h"
#include "core/xalloc.h"

struct src_host {
	struct host_state *h;
	struct source_conf conf;
	struct event_log events;
	uint64_t ev_seq;
	struct snapshot_clock clock;
	int64_t knobs[K_COUNT]; /* the last value read back (or the default) */
	bool have[K_COUNT]; /* the host gave a value for it */
	char no_syslog[96]; /* --write without a syslog socket: why (else ""); set at open */
	/* The probe hooks every syscall: written by knob_set (the knob writer's thread), read by
	 * status (the front end's, even while an async sampler runs): relaxed, a flag alone. */
	atomic_bool every_syscall;
	/* The ovs-vswitchd that answered last (0 none yet) and whether it did at the last
	 * sample: the sampler's own, for the restart and stop events (src_host_ovs_events). */
	pid_t ovs_pid;
	bool ovs_up;
	char est_noted[200]; /* the est section's source as last said in an event */
};

/*
 * Whether syslog(3) can deliver: it sends to /dev/log and drops the line without a word
 * when nothing listens there (no syslog daemon, a container). Connects as glibc does
 * (datagram, then stream). 0, or -1 with why in buf.
 */
static int src_host_syslog_check(char *buf, size_t len)
{
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	snprintf(a.sun_path, sizeof(a.sun_path), "%s", _PATH_LOG);
	int err = 0;
	for (int i = 0; i < 2; i++) {
		int fd = socket(AF_UNIX, (i ? SOCK_STREAM : SOCK_DGRAM) | SOCK_CLOEXEC, 0);
		if (fd < 0) {
			err = errno;
			continue;
		}
		int rc = connect(fd, (struct sockaddr *)&a, sizeof(a));
		err = rc ? errno : 0;
		close(fd);
		if (rc == 0)
			return 0;
		if (err != EPROTOTYPE)
			break;
	}
	snprintf(buf, len, "%s: %s", _PATH_LOG, strerror(err));
	return -1;
}

/* The knobs a host owns; all others belong to the engine's workloads. */
static bool src_host_owns(enum knob_id id)
{
	return id == K_CPU_GOVERNOR || id == K_BLK_RQ_AFFINITY || id == K_PMD_MAXSLEEP_US ||
	       id == K_HOST_PID || id == K_PMD_TIMER_SLACK_NS || id == K_PMD_SLEEP_PROBE;
}

/* Knobs that change the machine (host.pid only changes what tunetop watches). */
static bool src_host_writes_machine(enum knob_id id)
{
	return src_host_owns(id) && id != K_HOST_PID && id != K_PMD_SLEEP_PROBE;
}

static void src_host_read_back(struct src_host *sh, enum knob_id id)
{
	int64_t v;
	if (host_knob_current(sh->h, id, &v) == 0) {
		sh->have[id] = true;
		sh->knobs[id] = v;
	} else if (!sh->have[id]) {
		sh->knobs[id] = knob_table[id].def; /* never read: absent, not this default */
	}
	/* else a read that fails now (ovsdb down, vswitchd busy) keeps the value last read:
	 * the host still runs with it, and a key steps from it rather than from the default. */
}

/* A PMD thread OVS started after pmd.timer_slack_ns was set gets the value too. */
static void src_host_slack_keep(struct src_host *sh)
{
	char msg[160];
	int n = host_slack_reapply(sh->h, msg, sizeof(msg));
	if (n < 0)
		event_add(&sh->events, EV_ERROR, "%s", msg);
	if (n > 0) {
		event_add(&sh->events, EV_KNOB, "%s", msg);
		syslog(LOG_NOTICE, "host knob %s (by uid %u)", msg, (unsigned)getuid());
	}
}

static int src_host_open(struct source *src, const struct source_conf *conf, char *err,
			 size_t errlen)
{
	const char *dev = getenv("TUNETOP_BLK_DEV");
	char path[192];
	/* A variable naming no device is the user's mistake, not the host's: exit 2. */
	if (dev && *dev && host_blk_rq_path(dev, path, sizeof(path), err, errlen) != 0)
		return KNOB_ERR_USAGE;
	struct src_host *sh = xcalloc(1, sizeof(*sh));
	sh->conf = *conf;
	sh->h = host_open(err, errlen);
	if (!sh->h) {
		free(sh);
		return -1;
	}
	event_log_init(&sh->events);
	for (int k = 0; k < K_COUNT; k++)
		sh->knobs[k] = knob_table[k].def;
	for (int k = 0; k < K_COUNT; k++)
		if (src_host_owns(k))
			src_host_read_back(sh, k);
	snapshot_clock_start(&sh->clock);
	if (conf->host_write && src_host_syslog_check(sh->no_syslog, sizeof(sh->no_syslog)) != 0) {
		/* The audit trail would vanish: say so before the first write, on stderr (the
		 * screen is not up yet) and in the events, which keep every write. */
		fprintf(stderr,
			"tunetop: warning: --write: no syslog (%s): live writes are logged in "
			"tunetop's events only\n",
			sh->no_syslog);
		event_add(&sh->events, EV_ERROR, "no syslog (%s): live writes are logged here only",
			  sh->no_syslog);
	}
	src->priv = sh;
	return 0;
}

/* The header's note: what the events would otherwise be the only place to say. */
static size_t src_host_status(struct source *src, char *buf, size_t len)
{
	struct src_host *sh = src->priv;
	bool every = atomic_load_explicit(&sh->every_syscall, memory_order_relaxed);
	int n = snprintf(
	    buf, len, "%s%s%s", sh->no_syslog[0] ? "writes not in syslog (see events)" : "",
	    sh->no_syslog[0] && every ? "; " : "", every ? "eBPF probe on every syscall" : "");
	return n > 0 ? (size_t)n : 0;
}

static int src_host_start(struct source *src, char *err, size_t errlen)
{
	struct src_host *sh = src->priv;
	(void)err;
	(void)errlen;
	/* Intervals count from here, on the thread that samples. */
	snapshot_clock_start(&sh->clock);
	return 0;
}

/* An event when the ovs-vswitchd behind the socket stops answering, restarts (another pid)
 * or answers again: its PMD rows, rates and slack are another daemon's or gone from then. */
static void src_host_ovs_events(struct src_host *sh, const struct host_snap *hs)
{
	switch (host_ovs_turn(sh->ovs_pid, sh->ovs_up, hs->ovs_pid, hs->ovs)) {
	case HOST_OVS_STOPPED:
		event_add(&sh->events, EV_ERROR, "ovs-vswitchd (pid %d) stopped answering: %s",
			  (int)sh->ovs_pid, hs->ovs_error[0] ? hs->ovs_error : "no reply");
		break;
	case HOST_OVS_RESTARTED:
		event_add(&sh->events, EV_INFO,
			  "ovs-vswitchd restarted: pid %d, was %d (PMD rates start again)",
			  (int)hs->ovs_pid, (int)sh->ovs_pid);
		break;
	case HOST_OVS_BACK:
		event_add(&sh->events, EV_INFO, "ovs-vswitchd (pid %d) answers again",
			  (int)hs->ovs_pid);
		break;
	case HOST_OVS_SAME:
		break;
	}
	if (hs->ovs && hs->ovs_pid > 0)
		sh->ovs_pid = hs->ovs_pid;
	sh->ovs_up = hs->ovs;
}

static void src_host_sample(struct source *src, struct snapshot *snap)
{
	struct src_host *sh = src->priv;
	uint64_t t0 = clock_mono_ns();

	snapshot_clock_stamp(&sh->clock, snap);
	/* The knob writer (backends/source_async.c's tt-writer) shares h and knobs[]: host.h. */
	host_lock(sh->h);
	snap->has_est = snap->has_pmd = snap->has_blk = false;
	host_sample(sh->h, snap, snap->mono_ns); /* sets the sections it can fill */
	if (sh->conf.host_write)
		src_host_slack_keep(sh);
	/* Knobs the host owns are read back every sample: a change made behind
	 * tunetop's back (sysfs, ovs-vsctl) shows in the next frame. */
	for (int k = 0; k < K_COUNT; k++) {
		if (k == K_BLK_RQ_AFFINITY && snap->has_blk && snap->blk.rq_affinity >= 0) {
			/* One read for both: knobs.blk.rq_affinity and blk.rq_affinity are the
			 * same sysfs read, so a write between two reads cannot split them. */
			sh->knobs[k] = snap->blk.rq_affinity;
			sh->have[k] = true;
		} else if (src_host_owns(k)) {
			src_host_read_back(sh, k);
		}
		snap->knobs[k] = sh->knobs[k];
		/* No value read back: not the default dressed up as the host's. */
		snap->knob_absent[k] = src_host_owns(k) && !sh->have[k];
	}
	if (snap->has_est) {
		/* Where chain_max came from, said once and again when it changes. */
		char est[sizeof(sh->est_noted)];
		bool read = host_est_source(sh->h, est, sizeof(est));
		if (strcmp(est, sh->est_noted) != 0) {
			event_add(&sh->events, read ? EV_INFO : EV_ERROR, "est: %s", est);
			snprintf(sh->est_noted, sizeof(sh->est_noted), "%s", est);
		}
	}
	host_unlock(sh->h);
	src_host_ovs_events(sh, &snap->host);
	snap->nevents = event_copy_since(&sh->events, &sh->ev_seq, snap->events, SNAP_MAX_EVENTS);
	snapshot_clock_self(&sh->clock, snap, t0);
}

static int src_host_knob_set_locked(struct source *src, enum knob_id id, int64_t v, int64_t *stored,
				    char *err, size_t errlen)
{
	struct src_host *sh = src->priv;
	const struct knob_def *d = &knob_table[id];
	char oldbuf[64], newbuf[64];

	if (src_host_writes_machine(id) && !sh->conf.host_write) {
		snprintf(err, errlen,
			 "%s: host mode is read-only; start tunetop with --write to change the "
			 "live host",
			 d->name);
		*stored = sh->knobs[id];
		return KNOB_ERR_USAGE;
	}
	/* The old value of the audit line is the host's, read now: "as of the last sample"
	 * is nothing yet for a --set at start-up (it logged the default as the host's). */
	host_knob_refresh(sh->h, id);
	src_host_read_back(sh, id);
	int64_t old = sh->knobs[id];
	bool had_old = sh->have[id];
	int rc = host_knob_apply(sh->h, id, v, err, errlen);
	/* What the host holds now is the answer, whether the write took or not. */
	src_host_read_back(sh, id);
	if (!sh->have[id] && rc == 0)
		sh->knobs[id] = v; /* write-only on this host: the write is all we know */
	*stored = sh->knobs[id];
	if (rc != 0) {
		event_add(&sh->events, EV_ERROR, "%s", err);
		return rc;
	}
	if (id == K_PMD_SLEEP_PROBE && old != *stored) {
		/* Programs loaded into the kernel (or taken out): logged as a write is. */
		event_add(&sh->events, EV_KNOB, "%s: %s -> %s (eBPF sleep probe %s%s)", d->name,
			  old ? "on" : "off", *stored ? "on" : "off",
			  *stored ? "loaded on " : "unloaded",
			  *stored ? host_probe_hook(sh->h) : "");
		syslog(LOG_NOTICE, "host knob %s: %s -> %s (by uid %u)", d->name,
		       old ? "on" : "off", *stored ? "on" : "off", (unsigned)getuid());
		atomic_store_explicit(&sh->every_syscall, host_probe_every_syscall(sh->h),
				      memory_order_relaxed);
		if (host_probe_every_syscall(sh->h))
			event_add(&sh->events, EV_ERROR,
				  "%s: hooked on %s (no fentry or kprobes here): every system call "
				  "on the host pays for it",
				  d->name, host_probe_hook(sh->h));
	}
	if (src_host_writes_machine(id)) {
		if (had_old)
			knob_format(id, old, oldbuf, sizeof(oldbuf));
		else
			snprintf(oldbuf, sizeof(oldbuf), "unknown");
		knob_format(id, *stored, newbuf, sizeof(newbuf));
		event_add(&sh->events, EV_KNOB, "%s: %s -> %s", d->name, oldbuf, newbuf);
		/* An operator's audit trail: who changed the live machine, and how. */
		syslog(LOG_NOTICE, "host knob %s: %s -> %s (by uid %u)", d->name, oldbuf, newbuf,
		       (unsigned)getuid());
	}
	return 0;
}

/* A write may run on a thread of its own while the sampler samples (source_ops.knobs_apart):
 * the lock of host.h around it; pmd.maxsleep_us drops it while it waits on OVS. */
static int src_host_knob_set(struct source *src, enum knob_id id, int64_t v, int64_t *stored,
			     char *err, size_t errlen)
{
	struct src_host *sh = src->priv;
	host_lock(sh->h);
	int rc = src_host_knob_set_locked(src, id, v, stored, err, errlen);
	host_unlock(sh->h);
	return rc;
}

static int src_host_knob_get(struct source *src, enum knob_id id, int64_t *out)
{
	struct src_host *sh = src->priv;
	host_lock(sh->h);
	int rc = src_host_owns(id) && sh->have[id] ? 0 : -1;
	if (rc == 0)
		*out = sh->knobs[id];
	host_unlock(sh->h);
	return rc;
}

static const char *src_host_knob_refusal(const struct source *src, enum knob_id id)
{
	(void)src;
	return src_host_owns(id) ? NULL
				 : "an engine knob: the live host has none (run without --host)";
}

static void src_host_close(struct source *src)
{
	struct src_host *sh = src->priv;
	host_close(sh->h);
	event_log_destroy(&sh->events);
	free(sh);
	src->priv = NULL;
}

const struct source_ops source_host_ops = {
    .name = "host",
    .open = src_host_open,
    .start = src_host_start,
    .sample = src_host_sample,
    .knob_set = src_host_knob_set,
    .knob_get = src_host_knob_get,
    .knob_refusal = src_host_knob_refusal,
    .close = src_host_close,
    .status = src_host_status,
    .blocks = true,
    .knobs_apart = true,
    .writes_machine = true,
    .idle_scenario = true,
};
