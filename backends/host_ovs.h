/* host_ovs.h: a client of ovs-vswitchd's unixctl socket (docs/pmd.md §6, docs/pmd.md §12). */
#ifndef TT_HOST_OVS_H
#define TT_HOST_OVS_H

#include <stdbool.h>
#include <stddef.h>

#include "backends/host_ovsparse.h"

struct host_ovs;

/*
 * Find the control socket: path when given (TUNETOP_OVS_SOCKET), else
 * <rundir>/ovs-vswitchd.<pid>.ctl with rundir from OVS_RUNDIR or
 * /var/run/openvswitch and pid from <rundir>/ovs-vswitchd.pid. NULL with a
 * reason when there is none (OVS absent is not an error of tunetop).
 */
struct host_ovs *host_ovs_open(const char *path, char *err, size_t errlen);
void host_ovs_close(struct host_ovs *o);
const char *host_ovs_path(const struct host_ovs *o);

/*
 * One command: a malloc'd result text in *result, 0; 1 when the server
 * answered with an error (its text in err); -1 when the socket failed (err).
 * Waits at most HOST_OVS_TIMEOUT_MS for the reply.
 */
int host_ovs_call(struct host_ovs *o, const char *method, const char *const *params, int nparams,
		  char **result, char *err, size_t errlen);

/*
 * Set the PMD max sleep through the ovsdb (docs/pmd.md §3): key pmd-sleep-max
 * on 3.2+ (where pmd-sleep-show exists), pmd-maxsleep on 3.1. Runs ovs-vsctl
 * with the db.sock beside the control socket. -1 with a message on failure.
 */
int host_ovs_set_maxsleep(struct host_ovs *o, int us, bool new_key, char *err, size_t errlen);

#endif
