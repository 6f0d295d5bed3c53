#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/peers/torture.sh's table tells what became of the peer by its exit
# status, once it is known.  Stand-ins play the peers and vhost_user_frontend:
# the peers (a dpdk-testpmd and a qemu-storage-daemon first in PATH, one
# python3 script) listen on their socket and then do what the case's
# vhost_user_frontend told them; vhost_user_frontend prints its own outcome at
# once:
#   late-segv  vhost_user_frontend says "closed"; the peer segfaults 0.5 s later
#   lives-on   vhost_user_frontend says "crashed"; the peer lives on
#   exits      vhost_user_frontend says "closed"; the peer exits with status 1
# The header must name the installed (stand-in) versions, and no notice of
# bash's ("Segmentation fault") may show.
#
# Usage: tests/peers/torture-fates.sh     (prints KTAP)
set -u
cd "$(dirname "$0")/../.." || exit 2
# shellcheck disable=SC2034 # tests/lib/result.sh reads it
CHECK_PREFIX=torture/
. tests/lib/result.sh
if ! command -v python3 >/dev/null; then
	skip "fates" "python3 is not installed (apt-get install python3)"
	ktap_finished
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rig-torture.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../../shlib/signals.sh"
mkdir "$tmp/bin" "$tmp/b"

cat >"$tmp/bin/peer" <<'PEER'
#!/usr/bin/env python3
import os, resource, signal, socket, sys, time
args = sys.argv[1:]
if "--version" in args:
    print("qemu-storage-daemon version 8.8.8 (stand-in)")
    sys.exit(0)
if "-v" in args and "--help" in args:
    print("EAL: RTE Version: 'DPDK 9.9.9'")
    sys.exit(0)
signal.signal(signal.SIGINT, lambda *a: os._exit(0))
resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
path = [p.split("=", 1)[1] for a in args for p in a.split(",")
        if p.startswith(("iface=", "addr.path="))][0]
s = socket.socket(socket.AF_UNIX)
s.bind(path)
s.listen(1)
act = os.path.join(os.path.dirname(path), "act")
deadline = time.monotonic() + 30
while not os.path.exists(act):
    if time.monotonic() > deadline:
        sys.exit(2)
    time.sleep(0.02)
what = open(act).read().strip()
os.unlink(act)
if what == "segv-late":
    time.sleep(0.5)
    os.kill(os.getpid(), signal.SIGSEGV)
elif what == "exit1":
    sys.exit(1)
while True:
    time.sleep(1)
PEER
chmod +x "$tmp/bin/peer"
ln -s peer "$tmp/bin/dpdk-testpmd"
ln -s peer "$tmp/bin/qemu-storage-daemon"

cat >"$tmp/b/vhost_user_frontend" <<'VT'
#!/bin/bash
for a; do
	case $a in
	--socket=*) sock=${a#--socket=} ;;
	--torture=*) c=${a#--torture=} ;;
	esac
done
case $c in
list) printf 'late-segv  stand-in\nlives-on   stand-in\nexits      stand-in\n'; exit 0 ;;
late-segv) act=segv-late say=closed ;;
lives-on) act=live say=crashed ;;
exits) act=exit1 say=closed ;;
esac
echo "$act" >"$(dirname "$sock")/act.new" && mv "$(dirname "$sock")/act.new" "$(dirname "$sock")/act"
sleep 0.1
echo "torture $c: $say; stand-in details"
VT
chmod +x "$tmp/b/vhost_user_frontend"

PATH=$tmp/bin:$PATH tests/peers/torture.sh "$tmp/b" >"$tmp/out" 2>"$tmp/err"
rc=$?
# check NAME: the last command's status says whether NAME holds.
check() {
	if [ $? -eq 0 ]; then
		pass "$1"
	else
		fail "$1"
		sed 's/^/  stdout | /' "$tmp/out" >&2
		sed 's/^/  stderr | /' "$tmp/err" >&2
	fi
}
[ "$rc" -eq 0 ]
check "torture.sh exits 0"
grep -qx '| case | DPDK 9.9.9 vhost (testpmd, net) | qemu-storage-daemon 8.8.8 (vhost-user-blk) |' "$tmp/out"
check "the header names the installed versions"
c='crashed; stand-in details (peer killed by SIGSEGV, exit status 139)'
grep -qxF "| late-segv | $c | $c |" "$tmp/out"
check "a peer that segfaults after vhost_user_frontend's 'closed' is crashed"
c='unclear (vhost_user_frontend saw the peer gone, but it lives); stand-in details'
grep -qxF "| lives-on | $c | $c |" "$tmp/out"
check "a peer alive is never crashed"
c='exited; stand-in details (peer exit status 1)'
grep -qxF "| exits | $c | $c |" "$tmp/out"
check "a peer that exits is exited, with its status"
! grep -qi 'segmentation fault' "$tmp/out" "$tmp/err"
check "no notice of bash's in the output"
ktap_finished
