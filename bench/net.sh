#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Frames per second through one testpmd vhost backend (io forwarding, on
# CPU 0), the drivers on CPU 1 doing the same work, interleaved run by run,
# split and packed ring in turn (LAYOUTS):
#   rig      vhost_user_frontend --burst=32 with our virtio_ring.c
#   kernel   vhost_user_frontend --burst=32 with a kernel tree's virtio_ring.c
#            (GUEST=kernel)
#   dpdk     DPDK's own virtio-user driver (testpmd, net_virtio_user,
#            io forwarding with --tx-first: a burst of 32 frames bounces
#            between the two testpmds; its figure is the median Rx-pps of
#            its steady seconds)
# The same work: vhost_user_frontend's benchmark mode (vhost-user/README)
# keeps 32 frames in flight, one descriptor a frame, 64-byte frames whose
# bytes are not compared (counts and lengths are), polls (--poll); no in-order
# (the kernel's 6.12 split ring has none).  Beside frames/s, the driver's CPU
# time per frame: vhost_user_frontend's own (getrusage of the counted phase);
# for testpmd, the CPU its process used over the steady seconds (/proc, clock
# ticks) over the frames its Rx-pps says it forwarded then.  Prints a
# header naming the DPDK installed, each run, then per layout the medians,
# the ratios to DPDK's, and the median CPU ns/frame.  A benchmark, not a
# test.  testpmd takes seconds to start (about 5 on a loaded machine), so
# its first two statistics lines and its last are dropped: its CPU time is
# taken over DPDK_SECONDS - 2 seconds from its third line (DPDK_SECONDS: 4
# or more).
# Its --stats-period 1 is a second as its TSC clock has it, every 2 s on
# some machines: the run waits for lines, not seconds (the third, then
# one more after the CPU time, each at most PEER_TIMEOUT).
# A run without a figure says why on stderr; if any run failed the exit
# status is 1, and a driver with no figure at all has no median ("none").
#
# Usage: bench/net.sh [RIG_BUILD [KERNEL_BUILD]]
#   KERNEL_BUILD: a GUEST=kernel HOST=rig build; by default the one tree's
#   in build-kernel-rig/ (its folder there, kernel/ksrc-key.sh), if one
#   RUNS (default 7), FRAMES (default 1000000), DPDK_SECONDS (default 8),
#   LAYOUTS (default "split packed")
set -u
cd "$(dirname "$0")/.." || exit 1
RIG=${1:-.}
KERN=${2:-}
if [ -z "$KERN" ]; then
	kerns=(build-kernel-rig/*/vhost_user_frontend)
	KERN=build-kernel-rig/TREE
	[ ${#kerns[@]} -eq 1 ] && [ -x "${kerns[0]}" ] && KERN=${kerns[0]%/*}
fi
RUNS=${RUNS:-7}
LAYOUTS=${LAYOUTS:-split packed}
BURST=32
FRAMES=${FRAMES:-1000000}
DPDK_SECONDS=${DPDK_SECONDS:-8}
for l in $LAYOUTS; do
	case $l in
	split | packed) ;;
	*) echo "bench/net.sh: LAYOUTS: '$l' is not split or packed" >&2; exit 2 ;;
	esac
done
case $DPDK_SECONDS in
'' | *[!0-9]* | [0-3]) echo "bench/net.sh: DPDK_SECONDS must be 4 or more, not '$DPDK_SECONDS'" >&2; exit 2 ;;
esac
. shlib/backends.sh
. shlib/median.sh
why=$(peer_missing testpmd)
[ -n "$why" ] && { echo "bench/net.sh: $why" >&2; exit 77; }
peer_dir
trap peer_cleanup EXIT
testpmd_start be 1 || exit 1
sock=$(peer_sock be)
drivers="rig dpdk"
[ -x "$KERN/vhost_user_frontend" ] && drivers="rig kernel dpdk"
[ -x "$KERN/vhost_user_frontend" ] || echo "bench/net.sh: no $KERN/vhost_user_frontend (make KSRC=... GUEST=kernel HOST=rig): no kernel runs" >&2
declare -A figs cpus

# ours BUILD LAYOUT: "FRAMES/S CPU_NS" of one vhost_user_frontend run, or
# nothing.
ours() {
	local ring=()
	[ "$2" = packed ] && ring=(--packed)
	"$1/vhost_user_frontend" --socket="$sock" --device=net --count="$FRAMES" --frame-len=64 \
		--burst=$BURST --poll --cpu=1 --peer-pid="$(peer_pid be)" "${ring[@]}" |
		awk -F': ' '/^Frames\/s: / { f = $2 } /^CPU ns\/frame: / { c = $2 }
			    END { if (f != "" && c != "") print f, c }'
}

# rx_pps LOG: testpmd's Rx-pps figures so far, one a line.
rx_pps() { sed -n 's/^ *Rx-pps: *\([0-9]*\).*/\1/p' "$1"; }
# rx_pps_lines LOG N: LOG has at least N of them.
rx_pps_lines() { [ "$(rx_pps "$1" | wc -l)" -ge "$2" ]; }
# CPU ticks PID has used (utime + stime, /proc/PID/stat fields 14 and 15).
cpu_ticks() { sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | awk '{ print $12 + $13 }'; }
now_ns() { date +%s%N; }

# dpdk LAYOUT: "FRAMES/S CPU_NS" of one testpmd virtio-user run, or nothing.
dpdk() {
	local prefix="rig-bench-fe-$$" log="$PEER_DIR/fe.log" tpid pid n c0 c1 t0 t1 pps
	testpmd_cmd '0@1,1@1' "$prefix" \
		"net_virtio_user0,path=$sock,queues=1,packed_vq=$([ "$1" = packed ] && echo 1 || echo 0),in_order=0,mrg_rxbuf=0"
	timeout -s INT $((PEER_TIMEOUT + DPDK_SECONDS + 10)) "${TESTPMD[@]}" --tx-first \
		</dev/null >"$log" 2>&1 &
	tpid=$!
	if ! pid=$(peer_child "$tpid"); then
		echo "bench/net.sh: DPDK's virtio-user did not start; its log:" >&2
		tail -n 20 "$log" >&2
		kill -INT "$tpid" 2>/dev/null
		wait "$tpid"
		rm -rf "/var/run/dpdk/$prefix"
		return
	fi
	# Its CPU time from its third statistics line (the first two are
	# dropped), however long it took to start, for DPDK_SECONDS - 2; then
	# one line more, so that the lines kept cover those seconds.
	if poll_until $((PEER_TIMEOUT * 20)) "$tpid" rx_pps_lines "$log" 3; then
		c0=$(cpu_ticks "$pid") t0=$(now_ns)
		sleep $((DPDK_SECONDS - 2))
		c1=$(cpu_ticks "$pid") t1=$(now_ns)
		n=$(rx_pps "$log" | wc -l)
		poll_until $((PEER_TIMEOUT * 20)) "$tpid" rx_pps_lines "$log" $((n + 1))
	fi
	kill -INT "$tpid" 2>/dev/null
	wait "$tpid"
	rm -rf "/var/run/dpdk/$prefix"
	n=$(rx_pps "$log" | wc -l)
	if [ "$n" -lt 4 ] || [ -z "${c0:-}" ] || [ -z "${c1:-}" ]; then
		echo "bench/net.sh: dpdk: testpmd printed $n Rx-pps lines (4 needed:" \
			"the first two and the last are dropped)${c1:+, }${c1:-, and no CPU time}; its log:" >&2
		tail -n 5 "$log" | sed 's/^/  | /' >&2
		return
	fi
	# The steady seconds: drop the first two and the last.
	pps=$(rx_pps "$log" | sed '1,2d;$d' | median)
	awk -v pps="$pps" -v c="$((c1 - c0))" -v hz="$(getconf CLK_TCK)" -v ns="$((t1 - t0))" \
		'BEGIN { if (pps > 0) printf "%s %.1f\n", pps, c / hz * 1e9 / (ns / 1e9) / pps }'
}

echo "# testpmd of DPDK $(peer_version testpmd) as the backend; $RUNS runs of" \
	"$FRAMES frames (vhost_user_frontend --burst=$BURST), DPDK_SECONDS=$DPDK_SECONDS (dpdk);" \
	"layouts: $LAYOUTS; $(uptime | sed 's/.*load/load/')"
rc=0
for ((r = 1; r <= RUNS; r++)); do
	for l in $LAYOUTS; do
		for d in $drivers; do
			case $d in
			rig) f=$(ours "$RIG" "$l") ;;
			kernel) f=$(ours "$KERN" "$l") ;;
			dpdk) f=$(dpdk "$l") ;;
			esac
			if [ -n "$f" ]; then
				echo "run $r $l $d: ${f% *} frames/s, ${f#* } CPU ns/frame"
			else
				echo "run $r $l $d: failed (why: on stderr)"
				rc=1
			fi
			figs[$l-$d]="${figs[$l-$d]:-} ${f% *}"
			cpus[$l-$d]="${cpus[$l-$d]:-} ${f#* }"
		done
	done
done
for l in $LAYOUTS; do
	base=$(median <<<"${figs[$l-dpdk]}")
	for d in $drivers; do
		m=$(median <<<"${figs[$l-$d]}")
		c=$(median <<<"${cpus[$l-$d]}")
		# A rate in whole frames a second (a median of two is their mean).
		[ -z "$m" ] || m=$(printf '%.0f' "$m")
		[ -z "$c" ] || c=$(printf '%.1f' "$c")
		if [ -z "$m" ]; then
			echo "median $l $d: none (no run gave a figure)"
		elif [ -z "$base" ]; then
			echo "median $l $d: $m frames/s (no dpdk figure to compare with), $c CPU ns/frame"
		else
			echo "median $l $d: $m frames/s ($(awk -v a="$m" -v b="$base" 'BEGIN { printf "%.2f", a / b }') x dpdk), $c CPU ns/frame"
		fi
	done
done
exit $rc
