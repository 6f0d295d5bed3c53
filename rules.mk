# SPDX-License-Identifier: GPL-2.0
#
# How the Makefile's programs are built, checked and cleaned, in the folder
# this make runs in: the source tree, or an output folder that
# kernel/ksrc.mk made (sources then come from $(srctree)).

vpath %.c $(srctree)
vpath %.h $(srctree)
.DEFAULT_GOAL := all

# The ring code of each side: the rig's, or with GUEST=kernel or
# HOST=kernel a kernel tree's (kernel/ksrc-build.mk compiles it).
GUEST ?= rig
HOST ?= rig
GUEST_OBJS := $(if $(filter kernel,$(GUEST)),ksrc/virtio_ring.o,virtio_ring.o)
HOST_OBJS := $(if $(filter kernel,$(HOST)),ksrc/vringh.o,vringh.o)

# What this folder is built with.  Every object and program depends on
# .rig-config, which is rewritten only when that changes, so another CC,
# CFLAGS, LDFLAGS, kernel tree or pairing rebuilds everything.
RIG_CONFIG := .rig-config
rig-config := KSRC=$(KSRC) GUEST=$(GUEST) HOST=$(HOST) CC=$(CC) CFLAGS=$(CFLAGS) LDFLAGS=$(LDFLAGS)
$(RIG_CONFIG): FORCE
	$(Q)echo $(call shell-quote,$(rig-config)) | cmp -s - $@ || \
		echo $(call shell-quote,$(rig-config)) >$@
FORCE:

include $(if $(filter kernel,$(GUEST) $(HOST)),$(srctree)/kernel/ksrc-build.mk)

RIG_CFLAGS := -std=gnu11 -Wall -Wextra -Werror -pthread $(RIG_INCLUDES) -I$(srctree) \
	-fno-strict-aliasing -MMD -MP
ALL_CFLAGS = $(RIG_CFLAGS) $(CFLAGS)
ALL_LDFLAGS = -pthread $(LDFLAGS)

# Built into the programs (--version) so every result says what produced it:
# the compiler, CFLAGS, and for each side the tree its ring code comes from,
# that tree's git describe and a hash of the ring files compiled
# (kernel/ring-id.sh, run by the recipe of .rig-ring-id, the header
# harness/cli.o is compiled with and depends on: rewritten only when that
# changes).  KSRC_GUEST_FILES and KSRC_HOST_FILES are a kernel tree's
# (kernel/ksrc-build.mk).
BUILD_CC := $(shell $(CC) --version 2>/dev/null | head -n 1)
RIG_GUEST_FILES := virtio_ring.c linux/virtio.h linux/virtio_ring.h
RIG_HOST_FILES := vringh.c linux/vringh.h
# The tree and the files of side $(2) (GUEST or HOST), from ring code $(1).
ring-tree = $(call shell-quote,$(if $(filter kernel,$(1)),$(KSRC),$(abspath $(srctree))))
ring-files = '$(if $(filter kernel,$(1)),$(KSRC_$(2)_FILES),$(RIG_$(2)_FILES))'
RIG_RING_ID := .rig-ring-id
$(RIG_RING_ID): FORCE
	$(Q)$(srctree)/kernel/ring-id.sh $@ \
		$(call ring-tree,$(GUEST)) $(call ring-files,$(GUEST),GUEST) \
		$(call ring-tree,$(HOST)) $(call ring-files,$(HOST),HOST)
harness/text.o: ALL_CFLAGS += -DRIG_BUILD_CC='"$(BUILD_CC)"' \
	-DRIG_BUILD_CFLAGS='"$(strip $(CFLAGS))"'
harness/cli.o: $(RIG_RING_ID)
harness/cli.o: ALL_CFLAGS += -DRIG_GUEST_IMPL='"$(GUEST)"' -DRIG_HOST_IMPL='"$(HOST)"' \
	-include $(RIG_RING_ID)

# ---- Building ----
# One link rule: NAME.o (or $(NAME-main)), then $(NAME-objs), then $(NAME-libs).
FUZZ_SAN := address,undefined
PROGS += $(TEST_PROGS)
$(foreach p,$(PROGS) $(FUZZ_TARGETS),$(eval $(p)-objs += $$(RIG_OBJS)))
$(foreach p,$(FUZZ_TARGETS),$(eval $(p)-libs += -fsanitize=fuzzer,$(FUZZ_SAN)))
$(foreach p,$(TOOLS),$(eval $(p)-objs += $$(TOOL_OBJS))$(eval $(p)-libs += -lm))
ALL_PROGS := $(PROGS) $(TOOLS) $(FUZZ_TARGETS)

.SECONDEXPANSION:
$(ALL_PROGS): %: $$(or $$($$*-main),$$*.o) $$($$*-objs) $(RIG_CONFIG)
	$(quiet) LD $@
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $(filter %.o,$^) $($@-libs)

%.o: %.c $(RIG_CONFIG)
	$(quiet) CC $@
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

all: $(filter-out $(TEST_PROGS),$(PROGS)) $(TOOLS)
test-programs: $(TEST_PROGS)
fuzz-targets: $(FUZZ_TARGETS)

# Every folder that holds objects, for clean and the dependency files.
obj-dirs := $(sort $(dir $(ALL_PROGS) $(foreach p,$(ALL_PROGS),$($(p)-main) $($(p)-objs))))
-include $(wildcard $(addsuffix *.d,$(obj-dirs)))

clean:
	$(quiet) CLEAN $(CURDIR)
	$(Q)rm -f $(ALL_PROGS) $(addsuffix *.o,$(obj-dirs)) $(addsuffix *.d,$(obj-dirs))
	$(Q)rm -rf $(RIG_CONFIG) $(RIG_RING_ID) .rig-check-times ksrc build-fuzz build-asan \
		build-ubsan build-tsan build-valgrind build-ab build-regress build-series

# ---- Checking ----
# make check [T=REGEX] [LIST=1]: tests/run-check.sh on this folder's
# programs and test programs, with the fuzz targets built (fuzz-build) for
# their short runs when T selects them; LIST=1 builds the same and names
# the checks the run would make instead of running them.  They are built
# first by a make of their own whose standard output goes to stderr, so
# that make check's is KTAP alone from its first line (make check | tee
# check.tap), whatever is built and however (V=1 too: these two commands
# are never echoed).
check-fuzz-names = for t in $$($(srctree)/fuzz/run.sh --list); do \
	echo "fuzz $$t: corpus + $${FUZZ_CHECK_RUNS:-100000} runs or $${FUZZ_CHECK_CPU:-30} CPU s, seed 1"; done
check-wants-fuzz = $(if $(LIST),,$(if $(T),$(shell $(check-fuzz-names) | \
	grep -Eq -- $(call shell-quote,$(value T)) && echo yes),yes))
# The build runs as many jobs as the checks do (CHECK_JOBS, default 2)
# unless make was given -j: it is a recursive make (+), which takes that.
check-build = $(MAKE) --no-print-directory $(if $(filter -j%,$(MAKEFLAGS)),,-j$(or $(CHECK_JOBS),2)) \
	all test-programs $(if $(check-wants-fuzz),fuzz-build) >&2
check-run = $(srctree)/tests/run-check.sh $(if $(T),--filter $(call shell-quote,$(value T))) \
	$(if $(LIST),--list)
check:
	@+$(check-build)
	@$(check-run)

# make check-busy [T=REGEX] [HOGS=N]: the same checks beside N CPU hogs
# (default two per CPU; tests/busy.sh): a check bounded by the machine's
# speed rather than by its progress fails here (tests/README).
check-busy:
	@+$(check-build)
	@$(srctree)/tests/busy.sh $(if $(HOGS),-n $(call shell-quote,$(HOGS))) $(check-run)

# make shellcheck: shellcheck -S warning on every shell script, which must
# find nothing (tests/shellcheck.sh); without shellcheck, a SKIP naming
# its package.
shellcheck:
	$(Q)$(srctree)/tests/shellcheck.sh || [ $$? -eq 77 ]

# Sanitizer and valgrind builds: each in its own folder, the check matrix
# there (tests/check-modes.mk; valgrind runs the single-threaded programs
# and the hostile and allocation-failure cases, tests/run-check.sh).
$(CHECK_MODES): check-%:
	$(Q)$(call check-mode-env,$*) $(MAKE) --no-print-directory O=build-$* \
		CC='$(call check-mode-cc,$*)' CFLAGS='$(CHECK_MODE_CFLAGS)' check

# make torture-drivers: every vhost_dev --torture case against the Linux
# guest's virtio-blk and virtio-net and DPDK's virtio-user, each outcome
# against tests/peers/dev-torture.table, each guest row on a boot of its
# own (make check runs the same rows, the guest's sharing boots;
# tests/README).
torture-drivers: all
	$(Q)$(srctree)/tests/peers/dev-torture-drivers.sh --all $(CURDIR)

# ---- Fuzzing ----
#   make fuzz [FUZZ_SECONDS=N]   every fuzz target for N s (default 60)
# make check runs each target on its corpus plus a fixed number of runs.
FUZZ_CC ?= clang
# fuzz/run.sh --check (make check) asks the same compiler whether a
# target that is not built is a SKIP (no clang) or a FAIL.
export FUZZ_CC
FUZZ_CFLAGS := -O1 -g -fno-omit-frame-pointer \
	-fsanitize=fuzzer-no-link,$(FUZZ_SAN) -fno-sanitize-recover=all
FUZZ_SECONDS ?= 60
# Does $(FUZZ_CC) link a libFuzzer program?  (Debian: clang libclang-rt-14-dev)
fuzz-cc-ok = $(shell $(srctree)/fuzz/run.sh --cc-ok '$(FUZZ_CC)' && echo yes)

fuzz-build:
	$(Q)if [ '$(fuzz-cc-ok)' = yes ]; then \
		$(MAKE) --no-print-directory O=build-fuzz CC='$(FUZZ_CC)' \
			CFLAGS='$(FUZZ_CFLAGS)' LDFLAGS= fuzz-targets >&2; \
	else \
		echo "fuzz-build: $(FUZZ_CC) cannot build libFuzzer targets" \
			"(apt-get install clang libclang-rt-14-dev)" >&2; \
		rm -f $(addprefix build-fuzz/,$(FUZZ_TARGETS)); \
	fi

fuzz: fuzz-build
	$(Q)$(srctree)/fuzz/run.sh --seconds '$(FUZZ_SECONDS)' build-fuzz

# ---- Measuring ----
# The goals of the measuring tools, beside their scripts: make bench
# (bench/bench.mk); make ab, regress, series, count and gate-check
# (ab/ab.mk).
include $(srctree)/bench/bench.mk $(srctree)/ab/ab.mk

# make mutate [M=ERE] [T=ERE] [K=1]: each one-line mutation of a safety
# check (mutate/mutations) planted in a throwaway copy of this tree, the
# quick checks (mutate/quick, or make check T=ERE) and those the mutation
# names run there (K=1: only those): which case killed it, or that it
# survived, and in how long (mutate/README).
mutate:
	$(Q)$(srctree)/mutate/run.sh $(if $(M),-m $(call shell-quote,$(value M))) \
		$(if $(T),-t $(call shell-quote,$(value T))) $(if $(K),-k)

.PHONY: FORCE all check check-busy clean fuzz fuzz-build fuzz-targets test-programs \
	$(CHECK_MODES) mutate shellcheck torture-drivers
