/* SPDX-License-Identifier: GPL-2.0-or-later */
/* diag_finding.c: the helpers a rule fills its finding with (evidence, conclusion, fix). A leaf:
 * diag.c reads the rule tables and the rules call only this, so no two files call each other. */
#include <stdarg.h>
#include <stdio.h>

#include "diag/diag_rule.h"

void diag_evidence_add(struct diag_finding *f, double value, const char *unit, const char *fmt, ...)
{
	if (f->nevidence >= DIAG_MAX_EVIDENCE)
		return;
	struct diag_evidence *e = &f->evidence[f->nevidence++];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->figure, sizeof(e->figure), fmt, ap);
	va_end(ap);
	e->value = value;
	e->unit = unit;
}

void diag_conclude(struct diag_finding *f, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(f->conclusion, sizeof(f->conclusion), fmt, ap);
	va_end(ap);
}

void diag_fix(struct diag_finding *f, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(f->fix, sizeof(f->fix), fmt, ap);
	va_end(ap);
}
