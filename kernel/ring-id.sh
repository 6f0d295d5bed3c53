#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel/ring-id.sh OUT GUEST_TREE GUEST_FILES HOST_TREE HOST_FILES: what
# names the ring code each side of a build compiles from its tree (the
# rig's source tree or a kernel tree; FILES are paths relative to TREE,
# separated by blanks, one argument), written to OUT as the initializers of
# struct rig_ring_src (harness/cli.c, compiled with -include OUT):
#   #define RIG_GUEST_SRC { "TREE", "VERSION", "DESCRIBE", "HASH" }
#   #define RIG_HOST_SRC { "TREE", "VERSION", "DESCRIBE", "HASH" }
# VERSION is a kernel tree's, from its top Makefile (VERSION.PATCHLEVEL.
# SUBLEVEL and EXTRAVERSION: 7.3.4), else "".  DESCRIBE is TREE/.rig-describe when there is one (ab/rev-build.sh and
# kernel/ksrc-rev.sh write it into the trees they export from git), else
# `git describe --always --dirty` when TREE is the top of a git work tree,
# else "". HASH is the first 12 hex digits of a sha256 over the FILES and
# their names, so two trees or revisions whose ring code differs never
# give the same line.  OUT is rewritten only when that changes (harness/
# cli.o depends on it).  Every make runs this, since git describe changes
# with no file make sees: one call for both sides, git asked once when
# they share a tree.
set -u
usage() {
	echo "usage: kernel/ring-id.sh OUT GUEST_TREE GUEST_FILES HOST_TREE HOST_FILES" >&2
	exit 2
}
[ $# -eq 5 ] || usage
out=$1
shift
start=$PWD

# C string contents: a backslash or a double quote escaped (sed only when
# there is one).
c() {
	case $1 in
	*[\\\"]*) printf '%s' "$1" | sed 's/[\\"]/\\&/g' ;;
	*) printf '%s' "$1" ;;
	esac
}

# side NAME TREE FILES: append NAME's #define line to $lines.
lines=
described=
side() {
	name=$1
	tree=$2
	files=$3
	cd "$tree" || exit 1
	if [ "$tree" != "$described" ]; then
		version=$(awk -F' *= *' '
			$1 == "VERSION" { v = $2 } $1 == "PATCHLEVEL" { p = $2 }
			$1 == "SUBLEVEL" { s = $2 } $1 == "EXTRAVERSION" { e = $2 }
			/^NAME/ { exit }
			END { if (v != "") printf "%s.%s.%s%s", v, p, s, e }' Makefile 2>/dev/null)
		describe=
		if [ -f .rig-describe ]; then
			IFS= read -r describe <.rig-describe || :
		elif top=$(git rev-parse --show-toplevel 2>/dev/null) &&
		     [ "$top" = "$(pwd -P)" ]; then
			describe=$(git describe --always --dirty 2>/dev/null)
		fi
		described=$tree
	fi
	# Each file is read or the build stops: a hash of files that were
	# never read would name code nobody compiled.
	set -f
	# shellcheck disable=SC2086 # FILES is a list of words
	sums=$(sha256sum -- $files) || exit 1
	set +f
	hash=$(printf '%s\n' "$sums" | sha256sum)
	lines="$lines$(printf '#define RIG_%s_SRC { "%s", "%s", "%s", "%.12s" }' \
		"$name" "$(c "$tree")" "$(c "$version")" "$(c "$describe")" "$hash")
"
	cd "$start" || exit 1
}

side GUEST "$1" "$2"
side HOST "$3" "$4"
old=
if [ -f "$out" ]; then
	while IFS= read -r l; do
		old="$old$l
"
	done <"$out"
fi
[ "$old" = "$lines" ] || printf '%s' "$lines" >"$out"
