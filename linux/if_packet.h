/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Packet sockets' socket options and addresses: vhost-net uses nothing of
 * this header (AF_PACKET is linux/socket.h's); the rig's packet socket is
 * net/af_packet.h.
 */
#ifndef __LINUX_IF_PACKET_H
#define __LINUX_IF_PACKET_H
#endif /* __LINUX_IF_PACKET_H */
