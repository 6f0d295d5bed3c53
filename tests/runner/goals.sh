#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What make check builds and runs, asked of make -n (nothing is built):
# make check T=hostile does not build the fuzz targets (only a T that
# selects a fuzz check does, and plain make check); make check LIST=1
# builds what the run needs, then names its checks (tests/run-check.sh
# --list), and make check KSRC=TREE LIST=1 names those of the three
# pairings' folders, which are TREE's own (kernel/ksrc-key.sh).
#
# Usage: tests/runner/goals.sh   (from anywhere; prints KTAP)
set -u
. "$(dirname "$0")/opening.sh" goals

# dry GOAL...: what make -n prints for them, in $tmp/out (a make of its
# own: not the one running make check; the folders its sub-makes would
# make are not there, so they fail, and what they print is enough).
dry() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -n "$@" >"$tmp/out" 2>&1; }

dry check T=hostile; grep -q 'run-check' "$tmp/out" && ! grep -Eq 'build-fuzz|fuzz-build' "$tmp/out"
pass_if "make check T=hostile does not build the fuzz targets"
dry check T=fuzz_vringh; grep -Eq 'O=build-fuzz|test-programs fuzz-build' "$tmp/out"
pass_if "make check T=fuzz_vringh builds them"
dry check LIST=1 && ! grep -Eq 'build-fuzz|fuzz-build' "$tmp/out" &&
	grep -A1 'tests/run-check\.sh' "$tmp/out" | grep -q -- '--list'
pass_if "make check LIST=1 builds the test programs and runs tests/run-check.sh --list"
# A tree make -n can read: the ring files are not compiled here.
k=$tmp/tree
mkdir -p "$k/drivers/virtio" && : >"$k/drivers/virtio/virtio_ring.c"
key=$(kernel/ksrc-key.sh "$k")
# (the pairings' builds taken as made: -o)
dry check KSRC="$k" LIST=1 -o rig-in-kernel-kernel -o rig-in-kernel-rig \
	-o rig-in-rig-kernel &&
	grep -A1 'tests/run-check\.sh' "$tmp/out" |
	grep -q -- "--list --ksrc build-kernel/$key build-kernel-rig/$key build-rig-kernel/$key"
pass_if "make check KSRC=TREE LIST=1 names the checks of the three pairings"
ktap_finished
