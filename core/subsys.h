/* SPDX-License-Identifier: GPL-2.0-or-later */
/* subsys.h: who a thread or a knob belongs to (the engine's subsystems, the CPU knobs). */
#ifndef TT_SUBSYS_H
#define TT_SUBSYS_H

/* Who a thread or knob belongs to; the JSON "subsystem" strings are subsys_name(). */
enum subsys {
	SUBSYS_ENGINE, /* engine's own threads: governor model, watchdog, test load */
	SUBSYS_EST, /* estimator chains (docs/est.md) */
	SUBSYS_PMD, /* PMD forwarding and traffic sources (docs/pmd.md) */
	SUBSYS_BLK, /* IO completion steering (docs/blk.md) */
	SUBSYS_CPU, /* knobs of the emulated CPUs and governors (no threads of its own) */
	SUBSYS_COUNT
};

const char *subsys_name(enum subsys s);

#endif
