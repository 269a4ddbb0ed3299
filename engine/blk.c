/* blk.c: placeholder for the blk subsystem until its issue lands (starts nothing). */
#include "engine.h"

static int blk_start(struct engine *eng, char *err, size_t errlen)
{
	(void)eng;
	(void)err;
	(void)errlen;
	return 0;
}

static void blk_stop(struct engine *eng)
{
	(void)eng;
}

static void blk_sample(struct engine *eng, struct snapshot *snap, uint64_t now_ns)
{
	(void)eng;
	(void)snap;
	(void)now_ns;
}

int blk_knob_apply(struct engine *eng, enum knob_id id, int64_t old, char *err, size_t errlen)
{
	(void)eng;
	(void)id;
	(void)old;
	(void)err;
	(void)errlen;
	return 0;
}

const struct subsys_ops blk_ops = {
	.name = "blk",
	.id = SUBSYS_BLK,
	.start = blk_start,
	.stop = blk_stop,
	.sample = blk_sample,
};
