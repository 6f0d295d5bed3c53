#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tests/vhost-core-regress.sh [--in-order] BASE_BUILD [BUILD]: the
# vhost-core row of ab/count.sh (instructions per buffer inside the
# kernel's vhost core, vring_bench --vhost) for BASE_BUILD (A) and BUILD
# (B, default: the current folder), and make regress's verdict on it:
# REGRESSION when B/A is over 1 + 0.25% (ab/regress.sh's instruction
# gate, -i 0.25), better under 1 - 0.25%, else ok.  --in-order: the
# in-order row too (vring_bench --vhost --in-order, through the rig's
# batch device), a line each.  make check KSRC= runs it through
# tests/ksrc-patched.sh in a copy of the tree whose vhost_get_vq_desc()
# does extra work (tests/ksrc-edits/vhost-extra-work.edit), which must
# be a regression, and in an unchanged copy, which must not; with
# --in-order, in a copy whose extra work is on the in-order path alone
# (tests/ksrc-edits/vhost-in-order-extra-work.edit), a regression of the
# in-order row only.
# Prints "metric A B B/A verdict" a row; exit status 0 (ok or better), 1
# (a regression) or 3 (counting failed).
set -u
rows=vhost
if [ "${1:-}" = --in-order ]; then
	rows="vhost vhost-in-order"
	shift
fi
[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: $0 [--in-order] BASE_BUILD [BUILD]" >&2; exit 2; }
here=$(cd "$(dirname "$0")/.." && pwd) || exit 3
# count BUILD: row $row (ab/count.sh -r $r) of BUILD.
count() {
	"$here/ab/count.sh" -r "$r" "$1" | sed -n "s|^$row: ||p"
}
status=0
for r in $rows; do
	row='vhost core split instructions/buffer'
	[ "$r" = vhost ] || row='vhost core split in-order instructions/buffer'
	a=$(count "$1") || exit 3
	b=$(count "${2:-.}") || exit 3
	case "$a|$b" in
	*n/a* | '|'* | *'|') echo "vhost-core-regress: no $r counts (A: '$a', B: '$b')" >&2; exit 3 ;;
	esac
	awk -v m="$row" -v a="$a" -v b="$b" 'BEGIN {
		r = b / a
		v = r > 1.0025 ? "REGRESSION" : r < 0.9975 ? "better" : "ok"
		printf "%s\t%s\t%s\t%.4f\t%s\n", m, a, b, r, v
		exit v == "REGRESSION"
	}' || status=1
done
exit $status
