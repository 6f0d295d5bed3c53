#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A backend that dies with requests in flight and comes back loses none
# (the vhost-user inflight protocol, vhost-user/protocol/inflight.h).  A check suite
# of its own (make check runs it after tests/peers/run.sh, whose guest it
# boots: shlib/guest.sh), so that it has a time bound of its own.
#
# Usage: tests/peers/restart.sh BUILD_DIR
# Environment: GUEST_DIR, GUEST_KERNEL, PEER_PREFIX as for tests/peers/run.sh.
#
# The guest reads its whole disk and checks the sum, then writes a pattern
# the host checks, on a vhost-user-blk device whose chardev reconnects
# (reconnect=1).  The first vhost_dev (--hold-after) serves some requests,
# then holds up to 4 in flight (every other one taken: the ones between
# are completed, out of order); once it holds them it is SIGKILLed and a
# second vhost_dev is started on the same socket and disk.  QEMU
# reconnects and hands it the inflight region: it must resubmit exactly
# the held requests (and the one it was serving when killed, if any), and
# the guest's run ends with every byte right and no I/O error, timeout or
# ring complaint in its kernel log.

# The guest kernel's words for an I/O that went wrong or a ring it distrusts.
RESTART_BAD='I/O error|blk_update_request|timed out|timeout|not a head|id [0-9]+ out of range|virtio.*(error|broken)'

set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/peer-suite.sh "peers restart" "${1:-.}"

guest_blk_restart() {
	local name="guest virtio-blk: vhost_dev SIGKILLed with requests in flight, restarted (inflight resubmitted)"
	local want_sum qpid d1 held resub why=() i
	DEV_FAILS=""
	guest_ready_or_say "$name" || return
	"$T/guest_io" mkdisk "$T/disk.img" "$DISK_BYTES" "$SEED" || { fail "$name" "mkdisk"; return; }
	want_sum=$("$T/guest_io" sum "$T/disk.img" | awk '{ print $3 }')
	# The guest's whole run is about 70 requests (64 MiB read in 1 MiB
	# requests, then the write): hold well inside it, during the read.
	if ! start_dev rs --type=blk --disk="$T/disk.img" --hold-after=24; then
		fail "$name" "vhost_dev --hold-after did not start: $(head -n 3 "$T/rs.err")"
		return
	fi
	d1=$DEV_PID
	guest_cmd "rigblk=1 rigwrite=$WRITE_OFF,$WRITE_LEN,$WSEED" \
		-chardev "socket,id=c0,path=$T/rs.sock,reconnect=1" \
		-device vhost-user-blk-pci,chardev=c0,num-queues=1
	"${QEMU_CMD[@]}" </dev/null >"$T/rs.console" 2>&1 &
	qpid=$!
	PIDS="$PIDS $qpid"
	# Held: wait until it holds 4, or holds some and 1 s passes with no more.
	poll_until 1800 "$qpid" grep -q '^blk: holding' "$T/rs.out"
	poll_until 20 "$qpid" grep -q '^blk: holding 4 ' "$T/rs.out"
	kill -KILL "$d1" 2>/dev/null
	wait "$d1" 2>/dev/null
	forget_pid "$d1"
	mv "$T/rs.out" "$T/rs1.out"
	mv "$T/rs.err" "$T/rs1.err"
	# Read once it is dead: it may have held one more meanwhile.
	held=$(sed -n 's/^blk: holding \([0-9]*\) .*/\1/p' "$T/rs1.out" | tail -n 1)
	if [ -z "$held" ]; then
		why+=("the first vhost_dev never held a request: $(tail -n 2 "$T/rs1.out" "$T/rs1.err" | tr '\n' ' ')")
	elif ! start_dev rs --type=blk --disk="$T/disk.img"; then
		why+=("the second vhost_dev did not start: $(head -n 3 "$T/rs.err")")
	fi
	# The guest powers off once done (within 90 s of the restart).
	for ((i = 0; i < 1800; i++)); do
		kill -0 "$qpid" 2>/dev/null || break
		sleep 0.05
	done
	if kill -0 "$qpid" 2>/dev/null; then
		why+=("the guest did not finish in 90 s after the restart")
		kill "$qpid" 2>/dev/null
	fi
	wait "$qpid" 2>/dev/null
	forget_pid "$qpid"
	[ -n "$DEV_PID" ] && [ "$DEV_PID" != "$d1" ] && stop_dev "$DEV_PID"
	guest_result rs
	[ -n "$RESULT" ] || why+=("no RIG-RESULT line: $(tail -n 3 "$T/rs.console" | tr -d '\r')")
	[[ $RESULT == *error=* ]] && why+=("guest: $RESULT")
	[ "$(field blk_bytes)" = "$DISK_BYTES" ] || why+=("guest read $(field blk_bytes) bytes")
	[ "$(field blk_sum)" = "$want_sum" ] || why+=("guest sum $(field blk_sum), host $want_sum")
	[ "$(field blk_write)" = ok ] || why+=("guest write failed")
	"$T/guest_io" verify "$T/disk.img" "$WRITE_OFF" "$WRITE_LEN" "$WSEED" >/dev/null 2>&1 ||
		why+=("the guest's pattern is not on the host's disk")
	grep -aE "$RESTART_BAD" "$T/rs.console" | grep -av '^qemu-system' >"$T/rs.bad"
	[ -s "$T/rs.bad" ] && why+=("guest kernel log: $(head -n 3 "$T/rs.bad" | tr -d '\r' | tr '\n' ' ')")
	resub=$(sed -n 's/^inflight: queue 0: resubmitting \([0-9]*\) .*/\1/p' "$T/rs.out" 2>/dev/null)
	# Held ones, and at most one more: the request it was serving when
	# killed (taken, not yet completed) is in flight too.
	[ -n "$held" ] && [ -n "$resub" ] && [ "$resub" -ge "$held" ] && [ "$resub" -le $((held + 1)) ] ||
		why+=("the first vhost_dev held ${held:-none}, the second resubmitted ${resub:-none}")
	grep -q '^frontend: .* 0 errors, ' "$T/rs.out" 2>/dev/null ||
		why+=("second vhost_dev: $(head -n 2 "$T/rs.err" 2>/dev/null)")
	grep -q ' bad=0$' "$T/rs.out" 2>/dev/null || why+=("backend: $(grep '^blk:' "$T/rs.out")")
	[ -z "$DEV_FAILS" ] || why+=("$DEV_FAILS $(tail -n 3 "$T/rs.err")")
	verdict "$name" "$held held, $resub resubmitted" "${why[@]}"
}

guest_blk_restart
ktap_finished
