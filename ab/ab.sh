#!/bin/sh
# make ab: build two revisions of this repository side by side and compare
# one command's figures on them with ab/compare (A = BASE, B = HEAD).
#
# Usage: ab/ab.sh [-n PAIRS] [-c COMPARE] BASE [HEAD [CMD]]
#   BASE, HEAD  git revisions; the word "worktree" means the files as they
#               are now, uncommitted changes included (HEAD default: HEAD)
#   CMD         what to time, run in each build (default:
#               ./vring_bench 1000000); each word "./X" becomes that
#               build's ./X, and the X named so are the make targets built
#   -n PAIRS    A B pairs to run (default 20)
#   -c COMPARE  the comparer to use (default: ab/compare in the repository)
# Environment: CC and CFLAGS, when set, are passed to both builds (make ab
# passes its own), so both sides are built alike; AB_DIR is where the builds
# go (default: build-ab in the top of the repository), each fresh from its
# revision.  Both builds' --version lines are printed by ab/compare.

set -u
here=$(cd "$(dirname "$0")" && pwd) || exit 2
usage() {
	sed -n '5,12s/^# \{0,1\}//p' "$here/ab.sh" >&2
	exit 1
}
die() {
	echo "ab: $*" >&2
	exit 1
}

pairs=20
compare=
while getopts n:c: opt; do
	case $opt in
	n) pairs=$OPTARG ;;
	c) compare=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] && [ $# -le 3 ] && [ -n "$1" ] || usage
base=$1
head=${2:-HEAD}
cmd=${3:-./vring_bench 1000000}
[ -n "$head" ] || head=HEAD

top=$(git -C "$here" rev-parse --show-toplevel) || die "not in a git repository"
dir=${AB_DIR:-$top/build-ab}
[ -n "$compare" ] || compare=$top/ab/compare
[ -x "$compare" ] || die "$compare is not built (make ab/compare)"

# The make targets: every word of CMD that starts with ./
targets=$(printf '%s\n' "$cmd" | tr ' \t' '\n\n' | sed -n 's#^\./##p')
[ -n "$targets" ] || targets=all

# describe REV: the commit it names, or "worktree".
describe() {
	if [ "$1" = worktree ]; then
		echo worktree
	else
		git -C "$top" rev-parse --verify --quiet "$1^{commit}" ||
			die "'$1' names no commit"
	fi
}

# build SIDE REV: export REV into $dir/SIDE and build the targets there.
build() {
	dest=$dir/$1
	rm -rf "$dest" && mkdir -p "$dest" || die "cannot create $dest"
	if [ "$2" = worktree ]; then
		(cd "$top" && git ls-files -z --cached --others --exclude-standard |
			tar --null -T - --ignore-failed-read -cf -) |
			tar -xf - -C "$dest"
	else
		git -C "$top" archive "$2" | tar -xf - -C "$dest"
	fi || die "cannot export $2 into $dest"
	set -- -C "$dest"
	[ -n "${CC:-}" ] && set -- "$@" "CC=$CC"
	[ -n "${CFLAGS+set}" ] && set -- "$@" "CFLAGS=$CFLAGS"
	# A make that runs us (make check O=build-asan ...) must not hand its
	# command-line variables (O= above all) on to these builds.
	# shellcheck disable=SC2086 # targets are words
	if ! MAKEFLAGS= MAKELEVEL= make "$@" $targets >"$dest.log" 2>&1; then
		cat "$dest.log" >&2
		die "building $targets in $dest failed (log: $dest.log)"
	fi
}

# in_build SIDE: CMD with each ./X turned into that build's X.
in_build() {
	printf '%s\n' "$cmd" | sed "s#\(^\|[[:space:]]\)\./#\1$dir/$1/#g"
}

rev_a=$(describe "$base") || exit 1
rev_b=$(describe "$head") || exit 1
echo "A = $base ($rev_a), B = $head ($rev_b); building in $dir" \
	"with CC=${CC:-default} CFLAGS=${CFLAGS-default}"
build A "$rev_a"
build B "$rev_b"
exec "$compare" -n "$pairs" "$(in_build A)" "$(in_build B)"
