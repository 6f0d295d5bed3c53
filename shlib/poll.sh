# SPDX-License-Identifier: GPL-2.0
#
# Waiting on a process the script started, in steps of 50 ms.
#   poll_until STEPS PID CMD [ARG...]  until CMD succeeds (status 0), PID
#                                      (empty: none) is gone or STEPS pass
#                                      (status 1)
#   poll_gone STEPS PID                until PID is gone (0) or STEPS pass (1)

poll_until() {
	local steps=$1 pid=$2 i=0
	shift 2
	while [ "$i" -lt "$steps" ]; do
		"$@" && return 0
		[ -z "$pid" ] || kill -0 "$pid" 2>/dev/null || return 1
		sleep 0.05
		i=$((i + 1))
	done
	return 1
}

poll_gone() {
	local i=0
	while [ "$i" -lt "$1" ]; do
		kill -0 "$2" 2>/dev/null || return 0
		sleep 0.05
		i=$((i + 1))
	done
	return 1
}
