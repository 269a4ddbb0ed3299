/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rowfmt_cost.c: host took against the target, CPU ns per packet, CPU share of the time left. */
#include "tui/rowfmt_cost.h"

#include <stdio.h>

#include "core/pmd_cost.h"
#include "tui/rowfmt.h"

/* The PMDs shown one by one on the line; the rest count in "all". */
#define ROWFMT_COST_PMDS 4

/* "offered A<between>B: host took Z%", or "host took Z%" without a target; NULL when the host
 * took too little to matter. */
static const char *host_took_fmt(const struct pmd_snap *p, const char *between, char *buf,
				 size_t len)
{
	char o[16], t[16];
	if (!pmd_cost_host_took_matters(p))
		return NULL;
	/* The sources skip time the host took (docs/pmd.md), so it is why offered falls short. */
	if (p->target_pps > 0)
		snprintf(buf, len, "offered %s%s%s: host took %.0f%%",
			 rowfmt_count(p->offered_pps, o, sizeof(o)), between,
			 rowfmt_count(p->target_pps, t, sizeof(t)), p->stolen_pct);
	else
		snprintf(buf, len, "host took %.0f%%", p->stolen_pct);
	return buf;
}

const char *rowfmt_host_took(const struct pmd_snap *p, char *buf, size_t len)
{
	return host_took_fmt(p, " of ", buf, len);
}

const char *rowfmt_host_lost(const struct pmd_snap *p, char *buf, size_t len)
{
	char l[16];
	if (!(p->host_lost_pps > 0))
		return NULL;
	snprintf(buf, len, "lost to the host %s/s (%.0f%%)",
		 rowfmt_count(p->host_lost_pps, l, sizeof(l)), p->host_lost_pct);
	return buf;
}

const char *rowfmt_host_took_short(const struct pmd_snap *p, char *buf, size_t len)
{
	return host_took_fmt(p, "/", buf, len);
}

/* Append text at *at, as far as it fits. */
static void cost_text(char *buf, size_t len, size_t *at, const char *text)
{
	if (*at + 1 >= len)
		return;
	int n = snprintf(buf + *at, len - *at, "%s", text);
	*at = n > 0 && *at + (size_t)n < len ? *at + (size_t)n : len - 1;
}

/* Append sep and v with fmt, or sep and "-" when v has no figure (< 0). */
static void cost_value(char *buf, size_t len, size_t *at, const char *sep, const char *fmt,
		       double v)
{
	char one[32];
	cost_text(buf, len, at, sep);
	cost_text(buf, len, at, rowfmt_opt(v, false, fmt, one, sizeof(one)));
}

/* A share clamped to 100 shows as "100": the clamp is exact, and the line keeps its room. */
static void cost_pct(char *buf, size_t len, size_t *at, const char *sep, double v)
{
	cost_value(buf, len, at, sep, v >= 99.95 ? "%.0f" : "%.1f", v);
}

const char *rowfmt_pmd_cost_part(const struct pmd_snap *p, int part, char *buf, size_t len)
{
	size_t at = 0;
	int n = p->nthreads < ROWFMT_COST_PMDS ? p->nthreads : ROWFMT_COST_PMDS;
	if (!len || part < 0 || part >= ROWFMT_COST_PARTS)
		return NULL;
	buf[0] = '\0';
	switch (part) {
	case 0:
		cost_text(buf, len, &at, "cost: ns/pkt");
		for (int i = 0; i < n; i++)
			cost_value(buf, len, &at, i ? "/" : " ", "%.0f",
				   p->threads[i].cpu_ns_per_pkt);
		cost_value(buf, len, &at, " all ", "%.0f", p->cpu_ns_per_pkt);
		break;
	case 1:
		cost_text(buf, len, &at, "cpu-left%");
		for (int i = 0; i < n; i++)
			cost_pct(buf, len, &at, i ? "/" : " ", p->threads[i].cpu_left_pct);
		cost_pct(buf, len, &at, " all ", p->cpu_left_pct);
		break;
	default:
		cost_text(buf, len, &at, "host took");
		for (int i = 0; i < n; i++)
			cost_value(buf, len, &at, i ? "/" : " ", "%.0f%%",
				   p->threads[i].no_rate ? -1 : p->threads[i].stolen_pct);
		break;
	}
	return buf;
}
