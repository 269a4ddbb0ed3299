/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rowfmt.c: text formatting of snapshot figures into caller buffers. */
#include "tui/rowfmt.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/clock.h"
#include "core/thread_state.h"
#include "core/utf8.h"

const char *const rowfmt_head[ROWFMT_NCOLS] = {"TID",  "NAME", "SUBSYS", "CPU",
					       "CPU%", "S",    "RUNQ%",	 "DETAIL"};
/* Column starts; TID is right-aligned in 7, the rest left or right as htop does. */
const int rowfmt_col_x[ROWFMT_NCOLS] = {0, 8, 24, 31, 36, 43, 45, 51};

const char *rowfmt_count(double v, char *buf, size_t len)
{
	if (v < 0)
		v = 0;
	if (v < 1000)
		snprintf(buf, len, "%.0f", v);
	else if (v < 10e3)
		snprintf(buf, len, "%.2fk", v / 1e3);
	else if (v < 1e6)
		snprintf(buf, len, "%.1fk", v / 1e3);
	else if (v < 1e9)
		snprintf(buf, len, "%.2fM", v / 1e6);
	else
		snprintf(buf, len, "%.2fG", v / 1e9);
	return buf;
}

const char *rowfmt_ns(uint64_t ns, char *buf, size_t len)
{
	if (ns < NS_PER_US)
		snprintf(buf, len, "%" PRIu64 "ns", ns);
	else if (ns < NS_PER_MS)
		snprintf(buf, len, "%.1fus", (double)ns / 1e3);
	else if (ns < NS_PER_S)
		snprintf(buf, len, "%.2fms", (double)ns / 1e6);
	else
		snprintf(buf, len, "%.2fs", (double)ns / 1e9);
	return buf;
}

const char *rowfmt_at_least_us(double us, char *buf, size_t len)
{
	if (us >= 2000)
		snprintf(buf, len, ">%.1fms", us / 1e3);
	else
		snprintf(buf, len, ">%.0fus", us);
	return buf;
}

/* "est-k:3" -> 3; -1 when the name is not prefix:N. */
const char *rowfmt_opt(double v, bool absent, const char *fmt, char *buf, size_t len)
{
	if (absent || v < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, fmt, v);
	return buf;
}

int rowfmt_wrap(const char *p, int w, int min_w, int indent, int row, char *buf, size_t len)
{
	int n = 0;
	if (w < min_w)
		w = min_w;
	while (*p) {
		int take = (int)strlen(p);
		if (take > w) {
			take = w;
			while (take > 0 && p[take] != ' ')
				take--;
			if (take == 0)
				take = w; /* one long word: cut it */
		}
		if (n == row && buf)
			snprintf(buf, len, "%*s%.*s", indent, "", take, p);
		n++;
		p += take;
		while (*p == ' ')
			p++;
	}
	return n ? n : 1;
}

static int name_index(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);
	int v;
	if (strncmp(name, prefix, n) != 0 || sscanf(name + n, "%d", &v) != 1)
		return -1;
	return v;
}

const char *rowfmt_detail(const struct snapshot *s, const struct snap_thread *t, char *buf,
			  size_t len)
{
	char a[16], b[16];
	int i;

	buf[0] = '\0';
	switch (t->subsys) {
	case SUBSYS_EST:
		if (!s->has_est)
			break;
		i = name_index(t->name, "est-k:");
		for (int k = 0; k < s->est.nkt && i >= 0; k++) {
			if (s->est.kt[k].id != i)
				continue;
			/* Each kthread's own last tick, not the subsystem's. */
			snprintf(buf, len, "%u ests %u rows %u full  tick %s",
				 s->est.kt[k].estimators, s->est.kt[k].rows_filled,
				 s->est.kt[k].rows_full,
				 rowfmt_ns(s->est.kt[k].tick_ns_last, a, sizeof(a)));
			return buf;
		}
		break;
	case SUBSYS_PMD:
		if (!s->has_pmd)
			break;
		for (int k = 0; k < s->pmd.nthreads; k++) {
			const struct pmd_thread_snap *p = &s->pmd.threads[k];
			if (strcmp(p->name, t->name) == 0 && p->no_rate) {
				snprintf(buf, len, "rx -/s sleep -"); /* no baseline yet */
				return buf;
			}
			if (strcmp(p->name, t->name) == 0 && snapshot_absent(s, "pmd.drop_pct")) {
				snprintf(buf, len, "rx %s/s sleep %.0f%%",
					 rowfmt_count(p->rx_pps, a, sizeof(a)), p->sleep_iter_pct);
				return buf;
			}
			if (strcmp(p->name, t->name) == 0) {
				snprintf(buf, len, "rx %s/s drop %.2f%% sleep %.0f%%",
					 rowfmt_count(p->rx_pps, a, sizeof(a)), p->drop_pct,
					 p->sleep_iter_pct);
				return buf;
			}
		}
		break;
	case SUBSYS_BLK:
		if (!s->has_blk)
			break;
		for (int k = 0; k < s->blk.ncpus; k++) {
			const struct blk_cpu_snap *c = &s->blk.per_cpu[k];
			if (c->cpu == t->emu_cpu) {
				snprintf(buf, len, "cpu%d done %s ipi %s", c->cpu,
					 rowfmt_count((double)c->completed, a, sizeof(a)),
					 rowfmt_count((double)c->ipi_recv, b, sizeof(b)));
				return buf;
			}
		}
		break;
	default:
		break;
	}
	return buf;
}

/*
 * A thread name as one printable ASCII cell per character, as ps prints comm: host
 * threads (--host, host.pid) are named by whoever runs them, and a tab, an
 * escape or a UTF-8 byte would reach the terminal as a tab stop, "^[" or
 * "M-x" (LANG=C), several cells wide, and push every later column out of
 * line. Characters are told apart as core/utf8.h repairs them: each ill-formed
 * run (where the JSON and the metrics text say U+FFFD, a name cut at 15 bytes
 * among them) and each character outside printable ASCII is one '?' cell.
 */
const char *rowfmt_name(const char *name, char *buf, size_t len)
{
	size_t i = 0, n = strlen(name);
	while (n && i + 1 < len) {
		unsigned char c = (unsigned char)*name;
		size_t k = utf8_seq_len(name, n);
		if (!k)
			k = utf8_bad_len(name, n);
		buf[i++] = k == 1 && c >= 0x20 && c < 0x7f ? (char)c : '?';
		name += k;
		n -= k;
	}
	if (len)
		buf[i] = '\0';
	return buf;
}

const char *rowfmt_host_group(const struct snapshot *s, const struct snap_thread *t)
{
	/* PMDs are OVS's when the host backend says so (subsys pmd: a thread of ovs-vswitchd),
	 * not by their name, which any user can give a thread of theirs. So are the other
	 * threads named as OVS names them, when they are the watched ovs-vswitchd's (t->ovs). */
	static const char *const ovs[] = {"handler",  "revalidator", "urcu", "ovs",
					  "ct_clean", "ipf_clean",   "dpdk"};
	static const char *const kernel[] = {"kworker", "ksoftirqd",  "kthreadd",
					     "rcu_",	"migration/", "irq/"};
	if (!s->backend || strcmp(s->backend, "host") != 0 || t->subsys == SUBSYS_EST)
		return subsys_name(t->subsys);
	if (t->subsys == SUBSYS_PMD)
		return "ovs";
	for (size_t i = 0; t->ovs && i < sizeof(ovs) / sizeof(ovs[0]); i++)
		if (strncmp(t->name, ovs[i], strlen(ovs[i])) == 0)
			return "ovs";
	for (size_t i = 0; i < sizeof(kernel) / sizeof(kernel[0]); i++)
		if (strncmp(t->name, kernel[i], strlen(kernel[i])) == 0)
			return "kernel";
	return "other";
}

const char *rowfmt_thread_group(const struct snapshot *s, const struct snap_thread *t)
{
	if (t->subsys != SUBSYS_ENGINE)
		return subsys_name(t->subsys);
	return rowfmt_host_group(s, t);
}

const char *rowfmt_thread(const struct snapshot *s, const struct snap_thread *t, char *buf,
			  size_t len, int w)
{
	char detail[64], name[sizeof(t->name)], runq[16];
	rowfmt_detail(s, t, detail, sizeof(detail));
	/* Waiting on a run queue, % of the interval: contention, told apart from sleeping. */
	if (t->runq_delay_pct >= 0)
		snprintf(runq, sizeof(runq), "%5.1f",
			 t->runq_delay_pct > 999 ? 999 : t->runq_delay_pct);
	else
		snprintf(runq, sizeof(runq), "%5s", "-");
	snprintf(buf, len, "%7d %-15.15s %-6.6s %4d %6.1f %s %s %s", (int)t->tid,
		 rowfmt_name(t->name, name, sizeof(name)), rowfmt_thread_group(s, t), t->emu_cpu,
		 t->cpu_pct, ethread_state_name((enum ethread_state)t->state), runq, detail);
	if (w >= 0 && (size_t)w < len)
		buf[w] = '\0';
	return buf;
}

/* pmd-perf-show's figures, one PMD a line, fitting 80 columns. */
/* slp-it%: iterations that slept (pmd-perf-show's "sleep iterations"); asleep-t%:
 * wall time asleep; asl-drop: its rx drops in the interval that arrived while it slept. */
const char rowfmt_pmd_head[] =
    "PMD       rx pps drop/s  drop% asl-drop busy% slp-it% asleep-t%   os-p99  CPU%";

const char *rowfmt_pmd(const struct pmd_thread_snap *p, char *buf, size_t len)
{
	char rx[16], dr[16], da[16], os[24], name[sizeof(p->name)];
	/* A p99 in the histogram's open top bucket is a bound: ">1023us", not "1023.0us". */
	if (p->overshoot_p99_at_least)
		rowfmt_at_least_us(p->overshoot_p99_us, os, sizeof(os));
	else
		snprintf(os, sizeof(os), "%6.1fus", p->overshoot_p99_us);
	snprintf(buf, len, "%-8.8s %7s %6s %6.2f %8s %5.1f %7.1f %9.1f %8s %5.1f",
		 rowfmt_name(p->name, name, sizeof(name)), rowfmt_count(p->rx_pps, rx, sizeof(rx)),
		 rowfmt_count(p->rx_drop_pps + p->tx_drop_pps, dr, sizeof(dr)), p->drop_pct,
		 rowfmt_count((double)p->drops_while_asleep, da, sizeof(da)), p->busy_pct,
		 p->sleep_iter_pct, p->asleep_pct, os, p->cpu_pct);
	return buf;
}
