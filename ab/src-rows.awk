# SPDX-License-Identifier: GPL-2.0
#
# Which rows' source did a patch change?  For make regress and make series:
#   awk -v ia=A/.rig-src-index -v ib=B/.rig-src-index \
#       -v oa=A/.rig-obj-index -v ob=B/.rig-obj-index \
#       -v ra=A_RAN -v rb=B_RAN -v roots_a='DIR...' -v roots_b='DIR...' \
#       -f ab/src-rows.awk
# The indexes are ab/src-index.sh's, the RAN files ab/calls.sh -w's and
# ab/count.sh -w's (what each row's run executed, "NAME<TAB>UNITS<TAB>
# SYMBOLS").  roots_a and roots_b name the folders that differ between the
# two sides, in the same order (the kernel trees, the build folders): a
# path under A's Nth root and one under B's Nth are the same file.
# Prints, per row that both sides or either side ran:
#   row<TAB>NAME<TAB>VERDICT<TAB>UNITS<TAB>SYMBOLS
# VERDICT "changed" when any source unit that ran on either side differs:
# a function (FILE:NAME) whose digest with the declarations it uses
# differs, or that one side lacks, or a whole file (FILE:) whose bytes
# differ; else "same".  UNITS those units, SYMBOLS the functions of the
# object code that ran on either side and differ (machine code, its
# addresses and immediates left out) or that one side lacks ("NAME(A)":
# only A has it, e.g. inlined in B).  Then:
#   patch<TAB>FUNCTIONS     each function whose own source differs, or
#                           that one side lacks ("NAME(new)", "NAME(gone)")
#   decls<TAB>NAMES         each declared name whose declaration differs
# Names are shown without their folders.

function norm(p, roots,   n, r, i) {
	n = split(roots, r, " ")
	for (i = 1; i <= n; i++)
		if (p == r[i] || index(p, r[i] "/") == 1)
			return "{" i "}" substr(p, length(r[i]) + 1)
	return p
}
function denorm(p, roots,   n, r, k) {
	if (!match(p, /^\{[0-9]+\}/))
		return p
	n = split(roots, r, " ")
	k = substr(p, 2, RLENGTH - 2)
	return r[k] substr(p, RLENGTH + 1)
}
# A unit as shown: a function's name, or a file without its root.
function show(u,   k) {
	k = match(u, /:[^:\/]*$/)
	if (k && RLENGTH > 1)
		return substr(u, k + 1)
	u = substr(u, 1, k - 1)
	sub(/^\{[0-9]+\}\//, "", u)
	return u
}
function load_index(f, side, roots,   l, w, key) {
	while ((getline l < f) > 0) {
		split(l, w, " ")
		if (w[1] == "f") {
			key = norm(w[3], roots) ":" w[2]
			full[side, key] = w[7]
			own[side, key] = w[6]
			if (!(key in fkey)) {
				fkey[key] = 1
				fkeys[++nf] = key
			}
		} else if (w[1] == "d") {
			key = w[2] " " w[3]
			decl[side, key] = decl[side, key] " " w[4]
			if (!(key in dkey)) {
				dkey[key] = 1
				dkeys[++nd] = key
			}
		}
	}
	close(f)
}
function load_obj(f, side,   l, k, key) {
	while ((getline l < f) > 0) {
		# "o PROG SYMBOL CODE"
		k = index(l, " ")
		l = substr(l, k + 1)
		k = index(l, " ")
		key = substr(l, 1, k - 1)
		l = substr(l, k + 1)
		k = index(l, " ")
		obj[side, key, k ? substr(l, 1, k - 1) : l] = k ? substr(l, k + 1) : ""
	}
	close(f)
}
function load_ran(f, side, roots,   l, w, n, u, i, name) {
	while ((getline l < f) > 0) {
		split(l, w, "\t")
		name = w[1]
		if (!(name in rown)) {
			rown[name] = 1
			rows[++nrows] = name
		}
		n = split(w[2], u, " ")
		for (i = 1; i <= n; i++)
			runits[name] = runits[name] " " norm(u[i], roots)
		rsyms[name] = rsyms[name] " " w[3]
	}
	close(f)
}
# Do the bytes of file unit u differ between the sides?
function file_differs(u,   a, b, ra, rb) {
	if (u in fdiff)
		return fdiff[u]
	a = denorm(u, roots_a)
	b = denorm(u, roots_b)
	ra = (getline l < a) >= 0
	close(a)
	rb = (getline l < b) >= 0
	close(b)
	if (!ra || !rb)
		fdiff[u] = ra != rb
	else
		fdiff[u] = a != b && system("cmp -s '" a "' '" b "'") != 0
	return fdiff[u]
}
# The words of list, each once, in the order they first stand, into
# out[1..N]; returns N.
function distinct(list, out,   w, n, i, k, seen) {
	split("", out)
	n = split(list, w, " ")
	for (i = 1; i <= n; i++) {
		if (w[i] in seen)
			continue
		seen[w[i]] = 1
		out[++k] = w[i]
	}
	return k
}
function unit_differs(u,   k) {
	k = match(u, /:[^:\/]*$/)
	if (RLENGTH <= 1)
		return file_differs(substr(u, 1, k - 1))
	return full["a", u] != full["b", u]
}
BEGIN {
	load_index(ia, "a", roots_a)
	load_index(ib, "b", roots_b)
	load_obj(oa, "a")
	load_obj(ob, "b")
	load_ran(ra, "a", roots_a)
	load_ran(rb, "b", roots_b)
	for (r = 1; r <= nrows; r++) {
		name = rows[r]
		prog = name ~ /^vringh/ ? "vringh_test" : name ~ /^vhost-net/ ? "vhost_net_test" : "vring_bench"
		n = distinct(runits[name], u)
		units = ""
		for (i = 1; i <= n; i++)
			if (unit_differs(u[i]))
				units = units " " show(u[i])
		n = distinct(rsyms[name], s)
		syms = ""
		for (i = 1; i <= n; i++) {
			ina = ("a", prog, s[i]) in obj
			inb = ("b", prog, s[i]) in obj
			if (ina && inb && obj["a", prog, s[i]] != obj["b", prog, s[i]])
				syms = syms " " s[i]
			else if (ina != inb)
				syms = syms " " s[i] (ina ? "(A)" : "(B)")
		}
		printf "row\t%s\t%s\t%s\t%s\n", name, units != "" ? "changed" : "same",
			substr(units, 2), substr(syms, 2)
	}
	patch = ""
	for (i = 1; i <= nf; i++) {
		k = fkeys[i]
		ina = ("a", k) in own
		inb = ("b", k) in own
		if (ina && inb && own["a", k] != own["b", k])
			patch = patch " " show(k)
		else if (ina != inb)
			patch = patch " " show(k) (ina ? "(gone)" : "(new)")
	}
	printf "patch\t%s\n", substr(patch, 2)
	d = ""
	for (i = 1; i <= nd; i++) {
		k = dkeys[i]
		if (decl["a", k] != decl["b", k] && k !~ /^proto /) {
			sub(/^[a-z]* /, "", k)
			d = d " " k
		}
	}
	printf "decls\t%s\n", substr(d, 2)
}
