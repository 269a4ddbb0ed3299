/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ethread.c: thread creation, naming and registration behind ethread.h. */
#include "engine/ethread.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/clock.h"

#include "engine/engine.h"
#include "core/xalloc.h"

void ethread_registry_init(struct ethread_registry *reg)
{
	memset(reg, 0, sizeof(*reg));
	pthread_mutex_init(&reg->lock, NULL);
}

void ethread_registry_destroy(struct ethread_registry *reg)
{
	pthread_mutex_destroy(&reg->lock);
}

struct ethread_boot {
	struct ethread *t;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool ready;
};

static void ethread_register(struct ethread *t)
{
	struct ethread_registry *reg = &t->eng->threads;
	uint64_t now = clock_mono_ns();

	pthread_mutex_lock(&reg->lock);
	t->smp_cpu_ns = t->gov_cpu_ns = clock_cpu_ns(t->cpu_clock);
	t->smp_mono_ns = now;
	t->wd_since_ns = now;
	/* Opened once here, read with pread each sample: an open per thread per refresh
	 * would cost more than the rest of the sampler (bench/bench_sampler.c). */
	schedstat_fds_open(&t->smp_sched, 0, t->tid);
	t->smp_slack_ns = -2; /* not read yet */
	t->smp_runq_pct = -1;
	t->next = reg->head;
	reg->head = t;
	reg->count++;
	t->registered = true;
	pthread_mutex_unlock(&reg->lock);
}

void ethread_held_sample(struct ethread *t, const struct schedstat *s, uint64_t dw_ns)
{
	t->last_rq_wait_pct = -1;
	t->last_slices = -1;
	if (!s) {
		t->held_have_prev = false;
		return;
	}
	const struct schedstat *p = &t->held_prev;
	if (t->held_have_prev && dw_ns > 0 && s->runq_wait_ns >= p->runq_wait_ns &&
	    s->timeslices >= p->timeslices) {
		/* A wait that began before the interval lands whole in it: at most all of it. */
		double pct = 100.0 * (double)(s->runq_wait_ns - p->runq_wait_ns) / (double)dw_ns;
		t->last_rq_wait_pct = pct > 100.0 ? 100.0 : pct;
		t->last_slices = (int64_t)(s->timeslices - p->timeslices);
	}
	t->held_prev = *s;
	t->held_have_prev = true;
}

bool ethread_held_off(const struct ethread *t)
{
	char path[64], buf[256];
	if (t->last_cpu_pct >= 50.0 || t->last_slices < 0)
		return false;
	/* A quarter of the interval waiting, and more than it ran: a stuck thread waking every
	 * 20 ms to look waits under 5 % of it even beside four busy loops on two CPUs; a starved
	 * one that got a few slices waited a third of it and more (tests/unit/test_held_off.c). */
	if (t->last_rq_wait_pct >= 25.0 && t->last_rq_wait_pct > t->last_cpu_pct)
		return true;
	if (t->last_slices > 0) /* it was run, and waited little for it */
		return false;
	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)t->tid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	/* "tid (comm) S ...": the comm may hold ") ", the state follows the last one. */
	const char *rp = strrchr(buf, ')');
	return rp && rp[1] == ' ' && rp[2] == 'R';
}

/* Unregister before the thread ends: readers only read clocks of registered
 * threads under the lock, so they never read the clock of an exited thread. */
static void ethread_unregister(struct ethread *t)
{
	struct ethread_registry *reg = &t->eng->threads;

	pthread_mutex_lock(&reg->lock);
	for (struct ethread **pp = &reg->head; *pp; pp = &(*pp)->next) {
		if (*pp == t) {
			*pp = t->next;
			reg->count--;
			break;
		}
	}
	t->registered = false;
	schedstat_fds_close(&t->smp_sched);
	pthread_mutex_unlock(&reg->lock);
}

static void *ethread_main(void *arg)
{
	struct ethread_boot *boot = arg;
	struct ethread *t = boot->t;

	t->tid = gettid();
	pthread_setname_np(pthread_self(), t->name);
	if (pthread_getcpuclockid(pthread_self(), &t->cpu_clock) != 0)
		t->cpu_clock = CLOCK_THREAD_CPUTIME_ID; /* cannot happen on Linux */
	ethread_register(t);

	pthread_mutex_lock(&boot->lock);
	boot->ready = true;
	pthread_cond_signal(&boot->cond);
	pthread_mutex_unlock(&boot->lock);
	/* The starter frees boot once it sees ready: do not touch it past this point. */

	t->fn(t);
	ethread_unregister(t);
	return NULL;
}

struct ethread *ethread_start(struct engine *eng, const char *name, enum subsys subsys, int emu_cpu,
			      void (*fn)(struct ethread *), void *arg, char *err, size_t errlen)
{
	struct ethread *t = ethread_launch(eng, name, subsys, emu_cpu, fn, arg, err, errlen);
	if (t)
		ethread_wait_started(t);
	return t;
}

void ethread_wait_started(struct ethread *t)
{
	struct ethread_boot *boot = t->boot;
	if (!boot)
		return;
	pthread_mutex_lock(&boot->lock);
	while (!boot->ready)
		pthread_cond_wait(&boot->cond, &boot->lock);
	pthread_mutex_unlock(&boot->lock);
	pthread_mutex_destroy(&boot->lock);
	pthread_cond_destroy(&boot->cond);
	free(boot);
	t->boot = NULL;
}

struct ethread *ethread_launch(struct engine *eng, const char *name, enum subsys subsys,
			       int emu_cpu, void (*fn)(struct ethread *), void *arg, char *err,
			       size_t errlen)
{
	struct ethread *t = xcalloc(1, sizeof(*t));
	struct ethread_boot *bootp = xcalloc(1, sizeof(*bootp));
	int rc;

	snprintf(t->name, sizeof(t->name), "%s", name);
	t->subsys = subsys;
	t->emu_cpu = emu_cpu;
	t->eng = eng;
	t->fn = fn;
	t->arg = arg;
	atomic_init(&t->beat, 0);
	atomic_init(&t->state, ETHREAD_RUN);
	t->last_rq_wait_pct = -1;
	t->last_slices = -1;
	atomic_init(&t->stop, false);

	bootp->t = t;
	t->boot = bootp;
	pthread_mutex_init(&bootp->lock, NULL);
	pthread_cond_init(&bootp->cond, NULL);
	/* Engine threads block the asynchronous signals (they inherit the mask), so
	 * SIGINT, SIGTERM, SIGHUP and SIGWINCH reach the control thread and interrupt
	 * its wait for a key at once, and no worker's sleep or futex wait sees EINTR. */
	sigset_t block, old;
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigaddset(&block, SIGWINCH);
	sigaddset(&block, SIGPIPE);
	sigaddset(&block, SIGQUIT);
	sigaddset(&block, SIGUSR1);
	sigaddset(&block, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	rc = pthread_create(&t->pt, NULL, ethread_main, bootp);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		snprintf(err, errlen, "cannot start thread %s: %s", t->name, strerror(rc));
		pthread_mutex_destroy(&bootp->lock);
		pthread_cond_destroy(&bootp->cond);
		free(bootp);
		free(t);
		return NULL;
	}
	return t;
}

void ethread_request_stop(struct ethread *t)
{
	atomic_store_explicit(&t->stop, true, memory_order_release);
}

void ethread_join(struct ethread *t)
{
	pthread_join(t->pt, NULL);
	free(t);
}

void ethread_stop(struct ethread *t)
{
	ethread_request_stop(t);
	ethread_join(t);
}
