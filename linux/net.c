// SPDX-License-Identifier: GPL-2.0
/*
 * Sockets' files (linux/net.h): a socket's file polls through its
 * protocol and releases it on the last fput(); sockfd_lookup() is fget()
 * of a descriptor whose file is a socket's.
 */
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/file.h>
#include <linux/net.h>
#include <linux/poll.h>
#include <linux/slab.h>

static __poll_t sock_poll(struct file *file, poll_table *wait)
{
	struct socket *sock = file->private_data;

	return sock->ops->poll(file, sock, wait);
}

static int sock_close(struct inode *inode, struct file *file)
{
	struct socket *sock = file->private_data;

	(void)inode;
	return sock->ops->release(sock);
}

static const struct file_operations socket_file_ops = {
	.poll = sock_poll,
	.release = sock_close,
};

struct file *sock_alloc_file(struct socket *sock, int flags, const char *dname)
{
	struct file *file = kzalloc(sizeof(*file), GFP_KERNEL);

	(void)dname;
	if (!file)
		return ERR_PTR(-ENOMEM);
	file->f_count = 1;
	file->f_flags = flags;
	file->f_op = &socket_file_ops;
	file->private_data = sock;
	sock->file = file;
	return file;
}

struct socket *sockfd_lookup(int fd, int *err)
{
	struct file *file = fget(fd);

	if (!file) {
		*err = -EBADF;
		return NULL;
	}
	if (file->f_op != &socket_file_ops) {
		*err = -ENOTSOCK;
		fput(file);
		return NULL;
	}
	return file->private_data;
}
