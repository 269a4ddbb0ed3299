/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pmd_sleep.c: the adaptive sleep policy of docs/pmd.md §1.2 steps 3 and 5. */
#include "engine/pmd/pmd_sleep.h"

uint32_t pmd_sleep_max_us(int64_t configured_us)
{
	if (configured_us <= 0)
		return 0;
	if (configured_us > PMD_MAX_SLEEP_US)
		return PMD_MAX_SLEEP_US;
	return (uint32_t)configured_us;
}

void pmd_sleep_note_burst(struct pmd_sleep *s, unsigned n)
{
	/* Per rxq and per burst, not a sum (§1.3): four bursts of 15 keep it. */
	if (n >= PMD_SLEEP_THRESH)
		s->sleep_us = 0;
}

uint32_t pmd_sleep_duration(const struct pmd_sleep *s, uint32_t max_us)
{
	/* A lowered max still sleeps the old, larger value once (§1.3). */
	return max_us != 0 ? s->sleep_us : 0;
}

void pmd_sleep_advance(struct pmd_sleep *s, uint32_t max_us, uint32_t inc_us)
{
	if (max_us == 0) {
		s->sleep_us = 0;
		return;
	}
	if (s->sleep_us < max_us) {
		/* OVS adds the increment unclamped; the first patch (10 us) rounded
		 * max up to a multiple of 10 so it never passed it. With any
		 * pmd.sleep_inc_us we clamp, which is what that rounding achieved. */
		uint32_t next = s->sleep_us + inc_us;
		s->sleep_us = next < max_us ? next : max_us;
	} else {
		s->sleep_us = max_us;
	}
}
