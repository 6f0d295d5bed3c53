/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tun devices, as a kernel built without them (CONFIG_TUN unset) offers
 * them to vhost-net: no file is a tun device's, so vhost-net's backend is
 * a raw packet socket, never a tun queue with its ring of frames, its XDP
 * batches or its zero-copy.  The rig's kernel is such a kernel.
 */
#ifndef __IF_TUN_H
#define __IF_TUN_H

#include <linux/err.h>
#include <linux/bug.h>
#include <linux/file.h>
#include <linux/virtio_net.h>
#include <net/xdp.h>

#define TUN_XDP_FLAG	0x1UL

#define TUN_MSG_UBUF	1
#define TUN_MSG_PTR	2
struct tun_msg_ctl {
	unsigned short type;
	unsigned short num;
	void *ptr;
};

struct tun_xdp_hdr {
	int buflen;
	struct virtio_net_hdr gso;
};

struct socket;
struct ptr_ring;

static inline struct socket *tun_get_socket(struct file *f)
{
	(void)f;
	return ERR_PTR(-EINVAL);
}

static inline struct ptr_ring *tun_get_tx_ring(struct file *f)
{
	(void)f;
	return ERR_PTR(-EINVAL);
}

static inline bool tun_is_xdp_frame(void *ptr)
{
	return (unsigned long)ptr & TUN_XDP_FLAG;
}

static inline struct xdp_frame *tun_ptr_to_xdp(void *ptr)
{
	return (void *)((unsigned long)ptr & ~TUN_XDP_FLAG);
}

/* A frame of a tun device's ring: there are none. */
static inline void tun_ptr_free(void *ptr)
{
	(void)ptr;
	BUG();
}

static inline void tun_wake_queue(struct file *f, int n)
{
	(void)f, (void)n;
	BUG();
}

#endif /* __IF_TUN_H */
