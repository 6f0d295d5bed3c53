#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run CMD as a gcc-only machine would: PATH holds every command of this
# PATH but clang's (clang, clang-14, clang++ ...), and FUZZ_CC is unset.
# make check shows so that a missing clang is a SKIP, not a FAIL.
#
# Usage: tests/without-clang.sh CMD [ARG...]
set -u
[ $# -gt 0 ] || { echo "usage: tests/without-clang.sh CMD [ARG...]" >&2; exit 2; }
bin=$(mktemp -d "${TMPDIR:-/tmp}/without-clang.XXXXXX") || exit 2
trap 'rm -rf "$bin"' EXIT
IFS=: read -ra dirs <<<"$PATH"
for d in "${dirs[@]}"; do
	[ -d "$d" ] || continue
	cmds=()
	for f in "$d"/*; do
		case ${f##*/} in clang*) continue ;; esac
		[ -x "$f" ] && [ ! -e "$bin/${f##*/}" ] && cmds+=("$f")
	done
	[ ${#cmds[@]} -eq 0 ] || ln -s -t "$bin" "${cmds[@]}" 2>/dev/null
done
PATH=$bin env -u FUZZ_CC "$@"
