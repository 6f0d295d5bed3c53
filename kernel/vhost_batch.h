/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rig's own vhost device, kernel/vhost_batch.c: a device on the
 * kernel's vhost core (drivers/vhost/vhost.c of a tree) as the tree's test
 * device is, with the same ioctls, that also offers VIRTIO_F_IN_ORDER and
 * returns the buffers it takes in batches with vhost_add_used_n().  Built
 * only from a tree whose vhost core has the in-order path
 * (kernel/ksrc-build.mk); kernel/no_vhost_batch.c otherwise.
 */
#ifndef RIG_KERNEL_VHOST_BATCH_H
#define RIG_KERNEL_VHOST_BATCH_H

#include <linux/types.h>

/*
 * VHOST_BATCH_SET_SIZE (an int, 1..65535): with VIRTIO_F_IN_ORDER, the
 * most buffers one used entry returns; by default the queue size (every
 * buffer the device finds before the ring is empty).  The device's own
 * ioctl, numbered beside the test device's (drivers/vhost/test.h).
 */
#define VHOST_BATCH_SET_SIZE	_IOW(VHOST_VIRTIO, 0x33, int)
#define VHOST_BATCH_SIZE_MAX	65535

struct miscdevice;
struct vhost_virtqueue;

/* The device (module_misc_device()), or NULL where it is not built. */
extern struct miscdevice *const rig_misc_vhost_batch_misc;

/*
 * vhost_batch_serve() - the device's work on a kick: every available
 * buffer taken, used in batches and signalled.  kernel/vhost_batch.c.
 */
int vhost_batch_serve(struct vhost_virtqueue *vq, bool weighed);

#endif /* RIG_KERNEL_VHOST_BATCH_H */
