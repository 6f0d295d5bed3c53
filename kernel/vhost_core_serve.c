// SPDX-License-Identifier: GPL-2.0
/*
 * The test device's work on a kick, done in the caller's thread with the
 * vhost core's exported functions (kernel/vhost_core.h).
 */
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include "vhost.h"		/* the tree's drivers/vhost/vhost.h */

#include "kernel/vhost_batch.h"
#include "kernel/vhost_core.h"

int vhost_core_serve(struct vhost_core *h)
{
	struct vhost_dev *d = vhost_core_dev(h);
	struct vhost_virtqueue *vq = d->vqs[0];
	unsigned int out, in;
	int used = 0;
	int head;

	mutex_lock(&vq->mutex);
	if (vhost_core_which(h) == VHOST_CORE_BATCH) {
		/* The batch device's own worker function, until empty. */
		used = vhost_batch_serve(vq, false);
		mutex_unlock(&vq->mutex);
		return used;
	}
	vhost_disable_notify(d, vq);
	for (;;) {
		head = vhost_get_vq_desc(vq, vq->iov, ARRAY_SIZE(vq->iov), &out, &in,
					 NULL, NULL);
		if (head < 0)
			break;
		if (head == vq->num) {
			/* Empty: notifications on, then one more look. */
			if (unlikely(vhost_enable_notify(d, vq))) {
				vhost_disable_notify(d, vq);
				continue;
			}
			break;
		}
		head = vhost_add_used(vq, head, 0);
		if (head < 0)
			break;
		used++;
	}
	if (used)
		vhost_signal(d, vq);
	mutex_unlock(&vq->mutex);
	return head < 0 ? head : used;
}

int vhost_core_kick(struct vhost_core *h, unsigned int index)
{
	struct kmalloc_arena *guest = __kmalloc_arena;
	struct vhost_dev *d = vhost_core_dev(h);
	struct vhost_virtqueue *vq;

	if (index >= (unsigned int)d->nvqs)
		return -EINVAL;
	vq = d->vqs[index];
	if (!vq->handle_kick)
		return -EINVAL;
	/* The device allocates its own memory, never the guest's. */
	__kmalloc_arena = NULL;
	vq->handle_kick(&vq->poll.work);
	__kmalloc_arena = guest;
	return 0;
}

void vhost_core_flush(struct vhost_core *h)
{
	vhost_dev_flush(vhost_core_dev(h));
}
