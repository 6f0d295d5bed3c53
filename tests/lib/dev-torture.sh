# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2034 # the variables it sets are its callers'
#
# What the device torture scripts share (tests/peers/dev-torture.sh,
# tests/peers/dev-torture-drivers.sh), sourced from the top of the tree:
#   torture_rows VHOST_DEV DEVICE...  one line "CASE DEVICE RING" for every
#       case of VHOST_DEV --list on every ring it applies to, on each
#       DEVICE (blk, net); a config case (blk-*, net-*) only on its own
#       device, split ring
#   torture_verdict DRIVER CASE DEVICE RING OUTCOME  one result
#       (tests/lib/result.sh) comparing OUTCOME with the row of
#       tests/peers/dev-torture.table (A|B allows either), ${LABEL} before
#       the name
# and, RECORD=1 aside, sources tests/lib/result.sh: the caller prints
# KTAP.  With RECORD=1 (the rows in the table's format, alone) fail and
# skip say why on stderr, and ktap_finished exits 1 if one failed.

TORTURE_TABLE=tests/peers/dev-torture.table
torture_rows() {
	local vd=$1 c rings dev r
	shift
	while read -r c rings; do
		for dev; do
			case $c in
			blk-* | net-*)
				[ "${c%%-*}" = "$dev" ] && echo "$c $dev split"
				continue ;;
			esac
			for r in $rings; do echo "$c $dev $r"; done
		done
	done < <("$vd" --list |
		awk '{ r = $2 == "split:" ? "split" : $2 == "packed:" ? "packed" : "split packed"; print $1, r }')
}

torture_verdict() {
	local driver=$1 c=$2 dev=$3 ring=$4 outcome=$5 want name
	want=$(awk -v d="$driver" -v c="$c" -v v="$dev" -v r="$ring" \
		'$1 == d && $2 == c && $3 == v && $4 == r { print $5 }' "$TORTURE_TABLE")
	name="${LABEL:-}dev-torture $driver $c $dev $ring"
	if [ -z "$want" ]; then
		fail "$name: $outcome, a row $TORTURE_TABLE lacks"
	elif [[ "|$want|" == *"|$outcome|"* ]]; then
		pass "$name: $outcome"
	else
		fail "$name: now $outcome, $TORTURE_TABLE says $want"
	fi
}

if [ "${RECORD:-0}" = 1 ]; then
	failed=0
	fail() { echo "$1" >&2; failed=1; }
	skip() { echo "$1: $2" >&2; }
	ktap_finished() { exit "$failed"; }
else
	. tests/lib/result.sh
fi
