/* host_snap.h: the host section of a snapshot (present with --backend host). */
#ifndef TT_HOST_SNAP_H
#define TT_HOST_SNAP_H

#include <stdbool.h>
#include <stdint.h>

struct host_snap {
	bool cpufreq;       /* a cpufreq policy was found */
	bool taskstats;     /* per-thread accounting through TASKSTATS */
	bool ovs;           /* an Open vSwitch unixctl socket answered */
};

#endif
