/* SPDX-License-Identifier: GPL-2.0-or-later */
/* history.c: a ring of the last N snapshots as compact JSON lines (about 6 KB each with the
 * default scenario, against 42 KB for a struct snapshot copy), each kept zstd-compressed
 * against a key line (about 0.7 KB), decoded on demand. */
#include "tui/history.h"

#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "backends/replay/snapdec.h"
#include "core/xalloc.h"
#include "tui/snapjson.h"

/* zstd's fastest level: a line is compressed once a refresh on the console's thread. */
#define HISTORY_ZSTD_LEVEL 1
/* Its match table: 2^11 entries. At the level's own size for a small input (2^14) the context
 * took 179 KB, a tenth of the console's heap; at 2^11 it takes 56 KB and a 5.9 KB engine line
 * against its key comes to 562 B instead of 532 (tests/unit/test_history.c checks every line
 * still comes back whole). 600 kept lines cost 18 KB more: far less than the 123 KB saved. */
#define HISTORY_ZSTD_HASH_LOG 11

struct history_key {
	unsigned refs; /* the history's current key and its entries (console thread only) */
	size_t len;
	char data[];
};

static void key_unref(struct history *h, struct history_key *k)
{
	if (k && --k->refs == 0) {
		h->bytes -= k->len;
		free(k);
	}
}

void history_init(struct history *h, size_t cap)
{
	memset(h, 0, sizeof(*h));
	h->cap = cap < 1 ? 1 : cap > UI_HISTORY_MAX_SAMPLES ? UI_HISTORY_MAX_SAMPLES : cap;
	h->ring = xcalloc(h->cap, sizeof(*h->ring));
	h->next_id = 1;
}

static void drop_oldest(struct history *h)
{
	struct history_entry *e = &h->ring[h->head];
	h->bytes -= e->zlen;
	free(e->z);
	free(e->findings);
	key_unref(h, e->key);
	memset(e, 0, sizeof(*e));
	h->head = (h->head + 1) % h->cap;
	h->n--;
}

void history_free(struct history *h)
{
	while (h->n)
		drop_oldest(h);
	key_unref(h, h->key);
	free(h->ring);
	free(h->last);
	ZSTD_freeCCtx(h->cctx);
	memset(h, 0, sizeof(*h));
}

/* The line compressed against the current key (made from it when due): a malloc'd block in
 * *out, its length returned; 0 when zstd failed (no context, an error), and the line is then
 * kept whole, with no key. */
static size_t history_compress(struct history *h, const char *line, size_t len, char **out)
{
	if (!h->key || h->since_key >= UI_HISTORY_KEY_EVERY) {
		key_unref(h, h->key);
		h->key = xmalloc(sizeof(*h->key) + len);
		h->key->refs = 1;
		h->key->len = len;
		memcpy(h->key->data, line, len);
		h->bytes += len;
		h->since_key = 0;
	}
	if (!h->cctx && (h->cctx = ZSTD_createCCtx()) != NULL) {
		ZSTD_CCtx_setParameter(h->cctx, ZSTD_c_compressionLevel, HISTORY_ZSTD_LEVEL);
		ZSTD_CCtx_setParameter(h->cctx, ZSTD_c_hashLog, HISTORY_ZSTD_HASH_LOG);
	}
	if (!h->cctx)
		return 0;
	size_t cap = ZSTD_compressBound(len);
	char *z = xmalloc(cap);
	size_t zlen = ZSTD_isError(ZSTD_CCtx_refPrefix(h->cctx, h->key->data, h->key->len))
			  ? 0
			  : ZSTD_compress2(h->cctx, z, cap, line, len);
	if (!zlen || ZSTD_isError(zlen)) {
		ZSTD_CCtx_reset(h->cctx, ZSTD_reset_session_only);
		free(z);
		return 0;
	}
	char *fit = realloc(z, zlen); /* the bound is well over what zstd wrote */
	*out = fit ? fit : z;
	h->since_key++;
	return zlen;
}

const char *history_push(struct history *h, const struct snapshot *s)
{
	json_t *j = snapjson_build(s);
	char *line = json_dumps(j, JSON_COMPACT | JSON_REAL_PRECISION(12));
	json_decref(j);
	if (!line)
		return NULL;
	size_t len = strlen(line);
	char *z = NULL;
	size_t zlen = history_compress(h, line, len, &z);
	struct history_key *key = zlen ? h->key : NULL;
	if (!zlen) { /* kept whole */
		z = xmalloc(len);
		memcpy(z, line, len);
		zlen = len;
	}
	while (h->n && (h->n == h->cap || h->bytes + zlen > UI_HISTORY_MAX_BYTES))
		drop_oldest(h);
	if (key)
		key->refs++;
	struct history_entry *e = &h->ring[(h->head + h->n) % h->cap];
	*e = (struct history_entry){
	    z, zlen, len, key, h->next_id++, s->wall_ns, NULL, 0, s->diag.evaluated};
	if (s->diag.evaluated && s->diag.n > 0) {
		e->nfindings = s->diag.n;
		e->findings = xcalloc((size_t)s->diag.n, sizeof(*e->findings));
		memcpy(e->findings, s->diag.f, (size_t)s->diag.n * sizeof(*e->findings));
	}
	h->n++;
	h->bytes += zlen;
	free(h->last);
	h->last = line;
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

/* The line of e, whole, into out. */
static bool history_decode(const struct history_entry *e, struct snapshot *out)
{
	char err[128];
	if (!e->key) /* kept whole */
		return snapdec_line(e->z, e->zlen, out, err, sizeof(err)) == SNAPDEC_OK;
	/* A context per call: a freeze or a step through history, not a refresh. */
	ZSTD_DCtx *d = ZSTD_createDCtx();
	char *line = xmalloc(e->len + 1);
	size_t n = d && !ZSTD_isError(ZSTD_DCtx_refPrefix(d, e->key->data, e->key->len))
		       ? ZSTD_decompressDCtx(d, line, e->len, e->z, e->zlen)
		       : 0;
	bool ok = !ZSTD_isError(n) && n == e->len &&
		  snapdec_line(line, e->len, out, err, sizeof(err)) == SNAPDEC_OK;
	ZSTD_freeDCtx(d);
	free(line);
	return ok;
}

bool history_get(const struct history *h, uint64_t id, struct snapshot *out)
{
	const struct history_entry *e = history_find(h, id);
	if (!e || !history_decode(e, out))
		return false;
	out->diag.evaluated = e->diagnosed;
	out->diag.n = e->nfindings;
	out->diag.nchanges = 0;
	if (e->nfindings)
		memcpy(out->diag.f, e->findings, (size_t)e->nfindings * sizeof(*e->findings));
	return true;
}

size_t history_mem_bytes(const struct history *h)
{
	/* malloc's own overhead is left out: a block is its bytes. */
	return h->bytes + (h->last ? strlen(h->last) + 1 : 0) + h->cap * sizeof(*h->ring);
}
