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

deb=$(ls "$OUT"/deb/linux-image-6.1.0-*-cloud-amd64_*.deb 2>/dev/null | sort -V | tail -n 1)
if [ -z "$deb" ]; then
	pkg=$(apt-cache pkgnames linux-image-6.1.0- 2>/dev/null |
	      grep -E '^linux-image-6\.1\.0-[0-9]+-cloud-amd64$' | sort -V | tail -n 1)
	[ -n "$pkg" ] || skip "no linux-image-6.1.0-*-cloud-amd64 package known to apt"
	(cd "$OUT/deb" && apt-get download "$pkg" >/dev/null 2>&1) ||
		skip "apt-get download $pkg failed (offline?)"
	deb=$(ls "$OUT"/deb/linux-image-6.1.0-*-cloud-amd64_*.deb | sort -V | tail -n 1)
fi

# Up to date?  (Several test runs may share OUT: rebuild only when needed,
# and replace the files atomically.)
fresh=1
for f in "$deb" "$0" "$SRC/guest_io.c" "$SRC/guest-init.sh"; do
	[ "$OUT/initramfs.gz" -nt "$f" ] && [ "$OUT/vmlinuz" -nt "$f" ] || fresh=0
done
if [ $fresh = 1 ]; then
	echo "guest: $(basename "$deb") in $OUT (up to date)"
	exit 0
fi
K=$OUT/kroot.$$
R=$OUT/initrd.$$
trap 'rm -rf "$K" "$R"' EXIT
# A signal is an exit too (bash runs no EXIT trap when a signal kills it).
trap 'exit 129' HUP; trap 'exit 130' INT; trap 'exit 143' TERM
dpkg-deb -x "$deb" "$K"
mods=$(echo "$K"/lib/modules/*/kernel)

mkdir -p "$R"/bin "$R"/proc "$R"/sys "$R"/dev "$R"/tmp "$R"/lib/mod
cp "$(command -v busybox)" "$R/bin/busybox"
for a in sh mount insmod cat echo sleep poweroff grep date tr; do
	ln -s busybox "$R/bin/$a"
done
# Load order from modinfo's depends (the .deb has no modules.dep).
for m in drivers/virtio/virtio_ring drivers/virtio/virtio drivers/virtio/virtio_pci_modern_dev \
	 drivers/virtio/virtio_pci_legacy_dev drivers/virtio/virtio_pci drivers/block/virtio_blk \
	 net/core/failover drivers/net/net_failover drivers/net/virtio_net; do
	cp "$mods/$m.ko" "$R/lib/mod/"
	basename "$m" >>"$R/lib/mod/order"
done
$CC -static -O2 -o "$R/bin/guest_io" "$SRC/guest_io.c" ||
	skip "cannot link a static guest_io (libc6-dev's libc.a missing?)"
cp "$SRC/guest-init.sh" "$R/init"
chmod +x "$R/init"
(cd "$R" && find . | cpio -o -H newc --quiet | gzip -1 >"$OUT/initramfs.gz.$$")
cp "$K"/boot/vmlinuz-* "$OUT/vmlinuz.$$"
mv -f "$OUT/vmlinuz.$$" "$OUT/vmlinuz"
mv -f "$OUT/initramfs.gz.$$" "$OUT/initramfs.gz"
echo "guest: $(basename "$deb") in $OUT"
