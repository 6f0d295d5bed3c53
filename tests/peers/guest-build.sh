#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the test guest: a Debian cloud kernel and a busybox initramfs
# whose /init loads the virtio modules, runs guest_io on the vhost-user
# devices and prints one RIG-RESULT line, then powers off.
#
# Usage: tests/peers/guest-build.sh OUTDIR
#   OUTDIR/deb/      the kernel's .debs (downloaded once, kept as a cache)
#   OUTDIR/vmlinuz   the kernel
#   OUTDIR/initramfs.gz
# Exit 77 with the reason on the first line when a piece is missing.
#
# GUEST_LINUX (default 6.1) is the kernel: 6.1 is linux-image-6.1.0-N-cloud-amd64
# of the machine's own apt (apt-get download); 7.3 is Debian's newest 7.3
# cloud kernel from trixie-backports, through kernel/debian-fetch.sh (its
# linux-image is empty and depends on linux-binary, the vmlinuz, and
# linux-modules).  Whatever the layout (/boot or /usr/lib/modules, .ko or
# .ko.xz), /init loads virtio_pci, virtio_blk and virtio_net, those the
# package has as modules (the others are built in), each after the modules
# its .modinfo "depends=" names (as modinfo -F depends prints them: the
# .debs have no modules.dep), decompressed for busybox's insmod.
#
# GUEST_KERNEL=FILE (make check GUEST_KERNEL=FILE): the user's kernel
# instead of the download: a linux-image .deb (its vmlinuz and virtio
# modules, as the download's), or a kernel image (bzImage, vmlinuz) with
# the virtio drivers built in (no modules loaded).  A FILE that is not
# there exits 1: the user asked for it.
set -eu
SRC=$(cd "$(dirname "$0")" && pwd)
OUT=${1:?usage: guest-build.sh OUTDIR}
CC=${CC:-cc}
mkdir -p "$OUT/deb"
OUT=$(cd "$OUT" && pwd)

skip() { echo "$1"; exit 77; }
# fetch ARGS...: kernel/debian-fetch.sh ARGS, its output in FETCHED; its
# reason (the suite cannot be reached, a package is not there) a SKIP.
fetch() {
	local rc=0
	FETCHED=$("$SRC/../../kernel/debian-fetch.sh" "$@") || rc=$?
	[ $rc = 0 ] && return
	[ $rc = 77 ] && skip "$(head -n 1 <<<"$FETCHED")"
	echo "guest: kernel/debian-fetch.sh $1 failed (exit $rc): $(tail -n 1 <<<"$FETCHED")"
	exit 1
}
command -v busybox >/dev/null || skip "no busybox (apt-get install busybox-static)"
command -v cpio >/dev/null || skip "no cpio (apt-get install cpio)"
busybox --list | grep -qx insmod || skip "busybox has no insmod (needs busybox-static)"
# ldd refuses a static program.
! ldd "$(command -v busybox)" >/dev/null 2>&1 ||
	skip "busybox is not static (apt-get install busybox-static)"

LINUX=${GUEST_LINUX:-6.1}
case $LINUX in
6.1 | 7.3) ;;
*) echo "guest: GUEST_LINUX=$LINUX: the guests are Debian's 6.1 and 7.3"; exit 1 ;;
esac

# The kernel: the .debs it comes in (debs), or a kernel image alone.
debs=() image=''
if [ -n "${GUEST_KERNEL:-}" ]; then
	[ -f "$GUEST_KERNEL" ] || { echo "guest: GUEST_KERNEL=$GUEST_KERNEL is not a file"; exit 1; }
	case $GUEST_KERNEL in
	*.deb) debs=("$(realpath "$GUEST_KERNEL")") ;;
	*) image=$(realpath "$GUEST_KERNEL") ;;
	esac
elif [ "$LINUX" = 6.1 ]; then
	deb=$(ls "$OUT"/deb/linux-image-6.1.0-*-cloud-amd64_*.deb 2>/dev/null | sort -V | tail -n 1)
	if [ -z "$deb" ]; then
		pkg=$(apt-cache pkgnames linux-image-6.1.0- 2>/dev/null |
		      grep -E '^linux-image-6\.1\.0-[0-9]+-cloud-amd64$' | sort -V | tail -n 1)
		[ -n "$pkg" ] || skip "no linux-image-6.1.0-*-cloud-amd64 package known to apt"
		(cd "$OUT/deb" && apt-get download "$pkg" >/dev/null 2>&1) ||
			skip "apt-get download $pkg failed (offline?)"
		deb=$(ls "$OUT"/deb/linux-image-6.1.0-*-cloud-amd64_*.deb | sort -V | tail -n 1)
	fi
	debs=("$deb")
else
	# OUT/deb/debs lists a complete download (the image and what it
	# depends on), written once all of it is there.
	if [ -s "$OUT/deb/debs" ] && mapfile -t debs <"$OUT/deb/debs" && ls "${debs[@]}" >/dev/null 2>&1; then
		:
	else
		fetch names "^linux-image-${LINUX//./\\.}\.[0-9]+\+deb[0-9]+-cloud-amd64\$"
		img=$(tail -n 1 <<<"$FETCHED")
		[ -n "$img" ] || skip "debian-fetch: no linux-image-$LINUX.*-cloud-amd64 in its suites"
		# Debian's 7.x kernel is split: linux-binary (the vmlinuz) and
		# linux-modules.
		fetch depends "$img"
		mapfile -t pkgs < <(grep -E '^linux-(binary|modules)-' <<<"$FETCHED")
		fetch download "$OUT/deb" "$img" "${pkgs[@]}"
		mapfile -t debs <<<"$FETCHED"
		printf '%s\n' "${debs[@]}" >"$OUT/deb/debs"
	fi
fi

# Up to date?  (Several test runs may share OUT: rebuild only when needed,
# and replace the files atomically.)  OUT/kernel names the kernel it was
# built from, so another kernel (GUEST_KERNEL) rebuilds it.
files=("${debs[@]}")
[ -z "$image" ] || files=("$image")
kernel_id=$(ls -l "${files[@]}")
name=$(basename "${files[0]}")
fresh=1
[ "$(cat "$OUT/kernel" 2>/dev/null)" = "$kernel_id" ] || fresh=0
for f in "${files[@]}" "$0" "$SRC/guest_io.c" "$SRC/guest-init.sh"; do
	[ "$OUT/initramfs.gz" -nt "$f" ] && [ "$OUT/vmlinuz" -nt "$f" ] || fresh=0
done
if [ $fresh = 1 ]; then
	echo "guest: $name in $OUT (up to date)"
	exit 0
fi
K=$OUT/kroot.$$
R=$OUT/initrd.$$
trap 'rm -rf "$K" "$R"' EXIT
# A signal is an exit too (bash runs no EXIT trap when a signal kills it).
. "$(dirname "$0")/../../shlib/signals.sh"
mkdir -p "$K"
for deb in "${debs[@]}"; do
	dpkg-deb -x "$deb" "$K" || { echo "guest: dpkg-deb cannot unpack $deb"; exit 1; }
done

mkdir -p "$R"/bin "$R"/proc "$R"/sys "$R"/dev "$R"/tmp "$R"/lib/mod
cp "$(command -v busybox)" "$R/bin/busybox"
for a in sh mount insmod cat echo sleep poweroff grep date tr readlink; do
	ln -s busybox "$R/bin/$a"
done

# The modules the package has, by name (- and _ alike, as modprobe).
declare -A MODS=() SEEN=()
while read -r f; do
	m=${f##*/}
	m=${m%%.ko*}
	MODS[${m//-/_}]=$f
done < <(find "$K" -path '*/lib/modules/*' -name '*.ko*' 2>/dev/null)
# add_mod NAME: NAME, decompressed, into the initramfs, after the modules
# its .modinfo depends= names (those are modules: a built-in provider is
# never named there).
add_mod() {
	local m=$1 f d deps
	[ -z "${SEEN[$m]:-}" ] || return 0
	SEEN[$m]=1
	f=${MODS[$m]:-}
	[ -n "$f" ] || { echo "guest: $name has no module $m, which another depends on"; exit 1; }
	case $f in
	*.ko) cp "$f" "$R/lib/mod/$m.ko" ;;
	*.ko.xz)
		command -v xz >/dev/null || skip "no xz to decompress $m.ko.xz (apt-get install xz-utils)"
		xz -dc "$f" >"$R/lib/mod/$m.ko" ;;
	*) echo "guest: $f: busybox's insmod needs it decompressed, and only .xz is"; exit 1 ;;
	esac
	command -v objcopy >/dev/null || skip "no objcopy to read $m.ko's .modinfo (apt-get install binutils)"
	objcopy -O binary --only-section=.modinfo "$R/lib/mod/$m.ko" "$K/modinfo"
	deps=$(tr '\0' '\n' <"$K/modinfo" | sed -n 's/^depends=//p')
	for d in ${deps//,/ }; do
		add_mod "${d//-/_}"
	done
	echo "$m" >>"$R/lib/mod/order"
}
# The transport and the two drivers: those not in the package are built in
# (as all are in a kernel image alone; /init checks that they are there).
: >"$R/lib/mod/order"
builtin=''
for m in virtio_pci virtio_blk virtio_net; do
	if [ -n "${MODS[$m]:-}" ]; then add_mod $m; else builtin="$builtin $m"; fi
done
$CC -static -O2 -pthread -o "$R/bin/guest_io" "$SRC/guest_io.c" ||
	skip "cannot link a static guest_io (libc6-dev's libc.a missing?)"
cp "$SRC/guest-init.sh" "$R/init"
chmod +x "$R/init"
(cd "$R" && find . | cpio -o -H newc --quiet | gzip -1 >"$OUT/initramfs.gz.$$")
if [ -n "$image" ]; then
	cp "$image" "$OUT/vmlinuz.$$"
else
	# /boot/vmlinuz-VERSION (6.1) or /usr/lib/modules/VERSION/vmlinuz (7.x).
	v=$(ls "$K"/boot/vmlinuz-* "$K"/usr/lib/modules/*/vmlinuz "$K"/lib/modules/*/vmlinuz 2>/dev/null | head -n 1)
	[ -n "$v" ] || { echo "guest: $name has no /boot/vmlinuz-* or lib/modules/*/vmlinuz"; exit 1; }
	cp "$v" "$OUT/vmlinuz.$$"
fi
mv -f "$OUT/vmlinuz.$$" "$OUT/vmlinuz"
mv -f "$OUT/initramfs.gz.$$" "$OUT/initramfs.gz"
echo "$kernel_id" >"$OUT/kernel"
echo "guest: $name in $OUT, modules: $(tr '\n' ' ' <"$R/lib/mod/order")built in:${builtin:- none}"
