/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pmd_feed.c: traffic sources gen:N as time-driven queues, evaluated when their consumer PMD polls.
 */
#include <string.h>

#include "core/clock.h"
#include "engine/pmd/pmd_core.h"

/* on-off: GEN_ONOFF_HALF_NS on at gen.rate_pps, then as long silent. */
#define GEN_ONOFF_HALF_NS (100 * NS_PER_MS)
/* Distinct 5-tuples per source (fit the PMD flow table: all hits after warm-up). */
#define GEN_FLOWS 1024
/* Staging array for one piece offered to one rxq. */
#define GEN_CHUNK 64

enum gen_pattern { GEN_CONSTANT, GEN_BURSTY, GEN_ONOFF };

/* floor(a * b / c) without overflow (a is up to hours in ns, b up to 1e8 pps). */
static uint64_t muldiv(uint64_t a, uint64_t b, uint64_t c)
{
	__extension__ typedef unsigned __int128 u128;
	return (uint64_t)((u128)a * b / c);
}

/* Constant-rate arrivals: packet k (from 0) arrives at (k + 1) / rate after the base. */
static uint64_t const_count(int64_t rate, uint64_t d_ns)
{
	return rate > 0 ? muldiv(d_ns, (uint64_t)rate, NS_PER_S) : 0;
}

static uint64_t const_time(int64_t rate, uint64_t k)
{
	/* Smallest d with const_count(d) >= k + 1: ceil((k + 1) * 1e9 / rate). */
	uint64_t d = muldiv(k + 1, NS_PER_S, (uint64_t)rate);
	return const_count(rate, d) >= k + 1 ? d : d + 1;
}

/* Arrivals of a txonly pattern in (base, base + d_ns]. */
static uint64_t pmd_feed_arrivals(int64_t rate_pps, int pattern, unsigned burst, uint64_t d_ns)
{
	if (rate_pps <= 0)
		return 0;
	switch (pattern) {
	case GEN_BURSTY: {
		/* Whole bursts of gen.burst packets at once: the same mean, lumpy. */
		uint64_t n = const_count(rate_pps, d_ns);
		return n - n % (burst ? burst : 1);
	}
	case GEN_ONOFF: {
		uint64_t per_half = const_count(rate_pps, GEN_ONOFF_HALF_NS);
		uint64_t cycles = d_ns / (2 * GEN_ONOFF_HALF_NS),
			 r = d_ns % (2 * GEN_ONOFF_HALF_NS);
		uint64_t in = const_count(rate_pps, r);
		return cycles * per_half + (in < per_half ? in : per_half);
	}
	default:
		return const_count(rate_pps, d_ns);
	}
}

/* When arrival k (from 0, since the base) happens, relative to the base. */
static uint64_t feed_time_rel(const struct pmd_feed *f, uint64_t k)
{
	switch (f->pattern) {
	case GEN_BURSTY: {
		uint64_t b = f->burst ? f->burst : 1;
		return const_time(f->rate_pps, (k / b + 1) * b - 1);
	}
	case GEN_ONOFF: {
		uint64_t per_half = const_count(f->rate_pps, GEN_ONOFF_HALF_NS);
		if (per_half == 0)
			return UINT64_MAX / 2;
		return k / per_half * 2 * GEN_ONOFF_HALF_NS + const_time(f->rate_pps, k % per_half);
	}
	default:
		return const_time(f->rate_pps, k);
	}
}

static uint64_t feed_count_until(const struct pmd_feed *f, uint64_t t_ns)
{
	if (t_ns < f->base_ns)
		return 0;
	return pmd_feed_arrivals(f->rate_pps, f->pattern, f->burst, t_ns - f->base_ns);
}

/* How many of arrivals [lo, hi) happened within [t0, t1]. */
static uint64_t feed_in_window(const struct pmd_feed *f, uint64_t lo, uint64_t hi, uint64_t t0,
			       uint64_t t1)
{
	if (t1 < t0 || hi <= lo)
		return 0;
	uint64_t a = t0 ? feed_count_until(f, t0 - 1) : 0, b = feed_count_until(f, t1);
	if (a < lo)
		a = lo;
	if (b > hi)
		b = hi;
	return b > a ? b - a : 0;
}

void pmd_feed_init(struct pmd_feed *f, int id, enum pmd_src_kind kind, struct gen_counters *c,
		   uint64_t now_ns)
{
	uint32_t seq = f->seq; /* sequence numbers go on over a restart */
	memset(f, 0, sizeof(*f));
	f->id = id;
	f->kind = kind;
	f->c = c;
	f->seq = seq;
	f->base_ns = f->last_ns = now_ns;
	f->rate_pps = -1; /* forces a (re)base at the first poll */
}

static void gen_build(struct pmd_feed *f, struct pmd_pkt *p, unsigned n, uint64_t k)
{
	static const uint8_t dst[6] = {0x02, 0x00, 0x00, 0x0e, 0x00, 0x01};
	for (unsigned i = 0; i < n; i++, p++) {
		uint32_t seq = f->seq++, fl = seq % GEN_FLOWS;
		memcpy(p->dst_mac, dst, 6);
		p->src_mac[0] = 0x02;
		p->src_mac[1] = 0x00;
		p->src_mac[2] = 0x00;
		p->src_mac[3] = 0x0e;
		p->src_mac[4] = 0x00;
		p->src_mac[5] = (uint8_t)f->id;
		p->ethertype = 0x0800;
		p->ttl = 64;
		p->proto = 17;
		p->src_ip = 0x0a000000u | (uint32_t)f->id << 16 | fl;
		p->dst_ip = 0x0a010000u | (fl * 7u & 0xffffu);
		p->src_port = (uint16_t)(1024 + fl);
		p->dst_port = 4789;
		p->seq = seq;
		/* Emulated time back to the wall clock: latency is measured on it. */
		p->t_arrival_ns = f->base_ns + feed_time_rel(f, k + i) + f->skew_ns;
	}
}

/*
 * txonly: offer arrivals [f->offered, due) to the rxqs, one piece of up to
 * gen.burst per ring, rotating. `generated` goes up BEFORE the ring's release
 * store publishes a piece, and a drop is counted after the ring refused it,
 * so a reader that sees a packet downstream also sees it generated.
 */
static void feed_txonly(struct pmd_feed *f, uint64_t due, uint64_t s0, uint64_t s1,
			uint64_t *asleep)
{
	struct pmd_pkt pkts[GEN_CHUNK];
	int refused = 0; /* rings in a row that were full */

	while (f->offered < due) {
		uint64_t k = f->offered, left = due - k;
		if (refused >= f->nout) {
			/* Every rxq is full: the rest arrive to full rings and are missed
			 * without being built, as a NIC counts imissed. */
			pmd_ctr_add(&f->c->generated, left);
			pmd_ctr_add(&f->c->src_drops, left);
			*asleep += feed_in_window(f, k, due, s0, s1);
			f->seq += (uint32_t)left;
			f->offered = due;
			return;
		}
		unsigned chunk = (unsigned)(left < f->burst ? left : f->burst);
		if (chunk > GEN_CHUNK)
			chunk = GEN_CHUNK;
		gen_build(f, pkts, chunk, k);
		pmd_ctr_add(&f->c->generated, chunk);
		unsigned n = pmd_ring_enqueue_burst(f->out[f->q], pkts, chunk);
		if (n < chunk) {
			/* The ring filled at packet k + n: the later ones are imissed. */
			pmd_ctr_add(&f->c->src_drops, chunk - n);
			*asleep += feed_in_window(f, k + n, k + chunk, s0, s1);
			refused++;
		} else {
			refused = 0;
		}
		f->q = (f->q + 1) % f->nout;
		f->offered += chunk;
	}
}

/* testpmd's mac mode: every packet really read and rewritten. */
static void peer_swap(struct pmd_pkt *pkts, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		uint8_t tmp[6];
		memcpy(tmp, pkts[i].dst_mac, 6);
		memcpy(pkts[i].dst_mac, pkts[i].src_mac, 6);
		memcpy(pkts[i].src_mac, tmp, 6);
	}
}

/*
 * The mac-swap peer (testpmd in mac mode): it polls without pause, so each
 * packet the upstream PMD sent is swapped and sent on at once. Evaluated at
 * the downstream PMD's poll, it moves everything sent so far, in order, into
 * the rxqs up to their free space; the rest are "drops on transmit", stamped
 * with the time the upstream PMD sent them.
 */
static void feed_peer(struct pmd_feed *f, uint64_t now, uint64_t s0, uint64_t s1, uint64_t *asleep)
{
	struct pmd_pkt pkts[NETDEV_MAX_BURST];
	uint64_t moved = 0, limit = f->in->size; /* bounded: the PMD stays responsive */
	uint64_t by = now - f->skew_ns; /* what the peer has received, in emulated time */
	unsigned n;

	while (moved < limit &&
	       (n = pmd_ring_dequeue_sent_by(f->in, pkts, NETDEV_MAX_BURST, by)) > 0) {
		pmd_ctr_add(&f->c->peer_rx, n);
		peer_swap(pkts, n);
		unsigned k = pmd_ring_enqueue_burst(f->out[f->q], pkts, n);
		if (k < n) {
			pmd_ctr_add(&f->c->src_drops, n - k);
			/* When each dropped packet reached the peer: its upstream send. */
			for (unsigned i = k; i < n; i++)
				if (pkts[i].t_hop_ns + f->skew_ns >= s0 &&
				    pkts[i].t_hop_ns + f->skew_ns <= s1)
					(*asleep)++;
		}
		f->q = (f->q + 1) % f->nout;
		moved += n;
	}
	/* Catch up: what was sent while the host had this PMD's thread away
	 * reaches the peer "late" (after `by`). A PMD that owns its core would
	 * have drained its rxqs meanwhile, so these are not dropped: they go into
	 * whatever room the rxqs have now, and the rest wait for the next poll. */
	for (int r = 0; f->skew_ns && r < f->nout; r++) {
		struct pmd_ring *q = f->out[r];
		uint64_t room = q->size - pmd_ring_count(q); /* we are both its ends */
		while (room > 0) {
			n = pmd_ring_dequeue_burst(f->in, pkts,
						   room < NETDEV_MAX_BURST ? (unsigned)room
									   : NETDEV_MAX_BURST);
			if (n == 0)
				break;
			pmd_ctr_add(&f->c->peer_rx, n);
			peer_swap(pkts, n);
			pmd_ring_enqueue_burst(q, pkts, n); /* fits: room was measured */
			room -= n;
		}
	}
}

uint64_t pmd_lost_arrivals(uint64_t *frac, uint64_t stolen_ns, int64_t rate_pps)
{
	if (rate_pps <= 0) {
		*frac = 0;
		return 0;
	}
	/* Exact: in billionths of an arrival, the remainder plus stolen_ns x rate. */
	unsigned __int128 a = (unsigned __int128)stolen_ns * (uint64_t)rate_pps + *frac;
	*frac = (uint64_t)(a % 1000000000u);
	return (uint64_t)(a / 1000000000u);
}

static void pmd_feed_host_lost(struct pmd_feed *f, uint64_t stolen_ns)
{
	uint64_t n = pmd_lost_arrivals(&f->lost_frac, stolen_ns, f->rate_pps);
	if (n)
		pmd_ctr_add(&f->c->host_lost, n);
}

void pmd_feed_poll(struct engine *eng, struct pmd_feed *f, uint64_t now_ns, uint64_t stolen_ns,
		   uint64_t sleep_from_ns, uint64_t sleep_to_ns, uint64_t *asleep)
{
	if (f->kind == PMD_SRC_MACPEER) {
		f->skew_ns += stolen_ns;
		if (f->skew_ns > now_ns)
			f->skew_ns = 0;
		f->last_ns = now_ns;
		feed_peer(f, now_ns, sleep_from_ns, sleep_to_ns, asleep);
		if (pmd_ring_count(f->in) == 0)
			f->skew_ns = 0; /* nothing is late any more */
		return;
	}
	/* txonly: no arrivals in time the host took from the consumer (a NIC in
	 * front of a PMD that owns its core never sees that gap); what the clock would have
	 * offered meanwhile is counted apart, as the host's (host_lost). */
	f->skew_ns += stolen_ns;
	pmd_feed_host_lost(f, stolen_ns);
	now_ns = now_ns > f->skew_ns ? now_ns - f->skew_ns : 0;
	sleep_from_ns = sleep_from_ns > f->skew_ns ? sleep_from_ns - f->skew_ns : 0;
	sleep_to_ns = sleep_to_ns > f->skew_ns ? sleep_to_ns - f->skew_ns : 0;
	int64_t rate = engine_knob(eng, K_GEN_RATE_PPS);
	int pattern = (int)engine_knob(eng, K_GEN_PATTERN);
	unsigned burst = (unsigned)engine_knob(eng, K_GEN_BURST);
	if (rate != f->rate_pps || pattern != f->pattern || burst != f->burst) {
		/* A new arrival process from the last evaluation on. A knob change
		 * seen late (the PMD slept) applies from the time it was seen, as the
		 * old generator thread's next tick would have. */
		f->rate_pps = rate;
		f->pattern = pattern;
		f->burst = burst ? burst : 1;
		f->base_ns = f->last_ns;
		f->offered = 0;
	}
	if (now_ns > f->last_ns)
		f->last_ns = now_ns;
	feed_txonly(f, feed_count_until(f, f->last_ns), sleep_from_ns, sleep_to_ns, asleep);
}
