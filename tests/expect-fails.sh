#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/expect-fails.sh PROG CASE ERE [PROG CASE ERE]...: each case of a
# case program (./PROG CASE, e.g. tests/dma split-cache-clean) must fail:
# exit 1, with a line of its output (stdout or stderr) matching the
# extended regular expression ERE, the check that must have caught it.
# Prints that line for each; exit 0 if every case failed so, 1 if not
# (saying how it ended instead), 2 on a usage error.
set -u
[ $# -ge 3 ] && [ $(($# % 3)) -eq 0 ] ||
	{ echo "usage: $0 PROG CASE ERE [PROG CASE ERE]..." >&2; exit 2; }
out=$(mktemp "${TMPDIR:-/tmp}/rig-expect-fails.XXXXXX") || exit 1
trap 'rm -f "$out"' EXIT
bad=0
while [ $# -gt 0 ]; do
	prog=$1 c=$2 ere=$3
	shift 3
	timeout 60 "./$prog" "$c" >"$out" 2>&1
	rc=$?
	if [ "$rc" -eq 1 ] && grep -Eq -- "$ere" "$out"; then
		echo "$prog $c: failed: $(grep -E -m1 -- "$ere" "$out")"
	else
		echo "$prog $c: not failed as it must (exit status $rc, /$ere/ expected):"
		tail -n 5 "$out" | sed 's/^/  /'
		bad=1
	fi
done
exit "$bad"
