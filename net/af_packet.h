/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rig's raw packet socket (AF_PACKET, SOCK_RAW): the socket a
 * kernel's vhost-net accepts as its backend (net.c's get_raw_socket()),
 * bound to a network device's wire that the test holds the other end of.
 * A frame the socket's user sends (its sendmsg) lands in the sink, where
 * rig_packet_take() reads it; a frame rig_packet_deliver() puts on the
 * wire is queued on the socket's receive queue, as a device's driver
 * queues what it receives, and wakes whoever polls the socket.  The
 * sink's reader has a wake-up of its own: an eventfd, readable once a
 * frame lands in an empty sink (rig_packet_sink_fd()).  Both
 * queues are bounded: a full sink makes sendmsg say -EAGAIN (and wakes
 * pollers for EPOLLOUT once the test takes a frame), a full receive queue
 * drops what is delivered, as a packet socket drops past its receive
 * buffer.  net/af_packet.c.
 */
#ifndef _NET_AF_PACKET_H
#define _NET_AF_PACKET_H

#include <stdbool.h>
#include <stddef.h>

struct rig_packet;

struct rig_packet_opts {
	/*
	 * Bytes of virtio-net header before each frame, both ways
	 * (PACKET_VNET_HDR_SZ), 0 for none: the header sendmsg is given
	 * goes to the sink with the frame, the one delivered with a frame
	 * is written before it by recvmsg.
	 */
	unsigned int vnet_hdr;
	unsigned int mtu;		/* longest frame sendmsg takes */
	unsigned int sink_frames;	/* frames sent, not yet taken */
	unsigned int queue_frames;	/* frames delivered, not yet received */
	/*
	 * Wake the socket's pollers on a delivery and on room in the sink,
	 * and the sink's reader on a frame (false: the test calls whoever
	 * reads the socket itself, and reads the sink when it likes).
	 */
	bool wake;
};

/*
 * A socket, installed as a descriptor of this process that kernel code
 * finds with sockfd_lookup() (linux/net.h), in *@fd.  NULL (*@fd the
 * -errno) if out of memory or descriptors.
 */
struct rig_packet *rig_packet_open(const struct rig_packet_opts *o, int *fd);
/* The sink's eventfd (opts.wake), or -1: read it before taking frames. */
int rig_packet_sink_fd(struct rig_packet *p);
/* Close the descriptor: the socket goes when no kernel code holds it. */
void rig_packet_close(struct rig_packet *p);

/*
 * Put a frame of @len bytes on the wire, with a header of opts.vnet_hdr
 * bytes at @hdr (ignored without one): 0, or -ENOBUFS when the receive
 * queue is full (the frame is dropped), -EMSGSIZE past the MTU, -ENOMEM.
 */
int rig_packet_deliver(struct rig_packet *p, const void *hdr, const void *frame,
		       unsigned int len);
/*
 * Take the oldest frame sent (its header first, when the socket carries
 * one) into @buf of @len bytes: its length, 0 if none is waiting, or
 * -EMSGSIZE if it is longer than @len (it is taken all the same).
 */
long rig_packet_take(struct rig_packet *p, void *buf, size_t len);

/* What the socket has seen, for a test's report. */
struct rig_packet_stats {
	unsigned long sent;		/* frames sendmsg took */
	unsigned long refused;		/* sendmsg calls refused (not -EAGAIN) */
	unsigned long full;		/* sendmsg calls told -EAGAIN */
	unsigned long received;		/* frames recvmsg handed out */
	unsigned long dropped;		/* deliveries dropped */
};
void rig_packet_stats(struct rig_packet *p, struct rig_packet_stats *s);

#endif /* _NET_AF_PACKET_H */
