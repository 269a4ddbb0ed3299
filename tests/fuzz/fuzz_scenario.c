/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_scenario.c: bounded random-input loop over the scenario parser and knob assignment.
 * Run in `make check` (ASan/UBSan in `make asan`): any crash, leak or UB fails it. The seed
 * is fixed so a failure reproduces; FUZZ_ITERS and FUZZ_SEED override. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fuzz_rng.h"

#include "engine/engine.h"
#include "core/scenario.h"

/* Pieces that reach deep into the parser, mixed with random bytes. */
static const char *const atoms[] = {
    "pmd.maxsleep_us",
    "cpu.governor",
    "est.count",
    "gen.pattern",
    "blk.rq_affinity",
    "pmd.rxq_size",
    "est.tick_chains",
    "scenario",
    "default",
    "idle",
    "=",
    " = ",
    "\n",
    "#",
    "on",
    "off",
    "ondemand",
    "-1",
    "99999999999999999999",
    "0",
    "1024",
    "48",
    "1000",
    "\t",
    "  ",
    "==",
    "x",
    "bursty",
    "pmd-seed",
    "/nonexistent",
    "\r\n",
    "1e3",
};

static struct fuzz_rng rng = {88172645463325252ULL};

static void fuzz_text(char *buf, size_t cap)
{
	size_t n = 0, want = fuzz_rng_next(&rng) % (cap - 1);
	while (n < want) {
		const char *piece;
		char one[2] = {0, 0};
		if (fuzz_rng_next(&rng) % 4 == 0) {
			one[0] = (char)(fuzz_rng_next(&rng) % 255 + 1);
			piece = one;
		} else {
			piece = atoms[fuzz_rng_next(&rng) % (sizeof(atoms) / sizeof(atoms[0]))];
		}
		size_t len = strlen(piece);
		if (n + len >= cap)
			break;
		memcpy(buf + n, piece, len);
		n += len;
	}
	buf[n] = '\0';
}

int main(void)
{
	long iters = getenv("FUZZ_ITERS") ? atol(getenv("FUZZ_ITERS")) : 20000;
	char buf[512], err[512];
	long ok = 0, usage = 0, runtime = 0;

	if (getenv("FUZZ_SEED"))
		rng.s = strtoull(getenv("FUZZ_SEED"), NULL, 10) | 1;
	struct engine *eng = engine_new(); /* not started: parsing and validation only */
	for (long i = 0; i < iters; i++) {
		fuzz_text(buf, sizeof(buf));
		int rc = i % 2 ? scenario_apply_text("fuzz", buf, 0, engine_scenario_assign, eng,
						     err, sizeof(err))
			       : engine_knob_assign(eng, buf, err, sizeof(err));
		if (rc == 0)
			ok++;
		else if (rc == KNOB_ERR_USAGE)
			usage++;
		else if (rc == KNOB_ERR_RUNTIME)
			runtime++;
		else {
			fprintf(stderr, "unexpected status %d for input %s\n", rc, buf);
			return 1;
		}
		/* Every error names something: never an empty message. */
		if (rc != 0 && err[0] == '\0') {
			fprintf(stderr, "empty error message for input %s\n", buf);
			return 1;
		}
		err[0] = '\0';
		/* Knob values always stay within the table's range. */
		for (int k = 0; k < K_COUNT; k++) {
			int64_t v = engine_knob(eng, k);
			if (v < knob_table[k].min || v > knob_table[k].max) {
				fprintf(stderr, "%s out of range (%lld) after input %s\n",
					knob_table[k].name, (long long)v, buf);
				return 1;
			}
		}
	}
	engine_free(eng);
	printf("fuzz_scenario: %ld inputs: %ld accepted, %ld usage errors, %ld refused\n", iters,
	       ok, usage, runtime);
	/* The generator must reach both sides, or it tests nothing. */
	return ok > 0 && usage > 0 ? 0 : 1;
}
