/* SPDX-License-Identifier: GPL-2.0-or-later */
/* snapdec.c: decoding schema-1 JSON snapshots (the reverse of tui/snapjson.c), never trusting
 * the input: every field is type-checked, every array clamped to what the struct holds. */
#include "backends/replay/snapdec.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends/replay/snapdec_int.h"
#include "core/governor.h"
#include "core/pmd_cost.h"
#include "core/thread_state.h"
#include "core/xalloc.h"

/* CPUs and threads a decoded snapshot may hold: far above any real one, a bound for garbage. */
#define SNAPDEC_MAX_CPUS 4096
#define SNAPDEC_MAX_THREADS 65536
uint64_t snapdec_iso8601(const char *s)
{
	struct tm tm = {0};
	unsigned ms = 0;
	int n = 0;
	if (!s || sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
			 &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &n) != 6)
		return 0;
	if (s[n] == '.')
		sscanf(s + n + 1, "%3u", &ms);
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	time_t t = timegm(&tm);
	if (t < 0)
		return 0;
	return (uint64_t)t * 1000000000ULL + (uint64_t)ms * 1000000ULL;
}

int snapdec_iso8601_strict(const char *s, uint64_t *out)
{
	struct tm tm = {0}, back;
	int n = 0;
	unsigned long frac_ns = 0;
	if (!s ||
	    sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
		   &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &n) != 6 ||
	    n != 19)
		return -1;
	const char *p = s + n;
	if (*p == '.') {
		unsigned long scale = 100000000UL;
		if (!isdigit((unsigned char)*++p))
			return -1;
		for (; isdigit((unsigned char)*p); p++, scale /= 10)
			frac_ns += scale * (unsigned long)(*p - '0');
	}
	if (*p == 'Z')
		p++;
	if (*p || tm.tm_year < 1970)
		return -1;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	/* timegm normalises (month 13 is next January): a time that does not read back is none. */
	back = tm;
	time_t t = timegm(&back);
	if (t < 0 || back.tm_year != tm.tm_year || back.tm_mon != tm.tm_mon ||
	    back.tm_mday != tm.tm_mday || back.tm_hour != tm.tm_hour || back.tm_min != tm.tm_min ||
	    back.tm_sec != tm.tm_sec)
		return -1;
	*out = (uint64_t)t * 1000000000ULL + frac_ns;
	return 0;
}

static int name_index(const char *s, const char *(*name)(int), int count)
{
	for (int i = 0; i < count; i++)
		if (strcmp(name(i), s) == 0)
			return i;
	return -1;
}

static const char *subsys_name_i(int i)
{
	return subsys_name((enum subsys)i);
}

static const char *state_name_i(int i)
{
	return ethread_state_name((enum ethread_state)i);
}

static const char *event_name_i(int i)
{
	return event_kind_name((enum event_kind)i);
}

static void dec_cpu(const json_t *o, struct snapshot *s)
{
	const json_t *cpu = jget(o, "cpu");
	const char *gov = js(cpu, "governor"), *src = js(cpu, "governor_source");
	size_t n;
	const json_t *a = jarr(cpu, "cpus", &n, SNAPDEC_MAX_CPUS);

	s->governor = cpu_governor_parse(gov);
	s->governor_absent = strcmp(src, "none") == 0;
	s->governor_emulated = strcmp(src, "emulated") == 0;
	free(s->cpus);
	s->cpus = xcalloc(n ? n : 1, sizeof(*s->cpus));
	s->ncpus = (int)n;
	for (size_t i = 0; i < n; i++) {
		const json_t *c = json_array_get(a, i);
		s->cpus[i] = (struct snap_cpu){.id = jn(c, "id"),
					       .node = jn(c, "node"),
					       .llc = jn(c, "llc"),
					       .online = jb(c, "online"),
					       .load_pct = jpct(c, "load_pct"),
					       .freq_mhz = (uint32_t)ju(c, "freq_mhz")};
	}
}

static void dec_threads(const json_t *o, struct snapshot *s)
{
	size_t n;
	const json_t *a = jarr(o, "threads", &n, SNAPDEC_MAX_THREADS);
	if (n > s->threads_cap) {
		free(s->threads);
		s->threads = xcalloc(n, sizeof(*s->threads));
		s->threads_cap = n;
	}
	s->nthreads = n;
	for (size_t i = 0; i < n; i++) {
		const json_t *t = json_array_get(a, i);
		struct snap_thread *d = &s->threads[i];
		int sub = name_index(js(t, "subsystem"), subsys_name_i, SUBSYS_COUNT);
		int st = name_index(js(t, "state"), state_name_i, ETHREAD_STATE_COUNT);
		memset(d, 0, sizeof(*d));
		d->tid = (pid_t)jn(t, "tid");
		jcopy(d->name, sizeof(d->name), t, "name");
		d->subsys = sub < 0 ? SUBSYS_ENGINE : (enum subsys)sub;
		d->ovs = js(t, "subsystem") && strcmp(js(t, "subsystem"), "ovs") == 0;
		d->cpu_pct = jd(t, "cpu_pct");
		d->cpu_ns = ju(t, "cpu_ns");
		d->state = st < 0 ? ETHREAD_STATE_COUNT : st; /* "?" again when encoded */
		d->emu_cpu = jn(t, "emu_cpu");
		d->runq_delay_pct = jd_opt(t, "runq_delay_pct");
		d->timer_slack_ns = ji_opt(t, "timer_slack_ns");
	}
}

static void dec_est(const json_t *e, struct est_snap *d)
{
	size_t n;
	const json_t *a;
	const json_t *tick = jget(e, "tick_ns"), *cal = jget(e, "calibration"),
		     *rates = jget(e, "rates");

	memset(d, 0, sizeof(*d));
	d->estimators = ju(e, "estimators");
	d->placed = ju(e, "placed");
	d->pending = ju(e, "pending");
	d->config_held = jb(e, "config_held");
	d->kthreads = jn(e, "kthreads");
	d->kthread_slots = jn(e, "kthread_slots");
	d->max_threads = jn(e, "max_threads");
	d->chain_max = jn(e, "chain_max");
	d->tick_chains = jn(e, "tick_chains");
	d->est_cpus = jn(e, "est_cpus");
	d->max_per_kthread = ju(e, "max_per_kthread");
	d->tick_ns_last = ju(tick, "last");
	d->tick_ns_avg = ju(tick, "avg");
	d->tick_ns_max = ju(tick, "max");
	d->tick_ns_per_est = jd(tick, "per_est"); /* null: 0, unknown */
	d->ticks = ju(e, "ticks");
	d->visits = ju(e, "visits");
	a = jarr(e, "tick_hist_us_log2", &n, EST_TICK_HIST_BUCKETS);
	for (size_t i = 0; i < n; i++) {
		const json_t *v = json_array_get(a, i);
		d->tick_hist[i] = json_is_integer(v) ? (uint64_t)json_integer_value(v) : 0;
	}
	d->calib.chain_max = jn(cal, "chain_max");
	d->calib.single_est_ns = ju(cal, "single_est_ns");
	d->calib.diff_ns = ju(cal, "diff_ns");
	d->calib.loops = jn(cal, "loops");
	d->calib.tests = jn(cal, "tests");
	d->calib.valid_tests = jn(cal, "valid_tests");
	d->calib.governor = cpu_governor_parse(js(cal, "governor"));
	if (d->calib.governor < 0)
		d->calib.governor = GOV_COUNT; /* "?" again when encoded */
	d->calib.wall_ns = snapdec_iso8601(js(cal, "time"));
	d->calib.dequeue_ns = ju(cal, "dequeue_ns");
	d->calib.count = ju(cal, "count");
	d->cpu_pct_total = jd(e, "cpu_pct");
	a = jarr(e, "kthread", &n, EST_SNAP_MAX_KT);
	d->nkt = (int)n;
	for (size_t i = 0; i < n; i++) {
		const json_t *k = json_array_get(a, i);
		d->kt[i] = (struct est_kt_snap){.id = jn(k, "id"),
						.estimators = (uint32_t)ju(k, "estimators"),
						.rows_filled = (uint32_t)ju(k, "rows_filled"),
						.rows_full = (uint32_t)ju(k, "rows_full"),
						.tick_ns_last = ju(k, "tick_ns_last"),
						.cpu_pct = jd(k, "cpu_pct")};
	}
	d->mem_bytes = ju(e, "mem_bytes");
	d->mem_per_est_bytes = jd(e, "mem_per_est_bytes");
	d->packets = ju(e, "packets");
	d->tot_cps = ju(rates, "cps");
	d->tot_inpps = ju(rates, "inpps");
	d->tot_outpps = ju(rates, "outpps");
	d->tot_inbps = ju(rates, "inbps");
	d->tot_outbps = ju(rates, "outbps");
}

/* The eBPF sleep probe's figures of one PMD: a null bpf_overshoot_us is a PMD it did not watch. */
static void dec_pmd_bpf(const json_t *t, struct pmd_thread_snap *x)
{
	size_t n;
	const json_t *ov = jget(t, "bpf_overshoot_us");
	const json_t *a = jarr(t, "bpf_overshoot_hist_us_log2", &n, PMD_SNAP_OS_HIST);

	x->bpf = json_is_object(ov);
	x->bpf_overshoot_p50_us = jd(ov, "p50");
	x->bpf_overshoot_p99_us = jd(ov, "p99");
	x->bpf_sleeps = ju(t, "bpf_sleeps");
	for (size_t i = 0; i < n; i++)
		x->bpf_hist[i] = ju_at(a, i);
}

/* Interval figures snapjson writes as null (jrate): all of them with iterations on a PMD's
 * first sample (no_rate), else one that was absent (< 0). */
static void dec_pmd_rates(const json_t *t, struct pmd_thread_snap *x)
{
	double *const f[] = {&x->rx_pps,	 &x->tx_pps,	   &x->busy_pct, &x->idle_pct,
			     &x->sleep_iter_pct, &x->sleep_us_avg, &x->cpu_pct};
	static const char *const k[] = {"rx_pps",	  "tx_pps",	  "busy_pct", "idle_pct",
					"sleep_iter_pct", "sleep_us_avg", "cpu_pct"};

	x->no_rate = json_is_null(jget(t, "iterations"));
	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++)
		if (json_is_null(jget(t, k[i])))
			*f[i] = -1;
}

static void dec_pmd(const json_t *p, struct pmd_snap *d)
{
	size_t n;
	const json_t *a = jarr(p, "threads", &n, PMD_SNAP_MAX), *tot = jget(p, "totals");
	const json_t *lat = jget(p, "lat_us"), *probe = jget(p, "sleep_probe");

	memset(d, 0, sizeof(*d));
	d->maxsleep_us = ji(p, "maxsleep_us");
	d->sleep_inc_us = ji(p, "sleep_inc_us");
	d->timer_slack_ns = ji(p, "timer_slack_ns");
	d->offered_pps = jrate(p, "offered_pps");
	d->drop_pct = jpct(p, "drop_pct");
	d->nthreads = (int)n;
	for (size_t i = 0; i < n; i++) {
		const json_t *t = json_array_get(a, i);
		const json_t *ov = jget(t, "sleep_overshoot_us");
		struct pmd_thread_snap *x = &d->threads[i];
		jcopy(x->name, sizeof(x->name), t, "name");
		x->rx_pps = jrate(t, "rx_pps");
		x->tx_pps = jrate(t, "tx_pps");
		x->rx_drop_pps = jrate(t, "rx_drop_pps");
		x->tx_drop_pps = jrate(t, "tx_drop_pps");
		x->drop_pct = jpct(t, "drop_pct");
		x->iterations = ju(t, "iterations");
		x->busy_pct = jpct(t, "busy_pct");
		x->idle_pct = jpct(t, "idle_pct");
		x->sleep_iter_pct = jpct(t, "sleep_iter_pct");
		x->sleep_us_avg = jd(t, "sleep_us_avg");
		x->overshoot_p50_us = jd(ov, "p50");
		x->overshoot_p99_us = jd(ov, "p99");
		x->overshoot_p50_at_least = jb(ov, "p50_at_least");
		x->overshoot_p99_at_least = jb(ov, "p99_at_least");
		x->drops_while_asleep = ju(t, "drops_while_asleep");
		x->cpu_pct = jd(t, "cpu_pct");
		x->rx_packets = ju(t, "rx_packets");
		x->tx_packets = ju(t, "tx_packets");
		x->rx_drops = ju(t, "rx_drops");
		x->tx_drops = ju(t, "tx_drops");
		x->sleep_iters = ju(t, "sleep_iters");
		x->sleep_iters_total = ju(t, "sleep_iters_total");
		x->asleep_pct = jpct(t, "asleep_pct");
		x->drops_while_asleep_pct = jpct(t, "drops_while_asleep_pct");
		x->stolen_pct = jpct_opt(t, "stolen_pct"); /* null: the host had no schedstat */
		x->cpu_ns_per_pkt = jd_opt(t, "cpu_ns_per_pkt");
		x->cpu_left_pct = jpct_opt(t, "cpu_left_pct");
		x->timer_slack_ns = ji_opt(t, "timer_slack_ns");
		int64_t tid = ji_opt(t, "tid"); /* absent or null in older recordings */
		x->tid = tid > 0 ? (pid_t)tid : 0;
		dec_pmd_bpf(t, x);
		dec_pmd_rates(t, x);
	}
	d->rxq_size = ji(p, "rxq_size");
	d->topology = snapdec_intern(js(p, "topology"));
	d->in_rings = ju(p, "in_rings");
	d->generated = ju(tot, "generated");
	d->forwarded = ju(tot, "forwarded");
	d->dropped = ju(tot, "dropped");
	d->in_flight = ju(tot, "in_flight");
	d->restart_dropped = ju(tot, "restart_dropped");
	d->unaccounted = ji(tot, "unaccounted");
	d->capacity = ju(tot, "capacity");
	d->bound_broken = json_is_false(jget(tot, "bound_ok"));
	d->hung = jb(p, "hung");
	/* null latency: nothing reached the sink, or a PMD is stuck */
	d->lat_valid = json_is_number(jget(lat, "p50")) && json_is_number(jget(lat, "p99"));
	d->lat_p50_us = d->lat_valid ? jd(lat, "p50") : 0;
	d->lat_p99_us = d->lat_valid ? jd(lat, "p99") : 0;
	d->lat_p50_at_least = d->lat_valid && jb(lat, "p50_at_least");
	d->lat_p99_at_least = d->lat_valid && jb(lat, "p99_at_least");
	d->drops_while_asleep = ju(p, "drops_while_asleep");
	d->dropped_pps = jrate(p, "dropped_pps");
	d->bpf_probe = jb(probe, "on");
	jcopy(d->bpf_probe_error, sizeof(d->bpf_probe_error), probe, "error");
	d->bpf_cost_ns_per_sleep = jd_opt(probe, "cost_ns_per_sleep");
	d->timer_slack_differs = ji(p, "timer_slack_differs");
	d->target_pps = jd_opt(p, "target_pps");
	d->cpu_pct = jd_opt(p, "cpu_pct");
	d->stolen_pct = jpct_opt(p, "stolen_pct");
	d->cpu_ns_per_pkt = jd_opt(p, "cpu_ns_per_pkt");
	d->cpu_left_pct = jpct_opt(p, "cpu_left_pct");
	/* A recording from before the cost figures: computed from what it holds. */
	if (!jget(p, "cpu_left_pct"))
		pmd_cost_fill(d, false);
}

/* matrix_per_s: square, clamped to BLK_MATRIX_MAX; short or mistyped rows read 0. */
static void dec_blk_matrix(const json_t *b, struct blk_snap *d)
{
	size_t n;
	const json_t *m = jarr(b, "matrix_per_s", &n, BLK_MATRIX_MAX);

	d->matrix_n = (int)n;
	for (size_t r = 0; r < n; r++) {
		const json_t *row = json_array_get(m, r);
		size_t nc = json_is_array(row) ? json_array_size(row) : 0;
		for (size_t c = 0; c < n && c < nc; c++)
			d->matrix_per_s[r][c] = jd_at(row, c);
	}
}

static void dec_blk(const json_t *b, struct blk_snap *d)
{
	size_t n;
	const json_t *a = jarr(b, "per_cpu", &n, BLK_SNAP_MAX_CPUS);
	const json_t *lat = jget(b, "lat_us"), *comp = jget(b, "completions"),
		     *tot = jget(b, "totals"), *cpu = jget(b, "cpu_pct");

	memset(d, 0, sizeof(*d));
	d->rq_affinity = ji(b, "rq_affinity");
	d->iops = jd(b, "iops");
	d->ipis_per_s = jd(b, "ipis_per_s");
	d->irq_cpu = jn(b, "irq_cpu");
	d->lat_p50_us = jd(lat, "p50");
	d->lat_p99_us = jd(lat, "p99");
	d->lat_p999_us = jd(lat, "p999");
	d->direct = ju(comp, "direct");
	d->local_softirq = ju(comp, "local_softirq");
	d->remote = ju(comp, "remote");
	d->ncpus = (int)n;
	for (size_t i = 0; i < n; i++) {
		const json_t *c = json_array_get(a, i);
		d->per_cpu[i] =
		    (struct blk_cpu_snap){.cpu = jn(c, "cpu"),
					  .llc = jn(c, "llc"),
					  .submitters = jn(c, "submitters"),
					  .block_softirq = ju(c, "block_softirq"),
					  .ipi_recv = ju(c, "ipi_recv"),
					  .completed = ju(c, "completed"),
					  .remote = ju(c, "remote"),
					  .completed_per_s = jd_opt(c, "completed_per_s"),
					  .block_softirq_per_s = jd_opt(c, "block_softirq_per_s"),
					  .ipi_recv_per_s = jd_opt(c, "ipi_recv_per_s")};
	}
	d->submitted = ju(tot, "submitted");
	d->completed = ju(tot, "completed");
	d->in_flight = ju(tot, "in_flight");
	d->submitters = jn(b, "submitters");
	d->iodepth = jn(b, "iodepth");
	d->nr_hw_queues = jn(b, "nr_hw_queues");
	d->fault_lost_kick = jb(b, "fault_lost_kick");
	d->irqs = ju(b, "irqs");
	d->ipis_sent = ju(b, "ipis_sent");
	d->csd_busy = ju(b, "csd_busy");
	d->data_errors = ju(b, "data_errors");
	d->irq_cpu_pct = jd(cpu, "irq");
	d->dev_cpu_pct = jd(cpu, "dev");
	d->sub_cpu_pct = jd(cpu, "submitters");
	d->unaccounted = ji(tot, "unaccounted");
	d->bound_broken = json_is_false(jget(tot, "bound_ok"));
	d->hung = jb(b, "hung");
	d->lat_valid = !d->hung && json_is_number(jget(lat, "p50")); /* null when hung */
	d->hung_submitters = jn(b, "hung_submitters");
	const json_t *per = jget(b, "cpu_ns_per_completion");
	d->per_cpl_valid = json_is_number(jget(per, "total")); /* null: no completion */
	d->cpu_ns_per_cpl = jd(per, "total");
	d->irq_ns_per_cpl = jd(per, "irq");
	d->sub_ns_per_cpl = jd(per, "submitters");
	d->ipis_per_cpl = jd(b, "ipis_per_completion");
	d->lost_kicks = ju(b, "lost_kicks");
	d->irq_busy_valid = json_is_number(jget(b, "irq_busy_pct")); /* null: no blk-irq */
	d->irq_busy_pct = jpct(b, "irq_busy_pct");
	d->irq_host_took_pct = jpct(b, "irq_host_took_pct");
	dec_blk_matrix(b, d);
}

/* A null knob is one the source lacks (knob_absent): its default, shown as null again. */
static void dec_knobs(const json_t *k, int64_t *out, bool *absent)
{
	char err[128];
	for (int i = 0; i < K_COUNT; i++) {
		const struct knob_def *d = &knob_table[i];
		const json_t *v = jget(k, d->name);
		int64_t x = d->def;
		absent[i] = json_is_null(v);
		if (json_is_integer(v))
			x = (int64_t)json_integer_value(v);
		else if (json_is_boolean(v))
			x = json_is_true(v);
		else if (json_is_string(v) && knob_parse((enum knob_id)i, json_string_value(v), &x,
							 err, sizeof(err)) != 0)
			x = d->def;
		out[i] = x;
	}
}

static void dec_events(const json_t *o, struct snapshot *s)
{
	size_t n;
	const json_t *a = jarr(o, "events", &n, SNAP_MAX_EVENTS);
	s->nevents = n;
	for (size_t i = 0; i < n; i++) {
		const json_t *e = json_array_get(a, i);
		struct event *d = &s->events[i];
		int k = name_index(js(e, "kind"), event_name_i, EV_KIND_COUNT);
		memset(d, 0, sizeof(*d));
		d->kind = k < 0 ? EV_INFO : (enum event_kind)k;
		d->wall_ns = snapdec_iso8601(js(e, "time"));
		jcopy(d->text, sizeof(d->text), e, "text");
	}
}

int snapdec_from_json(const json_t *o, struct snapshot *s, char *err, size_t errlen)
{
	if (!json_is_object(o)) {
		snprintf(err, errlen, "not a JSON object");
		return SNAPDEC_GARBAGE;
	}
	const json_t *schema = json_object_get(o, "schema");
	if (!json_is_integer(schema) || json_integer_value(schema) != SNAPDEC_SCHEMA) {
		snprintf(err, errlen, "not a schema %d snapshot", SNAPDEC_SCHEMA);
		return SNAPDEC_SCHEMA_OTHER;
	}
	const json_t *self = jget(o, "self");

	s->wall_ns = snapdec_iso8601(js(o, "time"));
	s->mono_ns = 0; /* a replaying source stamps its own clock */
	s->uptime_s = jd(o, "uptime_s");
	s->interval_s = jd(o, "interval_s");
	s->backend = snapdec_intern(js(o, "backend"));
	s->seq = ju(o, "seq");
	dec_cpu(o, s);
	dec_threads(o, s);
	s->has_est = json_is_object(jget(o, "est"));
	s->has_pmd = json_is_object(jget(o, "pmd"));
	s->has_blk = json_is_object(jget(o, "blk"));
	s->has_host = json_is_object(jget(o, "host"));
	if (s->has_est)
		dec_est(jget(o, "est"), &s->est);
	if (s->has_pmd)
		dec_pmd(jget(o, "pmd"), &s->pmd);
	if (s->has_blk)
		dec_blk(jget(o, "blk"), &s->blk);
	if (s->has_host)
		snapdec_host(jget(o, "host"), &s->host);
	dec_knobs(jget(o, "knobs"), s->knobs, s->knob_absent);
	dec_events(o, s);
	s->self.cpu_pct = jd(self, "cpu_pct");
	s->self.sample_us = ju(self, "sample_us");
	s->self.render_us = ju(self, "render_us");
	s->self.tty_bytes = ju(self, "tty_bytes");
	s->self.tty_bytes_per_s = jd(self, "tty_bytes_per_s");
	/* An older or foreign recording may lack one: shown "-", written back null. */
	s->self.absent = (json_is_number(jget(self, "cpu_pct")) ? 0 : SELF_ABSENT_CPU) |
			 (json_is_number(jget(self, "sample_us")) ? 0 : SELF_ABSENT_SAMPLE) |
			 (json_is_number(jget(self, "render_us")) ? 0 : SELF_ABSENT_RENDER) |
			 (json_is_number(jget(self, "tty_bytes")) ? 0 : SELF_ABSENT_TTY);
	return SNAPDEC_OK;
}

int snapdec_line(const char *line, size_t len, struct snapshot *snap, char *err, size_t errlen)
{
	json_error_t je;
	/* JSON_DECODE_ANY is off: a bare number or string is garbage, not a snapshot. */
	json_t *o = json_loadb(line, len, JSON_REJECT_DUPLICATES, &je);
	if (!o) {
		snprintf(err, errlen, "not JSON (%s)", je.text);
		return SNAPDEC_GARBAGE;
	}
	int rc = snapdec_from_json(o, snap, err, errlen);
	json_decref(o);
	return rc;
}
