/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exp_check.c: hangs in an experiment's window, and metric paths checked up front. */
#include "tui/exp/exp_check.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "tui/exp/exp_metric.h"

/* The n-th event of kind "hang" in snap's events[], or NULL. */
static json_t *check_hang_event(json_t *snap, size_t n)
{
	size_t i;
	json_t *ev;
	json_array_foreach (json_object_get(snap, "events"), i, ev) {
		const char *kind = json_string_value(json_object_get(ev, "kind"));
		if (kind && strcmp(kind, "hang") == 0 && n-- == 0)
			return ev;
	}
	return NULL;
}

/* "hung": true anywhere under node (sections, their threads[]): its path into out. */
static bool check_hung_flag(json_t *node, const char *at, char *out, size_t len)
{
	char sub[128];
	if (json_is_object(node)) {
		const char *key;
		json_t *v;
		json_object_foreach (node, key, v) {
			snprintf(sub, sizeof(sub), "%s%s%s", at, *at ? "." : "", key);
			if (strcmp(key, "hung") == 0 && json_is_true(v)) {
				snprintf(out, len, "%s is true", sub);
				return true;
			}
			if ((json_is_object(v) || json_is_array(v)) &&
			    check_hung_flag(v, sub, out, len))
				return true;
		}
	} else if (json_is_array(node)) {
		size_t i;
		json_t *v;
		json_array_foreach (node, i, v) {
			snprintf(sub, sizeof(sub), "%s[%zu]", at, i);
			if (check_hung_flag(v, sub, out, len))
				return true;
		}
	}
	return false;
}

/* An event's ISO 8601 UTC time ("2026-12-02T02:52:10.123Z", tui/snapjson.c) in seconds. */
static int check_iso_time(const char *t, double *out)
{
	struct tm tm = {0};
	unsigned ms = 0;
	if (!t || sscanf(t, "%d-%d-%dT%d:%d:%d.%3uZ", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
			 &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &ms) != 7)
		return -1;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	time_t sec = timegm(&tm);
	if (sec == (time_t)-1)
		return -1;
	*out = (double)sec + ms / 1000.0;
	return 0;
}

int exp_hang_since(json_t *first, json_t *last, double *since_s)
{
	json_t *snaps[2] = {first, last}, *ev;
	for (int k = 0; k < 2; k++) {
		for (size_t n = 0; (ev = check_hang_event(snaps[k], n)); n++) {
			const char *text = json_string_value(json_object_get(ev, "text"));
			const char *at = text ? strstr(text, "made no progress for ") : NULL;
			unsigned long long ms;
			double t;
			if (!at || sscanf(at, "made no progress for %llu ms", &ms) != 1 ||
			    check_iso_time(json_string_value(json_object_get(ev, "time")), &t) != 0)
				continue;
			*since_s = t - (double)ms / 1000.0;
			return 0;
		}
	}
	return -1;
}

int exp_hung_flag(json_t *snap, char *out, size_t len)
{
	/* Only the subsystem sections: knobs and events are not states. */
	static const char *const sections[] = {"est", "pmd", "blk", "host"};
	for (size_t i = 0; i < sizeof(sections) / sizeof(sections[0]); i++) {
		json_t *s = json_object_get(snap, sections[i]);
		if (s && check_hung_flag(s, sections[i], out, len))
			return 1;
	}
	return 0;
}

static bool num(json_t *snap, const char *path, double *v)
{
	return exp_metric(snap, path, v) == 0;
}

int exp_hang_check(json_t *first, json_t *last, char *out, size_t len)
{
	json_t *ev = check_hang_event(first, 0);
	char where[160];
	double c0, c1, inflight, g0, g1, f0, f1;

	if (ev || (ev = check_hang_event(last, 0))) {
		const char *text = json_string_value(json_object_get(ev, "text"));
		snprintf(out, len, "hang: %s", text ? text : "(no text)");
		return 1;
	}
	if (exp_hung_flag(last, where, sizeof(where))) {
		snprintf(out, len, "hang: %s", where);
		return 1;
	}
	/* Progress: a stalled subsystem whose watchdog has not fired yet. */
	if (num(first, "blk.totals.completed", &c0) && num(last, "blk.totals.completed", &c1) &&
	    num(last, "blk.totals.in_flight", &inflight) && c1 == c0 && inflight > 0) {
		snprintf(out, len,
			 "hang: blk completed nothing in the window with %.0f requests in flight",
			 inflight);
		return 1;
	}
	if (num(first, "pmd.totals.generated", &g0) && num(last, "pmd.totals.generated", &g1) &&
	    num(first, "pmd.totals.forwarded", &f0) && num(last, "pmd.totals.forwarded", &f1) &&
	    g1 > g0 && f1 == f0) {
		snprintf(
		    out, len,
		    "hang: pmd forwarded nothing in the window while %.0f packets were generated",
		    g1 - g0);
		return 1;
	}
	out[0] = '\0';
	return 0;
}

/* The keys of an object (or the forms an array takes) as "a, b, c" into buf. */
static void check_choices(json_t *node, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	if (json_is_array(node)) {
		snprintf(buf, len, "[N] (0 to %zu), [*] (sum), [avg]",
			 json_array_size(node) ? json_array_size(node) - 1 : 0);
		return;
	}
	const char *key;
	json_t *v;
	json_object_foreach (node, key, v) {
		int n = snprintf(buf + used, len - used, "%s%s", used ? ", " : "", key);
		if (n < 0 || (size_t)n >= len - used) {
			if (len > 4)
				strcpy(buf + len - 4, "...");
			return;
		}
		used += (size_t)n;
	}
}

int exp_metric_check(json_t *snap, const char *path, char *err, size_t len)
{
	double v;
	char prefix[256], choices[512];
	json_t *node = snap;

	/* null is a number this sample has not got (the first sample has no interval) */
	if (exp_metric(snap, path, &v) >= 0)
		return 0;
	/* Walk the plain object keys as far as they go, to name the first missing one. */
	const char *p = path;
	while (*p && json_is_object(node)) {
		size_t n = strcspn(p, ".[");
		if (n >= sizeof(prefix))
			break;
		memcpy(prefix, p, n);
		prefix[n] = '\0';
		if (strcmp(prefix, "knobs") == 0 && p[n] == '.' && json_object_get(node, "knobs")) {
			node = json_object_get(node, "knobs");
			const char *knob = p + n + 1;
			if (!json_object_get(node, knob)) {
				check_choices(node, choices, sizeof(choices));
				snprintf(err, len, "'%s': no knob '%s' in the snapshot (valid: %s)",
					 path, knob, choices);
				return -1;
			}
			break;
		}
		json_t *child = json_object_get(node, prefix);
		if (!child) {
			check_choices(node, choices, sizeof(choices));
			snprintf(err, len,
				 "'%s': '%s' is not in the snapshot (is its subsystem running?); "
				 "valid at that level: %s",
				 path, prefix, choices);
			return -1;
		}
		node = child;
		p += n;
		if (*p == '.')
			p++;
		else
			break;
	}
	if (json_is_object(node) || json_is_array(node)) {
		check_choices(node, choices, sizeof(choices));
		snprintf(err, len, "'%s' does not lead to a number; at '%.*s' valid: %s", path,
			 (int)(p - path), path, choices);
	} else {
		snprintf(err, len, "'%s' does not lead to a number", path);
	}
	return -1;
}
