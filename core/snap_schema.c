/* SPDX-License-Identifier: GPL-2.0-or-later */
/* snap_schema.c: the snapshot's fields in the order tui/snapjson.c writes them (docs/json.md
 * says what each means: tools/json_fields.txt). */
#include "core/snap_schema.h"

#define C struct snap_cpu
const struct snap_field snap_cpu_fields[] = {
    SF(C, "id", id, SFE_VAL, SFD_PLAIN),	   SF(C, "node", node, SFE_VAL, SFD_PLAIN),
    SF(C, "llc", llc, SFE_VAL, SFD_PLAIN),	   SF(C, "online", online, SFE_VAL, SFD_PLAIN),
    SF(C, "load_pct", load_pct, SFE_VAL, SFD_PCT), SF(C, "freq_mhz", freq_mhz, SFE_VAL, SFD_PLAIN),
};
#undef C
const size_t snap_cpu_nfields = SF_N(snap_cpu_fields);

#define T struct snap_thread
const struct snap_field snap_thread_fields[] = {
    SF(T, "tid", tid, SFE_VAL, SFD_PLAIN),
    SF(T, "name", name, SFE_VAL, SFD_PLAIN),
    SF_SLOT("subsystem"),
    SF(T, "cpu_pct", cpu_pct, SFE_VAL, SFD_PLAIN),
    SF(T, "cpu_ns", cpu_ns, SFE_VAL, SFD_PLAIN),
    SF_SLOT("state"),
    SF(T, "emu_cpu", emu_cpu, SFE_VAL, SFD_PLAIN),
    SF(T, "runq_delay_pct", runq_delay_pct, SFE_NEG, SFD_OPT),
    SF(T, "timer_slack_ns", timer_slack_ns, SFE_NEG, SFD_OPT),
};
#undef T
const size_t snap_thread_nfields = SF_N(snap_thread_fields);

#define K struct est_kt_snap
static const struct snap_field est_kt_fields[] = {
    SF(K, "id", id, SFE_VAL, SFD_PLAIN),
    SF(K, "estimators", estimators, SFE_VAL, SFD_PLAIN),
    SF(K, "rows_filled", rows_filled, SFE_VAL, SFD_PLAIN),
    SF(K, "rows_full", rows_full, SFE_VAL, SFD_PLAIN),
    SF(K, "tick_ns_last", tick_ns_last, SFE_VAL, SFD_PLAIN),
    SF(K, "cpu_pct", cpu_pct, SFE_VAL, SFD_PLAIN),
};
#undef K
static const struct snap_rows est_kt_rows = {est_kt_fields,
					     SF_N(est_kt_fields),
					     sizeof(struct est_kt_snap),
					     EST_SNAP_MAX_KT,
					     offsetof(struct est_snap, nkt),
					     -1};

#define E struct est_snap
const struct snap_field snap_est_fields[] = {
    SF(E, "estimators", estimators, SFE_VAL, SFD_PLAIN),
    SF(E, "placed", placed, SFE_VAL, SFD_PLAIN),
    SF(E, "pending", pending, SFE_VAL, SFD_PLAIN),
    SF(E, "kthreads", kthreads, SFE_VAL, SFD_PLAIN),
    SF(E, "kthread_slots", kthread_slots, SFE_VAL, SFD_PLAIN),
    SF(E, "max_threads", max_threads, SFE_VAL, SFD_PLAIN),
    SF(E, "chain_max", chain_max, SFE_VAL, SFD_PLAIN),
    SF(E, "tick_chains", tick_chains, SFE_VAL, SFD_PLAIN),
    SF(E, "est_cpus", est_cpus, SFE_VAL, SFD_PLAIN),
    SF(E, "max_per_kthread", max_per_kthread, SFE_VAL, SFD_PLAIN),
    SF(E, "tick_ns.last", tick_ns_last, SFE_VAL, SFD_PLAIN),
    SF(E, "tick_ns.avg", tick_ns_avg, SFE_VAL, SFD_PLAIN),
    SF(E, "tick_ns.max", tick_ns_max, SFE_VAL, SFD_PLAIN),
    SF(E, "tick_ns.per_est", tick_ns_per_est, SFE_POS, SFD_PLAIN),
    SF(E, "config_held", config_held, SFE_VAL, SFD_PLAIN),
    SF(E, "ticks", ticks, SFE_VAL, SFD_PLAIN),
    SF(E, "visits", visits, SFE_VAL, SFD_PLAIN),
    SF(E, "tick_hist_us_log2", tick_hist, SFE_VAL, SFD_PLAIN),
    SF(E, "calibration.chain_max", calib.chain_max, SFE_VAL, SFD_PLAIN),
    SF(E, "calibration.single_est_ns", calib.single_est_ns, SFE_VAL, SFD_PLAIN),
    SF(E, "calibration.diff_ns", calib.diff_ns, SFE_VAL, SFD_PLAIN),
    SF(E, "calibration.loops", calib.loops, SFE_VAL, SFD_PLAIN),
    SF(E, "calibration.tests", calib.tests, SFE_VAL, SFD_PLAIN),
    SF(E, "calibration.valid_tests", calib.valid_tests, SFE_VAL, SFD_PLAIN),
    SF_SLOT("calibration.governor"),
    SF_SLOT("calibration.time"),
    SF(E, "calibration.dequeue_ns", calib.dequeue_ns, SFE_VAL, SFD_PLAIN),
    SF(E, "calibration.count", calib.count, SFE_VAL, SFD_PLAIN),
    SF(E, "cpu_pct", cpu_pct_total, SFE_VAL, SFD_PLAIN),
    SF_SLOT("kthread_cpu_pct"),
    SF_SLOT("kthread_goal_pct"),
    SF_ROWS(E, "kthread", kt, est_kt_rows),
    SF(E, "mem_bytes", mem_bytes, SFE_VAL, SFD_PLAIN),
    SF(E, "mem_per_est_bytes", mem_per_est_bytes, SFE_VAL, SFD_PLAIN),
    SF(E, "packets", packets, SFE_VAL, SFD_PLAIN),
    SF(E, "rates.cps", tot_cps, SFE_VAL, SFD_PLAIN),
    SF(E, "rates.inpps", tot_inpps, SFE_VAL, SFD_PLAIN),
    SF(E, "rates.outpps", tot_outpps, SFE_VAL, SFD_PLAIN),
    SF(E, "rates.inbps", tot_inbps, SFE_VAL, SFD_PLAIN),
    SF(E, "rates.outbps", tot_outbps, SFE_VAL, SFD_PLAIN),
};
#undef E
const size_t snap_est_nfields = SF_N(snap_est_fields);

/* A PMD's interval figures are null on its first sample (a host's: no baseline), and read
 * back as -1 there. */
#define R(k, m, d) SF(P, k, m, SFE_RATE, (d) | SFD_NULLNEG)
#define P struct pmd_thread_snap
static const struct snap_field pmd_thread_fields[] = {
    SF(P, "name", name, SFE_VAL, SFD_PLAIN),
    R("rx_pps", rx_pps, SFD_RATE),
    R("tx_pps", tx_pps, SFD_RATE),
    SF(P, "rx_drop_pps", rx_drop_pps, SFE_VAL, SFD_RATE),
    SF(P, "tx_drop_pps", tx_drop_pps, SFE_VAL, SFD_RATE),
    SF(P, "drop_pct", drop_pct, SFE_VAL, SFD_PCT),
    SF(P, "iterations", iterations, SFE_RATE, SFD_PLAIN),
    R("busy_pct", busy_pct, SFD_PCT),
    R("idle_pct", idle_pct, SFD_PCT),
    R("sleep_iter_pct", sleep_iter_pct, SFD_PCT),
    R("sleep_us_avg", sleep_us_avg, SFD_PLAIN),
    SF(P, "sleep_overshoot_us.p50", overshoot_p50_us, SFE_RATE, SFD_PLAIN),
    SF(P, "sleep_overshoot_us.p99", overshoot_p99_us, SFE_RATE, SFD_PLAIN),
    SF(P, "sleep_overshoot_us.p50_at_least", overshoot_p50_at_least, SFE_VAL, SFD_PLAIN),
    SF(P, "sleep_overshoot_us.p99_at_least", overshoot_p99_at_least, SFE_VAL, SFD_PLAIN),
    SF(P, "drops_while_asleep", drops_while_asleep, SFE_VAL, SFD_PLAIN),
    R("cpu_pct", cpu_pct, SFD_PLAIN),
    SF(P, "rx_packets", rx_packets, SFE_VAL, SFD_PLAIN),
    SF(P, "tx_packets", tx_packets, SFE_VAL, SFD_PLAIN),
    SF(P, "rx_drops", rx_drops, SFE_VAL, SFD_PLAIN),
    SF(P, "tx_drops", tx_drops, SFE_VAL, SFD_PLAIN),
    SF(P, "sleep_iters", sleep_iters, SFE_VAL, SFD_PLAIN),
    SF(P, "sleep_iters_total", sleep_iters_total, SFE_VAL, SFD_PLAIN),
    SF(P, "asleep_pct", asleep_pct, SFE_RATE, SFD_PCT),
    SF(P, "drops_while_asleep_pct", drops_while_asleep_pct, SFE_RATE, SFD_PCT),
    SF(P, "stolen_pct", stolen_pct, SFE_RATE, SFD_PCT_OPT),
    SF(P, "cpu_ns_per_pkt", cpu_ns_per_pkt, SFE_NEG, SFD_OPT),
    SF(P, "cpu_left_pct", cpu_left_pct, SFE_NEG, SFD_PCT_OPT),
    SF(P, "timer_slack_ns", timer_slack_ns, SFE_NEG, SFD_OPT),
    SF(P, "tid", tid, SFE_POS, SFD_POS),
    SF(P, "bpf_overshoot_us.p50", bpf_overshoot_p50_us, SFE_VAL, SFD_PLAIN),
    SF(P, "bpf_overshoot_us.p99", bpf_overshoot_p99_us, SFE_VAL, SFD_PLAIN),
    SF(P, "bpf_sleeps", bpf_sleeps, SFE_VAL, SFD_PLAIN),
    SF(P, "bpf_overshoot_hist_us_log2", bpf_hist, SFE_VAL, SFD_PLAIN),
};
#undef P
#undef R
static const struct snap_rows pmd_thread_rows = {pmd_thread_fields,
						 SF_N(pmd_thread_fields),
						 sizeof(struct pmd_thread_snap),
						 PMD_SNAP_MAX,
						 offsetof(struct pmd_snap, nthreads),
						 offsetof(struct pmd_thread_snap, no_rate)};

#define P struct pmd_snap
const struct snap_field snap_pmd_fields[] = {
    SF(P, "maxsleep_us", maxsleep_us, SFE_VAL, SFD_PLAIN),
    SF(P, "sleep_inc_us", sleep_inc_us, SFE_VAL, SFD_PLAIN),
    SF(P, "timer_slack_ns", timer_slack_ns, SFE_VAL, SFD_PLAIN),
    SF(P, "offered_pps", offered_pps, SFE_VAL, SFD_RATE),
    SF(P, "drop_pct", drop_pct, SFE_VAL, SFD_PCT),
    SF_ROWS(P, "threads", threads, pmd_thread_rows),
    SF(P, "rxq_size", rxq_size, SFE_VAL, SFD_PLAIN),
    SF_SLOT("topology"),
    SF(P, "in_rings", in_rings, SFE_VAL, SFD_PLAIN),
    SF(P, "sleep_probe.on", bpf_probe, SFE_VAL, SFD_PLAIN),
    SF(P, "sleep_probe.error", bpf_probe_error, SFE_NEG, SFD_PLAIN),
    SF(P, "sleep_probe.cost_ns_per_sleep", bpf_cost_ns_per_sleep, SFE_NEG, SFD_OPT),
    SF(P, "timer_slack_differs", timer_slack_differs, SFE_VAL, SFD_PLAIN),
    SF(P, "totals.generated", generated, SFE_VAL, SFD_PLAIN),
    SF(P, "totals.forwarded", forwarded, SFE_VAL, SFD_PLAIN),
    SF(P, "totals.dropped", dropped, SFE_VAL, SFD_PLAIN),
    SF(P, "totals.in_flight", in_flight, SFE_VAL, SFD_PLAIN),
    SF(P, "totals.restart_dropped", restart_dropped, SFE_VAL, SFD_PLAIN),
    SF(P, "totals.unaccounted", unaccounted, SFE_VAL, SFD_PLAIN),
    SF(P, "totals.capacity", capacity, SFE_VAL, SFD_PLAIN),
    SF(P, "totals.bound_ok", bound_broken, SFE_NOT, SFD_NOT),
    SF(P, "hung", hung, SFE_VAL, SFD_PLAIN),
    /* No latency figure when nothing reached the sink or a PMD is stuck (the latter:
     * tui/snapjson.c). */
    SF_IF(P, "lat_us.p50", lat_p50_us, SFD_PLAIN, lat_valid, false),
    SF_IF(P, "lat_us.p99", lat_p99_us, SFD_PLAIN, lat_valid, false),
    SF_IF(P, "lat_us.p50_at_least", lat_p50_at_least, SFD_PLAIN, lat_valid, false),
    SF_IF(P, "lat_us.p99_at_least", lat_p99_at_least, SFD_PLAIN, lat_valid, false),
    SF(P, "drops_while_asleep", drops_while_asleep, SFE_VAL, SFD_PLAIN),
    SF(P, "dropped_pps", dropped_pps, SFE_VAL, SFD_RATE),
    /* The PMDs together (core/pmd_cost.c): null when not computable, never 0. */
    SF(P, "target_pps", target_pps, SFE_NEG, SFD_OPT),
    SF(P, "cpu_pct", cpu_pct, SFE_NEG, SFD_OPT),
    SF(P, "stolen_pct", stolen_pct, SFE_NEG, SFD_PCT_OPT),
    SF(P, "cpu_ns_per_pkt", cpu_ns_per_pkt, SFE_NEG, SFD_OPT),
    SF(P, "cpu_left_pct", cpu_left_pct, SFE_NEG, SFD_PCT_OPT),
};
#undef P
const size_t snap_pmd_nfields = SF_N(snap_pmd_fields);

/* Null where a CPU's counter went back (host) or the source lacks it (-1). */
#define B struct blk_cpu_snap
static const struct snap_field blk_cpu_fields[] = {
    SF(B, "cpu", cpu, SFE_VAL, SFD_PLAIN),
    SF(B, "llc", llc, SFE_VAL, SFD_PLAIN),
    SF(B, "block_softirq", block_softirq, SFE_VAL, SFD_PLAIN),
    SF(B, "ipi_recv", ipi_recv, SFE_VAL, SFD_PLAIN),
    SF(B, "completed", completed, SFE_VAL, SFD_PLAIN),
    SF(B, "remote", remote, SFE_VAL, SFD_PLAIN),
    SF(B, "submitters", submitters, SFE_VAL, SFD_PLAIN),
    SF(B, "completed_per_s", completed_per_s, SFE_NEG, SFD_OPT),
    SF(B, "block_softirq_per_s", block_softirq_per_s, SFE_NEG, SFD_OPT),
    SF(B, "ipi_recv_per_s", ipi_recv_per_s, SFE_NEG, SFD_OPT),
};
#undef B
static const struct snap_rows blk_cpu_rows = {blk_cpu_fields,
					      SF_N(blk_cpu_fields),
					      sizeof(struct blk_cpu_snap),
					      BLK_SNAP_MAX_CPUS,
					      offsetof(struct blk_snap, ncpus),
					      -1};

/* A hung queue has no latency figure (its stuck requests have none yet); the figures per
 * completion over the interval (docs/blk.md §8) are null without completions. */
#define B struct blk_snap
#define PER_CPL(k, m) SF_IF(B, k, m, SFD_PLAIN, per_cpl_valid, false)
const struct snap_field snap_blk_fields[] = {
    SF(B, "rq_affinity", rq_affinity, SFE_VAL, SFD_PLAIN),
    SF(B, "iops", iops, SFE_VAL, SFD_PLAIN),
    SF(B, "ipis_per_s", ipis_per_s, SFE_VAL, SFD_PLAIN),
    SF(B, "irq_cpu", irq_cpu, SFE_VAL, SFD_PLAIN),
    SF_IF(B, "lat_us.p50", lat_p50_us, SFD_PLAIN, hung, true),
    SF_IF(B, "lat_us.p99", lat_p99_us, SFD_PLAIN, hung, true),
    SF_IF(B, "lat_us.p999", lat_p999_us, SFD_PLAIN, hung, true),
    SF(B, "completions.direct", direct, SFE_VAL, SFD_PLAIN),
    SF(B, "completions.local_softirq", local_softirq, SFE_VAL, SFD_PLAIN),
    SF(B, "completions.remote", remote, SFE_VAL, SFD_PLAIN),
    SF_ROWS(B, "per_cpu", per_cpu, blk_cpu_rows),
    SF(B, "totals.submitted", submitted, SFE_VAL, SFD_PLAIN),
    SF(B, "totals.completed", completed, SFE_VAL, SFD_PLAIN),
    SF(B, "totals.in_flight", in_flight, SFE_VAL, SFD_PLAIN),
    SF(B, "submitters", submitters, SFE_VAL, SFD_PLAIN),
    SF(B, "iodepth", iodepth, SFE_VAL, SFD_PLAIN),
    SF(B, "nr_hw_queues", nr_hw_queues, SFE_VAL, SFD_PLAIN),
    SF(B, "fault_lost_kick", fault_lost_kick, SFE_VAL, SFD_PLAIN),
    SF(B, "irqs", irqs, SFE_VAL, SFD_PLAIN),
    SF(B, "ipis_sent", ipis_sent, SFE_VAL, SFD_PLAIN),
    SF(B, "csd_busy", csd_busy, SFE_VAL, SFD_PLAIN),
    SF(B, "data_errors", data_errors, SFE_VAL, SFD_PLAIN),
    SF(B, "cpu_pct.irq", irq_cpu_pct, SFE_VAL, SFD_PLAIN),
    SF(B, "cpu_pct.dev", dev_cpu_pct, SFE_VAL, SFD_PLAIN),
    SF(B, "cpu_pct.submitters", sub_cpu_pct, SFE_VAL, SFD_PLAIN),
    PER_CPL("cpu_ns_per_completion.total", cpu_ns_per_cpl),
    PER_CPL("cpu_ns_per_completion.irq", irq_ns_per_cpl),
    PER_CPL("cpu_ns_per_completion.submitters", sub_ns_per_cpl),
    PER_CPL("ipis_per_completion", ipis_per_cpl),
    SF(B, "totals.unaccounted", unaccounted, SFE_VAL, SFD_PLAIN),
    SF(B, "totals.bound_ok", bound_broken, SFE_NOT, SFD_NOT),
    /* Null where there is no blk-irq thread (the host). */
    SF_IF(B, "irq_busy_pct", irq_busy_pct, SFD_PCT, irq_busy_valid, false),
    SF_IF(B, "irq_host_took_pct", irq_host_took_pct, SFD_PCT, irq_busy_valid, false),
    SF(B, "hung", hung, SFE_VAL, SFD_PLAIN),
    SF(B, "hung_submitters", hung_submitters, SFE_VAL, SFD_PLAIN),
    SF(B, "lost_kicks", lost_kicks, SFE_VAL, SFD_PLAIN),
    SF_SLOT("matrix_per_s"),
};
#undef PER_CPL
#undef B
const size_t snap_blk_nfields = SF_N(snap_blk_fields);

#define S struct snap_self
const struct snap_field snap_self_fields[] = {
    SF(S, "cpu_pct", cpu_pct, SFE_VAL, SFD_PLAIN),
    SF(S, "sample_us", sample_us, SFE_VAL, SFD_PLAIN),
    SF(S, "render_us", render_us, SFE_VAL, SFD_PLAIN),
    SF(S, "tty_bytes", tty_bytes, SFE_VAL, SFD_PLAIN),
    SF(S, "tty_bytes_per_s", tty_bytes_per_s, SFE_VAL, SFD_PLAIN),
};
#undef S
const size_t snap_self_nfields = SF_N(snap_self_fields);
