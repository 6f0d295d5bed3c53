#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ab/rev-build.sh DEST REV TARGET...: export revision REV of this
# repository ("worktree": its files as they are now, uncommitted changes
# included) into DEST and build TARGETs there with CC and CFLAGS from the
# environment when set.  The log goes to DEST.log.  DEST/.rig-describe
# names the revision for the programs' --version (kernel/ring-id.sh).  For
# make ab, make regress and make series.
# DEST/.rig-export lists what the export wrote, a line a file (its mode,
# git's hash of its bytes, its path).  Exported again into a DEST that
# has one, with the same Makefile and .mk files, only the files whose line
# changed are written (their time now, so make rebuilds what depends on
# them) and those gone removed: the build compiles only what REV changed,
# as make does in a work tree.  Any other DEST is made afresh.
# Exit status: 0 built, 3 the export or the build failed (the log on stderr).
set -u
[ $# -ge 3 ] || { echo "usage: ab/rev-build.sh DEST REV TARGET..." >&2; exit 2; }
dest=$1 rev=$2
shift 2
DIE_PREFIX=rev-build DIE_STATUS=3
. "$(dirname "$0")/../shlib/die.sh"
top=$(git -C "$(dirname "$0")" rev-parse --show-toplevel) || die "not in a git repository"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rig-rev-build.XXXXXX") || exit 3
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../shlib/signals.sh"
# What REV holds: "MODE HASH<TAB>PATH" a file, sorted by path.
if [ "$rev" = worktree ]; then
	(cd "$top" && git ls-files -z --cached --others --exclude-standard |
		while IFS= read -r -d '' f; do
			[ -e "$f" ] || continue
			m=100644
			[ -x "$f" ] && m=100755
			[ -L "$f" ] && m=120000
			printf '%s\t%s\n' "$m" "$f"
		done) >"$tmp/files" &&
		cut -f 2- "$tmp/files" | (cd "$top" && git hash-object --no-filters --stdin-paths) |
		paste - "$tmp/files" | awk -F '\t' '{ print $2 " " $1 "\t" $3 }'
else
	git -C "$top" ls-tree -r --full-tree "$rev" | awk -F '\t' '{ split($1, w, " ") }
		w[2] == "blob" { print w[1] " " w[3] "\t" $2 }'
fi | LC_ALL=C sort -t "$(printf '\t')" -k 2 >"$tmp/export" || die "cannot list $rev"
[ -s "$tmp/export" ] || die "$rev has no file to export"
# The build files: another Makefile or .mk file may build differently
# what make would take as up to date, so DEST is then made afresh.
build_files() {
	grep -E $'\t''(.*/)?(Makefile|[^/]*\.mk)$' "$1"
}
if [ -f "$dest/.rig-export" ] &&
   cmp -s <(build_files "$dest/.rig-export") <(build_files "$tmp/export"); then
	# The files whose line changed, written with the time now (tar -m),
	# and those gone.
	rm -f "$dest/.rig-export.old"
	mv "$dest/.rig-export" "$dest/.rig-export.old" || die "cannot read $dest/.rig-export"
	awk -F '\t' -v put="$tmp/put" -v gone="$tmp/gone" '
		NR == FNR { old[$0]; path[$2]; next }
		!($0 in old) { print $2 >put }
		{ now[$2] }
		END { for (p in path) if (!(p in now)) print p >gone }' \
		"$dest/.rig-export.old" "$tmp/export" || die "cannot compare $dest with $rev"
	rm -f "$dest/.rig-export.old"
	if [ -s "$tmp/gone" ]; then
		while IFS= read -r f; do
			rm -f "$dest/$f"
		done <"$tmp/gone"
	fi
	if [ -s "$tmp/put" ]; then
		if [ "$rev" = worktree ]; then
			(cd "$top" && tr '\n' '\0' <"$tmp/put" | tar --null -T - -cf -)
		else
			# (xargs may run git archive more than once: tar -i reads on)
			tr '\n' '\0' <"$tmp/put" | GIT_LITERAL_PATHSPECS=1 xargs -0 \
				git -C "$top" archive "$rev" --
		fi | tar -ximf - -C "$dest" || die "cannot export $rev into $dest"
	fi
else
	rm -rf "$dest" && mkdir -p "$dest" || die "cannot create $dest"
	if [ "$rev" = worktree ]; then
		(cd "$top" && git ls-files -z --cached --others --exclude-standard |
			tar --null -T - --ignore-failed-read -cf -) |
			tar -xf - -C "$dest"
	else
		git -C "$top" archive "$rev" | tar -xf - -C "$dest"
	fi || die "cannot export $rev into $dest"
fi
cp "$tmp/export" "$dest/.rig-export" || die "cannot write $dest/.rig-export"
if [ "$rev" = worktree ]; then
	git -C "$top" describe --always --dirty
else
	git -C "$top" describe --always "$rev"
fi >"$dest/.rig-describe" 2>/dev/null || rm -f "$dest/.rig-describe"
set -- -C "$dest" "$@"
[ -n "${CC:-}" ] && set -- "$@" "CC=$CC"
[ -n "${CFLAGS+set}" ] && set -- "$@" "CFLAGS=$CFLAGS"
# A make that runs us (make check O=build-asan ...) must not hand its
# command-line variables (O= above all) on to these builds.
if ! MAKEFLAGS='' MAKELEVEL='' make -j2 "$@" >"$dest.log" 2>&1; then
	cat "$dest.log" >&2
	die "building in $dest failed (log: $dest.log)"
fi
