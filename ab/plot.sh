#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Plots for make ab PLOT=FILE and make bench PLOT=FILE, drawn by gnuplot
# (an optional dependency; Debian: apt-get install gnuplot-nox).
#
# Usage: ab/plot.sh ab FIGURES OUT [TITLE [YLABEL]]
#          FIGURES: "A B" per line (ab/compare --save): A's and B's
#          figures side by side, a box (quartiles, median) over the points
#        ab/plot.sh bench FIGURES OUT [TITLE]
#          FIGURES: "LABEL<TAB>VALUE" per line: the spread of each figure,
#          every run in percent of its figure's median
#        ab/plot.sh series DATA OUT [TITLE [YLABEL]]
#          DATA: "METRIC<TAB>ROW<TAB>VALUE" per line, grouped by metric
#          (ab/series.sh): one line per metric across the rows
#   OUT ends in .png or .svg; that picks the format.

set -u
DIE_PREFIX=plot DIE_STATUS=2
. "$(dirname "$0")/../shlib/die.sh"
[ $# -ge 3 ] && [ $# -le 5 ] ||
	die "usage: ab/plot.sh ab|bench|series FIGURES OUT [TITLE [YLABEL]]"
kind=$1 data=$2 out=$3 title=${4:-} ylabel=${5:-figure of each run}
command -v gnuplot >/dev/null 2>&1 ||
	die "gnuplot is not installed (Debian: apt-get install gnuplot-nox)"
[ -s "$data" ] || die "$data: no figures"
case $out in
*.png) term="pngcairo size 900,560 font ',10'" ;;
*.svg) term="svg size 900,560 dynamic font ',10'" ;;
*) die "$out: the name must end in .png or .svg" ;;
esac
# gnuplot strings: single quotes, a quote doubled.
q() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/''/g")"; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/vring-plot.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

case $kind in
ab)
	# Figures in ns of a millisecond or more read better in ms.
	case $ylabel in
	*'(ns)')
		if awk '$1 >= 1e6 || $2 >= 1e6 { big = 1 } END { exit !big }' "$data"; then
			awk '{ printf "%.6f %.6f\n", $1 / 1e6, $2 / 1e6 }' "$data" >"$tmp/ms"
			data=$tmp/ms
			ylabel="${ylabel%(ns)}(ms)"
		fi ;;
	esac
	cat >"$tmp/gp" <<GP
set terminal $term
set output $(q "$out")
set title $(q "$title") noenhanced
set ylabel $(q "$ylabel")
set xtics ('A' 1, 'B' 2)
set xrange [0.4:2.6]
set grid ytics
set style fill transparent solid 0.25
set style boxplot nooutliers
set boxwidth 0.45
set key off
plot $(q "$data") using (1):1 with boxplot lc rgb '#1f77b4', \
     '' using (2):2 with boxplot lc rgb '#d62728', \
     '' using (1 + 0.3 * (rand(0) - 0.5)):1 with points pt 7 ps 0.7 lc rgb '#1f77b4', \
     '' using (2 + 0.3 * (rand(0) - 0.5)):2 with points pt 7 ps 0.7 lc rgb '#d62728'
GP
	;;
bench)
	# Each run in percent of its label's median; x = the label's order.
	sort -t "$(printf '\t')" -k1,1 -s "$data" | awk -F '\t' '
	{ v[$1, ++n[$1]] = $2 }
	END {
		for (l in n) {
			m = n[l]
			for (i = 1; i <= m; i++) s[i] = v[l, i] + 0
			for (i = 2; i <= m; i++) {	# insertion sort
				x = s[i]
				for (j = i - 1; j >= 1 && s[j] > x; j--) s[j + 1] = s[j]
				s[j + 1] = x
			}
			med[l] = m % 2 ? s[(m + 1) / 2] : (s[m / 2] + s[m / 2 + 1]) / 2
		}
		for (l in n) {
			if (med[l] == 0) {
				printf "plot: %s: a median of 0, left out\n", l >"/dev/stderr"
				continue
			}
			for (i = 1; i <= n[l]; i++)
				printf "%s\t%.6f\n", l, 100 * v[l, i] / med[l]
		}
	}' >"$tmp/pct"
	[ -s "$tmp/pct" ] || die "$data: nothing to plot"
	# Labels in order of first appearance, as xtics.
	awk -F '\t' 'NR == FNR { keep[$1] = 1; next }
		keep[$1] && !seen[$1]++ { print $1 }' "$tmp/pct" "$data" >"$tmp/labels"
	# One data block per label (gnuplot's "index"), in label order.
	awk -F '\t' 'NR == FNR { x[$1] = FNR; next } { print x[$1] "\t" $2 }' \
		"$tmp/labels" "$tmp/pct" | sort -n -s -k1,1 |
		awk 'NR > 1 && $1 != last { printf "\n\n" } { print; last = $1 }' \
		>"$tmp/xy"
	xtics=$(awk '{ gsub(/'\''/, "'\'''\''"); printf "%s'\''%s'\'' %d", (NR > 1 ? ", " : ""), $0, NR }' \
		"$tmp/labels")
	nl=$(wc -l <"$tmp/labels")
	cat >"$tmp/gp" <<GP
set terminal $term
set output $(q "$out")
set title $(q "$title") noenhanced
set ylabel 'each run, % of its median'
set xtics ($xtics) noenhanced
set xrange [0.4:$nl + 0.6]
set grid ytics
set style fill transparent solid 0.25
set style boxplot nooutliers
set boxwidth 0.45
set key off
plot for [i=0:$nl - 1] $(q "$tmp/xy") index i using (i + 1):2 with boxplot lc rgb '#1f77b4', \
     $(q "$tmp/xy") using (\$1 + 0.3 * (rand(0) - 0.5)):2 with points pt 7 ps 0.7 lc rgb '#d62728'
GP
	;;
series)
	# One data block per metric, in order of appearance, and one plot
	# clause per block, titled by its metric.
	awk -F '\t' -v out="$tmp/xy" -v q="'" '
	$1 != last {
		if (nb++) printf "\n\n" >out
		name = $1; gsub(q, q q, name)
		clause = clause (nb > 1 ? ", " : "") "DATA index " nb - 1 " using 1:2 with linespoints title " q name q
		last = $1
	}
	{ print $2 "\t" $3 >out }
	END { print clause }' "$data" >"$tmp/clauses"
	[ -s "$tmp/xy" ] || die "$data: nothing to plot"
	clauses=$(sed "s#DATA#$(q "$tmp/xy" | sed 's/[#&\\]/\\&/g')#g" "$tmp/clauses")
	cat >"$tmp/gp" <<GP
set terminal $term
set output $(q "$out")
set title $(q "$title") noenhanced
set ylabel $(q "$ylabel")
set xlabel 'row of the series (0: BASE)'
set xtics 1
set grid ytics
set key below noenhanced font ',8'
plot $clauses
GP
	;;
*)
	die "usage: ab/plot.sh ab|bench|series FIGURES OUT [TITLE]"
	;;
esac
[ -n "${PLOT_DEBUG:-}" ] && cat "$tmp/gp" >&2
gnuplot "$tmp/gp" || die "gnuplot failed on $tmp/gp"
echo "plot: wrote $out" >&2
