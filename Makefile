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

RIG_CFLAGS := -std=gnu11 -Wall -Wextra -Werror -pthread -I. \
	-fno-strict-aliasing -MMD -MP
ALL_CFLAGS = $(RIG_CFLAGS) $(CFLAGS)
ALL_LDFLAGS = -pthread $(LDFLAGS)

# Built into the programs so every result says what produced it.
BUILD_CC := $(shell $(CC) --version 2>/dev/null | head -n 1)
BUILD_DEFS = -DRIG_BUILD_CC='"$(BUILD_CC)"' -DRIG_BUILD_CFLAGS='"$(strip $(CFLAGS))"'

PROGS := vringh_test
RING_OBJS := virtio_ring.o vringh.o
SHIM_OBJS := linux/shim.o
HARNESS_OBJS := harness.o

all: $(PROGS)

vringh_test: vringh_test.o $(HARNESS_OBJS) $(RING_OBJS) $(SHIM_OBJS)
	$(quiet) LD $@
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^

harness.o: harness.c
	$(quiet) CC $@
	$(Q)$(CC) $(ALL_CFLAGS) $(BUILD_DEFS) -c -o $@ $<

%.o: %.c
	$(quiet) CC $@
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

check: all
	$(Q)tests/run-check.sh

clean:
	$(quiet) CLEAN .
	$(Q)rm -f $(PROGS) *.o *.d linux/*.o linux/*.d

.PHONY: all check clean
-include $(wildcard *.d linux/*.d)
