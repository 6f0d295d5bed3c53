// SPDX-License-Identifier: GPL-2.0
/*
 * The rig's raw packet socket (net/af_packet.h): a struct socket and its
 * sock, with the operations vhost-net calls (sendmsg, recvmsg, and poll
 * through the socket's file), over two bounded queues of sk_buffs: the
 * sink of what is sent, the receive queue of what is delivered.
 */
#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>
#include <sys/eventfd.h>

#include <linux/kernel.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/file.h>
#include <linux/net.h>
#include <linux/poll.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/socket.h>
#include <linux/wait.h>
#include <net/sock.h>

#include "net/af_packet.h"

#define ETH_HLEN	14	/* a frame is at least its Ethernet header */
#define SNDBUF_BYTES	212992	/* Linux's default; not INT_MAX: no XDP batches */

struct rig_packet {
	struct sock sk;			/* first: a sock is its rig_packet */
	struct socket sock;
	struct rig_packet_opts opts;
	struct sk_buff_head sink;	/* sent, not yet taken */
	bool nospace;			/* under sink.lock: a sender found it full */
	int sink_fd;			/* the sink's reader's wake-up, or -1 */
	int fd;
	struct rig_packet_stats stats;	/* each counted with __atomic */
};

static struct rig_packet *pkt_sk(struct sock *sk)
{
	return container_of(sk, struct rig_packet, sk);
}

static void count(unsigned long *c)
{
	__atomic_add_fetch(c, 1, __ATOMIC_RELAXED);
}

static int packet_sendmsg(struct socket *sock, struct msghdr *msg, size_t len)
{
	struct rig_packet *po = pkt_sk(sock->sk);
	size_t hdr = po->opts.vnet_hdr;
	struct sk_buff *skb;
	bool full, first;

	if (len < hdr + ETH_HLEN) {
		count(&po->stats.refused);
		return -EINVAL;
	}
	if (len - hdr > po->opts.mtu) {
		count(&po->stats.refused);
		return -EMSGSIZE;
	}
	spin_lock(&po->sink.lock);
	full = skb_queue_len(&po->sink) >= po->opts.sink_frames;
	if (full)
		po->nospace = true;
	spin_unlock(&po->sink.lock);
	if (full) {
		count(&po->stats.full);
		return -EAGAIN;
	}
	skb = alloc_skb(len, GFP_KERNEL);
	if (!skb)
		return -ENOBUFS;
	if (copy_from_iter(skb_put(skb, len), len, &msg->msg_iter) != len) {
		kfree_skb(skb);
		return -EFAULT;
	}
	spin_lock(&po->sink.lock);
	first = !skb_queue_len(&po->sink);
	__skb_queue_tail(&po->sink, skb);
	spin_unlock(&po->sink.lock);
	count(&po->stats.sent);
	if (first && po->sink_fd >= 0) {
		uint64_t one = 1;

		if (write(po->sink_fd, &one, sizeof(one)) != sizeof(one))
			pr_warn("rig packet socket: waking the sink's reader failed\n");
	}
	return len;
}

/*
 * The frame at the head of the receive queue, its header first (when the
 * socket carries one): at most @len bytes, MSG_TRUNC in the message's
 * flags if it was longer; returns what was copied, or with MSG_TRUNC in
 * @flags the whole length.  The frame is consumed either way.
 */
static int packet_recvmsg(struct socket *sock, struct msghdr *msg, size_t len,
			  int flags)
{
	struct sock *sk = sock->sk;
	struct rig_packet *po = pkt_sk(sk);
	size_t hdr = po->opts.vnet_hdr;
	struct sk_buff *skb;
	size_t copied;
	int err;

	spin_lock(&sk->sk_receive_queue.lock);
	skb = __skb_dequeue(&sk->sk_receive_queue);
	spin_unlock(&sk->sk_receive_queue.lock);
	if (!skb)
		return -EAGAIN;
	if (hdr) {
		err = -EINVAL;
		if (len < hdr)
			goto out;
		err = -EFAULT;
		if (copy_to_iter(skb->cb, hdr, &msg->msg_iter) != hdr)
			goto out;
		len -= hdr;
	}
	copied = skb->len;
	if (copied > len) {
		copied = len;
		msg->msg_flags |= MSG_TRUNC;
	}
	err = skb_copy_datagram_iter(skb, 0, &msg->msg_iter, copied);
	if (!err) {
		err = hdr + ((flags & MSG_TRUNC) ? skb->len : copied);
		count(&po->stats.received);
	}
out:
	kfree_skb(skb);
	return err;
}

static __poll_t packet_poll(struct file *file, struct socket *sock, poll_table *wait)
{
	struct sock *sk = sock->sk;
	struct rig_packet *po = pkt_sk(sk);
	__poll_t mask = 0;

	poll_wait(file, sk_sleep(sk), wait);
	if (!skb_queue_empty(&sk->sk_receive_queue))
		mask |= EPOLLIN | EPOLLRDNORM;
	spin_lock(&po->sink.lock);
	if (skb_queue_len(&po->sink) < po->opts.sink_frames)
		mask |= EPOLLOUT;
	else
		po->nospace = true;
	spin_unlock(&po->sink.lock);
	return mask;
}

static int packet_release(struct socket *sock)
{
	struct rig_packet *po = pkt_sk(sock->sk);

	skb_queue_purge(&po->sk.sk_receive_queue);
	skb_queue_purge(&po->sink);
	destroy_waitqueue_head(sk_sleep(&po->sk));
	if (po->sink_fd >= 0)
		close(po->sink_fd);
	kfree(po);
	return 0;
}

static const struct proto_ops packet_ops = {
	.family = AF_PACKET,
	.poll = packet_poll,
	.sendmsg = packet_sendmsg,
	.recvmsg = packet_recvmsg,
	.release = packet_release,
};

struct rig_packet *rig_packet_open(const struct rig_packet_opts *o, int *fd)
{
	struct rig_packet *po = kzalloc(sizeof(*po), GFP_KERNEL);
	struct file *file;
	int err;

	*fd = -ENOMEM;
	if (!po)
		return NULL;
	if (o->vnet_hdr > sizeof(((struct sk_buff *)0)->cb)) {
		*fd = -EINVAL;
		goto fail;
	}
	po->opts = *o;
	po->sink_fd = -1;
	if (o->wake) {
		po->sink_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		if (po->sink_fd < 0) {
			*fd = -EMFILE;
			goto fail;
		}
	}
	po->sk.sk_family = AF_PACKET;
	po->sk.sk_type = SOCK_RAW;
	po->sk.sk_sndbuf = SNDBUF_BYTES;
	po->sk.sk_rcvbuf = SNDBUF_BYTES;
	po->sk.sk_socket = &po->sock;
	skb_queue_head_init(&po->sk.sk_receive_queue);
	skb_queue_head_init(&po->sink);
	init_waitqueue_head(sk_sleep(&po->sk));
	po->sock.type = SOCK_RAW;
	po->sock.sk = &po->sk;
	po->sock.ops = &packet_ops;
	file = sock_alloc_file(&po->sock, O_RDWR, "rig-packet");
	if (IS_ERR(file)) {
		*fd = PTR_ERR(file);
		destroy_waitqueue_head(sk_sleep(&po->sk));
		if (po->sink_fd >= 0)
			close(po->sink_fd);
		goto fail;
	}
	/* A number no other descriptor of this process can have. */
	po->fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	err = po->fd < 0 ? -EMFILE : rig_fd_install(po->fd, file);
	if (err) {
		if (po->fd >= 0)
			close(po->fd);
		*fd = err;
		fput(file);		/* releases the socket */
		return NULL;
	}
	*fd = po->fd;
	return po;
fail:
	kfree(po);
	return NULL;
}

int rig_packet_sink_fd(struct rig_packet *p)
{
	return p->sink_fd;
}

void rig_packet_close(struct rig_packet *p)
{
	int fd = p->fd;

	rig_fd_close(fd);		/* p may be gone now */
	close(fd);
}

int rig_packet_deliver(struct rig_packet *p, const void *hdr, const void *frame,
		       unsigned int len)
{
	struct sock *sk = &p->sk;
	struct sk_buff *skb;
	bool full;

	if (len > p->opts.mtu)
		return -EMSGSIZE;
	skb = alloc_skb(len, GFP_KERNEL);
	if (!skb)
		return -ENOMEM;
	memcpy(skb_put(skb, len), frame, len);
	if (p->opts.vnet_hdr)
		memcpy(skb->cb, hdr, p->opts.vnet_hdr);
	spin_lock(&sk->sk_receive_queue.lock);
	full = skb_queue_len(&sk->sk_receive_queue) >= p->opts.queue_frames;
	if (!full)
		__skb_queue_tail(&sk->sk_receive_queue, skb);
	spin_unlock(&sk->sk_receive_queue.lock);
	if (full) {
		kfree_skb(skb);
		count(&p->stats.dropped);
		return -ENOBUFS;
	}
	if (p->opts.wake)
		wake_up_interruptible_poll(sk_sleep(sk), EPOLLIN | EPOLLRDNORM);
	return 0;
}

long rig_packet_take(struct rig_packet *p, void *buf, size_t len)
{
	struct sk_buff *skb;
	bool writer = false;
	long n;

	spin_lock(&p->sink.lock);
	skb = __skb_dequeue(&p->sink);
	if (skb) {
		writer = p->nospace;
		p->nospace = false;
	}
	spin_unlock(&p->sink.lock);
	if (!skb)
		return 0;
	n = skb->len;
	if (skb->len > len)
		n = -EMSGSIZE;
	else
		memcpy(buf, skb->data, skb->len);
	kfree_skb(skb);
	if (writer && p->opts.wake)
		wake_up_interruptible_poll(sk_sleep(&p->sk), EPOLLOUT);
	return n;
}

void rig_packet_stats(struct rig_packet *p, struct rig_packet_stats *s)
{
	s->sent = __atomic_load_n(&p->stats.sent, __ATOMIC_RELAXED);
	s->refused = __atomic_load_n(&p->stats.refused, __ATOMIC_RELAXED);
	s->full = __atomic_load_n(&p->stats.full, __ATOMIC_RELAXED);
	s->received = __atomic_load_n(&p->stats.received, __ATOMIC_RELAXED);
	s->dropped = __atomic_load_n(&p->stats.dropped, __ATOMIC_RELAXED);
}
