#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The backend torture report: every vhost_test --torture case against
# every installed backend, each case on a freshly started peer (a case
# may kill it or leave it unusable).  Prints a table, one row per case:
# what DPDK's vhost (testpmd) and qemu-storage-daemon did.  A report about
# the peers, not a test: it fails only if vhost_test itself did.
#
# Usage: tests/peers/torture.sh [BUILD_DIR] [CASE...]
set -u
cd "$(dirname "$0")/../.."
B=${1:-.}
shift $(($# > 0 ? 1 : 0))
VT="$B/vhost_test"
. tests/peers/backends.sh
peer_dir
trap peer_cleanup EXIT
cases=("$@")
[ ${#cases[@]} -eq 0 ] && mapfile -t cases < <("$VT" --torture=list | awk '{ print $1 }')
rc=0

# one PEER DEVICE CASE: the outcome cell, in $cell.  (Not run in a
# subshell: the peer must be one the exit trap knows about.)
one() {
	local peer=$1 dev=$2 c=$3 line st
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
	if ! peer_alive t; then
		# (bash's notice of a crashed job is for us to print, not it)
		{ wait "${PEER_TPIDS[t]}"; st=$?; } 2>/dev/null
		line="$line (peer exit status $st)"
	fi
	peer_stop t
	cell=$line
}

tp=$(peer_missing testpmd)
qsd=$(peer_missing qsd)
echo "| case | DPDK 22.11 vhost (testpmd, net) | qemu-storage-daemon 7.2 (vhost-user-blk) |"
echo "|---|---|---|"
for c in "${cases[@]}"; do
	a=$tp b=$qsd
	[ -z "$tp" ] && one testpmd net "$c" && a=$cell
	[ -z "$qsd" ] && one qsd blk "$c" && b=$cell
	echo "| $c | $a | $b |"
done
exit $rc
