/* SPDX-License-Identifier: GPL-2.0 */
/*
 * XDP buffers: vhost-net builds them for a tun device's transmit batches,
 * which the rig never takes (linux/page_frag_cache.h); the buffers are
 * here as the kernel lays them out, set up by the same two helpers.
 */
#ifndef __LINUX_NET_XDP_H__
#define __LINUX_NET_XDP_H__

#include <linux/types.h>

#define XDP_PACKET_HEADROOM	256

struct xdp_rxq_info;

struct xdp_buff {
	void *data;
	void *data_end;
	void *data_meta;
	void *data_hard_start;
	struct xdp_rxq_info *rxq;
	u32 frame_sz;
	u32 flags;
};

struct xdp_frame {
	void *data;
	u32 len;
	u32 headroom;
	u32 metasize;
	u32 frame_sz;
	u32 flags;
};

static inline void xdp_init_buff(struct xdp_buff *xdp, u32 frame_sz,
				 struct xdp_rxq_info *rxq)
{
	xdp->frame_sz = frame_sz;
	xdp->rxq = rxq;
	xdp->flags = 0;
}

static inline void xdp_prepare_buff(struct xdp_buff *xdp, unsigned char *hard_start,
				    int headroom, int data_len, const bool meta_valid)
{
	unsigned char *data = hard_start + headroom;

	xdp->data_hard_start = hard_start;
	xdp->data = data;
	xdp->data_end = data + data_len;
	xdp->data_meta = meta_valid ? data : data + 1;
}

#endif /* __LINUX_NET_XDP_H__ */
