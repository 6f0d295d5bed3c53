# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2034 # the variables it sets are its callers'
#
# The test guest (a Linux kernel and initramfs under QEMU TCG): built once
# into $GUEST_DIR, booted with its console in $T (shlib/vhost-dev.sh).
# Used by tests/peers/run.sh and bench/vhost-guest.sh, from the top of the
# tree.

. "$(dirname "${BASH_SOURCE[0]}")/guest-cpu.sh"

# The guest's kernel, GUEST_LINUX: Debian's 6.1 (the default) or 7.3 cloud
# kernel; GUEST_NAME names it in the checks ("Linux 7.3 ", empty for 6.1,
# whose checks kept their names).  Its build (7.3 and a user's kernel,
# GUEST_KERNEL, tests/peers/guest-build.sh, build guests of their own), and
# the disk the peer checks give it: its size, its pattern's seed, and where
# the guest writes a pattern of its own.
GUEST_LINUX=${GUEST_LINUX:-6.1}
export GUEST_LINUX
GUEST_NAME="" GUEST_DIR=${GUEST_DIR:-}
if [ -n "${GUEST_KERNEL:-}" ]; then
	GUEST_DIR=${GUEST_DIR:-build-guest-user}
elif [ "$GUEST_LINUX" != 6.1 ]; then
	GUEST_NAME="Linux $GUEST_LINUX "
	GUEST_DIR=${GUEST_DIR:-build-guest-$GUEST_LINUX}
fi
GUEST_DIR=${GUEST_DIR:-build-guest}
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
	if ! cc -O2 -pthread -o "$T/guest_io" tests/peers/guest_io.c; then
		GUEST_WHY="cannot build the host's guest_io"
		return 1
	fi
	if ! tcg_orders_memory; then
		guest_cpu_take
		echo "# guests and their vhost_devs run on host CPU $GUEST_CPU: this QEMU's TCG puts no host barrier for a guest's (shlib/guest-cpu.sh)"
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
# The guest's shape: GUEST_SMP vCPUs (default 1), all run by one host
# thread (GUEST_TCG_THREAD=single, the default; multi: one thread each,
# MTTCG, under which Debian's QEMU 7.2 hung or oopsed the 7.3 guest's
# boot with 2 and 4 vCPUs: tests/RESULTS), GUEST_MEM of memory (default
# 256M) in a shared memfd, as vhost-user needs; on GUEST_CPU when QEMU's
# TCG needs it (shlib/guest-cpu.sh).
# no_timer_check: the kernel's check that the IO-APIC timer ticks is a busy
# wait that a TCG guest on an overloaded host can fail (a panic at 0.06 s,
# seen here at a load average of 30).
guest_cmd() {
	local cmdline=$1 bios=(-bios "$QBOOT") mem=${GUEST_MEM:-256M}
	shift
	[ "${SEABIOS:-}" = 1 ] && bios=()
	# shellcheck disable=SC2054 # QEMU's options are comma lists
	QEMU_CMD=("${GUEST_PIN[@]}" qemu-system-x86_64 -accel "tcg,thread=${GUEST_TCG_THREAD:-single}" -m "$mem" -smp "${GUEST_SMP:-1}"
		-nographic -no-reboot "${bios[@]}"
		-object "memory-backend-memfd,id=mem,size=$mem,share=on"
		-machine q35,memory-backend=mem -kernel "$GUEST_DIR/vmlinuz"
		-initrd "$GUEST_DIR/initramfs.gz"
		-append "console=ttyS0 quiet panic=-1 no_timer_check $cmdline" "$@")
}

# boot_start NAME CMDLINE QEMU-ARGS...: boot the guest in the background,
# its console in $T/NAME.console, bounded by timeout to GUEST_TIMEOUT
# seconds (default 90; BOOT_PID is timeout's, whose status boot_wait
# reads); QEMU's own PID goes to $T/NAME.pid once it runs.
boot_start() {
	local name=$1
	shift
	guest_cmd "$@"
	rm -f "$T/$name.pid"
	BOOT_T0=$(date +%s%N)
	timeout "${GUEST_TIMEOUT:-90}" "${QEMU_CMD[@]}" -pidfile "$T/$name.pid" \
		</dev/null >"$T/$name.console" 2>&1 &
	BOOT_PID=$!
	PIDS="$PIDS $BOOT_PID"
}

# boot_wait NAME: wait for the guest boot_start started; sets BOOT_RC
# (timeout's: QEMU's status, 124 when it ran out of time), BOOT_S (launch
# to exit) and RESULT.
boot_wait() {
	local t1
	wait "$BOOT_PID" 2>/dev/null
	BOOT_RC=$?
	forget_pid "$BOOT_PID"
	t1=$(date +%s%N)
	BOOT_S=$(awk -v a="$BOOT_T0" -v b="$t1" 'BEGIN { printf "%.2f", (b - a) / 1e9 }')
	guest_result "$1"
}

# boot NAME CMDLINE QEMU-ARGS...: boot the guest and wait for it.
boot() {
	boot_start "$@"
	boot_wait "$1"
}

# guest_result NAME: RESULT, the last RIG-RESULT line of $T/NAME.console.
guest_result() {
	RESULT=$(grep -ao 'RIG-RESULT.*' "$T/$1.console" | tr -d '\r' | tail -n 1)
}

# guest_errors NAME: the guest's own complaints (guest_io's) on its console.
guest_errors() { grep -a '^guest_io: ' "$T/$1.console" | tr -d '\r' | head -n 3; }

# guest_end NAME: how the console ends, on one line: the last 3 lines, or
# after a panic its line, what the oops before it says (BUG, RIP, the
# first frames of the trace), and a copy of the console in
# $GUEST_KEEP_CONSOLE/ when that is set (a directory).
guest_end() {
	local c=$T/$1.console oops
	if [ -n "${GUEST_KEEP_CONSOLE:-}" ]; then
		mkdir -p "$GUEST_KEEP_CONSOLE" &&
			cp "$c" "$GUEST_KEEP_CONSOLE/$1.$(date +%s).console"
	fi
	if ! grep -aq 'Kernel panic' "$c"; then
		tail -n 3 "$c" | tr -d '\r' | paste -sd '|'
		return
	fi
	oops=$(sed -n '/Kernel panic/q; /BUG:\|Oops\|general protection\|RIP:\|Call Trace\|^\[[ 0-9.]*\]  [a-z_][a-z_0-9.]*+0x/p' "$c" |
		tr -d '\r' | sed 's/^\[[ 0-9.]*\] *//' | head -n 12 | paste -sd '|')
	echo "$(grep -a -m 1 'Kernel panic' "$c" | tr -d '\r')${oops:+; before it: $oops}"
}

# field NAME: NAME's value in the RIG-RESULT line.
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<" $RESULT"; }
