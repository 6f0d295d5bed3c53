#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The console classifier of the device torture's guest
# (tests/peers/dev-torture-drivers.sh sources it): which of a boot's
# devices each kernel line is about.  Run as a program it is
# guest_scan: tests/peers/guest-scan.sh MODE CONSOLE [SLOT [LINES]].
# tests/peers/guest-scan-test.sh checks it on the consoles of
# tests/peers/guest-scan/ (make check's "guest scan").

# The kernel's lines that name a fault: the virtio drivers' and
# virtio_ring's (BAD_RING prints "virtio_blk virtio0: req.0:id N ..."),
# and those of a crash.
FAULT='^virtio_(blk|net) virtio[0-9]+: |virtio_ring'
CRASH='Oops|BUG:|Kernel panic|general protection|Call Trace'

# guest_scan MODE CONSOLE [SLOT [LINES]]: a boot's console, its devices
# told apart by the guest's RIG-DEV lines (tests/peers/guest-init.sh
# rigeach): a kernel line naming a device (virtioN, vdX, ethN) is that
# device's, one naming none is every device's; a warning's lines ("cut
# here" to "end trace") are the device one of them names.  A kernel line
# that ran into one of /init's is a line of its own (the serial console
# interleaves them: "RIG-DEV virtio13 0000:00:10.0 virtio_blk vdn[
# 3.635845] virtio_blk virtio0: req.0:id 128 out of range", seen in a boot
# of 21 devices), and LINES counts such lines.
#   state   "SLOT DONE SAID" a device: DONE 1 once its RIG-DONE came, SAID
#           1 once a line of its matched FAULT after RIG-INIT (a line
#           naming a device not listed yet is nobody's); then
#           "beats N", the guest's RIG-TICK lines so far
#   view    SLOT's console as a boot of its own would show it (its
#           RIG-DONE as the RIG-RESULT line), to that line or line LINES
#   shared  the lines after RIG-INIT that could be any device's doing: an
#           oops, a panic, a BUG, a trace no device's, or a fault or "I/O
#           error" naming no device
#   lines   how many lines the console has so far (a cut for view)
guest_scan() {
	awk -v mode="$1" -v slot="${3:-}" -v lines="${4:-0}" -v fault="$FAULT" -v crash="$CRASH" '
	function after(tag) { return substr(line, index(line, tag) + length(tag)) }
	# The device the names in k belong to: "*" none, "?" several.  In
	# mode state (a console still being written) a device name no RIG-DEV
	# line has listed yet is "-": no device owns its line until its RIG-DEV
	# line comes (a probe can fail before /init lists the devices).
	function owner_of(k,   n, w, i, o) {
		o = "*"
		n = split(k, w, /[^A-Za-z0-9_]+/)
		for (i = 1; i <= n; i++)
			if (w[i] in owner)
				o = o == "*" || o == owner[w[i]] ? owner[w[i]] : "?"
			else if (mode == "state" && w[i] ~ /^(virtio[0-9]+|vd[a-z]+|eth[0-9]+)$/)
				return "-"
		return o
	}
	# Line i: line (no CR) and k (its kernel timestamp cut).
	function get(i) {
		line = L[i]
		sub(/\r$/, "", line)
		k = line
		sub(/^\[ *[0-9.]*\] /, "", k)
	}
	# The devices: their names, from the RIG-DEV lines.
	function devices(i) {
		if (!index(line, "RIG-DEV "))
			return
		split(after("RIG-DEV "), w, " ")
		owner[w[1]] = w[2]
		if (w[4] != "-")
			owner[w[4]] = w[2]
		slots[w[2]] = 1
	}
	# The warnings: whose each block of lines is.
	function blocks(i) {
		if (k ~ /-+\[ cut here \]-+/)
			b = i
		if (b) {
			in_block[i] = b
			o = owner_of(k)
			if (!(b in bowner) || bowner[b] == "*")
				bowner[b] = o
			else if (o != "*" && o != bowner[b])
				bowner[b] = "?"
		}
		if (k ~ /---\[ end trace/)
			b = 0
	}
	function scan(i) {
		if (mode == "view" && lines && i > lines)
			exit
		if (index(line, "RIG-INIT"))
			init = 1
		if (index(line, "RIG-TICK")) {
			beats++
			return
		}
		if (index(line, "RIG-DEV ") || index(line, "RIG-RESULT"))
			return
		if (index(line, "RIG-IO ") || index(line, "RIG-DONE ")) {
			done_ = index(line, "RIG-DONE ") > 0
			rest = after(done_ ? "RIG-DONE " : "RIG-IO ")
			s = rest
			sub(/ .*/, "", s)
			sub(/^[^ ]*/, "", rest)
			if (done_)
				done[s] = 1
			if (mode == "view" && s == slot) {
				if (!done_) {
					sub(/^ /, "", rest)
					print rest
				} else {
					print "RIG-RESULT" rest
					exit
				}
			}
			return
		}
		o = i in in_block ? bowner[in_block[i]] : owner_of(k)
		if (mode == "view" && (o == "*" || o == slot))
			print line
		if (!init)
			return
		if (k ~ fault) {
			if (o == "*")
				for (s in slots)
					said[s] = 1
			else
				said[o] = 1
		}
		if (mode == "shared" && (k ~ /Oops|BUG:|Kernel panic|general protection/ ||
					 (k ~ crash && (o == "*" || o == "?")) ||
					 (o == "*" && (k ~ fault || k ~ /I\/O error/))))
			print k
	}
	{
		rest = $0
		while (match(substr(rest, 2), /\[ *[0-9]+\.[0-9]+\] /)) {
			L[++n] = substr(rest, 1, RSTART)
			rest = substr(rest, RSTART + 1)
		}
		L[++n] = rest
	}
	END {
		if (mode == "lines") {
			print n + 0
			exit
		}
		for (i = 1; i <= n; i++) {
			get(i)
			devices(i)
		}
		for (i = 1; i <= n; i++) {
			get(i)
			blocks(i)
		}
		for (i = 1; i <= n; i++) {
			get(i)
			scan(i)
		}
		if (mode != "state")
			exit
		for (s in slots)
			print s, done[s] + 0, said[s] + 0
		print "beats", beats + 0
	}' "$2"
}

# Run as a program: guest_scan itself.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	[ $# -ge 2 ] && [ $# -le 4 ] ||
		{ echo "usage: tests/peers/guest-scan.sh state|view|shared|lines CONSOLE [SLOT [LINES]]" >&2; exit 2; }
	guest_scan "$@"
fi
