/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Socket buffers, as far as the rig's packet socket (net/af_packet.c) and
 * vhost-net's receive path read them: an sk_buff is one frame's bytes and
 * their length; a socket's receive queue is a list of them under its
 * lock, which vhost-net peeks at for the length of the frame at its head.
 * The zero-copy completion (struct ubuf_info) and the shared-info tail
 * are only declared: vhost-net's zero-copy and XDP paths, which need
 * them, do not run here (a socket of a tun or tap device would take them;
 * the rig has neither, linux/if_tun.h).
 */
#ifndef _LINUX_SKBUFF_H
#define _LINUX_SKBUFF_H

#include <linux/types.h>
#include <linux/kernel.h>
#include <linux/cache.h>
#include <linux/mm_types_task.h>
#include <linux/page_frag_cache.h>
#include <linux/refcount.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uio.h>

struct sk_buff {
	struct sk_buff *next, *prev;	/* in a queue */
	unsigned int len;		/* bytes at @data */
	bool vlan_present;		/* a VLAN tag taken off the frame */
	u16 vlan_tci;
	char cb[48];			/* the owning layer's own */
	unsigned char *data;
	unsigned int size;		/* room at @data */
};

struct sk_buff_head {
	struct sk_buff *next, *prev;
	u32 qlen;
	spinlock_t lock;
};

static inline void skb_queue_head_init(struct sk_buff_head *list)
{
	spin_lock_init(&list->lock);
	list->next = list->prev = NULL;
	list->qlen = 0;
}

static inline bool skb_queue_empty(const struct sk_buff_head *list)
{
	return READ_ONCE(list->qlen) == 0;
}

static inline u32 skb_queue_len(const struct sk_buff_head *list)
{
	return list->qlen;
}

/* The buffer at the head of @list, left there; NULL if it is empty. */
static inline struct sk_buff *skb_peek(const struct sk_buff_head *list)
{
	return list->next;
}

/* The caller holds @list's lock (the __ forms). */
static inline void __skb_queue_tail(struct sk_buff_head *list, struct sk_buff *skb)
{
	skb->next = NULL;
	skb->prev = list->prev;
	if (list->prev)
		list->prev->next = skb;
	else
		list->next = skb;
	list->prev = skb;
	list->qlen++;
}

static inline struct sk_buff *__skb_dequeue(struct sk_buff_head *list)
{
	struct sk_buff *skb = list->next;

	if (!skb)
		return NULL;
	list->next = skb->next;
	if (list->next)
		list->next->prev = NULL;
	else
		list->prev = NULL;
	list->qlen--;
	skb->next = skb->prev = NULL;
	return skb;
}

/* A buffer with room for @size bytes, none used yet. */
static inline struct sk_buff *alloc_skb(unsigned int size, gfp_t gfp)
{
	struct sk_buff *skb = kzalloc(sizeof(*skb), gfp);

	if (!skb)
		return NULL;
	skb->data = kmalloc(size ? size : 1, gfp);
	if (!skb->data) {
		kfree(skb);
		return NULL;
	}
	skb->size = size;
	return skb;
}

static inline void kfree_skb(struct sk_buff *skb)
{
	if (!skb)
		return;
	kfree(skb->data);
	kfree(skb);
}
#define consume_skb(skb)	kfree_skb(skb)

/* Take @len more bytes of the room: where they start. */
static inline void *skb_put(struct sk_buff *skb, unsigned int len)
{
	void *tail = skb->data + skb->len;

	BUG_ON(len > skb->size - skb->len);
	skb->len += len;
	return tail;
}

/* Copy @len bytes from @offset into @to: 0, or -EFAULT if it took less. */
static inline int skb_copy_datagram_iter(const struct sk_buff *skb, int offset,
					 struct iov_iter *to, int len)
{
	return copy_to_iter(skb->data + offset, len, to) == (size_t)len ? 0 : -EFAULT;
}

static inline void skb_queue_purge(struct sk_buff_head *list)
{
	struct sk_buff *skb;

	while ((skb = __skb_dequeue(list)) != NULL)
		kfree_skb(skb);
}

/* Where an skb's data ends, room is kept for this (its size only). */
struct skb_shared_info {
	u8 flags;
	u8 nr_frags;
	unsigned short gso_size;
	unsigned short gso_segs;
	unsigned int gso_type;
	void *frag_list;
	u64 hwtstamps;
	void *destructor_arg;
	struct { void *page; u32 offset, len; } frags[17];
};

#define SKB_DATA_ALIGN(x)	ALIGN((x), SMP_CACHE_BYTES)
#define SKB_FRAG_PAGE_ORDER	3	/* 32 KiB of pages for fragments */
#define NET_SKB_PAD		64	/* max(32, L1_CACHE_BYTES) */
#define NET_IP_ALIGN		0	/* x86's */

/* Zero-copy transmit completions: declared only (see the top). */
#define SKBFL_ZEROCOPY_FRAG	2

struct ubuf_info;
struct ubuf_info_ops {
	void (*complete)(struct sk_buff *skb, struct ubuf_info *uarg, bool success);
};

struct ubuf_info {
	const struct ubuf_info_ops *ops;
	/* before 6.9: the completion itself */
	void (*callback)(struct sk_buff *skb, struct ubuf_info *uarg, bool success);
	refcount_t refcnt;
	u8 flags;
};

struct ubuf_info_msgzc {
	struct ubuf_info ubuf;
	unsigned long desc;
	void *ctx;
};

#define uarg_to_msgzc(uarg)	container_of((uarg), struct ubuf_info_msgzc, ubuf)

#endif /* _LINUX_SKBUFF_H */
