# SPDX-License-Identifier: GPL-2.0
#
# The test guest (a Linux kernel and initramfs under QEMU TCG): built once
# into $GUEST_DIR, booted with its console in $T (tests/lib/vhost-dev.sh).
# Used by tests/peers/run.sh and bench/vhost-guest.sh, from the top of the
# tree.

# The guest's build (a user's kernel, GUEST_KERNEL, tests/peers/guest-build.sh,
# builds a guest of its own), and the disk the peer checks give it: its
# size, its pattern's seed, and where the guest writes a pattern of its own.
GUEST_DIR=${GUEST_DIR:-build-guest${GUEST_KERNEL:+-user}}
DISK_BYTES=$((64 << 20))
WRITE_OFF=$((8 << 20)) WRITE_LEN=$((4 << 20)) SEED=7 WSEED=99

# guest_ready: 0 if the guest can boot here, else 1 with GUEST_WHY set.
GUEST_OK=""
guest_ready() {
	local out
	[ -n "$GUEST_OK" ] && { [ "$GUEST_OK" = yes ]; return; }
	GUEST_OK=no
	if ! command -v qemu-system-x86_64 >/dev/null; then
		GUEST_WHY="no qemu-system-x86_64 (apt-get install qemu-system-x86)"
		return 1
	fi
	QBOOT=/usr/share/qemu/qboot.rom
	if [ ! -f "$QBOOT" ]; then
		GUEST_WHY="no $QBOOT (apt-get install qemu-system-data)"
		return 1
	fi
	out=$(tests/peers/guest-build.sh "$GUEST_DIR" 2>&1)
	case $? in
	0) ;;
	77) GUEST_WHY=$(head -n 1 <<<"$out"); return 1 ;;
	*) GUEST_WHY="guest-build.sh failed: $(tail -n 1 <<<"$out")"; return 1 ;;
	esac
	if ! cc -O2 -o "$T/guest_io" tests/peers/guest_io.c; then
		GUEST_WHY="cannot build the host's guest_io"
		return 1
	fi
	GUEST_OK=yes
}

# guest_ready_or_say NAME: guest_ready, or else NAME is a SKIP with the
# reason (a FAIL with GUEST_KERNEL: a kernel the user gave must boot) and 1.
guest_ready_or_say() {
	guest_ready && return 0
	if [ -n "${GUEST_KERNEL:-}" ]; then
		fail "$1" "GUEST_KERNEL=$GUEST_KERNEL: $GUEST_WHY"
	else
		skip "$1" "$GUEST_WHY"
	fi
	return 1
}

# guest_cmd CMDLINE QEMU-ARGS...: the QEMU command line of a guest boot, in
# the array QEMU_CMD (for a test that runs QEMU in the background itself).
guest_cmd() {
	local cmdline=$1 bios=(-bios "$QBOOT")
	shift
	[ "${SEABIOS:-}" = 1 ] && bios=()
	QEMU_CMD=(qemu-system-x86_64 -accel tcg -m 256M -smp 1 -nographic -no-reboot
		"${bios[@]}" -object memory-backend-memfd,id=mem,size=256M,share=on
		-machine q35,memory-backend=mem -kernel "$GUEST_DIR/vmlinuz"
		-initrd "$GUEST_DIR/initramfs.gz"
		-append "console=ttyS0 quiet panic=-1 $cmdline" "$@")
}

# boot NAME CMDLINE QEMU-ARGS...: boot the guest, its console in
# $T/NAME.console; sets RESULT (the RIG-RESULT line) and BOOT_S.
boot() {
	local name=$1 t0 t1
	shift
	guest_cmd "$@"
	t0=$(date +%s%N)
	timeout 90 "${QEMU_CMD[@]}" </dev/null >"$T/$name.console" 2>&1
	BOOT_RC=$?
	t1=$(date +%s%N)
	BOOT_S=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", (b - a) / 1e9 }')
	guest_result "$name"
}

# guest_result NAME: RESULT, the last RIG-RESULT line of $T/NAME.console.
guest_result() {
	RESULT=$(grep -ao 'RIG-RESULT.*' "$T/$1.console" | tr -d '\r' | tail -n 1)
}

# field NAME: NAME's value in the RIG-RESULT line.
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<" $RESULT"; }
