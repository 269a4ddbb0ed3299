/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * remote_host.c: one remote host's link: the `ssh HOST tunetop --agent` child, its
 * non-blocking pipes, the agent's lines (snapshots, deltas, replies), and the backoff that
 * tries a dropped host again.
 */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backends/remote/jdelta.h"
#include "backends/remote/remote_int.h"
#include "backends/replay/snapdec.h"
#include "core/clock.h"
#include "core/utf8.h"
#include "core/xalloc.h"

/* Backoff between tries of a host that is down: from 1 s, doubling, at most 30 s. */
#define REMOTE_BACKOFF_MIN_MS 1000
#define REMOTE_BACKOFF_MAX_MS 30000
/* No line for this long (and at least 3 refreshes): the link is dead, though ssh lives. */
#define REMOTE_STALE_S 3.0
/* No snapshot this long after the start: whatever answers is not a working agent. */
#define REMOTE_FIRST_S 10.0
/* A down host's child that ignored SIGTERM this long gets SIGKILL (then it is tried again). */
#define REMOTE_KILL_GRACE_MS 2000
/* Lines before the first snapshot that are not JSON objects: a login banner, up to this. */
#define REMOTE_BANNER_LINES 100
/* Commands waiting for a far side that does not read: beyond this they are dropped. */
#define REMOTE_WBUF_MAX 65536
/* One pump's share of the caller's thread (the console's, once a frame): at most this many
 * bytes read, lines handled, and time spent; the rest waits in the pipe for the next pump, so
 * a host writing faster than we parse slows only itself. */
#define REMOTE_PUMP_LINES 32
#define REMOTE_PUMP_NS (3 * NS_PER_MS)
/* The options tunetop adds after the user's ssh command: no prompts (no terminal to ask
 * on), an unreachable host fails (and is tried again) before the first-snapshot deadline,
 * keep-alives so a silent link is noticed, and compression: the agent's deltas are
 * ~1.9 KB/s of JSON with the default scenario, ~0.35 KB/s through zlib. "--" then the host:
 * a host name that begins with "-" is never an option (remote_open refuses it too). */
static const char *const remote_host_ssh_opts[] = {
    "-o", "BatchMode=yes",	   "-o", "ConnectTimeout=5", "-o", "ServerAliveInterval=1",
    "-o", "ServerAliveCountMax=3", "-o", "Compression=yes",  "-T", "--",
    NULL,
};

void remote_host_init(struct remote_host *h, const char *name)
{
	h->name = xstrdup(name);
	h->to_fd = h->from_fd = h->err_fd = -1;
	h->snap = snapshot_new();
	h->state = REMOTE_DOWN;
	h->backoff_ms = REMOTE_BACKOFF_MIN_MS;
}

static void remote_host_close_fds(struct remote_host *h)
{
	if (h->to_fd >= 0)
		close(h->to_fd);
	if (h->from_fd >= 0)
		close(h->from_fd);
	if (h->err_fd >= 0)
		close(h->err_fd);
	h->to_fd = h->from_fd = h->err_fd = -1;
}

/* How a link ends: down (tried again after the backoff), broken (not an agent we can read:
 * tried again only after the longest backoff, and -b counts it as failed), or broken for
 * good (a far-side usage error: the same command would fail the same way). */
enum remote_drop { REMOTE_DROP_DOWN, REMOTE_DROP_BROKEN, REMOTE_DROP_FOR_GOOD };

/* Drop the link: SIGTERM now, SIGKILL after a grace (remote_host_pump). */
static void remote_host_drop(struct remote *r, struct remote_host *h, enum remote_drop how,
			     const char *raw_why)
{
	uint64_t now = clock_mono_ns();
	bool broken = how != REMOTE_DROP_DOWN;
	char why[sizeof(h->reason) - 8]; /* room for "broken: " */
	/* Often the far side's stderr: said on a terminal (-b's notes, the console), so escaped. */
	utf8_sanitize_term(why, sizeof(why), raw_why);
	if (h->pid > 0) {
		kill(h->pid, SIGTERM);
		h->kill_ns = now + REMOTE_KILL_GRACE_MS * NS_PER_MS;
	}
	remote_host_close_fds(h);
	if (broken && (!h->broken || strcmp(h->reason + 8, why) != 0))
		remote_note(r, true, "%s: broken: %s", h->name, why);
	else if (!broken && h->state != REMOTE_DOWN)
		remote_note(r, true, "%s: down: %s", h->name, why);
	h->state = REMOTE_DOWN;
	if (broken || !h->broken) /* a broken host stays so (and says why) until it is up */
		snprintf(h->reason, sizeof(h->reason), "%s%s", broken ? "broken: " : "", why);
	h->broken = h->broken || broken;
	h->len = h->wlen = h->scan = 0;
	json_decref(h->cur);
	h->cur = NULL;
	h->cur_weight = 0;
	if (broken)
		h->backoff_ms = REMOTE_BACKOFF_MAX_MS;
	h->retry_ns =
	    how == REMOTE_DROP_FOR_GOOD ? UINT64_MAX : now + (uint64_t)h->backoff_ms * NS_PER_MS;
	h->backoff_ms =
	    h->backoff_ms * 2 > REMOTE_BACKOFF_MAX_MS ? REMOTE_BACKOFF_MAX_MS : h->backoff_ms * 2;
}

static void remote_host_down(struct remote *r, struct remote_host *h, const char *why)
{
	remote_host_drop(r, h, REMOTE_DROP_DOWN, why);
}

static void remote_host_break(struct remote *r, struct remote_host *h, const char *why)
{
	remote_host_drop(r, h, REMOTE_DROP_BROKEN, why);
}

int remote_host_spawn(struct remote *r, struct remote_host *h)
{
	/* The far side's stdin, stdout and stderr: p[k][k != 0] is its end, p[k][k == 0] ours. */
	int p[3][2], k;
	for (k = 0; k < 3 && pipe2(p[k], O_CLOEXEC) == 0; k++)
		;
	if (k < 3) {
		while (k-- > 0)
			close(p[k][0]), close(p[k][1]);
		return -1;
	}
	size_t argc = 0;
	const char **argv = xcalloc(r->ssh_argc + 16, sizeof(*argv));
	for (size_t i = 0; i < r->ssh_argc; i++)
		argv[argc++] = r->ssh_argv[i];
	for (size_t i = 0; remote_host_ssh_opts[i]; i++)
		argv[argc++] = remote_host_ssh_opts[i];
	argv[argc++] = h->name;
	argv[argc++] = r->far_cmd;
	argv[argc] = NULL;
	pid_t pid = fork();
	if (pid == 0) {
		/* Its own process group: the console's Ctrl-C is for the console; we end ssh. */
		setpgid(0, 0);
		for (k = 0; k < 3; k++)
			dup2(p[k][k != 0], k);
		signal(SIGPIPE, SIG_DFL);
		execvp(argv[0], (char *const *)argv);
		dprintf(2, "%s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	free(argv);
	for (k = 0; k < 3; k++) {
		close(p[k][k != 0]);
		if (pid < 0)
			close(p[k][k == 0]);
		else
			fcntl(p[k][k == 0], F_SETFL, fcntl(p[k][k == 0], F_GETFL) | O_NONBLOCK);
	}
	if (pid < 0)
		return -1;
	h->pid = pid;
	h->to_fd = p[0][1];
	h->from_fd = p[1][0];
	h->err_fd = p[2][0];
	h->state = REMOTE_CONNECTING;
	h->kill_ns = 0;
	h->garbage_lines = 0;
	h->start_ns = h->last_rx_ns = clock_mono_ns();
	h->errlen = 0;
	h->errline[0] = '\0';
	return 0;
}

void remote_host_queue(struct remote_host *h, const char *cmd)
{
	size_t n = strlen(cmd);
	if (h->wlen + n > REMOTE_WBUF_MAX)
		return; /* the far side reads nothing: it will be marked down */
	h->wbuf = xrealloc(h->wbuf, h->wlen + n + 1);
	memcpy(h->wbuf + h->wlen, cmd, n);
	h->wlen += n;
}

void remote_host_flush(struct remote *r, struct remote_host *h)
{
	while (h->wlen && h->to_fd >= 0) {
		ssize_t w = write(h->to_fd, h->wbuf, h->wlen);
		if (w < 0) {
			if (errno == EAGAIN || errno == EINTR)
				return; /* the pipe is full: the rest goes on a later pump */
			remote_host_down(r, h, "the link closed while sending");
			return;
		}
		memmove(h->wbuf, h->wbuf + w, h->wlen - (size_t)w);
		h->wlen -= (size_t)w;
	}
}

static void remote_host_reply(struct remote *r, struct remote_host *h, const json_t *o)
{
	const char *cmd = json_string_value(json_object_get(o, "reply"));
	bool ok = json_is_true(json_object_get(o, "ok"));
	const char *knob = json_string_value(json_object_get(o, "knob"));
	const char *value = json_string_value(json_object_get(o, "value"));
	const char *error = json_string_value(json_object_get(o, "error"));
	if (cmd && strcmp(cmd, "set") == 0 && knob && value)
		remote_knob_reply(r, h, knob, value, ok, error);
	else if (!ok)
		remote_note(r, true, "%s: %s", h->name, error ? error : "error");
}

/* The top-level keys of a schema-1 snapshot (tui/snapjson.c): others are dropped on arrival,
 * so no delta can grow them either. */
static const char *const remote_host_keys[] = {
    "schema",  "tool", "version", "time", "uptime_s", "interval_s", "backend", "seq",  "cpu",
    "threads", "est",  "pmd",	  "blk",  "host",     "knobs",	    "events",  "self", NULL,
};

static void remote_host_strip(json_t *o)
{
	const char *k;
	json_t *v;
	void *tmp;
	json_object_foreach_safe(o, tmp, k, v)
	{
		size_t i = 0;
		while (remote_host_keys[i] && strcmp(remote_host_keys[i], k) != 0)
			i++;
		if (!remote_host_keys[i])
			json_object_del(o, k);
	}
}

/* A line that is not an object of ours: a banner before the first snapshot, a broken far side
 * after it, or after too many. */
static void remote_host_garbage(struct remote *r, struct remote_host *h)
{
	char why[96];
	h->garbage_lines++;
	if (h->have && h->state == REMOTE_UP) {
		remote_host_break(r, h, "a line that is not JSON after the first snapshot");
	} else if (h->garbage_lines > REMOTE_BANNER_LINES) {
		snprintf(why, sizeof(why), "not a tunetop agent (%d lines that are not JSON)",
			 REMOTE_BANNER_LINES + 1);
		remote_host_break(r, h, why);
	}
}

static void remote_host_line(struct remote *r, struct remote_host *h, const char *line, size_t len)
{
	char err[128];
	json_t *o = json_loadb(line, len, 0, NULL);
	if (!json_is_object(o)) {
		json_decref(o);
		remote_host_garbage(r, h);
		return;
	}
	if (json_object_get(o, "reply")) {
		remote_host_reply(r, h, o);
		json_decref(o);
		return;
	}
	const json_t *d = json_object_get(o, "delta");
	if (d) {
		struct jdelta_budget b = {.weight = h->cur_weight, .max_weight = REMOTE_TREE_MAX};
		if (!h->cur) {
			/* Lost the base (cannot happen on a pipe, but never trust it): ask anew. */
			if (!h->wlen)
				remote_host_queue(h, "full\n");
			json_decref(o);
			return;
		}
		int rc = jdelta_apply_bounded(h->cur, d, &b);
		json_decref(o);
		h->cur_weight = b.weight;
		h->dropped_paths += b.dropped;
		if (rc != 0) {
			remote_host_break(r, h, "deltas grew the snapshot past its bound");
			return;
		}
	} else {
		const json_t *schema = json_object_get(o, "schema");
		if (json_is_integer(schema) && json_integer_value(schema) != SNAPDEC_SCHEMA) {
			char why[96];
			snprintf(why, sizeof(why),
				 "schema %lld is not supported (this tunetop reads %d)",
				 (long long)json_integer_value(schema), SNAPDEC_SCHEMA);
			json_decref(o);
			remote_host_break(r, h, why);
			return;
		}
		if (!json_is_integer(schema)) {
			json_decref(o);
			remote_host_garbage(r, h);
			return;
		}
		remote_host_strip(o);
		size_t w = jdelta_weight(o);
		if (w > REMOTE_TREE_MAX) {
			json_decref(o);
			remote_host_break(r, h, "a snapshot past the size bound");
			return;
		}
		json_decref(h->cur);
		h->cur = o;
		h->cur_weight = w;
	}
	if (snapdec_from_json(h->cur, h->snap, err, sizeof(err)) != SNAPDEC_OK)
		return;
	h->have = h->fresh = true;
	h->snap_ns = clock_mono_ns();
	/* Up (or up again): the console takes this snapshot now, not at its next interval. */
	if (h->state != REMOTE_UP && h->reason[0])
		remote_note(r, false, "%s: up again", h->name);
	else if (h->state != REMOTE_UP)
		remote_note(r, false, "%s: up", h->name);
	h->state = REMOTE_UP;
	h->broken = false;
	h->reason[0] = '\0';
	h->backoff_ms = REMOTE_BACKOFF_MIN_MS;
}

static void remote_host_read_err(struct remote_host *h)
{
	char buf[1024];
	ssize_t n;
	int reads = 0;
	/* At most 64 KB a pump: a far side flooding its stderr slows only itself. */
	while (h->err_fd >= 0 && reads++ < 64 && (n = read(h->err_fd, buf, sizeof(buf))) > 0) {
		/* Keep the last whole non-empty line: ssh says why it failed there. */
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] == '\n' || buf[i] == '\r') {
				if (h->errlen) {
					h->errline[h->errlen] = '\0';
					h->errlen = 0;
				}
			} else if (h->errlen + 1 < sizeof(h->errline)) {
				if (h->errlen == 0)
					h->errline[0] = '\0';
				h->errline[h->errlen++] = buf[i];
				h->errline[h->errlen] = '\0';
			}
		}
	}
}

/* Handle the whole lines in buf from *start, within the pump's budget; false when it ran out
 * (or the host went down). */
static bool remote_host_lines(struct remote *r, struct remote_host *h, size_t *start, size_t *scan,
			      int *lines, uint64_t t0)
{
	for (;;) {
		char *nl = *scan < h->len ? memchr(h->buf + *scan, '\n', h->len - *scan) : NULL;
		if (!nl) {
			*scan = h->len;
			return true;
		}
		size_t end = (size_t)(nl - h->buf);
		remote_host_line(r, h, h->buf + *start, end - *start);
		if (h->state == REMOTE_DOWN)
			return false;
		*start = *scan = end + 1;
		if (++*lines >= REMOTE_PUMP_LINES || clock_mono_ns() - t0 >= REMOTE_PUMP_NS)
			return false;
	}
}

/* Read and handle what the budget allows; false when the host went down. */
static bool remote_host_read(struct remote *r, struct remote_host *h, uint64_t now)
{
	size_t start = 0, scan = h->scan, got = 0;
	int lines = 0;
	uint64_t t0 = clock_mono_ns();
	bool more = remote_host_lines(r, h, &start, &scan, &lines, t0);
	while (more && h->state != REMOTE_DOWN && got < REMOTE_PUMP_BYTES) {
		if (h->len - start > REMOTE_LINE_MAX) {
			remote_host_break(r, h, "a line over 8 MB");
			return false;
		}
		if (h->cap - h->len < 65536) {
			h->cap = h->cap ? h->cap * 2 : 131072;
			h->buf = xrealloc(h->buf, h->cap);
		}
		size_t want = h->cap - h->len;
		if (want > REMOTE_PUMP_BYTES - got)
			want = REMOTE_PUMP_BYTES - got;
		ssize_t n = read(h->from_fd, h->buf + h->len, want);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break; /* EAGAIN: all there is for now */
		}
		if (n == 0) {
			remote_host_read_err(h);
			remote_host_down(r, h, h->errline[0] ? h->errline : "the link closed");
			return false;
		}
		got += (size_t)n;
		h->rx_bytes += (uint64_t)n;
		h->last_rx_ns = now;
		h->len += (size_t)n;
		more = remote_host_lines(r, h, &start, &scan, &lines, t0);
	}
	uint64_t took = clock_mono_ns() - t0;
	if (took > h->pump_ns_max)
		h->pump_ns_max = took;
	if (h->state == REMOTE_DOWN)
		return false;
	if (h->len - start > REMOTE_LINE_MAX) {
		remote_host_break(r, h, "a line over 8 MB");
		return false;
	}
	if (start)
		memmove(h->buf, h->buf + start, h->len - start);
	h->len -= start;
	h->scan = scan - start;
	/* A buffer grown for one long line goes back once that line is done. */
	if (h->cap > (1u << 20) && h->len < (64u << 10)) {
		h->cap = 131072;
		h->buf = xrealloc(h->buf, h->cap);
	}
	return true;
}

/* The far side's exit: a usage error (status 2) is not tried again. */
static void remote_host_exited(struct remote *r, struct remote_host *h, int status)
{
	char why[300];
	remote_host_read_err(h);
	if (h->errline[0])
		snprintf(why, sizeof(why), "%s", h->errline);
	else if (WIFEXITED(status))
		snprintf(why, sizeof(why), "ssh exited with status %d", WEXITSTATUS(status));
	else
		snprintf(why, sizeof(why), "ssh killed");
	if (WIFEXITED(status) && WEXITSTATUS(status) == 2)
		remote_host_drop(r, h, REMOTE_DROP_FOR_GOOD, why);
	else
		remote_host_down(r, h, why);
}

void remote_host_pump(struct remote *r, struct remote_host *h, uint64_t now)
{
	int status;
	if (h->pid > 0 && waitpid(h->pid, &status, WNOHANG) == h->pid) {
		h->pid = 0;
		if (h->state != REMOTE_DOWN)
			remote_host_exited(r, h, status);
	}
	if (h->state == REMOTE_DOWN) {
		if (h->pid > 0 && h->kill_ns && now >= h->kill_ns) {
			/* It ignored SIGTERM: its group too (ssh, or what --ssh ran). */
			kill(-h->pid, SIGKILL);
			kill(h->pid, SIGKILL);
			h->kill_ns = 0;
		}
		if (now >= h->retry_ns && h->pid == 0) {
			if (remote_host_spawn(r, h) != 0)
				remote_host_down(r, h, strerror(errno));
		}
		return;
	}
	remote_host_read_err(h);
	remote_host_flush(r, h);
	if (h->state == REMOTE_DOWN || !remote_host_read(r, h, now))
		return;
	double stale = REMOTE_STALE_S > 3 * r->delay_s ? REMOTE_STALE_S : 3 * r->delay_s;
	/* Connecting may take a while (a slow login): the stale limit starts at the first line,
	 * the first snapshot has its own deadline. */
	if (h->state == REMOTE_UP && (double)(now - h->last_rx_ns) / 1e9 > stale) {
		char why[64];
		snprintf(why, sizeof(why), "no data for %.0f s", stale);
		remote_host_down(r, h, why);
	} else if (h->state == REMOTE_CONNECTING &&
		   (double)(now - h->start_ns) / 1e9 > REMOTE_FIRST_S) {
		char why[96];
		snprintf(why, sizeof(why), "no snapshot in %.0f s (not a tunetop agent?)",
			 REMOTE_FIRST_S);
		remote_host_break(r, h, why);
	}
	if (h->rate_ns0 == 0 || now - h->rate_ns0 >= 3 * NS_PER_S) {
		if (h->rate_ns0)
			h->rate = (double)(h->rx_bytes - h->rate_bytes0) * 1e9 /
				  (double)(now - h->rate_ns0);
		h->rate_ns0 = now;
		h->rate_bytes0 = h->rx_bytes;
	}
}

void remote_host_hangup(struct remote *r, struct remote_host *h)
{
	/* quit, then EOF: the agent ends; then ssh ends. */
	if (h->to_fd >= 0) {
		remote_host_queue(h, "quit\n");
		remote_host_flush(r, h);
	}
	if (h->to_fd >= 0)
		close(h->to_fd);
	h->to_fd = -1;
}

void remote_host_reap(struct remote_host *h, uint64_t deadline_ns)
{
	int status;
	while (h->pid > 0) {
		if (waitpid(h->pid, &status, WNOHANG) == h->pid) {
			h->pid = 0;
			break;
		}
		if (clock_mono_ns() >= deadline_ns) {
			kill(h->pid, SIGKILL);
			waitpid(h->pid, &status, 0);
			h->pid = 0;
			break;
		}
		clock_sleep_ns(10 * NS_PER_MS);
	}
	remote_host_close_fds(h);
	json_decref(h->cur);
	snapshot_free(h->snap);
	free(h->buf);
	free(h->wbuf);
	free(h->name);
}
