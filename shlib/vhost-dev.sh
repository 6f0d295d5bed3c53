# SPDX-License-Identifier: GPL-2.0
#
# vhost_dev in the background, for the peer tests (tests/peers/run.sh) and
# the guest benchmark (bench/vhost-guest.sh): a private folder $T removed
# on exit, with every process started here (PIDS) stopped.  Source it with
# VHOST_DEV set (the vhost_dev binary), from the top of the tree.

. shlib/poll.sh

T=$(mktemp -d "${TMPDIR:-/tmp}/rig-peers.XXXXXX")
PIDS=""
cleanup() {
	local p
	for p in $PIDS; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null; done
	rm -rf "$T" "/var/run/dpdk/rig-peers-$$"
}
trap cleanup EXIT
# A signal is an exit too (bash runs no EXIT trap when a signal kills it).
. "$(dirname "${BASH_SOURCE[0]}")/signals.sh"

# has_bit VALUE BIT: is BIT set in VALUE?
has_bit() { (( ($1 >> $2) & 1 )); }
# acked FILE: the features the last frontend acked, from vhost_dev's
# "frontend:" lines in FILE.
acked() { sed -En 's/^frontend: .* features (0x[0-9a-f]+).*/\1/p' "$1" | tail -n 1; }

# host_impl VHOST_DEV: "rig" or "kernel", whose vringh it was linked with.
host_impl() { "$1" --version 2>&1 | sed -n 's/.*host ring code: \([^,;]*\).*/\1/p'; }

# start_dev NAME ARGS...: vhost_dev in the background, listening on
# $T/NAME.sock, its output in $T/NAME.out/.err, serving $CONNS frontends
# (default 1) one after the other, on the guests' host CPU once they need
# one (GUEST_PIN: shlib/guest-cpu.sh).  Waits for it to listen: up to
# DEV_TIMEOUT seconds (default 60, a liveness bound: a loaded machine can
# take seconds to start a sanitized binary), less if it exits.
start_dev() {
	local name=$1
	shift
	rm -f "$T/$name.out" "$T/$name.err"
	"${GUEST_PIN[@]}" "$VHOST_DEV" --socket="$T/$name.sock" --conns="${CONNS:-1}" "$@" \
		>"$T/$name.out" 2>"$T/$name.err" &
	DEV_PID=$!
	PIDS="$PIDS $DEV_PID"
	poll_until $((${DEV_TIMEOUT:-60} * 20)) "$DEV_PID" grep -q '^listening on' "$T/$name.out" 2>/dev/null
}

# stop_dev PID: it exits by itself once its frontends are gone (else it is
# told to).  Adds to DEV_FAILS when it did not exit 0 (a crash, a
# sanitizer's report).
DEV_FAILS=""
stop_dev() {
	local rc
	poll_gone 40 "$1"
	kill "$1" 2>/dev/null
	wait "$1" 2>/dev/null
	rc=$?
	forget_pid "$1"
	[ $rc = 0 ] || DEV_FAILS="$DEV_FAILS vhost_dev exit status $rc;"
}

# A process waited for is no longer ours to stop: its PID may be reused.
forget_pid() {
	local p kept=""

	for p in $PIDS; do
		[ "$p" = "$1" ] || kept="$kept $p"
	done
	PIDS=$kept
}
