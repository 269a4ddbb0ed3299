/* SPDX-License-Identifier: GPL-2.0-or-later */
/* scenario.c: built-in scenarios and the scenario file parser. */
#include "core/scenario.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/knob.h"
#include "core/textfile.h"
#include "core/xalloc.h"

#define SCENARIO_MAX_DEPTH 4 /* "scenario = X" nesting */
#define SCENARIO_MAX_BYTES (1 << 20)

const struct scenario scenario_table[] = {
    {"default", "all three subsystems at light load, so the console has something to show",
     "est.enabled = on\nest.count = 2000\nest.cpus = 16\n"
     "pmd.enabled = on\npmd.count = 1\ngen.rate_pps = 20000\npmd.maxsleep_us = 500\n"
     "blk.enabled = on\nblk.submitters = 2\nblk.iodepth = 4\nblk.service_us = 500\n"},
    {"idle", "nothing running: the engine's own threads only (a baseline)", ""},
    {"est-only", "estimators only, at the default count (calibration experiments)",
     "est.enabled = on\n"},
    {"est-large", "estimators only, many of them over many emulated CPUs",
     "est.enabled = on\nest.count = 100000\nest.cpus = 128\n"},
    {"est-ipvs",
     "the IPVS estimator thread's own scale: 128 possible CPUs, as many estimators as its table",
     /* The kthread thread measured 128 CPUs: chain_max 22 and a 5.4-5.6 ms tick under
      * performance with 1056 estimators in a row (docs/est.md). Each estimator here
      * sums 128 emulated CPUs' counters, so chain_max and tick time land near that
      * table (chain_max 29 on a 2-vCPU VM); est.count 1056 fills one kthread's first
      * row as the thread's "1056 ests, 1 chains" did. */
     "est.enabled = on\nest.cpus = 128\nest.count = 1056\n"},
    {"pmd-idle", "one PMD, no traffic: the CPU that sleeping saves",
     "pmd.enabled = on\npmd.topology = direct\npmd.count = 1\ngen.rate_pps = 0\n"
     "pmd.maxsleep_us = 500\n"},
    {"pmd-light", "one PMD, low steady load",
     "pmd.enabled = on\npmd.topology = direct\npmd.count = 1\ngen.rate_pps = 10000\n"
     "gen.pattern = constant\n"
     "pmd.maxsleep_us = 500\n"},
    {"pmd-seed",
     "the OVS report's two-PMD chain (txonly -> PMD0 -> mac peer -> PMD1 -> drop) near ring "
     "capacity",
     /* Scaled to a 2-vCPU VM. The report ran 8.2 Mpps through a 256-descriptor
      * virtqueue, which drains in ~31 us: between a 10 us sleep with 1 us slack
      * and a 60 us one with 50 us slack. Here a 1 us nanosleep takes ~16 us with
      * 1 us slack and ~65 us with 50 us slack (measured), so 32 descriptors at
      * 600 kpps (53 us) sit between the two. Slack starts at Linux's 50 us
      * default (the report's condition): set pmd.timer_slack_ns = 1000 for OVS's
      * fix and watch the drops fall and the PMD CPU rise.
      * The sources and the mac peer have no thread: the two PMDs
      * are the only busy threads, one per core, so at maxsleep 0 nothing but
      * the host takes a PMD off its CPU, and time the host takes is not
      * emulated time (pmd_feed.c). Max sleep 50 us is the OVS docs' example;
      * at 600 kpps the 1 us-slack ramp resets (16 packets in one burst) after
      * ~27 us, well inside the ring's 53 us, while every 50 us-slack sleep
      * lasts longer than 53 us. */
     "pmd.enabled = on\npmd.topology = chain\npmd.rxq_size = 32\ngen.rate_pps = 600000\n"
     "gen.pattern = constant\npmd.maxsleep_us = 50\npmd.sleep_inc_us = 1\n"
     "pmd.timer_slack_ns = 50000\n"},
    {"blk-steer",
     "IO submitters on several emulated CPUs and LLCs, one interrupt CPU that is the bottleneck at "
     "rq_affinity 0",
     /* 4 emulated CPUs in 2 LLCs, IRQ on CPU 0: blk-sub:0 on CPU 1 (same LLC),
      * blk-sub:1,2 on CPUs 2,3 (other LLC), blk-sub:3 on CPU 0 (same CPU).
      * The device is fast (1-2 us a request on its one queue, by the clock)
      * so that completion work and not the device bounds IOPS: with
      * rq_affinity 0 the interrupt CPU reads back every 4 KiB request itself,
      * with 1 only its own LLC's, with 2 only its own CPU's. (At 200 us the
      * device capped every setting at ~4k IOPS, at 5-10 us at ~130k, and they
      * all looked alike.) */
     "cpu.count = 4\ncpu.llc_cpus = 2\n"
     "blk.enabled = on\nblk.submitters = 4\nblk.iodepth = 16\nblk.irq_cpu = 0\n"
     "blk.service_us = 1\nblk.service_jitter_us = 1\nblk.rq_affinity = 1\n"},
    {"blk-seed",
     "the 2008 io-affinity tests' shape: a slow device is the bottleneck, the CPUs have headroom",
     /* The 2008 tests ran device-bound: Brunelle's array answered about 12 K IO/s, and
      * run time stayed equal while %sys rose with rq_affinity (docs/blk.md §8). One queue
      * serving 100 us a request caps IOPS at 10 k; 64 requests in flight keep it full
      * through 6.4 ms of a thread's absence, and at blk.ipi_cost_ns = 20000 the interrupt
      * CPU pays at most 10 k x 20 us = 0.2 CPU to send them (docs/blk.md "Emulated IPI
      * cost"), so the cost shows as CPU per completion, not as fewer IOPS. */
     "cpu.count = 4\ncpu.llc_cpus = 2\n"
     "blk.enabled = on\nblk.submitters = 4\nblk.iodepth = 16\nblk.irq_cpu = 0\n"
     "blk.service_us = 100\nblk.service_jitter_us = 0\nblk.rq_affinity = 1\n"},
};
const size_t scenario_count = sizeof(scenario_table) / sizeof(scenario_table[0]);

static const struct scenario *scenario_find(const char *name)
{
	for (size_t i = 0; i < scenario_count; i++)
		if (strcmp(scenario_table[i].name, name) == 0)
			return &scenario_table[i];
	return NULL;
}

static int scenario_names(char *buf, size_t len)
{
	size_t off = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < scenario_count && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? ", " : "",
					scenario_table[i].name);
	return 0;
}

static int scenario_apply_file(const char *path, int depth, scenario_assign_fn assign, void *ctx,
			       char *err, size_t errlen);
static int scenario_apply_in(const char *origin, const char *dir, const char *text, int depth,
			     scenario_assign_fn assign, void *ctx, char *err, size_t errlen);

/* A knob name as the table spells them: anything else is not echoed back, so a
 * file that is not a scenario (/etc/shadow) never has its content printed. */
static bool scenario_looks_like_name(const char *s)
{
	size_t n = strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-");
	return n > 0 && n <= 40 && s[n] == '\0';
}

/*
 * name: a built-in, or a file. A relative path inside a file (dir != NULL) is
 * taken from that file's directory, as #include and tmux's source-file do, so a
 * set of scenario files works wherever it is started from.
 */
static int scenario_apply_named(const char *name, const char *dir, int depth,
				scenario_assign_fn assign, void *ctx, char *err, size_t errlen)
{
	const struct scenario *sc = scenario_find(name);
	struct stat st;

	if (depth > SCENARIO_MAX_DEPTH) {
		snprintf(err, errlen, "scenario %s: scenarios nest too deeply", name);
		return KNOB_ERR_USAGE;
	}
	if (sc && !strchr(name, '/'))
		return scenario_apply_text(sc->name, sc->text, depth, assign, ctx, err, errlen);
	if (dir && name[0] != '/' && (strchr(name, '/') || !sc)) {
		char path[4096];
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path)) {
			snprintf(err, errlen, "scenario %.200s: path too long", name);
			return KNOB_ERR_USAGE;
		}
		if (strchr(name, '/') || stat(path, &st) == 0)
			return scenario_apply_file(path, depth, assign, ctx, err, errlen);
	} else if (strchr(name, '/') || stat(name, &st) == 0) {
		return scenario_apply_file(name, depth, assign, ctx, err, errlen);
	}
	char names[512];
	scenario_names(names, sizeof(names));
	snprintf(err, errlen, "unknown scenario '%s' (valid: %s, or a file path)", name, names);
	return KNOB_ERR_USAGE;
}

int scenario_apply_text(const char *origin, const char *text, int depth, scenario_assign_fn assign,
			void *ctx, char *err, size_t errlen)
{
	return scenario_apply_in(origin, NULL, text, depth, assign, ctx, err, errlen);
}

static int scenario_apply_in(const char *origin, const char *dir, const char *text, int depth,
			     scenario_assign_fn assign, void *ctx, char *err, size_t errlen)
{
	char *copy = xstrdup(text), *save = NULL, *line;
	int lineno = 0, rc = 0;
	char msg[512];

	/* strtok_r would skip empty lines and lose the numbering: split by hand. */
	for (line = copy; line && rc == 0; line = save) {
		char *nl = strchr(line, '\n');
		save = nl ? nl + 1 : NULL;
		if (nl)
			*nl = '\0';
		lineno++;
		char *hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		char *s = knob_trim(line);
		if (!*s)
			continue;
		char *eq = strchr(s, '=');
		if (!eq) {
			/* The line, not its content: the file may not be a scenario at all. */
			snprintf(err, errlen, "%s:%d: expected 'knob = value'", origin, lineno);
			rc = KNOB_ERR_USAGE;
			break;
		}
		*eq = '\0';
		char *key = knob_trim(s), *val = knob_trim(eq + 1);
		if (strcmp(key, "scenario") == 0) {
			rc = scenario_apply_named(val, dir, depth + 1, assign, ctx, msg,
						  sizeof(msg));
		} else if (!scenario_looks_like_name(key)) {
			snprintf(msg, sizeof(msg), "expected 'knob = value' (not a knob name)");
			rc = KNOB_ERR_USAGE;
		} else {
			/* As long as the line: knob_parse refuses a long value, never a cut one. */
			size_t kvlen = strlen(key) + strlen(val) + 2;
			char *kv = xmalloc(kvlen);
			snprintf(kv, kvlen, "%s=%s", key, val);
			rc = assign(ctx, kv, msg, sizeof(msg));
			free(kv);
		}
		if (rc != 0)
			snprintf(err, errlen, "%s:%d: %s", origin, lineno, msg);
	}
	free(copy);
	return rc;
}

static int scenario_apply_file(const char *path, int depth, scenario_assign_fn assign, void *ctx,
			       char *err, size_t errlen)
{
	char *buf, msg[512];
	size_t n;
	if (textfile_read(path, SCENARIO_MAX_BYTES, &buf, &n, msg, sizeof(msg)) != 0) {
		snprintf(err, errlen, "scenario %s", msg);
		return KNOB_ERR_USAGE;
	}
	if (n > SCENARIO_MAX_BYTES || memchr(buf, '\0', n)) {
		snprintf(err, errlen, "scenario %s: %s", path,
			 n > SCENARIO_MAX_BYTES ? "larger than 1 MiB"
						: "not a text file (NUL byte)");
		free(buf);
		return KNOB_ERR_USAGE;
	}
	/* No '/' in path: its directory is the current one, as the names in it are. */
	char *dir = strchr(path, '/') ? xstrdup(path) : NULL,
	     *slash = dir ? strrchr(dir, '/') : NULL;
	if (slash == dir && dir)
		slash[1] = '\0'; /* "/x.scn": the root */
	else if (slash)
		*slash = '\0';
	int rc = scenario_apply_in(path, dir, buf, depth, assign, ctx, err, errlen);
	free(dir);
	free(buf);
	return rc;
}

int scenario_apply(const char *name_or_path, scenario_assign_fn assign, void *ctx, char *err,
		   size_t errlen)
{
	return scenario_apply_named(name_or_path, NULL, 0, assign, ctx, err, errlen);
}
