#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ab/layouts.sh DIR N SEED: N layouts of DIR's vring_bench, for make
# regress and make series to time A and B in several (ab/compare with a
# pair of commands per layout).  The same objects, linked again: in
# another order, with padding of 0 to 4080 bytes before the first and
# between two others (so every function starts at another address, and
# the hot ones lie at other distances from each other), and started with
# an environment variable of 0 to 4095 bytes (so the stack starts
# elsewhere).  Link order, code alignment and environment size alone move
# a timing by more than many patches do (Mytkowicz et al., "Producing
# wrong data without doing anything obviously wrong!", ASPLOS 2009;
# Stabilizer, ASPLOS 2013, randomises the same at run time).
# Layout K goes to DIR/layouts/K/vring_bench; SEED (a number) chooses
# them, the same SEED the same layouts.  Prints one line per layout, the
# command that runs it: "RIG_LAYOUT_PAD=... exec DIR/layouts/K/vring_bench"
# (append vring_bench's arguments).  Exit status: 0, 1 if a link failed.
set -u
[ $# -eq 3 ] || { echo "usage: ab/layouts.sh DIR N SEED" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd) || exit 1
DIE_PREFIX=layouts DIE_STATUS=1
. "$here/../shlib/die.sh"
d=$(cd "$1" && pwd) || die "no folder $1"
n=$2 seed=$3
case $n$seed in *[!0-9]*) die "N and SEED are numbers: $n $seed" ;; esac
[ -x "$d/vring_bench" ] || die "$d/vring_bench is not built"

# How make links vring_bench there.
link=$("$here/build-make.sh" "$d" -n -W vring_bench.o vring_bench 2>&1 |
	grep -F -- " -o vring_bench ") || die "make -n names no link of vring_bench in $d"
cc=$(sed -n 's/.* CC=\(.*\) CFLAGS=.*/\1/p' "$d/.rig-config")

rm -rf "$d/layouts"
k=0
while [ $k -lt "$n" ]; do
	k=$((k + 1))
	mkdir -p "$d/layouts/$k" || die "cannot create $d/layouts/$k"
	# The link line with the objects shuffled and padding objects put in,
	# then the padding objects' sizes, then the environment's.
	printf '%s\n' "$link" | awk -v seed=$((seed * 1000 + k)) -v k="$k" '{
		srand(seed)
		no = 0
		for (i = 1; i <= NF; i++) {
			if ($i == "-o") { $(i + 1) = "layouts/" k "/vring_bench"; continue }
			if ($i ~ /\.o$/) { obj[++no] = $i; at[no] = i; $i = "" }
		}
		for (i = no; i > 1; i--) {	# Fisher-Yates
			j = int(rand() * i) + 1
			t = obj[i]; obj[i] = obj[j]; obj[j] = t
		}
		# padding before the first object and before two others
		pad[1] = 1
		pad[int(rand() * no) + 1] = 1
		pad[int(rand() * no) + 1] = 1
		list = ""
		for (i = 1; i <= no; i++) {
			if (pad[i]) {
				np++
				list = list " layouts/" k "/pad" np ".o"
				size[np] = 16 * int(rand() * 256)
			}
			list = list " " obj[i]
		}
		$at[1] = substr(list, 2)
		print
		for (i = 1; i <= np; i++)
			print "pad", i, size[i]
		print "env", int(rand() * 4096)
	}' >"$d/layouts/$k/plan" || die "cannot plan layout $k"
	while read -r what i size; do
		[ "$what" = pad ] || continue
		{
			printf '\t.text\n\t.p2align 4\n'
			[ "$size" -eq 0 ] || printf '\t.skip %s\n' "$size"
			printf '\t.section .note.GNU-stack,"",@progbits\n'
		} |
			(cd "$d" && $cc -c -x assembler -o "layouts/$k/pad$i.o" -) ||
			die "cannot make the padding of layout $k"
	done <"$d/layouts/$k/plan"
	(cd "$d" && sh -c "$(head -n 1 "layouts/$k/plan")") >"$d/layouts/$k/log" 2>&1 ||
		{ cat "$d/layouts/$k/log" >&2; die "linking layout $k failed"; }
	envpad=$(sed -n 's/^env //p' "$d/layouts/$k/plan")
	printf 'RIG_LAYOUT_PAD=%s exec %s/layouts/%s/vring_bench\n' \
		"$(head -c "$envpad" /dev/zero | tr '\0' x)" "$d" "$k"
done
