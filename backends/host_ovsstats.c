/* host_ovsstats.c: pure parsers for pmd-stats-show, pmd-rxq-show and max-sleep value lists. */
#include "backends/host_ovsstats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The line at p into line (cut to cap - 1), *s past its blanks; returns the next line. */
static const char *st_line(const char *p, char *line, size_t cap, char **s)
{
	const char *nl = strchr(p, '\n');
	size_t n = nl ? (size_t)(nl - p) : strlen(p);
	size_t c = n < cap - 1 ? n : cap - 1;
	memcpy(line, p, c);
	line[c] = '\0';
	*s = line;
	while (**s == ' ' || **s == '\t')
		(*s)++;
	return p + n + (nl ? 1 : 0);
}

/* "label: N" (N unsigned) at the start of s. */
static bool st_num(const char *s, const char *label, uint64_t *v)
{
	size_t l = strlen(label);
	if (strncmp(s, label, l) != 0)
		return false;
	const char *p = s + l;
	while (*p == ' ')
		p++;
	if (*p < '0' || *p > '9')
		return false;
	char *end;
	unsigned long long x = strtoull(p, &end, 10);
	*v = (uint64_t)x;
	return true;
}

int host_ovs_parse_stats(const char *text, struct host_ovs_stats *out)
{
	char line[256];
	const char *p = text;
	struct host_pmd_stats *cur = NULL;
	bool seen = false, idle = false, proc = false;

	memset(out, 0, sizeof(*out));
	while (*p) {
		char *s;
		int numa, core;
		uint64_t v;
		p = st_line(p, line, sizeof(line), &s);
		if (sscanf(s, "pmd thread numa_id %d core_id %d:", &numa, &core) == 2) {
			cur = NULL;
			idle = proc = false;
			seen = true;
			if (out->npmds < HOST_OVS_MAX_PMDS) {
				cur = &out->pmd[out->npmds++];
				cur->numa_id = numa;
				cur->core_id = core;
			}
			continue;
		}
		if (strncmp(s, "main thread:", 12) == 0) {
			cur = NULL;
			seen = true;
			continue;
		}
		if (!cur)
			continue;
		if (st_num(s, "packets received:", &v))
			cur->packets = v;
		else if (st_num(s, "packet recirculations:", &v))
			cur->recirc = v;
		else if (st_num(s, "phwol hits:", &v))
			cur->phwol_hits = v;
		else if (st_num(s, "mfex opt hits:", &v))
			cur->mfex_hits = v;
		else if (st_num(s, "simple match hits:", &v))
			cur->simple_hits = v;
		else if (st_num(s, "emc hits:", &v))
			cur->emc_hits = v;
		else if (st_num(s, "smc hits:", &v))
			cur->smc_hits = v;
		else if (st_num(s, "megaflow hits:", &v))
			cur->megaflow_hits = v;
		else if (st_num(s, "miss with success upcall:", &v))
			cur->upcalls = v;
		else if (st_num(s, "miss with failed upcall:", &v))
			cur->lost_upcalls = v;
		else if (st_num(s, "idle cycles:", &v))
			cur->idle_cycles = v, idle = true;
		else if (st_num(s, "processing cycles:", &v))
			cur->proc_cycles = v, proc = true;
		cur->has_cycles = idle && proc;
	}
	return seen ? 0 : -1;
}

/* "NOT AVAIL" or "N %": -1 or N. */
static int st_pct(const char *s)
{
	while (*s == ' ')
		s++;
	if (*s < '0' || *s > '9')
		return -1;
	long v = strtol(s, NULL, 10);
	return v < 0 ? 0 : v > 100 ? 100 : (int)v;
}

int host_ovs_parse_rxqs(const char *text, struct host_ovs_rxqs *out)
{
	char line[256];
	const char *p = text;
	int cur = -1;
	bool seen = false;

	memset(out, 0, sizeof(*out));
	while (*p) {
		char *s;
		int numa, core;
		p = st_line(p, line, sizeof(line), &s);
		if (sscanf(s, "pmd thread numa_id %d core_id %d:", &numa, &core) == 2) {
			seen = true;
			cur = -1;
			if (out->npmds < HOST_OVS_MAX_PMDS) {
				cur = out->npmds++;
				out->pmd[cur].numa_id = numa;
				out->pmd[cur].core_id = core;
				out->pmd[cur].overhead_pct = -1;
			}
			continue;
		}
		if (cur < 0)
			continue;
		if (strncmp(s, "isolated", 8) == 0) {
			out->pmd[cur].isolated = strstr(s, "true") != NULL;
		} else if (strncmp(s, "overhead:", 9) == 0) {
			out->pmd[cur].overhead_pct = st_pct(s + 9);
		} else if (strncmp(s, "port:", 5) == 0 && out->nrxqs < HOST_OVS_MAX_RXQS) {
			struct host_ovs_rxq *q = &out->rxq[out->nrxqs];
			char port[sizeof(q->port)];
			int queue;
			if (sscanf(s, "port: %31s queue-id: %d", port, &queue) != 2)
				continue;
			memcpy(q->port, port, sizeof(q->port));
			q->queue = queue;
			q->core_id = out->pmd[cur].core_id;
			q->enabled = strstr(s, "(enabled)") != NULL;
			const char *u = strstr(s, "pmd usage:");
			q->usage_pct = u ? st_pct(u + 10) : -1;
			out->nrxqs++;
		}
	}
	return seen || strstr(text, "pmd usage") || text[0] == '\0' ? 0 : -1;
}

int host_ovs_maxsleep_default(const char *val)
{
	const char *p = val;
	if (!val)
		return -1;
	while (*p) {
		const char *e = strchr(p, ',');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		char tok[32];
		if (n < sizeof(tok)) {
			memcpy(tok, p, n);
			tok[n] = '\0';
			char *end;
			const char *t = tok;
			while (*t == ' ')
				t++;
			if (!strchr(t, ':') && *t >= '0' && *t <= '9') {
				long v = strtol(t, &end, 10);
				while (*end == ' ')
					end++;
				if (*end == '\0' && v >= 0 && v <= 1000000000L)
					return (int)v;
			}
		}
		p += n + (e ? 1 : 0);
	}
	return -1;
}

int host_ovs_maxsleep_replace(const char *old, int us, char *out, size_t outlen)
{
	size_t off = 0;
	int n = snprintf(out, outlen, "%d", us);
	if (n < 0 || (size_t)n >= outlen)
		return -1;
	off = (size_t)n;
	const char *p = old ? old : "";
	while (*p) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		const char *t = p;
		while (t < p + len && *t == ' ')
			t++;
		if (memchr(t, ':', (size_t)(p + len - t))) { /* a per-PMD entry: kept */
			if (off + 1 + (size_t)(p + len - t) >= outlen)
				return -1;
			out[off++] = ',';
			memcpy(out + off, t, (size_t)(p + len - t));
			off += (size_t)(p + len - t);
			out[off] = '\0';
		} else if (t < p + len && (*t < '0' || *t > '9')) {
			return -1; /* neither a number nor core:number */
		}
		p += len + (e ? 1 : 0);
	}
	return 0;
}
