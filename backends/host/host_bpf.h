/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host_bpf.h: the eBPF sleep probe (backends/host/bpf/sleep_probe.bpf.c, libbpf CO-RE skeleton):
 * real sleep overshoot of PMD threads measured in the kernel, for the host and the engine;
 * libbpf is in the module tunetop-bpf.so, loaded only when the probe is turned on. */
#ifndef TT_HOST_BPF_H
#define TT_HOST_BPF_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct snapshot;
struct host_bpf;

/*
 * Load the probe's module (tunetop-bpf.so) and the probe, attached. NULL with the reason it
 * cannot run: built without eBPF, the module missing, not root / no CAP_BPF, no BTF, a
 * kernel that refuses the programs on every hook.
 */
struct host_bpf *host_bpf_open(char *why, size_t len);
void host_bpf_close(struct host_bpf *b); /* NULL is fine */
/* Attach (on) or detach (off); 0, or -1 with a message. */
int host_bpf_enable(struct host_bpf *b, bool on, char *err, size_t errlen);
bool host_bpf_enabled(const struct host_bpf *b);
/* True when it hooks raw sys_enter/sys_exit (no tracefs for the nanosleep events): every
 * system call on the host then runs it, not only the PMDs' sleeps. */
bool host_bpf_every_syscall(const struct host_bpf *b);
/* What it hooks, for the messages ("" for NULL). */
const char *host_bpf_hook(const struct host_bpf *b);
/*
 * Watch the threads of snap's PMD rows (row_tid[i], or when row_tid is NULL the thread
 * of the same name in snap->threads) and fill each row's bpf_* figures over the interval
 * since the last call, and the section's probe status (why_absent when b is NULL).
 * Returns whether the rows were measured.
 */
bool host_bpf_pmdsec(struct host_bpf *b, const char *why_absent, struct snapshot *snap,
		     const pid_t *row_tid);

#endif
