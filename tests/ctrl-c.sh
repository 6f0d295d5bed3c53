#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/ctrl-c.sh SECONDS PROG [ARG...]: PROG, sent SIGINT (a Ctrl-C)
# SECONDS after it catches SIGINT (its handler shows in the SigCgt mask
# of /proc/PID/status), not SECONDS after it was launched: on a loaded
# machine a program can take more than a second to reach main(), and a
# Ctrl-C before its handler kills it, one before its first progress line
# finds none to print.  Waits up to 60 s for the handler (a liveness
# bound; PROG's exit ends the wait).  Exit status: PROG's, or 1 if PROG
# had not caught SIGINT by then (it is killed).
set -u
[ $# -ge 2 ] || { echo "usage: $0 SECONDS PROG [ARG...]" >&2; exit 2; }
after=$1
shift
. "$(dirname "$0")/../shlib/poll.sh"

# catches_int PID: is SIGINT (signal 2, bit 1 of SigCgt) caught by PID?
catches_int() {
	local mask
	mask=$(sed -n 's/^SigCgt:[[:space:]]*//p' "/proc/$1/status" 2>/dev/null)
	[ -n "$mask" ] && (( (16#$mask >> 1) & 1 ))
}

"$@" &
pid=$!
if ! poll_until 1200 "$pid" catches_int "$pid"; then
	if kill -0 "$pid" 2>/dev/null; then
		echo "ctrl-c: $1 did not catch SIGINT in 60 s" >&2
		kill -KILL "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		exit 1
	fi
	wait "$pid"
	exit
fi
sleep "$after"
kill -INT "$pid" 2>/dev/null
wait "$pid"
