#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/shellcheck.sh (make shellcheck): shellcheck -S warning on every
# shell script of the tree (shlib/scripts.sh), from the top of the tree
# (.shellcheckrc).  Prints each finding as FILE:LINE:COLUMN: and a last
# line saying how many scripts it read; exit 1 on any finding, 77 with a
# SKIP line naming the package when shellcheck is not installed.
set -u
cd "$(dirname "$0")/.." || exit 2
. shlib/scripts.sh
if ! command -v shellcheck >/dev/null; then
	echo "shellcheck: SKIP: shellcheck is not installed (apt-get install shellcheck)"
	exit 77
fi
mapfile -t files < <(shell_scripts)
[ ${#files[@]} -gt 0 ] || { echo "shellcheck: no shell script found"; exit 1; }
if ! shellcheck -S warning -f gcc "${files[@]}"; then
	echo "shellcheck: findings above, in ${#files[@]} scripts"
	exit 1
fi
echo "shellcheck: ${#files[@]} scripts, no warning ($(shellcheck --version | sed -n 's/^version: //p'))"
