/* SPDX-License-Identifier: GPL-2.0-or-later */
/* batch_diag.c: a JSON line's diagnoses[] and the events of findings starting and clearing. */
#include "tui/batch_diag.h"

#include <math.h>
#include <string.h>

#include "tui/snapjson.h"

/* Two decimals, as every figure of the line (tui/snapjson.c). */
static json_t *batch_diag_real(double v)
{
	return json_real(isfinite(v) ? round(v * 100.0) / 100.0 : 0);
}

json_t *batch_diag_json(const struct diag_finding *f, int n)
{
	json_t *a = json_array();
	char when[40];
	for (int i = 0; i < n; i++) {
		json_t *ev = json_array();
		for (int k = 0; k < f[i].nevidence; k++) {
			const struct diag_evidence *e = &f[i].evidence[k];
			json_array_append_new(ev, json_pack("{s:s, s:o, s:s}", "figure", e->figure,
							    "value", batch_diag_real(e->value),
							    "unit", e->unit ? e->unit : ""));
		}
		snapjson_iso8601(f[i].since_wall_ns, when, sizeof(when));
		json_t *o = json_pack("{s:s, s:s, s:I, s:s, s:o, s:s}", "id", f[i].id, "severity",
				      diag_severity_name(f[i].severity), "since",
				      (json_int_t)f[i].since_seq, "since_time", when, "evidence",
				      ev, "conclusion", f[i].conclusion);
		json_object_set_new(o, "fix", f[i].fix[0] ? json_string(f[i].fix) : json_null());
		json_array_append_new(a, o);
	}
	return a;
}

void batch_diag_add(json_t *line, struct diag_state *st, const struct snapshot *s)
{
	struct diag_finding f[DIAG_MAX_FINDINGS];
	struct diag_change c[DIAG_MAX_FINDINGS];
	int n = diag_eval(st, s, f, DIAG_MAX_FINDINGS);
	json_object_set_new(line, "diagnoses", batch_diag_json(f, n));

	json_t *events = json_object_get(line, "events");
	if (!json_is_array(events)) {
		events = json_array();
		json_object_set_new(line, "events", events);
	}
	for (size_t i = json_array_size(events); i-- > 0;) {
		const char *kind =
		    json_string_value(json_object_get(json_array_get(events, i), "kind"));
		if (kind && strcmp(kind, event_kind_name(EV_DIAG)) == 0)
			json_array_remove(events, i);
	}
	int nc = diag_changes(st, c, DIAG_MAX_FINDINGS);
	char when[40];
	snapjson_iso8601(s->wall_ns, when, sizeof(when));
	for (int i = 0; i < nc; i++)
		json_array_append_new(events,
				      json_pack("{s:s, s:s, s:s}", "time", when, "kind",
						event_kind_name(EV_DIAG), "text", c[i].text));
}
