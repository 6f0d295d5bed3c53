# SPDX-License-Identifier: GPL-2.0
#
# Kernel-tree mode and output folders, included at the top of the Makefile.
#
#   make KSRC=/path/to/linux                 kernel/kernel, in build-kernel/
#   make KSRC=... GUEST=kernel HOST=rig      the kernel's virtio_ring.c with
#                                            our vringh.c, in build-kernel-rig/
#   make KSRC=... GUEST=rig HOST=kernel      ours against the kernel's vringh.c,
#                                            in build-rig-kernel/
#   make check KSRC=...                      builds and checks all three
#   make O=dir ...                           any build in its own folder
#   make ksrc-6.12                           extract Debian's linux-source-6.12
#
# As with kbuild's O=, a build in an output folder is this Makefile run
# again inside that folder (srctree= names the source tree), so every rule
# the Makefile has works there unchanged: a new program needs no line here.
# The kernel's ring code is compiled from $(KSRC), unmodified, with the same
# code generation flags as ours; only warnings differ (see KSRC_WARN).

# Extract a Debian linux-source-X.Y tarball: make ksrc-6.12.
ksrc-%:
	$(Q)kernel/fetch-ksrc.sh /usr/src/linux-source-$*.tar.xz build-ksrc/linux-source-$*

ifneq ($(origin srctree),command line)
# ---------------------------------------------------------------------------
# The top-level make: choose the pairing and the output folder.

rig-impls := rig kernel

# Only the command line chooses a pairing: HOST in particular is a common
# environment variable (the machine's name) in some shells.
$(foreach v,KSRC GUEST HOST O,$(if $(filter environment%,$(origin $(v))),$(eval override undefine $(v))))
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

# The folder a pairing builds in: build-kernel, build-<guest>-<host>, or
# the top level for the rig's own code.
rig-pairing-dir = $(if $(filter kernel-kernel,$(1)-$(2)),build-kernel,$(if $(filter kernel,$(1) $(2)),build-$(1)-$(2),.))

rig-goals := $(or $(MAKECMDGOALS),all)

ifneq ($(and $(KSRC),$(filter check,$(rig-goals)),$(if $(rig-pairing-asked),,yes)),)
# `make check KSRC=...` without GUEST/HOST: all three pairings.
ifdef O
$(error make check KSRC=... checks three pairings in three folders; give GUEST= and HOST= to check one in O=$(O))
endif
rig-pairings := kernel-kernel kernel-rig rig-kernel
O := build-kernel
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
# Everything happens in output folders: the rest of the Makefile is not read.
RIG_DELEGATE := 1
.DEFAULT_GOAL := all

# Each pairing's folder; with one pairing, O= may name it.
rig-pairing-dir2 = $(call rig-pairing-dir,$(word 1,$(subst -, ,$(1))),$(word 2,$(subst -, ,$(1))))
$(foreach p,$(rig-pairings),$(eval rig-dir-$(p) := \
	$(if $(filter 1,$(words $(rig-pairings))),$(O),$(call rig-pairing-dir2,$(p)))))
rig-dirs := $(foreach p,$(rig-pairings),$(rig-dir-$(p)))

rig-other-goals := $(filter-out check ksrc-%,$(rig-goals))
rig-build-goals := $(or $(rig-other-goals),all)

# One phony target per pairing, so -j builds them side by side.
rig-in-pairings := $(addprefix rig-in-,$(rig-pairings))
$(rig-in-pairings): rig-in-%:
	$(Q)mkdir -p $(rig-dir-$*)
	$(Q)$(MAKE) -C $(rig-dir-$*) -f $(CURDIR)/Makefile srctree=$(CURDIR) \
		KSRC=$(KSRC) GUEST=$(word 1,$(subst -, ,$*)) \
		HOST=$(word 2,$(subst -, ,$*)) O=. $(rig-build-goals)

ifneq ($(rig-other-goals),)
$(rig-other-goals): $(rig-in-pairings) ; @:
endif

ifneq ($(filter check,$(rig-goals)),)
check: $(rig-in-pairings)
ifdef KSRC
	$(Q)tests/run-check.sh --ksrc $(rig-dirs)
else
	$(Q)tests/run-check.sh $(rig-dirs)
endif
endif

.PHONY: all check $(rig-other-goals) $(rig-in-pairings)
endif

else
# ---------------------------------------------------------------------------
# Inside an output folder: sources come from $(srctree), and with GUEST=kernel
# or HOST=kernel that side's ring code and API header come from $(KSRC).

vpath %.c $(srctree)
vpath %.h $(srctree)
.DEFAULT_GOAL := all

GUEST ?= rig
HOST ?= rig
ifeq ($(GUEST),kernel)
GUEST_OBJS := ksrc/virtio_ring.o
endif
ifeq ($(HOST),kernel)
HOST_OBJS := ksrc/vringh.o
endif
IMPL_DEFS := -DRIG_GUEST_IMPL='"$(GUEST)"' -DRIG_HOST_IMPL='"$(HOST)"'

# What this folder was built with.  It is rewritten only when it changes,
# and every object depends on it (RIG_CONFIG), so pointing an existing
# folder at another tree, pairing, compiler or CFLAGS rebuilds everything.
RIG_CONFIG := .rig-config
$(file >$(RIG_CONFIG).tmp,KSRC=$(KSRC) GUEST=$(GUEST) HOST=$(HOST) CC=$(CC) CFLAGS=$(CFLAGS))
$(shell cmp -s $(RIG_CONFIG).tmp $(RIG_CONFIG) && rm -f $(RIG_CONFIG).tmp || mv -f $(RIG_CONFIG).tmp $(RIG_CONFIG))

# The kernel's API headers for a side it implements (linux/virtio.h and
# linux/virtio_ring.h for the guest, linux/vringh.h for the host) replace
# ours for the whole program, so the program, both ring objects and the
# headers' inline helpers agree on every structure and prototype (these
# change between kernel versions: const arguments, fields moving).  The
# rest (linux/virtio_config.h, the uapi ring layout, every other header)
# stays ours.  Each is reached through a generated wrapper
# (kernel/ksrc-header.sh) that applies the kernel's warning set to it.
ksrc-headers := $(if $(filter kernel,$(GUEST)),virtio.h virtio_ring.h) \
		$(if $(filter kernel,$(HOST)),vringh.h)
$(foreach h,$(filter-out $(ksrc-headers),virtio.h virtio_ring.h vringh.h),\
	$(shell rm -f ksrc/include/linux/$(h)))
$(foreach h,$(ksrc-headers),\
	$(shell $(srctree)/kernel/ksrc-header.sh $(KSRC) $(h) ksrc/include/linux/$(h)))
RIG_INCLUDES := $(if $(strip $(ksrc-headers)),-Iksrc/include)

# The kernel's files are built with -Wall -Wextra -Werror less what the
# kernel's own build leaves off: the -Wextra warnings it does not enable,
# and gcc's -Wmaybe-uninitialized (false positives on its code).  Code
# generation flags are $(ALL_CFLAGS), exactly as for the rig's ring code.
ksrc-cc-warning = $(shell $(CC) -Werror $(1) -c -x c /dev/null -o /dev/null 2>/dev/null && echo $(2))
KSRC_WARN := -Wno-unused-parameter -Wno-sign-compare \
	-Wno-missing-field-initializers \
	$(call ksrc-cc-warning,-Wmaybe-uninitialized,-Wno-maybe-uninitialized)

define ksrc-compile
	$(quiet) CC $@
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) $(KSRC_WARN) -c -o $@ $<
endef
ksrc/virtio_ring.o: $(KSRC)/drivers/virtio/virtio_ring.c $(RIG_CONFIG)
	$(ksrc-compile)
ksrc/vringh.o: $(KSRC)/drivers/vhost/vringh.c $(RIG_CONFIG)
	$(ksrc-compile)

rig-clean-ksrc:
	$(Q)rm -rf ksrc $(RIG_CONFIG)
clean: rig-clean-ksrc
.PHONY: rig-clean-ksrc

-include $(wildcard ksrc/*.d)
endif
