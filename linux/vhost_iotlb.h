/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A device's I/O translation table, as vringh's IOTLB accessors read it:
 * ranges of I/O addresses [start, last], each mapped to memory at addr
 * with permissions.  The rig's own table (shim.c) is a sorted array, not
 * the kernel's interval tree; its API is the part vringh and a test need.
 */
#ifndef _LINUX_VHOST_IOTLB_H
#define _LINUX_VHOST_IOTLB_H

#include <linux/types.h>

#define VHOST_MAP_RO	0x1
#define VHOST_MAP_WO	0x2
#define VHOST_MAP_RW	0x3

struct vhost_iotlb_map {
	u64 start;
	u64 last;
	u64 size;
	u64 addr;
	u32 perm;
	void *opaque;
};

#define RIG_IOTLB_MAPS	64

struct vhost_iotlb {
	unsigned int nmaps;
	struct vhost_iotlb_map maps[RIG_IOTLB_MAPS];	/* by start */
};

void vhost_iotlb_init(struct vhost_iotlb *iotlb, unsigned int limit,
		      unsigned int flags);
/* Map [@start, @last] to @addr; -EINVAL if it overlaps, -ENOMEM if full. */
int vhost_iotlb_add_range(struct vhost_iotlb *iotlb, u64 start, u64 last,
			  u64 addr, unsigned int perm);
/* Remove every map. */
void vhost_iotlb_reset(struct vhost_iotlb *iotlb);
/* The first map that overlaps [@start, @last], or NULL. */
struct vhost_iotlb_map *vhost_iotlb_itree_first(struct vhost_iotlb *iotlb,
						u64 start, u64 last);

#endif /* _LINUX_VHOST_IOTLB_H */
