/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pointer rings: a tun or tap device queues its frames on one, and
 * vhost-net takes them in batches from there.  The rig has no tun or tap
 * device (linux/if_tun.h), so vhost-net never holds a ring: its calls are
 * declared, and stop the program if ever reached.
 */
#ifndef _LINUX_PTR_RING_H
#define _LINUX_PTR_RING_H

#include <linux/types.h>
#include <linux/bug.h>
#include <linux/spinlock.h>

struct ptr_ring {
	spinlock_t producer_lock;
	spinlock_t consumer_lock;
	int size;
	void **queue;
};

static inline int __ptr_ring_consume_batched(struct ptr_ring *r, void **array, int n)
{
	(void)r, (void)array, (void)n;
	BUG();
	return 0;
}

static inline int ptr_ring_consume_batched(struct ptr_ring *r, void **array, int n)
{
	return __ptr_ring_consume_batched(r, array, n);
}

static inline void ptr_ring_unconsume(struct ptr_ring *r, void **batch, int n,
				      void (*destroy)(void *))
{
	(void)r, (void)batch, (void)n, (void)destroy;
	BUG();
}

#endif /* _LINUX_PTR_RING_H */
