#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make mutate: plant each one-line mutation of a safety check
# (mutate/mutations) in a throwaway copy of this tree, one at a time, run
# the quick checks there, and say which case killed it, or that it survived.
#
# Usage: mutate/run.sh [-m ERE] [-t ERE] [-s SECONDS] [-c SECONDS] [-k] [-l] [-h]
#   -m ERE      only the mutations whose names match ERE (make mutate M=ERE)
#   -t ERE      the checks to run, as make check T=ERE (default: the quick
#               subset in mutate/quick; make mutate T=ERE), beside the
#               checks each mutation names
#   -k          run only the checks each mutation names (make mutate
#               K=1: what CI runs)
#   -s SECONDS  the bound on one mutation's checks (default 180): past it
#               the run is stopped and the mutation counts as a TIMEOUT
#   -c SECONDS  CHECK_TIMEOUT, the bound on one check (default 60): a check
#               that fails only by running out of it is a timeout, no kill
#   -l          check that every mutation applies and names a check, and
#               that each line of mutate/ci (what .ci/run plants) names
#               one of them, list them, and stop (make check runs this)
# The copy is this work tree as it is (git's tracked and untracked files,
# ignored ones aside), in a temporary folder removed at exit; nothing in
# this tree is written.  It is built once, then for each mutation: the
# line is changed, the programs rebuilt (make all test-programs), and make
# check T=ERE run there without remaking the fuzz targets (make -o
# fuzz-build: no quick check fuzzes); then the file is put back.
# Per mutation one line: its name, KILLED with the first check that failed
# and how many did, MISSED (a check the mutation names passed, or gave no
# result: that case does not see the bound it is named for), TIMEOUT (only
# checks that ran out of time failed, or the whole run did), SURVIVED, or
# NOBUILD (the mutant does not compile: the mutation is wrong, not
# caught), and how long the rebuild and the checks took.
# Exit status: 0 when every mutation was killed by a check failing on its
# own (not by a timeout), each of its named checks among them; 1 when one
# was not, 2 usage error, 3 the copy could not be made or built, or a
# mutation does not apply or names no check.

set -u
here=$(cd "$(dirname "$0")" && pwd) || exit 3
top=$(cd "$here/.." && pwd) || exit 3
DIE_PREFIX=mutate DIE_STATUS=3 USAGE_HELP=mutate/run.sh
. "$here/../shlib/die.sh"
seconds() {
	case $2 in
	'' | 0* | *[!0-9]*) usage "-$1: '$2' is not a positive number of seconds" ;;
	esac
}

# CI's bounds (.ci/run): on a mutant that keeps connections it should drop,
# the hostile frontend's suite waits 5 s for each drop (20 s and more).
match='' checks='' bound=180 check_bound=60 list='' named_only=''
while getopts :m:t:s:c:klh opt; do
	case $opt in
	h) sed -n '/^# Usage:/,/^$/{/^$/q;s/^# \{0,1\}//;p}' "$here/run.sh"
	   exit 0 ;;
	m) match=$OPTARG ;;
	t) checks=$OPTARG ;;
	s) seconds s "$OPTARG"; bound=$OPTARG ;;
	c) seconds c "$OPTARG"; check_bound=$OPTARG ;;
	l) list=1 ;;
	k) named_only=1 ;;
	*) bad_option "$opt" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || usage "unexpected argument: $1"
for ere in "$match" "$checks"; do
	[[ x =~ $ere ]]
	[ $? -eq 2 ] && usage "'$ere' is not an extended regular expression"
done
[ -n "$named_only" ] && [ -n "$checks" ] && usage "-k and -t: one or the other"
if [ -z "$checks" ] && [ -z "$named_only" ]; then
	checks=$(sed '/^#/d; /^$/d' "$here/quick" | paste -sd '|') ||
		die "cannot read $here/quick"
fi

# ---- The list ----
# mutate/mutations, one mutation a stanza (the format of
# shlib/edit.sh, keyword "mutation"):
#   mutation NAME FILE [N]
#   - TEXT     what the line holds now (a substring of it)
#   + TEXT     what it holds in the mutant
#   = CHECK    a check that must fail on the mutant, as make check names
#              it (a sub-suite's line: SUITE/LINE); one or more
# TEXT must occur once in FILE, or give N: its Nth occurrence.
. "$here/../shlib/edit.sh"
edit_read "$here/mutations" mutation
sel=()
for i in "${!EDIT_NAMES[@]}"; do
	[[ ${EDIT_NAMES[i]} =~ $match ]] && sel+=("$i")
done
[ ${#sel[@]} -gt 0 ] || usage "no mutation's name matches '$match'"
# Every one is checked, and each that fails says why with its name.
bad=0 found=()
for i in "${sel[@]}"; do
	if [ ! -f "$top/${EDIT_FILES[i]}" ]; then
		echo "mutate: ${EDIT_NAMES[i]}: no file ${EDIT_FILES[i]}" >&2
		bad=1
		continue
	fi
	found+=("$i")
	if [ -z "${EDIT_CHECKS[i]}" ]; then
		echo "mutate: ${EDIT_NAMES[i]}: names no check that kills it ('= CHECK')" >&2
		bad=1
	fi
done
[ ${#found[@]} -eq 0 ] || edit_check "$top" "${found[@]}" || bad=1
[ "$bad" -eq 0 ] || die "mutate/mutations: the entries above do not apply"
if [ -n "$list" ]; then
	# Each line of the CI subset picks one mutation of the list.
	while IFS= read -r ere; do
		n=0
		for i in "${!EDIT_NAMES[@]}"; do
			[[ ${EDIT_NAMES[i]} =~ $ere ]] && n=$((n + 1))
		done
		[ "$n" -eq 1 ] && continue
		echo "mutate: mutate/ci: '$ere' picks $n mutations, not one" >&2
		bad=1
	done < <(sed '/^#/d; /^$/d' "$here/ci")
	[ "$bad" -eq 0 ] || die "mutate/ci: the lines above do not name one mutation each"
	# With this tree built, each check named must be one make check has
	# (a sub-suite's line: its suite).
	if [ -x "$top/tests/hostile" ]; then
		names=$(cd "$top" && tests/run-check.sh --list) || die "tests/run-check.sh --list failed"
		# (looked up in bash: a grep a name would fork hundreds of times)
		declare -A have=()
		while IFS= read -r c; do
			[ -z "$c" ] || have[$c]=1
		done <<<"$names"
		for i in "${sel[@]}"; do
			while IFS= read -r c; do
				[ -n "$c" ] || continue
				[ -n "${c%%/*}" ] && [ -n "${have[${c%%/*}]:-}" ] && continue
				echo "mutate: ${EDIT_NAMES[i]}: names \"${c%%/*}\", which make check does not have" >&2
				bad=1
			done <<<"${EDIT_CHECKS[i]}"
		done
		[ "$bad" -eq 0 ] || die "mutate/mutations: the entries above name checks that do not exist"
	fi
	for i in "${sel[@]}"; do
		# The checks it names, one a line, as "A; B".
		c=${EDIT_CHECKS[i]%$'\n'}
		c=${c//$'\n'/;}
		printf '%s %s: %s -> %s; killed by %s\n' "${EDIT_NAMES[i]}" "${EDIT_FILES[i]}" \
			"${EDIT_FROMS[i]}" "${EDIT_TOS[i]}" "${c//;/; }"
	done
	exit 0
fi

# ere_quote: stdin's text with every ERE metacharacter escaped.
ere_quote() {
	sed 's#[][\.*^$+?(){}|]#\\&#g'
}

# named_ere I: an ERE for make check T= that runs the checks mutation I
# names: each whole name; a sub-suite's line runs its suite (SUITE/) and
# is kept among its lines.
named_ere() {
	local c out=''
	while IFS= read -r c; do
		[ -n "$c" ] || continue
		if [[ $c == */* ]]; then
			out+="|${c%%/*}/|^$(ere_quote <<<"${c#*/}")\$"
		else
			out+="|^$(ere_quote <<<"$c")\$"
		fi
	done <<<"${EDIT_CHECKS[$1]}"
	echo "${out#|}"
}

# ---- The copy ----
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rig-mutate.XXXXXX") || exit 3
trap 'rm -rf "$tmp"' EXIT
. "$here/../shlib/signals.sh"
copy=$tmp/tree
mkdir "$copy" || exit 3
(cd "$top" && git ls-files -z --cached --others --exclude-standard |
	while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
	tar -c --null -T - -f -) | tar -x -C "$copy" -f - ||
	die "cannot copy $top into $copy"
echo "mutate: ${#sel[@]} mutations; checks: ${checks:+make check T='$checks' and }those each names" \
	"(at most ${bound}s a mutation, ${check_bound}s a check); load: $(cut -d' ' -f1-3 /proc/loadavg)"
make -s -C "$copy" -j2 all test-programs >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log" >&2; die "the copy does not build"; }
# The checks must pass on the tree as it is, or no kill means anything:
# the quick subset and every check the mutations name.
all=$checks
for i in "${sel[@]}"; do
	all+="|$(named_ere "$i")"
done
all=${all#|}
CHECK_TIMEOUT=$check_bound timeout $((bound * 10)) make -s -C "$copy" -o fuzz-build check T="$all" \
	>"$tmp/base.tap" 2>&1 || { tail -n 30 "$tmp/base.tap" >&2; die "the checks fail without a mutation"; }
echo "mutate: unmutated: $(tail -n 1 "$tmp/base.tap")"

# verdict TAP RC NAMED: KILLED by ..., MISSED ..., TIMEOUT ..., or SURVIVED,
# from the KTAP output of one run, its exit status (124: the run ran out
# of time) and the file of the checks the mutation names (a sub-suite's
# line as SUITE/LINE), each of which must have failed.
verdict() {
	awk -v rc="$2" -v named="$3" '
	BEGIN {
		while ((getline c < named) > 0) {
			if (c == "") continue
			sub(/^[^\/]*\//, "", c)
			want[c] = 1
		}
	}
	/^ *# .*timed out( after [0-9]+s$|: )|exited with status 124 without/ { timed = 1 }
	/^ *not ok [0-9]+ - / {
		name = $0; sub(/^ *not ok [0-9]+ - /, "", name); sub(/ # time [0-9.]+s$/, "", name)
		sub(/ # TODO .*$/, "", name)
		if (!timed) { kills++; if (first == "") first = name; failed[name] = 1 }
		else { touts++; seen[name] = 1 }
		timed = 0; next
	}
	/^ *ok [0-9]+ - / {
		timed = 0
		name = $0; sub(/^ *ok [0-9]+ - /, "", name); sub(/ # .*$/, "", name)
		seen[name] = 1
	}
	END {
		# A name with no result at all (not even a timeout): renamed, or
		# its suite stopped before it.
		for (c in want) if (!(c in failed))
			missed = missed (missed == "" ? "" : "; ") c (c in seen ? "" : " (no result)")
		if (kills && missed == "")
			printf "KILLED by %s%s\n", first, (kills > 1 ? sprintf(" (and %d more)", kills - 1) : "")
		else if (kills) printf "MISSED by %s (killed by %s)\n", missed, first
		else if (touts || rc == 124) printf "TIMEOUT (%s)\n", (rc == 124 ? "the run was stopped" : touts " checks ran out of time")
		else if (rc != 0) printf "KILLED by make check (exit %d, no check failed)\n", rc
		else print "SURVIVED"
	}' "$1"
}

# Seconds from $EPOCHREALTIME $1 to $2, to a tenth.
seconds_between() {
	local us=$((${2/./} - ${1/./}))
	printf '%d.%ds' $((us / 1000000)) $((us % 1000000 / 100000))
}

status=0 n_killed=0
for i in "${sel[@]}"; do
	f=$copy/${EDIT_FILES[i]}
	cp -p "$f" "$tmp/orig" || exit 3
	edit_apply "$tmp/orig" "$i" >"$f" || exit 3
	start=$EPOCHREALTIME
	if ! make -s -C "$copy" -j2 all test-programs >"$tmp/build.log" 2>&1; then
		v="NOBUILD ($(grep -m1 -o 'error: .*' "$tmp/build.log"))"
		built=$EPOCHREALTIME
	else
		built=$EPOCHREALTIME
		t=$(named_ere "$i")
		printf '%s' "${EDIT_CHECKS[i]}" >"$tmp/named"
		CHECK_TIMEOUT=$check_bound timeout "$bound" \
			make -s -C "$copy" -o fuzz-build check T="${checks:+$checks|}$t" >"$tmp/run.tap" 2>&1
		v=$(verdict "$tmp/run.tap" $? "$tmp/named")
	fi
	done_at=$EPOCHREALTIME
	# The original back, newer than the mutant's objects.
	cp "$tmp/orig" "$f" && touch "$f" || exit 3
	case $v in
	KILLED*) n_killed=$((n_killed + 1)) ;;
	*) status=1 ;;
	esac
	printf '%-40s %s  (build %s, checks %s)\n' "${EDIT_NAMES[i]}" "$v" \
		"$(seconds_between "$start" "$built")" "$(seconds_between "$built" "$done_at")"
done
echo "mutate: $n_killed of ${#sel[@]} killed by a check; load: $(cut -d' ' -f1-3 /proc/loadavg)"
exit $status
