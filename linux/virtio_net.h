/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The network device's header and feature bits: the uapi header (a kernel
 * tree's own where the build has one, kernel/ksrc-build.mk).  The kernel's
 * helpers that turn a header into an sk_buff's offload state are not
 * here: vhost-net passes headers through without them.
 */
#ifndef _LINUX_VIRTIO_NET_H
#define _LINUX_VIRTIO_NET_H

#include <uapi/linux/virtio_net.h>

#endif /* _LINUX_VIRTIO_NET_H */
