/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host_tscomm.c: thread names from TASKSTATS_CMD_GET, HOST_TSCOMM_BATCH requests in one
 * sendmsg and a recv per reply into one buffer. A thread's name was an open, read and close
 * of /proc/PID/task/TID/comm, each open allocating the file's dentry, inode, file and seq
 * buffer: at 5000 host threads most of the host scan's start-up and of each full rescan,
 * for names most of which pick nothing. The family is resolved through libnl; the requests
 * and replies are built and parsed here (libnl allocates a message per request and peeks
 * at each reply's size before reading it).
 */
#include "backends/host/host_tscomm.h"

#include <errno.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/taskstats.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "core/xalloc.h"

/* Requests per sendmsg: their replies wait in the socket's receive buffer (208 KB by
 * default) until read; 64 overflowed it here (ENOBUFS: each reply's buffer takes more than
 * 3 KB of it), 16 leave it three quarters free. */
#define HOST_TSCOMM_BATCH 16
/* A reply is immediate; a stuck socket must not stall the scan. */
#define HOST_TSCOMM_TIMEOUT_MS 200

struct host_tscomm {
	struct nl_sock *sk;
	int fd;
	int family;
	uint32_t seq; /* of the next request */
};

/* One request: the netlink and genetlink headers and the PID attribute. */
struct tscomm_req {
	struct nlmsghdr nh;
	struct genlmsghdr gh;
	struct nlattr na;
	uint32_t pid;
};

struct host_tscomm *host_tscomm_open(void)
{
	struct host_tscomm *tc = xcalloc(1, sizeof(*tc));
	tc->sk = nl_socket_alloc();
	if (!tc->sk)
		goto fail;
	nl_socket_disable_auto_ack(tc->sk);
	if (genl_connect(tc->sk) < 0 ||
	    (tc->family = genl_ctrl_resolve(tc->sk, TASKSTATS_GENL_NAME)) < 0)
		goto fail;
	tc->fd = nl_socket_get_fd(tc->sk);
	struct timeval tv = {.tv_sec = 0, .tv_usec = HOST_TSCOMM_TIMEOUT_MS * 1000};
	setsockopt(tc->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	tc->seq = 1;
	/* Probe with ourselves: TASKSTATS_CMD_GET needs CAP_NET_ADMIN. */
	pid_t self = getpid();
	char c[1][HOST_TSCOMM_LEN];
	bool ok = false;
	if (host_tscomm_get(tc, &self, 1, c, &ok) != 0 || !ok)
		goto fail;
	return tc;
fail:
	if (tc->sk)
		nl_socket_free(tc->sk);
	free(tc);
	return NULL;
}

void host_tscomm_close(struct host_tscomm *tc)
{
	if (!tc)
		return;
	nl_socket_free(tc->sk);
	free(tc);
}

/* ac_comm and the accounting out of a reply's attributes: AGGR_PID nests PID and STATS
 * (a NULL pad maybe). The kernel's struct may be older or newer than ours: the name needs
 * the fields up to it, the rest is copied as far as both have it. */
static bool reply_parse(const struct nlmsghdr *nh, char *comm, struct host_ts_acct *acct)
{
	const char *p = (const char *)NLMSG_DATA(nh) + GENL_HDRLEN;
	const char *e = (const char *)nh + nh->nlmsg_len;
	while (e - p >= NLA_HDRLEN) {
		const struct nlattr *a = (const struct nlattr *)p;
		if (a->nla_len < NLA_HDRLEN || a->nla_len > e - p)
			return false;
		int type = a->nla_type & NLA_TYPE_MASK;
		if (type == TASKSTATS_TYPE_AGGR_PID || type == TASKSTATS_TYPE_AGGR_TGID) {
			e = p + a->nla_len; /* into the nest */
			p += NLA_HDRLEN;
			continue;
		}
		if (type == TASKSTATS_TYPE_STATS) {
			size_t len = a->nla_len - NLA_HDRLEN;
			size_t off = offsetof(struct taskstats, ac_comm);
			if (len < off + HOST_TSCOMM_LEN)
				return false;
			struct taskstats st;
			memset(&st, 0, sizeof(st));
			memcpy(&st, p + NLA_HDRLEN, len < sizeof(st) ? len : sizeof(st));
			memcpy(comm, st.ac_comm, HOST_TSCOMM_LEN);
			comm[HOST_TSCOMM_LEN - 1] = '\0';
			/* As host_taskstats.c reads them (cpu_run_virtual_total: sum_exec_runtime).
			 */
			acct->cpu_run_ns = st.cpu_run_virtual_total;
			acct->cpu_delay_ns = st.cpu_delay_total;
			acct->blkio_delay_ns = st.blkio_delay_total;
			acct->nvcsw = st.nvcsw;
			acct->nivcsw = st.nivcsw;
			return true;
		}
		p += NLA_ALIGN(a->nla_len);
	}
	return false;
}

/* One batch: n requests (n <= HOST_TSCOMM_BATCH) sent at once, their n answers read; attr
 * TASKSTATS_CMD_ATTR_PID (a thread's) or _TGID (a process's, its threads summed). */
static int tscomm_batch(struct host_tscomm *tc, const pid_t *tids, size_t n,
			char (*comm)[HOST_TSCOMM_LEN], struct host_ts_acct *acct, bool *ok,
			uint16_t attr)
{
	char cbuf[HOST_TSCOMM_BATCH][HOST_TSCOMM_LEN];
	struct host_ts_acct abuf[HOST_TSCOMM_BATCH];
	struct tscomm_req req[HOST_TSCOMM_BATCH];
	uint32_t seq0 = tc->seq;
	memset(req, 0, sizeof(req[0]) * n);
	for (size_t i = 0; i < n; i++) {
		req[i].nh.nlmsg_len = sizeof(req[i]);
		req[i].nh.nlmsg_type = (uint16_t)tc->family;
		req[i].nh.nlmsg_flags = NLM_F_REQUEST;
		req[i].nh.nlmsg_seq = seq0 + (uint32_t)i;
		req[i].gh.cmd = TASKSTATS_CMD_GET;
		req[i].gh.version = TASKSTATS_GENL_VERSION;
		req[i].na.nla_len = NLA_HDRLEN + sizeof(uint32_t);
		req[i].na.nla_type = attr;
		req[i].pid = (uint32_t)tids[i];
		ok[i] = false;
	}
	tc->seq += (uint32_t)n;
	struct sockaddr_nl kernel = {.nl_family = AF_NETLINK};
	ssize_t len = (ssize_t)(sizeof(req[0]) * n);
	if (sendto(tc->fd, req, (size_t)len, 0, (struct sockaddr *)&kernel, sizeof(kernel)) != len)
		return -1;
	/* One reply or error per request, in order; one left from a batch given up on (its
	 * seq before seq0) is skipped. */
	union {
		char b[8192];
		struct nlmsghdr align;
	} buf;
	size_t answered = 0;
	while (answered < n) {
		ssize_t r = recv(tc->fd, buf.b, sizeof(buf.b), 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		/* NLMSG_OK and NLMSG_NEXT's walk, with the lengths unsigned throughout (the
		 * macros compare __u32 with int, which clang's -Wsign-compare refuses). */
		size_t left = (size_t)r;
		struct nlmsghdr *nh = &buf.align;
		while (left >= sizeof(*nh) && nh->nlmsg_len >= sizeof(*nh) &&
		       nh->nlmsg_len <= left) {
			uint32_t k = nh->nlmsg_seq - seq0;
			if (k < n) {
				answered++;
				if (nh->nlmsg_type == tc->family)
					ok[k] = reply_parse(nh, comm ? comm[k] : cbuf[k],
							    acct ? &acct[k] : &abuf[k]);
			}
			size_t step = NLMSG_ALIGN(nh->nlmsg_len);
			if (step >= left)
				break;
			left -= step;
			nh = (struct nlmsghdr *)((char *)nh + step);
		}
	}
	return 0;
}

/* Batches of n threads' answers: comm or acct may be NULL (not wanted). */
static int tscomm_many(struct host_tscomm *tc, const pid_t *tids, size_t n,
		       char (*comm)[HOST_TSCOMM_LEN], struct host_ts_acct *acct, bool *ok,
		       uint16_t attr)
{
	for (size_t i = 0; i < n; i += HOST_TSCOMM_BATCH) {
		size_t m = n - i < HOST_TSCOMM_BATCH ? n - i : HOST_TSCOMM_BATCH;
		if (tscomm_batch(tc, tids + i, m, comm ? comm + i : NULL, acct ? acct + i : NULL,
				 ok + i, attr) != 0) {
			for (size_t j = i + m; j < n; j++)
				ok[j] = false;
			return -1;
		}
	}
	return 0;
}

int host_tscomm_get(struct host_tscomm *tc, const pid_t *tids, size_t n,
		    char (*comm)[HOST_TSCOMM_LEN], bool *ok)
{
	return tscomm_many(tc, tids, n, comm, NULL, ok, TASKSTATS_CMD_ATTR_PID);
}

int host_tscomm_acct(struct host_tscomm *tc, const pid_t *tids, size_t n, struct host_ts_acct *out,
		     bool *ok)
{
	for (size_t i = 0; i < n; i++)
		memset(&out[i], 0, sizeof(out[i]));
	return tscomm_many(tc, tids, n, NULL, out, ok, TASKSTATS_CMD_ATTR_PID);
}

int host_tscomm_tgid_acct(struct host_tscomm *tc, const pid_t *pids, size_t n,
			  struct host_ts_acct *out, bool *ok)
{
	for (size_t i = 0; i < n; i++)
		memset(&out[i], 0, sizeof(out[i]));
	return tscomm_many(tc, pids, n, NULL, out, ok, TASKSTATS_CMD_ATTR_TGID);
}
