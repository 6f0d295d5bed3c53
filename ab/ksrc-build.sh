#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ab/ksrc-build.sh OUT KSRC GUEST/HOST TARGET...: build TARGETs of this
# repository's programs against the kernel tree KSRC with that pairing, in
# the folder OUT (make O=OUT KSRC=KSRC GUEST=.. HOST=..), with CC and
# CFLAGS from the environment when set.  The log goes to OUT.log.  For
# make regress and make series (ab/regress.sh, ab/series.sh).
# Exit status: 0 built, 3 the build failed (its log's last lines on stderr).
set -u
[ $# -ge 4 ] || { echo "usage: ab/ksrc-build.sh OUT KSRC GUEST/HOST TARGET..." >&2; exit 2; }
out=$1 ksrc=$2 guest=${3%/*} host=${3#*/}
shift 3
top=$(cd "$(dirname "$0")/.." && pwd) || exit 3
mkdir -p "$out" || exit 3
set -- -C "$top" O="$out" KSRC="$ksrc" GUEST="$guest" HOST="$host" "$@"
[ -n "${CC:-}" ] && set -- "$@" "CC=$CC"
[ -n "${CFLAGS+set}" ] && set -- "$@" "CFLAGS=$CFLAGS"
# A make that runs us must not hand its command-line variables on.
if ! MAKEFLAGS='' MAKELEVEL='' make -j2 "$@" >"$out.log" 2>&1; then
	tail -n 20 "$out.log" | sed 's/^/  | /' >&2
	echo "ksrc-build: building in $out failed (log: $out.log)" >&2
	exit 3
fi
