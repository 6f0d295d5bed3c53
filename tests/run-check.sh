#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The `make check` matrix.  Every check prints one line, PASS: / FAIL: /
# SKIP: name: reason, and the run ends with "N passed, N failed, N skipped".
# Exit status is non-zero if anything failed.
#
# Usage: tests/run-check.sh [BUILD_DIR]   (default: the top-level build)
set -u
cd "$(dirname "$0")/.."
B=${1:-.}
TIMEOUT=${CHECK_TIMEOUT:-300}
PARALLEL_XFERS=${PARALLEL_XFERS:-200000}
LOG=$(mktemp -d "${TMPDIR:-/tmp}/rig-check.XXXXXX")
trap 'rm -rf "$LOG"' EXIT
passed=0 failed=0 skipped=0

pass() { echo "PASS: $1"; passed=$((passed + 1)); }
fail() { echo "FAIL: $1"; failed=$((failed + 1)); }
skip() { echo "SKIP: $1: $2"; skipped=$((skipped + 1)); }

# run NAME EXPECTED_STATUS CMD...: the command must exit with that status.
run() {
	local name=$1 want=$2 rc
	shift 2
	timeout "$TIMEOUT" "$@" >"$LOG/out" 2>"$LOG/err"
	rc=$?
	if [ "$rc" -eq "$want" ]; then
		pass "$name"
	else
		fail "$name"
		echo "  command: $* (exit $rc, wanted $want)" >&2
		tail -n 20 "$LOG/err" >&2
	fi
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
			if [ $? -eq 1 ] && grep -q '^virtio_test: queue broken: ' "$LOG/err"; then
				pass "$name"
			else
				fail "$name"
				tail -n 5 "$LOG/err" >&2
			fi
		done
	done
	for o in --bogus --batch=0 --batch=x --buf-num=-1 --buf-num=0 --reset=0 \
		 --device-bug=x stray; do
		"$B/virtio_test" "$o" >"$LOG/out" 2>"$LOG/err"
		if [ $? -eq 1 ] && grep -q '^Usage: virtio_test' "$LOG/err" && [ ! -s "$LOG/out" ]; then
			pass "usage error: virtio_test $o"
		else
			fail "usage error: virtio_test $o"
		fi
	done
	if "$B/virtio_test" --help >"$LOG/out" 2>&1 && grep -q '^Usage: virtio_test' "$LOG/out"; then
		pass "virtio_test --help"
	else
		fail "virtio_test --help"
	fi
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
		prog=${args%% *}
		# shellcheck disable=SC2086
		"$B/$prog" ${args#* } >"$LOG/out" 2>"$LOG/err"
		if [ $? -eq 1 ] && grep -q '^Usage:' "$LOG/err" && [ ! -s "$LOG/out" ]; then
			pass "usage error: $args"
		else
			fail "usage error: $args"
		fi
	done
	if "$B/vringh_test" --help >"$LOG/out" 2>&1 && grep -q '^Usage:' "$LOG/out"; then
		pass "vringh_test --help"
	else
		fail "vringh_test --help"
	fi
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

valgrind_single() {
	local o
	if ! command -v valgrind >/dev/null; then
		skip "valgrind single-threaded modes" "valgrind is not installed"
		return
	fi
	for o in "" "--indirect --eventidx --virtio-1" "--indirect --slow-range"; do
		# shellcheck disable=SC2086
		run "valgrind vringh_test $o" 0 valgrind -q --error-exitcode=99 \
			--leak-check=full --errors-for-leak-kinds=definite,indirect,possible \
			"$B/vringh_test" $o
	done
}

vringh_test_matrix
virtio_test_matrix
vringh_test_output
usage_errors
hostile
[ -x tests/stats/run.sh ] && [ -x "$B/stats" ] && suite tests/stats/run.sh "$B/stats"
[ -x tests/bench/run.sh ] && suite tests/bench/run.sh "$B"
valgrind_single

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
