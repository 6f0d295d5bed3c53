# SPDX-License-Identifier: GPL-2.0
#
# The helpers of the short reports (make regress REPORT=short, ab/short.awk;
# make series REPORT=short, ab/series-short.awk), read before them:
#   awk -f ab/short-lib.awk -f REPORT.awk ...
# out() folds a line at 80 columns, path() shortens a path, parse() says
# which call (or whole run) and label a count row is and the command that
# counts it again, num() rounds a count, folded() gives a side's timed
# runs as stats prints them (variables: stats, the stats program; tmp, a
# folder to write in).

BEGIN {
	cwd = ENVIRON["PWD"]
}

# Print s folded at 80 columns: at a space, the rest indented; a command
# ("$ ...") continues with a backslash, never inside a quoted word.
function out(s,   cont, k, ind, j, c, q) {
	cont = s ~ /^ *\$ /
	ind = "      "
	while (length(s) > 80) {
		k = 0; q = 0
		for (j = 1; j <= 78; j++) {
			c = substr(s, j, 1)
			if (cont && c == "'")
				q = !q
			else if (c == " " && !q && j > 20)
				k = j
		}
		if (!k)
			k = 78
		print substr(s, 1, k - 1) (cont ? " \\" : "")
		s = ind substr(s, k + (substr(s, k, 1) == " "))
	}
	print s
}
# A path as short as it can be said: relative to the current folder when
# under it.
function path(p) {
	return index(p, cwd "/") == 1 ? substr(p, length(cwd) + 2) : p
}
# What a row is: its pairing, its group (the call, the whole run, the
# scenarios) and its label in the group; and how its figures are made.
function parse(m,   p, r) {
	pairing = ""
	if (match(m, /^\[[^]]*\] /)) {
		pairing = substr(m, 2, RLENGTH - 3)
		m = substr(m, RLENGTH + 1)
	}
	if (match(m, / (split|packed)( (in)?direct)? instructions\/call$/)) {
		group = substr(m, 1, RSTART - 1)
		label = substr(m, RSTART + 1, RLENGTH - 19)
		again = "ab/calls.sh $d | grep '^" group " '"
	} else if (match(m, /^vringh_test (split|packed) scenario_[a-z_]* instructions\/run$/)) {
		split(m, p, " ")
		group = "vringh_test " p[2] " scenarios"
		label = p[3]
		again = "ab/calls.sh $d | grep '^vringh_test " p[2] " '"
	} else if (match(m, /^(vring_bench (split|packed)|vhost core split( in-order)?|vhost-net (tx|rx)|vringh_test (split|packed)) /)) {
		group = substr(m, 1, RLENGTH - 1)
		label = substr(m, RLENGTH + 1)
		r = group ~ /in-order$/ ? "vhost-in-order" : group ~ /^vhost-net/ ? "vhost-net" : \
			group ~ /^vhost/ ? "vhost" : group ~ /^vringh/ ? "vringh_test" : "vring_bench"
		again = "ab/count.sh -r " r " $d"
	} else {
		group = m
		label = ""
		again = ""
	}
}
function num(v) {
	return v ~ /^[0-9.]+$/ ? sprintf("%.2f", v) : v
}
# The figures of side ("a" or "b") of ab/compare's JSON file f, each over
# per, as stats --trim-outliers folds them (MIN-MAX(MEAN+/-SD)); empty
# when there are none.
function folded(f, side, per,   l, s, nfig, fig, data, j, st) {
	s = ""
	while ((getline l < f) > 0)
		if (l ~ "^  \"" side "\": ") {
			sub(/.*"figures": \[/, "", l)
			sub(/\].*/, "", l)
			s = l
		}
	close(f)
	nfig = split(s, fig, ", ")
	data = tmp "/short.figures"
	for (j = 1; j <= nfig; j++)
		printf "%.0f\n", fig[j] / per > data
	close(data)
	st = ""
	if (nfig && ((stats " --trim-outliers " data) | getline st) > 0)
		close(stats " --trim-outliers " data)
	return st
}
