/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host_acct.c: a host thread's last sample by tid, and the TASKSTATS queries of a sample sent
 * in batches (host_tscomm.c) for the threads that take its accounting slots. */
#include <stdbool.h>
#include <stddef.h>

#include "core/xalloc.h"
#include "backends/host/host_int.h"
#include "backends/host/host_sched.h"
#include "backends/host/host_tscomm.h"

const struct host_tprev *host_prev_find(const struct host_state *h, pid_t tid)
{
	size_t lo = 0, hi = h->nprev;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (h->prev[mid].tid == tid)
			return &h->prev[mid];
		if (h->prev[mid].tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Whether thread i's TASKSTATS answer takes one of the HOST_SNAP_MAX_ACCT slots: it shows
 * its figures (it was asked at the last sample too), or this is the first sample, where no
 * thread shows any and the first ones answering make the next sample's. */
static bool host_acct_slot(const struct host_state *h, size_t i)
{
	const struct host_tprev *pv = host_prev_find(h, h->cur[i].tid);
	return pv ? pv->acct : h->nprev == 0;
}

/*
 * The TASKSTATS queries of a sample, in batches: thread i is asked while fewer than
 * HOST_SNAP_MAX_ACCT of those before it took a slot, as one query per thread decided it; a
 * batch is as many as the slots left, so none in it would not have been asked. The answers
 * in acct_q and acct_ok; returns how many threads (the first ones) were asked.
 */
void host_acct_fill(struct host_acct_snap *as, const struct host_tprev *nx,
		    const struct host_tprev *pv, uint64_t dt_ns, uint64_t win_ns)
{
	double dt_s = (double)dt_ns / 1e9;
	as->tid = nx->tid;
	as->cpu_delay_pct = nx->cpu_delay_ns >= pv->cpu_delay_ns
				? host_sched_window_pct(nx->cpu_delay_ns - pv->cpu_delay_ns, win_ns)
				: 0;
	as->blkio_delay_pct =
	    nx->blkio_delay_ns >= pv->blkio_delay_ns && dt_ns
		? 100.0 * (double)(nx->blkio_delay_ns - pv->blkio_delay_ns) / (double)dt_ns
		: 0;
	as->nvcsw_per_s =
	    dt_s > 0 && nx->nvcsw >= pv->nvcsw ? (double)(nx->nvcsw - pv->nvcsw) / dt_s : 0;
	as->nivcsw_per_s =
	    dt_s > 0 && nx->nivcsw >= pv->nivcsw ? (double)(nx->nivcsw - pv->nivcsw) / dt_s : 0;
}

size_t host_acct_batch(struct host_state *h)
{
	size_t nq = 0, slots = 0;
	while (h->tsb && slots < HOST_SNAP_MAX_ACCT && nq < h->ncur) {
		size_t m = HOST_SNAP_MAX_ACCT - slots;
		if (m > h->ncur - nq)
			m = h->ncur - nq;
		for (size_t k = 0; k < m; k++)
			h->acct_tid[k] = h->cur[nq + k].tid;
		if (h->acct_cap < nq + m) {
			h->acct_cap = h->ncur;
			h->acct_q = xreallocarray(h->acct_q, h->acct_cap, sizeof(*h->acct_q));
			h->acct_ok = xreallocarray(h->acct_ok, h->acct_cap, sizeof(*h->acct_ok));
		}
		int rc = host_tscomm_acct(h->tsb, h->acct_tid, m, h->acct_q + nq, h->acct_ok + nq);
		for (size_t k = 0; k < m; k++)
			if (h->acct_ok[nq + k] && host_acct_slot(h, nq + k))
				slots++;
		nq += m;
		if (rc != 0)
			break; /* the socket failed (or timed out): the rest read schedstat */
	}
	return nq;
}
