#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# /init of the test guest (tests/peers/guest-build.sh).  What it does comes
# from the kernel command line, which the kernel passes on as environment:
#   rigblk=1                  read all of /dev/vda, print its size and sum
#   rigbs=BYTES               the size of each read (default 1 MiB)
#   rigwrite=OFF,LEN,SEED     then write the pattern there (and fsync)
#   rignet=N                  send N frames on eth0, check they come back
#   rigcpus=OFF,LEN,DSEED,WSEED,ROUNDS
#                             from every CPU at once, pinned: read, write,
#                             read back the disk there (guest_io cpus blk)
#   rigcpusnet=N              from every CPU at once: N frames each
#                             (guest_io cpus net)
# It prints "RIG-INIT" first, then one line "RIG-RESULT ..." (every field key=value, "error" set
# if anything failed) and powers off.
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
res="" err=""
# The host's bound on a device that lies from the start runs from here.
echo "RIG-INIT"
for m in $(cat /lib/mod/order); do
	insmod "/lib/mod/$m.ko" || err="$err insmod-$m"
done
wait_for() {
	n=0
	while [ ! -e "$1" ] && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
	[ -e "$1" ]
}
if [ -n "$rigblk" ]; then
	if wait_for /dev/vda && out=$(guest_io sum /dev/vda $rigbs); then
		set -- $out
		res="$res blk_bytes=$2 blk_sum=$3 blk_mbps=$4"
		res="$res blk_features=$(cat /sys/block/vda/device/features)"
	else
		err="$err blk-read"
	fi
fi
if [ -n "$rigwrite" ]; then
	IFS=, read -r off len seed <<EOF
$rigwrite
EOF
	guest_io write /dev/vda "$off" "$len" "$seed" >/dev/null && res="$res blk_write=ok" ||
		err="$err blk-write"
fi
if [ -n "$rignet" ]; then
	# The counts also when a check failed (net_lost: frames skipped).
	if wait_for /sys/class/net/eth0; then
		out=$(guest_io net eth0 "$rignet") || err="$err net"
		set -- $out
		[ $# -ge 11 ] &&
			res="$res net_sent=$3 net_received=$5 net_bad=$7 net_wait_ms=$9 net_lost=${11}"
		res="$res net_features=$(cat /sys/class/net/eth0/device/features)"
	else
		err="$err net"
	fi
fi
# cpus_run NAME ARGS...: guest_io cpus ARGS; its per-CPU figures as
# NAME_ios=A,B,... and its totals as NAME_bad=, NAME_moved=, NAME_s= (the
# seconds it took; for blk also NAME_high=, the CPUs whose buffer is above
# 4 GiB, for net NAME_wait_ms=, the longest wait for a frame).
cpus_run() {
	name=$1 ios=""
	shift
	if out=$(guest_io cpus "$@"); then :; else err="$err $name"; fi
	# "cpu I ios N bytes N bad N moved N high 0|1", then "cpus N ..." totals
	# and "seconds S wait_ms MS"
	while read -r line; do
		set -- $line
		case $1 in
		cpu) ios="$ios${ios:+,}$4" ;;
		cpus) res="$res ${name}=$2 ${name}_ios=$ios ${name}_bad=$8 ${name}_moved=${10} ${name}_s=${14}"
		      if [ "$name" = cpus_blk ]; then res="$res ${name}_high=${12}"
		      else res="$res ${name}_wait_ms=${16}"; fi ;;
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
		cpus_run cpus_net net eth0 "$rigcpusnet"
		# The frames each queue carried, as the driver counted them.
		rxp="" txp=""
		while read -r k v; do
			case $k in
			*_xdp_*) ;;
			rx_queue_*_packets) rxp="$rxp${rxp:+,}$v" ;;
			tx_queue_*_packets) txp="$txp${txp:+,}$v" ;;
			esac
		done <<EOF
$(guest_io ethstats eth0)
EOF
		res="$res net_rx_packets=$rxp net_tx_packets=$txp"
	else
		err="$err cpus_net"
	fi
fi
[ -n "$err" ] && res="$res error=$(echo $err | tr ' ' ,)"
echo "RIG-RESULT$res"
poweroff -f
