/* host_bpf.c: loading, attaching and reading the eBPF sleep probe (one map read per PMD per
 * sample); without HAVE_BPF a stub that says why it is absent. */
#include "backends/host_bpf.h"

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

#else /* HAVE_BPF */

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <sleep_probe.skel.h>

#include "backends/bpf/sleep_probe.h"
#include "core/clock.h"
#include "core/xalloc.h"

#define HOST_BPF_MAX PMD_SNAP_MAX

struct host_bpf_prev {
	int tid;
	struct sleep_probe_hist h;
};

struct host_bpf {
	struct sleep_probe *skel;
	bool raw; /* tp_btf sys_enter/exit (no tracefs) rather than the syscall events */
	bool on;
	int stats_fd; /* BPF_ENABLE_STATS: run time of the programs, -1 without */
	uint64_t prev_run_ns;
	int nprev;
	struct host_bpf_prev *prev; /* HOST_BPF_MAX, the tids watched now */
	struct sleep_probe_hist *cur; /* scratch for one map read (2 KiB: off the stack) */
	uint64_t *delta; /* HIST_LOG2_BUCKETS */
};

/* libbpf's messages go nowhere near the terminal; the last warning is the reason. */
static char host_bpf_lastmsg[160];
static int host_bpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_WARN) {
		vsnprintf(host_bpf_lastmsg, sizeof(host_bpf_lastmsg), fmt, ap);
		host_bpf_lastmsg[strcspn(host_bpf_lastmsg, "\n")] = '\0';
	}
	return 0;
}

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
	libbpf_set_print(host_bpf_print);
	struct host_bpf *b = xcalloc(1, sizeof(*b));
	b->stats_fd = -1;
	b->prev = xcalloc(HOST_BPF_MAX, sizeof(*b->prev));
	b->cur = xcalloc(1, sizeof(*b->cur));
	b->delta = xcalloc(HIST_LOG2_BUCKETS, sizeof(*b->delta));
	b->skel = sleep_probe__open();
	if (!b->skel) {
		snprintf(why, len, "eBPF probe: open: %s", strerror(errno));
		host_bpf_close(b);
		return NULL;
	}
	/* The syscall events need tracefs (for their ids); without it the raw ones serve. */
	b->raw =
	    access("/sys/kernel/tracing/events/syscalls/sys_enter_clock_nanosleep/id", F_OK) != 0 &&
	    access("/sys/kernel/debug/tracing/events/syscalls/sys_enter_clock_nanosleep/id",
		   F_OK) != 0;
	struct bpf_program *tp[] = {
	    b->skel->progs.tp_enter_nanosleep, b->skel->progs.tp_enter_clock_nanosleep,
	    b->skel->progs.tp_exit_nanosleep, b->skel->progs.tp_exit_clock_nanosleep};
	for (size_t i = 0; i < sizeof(tp) / sizeof(tp[0]); i++)
		bpf_program__set_autoload(tp[i], !b->raw);
	bpf_program__set_autoload(b->skel->progs.raw_enter, b->raw);
	bpf_program__set_autoload(b->skel->progs.raw_exit, b->raw);
	int rc = sleep_probe__load(b->skel);
	if (rc != 0) {
		snprintf(why, len, "eBPF probe refused by the kernel (old kernel?): %s%s%s",
			 strerror(-rc), host_bpf_lastmsg[0] ? ": " : "", host_bpf_lastmsg);
		host_bpf_close(b);
		return NULL;
	}
	/* Run time per program, for the cost per sleep: kernel.bpf_stats_enabled while open.
	 * Opt-in: it times every BPF program on the host, not only ours. */
	const char *st = getenv("TUNETOP_BPF_STATS");
	if (st && strcmp(st, "1") == 0)
		b->stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	return b;
}

void host_bpf_close(struct host_bpf *b)
{
	if (!b)
		return;
	if (b->skel)
		sleep_probe__destroy(b->skel);
	if (b->stats_fd >= 0)
		close(b->stats_fd);
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
		sleep_probe__detach(b->skel);
		b->on = false;
		return 0;
	}
	int rc = sleep_probe__attach(b->skel);
	if (rc != 0) {
		snprintf(err, errlen, "pmd.sleep_probe: cannot attach the %s tracepoints: %s%s%s",
			 b->raw ? "raw sys_enter/sys_exit" : "syscalls:*nanosleep", strerror(-rc),
			 host_bpf_lastmsg[0] ? ": " : "", host_bpf_lastmsg);
		sleep_probe__detach(b->skel);
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
	return b && b->raw;
}

/* Kernel run time of the loaded programs so far (ns), 0 without stats. */
static uint64_t host_bpf_run_ns(const struct host_bpf *b)
{
	struct bpf_program *p;
	uint64_t sum = 0;
	if (b->stats_fd < 0)
		return 0;
	bpf_object__for_each_program(p, b->skel->obj)
	{
		struct bpf_prog_info info;
		uint32_t ilen = sizeof(info);
		int fd = bpf_program__fd(p);
		memset(&info, 0, sizeof(info));
		if (fd >= 0 && bpf_obj_get_info_by_fd(fd, &info, &ilen) == 0)
			sum += info.run_time_ns;
	}
	return sum;
}

/* Watch exactly tids[n]: new ones get a zeroed entry, vanished ones are dropped. */
static void host_bpf_watch(struct host_bpf *b, const int *tids, int n)
{
	int fd = bpf_map__fd(b->skel->maps.watch);
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
		uint32_t key = (uint32_t)tids[i];
		bpf_map_update_elem(fd, &key, &k->h, BPF_NOEXIST);
		/* An entry left from a reused tid counts on: the baseline is what it holds. */
		bpf_map_lookup_elem(fd, &key, &k->h);
	}
	for (int j = 0; j < b->nprev; j++)
		if (b->prev[j].tid) {
			uint32_t key = (uint32_t)b->prev[j].tid;
			bpf_map_delete_elem(fd, &key);
		}
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
	uint32_t key = (uint32_t)pv->tid;
	if (bpf_map_lookup_elem(bpf_map__fd(b->skel->maps.watch), &key, cur) != 0)
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
	uint64_t run = host_bpf_run_ns(b);
	if (b->stats_fd >= 0 && b->prev_run_ns && sleeps && run >= b->prev_run_ns)
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
