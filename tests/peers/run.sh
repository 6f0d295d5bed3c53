#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Real drivers against vhost_dev (our vhost-user backend on vringh):
#  - a Linux guest under QEMU (TCG): virtio-blk reads the whole 64 MiB disk
#    and checks its sum, writes a pattern the host then verifies; virtio-net
#    sends frames that the loopback backend returns and the guest checks;
#  - DPDK's virtio-user (testpmd, io forwarding): frames the backend sends
#    come back and are checked one by one.
# Prints KTAP (tests/lib/result.sh), a result per check.  A missing peer
# or kernel is a SKIP with the reason.
#
# Usage: tests/peers/run.sh [--full] [--guest] BUILD_DIR
#   --full    every ring option combination (make check runs a subset)
#   --guest   the Linux guest's checks alone (make check runs the 7.3
#             guest's so, GUEST_LINUX=7.3: shlib/guest.sh)
# Environment: PEER_FRAMES (DPDK frames per run, default 1000000),
#   GUEST_LINUX (the guest's Debian kernel: 6.1, the default, or 7.3),
#   GUEST_DIR (guest build cache, default build-guest in the source tree,
#   build-guest-7.3, build-guest-user with GUEST_KERNEL), GUEST_KERNEL (the user's kernel,
#   a linux-image .deb or a kernel image: tests/peers/guest-build.sh),
#   PEER_PREFIX (put before every check's name).
set -u
cd "$(dirname "$0")/../.." || exit 1
FULL=0 GUEST_ONLY=0
while :; do
	case ${1:-} in
	--full) FULL=1 ;;
	--guest) GUEST_ONLY=1 ;;
	*) break ;;
	esac
	shift
done
FRAMES=${PEER_FRAMES:-1000000}
. tests/lib/peer-suite.sh peers "${1:-.}"
. shlib/testpmd.sh
# offered VHOST_DEV: the feature bits it offers.
offered() { "$1" --type=blk --print-features | sed -n 's/^features //p'; }
OFFERED=$(offered "$VHOST_DEV")
HOST_IMPL=$(host_impl "$VHOST_DEV")

# guest_blk NAME QEMU-DEVICE-OPTIONS [net]: one boot with a vhost-user-blk
# device (and with "net", a vhost-user virtio-net device too), GUEST_SMP
# vCPUs (default 1).  QEMU's default queue counts against vhost_dev's,
# neither given: the blk device's num-queues (one per vCPU); the net
# device mq=on with a queue pair per vCPU.
guest_blk() {
	local name=$1 opts=$2 net=${3:-} want_packed=0 want_ind=1 want_evt=1 a why=()
	local smp=${GUEST_SMP:-1}
	DEV_FAILS=""
	local blk_pid net_pid cmd="rigblk=1 rigwrite=$WRITE_OFF,$WRITE_LEN,$WSEED" args=()

	[[ $opts == *packed=on* ]] && want_packed=1
	[[ $opts == *indirect_desc=off* ]] && want_ind=0
	[[ $opts == *event_idx=off* ]] && want_evt=0
	guest_ready_or_say "$name" || return
	if [ $want_packed = 1 ] && ! has_bit "$OFFERED" 34; then
		skip "$name" "the host ring code ($HOST_IMPL vringh) has no $(bit_name 34)"
		return
	fi
	"$T/guest_io" mkdisk "$T/disk.img" "$DISK_BYTES" "$SEED" || { fail "$name" "mkdisk"; return; }
	local want_sum
	want_sum=$("$T/guest_io" sum "$T/disk.img" | awk '{ print $3 }')
	if ! start_dev blk --type=blk --disk="$T/disk.img"; then
		fail "$name" "vhost_dev --type=blk did not start: $(head -n 3 "$T/blk.err")"
		return
	fi
	blk_pid=$DEV_PID
	args=(-chardev "socket,id=c0,path=$T/blk.sock"
	      -device "vhost-user-blk-pci,chardev=c0$opts")
	if [ -n "$net" ]; then
		if ! start_dev net --type=net; then
			fail "$name" "vhost_dev --type=net did not start"
			stop_dev "$blk_pid"
			return
		fi
		net_pid=$DEV_PID
		cmd="$cmd rignet=2000"
		args+=(-chardev "socket,id=n0c,path=$T/net.sock"
		       -netdev "vhost-user,id=n0,chardev=n0c,queues=$smp"
		       -device "virtio-net-pci,netdev=n0,vectors=0$opts$([ "$smp" -gt 1 ] && echo ,mq=on)")
	fi
	boot "$name" "$cmd" "${args[@]}"
	[ "$BOOT_RC" -eq 0 ] || why+=("qemu exit status $BOOT_RC")
	[ -n "$RESULT" ] || why+=("no RIG-RESULT line: $(guest_end "$name")")
	[[ $RESULT == *error=* ]] && why+=("guest: $RESULT" "$(guest_errors "$name")")
	[ "$(field blk_bytes)" = "$DISK_BYTES" ] || why+=("guest read $(field blk_bytes) bytes")
	[ "$(field blk_sum)" = "$want_sum" ] || why+=("guest sum $(field blk_sum), host $want_sum")
	[ "$(field blk_write)" = ok ] || why+=("guest write failed")
	if [ -n "$net" ]; then
		[ "$(field net_sent)" = 2000 ] && [ "$(field net_received)" = 2000 ] &&
			[ "$(field net_bad)" = 0 ] || why+=("guest net: $RESULT")
	fi
	stop_dev "$blk_pid"
	[ -n "$net" ] && stop_dev "$net_pid"

	"$T/guest_io" verify "$T/disk.img" "$WRITE_OFF" "$WRITE_LEN" "$WSEED" >/dev/null 2>&1 ||
		why+=("the guest's pattern is not on the host's disk")
	[ "$(grep -c '^frontend: ' "$T/blk.out")" = 1 ] ||
		why+=("backend served $(grep -c '^frontend: ' "$T/blk.out") frontends, not 1")
	a=$(acked "$T/blk.out")
	if [ -z "$a" ]; then
		why+=("backend saw no SET_FEATURES")
	else
		has_bit "$a" 34; [ $? = $((1 - want_packed)) ] || why+=("packed acked: $a")
		has_bit "$a" 28; [ $? = $((1 - want_ind)) ] || why+=("indirect acked: $a")
		has_bit "$a" 29; [ $? = $((1 - want_evt)) ] || why+=("event_idx acked: $a")
		# 12: VIRTIO_BLK_F_MQ, acked by QEMU when it has several queues.
		has_bit "$a" 12; [ $? = $((smp > 1 ? 0 : 1)) ] || why+=("blk MQ acked: $a")
	fi
	grep '^frontend: ' "$T/blk.out" | grep -qv ' 0 errors, ' &&
		why+=("backend: $(head -n 2 "$T/blk.err")")
	grep -q ' bad=0$' "$T/blk.out" || why+=("backend: $(grep '^blk:' "$T/blk.out")")
	if [ -n "$net" ]; then
		# The guest may send a frame of its own (IPv6) besides the 2000.
		local rx tx
		# (returned= is a source's figure: a loopback does not print it)
		rx=$(sed -n 's/^net: mode=loopback rx=\([0-9]*\) tx=\([0-9]*\) dropped=0 bad=0\( .*\)\{0,1\}$/\1/p' "$T/net.out")
		tx=$(sed -n 's/^net: mode=loopback rx=\([0-9]*\) tx=\([0-9]*\) dropped=0 bad=0\( .*\)\{0,1\}$/\2/p' "$T/net.out")
		[ -n "$rx" ] && [ "$rx" = "$tx" ] && [ "$rx" -ge 2000 ] ||
			why+=("backend: $(grep '^net:' "$T/net.out")")
		a=$(acked "$T/net.out")
		[ -n "$a" ] && { has_bit "$a" 34; [ $? = $((1 - want_packed)) ]; } ||
			why+=("net: packed acked: $a")
		# 22: VIRTIO_NET_F_MQ.
		[ -n "$a" ] && { has_bit "$a" 22; [ $? = $((smp > 1 ? 0 : 1)) ]; } ||
			why+=("net: MQ acked: $a")
	fi
	[ -z "$DEV_FAILS" ] || why+=("$DEV_FAILS $(tail -n 3 "$T/blk.err" "$T/net.err" 2>/dev/null)")
	verdict "$name" "boot to result ${BOOT_S} s, guest read $(field blk_mbps) MB/s${net:+, longest wait for a frame $(field net_wait_ms) ms} (host ring code: $HOST_IMPL)" "${why[@]}"
}

# ---- DPDK ----

# pmd_start SOCK [DEVARGS [QUEUES]]: DPDK's virtio-user driver (testpmd) on
# SOCK in the background with QUEUES queue pairs (default 1; testpmd
# forwards rx queue q to tx queue q), bounded to 120 s, its output in
# $T/pmd.out; PMD_PID.
pmd_start() {
	local q=${3:-1}
	testpmd_cmd '0@0,1@0' "rig-peers-$$" "net_virtio_user0,path=$1,queues=$q${2:+,$2}"
	timeout 120 "${TESTPMD[@]}" --rxq="$q" --txq="$q" </dev/null >"$T/pmd.out" 2>&1 &
	PMD_PID=$!
	PIDS="$PIDS $PMD_PID"
}

# pmd_stop: testpmd prints its statistics and exits on SIGINT.
pmd_stop() {
	kill -INT "$PMD_PID" 2>/dev/null
	wait "$PMD_PID" 2>/dev/null
	forget_pid "$PMD_PID"
	rm -rf "/var/run/dpdk/rig-peers-$$"
}

bit_name() {
	case $1 in
	34) echo "packed ring (VIRTIO_F_RING_PACKED)" ;;
	35) echo "in-order support (VIRTIO_F_IN_ORDER)" ;;
	*) echo "feature bit $1" ;;
	esac
}

# dpdk_run NAME DEVARGS WANT_BITS [QUEUES]: vhost_dev --net=source (its
# default queues: as many as a frontend may ask for) sends $FRAMES frames
# over the QUEUES queue pairs testpmd sets up (default 1), testpmd returns them,
# vhost_dev checks each one (its pair, its place in the pair's sequence,
# every byte); with several pairs each must have carried frames.
dpdk_run() {
	local name=$1 devargs=$2 want_bits=$3 queues=${4:-1} dev_pid i a per why=()
	DEV_FAILS=""
	if ! command -v dpdk-testpmd >/dev/null; then
		skip "$name" "no dpdk-testpmd (apt-get install dpdk-dev)"
		return
	fi
	for i in $want_bits; do
		if ! has_bit "$OFFERED" "$i"; then
			skip "$name" "the host ring code ($HOST_IMPL vringh) has no $(bit_name "$i")"
			return
		fi
	done
	if ! start_dev dpdk --type=net --net=source --frames="$FRAMES"; then
		fail "$name" "vhost_dev --type=net did not start"
		return
	fi
	dev_pid=$DEV_PID
	pmd_start "$T/dpdk.sock" "$devargs" "$queues"
	poll_until 1200 "$PMD_PID" grep -q '^net: mode=source' "$T/dpdk.out"
	pmd_stop
	stop_dev "$dev_pid"
	grep -q "^net: mode=source rx=$FRAMES tx=$FRAMES returned=$FRAMES dropped=0 bad=0 " "$T/dpdk.out" ||
		why+=("backend: $(grep '^net:' "$T/dpdk.out" | tail -n 1)"
		      "$(head -n 3 "$T/dpdk.err")" "testpmd: $(grep -iE 'error|fail' "$T/pmd.out" | head -n 2)")
	[ -z "$DEV_FAILS" ] || why+=("$DEV_FAILS $(tail -n 3 "$T/dpdk.err")")
	a=$(acked "$T/dpdk.out")
	for i in $want_bits; do
		[ -n "$a" ] && has_bit "$a" "$i" || why+=("feature bit $i not acked ($a)")
	done
	if [ "$queues" -gt 1 ]; then
		# 22: VIRTIO_NET_F_MQ.
		[ -n "$a" ] && has_bit "$a" 22 || why+=("VIRTIO_NET_F_MQ not acked ($a)")
		per=$(sed -n 's/^net: mode=source .* rx_per_pair=\([0-9,]*\)$/\1/p' "$T/dpdk.out" | tail -n 1)
		[[ $per =~ ^[1-9][0-9]*(,[1-9][0-9]*){$((queues - 1))}$ ]] ||
			why+=("frames per pair: '$per' (each of $queues pairs must carry some)")
	fi
	verdict "$name" "" "${why[@]}"
}

GUEST_SMP=2 guest_blk "guest -smp 2, QEMU's and vhost_dev's default queues: virtio-blk split + virtio-net mq=on (vhost-user, QEMU TCG)" "" net
guest_blk "guest virtio-blk split indirect_desc=off event_idx=off" ",indirect_desc=off,event_idx=off"
guest_blk "guest virtio-blk packed" ",packed=on"
guest_blk "guest virtio-blk packed indirect_desc=off event_idx=off" ",packed=on,indirect_desc=off,event_idx=off"
SEABIOS=1 guest_blk "guest with SeaBIOS, which drives the disk before Linux restarts it" ""
if [ $FULL = 1 ]; then
	guest_blk "guest virtio-blk split indirect_desc=off" ",indirect_desc=off"
	guest_blk "guest virtio-blk split event_idx=off" ",event_idx=off"
	guest_blk "guest virtio-blk packed indirect_desc=off" ",packed=on,indirect_desc=off"
	guest_blk "guest virtio-blk packed event_idx=off" ",packed=on,event_idx=off"
	guest_blk "guest virtio-net packed" ",packed=on" net
fi
[ $GUEST_ONLY = 0 ] || ktap_finished
# testpmd stopped mid-run and started again on the same vhost_dev: the
# second one gets what the first left, from the first frame not returned.
# recon_turn_over K: the first testpmd goes once it has sent frames back
# (its once-a-second statistics say so), the second at the end.
recon_turn_over() {
	{ [ "$1" = 1 ] && grep -Eq 'TX-packets: +[1-9]' "$T/pmd.out"; } ||
		grep -q '^net: mode=source' "$T/recon.out"
}
dpdk_reconnect_run() {
	local name="DPDK virtio-user stopped mid-run and started again (the frontend comes back)"
	local n=$((3 * FRAMES)) k dev_pid why=()
	if ! command -v dpdk-testpmd >/dev/null; then
		skip "$name" "no dpdk-testpmd (apt-get install dpdk-dev)"
		return
	fi
	DEV_FAILS=""
	if ! CONNS=2 start_dev recon --type=net --net=source --frames=$n; then
		fail "$name" "vhost_dev --type=net did not start"
		return
	fi
	dev_pid=$DEV_PID
	for k in 1 2; do
		pmd_start "$T/recon.sock"
		poll_until 1200 "$PMD_PID" recon_turn_over "$k"
		pmd_stop
	done
	stop_dev "$dev_pid"
	grep -q "^net: mode=source rx=$n tx=$n returned=$n dropped=0 bad=0 probes=2$" "$T/recon.out" ||
		why+=("backend: $(grep '^net:' "$T/recon.out" | tail -n 1)" "$(head -n 3 "$T/recon.err")")
	[ "$(grep -c '^frontend: ' "$T/recon.out")" = 2 ] || why+=("not two frontends")
	[ -z "$DEV_FAILS" ] || why+=("$DEV_FAILS")
	verdict "$name" "" "${why[@]}"
}

# DPDK as the server (server=1), vhost_dev --connect: 100000 frames.
dpdk_server_run() {
	local name="DPDK virtio-user as the server, vhost_dev --connect" n=100000 dev_pid why=()
	if ! command -v dpdk-testpmd >/dev/null; then
		skip "$name" "no dpdk-testpmd (apt-get install dpdk-dev)"
		return
	fi
	DEV_FAILS=""
	pmd_start "$T/srv.sock" server=1
	# testpmd's EAL can take tens of seconds to start on a loaded machine.
	poll_until $((${DEV_TIMEOUT:-60} * 20)) "$PMD_PID" test -S "$T/srv.sock"
	"$VHOST_DEV" --socket="$T/srv.sock" --connect --type=net --net=source --frames=$n \
		>"$T/srv.out" 2>"$T/srv.err" &
	dev_pid=$!
	PIDS="$PIDS $dev_pid"
	poll_until 1200 "$dev_pid" grep -q '^net: mode=source' "$T/srv.out" 2>/dev/null
	pmd_stop
	stop_dev "$dev_pid"
	grep -q "^net: mode=source rx=$n tx=$n returned=$n dropped=0 bad=0 " "$T/srv.out" ||
		why+=("backend: $(grep '^net:' "$T/srv.out" | tail -n 1)" "$(head -n 3 "$T/srv.err")")
	[ -z "$DEV_FAILS" ] || why+=("$DEV_FAILS")
	verdict "$name" "" "${why[@]}"
}

dpdk_run "DPDK virtio-user split, $FRAMES frames" "packed_vq=0,in_order=0" ""
dpdk_run "DPDK virtio-user packed, $FRAMES frames" "packed_vq=1,in_order=0" "34"
dpdk_run "DPDK virtio-user split in-order, $FRAMES frames" "packed_vq=0,in_order=1" "35"
dpdk_run "DPDK virtio-user packed in-order, $FRAMES frames" "packed_vq=1,in_order=1" "34 35"
dpdk_run "DPDK virtio-user 2 queue pairs (testpmd --rxq=2 --txq=2), $FRAMES frames" \
	"packed_vq=0,in_order=0" "" 2
dpdk_server_run
[ $FULL = 1 ] && dpdk_reconnect_run
ktap_finished
