/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host_rpc.h: a JSON-RPC 1.0 client on a unix socket where every operation has a deadline. */
#ifndef TT_HOST_RPC_H
#define TT_HOST_RPC_H

#include <jansson.h>
#include <stdbool.h>
#include <sys/types.h>
#include <stddef.h>

/* Connecting waits at most this long: a listener that never accepts costs no more. */
#define HOST_RPC_CONNECT_MS 200
/* A reply larger than this is refused (pmd-perf-show is ~7 kB a PMD, docs/pmd.md §10). */
#define HOST_RPC_MAX_REPLY (2u << 20)

struct host_rpc;

/* A client of the socket at path (not connected yet). timeout_ms bounds one call. */
struct host_rpc *host_rpc_new(const char *path, int timeout_ms);
void host_rpc_free(struct host_rpc *r);
/* Point the client at another socket (a restarted daemon): the connection is dropped. */
void host_rpc_set_path(struct host_rpc *r, const char *path);
const char *host_rpc_path(const struct host_rpc *r);
/* Connect now (non-blocking, at most HOST_RPC_CONNECT_MS): 0, or -1 with err. */
int host_rpc_connect(struct host_rpc *r, char *err, size_t errlen);
/* errno of the last failed connect (ENOENT, ECONNREFUSED: the daemon is gone), else 0. */
int host_rpc_connect_errno(const struct host_rpc *r);
bool host_rpc_connected(const struct host_rpc *r);
/* The pid of the process listening on the socket, from the kernel (SO_PEERCRED) at the last
 * connect that succeeded; 0 before any. */
pid_t host_rpc_peer_pid(const struct host_rpc *r);

/*
 * One request: method with params (an array, stolen). Connects first when not
 * connected. Everything (connect, send, the whole reply) ends within the call's
 * deadline. Returns 0 with the "result" in *result (caller decrefs), 1 when the
 * server answered an error (its text in err), -1 when the socket failed, the
 * deadline passed, the reply was garbage or larger than HOST_RPC_MAX_REPLY (err
 * says which; the connection is dropped so a late reply is never taken for the
 * next one's).
 */
int host_rpc_call(struct host_rpc *r, const char *method, json_t *params, json_t **result,
		  char *err, size_t errlen);

#endif
