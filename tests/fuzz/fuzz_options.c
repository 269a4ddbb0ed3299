/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_options.c: bounded random argv into the command-line parser: status 0 or 2, never
 * a crash, and a message for every usage error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fuzz_rng.h"

#include "tui/options.h"

static const char *const words[] = {
    "-d",
    "-n",
    "-b",
    "-h",
    "-V",
    "--delay",
    "--iterations",
    "--batch",
    "--set",
    "--scenario",
    "--backend",
    "--host",
    "--theme",
    "--no-color",
    "--ascii",
    "--mouse",
    "--list-knobs",
    "--list-themes",
    "--list-scenarios",
    "--help",
    "--version",
    "0",
    "0.05",
    "3600",
    "3601",
    "-1",
    "abc",
    "1e9",
    "nan",
    "inf",
    "1",
    "engine",
    "host",
    "moon",
    "pmd.maxsleep_us=5",
    "--delay=2",
    "--set=x",
    "-",
    "--",
    "-dn",
    "-bn3",
    "",
    "experiment",
    "--frob",
    "-z",
    "--list-options",
    "--replay",
    "--write",
    "--agent",
    "--serve",
    "--record",
    "--remote",
    "-o",
    "--format",
    "prometheus",
    "--from",
    "--to",
    "1e30",
    "2026-13-45T99:99:99Z",
    "1970-01-01T00:00:00Z",
};

static struct fuzz_rng rng = {0x9E3779B97F4A7C15ULL};

int main(void)
{
	long iters = getenv("FUZZ_ITERS") ? atol(getenv("FUZZ_ITERS")) : 20000;
	long good = 0, bad = 0;
	char err[512];

	for (long i = 0; i < iters; i++) {
		char *argv[12];
		int argc = 1 + (int)(fuzz_rng_next(&rng) % 10);
		argv[0] = (char *)"tunetop";
		for (int a = 1; a < argc; a++)
			argv[a] =
			    (char *)words[fuzz_rng_next(&rng) % (sizeof(words) / sizeof(words[0]))];
		argv[argc] = NULL;
		struct options o;
		err[0] = '\0';
		int rc = options_parse(&o, argc, argv, err, sizeof(err));
		if (rc == 0) {
			good++;
			if (o.delay_s < OPT_DELAY_MIN || o.delay_s > OPT_DELAY_MAX ||
			    o.iterations < 0) {
				fprintf(stderr, "accepted out-of-range values\n");
				return 1;
			}
			/* Options that do not go together are never accepted (one silently
			 * ignored). */
			if ((o.replay && (o.host_flag || o.write || o.scenario || o.nremotes)) ||
			    (o.agent && (o.serve || o.record || o.batch || o.nremotes)) ||
			    (o.batch && o.nremotes && (o.serve || o.format != OPT_FORMAT_JSON))) {
				fprintf(stderr, "accepted options that do not go together\n");
				return 1;
			}
		} else if (rc == 2 && err[0]) {
			bad++;
		} else {
			fprintf(stderr, "status %d, message '%s'\n", rc, err);
			return 1;
		}
		options_free(&o);
	}
	printf("fuzz_options: %ld argv: %ld accepted, %ld usage errors\n", iters, good, bad);
	return good > 0 && bad > 0 ? 0 : 1;
}
