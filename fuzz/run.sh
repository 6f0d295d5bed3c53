#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the libFuzzer targets built in BUILD_DIR/fuzz/ (make fuzz-build).
#
#   fuzz/run.sh --list                    the targets, one a line
#   fuzz/run.sh --check BUILD_DIR TARGET  replay the seed corpus and the
#                                         regression inputs, then a fixed
#                                         number of runs from a fixed seed
#                                         (FUZZ_CHECK_RUNS, default 200000)
#   fuzz/run.sh --seconds N BUILD_DIR [TARGET...]
#                                         fuzz each target for N seconds,
#                                         growing BUILD_DIR/corpus/TARGET
#
# Nothing is written into the source tree: new inputs go to a scratch or
# BUILD_DIR corpus, and a finding is kept as BUILD_DIR/findings/TARGET-*
# (add it to fuzz/regress/TARGET/ once the bug is fixed).
set -u
cd "$(dirname "$0")/.."
TARGETS="fuzz_vringh fuzz_virtqueue fuzz_vhost_user"
# Ring code that prints a message for every refusal must not fill the
# disk or the log: the targets count messages instead (FUZZ_VERBOSE=1).
# libFuzzer's own exit status for a finding is 77, which make check reads
# as a SKIP: a finding must fail.
COMMON=(-rss_limit_mb=4096 -timeout=60 -print_final_stats=1 -error_exitcode=1)

usage() {
	sed -n '4,17p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

binary() {
	local b=$1/fuzz/$2
	if [ ! -x "$b" ]; then
		echo "$b is not built: make fuzz-build needs clang with libFuzzer" \
		     "(Debian: apt-get install clang libclang-rt-14-dev)" >&2
		exit 1
	fi
	echo "$b"
}

case ${1:-} in
--list)
	printf '%s\n' $TARGETS
	;;
--check)
	[ $# -eq 3 ] || usage
	bin=$(binary "$2" "$3") || exit 1
	t=$3
	scratch=$(mktemp -d "${TMPDIR:-/tmp}/fuzz-check.XXXXXX")
	trap 'rm -rf "$scratch"' EXIT
	mkdir -p "$2/findings"
	dirs=("fuzz/corpus/$t")
	[ -d "fuzz/regress/$t" ] && dirs+=("fuzz/regress/$t")
	# Replay: every seed and regression input once, no mutation.
	"$bin" "${COMMON[@]}" -runs=0 "${dirs[@]}" >"$scratch/replay.log" 2>&1
	rc=$?
	if [ $rc -ne 0 ]; then
		cat "$scratch/replay.log" >&2
		echo "$t: corpus replay failed (exit $rc)" >&2
		exit 1
	fi
	# Then a fixed amount of fuzzing from a fixed seed: deterministic.
	"$bin" "${COMMON[@]}" -seed=1 -runs="${FUZZ_CHECK_RUNS:-200000}" \
		-artifact_prefix="$2/findings/$t-" \
		"$scratch" "${dirs[@]}" >"$scratch/fuzz.log" 2>&1
	rc=$?
	tail -n 40 "$scratch/fuzz.log" >&2
	exit $rc
	;;
--seconds)
	[ $# -ge 3 ] || usage
	secs=$2
	dir=$3
	shift 3
	[ $# -gt 0 ] || set -- $TARGETS
	status=0
	for t; do
		bin=$(binary "$dir" "$t") || exit 1
		mkdir -p "$dir/corpus/$t" "$dir/findings"
		dirs=("$dir/corpus/$t" "fuzz/corpus/$t")
		[ -d "fuzz/regress/$t" ] && dirs+=("fuzz/regress/$t")
		echo "== $t: $secs s"
		"$bin" "${COMMON[@]}" -max_total_time="$secs" \
			-artifact_prefix="$dir/findings/$t-" "${dirs[@]}" \
			2>&1 | grep -v '^#[0-9]*[[:space:]]*\(NEW\|REDUCE\|pulse\)' || true
		rc=${PIPESTATUS[0]}
		if [ "$rc" -ne 0 ]; then
			echo "$t: FINDING (exit $rc), input in $dir/findings/" >&2
			status=1
		fi
	done
	exit $status
	;;
*)
	usage
	;;
esac
