#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The backend torture report: every vhost_user_frontend --torture case against
# every installed backend, each case on a freshly started peer (a case
# may kill it or leave it unusable).  Prints a table, one row per case:
# what DPDK's vhost (testpmd) and qemu-storage-daemon did.  A report about
# the peers, not a test: it fails only if vhost_user_frontend itself did.
#
# vhost_user_frontend's outcome is corrected by the peer's own end, once
# known: a peer that closed the connection may still be dying (a segfault
# takes a while to dump), so it gets 5 s to exit, and its exit status decides:
# killed by a signal is "crashed (peer killed by SIGSEGV, exit status
# 139)", an exit of its own "exited (peer exit status N)".  A peer alive
# after that is never "crashed": vhost_user_frontend's "crashed" then reads
# "unclear (vhost_user_frontend saw the peer gone, but it lives)".
#
# Usage: tests/peers/torture.sh [BUILD_DIR] [CASE...]
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${1:-.}
shift $(($# > 0 ? 1 : 0))
VT="$B/vhost_user_frontend"
. shlib/backends.sh
peer_dir
trap peer_cleanup EXIT
cases=("$@")
[ ${#cases[@]} -eq 0 ] && mapfile -t cases < <("$VT" --torture=list | awk '{ print $1 }')
rc=0

# one PEER DEVICE CASE: the outcome cell, in $cell.  (Not run in a
# subshell: the peer must be one the exit trap knows about.)
one() {
	local peer=$1 dev=$2 c=$3 line
	if [ "$peer" = testpmd ]; then
		testpmd_start t 1 >/dev/null 2>&1 || { cell="(testpmd did not start)"; return; }
	else
		qsd_start t 16 1 >/dev/null 2>&1 || { cell="(qsd did not start)"; return; }
	fi
	line=$(timeout 60 "$VT" --socket="$(peer_sock t)" --device="$dev" \
		--peer-pid="$(peer_pid t)" --torture="$c" 2>&1 | tail -n 1)
	case $line in
	"torture $c: "*) line=${line#"torture $c: "} ;;
	*) rc=1 ;;
	esac
	peer_fate t "$line"
	peer_stop t
}

# peer_running NAME: its process exists and is not a zombie.
peer_running() {
	local stat
	stat=$(cat "/proc/${PEER_PIDS[$1]}/stat" 2>/dev/null) || return 1
	stat=${stat##*) }
	[ "${stat%% *}" != Z ]
}

# peer_fate NAME LINE: vhost_user_frontend's LINE ("OUTCOME; details")
# corrected by what became of peer NAME, in $cell (see the top).
peer_fate() {
	local name=$1 line=$2 outcome=${2%%;*} i st
	case $outcome in
	closed | crashed)
		for ((i = 0; i < 50; i++)); do
			peer_running "$name" || break
			sleep 0.1
		done ;;
	esac
	if peer_running "$name"; then
		cell=$line
		[ "$outcome" = crashed ] &&
			cell="unclear (vhost_user_frontend saw the peer gone, but it lives)${line#crashed}"
		return
	fi
	wait "${PEER_TPIDS[$name]}"
	st=$?
	if [ "$st" -gt 128 ]; then
		cell="crashed${line#"$outcome"} (peer killed by SIG$(kill -l $((st - 128))), exit status $st)"
	else
		cell="exited${line#"$outcome"} (peer exit status $st)"
	fi
}

tp=$(peer_missing testpmd)
qsd=$(peer_missing qsd)
echo "| case | DPDK $(peer_version testpmd) vhost (testpmd, net) | qemu-storage-daemon $(peer_version qsd) (vhost-user-blk) |"
echo "|---|---|---|"
for c in "${cases[@]}"; do
	a=$tp b=$qsd
	# A peer killed by a signal makes bash print a notice on stderr when
	# it sees it go: for the log, not for the table.
	[ -z "$tp" ] && one testpmd net "$c" 2>>"$PEER_DIR/notices" && a=$cell
	[ -z "$qsd" ] && one qsd blk "$c" 2>>"$PEER_DIR/notices" && b=$cell
	echo "| $c | $a | $b |"
done
exit $rc
