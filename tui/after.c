/* SPDX-License-Identifier: GPL-2.0-or-later */
/* after.c: what follows every sample a front end takes: diagnose once, publish, keep, record. */
#include "tui/after.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/replay/recfile.h"
#include "backends/replay/recstore.h"
#include "core/xalloc.h"
#include "tui/metrics/serve.h"
#include "tui/snapjson.h"

/* One source's (one fleet host's) diagnoses. */
struct after_host {
	struct diag_state st;
	bool fed;
	uint64_t seq, wall_ns; /* the last snapshot fed */
	struct snap_diag last; /* its findings, for that snapshot handed over again */
};

struct after {
	struct after_host *host;
	int nhost;
	struct recfile_writer *rec;
	const char *rec_name; /* for messages */
	bool rec_failed; /* its first error was said */
	bool rec_behind; /* a line was dropped since after_record_note */
	struct history *hist;
	char *line, *host_line; /* the last lines made here: the sample's, a fleet host's */
	struct snapshot *copy; /* a fleet host's snapshot, diagnosed */
};

/* --record FILE or --record-dir DIR (the store's rotation and retention); NULL when neither. */
static struct recfile_writer *after_record_open(const struct options *o, int *status, char *err,
						size_t errlen)
{
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

struct after *after_open(const struct options *o, int *status)
{
	char err[4200];
	struct after *a = xcalloc(1, sizeof(*a));
	*status = 0;
	a->rec_name = o->record ? o->record : o->record_dir;
	if (a->rec_name && !(a->rec = after_record_open(o, status, err, sizeof(err)))) {
		fprintf(stderr, "tunetop: %s: %s\n", o->record ? "--record" : "--record-dir", err);
		free(a);
		return NULL;
	}
	return a;
}

int after_close(struct after *a)
{
	char err[256];
	int rc = 0;
	if (!a)
		return 0;
	if (a->rec && recfile_close(a->rec, err, sizeof(err)) != 0) {
		fprintf(stderr, "tunetop: --record %s: %s\n", a->rec_name, err);
		rc = 1;
	}
	free(a->host);
	free(a->line);
	free(a->host_line);
	snapshot_free(a->copy);
	free(a);
	return rc;
}

void after_keep_history(struct after *a, struct history *h)
{
	a->hist = h;
}

bool after_recording(const struct after *a)
{
	return a->rec != NULL;
}

void after_diagnose(struct diag_state *st, struct snapshot *s)
{
	struct diag_change c[DIAG_MAX_FINDINGS];
	s->diag.n = diag_eval(st, s, s->diag.f, DIAG_MAX_FINDINGS);
	s->diag.nchanges = diag_changes(st, c, DIAG_MAX_FINDINGS);
	for (int i = 0; i < s->diag.nchanges; i++)
		snprintf(s->diag.change[i], sizeof(s->diag.change[i]), "%s", c[i].text);
	s->diag.evaluated = true;
}

/* Diagnose s as host i's next sample. A snapshot handed over again (a fleet's sample() gives the
 * selected host's latest, a recording may give its line again) gets its findings again, with
 * no change said twice, and the hysteresis does not advance. */
static void after_host_diagnose(struct after *a, struct snapshot *s, int i)
{
	if (i < 0)
		i = 0;
	if (i >= a->nhost) {
		a->host = xrealloc(a->host, (size_t)(i + 1) * sizeof(*a->host));
		memset(a->host + a->nhost, 0, (size_t)(i + 1 - a->nhost) * sizeof(*a->host));
		for (int k = a->nhost; k <= i; k++)
			diag_init(&a->host[k].st);
		a->nhost = i + 1;
	}
	struct after_host *h = &a->host[i];
	if (h->fed && h->seq == s->seq && h->wall_ns == s->wall_ns) {
		s->diag = h->last;
		s->diag.nchanges = 0;
		return;
	}
	after_diagnose(&h->st, s);
	h->fed = true;
	h->seq = s->seq;
	h->wall_ns = s->wall_ns;
	h->last = s->diag;
}

/* s as one compact JSON line (with "host" when given) into *keep, which held the last one. */
static const char *after_encode(char **keep, const struct snapshot *s, const char *host)
{
	json_t *j = snapjson_build(s);
	if (host)
		json_object_set_new(j, "host", json_string(host));
	free(*keep);
	*keep = json_dumps(j, JSON_COMPACT | JSON_REAL_PRECISION(12));
	json_decref(j);
	return *keep;
}

static void after_record(struct after *a, const char *line)
{
	if (a->rec && line && !recfile_put(a->rec, line))
		a->rec_behind = true;
}

bool after_fleet_take(struct after *a, struct source *src, int i, const char *name, bool diagnose,
		      const char **line)
{
	const struct snapshot *s;
	if (!source_fleet_take_new(src, i, &s))
		return false;
	if (!a->copy)
		a->copy = snapshot_new();
	snapshot_copy(a->copy, s);
	a->copy->diag.evaluated = false;
	if (diagnose)
		after_host_diagnose(a, a->copy, i);
	*line = after_encode(&a->host_line, a->copy, name);
	after_record(a, *line);
	return true;
}

const char *after_sample(struct after *a, struct source *src, struct snapshot *s, bool want_line)
{
	int nfleet = source_fleet_count(src);
	const char *line = NULL;
	after_host_diagnose(a, s, source_fleet_selected(src));
	serve_publish(s); /* the scrape text of this sample, rendered here once */
	if (a->hist)
		line = history_push(a->hist, s);
	else if (want_line || a->rec)
		line = after_encode(&a->line, s, NULL);
	if (!nfleet) {
		after_record(a, line);
		return line;
	}
	/* A fleet: every host's new snapshot, with its "host", as -b writes them. */
	struct fleet_row row;
	const char *l;
	for (int i = 0; a->rec && source_fleet_row(src, i, &row); i++)
		after_fleet_take(a, src, i, row.name, false, &l);
	return line;
}

bool after_record_note(struct after *a, char *buf, size_t len, bool *err)
{
	char why[128];
	*err = true;
	if (a->rec && !a->rec_failed && (recfile_error(a->rec, why, sizeof(why)), why[0])) {
		/* The writer's first error, once (the exit status is 1 too). */
		a->rec_failed = true;
		a->rec_behind = false;
		snprintf(buf, len, "--record %s: %s", a->rec_name, why);
		return true;
	}
	if (!a->rec_behind)
		return false;
	a->rec_behind = false;
	snprintf(buf, len, "--record: the disk is behind; %llu lines dropped",
		 (unsigned long long)recfile_dropped(a->rec));
	return true;
}
