/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host_estsec.c: the est section on a live host: the kernel's IPVS estimator kthreads and the
 * limits its calibration logged (docs/est.md §4, "The est view on a host"). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/host/host.h"
#include "backends/host/host_int.h"
#include "core/snapshot.h"

/* Records read from /dev/kmsg in one sample: the ring is bounded (log_buf_len), so the first
 * sample reads it all in a few of these; later ones read what came since. */
#define HOST_KMSG_MAX_RECORDS 4096
/* The kernel's IPVS_EST_CHAIN_FACTOR: est_max_count = 50 ticks x 48 chains x chain_max. */
#define HOST_EST_CHAIN_FACTOR 48
#define HOST_EST_NTICKS 50

/*
 * "IPVS: using max X ests per chain, Y per kthread" (ip_vs_est_calc_limits, printed at the end
 * of a completed calc phase, one per network namespace): X is kd->chain_max (already x48 on a
 * single-chain PREEMPT_RCU kernel), Y is est_max_count = 50 x 48 x the calibrated chain_max.
 * Pure: true and the figures when text is such a line.
 */
bool host_estsec_parse(const char *text, int *chain_max, uint64_t *per_kthread, int *calib,
		       int *tick_chains)
{
	const char *p = strstr(text, "IPVS: using max ");
	int x;
	unsigned long long y;
	if (!p || sscanf(p, "IPVS: using max %d ests per chain, %llu per kthread", &x, &y) != 2 ||
	    x <= 0 || y == 0 || y % (HOST_EST_NTICKS * HOST_EST_CHAIN_FACTOR) != 0)
		return false;
	int c = (int)(y / (HOST_EST_NTICKS * HOST_EST_CHAIN_FACTOR));
	if (x != c && x != c * HOST_EST_CHAIN_FACTOR)
		return false;
	*chain_max = x;
	*per_kthread = y;
	*calib = c;
	*tick_chains = x == c ? HOST_EST_CHAIN_FACTOR : 1;
	return true;
}

/* New kernel log records since the last call, non-blocking; the last "using max" line is
 * kept in h->kmsg_line. */
static void host_estsec_kmsg(struct host_state *h)
{
	if (h->kmsg_fd == -2) {
		h->kmsg_fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (h->kmsg_fd < 0)
			snprintf(h->kmsg_err, sizeof(h->kmsg_err), "/dev/kmsg: %s",
				 strerror(errno));
	}
	if (h->kmsg_fd < 0)
		return;
	char rec[1024];
	for (int i = 0; i < HOST_KMSG_MAX_RECORDS; i++) {
		ssize_t n = read(h->kmsg_fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue; /* overwritten before we read it: the next one */
		if (n <= 0)
			break; /* EAGAIN: nothing more now */
		rec[n] = '\0';
		/* "PRI,SEQ,TIME,FLAGS;TEXT\n" */
		char *text = strchr(rec, ';');
		int cm, calib, tc;
		uint64_t pk;
		if (text && host_estsec_parse(text + 1, &cm, &pk, &calib, &tc)) {
			char *nl = strchr(text + 1, '\n');
			if (nl)
				*nl = '\0';
			snprintf(h->kmsg_line, sizeof(h->kmsg_line), "%s", text + 1);
		}
	}
}

/* ipvs-e:G:I: the kthread I of the network namespace G (its gen id). */
static bool host_estsec_name(const char *name, int *netns, int *id)
{
	char tail;
	return sscanf(name, "ipvs-e:%d:%d%c", netns, id, &tail) == 2;
}

void host_estsec_fill(struct snapshot *snap, const char *line)
{
	struct est_snap *e = &snap->est;
	struct host_snap *hs = &snap->host;
	memset(e, 0, sizeof(*e));
	for (size_t i = 0; i < snap->nthreads; i++) {
		int ns, id;
		const struct snap_thread *t = &snap->threads[i];
		if (t->subsys != SUBSYS_EST || !host_estsec_name(t->name, &ns, &id))
			continue;
		e->cpu_pct_total += t->cpu_pct;
		if (e->nkt < EST_SNAP_MAX_KT)
			e->kt[e->nkt++] =
			    (struct est_kt_snap){.id = id, .netns = ns, .cpu_pct = t->cpu_pct};
		e->kthreads++;
	}
	snap->has_est = e->kthreads > 0;
	if (!snap->has_est)
		return;
	int cm, calib, tc;
	uint64_t pk;
	if (line && host_estsec_parse(line, &cm, &pk, &calib, &tc)) {
		e->chain_max = cm;
		e->max_per_kthread = pk;
		e->tick_chains = tc;
		e->calib.chain_max = calib;
	} else {
		host_absent(hs, "est.chain_max");
		host_absent(hs, "est.max_per_kthread");
		host_absent(hs, "est.tick_chains");
	}
	/* The kernel exposes no tick times, estimator counts per kthread, rows or calibration
	 * tests (docs/est.md §4): named, never drawn as 0. */
	static const char *const kernel_lacks[] = {
	    "est.estimators",
	    "est.placed",
	    "est.pending",
	    "est.kthread_slots",
	    "est.max_threads",
	    "est.est_cpus",
	    "est.tick_ns",
	    "est.ticks",
	    "est.visits",
	    "est.tick_hist_us_log2",
	    "est.calibration.single_est_ns",
	    "est.calibration.diff_ns",
	    "est.calibration.loops",
	    "est.calibration.tests",
	    "est.calibration.valid_tests",
	    "est.calibration.dequeue_ns",
	    "est.calibration.count",
	    "est.mem_bytes",
	    "est.mem_per_est_bytes",
	    "est.packets",
	    "est.rates",
	    "est.kthread.estimators",
	    "est.kthread.rows_filled",
	    "est.kthread.rows_full",
	    "est.kthread.tick_ns_last",
	};
	for (size_t i = 0; i < sizeof(kernel_lacks) / sizeof(kernel_lacks[0]); i++)
		host_absent(hs, kernel_lacks[i]);
}

void host_estsec_sample(struct host_state *h, struct snapshot *snap)
{
	bool est = false;
	for (size_t i = 0; i < snap->nthreads && !est; i++)
		est = snap->threads[i].subsys == SUBSYS_EST;
	if (est) /* the log is read only on a host that runs IPVS */
		host_estsec_kmsg(h);
	host_estsec_fill(snap, h->kmsg_line[0] ? h->kmsg_line : NULL);
}

bool host_est_source(const struct host_state *h, char *buf, size_t len)
{
	if (h->kmsg_line[0])
		snprintf(buf, len, "chain_max from the kernel log: %s", h->kmsg_line);
	else
		snprintf(buf, len, "no chain_max: %s",
			 h->kmsg_err[0] ? h->kmsg_err
					: "no \"IPVS: using max\" line in the kernel log");
	return h->kmsg_line[0] != '\0';
}
