/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * source.h: what a front end holds. A source produces snapshots and takes knob
 * writes; which one (the embedded engine, the live host, ...) is chosen at run
 * time from a table, as tmux picks a cmd_entry and htop a Platform. Front ends
 * (console, batch, experiments) hold a struct source, never an engine.
 * docs/design.md "The source interface" describes the life cycle.
 */
#ifndef TT_SOURCE_H
#define TT_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/knob.h"
#include "core/snapshot.h"

struct source;

/* The answer to one knob write, whichever way it was made: at once (source_knob_request()),
 * from a far host (source_knob_result()) or from a sampler thread (source_async_result()). */
struct source_knob_result {
	uint64_t id; /* the request's, from source_async_knob_request(); 0 otherwise */
	enum knob_id knob;
	int64_t requested;
	int rc; /* 0 or KNOB_ERR_* */
	int64_t stored; /* the value read back (on an error: the value kept) */
	bool elsewhere; /* the answer of a fleet host other than the one the source shows */
	char from[64]; /* who answered ("h2"), for the status line; "" this process */
	char err[256]; /* rc != 0: why */
};

/* One host of a fleet (docs/design.md "The fleet"), as source_fleet_row() gives it. */
enum fleet_state { FLEET_CONNECTING, FLEET_UP, FLEET_DOWN };

struct fleet_row {
	const char *name; /* as given to --remote */
	enum fleet_state state;
	const char *reason; /* why down (ssh's last stderr line, exit status...) */
	bool broken; /* down: not an agent we can read (reason says why) */
	const struct snapshot *snap; /* the latest, or NULL before the first */
	double age_s; /* since that snapshot arrived */
	double retry_in_s; /* down: until the next try; -1: never (a far-side usage error) */
	uint64_t rx_bytes; /* agent output received (after ssh's decompression) */
	double rx_bytes_per_s; /* over the last few seconds */
	uint64_t dropped_paths; /* delta paths the far side invented, dropped */
};

/* What a source of several hosts (the remote source) adds; the source_fleet_* calls below. */
struct source_fleet_ops {
	int (*count)(struct source *src);
	bool (*row)(struct source *src, int i, struct fleet_row *row);
	void (*select)(struct source *src, int i);
	int (*selected)(struct source *src);
	int (*set_all)(struct source *src, const char *assignment, char *err, size_t errlen);
	bool (*take_new)(struct source *src, int i, const struct snapshot **out);
};

/* What a source needs to know when it opens (from the command line). */
struct source_conf {
	bool host_write; /* --write: the host source may change the live machine */
	const char *replay_path; /* --replay FILE or DIR (a --record-dir store) */
	bool replay_follow; /* --follow: keep reading what is appended */
	const char *replay_from, *replay_to; /* --from / --to: seconds into it, or ISO 8601 UTC */
	const char *const *remotes; /* --remote [USER@]HOST, nremotes of them */
	size_t nremotes;
	const char *ssh; /* --ssh: the command line before HOST ("ssh" when NULL) */
	const char *agent_path; /* --agent-path ("tunetop" when NULL) */
	const char *const *agent_args; /* more arguments for the far side's --agent, NULL-ended */
	double delay_s; /* the refresh the far side samples at */
	/* -b and --agent: no front end shows the machine's own CPUs (snapshot.h machine[], the
	 * console's '#' meters; the JSON has none), so the engine source reads none. */
	bool no_machine;
};

/*
 * One kind of source. Every call is made from one thread at a time (the thread
 * that owns the source), but for knob_set() of a source with knobs_apart. Errors: 0, or
 * KNOB_ERR_USAGE (a value the source can never take) / KNOB_ERR_RUNTIME (refused now: needs root,
 * no device) with a message in err.
 */
struct source_ops {
	const char *name; /* "engine", "host": the JSON "backend" */
	/* Open: knobs read from the source (or at their defaults); nothing runs yet. */
	int (*open)(struct source *src, const struct source_conf *conf, char *err, size_t errlen);
	/* Start producing: threads, sockets. Knobs set before start are in force. */
	int (*start)(struct source *src, char *err, size_t errlen);
	/* Fill snap with what happened since the previous sample, knob values included. */
	void (*sample)(struct source *src, struct snapshot *snap);
	/* Put a valid value in force. On success *stored is the value now in force
	 * (read back: it may differ from v); on an error the old value stays. */
	int (*knob_set)(struct source *src, enum knob_id id, int64_t v, int64_t *stored, char *err,
			size_t errlen);
	/* The value in force, or -1 when the source has none for this knob. */
	int (*knob_get)(struct source *src, enum knob_id id, int64_t *out);
	/* NULL when the source takes knob id, else why it never will ("engine only"). */
	const char *(*knob_refusal)(const struct source *src, enum knob_id id);
	/* Stop and free everything open() and start() made. */
	void (*close)(struct source *src);
	/*
	 * What a front end needs to know of a source is asked here, never of its name (a
	 * front end that compares names has a flag missing). All optional (false).
	 */
	/* The snapshots were taken elsewhere (a recording, a remote host): their backend and
	 * self figures are theirs, not this process's. */
	bool recorded;
	/* sample() and knob_set() may block on I/O (the live host: /proc, sysfs, OVS's
	 * unixctl): a front end that must not wait (the console) runs the source on a thread
	 * of its own (backends/source_async.h). The others never block: the engine reads
	 * in-process counters, a recording and a remote host use non-blocking reads. */
	bool blocks;
	/* With blocks: knob_set() may run on a thread of its own while sample() runs on
	 * another (the source guards what both touch), so a write that waits on the host
	 * (a stopped ovs-vswitchd) holds up no sample: source_async's "tt-writer". Else
	 * knob_set() runs on the sampler's thread, between samples. */
	bool knobs_apart;
	/* Every knob write is refused (a recording: its knobs are what they were): no
	 * scenario is applied, and --set is a usage error. */
	bool read_only;
	/* The far side applies the scenario and --set (a remote host's agent gets them as
	 * arguments): the front end applies none here. */
	bool far_scenarios;
	/* Knob writes change the settings of a real machine (the live host), not an
	 * emulation's: a front end asks before it sweeps them (the console's `t`). */
	bool writes_machine;
	/* The source runs no engine workloads (the live host): with no --scenario, start from
	 * "idle" rather than the engine's "default". */
	bool idle_scenario;
	/* Optional: a source with its own clock (a recording): seconds until its next
	 * snapshot is due (the recorded gap), or < 0 when it has no more. NULL: the
	 * front end's -d interval. */
	double (*pace_s)(struct source *src);
	/* Optional: one short line for the header ("replay x.jsonl 12/600, 2 lines
	 * skipped"); returns its length (0: nothing to say). */
	size_t (*status)(struct source *src, char *buf, size_t len);
	/* Optional, with pace_s: how many of the snapshots given so far decoded (a recording's
	 * line that does not is skipped; until one does, the snapshot holds nothing read). */
	uint64_t (*decoded)(struct source *src);
	/* Optional, with pace_s: false while a source that follows a recording still being
	 * written has nothing new (pace_s is then when to look again); never blocks. */
	bool (*ready)(struct source *src);
	/* Optional: move a recording's position to a time ("10:42", "-5m", an ISO time): 0 with
	 * where it is now in msg, or KNOB_ERR_USAGE (not a time, out of the recording) with why. */
	int (*seek)(struct source *src, const char *to, char *msg, size_t len);
	/* knob_set() only sends the value (a remote host): *stored is the value sent, and
	 * the answer comes later through knob_result(). */
	bool async_knobs;
	/* With async_knobs: the oldest answer not yet taken into *out (true), never blocks. */
	bool (*knob_result)(struct source *src, struct source_knob_result *out);
	/* Optional: never blocks; one message for the status line (a remote's reply to a
	 * knob set, a host gone down) into buf; true when there was one, *err for failures. */
	bool (*note)(struct source *src, char *buf, size_t len, bool *err);
	/* Optional: whether every thread's runq_delay_pct is shown or written (true, the
	 * default) or only the PMD and est threads' (the pmd view, the diag rules): a source
	 * that pays per thread for it (the engine's schedstat pread) reads no more. Never
	 * blocks; called from the front end's thread, between or during samples. */
	void (*want_runq_all)(struct source *src, bool all);
	/* Optional: the source is a fleet of hosts (the remote source); NULL: one host. */
	const struct source_fleet_ops *fleet;
};

struct source {
	const struct source_ops *ops;
	void *priv; /* the implementation's state */
	bool started;
	/* CLOCK_MONOTONIC ns the first sample's interval begins at: source_start() sets it as
	 * it calls ops->start, which may move it to its own baseline (the engine's, taken after
	 * it built its CPUs). The front ends time their first sample from it. */
	uint64_t start_ns;
};

/* The kinds, by name ("engine", "host"), for --backend and the tests. */
const struct source_ops *source_find(const char *kind);
/* "engine, host": for usage messages. */
const char *source_kinds(void);

/* Open a source of the given ops; NULL with a message when it cannot open. */
struct source *source_open(const struct source_ops *ops, const struct source_conf *conf, char *err,
			   size_t errlen);
/* source_open, with *rc = KNOB_ERR_USAGE when the configuration itself is wrong
 * (a TUNETOP_* variable naming nothing: exit 2), else -1 on a failure. */
struct source *source_open_rc(const struct source_ops *ops, const struct source_conf *conf, int *rc,
			      char *err, size_t errlen);
/* 0, KNOB_ERR_USAGE (knobs that can never run together), or -1. */
int source_start(struct source *src, char *err, size_t errlen);
void source_sample(struct source *src, struct snapshot *snap);
/* ops->want_runq_all, when the source has it. */
void source_want_runq_all(struct source *src, bool all);
void source_close(struct source *src); /* NULL is fine */
const char *source_name(const struct source *src);

/*
 * Set a knob: refused knobs and start-only knobs once started are errors;
 * otherwise the source puts it in force. On success *stored (may be NULL) is
 * the value read back, and the message says what was stored.
 */
int source_knob_set(struct source *src, enum knob_id id, int64_t v, int64_t *stored, char *err,
		    size_t errlen);
/*
 * The one knob write a front end makes: source_knob_set(), its answer in *r. Returns 0
 * when *r is the answer (done or refused), 1 when the value was only sent (async_knobs):
 * the answer comes through source_knob_result().
 */
int source_knob_request(struct source *src, enum knob_id id, int64_t v,
			struct source_knob_result *r);
/* The oldest answer of an async_knobs source not yet taken: true and *out. */
bool source_knob_result(struct source *src, struct source_knob_result *out);
/* A value as text ("500", "ondemand"), parsed by the knob table, then source_knob_set(). */
int source_knob_set_text(struct source *src, enum knob_id id, const char *text, char *err,
			 size_t errlen);
/* "name=value", parsed and validated by the knob table, then source_knob_set(). */
int source_knob_assign(struct source *src, const char *assignment, char *err, size_t errlen);
/* A scenario_assign_fn over a source (ctx is the source). */
int source_scenario_assign(void *ctx, const char *assignment, char *err, size_t errlen);
/* The value in force; the table's default when the source has none. */
int64_t source_knob(struct source *src, enum knob_id id);
/* The value in force into *out: 0, or -1 when the source has none yet (a remote host
 * with no snapshot). Never blocks for the engine, a recording or a remote source; the
 * host source may do I/O (call it only where that is allowed). */
int source_knob_get(struct source *src, enum knob_id id, int64_t *out);
/* Why src refuses id, or NULL. */
const char *source_knob_refusal(const struct source *src, enum knob_id id);

/* The recorded gap to the next snapshot (< 0: no more), or 0 for a live source. */
double source_pace_s(struct source *src);
/* ops->ready, true when the source has none. */
bool source_ready(struct source *src);
/* ops->seek; KNOB_ERR_USAGE with a message when the source has none (not a recording). */
int source_seek(struct source *src, const char *to, char *msg, size_t len);
bool source_paced(const struct source *src);
/* ops->decoded; UINT64_MAX when the source has none (every snapshot is real). */
uint64_t source_decoded(struct source *src);
/* The source's one-line status into buf ("" when it has none); returns buf. */
const char *source_status(struct source *src, char *buf, size_t len);

/*
 * The fleet, asked of any source (a source with no fleet ops has no hosts): the front ends
 * call these, never a kind's own API (docs/design.md "The fleet").
 */
/* Hosts of the source; 0 for a source that is not a fleet. */
int source_fleet_count(struct source *src);
/* Read what has arrived (never blocks), then row i; false when i is out of range. */
bool source_fleet_row(struct source *src, int i, struct fleet_row *row);
/* The host knob sets and sample() go to (0 for a source that is not a fleet). */
void source_fleet_select(struct source *src, int i);
int source_fleet_selected(struct source *src);
/* Send "NAME=VALUE" to every host that is up; the replies come through note() one per
 * host. Returns the number of hosts it went to, or a usage error with a message. */
int source_fleet_set_all(struct source *src, const char *assignment, char *err, size_t errlen);
/* Host i's snapshot when one arrived since the last call for i (for -b and --record):
 * true with *out set. */
bool source_fleet_take_new(struct source *src, int i, const struct snapshot **out);

extern const struct source_ops source_engine_ops; /* src_engine.c */
extern const struct source_ops source_host_ops; /* src_host.c */
extern const struct source_ops source_replay_ops; /* src_replay.c */
extern const struct source_ops source_remote_ops; /* src_remote.c */
/* The next message of the source for the status line (see source_ops.note). */
bool source_note(struct source *src, char *buf, size_t len, bool *err);

#endif
