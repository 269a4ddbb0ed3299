/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_starved.c: the host starving the PMD and blk threads is not a hang. The default
 * scenario's PMD and blk threads are pinned to CPU 1 at nice 19 beside two busy loops at nice
 * -20, the sampler on CPU 0: those threads then make no progress for whole intervals. Neither
 * pmd.hung nor blk.hung may say so (ethread.h, ethread_held_off). Nor when only the thread that
 * completes a submitter's requests is held off and the submitter waits on it asleep. A lost
 * kick is a hang all the same, with every blk thread held off (and on a quiet machine:
 * test_blk_steer.c). Needs two CPUs and the right to raise a priority.
 * tt-serial: two threads at nice -20 hold CPU 1 for a few seconds */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/clock.h"
#include "core/scenario.h"
#include "engine/engine.h"
#include "engine/blk/blk_int.h"

#define STARVED_WANT 3 /* intervals in which the starved threads made no progress */
#define INTERVAL_MS 200

static atomic_bool hog_stop;
static atomic_int hogs_up;

static void pin(pid_t tid, int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	assert_int_equal(sched_setaffinity(tid, sizeof(set), &set), 0);
}

/* A busy loop on CPU 1 at nice -20 until hog_stop. */
static void *hog(void *arg)
{
	pid_t tid = (pid_t)syscall(SYS_gettid);
	(void)arg;
	pin(tid, 1);
	int ok = setpriority(PRIO_PROCESS, (id_t)tid, -20);
	atomic_fetch_add(&hogs_up, ok == 0 ? 1 : -100);
	while (!atomic_load_explicit(&hog_stop, memory_order_relaxed))
		;
	return NULL;
}

static pthread_t hogs[2];

/* The two busy loops started; skips (stopping them) without the right to raise a priority
 * (CAP_SYS_NICE): then nothing starves. */
static void hogs_start(void)
{
	atomic_store(&hog_stop, false);
	atomic_store(&hogs_up, 0);
	for (int i = 0; i < 2; i++)
		assert_int_equal(pthread_create(&hogs[i], NULL, hog, NULL), 0);
	while (atomic_load(&hogs_up) == 0 || atomic_load(&hogs_up) == 1)
		sched_yield();
	if (atomic_load(&hogs_up) < 0) {
		atomic_store(&hog_stop, true);
		for (int i = 0; i < 2; i++)
			pthread_join(hogs[i], NULL);
		skip();
	}
}

static void hogs_stop(void)
{
	atomic_store(&hog_stop, true);
	for (int i = 0; i < 2; i++)
		pthread_join(hogs[i], NULL);
}

/* Thread tid on CPU 1 at nice 19, where the busy loops will run. */
static void starve(pid_t tid)
{
	pin(tid, 1);
	assert_int_equal(setpriority(PRIO_PROCESS, (id_t)tid, 19), 0);
}

/* An engine on scenario with the extra knob assignment (NULL: none), started and sampled
 * once; the sampler (this thread) on CPU 0, which the busy loops leave alone. */
static struct engine *starved_engine(const char *scenario, const char *const *knobs,
				     struct snapshot *s)
{
	char err[512];
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		skip();
	struct engine *eng = engine_new();
	assert_int_equal(scenario_apply(scenario, engine_scenario_assign, eng, err, sizeof(err)),
			 0);
	for (; knobs && *knobs; knobs++)
		assert_int_equal(engine_knob_assign(eng, *knobs, err, sizeof(err)), 0);
	assert_int_equal(engine_start(eng, err, sizeof(err)), 0);
	engine_sample(eng, s);
	pin(0, 0);
	return eng;
}

static void test_starved_is_not_hung(void **state)
{
	(void)state;
	struct snapshot *s = snapshot_new();
	struct engine *eng = starved_engine("default", NULL, s);
	/* The threads whose progress is judged on CPU 1. */
	int moved = 0;
	pthread_mutex_lock(&eng->threads.lock);
	for (struct ethread *t = eng->threads.head; t; t = t->next)
		if (t->subsys == SUBSYS_PMD || t->subsys == SUBSYS_BLK) {
			starve(t->tid);
			moved++;
		}
	pthread_mutex_unlock(&eng->threads.lock);
	assert_true(moved >= 2);
	hogs_start();

	/* Intervals until STARVED_WANT of them had a PMD without an iteration or blk without a
	 * completion, within a deadline: in none of them a hang. */
	int starved = 0, hung_pmd = 0, hung_blk = 0, samples = 0;
	uint64_t completed = s->blk.completed, deadline = clock_mono_ns() + 30 * NS_PER_S;
	engine_sample(eng, s);
	completed = s->blk.completed;
	while (starved < STARVED_WANT && clock_mono_ns() < deadline) {
		clock_sleep_ns(INTERVAL_MS * NS_PER_MS);
		engine_sample(eng, s);
		samples++;
		bool still = s->blk.completed == completed;
		for (int i = 0; i < s->pmd.nthreads; i++)
			still |= s->pmd.threads[i].iterations == 0;
		starved += still;
		hung_pmd += s->pmd.hung;
		hung_blk += s->blk.hung;
		completed = s->blk.completed;
	}
	hogs_stop();
	print_message("%d intervals, %d without progress; pmd.hung in %d, blk.hung in %d\n",
		      samples, starved, hung_pmd, hung_blk);
	assert_true(starved >= STARVED_WANT); /* else the busy loops starved nothing */
	assert_int_equal(hung_pmd, 0);
	assert_int_equal(hung_blk, 0);
	snapshot_free(s);
	engine_free(eng);
}

/*
 * One submitter held off, and another one waiting on it. blk-steer with 8 submitters puts two on
 * each emulated CPU; at rq_affinity 2 a completion runs in its submitting CPU's softirq, which
 * the first submitter there serves (blk.c, serves_cpu). That server alone is held off (CPU 1 at
 * nice 19 beside the busy loops); the second submitter on its CPU runs free on CPU 0 and waits
 * for it asleep, not held off itself, while blk-irq and the other CPUs complete as usual. Its
 * stall is the host's doing, through the thread that completes its requests: not hung.
 */
static void test_server_starved_is_not_hung(void **state)
{
	(void)state;
	static const char *const knobs[] = {"blk.submitters=8", "blk.rq_affinity=2", NULL};
	struct snapshot *s = snapshot_new();
	struct engine *eng = starved_engine("blk-steer", knobs, s);
	struct blk_state *st = eng->blk;
	/* blk_sub_cpu(): submitter i on CPU (irq_cpu + 1 + i) % ncpus, so 0 and ncpus share one. */
	struct blk_sub *server = &st->subs[0], *waiter = &st->subs[st->ncpus];
	assert_true(server->serves_cpu && !waiter->serves_cpu && server->cpu == waiter->cpu);
	pthread_mutex_lock(&eng->threads.lock);
	for (struct ethread *t = eng->threads.head; t; t = t->next)
		if (t != server->t)
			pin(t->tid, 0);
	pthread_mutex_unlock(&eng->threads.lock);
	starve(server->t->tid);
	hogs_start();

	/* Intervals until STARVED_WANT of them had the waiter without a completion while blk
	 * completed others, within a deadline: in none of them a hang. */
	int waited = 0, hung = 0, samples = 0;
	engine_sample(eng, s);
	uint64_t mine = atomic_load(&waiter->completed), all = s->blk.completed;
	uint64_t deadline = clock_mono_ns() + 30 * NS_PER_S;
	while (waited < STARVED_WANT && clock_mono_ns() < deadline) {
		clock_sleep_ns(INTERVAL_MS * NS_PER_MS);
		engine_sample(eng, s);
		samples++;
		uint64_t m = atomic_load(&waiter->completed);
		waited += m == mine && s->blk.completed > all;
		hung += s->blk.hung;
		mine = m;
		all = s->blk.completed;
	}
	hogs_stop();
	print_message("%d intervals, %d with the waiter stalled and others completing; blk.hung in "
		      "%d\n",
		      samples, waited, hung);
	assert_true(waited >= STARVED_WANT); /* else its server was never held off */
	assert_int_equal(hung, 0);
	snapshot_free(s);
	engine_free(eng);
}

/*
 * A lost kick while the host holds every blk thread off: still hung. blk-steer with the
 * lost-kick fault; once a kick is lost, its threads are starved as in the first test. The list the
 * fault strands has no kick on its way, so no one will drain it however the host runs them
 * (blk_hung.c, blk_stranded): the host's hold on the threads explains nothing there.
 */
static void test_lost_kick_starved_is_hung(void **state)
{
	(void)state;
	static const char *const knobs[] = {"blk.fault_lost_kick=on", NULL};
	struct snapshot *s = snapshot_new();
	struct engine *eng = starved_engine("blk-steer", knobs, s);
	/* The kick is lost first, while the threads run (at once on a quiet CPU; starved, they
	 * reach a drain only when the host lets them, which may take longer than the test). */
	uint64_t deadline = clock_mono_ns() + 30 * NS_PER_S;
	while (s->blk.lost_kicks == 0 && clock_mono_ns() < deadline) {
		clock_sleep_ns(INTERVAL_MS * NS_PER_MS);
		engine_sample(eng, s);
	}
	assert_true(s->blk.lost_kicks > 0);
	pthread_mutex_lock(&eng->threads.lock);
	for (struct ethread *t = eng->threads.head; t; t = t->next)
		if (t->subsys == SUBSYS_BLK)
			starve(t->tid);
	pthread_mutex_unlock(&eng->threads.lock);
	hogs_start();
	/* The interval the threads were moved in is not judged (they ran most of it). */
	engine_sample(eng, s);
	int samples = 0;
	bool hung = false;
	deadline = clock_mono_ns() + 30 * NS_PER_S;
	while (!hung && clock_mono_ns() < deadline) {
		clock_sleep_ns(INTERVAL_MS * NS_PER_MS);
		engine_sample(eng, s);
		samples++;
		hung = s->blk.hung;
	}
	hogs_stop();
	print_message("%d intervals, %llu lost kicks; blk.hung %s\n", samples,
		      (unsigned long long)s->blk.lost_kicks, hung ? "yes" : "no");
	assert_true(hung);
	snapshot_free(s);
	engine_free(eng);
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_starved_is_not_hung),
					   cmocka_unit_test(test_server_starved_is_not_hung),
					   cmocka_unit_test(test_lost_kick_starved_is_hung)};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
