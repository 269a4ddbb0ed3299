/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sleep_probe.bpf.c: real sleep overshoot per watched thread, measured in the kernel: on
 * nanosleep and clock_nanosleep, requested duration vs time from syscall entry to return, or
 * (the sched hook) the sleep timer's soft expiry vs when the thread ran again, into a log2
 * histogram per thread (a hash map keyed by tid that user space fills). */
#include <vmlinux.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "backends/host/bpf/sleep_probe.h"

char LICENSE[] SEC("license") = "GPL";

/* Syscall numbers and where the syscall number sits in pt_regs, per architecture. */
#if defined(__TARGET_ARCH_x86)
#define NR_NANOSLEEP 35
#define NR_CLOCK_NANOSLEEP 230
/* The syscalls' kernel functions behind the x86-64 syscall wrapper (pt_regs in, long out). */
#define SYS_NANOSLEEP "__x64_sys_nanosleep"
#define SYS_CLOCK_NANOSLEEP "__x64_sys_clock_nanosleep"
/* tp_btf gives a trusted pointer: a direct load, no helper call on every syscall. */
#define SYSCALL_ID(regs) ((regs)->orig_ax)
#elif defined(__TARGET_ARCH_arm64)
#define NR_NANOSLEEP 101
#define NR_CLOCK_NANOSLEEP 115
#define SYS_NANOSLEEP "__arm64_sys_nanosleep"
#define SYS_CLOCK_NANOSLEEP "__arm64_sys_clock_nanosleep"
#define SYSCALL_ID(regs) ((regs)->syscallno)
#else
#error "sleep_probe.bpf.c: unknown __TARGET_ARCH"
#endif

#define TT_CLOCK_MONOTONIC 1
#define TT_CLOCK_BOOTTIME 7
#define TT_TIMER_ABSTIME 1
#define TT_NS_PER_S 1000000000ULL

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, SLEEP_PROBE_MAX_TIDS);
	__type(key, __u32);
	__type(value, struct sleep_probe_hist);
} watch SEC(".maps");

static __always_inline __u32 current_tid(void)
{
	return (__u32)bpf_get_current_pid_tgid();
}

/* clock < 0: a relative nanosleep(). */
static __always_inline void sleep_enter(long clock, long flags, const void *uts)
{
	__u32 tid = current_tid();
	struct sleep_probe_hist *h = bpf_map_lookup_elem(&watch, &tid);
	struct __kernel_timespec ts;
	__u64 now, v, req;

	if (!h)
		return;
	now = bpf_ktime_get_ns();
	h->enter_ns = 0;
	if (bpf_probe_read_user(&ts, sizeof(ts), uts) != 0 || ts.tv_sec < 0 || ts.tv_nsec < 0 ||
	    ts.tv_nsec >= (long long)TT_NS_PER_S) {
		h->unmeasured++;
		return;
	}
	v = (__u64)ts.tv_sec * TT_NS_PER_S + (__u64)ts.tv_nsec;
	req = v;
	if (clock >= 0 && (flags & TT_TIMER_ABSTIME)) {
		/* An absolute deadline: what is left of it now. */
		__u64 base;
		if (clock == TT_CLOCK_MONOTONIC)
			base = now;
		else if (clock == TT_CLOCK_BOOTTIME)
			base = bpf_ktime_get_boot_ns();
		else {
			h->unmeasured++; /* CLOCK_REALTIME/TAI deadlines: no wall clock here */
			return;
		}
		req = v > base ? v - base : 0;
	}
	h->req_ns = req;
	h->enter_ns = now;
}

/* One sleep ended, over ns past its due time: counted in its log2 bucket, and the thread is
 * awake (both hooks: the syscall's return, and the switch-in after the sleep timer). */
static __always_inline void sleep_count(struct sleep_probe_hist *h, __u64 over)
{
	unsigned b = hist_log2_bucket(over);
	if (b >= HIST_LOG2_BUCKETS)
		b = HIST_LOG2_BUCKETS - 1;
	h->buckets[b]++;
	h->sleeps++;
	h->over_sum_ns += over;
	h->enter_ns = 0;
}

static __always_inline void sleep_exit(long ret)
{
	__u32 tid = current_tid();
	struct sleep_probe_hist *h = bpf_map_lookup_elem(&watch, &tid);
	__u64 now, elapsed, over;

	if (!h || !h->enter_ns)
		return;
	now = bpf_ktime_get_ns();
	if (ret != 0) {
		h->interrupted++;
		h->enter_ns = 0;
		return;
	}
	elapsed = now - h->enter_ns;
	over = elapsed > h->req_ns ? elapsed - h->req_ns : 0;
	sleep_count(h, over);
}

/*
 * The syscall tracepoints (tracefs events syscalls:sys_{enter,exit}_*nanosleep). They and
 * the kprobes below return 1: on a perf tracepoint or kprobe, a BPF program returning 0
 * drops the event for every perf user of it, so `perf trace` would see no sleeps at all.
 */
SEC("tracepoint/syscalls/sys_enter_nanosleep")
int tp_enter_nanosleep(struct trace_event_raw_sys_enter *ctx)
{
	sleep_enter(-1, 0, (const void *)ctx->args[0]);
	return 1;
}

SEC("tracepoint/syscalls/sys_enter_clock_nanosleep")
int tp_enter_clock_nanosleep(struct trace_event_raw_sys_enter *ctx)
{
	sleep_enter((long)ctx->args[0], (long)ctx->args[1], (const void *)ctx->args[2]);
	return 1;
}

SEC("tracepoint/syscalls/sys_exit_nanosleep")
int tp_exit_nanosleep(struct trace_event_raw_sys_exit *ctx)
{
	sleep_exit(ctx->ret);
	return 1;
}

SEC("tracepoint/syscalls/sys_exit_clock_nanosleep")
int tp_exit_clock_nanosleep(struct trace_event_raw_sys_exit *ctx)
{
	sleep_exit(ctx->ret);
	return 1;
}

/*
 * Without tracefs (the events above need it for their ids): fentry/fexit on the syscalls'
 * own kernel functions, through BTF alone. Only the two sleep calls run them, so nothing
 * else on the host pays; and no syscall tracepoint is switched on, which would send every
 * task's every syscall through the kernel's slow syscall-work path.
 */
SEC("fentry/" SYS_NANOSLEEP)
int BPF_PROG(fentry_nanosleep, struct pt_regs *regs)
{
	sleep_enter(-1, 0, (const void *)PT_REGS_PARM1_CORE(regs));
	return 0;
}

SEC("fentry/" SYS_CLOCK_NANOSLEEP)
int BPF_PROG(fentry_clock_nanosleep, struct pt_regs *regs)
{
	sleep_enter((long)PT_REGS_PARM1_CORE(regs), (long)PT_REGS_PARM2_CORE(regs),
		    (const void *)PT_REGS_PARM3_CORE(regs));
	return 0;
}

SEC("fexit/" SYS_NANOSLEEP)
int BPF_PROG(fexit_nanosleep, struct pt_regs *regs, long ret)
{
	sleep_exit(ret);
	return 0;
}

SEC("fexit/" SYS_CLOCK_NANOSLEEP)
int BPF_PROG(fexit_clock_nanosleep, struct pt_regs *regs, long ret)
{
	sleep_exit(ret);
	return 0;
}

/* The same as kprobes (kernels whose trampolines cannot attach): libbpf finds the wrapper. */
SEC("ksyscall/nanosleep")
int BPF_KSYSCALL(kp_nanosleep, void *rqtp)
{
	sleep_enter(-1, 0, rqtp);
	return 1;
}

SEC("ksyscall/clock_nanosleep")
int BPF_KSYSCALL(kp_clock_nanosleep, long clock, long flags, void *rqtp)
{
	sleep_enter(clock, flags, rqtp);
	return 1;
}

SEC("kretsyscall/nanosleep")
int BPF_KRETPROBE(kret_nanosleep, long ret)
{
	sleep_exit(ret);
	return 1;
}

SEC("kretsyscall/clock_nanosleep")
int BPF_KRETPROBE(kret_clock_nanosleep, long ret)
{
	sleep_exit(ret);
	return 1;
}

/*
 * The last resort, when none of the above attaches: the raw sys_enter/sys_exit
 * tracepoints (no tracefs needed for a BTF raw tracepoint). They run on every syscall of
 * every task, which the console then says.
 */
SEC("tp_btf/sys_enter")
int BPF_PROG(raw_enter, struct pt_regs *regs, long id)
{
	if (id == NR_NANOSLEEP)
		sleep_enter(-1, 0, (const void *)PT_REGS_PARM1_CORE_SYSCALL(regs));
	else if (id == NR_CLOCK_NANOSLEEP)
		sleep_enter((long)PT_REGS_PARM1_CORE_SYSCALL(regs),
			    (long)PT_REGS_PARM2_CORE_SYSCALL(regs),
			    (const void *)PT_REGS_PARM3_CORE_SYSCALL(regs));
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(raw_exit, struct pt_regs *regs, long ret)
{
	long id = SYSCALL_ID(regs);
	if (id == NR_NANOSLEEP || id == NR_CLOCK_NANOSLEEP)
		sleep_exit(ret);
	return 0;
}

/*
 * No syscall hook at all: the sleep's own timer and the scheduler. A sleeping thread arms an
 * hrtimer_sleeper (nanosleep, clock_nanosleep, and poll/epoll/select timeouts alike) from its
 * own context: hrtimer_start there gives the soft expiry, the earliest the kernel may wake it;
 * when it is next switched in at or past that, the overshoot is that time minus the soft
 * expiry (what the syscall hooks measure, but for the syscall's own return, well under a
 * microsecond). A cancel of the armed timer (a signal, an event before a poll's timeout) ends
 * the sleep unmeasured. These run on every timer start and context switch of the host, one
 * hash lookup each, and on no system call: the syscall tracing work stays off.
 */
#define TT_CLOCK_MONOTONIC_BASE 1

SEC("tp_btf/hrtimer_start")
int BPF_PROG(sched_timer_start, struct hrtimer *timer, int mode)
{
	__u32 tid = current_tid();
	struct sleep_probe_hist *h = bpf_map_lookup_elem(&watch, &tid);
	struct hrtimer_sleeper *sl = (struct hrtimer_sleeper *)(void *)timer;

	if (!h)
		return 0;
	/* A sleeper's timer names the task it wakes: this thread's own sleep, not a timer it
	 * arms for something else (timerfd, a POSIX timer). */
	if ((void *)BPF_CORE_READ(sl, task) != (void *)bpf_get_current_task_btf())
		return 0;
	if (BPF_CORE_READ(timer, base, clockid) != TT_CLOCK_MONOTONIC_BASE) {
		h->unmeasured++; /* a CLOCK_REALTIME/BOOTTIME/TAI deadline: another time base */
		h->enter_ns = 0;
		return 0;
	}
	h->enter_ns = BPF_CORE_READ(timer, _softexpires); /* armed: the soft expiry */
	h->req_ns = (__u64)(unsigned long)timer;
	return 0;
}

SEC("tp_btf/hrtimer_cancel")
int BPF_PROG(sched_timer_cancel, struct hrtimer *timer)
{
	__u32 tid = current_tid();
	struct sleep_probe_hist *h = bpf_map_lookup_elem(&watch, &tid);

	if (!h || !h->enter_ns || h->req_ns != (__u64)(unsigned long)timer)
		return 0;
	h->interrupted++; /* woken before its time */
	h->enter_ns = 0;
	return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(sched_switch_in, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	__u32 tid = (__u32)next->pid;
	struct sleep_probe_hist *h = bpf_map_lookup_elem(&watch, &tid);
	__u64 now;

	if (!h || !h->enter_ns)
		return 0;
	now = bpf_ktime_get_ns();
	if (now < h->enter_ns)
		return 0; /* back on a CPU before its time (preempted while arming): still asleep */
	sleep_count(h, now - h->enter_ns);
	return 0;
}
