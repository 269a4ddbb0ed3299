/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host_ovsstats.h: pure parsers for pmd-stats-show, pmd-rxq-show and the max-sleep value lists. */
#ifndef TT_HOST_OVSSTATS_H
#define TT_HOST_OVSSTATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backends/host/ovs/host_ovsparse.h"

#define HOST_OVS_MAX_RXQS 64

/* One PMD block of `dpif-netdev/pmd-stats-show` (totals since start or the last clear). */
struct host_pmd_stats {
	int numa_id, core_id;
	uint64_t packets, recirc, phwol_hits, mfex_hits, simple_hits, emc_hits, smc_hits,
	    megaflow_hits, upcalls, lost_upcalls;
	uint64_t idle_cycles, proc_cycles;
	bool has_cycles; /* both cycle lines were there */
	bool has_phwol; /* "phwol hits" was printed (not every release does) */
};
struct host_ovs_stats {
	int npmds;
	struct host_pmd_stats pmd[HOST_OVS_MAX_PMDS];
};
/* 0 (npmds may be 0), or -1 when the text is not that report. The "main thread" block is skipped.
 */
int host_ovs_parse_stats(const char *text, struct host_ovs_stats *out);

/* `dpif-netdev/pmd-rxq-show`: which PMD polls which rx queue, and how much of it. */
struct host_ovs_rxq {
	int core_id;
	char port[32];
	int queue;
	bool enabled;
	int usage_pct; /* -1: "NOT AVAIL" */
};
struct host_ovs_rxqs {
	int npmds;
	struct {
		int numa_id, core_id;
		bool isolated;
		int overhead_pct; /* -1: "NOT AVAIL" or absent (before 3.0) */
	} pmd[HOST_OVS_MAX_PMDS];
	int nrxqs;
	struct host_ovs_rxq rxq[HOST_OVS_MAX_RXQS];
};
int host_ovs_parse_rxqs(const char *text, struct host_ovs_rxqs *out); /* 0 or -1 */

/*
 * The max sleep OVS applies to a PMD with no entry of its own, from the ovsdb string as the
 * running OVS parses it (docs/pmd.md "Configuration"). list false: 3.1's pmd-maxsleep, one
 * unsigned decimal for the whole string (OVS's smap_get_ullong: "-1" wraps to the largest
 * value, anything else that is not a number gives the default 0). list true: 3.3's
 * pmd-sleep-max, entries split by commas or blanks, "core:us" or "core=us" per PMD, an entry
 * that does not parse skipped, a later one replacing an earlier. Either way min(v, 10000);
 * NULL (no key) gives 0.
 */
int host_ovs_maxsleep_applied(const char *val, bool list);
/* old with its default replaced by us and every per-PMD entry kept ("50,8:0" -> "60,8:0");
 * old NULL or "" gives "60". 0, or -1 when it does not fit or old is malformed. */
int host_ovs_maxsleep_replace(const char *old, int us, char *out, size_t outlen);

#endif
