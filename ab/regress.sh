#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make regress: did HEAD make the ring slower than BASE?  One command for CI.
#
# Usage: ab/regress.sh [-n PAIRS] [-m METRIC] [-x ADDS] [-i PCT] [-d PCT]
#                      [-w PCT] [-j FILE] [-L N] [-S SHAPES] [-R short] [-T]
#                      [-C] [-h] BASE [HEAD]
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
#   -L N        layouts of A and of B to time (default 6; 1: each build as
#               linked, the pairs' bootstrap interval alone)
#   -S SHAPES   the vring_bench shapes to time, instead of the default
#               one and those of the rows whose source changed: a comma-
#               separated list of "split|packed direct|indirect" (the
#               short report's command for timing again gives them)
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
#   -R short    instead of the table, a report for a reply (make regress
#               REPORT=short): at most 80 columns, the rows that moved,
#               a line per API call and pairing, the compiler's rows
#               apart, the timed rows as stats folds their runs, and the
#               commands that give each figure again (ab/short.awk)
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
# Exit status: 0 no regression, 1 a regression (or a missing metric), 2
# usage error (a revision that names no commit too), 3 a build or a run
# failed.

set -u
here=$(cd "$(dirname "$0")" && pwd) || exit 3
DIE_PREFIX=regress DIE_STATUS=3 USAGE_HELP=ab/regress.sh
. "$here/../shlib/die.sh"
# pct NAME VALUE: a percentage, 0 to 1000.
pct() {
	printf '%s\n' "$2" | grep -Eq '^[0-9]+(\.[0-9]+)?$' &&
		awk -v v="$2" 'BEGIN { exit !(v <= 1000) }' ||
		usage "-$1: '$2' is not a percentage in 0..1000"
}

pairs=201 metric=cpu adds=100000 ipct=0.25 dpct='' wpct=1 json='' counts=1 layouts=6
report=long net_frames=20000 shapes=
. "$here/lib.sh"
ksrc='' ksrc_base='' pairing='' whole=1
while getopts :n:m:x:L:S:i:d:w:j:R:TCk:K:p:h opt; do
	case $opt in
	h) sed -n '4,/^$/s/^# \{0,1\}//p' "$here/regress.sh"; exit 0 ;;
	k) [ -n "$OPTARG" ] || usage "-k: an empty tree"; ksrc=$OPTARG ;;
	K) [ -n "$OPTARG" ] || usage "-K: an empty tree"; ksrc_base=$OPTARG ;;
	p) set_pairing "$OPTARG" ;;
	n) set_pairs "$OPTARG" ;;
	m) case $OPTARG in
	   cpu | own | wall) metric=$OPTARG ;;
	   *) usage "-m: '$OPTARG' is not one of cpu, own, wall" ;;
	   esac ;;
	x) set_adds "$OPTARG" ;;
	L) case $OPTARG in
	   '' | 0* | *[!0-9]*) usage "-L: '$OPTARG' is not a positive number" ;;
	   esac
	   layouts=$OPTARG ;;
	S) shapes=$(printf '%s\n' "$OPTARG" | tr ',' '\n')
	   printf '%s\n' "$shapes" | grep -Evqx '(split|packed) (direct|indirect)' &&
		usage "-S: '$OPTARG' is not a list of \"split|packed direct|indirect\""
	   ;;
	i) pct i "$OPTARG"; ipct=$OPTARG ;;
	d) pct d "$OPTARG"; dpct=$OPTARG ;;
	w) pct w "$OPTARG"; wpct=$OPTARG ;;
	j) json=$OPTARG ;;
	R) case $OPTARG in
	   short | long) report=$OPTARG ;;
	   *) usage "-R: '$OPTARG' is not short or long (REPORT=)" ;;
	   esac ;;
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
[ "$pairs" -eq 0 ] || [ "$pairs" -ge "$layouts" ] ||
	usage "-n $pairs: fewer pairs than the $layouts layouts (-L)"
[ -z "$counts" ] || command -v valgrind >/dev/null 2>&1 ||
	die "valgrind is not installed (Debian: apt-get install valgrind)"

top=$(git -C "$here" rev-parse --show-toplevel) || die "not in a git repository"
# A revision that names no commit is a usage error (2), found before
# anything is built, as in ab/ab.sh and ab/series.sh.
if [ -z "$ksrc_base" ]; then
	repo=${ksrc:-$top}
	for r in "$base" "$head"; do
		[ "$r" = worktree ] ||
			git -C "$repo" rev-parse --verify --quiet "$r^{commit}" >/dev/null ||
			usage "'$r' names no commit of $repo"
	done
fi
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

# cmdline [args]: the make command that gives this comparison again (its
# make variables), or with "args" this script's arguments for the trees
# and revisions.
cmdline() {
	if [ "${1:-}" = args ]; then
		printf '%s' "${ksrc:+-k $ksrc }${ksrc_base:+-K $ksrc_base }${pairing:+-p $pairing }"
		[ -n "$ksrc_base" ] || printf '%s %s' "$base" "$head"
		return
	fi
	printf 'make regress'
	[ -z "$ksrc_base" ] || printf ' KSRC_BASE=%s' "$ksrc_base"
	[ -z "$ksrc" ] || printf ' KSRC=%s' "$ksrc"
	[ -n "$ksrc_base" ] || printf ' BASE=%s HEAD=%s' "$base" "$head"
	[ -z "$pairing" ] || printf ' GUEST=%s HOST=%s' "${pairing%/*}" "${pairing#*/}"
	[ "$pairs" -eq 201 ] || printf ' PAIRS=%s' "$pairs"
	printf ' REPORT=short'
}

start=$(date +%s)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vring-regress.XXXXXX") || exit 3
trap 'rm -rf "$tmp"' EXIT
. "$here/../shlib/signals.sh"

# The builds: "PAIRING DIR_A DIR_B" per line in $tmp/builds, the first
# the one timed; PAIRING is "-" for this repository's own revisions.
targets='vring_bench vringh_test'
[ -n "$counts" ] || targets=vring_bench
# A kernel tree's vhost-net too, for its rows: the whole-run counts' and
# the timed pairs' (neither with -C -n 0: no build of it then).
[ -z "$ksrc" ] || { [ -z "$whole" ] && [ "$pairs" -eq 0 ]; } ||
	targets="$targets vhost_net_test"
if [ -z "$ksrc" ]; then
	"$here/ab.sh" -B -c "$compare" "$base" "$head" "$(echo "$targets" | sed 's#[^ ]*#./&#g')" || exit 3
	echo "- $AB_DIR/A $AB_DIR/B" >"$tmp/builds"
else
	ksrc_builds
fi

# pick PAIRING N: of the rows on stdin ("NAME..." lines), those this
# pairing adds to the table, named with it: all of the first pairing's,
# the vringh_test and vringh_* rows of the others (the same guest code
# again); for this repository's own revisions, all, unnamed.
pick() {
	if [ "$1" = - ]; then
		cat
	elif [ "$2" -eq 1 ]; then
		sed "s#^#[$1] #"
	else
		grep '^vringh' | sed "s#^#[$1] #"
	fi
}

: >"$tmp/a"
: >"$tmp/b"
: >"$tmp/src"
: >"$tmp/patched"
: >"$tmp/decls"
if [ -n "$counts" ]; then
	echo "counting A and B under valgrind (callgrind)..." >&2
	n=0
	while read -r p da db; do
		n=$((n + 1))
		for side in a b; do
			d=$da
			[ $side = b ] && d=$db
			: >"$tmp/ran-$side"
			{ { [ -z "$whole" ] || "$here/count.sh" -w "$tmp/ran-$side" "$d"; } &&
			  "$here/calls.sh" -w "$tmp/ran-$side.c" "$d" &&
			  cat "$tmp/ran-$side.c" >>"$tmp/ran-$side"; } >"$tmp/c" ||
				die "counting $d failed"
			pick "$p" $n <"$tmp/c" >>"$tmp/$side"
		done
		# Which rows' source differs between A and B (ab/src-rows.awk):
		# the folders that differ are the trees and the builds.
		if [ "$p" = - ]; then
			roots_a=$da roots_b=$db
		else
			roots_a="$ka $da" roots_b="$kb $db"
		fi
		awk -v ia="$da/.rig-src-index" -v ib="$db/.rig-src-index" \
			-v oa="$da/.rig-obj-index" -v ob="$db/.rig-obj-index" \
			-v ra="$tmp/ran-a" -v rb="$tmp/ran-b" \
			-v roots_a="$roots_a" -v roots_b="$roots_b" \
			-f "$here/src-rows.awk" >"$tmp/srcrows" ||
			die "cannot compare the source of $da and $db"
		sed -n 's/^row\t//p' "$tmp/srcrows" | pick "$p" $n >>"$tmp/src"
		sed -n 's/^patch\t//p' "$tmp/srcrows" | tr ' ' '\n' | sed '/^$/d' >>"$tmp/patched"
		sed -n 's/^decls\t//p' "$tmp/srcrows" | tr ' ' '\n' | sed '/^$/d' >>"$tmp/decls"
	done <"$tmp/builds"
fi
read -r _ dir_a dir_b <"$tmp/builds"

# rows: "metric<TAB>A<TAB>B<TAB>B/A<TAB>verdict<TAB>source<TAB>objects";
# a metric one side has and the other lost is "missing" (a failure, as a
# regression), B's after B's own rows in order, A's at the end.  source:
# "changed" when the source the row ran differs between A and B, "same"
# when not (ab/src-rows.awk), "-" when unknown; a count that moved with
# its source the same is the compiler's ("compiler", not gated), objects
# the functions whose object code differs.
awk -F ': ' -v ipct="$ipct" -v dpct="$dpct" -v srcf="$tmp/src" '
BEGIN {
	while ((getline l < srcf) > 0) {
		split(l, w, "\t")
		src[w[1]] = w[2]
		objs[w[1]] = w[4]
	}
}
NR == FNR { if (!($1 in a)) order[++na] = $1; a[$1] = $2; next }
function out(m, va, vb, r, v) {
	printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", m, va, vb, r, v,
		m in src ? src[m] : "-", objs[m]
}
END {
	for (i = 1; i <= na; i++)
		if (!(order[i] in seen))
			out(order[i], a[order[i]], "-", "-", "missing")
}
{
	m = $1; vb = $2; seen[m] = 1
	if (!(m in a)) {
		out(m, "-", vb, "-", "missing")
		next
	}
	va = a[m]
	if (va == "n/a" || vb == "n/a") {
		out(m, va, vb, "-", "n/a")
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
	if ((v == "REGRESSION" || v == "better") && src[m] == "same")
		v = "compiler"
	out(m, va, vb, sprintf("%.4f", r), v)
}' "$tmp/a" "$tmp/b" >"$tmp/rows"

# timed NAME UNIT N METRIC CMD_A CMD_B [CMD_A2 CMD_B2...]: a row of the
# interleaved timed comparison (ab/compare, $pairs pairs) of A and B, each
# pair of commands a layout of them, each run doing N of UNIT: the medians
# per UNIT, B/A with its interval, the verdict.
timed() {
	local name=$1 unit=$2 n=$3 m=$4 rc what nl
	shift 4
	nl=$(($# / 2))
	echo "timing: $pairs interleaved pairs of $name ($m) in $nl layout(s) of A and B..." >&2
	"$compare" -q --json --metric="$m" --max-slowdown="$wpct" \
		-n "$pairs" "$@" >"$tmp/wall.json"
	rc=$?
	[ $rc -le 1 ] || die "the timed comparison of $name failed (exit $rc)"
	cp "$tmp/wall.json" "$tmp/wall-$(echo "$name" | tr ' ' -).json"
	# The few fields we need, from ab/compare's JSON (one per line).
	field() {
		sed -n "s/^  \"$1\": \\(.*\\),\$/\\1/p" "$tmp/wall.json"
	}
	meds=$(grep -o '"median": [0-9.e+]*' "$tmp/wall.json" | awk '{ print $2 }')
	v=ok
	[ $rc -eq 1 ] && v=REGRESSION
	[ "$(field verdict)" = '"faster"' ] && v=better
	case $m in
	cpu) what="CPU ns/$unit" ;;
	own) what="wall ns/$unit (its figure)" ;;
	*) what="wall ns/run-$unit" ;;
	esac
	awk -v a="$(echo "$meds" | sed -n 1p)" -v b="$(echo "$meds" | sed -n 2p)" \
		-v r="$(field ratio)" -v lo="$(field ci_low)" -v hi="$(field ci_high)" \
		-v v="$v" -v n="$pairs" -v l="$nl" -v what="$what" -v per="$n" \
		-v name="$name" -v prefix="$prefix" 'BEGIN {
		printf "%s%s %s (%d pairs, %d layout%s; 95%% CI %.4f..%.4f)\t%.2f\t%.2f\t%.4f\t%s\t-\t\n",
			prefix, name, what, n, l, (l > 1 ? "s" : ""), lo, hi, a / per, b / per, r, v
	}' >>"$tmp/rows"
}

# The timed rows: vring_bench's default shape (split, indirect), and the
# shape of every row whose source changed (virtqueue_* split or packed,
# direct or indirect; vring_bench split or packed), each timed in $layouts
# layouts of A and of B (ab/layouts.sh: other link orders, code and stack
# offsets), the pairs going round them (ab/compare): the layouts' spread
# is in the interval, so a layout that happens to favour one side does
# not decide the verdict.
if [ "$pairs" -gt 0 ]; then
	prefix=$(read -r p _ <"$tmp/builds"; [ "$p" = - ] || echo "[$p] ")
	{
		if [ -n "$shapes" ]; then
			printf '%s\n' "$shapes"
		else
			echo "split indirect"
		fi
		[ -n "$shapes" ] ||
		awk -F '\t' '$2 == "changed" { print $1 }' "$tmp/src" | sed 's/^\[[^]]*\] //' |
			sed -n -e 's/^virtqueue_[a-z_]* \(split\|packed\) \(direct\|indirect\) .*/\1 \2/p' \
				-e 's/^vring_bench \(split\|packed\) .*/\1 indirect/p' | sort -u
	} | awk '!seen[$0]++' >"$tmp/shapes"
	"$here/layouts.sh" "$dir_a" "$layouts" 1 >"$tmp/layouts-a" &&
		"$here/layouts.sh" "$dir_b" "$layouts" 2 >"$tmp/layouts-b" ||
		die "cannot link the layouts"
	while read -r ring ind; do
		flags=
		[ "$ring" = packed ] && flags=" --packed"
		[ "$ind" = direct ] && flags="$flags --no-indirect"
		set --
		while read -r ca <&3 && read -r cb <&4; do
			set -- "$@" "$ca$flags $adds" "$cb$flags $adds"
		done 3<"$tmp/layouts-a" 4<"$tmp/layouts-b"
		timed "vring_bench $ring $ind" add "$adds" "$metric" "$@"
	done <"$tmp/shapes"
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
# The summary: what the patch changed, what the compiler moved.
tr '\n' ' ' <"$tmp/patched" | sed 's/ $//; s/ /, /g; s/(new)/ (new)/g; s/(gone)/ (gone)/g' >"$tmp/patched.line"
tr '\n' ' ' <"$tmp/decls" | sed 's/ $//; s/ /, /g' >"$tmp/decls.line"
awk -F '\t' '$5 == "compiler" { n = split($7, o, " "); for (i = 1; i <= n; i++) print o[i] }' \
	"$tmp/rows" | awk '!seen[$0]++' | tr '\n' ' ' |
	sed 's/ $//; s/ /, /g; s/(A)/ (only in A)/g; s/(B)/ (only in B)/g' >"$tmp/objects.line"
fails=$(awk -F '\t' '$5 == "REGRESSION"' "$tmp/rows" | wc -l)
missing=$(awk -F '\t' '$5 == "missing"' "$tmp/rows" | wc -l)
compiler=$(awk -F '\t' '$5 == "compiler"' "$tmp/rows" | wc -l)

if [ "$report" = short ]; then
	# What A and B are: a commit and its subject, or a tree.
	desc() {
		if [ -n "$ksrc_base" ]; then
			echo "$1"
		elif [ "$1" = worktree ]; then
			echo "the work tree of $repo"
		else
			git -C "$repo" log -1 --format='%h %s' "$1" 2>/dev/null || echo "$1"
		fi
	}
	repo=$top
	[ -z "$ksrc" ] || repo=$ksrc
	awk -F '\t' -f "$here/short-lib.awk" -f "$here/short.awk" -v cmd="$(cmdline)" \
		-v a_desc="$(desc "$base")" -v b_desc="$(desc "$head")" \
		-v builds="$(cat "$tmp/builds")" -v patched="$(cat "$tmp/patched.line")" \
		-v decls="$(cat "$tmp/decls.line")" -v objects="$(cat "$tmp/objects.line")" \
		-v tmp="$tmp" -v stats="$top/stats" -v adds="$adds" -v frames="$net_frames" \
		-v retime="ab/regress.sh -T -n $pairs -L $layouts -S '$(tr '\n' ',' <"$tmp/shapes" | sed 's/,$//')' $(cmdline args)" \
		-v fails="$fails" -v missing="$missing" -v secs=$(($(date +%s) - start)) \
		"$tmp/rows" || die "cannot write the short report"
else
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
	[ -z "$counts" ] || echo "(source: whether what the row ran differs after preprocessing," \
		"the functions inlined included; a count that moved with the same source is the compiler's)"
	awk -F '\t' '
	BEGIN { w = length("metric") }
	{ row[NR] = $0; if (length($1) > w) w = length($1) }
	END {
		printf "%-" w "s  %-7s  %14s  %14s  %8s  %s\n", "metric", "source", "A", "B", "B/A", "verdict"
		for (i = 1; i <= NR; i++) {
			split(row[i], f, "\t")
			printf "%-" w "s  %-7s  %14s  %14s  %8s  %s\n", f[1], f[6], f[2], f[3], f[4], f[5]
		}
	}' "$tmp/rows"
	[ ! -s "$tmp/patched.line" ] || echo "the patch changed: $(cat "$tmp/patched.line")"
	[ ! -s "$tmp/decls.line" ] || echo "declarations it changed: $(cat "$tmp/decls.line")"
	[ "$compiler" -eq 0 ] ||
		echo "$compiler row(s) moved with their source the same: the compiler's (inlining, layout)," \
			"not gated; object code changed: $(cat "$tmp/objects.line")"
fi

if [ -n "$json" ]; then
	awk -F '\t' -v base="$base" -v head="$head" -v patched="$(tr '\n' ' ' <"$tmp/patched")" '
	function q(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); return "\"" s "\"" }
	function num(s) { return s ~ /^[0-9.]+$/ ? s : "null" }
	function list(s,   n, w, i, out) {
		n = split(s, w, " ")
		for (i = 1; i <= n; i++)
			out = out (i > 1 ? ", " : "") q(w[i])
		return "[" out "]"
	}
	BEGIN { printf "{\"base\": %s, \"head\": %s, \"patched\": %s, \"rows\": [", q(base), q(head), list(patched) }
	{
		printf "%s\n  {\"metric\": %s, \"a\": %s, \"b\": %s, \"ratio\": %s, \"verdict\": %s, \"source\": %s, \"objects\": %s}",
			(NR > 1 ? "," : ""), q($1), num($2), num($3), num($4), q($5),
			$6 == "-" ? "null" : q($6), list($7)
	}
	END { print "\n]}" }' "$tmp/rows" >"$json" || die "cannot write $json"
fi

# A metric one side lost fails as a regression does; the compiler's rows
# do not.
[ "$report" = short ] && exit $((fails + missing > 0))
lost=
[ "$missing" -eq 0 ] || lost=", $missing missing (a metric only one side has: a failure)"
echo "$fails regression(s)$lost; $(($(date +%s) - start)) s"
[ "$fails" -eq 0 ] && [ "$missing" -eq 0 ]
