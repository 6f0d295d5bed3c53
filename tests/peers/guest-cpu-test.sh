#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# shlib/guest-cpu.sh: whether QEMU's TCG orders a guest's memory for other
# host CPUs (asked of QEMU), and the host CPUs guest suites take: the
# highest free one each, then the highest, and a process run there.
#
# Usage: tests/peers/guest-cpu-test.sh     (from anywhere; prints KTAP)
set -u
cd "$(dirname "$0")/../.." || exit 2
CHECK_PREFIX="guest cpu/"
. tests/lib/result.sh
. shlib/vhost-dev.sh
. shlib/guest-cpu.sh

# The probe sees a barrier where every QEMU emits one: MTTCG, 2 vCPUs.
if ! command -v qemu-system-x86_64 >/dev/null; then
	skip "tcg_orders_memory: a host barrier with a thread per vCPU" \
		"no qemu-system-x86_64 (apt-get install qemu-system-x86)"
else
	SHOW_ON_FAIL=$T/mfence.ops
	GUEST_TCG_THREAD=multi tcg_orders_memory 2
	pass_if "tcg_orders_memory: a host barrier with a thread per vCPU"
	if tcg_orders_memory; then
		echo "# this QEMU's single-threaded TCG puts a host barrier for a guest's"
	else
		echo "# this QEMU's single-threaded TCG puts no host barrier for a guest's"
	fi
fi

# took NAME (run in the background): a guest_cpu_take, its CPU in
# $T/NAME, held until $T/NAME.go exists; then the CPUs its pinned
# process may run on in $T/NAME.ran.
took() {
	guest_cpu_take
	echo "$GUEST_CPU" >"$T/$1"
	until [ -e "$T/$1.go" ]; do sleep 0.05; done
	"${GUEST_PIN[@]}" sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status >"$T/$1.ran"
}

export GUEST_CPU_LOCKS=$T
# a, then b while a holds its CPU (60 s: a liveness bound), then c.
mapfile -t allowed < <(allowed_cpus)
high=${allowed[-1]}
next=${allowed[-1]}
[ ${#allowed[@]} -gt 1 ] && next=${allowed[-2]}
took a &
apid=$!
PIDS="$PIDS $apid"
poll_until 1200 "$apid" test -s "$T/a"
took b &
bpid=$!
PIDS="$PIDS $bpid"
poll_until 1200 "$bpid" test -s "$T/b"
touch "$T/a.go" "$T/b.go"
wait "$apid" "$bpid"
forget_pid "$apid"
forget_pid "$bpid"
took c &
cpid=$!
PIDS="$PIDS $cpid"
touch "$T/c.go"
wait "$cpid"
forget_pid "$cpid"
echo "allowed ${allowed[*]}: took $(cat "$T/a" "$T/b" "$T/c" | paste -sd ' '), ran on $(cat "$T/c.ran")" >"$T/got"
SHOW_ON_FAIL=$T/got
[ "$(cat "$T/a")" = "$high" ] && [ "$(cat "$T/b")" = "$next" ]
pass_if "guest_cpu_take: the highest allowed CPU, the next one while it is held"
[ "$(cat "$T/c")" = "$high" ] && [ "$(cat "$T/c.ran")" = "$high" ]
pass_if "guest_cpu_take: the highest again once free, and GUEST_PIN runs a process there"
ktap_finished
