/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exp_diag.c: the diagnoses of an experiment's passes: each pass's window goes through the
 * rules once (exp_window, diag_eval_window) and the findings are tallied per setting, so a
 * sweep or an A/B run says what the console would have said of each arm. */
#include "tui/exp/exp_diag.h"

#include <stdio.h>
#include <string.h>

void exp_findings_add(struct exp_findings *t, const json_t *window)
{
	const json_t *arr = json_object_get(window, "diagnoses");
	size_t i;
	const json_t *f;
	json_array_foreach (arr, i, f) {
		const char *id = json_string_value(json_object_get(f, "id"));
		const char *fix = json_string_value(json_object_get(f, "fix"));
		if (!id)
			continue;
		int k = 0;
		while (k < t->n && strcmp(t->id[k], id) != 0)
			k++;
		if (k == t->n) {
			if (t->n == DIAG_MAX_FINDINGS)
				continue; /* one finding per rule: never more than the rules */
			snprintf(t->id[k], sizeof(t->id[k]), "%s", id);
			t->fix[k][0] = '\0';
			t->passes[k] = 0;
			t->n++;
		}
		t->passes[k]++;
		if (fix && fix[0])
			snprintf(t->fix[k], sizeof(t->fix[k]), "%s", fix);
	}
}

void exp_findings_text(const struct exp_findings *t, size_t passes, char *buf, size_t len)
{
	size_t at = 0;
	buf[0] = '\0';
	for (int k = 0; k < t->n && at < len; k++) {
		int w = snprintf(buf + at, len - at, "%s%s in %d of %zu passes%s%s%s",
				 k ? "; " : "findings: ", t->id[k], t->passes[k], passes,
				 t->fix[k][0] ? " (fix " : "", t->fix[k], t->fix[k][0] ? ")" : "");
		if (w < 0)
			break;
		at += (size_t)w;
	}
}

json_t *exp_findings_json(const struct exp_findings *t)
{
	json_t *o = json_object();
	for (int k = 0; k < t->n; k++)
		json_object_set_new(o, t->id[k],
				    json_pack("{s:i, s:o}", "passes", t->passes[k], "fix",
					      t->fix[k][0] ? json_string(t->fix[k]) : json_null()));
	return o;
}
