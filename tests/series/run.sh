#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make series and make regress on a kernel git tree, end to end: a
# throwaway git repository of Debian's linux-source-6.12 ring files
# (kernel/ksrc-files) with a series of commits:
#   1 a comment change                      every count as BASE's
#   - a README change                       listed as skipped
#   2 extra work in virtqueue_add_split()   the split add calls up, no other
#   3 a syntax error                        a row that does not build
#   4 both reverted, in one commit          every count as BASE's again
# and, off BASE, two patches of tests/ksrc-edits for make regress:
#   split-add-one-loop.edit    a split-only refactor: the split add rows
#                              "changed"; the packed rows gcc moves (it
#                              inlines vring_map_one_sg() there) are the
#                              compiler's, and do not fail the gate
#   split-detach-extra-pass.edit  a pass more over the chain on each
#                              get_buf: 1.05 or more in get_buf split, a
#                              REGRESSION, read in make regress
#                              REPORT=short (80 columns, a line a call)
# and make series REPORT=short (-R short) from the comment to the syntax
# error, with a few short timed pairs: every line within 80 columns, the
# skipped and unbuilt commits a line each, under the planted commit one
# line per split add call that moved with its rows and the command that
# counts them again, its timed row with both sides' runs as stats folds
# them and the command that times them again.
# Counts only elsewhere (-n 0: no timed pairs; regress -C: no cache simulation).  Checks that
# make regress on commit 2 exits 1 with the split add rows REGRESSION and
# no other call's, that two builds' --version lines differ, and that the
# tree is byte for byte as before, .git included (git status, git worktree
# list too).
#
# Usage: tests/series/run.sh [PART...]
#   PART: series, short, regress, restructure, extra-pass or all (the
#   default: every part).  The parts of one run share their build
#   folders: series and short the rows' (SERIES_DIR), the three regress
#   parts A's and B's (AB_DIR), so a folder built again for another
#   commit compiles only what that commit changed (kernel/ksrc-rev.sh
#   keeps the times of the files it leaves as they were).  make check
#   runs two checks side by side: series short, and regress restructure
#   extra-pass.
#   (the ring files: $RIG_KSRC_6_12, else
#   build-ksrc/linux-source-6.12, or extracted
#   from /usr/src/linux-source-6.12.tar.xz by kernel/fetch-ksrc.sh)
# Prints KTAP (tests/lib/result.sh), each result named "series/NAME";
# exits 1 if any check failed.

set -u
top=$(cd "$(dirname "$0")/../.." && pwd) || exit 2
[ $# -gt 0 ] || set -- all
parts=" "
for p; do
	case $p in
	all) parts+="series short regress restructure extra-pass " ;;
	series | short | regress | restructure | extra-pass) parts+="$p " ;;
	*) echo "usage: tests/series/run.sh [series|short|regress|restructure|extra-pass|all]..." >&2; exit 2 ;;
	esac
done
want() { [[ $parts == *" $1 "* ]]; }
CHECK_PREFIX=series/
. "$top/tests/lib/result.sh"
# skip_all NAME REASON: nothing here can run.
skip_all() { skip "$1" "$2"; ktap_finished; }

command -v valgrind >/dev/null 2>&1 ||
	skip_all "kernel series" "valgrind is not installed (apt-get install valgrind)"
command -v git >/dev/null 2>&1 || skip_all "kernel series" "git is not installed"
k=
for d in ${RIG_KSRC_6_12:-} "$top/build-ksrc/linux-source-6.12"; do
	[ -f "$d/drivers/virtio/virtio_ring.c" ] && { k=$d; break; }
done
if [ -z "$k" ] && [ -r /usr/src/linux-source-6.12.tar.xz ]; then
	k=$("$top/kernel/fetch-ksrc.sh" /usr/src/linux-source-6.12.tar.xz \
		"$top/build-ksrc/linux-source-6.12") || k=
fi
[ -n "$k" ] || skip_all "kernel series" "no linux-source-6.12 (apt-get install linux-source-6.12)"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/series-test.XXXXXX") || exit 2
SHOW_ON_FAIL=$tmp/err
trap 'rm -rf "$tmp"' EXIT
. "$top/shlib/signals.sh"
: >"$tmp/err"

# The tree, and its commits.
t=$tmp/linux
mkdir -p "$t" && git -C "$t" init -q || exit 2
g() { git -C "$t" -c user.name=rig -c user.email=rig@localhost "$@"; }
for f in $(sed -n 's/^\(guest\|host\) //p' "$top/kernel/ksrc-files"); do
	mkdir -p "$t/$(dirname "$f")" && cp "$k/$f" "$t/$f" || exit 2
done
echo "a test tree" >"$t/README"
g add -A && g commit -qm "base" || exit 2
ring=$t/drivers/virtio/virtio_ring.c
sed -i '1s|$|\n/* A comment. */|' "$ring" && g commit -qam "a comment" || exit 2
echo "more" >>"$t/README" && g commit -qam "README only" || exit 2
# Four volatile increments after virtqueue_add_split()'s first check.
awk '{ print }
/^static inline int virtqueue_add_split\(/ { in_add = 1 }
in_add && /BUG_ON\(total_sg == 0\);/ {
	print "\t{\n\t\tstatic volatile int plant;\n\n\t\tplant++;\n\t\tplant++;\n\t\tplant++;\n\t\tplant++;\n\t}"
	in_add = 0
}' "$ring" >"$tmp/ring" && cp "$tmp/ring" "$ring" || exit 2
grep -q 'static volatile int plant' "$ring" || { fail "plant: virtqueue_add_split() not found"; ktap_finished; }
g commit -qam "extra work in the split add path" || exit 2
plant=$(git -C "$t" rev-parse HEAD)
echo "this is not C" >>"$ring" && g commit -qam "a syntax error" || exit 2
g revert --no-commit HEAD "$plant" && g commit -qm "revert both" || exit 2
last=$(git -C "$t" rev-parse HEAD)
# The two patches of tests/ksrc-edits, each on a branch off BASE.
base=$(git -C "$t" rev-parse HEAD~5)
branch=$(git -C "$t" symbolic-ref --short HEAD) || exit 2
for e in split-add-one-loop split-detach-extra-pass; do
	g checkout -q -b "$e" "$base" &&
		bash -c 'DIE_PREFIX=series; . "$1/shlib/die.sh"; . "$1/shlib/edit.sh"
			edit_tree "$2" "$3"' edit "$top" "$top/tests/ksrc-edits/$e.edit" "$t" &&
		g commit -qam "$e" || exit 2
done
g checkout -q "$branch" || exit 2

state() {
	find "$t" -type f -exec sha256sum {} + | sort
	git -C "$t" status --porcelain
	git -C "$t" worktree list
}
state >"$tmp/before"
# unchanged PART: the tree is as it was before PART ran.
unchanged() {
	state >"$tmp/after"
	cmp -s "$tmp/before" "$tmp/after"
	pass_if "$1: the kernel tree is byte for byte as before (.git, git status, git worktree list)"
}

# The series.
if want series; then
SERIES_DIR=$tmp/series "$top/ab/series.sh" -n 0 -k "$t" -j "$tmp/s.json" \
	"$last~5" "$last" >"$tmp/out" 2>"$tmp/err"
rc=$?
cat "$tmp/out" >>"$tmp/err"
[ $rc -eq 0 ] && grep -q "^3 commit(s) measured, 1 skipped, 1 not built" "$tmp/out"
pass_if "series on a kernel tree: 3 commits measured, 1 skipped, 1 not built"
grep -q '^  -   [0-9a-f]* *skipped *README only$' "$tmp/out" &&
	grep -q '^  3   [0-9a-f]* *NO BUILD *a syntax error$' "$tmp/out"
pass_if "series: the skipped commit and the one that does not build are rows"
# The JSON's rows: base, comment, plant, broken, revert.
python3 - "$tmp/s.json" 2>>"$tmp/err" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
rows = [r for r in d["rows"] if r["status"] != "skipped"]
assert [r["status"] for r in rows] == ["base", "measured", "measured", "build failed", "measured"], rows
add = re.compile(r"^virtqueue_add_[a-z_]+ split (in)?direct ")
def calls(r):
    return {m: v for m, v in r["metrics"].items() if not m.startswith("vringh_test ")}
comment, planted, revert = rows[1], rows[2], rows[4]
for r in (comment, revert):
    for m, v in r["metrics"].items():
        assert v["vs_base"] in (None, 1), (r["commit"], m, v)
ups = sorted(m for m, v in calls(planted).items() if v["vs_prev"] is not None and v["vs_prev"] > 1.0025)
assert ups == sorted(m for m in calls(planted) if add.match(m)), ups
assert len(ups) == 7, ups
for m, v in calls(planted).items():
    if not add.match(m):
        assert v["vs_prev"] in (None, 1), (m, v)
PY
pass_if "series: 1.000, then the split add calls alone up, then 1.000 again"

a=$("$tmp/series/0/vring_bench" --version) && b=$("$tmp/series/1/vring_bench" --version) &&
	[ "$a" != "$b" ] && case $b in *"$(git -C "$t" rev-parse --short "$last~4")"*) true ;; *) false ;; esac
pass_if "series: two commits' builds print different --version lines, naming the commit"
unchanged series
fi

# make series REPORT=short: the comment (BASE, #0), the README commit
# (skipped), the plant (#1) and the syntax error (#2).
if want short; then
(cd "$top" && SERIES_DIR=$tmp/series "$top/ab/series.sh" -R short -n 3 -x 2000 \
	-k "$t" "$last~4" "$last~1") >"$tmp/out" 2>"$tmp/err"
rc=$?
cat "$tmp/out" >>"$tmp/err"
[ $rc -eq 0 ] && [ -s "$tmp/out" ] && awk 'length > 80 { exit 1 }' "$tmp/out" &&
	grep -q '^make series KSRC=' "$tmp/out" && grep -q ' REPORT=short$' "$tmp/out"
pass_if "series REPORT=short: every line within 80 columns"
grep -q '^-  [0-9a-f]* README only: skipped, no ring file changed$' "$tmp/out" &&
	grep -q '^#2 [0-9a-f]* a syntax error: does not build, not measured$' "$tmp/out" &&
	grep -q '^#0 [0-9a-f]* a comment: BASE$' "$tmp/out"
pass_if "series REPORT=short: BASE, the skipped and the unbuilt commit a line each"
# The plant's block: a line per call that moved (the split add calls,
# and vringh_test's scenarios, which run them too), each once, with its
# rows and the command that counts them again under it.
sed -n '/^#1 /,/^#2 /p' "$tmp/out" >"$tmp/plant"
grep -q '^#1 [0-9a-f]* extra work in the split add path: [0-9]* count(s) up, 0 down against #0$' "$tmp/plant" &&
	awk '
	/^  [^ ].*: [0-9]+ row\(s\) moved, #1\/#0 / {
		g = $0; sub(/:.*/, "", g); sub(/^  /, "", g)
		if (seen[g]++ || (g ~ /^virtqueue_/ && g !~ /^virtqueue_add_/)) bad = 1
		calls++; add = g ~ /^virtqueue_add_/; next
	}
	/^    \$ for d in / { cmds++; next }
	/^    [a-z_ ]+ +[0-9.]+ +[0-9.]+ +[0-9.]+  REGRESSION$/ { if (add) { rows++; if ($0 !~ /^    split (in)?direct /) bad = 1 }; next }
	END { exit bad || !calls || cmds != calls || rows != 7 }' "$tmp/plant"
pass_if "series REPORT=short: one line per call that moved, the split add calls' 7 rows under theirs"
grep -A6 '^  timed: #1/#0 [0-9.]* (95% CI [0-9.]*\.\.[0-9.]*), [a-z ]*$' "$tmp/plant" >"$tmp/timed"
sed -n 2p "$tmp/timed" | grep -Eq '^    #0 CPU ns/add [0-9]+-[0-9]+\([0-9.]+\+/-[0-9.]+\)$' &&
	sed -n 3p "$tmp/timed" | grep -Eq '^    #1 CPU ns/add [0-9]+-[0-9]+\([0-9.]+\+/-[0-9.]+\)$' &&
	sed -n '4,$p' "$tmp/timed" | sed -e ':a' -e '/\\$/{N;s/ \\\n *\([^ ]\)/ \1/;ba' -e '}' | sed -n 1p |
		grep -qx "    \$ ab/compare -n 3 --metric=cpu '$tmp/series/0/vring_bench 2000' '$tmp/series/1/vring_bench 2000'"
pass_if "series REPORT=short: the timed row, both sides' runs as stats folds them, its command"
unchanged short
fi

# make regress on the planted commit.
if want regress; then
AB_DIR=$tmp/regress "$top/ab/regress.sh" -C -n 0 -p kernel/kernel -k "$t" \
	"$plant~1" "$plant" >"$tmp/out" 2>"$tmp/err"
rc=$?
cat "$tmp/out" >>"$tmp/err"
[ $rc -eq 1 ] &&
	[ "$(grep -c '^\[kernel/kernel\] virtqueue_add_[a-z_]* split \(in\)\{0,1\}direct instructions/call .* REGRESSION$' "$tmp/out")" -eq 7 ] &&
	! grep '^\[kernel/kernel\] \(virtqueue\|vring\)_' "$tmp/out" | grep -v '^\[kernel/kernel\] virtqueue_add_[a-z_]* split ' | grep -q 'REGRESSION$' &&
	! grep '^\[kernel/kernel\] vringh_[a-z_]* \(split\|packed\) instructions/call' "$tmp/out" | grep -q 'REGRESSION$'
pass_if "regress on the planted commit: exit 1, the split add rows REGRESSION, no other call's"
unchanged regress
fi

# A split-only refactor: the packed rows the compiler moved are its, apart.
if want restructure; then
AB_DIR=$tmp/regress "$top/ab/regress.sh" -C -n 0 -p kernel/kernel -k "$t" \
	"$base" split-add-one-loop >"$tmp/out" 2>"$tmp/err"
rc=$?
cat "$tmp/out" >>"$tmp/err"
rows() { grep "^\[kernel/kernel\] virtqueue_[a-z_]* $1 " "$tmp/out"; }
[ $rc -eq 0 ] && ! grep -q 'REGRESSION$' "$tmp/out" &&
	[ "$(rows split | grep -c '^\[kernel/kernel\] virtqueue_add_[a-z_]* split [a-z]* instructions/call  *changed ')" -eq 7 ] &&
	! rows split | grep -v '^\[kernel/kernel\] virtqueue_add_' | grep -q ' changed '
pass_if "regress on a split-only refactor: exit 0, the split add rows changed, no other call's"
! rows packed | grep -q ' changed ' &&
	rows packed | grep -q ' compiler$' &&
	! rows packed | grep -v ' ok$' | grep -qv ' same .* compiler$' &&
	grep -q '^the patch changed: virtqueue_add_split, vring_map_sg_split (new)$' "$tmp/out" &&
	grep -q "^[0-9]* row(s) moved with their source the same: the compiler's .*object code changed: .*virtqueue_add_packed" "$tmp/out"
pass_if "regress on a split-only refactor: each packed row that moved is the compiler's, named apart"
unchanged restructure
fi

# A patch that only adds work in the split detach path, in the report
# for a reply (REPORT=short): 80 columns, a line per call that moved.
if want extra-pass; then
AB_DIR=$tmp/regress "$top/ab/regress.sh" -C -n 0 -R short -p kernel/kernel -k "$t" \
	"$base" split-detach-extra-pass >"$tmp/out" 2>"$tmp/err"
rc=$?
cat "$tmp/out" >>"$tmp/err"
# (a chain of one indirect descriptor walks one entry more: the direct
# rows, chains of 4, show the pass)
[ $rc -eq 1 ] &&
	awk '/^virtqueue_get_buf: / { n++; call = 1; next } /^[^ ]/ { call = 0 }
		call && /^  split direct .* REGRESSION$/ { d++; if ($(NF - 1) < 1.05) low = 1 }
		END { exit n != 1 || d != 1 || low }' "$tmp/out" &&
	grep -q '^changed: detach_buf_split$' "$tmp/out"
pass_if "regress REPORT=short on an extra pass in the split detach: get_buf's line, split direct 1.05 or more"
[ $rc -eq 1 ] && awk 'length($0) > 80 { exit 1 }' "$tmp/out" &&
	grep -q ' REPORT=short$' "$tmp/out"
pass_if "regress REPORT=short: every line within 80 columns, the command that gives it again"
unchanged extra-pass
fi

# Refused, not ignored.
want regress || ktap_finished
for goal in ab mutate; do
	MAKEFLAGS='' make -s -C "$top" $goal KSRC="$t" BASE=HEAD >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -ne 0 ] && grep -q "make $goal works on this repository's own ring code and takes no KSRC" "$tmp/err"
	pass_if "make $goal KSRC=...: refused with one line"
done
ktap_finished
