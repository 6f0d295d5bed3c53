# SPDX-License-Identifier: GPL-2.0
#
# The tree's files, for the checks that read every one of a kind.  Run
# from the top of the tree.
#   tree_files      every file: git's tracked and untracked ones, ignored
#                   ones aside (without git: every file outside build*/
#                   and .git/), one path a line, sorted
#   shell_scripts   those that are shell scripts: named *.sh, or whose
#                   first line runs bash or sh (.ci/run)

tree_files() {
	{
		git ls-files --cached --others --exclude-standard 2>/dev/null | grep . ||
			find . -type f -not -path './build*' -not -path './.git/*' | sed 's|^\./||'
	} | LC_ALL=C sort -u
}

shell_scripts() {
	local f line
	tree_files | while IFS= read -r f; do
		[ -f "$f" ] || continue
		case $f in
		*.sh) echo "$f"; continue ;;
		esac
		line=
		IFS= read -r line <"$f" 2>/dev/null
		case $line in
		'#!'*/bash | '#!'*/bash' '* | '#!'*/sh | '#!'*/sh' '* | '#!'*env' 'bash*)
			echo "$f" ;;
		esac
	done
}
