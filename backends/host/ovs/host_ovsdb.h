/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host_ovsdb.h: ovsdb-server over its JSON-RPC socket (RFC 7047 "transact"), no ovs-vsctl. */
#ifndef TT_HOST_OVSDB_H
#define TT_HOST_OVSDB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/snap_host.h"

#define HOST_OVSDB_MAX_IFACES 64

struct host_ovsdb;

/* An Interface row's statistics (ovs-vsctl list Interface); -1: the key is not there. */
struct host_ovsdb_iface {
	char name[32];
	int64_t rx_dropped, tx_dropped, rx_errors, tx_errors, rx_packets, tx_packets;
	int64_t drops[HOST_IFACE_NDROPS]; /* the keys of host_iface_drop_names, -1 not there */
};

struct host_ovsdb_read {
	bool has_key; /* other_config:<key> is set */
	char value[128];
	/* Open_vSwitch cur_cfg and next_cfg: ovs-vswitchd has reconfigured with everything
	 * written up to cur_cfg; -1 when the row has none. */
	int64_t cur_cfg, next_cfg;
	int nifaces;
	struct host_ovsdb_iface iface[HOST_OVSDB_MAX_IFACES];
};

/* A client of the ovsdb socket at path (connected on first use, every call bounded). */
struct host_ovsdb *host_ovsdb_new(const char *path);
void host_ovsdb_free(struct host_ovsdb *db);
void host_ovsdb_set_path(struct host_ovsdb *db, const char *path);

/* One transact: Open_vSwitch other_config:key and every Interface's statistics. 0 or -1 (err). */
int host_ovsdb_read(struct host_ovsdb *db, const char *key, struct host_ovsdb_read *out, char *err,
		    size_t errlen);

/*
 * Set the default max sleep in other_config:key to us: with list (3.3's pmd-sleep-max)
 * keeping any per-PMD entries ("50,8:0" -> "60,8:0"), else the one number. Atomic against a change
 * made meanwhile (an RFC 7047 "wait" on the map just read), and next_cfg raised by one in the same
 * transaction. 0 with the value written in written and the new next_cfg in *cfg (-1 if ovsdb did
 * not say): ovs-vswitchd has taken the write once cur_cfg reaches it. -1 with err (nothing
 * changed).
 */
int host_ovsdb_set_maxsleep(struct host_ovsdb *db, const char *key, bool list, int us,
			    char *written, size_t writtenlen, int64_t *cfg, char *err,
			    size_t errlen);

#endif
