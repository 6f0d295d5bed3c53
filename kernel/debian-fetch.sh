#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Debian packages this machine's apt does not carry (linux-source-7.3, the
# 7.3 cloud kernel), from other suites of the Debian mirror its apt already
# uses: apt-get download with an apt state of our own (build-apt/: its own
# sources list, package lists and cache), so nothing the machine has
# installed is upgraded or even looked at.
#
#   kernel/debian-fetch.sh names ERE          the packages whose names match
#                                             ERE, oldest version first
#   kernel/debian-fetch.sh depends PACKAGE    the packages PACKAGE depends on
#   kernel/debian-fetch.sh download DIR PACKAGE...
#                                             the .debs into DIR (kept: a
#                                             second call downloads nothing);
#                                             their paths on stdout
#
# The mirror is the first Debian archive in /etc/apt/sources.list.d/*.sources
# or /etc/apt/sources.list (the security archive aside), with its keyring.
# The suites are RIG_DEBIAN_SUITES (default "trixie-backports sid"); the
# package lists are fetched again once a day.  When the mirror or a suite
# cannot be reached, or a package is not there, the reason is printed on
# stdout and the exit status is 77 (make check's SKIP).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
STATE=${RIG_APT_STATE:-$here/../build-apt}
SUITES=${RIG_DEBIAN_SUITES:-trixie-backports sid}

skip() { echo "debian-fetch: $*"; exit 77; }
usage() {
	echo "usage: debian-fetch.sh names ERE | depends PACKAGE | download DIR PACKAGE..." >&2
	exit 2
}

# "URI KEYRING" of the machine's Debian archive (KEYRING may be empty).
mirror() {
	local f
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -r "$f" ] || continue
		# deb822 stanzas: Types, URIs, Suites, Signed-By.
		awk '
		function flush() {
			if (types ~ /(^| )deb( |$)/ && uri != "" &&
			    uri !~ /security/ && suites !~ /-security/)
				{ print uri, key; found = 1; exit }
			types = uri = suites = key = ""
		}
		/^[ \t]*$/ { flush(); next }
		/^Types:/ { types = $0; sub(/^Types:[ \t]*/, "", types) }
		/^URIs:/ { uri = $2 }
		/^Suites:/ { suites = $0 }
		/^Signed-By:/ { key = $2 }
		END { if (!found) flush() }' "$f"
	done | head -n 1 | grep . && return
	[ -r /etc/apt/sources.list ] || return 0
	# One-line form: deb [options] URI SUITE COMPONENT...
	awk '$1 == "deb" {
		key = ""; i = 2
		if ($2 ~ /^\[/) {
			for (; i <= NF; i++) {
				if ($i ~ /signed-by=/) { key = $i; sub(/.*signed-by=/, "", key); sub(/\]$/, "", key) }
				if ($i ~ /\]$/) { i++; break }
			}
		}
		if ($i !~ /security/ && $(i + 1) !~ /-security/) { print $i, key; exit }
	}' /etc/apt/sources.list
}

apt_opts() {
	echo "-o Dir::Etc::SourceList=$STATE/sources.list" \
	     "-o Dir::Etc::SourceParts=/dev/null" \
	     "-o Dir::State::Lists=$STATE/lists" \
	     "-o Dir::Cache=$STATE/cache" \
	     "-o Dir::State::status=$STATE/status" \
	     "-o APT::Sandbox::User=root" \
	     "-o Debug::NoLocking=1"
}

# Our apt state, its lists at most a day old.  One caller at a time.
prepare() {
	local m uri key s
	mkdir -p "$STATE/lists/partial" "$STATE/cache/archives/partial"
	exec 8>"$STATE/lock"
	flock 8
	m=$(mirror)
	[ -n "$m" ] || skip "no Debian archive in /etc/apt/sources.list{,.d/*.sources}"
	read -r uri key <<< "$m"
	: > "$STATE/sources.list.new"
	for s in $SUITES; do
		echo "deb ${key:+[signed-by=$key] }$uri $s main" >> "$STATE/sources.list.new"
	done
	touch "$STATE/status"
	if ! cmp -s "$STATE/sources.list.new" "$STATE/sources.list" ||
	   [ -z "$(find "$STATE/lists" -maxdepth 1 -name '*_Packages*' -mtime -1 2>/dev/null)" ]; then
		mv "$STATE/sources.list.new" "$STATE/sources.list"
		# shellcheck disable=SC2046
		apt-get $(apt_opts) -q update > "$STATE/update.log" 2>&1 ||
			skip "cannot reach the suites '$SUITES' of $uri (apt-get update: $(grep -m1 -E '^(E|Err):' "$STATE/update.log" || tail -n 1 "$STATE/update.log"))"
		grep -q '^Err:' "$STATE/update.log" &&
			skip "apt-get update of '$SUITES' from $uri: $(grep -m1 '^Err:' "$STATE/update.log")"
	fi
	rm -f "$STATE/sources.list.new"
}

[ $# -ge 1 ] || usage
cmd=$1
shift
case $cmd in
names)
	[ $# -eq 1 ] || usage
	prepare
	# shellcheck disable=SC2046
	apt-cache $(apt_opts) pkgnames 2>/dev/null | grep -E -- "$1" | sort -V
	;;
depends)
	[ $# -eq 1 ] || usage
	prepare
	# shellcheck disable=SC2046
	apt-cache $(apt_opts) depends --no-recommends --no-suggests "$1" 2>/dev/null |
		awk '$1 == "Depends:" && $2 !~ /^</ { print $2 }' | grep . ||
		skip "no package $1 in '$SUITES'"
	;;
download)
	[ $# -ge 2 ] || usage
	dir=$1
	shift
	mkdir -p "$dir"
	dir=$(cd "$dir" && pwd)
	prepare
	for p in "$@"; do
		# shellcheck disable=SC2046
		ver=$(apt-cache $(apt_opts) show --no-all-versions "$p" 2>/dev/null |
		      awk '/^Version:/ { print $2; exit }')
		[ -n "$ver" ] || skip "no package $p in '$SUITES'"
		file=$(ls "$dir/${p}_${ver//:/%3a}_"*.deb 2>/dev/null | head -n 1 || true)
		if [ -z "$file" ]; then
			# shellcheck disable=SC2046
			(cd "$dir" && apt-get $(apt_opts) -q download "$p" > "$STATE/download.log" 2>&1) ||
				skip "apt-get download $p failed: $(grep -m1 -E '^(E|Err):' "$STATE/download.log" || tail -n 1 "$STATE/download.log")"
			file=$(ls "$dir/${p}_${ver//:/%3a}_"*.deb | head -n 1)
		fi
		echo "$file"
	done
	;;
*)
	usage
	;;
esac
