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
#include "tui/snapjson_diag.h"
#include "tui/snapjson_int.h"

void snapjson_iso8601(uint64_t wall_ns, char *buf, size_t len)
{
	time_t sec = (time_t)(wall_ns / 1000000000ULL);
	struct tm tm;
	gmtime_r(&sec, &tm);
	size_t n = strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, len > n ? len - n : 0, ".%03uZ",
		 (unsigned)(wall_ns / 1000000ULL % 1000ULL));
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

/* One thread's object: its members set one by one, not through json_pack, whose format
 * string parsed per thread and key checks were a tenth of a 500-thread host refresh's own
 * time. The same members in the same order (jansson keeps the order of insertion). */
static json_t *snapjson_thread(const struct snapshot *s, const struct snap_thread *t)
{
	json_t *o = json_object();
	json_object_set_new_nocheck(o, "tid", json_integer(t->tid));
	json_object_set_new_nocheck(o, "name", jstr(t->name));
	json_object_set_new_nocheck(o, "subsystem", json_string(rowfmt_thread_group(s, t)));
	json_object_set_new_nocheck(o, "cpu_pct", jreal(t->cpu_pct));
	json_object_set_new_nocheck(o, "cpu_ns", jint(t->cpu_ns));
	json_object_set_new_nocheck(o, "state", json_string(ethread_state_name(t->state)));
	json_object_set_new_nocheck(o, "emu_cpu", json_integer(t->emu_cpu));
	json_object_set_new_nocheck(o, "runq_delay_pct", jreal_or_null(t->runq_delay_pct));
	json_object_set_new_nocheck(o, "timer_slack_ns", jint_or_null(t->timer_slack_ns));
	return o;
}

static json_t *snapjson_threads(const struct snapshot *s)
{
	json_t *a = json_array();
	for (size_t i = 0; i < s->nthreads; i++)
		json_array_append_new(a, snapjson_thread(s, &s->threads[i]));
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
		json_object_set_new(o, "tid", t->tid > 0 ? jint((uint64_t)t->tid) : json_null());
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
		/* Null where a CPU's counter went back (host) or the source lacks it (-1). */
		json_object_set_new(pc, "completed_per_s", jreal_or_null(c->completed_per_s));
		json_object_set_new(pc, "block_softirq_per_s",
				    jreal_or_null(c->block_softirq_per_s));
		json_object_set_new(pc, "ipi_recv_per_s", jreal_or_null(c->ipi_recv_per_s));
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

json_t *snapjson_build(const struct snapshot *s)
{
	char when[40];
	json_t *events = json_array();

	snapjson_iso8601(s->wall_ns, when, sizeof(when));
	for (size_t i = 0; i < s->nevents; i++) {
		char t[40];
		if (!snapjson_diag_event_kept(s, &s->events[i]))
			continue;
		snapjson_iso8601(s->events[i].wall_ns, t, sizeof(t));
		json_array_append_new(events, json_pack("{s:s, s:s, s:o}", "time", t, "kind",
							event_kind_name(s->events[i].kind), "text",
							jstr(s->events[i].text)));
	}
	snapjson_diag_events(events, s);
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
	/* What a replayed recording lacked stays lacking in what is written from it. */
	static const struct {
		unsigned bit;
		const char *path;
	} self_absent[] = {
	    {SELF_ABSENT_CPU, "self.cpu_pct"},	       {SELF_ABSENT_SAMPLE, "self.sample_us"},
	    {SELF_ABSENT_RENDER, "self.render_us"},    {SELF_ABSENT_TTY, "self.tty_bytes"},
	    {SELF_ABSENT_TTY, "self.tty_bytes_per_s"},
	};
	for (size_t i = 0; i < sizeof(self_absent) / sizeof(self_absent[0]); i++)
		if (s->self.absent & self_absent[i].bit)
			snapjson_null_path(o, self_absent[i].path);
	/* Last, as the line always had it: the findings the front end attached (tui/after.c). */
	if (s->diag.evaluated)
		json_object_set_new(o, "diagnoses", snapjson_findings(s->diag.f, s->diag.n));
	return o;
}
