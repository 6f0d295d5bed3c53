# SPDX-License-Identifier: GPL-2.0
#
# Judging an expect check (tests/lib/expect.sh says what one is): did a
# command exit with the status wanted, and does its output pass every
# TEST?  Sourced by tests/lib/expect.sh, the check as a program of its
# own, and by the runner (tests/lib/ktap.sh), which runs the command
# itself and judges it in its own shell: no process more a check, where a
# process costs milliseconds and make check KSRC= runs two thousand.
#
# expect_args NAME STATUS [TEST...] -- CMD [ARG...]: set expect_name,
#   expect_want, expect_tests and expect_cmd (arrays); status 2, a usage
#   line on stderr, when the words are not that.
# expect_judge OUT ERR RC: CMD printed files OUT and ERR and exited with
#   RC (124: timed out after EXPECT_TIMEOUT s): print what a reader needs
#   as KTAP diagnostics ("# ..."), and set expect_verdict to pass, fail,
#   skip (exit 77 unless wanted: a SKIP, the program's first line the
#   reason) or todo (exit 78 and a "PROG: known gap: REASON" line), and
#   expect_reason to a SKIP's or TODO's reason.

# shellcheck disable=SC2034 # expect_* are what the sourcing script reads

# Lines of text as KTAP diagnostics.
diag() { sed 's/^/# /'; }

expect_args() {
	[ $# -ge 3 ] || { echo "usage: tests/lib/expect.sh NAME STATUS [TEST...] -- CMD [ARG...]" >&2; return 2; }
	expect_name=$1 expect_want=$2 expect_tests=()
	shift 2
	while [ "$1" != -- ]; do
		expect_tests+=("$1")
		shift
		[ $# -gt 0 ] || { echo "expect.sh: no -- before the command" >&2; return 2; }
	done
	shift
	expect_cmd=("$@")
}

# like GOT WANT: file GOT is what file WANT shows, numbers (decimal, or hex
# after 0x) aside; a "..." line in WANT stands for any lines.
like() {
	local num='s/0x[0-9a-f]+/N/g; s/[0-9]+/N/g' got want head tail
	got=$(sed -E "$num" "$1")
	want=$(sed -E "$num" "$2")
	if ! grep -qx '\.\.\.' <<<"$want"; then
		[ "$got" = "$want" ]
		return
	fi
	head=$(sed '/^\.\.\.$/,$d' <<<"$want")
	tail=$(sed '1,/^\.\.\.$/d' <<<"$want")
	[ "$(head -n "$(grep -c . <<<"$head")" <<<"$got")" = "$head" ] &&
		[ "$(tail -n "$(grep -c . <<<"$tail")" <<<"$got")" = "$tail" ]
}

# holds TEST: does TEST hold for CMD's output?  If not, why says why.
holds() {
	local what=${1%%[=-]*} lines f
	local arg=${1#*=}
	f=$expect_out
	[ "$what" = err ] && f=$expect_err
	case ${1#"$what"} in
	=*)
		grep -Eq -- "$arg" "$f" || { why="$what has no line matching '$arg'"; return 1; } ;;
	-empty)
		[ ! -s "$f" ] || { why="$what is not empty"; return 1; } ;;
	-lines=*)
		mapfile -t lines <"$f"
		[ "${#lines[@]}" -eq "$arg" ] ||
			{ why="$what is ${#lines[@]} lines long, not $arg"; return 1; } ;;
	-last=*)
		mapfile -t lines <"$f"
		if [ "${#lines[@]}" -eq 0 ] || [ "${lines[-1]}" != "$arg" ]; then
			why="the last line of $what is not '$arg'"
			return 1
		fi ;;
	-note=*)
		grep -Eq -- "$arg" "$f" || { why="$what has no line matching '$arg'"; return 1; } ;;
	-like=*)
		like "$f" "$arg" ||
			{ why="$what is not like $arg (numbers aside, ... any lines):"$'\n'"$(<"$arg")"; return 1; } ;;
	*)
		why="expect.sh: unknown test '$1'"; return 1 ;;
	esac
}

expect_judge() {
	local rc=$3 why='' t line
	expect_out=$1 expect_err=$2 expect_reason=
	if [ "$rc" -eq 77 ] && [ "$expect_want" -ne 77 ]; then
		# The first line the program printed, stdout first: why.
		IFS= read -r expect_reason <"$expect_out" ||
			IFS= read -r expect_reason <"$expect_err"
		expect_verdict=skip
		return
	fi
	if [ "$rc" -eq 78 ] && [ "$expect_want" -ne 78 ] &&
	   line=$(grep -m1 -E '^[^ :]+: known gap: ' "$expect_out"); then
		{ echo "command: ${expect_cmd[*]}"; tail -n 5 "$expect_err"; } | diag
		expect_verdict=todo expect_reason=${line#*: known gap: }
		return
	fi
	if [ "$rc" -eq 124 ]; then
		why="timed out after ${EXPECT_TIMEOUT:-300}s"
	elif [ "$rc" -ne "$expect_want" ]; then
		why="exit status $rc, wanted $expect_want"
	else
		for t in "${expect_tests[@]}"; do
			holds "$t" || break
		done
	fi
	if [ -z "$why" ]; then
		[[ -s $expect_out && $(<"$expect_out") == *": gap gone: "* ]] &&
			sed -En 's/^[^ :]+: gap gone: /# &/p' "$expect_out"
		for t in "${expect_tests[@]}"; do
			[[ $t == *-note=* ]] || continue
			if [[ $t == err* ]]; then line=$expect_err; else line=$expect_out; fi
			grep -m1 -E -- "${t#*-note=}" "$line" | diag
		done
		expect_verdict=pass
		return
	fi
	{
		echo "command: ${expect_cmd[*]}"
		echo "$why"
		tail -n 10 "$expect_out" | sed 's/^/stdout: /'
		tail -n 20 "$expect_err" | sed 's/^/stderr: /'
	} | diag
	expect_verdict=fail
}
