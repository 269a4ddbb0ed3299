/* SPDX-License-Identifier: GPL-2.0-or-later */
/* snap_schema.c: the snapshot's fields in the order tui/snapjson.c writes them, each with what
 * it means (docs/json.md's table is made from these). V: the value under the member's own name; K:
 * under another key; NEG: null when negative (unknown, read back as -1); C: one thread's
 * share of one CPU (read back within 0..100, SFD_CPU). */
#include "core/snap_schema.h"

#define V(m, doc) SF(T, #m, m, SFE_VAL, SFD_PLAIN, doc)
#define K(k, m, doc) SF(T, #k, m, SFE_VAL, SFD_PLAIN, doc)
#define K2(o, k, m, doc) SF(T, #o "." #k, m, SFE_VAL, SFD_PLAIN, doc)
#define F(k, m, e, d, doc) SF(T, #k, m, e, d, doc)
#define F2(o, k, m, e, d, doc) SF(T, #o "." #k, m, e, d, doc)
#define NEG(m, doc) SF(T, #m, m, SFE_NEG, SFD_OPT, doc)
#define C(m, doc) SF(T, #m, m, SFE_VAL, SFD_CPU, doc)
#define NEGK2(o, k, m, doc) SF(T, #o "." #k, m, SFE_NEG, SFD_OPT, doc)
#define SLOT(k, jt, doc) SF_SLOT(#k, jt, doc)
#define SLOT2(o, k, jt, doc) SF_SLOT(#o "." #k, jt, doc)
#define ROWS(k, m, r, count, norate, doc)                                                          \
	SF_ROWS(T, #k, m,                                                                          \
		((const struct snap_rows){r, SF_N(r), sizeof(((T *)0)->m[0]), SF_N(((T *)0)->m),   \
					  offsetof(T, count), norate}),                            \
		doc)

#define T struct snap_cpu
const struct snap_field snap_cpu_fields[] = {
    V(id, "emulated CPU (engine) or CPU (host)"),
    V(node, "NUMA node"),
    V(llc, "last-level cache id (on the host: the CPUs a cache's shared_cpu_list names share one)"),
    V(online, "online"),
    F(load_pct, load_pct, SFE_VAL, SFD_PCT, "busy time of its threads over the interval"),
    V(freq_mhz, "current frequency (emulated, or the host's)")};
#undef T
const size_t snap_cpu_nfields = SF_N(snap_cpu_fields);

#define T struct snap_thread
const struct snap_field snap_thread_fields[] = {
    V(tid, "kernel thread id (as in top -H)"),
    V(name, "thread name (pthread name, as in top -H)"),
    SLOT(subsystem, "string", "est, pmd, blk or engine"),
    C(cpu_pct, "CPU of one core over the interval, from the thread's CPU clock"),
    V(cpu_ns, "total CPU time"),
    SLOT(state, "string", "R running, S timed sleep, I idle, D waiting for something owed"),
    V(emu_cpu, "emulated CPU it runs on (-1: none, e.g. the device)"),
    NEG(runq_delay_pct, "time runnable but waiting on a run queue (/proc schedstat), % of the "
			"interval (x10 = ms per s), at most 100; null unknown"),
    NEG(timer_slack_ns, "its timer slack (/proc/TID/timerslack_ns); null when unreadable (another "
			"process's needs CAP_SYS_NICE)")};
#undef T
const size_t snap_thread_nfields = SF_N(snap_thread_fields);

#define T struct est_kt_snap
static const struct snap_field est_kt_fields[] = {
    V(id, "kthread id (est-k:ID)"),
    V(estimators, "estimators it holds"),
    V(rows_filled, "rows (of 50) with estimators"),
    V(rows_full, "rows with no room"),
    V(tick_ns_last, "its last tick that had a row to estimate"),
    C(cpu_pct, "its CPU")};
#undef T

#define T struct est_snap
const struct snap_field snap_est_fields[] = {
    V(estimators, "estimators added (est.count + the total estimator)"),
    V(placed, "estimators linked into chains"),
    V(pending, "estimators on the temp list (estimators = placed + pending)"),
    V(kthreads, "kthreads with a running task"),
    V(kthread_slots, "kthread contexts (est_kt_count)"),
    V(max_threads, "kthread limit, max(1, 4 x CPUs in the cpulist)"),
    V(chain_max, "estimators per chain in force (x48 with tick_chains 1)"),
    V(tick_chains, "48, or 1 (the preemptible-RCU layout)"),
    V(est_cpus, "possible CPUs each estimator sums"),
    V(max_per_kthread, "estimators one kthread takes (50 x tick_max)"),
    K2(tick_ns, last, tick_ns_last, "time of the last tick with work"),
    K2(tick_ns, avg, tick_ns_avg,
       "average time of ticks with work over the interval, or the last interval that had one "
       "(goal: 4.8 ms)"),
    K2(tick_ns, max, tick_ns_max, "longest tick with work, same window as avg"),
    F2(tick_ns, per_est, tick_ns_per_est, SFE_POS, SFD_PLAIN,
       "tick time per estimator visited, same window as avg (what `est.calibration.single_est_ns` "
       "predicts); null before the first tick with work"),
    V(config_held,
      "a calibration or reload held the configuration lock when sampled: estimators to kthread "
      "figures and mem_bytes repeat the last sample's (the sampler never waits for it)"),
    V(ticks, "ticks run in the interval"),
    V(visits, "estimator visits in the interval"),
    K(tick_hist_us_log2, tick_hist,
      "tick time histogram since start: bucket i counts [2^i, 2^(i+1)) us"),
    K2(calibration, chain_max, calib.chain_max, "calibrated chain_max (before x48 scaling)"),
    K2(calibration, single_est_ns, calib.single_est_ns, "best time of 4 passes over one estimator"),
    K2(calibration, diff_ns, calib.diff_ns, "raw time of the last test"),
    K2(calibration, loops, calib.loops, "final loops multiplier"),
    K2(calibration, tests, calib.tests, "tests run (12)"),
    K2(calibration, valid_tests, calib.valid_tests, "tests whose time counted"),
    SLOT2(calibration, governor, "string", "governor in force while calibrating"),
    SLOT2(calibration, time, "string", "when it finished (ISO 8601)"),
    K2(calibration, dequeue_ns, calib.dequeue_ns, "relink walk time of the calc phase"),
    K2(calibration, count, calib.count, "calibrations so far"),
    K(cpu_pct, cpu_pct_total, "CPU of all est kthreads"),
    SLOT(kthread_cpu_pct, "number[]", "CPU of each kthread"),
    SLOT(kthread_goal_pct, "number", "per-kthread CPU goal (12.5)"),
    ROWS(kthread, kt, est_kt_fields, nkt, -1, ""),
    V(mem_bytes, "memory of estimators and counters"),
    V(mem_per_est_bytes, "memory per estimator"),
    V(packets, "emulated packets counted into estimators so far"),
    K2(rates, cps, tot_cps, "EWMA connections per second of the total estimator"),
    K2(rates, inpps, tot_inpps, "EWMA incoming packets per second"),
    K2(rates, outpps, tot_outpps, "EWMA outgoing packets per second"),
    K2(rates, inbps, tot_inbps, "EWMA incoming bytes per second"),
    K2(rates, outbps, tot_outbps, "EWMA outgoing bytes per second")};
#undef T
const size_t snap_est_nfields = SF_N(snap_est_fields);

/* A PMD's interval figures (R) are null on its first sample (a host's: no baseline), read
 * back as -1 there; RATE ones null then or when negative. */
#define T struct pmd_thread_snap
#define R(m, d, doc) SF(T, #m, m, SFE_RATE, (d) | SFD_NULLNEG, doc)
#define RATE(k, m, d, doc) SF(T, #k, m, SFE_RATE, d, doc)
#define RATE2(o, k, m, d, doc) SF(T, #o "." #k, m, SFE_RATE, d, doc)
static const struct snap_field pmd_thread_fields[] = {
    V(name, "PMD thread (pmd-c:N)"),
    R(rx_pps, SFD_RATE, "packets received per second"),
    R(tx_pps, SFD_RATE, "packets sent per second"),
    F(rx_drop_pps, rx_drop_pps, SFE_VAL, SFD_RATE, "drops at its rx rings (full ring) per second"),
    F(tx_drop_pps, tx_drop_pps, SFE_VAL, SFD_RATE, "drops at its tx ring per second"),
    F(drop_pct, drop_pct, SFE_VAL, SFD_PCT, "its drops / offered to it"),
    RATE(iterations, iterations, SFD_PLAIN, "poll iterations in the interval"),
    R(busy_pct, SFD_PCT, "busy cycles / non-sleep cycles"),
    R(idle_pct, SFD_PCT, "idle cycles / non-sleep cycles"),
    R(sleep_iter_pct, SFD_PCT, "iterations that slept"),
    R(sleep_us_avg, SFD_PLAIN, "average sleep per sleeping iteration"),
    RATE2(sleep_overshoot_us, p50, overshoot_p50_us, SFD_PLAIN,
	  "median of real sleep minus requested"),
    RATE2(sleep_overshoot_us, p99, overshoot_p99_us, SFD_PLAIN,
	  "99th percentile of real sleep minus requested"),
    K2(sleep_overshoot_us, p50_at_least, overshoot_p50_at_least,
       "true: p50 fell in the histogram's open top bucket (1023 us and up), so it is a lower "
       "bound"),
    K2(sleep_overshoot_us, p99_at_least, overshoot_p99_at_least,
       "true: p99 is a lower bound in the same way"),
    V(drops_while_asleep, "drops at its rings while it slept, in the interval"),
    R(cpu_pct, SFD_CPU, "its CPU"),
    V(rx_packets, "packets received so far"),
    V(tx_packets, "packets sent so far"),
    V(rx_drops, "rx drops so far"),
    V(tx_drops, "tx drops so far"),
    V(sleep_iters, "sleeping iterations in the interval"),
    V(sleep_iters_total, "sleeping iterations so far"),
    RATE(asleep_pct, asleep_pct, SFD_PCT, "wall time asleep in the interval, %"),
    RATE(drops_while_asleep_pct, drops_while_asleep_pct, SFD_PCT,
	 "of its rx drops in the interval, the share that arrived while it slept"),
    RATE(stolen_pct, stolen_pct, SFD_PCT_OPT,
	 "time the host held its thread (run-queue delay, interrupts, a held vCPU, a wakeup later "
	 "than the slack allows), % of the interval, at most 100; not emulated time: the sources "
	 "skip it; on a live OVS its run-queue delay (schedstat), null without one"),
    NEG(cpu_ns_per_pkt, "its CPU ns per packet it received, over the interval (cpu_pct x 1e7 / "
			"rx_pps); null with no packets or no baseline (the first sample), never 0"),
    F(cpu_left_pct, cpu_left_pct, SFE_NEG, SFD_PCT_OPT,
      "its CPU as a % of the wall time the host left it: cpu_pct / max(100 - stolen_pct, cpu_pct) "
      "x 100 (the two overlap: docs/pmd.md), at most 100; null when either is unknown (the first "
      "sample)"),
    NEG(timer_slack_ns,
	"this PMD thread's own timer slack (/proc/TID/timerslack_ns), null unknown"),
    F(tid, tid, SFE_POS, SFD_POS,
      "its thread id (the kernel's TID: top -H, /proc/TID); null when the source has none (on the "
      "host a PMD row whose thread is not listed; a recording made before the field)"),
    K2(bpf_overshoot_us, p50, bpf_overshoot_p50_us,
       "median real sleep minus requested, measured in the kernel (eBPF, syscall entry to return; "
       "log2 buckets, interpolated)"),
    K2(bpf_overshoot_us, p99, bpf_overshoot_p99_us,
       "99th percentile of the same; bpf_overshoot_us is null without the probe"),
    V(bpf_sleeps, "nanosleep/clock_nanosleep calls that returned in the interval (eBPF)"),
    K(bpf_overshoot_hist_us_log2, bpf_hist,
      "those sleeps by overshoot: [0,1) [1,2) [2,4) ... [512,1024) us, >= 1024 us"),
    NEG(host_lost_pps, "arrivals its source's clock had while the host held its thread, per second "
		       "over the interval: never offered, so in neither rx nor drops (docs/pmd.md "
		       "\"What the host took\"); null on a live OVS and in recordings without it"),
    V(host_lost, "the same arrivals since start (0 on a live OVS and in recordings without it, "
		 "where host_lost_pps is null)")};
#undef RATE2
#undef RATE
#undef R
#undef T

/* The PMDs together (core/pmd_cost.c): null when not computable, never 0. No latency figure
 * when nothing reached the sink or a PMD is stuck (the latter: tui/snapjson.c). */
#define T struct pmd_snap
#define LAT2(o, k, m, doc) SF_IF(T, #o "." #k, m, SFD_PLAIN, lat_valid, false, doc)
const struct snap_field snap_pmd_fields[] = {
    V(maxsleep_us, "max sleep in force"),
    V(sleep_inc_us, "sleep increment per light iteration"),
    V(timer_slack_ns, "timer slack of the PMD threads"),
    F(offered_pps, offered_pps, SFE_VAL, SFD_RATE, "packets per second the sources offered"),
    F(drop_pct, drop_pct, SFE_VAL, SFD_PCT, "all drops / offered, over the interval"),
    ROWS(threads, threads, pmd_thread_fields, nthreads, offsetof(struct pmd_thread_snap, no_rate),
	 ""),
    V(rxq_size, "descriptors per rx ring"),
    SLOT(topology, "string", "direct (gen -> PMD) or chain (the seed's two-PMD chain)"),
    V(in_rings, "packets in rings now"),
    K2(sleep_probe, on, bpf_probe,
       "the eBPF sleep probe watches the PMD threads (pmd.sleep_probe, root, BTF)"),
    F2(sleep_probe, error, bpf_probe_error, SFE_NEG, SFD_PLAIN,
       "why it does not (not root, no BTF, built without eBPF, off), null when on"),
    F2(sleep_probe, hook, bpf_probe_hook, SFE_NEG, SFD_PLAIN,
       "what it hooks when on (fentry, kprobes, the sched tracepoints sched_switch and "
       "hrtimer_start/cancel, or the syscall tracepoints that tax every system call: docs/pmd.md), "
       "null when off"),
    NEGK2(sleep_probe, cost_ns_per_sleep, bpf_cost_ns_per_sleep,
	  "kernel run time of the probe's programs per PMD sleep (TUNETOP_BPF_STATS=1), null "
	  "unknown"),
    V(timer_slack_differs,
      "host: PMD threads whose slack is not the pmd.timer_slack_ns tunetop set (0 none)"),
    K2(totals, generated, generated,
       "packets the sources generated (generated = forwarded + dropped + in_flight exactly with "
       "the PMDs paused; live within the bound below)"),
    K2(totals, forwarded, forwarded, "packets that left the last hop"),
    K2(totals, dropped, dropped, "packets dropped anywhere"),
    K2(totals, in_flight, in_flight, "packets in the rings, counted there (not derived)"),
    K2(totals, restart_dropped, restart_dropped,
       "packets dropped by a live restart (ring size, count, topology)"),
    K2(totals, unaccounted, unaccounted,
       "generated - forwarded - dropped - in_flight as read: in the PMDs' hands"),
    K2(totals, capacity, capacity, "what the rings and the PMDs' hands can hold"),
    F2(totals, bound_ok, bound_broken, SFE_NOT, SFD_NOT,
       "0 <= unaccounted <= capacity held (else an `invariant` event)"),
    V(hung, "a PMD made no iteration in the interval, and the host did not hold it off its CPU"),
    LAT2(lat_us, p50, lat_p50_us,
	 "packet latency from arrival to the sink, median (null: none or hung)"),
    LAT2(lat_us, p99, lat_p99_us,
	 "packet latency from arrival to the sink, 99th percentile (null: none or hung)"),
    LAT2(lat_us, p50_at_least, lat_p50_at_least,
	 "true: p50 fell in the histogram's open top bucket (4095 us and up), so it is a lower "
	 "bound"),
    LAT2(lat_us, p99_at_least, lat_p99_at_least, "true: p99 is a lower bound in the same way"),
    V(drops_while_asleep, "drops in the interval that arrived while their PMD slept"),
    F(dropped_pps, dropped_pps, SFE_VAL, SFD_RATE, "all drops per second"),
    NEG(target_pps, "what the sources are asked to offer, packets/s: gen.rate_pps x the sources (a "
		    "chain's peer only forwards); null on a live OVS"),
    NEG(cpu_pct, "the PMDs' CPU summed, % of one CPU over the interval; null on the first sample "
		 "or when one PMD's is unknown"),
    F(stolen_pct, stolen_pct, SFE_NEG, SFD_PCT_OPT,
      "host took: the PMDs' stolen_pct averaged, % of the wall time; null when one is unknown"),
    NEG(cpu_ns_per_pkt,
	"the PMDs' summed CPU ns per packet the sources offered (a chain's packet crosses every "
	"PMD), over the interval; null with no packets or no baseline"),
    F(cpu_left_pct, cpu_left_pct, SFE_NEG, SFD_PCT_OPT,
      "the PMDs' summed CPU as a % of the summed wall time the host left them (each max(100 - "
      "stolen_pct, cpu_pct)); null when unknown"),
    NEG(host_lost_pps, "the PMDs' host_lost_pps summed: the traffic's part lost to the host, "
		       "beside offered_pps (the part the knobs control); null on a live OVS"),
    F(host_lost_pct, host_lost_pct, SFE_NEG, SFD_PCT_OPT,
      "host_lost_pps as a % of offered + lost over the interval; null on a live OVS")};
#undef LAT2
#undef T
const size_t snap_pmd_nfields = SF_N(snap_pmd_fields);

/* Null where a CPU's counter went back (host) or the source lacks it (-1). */
#define T struct blk_cpu_snap
static const struct snap_field blk_cpu_fields[] = {
    V(cpu, "emulated CPU"),
    V(llc, "its last-level cache"),
    V(block_softirq, "BLOCK softirq runs (as /proc/softirqs BLOCK)"),
    V(ipi_recv, "IPIs received (as /proc/interrupts CAL)"),
    V(completed, "completions run on it"),
    V(remote, "of the completions run on it, those steered here by IPI"),
    V(submitters, "blk-sub threads placed on it"),
    NEG(completed_per_s, "completions run on it per second over the interval; null where the "
			 "source has none (the host: host.absent)"),
    NEG(block_softirq_per_s,
	"BLOCK softirq runs per second over the interval (the host: /proc/softirqs BLOCK); null "
	"where the source has none or its counter went back"),
    NEG(ipi_recv_per_s, "IPIs received per second over the interval (the host: /proc/interrupts "
			"CAL); null where the source has none or its counter went back")};
#undef T

/* A hung queue has no latency figure (its stuck requests have none yet); the figures per
 * completion over the interval (docs/blk.md §8) are null without completions, the interrupt
 * CPU's without a blk-irq thread (the host). */
#define T struct blk_snap
#define HUNG2(o, k, m, doc) SF_IF(T, #o "." #k, m, SFD_PLAIN, hung, true, doc)
#define PER(k, m, doc) SF_IF(T, #k, m, SFD_PLAIN, per_cpl_valid, false, doc)
#define PER2(o, k, m, doc) SF_IF(T, #o "." #k, m, SFD_PLAIN, per_cpl_valid, false, doc)
#define IRQ(m, doc) SF_IF(T, #m, m, SFD_PCT, irq_busy_valid, false, doc)
const struct snap_field snap_blk_fields[] = {
    V(rq_affinity, "0 complete on the interrupt CPU, 1 on the submitter's LLC, 2 on the submitter"),
    V(iops, "completions per second"),
    V(ipis_per_s, "IPIs sent per second"),
    V(irq_cpu, "the CPU that takes the device's interrupt"),
    HUNG2(lat_us, p50, lat_p50_us, "completion latency, median"),
    HUNG2(lat_us, p99, lat_p99_us, "completion latency, 99th percentile"),
    HUNG2(lat_us, p999, lat_p999_us, "completion latency, 99.9th percentile"),
    K2(completions, direct, direct, "completions run directly in the interrupt"),
    K2(completions, local_softirq, local_softirq,
       "completions run by the BLOCK softirq on the interrupt CPU"),
    K2(completions, remote, remote, "completions sent to another CPU by IPI"),
    ROWS(per_cpu, per_cpu, blk_cpu_fields, ncpus, -1, ""),
    K2(totals, submitted, submitted,
       "requests submitted (submitted = completed + in_flight exactly with the subsystem paused; "
       "live within the bound)"),
    K2(totals, completed, completed, "requests completed"),
    K2(totals, in_flight, in_flight,
       "requests found queued to or held by the device, waiting for the interrupt CPU or on a done "
       "list"),
    V(submitters, "blk-sub threads"),
    V(iodepth, "requests each submitter keeps in flight"),
    V(nr_hw_queues, "the device's hardware queues"),
    V(fault_lost_kick, "the fault injection knob blk.fault_lost_kick is on"),
    V(irqs, "device interrupts raised, since start"),
    V(ipis_sent, "IPIs sent to steer a completion (the target's inbox was empty), since start"),
    V(csd_busy, "remote pushes that found the call-single data in flight, since start"),
    V(data_errors, "completions that read back wrong data: must stay 0"),
    F2(cpu_pct, irq, irq_cpu_pct, SFE_VAL, SFD_CPU,
       "blk-irq's CPU, % of one core over the interval"),
    K2(cpu_pct, dev, dev_cpu_pct,
       "0: the emulated device completes by the clock and has no thread"),
    K2(cpu_pct, submitters, sub_cpu_pct, "all blk-sub threads' CPU together, % of one core"),
    PER2(cpu_ns_per_completion, total, cpu_ns_per_cpl,
	 "CPU ns of every blk thread over the interval per completion in it, from the threads' own "
	 "CPU clocks (null without completions)"),
    PER2(cpu_ns_per_completion, irq, irq_ns_per_cpl, "the same for blk-irq alone"),
    PER2(cpu_ns_per_completion, submitters, sub_ns_per_cpl,
	 "the same for the blk-sub threads together"),
    PER(ipis_per_completion, ipis_per_cpl,
	"IPIs received over the interval per completion in it (null without completions)"),
    K2(totals, unaccounted, unaccounted,
       "submitted - completed - in_flight as read: in a thread's hands"),
    F2(totals, bound_ok, bound_broken, SFE_NOT, SFD_NOT,
       "unaccounted within what the requests allow (else an `invariant` event)"),
    IRQ(irq_busy_pct, "the interrupt CPU's busy time over the interval, % of the interval: all but "
		      "blk-irq's waits for work (less the CPU the waits took), so its run time "
		      "plus what the host took (null on the host)"),
    IRQ(irq_host_took_pct,
	"of that busy time, the % of the interval blk-irq had work but the host kept it off its "
	"CPU: irq_busy_pct minus cpu_pct.irq, never below 0 (null on the host)"),
    V(hung, "a submitter owed completions got none in the interval, and the host held off its "
	    "CPU none of the threads that complete requests (blk-irq, the submitters' softirqs), "
	    "or a done list was stranded: requests on it and no kick on the way at two samples "
	    "with no drain between (a lost kick; latency then null)"),
    V(hung_submitters, "how many submitters are hung"),
    V(lost_kicks, "remote drains that left a request behind (blk.fault_lost_kick)"),
    SLOT(matrix_per_s, "number[][]",
	 "completions per second: row = submitting CPU, column = completing CPU (first 16 CPUs)")};
#undef IRQ
#undef PER2
#undef PER
#undef HUNG2
#undef T
const size_t snap_blk_nfields = SF_N(snap_blk_fields);

#define T struct host_acct_snap
static const struct snap_field host_acct_fields[] = {
    V(tid, "thread"), V(cpu_delay_pct, "of the interval runnable but waiting for a CPU"),
    V(blkio_delay_pct, "of the interval waiting for block IO"),
    V(nvcsw_per_s, "voluntary context switches per second"),
    V(nivcsw_per_s, "involuntary context switches per second")};
#undef T
#define T struct host_link_snap
static const struct snap_field host_link_fields[] = {V(name, "interface"),
						     V(rx_packets, "received packets so far"),
						     V(tx_packets, "sent packets so far"),
						     V(rx_dropped, "rx drops so far"),
						     V(tx_dropped, "tx drops so far"),
						     V(rx_pps, "received packets per second"),
						     V(tx_pps, "sent packets per second"),
						     V(rx_drop_per_s, "rx drops per second"),
						     V(tx_drop_per_s, "tx drops per second")};
#undef T

/* OVS's figures: null (-1) where OVS printed none, there is no baseline, or a counter went
 * back. A PMD's interval shares of the datapath passes, and the same of all PMDs together. */
#define T struct host_ovs_pmd_snap
#define PCT(m, doc) SF(T, #m, m, SFE_NEG, SFD_PCT_OPT, doc)
#define SHARES                                                                                     \
	K(recirculations, recirc, "packet recirculations so far"),                                 \
	    V(phwol_hits, "hardware offload hits so far (0 where OVS prints none)"),               \
	    NEG(passes, "datapath passes (packets received + recirculations) in the interval "     \
			"(null: no baseline, or a counter went back)"),                            \
	    PCT(simple_pct, "simple match hits, % of the interval's passes, 0..100 (null: no "     \
			    "baseline, no pass, or a counter went back)"),                         \
	    PCT(emc_pct, "EMC hits, % of the interval's passes (null as simple_pct)"),             \
	    PCT(smc_pct, "SMC hits, % of the interval's passes (null as simple_pct)"),             \
	    PCT(megaflow_pct, "megaflow hits, % of the interval's passes (null as simple_pct)"),   \
	    PCT(phwol_pct, "hardware offload hits, % of the interval's passes (null as "           \
			   "simple_pct, or where OVS prints no phwol hits)")
#define SUSP(k, m, doc) NEGK2(suspicious_iterations, k, m, doc)
static const struct snap_field host_ovs_pmd_fields[] = {
    V(name, "the PMD's thread name (pmd-c01/id:7)"),
    V(core_id, "the core it runs on"),
    V(packets, "packets received so far"),
    V(emc_hits, "exact match cache hits so far"),
    V(smc_hits, "signature match cache hits so far"),
    V(megaflow_hits, "megaflow (dpcls) hits so far"),
    V(upcalls, "misses with a successful upcall so far"),
    V(lost_upcalls, "misses with a failed upcall so far"),
    V(simple_hits, "simple match cache hits so far"),
    NEG(cycles_per_pkt,
	"processing cycles per packet over the interval (null: no packets or no baseline)"),
    NEG(upcalls_per_s, "upcalls per second over the interval (null on the first sample)"),
    NEG(lost_upcalls_per_s,
	"failed upcalls per second over the interval (null on the first sample)"),
    SLOT(isolated, "bool", "pmd-rxq-show \"isolated\" (null: not reported)"),
    NEG(overhead_pct, "pmd-rxq-show \"overhead\" (null: NOT AVAIL)"),
    SHARES,
    SLOT(histograms, "array",
	 "pmd-perf-show's cycles/it and packets/it (and a sleep one where OVS prints it) since the "
	 "stats were cleared: name, edges (each bin's upper edge; the last, above them, null) and "
	 "counts; empty when pmd-perf-metrics is off"),
    SUSP(min, susp_min,
	 "suspicious iterations (pmd-perf-log-set: cycles over us_threshold, or a vhost queue fill "
	 "of qlen_threshold or more) since the stats were cleared, at least (a histogram bin may "
	 "straddle the threshold); null unknown"),
    SUSP(max, susp_max, "the same, at most"),
    SUSP(min_per_s, susp_min_per_s, "min per second over OVS's own interval"),
    SUSP(max_per_s, susp_max_per_s, "max per second over OVS's own interval"),
    F2(suspicious_iterations, us_threshold, susp_us, SFE_VAL, SFD_OPT,
       "the iteration time, us, past which one is suspicious"),
    F2(suspicious_iterations, qlen_threshold, susp_qlen, SFE_VAL, SFD_OPT,
       "the vhost queue fill at which one is suspicious"),
    SUSP(tsc_hz, tsc_hz, "the TSC rate pmd-perf-show's figures imply (null unknown)"),
    F2(suspicious_iterations, why, susp_why, SFE_NEG, SFD_PLAIN,
       "why the counts are unknown (null when known)")};
const struct snap_field snap_host_ovs_total_fields[] = {
    V(packets, "host.ovs_pmds[].packets of all PMDs together"),
    V(upcalls, "host.ovs_pmds[].upcalls of all PMDs together"),
    V(lost_upcalls, "host.ovs_pmds[].lost_upcalls of all PMDs together"),
    NEG(upcalls_per_s, "host.ovs_pmds[].upcalls_per_s of all PMDs together"),
    NEG(lost_upcalls_per_s, "host.ovs_pmds[].lost_upcalls_per_s of all PMDs together"),
    V(simple_hits, "host.ovs_pmds[].simple_hits of all PMDs together"),
    V(emc_hits, "host.ovs_pmds[].emc_hits of all PMDs together"),
    V(smc_hits, "host.ovs_pmds[].smc_hits of all PMDs together"),
    V(megaflow_hits, "host.ovs_pmds[].megaflow_hits of all PMDs together"),
    SHARES};
const size_t snap_host_ovs_total_nfields = SF_N(snap_host_ovs_total_fields);
#undef SUSP
#undef SHARES
#undef PCT
#undef T
#define T struct host_ovs_rxq_snap
static const struct snap_field host_ovs_rxq_fields[] = {
    V(port, "port name"), V(queue, "queue id"), V(core_id, "core of the PMD that polls it"),
    V(enabled, "the queue is enabled"),
    NEG(usage_pct, "its share of the PMD's cycles over the last minute (null: NOT AVAIL)")};
#undef T
#define T struct host_ovs_iface_snap
static const struct snap_field host_ovs_iface_fields[] = {
    V(name, "interface name"),
    NEG(rx_dropped, "statistics:rx_dropped (null when the interface has no such counter)"),
    NEG(tx_dropped, "statistics:tx_dropped (null when absent)"),
    NEG(rx_errors, "statistics:rx_errors (null when absent)"),
    NEG(tx_errors, "statistics:tx_errors (null when absent)"),
    SLOT(drops, "object",
	 "the drop counters by ovsdb's names: rx_dropped, tx_dropped, rx_missed_errors, "
	 "rx_over_err, ovs_rx_qos_drops, ovs_tx_failure_drops, ovs_tx_mtu_exceeded_drops, "
	 "ovs_tx_qos_drops, ovs_tx_invalid_hwol_drops (each null when the interface has no such "
	 "counter)"),
    SLOT(drops_per_s, "object",
	 "the same counters per second between this sample's ovsdb read and the last (null: "
	 "absent, first read, or the counter went back); ovs-vswitchd updates them every "
	 "stats-update-interval (5 s by default)")};
#undef T

#define T struct host_snap
const struct snap_field snap_host_fields[] = {
    V(cpufreq, "a cpufreq policy was found (libcpupower)"),
    V(governor, "the host's governor name as sysfs says it (\"\" without cpufreq)"),
    V(taskstats, "per-thread accounting comes from TASKSTATS (else /proc stat)"),
    SLOT(thread_source, "string", "where per-thread CPU comes from"),
    V(taskstats_error, "why TASKSTATS is not used (\"\" when it is)"),
    V(delayacct, "kernel.task_delayacct is on: the delay figures are real"),
    V(threads_matched, "host threads picked by name or pid (before the cap of 1024 listed, which "
		       "keeps the watched threads: docs/reference.md \"The host backend\")"),
    V(pid, "the extra pid followed (knob host.pid), 0 none"),
    ROWS(thread_acct, acct, host_acct_fields, nacct, -1, ""),
    V(links_ok, "rtnetlink answered"),
    V(links_error, "why rtnetlink did not answer (\"\" when it did)"),
    ROWS(links, links, host_link_fields, nlinks, -1, ""),
    V(blk_dev, "block device whose rq_affinity is shown and set"),
    V(blk_error, "why the block device cannot be read (\"\" when it can)"),
    V(ovs, "an Open vSwitch unixctl socket answered"),
    V(ovs_socket, "its path"),
    V(ovs_error, "the last failure (\"\" when the last call worked)"),
    V(ovs_sleep_show, "dpif-netdev/pmd-sleep-show exists (OVS 3.2+)"),
    SLOT(ovs_maxsleep_source, "string",
	 "where pmd.maxsleep_us comes from: ovsdb (read every sample), pmd-sleep-show, unknown"),
    SLOT(absent, "string[]",
	 "fields the host cannot measure, null in this line: a section's own field, or where the "
	 "section has none that field of every row (pmd.rx_drop_pps: each "
	 "pmd.threads[].rx_drop_pps); a row's path (pmd.threads.drop_pct) where both have one"),
    V(bpf_probe, "the eBPF sleep probe is attached"),
    V(bpf_probe_error,
      "why not (not root: no CAP_BPF, no BTF, built without eBPF, off), null when attached"),
    F(bpf_probe_hook, bpf_probe_hook, SFE_NEG, SFD_PLAIN,
      "what it hooks when attached (as pmd.sleep_probe.hook), null when not"),
    SLOT(ovs_pmds_total, "object",
	 "the PMDs together, the fields of host.ovs_pmds[] less name, core_id, cycles_per_pkt, "
	 "isolated and overhead_pct: sums, shares of the summed passes (null: no PMD)"),
    ROWS(ovs_pmds, ovs_pmds, host_ovs_pmd_fields, novs_pmds, -1,
	 "per PMD, from dpif-netdev/pmd-stats-show and pmd-rxq-show (--host with OVS)"),
    ROWS(ovs_rxqs, ovs_rxqs, host_ovs_rxq_fields, novs_rxqs, -1,
	 "rx queues and the PMD polling each (pmd-rxq-show)"),
    V(ovsdb, "ovsdb-server answered this sample (JSON-RPC transact on db.sock or TUNETOP_OVS_DB)"),
    V(ovsdb_error, "why ovsdb did not answer (null when it did)"),
    ROWS(ovs_interfaces, ovs_ifaces, host_ovs_iface_fields, novs_ifaces, -1,
	 "ovsdb Interface rows"),
    V(ovs_maxsleep_value, "other_config:pmd-sleep-max (3.2+) or pmd-maxsleep (3.1) as ovsdb holds "
			  "it, per-PMD entries included"),
    NEG(ovsdb_interval_s,
	"seconds between this sample's ovsdb read and the last: the interval "
	"ovs_interfaces[].drops_per_s are over, which a slow read makes differ from the sample's "
	"(null: a first or failed read)")};
#undef T
const size_t snap_host_nfields = SF_N(snap_host_fields);

#define T struct snap_self
const struct snap_field snap_self_fields[] = {
    V(cpu_pct,
      "the console's own CPU (the control thread); null when a replayed recording lacks it"),
    V(sample_us, "time to take this snapshot; null when a replayed recording lacks it"),
    V(render_us,
      "time to render the previous frame or line; null when a replayed recording lacks it"),
    V(tty_bytes, "bytes written to the terminal in the interval (0 in batch); null when a replayed "
		 "recording lacks it"),
    V(tty_bytes_per_s, "the same per second")};
#undef T
const size_t snap_self_nfields = SF_N(snap_self_fields);
