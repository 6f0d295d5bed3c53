/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The protocol side of a socket, as far as vhost-net reads it: its type
 * and family (a raw packet socket is the backend it accepts), its send
 * buffer (unlimited only for a tun device, whose XDP batches it takes),
 * its flags (zero-copy, XDP), its receive queue, and the wait queue its
 * poll sleeps on.  The rig's packet socket is net/af_packet.c.
 */
#ifndef _SOCK_H
#define _SOCK_H

#include <linux/types.h>
#include <linux/atomic.h>
#include <linux/net.h>
#include <linux/skbuff.h>
#include <linux/wait.h>

enum sock_flags {
	SOCK_ZEROCOPY = 22,
	SOCK_XDP = 26,
};

struct sock {
	unsigned short sk_family;
	u16 sk_type;
	int sk_sndbuf;			/* bytes */
	int sk_rcvbuf;			/* bytes */
	unsigned long sk_flags;
	struct sk_buff_head sk_receive_queue;
	wait_queue_head_t sk_wq;	/* the kernel's sk_wq->wait */
	struct socket *sk_socket;
};

static inline bool sock_flag(const struct sock *sk, enum sock_flags flag)
{
	return test_bit(flag, &sk->sk_flags);
}

static inline wait_queue_head_t *sk_sleep(struct sock *sk)
{
	return &sk->sk_wq;
}

#endif /* _SOCK_H */
