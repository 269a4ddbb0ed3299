/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pmd_sleep.h: the PMD load-based sleep policy of OVS (docs/pmd.md §1.2), pure. */
#ifndef TT_PMD_SLEEP_H
#define TT_PMD_SLEEP_H

#include <stdbool.h>
#include <stdint.h>

#include "core/limits.h"
#include "engine/pmd/pmd_pkt.h"

/* §1.1: a burst of at least half a batch from one rxq means "busy": no sleep. */
#define PMD_SLEEP_THRESH (NETDEV_MAX_BURST / 2)
/* §1.1: PMD_SLEEP_INC_US in every release (10 on master for one week). */
#define PMD_SLEEP_INC_US 1
/* §1.1: PMD_RCU_QUIESCE_INTERVAL, which also caps the max sleep. */
/* §1.5: the timer slack each PMD thread sets on itself in OVS 3.1+. */
#define PMD_TIMER_RES_NS 1000

/*
 * The policy's only state: OVS's local `sleep_time` (us). It lives outside the
 * reload label in OVS, so a PMD restart keeps it (§1.3); so does ours.
 * One iteration drives it as:
 *   for each rxq burst of n packets: pmd_sleep_note_burst(s, n)
 *   d = pmd_sleep_duration(s, max); if d: flush forced, nanosleep(d us)
 *   pmd_sleep_advance(s, max, inc)
 * with max = pmd_sleep_max_us(knob) read once per iteration.
 */
struct pmd_sleep {
	uint32_t sleep_us;
};

static inline void pmd_sleep_init(struct pmd_sleep *s)
{
	s->sleep_us = 0;
}

/* The configured max, clamped to [0, PMD_MAX_SLEEP_US] as OVS does. */
uint32_t pmd_sleep_max_us(int64_t configured_us);
/* Step 3: one rxq burst of n packets; n >= PMD_SLEEP_THRESH resets at once. */
void pmd_sleep_note_burst(struct pmd_sleep *s, unsigned n);
/* Step 4/5: the sleep this iteration makes (0: none). Non-zero also means the
 * tx flush before it must be forced. */
uint32_t pmd_sleep_duration(const struct pmd_sleep *s, uint32_t max_us);
/* Step 5 after the sleep: grow by inc_us up to max_us, or clamp to a lowered
 * max; max 0 switches the policy off (sleep_time 0). */
void pmd_sleep_advance(struct pmd_sleep *s, uint32_t max_us, uint32_t inc_us);

#endif
