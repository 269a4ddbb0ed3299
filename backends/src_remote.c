/*
 * src_remote.c: remote hosts as a source: one `ssh HOST tunetop --agent` child per host,
 * read through non-blocking pipes (sample() never waits: it hands over the latest whole
 * snapshot), knob sets written to the far side with the reply reported through note().
 * A host that drops is marked down with ssh's reason and tried again with backoff.
 */
#include "backends/src_remote.h"

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

#include "backends/jdelta.h"
#include "backends/snapdec.h"
#include "core/clock.h"
#include "core/xalloc.h"

/* Backoff between tries of a host that is down: from 1 s, doubling, at most 30 s. */
#define REMOTE_BACKOFF_MIN_MS 1000
#define REMOTE_BACKOFF_MAX_MS 30000
/* No line for this long (and at least 3 refreshes): the link is dead, though ssh lives. */
#define REMOTE_STALE_S 3.0
/* A line longer than this is garbage: dropped. */
#define REMOTE_LINE_MAX (8u << 20)
/* Status notes queued (the oldest go when the screen does not ask). */
#define REMOTE_NOTES 32
/* Closing: how long ssh gets to end on its own once its stdin closed. */
#define REMOTE_CLOSE_WAIT_MS 1500
/* The options tunetop adds after the user's ssh command: no prompts (no terminal to ask
 * on), keep-alives so a silent link is noticed, and compression: the agent's deltas are
 * ~1.9 KB/s of JSON with the default scenario, ~0.35 KB/s through zlib. */
static const char *const remote_ssh_opts[] = {
    "-o", "BatchMode=yes", "-o", "ServerAliveInterval=1", "-o", "ServerAliveCountMax=3",
    "-o", "Compression=yes", "-T", NULL,
};

struct remote_host {
	char *name;
	enum remote_state state;
	char reason[200];
	pid_t pid;
	int to_fd, from_fd, err_fd; /* ssh's stdin, stdout, stderr (ours: non-blocking) */
	char *buf; /* stdout bytes not yet a whole line */
	size_t len, cap;
	char errline[200]; /* ssh's last stderr line */
	size_t errlen;
	char *wbuf; /* commands not yet written */
	size_t wlen;
	json_t *cur; /* the far side's snapshot, rebuilt from its deltas */
	struct snapshot *snap;
	bool have, fresh; /* fresh: not yet taken by remote_take_new */
	uint64_t snap_ns, last_rx_ns, start_ns, retry_ns;
	uint64_t taken_ns; /* snap_ns of the snapshot remote_take_new() last gave */
	unsigned backoff_ms;
	uint64_t rx_bytes, rate_bytes0, rate_ns0;
	double rate;
};

struct remote {
	struct remote_host *h;
	int n, sel;
	char **ssh_argv;
	size_t ssh_argc;
	char *far_cmd; /* the command the far side runs */
	double delay_s;
	char notes[REMOTE_NOTES][240];
	bool note_err[REMOTE_NOTES];
	size_t nhead, nnotes;
	struct event ev[SNAP_MAX_EVENTS]; /* notes for the next snapshot's events */
	size_t nev;
};

static void remote_note(struct remote *r, bool err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void remote_note(struct remote *r, bool err, const char *fmt, ...)
{
	va_list ap;
	size_t i = (r->nhead + r->nnotes) % REMOTE_NOTES;
	if (r->nnotes == REMOTE_NOTES) {
		r->nhead = (r->nhead + 1) % REMOTE_NOTES;
		r->nnotes--;
		i = (r->nhead + r->nnotes) % REMOTE_NOTES;
	}
	va_start(ap, fmt);
	vsnprintf(r->notes[i], sizeof(r->notes[i]), fmt, ap);
	va_end(ap);
	r->note_err[i] = err;
	r->nnotes++;
	if (r->nev < SNAP_MAX_EVENTS) {
		struct event *e = &r->ev[r->nev++];
		struct timespec ts;
		memset(e, 0, sizeof(*e));
		clock_gettime(CLOCK_REALTIME, &ts);
		e->wall_ns = clock_ts_to_ns(&ts);
		e->mono_ns = clock_mono_ns();
		e->kind = err ? EV_ERROR : EV_KNOB;
		size_t l = strnlen(r->notes[i], sizeof(e->text) - 1);
		memcpy(e->text, r->notes[i], l);
		e->text[l] = '\0';
	}
}

static void host_close_fds(struct remote_host *h)
{
	if (h->to_fd >= 0)
		close(h->to_fd);
	if (h->from_fd >= 0)
		close(h->from_fd);
	if (h->err_fd >= 0)
		close(h->err_fd);
	h->to_fd = h->from_fd = h->err_fd = -1;
}

static void host_down(struct remote *r, struct remote_host *h, const char *why)
{
	if (h->pid > 0) {
		kill(h->pid, SIGTERM);
		/* Reaped on the next pumps (WNOHANG); SIGKILL at close if it lingers. */
	}
	host_close_fds(h);
	if (h->state != REMOTE_DOWN)
		remote_note(r, true, "%s: down: %s", h->name, why);
	h->state = REMOTE_DOWN;
	snprintf(h->reason, sizeof(h->reason), "%s", why);
	h->len = h->wlen = 0;
	json_decref(h->cur);
	h->cur = NULL;
	h->retry_ns = clock_mono_ns() + (uint64_t)h->backoff_ms * NS_PER_MS;
	h->backoff_ms = h->backoff_ms * 2 > REMOTE_BACKOFF_MAX_MS ? REMOTE_BACKOFF_MAX_MS
								   : h->backoff_ms * 2;
}

static void set_nonblock(int fd)
{
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

static int host_spawn(struct remote *r, struct remote_host *h)
{
	int in[2], out[2], er[2];
	if (pipe2(in, O_CLOEXEC) != 0)
		return -1;
	if (pipe2(out, O_CLOEXEC) != 0) {
		close(in[0]);
		close(in[1]);
		return -1;
	}
	if (pipe2(er, O_CLOEXEC) != 0) {
		close(in[0]);
		close(in[1]);
		close(out[0]);
		close(out[1]);
		return -1;
	}
	size_t argc = 0;
	const char **argv = xcalloc(r->ssh_argc + 16, sizeof(*argv));
	for (size_t i = 0; i < r->ssh_argc; i++)
		argv[argc++] = r->ssh_argv[i];
	for (size_t i = 0; remote_ssh_opts[i]; i++)
		argv[argc++] = remote_ssh_opts[i];
	argv[argc++] = h->name;
	argv[argc++] = r->far_cmd;
	argv[argc] = NULL;
	pid_t pid = fork();
	if (pid == 0) {
		/* Its own process group: the console's Ctrl-C is for the console; we end ssh. */
		setpgid(0, 0);
		dup2(in[0], 0);
		dup2(out[1], 1);
		dup2(er[1], 2);
		signal(SIGPIPE, SIG_DFL);
		execvp(argv[0], (char *const *)argv);
		dprintf(2, "%s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	free(argv);
	close(in[0]);
	close(out[1]);
	close(er[1]);
	if (pid < 0) {
		close(in[1]);
		close(out[0]);
		close(er[0]);
		return -1;
	}
	h->pid = pid;
	h->to_fd = in[1];
	h->from_fd = out[0];
	h->err_fd = er[0];
	set_nonblock(h->to_fd);
	set_nonblock(h->from_fd);
	set_nonblock(h->err_fd);
	h->state = REMOTE_CONNECTING;
	h->start_ns = h->last_rx_ns = clock_mono_ns();
	h->errlen = 0;
	h->errline[0] = '\0';
	return 0;
}

static void host_queue(struct remote_host *h, const char *cmd)
{
	size_t n = strlen(cmd);
	h->wbuf = xrealloc(h->wbuf, h->wlen + n + 1);
	memcpy(h->wbuf + h->wlen, cmd, n);
	h->wlen += n;
}

static void host_flush(struct remote *r, struct remote_host *h)
{
	while (h->wlen && h->to_fd >= 0) {
		ssize_t w = write(h->to_fd, h->wbuf, h->wlen);
		if (w < 0) {
			if (errno == EAGAIN || errno == EINTR)
				return; /* the pipe is full: the rest goes on a later pump */
			host_down(r, h, "the link closed while sending");
			return;
		}
		memmove(h->wbuf, h->wbuf + w, h->wlen - (size_t)w);
		h->wlen -= (size_t)w;
	}
}

static void host_reply(struct remote *r, struct remote_host *h, const json_t *o)
{
	const char *cmd = json_string_value(json_object_get(o, "reply"));
	bool ok = json_is_true(json_object_get(o, "ok"));
	const char *knob = json_string_value(json_object_get(o, "knob"));
	const char *value = json_string_value(json_object_get(o, "value"));
	const char *error = json_string_value(json_object_get(o, "error"));
	if (cmd && strcmp(cmd, "set") == 0 && knob && value && ok)
		remote_note(r, false, "%s: %s = %s", h->name, knob, value);
	else if (cmd && strcmp(cmd, "set") == 0 && knob && value)
		remote_note(r, true, "%s: %s stays %s (%s)", h->name, knob, value,
			    error ? error : "refused");
	else if (!ok)
		remote_note(r, true, "%s: %s", h->name, error ? error : "error");
}

static void host_line(struct remote *r, struct remote_host *h, const char *line, size_t len)
{
	char err[128];
	json_t *o = json_loadb(line, len, 0, NULL);
	if (!json_is_object(o)) {
		json_decref(o);
		return; /* noise (a login banner): not ours */
	}
	if (json_object_get(o, "reply")) {
		host_reply(r, h, o);
		json_decref(o);
		return;
	}
	const json_t *d = json_object_get(o, "delta");
	if (d) {
		if (!h->cur || jdelta_apply(h->cur, d) != 0) {
			/* Lost the base (cannot happen on a pipe, but never trust it): ask anew. */
			json_decref(h->cur);
			h->cur = NULL;
			host_queue(h, "full\n");
			json_decref(o);
			return;
		}
		json_decref(o);
	} else {
		json_decref(h->cur);
		h->cur = o;
	}
	if (snapdec_from_json(h->cur, h->snap, err, sizeof(err)) != SNAPDEC_OK)
		return;
	h->have = h->fresh = true;
	h->snap_ns = clock_mono_ns();
	if (h->state != REMOTE_UP && h->reason[0])
		remote_note(r, false, "%s: up again", h->name);
	h->state = REMOTE_UP;
	h->reason[0] = '\0';
	h->backoff_ms = REMOTE_BACKOFF_MIN_MS;
}

static void host_read_err(struct remote_host *h)
{
	char buf[1024];
	ssize_t n;
	while (h->err_fd >= 0 && (n = read(h->err_fd, buf, sizeof(buf))) > 0) {
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

static void host_pump(struct remote *r, struct remote_host *h, uint64_t now)
{
	int status;
	if (h->pid > 0 && waitpid(h->pid, &status, WNOHANG) == h->pid) {
		h->pid = 0;
		if (h->state != REMOTE_DOWN) {
			char why[300];
			host_read_err(h);
			snprintf(why, sizeof(why), "%s",
				 h->errline[0] ? h->errline
				 : WIFEXITED(status) ? "ssh exited"
						     : "ssh killed");
			if (!h->errline[0] && WIFEXITED(status))
				snprintf(why, sizeof(why), "ssh exited with status %d",
					 WEXITSTATUS(status));
			host_down(r, h, why);
		}
	}
	if (h->state == REMOTE_DOWN) {
		if (now >= h->retry_ns && h->pid == 0) {
			if (host_spawn(r, h) != 0)
				host_down(r, h, strerror(errno));
		}
		return;
	}
	host_read_err(h);
	host_flush(r, h);
	for (;;) {
		if (h->cap - h->len < 65536) {
			h->cap = h->cap ? h->cap * 2 : 131072;
			h->buf = xrealloc(h->buf, h->cap);
		}
		ssize_t n = read(h->from_fd, h->buf + h->len, h->cap - h->len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break; /* EAGAIN: all there is for now */
		}
		if (n == 0) {
			host_read_err(h);
			host_down(r, h, h->errline[0] ? h->errline : "the link closed");
			return;
		}
		h->rx_bytes += (uint64_t)n;
		h->last_rx_ns = now;
		size_t start = 0;
		for (size_t i = h->len; i < h->len + (size_t)n; i++)
			if (h->buf[i] == '\n') {
				host_line(r, h, h->buf + start, i - start);
				if (h->state == REMOTE_DOWN)
					return;
				start = i + 1;
			}
		h->len += (size_t)n;
		memmove(h->buf, h->buf + start, h->len - start);
		h->len -= start;
		if (h->len > REMOTE_LINE_MAX)
			h->len = 0; /* no line is this long: drop it */
	}
	double stale = REMOTE_STALE_S > 3 * r->delay_s ? REMOTE_STALE_S : 3 * r->delay_s;
	/* Connecting may take a while (a slow login): the stale limit starts at the first line. */
	if (h->state == REMOTE_UP && (double)(now - h->last_rx_ns) / 1e9 > stale) {
		char why[64];
		snprintf(why, sizeof(why), "no data for %.0f s", stale);
		host_down(r, h, why);
	}
	if (h->rate_ns0 == 0 || now - h->rate_ns0 >= 3 * NS_PER_S) {
		if (h->rate_ns0)
			h->rate = (double)(h->rx_bytes - h->rate_bytes0) * 1e9 / (double)(now - h->rate_ns0);
		h->rate_ns0 = now;
		h->rate_bytes0 = h->rx_bytes;
	}
}

static void remote_pump(struct remote *r)
{
	uint64_t now = clock_mono_ns();
	for (int i = 0; i < r->n; i++)
		host_pump(r, &r->h[i], now);
}

static int remote_open(struct source *src, const struct source_conf *conf, char *err,
		       size_t errlen)
{
	if (!conf->nremotes) {
		snprintf(err, errlen, "needs --remote HOST");
		return KNOB_ERR_USAGE;
	}
	struct remote *r = xcalloc(1, sizeof(*r));
	r->ssh_argv = remote_split_argv(conf->ssh ? conf->ssh : "ssh", err, errlen);
	if (!r->ssh_argv) {
		free(r);
		return KNOB_ERR_USAGE;
	}
	while (r->ssh_argv[r->ssh_argc])
		r->ssh_argc++;
	r->delay_s = conf->delay_s > 0 ? conf->delay_s : 1.0;
	/* exec: the far shell becomes the agent, so no shell is left when it ends. */
	size_t len = 4;
	char num[32];
	r->far_cmd = xstrdup("exec");
	remote_shell_quote(&r->far_cmd, &len, conf->agent_path ? conf->agent_path : "tunetop");
	remote_shell_quote(&r->far_cmd, &len, "--agent");
	remote_shell_quote(&r->far_cmd, &len, "-d");
	snprintf(num, sizeof(num), "%g", r->delay_s);
	remote_shell_quote(&r->far_cmd, &len, num);
	for (const char *const *a = conf->agent_args; a && *a; a++)
		remote_shell_quote(&r->far_cmd, &len, *a);
	r->n = (int)conf->nremotes;
	r->h = xcalloc(conf->nremotes, sizeof(*r->h));
	for (int i = 0; i < r->n; i++) {
		struct remote_host *h = &r->h[i];
		h->name = xstrdup(conf->remotes[i]);
		h->to_fd = h->from_fd = h->err_fd = -1;
		h->snap = snapshot_new();
		h->state = REMOTE_DOWN;
		h->backoff_ms = REMOTE_BACKOFF_MIN_MS;
	}
	src->priv = r;
	return 0;
}

static int remote_start(struct source *src, char *err, size_t errlen)
{
	struct remote *r = src->priv;
	for (int i = 0; i < r->n; i++)
		if (host_spawn(r, &r->h[i]) != 0) {
			snprintf(err, errlen, "%s: cannot start ssh: %s", r->h[i].name, strerror(errno));
			return -1;
		}
	return 0;
}

static void remote_sample(struct source *src, struct snapshot *snap)
{
	struct remote *r = src->priv;
	struct remote_host *h = &r->h[r->sel];
	struct timespec ts;

	remote_pump(r);
	if (h->have) {
		snapshot_copy(snap, h->snap);
		if (!h->fresh)
			snap->nevents = 0; /* its events were shown with it already */
		h->fresh = false;
	} else {
		/* Nothing yet: an empty snapshot (the header says so), no stale figures. */
		snap->ncpus = 0;
		snap->nthreads = 0;
		snap->has_est = snap->has_pmd = snap->has_blk = snap->has_host = false;
		snap->nevents = 0;
		snap->governor = -1;
		snap->governor_absent = true;
		for (int k = 0; k < K_COUNT; k++)
			snap->knobs[k] = knob_table[k].def;
		clock_gettime(CLOCK_REALTIME, &ts);
		snap->wall_ns = clock_ts_to_ns(&ts);
		snap->backend = "remote";
	}
	snap->mono_ns = clock_mono_ns();
	for (size_t i = 0; i < r->nev && snap->nevents < SNAP_MAX_EVENTS; i++)
		snap->events[snap->nevents++] = r->ev[i];
	r->nev = 0;
}

static int remote_knob_set(struct source *src, enum knob_id id, int64_t v, int64_t *stored,
			   char *err, size_t errlen)
{
	struct remote *r = src->priv;
	struct remote_host *h = &r->h[r->sel];
	char val[64], cmd[256];
	if (h->state == REMOTE_DOWN) {
		snprintf(err, errlen, "%s is down (%s)", h->name, h->reason);
		return KNOB_ERR_RUNTIME;
	}
	knob_format(id, v, val, sizeof(val));
	snprintf(cmd, sizeof(cmd), "set %s %s\n", knob_table[id].name, val);
	host_queue(h, cmd);
	host_flush(r, h);
	*stored = v; /* sent: the far side's reply (note()) says what it stored */
	return 0;
}

static int remote_knob_get(struct source *src, enum knob_id id, int64_t *out)
{
	struct remote *r = src->priv;
	struct remote_host *h = &r->h[r->sel];
	if (!h->have)
		return -1;
	*out = h->snap->knobs[id];
	return 0;
}

static size_t remote_status(struct source *src, char *buf, size_t len)
{
	struct remote *r = src->priv;
	struct remote_host *h = &r->h[r->sel];
	int up = 0;
	for (int i = 0; i < r->n; i++)
		up += r->h[i].state == REMOTE_UP;
	int n;
	if (r->n > 1)
		n = snprintf(buf, len, "%s (%d/%d hosts up) %s %.0f B/s", h->name, up, r->n,
			     h->state == REMOTE_UP ? "up" : h->state == REMOTE_DOWN ? "down" : "connecting",
			     h->rate);
	else
		n = snprintf(buf, len, "remote %s %s %.0f B/s", h->name,
			     h->state == REMOTE_UP ? "up" : h->state == REMOTE_DOWN ? "down" : "connecting",
			     h->rate);
	return n < 0 ? 0 : (size_t)n < len ? (size_t)n : len - 1;
}

static bool remote_note_pop(struct source *src, char *buf, size_t len, bool *err)
{
	struct remote *r = src->priv;
	remote_pump(r);
	if (!r->nnotes)
		return false;
	snprintf(buf, len, "%s", r->notes[r->nhead]);
	*err = r->note_err[r->nhead];
	r->nhead = (r->nhead + 1) % REMOTE_NOTES;
	r->nnotes--;
	return true;
}

static void remote_close(struct source *src)
{
	struct remote *r = src->priv;
	if (!r)
		return;
	/* quit, then EOF: the agent ends; then ssh ends. Wait a little, then make sure. */
	for (int i = 0; i < r->n; i++) {
		struct remote_host *h = &r->h[i];
		if (h->to_fd >= 0) {
			host_queue(h, "quit\n");
			host_flush(r, h);
		}
		if (h->to_fd >= 0)
			close(h->to_fd);
		h->to_fd = -1;
	}
	uint64_t end = clock_mono_ns() + REMOTE_CLOSE_WAIT_MS * NS_PER_MS;
	for (int i = 0; i < r->n; i++) {
		struct remote_host *h = &r->h[i];
		int status;
		while (h->pid > 0) {
			if (waitpid(h->pid, &status, WNOHANG) == h->pid) {
				h->pid = 0;
				break;
			}
			if (clock_mono_ns() >= end) {
				kill(h->pid, SIGKILL);
				waitpid(h->pid, &status, 0);
				h->pid = 0;
				break;
			}
			clock_sleep_ns(10 * NS_PER_MS);
		}
		host_close_fds(h);
		json_decref(h->cur);
		snapshot_free(h->snap);
		free(h->buf);
		free(h->wbuf);
		free(h->name);
	}
	free(r->h);
	free(r->far_cmd);
	remote_argv_free(r->ssh_argv);
	free(r);
	src->priv = NULL;
}

int remote_count(struct source *src)
{
	return src->ops == &source_remote_ops ? ((struct remote *)src->priv)->n : 0;
}

bool remote_row(struct source *src, int i, struct remote_row *row)
{
	if (i < 0 || i >= remote_count(src))
		return false;
	struct remote *r = src->priv;
	struct remote_host *h = &r->h[i];
	uint64_t now = clock_mono_ns();
	remote_pump(r);
	*row = (struct remote_row){
	    .name = h->name,
	    .state = h->state,
	    .reason = h->reason,
	    .snap = h->have ? h->snap : NULL,
	    .age_s = h->have ? (double)(now - h->snap_ns) / 1e9 : 0,
	    .retry_in_s = h->state == REMOTE_DOWN && h->retry_ns > now ? (double)(h->retry_ns - now) / 1e9 : 0,
	    .rx_bytes = h->rx_bytes,
	    .rx_bytes_per_s = h->rate,
	};
	return true;
}

void remote_select(struct source *src, int i)
{
	if (i >= 0 && i < remote_count(src))
		((struct remote *)src->priv)->sel = i;
}

int remote_selected(struct source *src)
{
	return remote_count(src) ? ((struct remote *)src->priv)->sel : 0;
}

int remote_set_all(struct source *src, const char *assignment, char *err, size_t errlen)
{
	struct remote *r = src->priv;
	enum knob_id id;
	int64_t v;
	char val[64], cmd[256];
	int rc = knob_parse_assignment(assignment, &id, &v, err, errlen), sent = 0;
	if (rc != 0)
		return rc;
	knob_format(id, v, val, sizeof(val));
	snprintf(cmd, sizeof(cmd), "set %s %s\n", knob_table[id].name, val);
	for (int i = 0; i < r->n; i++) {
		struct remote_host *h = &r->h[i];
		if (h->state == REMOTE_DOWN) {
			remote_note(r, true, "%s: not sent (down: %s)", h->name, h->reason);
			continue;
		}
		host_queue(h, cmd);
		host_flush(r, h);
		sent++;
	}
	return sent;
}

bool remote_take_new(struct source *src, int i, const struct snapshot **out)
{
	if (i < 0 || i >= remote_count(src))
		return false;
	struct remote_host *h = &((struct remote *)src->priv)->h[i];
	/* A mark of its own, apart from sample()'s: -b and --record see every snapshot once. */
	if (!h->have || h->taken_ns == h->snap_ns)
		return false;
	*out = h->snap;
	h->taken_ns = h->snap_ns;
	return true;
}

const struct source_ops source_remote_ops = {
    .name = "remote",
    .open = remote_open,
    .start = remote_start,
    .sample = remote_sample,
    .knob_set = remote_knob_set,
    .knob_get = remote_knob_get,
    .close = remote_close,
    .recorded = true,
    .status = remote_status,
    .async_knobs = true,
    .note = remote_note_pop,
};
