#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/ksrc-patched.sh KSRC EDITS GUEST HOST PROG -- CMD [ARG...]: a
# kernel tree changed by EDITS, checked as it is, with no change to the
# rig.  The ring files of KSRC (drivers/virtio/virtio_ring.c,
# drivers/vhost/vringh.c and their API headers) and, when it has them, the
# vhost core's (drivers/vhost/vhost.[ch], iotlb.c, test.[ch], net.c and
# their headers) are copied to a temporary folder, the edits of the file EDITS
# (shlib/edit.sh's format, keyword "edit", FILE relative to the tree)
# are made there in turn, PROG (e.g. tests/hostile; or several make goals
# in one argument, "tests/dma tests/features") of the pairing GUEST/HOST
# ("kernel" or "rig") is built against the copy in a
# temporary output folder (make O=), and CMD runs in that folder (so
# ./tests/hostile is the program built).  Exit status: CMD's, or 1 if an
# edit or the build failed (saying which).  The temporary folders are
# removed.
#
# make check KSRC=... runs it with tests/ksrc-edits/*.edit: a kernel
# that gains a check turns the matching TODO into a pass, a kernel that
# gains a bug makes the matching check fail.
#
# tests/ksrc-patched.sh --unbuildable KSRC EDITS GUEST HOST PROG: the
# edited tree must not build, and make must say why in one line naming
# what the rig lacks (kernel/ksrc-check.sh, kernel/ksrc-cc.sh), with no
# compiler message on the terminal; that line is printed, exit 0.
set -u
unbuildable=
if [ "${1:-}" = --unbuildable ]; then
	unbuildable=1
	shift
	[ $# -eq 5 ] && set -- "$@" -- true
fi
[ $# -ge 7 ] && [ "$6" = -- ] ||
	{ echo "usage: $0 KSRC EDITS GUEST HOST PROG -- CMD [ARG...] | $0 --unbuildable KSRC EDITS GUEST HOST PROG" >&2; exit 2; }
ksrc=$1 edits=$2 guest=$3 host=$4 prog=$5
shift 6
top=$(cd "$(dirname "$0")/.." && pwd)
DIE_PREFIX='ksrc-patched'
. "$top/shlib/die.sh"
. "$top/shlib/edit.sh"
[ -r "$edits" ] || die "cannot read $edits"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/rig-ksrc-patched.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
# A signal is an exit too (bash runs no EXIT trap when a signal kills it).
. "$top/shlib/signals.sh"
vhost_files="drivers/vhost/vhost.c drivers/vhost/vhost.h drivers/vhost/iotlb.c
	drivers/vhost/test.c drivers/vhost/test.h include/linux/vhost_iotlb.h
	include/uapi/linux/vhost.h include/uapi/linux/vhost_types.h
	drivers/vhost/net.c include/uapi/linux/virtio_net.h"
[ -f "$ksrc/drivers/vhost/vhost.c" ] || vhost_files=
for f in drivers/virtio/virtio_ring.c drivers/vhost/vringh.c \
	 include/linux/virtio.h include/linux/virtio_ring.h include/linux/vringh.h \
	 $vhost_files; do
	mkdir -p "$tmp/tree/$(dirname "$f")"
	cp "$ksrc/$f" "$tmp/tree/$f" || { echo "ksrc-patched: cannot copy $ksrc/$f" >&2; exit 1; }
done
edit_tree "$edits" "$tmp/tree"
# A make of its own: not the jobs of the make check that may run this.
if [ -n "$unbuildable" ]; then
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$top" O="$tmp/build" \
		KSRC="$tmp/tree" GUEST="$guest" HOST="$host" $prog >"$tmp/make.log" 2>&1 &&
		die "the tree with $(basename "$edits") built"
	grep -v '^make\(\[[0-9]*\]\)\{0,1\}: ' "$tmp/make.log" >"$tmp/said"
	[ "$(wc -l <"$tmp/said")" -eq 1 ] && grep -q "KSRC=$tmp/tree: " "$tmp/said" ||
		die "the failed build said more than one line naming what is missing: $(head -c 2000 "$tmp/make.log")"
	sed "s|$tmp/tree|KSRC|g; s|$tmp/build|O|g" "$tmp/said"
	exit 0
fi
if ! env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -j2 -C "$top" O="$tmp/build" \
	KSRC="$tmp/tree" GUEST="$guest" HOST="$host" $prog >"$tmp/make.log" 2>&1; then
	echo "ksrc-patched: the build of $prog with $(basename "$edits") failed:" >&2
	tail -n 20 "$tmp/make.log" >&2
	exit 1
fi
echo "ksrc-patched: $ksrc with $(basename "$edits"), $guest/$host: $*"
cd "$tmp/build" && "$@"
