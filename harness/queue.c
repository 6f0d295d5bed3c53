// SPDX-License-Identifier: GPL-2.0
/*
 * Devices and queues: a virtio_device, a split or packed queue made with
 * whichever driver is linked (the rig's or a kernel tree's), and what the
 * linked ring code can do (the SKIP helpers).  See queue.h.
 *
 * The rig's driver puts a packed queue on memory we give it
 * (vring_new_virtqueue_packed(), a rig extension).  A kernel tree's driver
 * has no such call: vring_create_virtqueue() allocates the ring itself
 * (VIRTIO_F_RING_PACKED in the features), and the parts are found with
 * virtqueue_get_desc_addr(), _avail_addr() (the driver event suppression
 * structure) and _used_addr() (the device's).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/virtio.h>
#include <linux/virtio_config.h>
#include <linux/virtio_ring.h>
#include <linux/vringh.h>

#include "harness/cli.h"
#include "harness/outcome.h"
#include "harness/queue.h"

void rig_vdev_init(struct virtio_device *vdev, u64 features)
{
	memset(vdev, 0, sizeof(*vdev));
	INIT_LIST_HEAD(&vdev->vqs);
	spin_lock_init(&vdev->vqs_list_lock);
	vdev->features = features;
}

size_t rig_ring_bytes(unsigned int num, bool packed)
{
	size_t bytes = packed ? vring_packed_size(num) :
				vring_size(num, RIG_RING_ALIGN);

	return ALIGN(bytes, RIG_RING_ALIGN);
}

/* Where a kernel driver's packed ring is: it allocated it. */
static void __maybe_unused ring_from_vq(struct rig_ring *r,
					struct virtqueue *vq)
{
	r->vring_packed.num = r->num;
	r->vring_packed.desc = phys_to_virt(virtqueue_get_desc_addr(vq));
	r->vring_packed.driver = phys_to_virt(virtqueue_get_avail_addr(vq));
	r->vring_packed.device = phys_to_virt(virtqueue_get_used_addr(vq));
}

bool rig_queue_create(struct rig_queue *q, struct virtio_device *vdev,
		      unsigned int num, void *mem, bool ctx,
		      bool (*notify)(struct virtqueue *),
		      void (*callback)(struct virtqueue *), const char *name)
{
	bool packed = virtio_has_feature(vdev, VIRTIO_F_RING_PACKED);
	size_t bytes = rig_ring_bytes(num, packed);

	memset(q, 0, sizeof(*q));
	q->ring.num = num;
	q->ring.packed = packed;
#ifndef vring_new_virtqueue_packed
	if (packed) {
		q->vq = vring_create_virtqueue(0, num, RIG_RING_ALIGN, vdev,
					       true, false, ctx, notify,
					       callback, name);
		if (q->vq)
			ring_from_vq(&q->ring, q->vq);
		return q->vq;
	}
#endif
	if (!mem) {
		mem = q->owned = aligned_alloc(RIG_RING_ALIGN, bytes);
		if (!mem)
			rig_die("aligned_alloc(%zu)", bytes);
	}
	memset(mem, 0, bytes);
	if (packed) {
#ifdef vring_new_virtqueue_packed
		struct vring_packed *vp = &q->ring.vring_packed;

		vring_packed_init(vp, num, mem);
		q->vq = vring_new_virtqueue_packed(0, num, vdev, true, ctx,
						   vp->desc, vp->driver,
						   vp->device, notify,
						   callback, name);
#endif
	} else {
		vring_init(&q->ring.vring, num, mem, RIG_RING_ALIGN);
		q->vq = vring_new_virtqueue(0, num, RIG_RING_ALIGN, vdev, true,
					    ctx, mem, notify, callback, name);
	}
	if (!q->vq) {
		free(q->owned);
		q->owned = NULL;
	}
	return q->vq;
}

void rig_queue_make(struct rig_queue *q, struct virtio_device *vdev,
		    unsigned int num, void *mem, bool ctx,
		    bool (*notify)(struct virtqueue *),
		    void (*callback)(struct virtqueue *), const char *name)
{
	CHECKF(rig_queue_create(q, vdev, num, mem, ctx, notify, callback, name),
	       "the driver made no %s queue of %u entries",
	       virtio_has_feature(vdev, VIRTIO_F_RING_PACKED) ? "packed" : "split",
	       num);
}

void rig_queue_destroy(struct rig_queue *q)
{
	if (q->vq)
		vring_del_virtqueue(q->vq);
	free(q->owned);
	memset(q, 0, sizeof(*q));
}

void *rig_queue_next_used(struct virtqueue *vq, unsigned int *len, const void *want,
			  const char *what, unsigned long n)
{
	void *token = virtqueue_get_buf(vq, len);

	CHECKF(!token || token == want, "%s 0x%lx: got back token %p, expected %p",
	       what, n, token, want);
	return token;
}

const char *rig_ring_describe(const struct rig_ring *r,
			      const struct virtio_device *vdev,
			      char *buf, size_t len)
{
	const struct vring_packed *p = &r->vring_packed;
	const struct vring *v = &r->vring;
	struct virtio_device *d = (struct virtio_device *)vdev;

	if (r->packed)
		snprintf(buf, len,
			 "packed ring of %u: driver event flags %u off_wrap 0x%x, device event flags %u off_wrap 0x%x",
			 r->num,
			 le16_to_cpu(READ_ONCE(p->driver->flags)),
			 le16_to_cpu(READ_ONCE(p->driver->off_wrap)),
			 le16_to_cpu(READ_ONCE(p->device->flags)),
			 le16_to_cpu(READ_ONCE(p->device->off_wrap)));
	else
		snprintf(buf, len,
			 "split ring of %u: avail idx %u flags %u used_event %u, used idx %u flags %u avail_event %u",
			 r->num,
			 virtio16_to_cpu(d, READ_ONCE(v->avail->idx)),
			 virtio16_to_cpu(d, READ_ONCE(v->avail->flags)),
			 virtio16_to_cpu(d, READ_ONCE(vring_used_event(v))),
			 virtio16_to_cpu(d, READ_ONCE(v->used->idx)),
			 virtio16_to_cpu(d, READ_ONCE(v->used->flags)),
			 virtio16_to_cpu(d, READ_ONCE(vring_avail_event(v))));
	return buf;
}

bool rig_host_has_packed(void)
{
#ifdef vringh_init_packed_user
	return true;
#else
	return false;
#endif
}

bool rig_host_has_in_order(void)
{
#if defined(vringh_complete_batch_user) && defined(vringh_complete_batch_kern)
	return true;
#else
	return false;
#endif
}

bool rig_guest_keeps_in_order(void)
{
	struct virtio_device vdev;

	rig_vdev_init(&vdev, 1ULL << VIRTIO_F_IN_ORDER);
	vring_transport_features(&vdev);
	return virtio_has_feature(&vdev, VIRTIO_F_IN_ORDER);
}

void rig_require_packed_host(const char *opt)
{
	if (!rig_host_has_packed())
		rig_skip("%s: the host ring code (%s) has no packed vringh",
			 opt, rig_host_impl());
}

void rig_require_in_order(const char *opt, bool host)
{
	if (host && !rig_host_has_in_order())
		rig_skip("%s: the host ring code (%s) has no VIRTIO_F_IN_ORDER (no vringh_complete_batch_*)",
			 opt, rig_host_impl());
	if (!rig_guest_keeps_in_order())
		rig_skip("%s: the guest ring code (%s) drops VIRTIO_F_IN_ORDER in vring_transport_features()",
			 opt, rig_guest_impl());
}
