/* SPDX-License-Identifier: GPL-2.0-or-later */
/* est_pkt.c: packet-path threads: dest, service and tot_stats counters, as ip_vs_in_stats does. */
#include "engine/est/est_pkt.h"

#include <stdio.h>

#include "engine/engine.h"

static uint64_t est_pkt_rand(uint64_t *s) /* xorshift64*: cheap, per thread */
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

static void est_pkt_count(struct est_state *st, uint32_t idx, int cpu, bool in, uint64_t bytes,
			  bool conn)
{
	struct est_pcpu *p = est_ctr_line(&st->ctr, idx + 1, cpu);
	if (conn)
		est_ctr_add(p, EST_CONNS, 1);
	est_ctr_add(p, in ? EST_INPKTS : EST_OUTPKTS, 1);
	est_ctr_add(p, in ? EST_INBYTES : EST_OUTBYTES, bytes);
}

static void est_pkt_main(struct ethread *self)
{
	struct est_pkt_arg *a = self->arg;
	struct est_state *st = a->st;
	int ncpus = st->ctr.ncpus, n = st->npkt;
	int mine = (ncpus - a->idx + n - 1) / n; /* emulated CPUs this thread owns */
	uint64_t rng = 0x9E3779B97F4A7C15ULL * (uint64_t)(a->idx + 1);
	uint64_t next = clock_mono_ns() + EST_PKT_PERIOD_NS;
	double carry = 0;

	while (!ethread_should_stop(self)) {
		ethread_set_state(self, ETHREAD_SLEEP);
		clock_sleep_until_ns(next);
		ethread_set_state(self, ETHREAD_RUN);
		double want = (double)engine_knob(st->eng, K_EST_TRAFFIC_PPS) *
				  (double)EST_PKT_PERIOD_NS / 1e9 / n +
			      carry;
		uint64_t pkts = (uint64_t)want;
		carry = want - (double)pkts;
		if (pkts > EST_PKT_MAX_PER_PERIOD)
			pkts = EST_PKT_MAX_PER_PERIOD;
		/* Acquire: the counter chunks of every live estimator are visible. */
		uint32_t live = atomic_load_explicit(&st->live, memory_order_acquire);
		for (uint64_t k = 0; k < pkts && live && mine > 0; k++) {
			uint64_t r = est_pkt_rand(&rng);
			int cpu = a->idx + n * (int)(r % (uint64_t)mine);
			uint32_t dest = live > 1 ? 1 + (uint32_t)((r >> 16) % (live - 1)) : 0;
			uint32_t svc = 1 + (dest - 1) / EST_PKT_GROUP * EST_PKT_GROUP;
			bool in = (r >> 8) & 1, conn = k % EST_PKT_PER_CONN == 0;
			uint64_t bytes = 64 + (r >> 40) % 1400;
			if (dest) {
				est_pkt_count(st, dest, cpu, in, bytes, conn);
				if (svc != dest)
					est_pkt_count(st, svc, cpu, in, bytes, conn);
			}
			est_pkt_count(st, 0, cpu, in, bytes, conn); /* tot_stats */
		}
		atomic_fetch_add_explicit(&st->pkt_total, pkts, memory_order_relaxed);
		ethread_beat(self);
		next += EST_PKT_PERIOD_NS;
		uint64_t now = clock_mono_ns();
		if (next < now)
			next = now + EST_PKT_PERIOD_NS; /* fell behind: no burst */
	}
}

int est_pkt_start(struct est_state *st, char *err, size_t errlen)
{
	struct engine *eng = st->eng;
	int ncpu = eng->cpu.count > 0 ? eng->cpu.count : 1;

	st->npkt = st->ctr.ncpus < EST_PKT_THREADS ? st->ctr.ncpus : EST_PKT_THREADS;
	for (int i = 0; i < st->npkt; i++) {
		char name[32]; /* ethread_start() truncates to 15 */
		snprintf(name, sizeof(name), "est-pkt:%d", i % EST_PKT_THREADS);
		st->pkt_arg[i] = (struct est_pkt_arg){.st = st, .idx = i};
		/* From the last emulated CPU down, away from kthread 0 on CPU 0. */
		st->pkt[i] =
		    ethread_start(eng, name, SUBSYS_EST, (ncpu - 1 - i % ncpu + ncpu) % ncpu,
				  est_pkt_main, &st->pkt_arg[i], err, errlen);
		if (!st->pkt[i]) {
			st->npkt = i;
			est_pkt_stop(st);
			return -1;
		}
	}
	return 0;
}

void est_pkt_stop(struct est_state *st)
{
	for (int i = 0; i < st->npkt; i++)
		ethread_request_stop(st->pkt[i]);
	for (int i = 0; i < st->npkt; i++)
		ethread_join(st->pkt[i]);
	st->npkt = 0;
}
