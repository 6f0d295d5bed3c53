# SPDX-License-Identifier: GPL-2.0
#
# median: the median of the numbers on stdin (any number of them a line,
# blank-separated).  With an even count it is the mean of the middle two,
# the usual definition (a benchmark's five runs have one middle value).
# No numbers: prints nothing.

median() {
	tr -s ' \t' '\n\n' | grep . | sort -g |
		awk '{ v[NR] = $1 }
		     END { if (NR) printf "%.15g\n", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
