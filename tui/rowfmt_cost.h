/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rowfmt_cost.h: the pmd figures of cost on screen: host took against the target, CPU ns per
 * packet and CPU share of the time left (core/pmd_cost.c computes them). */
#ifndef TT_ROWFMT_COST_H
#define TT_ROWFMT_COST_H

#include <stddef.h>

#include "core/snap_pmd.h"

/* "offered 322.1k of 600.0k: host took 40%" (no target: "host took 40%") when the host took
 * enough of the PMDs' time to matter; NULL when it did not (the screens stay quiet). */
const char *rowfmt_host_took(const struct pmd_snap *p, char *buf, size_t len);
/* The same as the header's summary line says it: "offered 322k/600k: host took 40%". */
const char *rowfmt_host_took_short(const struct pmd_snap *p, char *buf, size_t len);
/* The traffic's part lost to the host ("lost to the host 2.86M/s (95%)"), beside drop %, the
 * knobs' part (docs/pmd.md "What the host took"); NULL when none or unknown (a live OVS). */
const char *rowfmt_host_lost(const struct pmd_snap *p, char *buf, size_t len);
/* The cost line, "cost: ns/pkt 928/704 all 1253  cpu-left% 43.9/38.5 all 41.5  host took
 * 55%/63%", given as its three groups one by one (part 0, 1, 2, joined by two spaces) so a
 * screen shows each whole or not at all; NULL past the last. Up to four PMDs and the PMDs
 * together, "-" where there is no figure; a share clamped at 100 shows "100". */
#define ROWFMT_COST_PARTS 3
const char *rowfmt_pmd_cost_part(const struct pmd_snap *p, int part, char *buf, size_t len);

#endif
