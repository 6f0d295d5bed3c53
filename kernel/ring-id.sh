#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kernel/ring-id.sh TREE FILE...: what names the ring code a build compiles
# from TREE (the rig's source tree or a kernel tree), as a C initializer
# for struct rig_ring_src (harness/cli.c):
#   { "TREE", "DESCRIBE", "HASH" }
# DESCRIBE is TREE/.rig-describe when there is one (ab/rev-build.sh and
# kernel/ksrc-rev.sh write it into the trees they export from git), else
# `git describe --always --dirty` when TREE is the top of a git work tree,
# else "". HASH is the first 12 hex digits of a sha256 over the FILEs
# (paths relative to TREE) and their names, so two trees or revisions
# whose ring code differs never give the same line.
set -u
tree=$1
shift
cd "$tree" || exit 1
describe=
if [ -f .rig-describe ]; then
	describe=$(head -n 1 .rig-describe)
elif top=$(git rev-parse --show-toplevel 2>/dev/null) &&
     [ "$top" = "$(pwd -P)" ]; then
	describe=$(git describe --always --dirty 2>/dev/null)
fi
# Each file is read or the build stops: a hash of files that were never
# read would name code nobody compiled.
sums=$(sha256sum -- "$@") || exit 1
hash=$(printf '%s\n' "$sums" | sha256sum | cut -c1-12)
# C string contents: a backslash or a double quote escaped.
c() { printf '%s' "$1" | sed 's/[\\"]/\\&/g'; }
printf '{ "%s", "%s", "%s" }\n' "$(c "$tree")" "$(c "$describe")" "$hash"
