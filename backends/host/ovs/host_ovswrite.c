/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host_ovswrite.c: the max sleep write (ovsdb, then ovs-vswitchd's read back) on the writer's
 * own connections, with the host lock dropped around its I/O: a write that waits on a stopped
 * vswitchd or a dead ovsdb (seconds, HOST_MAXSLEEP_APPLY_MS) never holds up a sample
 * (docs/design.md "Threads", docs/pmd.md "Configuration").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/xalloc.h"
#include "backends/host/host.h"
#include "backends/host/host_int.h"

/* What a write needs of the shared state, copied under the lock. */
struct ovsw_ctx {
	bool have_ovs, probed, sleep_show;
	char ctl[600], db[600];
};

/* Called with the lock held: copy what the I/O needs. */
static void ovsw_begin(struct host_state *h, struct ovsw_ctx *c)
{
	c->have_ovs = h->ovs != NULL;
	c->probed = h->ovs_probed;
	c->sleep_show = h->ovs_sleep_show;
	c->ctl[0] = c->db[0] = '\0';
	if (h->ovs) {
		snprintf(c->ctl, sizeof(c->ctl), "%s", host_ovs_path(h->ovs));
		host_ovs_db_path(h->ovs, c->db, sizeof(c->db));
	}
}

/* Lock dropped: the writer's own clients at the paths the sampler uses now (a restarted
 * daemon's). A control socket that does not connect leaves w_ovs NULL, err saying why. */
static void ovsw_connect(struct host_state *h, const struct ovsw_ctx *c, char *err, size_t len)
{
	if (h->w_ovs && strcmp(host_ovs_path(h->w_ovs), c->ctl) != 0) {
		host_ovs_close(h->w_ovs);
		h->w_ovs = NULL;
	}
	if (!h->w_ovs)
		h->w_ovs = host_ovs_open(c->ctl, err, len);
	if (!h->w_db)
		h->w_db = host_ovsdb_new(c->db);
	else
		host_ovsdb_set_path(h->w_db, c->db);
}

/* Lock dropped: pmd-sleep-show on the writer's socket. -1 when the socket failed (err), 1 when
 * OVS has no such command (3.1), else 0 with its default max sleep in *us (-1 when unsaid). */
static int ovsw_sleep_show(struct host_state *h, int *us, char *err, size_t len)
{
	char *t = NULL;
	*us = -1;
	if (!h->w_ovs)
		return -1;
	int rc = host_ovs_call(h->w_ovs, "dpif-netdev/pmd-sleep-show", NULL, 0, &t, err, len);
	struct host_ovs_sleep sl = {.default_us = -1};
	if (rc == 0 && host_ovs_parse_sleep(t, &sl) == 0)
		*us = sl.default_us;
	free(t);
	return rc;
}

/* Lock dropped: the probe the sampler would make (which key this OVS reads), when it has not.
 * 0 (c->probed set), or -1 with err when ovs-vswitchd does not answer. */
static int ovsw_probe(struct host_state *h, struct ovsw_ctx *c, char *err, size_t len)
{
	int us;
	if (c->probed)
		return 0;
	int rc = ovsw_sleep_show(h, &us, err, len);
	if (rc < 0)
		return -1;
	c->probed = true;
	c->sleep_show = rc == 0;
	return 0;
}

/* Called with the lock held: a probe made here serves the sampler too. */
static void ovsw_probed(struct host_state *h, const struct ovsw_ctx *c)
{
	if (c->probed && !h->ovs_probed && h->ovs) {
		h->ovs_probed = true;
		h->ovs_sleep_show = c->sleep_show;
		h->ovs_answering = true;
	}
}

void host_ovswrite_refresh(struct host_state *h)
{
	struct ovsw_ctx c;
	char err[160] = "";
	struct host_ovsdb_read *r = xmalloc(sizeof(*r));
	ovsw_begin(h, &c);
	if (!c.have_ovs) {
		free(r);
		return;
	}
	host_unlock(h);
	ovsw_connect(h, &c, err, sizeof(err));
	bool ok = ovsw_probe(h, &c, err, sizeof(err)) == 0 &&
		  host_ovsdb_read(h->w_db, c.sleep_show ? "pmd-sleep-max" : "pmd-maxsleep", r, err,
				  sizeof(err)) == 0;
	host_lock(h);
	ovsw_probed(h, &c);
	if (ok && h->ovs)
		host_pmdsec_maxsleep_from(h, r, false);
	free(r);
}

/* Lock dropped: why ovs-vswitchd has not taken a write, asked once more (bounded). */
static void ovsw_why(struct host_state *h, const struct ovsw_ctx *c, bool db_ok, const char *dberr,
		     char *why, size_t len)
{
	char err[160] = "";
	int us;
	if (!db_ok) {
		snprintf(why, len, "ovsdb: %s", dberr);
		return;
	}
	if (!h->w_ovs) /* gone at the start of the write: its connect error says how */
		h->w_ovs = host_ovs_open(c->ctl, err, sizeof(err));
	int rc = h->w_ovs ? ovsw_sleep_show(h, &us, err, sizeof(err)) : -1;
	if (rc >= 0)
		snprintf(why, len, "ovs-vswitchd did not take it within %d s",
			 HOST_MAXSLEEP_APPLY_MS / 1000);
	else if (strstr(err, "refused") || strstr(err, "No such file") ||
		 strstr(err, "no ovs-vswitchd"))
		snprintf(why, len, "vswitchd not running");
	else
		snprintf(why, len, "vswitchd not answering");
}

/*
 * Lock dropped: wait until ovs-vswitchd says it took the write: cur_cfg reaches the write's
 * next_cfg (it sets it after reconfiguring, as ovs-vsctl waits for), and on 3.2+ pmd-sleep-show's
 * own figure into *shown. 0 with the last read in r, or -1 with why (the lock is not held: the
 * caller words the error with the value in force).
 */
static int ovsw_wait(struct host_state *h, const struct ovsw_ctx *c, int64_t cfg,
		     struct host_ovsdb_read *r, int *shown, char *why, size_t whylen)
{
	const char *key = c->sleep_show ? "pmd-sleep-max" : "pmd-maxsleep";
	uint64_t end = clock_mono_ns() + (uint64_t)HOST_MAXSLEEP_APPLY_MS * 1000000ULL;
	char dberr[160] = "";
	char err[160];
	bool db_ok;
	*shown = -1;
	for (;;) {
		db_ok = host_ovsdb_read(h->w_db, key, r, dberr, sizeof(dberr)) == 0;
		if (db_ok && (cfg < 0 || r->cur_cfg < 0 || r->cur_cfg >= cfg))
			break;
		if (clock_mono_ns() >= end) {
			ovsw_why(h, c, db_ok, dberr, why, whylen);
			return -1;
		}
		struct timespec ts = {0, 20 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
	if (c->sleep_show)
		ovsw_sleep_show(h, shown, err, sizeof(err));
	return 0;
}

int host_pmdsec_set_maxsleep(struct host_state *h, int us, char *err, size_t errlen)
{
	struct ovsw_ctx c;
	char written[128], why[200] = "", kept[32], e[256];
	int64_t cfg;
	int shown = -1;
	struct host_ovsdb_read *r = xmalloc(sizeof(*r));

	ovsw_begin(h, &c);
	host_unlock(h);
	/* From here to host_lock() below only the writer's clients and this call's own buffers:
	 * the sampler samples meanwhile (it takes the lock for a whole sample). */
	ovsw_connect(h, &c, e, sizeof(e));
	int rc = 0;
	if (ovsw_probe(h, &c, e, sizeof(e)) != 0) {
		snprintf(err, errlen,
			 "pmd.maxsleep_us: ovs-vswitchd does not answer (%s): nothing "
			 "written",
			 e);
		rc = -1;
	} else if (host_ovsdb_set_maxsleep(h->w_db, c.sleep_show ? "pmd-sleep-max" : "pmd-maxsleep",
					   c.sleep_show, us, written, sizeof(written), &cfg, e,
					   sizeof(e)) != 0) {
		snprintf(err, errlen, "pmd.maxsleep_us: %s", e);
		rc = -1;
	} else if (ovsw_wait(h, &c, cfg, r, &shown, why, sizeof(why)) != 0) {
		rc = -2;
	}
	host_lock(h);
	ovsw_probed(h, &c);
	if (rc == -2) {
		/* The value in force is the one the sampler last read back, not the one asked. */
		if (h->sleep_show_us >= 0 || h->have_maxsleep)
			snprintf(kept, sizeof(kept), "%d",
				 h->sleep_show_us >= 0 ? h->sleep_show_us : h->maxsleep_us);
		else
			snprintf(kept, sizeof(kept), "the value before");
		snprintf(err, errlen,
			 "pmd.maxsleep_us: not applied (%s); %s still in force (ovsdb holds %s: "
			 "vswitchd takes it when it runs)",
			 why, kept, written);
		h->ovs_answering = strstr(why, "did not take") != NULL;
		rc = -1;
	} else if (rc == 0) {
		h->ovs_answering = true;
		h->ovsdb_err[0] = '\0';
		if (shown >= 0)
			h->sleep_show_us = shown;
		host_pmdsec_maxsleep_from(h, r, true);
	}
	free(r);
	return rc;
}

void host_ovswrite_close(struct host_state *h)
{
	host_ovs_close(h->w_ovs);
	host_ovsdb_free(h->w_db);
	h->w_ovs = NULL;
	h->w_db = NULL;
}
