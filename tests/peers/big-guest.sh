#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The guest as users start it, against vhost_dev: a check suite of its own
# (make check runs it after tests/peers/run.sh, whose guest it boots:
# shlib/guest.sh), so that its two big boots have a time bound of their
# own.  tests/README ("The peers") says what it asserts and what it costs.
#
# Usage: tests/peers/big-guest.sh BUILD_DIR
# Environment: GUEST_DIR, GUEST_KERNEL, PEER_PREFIX as for tests/peers/run.sh.
#
# 4 vCPUs (on one TCG thread, below) and 5 GiB (q35 puts 2 GiB below the
# PCI hole and the rest above 4 GiB, so vhost_dev's memory table has a
# region there), with
# QEMU's default queue counts: vhost-user-blk-pci one request queue per
# vCPU (num-queues not given), virtio-net-pci mq=on on a vhost-user netdev
# with queues=4 (4 pairs; QEMU keeps the control queue), and vhost_dev
# with its default queues (no --queues).  vectors=0: with
# MSI-X, QEMU 7.2 under TCG segfaults in vhost_net_start
# (msix_set_vector_notifiers) when the guest starts a vhost-user-net device.

set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/peer-suite.sh "big guest" "${1:-.}"

# Boots of 4 vCPUs slow down most on an overloaded host (their vCPU
# threads wait for each other): 70 s to I/O at a load average of 33 on 2
# cores, 4.5 s at 0.4 (launch to result); hence their own bound of 240 s.
BIG_SMP=4 BIG_MEM=5G BIG_NET_FRAMES=500 BIG_TIMEOUT=240
# Its 4 vCPUs share one host thread (tcg,thread=single, shlib/guest.sh's
# default).  With one thread each (MTTCG) on this 2-core machine, Debian's
# QEMU 7.2 failed 2 of 8 boots of the 7.3 guest at a load average of 2,
# in the guest kernel before any I/O: an int3 oops in sched_clock_cpu
# while late_initcall patched a static key (another vCPU ran the patched
# text stale), and a CPU whose timer never fired (RCU stall).  With one
# thread: 10 of 10, 5.7 to 6.1 s to result, as fast as MTTCG's 5.7 to 10 s.
BIG_HALF=$((DISK_BYTES / 2)) BIG_KSEED=55 BIG_WSEED=77

# big_args: QEMU's device options for the two vhost_devs of guest_big.
big_args() {
	# shellcheck disable=SC2054 # QEMU's options are comma lists
	BIG_ARGS=(-chardev "socket,id=c0,path=$T/mqblk.sock"
		  -device vhost-user-blk-pci,chardev=c0
		  -chardev "socket,id=n0c,path=$T/mqnet.sock"
		  -netdev "vhost-user,id=n0,chardev=n0c,queues=$BIG_SMP"
		  -device virtio-net-pci,netdev=n0,mq=on,vectors=0)
}

# list_ok LIST N: LIST is N comma-separated numbers, each above 0.
list_ok() { [[ $1 =~ ^[1-9][0-9]*(,[1-9][0-9]*){$(($2 - 1))}$ ]]; }
# list_n LIST N: LIST is N comma-separated numbers.
list_n() { [[ $1 =~ ^[0-9]+(,[0-9]+){$(($2 - 1))}$ ]]; }

# net_losses: each CPU's frames came back or were lost, and it lost no
# more than the guest's stack counted as dropped on the frames' way: its
# transmit queue's qdisc (fq_codel, Debian's default, drops a frame that
# waited too long; under Linux 7.3's byte queue limits frames wait there
# whenever the device is slow to finish them, as on a starved host) and
# its socket.  A frame lost where nobody counted it (the device, the rig's
# rings, the driver) fails.  Adds to why.
net_losses() {
	local v i n=0 d=0 lost ios qd sd
	for v in ios lost qdisc_drops sock_drops; do
		list_n "$(field cpus_net_$v)" "$BIG_SMP" || {
			why+=("cpus_net_$v='$(field cpus_net_$v)': not $BIG_SMP counts")
			return
		}
	done
	IFS=, read -ra ios <<<"$(field cpus_net_ios)"
	IFS=, read -ra lost <<<"$(field cpus_net_lost)"
	IFS=, read -ra qd <<<"$(field cpus_net_qdisc_drops)"
	IFS=, read -ra sd <<<"$(field cpus_net_sock_drops)"
	for ((i = 0; i < BIG_SMP; i++)); do
		[ $((ios[i] + lost[i])) = "$BIG_NET_FRAMES" ] ||
			why+=("cpus_net: CPU $i: ${ios[i]} frames back and ${lost[i]} lost, not $BIG_NET_FRAMES")
		[ "${lost[i]}" -le $((qd[i] + sd[i])) ] ||
			why+=("cpus_net: CPU $i lost ${lost[i]} frames, the guest counted $((qd[i] + sd[i])) dropped (qdisc ${qd[i]}, socket ${sd[i]})")
		n=$((n + lost[i])) d=$((d + qd[i]))
	done
	NET_LOST="$n lost, the guest's qdiscs dropped $d"
}

# Two boots on one pair of vhost_devs (--conns=2), both of that shape.
# The first works the disk's second half round after round from every CPU
# until QEMU is killed (SIGKILL, QEMU's own PID) with I/O under way; the
# second must then be served: it reads, writes and reads back the first
# half from every CPU (every byte checked; the host verifies the pattern
# afterwards) and sends frames from every CPU, each checked.  Two results:
# the kill and the comeback, and what the second guest did.
guest_big() {
	local kname="guest boots twice on one vhost_dev (QEMU killed mid-I/O, the next one served)"
	local name="guest with $BIG_SMP vCPUs, $BIG_MEM, QEMU's default queue counts: blk and net I/O from every CPU checked"
	local blk_pid net_pid qpid kwhy=() why=() v q a NET_LOST="?"
	DEV_FAILS=""
	if ! guest_ready_or_say "$kname"; then
		guest_ready_or_say "$name"
		return
	fi
	if ! "$T/guest_io" mkdisk "$T/mq.img" "$DISK_BYTES" "$SEED"; then
		fail "$kname" "mkdisk"
		fail "$name" "mkdisk"
		return
	fi
	if ! CONNS=2 start_dev mqblk --type=blk --disk="$T/mq.img"; then
		fail "$kname" "vhost_dev --type=blk did not start: $(head -n 3 "$T/mqblk.err")"
		fail "$name" "vhost_dev --type=blk did not start"
		return
	fi
	blk_pid=$DEV_PID
	if ! CONNS=2 start_dev mqnet --type=net; then
		fail "$kname" "vhost_dev --type=net did not start: $(head -n 3 "$T/mqnet.err")"
		fail "$name" "vhost_dev --type=net did not start"
		stop_dev "$blk_pid"
		return
	fi
	net_pid=$DEV_PID
	big_args

	# Boot 1, killed once every CPU has done I/O (at most 1000 rounds).
	GUEST_SMP=$BIG_SMP GUEST_MEM=$BIG_MEM GUEST_TIMEOUT=$BIG_TIMEOUT boot_start kill \
		"rigcpus=$BIG_HALF,$BIG_HALF,$SEED,$BIG_KSEED,1000" "${BIG_ARGS[@]}"
	if poll_until $((BIG_TIMEOUT * 20)) "$BOOT_PID" grep -aq "^RIG-BUSY cpus $BIG_SMP" "$T/kill.console"; then
		sleep 0.5	# deeper into the I/O
		qpid=$(cat "$T/kill.pid" 2>/dev/null)
		if [ -n "$qpid" ] && kill -KILL "$qpid"; then
			:
		else
			kwhy+=("no QEMU PID in $T/kill.pid to kill")
		fi
	else
		kwhy+=("the first guest never had I/O under way on $BIG_SMP CPUs: $(guest_end kill)")
	fi
	boot_wait kill
	local kill_s=$BOOT_S
	[ "$BOOT_RC" = 137 ] || kwhy+=("first QEMU: exit status $BOOT_RC, not 137 (SIGKILL)")
	[ -z "$RESULT" ] || kwhy+=("the first guest finished before the kill: $RESULT")

	# Boot 2: all of it, checked.
	GUEST_SMP=$BIG_SMP GUEST_MEM=$BIG_MEM GUEST_TIMEOUT=$BIG_TIMEOUT boot big \
		"rigcpus=0,$BIG_HALF,$SEED,$BIG_WSEED,1 rigcpusnet=$BIG_NET_FRAMES" "${BIG_ARGS[@]}"
	stop_dev "$blk_pid"
	stop_dev "$net_pid"

	[ "$BOOT_RC" -eq 0 ] || why+=("qemu exit status $BOOT_RC")
	if [ -z "$RESULT" ]; then
		why+=("no RIG-RESULT line: $(guest_end big)")
	else
		[[ $RESULT == *error=* ]] && why+=("guest: $RESULT" "$(guest_errors big)")
		grep -aq 'I/O error' "$T/big.console" &&
			why+=("guest kernel: $(grep -a 'I/O error' "$T/big.console" | head -n 2 | tr -d '\r')")
		for v in cpus_blk cpus_net; do
			[ "$(field $v)" = "$BIG_SMP" ] || why+=("$v: $(field $v) CPUs did I/O, not $BIG_SMP")
			list_ok "$(field ${v}_ios)" "$BIG_SMP" || why+=("$v: I/Os per CPU $(field ${v}_ios)")
			[ "$(field ${v}_bad)" = 0 ] || why+=("$v: $(field ${v}_bad) checks failed")
			[ "$(field ${v}_moved)" = 0 ] || why+=("$v: $(field ${v}_moved) I/Os ran off their CPU")
		done
		net_losses
		[ "$(field cpus_blk_high)" -ge 1 ] 2>/dev/null ||
			why+=("no CPU's blk buffer above guest physical 4 GiB ($(field cpus_blk_high))")
		for v in blk_hwq net_txq net_rxq; do
			[ "$(field $v)" = "$BIG_SMP" ] || why+=("guest $v=$(field $v), not $BIG_SMP")
		done
		# Each queue carried I/O: blk interrupts per request queue (one
		# MSI-X vector each), net frames per queue (ethtool -S).
		for v in blk_irqs net_rx_packets net_tx_packets; do
			list_ok "$(field $v)" "$BIG_SMP" || why+=("guest $v=$(field $v): not all $BIG_SMP queues used")
		done
	fi
	"$T/guest_io" verify "$T/mq.img" 0 "$BIG_HALF" "$BIG_WSEED" >/dev/null 2>&1 ||
		why+=("the second guest's pattern is not on the host's disk")
	for q in mqblk mqnet; do
		[ "$(grep -c '^frontend: ' "$T/$q.out")" = 2 ] ||
			kwhy+=("$q: backend served $(grep -c '^frontend: ' "$T/$q.out") frontends, not 2")
		grep '^frontend: ' "$T/$q.out" | grep -qv ' 0 errors, ' &&
			kwhy+=("$q: backend: $(head -n 2 "$T/$q.err")")
	done
	# The bits: VIRTIO_BLK_F_MQ (12), VIRTIO_NET_F_MQ (22).
	a=$(acked "$T/mqblk.out")
	[ -n "$a" ] && has_bit "$a" 12 || why+=("blk: VIRTIO_BLK_F_MQ not acked ($a)")
	a=$(acked "$T/mqnet.out")
	[ -n "$a" ] && has_bit "$a" 22 || why+=("net: VIRTIO_NET_F_MQ not acked ($a)")
	grep -q '^blk: .* bad=0$' "$T/mqblk.out" || why+=("backend: $(grep '^blk:' "$T/mqblk.out")")
	# q35 with 5 GiB: two regions below 2 GiB (as with 256 MiB), one from 4 GiB.
	[ "$(sed -n 's/^frontend: .*, \([0-9]*\) regions, .*/\1/p' "$T/mqblk.out" | tail -n 1)" -ge 3 ] 2>/dev/null ||
		why+=("blk: the memory table had fewer than 3 regions: $(tail -n 1 "$T/mqblk.out")")
	grep -q '^net: mode=loopback .* dropped=0 bad=0 ' "$T/mqnet.out" ||
		why+=("backend: $(grep '^net:' "$T/mqnet.out")")
	[ -z "$DEV_FAILS" ] || kwhy+=("$DEV_FAILS $(tail -n 3 "$T/mqblk.err" "$T/mqnet.err" 2>/dev/null)")
	[ -n "$RESULT" ] && [[ $RESULT != *error=* ]] || kwhy+=("the second guest's run failed")
	verdict "$kname" "killed ${kill_s} s after launch, the second to result ${BOOT_S} s (load average $(cut -d' ' -f1 /proc/loadavg))" "${kwhy[@]}"
	verdict "$name" "boot to result ${BOOT_S} s (blk $(field cpus_blk_s) s, net $(field cpus_net_s) s); blk I/Os per CPU $(field cpus_blk_ios), blk interrupts per queue $(field blk_irqs), frames per rx queue $(field net_rx_packets), per tx queue $(field net_tx_packets), longest wait for a frame $(field cpus_net_wait_ms) ms, frames $NET_LOST" "${why[@]}"
}

guest_big
ktap_finished
