/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host_ovsparse.h: pure parsers for Open vSwitch's unixctl (JSON-RPC 1.0) and its PMD reports. */
#ifndef TT_HOST_OVSPARSE_H
#define TT_HOST_OVSPARSE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* PMD threads one report can describe (docs/pmd.md §2.2; a 2-core host has 1 or 2). */
#define HOST_OVS_MAX_PMDS 64

/*
 * A JSON-RPC 1.0 request (docs/pmd.md §6): params are strings only, id a
 * non-null integer. Returns a malloc'd compact JSON text (no framing needed).
 */
char *host_ovs_request(const char *method, const char *const *params, int nparams, long long id);

/*
 * One reply at the start of buf[0..len). Returns:
 *   1  a complete reply: *consumed bytes used; *result is the malloc'd "result"
 *      text (NULL when the server sent "error": the text is in err), *is_error set;
 *   0  incomplete: read more and call again;
 *  -1  malformed (not an object, wrong id, result not a string): message in err.
 */
int host_ovs_parse_reply(const char *buf, size_t len, long long id, char **result, bool *is_error,
			 size_t *consumed, char *err, size_t errlen);

/* The same for any "result" (ovsdb's are arrays): *result is a new reference; 2 when
 * the message is the server's own request (ovsdb's "echo"): skip *consumed bytes. */

int host_ovs_parse_reply_json(const char *buf, size_t len, long long id, json_t **result,
			      bool *is_error, size_t *consumed, char *err, size_t errlen);

/* One PMD block of `dpif-netdev/pmd-perf-show` (docs/pmd.md §2.2, docs/pmd.md §10). */
struct host_pmd_perf {
	int numa_id, core_id;
	uint64_t iterations;
	double us_per_it;
	uint64_t used_cycles;
	double used_pct; /* of total cycles (excludes sleep) */
	uint64_t idle_iter, busy_iter;
	double idle_pct, busy_pct; /* of used cycles */
	bool has_sleep; /* the sleep lines exist (3.1+) */
	uint64_t sleep_iter;
	double sleep_iter_pct; /* of iterations */
	double sleep_us; /* total slept */
	uint64_t rx_packets, tx_packets;
	/* "Measurement duration" of this PMD's block: OVS's own clock (time_msec(), 1 ms steps)
	 * since its counters were cleared, taken when the block was written. The difference of
	 * two reads is the interval the counters' deltas were counted in; -1 when absent. */
	double duration_s;
};

struct host_ovs_perf {
	double duration_s; /* "Measurement duration" (since the last pmd-stats-clear) */
	int npmds;
	struct host_pmd_perf pmd[HOST_OVS_MAX_PMDS];
};

/* Parse pmd-perf-show text; 0 (npmds may be 0: no PMD yet), or -1 when it is not that report. */
int host_ovs_parse_perf(const char *text, struct host_ovs_perf *out);

/* pmd-sleep-show (3.2: default only; 3.3+: per PMD). */
struct host_ovs_sleep {
	int default_us; /* -1 when the line is missing */
	int npmds;
	struct {
		int numa_id, core_id, max_us;
	} pmd[HOST_OVS_MAX_PMDS];
};
int host_ovs_parse_sleep(const char *text, struct host_ovs_sleep *out); /* 0 or -1 */

#endif
