/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host_link.h: per-interface packet and drop counters from rtnetlink (libnl-route-3, in the
 * module tunetop-link.so: backends/host/link_module.h). */
#ifndef TT_HOST_LINK_H
#define TT_HOST_LINK_H

#include <stddef.h>
#include <stdint.h>

struct host_links;

struct host_link_stat {
	char name[16];
	int ifindex;
	uint64_t rx_packets, tx_packets, rx_dropped, tx_dropped;
};

struct host_links *host_link_open(char *err, size_t errlen); /* NULL with a reason */
void host_link_close(struct host_links *l);
/* Refresh and copy up to max links into out (ifindex order); -1 with a message. */
int host_link_read(struct host_links *l, struct host_link_stat *out, int max, char *err,
		   size_t errlen);

#endif
