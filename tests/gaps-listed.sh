#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/gaps-listed.sh BUILD_DIR: kernel/GAPS lists every kernel gap the
# case programs of BUILD_DIR name (PROG --gaps), each on a line of its
# own.  Prints each gap missing from it; exit 1 if any is.
set -u
b=${1:?usage: tests/gaps-listed.sh BUILD_DIR}
top=$(cd "$(dirname "$0")/.." && pwd)
missing=0 n=0
for p in hostile allocfail dma vhost_core_hostile resize iotlb mockdev edges; do
	[ -x "$b/tests/$p" ] || continue
	while IFS=$'\t' read -r c gap; do
		n=$((n + 1))
		grep -qxF -- "$gap" "$top/kernel/GAPS" && continue
		echo "kernel/GAPS lacks the gap of $p $c: $gap"
		missing=1
	done < <("$b/tests/$p" --gaps)
done
[ "$n" -gt 0 ] || { echo "no case program of $b names a gap"; exit 1; }
[ "$missing" -eq 0 ] && echo "kernel/GAPS lists all $n cases' gaps"
exit "$missing"
