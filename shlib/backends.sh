# SPDX-License-Identifier: GPL-2.0
#
# Starting and stopping the vhost-user peers (the peer tests, bench/net.sh).
# Each peer runs in a private folder made by peer_dir: its own socket, its
# own DPDK --file-prefix, its log; peer_stop stops it by PID and removes
# everything, /var/run/dpdk/<prefix> included.  Facts behind the command
# lines: ../shared/docs/peers.md.
#
#   peer_dir                     make $PEER_DIR (once per script)
#   testpmd_start NAME [QUEUES]  testpmd's vhost port, io forwarding
#   qsd_start NAME [MIB] [QUEUES] qemu-storage-daemon's vhost-user-blk export
#   peer_stop NAME               stop it, remove its files
#   peer_sock NAME / peer_pid NAME / peer_log NAME
#   peer_missing testpmd|qsd     the reason it cannot run, or nothing
#   peer_version testpmd|qsd     the installed version ("22.11.11"), or "?"

. shlib/poll.sh
. shlib/testpmd.sh

PEER_TIMEOUT=${PEER_TIMEOUT:-60}	# seconds for a socket to appear (a loaded machine)

peer_dir() {
	PEER_DIR=$(mktemp -d "${TMPDIR:-/tmp}/rig-peers.XXXXXX") || exit 1
	declare -gA PEER_PIDS=() PEER_TPIDS=() PEER_PREFIX=()
	# The caller's EXIT trap (peer_cleanup) must run on a signal too:
	# bash runs none when a signal kills it.
	. "$(dirname "${BASH_SOURCE[0]}")/signals.sh"
}

peer_sock() { echo "$PEER_DIR/$1.sock"; }
peer_log() { echo "$PEER_DIR/$1.log"; }
peer_pid() { echo "${PEER_PIDS[$1]}"; }

peer_missing() {
	case $1 in
	testpmd)
		command -v dpdk-testpmd >/dev/null ||
			echo "dpdk-testpmd not installed (Debian: dpdk-dev)" ;;
	qsd)
		command -v qemu-storage-daemon >/dev/null ||
			echo "qemu-storage-daemon not installed (Debian: qemu-system-common)" ;;
	esac
}

# What the peer says its version is: testpmd's EAL (-v) prints "RTE
# Version: 'DPDK 22.11.11'" as it starts (with --help, it then stops).
peer_version() {
	local v=
	case $1 in
	testpmd)
		v=$(timeout 60 dpdk-testpmd -v --no-pci --no-huge -m 64 \
			--file-prefix "rig-version-$$" --log-level=lib.eal:info \
			-- --help 2>&1 </dev/null |
			sed -n "s/.*RTE Version: 'DPDK \([^']*\)'.*/\1/p" | head -n 1)
		rm -rf "/var/run/dpdk/rig-version-$$" ;;
	qsd)
		v=$(qemu-storage-daemon --version 2>/dev/null |
			sed -n '1s/^qemu-storage-daemon version \([^ ]*\).*/\1/p') ;;
	esac
	echo "${v:-?}"
}

# The peer runs under timeout(1), which bounds its life: $1 is timeout's
# PID, and the peer's own (what is watched, signalled and killed) is its
# child.  Waits while timeout(1) lives, up to PEER_TIMEOUT seconds by the
# clock (a loaded machine can take seconds to fork and exec); never
# answers with timeout's own PID: status 1 and the reason on stderr if the
# child never came.
peer_child() {
	local tpid=$1 c end=$((SECONDS + PEER_TIMEOUT))
	while [ "$SECONDS" -le "$end" ]; do
		c=$(cat "/proc/$tpid/task/$tpid/children" 2>/dev/null)
		c=${c%% *}
		# Until timeout(1) runs, its first child may be a shell's.
		if [ -n "$c" ] && [ "$(cat "/proc/$tpid/comm" 2>/dev/null)" = timeout ] &&
		   [ "$(cat "/proc/$c/comm" 2>/dev/null)" != timeout ]; then
			echo "$c"
			return 0
		fi
		if ! kill -0 "$tpid" 2>/dev/null; then
			echo "peer_child: timeout(1) (PID $tpid) ended before its peer was seen" >&2
			return 1
		fi
		sleep 0.01
	done
	echo "peer_child: timeout(1) (PID $tpid) started no peer in ${PEER_TIMEOUT} s" >&2
	return 1
}

# Wait for a peer's socket; fail if it dies or takes too long.
peer_wait_sock() {
	local name=$1
	PEER_TPIDS[$name]=${PEER_PIDS[$name]}
	if ! PEER_PIDS[$name]=$(peer_child "${PEER_TPIDS[$name]}"); then
		echo "peer $name did not start; its log:" >&2
		tail -n 20 "$(peer_log "$name")" >&2
		# timeout(1) passes the signal on to its child, if any.
		kill "${PEER_TPIDS[$name]}" 2>/dev/null
		{ wait "${PEER_TPIDS[$name]}"; } 2>/dev/null
		unset "PEER_PIDS[$name]" "PEER_TPIDS[$name]"
		peer_stop "$name"
		return 1
	fi
	poll_until $((PEER_TIMEOUT * 20)) "${PEER_PIDS[$name]}" test -S "$(peer_sock "$name")" &&
		return 0
	echo "peer $name did not come up; its log:" >&2
	tail -n 20 "$(peer_log "$name")" >&2
	peer_stop "$name"
	return 1
}

# testpmd NAME [QUEUES] [EXTRA DEVARGS]: a vhost-user server echoing frames.
testpmd_start() {
	local name=$1 queues=${2:-1} extra=${3:-}
	local prefix="rig-$name-$$-${PEER_DIR##*.}"
	local sock="$PEER_DIR/$name.sock" log="$PEER_DIR/$name.log"
	PEER_PREFIX[$name]=$prefix
	testpmd_cmd '0@0,1@0' "$prefix" "net_vhost0,iface=$sock,queues=$queues$extra"
	timeout -s INT "${PEER_LIFETIME:-600}" "${TESTPMD[@]}" --rxq="$queues" --txq="$queues" \
		</dev/null >"$log" 2>&1 &
	PEER_PIDS[$name]=$!
	peer_wait_sock "$name"
}

# qsd NAME [MIB] [QUEUES]: a zeroed raw disk image exported as vhost-user-blk.
qsd_start() {
	local name=$1 mib=${2:-16} queues=${3:-1}
	local img="$PEER_DIR/$name.img"
	local sock="$PEER_DIR/$name.sock" log="$PEER_DIR/$name.log"
	truncate -s "${mib}M" "$img" || return 1
	timeout "${PEER_LIFETIME:-600}" qemu-storage-daemon \
		--blockdev "driver=file,node-name=f,filename=$img" \
		--blockdev driver=raw,node-name=d,file=f \
		--export "type=vhost-user-blk,id=e,node-name=d,addr.type=unix,addr.path=$sock,writable=on,num-queues=$queues" \
		</dev/null >"$log" 2>&1 &
	PEER_PIDS[$name]=$!
	peer_wait_sock "$name"
}

peer_alive() {
	local pid=${PEER_PIDS[$1]:-}
	[ -n "$pid" ] && kill -0 "$pid" 2>/dev/null
}

peer_stop() {
	local name=$1 pid=${PEER_PIDS[$1]:-}
	if [ -n "$pid" ]; then
		# testpmd prints its statistics and exits on SIGINT.
		kill -INT "$pid" 2>/dev/null
		poll_gone 100 "$pid"
		kill -KILL "$pid" 2>/dev/null
		# timeout(1) exits with its child.
		{ wait "${PEER_TPIDS[$name]}"; } 2>/dev/null
	fi
	unset "PEER_PIDS[$name]" "PEER_TPIDS[$name]"
	rm -f "$(peer_sock "$name")" "$PEER_DIR/$name.img"
	if [ -n "${PEER_PREFIX[$name]:-}" ]; then
		rm -rf "/var/run/dpdk/${PEER_PREFIX[$name]}"
		unset "PEER_PREFIX[$name]"
	fi
}

# Stop every peer still running and remove the folder.
peer_cleanup() {
	local name
	for name in "${!PEER_PIDS[@]}"; do
		peer_stop "$name"
	done
	[ -n "${PEER_DIR:-}" ] && rm -rf "$PEER_DIR"
}
