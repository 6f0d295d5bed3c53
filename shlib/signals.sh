# SPDX-License-Identifier: GPL-2.0
#
# A signal is an exit: bash runs no EXIT trap when a signal kills it, so a
# script that cleans up in an EXIT trap sources this to exit instead, with
# 128 + the signal's number as the shell and tests/lib/ktap.sh report it
# (HUP 129, INT 130, TERM 143).
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM
