/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host.h: the live-host backend (`--backend host`): host threads, CPUs and knobs. */
#ifndef TT_HOST_H
#define TT_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/knob.h"

struct snapshot;
struct host_state;

/*
 * Open the host sources (cpufreq via libcpupower, topology via libnuma, per-thread
 * accounting and link counters via libnl-3, block sysfs, Open vSwitch's unixctl
 * socket). Sources the host lacks are recorded as absent, not errors: the
 * snapshot says which are present. Returns NULL with a message only when nothing
 * at all can be read.
 */
struct host_state *host_open(char *err, size_t errlen);
void host_close(struct host_state *h);
/*
 * The lock around every call below when two threads use one host_state: the sampler holds it
 * for a whole host_sample(), the knob writer for host_knob_refresh() and host_knob_apply().
 * A mutex is fine here: knob writes are rare (a key, a --set), a sample takes it once an
 * interval, and the one write that can wait seconds on OVS (pmd.maxsleep_us) drops it around
 * that I/O (it runs on its own connections), so a sample waits at most for a local write
 * (sysfs, /proc, loading the eBPF probe) or a write's bookkeeping.
 */
void host_lock(struct host_state *h);
void host_unlock(struct host_state *h);
/* Fill threads, cpus, governor and the host section (deltas since the last call). */
void host_sample(struct host_state *h, struct snapshot *snap, uint64_t now_ns);
/*
 * Apply a knob to the host (cpu.governor, blk.rq_affinity, pmd.maxsleep_us, ...).
 * Returns 0, or KNOB_ERR_RUNTIME with a message ("needs root", "no such device",
 * "not available on the host backend"). pmd.maxsleep_us drops the lock around its ovsdb write
 * and the wait for ovs-vswitchd (host_ovswrite.c): other knobs hold it throughout.
 */
int host_knob_apply(struct host_state *h, enum knob_id id, int64_t value, char *err, size_t errlen);
/*
 * The host's current value of a knob it owns (cpu.governor, blk.rq_affinity,
 * pmd.maxsleep_us when pmd-sleep-show exists), so the knob table can start
 * from the truth after host_open(). 0 and *out, or -1 when the host has none.
 */
int host_knob_current(struct host_state *h, enum knob_id id, int64_t *out);
/*
 * Read a knob's value from the host now where host_knob_current() gives the one as of the
 * last sample (pmd.maxsleep_us, from ovsdb): before a write, so the value logged as the old
 * one is the host's, also before the first sample. Bounded by the ovsdb deadline; drops the
 * lock around its I/O (as host_knob_apply() does for pmd.maxsleep_us).
 */
void host_knob_refresh(struct host_state *h, enum knob_id id);
/* Where the est section's chain_max came from, in words for an event: the kernel's line, or why
 * there is none (true: it was read). */
bool host_est_source(const struct host_state *h, char *buf, size_t len);
/* The eBPF sleep probe hooks a syscall tracepoint (no fentry or kprobes on this kernel): it
 * taxes every system call. */
bool host_probe_every_syscall(const struct host_state *h);
/* What the probe hooks, for the events ("" when not loaded). */
const char *host_probe_hook(const struct host_state *h);

#endif
