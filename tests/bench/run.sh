#!/bin/sh
# Checks of the measuring tools: vring_bench's output, options and errors,
# and the A/B comparer on synthetic commands whose figures are fixed
# sequences, so every verdict is certain (the bootstrap's seed is fixed).
# No timing thresholds anywhere.
#
# Usage: tests/bench/run.sh [BUILD_DIR]   (default: the top of the tree)
#
# Prints one "PASS: bench/NAME" or "FAIL: bench/NAME" line per check (and
# "SKIP: bench/NAME: why"), details of failures on stderr; exits 1 if any
# check failed.

set -u
top=$(cd "$(dirname "$0")/../.." && pwd) || exit 2
B=${1:-$top}
case $B in /*) ;; *) B=$(pwd)/$B ;; esac
bench=$B/vring_bench
compare=$B/ab/compare
[ -x "$compare" ] || compare=$top/ab/compare

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-test.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' HUP INT TERM
failed=0

pass() { echo "PASS: bench/$1"; }
fail() {
	echo "FAIL: bench/$1"
	shift
	[ $# -gt 0 ] && echo "bench/$*" >&2
	for f in "$tmp/out" "$tmp/err"; do
		[ -s "$f" ] && sed 's/^/  | /' "$f" >&2
	done
	failed=1
}
# result NAME: PASS if the command just before succeeded, else FAIL.
result() {
	if [ $? -eq 0 ]; then pass "$1"; else fail "$1"; fi
}

# --- vring_bench -----------------------------------------------------------

# bench_ok N: the last run printed exactly "<digits>ns" and "N returned".
bench_ok() {
	[ "$(wc -l <"$tmp/out")" -eq 2 ] &&
	sed -n 1p "$tmp/out" | grep -Eq '^[0-9]+ns$' &&
	[ "$(sed -n 2p "$tmp/out")" = "$1 returned" ] &&
	[ ! -s "$tmp/err" ]
}

if [ ! -x "$bench" ]; then
	fail "vring_bench" "$bench is not built"
else
	"$bench" 1000 >"$tmp/out" 2>"$tmp/err"
	bench_ok 1000
	result "vring_bench 1000: two lines"
	"$bench" 0 >"$tmp/out" 2>"$tmp/err"
	bench_ok 0
	result "vring_bench 0: nothing to do"

	# 70000 buffers: the 16-bit ring indices wrap at least once.
	for o in "" "--no-indirect" "--no-eventidx" "--no-indirect --no-eventidx" \
		 "--in" "--in --no-eventidx" "--in --no-indirect" \
		 "--mixed" "--mixed --no-indirect --no-eventidx" "--mixed --sg 2" \
		 "--virtio-1" "--virtio-1 --mixed --no-indirect" \
		 "--ring-size 1 --sg 1" "--ring-size 1 --sg 1 --no-eventidx" \
		 "--ring-size 2 --sg 2 --no-indirect --mixed" \
		 "--ring-size 16 --sg 16 --no-indirect" "--ring-size 256 --sg 256" \
		 "--ring-size 32768 --sg 1" "--sg 1" "--cpu 0"; do
		# shellcheck disable=SC2086 # options are words
		"$bench" $o 70000 >"$tmp/out" 2>"$tmp/err"
		bench_ok 70000
		result "vring_bench ${o:+$o }70000"
	done

	"$bench" --help >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 0 ] && grep -q "^Usage: vring_bench" "$tmp/out" && [ ! -s "$tmp/err" ]
	result "vring_bench --help"
	"$bench" --version >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 1 ] &&
		grep -q "^vring_bench: built by .* with CFLAGS=" "$tmp/out"
	result "vring_bench --version"

	for a in "--bogus" "-x" "--ring-size" "--ring-size 0" "--ring-size 3" \
		 "--ring-size 65536" "--ring-size 12x" "--sg 0" "--sg -1" \
		 "--ring-size 8 --sg 9" "--mixed --sg 1" "--in --mixed" \
		 "--cpu -1" "--cpu x" "abc" "-- -5" "10 20" "1e6"; do
		# shellcheck disable=SC2086
		"$bench" $a >"$tmp/out" 2>"$tmp/err"
		rc=$?
		[ "$rc" -eq 1 ] && [ ! -s "$tmp/out" ] && grep -q "^Usage: vring_bench" "$tmp/err"
		result "vring_bench $a: usage error"
	done
fi

# --- the comparer ------------------------------------------------------------

# seq_cmd FILE SCALE: a command printing SCALE * (1000 + (37 n mod 101))ns
# for its n-th run, n counted in FILE: a fixed, spread-out sequence.
seq_cmd() {
	echo 0 >"$1"
	echo "n=\$(cat $1); echo \$((n + 1)) >$1; echo \$(($2 * (1000 + n * 37 % 101)))ns"
}

# cmp_run ARGS...: run the comparer, output in out and err, status in $rc.
cmp_run() {
	"$compare" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}
verdict_is() {
	[ "$rc" -eq 0 ] && grep -qx "verdict: $1.*" "$tmp/out"
}
usage_error() {
	[ "$rc" -eq 1 ] && [ ! -s "$tmp/out" ] && grep -q "^Usage: compare" "$tmp/err"
}

if [ ! -x "$compare" ]; then
	fail "compare" "$compare is not built (make ab/compare)"
else
	cmp_run -q 'echo 1000ns' 'echo 1000ns'
	verdict_is "no significant difference"
	result "compare A/A, constant figures"
	cmp_run -q "$(seq_cmd "$tmp/a" 1)" "$(seq_cmd "$tmp/b" 1)"
	verdict_is "no significant difference"
	result "compare A/A, spread figures"
	cmp_run -q "$(seq_cmd "$tmp/a" 1)" "$(seq_cmd "$tmp/b" 2)"
	verdict_is "slower"
	result "compare A vs 2x slower B"
	cmp_run -q -n 5 "$(seq_cmd "$tmp/a" 2)" "$(seq_cmd "$tmp/b" 1)"
	verdict_is "faster"
	result "compare A vs 2x faster B"
	cmp_run -q --unpaired "$(seq_cmd "$tmp/a" 1)" "$(seq_cmd "$tmp/b" 1)"
	verdict_is "no significant difference"
	result "compare --unpaired A/A, spread figures"
	cmp_run -q --unpaired -n 5 "$(seq_cmd "$tmp/a" 1)" "$(seq_cmd "$tmp/b" 2)"
	verdict_is "slower"
	result "compare --unpaired A vs 2x slower B"
	cmp_run -q --raw -n 4 -w 2 "$(seq_cmd "$tmp/a" 1)" "$(seq_cmd "$tmp/b" 3)"
	verdict_is "slower" &&
		[ "$(grep -c '^warm-up [12]: A 1[0-9]* B 3[0-9]*$' "$tmp/out")" -eq 2 ] &&
		[ "$(grep -c '^pair [1-4]: A 1[0-9]* B 3[0-9]*$' "$tmp/out")" -eq 4 ]
	result "compare --raw prints each pair"
	cmp_run -q -n 3 -w 0 'echo 1000ns' 'echo 1000ns; echo 5000ns >&2'
	verdict_is "slower"
	result "compare takes the last ns line, stdout or stderr"
	cmp_run -q -n 4 'echo Wall time:2.00 >&2' 'echo; echo Wall time:1.50'
	verdict_is faster && grep -q "^B: median 1.500s" "$tmp/out" &&
		grep -q "Wall time" "$tmp/out"
	result "compare reads Wall time lines"
	cmp_run -q -n 3 -w 0 true 'echo 12 nsx'
	[ "$rc" -eq 0 ] && grep -q "^figure: wall time measured" "$tmp/out" &&
		grep -q "^verdict: " "$tmp/out"
	result "compare measures wall time itself"
	cmp_run -q -n 3 'echo 1000ns' 'echo 1000 ns'
	[ "$rc" -eq 1 ] && grep -q "earlier runs gave" "$tmp/err"
	result "compare: different kinds of figure is an error"
	cmp_run -q -n 3 'echo 1000ns' 'echo 1000ns; exit 3'
	[ "$rc" -eq 1 ] && grep -q "exited with status 3" "$tmp/err"
	result "compare: a failing run is an error"
	cmp_run -q -n 3 'echo 0ns' 'echo 0ns'
	[ "$rc" -eq 1 ]
	result "compare: a zero figure is an error"
	for a in "--bogus" "-n 2" "-n x" "--resamples 5" "-w -1"; do
		# shellcheck disable=SC2086
		cmp_run $a 'echo 1ns' 'echo 1ns'
		usage_error
		result "compare $a: usage error"
	done
	cmp_run 'echo 1ns'
	usage_error
	result "compare with one command: usage error"
	cmp_run 'echo 1ns' 'echo 1ns' 'echo 1ns'
	usage_error
	result "compare with three commands: usage error"
	cmp_run --help
	[ "$rc" -eq 0 ] && grep -q "^Usage: compare" "$tmp/out"
	result "compare --help"
	if [ -x "$bench" ]; then
		cmp_run -q -n 3 -w 0 "$bench 100" "$bench 200"
		[ "$rc" -eq 0 ] &&
			grep -q "^A version: vring_bench: built by" "$tmp/out" &&
			grep -q "^B version: vring_bench: built by" "$tmp/out" &&
			grep -q "^verdict: " "$tmp/out"
		result "compare prints each build's --version line"
	fi
fi

# --- make ab's helper: two builds of the work tree, side by side ---------------

if ! git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
	echo "SKIP: bench/ab.sh worktree A/A: not a git repository"
elif [ ! -x "$compare" ]; then
	echo "SKIP: bench/ab.sh worktree A/A: $compare is not built"
else
	AB_DIR=$tmp/ab "$top/ab/ab.sh" -c "$compare" -n 3 worktree worktree \
		'./vring_bench 100' >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 0 ] && [ -x "$tmp/ab/A/vring_bench" ] &&
		[ -x "$tmp/ab/B/vring_bench" ] &&
		grep -q "^A version: vring_bench: built by" "$tmp/out" &&
		grep -q "^verdict: " "$tmp/out"
	result "ab.sh worktree A/A"
	AB_DIR=$tmp/ab "$top/ab/ab.sh" -c "$compare" no-such-revision-here \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 1 ] && grep -q "names no commit" "$tmp/err"
	result "ab.sh: an unknown revision is an error"
fi

exit $failed
