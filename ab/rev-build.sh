#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ab/rev-build.sh DEST REV TARGET...: export revision REV of this
# repository ("worktree": its files as they are now, uncommitted changes
# included) into DEST, fresh, and build TARGETs there with CC and CFLAGS
# from the environment when set.  The log goes to DEST.log.  DEST/
# .rig-describe names the revision for the programs' --version
# (kernel/ring-id.sh).  For make ab, make regress and make series.
# Exit status: 0 built, 3 the export or the build failed (the log on stderr).
set -u
[ $# -ge 3 ] || { echo "usage: ab/rev-build.sh DEST REV TARGET..." >&2; exit 2; }
dest=$1 rev=$2
shift 2
DIE_PREFIX=rev-build DIE_STATUS=3
. "$(dirname "$0")/../shlib/die.sh"
top=$(git -C "$(dirname "$0")" rev-parse --show-toplevel) || die "not in a git repository"
rm -rf "$dest" && mkdir -p "$dest" || die "cannot create $dest"
if [ "$rev" = worktree ]; then
	(cd "$top" && git ls-files -z --cached --others --exclude-standard |
		tar --null -T - --ignore-failed-read -cf -) |
		tar -xf - -C "$dest"
else
	git -C "$top" archive "$rev" | tar -xf - -C "$dest"
fi || die "cannot export $rev into $dest"
if [ "$rev" = worktree ]; then
	git -C "$top" describe --always --dirty
else
	git -C "$top" describe --always "$rev"
fi >"$dest/.rig-describe" 2>/dev/null || rm -f "$dest/.rig-describe"
set -- -C "$dest" "$@"
[ -n "${CC:-}" ] && set -- "$@" "CC=$CC"
[ -n "${CFLAGS+set}" ] && set -- "$@" "CFLAGS=$CFLAGS"
# A make that runs us (make check O=build-asan ...) must not hand its
# command-line variables (O= above all) on to these builds.
if ! MAKEFLAGS='' MAKELEVEL='' make -j2 "$@" >"$dest.log" 2>&1; then
	cat "$dest.log" >&2
	die "building in $dest failed (log: $dest.log)"
fi
