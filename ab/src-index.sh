#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ab/src-index.sh BUILD_DIR: what a build's ring code is, function by
# function, for make regress and make series to tell a row whose source a
# patch changed from one the compiler moved (ab/src-rows.awk).
#
# Writes BUILD_DIR/.rig-src-index: each ring-code file the build compiles
# (virtio_ring.c and vringh.c, ours or a kernel tree's, and a tree's vhost
# core when the build has it) preprocessed exactly as make compiles it
# (its command from make -n, ab/build-make.sh), __LINE__ and __FILE__ held constant so that
# lines moving change nothing, then read by ab/srcfuncs: one line per
# function, "f NAME FILE FIRST LAST OWN FULL" (FULL covers the
# declarations it uses), and per declared name "d KIND NAME DIGEST".
# And BUILD_DIR/.rig-obj-index: each function's machine code in
# vring_bench, vringh_test and vhost_net_test (objdump -d, addresses left out), "o PROG
# SYMBOL CODE", to name the functions whose object code changed (their
# immediates left out too: a BUG() line number moves with lines added
# above it).
# Exit status: 0, 1 if a step failed (saying which).
set -u
[ $# -eq 1 ] || { echo "usage: ab/src-index.sh BUILD_DIR" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd) || exit 1
top=$(cd "$here/.." && pwd) || exit 1
DIE_PREFIX=src-index DIE_STATUS=1
. "$top/shlib/die.sh"
B=$(cd "$1" && pwd) || die "no folder $1"
[ -r "$B/.rig-config" ] || die "$B/.rig-config is missing: not a build folder"
[ -x "$top/ab/srcfuncs" ] || die "$top/ab/srcfuncs is not built (make ab/srcfuncs)"
command -v objdump >/dev/null 2>&1 || die "objdump is missing (Debian: binutils)"

# What the folder was built with (rules.mk's .rig-config).
cfg=$(cat "$B/.rig-config")
ksrc=$(printf '%s\n' "$cfg" | sed -n 's/^KSRC=\(.*\) GUEST=.*/\1/p')
guest=$(printf '%s\n' "$cfg" | sed -n 's/.* GUEST=\([a-z]*\) .*/\1/p')
host=$(printf '%s\n' "$cfg" | sed -n 's/.* HOST=\([a-z]*\) .*/\1/p')
# A folder with its own Makefile is a source tree (make regress's export
# of a revision, or this repository); another is an output folder (O=).
srctree=$top
[ -f "$B/Makefile" ] && srctree=$B

# The objects of ring code and the source each is compiled from.
{
	if [ "$guest" = kernel ]; then
		echo "ksrc/virtio_ring.o $ksrc/drivers/virtio/virtio_ring.c"
	else
		echo "virtio_ring.o $srctree/virtio_ring.c"
	fi
	if [ "$host" = kernel ]; then
		echo "ksrc/vringh.o $ksrc/drivers/vhost/vringh.c"
	else
		echo "vringh.o $srctree/vringh.c"
	fi
	for f in vhost:vhost iotlb:iotlb vhost_test_mod:test vhost_net_mod:net; do
		[ -f "$B/ksrc/${f%:*}.o" ] || continue
		echo "ksrc/${f%:*}.o $ksrc/drivers/vhost/${f#*:}.c"
	done
} >"$B/.rig-src-objs"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/vring-src-index.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$top/shlib/signals.sh"

# The compile commands make gives for them, asked once (make -n with every
# source as new), each turned into a preprocessing.
set --
while read -r obj src; do
	set -- "$@" -W "$src" "$obj"
done <"$B/.rig-src-objs"
"$here/build-make.sh" "$B" -n "$@" >"$tmp/make" 2>"$tmp/err" ||
	{ cat "$tmp/err" >&2; die "make -n failed in $B"; }
n=0
while read -r obj src; do
	n=$((n + 1))
	cmd=$(grep -F -- " -o $obj " "$tmp/make" | tail -n 1)
	[ -n "$cmd" ] || die "make -n names no command for $obj in $B"
	cmd=$(printf '%s\n' "$cmd" | sed -e 's#^[^ ]*/kernel/ksrc-cc\.sh [^ ]* [^ ]* ##' \
		-e 's# -MMD -MP # #' \
		-e "s# -c -o $obj # -E -w -D__LINE__=0 -D__FILE__='\"F\"' -o $tmp/$n.i #")
	(cd "$B" && sh -c "$cmd") 2>"$tmp/err" ||
		{ cat "$tmp/err" >&2; die "preprocessing $src failed: $cmd"; }
	"$top/ab/srcfuncs" -C "$B" "$tmp/$n.i" >"$tmp/$n.f" || die "srcfuncs $src failed"
done <"$B/.rig-src-objs"

# A header's function is in several files' output: once is enough.
cat "$tmp"/*.f | awk '$1 != "f" || !seen[$3 " " $2]++' >"$B/.rig-src-index" ||
	die "cannot write $B/.rig-src-index"

# Each function's code, addresses left out: "o PROG SYMBOL CODE".
for p in vring_bench vringh_test vhost_net_test; do
	[ -x "$B/$p" ] || continue
	objdump -d --no-show-raw-insn "$B/$p" | awk -v prog="$p" '
	/^[0-9a-f]+ <[^>]*>:$/ {
		if (sym != "") print "o", prog, sym, code
		sym = $2; sub(/^</, "", sym); sub(/>:$/, "", sym); code = ""
		next
	}
	/^ *[0-9a-f]+:\t/ && sym != "" {
		sub(/^ *[0-9a-f]+:\t/, "")
		gsub(/[0-9a-f]+ </, "<")
		gsub(/[-]?0x[0-9a-f]+\(%rip\)/, "(%rip)")
		sub(/ *# <.*$/, "")	# what a %rip-relative address is near
		gsub(/\$-?0x[0-9a-f]+/, "$")	# immediates: line numbers of BUG()s
		gsub(/[ \t]+/, " ")
		code = code $0 ";"
	}
	END { if (sym != "") print "o", prog, sym, code }'
done >"$B/.rig-obj-index" || die "cannot write $B/.rig-obj-index"
