#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Killing the check runner (tests/lib/ktap.sh) stops what it runs.  For
# each of HUP, INT and TERM: a matrix of four slow checks (two commands,
# a sub-suite, and a sub-suite with a "peer" under a timeout of its own,
# in a process group of its own, each sleeping for minutes) is
# started, the signal goes to the runner's shell alone (as a kill from
# outside, or make passing on a TERM), and then the runner must exit
# 128 + the signal's number within 15 s, and every process it started
# must be gone 10 s later (one killed may still be dying when the runner
# has gone).  Its processes are found by a marker in their environment,
# which every child inherits.
#
# Usage: tests/runner/stop.sh     (from anywhere; prints KTAP)
set -u
cd "$(dirname "$0")/../.." || exit 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rig-runner.XXXXXX") || exit 2
mark=RIG_RUNNER_STOP_TEST=$$.$RANDOM
trap 'kill -KILL $(marked) 2>/dev/null; rm -rf "$tmp"' EXIT
# A signal to this script ends it through the EXIT trap above.
. "$(dirname "$0")/../../shlib/signals.sh"
# shellcheck disable=SC2034 # tests/lib/result.sh reads it
CHECK_PREFIX=runner/
. tests/lib/result.sh

# The PIDs of the processes holding the marker, this script's aside.
marked() {
	grep -lxzF "$mark" /proc/[0-9]*/environ 2>/dev/null |
		sed 's#^/proc/\([0-9]*\)/environ$#\1#' | grep -vx "$$"
}

cat >"$tmp/matrix.sh" <<'MATRIX'
set -u
FILTER='' LIST='' JOBS=4 TIMEOUT=300 LOG=$1
. tests/lib/ktap.sh
expect "sleeps" 0 -- sleep 300
expect "a shell that sleeps" 0 -- sh -c 'sleep 300; :'
suite "a suite that sleeps" sh -c 'sleep 300; echo "ok 1 - never"'
suite "a suite with a peer of its own" bash -c 'timeout 300 sleep 300 & wait; echo "ok 1 - never"'
ktap_main
MATRIX

# Job control: the runner is not started with SIGINT ignored (as a
# shell's background job otherwise is), and gets a process group of its
# own, as under make.
set -m
for sig in HUP INT TERM; do
	mkdir "$tmp/log-$sig"
	env "$mark" bash "$tmp/matrix.sh" "$tmp/log-$sig" >"$tmp/out" 2>"$tmp/err" &
	runner=$!
	# Four sleeps running: all checks started.
	for ((i = 0; i < 200; i++)); do
		n=0
		for p in $(marked); do
			[ "$(cat "/proc/$p/comm" 2>/dev/null)" = sleep ] && n=$((n + 1))
		done
		[ "$n" -ge 4 ] && break
		sleep 0.05
	done
	why=
	[ "$n" -ge 4 ] || why="only $n of 4 checks started in 10 s"
	kill -"$sig" "$runner"
	for ((i = 0; i < 150; i++)); do
		kill -0 "$runner" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$runner" 2>/dev/null; then
		why="${why:+$why; }the runner still runs 15 s after SIG$sig"
		kill -KILL "$runner"
	fi
	{ wait "$runner"; } 2>/dev/null
	rc=$?
	want=$((128 + $(kill -l "$sig")))
	[ "$rc" -eq "$want" ] || why="${why:+$why; }exit status $rc, not $want"
	for ((i = 0; i < 100; i++)); do
		left=$(marked)
		[ -z "$left" ] && break
		sleep 0.1
	done
	if [ -n "$left" ]; then
		why="${why:+$why; }left running:"
		for p in $left; do
			why="$why $p $(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null);"
		done
		# shellcheck disable=SC2086 # PIDs, one a word
		kill -KILL $left 2>/dev/null
	fi
	if [ -z "$why" ]; then
		pass "SIG$sig stops every check"
	else
		fail "SIG$sig stops every check"
		echo "runner/SIG$sig: $why" >&2
		sed 's/^/  | /' "$tmp/out" "$tmp/err" >&2
	fi
done
ktap_finished
