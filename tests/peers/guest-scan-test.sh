#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The device torture's console classifier (tests/peers/guest-scan.sh) on
# consoles of boots of several devices: tests/peers/guest-scan/cases names
# each case, its console and guest_scan's arguments; NAME.out is what it
# must print (in mode state, in any order: the devices are a set).
#
# Usage: tests/peers/guest-scan-test.sh     (from anywhere; prints KTAP)
set -u
cd "$(dirname "$0")/../.." || exit 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rig-guest-scan.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
. shlib/signals.sh
CHECK_PREFIX="guest scan/"
. tests/lib/result.sh

dir=tests/peers/guest-scan
# shellcheck disable=SC2034 # rest: guest_scan's SLOT and LINES, one a word
while read -r name console mode rest; do
	case $name in '#'* | '') continue ;; esac
	# shellcheck disable=SC2086
	tests/peers/guest-scan.sh "$mode" "$dir/$console.console" $rest >"$tmp/out" 2>"$tmp/err"
	rc=$?
	cp "$dir/$name.out" "$tmp/want"
	if [ "$mode" = state ]; then
		sort -o "$tmp/out" "$tmp/out"
		sort -o "$tmp/want" "$tmp/want"
	fi
	if [ "$rc" -eq 0 ] && [ ! -s "$tmp/err" ] && cmp -s "$tmp/want" "$tmp/out"; then
		pass "$name"
	else
		fail "$name: guest_scan $mode $console.console${rest:+ $rest}"
		{ echo "exit status $rc"; cat "$tmp/err"; diff -u "$tmp/want" "$tmp/out"; } |
			sed 's/^/  | /' >&2
	fi
done <"$dir/cases"

# guest_end (shlib/guest.sh): how a boot ended, on one line.  A 7.3 guest's
# panic under MTTCG (int3 oops in sched_clock_cpu): the panic line, then
# the first oops's BUG/Oops, RIP and first frames; else the last 3 lines.
end_of() { (T=$tmp; . shlib/guest.sh; cp "$1" "$T/e.console" && guest_end e); }
want="[    1.605322] Kernel panic - not syncing: Fatal exception in interrupt; before it: Oops: int3: 0000 [#1] SMP NOPTI|RIP: 0010:sched_clock_cpu+0x9/0x1f0|Call Trace:|update_rq_clock+0x39/0x160|sched_tick+0x76/0x250|update_process_times+0x94/0xc0|tick_nohz_handler+0x8f/0x170|__hrtimer_run_queues+0xf4/0x240|hrtimer_interrupt+0xfb/0x1e0|__sysvec_apic_timer_interrupt+0x55/0xf0|sysvec_apic_timer_interrupt+0x6c/0x90|asm_sysvec_apic_timer_interrupt+0x1a/0x20"
got=$(end_of "$dir/panic-int3.console")
echo "got: $got" >"$tmp/got"
SHOW_ON_FAIL=$tmp/got
[ "$got" = "$want" ]
pass_if "guest_end: a panic, its oops's first lines on one line"
printf 'a\r\nb\nc\r\nd\n' >"$tmp/plain"
[ "$(end_of "$tmp/plain")" = "b|c|d" ]
pass_if "guest_end: no panic, the last 3 lines on one line"
ktap_finished
