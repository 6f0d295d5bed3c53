#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The READMEs' figures a reader acts on: the top README says what its
# first loop costs (a run of vringh_test --parallel takes seconds idle,
# minutes on shared CPUs; bench/RESULTS holds the runs), and kernel/README gives no count of make check KSRC='s checks,
# which goes stale as checks are added (make check KSRC=... LIST=1 names
# them; dated runs are in kernel/RESULTS, with their command).
#
# Usage: tests/docs-figures.sh   (from anywhere; prints KTAP)
set -u
cd "$(dirname "$0")/.." || exit 2
failed=0
CHECK_PREFIX=docs/
. tests/lib/result.sh

# The paragraph after the two commands names the first loop's cost, and
# bench/RESULTS holds a measured run of it.
awk '/^The loops time/ { p = 1 } p { text = text " " $0 } p && /^$/ { exit }
	END { exit !(text ~ /a run takes seconds on an idle machine and minutes/ &&
		     text ~ /bench\/RESULTS/) }' README &&
	grep -q 'vringh_test --indirect --eventidx --parallel --fast-vringh' bench/RESULTS
pass_if "README: what the first loop costs, its runs in bench/RESULTS"
! grep -Eq '[0-9]+ checks' kernel/README && grep -q 'LIST=1' kernel/README &&
	grep -q '^Command: make -j2 check KSRC=' kernel/RESULTS
pass_if "kernel/README: no check count to go stale; LIST=1 names them, kernel/RESULTS dates them"
exit $failed
