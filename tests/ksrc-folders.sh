#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/ksrc-folders.sh KSRC: each kernel tree builds in folders of its
# own (kernel/ksrc.mk, kernel/ksrc-key.sh), so make KSRC= for two trees in
# turn reuses neither tree's objects for the other and rebuilds neither.
# A second tree is made of KSRC's ring files (kernel/ksrc-files) copied to
# a temporary folder; vringh_test (GUEST=kernel HOST=kernel) is built for
# KSRC, for the copy, for KSRC again and for the copy again.  Checked: the
# copy built in a folder other than KSRC's, each folder's .rig-config
# names its own tree, the builds back to a tree compiled and linked
# nothing there (make's output and the files' times), and no folder's
# dependency files name the other tree.  Costs one build of vringh_test
# (the copy's, about 20 s); KSRC's is make check KSRC='s own.  The copy's
# folder is removed.  KTAP on stdout (tests/lib/result.sh).
#
# Usage: tests/ksrc-folders.sh KSRC   (from anywhere)
set -u
if [ $# -ne 1 ] || [ ! -d "$1" ]; then
	echo "usage: tests/ksrc-folders.sh KSRC" >&2
	exit 2
fi
ksrc=$(cd "$1" && pwd)
cd "$(dirname "$0")/.." || exit 2
top=$PWD
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rig-ksrc-folders.XXXXXX") || exit 2
other=$tmp/other-tree
dir_b=
trap 'rm -rf "$tmp" ${dir_b:+"$top/$dir_b"}' EXIT
. shlib/signals.sh
failed=0
CHECK_PREFIX='ksrc folders/' SHOW_ON_FAIL="$tmp/out"
. tests/lib/result.sh

for f in Makefile $(sed -n 's/^\(guest\|host\) //p' kernel/ksrc-files); do
	[ -f "$ksrc/$f" ] || continue
	mkdir -p "$other/$(dirname "$f")" && cp "$ksrc/$f" "$other/$f" || exit 2
done
dir_a=build-kernel/$(kernel/ksrc-key.sh "$ksrc") || exit 2
dir_b=build-kernel/$(kernel/ksrc-key.sh "$other") || exit 2

# The CC, CFLAGS and LDFLAGS KSRC's folder was built with (make check
# KSRC= CC=clang): the same for every build here, so that none rebuilds
# that folder under the checks running its programs.
flags=()
if [ -f "$dir_a/.rig-config" ]; then
	cfg=$(cat "$dir_a/.rig-config")
	flags=("CC=$(sed -n 's/.* CC=\(.*\) CFLAGS=.*/\1/p' <<<"$cfg")"
	       "CFLAGS=$(sed -n 's/.* CFLAGS=\(.*\) LDFLAGS=.*/\1/p' <<<"$cfg")"
	       "LDFLAGS=$(sed -n 's/.* LDFLAGS=\(.*\)$/\1/p' <<<"$cfg")")
fi

# build TREE: make vringh_test for TREE, kernel/kernel, in a make of its
# own (not make check's jobs); what it printed in $tmp/out.
build() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL nice -n 5 make -j2 KSRC="$1" \
		GUEST=kernel HOST=kernel "${flags[@]}" vringh_test >"$tmp/out" 2>&1
}
# built_nothing DIR: the last build compiled and linked nothing, and
# changed no object or program in DIR since $tmp/mark.
built_nothing() {
	! grep -E '^  (CC|LD) ' "$tmp/out" &&
		[ -z "$(find "$1" -type f \( -name '*.o' -o -perm -u+x \) -newer "$tmp/mark" -print -quit)" ]
}
# names_tree DIR TREE: DIR's .rig-config names TREE, and no dependency
# file there names the other tree's ($3).
names_tree() {
	grep -q "^KSRC=$2 " "$1/.rig-config" && ! grep -rlqF --include='*.d' "$3/" "$1"
}

build "$ksrc" && [ -x "$dir_a/vringh_test" ]
pass_if "make KSRC=TREE builds in build-kernel/\$(kernel/ksrc-key.sh TREE)"
: >"$tmp/mark"
build "$other" && [ "$dir_a" != "$dir_b" ] && [ -x "$dir_b/vringh_test" ]
pass_if "a second tree builds in a folder of its own"
build "$ksrc" && built_nothing "$dir_a"
pass_if "KSRC= back to the first tree rebuilds nothing of it"
: >"$tmp/mark"
build "$other" && built_nothing "$dir_b"
pass_if "and back to the second rebuilds nothing of it"
names_tree "$dir_a" "$ksrc" "$other" && names_tree "$dir_b" "$other" "$ksrc"
pass_if "no folder holds objects of both trees"
ktap_finished
