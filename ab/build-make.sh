#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ab/build-make.sh DIR [MAKE_ARGUMENT...]: make in the build folder DIR as
# it was built, with the kernel tree, pairing, CC, CFLAGS and LDFLAGS its
# .rig-config records (rules.mk): a folder with a Makefile of its own is a
# source tree (make regress's export of a revision, or this repository),
# any other an output folder of this repository (make O=DIR).  For
# ab/src-index.sh and ab/layouts.sh, which ask make how it compiles and
# links there (make -n).  Exit status: make's, 2 if DIR is no build folder.
set -u
[ $# -ge 1 ] || { echo "usage: ab/build-make.sh DIR [MAKE_ARGUMENT...]" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd) || exit 2
d=$1
shift
cfg=$(cat "$d/.rig-config" 2>/dev/null) ||
	{ echo "build-make: $d/.rig-config is missing: not a build folder" >&2; exit 2; }
field() {
	printf '%s\n' "$cfg" | sed -n "s/$1/\\1/p"
}
ksrc=$(field '^KSRC=\(.*\) GUEST=.*')
guest=$(field '.* GUEST=\([a-z]*\) .*')
host=$(field '.* HOST=\([a-z]*\) .*')
cc=$(field '.* CC=\(.*\) CFLAGS=.*')
cflags=$(field '.* CFLAGS=\(.*\) LDFLAGS=.*')
ldflags=$(field '.* LDFLAGS=\(.*\)$')
if [ -f "$d/Makefile" ]; then
	set -- -C "$d" "$@"
else
	set -- -C "$d" -f "$top/Makefile" srctree="$top" O=. KSRC="$ksrc" \
		GUEST="$guest" HOST="$host" "$@"
fi
# A make that runs us must not hand its command-line variables on.
MAKEFLAGS='' MAKELEVEL='' exec make --no-print-directory "$@" CC="$cc" \
	CFLAGS="$cflags" LDFLAGS="$ldflags"
