# SPDX-License-Identifier: GPL-2.0
#
# put_text FILE TEXT: FILE holds TEXT afterwards, rewritten (FILE.tmp,
# then renamed over it) only when it held something else, so its time
# moves only with its bytes: make rebuilds what depends on it only then.
# Forks nothing when FILE holds TEXT already (make runs the generators
# that use it at every start).
put_text() {
	local old
	if [ -f "$1" ]; then
		IFS= read -r -d '' old <"$1" || :
		[ "$old" != "$2" ] || return 0
	fi
	printf '%s' "$2" >"$1.tmp" && mv -f "$1.tmp" "$1"
}
