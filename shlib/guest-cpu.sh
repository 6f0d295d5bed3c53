# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2034 # the variables it sets are its callers'
#
# One host CPU for a TCG guest and the vhost_devs that serve it, when
# QEMU's TCG leaves the guest's memory accesses unordered for other host
# CPUs.  Sourced by shlib/guest.sh, with $T set (shlib/vhost-dev.sh).
#
# Under single-threaded TCG (thread=single, the guests' default here),
# Debian 12's QEMU 7.2 emits no host barrier for a guest's barrier (an
# mfence, a locked instruction): its one thread runs every vCPU, which
# need none among themselves.  A vhost-user backend on another host CPU
# does.  The driver stores the avail index, then reads whether the device
# asked for a kick; the device stores that it asks, then reads the avail
# index.  With the driver's store still in the host's store buffer when
# its load runs, both read the old values: the kick is lost and the queue
# stalls (an interrupt likewise).  Seen here: a Linux 7.3 guest's transmit
# queues stopped mid-run, vhost_dev having sent back every frame it was
# given.  QEMU fixed it upstream in 2023, in "tcg: Do not elide memory
# barriers for !CF_PARALLEL in system mode".  On one host CPU, the guest
# and its devices are never reordered against each other.
#
#   tcg_orders_memory [SMP]
#                      0 if QEMU's TCG, in the guests' thread mode with
#                      SMP vCPUs (default 1, the fewest barriers), turns
#                      an mfence into a host barrier (QEMU is asked: its
#                      TCG ops for a firmware that runs one mfence)
#   allowed_cpus       the host CPUs this process may run on, one a
#                      line, lowest first
#   guest_cpu_take     sets GUEST_CPU, an allowed host CPU: the highest
#                      one no other guest suite holds (a lock file in
#                      GUEST_CPU_LOCKS, default /run/lock, held until
#                      this script exits), else the highest; and
#                      GUEST_PIN, the command prefix that runs a process
#                      there (guest_cmd and start_dev use it)

GUEST_CPU="" GUEST_PIN=()

tcg_orders_memory() {
	local rom=$T/mfence.rom log=$T/mfence.ops pid
	rm -f "$log"
	# 64 KiB of hlt; at the reset vector: mfence, hlt, jmp back to the hlt.
	{
		head -c 65520 /dev/zero | tr '\0' '\364'
		printf '\017\256\360\364\353\375'
		head -c 10 /dev/zero | tr '\0' '\364'
	} >"$rom"
	qemu-system-x86_64 -accel "tcg,thread=${GUEST_TCG_THREAD:-single}" -smp "${1:-1}" \
		-bios "$rom" -display none -nodefaults -monitor none -serial none \
		-d op -D "$log" </dev/null >/dev/null 2>&1 &
	pid=$!
	PIDS="$PIDS $pid"
	# Its first block's ops: 0.2 s here; 30 s is a liveness bound for a
	# loaded host (no answer: no barrier, and the guests are pinned).
	poll_until 600 "$pid" grep -qs exit_tb "$log"
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	forget_pid "$pid"
	grep -qs '^ *mb ' "$log"
}

allowed_cpus() {
	local r
	for r in $(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status | tr ',' ' '); do
		seq "${r%-*}" "${r#*-}"
	done
}

guest_cpu_take() {
	local cpus c fd dir=${GUEST_CPU_LOCKS:-/run/lock}
	mapfile -t cpus < <(allowed_cpus)
	[ -w "$dir" ] || dir=${TMPDIR:-/tmp}
	GUEST_CPU=${cpus[-1]}
	for ((c = ${#cpus[@]} - 1; c >= 0; c--)); do
		exec {fd}>>"$dir/rig-guest-cpu${cpus[c]}.lock" || continue
		if flock -n "$fd"; then
			GUEST_CPU=${cpus[c]}
			break
		fi
		exec {fd}>&-
	done
	GUEST_PIN=(taskset -c "$GUEST_CPU")
}
