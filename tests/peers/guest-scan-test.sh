#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The device torture's console classifier (tests/peers/guest-scan.sh) on
# consoles of boots of several devices: tests/peers/guest-scan/cases names
# each case, its console and guest_scan's arguments; NAME.out is what it
# must print (in mode state, in any order: the devices are a set).
#
# Usage: tests/peers/guest-scan-test.sh     (from anywhere; prints KTAP)
set -u
cd "$(dirname "$0")/../.." || exit 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rig-guest-scan.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
. shlib/signals.sh
CHECK_PREFIX="guest scan/"
. tests/lib/result.sh

dir=tests/peers/guest-scan
# shellcheck disable=SC2034 # rest: guest_scan's SLOT and LINES, one a word
while read -r name console mode rest; do
	case $name in '#'* | '') continue ;; esac
	# shellcheck disable=SC2086
	tests/peers/guest-scan.sh "$mode" "$dir/$console.console" $rest >"$tmp/out" 2>"$tmp/err"
	rc=$?
	cp "$dir/$name.out" "$tmp/want"
	if [ "$mode" = state ]; then
		sort -o "$tmp/out" "$tmp/out"
		sort -o "$tmp/want" "$tmp/want"
	fi
	if [ "$rc" -eq 0 ] && [ ! -s "$tmp/err" ] && cmp -s "$tmp/want" "$tmp/out"; then
		pass "$name"
	else
		fail "$name: guest_scan $mode $console.console${rest:+ $rest}"
		{ echo "exit status $rc"; cat "$tmp/err"; diff -u "$tmp/want" "$tmp/out"; } |
			sed 's/^/  | /' >&2
	fi
done <"$dir/cases"
ktap_finished
