#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel/gaps-report.sh NAME=LOG...: what each kernel tree's ring code is
# known not to detect, from the KTAP output of make check KSRC=TREE (LOG)
# of each tree (NAME, e.g. 7.3), as kernel/GAPS lists it: for every gap,
# the cases that show it and, per tree, "gap" (the case's TODO showed),
# "gone" (the case passed: the tree does what the case checks) or "-" (not
# run: a SKIP, or the tree's code lacks the feature).  Cases of the kernel
# pairing (GUEST=kernel HOST=kernel) only: the mixed pairings show the same
# gaps of the same side.
set -eu
[ $# -ge 1 ] || { echo "usage: kernel/gaps-report.sh NAME=LOG..." >&2; exit 2; }
for a in "$@"; do
	name=${a%%=*} log=${a#*=}
	[ -r "$log" ] || { echo "gaps-report: cannot read $log" >&2; exit 1; }
	awk -v tree="$name" '
	# A gap gone: "# PROG: gap gone: ... (known gap was: GAP)" before
	# "ok N - [kernel/kernel] PROG CASE".
	/^# [a-z_]+: gap gone: / {
		g = $0; sub(/.*\(known gap was: /, "", g); sub(/\)$/, "", g); gone = g; next
	}
	/^(not )?ok [0-9]+ - \[kernel\/kernel\] / {
		c = $0; sub(/^(not )?ok [0-9]+ - \[kernel\/kernel\] /, "", c)
		if ($0 ~ / # TODO /) {
			g = c; sub(/.* # TODO /, "", g); sub(/ \([0-9.]+s\)$/, "", g)
			sub(/ # TODO .*/, "", c)
			print g "\t" c "\t" tree "\tgap"
		} else if (gone != "" && c !~ /,/) {
			sub(/ # .*/, "", c)
			print gone "\t" c "\t" tree "\tgone"
		}
		gone = ""
	}' "$log"
done | sort -t '	' -k1,1 -k2,2 | awk -F '\t' -v trees="$*" '
BEGIN {
	n = split(trees, t, " ")
	for (i = 1; i <= n; i++) { sub(/=.*/, "", t[i]); order[t[i]] = i }
}
{
	key = $1 SUBSEP $2
	if (!(key in seen)) { seen[key] = 1; cases[$1] = cases[$1] "\n" $2 }
	state[key, $3] = $4
	if (!($1 in first)) { first[$1] = 1; gaps[++ng] = $1 }
}
END {
	for (k = 1; k <= ng; k++) {
		g = gaps[k]
		printf "%s\n", g
		m = split(substr(cases[g], 2), cs, "\n")
		for (j = 1; j <= m; j++) {
			line = sprintf("  %-52s", cs[j])
			for (i = 1; i <= n; i++) {
				s = state[g SUBSEP cs[j], t[i]]
				line = line sprintf(" %s:%s", t[i], s == "" ? "-" : s)
			}
			print line
		}
		print ""
	}
}'
