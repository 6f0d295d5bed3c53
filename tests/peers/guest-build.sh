#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the test guest: Debian's 6.1 cloud kernel and a busybox initramfs
# whose /init loads the virtio modules, runs guest_io on the vhost-user
# devices and prints one RIG-RESULT line, then powers off.
#
# Usage: tests/peers/guest-build.sh OUTDIR
#   OUTDIR/deb/      the kernel .deb (apt-get download, kept as a cache)
#   OUTDIR/vmlinuz   the kernel
#   OUTDIR/initramfs.gz
# Exit 77 with the reason on the first line when a piece is missing.
#
# GUEST_KERNEL=FILE (make check GUEST_KERNEL=FILE): the user's kernel
# instead of the download: a linux-image .deb (its vmlinuz and virtio
# modules, as the download's), or a kernel image (bzImage, vmlinuz) with
# the virtio drivers built in (no modules loaded).  A FILE that is not
# there, or a .deb without the modules, exits 1: the user asked for it.
set -eu
SRC=$(cd "$(dirname "$0")" && pwd)
OUT=${1:?usage: guest-build.sh OUTDIR}
CC=${CC:-cc}
mkdir -p "$OUT/deb"
OUT=$(cd "$OUT" && pwd)

skip() { echo "$1"; exit 77; }
command -v busybox >/dev/null || skip "no busybox (apt-get install busybox-static)"
command -v cpio >/dev/null || skip "no cpio (apt-get install cpio)"
busybox --list | grep -qx insmod || skip "busybox has no insmod (needs busybox-static)"
# ldd refuses a static program.
! ldd "$(command -v busybox)" >/dev/null 2>&1 ||
	skip "busybox is not static (apt-get install busybox-static)"

deb='' image=''
if [ -n "${GUEST_KERNEL:-}" ]; then
	[ -f "$GUEST_KERNEL" ] || { echo "guest: GUEST_KERNEL=$GUEST_KERNEL is not a file"; exit 1; }
	case $GUEST_KERNEL in
	*.deb) deb=$(realpath "$GUEST_KERNEL") ;;
	*) image=$(realpath "$GUEST_KERNEL") ;;
	esac
else
	deb=$(ls "$OUT"/deb/linux-image-6.1.0-*-cloud-amd64_*.deb 2>/dev/null | sort -V | tail -n 1)
fi
if [ -z "$deb" ] && [ -z "$image" ]; then
	pkg=$(apt-cache pkgnames linux-image-6.1.0- 2>/dev/null |
	      grep -E '^linux-image-6\.1\.0-[0-9]+-cloud-amd64$' | sort -V | tail -n 1)
	[ -n "$pkg" ] || skip "no linux-image-6.1.0-*-cloud-amd64 package known to apt"
	(cd "$OUT/deb" && apt-get download "$pkg" >/dev/null 2>&1) ||
		skip "apt-get download $pkg failed (offline?)"
	deb=$(ls "$OUT"/deb/linux-image-6.1.0-*-cloud-amd64_*.deb | sort -V | tail -n 1)
fi

# Up to date?  (Several test runs may share OUT: rebuild only when needed,
# and replace the files atomically.)  OUT/kernel names the kernel it was
# built from, so another kernel (GUEST_KERNEL) rebuilds it.
kernel=${deb:-$image}
kernel_id=$(ls -l "$kernel")
fresh=1
[ "$(cat "$OUT/kernel" 2>/dev/null)" = "$kernel_id" ] || fresh=0
for f in "$kernel" "$0" "$SRC/guest_io.c" "$SRC/guest-init.sh"; do
	[ "$OUT/initramfs.gz" -nt "$f" ] && [ "$OUT/vmlinuz" -nt "$f" ] || fresh=0
done
if [ $fresh = 1 ]; then
	echo "guest: $(basename "$kernel") in $OUT (up to date)"
	exit 0
fi
K=$OUT/kroot.$$
R=$OUT/initrd.$$
trap 'rm -rf "$K" "$R"' EXIT
# A signal is an exit too (bash runs no EXIT trap when a signal kills it).
. "$(dirname "$0")/../lib/signals.sh"
mkdir -p "$K"
if [ -n "$deb" ]; then
	dpkg-deb -x "$deb" "$K" || { echo "guest: dpkg-deb cannot unpack $deb"; exit 1; }
fi
mods=$(echo "$K"/lib/modules/*/kernel)

mkdir -p "$R"/bin "$R"/proc "$R"/sys "$R"/dev "$R"/tmp "$R"/lib/mod
cp "$(command -v busybox)" "$R/bin/busybox"
for a in sh mount insmod cat echo sleep poweroff grep date tr readlink; do
	ln -s busybox "$R/bin/$a"
done
# Load order from modinfo's depends (the .deb has no modules.dep).
# A kernel image alone has them built in: nothing to load.
: >"$R/lib/mod/order"
for m in drivers/virtio/virtio_ring drivers/virtio/virtio drivers/virtio/virtio_pci_modern_dev \
	 drivers/virtio/virtio_pci_legacy_dev drivers/virtio/virtio_pci drivers/block/virtio_blk \
	 net/core/failover drivers/net/net_failover drivers/net/virtio_net; do
	[ -n "$deb" ] || break
	cp "$mods/$m.ko" "$R/lib/mod/" || { echo "guest: $(basename "$deb") has no $m.ko"; exit 1; }
	basename "$m" >>"$R/lib/mod/order"
done
$CC -static -O2 -pthread -o "$R/bin/guest_io" "$SRC/guest_io.c" ||
	skip "cannot link a static guest_io (libc6-dev's libc.a missing?)"
cp "$SRC/guest-init.sh" "$R/init"
chmod +x "$R/init"
(cd "$R" && find . | cpio -o -H newc --quiet | gzip -1 >"$OUT/initramfs.gz.$$")
if [ -n "$deb" ]; then
	cp "$K"/boot/vmlinuz-* "$OUT/vmlinuz.$$" || { echo "guest: $(basename "$deb") has no /boot/vmlinuz-*"; exit 1; }
else
	cp "$image" "$OUT/vmlinuz.$$"
fi
mv -f "$OUT/vmlinuz.$$" "$OUT/vmlinuz"
mv -f "$OUT/initramfs.gz.$$" "$OUT/initramfs.gz"
echo "$kernel_id" >"$OUT/kernel"
echo "guest: $(basename "$kernel") in $OUT"
