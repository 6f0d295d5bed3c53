# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# shellcheck disable=SC2034 # the variables it sets are its callers'
#
# KTAP from a check script, the kernel's TAP dialect
# (Documentation/dev-tools/ktap.rst), as tests/lib/ktap.sh collects it:
# a sub-suite of make check prints its results itself.  Sourcing this
# prints the version line; then each result is a line of its own, numbered
# in order, its NAME after $CHECK_PREFIX (default empty):
#   pass NAME               ok N - NAME
#   fail NAME [DETAIL...]   not ok N - NAME, each DETAIL below it as a
#                           diagnostic ("#   DETAIL"); sets failed=1
#   skip NAME REASON        ok N - NAME # SKIP REASON
#   todo NAME REASON        not ok N - NAME # TODO REASON (a known gap of
#                           the code under test: neither pass nor fail)
#   verdict NAME NOTE [WHY...]  pass NAME, with "# NAME: NOTE" below it
#                           unless NOTE is empty, if no WHY is given; else
#                           fail NAME with the WHYs as details
#   pass_if NAME            see below
#   ktap_finished           the plan, "1..N" (TAP allows it last: the
#                           count is known only at the end), then exit 1
#                           if a result failed, else 0
# Results counted in a subshell are lost to the plan: call these from the
# script's own shell.

failed=${failed:-0}
ktap_n=0
echo "KTAP version 1"

# ktap_line ok|not\ ok NAME [DIRECTIVE]: the next result line.
ktap_line() {
	ktap_n=$((ktap_n + 1))
	echo "$1 $ktap_n - ${CHECK_PREFIX:-}$2${3:+ # $3}"
}

pass() { ktap_line ok "$1"; }

fail() {
	ktap_line "not ok" "$1"
	shift
	[ $# -eq 0 ] || printf '#   %s\n' "$@"
	failed=1
}

skip() { ktap_line ok "$1" "SKIP $2"; }

todo() { ktap_line "not ok" "$1" "TODO $2"; }

verdict() {
	local name=$1 note=$2

	shift 2
	if [ $# -ne 0 ]; then
		fail "$name" "$@"
		return
	fi
	pass "$name"
	[ -z "$note" ] || echo "# $name: $note"
}

# pass_if NAME: pass NAME if the command just before succeeded, else fail
# NAME and show on stderr what it left in the files $SHOW_ON_FAIL names
# (the last 30 lines of each that is not empty, after "  | ").
pass_if() {
	if [ $? -eq 0 ]; then
		pass "$1"
		return
	fi
	fail "$1"
	for f in ${SHOW_ON_FAIL:-}; do
		[ -s "$f" ] && tail -n 30 "$f" | sed 's/^/  | /' >&2
	done
	return 0
}

ktap_finished() {
	echo "1..$ktap_n"
	exit "$failed"
}
