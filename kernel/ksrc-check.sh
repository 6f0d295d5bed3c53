#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel/ksrc-check.sh KSRC SIDES [STAMP]: can the rig build a kernel tree's ring
# code at all?  Run before anything is compiled (kernel/ksrc-build.mk), so a
# tree whose files or headers the rig does not know fails with one line
# naming what is missing, instead of a cascade of compiler errors.  SIDES is
# "guest", "host" or "guest host": the sides taken from the tree.
#
# Checked: every file kernel/ksrc-files lists for those sides is in the
# tree (the vhost core's are optional, as ksrc-build.mk builds without
# them), and every header those files include, and the tree's own headers
# they reach include in turn, is one the build finds: the tree's (an API
# header kernel/ksrc-build.mk wraps, or one beside the file), a shim of
# the rig's (linux/, asm/, uapi/, xen/, net/) or the C library's.  Prints
# nothing and exits 0 when all is there; else one line on stdout and
# exit 1.  What the compiler finds later (a primitive a shim lacks) is
# kernel/ksrc-cc.sh's one line.  STAMP, when given, records a tree found
# buildable: while no file of the tree's or the rig's shims is newer, the
# next call for the same KSRC and SIDES checks nothing again.
set -u
ksrc=$1 sides=$2 stamp=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
dirs="$ksrc/drivers/virtio $ksrc/drivers/vhost $ksrc/include $top/linux $top/asm $top/uapi $top/xen $top/net $here/ksrc-files $0"
if [ -n "$stamp" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$ksrc $sides" ] &&
   [ -z "$(find $dirs -newer "$stamp" -print -quit 2>/dev/null)" ]; then
	exit 0
fi

# The API headers the build takes from the tree (ksrc-build.mk's wrappers).
declare -A api=()
for s in $sides; do
	case $s in
	guest) api[linux/virtio.h]=1 api[linux/virtio_ring.h]=1 ;;
	host) api[linux/vringh.h]=1 api[linux/vhost_iotlb.h]=1
	      api[linux/vhost.h]=uapi/linux/vhost.h
	      api[linux/vhost_types.h]=uapi/linux/vhost_types.h ;;
	esac
done

sysdirs=$(echo | ${CC:-cc} -xc -E -v - 2>&1 |
	  sed -n '/^#include <...> search starts here:/,/^End of search list/p' |
	  sed -n 's/^ \(\/.*\)/\1/p')

missing() {
	echo "KSRC=$ksrc: $*"
	exit 1
}

declare -A seen=()
# scan FILE: every header FILE includes must be found.
scan() {
	local file=$1 name dir inc
	[ -z "${seen[$file]:-}" ] || return 0
	seen[$file]=1
	dir=$(dirname "$file")
	while read -r kind name; do
		if [ "$kind" = local ]; then
			[ -f "$dir/$name" ] ||
				missing "${file#"$ksrc"/} includes \"$name\", which is not beside it"
			scan "$dir/$name"
			continue
		fi
		inc=${api[$name]:-}
		if [ -n "$inc" ]; then
			[ "$inc" = 1 ] && inc=include/$name || inc=include/$inc
			[ -f "$ksrc/$inc" ] ||
				missing "the tree has no $inc (${file#"$ksrc"/} includes <$name>)"
			scan "$ksrc/$inc"
			continue
		fi
		[ -f "$top/$name" ] && continue
		for d in $sysdirs; do
			[ -f "$d/$name" ] && continue 2
		done
		missing "${file#"$ksrc"/} includes <$name>, which the rig has no shim for: add $name"
	done < <(sed -n -e 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*<\([^>]*\)>.*/system \1/p' \
			-e 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/local \1/p' "$file")
}

for s in $sides; do
	while read -r side f; do
		[ "$side" = "$s" ] || continue
		if [ ! -f "$ksrc/$f" ]; then
			case $f in
			drivers/vhost/vringh.c | drivers/virtio/virtio_ring.c | include/linux/virtio*.h | include/linux/vringh.h)
				missing "the tree has no $f (the $side side's ring code; kernel/ksrc-files)" ;;
			esac
			continue	# the vhost core: built only when the tree has it
		fi
		case $f in
		*.c) scan "$ksrc/$f" ;;
		esac
	done < <(grep -v '^#' "$here/ksrc-files")
done
if [ -n "$stamp" ]; then
	mkdir -p "$(dirname "$stamp")"
	echo "$ksrc $sides" > "$stamp"
fi
exit 0
