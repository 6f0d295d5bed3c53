#!/bin/sh
# make bench: the rig's two canonical loops, each run many times and folded
# by ./stats --trim-outliers into one line per distinct output line, e.g.
#   Wall time:2.49-2.61(2.55+/-0.03)
#   612345678-634567890(620000000+/-5e+06)ns
#
# Usage: bench/run.sh [RUNS]
#   RUNS  runs of each loop (default: 50 of vringh_test, 10 of vring_bench)
#
# Runs the programs in the current directory (make runs it in the folder
# it built them in, O= folders included).  Progress (a dot per run) goes to
# stderr, the folded lines to stdout.  A failing run stops that loop and
# makes the exit status 1; so does a missing /usr/bin/time (Debian package
# "time"), which skips the vringh_test loop.

set -u

case ${1:-} in
'') runs_vringh=50 runs_bench=10 ;;
*[!0-9]* | 0) echo "usage: $0 [RUNS]  (RUNS: a positive number)" >&2; exit 2 ;;
*) runs_vringh=$1 runs_bench=$1 ;;
esac

for prog in ./stats ./vringh_test ./vring_bench; do
	if [ ! -x "$prog" ]; then
		echo "bench: $prog is not built (run make first)" >&2
		exit 2
	fi
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/vring-bench.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' HUP INT TERM
status=0

# loop RUNS COMMAND...: run it RUNS times, then fold everything it printed.
loop() {
	runs=$1
	shift
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
		printf . >&2
		i=$((i + 1))
	done
	echo >&2
	./stats --trim-outliers "$tmp/all" || status=1
}

# Record what was measured: compiler and flags of each program.
./vringh_test --version 2>/dev/null | sed -n '1s/^/# /p'
./vring_bench --version 2>/dev/null | sed -n '1s/^/# /p'

if [ -x /usr/bin/time ]; then
	loop "$runs_vringh" /usr/bin/time -f 'Wall time:%e' \
		./vringh_test --indirect --eventidx --parallel --fast-vringh
else
	echo "bench: /usr/bin/time is missing: install the 'time' package" \
		"(apt-get install time); skipping the vringh_test loop" >&2
	status=1
fi
loop "$runs_bench" ./vring_bench
exit $status
