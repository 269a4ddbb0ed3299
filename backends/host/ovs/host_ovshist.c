/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host_ovshist.c: parsing pmd-perf-show's histograms (lib/dpif-netdev-perf.c,
 * pmd_perf_format_histograms: a heading of names, NUM_BINS rows of edge/count pairs, a ">"
 * row, a dashed line). */
#include "backends/host/ovs/host_ovshist.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The next line of *p into line (cut), *p moved past it; false at the end. */
static bool hist_line(const char **p, char *line, size_t cap)
{
	if (!**p)
		return false;
	const char *nl = strchr(*p, '\n');
	size_t n = nl ? (size_t)(nl - *p) : strlen(*p);
	size_t c = n < cap - 1 ? n : cap - 1;
	memcpy(line, *p, c);
	line[c] = '\0';
	*p += n + (nl ? 1 : 0);
	return true;
}

/* The heading's names: split at two or more blanks ("max vhost qlen" is one name). */
static int hist_names(const char *s, struct host_ovs_pmd_hists *h)
{
	int n = 0;
	while (*s == ' ')
		s++;
	while (*s && n < HOST_OVS_MAX_HISTS) {
		const char *e = strstr(s, "  ");
		size_t len = e ? (size_t)(e - s) : strlen(s);
		while (len && s[len - 1] == ' ')
			len--;
		struct host_ovs_hist *x = &h->hist[n++];
		snprintf(x->name, sizeof(x->name), "%.*s", (int)len, s);
		x->nbins = 0;
		s += len;
		while (*s == ' ')
			s++;
	}
	return n;
}

/* One row of edge/count pairs into bin b of each histogram; false when it is not one. */
static bool hist_row(char *s, struct host_ovs_pmd_hists *h)
{
	char *save = NULL;
	int k = 0;
	for (char *t = strtok_r(s, " \t", &save); t; t = strtok_r(NULL, " \t", &save), k++) {
		int j = k / 2;
		if (j >= h->nhists)
			return false;
		struct host_ovs_hist *x = &h->hist[j];
		char *end;
		uint64_t v = strcmp(t, ">") == 0 ? UINT64_MAX : strtoull(t, &end, 10);
		if (v != UINT64_MAX && *end)
			return false;
		if (x->nbins >= HOST_OVS_HIST_BINS)
			return false;
		if (k % 2 == 0) {
			x->edge[x->nbins] = v;
		} else {
			x->count[x->nbins] = v;
			x->nbins++;
		}
	}
	return k == 2 * h->nhists;
}

int host_ovs_parse_hists(const char *text, struct host_ovs_hists *out)
{
	char line[1024];
	const char *p = text;
	int core = -1;
	memset(out, 0, sizeof(*out));
	while (hist_line(&p, line, sizeof(line))) {
		int numa, c;
		if (sscanf(line, "pmd thread numa_id %d core_id %d:", &numa, &c) == 2) {
			core = c;
			continue;
		}
		if (strcmp(line, "Histograms") != 0 || out->npmds >= HOST_OVS_MAX_HIST_PMDS)
			continue;
		struct host_ovs_pmd_hists *h = &out->pmd[out->npmds];
		h->core_id = core;
		if (!hist_line(&p, line, sizeof(line)) || (h->nhists = hist_names(line, h)) == 0)
			return -1;
		while (hist_line(&p, line, sizeof(line)) && strncmp(line, "---", 3) != 0)
			if (!hist_row(line, h))
				return -1;
		out->npmds++;
	}
	return 0;
}
