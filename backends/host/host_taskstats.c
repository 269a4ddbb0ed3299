/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host_taskstats.c: TASKSTATS_CMD_GET per thread over libnl-genl-3. */
#include "backends/host/host_taskstats.h"

#include <errno.h>
#include <linux/taskstats.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/xalloc.h"

/* A reply is immediate; a stuck socket must not stall the refresh. */
#define HOST_TS_TIMEOUT_MS 200
/* The receive buffer: a TASKSTATS reply (struct taskstats, 400-odd bytes, in two nested
 * attributes) with room for a kernel's larger struct. */
#define HOST_TS_MSG_BUF 8192

struct host_ts {
	struct nl_sock *sk;
	int family;
};

struct ts_reply {
	struct host_ts_acct *out;
	bool got;
};

static int ts_on_valid(struct nl_msg *msg, void *arg)
{
	struct ts_reply *r = arg;
	struct nlattr *attrs[TASKSTATS_TYPE_MAX + 1], *nested[TASKSTATS_TYPE_MAX + 1];

	if (genlmsg_parse(nlmsg_hdr(msg), 0, attrs, TASKSTATS_TYPE_MAX, NULL) < 0)
		return NL_SKIP;
	struct nlattr *aggr = attrs[TASKSTATS_TYPE_AGGR_PID] ? attrs[TASKSTATS_TYPE_AGGR_PID]
							     : attrs[TASKSTATS_TYPE_AGGR_TGID];
	if (!aggr || nla_parse_nested(nested, TASKSTATS_TYPE_MAX, aggr, NULL) < 0 ||
	    !nested[TASKSTATS_TYPE_STATS])
		return NL_SKIP;
	/* The kernel's struct may be older or newer than ours: copy what both have. */
	struct taskstats st;
	memset(&st, 0, sizeof(st));
	size_t n = (size_t)nla_len(nested[TASKSTATS_TYPE_STATS]);
	memcpy(&st, nla_data(nested[TASKSTATS_TYPE_STATS]), n < sizeof(st) ? n : sizeof(st));
	/* cpu_run_virtual_total is sum_exec_runtime (ns exact); the "real" one is
	 * utime + stime, tick-granular without VIRT_CPU_ACCOUNTING. */
	r->out->cpu_run_ns = st.cpu_run_virtual_total;
	r->out->cpu_delay_ns = st.cpu_delay_total;
	r->out->blkio_delay_ns = st.blkio_delay_total;
	r->out->nvcsw = st.nvcsw;
	r->out->nivcsw = st.nivcsw;
	r->got = true;
	return NL_OK;
}

struct host_ts *host_ts_open(char *err, size_t errlen)
{
	struct host_ts *ts = xcalloc(1, sizeof(*ts));
	int rc;

	ts->sk = nl_socket_alloc();
	if (!ts->sk) {
		snprintf(err, errlen, "taskstats: cannot allocate a netlink socket");
		free(ts);
		return NULL;
	}
	/* One reply per request and no ACK: an ACK arriving later would be read as
	 * the answer to the next query. Errors still come back as NLMSG_ERROR. */
	nl_socket_disable_auto_ack(ts->sk);
	/* A reply is a few hundred bytes: read it in one recvmsg into a buffer that holds it,
	 * not a peek for its size and then the read (libnl's default), two per thread. */
	nl_socket_disable_msg_peek(ts->sk);
	nl_socket_set_msg_buf_size(ts->sk, HOST_TS_MSG_BUF);
	if ((rc = genl_connect(ts->sk)) < 0) {
		snprintf(err, errlen, "taskstats: genl_connect: %s", nl_geterror(rc));
		goto fail;
	}
	ts->family = genl_ctrl_resolve(ts->sk, TASKSTATS_GENL_NAME);
	if (ts->family < 0) {
		snprintf(err, errlen,
			 "taskstats: no %s genetlink family (kernel without TASKSTATS)",
			 TASKSTATS_GENL_NAME);
		goto fail;
	}
	struct timeval tv = {.tv_sec = 0, .tv_usec = HOST_TS_TIMEOUT_MS * 1000};
	setsockopt(nl_socket_get_fd(ts->sk), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	/* Probe with ourselves: TASKSTATS_CMD_GET needs CAP_NET_ADMIN. */
	struct host_ts_acct a;
	if (host_ts_query(ts, getpid(), &a, err, errlen) != 0)
		goto fail;
	return ts;
fail:
	nl_socket_free(ts->sk);
	free(ts);
	return NULL;
}

void host_ts_close(struct host_ts *ts)
{
	if (!ts)
		return;
	nl_socket_free(ts->sk);
	free(ts);
}

int host_ts_query(struct host_ts *ts, pid_t tid, struct host_ts_acct *out, char *err, size_t errlen)
{
	struct ts_reply r = {.out = out, .got = false};
	struct nl_msg *msg = nlmsg_alloc();
	int rc;

	memset(out, 0, sizeof(*out));
	if (!msg) {
		snprintf(err, errlen, "taskstats: out of memory");
		return -1;
	}
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, ts->family, 0, NLM_F_REQUEST,
			 TASKSTATS_CMD_GET, TASKSTATS_VERSION) ||
	    nla_put_u32(msg, TASKSTATS_CMD_ATTR_PID, (uint32_t)tid) < 0) {
		nlmsg_free(msg);
		snprintf(err, errlen, "taskstats: cannot build the request");
		return -1;
	}
	rc = nl_send_auto(ts->sk, msg);
	nlmsg_free(msg);
	if (rc < 0) {
		snprintf(err, errlen, "taskstats: send: %s", nl_geterror(rc));
		return -1;
	}
	nl_socket_modify_cb(ts->sk, NL_CB_VALID, NL_CB_CUSTOM, ts_on_valid, &r);
	rc = nl_recvmsgs_default(ts->sk);
	if (rc < 0 || !r.got) {
		snprintf(err, errlen, "taskstats: thread %d: %s%s", (int)tid,
			 rc < 0 ? nl_geterror(rc) : "no statistics in the reply",
			 rc == -NLE_PERM ? " (needs root)" : "");
		return -1;
	}
	return 0;
}
