#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make series: what each commit of a patch series did to the ring's cost.
#
# Usage: ab/series.sh [-k TREE] [-p GUEST/HOST] [-n PAIRS] [-x ADDS]
#                     [-i PCT] [-W] [-j FILE] [-P PLOT] [-R short] [-h]
#                     BASE [HEAD]
#   BASE, HEAD  git revisions (HEAD default: HEAD): of this repository, or
#               with -k of the kernel git tree TREE (make series KSRC=TREE
#               BASE=REV [HEAD=REV]), whose ring code is then measured
#   -k TREE     a kernel git checkout: from each commit only the files the
#               rig reads (kernel/ksrc-files) are taken, with git show
#               (kernel/ksrc-rev.sh); TREE itself is never written to
#   -p G/H      with -k, the pairing (GUEST=G HOST=H; default kernel/kernel)
#   -n PAIRS    timed pairs of vring_bench ADDS per commit, each against
#               BASE, by CPU time (default 51; 0: counts only)
#   -x ADDS     buffers each timed run adds (default 100000)
#   -i PCT      a count moved when it differs from the row before by more
#               than PCT% (default 0.25, as make regress)
#   -W          the whole-run counts of ab/count.sh too (instructions and
#               simulated cache misses per vring_bench add and vringh_test
#               run: about twice the time per commit)
#   -j FILE     also write the series as JSON to FILE
#   -P PLOT     draw each metric's ratio to BASE across the series (.png or
#               .svg; gnuplot): the metrics that ever move, and the timing
#   -R short    instead of the tables, a report for a reply (make series
#               REPORT=short): at most 80 columns, a line per commit, under
#               it a line per API call whose counts moved against the row
#               before with those rows and the command that counts them
#               again, the timed row with BASE's and the commit's runs as
#               stats folds them (ab/series-short.awk)
# Rows: BASE, then every commit of BASE..HEAD (oldest first) that changes
# the ring code or the headers it builds with (the kernel tree's
# kernel/ksrc-files; here virtio_ring.c, vringh.c, linux/ and uapi/); the
# others are listed as skipped.  Each is built in SERIES_DIR (default
# build-series/) with CC and CFLAGS from the environment when set, and
# counted: each exported ring call on its own (ab/calls.sh: split and
# packed, direct and indirect, each vringh_test scenario) and, with -W,
# the whole-run counts of ab/count.sh; then timed (ab/compare, the
# median of the pair ratios with its 95% interval, against BASE).  A commit
# that does not build is a row that says so, and the series goes on, each
# later row compared with the last one that built.
# Prints the commits, then each metric's ratio to BASE per commit, then
# each one's ratio to the row before with its verdict (REGRESSION, better,
# or nothing), then the timing.  Exit status: 0 measured (whatever it
# found), 2 usage error, 3 BASE did not build or a run failed.

set -u
here=$(cd "$(dirname "$0")" && pwd) || exit 3
DIE_PREFIX=series DIE_STATUS=3 USAGE_HELP=ab/series.sh
. "$here/../shlib/die.sh"

. "$here/lib.sh"
ksrc='' pairing=kernel/kernel pairs=51 adds=100000 ipct=0.25 whole='' json='' plot=''
report=long
while getopts :k:K:p:n:x:i:Wj:P:R:h opt; do
	case $opt in
	h) sed -n '5,48s/^# \{0,1\}//p' "$here/series.sh"; exit 0 ;;
	k) [ -n "$OPTARG" ] || usage "-k: an empty tree"; ksrc=$OPTARG ;;
	K) usage "KSRC_BASE is make regress's (two trees); a series needs one git tree: KSRC=TREE BASE=REV" ;;
	p) set_pairing "$OPTARG"; pairing_asked=1 ;;
	n) set_pairs "$OPTARG" ;;
	x) set_adds "$OPTARG" ;;
	i) printf '%s\n' "$OPTARG" | grep -Eq '^[0-9]+(\.[0-9]+)?$' ||
		usage "-i: '$OPTARG' is not a percentage"
	   ipct=$OPTARG ;;
	W) whole=1 ;;
	j) [ -n "$OPTARG" ] || usage "-j: an empty file name"; json=$OPTARG ;;
	P) case $OPTARG in
	   *.png | *.svg) plot=$OPTARG ;;
	   *) usage "-P: PLOT must end in .png or .svg: $OPTARG" ;;
	   esac
	   command -v gnuplot >/dev/null 2>&1 ||
		usage "-P needs gnuplot (Debian: apt-get install gnuplot-nox)" ;;
	R) case $OPTARG in
	   short | long) report=$OPTARG ;;
	   *) usage "-R: '$OPTARG' is not short or long (REPORT=)" ;;
	   esac ;;
	*) bad_option "$opt" ;;
	esac
done
shift $((OPTIND - 1))
[ -n "$ksrc" ] || [ -z "${pairing_asked:-}" ] || usage "GUEST and HOST need KSRC"
[ $# -ge 2 ] && [ -z "$2" ] && set -- "$1"
[ $# -ge 1 ] && [ -n "$1" ] || usage "BASE is missing"
[ $# -le 2 ] || usage "too many arguments: $*"
base=$1 head=${2:-HEAD}
[ "$base" != worktree ] && [ "$head" != worktree ] ||
	usage "a series is of commits: BASE and HEAD name revisions, not the work tree"
command -v valgrind >/dev/null 2>&1 ||
	die "valgrind is not installed (Debian: apt-get install valgrind)"

top=$(git -C "$here" rev-parse --show-toplevel) || die "not in a git repository"
compare=$top/ab/compare
[ "$pairs" -eq 0 ] || [ -x "$compare" ] || die "$compare is not built (make ab/compare)"
if [ -n "$ksrc" ]; then
	repo=$(git -C "$ksrc" rev-parse --show-toplevel 2>/dev/null) ||
		usage "KSRC=$ksrc is not a git work tree"
	paths=$(sed -n 's/^\(guest\|host\) //p' "$top/kernel/ksrc-files")
else
	repo=$top
	paths="virtio_ring.c vringh.c linux uapi"
	pairing=-
fi
b=$(git -C "$repo" rev-parse --verify --quiet "$base^{commit}") ||
	usage "'$base' names no commit of $repo"
h=$(git -C "$repo" rev-parse --verify --quiet "$head^{commit}") ||
	usage "'$head' names no commit of $repo"
git -C "$repo" merge-base --is-ancestor "$b" "$h" ||
	usage "$base is not an ancestor of $head"

SERIES_DIR=${SERIES_DIR:-$top/build-series}
mkdir -p "$SERIES_DIR" || die "cannot create $SERIES_DIR"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vring-series.XXXXXX") || exit 3
trap 'rm -rf "$tmp"' EXIT
. "$here/../shlib/signals.sh"
start=$(date +%s)

# The rows: "INDEX COMMIT STATUS" in $tmp/rows (STATUS: base, measured,
# skipped, failed); subjects in $tmp/subject.COMMIT.
{
	echo "$b"
	git -C "$repo" rev-list --reverse "$b..$h"
} >"$tmp/commits"
i=0
while read -r c; do
	git -C "$repo" log -1 --format=%s "$c" >"$tmp/subject.$c"
	if [ "$c" = "$b" ]; then
		echo "0 $c base"
	elif [ -n "$(git -C "$repo" diff-tree --no-commit-id --name-only -r "$c" -- $paths)" ]; then
		i=$((i + 1))
		echo "$i $c todo"
	else
		echo "- $c skipped"
	fi
done <"$tmp/commits" >"$tmp/plan"

# build_count INDEX COMMIT: build the row's programs and count them into
# $tmp/m.INDEX ("NAME: VALUE" lines); false if the build failed.
build_count() {
	d=$SERIES_DIR/$1
	if [ -n "$ksrc" ]; then
		"$top/kernel/ksrc-rev.sh" "$repo" "$2" "$d-ksrc" >/dev/null &&
			"$here/ksrc-build.sh" "$d" "$d-ksrc" "$pairing" vring_bench vringh_test 2>"$tmp/err"
	else
		"$here/rev-build.sh" "$d" "$2" vring_bench vringh_test >/dev/null 2>"$tmp/err"
	fi || return 1
	{ [ -z "$whole" ] || "$here/count.sh" "$d"; } >"$tmp/m.$1" &&
		"$here/calls.sh" "$d" >>"$tmp/m.$1" || die "counting $d failed"
}

# time_row INDEX: vring_bench of the row against BASE's, interleaved:
# "RATIO LOW HIGH VERDICT MEDIAN_A MEDIAN_B" into $tmp/t.INDEX.
time_row() {
	"$compare" -q --json --metric=cpu -n "$pairs" \
		"$SERIES_DIR/0/vring_bench $adds" "$SERIES_DIR/$1/vring_bench $adds" \
		>"$tmp/t.json" || die "timing row $1 failed"
	cp "$tmp/t.json" "$tmp/t.$1.json"
	{
		for f in ratio ci_low ci_high verdict; do
			sed -n "s/^  \"$f\": \"\{0,1\}\([^\",]*\)\"\{0,1\},\$/\1/p" "$tmp/t.json"
		done
		grep -o '"median": [0-9.e+]*' "$tmp/t.json" | awk '{ print $2 }'
	} | tr '\n' ' ' >"$tmp/t.$1"
}

while read -r i c status; do
	case $status in
	skipped) echo "$i $c skipped" ;;
	*)	echo "building and counting $c (row $i)..." >&2
		if build_count "$i" "$c"; then
			[ "$status" = base ] && echo "0 $c base" || echo "$i $c measured"
		else
			[ "$status" = base ] && { cat "$tmp/err" >&2; die "BASE $base does not build"; }
			sed 's/^/  | /' "$tmp/err" >&2
			echo "$i $c failed"
		fi ;;
	esac
done <"$tmp/plan" >"$tmp/rows"

if [ "$pairs" -gt 0 ]; then
	while read -r i c status; do
		[ "$status" = measured ] || continue
		echo "timing row $i against BASE: $pairs pairs of vring_bench $adds (cpu)..." >&2
		time_row "$i"
	done <"$tmp/rows"
fi

where=${ksrc:+"$repo "}
title="series: ${where}$base ($(git -C "$repo" rev-parse --short "$b"))..$head ($(git -C "$repo" rev-parse --short "$h"))${ksrc:+, pairing $pairing}"
counted="counts: instructions per call (ab/calls.sh)${whole:+ and per whole run (ab/count.sh)}, callgrind; a count moved: beyond ${ipct}% of the row before"
# The rows with their short hashes and subjects, tab-separated.
while read -r i c status; do
	printf '%s\t%s\t%s\t%s\n' "$i" "$(git -C "$repo" rev-parse --short "$c")" "$status" \
		"$(cat "$tmp/subject.$c")"
done <"$tmp/rows" >"$tmp/desc"
if [ "$report" = long ]; then
	echo "$title"
	echo "$counted"
	awk -F '\t' '{ printf "  %-3s %s  %-9s %s\n", $1, $2, $3 == "failed" ? "NO BUILD" : $3, $4 }' "$tmp/desc"
fi

# The tables, and the JSON and plot data, from the rows' files.
grep -v ' skipped$' "$tmp/rows" >"$tmp/built"
awk -v ipct="$ipct" -v tmp="$tmp" -v json="${json:+$tmp/json}" -v moved="$tmp/moved" \
    -v plotdata="${plot:+$tmp/plot}" -v base="$base" -v head="$head" \
    -v tree="${ksrc:+$repo}" -v pairing="$pairing" -v pairs="$pairs" -v adds="$adds" '
function q(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); return "\"" s "\"" }
function num(v) { return v == "" || v == "n/a" ? "null" : v }
BEGIN { FS = " " }
{
	n++; idx[n] = $1; commit[n] = $2; status[n] = $3
	if ($3 == "failed")
		next
	f = tmp "/m." $1
	while ((getline line < f) > 0) {
		k = index(line, ": ")
		m = substr(line, 1, k - 1); v = substr(line, k + 2)
		if (!(m in seen)) { seen[m] = 1; order[++nm] = m }
		val[n, m] = v
	}
	close(f)
	f = tmp "/t." $1
	if ((getline line < f) > 0) {
		split(line, t, " ")
		tr[n] = t[1]; tlo[n] = t[2]; thi[n] = t[3]; tv[n] = t[4]
		tma[n] = t[5]; tmb[n] = t[6]
	}
	close(f)
}
function ratio(a, b) {
	if (a == "" || a == "n/a" || b == "" || b == "n/a")
		return ""
	a += 0; b += 0
	return a > 0 ? b / a : (b > 0 ? 999 : 1)
}
END {
	# A metric n/a in every row (what the ring code under test lacks) is
	# named once, not tabled.
	k = 0
	for (j = 1; j <= nm; j++) {
		m = order[j]
		for (r = 1; r <= n; r++)
			if (status[r] != "failed" && val[r, m] != "n/a") break
		if (r <= n) order[++k] = m
		else na = na (na == "" ? "" : ", ") m
	}
	nm = k
	if (na != "") printf "\nn/a in every row (the code under test lacks it): %s\n", na
	w = length("metric")
	for (j = 1; j <= nm; j++) if (length(order[j]) > w) w = length(order[j])
	# prev[r]: the row before r that built.
	p = 0
	for (r = 1; r <= n; r++) { prev[r] = p; if (status[r] != "failed") p = r }
	for (tab = 1; tab <= 2; tab++) {
		printf "\n%s\n", tab == 1 ? "ratio to BASE (row 0: its count)" : \
			"ratio to the row before that built (R: REGRESSION, b: better)"
		printf "%-" w "s  %12s", "metric", tab == 1 ? "0" : ""
		for (r = 2; r <= n; r++) printf "  %7s", "#" idx[r]
		printf "\n"
		for (j = 1; j <= nm; j++) {
			m = order[j]
			printf "%-" w "s  %12s", m, tab == 1 ? val[1, m] : ""
			for (r = 2; r <= n; r++) {
				if (status[r] == "failed") { printf "  %7s", "-"; continue }
				x = ratio(tab == 1 ? val[1, m] : val[prev[r], m], val[r, m])
				mark = " "
				if (tab == 2 && x != "" && x > 1 + ipct / 100) { mark = "R"; reg[r] = reg[r] m " (" sprintf("%.4f", x) "), " ; nreg[r]++ }
				if (tab == 2 && x != "" && x < 1 - ipct / 100) { mark = "b"; nbet[r]++ }
				if (mark != " ")
					printf("%s\t%s\t%s\t%s\t%.4f\t%s\n", idx[r], m, val[prev[r], m], val[r, m], x,
						mark == "R" ? "REGRESSION" : "better") >moved
				printf "  %6s%s", x == "" ? "n/a" : sprintf("%.3f", x), mark
			}
			printf "\n"
		}
	}
	printf "\n"
	for (r = 2; r <= n; r++) {
		if (status[r] == "failed") { printf "#%s: does not build: not measured\n", idx[r]; continue }
		printf "#%s against #%s: %d count(s) up, %d down%s\n", idx[r], idx[prev[r]],
			nreg[r], nbet[r], nreg[r] ? ": " substr(reg[r], 1, length(reg[r]) - 2) : ""
	}
	if (pairs > 0) {
		printf "\nvring_bench %d adds, CPU ns/add: median of %d interleaved pairs against BASE, 95%% interval\n", adds, pairs
		printf "  %-3s %9s  %8s  %17s  %8s  %s\n", "row", "ns/add", "vs BASE", "interval", "vs row before", "verdict vs BASE"
		for (r = 2; r <= n; r++) {
			if (status[r] == "failed" || tr[r] == "") continue
			if (!base_ns) { base_ns = tma[r] / adds; printf "  %-3s %9.2f\n", idx[1], base_ns }
			pr = prev[r] == 1 ? 1 : tr[prev[r]]
			printf "  %-3s %9.2f  %8.4f  %8.4f..%.4f  %8.4f  %s\n", idx[r], tmb[r] / adds, tr[r], tlo[r], thi[r], tr[r] / pr, tv[r]
		}
	}
	if (json != "") {
		printf("{\"base\": %s, \"head\": %s, \"tree\": %s, \"pairing\": %s, \"gate_pct\": %s,\n \"rows\": [", \
			q(base), q(head), tree == "" ? "null" : q(tree), pairing == "-" ? "null" : q(pairing), ipct) >json
		for (r = 1; r <= n; r++) {
			printf("%s\n  {\"row\": %s, \"commit\": %s, \"status\": %s", r > 1 ? "," : "", \
				r == 1 ? 0 : idx[r], q(commit[r]), q(status[r] == "failed" ? "build failed" : status[r])) >json
			if (status[r] != "failed") {
				printf(", \"metrics\": {") >json
				for (j = 1; j <= nm; j++) {
					m = order[j]
					printf("%s%s: {\"value\": %s, \"vs_base\": %s, \"vs_prev\": %s}", j > 1 ? ", " : "", q(m), \
						num(val[r, m]), num(ratio(val[1, m], val[r, m])), r == 1 ? "null" : num(ratio(val[prev[r], m], val[r, m]))) >json
				}
				printf("}") >json
				if (tr[r] != "")
					printf(", \"timed\": {\"ns_per_add\": %s, \"vs_base\": %s, \"ci_low\": %s, \"ci_high\": %s, \"verdict\": %s}", \
						tmb[r] / adds, tr[r], tlo[r], thi[r], q(tv[r])) >json
			}
			printf("}") >json
		}
		printf("\n]}\n") >json
	}
	if (plotdata != "") {
		for (j = 1; j <= nm; j++) {
			m = order[j]
			moved = 0
			for (r = 2; r <= n; r++) {
				x = ratio(val[1, m], val[r, m])
				if (x != "" && (x > 1 + ipct / 100 || x < 1 - ipct / 100)) moved = 1
			}
			if (!moved) continue
			for (r = 1; r <= n; r++)
				if (status[r] != "failed" && (x = ratio(val[1, m], val[r, m])) != "")
					printf("%s\t%d\t%.6f\n", m, r == 1 ? 0 : idx[r], x) >plotdata
		}
		for (r = 2; r <= n; r++)
			if (tr[r] != "") {
				if (!tb) { printf "vring_bench CPU time/add\t0\t1\n" >plotdata; tb = 1 }
				printf("vring_bench CPU time/add\t%d\t%.6f\n", idx[r], tr[r]) >plotdata
			}
	}
}' "$tmp/built" >"$tmp/tables" || die "cannot make the tables"
: >>"$tmp/moved"
if [ "$report" = long ]; then
	cat "$tmp/tables"
else
	# The make command that gives this series again.
	cmd="make series${ksrc:+ KSRC=$ksrc} BASE=$base HEAD=$head"
	[ -z "${pairing_asked:-}" ] || cmd="$cmd GUEST=${pairing%/*} HOST=${pairing#*/}"
	[ "$pairs" -eq 51 ] || cmd="$cmd PAIRS=$pairs"
	awk -F '\t' -f "$here/short-lib.awk" -f "$here/series-short.awk" \
		-v cmd="$cmd REPORT=short" -v title="$title" -v counted="$counted" \
		-v dir="$SERIES_DIR" -v pairs="$pairs" -v adds="$adds" \
		-v tmp="$tmp" -v stats="$top/stats" "$tmp/moved" "$tmp/desc" ||
		die "cannot write the short report"
fi

if [ -n "$json" ]; then
	{ cp "$tmp/json" "$json" 2>/dev/null && [ -s "$json" ]; } || die "cannot write $json"
fi
if [ -n "$plot" ]; then
	if [ -s "$tmp/plot" ]; then
		"$here/plot.sh" series "$tmp/plot" "$plot" \
			"series ${where}$base..$head: ratio to BASE" "ratio to BASE" || exit 3
	else
		echo "series: no metric moved beyond ${ipct}% and nothing timed: no plot" >&2
	fi
fi
echo "$(grep -c ' measured$' "$tmp/rows") commit(s) measured, $(grep -c ' skipped$' "$tmp/rows") skipped, $(grep -c ' failed$' "$tmp/rows") not built; $(($(date +%s) - start)) s"
