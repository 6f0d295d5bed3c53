#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/expect-watchdog.sh PROG OPTIONS...: each OPTIONS (one argument,
# split into words) is a run of PROG that must stall, and its watchdog must
# catch it: exit 1 within LIMIT seconds (default 30), saying on stderr
# "watchdog:" and which side waits for what ("the guest waits for ...",
# "the host waits for ...").  Prints each run's watchdog lines; exit 0 if
# every run was caught, 1 if not (saying how it ended instead).
set -u
[ $# -ge 2 ] || { echo "usage: $0 PROG OPTIONS..." >&2; exit 2; }
prog=$1 limit=${LIMIT:-30} bad=0
shift
err=$(mktemp "${TMPDIR:-/tmp}/rig-watchdog.XXXXXX") || exit 1
trap 'rm -f "$err"' EXIT
for o; do
	start=$SECONDS
	# shellcheck disable=SC2086
	timeout "$limit" "$prog" $o >/dev/null 2>"$err"
	rc=$? took=$((SECONDS - start))
	if [ "$rc" -eq 1 ] && grep -q ': watchdog: ' "$err" &&
	   grep -Eq ': the (guest|host) waits for [a-z]' "$err"; then
		echo "$prog $o: caught in ${took}s:"
		grep -E ': (watchdog|the guest|the host|guest:|split|packed)' "$err" | sed 's/^/  /'
	else
		echo "$prog $o: not caught: exit status $rc after ${took}s (124: still running at ${limit}s)"
		tail -n 5 "$err" | sed 's/^/  /'
		bad=1
	fi
done
exit $bad
