#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Extract from a kernel source tarball only what the rig's kernel-tree mode
# compiles (the ring code and the headers that declare its API), so that
# `make KSRC=<dest>` can build against it.  Nothing here is committed.
#
#   kernel/fetch-ksrc.sh [TARBALL [DEST]]
#
# TARBALL defaults to Debian's /usr/src/linux-source-6.12.tar.xz (package
# linux-source-6.12); DEST defaults to build-ksrc/<tarball's top folder>.
# A /usr/src/linux-source-X.Y.tar.xz that is not installed comes from its
# package in another suite of the machine's Debian mirror
# (kernel/debian-fetch.sh), unpacked under build-apt/.
# Prints DEST on stdout.  Running it again on the same tarball does nothing.
set -eu

tarball=${1:-/usr/src/linux-source-6.12.tar.xz}
# Debian's linux-source-X.Y, not installed: its package from another suite
# of the machine's mirror (kernel/debian-fetch.sh: linux-source-7.3 is in
# trixie-backports), the tarball taken out of it, nothing installed.
if [ ! -r "$tarball" ]; then
	case $tarball in
	/usr/src/linux-source-*.tar.xz)
		pkg=$(basename "$tarball" .tar.xz)
		here=$(dirname "$0")
		src=$here/../build-apt/src
		if [ ! -r "$src/$pkg.tar.xz" ]; then
			if ! deb=$("$here/debian-fetch.sh" download "$here/../build-apt/debs" "$pkg"); then
				echo "fetch-ksrc: $tarball is not installed (apt-get install $pkg), and $deb" >&2
				exit 1
			fi
			echo "fetch-ksrc: taking $pkg.tar.xz out of $(basename "$deb")" >&2
			mkdir -p "$src"
			dpkg-deb --fsys-tarfile "$deb" |
				tar -xf - -O "./usr/src/$pkg.tar.xz" > "$src/$pkg.tar.xz.tmp"
			mv "$src/$pkg.tar.xz.tmp" "$src/$pkg.tar.xz"
		fi
		tarball=$src/$pkg.tar.xz ;;
	*)
		echo "fetch-ksrc: cannot read $tarball" >&2
		exit 1 ;;
	esac
fi

case $tarball in
*.tar.xz)	unpack="xz -dc" ;;
*.tar.gz|*.tgz)	unpack="gzip -dc" ;;
*.tar.bz2)	unpack="bzip2 -dc" ;;
*.tar.zst)	unpack="zstd -dc" ;;
*.tar)		unpack="cat" ;;
*)		echo "fetch-ksrc: don't know how to unpack $tarball" >&2; exit 1 ;;
esac

# The tarball's top folder (linux-source-6.12/, linux-6.13/, ...).
top=$($unpack "$tarball" | tar -tf - 2>/dev/null | head -n 1 | cut -d/ -f1) || true
if [ -z "$top" ]; then
	echo "fetch-ksrc: $tarball looks empty" >&2
	exit 1
fi
dest=${2:-build-ksrc/$top}

# One extraction at a time into DEST (make check's checks may ask at once):
# a second run waits, then finds the stamp.
mkdir -p "$(dirname "$dest")"
exec 9>"$dest.lock"
flock 9

stamp="$dest/.rig-extracted"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$(ls -l "$tarball")" ]; then
	echo "$dest"
	exit 0
fi

# Only what kernel-tree mode reads: the top Makefile (for the version), the
# ring code, the vhost core with its test device (virtio_test --vhost:
# drivers/vhost/vhost.[ch], iotlb.c, test.[ch]) and vhost-net
# (vhost_net_test: drivers/vhost/net.c), and the headers.  Extracted beside DEST, then moved into place,
# so an interrupted run leaves nothing half-made.
tmp="$dest.tmp.$$"
rm -rf "$tmp"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
echo "fetch-ksrc: extracting the ring code from $tarball into $dest" >&2
$unpack "$tarball" | tar -xf - -C "$tmp" --strip-components=1 \
	--wildcards --no-wildcards-match-slash \
	"$top/Makefile" \
	"$top/drivers/virtio/*" \
	"$top/drivers/vhost/*" \
	"$top/include/linux/*" \
	"$top/include/uapi/linux/*"
for f in drivers/virtio/virtio_ring.c drivers/vhost/vringh.c \
	 include/linux/virtio_ring.h include/linux/vringh.h \
	 drivers/vhost/vhost.c drivers/vhost/vhost.h drivers/vhost/iotlb.c \
	 drivers/vhost/test.c drivers/vhost/test.h include/linux/vhost_iotlb.h \
	 include/uapi/linux/vhost.h include/uapi/linux/vhost_types.h \
	 drivers/vhost/net.c include/uapi/linux/virtio_net.h; do
	if [ ! -f "$tmp/$f" ]; then
		echo "fetch-ksrc: $tarball has no $f" >&2
		exit 1
	fi
done
ls -l "$tarball" > "$tmp/.rig-extracted"
rm -rf "$dest"
mv "$tmp" "$dest"
trap - EXIT
echo "$dest"
