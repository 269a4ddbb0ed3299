/* SPDX-License-Identifier: GPL-2.0-or-later */
/* knob.c: parsing, validation and formatting of knob values from the knob table. */
#include "core/knob.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/xalloc.h"

void knob_values_init(struct knob_values *kv)
{
	for (int i = 0; i < K_COUNT; i++)
		atomic_init(&kv->v[i], knob_table[i].def);
}

int knob_find(const char *name)
{
	for (int i = 0; i < K_COUNT; i++)
		if (strcmp(knob_table[i].name, name) == 0)
			return i;
	return -1;
}

const char *knob_range_text(enum knob_id id, char *buf, size_t len)
{
	const struct knob_def *d = &knob_table[id];
	size_t off = 0;

	switch (d->type) {
	case KNOB_ENUM:
		buf[0] = '\0';
		for (int i = 0; d->choices[i]; i++)
			off += (size_t)snprintf(buf + off, off < len ? len - off : 0, "%s%s",
						i ? "|" : "", d->choices[i]);
		break;
	case KNOB_BOOL:
		snprintf(buf, len, "off|on");
		break;
	case KNOB_ACTION:
		snprintf(buf, len, "1 (an action)");
		break;
	case KNOB_INT:
		if (d->allowed) {
			buf[0] = '\0';
			for (int i = 0; d->allowed[i] >= 0; i++)
				off +=
				    (size_t)snprintf(buf + off, off < len ? len - off : 0,
						     "%s%" PRId64, i ? " or " : "", d->allowed[i]);
		} else {
			snprintf(buf, len, "%" PRId64 " to %" PRId64 "%s%s%s", d->min,
				 d->effect_max ? d->effect_max : d->max, d->unit[0] ? " " : "",
				 d->unit, d->pow2 ? ", a power of two" : "");
		}
		break;
	}
	return buf;
}

const char *knob_format(enum knob_id id, int64_t v, char *buf, size_t len)
{
	const struct knob_def *d = &knob_table[id];

	switch (d->type) {
	case KNOB_ENUM:
		snprintf(buf, len, "%s", (v >= d->min && v <= d->max) ? d->choices[v] : "?");
		break;
	case KNOB_BOOL:
		snprintf(buf, len, "%s", v ? "on" : "off");
		break;
	default:
		snprintf(buf, len, "%" PRId64, v);
		break;
	}
	return buf;
}

static int knob_parse_int(const char *text, int64_t *out)
{
	char *end;
	errno = 0;
	long long v = strtoll(text, &end, 10);
	if (errno || end == text || *end != '\0')
		return -1;
	*out = v;
	return 0;
}

/* An enum, bool or action knob's value by name: 0, or KNOB_ERR_USAGE with err filled. */
static int knob_parse_word(const struct knob_def *d, const char *text, const char *range,
			   int64_t *out, char *err, size_t errlen)
{
	switch (d->type) {
	case KNOB_ENUM:
		for (int i = 0; d->choices[i]; i++) {
			if (strcasecmp(text, d->choices[i]) == 0) {
				*out = i;
				return 0;
			}
		}
		break;
	case KNOB_BOOL:
		if (!strcasecmp(text, "on") || !strcmp(text, "1") || !strcasecmp(text, "true") ||
		    !strcasecmp(text, "yes")) {
			*out = 1;
			return 0;
		}
		if (!strcasecmp(text, "off") || !strcmp(text, "0") || !strcasecmp(text, "false") ||
		    !strcasecmp(text, "no")) {
			*out = 0;
			return 0;
		}
		break;
	case KNOB_ACTION:
		/* One form only: "5x" or "off" doing the action would hide a typo. */
		if (strcmp(text, "1") == 0) {
			*out = 1;
			return 0;
		}
		break;
	case KNOB_INT:
		break;
	}
	snprintf(err, errlen, "%s: '%s' is not valid (valid: %s)", d->name, text, range);
	return KNOB_ERR_USAGE;
}

/* A whole number v against the knob's allowed list, range, power of two and step: 0, or
 * KNOB_ERR_USAGE with err filled. */
static int knob_check_int(const struct knob_def *d, int64_t v, const char *range, char *err,
			  size_t errlen)
{
	if (d->allowed) {
		for (int i = 0; d->allowed[i] >= 0; i++)
			if (d->allowed[i] == v)
				return 0;
		snprintf(err, errlen, "%s: %" PRId64 " is not valid (valid: %s)", d->name, v,
			 range);
		return KNOB_ERR_USAGE;
	}
	if (v < d->min || v > d->max) {
		if (d->effect_max)
			snprintf(err, errlen,
				 "%s: %" PRId64 " is out of range (valid: %s; up to %" PRId64
				 " accepted and ignored)",
				 d->name, v, range, d->max);
		else
			snprintf(err, errlen, "%s: %" PRId64 " is out of range (valid: %s)",
				 d->name, v, range);
		return KNOB_ERR_USAGE;
	}
	if (d->pow2 && (v & (v - 1)) != 0) {
		snprintf(err, errlen, "%s: %" PRId64 " is not a power of two (valid: %s)", d->name,
			 v, range);
		return KNOB_ERR_USAGE;
	}
	if (d->step > 1 && (v - d->min) % d->step != 0) {
		snprintf(err, errlen,
			 "%s: %" PRId64 " is not a multiple of %" PRId64 " (valid: %s)", d->name, v,
			 d->step, range);
		return KNOB_ERR_USAGE;
	}
	return 0;
}

int knob_parse(enum knob_id id, const char *text, int64_t *out, char *err, size_t errlen)
{
	const struct knob_def *d = &knob_table[id];
	char range[256];
	int64_t v;

	knob_range_text(id, range, sizeof(range));
	if (strlen(text) > KNOB_VALUE_MAX) {
		/* Never cut a value to fit: "0000...05" must not become 0. */
		snprintf(err, errlen, "%s: value too long (%zu bytes, at most %d; valid: %s)",
			 d->name, strlen(text), KNOB_VALUE_MAX, range);
		return KNOB_ERR_USAGE;
	}
	if (d->type != KNOB_INT)
		return knob_parse_word(d, text, range, out, err, errlen);
	if (knob_parse_int(text, &v) != 0) {
		snprintf(err, errlen, "%s: '%s' is not a whole number (valid: %s)", d->name, text,
			 range);
		return KNOB_ERR_USAGE;
	}
	int rc = knob_check_int(d, v, range, err, errlen);
	if (rc == 0)
		*out = v;
	return rc;
}

char *knob_trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	char *e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

int knob_parse_assignment(const char *assignment, enum knob_id *id, int64_t *out, char *err,
			  size_t errlen)
{
	/* A copy as long as the input: a fixed buffer would cut a long value into a
	 * different, valid one. */
	char *buf = xstrdup(assignment);
	int rc;
	char *eq = strchr(buf, '=');
	if (!eq) {
		snprintf(err, errlen, "'%.80s%s' is not KNOB=VALUE (see --list-knobs)", assignment,
			 strlen(assignment) > 80 ? "..." : "");
		free(buf);
		return KNOB_ERR_USAGE;
	}
	*eq = '\0';
	char *name = knob_trim(buf), *value = knob_trim(eq + 1);
	int k = knob_find(name);
	if (k < 0) {
		snprintf(err, errlen, "unknown knob '%.64s%s' (see --list-knobs)", name,
			 strlen(name) > 64 ? "..." : "");
		free(buf);
		return KNOB_ERR_USAGE;
	}
	if (!*value) {
		char range[256];
		snprintf(err, errlen, "%s: no value given (valid: %s)", name,
			 knob_range_text(k, range, sizeof(range)));
		free(buf);
		return KNOB_ERR_USAGE;
	}
	*id = (enum knob_id)k;
	rc = knob_parse(*id, value, out, err, errlen);
	free(buf);
	return rc;
}
