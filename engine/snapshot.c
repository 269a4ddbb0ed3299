/* snapshot.c: allocation of snapshots. */
#include "snapshot.h"

#include <stdlib.h>
#include <string.h>

#include "cpu_model.h"

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

const char *snapshot_governor_name(const struct snapshot *s)
{
	if (s->governor >= 0 && s->governor < GOV_COUNT)
		return cpu_governor_name(s->governor);
	if (s->has_host && s->host.governor[0])
		return s->host.governor;
	return "none";
}

const char *snapshot_governor_source(const struct snapshot *s)
{
	return s->governor_absent ? "none" : s->governor_emulated ? "emulated" : "cpufreq";
}

bool snapshot_absent(const struct snapshot *s, const char *field)
{
	if (!s->has_host)
		return false;
	for (int i = 0; i < s->host.nabsent; i++) {
		size_t n = strlen(s->host.absent[i]);
		if (strncmp(field, s->host.absent[i], n) == 0 && (field[n] == '\0' || field[n] == '.'))
			return true;
	}
	return false;
}
