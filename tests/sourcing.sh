#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/sourcing.sh: no script outside tests/ sources a file under tests/
# (what scripts share lives in shlib/).  A line sources a file when `.` or
# `source` starts a command there, and names tests/ when the path does
# (tests/lib/..., "$here/../tests/...").  Prints each such line as
# FILE:LINE:TEXT; exit 1 if there is any.
set -u
cd "$(dirname "$0")/.." || exit 2
. shlib/scripts.sh
n=0 bad=0
while IFS= read -r f; do
	case $f in tests/*) continue ;; esac
	n=$((n + 1))
	grep -HnE '(^|[;&|({]|\<(then|do|else))[[:space:]]*(\.|source)[[:space:]]+[^#;&|]*tests/' "$f" |
		grep -vE '^[^:]*:[0-9]+:[[:space:]]*#' && bad=1
done < <(shell_scripts)
[ "$n" -gt 0 ] || { echo "no shell script found outside tests/"; exit 1; }
[ "$bad" -eq 0 ] && echo "$n scripts outside tests/ source nothing under it"
exit "$bad"
