/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A socket message as kernel code passes it to a socket's sendmsg and
 * recvmsg: the data is an iov_iter, not a user iovec list.  The address
 * family and message flag values are the kernel's (the ABI's).
 */
#ifndef _LINUX_SOCKET_H
#define _LINUX_SOCKET_H

#include <linux/types.h>
#include <linux/uio.h>

struct msghdr {
	void *msg_name;
	int msg_namelen;
	struct iov_iter msg_iter;
	void *msg_control;
	size_t msg_controllen;
	unsigned int msg_flags;
};

#define AF_PACKET	17

#define MSG_TRUNC	0x20
#define MSG_DONTWAIT	0x40
#define MSG_MORE	0x8000

#endif /* _LINUX_SOCKET_H */
