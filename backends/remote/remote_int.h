/* SPDX-License-Identifier: GPL-2.0-or-later */
/* remote_int.h: the remote source's private state, shared by src_remote.c (the source and the
 * fleet API) and remote_host.c (one host's ssh link). */
#ifndef TT_REMOTE_INT_H
#define TT_REMOTE_INT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "backends/remote/src_remote.h"
#include "core/snapshot.h"

/* A line longer than this is not the agent's: the host is broken. */
#define REMOTE_LINE_MAX (8u << 20)
/* What one host's rebuilt snapshot may cost (jdelta_weight), whole or grown by deltas. */
#define REMOTE_TREE_MAX (8 * (size_t)REMOTE_LINE_MAX)
/* Bytes one pump reads at most (remote_host.c has the line and time budgets). */
#define REMOTE_PUMP_BYTES (256u << 10)

/* Status notes queued (the oldest go when the screen does not ask). */
#define REMOTE_NOTES 32

/* One host: its ssh child, the pipes to it, and the far side's snapshot as last rebuilt. */
struct remote_host {
	char *name;
	enum remote_state state;
	char reason[200];
	bool broken; /* the far side is not a working agent (reason says why) until it is up */
	pid_t pid;
	uint64_t kill_ns; /* down with a child that ignored SIGTERM: SIGKILL from then */
	int to_fd, from_fd, err_fd; /* ssh's stdin, stdout, stderr (ours: non-blocking) */
	char *buf; /* stdout bytes not yet a whole line */
	size_t len, cap, scan; /* scan: bytes of buf already searched for a newline */
	char errline[200]; /* ssh's last stderr line */
	size_t errlen;
	char *wbuf; /* commands not yet written */
	size_t wlen;
	json_t *cur; /* the far side's snapshot, rebuilt from its deltas */
	size_t cur_weight; /* cur's size as jdelta_weight() counts it, bounded */
	uint64_t dropped_paths; /* delta paths not in cur (a far side's inventions), dropped */
	uint64_t garbage_lines; /* lines that were not JSON objects */
	uint64_t pump_ns_max; /* the longest one pump took on the caller's thread */
	struct snapshot *snap;
	bool have, fresh; /* fresh: not yet taken by remote_take_new */
	uint64_t snap_ns, last_rx_ns, start_ns, retry_ns;
	uint64_t taken_ns; /* snap_ns of the snapshot remote_take_new() last gave */
	unsigned backoff_ms;
	uint64_t rx_bytes, rate_bytes0, rate_ns0;
	double rate;
};

/* The source: its hosts, the command each ssh runs, and the notes for the screen. */
struct remote {
	struct remote_host *h;
	int n, sel;
	char **ssh_argv;
	size_t ssh_argc;
	char *far_cmd; /* the command the far side runs */
	double delay_s;
	uint64_t pumped_ns; /* the last remote_pump that read */
	char notes[REMOTE_NOTES][240];
	bool note_err[REMOTE_NOTES];
	size_t nhead, nnotes;
	struct source_knob_result res[REMOTE_NOTES]; /* knob answers for knob_result() */
	size_t rhead, nres;
	struct event ev[SNAP_MAX_EVENTS]; /* notes for the next snapshot's events */
	size_t nev;
};

/* Queue a status note for note() and the next snapshot's events (remote_host.c); err marks a
 * failure (EV_ERROR) rather than news (EV_KNOB). */
void remote_note(struct remote *r, bool err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A far side's answer to `set KNOB VALUE` (VALUE: what is in force there): a knob result
 * for knob_result() and an event for --record (src_remote.c). */
void remote_knob_reply(struct remote *r, struct remote_host *h, const char *knob, const char *value,
		       bool ok, const char *error);

/* remote_host.c. A host starts down with no child; remote_host_pump() spawns it when its
 * retry time comes, remote_host_spawn() at once. Nothing here blocks but remote_host_reap. */
void remote_host_init(struct remote_host *h, const char *name);
/* Start `ssh ... HOST far_cmd`; -1 with errno when the pipes or the fork fail. */
int remote_host_spawn(struct remote *r, struct remote_host *h);
/* Read what has arrived, write what is queued; mark the host down (with a note) when ssh
 * ends or the link goes quiet, and try a down host again once its backoff has passed. */
void remote_host_pump(struct remote *r, struct remote_host *h, uint64_t now);
/* Queue a command line (ending in "\n") for the far side; remote_host_flush writes as much
 * as the pipe takes, the rest goes on later pumps. */
void remote_host_queue(struct remote_host *h, const char *cmd);
void remote_host_flush(struct remote *r, struct remote_host *h);
/* Closing, in two steps so every host ends at once: hangup asks the agent to quit and closes
 * ssh's stdin; reap waits for ssh until deadline_ns (CLOCK_MONOTONIC), then kills it, and
 * frees the host. */
void remote_host_hangup(struct remote *r, struct remote_host *h);
void remote_host_reap(struct remote_host *h, uint64_t deadline_ns);

#endif
