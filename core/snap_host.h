/* host_snap.h: the host section of a snapshot (present with --backend host). */
#ifndef TT_HOST_SNAP_H
#define TT_HOST_SNAP_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define HOST_SNAP_MAX_LINKS 32
#define HOST_SNAP_MAX_ACCT 64
#define HOST_SNAP_MAX_ABSENT 16

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

	int nacct;
	struct host_acct_snap acct[HOST_SNAP_MAX_ACCT];

	char blk_dev[32]; /* device whose rq_affinity is shown and set ("" none) */
	char blk_error[96];

	bool ovs; /* an Open vSwitch unixctl socket answered */
	char ovs_socket[108];
	char ovs_error[160]; /* last failure ("" when the last call worked) */
	bool ovs_sleep_show; /* dpif-netdev/pmd-sleep-show exists (OVS 3.2+) */
	const char *ovs_maxsleep_source; /* "pmd-sleep-show", "set", "unknown" */

	/* Fields of the blk and pmd sections the host cannot measure: they read 0. */
	int nabsent;
	const char *absent[HOST_SNAP_MAX_ABSENT];

	bool bpf_probe; /* the eBPF sleep probe is attached (pmd.sleep_probe) */
	char bpf_probe_error[128]; /* why not ("not root: no CAP_BPF ...", "" when it is) */
};

#endif
