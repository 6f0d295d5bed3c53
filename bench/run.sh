#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: the rig's two canonical loops, each run many times and folded
# by ./stats --trim-outliers into one line per distinct output line, e.g.
#   Wall time:20.85-22.75(21.3033+/-0.26)
#   1497811090-2154251570(1.59436e+09+/-2.9e+07)ns
# (make bench RUNS=5 on a busy machine; the "# ..." header lines first)
#
# Usage: bench/run.sh [-p PLOT] [RUNS]
#        bench/run.sh -h
#   RUNS  runs of each loop (default: 50 of vringh_test, 10 of vring_bench);
#         below 5, trimming would leave too few values for a spread, so
#         the loops are folded untrimmed, with a warning
#   -p PLOT  also draw the spread of each figure (every run in percent of
#         its median) into PLOT, a .png or .svg (needs gnuplot)
#   -h    print this help
#
# Runs the programs in the current directory when it holds them (make runs
# it in the folder it built them in, O= folders included), else those of
# the tree this script is in.  Progress (a dot per run) goes to
# stderr, the folded lines to stdout.  A failing run stops that loop and
# makes the exit status 1; so does a missing /usr/bin/time (Debian package
# "time"), which skips the vringh_test loop.

set -u
here=$(cd "$(dirname "$0")" && pwd) || exit 2

case ${1:-} in
-h | --help) sed -n '/^# Usage:/,/^#   -h/s/^# \{0,1\}//p' "$here/run.sh"; exit 0 ;;
-p) ;;
-*) echo "bench: unknown option '$1' (bench/run.sh -h: usage)" >&2; exit 2 ;;
esac
plot=
if [ "${1:-}" = -p ]; then
	[ $# -ge 2 ] || { echo "bench: -p needs a file name" >&2; exit 2; }
	plot=$2
	shift 2
	case $plot in
	*.png | *.svg) ;;
	*) echo "bench: PLOT must end in .png or .svg: $plot" >&2; exit 2 ;;
	esac
	if ! command -v gnuplot >/dev/null 2>&1; then
		echo "bench: PLOT needs gnuplot (Debian: apt-get install" \
			"gnuplot-nox)" >&2
		exit 2
	fi
fi
case ${1:-} in
'') runs_vringh=50 runs_bench=10 ;;
*[!0-9]* | 0*) echo "bench: RUNS must be a positive number, not '$1'" >&2; exit 2 ;;
*) runs_vringh=$1 runs_bench=$1 ;;
esac
[ $# -le 1 ] || { echo "bench: one RUNS only, not '$*'" >&2; exit 2; }
trim=--trim-outliers
if [ "$runs_bench" -lt 5 ]; then
	echo "bench: warning: RUNS=$runs_bench is below 5: folding without" \
		"--trim-outliers (trimming would leave too few values)" >&2
	trim=
fi

# The folder of the programs: this one, else the tree's top.
built() { [ -x "$1/stats" ] && [ -x "$1/vringh_test" ] && [ -x "$1/vring_bench" ]; }
if ! built .; then
	if ! built "$here/.."; then
		echo "bench: stats, vringh_test and vring_bench are not all built" \
			"here ($(pwd)) nor in $(cd "$here/.." && pwd) (run make first)" >&2
		exit 2
	fi
	case $plot in
	'' | /*) ;;
	*) plot=$(pwd)/$plot ;;
	esac
	cd "$here/.." || exit 2
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/vring-bench.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
. "$here/../shlib/signals.sh"
status=0

# loop LABEL RUNS COMMAND...: run it RUNS times, then fold everything it
# printed; each run's figure ("Wall time:" or "<N>ns" line) goes to the
# plot's data, labelled.
: >"$tmp/figures"
loop() {
	label=$1
	runs=$2
	shift 2
	echo "# $* ($runs runs)"
	printf '%s: ' "$*" >&2
	: >"$tmp/all"
	i=1
	while [ "$i" -le "$runs" ]; do
		if ! "$@" >"$tmp/run" 2>&1; then
			printf 'run %s failed:\n' "$i" >&2
			sed 's/^/  | /' "$tmp/run" >&2
			status=1
			return
		fi
		cat "$tmp/run" >>"$tmp/all"
		sed -n -e 's/^Wall time:\([0-9.]*\)$/\1/p' \
			-e 's/^\([0-9][0-9.e+]*\)ns$/\1/p' "$tmp/run" |
			tail -n 1 | sed "s/^/$label	/" >>"$tmp/figures"
		printf . >&2
		i=$((i + 1))
	done
	echo >&2
	# shellcheck disable=SC2086 # $trim is empty or one word
	./stats $trim "$tmp/all" || status=1
}

# Record what was measured: compiler and flags of each program.
./vringh_test --version 2>/dev/null | sed -n '1s/^/# /p'
./vring_bench --version 2>/dev/null | sed -n '1s/^/# /p'

if [ -x /usr/bin/time ]; then
	loop "vringh_test --parallel: wall time (s)" "$runs_vringh" /usr/bin/time -f 'Wall time:%e' \
		./vringh_test --indirect --eventidx --parallel --fast-vringh
else
	echo "bench: /usr/bin/time is missing: install the 'time' package" \
		"(apt-get install time); skipping the vringh_test loop" >&2
	status=1
fi
loop "vring_bench: ns" "$runs_bench" ./vring_bench
if [ -n "$plot" ] && [ -s "$tmp/figures" ]; then
	"$here/../ab/plot.sh" bench "$tmp/figures" "$plot" \
		"make bench: each figure's runs ($(date -u '+%Y-%m-%d %H:%M UTC'))" ||
		status=1
fi
exit $status
