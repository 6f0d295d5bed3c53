/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest's hand on a split ring that vringh serves: a descriptor
 * written, a head made available, each in the byte order @vrh reads the
 * ring in (legacy or virtio 1.x).  The programs that test vringh against
 * a ring they write by hand (tests/edges.c, tests/hostile_host.c) share
 * these; their own set_desc() and offer() name their ring.
 */
#ifndef TESTS_VRINGH_GUEST_H
#define TESTS_VRINGH_GUEST_H

#include <linux/virtio_ring.h>
#include <linux/vringh.h>

/* Write descriptor @d as @vrh will read it. */
static inline void vringh_guest_set_desc(const struct vringh *vrh, struct vring_desc *d,
					 u64 addr, u32 len, u16 flags, u16 next)
{
	d->addr = cpu_to_vringh64(vrh, addr);
	d->len = cpu_to_vringh32(vrh, len);
	d->flags = cpu_to_vringh16(vrh, flags);
	d->next = cpu_to_vringh16(vrh, next);
}

/* Make @head the next entry of @vr's avail ring, and publish it. */
static inline void vringh_guest_offer(const struct vringh *vrh, struct vring *vr, u16 head)
{
	u16 idx = vringh16_to_cpu(vrh, vr->avail->idx);

	vr->avail->ring[idx % vr->num] = cpu_to_vringh16(vrh, head);
	vr->avail->idx = cpu_to_vringh16(vrh, idx + 1);
}

#endif
