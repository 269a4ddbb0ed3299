/* SPDX-License-Identifier: GPL-2.0-or-later */
/* diag_fix.c: a rule's fix checked against the faults it would trigger (docs/diag.md "Fixes
 * that are safe"). */
#include <string.h>

#include "diag/diag_rule.h"

/* A fix that sets knob to a value in [lo, hi] triggers a fault while the fault's knob is on. */
struct diag_hazard {
	enum knob_id knob;
	int64_t lo, hi;
	enum knob_id fault;
	const char *why; /* completes "not offered: <fix>, which ..." */
};

/* The lost kick strands a completion steered by IPI: at rq_affinity 1 and 2 (docs/blk.md). */
static const struct diag_hazard diag_hazards[] = {
    {K_BLK_RQ_AFFINITY, 1, 2, K_BLK_FAULT_LOST_KICK,
     "with the lost-kick fault on strands completions and hangs submitters"},
};

void diag_fix_guard(const struct snapshot *s, struct diag_finding *f)
{
	enum knob_id id;
	int64_t v;
	char err[256];
	if (!f->fix[0] || knob_parse_assignment(f->fix, &id, &v, err, sizeof(err)) != 0)
		return;
	for (size_t i = 0; i < sizeof(diag_hazards) / sizeof(diag_hazards[0]); i++) {
		const struct diag_hazard *h = &diag_hazards[i];
		if (h->knob != id || v < h->lo || v > h->hi || s->knob_absent[h->fault] ||
		    !s->knobs[h->fault])
			continue;
		size_t len = strlen(f->conclusion);
		snprintf(f->conclusion + len, sizeof(f->conclusion) - len,
			 " Not offered: %s, which %s.", f->fix, h->why);
		f->fix[0] = '\0';
		return;
	}
}
