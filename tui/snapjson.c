/* SPDX-License-Identifier: GPL-2.0-or-later */
/* snapjson.c: rendering a snapshot into the schema-1 JSON object. */
#include "tui/snapjson.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "core/governor.h"
#include "core/thread_state.h"
#include "core/utf8.h"
#include "tui/options.h"
#include "tui/rowfmt.h"
#include "tui/snapjson_absent.h"

/*
 * A string of the host's (a thread, port or device name): json_string() refuses invalid
 * UTF-8 and the element holding it would vanish, so such bytes become U+FFFD instead.
 */
static json_t *jstr(const char *s)
{
	json_t *j = json_string(s ? s : "");
	if (!j) {
		char *fixed = utf8_sanitize_dup(s);
		j = json_string(fixed);
		free(fixed);
	}
	return j;
}

void snapjson_iso8601(uint64_t wall_ns, char *buf, size_t len)
{
	time_t sec = (time_t)(wall_ns / 1000000000ULL);
	struct tm tm;
	gmtime_r(&sec, &tm);
	size_t n = strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, len > n ? len - n : 0, ".%03uZ",
		 (unsigned)(wall_ns / 1000000ULL % 1000ULL));
}

/* Round to `scale` (100: 2 decimals) so lines stay short and diffable. Never NULL (a NULL
 * would make the enclosing json_pack fail and its section vanish): not finite is null, and
 * a figure too large to have decimals is left as it is (v * scale would overflow to inf). */
static json_t *jreal_scaled(double v, double scale)
{
	if (!isfinite(v))
		return json_null();
	if (fabs(v) < 1e15)
		v = round(v * scale) / scale;
	json_t *j = json_real(v);
	return j ? j : json_null();
}

static json_t *jreal(double v)
{
	return jreal_scaled(v, 100.0);
}

static json_t *jint(uint64_t v)
{
	return json_integer((json_int_t)v);
}

json_t *snapjson_knobs(const int64_t *values)
{
	return snapjson_knobs_absent(values, NULL);
}

json_t *snapjson_knobs_absent(const int64_t *values, const bool *absent)
{
	json_t *o = json_object();
	char buf[64];

	for (int k = 0; k < K_COUNT; k++) {
		const struct knob_def *d = &knob_table[k];
		json_t *v;
		if (absent && absent[k]) {
			json_object_set_new(o, d->name, json_null());
			continue;
		}
		switch (d->type) {
		case KNOB_ENUM:
			v = json_string(knob_format(k, values[k], buf, sizeof(buf)));
			break;
		case KNOB_BOOL:
			v = json_boolean(values[k] != 0);
			break;
		default:
			v = json_integer((json_int_t)values[k]);
			break;
		}
		json_object_set_new(o, d->name, v);
	}
	return o;
}

static json_t *snapjson_cpu(const struct snapshot *s)
{
	json_t *cpus = json_array();
	for (int i = 0; i < s->ncpus; i++) {
		const struct snap_cpu *c = &s->cpus[i];
		json_array_append_new(cpus, json_pack("{s:i, s:i, s:i, s:b, s:o, s:i}", "id", c->id,
						      "node", c->node, "llc", c->llc, "online",
						      c->online, "load_pct", jreal(c->load_pct),
						      "freq_mhz", (int)c->freq_mhz));
	}
	return json_pack("{s:s, s:s, s:o}", "governor", snapshot_governor_name(s),
			 "governor_source", snapshot_governor_source(s), "cpus", cpus);
}

/* A measured figure, or null where it is unknown (negative). */
static json_t *jreal_or_null(double v)
{
	return v < 0 ? json_null() : jreal(v);
}

static json_t *jint_or_null(int64_t v)
{
	return v < 0 ? json_null() : json_integer((json_int_t)v);
}

static json_t *snapjson_threads(const struct snapshot *s)
{
	json_t *a = json_array();
	for (size_t i = 0; i < s->nthreads; i++) {
		const struct snap_thread *t = &s->threads[i];
		json_t *o = json_pack("{s:i, s:o, s:s, s:o, s:o, s:s, s:i}", "tid", (int)t->tid,
				      "name", jstr(t->name), "subsystem", rowfmt_thread_group(s, t),
				      "cpu_pct", jreal(t->cpu_pct), "cpu_ns", jint(t->cpu_ns),
				      "state", ethread_state_name(t->state), "emu_cpu", t->emu_cpu);
		json_object_set_new(o, "runq_delay_pct", jreal_or_null(t->runq_delay_pct));
		json_object_set_new(o, "timer_slack_ns", jint_or_null(t->timer_slack_ns));
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *snapjson_est(const struct est_snap *e)
{
	char when[40];
	json_t *kt_pct = json_array(), *kts = json_array(), *hist = json_array();

	for (int i = 0; i < e->nkt; i++) {
		json_array_append_new(kt_pct, jreal(e->kt[i].cpu_pct));
		json_array_append_new(
		    kts,
		    json_pack("{s:i, s:o, s:i, s:i, s:o, s:o}", "id", e->kt[i].id, "estimators",
			      jint(e->kt[i].estimators), "rows_filled", (int)e->kt[i].rows_filled,
			      "rows_full", (int)e->kt[i].rows_full, "tick_ns_last",
			      jint(e->kt[i].tick_ns_last), "cpu_pct", jreal(e->kt[i].cpu_pct)));
	}
	for (int i = 0; i < EST_TICK_HIST_BUCKETS; i++)
		json_array_append_new(hist, jint(e->tick_hist[i]));
	snapjson_iso8601(e->calib.wall_ns, when, sizeof(when));
	json_t *calib = json_pack(
	    "{s:i, s:o, s:o, s:i, s:i, s:i, s:s, s:s, s:o, s:o}", "chain_max", e->calib.chain_max,
	    "single_est_ns", jint(e->calib.single_est_ns), "diff_ns", jint(e->calib.diff_ns),
	    "loops", e->calib.loops, "tests", e->calib.tests, "valid_tests", e->calib.valid_tests,
	    "governor", cpu_governor_name(e->calib.governor), "time", e->calib.wall_ns ? when : "",
	    "dequeue_ns", jint(e->calib.dequeue_ns), "count", jint(e->calib.count));
	json_t *o =
	    json_pack("{s:o, s:o, s:o, s:i, s:i, s:i, s:i, s:i, s:i, s:o}", "estimators",
		      jint(e->estimators), "placed", jint(e->placed), "pending", jint(e->pending),
		      "kthreads", e->kthreads, "kthread_slots", e->kthread_slots, "max_threads",
		      e->max_threads, "chain_max", e->chain_max, "tick_chains", e->tick_chains,
		      "est_cpus", e->est_cpus, "max_per_kthread", jint(e->max_per_kthread));
	json_t *tick = json_pack("{s:o, s:o, s:o}", "last", jint(e->tick_ns_last), "avg",
				 jint(e->tick_ns_avg), "max", jint(e->tick_ns_max));
	json_object_set_new(tick, "per_est",
			    e->tick_ns_per_est > 0 ? jreal(e->tick_ns_per_est) : json_null());
	json_object_set_new(o, "tick_ns", tick);
	json_object_set_new(o, "config_held", json_boolean(e->config_held));
	json_object_set_new(o, "ticks", jint(e->ticks));
	json_object_set_new(o, "visits", jint(e->visits));
	json_object_set_new(o, "tick_hist_us_log2", hist);
	json_object_set_new(o, "calibration", calib);
	json_object_set_new(o, "cpu_pct", jreal(e->cpu_pct_total));
	json_object_set_new(o, "kthread_cpu_pct", kt_pct);
	json_object_set_new(o, "kthread_goal_pct", jreal(EST_KTHREAD_GOAL_PCT));
	json_object_set_new(o, "kthread", kts);
	json_object_set_new(o, "mem_bytes", jint(e->mem_bytes));
	json_object_set_new(o, "mem_per_est_bytes", jreal(e->mem_per_est_bytes));
	json_object_set_new(o, "packets", jint(e->packets));
	json_object_set_new(o, "rates",
			    json_pack("{s:o, s:o, s:o, s:o, s:o}", "cps", jint(e->tot_cps), "inpps",
				      jint(e->tot_inpps), "outpps", jint(e->tot_outpps), "inbps",
				      jint(e->tot_inbps), "outbps", jint(e->tot_outbps)));
	return o;
}

static json_t *snapjson_str_or_null(const char *s)
{
	return s && *s ? jstr(s) : json_null();
}

/* An interval figure of a PMD: null on its first sample (no baseline) or when absent (< 0). */
static json_t *jrate(const struct pmd_thread_snap *t, double v)
{
	return t->no_rate || v < 0 ? json_null() : jreal(v);
}

static json_t *snapjson_pmd(const struct pmd_snap *p)
{
	json_t *threads = json_array();
	for (int i = 0; i < p->nthreads; i++) {
		const struct pmd_thread_snap *t = &p->threads[i];
		json_t *o = json_pack(
		    "{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "name",
		    jstr(t->name), "rx_pps", jreal(t->rx_pps), "tx_pps", jreal(t->tx_pps),
		    "rx_drop_pps", jreal(t->rx_drop_pps), "tx_drop_pps", jreal(t->tx_drop_pps),
		    "drop_pct", jreal(t->drop_pct), "iterations", jint(t->iterations), "busy_pct",
		    jreal(t->busy_pct), "idle_pct", jreal(t->idle_pct), "sleep_iter_pct",
		    jreal(t->sleep_iter_pct), "sleep_us_avg", jreal(t->sleep_us_avg));
		json_object_set_new(
		    o, "sleep_overshoot_us",
		    json_pack("{s:o, s:o, s:b, s:b}", "p50", jreal(t->overshoot_p50_us), "p99",
			      jreal(t->overshoot_p99_us), "p50_at_least", t->overshoot_p50_at_least,
			      "p99_at_least", t->overshoot_p99_at_least));
		json_object_set_new(o, "drops_while_asleep", jint(t->drops_while_asleep));
		json_object_set_new(o, "cpu_pct", jreal(t->cpu_pct));
		json_object_set_new(o, "rx_packets", jint(t->rx_packets));
		json_object_set_new(o, "tx_packets", jint(t->tx_packets));
		json_object_set_new(o, "rx_drops", jint(t->rx_drops));
		json_object_set_new(o, "tx_drops", jint(t->tx_drops));
		json_object_set_new(o, "sleep_iters", jint(t->sleep_iters));
		json_object_set_new(o, "sleep_iters_total", jint(t->sleep_iters_total));
		json_object_set_new(o, "asleep_pct", jreal(t->asleep_pct));
		json_object_set_new(o, "drops_while_asleep_pct", jreal(t->drops_while_asleep_pct));
		json_object_set_new(o, "stolen_pct", jreal_or_null(t->stolen_pct));
		json_object_set_new(o, "cpu_ns_per_pkt", jreal_or_null(t->cpu_ns_per_pkt));
		json_object_set_new(o, "cpu_left_pct", jreal_or_null(t->cpu_left_pct));
		json_object_set_new(o, "timer_slack_ns", jint_or_null(t->timer_slack_ns));
		json_t *bh = json_array();
		for (int b = 0; b < PMD_SNAP_OS_HIST; b++)
			json_array_append_new(bh, jint(t->bpf_hist[b]));
		json_object_set_new(o, "bpf_overshoot_us",
				    t->bpf ? json_pack("{s:o, s:o}", "p50",
						       jreal(t->bpf_overshoot_p50_us), "p99",
						       jreal(t->bpf_overshoot_p99_us))
					   : json_null());
		json_object_set_new(o, "bpf_sleeps", jint(t->bpf_sleeps));
		json_object_set_new(o, "bpf_overshoot_hist_us_log2", bh);
		if (t->no_rate || t->busy_pct < 0 || t->cpu_pct < 0) {
			/* Host: what has no baseline yet is absent, not 0. */
			json_object_set_new(o, "rx_pps", jrate(t, t->rx_pps));
			json_object_set_new(o, "tx_pps", jrate(t, t->tx_pps));
			json_object_set_new(o, "iterations",
					    t->no_rate ? json_null() : jint(t->iterations));
			json_object_set_new(o, "busy_pct", jrate(t, t->busy_pct));
			json_object_set_new(o, "idle_pct", jrate(t, t->idle_pct));
			json_object_set_new(o, "sleep_iter_pct", jrate(t, t->sleep_iter_pct));
			json_object_set_new(o, "sleep_us_avg", jrate(t, t->sleep_us_avg));
			json_object_set_new(o, "cpu_pct", jrate(t, t->cpu_pct));
			json_object_set_new(o, "asleep_pct", jrate(t, t->asleep_pct));
			json_object_set_new(o, "stolen_pct", jrate(t, t->stolen_pct));
			json_object_set_new(o, "drops_while_asleep_pct",
					    jrate(t, t->drops_while_asleep_pct));
			if (t->no_rate)
				snapjson_null_numbers(json_object_get(o, "sleep_overshoot_us"));
		}
		json_array_append_new(threads, o);
	}
	json_t *o =
	    json_pack("{s:I, s:I, s:I, s:o, s:o, s:o}", "maxsleep_us", (json_int_t)p->maxsleep_us,
		      "sleep_inc_us", (json_int_t)p->sleep_inc_us, "timer_slack_ns",
		      (json_int_t)p->timer_slack_ns, "offered_pps", jreal(p->offered_pps),
		      "drop_pct", jreal(p->drop_pct), "threads", threads);
	json_object_set_new(o, "rxq_size", json_integer((json_int_t)p->rxq_size));
	json_object_set_new(o, "topology", json_string(p->topology ? p->topology : "direct"));
	json_object_set_new(o, "in_rings", jint(p->in_rings));
	json_object_set_new(o, "sleep_probe",
			    json_pack("{s:b, s:o, s:o}", "on", p->bpf_probe, "error",
				      snapjson_str_or_null(p->bpf_probe_error), "cost_ns_per_sleep",
				      jreal_or_null(p->bpf_cost_ns_per_sleep)));
	json_object_set_new(o, "timer_slack_differs",
			    json_integer((json_int_t)p->timer_slack_differs));
	json_object_set_new(o, "totals",
			    json_pack("{s:o, s:o, s:o, s:o, s:o}", "generated", jint(p->generated),
				      "forwarded", jint(p->forwarded), "dropped", jint(p->dropped),
				      "in_flight", jint(p->in_flight), "restart_dropped",
				      jint(p->restart_dropped)));
	json_t *tot = json_object_get(o, "totals");
	json_object_set_new(tot, "unaccounted", json_integer((json_int_t)p->unaccounted));
	json_object_set_new(tot, "capacity", jint(p->capacity));
	json_object_set_new(tot, "bound_ok", json_boolean(!p->bound_broken));
	json_object_set_new(o, "hung", json_boolean(p->hung));
	/* No latency figure when nothing reached the sink or a PMD is stuck. */
	bool lat = p->lat_valid && !p->hung;
	json_object_set_new(
	    o, "lat_us",
	    json_pack("{s:o, s:o, s:b, s:b}", "p50", lat ? jreal(p->lat_p50_us) : json_null(),
		      "p99", lat ? jreal(p->lat_p99_us) : json_null(), "p50_at_least",
		      lat && p->lat_p50_at_least, "p99_at_least", lat && p->lat_p99_at_least));
	json_object_set_new(o, "drops_while_asleep", jint(p->drops_while_asleep));
	json_object_set_new(o, "dropped_pps", jreal(p->dropped_pps));
	/* The PMDs together (core/pmd_cost.c): null when not computable, never 0. */
	json_object_set_new(o, "target_pps", jreal_or_null(p->target_pps));
	json_object_set_new(o, "cpu_pct", jreal_or_null(p->cpu_pct));
	json_object_set_new(o, "stolen_pct", jreal_or_null(p->stolen_pct));
	json_object_set_new(o, "cpu_ns_per_pkt", jreal_or_null(p->cpu_ns_per_pkt));
	json_object_set_new(o, "cpu_left_pct", jreal_or_null(p->cpu_left_pct));
	return o;
}

static json_t *snapjson_blk(const struct blk_snap *b)
{
	json_t *per_cpu = json_array();
	for (int i = 0; i < b->ncpus; i++) {
		const struct blk_cpu_snap *c = &b->per_cpu[i];
		json_t *pc = json_pack("{s:i, s:i, s:o, s:o, s:o}", "cpu", c->cpu, "llc", c->llc,
				       "block_softirq", jint(c->block_softirq), "ipi_recv",
				       jint(c->ipi_recv), "completed", jint(c->completed));
		json_object_set_new(pc, "remote", jint(c->remote));
		json_object_set_new(pc, "submitters", json_integer(c->submitters));
		json_object_set_new(pc, "completed_per_s", jreal(c->completed_per_s));
		json_object_set_new(pc, "block_softirq_per_s", jreal(c->block_softirq_per_s));
		json_object_set_new(pc, "ipi_recv_per_s", jreal(c->ipi_recv_per_s));
		json_array_append_new(per_cpu, pc);
	}
	json_t *o =
	    json_pack("{s:I, s:o, s:o, s:i}", "rq_affinity", (json_int_t)b->rq_affinity, "iops",
		      jreal(b->iops), "ipis_per_s", jreal(b->ipis_per_s), "irq_cpu", b->irq_cpu);
	/* A hung queue has no latency figure (its stuck requests have none yet). */
	json_object_set_new(o, "lat_us",
			    json_pack("{s:o, s:o, s:o}", "p50",
				      b->hung ? json_null() : jreal(b->lat_p50_us), "p99",
				      b->hung ? json_null() : jreal(b->lat_p99_us), "p999",
				      b->hung ? json_null() : jreal(b->lat_p999_us)));
	json_object_set_new(o, "completions",
			    json_pack("{s:o, s:o, s:o}", "direct", jint(b->direct), "local_softirq",
				      jint(b->local_softirq), "remote", jint(b->remote)));
	json_object_set_new(o, "per_cpu", per_cpu);
	json_object_set_new(o, "totals",
			    json_pack("{s:o, s:o, s:o}", "submitted", jint(b->submitted),
				      "completed", jint(b->completed), "in_flight",
				      jint(b->in_flight)));
	json_object_set_new(o, "submitters", json_integer(b->submitters));
	json_object_set_new(o, "iodepth", json_integer(b->iodepth));
	json_object_set_new(o, "nr_hw_queues", json_integer(b->nr_hw_queues));
	json_object_set_new(o, "fault_lost_kick", json_boolean(b->fault_lost_kick));
	json_object_set_new(o, "irqs", jint(b->irqs));
	json_object_set_new(o, "ipis_sent", jint(b->ipis_sent));
	json_object_set_new(o, "csd_busy", jint(b->csd_busy));
	json_object_set_new(o, "data_errors", jint(b->data_errors));
	json_object_set_new(o, "cpu_pct",
			    json_pack("{s:o, s:o, s:o}", "irq", jreal(b->irq_cpu_pct), "dev",
				      jreal(b->dev_cpu_pct), "submitters", jreal(b->sub_cpu_pct)));
	/* Per completion over the interval (docs/blk.md §8): null without completions. */
	json_object_set_new(
	    o, "cpu_ns_per_completion",
	    json_pack("{s:o, s:o, s:o}", "total",
		      b->per_cpl_valid ? jreal(b->cpu_ns_per_cpl) : json_null(), "irq",
		      b->per_cpl_valid ? jreal(b->irq_ns_per_cpl) : json_null(), "submitters",
		      b->per_cpl_valid ? jreal(b->sub_ns_per_cpl) : json_null()));
	json_object_set_new(o, "ipis_per_completion",
			    b->per_cpl_valid ? jreal(b->ipis_per_cpl) : json_null());
	json_t *tot = json_object_get(o, "totals");
	json_object_set_new(tot, "unaccounted", json_integer((json_int_t)b->unaccounted));
	json_object_set_new(tot, "bound_ok", json_boolean(!b->bound_broken));
	/* Per completion over the interval (docs/blk.md §8): null without completions. */
	json_object_set_new(
	    o, "cpu_ns_per_completion",
	    json_pack("{s:o, s:o, s:o}", "total",
		      b->per_cpl_valid ? jreal(b->cpu_ns_per_cpl) : json_null(), "irq",
		      b->per_cpl_valid ? jreal(b->irq_ns_per_cpl) : json_null(), "submitters",
		      b->per_cpl_valid ? jreal(b->sub_ns_per_cpl) : json_null()));
	json_object_set_new(o, "ipis_per_completion",
			    b->per_cpl_valid ? jreal(b->ipis_per_cpl) : json_null());
	json_object_set_new(o, "irq_busy_pct",
			    b->irq_busy_valid ? jreal(b->irq_busy_pct) : json_null());
	json_object_set_new(o, "irq_host_took_pct",
			    b->irq_busy_valid ? jreal(b->irq_host_took_pct) : json_null());
	json_object_set_new(o, "hung", json_boolean(b->hung));
	json_object_set_new(o, "hung_submitters", json_integer(b->hung_submitters));
	json_object_set_new(o, "lost_kicks", jint(b->lost_kicks));
	/* rows: submitting CPU, columns: completing CPU, completions per second */
	json_t *m = json_array();
	for (int s = 0; s < b->matrix_n; s++) {
		json_t *row = json_array();
		for (int c = 0; c < b->matrix_n; c++)
			json_array_append_new(row, jreal(b->matrix_per_s[s][c]));
		json_array_append_new(m, row);
	}
	json_object_set_new(o, "matrix_per_s", m);
	return o;
}

/* The host section (backends/host_snap.h): which sources answered, and what they alone give. */
static json_t *snapjson_host_str(const char *s)
{
	return jstr(s); /* README: "" when there is nothing to say */
}

/* A figure the host may lack: null when negative (absent), else rounded. */
static json_t *jopt(double v)
{
	return v < 0 ? json_null() : jreal(v);
}

static json_t *jopt_int(int64_t v)
{
	return v < 0 ? json_null() : json_integer((json_int_t)v);
}

/* The interval's hit shares and passes of a PMD (or the total): null where none. */
static void snapjson_host_shares(json_t *e, const struct host_ovs_pmd_snap *x)
{
	json_object_set_new(e, "recirculations", jint(x->recirc));
	json_object_set_new(e, "phwol_hits", jint(x->phwol_hits));
	json_object_set_new(e, "passes", jopt_int(x->passes));
	json_object_set_new(e, "simple_pct", jopt(x->simple_pct));
	json_object_set_new(e, "emc_pct", jopt(x->emc_pct));
	json_object_set_new(e, "smc_pct", jopt(x->smc_pct));
	json_object_set_new(e, "megaflow_pct", jopt(x->megaflow_pct));
	json_object_set_new(e, "phwol_pct", jopt(x->phwol_pct));
}

/* pmd-perf-show's histograms of a PMD: edges (the last, "above", null) and counts. */
static json_t *snapjson_host_hists(const struct host_ovs_pmd_snap *x)
{
	json_t *a = json_array();
	for (int k = 0; k < x->nhists; k++) {
		const struct host_ovs_hist *g = &x->hist[k];
		json_t *edges = json_array(), *counts = json_array();
		for (int b = 0; b < g->nbins; b++) {
			json_array_append_new(edges, g->edge[b] == UINT64_MAX ? json_null()
									      : jint(g->edge[b]));
			json_array_append_new(counts, jint(g->count[b]));
		}
		json_array_append_new(a, json_pack("{s:o, s:o, s:o}", "name", jstr(g->name),
						   "edges", edges, "counts", counts));
	}
	return a;
}

/* A PMD's suspicious iterations (pmd-perf-log-set's): bounds since the stats were cleared,
 * their rates, the thresholds and TSC rate counted with; null figures and why when unknown. */
static json_t *snapjson_host_susp(const struct host_ovs_pmd_snap *x)
{
	json_t *o = json_object();
	json_object_set_new(o, "min", jopt_int(x->susp_min));
	json_object_set_new(o, "max", jopt_int(x->susp_max));
	json_object_set_new(o, "min_per_s", jopt(x->susp_min_per_s));
	json_object_set_new(o, "max_per_s", jopt(x->susp_max_per_s));
	json_object_set_new(o, "us_threshold", json_integer(x->susp_us));
	json_object_set_new(o, "qlen_threshold", json_integer(x->susp_qlen));
	json_object_set_new(o, "tsc_hz", jopt(x->tsc_hz));
	json_object_set_new(o, "why", snapjson_str_or_null(x->susp_why));
	return o;
}

/* OVS extras: pmd-stats-show and pmd-rxq-show per PMD, rx queues, ovsdb's Interface statistics. */
static void snapjson_host_ovs(json_t *o, const struct host_snap *h)
{
	json_t *pmds = json_array(), *rxqs = json_array(), *ifs = json_array();
	for (int i = 0; i < h->novs_pmds; i++) {
		const struct host_ovs_pmd_snap *x = &h->ovs_pmds[i];
		json_t *e = json_pack(
		    "{s:o, s:i, s:o, s:o, s:o, s:o, s:o, s:o}", "name", jstr(x->name), "core_id",
		    x->core_id, "packets", jint(x->packets), "emc_hits", jint(x->emc_hits),
		    "smc_hits", jint(x->smc_hits), "megaflow_hits", jint(x->megaflow_hits),
		    "upcalls", jint(x->upcalls), "lost_upcalls", jint(x->lost_upcalls));
		json_object_set_new(e, "simple_hits", jint(x->simple_hits));
		json_object_set_new(e, "cycles_per_pkt", jopt(x->cycles_per_pkt));
		json_object_set_new(e, "upcalls_per_s", jopt(x->upcalls_per_s));
		json_object_set_new(e, "lost_upcalls_per_s", jopt(x->lost_upcalls_per_s));
		json_object_set_new(e, "isolated",
				    x->isolated < 0 ? json_null() : json_boolean(x->isolated));
		json_object_set_new(e, "overhead_pct", jopt(x->overhead_pct));
		snapjson_host_shares(e, x);
		json_object_set_new(e, "histograms", snapjson_host_hists(x));
		json_object_set_new(e, "suspicious_iterations", snapjson_host_susp(x));
		json_array_append_new(pmds, e);
	}
	if (h->novs_pmds > 0) {
		const struct host_ovs_pmd_snap *t = &h->ovs_total;
		json_t *e = json_pack(
		    "{s:o, s:o, s:o, s:o, s:o}", "packets", jint(t->packets), "upcalls",
		    jint(t->upcalls), "lost_upcalls", jint(t->lost_upcalls), "upcalls_per_s",
		    jopt(t->upcalls_per_s), "lost_upcalls_per_s", jopt(t->lost_upcalls_per_s));
		json_object_set_new(e, "simple_hits", jint(t->simple_hits));
		json_object_set_new(e, "emc_hits", jint(t->emc_hits));
		json_object_set_new(e, "smc_hits", jint(t->smc_hits));
		json_object_set_new(e, "megaflow_hits", jint(t->megaflow_hits));
		snapjson_host_shares(e, t);
		json_object_set_new(o, "ovs_pmds_total", e);
	} else {
		json_object_set_new(o, "ovs_pmds_total", json_null());
	}
	for (int i = 0; i < h->novs_rxqs; i++) {
		const struct host_ovs_rxq_snap *q = &h->ovs_rxqs[i];
		json_t *e = json_pack("{s:o, s:i, s:i, s:b}", "port", jstr(q->port), "queue",
				      q->queue, "core_id", q->core_id, "enabled", q->enabled);
		json_object_set_new(e, "usage_pct", jopt(q->usage_pct));
		json_array_append_new(rxqs, e);
	}
	for (int i = 0; i < h->novs_ifaces; i++) {
		const struct host_ovs_iface_snap *f = &h->ovs_ifaces[i];
		json_t *e = json_pack("{s:o}", "name", jstr(f->name));
		json_object_set_new(e, "rx_dropped", jopt_int(f->rx_dropped));
		json_object_set_new(e, "tx_dropped", jopt_int(f->tx_dropped));
		json_object_set_new(e, "rx_errors", jopt_int(f->rx_errors));
		json_object_set_new(e, "tx_errors", jopt_int(f->tx_errors));
		/* Every drop counter by ovsdb's own name, total and per second (null: not there,
		 * no baseline yet, or gone back). */
		json_t *dr = json_object(), *rt = json_object();
		for (int k = 0; k < HOST_IFACE_NDROPS; k++) {
			json_object_set_new(dr, host_iface_drop_names[k], jopt_int(f->drops[k]));
			json_object_set_new(rt, host_iface_drop_names[k], jopt(f->drop_per_s[k]));
		}
		json_object_set_new(e, "drops", dr);
		json_object_set_new(e, "drops_per_s", rt);
		json_array_append_new(ifs, e);
	}
	json_object_set_new(o, "ovs_pmds", pmds);
	json_object_set_new(o, "ovs_rxqs", rxqs);
	json_object_set_new(o, "ovsdb", json_boolean(h->ovsdb));
	json_object_set_new(o, "ovsdb_error", snapjson_host_str(h->ovsdb_error));
	json_object_set_new(o, "ovs_interfaces", ifs);
	json_object_set_new(o, "ovs_maxsleep_value", snapjson_host_str(h->ovs_maxsleep_value));
}

static json_t *snapjson_host(const struct host_snap *h)
{
	json_t *links = json_array(), *acct = json_array(), *absent = json_array();

	for (int i = 0; i < h->nlinks; i++) {
		const struct host_link_snap *l = &h->links[i];
		json_t *o =
		    json_pack("{s:o, s:o, s:o, s:o, s:o}", "name", jstr(l->name), "rx_packets",
			      jint(l->rx_packets), "tx_packets", jint(l->tx_packets), "rx_dropped",
			      jint(l->rx_dropped), "tx_dropped", jint(l->tx_dropped));
		json_object_set_new(o, "rx_pps", jreal(l->rx_pps));
		json_object_set_new(o, "tx_pps", jreal(l->tx_pps));
		json_object_set_new(o, "rx_drop_per_s", jreal(l->rx_drop_per_s));
		json_object_set_new(o, "tx_drop_per_s", jreal(l->tx_drop_per_s));
		json_array_append_new(links, o);
	}
	for (int i = 0; i < h->nacct; i++) {
		const struct host_acct_snap *a = &h->acct[i];
		json_array_append_new(
		    acct, json_pack("{s:i, s:o, s:o, s:o, s:o}", "tid", (int)a->tid,
				    "cpu_delay_pct", jreal(a->cpu_delay_pct), "blkio_delay_pct",
				    jreal(a->blkio_delay_pct), "nvcsw_per_s", jreal(a->nvcsw_per_s),
				    "nivcsw_per_s", jreal(a->nivcsw_per_s)));
	}
	for (int i = 0; i < h->nabsent; i++)
		json_array_append_new(absent, jstr(h->absent[i]));
	json_t *o =
	    json_pack("{s:b, s:o, s:b, s:s, s:o, s:b, s:i, s:I}", "cpufreq", h->cpufreq, "governor",
		      snapjson_host_str(h->governor), "taskstats", h->taskstats, "thread_source",
		      h->taskstats ? "taskstats" : "procfs", "taskstats_error",
		      snapjson_host_str(h->taskstats_error), "delayacct", h->delayacct,
		      "threads_matched", h->threads_matched, "pid", (json_int_t)h->pid);
	json_object_set_new(o, "thread_acct", acct);
	json_object_set_new(o, "links_ok", json_boolean(h->links_ok));
	json_object_set_new(o, "links", links);
	json_object_set_new(o, "blk_dev", snapjson_host_str(h->blk_dev));
	json_object_set_new(o, "blk_error", snapjson_host_str(h->blk_error));
	json_object_set_new(o, "ovs", json_boolean(h->ovs));
	json_object_set_new(o, "ovs_socket", snapjson_host_str(h->ovs_socket));
	json_object_set_new(o, "ovs_error", snapjson_host_str(h->ovs_error));
	json_object_set_new(o, "ovs_sleep_show", json_boolean(h->ovs_sleep_show));
	json_object_set_new(o, "ovs_maxsleep_source", snapjson_host_str(h->ovs_maxsleep_source));
	json_object_set_new(o, "absent", absent);
	json_object_set_new(o, "bpf_probe", json_boolean(h->bpf_probe));
	json_object_set_new(o, "bpf_probe_error", snapjson_host_str(h->bpf_probe_error));
	snapjson_host_ovs(o, h);
	return o;
}

json_t *snapjson_build(const struct snapshot *s)
{
	char when[40];
	json_t *events = json_array();

	snapjson_iso8601(s->wall_ns, when, sizeof(when));
	for (size_t i = 0; i < s->nevents; i++) {
		char t[40];
		snapjson_iso8601(s->events[i].wall_ns, t, sizeof(t));
		json_array_append_new(events, json_pack("{s:s, s:s, s:o}", "time", t, "kind",
							event_kind_name(s->events[i].kind), "text",
							jstr(s->events[i].text)));
	}
	json_t *o =
	    json_pack("{s:i, s:s, s:s, s:s, s:o, s:o, s:s, s:o}", "schema", SNAPJSON_SCHEMA, "tool",
		      "tunetop", "version", TUNETOP_VERSION, "time", when, "uptime_s",
		      jreal(s->uptime_s), "interval_s", jreal_scaled(s->interval_s, 1000.0),
		      "backend", s->backend ? s->backend : "engine", "seq", jint(s->seq));
	json_object_set_new(o, "cpu", snapjson_cpu(s));
	json_object_set_new(o, "threads", snapjson_threads(s));
	if (s->has_est)
		json_object_set_new(o, "est", snapjson_est(&s->est));
	if (s->has_pmd)
		json_object_set_new(o, "pmd", snapjson_pmd(&s->pmd));
	if (s->has_blk)
		json_object_set_new(o, "blk", snapjson_blk(&s->blk));
	if (s->has_host)
		json_object_set_new(o, "host", snapjson_host(&s->host));
	/* What the host names absent it does not have: null, never a 0 that reads as measured. */
	for (int i = 0; s->has_host && i < s->host.nabsent; i++)
		snapjson_null_path(o, s->host.absent[i]);
	json_object_set_new(o, "knobs", snapjson_knobs_absent(s->knobs, s->knob_absent));
	json_object_set_new(o, "events", events);
	json_object_set_new(
	    o, "self",
	    json_pack("{s:o, s:o, s:o, s:o, s:o}", "cpu_pct", jreal(s->self.cpu_pct), "sample_us",
		      jint(s->self.sample_us), "render_us", jint(s->self.render_us), "tty_bytes",
		      jint(s->self.tty_bytes), "tty_bytes_per_s", jreal(s->self.tty_bytes_per_s)));
	return o;
}
