/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host_ovs.h: a client of ovs-vswitchd's unixctl socket (docs/pmd.md §6, docs/pmd.md §12). */
#ifndef TT_HOST_OVS_H
#define TT_HOST_OVS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "backends/host/ovs/host_ovsparse.h"

struct host_ovs;

/*
 * Find the control socket: path when given (TUNETOP_OVS_SOCKET), else
 * <rundir>/ovs-vswitchd.<pid>.ctl with rundir from OVS_RUNDIR or
 * /var/run/openvswitch and pid from <rundir>/ovs-vswitchd.pid. A given path
 * named <dir>/<name>.<pid>.ctl is followed through <dir>/<name>.pid after a
 * restart, as ovs-appctl -t does. NULL with a reason when there is none (OVS
 * absent is not an error of tunetop), errno then ENOENT or ECONNREFUSED when no daemon
 * is there now (no socket, no pidfile, nobody listening) and another value when the socket
 * itself is wrong. Connecting waits HOST_RPC_CONNECT_MS at most.
 */
struct host_ovs *host_ovs_open(const char *path, char *err, size_t errlen);
void host_ovs_close(struct host_ovs *o);
const char *host_ovs_path(const struct host_ovs *o);
/* The ovs-vswitchd behind the socket: its pid from the kernel once connected (a second
 * daemon on the host may name its PMDs alike), else from the socket's name; 0 if unknown. */
pid_t host_ovs_pid(const struct host_ovs *o);
/*
 * What became of the ovs-vswitchd tunetop talks to between two samples: was_pid the last one
 * that answered (0: none yet), was_up whether it answered at the last sample; pid and up the
 * same now. Stopped: it answered and no longer does; restarted: another pid answers; back: the
 * same pid answers again after it stopped (SIGSTOP, a stall). Pure.
 */
enum host_ovs_turn { HOST_OVS_SAME, HOST_OVS_STOPPED, HOST_OVS_RESTARTED, HOST_OVS_BACK };
enum host_ovs_turn host_ovs_turn(pid_t was_pid, bool was_up, pid_t pid, bool up);
/* The ovsdb socket: TUNETOP_OVS_DB ("unix:PATH" or PATH), else db.sock beside the control socket.
 */
void host_ovs_db_path(const struct host_ovs *o, char *out, size_t outlen);
/* "<dir>/<name>.<digits>.ctl" into dir and name; false for any other path. Pure. */
bool host_ovs_split_pid_path(const char *path, char *dir, size_t dirlen, char *name,
			     size_t namelen);

/*
 * One command: a malloc'd result text in *result, 0; 1 when the server
 * answered with an error (its text in err); -1 when the socket failed (err).
 * Everything ends within HOST_OVS_TIMEOUT_MS.
 */
int host_ovs_call(struct host_ovs *o, const char *method, const char *const *params, int nparams,
		  char **result, char *err, size_t errlen);

#endif
