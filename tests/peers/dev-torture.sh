#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A driver against a misbehaving device: vhost_user_frontend (this build's
# driver ring code: ours, or a kernel tree's with GUEST=kernel) against
# vhost_dev --torture=CASE, every case on every ring it applies to, each on
# a fresh vhost_dev.  Prints the table (one row per case, device and ring:
# the outcome, who caught it, and the first message about it) as KTAP
# diagnostics, and a result per row (tests/lib/result.sh) comparing the
# outcome with the recorded table (tests/peers/dev-torture.table), a
# failure naming the new outcome.  A row
# of the table may allow several outcomes, A|B, where the driver's fate
# depends on timing it does not control (see the table's notes).
#
# Outcomes (the driver's, not the device's):
#   detected   the ring code said so and broke the queue (BAD_RING)
#   accepted   accepted silently: the ring code passed on what the device
#              got wrong (a buffer not used, a length past the buffer, a
#              stale entry) and vhost_user_frontend's own check caught
#              it; or the driver's own use of the config space caught a lie
#   tolerated  vhost_user_frontend ran to the end, every byte and length checked
#   hung       no progress for --timeout (5 s) without the queue broken
#   crashed    vhost_user_frontend died on a signal
# and "caught by": ring code, vhost_user_frontend or -.
#
# Usage: tests/peers/dev-torture.sh BUILD_DIR [LABEL]
#   RECORD=1 prints the table in the recorded file's format instead.
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${1:?usage: tests/peers/dev-torture.sh BUILD_DIR [LABEL]}
LABEL=${2:-}
VT=$B/vhost_user_frontend VD=$B/vhost_dev
D=$(mktemp -d "${TMPDIR:-/tmp}/rig-devtorture.XXXXXX") || exit 1
VDPID=
cleanup() {
	[ -n "$VDPID" ] && kill "$VDPID" 2>/dev/null && wait "$VDPID" 2>/dev/null
	rm -rf "$D"
}
trap cleanup EXIT
. "$(dirname "$0")/../../shlib/signals.sh"
. tests/lib/dev-torture.sh

driver=$("$VT" --version | sed -n 's/.*guest ring code: \([^,]*\),.*/\1/p')
[ -n "$driver" ] || { fail "${LABEL}dev-torture: $VT --version names no guest ring code"; ktap_finished; }

# classify RC FILE: "OUTCOME|CAUGHT BY|MESSAGE" from vhost_user_frontend's exit
# status and output.
classify() {
	local rc=$1 f=$2 vmsg ring
	vmsg=$(grep -m1 '^vhost_user_frontend: ' "$f" | cut -c22-)
	ring=$(grep -m1 '^virtio: ' "$f" | cut -c9-)
	if [ "$rc" -eq 0 ]; then
		echo "tolerated|-|"
	elif [ "$rc" -eq 124 ]; then
		echo "hung|-|vhost_user_frontend did not stop within 30 s"
	elif [ "$rc" -gt 128 ]; then
		echo "crashed|-|SIG$(kill -l $((rc - 128)))"
	elif [[ $vmsg == *"the ring code marked the queue broken"* ]]; then
		echo "detected|ring code|$ring"
	elif [[ $vmsg == *"no progress for"* ]]; then
		echo "hung|-|$vmsg"
	else
		echo "accepted|vhost_user_frontend|$vmsg"
	fi
}

# one CASE DEVICE RING: run it, set $row ("CASE DEVICE RING OUTCOME|BY|MSG").
one() {
	local c=$1 dev=$2 ring=$3 rc i
	local -a da va=(--count=2000 --timeout=5)
	rm -f "$D/s"
	if [ "$dev" = blk ]; then da=(--type=blk --size=67108864); else da=(--type=net); fi
	[ "$ring" = packed ] && va+=(--packed)
	[ "$c" = packed-mid-id ] && va+=(--no-indirect)
	[ "$c" = net-queue-pairs ] && da+=(--queues=2)
	timeout 60 "$VD" --socket="$D/s" "${da[@]}" --conns=1 --torture="$c" \
		>"$D/dev.out" 2>"$D/dev.err" &
	VDPID=$!
	for ((i = 0; i < 300; i++)); do
		[ -S "$D/s" ] && break
		sleep 0.1
	done
	timeout 30 "$VT" --socket="$D/s" --device="$dev" "${va[@]}" >"$D/vt" 2>&1
	rc=$?
	wait "$VDPID"
	VDPID=
	if [ "$rc" -eq 77 ]; then
		row="$c $dev $ring skipped|-|$(head -n 1 "$D/vt")"
	elif grep -q "never done" "$D/dev.out"; then
		row="$c $dev $ring not-done|-|vhost_dev never broke the rule: $(grep -m1 'never done' "$D/dev.out")"
	else
		row="$c $dev $ring $(classify "$rc" "$D/vt")"
	fi
}

# The rows: every used-ring case on both rings where it applies, blk and
# net; the config lies on their own device.
mapfile -t rows < <(torture_rows "$VD" blk net)

[ "${RECORD:-0}" = 1 ] || printf '# %-9s %-18s %-4s %-7s %-10s %-11s %s\n' \
	driver case dev ring outcome "caught by" message
for r in "${rows[@]}"; do
	one $r
	IFS='|' read -r head by msg <<<"$row"
	read -r c dev ring outcome <<<"$head"
	if [ "${RECORD:-0}" = 1 ]; then
		printf '%-7s %-18s %-4s %-7s %s\n' "$driver" "$c" "$dev" "$ring" "$outcome"
		continue
	fi
	printf '# %-9s %-18s %-4s %-7s %-10s %-11s %s\n' "$driver" "$c" "$dev" "$ring" \
		"$outcome" "$by" "$msg"
	torture_verdict "$driver" "$c" "$dev" "$ring" "$outcome"
done
ktap_finished
