/* SPDX-License-Identifier: GPL-2.0-or-later */
/* figures.c: the table of every screen figure; the help screen, --list-figures and the docs read
 * it. */
#include "tui/figures.h"

/*
 * Bases differ on purpose and the table says so: a PMD's busy% is of its
 * non-sleep cycles (as OVS's pmd-perf-show), slp-it% of its iterations, and
 * asleep-t% of the interval's wall time, so busy% 100 beside asleep-t% 90 is
 * a PMD that slept 90% of the time and was busy whenever awake.
 */
#define WALL "the interval's wall time"
#define ONE_CPU "one CPU's time over the interval"

const struct figure figure_table[] = {
    /* The title line, the meters, the subsystem lines; the status and self-cost lines. */
    {FIG_ALL, "up", "s", "-", "console", "seconds since the source started (a recording's own)"},
    {FIG_ALL, "LIVE", "s", "-", "console",
     "sampling live, one snapshot per this interval (-d); REPLAY Nx is a recording played at "
     "N times its speed, END OF RECORDING one played out, FOLLOWING one still being written "
     "(--follow), FROZEN a kept sample shown"},
    {FIG_ALL, "host", "-", "-", "--remote",
     "with a fleet, the host dived into (Enter in the fleet view): the figures below are its"},
    {FIG_ALL, "FROZEN", "sample/kept, time", "-", "console",
     "frozen on a kept sample (space): which one of those kept, and its time"},
    {FIG_ALL, "REC", "-", "-", "--record, --record-dir",
     "every sample is also written to the recording (docs/recording.md)"},
    {FIG_ALL, "read-only", "-", "-", "console",
     "a real machine without --write: knob changes are refused, the figures are only read"},
    {FIG_ALL, "governor", "-", "-", "cpufreq (sysfs) or the engine",
     "the CPU frequency governor in force and, in brackets, where it comes from (emulated, "
     "cpufreq, or no cpufreq)"},
    {FIG_ALL, "N[||| %  MHz]", "%, MHz", ONE_CPU, "engine or /proc/stat",
     "one meter per CPU: its busy time (the CPU's threads) and its current frequency; "
     "the engine's emulated CPUs say emulated (the machine's real CPUs: --host)"},
    {FIG_ALL, "est", "-", "-", "engine", "the est (IPVS rate estimator) subsystem's line"},
    {FIG_ALL, "ests", "count", "-", "knob est.count",
     "estimators asked for (est.count; F7/F8 in the est view change it)"},
    {FIG_ALL, "kt", "running/max", "-", "engine",
     "est kthreads with a running task / the kthread limit, max(1, 4 x CPUs in the cpulist)"},
    {FIG_ALL, "chain_max", "count", "-", "engine (calibration)",
     "estimators per chain in force, from the last calibration (x48 with est.tick_chains 1)"},
    {FIG_ALL, "tick", "ns, us, ms", "-", "engine counter",
     "average time of an estimator tick with work over the interval (goal 4.8 ms)"},
    {FIG_ALL, "max", "ns, us, ms", "-", "engine counter",
     "the longest tick with work, same window"},
    {FIG_ALL, "goal", "ms", "-", "the kernel's design",
     "the tick-time goal an est kthread should stay under (4.8 ms)"},
    {FIG_ALL, "pmd", "-", "-", "engine or OVS", "the pmd (OVS PMD threads) subsystem's line"},
    {FIG_ALL, "pps", "packets/s", "-", "engine counter or OVS pmd-perf-show",
     "packets per second the sources offered to the PMDs (on a live OVS: the PMDs' rx)"},
    {FIG_ALL, "(N/src)", "packets/s", "per source", "knob gen.rate_pps",
     "the rate each traffic source is asked to generate (F7/F8 in the overview change it)"},
    {FIG_ALL, "drop", "%", "packets offered in the interval", "engine counter",
     "all drops / all packets offered, over the interval"},
    {FIG_ALL, "(offered N/N: host took)", "packets/s, %", WALL,
     "engine or schedstat, knob gen.rate_pps",
     "shown when the host took 5% or more of the PMDs' time (their mean): offered against the "
     "target (gen.rate_pps x the sources), and the time the host held the PMD threads, which "
     "the sources skip, so offered falls short; the pmd view says it as offered N of N"},
    {FIG_ALL, "maxsleep", "us", "-", "knob pmd.maxsleep_us",
     "the longest sleep a light PMD may take (F7/F8 in the pmd view change it)"},
    {FIG_ALL, "slack", "ns", "-", "knob pmd.timer_slack_ns",
     "the PMD threads' timer slack: how late the kernel may end a sleep (W toggles it)"},
    {FIG_ALL, "asleep", "%", WALL, "engine counter",
     "each PMD's (up to 4) wall time asleep over the interval, as asleep-t% in the pmd view; not "
     "iterations, where a 1 us and a 50 us sleep count alike"},
    {FIG_ALL, "blk", "-", "-", "engine or /proc", "the blk (block completion) subsystem's line"},
    {FIG_ALL, "rq_affinity", "0-2", "-", "knob blk.rq_affinity",
     "where completions run: 0 on the interrupt CPU, 1 on the submitter's LLC, 2 on the "
     "submitter (r cycles it)"},
    {FIG_ALL, "IOPS", "1/s", "-", "engine counter or /proc/diskstats",
     "block completions per second over the interval"},
    {FIG_ALL, "p99", "us", "-", "engine histogram",
     "99th percentile of the completion latency (submit to completion) over the interval"},
    {FIG_ALL, "IPIs", "1/s", "-", "engine counter or /proc/interrupts",
     "completion IPIs sent per second"},
    {FIG_ALL, "irq cpu", "CPU id", "-", "engine", "the CPU that takes the device's interrupt"},
    {FIG_ALL, "sort", "-", "-", "console",
     "the thread table's sort column, + ascending, - descending (F6, < >, I)"},
    {FIG_ALL, "threads", "shown/all", "-", "console",
     "threads the filter lets through / threads in the snapshot"},
    {FIG_ALL, "replay", "line/lines", "-", "console",
     "the recording played and the snapshot shown of all it holds (the status of the source)"},
    {FIG_ALL, "rec:", "-", "-", "the recording",
     "in a replay, the recording console's own cpu, sample, render, tty and frame, as recorded "
     "(- where it has none); this console's own follow"},
    {FIG_ALL, "self cpu", "%", ONE_CPU, "getrusage",
     "what tunetop itself costs: its own CPU over the interval"},
    {FIG_ALL, "sample", "us", "-", "console clock", "time to take the last snapshot"},
    {FIG_ALL, "render", "us", "-", "console clock", "time to draw the last frame"},
    {FIG_ALL, "tty", "bytes, bytes/s", "per second", "console",
     "bytes written to the terminal, in total and per second"},
    {FIG_ALL, "frame", "count", "-", "console", "the snapshot's sequence number"},
    {FIG_ALL, "key", "us", "-", "console clock",
     "from a key read to its frame sent, the last one and (max) the worst"},

    /* The overview: the thread table (tui/rowfmt.c). */
    {FIG_OVERVIEW, "TID", "-", "-", "/proc or the engine", "kernel thread id (as in top -H)"},
    {FIG_OVERVIEW, "NAME", "-", "-", "/proc/TID/comm", "thread name (as in top -H)"},
    {FIG_OVERVIEW, "SUBSYS", "-", "-", "engine or host matching",
     "the subsystem it belongs to: est, pmd, blk or engine"},
    {FIG_OVERVIEW, "CPU", "CPU id", "-", "engine or /proc/TID/stat",
     "the (emulated) CPU it runs on; -1 none (the device)"},
    {FIG_OVERVIEW, "CPU%", "%", ONE_CPU, "the thread's CPU clock or /proc",
     "the thread's CPU time over the interval; 100 is one whole core"},
    {FIG_OVERVIEW, "S", "-", "-", "engine or /proc/TID/stat",
     "state: R running, S timed sleep, I idle, D waiting for something owed"},
    {FIG_OVERVIEW, "RUNQ%", "%", WALL, "/proc/TID/schedstat",
     "time runnable but waiting on a run queue (contention, not sleep); x10 is ms per s; - "
     "unknown"},
    {FIG_OVERVIEW, "DETAIL", "-", "-", "engine", "the subsystem's own figures for the thread:"},
    {FIG_OVERVIEW, "ests rows full tick", "count, ns", "-", "engine",
     "an est kthread: estimators it holds, rows (of 50) with estimators, rows with no room, its "
     "last tick's time"},
    {FIG_OVERVIEW, "rx drop sleep", "packets/s, %",
     "drop: packets offered to it; sleep: its iterations", "engine counter or OVS",
     "a PMD: packets received per second, its drops %, sleep iterations %"},
    {FIG_OVERVIEW, "cpuN done ipi", "count", "-", "engine counter or /proc",
     "a blk thread: completions run on its CPU and IPIs it received, in the interval"},

    /* The est view (tui/console/ui_view_est.c). */
    {FIG_EST, "ests = placed + pending", "count", "-", "engine",
     "estimators added = linked into chains + still on the temp list (exact at every sample)"},
    {FIG_EST, "kthreads", "running/max", "-", "engine",
     "kthreads with a running task / the kthread limit (as kt in the header)"},
    {FIG_EST, "est_cpus", "count", "-", "engine", "possible CPUs each estimator sums"},
    {FIG_EST, "(held: as before)", "-", "-", "engine",
     "a calibration held the configuration lock when sampled: the kthread figures repeat the "
     "last sample's"},
    {FIG_EST, "tick last avg max", "ns, us, ms", "-", "engine counter",
     "time of the last tick with work, the average and the longest over the interval"},
    {FIG_EST, "goal", "ms", "-", "the kernel's design", "the tick-time goal (4.8 ms)"},
    {FIG_EST, "ticks visits", "count", "in the interval", "engine counter",
     "ticks run and estimator visits in the interval"},
    {FIG_EST, "chain_max", "count", "-", "engine (calibration)", "estimators per chain in force"},
    {FIG_EST, "tick_chains", "count", "-", "knob est.tick_chains",
     "chains a tick walks: 48, or 1 (the preemptible-RCU layout)"},
    {FIG_EST, "calibration #N", "count", "-", "engine (calibration)",
     "the last calibration: its chain_max, single_est (best time of 4 passes over one "
     "estimator), loops multiplier, tests counted/run, and the governor in force"},
    {FIG_EST, "single_est", "ns", "-", "engine (calibration)",
     "best time of 4 passes over one estimator"},
    {FIG_EST, "loops", "count", "-", "engine (calibration)", "final loops multiplier"},
    {FIG_EST, "tests", "valid/run", "-", "engine (calibration)",
     "tests whose time counted / tests run"},
    {FIG_EST, "KT", "-", "-", "engine", "kthread id (est-k:ID)"},
    {FIG_EST, "ESTS", "count", "-", "engine", "estimators the kthread holds"},
    {FIG_EST, "ROWS", "count", "of 50 rows", "engine", "the kthread's tick rows with estimators"},
    {FIG_EST, "FULL", "count", "of 50 rows", "engine", "the kthread's rows with no room left"},
    {FIG_EST, "CPU%", "%", ONE_CPU, "the kthread's CPU clock",
     "the kthread's CPU time; over the goal (12.5%) it is marked"},
    {FIG_EST, "tick", "ms", "-", "engine counter",
     "graph: average tick time per interval, goal line 4.8 ms"},
    {FIG_EST, "kt CPU", "%", ONE_CPU, "the kthreads' CPU clocks",
     "graph: the busiest kthread's CPU per interval, goal line 12.5%"},
    {FIG_EST, "chain_max/calib", "count", "-", "engine (calibration)",
     "graph: chain_max per calibration, the governor named where it changed"},
    {FIG_EST, "tick time histogram", "ticks", "since start, all kthreads", "engine histogram",
     "ticks with estimators by their time, [2^i, 2^(i+1)) us a bar; bars past the goal stand out"},
    {FIG_EST, "calibrations: #  chain_max  single_est  governor", "count, ns", "-",
     "engine (calibration)", "past calibrations, newest first"},

    /* The pmd view on the engine (tui/console/ui_view_pmd.c, tui/rowfmt.c, rowfmt_sleep.c). */
    {FIG_PMD, "offered", "packets/s", "-", "engine counter",
     "packets per second the sources offered"},
    {FIG_PMD, "maxsleep", "us", "-", "knob pmd.maxsleep_us",
     "the longest sleep a light PMD may take"},
    {FIG_PMD, "sleep_inc", "us", "-", "knob pmd.sleep_inc_us",
     "the sleep increment per light iteration"},
    {FIG_PMD, "slack", "ns", "-", "knob pmd.timer_slack_ns", "the PMD threads' timer slack"},
    {FIG_PMD, "drop", "%", "packets offered in the interval", "engine counter",
     "all drops / offered, with drops per second and (while asleep) how many arrived while their "
     "PMD slept"},
    {FIG_PMD, "latency p50 p99", "us", "-", "engine histogram",
     "packet latency from arrival to the sink; >N is a bound (the histogram's open top bucket), "
     "- none, HUNG a PMD made no iteration"},
    {FIG_PMD, "generated = forwarded + dropped + in rings", "packets", "since start",
     "engine counter",
     "the packet ledger: what the sources generated, left the last hop, were dropped, and sit "
     "in the rings now"},
    {FIG_PMD, "+N (after in rings)", "packets", "-", "engine counter",
     "unaccounted: generated - forwarded - dropped - in rings as read, the packets in the PMDs' "
     "hands; exactly +0 when paused, red when out of its bound"},
    {FIG_PMD, "PMD", "-", "-", "engine", "the PMD thread (pmd-c:N)"},
    {FIG_PMD, "rx pps", "packets/s", "-", "engine counter", "packets it received per second"},
    {FIG_PMD, "drop/s", "packets/s", "-", "engine counter",
     "drops at its rx rings (full ring) and tx ring per second"},
    {FIG_PMD, "drop%", "%", "packets offered to it in the interval", "engine counter",
     "its drops / the packets offered to it"},
    {FIG_PMD, "asl-drop", "packets", "in the interval", "engine counter",
     "its rx drops in the interval that arrived while it slept: sleep's share of the drops, not "
     "the scheduler's"},
    {FIG_PMD, "busy%", "%", "its non-sleep cycles (busy + idle)", "engine counter",
     "iterations that moved packets, by cycles, as OVS's pmd-perf-show: sleep is left out, so "
     "100 means busy whenever awake"},
    {FIG_PMD, "slp-it%", "%", "its iterations in the interval", "engine counter",
     "iterations that slept (pmd-perf-show's sleep iterations); a 1 us and a 50 us sleep count "
     "alike"},
    {FIG_PMD, "asleep-t%", "%", WALL, "engine counter",
     "wall time it spent asleep; with busy% (of non-sleep time) the two need not add to 100"},
    {FIG_PMD, "os-p99", "us", "-", "engine histogram",
     "99th percentile of its sleep overshoot (real sleep minus requested), the engine's own "
     "measure; >N is a bound"},
    {FIG_PMD, "CPU%", "%", ONE_CPU, "the thread's CPU clock", "its CPU time over the interval"},
    {FIG_PMD, "drops while asleep (interval)", "packets", "in the interval", "engine counter",
     "per PMD, the asl-drop figure again beside its name"},
    {FIG_PMD, "drop% pmd-c:N", "%", "packets offered to it", "engine counter",
     "graph: its drop% per interval"},
    {FIG_PMD, "CPU% pmd-c:N", "%", ONE_CPU, "the thread's CPU clock",
     "graph: its CPU% per interval"},
    {FIG_PMD, "offered N of N: host took", "packets/s, %", WALL,
     "engine (run-queue delay at polls)",
     "shown when the host took 5% or more of the PMDs' time (their mean): offered against the "
     "target, and the time the host held the PMD threads (run-queue delay, interrupts, a held "
     "vCPU); the sources skip it, so offered falls short of the target"},
    {FIG_PMD, "cost: ns/pkt all", "ns", "per packet received (all: per packet offered)",
     "CPU clock / packet counters",
     "CPU time each PMD spent per packet it received over the interval, and all the PMDs' CPU "
     "per packet the sources offered (a chain's packet crosses every PMD); - no packets or no "
     "baseline. Compares runs whatever the rate"},
    {FIG_PMD, "cpu-left%", "%", "the wall time the host left the thread (wall - host took)",
     "CPU clock / engine (run-queue delay at polls)",
     "CPU time / (interval - host took, at least the CPU used): how much of the time it could "
     "run it did; all is the "
     "summed CPU over the summed time left. CPU% alone compares different budgets when the "
     "host took 20% in one run and 60% in another; - unknown"},
    {FIG_PMD, "host took", "%", WALL, "engine (run-queue delay at polls)",
     "per PMD, the time the host held its thread (pmd.threads[].stolen_pct)"},
    {FIG_PMD, "sleep probe (eBPF)", "ns", "per sleep", "eBPF",
     "whether the kernel-side sleep probe runs (pmd.sleep_probe, root, BTF), why not, and its "
     "kernel time per PMD sleep; SLACK DIFFERS counts PMDs whose slack is not the knob's"},
    {FIG_PMD, "slack_ns", "ns", "-", "/proc/TID/timerslack_ns",
     "the PMD thread's own timer slack as the kernel has it; - unreadable"},
    {FIG_PMD, "RUNQ%", "%", WALL, "/proc/TID/schedstat",
     "time runnable but waiting on a run queue; - unknown"},
    {FIG_PMD, "sleeps", "count", "in the interval", "eBPF",
     "nanosleep/clock_nanosleep calls that returned; - without the probe"},
    {FIG_PMD, "os-p50 own/bpf", "us", "-", "engine histogram / eBPF",
     "median sleep overshoot: own is the engine's measure, bpf the kernel's (syscall entry to "
     "return); - not measured"},
    {FIG_PMD, "os-p99 own/bpf", "us", "-", "engine histogram / eBPF",
     "99th percentile of the same two measures"},
    {FIG_PMD, "os us", "%", "its sleeps in the interval", "eBPF",
     "the probe's overshoot histogram: the share of sleeps per bucket (<1, 1-2, ... >=1k us)"},

    /* The pmd view on a live OVS (--host; tui/rowfmt_host.c). */
    {FIG_PMD_HOST, "offered", "packets/s", "-", "OVS pmd-perf-show",
     "the PMDs' rx packets per second; - before a baseline"},
    {FIG_PMD_HOST, "maxsleep", "us", "-", "ovsdb other_config:pmd-maxsleep",
     "the max sleep in force, with where it was read and its text"},
    {FIG_PMD_HOST, "slack", "ns", "-", "/proc/TID/timerslack_ns", "the PMD threads' timer slack"},
    {FIG_PMD_HOST, "ovsdb", "-", "-", "ovsdb", "why the database could not be read"},
    {FIG_PMD_HOST, "host took (summary)", "packets/s, %", WALL, "/proc/TID/schedstat",
     "shown when the host took 5% or more of the PMDs' time (their mean): offered against the "
     "target, and the time the host held the PMD threads (run-queue delay, interrupts, a held "
     "vCPU); a live OVS has no target"},
    {FIG_PMD_HOST, "cost: ns/pkt all", "ns", "per packet received (all: per packet offered)",
     "CPU clock / packet counters",
     "CPU time each PMD spent per packet it received over the interval, and all the PMDs' CPU "
     "per packet the sources offered (a chain's packet crosses every PMD); - no packets or no "
     "baseline. Compares runs whatever the rate"},
    {FIG_PMD_HOST, "cpu-left%", "%", "the wall time the host left the thread (wall - host took)",
     "CPU clock / /proc/TID/schedstat",
     "CPU time / (interval - host took, at least the CPU used): how much of the time it could "
     "run it did; all is the "
     "summed CPU over the summed time left. CPU% alone compares different budgets when the "
     "host took 20% in one run and 60% in another; - unknown"},
    {FIG_PMD_HOST, "host took", "%", WALL, "/proc/TID/schedstat",
     "per PMD, the time the host held its thread (pmd.threads[].stolen_pct)"},
    {FIG_PMD_HOST, "PMD", "-", "-", "OVS", "the PMD thread's full name"},
    {FIG_PMD_HOST, "rx pps", "packets/s", "-", "OVS pmd-perf-show", "packets received per second"},
    {FIG_PMD_HOST, "tx pps", "packets/s", "-", "OVS pmd-perf-show", "packets sent per second"},
    {FIG_PMD_HOST, "busy%", "%", "its non-sleep (used) cycles", "OVS pmd-perf-show",
     "busy iterations' cycles; sleep is left out"},
    {FIG_PMD_HOST, "idle%", "%", "its non-sleep (used) cycles", "OVS pmd-perf-show",
     "idle iterations' cycles; busy% + idle% = 100"},
    {FIG_PMD_HOST, "sleep%", "%", "its iterations in the interval", "OVS pmd-perf-show",
     "sleep iterations (as slp-it% on the engine)"},
    {FIG_PMD_HOST, "avg-sleep", "us", "per sleeping iteration", "OVS pmd-perf-show",
     "average sleep of an iteration that slept"},
    {FIG_PMD_HOST, "iters", "count", "in the interval", "OVS pmd-perf-show", "poll iterations"},
    {FIG_PMD_HOST, "CPU%", "%", ONE_CPU, "/proc/TID/stat", "the PMD thread's CPU time"},
    {FIG_PMD_HOST, "pmd-stats-show", "-", "-", "OVS pmd-stats-show",
     "per PMD, the datapath's caches:"},
    {FIG_PMD_HOST, "emc hits", "packets", "since start", "OVS pmd-stats-show",
     "exact match cache hits"},
    {FIG_PMD_HOST, "smc hits", "packets", "since start", "OVS pmd-stats-show",
     "signature match cache hits"},
    {FIG_PMD_HOST, "megaflow", "packets", "since start", "OVS pmd-stats-show",
     "megaflow (dpcls) hits"},
    {FIG_PMD_HOST, "upcalls", "count", "since start", "OVS pmd-stats-show",
     "misses handled by an upcall"},
    {FIG_PMD_HOST, "lost", "count", "since start", "OVS pmd-stats-show", "upcalls that failed"},
    {FIG_PMD_HOST, "cyc/pkt", "cycles", "per packet", "OVS pmd-stats-show",
     "processing cycles per packet"},
    {FIG_PMD_HOST, "upcall/s", "1/s", "-", "OVS pmd-stats-show", "upcalls per second"},
    {FIG_PMD_HOST, "isol", "yes/no", "-", "OVS pmd-rxq-show",
     "the PMD is isolated (pmd-rxq-isolate)"},
    {FIG_PMD_HOST, "ovhd%", "%", "its cycles", "OVS pmd-rxq-show",
     "overhead: cycles not spent on an rxq"},
    {FIG_PMD_HOST, "hits % of passes", "-", "-", "OVS pmd-stats-show",
     "per PMD and in total, each lookup's share of the interval's datapath passes:"},
    {FIG_PMD_HOST, "simple%", "%", "datapath passes (rx + recirculations) in the interval",
     "OVS pmd-stats-show",
     "simple match hits (all of them with a single drop or forward flow); - no pass or a "
     "counter gone back"},
    {FIG_PMD_HOST, "emc%", "%", "datapath passes (rx + recirculations) in the interval",
     "OVS pmd-stats-show", "exact match cache hits"},
    {FIG_PMD_HOST, "smc%", "%", "datapath passes (rx + recirculations) in the interval",
     "OVS pmd-stats-show", "signature match cache hits"},
    {FIG_PMD_HOST, "mflow%", "%", "datapath passes (rx + recirculations) in the interval",
     "OVS pmd-stats-show", "megaflow (dpcls) hits"},
    {FIG_PMD_HOST, "phwol%", "%", "datapath passes (rx + recirculations) in the interval",
     "OVS pmd-stats-show", "hardware offload hits; - where OVS prints none"},
    {FIG_PMD_HOST, "lost/s", "1/s", "-", "OVS pmd-stats-show",
     "misses whose upcall failed (miss with failed upcall) per second"},
    {FIG_PMD_HOST, "pmd-rxq-show", "-", "-", "OVS pmd-rxq-show", "per rx queue, who polls it:"},
    {FIG_PMD_HOST, "port", "-", "-", "OVS pmd-rxq-show", "the port of the rx queue"},
    {FIG_PMD_HOST, "queue", "-", "-", "OVS pmd-rxq-show", "the queue id"},
    {FIG_PMD_HOST, "PMD core", "CPU id", "-", "OVS pmd-rxq-show", "the core of the PMD polling it"},
    {FIG_PMD_HOST, "usage%", "%", "the PMD's TSC cycles in the interval, sleep included",
     "OVS pmd-rxq-show", "the queue's processing share of its PMD (sleeping lowers it)"},
    {FIG_PMD_HOST, "ovsdb Interface", "-", "-", "ovsdb Interface table",
     "per interface, its counters:"},
    {FIG_PMD_HOST, "rx dropped", "packets", "since start", "ovsdb Interface statistics",
     "rx drops"},
    {FIG_PMD_HOST, "tx dropped", "packets", "since start", "ovsdb Interface statistics",
     "tx drops"},
    {FIG_PMD_HOST, "rx errors", "packets", "since start", "ovsdb Interface statistics",
     "rx errors"},
    {FIG_PMD_HOST, "tx errors", "packets", "since start", "ovsdb Interface statistics",
     "tx errors"},
    {FIG_PMD_HOST, "interface drops", "-", "-", "ovsdb Interface statistics",
     "per interface, each drop counter it has that is not 0 (rx_missed_errors, "
     "ovs_rx_qos_drops, ovs_tx_failure_drops ...):"},
    {FIG_PMD_HOST, "counter", "-", "-", "ovsdb Interface statistics",
     "the counter's name as ovsdb holds it"},
    {FIG_PMD_HOST, "total", "packets", "since start", "ovsdb Interface statistics",
     "the counter's value"},
    {FIG_PMD_HOST, "per s", "packets/s", "between two samples' ovsdb reads",
     "ovsdb Interface statistics",
     "its rate; ovs-vswitchd updates ovsdb every stats-update-interval (5 s): 0 between, the "
     "step at one; - first read or gone back"},
    {FIG_PMD_HOST, "suspicious iters", "-", "-", "OVS pmd-perf-show (pmd-perf-metrics=true)",
     "per PMD, iterations OVS calls suspicious (pmd-perf-log-set): cycles, sleep excluded, over "
     ">Nus at OVS's TSC rate, or a vhost queue fill of qlen>=N (OVS's defaults: it reports no "
     "setting); - and why when unknown:"},
    {FIG_PMD_HOST, "since clear", "count", "since the stats were cleared",
     "OVS pmd-perf-show histograms",
     "min-max: the cycles/it and max vhost qlen bins wholly past the threshold, and those that "
     "straddle it; per s beside it over OVS's own interval"},
    {FIG_PMD_HOST, "TSC", "GHz", "-", "OVS pmd-perf-show",
     "OVS's TSC rate as its Used TSC cycles % or us/it figures imply it"},
    {FIG_PMD_HOST, "pmd-perf-show histograms", "count per bin", "since the stats were cleared",
     "OVS pmd-perf-show (pmd-perf-metrics=true)",
     "per PMD, a bar chart of cycles/it, of packets/it and of a sleep one where OVS prints it; "
     "v scrolls to the next PMD's charts. A title line names the PMD and the histogram"},
    {FIG_PMD_HOST, "n", "count", "since the stats were cleared", "OVS pmd-perf-show",
     "the histogram's count (iterations); - and why when it counted nothing or the PMD's "
     "report has none"},
    {FIG_PMD_HOST, "p50", "the histogram's unit", "-", "OVS pmd-perf-show histograms",
     "the bin holding the median: <= its edge, or > the last edge"},
    {FIG_PMD_HOST, "<= EDGE", "count, % of n", "since the stats were cleared",
     "OVS pmd-perf-show histograms",
     "a bin: values up to EDGE (pmd-perf-show's edge) and above the bin before; its bar scaled "
     "to the largest bin, then its count and share of n. Empty bins at both ends left out; two "
     "columns of bins when the chart is taller than the view and the width allows"},
    {FIG_PMD_HOST, "> EDGE", "count, % of n", "since the stats were cleared",
     "OVS pmd-perf-show histograms", "the open-ended last bin (pmd-perf-show's \">\"): above EDGE"},
    {FIG_PMD_HOST, "bins cut", "bins, count", "since the stats were cleared", "the console",
     "a chart taller than the screen: how many bins are left out, up to which, and their count"},
    {FIG_PMD_HOST, "none: OVS prints them with other_config:pmd-perf-metrics=true", "-", "-",
     "OVS pmd-perf-show", "no PMD's report had histograms"},
    {FIG_PMD_HOST, "slack_ns", "ns", "-", "/proc/TID/timerslack_ns",
     "the PMD thread's own timer slack; - unreadable"},
    {FIG_PMD_HOST, "RUNQ%", "%", WALL, "/proc/TID/schedstat",
     "time runnable but waiting on a run queue"},
    {FIG_PMD_HOST, "sleeps", "count", "in the interval", "eBPF",
     "sleeps that returned; - without the probe"},
    {FIG_PMD_HOST, "late-p50us", "us", "the interval's sleeps", "eBPF",
     "median of how late a sleep ended, as the kernel saw it"},
    {FIG_PMD_HOST, "late-p99us", "us", "the interval's sleeps", "eBPF",
     "99th percentile of the same"},
    {FIG_PMD_HOST, "(kernel, eBPF)", "-", "-", "eBPF",
     "both measured in the kernel: the host has no measure of its own"},
    {FIG_PMD_HOST, "CPU% PMD 1", "%", ONE_CPU, "/proc/TID/stat", "chart: the first PMD's CPU%"},

    /* The blk view (tui/console/ui_view_blk.c). */
    {FIG_BLK, "rq_affinity", "0-2", "-", "knob blk.rq_affinity", "where completions run"},
    {FIG_BLK, "IOPS", "1/s", "-", "engine counter or /proc/diskstats",
     "completions per second; also a chart"},
    {FIG_BLK, "p50 p99 p999", "us", "-", "engine histogram",
     "completion latency percentiles over the interval; - (HUNG) a submitter owed completions "
     "got none"},
    {FIG_BLK, "IPIs", "1/s", "-", "engine counter", "completion IPIs sent per second"},
    {FIG_BLK, "completed: direct local softirq remote", "count", "in the interval",
     "engine counter",
     "completions run in the interrupt, by the BLOCK softirq on the interrupt CPU, and sent "
     "to another CPU by IPI"},
    {FIG_BLK, "per completion: CPU (irq, submitters)", "us", "completions in the interval",
     "engine: the blk threads' CPU clocks",
     "CPU time of every blk thread (blk-irq; the blk-sub threads) over the interval divided by "
     "the completions counted in it; - without completions or on a host"},
    {FIG_BLK, "per completion: IPIs", "count", "completions in the interval", "engine counter",
     "call-single IPIs received over the interval divided by its completions; - as above"},
    {FIG_BLK, "in flight", "requests", "-", "engine",
     "requests queued to or held by the device, or waiting on a done list, now"},
    {FIG_BLK, "irq CPU busy", "%", "the interval", "engine: blk-irq's waits for work",
     "the interrupt CPU's busy time: all but the time blk-irq waited for work (a doorbell or the "
     "device's next deadline), so ran plus host took; near 100 at rq_affinity 0, where it runs "
     "every completion; - on a host or before the first interval"},
    {FIG_BLK, "irq CPU busy: ran", "%", "the interval", "engine: blk-irq's CPU clock",
     "the part of the busy time blk-irq ran (blk.cpu_pct.irq); - as above"},
    {FIG_BLK, "irq CPU busy: host took", "%", "the interval", "engine: busy minus ran",
     "the part of the busy time blk-irq had work but the host ran other threads on its core "
     "(never below 0); - as above"},
    {FIG_BLK, "p99 us", "us", "-", "engine histogram",
     "chart: the p99 completion latency per interval"},
    {FIG_BLK, "submit x complete", "1/s", "-", "engine counter",
     "completions per second: row = submitting CPU (sub), column = completing CPU (done), * the "
     "irq CPU, . none; the first 16 CPUs"},
    {FIG_BLK, "sub\\done /s", "1/s", "-", "engine counter",
     "the header of submit x complete: submitting CPU (rows) \\ completing CPU (columns), "
     "per second"},
    {FIG_BLK, "CPU", "CPU id", "-", "engine or /proc", "the CPU; (irq) the interrupt CPU"},
    {FIG_BLK, "LLC", "-", "-", "engine or sysfs", "its last-level cache id"},
    {FIG_BLK, "BLOCK runs/s", "1/s", "-", "engine counter or /proc/softirqs",
     "BLOCK softirq runs per second"},
    {FIG_BLK, "IPIs recv/s", "1/s", "-", "engine counter or /proc/interrupts (CAL)",
     "IPIs it received per second"},
    {FIG_BLK, "completed/s", "1/s", "-", "engine counter", "completions run on it per second"},

    /* The events view (tui/console/ui_view_events.c). */
    {FIG_EVENTS, "time", "HH:MM:SS", "-", "console", "when the event happened, local time"},
    {FIG_EVENTS, "kind", "-", "-", "engine or console",
     "knob, calibration, kthread_start, hang, invariant, diag, error and the like"},
    {FIG_EVENTS, "text", "-", "-", "engine or console", "what happened, in words"},

    /* The fleet view (two or more --remote; tui/console/ui_fleet.c). */
    {FIG_FLEET, "HOST", "-", "-", "--remote", "the host's name as given to --remote"},
    {FIG_FLEET, "LINK", "-", "-", "console", "the link to its agent: up, down (why, retry in Ns)"},
    {FIG_FLEET, "GOVERNOR", "-", "-", "the host's snapshot", "its CPU frequency governor"},
    {FIG_FLEET, "EST TICK/GOAL", "ns, us, ms", "-", "the host's snapshot",
     "its average est tick time / the 4.8 ms goal"},
    {FIG_FLEET, "DROP%", "%", "packets offered in the interval", "the host's snapshot",
     "its PMD drops / offered"},
    {FIG_FLEET, "PMDCPU", "%", ONE_CPU, "the host's snapshot", "its first PMD's CPU%"},
    {FIG_FLEET, "BLKP99", "us", "-", "the host's snapshot", "its p99 block completion latency"},
    {FIG_FLEET, "MSLPus", "us", "-", "the host's snapshot", "its pmd.maxsleep_us"},
    {FIG_FLEET, "AGE", "s", "-", "console", "how old its last snapshot is"},
};
const size_t figure_count = sizeof(figure_table) / sizeof(figure_table[0]);

static const char *const view_names[FIG_VIEW_COUNT] = {"header",   "overview", "est",	 "pmd",
						       "pmd-host", "blk",      "events", "fleet"};
static const char *const view_titles[FIG_VIEW_COUNT] = {"the header and footer (every view)",
							"the overview (1): the thread table",
							"the est view (2)",
							"the pmd view (3)",
							"the pmd view on a live OVS (3, --host)",
							"the blk view (4)",
							"the events view (5)",
							"the fleet view (0, two or more --remote)"};

const char *figure_view_name(enum fig_view v)
{
	return (unsigned)v < FIG_VIEW_COUNT ? view_names[v] : "?";
}

const char *figure_view_title(enum fig_view v)
{
	return (unsigned)v < FIG_VIEW_COUNT ? view_titles[v] : "?";
}
