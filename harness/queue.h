/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Devices and queues (queue.c): a virtio_device, a split or packed queue
 * made with the linked driver (the rig's or a kernel tree's), and what
 * the linked ring code can do (a SKIP unless it can).
 */
#ifndef RIG_HARNESS_QUEUE_H
#define RIG_HARNESS_QUEUE_H

#include <stdbool.h>
#include <stddef.h>

#include <linux/virtio.h>
#include <linux/virtio_ring.h>

#define RIG_RING_ALIGN		4096	/* split rings: the used ring's alignment */
#define RIG_RING_MAX		32768	/* most entries a ring may have */

/* A virtio_device with nothing but @features, ready for queues. */
void rig_vdev_init(struct virtio_device *vdev, u64 features);

/* A queue's ring: its parts, as one side sees them. */
struct rig_ring {
	unsigned int num;
	bool packed;
	struct vring vring;			/* split */
	struct vring_packed vring_packed;	/* packed */
};

/* Bytes a ring of @num entries takes on memory given to rig_queue_create(). */
size_t rig_ring_bytes(unsigned int num, bool packed);

/* A driver's queue and where its ring is. */
struct rig_queue {
	struct virtqueue *vq;
	struct rig_ring ring;		/* the driver's view */
	void *owned;			/* ring memory the harness allocated */
};

/*
 * Make a queue of @num entries with the linked driver: split, or packed if
 * @vdev has VIRTIO_F_RING_PACKED.  The ring goes on @mem (zeroed first,
 * rig_ring_bytes() long, 4096-aligned), or with @mem NULL on memory the
 * harness allocates.  A kernel tree's driver cannot put a packed ring on
 * given memory: vring_create_virtqueue() allocates it, @mem is unused, and
 * the ring is wherever virtqueue_get_desc_addr() and friends say.
 * False (nothing to destroy) if the driver refused.
 */
bool rig_queue_create(struct rig_queue *q, struct virtio_device *vdev,
		      unsigned int num, void *mem, bool ctx,
		      bool (*notify)(struct virtqueue *),
		      void (*callback)(struct virtqueue *), const char *name);
/* As rig_queue_create(), dying if the driver refuses. */
void rig_queue_make(struct rig_queue *q, struct virtio_device *vdev,
		    unsigned int num, void *mem, bool ctx,
		    bool (*notify)(struct virtqueue *),
		    void (*callback)(struct virtqueue *), const char *name);
void rig_queue_destroy(struct rig_queue *q);
/*
 * The next buffer the device used on @vq (virtqueue_get_buf(), its used
 * length in *@len), NULL when there is none.  The buffers come back in
 * the order they were added: the token must be @want, else the check
 * fails naming the buffer, "@what 0x@n".
 */
void *rig_queue_next_used(struct virtqueue *vq, unsigned int *len, const void *want,
			  const char *what, unsigned long n);
/*
 * The ring's shared state as one line into @buf (@len bytes), for a
 * report of where a run stopped: split, the avail and used indices and
 * flags and both event index fields; packed, both event suppression
 * structures.  @vdev gives the byte order of a split ring.  Returns @buf.
 */
const char *rig_ring_describe(const struct rig_ring *r,
			      const struct virtio_device *vdev,
			      char *buf, size_t len);

/* Which rings and features the linked host and guest code have. */
bool rig_host_has_packed(void);		/* vringh_init_packed_*() */
bool rig_host_has_in_order(void);	/* vringh_complete_batch_*() */
/* Does the driver keep VIRTIO_F_IN_ORDER (vring_transport_features())? */
bool rig_guest_keeps_in_order(void);

/*
 * SKIP (exit 77) unless the linked code has what @opt (an option name, for
 * the message) needs: a packed vringh; VIRTIO_F_IN_ORDER in the driver and,
 * if @host, in vringh.
 */
void rig_require_packed_host(const char *opt);
void rig_require_in_order(const char *opt, bool host);

#endif /* RIG_HARNESS_QUEUE_H */
