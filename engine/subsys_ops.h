/* subsys_ops.h: the interface each engine subsystem (est, pmd, blk, load) implements. */
#ifndef TT_SUBSYS_OPS_H
#define TT_SUBSYS_OPS_H

#include <stddef.h>
#include <stdint.h>

#include "core/subsys.h"

struct engine;
struct snapshot;

/*
 * One running mechanism. start() is called on the control thread when the
 * subsystem's enable knob is on at engine start or is switched on live; stop()
 * joins every thread it started and frees its state; sample() fills the
 * subsystem's snapshot section with deltas since its previous sample() (it
 * keeps its own previous counter values, read only by the control thread).
 */
struct subsys_ops {
	const char *name;
	enum subsys id;
	int (*start)(struct engine *eng, char *err, size_t errlen);
	void (*stop)(struct engine *eng);
	void (*sample)(struct engine *eng, struct snapshot *snap, uint64_t now_ns);
	/* Optional: pause the subsystem, check its conservation equation exactly
	 * (*missing = work counted in but neither out nor found where it waits),
	 * log an `invariant` event when it is not 0, resume. 0, or -1 with err. */
	int (*check)(struct engine *eng, int64_t *missing, char *err, size_t errlen);
};

extern const struct subsys_ops est_ops;
extern const struct subsys_ops pmd_ops;
extern const struct subsys_ops blk_ops;
extern const struct subsys_ops load_ops;

#endif
