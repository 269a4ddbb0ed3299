/* host_slack.c: pmd.timer_slack_ns on the host: the slack of ovs-vswitchd's PMD threads,
 * written to /proc/TID/timerslack_ns of each, read back, kept on PMDs OVS starts later. */
#include <stdio.h>
#include <string.h>

#include "backends/host_int.h"
#include "backends/host_sched.h"

#define HOST_SLACK_MAX_PMDS 256

int host_slack_apply(struct host_state *h, int64_t ns, char *err, size_t errlen)
{
	pid_t tids[HOST_SLACK_MAX_PMDS];
	int n = host_sched_ovs_pmds(h->cur, h->ncur, tids, HOST_SLACK_MAX_PMDS);
	if (n == 0) {
		snprintf(err, errlen, "pmd.timer_slack_ns: no PMD thread of ovs-vswitchd found");
		return KNOB_ERR_RUNTIME;
	}
	for (int i = 0; i < n; i++)
		if (host_sched_slack_write(tids[i], ns, err, errlen) != 0)
			return KNOB_ERR_RUNTIME;
	h->slack_set_ns = ns; /* kept on PMD threads OVS starts later (host_slack_reapply) */
	return 0;
}

int host_slack_current(struct host_state *h, int64_t *out)
{
	pid_t tids[HOST_SLACK_MAX_PMDS];
	int n = host_sched_ovs_pmds(h->cur, h->ncur, tids, HOST_SLACK_MAX_PMDS);
	for (int i = 0; i < n; i++) {
		int64_t v = host_sched_slack_read(tids[i]);
		if (v >= 0) {
			*out = v;
			return 0;
		}
	}
	return -1;
}

int host_slack_reapply(struct host_state *h, char *msg, size_t len)
{
	pid_t tids[HOST_SLACK_MAX_PMDS];
	int fixed = 0;
	msg[0] = '\0';
	if (h->slack_set_ns < 0)
		return 0;
	int n = host_sched_ovs_pmds(h->cur, h->ncur, tids, HOST_SLACK_MAX_PMDS);
	for (int i = 0; i < n; i++) {
		int64_t v = host_sched_slack_read(tids[i]);
		if (v < 0 || v == h->slack_set_ns)
			continue;
		if (host_sched_slack_write(tids[i], h->slack_set_ns, msg, len) != 0)
			return -1;
		fixed++;
		snprintf(msg, len, "pmd.timer_slack_ns: %lld applied to new PMD thread %d",
			 (long long)h->slack_set_ns, (int)tids[i]);
	}
	return fixed;
}

void host_slack_pmdsec(struct host_state *h, struct snapshot *snap)
{
	struct pmd_snap *p = &snap->pmd;
	p->timer_slack_differs = 0;
	for (int i = 0; i < p->nthreads; i++) {
		struct pmd_thread_snap *t = &p->threads[i];
		t->timer_slack_ns = -1;
		for (size_t k = 0; k < snap->nthreads; k++)
			if (strcmp(snap->threads[k].name, t->name) == 0 &&
			    snap->threads[k].timer_slack_ns >= 0)
				t->timer_slack_ns = snap->threads[k].timer_slack_ns;
		if (p->timer_slack_ns < 0)
			p->timer_slack_ns = t->timer_slack_ns;
		if (h->slack_set_ns >= 0 && t->timer_slack_ns >= 0 &&
		    t->timer_slack_ns != h->slack_set_ns)
			p->timer_slack_differs++;
	}
}
