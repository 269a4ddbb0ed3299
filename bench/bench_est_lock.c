/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bench_est_lock.c: how long a config-side locker waits while est.count moves by thousands. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/clock.h"
#include "engine/engine.h"
#include "engine/est/est_place.h"

/*
 * Usage: bench_est_lock NCPUS. Runs the est subsystem on NCPUS emulated
 * possible CPUs and changes est.count in big steps (grow, shrink, regrow into
 * reused slots) while a prober thread takes the config mutex and kthread 0's
 * kd->lock every 200 us, the way the sampler does. Prints, per step, how long
 * the step took and the longest wait of the prober on each lock (that is the
 * longest hold by est.count batches, kthread 0's drain or a chain walk, plus
 * scheduling delay on a loaded machine).
 */
static atomic_int stop;
static uint64_t cfg_max_ns, kd_max_ns;

static void *prober(void *a)
{
	struct engine *eng = a;
	while (!atomic_load(&stop)) {
		struct est_state *st = eng->est;
		uint64_t t0 = clock_mono_ns();
		est_config_lock(st);
		uint64_t t1 = clock_mono_ns();
		struct est_kd *kd = st->kt_count ? st->kt_arr[0] : NULL;
		if (kd)
			est_kd_lock(kd);
		uint64_t t2 = clock_mono_ns();
		if (kd)
			pthread_mutex_unlock(&kd->lock);
		pthread_mutex_unlock(&st->mutex);
		if (t1 - t0 > cfg_max_ns)
			cfg_max_ns = t1 - t0;
		if (t2 - t1 > kd_max_ns)
			kd_max_ns = t2 - t1;
		clock_sleep_ns(200 * NS_PER_US);
	}
	return NULL;
}

static void set(struct engine *eng, const char *kv)
{
	char err[512];
	if (engine_knob_assign(eng, kv, err, sizeof(err)) != 0) {
		fprintf(stderr, "bench_est_lock: %s: %s\n", kv, err);
		exit(1);
	}
}

int main(int argc, char **argv)
{
	static const int steps[] = {50000, 10000, 100000, 0, 100000};
	struct engine *eng = engine_new();
	char err[512], kv[64];
	int cpus = argc > 1 ? atoi(argv[1]) : 128;

	set(eng, "cpu.count=4");
	set(eng, "est.enabled=on");
	snprintf(kv, sizeof(kv), "est.cpus=%d", cpus);
	set(eng, kv);
	set(eng, "est.count=1000");
	if (engine_start(eng, err, sizeof(err)) != 0) {
		fprintf(stderr, "bench_est_lock: %s\n", err);
		return 1;
	}
	clock_sleep_ns(500 * NS_PER_MS); /* calibration */
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		pthread_t p;
		cfg_max_ns = kd_max_ns = 0;
		atomic_store(&stop, 0);
		pthread_create(&p, NULL, prober, eng);
		snprintf(kv, sizeof(kv), "est.count=%d", steps[i]);
		uint64_t t0 = clock_mono_ns();
		set(eng, kv);
		uint64_t took = clock_mono_ns() - t0;
		clock_sleep_ns(NS_PER_S); /* the drain and a few ticks */
		atomic_store(&stop, 1);
		pthread_join(p, NULL);
		printf("%d %d %.1f %.3f %.3f\n", cpus, steps[i], (double)took / 1e6,
		       (double)cfg_max_ns / 1e6, (double)kd_max_ns / 1e6);
	}
	engine_stop(eng);
	engine_free(eng);
	return 0;
}
