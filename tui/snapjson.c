/* snapjson.c: rendering a snapshot into the schema-1 JSON object. */
#include "snapjson.h"

#include <math.h>
#include <stdio.h>
#include <time.h>

#include "../engine/cpu_model.h"
#include "../engine/ethread.h"
#include "options.h"

void snapjson_iso8601(uint64_t wall_ns, char *buf, size_t len)
{
	time_t sec = (time_t)(wall_ns / 1000000000ULL);
	struct tm tm;
	gmtime_r(&sec, &tm);
	size_t n = strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, len > n ? len - n : 0, ".%03uZ",
		 (unsigned)(wall_ns / 1000000ULL % 1000ULL));
}

/* Round to 2 decimals so lines stay short and diffable. */
static json_t *jreal(double v)
{
	if (!isfinite(v))
		v = 0;
	return json_real(round(v * 100.0) / 100.0);
}

static json_t *jint(uint64_t v)
{
	return json_integer((json_int_t)v);
}

json_t *snapjson_knobs(const int64_t *values)
{
	json_t *o = json_object();
	char buf[64];

	for (int k = 0; k < K_COUNT; k++) {
		const struct knob_def *d = &knob_table[k];
		json_t *v;
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
	return json_pack("{s:s, s:s, s:o}", "governor", cpu_governor_name(s->governor),
			 "governor_source", s->governor_emulated ? "emulated" : "cpufreq", "cpus",
			 cpus);
}

static json_t *snapjson_threads(const struct snapshot *s)
{
	json_t *a = json_array();
	for (size_t i = 0; i < s->nthreads; i++) {
		const struct snap_thread *t = &s->threads[i];
		json_array_append_new(a, json_pack("{s:i, s:s, s:s, s:o, s:o, s:s, s:i}", "tid",
						   (int)t->tid, "name", t->name, "subsystem",
						   subsys_name(t->subsys), "cpu_pct", jreal(t->cpu_pct),
						   "cpu_ns", jint(t->cpu_ns), "state",
						   ethread_state_name(t->state), "emu_cpu", t->emu_cpu));
	}
	return a;
}

static json_t *snapjson_est(const struct est_snap *e)
{
	char when[40];
	json_t *kt_pct = json_array(), *kts = json_array(), *hist = json_array();

	for (int i = 0; i < e->nkt; i++) {
		json_array_append_new(kt_pct, jreal(e->kt[i].cpu_pct));
		json_array_append_new(kts, json_pack("{s:i, s:o, s:i, s:i, s:o}", "id", e->kt[i].id,
						     "estimators", jint(e->kt[i].estimators),
						     "rows_filled", (int)e->kt[i].rows_filled,
						     "rows_full", (int)e->kt[i].rows_full, "cpu_pct",
						     jreal(e->kt[i].cpu_pct)));
	}
	for (int i = 0; i < EST_TICK_HIST_BUCKETS; i++)
		json_array_append_new(hist, jint(e->tick_hist[i]));
	snapjson_iso8601(e->calib.wall_ns, when, sizeof(when));
	json_t *calib = json_pack("{s:i, s:o, s:o, s:i, s:i, s:i, s:s, s:s, s:o, s:o}",
				  "chain_max", e->calib.chain_max, "single_est_ns",
				  jint(e->calib.single_est_ns), "diff_ns", jint(e->calib.diff_ns),
				  "loops", e->calib.loops, "tests", e->calib.tests, "valid_tests",
				  e->calib.valid_tests, "governor",
				  cpu_governor_name(e->calib.governor), "time",
				  e->calib.wall_ns ? when : "", "dequeue_ns",
				  jint(e->calib.dequeue_ns), "count", jint(e->calib.count));
	json_t *o = json_pack("{s:o, s:o, s:o, s:i, s:i, s:i, s:i, s:i, s:i, s:o}", "estimators",
			      jint(e->estimators), "placed", jint(e->placed), "pending",
			      jint(e->pending), "kthreads", e->kthreads, "kthread_slots",
			      e->kthread_slots, "max_threads", e->max_threads, "chain_max",
			      e->chain_max, "tick_chains", e->tick_chains, "est_cpus", e->est_cpus,
			      "max_per_kthread", jint(e->max_per_kthread));
	json_object_set_new(o, "tick_ns", json_pack("{s:o, s:o, s:o}", "last", jint(e->tick_ns_last),
						     "avg", jint(e->tick_ns_avg), "max",
						     jint(e->tick_ns_max)));
	json_object_set_new(o, "ticks", jint(e->ticks));
	json_object_set_new(o, "visits", jint(e->visits));
	json_object_set_new(o, "tick_hist_us_log2", hist);
	json_object_set_new(o, "calibration", calib);
	json_object_set_new(o, "cpu_pct", jreal(e->cpu_pct_total));
	json_object_set_new(o, "kthread_cpu_pct", kt_pct);
	json_object_set_new(o, "kthread", kts);
	json_object_set_new(o, "rates", json_pack("{s:o, s:o, s:o, s:o, s:o}", "cps",
						  jint(e->tot_cps), "inpps", jint(e->tot_inpps),
						  "outpps", jint(e->tot_outpps), "inbps",
						  jint(e->tot_inbps), "outbps", jint(e->tot_outbps)));
	return o;
}

static json_t *snapjson_pmd(const struct pmd_snap *p)
{
	json_t *threads = json_array();
	for (int i = 0; i < p->nthreads; i++) {
		const struct pmd_thread_snap *t = &p->threads[i];
		json_t *o = json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
				      "name", t->name, "rx_pps", jreal(t->rx_pps), "tx_pps",
				      jreal(t->tx_pps), "rx_drop_pps", jreal(t->rx_drop_pps),
				      "tx_drop_pps", jreal(t->tx_drop_pps), "drop_pct",
				      jreal(t->drop_pct), "iterations", jint(t->iterations),
				      "busy_pct", jreal(t->busy_pct), "idle_pct", jreal(t->idle_pct),
				      "sleep_iter_pct", jreal(t->sleep_iter_pct), "sleep_us_avg",
				      jreal(t->sleep_us_avg));
		json_object_set_new(o, "sleep_overshoot_us",
				    json_pack("{s:o, s:o}", "p50", jreal(t->overshoot_p50_us), "p99",
					      jreal(t->overshoot_p99_us)));
		json_object_set_new(o, "drops_while_asleep", jint(t->drops_while_asleep));
		json_object_set_new(o, "cpu_pct", jreal(t->cpu_pct));
		json_object_set_new(o, "rx_packets", jint(t->rx_packets));
		json_object_set_new(o, "tx_packets", jint(t->tx_packets));
		json_array_append_new(threads, o);
	}
	json_t *o = json_pack("{s:I, s:I, s:I, s:o, s:o, s:o}", "maxsleep_us",
			      (json_int_t)p->maxsleep_us, "sleep_inc_us", (json_int_t)p->sleep_inc_us,
			      "timer_slack_ns", (json_int_t)p->timer_slack_ns, "offered_pps",
			      jreal(p->offered_pps), "drop_pct", jreal(p->drop_pct), "threads",
			      threads);
	json_object_set_new(o, "totals",
			    json_pack("{s:o, s:o, s:o, s:o}", "generated", jint(p->generated),
				      "forwarded", jint(p->forwarded), "dropped", jint(p->dropped),
				      "in_flight", jint(p->in_flight)));
	return o;
}

static json_t *snapjson_blk(const struct blk_snap *b)
{
	json_t *per_cpu = json_array();
	for (int i = 0; i < b->ncpus; i++) {
		const struct blk_cpu_snap *c = &b->per_cpu[i];
		json_array_append_new(per_cpu, json_pack("{s:i, s:i, s:o, s:o, s:o}", "cpu", c->cpu,
							 "llc", c->llc, "block_softirq",
							 jint(c->block_softirq), "ipi_recv",
							 jint(c->ipi_recv), "completed",
							 jint(c->completed)));
	}
	json_t *o = json_pack("{s:I, s:o, s:o, s:i}", "rq_affinity", (json_int_t)b->rq_affinity,
			      "iops", jreal(b->iops), "ipis_per_s", jreal(b->ipis_per_s),
			      "irq_cpu", b->irq_cpu);
	json_object_set_new(o, "lat_us", json_pack("{s:o, s:o, s:o}", "p50", jreal(b->lat_p50_us),
						   "p99", jreal(b->lat_p99_us), "p999",
						   jreal(b->lat_p999_us)));
	json_object_set_new(o, "completions",
			    json_pack("{s:o, s:o, s:o}", "direct", jint(b->direct), "local_softirq",
				      jint(b->local_softirq), "remote", jint(b->remote)));
	json_object_set_new(o, "per_cpu", per_cpu);
	json_object_set_new(o, "totals",
			    json_pack("{s:o, s:o, s:o}", "submitted", jint(b->submitted),
				      "completed", jint(b->completed), "in_flight",
				      jint(b->in_flight)));
	return o;
}

static json_t *snapjson_host(const struct host_snap *h)
{
	return json_pack("{s:b, s:b, s:b}", "cpufreq", h->cpufreq, "taskstats", h->taskstats,
			 "ovs", h->ovs);
}

json_t *snapjson_build(const struct snapshot *s)
{
	char when[40];
	json_t *events = json_array();

	snapjson_iso8601(s->wall_ns, when, sizeof(when));
	for (size_t i = 0; i < s->nevents; i++) {
		char t[40];
		snapjson_iso8601(s->events[i].wall_ns, t, sizeof(t));
		json_array_append_new(events, json_pack("{s:s, s:s, s:s}", "time", t, "kind",
							event_kind_name(s->events[i].kind), "text",
							s->events[i].text));
	}
	json_t *o = json_pack("{s:i, s:s, s:s, s:s, s:o, s:o, s:s, s:o}", "schema", SNAPJSON_SCHEMA,
			      "tool", "tunetop", "version", TUNETOP_VERSION, "time", when,
			      "uptime_s", jreal(s->uptime_s), "interval_s",
			      json_real(round(s->interval_s * 1000.0) / 1000.0), "backend",
			      s->backend ? s->backend : "engine", "seq", jint(s->seq));
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
	json_object_set_new(o, "knobs", snapjson_knobs(s->knobs));
	json_object_set_new(o, "events", events);
	json_object_set_new(o, "self",
			    json_pack("{s:o, s:o, s:o, s:o, s:o}", "cpu_pct", jreal(s->self.cpu_pct),
				      "sample_us", jint(s->self.sample_us), "render_us",
				      jint(s->self.render_us), "tty_bytes", jint(s->self.tty_bytes),
				      "tty_bytes_per_s", jreal(s->self.tty_bytes_per_s)));
	return o;
}
