# SPDX-License-Identifier: GPL-2.0
#
# The opening of a runner test (tests/runner/*.sh), sourced with the
# test's short name: the top of the tree as the working folder, $tmp a
# private folder removed at exit (rig-NAME.XXXXXX), a signal ending the
# test, and KTAP results named runner/..., a failure showing $tmp/out and
# $tmp/err.
cd "$(dirname "$0")/../.." || exit 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rig-$1.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
. shlib/signals.sh
# shellcheck disable=SC2034 # tests/lib/result.sh reads them
CHECK_PREFIX=runner/ SHOW_ON_FAIL="$tmp/out $tmp/err"
. tests/lib/result.sh
