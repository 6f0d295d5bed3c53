#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/cg-function.sh CALLGRIND_OUT SOURCE FUNCTION...: how many
# instructions a callgrind run (CALLGRIND_OUT, written with
# --compress-strings=no --compress-pos=no) spent on the lines of each
# FUNCTION defined in the C file SOURCE, wherever the compiler put them:
# a static function inlined into its caller has no entry of its own in
# callgrind's profile, but its lines keep their numbers in the debug
# information (callgrind's fl=, fi= and fe= name the file of the lines
# that follow).  A function's lines run from the line that names it at
# the start of its definition to the first "}" at the start of a line.
# Prints, per FUNCTION,
#   FUNCTION (SOURCE:FIRST-LAST): N instructions
# Exit status 0, 1 if a FUNCTION is not defined in SOURCE, 2 on a usage
# error.
set -u
[ $# -ge 3 ] || { echo "usage: $0 CALLGRIND_OUT SOURCE FUNCTION..." >&2; exit 2; }
out=$1 src=$2
shift 2
[ -r "$out" ] && [ -r "$src" ] || { echo "cg-function: cannot read $out or $src" >&2; exit 2; }
rc=0
for fn; do
	# The definition: FUNCTION( after a return type on the same line or
	# the one before, not a call (no ";" at the end of the line).
	range=$(awk -v fn="$fn" '
		first == 0 && index($0, fn "(") && $0 !~ /;[ \t]*$/ &&
		    ($0 ~ "^[a-z].*[ *]" fn "\\(" || $0 ~ "^" fn "\\(") { first = NR }
		first && NR > first && /^}/ { print first "-" NR; exit }' "$src")
	if [ -z "$range" ]; then
		echo "cg-function: $src defines no $fn()" >&2
		rc=1
		continue
	fi
	# Costs are "LINE IR ..." lines; a file whose name ends with SOURCE's
	# path inside its tree matches (callgrind names files as compiled).
	n=$(awk -v src="$src" -v lo="${range%-*}" -v hi="${range#*-}" '
		function ends(a, b) { return length(a) >= length(b) && substr(a, length(a) - length(b) + 1) == b }
		BEGIN { n = split(src, p, "/"); tail = p[n - 1] "/" p[n]; if (n < 2) tail = src }
		/^(fl|fi|fe)=/ { f = substr($0, 4); here = f == src || ends(f, "/" tail); next }
		here && /^[0-9]+ [0-9]+/ && $1 >= lo && $1 <= hi { ir += $2 }
		END { print ir + 0 }' "$out")
	echo "$fn ($src:$range): $n instructions"
done
exit $rc
