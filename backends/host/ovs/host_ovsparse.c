/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host_ovsparse.c: JSON-RPC 1.0 framing with jansson, and the PMD report text parsers. */
#include "backends/host/ovs/host_ovsparse.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

char *host_ovs_request(const char *method, const char *const *params, int nparams, long long id)
{
	json_t *a = json_array();
	for (int i = 0; i < nparams; i++)
		json_array_append_new(a, json_string(params[i] ? params[i] : ""));
	json_t *o =
	    json_pack("{s:s, s:o, s:I}", "method", method, "params", a, "id", (json_int_t)id);
	char *s = o ? json_dumps(o, JSON_COMPACT) : NULL;
	json_decref(o);
	if (!s) /* only on allocation failure or invalid UTF-8 in method: fatal is too much */
		return xstrdup("");
	char *out = xstrdup(s);
	free(s);
	return out;
}

int host_ovs_parse_reply_json(const char *buf, size_t len, long long id, json_t **result,
			      bool *is_error, size_t *consumed, char *err, size_t errlen)
{
	json_error_t je;
	size_t i = 0;

	*result = NULL;
	*is_error = false;
	*consumed = 0;
	while (i < len && (buf[i] == ' ' || buf[i] == '\n' || buf[i] == '\r' || buf[i] == '\t'))
		i++;
	if (i == len)
		return 0;
	/* Messages follow each other with no framing (docs/pmd.md §6). jansson calls
	 * a cut escape or literal "invalid", so find the message's end ourselves:
	 * the bracket that closes the first one, outside strings. */
	if (buf[i] != '{' && buf[i] != '[') {
		snprintf(err, errlen, "bad JSON-RPC reply: does not start with an object");
		return -1;
	}
	size_t end = 0, depth = 0;
	bool in_str = false;
	for (size_t k = i; k < len && !end; k++) {
		char ch = buf[k];
		if (in_str) {
			if (ch == '\\')
				k++;
			else if (ch == '"')
				in_str = false;
		} else if (ch == '"') {
			in_str = true;
		} else if (ch == '{' || ch == '[') {
			depth++;
		} else if ((ch == '}' || ch == ']') && --depth == 0) {
			end = k + 1;
		}
	}
	if (!end)
		return 0;
	json_t *o = json_loadb(buf + i, end - i, 0, &je);
	*consumed = end;
	if (!o) {
		snprintf(err, errlen, "bad JSON-RPC reply: %s", je.text);
		return -1;
	}
	int rc = -1;
	json_t *jid = json_object_get(o, "id");
	json_t *jres = json_object_get(o, "result");
	json_t *jerr = json_object_get(o, "error");
	if (!json_is_object(o)) {
		snprintf(err, errlen, "bad JSON-RPC reply: not an object");
	} else if (json_object_get(o, "method")) {
		rc = 2; /* the server's own request (ovsdb's "echo"): not our answer */
	} else if (!json_is_integer(jid) || json_integer_value(jid) != (json_int_t)id) {
		snprintf(err, errlen, "bad JSON-RPC reply: id does not match the request %lld", id);
	} else if (jerr && !json_is_null(jerr)) {
		/* "error" is usually text; show anything else compactly. */
		char *t =
		    json_is_string(jerr) ? NULL : json_dumps(jerr, JSON_COMPACT | JSON_ENCODE_ANY);
		snprintf(err, errlen, "%s",
			 json_is_string(jerr) ? json_string_value(jerr)
			 : t		      ? t
					      : "?");
		free(t);
		size_t n = strlen(err);
		while (n && err[n - 1] == '\n')
			err[--n] = '\0';
		*is_error = true;
		rc = 1;
	} else if (!jres) {
		snprintf(err, errlen, "bad JSON-RPC reply: no result");
	} else {
		*result = json_incref(jres);
		rc = 1;
	}
	json_decref(o);
	return rc;
}

int host_ovs_parse_reply(const char *buf, size_t len, long long id, char **result, bool *is_error,
			 size_t *consumed, char *err, size_t errlen)
{
	json_t *res;
	int rc = host_ovs_parse_reply_json(buf, len, id, &res, is_error, consumed, err, errlen);

	*result = NULL;
	if (rc == 2) {
		snprintf(err, errlen, "bad JSON-RPC reply: a request, not a reply");
		return -1;
	}
	if (rc != 1 || *is_error)
		return rc;
	if (!json_is_string(res)) {
		snprintf(err, errlen, "bad JSON-RPC reply: result is not text");
		json_decref(res);
		return -1;
	}
	*result = xstrdup(json_string_value(res));
	json_decref(res);
	return 1;
}

/* The value after label (which starts the trimmed line) as integer, then "(x" as a double. */
static bool ovs_line_num(const char *line, const char *label, uint64_t *n, double *paren)
{
	size_t l = strlen(label);
	if (strncmp(line, label, l) != 0)
		return false;
	const char *p = line + l;
	char *end;
	while (*p == ' ')
		p++;
	if (*p < '0' || *p > '9')
		return false;
	double v = strtod(p, &end); /* "Sleep time (us)" prints %12.0f: may be huge */
	if (end == p)
		return false;
	*n = v < 0 ? 0 : v > 1.8e19 ? UINT64_MAX : (uint64_t)v;
	if (paren) {
		const char *q = strchr(end, '(');
		*paren = 0;
		if (q)
			*paren = strtod(q + 1, NULL);
	}
	return true;
}

/* Copy the line at p (cut to cap - 1 bytes) into line and point *s past its leading
 * blanks; returns where the next line starts. Both show parsers read line by line. */
static const char *ovs_next_line(const char *p, char *line, size_t cap, char **s)
{
	const char *nl = strchr(p, '\n');
	size_t n = nl ? (size_t)(nl - p) : strlen(p);
	size_t c = n < cap - 1 ? n : cap - 1;

	memcpy(line, p, c);
	line[c] = '\0';
	*s = line;
	while (**s == ' ')
		(*s)++;
	return p + n + (nl ? 1 : 0);
}

int host_ovs_parse_perf(const char *text, struct host_ovs_perf *out)
{
	char line[512];
	const char *p = text;
	bool seen_header = false;
	struct host_pmd_perf *cur = NULL;
	double duration = -1; /* the last "Measurement duration": OVS writes one per PMD block */

	memset(out, 0, sizeof(*out));
	while (*p) {
		char *s;
		p = ovs_next_line(p, line, sizeof(line), &s);
		uint64_t v;
		double pc;
		int numa, core;
		if (strncmp(s, "Measurement duration:", 21) == 0) {
			out->duration_s = duration = strtod(s + 21, NULL);
			seen_header = true;
		} else if (sscanf(s, "pmd thread numa_id %d core_id %d:", &numa, &core) == 2) {
			cur = NULL;
			if (out->npmds < HOST_OVS_MAX_PMDS) {
				cur = &out->pmd[out->npmds++];
				cur->numa_id = numa;
				cur->core_id = core;
				cur->duration_s = duration;
			}
			seen_header = true;
		} else if (strncmp(s, "main thread:", 12) == 0) {
			cur = NULL; /* 4.0's main thread block: not a PMD */
		} else if (!cur) {
			continue;
		} else if (ovs_line_num(s, "Iterations:", &v, &pc)) {
			cur->iterations = v;
			cur->us_per_it = pc;
		} else if (ovs_line_num(s, "- Used TSC cycles:", &v, &pc)) {
			cur->used_cycles = v;
			cur->used_pct = pc;
		} else if (ovs_line_num(s, "- idle iterations:", &v, &pc)) {
			cur->idle_iter = v;
			cur->idle_pct = pc;
		} else if (ovs_line_num(s, "- busy iterations:", &v, &pc)) {
			cur->busy_iter = v;
			cur->busy_pct = pc;
		} else if (ovs_line_num(s, "- sleep iterations:", &v, &pc)) {
			cur->sleep_iter = v;
			cur->sleep_iter_pct = pc;
			cur->has_sleep = true;
		} else if (ovs_line_num(s, "Sleep time (us):", &v, NULL)) {
			cur->sleep_us = (double)v;
			cur->has_sleep = true;
		} else if (ovs_line_num(s, "Rx packets:", &v, NULL)) {
			cur->rx_packets = v;
		} else if (ovs_line_num(s, "Tx packets:", &v, NULL)) {
			cur->tx_packets = v;
		}
	}
	return seen_header ? 0 : -1;
}

int host_ovs_parse_sleep(const char *text, struct host_ovs_sleep *out)
{
	char line[256];
	const char *p = text;
	int numa = -1, core = -1;

	memset(out, 0, sizeof(*out));
	out->default_us = -1;
	while (*p) {
		char *s;
		p = ovs_next_line(p, line, sizeof(line), &s);
		int v;
		if (sscanf(s, "Default max sleep: %d us", &v) == 1) {
			out->default_us = v;
		} else if (sscanf(s, "pmd thread numa_id %d core_id %d:", &numa, &core) == 2) {
			continue;
		} else if (sscanf(s, "max sleep: %d us", &v) == 1 && core >= 0 &&
			   out->npmds < HOST_OVS_MAX_PMDS) {
			out->pmd[out->npmds].numa_id = numa;
			out->pmd[out->npmds].core_id = core;
			out->pmd[out->npmds].max_us = v;
			out->npmds++;
			core = -1;
		}
	}
	return out->default_us >= 0 || out->npmds > 0 ? 0 : -1;
}
