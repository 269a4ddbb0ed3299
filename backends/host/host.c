/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host.c: the live-host backend: gathers every host source into one snapshot (its knobs:
 * host_knob.c). */
#include "backends/host/host.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/governor.h"
#include "core/schedstat.h"
#include "core/snapshot.h"
#include "core/xalloc.h"
#include "backends/host/host_int.h"
#include "backends/host/hostfreq.h"
#include "backends/host/host_bpf.h"
#include "backends/host/host_tscomm.h"
#include "backends/host/host_sched.h"

static void host_read_stat(struct host_cpustat *out)
{
	size_t len;
	char *t = host_proc_slurp("/proc/stat", &len);
	if (!t || host_proc_stat(t, len, out, HOST_MAX_CPUS) < 0)
		memset(out, 0, sizeof(*out) * HOST_MAX_CPUS);
	free(t);
}

/* Whether the directory a path names its file in exists ("." for a bare name). */
static bool host_dir_of_exists(const char *path)
{
	char dir[PATH_MAX];
	struct stat st;
	snprintf(dir, sizeof(dir), "%s", path);
	char *slash = strrchr(dir, '/');
	if (!slash)
		return true;
	if (slash == dir)
		slash[1] = '\0';
	else
		*slash = '\0';
	return stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
}

struct host_state *host_open(char *err, size_t errlen)
{
	struct host_state *h = xcalloc(1, sizeof(*h));
	const char *env;
	uint64_t cal[HOST_MAX_CPUS];

	h->kmsg_fd = -2;
	h->cpufreq = hostfreq_available();
	h->ntopo = topo_probe(&h->topo);
	host_read_stat(h->stat_prev);
	h->prev_ns = clock_mono_ns();
	h->ovs_set_us = -1;
	pthread_mutex_init(&h->mu, NULL);
	h->sleep_show_us = -1;
	h->sched = host_sched_new();
	h->slack_set_ns = -1;
	/* The eBPF probe is loaded into the kernel only when asked (pmd.sleep_probe=on):
	 * "read-only" host mode puts nothing there by default. */
	h->bpf = NULL;
	snprintf(h->bpf_err, sizeof(h->bpf_err), "off (pmd.sleep_probe=off)");

	h->ts = host_ts_open(h->ts_err, sizeof(h->ts_err));
	h->tsb = h->ts ? host_tscomm_open() : NULL;
	h->links = host_link_open(h->links_err, sizeof(h->links_err));

	env = getenv("TUNETOP_BLK_DEV");
	if (env && *env) {
		/* A named device must be valid: say so at start rather than show nothing. */
		char path[192];
		if (host_blk_rq_path(env, path, sizeof(path), err, errlen) != 0) {
			host_close(h);
			return NULL;
		}
		snprintf(h->blk_dev, sizeof(h->blk_dev), "%s", env);
	} else if (host_blk_default_dev(h->blk_dev, sizeof(h->blk_dev)) != 0) {
		snprintf(h->blk_err, sizeof(h->blk_err), "no block device with a queue");
	}
	host_blksec_rows(h->block_base, cal, &h->cal_ok_prev);
	for (int i = 0; i < HOST_MAX_CPUS; i++) {
		h->cal_base[i] = h->cal_prev[i] = cal[i];
		h->block_prev[i] = h->block_base[i];
		h->cal_prev_sum += cal[i];
	}
	if (h->blk_dev[0]) {
		h->disk_ok = host_blksec_disk(h->blk_dev, &h->disk_base);
		h->disk_prev = h->disk_base;
	}

	env = getenv("TUNETOP_OVS_SOCKET");
	h->ovs_given = env && *env;
	if (h->ovs_given)
		snprintf(h->ovs_given_path, sizeof(h->ovs_given_path), "%s", env);
	h->ovs = host_ovs_open(env, h->ovs_err, sizeof(h->ovs_err));
	/* A named socket with no daemon behind it now (not started yet, restarting: its run
	 * directory is there) is looked at again as an unnamed one is; one that cannot work (no
	 * such directory, not a socket, no permission, a listener that never accepts) is the
	 * caller's mistake, said at once. */
	if (!h->ovs && h->ovs_given &&
	    ((errno != ENOENT && errno != ECONNREFUSED) || !host_dir_of_exists(env))) {
		snprintf(err, errlen, "TUNETOP_OVS_SOCKET: %s", h->ovs_err);
		host_close(h);
		return NULL;
	}
	h->ovs_retry_ns = h->prev_ns + HOST_OVS_RETRY_NS;
	/* Probing ovs-vswitchd (which key it reads) waits for the sampler's first pass. */
	return h;
}

void host_close(struct host_state *h)
{
	if (!h)
		return;
	host_ts_close(h->ts);
	host_tscomm_close(h->tsb);
	free(h->acct_q);
	free(h->acct_ok);
	host_link_close(h->links);
	host_ovs_close(h->ovs);
	host_sched_free(h->sched);
	host_bpf_close(h->bpf);
	host_ovsdb_free(h->ovsdb);
	host_ovswrite_close(h);
	host_tscan_free(h->tscan);
	if (h->kmsg_fd >= 0)
		close(h->kmsg_fd);
	free(h->dbread);
	free(h->slack_known);
	free(h->topo);
	free(h->cur);
	free(h->prev);
	free(h->next);
	pthread_mutex_destroy(&h->mu);
	free(h);
}

static void host_sample_cpus(struct host_state *h, struct snapshot *snap)
{
	struct host_cpustat now[HOST_MAX_CPUS];
	uint32_t mhz[HOST_MAX_CPUS] = {0};
	int n = h->ntopo;

	host_read_stat(now);
	for (int i = n; i < HOST_MAX_CPUS; i++)
		if (now[i].present)
			n = i + 1; /* hotplugged beyond what topology saw */
	if (n > HOST_MAX_CPUS)
		n = HOST_MAX_CPUS;
	if (!h->cpufreq) {
		size_t len;
		char *t = host_proc_slurp("/proc/cpuinfo", &len);
		if (t)
			host_proc_cpuinfo_mhz(t, len, mhz, HOST_MAX_CPUS);
		free(t);
	}
	if (snap->ncpus != n) {
		free(snap->cpus);
		snap->cpus = xcalloc((size_t)n, sizeof(*snap->cpus));
		snap->ncpus = n;
	}
	for (int i = 0; i < n; i++) {
		struct snap_cpu *c = &snap->cpus[i];
		c->id = i;
		c->node = i < h->ntopo ? h->topo[i].node : 0;
		c->llc = i < h->ntopo ? h->topo[i].llc : -1;
		c->online = now[i].present; /* /proc/stat lists online CPUs only */
		c->load_pct = host_proc_load_pct(&now[i], &h->stat_prev[i]);
		c->freq_mhz = h->cpufreq ? hostfreq_cur_mhz((unsigned)i) : mhz[i];
	}
	memcpy(h->stat_prev, now, sizeof(now));

	snap->governor = -1; /* "?" unless the host has a governor tunetop knows */
	snap->governor_emulated = false;
	snap->governor_absent = !h->cpufreq;
	snap->host.cpufreq = h->cpufreq;
	snap->host.governor[0] = '\0';
	if (h->cpufreq && hostfreq_governor(snap->host.governor, sizeof(snap->host.governor)) == 0)
		snap->governor = cpu_governor_parse(snap->host.governor);
}

static double host_pct(uint64_t now, uint64_t before, uint64_t dt_ns)
{
	return now >= before && dt_ns ? 100.0 * (double)(now - before) / (double)dt_ns : 0;
}

/* One pass over the scanned threads: what each thread's step shares. */
struct host_tpass {
	uint64_t now_ns, dt_ns;
	size_t nq; /* threads whose TASKSTATS answers came in the batch (host_acct_batch) */
	uint64_t acct_ns; /* when the batch's answers were read */
	size_t nslots; /* TASKSTATS slots taken (the first HOST_SNAP_MAX_ACCT) */
	/* Whose PMDs' slack is read every refresh (host_sched_slack_max_age). */
	bool ovs_open;
	pid_t ovs_pid;
};

/* The thread scan (cached, host_tscan.c) into h->cur, and room for its threads in snap and in
 * h's prev/next. */
static void host_sample_scan(struct host_state *h, struct snapshot *snap, uint64_t now_ns)
{
	struct host_snap *hs = &snap->host;
	if (!h->tscan) {
		h->tscan = host_tscan_new("/proc");
		/* State and last CPU re-read for the threads that ran (below), the rest's at most
		 * HOST_TSCAN_STAT_MAX_NS old: every refresh at -d 1, each fifth at -d 0.2. */
		host_tscan_set_stat_age(h->tscan, HOST_TSCAN_STAT_MAX_NS);
	}
	/* Its threads are always listed, however many others the host has (host_threads.h). */
	host_tscan_set_watch(h->tscan, host_slack_ovs_pid(h));
	hs->threads_matched = host_tscan_run(h->tscan, h->extra_pid, now_ns, &h->cur, &h->cur_cap,
					     HOST_MAX_THREADS, &h->ncur);
	if (snap->threads_cap < h->ncur) {
		snap->threads_cap = h->ncur + 16;
		snap->threads =
		    xreallocarray(snap->threads, snap->threads_cap, sizeof(*snap->threads));
	}
	if (h->prev_cap < h->ncur) {
		h->prev_cap = h->ncur + 16;
		h->next = xreallocarray(h->next, h->prev_cap, sizeof(*h->next));
		/* prev keeps its entries: it is swapped with next below */
		h->prev = xreallocarray(h->prev, h->prev_cap, sizeof(*h->prev));
	}
}

/*
 * One source per thread for its CPU time and run-queue wait, which TASKSTATS
 * (cpu_run_virtual_total, cpu_delay_total) and schedstat (run, wait) both give:
 * the scheduler's sum_exec_runtime and sched_info.run_delay, delay accounting on
 * or off. TASKSTATS alone has the block-IO delay and context switches, kept for
 * the first HOST_SNAP_MAX_ACCT threads; so those threads ask it (it answers all
 * four at once), and the rest pread their kept schedstat fd: one syscall against a
 * netlink request and reply (sendmsg, recvmsg, libnl's buffers) per thread.
 * True when thread i's TASKSTATS answer is in *a.
 */
static bool host_thread_acct(struct host_state *h, struct host_tpass *ps, size_t i,
			     const struct host_tprev *pv, struct host_ts_acct *a)
{
	bool acct;
	if (h->tsb) {
		acct = i < ps->nq && h->acct_ok[i];
		if (acct)
			*a = h->acct_q[i];
	} else {
		char terr[96];
		acct = h->ts && ps->nslots < HOST_SNAP_MAX_ACCT &&
		       host_ts_query(h->ts, h->cur[i].tid, a, terr, sizeof(terr)) == 0;
		ps->acct_ns = clock_mono_ns();
	}
	/* A slot is taken by a thread that shows its figures (queried at the last sample
	 * too), and at the first sample by every thread queried: there no thread shows
	 * any, and querying them all was 500 requests where 64 make the next sample's. */
	if (acct && (pv ? pv->acct : h->nprev == 0))
		ps->nslots++;
	return acct;
}

/* Thread i's row of snap from its counters now (nx) and at the last sample (pv). */
static void host_thread_row(struct host_state *h, struct snapshot *snap,
			    const struct host_tpass *ps, size_t i, const struct host_tprev *pv,
			    uint64_t at_ns)
{
	struct host_snap *hs = &snap->host;
	const struct host_thread_info *t = &h->cur[i];
	const struct host_tprev *nx = &h->next[i];
	struct snap_thread *st = &snap->threads[snap->nthreads++];
	st->tid = t->tid;
	/* The watched ovs-vswitchd's: the one behind the control socket (none while there is
	 * none: a thread's name, or a --pid, makes no process OVS). */
	st->ovs = ps->ovs_pid != 0 && t->pid == ps->ovs_pid;
	memcpy(st->name, t->comm, sizeof(st->name) - 1); /* pthread names: 15 + NUL */
	st->name[sizeof(st->name) - 1] = '\0';
	st->subsys = host_thread_subsys(t->comm);
	if (st->subsys == SUBSYS_PMD && !t->in_ovs)
		st->subsys = SUBSYS_ENGINE; /* named "pmd..." by anyone: no PMD of OVS's */
	/* A thread new since the last sample has no baseline: 0, not its lifetime. */
	st->cpu_pct = pv ? host_pct(nx->cpu_ns, pv->cpu_ns, ps->dt_ns) : 0;
	st->cpu_ns = nx->cpu_ns;
	st->state = host_thread_state(t->state);
	st->emu_cpu = t->processor;
	/* Over the window between the two reads of its counter, within 100 %. */
	uint64_t win_ns = pv && at_ns > pv->at_ns ? at_ns - pv->at_ns : 0;
	st->runq_delay_pct =
	    nx->runq && pv && pv->runq && nx->cpu_delay_ns >= pv->cpu_delay_ns
		? host_sched_window_pct(nx->cpu_delay_ns - pv->cpu_delay_ns, win_ns)
		: -1;
	st->timer_slack_ns = host_sched_slack_aged(
	    h->sched, i, ps->now_ns,
	    host_sched_slack_max_age(st->subsys, t->pid, ps->ovs_open, ps->ovs_pid));
	if (nx->acct && pv && pv->acct && hs->nacct < HOST_SNAP_MAX_ACCT)
		host_acct_fill(&hs->acct[hs->nacct++], nx, pv, ps->dt_ns, win_ns);
}

/* Thread i: its counters into h->next[i] and its row into snap, unless it is gone. */
static void host_sample_thread(struct host_state *h, struct snapshot *snap, struct host_tpass *ps,
			       size_t i)
{
	struct host_snap *hs = &snap->host;
	struct host_thread_info *t = &h->cur[i];
	struct host_tprev *nx = &h->next[i];
	struct host_ts_acct a;
	struct schedstat ss = {0};
	const struct host_tprev *pv = host_prev_find(h, t->tid);
	bool acct = host_thread_acct(h, ps, i, pv, &a);
	/* A kernel without sched_info prints "0 0 0": then the stat file's ticks. */
	bool sst =
	    !acct && host_sched_stat(h->sched, i, &ss) == 0 && (ss.run_ns || !t->stat_cpu_ns);
	uint64_t at_ns = acct ? ps->acct_ns : clock_mono_ns();

	memset(nx, 0, sizeof(*nx));
	nx->tid = t->tid;
	/* The stat file of a thread that ran, or whose CPU time is its ticks. A thread
	 * whose files all fail is gone: no row (its task list is read again next run). */
	if (t->stat_cached &&
	    host_tscan_stat_due(acct || sst, pv != NULL, acct ? a.cpu_run_ns : ss.run_ns,
				pv ? pv->cpu_ns : 0) &&
	    host_tscan_restat(h->tscan, t, ps->now_ns) != 0) {
		if (hs->threads_matched > 0)
			hs->threads_matched--; /* gone since the scan: not counted */
		return;
	}
	nx->cpu_ns = acct ? a.cpu_run_ns : sst ? ss.run_ns : t->stat_cpu_ns;
	nx->runq = acct || sst;
	nx->acct = acct;
	nx->cpu_delay_ns = acct ? a.cpu_delay_ns : sst ? ss.runq_wait_ns : 0;
	nx->at_ns = at_ns;
	if (acct) {
		nx->blkio_delay_ns = a.blkio_delay_ns;
		nx->nvcsw = a.nvcsw;
		nx->nivcsw = a.nivcsw;
	}
	host_thread_row(h, snap, ps, i, pv, at_ns);
}

static void host_sample_threads(struct host_state *h, struct snapshot *snap, uint64_t dt_ns)
{
	struct host_tpass ps = {.now_ns = clock_mono_ns(), .dt_ns = dt_ns};
	host_sample_scan(h, snap, ps.now_ns);
	snap->nthreads = 0;
	snap->host.nacct = 0;
	ps.nq = host_acct_batch(h);
	ps.acct_ns = clock_mono_ns();
	host_sched_sync(h->sched, h->cur, h->ncur);
	ps.ovs_open = h->ovs != NULL;
	ps.ovs_pid = host_slack_ovs_pid(h);
	for (size_t i = 0; i < h->ncur; i++)
		host_sample_thread(h, snap, &ps, i);
	struct host_tprev *tmp = h->prev;
	h->prev = h->next;
	h->next = tmp;
	h->nprev = h->ncur; /* cur is sorted by tid, so prev is too */
}

static void host_sample_links(struct host_state *h, struct snapshot *snap, double dt_s)
{
	struct host_snap *hs = &snap->host;
	struct host_link_stat now[HOST_MAX_LINKS];
	char err[sizeof(hs->links_error)];
	int n = h->links ? host_link_read(h->links, now, HOST_MAX_LINKS, err, sizeof(err)) : -1;

	hs->links_ok = n >= 0;
	snprintf(hs->links_error, sizeof(hs->links_error), "%s",
		 n >= 0	    ? ""
		 : h->links ? err
			    : h->links_err);
	hs->nlinks = 0;
	for (int i = 0; i < n && hs->nlinks < HOST_SNAP_MAX_LINKS; i++) {
		const struct host_link_stat *p = NULL;
		for (int j = 0; j < h->nlink_prev; j++)
			if (h->link_prev[j].ifindex == now[i].ifindex)
				p = &h->link_prev[j];
		struct host_link_snap *l = &hs->links[hs->nlinks++];
		memcpy(l->name, now[i].name, sizeof(l->name)); /* both IFNAMSIZ, NUL-terminated */
		l->rx_packets = now[i].rx_packets;
		l->tx_packets = now[i].tx_packets;
		l->rx_dropped = now[i].rx_dropped;
		l->tx_dropped = now[i].tx_dropped;
#define HOST_RATE(f) (p && dt_s > 0 && now[i].f >= p->f ? (double)(now[i].f - p->f) / dt_s : 0)
		l->rx_pps = HOST_RATE(rx_packets);
		l->tx_pps = HOST_RATE(tx_packets);
		l->rx_drop_per_s = HOST_RATE(rx_dropped);
		l->tx_drop_per_s = HOST_RATE(tx_dropped);
#undef HOST_RATE
	}
	if (n >= 0) {
		memcpy(h->link_prev, now, sizeof(now[0]) * (size_t)n);
		h->nlink_prev = n;
	}
}

void host_sample(struct host_state *h, struct snapshot *snap, uint64_t now_ns)
{
	struct host_snap *hs = &snap->host;
	uint64_t dt_ns = now_ns > h->prev_ns ? now_ns - h->prev_ns : 0;
	double dt_s = (double)dt_ns / 1e9;

	memset(hs, 0, sizeof(*hs));
	hs->ovsdb_interval_s = -1; /* no ovsdb read this sample (yet) */
	hs->taskstats = h->ts != NULL;
	snprintf(hs->taskstats_error, sizeof(hs->taskstats_error), "%s", h->ts ? "" : h->ts_err);
	{
		char buf[8] = "";
		FILE *f = fopen("/proc/sys/kernel/task_delayacct", "re");
		if (f) {
			if (!fgets(buf, sizeof(buf), f))
				buf[0] = '\0';
			fclose(f);
		}
		hs->delayacct = buf[0] == '1';
	}
	hs->pid = h->extra_pid;
	hs->ovs_maxsleep_source = "unknown";

	host_sample_cpus(h, snap);
	host_sample_threads(h, snap, dt_ns);
	host_sample_links(h, snap, dt_s);
	host_blksec_sample(h, snap, dt_s);
	host_estsec_sample(h, snap);
	if (!h->ovs && now_ns >= h->ovs_retry_ns) {
		/* ovs-vswitchd may start after tunetop: look again now and then. */
		h->ovs_retry_ns = now_ns + HOST_OVS_RETRY_NS;
		h->ovs = host_ovs_open(h->ovs_given ? h->ovs_given_path : NULL, h->ovs_err,
				       sizeof(h->ovs_err));
	}
	if (h->ovs && !h->ovs_probed)
		host_pmdsec_probe(h);
	host_pmdsec_dbread(h);
	if (h->ovs) {
		host_pmdsec_sample(h, snap, dt_s);
	} else {
		snprintf(hs->ovs_error, sizeof(hs->ovs_error), "%s", h->ovs_err);
	}
	hs->ovs_pid = hs->ovs ? host_slack_ovs_pid(h) : 0;
	hs->ovs_sleep_show = h->ovs_sleep_show;
	hs->bpf_probe = host_bpf_enabled(h->bpf);
	snprintf(hs->bpf_probe_hook, sizeof(hs->bpf_probe_hook), "%s",
		 hs->bpf_probe ? host_bpf_hook(h->bpf) : "");
	snprintf(hs->bpf_probe_error, sizeof(hs->bpf_probe_error), "%s",
		 !h->bpf	 ? h->bpf_err
		 : hs->bpf_probe ? ""
				 : "off (pmd.sleep_probe=off)");
	snap->has_host = true;
	h->prev_ns = now_ns;
}

bool host_probe_every_syscall(const struct host_state *h)
{
	return host_bpf_enabled(h->bpf) && host_bpf_every_syscall(h->bpf);
}

const char *host_probe_hook(const struct host_state *h)
{
	return host_bpf_hook(h->bpf);
}
