# SPDX-License-Identifier: GPL-2.0
#
# What the device torture scripts share (tests/peers/dev-torture.sh,
# tests/peers/dev-torture-drivers.sh), sourced from the top of the tree:
#   torture_rows VHOST_DEV DEVICE...  one line "CASE DEVICE RING" for every
#       case of VHOST_DEV --list on every ring it applies to, on each
#       DEVICE (blk, net); a config case (blk-*, net-*) only on its own
#       device, split ring
#   torture_verdict DRIVER CASE DEVICE RING OUTCOME  one PASS:/FAIL: line
#       comparing OUTCOME with the row of tests/peers/dev-torture.table
#       (A|B allows either), ${LABEL} before the name; a FAIL sets bad=1

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
		echo "FAIL: $name: $outcome, a row $TORTURE_TABLE lacks"
		bad=1
	elif [[ "|$want|" == *"|$outcome|"* ]]; then
		echo "PASS: $name: $outcome"
	else
		echo "FAIL: $name: now $outcome, $TORTURE_TABLE says $want"
		bad=1
	fi
}
