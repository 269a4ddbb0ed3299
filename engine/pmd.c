/* pmd.c: placeholder for the pmd subsystem until its issue lands (starts nothing). */
#include "engine.h"

static int pmd_start(struct engine *eng, char *err, size_t errlen)
{
	(void)eng;
	(void)err;
	(void)errlen;
	return 0;
}

static void pmd_stop(struct engine *eng)
{
	(void)eng;
}

static void pmd_sample(struct engine *eng, struct snapshot *snap, uint64_t now_ns)
{
	(void)eng;
	(void)snap;
	(void)now_ns;
}

int pmd_knob_apply(struct engine *eng, enum knob_id id, int64_t old, char *err, size_t errlen)
{
	(void)eng;
	(void)id;
	(void)old;
	(void)err;
	(void)errlen;
	return 0;
}

const struct subsys_ops pmd_ops = {
	.name = "pmd",
	.id = SUBSYS_PMD,
	.start = pmd_start,
	.stop = pmd_stop,
	.sample = pmd_sample,
};
