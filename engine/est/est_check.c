/* SPDX-License-Identifier: GPL-2.0-or-later */
/* est_check.c: walking every chain and the temp list to check the §2 bookkeeping exactly. */
#include <stdio.h>

#include "engine/est/est_place.h"

int est_check(struct est_state *st, char *err, size_t errlen)
{
	uint64_t placed = 0, pending = 0;

	for (struct est_estimator *e = st->temp_head; e; e = e->next) {
		if (e->ktid != -1) {
			snprintf(err, errlen, "temp list entry with ktid %d", e->ktid);
			return -1;
		}
		pending++;
	}
	for (int id = 0; id < st->kt_count; id++) {
		struct est_kd *kd = st->kt_arr[id];
		uint32_t count = 0;
		if (!kd->used)
			continue;
		est_kd_lock(kd);
		for (int r = 0; r < EST_NTICKS; r++) {
			struct est_tick *td = kd->ticks[r];
			uint32_t len = 0;
			if (!td != !kd->tick_len[r]) {
				snprintf(err, errlen, "kt %d row %d: tick data %p with len %u", id,
					 r, (void *)td, kd->tick_len[r]);
				goto bad;
			}
			for (int c = 0; td && c < EST_TICK_CHAINS_MAX; c++) {
				uint32_t cl = 0;
				for (struct est_estimator *e = td->chains[c]; e; e = e->next, cl++)
					if (e->ktid != id || e->ktrow != r || e->ktcid != c) {
						snprintf(err, errlen,
							 "kt %d row %d chain %d: est says %d/%d/%d",
							 id, r, c, e->ktid, e->ktrow, e->ktcid);
						goto bad;
					}
				if (cl != td->chain_len[c] ||
				    !!cl != !!(td->present & (1ULL << c))) {
					snprintf(err, errlen, "kt %d row %d chain %d: len %u vs %u",
						 id, r, c, cl, td->chain_len[c]);
					goto bad;
				}
				if (cl > (uint32_t)kd->chain_max && kd->chain_max > 0) {
					snprintf(err, errlen,
						 "kt %d row %d chain %d: %u > chain_max %d", id, r,
						 c, cl, kd->chain_max);
					goto bad;
				}
				len += cl;
			}
			if (len != kd->tick_len[r]) {
				snprintf(err, errlen, "kt %d row %d: %u linked, tick_len %u", id, r,
					 len, kd->tick_len[r]);
				goto bad;
			}
			count += len;
		}
		if (count != kd->est_count) {
			snprintf(err, errlen, "kt %d: %u linked, est_count %u", id, count,
				 kd->est_count);
			goto bad;
		}
		pthread_mutex_unlock(&kd->lock);
		placed += count;
		continue;
	bad:
		pthread_mutex_unlock(&kd->lock);
		return -1;
	}
	if (placed != st->placed || pending != st->pending || st->nest != placed + pending) {
		snprintf(err, errlen,
			 "added %llu, placed %llu (walk %llu), pending %llu (walk %llu)",
			 (unsigned long long)st->nest, (unsigned long long)st->placed,
			 (unsigned long long)placed, (unsigned long long)st->pending,
			 (unsigned long long)pending);
		return -1;
	}
	return 0;
}
