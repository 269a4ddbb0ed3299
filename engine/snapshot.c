/* snapshot.c: allocation of snapshots. */
#include "snapshot.h"

#include <stdlib.h>

#include "xalloc.h"

struct snapshot *snapshot_new(void)
{
	return xcalloc(1, sizeof(struct snapshot));
}

void snapshot_free(struct snapshot *s)
{
	if (!s)
		return;
	free(s->cpus);
	free(s->threads);
	free(s);
}
