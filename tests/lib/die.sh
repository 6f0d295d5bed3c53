# SPDX-License-Identifier: GPL-2.0
#
# die MESSAGE...: "$DIE_PREFIX: MESSAGE" on stderr, then exit with
# $DIE_STATUS (default 1).  The script sets both, then sources this file.

die() {
	echo "${DIE_PREFIX:?}: $*" >&2
	exit "${DIE_STATUS:-1}"
}
