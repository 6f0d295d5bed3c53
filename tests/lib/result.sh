# SPDX-License-Identifier: GPL-2.0
#
# The lines a check suite prints, as tests/lib/ktap.sh reads them; each
# NAME goes after $CHECK_PREFIX (default empty).
#   pass NAME
#   fail NAME [DETAIL...]   each DETAIL on a line of its own below, indented
#                           two spaces; sets failed=1
#   skip NAME REASON

pass() { echo "PASS: ${CHECK_PREFIX:-}$1"; }

fail() {
	echo "FAIL: ${CHECK_PREFIX:-}$1"
	shift
	[ $# -eq 0 ] || printf '  %s\n' "$@"
	failed=1
}

skip() { echo "SKIP: ${CHECK_PREFIX:-}$1: $2"; }
