/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vringh_test's parts: main and options (vringh_test.c), the
 * single-threaded scenarios (vringh_test_scenarios.c) and the parallel test
 * (vringh_test_parallel.c).  What they share is here.
 */
#ifndef VRINGH_TEST_H
#define VRINGH_TEST_H

#include <linux/virtio.h>
#include <linux/virtio_config.h>
#include <linux/virtio_ring.h>
#include <linux/vringh.h>
#include <linux/uaccess.h>

#include "harness/harness.h"

#define RING_SIZE	256
#define RING_BYTES	16384	/* >= rig_ring_bytes(RING_SIZE, split or packed) */
/*
 * Per-buffer slots for indirect tables and data: one more than the ring
 * holds, so the slot of the buffer being added is never one in flight.
 */
#define SLOTS		(RING_SIZE + 1)
#define INDIRECT_BYTES	(SLOTS * 4 * sizeof(struct vring_desc))
#define DATA_BYTES	(1 << 20)
#define USER_MEM	(RING_BYTES + INDIRECT_BYTES + DATA_BYTES)
#define DEFAULT_XFERS	10000000UL

/* Where things live inside the shared memory, as offsets. */
#define OFF_INDIRECT	RING_BYTES
#define OFF_DATA	(RING_BYTES + INDIRECT_BYTES)

struct vringh_test_options {
	u64 features;
	int slow_range;		/* int: getopt_long sets the flag options */
	int fast_vringh;
	int parallel;
	bool packed;
	bool in_order;
	unsigned long batch;		/* --in-order=N: most per used entry */
	unsigned long xfers;
	bool json;			/* --json (--parallel) */
};

extern struct vringh_test_options opt;

/*
 * Packed rings (--packed) need the rig's vringh: the kernel's has none, and
 * main() says SKIP.  In order (--in-order) needs vringh_complete_batch_user()
 * (not in Linux 6.12) and a driver that keeps VIRTIO_F_IN_ORDER: else SKIP.
 */
#ifdef vringh_init_packed_user
#define HAVE_PACKED_HOST	1
#else
#define HAVE_PACKED_HOST	0
#endif
#ifdef vringh_complete_batch_user
#define HAVE_IN_ORDER_HOST	1
#else
#define HAVE_IN_ORDER_HOST	0
#endif

/*
 * A queue of RING_SIZE with @features, its ring at @mem (the
 * guest's view of the start of the shared memory), or for a packed queue
 * from a kernel driver, where that driver put it.
 */
void new_queue(struct rig_queue *q, struct virtio_device *vdev, u64 features,
	       void *mem, bool ctx, bool (*notify)(struct virtqueue *),
	       void (*callback)(struct virtqueue *), const char *name);
/* The host's vringh on @q's ring, seen through @shm's host mapping. */
void init_host(struct vringh *vrh, const struct rig_queue *q,
	       const struct rig_shm *shm);
/* Return the @count oldest buffers taken, @head's the last, in one entry. */
void host_complete_batch(struct vringh *vrh, u16 head, u32 len,
			 unsigned int count);

void run_single(void);		/* vringh_test_scenarios.c */
void run_parallel(void);	/* vringh_test_parallel.c */

#endif /* VRINGH_TEST_H */
