/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_lf_rec.c: libFuzzer target for what a recording or a remote agent feeds tunetop: JSON
 * Lines of whole snapshots (backends/replay/snapdec.c) and of {"delta":...} objects applied to the
 * last whole one (backends/remote/jdelta.c), as src_replay.c and src_remote.c read them. `make fuzz`
 * builds it with clang -fsanitize=fuzzer; otherwise it replays tests/fuzz/corpus/rec/. */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/remote/jdelta.h"
#include "backends/replay/snapdec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct snapshot *snap = snapshot_new();
	json_t *base = NULL;
	char err[256];
	const char *p = (const char *)data, *end = p + size;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		/* A recording's line, on its own. */
		int rc = snapdec_line(p, len, snap, err, sizeof(err));
		if (rc != SNAPDEC_OK && rc != SNAPDEC_GARBAGE && rc != SNAPDEC_SCHEMA_OTHER)
			abort();
		if (snap->nthreads > 0 && !snap->threads)
			abort();
		/* The agent's stream: a whole object, or a delta onto the last one. */
		json_t *o = json_loadb(p, len, JSON_DISABLE_EOF_CHECK, NULL);
		json_t *d = o ? json_object_get(o, "delta") : NULL;
		if (d && base) {
			if (jdelta_apply(base, d) == 0)
				snapdec_from_json(base, snap, err, sizeof(err));
			json_decref(o);
		} else if (o && json_is_object(o) && !d) {
			json_decref(base);
			base = o;
		} else {
			json_decref(o);
		}
		p += len + (nl ? 1 : 0);
	}
	json_decref(base);
	snapshot_free(snap);
	return 0;
}

#include "fuzz/lf_replay.h"
#ifndef TT_LIBFUZZER
int main(void)
{
	return lf_replay("rec");
}
#endif
