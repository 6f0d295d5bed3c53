#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/vhost-in-order.sh [-n PAIRS] [-x BUFFERS] BUILD_DIR [OPTION...]:
# what VIRTIO_F_IN_ORDER saves in a kernel tree's own vhost core (the
# question of issue 8's seed: the device takes the next head in ring
# order, reading no avail entry, and returns a batch with one used entry).
# BUILD_DIR is a KSRC= build (kernel/kernel: the tree's driver and vhost
# core) whose core has the in-order path; OPTIONs go to vring_bench (e.g.
# --sg 1).  vring_bench --vhost serves the ring in its one thread, so:
#   per buffer, under callgrind with ab/count.sh's simulated caches (60000
#   buffers minus 10000, over 50000): instructions, L1 (I1 and D1) and LL
#   misses, as ab/count.sh sums them, inside vhost_core_serve() (the device: the vhost core and the device's
#   own loop) and in the whole run (main(), the driver too);
#   for the tree's test device (--vhost=test: a used entry a buffer, one
#   vhost_add_used() each), the rig's batch device out of order
#   (--vhost=batch: a used entry a buffer, one vhost_add_used_n() a kick)
#   and in order (--vhost --in-order: one used entry a kick);
#   and CPU time per buffer of the whole run, out of order against in
#   order on the batch device, in PAIRS (default 21) interleaved pairs
#   (ab/compare -m cpu: the medians, and the median of the pair ratios
#   with its 95% interval): vring_bench of BUFFERS (default 300000)
#   buffers, driver and device in one thread; and virtio_test
#   --batch=random, its 0x100000 buffers of 1024 bytes, the driver on one
#   CPU and the vhost worker on the other, where the device reads what
#   the driver wrote on another CPU (CPU time of both); and the same with
#   one used entry a buffer in order too (--in-order=1).
# Prints one table.  Exit status 0, 1 if a run failed, 2 on a usage error,
# 77 if the build has no in-order vhost core.
set -u
here=$(cd "$(dirname "$0")/../ab" && pwd) || exit 1
usage() {
	echo "vhost-in-order: $1" >&2
	echo "usage: bench/vhost-in-order.sh [-n PAIRS] [-x BUFFERS] BUILD_DIR [OPTION...]" >&2
	exit 2
}
# shellcheck source=SCRIPTDIR/../ab/lib.sh
. "$here/lib.sh"
pairs=21 adds=300000
while getopts n:x:h o; do
	case $o in
	n) set_pairs "$OPTARG" ;;
	x) set_adds "$OPTARG" ;;
	h) sed -n '3,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) usage "unknown option" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage "BUILD_DIR is missing"
B=$1
shift
[ "$pairs" -ge 3 ] || usage "-n: at least 3 pairs"
GRIND_PROGS=vring_bench grind_setup vhost-in-order "$B"
LO=10000
HI=60000

# count REGION DEVICE...: "INSTRUCTIONS D1 LL" per buffer of vring_bench
# DEVICE OPTION... inside REGION (and what it calls).
count() {
	region=$1
	shift
	for n in $LO $HI; do
		# In BUILD_DIR, as ./vring_bench, with an empty environment: the
		# same stack layout, so the misses repeat (ab/count.sh).
		# shellcheck disable=SC2086 # options are words
		(cd "$B" && exec env -i "$VALGRIND" --tool=callgrind --cache-sim=yes $CACHES \
			--callgrind-out-file=/dev/null --toggle-collect="$region" $NOPRINT \
			./vring_bench "$@" $n) >"$tmp/log" 2>&1
		rc=$?
		if [ $rc -eq 77 ]; then
			sed -n '1s/^/vhost-in-order: /p' "$tmp/log" >&2
			exit 77
		fi
		[ $rc -eq 0 ] || { sed 's/^/  | /' "$tmp/log" >&2; die "vring_bench $* $n failed (exit $rc)"; }
		# "Collected : Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw": the
		# misses as ab/count.sh sums them (instructions' and data's).
		sed -n 's/^==[0-9]*== Collected : //p' "$tmp/log" | tail -n 1 |
			awk '{ print $1, $4 + $5 + $6, $7 + $8 + $9 }' >"$tmp/$n"
		[ -s "$tmp/$n" ] || die "no callgrind summary from vring_bench $*"
	done
	paste "$tmp/$HI" "$tmp/$LO" | awk -v d=$((HI - LO)) \
		'{ printf "%.2f %.2f %.2f\n", ($1 - $4) / d, ($2 - $5) / d, ($3 - $6) / d }'
}

echo "vring_bench --vhost $* in $B: $("$B/vring_bench" --version)"
for dev in "--vhost=test" "--vhost=batch" "--vhost=batch --in-order"; do
	# shellcheck disable=SC2086 # options are words
	echo "$(count vhost_core_serve $dev "$@") $(count main $dev "$@")" >"$tmp/$(echo $dev | tr -dc a-z)"
done
printf '%-40s %10s %10s %10s %8s\n' "per buffer" "test.c" "batch off" "batch on" "on/off"
awk -v t="$(cat "$tmp/vhosttest")" -v f="$(cat "$tmp/vhostbatch")" \
	-v o="$(cat "$tmp/vhostbatchinorder")" 'BEGIN {
	split("instructions L1_misses LL_misses", what, " ")
	split(t, T, " "); split(f, F, " "); split(o, O, " ")
	for (i = 1; i <= 6; i++) {
		name = (i <= 3 ? "device " : "whole run ") what[(i - 1) % 3 + 1]
		gsub(/_/, " ", name)
		printf "%-40s %10.2f %10.2f %10.2f %8s\n", name, T[i], F[i], O[i],
			(F[i] > 0 ? sprintf("%.4f", O[i] / F[i]) : "-")
	}
}'
# timed NAME BUFFERS CMD_A CMD_B: CPU time per buffer of the two commands,
# interleaved pairs: the medians and the median of the pair ratios B/A
# with its 95% interval (ab/compare).
timed() {
	"$here/compare" -q -m cpu -n "$pairs" --json "$3" "$4" >"$tmp/cpu.json" ||
		die "ab/compare failed: $3 against $4"
	awk -v name="$1" -v n="$2" '
		/"median":/ { m = $0; sub(/.*"median": /, "", m); sub(/,.*/, "", m); med[++k] = m }
		/"ratio":/ { r = $2 + 0 } /"ci_low":/ { lo = $2 + 0 } /"ci_high":/ { hi = $2 + 0 }
		END {
			printf "%-40s %10s %10.2f %10.2f %8.4f\n", name, "-", med[1] / n, med[2] / n, r
			printf "%-40s %10s %10s %10s %8s\n", "  95% interval of on/off", "", "", "",
				sprintf("%.3f..%.3f", lo, hi)
		}' "$tmp/cpu.json"
}
# One thread, driver and device: vring_bench.
timed "CPU ns, vring_bench (median of $pairs)" "$adds" \
	"cd $B && ./vring_bench --vhost=batch $* $adds" \
	"cd $B && ./vring_bench --vhost=batch --in-order $* $adds"
# Two CPUs, the driver on one and the vhost worker on the other:
# virtio_test (its own 1024-byte buffers; OPTIONs are vring_bench's).
timed "CPU ns, virtio_test (median of $pairs)" $((0x100000)) \
	"cd $B && ./virtio_test --vhost=batch --batch=random 2>/dev/null" \
	"cd $B && ./virtio_test --vhost=batch --in-order --batch=random 2>/dev/null"
# The same with a used entry a buffer in order too (--in-order=1): what
# is left is the head taken without an avail read, and the driver's
# in-order path.
timed "CPU ns, virtio_test, on: --in-order=1" $((0x100000)) \
	"cd $B && ./virtio_test --vhost=batch --batch=random 2>/dev/null" \
	"cd $B && ./virtio_test --vhost=batch --in-order=1 --batch=random 2>/dev/null"
