#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/spdx.sh: COPYING exists, and every source file and script (*.c,
# *.h, *.sh, *.mk, *.awk, *.py, Makefile, and the scripts without .sh)
# has the kernel's SPDX line, "SPDX-License-Identifier: LICENSE", as its
# first line, or its second after a #! line.  Prints each file without
# one; exit 1 if any.
set -u
cd "$(dirname "$0")/.." || exit 2
. shlib/scripts.sh
bad=0
if [ ! -s COPYING ]; then
	echo "no COPYING at the top of the tree"
	bad=1
fi
mapfile -t files < <({
	tree_files | grep -E '\.(c|h|sh|mk|awk|py)$|(^|/)Makefile$'
	shell_scripts
} | LC_ALL=C sort -u)
[ ${#files[@]} -gt 0 ] || { echo "no source file found"; exit 1; }
# One awk for all: the line that must hold it is the first, or the second
# after a #! line.
awk 'FNR == 1 && /^#!/ { next }
     FNR <= 2 { if (/SPDX-License-Identifier: [A-Za-z0-9.+-]+/) ok[FILENAME] = 1; nextfile }
     END {
	for (i = 1; i < ARGC; i++)
		if (!(ARGV[i] in ok)) { print ARGV[i] ": no SPDX-License-Identifier line at its top"; bad = 1 }
	exit bad
     }' "${files[@]}" || bad=1
[ "$bad" -eq 0 ] && echo "COPYING, and an SPDX line in all ${#files[@]} sources and scripts"
exit "$bad"
