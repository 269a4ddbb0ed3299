/* SPDX-License-Identifier: GPL-2.0-or-later */
/* engine_int.h: what engine.c, engine_cpu.c and watchdog.c call of each other. */
#ifndef TT_ENGINE_INT_H
#define TT_ENGINE_INT_H

#include <stddef.h>

struct engine;
struct ethread;

/* engine_cpu.c: the emulated CPUs, built at engine_start() and freed at engine_stop(). */
int engine_cpu_build(struct engine *eng, char *err, size_t errlen);
void engine_cpu_free(struct engine *eng);
/* The "cpu-gov" thread: engine_governor_step() once a period. */
void engine_gov_thread(struct ethread *self);

/* watchdog.c: the "watchdog" thread: engine_watchdog_check() once a period. */
void engine_wd_thread(struct ethread *self);

#endif
