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
TEST_PROGS := tests/hostile tests/vhost_user_wire
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

tests/vhost_user_wire: tests/vhost_user_wire.o vhost_user.o $(HARNESS_OBJS) $(RING_OBJS) $(SHIM_OBJS)
	$(quiet) LD $@
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^

# stats stands alone: libc and libm only.
stats: stats.o
	$(quiet) LD $@
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ -lm

harness.o: harness.c $(RIG_CONFIG)
	$(quiet) CC $@
	$(Q)$(CC) $(ALL_CFLAGS) $(BUILD_DEFS) $(IMPL_DEFS) -c -o $@ $<

%.o: %.c $(RIG_CONFIG)
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

# ---- Hostile rings (issue 6): fuzzing, sanitizer and valgrind builds,
# allocation-failure sweeps.  See README.hostile.
#
#   make fuzz [FUZZ_SECONDS=N]   every fuzz target for N s (default 60)
#   make check-asan / check-ubsan / check-tsan / check-valgrind
#                                the check matrix in build-asan/ ... built
#                                with that sanitizer (or run under valgrind)
# Plain `make check` also builds the fuzz targets (clang, libFuzzer, in
# build-fuzz/) and runs each on its corpus plus a fixed number of runs.

# The allocation-failure sweep is a test program like tests/hostile.
tests/allocfail: tests/allocfail.o $(HARNESS_OBJS) $(RING_OBJS) $(SHIM_OBJS)
	$(quiet) LD $@
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^
all: tests/allocfail

# Fuzz targets: built only in an output folder whose CFLAGS instrument
# everything for libFuzzer (make fuzz-build does that in build-fuzz/).
FUZZ_TARGETS := fuzz/fuzz_vringh fuzz/fuzz_virtqueue
FUZZ_SAN := address,undefined
$(FUZZ_TARGETS): %: %.o $(RING_OBJS) $(SHIM_OBJS)
	$(quiet) LD $@
	$(Q)$(CC) $(ALL_LDFLAGS) -fsanitize=fuzzer,$(FUZZ_SAN) -o $@ $^
fuzz-targets: $(FUZZ_TARGETS)

FUZZ_CC ?= clang
FUZZ_CFLAGS := -O1 -g -fno-omit-frame-pointer \
	-fsanitize=fuzzer-no-link,$(FUZZ_SAN) -fno-sanitize-recover=all
FUZZ_SECONDS ?= 60
# Does $(FUZZ_CC) link a libFuzzer program?  (Debian: clang libclang-rt-14-dev)
fuzz-cc-ok = $(shell printf 'int LLVMFuzzerTestOneInput(const char *d, long n) { return 0; }\n' | \
	$(FUZZ_CC) -fsanitize=fuzzer -x c -o /dev/null - >/dev/null 2>&1 && echo yes)

fuzz-build:
	$(Q)if [ '$(fuzz-cc-ok)' = yes ]; then \
		$(MAKE) --no-print-directory O=build-fuzz CC='$(FUZZ_CC)' \
			CFLAGS='$(FUZZ_CFLAGS)' LDFLAGS= fuzz-targets; \
	else \
		echo "fuzz-build: $(FUZZ_CC) cannot build libFuzzer targets" \
			"(apt-get install clang libclang-rt-14-dev)" >&2; \
		rm -f $(addprefix build-fuzz/,$(FUZZ_TARGETS)); \
	fi
check: fuzz-build

fuzz: fuzz-build
	$(Q)fuzz/run.sh --seconds '$(FUZZ_SECONDS)' build-fuzz

# Sanitizer builds: each in its own folder, the whole check matrix there.
# The sanitizer goes in CC, so that it compiles and links everything,
# including what the checks build themselves (ab/ab.sh passes CC and
# CFLAGS on).  A sanitizer finding exits with its own status, never the 1
# a usage-error check expects.
SAN_CC_asan := -fsanitize=address -fno-omit-frame-pointer
SAN_CC_ubsan := -fsanitize=undefined,alignment -fno-sanitize-recover=all
SAN_CC_tsan := -fsanitize=thread
check-asan check-ubsan check-tsan: check-%:
	$(Q)ASAN_OPTIONS=exitcode=86:detect_leaks=1:abort_on_error=0 \
	UBSAN_OPTIONS=exitcode=87:print_stacktrace=1:halt_on_error=1 \
	TSAN_OPTIONS=exitcode=88:halt_on_error=1:second_deadlock_stack=1 \
	RIG_CHECK_MODE=$* $(MAKE) --no-print-directory O=build-$* \
		CC='$(CC) $(SAN_CC_$*)' CFLAGS='-O1 -g' check

# valgrind runs the single-threaded programs and the hostile and
# allocation-failure cases of a plain -O1 build (tests/run-check.sh).
check-valgrind:
	$(Q)RIG_CHECK_MODE=valgrind $(MAKE) --no-print-directory O=build-valgrind \
		CFLAGS='-O1 -g' check

clean: clean-hostile
clean-hostile:
	$(Q)rm -f tests/allocfail fuzz/*.o fuzz/*.d
	$(Q)rm -rf build-fuzz build-asan build-ubsan build-tsan build-valgrind

.PHONY: fuzz fuzz-build fuzz-targets check-asan check-ubsan check-tsan \
	check-valgrind clean-hostile
-include $(wildcard fuzz/*.d)

endif # RIG_DELEGATE (kernel/ksrc.mk): keep this the last line
