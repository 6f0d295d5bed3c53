#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The check runner (tests/lib/ktap.sh) keeps each check's wall time in
# TIMES and starts the long checks longest first by it.  A matrix of one
# short and three long checks, each writing its name to a file as it
# starts, is run one at a time (JOBS=1: the short one, then the long
# ones): with TIMES naming two long ones, the longer starts first and the
# one TIMES does not name before both; without TIMES they start as
# declared.  Whatever the order, the KTAP lines are in the order
# declared, and TIMES then holds this run's times and keeps the line of a
# check that did not run.  A TIMES that cannot be written is a warning,
# and the run's results stand.
#
# Usage: tests/runner/times.sh     (from anywhere; prints KTAP)
set -u
. "$(dirname "$0")/opening.sh" times

cat >"$tmp/matrix.sh" <<'MATRIX'
set -u
FILTER='' LIST='' JOBS=1 TIMEOUT=30 LOG=$1 TIMES=$2 started=$3
. tests/lib/ktap.sh
# starts NAME: the check's command, writing NAME to $started.
starts() { expect "$1" 0 -- sh -c 'echo "$1" >>"$2"' sh "$1" "$started"; }
starts "short"
LONG=1 starts "long a"
LONG=1 starts "long b"
LONG=1 starts "long c"
ktap_main
MATRIX

# run TIMES: the matrix, its start order in $tmp/started.
run() {
	rm -rf "$tmp/log" "$tmp/started"
	mkdir "$tmp/log"
	bash "$tmp/matrix.sh" "$tmp/log" "$1" "$tmp/started" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	started=$(tr '\n' ' ' <"$tmp/started")
}
# declared_order: the KTAP lines as declared, every check passed.
declared_order() {
	[ "$rc" -eq 0 ] &&
		[ "$(grep -E '^ok [0-9]+ - ' "$tmp/out" | sed 's/ # time .*//' | tr '\n' ,)" = \
		  "ok 1 - short,ok 2 - long a,ok 3 - long b,ok 4 - long c," ]
}

run ""
[ "$started" = "short long a long b long c " ] && declared_order
pass_if "without TIMES the long checks start as declared"

printf '1.000\tlong a\n9.000\tlong b\n5.000\tgone\n' >"$tmp/times"
run "$tmp/times"
[ "$started" = "short long c long b long a " ] && declared_order
pass_if "the long checks start longest first by TIMES, one it does not name first; the output is as declared"

n='[0-9]+\.[0-9]{3}'
[ "$(grep -Ec "^$n	(short|long a|long b|long c)\$" "$tmp/times")" -eq 4 ] &&
	grep -qx '5.000	gone' "$tmp/times" && [ "$(wc -l <"$tmp/times")" -eq 5 ]
pass_if "TIMES holds this run's time of each check, and keeps a check's that did not run"

# The totals add up: 4 checks, 4 results.
grep -qx '# 4 checks in [0-9.]*s, 1 at a time; 4 results, each line of a sub-suite one: 4 passed + 0 failed + 0 skipped + 0 todo' "$tmp/out"
pass_if "the line before the totals says how they add up"

run "$tmp/no-such-folder/times"
[ "$started" = "short long a long b long c " ] && declared_order &&
	grep -q "^ktap.sh: cannot write $tmp/no-such-folder/times " "$tmp/err"
pass_if "a TIMES that cannot be written: a warning on stderr, the results stand"
ktap_finished
