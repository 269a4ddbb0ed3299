/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host_slack.c: pmd.timer_slack_ns on the host: the slack of ovs-vswitchd's PMD threads,
 * written to /proc/TID/timerslack_ns of each, read back, kept on PMDs OVS starts later. */
#include <stdio.h>
#include <string.h>

#include "backends/host/host_int.h"
#include "backends/host/host_sched.h"
#include "core/clock.h"
#include "core/xalloc.h"

#define HOST_SLACK_MAX_PMDS 256
/* How long a PMD thread OVS has just started stays tunetop's to set: OVS sets its own slack
 * (1 us in 3.1+) as the thread starts, maybe after tunetop first saw it. Past this, a slack
 * that differs was set by someone else. */
#define HOST_SLACK_SETTLE_NS (3ULL * NS_PER_S)

struct host_slack_seen {
	pid_t tid;
	uint64_t first_ns; /* when first seen; 0 once settled (or there when the value was set) */
	bool announced; /* its "applied to new PMD thread" event was given */
};

/*
 * The ovs-vswitchd tunetop talks to (host_ovs_pid: the control socket's peer): a host (or a
 * test machine) may run several, and only the one whose PMDs are shown is read and changed.
 * 0 when unknown: then every ovs-vswitchd's PMDs.
 */
pid_t host_slack_ovs_pid(const struct host_state *h)
{
	return h->ovs ? host_ovs_pid(h->ovs) : 0;
}

static int host_slack_pmds(struct host_state *h, pid_t *tids)
{
	return h->ovs ? host_sched_ovs_pmds(h->cur, h->ncur, host_slack_ovs_pid(h), tids,
					    HOST_SLACK_MAX_PMDS)
		      : 0;
}

int host_slack_apply(struct host_state *h, int64_t ns, char *err, size_t errlen)
{
	pid_t tids[HOST_SLACK_MAX_PMDS];
	if (!h->ovs) {
		snprintf(err, errlen, "pmd.timer_slack_ns: no Open vSwitch control socket (%s)",
			 h->ovs_err[0] ? h->ovs_err : "set TUNETOP_OVS_SOCKET");
		return KNOB_ERR_RUNTIME;
	}
	int n = host_slack_pmds(h, tids);
	if (n == 0) {
		snprintf(err, errlen, "pmd.timer_slack_ns: no PMD thread of ovs-vswitchd found");
		return KNOB_ERR_RUNTIME;
	}
	for (int i = 0; i < n; i++)
		if (host_sched_slack_write(tids[i], ns, err, errlen) != 0)
			return KNOB_ERR_RUNTIME;
	h->slack_set_ns = ns; /* kept on PMD threads OVS starts later (host_slack_reapply) */
	if (!h->slack_known)
		h->slack_known = xcalloc(HOST_SLACK_MAX_PMDS, sizeof(*h->slack_known));
	for (int i = 0; i < n; i++)
		h->slack_known[i] = (struct host_slack_seen){.tid = tids[i]};
	h->nslack_known = n;
	return 0;
}

int host_slack_current(struct host_state *h, int64_t *out)
{
	pid_t tids[HOST_SLACK_MAX_PMDS];
	int n = host_slack_pmds(h, tids);
	for (int i = 0; i < n; i++) {
		int64_t v = host_sched_slack_read(tids[i]);
		if (v >= 0) {
			*out = v;
			return 0;
		}
	}
	return -1;
}

static const struct host_slack_seen *slack_seen(const struct host_state *h, pid_t tid)
{
	for (int i = 0; i < h->nslack_known; i++)
		if (h->slack_known[i].tid == tid)
			return &h->slack_known[i];
	return NULL;
}

int host_slack_reapply(struct host_state *h, char *msg, size_t len)
{
	pid_t tids[HOST_SLACK_MAX_PMDS];
	struct host_slack_seen now_seen[HOST_SLACK_MAX_PMDS];
	uint64_t now = clock_mono_ns();
	int fixed = 0;
	msg[0] = '\0';
	if (h->slack_set_ns < 0)
		return 0;
	int n = host_slack_pmds(h, tids);
	/* A thread that was there when the value was set, or has settled since, and now differs
	 * was changed by someone else (echo > /proc/TID/timerslack_ns): it keeps that value, and
	 * the PMD view counts it as differing. A thread OVS started since gets the value, again
	 * while it settles (OVS sets its own as the thread starts). */
	for (int i = 0; i < n; i++) {
		const struct host_slack_seen *old = slack_seen(h, tids[i]);
		struct host_slack_seen *e = &now_seen[i];
		*e = old ? *old : (struct host_slack_seen){.tid = tids[i], .first_ns = now};
		if (e->first_ns && now - e->first_ns >= HOST_SLACK_SETTLE_NS)
			e->first_ns = 0;
		if (!e->first_ns)
			continue;
		int64_t v = host_sched_slack_read(tids[i]);
		if (v < 0 || v == h->slack_set_ns)
			continue;
		if (host_sched_slack_write(tids[i], h->slack_set_ns, msg, len) != 0)
			return -1;
		if (!e->announced) {
			e->announced = true;
			fixed++;
			snprintf(msg, len, "pmd.timer_slack_ns: %lld applied to new PMD thread %d",
				 (long long)h->slack_set_ns, (int)tids[i]);
		}
	}
	/* Threads gone are forgotten (a tid can be reused). */
	memcpy(h->slack_known, now_seen, (size_t)n * sizeof(*now_seen));
	h->nslack_known = n;
	return fixed;
}

/* The snapshot's row of thread tid, NULL when it has none (gone since the scan: no row). */
static const struct snap_thread *snap_thread_of(const struct snapshot *snap, pid_t tid)
{
	for (size_t i = 0; i < snap->nthreads; i++)
		if (snap->threads[i].tid == tid)
			return &snap->threads[i];
	return NULL;
}

const struct host_thread_info *host_slack_cur_of(const struct host_state *h, pid_t tid)
{
	for (size_t k = 0; k < h->ncur; k++)
		if (h->cur[k].tid == tid)
			return &h->cur[k];
	return NULL;
}

void host_slack_pmdsec(struct host_state *h, struct snapshot *snap, pid_t *row_tid)
{
	struct pmd_snap *p = &snap->pmd;
	pid_t vpid = host_slack_ovs_pid(h);
	p->timer_slack_differs = 0;
	for (int i = 0; i < p->nthreads; i++) {
		struct pmd_thread_snap *t = &p->threads[i];
		t->timer_slack_ns = -1;
		row_tid[i] = 0;
		/* Joined by tid: a thread gone between the scan and its read has no row in
		 * snap->threads, so the two tables differ in length and order past it. Another
		 * ovs-vswitchd's PMD may carry the same name, its pid tells them apart. */
		for (size_t k = 0; k < h->ncur; k++) {
			const struct snap_thread *st = snap_thread_of(snap, h->cur[k].tid);
			if (st && strcmp(h->cur[k].comm, t->name) == 0 &&
			    (!vpid || h->cur[k].pid == vpid)) {
				row_tid[i] = h->cur[k].tid;
				t->timer_slack_ns = st->timer_slack_ns;
			}
		}
		if (i == 0 || p->timer_slack_ns < 0)
			p->timer_slack_ns = t->timer_slack_ns; /* this OVS's first PMD, by pid */
		if (h->slack_set_ns >= 0 && t->timer_slack_ns >= 0 &&
		    t->timer_slack_ns != h->slack_set_ns)
			p->timer_slack_differs++;
	}
}
