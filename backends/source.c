/* SPDX-License-Identifier: GPL-2.0-or-later */
/* source.c: the table of source kinds and the checks every source shares. */
#include "backends/source.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/xalloc.h"

static const struct source_ops *const source_table[] = {
    &source_engine_ops,
    &source_host_ops,
    &source_replay_ops,
    &source_remote_ops,
};
#define SOURCE_NKINDS (sizeof(source_table) / sizeof(source_table[0]))

const struct source_ops *source_find(const char *kind)
{
	for (size_t i = 0; i < SOURCE_NKINDS; i++)
		if (strcmp(source_table[i]->name, kind) == 0)
			return source_table[i];
	return NULL;
}

const char *source_kinds(void)
{
	static char buf[128];
	size_t off = 0;
	if (!buf[0])
		for (size_t i = 0; i < SOURCE_NKINDS; i++)
			off += (size_t)snprintf(buf + off, sizeof(buf) - off, "%s%s", i ? ", " : "",
						source_table[i]->name);
	return buf;
}

struct source *source_open(const struct source_ops *ops, const struct source_conf *conf, char *err,
			   size_t errlen)
{
	return source_open_rc(ops, conf, NULL, err, errlen);
}

struct source *source_open_rc(const struct source_ops *ops, const struct source_conf *conf, int *rc,
			      char *err, size_t errlen)
{
	static const struct source_conf none;
	struct source *src = xcalloc(1, sizeof(*src));
	src->ops = ops;
	int r = ops->open(src, conf ? conf : &none, err, errlen);
	if (rc)
		*rc = r == KNOB_ERR_USAGE ? r : (r ? -1 : 0);
	if (r != 0) {
		free(src);
		return NULL;
	}
	return src;
}

int source_start(struct source *src, char *err, size_t errlen)
{
	if (src->started)
		return 0;
	src->start_ns = clock_mono_ns();
	int rc = src->ops->start(src, err, errlen);
	if (rc != 0)
		return rc == KNOB_ERR_USAGE ? rc : -1;
	src->started = true;
	return 0;
}

void source_sample(struct source *src, struct snapshot *snap)
{
	src->ops->sample(src, snap);
	snap->diag.evaluated = false; /* only the front end diagnoses (tui/after.c) */
	if (!src->ops->recorded || !snap->backend)
		snap->backend = src->ops->name;
}

int source_fleet_count(struct source *src)
{
	return src->ops->fleet ? src->ops->fleet->count(src) : 0;
}

bool source_fleet_row(struct source *src, int i, struct fleet_row *row)
{
	return src->ops->fleet && src->ops->fleet->row(src, i, row);
}

void source_fleet_select(struct source *src, int i)
{
	if (src->ops->fleet)
		src->ops->fleet->select(src, i);
}

int source_fleet_selected(struct source *src)
{
	return src->ops->fleet ? src->ops->fleet->selected(src) : 0;
}

int source_fleet_set_all(struct source *src, const char *assignment, char *err, size_t errlen)
{
	if (src->ops->fleet)
		return src->ops->fleet->set_all(src, assignment, err, errlen);
	snprintf(err, errlen, "not a fleet of hosts (--remote)");
	return KNOB_ERR_USAGE;
}

bool source_fleet_take_new(struct source *src, int i, const struct snapshot **out)
{
	return src->ops->fleet && src->ops->fleet->take_new(src, i, out);
}

void source_want_runq_all(struct source *src, bool all)
{
	if (src->ops->want_runq_all)
		src->ops->want_runq_all(src, all);
}

double source_pace_s(struct source *src)
{
	return src->ops->pace_s ? src->ops->pace_s(src) : 0;
}

bool source_ready(struct source *src)
{
	return !src->ops->ready || src->ops->ready(src);
}

int source_seek(struct source *src, const char *to, char *msg, size_t len)
{
	if (!src->ops->seek) {
		snprintf(msg, len, "goto: only a recording (--replay) has a time to go to");
		return KNOB_ERR_USAGE;
	}
	return src->ops->seek(src, to, msg, len);
}

uint64_t source_decoded(struct source *src)
{
	return src->ops->decoded ? src->ops->decoded(src) : UINT64_MAX;
}

bool source_paced(const struct source *src)
{
	return src->ops->pace_s != NULL;
}

const char *source_status(struct source *src, char *buf, size_t len)
{
	if (len)
		buf[0] = '\0';
	if (src->ops->status && len)
		src->ops->status(src, buf, len);
	return buf;
}

void source_close(struct source *src)
{
	if (!src)
		return;
	src->ops->close(src);
	free(src);
}

const char *source_name(const struct source *src)
{
	return src->ops->name;
}

const char *source_knob_refusal(const struct source *src, enum knob_id id)
{
	return src->ops->knob_refusal ? src->ops->knob_refusal(src, id) : NULL;
}

int source_knob_set(struct source *src, enum knob_id id, int64_t v, int64_t *stored, char *err,
		    size_t errlen)
{
	const struct knob_def *d = &knob_table[id];
	const char *why = source_knob_refusal(src, id);
	int64_t dummy;

	if (why) {
		snprintf(err, errlen, "%s: %s", d->name, why);
		return KNOB_ERR_USAGE;
	}
	if (d->start_only && src->started) {
		/* Said the same way from the ':' prompt and the agent: what to do, with
		 * the value asked for. */
		char val[64];
		snprintf(err, errlen,
			 "%s can only be set at start: restart tunetop with --set %s=%s", d->name,
			 d->name, knob_format(id, v, val, sizeof(val)));
		return KNOB_ERR_RUNTIME;
	}
	return src->ops->knob_set(src, id, v, stored ? stored : &dummy, err, errlen);
}

int source_knob_request(struct source *src, enum knob_id id, int64_t v,
			struct source_knob_result *r)
{
	*r = (struct source_knob_result){.knob = id, .requested = v};
	/* The value kept on an error, unless the source says otherwise. */
	r->stored = source_knob(src, id);
	r->rc = source_knob_set(src, id, v, &r->stored, r->err, sizeof(r->err));
	return r->rc == 0 && src->ops->async_knobs ? 1 : 0;
}

bool source_knob_result(struct source *src, struct source_knob_result *out)
{
	return src->ops->knob_result && src->ops->knob_result(src, out);
}

int source_knob_set_text(struct source *src, enum knob_id id, const char *text, char *err,
			 size_t errlen)
{
	int64_t v;
	int rc = knob_parse(id, text, &v, err, errlen);
	return rc ? rc : source_knob_set(src, id, v, NULL, err, errlen);
}

int source_knob_assign(struct source *src, const char *assignment, char *err, size_t errlen)
{
	enum knob_id id;
	int64_t v;
	int rc = knob_parse_assignment(assignment, &id, &v, err, errlen);
	return rc ? rc : source_knob_set(src, id, v, NULL, err, errlen);
}

int source_scenario_assign(void *ctx, const char *assignment, char *err, size_t errlen)
{
	return source_knob_assign(ctx, assignment, err, errlen);
}

int source_knob_get(struct source *src, enum knob_id id, int64_t *out)
{
	return src->ops->knob_get(src, id, out);
}

int64_t source_knob(struct source *src, enum knob_id id)
{
	int64_t v;
	return src->ops->knob_get(src, id, &v) == 0 ? v : knob_table[id].def;
}

bool source_note(struct source *src, char *buf, size_t len, bool *err)
{
	*err = false;
	return src->ops->note && src->ops->note(src, buf, len, err);
}
