/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rowfmt_sleep.c: formatting the pmd view's sleep lines (see rowfmt_sleep.h). */
#include "tui/rowfmt_sleep.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "tui/rowfmt.h"

const char *rowfmt_sleep_probe(const struct snapshot *s, char *buf, size_t len)
{
	const struct pmd_snap *p = &s->pmd;
	if (p->bpf_probe && p->bpf_probe_hook[0] && p->bpf_cost_ns_per_sleep >= 0)
		snprintf(buf, len, "sleep probe (eBPF): on %s, %.0f ns of kernel time per sleep",
			 p->bpf_probe_hook, p->bpf_cost_ns_per_sleep);
	else if (p->bpf_probe && p->bpf_cost_ns_per_sleep >= 0)
		snprintf(buf, len, "sleep probe (eBPF): on, %.0f ns of kernel time per sleep",
			 p->bpf_cost_ns_per_sleep);
	else if (p->bpf_probe)
		snprintf(buf, len, "sleep probe (eBPF): on%s%s", p->bpf_probe_hook[0] ? " " : "",
			 p->bpf_probe_hook);
	else
		snprintf(buf, len, "sleep probe (eBPF): absent: %s",
			 p->bpf_probe_error[0] ? p->bpf_probe_error : "unknown");
	if (p->timer_slack_differs > 0) {
		size_t n = strlen(buf);
		snprintf(buf + n, len > n ? len - n : 0, "  SLACK DIFFERS on %" PRId64 " PMD(s)",
			 p->timer_slack_differs);
	}
	return buf;
}

const char rowfmt_sleep_head[] =
    "PMD       slack_ns RUNQ%  sleeps  os-p50 own/bpf    os-p99 own/bpf";

/* On the host the only overshoot figure is the kernel's (the eBPF probe): one column each, the
 * PMD's whole thread name ("pmd-c01/id:6", at most 15 characters), within 80 columns. */
const char rowfmt_sleep_head_host[] =
    "PMD              slack_ns RUNQ%  sleeps  late-p50us late-p99us (kernel, eBPF)";

/* "12.5/11.9us", "-" for a figure not measured, ">1023/..." for an own figure that is a lower
 * bound (the engine histogram's open top bucket). */
static const char *pair(double own, bool own_ok, bool own_least, double bpf, bool bpf_ok, char *buf,
			size_t len)
{
	char a[16], b[16];
	if (own > 99999)
		own = 99999; /* keep the column: a 100 ms overshoot is off the scale anyway */
	if (bpf > 99999)
		bpf = 99999;
	snprintf(a, sizeof(a), !own_ok ? "-" : own_least ? ">%.0f" : "%.1f", own);
	snprintf(b, sizeof(b), bpf_ok ? "%.1f" : "-", bpf);
	snprintf(buf, len, "%s/%sus", a, b);
	return buf;
}

const char *rowfmt_sleep_row(const struct snapshot *s, int i, char *buf, size_t len)
{
	const struct pmd_thread_snap *p = &s->pmd.threads[i];
	char name[sizeof(p->name)], slack[24], runq[16], sl[16], p50[40], p99[40];
	double rq = -1;
	for (size_t k = 0; k < s->nthreads; k++)
		if (strcmp(s->threads[k].name, p->name) == 0)
			rq = s->threads[k].runq_delay_pct;
	snprintf(slack, sizeof(slack), p->timer_slack_ns >= 0 ? "%" PRId64 : "-",
		 p->timer_slack_ns);
	snprintf(runq, sizeof(runq), rq >= 0 ? "%.1f" : "-", rq);
	/* The engine measures its own; on the host the kernel's is the only one. */
	bool own = !snapshot_absent(s, "pmd.sleep_overshoot_us") && !s->has_host;
	pair(p->overshoot_p50_us, own, p->overshoot_p50_at_least, p->bpf_overshoot_p50_us, p->bpf,
	     p50, sizeof(p50));
	pair(p->overshoot_p99_us, own, p->overshoot_p99_at_least, p->bpf_overshoot_p99_us, p->bpf,
	     p99, sizeof(p99));
	if (s->has_host) {
		char k50[24], k99[24];
		snprintf(k50, sizeof(k50), p->bpf ? "%.1f" : "-", p->bpf_overshoot_p50_us);
		snprintf(k99, sizeof(k99), p->bpf ? "%.1f" : "-", p->bpf_overshoot_p99_us);
		snprintf(buf, len, "%-15s %9s %5s %7s  %10s %10s",
			 rowfmt_name(p->name, name, sizeof(name)), slack, runq,
			 p->bpf ? rowfmt_count((double)p->bpf_sleeps, sl, sizeof(sl)) : "-", k50,
			 k99);
		return buf;
	}
	snprintf(buf, len, "%-8.8s %9s %5s %7s  %-17s %-17s",
		 rowfmt_name(p->name, name, sizeof(name)), slack, runq,
		 p->bpf ? rowfmt_count((double)p->bpf_sleeps, sl, sizeof(sl)) : "-", p50, p99);
	return buf;
}

const char *rowfmt_sleep_hist(const struct pmd_thread_snap *p, char *buf, size_t len)
{
	static const char *const lab[PMD_SNAP_OS_HIST] = {"<1",	     "1-2",	"2-4",	  "4-8",
							  "8-16",    "16-32",	"32-64",  "64-128",
							  "128-256", "256-512", "512-1k", ">=1k"};
	char name[sizeof(p->name)];
	uint64_t total = 0;
	size_t n = 0;
	for (int k = 0; k < PMD_SNAP_OS_HIST; k++)
		total += p->bpf_hist[k];
	/* The whole name, padded as the engine's short ones ("pmd-c01/id:6" is never cut). */
	n += (size_t)snprintf(buf, len, "%-8s os us:", rowfmt_name(p->name, name, sizeof(name)));
	if (!total && n < len)
		snprintf(buf + n, len - n, " no sleep in the interval");
	for (int k = 0; total && k < PMD_SNAP_OS_HIST && n < len; k++)
		if (p->bpf_hist[k])
			n += (size_t)snprintf(buf + n, len - n, " %s %.0f%%", lab[k],
					      100.0 * (double)p->bpf_hist[k] / (double)total);
	return buf;
}
