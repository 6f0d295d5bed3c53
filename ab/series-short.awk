# SPDX-License-Identifier: GPL-2.0
#
# make series REPORT=short: a series as a report to paste into a reply, at
# most 80 columns (ab/short-lib.awk's helpers).  A line per commit; under
# each whose counts moved against the row before that built, a line per
# API call (or whole run, or the vringh_test scenarios) with its moved
# rows under it and the command that counts them again; then the commit's
# timed row against BASE, BASE's and the commit's runs as stats folds
# them (MIN-MAX(MEAN+/-SD), --trim-outliers), and the command that times
# them again.
#   awk -F '\t' -f ab/short-lib.awk -f ab/series-short.awk -v VAR=VALUE... MOVED ROWS
# MOVED: a line per count that moved, "INDEX, metric, before, after,
# ratio, verdict" (REGRESSION or better); ROWS: a line per commit, "INDEX,
# short hash, status (base, measured, skipped, failed), subject", both
# tab-separated.  Variables: cmd (the command that made the report), title
# and counted (what the series is, what its counts are), dir (SERIES_DIR:
# row INDEX built in dir/INDEX), pairs and adds (the timed runs), tmp
# (t.INDEX: "RATIO LOW HIGH VERDICT ...", t.INDEX.json: ab/compare's
# JSON), stats (the stats program).

FNR == NR {
	k = ++nmoved[$1]
	mmetric[$1, k] = $2; mbefore[$1, k] = $3; mafter[$1, k] = $4
	mratio[$1, k] = $5; mverdict[$1, k] = $6
	next
}
{
	nrows++
	ridx[nrows] = $1; rhash[nrows] = $2; rstatus[nrows] = $3; rsubject[nrows] = $4
}
END {
	out(cmd)
	out(title)
	out(counted)
	prev = ""
	for (r = 1; r <= nrows; r++) {
		i = ridx[r]
		head = (i == "-" ? "-  " : "#" i " ") rhash[r] " " rsubject[r]
		if (rstatus[r] == "skipped") {
			out(head ": skipped, no ring file changed")
			continue
		}
		if (rstatus[r] == "failed") {
			out(head ": does not build, not measured")
			continue
		}
		if (rstatus[r] == "base") {
			out(head ": BASE")
			prev = i
			continue
		}
		k = nmoved[i] + 0
		up = 0
		for (j = 1; j <= k; j++)
			up += mverdict[i, j] == "REGRESSION"
		out(head ": " (k ? up " count(s) up, " k - up " down" : "no count moved") \
			" against #" prev)
		delete gdone
		for (j = 1; j <= k; j++) {
			parse(mmetric[i, j])
			if (group in gdone)
				continue
			gdone[group] = 1
			g = group; a = again
			# The call's line: its moved rows and their range.
			n = 0; lo = hi = ""
			for (jj = j; jj <= k; jj++) {
				parse(mmetric[i, jj])
				if (group != g)
					continue
				n++
				row[n] = sprintf("    %-26s %12s %12s  %6s  %s", substr(label, 1, 26),
					num(mbefore[i, jj]), num(mafter[i, jj]), mratio[i, jj], mverdict[i, jj])
				if (lo == "" || mratio[i, jj] + 0 < lo + 0) lo = mratio[i, jj]
				if (hi == "" || mratio[i, jj] + 0 > hi + 0) hi = mratio[i, jj]
			}
			out("  " g ": " n " row(s) moved, #" i "/#" prev " " lo (hi != lo ? ".." hi : ""))
			for (jj = 1; jj <= n; jj++)
				out(row[jj])
			if (a != "")
				out("    $ for d in " path(dir "/" prev) " " path(dir "/" i) "; do " a "; done")
		}
		f = tmp "/t." i
		if ((getline t < f) > 0) {
			split(t, tf, " ")
			v = tf[4]
			gsub(/"/, "", v)
			if (v == "same")
				v = "no significant difference"
			out(sprintf("  timed: #%s/#0 %.4f (95%% CI %.4f..%.4f), %s",
				i, tf[1], tf[2], tf[3], v))
			out("    #0 CPU ns/add " folded(f ".json", "a", adds))
			out("    #" i " CPU ns/add " folded(f ".json", "b", adds))
			out("    $ ab/compare -n " pairs " --metric=cpu '" path(dir "/0") "/vring_bench " adds \
				"' '" path(dir "/" i) "/vring_bench " adds "'")
		}
		close(f)
		prev = i
	}
}
