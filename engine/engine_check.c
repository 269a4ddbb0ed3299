/* SPDX-License-Identifier: GPL-2.0-or-later */
/* engine_check.c: the exact conservation check of a paused subsystem (subsys_ops.check). */
#include <stdio.h>

#include "engine/engine.h"

int engine_invariant_check(struct engine *eng, enum subsys s, int64_t *missing, char *err,
			   size_t errlen)
{
	const struct subsys_ops *ops = engine_subsys_get(s);

	*missing = 0;
	if (!ops || !ops->check) {
		snprintf(err, errlen, "%s has no invariant check", ops ? ops->name : "subsystem");
		return -1;
	}
	if (!eng->running || !eng->subsys_on[s]) {
		snprintf(err, errlen, "%s is not running", ops->name);
		return -1;
	}
	return ops->check(eng, missing, err, errlen);
}
