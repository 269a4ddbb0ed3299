/* SPDX-License-Identifier: GPL-2.0-or-later */
/* snapshot.h: one refresh worth of measurements; the tui and the batch writer render it. */
#ifndef TT_SNAPSHOT_H
#define TT_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/snap_host.h"
#include "core/snap_blk.h"
#include "core/snap_diag.h"
#include "core/snap_est.h"
#include "core/event.h"
#include "core/knob.h"
#include "core/snap_pmd.h"
#include "core/subsys.h"

struct snap_cpu {
	int id, node, llc;
	bool online;
	double load_pct; /* busy time of its threads / interval */
	uint32_t freq_mhz; /* emulated, or the host's current frequency */
};

struct snap_thread {
	pid_t tid;
	/* A thread of the watched ovs-vswitchd (host: of the one behind the control socket; a
	 * recording or a remote host: its JSON subsystem is "ovs"). */
	bool ovs;
	char name[16];
	enum subsys subsys;
	double cpu_pct; /* of one core, from the thread's CPU clock */
	uint64_t cpu_ns; /* total CPU time so far */
	int state; /* enum ethread_state */
	int emu_cpu;
	/* Time runnable but waiting on a run queue (/proc schedstat), % of the interval
	 * (10 x ms per s); -1 unknown (first sample, no schedstat). */
	double runq_delay_pct;
	/* Its timer slack (/proc/TID/timerslack_ns); -1 unreadable (another thread's needs
	 * CAP_SYS_NICE). */
	int64_t timer_slack_ns;
};

struct snap_self {
	double cpu_pct; /* the whole console process except engine threads */
	uint64_t sample_us; /* time to take this snapshot */
	uint64_t render_us; /* time to render the previous frame or line */
	uint64_t tty_bytes; /* bytes written to the terminal in the interval (0 in batch) */
	double tty_bytes_per_s;
	/* SELF_ABSENT_* bits: figures the source does not have (a recording or an agent
	 * without them): JSON null, "-" on screen, never a 0 that reads as measured. */
	unsigned absent;
};

enum {
	SELF_ABSENT_CPU = 1u << 0,
	SELF_ABSENT_SAMPLE = 1u << 1,
	SELF_ABSENT_RENDER = 1u << 2,
	SELF_ABSENT_TTY = 1u << 3, /* tty_bytes and tty_bytes_per_s */
};

#define SNAP_MAX_EVENTS 64

#define SNAP_MACHINE_CPUS 64 /* the machine's CPUs kept beside an engine's; more are left out */

struct snapshot {
	uint64_t mono_ns; /* when it was taken */
	uint64_t wall_ns; /* CLOCK_REALTIME of the same moment */
	double uptime_s; /* since engine start */
	double interval_s; /* since the previous snapshot */
	const char *backend; /* "engine" or "host" */
	uint64_t seq; /* 1, 2, ... */

	int governor; /* enum cpu_governor, -1 when none tunetop knows */
	bool governor_emulated;
	bool governor_absent; /* host backend on a host without cpufreq */
	int ncpus;
	struct snap_cpu *cpus;

	size_t nthreads, threads_cap;
	struct snap_thread *threads;

	bool has_est, has_pmd, has_blk, has_host;
	struct est_snap est;
	struct pmd_snap pmd;
	struct blk_snap blk;
	struct host_snap host; /* --backend host */

	int64_t knobs[K_COUNT];

	size_t nevents;
	struct event events[SNAP_MAX_EVENTS]; /* new since the previous snapshot */

	struct snap_self self;

	/* knobs[k] is not a value the source has: a host knob the host lacks (no
	 * cpufreq, no block device, no OVS). JSON gives null, the screen "-". */
	bool knob_absent[K_COUNT];

	/* The machine's own CPUs beside the engine's emulated ones (backends/src_engine.c, from
	 * /proc/stat and cpufreq): the console's meters show them on '#'. machine_ncpus 0: not
	 * read (a host, whose cpus[] are the machine's already; a recording; the first sample). */
	int machine_ncpus;
	struct snap_machine_cpu {
		double load_pct; /* busy % over the interval */
		unsigned freq_mhz; /* 0 unknown */
	} machine[SNAP_MACHINE_CPUS];
	/* The rules' findings on this sample, attached by the front end (core/snap_diag.h). */
	struct snap_diag diag;
};

/*
 * The times every source stamps on its snapshots: start, the previous sample,
 * the sequence number and the sampling thread's own CPU time (the "self" cost).
 * Owned by whoever samples; one thread only.
 */
struct snapshot_clock {
	uint64_t start_ns, prev_ns, seq, self_cpu_ns;
};

/* Start counting from now (on the thread that will sample). */
void snapshot_clock_start(struct snapshot_clock *c);
/* Stamp mono/wall time, uptime, interval and seq on snap; returns the interval in ns. */
uint64_t snapshot_clock_stamp(struct snapshot_clock *c, struct snapshot *snap);
/* At the end of a sample taken since t0_ns: self.cpu_pct and self.sample_us. */
void snapshot_clock_self(struct snapshot_clock *c, struct snapshot *snap, uint64_t t0_ns);
/* CPU% of one core from a CPU-time delta over a wall-time delta (0 when no time passed). */
double snapshot_cpu_pct(uint64_t cpu_ns, uint64_t wall_ns);

struct snapshot *snapshot_new(void);
void snapshot_free(struct snapshot *s);
/* Deep copy (cpus and threads arrays included) of src into dst. */
void snapshot_copy(struct snapshot *dst, const struct snapshot *src);

/* The governor's name as both renderers show it: the enum's name, the host's own
 * name for one tunetop has no id for, or "none". */
const char *snapshot_governor_name(const struct snapshot *s);
/* "cpufreq", "emulated" or "none". */
const char *snapshot_governor_source(const struct snapshot *s);
/* True when the host backend cannot measure field (a "blk.lat_us"-style path or a
 * prefix of one): renderers show "-" rather than a 0 that was never measured. */
bool snapshot_absent(const struct snapshot *s, const char *field);

#endif
