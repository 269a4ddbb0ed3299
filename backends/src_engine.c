/* src_engine.c: the embedded engine as a source (the default): the engine does the work,
 * this file only adapts its calls and gives it the machine's topology and cpufreq. */
#include <stdlib.h>

#include "backends/hostfreq.h"
#include "backends/source.h"
#include "backends/topology.h"
#include "core/xalloc.h"
#include "engine/engine.h"

static int src_engine_topo(struct engine_host_cpu **out)
{
	struct topo_cpu *t;
	int n = topo_probe(&t);
	*out = xcalloc((size_t)n, sizeof(**out));
	for (int i = 0; i < n; i++) {
		(*out)[i].node = t[i].node;
		(*out)[i].llc = t[i].llc;
	}
	free(t);
	return n;
}

/* The machine behind the engine: libnuma topology, libcpupower when a policy exists. */
static const struct engine_platform src_engine_platform = {
    .topo_probe = src_engine_topo,
    .cpufreq_available = hostfreq_available,
    .cpufreq_governor = hostfreq_governor,
    .cpufreq_set_governor = hostfreq_set_governor,
};

static int src_engine_open(struct source *src, const struct source_conf *conf, char *err,
			   size_t errlen)
{
	(void)conf;
	(void)err;
	(void)errlen;
	struct engine *eng = engine_new();
	eng->platform = &src_engine_platform;
	src->priv = eng;
	return 0;
}

static int src_engine_start(struct source *src, char *err, size_t errlen)
{
	return engine_start(src->priv, err, errlen);
}

static void src_engine_sample(struct source *src, struct snapshot *snap)
{
	engine_sample(src->priv, snap);
}

static int src_engine_knob_set(struct source *src, enum knob_id id, int64_t v, int64_t *stored,
			       char *err, size_t errlen)
{
	struct engine *eng = src->priv;
	int rc = engine_knob_set_value(eng, id, v, err, errlen);
	*stored = engine_knob(eng, id);
	return rc;
}

static int src_engine_knob_get(struct source *src, enum knob_id id, int64_t *out)
{
	*out = engine_knob(src->priv, id);
	return 0;
}

static const char *src_engine_knob_refusal(const struct source *src, enum knob_id id)
{
	(void)src;
	return id == K_HOST_PID ? "only the host source follows a process (--host)" : NULL;
}

static void src_engine_close(struct source *src)
{
	engine_free(src->priv);
	src->priv = NULL;
}

const struct source_ops source_engine_ops = {
    .name = "engine",
    .open = src_engine_open,
    .start = src_engine_start,
    .sample = src_engine_sample,
    .knob_set = src_engine_knob_set,
    .knob_get = src_engine_knob_get,
    .knob_refusal = src_engine_knob_refusal,
    .close = src_engine_close,
};
