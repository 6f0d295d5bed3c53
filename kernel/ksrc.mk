# SPDX-License-Identifier: GPL-2.0
#
# Kernel-tree mode and output folders: which folder each build happens in.
# Included at the top of the Makefile.
#
#   make KSRC=/path/to/linux                 kernel/kernel, in build-kernel/TREE/
#   make KSRC=... GUEST=kernel HOST=rig      the kernel's virtio_ring.c with
#                                            our vringh.c, in build-kernel-rig/TREE/
#   make KSRC=... GUEST=rig HOST=kernel      ours against the kernel's vringh.c,
#                                            in build-rig-kernel/TREE/
#                                            (TREE: kernel/ksrc-key.sh KSRC)
#   make check KSRC=...                      builds and checks all three
#   make check KSRC=... LIST=1               builds all three, names the checks
#   make check-asan KSRC=... (-ubsan, -tsan, -valgrind)
#                                            the same in build-asan-kernel/TREE/,
#                                            build-asan-kernel-rig/TREE/, ...
#   make O=dir ...                           any build in its own folder
#   make ksrc-6.12                           extract Debian's linux-source-6.12
#
# As with kbuild's O=, a build in an output folder is the Makefile run
# again inside that folder (srctree= names the source tree), so every rule
# it has works there unchanged: a new program needs no line here.  This
# make then sets RIG_DELEGATE and the Makefile reads no rules of its own.
# kernel/ksrc-build.mk compiles the kernel's ring code in the folder.

# Extract a Debian linux-source-X.Y tarball: make ksrc-6.12.
ksrc-%:
	$(Q)kernel/fetch-ksrc.sh /usr/src/linux-source-$*.tar.xz build-ksrc/linux-source-$*

# Inside an output folder (srctree= on the command line) all is chosen.
ifneq ($(origin srctree),command line)

rig-impls := rig kernel

# Only the command line chooses a pairing: HOST in particular is a common
# environment variable (the machine's name) in some shells.
$(foreach v,KSRC KSRC_BASE GUEST HOST O,$(if $(filter environment%,$(origin $(v))),$(eval override undefine $(v))))

# make regress and make series compare two sets of ring code and build
# them in their own folders: there KSRC, KSRC_BASE, GUEST and HOST are
# their arguments (RIG_TOOL_*), not this build's, which is the rig's own.
# make ab and make gate-check compare revisions of this repository only,
# and make mutate plants bugs in this repository's ring code: they refuse
# KSRC rather than ignore it.
rig-tool-goals := regress series
rig-repo-goals := ab gate-check mutate
rig-asked-tools := $(filter $(rig-tool-goals) $(rig-repo-goals),$(MAKECMDGOALS))
ifneq ($(rig-asked-tools),)
ifneq ($(filter-out $(rig-tool-goals) $(rig-repo-goals),$(MAKECMDGOALS)),)
$(error make $(rig-asked-tools) runs alone, not with $(filter-out $(rig-tool-goals) $(rig-repo-goals),$(MAKECMDGOALS)))
endif
ifneq ($(words $(rig-asked-tools)),1)
$(error make $(rig-asked-tools): one at a time)
endif
ifneq ($(and $(or $(KSRC),$(KSRC_BASE)),$(filter $(rig-repo-goals),$(MAKECMDGOALS))),)
$(error make $(rig-asked-tools) works on this repository's own ring code and takes no KSRC; for a kernel tree: make regress KSRC=TREE BASE=REV [HEAD=REV], or make series)
endif
RIG_TOOL_KSRC := $(if $(KSRC),$(abspath $(KSRC)))
RIG_TOOL_KSRC_BASE := $(if $(KSRC_BASE),$(abspath $(KSRC_BASE)))
RIG_TOOL_GUEST := $(GUEST)
RIG_TOOL_HOST := $(HOST)
override undefine KSRC
override undefine GUEST
override undefine HOST
else ifdef KSRC_BASE
$(error KSRC_BASE is make regress's (KSRC_BASE=DIR KSRC=DIR: two trees without git))
endif
rig-pairing-asked := $(or $(GUEST),$(HOST))

ifdef KSRC
override KSRC := $(abspath $(KSRC))
ifeq ($(wildcard $(KSRC)/drivers/virtio/virtio_ring.c),)
$(error KSRC=$(KSRC) has no drivers/virtio/virtio_ring.c (Debian: apt-get install linux-source-6.12 && make ksrc-6.12, then KSRC=build-ksrc/linux-source-6.12))
endif
GUEST ?= kernel
HOST ?= kernel
else
GUEST ?= rig
HOST ?= rig
endif

ifneq ($(filter-out $(rig-impls),$(GUEST) $(HOST)),)
$(error GUEST and HOST are "rig" or "kernel", not "$(GUEST)" / "$(HOST)")
endif
ifneq ($(filter kernel,$(GUEST) $(HOST)),)
ifndef KSRC
$(error GUEST=$(GUEST) HOST=$(HOST) needs KSRC=/path/to/linux)
endif
endif

# The folder a pairing builds in: build-kernel/TREE, build-<guest>-<host>/TREE,
# or the top level for the rig's own code; under make check-MODE KSRC=,
# build-MODE-kernel/TREE, build-MODE-<guest>-<host>/TREE (rig-build-prefix).
# TREE is the kernel tree's own name (kernel/ksrc-key.sh): each tree
# builds in folders of its own, so switching KSRC rebuilds neither tree.
rig-build-prefix ?= build
rig-ksrc-key := $(if $(KSRC),$(shell $(srctree)/kernel/ksrc-key.sh $(KSRC)))
rig-pairing-dir = $(if $(filter kernel-kernel,$(1)-$(2)),$(rig-build-prefix)-kernel/$(rig-ksrc-key),$(if $(filter kernel,$(1) $(2)),$(rig-build-prefix)-$(1)-$(2)/$(rig-ksrc-key),.))

rig-goals := $(or $(MAKECMDGOALS),all)
rig-mode-goals := $(filter $(CHECK_MODES),$(rig-goals))

ifneq ($(and $(KSRC),$(rig-mode-goals)),)
# make check-MODE KSRC=... [GUEST= HOST=]: make check KSRC=... again, each
# pairing built for MODE in a folder of its own (tests/check-modes.mk).
ifneq ($(words $(rig-goals)),1)
$(error make $(rig-mode-goals) KSRC=... runs alone, not with $(filter-out $(firstword $(rig-mode-goals)),$(rig-goals)))
endif
RIG_DELEGATE := 1
$(rig-mode-goals): check-%:
	$(Q)$(call check-mode-env,$*) $(MAKE) --no-print-directory check KSRC=$(KSRC) \
		$(if $(rig-pairing-asked),GUEST=$(GUEST) HOST=$(HOST)) \
		CC='$(call check-mode-cc,$*)' CFLAGS='$(CHECK_MODE_CFLAGS)' rig-build-prefix=build-$*
.PHONY: $(rig-mode-goals)
else
ifneq ($(and $(KSRC),$(filter check,$(rig-goals)),$(if $(rig-pairing-asked),,yes)),)
# `make check KSRC=...` without GUEST/HOST: all three pairings.
ifdef O
$(error make check KSRC=... checks three pairings in three folders; give GUEST= and HOST= to check one in O=$(O))
endif
rig-pairings := kernel-kernel kernel-rig rig-kernel
O := $(call rig-pairing-dir,kernel,kernel)
else
rig-pairings := $(GUEST)-$(HOST)
O ?= $(call rig-pairing-dir,$(GUEST),$(HOST))
endif
ifneq ($(filter kernel,$(GUEST) $(HOST)),)
ifeq ($(abspath $(O)),$(CURDIR))
$(error O=$(O): kernel-tree builds need their own folder, the top level is the rig's)
endif
endif

ifneq ($(abspath $(O)),$(CURDIR))
# Everything happens in output folders.
RIG_DELEGATE := 1
.DEFAULT_GOAL := all

# Each pairing's folder; with one pairing, O= may name it.
rig-pairing-dir2 = $(call rig-pairing-dir,$(word 1,$(subst -, ,$(1))),$(word 2,$(subst -, ,$(1))))
$(foreach p,$(rig-pairings),$(eval rig-dir-$(p) := \
	$(if $(filter 1,$(words $(rig-pairings))),$(O),$(call rig-pairing-dir2,$(p)))))
rig-dirs := $(foreach p,$(rig-pairings),$(rig-dir-$(p)))

# What the pairings build: the goals asked, or all, and for check the
# test programs too.
rig-other-goals := $(filter-out check ksrc-%,$(rig-goals))
rig-build-goals := $(or $(rig-other-goals),all) $(if $(filter check,$(rig-goals)),test-programs)

# One phony target per pairing, so -j builds them side by side.
rig-in-pairings := $(addprefix rig-in-,$(rig-pairings))
$(rig-in-pairings): rig-in-%:
	$(Q)mkdir -p $(rig-dir-$*)
	$(Q)$(MAKE) -C $(rig-dir-$*) -f $(CURDIR)/Makefile srctree=$(CURDIR) \
		KSRC=$(KSRC) GUEST=$(word 1,$(subst -, ,$*)) \
		HOST=$(word 2,$(subst -, ,$*)) O=. $(rig-build-goals) \
		$(if $(filter check,$(rig-goals)),>&2)

ifneq ($(rig-other-goals),)
$(rig-other-goals): $(rig-in-pairings) ; @:
endif

ifneq ($(filter check,$(rig-goals)),)
check: $(rig-in-pairings)
	$(Q)tests/run-check.sh $(if $(T),--filter $(call shell-quote,$(value T))) \
		$(if $(LIST),--list) $(if $(KSRC),--ksrc) $(rig-dirs)
endif

.PHONY: all check $(rig-other-goals) $(rig-in-pairings)
endif
endif

endif
