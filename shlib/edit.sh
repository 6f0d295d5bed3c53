# SPDX-License-Identifier: GPL-2.0
#
# Edits of a source file, each located by the smallest anchor: the format
# of mutate/mutations and tests/ksrc-edits/*.edit, one edit a stanza:
#   KEYWORD NAME FILE [N]
#   - TEXT     a substring of a line as it is now
#   + TEXT     what that substring becomes
#   = CHECK    (make mutate's list) a check that must fail on the edit,
#              named as make check names it; one line each, any number
# TEXT must occur once in FILE, or N gives its Nth occurrence.  TEXT is
# read as awk reads a -v string: \n starts a new line, \t is a tab, \\
# is a backslash; so "+ TEXT" may keep the anchor and add lines to it.
# Lines starting with '#' and empty lines are comments.  The script
# sources shlib/die.sh first (die() and DIE_PREFIX are used).
#
# edit_read LIST KEYWORD: LIST's stanzas into the arrays EDIT_NAMES,
# EDIT_FILES, EDIT_NTHS, EDIT_FROMS, EDIT_TOS and EDIT_CHECKS (the "= "
# lines, one a line); dies on a malformed one.
EDIT_NAMES=() EDIT_FILES=() EDIT_NTHS=() EDIT_FROMS=() EDIT_TOS=() EDIT_CHECKS=()
edit_read() {
	local line lineno=0 f=$1 kw=$2 i
	[ -r "$f" ] || die "cannot read $f"
	while IFS= read -r line; do
		lineno=$((lineno + 1))
		case $line in
		'' | '#'*) ;;
		"$kw "*)
			set -- $line
			[ $# -ge 3 ] && [ $# -le 4 ] ||
				die "$f:$lineno: '$kw NAME FILE [N]'"
			case ${4:-1} in
			0* | *[!0-9]*) die "$f:$lineno: '$4' is not an occurrence number" ;;
			esac
			EDIT_NAMES+=("$2") EDIT_FILES+=("$3") EDIT_NTHS+=("${4:-}")
			EDIT_FROMS+=('') EDIT_TOS+=('') EDIT_CHECKS+=('') ;;
		'- '*) [ ${#EDIT_NAMES[@]} -gt 0 ] || die "$f:$lineno: '-' before '$kw'"
			EDIT_FROMS[-1]=${line#- } ;;
		'+ '*) [ ${#EDIT_NAMES[@]} -gt 0 ] || die "$f:$lineno: '+' before '$kw'"
			EDIT_TOS[-1]=${line#+ } ;;
		'= '*) [ ${#EDIT_NAMES[@]} -gt 0 ] || die "$f:$lineno: '=' before '$kw'"
			EDIT_CHECKS[-1]+="${line#= }"$'\n' ;;
		*) die "$f:$lineno: not '$kw', '- ', '+ ' or '= ': $line" ;;
		esac
	done <"$f"
	for i in "${!EDIT_NAMES[@]}"; do
		[ -n "${EDIT_FROMS[i]}" ] && [ -n "${EDIT_TOS[i]}" ] ||
			die "${EDIT_NAMES[i]}: needs a '- ' and a '+ ' line"
		[ "${EDIT_FROMS[i]}" != "${EDIT_TOS[i]}" ] ||
			die "${EDIT_NAMES[i]}: '-' and '+' are the same"
	done
}

# EDIT_WRONG: the awk function edit_apply and edit_check judge an edit
# by: edit_wrong(PREFIX, NAME, FROM, NTH, HITS, FILE) says on stderr why
# an edit whose text FROM occurs HITS times in FILE does not apply (not
# at all; more than once without NTH; fewer than NTH times) and returns
# 1; 0 when it applies.
EDIT_WRONG='
function edit_wrong(prefix, name, from, nth, hits, file,   why) {
	if (!hits)
		why = "does not occur in " file
	else if (nth == "" && hits != 1)
		why = "occurs " hits " times in " file " (give N)"
	else if (nth != "" && hits < nth + 0)
		why = "has no occurrence " nth " in " file
	else
		return 0
	printf "%s: %s: \"%s\" %s\n", prefix, name, from, why > "/dev/stderr"
	return 1
}'

# edit_apply SRC I: SRC with edit I applied, on stdout; fails, saying why
# (prefixed by $DIE_PREFIX), when its text does not occur once (or has no
# Nth occurrence).
edit_apply() {
	awk -v from="${EDIT_FROMS[$2]}" -v to="${EDIT_TOS[$2]}" -v nth="${EDIT_NTHS[$2]}" \
	    -v name="${EDIT_NAMES[$2]}" -v prefix="${DIE_PREFIX:?}" "$EDIT_WRONG"'
	{ lines[NR] = $0; s = $0; off = 0
	  while ((p = index(s, from)) > 0) {
		hits++; if (hits == nth || nth == "") { at[hits] = NR; col[hits] = off + p }
		off += p + length(from) - 1; s = substr(s, p + length(from))
	  } }
	END {
		if (edit_wrong(prefix, name, from, nth, hits, FILENAME))
			exit 1
		k = nth == "" ? 1 : nth
		l = lines[at[k]]
		lines[at[k]] = substr(l, 1, col[k] - 1) to substr(l, col[k] + length(from))
		for (i = 1; i <= NR; i++) print lines[i]
	}' "$1"
}

# edit_check ROOT I...: does each edit I apply to its file, ROOT/FILE, as
# edit_apply would have it (its text once, or an Nth occurrence)?  Says
# why of each that does not, as edit_apply does, and fails if one does
# not; one awk for them all, each file read once.
edit_check() {
	local root=$1 i sep=$'\001' names='' files='' froms='' nths=''
	shift
	for i; do
		names+=${EDIT_NAMES[$i]}$sep files+=$root/${EDIT_FILES[$i]}$sep
		froms+=${EDIT_FROMS[$i]}$sep nths+=${EDIT_NTHS[$i]}$sep
	done
	# (-v reads each text as edit_apply's -v does; \001 parts them)
	awk -v names="$names" -v files="$files" -v froms="$froms" -v nths="$nths" \
	    -v prefix="${DIE_PREFIX:?}" "$EDIT_WRONG"'
	BEGIN {
		n = split(names, name, "\001") - 1
		split(files, file, "\001"); split(froms, from, "\001"); split(nths, nth, "\001")
		for (k = 1; k <= n; k++) {
			f = file[k]
			if (!(f in lines)) {
				lines[f] = 0
				while ((getline l < f) > 0)
					text[f, ++lines[f]] = l
				close(f)
			}
			hits = 0
			for (r = 1; r <= lines[f]; r++) {
				s = text[f, r]
				while ((p = index(s, from[k])) > 0) {
					hits++
					s = substr(s, p + length(from[k]))
				}
			}
			if (edit_wrong(prefix, name[k], from[k], nth[k], hits, f))
				bad = 1
		}
		exit bad
	}'
}

# edit_tree EDITS TREE: every edit of the file EDITS made in place in
# TREE (each FILE relative to it), in turn; dies saying which one does
# not apply.  (It reads EDITS afresh: the arrays hold its edits only.)
edit_tree() {
	local i f
	EDIT_NAMES=() EDIT_FILES=() EDIT_NTHS=() EDIT_FROMS=() EDIT_TOS=()
	edit_read "$1" edit
	[ ${#EDIT_NAMES[@]} -gt 0 ] || die "$1 has no edit"
	for i in "${!EDIT_NAMES[@]}"; do
		f=$2/${EDIT_FILES[i]}
		[ -f "$f" ] || die "$(basename "$1"): ${EDIT_NAMES[i]}: $2 has no ${EDIT_FILES[i]}"
		edit_apply "$f" "$i" >"$f.edited" && mv "$f.edited" "$f" ||
			{ rm -f "$f.edited"; die "$(basename "$1") does not apply to $2"; }
	done
}
