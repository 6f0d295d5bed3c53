#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The `make check` matrix: which checks run for a build.  The checks are
# declared first, then run by tests/lib/ktap.sh (two at a time, --jobs),
# and the results are printed in order as KTAP, the kernel's TAP dialect
# (Documentation/dev-tools/ktap.rst, as kselftest prints it): a version
# line, the plan, then per check "ok N - NAME # time 0.12s",
# "not ok N - NAME # time 0.12s" after "# ..." lines saying why,
# "ok N - NAME # SKIP reason" (the code under test lacks what the check
# needs), or "not ok N - NAME # TODO reason" (a known gap of a kernel
# tree's code showed: neither a pass nor a failure).  A sub-suite (stats,
# bench, the vhost-user peers) prints KTAP of its own: one check, its
# results nested.  The last line counts every
# check and sub-suite line: "N passed, N failed, N skipped"; the line
# before it, "# N todo ...", counts the TODOs if any.  Exit status is
# non-zero if anything failed.  prove
# reads the output: tests/run-check.sh | prove -e cat /dev/stdin
#
# Usage: tests/run-check.sh [--filter ERE] [--list] [--jobs N] [BUILD_DIR]
#        tests/run-check.sh [--filter ERE] [--list] [--jobs N] --ksrc BUILD_DIR...
#   BUILD_DIR   the programs to check (default: the top-level build)
#   --ksrc      each BUILD_DIR is a kernel-tree pairing (make check KSRC=)
#   --filter    only the checks whose names match the extended regular
#               expression (make check T=ERE); a sub-suite runs when ERE
#               matches its name (stats, bench) or holds NAME/
#   --list      print the names of the checks instead of running them
#   --jobs N    run N checks at a time (default: CHECK_JOBS, else 2); the
#               output is in the same order whatever N
# Each run keeps the checks' wall times in BUILD_DIR/.rig-check-times (the
# first BUILD_DIR's with --ksrc), and the next starts its long checks
# longest first by them (tests/lib/ktap.sh).
#
# Environment: CHECK_IDLE, CHECK_CPU (a check's bounds on its progress:
# seconds all its processes may go without CPU, default 120, and CPU
# seconds they may use, default 1200; tests/lib/ktap.sh), CHECK_TIMEOUT
# (the wall clock's backstop, default 3600 s), RIG_CHECK_PEERS (no: with
# --ksrc, the peers that boot QEMU guests and DPDK on the tree's vringh are
# one SKIP saying so), RIG_CHECK_LONG (no: with --ksrc, the long checks
# too, each group one SKIP: peers, callgrind rows, the frontend, patched
# trees, ksrc folders and device torture; the ring, vhost core and
# vhost-net checks of every pairing still run), PARALLEL_XFERS,
# VIRTIO_TEST_BUFS, FUZZ_DIR, FUZZ_CHECK_RUNS, FUZZ_CHECK_CPU, and
# RIG_CHECK_MODE (asan, ubsan, tsan or valgrind: how BUILD_DIR was built;
# make check-asan ... sets it, else vringh_test --version tells).

# The option strings of the matrices below are split into words on purpose.
# shellcheck disable=SC2086
set -u
cd "$(dirname "$0")/.." || exit 2

# A usage error: one line naming the problem, exit status 2.
usage() {
	echo "run-check.sh: $1" >&2
	echo "try tests/run-check.sh --help" >&2
	exit 2
}

FILTER='' LIST='' KSRC='' JOBS=${CHECK_JOBS:-2}
while [ $# -gt 0 ]; do
	case $1 in
	--filter) [ $# -ge 2 ] || usage "--filter needs an ERE"; FILTER=$2; shift ;;
	--filter=*) FILTER=${1#--filter=} ;;
	--list) LIST=1 ;;
	--jobs) [ $# -ge 2 ] || usage "--jobs needs a number"; JOBS=$2; shift ;;
	--jobs=*) JOBS=${1#--jobs=} ;;
	--help) sed -n '/^# Usage:/,/^# Environment/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	--ksrc) KSRC=1 ;;
	-*) usage "unknown option $1" ;;
	*) break ;;
	esac
	shift
done
[[ $JOBS =~ ^[1-9][0-9]*$ ]] || usage "--jobs '$JOBS' is not a positive number"
[[ x =~ $FILTER ]]
[ $? -eq 2 ] && usage "--filter '$FILTER' is not an extended regular expression"
[ -n "$KSRC" ] && [ $# -eq 0 ] && usage "--ksrc needs the build folders"
[ -z "$KSRC" ] && [ $# -gt 1 ] && usage "one BUILD_DIR (or --ksrc BUILD_DIR...)"


B=${1:-.}
TIMES=$B/.rig-check-times
TIMEOUT=${CHECK_TIMEOUT:-3600}
XFERS=${PARALLEL_XFERS:-200000}
BUFS=${VIRTIO_TEST_BUFS:-0x4000}
CTRL_C_AFTER=2
FUZZ_DIR=${FUZZ_DIR:-build-fuzz}
LOG=$(mktemp -d "${TMPDIR:-/tmp}/rig-check.XXXXXX")
trap 'rm -rf "$LOG"' EXIT

# valgrind as every check runs it: any error or leak fails the run.
# shellcheck disable=SC2054
VALGRIND=(valgrind -q --error-exitcode=99 --leak-check=full
	  --errors-for-leak-kinds=definite,indirect,possible)

# The runner: declaring checks, running them, printing KTAP.
. tests/lib/ktap.sh

# ---- The option matrices ----
# The four split-ring options, all 16 combinations; a packed ring exists
# only in virtio 1.x (--packed implies --virtio-1): the 8 combinations of
# the three others.
SPLIT=() PACKED=()
for ((i = 0; i < 16; i++)); do
	s=
	((i & 1)) && s+=" --indirect"
	((i & 2)) && s+=" --event-idx"
	((i & 4)) && s+=" --virtio-1"
	((i & 8)) && s+=" --slow-range"
	SPLIT+=("${s# }")
	((i < 8)) || continue
	s=--packed
	((i & 1)) && s+=" --indirect"
	((i & 2)) && s+=" --event-idx"
	((i & 4)) && s+=" --slow-range"
	PACKED+=("$s")
done

# vringh_test --parallel --fast-vringh, split and packed.
FAST_VRINGH=("" "--indirect" "--event-idx" "--indirect --event-idx --virtio-1"
	     "--packed" "--packed --indirect" "--packed --event-idx"
	     "--packed --indirect --event-idx")

# virtio_test: split, packed (virtio 1 implied) and IN_ORDER (both rings).
VIRTIO_TEST=("" "--no-event-idx" "--no-indirect" "--no-virtio-1"
	     "--delayed-interrupt" "--reset" "--reset=4" "--batch=random"
	     "--batch=random --reset" "--batch=random --delayed-interrupt"
	     "--batch=256 --no-event-idx --reset=4"
	     "--batch=random --reset --no-event-idx --no-indirect --no-virtio-1 --delayed-interrupt")
VIRTIO_TEST_PACKED=("" "--no-event-idx" "--no-indirect" "--delayed-interrupt"
		    "--reset" "--reset=4" "--batch=random" "--batch=random --reset"
		    "--batch=random --delayed-interrupt"
		    "--batch=256 --no-event-idx --reset=4"
		    "--batch=random --reset --no-event-idx --no-indirect --delayed-interrupt")
VIRTIO_TEST_IN_ORDER=("" "--batch=random" "--batch=random --reset"
		      "--batch=random --delayed-interrupt" "--no-event-idx"
		      "--no-indirect --batch=256 --reset=4" "--in-order=1 --batch=random"
		      "--in-order=5 --batch=random --reset"
		      "--batch=random --reset --no-event-idx --no-indirect --delayed-interrupt")
# A misbehaving device: the driver breaks the queue with a message (not a
# crash or a hang) and exits 3, with these options.
DEVICE_BUGS=(wrong-id long-len)
DEVICE_BUG_OPTS=("" "--batch=random --reset")

# vring_bench plays the device itself: 70000 buffers (more than two laps
# of every ring here), sizes that are no power of 2 too.
VRING_BENCH_PACKED=("" "--no-indirect" "--no-event-idx" "--no-indirect --no-event-idx"
		    "--in" "--in --no-indirect --no-event-idx" "--mixed --no-indirect"
		    "--ring-size 1 --sg 1" "--ring-size 3 --sg 2 --no-indirect"
		    "--ring-size 100 --sg 7 --no-indirect --mixed"
		    "--ring-size 256 --sg 256" "--ring-size 32768 --sg 1")
VRING_BENCH_IN_ORDER=("" "--no-indirect" "--no-event-idx" "--in" "--in --no-indirect"
		      "--mixed --no-event-idx" "--ring-size 1 --sg 1"
		      "--ring-size 256 --sg 3 --mixed --no-indirect"
		      "--packed" "--packed --no-indirect" "--packed --no-event-idx"
		      "--packed --in" "--packed --in --no-indirect"
		      "--packed --mixed --no-event-idx" "--packed --ring-size 1 --sg 1"
		      "--packed --ring-size 256 --sg 3 --mixed --no-indirect"
		      "--packed --ring-size 100 --sg 7 --no-indirect --mixed")

# Options that make no sense.
USAGE_ERRORS=("vringh_test --bogus" "vringh_test --fast-vringh"
	      "vringh_test --parallel --xfers=0" "vringh_test --parallel --xfers=12x"
	      "vringh_test stray"
	      "vringh_test --in-order=0 --parallel" "vringh_test --in-order=x --parallel"
	      "vringh_test --in-order=257 --parallel" "vringh_test --in-order=4"
	      "vringh_test --in-order --parallel --fast-vringh"
	      "virtio_test --bogus" "virtio_test --batch=0" "virtio_test --batch=x"
	      "virtio_test --buf-num=-1" "virtio_test --buf-num=0" "virtio_test --reset=0"
	      "virtio_test --device-bug=x" "virtio_test stray"
	      "virtio_test --packed --no-virtio-1"
	      "virtio_test --in-order=0" "virtio_test --in-order=257" "virtio_test --vhost=x"
	      "vhost_net_test --bogus" "vhost_net_test stray" "vhost_net_test --tx --rx"
	      "vhost_net_test --vnet-hdr=tap" "vhost_net_test --rx-buf=11"
	      "vhost_net_test --no-mrg-rxbuf --rx-buf=1525" "vhost_net_test --detach=0"
	      "vhost_net_test --buf-num=0" "vhost_net_test --in-order=4"
	      "vring_bench 0" "vring_bench 18446744073709551615" "vring_bench --ring-size 100"
	      "vring_bench --bogus" "vring_bench 1000 stray"
	      "vring_bench --packed --ring-size 32769" "vring_bench --cpu 1023" "vring_bench --vhost=x"
	      "vhost_dev --bogus" "vhost_dev --type=blk" "vhost_dev --type=disk --socket=s"
	      "vhost_dev --type=blk --socket=s" "vhost_dev --type=blk --socket=s --size=1000"
	      "vhost_dev --type=net --socket=s --frames=5" "vhost_dev --type=net --socket=s --net=x"
	      "vhost_dev --type=blk --socket=s --size=4096 --conns=0" "vhost_dev --socket"
	      "vhost_dev --type=blk --socket=s --size=4096 --queues=0"
	      "vhost_dev --type=net --socket=s --queues=17")

# valgrind in a plain build: these; a valgrind build runs every combination.
VALGRIND_PLAIN=("" "--indirect --event-idx --virtio-1" "--indirect --slow-range"
		"--packed --indirect --event-idx" "--packed --slow-range")
VALGRIND_PLAIN_IN_ORDER=("--indirect --event-idx --virtio-1" "--packed --slow-range")

# ---- The checks ----

# vringh_test: single-threaded scenarios and the --parallel test, with and
# without IN_ORDER (batches of at most 1, 7 and 64 buffers too); the
# parallel run prints exactly its three lines.
vringh_test_checks() {
	local o k
	for o in "${SPLIT[@]}" "${PACKED[@]}"; do
		expect "vringh_test${o:+ $o}" 0 -- "$B/vringh_test" $o
		expect "vringh_test --parallel --xfers=$XFERS${o:+ $o}" 0 -- \
			"$B/vringh_test" --parallel --xfers="$XFERS" $o
	done
	for o in "${FAST_VRINGH[@]}"; do
		expect "vringh_test --parallel --fast-vringh --xfers=$XFERS${o:+ $o}" 0 -- \
			"$B/vringh_test" --parallel --fast-vringh --xfers="$XFERS" $o
	done
	for o in "" "--packed"; do
		expect "vringh_test${o:+ $o} --parallel output lines" 0 out-lines=3 \
			out='^Using CPUS [0-9]+ and [0-9]+$|^Using CPU [0-9]+ only' \
			out='^Guest: notified [0-9]+, pinged [0-9]+$' \
			out='^Host: notified [0-9]+, pinged [0-9]+$' -- \
			"$B/vringh_test" $o --indirect --event-idx --parallel --xfers=100000
	done
	for o in "${SPLIT[@]}" "${PACKED[@]}"; do
		expect "vringh_test --in-order${o:+ $o}" 0 -- "$B/vringh_test" --in-order $o
		expect "vringh_test --in-order --parallel --xfers=$XFERS${o:+ $o}" 0 out-lines=3 -- \
			"$B/vringh_test" --in-order --parallel --xfers="$XFERS" $o
	done
	for k in 1 7 64; do
		for o in "--event-idx" "--packed --indirect --event-idx" "--packed --slow-range"; do
			expect "vringh_test --in-order=$k --parallel --xfers=$XFERS $o" 0 out-lines=3 -- \
				"$B/vringh_test" --in-order=$k --parallel --xfers="$XFERS" $o
		done
	done
}

# virtio_test: option combinations pass; a misbehaving device breaks the
# queue with a message.
virtio_test_checks() {
	local o p bug
	for o in "${VIRTIO_TEST[@]}"; do
		expect "virtio_test --buf-num=$BUFS${o:+ $o}" 0 -- \
			"$B/virtio_test" --buf-num="$BUFS" $o
	done
	for o in "${VIRTIO_TEST_PACKED[@]}"; do
		expect "virtio_test --packed --buf-num=$BUFS${o:+ $o}" 0 -- \
			"$B/virtio_test" --packed --buf-num="$BUFS" $o
	done
	for p in "" "--packed"; do
		for o in "${VIRTIO_TEST_IN_ORDER[@]}"; do
			expect "virtio_test --in-order${p:+ $p} --buf-num=$BUFS${o:+ $o}" 0 -- \
				"$B/virtio_test" --in-order $p --buf-num="$BUFS" $o
		done
	done
	# Who caught it: the ring code under test, always for wrong-id (the
	# kernel's virtio_ring checks ids too); for long-len a kernel tree's
	# driver may let it through (it checks no used length) to virtio_test's
	# own check.
	local ring="^virtio_test: the driver's ring code \\(${guest:-rig}\\) caught the device's bug"
	local own="^virtio_test: virtio_test's own check caught the device's bug; the driver's ring code \\(kernel\\) let it through"
	local caught
	for p in "" "--packed" "--in-order" "--in-order --packed"; do
		for bug in "${DEVICE_BUGS[@]}"; do
			caught=$ring
			[ "$bug" != long-len ] || [ "${guest:-rig}" = rig ] ||
				caught="$ring|$own"
			for o in "${DEVICE_BUG_OPTS[@]}"; do
				expect "virtio_test${p:+ $p} --device-bug=$bug${o:+ $o}" 3 \
					err='^virtio_test: queue broken: ' err="$caught" -- \
					"$B/virtio_test" $p --buf-num="$BUFS" --device-bug=$bug $o
			done
		done
	done
}

# The kernel tree BUILD_DIR was built from (its .rig-config).
build_ksrc() {
	sed -n 's/^KSRC=\([^ ]*\) .*/\1/p' "$B/.rig-config" 2>/dev/null
}

# Has the tree's vhost core the in-order path (vhost_add_used_n() with
# nheads), for which the build has the rig's batch device
# (kernel/vhost_batch.c; kernel/ksrc-build.mk reads it the same way)?
vhost_in_order() {
	local ksrc
	ksrc=$(build_ksrc)
	[ -n "$ksrc" ] && "$PWD/kernel/ksrc-features.sh" "$ksrc/drivers/vhost/vhost.h" 2>/dev/null |
		grep -qx '#define RIG_VHOST_ADD_USED_N_ARGS 4'
}

# virtio_test --vhost: the split-ring matrix against the kernel's vhost
# core and its test device, built from the tree (make check KSRC=).  What
# the core does not offer (a packed ring) and a bug planted in the tree's
# own device are SKIPs whose reasons name the tree.  In order, through the
# rig's batch device: virtio_test's in-order matrix and vring_bench's
# split in-order rows (VB_BUFS buffers), and the batch device out of
# order, where the tree's core has the in-order path; where not, the SKIP
# says why.  Then the hostile-ring and spec-rule cases against the core
# (tests/vhost_core_hostile.c; a known gap is a TODO).  Arguments: a
# command to run each under (valgrind), then the name's prefix; BUFS and
# VB_BUFS may be set for the call (valgrind: fewer, as each wake-up of the
# pinned worker waits for its CPU).
vhost_core_checks() {
	local o run=("${@:1:$#-1}") pre=${*: -1} vb=${VB_BUFS:-70000}
	for o in "${VIRTIO_TEST[@]}"; do
		expect "${pre}virtio_test --vhost --buf-num=$BUFS${o:+ $o}" 0 -- \
			"${run[@]}" "$B/virtio_test" --vhost --buf-num="$BUFS" $o
	done
	expect "${pre}virtio_test --vhost --packed --buf-num=$BUFS" 0 -- \
		"${run[@]}" "$B/virtio_test" --vhost --packed --buf-num="$BUFS"
	if vhost_in_order; then
		expect "${pre}virtio_test --vhost=test --in-order: test.c offers no IN_ORDER" 77 \
			out='^virtio_test: --vhost=test --in-order: the device does not offer VIRTIO_F_IN_ORDER' -- \
			"${run[@]}" "$B/virtio_test" --vhost=test --in-order --buf-num="$BUFS"
		for o in "${VIRTIO_TEST_IN_ORDER[@]}"; do
			expect "${pre}virtio_test --vhost --in-order --buf-num=$BUFS${o:+ $o}" 0 -- \
				"${run[@]}" "$B/virtio_test" --vhost --in-order --buf-num="$BUFS" $o
		done
		for o in "" "--batch=random --reset" "--no-indirect --no-event-idx --batch=random"; do
			expect "${pre}virtio_test --vhost=batch --buf-num=$BUFS${o:+ $o}" 0 -- \
				"${run[@]}" "$B/virtio_test" --vhost=batch --buf-num="$BUFS" $o
		done
		for o in "${VRING_BENCH_IN_ORDER[@]}"; do
			[[ $o != *--packed* ]] || continue
			expect "${pre}vring_bench --vhost --in-order${o:+ $o} $vb" 0 out="^$vb returned\$" -- \
				"${run[@]}" "$B/vring_bench" --vhost --in-order $o "$vb"
		done
		expect "${pre}vring_bench --vhost=batch --in --no-indirect $vb" 0 out="^$vb returned\$" -- \
			"${run[@]}" "$B/vring_bench" --vhost=batch --in --no-indirect "$vb"
	else
		expect "${pre}virtio_test --vhost=batch: no in-order vhost core in the tree, a SKIP naming why" 77 \
			out='^virtio_test: --vhost=batch: the tree.s vhost core has no in-order path: .*vhost_add_used_n\(\) without nheads' -- \
			"${run[@]}" "$B/virtio_test" --vhost=batch --buf-num="$BUFS"
		expect "${pre}vring_bench --vhost --in-order: no in-order vhost core in the tree, a SKIP naming why" 77 \
			out='^vring_bench: --vhost=batch: the tree.s vhost core has no in-order path' -- \
			"${run[@]}" "$B/vring_bench" --vhost --in-order 1000
	fi
	expect "${pre}virtio_test --vhost --device-bug=wrong-id" 3 -- \
		"${run[@]}" "$B/virtio_test" --vhost --buf-num="$BUFS" --device-bug=wrong-id
	case_checks tests/vhost_core_hostile "${pre}vhost core hostile" "${run[@]}"
}

# vhost_net_test: the kernel's vhost-net (drivers/vhost/net.c from the
# tree), its backend the rig's packet socket, with our driver (rig/kernel)
# or the tree's (kernel/kernel): BUFS frames each way, every one checked
# in content, length and order (its last line counts them), with and
# without merged receive buffers, the header from vhost-net or from the
# socket, the handlers on the vhost worker or in the driver's thread
# (--serve), both backends set to -1 mid-run and back (--detach: with
# event indices a TODO where the vhost core then sets a used flag it may
# not, VHOST_CORE_GAP_USED_FLAGS), and VIRTIO_F_IN_ORDER: a SKIP whose
# reason names the tree where its vhost-net does not offer it (before
# 7.x) or its driver drops it.
VHOST_NET_TEST=("" "--no-mrg-rxbuf" "--vnet-hdr=socket" "--vnet-hdr=socket --no-mrg-rxbuf"
		"--no-event-idx" "--no-indirect" "--no-virtio-1" "--no-virtio-1 --no-mrg-rxbuf"
		"--delayed-interrupt" "--tx" "--rx" "--rx-buf=12" "--serve" "--detach"
		"--detach --no-event-idx" "--detach=4 --no-mrg-rxbuf --no-event-idx"
		"--detach --serve --vnet-hdr=socket --no-event-idx"
		"--in-order" "--in-order --no-mrg-rxbuf" "--in-order --serve --rx-buf=100"
		"--in-order --detach --delayed-interrupt --no-event-idx")
# Then Ctrl-C, and the hostile buffers against vhost-net
# (tests/vhost_net_hostile.c; a known gap is a TODO).  Arguments as
# vhost_core_checks'; under valgrind, a few of the matrix.
vhost_net_checks() {
	local o tx rx run=("${@:1:$#-1}") pre=${*: -1} opts=("${VHOST_NET_TEST[@]}")
	[ ${#run[@]} -eq 0 ] || opts=("" "--serve --no-mrg-rxbuf"
					"--detach --vnet-hdr=socket --no-event-idx" "--in-order")
	for o in "${opts[@]}"; do
		tx=$BUFS rx=$BUFS
		case " $o " in
		*" --tx "*) rx=0x0 ;;
		*" --rx "*) tx=0x0 ;;
		esac
		expect "${pre}vhost_net_test --buf-num=$BUFS${o:+ $o}" 0 \
			err="^tx frames: $tx, rx frames: $rx in 0x[0-9a-f]+ buffers, spurious wakeups: 0x[0-9a-f]+\$" -- \
			"${run[@]}" "$B/vhost_net_test" --buf-num="$BUFS" $o
	done
	[ ${#run[@]} -eq 0 ] &&
		expect "vhost_net_test: Ctrl-C prints the counts so far, exit 130" 130 \
			err='^vhost_net_test: interrupted: tx 0x[0-9a-f]+ of 0x10000000000 frames sent, rx 0x[0-9a-f]+ received$' -- \
			tests/ctrl-c.sh "$CTRL_C_AFTER" "$B/vhost_net_test" --buf-num=0x10000000000
	case_checks tests/vhost_net_hostile "${pre}vhost-net hostile" "${run[@]}"
}

# vring_bench --packed and --in-order: every buffer comes back.
vring_bench_checks() {
	local o
	for o in "${VRING_BENCH_PACKED[@]}"; do
		expect "vring_bench --packed${o:+ $o} 70000" 0 out='^70000 returned$' err-empty -- \
			"$B/vring_bench" --packed $o 70000
	done
	for o in "${VRING_BENCH_IN_ORDER[@]}"; do
		expect "vring_bench --in-order${o:+ $o} 70000" 0 out='^70000 returned$' err-empty -- \
			"$B/vring_bench" --in-order $o 70000
	done
	# --calls: every add call in turn, kick_prepare/notify, disable_cb/
	# get_buf/enable_cb (what ab/calls.sh counts).
	for o in "" "--no-indirect" "--packed" "--packed --no-indirect"; do
		expect "vring_bench --calls --sg 4${o:+ $o} 70000" 0 out='^70000 returned$' err-empty -- \
			"$B/vring_bench" --calls --sg 4 $o 70000
	done
}

# The programs' command lines.  A bad option: exit 2, nothing on stdout,
# on stderr one line "PROG: " naming the problem, then "try 'PROG --help'"; -h and
# --help: the usage on stdout.
usage_checks() {
	local args prog o
	for args in "${USAGE_ERRORS[@]}"; do
		prog=${args%% *}
		expect "usage error: $args" 2 out-empty err-lines=2 err="^$prog: " err-last="try '$prog --help'" -- \
			"$B/$prog" ${args#"$prog"}
	done
	expect "vring_bench --packed --ring-size 32769 states the packed rule" 2 \
		err='a packed ring has 1\.\.32768 entries' -- \
		"$B/vring_bench" --packed --ring-size 32769
	expect "vring_bench --cpu 1023 names the allowed CPUs" 2 \
		err="may run on CPUs $(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)\$" -- \
		"$B/vring_bench" --cpu 1023
	# bench/wakeup's figures are bench/README's; here only their shape.
	expect "bench/wakeup --round-trips=200 --rounds=3: one line a way" 0 out-lines=4 \
		out='^CPUs [0-9]+ and [0-9]+, 3 rounds of 200 round trips$' \
		out='^cache line round trip: [0-9]+ ns \(rounds [0-9]+ to [0-9]+\)$' \
		out='^eventfd round trip: [0-9]+ ns ' out='^futex round trip: [0-9]+ ns ' err-empty -- \
		"$B/bench/wakeup" --round-trips=200 --rounds=3
	expect "usage error: bench/wakeup --rounds=0" 2 out-empty err='^bench/wakeup: ' \
		err-last="try 'bench/wakeup --help'" -- "$B/bench/wakeup" --rounds=0
	for prog in vringh_test virtio_test vring_bench vhost_net_test vhost_dev bench/wakeup; do
		for o in -h --help; do
			expect "$prog $o" 0 out="^Usage: $prog" err-empty -- "$B/$prog" $o
		done
	done
	# --xfers takes hex too, and its error says so.
	expect "vringh_test --parallel --xfers=0x10 (hex)" 0 out='^Using CPUS' -- \
		"$B/vringh_test" --parallel --xfers=0x10
	expect "vringh_test --xfers=12x: the error says hex is accepted" 2 \
		err='a number in 1\.\.2\^40 \(decimal, or hex after 0x\)$' -- \
		"$B/vringh_test" --parallel --xfers=12x
	# Decimal, never octal: 010 is ten.
	expect "vring_bench 010 adds ten buffers, quietly when not on a terminal" 0 \
		out-last='10 returned' err-empty -- "$B/vring_bench" 010
	expect "vring_bench --no-eventidx (old spelling of --no-event-idx) 1000" 0 -- \
		"$B/vring_bench" --no-eventidx 1000
	expect "vringh_test --eventidx (old spelling of --event-idx)" 0 -- \
		"$B/vringh_test" --eventidx
	# Ctrl-C: the figures so far, exit 130.  The programs catch it within
	# milliseconds of starting, but a loaded machine (or the check beside
	# this one) may not run them at once: Ctrl-C comes 2 s after the
	# program has caught SIGINT (tests/ctrl-c.sh), its first progress line
	# due 1 s after that.
	expect "vringh_test --parallel: Ctrl-C prints the figures so far, exit 130" 130 \
		out='^Interrupted after [0-9]* of 1000000000000 transfers$' \
		out='^Guest: notified' out='^Host: notified' -- \
		tests/ctrl-c.sh "$CTRL_C_AFTER" "$B/vringh_test" --parallel --xfers=1000000000000
	expect "vring_bench: Ctrl-C prints the figures so far, exit 130" 130 \
		out='^Interrupted after [0-9]* of 1000000000000 buffers$' \
		out='^[0-9]+ns$' out='^[0-9]+ returned$' out-lines=3 -- \
		tests/ctrl-c.sh "$CTRL_C_AFTER" "$B/vring_bench" 1000000000000
	# vhost_dev stopped with no frontend ever: no "frontend:" line of 0
	# messages, and a loopback's line without a source's returned=.
	expect "vhost_dev: Ctrl-C with no frontend reports none, the loopback's line its own" 0 \
		out='^listening on ' out='^net: mode=loopback rx=0 tx=0 dropped=0 bad=0$' \
		out='^cpu: ' out-lines=3 -- \
		sh -c 'd=$(mktemp -d) || exit 2; tests/ctrl-c.sh "$1" "$2" --socket="$d/s" --type=net
			rc=$?; rm -rf "$d"; exit $rc' sh "$CTRL_C_AFTER" "$B/vhost_dev"
	expect "virtio_test: Ctrl-C prints the figures so far, exit 130" 130 \
		err='^virtio_test: interrupted: spurious wakeups: 0x[0-9a-f]* started=0x[0-9a-f]* completed=0x[0-9a-f]* of 0x10000000000$' -- \
		tests/ctrl-c.sh "$CTRL_C_AFTER" "$B/virtio_test" --buf-num=0x10000000000
	# Progress on stderr, only while it is a terminal (script(1) makes one).
	if command -v script >/dev/null; then
		expect "virtio_test: progress on a terminal" 130 \
			out='virtio_test: 0x[0-9a-f]* of 0x10000000000 buffers' -- \
			script -qec "tests/ctrl-c.sh $CTRL_C_AFTER '$B/virtio_test' --buf-num=0x10000000000" /dev/null
		expect "vringh_test --parallel: progress on a terminal, then Ctrl-C" 130 \
			out='vringh_test: [0-9]* of 1000000000000 transfers' \
			out='Interrupted after [0-9]* of' -- \
			script -qec "tests/ctrl-c.sh $CTRL_C_AFTER '$B/vringh_test' --parallel --xfers=1000000000000" /dev/null
	else
		skip_check "progress on a terminal" "no script(1) (util-linux)"
	fi
}

# Every "  $ ./PROG ARGS" example in every README of the tree (the top
# one and each folder's), with the indented lines after it, is what PROG
# prints (stdout and stderr, whatever its exit status): numbers may
# differ, and a "..." line stands for any lines.  Outside a git checkout
# the READMEs are found by name.
readme_files() {
	{ git ls-files --cached --others --exclude-standard -- '*README*' \
		2>/dev/null | grep . ||
		find . -name 'README*' -not -path './build*' | sed 's|^\./||'
	} | LC_ALL=C sort -u
}

readme_checks() {
	local i cmd files
	mapfile -t files < <(readme_files)
	if [ ${#files[@]} -eq 0 ]; then
		fail_check "README examples" "no README found"
		return
	fi
	awk -v dir="$LOG" '
		FNR == 1 { ex = 0 }
		/^  \$ \.\// { n++; sub(/^  \$ /, ""); print > (dir "/ex" n ".cmd"); ex = 1; next }
		ex && /^  / { sub(/^  /, ""); print > (dir "/ex" n ".want"); next }
		{ ex = 0 }' "${files[@]}"
	for ((i = 1; ; i++)); do
		[ -e "$LOG/ex$i.cmd" ] || break
		cmd=$(cat "$LOG/ex$i.cmd")
		touch "$LOG/ex$i.want"
		# shellcheck disable=SC2016
		expect "README example: $cmd" 0 out-like="$LOG/ex$i.want" -- \
			sh -c 'cd "$1" && eval "$2" 2>&1; exit 0' sh "$B" "$cmd"
	done
	# The device torture's report in tests/README: the recorded table's
	# (two tables, a blank line between them).
	{
		sed -n '/^  case  *rig  *kernel  *guest blk/,/^$/p' tests/README
		sed -n '/^  case  *Linux 6.1 guest  *Linux 7.3 guest/,/^$/p' tests/README | sed '/^$/d'
	} >"$LOG/torture-report.want"
	expect "tests/README's driver torture report is tests/peers/dev-torture.table's" 0 \
		out-like="$LOG/torture-report.want" -- tests/peers/dev-torture-report.sh
}

# The READMEs say what a thing is and how to run it: no load average,
# date or commit hash (figures go to each folder's RESULTS), and the top
# README's "Testing a kernel patch" early (tests/readmes.sh).  The script
# must also refuse a README that has them.
readme_text_checks() {
	expect "READMEs: no load average, date or commit hash; kernel patch section early" 0 \
		err-empty -- tests/readmes.sh
	printf 'Measured at a load average of 3 on 2026-12-04, commit %s.\n' \
		"$(git rev-parse --short=12 HEAD 2>/dev/null || echo 0123456789ab)" >"$LOG/README.bad"
	if git rev-parse --git-dir >/dev/null 2>&1; then
		expect "tests/readmes.sh refuses a README with a load average, a date, a commit" 1 \
			err='README.bad:1: a load average' err='README.bad:1: a date' \
			err='README.bad:1: [0-9a-f]{12} is a commit' -- tests/readmes.sh "$LOG/README.bad"
	else
		expect "tests/readmes.sh refuses a README with a load average, a date" 1 \
			err='README.bad:1: a load average' err='README.bad:1: a date' -- \
			tests/readmes.sh "$LOG/README.bad"
	fi
}

# Test programs with cases of their own: every case listed by --list.
# $1: the program, $2: the name its checks start with, $3...: a command
# to run each case under (valgrind).
case_checks() {
	local prog=$1 name=$2 c
	shift 2
	if [ ! -x "$B/$prog" ]; then
		fail_check "$name" "$B/$prog is not built"
		return
	fi
	for c in $("$B/$prog" --list); do
		expect "$name $c" 0 -- "$@" "$B/$prog" "$c"
	done
}

# tests/kmem_misuse: the kmalloc shim's own caches hide no misuse from a
# checking tool (linux/slab.c: plain malloc under valgrind, its caches
# poisoned under ASan).  Each case: the exit status and a line of stderr
# under valgrind, then under ASan (where the shim itself stops a double
# free, and counts a leak at exit: LeakSanitizer cannot see into its
# caches); then the same without a tool, for the two the shim stops alone
# (a case of 0 is not run there).
MISUSE=("indirect-use-after-free|99|Invalid read of size|86|kmalloc: .* a use after kfree|0|"
	"indirect-leak|99|definitely lost|1|^kmalloc: 1 object still allocated at exit|1|^kmalloc: 1 object still allocated at exit"
	"double-free|99|Invalid free|134|^kfree: double free of|134|^kfree: double free of"
	"use-after-free|99|Invalid read of size|86|kmalloc: .* a use after kfree|0|")
for n in 16 32 64 128 256 512 1024 2048 4096; do
	# The largest of a class (its red zone), the smallest of the next.
	MISUSE+=("overflow-$n|99|Invalid write of size 1|86|kmalloc: .* 0 bytes past the end of a $n-byte object|0|"
		 "overflow-$((n + 1))|99|Invalid write of size 1|86|kmalloc: .* a kmalloc\\($((n + 1))\\) object, 0 past its end|0|")
done
MISUSE+=("overflow-8192|99|Invalid write of size 1|86|kmalloc: .* 0 bytes past the end of a 8192-byte object|0|"
	 "overflow-8193|99|Invalid write of size 1|86|AddressSanitizer: heap-buffer-overflow|0|")
# $1: valgrind, asan or plain.
misuse_checks() {
	local m c vs vwhy as awhy ps pwhy
	for m in "${MISUSE[@]}"; do
		IFS='|' read -r c vs vwhy as awhy ps pwhy <<<"$m"
		case $1 in
		valgrind)
			expect "valgrind reports kmem_misuse $c" "$vs" err="$vwhy" -- \
				"${VALGRIND[@]}" "$B/tests/kmem_misuse" "$c" ;;
		asan)
			expect "asan reports kmem_misuse $c" "$as" err="$awhy" -- \
				env ASAN_OPTIONS=exitcode=86:detect_leaks=1:abort_on_error=0 \
				"$B/tests/kmem_misuse" "$c" ;;
		*)
			[ "$ps" != 0 ] || continue
			# sh -c: an abort is the inner shell's to report.
			expect "kmem_misuse $c: the kmalloc shim stops it" "$ps" err="$pwhy" -- \
				sh -c '"$1" "$2"' sh "$B/tests/kmem_misuse" "$c" ;;
		esac
	done
}

# valgrind on the single-threaded scenarios and cases: every combination
# in a valgrind build (make check-valgrind), a few in a plain one.
valgrind_checks() {
	local o split=("${VALGRIND_PLAIN[@]}") in_order=("${VALGRIND_PLAIN_IN_ORDER[@]}")
	if ! command -v valgrind >/dev/null; then
		if [ "$MODE" = valgrind ]; then
			fail_check "valgrind" "valgrind is not installed (apt-get install valgrind)"
		else
			skip_check "valgrind" "valgrind is not installed"
		fi
		return
	fi
	if [ "$MODE" = valgrind ]; then
		split=("${SPLIT[@]}" "${PACKED[@]}")
		in_order=("${split[@]}")
	fi
	for o in "${split[@]}"; do
		expect "valgrind vringh_test${o:+ $o}" 0 -- "${VALGRIND[@]}" "$B/vringh_test" $o
	done
	misuse_checks valgrind
	for o in "${in_order[@]}"; do
		expect "valgrind vringh_test --in-order${o:+ $o}" 0 -- \
			"${VALGRIND[@]}" "$B/vringh_test" --in-order $o
	done
	[ "$MODE" = valgrind ] || return 0
	case_checks tests/hostile "valgrind hostile" "${VALGRIND[@]}"
	case_checks tests/allocfail "valgrind allocfail" "${VALGRIND[@]}"
	case_checks tests/mockdev "valgrind mockdev" "${VALGRIND[@]}"
	case_checks tests/dma "valgrind dma" "${VALGRIND[@]}"
	case_checks tests/features "valgrind features" "${VALGRIND[@]}"
	case_checks tests/resize "valgrind resize" "${VALGRIND[@]}"
	case_checks tests/iotlb "valgrind iotlb" "${VALGRIND[@]}"
	case_checks tests/edges "valgrind edges" "${VALGRIND[@]}"
	case_checks tests/kmem "valgrind kmem" "${VALGRIND[@]}"
}

# Each fuzz target replays its corpus, then fuzzes from a fixed seed for a
# number of runs or of CPU seconds, whichever comes first, and says which
# (fuzz/run.sh --check); the top-level make check builds them in
# $FUZZ_DIR.
fuzz_checks() {
	local t name
	for t in $(fuzz/run.sh --list); do
		name="fuzz $t: corpus + ${FUZZ_CHECK_RUNS:-100000} runs or ${FUZZ_CHECK_CPU:-30} CPU s, seed 1"
		if [ "$B" != . ]; then
			skip_check "$name" "the top-level make check runs it"
		elif [ "$MODE" != plain ]; then
			skip_check "$name" "not in a $MODE build (make check)"
		else
			# Not built: a SKIP without clang, else a FAIL (fuzz/run.sh).
			expect "$name" 0 out-note="^$t: [0-9]+ inputs run, stopped by " -- \
				fuzz/run.sh --check "$FUZZ_DIR" "$t"
		fi
	done
	# What a gcc-only machine sees: no clang, no fuzz target, a SKIP
	# naming the package.
	if [ "$B" = . ] && [ "$MODE" = plain ]; then
		expect "fuzz without clang (PATH without it) is a SKIP naming the package" 77 \
			out='^fuzz_vringh: not built: no clang with libFuzzer \(Debian: apt-get install clang ' -- \
			tests/without-clang.sh fuzz/run.sh --check "$LOG/no-fuzz-build" fuzz_vringh
	fi
}

# How BUILD_DIR was built: plain, asan, ubsan, tsan or valgrind.
check_mode() {
	if [ -n "${RIG_CHECK_MODE:-}" ]; then
		echo "$RIG_CHECK_MODE"
		return
	fi
	case $("$B/vringh_test" --version 2>/dev/null) in
	*-fsanitize=*thread*) echo tsan ;;
	*-fsanitize=*address*) echo asan ;;
	*-fsanitize=*undefined*) echo ubsan ;;
	*) echo plain ;;
	esac
}

# The checks of the ring code, for every build (and every --ksrc pairing).
ring_checks() {
	vringh_test_checks
	virtio_test_checks
	vring_bench_checks
	case_checks tests/hostile hostile
	# The kernel's vringh takes a chain the rig's refuses: the TODO says
	# what getdesc returned in words, not strerror() of a positive value.
	grep -q ' HOST=kernel ' "$B/.rig-config" 2>/dev/null &&
		expect "hostile host-avail-idx-jump: the kernel's vringh's TODO names what getdesc returned" 78 \
			err='getdesc returned 1 \(a buffer taken\), expected -22 \(Invalid argument\)' -- \
			"$B/tests/hostile" host-avail-idx-jump
	case_checks tests/vhost_user_wire "vhost-user wire"
	case_checks tests/allocfail allocfail
	case_checks tests/mockdev mockdev
	case_checks tests/dma dma
	case_checks tests/features features
	case_checks tests/resize resize
	case_checks tests/iotlb iotlb
	case_checks tests/edges edges
	case_checks tests/kmem kmem
}

# Real drivers against vhost_dev (our vhost-user backend): a hostile
# frontend, and QEMU guests and DPDK (tests/peers; a missing peer is a SKIP).
peer_checks() {
	suite "vhost-user hostile" "$B/tests/vhost_hostile" "$B/vhost_dev"
	suite peers env PEER_PREFIX="$PREFIX" tests/peers/run.sh "$B"
	# The same guest's disk with vhost_dev SIGKILLed mid-I/O and started
	# again (the inflight protocol): a suite of its own, its own time bound.
	suite "peers restart" env PEER_PREFIX="$PREFIX" tests/peers/restart.sh "$B"
	# The guest as users start it (4 vCPUs, 5 GiB, QEMU's default queues),
	# QEMU killed mid-I/O: its two big boots get a time bound of their own.
	suite "peers big guest" env PEER_PREFIX="$PREFIX" tests/peers/big-guest.sh "$B"
	# The same guest checks with Debian's 7.3 cloud kernel (trixie-backports,
	# kernel/debian-fetch.sh), named "Linux 7.3 ...": a SKIP naming why
	# where the suite cannot be reached.  GUEST_KERNEL= boots the user's
	# kernel in place of both.
	if [ -n "${GUEST_KERNEL:-}" ]; then
		skip_check "peers Linux 7.3 guest" "GUEST_KERNEL=$GUEST_KERNEL boots in its place"
	else
		suite "peers Linux 7.3 guest" env GUEST_LINUX=7.3 PEER_PREFIX="$PREFIX" \
			tests/peers/run.sh --guest "$B"
		suite "peers restart Linux 7.3" env GUEST_LINUX=7.3 PEER_PREFIX="$PREFIX" \
			tests/peers/restart.sh "$B"
		suite "peers big guest Linux 7.3" env GUEST_LINUX=7.3 PEER_PREFIX="$PREFIX" \
			tests/peers/big-guest.sh "$B"
	fi
	# testpmd takes seconds to start: a DPDK run of 4 s must still give a
	# figure, and CPU time per frame, for each driver and layout (no
	# testpmd: exit 77, a SKIP).  The shape only: no speed is asserted.
	expect "bench/net.sh RUNS=1 DPDK_SECONDS=4: a median for each driver and layout" 0 \
		out='^# testpmd of DPDK [0-9][0-9.]* as the backend' \
		out='^median split rig: [0-9]+ frames/s \([0-9.]+ x dpdk\), [0-9.]+ CPU ns/frame$' \
		out='^median split dpdk: [0-9]+ frames/s \(1\.00 x dpdk\), [0-9.]+ CPU ns/frame$' \
		out='^median packed rig: [0-9]+ frames/s \([0-9.]+ x dpdk\), [0-9.]+ CPU ns/frame$' \
		out='^median packed dpdk: [0-9]+ frames/s \(1\.00 x dpdk\), [0-9.]+ CPU ns/frame$' -- \
		env RUNS=1 FRAMES=20000 DPDK_SECONDS=4 bench/net.sh "$B" /nonexistent
}

# A copy of the kernel tree of BUILD_DIR (its .rig-config says which)
# changed by the edits of tests/ksrc-edits, checked with no change to the
# rig (tests/ksrc-patched.sh): a used-length check added to its
# virtio_ring.c turns the TODO of hostile guest-len-too-big into a pass;
# a lost kick planted in it makes vringh_test --parallel fail within 30 s,
# its watchdog naming the side that waits (split and packed, event indices
# on and off; packed with --indirect, one descriptor a buffer, as the
# planted count of buffers is one of descriptors there).  Extra work
# planted where the kernel's vhost core reads an avail ring entry is a
# regression of the vhost-core row (tests/vhost-core-regress.sh).  A tree whose vhost.c
# calls vhost_task_create() as 6.5 to 6.10 did (three arguments, NULL on
# failure) builds and runs virtio_test --vhost: the worker's shim takes
# the form the tree calls (kernel/ksrc-features.sh).  A tree including a
# header or calling a primitive the rig's shims lack fails to build with
# one line naming it (kernel/ksrc-check.sh, kernel/ksrc-cc.sh).
ksrc_patched_checks() {
	local ksrc
	ksrc=$(build_ksrc)
	if [ -z "$ksrc" ]; then
		fail_check "patched kernel trees" "$B/.rig-config names no KSRC"
		return
	fi
	expect "hostile guest-len-too-big, virtio_ring.c + used-len-check.edit: the gap is gone" 0 \
		out='^hostile: gap gone: ' -- \
		tests/ksrc-patched.sh "$ksrc" tests/ksrc-edits/used-len-check.edit kernel rig \
		tests/hostile -- ./tests/hostile guest-len-too-big
	LONG=1 expect "vringh_test --parallel, virtio_ring.c + lost-kick.edit: the watchdog names the side that waits" 0 \
		out='^  vringh_test: the host waits for a kick' -- \
		tests/ksrc-patched.sh "$ksrc" tests/ksrc-edits/lost-kick.edit kernel rig \
		vringh_test -- "$PWD/tests/expect-watchdog.sh" ./vringh_test \
		"--parallel --xfers=$XFERS" "--parallel --xfers=$XFERS --event-idx" \
		"--parallel --xfers=$XFERS --packed --indirect" \
		"--parallel --xfers=$XFERS --packed --indirect --event-idx"
	if grep -q 'vhost_task_create(' "$ksrc/drivers/vhost/vhost.c" 2>/dev/null; then
		# shellcheck disable=SC2016
		LONG=1 expect "virtio_test --vhost, vhost.c + vhost-task-3args.edit: the 6.5-6.10 vhost_task_create() form" 0 \
			err='^spurious wakeups: 0x[0-9a-f]+ started=0x4000 completed=0x4000$' -- \
			tests/ksrc-patched.sh "$ksrc" tests/ksrc-edits/vhost-task-3args.edit "$guest" "$host" \
			virtio_test -- sh -c 'grep -qx "#define RIG_VHOST_TASK_CREATE_ARGS 3" "$1" &&
				./virtio_test --vhost --buf-num=0x4000 --reset' sh ksrc/include/linux/sched/vhost_task.h
	fi
	# 7.x's in-order driver across virtqueue_reset() (tests/resize):
	# the edit that makes it forget its in-order state turns the TODOs
	# into passes.
	if grep -q 'batch_last' "$ksrc/drivers/virtio/virtio_ring.c" 2>/dev/null; then
		for c in split-in-order-reset-in-flight packed-in-order-reset-in-flight; do
			expect "resize $c, virtio_ring.c + in-order-reset.edit: the gap is gone" 0 \
				out='^resize: gap gone: ' -- \
				tests/ksrc-patched.sh "$ksrc" tests/ksrc-edits/in-order-reset.edit kernel rig \
				tests/resize -- ./tests/resize "$c"
		done
	fi
	# 7.x's new driver API (tests/dma, tests/features): four bugs planted
	# in a copy, each failing the cases that look at it and no other.
	if grep -q 'virtqueue_add_inbuf_cache_clean' "$ksrc/include/linux/virtio.h" 2>/dev/null &&
	   grep -q '^union virtio_map {' "$ksrc/include/linux/virtio.h" &&
	   grep -q 'VIRTIO_DECLARE_FEATURES(features)' "$ksrc/include/linux/virtio.h"; then
		local clean='without DMA_ATTR_DEBUGGING_IGNORE_CACHELINES$'
		local pre='the driver mapped premapped buffer 1$'
		local err="a failed mapping's handle|is not an error to virtqueue_map_mapping_error"
		LONG=1 expect "dma, features: virtio_ring.c + driver-api-bugs.edit: the cases looking at each bug fail" 0 \
			out='^tests/features transport-features-128: failed: ' -- \
			tests/ksrc-patched.sh "$ksrc" tests/ksrc-edits/driver-api-bugs.edit kernel rig \
			"tests/dma tests/features" -- sh -c '
				./tests/dma split-map-unmap >/dev/null && ./tests/dma split-map-fails >/dev/null &&
				./tests/dma map-ops-split-map-unmap && ./tests/features transport-features &&
				"$0" "$@"' "$PWD/tests/expect-fails.sh" \
			tests/dma split-cache-clean "$clean" \
			tests/dma packed-in-order-indirect-cache-clean "$clean" \
			tests/dma map-ops-packed-cache-clean "$clean" \
			tests/dma split-indirect-premapped "$pre" \
			tests/dma packed-in-order-premapped "$pre" \
			tests/dma map-ops-packed-indirect-premapped "$pre" \
			tests/dma map-ops-split-map-fails "$err" \
			tests/dma map-ops-packed-indirect-map-fails "$err" \
			tests/dma map-ops-helpers "$err" \
			tests/features transport-features-128 'device feature bit 64 cleared'
	fi
	# A tree the rig cannot build says what it lacks in one line: a
	# header no shim stands for (before compiling), a symbol none defines.
	expect "a tree including a header the rig lacks: one line names it" 0 \
		out='includes <linux/rig_no_such_header.h>, which the rig has no shim for' -- \
		tests/ksrc-patched.sh --unbuildable "$ksrc" tests/ksrc-edits/unknown-header.edit \
		kernel rig vringh_test
	expect "a tree calling a primitive the rig lacks: one line names it" 0 \
		out='^KSRC=KSRC: drivers/virtio/virtio_ring.c:[0-9]+ uses kmalloc_rig_new_primitive, which the rig' -- \
		tests/ksrc-patched.sh --unbuildable "$ksrc" tests/ksrc-edits/unknown-primitive.edit \
		kernel rig vringh_test
	# The vhost-core row of ab/count.sh (make count, make regress): the
	# same build counted twice is ok; a copy of the tree whose
	# vhost_get_avail_head() does extra work is a regression.
	[ -x "$B/vring_bench" ] || return
	LONG=1 expect "vhost core row: the same build counted twice is ok" 0 \
		out='^vhost core split instructions/buffer	.*	ok$' -- \
		tests/vhost-core-regress.sh "$B" "$B"
	LONG=1 expect "vhost core row: vhost.c + vhost-extra-work.edit is a REGRESSION" 1 \
		out='^vhost core split instructions/buffer	.*	REGRESSION$' -- \
		tests/ksrc-patched.sh "$ksrc" tests/ksrc-edits/vhost-extra-work.edit "$guest" "$host" \
		vring_bench -- "$PWD/tests/vhost-core-regress.sh" "$PWD/$B"
	# The same of vhost-net's rows (make count, make regress): a net.c
	# patch shows in them, each way.
	if [ -x "$B/vhost_net_test" ]; then
		LONG=1 expect "vhost-net rows: the same build counted twice is ok" 0 \
			out='^vhost-net tx instructions/packet	.*	ok$' \
			out='^vhost-net rx instructions/packet	.*	ok$' -- \
			tests/vhost-core-regress.sh -r vhost-net "$B" "$B"
		LONG=1 expect "vhost-net rows: net.c + vhost-net-extra-work.edit is a REGRESSION each way" 1 \
			out='^vhost-net tx instructions/packet	.*	REGRESSION$' \
			out='^vhost-net rx instructions/packet	.*	REGRESSION$' -- \
			tests/ksrc-patched.sh "$ksrc" tests/ksrc-edits/vhost-net-extra-work.edit "$guest" "$host" \
			vhost_net_test -- "$PWD/tests/vhost-core-regress.sh" -r vhost-net "$PWD/$B"
	fi
	# The in-order row (the core's in-order path, through the rig's batch
	# device): extra work on that path alone is its regression, and the
	# other row's ok.
	vhost_in_order || return
	LONG=1 expect "vhost core in-order row: vhost.c + vhost-in-order-extra-work.edit is a REGRESSION of that row alone" 1 \
		out='^vhost core split instructions/buffer	.*	ok$' \
		out='^vhost core split in-order instructions/buffer	.*	REGRESSION$' -- \
		tests/ksrc-patched.sh "$ksrc" tests/ksrc-edits/vhost-in-order-extra-work.edit "$guest" "$host" \
		vring_bench -- "$PWD/tests/vhost-core-regress.sh" --in-order "$PWD/$B"
}

# With a kernel tree's vringh, vringh_test --parallel --fast-vringh runs
# that vringh: callgrind sees each buffer completed by the kernel's
# vringh_complete_user and the notifications decided by its
# vringh_need_notify_user (valgrind schedules threads fairly: the busy host
# must not starve the guest).
callgrind_checks() {
	local name="vringh_test --parallel --fast-vringh under callgrind: the kernel's vringh.c completes and decides notifications"
	if ! command -v valgrind >/dev/null || ! command -v callgrind_annotate >/dev/null; then
		skip_check "$name" "valgrind (callgrind_annotate) is not installed"
		return
	fi
	# shellcheck disable=SC2016
	expect "$name" 0 out='drivers/vhost/vringh\.c:vringh_complete_user \(2,000x\)' \
		out='drivers/vhost/vringh\.c:vringh_need_notify_user' -- \
		sh -c 'valgrind -q --tool=callgrind --fair-sched=yes --callgrind-out-file="$1" "$2" --parallel \
			--fast-vringh --indirect --event-idx --xfers=2000 >/dev/null &&
			callgrind_annotate "$1"' sh "$LOG/callgrind.out" "$B/vringh_test"
	# kernel/README's vhost-net command, fewer frames: its instructions
	# are spent in the tree's net.c, handle_tx and handle_rx.
	# shellcheck disable=SC2016
	expect "vhost_net_test under callgrind: the tree's net.c handle_tx and handle_rx move the frames" 0 \
		out='drivers/vhost/net\.c:handle_tx ' out='drivers/vhost/net\.c:handle_rx ' -- \
		sh -c 'valgrind -q --tool=callgrind --fair-sched=yes --callgrind-out-file="$1" "$2" \
			--buf-num=2000 2>/dev/null && callgrind_annotate "$1"' sh "$LOG/callgrind-net.out" \
			"$B/vhost_net_test"
	vhost_in_order || return
	# virtio_test --vhost --in-order runs vhost.c's in-order path: its
	# batches of used entries (vhost_add_used_n_in_order(), inlined, so
	# counted by its lines: tests/cg-function.sh) and no avail ring read
	# (vhost_get_avail_head()); out of order (--vhost=batch) the reverse.
	name="virtio_test --vhost --in-order under callgrind: vhost.c's in-order path runs, no avail entry read"
	# shellcheck disable=SC2016
	expect "$name" 0 out='^in order: vhost_add_used_n_in_order \(.*\): [1-9][0-9]* instructions$' \
		out='^in order: vhost_get_avail_head \(.*\): 0 instructions$' \
		out='^out of order: vhost_add_used_n_in_order \(.*\): 0 instructions$' \
		out='^out of order: vhost_get_avail_head \(.*\): [1-9][0-9]* instructions$' -- \
		sh -c 'for d in "--vhost --in-order:in order" "--vhost=batch:out of order"; do
				valgrind -q --tool=callgrind --fair-sched=yes --compress-strings=no \
					--compress-pos=no --callgrind-out-file="$1" "$2" ${d%%:*} \
					--buf-num=0x1000 --batch=random 2>/dev/null
				rc=$?
				[ $rc -eq 0 ] || exit $((rc == 77 ? 1 : rc))
				tests/cg-function.sh "$1" "$3" vhost_add_used_n_in_order \
					vhost_get_avail_head | sed "s/^/${d#*:}: /"
			done' sh "$LOG/callgrind-vhost.out" "$B/virtio_test" "$(build_ksrc)/drivers/vhost/vhost.c"
}

# Our driver ring code (vhost_user_frontend) against real vhost-user backends,
# and against vhost_dev breaking the device's rules (each outcome as the table
# tests/peers/dev-torture.table records).  The table is what plain builds
# do: a case that breaks a rule for a moment (used-idx-back) or races the
# driver is decided by timing, which a sanitizer's slowdown changes (under
# TSan the driver can miss the 0.5 s window: tolerated, not detected).
frontend_checks() {
	expect "vhost_user_frontend --socket=<missing>: says at once that it waits, then fails" 1 \
		err='^vhost_user_frontend: no socket at /nonexistent/rig-socket yet: waiting up to 1 s' -- \
		"$B/vhost_user_frontend" --socket=/nonexistent/rig-socket --device=net --timeout=1
	suite "vhost-user frontend" tests/peers/frontend.sh "$B" "$PREFIX"
	[ -n "$KSRC" ] || dev_torture_checks
}
# Real drivers against vhost_dev --torture (tests/peers/dev-torture-drivers.sh):
# DPDK's virtio-user and the Linux guest on every case, the guest's a suite
# a device and ring, its rows sharing boots (each suite bounded by
# CHECK_TIMEOUT; a boot a row: make torture-drivers).  Plain builds only, as
# above.
driver_torture_checks() {
	local d r
	suite "dev torture DPDK virtio-user split" tests/peers/dev-torture-drivers.sh --driver=dpdk --ring=split "$B"
	suite "dev torture DPDK virtio-user packed" tests/peers/dev-torture-drivers.sh --driver=dpdk --ring=packed "$B"
	for d in blk net; do
		for r in split packed; do
			suite "dev torture Linux guest $d $r" \
				tests/peers/dev-torture-drivers.sh --driver=guest --device=$d --ring=$r "$B"
		done
	done
	# Linux 7.3's rows (driver guest7.3): blk's 21 in one boot, net's in
	# boots of 5 a ring (its virtio_net does not spin where 6.1's does).
	[ -z "${GUEST_KERNEL:-}" ] || return
	suite "dev torture Linux 7.3 guest blk" env GUEST_LINUX=7.3 \
		tests/peers/dev-torture-drivers.sh --driver=guest --device=blk "$B"
	for r in split packed; do
		suite "dev torture Linux 7.3 guest net $r" env GUEST_LINUX=7.3 \
			tests/peers/dev-torture-drivers.sh --driver=guest --device=net --ring=$r "$B"
	done
}
dev_torture_checks() {
	if [ "$MODE" = plain ]; then
		suite "vhost-user dev torture" tests/peers/dev-torture.sh "$B" "$PREFIX"
	else
		skip_check "vhost-user dev torture" "its table records plain builds' timing, not a $MODE build's (make check)"
	fi
}

if [ -n "$KSRC" ]; then
	# Each BUILD_DIR holds one pairing of ring code; its --version says
	# which (guest/host, "kernel" or "rig").  The checks of the programs
	# themselves run in the top-level make check; the peers run once, in
	# the first pairing with the kernel's vringh, and the frontend's peers
	# in the first with the kernel's virtio_ring.
	# In a sanitizer or valgrind build (make check-asan KSRC=, ...): the
	# ring checks (valgrind's own) and the vhost core's, nothing that
	# starts a peer or builds a tree of its own.
	MODE=$(check_mode) peers='' frontend=''
	long_off="RIG_CHECK_LONG=no (.ci/run: the long checks run on the newest tree)"
	for B; do
		if ! v=$("$B/vringh_test" --version 2>&1); then
			fail_check "$B: vringh_test --version" "$v"
			continue
		fi
		guest=$(sed -n 's/.*guest ring code: \([^,]*\),.*/\1/p' <<<"$v")
		host=$(sed -n 's/.*host ring code: \([^,;]*\);.*/\1/p' <<<"$v")
		PREFIX="[$guest/$host] "
		if [ "$MODE" = valgrind ]; then
			valgrind_checks
			[ "$host" = kernel ] && BUFS=0x200 VB_BUFS=3000 vhost_core_checks "${VALGRIND[@]}" "valgrind "
			[ "$host" = kernel ] && BUFS=0x200 vhost_net_checks "${VALGRIND[@]}" "valgrind "
			continue
		fi
		ring_checks
		# The vhost core is the same in every pairing: with each driver.
		[ "$host" = kernel ] && vhost_core_checks ""
		[ "$host" = kernel ] && vhost_net_checks ""
		if [ "$MODE" != plain ]; then
			[ "$host" = kernel ] && [ -z "$peers" ] && peers=1 &&
				skip_check "peers, callgrind and patched trees" "not in a $MODE build (make check KSRC=)"
			continue
		fi
		if [ "$host" = kernel ] && [ -z "$peers" ]; then
			peers=1
			if [ "${RIG_CHECK_LONG:-yes}" = no ]; then
				skip_check "peers and callgrind rows on this tree's vringh" "$long_off"
			elif [ "${RIG_CHECK_PEERS:-yes}" = no ]; then
				skip_check "peers (QEMU guests, DPDK) on this tree's vringh" \
					"RIG_CHECK_PEERS=no (.ci/run: they run on the newest tree)"
			fi
			if [ "${RIG_CHECK_LONG:-yes}" != no ]; then
				[ "${RIG_CHECK_PEERS:-yes}" = no ] || LONG=1 peer_checks
				LONG=1 callgrind_checks
			fi
		fi
		if [ "$guest" = kernel ] && [ -z "$frontend" ]; then
			frontend=1
			if [ "${RIG_CHECK_LONG:-yes}" = no ]; then
				skip_check "frontend, patched trees and ksrc folders on this tree's driver" "$long_off"
			else
				LONG=1 frontend_checks
				ksrc_patched_checks
				LONG=1 suite "ksrc folders" tests/ksrc-folders.sh "$(build_ksrc)"
			fi
		fi
		# The torture device is our vhost_dev, whose vringh serves
		# packed rings too: the kernel's driver against our device.
		if [ "$guest" = kernel ] && [ "$host" = rig ]; then
			if [ "${RIG_CHECK_LONG:-yes}" = no ]; then
				skip_check "device torture of this tree's driver" "$long_off"
			else
				LONG=1 dev_torture_checks
			fi
		fi
	done
	PREFIX=
else
	MODE=$(check_mode)
	if [ "$MODE" = valgrind ]; then
		valgrind_checks
	else
		ring_checks
		expect "virtio_test --vhost without a kernel tree is a SKIP" 77 \
			out='^virtio_test: --vhost=test: .* only from a kernel tree' -- \
			"$B/virtio_test" --vhost --buf-num=1
		expect "vhost_net_test without a kernel tree is a SKIP" 77 \
			out="^vhost_net_test: the kernel's vhost-net is built only from a kernel tree" -- \
			"$B/vhost_net_test" --buf-num=1
		expect "vhost_net_hostile without a kernel tree is a SKIP" 77 \
			out="^vhost_net_hostile: tx-header-short: the kernel's vhost-net is built only from a kernel tree" -- \
			"$B/tests/vhost_net_hostile" tx-header-short
		usage_checks
		case $MODE in
		asan) misuse_checks asan ;;
		tsan) skip_check "kmem_misuse" "not in a tsan build (make check-asan, check-valgrind)" ;;
		*) misuse_checks plain ;;
		esac
		readme_checks
		readme_text_checks
		expect "kernel/GAPS lists every kernel gap the cases name" 0 -- \
			tests/gaps-listed.sh "$B"
		suite docs tests/docs-figures.sh
		expect "no script outside tests/ sources a file under tests/" 0 -- \
			tests/sourcing.sh
		expect "COPYING, and an SPDX line in every source and script" 0 -- \
			tests/spdx.sh
		suite stats tests/stats/run.sh "$B/stats"
		suite "guest scan" tests/peers/guest-scan-test.sh
		suite "guest cpu" tests/peers/guest-cpu-test.sh
		suite runner tests/runner/stop.sh
		suite "runner bounds" tests/runner/bounds.sh
		suite "runner times" tests/runner/times.sh
		suite "runner goals" tests/runner/goals.sh
		LONG=1 suite torture tests/peers/torture-fates.sh
		LONG=1 suite bench tests/bench/run.sh "$B"
		LONG=1 frontend_checks
		if [ "$MODE" = plain ]; then
			# Every mutation of make mutate still applies to its line
			# and names a check make check has (mutate/README).
			expect "make mutate's list applies (mutate/run.sh -l)" 0 -- mutate/run.sh -l
			# (each sharing its build folders: tests/series/run.sh)
			LONG=1 suite series tests/series/run.sh series short
			LONG=1 suite "series regress" tests/series/run.sh regress restructure extra-pass
			LONG=1 suite "make check stdout" tests/runner/stdout.sh "$B"
			valgrind_checks
			LONG=1 fuzz_checks
			LONG=1 peer_checks
			LONG=1 driver_torture_checks
		else
			skip_check "valgrind" "not in a $MODE build (make check-valgrind)"
			fuzz_checks
			suite "vhost-user hostile" "$B/tests/vhost_hostile" "$B/vhost_dev"
			skip_check "peers (QEMU guest, DPDK)" "not in a $MODE build (make check)"
		fi
	fi
fi

ktap_main
