# SPDX-License-Identifier: GPL-2.0
#
# How a script stops with a message.  It sets DIE_PREFIX (its name in
# messages), DIE_STATUS and USAGE_HELP as it uses them, then sources this.
#
# die MESSAGE...: "$DIE_PREFIX: MESSAGE" on stderr, then exit with
# $DIE_STATUS (default 1).

die() {
	echo "${DIE_PREFIX:?}: $*" >&2
	exit "${DIE_STATUS:-1}"
}

# usage MESSAGE...: a usage error: "$DIE_PREFIX: MESSAGE", then "try
# '$USAGE_HELP -h'" on stderr, exit 2.
usage() {
	echo "${DIE_PREFIX:?}: $*" >&2
	echo "try '${USAGE_HELP:?} -h'" >&2
	exit 2
}

# bad_option OPT: the usage error for what getopts (with a leading ':' in
# its option string) set OPT to: ':' an option missing its value, else an
# option it does not know.
bad_option() {
	[ "$1" = : ] && usage "-$OPTARG needs a value"
	usage "unknown option -$OPTARG"
}
