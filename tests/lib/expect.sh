#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One check of a program's behaviour, as KTAP (tests/lib/result.sh): make
# check's runner (tests/lib/ktap.sh) runs one of these a check it declares
# with expect, and collects its result.
#
# Usage: tests/lib/expect.sh NAME STATUS [TEST...] -- CMD [ARG...]
# CMD, run under timeout (EXPECT_TIMEOUT seconds, default 300), must exit
# with STATUS and pass every TEST:
#   out=ERE                a line of stdout matches ERE
#   out-empty              stdout is empty
#   out-lines=N            stdout is N lines long
#   out-last=TEXT          the last line of stdout is TEXT
#   out-like=FILE          stdout is what FILE shows (see like)
#   out-note=ERE           a line of stdout matches ERE, and the result
#                          shows the first such line (what it did: a fuzz
#                          run's inputs and what stopped it)
#   err=ERE, err-empty ... the same of stderr
# Prints "ok 1 - NAME", or "not ok 1 - NAME" after diagnostics with the
# command, what was wrong and the end of its output.  The rig's programs
# exit 77 for a SKIP (the ring code under test lacks the feature, their
# first line of output says why) and 78 for a known gap of a kernel
# tree's code (a "PROG: known gap: REASON" line): unless STATUS is that
# status, "ok 1 - NAME # SKIP why" and "not ok 1 - NAME # TODO REASON".
# A pass with a "PROG: gap gone: ..." line says so in a diagnostic.
# CMD's output goes to cmd.out and cmd.err in EXPECT_DIR (the runner's
# folder for the check), else in a folder of its own.
set -u
[ $# -ge 3 ] || { echo "usage: tests/lib/expect.sh NAME STATUS [TEST...] -- CMD [ARG...]" >&2; exit 2; }
W=${EXPECT_DIR:-}
if [ -z "$W" ]; then
	W=$(mktemp -d "${TMPDIR:-/tmp}/rig-expect.XXXXXX") || exit 2
	trap 'rm -rf "$W"' EXIT
fi
. "${BASH_SOURCE[0]%/*}/../../shlib/signals.sh"
. "${BASH_SOURCE[0]%/*}/result.sh"

# Lines of text as KTAP diagnostics.
diag() { sed 's/^/# /'; }

# The first line a program printed, stdout first: why it skipped.
first_line() {
	local line
	{ IFS= read -r line <"$W/cmd.out" || IFS= read -r line <"$W/cmd.err"; } && echo "$line"
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

# Does TEST hold for CMD's output?  If not, say why.
holds() {
	local what=${1%%[=-]*} lines
	local f=$W/cmd.$what arg=${1#*=}
	case ${1#"$what"} in
	=*)
		grep -Eq -- "$arg" "$f" || { echo "$what has no line matching '$arg'"; return 1; } ;;
	-empty)
		[ ! -s "$f" ] || { echo "$what is not empty"; return 1; } ;;
	-lines=*)
		mapfile -t lines <"$f"
		[ "${#lines[@]}" -eq "$arg" ] ||
			{ echo "$what is ${#lines[@]} lines long, not $arg"; return 1; } ;;
	-last=*)
		mapfile -t lines <"$f"
		if [ "${#lines[@]}" -eq 0 ] || [ "${lines[-1]}" != "$arg" ]; then
			echo "the last line of $what is not '$arg'"
			return 1
		fi ;;
	-note=*)
		grep -Eq -- "$arg" "$f" || { echo "$what has no line matching '$arg'"; return 1; } ;;
	-like=*)
		like "$f" "$arg" ||
			{ echo "$what is not like $arg (numbers aside, ... any lines):"; cat "$arg"; return 1; } ;;
	*)
		echo "expect.sh: unknown test '$1'"; return 1 ;;
	esac
}

name=$1 want=$2 tests=() why=
shift 2
while [ "$1" != -- ]; do
	tests+=("$1")
	shift
	[ $# -gt 0 ] || { echo "expect.sh: no -- before the command" >&2; exit 2; }
done
shift
timeout "${EXPECT_TIMEOUT:-300}" "$@" >"$W/cmd.out" 2>"$W/cmd.err"
rc=$?
if [ "$rc" -eq 77 ] && [ "$want" -ne 77 ]; then
	skip "$name" "$(first_line)"
	ktap_finished
fi
if [ "$rc" -eq 78 ] && [ "$want" -ne 78 ] &&
   line=$(grep -m1 -E '^[^ :]+: known gap: ' "$W/cmd.out"); then
	{ echo "command: $*"; tail -n 5 "$W/cmd.err"; } | diag
	todo "$name" "${line#*: known gap: }"
	ktap_finished
fi
if [ "$rc" -eq 124 ]; then
	why="timed out after ${EXPECT_TIMEOUT:-300}s"
elif [ "$rc" -ne "$want" ]; then
	why="exit status $rc, wanted $want"
else
	for t in "${tests[@]}"; do
		why=$(holds "$t") || break
		why=
	done
fi
if [ -z "$why" ]; then
	sed -En 's/^[^ :]+: gap gone: /# &/p' "$W/cmd.out"
	for t in "${tests[@]}"; do
		[[ $t == *-note=* ]] && grep -m1 -E -- "${t#*-note=}" "$W/cmd.${t%%-*}" | diag
	done
	pass "$name"
	ktap_finished
fi
{
	echo "command: $*"
	echo "$why"
	tail -n 10 "$W/cmd.out" | sed 's/^/stdout: /'
	tail -n 20 "$W/cmd.err" | sed 's/^/stderr: /'
} | diag
fail "$name"
ktap_finished
