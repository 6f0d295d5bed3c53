#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel/ksrc-cc.sh KSRC LOG CC ARGS...: compile one of a kernel tree's
# files (kernel/ksrc-build.mk) as CC ARGS..., stopping at the compiler's
# first error.  When it fails, the compiler's words go to LOG and one line
# to stderr says what the rig lacks: the symbol the tree's code uses that
# no shim defines, and the shim to extend (the rig's linux/NAME.h for the
# tree's include/linux/NAME.h that declares it), or the first error as the
# compiler put it when it names no symbol.  Exit status: the compiler's.
set -u
ksrc=$1 log=$2
shift 2
case $("$1" --version 2>/dev/null) in
*clang*) limit=-ferror-limit=1 ;;
*) limit=-fmax-errors=1 ;;
esac
"$@" "$limit" 2>"$log"
rc=$?
if [ $rc -eq 0 ]; then
	# Warnings (none are expected: -Werror) still reach the terminal.
	cat "$log" >&2
	rm -f "$log"
	exit 0
fi

first=$(grep -m1 -E 'error:|fatal error:' "$log")
where=$(printf '%s\n' "$first" | sed -E 's/^([^:]+:[0-9]+):.*/\1/; s|^'"$ksrc"'/||')
# The symbol an error names, in the compiler's quotes (gcc's or clang's).
sym=$(printf '%s\n' "$first" | sed -nE \
	-e "s/.*(implicit declaration of function|call to undeclared function|use of undeclared identifier|unknown type name) [‘'\"]([A-Za-z_][A-Za-z0-9_]*)[’'\"].*/\2/p" \
	-e "s/.*[‘'\"]([A-Za-z_][A-Za-z0-9_]*)[’'\"] undeclared.*/\1/p" \
	-e "s/.*undefined type [‘'\"](const )?(struct|union|enum) ([A-Za-z_][A-Za-z0-9_]*)[’'\"].*/\2 \3/p" \
	-e "s/.*[‘'\"]([A-Za-z_][A-Za-z0-9_]*)[’'\"] has incomplete type.*/\1/p" | head -n 1)
if [ -n "$sym" ]; then
	# Where the tree declares it: a definition, a prototype or a macro.
	pat=$sym
	case $sym in
	struct\ * | union\ * | enum\ *) pat="$sym \{" ;;
	*) pat="(#define[[:space:]]+$sym\\b|[^A-Za-z0-9_]$sym\\(|^$sym\\()" ;;
	esac
	decl=$(grep -rlE "$pat" "$ksrc/include/linux" 2>/dev/null | head -n 1)
	if [ -n "$decl" ]; then
		h=${decl#"$ksrc"/include/}
		echo "KSRC=$ksrc: $where uses $sym, which the tree declares in include/$h and the rig's shims lack: extend $h (compiler: $log)" >&2
	else
		echo "KSRC=$ksrc: $where uses $sym, which the rig's shims lack (compiler: $log)" >&2
	fi
else
	echo "KSRC=$ksrc: $where: ${first#*error: } (compiler: $log)" >&2
fi
exit $rc
