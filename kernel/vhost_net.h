/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's vhost-net (drivers/vhost/net.c) with its vhost core,
 * compiled unmodified from a kernel tree (KSRC=), driven as the kernel's
 * tools/virtio/vhost_net_test drives /dev/vhost-net: the module loaded
 * (its init registers the misc device), then the device's own file
 * operations: open, VHOST_SET_OWNER, GET_FEATURES, SET_MEM_TABLE,
 * SET_FEATURES, each queue's SET_VRING_*, and VHOST_NET_SET_BACKEND with
 * a socket.  The socket is the rig's raw packet socket (net/af_packet.h),
 * the backend a kernel without tun and tap devices offers: what vhost-net
 * transmits lands in its sink, what the test puts on its wire is what
 * vhost-net receives.
 *
 * The device is a vhost core (kernel/vhost_core.h): guest memory, the
 * driver's allocations and vq_err() are vhost_core_alloc(), _guest() and
 * _failed() on vhost_net_core().  kernel/vhost_net.c; without a tree
 * that has net.c, kernel/no_vhost_net.c, where vhost_net_open() says why.
 */
#ifndef RIG_KERNEL_VHOST_NET_H
#define RIG_KERNEL_VHOST_NET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "net/af_packet.h"

/* The queues, as net.c numbers them. */
#define VHOST_NET_RX	0
#define VHOST_NET_TX	1

struct vhost_core;
struct vhost_net_dev;

/*
 * Open vhost-net with @mem_bytes of guest memory, its threads pinned to
 * CPU @cpu (or -1), and a packet socket shaped by @wire for its backend;
 * NULL and *@why if not.
 */
struct vhost_net_dev *vhost_net_open(size_t mem_bytes, int cpu,
				     const struct rig_packet_opts *wire,
				     const char **why);
/* Release the device's file, then close the socket's descriptor. */
void vhost_net_close(struct vhost_net_dev *d);

struct vhost_core *vhost_net_core(struct vhost_net_dev *d);
/* The descriptor the socket is installed as (VHOST_NET_SET_BACKEND's). */
int vhost_net_socket_fd(struct vhost_net_dev *d);
/* The socket's wire: rig_packet_deliver(), _take() and _stats() on it. */
int vhost_net_deliver(struct vhost_net_dev *d, const void *hdr, const void *frame,
		      unsigned int len);
long vhost_net_take(struct vhost_net_dev *d, void *buf, size_t len);
/*
 * An eventfd readable once frames wait on the wire (read it before
 * taking them), or -1 when the socket wakes nobody (opts.wake false).
 */
int vhost_net_wire_fd(struct vhost_net_dev *d);
void vhost_net_stats(struct vhost_net_dev *d, struct rig_packet_stats *s);

/*
 * VHOST_SET_FEATURES: @features, and VHOST_NET_F_VIRTIO_NET_HDR when the
 * socket carries no header (vhost-net then strips and supplies it).  Each
 * ioctl here returns 0 or -errno, with *@what the request that failed.
 */
int vhost_net_set_features(struct vhost_net_dev *d, uint64_t features, const char **what);
/* VHOST_NET_SET_BACKEND of queue @index: descriptor @fd, -1 to detach it. */
int vhost_net_backend(struct vhost_net_dev *d, unsigned int index, int fd,
		      const char **what);
/* VHOST_GET_VRING_BASE and VHOST_SET_VRING_BASE of queue @index. */
int vhost_net_get_base(struct vhost_net_dev *d, unsigned int index, uint16_t *base,
		       const char **what);
int vhost_net_set_base(struct vhost_net_dev *d, unsigned int index, uint16_t base,
		       const char **what);

#endif /* RIG_KERNEL_VHOST_NET_H */
