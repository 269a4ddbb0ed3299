/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_lf_agent.c: libFuzzer target for the agent's command lines (tui/agent.c agent_parse)
 * and the reply built for each: every line is read as some command or an error, and the
 * reply is always a whole JSON object that keeps its error (invalid UTF-8, NUL bytes).
 * `make fuzz` builds it with clang -fsanitize=fuzzer; otherwise it replays
 * tests/fuzz/corpus/agent/ and runs a seeded loop of mutated lines. */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/knob.h"
#include "lib/fuzz_rng.h"
#include "tui/agent.h"

static void check_reply(json_t *o, bool want_error)
{
	char *s = json_dumps(o, JSON_COMPACT);
	if (!o || !s || !json_is_string(json_object_get(o, "reply")))
		abort();
	if (want_error && !json_is_string(json_object_get(o, "error")))
		abort(); /* the reply lost its error */
	json_t *back = json_loads(s, 0, NULL);
	if (!json_equal(back, o))
		abort();
	json_decref(back);
	free(s);
	json_decref(o);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		struct agent_cmd c;
		agent_parse(p, len, &c);
		switch (c.kind) {
		case AGENT_CMD_SET:
			if (c.knob < 0 || c.knob >= K_COUNT || memchr(c.value, '\0', 1))
				abort();
			break;
		case AGENT_CMD_INTERVAL:
			if (!(c.delay_s >= 0.05 && c.delay_s <= 3600))
				abort();
			break;
		case AGENT_CMD_ERROR:
			if (!c.error[0] || !c.cmd)
				abort();
			break;
		default:
			break;
		}
		/* What a set's reply echoes (name, value) may be any bytes: never NULL. */
		check_reply(agent_reply_new(c.cmd ? c.cmd : "error", c.kind != AGENT_CMD_ERROR,
					    c.name, c.value,
					    c.kind == AGENT_CMD_ERROR ? c.error : NULL),
			    c.kind == AGENT_CMD_ERROR);
		p += len + (nl ? 1 : 0);
	}
	return 0;
}

#include "fuzz/lf_replay.h"
#ifndef TT_LIBFUZZER
int main(void)
{
	static const char *const seeds[] = {
	    "set pmd.maxsleep_us 500\n",
	    "set cpu.governor performance\n",
	    "interval 0.5\n",
	    "full\nquit\n",
	    "set cpu.governor \xff\xfe\n",
	};
	struct fuzz_rng rng = {.s = getenv("FUZZ_SEED") ? strtoull(getenv("FUZZ_SEED"), NULL, 0)
							: 0x5eed0a6e17ULL};
	uint8_t buf[256];
	if (!rng.s)
		rng.s = 1;
	for (int i = 0; i < 20000; i++) {
		const char *s = seeds[fuzz_rng_next(&rng) % (sizeof(seeds) / sizeof(seeds[0]))];
		size_t n = strlen(s);
		memcpy(buf, s, n);
		for (unsigned k = fuzz_rng_next(&rng) % 4; k; k--)
			buf[fuzz_rng_next(&rng) % n] = (uint8_t)fuzz_rng_next(&rng);
		LLVMFuzzerTestOneInput(buf, n);
	}
	printf("agent: 20000 seeded mutations, no crash\n");
	return lf_replay("agent");
}
#endif
