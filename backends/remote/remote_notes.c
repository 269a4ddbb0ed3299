/* SPDX-License-Identifier: GPL-2.0-or-later */
/* remote_notes.c: what the remote hosts tell the console: notes (down, up, broken, replies),
 * their events for --record, and the knob results of `set`. A leaf: both the per-host link
 * (remote_host.c) and the source (src_remote.c) call it, and it calls neither. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "backends/remote/remote_int.h"
#include "core/clock.h"
#include "core/knob.h"
#include "core/utf8.h"

/* An event for the next snapshot, for --record: the notes and the knob answers. */
static void remote_event(struct remote *r, bool err, const char *text)
{
	if (r->nev >= SNAP_MAX_EVENTS)
		return;
	struct event *e = &r->ev[r->nev++];
	struct timespec ts;
	memset(e, 0, sizeof(*e));
	clock_gettime(CLOCK_REALTIME, &ts);
	e->wall_ns = clock_ts_to_ns(&ts);
	e->mono_ns = clock_mono_ns();
	e->kind = err ? EV_ERROR : EV_KNOB;
	utf8_sanitize_term(e->text, sizeof(e->text), text);
}

/* Notes come from the hosts (down, up again, replies) and from remote_set_all; they wait in
 * a ring for note() and are copied into the next snapshot's events for --record. */
void remote_note(struct remote *r, bool err, const char *fmt, ...)
{
	va_list ap;
	size_t i = (r->nhead + r->nnotes) % REMOTE_NOTES;
	if (r->nnotes == REMOTE_NOTES) {
		r->nhead = (r->nhead + 1) % REMOTE_NOTES;
		r->nnotes--;
		i = (r->nhead + r->nnotes) % REMOTE_NOTES;
	}
	char raw[sizeof(r->notes[i])];
	va_start(ap, fmt);
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	/* What a far side says reaches a terminal (-b's stderr, the console): escaped here, once
	 * for every front end. */
	utf8_sanitize_term(r->notes[i], sizeof(r->notes[i]), raw);
	r->note_err[i] = err;
	r->nnotes++;
	remote_event(r, err, r->notes[i]);
}

/* A far host's answer to `set`, queued as a knob result for the console (source.h). */
void remote_knob_reply(struct remote *r, struct remote_host *h, const char *knob, const char *value,
		       bool ok, const char *error)
{
	struct source_knob_result k = {.rc = ok ? 0 : KNOB_ERR_RUNTIME};
	char text[240];
	int id = knob_find(knob);
	if (id < 0 || knob_parse((enum knob_id)id, value, &k.stored, text, sizeof(text)) != 0) {
		/* A knob or value this side does not know (another version): said as a note. */
		remote_note(r, !ok, "%s: %s %s %s", h->name, knob, ok ? "=" : "stays", value);
		return;
	}
	if (ok)
		snprintf(text, sizeof(text), "%s: %s = %s", h->name, knob, value);
	else
		snprintf(text, sizeof(text), "%s: %s stays %s (%s)", h->name, knob, value,
			 error ? error : "refused");
	remote_event(r, !ok, text);
	k.knob = (enum knob_id)id;
	k.requested = k.stored; /* the reply names what is in force, not what was asked */
	k.elsewhere = h != &r->h[r->sel];
	snprintf(k.from, sizeof(k.from), "%s", h->name);
	if (!ok)
		utf8_sanitize_term(k.err, sizeof(k.err), error ? error : "refused");
	if (r->nres == REMOTE_NOTES) { /* nobody asks: the oldest go */
		r->rhead = (r->rhead + 1) % REMOTE_NOTES;
		r->nres--;
	}
	r->res[(r->rhead + r->nres++) % REMOTE_NOTES] = k;
}
