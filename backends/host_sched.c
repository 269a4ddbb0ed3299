/* host_sched.c: host threads' run-queue delay and timer slack; PMD slack read and written. */
#include "backends/host_sched.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/schedstat.h"
#include "core/snapshot.h"
#include "core/xalloc.h"

/* The previous run-queue wait of each thread, sorted by tid (swapped each sample). */
struct host_sched_prev {
	pid_t tid;
	uint64_t wait_ns;
};

struct host_sched {
	struct host_sched_prev *prev, *next;
	size_t nprev, cap;
	uint64_t prev_ns;
};

struct host_sched *host_sched_new(void)
{
	return xcalloc(1, sizeof(struct host_sched));
}

void host_sched_free(struct host_sched *s)
{
	if (!s)
		return;
	free(s->prev);
	free(s->next);
	free(s);
}

/* The whole (small) file into buf, NUL-terminated; length or -1. */
static ssize_t read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = pread(fd, buf, len - 1, 0);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

int64_t host_sched_slack_read(pid_t tid)
{
	char path[48], buf[32], *end;
	snprintf(path, sizeof(path), "/proc/%d/timerslack_ns", (int)tid);
	if (read_small(path, buf, sizeof(buf)) <= 0)
		return -1;
	errno = 0;
	long long v = strtoll(buf, &end, 10);
	return errno || end == buf || v < 0 ? -1 : (int64_t)v;
}

int host_sched_slack_write(pid_t tid, int64_t ns, char *err, size_t errlen)
{
	char path[48], buf[24];
	snprintf(path, sizeof(path), "/proc/%d/timerslack_ns", (int)tid);
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	int n = snprintf(buf, sizeof(buf), "%lld\n", (long long)ns);
	if (fd < 0 || write(fd, buf, (size_t)n) != n) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		if (e == EPERM || e == EACCES)
			snprintf(err, errlen,
				 "pmd.timer_slack_ns: writing %s needs CAP_SYS_NICE (run as root)",
				 path);
		else
			snprintf(err, errlen, "pmd.timer_slack_ns: %s: %s", path, strerror(e));
		return -1;
	}
	close(fd);
	return 0;
}

void host_sched_sample(struct host_sched *s, const struct host_thread_info *cur, size_t n,
		       struct snapshot *snap, uint64_t now_ns)
{
	size_t j = 0;
	uint64_t dt = now_ns > s->prev_ns ? now_ns - s->prev_ns : 0;

	if (s->cap < n) {
		s->cap = n + 16;
		s->next = xreallocarray(s->next, s->cap, sizeof(*s->next));
		s->prev = xreallocarray(s->prev, s->cap, sizeof(*s->prev));
	}
	for (size_t i = 0; i < n && i < snap->nthreads; i++) {
		struct snap_thread *st = &snap->threads[i];
		char path[64], buf[96];
		struct schedstat ss;

		snprintf(path, sizeof(path), "/proc/%d/task/%d/schedstat", (int)cur[i].pid,
			 (int)cur[i].tid);
		ssize_t len = read_small(path, buf, sizeof(buf));
		bool ok = len > 0 && schedstat_parse(buf, (size_t)len, &ss) == 0;
		/* Both lists are sorted by tid: one merge walk finds the previous reading. */
		while (j < s->nprev && s->prev[j].tid < cur[i].tid)
			j++;
		bool have = j < s->nprev && s->prev[j].tid == cur[i].tid;
		st->runq_delay_pct =
		    ok && have && dt && ss.runq_wait_ns >= s->prev[j].wait_ns
			? 100.0 * (double)(ss.runq_wait_ns - s->prev[j].wait_ns) / (double)dt
			: -1;
		s->next[i].tid = cur[i].tid;
		s->next[i].wait_ns = ok ? ss.runq_wait_ns : 0;
		if (!ok)
			s->next[i].tid = 0; /* no baseline next time either */
		st->timer_slack_ns = host_sched_slack_read(cur[i].tid);
	}
	struct host_sched_prev *tmp = s->prev;
	s->prev = s->next;
	s->next = tmp;
	s->nprev = n < snap->nthreads ? n : snap->nthreads;
	/* Unreadable ones (tid 0) have no baseline: drop them, the rest stays sorted. */
	size_t k = 0;
	for (size_t i = 0; i < s->nprev; i++)
		if (s->prev[i].tid)
			s->prev[k++] = s->prev[i];
	s->nprev = k;
	s->prev_ns = now_ns;
}

static bool is_ovs_vswitchd(pid_t pid)
{
	char path[48], comm[32];
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	if (read_small(path, comm, sizeof(comm)) <= 0)
		return false;
	comm[strcspn(comm, "\n")] = '\0';
	return strcmp(comm, "ovs-vswitchd") == 0;
}

int host_sched_ovs_pmds(const struct host_thread_info *cur, size_t n, pid_t only_pid, pid_t *tids,
			int max)
{
	struct host_thread_info *scan = NULL;
	size_t cap = 0, ns = 0;
	int k = 0;
	if (n == 0) {
		host_threads_scan("/proc", 0, &scan, &cap, 4096, &ns);
		cur = scan;
		n = ns;
	}
	pid_t last_pid = 0;
	bool last_ovs = false;
	for (size_t i = 0; i < n && k < max; i++) {
		if (strncmp(cur[i].comm, "pmd", 3) != 0 || (only_pid && cur[i].pid != only_pid))
			continue;
		if (cur[i].pid != last_pid) {
			last_pid = cur[i].pid;
			last_ovs = is_ovs_vswitchd(cur[i].pid);
		}
		if (last_ovs)
			tids[k++] = cur[i].tid;
	}
	free(scan);
	return k;
}
