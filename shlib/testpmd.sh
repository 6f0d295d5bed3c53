# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2034 # the variables it sets are its callers'
#
# testpmd_cmd LCORES PREFIX VDEV: sets TESTPMD to the command line every
# DPDK testpmd of these scripts runs (no PCI, no hugepages, its runtime
# files under /var/run/dpdk/PREFIX, the one port VDEV, io forwarding on
# one core, statistics every second); testpmd options go after it, e.g.
#   testpmd_cmd '0@0,1@0' "$prefix" "net_vhost0,iface=$sock"
#   timeout 60 "${TESTPMD[@]}" --rxq=2 --txq=2 </dev/null >"$log" 2>&1 &

testpmd_cmd() {
	TESTPMD=(dpdk-testpmd --lcores "$1" --no-pci --no-huge -m 512
		--file-prefix "$2" --log-level=lib.eal:error --vdev "$3" --
		--forward-mode=io --nb-cores=1 --total-num-mbufs=16384
		--txd=256 --rxd=256 --stats-period 1)
}
