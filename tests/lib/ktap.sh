# SPDX-License-Identifier: GPL-2.0
#
# A KTAP check runner, sourced by a check matrix (tests/run-check.sh).
# The matrix declares its checks (expect, suite, skip_check, fail_check),
# then calls ktap_main: the checks run JOBS at a time and their results
# print in order as KTAP, the kernel's TAP dialect
# (Documentation/dev-tools/ktap.rst, as kselftest prints it).  See
# tests/README.
#
# The caller sets FILTER (an ERE or empty), LIST (non-empty: print the
# names only), JOBS, TIMEOUT (seconds a check may take: a backstop) and
# LOG (a private folder, removed by the caller), and may set TIMES: a file
# of the checks' wall times, one "SECONDS<TAB>NAME" line a check, which
# orders the long checks (see the main loop) and which each run rewrites
# with the times of the checks it ran.  A check is bounded by its
# progress, not the machine's speed (run_cmd): CHECK_IDLE (seconds its
# processes may all go without CPU, default 120) and CHECK_CPU (CPU
# seconds they may use, default 1200); a loaded machine makes a check
# slower, never a failure.

# An expect check's judge (its diag is the runner's too).
. "${BASH_SOURCE[0]%/*}/judge.sh"

# ---- Declaring checks ----
# Each check is one entry of CHECKS: the words of the call that runs it,
# shell-quoted.  PREFIX names the build under test when several are
# checked (--ksrc).
PREFIX=
# A check declared with LONG set (LONG=1 some_checks) takes tens of
# seconds: it starts early, beside the short ones (see the end).
CHECKS=() LONGS=()
declare_check() {
	local name=$PREFIX$2 words
	[ -z "$FILTER" ] || [[ $name =~ $FILTER ]] || return 0
	[ -z "${LONG:-}" ] || LONGS+=("${#CHECKS[@]}")
	# (printf -v: a command substitution would fork, once a check)
	printf -v words '%q ' "$1" "$name" "${@:3}"
	CHECKS+=("$words")
}

# expect NAME STATUS [TEST...] -- CMD [ARG...]: CMD must exit with STATUS
# and pass every TEST (out=ERE, err-empty, ...), as tests/lib/expect.sh
# says (a SKIP when a program exits 77, a TODO for a known gap, 78); the
# runner judges it itself (tests/lib/judge.sh).
expect() { declare_check run_single "$@"; }
# A check that cannot run: skipped, or failed, with the reason.
skip_check() { declare_check run_skip "$@"; }
fail_check() { declare_check run_fail "$@"; }
# suite NAME CMD...: a sub-suite printing KTAP of its own
# (tests/lib/result.sh), its results nested under NAME.  It runs when ERE
# matches NAME or holds NAME/.
suite() {
	[ -z "$FILTER" ] || [[ $PREFIX$1 =~ $FILTER || $FILTER == *"$1/"* ]] || return 0
	FILTER='' declare_check run_suite "$@"
}

# ---- Running checks ----

# elapsed VAR START: VAR is the seconds since START (an $EPOCHREALTIME), to
# the millisecond.  The runner forks nothing it can do itself: a fork costs
# milliseconds here, and make check KSRC= runs two thousand checks.
elapsed() {
	local us=$((${EPOCHREALTIME//[!0-9]/} - ${2//[!0-9]/}))
	printf -v "$1" '%d.%03ds' $((us / 1000000)) $((us % 1000000 / 1000))
}

# result ok|fail|skip|todo NAME TIME|REASON: count a check, print its KTAP
# line.
result() {
	n=$((n + 1))
	case $1 in
	ok) passed=$((passed + 1)); echo "ok $n - $2 # time $3" ;;
	fail) failed=$((failed + 1)); echo "not ok $n - $2 # time $3" ;;
	skip) skipped=$((skipped + 1)); echo "ok $n - $2 # SKIP $3" ;;
	todo) todo=$((todo + 1)); echo "not ok $n - $2 # TODO $3" ;;
	esac
}

# tree_cpu PID: TREE_CPU is the CPU time, in clock ticks, that PID and
# every process below it have used, those they reaped included (each
# process's utime, stime, cutime and cstime: /proc/PID/stat fields 14 to
# 17).  It forks nothing: it runs each second for each running check.
tree_cpu() {
	local p st sum=0 f
	descendants_of "$1"
	for p in "$1" "${DESCENDANTS[@]}"; do
		read -r st 2>/dev/null <"/proc/$p/stat" || continue
		read -ra f <<<"${st##*) }"
		sum=$((sum + f[11] + f[12] + f[13] + f[14]))
	done
	TREE_CPU=$sum
}

# watch_cmd PID FILE: stop the check whose timeout(1) is PID when it makes
# no progress: when none of its processes used any CPU for CHECK_IDLE s
# (all asleep: hung), or they used CHECK_CPU s of it (a runaway).  Says
# which in FILE, then stops them (TERM, KILL 5 s later).  A loaded
# machine gives a check less CPU a second, so neither bound is one on
# its speed; TIMEOUT is the wall clock's backstop.
CLK_TCK=$(getconf CLK_TCK)
watch_cmd() {
	local pid=$1 idle=${CHECK_IDLE:-120} max=${CHECK_CPU:-1200} hz cpu last=-1 since=$SECONDS
	hz=$CLK_TCK
	# A second's sleep without a process a second: read from a pipe no
	# one writes, for 1 s (TICK, opened once for every watcher).
	[ -n "${TICK:-}" ] || exec {TICK}<> <(:)
	while ! read -r -t 1 -u "$TICK" && kill -0 "$pid" 2>/dev/null; do
		tree_cpu "$pid"
		cpu=$TREE_CPU
		[ "$cpu" = "$last" ] || last=$cpu since=$SECONDS
		if [ $((SECONDS - since)) -ge "$idle" ]; then
			echo "timed out: hung, none of its processes used any CPU for ${idle}s" >"$2"
		elif [ "$cpu" -ge $((max * hz)) ]; then
			echo "timed out: its processes used ${max}s of CPU, all a check may (CHECK_CPU)" >"$2"
		else
			continue
		fi
		stop_tree "$pid"
		return
	done
}

# stop_pids PID...: TERM them, KILL those still running (not zombies) 5 s
# later.
stop_pids() {
	local p i left=() st
	[ $# -gt 0 ] || return 0
	kill -TERM "$@" 2>/dev/null
	for ((i = 0; i < 50; i++)); do
		left=()
		for p; do
			st=$(cat "/proc/$p/stat" 2>/dev/null) || continue
			st=${st##*) }
			[ "${st%% *}" = Z ] || left+=("$p")
		done
		[ ${#left[@]} -eq 0 ] && return 0
		sleep 0.1
	done
	kill -KILL "${left[@]}" 2>/dev/null
	return 0
}

# stop_tree PID: PID and every process below it, as stop_pids.
stop_tree() {
	descendants_of "$1"
	stop_pids "$1" "${DESCENDANTS[@]}"
}

# ktap_result LINE: is LINE a KTAP result?  If so, res ("ok" or "not
# ok"), leaf (its name) and dir (its directive, "SKIP reason", "TODO
# reason" or empty) say what.
ktap_result() {
	local re='^(not )?ok [0-9]+( -)? (.*)$'
	[[ $1 =~ $re ]] || return 1
	res=${BASH_REMATCH[1]}ok leaf=${BASH_REMATCH[3]} dir=
	case $leaf in
	*" # SKIP"* | *" # TODO"*) dir=${leaf##*" # "} leaf=${leaf%" # "*} ;;
	esac
}

# run_cmd CMD...: CMD under timeout and watch_cmd, its output in $W/out
# and $W/err; sets the caller's start, rc and stopped (why it was stopped
# before it ended, if it was).
run_cmd() {
	local pid wpid
	start=$EPOCHREALTIME stopped=
	# (the watchers' tick is the runner's, not the check's: closed for it)
	timeout "$TIMEOUT" "$@" >"$W/out" 2>"$W/err" {TICK}>&- &
	pid=$!
	watch_cmd "$pid" "$W/stopped" &
	wpid=$!
	wait "$pid"
	rc=$?
	kill "$wpid" 2>/dev/null
	wait "$wpid"
	if [ -s "$W/stopped" ]; then
		stopped=$(<"$W/stopped")
	elif [ "$rc" -eq 124 ]; then
		stopped="timed out after ${TIMEOUT}s"
	fi
}

# run_single NAME STATUS [TEST...] -- CMD [ARG...]: the expect check,
# CMD run as every check's command is (run_cmd) and judged here.
run_single() {
	local name=$1 start rc secs stopped
	expect_args "$@" || { result fail "$name" 0.000s; return; }
	run_cmd "${expect_cmd[@]}"
	elapsed secs "$start"
	if [ -n "$stopped" ]; then
		{ echo "command: ${expect_cmd[*]}"; echo "$stopped"; tail -n 20 "$W/err"; } | diag
		result fail "$name" "$secs"
		return
	fi
	expect_judge "$W/out" "$W/err" "$rc"
	case $expect_verdict in
	pass) result ok "$name" "$secs" ;;
	skip) result skip "$name" "$expect_reason ($secs)" ;;
	todo) result todo "$name" "$expect_reason ($secs)" ;;
	*) result fail "$name" "$secs" ;;
	esac
}

run_skip() { result skip "$1" "$2"; }
run_fail() { echo "$2" | diag; result fail "$1" 0.000s; }

# The sub-suite's KTAP (tests/lib/result.sh prints it) as a nested test,
# indented two spaces: its results numbered again (FILTER may leave some
# out), each counted in the totals.  The suite is one check: it fails if
# a result did, or if it exits non-zero without one failing, or its
# output is not KTAP (no version line first, or a plan its results do
# not match).
run_suite() {
	local name=$1 start rc line k=0 m=0 bad=0 res leaf dir plan='' why='' secs
	shift
	run_cmd "$@"
	IFS= read -r line <"$W/out"
	[ "${line:-}" = "KTAP version 1" ] ||
		why="its first line is not 'KTAP version 1'"
	while IFS= read -r line; do
		case $line in
		"KTAP version 1") continue ;;
		1..*) plan=${line#1..}; continue ;;
		\#*) echo "$line"; continue ;;
		esac
		if ! ktap_result "$line"; then
			[ -z "$line" ] || echo "# $line"
			continue
		fi
		m=$((m + 1))
		[ -z "$FILTER" ] || [[ $leaf =~ $FILTER || $name =~ $FILTER ]] || continue
		k=$((k + 1))
		case $res:$dir in
		ok:SKIP*) skipped=$((skipped + 1)) ;;
		"not ok:TODO"*) todo=$((todo + 1)) ;;
		ok:*) passed=$((passed + 1)) ;;
		*) failed=$((failed + 1)) bad=1 dir= ;;
		esac
		echo "$res $k - $leaf${dir:+ # $dir}"
	done <"$W/out" >"$W/nested"
	[ -z "$plan" ] || [ "$plan" = "$m" ] ||
		why="${why:+$why; }its plan is 1..$plan, its results $m"
	echo "  KTAP version 1"
	echo "  # Subtest: $name"
	[ ! -s "$W/err" ] || diag <"$W/err" | sed 's/^/  /'
	echo "  1..$k"
	sed 's/^/  /' "$W/nested"
	[ -z "$stopped" ] || echo "# $stopped"
	elapsed secs "$start"
	if [ -n "$why" ] || { [ "$rc" -ne 0 ] && [ "$bad" -eq 0 ]; }; then
		echo "# $*: ${why:-exited with status $rc without a failing result}"
		# Not one of its results failed: the suite itself counts as failed.
		if [ "$bad" -eq 0 ]; then
			result fail "$name" "$secs"
			return
		fi
	fi
	# The suite's own line: its results are counted already.
	n=$((n + 1))
	if [ "$bad" -eq 1 ]; then
		echo "not ok $n - $name # time $secs"
	else
		echo "ok $n - $name # time $secs"
	fi
}


# ---- The main loop ----
# Each check runs in a background job with its own folder $W (all made at
# the start, with one mkdir), writing its KTAP lines to $W/tap and then its
# counts and wall time to $W/counts; the results are printed in order as
# soon as every check before them has ended (its job reaped).  The long checks start first, longest first by TIMES (the last
# run's times), so that the last to end is a short one, not a long one
# started late; they take at most JOBS-1 slots while short ones wait, so
# that the short ones go on in order beside them.
run_one() {
	W=$LOG/$1
	n=$1 passed=0 failed=0 skipped=0 todo=0
	local begin=$EPOCHREALTIME secs
	eval "${CHECKS[$1]}" >"$W/tap"
	elapsed secs "$begin"
	echo "$passed $failed $skipped $todo $secs" >"$W/counts"
}

# show_done: print the checks that have ended, in order, up to the first
# still running; their folders go, a hundred at a time (and at the end).
show_done() {
	local p f s t secs words line lines
	while [ -n "${ended[$shown]:-}" ]; do
		mapfile -t lines <"$LOG/$shown/tap"
		for line in "${lines[@]}"; do
			printf '%s\n' "$line"
			[[ $line =~ ^\ *not\ ok\  && $line != *" # TODO "* ]] &&
				printf '%s\n' "$line" >>"$LOG/failures"
		done
		read -r p f s t secs <"$LOG/$shown/counts"
		passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
		todo=$((todo + t))
		eval "words=(${CHECKS[$shown]})"
		printf '%s\t%s\n' "${secs%s}" "${words[1]}" >>"$LOG/times"
		shown_dirs+=("$LOG/$shown")
		shown=$((shown + 1))
	done
	if [ ${#shown_dirs[@]} -ge 100 ] || { [ ${#shown_dirs[@]} -gt 0 ] && [ "$running" -eq 0 ]; }; then
		rm -rf "${shown_dirs[@]}"
		shown_dirs=()
	fi
}

# Start the next check: the next long one while a slot is left for the
# short ones (or none is left to run), else the next short one.
start_next() {
	local i
	if [ "$long_next" -lt "${#LONGS[@]}" ] &&
	   { [ "$long_running" -lt $((JOBS - 1)) ] || [ "$short_next" -ge "${#order[@]}" ]; }; then
		i=${order[$long_next]}
		long_next=$((long_next + 1))
		run_one "$i" &
		long_pid[$!]=1
		long_running=$((long_running + 1))
	elif [ "$short_next" -lt "${#order[@]}" ]; then
		i=${order[$short_next]}
		short_next=$((short_next + 1))
		run_one "$i" &
	else
		return 1
	fi
	check_of[$!]=$i
	running=$((running + 1))
}

# descendants_of PID: DESCENDANTS, every process below PID (read with
# the shell's read, no fork).
descendants_of() {
	local queue=("$1") p f kids
	DESCENDANTS=()
	while [ ${#queue[@]} -gt 0 ]; do
		p=${queue[0]}
		queue=("${queue[@]:1}")
		# (a thread's children are its own: every thread of p)
		for f in /proc/"$p"/task/*/children; do
			kids=()
			read -ra kids 2>/dev/null <"$f"
			[ ${#kids[@]} -eq 0 ] && continue
			DESCENDANTS+=("${kids[@]}")
			queue+=("${kids[@]}")
		done
	done
}

# ktap_stop SIGNAL: stop every running check and exit 128 + its number.
# A check's command runs under timeout(1), in a process group of its own
# (out of reach of a terminal's Ctrl-C), and may start peers under
# timeouts of their own: so every process below this one is told to stop
# (TERM), and one still running 5 s later is killed.  Then '# stopped by
# SIGNAME' ends the output.
ktap_stop() {
	local sig=$1
	trap '' HUP INT TERM
	descendants_of $$
	stop_pids "${DESCENDANTS[@]}"
	wait
	echo "# stopped by SIG$sig: the running checks were stopped, the rest not run"
	exit $((128 + $(kill -l "$sig")))
}

# check_name I: CHECK_NAME, the name of check I (no fork).
check_name() {
	local w
	eval "w=(${CHECKS[$1]})"
	CHECK_NAME=${w[1]}
}

# longest_first I...: the checks I..., those TIMES gives the longest time
# first, one it does not name before all (it may be long), ties in the
# order given.
longest_first() {
	local i
	for i; do
		check_name "$i"
		printf '%s\t%s\n' "$i" "$CHECK_NAME"
	done | awk -F '\t' -v times="${TIMES:-}" '
		BEGIN {
			while (times != "" && (getline line <times) > 0) {
				t = index(line, "\t")
				if (t) secs[substr(line, t + 1)] = substr(line, 1, t - 1) + 0
			}
		}
		{ print ($2 in secs ? secs[$2] : "inf") "\t" NR "\t" $1 }' |
		sort -t "$(printf '\t')" -k1,1gr -k2,2n | cut -f 3
}

# save_times: TIMES gets this run's times of the checks it ran, and keeps
# the others' (a run of some checks, T=ERE, forgets none).  A TIMES that
# cannot be written costs the next run its order, not its results: a
# warning on stderr.
save_times() {
	[ -n "${TIMES:-}" ] && [ -s "$LOG/times" ] || return 0
	{
		cat "$LOG/times"
		[ ! -r "$TIMES" ] ||
			awk 'NR == FNR { ran[substr($0, index($0, "\t") + 1)]; next }
				!(substr($0, index($0, "\t") + 1) in ran)' "$LOG/times" "$TIMES"
	} >"$LOG/times.all" && cp "$LOG/times.all" "$TIMES.new" 2>/dev/null &&
		mv -f "$TIMES.new" "$TIMES" ||
		echo "ktap.sh: cannot write $TIMES (the next run starts its long checks in the order declared)" >&2
}

# ktap_main: print the names (LIST) or run every declared check; exit
# non-zero if any failed.
ktap_main() {
	if [ -n "$LIST" ]; then
		for ((i = 0; i < ${#CHECKS[@]}; i++)); do
			check_name "$i"
			echo "$CHECK_NAME"
		done
		return 0
	fi
	if [ ${#CHECKS[@]} -eq 0 ]; then
		echo "run-check.sh: no check's name matches '$FILTER'" >&2
		return 1
	fi
	local i pid begin=$EPOCHREALTIME
	# (the watchers' tick: watch_cmd)
	exec {TICK}<> <(:)
	for i in HUP INT TERM; do
		# shellcheck disable=SC2064 # $i now, on purpose
		trap "ktap_stop $i" "$i"
	done
	shown=0 passed=0 failed=0 skipped=0 todo=0
	echo "KTAP version 1"
	echo "1..${#CHECKS[@]}"
	declare -A is_long
	for i in "${LONGS[@]}"; do
		is_long[$i]=1
	done
	mapfile -t order < <(longest_first "${LONGS[@]}")
	for ((i = 0; i < ${#CHECKS[@]}; i++)); do
		[ -n "${is_long[$i]:-}" ] || order+=("$i")
	done
	long_next=0 short_next=${#LONGS[@]} running=0 long_running=0
	declare -A long_pid check_of
	ended=() shown_dirs=() dirs=()
	for ((i = 0; i < ${#CHECKS[@]}; i++)); do
		dirs+=("$LOG/$i")
	done
	mkdir "${dirs[@]}" || return 1
	while :; do
		while [ "$running" -lt "$JOBS" ] && start_next; do :; done
		[ "$running" -gt 0 ] || break
		pid=
		wait -n -p pid
		[ -n "$pid" ] || break		# no job left: none can end
		# (a process of the runner's own, not a check's job: nothing ended)
		[ -n "${check_of[$pid]:-}" ] || continue
		ended[${check_of[$pid]}]=1
		unset "check_of[$pid]"
		running=$((running - 1))
		if [ -n "${long_pid[$pid]:-}" ]; then
			unset "long_pid[$pid]"
			long_running=$((long_running - 1))
		fi
		show_done
	done
	show_done
	save_times
	# The totals count a sub-suite's lines, not the suite: say how they
	# add up, next to the number of checks.
	elapsed begin "$begin"
	echo "# $shown checks in $begin, $JOBS at a time;" \
		"$((passed + failed + skipped + todo)) results, each line of a sub-suite one:" \
		"$passed passed + $failed failed + $skipped skipped + $todo todo"
	# The failures again, next to the totals: a log's tail names them.
	if [ -s "$LOG/failures" ]; then
		echo "# failed:"
		sed 's/^ */#   /' "$LOG/failures"
	fi
	# The closing line is the plain "N passed, N failed, N skipped" that CI
	# and other readers count; known gaps (TODO) are counted just above it.
	[ "$todo" -eq 0 ] || echo "# $todo todo (known gaps of the code under test: neither passed nor failed)"
	echo "$passed passed, $failed failed, $skipped skipped"
	[ "$failed" -eq 0 ]
}
