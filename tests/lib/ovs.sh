# SPDX-License-Identifier: GPL-2.0-or-later
# tests/lib/ovs.sh: a private ovsdb-server for a host test (sourced after assert.sh, with
# $dir a fresh temp dir and $schema the vswitch schema). Sets OVS_* to dirs under $dir,
# defines stop_pid and the EXIT cleanup, creates the db and starts ovsdb-server; the test
# calls ovs_start_vswitchd when it wants the switch.
run=$dir/run
mkdir -p "$run" "$dir/db" "$dir/log" "$dir/etc"
export OVS_RUNDIR=$run OVS_DBDIR=$dir/db OVS_LOGDIR=$dir/log OVS_SYSCONFDIR=$dir/etc
stop_pid() { # stop_pid PIDFILE: only a live process whose command line is ours
	local f=$1 pid
	[ -f "$f" ] || return 0
	pid=$(cat "$f")
	grep -qa "$dir" "/proc/$pid/cmdline" 2>/dev/null || return 0
	ovs-appctl -t "$run/$(basename "$f" .pid).$pid.ctl" exit >/dev/null 2>&1
	for _ in $(seq 20); do
		[ -d "/proc/$pid" ] || return 0
		[ "$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)" = Z ] && return 0
		sleep 0.1
	done
	kill -TERM "$pid" 2>/dev/null
}
cleanup() {
	stop_pid "$run/ovs-vswitchd.pid"
	stop_pid "$run/ovsdb-server.pid"
	rm -rf "$dir"
}
trap cleanup EXIT

ovsdb-tool create "$dir/db/conf.db" "$schema" || { bad "ovsdb-tool create"; finish; }
ovsdb-server "$dir/db/conf.db" --remote=punix:"$run/db.sock" --pidfile="$run/ovsdb-server.pid" \
	--detach --log-file="$dir/log/ovsdb-server.log" || { bad "ovsdb-server starts"; finish; }
ovs-vsctl --timeout=10 --no-wait init

# ovs_start_vswitchd: ovs-vswitchd on the dummy datapath (in a private netns when unshare
# works), a bridge br0 with one dummy-pmd port p0, and a wait until a PMD polls p0.
ovs_start_vswitchd() {
	netns="" # global: a test restarting ovs-vswitchd uses it again
	unshare --net true 2>/dev/null && netns="unshare --net --"
	$netns ovs-vswitchd unix:"$run/db.sock" --enable-dummy=override --disable-system \
		--pidfile="$run/ovs-vswitchd.pid" --detach --log-file="$dir/log/ovs-vswitchd.log" ||
		{ bad "ovs-vswitchd starts"; finish; }
	ovs-vsctl --timeout=10 add-br br0 -- set bridge br0 datapath_type=dummy fail-mode=secure \
		-- add-port br0 p0 -- set Interface p0 type=dummy-pmd options:n_rxq=1 ||
		{ bad "bridge with a dummy-pmd port"; finish; }
	for _ in $(seq 50); do
		ovs-appctl dpif-netdev/pmd-rxq-show 2>/dev/null | grep -q "port: p0" && break
		sleep 0.1
	done
}
