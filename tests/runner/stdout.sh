#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check's standard output is KTAP alone, even when it has something
# to build first: `make check | tee check.tap` must give a file a KTAP
# reader takes.  In a copy of the top-level build (sources and objects),
# stats.c and a fuzz target's source are made newer, and make check runs
# one short check there: stdout must start with "KTAP version 1" and hold
# KTAP lines only, and the "  CC ..." lines of the rebuild must be on
# stderr (so that the test sees a build happen); then stats.c again, with
# V=1, whose commands must be on stderr too.
#
# Usage: tests/runner/stdout.sh [BUILD_DIR]   (the top-level build only)
set -u
cd "$(dirname "$0")/../.." || exit 2
top=$(pwd)
B=${1:-.}
# shellcheck disable=SC2034 # tests/lib/result.sh reads it
CHECK_PREFIX=runner/
. tests/lib/result.sh
if [ "$(cd "$B" && pwd)" != "$top" ]; then
	skip "make check stdout" "needs the top-level build, not $B"
	ktap_finished
fi
if [ ! -x ./stats ]; then
	fail "make check stdout"
	echo "runner: ./stats is not built" >&2
	ktap_finished
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rig-stdout.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../../shlib/signals.sh"

# The tree as it is (timestamps kept), without the other builds.
mkdir "$tmp/tree"
tar --exclude=./.git --exclude='./build-*' --exclude=./ksrc -cf - . |
	tar -xf - -C "$tmp/tree" || exit 2
[ -d build-fuzz ] && cp -a build-fuzz "$tmp/tree/"
touch "$tmp/tree/stats.c" "$tmp/tree/fuzz/fuzz_vringh.c"
# A make running us hands its flags on (-s, -j); this make is the user's.
# Then again with V=1 and stats.c newer again: the commands make echoes
# must go to stderr too.
why=
for v in "" V=1; do
	[ -z "$v" ] || touch "$tmp/tree/stats.c"
	# One fuzz check too (one run past its corpus), so that make check
	# rebuilds the fuzz target it needs, whose output must go to stderr.
	MAKEFLAGS='' MAKELEVEL='' FUZZ_CHECK_RUNS=1 make -C "$tmp/tree" --no-print-directory \
		-j2 check $v T='^vring_bench -h$|^fuzz fuzz_vringh: corpus' \
		>"$tmp/out$v" 2>"$tmp/err$v"
	rc=$?
	[ "$rc" -eq 0 ] || why="${why:+$why; }${v:+$v: }exit status $rc"
	[ "$(head -n 1 "$tmp/out$v")" = "KTAP version 1" ] ||
		why="${why:+$why; }${v:+$v: }the first line of stdout is not 'KTAP version 1'"
	if grep -Ev '^(KTAP version 1|1\.\.[0-9]+|(not )?ok [0-9]+ - .*|#.*|  .*|[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped)$' \
		"$tmp/out$v" >"$tmp/bad"; then
		why="${why:+$why; }${v:+$v: }stdout has lines that are not KTAP: $(head -n 3 "$tmp/bad" | tr '\n' '|')"
	fi
done
grep -Eq -- '-o stats(\.o)? ' "$tmp/errV=1" ||
	why="${why:+$why; }V=1: stderr lacks the rebuild's commands (cc ... -o stats)"
grep -Eq '^  CC +stats\.o$' "$tmp/err" ||
	why="${why:+$why; }stderr lacks the rebuild's '  CC stats.o' line"
if grep -q 'cannot build libFuzzer targets' "$tmp/err"; then
	skip "make check stdout with a fuzz build" "clang cannot build libFuzzer targets"
elif ! grep -Eq '^  CC +.*fuzz_vringh\.o$' "$tmp/err"; then
	why="${why:+$why; }stderr lacks the fuzz rebuild's '  CC ...fuzz_vringh.o' line"
fi
if [ -z "$why" ]; then
	pass "make check stdout is KTAP alone"
	ktap_finished
fi
fail "make check stdout is KTAP alone"
echo "runner: $why" >&2
sed 's/^/  stdout | /' "$tmp/out" "$tmp/outV=1" | head -n 20 >&2
sed 's/^/  stderr | /' "$tmp/err" "$tmp/errV=1" | head -n 20 >&2
ktap_finished
