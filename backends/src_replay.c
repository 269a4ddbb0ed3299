/* src_replay.c: a recording (JSON Lines, plain/.gz/.zst) as a source: its snapshots in order,
 * paced by their recorded times; knobs are refused (a recording cannot change). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/recfile.h"
#include "backends/snapdec.h"
#include "backends/source.h"
#include "core/clock.h"
#include "core/safefile.h"
#include "core/xalloc.h"

/* The longest pause replay keeps between two samples: a recording stopped for an hour
 * plays on after this. */
#define REPLAY_MAX_GAP_S 10.0

struct replay_line {
	size_t off, len;
	uint64_t wall_ns;
	double interval_s;
};

struct replay {
	char *path, *name; /* name: the file's base name, for messages */
	char *text;
	size_t text_len;
	struct replay_line *lines;
	size_t n, cur; /* cur: the next line to play */
	uint64_t skipped;
	char first_skip[160]; /* why the first skipped line was skipped */
	char refusal[200];
	int64_t knobs[K_COUNT];
	bool told; /* the skip note went out in an event */
};

/* --from / --to: seconds after the first sample ("90", "+90"), saturating at the end of
 * time, or an ISO 8601 UTC time. */
static int replay_bound(const char *s, uint64_t first_ns, uint64_t *out, char *err, size_t errlen)
{
	char *end;
	double sec = strtod(s, &end);
	if (end != s && *end == '\0' && sec >= 0 && isfinite(sec)) {
		double room = (double)(UINT64_MAX - first_ns) / 1e9;
		*out = sec >= room ? UINT64_MAX : first_ns + (uint64_t)(sec * 1e9);
		return 0;
	}
	if (snapdec_iso8601_strict(s, out) == 0)
		return 0;
	snprintf(err, errlen,
		 "'%s' is not a time (seconds into the recording, or 2026-12-01T10:00:00Z)", s);
	return KNOB_ERR_USAGE;
}

/* Index every line: decode each once (so bad ones are counted now, not met later). */
static void replay_index(struct replay *r)
{
	struct snapshot *scratch = snapshot_new();
	size_t cap = 0, lineno = 0;
	char err[128];

	for (size_t off = 0; off < r->text_len;) {
		char *nl = memchr(r->text + off, '\n', r->text_len - off);
		size_t len = (nl ? (size_t)(nl - r->text) : r->text_len) - off;
		lineno++;
		if (len > 0 && !(len == 1 && r->text[off] == '\r')) {
			int rc = snapdec_line(r->text + off, len, scratch, err, sizeof(err));
			if (rc == SNAPDEC_OK) {
				if (r->n == cap) {
					cap = cap ? cap * 2 : 256;
					r->lines = xreallocarray(r->lines, cap, sizeof(*r->lines));
				}
				r->lines[r->n++] = (struct replay_line){off, len, scratch->wall_ns,
									scratch->interval_s};
			} else {
				if (!r->skipped)
					snprintf(r->first_skip, sizeof(r->first_skip),
						 "line %zu: %s", lineno, err);
				r->skipped++;
			}
		}
		off += len + 1;
	}
	snapshot_free(scratch);
}

static int replay_open(struct source *src, const struct source_conf *conf, char *err, size_t errlen)
{
	if (!conf->replay_path) {
		snprintf(err, errlen, "needs a file (--replay FILE)");
		return KNOB_ERR_USAGE;
	}
	struct replay *r = xcalloc(1, sizeof(*r));
	int rc = -1;
	r->path = xstrdup(conf->replay_path);
	const char *slash = strrchr(r->path, '/');
	r->name = xstrdup(slash ? slash + 1 : r->path);
	rc = recfile_read(r->path, &r->text, &r->text_len, err, errlen);
	if (rc != 0) {
		/* A FIFO or a device named on the command line is a usage error. */
		rc = rc == SAFEFILE_REFUSED ? KNOB_ERR_USAGE : -1;
		goto fail;
	}
	replay_index(r);
	if (r->n == 0) {
		snprintf(err, errlen, "%s: no snapshot in it (%llu lines skipped%s%s)", r->path,
			 (unsigned long long)r->skipped, r->skipped ? ", " : "", r->first_skip);
		goto fail;
	}
	uint64_t from = 0, to = UINT64_MAX;
	/* The slice is the user's: a bad or reversed one is a usage error. */
	rc = KNOB_ERR_USAGE;
	if ((conf->replay_from &&
	     replay_bound(conf->replay_from, r->lines[0].wall_ns, &from, err, errlen) != 0) ||
	    (conf->replay_to &&
	     replay_bound(conf->replay_to, r->lines[0].wall_ns, &to, err, errlen) != 0))
		goto fail;
	if (from > to) {
		snprintf(err, errlen, "--from %s is after --to %s", conf->replay_from,
			 conf->replay_to);
		goto fail;
	}
	size_t k = 0;
	for (size_t i = 0; i < r->n; i++)
		if (r->lines[i].wall_ns >= from && r->lines[i].wall_ns <= to)
			r->lines[k++] = r->lines[i];
	r->n = k;
	rc = -1; /* a slice with nothing in it is the file's fact, as an empty file is */
	if (r->n == 0) {
		snprintf(err, errlen, "%s: no snapshot between --from and --to", r->path);
		goto fail;
	}
	snprintf(r->refusal, sizeof(r->refusal), "a recording is read-only (replaying %s)",
		 r->name);
	for (int i = 0; i < K_COUNT; i++)
		r->knobs[i] = knob_table[i].def;
	src->priv = r;
	return 0;
fail:
	if (rc == 0)
		rc = -1;
	free(r->text);
	free(r->lines);
	free(r->path);
	free(r->name);
	free(r);
	return rc;
}

static int replay_start(struct source *src, char *err, size_t errlen)
{
	(void)src;
	(void)err;
	(void)errlen;
	return 0;
}

static void replay_sample(struct source *src, struct snapshot *snap)
{
	struct replay *r = src->priv;
	char err[128];
	size_t i = r->cur < r->n ? r->cur : r->n - 1; /* past the end: the last one again */
	const struct replay_line *l = &r->lines[i];

	/* Indexed lines decoded once already: this cannot fail short of memory corruption. */
	if (snapdec_line(r->text + l->off, l->len, snap, err, sizeof(err)) != SNAPDEC_OK)
		snap->nevents = 0;
	snap->mono_ns = clock_mono_ns();
	if (r->cur < r->n)
		r->cur++;
	else
		snap->nevents = 0; /* the same events once only */
	if (!r->told) {
		r->told = true;
		/* Only when lines were skipped: a clean recording re-emits byte for byte. */
		if (r->skipped && snap->nevents < SNAP_MAX_EVENTS) {
			struct event *e = &snap->events[snap->nevents++];
			memset(e, 0, sizeof(*e));
			e->kind = EV_ERROR;
			e->wall_ns = snap->wall_ns;
			e->mono_ns = snap->mono_ns;
			char msg[400];
			snprintf(msg, sizeof(msg),
				 "replay %s: %zu samples, %llu lines skipped (first %s)", r->name,
				 r->n, (unsigned long long)r->skipped, r->first_skip);
			size_t ml = strnlen(msg, sizeof(e->text) - 1);
			memcpy(e->text, msg, ml);
			e->text[ml] = '\0';
		}
	}
	memcpy(r->knobs, snap->knobs, sizeof(r->knobs));
}

static double replay_pace(struct source *src)
{
	struct replay *r = src->priv;
	if (r->cur == 0)
		return 0;
	if (r->cur >= r->n)
		return -1;
	const struct replay_line *prev = &r->lines[r->cur - 1], *next = &r->lines[r->cur];
	double gap = next->interval_s;
	if (gap <= 0 && next->wall_ns > prev->wall_ns)
		gap = (double)(next->wall_ns - prev->wall_ns) / 1e9;
	return gap < 0 ? 0 : gap > REPLAY_MAX_GAP_S ? REPLAY_MAX_GAP_S : gap;
}

static size_t replay_status(struct source *src, char *buf, size_t len)
{
	struct replay *r = src->priv;
	int n = snprintf(buf, len, "replay %s %zu/%zu%s", r->name, r->cur, r->n,
			 r->cur >= r->n ? " (end)" : "");
	if (r->skipped && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, ", %llu line%s skipped",
			      (unsigned long long)r->skipped, r->skipped == 1 ? "" : "s");
	return n < 0 ? 0 : (size_t)n < len ? (size_t)n : len - 1;
}

static int replay_knob_set(struct source *src, enum knob_id id, int64_t v, int64_t *stored,
			   char *err, size_t errlen)
{
	struct replay *r = src->priv;
	(void)v;
	*stored = r->knobs[id];
	snprintf(err, errlen, "%s", r->refusal);
	return KNOB_ERR_RUNTIME;
}

static int replay_knob_get(struct source *src, enum knob_id id, int64_t *out)
{
	struct replay *r = src->priv;
	*out = r->knobs[id];
	return 0;
}

static const char *replay_knob_refusal(const struct source *src, enum knob_id id)
{
	const struct replay *r = src->priv;
	(void)id;
	return r->refusal;
}

static void replay_close(struct source *src)
{
	struct replay *r = src->priv;
	if (!r)
		return;
	free(r->text);
	free(r->lines);
	free(r->path);
	free(r->name);
	free(r);
	src->priv = NULL;
}

const struct source_ops source_replay_ops = {
    .name = "replay",
    .open = replay_open,
    .start = replay_start,
    .sample = replay_sample,
    .knob_set = replay_knob_set,
    .knob_get = replay_knob_get,
    .knob_refusal = replay_knob_refusal,
    .close = replay_close,
    .recorded = true,
    .read_only = true,
    .pace_s = replay_pace,
    .status = replay_status,
};
