#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Deterministic cost counts of the ring operations, under valgrind's
# callgrind with its cache simulator: instructions and simulated D1 and LL
# (last-level) cache misses.  The same binary gives the same counts on every
# run, so a change of a fraction of a percent shows in one run, on any
# machine, hardware counters or not.
#
# Usage: ab/count.sh [-r ROW] [-w FILE] [BUILD_DIR]   (default: the current
#        directory)
#
# Measured, in BUILD_DIR (a top-level, O= or KSRC= build):
#   vring_bench split / packed   per add (each buffer added, kicked, reaped
#       and checked): the difference between a run of 60000 adds and one of
#       10000, divided by 50000.  Set-up, teardown and program start cancel
#       out exactly, since they do not depend on the count; printf (the
#       time printed has more or fewer digits) is toggled out.
#   vringh_test split / packed   per run of the single-threaded scenarios
#       (--indirect --eventidx): callgrind counts only inside run_single()
#       (main() where that is inlined), and not inside each scenario's ring
#       set-up and teardown (fixture_setup/fixture_teardown, or st_setup/
#       st_teardown), which it toggles off.
#   vhost core split   per buffer (each buffer taken, used and signalled),
#       the kernel's vhost core of a KSRC= build (vring_bench --vhost):
#       callgrind counts only inside vhost_core_serve(), where the core's
#       vhost_get_vq_desc(), vhost_add_used() and vhost_signal() run, in
#       the one thread that also adds the buffers; the difference between
#       60000 and 10000 buffers, divided by 50000.  A build without a
#       kernel tree prints "n/a".  ab/count.sh -r vhost BUILD_DIR: that
#       row alone (-r vring_bench, -r vringh_test: theirs alone).
#   vhost core split in-order   the same with VIRTIO_F_IN_ORDER, through
#       the rig's batch device (vring_bench --vhost --in-order,
#       kernel/vhost_batch.c): vhost.c's in-order path, no avail ring
#       read and one used entry a kick.  "n/a" where the tree's core has
#       no in-order path.  -r vhost-in-order: that row alone.
#   vhost-net tx / rx   per frame, the kernel's vhost-net of a KSRC= build
#       (vhost_net_test --serve --tx, --rx): callgrind counts only inside
#       vhost_core_kick(), where net.c's handle_tx or handle_rx runs with
#       the core and the packet socket under it, in the one thread that
#       also adds the buffers and checks the frames; the difference
#       between 12000 and 2000 frames, divided by 10000.  n/a without
#       vhost-net in the build.  -r vhost-net: those rows alone;
#       VHOST_NET_OPTS: more options for those runs (--in-order, say).
# Prints one line per figure, "NAME: VALUE" (two decimals), e.g.
#   vring_bench split instructions/add: 1196.16
# and, per vring_bench add, where those instructions went (ab/cg-split.awk:
# each function's own instructions, by the file it is in), e.g.
#   vring_bench split instructions/add in ring code: 761.57
#   vring_bench split instructions/add in ring code, inlined shim helpers: 191.10
#   vring_bench split instructions/add in shims: 62.20
#   vring_bench split instructions/add in mock device: 48.34
#   vring_bench split instructions/add in harness: 56.77
#   vring_bench split instructions/add in libc: 0.00
# ("inlined shim helpers" are part of "ring code": sg_next() and the like,
# compiled into the ring code's functions as a kernel's would be).
#
# Usage: ab/count.sh --matrix BUILD_DIR [BUILD_DIR_B]   (make count MATRIX=)
# The matrix instead: ring-code instructions per add and per get_buf in
# every cell of split and packed rings, in order or not, 1, 2 and 16
# entries a buffer, indirect on and off, out and in buffers (vring_bench
# --sg N [--no-indirect] [--in] [--packed] [--in-order]; an in-order cell
# of a driver that drops IN_ORDER is n/a), counted with callgrind collecting
# only inside virtqueue_add_outbuf/virtqueue_add_inbuf (add) or inside
# virtqueue_get_buf (get_buf), MLO and MHI adds, the difference over
# MHI - MLO.  With BUILD_DIR_B, B's figures and B/A beside A's: e.g. A a
# KSRC build (build-kernel/T) and B ours, the same shims and harness on both
# sides, B/A ours over the kernel's.  "add" includes the kmalloc of an
# indirect table, "get_buf" its kfree and the calls that find nothing (one
# a ring-full); the ring-code figure leaves those shims out.
# A scenario the ring code under test lacks (exit 77) prints "NAME: n/a".
# -w FILE also writes what each row's run executed to FILE, as ab/calls.sh
# -w does: "NAME<TAB>UNITS<TAB>SYMBOLS" (the units of the source it ran,
# by ab/src-index.sh, and the functions of the object code).
# Instruction counts move only when the code run moves.  Miss counts also
# move with memory layout: the same binary with 500 more bytes of
# environment (its stack elsewhere) went from 5.13 to 5.18 D1 misses per
# vring_bench add.  So every run gets an empty environment (env -i), and
# misses are compared only between builds made alike.
# Exit status: 0, or 1 if valgrind is missing or a run failed.

set -u
MATRIX='' only='' ranfile=''
while :; do
	case ${1:-} in
	-r)
		case ${2:-} in
		vring_bench | vringh_test | vhost | vhost-in-order | vhost-net) only=$2 ;;
		*) echo "count: -r '${2:-}' is not vring_bench, vringh_test, vhost, vhost-in-order or vhost-net" >&2; exit 2 ;;
		esac ;;
	-w)
		[ -n "${2:-}" ] || { echo "count: -w needs a FILE" >&2; exit 2; }
		ranfile=$2 ;;
	*) break ;;
	esac
	shift 2
done
# want ROW: is ROW's figure asked for?
want() { [ -z "$only" ] || [ "$only" = "$1" ]; }
if [ "${1:-}" = --matrix ]; then
	MATRIX=1
	shift
	[ $# -ge 1 ] && [ $# -le 2 ] || {
		echo "usage: ab/count.sh [BUILD_DIR] | ab/count.sh --matrix BUILD_DIR [BUILD_DIR_B]" >&2
		exit 2
	}
fi
B=${1:-.}
# The simulated caches ($CACHES) and printf toggled out ($NOPRINT):
# ab/lib.sh.
LO=10000
HI=60000
# vhost-net's runs, in frames.
NLO=2000
NHI=12000
# The matrix's runs: whole laps of a 128-entry ring.
MLO=1024
MHI=9216
SPLIT_AWK=$(dirname "$0")/cg-split.awk
here=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$here/lib.sh"
[ -n "$MATRIX" ] || set -- "$B"
progs="vring_bench vringh_test"
case $only in vhost-net) progs=vhost_net_test ;; vhost*) progs=vring_bench ;; esac
GRIND_PROGS=$progs grind_setup count "$@"
if [ -n "$ranfile" ]; then
	[ -z "$MATRIX" ] || die "-w is not for --matrix"
	"$here/src-index.sh" "$B" || die "cannot index the source of $B"
	: >"$ranfile" || die "cannot write $ranfile"
fi

# grind OUT [CALLGRIND_OPTION...] -- PROGRAM ARGS...: run it under
# callgrind; OUT gets "Ir D1 LL" (D1 and LL misses, reads and writes, data
# and instructions), or "skip" on exit 77, OUT.split where the
# instructions went (ab/cg-split.awk), and with -w OUT.ran what ran
# (ab/callgrind-calls.awk).
grind() {
	out=$1
	shift
	rm -f "$out.ran"
	opts=
	while [ "$1" != -- ]; do
		opts="$opts $1"
		shift
	done
	shift
	# In BUILD_DIR, as ./PROGRAM: the same stack layout from any folder.
	# shellcheck disable=SC2086 # options are words
	(cd "$B" && exec env -i "$VALGRIND" --tool=callgrind --cache-sim=yes $CACHES \
		--compress-pos=no --callgrind-out-file="$tmp/cg.out" $opts "$@") \
		>"$tmp/log" 2>&1
	rc=$?
	if [ $rc -eq 77 ]; then
		echo skip >"$out"
		return 0
	fi
	if [ $rc -ne 0 ]; then
		sed 's/^/  | /' "$tmp/log" >&2
		die "$* failed under valgrind (exit $rc)"
	fi
	# "Collected : Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw" (trailing zeros
	# may be left out)
	sed -n 's/^==[0-9]*== Collected : //p' "$tmp/log" | tail -n 1 |
		awk 'NF >= 1 { print $1, $4 + $5 + $6, $7 + $8 + $9 }' >"$out"
	[ -s "$out" ] || die "no callgrind summary from $*"
	awk -f "$SPLIT_AWK" "$tmp/cg.out" >"$out.split" ||
		die "cannot read callgrind's profile of $*"
	[ -z "$ranfile" ] || awk -v whole=- -v ran="$out.ran" \
		-v index_file="$B/.rig-src-index" -v base="$B" \
		-f "$here/callgrind-calls.awk" "$tmp/cg.out" ||
		die "cannot read callgrind's profile of $*"
	rm -f "$tmp/cg.out"
}

# part FILE PART: the instruction count of PART in FILE.split.
part() {
	awk -v p="$2" '$1 == p { print $2 }' "$1.split"
}

# split_rows NAME UNIT HI LO DIVISOR: where HI's instructions minus LO's
# went, over DIVISOR.
split_rows() {
	grep -q skip "$3" && return
	for p in "ring:ring code" "inlined:ring code, inlined shim helpers" \
		"shims:shims" "mockdev:mock device" "harness:harness" "libc:libc"; do
		echo "$(part "$3" "${p%%:*}") $(part "$4" "${p%%:*}")" |
			awk -v name="$1" -v unit="$2" -v what="${p#*:}" -v div="$5" \
				'{ printf "%s instructions/%s in %s: %.2f\n", name, unit, what, ($1 - $2) / div }'
	done
}

# matrix_cell DIR FUNCTION ARGS...: ring-code and total instructions a call
# of vring_bench ARGS spends inside FUNCTION (and what it calls), "RING
# TOTAL", or "n/a".
matrix_cell() {
	dir=$1 fn=$2
	shift 2
	B=$dir grind "$tmp/mlo" --toggle-collect="$fn" -- ./vring_bench "$@" $MLO
	B=$dir grind "$tmp/mhi" --toggle-collect="$fn" -- ./vring_bench "$@" $MHI
	if grep -q skip "$tmp/mlo" "$tmp/mhi"; then
		echo n/a
		return
	fi
	echo "$(part "$tmp/mhi" ring) $(part "$tmp/mlo" ring)" \
		"$(part "$tmp/mhi" total) $(part "$tmp/mlo" total)" |
		awk -v div=$((MHI - MLO)) '{ printf "%.2f %.2f\n", ($1 - $2) / div, ($3 - $4) / div }'
}

if [ -n "$MATRIX" ]; then
	A=$1 BB=${2:-}
	echo "Ring-code instructions per call (callgrind; all instructions in brackets):"
	if [ -n "$BB" ]; then
		printf '%-38s %9s %18s %18s %6s\n' cell op "A: $A" "B: $BB" B/A
	else
		printf '%-38s %9s %18s\n' cell op "$A"
	fi
	for layout in split packed split-in-order packed-in-order; do
		for sg in 1 2 16; do
			for ind in on off; do
				for dir in out in; do
					set -- --sg $sg
					case $layout in packed*) set -- "$@" --packed ;; esac
					case $layout in *-in-order) set -- "$@" --in-order ;; esac
					[ $ind = off ] && set -- "$@" --no-indirect
					[ $dir = in ] && set -- "$@" --in
					cell="$layout sg=$sg indirect=$ind $dir"
					for op in add get_buf; do
						fn=virtqueue_get_buf
						[ $op = add ] && fn=virtqueue_add_${dir}buf
						a=$(matrix_cell "$A" $fn "$@") || exit 1
						if [ -z "$BB" ]; then
							echo "$a" | awk -v c="$cell" -v op=$op \
								'{ printf "%-38s %9s %9s [%6s]\n", c, op, $1, $2 }'
							continue
						fi
						b=$(matrix_cell "$BB" $fn "$@") || exit 1
						if [ "$a" = n/a ] || [ "$b" = n/a ]; then
							printf '%-38s %9s %9s %18s\n' "$cell" $op "${a%% *}" "${b%% *}"
							continue
						fi
						echo "$a $b" | awk -v c="$cell" -v op=$op '{
							printf "%-38s %9s %9s [%6s] %9s [%6s] %6s\n", c, op,
								$1, $2, $3, $4, ($1 > 0 ? sprintf("%.3f", $3 / $1) : "-") }'
					done
				done
			done
		done
	done
	exit 0
fi

# ... | rows_ran OUT: the rows on stdin, printed; with -w, each also
# written to the -w file with what OUT's run ran.
rows_ran() {
	if [ -z "$ranfile" ] || [ ! -f "$1.ran" ]; then
		cat
		return
	fi
	tee "$tmp/rows"
	cut -f 2- "$1.ran" >"$tmp/ran1"
	sed 's/: [^:]*$//' "$tmp/rows" | while IFS= read -r name; do
		printf '%s\t%s\n' "$name" "$(cat "$tmp/ran1")"
	done >>"$ranfile"
}

# row NAME UNIT FILE [FILE0 DIVISOR]: print the three figures of FILE, or
# of FILE minus FILE0 divided by DIVISOR.
row() {
	if grep -q skip "$3" || { [ $# -gt 3 ] && grep -q skip "$4"; }; then
		for m in instructions "D1 misses" "LL misses"; do
			echo "$1 $m/$2: n/a"
		done
		return
	fi
	if [ $# -gt 3 ]; then
		paste "$3" "$4"
	else
		paste "$3" "$3" | awk '{ print $1, $2, $3, 0, 0, 0 }'
	fi | awk -v name="$1" -v unit="$2" -v div="${5:-1}" '{
		printf "%s instructions/%s: %.2f\n", name, unit, ($1 - $4) / div
		printf "%s D1 misses/%s: %.2f\n", name, unit, ($2 - $5) / div
		printf "%s LL misses/%s: %.2f\n", name, unit, ($3 - $6) / div
	}'
}

for mode in split packed; do
	want vring_bench || break
	flag=
	[ $mode = packed ] && flag=--packed
	grind "$tmp/lo" --toggle-collect=main $NOPRINT -- ./vring_bench $flag $LO
	grind "$tmp/hi" --toggle-collect=main $NOPRINT -- ./vring_bench $flag $HI
	{
		row "vring_bench $mode" add "$tmp/hi" "$tmp/lo" $((HI - LO))
		split_rows "vring_bench $mode" add "$tmp/hi" "$tmp/lo" $((HI - LO))
	} | rows_ran "$tmp/hi"
done

if want vhost; then
	grind "$tmp/lo" --toggle-collect=vhost_core_serve -- ./vring_bench --vhost $LO
	grind "$tmp/hi" --toggle-collect=vhost_core_serve -- ./vring_bench --vhost $HI
	row "vhost core split" buffer "$tmp/hi" "$tmp/lo" $((HI - LO)) | rows_ran "$tmp/hi"
fi
if want vhost-in-order; then
	grind "$tmp/lo" --toggle-collect=vhost_core_serve -- ./vring_bench --vhost --in-order $LO
	grind "$tmp/hi" --toggle-collect=vhost_core_serve -- ./vring_bench --vhost --in-order $HI
	row "vhost core split in-order" buffer "$tmp/hi" "$tmp/lo" $((HI - LO)) |
		rows_ran "$tmp/hi"
fi
if want vhost-net; then
	# A build without vhost-net says so at once (exit 77): no valgrind.
	net=
	if [ -x "$B/vhost_net_test" ]; then
		(cd "$B" && exec ./vhost_net_test --serve --tx --buf-num=1) >/dev/null 2>&1
		[ $? -eq 77 ] || net=1
	fi
	for dir in tx rx; do
		if [ -n "$net" ]; then
			for n in lo:$NLO hi:$NHI; do
				# shellcheck disable=SC2086 # options are words
				grind "$tmp/${n%:*}" --toggle-collect=vhost_core_kick -- \
					./vhost_net_test --serve --$dir --buf-num=${n#*:} \
					${VHOST_NET_OPTS:-}
			done
		else
			echo skip >"$tmp/lo"
			echo skip >"$tmp/hi"
			rm -f "$tmp/hi.ran"
		fi
		row "vhost-net $dir" packet "$tmp/hi" "$tmp/lo" $((NHI - NLO)) |
			rows_ran "$tmp/hi"
	done
fi
want vringh_test || exit 0

# The measured region: run_single() when it is a function of its own, else
# main(); inside it, the ring set-up and teardown of each scenario are
# toggled out (fixture_setup/fixture_teardown, or st_setup/st_teardown in
# older trees).  All must be functions of their own, not inlined.
command -v nm >/dev/null 2>&1 || die "nm is missing (Debian: binutils)"
nm "$B/vringh_test" | awk '$2 ~ /^[tT]$/ { print $3 }' >"$tmp/syms"
has() { grep -qx "$1" "$tmp/syms"; }
region=main
has run_single && region=run_single
if has fixture_setup && has fixture_teardown; then
	setup=fixture_setup teardown=fixture_teardown
elif has st_setup && has st_teardown; then
	setup=st_setup teardown=st_teardown
else
	die "$B/vringh_test has no fixture_setup/fixture_teardown functions" \
		"(inlined?): its ring set-up would be counted"
fi
for mode in split packed; do
	flag=
	[ $mode = packed ] && flag=--packed
	grind "$tmp/st" --toggle-collect=$region --toggle-collect=$setup \
		--toggle-collect=$teardown -- \
		./vringh_test --indirect --eventidx $flag
	row "vringh_test $mode" run "$tmp/st" | rows_ran "$tmp/st"
done
