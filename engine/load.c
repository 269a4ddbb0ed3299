/* SPDX-License-Identifier: GPL-2.0-or-later */
/* load.c: reference load threads (spin:N at ~100%, sleep:N at ~0%) to check CPU% against. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#include "core/clock.h"
#include "engine/engine.h"
#include "core/xalloc.h"

#define LOAD_MAX_THREADS (2 * LOAD_MAX_PER_KNOB) /* two knobs */

struct load_state {
	/* The start gate: spinners block here until every thread is started (a
	 * 1 ms sleep loop in 512 threads was itself a load). go under lock. */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool go;
	bool nice_spinners; /* more spinners than host CPUs */
	int n;
	struct ethread *t[LOAD_MAX_THREADS];
};

/*
 * More spinners than the host has CPUs run at nice 19: on a 2-core machine 512
 * of them at nice 0 left the control thread one slice in hundreds, so the first
 * snapshot took 50 s and a SIGTERM 8 s. Niced, they still take every cycle
 * nothing else wants, and the console, the workloads and the stop stay on time.
 * Up to one per CPU they stay at nice 0: a reference that reads ~100% even on a
 * shared machine. They also wait for the go signal, so the starter is not
 * queued behind the spinners it already started.
 */
#define LOAD_SPIN_NICE 19

static void load_spin_main(struct ethread *self)
{
	struct load_state *ls = self->arg;
	if (ls->nice_spinners)
		setpriority(PRIO_PROCESS, (id_t)self->tid, LOAD_SPIN_NICE);
	pthread_mutex_lock(&ls->lock);
	while (!ls->go)
		pthread_cond_wait(&ls->cond, &ls->lock);
	pthread_mutex_unlock(&ls->lock);
	while (!ethread_should_stop(self)) {
		clock_spin_ns(NS_PER_MS);
		ethread_beat(self);
	}
}

static void load_sleep_main(struct ethread *self)
{
	ethread_set_state(self, ETHREAD_SLEEP);
	while (!ethread_should_stop(self)) {
		clock_sleep_ns(20 * NS_PER_MS);
		ethread_beat(self);
	}
}

static void load_go(struct load_state *ls)
{
	pthread_mutex_lock(&ls->lock);
	ls->go = true;
	pthread_cond_broadcast(&ls->cond);
	pthread_mutex_unlock(&ls->lock);
}

static void load_stop(struct engine *eng)
{
	struct load_state *ls = eng->load;
	if (!ls)
		return;
	load_go(ls); /* a start that failed half way: the gate opens onto the stop */
	for (int i = 0; i < ls->n; i++)
		ethread_request_stop(ls->t[i]);
	for (int i = 0; i < ls->n; i++)
		ethread_join(ls->t[i]);
	pthread_mutex_destroy(&ls->lock);
	pthread_cond_destroy(&ls->cond);
	free(ls);
	eng->load = NULL;
}

static int load_start(struct engine *eng, char *err, size_t errlen)
{
	struct load_state *ls = xcalloc(1, sizeof(*ls));
	int nspin = (int)engine_knob(eng, K_LOAD_SPIN_THREADS);
	int nsleep = (int)engine_knob(eng, K_LOAD_SLEEP_THREADS);

	long host_cpus = sysconf(_SC_NPROCESSORS_ONLN);
	ls->nice_spinners = nspin > (host_cpus > 0 ? host_cpus : 1);
	pthread_mutex_init(&ls->lock, NULL);
	pthread_cond_init(&ls->cond, NULL);
	eng->load = ls;
	for (int i = 0; i < nspin + nsleep; i++) {
		char name[32];
		bool spin = i < nspin;
		snprintf(name, sizeof(name), "%s:%d", spin ? "spin" : "sleep",
			 spin ? i : i - nspin);
		ls->t[ls->n] =
		    ethread_launch(eng, name, SUBSYS_ENGINE, i % eng->cpu.count,
				   spin ? load_spin_main : load_sleep_main, ls, err, errlen);
		if (!ls->t[ls->n]) {
			for (int j = 0; j < ls->n; j++)
				ethread_wait_started(ls->t[j]);
			load_stop(eng);
			return -1;
		}
		ls->n++;
	}
	for (int i = 0; i < ls->n; i++)
		ethread_wait_started(ls->t[i]); /* each tid and clock valid from here */
	load_go(ls);
	return 0;
}

static void load_sample(struct engine *eng, struct snapshot *snap, uint64_t now_ns)
{
	(void)eng;
	(void)snap;
	(void)now_ns; /* its threads appear in the thread table; no section of its own */
}

static int load_knob_apply(struct engine *eng, enum knob_id id, int64_t old, int64_t *val,
			   char *err, size_t errlen)
{
	(void)old;
	(void)val;
	if (id != K_LOAD_SPIN_THREADS && id != K_LOAD_SLEEP_THREADS)
		return 0; /* engine.watchdog_ms is read every pass; host.pid is the host's */
	/* The reference load is cheap to rebuild: restart it with the new counts
	 * (a start that fails leaves no load; engine_stop() copes with that). */
	load_stop(eng);
	return load_start(eng, err, errlen);
}

const struct subsys_ops load_ops = {
    .name = "load",
    .id = SUBSYS_ENGINE,
    .start = load_start,
    .stop = load_stop,
    .sample = load_sample,
    .knob_apply = load_knob_apply,
};
