# SPDX-License-Identifier: GPL-2.0
#
# make regress REPORT=short: a report to paste into a reply, at most 80
# columns.  Only the rows that moved, a line per API call (or whole run,
# or the vringh_test scenarios) and pairing above its rows, the
# compiler's rows apart, each timed row with its figures as stats prints
# them (MIN-MAX(MEAN+/-SD), --trim-outliers), and under each the command
# that gives its figures again.
#   awk -F '\t' -f ab/short-lib.awk -f ab/short.awk -v VAR=VALUE... ROWS
# ROWS: ab/regress.sh's rows ("metric, A, B, B/A, verdict, source,
# objects", tab-separated).  Variables: cmd (the command that made the
# report), a_desc and b_desc (what A and B are), builds (a line per
# pairing, "PAIRING DIR_A DIR_B"; "-" for this repository's own), patched,
# decls and objects (the summary's lists), tmp (where the timed rows'
# ab/compare JSON is, wall-NAME.json, NAME's spaces dashes), stats (the
# stats program), adds and frames (what a vring_bench run and a
# vhost_net_test run do), retime (the command that times again), fails,
# missing, secs.

# Is row m a timed one ("NAME CPU ns/UNIT (N pairs, ...")?
function timed_row(m) {
	return m ~ / (CPU|wall) ns\/[a-z-]+ .*\([0-9]+ pairs, /
}
# Did a row of verdict v move (REGRESSION, better or missing)?
function moved(v) {
	return v == "REGRESSION" || v == "better" || v == "missing"
}
# Is row j a moved one of the pairing and group parse() last named?  Those
# stay as they were (again too); row j's label goes to alike_label.
function moved_alike(j,   g, pg, a, l, same) {
	if (!moved(verdict[j]))
		return 0
	g = group; pg = pairing; a = again; l = label
	parse(metric[j])
	same = group == g && pairing == pg
	alike_label = label
	group = g; pairing = pg; again = a; label = l
	return same
}
BEGIN {
	n = split(builds, bl, "\n")
	for (i = 1; i <= n; i++) {
		split(bl[i], w, " ")
		if (w[1] == "")
			continue
		dir_a[w[1]] = w[2]
		dir_b[w[1]] = w[3]
		porder[++np] = w[1]
	}
}
{
	nrows++
	metric[nrows] = $1; va[nrows] = $2; vb[nrows] = $3; ratio[nrows] = $4
	verdict[nrows] = $5
}
END {
	out(cmd)
	out("A " a_desc)
	out("B " b_desc)
	if (patched != "")
		out("changed: " patched)
	if (decls != "")
		out("declarations changed: " decls)
	# The judged rows, by pairing and group.
	for (q = 1; q <= np; q++) {
		pr = porder[q]
		shown = 0
		for (i = 1; i <= nrows; i++) {
			if (timed_row(metric[i]))
				continue
			if (!moved(verdict[i]))
				continue
			parse(metric[i])
			if ((pr == "-" ? "" : pr) != pairing)
				continue
			if (!shown++ && pr != "-")
				out("[" pr "] A=" path(dir_a[pr]) " B=" path(dir_b[pr]))
			else if (shown == 1)
				out("A=" path(dir_a[pr]) " B=" path(dir_b[pr]))
			if (!(pr SUBSEP group in gdone)) {
				gdone[pr, group] = 1
				# The group's line: its moved rows, their range.
				lo = hi = ""; k = 0; regs = 0
				for (j = i; j <= nrows; j++) {
					if (!moved_alike(j))
						continue
					k++
					regs += verdict[j] == "REGRESSION"
					if (ratio[j] != "-" && (lo == "" || ratio[j] + 0 < lo + 0)) lo = ratio[j]
					if (ratio[j] != "-" && (hi == "" || ratio[j] + 0 > hi + 0)) hi = ratio[j]
				}
				out(group ": " k " row(s) moved" (lo != "" ? ", B/A " lo (hi != lo ? ".." hi : "") : "") \
					(regs ? ", " regs " REGRESSION" : ""))
				for (j = i; j <= nrows; j++) {
					if (!moved_alike(j))
						continue
					out(sprintf("  %-26s %12s %12s  %6s  %s", substr(alike_label, 1, 26),
						num(va[j]), num(vb[j]), ratio[j], verdict[j]))
				}
				if (again != "")
					out("  $ for d in $A $B; do " again "; done")
			}
		}
	}
	# The compiler's rows, apart.
	k = 0; lo = hi = ""
	for (i = 1; i <= nrows; i++) {
		if (verdict[i] != "compiler")
			continue
		k++
		if (lo == "" || ratio[i] + 0 < lo + 0) lo = ratio[i]
		if (hi == "" || ratio[i] + 0 > hi + 0) hi = ratio[i]
	}
	if (k) {
		out("the compiler's (source the same, count moved; not gated): " k \
			" row(s), B/A " lo (hi != lo ? ".." hi : ""))
		for (i = 1; i <= nrows; i++) {
			if (verdict[i] != "compiler")
				continue
			parse(metric[i])
			key = (pairing != "" ? "[" pairing "] " : "") group
			if (!(key in cl))
				corder[++nc] = key
			cl[key] = cl[key] (cl[key] != "" ? ", " : "") label " " ratio[i]
		}
		for (i = 1; i <= nc; i++)
			out("  " corder[i] ": " cl[corder[i]])
		if (objects != "")
			out("  object code changed: " objects)
	}
	# The timed rows.
	for (i = 1; i <= nrows; i++) {
		if (!timed_row(metric[i]))
			continue
		if (!timed++)
			out("timed: ns per add or packet, A's and B's runs as stats folds them:")
		m = metric[i]
		pairing = ""
		if (match(m, /^\[[^]]*\] /)) {
			pairing = substr(m, 1, RLENGTH)
			m = substr(m, RLENGTH + 1)
		}
		shape = m
		sub(/ (CPU|wall) ns\/.*/, "", shape)
		per = shape ~ /^vhost-net/ ? frames : adds
		ci = m
		sub(/.*95% CI /, "", ci)
		sub(/\).*/, "", ci)
		layouts = m
		sub(/^[^(]*\(/, "", layouts)
		sub(/;.*/, "", layouts)
		v = verdict[i] == "ok" ? "no significant difference" : verdict[i]
		out(pairing shape ": B/A " ratio[i] " (95% CI " ci ", " layouts "): " v)
		f = shape
		gsub(/ /, "-", f)
		f = tmp "/wall-" f ".json"
		out("  A " folded(f, "a", per))
		out("  B " folded(f, "b", per))
	}
	if (timed)
		out("  $ " retime)
	out(fails " regression(s) in rows whose source changed" \
		(missing ? ", " missing " missing" : "") "; " secs " s")
}
