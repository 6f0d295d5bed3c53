#!/bin/sh
# Deterministic cost counts of the ring operations, under valgrind's
# callgrind with its cache simulator: instructions and simulated D1 and LL
# (last-level) cache misses.  The same binary gives the same counts on every
# run, so a change of a fraction of a percent shows in one run, on any
# machine, hardware counters or not.
#
# Usage: ab/count.sh [BUILD_DIR]   (default: the current directory)
#
# Measured, in BUILD_DIR (a top-level, O= or KSRC= build):
#   vring_bench split / packed   per add (each buffer added, kicked, reaped
#       and checked): the difference between a run of 60000 adds and one of
#       10000, divided by 50000.  Set-up, teardown and program start cancel
#       out exactly, since they do not depend on the count; printf (the
#       time printed has more or fewer digits) is toggled out.
#   vringh_test split / packed   per run of the single-threaded scenarios
#       (--indirect --eventidx): callgrind counts only inside run_single()
#       (main() where that is inlined), and not inside each scenario's ring
#       set-up and teardown (fixture_setup/fixture_teardown, or st_setup/
#       st_teardown), which it toggles off.
# Prints one line per figure, "NAME: VALUE" (two decimals), e.g.
#   vring_bench split instructions/add: 1196.16
# A scenario the ring code under test lacks (exit 77) prints "NAME: n/a".
# Instruction counts move only when the code run moves.  Miss counts also
# move with memory layout: the same binary with 500 more bytes of
# environment (its stack elsewhere) went from 5.13 to 5.18 D1 misses per
# vring_bench add.  So every run gets an empty environment (env -i), and
# misses are compared only between builds made alike.
# Exit status: 0, or 1 if valgrind is missing or a run failed.

set -u
B=${1:-.}
# The simulated caches, fixed so that the counts do not depend on the
# machine (valgrind would otherwise copy the host's): 32 KiB 8-way L1s and
# an 8 MiB 16-way last level, 64-byte lines.
CACHES="--I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64"
# printf is toggled out: how long it takes to print the time a run took
# depends on its digits (a few instructions per digit).
NOPRINT="--toggle-collect=printf --toggle-collect=__printf_chk"
LO=10000
HI=60000
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vring-count.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' HUP INT TERM

die() {
	echo "count: $*" >&2
	exit 1
}
VALGRIND=$(command -v valgrind) ||
	die "valgrind is not installed (Debian: apt-get install valgrind)"
for p in vring_bench vringh_test; do
	[ -x "$B/$p" ] || die "$B/$p is not built (make $p)"
done

# grind OUT [CALLGRIND_OPTION...] -- PROGRAM ARGS...: run it under
# callgrind; OUT gets "Ir D1 LL" (D1 and LL misses, reads and writes, data
# and instructions), or "skip" on exit 77.
grind() {
	out=$1
	shift
	opts=
	while [ "$1" != -- ]; do
		opts="$opts $1"
		shift
	done
	shift
	# In BUILD_DIR, as ./PROGRAM: the same stack layout from any folder.
	# shellcheck disable=SC2086 # options are words
	(cd "$B" && exec env -i "$VALGRIND" --tool=callgrind --cache-sim=yes $CACHES \
		--callgrind-out-file=/dev/null $opts "$@") \
		>"$tmp/log" 2>&1
	rc=$?
	if [ $rc -eq 77 ]; then
		echo skip >"$out"
		return 0
	fi
	if [ $rc -ne 0 ]; then
		sed 's/^/  | /' "$tmp/log" >&2
		die "$* failed under valgrind (exit $rc)"
	fi
	# "Collected : Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw"
	sed -n 's/^==[0-9]*== Collected : //p' "$tmp/log" | tail -n 1 |
		awk 'NF == 9 { print $1, $4 + $5 + $6, $7 + $8 + $9 }' >"$out"
	[ -s "$out" ] || die "no callgrind summary from $*"
}

# row NAME UNIT FILE [FILE0 DIVISOR]: print the three figures of FILE, or
# of FILE minus FILE0 divided by DIVISOR.
row() {
	if grep -q skip "$3" || { [ $# -gt 3 ] && grep -q skip "$4"; }; then
		for m in instructions "D1 misses" "LL misses"; do
			echo "$1 $m/$2: n/a"
		done
		return
	fi
	if [ $# -gt 3 ]; then
		paste "$3" "$4"
	else
		paste "$3" "$3" | awk '{ print $1, $2, $3, 0, 0, 0 }'
	fi | awk -v name="$1" -v unit="$2" -v div="${5:-1}" '{
		printf "%s instructions/%s: %.2f\n", name, unit, ($1 - $4) / div
		printf "%s D1 misses/%s: %.2f\n", name, unit, ($2 - $5) / div
		printf "%s LL misses/%s: %.2f\n", name, unit, ($3 - $6) / div
	}'
}

for mode in split packed; do
	flag=
	[ $mode = packed ] && flag=--packed
	grind "$tmp/lo" --toggle-collect=main $NOPRINT -- ./vring_bench $flag $LO
	grind "$tmp/hi" --toggle-collect=main $NOPRINT -- ./vring_bench $flag $HI
	row "vring_bench $mode" add "$tmp/hi" "$tmp/lo" $((HI - LO))
done

# The measured region: run_single() when it is a function of its own, else
# main(); inside it, the ring set-up and teardown of each scenario are
# toggled out (fixture_setup/fixture_teardown, or st_setup/st_teardown in
# older trees).  All must be functions of their own, not inlined.
command -v nm >/dev/null 2>&1 || die "nm is missing (Debian: binutils)"
nm "$B/vringh_test" | awk '$2 ~ /^[tT]$/ { print $3 }' >"$tmp/syms"
has() { grep -qx "$1" "$tmp/syms"; }
region=main
has run_single && region=run_single
if has fixture_setup && has fixture_teardown; then
	setup=fixture_setup teardown=fixture_teardown
elif has st_setup && has st_teardown; then
	setup=st_setup teardown=st_teardown
else
	die "$B/vringh_test has no fixture_setup/fixture_teardown functions" \
		"(inlined?): its ring set-up would be counted"
fi
for mode in split packed; do
	flag=
	[ $mode = packed ] && flag=--packed
	grind "$tmp/st" --toggle-collect=$region --toggle-collect=$setup \
		--toggle-collect=$teardown -- \
		./vringh_test --indirect --eventidx $flag
	row "vringh_test $mode" run "$tmp/st"
done
