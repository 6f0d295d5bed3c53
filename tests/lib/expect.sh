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
. "${BASH_SOURCE[0]%/*}/judge.sh"
expect_args "$@" || exit 2
W=${EXPECT_DIR:-}
if [ -z "$W" ]; then
	W=$(mktemp -d "${TMPDIR:-/tmp}/rig-expect.XXXXXX") || exit 2
	trap 'rm -rf "$W"' EXIT
fi
. "${BASH_SOURCE[0]%/*}/../../shlib/signals.sh"
. "${BASH_SOURCE[0]%/*}/result.sh"

timeout "${EXPECT_TIMEOUT:-300}" "${expect_cmd[@]}" >"$W/cmd.out" 2>"$W/cmd.err"
expect_judge "$W/cmd.out" "$W/cmd.err" $?
case $expect_verdict in
pass) pass "$expect_name" ;;
skip) skip "$expect_name" "$expect_reason" ;;
todo) todo "$expect_name" "$expect_reason" ;;
*) fail "$expect_name" ;;
esac
ktap_finished
