#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Real drivers against a misbehaving device: vhost_dev --torture=CASE
# serving the Linux test guest's virtio-blk and virtio-net (QEMU TCG, the
# 6.1 cloud kernel of tests/peers/guest-build.sh) and DPDK's virtio-user
# (testpmd), each case on a fresh vhost_dev and a fresh driver.  Prints one
# row per case, device and ring (the outcome and the driver's own message,
# the guest kernel's quoted from its console) as KTAP diagnostics, and a
# result (tests/lib/result.sh) comparing the outcome with
# tests/peers/dev-torture.table (drivers "guest" and "dpdk").  A missing
# peer is a SKIP with the reason.
#
# Outcomes (the driver's):
#   crashed    guest: Oops, BUG, panic on the console; testpmd: a signal
#   detected   guest: the kernel named the fault after /init started
#              (virtio_ring's "id N out of range", "is not a head!", a
#              driver's own check), the queue then broken
#   accepted   wrong data or a wrong length reached the user (the guest's
#              read sum, a frame that came back different, the block
#              layer's "I/O error" for requests past the disk's real end),
#              or the driver went on and corrupted its own ring (vhost_dev
#              refused it)
#   hung       guest: no result within GUEST_WAIT s (8, the guest's own
#              time) of the rule being broken, or a frame that never came
#              back; DPDK: no frame moved for 3 s before all came back
#   tolerated  the driver carried on: every byte checked (a net frame
#              dropped without a word, the rest intact, is tolerated)
#   not-done   the rule was never broken (vhost_dev's "never done"), or the
#              lie cannot reach the driver (QEMU's virtio-net keeps its own
#              config space)
#
# The guest's rows share boots: one a device (blk, net; make check runs
# the 6.1 guest a ring at a time), each row a device of its own at its own
# PCI slot on its own vhost_dev, each device's I/O in a guest process of
# its own (tests/peers/guest-init.sh rigeach), its bounds its own; the
# console's kernel lines go to the device they name (guest_scan).  A crash
# or a fault line naming no device in such a boot runs each of its rows
# again on a boot of its own; a guest that got stuck runs the rows it had
# not settled again.
#
# Usage: tests/peers/dev-torture-drivers.sh [--all] [--driver=guest|dpdk]
#            [--ring=split|packed] [--device=blk|net] BUILD_DIR [LABEL]
#   --all     each guest row on a boot of its own (make torture-drivers)
#   --driver  only that driver (default both)
#   --ring    only that ring (default both)
#   --device  only that device's guest rows (default both; DPDK is net)
#   RECORD=1 prints the rows in the table's format instead.
# Environment: GUEST_LINUX (the guest's kernel, 6.1 or 7.3: its rows are
#   driver "guest" or "guest7.3"), GUEST_DIR (the guest build cache:
#   shlib/guest.sh),
#   CASES=ERE (only the cases whose names match), GUEST_ROWS (only these
#   guest rows, CASE:DEVICE:RING ...).
set -u
cd "$(dirname "$0")/../.." || exit 1
ALL=0 DRIVERS="guest dpdk" RINGS="split packed" DEVICES="blk net"
usage() {
	echo "dev-torture-drivers.sh: $1" >&2
	echo "usage: tests/peers/dev-torture-drivers.sh [--all] [--driver=guest|dpdk]" \
		"[--ring=split|packed] [--device=blk|net] BUILD_DIR [LABEL]" >&2
	exit 2
}
while [ $# -gt 0 ]; do
	case $1 in
	--all) ALL=1 ;;
	--driver=guest | --driver=dpdk) DRIVERS=${1#--driver=} ;;
	--ring=split | --ring=packed) RINGS=${1#--ring=} ;;
	--device=blk | --device=net) DEVICES=${1#--device=} ;;
	-*) usage "unknown option $1" ;;
	*) break ;;
	esac
	shift
done
[ $# -ge 1 ] && [ $# -le 2 ] || usage "BUILD_DIR [LABEL]"
B=$1
LABEL=${2:-}
GUEST_WAIT=${GUEST_WAIT:-8}
VHOST_DEV=$B/vhost_dev
DPDK_FRAMES=5000
. shlib/vhost-dev.sh
. shlib/guest.sh
# The guest's rows in the table: "guest" (6.1, or GUEST_KERNEL's), "guest7.3".
GDRV=guest
[ -z "$GUEST_NAME" ] || GDRV=guest$GUEST_LINUX
# The guest's disk: 16 MiB (after guest.sh, whose peer checks use more).
DISK_BYTES=$((16 << 20))
. shlib/testpmd.sh
. tests/lib/dev-torture.sh
. tests/peers/guest-scan.sh
[ -x "$VHOST_DEV" ] || { fail "${LABEL}dev-torture drivers: $VHOST_DEV is not built"; ktap_finished; }

# fired ERE FILE: has vhost_dev broken the rule yet (dpdk_one)?  fired_at:
# when it was seen ($tick + 1, in tenths of a second).  A config case lies
# from the start: its bound runs from the driver's first sign of life, a
# line of FILE matching ERE.
fired_at=0
fired() {
	[ "$fired_at" != 0 ] && return 0
	if { [[ $c == blk-* || $c == net-* ]] && grep -aqE "$1" "$2"; } ||
		grep -q '^torture: .*: done' "$T/dev.err"; then
		fired_at=$((tick + 1))
		return 0
	fi
	return 1
}

# kmsg ERE: the guest kernel's first line matching ERE once /init started
# (RIG-INIT), timestamp cut, in the device's console $CON.
kmsg() {
	tr -d '\r' <"$CON" | sed -n '/RIG-INIT/,$ s/^\[ *[0-9.]*\] //p' |
		grep -E "$1" | head -n 1
}

# The guest's devices: PCI slot GUEST_SLOT0 + i for row i of a boot, up
# to 0x1e (slot 1 is the VGA card, 2 QEMU's default NIC, 0x1f the ICH9).
GUEST_SLOT0=3
GUEST_MAX=$((0x1e - GUEST_SLOT0 + 1))
GUEST_STUCK=5
# Net devices a boot: the guest's one vCPU serves every device's frames
# within the same bound (the row's 8 s; guest_io waits 30 s for a frame), and at a load
# average of 21 two of 10 net devices missed them (hung, where a boot of
# its own was detected): fewer, less to serve in that time.
GUEST_NET_MAX=5
# The rows that stop the whole guest (used-id-free breaks virtio_net's
# transmit ring, whose used index the device moved on: the spin guest_boot
# tells of), which would cost a boot of several 5 s and a second boot.
# Linux 7.3's virtio_net does not spin there: the other net devices of its
# boot finish (split and packed, tried), so its rows share boots.
GUEST_ALONE="used-id-free:net:split used-id-free:net:packed"
[ "$GDRV" = guest ] || GUEST_ALONE=""

# guest_group CASE:DEVICE:RING...: one boot with a device for each row,
# each on its own vhost_dev; GOUT[i] "OUTCOME|MESSAGE" for row i.  GSHARED
# says why the outcomes of a boot of several devices cannot be told apart
# (a crash, a fault line naming no device): the caller runs each alone.
# A guest that got stuck (G_STUCK) leaves GOUT[i] empty for the rows it
# had not settled, GRERUN: the caller runs them again.
guest_group() {
	local i=0 r
	G_C=() G_D=() G_R=() G_SLOT=() GOUT=() GSHARED="" GRERUN=()
	for r; do
		IFS=: read -r "G_C[$i]" "G_D[$i]" "G_R[$i]" <<<"$r"
		G_SLOT[i]=$(printf '0000:00:%02x.0' $((GUEST_SLOT0 + i)))
		i=$((i + 1))
	done
	if ! "$T/guest_io" mkdisk "$T/disk.img" "$DISK_BYTES" 7; then
		for i in "${!G_C[@]}"; do GOUT[i]="error|mkdisk"; done
		return
	fi
	# A boot that never reached /init (TCG under load: "IO-APIC + timer
	# doesn't work!") is tried once more.
	for _ in 1 2; do
		guest_boot || return
		grep -aq RIG-INIT "$T/console" && break
	done
	if ! grep -aq RIG-INIT "$T/console"; then
		for i in "${!G_C[@]}"; do
			GOUT[i]="error|the guest did not reach /init twice: $(tr -d '\r' <"$T/console" | grep -v '^$' | tail -n 1)"
		done
		return
	fi
	if [ ${#G_C[@]} -gt 1 ]; then
		GSHARED=$(guest_scan shared "$T/console" | head -n 1)
		[ -z "$GSHARED" ] || return
	fi
	for i in "${!G_C[@]}"; do
		if [ -z "${G_WAITED[i]:-}" ]; then
			GRERUN+=("${G_C[i]}:${G_D[i]}:${G_R[i]}")
			continue
		fi
		c=${G_C[i]} dev=${G_D[i]} CON=$T/g$i.console DOUT=$T/g$i.out waited=${G_WAITED[i]}
		if ! grep -aq "RIG-DEV [^ ]* ${G_SLOT[i]} " "$T/console"; then
			GOUT[i]="error|the guest did not list a device at ${G_SLOT[i]}: $(tr -d '\r' <"$T/console" | grep -v '^$' | tail -n 1)"
			continue
		fi
		guest_scan view "$T/console" "${G_SLOT[i]}" "${G_CUT[i]:-0}" >"$CON"
		classify_guest
		GOUT[i]=$OUT
	done
}

# guest_boot: one boot of guest_group's devices, the console in
# $T/console.  A device is done at its RIG-DONE line, GUEST_WAIT s after
# its rule was broken, or 3 s after the kernel named its fault (time for
# an oops to follow); G_WAITED[i] that bound, G_CUT[i] the console's
# length then (what a boot of its own would have shown).  Those bounds
# are the guest's own time, counted in its RIG-TICK lines (one each
# 0.5 s), so a guest slowed by a busy host gets as long as an idle one;
# a config case's from its device's RIG-DEV line, where its I/O begins.
# The boot ends when every device is done, 90 s in all.  A guest that
# stops its RIG-TICK lines is stuck, whichever device did it (Linux
# 6.1's virtio_net spins in virtnet_poll_cleantx on a broken transmit
# ring the device used past): after GUEST_STUCK s (5) the boot ends, a
# boot of one device with its row done (G_WAITED GUEST_STUCK), a boot of
# several with G_STUCK set and the devices not done with G_WAITED[i]
# empty.
guest_boot() {
	local i qpid tick=0 all opts broken s d said beats=0 last_beats=0 last_beat=0 stuck
	local -a args da dpids fired_at said_at dn said_now listed
	G_WAITED=() G_CUT=() G_STUCK=""
	for i in "${!G_C[@]}"; do
		opts=""
		[ "${G_R[i]}" = packed ] && opts=",packed=on"
		[ "${G_C[i]}" = packed-mid-id ] && opts="$opts,indirect_desc=off"
		opts="$opts,addr=$(printf 0x%02x $((GUEST_SLOT0 + i)))"
		if [ "${G_D[i]}" = blk ]; then
			da=(--type=blk --disk="$T/disk.img")
			args+=(-chardev "socket,id=c$i,path=$T/g$i.sock"
			       -device "vhost-user-blk-pci,chardev=c$i,num-queues=1$opts")
		else
			da=(--type=net)
			args+=(-chardev "socket,id=c$i,path=$T/g$i.sock" -netdev "vhost-user,id=n$i,chardev=c$i"
			       -device "virtio-net-pci,netdev=n$i,vectors=0$opts")
		fi
		[ "${G_C[i]}" = net-queue-pairs ] && da+=(--queues=2)
		if ! start_dev "g$i" "${da[@]}" --torture="${G_C[i]}"; then
			for s in "${!G_C[@]}"; do
				GOUT[s]="error|vhost_dev did not start: $(head -n 1 "$T/g$i.err")"
			done
			for d in "${dpids[@]}" "$DEV_PID"; do stop_dev "$d"; done
			return 1
		fi
		dpids+=("$DEV_PID")
	done
	# loglevel=5: the kernel's warnings and errors on the console.
	guest_cmd "rigeach=1 rigbs=65536 rignet=300 loglevel=5" "${args[@]}"
	: >"$T/console"
	"${QEMU_CMD[@]}" </dev/null >"$T/console" 2>&1 &
	qpid=$!
	PIDS="$PIDS $qpid"
	while kill -0 "$qpid" 2>/dev/null && [ $tick -lt 900 ]; do
		broken=$(grep -l '^torture: .*: done' "$T"/g[0-9]*.err 2>/dev/null)
		dn=() said_now=() listed=()
		while read -r s d said; do
			[ "$s" = beats ] && beats=$d && continue
			for i in "${!G_SLOT[@]}"; do
				[ "${G_SLOT[i]}" = "$s" ] && dn[i]=$d said_now[i]=$said listed[i]=1
			done
		done < <(guest_scan state "$T/console")
		[ "$beats" = "$last_beats" ] || last_beats=$beats last_beat=$tick
		stuck=0
		[ "$beats" -gt 0 ] && stuck=$((tick - last_beat))
		if [ $stuck -ge $((GUEST_STUCK * 10)) ]; then
			G_STUCK="no RIG-TICK for $GUEST_STUCK s"
			break
		fi
		all=1
		for i in "${!G_C[@]}"; do
			[ -z "${G_WAITED[i]:-}" ] || continue
			if [ -z "${fired_at[i]:-}" ]; then
				if [[ ${G_C[i]} == blk-* || ${G_C[i]} == net-* ]] && [ "${listed[i]:-}" = 1 ] ||
					[[ $'\n'$broken$'\n' == *$'\n'"$T/g$i.err"$'\n'* ]]; then
					fired_at[i]=$beats
				fi
			fi
			if [ "${dn[i]:-0}" = 1 ]; then
				G_WAITED[i]=$GUEST_WAIT
			elif [ -n "${fired_at[i]:-}" ] && [ $((beats - fired_at[i])) -ge $((GUEST_WAIT * 2)) ]; then
				G_WAITED[i]=$GUEST_WAIT G_CUT[i]=$(guest_scan lines "$T/console")
			elif [ -z "${said_at[i]:-}" ] && [ "${said_now[i]:-0}" = 1 ]; then
				said_at[i]=$beats
			elif [ -n "${said_at[i]:-}" ] && [ $((beats - said_at[i])) -ge 6 ]; then
				G_WAITED[i]=3 G_CUT[i]=$(guest_scan lines "$T/console")
			fi
			[ -n "${G_WAITED[i]:-}" ] || all=0
		done
		[ $all = 1 ] && break
		sleep 0.1
		tick=$((tick + 1))
	done
	# A boot of one device: the guest stuck is that row's outcome.
	if [ -n "$G_STUCK" ] && [ ${#G_C[@]} = 1 ]; then
		G_WAITED[0]=$GUEST_STUCK G_STUCK=""
	fi
	for i in "${!G_C[@]}"; do
		[ -n "$G_STUCK" ] || G_WAITED[i]=${G_WAITED[i]:-$GUEST_WAIT}
	done
	kill "$qpid" 2>/dev/null
	wait "$qpid" 2>/dev/null
	forget_pid "$qpid"
	for d in "${dpids[@]}"; do stop_dev "$d"; done
}

# classify_guest: OUT from a device's console $CON and its vhost_dev's output
# $DOUT (guest_group's c, dev, waited).
classify_guest() {
	RESULT=$(grep -ao 'RIG-RESULT.*' "$CON" | tr -d '\r' | tail -n 1)
	# QEMU's virtio-net keeps a config space of its own (vhost-user/README).
	if [[ $c == net-* ]] && msg=$(grep -a -m1 'PROTOCOL_F_CONFIG but QEMU does not' "$CON"); then
		OUT="not-done|the lie never reaches the guest: ${msg//$'\r'/}"
		return
	fi
	if grep -q 'never done' "$DOUT"; then
		OUT="not-done|vhost_dev never broke the rule: $(grep -m1 'never done' "$DOUT")"
		return
	fi
	if [ -z "$RESULT" ]; then
		res="then no result within $waited s"
	else
		res="then $(tr -d '\r' <"$CON" | grep -m1 '^guest_io: ' || echo "$RESULT")"
	fi
	msg=$(kmsg "$CRASH")
	if [ -n "$msg" ]; then
		OUT="crashed|$msg"
		return
	fi
	msg=$(kmsg "$FAULT")
	if [ -n "$msg" ]; then
		OUT="detected|$msg; $res"
		return
	fi
	if [ "$dev" = blk ] && [ -n "$RESULT" ] && [[ $RESULT != *error=* ]]; then
		sum=$(field blk_sum)
		if [ "$(field blk_bytes)" != "$DISK_BYTES" ] || [ "$sum" != "$WANT_SUM" ]; then
			OUT="accepted|guest read $(field blk_bytes) bytes, sum $sum (the disk's: $WANT_SUM)"
			return
		fi
	fi
	# The device failed requests the lie led to (past the disk's end).
	msg=$(kmsg 'I/O error')
	if [ "$dev" = blk ] && [ -n "$msg" ]; then
		OUT="accepted|$msg; $res"
		return
	fi
	if [ "$dev" = net ] && [ -n "$(field net_bad)" ] && [ "$(field net_bad)" != 0 ]; then
		OUT="accepted|$(field net_bad) frames came back different: $(grep -m1 'differs' "$CON" | tr -d '\r')"
		return
	fi
	if [ -z "$RESULT" ] || [[ $RESULT == *error=* && $(field net_lost) == "" ]] ||
		grep -q 'did not come back' "$CON"; then
		OUT="hung|no word from the kernel; $res"
		return
	fi
	why=""
	[ "$dev" = net ] && [ "$(field net_lost)" != 0 ] &&
		why="$(field net_lost) frame(s) dropped without a word, the rest intact"
	OUT="tolerated|$why"
}

# dpdk_one CASE RING: testpmd (io forwarding, in_order=0) sends back what
# vhost_dev --net=source sends, DPDK_FRAMES frames; sets OUT.
dpdk_one() {
	local c=$1 ring=$2 ppid tick=0 last=-1 same=0 n rc msg stuck=0 q=()
	[ "$c" = net-queue-pairs ] && q=(--queues=2)
	if ! start_dev dev --type=net "${q[@]}" --net=source --frames=$DPDK_FRAMES --torture="$c"; then
		OUT="error|vhost_dev did not start: $(head -n 1 "$T/dev.err")"
		return
	fi
	testpmd_cmd '0@0,1@0' "rig-peers-$$" \
		"net_virtio_user0,path=$T/dev.sock,queues=1,packed_vq=$([ "$ring" = packed ] && echo 1 || echo 0),in_order=0"
	"${TESTPMD[@]}" </dev/null >"$T/pmd.out" 2>&1 &
	ppid=$!
	PIDS="$PIDS $ppid"
	# Until every frame came back, testpmd died, or, once the rule is
	# broken, its once-a-second statistics show no frame sent for 3 s
	# (60 s in all).
	fired_at=0
	while kill -0 "$ppid" 2>/dev/null && [ $tick -lt 600 ]; do
		grep -q '^net: mode=source' "$T/dev.out" && break
		n=$(grep -ao 'TX-packets: *[0-9]*' "$T/pmd.out" 2>/dev/null | tail -n 1)
		if [ -z "$n" ] || ! fired 'TX-packets: +[1-9]' "$T/pmd.out" 2>/dev/null ||
			[ "$n" != "$last" ]; then
			same=0 last=$n
		else
			same=$((same + 1))
		fi
		[ $same -ge 30 ] && break
		sleep 0.1
		tick=$((tick + 1))
	done
	kill -INT "$ppid" 2>/dev/null
	poll_gone 100 "$ppid" || { stuck=1; kill -KILL "$ppid" 2>/dev/null; }
	wait "$ppid"
	rc=$?
	forget_pid "$ppid"
	rm -rf "/var/run/dpdk/rig-peers-$$"
	stop_dev "$DEV_PID"
	if grep -q 'never done' "$T/dev.out"; then
		OUT="not-done|vhost_dev never broke the rule: $(grep -m1 'never done' "$T/dev.out")"
	elif [ $stuck = 1 ]; then
		OUT="hung|testpmd did not exit within 5 s of SIGINT (killed)"
	elif [ $rc -gt 128 ]; then
		OUT="crashed|testpmd killed by SIG$(kill -l $((rc - 128))) (exit status $rc)"
	elif msg=$(grep -m1 -E 'virtio.*(error|fail|invalid|bad)' "$T/pmd.out"); then
		OUT="detected|$msg"
	elif msg=$(grep -m1 -E 'came back wrong|refused the ring' "$T/dev.err"); then
		OUT="accepted|vhost_dev: $msg"
	elif ! grep -q "^net: mode=source rx=$DPDK_FRAMES tx=$DPDK_FRAMES returned=$DPDK_FRAMES dropped=0 bad=0 " "$T/dev.out"; then
		OUT="hung|no frame for 3 s; vhost_dev: $(grep -m1 '^net:' "$T/dev.out")"
	else
		OUT="tolerated|"
	fi
}

[ "${RECORD:-0}" = 1 ] || printf '# %-6s %-18s %-4s %-7s %-10s %s\n' driver case dev ring outcome message
# row DRIVER CASE DEVICE RING: run it (OUT set) and say how it went.
row() {
	local outcome msg
	IFS='|' read -r outcome msg <<<"$OUT"
	if [ "${RECORD:-0}" = 1 ]; then
		printf '%-7s %-18s %-4s %-7s %s\n' "$1" "$2" "$3" "$4" "$outcome"
		return
	fi
	printf '# %-6s %-18s %-4s %-7s %-10s %s (%d s)\n' "$1" "$2" "$3" "$4" "$outcome" "$msg" \
		$((SECONDS - T0))
	torture_verdict "$@" "$outcome"
}

# guest_rows: the guest's rows to run, "CASE:DEVICE:RING" a line.
guest_rows() {
	local c dev ring
	while read -r c dev ring; do
		[[ " $RINGS " == *" $ring "* && " $DEVICES " == *" $dev "* && $c =~ ${CASES:-.} ]] ||
			continue
		[ -z "${GUEST_ROWS:-}" ] || [[ " $GUEST_ROWS " == *" $c:$dev:$ring "* ]] || continue
		echo "$c:$dev:$ring"
	done < <(torture_rows "$VHOST_DEV" blk net)
}

# guest_report ROW...: guest_group's outcomes, a row each; a boot of
# several whose outcomes cannot be told apart is said, then each row runs
# on a boot of its own.
guest_report() {
	local i r
	local -a rows=("$@")
	T0=$SECONDS
	guest_group "${rows[@]}"
	if [ -n "$GSHARED" ]; then
		echo "# dev-torture $GDRV: one boot of ${#rows[@]} devices showed \"$GSHARED\":" \
			"which device's lie caused it is unknown; each runs on a boot of its own"
		for r in "${rows[@]}"; do
			guest_report "$r"
		done
		return
	fi
	local -a again=("${GRERUN[@]}")
	for i in "${!rows[@]}"; do
		[ -n "${GOUT[i]:-}" ] || continue
		OUT=${GOUT[i]}
		IFS=: read -r c dev ring <<<"${rows[i]}"
		row "$GDRV" "$c" "$dev" "$ring"
	done
	[ ${#again[@]} -gt 0 ] || return
	echo "# dev-torture $GDRV: a boot of ${#rows[@]} devices got stuck ($G_STUCK):" \
		"${again[*]} again"
	if [ ${#again[@]} -lt ${#rows[@]} ]; then
		guest_report "${again[@]}"
	else
		for r in "${again[@]}"; do
			guest_report "$r"
		done
	fi
}

if [[ $DRIVERS != *guest* ]]; then
	:
elif ! guest_ready; then
	skip "${LABEL}dev-torture $GDRV" "$GUEST_WHY"
else
	"$T/guest_io" mkdisk "$T/disk.img" "$DISK_BYTES" 7 &&
		WANT_SUM=$("$T/guest_io" sum "$T/disk.img" | awk '{ print $3 }')
	mapfile -t rows < <(guest_rows)
	if [ $ALL = 1 ]; then
		for r in "${rows[@]}"; do
			guest_report "$r"
		done
	else
		# A boot a device (blk or net, of the rings asked for), up to
		# GUEST_MAX devices (net: GUEST_NET_MAX); GUEST_ALONE each on a
		# boot of its own.
		for key in blk net; do
			group=() alone=()
			for r in "${rows[@]}"; do
				[[ $r == *":$key:"* ]] || continue
				if [[ " $GUEST_ALONE " == *" $r "* ]]; then
					alone+=("$r")
				else
					group+=("$r")
				fi
			done
			# As few boots as GUEST_NET_MAX allows, of even sizes.
			max=$GUEST_MAX
			[[ $key == net* ]] && max=$GUEST_NET_MAX
			boots=$(((${#group[@]} + max - 1) / max))
			[ "$boots" -gt 0 ] && max=$(((${#group[@]} + boots - 1) / boots))
			while [ ${#group[@]} -gt 0 ]; do
				guest_report "${group[@]:0:max}"
				group=("${group[@]:max}")
			done
			for r in "${alone[@]}"; do
				guest_report "$r"
			done
		done
	fi
fi
if [[ $DRIVERS != *dpdk* ]]; then
	:
elif ! command -v dpdk-testpmd >/dev/null; then
	skip "${LABEL}dev-torture dpdk" "no dpdk-testpmd (apt-get install dpdk-dev)"
else
	while read -r c dev ring; do
		[[ " $RINGS " == *" $ring "* && $c =~ ${CASES:-.} ]] || continue
		T0=$SECONDS
		dpdk_one "$c" "$ring"
		row dpdk "$c" "$dev" "$ring"
	done < <(torture_rows "$VHOST_DEV" net)
fi
ktap_finished
