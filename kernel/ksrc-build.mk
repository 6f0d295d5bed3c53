# SPDX-License-Identifier: GPL-2.0
#
# A kernel tree's ring code, compiled in an output folder: rules.mk includes
# this when GUEST=kernel or HOST=kernel.  That side's ring code and API
# headers come from $(KSRC), unmodified.

# The kernel's API headers for a side it implements (linux/virtio.h and
# linux/virtio_ring.h for the guest, linux/vringh.h for the host) replace
# ours for the whole program, so the program, both ring objects and the
# headers' inline helpers agree on every structure and prototype (these
# change between kernel versions: const arguments, fields moving).  The
# rest (linux/virtio_config.h, the uapi ring layout, every other header)
# stays ours.  Each is reached through a generated wrapper
# (kernel/ksrc-header.sh) that applies the kernel's warning set to it; the
# wrappers of a side that is the rig's again are removed.
ksrc-headers := $(if $(filter kernel,$(GUEST)),virtio.h virtio_ring.h) \
		$(if $(filter kernel,$(HOST)),vringh.h)
# A tree the rig cannot build stops here, with one line naming what is
# missing (kernel/ksrc-check.sh), before anything is compiled.
ksrc-sides := $(if $(filter kernel,$(GUEST)),guest) $(if $(filter kernel,$(HOST)),host)
ksrc-check := $(shell $(srctree)/kernel/ksrc-check.sh $(KSRC) "$(ksrc-sides)" ksrc/.rig-ksrc-ok)
$(if $(ksrc-check),$(error $(ksrc-check)))
$(foreach h,$(filter-out $(ksrc-headers),virtio.h virtio_ring.h vringh.h),\
	$(shell rm -f ksrc/include/linux/$(h)))
$(foreach h,$(ksrc-headers),\
	$(shell $(srctree)/kernel/ksrc-header.sh $(KSRC) $(h) ksrc/include/linux/$(h)))
# The kernel's vringh with its IOTLB accessors (linux/vhost_iotlb.h is ours).
RIG_INCLUDES := -Iksrc/include $(if $(filter kernel,$(HOST)),-DCONFIG_VHOST_IOTLB=1)

# The files of each side this build reads from $(KSRC) (kernel/ksrc-files):
# what --version's hash covers (rules.mk).
KSRC_GUEST_FILES := $(shell sed -n 's/^guest //p' $(srctree)/kernel/ksrc-files)
KSRC_HOST_FILES := $(shell sed -n 's/^host //p' $(srctree)/kernel/ksrc-files)

# The kernel's files are built with -Wall -Wextra -Werror less what the
# kernel's own build leaves off: the -Wextra warnings it does not enable,
# and gcc's -Wmaybe-uninitialized (false positives on its code).  Code
# generation flags are $(ALL_CFLAGS), exactly as for the rig's ring code.
ksrc-cc-warning = $(shell $(CC) -Werror $(1) -c -x c /dev/null -o /dev/null 2>/dev/null && echo $(2))
KSRC_WARN := -Wno-unused-parameter -Wno-sign-compare \
	-Wno-missing-field-initializers \
	$(call ksrc-cc-warning,-Wmaybe-uninitialized,-Wno-maybe-uninitialized)

ksrc/virtio_ring.o: $(KSRC)/drivers/virtio/virtio_ring.c
ksrc/vringh.o: $(KSRC)/drivers/vhost/vringh.c
# The tree's files compile through kernel/ksrc-cc.sh: a symbol no shim
# has is one line naming it and the shim to extend, not a cascade.
ksrc-cc = $(srctree)/kernel/ksrc-cc.sh $(KSRC) $(abspath $@).err $(CC)

ksrc/virtio_ring.o ksrc/vringh.o: $(RIG_CONFIG)
	$(quiet) CC $@
	$(Q)mkdir -p $(@D)
	$(Q)$(ksrc-cc) $(ALL_CFLAGS) $(KSRC_WARN) -c -o $@ $(filter $(KSRC)/%.c,$^)

# The kernel's vhost core (drivers/vhost/vhost.c, iotlb.c) and its test
# device (drivers/vhost/test.c), unmodified, for virtio_test --vhost
# (kernel/vhost_core.c drives the device through its file operations).
# Their headers that are the kernel's own (the vhost uapi, vhost_iotlb.h)
# come from the tree through wrappers; every other header is a shim in
# linux/ (the task, eventfd and poll shims in linux/task.c, linux/eventfd.c).
# A tree without them (a copy of the ring files alone, tests/ksrc-patched.sh)
# builds virtio_test without the core: --vhost is then a SKIP.
# The worker's shim, linux/sched/vhost_task.h, declares vhost_task_create()
# in the form the tree's vhost.c calls (kernel/ksrc-shim-header.sh).
ifneq ($(and $(wildcard $(KSRC)/drivers/vhost/vhost.c),$(wildcard $(KSRC)/drivers/vhost/test.c)),)
ksrc-vhost-headers := vhost_iotlb.h uapi/linux/vhost.h uapi/linux/vhost_types.h
$(foreach h,$(ksrc-vhost-headers),\
	$(shell $(srctree)/kernel/ksrc-header.sh $(KSRC) $(h) ksrc/include/linux/$(notdir $(h))))
$(shell $(srctree)/kernel/ksrc-shim-header.sh $(KSRC)/drivers/vhost/vhost.c \
	sched/vhost_task.h ksrc/include/linux/sched/vhost_task.h)
$(shell $(srctree)/kernel/ksrc-shim-header.sh $(KSRC)/drivers/vhost/vhost.h \
	kcov.h ksrc/include/linux/kcov.h)
# The rig's own device on the core, kernel/vhost_batch.c (VIRTIO_F_IN_ORDER,
# batched used entries), is built where the core has the in-order path:
# where vhost_add_used_n() takes nheads, 4 arguments (kernel/ksrc-features.sh).
ksrc-add-used-n := $(shell $(srctree)/kernel/ksrc-features.sh $(KSRC)/drivers/vhost/vhost.h | \
	awk '$$2 == "RIG_VHOST_ADD_USED_N_ARGS" { print $$3 }')
$(if $(filter-out 3 4,$(ksrc-add-used-n)),$(error KSRC=$(KSRC): drivers/vhost/vhost.h declares vhost_add_used_n() with $(ksrc-add-used-n) arguments, a form the rig does not know: extend kernel/vhost_batch.c and kernel/ksrc-build.mk))
VHOST_BATCH_OBJS := $(if $(filter 4,$(ksrc-add-used-n)),kernel/vhost_batch.o,kernel/no_vhost_batch.o)
VHOST_CORE_OBJS := kernel/vhost_core.o kernel/vhost_core_serve.o $(VHOST_BATCH_OBJS) \
	linux/task.o linux/eventfd.o ksrc/vhost.o ksrc/vhost_test_mod.o
# The tree's IOTLB (and its vhost_iotlb.h) for every program of this build,
# vringh's IOTLB accessors included, instead of linux/vhost_iotlb.c.
KSRC_IOTLB_OBJS := ksrc/iotlb.o
kernel/vhost_core.o kernel/vhost_core_serve.o kernel/vhost_batch.o: \
	ALL_CFLAGS += -I$(KSRC)/drivers/vhost
# The tree's vhost.h, included by kernel/vhost_core_serve.c and
# kernel/vhost_batch.c, is the kernel's.
kernel/vhost_core_serve.o kernel/vhost_batch.o: ALL_CFLAGS += $(KSRC_WARN)
ksrc/vhost.o: $(KSRC)/drivers/vhost/vhost.c
ksrc/iotlb.o: $(KSRC)/drivers/vhost/iotlb.c
ksrc/vhost_test_mod.o: $(KSRC)/drivers/vhost/test.c
ksrc/vhost.o ksrc/iotlb.o ksrc/vhost_test_mod.o: $(RIG_CONFIG)
	$(quiet) CC $@
	$(Q)mkdir -p $(@D)
	$(Q)$(ksrc-cc) $(ALL_CFLAGS) $(KSRC_WARN) -c -o $@ $(filter $(KSRC)/%.c,$^)
# vhost-net (drivers/vhost/net.c), unmodified, with the core, for
# vhost_net_test (kernel/vhost_net.c drives it through its file
# operations, its backend the rig's packet socket, net/af_packet.c).  The
# network device's uapi header is the tree's, for every program of the
# build, as the vhost uapi is.  A tree without net.c: no vhost-net.
ifneq ($(wildcard $(KSRC)/drivers/vhost/net.c),)
$(shell $(srctree)/kernel/ksrc-header.sh $(KSRC) uapi/linux/virtio_net.h \
	ksrc/include/uapi/linux/virtio_net.h)
VHOST_NET_OBJS := kernel/vhost_net.o ksrc/vhost_net_mod.o net/af_packet.o \
	linux/net.o linux/file.o linux/miscdevice.o
ksrc/vhost_net_mod.o: $(KSRC)/drivers/vhost/net.c $(RIG_CONFIG)
	$(quiet) CC $@
	$(Q)mkdir -p $(@D)
	$(Q)$(ksrc-cc) $(ALL_CFLAGS) $(KSRC_WARN) -c -o $@ $(filter $(KSRC)/%.c,$^)
else
$(shell rm -f ksrc/include/uapi/linux/virtio_net.h)
endif
else
$(shell rm -f ksrc/include/linux/sched/vhost_task.h ksrc/include/linux/kcov.h \
	ksrc/include/uapi/linux/virtio_net.h)
endif
