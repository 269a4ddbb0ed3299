/* SPDX-License-Identifier: GPL-2.0-or-later */
/* metrics_table.c: every metric family the exporter writes, once, in the order it writes them:
 * its name, type, unit, labels and help (docs/metrics.md's table is made from it) and what it
 * writes: a figure of the snapshot (offsetof) or of each of its rows, with its scale to the base
 * unit and what leaves it out, or the function that writes it (metrics_engine.c). */
#include <stddef.h>

#include "core/snap_schema.h"
#include "tui/metrics/metrics_int.h"

#define S struct snapshot
#define AT(x, r, T, m, sc)                                                                         \
	.sec = x, .rows = r, .ftype = SF_TYPE(T, m), .scale = sc, .off = offsetof(T, m)
#define ONE(x, m, sc) AT(x, R_ONE, S, m, sc)
#define FN(x, f) .sec = x, .fn = f
/* Written by the family before it (no figure, no fn of its own). */
#define BEFORE .sec = 0
#define CPU(m, sc) AT(SEC_ANY, R_CPU, struct snap_cpu, m, sc)
#define KT(m, sc) AT(SEC_EST, R_KT, struct est_kt_snap, m, sc)
#define PMD(m, sc) AT(SEC_PMD, R_PMD, struct pmd_thread_snap, m, sc)
#define BLKCPU(m)                                                                                  \
	AT(SEC_BLK, R_BLKCPU, struct blk_cpu_snap, m, SC_1), .absent = "blk.per_cpu.completed"
#define LINK(m) AT(SEC_HOST, R_LINK, struct host_link_snap, m, SC_1)
#define OVSPMD(m) AT(SEC_HOST, R_OVSPMD, struct host_ovs_pmd_snap, m, SC_1)

/*
 * Conventions (prometheus.io/docs/practices/naming): base units (seconds,
 * bytes, packets, hertz), percentages as 0..1 ratios, and _total counters only
 * where the engine or the host keeps a counter that only goes up; figures the
 * snapshot has only as rates over the interval stay gauges. Histograms are the
 * since-start bucket counts the engine keeps.
 */
const struct metric_family metric_families[M_COUNT] = {
    [M_INFO] = {"tunetop", MT_INFO, "", "version,backend,governor_source,governor",
		"Always 1: the tunetop version, the source (engine or host) and the governor.",
		FN(SEC_ANY, metrics_info)},
    [M_UPTIME] = {"tunetop_uptime_seconds", MT_GAUGE, "seconds", "",
		  "Seconds since the source started.", ONE(SEC_ANY, uptime_s, SC_1)},
    [M_SAMPLES] = {"tunetop_samples", MT_COUNTER, "", "",
		   "Snapshots taken since start (the exported text is one snapshot's).",
		   ONE(SEC_ANY, seq, SC_1)},
    [M_SAMPLE_INTERVAL] = {"tunetop_sample_interval_seconds", MT_GAUGE, "seconds", "",
			   "Time between the last two snapshots.", ONE(SEC_ANY, interval_s, SC_1)},
    [M_SAMPLE_DURATION] = {"tunetop_sample_duration_seconds", MT_GAUGE, "seconds", "",
			   "Time the last snapshot took to take (self.sample_us).",
			   ONE(SEC_ANY, self.sample_us, SC_US), .self_bit = SELF_ABSENT_SAMPLE},
    [M_RENDER_DURATION] = {"tunetop_render_duration_seconds", MT_GAUGE, "seconds", "",
			   "Time the front end took to render the previous frame or line.",
			   ONE(SEC_ANY, self.render_us, SC_US), .self_bit = SELF_ABSENT_RENDER},
    [M_SELF_CPU] =
	{"tunetop_self_cpu_ratio", MT_GAUGE, "ratio", "",
	 "CPU of tunetop itself (without engine threads), of one core, over the interval "
	 "(deprecated: use process_cpu_seconds_total).",
	 ONE(SEC_ANY, self.cpu_pct, SC_PCT), .self_bit = SELF_ABSENT_CPU},
    [M_KNOB] = {"tunetop_knob", MT_GAUGE, "", "knob",
		"Value in force of every knob (tunetop --list-knobs): its number; an enum's index "
		"in its list of choices; a bool 0 or 1 (deprecated: use tunetop_knob_seconds, "
		"tunetop_knob_packets_per_second, tunetop_knob_value, tunetop_knob_enabled, "
		"tunetop_knob_choice_info).",
		FN(SEC_ANY, metrics_knob)},
    [M_KNOB_SECONDS] = {"tunetop_knob_seconds", MT_GAUGE, "seconds", "knob",
			"Value in force of a knob set in a unit of time (us, ns, ms: its name "
			"says which), in seconds.",
			FN(SEC_ANY, metrics_knobs)},
    [M_KNOB_PPS] = {"tunetop_knob_packets_per_second", MT_GAUGE, "", "knob",
		    "Value in force of a knob that sets a packet rate (a setting, not a measure).",
		    BEFORE},
    [M_KNOB_VALUE] = {"tunetop_knob_value", MT_GAUGE, "", "knob",
		      "Value in force of a knob that is a count or an id (CPUs, threads, "
		      "queues, a pid).",
		      BEFORE},
    [M_KNOB_ENABLED] = {"tunetop_knob_enabled", MT_GAUGE, "", "knob",
			"1 when an on/off knob is on, else 0.", BEFORE},
    [M_KNOB_CHOICE] = {"tunetop_knob_choice", MT_INFO, "", "knob,value",
		       "Always 1: the choice in force of a knob that is one of a list.", BEFORE},
    [M_EVENTS] = {"tunetop_events", MT_COUNTER, "", "kind",
		  "Events the source logged since tunetop started, by kind.",
		  FN(SEC_ANY, metrics_events)},
    [M_DIAG] = {"tunetop_diagnosis_active", MT_GAUGE, "", "rule",
		"1 while the diagnosis rule has a finding (docs/diag.md), else 0.",
		FN(SEC_ANY, metrics_diag)},

    [M_CPU_LOAD] = {"tunetop_cpu_load_ratio", MT_GAUGE, "ratio", "cpu",
		    "Busy time of the CPU's threads over the interval, of one core.",
		    CPU(load_pct, SC_PCT)},
    [M_CPU_FREQ] = {"tunetop_cpu_frequency_hertz", MT_GAUGE, "hertz", "cpu",
		    "Current CPU frequency (emulated for the engine, cpufreq for the host).",
		    CPU(freq_mhz, SC_MHZ)},
    [M_CPU_ONLINE] = {"tunetop_cpu_online", MT_GAUGE, "", "cpu", "1 when the CPU is online.",
		      CPU(online, SC_1)},
    [M_THREADS_CPU] = {"tunetop_threads_cpu_seconds", MT_COUNTER, "seconds", "name,subsystem",
		       "CPU time of the watched threads of one name since they started; "
		       "subsystem: engine, est, pmd, blk, ovs, kernel or other (tid too with "
		       "--metrics-tid).",
		       FN(SEC_ANY, metrics_threads)},

    [M_EST_ESTIMATORS] = {"tunetop_est_estimators", MT_GAUGE, "", "",
			  "Estimators added and not removed.", ONE(SEC_EST, est.estimators, SC_1)},
    [M_EST_KTHREADS] = {"tunetop_est_kthreads", MT_GAUGE, "", "",
			"Estimator kthreads with a running task.",
			ONE(SEC_EST, est.kthreads, SC_1)},
    [M_EST_CHAIN_MAX] = {"tunetop_est_chain_max", MT_GAUGE, "", "",
			 "Estimators a kthread's tick may walk per chain (kd->chain_max).",
			 ONE(SEC_EST, est.chain_max, SC_1)},
    [M_EST_TICK] = {"tunetop_est_tick_seconds", MT_HISTOGRAM, "seconds", "",
		    "Time of every estimator tick that had a row to estimate, since start "
		    "(log2 buckets).",
		    FN(SEC_EST, metrics_est_tick)},
    [M_EST_TICK_LAST] = {"tunetop_est_tick_last_seconds", MT_GAUGE, "seconds", "",
			 "The last tick that had a row to estimate.",
			 ONE(SEC_EST, est.tick_ns_last, SC_NS)},
    [M_EST_TICK_AVG] = {"tunetop_est_tick_avg_seconds", MT_GAUGE, "seconds", "",
			"Average tick time over the interval (or the last one with ticks).",
			ONE(SEC_EST, est.tick_ns_avg, SC_NS)},
    [M_EST_TICK_MAX] = {"tunetop_est_tick_max_seconds", MT_GAUGE, "seconds", "",
			"Longest tick over the interval (or the last one with ticks).",
			ONE(SEC_EST, est.tick_ns_max, SC_NS)},
    [M_EST_CPU] = {"tunetop_est_cpu_ratio", MT_GAUGE, "ratio", "",
		   "All estimator kthreads' CPU over the interval, of one core (deprecated: use "
		   "tunetop_threads_cpu_seconds_total{subsystem=\"est\"}).",
		   ONE(SEC_EST, est.cpu_pct_total, SC_PCT)},
    [M_EST_KT_CPU] = {"tunetop_est_kthread_cpu_ratio", MT_GAUGE, "ratio", "kthread",
		      "One kthread's CPU over the interval, of one core (goal 0.125) (deprecated: "
		      "use tunetop_threads_cpu_seconds_total{subsystem=\"est\"}).",
		      KT(cpu_pct, SC_PCT)},
    [M_EST_KT_ESTIMATORS] = {"tunetop_est_kthread_estimators", MT_GAUGE, "", "kthread",
			     "Estimators on one kthread.", KT(estimators, SC_1)},
    [M_EST_KT_TICK_LAST] = {"tunetop_est_kthread_tick_last_seconds", MT_GAUGE, "seconds", "kthread",
			    "One kthread's last tick that had a row to estimate.",
			    KT(tick_ns_last, SC_NS)},
    [M_EST_MEM] = {"tunetop_est_memory_bytes", MT_GAUGE, "bytes", "",
		   "Counters, estimators, rows and contexts allocated.",
		   ONE(SEC_EST, est.mem_bytes, SC_1)},
    [M_EST_PACKETS] = {"tunetop_est_packets", MT_COUNTER, "packets", "",
		       "Emulated packets counted into the estimators' counters.",
		       ONE(SEC_EST, est.packets, SC_1)},
    [M_EST_CALIBRATIONS] = {"tunetop_est_calibrations", MT_COUNTER, "", "",
			    "Calibrations run since start.", ONE(SEC_EST, est.calib.count, SC_1)},
    [M_EST_SINGLE_EST] = {"tunetop_est_single_estimator_seconds", MT_GAUGE, "seconds", "",
			  "Calibrated time to estimate one estimator.",
			  ONE(SEC_EST, est.calib.single_est_ns, SC_NS)},

    [M_PMD_GENERATED] = {"tunetop_pmd_generated_packets", MT_COUNTER, "packets", "",
			 "Packets the traffic sources generated.",
			 ONE(SEC_PMD, pmd.generated, SC_1), .absent = "pmd.totals"},
    [M_PMD_FORWARDED] = {"tunetop_pmd_forwarded_packets", MT_COUNTER, "packets", "",
			 "Packets that left the last PMD's tx ring.",
			 ONE(SEC_PMD, pmd.forwarded, SC_1), .absent = "pmd.totals"},
    [M_PMD_DROPPED] = {"tunetop_pmd_dropped_packets", MT_COUNTER, "packets", "",
		       "Packets dropped at a full rx or tx ring (generated = forwarded + dropped + "
		       "in flight).",
		       ONE(SEC_PMD, pmd.dropped, SC_1), .absent = "pmd.totals"},
    [M_PMD_IN_FLIGHT] = {"tunetop_pmd_in_flight_packets", MT_GAUGE, "packets", "",
			 "Packets in rings and batches at the instant of the snapshot.",
			 ONE(SEC_PMD, pmd.in_flight, SC_1), .absent = "pmd.totals"},
    [M_PMD_OFFERED] = {"tunetop_pmd_offered_packets_per_second", MT_GAUGE, "", "",
		       "Packets offered by all sources over the interval (deprecated: use "
		       "tunetop_pmd_generated_packets_total).",
		       ONE(SEC_PMD, pmd.offered_pps, SC_1)},
    [M_PMD_DROP_RATIO] = {"tunetop_pmd_drop_ratio", MT_GAUGE, "ratio", "",
			  "All drops over offered packets, over the interval (deprecated: use "
			  "tunetop_pmd_dropped_packets_total).",
			  ONE(SEC_PMD, pmd.drop_pct, SC_PCT), .absent = "pmd.rx_drop_pps"},
    [M_PMD_RX] = {"tunetop_pmd_rx_packets", MT_COUNTER, "packets", "pmd",
		  "Packets a PMD received from its rx rings.", PMD(rx_packets, SC_1)},
    [M_PMD_TX] = {"tunetop_pmd_tx_packets", MT_COUNTER, "packets", "pmd", "Packets a PMD sent.",
		  PMD(tx_packets, SC_1)},
    [M_PMD_RX_DROPS] = {"tunetop_pmd_rx_dropped_packets", MT_COUNTER, "packets", "pmd",
			"Packets dropped because the PMD's rx ring was full.", PMD(rx_drops, SC_1),
			.absent = "pmd.rx_drop_pps"},
    [M_PMD_TX_DROPS] = {"tunetop_pmd_tx_dropped_packets", MT_COUNTER, "packets", "pmd",
			"Packets dropped because the PMD's tx ring was full.", PMD(tx_drops, SC_1),
			.absent = "pmd.rx_drop_pps"},
    [M_PMD_SLEEP_ITERS] = {"tunetop_pmd_sleep_iterations", MT_COUNTER, "", "pmd",
			   "PMD loop iterations that slept.", PMD(sleep_iters_total, SC_1)},
    [M_PMD_ITERATIONS] = {"tunetop_pmd_iterations", MT_COUNTER, "", "pmd",
			  "PMD loop iterations since tunetop started (summed from each snapshot's "
			  "interval).",
			  FN(SEC_PMD, metrics_pmd_iterations)},
    [M_PMD_HOST_TOOK] =
	{"tunetop_pmd_host_took_seconds", MT_COUNTER, "seconds", "pmd",
	 "Wall time the host held a PMD thread (run-queue delay, interrupts, a held "
	 "vCPU; on a live OVS its run-queue delay), summed from each snapshot's "
	 "interval; rate() of it against its CPU seconds compares CPU across loads.",
	 FN(SEC_PMD, metrics_pmd_host_took), .absent = "pmd.stolen_pct"},
    [M_PMD_HOST_LOST] = {"tunetop_pmd_host_lost_packets", MT_COUNTER, "packets", "pmd",
			 "Arrivals a PMD's source had while the host held the PMD's thread: never "
			 "offered, so in neither rx nor drops (the engine; docs/pmd.md).",
			 FN(SEC_PMD, metrics_pmd_host_lost), .absent = "pmd.host_lost_pps"},
    [M_PMD_THREAD_DROP] =
	{"tunetop_pmd_thread_drop_ratio", MT_GAUGE, "ratio", "pmd",
	 "A PMD's drops over what was offered to it, over the interval (deprecated: use "
	 "tunetop_pmd_rx_dropped_packets_total).",
	 PMD(drop_pct, SC_PCT), .absent = "pmd.rx_drop_pps"},
    [M_PMD_BUSY] = {"tunetop_pmd_busy_ratio", MT_GAUGE, "ratio", "pmd",
		    "Busy cycles over non-sleep cycles, over the interval.", PMD(busy_pct, SC_PCT),
		    .skip_neg = true},
    [M_PMD_SLEEP_AVG] = {"tunetop_pmd_sleep_average_seconds", MT_GAUGE, "seconds", "pmd",
			 "Average sleep per sleeping iteration, over the interval.",
			 PMD(sleep_us_avg, SC_US), .absent = "pmd.sleep_us_avg", .skip_neg = true},
    [M_PMD_CPU] = {"tunetop_pmd_cpu_ratio", MT_GAUGE, "ratio", "pmd",
		   "A PMD thread's CPU over the interval, of one core (deprecated: use "
		   "tunetop_threads_cpu_seconds_total{subsystem=\"pmd\"}).",
		   PMD(cpu_pct, SC_PCT), .skip_neg = true},
    [M_PMD_OVERSHOOT] = {"tunetop_pmd_sleep_overshoot_seconds", MT_HISTOGRAM, "seconds", "pmd",
			 "Real sleep minus requested sleep, every sleep since start (sum from the "
			 "1 us buckets' midpoints).",
			 FN(SEC_PMD, metrics_pmd_overshoot), .absent = "pmd.sleep_overshoot_us"},

    [M_BLK_SUBMITTED] = {"tunetop_blk_submitted_requests", MT_COUNTER, "", "",
			 "IO requests submitted.", ONE(SEC_BLK, blk.submitted, SC_1),
			 .absent = "blk.totals"},
    [M_BLK_COMPLETED] = {"tunetop_blk_completed_requests", MT_COUNTER, "", "",
			 "IO requests completed.", ONE(SEC_BLK, blk.completed, SC_1),
			 .absent = "blk.totals"},
    [M_BLK_IN_FLIGHT] = {"tunetop_blk_in_flight_requests", MT_GAUGE, "", "",
			 "Requests submitted and not completed, at one instant.",
			 ONE(SEC_BLK, blk.in_flight, SC_1), .absent = "blk.totals"},
    [M_BLK_COMPLETIONS] = {"tunetop_blk_completions", MT_COUNTER, "", "path",
			   "Completions by path: direct (in the IRQ), local_softirq, remote (IPI).",
			   FN(SEC_BLK, metrics_blk_completions), .absent = "blk.completions"},
    [M_BLK_IOPS] = {"tunetop_blk_iops", MT_GAUGE, "", "",
		    "Completions per second over the interval (deprecated: use "
		    "tunetop_blk_completed_requests_total).",
		    ONE(SEC_BLK, blk.iops, SC_1), .absent = "blk.iops"},
    [M_BLK_LAT] = {"tunetop_blk_latency_seconds", MT_HISTOGRAM, "seconds", "",
		   "Completion latency of every request since start (HDR buckets; a bound inside "
		   "one counts to its lower edge, within 0.8%; sum from midpoints).",
		   FN(SEC_BLK, metrics_blk_lat), .absent = "blk.lat_us"},
    [M_BLK_LAT_PCT] =
	{"tunetop_blk_latency_percentile_seconds", MT_GAUGE, "seconds", "percentile",
	 "Completion latency percentile (50, 99, 99.9) over the interval (deprecated: "
	 "use tunetop_blk_interval_latency_seconds).",
	 BEFORE},
    [M_BLK_LAT_SUMMARY] = {"tunetop_blk_interval_latency_seconds", MT_SUMMARY, "seconds",
			   "quantile",
			   "Completion latency: quantiles 0.5, 0.99, 0.999 over the last interval; "
			   "_sum and _count of every request since start.",
			   BEFORE},
    [M_BLK_IRQ_BUSY] = {"tunetop_blk_irq_busy_ratio", MT_GAUGE, "ratio", "",
			"The interrupt CPU's busy time over the interval: all but blk-irq's waits "
			"for work, so its own run time plus what the host took (engine only).",
			ONE(SEC_BLK, blk.irq_busy_pct, SC_PCT),
			.valid = offsetof(S, blk.irq_busy_valid)},
    [M_BLK_IRQ_HOST_TOOK] = {"tunetop_blk_irq_host_took_ratio", MT_GAUGE, "ratio", "",
			     "Of the interval, the part blk-irq had work but the host ran other "
			     "threads on its core: busy minus its own CPU (engine only).",
			     ONE(SEC_BLK, blk.irq_host_took_pct, SC_PCT),
			     .valid = offsetof(S, blk.irq_busy_valid)},
    [M_BLK_IRQS] = {"tunetop_blk_irqs", MT_COUNTER, "", "", "Device interrupts raised.",
		    ONE(SEC_BLK, blk.irqs, SC_1), .absent = "blk.per_cpu.completed"},
    [M_BLK_IPIS] = {"tunetop_blk_ipis_sent", MT_COUNTER, "", "",
		    "IPIs sent to steer a completion (the target's inbox was empty).",
		    ONE(SEC_BLK, blk.ipis_sent, SC_1), .absent = "blk.per_cpu.completed"},
    [M_BLK_DATA_ERRORS] = {"tunetop_blk_data_errors", MT_COUNTER, "", "",
			   "Completions that read back wrong data (must stay 0).",
			   ONE(SEC_BLK, blk.data_errors, SC_1), .absent = "blk.per_cpu.completed"},
    [M_BLK_CPU_COMPLETED] = {"tunetop_blk_cpu_completed_requests", MT_COUNTER, "", "cpu",
			     "Completions run on a CPU.", BLKCPU(completed)},
    [M_BLK_CPU_IPI] = {"tunetop_blk_cpu_ipis_received", MT_COUNTER, "", "cpu",
		       "Call-single IPIs a CPU received.", BLKCPU(ipi_recv)},
    [M_BLK_CPU_SOFTIRQ] = {"tunetop_blk_cpu_softirqs", MT_COUNTER, "", "cpu",
			   "BLOCK softirq runs on a CPU.", BLKCPU(block_softirq)},

    [M_HOST_LINK_RX] = {"tunetop_host_link_rx_packets", MT_COUNTER, "packets", "interface",
			"Packets an interface received (rtnetlink) (deprecated: use "
			"tunetop_host_network_receive_packets_total).",
			LINK(rx_packets)},
    [M_HOST_LINK_TX] = {"tunetop_host_link_tx_packets", MT_COUNTER, "packets", "interface",
			"Packets an interface sent (rtnetlink) (deprecated: use "
			"tunetop_host_network_transmit_packets_total).",
			LINK(tx_packets)},
    [M_HOST_LINK_RX_DROP] = {"tunetop_host_link_rx_dropped_packets", MT_COUNTER, "packets",
			     "interface",
			     "Packets an interface dropped on receive (rtnetlink) (deprecated: use "
			     "tunetop_host_network_receive_drop_total).",
			     LINK(rx_dropped)},
    [M_HOST_LINK_TX_DROP] = {"tunetop_host_link_tx_dropped_packets", MT_COUNTER, "packets",
			     "interface",
			     "Packets an interface dropped on send (rtnetlink) (deprecated: use "
			     "tunetop_host_network_transmit_drop_total).",
			     LINK(tx_dropped)},
    [M_HOST_NET_RX] = {"tunetop_host_network_receive_packets", MT_COUNTER, "packets", "device",
		       "Packets an interface received (rtnetlink).", LINK(rx_packets)},
    [M_HOST_NET_TX] = {"tunetop_host_network_transmit_packets", MT_COUNTER, "packets", "device",
		       "Packets an interface sent (rtnetlink).", LINK(tx_packets)},
    [M_HOST_NET_RX_DROP] = {"tunetop_host_network_receive_drop", MT_COUNTER, "", "device",
			    "Packets an interface dropped on receive (rtnetlink).",
			    LINK(rx_dropped)},
    [M_HOST_NET_TX_DROP] = {"tunetop_host_network_transmit_drop", MT_COUNTER, "", "device",
			    "Packets an interface dropped on send (rtnetlink).", LINK(tx_dropped)},
    [M_HOST_CPU_DELAY] = {"tunetop_host_thread_cpu_delay_ratio", MT_GAUGE, "ratio", "name",
			  "Part of the interval the picked threads of one name waited for a CPU, "
			  "summed (TASKSTATS; tid too with --metrics-tid).",
			  FN(SEC_HOST, metrics_cpu_delay)},
    [M_HOST_BLKIO_DELAY] =
	{"tunetop_host_thread_blkio_delay_ratio", MT_GAUGE, "ratio", "name",
	 "Part of the interval the picked threads of one name waited for block IO, summed "
	 "(TASKSTATS; tid too with --metrics-tid).",
	 FN(SEC_HOST, metrics_blkio_delay)},
    [M_HOST_TASKSTATS] = {"tunetop_host_taskstats", MT_GAUGE, "", "",
			  "1 when per-thread figures come from TASKSTATS (else /proc).",
			  ONE(SEC_HOST, host.taskstats, SC_1)},
    [M_HOST_OVS] = {"tunetop_host_ovs_up", MT_GAUGE, "", "",
		    "1 when an Open vSwitch unixctl socket answered.",
		    ONE(SEC_HOST, host.ovs, SC_1)},
    [M_HOST_THREADS] = {"tunetop_host_threads_matched", MT_GAUGE, "", "",
			"Host threads picked by name or pid.",
			ONE(SEC_HOST, host.threads_matched, SC_1)},
    [M_OVS_PMD_PASSES] = {"tunetop_host_ovs_pmd_datapath_passes", MT_COUNTER, "", "pmd",
			  "Datapath passes of a PMD: packets received plus recirculations "
			  "(pmd-stats-show), the base of its hit shares.",
			  FN(SEC_HOST, metrics_ovs_passes)},
    [M_OVS_PMD_HITS] =
	{"tunetop_host_ovs_pmd_hits", MT_COUNTER, "", "pmd,lookup",
	 "Passes a lookup served (pmd-stats-show): lookup phwol, simple, emc, smc or "
	 "megaflow; its share is rate(this) / rate(datapath_passes).",
	 FN(SEC_HOST, metrics_ovs_hits)},
    [M_OVS_PMD_UPCALLS] = {"tunetop_host_ovs_pmd_upcalls", MT_COUNTER, "", "pmd",
			   "Misses handled by a successful upcall (pmd-stats-show).",
			   OVSPMD(upcalls)},
    [M_OVS_PMD_LOST_UPCALLS] = {"tunetop_host_ovs_pmd_lost_upcalls", MT_COUNTER, "", "pmd",
				"Misses whose upcall failed (pmd-stats-show).",
				OVSPMD(lost_upcalls)},
    [M_OVS_IFACE_DROPS] = {"tunetop_host_ovs_interface_drops", MT_COUNTER, "", "device,counter",
			   "An ovsdb Interface drop counter (rx_dropped, rx_missed_errors, "
			   "ovs_tx_failure_drops ...), as ovs-vswitchd last wrote it.",
			   FN(SEC_HOST, metrics_ovs_drops)},

    /* What every Prometheus client library exports about its own process (metrics_process.c). */
    [M_PROC_CPU] = {"process_cpu_seconds", MT_COUNTER, "seconds", "",
		    "User and system CPU time of the whole tunetop process (engine threads too).",
		    BEFORE},
    [M_PROC_RSS] = {"process_resident_memory_bytes", MT_GAUGE, "bytes", "", "Resident memory size.",
		    BEFORE},
    [M_PROC_VSZ] = {"process_virtual_memory_bytes", MT_GAUGE, "bytes", "", "Virtual memory size.",
		    BEFORE},
    [M_PROC_START] = {"process_start_time_seconds", MT_GAUGE, "seconds", "",
		      "Start time of the process since the Unix epoch.", BEFORE},
    [M_PROC_OPEN_FDS] = {"process_open_fds", MT_GAUGE, "", "", "Open file descriptors.", BEFORE},
    [M_PROC_MAX_FDS] = {"process_max_fds", MT_GAUGE, "", "",
			"Most file descriptors the process may open (RLIMIT_NOFILE).", BEFORE},
};

#undef S
const size_t metric_nfamilies = M_COUNT;

void metrics_list(FILE *out)
{
	char name[128];
	for (size_t i = 0; i < metric_nfamilies; i++) {
		const struct metric_family *f = &metric_families[i];
		fprintf(out, "%s\t%s\t%s\t%s\t%s\n", metrics_prom_name(f, name, sizeof(name)),
			metrics_type_name(f->type), f->unit[0] ? f->unit : "-",
			f->labels[0] ? f->labels : "-", f->help);
	}
}
