#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/vhost-core-regress.sh [--in-order | -r vhost-net] BASE_BUILD [BUILD]:
# the vhost-core row of ab/count.sh (instructions per buffer inside the
# kernel's vhost core, vring_bench --vhost) for BASE_BUILD (A) and BUILD
# (B, default: the current folder), and make regress's verdict on it:
# REGRESSION when B/A is over 1 + 0.25% (ab/regress.sh's instruction
# gate, -i 0.25), better under 1 - 0.25%, else ok.
#   --in-order    the in-order row too (vring_bench --vhost --in-order,
#                 through the rig's batch device), a line each.
#   -r vhost-net  vhost-net's two rows instead (instructions per frame
#                 inside net.c's handle_tx and handle_rx, vhost_net_test
#                 --serve).
# make check KSRC= runs it through tests/ksrc-patched.sh in copies of the
# tree with extra work in vhost_get_vq_desc() (vhost-extra-work.edit), on
# the in-order path alone (vhost-in-order-extra-work.edit, a regression of
# the in-order row only) or in net.c (vhost-net-extra-work.edit), each a
# regression, and in an unchanged copy, which must not be.
# Prints "metric A B B/A verdict" a row; exit status 0 (ok or better), 1
# (a regression) or 3 (counting failed).
set -u
sets=vhost
case "${1:-}" in
--in-order) sets="vhost vhost-in-order"; shift ;;
-r)
	[ "${2:-}" = vhost-net ] || { echo "$0: -r '${2:-}' is not vhost-net" >&2; exit 2; }
	sets=vhost-net
	shift 2 ;;
esac
[ $# -ge 1 ] && [ $# -le 2 ] ||
	{ echo "usage: $0 [--in-order | -r vhost-net] BASE_BUILD [BUILD]" >&2; exit 2; }
here=$(cd "$(dirname "$0")/.." && pwd) || exit 3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rig-vhost-regress.XXXXXX") || exit 3
trap 'rm -rf "$tmp"' EXIT
rc=0
for set in $sets; do
	case $set in
	vhost) rows='vhost core split instructions/buffer' ;;
	vhost-in-order) rows='vhost core split in-order instructions/buffer' ;;
	vhost-net) rows='vhost-net tx instructions/packet
vhost-net rx instructions/packet' ;;
	esac
	"$here/ab/count.sh" -r $set "$1" >"$tmp/a" || exit 3
	"$here/ab/count.sh" -r $set "${2:-.}" >"$tmp/b" || exit 3
	# The rows of one set, in a here-document so that rc survives.
	while IFS= read -r row; do
		a=$(sed -n "s|^$row: ||p" "$tmp/a")
		b=$(sed -n "s|^$row: ||p" "$tmp/b")
		case "$a|$b" in
		*n/a* | '|'* | *'|')
			echo "vhost-core-regress: no counts of '$row' (A: '$a', B: '$b')" >&2
			exit 3 ;;
		esac
		awk -v m="$row" -v a="$a" -v b="$b" 'BEGIN {
			r = b / a
			v = r > 1.0025 ? "REGRESSION" : r < 0.9975 ? "better" : "ok"
			printf "%s\t%s\t%s\t%.4f\t%s\n", m, a, b, r, v
			exit v == "REGRESSION"
		}' || rc=1
	done <<ROWS
$rows
ROWS
done
exit $rc
