/* SPDX-License-Identifier: GPL-2.0 */
/* Creating and driving a virtqueue's ring (Linux 6.12 API). */
#ifndef _LINUX_VIRTIO_RING_H
#define _LINUX_VIRTIO_RING_H

#include <asm/barrier.h>
#include <linux/irqreturn.h>
#include <uapi/linux/virtio_ring.h>

/*
 * Weak barriers order memory between CPUs only (the device is another CPU);
 * strong ones also order against real hardware.
 */
static inline void virtio_mb(bool weak_barriers)
{
	if (weak_barriers)
		virt_mb();
	else
		mb();
}

static inline void virtio_rmb(bool weak_barriers)
{
	if (weak_barriers)
		virt_rmb();
	else
		dma_rmb();
}

static inline void virtio_wmb(bool weak_barriers)
{
	if (weak_barriers)
		virt_wmb();
	else
		dma_wmb();
}

#define virtio_store_mb(weak_barriers, p, v)		\
do {							\
	if (weak_barriers) {				\
		virt_store_mb(*(p), (v));		\
	} else {					\
		WRITE_ONCE(*(p), (v));			\
		mb();					\
	}						\
} while (0)

struct virtio_device;
struct virtqueue;
struct device;

struct virtqueue *vring_create_virtqueue(unsigned int index,
					 unsigned int num,
					 unsigned int vring_align,
					 struct virtio_device *vdev,
					 bool weak_barriers,
					 bool may_reduce_num,
					 bool ctx,
					 bool (*notify)(struct virtqueue *vq),
					 void (*callback)(struct virtqueue *vq),
					 const char *name);

struct virtqueue *vring_create_virtqueue_dma(unsigned int index,
					     unsigned int num,
					     unsigned int vring_align,
					     struct virtio_device *vdev,
					     bool weak_barriers,
					     bool may_reduce_num,
					     bool ctx,
					     bool (*notify)(struct virtqueue *vq),
					     void (*callback)(struct virtqueue *vq),
					     const char *name,
					     struct device *dma_dev);

struct virtqueue *vring_new_virtqueue(unsigned int index,
				      unsigned int num,
				      unsigned int vring_align,
				      struct virtio_device *vdev,
				      bool weak_barriers,
				      bool ctx,
				      void *pages,
				      bool (*notify)(struct virtqueue *vq),
				      void (*callback)(struct virtqueue *vq),
				      const char *name);

/*
 * A rig extension, not in Linux: a packed virtqueue on ring memory the
 * caller owns (Linux's vring_new_virtqueue() is split-only), so that a
 * device thread or process can share the ring.  Lay the memory out with
 * vring_packed_init() or pass the three parts separately.  In a kernel
 * tree, packed queues come only from vring_create_virtqueue(); programs
 * test "#ifdef vring_new_virtqueue_packed" for this one.
 */
struct virtqueue *
vring_new_virtqueue_packed(unsigned int index,
			   unsigned int num,
			   struct virtio_device *vdev,
			   bool weak_barriers,
			   bool ctx,
			   struct vring_packed_desc *desc,
			   struct vring_packed_desc_event *driver,
			   struct vring_packed_desc_event *device,
			   bool (*notify)(struct virtqueue *vq),
			   void (*callback)(struct virtqueue *vq),
			   const char *name);
#define vring_new_virtqueue_packed vring_new_virtqueue_packed

void vring_del_virtqueue(struct virtqueue *vq);

void vring_transport_features(struct virtio_device *vdev);

irqreturn_t vring_interrupt(int irq, void *_vq);

u32 vring_notification_data(struct virtqueue *_vq);

#endif /* _LINUX_VIRTIO_RING_H */
