/* SPDX-License-Identifier: GPL-2.0-or-later */
/* src_replay.c: a recording (JSON Lines, plain/.gz/.zst, or a --record-dir store) as a source:
 * its snapshots in order, paced by their recorded times, with :goto; or with --follow the
 * lines a writer appends. Knobs are refused (a recording cannot change). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "backends/replay/recstore.h"
#include "backends/replay/replay_index.h"
#include "backends/replay/replay_time.h"
#include "backends/replay/replay_follow.h"
#include "backends/replay/snapdec.h"
#include "backends/source.h"
#include "core/clock.h"
#include "core/safefile.h"
#include "core/xalloc.h"
#include "core/zread.h"

/* The longest pause replay keeps between two samples: a recording stopped for an hour
 * plays on after this. */
#define REPLAY_MAX_GAP_S 10.0
/* --follow: how long open waits for the file's first line, and how often the front end
 * looks again while nothing new has come. */
#define REPLAY_FOLLOW_FIRST_S 2.0
#define REPLAY_FOLLOW_POLL_S 0.2
/* A single file is indexed as it is played: each sample indexes this much more of it, so the
 * count is whole after a few samples (an hour of a host, 45.7 MB: 12). */
#define REPLAY_AHEAD ((uint64_t)4 << 20)

/* A file of the recording, read again as lines are played (core/zread.h). */
struct replay_file {
	char *path;
	struct zread *rd;
};

struct replay {
	char *path, *name; /* name: the file's base name, for messages */
	struct replay_file *fv; /* the files, oldest first */
	size_t nfv;
	size_t active; /* the file last read from (its decoder is the one kept) */
	struct replay_index ix; /* every snapshot line, in play order */
	struct zread *ixrd; /* a single file still being indexed: the index's own reader */
	struct replay_line *lines; /* == ix.lines */
	size_t n, cur; /* cur: the next line to play */
	uint64_t skipped; /* lines that are no snapshot, found at open or when played */
	char first_skip[160]; /* why the first skipped line was skipped */
	char refusal[200];
	int64_t knobs[K_COUNT];
	bool told; /* the skip note went out in an event */
	char damaged[300]; /* a file whose later part is corrupt (a zstd checksum): what and why */
	size_t files, files_left; /* a store: files read, older ones left out (past the cap) */
	struct rfollow *fw; /* --follow: the reader thread, else NULL */
	char *fline; /* --follow: the last line played */
	size_t played; /* --follow: lines played */
	uint64_t decoded; /* samples given that decoded */
};

/* Open one file and index its lines into *ix (as file number fno). */
static int replay_open_file(struct replay *r, const char *path, uint32_t fno,
			    struct replay_index *ix, struct zread **rd, uint64_t *bytes, char *err,
			    size_t errlen)
{
	int rc = zread_open(path, &safefile_recording, rd, err, errlen);
	if (rc != 0)
		return rc;
	if (replay_index_file(*rd, fno, ix, bytes, err, errlen) != 0) {
		zread_close(*rd);
		*rd = NULL;
		return -1;
	}
	if (zread_damage(*rd)[0] && !r->damaged[0])
		snprintf(r->damaged, sizeof(r->damaged), "%.290s", zread_damage(*rd));
	zread_idle(*rd); /* no decoder held for a file until it is played */
	return 0;
}

/* Take file rd (indexed into ix with file number 0) as the next file of the recording. */
static void replay_take_file(struct replay *r, const char *path, struct zread *rd,
			     struct replay_index *ix)
{
	uint32_t fno = (uint32_t)r->nfv;
	r->fv = xreallocarray(r->fv, r->nfv + 1, sizeof(*r->fv));
	r->fv[r->nfv++] = (struct replay_file){xstrdup(path), rd};
	if (ix->skipped && !r->ix.skipped)
		memcpy(r->ix.first_skip, ix->first_skip, sizeof(ix->first_skip));
	r->ix.skipped += ix->skipped;
	r->ix.lineno += ix->lineno;
	for (size_t i = 0; i < ix->n; i++) {
		if (r->ix.n == r->ix.cap) {
			r->ix.cap = r->ix.cap ? r->ix.cap * 2 : 256;
			r->ix.lines = xreallocarray(r->ix.lines, r->ix.cap, sizeof(*r->ix.lines));
		}
		r->ix.lines[r->ix.n] = ix->lines[i];
		r->ix.lines[r->ix.n++].file = fno;
	}
	replay_index_free(ix);
}

/* A single file indexed as it is played, so a recording of any length shows its first
 * sample at once: on until the index holds line want (and `ahead` bytes more), or to its end.
 * An error once lines were found ends the recording there, said as damage. */
static int replay_more(struct replay *r, size_t want, uint64_t ahead, char *err, size_t errlen)
{
	bool done;
	uint64_t skipped = r->ix.skipped;
	if (!r->ixrd || (r->n > want && !ahead))
		return 0;
	int rc = replay_index_more(r->ixrd, 0, &r->ix, want, ahead, &done, err, errlen);
	if (rc != 0 && r->ix.n && !r->damaged[0])
		snprintf(r->damaged, sizeof(r->damaged), "%.290s", err);
	if (!r->skipped && r->ix.skipped > skipped)
		memcpy(r->first_skip, r->ix.first_skip, sizeof(r->first_skip));
	r->skipped += r->ix.skipped - skipped;
	r->lines = r->ix.lines;
	r->n = r->ix.n;
	if (rc != 0 || done) {
		if (zread_damage(r->ixrd)[0] && !r->damaged[0])
			snprintf(r->damaged, sizeof(r->damaged), "%.290s", zread_damage(r->ixrd));
		zread_close(r->ixrd);
		r->ixrd = NULL;
	}
	return r->ix.n ? 0 : rc;
}

/* A single file: opened twice, a reader for the index as it grows and one to play. */
static int replay_open_lazy(struct replay *r, char *err, size_t errlen)
{
	struct replay_index none = {0};
	struct zread *rd;
	int rc = zread_open(r->path, &safefile_recording, &rd, err, errlen);
	if (rc != 0)
		return rc;
	if ((rc = zread_open(r->path, &safefile_recording, &r->ixrd, err, errlen)) != 0) {
		zread_close(rd);
		return rc;
	}
	replay_take_file(r, r->path, rd, &none);
	return replay_more(r, 1, 0, err, errlen);
}

/*
 * A store: its files in time order. Files wholly before an ISO --from are not read; the
 * newest are indexed first and older ones left out once their text would pass the
 * recordings' cap (core/safefile.h), which the status line says.
 */
static int replay_load_dir(struct replay *r, const struct source_conf *conf, char *err,
			   size_t errlen)
{
	char **names;
	size_t n, odd;
	int rc = recstore_check_dir(r->path, false, err, errlen);
	if (rc != 0)
		return rc == SAFEFILE_REFUSED ? KNOB_ERR_USAGE : -1;
	if (recstore_list(r->path, &names, &n, &odd, err, errlen) != 0)
		return -1;
	if (odd) /* said on the status line and by -b, as damage is */
		snprintf(r->damaged, sizeof(r->damaged),
			 "%zu entr%s of a store file's name not a regular file (left out)", odd,
			 odd == 1 ? "y" : "ies");
	uint64_t from = 0;
	size_t lo = 0;
	if (conf->replay_from && snapdec_iso8601_strict(conf->replay_from, &from) == 0)
		while (lo + 1 < n && recstore_name_time(names[lo + 1]) * 1000000000ull <= from)
			lo++;
	struct replay_index *ixs = xcalloc(n ? n : 1, sizeof(*ixs));
	struct zread **rds = xcalloc(n ? n : 1, sizeof(*rds));
	uint64_t total = 0;
	size_t first = n;
	char path[4200];
	rc = 0;
	for (size_t i = n; i-- > lo;) {
		uint64_t bytes = 0;
		snprintf(path, sizeof(path), "%s/%s", r->path, names[i]);
		if (replay_open_file(r, path, 0, &ixs[i], &rds[i], &bytes, err, errlen) != 0) {
			rc = -1;
			break;
		}
		if (total && total + bytes > SAFEFILE_REC_MAX_BYTES) {
			zread_close(rds[i]);
			rds[i] = NULL;
			break;
		}
		total += bytes;
		first = i;
	}
	for (size_t i = first; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", r->path, names[i]);
		if (rc == 0)
			replay_take_file(r, path, rds[i], &ixs[i]);
		else
			zread_close(rds[i]);
	}
	for (size_t i = 0; i < n; i++)
		replay_index_free(&ixs[i]);
	free(ixs);
	free(rds);
	if (rc == 0 && first == n)
		snprintf(err, errlen,
			 "%s: no recording in it (no " RECSTORE_PREFIX "*" RECSTORE_SUFFIX " file)",
			 r->path),
		    rc = -1;
	r->files = first < n ? n - first : 0;
	r->files_left = first < n ? first - lo : 0;
	recstore_names_free(names, n);
	return rc;
}

static void replay_free(struct replay *r)
{
	rfollow_stop(r->fw);
	zread_close(r->ixrd);
	for (size_t i = 0; i < r->nfv; i++) {
		zread_close(r->fv[i].rd);
		free(r->fv[i].path);
	}
	free(r->fv);
	replay_index_free(&r->ix);
	free(r->fline);
	free(r->path);
	free(r->name);
	free(r);
}

static int replay_open_follow(struct replay *r, bool dir, char *err, size_t errlen)
{
	r->fw = rfollow_start(r->path, dir, err, errlen);
	if (!r->fw)
		return -1;
	rfollow_wait_first(r->fw, REPLAY_FOLLOW_FIRST_S);
	return 0;
}

/* Keep the lines between --from and --to: 0, KNOB_ERR_USAGE for a bad or reversed slice (the
 * user's), -1 for one with nothing in it (the file's fact, as an empty file is). */
static int replay_slice(struct replay *r, const struct source_conf *conf, char *err, size_t errlen)
{
	uint64_t from = 0, to = UINT64_MAX;
	if ((conf->replay_from &&
	     replay_bound(conf->replay_from, r->lines[0].wall_ns, &from, err, errlen) != 0) ||
	    (conf->replay_to &&
	     replay_bound(conf->replay_to, r->lines[0].wall_ns, &to, err, errlen) != 0))
		return KNOB_ERR_USAGE;
	if (from > to) {
		snprintf(err, errlen, "--from %s is after --to %s", conf->replay_from,
			 conf->replay_to);
		return KNOB_ERR_USAGE;
	}
	size_t k = 0;
	for (size_t i = 0; i < r->n; i++)
		if (r->lines[i].wall_ns >= from && r->lines[i].wall_ns <= to)
			r->lines[k++] = r->lines[i];
	r->n = k;
	if (r->n == 0) {
		snprintf(err, errlen, "%s: no snapshot between --from and --to", r->path);
		return -1;
	}
	return 0;
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
	/* "store/" names the directory "store" in messages. */
	for (size_t pl = strlen(r->path); pl > 1 && r->path[pl - 1] == '/';)
		r->path[--pl] = '\0';
	const char *slash = strrchr(r->path, '/');
	r->name = xstrdup(slash ? slash + 1 : r->path);
	struct stat st;
	bool dir = stat(r->path, &st) == 0 && S_ISDIR(st.st_mode);
	if (conf->replay_follow) {
		if ((rc = replay_open_follow(r, dir, err, errlen)) != 0)
			goto fail;
		goto done;
	}
	if (dir) {
		if ((rc = replay_load_dir(r, conf, err, errlen)) != 0)
			goto fail;
	} else if (!conf->replay_from && !conf->replay_to) {
		if ((rc = replay_open_lazy(r, err, errlen)) != 0) {
			rc = rc == SAFEFILE_REFUSED ? KNOB_ERR_USAGE : -1;
			goto fail;
		}
	} else {
		struct replay_index ix = {0};
		struct zread *rd;
		uint64_t bytes;
		if ((rc = replay_open_file(r, r->path, 0, &ix, &rd, &bytes, err, errlen)) != 0) {
			/* A FIFO or a device named on the command line is a usage error. */
			rc = rc == SAFEFILE_REFUSED ? KNOB_ERR_USAGE : -1;
			replay_index_free(&ix);
			goto fail;
		}
		replay_take_file(r, r->path, rd, &ix);
	}
	r->lines = r->ix.lines;
	r->n = r->ix.n;
	r->skipped = r->ix.skipped;
	memcpy(r->first_skip, r->ix.first_skip, sizeof(r->first_skip));
	if (r->n == 0) {
		snprintf(err, errlen, "%s: no snapshot in it (%llu lines skipped%s%s)", r->path,
			 (unsigned long long)r->skipped, r->skipped ? ", " : "", r->first_skip);
		goto fail;
	}
	if ((rc = replay_slice(r, conf, err, errlen)) != 0)
		goto fail;
done:
	snprintf(r->refusal, sizeof(r->refusal), "a recording is read-only (replaying %s)",
		 r->name);
	for (int i = 0; i < K_COUNT; i++)
		r->knobs[i] = knob_table[i].def;
	src->priv = r;
	return 0;
fail:
	if (rc == 0)
		rc = -1;
	replay_free(r);
	return rc;
}

static int replay_start(struct source *src, char *err, size_t errlen)
{
	(void)src;
	(void)err;
	(void)errlen;
	return 0;
}

/* One event on snap saying what was wrong with the recording. */
static void replay_event(struct snapshot *snap, const char *msg)
{
	if (snap->nevents >= SNAP_MAX_EVENTS)
		return;
	struct event *e = &snap->events[snap->nevents++];
	memset(e, 0, sizeof(*e));
	e->kind = EV_ERROR;
	e->wall_ns = snap->wall_ns;
	e->mono_ns = snap->mono_ns;
	size_t ml = strnlen(msg, sizeof(e->text) - 1);
	memcpy(e->text, msg, ml);
	e->text[ml] = '\0';
}

/* --follow: the next line that decodes, or the last one again (no events) when none came. */
static void replay_sample_follow(struct replay *r, struct snapshot *snap)
{
	char err[128], *line;
	while ((line = rfollow_take(r->fw))) {
		if (snapdec_line(line, strlen(line), snap, err, sizeof(err)) == SNAPDEC_OK) {
			free(r->fline);
			r->fline = line;
			r->played++;
			r->decoded++;
			snap->mono_ns = clock_mono_ns();
			memcpy(r->knobs, snap->knobs, sizeof(r->knobs));
			return;
		}
		if (!r->skipped)
			snprintf(r->first_skip, sizeof(r->first_skip), "line %zu: %s",
				 r->played + (size_t)r->skipped + 1, err);
		r->skipped++;
		free(line);
	}
	if (r->fline)
		snapdec_line(r->fline, strlen(r->fline), snap, err, sizeof(err));
	snap->nevents = 0;
	snap->mono_ns = clock_mono_ns();
}

/* Line l's text (l->len bytes, valid until the file is read again), or NULL with why. The
 * file's decoder is kept only for the file being played: moving to the next file of a store
 * frees the last one's. */
static const char *replay_fetch(struct replay *r, const struct replay_line *l, char *err,
				size_t errlen)
{
	if (l->file != r->active && r->active < r->nfv)
		zread_idle(r->fv[r->active].rd);
	r->active = l->file;
	struct zread *rd = r->fv[l->file].rd;
	const char *s = NULL;
	size_t len = 0;
	int rc = zread_seek(rd, l->off, err, errlen);
	if (rc == 0 && (rc = zread_line(rd, &s, &len, err, errlen)) >= 0 && len < l->len)
		snprintf(err, errlen, "the file ends inside it");
	return rc > 0 && len >= l->len ? s : NULL;
}

static void replay_sample(struct source *src, struct snapshot *snap)
{
	struct replay *r = src->priv;
	char err[128];
	if (r->fw) {
		replay_sample_follow(r, snap);
		return;
	}
	/* Past the end: the last one again. A line that does not decode when its turn comes
	 * is skipped then (the index only looked at its head). */
	bool ok = false;
	replay_more(r, r->cur + 1, REPLAY_AHEAD, err, sizeof(err));
	for (;;) {
		size_t i = r->cur < r->n ? r->cur : r->n - 1;
		const char *line = replay_fetch(r, &r->lines[i], err, sizeof(err));
		if (line &&
		    snapdec_line(line, r->lines[i].len, snap, err, sizeof(err)) == SNAPDEC_OK) {
			ok = true;
			break;
		}
		if (r->cur >= r->n)
			break;
		if (!r->skipped)
			snprintf(r->first_skip, sizeof(r->first_skip), "sample %zu: %s", i + 1,
				 err);
		r->skipped++;
		if (replay_more(r, r->cur + 1, 0, err, sizeof(err)) == 0 && r->cur + 1 >= r->n)
			break; /* the last line is bad: the one before it stays shown */
		r->cur++;
	}
	if (!ok)
		snap->nevents = 0;
	else
		r->decoded++;
	snap->mono_ns = clock_mono_ns();
	if (r->cur < r->n)
		r->cur++;
	else
		snap->nevents = 0; /* the same events once only */
	if (!r->told && !r->ixrd) { /* once the index is whole: its counts are */
		r->told = true;
		/* Only when lines were skipped: a clean recording re-emits byte for byte. */
		char msg[400];
		if (r->skipped) {
			snprintf(msg, sizeof(msg),
				 "replay %s: %zu samples, %llu lines skipped (first %s)", r->name,
				 r->n, (unsigned long long)r->skipped, r->first_skip);
			replay_event(snap, msg);
		}
		if (r->damaged[0]) {
			snprintf(msg, sizeof(msg), "replay: damaged, what came before kept: %s",
				 r->damaged);
			replay_event(snap, msg);
		}
	}
	memcpy(r->knobs, snap->knobs, sizeof(r->knobs));
}

static double replay_pace(struct source *src)
{
	struct replay *r = src->priv;
	/* Following: what the file holds at once, then each line as it comes. */
	if (r->fw)
		return rfollow_ready(r->fw) ? 0 : REPLAY_FOLLOW_POLL_S;
	char err[300];
	replay_more(r, r->cur, 0, err, sizeof(err));
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

static uint64_t replay_decoded(struct source *src)
{
	const struct replay *r = src->priv;
	return r->decoded;
}

static bool replay_ready(struct source *src)
{
	struct replay *r = src->priv;
	return !r->fw || rfollow_ready(r->fw);
}

static size_t replay_status(struct source *src, char *buf, size_t len)
{
	struct replay *r = src->priv;
	char file[128], note[256];
	int n;
	if (r->fw) {
		rfollow_status(r->fw, file, sizeof(file), note, sizeof(note));
		n = snprintf(buf, len, "follow %s %zu%s%s", file[0] ? file : r->name, r->played,
			     note[0] ? ", damaged: " : "", note);
	} else {
		/* "+": a single file still being indexed (REPLAY_AHEAD a sample). */
		n = snprintf(buf, len, "replay %s %zu/%zu%s%s", r->name, r->cur, r->n,
			     r->ixrd ? "+" : "", r->cur >= r->n ? " (end)" : "");
		if (r->files_left && n >= 0 && (size_t)n < len)
			n += snprintf(buf + n, len - (size_t)n,
				      ", %zu older files left out (--from)", r->files_left);
		if (r->damaged[0] && n >= 0 && (size_t)n < len)
			n += snprintf(buf + n, len - (size_t)n, ", damaged: %s", r->damaged);
	}
	if (r->skipped && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, ", %llu line%s skipped",
			      (unsigned long long)r->skipped, r->skipped == 1 ? "" : "s");
	return n < 0 ? 0 : (size_t)n < len ? (size_t)n : len - 1;
}

static int replay_seek(struct source *src, const char *to, char *msg, size_t len)
{
	struct replay *r = src->priv;
	char a[16], b[16], at[16];
	uint64_t t;
	if (r->fw) {
		snprintf(msg, len, "goto: not with --follow (it plays what is appended)");
		return KNOB_ERR_USAGE;
	}
	replay_more(r, SIZE_MAX, 0, msg, len); /* the whole index: where a time is */
	const struct replay_line *shown = &r->lines[r->cur ? r->cur - 1 : 0];
	if (replay_goto_time(to, shown->wall_ns, &t) != 0) {
		snprintf(msg, len,
			 "goto: '%s' is not a time (valid: 10:42, 10:42:30, -5m, +30s, "
			 "2026-12-01T10:42:00Z)",
			 to);
		return KNOB_ERR_USAGE;
	}
	uint64_t first = r->lines[0].wall_ns, last = r->lines[r->n - 1].wall_ns;
	/* "10:42" names the minute: a recording that starts within it starts there. */
	if (t < first && first - t < 60 * 1000000000ull)
		t = first;
	if (t < first || t > last) {
		replay_hms(first, a, sizeof(a));
		replay_hms(last, b, sizeof(b));
		snprintf(msg, len, "goto %s: out of the recording (%s .. %s)", to, a, b);
		return KNOB_ERR_USAGE;
	}
	size_t i = 0;
	while (i + 1 < r->n && r->lines[i].wall_ns < t)
		i++;
	r->cur = i; /* the next sample played is the one asked for */
	replay_hms(r->lines[i].wall_ns, at, sizeof(at));
	snprintf(msg, len, "goto: at %s (sample %zu of %zu)", at, i + 1, r->n);
	return 0;
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
	replay_free(r);
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
    .decoded = replay_decoded,
    .status = replay_status,
    .ready = replay_ready,
    .seek = replay_seek,
};
