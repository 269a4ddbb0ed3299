/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rowfmt_host.c: the pmd view's text on the host (OVS): what the host lacks is "-", never 0. */
#include "tui/rowfmt_host.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "tui/rowfmt.h"

bool rowfmt_host_pmd(const struct snapshot *s)
{
	return s->has_host && s->has_pmd;
}

const char *rowfmt_host_no_pmd(const struct snapshot *s, char *buf, size_t len)
{
	const struct host_snap *h = &s->host;
	if (h->ovs_error[0])
		snprintf(buf, len, "Open vSwitch: %s", h->ovs_error);
	else
		snprintf(buf, len, "Open vSwitch: no pmd-perf-show yet%s%s",
			 h->ovs_socket[0] ? " from " : "", h->ovs_socket);
	return buf;
}

bool rowfmt_host_maxsleep_ovsdb(const struct snapshot *s, char *buf, size_t len)
{
	char applied[32];
	if (!s->has_host || !s->host.ovs_maxsleep_value[0] || s->knob_absent[K_PMD_MAXSLEEP_US])
		return false;
	snprintf(applied, sizeof(applied), "%" PRId64, s->knobs[K_PMD_MAXSLEEP_US]);
	if (strcmp(applied, s->host.ovs_maxsleep_value) == 0)
		return false;
	snprintf(buf, len, "%s", s->host.ovs_maxsleep_value);
	return true;
}

const char *rowfmt_host_summary(const struct snapshot *s, char *buf, size_t len)
{
	const struct pmd_snap *p = &s->pmd;
	char a[16], ms[200], sl[32], od[140];
	bool rates = false;
	for (int i = 0; i < p->nthreads; i++)
		rates |= !p->threads[i].no_rate;
	snprintf(a, sizeof(a), "%" PRId64, p->maxsleep_us);
	if (p->maxsleep_us >= 0 && rowfmt_host_maxsleep_ovsdb(s, od, sizeof(od)))
		/* ovsdb's text is not what OVS applies ("99999": 10000; a list 3.1 cannot read:
		 * 0): both, the applied value last (docs/pmd.md "Configuration"). */
		snprintf(ms, sizeof(ms), "ovsdb %s -> applied %" PRId64 "us", od, p->maxsleep_us);
	else
		snprintf(ms, sizeof(ms), "%s%s (%s%s%s%s)", p->maxsleep_us < 0 ? "-" : a,
			 p->maxsleep_us < 0 ? "" : "us",
			 s->host.ovs_maxsleep_source ? s->host.ovs_maxsleep_source : "?",
			 s->host.ovs_maxsleep_value[0] ? " \"" : "", s->host.ovs_maxsleep_value,
			 s->host.ovs_maxsleep_value[0] ? "\"" : "");
	snprintf(sl, sizeof(sl), p->timer_slack_ns < 0 ? "-" : "%" PRId64 "ns", p->timer_slack_ns);
	snprintf(buf, len, "offered %s pps  maxsleep %s  slack %s%s%s",
		 rates ? rowfmt_count(p->offered_pps, a, sizeof(a)) : "-", ms, sl,
		 s->host.ovsdb_error[0] ? "  ovsdb: " : "", s->host.ovsdb_error);
	return buf;
}

const char rowfmt_host_pmd_head[] =
    "PMD              rx pps  tx pps busy% idle% sleep% avg-sleep  iters  CPU%";

const char *rowfmt_host_pmd_row(const struct pmd_thread_snap *p, char *buf, size_t len)
{
	char name[sizeof(p->name)], rx[16], tx[16], bu[16], id[16], sl[16], av[24], it[16], cpu[16];
	bool n = p->no_rate;
	snprintf(buf, len, "%-15s %7s %7s %5s %5s %6s %9s %6s %5s",
		 rowfmt_name(p->name, name, sizeof(name)),
		 n ? "-" : rowfmt_count(p->rx_pps, rx, sizeof(rx)),
		 n ? "-" : rowfmt_count(p->tx_pps, tx, sizeof(tx)),
		 rowfmt_opt(p->busy_pct, n, "%.1f", bu, sizeof(bu)),
		 rowfmt_opt(p->idle_pct, n, "%.1f", id, sizeof(id)),
		 rowfmt_opt(p->sleep_iter_pct, n, "%.1f", sl, sizeof(sl)),
		 rowfmt_opt(p->sleep_us_avg, n, "%.1fus", av, sizeof(av)),
		 n ? "-" : rowfmt_count((double)p->iterations, it, sizeof(it)),
		 rowfmt_opt(p->cpu_pct, n, "%.1f", cpu, sizeof(cpu)));
	return buf;
}

static const char *host_hits_row(const struct host_ovs_pmd_snap *x, char *buf, size_t len)
{
	char name[sizeof(x->name)], a[16], b[16], c[16], d[16], e[16], f[16], g[16];
	snprintf(buf, len, "%-16s %7s %5s %5s %6s %6s %8s %7s",
		 rowfmt_name(x->name, name, sizeof(name)),
		 rowfmt_opt(x->simple_pct, false, "%.1f", a, sizeof(a)),
		 rowfmt_opt(x->emc_pct, false, "%.1f", b, sizeof(b)),
		 rowfmt_opt(x->smc_pct, false, "%.1f", c, sizeof(c)),
		 rowfmt_opt(x->megaflow_pct, false, "%.1f", d, sizeof(d)),
		 rowfmt_opt(x->phwol_pct, false, "%.1f", e, sizeof(e)),
		 rowfmt_opt(x->upcalls_per_s, false, "%.1f", f, sizeof(f)),
		 rowfmt_opt(x->lost_upcalls_per_s, false, "%.1f", g, sizeof(g)));
	return buf;
}

/* An interface's drop lines: one per counter it has that moved or is not 0, else one. */
static int host_drop_lines(const struct host_ovs_iface_snap *f)
{
	int n = 0;
	for (int k = 0; k < HOST_IFACE_NDROPS; k++)
		n += f->drops[k] > 0 || f->drop_per_s[k] > 0;
	return n ? n : 1;
}

static const char *host_drop_line(const struct host_ovs_iface_snap *f, int j, char *buf, size_t len)
{
	char a[16], b[16];
	int have = 0;
	for (int k = 0; k < HOST_IFACE_NDROPS; k++) {
		have += f->drops[k] >= 0;
		if (!(f->drops[k] > 0 || f->drop_per_s[k] > 0) || j--)
			continue;
		snprintf(buf, len, "%-16.16s %-26s %9s %7s", f->name, host_iface_drop_names[k],
			 rowfmt_opt((double)f->drops[k], false, "%.0f", a, sizeof(a)),
			 rowfmt_opt(f->drop_per_s[k], false, "%.1f", b, sizeof(b)));
		return buf;
	}
	snprintf(buf, len, "%-16.16s no drops (%d of its counters, all 0)", f->name, have);
	return buf;
}

/* "a" or "a-b": a count known within a histogram bin. */
static const char *host_range(double lo, double hi, const char *fmt, char *buf, size_t len)
{
	char a[24], b[24];
	if (lo < 0 || hi < 0)
		return snprintf(buf, len, "-"), buf;
	snprintf(a, sizeof(a), fmt, lo);
	snprintf(b, sizeof(b), fmt, hi);
	if (strcmp(a, b) == 0)
		snprintf(buf, len, "%s", a);
	else
		snprintf(buf, len, "%s-%s", a, b);
	return buf;
}

static const char *host_susp_row(const struct host_ovs_pmd_snap *x, char *buf, size_t len)
{
	char name[sizeof(x->name)], n[48], r[48], t[24];
	rowfmt_name(x->name, name, sizeof(name));
	if (x->susp_min < 0) {
		snprintf(buf, len, "%-15s %12s  (%s)", name, "-", x->susp_why);
		return buf;
	}
	snprintf(t, sizeof(t), x->tsc_hz > 0 ? "%.3fGHz" : "-", x->tsc_hz / 1e9);
	snprintf(buf, len, "%-15s %30s %9s   %s", name,
		 host_range((double)x->susp_min, (double)x->susp_max, "%.0f", n, sizeof(n)),
		 host_range(x->susp_min_per_s, x->susp_max_per_s, "%.1f", r, sizeof(r)), t);
	return buf;
}

const char rowfmt_host_hist_head[] = "pmd-perf-show histograms";
const char rowfmt_host_hist_none[] =
    "none: OVS prints them with other_config:pmd-perf-metrics=true";

const char *rowfmt_host_hist_title(const struct host_ovs_pmd_snap *x, const struct host_ovs_hist *g,
				   char *buf, size_t len)
{
	char name[sizeof(x->name)], med[40], n[16];
	uint64_t total = 0, run = 0;
	rowfmt_name(x->name, name, sizeof(name));
	if (!g) {
		snprintf(buf, len, "%s  -: no histograms in its report", name);
		return buf;
	}
	for (int b = 0; b < g->nbins; b++)
		total += g->count[b];
	if (!total) {
		snprintf(buf, len, "%s %s  -: nothing counted since the stats were cleared", name,
			 g->name);
		return buf;
	}
	for (int b = 0; b < g->nbins; b++) {
		run += g->count[b];
		if (run * 2 >= total) {
			if (g->edge[b] == UINT64_MAX)
				snprintf(med, sizeof(med), "p50 > %" PRIu64,
					 b ? g->edge[b - 1] : 0);
			else
				snprintf(med, sizeof(med), "p50 <= %" PRIu64, g->edge[b]);
			break;
		}
	}
	snprintf(buf, len, "%s %s  n %s  %s", name, g->name,
		 rowfmt_count((double)total, n, sizeof(n)), med);
	return buf;
}

/* A PMD's pmd-stats-show row. */
static const char *host_stats_row(const struct host_ovs_pmd_snap *x, char *buf, size_t len)
{
	char a[16], b[16], c[16], d[16], e[16], f[16], g[16], k[16];
	char name[sizeof(x->name)];
	snprintf(buf, len, "%-15s %9s %8s %8s %8s %4s %9s %8s %4s %5s",
		 rowfmt_name(x->name, name, sizeof(name)),
		 rowfmt_count((double)x->emc_hits, a, sizeof(a)),
		 rowfmt_count((double)x->smc_hits, b, sizeof(b)),
		 rowfmt_count((double)x->megaflow_hits, c, sizeof(c)),
		 rowfmt_count((double)x->upcalls, d, sizeof(d)),
		 rowfmt_count((double)x->lost_upcalls, e, sizeof(e)),
		 rowfmt_opt(x->cycles_per_pkt, false, "%.0f", f, sizeof(f)),
		 rowfmt_opt(x->upcalls_per_s, false, "%.1f", g, sizeof(g)),
		 x->isolated < 0 ? "-"
		 : x->isolated	 ? "yes"
				 : "no",
		 rowfmt_opt(x->overhead_pct, false, "%.0f", k, sizeof(k)));
	return buf;
}

/* An rx queue's pmd-rxq-show row. */
static const char *host_rxq_row(const struct host_ovs_rxq_snap *q, char *buf, size_t len)
{
	char a[16];
	snprintf(buf, len, "                 %-16.16s %5d  %8d  %6s%s", q->port, q->queue,
		 q->core_id, rowfmt_opt(q->usage_pct, false, "%.0f", a, sizeof(a)),
		 q->enabled ? "" : "  (disabled)");
	return buf;
}

/* An interface's ovsdb row. */
static const char *host_iface_row(const struct host_ovs_iface_snap *f2, char *buf, size_t len)
{
	char a[16], b[16], c[16], d[16];
	snprintf(buf, len, "%-16.16s %10s %10s %9s %9s", f2->name,
		 rowfmt_opt((double)f2->rx_dropped, false, "%.0f", a, sizeof(a)),
		 rowfmt_opt((double)f2->tx_dropped, false, "%.0f", b, sizeof(b)),
		 rowfmt_opt((double)f2->rx_errors, false, "%.0f", c, sizeof(c)),
		 rowfmt_opt((double)f2->tx_errors, false, "%.0f", d, sizeof(d)));
	return buf;
}

/* The sections after the PMD table, each a heading and rows: what rowfmt_host_nlines counts,
 * rowfmt_host_is_head marks and rowfmt_host_line writes. Suspicious iterations' thresholds are
 * OVS's defaults, in docs/figures.md: a heading holds only labels. */
enum { SEC_STATS, SEC_HITS, SEC_RXQ, SEC_IFACE, SEC_DROPS, SEC_SUSP, NSEC };
static const char *const host_heads[NSEC] = {
    "pmd-stats-show   emc hits smc hits megaflow  upcalls lost   cyc/pkt upcall/s isol ovhd%",
    /* each lookup's share of the interval's datapath passes */
    "hits % of passes simple%  emc%  smc% mflow% phwol% upcall/s  lost/s",
    "pmd-rxq-show     port             queue  PMD core  usage%",
    "ovsdb Interface  rx dropped tx dropped rx errors tx errors",
    "interface drops  counter                        total   per s",
    "suspicious iters  since clear     per s   TSC",
};

/* Line i as its section and row (-1: the heading); false past the last. */
static bool host_where(const struct host_snap *h, int i, int *sec, int *row)
{
	int drops = 0;
	for (int k = 0; k < h->novs_ifaces; k++)
		drops += host_drop_lines(&h->ovs_ifaces[k]);
	const int len[NSEC] = {h->novs_pmds, h->novs_pmds + (h->novs_pmds > 0),
			       h->novs_rxqs, h->novs_ifaces,
			       drops,	     h->novs_pmds};
	for (*sec = 0; *sec < NSEC; i -= 1 + len[(*sec)++])
		if (i <= len[*sec]) {
			*row = i - 1;
			return true;
		}
	return false;
}

int rowfmt_host_nlines(const struct snapshot *s)
{
	int n = 0, sec, row;
	while (host_where(&s->host, n, &sec, &row))
		n++;
	return n;
}

bool rowfmt_host_is_head(const struct snapshot *s, int i)
{
	int sec, row;
	return host_where(&s->host, i, &sec, &row) && row < 0;
}

const char *rowfmt_host_line(const struct snapshot *s, int i, char *buf, size_t len)
{
	const struct host_snap *h = &s->host;
	int sec, row;
	buf[0] = '\0';
	if (!host_where(h, i, &sec, &row))
		return buf;
	if (row < 0) {
		bool ovsdb_err = sec == SEC_IFACE && !h->ovsdb;
		snprintf(buf, len, "%s%s%s", host_heads[sec], ovsdb_err ? "  (ovsdb: " : "",
			 ovsdb_err ? h->ovsdb_error : "");
		return buf;
	}
	switch (sec) {
	case SEC_STATS:
		return host_stats_row(&h->ovs_pmds[row], buf, len);
	case SEC_HITS:
		return host_hits_row(row < h->novs_pmds ? &h->ovs_pmds[row] : &h->ovs_total, buf,
				     len);
	case SEC_RXQ:
		return host_rxq_row(&h->ovs_rxqs[row], buf, len);
	case SEC_IFACE:
		return host_iface_row(&h->ovs_ifaces[row], buf, len);
	case SEC_DROPS:
		for (int j = 0; j < h->novs_ifaces; j++) {
			int n = host_drop_lines(&h->ovs_ifaces[j]);
			if (row < n)
				return host_drop_line(&h->ovs_ifaces[j], row, buf, len);
			row -= n;
		}
		return buf;
	default:
		return host_susp_row(&h->ovs_pmds[row], buf, len);
	}
}
