#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_host_cpufreq_ns.sh: cpu.governor on the host backend against a fake cpufreq sysfs tree
# mounted over /sys/devices/system/cpu in a private mount namespace (the real tree is never
# touched). libcpupower reads cpuN/cpufreq/{scaling_governor,scaling_min_freq,
# scaling_max_freq} for a policy, scaling_available_governors for the list and
# scaling_cur_freq for the frequency, and writes scaling_governor.
# `tunetop --host -b --set cpu.governor=powersave` must write the fake file, show the
# governor as "cpufreq" in the JSON; an unlisted governor and a non-root user are refused
# with a message ("needs root"), and a non-root user falls back from TASKSTATS to /proc.
set -u
. "$(dirname "$0")/../lib/assert.sh"

[ "$(id -u)" = 0 ] || { echo "skip: needs root for a mount namespace"; exit 77; }
command -v unshare >/dev/null || { echo "skip: no unshare (util-linux)"; exit 77; }
unshare -m --propagation private true 2>/dev/null || { echo "skip: mount namespaces unavailable"; exit 77; }

ncpu=$(getconf _NPROCESSORS_CONF)
out=$(mktemp -d /tmp/tt-cpufreq.XXXXXX)
chmod 755 "$out"
trap 'rm -rf "$out"' EXIT

# Everything below runs inside the namespace; it prints results to files in $out.
NCPU=$ncpu OUT=$out unshare -m --propagation private bash -s <<'NS'
set -u
root=/sys/devices/system/cpu
mount -t tmpfs -o mode=755 tunetop-fake-cpu "$root" || exit 3
last=$((NCPU - 1))
echo "0-$last" >"$root/possible"; echo "0-$last" >"$root/present"; echo "0-$last" >"$root/online"
for i in $(seq 0 "$last"); do
	d=$root/cpu$i/cpufreq
	mkdir -p "$d"
	# libcpupower writes without O_TRUNC (sysfs needs none): start from a governor as
	# long as the one we set, so the fake file reads exactly what was written.
	echo schedutil >"$d/scaling_governor"
	echo "performance powersave schedutil" >"$d/scaling_available_governors"
	echo 800000 >"$d/scaling_min_freq"; echo 3000000 >"$d/scaling_max_freq"
	echo 800000 >"$d/cpuinfo_min_freq"; echo 3000000 >"$d/cpuinfo_max_freq"
	echo $((1800000 + i * 1000)) >"$d/scaling_cur_freq"
	echo fake >"$d/scaling_driver"
	chmod 644 "$d"/*
done
"$TUNETOP" --host -b -n 1 -d 0.1 >"$OUT/before.json" 2>"$OUT/before.err"; echo $? >"$OUT/before.rc"
"$TUNETOP" --host --write -b -n 1 -d 0.1 --set cpu.governor=powersave >"$OUT/set.json" 2>"$OUT/set.err"; echo $? >"$OUT/set.rc"
cat "$root/cpu0/cpufreq/scaling_governor" >"$OUT/gov0"
cat "$root/cpu$last/cpufreq/scaling_governor" >"$OUT/govlast"
"$TUNETOP" --host --write -b -n 1 -d 0.1 --set cpu.governor=ondemand >/dev/null 2>"$OUT/unlisted.err"; echo $? >"$OUT/unlisted.rc"
cat "$root/cpu0/cpufreq/scaling_governor" >"$OUT/gov0_after_unlisted"
if command -v setpriv >/dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups "$TUNETOP" --host --write -b -n 1 -d 0.1 \
		--set cpu.governor=performance >"$OUT/user.json" 2>"$OUT/user.err"; echo $? >"$OUT/user.rc"
	cat "$root/cpu0/cpufreq/scaling_governor" >"$OUT/gov0_after_user"
	setpriv --reuid=65534 --regid=65534 --clear-groups "$TUNETOP" --host -b -n 2 -d 0.2 \
		>"$OUT/user2.json" 2>/dev/null
fi
NS
rc=$?
check "namespace script ran (rc $rc)" test "$rc" -eq 0
check "the real tree is untouched outside the namespace" test ! -e /sys/devices/system/cpu/cpu0/cpufreq/scaling_driver -o "$(cat /sys/devices/system/cpu/cpu0/cpufreq/scaling_driver 2>/dev/null)" != fake

jq_py() { python3 -c "import json,sys; o=json.loads(open(sys.argv[1]).read().splitlines()[-1]); print($2)" "$1" 2>&1; }
check "tunetop --host with the fake tree exits 0 ($(cat "$out/before.err" 2>/dev/null))" test "$(cat "$out/before.rc")" = 0
got=$(jq_py "$out/before.json" 'o["cpu"]["governor"], o["cpu"]["governor_source"], o["host"]["cpufreq"], o["cpu"]["cpus"][0]["freq_mhz"]')
check "before: schedutil via cpufreq, 1800 MHz from scaling_cur_freq (got '$got')" test "$got" = "schedutil cpufreq True 1800"
check "--set cpu.governor=powersave exits 0 ($(cat "$out/set.err"))" test "$(cat "$out/set.rc")" = 0
check "cpu0 scaling_governor now reads powersave (got '$(cat "$out/gov0")')" test "$(cat "$out/gov0")" = powersave
check "the last CPU too (got '$(cat "$out/govlast")')" test "$(cat "$out/govlast")" = powersave
got=$(jq_py "$out/set.json" 'o["cpu"]["governor"], o["knobs"]["cpu.governor"], o["host"]["governor"]')
check "JSON after the set: powersave everywhere (got '$got')" test "$got" = "powersave powersave powersave"
check "an unlisted governor fails (rc $(cat "$out/unlisted.rc"))" test "$(cat "$out/unlisted.rc")" = 1
case "$(cat "$out/unlisted.err")" in
*"ondemand is not available on this host (available: performance powersave schedutil)"*) ok "unlisted governor names the available ones" ;;
*) bad "unlisted governor message: $(cat "$out/unlisted.err")" ;;
esac
check "an unlisted governor writes nothing" test "$(cat "$out/gov0_after_unlisted")" = powersave
if [ -f "$out/user.rc" ]; then
	check "non-root set fails (rc $(cat "$out/user.rc"))" test "$(cat "$out/user.rc")" = 1
	case "$(cat "$out/user.err")" in
	*"needs root"*) ok "non-root: $(cat "$out/user.err")" ;;
	*) bad "non-root message should say needs root: $(cat "$out/user.err")" ;;
	esac
	check "non-root wrote nothing" test "$(cat "$out/gov0_after_user")" = powersave
	got=$(jq_py "$out/user2.json" 'o["host"]["thread_source"], bool(o["host"]["taskstats_error"]), len(o["threads"]) > 0')
	check "non-root falls back to /proc with a reason (got '$got')" test "$got" = "procfs True True"
fi
finish
