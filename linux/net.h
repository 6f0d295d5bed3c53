/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sockets as kernel code holds them: a struct socket, its protocol's
 * operations, and the file a descriptor number names.  The only sockets
 * here are the rig's packet sockets (net/af_packet.c); sockfd_lookup()
 * finds one by the descriptor it was installed as (linux/file.h), and
 * sock_alloc_file() makes its file (linux/net.c).
 */
#ifndef _LINUX_NET_H
#define _LINUX_NET_H

#include <linux/types.h>
#include <linux/file.h>
#include <linux/socket.h>

/* The socket types of the ABI (the kernel's enum sock_type). */
#define SOCK_DGRAM	2
#define SOCK_RAW	3

struct sock;
struct socket;

struct proto_ops {
	int family;
	__poll_t (*poll)(struct file *file, struct socket *sock,
			 struct poll_table_struct *wait);
	int (*sendmsg)(struct socket *sock, struct msghdr *m, size_t total_len);
	int (*recvmsg)(struct socket *sock, struct msghdr *m, size_t total_len,
		       int flags);
	/* bytes waiting to be read, where a protocol knows it cheaply */
	int (*peek_len)(struct socket *sock);
	int (*release)(struct socket *sock);
};

struct socket {
	short type;
	struct file *file;
	struct sock *sk;
	const struct proto_ops *ops;
};

/*
 * The socket descriptor @fd names, with a reference on its file; NULL
 * and *@err -ENOTSOCK (or -EBADF) if it names none.
 */
struct socket *sockfd_lookup(int fd, int *err);
#define sockfd_put(sock)	fput((sock)->file)

/*
 * A file for @sock: its poll is the protocol's, its last fput() releases
 * the socket (the protocol's release).  ERR_PTR(-ENOMEM) if out of memory.
 */
struct file *sock_alloc_file(struct socket *sock, int flags, const char *dname);

#endif /* _LINUX_NET_H */
