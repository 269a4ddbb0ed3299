/* SPDX-License-Identifier: GPL-2.0-or-later */
/* subsys.c: subsystem names as the JSON and the screen spell them. */
#include "core/subsys.h"

static const char *const subsys_names[SUBSYS_COUNT] = {
    [SUBSYS_ENGINE] = "engine", [SUBSYS_EST] = "est", [SUBSYS_PMD] = "pmd",
    [SUBSYS_BLK] = "blk",	[SUBSYS_CPU] = "cpu",
};

const char *subsys_name(enum subsys s)
{
	return (unsigned)s < SUBSYS_COUNT ? subsys_names[s] : "?";
}
