/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_host_ovs.c: bounded mutated JSON-RPC replies and PMD reports into the OVS parsers.
 * Invariants: a reply is consumed within its bytes; 1 means result xor error. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fuzz_rng.h"

#include "backends/host/ovs/host_ovsparse.h"
#include "backends/host/ovs/host_ovsstats.h"
#include "core/limits.h"

static const char *const replies[] = {
    ("{\"id\":0,\"result\":\"\\nTime: 04:54:52.161\\nMeasurement duration: 11.988 s\\n\\npmd "
     "thread numa_id 0 core_id 1:\\n\\n  Iterations:   5  (0.08 us/it)\\n\",\"error\":null}"),
    "{\"id\":0,\"error\":\"\\\"x\\\" is not a valid command\\n\"}",
    "{\"error\":null,\"result\":\"Default max sleep:   50 us\\n\",\"id\":0}[]{}",
    "{\"id\":0,\"result\":[1,{\"a\":\"}\"}],\"error\":{\"x\":1}}",
};
static const char *const reports[] = {
    "\nTime: 04:54:31.019\nMeasurement duration: 2.008 s\n\npmd thread numa_id 0 core_id 1:\n\n"
    "  Iterations:             25314535  (0.08 us/it)\n"
    "  - Used TSC cycles:    4617217096  (100.0 % of total cycles)\n"
    "  - idle iterations:      25314535  (100.0 % of used cycles)\n"
    "  - busy iterations:             0  (  0.0 % of used cycles)\n"
    "  - sleep iterations:            0  (  0.0 % of iterations)\n"
    "  Sleep time (us):               0  (  0 us/iteration avg.)\n"
    "  Rx packets:                    0\n  Tx packets:                    0\nmain thread:\n",
    "Default max sleep:   50 us\npmd thread numa_id 0 core_id 0:\n  max sleep:  100 us\n",
};
static const char alphabet[] = "{}[]\":,\\u0 1a\nnull-%(";

static struct fuzz_rng rng = {0x9E3779B97F4A7C15ULL};

static size_t mutate(const char *s, char *buf, size_t cap)
{
	size_t n = strlen(s);
	memcpy(buf, s, n);
	for (int m = (int)(fuzz_rng_next(&rng) % 5); m > 0; m--) {
		if (fuzz_rng_next(&rng) % 3 == 0)
			n = n ? fuzz_rng_next(&rng) % n : 0;
		else if (n)
			buf[fuzz_rng_next(&rng) % n] =
			    fuzz_rng_next(&rng) % 4
				? alphabet[fuzz_rng_next(&rng) % (sizeof(alphabet) - 1)]
				: (char)fuzz_rng_next(&rng);
		if (fuzz_rng_next(&rng) % 8 == 0 && n + 300 < cap) { /* deep nesting */
			memmove(buf + 200, buf, n);
			memset(buf, '[', 200);
			n += 200;
		}
	}
	return n;
}

int main(void)
{
	long iters = getenv("FUZZ_ITERS") ? atol(getenv("FUZZ_ITERS")) : 100000;
	char tmp[4096], err[256];
	long ok = 0;
	struct host_ovs_perf *perf = malloc(sizeof(*perf));
	struct host_ovs_sleep *sl = malloc(sizeof(*sl));
	struct host_ovs_stats *st = malloc(sizeof(*st));
	struct host_ovs_rxqs *rq = malloc(sizeof(*rq));

	for (long i = 0; i < iters; i++) {
		size_t n = mutate(replies[fuzz_rng_next(&rng) % 4], tmp, sizeof(tmp));
		char *in = malloc(n ? n : 1);
		memcpy(in, tmp, n);
		char *res;
		bool is_err;
		size_t used;
		int r = host_ovs_parse_reply(in, n, 0, &res, &is_err, &used, err, sizeof(err));
		if (r == 1) {
			if (used > n || (res == NULL) != is_err) {
				fprintf(stderr, "reply: used %zu of %zu, result %p, error %d\n",
					used, n, (void *)res, is_err);
				return 1;
			}
			ok++;
			if (res) {
				host_ovs_parse_perf(res, perf);
				host_ovs_parse_sleep(res, sl);
			}
			free(res);
		} else if (r != 0 && r != -1) {
			return 1;
		}
		free(in);

		n = mutate(reports[fuzz_rng_next(&rng) % 2], tmp, sizeof(tmp) - 1);
		tmp[n] = '\0';
		if (host_ovs_parse_perf(tmp, perf) == 0 &&
		    (perf->npmds < 0 || perf->npmds > HOST_OVS_MAX_PMDS))
			return 1;
		host_ovs_parse_sleep(tmp, sl);
		/* pmd-stats-show, pmd-rxq-show and max-sleep lists on the same text. */
		if (host_ovs_parse_stats(tmp, st) == 0 &&
		    (st->npmds < 0 || st->npmds > HOST_OVS_MAX_PMDS))
			return 1;
		if (host_ovs_parse_rxqs(tmp, rq) == 0 &&
		    (rq->nrxqs < 0 || rq->nrxqs > HOST_OVS_MAX_RXQS))
			return 1;
		char list[64];
		int a = host_ovs_maxsleep_applied(tmp, false),
		    b = host_ovs_maxsleep_applied(tmp, true);
		if (a < 0 || a > PMD_MAX_SLEEP_US || b < 0 || b > PMD_MAX_SLEEP_US)
			return 1; /* what OVS applies is always in its range */
		if (host_ovs_maxsleep_replace(tmp, 7, list, sizeof(list)) == 0 &&
		    host_ovs_maxsleep_applied(list, true) != 7)
			return 1; /* the default written is the default read back */
	}
	free(st);
	free(rq);
	free(perf);
	free(sl);
	printf("fuzz_host_ovs: %ld inputs, %ld complete replies, no crash\n", iters, ok);
	return ok > 0 ? 0 : 1;
}
