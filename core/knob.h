/* SPDX-License-Identifier: GPL-2.0-or-later */
/* knob.h: the one declarative table of knobs (as tmux's options table). */
#ifndef TT_KNOB_H
#define TT_KNOB_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/subsys.h"

enum knob_type {
	KNOB_INT, /* integer in [min, max] (a multiple of step from min when step > 1) */
	KNOB_ENUM, /* one of choices[]; stored as the index */
	KNOB_BOOL, /* off/on (also 0/1, false/true, no/yes) */
	KNOB_ACTION, /* setting it does something once (any value); reads back 0 */
};

/* Every knob, in table order. Add a knob by adding an id here and a row in knob_table.c. */
enum knob_id {
	K_CPU_GOVERNOR,
	K_CPU_COUNT,
	K_CPU_NODES,
	K_CPU_LLC_CPUS,
	K_ENGINE_WATCHDOG_MS,
	K_LOAD_SPIN_THREADS,
	K_LOAD_SLEEP_THREADS,

	K_EST_ENABLED,
	K_EST_COUNT,
	K_EST_CPUS,
	K_EST_CACHE_FACTOR,
	K_EST_TICK_CHAINS,
	K_EST_CPULIST_CPUS,
	K_EST_TRAFFIC_PPS,
	K_EST_RUN,
	K_EST_RECALIBRATE,
	K_EST_CHAIN_MAX,

	K_PMD_ENABLED,
	K_PMD_COUNT,
	K_PMD_MAXSLEEP_US,
	K_PMD_SLEEP_INC_US,
	K_PMD_TIMER_SLACK_NS,
	K_PMD_RXQ_SIZE,
	K_PMD_TXQ_SIZE,
	K_PMD_RXQS,
	K_PMD_TOPOLOGY,
	K_GEN_RATE_PPS,
	K_GEN_PATTERN,
	K_GEN_BURST,
	K_PMD_FAULT_LEAK,

	K_BLK_ENABLED,
	K_BLK_RQ_AFFINITY,
	K_BLK_SUBMITTERS,
	K_BLK_IODEPTH,
	K_BLK_NR_HW_QUEUES,
	K_BLK_IRQ_CPU,
	K_BLK_SERVICE_US,
	K_BLK_SERVICE_JITTER_US,
	K_BLK_FAULT_LOST_KICK,
	K_BLK_THREADIRQS,
	K_BLK_POLLED,
	K_BLK_FAULT_LEAK,
	K_BLK_IPI_COST_NS,

	/* host backend (backends/host*.c) */
	K_HOST_PID,

	/* the eBPF sleep probe (backends/host/host_bpf.c): engine and host sources */
	K_PMD_SLEEP_PROBE,

	K_COUNT
};

struct knob_def {
	const char *name; /* dotted: "pmd.maxsleep_us" */
	enum knob_type type;
	const char *unit; /* "us", "ns", "pps", "" ... */
	int64_t min, max, step, def; /* INT range; ENUM/BOOL: index range and default index */
	const char *const *choices; /* ENUM: NULL-terminated names */
	const int64_t *allowed; /* INT: when non-NULL, only these values (-1 terminated) */
	bool pow2; /* INT: must be a power of two */
	int64_t effect_max; /* INT: the highest value that does something, the top of the range
			       shown; values above it, up to max, are accepted (as the kernel's
			       file does) and change nothing (0: max) */
	bool start_only; /* refused once the engine runs (topology) */
	enum subsys owner;
	const char *help; /* one line for --list-knobs and the help screen */
};

extern const struct knob_def knob_table[K_COUNT];

/* Knob values of one engine: written only by the control thread (single
 * writer), read by any thread with relaxed loads (each value stands alone). */
struct knob_values {
	_Atomic int64_t v[K_COUNT];
};

void knob_values_init(struct knob_values *kv); /* every knob at its default */

static inline int64_t knob_value(const struct knob_values *kv, enum knob_id id)
{
	return atomic_load_explicit(&kv->v[id], memory_order_relaxed);
}

/* Error classes of knob_set*(): usage errors exit 2 from the command line. */
#define KNOB_ERR_USAGE (-2) /* unknown knob or invalid value */
#define KNOB_ERR_RUNTIME (-1) /* valid but refused now (needs root, start-only) */

int knob_find(const char *name); /* id, or -1 */
/* The longest value text accepted (bytes): longer ones are refused, never cut. */
#define KNOB_VALUE_MAX 64
/* Parse text into a value for knob id (no side effects); message names the valid range. */
int knob_parse(enum knob_id id, const char *text, int64_t *out, char *err, size_t errlen);
/* s without its leading blanks and tabs and its trailing ones and line ends (cut in place). */
char *knob_trim(char *s);
/* "name=value" (also "name = value"): the knob and its parsed value. */
int knob_parse_assignment(const char *assignment, enum knob_id *id, int64_t *out, char *err,
			  size_t errlen);
/* Format a value ("500", "ondemand", "on") into buf. */
const char *knob_format(enum knob_id id, int64_t v, char *buf, size_t len);
/* "0 to 10000 us", "performance|powersave|ondemand|schedutil", "1 or 48" */
const char *knob_range_text(enum knob_id id, char *buf, size_t len);

#endif
