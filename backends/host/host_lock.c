/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host_lock.c: the lock between the sampler and the knob writer (host.h). A leaf: host.c calls
 * the knob writer (ovs/host_ovswrite.c), which drops and takes the lock around its I/O, so the
 * lock lives here rather than in host.c and no two files call each other. */
#include <pthread.h>

#include "backends/host/host.h"
#include "backends/host/host_int.h"

void host_lock(struct host_state *h)
{
	pthread_mutex_lock(&h->mu);
}

void host_unlock(struct host_state *h)
{
	pthread_mutex_unlock(&h->mu);
}
