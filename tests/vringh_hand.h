/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A split ring written by hand for vringh to read: a descriptor written,
 * a head made available, each in the byte order @vrh reads the ring in
 * (legacy or virtio 1.x), and vringh's getdesc on it with what the ring
 * code printed captured (tests/said.h).  The programs that test vringh
 * against a hostile ring (tests/edges.c, tests/hostile_host.c) share
 * these; their own set_desc() and offer() name their ring.
 */
#ifndef TESTS_VRINGH_HAND_H
#define TESTS_VRINGH_HAND_H

#include <linux/virtio_ring.h>
#include <linux/vringh.h>

#include "tests/said.h"

/* Write descriptor @d as @vrh will read it. */
static inline void vringh_hand_set_desc(const struct vringh *vrh, struct vring_desc *d,
					u64 addr, u32 len, u16 flags, u16 next)
{
	d->addr = cpu_to_vringh64(vrh, addr);
	d->len = cpu_to_vringh32(vrh, len);
	d->flags = cpu_to_vringh16(vrh, flags);
	d->next = cpu_to_vringh16(vrh, next);
}

/* Make @head the next entry of @vr's avail ring, and publish it. */
static inline void vringh_hand_offer(const struct vringh *vrh, struct vring *vr, u16 head)
{
	u16 idx = vringh16_to_cpu(vrh, vr->avail->idx);

	vr->avail->ring[idx % vr->num] = cpu_to_vringh16(vrh, head);
	vr->avail->idx = cpu_to_vringh16(vrh, idx + 1);
}

typedef bool vringh_hand_range_fn(struct vringh *vrh, u64 addr, struct vringh_range *r);

/*
 * vringh_getdesc_user() on @vrh into @riov and @wiov, what the ring code
 * printed captured (*@said: how many bytes); its result.
 */
static inline int vringh_hand_getdesc_iov(struct vringh *vrh, vringh_hand_range_fn *getrange,
					  struct vringh_iov *riov, struct vringh_iov *wiov,
					  u16 *head, size_t *said)
{
	int err;

	capture_begin();
	err = vringh_getdesc_user(vrh, riov, wiov, getrange, head);
	*said = capture_end();
	return err;
}

/* The same into fresh iovs of 4 entries each, dropped after. */
static inline int vringh_hand_getdesc(struct vringh *vrh, vringh_hand_range_fn *getrange,
				      u16 *head, size_t *said)
{
	struct iovec rstack[4], wstack[4];
	struct vringh_iov riov, wiov;
	int err;

	vringh_iov_init(&riov, rstack, 4);
	vringh_iov_init(&wiov, wstack, 4);
	err = vringh_hand_getdesc_iov(vrh, getrange, &riov, &wiov, head, said);
	vringh_iov_cleanup(&riov);
	vringh_iov_cleanup(&wiov);
	return err;
}

#endif
