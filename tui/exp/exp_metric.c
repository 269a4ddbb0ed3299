/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exp_metric.c: a small JSON path evaluator for experiment metrics. */
#include "tui/exp/exp_metric.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static int exp_metric_value(json_t *v, double *out)
{
	if (json_is_integer(v))
		*out = (double)json_integer_value(v);
	else if (json_is_real(v))
		*out = json_real_value(v);
	else if (json_is_boolean(v))
		*out = json_is_true(v) ? 1 : 0;
	else if (json_is_null(v))
		return 1; /* a number this sample has not got (docs/json.md: "null without ...") */
	else
		return -1;
	return 0;
}

int exp_metric(json_t *node, const char *path, double *out)
{
	char key[128];

	if (!node)
		return -1;
	if (!*path)
		return exp_metric_value(node, out);
	if (json_is_object(node) && json_object_get(node, "knobs") == NULL &&
	    json_object_get(node, path)) {
		/* "knobs.pmd.maxsleep_us": the rest is one key with dots in it. */
		return exp_metric_value(json_object_get(node, path), out);
	}
	size_t len = strcspn(path, ".[");
	if (len == 0 || len >= sizeof(key))
		return -1;
	memcpy(key, path, len);
	key[len] = '\0';
	json_t *child = json_object_get(node, key);
	const char *rest = path + len;

	if (*rest == '[') {
		if (!json_is_array(child))
			return -1;
		const char *close = strchr(rest, ']');
		if (!close)
			return -1;
		const char *after = close + 1;
		if (*after == '.')
			after++;
		bool sum_all = rest[1] == '*' && close == rest + 2;
		bool avg_all = strncmp(rest, "[avg]", 5) == 0;
		if (sum_all || avg_all) {
			double sum = 0, v;
			size_t i;
			json_t *el;
			json_array_foreach (child, i, el) {
				int rc = exp_metric(el, after, &v);
				if (rc != 0)
					return rc;
				sum += v;
			}
			size_t n = json_array_size(child);
			*out = avg_all ? (n ? sum / (double)n : 0) : sum;
			return 0;
		}
		char *end;
		long idx = strtol(rest + 1, &end, 10);
		if (end != close || idx < 0)
			return -1;
		return exp_metric(json_array_get(child, (size_t)idx), after, out);
	}
	if (*rest == '.')
		rest++;
	return exp_metric(child, rest, out);
}
