#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tests/vhost-core-regress.sh BASE_BUILD [BUILD]: the vhost-core row of
# ab/count.sh (instructions per buffer inside the kernel's vhost core,
# vring_bench --vhost) for BASE_BUILD (A) and BUILD (B, default: the
# current folder), and make regress's verdict on it: REGRESSION when B/A
# is over 1 + 0.25% (ab/regress.sh's instruction gate, -i 0.25), better
# under 1 - 0.25%, else ok.  make check KSRC= runs it through
# tests/ksrc-patched.sh in a copy of the tree whose vhost_get_vq_desc()
# does extra work (tests/ksrc-edits/vhost-extra-work.edit), which must
# be a regression, and in an unchanged copy, which must not.
# Prints "metric A B B/A verdict"; exit status 0 (ok or better), 1 (a
# regression) or 3 (counting failed).
set -u
[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: $0 BASE_BUILD [BUILD]" >&2; exit 2; }
here=$(cd "$(dirname "$0")/.." && pwd) || exit 3
row='vhost core split instructions/buffer'
count() {
	"$here/ab/count.sh" -r vhost "$1" | sed -n "s|^$row: ||p"
}
a=$(count "$1") || exit 3
b=$(count "${2:-.}") || exit 3
case "$a|$b" in
*n/a* | '|'* | *'|') echo "vhost-core-regress: no vhost core counts (A: '$a', B: '$b')" >&2; exit 3 ;;
esac
awk -v m="$row" -v a="$a" -v b="$b" 'BEGIN {
	r = b / a
	v = r > 1.0025 ? "REGRESSION" : r < 0.9975 ? "better" : "ok"
	printf "%s\t%s\t%s\t%.4f\t%s\n", m, a, b, r, v
	exit v == "REGRESSION"
}'
