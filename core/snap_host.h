/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host_snap.h: the host section of a snapshot (present with --backend host). */
#ifndef TT_HOST_SNAP_H
#define TT_HOST_SNAP_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define HOST_SNAP_MAX_LINKS 32
#define HOST_SNAP_MAX_ACCT 64
#define HOST_SNAP_MAX_ABSENT 64

/* One interface's rtnetlink counters (totals) and their rates over the interval. */
struct host_link_snap {
	char name[16];
	uint64_t rx_packets, tx_packets, rx_dropped, tx_dropped;
	double rx_pps, tx_pps, rx_drop_per_s, tx_drop_per_s;
};

/* TASKSTATS figures of one picked thread over the interval. */
struct host_acct_snap {
	pid_t tid;
	double cpu_delay_pct; /* of the interval spent runnable but waiting for a CPU */
	double blkio_delay_pct; /* of the interval spent waiting for block IO */
	double nvcsw_per_s, nivcsw_per_s;
};

/* OVS extras: what an operator looks at after pmd-perf-show. */
#define HOST_SNAP_MAX_OVS_PMDS 16
#define HOST_SNAP_MAX_RXQS 32
#define HOST_SNAP_MAX_IFACES 32
/* The Interface statistics keys that count drops (OVS's netdev and DPDK names), in the
 * order the snapshot holds them: rx_dropped, tx_dropped, rx_missed_errors, ... */
#define HOST_IFACE_NDROPS 9
extern const char *const host_iface_drop_names[HOST_IFACE_NDROPS];

/* One histogram of pmd-perf-show (pmd-perf-metrics=true), counts since the stats were
 * cleared: bin i holds count[i] values up to edge[i] (the last: above, UINT64_MAX). */
#define HOST_OVS_HIST_BINS 32
#define HOST_OVS_MAX_HISTS 8
struct host_ovs_hist {
	char name[24]; /* OVS's heading: "cycles/it", "packets/it", "max vhost qlen" ... */
	int nbins;
	uint64_t edge[HOST_OVS_HIST_BINS], count[HOST_OVS_HIST_BINS];
};
/* The histograms the pmd view draws per PMD: cycles/it, packets/it, and a sleep one when the
 * OVS prints one (3.1 does not). */
#define HOST_OVS_SNAP_HISTS 3

/* One PMD's pmd-stats-show totals and pmd-rxq-show figures; -1 = absent. */
struct host_ovs_pmd_snap {
	char name[16]; /* the PMD's thread name ("pmd-c01/id:7"), or "pmd-c01" */
	int core_id;
	uint64_t packets, emc_hits, smc_hits, megaflow_hits, upcalls, lost_upcalls; /* totals */
	double cycles_per_pkt; /* processing cycles / packets over the interval, -1 absent */
	double upcalls_per_s, lost_upcalls_per_s; /* -1 on the first sample */
	int isolated; /* pmd-rxq-show "isolated": 1, 0, -1 unknown */
	double overhead_pct; /* -1 "NOT AVAIL" */
	uint64_t simple_hits; /* simple match cache hits (3.1+), total */
	uint64_t recirc, phwol_hits; /* recirculations, hardware offload hits: totals */
	/*
	 * Over the interval, each lookup's share of the datapath passes (packets received plus
	 * recirculations, as pmd-stats-show counts a hit per pass), in % clamped to 0..100; -1
	 * with no baseline, no pass in the interval, or a counter gone back (pmd-stats-clear).
	 * phwol_pct -1 also when this OVS prints no "phwol hits". passes: the interval's
	 * passes, -1 likewise. docs/pmd.md "Host mode: what an operator reads".
	 */
	double simple_pct, emc_pct, smc_pct, megaflow_pct, phwol_pct;
	int64_t passes;
	int nhists; /* 0: pmd-perf-show printed none (pmd-perf-metrics off) */
	struct host_ovs_hist hist[HOST_OVS_SNAP_HISTS];
	/*
	 * Suspicious iterations as pmd-perf-log-set defines them (cycles, sleep excluded, over
	 * susp_us at OVS's TSC rate, or a vhost queue fill of susp_qlen or more), counted from
	 * pmd-perf-show's histograms since the stats were cleared: at least susp_min, at most
	 * susp_max (a bin may straddle the threshold). Per second over OVS's own interval.
	 * -1 when unknown, susp_why saying why. tsc_hz: the TSC rate pmd-perf-show's figures
	 * imply, -1 unknown. docs/pmd.md "Suspicious iterations".
	 */
	int64_t susp_min, susp_max;
	double susp_min_per_s, susp_max_per_s;
	double tsc_hz;
	int susp_us, susp_qlen;
	char susp_why[64];
};
/* One rx queue of pmd-rxq-show. */
struct host_ovs_rxq_snap {
	char port[32];
	int queue, core_id;
	bool enabled;
	double usage_pct; /* of its PMD's cycles over the last minute; -1 "NOT AVAIL" */
};
/* One Interface row's statistics from ovsdb (totals; -1 when the key is not there). */
struct host_ovs_iface_snap {
	char name[32];
	int64_t rx_dropped, tx_dropped, rx_errors, tx_errors;
	/* The drop counters of host_iface_drop_names (totals, -1 not there) and their rates
	 * per second between two ovsdb reads (-1: no baseline, absent, or gone back). */
	int64_t drops[HOST_IFACE_NDROPS];
	double drop_per_s[HOST_IFACE_NDROPS];
};

struct host_snap {
	bool cpufreq; /* a cpufreq policy was found (libcpupower) */
	char governor[24]; /* the host's governor name as sysfs says it ("" without cpufreq) */
	bool taskstats; /* per-thread accounting through TASKSTATS (else /proc stat) */
	bool delayacct; /* kernel.task_delayacct is on: the delay figures are real */
	char taskstats_error[96]; /* why TASKSTATS is not used ("" when it is) */
	int threads_matched; /* host threads picked by name or pid (before any cap) */
	int64_t pid; /* the extra pid followed (host.pid), 0 none */

	int nlinks;
	struct host_link_snap links[HOST_SNAP_MAX_LINKS];
	bool links_ok; /* rtnetlink answered */
	char links_error[160]; /* why not ("" when it did): no link module, an rtnetlink error */

	int nacct;
	struct host_acct_snap acct[HOST_SNAP_MAX_ACCT];

	char blk_dev[32]; /* device whose rq_affinity is shown and set ("" none) */
	char blk_error[96];

	bool ovs; /* an Open vSwitch unixctl socket answered */
	pid_t ovs_pid; /* the ovs-vswitchd that answered (the socket's peer), 0 none or unknown */
	char ovs_socket[108];
	char ovs_error[160]; /* last failure ("" when the last call worked) */
	bool ovs_sleep_show; /* dpif-netdev/pmd-sleep-show exists (OVS 3.2+) */
	const char *ovs_maxsleep_source; /* "pmd-sleep-show", "set", "unknown" */

	/* Fields of the blk and pmd sections the host cannot measure: they read 0. */
	int nabsent;
	const char *absent[HOST_SNAP_MAX_ABSENT];

	bool bpf_probe; /* the eBPF sleep probe is attached (pmd.sleep_probe) */
	char bpf_probe_error[128]; /* why not ("not root: no CAP_BPF ...", "" when it is) */
	char bpf_probe_hook[48]; /* what it hooks when attached, "" when not */
	int novs_pmds;
	struct host_ovs_pmd_snap ovs_pmds[HOST_SNAP_MAX_OVS_PMDS];
	/* The PMDs together (name "total"): sums, shares of the summed passes; present when
	 * novs_pmds > 0. */
	struct host_ovs_pmd_snap ovs_total;
	int novs_rxqs;
	struct host_ovs_rxq_snap ovs_rxqs[HOST_SNAP_MAX_RXQS];
	bool ovsdb; /* ovsdb-server answered this sample */
	char ovsdb_error[160];
	int novs_ifaces;
	struct host_ovs_iface_snap ovs_ifaces[HOST_SNAP_MAX_IFACES];
	char ovs_maxsleep_value[128]; /* other_config value as ovsdb holds it ("50,8:0") */
	/* Seconds between this sample's ovsdb read and the last: the interval the interfaces'
	 * drops_per_s are over; -1 none (a first or failed read). */
	double ovsdb_interval_s;
};

#endif
