#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run a command beside CPU hogs: make check-busy runs make check's matrix
# so (tests/README, "make check on a busy machine").  Every bound in make
# check is one on progress, not on the machine's speed; a check that fails
# here and passes on an idle machine has a bound on speed, a bug.
#
# Usage: tests/busy.sh [-n HOGS] CMD [ARG...]
#   -n HOGS   busy processes to run beside CMD (default: two for each CPU
#             this process may run on)
# Each hog is a shell loop doing nothing else, at CMD's priority.  They are
# stopped by PID when CMD ends (or this script is stopped), and this
# script exits with CMD's status.  One line on stderr says how many hogs
# ran, how long CMD took and the load average before and after; stdout is
# CMD's alone.
set -u
DIE_PREFIX=busy.sh USAGE_HELP=tests/busy.sh
. "$(dirname "$0")/../shlib/die.sh"

hogs=$((2 * $(nproc)))
while getopts :n:h o; do
	case $o in
	n) hogs=$OPTARG ;;
	h) sed -n '/^# Usage:/,/^# Each hog/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) bad_option "$o" ;;
	esac
done
shift $((OPTIND - 1))
[[ $hogs =~ ^[0-9]+$ ]] || usage "-n '$hogs' is not a number of hogs"
[ $# -gt 0 ] || usage "no command to run"

pids=()
stop_hogs() {
	[ ${#pids[@]} -eq 0 ] || kill "${pids[@]}" 2>/dev/null
	wait "${pids[@]}" 2>/dev/null
	pids=()
}
trap stop_hogs EXIT
. "$(dirname "$0")/../shlib/signals.sh"

load() { cut -d ' ' -f 1-3 /proc/loadavg; }

for ((i = 0; i < hogs; i++)); do
	# A subshell of its own: its PID is the loop's, killed at the end.
	(trap - INT TERM HUP; while :; do :; done) &
	pids+=($!)
done
before=$(load) start=$SECONDS
"$@"
rc=$?
echo "busy.sh: $hogs CPU hogs beside '$*': exit status $rc after $((SECONDS - start)) s; load average $before before, $(load) after" >&2
exit $rc
