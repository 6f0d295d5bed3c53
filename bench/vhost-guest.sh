#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A Linux guest (QEMU TCG) reading its whole 64 MiB virtio-blk disk served
# by vhost_dev, two builds interleaved: typically our vringh against a
# kernel tree's (make KSRC=build-ksrc/linux-source-6.12 HOST=kernel
# GUEST=rig builds the latter in build-rig-kernel/T/, T being
# kernel/ksrc-key.sh's name for the tree).
#
# Usage: bench/vhost-guest.sh [-n RUNS] [-b BS] BUILD_A BUILD_B
#   RUNS  boots of each build (default 5), alternating A B, B A, ...
#   BS    bytes per guest read (O_DIRECT; default 1048576; 4096 makes
#         16384 requests of the 64 MiB)
# Prints one line per boot, then per build the medians of the boot to
# result time (launching QEMU to the guest's result line), of the read
# throughput the guest measured and of the CPU time vhost_dev used (user +
# system, the whole boot), and B's medians as a ratio of A's.
# Every boot also checks the disk's sum; a wrong one stops the run (exit 1).
set -u
cd "$(dirname "$0")/.." || exit 1
RUNS=5 BS=1048576
while [ "${1:-}" = -n ] || [ "${1:-}" = -b ]; do
	if ! [[ ${2:-} =~ ^[1-9][0-9]*$ ]]; then
		echo "vhost-guest: $1 needs a positive number" >&2
		echo "try: bench/vhost-guest.sh [-n RUNS] [-b BS] BUILD_A BUILD_B" >&2
		exit 2
	fi
	[ "$1" = -n ] && RUNS=$2 || BS=$2
	shift 2
done
if [ $# -ne 2 ]; then
	echo "vhost-guest: need two build folders" >&2
	echo "try: bench/vhost-guest.sh [-n RUNS] [-b BS] BUILD_A BUILD_B" >&2
	exit 2
fi
for b; do
	[ -x "$b/vhost_dev" ] || { echo "vhost-guest: $b/vhost_dev is not built" >&2; exit 2; }
done
GUEST_DIR=${GUEST_DIR:-build-guest}
. shlib/vhost-dev.sh
. shlib/guest.sh
. shlib/median.sh
VHOST_DEV=$1/vhost_dev
if ! guest_ready; then
	echo "vhost-guest: $GUEST_WHY" >&2
	exit 77
fi
"$T/guest_io" mkdisk "$T/disk.img" $((64 << 20)) 7 || exit 1
want=$("$T/guest_io" sum "$T/disk.img" | awk '{ print $3 }')

# one BUILD: one boot; appends "boot_s mbps" to $T/BUILD-index results.
one() {
	local idx=$1 build=$2
	VHOST_DEV=$build/vhost_dev
	start_dev blk --type=blk --disk="$T/disk.img" || { echo "vhost_dev did not start" >&2; exit 1; }
	local pid=$DEV_PID
	boot bench "rigblk=1 rigbs=$BS" -chardev "socket,id=c0,path=$T/blk.sock" \
		-device vhost-user-blk-pci,chardev=c0,num-queues=1
	stop_dev "$pid"
	if [ "$(field blk_sum)" != "$want" ]; then
		echo "vhost-guest: $build: guest sum $(field blk_sum), want $want: $RESULT" >&2
		exit 1
	fi
	local cpu
	cpu=$(sed -n 's/^cpu: user \([0-9.]*\) s, system \([0-9.]*\) s$/\1 \2/p' "$T/blk.out" |
	      awk '{ printf "%.3f", $1 + $2 }')
	local kc
	kc=$(sed -En 's/^frontend: .* ([0-9]+) kicks, ([0-9]+) calls$/\1 kicks, \2 calls/p' "$T/blk.out" | tail -n 1)
	echo "$BOOT_S $(field blk_mbps) $cpu" >>"$T/r$idx"
	echo "$build ($(host_impl "$VHOST_DEV") vringh): boot to result $BOOT_S s, read $(field blk_mbps) MB/s, vhost_dev CPU $cpu s, $kc"
}

for ((i = 0; i < RUNS; i++)); do
	if ((i % 2 == 0)); then one 0 "$1"; one 1 "$2"; else one 1 "$2"; one 0 "$1"; fi
done
for idx in 0 1; do
	b=$([ $idx = 0 ] && echo "$1" || echo "$2")
	bt[$idx]=$(awk '{ print $1 }' "$T/r$idx" | median)
	mb[$idx]=$(awk '{ print $2 }' "$T/r$idx" | median)
	cp[$idx]=$(awk '{ print $3 }' "$T/r$idx" | median)
	echo "median $b ($(host_impl "$b/vhost_dev") vringh), $RUNS runs, reads of $BS bytes: boot to result ${bt[$idx]} s, read ${mb[$idx]} MB/s, vhost_dev CPU ${cp[$idx]} s"
done
awk -v a="${bt[0]}" -v b="${bt[1]}" -v c="${mb[0]}" -v d="${mb[1]}" -v e="${cp[0]}" -v f="${cp[1]}" \
	-v A="$1" -v B="$2" 'BEGIN { printf "ratio %s/%s: boot to result %.3f, read throughput %.3f, vhost_dev CPU %s\n", B, A, b / a, d / c, (e > 0 ? sprintf("%.3f", f / e) : "n/a") }'
