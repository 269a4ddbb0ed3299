/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host_link_mod.c: the link module tunetop-link.so: the link cache of libnl-route-3,
 * refilled at every sample (backends/host/link_module.h). */
#include "backends/host/link_module.h"

#include <netlink/netlink.h>
#include <netlink/route/link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct host_links {
	struct nl_sock *sk;
	struct nl_cache *cache;
};

static struct host_links *mod_open(char *err, size_t errlen)
{
	struct host_links *l = calloc(1, sizeof(*l));
	int rc;

	if (!l) {
		snprintf(err, errlen, "rtnetlink: out of memory");
		return NULL;
	}
	l->sk = nl_socket_alloc();
	if (!l->sk) {
		snprintf(err, errlen, "rtnetlink: cannot allocate a socket");
		free(l);
		return NULL;
	}
	if ((rc = nl_connect(l->sk, NETLINK_ROUTE)) < 0 ||
	    (rc = rtnl_link_alloc_cache(l->sk, AF_UNSPEC, &l->cache)) < 0) {
		snprintf(err, errlen, "rtnetlink: %s", nl_geterror(rc));
		nl_socket_free(l->sk);
		free(l);
		return NULL;
	}
	return l;
}

static void mod_close(struct host_links *l)
{
	if (!l)
		return;
	nl_cache_free(l->cache);
	nl_socket_free(l->sk);
	free(l);
}

static int mod_read(struct host_links *l, struct host_link_stat *out, int max, char *err,
		    size_t errlen)
{
	int rc = nl_cache_refill(l->sk, l->cache), n = 0;
	if (rc < 0) {
		snprintf(err, errlen, "rtnetlink: %s", nl_geterror(rc));
		return -1;
	}
	for (struct nl_object *o = nl_cache_get_first(l->cache); o && n < max;
	     o = nl_cache_get_next(o)) {
		struct rtnl_link *link = (struct rtnl_link *)o;
		struct host_link_stat *s = &out[n++];
		const char *name = rtnl_link_get_name(link);
		snprintf(s->name, sizeof(s->name), "%s", name ? name : "?");
		s->ifindex = rtnl_link_get_ifindex(link);
		s->rx_packets = rtnl_link_get_stat(link, RTNL_LINK_RX_PACKETS);
		s->tx_packets = rtnl_link_get_stat(link, RTNL_LINK_TX_PACKETS);
		s->rx_dropped = rtnl_link_get_stat(link, RTNL_LINK_RX_DROPPED);
		s->tx_dropped = rtnl_link_get_stat(link, RTNL_LINK_TX_DROPPED);
	}
	return n;
}

const struct link_module tunetop_link_module = {
    .abi = LINK_MODULE_ABI,
    .open = mod_open,
    .close = mod_close,
    .read = mod_read,
};
