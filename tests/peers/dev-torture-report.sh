#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The device torture's report tables, as tests/README shows them: one row
# per vhost_dev --torture case, one column per driver and ring, each cell
# the outcome tests/peers/dev-torture.table records (a letter each:
# Detected, Accepted, Hung, Tolerated, Crashed; n "never done", the case
# cannot be made against that driver; . the case does not apply).  rig and
# kernel (vhost_user_frontend) show blk's outcome, "blk/net" where the two
# differ. The second table sets the Linux guests side by side: 6.1 ("guest") and
# 7.3 ("guest7.3").  make check compares tests/README with this output.
#
# Usage: tests/peers/dev-torture-report.sh
set -u
cd "$(dirname "$0")/../.." || exit 1
# The table's path; RECORD=1: no KTAP header, the report is the tables alone.
RECORD=1 . tests/lib/dev-torture.sh
awk '
function code(o,   n, i, a, s) {
	n = split(o, a, "|")
	s = ""
	for (i = 1; i <= n; i++)
		s = s (a[i] == "not-done" ? "n" : toupper(substr(a[i], 1, 1)))
	return s
}
function cell(d, c, v, r,   k) {
	k = d SUBSEP c SUBSEP v SUBSEP r
	return k in out ? code(out[k]) : "."
}
function both(d, c, r,   b, n) {
	b = cell(d, c, "blk", r)
	n = cell(d, c, "net", r)
	if (b == ".")
		return n
	return (n == "." || n == b) ? b : b "/" n
}
/^#/ || NF < 5 { next }
{
	out[$1, $2, $3, $4] = $5
	if (!($2 in seen)) {
		seen[$2] = 1
		cases[++ncases] = $2
	}
}
END {
	printf "  %-17s %-11s %-11s %-11s %-11s %-11s\n", "case", "rig", "kernel",
		"guest blk", "guest net", "dpdk"
	printf "  %-17s %-5s %-5s %-5s %-5s %-5s %-5s %-5s %-5s %-5s %s\n", "",
		"split", "pack", "split", "pack", "split", "pack", "split", "pack",
		"split", "pack"
	for (i = 1; i <= ncases; i++) {
		c = cases[i]
		printf "  %-17s %-5s %-5s %-5s %-5s %-5s %-5s %-5s %-5s %-5s %s\n", c,
			both("rig", c, "split"), both("rig", c, "packed"),
			both("kernel", c, "split"), both("kernel", c, "packed"),
			cell("guest", c, "blk", "split"), cell("guest", c, "blk", "packed"),
			cell("guest", c, "net", "split"), cell("guest", c, "net", "packed"),
			cell("dpdk", c, "net", "split"), cell("dpdk", c, "net", "packed")
	}
	print ""
	printf "  %-17s %-23s %s\n", "case", "Linux 6.1 guest", "Linux 7.3 guest"
	printf "  %-17s %-11s %-11s %-11s %s\n", "", "blk", "net", "blk", "net"
	printf "  %-17s %-5s %-5s %-5s %-5s %-5s %-5s %-5s %s\n", "",
		"split", "pack", "split", "pack", "split", "pack", "split", "pack"
	for (i = 1; i <= ncases; i++) {
		c = cases[i]
		printf "  %-17s %-5s %-5s %-5s %-5s %-5s %-5s %-5s %s\n", c,
			cell("guest", c, "blk", "split"), cell("guest", c, "blk", "packed"),
			cell("guest", c, "net", "split"), cell("guest", c, "net", "packed"),
			cell("guest7.3", c, "blk", "split"), cell("guest7.3", c, "blk", "packed"),
			cell("guest7.3", c, "net", "split"), cell("guest7.3", c, "net", "packed")
	}
}' "$TORTURE_TABLE" | sed 's/ *$//'
