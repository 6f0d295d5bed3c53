# SPDX-License-Identifier: GPL-2.0
#
# The lines a check suite prints, as tests/lib/ktap.sh reads them; each
# NAME goes after $CHECK_PREFIX (default empty).
#   pass NAME
#   fail NAME [DETAIL...]   each DETAIL on a line of its own below, indented
#                           two spaces; sets failed=1
#   skip NAME REASON
#   verdict NAME NOTE [WHY...]  pass NAME, with "# NAME: NOTE" below it
#                           unless NOTE is empty, if no WHY is given; else
#                           fail NAME with the WHYs as details

pass() { echo "PASS: ${CHECK_PREFIX:-}$1"; }

fail() {
	echo "FAIL: ${CHECK_PREFIX:-}$1"
	shift
	[ $# -eq 0 ] || printf '  %s\n' "$@"
	failed=1
}

skip() { echo "SKIP: ${CHECK_PREFIX:-}$1: $2"; }

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
