/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host_bpf_mod.c: the eBPF module tunetop-bpf.so: loads the sleep probe (libbpf skeleton of
 * backends/host/bpf/sleep_probe.bpf.c) on the cheapest hook this kernel offers, and its map. */
#include "backends/host/bpf_module.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <sleep_probe.skel.h>

/*
 * The hooks, cheapest for the rest of the host first (docs/pmd.md "Timer slack, run-queue
 * delay and the eBPF sleep probe"). fentry/fexit and kprobes run only on the two sleep
 * calls. The sched hook (raw tracepoints hrtimer_start, hrtimer_cancel and sched_switch, by
 * BTF: no tracefs) runs on every timer start and context switch, and on no system call. Any
 * syscall tracepoint, even the per-syscall events, switches the kernel's syscall tracing
 * work on for every task, so every system call on the host takes the slow path (getppid()
 * +47 % measured, bench/probe_tax.sh); the raw ones also run the program there.
 */
enum mod_hook { HOOK_FENTRY, HOOK_KPROBE, HOOK_SCHED, HOOK_TP, HOOK_RAW, HOOK_N };
static const char *const mod_hook_key[HOOK_N] = {"fentry", "kprobe", "sched", "tp", "raw"};
static const char *const mod_hook_name[HOOK_N] = {
    "fentry/fexit *sys_*nanosleep", "kprobes *sys_*nanosleep",
    "sched_switch and hrtimer_start/cancel", "syscalls:sys_{enter,exit}_*nanosleep",
    "raw sys_enter/sys_exit"};

struct bpf_probe {
	struct sleep_probe *skel;
	enum mod_hook hook;
	int stats_fd; /* BPF_ENABLE_STATS: run time of the programs, -1 without */
};

/* libbpf's messages go nowhere near the terminal; the last warning is the reason. */
static char mod_lastmsg[160];
static int mod_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	static int debug = -1;
	if (debug < 0) /* TUNETOP_BPF_DEBUG=1: all of libbpf's log on stderr, for a bug report */
		debug =
		    getenv("TUNETOP_BPF_DEBUG") && strcmp(getenv("TUNETOP_BPF_DEBUG"), "1") == 0;
	if (debug) {
		va_list cp;
		va_copy(cp, ap);
		vfprintf(stderr, fmt, cp);
		va_end(cp);
	}
	if (level == LIBBPF_WARN) {
		vsnprintf(mod_lastmsg, sizeof(mod_lastmsg), fmt, ap);
		mod_lastmsg[strcspn(mod_lastmsg, "\n")] = '\0';
	}
	return 0;
}

/* The programs of one hook, in the skeleton's order. */
static void mod_hook_progs(struct sleep_probe *s, enum mod_hook k, struct bpf_program *out[4])
{
	struct bpf_program *all[HOOK_N][4] = {
	    {s->progs.fentry_nanosleep, s->progs.fentry_clock_nanosleep, s->progs.fexit_nanosleep,
	     s->progs.fexit_clock_nanosleep},
	    {s->progs.kp_nanosleep, s->progs.kp_clock_nanosleep, s->progs.kret_nanosleep,
	     s->progs.kret_clock_nanosleep},
	    {s->progs.sched_timer_start, s->progs.sched_timer_cancel, s->progs.sched_switch_in,
	     NULL},
	    {s->progs.tp_enter_nanosleep, s->progs.tp_enter_clock_nanosleep,
	     s->progs.tp_exit_nanosleep, s->progs.tp_exit_clock_nanosleep},
	    {s->progs.raw_enter, s->progs.raw_exit, NULL, NULL}};
	memcpy(out, all[k], sizeof(all[k]));
}

/* The syscall events need tracefs (libbpf reads their ids there). */
static bool mod_have_tracefs(void)
{
	return access("/sys/kernel/tracing/events/syscalls/sys_enter_clock_nanosleep/id", F_OK) ==
		   0 ||
	       access("/sys/kernel/debug/tracing/events/syscalls/sys_enter_clock_nanosleep/id",
		      F_OK) == 0;
}

/* Kprobes exist (libbpf attaches through the kprobe PMU, or tracefs's kprobe_events): a
 * kernel without them is skipped before a load, each of which parses the kernel's BTF again. */
static bool mod_have_kprobes(void)
{
	return access("/sys/bus/event_source/devices/kprobe/type", F_OK) == 0 ||
	       access("/sys/kernel/tracing/kprobe_events", F_OK) == 0 ||
	       access("/sys/kernel/debug/tracing/kprobe_events", F_OK) == 0;
}

/* The skeleton with hook k's programs alone, loaded and attached; NULL with why. */
static struct sleep_probe *mod_try(enum mod_hook k, char *why, size_t len)
{
	struct sleep_probe *s = sleep_probe__open();
	if (!s) {
		snprintf(why, len, "open: %s", strerror(errno));
		return NULL;
	}
	struct bpf_program *p;
	bpf_object__for_each_program(p, s->obj) bpf_program__set_autoload(p, false);
	struct bpf_program *mine[4];
	mod_hook_progs(s, k, mine);
	for (int i = 0; i < 4; i++)
		if (mine[i])
			bpf_program__set_autoload(mine[i], true);
	mod_lastmsg[0] = '\0';
	int rc = sleep_probe__load(s);
	const char *step = "refused by the kernel";
	if (rc == 0) {
		rc = sleep_probe__attach(s);
		step = "cannot attach";
	}
	if (rc != 0) {
		snprintf(why, len, "%s %s: %s", mod_hook_name[k], step, strerror(-rc));
		sleep_probe__destroy(s);
		return NULL;
	}
	return s;
}

static struct bpf_probe *mod_open(const struct bpf_mod_host *h, const char *only, char *why,
				  size_t len)
{
	libbpf_set_print(mod_print);
	char last[256] = "", tried[512] = "";
	for (int k = 0; k < HOOK_N; k++) {
		if (only && *only && strcmp(only, mod_hook_key[k]) != 0)
			continue;
		struct sleep_probe *s = NULL;
		if (k == HOOK_TP && !mod_have_tracefs())
			snprintf(last, sizeof(last),
				 "no tracefs for the syscalls:*nanosleep events");
		else if (k == HOOK_FENTRY &&
			 libbpf_probe_bpf_prog_type(BPF_PROG_TYPE_TRACING, NULL) != 1)
			/* libbpf's own probe (a tiny fentry load, no BTF parsed): a kernel that
			 * refuses it (EPERM here) is not worth a full load. */
			snprintf(last, sizeof(last),
				 "fentry/fexit: the kernel refuses fentry programs");
		else if (k == HOOK_KPROBE && !mod_have_kprobes())
			snprintf(last, sizeof(last), "no kprobes in this kernel");
		else
			s = mod_try((enum mod_hook)k, last, sizeof(last));
		if (!s) {
			/* Each refusal in short, for the status line: which hook, why. */
			size_t u = strlen(tried);
			snprintf(tried + u, sizeof(tried) - u, "%s%s", u ? "; " : "", last);
			continue;
		}
		struct bpf_probe *p = h->xcalloc(1, sizeof(*p));
		p->skel = s;
		p->hook = (enum mod_hook)k;
		p->stats_fd = -1;
		/* Run time per program, for the cost per sleep: kernel.bpf_stats_enabled while
		 * open. Opt-in: it times every BPF program on the host, not only ours. */
		const char *st = getenv("TUNETOP_BPF_STATS");
		if (st && strcmp(st, "1") == 0)
			p->stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
		return p;
	}
	/* libbpf's last warning says more about the last refusal. */
	snprintf(why, len, "eBPF probe refused: %s%s%s", tried[0] ? tried : "no such hook",
		 mod_lastmsg[0] ? ": " : "", mod_lastmsg);
	return NULL;
}

static void mod_close(struct bpf_probe *p)
{
	if (!p)
		return;
	sleep_probe__destroy(p->skel);
	if (p->stats_fd >= 0)
		close(p->stats_fd);
	free(p);
}

static int mod_attach(struct bpf_probe *p, char *err, size_t errlen)
{
	mod_lastmsg[0] = '\0';
	int rc = sleep_probe__attach(p->skel);
	if (rc != 0) {
		snprintf(err, errlen, "cannot attach %s: %s%s%s", mod_hook_name[p->hook],
			 strerror(-rc), mod_lastmsg[0] ? ": " : "", mod_lastmsg);
		sleep_probe__detach(p->skel);
		return -1;
	}
	return 0;
}

static void mod_detach(struct bpf_probe *p)
{
	sleep_probe__detach(p->skel);
}

static const char *mod_hook(const struct bpf_probe *p)
{
	return mod_hook_name[p->hook];
}

/* Every system call on the host pays: the tracepoints' slow path (see the hooks above). */
static bool mod_every_syscall(const struct bpf_probe *p)
{
	return p->hook == HOOK_TP || p->hook == HOOK_RAW;
}

static int mod_watch(struct bpf_probe *p, uint32_t tid, struct sleep_probe_hist *h)
{
	int fd = bpf_map__fd(p->skel->maps.watch);
	memset(h, 0, sizeof(*h));
	if (bpf_map_update_elem(fd, &tid, h, BPF_NOEXIST) != 0 && errno != EEXIST)
		return -1;
	/* An entry left from a reused tid counts on: the baseline is what it holds. */
	return bpf_map_lookup_elem(fd, &tid, h) == 0 ? 0 : -1;
}

static void mod_unwatch(struct bpf_probe *p, uint32_t tid)
{
	bpf_map_delete_elem(bpf_map__fd(p->skel->maps.watch), &tid);
}

static int mod_read(struct bpf_probe *p, uint32_t tid, struct sleep_probe_hist *h)
{
	return bpf_map_lookup_elem(bpf_map__fd(p->skel->maps.watch), &tid, h) == 0 ? 0 : -1;
}

static uint64_t mod_run_ns(const struct bpf_probe *p)
{
	struct bpf_program *prog;
	uint64_t sum = 0;
	if (p->stats_fd < 0)
		return 0;
	bpf_object__for_each_program(prog, p->skel->obj)
	{
		struct bpf_prog_info info;
		uint32_t ilen = sizeof(info);
		int fd = bpf_program__fd(prog);
		memset(&info, 0, sizeof(info));
		if (fd >= 0 && bpf_obj_get_info_by_fd(fd, &info, &ilen) == 0)
			sum += info.run_time_ns;
	}
	return sum;
}

const struct bpf_module tunetop_bpf_module = {
    .abi = BPF_MODULE_ABI,
    .open = mod_open,
    .close = mod_close,
    .attach = mod_attach,
    .detach = mod_detach,
    .hook = mod_hook,
    .every_syscall = mod_every_syscall,
    .watch = mod_watch,
    .unwatch = mod_unwatch,
    .read = mod_read,
    .run_ns = mod_run_ns,
};
