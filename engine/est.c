/* est.c: placeholder for the est subsystem until its issue lands (starts nothing). */
#include "engine.h"

static int est_start(struct engine *eng, char *err, size_t errlen)
{
	(void)eng;
	(void)err;
	(void)errlen;
	return 0;
}

static void est_stop(struct engine *eng)
{
	(void)eng;
}

static void est_sample(struct engine *eng, struct snapshot *snap, uint64_t now_ns)
{
	(void)eng;
	(void)snap;
	(void)now_ns;
}

int est_knob_apply(struct engine *eng, enum knob_id id, int64_t old, char *err, size_t errlen)
{
	(void)eng;
	(void)id;
	(void)old;
	(void)err;
	(void)errlen;
	return 0;
}

const struct subsys_ops est_ops = {
	.name = "est",
	.id = SUBSYS_EST,
	.start = est_start,
	.stop = est_stop,
	.sample = est_sample,
};
