/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ui_view_esthost.c: the est view on a live host: the kernel's IPVS estimator kthreads per
 * network namespace against the 1/8 goal, and chain_max where the kernel logged it (docs/est.md
 * "The est view on a host"). What the kernel does not expose is "-", never 0. */
#include "tui/console/ui.h"
#include "tui/console/ui_body.h"

void ui_view_est_host(struct body *b)
{
	struct ui *ui = b->ui;
	const struct est_snap *e = &ui->snap->est;
	if (body_line(b)) {
		ui_put(ui, ROLE_NORMAL, "chain_max ");
		if (snapshot_absent(ui->snap, "est.chain_max")) {
			ui_put(ui, ROLE_DIM, "-  (no \"IPVS: using max\" line read: see events)");
		} else {
			ui_put(ui, ROLE_VALUE, "%d", e->chain_max);
			ui_put(ui, ROLE_NORMAL, " ests per chain%s, %llu per kthread  ",
			       e->tick_chains == 1 ? " (one chain a tick: x48)" : "",
			       (unsigned long long)e->max_per_kthread);
			ui_put(ui, ROLE_DIM, "(from the kernel log)");
		}
	}
	if (body_line(b))
		ui_put(ui, ROLE_NORMAL, "kthreads %d  CPU %.1f%% in all  ", e->kthreads,
		       e->cpu_pct_total);
	if (body_line(b)) {
		ui_put(ui, ROLE_TABLE_HEAD, "%-14s %5s %5s %8s %6s", "THREAD", "NETNS", "KT",
		       "ESTS", "CPU%");
		ui_put(ui, ROLE_DIM, "  (CPU%% of one core, goal %.1f%%)", EST_KTHREAD_GOAL_PCT);
	}
	for (int k = 0; k < e->nkt; k++) {
		const struct est_kt_snap *kt = &e->kt[k];
		char name[24];
		if (!body_line(b))
			continue; /* still counted: the scroll knows how long the view is */
		snprintf(name, sizeof(name), "ipvs-e:%d:%d", kt->netns, kt->id);
		ui_put(ui, ROLE_NORMAL, "%-14s %5d %5d %8s ", name, kt->netns, kt->id, "-");
		ui_put(ui, kt->cpu_pct > EST_KTHREAD_GOAL_PCT ? ROLE_WARN : ROLE_NORMAL, "%6.1f",
		       kt->cpu_pct);
	}
	if (e->kthreads > e->nkt && body_line(b))
		ui_put(ui, ROLE_DIM, "(%d more kthreads, in the totals only)",
		       e->kthreads - e->nkt);
	body_title(b, "the kernel exposes no tick times, rows or calibration tests: see JSON "
		      "host.absent");
}
