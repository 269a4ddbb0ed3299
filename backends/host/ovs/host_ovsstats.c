/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host_ovsstats.c: pure parsers for pmd-stats-show, pmd-rxq-show and max-sleep value lists. */
#include "backends/host/ovs/host_ovsstats.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/limits.h"

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
			cur->phwol_hits = v, cur->has_phwol = true;
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

/* The entry separators of OVS's key/value parser: commas and blanks. */
#define OVS_SLEEP_SEPS ", \t\n"

/* OVS's str_to_ullong: strtoull over the whole token, base 10 (a sign is taken, "-1" wraps). */
static bool ovs_str_to_ullong(const char *s, unsigned long long *v)
{
	char *tail;
	errno = 0;
	*v = strtoull(s, &tail, 10);
	return errno != EINVAL && errno != ERANGE && tail != s && *tail == '\0';
}

static int ovs_sleep_clamp(unsigned long long v)
{
	return v > PMD_MAX_SLEEP_US ? PMD_MAX_SLEEP_US : (int)v;
}

int host_ovs_maxsleep_applied(const char *val, bool list)
{
	unsigned long long v;
	if (!val)
		return 0;
	if (!list)
		return ovs_str_to_ullong(val, &v) ? ovs_sleep_clamp(v) : 0;
	int def = 0;
	char tok[64];
	for (const char *p = val; *p;) {
		size_t n = strcspn(p, OVS_SLEEP_SEPS);
		if (n > 0 && n < sizeof(tok)) {
			memcpy(tok, p, n);
			tok[n] = '\0';
			/* "core:us" is a PMD's own entry, not the default; a bad one is skipped. */
			if (!strpbrk(tok, ":=") && ovs_str_to_ullong(tok, &v))
				def = ovs_sleep_clamp(v);
		}
		p += n;
		p += strspn(p, OVS_SLEEP_SEPS);
	}
	return def;
}

int host_ovs_maxsleep_replace(const char *old, int us, char *out, size_t outlen)
{
	int n = snprintf(out, outlen, "%d", us);
	if (n < 0 || (size_t)n >= outlen)
		return -1;
	size_t off = (size_t)n;
	/* Tokens as host_ovs_maxsleep_applied() reads them: every per-PMD entry kept, every
	 * default dropped (a later one would win over the new value). */
	for (const char *p = old ? old : ""; *p;) {
		size_t len = strcspn(p, OVS_SLEEP_SEPS);
		if (len > 0) {
			if (memchr(p, ':', len) || memchr(p, '=', len)) {
				if (off + 1 + len >= outlen)
					return -1;
				out[off++] = ',';
				memcpy(out + off, p, len);
				off += len;
				out[off] = '\0';
			} else if (*p < '0' || *p > '9') {
				return -1; /* neither a number nor core:number */
			}
		}
		p += len;
		p += strspn(p, OVS_SLEEP_SEPS);
	}
	return 0;
}
