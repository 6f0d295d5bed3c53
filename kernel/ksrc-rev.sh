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
# A DEST that holds an earlier export keeps each file whose bytes are the
# same, its time too: a build from DEST (make regress, make series, in the
# same folder again) then compiles only what the revision changed.  Each
# file's bytes are told by git's hash of them, REV's from git ls-tree and
# DEST's from git hash-object, so only a file that changed is read from
# TREE.  Any other file of DEST goes.
mkdir -p "$dest" || die "cannot create $dest"
mapfile -t files < <(sed -n 's/^\(guest\|host\) //p' "$here/ksrc-files")
declare -A want=() have=()
if [ "$commit" = worktree ]; then
	for f in "${files[@]}"; do
		[ -f "$top/$f" ] || die "$rev has no $f"
	done
	mapfile -t hash < <(cd "$top" && git hash-object --no-filters -- "${files[@]}")
	for i in "${!files[@]}"; do
		want[${files[i]}]=${hash[i]:-}
	done
else
	while IFS=$'\t' read -r w f; do
		want[$f]=${w##* }
	done < <(git -C "$top" ls-tree --full-tree "$commit" -- "${files[@]}")
fi
there=()
for f in "${files[@]}"; do
	[ -n "${want[$f]:-}" ] || die "$rev has no $f"
	[ -f "$dest/$f" ] && there+=("$f")
done
if [ ${#there[@]} -gt 0 ]; then
	mapfile -t hash < <(cd "$dest" && git hash-object --no-filters -- "${there[@]}")
	for i in "${!there[@]}"; do
		have[${there[i]}]=${hash[i]:-}
	done
fi
for f in "${files[@]}"; do
	[ "${have[$f]:-}" != "${want[$f]}" ] || continue
	mkdir -p "$dest/$(dirname "$f")" || exit 1
	if [ "$commit" = worktree ]; then
		cp "$top/$f" "$dest/$f"
	else
		git -C "$top" show "$commit:$f" >"$dest/$f"
	fi || die "cannot write $dest/$f"
done
(cd "$dest" && find . -type f ! -name .rig-describe) | sed 's#^\./##' |
	grep -vxF -f <(printf '%s\n' "${files[@]}") | while IFS= read -r f; do rm -f "$dest/$f"; done
d=${describe:-$commit}
[ "$(cat "$dest/.rig-describe" 2>/dev/null)" = "$d" ] ||
	echo "$d" >"$dest/.rig-describe" || die "cannot write $dest/.rig-describe"
echo "$commit"
