/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_blk_decide.c: docs/blk.md §2's decision table over every case and rq_affinity value. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "engine/blk/blk_decide.h"
#include "engine/engine.h"

enum { D = BLK_PATH_DIRECT, L = BLK_PATH_LOCAL_SOFTIRQ, R = BLK_PATH_REMOTE };

/* The IRQ CPU is 0; CPU 1 shares its LLC, CPU 2 does not. */
static struct blk_decide_in base(int submit, int nr_hw_queues)
{
	struct blk_decide_in in = {
	    .cur_cpu = 0,
	    .submit_cpu = submit,
	    .share_llc = submit != 2,
	    .equal_capacity = true,
	    .submit_online = true,
	    .polled = false,
	    .force_irqthreads = false,
	    .smp = true,
	    .nr_hw_queues = nr_hw_queues,
	    .nr_ctx = 4,
	};
	return in;
}

static unsigned flags_of(int value)
{
	return blk_flags_store(BLK_QF_MQ_DEFAULT, (uint64_t)value);
}

struct row {
	const char *what;
	void (*tweak)(struct blk_decide_in *in);
	int submit;
	int expect1q[3]; /* rq_affinity 0, 1, 2 with nr_hw_queues == 1 */
	int expectmq[3]; /* the same with nr_hw_queues == 4 */
};

static void tw_none(struct blk_decide_in *in)
{
	(void)in;
}
static void tw_offline(struct blk_decide_in *in)
{
	in->submit_online = false;
}
static void tw_polled(struct blk_decide_in *in)
{
	in->polled = true;
}
static void tw_one_ctx(struct blk_decide_in *in)
{
	in->nr_ctx = 1;
}
static void tw_threadirqs(struct blk_decide_in *in)
{
	in->force_irqthreads = true;
}
static void tw_up(struct blk_decide_in *in)
{
	in->smp = false;
}
static void tw_capacity(struct blk_decide_in *in)
{
	in->equal_capacity = false;
}

static const struct row rows[] = {
    /* §2 table: local* = softirq on the IRQ CPU with one queue, else direct. */
    {"same CPU", tw_none, 0, {L, L, L}, {D, D, D}},
    {"same LLC", tw_none, 1, {L, L, R}, {D, D, R}},
    {"other LLC", tw_none, 2, {L, R, R}, {D, R, R}},
    /* (e): an offline submit CPU is never IPIed: local*. */
    {"other LLC, offline", tw_offline, 2, {L, L, L}, {D, D, D}},
    {"same LLC, offline", tw_offline, 1, {L, L, L}, {D, D, D}},
    /* Step 2: polled IO is never redirected. */
    {"polled, other LLC", tw_polled, 2, {D, D, D}, {D, D, D}},
    {"polled, same CPU", tw_polled, 0, {D, D, D}, {D, D, D}},
    /* Step 2: one software context and already on the submit CPU: direct, even with one queue. */
    {"one context, same CPU", tw_one_ctx, 0, {D, D, D}, {D, D, D}},
    /* Ed Tsai's 2023 fix: one context alone does not bypass steering. */
    {"one context, other LLC", tw_one_ctx, 2, {L, R, R}, {D, R, R}},
    {"one context, same LLC", tw_one_ctx, 1, {L, L, R}, {D, D, R}},
    /* (c): forced IRQ threads behave like 0 in every column. */
    {"threadirqs, other LLC", tw_threadirqs, 2, {L, L, L}, {D, D, D}},
    {"threadirqs, same LLC", tw_threadirqs, 1, {L, L, L}, {D, D, D}},
    /* (a): no SMP, no IPI. */
    {"UP kernel", tw_up, 2, {L, L, L}, {D, D, D}},
    /* Asymmetric capacity: "same LLC" also needs equal capacity, else 1 sends an IPI. */
    {"same LLC, unequal capacity", tw_capacity, 1, {L, R, R}, {D, R, R}},
};

static void test_decision_table(void **state)
{
	(void)state;
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		for (int v = 0; v <= 2; v++) {
			for (int mq = 0; mq <= 1; mq++) {
				struct blk_decide_in in = base(rows[r].submit, mq ? 4 : 1);
				rows[r].tweak(&in);
				in.flags = flags_of(v);
				int want = mq ? rows[r].expectmq[v] : rows[r].expect1q[v];
				int got = blk_decide(&in);
				if (got != want)
					fail_msg(
					    "%s, rq_affinity=%d, nr_hw_queues=%d: got %s, want %s",
					    rows[r].what, v, in.nr_hw_queues, blk_path_name(got),
					    blk_path_name(want));
				/* need_ipi agrees with the remote outcome whenever step 2 is not
				 * taken. */
				if (!in.polled && !(in.nr_ctx == 1 && in.cur_cpu == in.submit_cpu))
					assert_int_equal(blk_decide_need_ipi(&in), want == R);
			}
		}
	}
}

static void test_flags_store_show(void **state)
{
	(void)state;
	assert_int_equal(blk_flags_show(BLK_QF_MQ_DEFAULT), 1);
	assert_int_equal(blk_flags_show(flags_of(0)), 0);
	assert_int_equal(blk_flags_show(flags_of(1)), 1);
	assert_int_equal(blk_flags_show(flags_of(2)), 2);
	assert_int_equal(flags_of(0), 0);
	assert_int_equal(flags_of(1), BLK_QF_SAME_COMP);
	assert_int_equal(flags_of(2), BLK_QF_SAME_COMP | BLK_QF_SAME_FORCE);
	/* FORCE without COMP cannot be written; it would read 0 (1 << 0 ... 0 << 1). */
	assert_int_equal(blk_flags_show(BLK_QF_SAME_FORCE), 0);
	/* 2 -> 1 clears FORCE. */
	assert_int_equal(blk_flags_store(flags_of(2), 1), BLK_QF_SAME_COMP);
}

static void test_values_3_and_up_ignored(void **state)
{
	static const uint64_t odd[] = {3, 4, 10, 255, 65536, 4294967295ull};
	(void)state;
	for (int start = 0; start <= 2; start++) {
		for (size_t i = 0; i < sizeof(odd) / sizeof(odd[0]); i++) {
			unsigned f = flags_of(start);
			assert_int_equal(blk_flags_store(f, odd[i]), f);
			assert_int_equal(blk_flags_show(blk_flags_store(f, odd[i])), start);
			/* ...and the decision is the one of the value before the write. */
			struct blk_decide_in a = base(1, 1), b = base(1, 1);
			a.flags = f;
			b.flags = blk_flags_store(f, odd[i]);
			assert_int_equal(blk_decide(&a), blk_decide(&b));
		}
	}
}

static void test_knob_accepts_3_and_up(void **state)
{
	char err[256];
	int64_t v;
	(void)state;
	/* The knob parses like queue_var_store: 0 .. UINT_MAX, nothing else. */
	assert_int_equal(knob_parse(K_BLK_RQ_AFFINITY, "3", &v, err, sizeof(err)), 0);
	assert_int_equal(knob_parse(K_BLK_RQ_AFFINITY, "4294967295", &v, err, sizeof(err)), 0);
	assert_int_equal(knob_parse(K_BLK_RQ_AFFINITY, "4294967296", &v, err, sizeof(err)),
			 KNOB_ERR_USAGE);
	assert_int_equal(knob_parse(K_BLK_RQ_AFFINITY, "-1", &v, err, sizeof(err)), KNOB_ERR_USAGE);
	assert_int_equal(knob_parse(K_BLK_RQ_AFFINITY, "0x2", &v, err, sizeof(err)),
			 KNOB_ERR_USAGE);

	/* Before start the value is stored; the queue starts with SAME_COMP and the write of 7
	 * changes nothing, so it reads back 1. */
	struct engine *eng = engine_new();
	assert_int_equal(engine_knob_assign(eng, "cpu.count=2", err, sizeof(err)), 0);
	assert_int_equal(engine_knob_assign(eng, "blk.enabled=on", err, sizeof(err)), 0);
	assert_int_equal(engine_knob_assign(eng, "blk.submitters=1", err, sizeof(err)), 0);
	assert_int_equal(engine_knob_assign(eng, "blk.rq_affinity=7", err, sizeof(err)), 0);
	assert_int_equal(engine_start(eng, err, sizeof(err)), 0);
	assert_int_equal(engine_knob(eng, K_BLK_RQ_AFFINITY), 1);
	/* Live: 2 sticks, 3 is accepted (rc 0) and reads back 2. */
	assert_int_equal(engine_knob_assign(eng, "blk.rq_affinity=2", err, sizeof(err)), 0);
	assert_int_equal(engine_knob(eng, K_BLK_RQ_AFFINITY), 2);
	assert_int_equal(engine_knob_assign(eng, "blk.rq_affinity=3", err, sizeof(err)), 0);
	assert_int_equal(engine_knob(eng, K_BLK_RQ_AFFINITY), 2);
	assert_int_equal(engine_knob_assign(eng, "blk.rq_affinity=0", err, sizeof(err)), 0);
	assert_int_equal(engine_knob_assign(eng, "blk.rq_affinity=4294967295", err, sizeof(err)),
			 0);
	assert_int_equal(engine_knob(eng, K_BLK_RQ_AFFINITY), 0);
	struct snapshot *snap = snapshot_new();
	engine_sample(eng, snap);
	assert_true(snap->has_blk);
	assert_int_equal(snap->blk.rq_affinity, 0);
	snapshot_free(snap);
	engine_free(eng);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_decision_table),
	    cmocka_unit_test(test_flags_store_show),
	    cmocka_unit_test(test_values_3_and_up_ignored),
	    cmocka_unit_test(test_knob_accepts_3_and_up),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
