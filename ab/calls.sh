#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The instructions of each exported data-path call of the ring code on its
# own, under valgrind's callgrind: a patch to one call shows in that
# call's row, not only in a whole run's.
#
# Usage: ab/calls.sh [-w FILE] [BUILD_DIR]   (default: the current directory)
#
# Measured, in BUILD_DIR (a top-level, O= or KSRC= build; every run as
# ./NAME in it, with an empty environment, as ab/count.sh does):
#   the driver side: vring_bench --calls --sg 4 20000 (ring of 128), split
#       and packed, "direct" (--no-indirect: chained descriptors, and a
#       queue with contexts, so add_inbuf_ctx too) and "indirect" (every
#       buffer of 2 or 4 entries in an indirect table; the kernel's driver
#       has no contexts on such a queue, so no add_inbuf_ctx): per call of
#       virtqueue_add_outbuf, _add_inbuf, _add_inbuf_ctx, _add_sgs,
#       _kick_prepare, _notify, _get_buf, _disable_cb, _enable_cb and
#       vring_interrupt.  An add refused with -ENOSPC (ring full) is a call
#       too, the same number of them in every build.
#   the device side: vringh_test --indirect --eventidx [--packed], the
#       single-threaded scenarios: per call of vringh_getdesc_user, _kern,
#       vringh_complete_user, _kern, vringh_need_notify_user,
#       vringh_notify_enable_user, _disable_user, vringh_iov_pull_user and
#       vringh_iov_push_user, _kern (vringh_notify() is an inline of the
#       API header: its cost is the caller's); and per scenario
#       (scenario_* functions), its ring set-up and teardown left out.
# A call's figure is the instructions executed inside it, callees
# included, except its calls straight into the program's or the harness's
# own functions (the device's notify, the driver's interrupt callback,
# vringh's memory-access callbacks): ring code and shims, not the mock
# device (ab/callgrind-calls.awk).
# Prints one line per figure, "NAME: VALUE" (two decimals), e.g.
#   virtqueue_add_outbuf split direct instructions/call: 371.52
# A ring the code under test lacks (exit 77: packed rings with the
# kernel's vringh) prints its rows as "n/a"; a call that did not run is
# not printed.  -w FILE also writes what each row ran to FILE,
# "NAME<TAB>UNITS<TAB>SYMBOLS" (ab/callgrind-calls.awk; the source units
# by ab/src-index.sh, run first), for make regress and make series to
# tell a row whose source changed from one the compiler moved.
# Exit status: 0, or 1 if valgrind is missing or a run failed.

set -u
here=$(cd "$(dirname "$0")" && pwd) || exit 1
ranfile=
if [ "${1:-}" = -w ]; then
	[ $# -ge 2 ] && [ -n "$2" ] || { echo "calls: -w needs a FILE" >&2; exit 2; }
	ranfile=$2
	shift 2
fi
B=${1:-.}
N=20000
. "$here/lib.sh"
grind_setup calls "$B"
if [ -n "$ranfile" ]; then
	"$here/src-index.sh" "$B" || die "cannot index the source of $B"
	: >"$ranfile" || die "cannot write $ranfile"
fi

GUEST_CALLS="virtqueue_add_outbuf virtqueue_add_inbuf virtqueue_add_inbuf_ctx
	virtqueue_add_sgs virtqueue_kick_prepare virtqueue_notify
	virtqueue_get_buf virtqueue_disable_cb virtqueue_enable_cb
	vring_interrupt"
HOST_CALLS="vringh_getdesc_user vringh_getdesc_kern vringh_complete_user
	vringh_complete_kern vringh_need_notify_user vringh_notify_enable_user
	vringh_notify_disable_user vringh_iov_pull_user vringh_iov_push_user
	vringh_iov_push_kern"
OWN='(vring_bench|vringh_test[a-z_]*|virtio_test)\.c$|/harness/'

# grind LABEL UNIT SCENARIOS CALLS -- PROGRAM ARGS...: run it under
# callgrind and print "NAME LABEL instructions/UNIT: VALUE" per call (and
# "SCENARIO instructions/run" per scenario); on exit 77, n/a rows for every
# call.
grind() {
	label=$1 scen=$2 names=$3
	shift 4
	(cd "$B" && exec env -i "$VALGRIND" --tool=callgrind --compress-pos=no \
		--callgrind-out-file="$tmp/out" "$@") >"$tmp/log" 2>&1
	rc=$?
	if [ $rc -eq 77 ]; then
		for f in $names; do
			echo "$f $label instructions/call: n/a"
		done
		return 0
	fi
	if [ $rc -ne 0 ]; then
		sed 's/^/  | /' "$tmp/log" >&2
		die "$* failed under valgrind (exit $rc)"
	fi
	: >"$tmp/ran"
	awk -v calls="$names" -v own="$OWN" -v scenarios="$scen" \
		-v skip="fixture_setup fixture_teardown st_setup st_teardown" \
		-v ran="${ranfile:+$tmp/ran}" -v index_file="$B/.rig-src-index" -v base="$B" \
		-f "$here/callgrind-calls.awk" "$tmp/out" >"$tmp/costs" ||
		die "cannot read callgrind's output of $*"
	[ -s "$tmp/costs" ] || die "no call of the ring code counted in $*"
	# Each row's name: "CALL LABEL instructions/call", or "vringh_test
	# LABEL SCENARIO instructions/run".
	rows='function row(f) {
		if (index(scen, " " f " "))
			return sprintf("vringh_test %s %s instructions/run", label, f)
		return sprintf("%s %s instructions/call", f, label)
	}'
	awk -v label="$label" -v scen=" $scen " "$rows"'
		{ printf "%s: %.2f\n", row($1), $3 / $2 }' "$tmp/costs"
	[ -z "$ranfile" ] || awk -F '\t' -v label="$label" -v scen=" $scen " "$rows"'
		{ printf "%s\t%s\t%s\n", row($1), $2, $3 }' "$tmp/ran" >>"$ranfile"
}

for ring in split packed; do
	flag=
	[ $ring = packed ] && flag=--packed
	grind "$ring direct" "" "$GUEST_CALLS" -- \
		./vring_bench --calls --sg 4 --no-indirect $flag $N
	grind "$ring indirect" "" "$GUEST_CALLS" -- \
		./vring_bench --calls --sg 4 $flag $N
done
command -v nm >/dev/null 2>&1 || die "nm is missing (Debian: binutils)"
scenarios=$(nm "$B/vringh_test" | awk '$2 ~ /^[tT]$/ && $3 ~ /^scenario_/ { print $3 }' | sort | tr '\n' ' ')
for ring in split packed; do
	flag=
	[ $ring = packed ] && flag=--packed
	grind "$ring" "$scenarios" "$HOST_CALLS" -- \
		./vringh_test --indirect --eventidx $flag
done
