/* SPDX-License-Identifier: GPL-2.0-or-later */
/* snapjson_diag.c: a snapshot's diagnoses in JSON: diagnoses[] and the "diag" events. */
#include "tui/snapjson_diag.h"

#include <math.h>

#include "core/clock.h"
#include "diag/diag.h"
#include "tui/snapjson.h"

/* Two decimals, as every figure of the line (tui/snapjson.c). */
static json_t *diag_real(double v)
{
	return json_real(isfinite(v) ? round(v * 100.0) / 100.0 : 0);
}

json_t *snapjson_findings(const struct diag_finding *f, int n)
{
	json_t *a = json_array();
	char when[40];
	for (int i = 0; i < n; i++) {
		json_t *ev = json_array();
		for (int k = 0; k < f[i].nevidence; k++) {
			const struct diag_evidence *e = &f[i].evidence[k];
			json_array_append_new(ev, json_pack("{s:s, s:o, s:s}", "figure", e->figure,
							    "value", diag_real(e->value), "unit",
							    e->unit ? e->unit : ""));
		}
		clock_iso8601(f[i].since_wall_ns, when, sizeof(when));
		json_t *o = json_pack("{s:s, s:s, s:I, s:s, s:o, s:s}", "id", f[i].id, "severity",
				      diag_severity_name(f[i].severity), "since",
				      (json_int_t)f[i].since_seq, "since_time", when, "evidence",
				      ev, "conclusion", f[i].conclusion);
		json_object_set_new(o, "fix", f[i].fix[0] ? json_string(f[i].fix) : json_null());
		json_array_append_new(a, o);
	}
	return a;
}

bool snapjson_diag_event_kept(const struct snapshot *s, const struct event *e)
{
	return !s->diag.evaluated || e->kind != EV_DIAG;
}

void snapjson_diag_events(json_t *events, const struct snapshot *s)
{
	char when[40];
	if (!s->diag.evaluated)
		return;
	clock_iso8601(s->wall_ns, when, sizeof(when));
	for (int i = 0; i < s->diag.nchanges; i++)
		json_array_append_new(events, json_pack("{s:s, s:s, s:s}", "time", when, "kind",
							event_kind_name(EV_DIAG), "text",
							s->diag.change[i]));
}
