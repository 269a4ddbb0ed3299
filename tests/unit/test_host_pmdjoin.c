/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_host_pmdjoin.c: a PMD row's slack, CPU and run-queue delay are its own thread's, joined
 * by tid: a thread gone between the scan (h->cur) and its read has no row in snap->threads,
 * and the rows past it must not take their neighbour's figures. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "backends/host/host_int.h"
#include "core/snapshot.h"

static struct host_thread_info cur[4];
static struct snap_thread rows[4];

static void put_cur(int i, pid_t pid, pid_t tid, const char *comm)
{
	cur[i] = (struct host_thread_info){.pid = pid, .tid = tid};
	snprintf(cur[i].comm, sizeof(cur[i].comm), "%s", comm);
}

static void put_row(int i, pid_t tid, const char *name, double cpu, double runq, int64_t slack)
{
	rows[i] = (struct snap_thread){
	    .tid = tid, .cpu_pct = cpu, .runq_delay_pct = runq, .timer_slack_ns = slack};
	snprintf(rows[i].name, sizeof(rows[i].name), "%s", name);
}

/* Scanned: a handler (tid 9) that exits before its read, then two PMDs of vswitchd 5. */
static void churn(struct host_state *h, struct snapshot *s)
{
	memset(h, 0, sizeof(*h));
	h->slack_set_ns = -1;
	put_cur(0, 5, 9, "handler1");
	put_cur(1, 5, 10, "pmd-c00/id:1");
	put_cur(2, 5, 12, "pmd-c01/id:2");
	h->cur = cur;
	h->ncur = 3;
	put_row(0, 10, "pmd-c00/id:1", 11.0, 1.0, 1000);
	put_row(1, 12, "pmd-c01/id:2", 22.0, 2.0, 50000);
	s->threads = rows;
	s->nthreads = 2;
	s->pmd.nthreads = 2;
	snprintf(s->pmd.threads[0].name, sizeof(s->pmd.threads[0].name), "pmd-c00/id:1");
	snprintf(s->pmd.threads[1].name, sizeof(s->pmd.threads[1].name), "pmd-c01/id:2");
}

static void test_slack_by_tid(void **state)
{
	(void)state;
	struct host_state h;
	struct snapshot s;
	pid_t row_tid[PMD_SNAP_MAX];
	memset(&s, 0, sizeof(s));
	churn(&h, &s);
	host_slack_pmdsec(&h, &s, row_tid);
	assert_int_equal(s.pmd.threads[0].timer_slack_ns, 1000);
	assert_int_equal(s.pmd.threads[1].timer_slack_ns, 50000);
	assert_int_equal(row_tid[0], 10);
	assert_int_equal(row_tid[1], 12);
	assert_int_equal(s.pmd.timer_slack_ns, 1000);
}

/* The same for CPU and run-queue delay, with a second vswitchd (pid 7) whose PMD on core 1
 * carries an alike name: only vswitchd 5's counts. */
static void test_cpu_by_tid(void **state)
{
	(void)state;
	struct host_state h;
	struct snapshot s;
	char name[16];
	bool fresh;
	double runq;
	memset(&s, 0, sizeof(s));
	churn(&h, &s);
	put_cur(3, 7, 20, "pmd-c01/id:6");
	h.ncur = 4;
	put_row(2, 20, "pmd-c01/id:6", 70.0, 30.0, 1000);
	s.nthreads = 3;

	double cpu = host_pmdsec_cpu(&h, &s, 5, 1, name, sizeof(name), &fresh, &runq);
	assert_false(fresh);
	assert_true(cpu == 22.0);
	assert_true(runq == 2.0);
	assert_string_equal(name, "pmd-c01/id:2");
	cpu = host_pmdsec_cpu(&h, &s, 5, 0, name, sizeof(name), &fresh, &runq);
	assert_true(cpu == 11.0);
	assert_true(runq == 1.0);
	/* Vswitchd 7's: its own thread's, not the row at its scan position. */
	cpu = host_pmdsec_cpu(&h, &s, 7, 1, name, sizeof(name), &fresh, &runq);
	assert_true(cpu == 70.0);
	assert_string_equal(name, "pmd-c01/id:6");
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_slack_by_tid),
					   cmocka_unit_test(test_cpu_by_tid)};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
