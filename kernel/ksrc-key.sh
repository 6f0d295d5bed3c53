#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kernel/ksrc-key.sh TREE: the name of TREE's own build folders
# (kernel/ksrc.mk: build-kernel/NAME/, build-kernel-rig/NAME/, ...), so
# that no folder ever holds two trees' objects and switching KSRC between
# two trees rebuilds neither.  NAME is the tree folder's own name and 8
# hex digits of a hash of its resolved path and the version its Makefile
# gives (VERSION, PATCHLEVEL, SUBLEVEL, EXTRAVERSION): two trees of one
# name, a tree reached through a link, or one that moved to another
# version each get their own.  Prints NAME; exit 1 if TREE is no folder.
set -eu
if [ $# -ne 1 ]; then
	echo "usage: kernel/ksrc-key.sh TREE" >&2
	exit 2
fi
dir=$(cd -- "$1" 2>/dev/null && pwd -P) ||
	{ echo "ksrc-key: $1: no such folder" >&2; exit 1; }
version=$(sed -n 's/^\(VERSION\|PATCHLEVEL\|SUBLEVEL\|EXTRAVERSION\) *= *//p' \
	"$dir/Makefile" 2>/dev/null | head -n 4 | tr '\n' ' ')
hash=$(printf '%s\n%s\n' "$dir" "$version" | sha256sum | cut -c1-8)
name=$(basename -- "$dir" | tr -c 'A-Za-z0-9._+\n-' '_')
echo "$name-$hash"
