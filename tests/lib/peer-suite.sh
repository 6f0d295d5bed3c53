# SPDX-License-Identifier: GPL-2.0
#
# The opening of a check suite that puts vhost_dev before a real peer
# (tests/peers/run.sh, big-guest.sh, restart.sh).  From the top of the tree:
#   . tests/lib/peer-suite.sh SUITE BUILD_DIR
# sets B (BUILD_DIR), VHOST_DEV and CHECK_PREFIX ($PEER_PREFIX, then the
# guest's GUEST_NAME), sources the result (KTAP), vhost_dev and guest
# helpers, and fails SUITE (exit 1) when BUILD_DIR has no vhost_dev.
B=$2
CHECK_PREFIX=${PEER_PREFIX:-}
. tests/lib/result.sh
. shlib/vhost-dev.sh
. shlib/guest.sh
# The 7.3 guest's checks are named so (GUEST_NAME).
CHECK_PREFIX=$CHECK_PREFIX$GUEST_NAME
VHOST_DEV=$B/vhost_dev
if [ ! -x "$VHOST_DEV" ]; then
	fail "$1: $VHOST_DEV is not built"
	ktap_finished
fi
