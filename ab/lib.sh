# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2034,SC2154 # sets its callers' variables, reads their $here
#
# Shell helpers of the measuring scripts, sourced (. "$here/lib.sh").
#
# The option checks call the script's own usage MESSAGE, which exits 2.
#   set_pairs VALUE     -n: pairs=VALUE, 0 or at least 3
#   set_adds VALUE      -x: adds=VALUE, a positive number
#   set_pairing VALUE   -p: pairing=VALUE, one of the three kernel pairings
#
# CACHES, NOPRINT: the options of every callgrind count.  The simulated
# caches, fixed so that the counts do not depend on the machine (valgrind
# would otherwise copy the host's): 32 KiB 8-way L1s and an 8 MiB 16-way
# last level, 64-byte lines.  printf toggled out: how long it takes to
# print the time a run took depends on its digits (a few instructions per
# digit).
#
# grind_setup NAME DIR...: for a script that runs each DIR's vring_bench
# and vringh_test (or the programs GRIND_PROGS names) under valgrind: a
# private $tmp (removed on exit), die() (exit 1 with "NAME: MESSAGE"),
# $VALGRIND, and the programs built in each DIR.

CACHES="--I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64"
NOPRINT="--toggle-collect=printf --toggle-collect=__printf_chk"

set_pairs() {
	case $1 in
	'' | *[!0-9]*) usage "-n: '$1' is not a whole number" ;;
	esac
	pairs=$1
	[ "$pairs" -eq 0 ] || [ "$pairs" -ge 3 ] ||
		usage "-n: $pairs pairs are too few (0, or at least 3)"
}

set_adds() {
	case $1 in
	'' | 0* | *[!0-9]*) usage "-x: '$1' is not a positive number" ;;
	esac
	adds=$1
}

set_pairing() {
	case $1 in
	kernel/kernel | kernel/rig | rig/kernel) pairing=$1 ;;
	rig/rig) usage "-p rig/rig measures no kernel code: leave KSRC out" ;;
	*) usage "-p: '$1' is not GUEST/HOST (kernel/kernel, kernel/rig, rig/kernel)" ;;
	esac
}

grind_setup() {
	DIE_PREFIX=$1 DIE_STATUS=1
	. "$here/../shlib/die.sh"
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/vring-$1.XXXXXX") || exit 1
	trap 'rm -rf "$tmp"' EXIT
	. "$here/../shlib/signals.sh"
	VALGRIND=$(command -v valgrind) ||
		die "valgrind is not installed (Debian: apt-get install valgrind)"
	local d p
	shift
	for d in "$@"; do
		for p in ${GRIND_PROGS:-vring_bench vringh_test}; do
			[ -x "$d/$p" ] || die "$d/$p is not built (make $p)"
		done
	done
}
