/* pmd_gen.c: traffic sources gen:N: a paced txonly generator (also a sink) and the mac-swap peer.
 */
#include <string.h>
#include <sys/prctl.h>

#include "core/clock.h"
#include "engine/pmd/pmd_core.h"

/* The source wakes about every GEN_TICK_PKTS packets' worth of time, within
 * [GEN_TICK_MIN_NS, GEN_TICK_MAX_NS]: fine-grained arrivals at high rates,
 * few wakeups (little CPU) at low ones. A real 10 us nanosleep takes ~16-25 us
 * on the 2-vCPU VM (measured, see the report in bench/pmd.sh). */
#define GEN_TICK_PKTS 12
#define GEN_TICK_MIN_NS (20 * NS_PER_US)
#define GEN_TICK_MAX_NS NS_PER_MS
/* A source that was not scheduled for longer than this past its tick does not offer the
 * packets it missed, as a descheduled testpmd txonly would not: otherwise a
 * busy host would show up as PMD rx drops. */
#define GEN_MAX_LAG_NS (200 * NS_PER_US)
/* on-off: GEN_ONOFF_HALF_NS on at gen.rate_pps, then as long silent. */
#define GEN_ONOFF_HALF_NS (100 * NS_PER_MS)
/* Distinct 5-tuples per source (fit the PMD flow table: all hits after warm-up). */
#define GEN_FLOWS 1024
/* Local staging array: gen.burst may be larger; it is offered in pieces of this. */
#define GEN_CHUNK 64

enum gen_pattern { GEN_CONSTANT, GEN_BURSTY, GEN_ONOFF };

uint64_t pmd_gen_tick_ns(int64_t rate_pps)
{
	if (rate_pps <= 0)
		return GEN_TICK_MAX_NS;
	uint64_t t = GEN_TICK_PKTS * NS_PER_S / (uint64_t)rate_pps;
	if (t < GEN_TICK_MIN_NS)
		return GEN_TICK_MIN_NS;
	return t > GEN_TICK_MAX_NS ? GEN_TICK_MAX_NS : t;
}

static void gen_build(struct pmd_source *s, struct pmd_pkt *p, unsigned n)
{
	for (unsigned i = 0; i < n; i++, p++) {
		uint32_t seq = s->seq++, f = seq % GEN_FLOWS;
		static const uint8_t dst[6] = {0x02, 0x00, 0x00, 0x0e, 0x00, 0x01};
		memcpy(p->dst_mac, dst, 6);
		p->src_mac[0] = 0x02;
		p->src_mac[1] = 0x00;
		p->src_mac[2] = 0x00;
		p->src_mac[3] = 0x0e;
		p->src_mac[4] = 0x00;
		p->src_mac[5] = (uint8_t)s->id;
		p->ethertype = 0x0800;
		p->ttl = 64;
		p->proto = 17;
		p->src_ip = 0x0a000000u | (uint32_t)s->id << 16 | f;
		p->dst_ip = 0x0a010000u | (f * 7u & 0xffffu);
		p->src_port = (uint16_t)(1024 + f);
		p->dst_port = 4789;
		p->seq = seq;
	}
}

/* Offer n packets to the rxqs, one ring per piece, rotating. The count goes up
 * BEFORE the ring publishes them (the ring's release store orders it), so no
 * downstream counter can ever count a packet not yet counted as generated. */
static void gen_offer(struct pmd_source *s, uint64_t n, unsigned burst, int *q)
{
	struct pmd_pkt pkts[GEN_CHUNK];
	int refused = 0; /* rings in a row that were full */
	while (n > 0) {
		if (refused >= s->nout) {
			/* Every rxq is full: the rest of this tick's arrivals are
			 * missed without being built, as a NIC counts imissed. */
			pmd_ctr_add(&s->c->generated, n);
			pmd_ctr_add(&s->c->src_drops, n);
			s->seq += (uint32_t)n;
			return;
		}
		unsigned chunk = (unsigned)(n < burst ? n : burst);
		if (chunk > GEN_CHUNK)
			chunk = GEN_CHUNK;
		gen_build(s, pkts, chunk);
		pmd_ctr_add(&s->c->generated, chunk);
		unsigned k = pmd_ring_enqueue_burst(s->out[*q], pkts, chunk);
		if (k < chunk) {
			pmd_ctr_add(&s->c->src_drops, chunk - k); /* imissed */
			refused++;
		} else {
			refused = 0;
		}
		*q = (*q + 1) % s->nout;
		n -= chunk;
	}
}

/* Drain the sink ring: these packets reached the end of the path. */
static void gen_sink(struct pmd_source *s)
{
	struct pmd_pkt pkts[NETDEV_MAX_BURST];
	uint64_t total = 0, limit = s->in->size; /* bounded: stay responsive */
	unsigned n;
	volatile uint32_t touch = 0;

	while (total < limit && (n = pmd_ring_dequeue_burst(s->in, pkts, NETDEV_MAX_BURST)) > 0) {
		for (unsigned i = 0; i < n; i++)
			touch += pkts[i].seq; /* a receiver reads what it gets */
		total += n;
	}
	(void)touch;
	if (total)
		pmd_ctr_add(&s->c->sunk, total);
}

static void gen_sleep(struct ethread *self, uint64_t ns)
{
	ethread_set_state(self, ETHREAD_SLEEP);
	clock_sleep_ns(ns);
	ethread_set_state(self, ETHREAD_RUN);
}

void pmd_gen_main(struct ethread *self)
{
	struct pmd_source *s = self->arg;
	struct engine *eng = self->eng;
	uint64_t start = clock_mono_ns(), last = start;
	double credit = 0; /* packets due but not yet offered */
	int q = 0;

	/* The source's own pacing uses OVS's 1 us slack whatever the PMDs use:
	 * the experiment varies the PMDs' slack, not the load's. */
	prctl(PR_SET_TIMERSLACK, (unsigned long)PMD_TIMER_RES_NS, 0, 0, 0);
	while (!ethread_should_stop(self)) {
		ethread_beat(self);
		int64_t rate = engine_knob(eng, K_GEN_RATE_PPS);
		int pattern = (int)engine_knob(eng, K_GEN_PATTERN);
		unsigned burst = (unsigned)engine_knob(eng, K_GEN_BURST);
		uint64_t now = clock_mono_ns();
		uint64_t dt = now - last;
		last = now;
		uint64_t tick = pmd_gen_tick_ns(rate);
		if (dt > tick + GEN_MAX_LAG_NS)
			dt = tick + GEN_MAX_LAG_NS;

		bool on = pattern != GEN_ONOFF || ((now - start) / GEN_ONOFF_HALF_NS) % 2 == 0;
		if (on && rate > 0)
			credit += (double)rate * (double)dt / 1e9;
		else
			credit = 0;
		uint64_t due = (uint64_t)credit;
		if (pattern == GEN_BURSTY)
			due -= due % burst; /* only whole bursts: lumpy arrivals, same mean */
		credit -= (double)due;
		if (due)
			gen_offer(s, due, burst, &q);
		if (s->in)
			gen_sink(s);
		gen_sleep(self, tick);
	}
}

void pmd_peer_main(struct ethread *self)
{
	struct pmd_source *s = self->arg;
	struct engine *eng = self->eng;
	struct pmd_pkt pkts[NETDEV_MAX_BURST];
	int q = 0;

	/* testpmd in mac mode polls without sleeping; two cores cannot afford a
	 * third spinner, so the peer polls at the source's tick with 1 us slack. */
	prctl(PR_SET_TIMERSLACK, (unsigned long)PMD_TIMER_RES_NS, 0, 0, 0);
	while (!ethread_should_stop(self)) {
		ethread_beat(self);
		uint64_t moved = 0;
		unsigned n;
		while (moved < s->in->size &&
		       (n = pmd_ring_dequeue_burst(s->in, pkts, NETDEV_MAX_BURST)) > 0) {
			pmd_ctr_add(&s->c->peer_rx, n);
			for (unsigned i = 0; i < n; i++) {
				uint8_t tmp[6];
				memcpy(tmp, pkts[i].dst_mac, 6);
				memcpy(pkts[i].dst_mac, pkts[i].src_mac, 6);
				memcpy(pkts[i].src_mac, tmp, 6);
			}
			unsigned k = pmd_ring_enqueue_burst(s->out[q], pkts, n);
			if (k < n)
				pmd_ctr_add(&s->c->src_drops, n - k); /* "drops on transmit" */
			q = (q + 1) % s->nout;
			moved += n;
		}
		gen_sleep(self, pmd_gen_tick_ns(engine_knob(eng, K_GEN_RATE_PPS)));
	}
}
