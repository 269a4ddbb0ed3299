/* SPDX-License-Identifier: GPL-2.0-or-later */
/* knob_table.c: every knob of tunetop, one row each (--list-knobs and README's list). */
#include "core/knob.h"

#include "core/governor.h"
#include "core/limits.h"

static const char *const governors[] = {"performance", "powersave", "ondemand", "schedutil", NULL};
static const char *const patterns[] = {"constant", "bursty", "on-off", NULL};
static const char *const pmd_topologies[] = {"direct", "chain", NULL};
static const int64_t tick_chains_allowed[] = {48, 1, -1};

#define INT_KNOB(nm, un, lo, hi, df, own, hl)                                                      \
	{                                                                                          \
		.name = nm, .type = KNOB_INT, .unit = un, .min = lo, .max = hi, .step = 1,         \
		.def = df, .owner = own, .help = hl                                                \
	}
#define BOOL_KNOB(nm, df, own, hl)                                                                 \
	{                                                                                          \
		.name = nm, .type = KNOB_BOOL, .unit = "", .min = 0, .max = 1, .step = 1,          \
		.def = df, .owner = own, .help = hl                                                \
	}

const struct knob_def knob_table[K_COUNT] = {
    [K_CPU_GOVERNOR] =
	{.name = "cpu.governor",
	 .type = KNOB_ENUM,
	 .unit = "",
	 .min = 0,
	 .max = GOV_COUNT - 1,
	 .step = 1,
	 .def = GOV_PERFORMANCE,
	 .choices = governors,
	 .owner = SUBSYS_CPU,
	 .help = "CPU frequency governor (real via cpufreq when the host has it, else emulated)"},
    [K_CPU_COUNT] = {.name = "cpu.count",
		     .type = KNOB_INT,
		     .unit = "cpus",
		     .min = 0,
		     .max = CPU_MAX_EMU,
		     .step = 1,
		     .def = 0,
		     .start_only = true,
		     .owner = SUBSYS_CPU,
		     .help =
			 "emulated CPUs the engine threads run on (0 = as many as the host has)"},
    [K_CPU_NODES] = {.name = "cpu.nodes",
		     .type = KNOB_INT,
		     .unit = "nodes",
		     .min = 0,
		     .max = 64,
		     .step = 1,
		     .def = 0,
		     .start_only = true,
		     .owner = SUBSYS_CPU,
		     .help = "NUMA nodes of the emulated CPUs (0 = the host's, from libnuma)"},
    [K_CPU_LLC_CPUS] = {.name = "cpu.llc_cpus",
			.type = KNOB_INT,
			.unit = "cpus",
			.min = 0,
			.max = CPU_MAX_EMU,
			.step = 1,
			.def = 0,
			.start_only = true,
			.owner = SUBSYS_CPU,
			.help =
			    "emulated CPUs sharing one last-level cache (0 = the host's layout)"},
    [K_ENGINE_WATCHDOG_MS] =
	INT_KNOB("engine.watchdog_ms", "ms", 100, 600000, 2000, SUBSYS_ENGINE,
		 "a thread with no heartbeat for this long raises a hang event"),
    [K_LOAD_SPIN_THREADS] =
	INT_KNOB("load.spin_threads", "threads", 0, LOAD_MAX_PER_KNOB, 0, SUBSYS_ENGINE,
		 "reference threads that spin (about 100% of a core each)"),
    [K_LOAD_SLEEP_THREADS] =
	INT_KNOB("load.sleep_threads", "threads", 0, LOAD_MAX_PER_KNOB, 0, SUBSYS_ENGINE,
		 "reference threads that sleep (about 0% of a core each)"),

    [K_EST_ENABLED] = BOOL_KNOB("est.enabled", 0, SUBSYS_EST, "run the estimator chains"),
    [K_EST_COUNT] = INT_KNOB("est.count", "ests", 0, EST_MAX_COUNT, 1000, SUBSYS_EST,
			     "number of estimators (services and destinations); est.count x "
			     "est.cpus x 40 B of counters at most 2 GiB (more takes over 1 s to "
			     "free at exit); large counts are added in the background"),
    [K_EST_CPUS] = INT_KNOB("est.cpus", "cpus", 1, EST_MAX_CPUS, 16, SUBSYS_EST,
			    "emulated possible CPUs whose counters each estimator sums (with "
			    "est.count: at most 2 GiB of counters)"),
    [K_EST_CACHE_FACTOR] = INT_KNOB("est.cache_factor", "", 1, 64, 4, SUBSYS_EST,
				    "calibration cache factor (kernel: 4)"),
    [K_EST_TICK_CHAINS] = {.name = "est.tick_chains",
			   .type = KNOB_INT,
			   .unit = "chains",
			   .min = 1,
			   .max = 48,
			   .step = 1,
			   .def = 48,
			   .allowed = tick_chains_allowed,
			   .owner = SUBSYS_EST,
			   .help = "chains per tick: 48, or 1 (the preemptible-RCU layout)"},
    [K_EST_CPULIST_CPUS] =
	INT_KNOB("est.cpulist_cpus", "cpus", 0, CPU_MAX_EMU, 0, SUBSYS_EST,
		 "CPUs in est_cpulist (kthread limit 4 per CPU; 0 = all emulated CPUs)"),
    [K_EST_TRAFFIC_PPS] = INT_KNOB("est.traffic_pps", "pps", 0, 100000000, 10000, SUBSYS_EST,
				   "emulated packets per second counted into the estimators"),
    [K_EST_RUN] = BOOL_KNOB("est.run_estimation", 1, SUBSYS_EST,
			    "run_estimation sysctl: 0 stops the kthreads, keeping the chains"),
    [K_EST_RECALIBRATE] = {.name = "est.recalibrate",
			   .type = KNOB_ACTION,
			   .unit = "",
			   .min = 0,
			   .max = 1,
			   .step = 1,
			   .def = 0,
			   .owner = SUBSYS_EST,
			   .help = "recalibrate chain_max now and relink every estimator"},
    [K_EST_CHAIN_MAX] =
	INT_KNOB("est.chain_max", "ests", 0, 100000, 0, SUBSYS_EST,
		 "force est_chain_max after calibration (0 = use the calibrated value)"),

    [K_PMD_ENABLED] =
	BOOL_KNOB("pmd.enabled", 0, SUBSYS_PMD, "run the PMD threads and traffic sources"),
    [K_PMD_COUNT] =
	INT_KNOB("pmd.count", "pmds", 1, PMD_MAX, 1, SUBSYS_PMD,
		 "PMD poll threads, each with its source gen:N (pmd.topology=chain always uses 2)"),
    [K_PMD_MAXSLEEP_US] = INT_KNOB("pmd.maxsleep_us", "us", 0, PMD_MAX_SLEEP_US, 0, SUBSYS_PMD,
				   "maximum PMD load-based sleep (0 = never sleep)"),
    [K_PMD_SLEEP_INC_US] = INT_KNOB("pmd.sleep_inc_us", "us", 1, 1000, 1, SUBSYS_PMD,
				    "sleep increment per light iteration (10 = the first patch)"),
    [K_PMD_TIMER_SLACK_NS] = INT_KNOB("pmd.timer_slack_ns", "ns", 1, 10000000, 1000, SUBSYS_PMD,
				      "timer slack of PMD threads (Linux default 50000)"),
    [K_PMD_RXQ_SIZE] = {.name = "pmd.rxq_size",
			.type = KNOB_INT,
			.unit = "descs",
			.min = PMD_MIN_RING,
			.max = PMD_MAX_RING,
			.step = 1,
			.def = 2048,
			.pow2 = true,
			.owner = SUBSYS_PMD,
			.help = "descriptors per rx ring (a power of two)"},
    [K_PMD_TXQ_SIZE] = {.name = "pmd.txq_size",
			.type = KNOB_INT,
			.unit = "descs",
			.min = PMD_MIN_RING,
			.max = PMD_MAX_RING,
			.step = 1,
			.def = 2048,
			.pow2 = true,
			.owner = SUBSYS_PMD,
			.help = "descriptors per tx ring (a power of two)"},
    [K_PMD_RXQS] = INT_KNOB("pmd.rxqs", "queues", 1, PMD_MAX_RXQS, 1, SUBSYS_PMD,
			    "rx queues polled by each PMD"),
    [K_PMD_TOPOLOGY] = {.name = "pmd.topology",
			.type = KNOB_ENUM,
			.unit = "",
			.min = 0,
			.max = 1,
			.step = 1,
			.def = 0,
			.choices = pmd_topologies,
			.owner = SUBSYS_PMD,
			.help = "direct: gen:N -> pmd-c:N each; chain: the OVS report's txonly -> "
				"PMD0 -> mac peer -> PMD1 (2 PMDs)"},
    [K_GEN_RATE_PPS] = INT_KNOB("gen.rate_pps", "pps", 0, 100000000, 100000, SUBSYS_PMD,
				"offered load per traffic source"),
    [K_GEN_PATTERN] = {.name = "gen.pattern",
		       .type = KNOB_ENUM,
		       .unit = "",
		       .min = 0,
		       .max = 2,
		       .step = 1,
		       .def = 0,
		       .choices = patterns,
		       .owner = SUBSYS_PMD,
		       .help = "traffic pattern: constant, bursty, on-off"},
    [K_GEN_BURST] = INT_KNOB("gen.burst", "pkts", 1, 1024, 32, SUBSYS_PMD,
			     "packets a traffic source offers at once"),
    [K_PMD_FAULT_LEAK] = BOOL_KNOB("pmd.fault_leak", 0, SUBSYS_PMD,
				   "FAULT INJECTION: each PMD loses half of every rx burst without "
				   "counting it (the invariant check must log it)"),

    [K_BLK_ENABLED] =
	BOOL_KNOB("blk.enabled", 0, SUBSYS_BLK, "run the IO submitters, device and interrupt CPU"),
    /* Up to UINT_MAX like the sysfs file: 3 and up are accepted and change nothing
     * (docs/blk.md §6), so the range shown stops at 2; the engine's hook returns the flags
     * as they read back. */
    [K_BLK_RQ_AFFINITY] = {.name = "blk.rq_affinity",
			   .type = KNOB_INT,
			   .unit = "",
			   .min = 0,
			   .max = BLK_RQ_AFFINITY_STORE_MAX,
			   .effect_max = 2,
			   .step = 1,
			   .def = 1,
			   .owner = SUBSYS_BLK,
			   .help = "0 complete on the interrupt CPU, 1 on the submitter's LLC, 2 "
				   "on the submitter (3+ ignored)"},
    [K_BLK_SUBMITTERS] = INT_KNOB("blk.submitters", "threads", 1, BLK_MAX_SUBMITTERS, 2, SUBSYS_BLK,
				  "IO submitter threads"),
    [K_BLK_IODEPTH] = INT_KNOB("blk.iodepth", "reqs", 1, BLK_MAX_IODEPTH, 8, SUBSYS_BLK,
			       "requests each submitter keeps in flight"),
    [K_BLK_NR_HW_QUEUES] = INT_KNOB("blk.nr_hw_queues", "queues", 1, BLK_MAX_HW_QUEUES, 1,
				    SUBSYS_BLK, "hardware queues of the emulated device"),
    [K_BLK_IRQ_CPU] = INT_KNOB("blk.irq_cpu", "cpu", 0, CPU_MAX_EMU - 1, 0, SUBSYS_BLK,
			       "emulated CPU that takes the device interrupt"),
    [K_BLK_SERVICE_US] = INT_KNOB("blk.service_us", "us", 0, 100000, 100, SUBSYS_BLK,
				  "fixed part of the device service time"),
    [K_BLK_SERVICE_JITTER_US] = INT_KNOB("blk.service_jitter_us", "us", 0, 100000, 50, SUBSYS_BLK,
					 "random part of the device service time (uniform)"),
    [K_BLK_FAULT_LOST_KICK] =
	BOOL_KNOB("blk.fault_lost_kick", 0, SUBSYS_BLK,
		  "FAULT INJECTION: each BLOCK softirq drain leaves one request behind, so no kick "
		  "comes again (the 2008 lost-IPI hang)"),
    [K_BLK_THREADIRQS] =
	BOOL_KNOB("blk.threadirqs", 0, SUBSYS_BLK,
		  "emulate threadirqs/PREEMPT_RT (force_irqthreads): never steer by IPI"),
    [K_BLK_POLLED] =
	BOOL_KNOB("blk.polled", 0, SUBSYS_BLK,
		  "submit polled IO (REQ_POLLED, fio hipri): never steered, completed directly"),
    [K_BLK_FAULT_LEAK] = BOOL_KNOB("blk.fault_leak", 0, SUBSYS_BLK,
				   "FAULT INJECTION: one completion in 64 is handed back without "
				   "being counted (the invariant check must log it)"),
    /* The 2008 %sys trade-off needs IPIs that cost CPU; this machine's wake-ups cost little
     * (docs/blk.md "Emulated IPI cost"). */
    [K_BLK_IPI_COST_NS] =
	INT_KNOB("blk.ipi_cost_ns", "ns", 0, BLK_IPI_COST_MAX_NS, 0, SUBSYS_BLK,
		 "EMULATED: CPU time each remote completion costs the thread that sends its IPI "
		 "and the one that takes it (0 = the machine's own cost only)"),

    /* host backend (backends/host*.c): the host source reads it, the engine ignores it */
    [K_HOST_PID] = INT_KNOB("host.pid", "pid", 0, 4194304, 0, SUBSYS_ENGINE,
			    "--host: also follow every thread of this process (0 = none)"),

    /* Read by the sources (backends/host/host_bpf.c), not the engine's threads. Off unless asked:
     * loading it reads the kernel's BTF and runs the verifier, and where the kernel offers
     * no fentry or kprobes it hooks a syscall tracepoint, a cost to every system call of
     * the machine (docs/pmd.md "Timer slack, run-queue delay and the eBPF sleep probe"). */
    [K_PMD_SLEEP_PROBE] = BOOL_KNOB(
	"pmd.sleep_probe", 0, SUBSYS_PMD,
	"measure PMD sleep overshoot in the kernel with eBPF (root, BTF; off unless asked)"),
};
