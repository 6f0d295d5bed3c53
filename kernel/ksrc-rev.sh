#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel/ksrc-rev.sh TREE REV DEST: the files the rig reads from a kernel
# tree (kernel/ksrc-files), as they are in git revision REV of TREE, into
# DEST, which then works as KSRC=DEST.  REV "worktree" takes them as they
# are in TREE's work tree now.  Only `git show REV:PATH` reads TREE: its
# work tree, index, branches and worktrees are never touched, and a large
# tree costs as much as the few files.  DEST/.rig-describe gets `git
# describe` of REV (what --version names the build by, kernel/ring-id.sh).
# Prints the commit REV names (or "worktree").  Exit status: 0, 1 when REV
# names no commit or lacks a file, 2 on a usage error.
set -u
[ $# -eq 3 ] || { echo "usage: kernel/ksrc-rev.sh TREE REV DEST" >&2; exit 2; }
tree=$1 rev=$2 dest=$3
here=$(cd "$(dirname "$0")" && pwd) || exit 1
DIE_PREFIX=ksrc-rev DIE_STATUS=1
. "$here/../shlib/die.sh"
top=$(git -C "$tree" rev-parse --show-toplevel 2>/dev/null) ||
	die "$tree is not a git work tree (for two trees without git: KSRC_BASE=DIR KSRC=DIR)"
if [ "$rev" = worktree ]; then
	commit=worktree
	describe=$(git -C "$top" describe --always --dirty 2>/dev/null)
else
	commit=$(git -C "$top" rev-parse --verify --quiet "$rev^{commit}") ||
		die "'$rev' names no commit of $top"
	describe=$(git -C "$top" describe --always "$commit" 2>/dev/null)
fi
rm -rf "$dest" && mkdir -p "$dest" || die "cannot create $dest"
sed -n 's/^\(guest\|host\) //p' "$here/ksrc-files" | while read -r f; do
	mkdir -p "$dest/$(dirname "$f")" || exit 1
	if [ "$commit" = worktree ]; then
		cp "$top/$f" "$dest/$f"
	else
		git -C "$top" show "$commit:$f" >"$dest/$f"
	fi || { echo "ksrc-rev: $rev has no $f" >&2; exit 1; }
done || exit 1
echo "${describe:-$commit}" >"$dest/.rig-describe"
echo "$commit"
