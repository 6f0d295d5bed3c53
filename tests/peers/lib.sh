# SPDX-License-Identifier: GPL-2.0
#
# What the peer tests (tests/peers/run.sh) and the guest benchmark
# (bench/vhost-guest.sh) share: a private folder cleaned up on exit, vhost_dev
# started and stopped by PID, the test guest built and booted.  Source it
# with VHOST_DEV set (the vhost_dev binary) and GUEST_DIR (guest cache).

T=$(mktemp -d "${TMPDIR:-/tmp}/rig-peers.XXXXXX")
PIDS=""
cleanup() {
	local p
	for p in $PIDS; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null; done
	rm -rf "$T" "/var/run/dpdk/rig-peers-$$"
}
trap cleanup EXIT
# A signal is an exit too (bash runs no EXIT trap when a signal kills it).
trap 'exit 129' HUP; trap 'exit 130' INT; trap 'exit 143' TERM

has_bit() { (( ($1 >> $2) & 1 )); }
# offered VHOST_DEV: the feature bits it offers; host_impl VHOST_DEV: "rig"
# or "kernel", whose vringh it was linked with.
offered() { "$1" --type=blk --print-features | sed -n 's/^features //p'; }
host_impl() { "$1" --version 2>&1 | sed -n 's/.*host ring code: \([^,;]*\).*/\1/p'; }

# start_dev NAME ARGS...: vhost_dev in the background, listening on
# $T/NAME.sock, its output in $T/NAME.out/.err, serving $CONNS frontends
# (default 1) one after the other.  Waits for it to listen.
start_dev() {
	local name=$1 i
	shift
	rm -f "$T/$name.out" "$T/$name.err"
	"$VHOST_DEV" --socket="$T/$name.sock" --conns="${CONNS:-1}" "$@" \
		>"$T/$name.out" 2>"$T/$name.err" &
	DEV_PID=$!
	PIDS="$PIDS $DEV_PID"
	for ((i = 0; i < 100; i++)); do
		grep -q '^listening on' "$T/$name.out" 2>/dev/null && return 0
		kill -0 "$DEV_PID" 2>/dev/null || break
		sleep 0.05
	done
	return 1
}

# stop_dev PID: it exits by itself once its frontends are gone (else it is
# told to).  Adds to DEV_FAILS when it did not exit 0 (a crash, a
# sanitizer's report).
DEV_FAILS=""
stop_dev() {
	local i rc
	for ((i = 0; i < 40; i++)); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.05
	done
	kill "$1" 2>/dev/null
	wait "$1" 2>/dev/null
	rc=$?
	forget_pid "$1"
	[ $rc = 0 ] || DEV_FAILS="$DEV_FAILS vhost_dev exit status $rc;"
}

# A process waited for is no longer ours to stop: its PID may be reused.
forget_pid() { PIDS=${PIDS// $1/}; }

# The features the frontend acked, from vhost_dev's "frontend:" line.
acked() { sed -En 's/^frontend: .* features (0x[0-9a-f]+).*/\1/p' "$1" | tail -n 1; }

# ---- The guest ----

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

# boot NAME CMDLINE QEMU-ARGS...: boot the guest, its console in
# $T/NAME.console; sets RESULT (the RIG-RESULT line) and BOOT_S.
boot() {
	local name=$1 cmdline=$2 t0 t1 bios=(-bios "$QBOOT")
	shift 2
	[ "${SEABIOS:-}" = 1 ] && bios=()
	t0=$(date +%s%N)
	timeout 90 qemu-system-x86_64 -accel tcg -m 256M -smp 1 -nographic -no-reboot \
		"${bios[@]}" -object memory-backend-memfd,id=mem,size=256M,share=on \
		-machine q35,memory-backend=mem -kernel "$GUEST_DIR/vmlinuz" \
		-initrd "$GUEST_DIR/initramfs.gz" \
		-append "console=ttyS0 quiet panic=-1 $cmdline" "$@" \
		</dev/null >"$T/$name.console" 2>&1
	BOOT_RC=$?
	t1=$(date +%s%N)
	BOOT_S=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", (b - a) / 1e9 }')
	RESULT=$(grep -ao 'RIG-RESULT.*' "$T/$name.console" | tr -d '\r' | tail -n 1)
}

field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<" $RESULT"; }

