#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the libFuzzer targets built in BUILD_DIR/fuzz/ (make fuzz-build).
#
#   fuzz/run.sh --list                    the targets, one a line
#   fuzz/run.sh --cc-ok [CC]              exit 0 if CC (default $FUZZ_CC,
#                                         or clang) links libFuzzer programs
#   fuzz/run.sh --check BUILD_DIR TARGET  replay the seed corpus and the
#                                         regression inputs, then fuzz from a
#                                         fixed seed for FUZZ_CHECK_RUNS runs
#                                         (default 100000) or FUZZ_CHECK_CPU
#                                         seconds of CPU time (default 30),
#                                         whichever comes first, and say which
#   fuzz/run.sh --seconds N BUILD_DIR [TARGET...]
#                                         fuzz each target for N seconds,
#                                         growing BUILD_DIR/corpus/TARGET
#
# Nothing is written into the source tree: new inputs go to a scratch or
# BUILD_DIR corpus, and a finding is kept as BUILD_DIR/findings/TARGET-*
# (add it to fuzz/regress/TARGET/ once the bug is fixed).
#
# A target that is not built because there is no clang with libFuzzer is
# a SKIP for --check (exit 77, the reason naming the Debian package): a
# gcc-only machine runs make check without it.  Not built although clang
# links libFuzzer programs is a FAIL: the build broke.
set -u
cd "$(dirname "$0")/.." || exit 1
TARGETS="fuzz_vringh fuzz_virtqueue fuzz_vhost_user"
# Ring code that prints a message for every refusal must not fill the
# disk or the log: the targets count messages instead (FUZZ_VERBOSE=1).
# libFuzzer's own exit status for a finding is 77, which make check reads
# as a SKIP: a finding must fail.
COMMON=(-rss_limit_mb=4096 -timeout=60 -print_final_stats=1 -error_exitcode=1)

usage() {
	sed -n '4,21p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

# Does $1 (a C compiler) link a libFuzzer program?
cc_ok() {
	printf 'int LLVMFuzzerTestOneInput(const char *d, long n) { return 0; }\n' |
		$1 -fsanitize=fuzzer -x c -o /dev/null - >/dev/null 2>&1
}

# binary BUILD_DIR TARGET: the target's path; not built, exit 77 when
# there is no clang with libFuzzer to build it, else 1.
binary() {
	local b=$1/fuzz/$2 cc=${FUZZ_CC:-clang}
	[ -x "$b" ] && { echo "$b"; return 0; }
	if ! cc_ok "$cc"; then
		echo "$2: not built: no $cc with libFuzzer" \
		     "(Debian: apt-get install clang libclang-rt-14-dev)"
		return 77
	fi
	echo "$b is not built, though $cc links libFuzzer programs:" \
	     "see make fuzz-build's errors" >&2
	return 1
}

case ${1:-} in
--list)
	printf '%s\n' $TARGETS
	;;
--cc-ok)
	[ $# -le 2 ] || usage
	cc_ok "${2:-${FUZZ_CC:-clang}}"
	;;
--check)
	[ $# -eq 3 ] || usage
	bin=$(binary "$2" "$3")
	rc=$?
	[ $rc -eq 0 ] || { [ $rc -ne 77 ] || echo "$bin"; exit $rc; }
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
	# Then fuzzing from a fixed seed, bounded by its progress (runs) or by
	# the CPU time it was given, never by the clock: a loaded machine
	# gives it less CPU a second, not less CPU.  SIGUSR1 makes libFuzzer
	# finish the input it is on and stop, as if its runs were done.
	runs=${FUZZ_CHECK_RUNS:-100000} cpu=${FUZZ_CHECK_CPU:-30}
	"$bin" "${COMMON[@]}" -seed=1 -runs="$runs" -handle_usr1=1 \
		-artifact_prefix="$2/findings/$t-" \
		"$scratch" "${dirs[@]}" >"$scratch/fuzz.log" 2>&1 &
	pid=$! why="$runs runs"
	hz=$(getconf CLK_TCK)
	while kill -0 "$pid" 2>/dev/null; do
		# utime and stime, fields 14 and 15 of /proc/PID/stat (11 and 12
		# after the name in parentheses).
		st=$(cat "/proc/$pid/stat" 2>/dev/null) || break
		read -ra st <<<"${st##*) }"
		if [ $(((st[11] + st[12]) / hz)) -ge "$cpu" ]; then
			why="$cpu CPU seconds"
			kill -USR1 "$pid"
			break
		fi
		sleep 0.5
	done
	wait "$pid"
	rc=$?
	tail -n 40 "$scratch/fuzz.log" >&2
	n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$scratch/fuzz.log")
	echo "$t: ${n:-?} inputs run, stopped by $why (FUZZ_CHECK_RUNS=$runs, FUZZ_CHECK_CPU=$cpu)"
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
		bin=$(binary "$dir" "$t") || { [ -z "$bin" ] || echo "$bin" >&2; exit 1; }
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
