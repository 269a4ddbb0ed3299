/* host.c: placeholder for the live-host backend until its work lands. */
#include "host.h"

#include <stdio.h>

struct host_state *host_open(char *err, size_t errlen)
{
	snprintf(err, errlen, "the host backend is not built yet");
	return NULL;
}

void host_close(struct host_state *h)
{
	(void)h;
}

void host_sample(struct host_state *h, struct snapshot *snap, uint64_t now_ns)
{
	(void)h;
	(void)snap;
	(void)now_ns;
}

int host_knob_apply(struct host_state *h, enum knob_id id, int64_t value, char *err,
		    size_t errlen)
{
	(void)h;
	(void)id;
	(void)value;
	snprintf(err, errlen, "not available on the host backend");
	return KNOB_ERR_RUNTIME;
}
