#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Checks of the measuring tools: vring_bench's output, options and errors,
# and the A/B comparer on synthetic commands whose figures are fixed
# sequences, so every verdict is certain (the bootstrap's seed is fixed).
# No timing thresholds anywhere.
#
# Usage: tests/bench/run.sh [BUILD_DIR]   (default: the top of the tree)
#
# Prints KTAP (tests/lib/result.sh), each result named "bench/NAME",
# details of failures on stderr; exits 1 if any check failed.

set -u
top=$(cd "$(dirname "$0")/../.." && pwd) || exit 2
B=${1:-$top}
case $B in /*) ;; *) B=$(pwd)/$B ;; esac
bench=$B/vring_bench
compare=$B/ab/compare
[ -x "$compare" ] || compare=$top/ab/compare

# Why valgrind cannot count here, or nothing: not installed, or the
# programs are built with a sanitizer (make check-asan and friends), whose
# runtime does not run under valgrind.
no_valgrind=
if ! command -v valgrind >/dev/null 2>&1; then
	no_valgrind="valgrind is not installed (apt-get install valgrind)"
else
	case ${RIG_CHECK_MODE:-} in
	asan | ubsan | tsan) no_valgrind="programs built with $RIG_CHECK_MODE do not run under valgrind" ;;
	esac
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-test.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
. "$top/shlib/signals.sh"
CHECK_PREFIX=bench/ SHOW_ON_FAIL="$tmp/out $tmp/err"
. "$top/tests/lib/result.sh"

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
	pass_if "vring_bench 1000: two lines"
	"$bench" 010 >"$tmp/out" 2>"$tmp/err"
	bench_ok 10
	pass_if "vring_bench 010: ten buffers (decimal, never octal)"

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
		pass_if "vring_bench ${o:+$o }70000"
	done

	for o in -h --help; do
		"$bench" $o >"$tmp/out" 2>"$tmp/err"
		rc=$?
		[ "$rc" -eq 0 ] && grep -q "^Usage: vring_bench" "$tmp/out" && [ ! -s "$tmp/err" ]
		pass_if "vring_bench $o"
	done
	"$bench" --version >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 1 ] &&
		grep -q "^vring_bench: built by .* with CFLAGS=" "$tmp/out"
	pass_if "vring_bench --version"
	# Each side's tree, and a hash of the ring files compiled from it.
	grep -Eq "; guest from /.* \(.*ring files [0-9a-f]{12}\), host from /.* \(.*ring files [0-9a-f]{12}\)\$" "$tmp/out"
	pass_if "vring_bench --version names the trees of the ring code"
	# A kernel tree's side names the tree's version, from its Makefile.
	if grep -q "guest ring code: kernel" "$tmp/out"; then
		v=$(awk -F' *= *' '$1 == "VERSION" { v = $2 } $1 == "PATCHLEVEL" { p = $2 }
			$1 == "SUBLEVEL" { s = $2 } /^NAME/ { print v "." p "." s; exit }' \
			"$(sed -n 's/.*; guest from \([^ ]*\) .*/\1/p' "$tmp/out")/Makefile")
		grep -q "; guest from /[^ ]* ($v, " "$tmp/out"
		pass_if "vring_bench --version names the kernel tree's version ($v)"
	fi

	for a in "--bogus" "-x" "--ring-size" "--ring-size 0" "--ring-size 3" \
		 "--ring-size 65536" "--ring-size 12x" "--sg 0" "--sg -1" \
		 "--ring-size 8 --sg 9" "--mixed --sg 1" "--in --mixed" \
		 "--calls --sg 1" "--calls --in-order" "--calls --in" "--mixed --calls" \
		 "--cpu -1" "--cpu x" "abc" "-- -5" "10 20" "1e6" "0" \
		 "18446744073709551615" "1000000000001" "010x"; do
		# shellcheck disable=SC2086
		"$bench" $a >"$tmp/out" 2>"$tmp/err"
		rc=$?
		# Exit 2; on stderr one line saying what, then "try ... --help".
		[ "$rc" -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 2 ] &&
			[ "$(tail -n 1 "$tmp/err")" = "try 'vring_bench --help'" ]
		pass_if "vring_bench $a: usage error"
	done
fi

# --- --json of vring_bench, vringh_test --parallel and virtio_test -------------

# json_has FIELD...: the one line of out is a JSON object with these fields.
json_has() {
	[ "$(wc -l <"$tmp/out")" -eq 1 ] && [ "$(head -c 12 "$tmp/out")" = '{"program": ' ] || return 1
	if command -v python3 >/dev/null 2>&1; then
		python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
for k in ["program", "build"] + sys.argv[2:]:
	assert k in d, k
for k in ("cc", "cflags", "guest", "host", "guest_src", "host_src"):
	assert k in d["build"], k
for k in ("guest_src", "host_src"):
	assert set(d["build"][k]) == {"tree", "version", "describe", "files"}, k' "$tmp/out" "$@" 2>>"$tmp/err"
	else
		for f in "$@"; do grep -q "\"$f\": " "$tmp/out" || return 1; done
	fi
}
if [ -x "$bench" ]; then
	"$bench" --json --packed 1000 >"$tmp/out" 2>"$tmp/err"
	[ $? -eq 0 ] && json_has ring ring_size sg buffer indirect event_idx \
		virtio_1 in_order buffers returned ns ns_per_buffer &&
		grep -q '"ring": "packed", ' "$tmp/out" &&
		grep -q '"buffers": 1000, "returned": 1000, ' "$tmp/out"
	pass_if "vring_bench --json"
fi
if [ -x "$B/vringh_test" ]; then
	"$B/vringh_test" --parallel --xfers=20000 --json >"$tmp/out" 2>"$tmp/err"
	[ $? -eq 0 ] && json_has ring indirect event_idx virtio_1 in_order \
		in_order_batch slow_range fast_vringh cpu_guest cpu_host xfers \
		completed interrupted guest_notified guest_pinged host_notified \
		host_pinged ns && grep -q '"completed": 20000, ' "$tmp/out"
	pass_if "vringh_test --parallel --json"
	"$B/vringh_test" --json >"$tmp/out" 2>"$tmp/err"
	[ $? -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 2 ]
	pass_if "vringh_test --json without --parallel: usage error"
fi
if [ -x "$B/virtio_test" ]; then
	"$B/virtio_test" --json --buf-num=0x800 >"$tmp/out" 2>"$tmp/err"
	[ $? -eq 0 ] && json_has ring indirect event_idx virtio_1 in_order \
		in_order_batch delayed_interrupt batch reset cpu_driver \
		cpu_device buffers started completed spurious_wakeups ns &&
		grep -q '"started": 2048, "completed": 2048, ' "$tmp/out" &&
		grep -q "^spurious wakeups: " "$tmp/err"
	pass_if "virtio_test --json"
fi

# --- stats --version (its text depends on the compiler: not a stats case) ----

if [ -x "$B/stats" ]; then
	"$B/stats" --version >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 1 ] && [ ! -s "$tmp/err" ] &&
		grep -q "^stats: built by .* with CFLAGS=" "$tmp/out"
	pass_if "stats --version"
else
	fail "stats --version" "$B/stats is not built"
fi

# --- the comparer ------------------------------------------------------------

# seq_cmd FILE SCALE: a command printing SCALE * (1000 + (37 n mod 101))ns
# for its n-th run, n counted in FILE: a fixed, spread-out sequence.  (sh
# reads FILE itself: the comparer runs it hundreds of times.)
seq_cmd() {
	echo 0 >"$1"
	echo "read n <$1; echo \$((n + 1)) >$1; echo \$(($2 * (1000 + n * 37 % 101)))ns"
}

# cmp_run ARGS...: run the comparer, output in out and err, status in $rc;
# --metric=auto unless ARGS give a metric (the figures here are printed).
cmp_run() {
	case " $* " in
	*" --metric="* | *" -m "*) "$compare" "$@" ;;
	*) "$compare" --metric=auto "$@" ;;
	esac >"$tmp/out" 2>"$tmp/err"
	rc=$?
}
verdict_is() {
	[ "$rc" -eq 0 ] && grep -qx "verdict: $1.*" "$tmp/out"
}
# usage_error: exit 2, nothing on stdout, one line naming the problem and
# then "try 'compare --help'".
usage_error() {
	[ "$rc" -eq 2 ] && [ ! -s "$tmp/out" ] &&
		[ "$(wc -l <"$tmp/err")" -eq 2 ] &&
		grep -q "^compare: " "$tmp/err" &&
		[ "$(sed -n 2p "$tmp/err")" = "try 'compare --help'" ]
}

if [ ! -x "$compare" ]; then
	fail "compare" "$compare is not built (make ab/compare)"
else
	cmp_run -q 'echo 1000ns' 'echo 1000ns'
	verdict_is "no significant difference"
	pass_if "compare A/A, constant figures"
	cmp_run -q "$(seq_cmd "$tmp/a" 1)" "$(seq_cmd "$tmp/b" 1)"
	verdict_is "no significant difference"
	pass_if "compare A/A, spread figures"
	cmp_run -q "$(seq_cmd "$tmp/a" 1)" "$(seq_cmd "$tmp/b" 2)"
	verdict_is "slower"
	pass_if "compare A vs 2x slower B"
	cmp_run -q -n 5 "$(seq_cmd "$tmp/a" 2)" "$(seq_cmd "$tmp/b" 1)"
	verdict_is "faster"
	pass_if "compare A vs 2x faster B"
	cmp_run -q --unpaired "$(seq_cmd "$tmp/a" 1)" "$(seq_cmd "$tmp/b" 1)"
	verdict_is "no significant difference"
	pass_if "compare --unpaired A/A, spread figures"
	cmp_run -q --unpaired -n 5 "$(seq_cmd "$tmp/a" 1)" "$(seq_cmd "$tmp/b" 2)"
	verdict_is "slower"
	pass_if "compare --unpaired A vs 2x slower B"
	# Each pair's ratio is exactly 1.02 while the figures spread by 10%:
	# paired, that is a certain 2% slowdown; unpaired, it is lost.
	cmp_run -q -n 9 --max-slowdown "$(seq_cmd "$tmp/a" 100)" "$(seq_cmd "$tmp/b" 102)"
	[ "$rc" -eq 1 ] && grep -q "^B/A: 1.0200, 95% CI 1.0200..1.0200 (median of the pair ratios" "$tmp/out"
	pass_if "compare: the pair ratios cancel what the pair shares"
	cmp_run -q -n 9 --unpaired "$(seq_cmd "$tmp/a" 100)" "$(seq_cmd "$tmp/b" 102)"
	verdict_is "no significant difference" && grep -q "ratio of medians, unpaired" "$tmp/out"
	pass_if "compare --unpaired: the ratio of medians"
	# The margin: B 0.3% slower in every pair is within the default 0.5%.
	cmp_run -q -n 9 "$(seq_cmd "$tmp/a" 1000)" "$(seq_cmd "$tmp/b" 1003)"
	verdict_is "no significant difference (the interval excludes 1, but not by the 0.5% margin)"
	pass_if "compare: B 0.3% slower: within the default 0.5% margin"
	cmp_run -q -n 9 --margin=0 "$(seq_cmd "$tmp/a" 1000)" "$(seq_cmd "$tmp/b" 1003)"
	verdict_is "slower"
	pass_if "compare --margin=0: B 0.3% slower is slower"
	cmp_run -q -n 9 --margin=0.2 "$(seq_cmd "$tmp/a" 1003)" "$(seq_cmd "$tmp/b" 1000)"
	verdict_is "faster"
	pass_if "compare --margin=0.2: B 0.3% faster is faster"
	# Without --metric: CPU time, 101 pairs.
	"$compare" -q -w 0 --json 'echo 1000ns' 'echo 1000ns' >"$tmp/out" 2>"$tmp/err"
	grep -q '^  "metric": "cpu",$' "$tmp/out" && grep -q '^  "figure": "cpu_time",$' "$tmp/out" &&
		grep -q '^  "pairs": 101,$' "$tmp/out" && grep -q '^  "margin_pct": 0.5,$' "$tmp/out"
	pass_if "compare: CPU time and 101 pairs by default"
	: >"$tmp/order"
	cmp_run -q -n 3 -w 1 "echo A >>$tmp/order; echo 1ns" "echo B >>$tmp/order; echo 1ns"
	[ "$rc" -eq 0 ] && [ "$(tr -d '\n' <"$tmp/order")" = ABBAABBA ]
	pass_if "compare runs A B, then B A"
	# Layouts: B 5% faster in one, 5% slower in the other.  One layout
	# alone says faster; both, round which the pairs go, say the ratio is
	# the layouts' geometric mean and its interval spans them.
	cmp_run -q -n 20 --margin=0 "echo 1000ns" "echo 950ns"
	verdict_is "faster"
	pass_if "compare: one layout where B is 5% faster says faster"
	cmp_run -q -n 20 --margin=0 --json "echo 1000ns" "echo 950ns" "echo 1000ns" "echo 1050ns"
	[ "$rc" -eq 0 ] && grep -q '^  "verdict": "same",$' "$tmp/out" &&
		grep -q '^  "statistic": "layout_mean_ratio",$' "$tmp/out" &&
		grep -q '^  "ratio": 0\.998' "$tmp/out" &&
		[ "$(grep -c '"pairs": 10, "ratio": ' "$tmp/out")" -eq 2 ]
	pass_if "compare: two layouts, B 5% faster and 5% slower: the same, 10 pairs each"
	cmp_run -q -n 20 "echo 1ns" "echo 1ns" "echo 1ns"
	usage_error
	pass_if "compare: commands come in pairs (an odd number is a usage error)"
	cmp_run -q -n 3 "echo 1ns" "echo 1ns" "echo 1ns" "echo 1ns" "echo 1ns" "echo 1ns" \
		"echo 1ns" "echo 1ns"
	usage_error && grep -q 'layouts' "$tmp/err"
	pass_if "compare: fewer pairs than layouts is a usage error"
	cmp_run -q --raw -n 4 -w 2 "$(seq_cmd "$tmp/a" 1)" "$(seq_cmd "$tmp/b" 3)"
	verdict_is "slower" &&
		[ "$(grep -c '^warm-up [12]: A 1[0-9]* B 3[0-9]*$' "$tmp/out")" -eq 2 ] &&
		[ "$(grep -c '^pair [1-4]: A 1[0-9]* B 3[0-9]*$' "$tmp/out")" -eq 4 ]
	pass_if "compare --raw prints each pair"
	cmp_run -q -n 3 -w 0 'echo 1000ns' 'echo 1000ns; echo 5000ns >&2'
	verdict_is "slower"
	pass_if "compare takes the last ns line, stdout or stderr"
	cmp_run -q -n 4 'echo Wall time:2.00 >&2' 'echo; echo Wall time:1.50'
	verdict_is faster && grep -q "^B: median 1.500s" "$tmp/out" &&
		grep -q "Wall time" "$tmp/out"
	pass_if "compare reads Wall time lines"
	cmp_run -q -n 3 -w 0 true 'echo 12 nsx'
	[ "$rc" -eq 0 ] && grep -q "^figure: wall time measured" "$tmp/out" &&
		grep -q "^verdict: " "$tmp/out"
	pass_if "compare measures wall time itself"
	cmp_run -q -n 3 'echo 1000ns' 'echo 1000 ns'
	[ "$rc" -eq 3 ] && grep -q "earlier runs gave" "$tmp/err"
	pass_if "compare: different kinds of figure is an error"
	cmp_run -q -n 3 'echo 1000ns' 'echo 1000ns; exit 3'
	[ "$rc" -eq 3 ] && grep -q "exited with status 3" "$tmp/err"
	pass_if "compare: a failing run is an error"
	cmp_run -q -n 3 'echo 0ns' 'echo 0ns'
	[ "$rc" -eq 3 ]
	pass_if "compare: a zero figure is an error"
	for a in "--bogus" "-x" "-n 2" "-n 0" "-n x" "-n" "--resamples 5" \
		 "-r 0" "-w -1" "--metric=cycles" "--max-slowdown=-1" \
		 "--max-slowdown=x" "--margin=x" "--margin" "--json=1" "--metric=own -n 1"; do
		# shellcheck disable=SC2086
		cmp_run $a 'echo 1ns' 'echo 1ns'
		usage_error
		pass_if "compare $a: usage error"
	done
	cmp_run 'echo 1ns'
	usage_error
	pass_if "compare with one command: usage error"
	cmp_run 'echo 1ns' 'echo 1ns' 'echo 1ns'
	usage_error
	pass_if "compare with three commands: usage error"
	cmp_run --help
	[ "$rc" -eq 0 ] && grep -q "^Usage: compare" "$tmp/out"
	pass_if "compare --help"
	cmp_run -h
	[ "$rc" -eq 0 ] && grep -q "^Usage: compare" "$tmp/out"
	pass_if "compare -h"
	cmp_run --version
	[ "$rc" -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 1 ] &&
		grep -q "^compare: built by .* with CFLAGS=" "$tmp/out"
	pass_if "compare --version"

	# Figures as stats reads them: 9.4e+08ns, 1.5ns, .5 is not a figure.
	cmp_run -q -n 3 -w 0 'echo 9.4e+08ns' 'echo 9.5e+08ns'
	verdict_is slower && grep -q "^A: median 940000000ns" "$tmp/out"
	pass_if "compare reads 9.4e+08ns"
	cmp_run -q -n 3 -w 0 'echo 2.5ns' 'echo 2.5ns'
	verdict_is "no significant difference" && grep -q "^figure: the \"<N>ns\"" "$tmp/out"
	pass_if "compare reads 2.5ns"
	cmp_run -q -n 3 -w 0 --metric=own 'echo 0x10ns' 'echo 16ns'
	[ "$rc" -eq 3 ] && grep -q "printed no figure for --metric=own" "$tmp/err"
	pass_if "compare --metric=own: a hex figure is not read"

	# Metric choice.
	cmp_run -q -n 3 -w 0 --metric=wall 'echo 1000ns' 'echo 5000ns'
	[ "$rc" -eq 0 ] && grep -q "^figure: wall time measured" "$tmp/out"
	pass_if "compare --metric=wall ignores the program's figure"
	busy='i=0; while [ $i -lt 20000 ]; do i=$((i + 1)); done; echo 1000ns'
	cmp_run -q -n 3 -w 0 --metric=cpu "$busy" "$busy"
	[ "$rc" -eq 0 ] && grep -q "^figure: CPU time of the run" "$tmp/out" &&
		grep -q "^A: median [1-9][0-9]*ns" "$tmp/out"
	pass_if "compare --metric=cpu takes the run's CPU time"
	cmp_run -q -n 3 -w 0 --metric=own true true
	[ "$rc" -eq 3 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ]
	pass_if "compare --metric=own without a figure is an error"

	# The gate: A/A passes, 2x fails, within the threshold passes.
	cmp_run -q --max-slowdown "$(seq_cmd "$tmp/a" 1)" "$(seq_cmd "$tmp/b" 1)"
	[ "$rc" -eq 0 ] && grep -q "^gate: pass" "$tmp/out"
	pass_if "compare --max-slowdown: A/A passes"
	cmp_run -q -n 5 --max-slowdown "$(seq_cmd "$tmp/a" 1)" "$(seq_cmd "$tmp/b" 2)"
	[ "$rc" -eq 1 ] && grep -q "^gate: FAIL" "$tmp/out"
	pass_if "compare --max-slowdown: 2x slower fails"
	cmp_run -q -n 3 -w 0 --max-slowdown=5 'echo 1000ns' 'echo 1040ns'
	[ "$rc" -eq 0 ] && grep -q "^verdict: slower" "$tmp/out" &&
		grep -q "^gate: pass" "$tmp/out"
	pass_if "compare --max-slowdown=5: 4% slower passes"
	cmp_run -q -n 3 -w 0 --max-slowdown=3 'echo 1000ns' 'echo 1040ns'
	[ "$rc" -eq 1 ]
	pass_if "compare --max-slowdown=3: 4% slower fails"
	cmp_run -q -n 3 -w 0 'echo 1000ns' 'echo 3000ns'
	[ "$rc" -eq 0 ] && ! grep -q "^gate:" "$tmp/out"
	pass_if "compare without --max-slowdown never fails on speed"

	# JSON: one object with the documented fields.
	cmp_run -q -n 3 -w 0 --json --max-slowdown 'echo 1000ns' 'echo 3000ns'
	[ "$rc" -eq 1 ] && [ "$(head -c 1 "$tmp/out")" = "{" ] &&
		grep -q '^  "verdict": "slower",$' "$tmp/out" &&
		grep -q '^  "ratio": 3.000000,$' "$tmp/out" &&
		grep -q '"figures": \[1000, 1000, 1000\]' "$tmp/out" &&
		grep -q '"failed": true' "$tmp/out"
	pass_if "compare --json"
	if command -v python3 >/dev/null 2>&1; then
		python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
for k in ("metric", "figure", "unit", "pairs", "warmup", "a", "b", "ratio",
	  "ci_low", "ci_high", "confidence", "bootstrap", "resamples", "seed",
	  "statistic", "verdict", "gate"):
	assert k in d, k
for k in ("command", "version", "median", "min", "max", "cv_pct", "figures"):
	assert k in d["a"] and k in d["b"], k' "$tmp/out" 2>"$tmp/err"
		pass_if "compare --json parses, every documented field"
	else
		skip "compare --json parses" "python3 is not installed"
	fi
	cmp_run -q -n 4 -w 0 --save "$tmp/saved" 'echo 1000ns' 'echo 2000ns'
	[ "$rc" -eq 0 ] && [ "$(cat "$tmp/saved" | tr '\n' ' ')" = "1000 2000 1000 2000 1000 2000 1000 2000 " ]
	pass_if "compare --save writes each pair"

	# Instructions (valgrind): deterministic, so one pair; A/A is exact.
	if [ -n "$no_valgrind" ]; then
		skip "compare --metric=instructions" "$no_valgrind"
	elif [ -x "$bench" ]; then
		cmp_run -q --metric=instructions --max-slowdown "$bench 2000" "$bench 2000"
		[ "$rc" -eq 0 ] && grep -q "^B/A: 1.000000 " "$tmp/out" &&
			grep -q "^gate: pass" "$tmp/out"
		pass_if "compare --metric=instructions A/A"
		cmp_run -q --metric=instructions --max-slowdown "$bench 2000" "$bench 2100"
		[ "$rc" -eq 1 ] && grep -q "^gate: FAIL" "$tmp/out"
		pass_if "compare --metric=instructions: 5% more work fails the gate"
		grep -qx "verdict: slower (B executes more instructions than A)" "$tmp/out"
		pass_if "compare --metric=instructions: more work is more instructions, not longer"
		cmp_run -q --metric=instructions "$bench 2100" "$bench 2000"
		[ "$rc" -eq 0 ] &&
			grep -qx "verdict: faster (B executes fewer instructions than A)" "$tmp/out"
		pass_if "compare --metric=instructions: less work is fewer instructions"
	fi
	if [ -x "$bench" ]; then
		cmp_run -q -n 3 -w 0 "$bench 100" "$bench 200"
		[ "$rc" -eq 0 ] &&
			grep -q "^A version: vring_bench: built by" "$tmp/out" &&
			grep -q "^B version: vring_bench: built by" "$tmp/out" &&
			grep -q "^verdict: " "$tmp/out"
		pass_if "compare prints each build's --version line"
	fi
fi

# --- make ab's helper: two builds of the work tree, side by side ---------------

if ! git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
	skip "ab.sh worktree A/A" "not a git repository"
elif [ ! -x "$compare" ]; then
	skip "ab.sh worktree A/A" "$compare is not built"
else
	# One pair of builds for the A/A and its plot (-p, with gnuplot).
	# Two builds of the tree under a sanitizer time nothing a timing is
	# for, and take minutes: make check's plain build runs them.
	plot=()
	command -v gnuplot >/dev/null 2>&1 && plot=(-p "$tmp/ab.png")
	case ${RIG_CHECK_MODE:-plain} in
	asan | ubsan | tsan)
		skip "ab.sh worktree A/A" "not in a $RIG_CHECK_MODE build: make check times plain builds"
		skip "ab.sh -p" "not in a $RIG_CHECK_MODE build: make check times plain builds" ;;
	*)
		AB_DIR=$tmp/ab "$top/ab/ab.sh" -c "$compare" -n 3 "${plot[@]}" worktree worktree \
			'./vring_bench 100' >"$tmp/out" 2>"$tmp/err"
		rc=$?
		[ "$rc" -eq 0 ] && [ -x "$tmp/ab/A/vring_bench" ] &&
			[ -x "$tmp/ab/B/vring_bench" ] &&
			grep -q "^A version: vring_bench: built by" "$tmp/out" &&
			grep -q "^verdict: " "$tmp/out"
		pass_if "ab.sh worktree A/A"
		if [ ${#plot[@]} -ne 0 ]; then
			[ "$rc" -eq 0 ] && [ "$(head -c 4 "$tmp/ab.png" | tail -c 3)" = PNG ]
			pass_if "ab.sh -p: a PNG of A and B"
		else
			skip "ab.sh -p" "gnuplot is not installed (apt-get install gnuplot-nox)"
		fi ;;
	esac
	AB_DIR=$tmp/ab "$top/ab/ab.sh" -c "$compare" no-such-revision-here \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 2 ] && grep -q "names no commit" "$tmp/err"
	pass_if "ab.sh: an unknown revision is a usage error (2; 1 is the gate)"
	# The same status from make regress and make series, before a build.
	for s in "regress -T -L 1 -n 3" "series -n 0"; do
		# shellcheck disable=SC2086 # options are words
		AB_DIR=$tmp/ab-rev SERIES_DIR=$tmp/ab-rev "$top/ab/${s%% *}.sh" ${s#* } \
			no-such-revision-here >"$tmp/out" 2>"$tmp/err"
		rc=$?
		[ "$rc" -eq 2 ] && grep -q "names no commit" "$tmp/err" && [ ! -e "$tmp/ab-rev" ]
		pass_if "${s%% *}.sh: an unknown BASE is a usage error (2, as ab.sh)"
	done
	# Bad comparer options are refused before anything is built.
	for a in "-n 2" "-n 0" "-m cycles" "-g x"; do
		# shellcheck disable=SC2086
		AB_DIR=$tmp/ab-bad "$top/ab/ab.sh" -c "$compare" $a HEAD \
			>"$tmp/out" 2>"$tmp/err"
		rc=$?
		[ "$rc" -eq 2 ] && [ ! -e "$tmp/ab-bad" ] &&
			[ "$(wc -l <"$tmp/err")" -eq 2 ] && grep -q "^compare: " "$tmp/err"
		pass_if "ab.sh $a: refused before building"
	done
	AB_DIR=$tmp/ab-bad "$top/ab/ab.sh" -c "$compare" -p x.pdf HEAD \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 2 ] && [ ! -e "$tmp/ab-bad" ] && [ "$(wc -l <"$tmp/err")" -eq 2 ]
	pass_if "ab.sh -p x.pdf: refused before building"
	"$top/ab/ab.sh" -h >"$tmp/out" 2>"$tmp/err"
	[ $? -eq 0 ] && grep -q "^Usage: ab/ab.sh" "$tmp/out"
	pass_if "ab.sh -h"
	# Its -m line names every metric the comparer takes.
	missing=
	for m in auto own wall cpu instructions; do
		"$compare" --check-usage -m "$m" true true >/dev/null 2>&1 ||
			continue
		grep -e '-m METRIC' "$tmp/out" | grep -qw "$m" ||
			missing="$missing $m"
	done
	[ -z "$missing" ] || echo "ab.sh -h does not name:$missing" >&2
	[ -z "$missing" ]
	pass_if "ab.sh -h names each metric ab/compare takes"
fi

# --- make regress's parts: the counts and the table ---------------------------

# The whole of make regress, A/A on the work tree, counts only (-n 0):
# two builds of one source give the same counts, row for row, the cache
# simulator's misses included (ab/count.sh is deterministic).  In ab.sh's
# folders: vring_bench is built there, vringh_test is added
# (ab/rev-build.sh compiles only what is not up to date).
if [ -n "$no_valgrind" ]; then
	skip "regress.sh worktree A/A" "$no_valgrind"
elif git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
	AB_DIR=$tmp/ab "$top/ab/regress.sh" -n 0 -j "$tmp/regress.json" \
		worktree worktree >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 0 ] && grep -q "^0 regression(s)" "$tmp/out" &&
		[ "$(grep -c '^vring[a-z_]* \(split\|packed\) instructions/\(add\|run\)  .* 1\.0000  ok$' "$tmp/out")" -eq 4 ] &&
		[ "$(grep -c '^vring[a-z_]* \(split\|packed\) \(D1\|LL\) misses/\(add\|run\)  .* 1\.0000  info$' "$tmp/out")" -eq 8 ] &&
		[ "$(grep -c '^\(virtqueue\|vring\)_[a-z_]* \(split\|packed\) \(in\)\{0,1\}direct instructions/call  .* 1\.0000  ok$' "$tmp/out")" -eq 38 ] &&
		grep -q '"verdict": "ok"' "$tmp/regress.json" &&
		{ ! command -v python3 >/dev/null 2>&1 ||
		  python3 -m json.tool "$tmp/regress.json" >/dev/null; }
	pass_if "regress.sh worktree A/A: every count the same, cache misses too; its JSON parses"
else
	skip "regress.sh worktree A/A" "not a git repository"
fi
for a in "" "-n 2" "-i x" "-w" "-q HEAD" "HEAD HEAD HEAD" "-m ns HEAD" \
	 "-x 0 HEAD" "-T -n 0 HEAD" "-K $tmp -n 0" "-k $tmp HEAD" \
	 "-k $tmp -K $tmp HEAD" "-k $tmp -K $tmp" "-k $tmp -p rig/rig HEAD" \
	 "-k $tmp -p kernel HEAD" "-p kernel/rig HEAD"; do
	# shellcheck disable=SC2086
	AB_DIR=$tmp/regress-bad "$top/ab/regress.sh" $a >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 2 ] && [ ! -e "$tmp/regress-bad" ] &&
		[ "$(wc -l <"$tmp/err")" -eq 2 ] && grep -q "^regress: " "$tmp/err"
	pass_if "regress.sh ${a:-(no BASE)}: usage error"
done

# gate-check's usage errors, before it clones or builds anything.
for a in "-r 0" "-r x" "-s x" "-s 010" "-s 100001" "HEAD foo" "no-such-rev" "-q"; do
	# shellcheck disable=SC2086
	TMPDIR=$tmp/gate-bad "$top/ab/gate-check.sh" $a >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 2 ] && [ ! -e "$tmp/gate-bad" ] && [ ! -s "$tmp/out" ] &&
		[ "$(wc -l <"$tmp/err")" -eq 2 ] && grep -q "^gate-check: " "$tmp/err"
	pass_if "gate-check.sh $a: usage error"
done

# --- make bench's script: RUNS below 5 folds untrimmed, with a warning -----------

if [ -x "$B/stats" ] && [ -x "$B/vringh_test" ] && [ -x "$bench" ] &&
   [ -x /usr/bin/time ]; then
	# Stand-ins that print fixed figures: only the script is under test.
	mkdir -p "$tmp/fake"
	cp "$B/stats" "$tmp/fake/stats"
	printf '#!/bin/bash\n[ "$1" = --version ] && echo "vringh_test: fake"; exit 0\n' \
		>"$tmp/fake/vringh_test"
	printf '#!/bin/bash\n[ "$1" = --version ] && { echo "vring_bench: fake"; exit 0; }\nn=$(cat %s/n 2>/dev/null || echo 0); echo $((n + 1)) >%s/n\necho $((1000 + n))ns\necho "10 returned"\n' \
		"$tmp/fake" "$tmp/fake" >"$tmp/fake/vring_bench"
	chmod +x "$tmp/fake/vringh_test" "$tmp/fake/vring_bench"
	(cd "$tmp/fake" && "$top/bench/run.sh" 3) >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 0 ] && grep -q "warning: RUNS=3 is below 5" "$tmp/err" &&
		grep -qx "1000-1002(1001+/-0.82)ns" "$tmp/out"
	pass_if "bench/run.sh 3: untrimmed, with a warning"
	rm -f "$tmp/fake/n"
	(cd "$tmp/fake" && "$top/bench/run.sh" 5) >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 0 ] && ! grep -q "warning" "$tmp/err" &&
		grep -qx "1000-1004(1002+/-0.82)ns" "$tmp/out"
	pass_if "bench/run.sh 5: trimmed"
	(cd "$tmp/fake" && "$top/bench/run.sh" 03) >"$tmp/out" 2>"$tmp/err"
	[ $? -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ]
	pass_if "bench/run.sh 03: refused"
	(cd "$tmp/fake" && "$top/bench/run.sh" -h) >"$tmp/out" 2>"$tmp/err"
	[ $? -eq 0 ] && grep -q "^Usage: bench/run.sh" "$tmp/out" && [ ! -s "$tmp/err" ]
	pass_if "bench/run.sh -h: the usage, exit 0"
	(cd "$tmp/fake" && "$top/bench/run.sh" -x) >"$tmp/out" 2>"$tmp/err"
	[ $? -eq 2 ] && [ ! -s "$tmp/out" ] && grep -q "unknown option '-x'" "$tmp/err"
	pass_if "bench/run.sh -x: unknown option, exit 2"
	# From another folder: the programs of the script's own tree.
	mkdir -p "$tmp/tree/bench" "$tmp/tree/shlib" "$tmp/elsewhere"
	cp "$top/bench/run.sh" "$tmp/tree/bench/run.sh"
	cp "$top/shlib/signals.sh" "$tmp/tree/shlib/"
	cp "$tmp/fake/stats" "$tmp/fake/vringh_test" "$tmp/fake/vring_bench" "$tmp/tree/"
	rm -f "$tmp/fake/n"
	(cd "$tmp/elsewhere" && "$tmp/tree/bench/run.sh" 5) >"$tmp/out" 2>"$tmp/err"
	[ $? -eq 0 ] && grep -qx "1000-1004(1002+/-0.82)ns" "$tmp/out"
	pass_if "bench/run.sh from another folder: its tree's programs"
	rm -f "$tmp/tree/stats"
	(cd "$tmp/elsewhere" && "$tmp/tree/bench/run.sh" 5) >"$tmp/out" 2>"$tmp/err"
	[ $? -eq 2 ] && grep -q "not all built here ($tmp/elsewhere) nor in $tmp/tree " "$tmp/err"
	pass_if "bench/run.sh: nothing built here nor in its tree says where it looked"
	if command -v gnuplot >/dev/null 2>&1; then
		rm -f "$tmp/fake/n"
		(cd "$tmp/fake" && "$top/bench/run.sh" -p "$tmp/bench.svg" 5) \
			>"$tmp/out" 2>"$tmp/err"
		rc=$?
		[ "$rc" -eq 0 ] && grep -q "<svg" "$tmp/bench.svg"
		pass_if "bench/run.sh -p: an SVG of each figure's spread"
	else
		skip "run.sh -p" "gnuplot is not installed (apt-get install gnuplot-nox)"
	fi
else
	skip "run.sh" "stats, vringh_test, vring_bench or /usr/bin/time missing"
fi

ktap_finished
