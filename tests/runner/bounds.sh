#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The check runner (tests/lib/ktap.sh) judges what it runs, and bounds it
# by progress.  A matrix of one check of each kind the runner tells apart
# (a pass, a wrong exit status, a SKIP, a known gap, a sub-suite with a
# failing and a TODO line) must print exactly the verdicts, diagnostics
# and totals below; and with CHECK_IDLE=3 and CHECK_CPU=2, a command that
# sleeps, one that spins and a sub-suite that sleeps must each be stopped
# and fail, saying which bound it met, long before their own minute.
#
# Usage: tests/runner/bounds.sh     (from anywhere; prints KTAP)
set -u
. "$(dirname "$0")/opening.sh" bounds

cat >"$tmp/verdicts.sh" <<'MATRIX'
set -u
FILTER='' LIST='' JOBS=2 TIMEOUT=30 LOG=$1
. tests/lib/ktap.sh
expect "passes" 0 out='^yes$' -- echo yes
expect "fails" 0 -- sh -c 'echo oops >&2; exit 3'
expect "skips" 0 -- sh -c 'echo "no packed ring"; exit 77'
expect "a gap" 0 -- sh -c 'echo "prog: known gap: a reason"; exit 78'
suite "a suite" sh -c 'echo "KTAP version 1"; echo "ok 1 - a"; echo "not ok 2 - b"; echo "not ok 3 - c # TODO later"; echo 1..3; exit 1'
ktap_main
MATRIX
mkdir "$tmp/log"
bash "$tmp/verdicts.sh" "$tmp/log" >"$tmp/out" 2>"$tmp/err"
rc=$?
sed -E 's/[0-9]+\.[0-9]{3}s/T/g' "$tmp/out" >"$tmp/got"
cat >"$tmp/want" <<'WANT'
KTAP version 1
1..5
ok 1 - passes # time T
# command: sh -c echo oops >&2; exit 3
# exit status 3, wanted 0
# stderr: oops
not ok 2 - fails # time T
ok 3 - skips # SKIP no packed ring (T)
# command: sh -c echo "prog: known gap: a reason"; exit 78
not ok 4 - a gap # TODO a reason (T)
  KTAP version 1
  # Subtest: a suite
  1..3
  ok 1 - a
  not ok 2 - b
  not ok 3 - c # TODO later
not ok 5 - a suite # time T
# 5 checks in T, 2 at a time; 7 results, each line of a sub-suite one: 2 passed + 2 failed + 1 skipped + 2 todo
# failed:
#   not ok 2 - fails # time T
#   not ok 2 - b
#   not ok 5 - a suite # time T
# 2 todo (known gaps of the code under test: neither passed nor failed)
2 passed, 2 failed, 1 skipped
WANT
[ $rc -eq 1 ] && diff "$tmp/want" "$tmp/got" >&2
pass_if "a pass, a wrong status, a SKIP, a known gap and a sub-suite: verdicts, diagnostics, totals"

cat >"$tmp/bounds.sh" <<'MATRIX'
set -u
FILTER='' LIST='' JOBS=3 TIMEOUT=60 LOG=$1 CHECK_IDLE=3 CHECK_CPU=2
. tests/lib/ktap.sh
expect "sleeps" 0 -- sleep 60
expect "spins" 0 -- sh -c 'while :; do :; done'
suite "a suite that sleeps" sleep 60
ktap_main
MATRIX
rm -rf "$tmp/log" && mkdir "$tmp/log"
start=$SECONDS
bash "$tmp/bounds.sh" "$tmp/log" >"$tmp/out" 2>"$tmp/err"
rc=$?
took=$((SECONDS - start))
[ $rc -eq 1 ] && [ $took -lt 50 ] &&
	grep -qx '0 passed, 3 failed, 0 skipped' "$tmp/out" &&
	grep -B2 '^not ok 1 - sleeps ' "$tmp/out" | grep -qx '# timed out: hung, none of its processes used any CPU for 3s' &&
	grep -B2 '^not ok 2 - spins ' "$tmp/out" | grep -qx '# timed out: its processes used 2s of CPU, all a check may (CHECK_CPU)' &&
	grep -B2 '^not ok 3 - a suite that sleeps ' "$tmp/out" | grep -q '^# timed out: hung, none of its processes used any CPU for 3s$'
pass_if "a check asleep, one spinning and a sub-suite asleep: each stopped by its bound, saying which (${took}s)"
ktap_finished
