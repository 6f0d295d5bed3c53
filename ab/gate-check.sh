#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make gate-check: does make regress's timed gate work on this machine?
#
# Usage: ab/gate-check.sh [-r RUNS] [-s STEPS] [-h] [REV] [-- REGRESS_OPTS]
#   REV           the revision to plant into (default HEAD; committed
#                 files only)
#   -r RUNS       runs of each kind (default 10)
#   -s STEPS      the plant's size: dependent multiply-adds every 64th
#                 virtqueue_add() (default 180: B/A about 1.03 by CPU time
#                 on this project's 2-core AMD EPYC VM; each run prints the
#                 B/A it measured)
#   REGRESS_OPTS  passed on to each ab/regress.sh -T run: -m wall times by
#                 wall time, -n PAIRS, -x ADDS, -w PCT (the gate; default
#                 regress's own)
# A private clone of REV in a temporary folder gets two commits: "off",
# virtio_ring.c with a planted delay loop in virtqueue_add() that runs 0
# steps, and "on", the same with STEPS steps.  The loop's length is a
# variable in .data, so the two builds have the same code and layout and
# differ only in that one value.  Then, RUNS times each, interleaved:
# ab/regress.sh -T off on (the plant: the gate should fail) and
# ab/regress.sh -T off off (A/A: it should pass).  Prints each run's
# B/A, interval and verdict, then the tallies.  Nothing of the plant
# reaches your repository; the clone is removed at exit.
# Exit status: 0 when the gate caught the plant in at least 9 of 10 runs
# and failed A/A in at most 1 of 10 (as fractions of RUNS), 1 when it did
# not, 2 usage error, 3 a build or run failed.

set -u
here=$(cd "$(dirname "$0")" && pwd) || exit 3
DIE_PREFIX=gate-check DIE_STATUS=3 USAGE_HELP=ab/gate-check.sh
. "$here/../shlib/die.sh"

runs=10 steps=180
while getopts :r:s:h opt; do
	case $opt in
	h) sed -n '4,28s/^# \{0,1\}//p' "$here/gate-check.sh"; exit 0 ;;
	r) case $OPTARG in
	   '' | 0* | *[!0-9]*) usage "-r: '$OPTARG' is not a positive number" ;;
	   esac
	   runs=$OPTARG ;;
	s) case $OPTARG in
	   '' | 0?* | *[!0-9]*) usage "-s: '$OPTARG' is not a whole number" ;;
	   esac
	   steps=$OPTARG ;;
	*) bad_option "$opt" ;;
	esac
done
shift $((OPTIND - 1))
# What is left: [REV] [--] [REGRESS_OPTS] (getopts ate a leading "--").
rev=HEAD
case ${1-} in
'' | -*) ;;
*) rev=$1; shift ;;
esac
[ "${1-}" != -- ] || shift
case ${1--} in
-*) ;;
*) usage "unexpected argument: $1" ;;
esac
[ "$steps" -le 100000 ] || usage "-s: $steps steps is more than 100000"

top=$(git -C "$here" rev-parse --show-toplevel) || die "not in a git repository"
commit=$(git -C "$top" rev-parse --verify --quiet "$rev^{commit}") ||
	usage "'$rev' names no commit"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/vring-gate.XXXXXX") || exit 3
trap 'rm -rf "$tmp"' EXIT
. "$here/../shlib/signals.sh"
repo=$tmp/repo
git clone -q --shared --no-checkout "$top" "$repo" &&
	git -C "$repo" checkout -q --detach "$commit" ||
	die "cannot clone $top into $repo"
# The clone's own regress.sh and compare: both sides as REV has them.
make -s -C "$repo" ab/compare || die "cannot build the clone's ab/compare"
# Its options, checked before anything runs (-h stops after them).
"$repo/ab/regress.sh" -T "$@" -h >/dev/null ||
	usage "ab/regress.sh -T${*:+ $*}: refused (a revision older than -T?)"

# The plant: a delay loop called from virtqueue_add() every 64th add.
# lfence (x86) keeps the CPU from running it in the shadow of the adds
# after it.
awk '
/^static inline int virtqueue_add\(struct virtqueue \*_vq,$/ && !done {
	print "/* planted by ab/gate-check.sh in a throwaway clone */"
	print "static volatile unsigned int rig_plant_steps"
	print "\t__attribute__((section(\".data\"))) = 0;"
	print "static unsigned int rig_plant_count;"
	print ""
	print "static noinline void rig_plant(void)"
	print "{"
	print "\tunsigned long x = rig_plant_count;"
	print "\tunsigned int i, n = rig_plant_steps;"
	print ""
	print "\tfor (i = 0; i < n; i++)"
	print "\t\tx = x * 6364136223846793005UL + 1442695040888963407UL;"
	print "#ifdef __x86_64__"
	print "\tasm volatile(\"lfence\" : : \"r\"(x) : \"memory\");"
	print "#else"
	print "\tasm volatile(\"\" : : \"r\"(x) : \"memory\");"
	print "#endif"
	print "}"
	print ""
	inadd = 1
}
{ print }
inadd && /struct vring_virtqueue \*vq = to_vvq\(_vq\);/ {
	print ""
	print "\tif (!(++rig_plant_count & 63))"
	print "\t\trig_plant();"
	inadd = 0
	done = 1
}
END { if (!done) exit 1 }' "$repo/virtio_ring.c" >"$tmp/planted.c" ||
	die "no virtqueue_add() to plant into in $rev's virtio_ring.c"
cp "$tmp/planted.c" "$repo/virtio_ring.c" || exit 3
git_commit() {
	git -C "$repo" -c user.name=gate-check -c user.email=gate-check@localhost \
		commit -q -a --allow-empty -m "$1" && git -C "$repo" rev-parse HEAD
}
off=$(git_commit "plant: off") || die "cannot commit the plant"
sed -i "s/__attribute__((section(\".data\"))) = 0;/__attribute__((section(\".data\"))) = $steps;/" \
	"$repo/virtio_ring.c" || exit 3
on=$(git_commit "plant: on, $steps steps") || die "cannot commit the plant"

# one KIND B I [REGRESS_OPTS]: ab/regress.sh -T REGRESS_OPTS off B; appends
# "KIND I STATUS RATIO ROW" to the tally.
one() {
	kind=$1 b=$2 nr=$3
	shift 3
	AB_DIR=$tmp/build "$repo/ab/regress.sh" -T "$@" "$off" "$b" \
		>"$tmp/run.out" 2>"$tmp/run.err"
	rc=$?
	if [ $rc -gt 1 ]; then
		cat "$tmp/run.out" "$tmp/run.err" >&2
		die "ab/regress.sh -T failed (exit $rc)"
	fi
	row=$(sed -n '/ns\/add\|ns\/run-add/p' "$tmp/run.out")
	ratio=$(printf '%s\n' "$row" | awk '{ print $(NF - 1) }')
	echo "$kind $nr $rc $ratio $row" >>"$tmp/tally"
	printf '%-5s run %2d: %s\n' "$kind" "$nr" "$row"
}

echo "REV $rev ($commit); plant: $steps steps every 64th add;" \
	"$runs runs each of ab/regress.sh -T${*:+ $*}"
: >"$tmp/tally"
i=1
while [ "$i" -le "$runs" ]; do
	one plant "$on" "$i" "$@"
	one A/A "$off" "$i" "$@"
	i=$((i + 1))
done
awk -v runs="$runs" '
function med(v, n,    i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && v[j - 1] > v[j]; j--) {
			t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
		}
	return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
{ n[$1]++; fail[$1] += $3 == 1; r[$1, n[$1]] = $4 }
END {
	for (k in n) {
		for (i = 1; i <= n[k]; i++) v[i] = r[k, i]
		m[k] = med(v, n[k])
	}
	printf "plant: the gate failed %d of %d runs (median B/A %.4f)\n",
		fail["plant"], runs, m["plant"]
	printf "A/A:   the gate failed %d of %d runs (median B/A %.4f)\n",
		fail["A/A"], runs, m["A/A"]
	ok = fail["plant"] >= 0.9 * runs && fail["A/A"] <= 0.1 * runs
	if (ok)
		print "gate-check: pass (the plant caught in at least 9 of" \
			" 10 runs, A/A failed in at most 1 of 10)"
	else
		print "gate-check: FAIL (wanted the plant caught in at least" \
			" 9 of 10 runs, A/A failed in at most 1 of 10)"
	exit !ok
}' "$tmp/tally"
