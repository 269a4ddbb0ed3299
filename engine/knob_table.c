/* knob_table.c: every knob of tunetop, one row each (INTERFACE.md "Knobs"). */
#include "engine.h"
#include "knob.h"

static const char *const governors[] = { "performance", "powersave", "ondemand", "schedutil", NULL };
static const char *const patterns[] = { "constant", "bursty", "on-off", NULL };
static const char *const pmd_topologies[] = { "direct", "chain", NULL };
static const int64_t tick_chains_allowed[] = { 48, 1, -1 };

#define INT_KNOB(nm, un, lo, hi, df, own, ap, hl) \
	{ .name = nm, .type = KNOB_INT, .unit = un, .min = lo, .max = hi, .step = 1, \
	  .def = df, .owner = own, .apply = ap, .help = hl }
#define BOOL_KNOB(nm, df, own, ap, hl) \
	{ .name = nm, .type = KNOB_BOOL, .unit = "", .min = 0, .max = 1, .step = 1, \
	  .def = df, .owner = own, .apply = ap, .help = hl }

const struct knob_def knob_table[K_COUNT] = {
	[K_CPU_GOVERNOR] = { .name = "cpu.governor", .type = KNOB_ENUM, .unit = "",
		.min = 0, .max = GOV_COUNT - 1, .step = 1, .def = GOV_PERFORMANCE,
		.choices = governors, .owner = SUBSYS_CPU, .apply = engine_knob_apply,
		.help = "CPU frequency governor (real via cpufreq when the host has it, else emulated)" },
	[K_CPU_COUNT] = { .name = "cpu.count", .type = KNOB_INT, .unit = "cpus", .min = 0,
		.max = CPU_MAX_EMU, .step = 1, .def = 0, .start_only = true, .owner = SUBSYS_CPU,
		.help = "emulated CPUs the engine threads run on (0 = as many as the host has)" },
	[K_CPU_NODES] = { .name = "cpu.nodes", .type = KNOB_INT, .unit = "nodes", .min = 0,
		.max = 64, .step = 1, .def = 0, .start_only = true, .owner = SUBSYS_CPU,
		.help = "NUMA nodes of the emulated CPUs (0 = the host's, from libnuma)" },
	[K_CPU_LLC_CPUS] = { .name = "cpu.llc_cpus", .type = KNOB_INT, .unit = "cpus", .min = 0,
		.max = CPU_MAX_EMU, .step = 1, .def = 0, .start_only = true, .owner = SUBSYS_CPU,
		.help = "emulated CPUs sharing one last-level cache (0 = the host's layout)" },
	[K_ENGINE_WATCHDOG_MS] = INT_KNOB("engine.watchdog_ms", "ms", 100, 600000, 2000,
		SUBSYS_ENGINE, NULL, "a thread with no heartbeat for this long raises a hang event"),
	[K_LOAD_SPIN_THREADS] = INT_KNOB("load.spin_threads", "threads", 0, 512, 0, SUBSYS_ENGINE,
		engine_knob_apply, "reference threads that spin (about 100% of a core each)"),
	[K_LOAD_SLEEP_THREADS] = INT_KNOB("load.sleep_threads", "threads", 0, 512, 0, SUBSYS_ENGINE,
		engine_knob_apply, "reference threads that sleep (about 0% of a core each)"),

	[K_EST_ENABLED] = BOOL_KNOB("est.enabled", 0, SUBSYS_EST, engine_knob_apply,
		"run the estimator chains"),
	[K_EST_COUNT] = INT_KNOB("est.count", "ests", 0, 2000000, 1000, SUBSYS_EST, est_knob_apply,
		"number of estimators (services and destinations)"),
	[K_EST_CPUS] = INT_KNOB("est.cpus", "cpus", 1, 4096, 16, SUBSYS_EST, est_knob_apply,
		"emulated possible CPUs whose counters each estimator sums"),
	[K_EST_CACHE_FACTOR] = INT_KNOB("est.cache_factor", "", 1, 64, 4, SUBSYS_EST, est_knob_apply,
		"calibration cache factor (kernel: 4)"),
	[K_EST_TICK_CHAINS] = { .name = "est.tick_chains", .type = KNOB_INT, .unit = "chains",
		.min = 1, .max = 48, .step = 1, .def = 48, .allowed = tick_chains_allowed,
		.owner = SUBSYS_EST, .apply = est_knob_apply,
		.help = "chains per tick: 48, or 1 (the preemptible-RCU layout)" },
	[K_EST_CPULIST_CPUS] = INT_KNOB("est.cpulist_cpus", "cpus", 0, CPU_MAX_EMU, 0, SUBSYS_EST,
		est_knob_apply, "CPUs in est_cpulist (kthread limit 4 per CPU; 0 = all emulated CPUs)"),
	[K_EST_TRAFFIC_PPS] = INT_KNOB("est.traffic_pps", "pps", 0, 100000000, 10000, SUBSYS_EST,
		est_knob_apply, "emulated packets per second counted into the estimators"),
	[K_EST_RUN] = BOOL_KNOB("est.run_estimation", 1, SUBSYS_EST, est_knob_apply,
		"run_estimation sysctl: 0 stops the kthreads, keeping the chains"),
	[K_EST_RECALIBRATE] = { .name = "est.recalibrate", .type = KNOB_ACTION, .unit = "",
		.min = 0, .max = 1, .step = 1, .def = 0, .owner = SUBSYS_EST, .apply = est_knob_apply,
		.help = "recalibrate chain_max now and relink every estimator" },
	[K_EST_CHAIN_MAX] = INT_KNOB("est.chain_max", "ests", 0, 100000, 0, SUBSYS_EST,
		est_knob_apply, "force est_chain_max after calibration (0 = use the calibrated value)"),

	[K_PMD_ENABLED] = BOOL_KNOB("pmd.enabled", 0, SUBSYS_PMD, engine_knob_apply,
		"run the PMD threads and traffic sources"),
	[K_PMD_COUNT] = INT_KNOB("pmd.count", "pmds", 1, 8, 1, SUBSYS_PMD, pmd_knob_apply,
		"PMD poll threads, each with its source gen:N (pmd.topology=chain always uses 2)"),
	[K_PMD_MAXSLEEP_US] = INT_KNOB("pmd.maxsleep_us", "us", 0, 10000, 0, SUBSYS_PMD,
		pmd_knob_apply, "maximum PMD load-based sleep (0 = never sleep)"),
	[K_PMD_SLEEP_INC_US] = INT_KNOB("pmd.sleep_inc_us", "us", 1, 1000, 1, SUBSYS_PMD,
		pmd_knob_apply, "sleep increment per light iteration (10 = the first patch)"),
	[K_PMD_TIMER_SLACK_NS] = INT_KNOB("pmd.timer_slack_ns", "ns", 1, 10000000, 1000,
		SUBSYS_PMD, pmd_knob_apply, "timer slack of PMD threads (Linux default 50000)"),
	[K_PMD_RXQ_SIZE] = { .name = "pmd.rxq_size", .type = KNOB_INT, .unit = "descs", .min = 32,
		.max = 65536, .step = 1, .def = 2048, .pow2 = true, .owner = SUBSYS_PMD,
		.apply = pmd_knob_apply, .help = "descriptors per rx ring (a power of two)" },
	[K_PMD_TXQ_SIZE] = { .name = "pmd.txq_size", .type = KNOB_INT, .unit = "descs", .min = 32,
		.max = 65536, .step = 1, .def = 2048, .pow2 = true, .owner = SUBSYS_PMD,
		.apply = pmd_knob_apply, .help = "descriptors per tx ring (a power of two)" },
	[K_PMD_RXQS] = INT_KNOB("pmd.rxqs", "queues", 1, 16, 1, SUBSYS_PMD, pmd_knob_apply,
		"rx queues polled by each PMD"),
	[K_PMD_TOPOLOGY] = { .name = "pmd.topology", .type = KNOB_ENUM, .unit = "", .min = 0,
		.max = 1, .step = 1, .def = 0, .choices = pmd_topologies, .owner = SUBSYS_PMD,
		.apply = pmd_knob_apply,
		.help = "direct: gen:N -> pmd-c:N each; chain: the OVS report's txonly -> PMD0 -> mac peer -> PMD1 (2 PMDs)" },
	[K_GEN_RATE_PPS] = INT_KNOB("gen.rate_pps", "pps", 0, 100000000, 100000, SUBSYS_PMD,
		pmd_knob_apply, "offered load per traffic source"),
	[K_GEN_PATTERN] = { .name = "gen.pattern", .type = KNOB_ENUM, .unit = "", .min = 0,
		.max = 2, .step = 1, .def = 0, .choices = patterns, .owner = SUBSYS_PMD,
		.apply = pmd_knob_apply, .help = "traffic pattern: constant, bursty, on-off" },
	[K_GEN_BURST] = INT_KNOB("gen.burst", "pkts", 1, 1024, 32, SUBSYS_PMD, pmd_knob_apply,
		"packets a traffic source offers at once"),

	[K_BLK_ENABLED] = BOOL_KNOB("blk.enabled", 0, SUBSYS_BLK, engine_knob_apply,
		"run the IO submitters, device and interrupt CPU"),
	/* Up to UINT_MAX like the sysfs file: 3 and up are accepted and change nothing
	 * (spec/io-steering.md §6); blk_knob_apply makes it read back the flags. */
	[K_BLK_RQ_AFFINITY] = INT_KNOB("blk.rq_affinity", "", 0, 4294967295LL, 1, SUBSYS_BLK,
		blk_knob_apply,
		"0 complete on the interrupt CPU, 1 on the submitter's LLC, 2 on the submitter (3+ ignored)"),
	[K_BLK_SUBMITTERS] = INT_KNOB("blk.submitters", "threads", 1, 64, 2, SUBSYS_BLK,
		blk_knob_apply, "IO submitter threads"),
	[K_BLK_IODEPTH] = INT_KNOB("blk.iodepth", "reqs", 1, 1024, 8, SUBSYS_BLK, blk_knob_apply,
		"requests each submitter keeps in flight"),
	[K_BLK_NR_HW_QUEUES] = INT_KNOB("blk.nr_hw_queues", "queues", 1, 64, 1, SUBSYS_BLK,
		blk_knob_apply, "hardware queues of the emulated device"),
	[K_BLK_IRQ_CPU] = INT_KNOB("blk.irq_cpu", "cpu", 0, CPU_MAX_EMU - 1, 0, SUBSYS_BLK,
		blk_knob_apply, "emulated CPU that takes the device interrupt"),
	[K_BLK_SERVICE_US] = INT_KNOB("blk.service_us", "us", 0, 100000, 100, SUBSYS_BLK,
		blk_knob_apply, "fixed part of the device service time"),
	[K_BLK_SERVICE_JITTER_US] = INT_KNOB("blk.service_jitter_us", "us", 0, 100000, 50,
		SUBSYS_BLK, blk_knob_apply, "random part of the device service time (uniform)"),
	[K_BLK_FAULT_LOST_KICK] = BOOL_KNOB("blk.fault_lost_kick", 0, SUBSYS_BLK, blk_knob_apply,
		"FAULT INJECTION: each BLOCK softirq drain leaves one request behind, so no kick comes again (the 2008 lost-IPI hang)"),
	[K_BLK_THREADIRQS] = BOOL_KNOB("blk.threadirqs", 0, SUBSYS_BLK, blk_knob_apply,
		"emulate threadirqs/PREEMPT_RT (force_irqthreads): never steer by IPI"),
	[K_BLK_POLLED] = BOOL_KNOB("blk.polled", 0, SUBSYS_BLK, blk_knob_apply,
		"submit polled IO (REQ_POLLED, fio hipri): never steered, completed directly"),

	/* host backend (backends/host*.c): read by host_knob_apply, no engine hook */
	[K_HOST_PID] = INT_KNOB("host.pid", "pid", 0, 4194304, 0, SUBSYS_ENGINE, NULL,
		"--host: also follow every thread of this process (0 = none)"),
};
