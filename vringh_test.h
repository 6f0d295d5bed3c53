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

#include "harness/arena.h"
#include "harness/harness.h"

#define RING_SIZE	256
#define RING_BYTES	16384	/* >= rig_ring_bytes(RING_SIZE, split or packed) */
/*
 * Indirect tables: the ring code's, from a kmalloc arena over this area
 * (harness/arena.h: each as big as the ring code asks, a guard after it),
 * or, in scenarios whose guest makes none, the test's own, laid by hand.
 */
#define INDIRECT_BYTES	(1 << 20)
/* Per-buffer data slots: one more than the ring holds. */
#define SLOTS		(RING_SIZE + 1)
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
/*
 * Let the ring code's allocations in this thread (indirect tables) come
 * from @arena, over the indirect area of @shm's guest view (NULL: from the
 * allocator again).
 */
void guest_tables_arena(struct rig_arena *arena, const struct rig_shm *shm);
/* The host's vringh on @q's ring, seen through @shm's host mapping. */
void init_host(struct vringh *vrh, const struct rig_queue *q,
	       const struct rig_shm *shm);
/* Return the @count oldest buffers taken, @head's the last, in one entry. */
void host_complete_batch(struct vringh *vrh, u16 head, u32 len,
			 unsigned int count);

void run_single(void);		/* vringh_test_scenarios.c */
void run_parallel(void);	/* vringh_test_parallel.c */

#endif /* VRINGH_TEST_H */
