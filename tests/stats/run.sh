#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the stats test cases.
#
# Usage: tests/stats/run.sh PATH_TO_STATS
#
# Each case is a set of files in tests/stats/cases/ sharing a NAME:
#   NAME.out   expected standard output, byte for byte (required; its
#              presence is what makes NAME a case)
#   NAME.in    standard input (optional; default: empty input)
#   NAME.args  command-line arguments, one per line (optional)
#   NAME.rc    expected exit status (optional; default 0)
#   NAME.err   strings that must all appear in standard error, one per
#              line (optional; without it standard error must be empty)
#   NAME.errlines  the number of lines standard error must have (optional)
# The program runs with tests/stats/cases/ as its working directory, so
# FILE arguments are written relative to it (e.g. data/a.txt).
#
# Prints KTAP (tests/lib/result.sh): a result per case, "stats/NAME", with
# the details of a failure on stderr; exits 1 if any case failed.

if [ $# -ne 1 ]; then
	echo "usage: $0 PATH_TO_STATS" >&2
	exit 2
fi

case $1 in
/*) stats=$1 ;;
*) stats=$(pwd)/$1 ;;
esac
if [ ! -x "$stats" ]; then
	echo "$0: $stats is not an executable" >&2
	exit 2
fi

here=$(cd "$(dirname "$0")" && pwd)
cases=$here/cases
tmp=$(mktemp -d "${TMPDIR:-/tmp}/stats-test.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../../shlib/signals.sh"
# shellcheck disable=SC2034 # tests/lib/result.sh reads it
CHECK_PREFIX=stats/
. "$(dirname "$0")/../lib/result.sh"

# run_case NAME: run one case, print its result.
run_case() {
	name=$1
	set --
	if [ -f "$cases/$name.args" ]; then
		while IFS= read -r arg || [ -n "$arg" ]; do
			set -- "$@" "$arg"
		done <"$cases/$name.args"
	fi
	input=/dev/null
	[ -f "$cases/$name.in" ] && input=$cases/$name.in
	want_rc=0
	[ -f "$cases/$name.rc" ] && want_rc=$(cat "$cases/$name.rc")

	(cd "$cases" && exec "$stats" "$@") <"$input" >"$tmp/out" 2>"$tmp/err"
	rc=$?

	ok=1
	if [ "$rc" != "$want_rc" ]; then
		echo "stats/$name: exit status $rc, expected $want_rc" >&2
		ok=0
	fi
	if ! cmp -s "$cases/$name.out" "$tmp/out"; then
		echo "stats/$name: stdout differs:" >&2
		diff -u "$cases/$name.out" "$tmp/out" >&2
		ok=0
	fi
	if [ -f "$cases/$name.err" ]; then
		while IFS= read -r want || [ -n "$want" ]; do
			if ! grep -qF -e "$want" "$tmp/err"; then
				echo "stats/$name: stderr lacks '$want':" >&2
				sed 's/^/  | /' "$tmp/err" >&2
				ok=0
			fi
		done <"$cases/$name.err"
		if [ -f "$cases/$name.errlines" ] &&
		   [ "$(wc -l <"$tmp/err")" -ne "$(cat "$cases/$name.errlines")" ]; then
			echo "stats/$name: stderr has $(wc -l <"$tmp/err") lines," \
				"expected $(cat "$cases/$name.errlines"):" >&2
			sed 's/^/  | /' "$tmp/err" >&2
			ok=0
		fi
	elif [ -s "$tmp/err" ]; then
		echo "stats/$name: unexpected stderr:" >&2
		sed 's/^/  | /' "$tmp/err" >&2
		ok=0
	fi

	if [ $ok -eq 1 ]; then
		pass "$name"
	else
		fail "$name"
	fi
}

found=0
for out in "$cases"/*.out; do
	[ -f "$out" ] || continue
	found=1
	name=$(basename "$out" .out)
	run_case "$name"
done
if [ $found -eq 0 ]; then
	echo "$0: no cases in $cases" >&2
	exit 2
fi
ktap_finished
