#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The `make check` matrix.  Every check prints one line, PASS: / FAIL: /
# SKIP: name: reason, and the run ends with "N passed, N failed, N skipped".
# Exit status is non-zero if anything failed.
#
# Usage: tests/run-check.sh [BUILD_DIR]   (default: the top-level build)
#        tests/run-check.sh --ksrc BUILD_DIR...   (kernel-tree pairings)
set -u
cd "$(dirname "$0")/.."
B=${1:-.}
TIMEOUT=${CHECK_TIMEOUT:-300}
PARALLEL_XFERS=${PARALLEL_XFERS:-200000}
LOG=$(mktemp -d "${TMPDIR:-/tmp}/rig-check.XXXXXX")
trap 'rm -rf "$LOG"' EXIT
passed=0 failed=0 skipped=0

# PREFIX names the build under test when several are checked (--ksrc).
PREFIX=
pass() { echo "PASS: $PREFIX$1"; passed=$((passed + 1)); }
fail() { echo "FAIL: $PREFIX$1"; failed=$((failed + 1)); }
skip() { echo "SKIP: $PREFIX$1: $2"; skipped=$((skipped + 1)); }

# run NAME EXPECTED_STATUS CMD...: the command must exit with that status.
# Exit 77 is a SKIP: the ring code under test lacks the feature, and the
# program said why on the first line of its output.
run() {
	local name=$1 want=$2 rc
	shift 2
	timeout "$TIMEOUT" "$@" >"$LOG/out" 2>"$LOG/err"
	rc=$?
	if [ "$rc" -eq "$want" ]; then
		pass "$name"
	elif [ "$rc" -eq 77 ]; then
		skip "$name" "$(cat "$LOG/out" "$LOG/err" | head -n 1)"
	else
		fail "$name"
		echo "  command: $* (exit $rc, wanted $want)" >&2
		tail -n 20 "$LOG/err" >&2
	fi
}

# usage_error PROG ARGS...: a usage error, as every program gives it: exit 2,
# nothing on stdout, on stderr one line naming the problem and then
# "try 'PROG --help'".
usage_error() {
	local prog=$1 rc
	shift
	timeout "$TIMEOUT" "$B/$prog" "$@" >"$LOG/out" 2>"$LOG/err"
	rc=$?
	if [ $rc -eq 2 ] && [ ! -s "$LOG/out" ] && [ "$(wc -l <"$LOG/err")" -eq 2 ] &&
	   [ "$(tail -n 1 "$LOG/err")" = "try '$prog --help'" ]; then
		pass "usage error: $prog $*"
	else
		fail "usage error: $prog $* (exit $rc)"
		cat "$LOG/out" "$LOG/err" >&2
	fi
}

# PROG -h and --help: the usage on stdout, exit 0.
help_ok() {
	local prog=$1 o
	for o in -h --help; do
		if timeout "$TIMEOUT" "$B/$prog" $o >"$LOG/out" 2>"$LOG/err" &&
		   grep -q "^Usage: $prog" "$LOG/out" && [ ! -s "$LOG/err" ]; then
			pass "$prog $o"
		else
			fail "$prog $o"
		fi
	done
}

# Count the PASS/FAIL/SKIP lines of a sub-suite into our totals.
suite() {
	local line rc
	"$@" >"$LOG/suite" 2>"$LOG/suite-err"
	rc=$?
	while IFS= read -r line; do
		echo "$line"
		case $line in
		PASS:*) passed=$((passed + 1)) ;;
		FAIL:*) failed=$((failed + 1)) ;;
		SKIP:*) skipped=$((skipped + 1)) ;;
		esac
	done <"$LOG/suite"
	if [ "$rc" -ne 0 ] && ! grep -q '^FAIL:' "$LOG/suite"; then
		fail "$* (exit $rc without a FAIL line)"
	fi
	cat "$LOG/suite-err" >&2
}

# All 16 combinations of the four ring options.
combos() {
	local i s
	for ((i = 0; i < 16; i++)); do
		s=""
		((i & 1)) && s+=" --indirect"
		((i & 2)) && s+=" --eventidx"
		((i & 4)) && s+=" --virtio-1"
		((i & 8)) && s+=" --slow-range"
		echo "${s# }"
	done
}

vringh_test_matrix() {
	local o
	while IFS= read -r o; do
		# shellcheck disable=SC2086
		run "vringh_test $o" 0 "$B/vringh_test" $o
	done < <(combos)
	while IFS= read -r o; do
		# shellcheck disable=SC2086
		run "vringh_test --parallel --xfers=$PARALLEL_XFERS $o" 0 \
			"$B/vringh_test" --parallel --xfers="$PARALLEL_XFERS" $o
	done < <(combos)
	for o in "" "--indirect" "--eventidx" "--indirect --eventidx --virtio-1"; do
		# shellcheck disable=SC2086
		run "vringh_test --parallel --fast-vringh --xfers=$PARALLEL_XFERS $o" 0 \
			"$B/vringh_test" --parallel --fast-vringh --xfers="$PARALLEL_XFERS" $o
	done
}

# virtio_test: option combinations pass; a misbehaving device breaks the
# queue with a message (not a crash or a hang); bad options print usage.
virtio_test_matrix() {
	local n=${VIRTIO_TEST_BUFS:-0x4000} o bug name
	for o in "" "--no-event-idx" "--no-indirect" "--no-virtio-1" \
		 "--delayed-interrupt" "--reset" "--reset=4" "--batch=random" \
		 "--batch=random --reset" "--batch=random --delayed-interrupt" \
		 "--batch=256 --no-event-idx --reset=4" \
		 "--batch=random --reset --no-event-idx --no-indirect --no-virtio-1 --delayed-interrupt"; do
		# shellcheck disable=SC2086
		run "virtio_test --buf-num=$n${o:+ $o}" 0 "$B/virtio_test" --buf-num="$n" $o
	done
	for bug in wrong-id long-len; do
		for o in "" "--batch=random --reset"; do
			name="virtio_test --device-bug=$bug${o:+ $o}"
			# shellcheck disable=SC2086
			timeout "$TIMEOUT" "$B/virtio_test" --buf-num="$n" --device-bug=$bug $o \
				>"$LOG/out" 2>"$LOG/err"
			if [ $? -eq 3 ] && grep -q '^virtio_test: queue broken: ' "$LOG/err"; then
				pass "$name"
			else
				fail "$name"
				tail -n 5 "$LOG/err" >&2
			fi
		done
	done
	for o in --bogus --batch=0 --batch=x --buf-num=-1 --buf-num=0 --reset=0 \
		 --device-bug=x stray; do
		usage_error virtio_test "$o"
	done
	help_ok virtio_test
}

# The parallel run prints exactly its three lines.
vringh_test_output() {
	local name="vringh_test --parallel output lines"
	if "$B/vringh_test" --indirect --eventidx --parallel --xfers=100000 >"$LOG/out" 2>"$LOG/err" &&
	   [ "$(wc -l <"$LOG/out")" -eq 3 ] &&
	   grep -Eq '^Using CPUS [0-9]+ and [0-9]+$|^Using CPU [0-9]+ only' "$LOG/out" &&
	   grep -Eq '^Guest: notified [0-9]+, pinged [0-9]+$' "$LOG/out" &&
	   grep -Eq '^Host: notified [0-9]+, pinged [0-9]+$' "$LOG/out"; then
		pass "$name"
	else
		fail "$name"
		cat "$LOG/out" "$LOG/err" >&2
	fi
}

# A bad option prints usage on stderr and exits 1.
usage_errors() {
	local prog args
	for args in "vringh_test --bogus" "vringh_test --fast-vringh" \
		    "vringh_test --parallel --xfers=0" "vringh_test --parallel --xfers=12x" \
		    "vringh_test stray"; do
		# shellcheck disable=SC2086
		usage_error $args
	done
	help_ok vringh_test
	for args in "vhost_dev --bogus" "vhost_dev --type=blk" "vhost_dev --type=disk --socket=s" \
		    "vhost_dev --type=blk --socket=s" "vhost_dev --type=blk --socket=s --size=1000" \
		    "vhost_dev --type=net --socket=s --frames=5" "vhost_dev --type=net --socket=s --net=x" \
		    "vhost_dev --type=blk --socket=s --size=4096 --conns=0" "vhost_dev --socket"; do
		# shellcheck disable=SC2086
		usage_error $args
	done
	help_ok vhost_dev
}

# Every program's command line, as a new user meets it (issue 12's rows).
cli_rows() {
	local rc
	help_ok vring_bench
	usage_error vring_bench 0
	usage_error vring_bench 18446744073709551615
	usage_error vring_bench --ring-size 100
	usage_error vring_bench --bogus
	usage_error vring_bench 1000 stray
	usage_error vring_bench --packed --ring-size 32769
	if grep -q 'a packed ring has 1\.\.32768 entries' "$LOG/err"; then
		pass "vring_bench --packed --ring-size 32769 states the packed rule"
	else
		fail "vring_bench --packed --ring-size 32769 states the packed rule"
	fi
	usage_error vring_bench --cpu 1023
	if grep -q "may run on CPUs $(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)\$" "$LOG/err"; then
		pass "vring_bench --cpu 1023 names the allowed CPUs"
	else
		fail "vring_bench --cpu 1023 names the allowed CPUs"
		cat "$LOG/err" >&2
	fi
	# Decimal, never octal: 010 is ten.
	if timeout "$TIMEOUT" "$B/vring_bench" 010 >"$LOG/out" 2>"$LOG/err" &&
	   [ "$(tail -n 1 "$LOG/out")" = "10 returned" ] && [ ! -s "$LOG/err" ]; then
		pass "vring_bench 010 adds ten buffers, quietly when not on a terminal"
	else
		fail "vring_bench 010 adds ten buffers, quietly when not on a terminal"
	fi
	run "vring_bench --no-eventidx (old spelling of --no-event-idx) 1000" 0 \
		"$B/vring_bench" --no-eventidx 1000
	run "vringh_test --eventidx (old spelling of --event-idx)" 0 \
		"$B/vringh_test" --eventidx
	# Ctrl-C: the figures so far, exit 130.
	"$B/vringh_test" --parallel --xfers=1000000000000 >"$LOG/out" 2>"$LOG/err" &
	sleep 1; kill -INT $!; wait $!; rc=$?
	if [ $rc -eq 130 ] && grep -q '^Interrupted after [0-9]* of 1000000000000 transfers$' "$LOG/out" &&
	   grep -q '^Guest: notified' "$LOG/out" && grep -q '^Host: notified' "$LOG/out"; then
		pass "vringh_test --parallel: Ctrl-C prints the figures so far, exit 130"
	else
		fail "vringh_test --parallel: Ctrl-C prints the figures so far, exit 130 (exit $rc)"
	fi
	"$B/virtio_test" --buf-num=0x10000000000 >"$LOG/out" 2>"$LOG/err" &
	sleep 1; kill -INT $!; wait $!; rc=$?
	if [ $rc -eq 130 ] && grep -q '^virtio_test: interrupted: spurious wakeups: 0x[0-9a-f]* started=0x[0-9a-f]* completed=0x[0-9a-f]* of 0x10000000000$' "$LOG/err"; then
		pass "virtio_test: Ctrl-C prints the figures so far, exit 130"
	else
		fail "virtio_test: Ctrl-C prints the figures so far, exit 130 (exit $rc)"
	fi
	# Progress on stderr, only while it is a terminal (script(1) makes one).
	if ! command -v script >/dev/null; then
		skip "progress on a terminal" "no script(1) (util-linux)"
	elif timeout "$TIMEOUT" script -qec "timeout -s INT 1.5 '$B/virtio_test' --buf-num=0x10000000000" \
		/dev/null >"$LOG/out" 2>&1; grep -q 'virtio_test: 0x[0-9a-f]* of 0x10000000000 buffers' "$LOG/out"; then
		pass "virtio_test: progress on a terminal"
	else
		fail "virtio_test: progress on a terminal"
	fi
	if command -v script >/dev/null &&
	   timeout "$TIMEOUT" script -qec "timeout -s INT 1.5 '$B/vringh_test' --parallel --xfers=1000000000000" \
		/dev/null >"$LOG/out" 2>&1; grep -q 'vringh_test: [0-9]* of 1000000000000 transfers' "$LOG/out" &&
	   grep -q 'Interrupted after [0-9]* of' "$LOG/out"; then
		pass "vringh_test --parallel: progress on a terminal, then Ctrl-C"
	elif command -v script >/dev/null; then
		fail "vringh_test --parallel: progress on a terminal, then Ctrl-C"
	fi
}

# Every "  $ ./PROG ARGS" example in the README, with the indented lines
# after it, is what PROG prints (stdout and stderr): numbers may differ, and
# a "..." line stands for any lines.
readme_examples() {
	local readme n=0 i cmd want got pre post
	readme=$(dirname "$0")/../README
	awk -v dir="$LOG" '
		/^  \$ \.\// { n++; sub(/^  \$ /, ""); print > (dir "/ex" n ".cmd"); ex = 1; next }
		ex && /^  / { sub(/^  /, ""); print > (dir "/ex" n ".want"); next }
		{ ex = 0 }
		END { print n > (dir "/ex.count") }' "$readme"
	n=$(cat "$LOG/ex.count")
	for ((i = 1; i <= n; i++)); do
		cmd=$(cat "$LOG/ex$i.cmd")
		(cd "$B" && timeout "$TIMEOUT" sh -c "$cmd" >"$LOG/ex.got" 2>&1)
		sed -E 's/0x[0-9a-f]+/N/g; s/[0-9]+/N/g' "$LOG/ex$i.want" >"$LOG/ex.want"
		sed -E 's/0x[0-9a-f]+/N/g; s/[0-9]+/N/g' "$LOG/ex.got" >"$LOG/ex.gotn"
		if grep -qx '\.\.\.' "$LOG/ex.want"; then
			pre=$(sed '/^\.\.\.$/,$d' "$LOG/ex.want")
			post=$(sed '1,/^\.\.\.$/d' "$LOG/ex.want")
			[ "$(head -n "$(printf '%s\n' "$pre" | grep -c .)" "$LOG/ex.gotn")" = "$pre" ] &&
			[ "$(tail -n "$(printf '%s\n' "$post" | grep -c .)" "$LOG/ex.gotn")" = "$post" ]
		else
			cmp -s "$LOG/ex.want" "$LOG/ex.gotn"
		fi
		if [ $? -eq 0 ]; then
			pass "README example: $cmd"
		else
			fail "README example: $cmd"
			diff "$LOG/ex$i.want" "$LOG/ex.got" >&2
		fi
	done
}

hostile() {
	local c
	if [ ! -x "$B/tests/hostile" ]; then
		fail "hostile tests: $B/tests/hostile not built"
		return
	fi
	for c in $("$B/tests/hostile" --list); do
		run "hostile $c" 0 "$B/tests/hostile" "$c"
	done
}

# The vhost-user wire layer (tests/vhost_user_wire.c).
vhost_user_wire() {
	local c
	if [ ! -x "$B/tests/vhost_user_wire" ]; then
		fail "vhost-user wire tests: $B/tests/vhost_user_wire not built"
		return
	fi
	for c in $("$B/tests/vhost_user_wire" --list); do
		run "vhost-user wire $c" 0 "$B/tests/vhost_user_wire" "$c"
	done
}

# valgrind as every check runs it: any error or leak fails the run.
VALGRIND=(valgrind -q --error-exitcode=99 --leak-check=full
	  --errors-for-leak-kinds=definite,indirect,possible)

valgrind_single() {
	local o
	if ! command -v valgrind >/dev/null; then
		skip "valgrind single-threaded modes" "valgrind is not installed"
		return
	fi
	for o in "" "--indirect --eventidx --virtio-1" "--indirect --slow-range"; do
		# shellcheck disable=SC2086
		run "valgrind vringh_test $o" 0 "${VALGRIND[@]}" "$B/vringh_test" $o
	done
}

# ---- Hostile rings (issue 6): sanitizer and valgrind modes, allocation-
# failure sweeps, short fuzz runs.  RIG_CHECK_MODE (make check-asan,
# check-ubsan, check-tsan, check-valgrind set it) says how BUILD_DIR was
# built; without it vringh_test --version tells.
check_mode() {
	if [ -n "${RIG_CHECK_MODE:-}" ]; then
		echo "$RIG_CHECK_MODE"
		return
	fi
	case $("$B/vringh_test" --version 2>/dev/null) in
	*-fsanitize=*thread*) echo tsan ;;
	*-fsanitize=*address*) echo asan ;;
	*-fsanitize=*undefined*) echo ubsan ;;
	*) echo plain ;;
	esac
}

# Every allocation of each scenario fails in turn (tests/allocfail.c).
allocfail() {
	local s
	if [ ! -x "$B/tests/allocfail" ]; then
		fail "allocfail: $B/tests/allocfail not built"
		return
	fi
	for s in $("$B/tests/allocfail" --list); do
		run "${1:+$1 }allocfail $s" 0 ${1:+"${VALGRIND[@]}"} \
			"$B/tests/allocfail" "$s"
	done
}

# make check-valgrind: the single-threaded programs and cases, leak-checked.
valgrind_matrix() {
	local o c
	if ! command -v valgrind >/dev/null; then
		fail "valgrind: not installed (apt-get install valgrind)"
		return
	fi
	while IFS= read -r o; do
		# shellcheck disable=SC2086
		run "valgrind vringh_test $o" 0 "${VALGRIND[@]}" "$B/vringh_test" $o
	done < <(combos)
	for c in $("$B/tests/hostile" --list); do
		run "valgrind hostile $c" 0 "${VALGRIND[@]}" "$B/tests/hostile" "$c"
	done
	allocfail valgrind
}

# Each fuzz target replays its corpus, then fuzzes a fixed number of runs
# from a fixed seed (fuzz/run.sh --check); built by the top-level make check.
FUZZ_DIR=${FUZZ_DIR:-build-fuzz}
fuzz_short() {
	local t
	if [ "$B" != . ]; then
		skip "fuzz targets" "the top-level make check runs them"
		return
	fi
	for t in $(fuzz/run.sh --list); do
		if [ ! -x "$FUZZ_DIR/fuzz/$t" ]; then
			fail "fuzz $t: not built: needs clang with libFuzzer (apt-get install clang libclang-rt-14-dev)"
			continue
		fi
		run "fuzz $t: corpus + ${FUZZ_CHECK_RUNS:-200000} runs, seed 1" 0 \
			fuzz/run.sh --check "$FUZZ_DIR" "$t"
	done
}

# ---- Packed rings (issue 7) ----
# A packed ring exists only in virtio 1.x: --packed implies --virtio-1, so
# its matrix is the 8 combinations of the three other ring options.  With
# the kernel's vringh (no packed ring) the programs exit 77: SKIPs.
packed_combos() {
	local i s
	for ((i = 0; i < 8; i++)); do
		s="--packed"
		((i & 1)) && s+=" --indirect"
		((i & 2)) && s+=" --eventidx"
		((i & 4)) && s+=" --slow-range"
		echo "$s"
	done
}

packed_vringh_test_matrix() {
	local o rc
	while IFS= read -r o; do
		# shellcheck disable=SC2086
		run "vringh_test $o" 0 "$B/vringh_test" $o
	done < <(packed_combos)
	while IFS= read -r o; do
		# shellcheck disable=SC2086
		run "vringh_test --parallel --xfers=$PARALLEL_XFERS $o" 0 \
			"$B/vringh_test" --parallel --xfers="$PARALLEL_XFERS" $o
	done < <(packed_combos)
	for o in "" "--indirect" "--eventidx" "--indirect --eventidx"; do
		# shellcheck disable=SC2086
		run "vringh_test --packed --parallel --fast-vringh --xfers=$PARALLEL_XFERS${o:+ $o}" 0 \
			"$B/vringh_test" --packed --parallel --fast-vringh \
			--xfers="$PARALLEL_XFERS" $o
	done
	"$B/vringh_test" --packed --indirect --eventidx --parallel --xfers=100000 \
		>"$LOG/out" 2>"$LOG/err"
	rc=$?
	if [ $rc -eq 77 ]; then
		skip "vringh_test --packed --parallel output lines" "$(head -n 1 "$LOG/out")"
	elif [ $rc -eq 0 ] && [ "$(wc -l <"$LOG/out")" -eq 3 ] &&
	     grep -Eq '^Guest: notified [0-9]+, pinged [0-9]+$' "$LOG/out" &&
	     grep -Eq '^Host: notified [0-9]+, pinged [0-9]+$' "$LOG/out"; then
		pass "vringh_test --packed --parallel output lines"
	else
		fail "vringh_test --packed --parallel output lines"
		cat "$LOG/out" "$LOG/err" >&2
	fi
}

# virtio_test --packed: the option combinations that make sense (virtio-1
# is implied), the misbehaving devices, and the one option it refuses.
packed_virtio_test_matrix() {
	local n=${VIRTIO_TEST_BUFS:-0x4000} o bug name rc
	for o in "" "--no-event-idx" "--no-indirect" "--delayed-interrupt" \
		 "--reset" "--reset=4" "--batch=random" "--batch=random --reset" \
		 "--batch=random --delayed-interrupt" \
		 "--batch=256 --no-event-idx --reset=4" \
		 "--batch=random --reset --no-event-idx --no-indirect --delayed-interrupt"; do
		# shellcheck disable=SC2086
		run "virtio_test --packed --buf-num=$n${o:+ $o}" 0 \
			"$B/virtio_test" --packed --buf-num="$n" $o
	done
	for bug in wrong-id long-len; do
		for o in "" "--batch=random --reset"; do
			name="virtio_test --packed --device-bug=$bug${o:+ $o}"
			# shellcheck disable=SC2086
			timeout "$TIMEOUT" "$B/virtio_test" --packed --buf-num="$n" \
				--device-bug=$bug $o >"$LOG/out" 2>"$LOG/err"
			rc=$?
			if [ $rc -eq 3 ] && grep -q '^virtio_test: queue broken: ' "$LOG/err"; then
				pass "$name"
			elif [ $rc -eq 77 ]; then
				skip "$name" "$(head -n 1 "$LOG/out")"
			else
				fail "$name"
				tail -n 5 "$LOG/err" >&2
			fi
		done
	done
	usage_error virtio_test --packed --no-virtio-1
}

# vring_bench --packed plays a packed device itself: 70000 buffers (more
# than two laps of every ring here), sizes that are no power of 2 too.
packed_vring_bench() {
	local o
	for o in "" "--no-indirect" "--no-eventidx" "--no-indirect --no-eventidx" \
		 "--in" "--in --no-indirect --no-eventidx" "--mixed --no-indirect" \
		 "--ring-size 1 --sg 1" "--ring-size 3 --sg 2 --no-indirect" \
		 "--ring-size 100 --sg 7 --no-indirect --mixed" \
		 "--ring-size 256 --sg 256" "--ring-size 32768 --sg 1"; do
		# shellcheck disable=SC2086
		if "$B/vring_bench" --packed $o 70000 >"$LOG/out" 2>"$LOG/err" &&
		   [ "$(sed -n 2p "$LOG/out")" = "70000 returned" ] && [ ! -s "$LOG/err" ]; then
			pass "vring_bench --packed${o:+ $o} 70000"
		else
			fail "vring_bench --packed${o:+ $o} 70000"
			cat "$LOG/out" "$LOG/err" >&2
		fi
	done
}

# valgrind on the single-threaded packed scenarios: every combination in a
# valgrind build (make check-valgrind), two in a plain one.
packed_valgrind() {
	local o
	if ! command -v valgrind >/dev/null; then
		skip "valgrind vringh_test --packed" "valgrind is not installed"
		return
	fi
	while IFS= read -r o; do
		if [ "$(check_mode)" != valgrind ] &&
		   [ "$o" != "--packed --indirect --eventidx" ] &&
		   [ "$o" != "--packed --slow-range" ]; then
			continue
		fi
		# shellcheck disable=SC2086
		run "valgrind vringh_test $o" 0 "${VALGRIND[@]}" "$B/vringh_test" $o
	done < <(packed_combos)
}

packed_matrix() {
	packed_vringh_test_matrix
	packed_virtio_test_matrix
	packed_vring_bench
}

# ---- IN_ORDER (issue 8) ----
# VIRTIO_F_IN_ORDER on both sides, split and packed: the host returns
# buffers in batches with one used entry each (vringh_complete_batch_*()).
# The hostile cases run in hostile().  A kernel tree's vringh has no
# IN_ORDER and its virtio_ring drops the bit: the programs exit 77, SKIPs.

# Run a check that must exit 0 and whose output must be $2 lines long
# (0: any); 77 is a SKIP with the first line of output as the reason.
in_order_run() {
	local name=$1 lines=$2 rc
	shift 2
	timeout "$TIMEOUT" "$@" >"$LOG/out" 2>"$LOG/err"
	rc=$?
	if [ $rc -eq 77 ]; then
		skip "$name" "$(head -n 1 "$LOG/out")"
	elif [ $rc -eq 0 ] && { [ "$lines" -eq 0 ] ||
				[ "$(wc -l <"$LOG/out")" -eq "$lines" ]; }; then
		pass "$name"
	else
		fail "$name"
		echo "  command: $* (exit $rc)" >&2
		tail -n 20 "$LOG/out" "$LOG/err" >&2
	fi
}

# vringh_test --in-order: every combination of the ring options, split
# (16) and packed (8), single-threaded and --parallel; batches of at most
# 1, 7 and 64 buffers too.
in_order_vringh_test_matrix() {
	local o n
	while IFS= read -r o; do
		# shellcheck disable=SC2086
		in_order_run "vringh_test --in-order${o:+ $o}" 0 \
			"$B/vringh_test" --in-order $o
		# shellcheck disable=SC2086
		in_order_run "vringh_test --in-order --parallel --xfers=$PARALLEL_XFERS${o:+ $o}" 3 \
			"$B/vringh_test" --in-order --parallel --xfers="$PARALLEL_XFERS" $o
	done < <(combos; packed_combos)
	for n in 1 7 64; do
		for o in "--eventidx" "--packed --indirect --eventidx" "--packed --slow-range"; do
			# shellcheck disable=SC2086
			in_order_run "vringh_test --in-order=$n --parallel --xfers=$PARALLEL_XFERS $o" 3 \
				"$B/vringh_test" --in-order=$n --parallel \
				--xfers="$PARALLEL_XFERS" $o
		done
	done
}

# virtio_test --in-order: the device returns batches when the ring is
# empty or it holds N; the driver's rounds are 1, random or 256 buffers.
in_order_virtio_test_matrix() {
	local n=${VIRTIO_TEST_BUFS:-0x4000} p o bug name rc
	for p in "" "--packed"; do
		for o in "" "--batch=random" "--batch=random --reset" \
			 "--batch=random --delayed-interrupt" "--no-event-idx" \
			 "--no-indirect --batch=256 --reset=4" "--in-order=1 --batch=random" \
			 "--in-order=5 --batch=random --reset" \
			 "--batch=random --reset --no-event-idx --no-indirect --delayed-interrupt"; do
			# shellcheck disable=SC2086
			in_order_run "virtio_test --in-order${p:+ $p} --buf-num=$n${o:+ $o}" 0 \
				"$B/virtio_test" --in-order $p --buf-num="$n" $o
		done
		for bug in wrong-id long-len; do
			for o in "" "--batch=random --reset"; do
				name="virtio_test --in-order${p:+ $p} --device-bug=$bug${o:+ $o}"
				# shellcheck disable=SC2086
				timeout "$TIMEOUT" "$B/virtio_test" --in-order $p --buf-num="$n" \
					--device-bug=$bug $o >"$LOG/out" 2>"$LOG/err"
				rc=$?
				if [ $rc -eq 3 ] && grep -q '^virtio_test: queue broken: ' "$LOG/err"; then
					pass "$name"
				elif [ $rc -eq 77 ]; then
					skip "$name" "$(head -n 1 "$LOG/out")"
				else
					fail "$name"
					tail -n 5 "$LOG/err" >&2
				fi
			done
		done
	done
}

# vring_bench --in-order: its device returns every ring-full with one used
# entry; 70000 buffers, split and packed, out, in and mixed buffers.
in_order_vring_bench() {
	local p o rc
	for p in "" "--packed"; do
		for o in "" "--no-indirect" "--no-eventidx" "--in" "--in --no-indirect" \
			 "--mixed --no-eventidx" "--ring-size 1 --sg 1" \
			 "--ring-size 256 --sg 3 --mixed --no-indirect"; do
			name="vring_bench --in-order${p:+ $p}${o:+ $o} 70000"
			# shellcheck disable=SC2086
			"$B/vring_bench" --in-order $p $o 70000 >"$LOG/out" 2>"$LOG/err"
			rc=$?
			if [ $rc -eq 77 ]; then
				skip "$name" "$(head -n 1 "$LOG/out")"
			elif [ $rc -eq 0 ] && [ "$(sed -n 2p "$LOG/out")" = "70000 returned" ] &&
			     [ ! -s "$LOG/err" ]; then
				pass "$name"
			else
				fail "$name"
				cat "$LOG/out" "$LOG/err" >&2
			fi
		done
	done
	# A packed ring of a size that is no power of 2.
	name="vring_bench --in-order --packed --ring-size 100 --sg 7 --no-indirect --mixed 70000"
	"$B/vring_bench" --in-order --packed --ring-size 100 --sg 7 --no-indirect --mixed 70000 \
		>"$LOG/out" 2>"$LOG/err"
	rc=$?
	if [ $rc -eq 77 ]; then
		skip "$name" "$(head -n 1 "$LOG/out")"
	elif [ $rc -eq 0 ] && [ "$(sed -n 2p "$LOG/out")" = "70000 returned" ]; then
		pass "$name"
	else
		fail "$name"
	fi
}

# Options that make no sense print usage on stderr and exit 1.
in_order_usage_errors() {
	local args
	for args in "vringh_test --in-order=0 --parallel" "vringh_test --in-order=x --parallel" \
		    "vringh_test --in-order=257 --parallel" "vringh_test --in-order=4" \
		    "vringh_test --in-order --parallel --fast-vringh" \
		    "virtio_test --in-order=0" "virtio_test --in-order=257"; do
		# shellcheck disable=SC2086
		usage_error $args
	done
}

# valgrind on the single-threaded in-order scenarios: every combination in
# a valgrind build, two in a plain one.
in_order_valgrind() {
	local o
	if ! command -v valgrind >/dev/null; then
		skip "valgrind vringh_test --in-order" "valgrind is not installed"
		return
	fi
	while IFS= read -r o; do
		if [ "$(check_mode)" != valgrind ] &&
		   [ "$o" != "--indirect --eventidx --virtio-1" ] &&
		   [ "$o" != "--packed --slow-range" ]; then
			continue
		fi
		# shellcheck disable=SC2086
		in_order_run "valgrind vringh_test --in-order${o:+ $o}" 0 "${VALGRIND[@]}" \
			"$B/vringh_test" --in-order $o
	done < <(combos; packed_combos)
}

in_order_matrix() {
	in_order_vringh_test_matrix
	in_order_virtio_test_matrix
	in_order_vring_bench
}

# ---- Kernel-tree mode (issue 5): make check KSRC=... ----
# Each BUILD_DIR holds one pairing of ring code (its --version says which:
# guest/host, "kernel" or "rig").  Every pairing gets the vringh_test
# matrix, the virtio_test matrix and the hostile cases; the checks that
# exercise the programs rather than the ring code run once, by default.
ksrc_matrix() {
	local dir v guest host
	for dir; do
		B=$dir
		PREFIX=
		if ! v=$("$B/vringh_test" --version 2>&1); then
			fail "$dir: vringh_test --version"
			continue
		fi
		guest=$(sed -n 's/.*guest ring code: \([^,]*\),.*/\1/p' <<<"$v")
		host=$(sed -n 's/.*host ring code: \([^,]*\)$/\1/p' <<<"$v")
		PREFIX="[$guest/$host] "
		vringh_test_matrix
		vringh_test_output
		virtio_test_matrix
		hostile
		packed_matrix
		in_order_matrix
		allocfail
		# Real drivers on the kernel's vringh: once, in the first
		# pairing whose host side is the kernel's.
		if [ "$host" = kernel ] && [ -z "${peers_done:-}" ]; then
			peers_done=1
			suite "$B/tests/vhost_hostile" "$B/vhost_dev"
			PEER_PREFIX="$PREFIX" suite tests/peers/run.sh "$B"
		fi
		# Our frontend with the kernel's virtio_ring.c against real
		# backends: once, in the first pairing whose guest is the kernel's.
		if [ "$guest" = kernel ] && [ -z "${frontend_done:-}" ]; then
			frontend_done=1
			suite tests/peers/frontend.sh "$B" "$PREFIX"
		fi
	done
	PREFIX=
}

if [ "${1:-}" = --ksrc ]; then
	shift
	ksrc_matrix "$@"
elif [ "$(check_mode)" = valgrind ]; then
	valgrind_matrix
	packed_valgrind
	in_order_valgrind
else
	vringh_test_matrix
	virtio_test_matrix
	vringh_test_output
	usage_errors
	cli_rows
	readme_examples
	hostile
	vhost_user_wire
	suite "$B/tests/vhost_hostile" "$B/vhost_dev"
	suite tests/peers/frontend.sh "$B"
	packed_matrix
	in_order_matrix
	in_order_usage_errors
	suite tests/stats/run.sh "$B/stats"
	suite tests/bench/run.sh "$B"
	if [ "$(check_mode)" = plain ]; then
		valgrind_single
		packed_valgrind
		in_order_valgrind
		allocfail
		fuzz_short
		suite tests/peers/run.sh "$B"
	else
		skip "valgrind single-threaded modes" "not in a $(check_mode) build (make check-valgrind)"
		allocfail
		skip "fuzz targets" "not in a $(check_mode) build (make check)"
		skip "peers (QEMU guest, DPDK)" "not in a $(check_mode) build (make check)"
	fi
fi

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
