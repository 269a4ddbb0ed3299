/* SPDX-License-Identifier: GPL-2.0-or-later */
/* history.c: a ring of the last N snapshots as compact JSON lines (about 4.6 KB each
 * with the default scenario, against 42 KB for a struct snapshot copy), decoded on demand. */
#include "tui/history.h"

#include <stdlib.h>
#include <string.h>

#include "backends/snapdec.h"
#include "core/xalloc.h"
#include "tui/snapjson.h"

void history_init(struct history *h, size_t cap)
{
	memset(h, 0, sizeof(*h));
	h->cap = cap < 1 ? 1 : cap > UI_HISTORY_MAX_SAMPLES ? UI_HISTORY_MAX_SAMPLES : cap;
	h->ring = xcalloc(h->cap, sizeof(*h->ring));
	h->next_id = 1;
}

void history_free(struct history *h)
{
	for (size_t i = 0; i < h->n; i++)
		free(h->ring[(h->head + i) % h->cap].json);
	free(h->ring);
	memset(h, 0, sizeof(*h));
}

static void drop_oldest(struct history *h)
{
	struct history_entry *e = &h->ring[h->head];
	h->bytes -= e->len;
	free(e->json);
	e->json = NULL;
	h->head = (h->head + 1) % h->cap;
	h->n--;
}

const char *history_push(struct history *h, const struct snapshot *s)
{
	json_t *j = snapjson_build(s);
	char *line = json_dumps(j, JSON_COMPACT | JSON_REAL_PRECISION(12));
	json_decref(j);
	if (!line)
		return NULL;
	size_t len = strlen(line);
	while (h->n && (h->n == h->cap || h->bytes + len > UI_HISTORY_MAX_BYTES))
		drop_oldest(h);
	struct history_entry *e = &h->ring[(h->head + h->n) % h->cap];
	*e = (struct history_entry){line, len, h->next_id++, s->wall_ns};
	h->n++;
	h->bytes += len;
	return line;
}

uint64_t history_oldest(const struct history *h)
{
	return h->n ? h->ring[h->head].id : 0;
}

uint64_t history_newest(const struct history *h)
{
	return h->n ? h->ring[(h->head + h->n - 1) % h->cap].id : 0;
}

const struct history_entry *history_find(const struct history *h, uint64_t id)
{
	uint64_t old = history_oldest(h);
	if (!h->n || id < old || id > history_newest(h))
		return NULL;
	/* Ids are consecutive: the entry's place follows from the oldest one's. */
	return &h->ring[(h->head + (size_t)(id - old)) % h->cap];
}

bool history_get(const struct history *h, uint64_t id, struct snapshot *out)
{
	char err[128];
	const struct history_entry *e = history_find(h, id);
	return e && snapdec_line(e->json, e->len, out, err, sizeof(err)) == SNAPDEC_OK;
}

size_t history_mem_bytes(const struct history *h)
{
	/* malloc's own overhead is left out: a line is one block of len + 1 bytes. */
	return h->bytes + h->n + h->cap * sizeof(*h->ring);
}
