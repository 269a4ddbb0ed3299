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

#include "backends/replay/recfile.h"
#include "backends/replay/recstore.h"
#include "core/clock.h"
#include "core/safefile.h"
#include "core/xalloc.h"
#include "tui/batch_diag.h"
#include "tui/metrics/metrics.h"
#include "tui/metrics/serve.h"
#include "tui/sig.h"
#include "tui/snapjson.h"

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

/* A host's line; with st its diagnoses too (the console's frozen view passes none). */
static char *batch_host_line_diag(const char *host, const struct snapshot *s, struct diag_state *st)
{
	json_t *j = snapjson_build(s);
	if (st)
		batch_diag_add(j, st, s);
	json_object_set_new(j, "host", json_string(host));
	char *line = json_dumps(j, JSON_COMPACT | JSON_REAL_PRECISION(12));
	json_decref(j);
	return line;
}

char *batch_host_line(const char *host, const struct snapshot *s)
{
	return batch_host_line_diag(host, s, NULL);
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

/* --remote: every host's snapshots as they come, each with its "host"; -n counts lines. A
 * broken host (not an agent, a far-side usage error) or one given up (batch_remote_give_up)
 * makes the exit status 1; when every host is so there is nothing to wait for. */
static int batch_run_remote(struct source *src, const struct options *o, FILE *out,
			    struct recfile_writer *rec)
{
	long n = 0;
	int alive, rc = 0, gave_up = 0;
	/* One diagnosis state per host: each host's findings follow its own samples. */
	int nst = source_fleet_count(src);
	struct diag_state *st = xcalloc((size_t)nst, sizeof(*st));
	bool *gone = xcalloc((size_t)nst, sizeof(*gone));
	double connect_s = BATCH_REMOTE_CONNECT_S + o->delay_s;
	uint64_t connect_by = clock_mono_ns() + (uint64_t)(connect_s * NS_PER_S);
	while (!sig_quit && (o->iterations == 0 || n < o->iterations)) {
		struct fleet_row row;
		for (int i = 0; source_fleet_row(src, i, &row); i++) {
			const struct snapshot *s;
			if (gone[i] || !source_fleet_take_new(src, i, &s))
				continue; /* a host given up stays so: its exit status is said */
			char *line = batch_host_line_diag(row.name, s, i < nst ? &st[i] : NULL);
			int bad = !line || fputs(line, out) == EOF || fputc('\n', out) == EOF ||
				  fflush(out) == EOF;
			if (rec && line)
				recfile_put(rec, line);
			free(line);
			if (bad) {
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
	free(st);
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

struct recfile_writer *batch_record_open(const struct options *o, int *status, char *err,
					 size_t errlen)
{
	*status = 0;
	if (o->record)
		return recfile_open(o->record, status, err, errlen);
	if (!o->record_dir)
		return NULL;
	struct recstore_conf c = {.dir = o->record_dir,
				  .rotate_s = o->record_rotate_s,
				  .rotate_bytes = o->record_rotate_bytes,
				  .keep_s = o->record_keep_s,
				  .max_bytes = o->record_max_bytes};
	return recfile_open_store(&c, status, err, errlen);
}

/* Close the recording; a write that failed makes the run fail, and says why. */
static int batch_record_close(struct recfile_writer *rec, const struct options *o)
{
	char err[256];
	if (rec && recfile_close(rec, err, sizeof(err)) != 0) {
		fprintf(stderr, "tunetop: --record %s: %s\n", o->record ? o->record : o->record_dir,
			err);
		return 1;
	}
	return 0;
}

int batch_run(struct source *src, const struct options *o)
{
	struct snapshot *snap = snapshot_new();
	uint64_t delay = (uint64_t)(o->delay_s * 1e9);
	uint64_t first = (uint64_t)(BATCH_FIRST_INTERVAL_S * 1e9);
	uint64_t next = clock_mono_ns() + (delay < first ? delay : first);
	uint64_t render_us = 0;
	bool om = o->format != OPT_FORMAT_JSON; /* a metrics text */
	enum metrics_format mfmt =
	    o->format == OPT_FORMAT_OPENMETRICS ? METRICS_OPENMETRICS : METRICS_PROM;
	bool replace = false;
	struct metrics_state mst = {.tid = o->metrics_tid};
	struct metrics_buf mbuf = {0};
	struct diag_state dst;
	FILE *out = stdout;
	char err[4200];
	int rc = 0;
	/* A recording re-emits as fast as the reader takes it, to its end. */
	bool paced = source_paced(src);
	struct recfile_writer *rec = NULL;

	diag_init(&dst);

	int ost = 0;
	if ((o->record || o->record_dir) && !(rec = batch_record_open(o, &ost, err, sizeof(err)))) {
		fprintf(stderr, "tunetop: %s: %s\n", o->record ? "--record" : "--record-dir", err);
		snapshot_free(snap);
		return ost;
	}
	if ((rc = batch_output(o, om, &out, &replace)) != 0) {
		batch_record_close(rec, o);
		snapshot_free(snap);
		return rc;
	}
	if (source_fleet_count(src)) {
		rc = batch_run_remote(src, o, out, rec);
		if (out != stdout && fclose(out) != 0)
			rc = 1;
		if (batch_record_close(rec, o))
			rc = 1;
		snapshot_free(snap);
		return rc;
	}
	/* -b --serve whose lines nobody reads (-o /dev/null, as the exporter's unit) samples when a
	 * scrape wants one (at most every -d), after a first sample that rates need as their
	 * start: an exporter costs what its scrapes cost (docs/metrics.md, "Deploying the
	 * exporter"). A reader of the lines gets them every -d, as without --serve; so does a run
	 * bounded by -n, which ends after COUNT intervals whether or not anything scrapes it. */
	bool on_demand = o->serve && !paced && !replace && batch_discards(out) && !o->iterations;
	if (on_demand)
		serve_on_demand(o->delay_s);
	for (long n = 0; (o->iterations == 0 || n < o->iterations) && !sig_quit; n++) {
		if (paced) {
			/* --follow: nothing new yet; look again when the source says. */
			double gap;
			while ((gap = source_pace_s(src)) >= 0 && !source_ready(src) && !sig_quit)
				clock_sleep_ns((uint64_t)(gap * 1e9));
			if (gap < 0)
				break;
		} else if (on_demand && n > 0) {
			while (!sig_quit && !serve_wait_demand(sig_quit_fd()))
				;
		} else {
			batch_wait_until(next);
		}
		if (sig_quit)
			break;
		uint64_t taken = clock_mono_ns();
		source_sample(src, snap);
		if (paced && !source_decoded(src))
			continue; /* no line of the recording decoded yet: nothing to write */
		if (!paced) {
			snap->self.render_us = render_us;
			snap->self.absent &= ~(unsigned)SELF_ABSENT_RENDER; /* measured here */
		}
		uint64_t t0 = clock_mono_ns();
		serve_publish(snap);
		int bad = 0;
		if (on_demand && !rec) {
			/* The lines go to /dev/null and no recording wants them: build none. */
		} else if (om) {
			metrics_note(&mst, snap);
			metrics_render(snap, &mst, mfmt, &mbuf);
			metrics_add_process(&mbuf, mfmt);
			if (replace) {
				if (safefile_replace(o->output, mbuf.p, mbuf.len, err,
						     sizeof(err)) != 0) {
					fprintf(stderr, "tunetop: -o %s\n", err);
					rc = 1;
					break;
				}
				bad = 0;
			} else {
				bad = fwrite(mbuf.p, 1, mbuf.len, out) != mbuf.len ||
				      fflush(out) == EOF;
			}
		} else {
			json_t *j = snapjson_build(snap);
			batch_diag_add(j, &dst, snap);
			char *line = json_dumps(j, JSON_COMPACT | JSON_REAL_PRECISION(12));
			json_decref(j);
			bad = !line || fputs(line, out) == EOF || fputc('\n', out) == EOF ||
			      fflush(out) == EOF;
			if (rec && line)
				recfile_put(rec, line);
			free(line);
		}
		render_us = (clock_mono_ns() - t0) / NS_PER_US;
		if (bad) {
			/* The reader went away (EPIPE): that is how pipelines end, not an error. */
			if (errno != EPIPE) {
				fprintf(stderr, "tunetop: %s: %s\n",
					out == stdout ? "stdout" : o->output, strerror(errno));
				rc = 1;
			}
			break;
		}
		next = clock_next_due(next, delay, taken, clock_mono_ns());
	}
	if (on_demand)
		serve_on_demand(-1);
	if (out != stdout && fclose(out) != 0 && rc == 0) {
		fprintf(stderr, "tunetop: -o %s: %s\n", o->output, strerror(errno));
		rc = 1;
	}
	free(mbuf.p);
	if (paced) {
		char st[256];
		source_status(src, st, sizeof(st));
		/* A recording none of whose lines decoded gave nothing: a failure, not an empty
		 * success (docs/reference.md, exit status). */
		if (!source_decoded(src) && !sig_quit && rc == 0) {
			fprintf(stderr, "tunetop: %s: no line could be read as a snapshot\n", st);
			rc = 1;
		} else if (strstr(st, "skipped") || strstr(st, "damaged")) {
			fprintf(stderr, "tunetop: %s\n", st);
		}
	}
	if (batch_record_close(rec, o))
		rc = 1;
	snapshot_free(snap);
	return rc;
}
