#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make regress: did HEAD make the ring slower than BASE?  One command for CI.
#
# Usage: ab/regress.sh [-n PAIRS] [-m METRIC] [-x ADDS] [-i PCT] [-d PCT]
#                      [-w PCT] [-j FILE] [-T] [-C] [-h] BASE [HEAD]
#        ab/regress.sh -k TREE [-p GUEST/HOST] [OPTIONS] BASE [HEAD]
#        ab/regress.sh -k TREE -K BASE_TREE [-p GUEST/HOST] [OPTIONS]
#   BASE, HEAD  git revisions ("worktree": the files as they are now;
#               HEAD default: HEAD): of this repository, or with -k of the
#               kernel git tree TREE, whose ring code is then measured
#               (make regress KSRC=TREE BASE=REV [HEAD=REV])
#   -k TREE     a kernel tree: with BASE and HEAD, a git checkout, from
#               whose revisions only the files the rig reads
#               (kernel/ksrc-files) are taken (kernel/ksrc-rev.sh, into
#               AB_DIR; TREE itself is never written to); with -K, B's tree
#   -K DIR      A's kernel tree, used as it is (make regress KSRC_BASE=DIR
#               KSRC=DIR: two trees without git)
#   -p G/H      with -k, the one pairing to measure (GUEST=G HOST=H: each
#               kernel or rig).  Default: kernel/kernel for every row, and
#               the vringh_test rows again with our vringh as the host
#               (kernel/rig) when the guest's files differ between A and
#               B, with our driver as the guest (rig/kernel) when the
#               host's do.  Each row names its pairing.
#   -n PAIRS    timed pairs of vring_bench ADDS (default 201; 0 leaves the
#               timed comparison out)
#   -m METRIC   what is timed (ab/compare --metric): cpu (default: the
#               run's CPU time, which waiting for a busy CPU does not
#               inflate), own (vring_bench's own wall-time figure) or wall
#   -x ADDS     buffers each timed run adds (default 100000)
#   -i PCT      instruction counts: a regression when B/A > 1 + PCT/100
#               (default 0.25)
#   -d PCT      gate simulated D1 misses too: a regression when B/A >
#               1 + PCT/100 and A has at least 0.05 per operation (default:
#               not gated, as they move with memory layout; see
#               ab/count.sh)
#   -w PCT      wall time: a regression when B is slower than A by more
#               than PCT% with 95% confidence (default 1, ab/compare's
#               --max-slowdown default)
#   -j FILE     also write the table as JSON to FILE
#   -T          the timed comparison only: no counts, no valgrind
#   -C          of the counts, the per-call ones only (ab/calls.sh): no
#               whole-run counts with their cache simulation (ab/count.sh)
# Both revisions are built side by side (AB_DIR, default build-regress/,
# with CC and CFLAGS from the environment when set), then: the
# deterministic counts of ab/count.sh on each (instructions, D1 and LL
# misses per vring_bench add and per vringh_test single-threaded run, split
# and packed), and a short interleaved timed comparison of vring_bench by
# ab/compare (many short pairs: on a shared machine, pairs close in time
# see the same load); and each ring call's instructions on its own
# (ab/calls.sh).  vring_bench runs the guest's code alone, against the mock
# device; vringh_test runs both sides.  Prints one table: metric, A, B, B/A, verdict (ok, better,
# REGRESSION, missing for a metric one side lacks, or info for misses not
# gated).
# Exit status: 0 no regression, 1 a regression (or a missing metric), 2 usage error, 3 a build or
# a run failed.

set -u
here=$(cd "$(dirname "$0")" && pwd) || exit 3
DIE_PREFIX=regress DIE_STATUS=3 USAGE_HELP=ab/regress.sh
. "$here/../tests/lib/die.sh"
# pct NAME VALUE: a percentage, 0 to 1000.
pct() {
	printf '%s\n' "$2" | grep -Eq '^[0-9]+(\.[0-9]+)?$' &&
		awk -v v="$2" 'BEGIN { exit !(v <= 1000) }' ||
		usage "-$1: '$2' is not a percentage in 0..1000"
}

pairs=201 metric=cpu adds=100000 ipct=0.25 dpct= wpct=1 json= counts=1
net_frames=20000
. "$here/lib.sh"
ksrc= ksrc_base= pairing= whole=1
while getopts :n:m:x:i:d:w:j:TCk:K:p:h opt; do
	case $opt in
	h) sed -n '4,57s/^# \{0,1\}//p' "$here/regress.sh"; exit 0 ;;
	k) [ -n "$OPTARG" ] || usage "-k: an empty tree"; ksrc=$OPTARG ;;
	K) [ -n "$OPTARG" ] || usage "-K: an empty tree"; ksrc_base=$OPTARG ;;
	p) set_pairing "$OPTARG" ;;
	n) set_pairs "$OPTARG" ;;
	m) case $OPTARG in
	   cpu | own | wall) metric=$OPTARG ;;
	   *) usage "-m: '$OPTARG' is not one of cpu, own, wall" ;;
	   esac ;;
	x) set_adds "$OPTARG" ;;
	i) pct i "$OPTARG"; ipct=$OPTARG ;;
	d) pct d "$OPTARG"; dpct=$OPTARG ;;
	w) pct w "$OPTARG"; wpct=$OPTARG ;;
	j) json=$OPTARG ;;
	T) counts= ;;
	C) whole= ;;
	*) bad_option "$opt" ;;
	esac
done
shift $((OPTIND - 1))
[ -n "$ksrc" ] || [ -z "$ksrc_base$pairing" ] ||
	usage "KSRC_BASE, GUEST and HOST need KSRC (the kernel tree B, or the git tree)"
# Drop empty trailing arguments (make regress passes HEAD empty).
[ $# -ge 2 ] && [ -z "$2" ] && set -- "$1"
[ $# -ge 1 ] && [ -z "$1" ] && [ $# -eq 1 ] && set --
if [ -n "$ksrc_base" ]; then
	[ $# -eq 0 ] || usage "KSRC_BASE=DIR KSRC=DIR compares two trees: no BASE or HEAD ($*)"
	for t in "$ksrc_base" "$ksrc"; do
		[ -f "$t/drivers/virtio/virtio_ring.c" ] ||
			usage "$t has no drivers/virtio/virtio_ring.c"
	done
	base=$(cd "$ksrc_base" && pwd) head=$(cd "$ksrc" && pwd)
else
	[ $# -ge 1 ] && [ -n "$1" ] || usage "BASE is missing"
	[ $# -le 2 ] || usage "too many arguments: $*"
	base=$1
	head=${2:-HEAD}
	[ -z "$ksrc" ] || git -C "$ksrc" rev-parse --show-toplevel >/dev/null 2>&1 ||
		usage "KSRC=$ksrc is not a git work tree: give BASE and HEAD of a git tree, or KSRC_BASE=DIR for two trees"
fi
[ -n "$counts" ] || [ "$pairs" -gt 0 ] ||
	usage "-T with -n 0 leaves nothing to measure"
[ -z "$counts" ] || command -v valgrind >/dev/null 2>&1 ||
	die "valgrind is not installed (Debian: apt-get install valgrind)"

top=$(git -C "$here" rev-parse --show-toplevel) || die "not in a git repository"
AB_DIR=${AB_DIR:-$top/build-regress}
export AB_DIR
compare=$top/ab/compare
[ -x "$compare" ] || die "$compare is not built (make ab/compare)"

# ksrc_builds: with -k, A's and B's kernel ring code (extracted from git
# revisions into AB_DIR, or the two trees as they are), built in each
# pairing asked; $tmp/builds lists them.
ksrc_builds() {
	if [ -n "$ksrc_base" ]; then
		ka=$base kb=$head
	else
		ka=$AB_DIR/ksrc-A kb=$AB_DIR/ksrc-B
		"$top/kernel/ksrc-rev.sh" "$ksrc" "$base" "$ka" >/dev/null || exit 3
		"$top/kernel/ksrc-rev.sh" "$ksrc" "$head" "$kb" >/dev/null || exit 3
	fi
	same() {
		for f in $(sed -n "s/^$1 //p" "$top/kernel/ksrc-files"); do
			cmp -s "$ka/$f" "$kb/$f" || return 1
		done
	}
	if [ -n "$pairing" ]; then
		echo "$pairing"
	else
		echo kernel/kernel
		same guest || echo kernel/rig
		same host || echo rig/kernel
	fi >"$tmp/pairings"
	: >"$tmp/builds"
	while read -r p; do
		d=$AB_DIR/$(echo "$p" | tr / -)
		echo "building $p for A and B in $d-A, $d-B..." >&2
		# shellcheck disable=SC2086 # targets are words
		"$here/ksrc-build.sh" "$d-A" "$ka" "$p" $targets &&
		"$here/ksrc-build.sh" "$d-B" "$kb" "$p" $targets || exit 3
		echo "$p $d-A $d-B" >>"$tmp/builds"
	done <"$tmp/pairings"
}

start=$(date +%s)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vring-regress.XXXXXX") || exit 3
trap 'rm -rf "$tmp"' EXIT
. "$here/../tests/lib/signals.sh"

# The builds: "PAIRING DIR_A DIR_B" per line in $tmp/builds, the first
# the one timed; PAIRING is "-" for this repository's own revisions.
targets='vring_bench vringh_test'
[ -n "$counts" ] || targets=vring_bench
# A kernel tree's vhost-net too (its count and timed rows).
[ -z "$ksrc" ] || targets="$targets vhost_net_test"
if [ -z "$ksrc" ]; then
	"$here/ab.sh" -B -c "$compare" "$base" "$head" "$(echo "$targets" | sed 's#[^ ]*#./&#g')" || exit 3
	echo "- $AB_DIR/A $AB_DIR/B" >"$tmp/builds"
else
	ksrc_builds
fi

: >"$tmp/a"
: >"$tmp/b"
if [ -n "$counts" ]; then
	echo "counting A and B under valgrind (callgrind)..." >&2
	n=0
	while read -r p da db; do
		n=$((n + 1))
		for side in a b; do
			d=$da
			[ $side = b ] && d=$db
			{ { [ -z "$whole" ] || "$here/count.sh" "$d"; } &&
			  "$here/calls.sh" "$d"; } >"$tmp/c" ||
				die "counting $d failed"
			# Another pairing than the first: its vringh_test rows only.
			if [ "$p" = - ]; then
				cat "$tmp/c"
			elif [ $n -eq 1 ]; then
				sed "s#^#[$p] #" "$tmp/c"
			else
				grep '^vringh' "$tmp/c" | sed "s#^#[$p] #"
			fi >>"$tmp/$side"
		done
	done <"$tmp/builds"
fi
read -r _ dir_a dir_b <"$tmp/builds"

# rows: "metric<TAB>A<TAB>B<TAB>B/A<TAB>verdict"; a metric one side has
# and the other lost is "missing" (a failure, as a regression), B's
# after B's own rows in order, A's at the end.
awk -F ': ' -v ipct="$ipct" -v dpct="$dpct" '
NR == FNR { if (!($1 in a)) order[++na] = $1; a[$1] = $2; next }
END {
	for (i = 1; i <= na; i++)
		if (!(order[i] in seen))
			printf "%s\t%s\t-\t-\tmissing\n", order[i], a[order[i]]
}
{
	m = $1; vb = $2; seen[m] = 1
	if (!(m in a)) {
		printf "%s\t-\t%s\t-\tmissing\n", m, vb
		next
	}
	va = a[m]
	if (va == "n/a" || vb == "n/a") {
		printf "%s\t%s\t%s\t-\tn/a\n", m, va, vb
		next
	}
	r = va > 0 ? vb / va : (vb > 0 ? 999 : 1)
	v = "ok"
	if (m ~ /LL misses/ || (m ~ /D1 misses/ && dpct == "")) {
		v = "info"
	} else if (m ~ /D1 misses/) {
		if (va >= 0.05) {
			if (r > 1 + dpct / 100) v = "REGRESSION"
			else if (r < 1 - dpct / 100) v = "better"
		}
	} else {
		if (r > 1 + ipct / 100) v = "REGRESSION"
		else if (r < 1 - ipct / 100) v = "better"
	}
	printf "%s\t%s\t%s\t%.4f\t%s\n", m, va, vb, r, v
}' "$tmp/a" "$tmp/b" >"$tmp/rows"

# timed NAME UNIT N METRIC CMD_A CMD_B: a row of the interleaved timed
# comparison of CMD_A and CMD_B (ab/compare, $pairs pairs), each run doing
# N of UNIT: the medians per UNIT, B/A with its interval, the verdict.
timed() {
	local name=$1 unit=$2 n=$3 m=$4 rc what
	echo "timing: $pairs interleaved pairs of $name ($m)..." >&2
	"$compare" -q --json --metric="$m" --max-slowdown="$wpct" \
		-n "$pairs" "$5" "$6" >"$tmp/wall.json"
	rc=$?
	[ $rc -le 1 ] || die "the timed comparison of $name failed (exit $rc)"
	# The few fields we need, from ab/compare's JSON (one per line).
	field() {
		sed -n "s/^  \"$1\": \\(.*\\),\$/\\1/p" "$tmp/wall.json"
	}
	meds=$(grep -o '"median": [0-9.e+]*' "$tmp/wall.json" | awk '{ print $2 }')
	med_a=$(echo "$meds" | sed -n 1p)
	med_b=$(echo "$meds" | sed -n 2p)
	v=ok
	[ $rc -eq 1 ] && v=REGRESSION
	[ "$(field verdict)" = '"faster"' ] && v=better
	case $m in
	cpu) what="CPU ns/$unit" ;;
	own) what="wall ns/$unit (its figure)" ;;
	*) what="wall ns/run-$unit" ;;
	esac
	awk -v a="$med_a" -v b="$med_b" -v r="$(field ratio)" \
		-v lo="$(field ci_low)" -v hi="$(field ci_high)" -v v="$v" \
		-v n="$pairs" -v what="$what" -v per="$n" -v name="$name" \
		-v prefix="$(read -r p _ <"$tmp/builds"; [ "$p" = - ] || echo "[$p] ")" 'BEGIN {
		printf "%s%s %s (median of %d; 95%% CI %.4f..%.4f)\t%.2f\t%.2f\t%.4f\t%s\n",
			prefix, name, what, n, lo, hi, a / per, b / per, r, v
	}' >>"$tmp/rows"
}

if [ "$pairs" -gt 0 ]; then
	timed vring_bench add "$adds" "$metric" "$dir_a/vring_bench $adds" "$dir_b/vring_bench $adds"
	# The kernel's vhost-net, where both builds have it (vhost_net_test
	# --serve: its handlers in the driver's thread), per frame each way;
	# it prints no time of its own, so "own" is CPU time here too.
	m=$metric
	[ "$m" = own ] && m=cpu
	if "$dir_a/vhost_net_test" --serve --buf-num=1 >/dev/null 2>&1 &&
	   "$dir_b/vhost_net_test" --serve --buf-num=1 >/dev/null 2>&1; then
		for d in tx rx; do
			timed "vhost-net $d" packet "$net_frames" "$m" \
				"$dir_a/vhost_net_test --serve --$d --buf-num=$net_frames" \
				"$dir_b/vhost_net_test --serve --$d --buf-num=$net_frames"
		done
	fi
fi

gates="$metric time +$wpct% (with 95% confidence)"
[ "$pairs" -gt 0 ] || gates=
[ -z "$counts" ] ||
	gates="instructions +$ipct%, ${dpct:+D1 misses +$dpct%, }$gates"
echo "A = $base, B = $head; gates: ${gates%, }"
if [ -n "$ksrc" ]; then
	# What each build measured: its programs' --version lines name the
	# trees, revisions and ring files.
	while read -r p da db; do
		echo "[$p] A: $("$da/vring_bench" --version | sed 's/.*; guest from/guest from/')"
		echo "[$p] B: $("$db/vring_bench" --version | sed 's/.*; guest from/guest from/')"
	done <"$tmp/builds"
	echo "(vring_bench and virtqueue_* rows: the guest's code alone, against the mock device;" \
		"vringh_test and vringh_* rows: both sides, as the pairing says)"
fi
awk -F '\t' '
BEGIN { w = length("metric") }
{ row[NR] = $0; if (length($1) > w) w = length($1) }
END {
	printf "%-" w "s  %14s  %14s  %8s  %s\n", "metric", "A", "B", "B/A", "verdict"
	for (i = 1; i <= NR; i++) {
		split(row[i], f, "\t")
		printf "%-" w "s  %14s  %14s  %8s  %s\n", f[1], f[2], f[3], f[4], f[5]
	}
}' "$tmp/rows"

if [ -n "$json" ]; then
	awk -F '\t' -v base="$base" -v head="$head" '
	function q(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); return "\"" s "\"" }
	function num(s) { return s ~ /^[0-9.]+$/ ? s : "null" }
	BEGIN { printf "{\"base\": %s, \"head\": %s, \"rows\": [", q(base), q(head) }
	{
		printf "%s\n  {\"metric\": %s, \"a\": %s, \"b\": %s, \"ratio\": %s, \"verdict\": %s}",
			(NR > 1 ? "," : ""), q($1), num($2), num($3), num($4), q($5)
	}
	END { print "\n]}" }' "$tmp/rows" >"$json" || die "cannot write $json"
fi

# A metric one side lost fails as a regression does.
fails=$(grep -c '	REGRESSION$' "$tmp/rows")
missing=$(grep -c '	missing$' "$tmp/rows")
lost=
[ "$missing" -eq 0 ] || lost=", $missing missing (a metric only one side has: a failure)"
echo "$fails regression(s)$lost; $(($(date +%s) - start)) s"
[ "$fails" -eq 0 ] && [ "$missing" -eq 0 ]
