#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Real drivers against a misbehaving device: vhost_dev --torture=CASE
# serving the Linux test guest's virtio-blk and virtio-net (QEMU TCG, the
# 6.1 cloud kernel of tests/peers/guest-build.sh) and DPDK's virtio-user
# (testpmd), each case on a fresh vhost_dev and a fresh driver.  Prints one
# row per case, device and ring (the outcome and the driver's own message,
# the guest kernel's quoted from its console) and one PASS:/FAIL: line
# comparing the outcome with tests/peers/dev-torture.table (drivers
# "guest" and "dpdk").  A missing peer is a SKIP with the reason.
#
# Outcomes (the driver's):
#   crashed    guest: Oops, BUG, panic on the console; testpmd: a signal
#   detected   guest: the kernel named the fault after /init started
#              (virtio_ring's "id N out of range", "is not a head!", a
#              driver's own check), the queue then broken
#   accepted   wrong data or a wrong length reached the user (the guest's
#              read sum, a frame that came back different, the block
#              layer's "I/O error" for requests past the disk's real end),
#              or the driver went on and corrupted its own ring (vhost_dev
#              refused it)
#   hung       guest: no result within GUEST_WAIT s (8) of the rule being
#              broken, or a frame that never came back; DPDK: no frame
#              moved for 3 s before all came back
#   tolerated  the driver carried on: every byte checked (a net frame
#              dropped without a word, the rest intact, is tolerated)
#   not-done   the rule was never broken (vhost_dev's "never done"), or the
#              lie cannot reach the driver (QEMU's virtio-net keeps its own
#              config space)
#
# Usage: tests/peers/dev-torture-drivers.sh [--all] [--driver=guest|dpdk]
#            [--ring=split|packed] BUILD_DIR [LABEL]
#   --all     every case on the guest too (make torture-drivers); without
#             it the guest runs TORTURE_GUEST_SUBSET (tests/lib/dev-torture.sh)
#   --driver  only that driver (default both)
#   --ring    only that ring (default both)
#   RECORD=1 prints the rows in the table's format instead.
# Environment: GUEST_DIR (the guest build cache, default build-guest),
#   CASES=ERE (only the cases whose names match), GUEST_ROWS (the guest's
#   rows without --all, CASE:DEVICE:RING ..., default TORTURE_GUEST_SUBSET).
set -u
cd "$(dirname "$0")/../.."
ALL=0 DRIVERS="guest dpdk" RINGS="split packed"
usage() {
	echo "dev-torture-drivers.sh: $1" >&2
	echo "usage: tests/peers/dev-torture-drivers.sh [--all] [--driver=guest|dpdk]" \
		"[--ring=split|packed] BUILD_DIR [LABEL]" >&2
	exit 2
}
while [ $# -gt 0 ]; do
	case $1 in
	--all) ALL=1 ;;
	--driver=guest | --driver=dpdk) DRIVERS=${1#--driver=} ;;
	--ring=split | --ring=packed) RINGS=${1#--ring=} ;;
	-*) usage "unknown option $1" ;;
	*) break ;;
	esac
	shift
done
[ $# -ge 1 ] && [ $# -le 2 ] || usage "BUILD_DIR [LABEL]"
B=$1
LABEL=${2:-}
GUEST_DIR=${GUEST_DIR:-build-guest}
GUEST_WAIT=${GUEST_WAIT:-8}
VHOST_DEV=$B/vhost_dev
DISK_BYTES=$((16 << 20))
DPDK_FRAMES=5000
. tests/lib/vhost-dev.sh
. tests/lib/guest.sh
. tests/lib/testpmd.sh
. tests/lib/dev-torture.sh
[ -x "$VHOST_DEV" ] || { echo "FAIL: ${LABEL}dev-torture drivers: $VHOST_DEV is not built"; exit 1; }

# fired ERE FILE: has vhost_dev broken the rule yet?  fired_at: when it
# was seen ($tick + 1, in tenths of a second).  A config case lies from the
# start: its bound runs from the driver's first sign of life, a line of
# FILE matching ERE.
fired_at=0
fired() {
	[ "$fired_at" != 0 ] && return 0
	if { [[ $c == blk-* || $c == net-* ]] && grep -aqE "$1" "$2"; } ||
		grep -q '^torture: .*: done' "$T/dev.err"; then
		fired_at=$((tick + 1))
		return 0
	fi
	return 1
}

# The kernel's lines that name a fault: the virtio drivers' and
# virtio_ring's (BAD_RING prints "virtio_blk virtio0: req.0:id N ...").
FAULT='^virtio_(blk|net) virtio[0-9]+: |virtio_ring'
# kmsg ERE: the guest kernel's first line matching ERE once /init started
# (RIG-INIT), timestamp cut.
kmsg() {
	tr -d '\r' <"$T/console" | sed -n '/RIG-INIT/,$ s/^\[ *[0-9.]*\] //p' |
		grep -E "$1" | head -n 1
}

# guest_one CASE DEVICE RING: one boot; sets OUT ("OUTCOME|MESSAGE").
guest_one() {
	local c=$1 dev=$2 ring=$3 opts="" cmd waited attempt
	local why res msg sum
	local -a args da
	[ "$ring" = packed ] && opts=",packed=on"
	[ "$c" = packed-mid-id ] && opts="$opts,indirect_desc=off"
	if [ "$dev" = blk ]; then
		da=(--type=blk --disk="$T/disk.img")
		"$T/guest_io" mkdisk "$T/disk.img" "$DISK_BYTES" 7 || { OUT="error|mkdisk"; return; }
		args=(-chardev "socket,id=c0,path=$T/dev.sock"
		      -device "vhost-user-blk-pci,chardev=c0,num-queues=1$opts")
		cmd="rigblk=1 rigbs=65536"
	else
		da=(--type=net)
		args=(-chardev "socket,id=n0c,path=$T/dev.sock" -netdev vhost-user,id=n0,chardev=n0c
		      -device "virtio-net-pci,netdev=n0,vectors=0$opts")
		cmd="rignet=300"
	fi
	[ "$c" = net-queue-pairs ] && da+=(--queues=2)
	# A boot that never reached /init (TCG under load: "IO-APIC + timer
	# doesn't work!") is tried once more.
	for attempt in 1 2; do
		guest_boot || return
		grep -aq RIG-INIT "$T/console" && break
	done
	if ! grep -aq RIG-INIT "$T/console"; then
		OUT="error|the guest did not reach /init twice: $(tr -d '\r' <"$T/console" | grep -v '^$' | tail -n 1)"
		return
	fi
	classify_guest
}

# guest_boot: one boot (guest_one's locals), the console in $T/console.
guest_boot() {
	local qpid tick=0 said_at=0
	waited=$GUEST_WAIT
	if ! start_dev dev "${da[@]}" --torture="$c"; then
		OUT="error|vhost_dev did not start: $(head -n 1 "$T/dev.err")"
		return 1
	fi
	# loglevel=5: the kernel's warnings and errors on the console.
	guest_cmd "$cmd loglevel=5" "${args[@]}"
	"${QEMU_CMD[@]}" </dev/null >"$T/console" 2>&1 &
	qpid=$!
	PIDS="$PIDS $qpid"
	fired_at=0
	# Bounded: GUEST_WAIT s once the rule is broken, 3 s once the kernel
	# named the fault (time for an oops to follow), 90 s in all.
	while kill -0 "$qpid" 2>/dev/null && [ $tick -lt 900 ]; do
		if fired RIG-INIT "$T/console" && [ $((tick - fired_at)) -ge $((GUEST_WAIT * 10)) ]; then
			break
		fi
		if [ "$said_at" = 0 ] && [ -n "$(kmsg "$FAULT")" ]; then
			said_at=$tick
		elif [ "$said_at" != 0 ] && [ $((tick - said_at)) -ge 30 ]; then
			waited=3
			break
		fi
		sleep 0.1
		tick=$((tick + 1))
	done
	kill "$qpid" 2>/dev/null
	wait "$qpid" 2>/dev/null
	forget_pid "$qpid"
	stop_dev "$DEV_PID"
}

# classify_guest: OUT from the boot's console (guest_one's locals).
classify_guest() {
	RESULT=$(grep -ao 'RIG-RESULT.*' "$T/console" | tr -d '\r' | tail -n 1)
	# QEMU's virtio-net keeps a config space of its own (vhost-user/README).
	if [[ $c == net-* ]] && msg=$(grep -a -m1 'PROTOCOL_F_CONFIG but QEMU does not' "$T/console"); then
		OUT="not-done|the lie never reaches the guest: ${msg//$'\r'/}"
		return
	fi
	if grep -q 'never done' "$T/dev.out"; then
		OUT="not-done|vhost_dev never broke the rule: $(grep -m1 'never done' "$T/dev.out")"
		return
	fi
	if [ -z "$RESULT" ]; then
		res="then no result within $waited s"
	else
		res="then $(tr -d '\r' <"$T/console" | grep -m1 '^guest_io: ' || echo "$RESULT")"
	fi
	msg=$(kmsg 'Oops|BUG:|Kernel panic|general protection|Call Trace')
	if [ -n "$msg" ]; then
		OUT="crashed|$msg"
		return
	fi
	msg=$(kmsg "$FAULT")
	if [ -n "$msg" ]; then
		OUT="detected|$msg; $res"
		return
	fi
	if [ "$dev" = blk ] && [ -n "$RESULT" ] && [[ $RESULT != *error=* ]]; then
		sum=$(field blk_sum)
		if [ "$(field blk_bytes)" != "$DISK_BYTES" ] || [ "$sum" != "$WANT_SUM" ]; then
			OUT="accepted|guest read $(field blk_bytes) bytes, sum $sum (the disk's: $WANT_SUM)"
			return
		fi
	fi
	# The device failed requests the lie led to (past the disk's end).
	msg=$(kmsg 'I/O error')
	if [ "$dev" = blk ] && [ -n "$msg" ]; then
		OUT="accepted|$msg; $res"
		return
	fi
	if [ "$dev" = net ] && [ -n "$(field net_bad)" ] && [ "$(field net_bad)" != 0 ]; then
		OUT="accepted|$(field net_bad) frames came back different: $(grep -m1 'differs' "$T/console" | tr -d '\r')"
		return
	fi
	if [ -z "$RESULT" ] || [[ $RESULT == *error=* && $(field net_lost) == "" ]] ||
		grep -q 'did not come back' "$T/console"; then
		OUT="hung|no word from the kernel; $res"
		return
	fi
	why=""
	[ "$dev" = net ] && [ "$(field net_lost)" != 0 ] &&
		why="$(field net_lost) frame(s) dropped without a word, the rest intact"
	OUT="tolerated|$why"
}

# dpdk_one CASE RING: testpmd (io forwarding, in_order=0) sends back what
# vhost_dev --net=source sends, DPDK_FRAMES frames; sets OUT.
dpdk_one() {
	local c=$1 ring=$2 ppid tick=0 last=-1 same=0 n rc msg stuck=0 q=()
	[ "$c" = net-queue-pairs ] && q=(--queues=2)
	if ! start_dev dev --type=net "${q[@]}" --net=source --frames=$DPDK_FRAMES --torture="$c"; then
		OUT="error|vhost_dev did not start: $(head -n 1 "$T/dev.err")"
		return
	fi
	testpmd_cmd '0@0,1@0' "rig-peers-$$" \
		"net_virtio_user0,path=$T/dev.sock,queues=1,packed_vq=$([ "$ring" = packed ] && echo 1 || echo 0),in_order=0"
	"${TESTPMD[@]}" </dev/null >"$T/pmd.out" 2>&1 &
	ppid=$!
	PIDS="$PIDS $ppid"
	# Until every frame came back, testpmd died, or, once the rule is
	# broken, its once-a-second statistics show no frame sent for 3 s
	# (60 s in all).
	fired_at=0
	while kill -0 "$ppid" 2>/dev/null && [ $tick -lt 600 ]; do
		grep -q '^net: mode=source' "$T/dev.out" && break
		n=$(grep -ao 'TX-packets: *[0-9]*' "$T/pmd.out" 2>/dev/null | tail -n 1)
		if [ -z "$n" ] || ! fired 'TX-packets: +[1-9]' "$T/pmd.out" 2>/dev/null ||
			[ "$n" != "$last" ]; then
			same=0 last=$n
		else
			same=$((same + 1))
		fi
		[ $same -ge 30 ] && break
		sleep 0.1
		tick=$((tick + 1))
	done
	kill -INT "$ppid" 2>/dev/null
	poll_gone 100 "$ppid" || { stuck=1; kill -KILL "$ppid" 2>/dev/null; }
	wait "$ppid"
	rc=$?
	forget_pid "$ppid"
	rm -rf "/var/run/dpdk/rig-peers-$$"
	stop_dev "$DEV_PID"
	if grep -q 'never done' "$T/dev.out"; then
		OUT="not-done|vhost_dev never broke the rule: $(grep -m1 'never done' "$T/dev.out")"
	elif [ $stuck = 1 ]; then
		OUT="hung|testpmd did not exit within 5 s of SIGINT (killed)"
	elif [ $rc -gt 128 ]; then
		OUT="crashed|testpmd killed by SIG$(kill -l $((rc - 128))) (exit status $rc)"
	elif msg=$(grep -m1 -E 'virtio.*(error|fail|invalid|bad)' "$T/pmd.out"); then
		OUT="detected|$msg"
	elif msg=$(grep -m1 -E 'came back wrong|refused the ring' "$T/dev.err"); then
		OUT="accepted|vhost_dev: $msg"
	elif ! grep -q "^net: mode=source rx=$DPDK_FRAMES tx=$DPDK_FRAMES returned=$DPDK_FRAMES dropped=0 bad=0 " "$T/dev.out"; then
		OUT="hung|no frame for 3 s; vhost_dev: $(grep -m1 '^net:' "$T/dev.out")"
	else
		OUT="tolerated|"
	fi
}

[ "${RECORD:-0}" = 1 ] || printf '%-6s %-18s %-4s %-7s %-10s %s\n' driver case dev ring outcome message
bad=0
# row DRIVER CASE DEVICE RING: run it (OUT set) and say how it went.
row() {
	local outcome msg
	IFS='|' read -r outcome msg <<<"$OUT"
	if [ "${RECORD:-0}" = 1 ]; then
		printf '%-7s %-18s %-4s %-7s %s\n' "$1" "$2" "$3" "$4" "$outcome"
		return
	fi
	printf '%-6s %-18s %-4s %-7s %-10s %s (%d s)\n' "$1" "$2" "$3" "$4" "$outcome" "$msg" \
		$((SECONDS - T0))
	torture_verdict "$@" "$outcome"
}

if [[ $DRIVERS != *guest* ]]; then
	:
elif ! guest_ready; then
	echo "SKIP: ${LABEL}dev-torture guest: $GUEST_WHY"
else
	"$T/guest_io" mkdisk "$T/disk.img" "$DISK_BYTES" 7 &&
		WANT_SUM=$("$T/guest_io" sum "$T/disk.img" | awk '{ print $3 }')
	while read -r c dev ring; do
		[[ " $RINGS " == *" $ring "* && $c =~ ${CASES:-.} ]] || continue
		[ $ALL = 1 ] || [[ " ${GUEST_ROWS:-$TORTURE_GUEST_SUBSET} " == *" $c:$dev:$ring "* ]] ||
			continue
		T0=$SECONDS
		guest_one "$c" "$dev" "$ring"
		row guest "$c" "$dev" "$ring"
	done < <(torture_rows "$VHOST_DEV" blk net)
fi
if [[ $DRIVERS != *dpdk* ]]; then
	:
elif ! command -v dpdk-testpmd >/dev/null; then
	echo "SKIP: ${LABEL}dev-torture dpdk: no dpdk-testpmd (apt-get install dpdk-dev)"
else
	while read -r c dev ring; do
		[[ " $RINGS " == *" $ring "* && $c =~ ${CASES:-.} ]] || continue
		T0=$SECONDS
		dpdk_one "$c" "$ring"
		row dpdk "$c" "$dev" "$ring"
	done < <(torture_rows "$VHOST_DEV" net)
fi
exit $bad
