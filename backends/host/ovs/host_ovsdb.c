/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host_ovsdb.c: reading and setting Open_vSwitch other_config and reading Interface statistics
 * straight from ovsdb-server (RFC 7047 transact over its unix socket, with jansson). */
#include "backends/host/ovs/host_ovsdb.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/host/ovs/host_ovsstats.h"
#include "backends/host/ovs/host_rpc.h"
#include "core/xalloc.h"

/* ovsdb answers a select in well under a millisecond; a stuck one costs the sampler this. */
#define HOST_OVSDB_TIMEOUT_MS 500

struct host_ovsdb {
	struct host_rpc *rpc;
};

struct host_ovsdb *host_ovsdb_new(const char *path)
{
	struct host_ovsdb *db = xcalloc(1, sizeof(*db));
	db->rpc = host_rpc_new(path, HOST_OVSDB_TIMEOUT_MS);
	return db;
}

void host_ovsdb_free(struct host_ovsdb *db)
{
	if (!db)
		return;
	host_rpc_free(db->rpc);
	free(db);
}

void host_ovsdb_set_path(struct host_ovsdb *db, const char *path)
{
	host_rpc_set_path(db->rpc, path);
}

/* transact ops...: the result array with as many entries, or NULL with err (an op's error too). */
static json_t *ovsdb_transact(struct host_ovsdb *db, json_t *ops, char *err, size_t errlen)
{
	json_t *params = json_array(), *res = NULL;
	json_array_append_new(params, json_string("Open_vSwitch"));
	json_array_extend(params, ops);
	size_t nops = json_array_size(ops);
	json_decref(ops);
	int rc = host_rpc_call(db->rpc, "transact", params, &res, err, errlen);
	if (rc != 0) {
		if (rc == 1) {
			size_t n = strlen(err);
			snprintf(err + n, errlen > n ? errlen - n : 0, " (ovsdb)");
		}
		return NULL;
	}
	if (!json_is_array(res) || json_array_size(res) < nops) {
		snprintf(err, errlen, "ovsdb: transact: unexpected reply");
		json_decref(res);
		return NULL;
	}
	for (size_t i = 0; i < json_array_size(res); i++) {
		json_t *e = json_object_get(json_array_get(res, i), "error");
		if (json_is_string(e)) {
			json_t *d = json_object_get(json_array_get(res, i), "details");
			snprintf(err, errlen, "ovsdb: %s%s%s", json_string_value(e),
				 json_is_string(d) ? ": " : "",
				 json_is_string(d) ? json_string_value(d) : "");
			json_decref(res);
			return NULL;
		}
	}
	return res;
}

/* The value of key in an OVSDB map ["map", [[k, v], ...]], or NULL. */
static json_t *ovsdb_map_get(json_t *map, const char *key)
{
	json_t *pairs = json_array_get(map, 1);
	if (!json_is_array(map) || json_array_size(map) != 2 ||
	    strcmp(json_string_value(json_array_get(map, 0))
		       ? json_string_value(json_array_get(map, 0))
		       : "",
		   "map") != 0 ||
	    !json_is_array(pairs))
		return NULL;
	for (size_t i = 0; i < json_array_size(pairs); i++) {
		json_t *kv = json_array_get(pairs, i);
		const char *k = json_string_value(json_array_get(kv, 0));
		if (k && strcmp(k, key) == 0)
			return json_array_get(kv, 1);
	}
	return NULL;
}

static int64_t ovsdb_stat(json_t *map, const char *key)
{
	json_t *v = ovsdb_map_get(map, key);
	return json_is_integer(v) ? (int64_t)json_integer_value(v) : -1;
}

static json_t *ovsdb_select(const char *table, const char *col1, const char *col2)
{
	json_t *cols = json_array();
	json_array_append_new(cols, json_string(col1));
	if (col2)
		json_array_append_new(cols, json_string(col2));
	return json_pack("{s:s, s:s, s:[], s:o}", "op", "select", "table", table, "where",
			 "columns", cols);
}

/* The first Open_vSwitch row's other_config (a new reference), or NULL with err. */
static json_t *ovsdb_other_config(json_t *res0, char *err, size_t errlen)
{
	json_t *rows = json_object_get(res0, "rows");
	json_t *oc = json_object_get(json_array_get(rows, 0), "other_config");
	if (!oc) {
		snprintf(err, errlen, "ovsdb: no Open_vSwitch row (run ovs-vsctl init)");
		return NULL;
	}
	return json_incref(oc);
}

int host_ovsdb_read(struct host_ovsdb *db, const char *key, struct host_ovsdb_read *out, char *err,
		    size_t errlen)
{
	json_t *ops = json_array();
	json_t *sel = ovsdb_select("Open_vSwitch", "other_config", "cur_cfg");
	json_array_append_new(json_object_get(sel, "columns"), json_string("next_cfg"));
	json_array_append_new(ops, sel);
	json_array_append_new(ops, ovsdb_select("Interface", "name", "statistics"));
	json_t *res = ovsdb_transact(db, ops, err, errlen);

	memset(out, 0, sizeof(*out));
	out->cur_cfg = out->next_cfg = -1;
	if (!res)
		return -1;
	json_t *oc = ovsdb_other_config(json_array_get(res, 0), err, errlen);
	if (!oc) {
		json_decref(res);
		return -1;
	}
	json_t *v = ovsdb_map_get(oc, key);
	if (json_is_string(v)) {
		out->has_key = true;
		snprintf(out->value, sizeof(out->value), "%s", json_string_value(v));
	}
	json_decref(oc);
	json_t *row0 = json_array_get(json_object_get(json_array_get(res, 0), "rows"), 0);
	json_t *cc = json_object_get(row0, "cur_cfg"), *nc = json_object_get(row0, "next_cfg");
	if (json_is_integer(cc) && json_is_integer(nc)) {
		out->cur_cfg = (int64_t)json_integer_value(cc);
		out->next_cfg = (int64_t)json_integer_value(nc);
	}
	json_t *rows = json_object_get(json_array_get(res, 1), "rows");
	for (size_t i = 0; i < json_array_size(rows) && out->nifaces < HOST_OVSDB_MAX_IFACES; i++) {
		json_t *row = json_array_get(rows, i);
		const char *name = json_string_value(json_object_get(row, "name"));
		json_t *st = json_object_get(row, "statistics");
		if (!name)
			continue;
		struct host_ovsdb_iface *f = &out->iface[out->nifaces++];
		snprintf(f->name, sizeof(f->name), "%s", name);
		f->rx_dropped = ovsdb_stat(st, "rx_dropped");
		f->tx_dropped = ovsdb_stat(st, "tx_dropped");
		f->rx_errors = ovsdb_stat(st, "rx_errors");
		f->tx_errors = ovsdb_stat(st, "tx_errors");
		f->rx_packets = ovsdb_stat(st, "rx_packets");
		f->tx_packets = ovsdb_stat(st, "tx_packets");
		for (int k = 0; k < HOST_IFACE_NDROPS; k++)
			f->drops[k] = ovsdb_stat(st, host_iface_drop_names[k]);
	}
	json_decref(res);
	return 0;
}

int host_ovsdb_set_maxsleep(struct host_ovsdb *db, const char *key, bool list, int us,
			    char *written, size_t writtenlen, int64_t *cfg, char *err,
			    size_t errlen)
{
	*cfg = -1;
	json_t *ops = json_array();
	json_array_append_new(ops, ovsdb_select("Open_vSwitch", "other_config", NULL));
	json_t *res = ovsdb_transact(db, ops, err, errlen);
	if (!res)
		return -1;
	json_t *oc = ovsdb_other_config(json_array_get(res, 0), err, errlen);
	json_decref(res);
	if (!oc)
		return -1;
	json_t *old = ovsdb_map_get(oc, key);
	/* A key that holds one number (3.1's pmd-maxsleep) gets one number: a list there is
	 * not read at all, and OVS would stop sleeping. */
	if (!list)
		snprintf(written, writtenlen, "%d", us);
	else if (host_ovs_maxsleep_replace(json_string_value(old), us, written, writtenlen) != 0) {
		snprintf(err, errlen,
			 "other_config:%s=\"%s\" is not a max sleep list tunetop can edit", key,
			 json_string_value(old) ? json_string_value(old) : "");
		json_decref(oc);
		return -1;
	}
	/* Only if nobody changed other_config since it was read (wait, timeout 0), replace
	 * the one key: delete, then insert (an insert keeps an existing key). */
	ops = json_array();
	json_array_append_new(ops, json_pack("{s:s, s:s, s:[], s:[s], s:s, s:[{s:O}], s:i}", "op",
					     "wait", "table", "Open_vSwitch", "where", "columns",
					     "other_config", "until", "==", "rows", "other_config",
					     oc, "timeout", 0));
	json_array_append_new(ops, json_pack("{s:s, s:s, s:[], s:[[s, s, [s, [s]]]]}", "op",
					     "mutate", "table", "Open_vSwitch", "where",
					     "mutations", "other_config", "delete", "set", key));
	json_array_append_new(ops,
			      json_pack("{s:s, s:s, s:[], s:[[s, s, [s, [[s, s]]]]]}", "op",
					"mutate", "table", "Open_vSwitch", "where", "mutations",
					"other_config", "insert", "map", key, written));
	/* As ovs-vsctl does without --no-wait: next_cfg + 1 in the same transaction, and
	 * ovs-vswitchd sets cur_cfg to it once it has reconfigured with this other_config,
	 * which is how a write is known to be in force (docs/pmd.md "Configuration"). */
	json_array_append_new(ops,
			      json_pack("{s:s, s:s, s:[], s:[[s, s, i]]}", "op", "mutate", "table",
					"Open_vSwitch", "where", "mutations", "next_cfg", "+=", 1));
	json_array_append_new(ops, ovsdb_select("Open_vSwitch", "next_cfg", NULL));
	json_decref(oc);
	res = ovsdb_transact(db, ops, err, errlen);
	if (!res) {
		if (strstr(err, "timed out"))
			snprintf(err, errlen,
				 "other_config changed while tunetop wrote it: nothing written");
		return -1;
	}
	json_t *nc = json_object_get(
	    json_array_get(json_object_get(json_array_get(res, 4), "rows"), 0), "next_cfg");
	if (json_is_integer(nc))
		*cfg = (int64_t)json_integer_value(nc);
	json_decref(res);
	return 0;
}
