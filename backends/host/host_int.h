/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host_int.h: the host backend's private state, shared by host.c and its section samplers. */
#ifndef TT_HOST_INT_H
#define TT_HOST_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/snapshot.h"
#include "backends/host/host_blk.h"
#include "backends/host/host_link.h"
#include "backends/host/ovs/host_ovs.h"
#include "backends/host/ovs/host_ovsdb.h"
#include "backends/host/ovs/host_ovsstats.h"
#include "backends/host/host_proc.h"
#include "core/snap_host.h"
#include "backends/host/host_taskstats.h"
#include "backends/host/host_threads.h"
#include "backends/host/topology.h"

/* Threads shown at most: kworkers alone can be hundreds on a large host. */
#define HOST_MAX_THREADS 1024
#define HOST_MAX_LINKS 64
/* How often to look for an ovs-vswitchd that was absent (a pidfile read: cheap). */
#define HOST_OVS_RETRY_NS (5ULL * 1000000000ULL)
/* How long a max sleep write waits for ovs-vswitchd to take it from ovsdb: milliseconds on an
 * idle host, 2-5 s seen under a load of 16 on 2 CPUs. */
#define HOST_MAXSLEEP_APPLY_MS 6000

struct host_tprev {
	pid_t tid;
	uint64_t cpu_ns, cpu_delay_ns, blkio_delay_ns, nvcsw, nivcsw;
	bool runq; /* cpu_delay_ns was read (from TASKSTATS or schedstat: the same counter) */
	bool acct; /* from TASKSTATS: blkio_delay_ns and the switches are there too */
	uint64_t at_ns; /* CLOCK_MONOTONIC when cpu_delay_ns was read: its window's ends */
};

struct host_slack_seen; /* host_slack.c */

struct host_state {
	bool cpufreq;
	int ntopo;
	struct topo_cpu *topo;
	struct host_cpustat stat_prev[HOST_MAX_CPUS];
	uint64_t prev_ns;

	struct host_ts *ts;
	char ts_err[96];
	/* The same TASKSTATS queries sent in batches (host_tscomm.c), NULL when it failed to
	 * open: then host_ts_query per thread. acct_q/acct_ok: one sample's answers, of cur[i]. */
	struct host_tscomm *tsb;
	struct host_ts_acct *acct_q;
	bool *acct_ok;
	size_t acct_cap;
	pid_t acct_tid[HOST_SNAP_MAX_ACCT];
	pid_t extra_pid;
	struct host_thread_info *cur;
	size_t cur_cap, ncur;
	struct host_tprev *prev, *next;
	size_t nprev, prev_cap;

	struct host_links *links;
	char links_err[160]; /* why links is NULL */
	struct host_link_stat link_prev[HOST_MAX_LINKS];
	int nlink_prev;

	char blk_dev[HOST_BLK_NAME_MAX];
	char blk_err[96];
	uint64_t block_base[HOST_MAX_CPUS], cal_base[HOST_MAX_CPUS], cal_prev_sum;
	/* The rows at the last sample (or at open), the baseline of the per-CPU rates. */
	uint64_t block_prev[HOST_MAX_CPUS], cal_prev[HOST_MAX_CPUS];
	bool cal_ok_prev; /* /proc/interrupts had its CAL (IPI1) row then */
	struct host_diskstat disk_base, disk_prev;
	bool disk_ok;

	struct host_ovs *ovs;
	bool ovs_given; /* TUNETOP_OVS_SOCKET named it: looked for there only */
	char ovs_given_path[108]; /* that name (a unix socket path) */
	uint64_t ovs_retry_ns; /* next look for a newly started ovs-vswitchd */
	char ovs_err[160];
	/* The kernel log (host_estsec.c): -2 not opened yet, -1 unreadable (kmsg_err says why). */
	int kmsg_fd;
	char kmsg_err[96];
	char kmsg_line[160]; /* the last "IPVS: using max ..." line */
	bool ovs_sleep_show;
	int sleep_show_us; /* the default max sleep pmd-sleep-show reported last, -1 none */
	int ovs_set_us; /* last max sleep we set, -1 none */
	struct host_ovs_perf perf_prev;
	bool have_perf_prev;
	/* Each PMD's suspicious-iteration bounds at the last sample and its OVS duration then,
	 * the baseline of their rates (host_pmdextra.c). */
	struct host_susp_prev {
		int core_id;
		int64_t min, max;
		double duration_s;
	} susp_prev[HOST_SNAP_MAX_OVS_PMDS];
	int nsusp_prev;

	struct host_sched *sched; /* host_sched.c: schedstat and slack fds per listed thread */
	int64_t slack_set_ns; /* pmd.timer_slack_ns last written, -1 never (host_slack.c) */
	/* The PMD threads seen since that value was set (host_slack.c): a later change to one
	 * that has settled is the operator's, shown as differing, never undone. */
	struct host_slack_seen *slack_known;
	int nslack_known;
	struct host_bpf *bpf; /* host_bpf.c: the eBPF sleep probe, NULL when absent */
	char bpf_err[128]; /* why it is absent */
	/* OVS: ovsdb read every sample, pmd-stats-show cycles, lazily probed version. */
	bool ovs_probed; /* pmd-sleep-show asked once (decides the other_config key) */
	struct host_ovsdb *ovsdb;
	char ovsdb_err[160];
	/* The max sleep in force: the ovsdb string as this OVS parses it, taken only once
	 * ovs-vswitchd has caught up with ovsdb (cur_cfg == next_cfg) and answers; a write
	 * vswitchd has not taken, or a vswitchd stopped or gone, leaves the value it runs with. */
	bool have_maxsleep;
	int maxsleep_us;
	bool ovs_answering; /* the last unixctl call to ovs-vswitchd got an answer */
	char maxsleep_val[128];
	struct host_ovsdb_read *dbread; /* the last read (interfaces) */
	bool dbread_ok;
	uint64_t dbread_ns; /* CLOCK_MONOTONIC when dbread's reply came (a sample's read) */
	/* The drop counters at the last sample's ovsdb read, per interface, for their rates. */
	struct host_iface_prev {
		char name[32];
		int64_t drops[HOST_IFACE_NDROPS];
	} iface_prev[HOST_SNAP_MAX_IFACES];
	int niface_prev;
	uint64_t iface_prev_ns;
	struct host_ovs_stats stats_prev;
	bool have_stats_prev;
	uint64_t stats_prev_ns; /* CLOCK_MONOTONIC when stats_prev's reply came */
	struct host_tscan *tscan; /* the cached thread scan (host_tscan.c) */
	/* The knob writer's own clients (host_ovswrite.c), touched only by the thread that writes
	 * knobs and never under the lock: its waits on OVS hold up nothing else. */
	struct host_ovs *w_ovs;
	struct host_ovsdb *w_db;
	/* host_lock(): everything above, between the sampler and the knob writer (host.h). */
	pthread_mutex_t mu;
};

/* Name a field of the blk or pmd section the host cannot measure (it reads 0). */
static inline void host_absent(struct host_snap *hs, const char *field)
{
	if (hs->nabsent < HOST_SNAP_MAX_ABSENT)
		hs->absent[hs->nabsent++] = field;
}

/* host_acct.c: the last sample's entry of tid (prev is sorted by tid), NULL when it has none;
 * the TASKSTATS queries of a sample in batches, answers in acct_q and acct_ok, how many of
 * the first threads of cur were asked. */
const struct host_tprev *host_prev_find(const struct host_state *h, pid_t tid);
size_t host_acct_batch(struct host_state *h);
/* A TASKSTATS row of the interval from a thread's two reads: its run-queue wait over its own
 * window (win_ns), block-IO wait and switches over the sample's dt_ns (host_acct.c). */
void host_acct_fill(struct host_acct_snap *as, const struct host_tprev *nx,
		    const struct host_tprev *pv, uint64_t dt_ns, uint64_t win_ns);

/* host_estsec.c: the est section from the ipvs-e:* threads and the kernel log's "using max"
 * line; its parser, pure. */
void host_estsec_sample(struct host_state *h, struct snapshot *snap);
/* The part of it that reads no file: kthreads from snap->threads, the limits from line (NULL:
 * none read), and what the kernel does not expose named in host.absent. Pure. */
void host_estsec_fill(struct snapshot *snap, const char *line);
bool host_estsec_parse(const char *text, int *chain_max, uint64_t *per_kthread, int *calib,
		       int *tick_chains);

/* host_blksec.c: the blk section from /proc/softirqs, /proc/interrupts, diskstats, sysfs. */
bool host_blksec_rows(uint64_t *block, uint64_t *cal, bool *cal_ok);
bool host_blksec_disk(const char *dev, struct host_diskstat *d);
void host_blksec_sample(struct host_state *h, struct snapshot *snap, double dt_s);

/* host_pmdsec.c: the pmd section from ovs-vswitchd's pmd-perf-show and pmd-sleep-show. */
void host_pmdsec_probe(struct host_state *h);
void host_pmdsec_sample(struct host_state *h, struct snapshot *snap, double dt_s);
/* Read other_config and Interface statistics from ovsdb (host_pmdsec.c). */
void host_pmdsec_dbread(struct host_state *h);
/* host_pmdextra.c: the OVS extras of the pmd section (see there). */
struct host_ovs_hists;
const struct host_pmd_stats *host_pmd_stats_find(const struct host_ovs_stats *s, int core);
/* now - before into *d; false when the counter went back (cleared): no rate then. */
bool host_counter_delta(uint64_t now, uint64_t before, uint64_t *d);
void host_pmdsec_extras(struct host_state *h, struct snapshot *snap, double dt_s,
			const struct host_ovs_stats *st, bool st_ok, const struct host_ovs_rxqs *rq,
			bool rq_ok);
struct host_ovs_perf;
/* Each PMD's drawn histograms and its suspicious iterations (their rates over perf's
 * durations against the last sample's). */
void host_pmdsec_hists(struct host_state *h, struct host_snap *hs,
		       const struct host_ovs_hists *hists, const struct host_ovs_perf *perf);
void host_pmdsec_ifaces(struct host_state *h, struct host_snap *hs);
/* taken: ovs-vswitchd has reconfigured with r's other_config (a write's read back); else the
 * max sleep in force follows r only once vswitchd caught up with ovsdb and answers. */
void host_pmdsec_maxsleep_from(struct host_state *h, const struct host_ovsdb_read *r, bool taken);
/* host_ovswrite.c: the knob writer's side of OVS, on its own connections (w_ovs, w_db). Both
 * are called with the host lock held and drop it around their I/O. */
/* Read the max sleep from ovsdb now (probing ovs-vswitchd first if no sample has yet): before
 * a write at start-up. */
void host_ovswrite_refresh(struct host_state *h);
/* Set the max sleep through ovsdb and wait (HOST_MAXSLEEP_APPLY_MS at most) for ovs-vswitchd to
 * take it, read back: 0; -1 with err when ovsdb refused it, or vswitchd did not take it (err then
 * names the value still in force). */
int host_pmdsec_set_maxsleep(struct host_state *h, int us, char *err, size_t errlen);
void host_ovswrite_close(struct host_state *h);

/* host_slack.c: pmd.timer_slack_ns on ovs-vswitchd's PMD threads (/proc/TID/timerslack_ns). */
int host_slack_apply(struct host_state *h, int64_t ns, char *err, size_t errlen);
int host_slack_current(struct host_state *h, int64_t *out);
/* Each PMD row's own slack from the thread table; count those differing from the set value. */
/* row_tid[i] (PMD_SNAP_MAX) is the tid of PMD row i, 0 when not found. */
/* The pid of the ovs-vswitchd whose PMDs are shown, 0 when unknown (host_slack.c). */
pid_t host_slack_ovs_pid(const struct host_state *h);
void host_slack_pmdsec(struct host_state *h, struct snapshot *snap, pid_t *row_tid);
/* The listed thread tid (h->cur), NULL when not listed (host_slack.c). */
const struct host_thread_info *host_slack_cur_of(const struct host_state *h, pid_t tid);
/* The CPU% of the PMD threads of ovs-vswitchd vpid (0: any) on core, their name and summed
 * run-queue delay (-1 unknown); fresh when none was found (host_pmdsec.c). */
double host_pmdsec_cpu(const struct host_state *h, const struct snapshot *snap, pid_t vpid,
		       int core, char *name, size_t len, bool *fresh, double *runq);

#endif
