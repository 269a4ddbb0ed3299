/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fake_console.c: tunetop's console and batch writer on a fake source with scripted
 * snapshots (tests/tui/test_fake_source.sh drives it in tmux). Every figure the fake
 * gives is a fixed, recognisable number, so the test can check that the front ends
 * render exactly what the source says and nothing of their own. Its knob_set keeps
 * pmd.maxsleep_us at most FAKE_MAXSLEEP_CAP, like a host that stores less than asked:
 * the screen must show the stored value.
 *
 *   fake_console [-b] [-n N] [-d S]       console (or batch) on the fake source
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/source.h"
#include "core/clock.h"
#include "core/event.h"
#include "core/governor.h"
#include "core/xalloc.h"
#include "tui/batch.h"
#include "tui/options.h"
#include "tui/console/screen.h"
#include "tui/sig.h"

#define FAKE_MAXSLEEP_CAP 700

struct fake {
	int64_t knobs[K_COUNT];
	struct event_log events;
	uint64_t ev_seq;
	struct snapshot_clock clock;
};

static int fake_open(struct source *src, const struct source_conf *conf, char *err, size_t errlen)
{
	(void)conf, (void)err, (void)errlen;
	struct fake *f = xcalloc(1, sizeof(*f));
	for (int k = 0; k < K_COUNT; k++)
		f->knobs[k] = knob_table[k].def;
	f->knobs[K_PMD_MAXSLEEP_US] = 300;
	f->knobs[K_CPU_GOVERNOR] = GOV_SCHEDUTIL;
	event_log_init(&f->events);
	src->priv = f;
	return 0;
}

static int fake_start(struct source *src, char *err, size_t errlen)
{
	(void)err, (void)errlen;
	struct fake *f = src->priv;
	snapshot_clock_start(&f->clock);
	return 0;
}

/* Scripted: sample k has figures that grow with k, all from this table of constants. */
static void fake_sample(struct source *src, struct snapshot *s)
{
	struct fake *f = src->priv;
	uint64_t t0 = clock_mono_ns();
	snapshot_clock_stamp(&f->clock, s);
	unsigned k = (unsigned)s->seq;

	s->governor = GOV_SCHEDUTIL;
	s->governor_emulated = true;
	if (s->ncpus != 2) {
		free(s->cpus);
		s->cpus = xcalloc(2, sizeof(*s->cpus));
		s->ncpus = 2;
	}
	for (int i = 0; i < 2; i++)
		s->cpus[i] = (struct snap_cpu){
		    .id = i, .online = true, .load_pct = 12.5 * (i + 1), .freq_mhz = 2345};
	if (s->threads_cap < 2) {
		s->threads_cap = 2;
		s->threads = xreallocarray(s->threads, 2, sizeof(*s->threads));
	}
	s->nthreads = 2;
	s->threads[0] = (struct snap_thread){.tid = 4242,
					     .name = "fake-pmd",
					     .subsys = SUBSYS_PMD,
					     .cpu_pct = 42.5,
					     .cpu_ns = 1000000000ULL * k};
	s->threads[1] = (struct snap_thread){.tid = 4243,
					     .name = "fake-blk",
					     .subsys = SUBSYS_BLK,
					     .cpu_pct = 7.25,
					     .cpu_ns = 500000000ULL * k};
	s->has_est = s->has_blk = s->has_host = false;
	s->has_pmd = true;
	memset(&s->pmd, 0, sizeof(s->pmd));
	s->pmd.topology = "direct";
	s->pmd.offered_pps = 123000;
	s->pmd.drop_pct = 3.25;
	s->pmd.nthreads = 1;
	struct pmd_thread_snap *t = &s->pmd.threads[0];
	snprintf(t->name, sizeof(t->name), "fake-pmd");
	t->rx_pps = 119000;
	t->drop_pct = 3.25;
	t->sleep_iter_pct = 61;
	t->cpu_pct = 42.5;
	s->pmd.generated = 1000u * k;
	s->pmd.forwarded = 900u * k;
	s->pmd.dropped = 100u * k;
	for (int i = 0; i < K_COUNT; i++)
		s->knobs[i] = f->knobs[i];
	s->pmd.maxsleep_us = f->knobs[K_PMD_MAXSLEEP_US];
	s->pmd.timer_slack_ns = f->knobs[K_PMD_TIMER_SLACK_NS];
	s->nevents = event_copy_since(&f->events, &f->ev_seq, s->events, SNAP_MAX_EVENTS);
	snapshot_clock_self(&f->clock, s, t0);
}

static int fake_knob_set(struct source *src, enum knob_id id, int64_t v, int64_t *stored, char *err,
			 size_t errlen)
{
	(void)err, (void)errlen;
	struct fake *f = src->priv;
	char a[64], b[64];
	if (id == K_PMD_MAXSLEEP_US && v > FAKE_MAXSLEEP_CAP)
		v = FAKE_MAXSLEEP_CAP;
	event_add(&f->events, EV_KNOB, "%s: %s -> %s", knob_table[id].name,
		  knob_format(id, f->knobs[id], a, sizeof(a)), knob_format(id, v, b, sizeof(b)));
	f->knobs[id] = v;
	*stored = v;
	return 0;
}

static int fake_knob_get(struct source *src, enum knob_id id, int64_t *out)
{
	*out = ((struct fake *)src->priv)->knobs[id];
	return 0;
}

static const char *fake_knob_refusal(const struct source *src, enum knob_id id)
{
	(void)src;
	return id == K_EST_COUNT ? "the fake source has no estimators" : NULL;
}

static void fake_close(struct source *src)
{
	struct fake *f = src->priv;
	event_log_destroy(&f->events);
	free(f);
}

static const struct source_ops fake_ops = {
    .name = "fake",
    .open = fake_open,
    .start = fake_start,
    .sample = fake_sample,
    .knob_set = fake_knob_set,
    .knob_get = fake_knob_get,
    .knob_refusal = fake_knob_refusal,
    .close = fake_close,
};

int main(int argc, char **argv)
{
	struct options o;
	char err[512];
	if (options_parse(&o, argc, argv, err, sizeof(err)) != 0) {
		fprintf(stderr, "fake_console: %s\n", err);
		return 2;
	}
	sig_install();
	struct source *src = source_open(&fake_ops, NULL, err, sizeof(err));
	int rc = source_start(src, err, sizeof(err));
	if (rc == 0)
		rc = o.batch ? batch_run(src, &o) : screen_run(src, &o);
	source_close(src);
	options_free(&o);
	return rc;
}
