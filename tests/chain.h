/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A hostile descriptor layout, written as a table: one row per descriptor
 * a malicious guest writes (where, and its four fields), laid into a split
 * ring's descriptor table or an indirect table by one loop.  The hostile
 * programs (tests/hostile_host.c against vringh, tests/vhost_core_hostile.c
 * against the kernel's vhost core) state a case as its layout and its
 * expectation; each passes its own set_desc(), which knows its byte order.
 */
#ifndef TESTS_CHAIN_H
#define TESTS_CHAIN_H

#include <stddef.h>
#include <linux/byteorder.h>
#include <linux/virtio_ring.h>

struct chain_row {
	u16 at;		/* which descriptor of the table */
	u64 addr;
	u32 len;
	u16 flags;
	u16 next;
};

typedef void chain_set_fn(struct vring_desc *d, u64 addr, u32 len, u16 flags, u16 next);

/* Write @n rows into the table @t with @set. */
static inline void chain_lay(chain_set_fn *set, struct vring_desc *t,
			     const struct chain_row *rows, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		set(&t[rows[i].at], rows[i].addr, rows[i].len, rows[i].flags, rows[i].next);
}

/* A chain_set_fn for a virtio 1.x ring: every field little endian. */
static inline void chain_set_desc_le(struct vring_desc *d, u64 addr, u32 len, u16 flags,
				     u16 next)
{
	d->addr = cpu_to_le64(addr);
	d->len = cpu_to_le32(len);
	d->flags = cpu_to_le16(flags);
	d->next = cpu_to_le16(next);
}

/*
 * Lay @n rows into the ring's descriptor table @desc, then make the first
 * row's descriptor available, as the chain's head, with @offer.
 */
static inline void chain_offer(chain_set_fn *set, void (*offer)(u16), struct vring_desc *desc,
			       const struct chain_row *rows, size_t n)
{
	chain_lay(set, desc, rows, n);
	offer(rows[0].at);
}

/*
 * A chain through every one of the @num descriptors of @desc and back to
 * the first, each of no bytes at @addr: no longer than the ring by its
 * bytes, endless by its links.  Offered from descriptor 0 with @offer.
 */
static inline void chain_offer_ring_loop(chain_set_fn *set, void (*offer)(u16),
					 struct vring_desc *desc, unsigned int num,
					 u64 addr)
{
	unsigned int i;

	for (i = 0; i < num; i++)
		set(&desc[i], addr, 0, VRING_DESC_F_NEXT, (i + 1) % num);
	offer(0);
}

/* The rows given as arguments, then how many: chain_lay(set, t, CHAIN_ROWS(...)). */
#define CHAIN_ROWS(...)							\
	(const struct chain_row[]){ __VA_ARGS__ },			\
	sizeof((const struct chain_row[]){ __VA_ARGS__ }) / sizeof(struct chain_row)

/*
 * A chain that never ends: 0 -> 1 -> 2 -> 0, buffers 0, 1 and 2 of 8
 * bytes (@buf(n): the address of the program's buffer n).
 */
#define CHAIN_LOOP(buf)							\
	{ 0, buf(0), 8, VRING_DESC_F_NEXT, 1 },				\
	{ 1, buf(1), 8, VRING_DESC_F_NEXT, 2 },				\
	{ 2, buf(2), 8, VRING_DESC_F_NEXT, 0 }

#endif
