#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Frames per second through one testpmd vhost backend (io forwarding, on
# CPU 0), three drivers on CPU 1, interleaved run by run:
#   rig      vhost_test with our virtio_ring.c
#   kernel   vhost_test with a kernel tree's virtio_ring.c (GUEST=kernel)
#   dpdk     DPDK's own virtio-user driver (testpmd, net_virtio_user,
#            io forwarding with --tx-first: 32 frames bounce between the
#            two testpmds; its figure is the median Rx-pps of its steady
#            seconds)
# vhost_test polls (--poll), 64-byte frames, split ring, no in-order (the
# kernel's 6.12 ring has none), every frame still checked.  Prints a header
# naming the DPDK installed, each run, then the medians and the ratios to
# DPDK's.  A benchmark, not a test.  testpmd takes seconds to start (about
# 5 on a loaded machine): DPDK_SECONDS count from its first statistics
# line, and the first two and the last of its seconds are dropped, so
# DPDK_SECONDS must be 4 or more.  A run without a figure says why on
# stderr; if any run failed the exit status is 1, and a driver with no
# figure at all has no median ("none").
#
# Usage: tests/peers/bench-net.sh [RIG_BUILD [KERNEL_BUILD]]
#   RUNS (default 5), FRAMES (default 1000000), DPDK_SECONDS (default 8)
set -u
cd "$(dirname "$0")/../.."
RIG=${1:-.}
KERN=${2:-build-kernel-rig}
RUNS=${RUNS:-5}
FRAMES=${FRAMES:-1000000}
DPDK_SECONDS=${DPDK_SECONDS:-8}
case $DPDK_SECONDS in
'' | *[!0-9]* | [0-3]) echo "bench-net: DPDK_SECONDS must be 4 or more, not '$DPDK_SECONDS'" >&2; exit 2 ;;
esac
. tests/peers/backends.sh
. tests/lib/median.sh
why=$(peer_missing testpmd)
[ -n "$why" ] && { echo "bench-net: $why" >&2; exit 77; }
peer_dir
trap peer_cleanup EXIT
testpmd_start be 1 || exit 1
sock=$(peer_sock be)
drivers="rig dpdk"
[ -x "$KERN/vhost_test" ] && drivers="rig kernel dpdk"
[ -x "$KERN/vhost_test" ] || echo "bench-net: no $KERN/vhost_test (make KSRC=... GUEST=kernel HOST=rig): no kernel runs" >&2
declare -A figs

ours() {
	"$1/vhost_test" --socket="$sock" --device=net --count="$FRAMES" --frame-len=64 \
		--poll --cpu=1 --peer-pid="$(peer_pid be)" | sed -n 's/^Frames\/s: //p'
}

# rx_pps LOG: testpmd's Rx-pps figures so far, one a line.
rx_pps() { sed -n 's/^ *Rx-pps: *\([0-9]*\).*/\1/p' "$1"; }
has_rx_pps() { [ -n "$(rx_pps "$1")" ]; }

dpdk() {
	local prefix="rig-bench-fe-$$" log="$PEER_DIR/fe.log" pid n
	testpmd_cmd '0@1,1@1' "$prefix" \
		"net_virtio_user0,path=$sock,queues=1,packed_vq=0,in_order=0,mrg_rxbuf=0"
	timeout -s INT $((PEER_TIMEOUT + DPDK_SECONDS + 10)) "${TESTPMD[@]}" --tx-first \
		</dev/null >"$log" 2>&1 &
	pid=$!
	# DPDK_SECONDS from its first statistics, however long it took to start.
	poll_until $((PEER_TIMEOUT * 20)) "$pid" has_rx_pps "$log" && sleep "$DPDK_SECONDS"
	kill -INT "$pid" 2>/dev/null
	wait "$pid"
	rm -rf "/var/run/dpdk/$prefix"
	n=$(rx_pps "$log" | wc -l)
	if [ "$n" -lt 4 ]; then
		echo "bench-net: dpdk: testpmd printed $n Rx-pps lines (4 needed:" \
			"the first two and the last are dropped); its log:" >&2
		tail -n 5 "$log" | sed 's/^/  | /' >&2
		return
	fi
	# The steady seconds: drop the first two and the last.
	rx_pps "$log" | sed '1,2d;$d' | median
}

echo "# testpmd of DPDK $(peer_version testpmd) as the backend; $RUNS runs of" \
	"$FRAMES frames (vhost_test), DPDK_SECONDS=$DPDK_SECONDS (dpdk)"
rc=0
for ((r = 1; r <= RUNS; r++)); do
	for d in $drivers; do
		case $d in
		rig) f=$(ours "$RIG") ;;
		kernel) f=$(ours "$KERN") ;;
		dpdk) f=$(dpdk) ;;
		esac
		if [ -n "$f" ]; then
			echo "run $r $d: $f frames/s"
		else
			echo "run $r $d: failed (why: on stderr)"
			rc=1
		fi
		figs[$d]="${figs[$d]:-} ${f:-}"
	done
done
base=$(median <<<"${figs[dpdk]}")
for d in $drivers; do
	m=$(median <<<"${figs[$d]}")
	# A rate in whole frames a second (a median of two is their mean).
	[ -z "$m" ] || m=$(printf '%.0f' "$m")
	if [ -z "$m" ]; then
		echo "median $d: none (no run gave a figure)"
	elif [ -z "$base" ]; then
		echo "median $d: $m frames/s (no dpdk figure to compare with)"
	else
		echo "median $d: $m frames/s ($(awk -v a="$m" -v b="$base" 'BEGIN { printf "%.2f", a / b }') x dpdk)"
	fi
done
exit $rc
