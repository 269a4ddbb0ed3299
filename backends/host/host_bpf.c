/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host_bpf.c: the eBPF sleep probe through its module tunetop-bpf.so (backends/host/bpf_module.h),
 * dlopen()ed when the probe is turned on; one map read per PMD per sample. Without HAVE_BPF
 * (no module built) it says why the probe is absent. */
#include "backends/host/host_bpf.h"

#include <stdio.h>
#include <string.h>

#include "core/snapshot.h"

#ifndef HAVE_BPF
#ifndef TT_BPF_MISSING
#define TT_BPF_MISSING "HAVE_BPF=0"
#endif

struct host_bpf *host_bpf_open(char *why, size_t len)
{
	snprintf(why, len, "built without eBPF (%s)", TT_BPF_MISSING);
	return NULL;
}
void host_bpf_close(struct host_bpf *b)
{
	(void)b;
}
int host_bpf_enable(struct host_bpf *b, bool on, char *err, size_t errlen)
{
	(void)b;
	if (!on)
		return 0;
	snprintf(err, errlen, "pmd.sleep_probe: built without eBPF (%s)", TT_BPF_MISSING);
	return -1;
}
bool host_bpf_enabled(const struct host_bpf *b)
{
	(void)b;
	return false;
}
bool host_bpf_every_syscall(const struct host_bpf *b)
{
	(void)b;
	return false;
}
const char *host_bpf_hook(const struct host_bpf *b)
{
	(void)b;
	return "";
}

#else /* HAVE_BPF */

#include <stdlib.h>
#include <unistd.h>

#include "backends/host/bpf_module.h"
#include "core/clock.h"
#include "core/module.h"
#include "core/xalloc.h"

#define HOST_BPF_MAX PMD_SNAP_MAX

struct host_bpf_prev {
	int tid;
	struct sleep_probe_hist h;
};

struct host_bpf {
	struct bpf_probe *probe;
	bool on;
	uint64_t prev_run_ns;
	int nprev;
	struct host_bpf_prev *prev; /* HOST_BPF_MAX, the tids watched now */
	struct sleep_probe_hist *cur; /* scratch for one map read (2 KiB: off the stack) */
	uint64_t *delta; /* HIST_LOG2_BUCKETS */
};

/* Loaded at the first probe and kept for the process (libbpf's state is process-wide); only
 * the sampler thread opens probes, so no lock. */
static struct mod_spec hb_spec =
    MOD_SPEC("eBPF", BPF_MODULE_FILE, BPF_MODULE_SYMBOL, BPF_MODULE_ABI, struct bpf_module);
static const struct bpf_module *hb_mod;

/* CapEff has bit cap (from /proc/self/status). */
static bool host_bpf_has_cap(int cap)
{
	FILE *f = fopen("/proc/self/status", "re");
	char line[128];
	unsigned long long eff = 0;
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &eff) == 1)
			break;
	fclose(f);
	return (eff >> cap) & 1;
}

static void *hb_xcalloc(size_t n, size_t size)
{
	return xcalloc(n, size);
}

struct host_bpf *host_bpf_open(char *why, size_t len)
{
	/* CAP_BPF is 39 (5.8+); before it, loading tracing programs took CAP_SYS_ADMIN (21). */
	if (!host_bpf_has_cap(39) && !host_bpf_has_cap(21)) {
		snprintf(why, len, "%s: no CAP_BPF (the eBPF sleep probe needs root)",
			 geteuid() ? "not root" : "root without capabilities");
		return NULL;
	}
	if (access("/sys/kernel/btf/vmlinux", R_OK) != 0) {
		snprintf(why, len,
			 "no BTF: /sys/kernel/btf/vmlinux missing (CONFIG_DEBUG_INFO_BTF)");
		return NULL;
	}
	if (!(hb_mod = mod_load(&hb_spec, why, len)))
		return NULL;
	static const struct bpf_mod_host host = {.xcalloc = hb_xcalloc};
	/* TUNETOP_BPF_HOOK=fentry|kprobe|sched|tp|raw: that hook alone (bench/probe_tax.sh). */
	struct bpf_probe *p = hb_mod->open(&host, getenv("TUNETOP_BPF_HOOK"), why, len);
	if (!p)
		return NULL;
	struct host_bpf *b = xcalloc(1, sizeof(*b));
	b->probe = p;
	b->on = true; /* the module attaches as it loads */
	b->prev = xcalloc(HOST_BPF_MAX, sizeof(*b->prev));
	b->cur = xcalloc(1, sizeof(*b->cur));
	b->delta = xcalloc(HIST_LOG2_BUCKETS, sizeof(*b->delta));
	return b;
}

void host_bpf_close(struct host_bpf *b)
{
	if (!b)
		return;
	hb_mod->close(b->probe);
	free(b->prev);
	free(b->cur);
	free(b->delta);
	free(b);
}

int host_bpf_enable(struct host_bpf *b, bool on, char *err, size_t errlen)
{
	if (on == b->on)
		return 0;
	if (!on) {
		hb_mod->detach(b->probe);
		b->on = false;
		return 0;
	}
	char why[256];
	if (hb_mod->attach(b->probe, why, sizeof(why)) != 0) {
		snprintf(err, errlen, "pmd.sleep_probe: %s", why);
		return -1;
	}
	b->on = true;
	return 0;
}

bool host_bpf_enabled(const struct host_bpf *b)
{
	return b && b->on;
}

bool host_bpf_every_syscall(const struct host_bpf *b)
{
	return b && hb_mod->every_syscall(b->probe);
}

const char *host_bpf_hook(const struct host_bpf *b)
{
	return b ? hb_mod->hook(b->probe) : "";
}

/* Watch exactly tids[n]: new ones get a zeroed entry, vanished ones are dropped. */
static void host_bpf_watch(struct host_bpf *b, const int *tids, int n)
{
	struct host_bpf_prev *keep = xcalloc(HOST_BPF_MAX, sizeof(*keep));
	int nkeep = 0;
	for (int i = 0; i < n && nkeep < HOST_BPF_MAX; i++) {
		int j = 0;
		while (j < b->nprev && b->prev[j].tid != tids[i])
			j++;
		if (j < b->nprev) {
			keep[nkeep++] = b->prev[j];
			b->prev[j].tid = 0; /* taken */
			continue;
		}
		struct host_bpf_prev *k = &keep[nkeep++];
		memset(k, 0, sizeof(*k));
		k->tid = tids[i];
		hb_mod->watch(b->probe, (uint32_t)tids[i], &k->h);
	}
	for (int j = 0; j < b->nprev; j++)
		if (b->prev[j].tid)
			hb_mod->unwatch(b->probe, (uint32_t)b->prev[j].tid);
	free(b->prev);
	b->prev = keep;
	b->nprev = nkeep;
}

/* Fill one PMD row from its entry's change since the previous reading. */
static uint64_t host_bpf_row(struct host_bpf *b, struct host_bpf_prev *pv,
			     struct pmd_thread_snap *t)
{
	struct sleep_probe_hist *cur = b->cur;
	uint64_t *d = b->delta;
	if (hb_mod->read(b->probe, (uint32_t)pv->tid, cur) != 0)
		return 0;
	for (unsigned i = 0; i < HIST_LOG2_BUCKETS; i++)
		d[i] = cur->buckets[i] >= pv->h.buckets[i] ? cur->buckets[i] - pv->h.buckets[i] : 0;
	t->bpf = true;
	t->bpf_sleeps = cur->sleeps >= pv->h.sleeps ? cur->sleeps - pv->h.sleeps : 0;
	t->bpf_overshoot_p50_us = hist_log2_quantile(d, HIST_LOG2_BUCKETS, 0.50) / 1000.0;
	t->bpf_overshoot_p99_us = hist_log2_quantile(d, HIST_LOG2_BUCKETS, 0.99) / 1000.0;
	memset(t->bpf_hist, 0, sizeof(t->bpf_hist));
	for (unsigned i = 0; i < HIST_LOG2_BUCKETS; i++) {
		if (!d[i])
			continue;
		/* A fine bucket goes where its lower bound does: [0,1) [1,2) [2,4) ... us. */
		uint64_t us = hist_log2_lo(i) / 1000;
		unsigned k = 0;
		while (us && k + 1 < PMD_SNAP_OS_HIST) {
			us >>= 1;
			k++;
		}
		t->bpf_hist[k] += d[i];
	}
	pv->h = *cur;
	return t->bpf_sleeps;
}

bool host_bpf_pmdsec(struct host_bpf *b, const char *why_absent, struct snapshot *snap,
		     const pid_t *row_tid_in)
{
	struct pmd_snap *p = &snap->pmd;
	int tids[HOST_BPF_MAX], row_tid[PMD_SNAP_MAX], n = 0;

	p->bpf_probe = host_bpf_enabled(b);
	p->bpf_cost_ns_per_sleep = -1;
	snprintf(p->bpf_probe_hook, sizeof(p->bpf_probe_hook), "%s",
		 p->bpf_probe ? host_bpf_hook(b) : "");
	snprintf(p->bpf_probe_error, sizeof(p->bpf_probe_error), "%s",
		 !b	 ? why_absent
		 : b->on ? ""
			 : "off (pmd.sleep_probe=off)");
	for (int i = 0; i < p->nthreads; i++) {
		struct pmd_thread_snap *t = &p->threads[i];
		t->bpf = false;
		t->bpf_sleeps = 0;
		t->bpf_overshoot_p50_us = t->bpf_overshoot_p99_us = 0;
		memset(t->bpf_hist, 0, sizeof(t->bpf_hist));
		row_tid[i] = row_tid_in ? (int)row_tid_in[i] : 0;
		for (size_t k = 0; !row_tid_in && k < snap->nthreads; k++)
			if (strcmp(snap->threads[k].name, t->name) == 0)
				row_tid[i] = (int)snap->threads[k].tid;
		if (row_tid[i] && n < HOST_BPF_MAX)
			tids[n++] = row_tid[i];
	}
	if (!p->bpf_probe)
		return false;
	host_bpf_watch(b, tids, n);
	uint64_t sleeps = 0;
	for (int i = 0; i < p->nthreads; i++)
		for (int j = 0; row_tid[i] && j < b->nprev; j++)
			if (b->prev[j].tid == row_tid[i])
				sleeps += host_bpf_row(b, &b->prev[j], &p->threads[i]);
	uint64_t run = hb_mod->run_ns(b->probe);
	if (run && b->prev_run_ns && sleeps && run >= b->prev_run_ns)
		p->bpf_cost_ns_per_sleep = (double)(run - b->prev_run_ns) / (double)sleeps;
	b->prev_run_ns = run;
	return true;
}

#endif /* HAVE_BPF */

#ifndef HAVE_BPF
bool host_bpf_pmdsec(struct host_bpf *b, const char *why_absent, struct snapshot *snap,
		     const pid_t *row_tid_in)
{
	struct pmd_snap *p = &snap->pmd;
	(void)b;
	(void)row_tid_in;
	p->bpf_probe = false;
	p->bpf_cost_ns_per_sleep = -1;
	p->bpf_probe_hook[0] = '\0';
	snprintf(p->bpf_probe_error, sizeof(p->bpf_probe_error), "%s", why_absent);
	for (int i = 0; i < p->nthreads; i++) {
		p->threads[i].bpf = false;
		p->threads[i].bpf_sleeps = 0;
		p->threads[i].bpf_overshoot_p50_us = p->threads[i].bpf_overshoot_p99_us = 0;
		memset(p->threads[i].bpf_hist, 0, sizeof(p->threads[i].bpf_hist));
	}
	return false;
}
#endif
