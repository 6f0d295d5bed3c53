# SPDX-License-Identifier: GPL-2.0
#
# Where a callgrind profile's instructions went: each function's own
# (exclusive) instruction count, by the source file the function is in.
#
#   awk -f ab/cg-split.awk callgrind.out
#
# prints one line per part, "PART COUNT", in this order:
#   ring      functions of virtio_ring.c or vringh.c (ours or a kernel
#             tree's), with everything inlined into them
#   inlined   of ring, the instructions of helpers inlined from the shim
#             headers (linux/, asm/, xen/, uapi/: sg_next(), the byte-order
#             and barrier macros, ...)
#   shims     functions of the shims (linux/slab.c's kmalloc, ...)
#   mockdev   the mock device (harness/mockdev.c)
#   harness   the rest of the program (the harness and the program itself)
#   libc      shared libraries (glibc: memset, printf, ...)
#   total     all of it
#
# A function is counted by the file it is in, which callgrind names by
# the line its first instruction came from: a ring-code function that
# begins with an inlined shim helper (6.1's vring_map_one_sg() starts in
# sg_phys()) is named after the shim header.  So a function named after a
# header of the shims that has lines of a .c file of its own goes by that
# file: ring if any of its lines are the ring code's, else the mock
# device's or the harness's; a shim helper compiled out of line has only
# header lines and stays with the shims.
#
# The file format is callgrind's (valgrind's docs, "Callgrind Format
# Specification"): "fl=", "fi=", "fe=" name the file of the cost lines
# that follow (fl= also the function's), "fn=" the function, "ob=" the
# object, each compressed as "(ID) name" the first time and "(ID)" after;
# the cost line after "calls=" is the inclusive cost of a call, not the
# caller's own.

function part(file) {
	if (file ~ /(^|\/)(virtio_ring|vringh)\.c$/)
		return "ring"
	if (file ~ /(^|\/)(linux|asm|xen|uapi)\/[^\/]*$/)
		return "shims"
	if (file ~ /(^|\/)harness\/mockdev\.c$/)
		return "mockdev"
	return "harness"
}

# "(ID) name" or "(ID)": the name, remembered in table t.
function name(s, t,    id) {
	if (s !~ /^\(/)
		return s
	id = substr(s, 2, index(s, ")") - 2)
	s = substr(s, index(s, ")") + 1)
	sub(/^ /, "", s)
	if (s != "")
		names[t, id] = s
	return names[t, id]
}

BEGIN { ev = 2 }
/^positions:/ { ev = NF }
/^ob=/ { ob = name(substr($0, 4), "ob"); lib = ob ~ /\.so(\.[0-9]+)*$/; next }
/^fl=/ { fl = name(substr($0, 4), "fl"); fi = fl; next }
/^(fi|fe)=/ { fi = name(substr($0, 4), "fl"); next }
/^fn=/ {
	fn = ob SUBSEP fl SUBSEP name(substr($0, 4), "fn")
	if (!(fn in flpart)) {
		flpart[fn] = lib ? "libc" : part(fl)
		header[fn] = fl ~ /\.h$/
	}
	fi = fl
	next
}
/^(cfi|cfl)=/ { name(substr($0, 5), "fl"); next }
/^cfn=/ { name(substr($0, 5), "fn"); next }
/^cob=/ { name(substr($0, 5), "ob"); next }
/^calls=/ { skip = 1; next }
/^[0-9+*-]/ {
	if (skip) {
		skip = 0
		next
	}
	ir = $ev + 0
	own[fn] += ir
	lines[fn, part(fi)] += ir
	total += ir
}
END {
	for (fn in own) {
		p = flpart[fn]
		if (p == "shims" && header[fn]) {
			if (lines[fn, "ring"] > 0)
				p = "ring"
			else if (lines[fn, "mockdev"] > 0)
				p = "mockdev"
			else if (lines[fn, "harness"] > 0)
				p = "harness"
		}
		cost[p] += own[fn]
		if (p == "ring")
			cost["inlined"] += lines[fn, "shims"]
	}
	n = split("ring inlined shims mockdev harness libc", parts, " ")
	for (i = 1; i <= n; i++)
		printf "%s %.0f\n", parts[i], cost[parts[i]]
	printf "total %.0f\n", total
}
