#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# /init of the test guest (tests/peers/guest-build.sh), run by busybox's sh
# (the guest has no bash: the one script of the rig that is not bash).
# What it does comes from the kernel command line, which the kernel passes
# on as environment:
#   rigblk=1                  read all of /dev/vda, print its size and sum
#   rigbs=BYTES               the size of each read (default 1 MiB)
#   rigwrite=OFF,LEN,SEED     then write the pattern there (and fsync)
#   rignet=N                  send N frames on eth0, check they come back
#   rigcpus=OFF,LEN,DSEED,WSEED,ROUNDS
#                             from every CPU at once, pinned: read, write,
#                             read back the disk there (guest_io cpus blk)
#   rigcpusnet=N              from every CPU at once: N frames each
#                             (guest_io cpus net)
#   rigeach=1                 every virtio device at once, each in a process
#                             of its own: blk read as rigblk, net as rignet
#                             (a device that hangs stops only its own I/O)
# It prints "RIG-INIT" first, then one line "RIG-RESULT ..." (every field key=value, "error" set
# if anything failed) and powers off.  With rigeach, first for each device
# "RIG-DEV VIRTIO PCI-ADDRESS DRIVER NAME" (virtio3 0000:00:05.0 virtio_blk
# vdb; none and - when no driver took it), then as each one's I/O ends its
# guest_io complaints as "RIG-IO PCI-ADDRESS LINE" and its fields as
# "RIG-DONE PCI-ADDRESS key=value ...", and meanwhile "RIG-TICK" every
# 0.5 s (a guest that stops printing it is stuck, whatever its devices).
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
res="" err=""
# The host's bound on a device that lies from the start runs from here.
echo "RIG-INIT"
for m in $(cat /lib/mod/order); do
	insmod "/lib/mod/$m.ko" || err="$err insmod-$m"
done
# The drivers, loaded or built in (guest-build.sh takes those the kernel
# package has no module for as built in).
for d in pci/drivers/virtio-pci virtio/drivers/virtio_blk virtio/drivers/virtio_net; do
	[ -d "/sys/bus/$d" ] || err="$err no-driver-${d##*/}"
done
# wait_for PATH: up to 30 s for a device to appear (a liveness bound: a
# TCG guest on a loaded host can take seconds).
wait_for() {
	n=0
	while [ ! -e "$1" ] && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done
	[ -e "$1" ]
}
# blk_io DEV FEATURES: read all of DEV, its size and sum (and the features
# file FEATURES) into res.
blk_io() {
	f=$2
	if wait_for "$1" && out=$(guest_io sum "$1" ${rigbs:-}); then
		set -- $out
		res="$res blk_bytes=$2 blk_sum=$3 blk_mbps=$4"
		res="$res blk_features=$(cat "$f")"
	else
		err="$err blk-read"
	fi
}
# net_io IFNAME FEATURES: rignet frames through IFNAME, the counts also when
# a check failed (net_lost: frames skipped).
net_io() {
	f=$2
	if wait_for "/sys/class/net/$1"; then
		out=$(guest_io net "$1" "$rignet") || err="$err net"
		set -- $out
		[ $# -ge 11 ] &&
			res="$res net_sent=$3 net_received=$5 net_bad=$7 net_wait_ms=$9 net_lost=${11}"
		res="$res net_features=$(cat "$f")"
	else
		err="$err net"
	fi
}
[ -n "$rigblk" ] && blk_io /dev/vda /sys/block/vda/device/features
if [ -n "$rigwrite" ]; then
	IFS=, read -r off len seed <<EOF
$rigwrite
EOF
	guest_io write /dev/vda "$off" "$len" "$seed" >/dev/null && res="$res blk_write=ok" ||
		err="$err blk-write"
fi
[ -n "$rignet" ] && [ -z "$rigeach" ] && net_io eth0 /sys/class/net/eth0/device/features
if [ -n "$rigeach" ]; then
	while :; do echo RIG-TICK; sleep 0.5; done &
	tick=$! pids=""
	for d in /sys/bus/virtio/devices/virtio*; do
		[ -e "$d" ] || continue
		p=$(readlink -f "$d")
		p=${p%/*} drv=none name=-
		[ -e "$d/driver" ] && drv=$(readlink "$d/driver") && drv=${drv##*/}
		for x in "$d"/block/* "$d"/net/*; do [ -e "$x" ] && name=${x##*/}; done
		echo "RIG-DEV ${d##*/} ${p##*/} $drv $name"
		(
			res="" err="" slot=${p##*/}
			case $(cat "$d/device") in
			0x0002) [ "$name" = - ] && err=blk-read ||
				blk_io "/dev/$name" "$d/features" 2>"/tmp/$slot.err" ;;
			0x0001) [ "$name" = - ] && err=net ||
				net_io "$name" "$d/features" 2>"/tmp/$slot.err" ;;
			*) err=device-$(cat "$d/device") ;;
			esac
			[ -f "/tmp/$slot.err" ] && while read -r line; do
				echo "RIG-IO $slot $line"
			done <"/tmp/$slot.err"
			[ -n "$err" ] && res="$res error=$(echo $err | tr ' ' ,)"
			echo "RIG-DONE $slot$res"
		) &
		pids="$pids $!"
	done
	wait $pids
	kill $tick
fi
# cpus_run NAME ARGS...: guest_io cpus ARGS; its per-CPU figures as
# NAME_ios=A,B,... and its totals as NAME_bad=, NAME_moved=, NAME_s= (the
# seconds it took; for blk also NAME_high=, the CPUs whose buffer is above
# 4 GiB, for net NAME_wait_ms=, the longest wait for a frame, and per CPU
# NAME_lost= its frames that never came back, NAME_sock_drops= those its
# socket dropped, NAME_qdisc_drops= those its transmit queue's qdisc did).
cpus_run() {
	name=$1 ios="" lost="" drops="" qdrops=""
	shift
	if out=$(guest_io cpus "$@"); then :; else err="$err $name"; fi
	# "cpu I ios N bytes N bad N moved N high 0|1", for net then "probes N
	# lost N sock_packets N sock_drops N txq Q qdisc_drops N"; then "cpus
	# N ..." totals and "seconds S wait_ms MS"
	while read -r line; do
		set -- $line
		case $1 in
		cpu) ios="$ios${ios:+,}$4"
		     [ $# -ge 24 ] && lost="$lost${lost:+,}${16}" drops="$drops${drops:+,}${20}" \
			qdrops="$qdrops${qdrops:+,}${24}" ;;
		cpus) res="$res ${name}=$2 ${name}_ios=$ios ${name}_bad=$8 ${name}_moved=${10} ${name}_s=${14}"
		      if [ "$name" = cpus_blk ]; then res="$res ${name}_high=${12}"
		      else res="$res ${name}_wait_ms=${16} ${name}_lost=$lost"
			    res="$res ${name}_sock_drops=$drops ${name}_qdisc_drops=$qdrops"; fi ;;
		esac
	done <<EOF
$out
EOF
}
# count GLOB: how many paths match (the queues a driver set up).
count() { n=0; for p in $1; do [ -e "$p" ] && n=$((n + 1)); done; echo $n; }
if [ -n "$rigcpus" ]; then
	IFS=, read -r off len dseed wseed rounds <<EOF
$rigcpus
EOF
	if wait_for /dev/vda; then
		res="$res blk_hwq=$(count '/sys/block/vda/mq/*')"
		cpus_run cpus_blk blk /dev/vda "$off" "$len" "$dseed" "$wseed" "$rounds"
		# Each request queue's interrupts (its own MSI-X vector): the
		# device used buffers on it.
		q=""
		while read -r _ line; do
			case $line in
			*virtio*-req.*) ;;
			*) continue ;;
			esac
			n=0
			for f in $line; do
				case $f in *[!0-9]*) break ;; esac
				n=$((n + f))
			done
			q="$q${q:+,}$n"
		done </proc/interrupts
		res="$res blk_irqs=$q"
	else
		err="$err cpus_blk"
	fi
fi
if [ -n "$rigcpusnet" ]; then
	if wait_for /sys/class/net/eth0; then
		res="$res net_txq=$(count '/sys/class/net/eth0/queues/tx-*')"
		res="$res net_rxq=$(count '/sys/class/net/eth0/queues/rx-*')"
		# eth0 carries the senders' frames alone: no IPv6 (its
		# neighbour discovery would share their queues).
		[ -e /proc/sys/net/ipv6/conf/eth0/disable_ipv6 ] &&
			echo 1 >/proc/sys/net/ipv6/conf/eth0/disable_ipv6
		cpus_run cpus_net net eth0 "$rigcpusnet"
		# The frames each queue carried, as the driver counted them:
		# in ethtool -S (Linux 6.1), or in netdev netlink's queue
		# statistics (Linux 7.3's virtio_net: guest_io qstats).
		rxp="" txp=""
		while read -r k v; do
			case $k in
			*_xdp_*) ;;
			rx_queue_*_packets) rxp="$rxp${rxp:+,}$v" ;;
			tx_queue_*_packets) txp="$txp${txp:+,}$v" ;;
			esac
		done <<EOF
$(guest_io ethstats eth0 | grep _queue_ || guest_io qstats eth0)
EOF
		res="$res net_rx_packets=$rxp net_tx_packets=$txp"
		# Where the stack counts a frame it dropped: the interface's
		# counters (the driver's and the core's drops, those with the
		# carrier off among them), the root queueing discipline's
		# drops, and the carrier's changes.
		st=/sys/class/net/eth0
		res="$res net_tx_dropped=$(cat $st/statistics/tx_dropped) net_rx_dropped=$(cat $st/statistics/rx_dropped)"
		res="$res net_carrier_changes=$(cat $st/carrier_changes)"
		qd=$(guest_io qdiscs eth0) || err="$err qdiscs"
		echo "$qd" | while read -r line; do echo "RIG-NET $line"; done
		read -r _ rootq _ _ _ rootd _ <<EOF
$(echo "$qd" | grep ' parent root ')
EOF
		res="$res net_qdisc=${rootq:-} net_qdisc_drops=${rootd:-}"
	else
		err="$err cpus_net"
	fi
fi
[ -n "$err" ] && res="$res error=$(echo $err | tr ' ' ,)"
echo "RIG-RESULT$res"
poweroff -f
