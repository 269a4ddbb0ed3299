/* SPDX-License-Identifier: GPL-2.0-or-later */
/* schedstat.c: parsing /proc schedstat and reading it (and timer slack) through kept fds. */
#include "core/schedstat.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int parse_u64(const char **p, const char *end, uint64_t *out)
{
	const char *s = *p;
	uint64_t v = 0;
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	if (s >= end || *s < '0' || *s > '9')
		return -1;
	for (; s < end && *s >= '0' && *s <= '9'; s++) {
		if (v > (UINT64_MAX - 9) / 10)
			return -1; /* not a counter the kernel can hold */
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*p = s;
	*out = v;
	return 0;
}

int schedstat_parse(const char *text, size_t len, struct schedstat *out)
{
	if (!text)
		return -1;
	const char *p = text, *end = text + len;
	struct schedstat s;
	if (parse_u64(&p, end, &s.run_ns) || parse_u64(&p, end, &s.runq_wait_ns) ||
	    parse_u64(&p, end, &s.timeslices))
		return -1;
	while (p < end && (*p == ' ' || *p == '\n'))
		p++;
	if (p != end && *p != '\0')
		return -1;
	*out = s;
	return 0;
}

static void schedstat_fds_init(struct schedstat_fds *f)
{
	memset(f, 0, sizeof(*f));
	f->sched_fd = f->slack_fd = -1;
}

void schedstat_fds_open(struct schedstat_fds *f, pid_t pid, pid_t tid)
{
	char path[64];
	schedstat_fds_init(f);
	if (pid > 0)
		snprintf(path, sizeof(path), "/proc/%d/task/%d/schedstat", (int)pid, (int)tid);
	else
		snprintf(path, sizeof(path), "/proc/self/task/%d/schedstat", (int)tid);
	f->sched_fd = open(path, O_RDONLY | O_CLOEXEC);
	snprintf(path, sizeof(path), "/proc/%d/timerslack_ns", (int)tid);
	f->slack_fd = open(path, O_RDONLY | O_CLOEXEC);
}

void schedstat_fds_close(struct schedstat_fds *f)
{
	if (f->sched_fd >= 0)
		close(f->sched_fd);
	if (f->slack_fd >= 0)
		close(f->slack_fd);
	f->sched_fd = f->slack_fd = -1;
}

int schedstat_read(const struct schedstat_fds *f, struct schedstat *out)
{
	char buf[96];
	if (f->sched_fd < 0)
		return -1;
	ssize_t n = pread(f->sched_fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return -1; /* ESRCH once the thread exited */
	return schedstat_parse(buf, (size_t)n, out);
}

int64_t schedstat_slack_ns(const struct schedstat_fds *f)
{
	char buf[32];
	uint64_t v;
	if (f->slack_fd < 0)
		return -1;
	ssize_t n = pread(f->slack_fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return -1;
	const char *p = buf;
	return parse_u64(&p, buf + n, &v) == 0 && v <= INT64_MAX ? (int64_t)v : -1;
}

double schedstat_runq_pct(struct schedstat_fds *f, uint64_t now_mono_ns)
{
	struct schedstat s;
	return schedstat_runq_pct_of(f, schedstat_read(f, &s) == 0 ? &s : NULL, now_mono_ns);
}

double schedstat_runq_pct_of(struct schedstat_fds *f, const struct schedstat *s,
			     uint64_t now_mono_ns)
{
	double pct = -1;
	if (!s) {
		f->have_prev = 0;
		return -1;
	}
	if (f->have_prev && now_mono_ns > f->prev_mono_ns && s->runq_wait_ns >= f->prev_wait_ns)
		pct = 100.0 * (double)(s->runq_wait_ns - f->prev_wait_ns) /
		      (double)(now_mono_ns - f->prev_mono_ns);
	/* The kernel adds a wait when the thread gets a CPU, so a wait that began before the
	 * window lands whole in it: the window itself holds at most 100 %. */
	if (pct > 100.0)
		pct = 100.0;
	f->prev_wait_ns = s->runq_wait_ns;
	f->prev_mono_ns = now_mono_ns;
	f->have_prev = 1;
	return pct;
}
