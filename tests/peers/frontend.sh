#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The interop checks: vhost_user_frontend (this build's driver ring code) against
# real vhost-user backends, each started here in a private folder and
# stopped by PID (shlib/backends.sh).  Prints KTAP
# (tests/lib/result.sh), a result per check; a missing peer is a SKIP
# naming its Debian package.
#
# Usage: tests/peers/frontend.sh BUILD_DIR [LABEL]
#   PEER_FRAMES (default 100000) frames per net configuration,
#   PEER_REQUESTS (default 10000) requests per blk configuration.
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${1:?usage: tests/peers/frontend.sh BUILD_DIR [LABEL]}
LABEL=${2:-}
VT="$B/vhost_user_frontend"
FRAMES=${PEER_FRAMES:-100000}
REQUESTS=${PEER_REQUESTS:-10000}
. shlib/backends.sh
peer_dir
LOG=$PEER_DIR/log
mkdir -p "$LOG"
trap peer_cleanup EXIT

CHECK_PREFIX=$LABEL
. tests/lib/result.sh

# has_socket PID: does PID have a socket open?
has_socket() {
	local f
	for f in /proc/"$1"/fd/*; do
		[[ $(readlink "$f" 2>/dev/null) == socket:* ]] && return 0
	done
	return 1
}

# vt NAME WANT_STATUS GREP... -- ARGS: run vhost_user_frontend, bounded in
# time; it must exit with WANT_STATUS and its output (stdout then stderr) must
# match every GREP (extended regular expression).  Exit 77 is a SKIP.
vt() {
	local name=$1 want=$2 rc pat ok=1
	local -a pats=()
	shift 2
	while [ "$1" != -- ]; do
		pats+=("$1")
		shift
	done
	shift
	timeout 120 "$VT" "$@" >"$LOG/out" 2>"$LOG/err"
	rc=$?
	if [ "$rc" -eq 77 ] && [ "$want" -ne 77 ]; then
		skip "$name" "$(head -n 1 "$LOG/out")"
		return
	fi
	[ "$rc" -eq "$want" ] || ok=0
	for pat in "${pats[@]}"; do
		cat "$LOG/out" "$LOG/err" | grep -Eq -- "$pat" || ok=0
	done
	if [ "$ok" = 1 ]; then
		pass "$name"
	else
		fail "$name"
		echo "  command: $VT $* (exit $rc, wanted $want; wanted lines: ${pats[*]})" >&2
		tail -n 8 "$LOG/err" >&2
	fi
}

usage_errors() {
	local o
	for o in --bogus --device=scsi --ring-size=0 --ring-size=100 --queues=0 \
		 --count=x --timeout=0 --frame-len=59 --torture=no-such-case stray; do
		vt "usage error: vhost_user_frontend $o" 2 '^vhost_user_frontend: ' "^try 'vhost_user_frontend --help'" \
			-- --socket=/nonexistent --device=net "$o"
	done
	vt "usage error: vhost_user_frontend without --socket" 2 'socket=PATH is required' -- --device=net
	vt "usage error: vhost_user_frontend without --device" 2 'device=net or --device=blk' -- --socket=x
	vt "vhost_user_frontend --help" 0 '^Usage: vhost_user_frontend' -- --help
	vt "vhost_user_frontend: no backend at the socket" 1 'cannot connect to' \
		-- --socket="$PEER_DIR/none.sock" --device=net --timeout=1
}

net_matrix() {
	local o why sock
	why=$(peer_missing testpmd)
	if [ -n "$why" ]; then
		skip "vhost_user_frontend --device=net against testpmd" "$why"
		return
	fi
	if ! testpmd_start net 1; then
		fail "testpmd starts (net_vhost, io forwarding)"
		return
	fi
	sock=$(peer_sock net)
	for o in "" "--in-order" "--packed" "--packed --in-order" \
		 "--no-indirect --no-event-idx" "--packed --no-indirect --no-event-idx" \
		 "--poll --frame-len=60" "--ring-size=64 --frame-len=1514"; do
		# shellcheck disable=SC2086
		vt "vhost_user_frontend --device=net --count=$FRAMES${o:+ $o} (testpmd)" 0 \
			"^Frames: $FRAMES\$" '^Lost: 0$' \
			-- --socket="$sock" --device=net --count="$FRAMES" \
			--peer-pid="$(peer_pid net)" $o
	done
	peer_stop net

	if testpmd_start net2 2; then
		vt "vhost_user_frontend --device=net --queues=2 --count=$FRAMES (testpmd, 2 queue pairs)" 0 \
			"^Frames: $FRAMES\$" '^Lost: 0$' \
			-- --socket="$(peer_sock net2)" --device=net --queues=2 \
			--count="$FRAMES" --peer-pid="$(peer_pid net2)"
		peer_stop net2
	else
		fail "testpmd starts with 2 queue pairs"
	fi
}

blk_matrix() {
	local o why sock pid
	why=$(peer_missing qsd)
	if [ -n "$why" ]; then
		skip "vhost_user_frontend --device=blk against qemu-storage-daemon" "$why"
		return
	fi
	if ! qsd_start blk 16 2; then
		fail "qemu-storage-daemon starts (vhost-user-blk export)"
		return
	fi
	sock=$(peer_sock blk)
	for o in "" "--no-indirect" "--no-event-idx" "--ring-size=16" "--poll" \
		 "--queues=2"; do
		# shellcheck disable=SC2086
		vt "vhost_user_frontend --device=blk --count=$REQUESTS${o:+ $o} (qemu-storage-daemon)" 0 \
			"^Requests: $REQUESTS\$" '^Bytes checked: [1-9]' \
			-- --socket="$sock" --device=blk --count="$REQUESTS" \
			--peer-pid="$(peer_pid blk)" $o
	done
	# A split-only peer: --packed is a SKIP that says why.
	vt "vhost_user_frontend --device=blk --packed against a split-only peer exits 77" 77 \
		'does not offer VIRTIO_F_RING_PACKED' \
		-- --socket="$sock" --device=blk --packed
	pid=$(peer_pid blk)

	# A peer that dies mid-run: one message, exit 1, no hang.
	timeout 60 "$VT" --socket="$sock" --device=blk --count=0 --seconds=30 \
		--peer-pid="$pid" >"$LOG/out" 2>"$LOG/err" &
	local vpid=$! rc vt
	# Killed once vhost_user_frontend has its socket (a loaded machine can take
	# longer than the 0.5 s after that to even start it): then the kill
	# finds it connected, not still to connect.
	vt=$(peer_child "$vpid") &&
		poll_until $((PEER_TIMEOUT * 20)) "$vt" has_socket "$vt"
	sleep 0.5
	# timeout(1) dies of the same signal: no job notice from bash.
	{
		kill -KILL "$pid"
		wait "$vpid"
		rc=$?
		wait "${PEER_TPIDS[blk]}"
	} 2>/dev/null
	if [ "$rc" -eq 1 ] && grep -Eq 'closed the connection|died' "$LOG/err"; then
		pass "vhost_user_frontend --device=blk: a backend killed mid-run gives one message, exit 1"
	else
		fail "vhost_user_frontend --device=blk: a backend killed mid-run gives one message, exit 1"
		echo "  exit $rc; stderr:" >&2
		tail -n 5 "$LOG/err" >&2
	fi
	peer_stop blk
}

# The rig's own backend (vhost_dev, on vringh): packed and in-order too;
# then a vhost_dev --queues=2 driven on all its queues.
rig_backend() {
	local o sock vd="$B/vhost_dev" pid qs opts dl
	if [ ! -x "$vd" ]; then
		skip "vhost_user_frontend against vhost_dev" "$vd is not built"
		return
	fi
	for dev in blk net; do
		for qs in 1 2; do
			sock="$PEER_DIR/rig-$dev-$qs.sock"
			if [ $dev = blk ]; then
				"$vd" --socket="$sock" --type=blk --size=$((16 << 20)) --queues=$qs \
					>"$LOG/vd.out" 2>&1 &
			else
				"$vd" --socket="$sock" --type=net --queues=$qs >"$LOG/vd.out" 2>&1 &
			fi
			pid=$!
			poll_until $((PEER_TIMEOUT * 20)) "$pid" grep -q '^listening on' "$LOG/vd.out" 2>/dev/null
			opts=("" "--in-order" "--packed" "--packed --in-order") dl=vhost_dev
			[ $qs = 2 ] && opts=("--queues=2" "--queues=2 --packed") dl="vhost_dev --queues=2"
			for o in "${opts[@]}"; do
				if [ $dev = blk ]; then
					# shellcheck disable=SC2086
					vt "vhost_user_frontend --device=blk --count=5000${o:+ $o} ($dl)" 0 \
						'^Requests: 5000$' '^Bytes checked: [1-9]' \
						-- --socket="$sock" --device=blk --count=5000 --peer-pid="$pid" $o
				else
					# shellcheck disable=SC2086
					vt "vhost_user_frontend --device=net --count=50000${o:+ $o} ($dl loopback)" 0 \
						'^Frames: 50000$' '^Lost: 0$' \
						-- --socket="$sock" --device=net --count=50000 --peer-pid="$pid" $o
				fi
			done
			kill "$pid" 2>/dev/null
			wait "$pid" 2>/dev/null
		done
	done
}

# The torture mode reports (tests/peers/torture.sh makes the full table):
# here only that a case runs and gives its one-line verdict.
torture_smoke() {
	local c why
	why=$(peer_missing qsd)
	for c in desc-loop addr-outside-table unknown-request; do
		if [ -n "$why" ]; then
			skip "vhost_user_frontend --torture=$c (qemu-storage-daemon)" "$why"
			continue
		fi
		if ! qsd_start tort 16 1; then
			fail "qemu-storage-daemon starts (torture $c)"
			continue
		fi
		vt "vhost_user_frontend --torture=$c reports what qemu-storage-daemon did" 0 \
			"^torture $c: (kept serving|refused|closed|crashed|hung); " \
			-- --socket="$(peer_sock tort)" --device=blk \
			--peer-pid="$(peer_pid tort)" --torture="$c"
		peer_stop tort
	done
	vt "vhost_user_frontend --torture=list" 0 '^desc-loop ' -- --socket=x --device=net --torture=list
}

usage_errors
net_matrix
blk_matrix
rig_backend
torture_smoke
ktap_finished
