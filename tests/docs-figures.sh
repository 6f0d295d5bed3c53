#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The READMEs' figures a reader acts on: the top README says what its
# first loop costs (50 runs of vringh_test --parallel take minutes, not
# seconds), and kernel/README gives no count of make check KSRC='s checks,
# which goes stale as checks are added (make check KSRC=... LIST=1 names
# them; dated runs are in kernel/RESULTS, with their command).
#
# Usage: tests/docs-figures.sh   (from anywhere; prints PASS:/FAIL: lines)
set -u
cd "$(dirname "$0")/.." || exit 2
failed=0
CHECK_PREFIX=docs/
. tests/lib/result.sh

# The paragraph after "Getting started"'s commands names the loop's cost.
awk '/^Getting started$/ { on = 1 } on && /^The loops time/ { p = 1 }
	p { text = text " " $0 } p && /^$/ { exit }
	END { exit !(text ~ /50 runs take [0-9]+ to [0-9]+ minutes/) }' README
pass_if "README: what the first loop's 50 runs cost"
! grep -Eq '[0-9]+ checks' kernel/README && grep -q 'LIST=1' kernel/README &&
	grep -q '^make check KSRC=' kernel/RESULTS
pass_if "kernel/README: no check count to go stale; LIST=1 names them, kernel/RESULTS dates them"
exit $failed
