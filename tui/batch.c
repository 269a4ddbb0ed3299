/* SPDX-License-Identifier: GPL-2.0-or-later */
/* batch.c: the batch writer loop: sample, render one JSON line (or the metrics text), write, wait.
 */
#include "tui/batch.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/safefile.h"
#include "core/xalloc.h"
#include "tui/after.h"
#include "tui/metrics/metrics.h"
#include "tui/metrics/serve.h"
#include "tui/sig.h"

/* How soon a wait sees a signal when no self-pipe could be made (sig_quit_fd() < 0). */
#define BATCH_SIGNAL_POLL_MS 50

/* Sleep until deadline, or until a quit signal: one wake-up per wait, not a poll. */
static void batch_wait_until(uint64_t deadline)
{
	int fd = sig_quit_fd();
	while (!sig_quit) {
		uint64_t now = clock_mono_ns();
		if (now >= deadline)
			return;
		uint64_t step = deadline - now;
		if (fd < 0) {
			if (step > BATCH_SIGNAL_POLL_MS * NS_PER_MS)
				step = BATCH_SIGNAL_POLL_MS * NS_PER_MS;
			clock_sleep_ns(step);
			continue;
		}
		struct pollfd p = {.fd = fd, .events = POLLIN};
		struct timespec ts = {.tv_sec = (time_t)(step / NS_PER_S),
				      .tv_nsec = (long)(step % NS_PER_S)};
		ppoll(&p, 1, &ts, NULL); /* EINTR or a timeout: the loop looks again */
	}
}

/* Notes (hosts going down, up again, broken) go to stderr, stdout stays JSON. True when some
 * host is broken: it will never give a line. *alive counts the others not given up. */
static bool batch_remote_notes(struct source *src, const bool *gone, int *alive)
{
	char note[256];
	bool err, broken = false;
	struct fleet_row row;
	*alive = 0;
	for (int i = 0; source_fleet_row(src, i, &row); i++) {
		broken = broken || row.broken;
		*alive += !row.broken && !gone[i];
	}
	/* After the rows: source_fleet_row reads the links, and a host it finds broken queues its
	 * note then, which must be said before -b exits for it. */
	while (source_note(src, note, sizeof(note), &err))
		fprintf(stderr, "tunetop: %s\n", note);
	return broken;
}

/*
 * -n N bounds a --remote run (docs/reference.md "Agent, remote hosts and the fleet view"): a
 * host that has given no snapshot BATCH_REMOTE_CONNECT_S (plus one -d) after the start is given
 * up, said on stderr with its last reason; ssh's own ConnectTimeout covers one try, not the
 * retries after it. Returns how many hosts it gave up now.
 */
#define BATCH_REMOTE_CONNECT_S 10

static int batch_remote_give_up(struct source *src, bool *gone, double waited_s)
{
	struct fleet_row row;
	int n = 0;
	for (int i = 0; source_fleet_row(src, i, &row); i++) {
		if (gone[i] || row.broken || row.snap)
			continue;
		gone[i] = true;
		n++;
		fprintf(stderr,
			"tunetop: %s: no snapshot in %.0f s, given up (-n ends the run): %s\n",
			row.name, waited_s,
			row.state == FLEET_DOWN && row.reason ? row.reason
			: row.state == FLEET_UP		      ? "connected, nothing read"
							      : "still connecting");
	}
	return n;
}

/* --remote: every host's snapshots as they come, each with its "host" and its own findings; -n
 * counts lines. A broken host (not an agent, a far-side usage error) or one given up
 * (batch_remote_give_up) makes the exit status 1; when every host is so there is nothing to
 * wait for. */
static int batch_run_remote(struct source *src, const struct options *o, FILE *out,
			    struct after *after)
{
	long n = 0;
	int alive, rc = 0, gave_up = 0;
	bool *gone = xcalloc((size_t)source_fleet_count(src), sizeof(*gone));
	double connect_s = BATCH_REMOTE_CONNECT_S + o->delay_s;
	uint64_t connect_by = clock_mono_ns() + (uint64_t)(connect_s * NS_PER_S);
	while (!sig_quit && (o->iterations == 0 || n < o->iterations)) {
		struct fleet_row row;
		const char *line;
		for (int i = 0; source_fleet_row(src, i, &row); i++) {
			/* A host given up stays so: its exit status is said. */
			if (gone[i] || !after_fleet_take(after, src, i, row.name, true, &line))
				continue;
			if (!line || fputs(line, out) == EOF || fputc('\n', out) == EOF ||
			    fflush(out) == EOF) {
				if (!line)
					fprintf(stderr, "tunetop: %s: cannot write its snapshot\n",
						row.name);
				rc = errno == EPIPE && line ? 0 : 1;
				goto out;
			}
			if (o->iterations && ++n >= o->iterations)
				goto done;
		}
		if (o->iterations && clock_mono_ns() >= connect_by)
			gave_up += batch_remote_give_up(src, gone, connect_s);
		if ((batch_remote_notes(src, gone, &alive) || gave_up) && !alive) {
			rc = 1;
			goto out;
		}
		batch_wait_until(clock_mono_ns() + 20 * NS_PER_MS);
	}
done:
	rc = batch_remote_notes(src, gone, &alive) || gave_up ? 1 : 0;
out:
	free(gone);
	return rc;
}

/*
 * -o FILE (- is stdout): for node_exporter's textfile collector a metrics text replaces FILE
 * atomically each interval (a reader sees the old text or the new one, never half of one);
 * JSON lines stream into it, as they do into /dev/null. Either way core/safefile.h checks FILE
 * now, before the first sample: a symlink, FIFO, device (but /dev/null) or /proc file is refused
 * with status 2. Returns 0 with *out (stdout, or the stream) and *replace, or the exit status.
 */
static int batch_output(const struct options *o, bool om, FILE **out, bool *replace)
{
	char err[4200];
	*out = stdout;
	*replace = false;
	if (!o->output || strcmp(o->output, "-") == 0)
		return 0; /* "-" is standard output, as for curl -o and tar -f */
	if (om && safefile_check_target(o->output, 0, err, sizeof(err)) == 0) {
		*replace = true;
		return 0;
	}
	int fd = safefile_open_stream(o->output, SAFEFILE_DEVNULL_OK, err, sizeof(err));
	if (fd >= 0 && !(*out = fdopen(fd, "w"))) {
		snprintf(err, sizeof(err), "%s: %s", o->output, strerror(errno));
		close(fd);
		fd = -1;
	}
	if (fd < 0) {
		fprintf(stderr, "tunetop: -o %s\n", err);
		*out = stdout;
		return fd == SAFEFILE_REFUSED ? 2 : 1;
	}
	return 0;
}

/* Whether out is /dev/null (-o /dev/null, or stdout sent there). */
static bool batch_discards(FILE *out)
{
	struct stat a, null;
	return fstat(fileno(out), &a) == 0 && stat("/dev/null", &null) == 0 && S_ISCHR(a.st_mode) &&
	       a.st_rdev == null.st_rdev;
}

/* One -b run on one source: where it writes and how it paces itself. */
struct batch {
	struct source *src;
	const struct options *o;
	struct after *after;
	FILE *out;
	bool replace; /* -o FILE of a metrics text: replaced each interval */
	bool om; /* a metrics text, not JSON */
	bool paced; /* a recording: re-emitted as fast as the reader takes it, to its end */
	bool on_demand; /* sampled when a scrape wants one (batch_loop) */
	struct metrics_state mst;
	struct metrics_buf mbuf;
};

/* Wait until the next sample is due: a recording's next line, a scrape, or the -d grid.
 * False: no more (a signal, the recording's end). */
static bool batch_wait(struct batch *b, long n, uint64_t next)
{
	if (b->paced) {
		/* --follow: nothing new yet; look again when the source says. */
		double gap;
		while ((gap = source_pace_s(b->src)) >= 0 && !source_ready(b->src) && !sig_quit)
			clock_sleep_ns((uint64_t)(gap * 1e9));
		if (gap < 0)
			return false;
	} else if (b->on_demand && n > 0) {
		while (!sig_quit && !serve_wait_demand(sig_quit_fd()))
			;
	} else {
		batch_wait_until(next);
	}
	return !sig_quit;
}

/* After one sample: its metrics text or its JSON line out. 0; 1 after saying why; -1 when
 * the reader went away (EPIPE: that is how pipelines end, not an error). */
static int batch_write(struct batch *b, struct snapshot *snap)
{
	char err[4200];
	/* The lines go to /dev/null and no recording wants them: build none. */
	bool none = b->on_demand && !after_recording(b->after);
	const char *line = after_sample(b->after, b->src, snap, !b->om && !none);
	int bad = 0;
	if (none) {
		return 0;
	} else if (b->om) {
		enum metrics_format f =
		    b->o->format == OPT_FORMAT_OPENMETRICS ? METRICS_OPENMETRICS : METRICS_PROM;
		metrics_note(&b->mst, snap);
		metrics_render(snap, &b->mst, f, &b->mbuf);
		metrics_add_process(&b->mbuf, f);
		if (b->replace) {
			if (safefile_replace(b->o->output, b->mbuf.p, b->mbuf.len, err,
					     sizeof(err)) == 0)
				return 0;
			fprintf(stderr, "tunetop: -o %s\n", err);
			return 1;
		}
		bad = fwrite(b->mbuf.p, 1, b->mbuf.len, b->out) != b->mbuf.len ||
		      fflush(b->out) == EOF;
	} else {
		bad = !line || fputs(line, b->out) == EOF || fputc('\n', b->out) == EOF ||
		      fflush(b->out) == EOF;
	}
	if (!bad)
		return 0;
	if (errno == EPIPE)
		return -1;
	fprintf(stderr, "tunetop: %s: %s\n", b->out == stdout ? "stdout" : b->o->output,
		strerror(errno));
	return 1;
}

/* Sample, write, wait, until -n lines, a signal, the reader's end or the recording's. */
static int batch_loop(struct batch *b)
{
	const struct options *o = b->o;
	struct snapshot *snap = snapshot_new();
	uint64_t delay = (uint64_t)(o->delay_s * 1e9);
	uint64_t first = (uint64_t)(BATCH_FIRST_INTERVAL_S * 1e9);
	/* The first line covers min(-d, 0.1 s) from the source's baseline, not from here: the
	 * time the source took to start (the engine's threads run from its baseline on) and the
	 * output's and the exporter's opening fall inside that interval, not on top of it. */
	uint64_t next = clock_first_due(b->src->start_ns, delay, first);
	uint64_t render_us = 0;
	int rc = 0;
	/* -b --serve whose lines nobody reads (-o /dev/null, as the exporter's unit) samples when a
	 * scrape wants one (at most every -d), after a first sample that rates need as their
	 * start: an exporter costs what its scrapes cost (docs/metrics.md, "Deploying the
	 * exporter"). A reader of the lines gets them every -d, as without --serve; so does a run
	 * bounded by -n, which ends after COUNT intervals whether or not anything scrapes it. */
	b->on_demand =
	    o->serve && !b->paced && !b->replace && batch_discards(b->out) && !o->iterations;
	if (b->on_demand)
		serve_on_demand(o->delay_s);
	for (long n = 0; (o->iterations == 0 || n < o->iterations) && batch_wait(b, n, next); n++) {
		uint64_t taken = clock_mono_ns();
		source_sample(b->src, snap);
		if (b->paced && !source_decoded(b->src))
			continue; /* no line of the recording decoded yet: nothing to write */
		if (!b->paced) {
			snap->self.render_us = render_us;
			snap->self.absent &= ~(unsigned)SELF_ABSENT_RENDER; /* measured here */
		}
		uint64_t t0 = clock_mono_ns();
		rc = batch_write(b, snap);
		render_us = (clock_mono_ns() - t0) / NS_PER_US;
		if (rc)
			break;
		next = clock_next_due(next, delay, taken, clock_mono_ns());
	}
	if (b->on_demand)
		serve_on_demand(-1);
	free(b->mbuf.p);
	snapshot_free(snap);
	return rc < 0 ? 0 : rc;
}

/* A recording re-emitted: one none of whose lines decoded gave nothing, a failure, not an
 * empty success (docs/reference.md, exit status); lines it skipped are said. */
static int batch_replay_end(struct source *src, int rc)
{
	char st[256];
	source_status(src, st, sizeof(st));
	if (!source_decoded(src) && !sig_quit && rc == 0) {
		fprintf(stderr, "tunetop: %s: no line could be read as a snapshot\n", st);
		return 1;
	}
	if (strstr(st, "skipped") || strstr(st, "damaged"))
		fprintf(stderr, "tunetop: %s\n", st);
	return rc;
}

int batch_run(struct source *src, const struct options *o)
{
	struct batch b = {.src = src,
			  .o = o,
			  .om = o->format != OPT_FORMAT_JSON,
			  .paced = source_paced(src),
			  .mst = {.tid = o->metrics_tid}};
	int rc;
	if (!(b.after = after_open(o, &rc)))
		return rc;
	if ((rc = batch_output(o, b.om, &b.out, &b.replace)) != 0) {
		after_close(b.after);
		return rc;
	}
	if (source_fleet_count(src))
		rc = batch_run_remote(src, o, b.out, b.after);
	else
		rc = batch_loop(&b);
	if (b.out != stdout && fclose(b.out) != 0 && rc == 0) {
		fprintf(stderr, "tunetop: -o %s: %s\n", o->output, strerror(errno));
		rc = 1;
	}
	if (b.paced)
		rc = batch_replay_end(src, rc);
	if (after_close(b.after))
		rc = 1;
	return rc;
}
