/* SPDX-License-Identifier: GPL-2.0-or-later */
/* subsys_ops.h: the interface each engine subsystem (est, pmd, blk, load, cpu) implements. */
#ifndef TT_SUBSYS_OPS_H
#define TT_SUBSYS_OPS_H

#include <stddef.h>
#include <stdint.h>

#include "core/knob.h"
#include "core/subsys.h"

struct engine;
struct snapshot;

/*
 * One running mechanism, or one owner of knobs (enum subsys; a knob's owner is
 * its knob_def.owner). start() is called on the control thread when the
 * subsystem's enable knob is on at engine start or is switched on live; stop()
 * joins every thread it started and frees its state; sample() fills the
 * subsystem's snapshot section with deltas since its previous sample() (it
 * keeps its own previous counter values, read only by the control thread).
 * start, stop and sample are NULL together for an owner without threads (cpu:
 * the engine builds the emulated CPUs itself, before any thread runs).
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
	/*
	 * Optional: put a new value of one of the knobs this subsystem owns in force
	 * (the engine starts and stops a subsystem on its enable knob itself). It
	 * runs on the control thread after the requested value is stored (so it
	 * reads it with engine_knob()), and only while the engine runs, whether or
	 * not this subsystem does. *val holds the requested value; knob_apply sets it
	 * to the value really in force (a sysfs-like store that ignores 3 and up
	 * leaves the old one). The engine stores *val: the one value every reader
	 * sees. Returns 0, or -1 with a message in err, after which the old value is
	 * stored back. Knobs it leaves alone are re-read by the threads on their own.
	 */
	int (*knob_apply)(struct engine *eng, enum knob_id id, int64_t old, int64_t *val, char *err,
			  size_t errlen);
};

extern const struct subsys_ops est_ops;
extern const struct subsys_ops pmd_ops;
extern const struct subsys_ops blk_ops;
extern const struct subsys_ops load_ops; /* SUBSYS_ENGINE: the reference load */
extern const struct subsys_ops cpu_ops; /* SUBSYS_CPU: the governor knob (engine_cpu.c) */

#endif
