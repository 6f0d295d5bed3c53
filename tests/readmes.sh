#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The READMEs say what a thing is and how to run it; dated figures live in
# each folder's RESULTS file, with the command that made them.  Fails,
# naming FILE:LINE, when a README of the tree holds
#   - a load average ("load average", "load of N"),
#   - a date (YYYY-MM-DD),
#   - a commit hash: 7 or more hex digits that git resolves to a commit
#     (only in a git checkout),
# or when the top README's "Testing a kernel patch" heading is not within
# its first 80 lines (what a kernel developer comes for comes early).
#
# Usage: tests/readmes.sh [README...]   (default: every README of the tree)
set -u
cd "$(dirname "$0")/.." || exit 2
FIRST_LINES=80

if [ $# -gt 0 ]; then
	files=("$@")
else
	mapfile -t files < <({ git ls-files --cached --others --exclude-standard \
		-- '*README*' 2>/dev/null | grep . ||
		find . -name 'README*' -not -path './build*' | sed 's|^\./||'; } |
		LC_ALL=C sort -u)
fi
if [ ${#files[@]} -eq 0 ]; then
	echo "readmes: no README found" >&2
	exit 1
fi

bad=0
complain() {
	echo "$1" >&2
	bad=1
}

while IFS= read -r hit; do
	complain "$hit: a load average (figures go to the folder's RESULTS)"
done < <(grep -HniE 'load average|load of [0-9]' "${files[@]}" | cut -d: -f1,2)

while IFS= read -r hit; do
	complain "$hit: a date (figures go to the folder's RESULTS)"
done < <(grep -HnE '(^|[^0-9])(19|20)[0-9]{2}-[01][0-9]-[0-3][0-9]([^0-9]|$)' \
	"${files[@]}" | cut -d: -f1,2)

# Every word of 7+ hex digits, as FILE:LINE:WORD, asked of git at once.
if git rev-parse --git-dir >/dev/null 2>&1; then
	words=$(mktemp "${TMPDIR:-/tmp}/readmes.XXXXXX") || exit 2
	trap 'rm -f "$words"' EXIT
	grep -HnoE '\b[0-9a-fA-F]{7,40}\b' "${files[@]}" >"$words"
	while read -r where _ kind _; do
		[ "$kind" = commit ] &&
			complain "${where%:*}: ${where##*:} is a commit of this tree (say what it is instead)"
	done < <(paste -d ' ' "$words" <(cut -d: -f3 "$words" |
		sed 's/$/^{commit}/' | git cat-file --batch-check))
fi

if [ -e README ]; then
	line=$(grep -n -m1 -i '^Testing a kernel patch' README | cut -d: -f1)
	if [ -z "$line" ]; then
		complain "README: no 'Testing a kernel patch' heading"
	elif [ "$line" -gt "$FIRST_LINES" ]; then
		complain "README:$line: 'Testing a kernel patch' starts past line $FIRST_LINES"
	fi
fi
exit $bad
