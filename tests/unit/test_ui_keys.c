/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_ui_keys.c: the key table is the one place a key gets its meaning: no code is bound
 * by two rows (the first would silently win and the help screen would list a dead key),
 * every row has a handler and says what it does. And a knob key makes one request whose
 * answer comes back through ui_knob_result(), at once or from a far host, on fake sources. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "tui/after.h"
#include "tui/console/ui.h"

/* A fake source: stores at most FAKE_CAP for pmd.maxsleep_us (as a host may); with
 * async_knobs it only notes what was sent, and answers when the test says so. */
#define FAKE_CAP 700
struct fake {
	int64_t knobs[K_COUNT];
	struct source_knob_result answers[4];
	int nanswers;
};

static int fake_open(struct source *src, const struct source_conf *c, char *err, size_t len)
{
	(void)c, (void)err, (void)len;
	struct fake *f = xcalloc(1, sizeof(*f));
	for (int k = 0; k < K_COUNT; k++)
		f->knobs[k] = knob_table[k].def;
	f->knobs[K_PMD_MAXSLEEP_US] = 300;
	src->priv = f;
	return 0;
}
static int fake_start(struct source *src, char *err, size_t len)
{
	(void)src, (void)err, (void)len;
	return 0;
}
static void fake_sample(struct source *src, struct snapshot *snap)
{
	memcpy(snap->knobs, ((struct fake *)src->priv)->knobs, sizeof(snap->knobs));
}
static int fake_set(struct source *src, enum knob_id id, int64_t v, int64_t *stored, char *err,
		    size_t len)
{
	(void)err, (void)len;
	struct fake *f = src->priv;
	if (src->ops->async_knobs) {
		*stored = v; /* sent; the far side answers later */
		return 0;
	}
	f->knobs[id] = id == K_PMD_MAXSLEEP_US && v > FAKE_CAP ? FAKE_CAP : v;
	*stored = f->knobs[id];
	return 0;
}
static int fake_get(struct source *src, enum knob_id id, int64_t *out)
{
	*out = ((struct fake *)src->priv)->knobs[id];
	return 0;
}
static bool fake_result(struct source *src, struct source_knob_result *out)
{
	struct fake *f = src->priv;
	if (!f->nanswers)
		return false;
	*out = f->answers[0];
	memmove(f->answers, f->answers + 1, (size_t)--f->nanswers * sizeof(*out));
	return true;
}
static void fake_close(struct source *src)
{
	free(src->priv);
}
static const struct source_ops fake_ops = {
    .name = "fake",
    .open = fake_open,
    .start = fake_start,
    .sample = fake_sample,
    .knob_set = fake_set,
    .knob_get = fake_get,
    .close = fake_close,
};
static const struct source_ops fake_far_ops = {
    .name = "fake",
    .open = fake_open,
    .start = fake_start,
    .sample = fake_sample,
    .knob_set = fake_set,
    .knob_get = fake_get,
    .close = fake_close,
    .async_knobs = true,
    .knob_result = fake_result,
};

/* A real machine's source (as the live host): `t` asks first, and needs --write. */
static const struct source_ops fake_machine_ops = {
    .name = "fake",
    .open = fake_open,
    .start = fake_start,
    .sample = fake_sample,
    .knob_set = fake_set,
    .knob_get = fake_get,
    .close = fake_close,
    .writes_machine = true,
};

/* A source without some of the knobs (as the live host has no engine knob). */
static const char *fake_refusal(const struct source *src, enum knob_id id)
{
	(void)src;
	return id == K_GEN_RATE_PPS ? "an engine knob: this source has none" : NULL;
}
static const struct source_ops fake_partial_ops = {
    .name = "fake",
    .open = fake_open,
    .start = fake_start,
    .sample = fake_sample,
    .knob_set = fake_set,
    .knob_get = fake_get,
    .close = fake_close,
    .knob_refusal = fake_refusal,
};

static struct ui *ui_on(const struct source_ops *ops)
{
	char err[256];
	struct ui *ui = xcalloc(1, sizeof(*ui));
	ui->src = source_open(ops, NULL, err, sizeof(err));
	assert_non_null(ui->src);
	assert_int_equal(source_start(ui->src, err, sizeof(err)), 0);
	ui->snap = snapshot_new();
	source_sample(ui->src, ui->snap);
	ui_knobs_refresh(ui);
	return ui;
}

static void ui_off(struct ui *ui)
{
	source_close(ui->src);
	snapshot_free(ui->snap);
	free(ui);
}

/* The loop's part (screen.c): a far host's answers go through ui_knob_result(). */
static int take_answers(struct ui *ui)
{
	struct source_knob_result r;
	int redo = 0;
	while (source_knob_result(ui->src, &r))
		redo |= ui_knob_result(ui, &r);
	return redo;
}

/* F8 in the pmd view on a source answered at once: the stored value is shown, and what the
 * source kept; m (htop's merged command) writes nothing. */
static void test_knob_key_at_once(void **state)
{
	(void)state;
	struct ui *ui = ui_on(&fake_ops);
	ui->view = VIEW_PMD;
	ui_key(ui, 'm');
	assert_int_equal(ui->snap->knobs[K_PMD_MAXSLEEP_US], 300);
	assert_int_equal(ui_key(ui, KEY_F(8)), UI_KNOB | UI_REDRAW);
	assert_int_equal(ui->snap->knobs[K_PMD_MAXSLEEP_US], 500);
	assert_string_equal(ui->status, "pmd.maxsleep_us = 500");
	ui_key(ui, KEY_F(8)); /* 1000 asked, 700 kept */
	assert_int_equal(ui->snap->knobs[K_PMD_MAXSLEEP_US], FAKE_CAP);
	assert_non_null(strstr(ui->status, "the source kept this, not 1000"));
	assert_false(ui->status_err);
	ui_off(ui);
}

/* A start-only knob on a started source: refused (by backends/source.c), the value stays. */
static void test_knob_start_only(void **state)
{
	(void)state;
	struct ui *ui = ui_on(&fake_ops);
	int64_t was = ui->snap->knobs[K_CPU_COUNT];
	assert_int_equal(ui_knob_set(ui, K_CPU_COUNT, was + 1), UI_REDRAW);
	assert_true(ui->status_err);
	assert_non_null(strstr(ui->status, "can only be set at start"));
	assert_int_equal(ui->snap->knobs[K_CPU_COUNT], was);
	ui_off(ui);
}

/* F8 on a far host: "setting", then its answer comes through ui_knob_result() (named by
 * the host), into the snapshot shown; another host's answer (set --all) is only said. */
static void test_knob_key_far(void **state)
{
	(void)state;
	struct ui *ui = ui_on(&fake_far_ops);
	struct fake *f = ui->src->priv;
	ui->view = VIEW_PMD;
	assert_int_equal(ui_key(ui, KEY_F(8)), UI_REDRAW);
	assert_string_equal(ui->status, "setting pmd.maxsleep_us 300 -> 500...");
	assert_int_equal(ui->snap->knobs[K_PMD_MAXSLEEP_US], 300);
	assert_int_equal(take_answers(ui), 0);
	f->answers[f->nanswers++] = (struct source_knob_result){
	    .knob = K_PMD_MAXSLEEP_US, .requested = 500, .stored = 500, .from = "h2"};
	assert_true(take_answers(ui) & UI_REDRAW);
	assert_string_equal(ui->status, "h2: pmd.maxsleep_us = 500");
	assert_int_equal(ui->snap->knobs[K_PMD_MAXSLEEP_US], 500);
	f->answers[f->nanswers++] = (struct source_knob_result){.knob = K_PMD_MAXSLEEP_US,
								.requested = 2000,
								.stored = 2000,
								.elsewhere = true,
								.from = "h3"};
	take_answers(ui);
	assert_string_equal(ui->status, "h3: pmd.maxsleep_us = 2000");
	assert_int_equal(ui->snap->knobs[K_PMD_MAXSLEEP_US], 500);
	f->answers[f->nanswers++] = (struct source_knob_result){.knob = K_PMD_MAXSLEEP_US,
								.rc = KNOB_ERR_RUNTIME,
								.stored = 500,
								.from = "h2",
								.err = "no PMD"};
	take_answers(ui);
	assert_true(ui->status_err);
	assert_string_equal(ui->status, "h2: no PMD (pmd.maxsleep_us stays 500)");
	ui_off(ui);
}

/* F7 in the overview on a source that has no gen.rate_pps: refused with the source's reason,
 * and no value said to stay for a knob the source does not have. */
static void test_knob_key_absent(void **state)
{
	(void)state;
	struct ui *ui = ui_on(&fake_partial_ops);
	ui->view = VIEW_OVERVIEW;
	assert_int_equal(ui_key(ui, KEY_F(7)) & UI_REDRAW, UI_REDRAW);
	assert_true(ui->status_err);
	assert_non_null(strstr(ui->status, "an engine knob: this source has none"));
	assert_null(strstr(ui->status, "stays"));
	ui_off(ui);
}

static void test_codes_unique(void **state)
{
	(void)state;
	for (size_t i = 0; i < ui_nkeydefs; i++) {
		const struct ui_keydef *a = &ui_keydefs[i];
		assert_non_null(a->fn);
		assert_non_null(a->what);
		assert_true(a->codes[0] != 0);
		for (size_t j = 0; j < UI_KEY_CODES && a->codes[j]; j++) {
			assert_ptr_equal(ui_keydef_find(a->codes[j]), a);
			for (size_t k = i + 1; k < ui_nkeydefs; k++)
				for (size_t m = 0; m < UI_KEY_CODES && ui_keydefs[k].codes[m]; m++)
					if (ui_keydefs[k].codes[m] == a->codes[j])
						fail_msg("key %d bound by '%s' and '%s'",
							 a->codes[j], a->keys, ui_keydefs[k].keys);
		}
	}
}

/* o on a real machine: refused without --write, asks first, and every knob it set goes back
 * when it is cancelled or the console quits mid-sweep. */
static void test_tradeoff_machine(void **state)
{
	(void)state;
	struct options o = {0};
	struct ui *ui = ui_on(&fake_machine_ops);
	struct fake *f = ui->src->priv;
	int64_t slack = f->knobs[K_PMD_TIMER_SLACK_NS];
	ui->opt = &o;
	ui->snap->has_pmd = true;
	ui_key(ui, 'o');
	assert_true(ui->status_err);
	assert_non_null(strstr(ui->status, "--write"));
	assert_int_equal(ui->charts.to.state, TRADEOFF_OFF);
	o.write = true;
	ui_key(ui, 'o');
	assert_non_null(strstr(ui->status, "Enter starts"));
	assert_int_equal(ui->charts.to.state, TRADEOFF_OFF);
	ui_key(ui, 'x'); /* not a yes */
	assert_int_equal(ui->charts.to.state, TRADEOFF_OFF);
	ui_key(ui, 'o');
	ui_key(ui, '\r');
	assert_int_equal(ui->charts.to.state, TRADEOFF_RUN);
	assert_int_equal(f->knobs[K_PMD_MAXSLEEP_US], 0); /* the first point */
	ui_key(ui, 27); /* Esc cancels: both back */
	assert_int_equal(ui->charts.to.state, TRADEOFF_OFF);
	assert_int_equal(f->knobs[K_PMD_MAXSLEEP_US], 300);
	assert_int_equal(f->knobs[K_PMD_TIMER_SLACK_NS], slack);
	ui_key(ui, 'o');
	ui_key(ui, '\r');
	assert_int_equal(ui->charts.to.state, TRADEOFF_RUN);
	f->knobs[K_PMD_TIMER_SLACK_NS] = 50000; /* as a later point would */
	ui_tradeoff_quit(ui); /* q mid-sweep */
	assert_int_equal(f->knobs[K_PMD_MAXSLEEP_US], 300);
	assert_int_equal(f->knobs[K_PMD_TIMER_SLACK_NS], slack);
	ui_off(ui);
}

/* The engine is an emulation: o starts at once. */
static void test_tradeoff_engine_at_once(void **state)
{
	(void)state;
	struct ui *ui = ui_on(&fake_ops);
	ui->snap->has_pmd = true;
	ui_key(ui, 'o');
	assert_int_equal(ui->charts.to.state, TRADEOFF_RUN);
	ui_tradeoff_quit(ui);
	assert_int_equal(((struct fake *)ui->src->priv)->knobs[K_PMD_MAXSLEEP_US], 300);
	ui_off(ui);
}

/* The shown snapshot made a blk.irq_cpu_saturated finding (fix blk.rq_affinity=2): fed
 * three times, the rule's k_start (docs/diag.md "Hysteresis"). */
static void diag_saturated(struct ui *ui)
{
	struct snapshot *s = ui->snap;
	((struct fake *)ui->src->priv)->knobs[K_BLK_RQ_AFFINITY] = 0;
	s->knobs[K_BLK_RQ_AFFINITY] = 0;
	s->interval_s = 1;
	s->ncpus = 1;
	s->cpus = xcalloc(1, sizeof(*s->cpus));
	s->cpus[0] = (struct snap_cpu){.id = 0, .online = true, .load_pct = 95};
	s->has_blk = true;
	s->blk.rq_affinity = 0;
	s->blk.iops = 50000;
	s->blk.irq_cpu = 0;
	ui->live = s;
	struct diag_state st;
	diag_init(&st);
	for (int k = 0; k < 3; k++) {
		s->seq = (uint64_t)k + 1;
		after_diagnose(&st, s); /* as every sample the console takes */
		ui_diag_note(ui);
	}
}

/* X on a real machine: refused without --write, asks first, and only Enter sets. */
static void test_diag_fix_machine(void **state)
{
	(void)state;
	struct options o = {0};
	struct ui *ui = ui_on(&fake_machine_ops);
	struct fake *f = ui->src->priv;
	ui->opt = &o;
	diag_saturated(ui);
	ui_key(ui, 'X');
	assert_true(ui->status_err);
	assert_non_null(strstr(ui->status, "--write"));
	assert_int_equal(f->knobs[K_BLK_RQ_AFFINITY], 0);
	o.write = true;
	ui_key(ui, 'X');
	assert_false(ui->status_err);
	assert_non_null(strstr(ui->status, "Enter applies"));
	assert_non_null(strstr(ui->status, "blk.rq_affinity=2"));
	assert_int_equal(f->knobs[K_BLK_RQ_AFFINITY], 0);
	ui_key(ui, 'x'); /* not a yes */
	assert_int_equal(f->knobs[K_BLK_RQ_AFFINITY], 0);
	ui_key(ui, 'X');
	ui_key(ui, '\r');
	assert_int_equal(f->knobs[K_BLK_RQ_AFFINITY], 2);
	ui_off(ui);
}

/* The engine is an emulation: X sets at once; D lists, Esc closes; no finding, no write. */
static void test_diag_fix_engine(void **state)
{
	(void)state;
	struct options o = {0};
	struct ui *ui = ui_on(&fake_ops);
	struct fake *f = ui->src->priv;
	ui->opt = &o;
	ui->live = ui->snap;
	ui_diag_note(ui);
	ui_key(ui, 'X');
	assert_true(ui->status_err);
	assert_non_null(strstr(ui->status, "no active finding"));
	diag_saturated(ui);
	ui_key(ui, 'D');
	assert_true(ui->diag_list);
	ui_key(ui, 27);
	assert_false(ui->diag_list);
	ui_key(ui, 'X');
	assert_int_equal(f->knobs[K_BLK_RQ_AFFINITY], 2);
	ui_off(ui);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_knob_key_absent),
	    cmocka_unit_test(test_codes_unique),
	    cmocka_unit_test(test_knob_key_at_once),
	    cmocka_unit_test(test_knob_start_only),
	    cmocka_unit_test(test_knob_key_far),
	    cmocka_unit_test(test_tradeoff_machine),
	    cmocka_unit_test(test_tradeoff_engine_at_once),
	    cmocka_unit_test(test_diag_fix_machine),
	    cmocka_unit_test(test_diag_fix_engine),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
