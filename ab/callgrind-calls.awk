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
#
# What ran (make regress and make series: did the row's source change?):
# with -v ran=FILE -v index_file=INDEX -v base=DIR, also writes to FILE per NAME
#   NAME<TAB>UNITS<TAB>SYMBOLS
# UNITS the source each line executed inside the call (callees included,
# as for its cost) is in: "FILE:FUNCTION" by INDEX's spans (ab/src-index.sh:
# a function of the ring code or a header it includes, inlined or not),
# else "FILE:" (the whole file); SYMBOLS the functions of the object code that ran (callgrind's
# names).  A relative FILE is taken from DIR.  -v whole=NAME instead writes
# one such line for everything the profile collected, and prints no cost.
# The profile must have absolute positions (callgrind --compress-pos=no).

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
# FILE made absolute from base, "." and ".." resolved by name (as
# ab/srcfuncs names its files).
function canonical(f,   n, i, p, out, k) {
	if (f !~ /^\//)
		f = base "/" f
	n = split(f, p, "/")
	k = 0
	for (i = 1; i <= n; i++) {
		if (p[i] == "" || p[i] == ".")
			continue
		if (p[i] == "..") {
			if (k > 0)
				k--
			continue
		}
		st[++k] = p[i]
	}
	out = ""
	for (i = 1; i <= k; i++)
		out = out "/" st[i]
	return out == "" ? "/" : out
}
# The unit a line executed belongs to: FILE:FUNCTION, or FILE: (the
# whole file, when no function of the index holds the line).
function unit(f, line,   i) {
	if (!((f, line) in unitof)) {
		unitof[f, line] = f ":"
		for (i = 1; i <= nspan[f]; i++)
			if (line >= sfirst[f, i] && line <= slast[f, i]) {
				unitof[f, line] = f ":" sname[f, i]
				break
			}
	}
	return unitof[f, line]
}
# Write NAME's line: what the functions in todo (a queue of n) ran, and
# the functions they call, but not those excluded by follow().
function write_ran(name, n,   head, f, k, p, u, units, syms, seen, done) {
	for (head = 1; head <= n; head++) {
		f = todo[head]
		if (f in done)
			continue
		done[f] = 1
		syms = syms " " f
		for (k = 1; k <= nlines[f]; k++) {
			split(lines[f, k], p, SUBSEP)
			u = unit(p[1], p[2])
			if (!(u in seen)) {
				seen[u] = 1
				units = units " " u
			}
		}
		for (k = 1; k <= ncallees[f]; k++)
			if (follow(callee_of[f, k]) && !(callee_of[f, k] in done))
				todo[++n] = callee_of[f, k]
	}
	printf "%s\t%s\t%s\n", name, substr(units, 2), substr(syms, 2) > ran
}
function follow(g) {
	return mode == "whole" || (mode == "call" ? fnfile[g] !~ own : !(g in skipped))
}
BEGIN {
	if (ran != "" && index_file != "") {
		while ((getline l < index_file) > 0) {
			split(l, w, " ")
			if (w[1] != "f")
				continue
			k = ++nspan[w[3]]
			sname[w[3], k] = w[2]; sfirst[w[3], k] = w[4]; slast[w[3], k] = w[5]
		}
		close(index_file)
	}
	nc = split(calls, want_c, " ")
	ns = split(scenarios, want_s, " ")
	split(skip, sk, " ")
	for (i in sk)
		skipped[sk[i]] = 1
}
/^fl=/ { file = id("fl", substr($0, 4)); cur = file; next }
/^f[ie]=/ { cur = id("fl", substr($0, 4)); next }
/^fn=/ {
	fn = id("fn", substr($0, 4))
	if (!(fn in fnfile))
		fnfile[fn] = file
	cur = file
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
	if (incall) {
		if (!((fn, callee) in arc) && ran != "")
			callee_of[fn, ++ncallees[fn]] = callee
		arc[fn, callee] += $2
	} else {
		self[fn] += $2
		if (ran != "" && $2 > 0) {
			if (!(cur in canon))
				canon[cur] = canonical(cur)
			if (!((fn, canon[cur], $1) in ranline)) {
				ranline[fn, canon[cur], $1] = 1
				lines[fn, ++nlines[fn]] = canon[cur] SUBSEP $1
			}
			if (!(fn in ranfn)) {
				ranfn[fn] = 1
				allfns[++nall] = fn
			}
		}
	}
	incall = 0
	next
}
# Print f's calls and cost in mode m ("call" or "scenario"): its own,
# and its callees' that follow() takes; with ran, write what ran in it.
function measure(f, m,   cost, k, p) {
	mode = m
	cost = self[f]
	for (k in arc) {
		split(k, p, SUBSEP)
		if (p[1] == f && p[2] != f && follow(p[2]))
			cost += arc[k]
	}
	if (ncalls[f] > 0)
		printf "%s %d %.0f\n", f, ncalls[f], cost
	if (ran != "" && ncalls[f] > 0) {
		todo[1] = f
		write_ran(f, 1)
	}
}
END {
	if (whole != "") {
		mode = "whole"
		for (i = 1; i <= nall; i++)
			todo[i] = allfns[i]
		write_ran(whole, nall)
		exit
	}
	for (i = 1; i <= nc; i++)
		measure(want_c[i], "call")
	for (i = 1; i <= ns; i++)
		measure(want_s[i], "scenario")
}
