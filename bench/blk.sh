#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/blk.sh: rq_affinity 0/1/2 in one run: IOPS, p50/p99 completion latency, IPIs per
# completion, CPU% of the interrupt CPU thread (blk-irq) against the submitters (blk-sub:N),
# as MIN/AVG/MED/MAX/Dev over passes (the 2008 io-affinity thread's table; rq=0 the baseline),
# then the trade-off as ratios of medians: IOPS at 1 and 2 against 0, and the interrupt CPU's
# busy share at each (docs/blk.md "The trade-off on two CPUs": near 100 % at 0, lower at 2).
# BLK_PASSES (10), BLK_PASS_MS (400), BLK_SERVICE_US (1), BLK_JITTER_US (1) override the defaults
# (blk-steer's device); BLK_IPI_COST_NS (0) sets the emulated IPI cost (blk.ipi_cost_ns), and the
# CPU per completion at 1 and 2 against 0 shows what it trades (the 2008 %sys column).
set -u
bin="$TT_BUILD/bench/bench_blk"
[ -x "$bin" ] || { echo "bench_blk not built (make bench)"; exit 1; }
out=$("$bin" "${BLK_PASSES:-10}" "${BLK_PASS_MS:-400}" "${BLK_SERVICE_US:-1}" "${BLK_JITTER_US:-1}" \
	"${BLK_IPI_COST_NS:-0}")
rc=$?
printf '%s\n' "$out"
[ $rc -eq 0 ] || exit $rc
# The table's rows: PART RQ MIN AVG MED MAX Dev.
printf '%s\n' "$out" | awk '
	$1 == "iops" { iops[$2] = $5 }
	$1 == "irq_busy%" { busy[$2] = $5 }
	$1 == "cpl_ns" { cpl[$2] = $5 }
	END {
		if (iops[0] > 0)
			printf "trade-off: IOPS at 1 / at 0 %.2fx, at 2 / at 0 %.2fx (medians)\n",
				iops[1] / iops[0], iops[2] / iops[0]
		if (cpl[0] > 0)
			printf "trade-off: CPU per completion at 1 / at 0 %.2fx, at 2 / at 0 %.2fx (medians)\n",
				cpl[1] / cpl[0], cpl[2] / cpl[0]
		printf "trade-off: interrupt CPU busy %.1f%% at 0, %.1f%% at 1, %.1f%% at 2 (medians)\n",
			busy[0], busy[1], busy[2]
	}'
# The crossover (docs/blk.md "Emulated IPI cost"): at each emulated cost of BLK_CROSS_COSTS
# (0 2000 20000), IOPS and CPU per completion at rq_affinity 2 against 0 (ratios of medians of
# BLK_CROSS_PASSES passes, 4 x 300 ms) on two devices: blk-steer's (1 us + 0..1 us, the
# interrupt CPU the bottleneck) and blk-seed's (100 us, the device the bottleneck, the CPUs
# with headroom, as the 2008 tests ran). CPU-bound, the cost takes IOPS; device-bound, it
# shows as CPU per completion at equal IOPS.
for shape in "blk-steer 1 1" "blk-seed 100 0"; do
	read -r name svc jit <<<"$shape"
	for cost in ${BLK_CROSS_COSTS:-0 2000 20000}; do
		cross=$("$bin" "${BLK_CROSS_PASSES:-4}" 300 "$svc" "$jit" "$cost") || rc=1
		printf '%s\n' "$cross" | awk -v shape="$name" -v cost="$cost" '
			$1 == "iops" { iops[$2] = $5 }
			$1 == "cpl_ns" { cpl[$2] = $5 }
			END {
				if (iops[0] > 0 && cpl[0] > 0)
					printf "crossover %-9s ipi_cost_ns %6d: IOPS at 2 / at 0 %.2fx, CPU per completion at 2 / at 0 %.2fx (medians)\n",
						shape, cost, iops[2] / iops[0], cpl[2] / cpl[0]
				else
					printf "crossover %-9s ipi_cost_ns %6d: no completions at 0\n", shape, cost
			}'
	done
done
exit $rc
