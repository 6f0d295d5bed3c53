// SPDX-License-Identifier: GPL-2.0-only
/*
 * The device (host) side of a split virtio ring: take the buffers a guest
 * made available, hand their memory to the caller as iovecs, and return
 * them used.
 *
 * Everything the guest wrote is untrusted.  Every index is range-checked,
 * every chain is bounded, every guest address is translated and checked,
 * and each descriptor is read exactly once into private memory before it
 * is looked at.  A bad ring is refused with a negative errno and a message
 * saying what was wrong and where; the ring state does not move, so the
 * caller can report the error and stop.
 *
 * The file has three parts:
 *
 *  - accessor flavours: how ring words and guest memory are reached (user
 *    pointers through uaccess, or kernel pointers directly);
 *  - layout-independent helpers: guest address translation, iovec
 *    building and growth, copying to and from iovecs;
 *  - the split ring itself: reading heads, walking descriptor chains,
 *    publishing used elements, notification suppression.
 *
 * A packed-ring variant can reuse the first two parts unchanged.
 */
#include <linux/compiler.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/virtio_ring.h>
#include <linux/vringh.h>
#include <uapi/linux/virtio_config.h>

/* Every refusal goes through here: one line, always printed. */
#define vringh_bad(fmt, ...)	pr_err("vringh: " fmt "\n", ##__VA_ARGS__)

/* Most entries an iovec array may hold: the count must not reach the flag. */
#define VRINGH_IOV_MAX		(VRINGH_IOV_ALLOCATED - 1)

/* An indirect table's "next" is 16 bits wide: entries past this are dead. */
#define VRINGH_TABLE_REACH	(1U << 16)

/*
 * Accessor flavours.
 *
 * The helpers that take a flavour (or an xfer routine) are always inlined
 * into the exported wrappers, so each flavour's calls are direct.
 *
 * The ring words (indices, flags, event indices, avail entries) are read
 * and written one at a time with single-copy accesses; descriptors and
 * used elements are copied as blocks.  Pointers handed to the copy
 * routines are host pointers: for the user flavour they are "user"
 * addresses and every access is checked, for the kernel flavour they are
 * plain kernel memory.
 */
struct vringh_access {
	int (*get16)(const struct vringh *vrh, u16 *val, const __virtio16 *p);
	int (*put16)(const struct vringh *vrh, __virtio16 *p, u16 val);
	/* @src is shared memory: descriptors, indirect tables, buffers. */
	int (*copy_in)(void *dst, const void *src, size_t len);
	/* @dst is shared memory: used elements, buffers. */
	int (*copy_out)(void *dst, const void *src, size_t len);
};

static int vringh_get16_user(const struct vringh *vrh, u16 *val,
			     const __virtio16 *p)
{
	__virtio16 v = 0;

	if (get_user(v, (__force const __virtio16 __user *)p))
		return -EFAULT;
	*val = vringh16_to_cpu(vrh, v);
	return 0;
}

static int vringh_put16_user(const struct vringh *vrh, __virtio16 *p, u16 val)
{
	if (put_user(cpu_to_vringh16(vrh, val), (__force __virtio16 __user *)p))
		return -EFAULT;
	return 0;
}

static int vringh_copy_in_user(void *dst, const void *src, size_t len)
{
	if (copy_from_user(dst, (__force const void __user *)src, len))
		return -EFAULT;
	return 0;
}

static int vringh_copy_out_user(void *dst, const void *src, size_t len)
{
	if (copy_to_user((__force void __user *)dst, src, len))
		return -EFAULT;
	return 0;
}

static const struct vringh_access vringh_user_access = {
	.get16		= vringh_get16_user,
	.put16		= vringh_put16_user,
	.copy_in	= vringh_copy_in_user,
	.copy_out	= vringh_copy_out_user,
};

static int vringh_get16_kern(const struct vringh *vrh, u16 *val,
			     const __virtio16 *p)
{
	*val = vringh16_to_cpu(vrh, READ_ONCE(*p));
	return 0;
}

static int vringh_put16_kern(const struct vringh *vrh, __virtio16 *p, u16 val)
{
	WRITE_ONCE(*p, cpu_to_vringh16(vrh, val));
	return 0;
}

static int vringh_copy_kern(void *dst, const void *src, size_t len)
{
	memcpy(dst, src, len);
	return 0;
}

static const struct vringh_access vringh_kern_access = {
	.get16		= vringh_get16_kern,
	.put16		= vringh_put16_kern,
	.copy_in	= vringh_copy_kern,
	.copy_out	= vringh_copy_kern,
};

/*
 * Layout-independent helpers: the state of one descriptor walk, guest
 * address translation, and building the caller's iovecs.
 */
struct vringh_walk {
	struct vringh *vrh;
	const struct vringh_access *acc;
	/* NULL: descriptor addresses are kernel pointers, used as they are. */
	bool (*getrange)(struct vringh *vrh, u64 addr, struct vringh_range *r);
	/* The last range getrange handed out, reused while addresses hit it. */
	struct vringh_range range;
	struct vringh_kiov *riov, *wiov;
	gfp_t gfp;
	u16 head;		/* for messages */
	bool writable_seen;	/* a device-writable buffer came already */
};

static void vringh_forget_range(struct vringh_walk *walk)
{
	/* An empty range: start > end_incl, so no address hits it. */
	walk->range.start = U64_MAX;
	walk->range.end_incl = 0;
	walk->range.offset = 0;
}

static __always_inline void
vringh_walk_init(struct vringh_walk *walk, struct vringh *vrh,
			     const struct vringh_access *acc,
			     bool (*getrange)(struct vringh *, u64,
					      struct vringh_range *),
			     struct vringh_kiov *riov, struct vringh_kiov *wiov,
			     gfp_t gfp, u16 head)
{
	walk->vrh = vrh;
	walk->acc = acc;
	walk->getrange = getrange;
	vringh_forget_range(walk);
	walk->riov = riov;
	walk->wiov = wiov;
	walk->gfp = gfp;
	walk->head = head;
	walk->writable_seen = false;

	if (riov)
		riov->i = riov->used = riov->consumed = 0;
	if (wiov)
		wiov->i = wiov->used = wiov->consumed = 0;
}

/* Is [addr, addr + len) a sane span?  @len is not zero. */
static bool vringh_span_ok(const struct vringh_walk *walk, u64 addr, u64 len,
			   const char *what)
{
	u64 last;

	if (unlikely(check_add_overflow(addr, len - 1, &last))) {
		vringh_bad("%s of %llu bytes at 0x%llx (head %u) runs past the end of the address space",
			   what, (unsigned long long)len,
			   (unsigned long long)addr, walk->head);
		return false;
	}
	return true;
}

/*
 * Map guest address @addr to a host pointer.  *@len is the number of bytes
 * wanted (not zero); it is cut down to what is contiguous from @addr in the
 * range that holds it.  @what, @obj and @obj_len name the object @addr is
 * part of, for the message if it is refused.
 */
static __always_inline int
vringh_translate(struct vringh_walk *walk, u64 addr, u64 *len, void **host,
		 const char *what, u64 obj, u64 obj_len)
{
	struct vringh_range *r = &walk->range;
	u64 host_addr;

	if (!walk->getrange) {
		host_addr = addr;
	} else {
		if (addr < r->start || addr > r->end_incl) {
			if (!walk->getrange(walk->vrh, addr, r)) {
				vringh_forget_range(walk);
				vringh_bad("%s of %llu bytes at 0x%llx (head %u): guest address 0x%llx is not in guest memory",
					   what, (unsigned long long)obj_len,
					   (unsigned long long)obj, walk->head,
					   (unsigned long long)addr);
				return -EINVAL;
			}
			if (unlikely(addr < r->start || addr > r->end_incl)) {
				vringh_bad("getrange for 0x%llx (head %u) answered [0x%llx, 0x%llx], which does not hold it",
					   (unsigned long long)addr, walk->head,
					   (unsigned long long)r->start,
					   (unsigned long long)r->end_incl);
				vringh_forget_range(walk);
				return -EINVAL;
			}
		}
		/* Compare with the room left, minus one: cannot overflow. */
		if (*len - 1 > r->end_incl - addr)
			*len = r->end_incl - addr + 1;
		host_addr = addr + r->offset;
	}

	if (unlikely((u64)(unsigned long)host_addr != host_addr)) {
		vringh_bad("guest address 0x%llx (head %u) maps beyond the host's pointers",
			   (unsigned long long)addr, walk->head);
		return -EINVAL;
	}
	*host = (void *)(unsigned long)host_addr;
	return 0;
}

/*
 * Read @len bytes of guest memory at @addr (@what, e.g. an indirect table
 * entry) into @dst, following the ranges however they split it.
 */
static __always_inline int
vringh_walk_read(struct vringh_walk *walk, void *dst, u64 addr, size_t len,
		 const char *what)
{
	const u64 obj = addr, obj_len = len;

	while (len) {
		u64 part = len;
		void *src;
		int err;

		err = vringh_translate(walk, addr, &part, &src, what, obj,
				       obj_len);
		if (err)
			return err;
		err = walk->acc->copy_in(dst, src, part);
		if (unlikely(err)) {
			vringh_bad("%s at 0x%llx (head %u): cannot read %llu bytes at %p",
				   what, (unsigned long long)obj, walk->head,
				   (unsigned long long)part, src);
			return err;
		}
		dst = (char *)dst + part;
		addr += part;
		len -= part;
	}
	return 0;
}

/* Make room for at least one more entry: double, starting at 8. */
static int vringh_iov_grow(struct vringh_kiov *iov, gfp_t gfp)
{
	unsigned int owned = iov->max_num & VRINGH_IOV_ALLOCATED;
	unsigned int cap = iov->max_num & ~VRINGH_IOV_ALLOCATED;
	unsigned int new_cap;
	struct kvec *new;

	if (unlikely(cap >= VRINGH_IOV_MAX)) {
		vringh_bad("a chain needs more than %u iovecs", VRINGH_IOV_MAX);
		return -ENOMEM;
	}
	new_cap = cap < 4 ? 8 : min_t(unsigned int, cap * 2, VRINGH_IOV_MAX);

	if (owned) {
		new = krealloc_array(iov->iov, new_cap, sizeof(*new), gfp);
	} else {
		new = kmalloc_array(new_cap, sizeof(*new), gfp);
		if (new && iov->used)
			memcpy(new, iov->iov, iov->used * sizeof(*new));
	}
	if (unlikely(!new)) {
		vringh_bad("cannot grow an iovec array to %u entries", new_cap);
		return -ENOMEM;
	}
	iov->iov = new;
	iov->max_num = new_cap | VRINGH_IOV_ALLOCATED;
	return 0;
}

/*
 * Append one buffer of the chain to the iovecs for its direction.  Empty
 * buffers are checked for direction but take no iovec.  A buffer that
 * crosses ranges takes one iovec per range.
 */
static __always_inline int
vringh_walk_add(struct vringh_walk *walk, u64 addr, u32 len, bool writable)
{
	struct vringh_kiov *iov;
	const u64 obj = addr;
	u64 left = len;

	if (writable) {
		walk->writable_seen = true;
		iov = walk->wiov;
	} else {
		if (unlikely(walk->writable_seen)) {
			vringh_bad("head %u: device-readable buffer at 0x%llx after a device-writable one",
				   walk->head, (unsigned long long)addr);
			return -EINVAL;
		}
		iov = walk->riov;
	}
	if (unlikely(!iov)) {
		vringh_bad("head %u: device-%s buffer at 0x%llx, but the caller takes none",
			   walk->head, writable ? "writable" : "readable",
			   (unsigned long long)addr);
		return -EPROTO;
	}

	if (!left)
		return 0;
	if (!vringh_span_ok(walk, addr, left, "buffer"))
		return -EINVAL;

	do {
		u64 part = left;
		void *host;
		int err;

		err = vringh_translate(walk, addr, &part, &host, "buffer", obj,
				       len);
		if (err)
			return err;
		if (unlikely(iov->used ==
			     (iov->max_num & ~VRINGH_IOV_ALLOCATED))) {
			err = vringh_iov_grow(iov, walk->gfp);
			if (err)
				return err;
		}
		iov->iov[iov->used].iov_base = host;
		iov->iov[iov->used].iov_len = part;
		iov->used++;
		addr += part;
		left -= part;
	} while (left);

	return 0;
}

/*
 * Mark @n bytes of the current iovec consumed.  A finished iovec gets its
 * original base and length back (vringh_kiov_reset() relies on that) and
 * the walk moves to the next one.
 */
static inline void vringh_kiov_consume(struct vringh_kiov *iov, size_t n)
{
	struct kvec *v = &iov->iov[iov->i];

	v->iov_base = (char *)v->iov_base + n;
	v->iov_len -= n;
	iov->consumed += n;
	if (!v->iov_len) {
		v->iov_base = (char *)v->iov_base - iov->consumed;
		v->iov_len = iov->consumed;
		iov->consumed = 0;
		iov->i++;
	}
}

/*
 * Copy between the iovecs and @buf, consuming what was copied.  @xfer gets
 * (iovec memory, @buf, length); @verb says which way, for messages.
 * Returns the bytes copied or -errno; on error nothing more is consumed.
 */
static __always_inline ssize_t
vringh_kiov_xfer(struct vringh_kiov *iov, void *buf, size_t len,
		 int (*xfer)(void *iov_mem, void *buf, size_t n),
		 const char *verb)
{
	size_t done = 0;

	/* The count must fit the return type. */
	len = min_t(size_t, len, (size_t)-1 >> 1);

	while (len && iov->i < iov->used) {
		size_t part = min(iov->iov[iov->i].iov_len, len);
		int err;

		err = xfer(iov->iov[iov->i].iov_base, buf, part);
		if (unlikely(err)) {
			vringh_bad("cannot %s %zu bytes of buffer memory at %p (iovec %u)",
				   verb, part, iov->iov[iov->i].iov_base,
				   iov->i);
			return err;
		}
		vringh_kiov_consume(iov, part);
		buf = (char *)buf + part;
		len -= part;
		done += part;
	}
	return done;
}

static int vringh_pull_user(void *iov_mem, void *buf, size_t n)
{
	return vringh_copy_in_user(buf, iov_mem, n);
}

static int vringh_push_user(void *iov_mem, void *buf, size_t n)
{
	return vringh_copy_out_user(iov_mem, buf, n);
}

static int vringh_pull_kern(void *iov_mem, void *buf, size_t n)
{
	return vringh_copy_kern(buf, iov_mem, n);
}

static int vringh_push_kern(void *iov_mem, void *buf, size_t n)
{
	return vringh_copy_kern(iov_mem, buf, n);
}

/* The user iovec types are walked as kernel ones: same layout. */
static struct vringh_kiov *vringh_iov_as_kiov(struct vringh_iov *iov)
{
	BUILD_BUG_ON(sizeof(struct vringh_iov) != sizeof(struct vringh_kiov));
	BUILD_BUG_ON(offsetof(struct vringh_iov, iov) !=
		     offsetof(struct vringh_kiov, iov));
	BUILD_BUG_ON(offsetof(struct vringh_iov, consumed) !=
		     offsetof(struct vringh_kiov, consumed));
	BUILD_BUG_ON(offsetof(struct vringh_iov, i) !=
		     offsetof(struct vringh_kiov, i));
	BUILD_BUG_ON(offsetof(struct vringh_iov, used) !=
		     offsetof(struct vringh_kiov, used));
	BUILD_BUG_ON(offsetof(struct vringh_iov, max_num) !=
		     offsetof(struct vringh_kiov, max_num));
	BUILD_BUG_ON(sizeof(struct iovec) != sizeof(struct kvec));
	BUILD_BUG_ON(offsetof(struct iovec, iov_base) !=
		     offsetof(struct kvec, iov_base));
	BUILD_BUG_ON(offsetof(struct iovec, iov_len) !=
		     offsetof(struct kvec, iov_len));

	return (struct vringh_kiov *)iov;
}

/*
 * The split ring.
 */
static int vringh_init(struct vringh *vrh, u64 features, unsigned int num,
		       bool weak_barriers, struct vring_desc *desc,
		       struct vring_avail *avail, struct vring_used *used)
{
	if (!num || num > 0xffff || !is_power_of_2(num)) {
		vringh_bad("ring size %u refused: it must be a power of 2, at most 32768",
			   num);
		return -EINVAL;
	}

	vrh->little_endian = !!(features & (1ULL << VIRTIO_F_VERSION_1));
	vrh->event_indices = !!(features & (1ULL << VIRTIO_RING_F_EVENT_IDX));
	vrh->weak_barriers = weak_barriers;
	vrh->last_avail_idx = 0;
	vrh->last_used_idx = 0;
	vrh->completed = 0;
	vrh->vring.num = num;
	vrh->vring.desc = desc;
	vrh->vring.avail = avail;
	vrh->vring.used = used;
	return 0;
}

/*
 * Look at the next available head without taking it.  Returns 1 and sets
 * *@head, 0 if the guest has made nothing new available, or -errno.
 */
static __always_inline int
vringh_split_peek_head(const struct vringh *vrh,
		       const struct vringh_access *acc, u16 *head)
{
	const struct vring *vr = &vrh->vring;
	u16 avail_idx, pending, slot, h;
	int err;

	err = acc->get16(vrh, &avail_idx, &vr->avail->idx);
	if (unlikely(err)) {
		vringh_bad("cannot read the avail index at %p", &vr->avail->idx);
		return err;
	}

	pending = avail_idx - vrh->last_avail_idx;
	if (!pending)
		return 0;
	if (unlikely(pending > vr->num)) {
		vringh_bad("avail index jumped to %u while we are at %u: %u pending in a ring of %u",
			   avail_idx, vrh->last_avail_idx, pending, vr->num);
		return -EINVAL;
	}

	/* The entries are valid only once we have seen the index move. */
	virtio_rmb(vrh->weak_barriers);

	slot = vrh->last_avail_idx & (vr->num - 1);
	err = acc->get16(vrh, &h, &vr->avail->ring[slot]);
	if (unlikely(err)) {
		vringh_bad("cannot read avail ring slot %u at %p",
			   slot, &vr->avail->ring[slot]);
		return err;
	}
	if (unlikely(h >= vr->num)) {
		vringh_bad("avail ring slot %u offers descriptor %u, but the ring has only %u",
			   slot, h, vr->num);
		return -EINVAL;
	}

	*head = h;
	return 1;
}

/*
 * Walk the indirect table that descriptor @at points to.  Its entries may
 * chain in any order; the walk visits at most as many entries as the table
 * can name, so a loop inside it ends.
 */
static __always_inline int
vringh_split_walk_table(struct vringh_walk *walk, u16 at,
			const struct vring_desc *ind)
{
	const struct vringh *vrh = walk->vrh;
	u64 base = vringh64_to_cpu(vrh, ind->addr);
	u32 len = vringh32_to_cpu(vrh, ind->len);
	unsigned int size, limit, count = 0;
	u16 i = 0;

	if (unlikely(!len || len % sizeof(struct vring_desc))) {
		vringh_bad("descriptor %u (head %u): indirect table of %u bytes is not a whole, nonzero number of %zu-byte descriptors",
			   at, walk->head, len, sizeof(struct vring_desc));
		return -EINVAL;
	}
	if (!vringh_span_ok(walk, base, len, "indirect table"))
		return -EINVAL;

	size = len / sizeof(struct vring_desc);
	limit = min(size, VRINGH_TABLE_REACH);

	for (;;) {
		struct vring_desc desc;
		u16 flags, next;
		int err;

		if (unlikely(++count > limit)) {
			vringh_bad("indirect table at 0x%llx (head %u) chains through more than its %u entries: a loop",
				   (unsigned long long)base, walk->head, limit);
			return -ELOOP;
		}

		err = vringh_walk_read(walk, &desc,
				       base + (u64)i * sizeof(desc),
				       sizeof(desc), "indirect table entry");
		if (err)
			return err;

		flags = vringh16_to_cpu(vrh, desc.flags);
		if (unlikely(flags & VRING_DESC_F_INDIRECT)) {
			vringh_bad("indirect table at 0x%llx (head %u): entry %u is indirect again; only one level is allowed",
				   (unsigned long long)base, walk->head, i);
			return -EINVAL;
		}

		err = vringh_walk_add(walk, vringh64_to_cpu(vrh, desc.addr),
				      vringh32_to_cpu(vrh, desc.len),
				      flags & VRING_DESC_F_WRITE);
		if (err)
			return err;

		if (!(flags & VRING_DESC_F_NEXT))
			return 0;

		next = vringh16_to_cpu(vrh, desc.next);
		if (unlikely(next >= size)) {
			vringh_bad("indirect table at 0x%llx (head %u): entry %u chains to %u, past its %u entries",
				   (unsigned long long)base, walk->head, i,
				   next, size);
			return -EINVAL;
		}
		i = next;
	}
}

/*
 * Walk the chain that starts at descriptor @head of the ring's table.  A
 * descriptor of the table may point to an indirect table and still chain
 * on with NEXT.  Every table descriptor counts, empty or indirect, so a
 * chain that visits more than num of them must be a loop.
 */
static __always_inline int vringh_split_walk(struct vringh_walk *walk)
{
	const struct vringh *vrh = walk->vrh;
	const struct vring *vr = &vrh->vring;
	unsigned int count = 0;
	u16 i = walk->head;

	for (;;) {
		struct vring_desc desc;
		u16 flags, next;
		int err;

		if (unlikely(++count > vr->num)) {
			vringh_bad("chain at head %u is longer than the ring (%u descriptors): a loop",
				   walk->head, vr->num);
			return -ELOOP;
		}

		err = walk->acc->copy_in(&desc, &vr->desc[i], sizeof(desc));
		if (unlikely(err)) {
			vringh_bad("cannot read descriptor %u at %p (head %u)",
				   i, &vr->desc[i], walk->head);
			return err;
		}

		flags = vringh16_to_cpu(vrh, desc.flags);
		if (unlikely(flags & VRING_DESC_F_INDIRECT))
			err = vringh_split_walk_table(walk, i, &desc);
		else
			err = vringh_walk_add(walk,
					      vringh64_to_cpu(vrh, desc.addr),
					      vringh32_to_cpu(vrh, desc.len),
					      flags & VRING_DESC_F_WRITE);
		if (err)
			return err;

		if (!(flags & VRING_DESC_F_NEXT))
			return 0;

		next = vringh16_to_cpu(vrh, desc.next);
		if (unlikely(next >= vr->num)) {
			vringh_bad("descriptor %u (head %u): next %u is past the ring's %u descriptors",
				   i, walk->head, next, vr->num);
			return -EINVAL;
		}
		i = next;
	}
}

static __always_inline int
vringh_split_getdesc(struct vringh *vrh, const struct vringh_access *acc,
		     struct vringh_kiov *riov, struct vringh_kiov *wiov,
		     bool (*getrange)(struct vringh *, u64,
				      struct vringh_range *),
		     gfp_t gfp, u16 *head)
{
	struct vringh_walk walk;
	u16 h = 0;	/* only read when peek returned 1; quiets gcc -O1 */
	int err;

	/* Until a head is known, report the ring itself as the culprit. */
	*head = vrh->vring.num;

	if (unlikely(!riov && !wiov)) {
		vringh_bad("getdesc needs somewhere to put buffers: riov and wiov are both NULL");
		return -EINVAL;
	}

	err = vringh_split_peek_head(vrh, acc, &h);
	if (err <= 0)
		return err;

	*head = h;
	vringh_walk_init(&walk, vrh, acc, getrange, riov, wiov, gfp, h);
	err = vringh_split_walk(&walk);
	if (err)
		return err;

	/* Take it only now: a refused chain leaves the ring where it was. */
	vrh->last_avail_idx++;
	return 1;
}

static __always_inline int
vringh_split_complete(struct vringh *vrh, const struct vringh_access *acc,
		      const struct vring_used_elem *elems, unsigned int n)
{
	const struct vring *vr = &vrh->vring;
	u16 used_idx = vrh->last_used_idx + vrh->completed;
	unsigned int off = used_idx & (vr->num - 1);
	unsigned int first;
	int err;

	if (unlikely(n > vr->num)) {
		vringh_bad("cannot complete %u buffers at once in a ring of %u",
			   n, vr->num);
		return -EINVAL;
	}
	if (unlikely(!n))
		return 0;

	/* The batch may run off the end of the used ring: then wrap. */
	first = min(n, vr->num - off);
	err = acc->copy_out(&vr->used->ring[off], elems,
			    first * sizeof(*elems));
	if (!err && first < n)
		err = acc->copy_out(&vr->used->ring[0], elems + first,
				    (n - first) * sizeof(*elems));
	if (unlikely(err)) {
		vringh_bad("cannot write %u used elements at slot %u (%p)",
			   n, off, &vr->used->ring[off]);
		return err;
	}

	/* The guest must see the elements before the index that covers them. */
	virtio_wmb(vrh->weak_barriers);

	err = acc->put16(vrh, &vr->used->idx, used_idx + n);
	if (unlikely(err)) {
		vringh_bad("cannot write the used index at %p", &vr->used->idx);
		return err;
	}
	vrh->completed += n;
	return 0;
}

static __always_inline int
vringh_split_complete_one(struct vringh *vrh, const struct vringh_access *acc,
			  u16 head, u32 len)
{
	struct vring_used_elem elem;

	elem.id = cpu_to_vringh32(vrh, head);
	elem.len = cpu_to_vringh32(vrh, len);
	return vringh_split_complete(vrh, acc, &elem, 1);
}

static __always_inline int
vringh_split_need_notify(struct vringh *vrh, const struct vringh_access *acc)
{
	const struct vring *vr = &vrh->vring;
	u16 old_idx, new_idx, val;
	bool notify;
	int err;

	/*
	 * Our used index must be visible before we read what the guest
	 * wants; the guest orders the other way round when it re-enables.
	 */
	virtio_mb(vrh->weak_barriers);

	if (!vrh->event_indices) {
		err = acc->get16(vrh, &val, &vr->avail->flags);
		if (unlikely(err)) {
			vringh_bad("cannot read the avail flags at %p",
				   &vr->avail->flags);
			return err;
		}
		notify = !(val & VRING_AVAIL_F_NO_INTERRUPT);
	} else {
		err = acc->get16(vrh, &val, &vring_used_event(vr));
		if (unlikely(err)) {
			vringh_bad("cannot read the used event index at %p",
				   &vring_used_event(vr));
			return err;
		}
		old_idx = vrh->last_used_idx;
		new_idx = old_idx + vrh->completed;
		/* Past 0xffff the 16-bit window cannot tell: always notify. */
		notify = vrh->completed > 0xffff ||
			 vring_need_event(val, new_idx, old_idx);
	}

	vrh->last_used_idx += vrh->completed;
	vrh->completed = 0;
	return notify;
}

/*
 * avail_event sits just past the used ring.  vring_avail_event() reaches it
 * by dereferencing a cast pointer, which gcc flags under strict aliasing;
 * we only ever need its address.
 */
static __virtio16 *vringh_avail_event(const struct vring *vr)
{
	return (__virtio16 *)&vr->used->ring[vr->num];
}

static __always_inline bool
vringh_split_notify_enable(struct vringh *vrh, const struct vringh_access *acc)
{
	const struct vring *vr = &vrh->vring;
	u16 avail_idx;

	if (vrh->event_indices) {
		if (acc->put16(vrh, vringh_avail_event(vr),
			       vrh->last_avail_idx)) {
			vringh_bad("cannot write the avail event index at %p",
				   vringh_avail_event(vr));
			return true;
		}
	} else {
		if (acc->put16(vrh, &vr->used->flags, 0)) {
			vringh_bad("cannot clear the used flags at %p",
				   &vr->used->flags);
			return true;
		}
	}

	/* Publish the request before looking again, or a kick may be lost. */
	virtio_mb(vrh->weak_barriers);

	if (acc->get16(vrh, &avail_idx, &vr->avail->idx)) {
		vringh_bad("cannot re-read the avail index at %p",
			   &vr->avail->idx);
		return true;
	}
	return avail_idx == vrh->last_avail_idx;
}

static __always_inline void
vringh_split_notify_disable(struct vringh *vrh, const struct vringh_access *acc)
{
	const struct vring *vr = &vrh->vring;

	/* With event indices the guest kicks only at avail_event anyway. */
	if (vrh->event_indices)
		return;
	if (acc->put16(vrh, &vr->used->flags, VRING_USED_F_NO_NOTIFY))
		vringh_bad("cannot set the used flags at %p", &vr->used->flags);
}

/*
 * The exported API: user-pointer rings.
 */

/**
 * vringh_init_user - set up a vringh for a ring in user memory
 * @vrh: the vringh to set up
 * @features: the negotiated feature bits
 * @num: the ring size
 * @weak_barriers: true if the guest is another CPU, not a device
 * @desc: the descriptor table (user address)
 * @avail: the available ring (user address)
 * @used: the used ring (user address)
 *
 * VIRTIO_F_VERSION_1 in @features makes the ring little endian;
 * VIRTIO_RING_F_EVENT_IDX turns on event index notification suppression.
 * The ring pointers are not checked here: every later access is.
 *
 * Return: 0, or -EINVAL if @num is 0, not a power of 2 or above 0xffff.
 */
int vringh_init_user(struct vringh *vrh, u64 features,
		     unsigned int num, bool weak_barriers,
		     vring_desc_t __user *desc,
		     vring_avail_t __user *avail,
		     vring_used_t __user *used)
{
	return vringh_init(vrh, features, num, weak_barriers,
			   (__force struct vring_desc *)desc,
			   (__force struct vring_avail *)avail,
			   (__force struct vring_used *)used);
}
EXPORT_SYMBOL(vringh_init_user);

/**
 * vringh_getdesc_user - take the next available buffer of a user ring
 * @vrh: the ring
 * @riov: filled with the device-readable parts (NULL: none expected)
 * @wiov: filled with the device-writable parts (NULL: none expected)
 * @getrange: maps a guest address to the range of guest memory holding it
 * @head: set to the buffer's head, for vringh_complete_user()
 *
 * Every guest address, of buffers and of indirect tables, goes through
 * @getrange; a buffer that spans several ranges takes one iovec per range.
 * @riov and @wiov are reset, and grown (kmalloc'ed) if too small; the
 * caller must vringh_iov_cleanup() them when done, even after an error.
 *
 * On error nothing is taken: the next call sees the same buffer again.
 * *@head is vrh->vring.num if the ring itself is broken, or the head of
 * the refused chain.
 *
 * Return: 1 if a buffer was taken, 0 if none is available, -EINVAL for a
 * malformed ring or chain, -ELOOP for a chain that loops, -EPROTO for a
 * buffer in a direction the caller gave no iov for, -EFAULT if ring memory
 * cannot be read, -ENOMEM if an iov cannot grow.
 */
int vringh_getdesc_user(struct vringh *vrh,
			struct vringh_iov *riov,
			struct vringh_iov *wiov,
			bool (*getrange)(struct vringh *vrh,
					 u64 addr, struct vringh_range *r),
			u16 *head)
{
	if (unlikely(!getrange)) {
		*head = vrh->vring.num;
		vringh_bad("getdesc on a user ring needs a getrange callback");
		return -EINVAL;
	}
	return vringh_split_getdesc(vrh, &vringh_user_access,
				    riov ? vringh_iov_as_kiov(riov) : NULL,
				    wiov ? vringh_iov_as_kiov(wiov) : NULL,
				    getrange, GFP_KERNEL, head);
}
EXPORT_SYMBOL(vringh_getdesc_user);

/**
 * vringh_iov_pull_user - copy bytes out of the device-readable buffers
 * @riov: the riov from vringh_getdesc_user(), consumed as it is read
 * @dst: where to copy to
 * @len: the most bytes to copy
 *
 * Return: the bytes copied (less than @len once @riov runs out, 0 when it
 * is exhausted), or -EFAULT if the buffer memory cannot be read.
 */
ssize_t vringh_iov_pull_user(struct vringh_iov *riov, void *dst, size_t len)
{
	return vringh_kiov_xfer(vringh_iov_as_kiov(riov), dst, len,
				vringh_pull_user, "read");
}
EXPORT_SYMBOL(vringh_iov_pull_user);

/**
 * vringh_iov_push_user - copy bytes into the device-writable buffers
 * @wiov: the wiov from vringh_getdesc_user(), consumed as it is written
 * @src: where to copy from
 * @len: the most bytes to copy
 *
 * Return: the bytes copied (less than @len once @wiov runs out, 0 when it
 * is exhausted), or -EFAULT if the buffer memory cannot be written.
 */
ssize_t vringh_iov_push_user(struct vringh_iov *wiov,
			     const void *src, size_t len)
{
	return vringh_kiov_xfer(vringh_iov_as_kiov(wiov), (void *)src, len,
				vringh_push_user, "write");
}
EXPORT_SYMBOL(vringh_iov_push_user);

/**
 * vringh_abandon_user - give back buffers taken but not used
 * @vrh: the ring
 * @num: how many vringh_getdesc_user() calls to undo
 *
 * The next vringh_getdesc_user() returns the first of them again.
 */
void vringh_abandon_user(struct vringh *vrh, unsigned int num)
{
	/* avail_event is written only when enabling, so it needs no fixing. */
	vrh->last_avail_idx -= num;
}
EXPORT_SYMBOL(vringh_abandon_user);

/**
 * vringh_complete_user - return one buffer to the guest
 * @vrh: the ring
 * @head: the head vringh_getdesc_user() gave
 * @len: how many bytes were written into the buffer
 *
 * Call vringh_need_notify_user() afterwards (after one or several
 * completions) to learn whether the guest wants to hear about it.
 *
 * Return: 0, or -EFAULT if the used ring cannot be written.
 */
int vringh_complete_user(struct vringh *vrh, u16 head, u32 len)
{
	return vringh_split_complete_one(vrh, &vringh_user_access, head, len);
}
EXPORT_SYMBOL(vringh_complete_user);

/**
 * vringh_complete_multi_user - return several buffers to the guest at once
 * @vrh: the ring
 * @used: the used elements (id = head, len = bytes written), already in
 *	  the ring's byte order (see cpu_to_vringh32())
 * @num_used: how many
 *
 * The elements are written in one go (in two parts if they wrap the end of
 * the used ring), then the used index moves once to cover all of them.
 *
 * Return: 0, -EINVAL if @num_used exceeds the ring size, or -EFAULT if the
 * used ring cannot be written.
 */
int vringh_complete_multi_user(struct vringh *vrh,
			       const struct vring_used_elem used[],
			       unsigned int num_used)
{
	return vringh_split_complete(vrh, &vringh_user_access, used, num_used);
}
EXPORT_SYMBOL(vringh_complete_multi_user);

/**
 * vringh_need_notify_user - must the guest be told about used buffers?
 * @vrh: the ring, after vringh_complete_user() calls
 *
 * With event indices, says whether the used index passed the guest's
 * used_event since the previous call; without, whether the guest left
 * VRING_AVAIL_F_NO_INTERRUPT clear.
 *
 * Return: 1 to notify, 0 not to, or -EFAULT if the ring cannot be read.
 */
int vringh_need_notify_user(struct vringh *vrh)
{
	return vringh_split_need_notify(vrh, &vringh_user_access);
}
EXPORT_SYMBOL(vringh_need_notify_user);

/**
 * vringh_notify_enable_user - ask the guest to kick us for new buffers
 * @vrh: the ring
 *
 * Notifications stay enabled whatever this returns.  Call it before
 * sleeping and sleep only if it returns true.
 *
 * Return: true if the ring is still empty (safe to sleep), false if
 * buffers arrived meanwhile.  If the ring cannot be accessed the error is
 * reported and true is returned.
 */
bool vringh_notify_enable_user(struct vringh *vrh)
{
	return vringh_split_notify_enable(vrh, &vringh_user_access);
}
EXPORT_SYMBOL(vringh_notify_enable_user);

/**
 * vringh_notify_disable_user - tell the guest not to kick us
 * @vrh: the ring
 *
 * The normal state while the device is busy.  Without event indices this
 * sets VRING_USED_F_NO_NOTIFY; with them nothing needs doing, as the guest
 * kicks only when it reaches the avail_event we last published.
 */
void vringh_notify_disable_user(struct vringh *vrh)
{
	vringh_split_notify_disable(vrh, &vringh_user_access);
}
EXPORT_SYMBOL(vringh_notify_disable_user);

/*
 * The exported API: kernel-pointer rings.
 */

/**
 * vringh_init_kern - set up a vringh for a ring in kernel memory
 * @vrh: the vringh to set up
 * @features: the negotiated feature bits
 * @num: the ring size
 * @weak_barriers: true if the guest is another CPU, not a device
 * @desc: the descriptor table
 * @avail: the available ring
 * @used: the used ring
 *
 * As vringh_init_user(), for a ring whose descriptors hold kernel pointers.
 *
 * Return: 0, or -EINVAL if @num is 0, not a power of 2 or above 0xffff.
 */
int vringh_init_kern(struct vringh *vrh, u64 features,
		     unsigned int num, bool weak_barriers,
		     struct vring_desc *desc,
		     struct vring_avail *avail,
		     struct vring_used *used)
{
	return vringh_init(vrh, features, num, weak_barriers,
			   desc, avail, used);
}
EXPORT_SYMBOL(vringh_init_kern);

/**
 * vringh_kiov_advance - skip bytes of a kiov without copying them
 * @kiov: the kiov from vringh_getdesc_kern()
 * @len: how many bytes to skip (stops early if @kiov runs out)
 */
void vringh_kiov_advance(struct vringh_kiov *kiov, size_t len)
{
	while (len && kiov->i < kiov->used) {
		size_t part = min(kiov->iov[kiov->i].iov_len, len);

		vringh_kiov_consume(kiov, part);
		len -= part;
	}
}
EXPORT_SYMBOL(vringh_kiov_advance);

/**
 * vringh_getdesc_kern - take the next available buffer of a kernel ring
 * @vrh: the ring
 * @riov: filled with the device-readable parts (NULL: none expected)
 * @wiov: filled with the device-writable parts (NULL: none expected)
 * @head: set to the buffer's head, for vringh_complete_kern()
 * @gfp: how to allocate if @riov or @wiov must grow
 *
 * As vringh_getdesc_user(), except that descriptor addresses are kernel
 * pointers, used without translation.  Release the kiovs with
 * vringh_kiov_cleanup() when done, even after an error.
 *
 * Return: 1 if a buffer was taken, 0 if none is available, or -errno as
 * for vringh_getdesc_user().
 */
int vringh_getdesc_kern(struct vringh *vrh,
			struct vringh_kiov *riov,
			struct vringh_kiov *wiov,
			u16 *head,
			gfp_t gfp)
{
	return vringh_split_getdesc(vrh, &vringh_kern_access, riov, wiov,
				    NULL, gfp, head);
}
EXPORT_SYMBOL(vringh_getdesc_kern);

/**
 * vringh_iov_pull_kern - copy bytes out of the device-readable buffers
 * @riov: the riov from vringh_getdesc_kern(), consumed as it is read
 * @dst: where to copy to
 * @len: the most bytes to copy
 *
 * Return: the bytes copied (less than @len once @riov runs out, 0 when it
 * is exhausted).
 */
ssize_t vringh_iov_pull_kern(struct vringh_kiov *riov, void *dst, size_t len)
{
	return vringh_kiov_xfer(riov, dst, len, vringh_pull_kern, "read");
}
EXPORT_SYMBOL(vringh_iov_pull_kern);

/**
 * vringh_iov_push_kern - copy bytes into the device-writable buffers
 * @wiov: the wiov from vringh_getdesc_kern(), consumed as it is written
 * @src: where to copy from
 * @len: the most bytes to copy
 *
 * Return: the bytes copied (less than @len once @wiov runs out, 0 when it
 * is exhausted).
 */
ssize_t vringh_iov_push_kern(struct vringh_kiov *wiov,
			     const void *src, size_t len)
{
	return vringh_kiov_xfer(wiov, (void *)src, len, vringh_push_kern,
				"write");
}
EXPORT_SYMBOL(vringh_iov_push_kern);

/**
 * vringh_abandon_kern - give back buffers taken but not used
 * @vrh: the ring
 * @num: how many vringh_getdesc_kern() calls to undo
 *
 * The next vringh_getdesc_kern() returns the first of them again.
 */
void vringh_abandon_kern(struct vringh *vrh, unsigned int num)
{
	vrh->last_avail_idx -= num;
}
EXPORT_SYMBOL(vringh_abandon_kern);

/**
 * vringh_complete_kern - return one buffer to the guest
 * @vrh: the ring
 * @head: the head vringh_getdesc_kern() gave
 * @len: how many bytes were written into the buffer
 *
 * Call vringh_need_notify_kern() afterwards.
 *
 * Return: 0.
 */
int vringh_complete_kern(struct vringh *vrh, u16 head, u32 len)
{
	return vringh_split_complete_one(vrh, &vringh_kern_access, head, len);
}
EXPORT_SYMBOL(vringh_complete_kern);

/**
 * vringh_notify_enable_kern - ask the guest to kick us for new buffers
 * @vrh: the ring
 *
 * As vringh_notify_enable_user().
 *
 * Return: true if the ring is still empty (safe to sleep), false if
 * buffers arrived meanwhile.
 */
bool vringh_notify_enable_kern(struct vringh *vrh)
{
	return vringh_split_notify_enable(vrh, &vringh_kern_access);
}
EXPORT_SYMBOL(vringh_notify_enable_kern);

/**
 * vringh_notify_disable_kern - tell the guest not to kick us
 * @vrh: the ring
 *
 * As vringh_notify_disable_user().
 */
void vringh_notify_disable_kern(struct vringh *vrh)
{
	vringh_split_notify_disable(vrh, &vringh_kern_access);
}
EXPORT_SYMBOL(vringh_notify_disable_kern);

/**
 * vringh_need_notify_kern - must the guest be told about used buffers?
 * @vrh: the ring, after vringh_complete_kern() calls
 *
 * As vringh_need_notify_user().
 *
 * Return: 1 to notify, 0 not to.
 */
int vringh_need_notify_kern(struct vringh *vrh)
{
	return vringh_split_need_notify(vrh, &vringh_kern_access);
}
EXPORT_SYMBOL(vringh_need_notify_kern);

MODULE_DESCRIPTION("Device side of the virtio split ring");
MODULE_LICENSE("GPL");
