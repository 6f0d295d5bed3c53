// SPDX-License-Identifier: GPL-2.0
/* The I/O translation table of linux/vhost_iotlb.h: a sorted array. */
#include <errno.h>
#include <string.h>
#include <linux/vhost_iotlb.h>

void vhost_iotlb_init(struct vhost_iotlb *iotlb,
		      unsigned int limit __attribute__((unused)),
		      unsigned int flags __attribute__((unused)))
{
	iotlb->nmaps = 0;
}

void vhost_iotlb_reset(struct vhost_iotlb *iotlb)
{
	iotlb->nmaps = 0;
}

int vhost_iotlb_add_range(struct vhost_iotlb *iotlb, u64 start, u64 last,
			  u64 addr, unsigned int perm)
{
	unsigned int i;

	if (last < start)
		return -EINVAL;
	if (iotlb->nmaps == RIG_IOTLB_MAPS)
		return -ENOMEM;
	for (i = 0; i < iotlb->nmaps && iotlb->maps[i].start < start; i++)
		;
	if ((i > 0 && iotlb->maps[i - 1].last >= start) ||
	    (i < iotlb->nmaps && iotlb->maps[i].start <= last))
		return -EINVAL;
	memmove(&iotlb->maps[i + 1], &iotlb->maps[i],
		(iotlb->nmaps - i) * sizeof(iotlb->maps[0]));
	iotlb->maps[i] = (struct vhost_iotlb_map){
		.start = start, .last = last, .size = last - start + 1,
		.addr = addr, .perm = perm,
	};
	iotlb->nmaps++;
	return 0;
}

struct vhost_iotlb_map *vhost_iotlb_itree_first(struct vhost_iotlb *iotlb,
						u64 start, u64 last)
{
	unsigned int i;

	for (i = 0; i < iotlb->nmaps; i++)
		if (iotlb->maps[i].last >= start && iotlb->maps[i].start <= last)
			return &iotlb->maps[i];
	return NULL;
}
