/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The network device's header and the feature bits the rig's vhost-net
 * programs use (virtio 1.2, section 5.1).  Names and layouts follow the
 * Linux uapi header, which a kernel tree's build uses in place of this one.
 */
#ifndef _UAPI_LINUX_VIRTIO_NET_H
#define _UAPI_LINUX_VIRTIO_NET_H

#include <linux/types.h>
#include <linux/virtio_types.h>

#define VIRTIO_NET_F_MRG_RXBUF		15	/* merges receive buffers */

/* flags */
#define VIRTIO_NET_HDR_F_NEEDS_CSUM	1	/* csum_start, csum_offset */
#define VIRTIO_NET_HDR_F_DATA_VALID	2	/* the checksum is valid */
/* gso_type */
#define VIRTIO_NET_HDR_GSO_NONE		0

/* The header before every packet (5.1.6), without num_buffers. */
struct virtio_net_hdr {
	__u8 flags;
	__u8 gso_type;
	__virtio16 hdr_len;
	__virtio16 gso_size;
	__virtio16 csum_start;
	__virtio16 csum_offset;
};

/*
 * With VIRTIO_NET_F_MRG_RXBUF or VIRTIO_F_VERSION_1: the header with the
 * number of receive buffers a packet spans.
 */
struct virtio_net_hdr_mrg_rxbuf {
	struct virtio_net_hdr hdr;
	__virtio16 num_buffers;
};

#endif /* _UAPI_LINUX_VIRTIO_NET_H */
