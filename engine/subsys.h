/* subsys.h: the subsystems of the engine and the interface each one implements. */
#ifndef TT_SUBSYS_H
#define TT_SUBSYS_H

#include <stddef.h>
#include <stdint.h>

struct engine;
struct snapshot;

/* Who a thread or knob belongs to; the JSON "subsystem" strings are subsys_name(). */
enum subsys {
	SUBSYS_ENGINE, /* engine's own threads: governor model, watchdog, test load */
	SUBSYS_EST,    /* estimator chains (spec/estimator.md) */
	SUBSYS_PMD,    /* PMD forwarding and traffic sources (spec/pmd-sleep.md) */
	SUBSYS_BLK,    /* IO completion steering (spec/io-steering.md) */
	SUBSYS_CPU,    /* knobs of the emulated CPUs and governors (no threads of its own) */
	SUBSYS_COUNT
};

const char *subsys_name(enum subsys s);

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
};

extern const struct subsys_ops est_ops;
extern const struct subsys_ops pmd_ops;
extern const struct subsys_ops blk_ops;
extern const struct subsys_ops load_ops;

#endif
