# SPDX-License-Identifier: GPL-2.0
#
# Per-call costs from a callgrind output file (its first event, Ir):
#   awk -v calls='NAME...' -v own='REGEX' -v scenarios='NAME...' \
#       -v skip='NAME...' -f ab/callgrind-calls.awk OUT
# prints "NAME CALLS COST" for each NAME that ran, CALLS its calls and
# COST the instructions executed inside them, callees included, except:
#   for the names in calls (the ring API): the calls they make straight
#   into functions whose source file matches own (the program's and the
#   harness's code: the device's notify callback, the driver's interrupt
#   callback, vringh's memory-access callbacks), which are not the ring
#   code's cost;
#   for the names in scenarios: the calls they make to the names in skip
#   (a scenario's ring set-up and teardown).
# A call chain that reaches a callback through a helper of the ring code
# which is a function of its own still counts it; ab/calls.sh says so.

# "(N) NAME" names N; "(N)" alone refers to it (callgrind's compression).
# Files and functions are numbered apart: ns is "fl" or "fn".
function id(ns, s,   n, rest) {
	if (!match(s, /^\([0-9]+\)/))
		return s
	n = substr(s, 2, RLENGTH - 2)
	rest = substr(s, RLENGTH + 1)
	sub(/^ /, "", rest)
	if (rest != "")
		names[ns, n] = rest
	return names[ns, n]
}
BEGIN {
	nc = split(calls, want_c, " ")
	ns = split(scenarios, want_s, " ")
	split(skip, sk, " ")
	for (i in sk)
		skipped[sk[i]] = 1
}
/^fl=/ { file = id("fl", substr($0, 4)); next }
/^f[ie]=/ { id("fl", substr($0, 4)); next }
/^fn=/ {
	fn = id("fn", substr($0, 4))
	if (!(fn in fnfile))
		fnfile[fn] = file
	incall = 0
	next
}
/^cf[il]=/ { cfile = id("fl", substr($0, 5)); next }
/^cfn=/ {
	callee = id("fn", substr($0, 5))
	if (!(callee in fnfile))
		fnfile[callee] = cfile != "" ? cfile : file
	cfile = ""
	next
}
/^calls=/ { split(substr($0, 7), c, " "); ncalls[callee] += c[1]; incall = 1; next }
/^[0-9+*-]/ {
	if (incall)
		arc[fn, callee] += $2
	else
		self[fn] += $2
	incall = 0
	next
}
function report(f, cost) {
	if (ncalls[f] > 0)
		printf "%s %d %.0f\n", f, ncalls[f], cost
}
END {
	for (i = 1; i <= nc; i++) {
		f = want_c[i]
		cost = self[f]
		for (k in arc) {
			split(k, p, SUBSEP)
			if (p[1] == f && p[2] != f && fnfile[p[2]] !~ own)
				cost += arc[k]
		}
		report(f, cost)
	}
	for (i = 1; i <= ns; i++) {
		f = want_s[i]
		cost = self[f]
		for (k in arc) {
			split(k, p, SUBSEP)
			if (p[1] == f && p[2] != f && !(p[2] in skipped))
				cost += arc[k]
		}
		report(f, cost)
	}
}
