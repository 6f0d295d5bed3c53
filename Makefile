# SPDX-License-Identifier: GPL-2.0
#
# The virtio ring rig.  `make` builds the programs, `make check` the test
# programs too and runs the test matrix (`make check T=REGEX`: only the
# checks whose names match).
# CC, CFLAGS and V=1 work as in kbuild: CFLAGS replaces the default
# optimisation (-O2 -g); the warning flags are always on.  A build that
# changes CC, CFLAGS or LDFLAGS rebuilds everything.
#
# This file says what is built; rules.mk says how.  Kernel-tree mode
# (KSRC=, GUEST=, HOST=) and output folders (O=): see kernel/ksrc.mk.

CC ?= cc
CFLAGS ?= -O2 -g
LDFLAGS ?=

# Programs built on the rig: NAME.c (or the $(NAME-main) object) linked
# with $(RIG_OBJS), plus $(NAME-objs) and $(NAME-libs) where a program
# needs more.  A new program is one line here: PROGS for a program users
# run, TEST_PROGS for one only make check runs (tests/), which make check
# builds (and make test-programs), not make, as automake's check_PROGRAMS.
PROGS += vringh_test
vringh_test-objs := vringh_test_scenarios.o vringh_test_parallel.o
# --vhost (virtio_test, vring_bench): the kernel's vhost core, built from a
# kernel tree when there is one (kernel/ksrc-build.mk sets VHOST_CORE_OBJS).
VHOST_OBJS = $(or $(VHOST_CORE_OBJS),kernel/no_vhost_core.o)
PROGS += virtio_test
virtio_test-objs = $(VHOST_OBJS)
PROGS += vring_bench
vring_bench-objs = $(VHOST_OBJS)
# vhost_net_test: the kernel's vhost-net over the core (VHOST_NET_OBJS,
# kernel/ksrc-build.mk, when the tree has drivers/vhost/net.c).
VHOST_NET_PROG_OBJS = $(VHOST_OBJS) $(or $(VHOST_NET_OBJS),kernel/no_vhost_net.o)
PROGS += vhost_net_test
vhost_net_test-objs = $(VHOST_NET_PROG_OBJS)
# bench/wakeup: what a round trip between two CPUs costs (bench/README).
PROGS += bench/wakeup
TEST_PROGS += tests/hostile
tests/hostile-objs := tests/said.o tests/fence.o tests/hostile_host.o tests/hostile_guest.o
TEST_PROGS += tests/vhost_core_hostile
tests/vhost_core_hostile-objs = $(VHOST_OBJS)
TEST_PROGS += tests/vhost_net_hostile
tests/vhost_net_hostile-objs = $(VHOST_NET_PROG_OBJS)
TEST_PROGS += tests/allocfail
TEST_PROGS += tests/mockdev
TEST_PROGS += tests/dma
TEST_PROGS += tests/features
TEST_PROGS += tests/resize
TEST_PROGS += tests/kmem_misuse
TEST_PROGS += tests/kmem
TEST_PROGS += tests/iotlb
TEST_PROGS += tests/edges
tests/edges-objs := tests/said.o tests/fence.o
TEST_PROGS += tests/vhost_user_wire
tests/vhost_user_wire-objs := vhost-user/protocol/wire.o
TEST_PROGS += tests/vhost_hostile
tests/vhost_hostile-objs := vhost-user/protocol/wire.o harness/ktap.o

# vhost-user (vhost-user/README): the backend ./vhost_dev and the frontend
# ./vhost_user_frontend, run from the top level like the other programs.
VU_BACKEND_OBJS := vhost-user/backend/dev_models.o vhost-user/backend/dev_torture.o \
	vhost-user/protocol/backend.o vhost-user/protocol/inflight.o vhost-user/protocol/wire.o
PROGS += vhost_dev
vhost_dev-main := vhost-user/backend/vhost_dev.o
vhost_dev-objs := $(VU_BACKEND_OBJS)
PROGS += vhost_user_frontend
vhost_user_frontend-main := vhost-user/frontend/vhost_user_frontend.o
vhost_user_frontend-objs := vhost-user/frontend/requests.o vhost-user/frontend/torture.o \
	vhost-user/protocol/frontend.o vhost-user/protocol/wire.o

# The objects every program links: the harness (harness/harness.h), the driver
# side (guest) and the device side (host) of the ring, and the linux/
# shims.  GUEST_OBJS and HOST_OBJS are the rig's or a kernel tree's (rules.mk);
# so is the IOTLB: a tree with the vhost core gives its own iotlb.c
# (KSRC_IOTLB_OBJS, kernel/ksrc-build.mk), else linux/vhost_iotlb.c.
HARNESS_OBJS := $(addprefix harness/,outcome.o cli.o text.o machine.o chan.o queue.o host.o mockdev.o arena.o)
RIG_OBJS = $(HARNESS_OBJS) $(GUEST_OBJS) $(HOST_OBJS) linux/shim.o linux/slab.o \
	linux/uio.o linux/completion.o $(or $(KSRC_IOTLB_OBJS),linux/vhost_iotlb.o)

# Stand-alone tools: NAME.c with libc and libm only, and the harness's
# libc-only text helpers (harness/text.h: numbers, JSON, the build line)
# and allocations (harness/xalloc.h).
TOOL_OBJS := harness/text.o harness/xalloc.o
TOOLS += stats
TOOLS += ab/compare
TOOLS += ab/srcfuncs

# libFuzzer targets, linked like PROGS but built only in build-fuzz/, whose
# CFLAGS instrument everything for libFuzzer (make fuzz-build).
FUZZ_TARGETS += fuzz/fuzz_vringh
FUZZ_TARGETS += fuzz/fuzz_virtqueue
FUZZ_TARGETS += fuzz/fuzz_vhost_user
fuzz/fuzz_vhost_user-objs := $(VU_BACKEND_OBJS)

ifeq ($(V),1)
Q :=
quiet := @:
else
Q := @
# make -s prints nothing on success.
quiet := $(if $(findstring s,$(firstword -$(MAKEFLAGS))),@:,@printf '  %-7s %s\n')
endif

# 'TEXT' as one shell word.
shell-quote = '$(subst ','\'',$(1))'

# The source tree: set on the command line only when kernel/ksrc.mk runs
# this Makefile again in an output folder.
ifneq ($(origin srctree),command line)
srctree := .
endif

# kernel/ksrc.mk chooses the folder each build happens in.  When that is
# not this one, it delegates every goal there and this make reads no rules.
include $(srctree)/tests/check-modes.mk
include $(srctree)/kernel/ksrc.mk
include $(if $(RIG_DELEGATE),,$(srctree)/rules.mk)
