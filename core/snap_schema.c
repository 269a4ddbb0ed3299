/* SPDX-License-Identifier: GPL-2.0-or-later */
/* snap_schema.c: the snapshot's fields in the order tui/snapjson.c writes them (docs/json.md
 * says what each means: tools/json_fields.txt). V: the value under the member's own name; K:
 * under another key; NEG: null when negative (unknown, read back as -1); C: one thread's
 * share of one CPU (read back within 0..100, SFD_CPU). */
#include "core/snap_schema.h"

#define V(m) SF(T, #m, m, SFE_VAL, SFD_PLAIN)
#define K(k, m) SF(T, #k, m, SFE_VAL, SFD_PLAIN)
#define K2(o, k, m) SF(T, #o "." #k, m, SFE_VAL, SFD_PLAIN)
#define F(k, m, e, d) SF(T, #k, m, e, d)
#define F2(o, k, m, e, d) SF(T, #o "." #k, m, e, d)
#define NEG(m) SF(T, #m, m, SFE_NEG, SFD_OPT)
#define C(m) SF(T, #m, m, SFE_VAL, SFD_CPU)
#define NEGK2(o, k, m) SF(T, #o "." #k, m, SFE_NEG, SFD_OPT)
#define SLOT(k) SF_SLOT(#k)
#define SLOT2(o, k) SF_SLOT(#o "." #k)
#define ROWS(k, m, r, count, norate)                                                               \
	SF_ROWS(T, #k, m,                                                                          \
		((const struct snap_rows){r, SF_N(r), sizeof(((T *)0)->m[0]), SF_N(((T *)0)->m),   \
					  offsetof(T, count), norate}))

#define T struct snap_cpu
const struct snap_field snap_cpu_fields[] = {
    V(id), V(node), V(llc), V(online), F(load_pct, load_pct, SFE_VAL, SFD_PCT), V(freq_mhz)};
#undef T
const size_t snap_cpu_nfields = SF_N(snap_cpu_fields);

#define T struct snap_thread
const struct snap_field snap_thread_fields[] = {
    V(tid),	 V(name),    SLOT(subsystem),	  C(cpu_pct),	      V(cpu_ns),
    SLOT(state), V(emu_cpu), NEG(runq_delay_pct), NEG(timer_slack_ns)};
#undef T
const size_t snap_thread_nfields = SF_N(snap_thread_fields);

#define T struct est_kt_snap
static const struct snap_field est_kt_fields[] = {V(id),	V(estimators),	 V(rows_filled),
						  V(rows_full), V(tick_ns_last), C(cpu_pct)};
#undef T

#define T struct est_snap
const struct snap_field snap_est_fields[] = {
    V(estimators),
    V(placed),
    V(pending),
    V(kthreads),
    V(kthread_slots),
    V(max_threads),
    V(chain_max),
    V(tick_chains),
    V(est_cpus),
    V(max_per_kthread),
    K2(tick_ns, last, tick_ns_last),
    K2(tick_ns, avg, tick_ns_avg),
    K2(tick_ns, max, tick_ns_max),
    F2(tick_ns, per_est, tick_ns_per_est, SFE_POS, SFD_PLAIN),
    V(config_held),
    V(ticks),
    V(visits),
    K(tick_hist_us_log2, tick_hist),
    K2(calibration, chain_max, calib.chain_max),
    K2(calibration, single_est_ns, calib.single_est_ns),
    K2(calibration, diff_ns, calib.diff_ns),
    K2(calibration, loops, calib.loops),
    K2(calibration, tests, calib.tests),
    K2(calibration, valid_tests, calib.valid_tests),
    SLOT2(calibration, governor),
    SLOT2(calibration, time),
    K2(calibration, dequeue_ns, calib.dequeue_ns),
    K2(calibration, count, calib.count),
    K(cpu_pct, cpu_pct_total),
    SLOT(kthread_cpu_pct),
    SLOT(kthread_goal_pct),
    ROWS(kthread, kt, est_kt_fields, nkt, -1),
    V(mem_bytes),
    V(mem_per_est_bytes),
    V(packets),
    K2(rates, cps, tot_cps),
    K2(rates, inpps, tot_inpps),
    K2(rates, outpps, tot_outpps),
    K2(rates, inbps, tot_inbps),
    K2(rates, outbps, tot_outbps)};
#undef T
const size_t snap_est_nfields = SF_N(snap_est_fields);

/* A PMD's interval figures (R) are null on its first sample (a host's: no baseline), read
 * back as -1 there; RATE ones null then or when negative. */
#define T struct pmd_thread_snap
#define R(m, d) SF(T, #m, m, SFE_RATE, (d) | SFD_NULLNEG)
#define RATE(k, m, d) SF(T, #k, m, SFE_RATE, d)
#define RATE2(o, k, m, d) SF(T, #o "." #k, m, SFE_RATE, d)
static const struct snap_field pmd_thread_fields[] = {
    V(name),
    R(rx_pps, SFD_RATE),
    R(tx_pps, SFD_RATE),
    F(rx_drop_pps, rx_drop_pps, SFE_VAL, SFD_RATE),
    F(tx_drop_pps, tx_drop_pps, SFE_VAL, SFD_RATE),
    F(drop_pct, drop_pct, SFE_VAL, SFD_PCT),
    RATE(iterations, iterations, SFD_PLAIN),
    R(busy_pct, SFD_PCT),
    R(idle_pct, SFD_PCT),
    R(sleep_iter_pct, SFD_PCT),
    R(sleep_us_avg, SFD_PLAIN),
    RATE2(sleep_overshoot_us, p50, overshoot_p50_us, SFD_PLAIN),
    RATE2(sleep_overshoot_us, p99, overshoot_p99_us, SFD_PLAIN),
    K2(sleep_overshoot_us, p50_at_least, overshoot_p50_at_least),
    K2(sleep_overshoot_us, p99_at_least, overshoot_p99_at_least),
    V(drops_while_asleep),
    R(cpu_pct, SFD_CPU),
    V(rx_packets),
    V(tx_packets),
    V(rx_drops),
    V(tx_drops),
    V(sleep_iters),
    V(sleep_iters_total),
    RATE(asleep_pct, asleep_pct, SFD_PCT),
    RATE(drops_while_asleep_pct, drops_while_asleep_pct, SFD_PCT),
    RATE(stolen_pct, stolen_pct, SFD_PCT_OPT),
    NEG(cpu_ns_per_pkt),
    F(cpu_left_pct, cpu_left_pct, SFE_NEG, SFD_PCT_OPT),
    NEG(timer_slack_ns),
    F(tid, tid, SFE_POS, SFD_POS),
    K2(bpf_overshoot_us, p50, bpf_overshoot_p50_us),
    K2(bpf_overshoot_us, p99, bpf_overshoot_p99_us),
    V(bpf_sleeps),
    K(bpf_overshoot_hist_us_log2, bpf_hist),
    NEG(host_lost_pps),
    V(host_lost)};
#undef RATE2
#undef RATE
#undef R
#undef T

/* The PMDs together (core/pmd_cost.c): null when not computable, never 0. No latency figure
 * when nothing reached the sink or a PMD is stuck (the latter: tui/snapjson.c). */
#define T struct pmd_snap
#define LAT2(o, k, m) SF_IF(T, #o "." #k, m, SFD_PLAIN, lat_valid, false)
const struct snap_field snap_pmd_fields[] = {
    V(maxsleep_us),
    V(sleep_inc_us),
    V(timer_slack_ns),
    F(offered_pps, offered_pps, SFE_VAL, SFD_RATE),
    F(drop_pct, drop_pct, SFE_VAL, SFD_PCT),
    ROWS(threads, threads, pmd_thread_fields, nthreads, offsetof(struct pmd_thread_snap, no_rate)),
    V(rxq_size),
    SLOT(topology),
    V(in_rings),
    K2(sleep_probe, on, bpf_probe),
    F2(sleep_probe, error, bpf_probe_error, SFE_NEG, SFD_PLAIN),
    F2(sleep_probe, hook, bpf_probe_hook, SFE_NEG, SFD_PLAIN),
    NEGK2(sleep_probe, cost_ns_per_sleep, bpf_cost_ns_per_sleep),
    V(timer_slack_differs),
    K2(totals, generated, generated),
    K2(totals, forwarded, forwarded),
    K2(totals, dropped, dropped),
    K2(totals, in_flight, in_flight),
    K2(totals, restart_dropped, restart_dropped),
    K2(totals, unaccounted, unaccounted),
    K2(totals, capacity, capacity),
    F2(totals, bound_ok, bound_broken, SFE_NOT, SFD_NOT),
    V(hung),
    LAT2(lat_us, p50, lat_p50_us),
    LAT2(lat_us, p99, lat_p99_us),
    LAT2(lat_us, p50_at_least, lat_p50_at_least),
    LAT2(lat_us, p99_at_least, lat_p99_at_least),
    V(drops_while_asleep),
    F(dropped_pps, dropped_pps, SFE_VAL, SFD_RATE),
    NEG(target_pps),
    NEG(cpu_pct),
    F(stolen_pct, stolen_pct, SFE_NEG, SFD_PCT_OPT),
    NEG(cpu_ns_per_pkt),
    F(cpu_left_pct, cpu_left_pct, SFE_NEG, SFD_PCT_OPT),
    NEG(host_lost_pps),
    F(host_lost_pct, host_lost_pct, SFE_NEG, SFD_PCT_OPT)};
#undef LAT2
#undef T
const size_t snap_pmd_nfields = SF_N(snap_pmd_fields);

/* Null where a CPU's counter went back (host) or the source lacks it (-1). */
#define T struct blk_cpu_snap
static const struct snap_field blk_cpu_fields[] = {V(cpu),
						   V(llc),
						   V(block_softirq),
						   V(ipi_recv),
						   V(completed),
						   V(remote),
						   V(submitters),
						   NEG(completed_per_s),
						   NEG(block_softirq_per_s),
						   NEG(ipi_recv_per_s)};
#undef T

/* A hung queue has no latency figure (its stuck requests have none yet); the figures per
 * completion over the interval (docs/blk.md §8) are null without completions, the interrupt
 * CPU's without a blk-irq thread (the host). */
#define T struct blk_snap
#define HUNG2(o, k, m) SF_IF(T, #o "." #k, m, SFD_PLAIN, hung, true)
#define PER(k, m) SF_IF(T, #k, m, SFD_PLAIN, per_cpl_valid, false)
#define PER2(o, k, m) SF_IF(T, #o "." #k, m, SFD_PLAIN, per_cpl_valid, false)
#define IRQ(m) SF_IF(T, #m, m, SFD_PCT, irq_busy_valid, false)
const struct snap_field snap_blk_fields[] = {
    V(rq_affinity),
    V(iops),
    V(ipis_per_s),
    V(irq_cpu),
    HUNG2(lat_us, p50, lat_p50_us),
    HUNG2(lat_us, p99, lat_p99_us),
    HUNG2(lat_us, p999, lat_p999_us),
    K2(completions, direct, direct),
    K2(completions, local_softirq, local_softirq),
    K2(completions, remote, remote),
    ROWS(per_cpu, per_cpu, blk_cpu_fields, ncpus, -1),
    K2(totals, submitted, submitted),
    K2(totals, completed, completed),
    K2(totals, in_flight, in_flight),
    V(submitters),
    V(iodepth),
    V(nr_hw_queues),
    V(fault_lost_kick),
    V(irqs),
    V(ipis_sent),
    V(csd_busy),
    V(data_errors),
    F2(cpu_pct, irq, irq_cpu_pct, SFE_VAL, SFD_CPU),
    K2(cpu_pct, dev, dev_cpu_pct),
    K2(cpu_pct, submitters, sub_cpu_pct),
    PER2(cpu_ns_per_completion, total, cpu_ns_per_cpl),
    PER2(cpu_ns_per_completion, irq, irq_ns_per_cpl),
    PER2(cpu_ns_per_completion, submitters, sub_ns_per_cpl),
    PER(ipis_per_completion, ipis_per_cpl),
    K2(totals, unaccounted, unaccounted),
    F2(totals, bound_ok, bound_broken, SFE_NOT, SFD_NOT),
    IRQ(irq_busy_pct),
    IRQ(irq_host_took_pct),
    V(hung),
    V(hung_submitters),
    V(lost_kicks),
    SLOT(matrix_per_s)};
#undef IRQ
#undef PER2
#undef PER
#undef HUNG2
#undef T
const size_t snap_blk_nfields = SF_N(snap_blk_fields);

#define T struct host_acct_snap
static const struct snap_field host_acct_fields[] = {V(tid), V(cpu_delay_pct), V(blkio_delay_pct),
						     V(nvcsw_per_s), V(nivcsw_per_s)};
#undef T
#define T struct host_link_snap
static const struct snap_field host_link_fields[] = {
    V(name),   V(rx_packets), V(tx_packets),	V(rx_dropped),	 V(tx_dropped),
    V(rx_pps), V(tx_pps),     V(rx_drop_per_s), V(tx_drop_per_s)};
#undef T

/* OVS's figures: null (-1) where OVS printed none, there is no baseline, or a counter went
 * back. A PMD's interval shares of the datapath passes, and the same of all PMDs together. */
#define T struct host_ovs_pmd_snap
#define PCT(m) SF(T, #m, m, SFE_NEG, SFD_PCT_OPT)
#define SHARES                                                                                     \
	K(recirculations, recirc), V(phwol_hits), NEG(passes), PCT(simple_pct), PCT(emc_pct),      \
	    PCT(smc_pct), PCT(megaflow_pct), PCT(phwol_pct)
#define SUSP(k, m) NEGK2(suspicious_iterations, k, m)
static const struct snap_field host_ovs_pmd_fields[] = {
    V(name),
    V(core_id),
    V(packets),
    V(emc_hits),
    V(smc_hits),
    V(megaflow_hits),
    V(upcalls),
    V(lost_upcalls),
    V(simple_hits),
    NEG(cycles_per_pkt),
    NEG(upcalls_per_s),
    NEG(lost_upcalls_per_s),
    SLOT(isolated),
    NEG(overhead_pct),
    SHARES,
    SLOT(histograms),
    SUSP(min, susp_min),
    SUSP(max, susp_max),
    SUSP(min_per_s, susp_min_per_s),
    SUSP(max_per_s, susp_max_per_s),
    F2(suspicious_iterations, us_threshold, susp_us, SFE_VAL, SFD_OPT),
    F2(suspicious_iterations, qlen_threshold, susp_qlen, SFE_VAL, SFD_OPT),
    SUSP(tsc_hz, tsc_hz),
    F2(suspicious_iterations, why, susp_why, SFE_NEG, SFD_PLAIN)};
const struct snap_field snap_host_ovs_total_fields[] = {
    V(packets),	    V(upcalls),	 V(lost_upcalls), NEG(upcalls_per_s), NEG(lost_upcalls_per_s),
    V(simple_hits), V(emc_hits), V(smc_hits),	  V(megaflow_hits),   SHARES};
const size_t snap_host_ovs_total_nfields = SF_N(snap_host_ovs_total_fields);
#undef SUSP
#undef SHARES
#undef PCT
#undef T
#define T struct host_ovs_rxq_snap
static const struct snap_field host_ovs_rxq_fields[] = {V(port), V(queue), V(core_id), V(enabled),
							NEG(usage_pct)};
#undef T
#define T struct host_ovs_iface_snap
static const struct snap_field host_ovs_iface_fields[] = {
    V(name),	    NEG(rx_dropped), NEG(tx_dropped),  NEG(rx_errors),
    NEG(tx_errors), SLOT(drops),     SLOT(drops_per_s)};
#undef T

#define T struct host_snap
const struct snap_field snap_host_fields[] = {
    V(cpufreq),
    V(governor),
    V(taskstats),
    SLOT(thread_source),
    V(taskstats_error),
    V(delayacct),
    V(threads_matched),
    V(pid),
    ROWS(thread_acct, acct, host_acct_fields, nacct, -1),
    V(links_ok),
    V(links_error),
    ROWS(links, links, host_link_fields, nlinks, -1),
    V(blk_dev),
    V(blk_error),
    V(ovs),
    V(ovs_socket),
    V(ovs_error),
    V(ovs_sleep_show),
    SLOT(ovs_maxsleep_source),
    SLOT(absent),
    V(bpf_probe),
    V(bpf_probe_error),
    F(bpf_probe_hook, bpf_probe_hook, SFE_NEG, SFD_PLAIN),
    SLOT(ovs_pmds_total),
    ROWS(ovs_pmds, ovs_pmds, host_ovs_pmd_fields, novs_pmds, -1),
    ROWS(ovs_rxqs, ovs_rxqs, host_ovs_rxq_fields, novs_rxqs, -1),
    V(ovsdb),
    V(ovsdb_error),
    ROWS(ovs_interfaces, ovs_ifaces, host_ovs_iface_fields, novs_ifaces, -1),
    V(ovs_maxsleep_value),
    NEG(ovsdb_interval_s)};
#undef T
const size_t snap_host_nfields = SF_N(snap_host_fields);

#define T struct snap_self
const struct snap_field snap_self_fields[] = {V(cpu_pct), V(sample_us), V(render_us), V(tty_bytes),
					      V(tty_bytes_per_s)};
#undef T
const size_t snap_self_nfields = SF_N(snap_self_fields);
