# SPDX-License-Identifier: GPL-2.0
#
# The virtio ring rig.  `make` builds every program, `make check` runs the
# test matrix.  CC, CFLAGS and V=1 work as in kbuild: CFLAGS replaces the
# default optimisation (-O2 -g); the warning flags are always on.

CC ?= cc
CFLAGS ?= -O2 -g
LDFLAGS ?=

ifeq ($(V),1)
Q :=
quiet = @:
else
Q := @
quiet = @printf '  %-7s %s\n'
endif

# Kernel-tree mode (KSRC=, GUEST=, HOST=) and output folders (O=): see
# kernel/ksrc.mk.  Builds in an output folder run this Makefile again there;
# the top-level make then reads nothing below (up to the last line).
include $(or $(srctree),.)/kernel/ksrc.mk
ifndef RIG_DELEGATE
srctree ?= .

RIG_CFLAGS := -std=gnu11 -Wall -Wextra -Werror -pthread $(RIG_INCLUDES) -I$(srctree) \
	-fno-strict-aliasing -MMD -MP
ALL_CFLAGS = $(RIG_CFLAGS) $(CFLAGS)
ALL_LDFLAGS = -pthread $(LDFLAGS)

# Built into the programs so every result says what produced it.
BUILD_CC := $(shell $(CC) --version 2>/dev/null | head -n 1)
BUILD_DEFS = -DRIG_BUILD_CC='"$(BUILD_CC)"' -DRIG_BUILD_CFLAGS='"$(strip $(CFLAGS))"'

PROGS := vringh_test stats vring_bench virtio_test
TEST_PROGS := tests/hostile
# The driver side and the device side (kernel/ksrc.mk may swap either).
GUEST_OBJS ?= virtio_ring.o
HOST_OBJS ?= vringh.o
RING_OBJS := $(GUEST_OBJS) $(HOST_OBJS)
SHIM_OBJS := linux/shim.o
HARNESS_OBJS := harness.o

all: $(PROGS) $(TEST_PROGS)

vringh_test: vringh_test.o $(HARNESS_OBJS) $(RING_OBJS) $(SHIM_OBJS)
	$(quiet) LD $@
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^

virtio_test: virtio_test.o $(HARNESS_OBJS) $(RING_OBJS) $(SHIM_OBJS)
	$(quiet) LD $@
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^

tests/hostile: tests/hostile.o $(HARNESS_OBJS) $(RING_OBJS) $(SHIM_OBJS)
	$(quiet) LD $@
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^

# stats stands alone: libc and libm only.
stats: stats.o
	$(quiet) LD $@
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ -lm

harness.o: harness.c
	$(quiet) CC $@
	$(Q)$(CC) $(ALL_CFLAGS) $(BUILD_DEFS) $(IMPL_DEFS) -c -o $@ $<

%.o: %.c
	$(quiet) CC $@
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

check: all
	$(Q)tests/run-check.sh

clean:
	$(quiet) CLEAN .
	$(Q)rm -f $(PROGS) $(TEST_PROGS) *.o *.d linux/*.o linux/*.d tests/*.o tests/*.d

.PHONY: all check clean
-include $(wildcard *.d linux/*.d tests/*.d)

# ---- Measuring (issue 3): vring_bench, make bench, the A/B comparer ----
# vring_bench plays the device itself: it needs only the driver side.
vring_bench: vring_bench.o $(HARNESS_OBJS) $(GUEST_OBJS) $(SHIM_OBJS)
	$(quiet) LD $@
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^

# The comparer stands alone, like stats.
ab/compare: ab/compare.o
	$(quiet) LD $@
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ -lm

# make bench [RUNS=N]: the canonical loops (default 50 and 10 runs), folded.
bench: vringh_test vring_bench stats
	$(Q)$(srctree)/bench/run.sh $(RUNS)

# make ab BASE=<rev> [HEAD=<rev>|worktree] [CMD='./vring_bench 1000000']
#         [PAIRS=20]: build both revisions with this CC and CFLAGS, compare.
ab: ab/compare
	$(Q)if [ -z '$(BASE)' ]; then echo "usage: make ab BASE=<rev>" \
		"[HEAD=<rev>|worktree] [CMD='./vring_bench 1000000'] [PAIRS=20]" >&2; \
		exit 1; fi
	$(Q)CC='$(CC)' CFLAGS='$(CFLAGS)' $(srctree)/ab/ab.sh -c ab/compare \
		-n '$(or $(PAIRS),20)' \
		'$(BASE)' '$(HEAD)' '$(subst ','\'',$(CMD))'

all: ab/compare
clean: clean-measure
clean-measure:
	$(Q)rm -rf ab/compare ab/*.o ab/*.d build-ab

.PHONY: bench ab clean-measure
-include $(wildcard ab/*.d)

endif # RIG_DELEGATE (kernel/ksrc.mk): keep this the last line
