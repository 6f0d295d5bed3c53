#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make ab: build two revisions of this repository side by side and compare
# one command's figures on them with ab/compare (A = BASE, B = HEAD).
#
# Usage: ab/ab.sh [-n PAIRS] [-m METRIC] [-g PCT] [-j] [-p PLOT] [-c COMPARE]
#                 [-B] [-h] BASE [HEAD [CMD]]
#   BASE, HEAD  git revisions; the word "worktree" means the files as they
#               are now, uncommitted changes included (HEAD default: HEAD)
#   CMD         what to time, run in each build (default:
#               ./vring_bench 100000: short runs, many pairs); each word "./X" becomes that
#               build's ./X, and the X named so are the make targets built
#   -n PAIRS    A B pairs to run (ab/compare's default: 101; 1 for
#               instructions)
#   -m METRIC   cpu (the default), auto, own, wall or instructions
#               (ab/compare --metric)
#   -g PCT      the gate: exit 1 when B is slower by more than PCT% with
#               confidence (ab/compare --max-slowdown; "default" for its
#               default threshold)
#   -j          a JSON object instead of the text report (ab/compare --json)
#   -p PLOT     draw A's and B's figures side by side into PLOT (.png or
#               .svg; needs gnuplot)
#   -c COMPARE  the comparer to use (default: ab/compare in the repository)
#   -B          only build: leave the two builds in AB_DIR/A and AB_DIR/B
#   -h          this help
# Environment: CC and CFLAGS, when set, are passed to both builds (make ab
# passes its own), so both sides are built alike; AB_DIR is where the builds
# go (default: build-ab in the top of the repository), each exported from
# its revision (ab/rev-build.sh: a folder built before, with the same
# Makefile, compiles only the files that changed).  Both builds' --version
# lines are printed by ab/compare.  Every option is checked before
# anything is built.  Exit status: ab/compare's
# (0 done, 1 the gate failed, 2 usage error, 3 a run failed); 2 also for a
# usage error here or a revision that names no commit (as ab/regress.sh
# and ab/series.sh), 3 for a failed build.

set -u
here=$(cd "$(dirname "$0")" && pwd) || exit 2
DIE_PREFIX=ab DIE_STATUS=3 USAGE_HELP=ab/ab.sh
. "$here/../shlib/die.sh"

compare=
metric=cpu
plot=
build_only=
# The comparer's options, quoted for eval; it checks them before any build.
cargs=
add_carg() {
	cargs="$cargs '$(printf '%s' "$1" | sed "s/'/'\\\\''/g")'"
}
while getopts :n:m:g:jp:c:Bh opt; do
	case $opt in
	h) sed -n '5,/^$/s/^# \{0,1\}//p' "$here/ab.sh"; exit 0 ;;
	n) add_carg "--pairs=$OPTARG" ;;
	m) add_carg "--metric=$OPTARG"; metric=$OPTARG ;;
	g) if [ "$OPTARG" = default ]; then add_carg --max-slowdown
	   else add_carg "--max-slowdown=$OPTARG"; fi ;;
	j) add_carg --json ;;
	p) plot=$OPTARG ;;
	c) compare=$OPTARG ;;
	B) build_only=1 ;;
	*) bad_option "$opt" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage "BASE is missing"
[ $# -le 3 ] || usage "too many arguments: $*"
[ -n "$1" ] || usage "BASE is empty"
base=$1
head=${2:-HEAD}
cmd=${3:-./vring_bench 100000}
[ -n "$head" ] || head=HEAD

top=$(git -C "$here" rev-parse --show-toplevel) || die "not in a git repository"
dir=${AB_DIR:-$top/build-ab}
[ -n "$compare" ] || compare=$top/ab/compare
[ -x "$compare" ] || die "$compare is not built (make ab/compare)"
eval "set -- $cargs"
if [ -z "$build_only" ]; then
	"$compare" --check-usage "$@" A B || exit 2
fi
if [ -n "$plot" ]; then
	case $plot in
	*.png | *.svg) ;;
	*) usage "PLOT must end in .png or .svg: $plot" ;;
	esac
	command -v gnuplot >/dev/null 2>&1 || usage "PLOT needs gnuplot" \
		"(Debian: apt-get install gnuplot-nox)"
fi

# The make targets: every word of CMD that starts with ./
targets=$(printf '%s\n' "$cmd" | tr ' \t' '\n\n' | sed -n 's#^\./##p')
[ -n "$targets" ] || targets=all

# describe REV: the commit it names, or "worktree".
describe() {
	if [ "$1" = worktree ]; then
		echo worktree
	else
		git -C "$top" rev-parse --verify --quiet "$1^{commit}" ||
			usage "'$1' names no commit of $top"
	fi
}

# build SIDE REV: export REV into $dir/SIDE and build the targets there.
build() {
	# shellcheck disable=SC2086 # targets are words
	"$here/rev-build.sh" "$dir/$1" "$2" $targets || exit 3
}

# in_build SIDE: CMD with each ./X turned into that build's X.
in_build() {
	printf '%s\n' "$cmd" | sed "s#\(^\|[[:space:]]\)\./#\1$dir/$1/#g"
}

# (usage's status, 2, from the subshell: 1 would say the gate failed)
rev_a=$(describe "$base") || exit
rev_b=$(describe "$head") || exit
echo "A = $base ($rev_a), B = $head ($rev_b); building in $dir" \
	"with CC=${CC:-default} CFLAGS=${CFLAGS-default}"
build A "$rev_a"
build B "$rev_b"
[ -z "$build_only" ] || exit 0
if [ -n "$plot" ]; then
	"$compare" "$@" --save "$dir/figures" "$(in_build A)" "$(in_build B)"
	rc=$?
	if [ -s "$dir/figures" ]; then
		case $metric in
		cpu) ylabel="CPU time of each run (ns)" ;;
		wall) ylabel="wall time of each run (ns)" ;;
		instructions) ylabel="instructions of each run" ;;
		*) ylabel="figure of each run (its ns or Wall time line)" ;;
		esac
		"$here/plot.sh" ab "$dir/figures" "$plot" \
			"A = $base, B = $head: $cmd ($metric)" "$ylabel" || rc=3
	fi
	exit $rc
fi
exec "$compare" "$@" "$(in_build A)" "$(in_build B)"
