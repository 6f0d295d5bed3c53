#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# /init of the test guest (tests/peers/guest-build.sh).  What it does comes
# from the kernel command line, which the kernel passes on as environment:
#   rigblk=1                  read all of /dev/vda, print its size and sum
#   rigbs=BYTES               the size of each read (default 1 MiB)
#   rigwrite=OFF,LEN,SEED     then write the pattern there (and fsync)
#   rignet=N                  send N frames on eth0, check they come back
# It prints one line "RIG-RESULT ..." (every field key=value, "error" set
# if anything failed) and powers off.
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
res="" err=""
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
	if wait_for /sys/class/net/eth0 && out=$(guest_io net eth0 "$rignet"); then
		set -- $out
		res="$res net_sent=$3 net_received=$5 net_bad=$7"
		res="$res net_features=$(cat /sys/class/net/eth0/device/features)"
	else
		err="$err net"
	fi
fi
[ -n "$err" ] && res="$res error=$(echo $err | tr ' ' ,)"
echo "RIG-RESULT$res"
poweroff -f
