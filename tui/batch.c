/* batch.c: the batch writer loop: sample, render one JSON line (or the metrics text), write, wait. */
#include "tui/batch.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backends/recfile.h"
#include "backends/src_remote.h"
#include "core/clock.h"
#include "core/xalloc.h"
#include "tui/batch_diag.h"
#include "tui/metrics/metrics.h"
#include "tui/metrics/serve.h"
#include "tui/sig.h"
#include "tui/snapjson.h"

/* Sleep until deadline in short steps so a signal is seen within 50 ms. */
static void batch_wait_until(uint64_t deadline)
{
	while (!sig_quit) {
		uint64_t now = clock_mono_ns();
		if (now >= deadline)
			return;
		uint64_t step = deadline - now;
		if (step > 50 * NS_PER_MS)
			step = 50 * NS_PER_MS;
		clock_sleep_ns(step);
	}
}

/*
 * For node_exporter's textfile collector: the whole text in a temporary file
 * of the same directory (so rename stays on one file system), then rename over
 * FILE, so a reader sees the old text or the new one, never half of one.
 */
static int batch_replace_file(const char *path, const char *text, size_t len, char *err,
			      size_t errlen)
{
	char tmp[4096];
	if (snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid()) >= (int)sizeof(tmp)) {
		snprintf(err, errlen, "%s: name too long", path);
		return -1;
	}
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		return -1;
	}
	size_t off = 0;
	while (off < len) {
		ssize_t n = write(fd, text + off, len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			snprintf(err, errlen, "%s: %s", tmp, n < 0 ? strerror(errno) : "short write");
			close(fd);
			unlink(tmp);
			return -1;
		}
		off += (size_t)n;
	}
	/* No fsync: the text is rewritten every interval; after a crash a stale or
	 * empty file is replaced by the next one, and fsync would stall the loop. */
	if (close(fd) != 0 || rename(tmp, path) != 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* A host's line; with st its diagnoses too (the console's frozen view passes none). */
static char *batch_host_line_diag(const char *host, const struct snapshot *s,
				  struct diag_state *st)
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

/* --remote: every host's snapshots as they come, each with its "host"; -n counts lines. */
static int batch_run_remote(struct source *src, const struct options *o,
			    struct recfile_writer *rec)
{
	long n = 0;
	char note[256];
	bool err;
	/* One diagnosis state per host: each host's findings follow its own samples. */
	int nst = remote_count(src);
	struct diag_state *st = xcalloc((size_t)nst, sizeof(*st));
	int rc = 0;
	while (!sig_quit && (o->iterations == 0 || n < o->iterations)) {
		struct remote_row row;
		for (int i = 0; remote_row(src, i, &row); i++) {
			const struct snapshot *s;
			if (!remote_take_new(src, i, &s))
				continue;
			char *line = batch_host_line_diag(row.name, s, i < nst ? &st[i] : NULL);
			int bad = !line || fputs(line, stdout) == EOF || fputc('\n', stdout) == EOF ||
				  fflush(stdout) == EOF;
			if (rec && line)
				recfile_put(rec, line);
			free(line);
			if (bad) {
				rc = errno == EPIPE ? 0 : 1;
				goto out;
			}
			if (o->iterations && ++n >= o->iterations)
				goto out;
		}
		/* Hosts going down and up again: on stderr, stdout stays JSON. */
		while (source_note(src, note, sizeof(note), &err))
			fprintf(stderr, "tunetop: %s\n", note);
		batch_wait_until(clock_mono_ns() + 20 * NS_PER_MS);
	}
out:
	free(st);
	return rc;
}

/* A regular file (or one to create) is replaced atomically; /dev/null, a FIFO... written to. */
static bool batch_replaces(const char *path)
{
	struct stat st;
	return stat(path, &st) != 0 ? errno == ENOENT : S_ISREG(st.st_mode);
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
	bool replace = om && o->output && batch_replaces(o->output);
	struct metrics_state mst = {0};
	struct metrics_buf mbuf = {0};
	struct diag_state dst;
	FILE *out = stdout;
	char err[4200];
	int rc = 0;
	/* A recording re-emits as fast as the reader takes it, to its end. */
	bool paced = source_paced(src);
	struct recfile_writer *rec = NULL;

	diag_init(&dst);

	if (o->record && !(rec = recfile_open(o->record, err, sizeof(err)))) {
		fprintf(stderr, "tunetop: --record: %s\n", err);
		snapshot_free(snap);
		return 1;
	}
	if (remote_count(src)) {
		rc = batch_run_remote(src, o, rec);
		if (rec && recfile_close(rec) != 0)
			rc = 1;
		snapshot_free(snap);
		return rc;
	}
	if (o->output && !replace) {
		out = fopen(o->output, "w");
		if (!out) {
			fprintf(stderr, "tunetop: -o %s: %s\n", o->output, strerror(errno));
			snapshot_free(snap);
			return 1;
		}
	}
	for (long n = 0; (o->iterations == 0 || n < o->iterations) && !sig_quit; n++) {
		if (paced) {
			if (source_pace_s(src) < 0)
				break;
		} else {
			batch_wait_until(next);
		}
		if (sig_quit)
			break;
		source_sample(src, snap);
		if (!paced)
			snap->self.render_us = render_us;
		uint64_t t0 = clock_mono_ns();
		serve_publish(snap);
		int bad;
		if (om) {
			metrics_note(&mst, snap);
			metrics_render(snap, &mst, mfmt, &mbuf);
			if (replace) {
				if (batch_replace_file(o->output, mbuf.p, mbuf.len, err, sizeof(err)) != 0) {
					fprintf(stderr, "tunetop: -o %s\n", err);
					rc = 1;
					break;
				}
				bad = 0;
			} else {
				bad = fwrite(mbuf.p, 1, mbuf.len, out) != mbuf.len || fflush(out) == EOF;
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
				fprintf(stderr, "tunetop: %s: %s\n", o->output ? o->output : "stdout",
					strerror(errno));
				rc = 1;
			}
			break;
		}
		next += delay;
		uint64_t now = clock_mono_ns();
		if (next < now)
			next = now; /* a slow consumer: no burst of catch-up lines */
	}
	if (out != stdout && fclose(out) != 0 && rc == 0) {
		fprintf(stderr, "tunetop: -o %s: %s\n", o->output, strerror(errno));
		rc = 1;
	}
	free(mbuf.p);
	if (paced) {
		char st[256];
		if (strstr(source_status(src, st, sizeof(st)), "skipped"))
			fprintf(stderr, "tunetop: %s\n", st);
	}
	if (rec && recfile_close(rec) != 0) {
		fprintf(stderr, "tunetop: --record %s: a write failed\n", o->record);
		rc = 1;
	}
	snapshot_free(snap);
	return rc;
}
