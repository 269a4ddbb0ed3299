/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_lf_text.c: libFuzzer target for the scenario file parser and the knob parser
 * (core/scenario.c, core/knob.c): the bytes as a scenario text whose assignments go through
 * knob_parse_assignment, and as a value for every knob. No engine: pure parsing. Without
 * libFuzzer it replays tests/fuzz/corpus/text/. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/knob.h"
#include "core/scenario.h"

static int lf_assign(void *ctx, const char *assignment, char *err, size_t errlen)
{
	enum knob_id id;
	int64_t v;
	(void)ctx;
	int rc = knob_parse_assignment(assignment, &id, &v, err, errlen);
	if (rc == 0 && knob_table[id].type == KNOB_INT &&
	    (v < knob_table[id].min || v > knob_table[id].max))
		abort(); /* a parsed value is always in range */
	if (strlen(err) >= errlen)
		abort();
	return rc == 0 ? 0 : rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512];
	char *text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0'; /* a NUL inside ends the text early, as the file reader refuses it */
	int rc = scenario_apply_text("fuzz", text, 0, lf_assign, NULL, err, sizeof(err));
	if (rc != 0 && rc != KNOB_ERR_USAGE && rc != KNOB_ERR_RUNTIME)
		abort();
	if (size <= 128) {
		for (int k = 0; k < K_COUNT; k++) {
			int64_t v;
			if (knob_parse(k, text, &v, err, sizeof(err)) == 0 &&
			    knob_table[k].type != KNOB_ACTION &&
			    (v < knob_table[k].min || v > knob_table[k].max))
				abort();
		}
	}
	free(text);
	return 0;
}

#include "fuzz/lf_replay.h"
#ifndef TT_LIBFUZZER
int main(void)
{
	return lf_replay("text");
}
#endif
