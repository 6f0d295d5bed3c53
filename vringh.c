// SPDX-License-Identifier: GPL-2.0-only
/*
 * The device (host) side of a virtio ring, split or packed: take the
 * buffers a guest made available, hand their memory to the caller as
 * iovecs, and return them used.
 *
 * Everything the guest wrote is untrusted.  Every index is range-checked,
 * every chain is bounded, every guest address is translated and checked,
 * and each descriptor is read exactly once into private memory before it
 * is looked at.  A bad ring is refused with a negative errno and a message
 * saying what was wrong and where; the ring state does not move, so the
 * caller can report the error and stop.
 *
 * The file has four parts:
 *
 *  - accessor flavours: how ring words and guest memory are reached (user
 *    pointers through uaccess, or kernel pointers directly);
 *  - layout-independent helpers: guest address translation, iovec
 *    building and growth, copying to and from iovecs;
 *  - the split ring itself: reading heads, walking descriptor chains,
 *    publishing used elements, notification suppression;
 *  - the packed ring: the same jobs on one ring of descriptors with wrap
 *    counters, using the first two parts unchanged.
 *
 * The exported API is one family for both layouts: only init differs, and
 * every other entry point dispatches on vrh->packed to the layout's own
 * function, so each layout reads on its own.  VIRTIO_F_IN_ORDER changes a
 * few steps inside each layout (heads inferred and checked, buffers used in
 * the order taken) and adds vringh_complete_batch_*(): see "In-order split
 * rings" below and DOC: in-order rings in linux/vringh.h.
 */
#include <linux/compiler.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vhost_iotlb.h>
#include <linux/virtio_ring.h>
#include <linux/vringh.h>
#include <uapi/linux/virtio_config.h>

/* Every refusal goes through here: one line, always printed. */
#define vringh_bad(fmt, ...)	pr_err("vringh: " fmt "\n", ##__VA_ARGS__)

/* The most bytes a split chain may hold (2.7.5.2). */
#define VRINGH_CHAIN_MAX_BYTES	(1ULL << 32)

/* Most entries an iovec array may hold: the count must not reach the flag. */
#define VRINGH_IOV_MAX		(VRINGH_IOV_ALLOCATED - 1)


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
	int (*copy_in)(void *dst, const void *src, size_t len,
		       const struct vringh *vrh);
	/* @dst is shared memory: used elements, buffers. */
	int (*copy_out)(void *dst, const void *src, size_t len,
			const struct vringh *vrh);
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

static int vringh_copy_in_user(void *dst, const void *src, size_t len,
			       const struct vringh *vrh __always_unused)
{
	if (copy_from_user(dst, (__force const void __user *)src, len))
		return -EFAULT;
	return 0;
}

static int vringh_copy_out_user(void *dst, const void *src, size_t len,
				const struct vringh *vrh __always_unused)
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

static int vringh_copy_kern(void *dst, const void *src, size_t len,
			    const struct vringh *vrh __always_unused)
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
 * The IOTLB flavour: every address, of the ring and in its descriptors, is
 * an I/O address, looked up in vrh->iotlb at each access.  A range may be
 * several maps; each map gives a host address (a physical address, or with
 * vrh->use_va a user address) and permissions.  As in Linux 6.12's vringh,
 * a ring word (an index, flags, an avail entry, an event index) that no
 * map holds is refused with -EINVAL, one whose map lacks the permission
 * with -EPERM; any other copy (descriptors, tables, used elements, buffer
 * bytes) that cannot be made whole fails with -EFAULT.
 */

/*
 * The map holding I/O address @io: *@host is the host address there and
 * *@part (cut from @len, not zero) how many bytes from @io it holds.
 */
static int vringh_iotlb_lookup(const struct vringh *vrh, u64 io, u64 len,
			       u32 perm, u64 *host, u64 *part)
{
	struct vhost_iotlb_map *map;
	u64 start = 0, last = 0, addr = 0, end;
	u32 map_perm = 0;
	bool found;

	if (unlikely(!vrh->iotlb)) {
		vringh_bad("I/O address 0x%llx: no IOTLB was set (vringh_set_iotlb)",
			   (unsigned long long)io);
		return -EINVAL;
	}
	if (unlikely(check_add_overflow(io, len - 1, &end))) {
		vringh_bad("%llu bytes at I/O address 0x%llx run past the end of the address space",
			   (unsigned long long)len, (unsigned long long)io);
		return -EINVAL;
	}

	spin_lock(vrh->iotlb_lock);
	map = vhost_iotlb_itree_first(vrh->iotlb, io, end);
	found = map && map->start <= io;
	if (found) {
		start = map->start;
		last = map->last;
		addr = map->addr;
		map_perm = map->perm;
	}
	spin_unlock(vrh->iotlb_lock);

	if (unlikely(!found)) {
		vringh_bad("I/O address 0x%llx is not mapped (%llu bytes wanted from there)",
			   (unsigned long long)io, (unsigned long long)len);
		return -EINVAL;
	}
	if (unlikely(!(map_perm & perm))) {
		vringh_bad("I/O address 0x%llx is mapped %s: the access needs %s",
			   (unsigned long long)io,
			   map_perm & VHOST_MAP_WO ? "write-only" :
			   map_perm & VHOST_MAP_RO ? "read-only" : "without access",
			   perm == VHOST_MAP_WO ? "write" : "read");
		return -EPERM;
	}
	/* Compare with the room left, minus one: cannot overflow. */
	*part = len - 1 > last - io ? last - io + 1 : len;
	if (unlikely(check_add_overflow(addr, io - start, host) ||
		     check_add_overflow(*host, *part - 1, &end) ||
		     (u64)(unsigned long)end != end)) {
		vringh_bad("I/O address 0x%llx maps beyond the host's addresses (map at 0x%llx to 0x%llx)",
			   (unsigned long long)io, (unsigned long long)start,
			   (unsigned long long)addr);
		return -EINVAL;
	}
	return 0;
}

/* Copy @len bytes between @buf and I/O address @io, map by map. */
static int vringh_iotlb_copy(const struct vringh *vrh, u64 io, void *buf,
			     size_t len, bool to_io)
{
	while (len) {
		u64 host, part;
		int err;

		err = vringh_iotlb_lookup(vrh, io, len,
					  to_io ? VHOST_MAP_WO : VHOST_MAP_RO,
					  &host, &part);
		if (err)
			return err;
		if (vrh->use_va) {
			void __user *u = (void __user *)(unsigned long)host;

			if (to_io ? copy_to_user(u, buf, part) :
				    copy_from_user(buf, u, part)) {
				vringh_bad("I/O address 0x%llx: cannot %s %llu bytes at user address 0x%llx",
					   (unsigned long long)io,
					   to_io ? "write" : "read",
					   (unsigned long long)part,
					   (unsigned long long)host);
				return -EFAULT;
			}
		} else if (to_io) {
			memcpy(phys_to_virt(host), buf, part);
		} else {
			memcpy(buf, phys_to_virt(host), part);
		}
		io += part;
		buf = (char *)buf + part;
		len -= part;
	}
	return 0;
}

/* A ring word in one map is one access; one across two maps, bytes. */
static int vringh_get16_iotlb(const struct vringh *vrh, u16 *val,
			      const __virtio16 *p)
{
	u64 io = (unsigned long)p, host, part;
	__virtio16 v = 0;
	int err;

	err = vringh_iotlb_lookup(vrh, io, sizeof(v), VHOST_MAP_RO, &host,
				  &part);
	if (err)
		return err;
	if (part < sizeof(v) || !IS_ALIGNED(host, sizeof(v)))
		err = vringh_iotlb_copy(vrh, io, &v, sizeof(v), false);
	else if (vrh->use_va)
		err = get_user(v, (__virtio16 __user *)(unsigned long)host) ?
		      -EFAULT : 0;
	else
		v = READ_ONCE(*(__virtio16 *)phys_to_virt(host));
	if (err)
		return err;
	*val = vringh16_to_cpu(vrh, v);
	return 0;
}

static int vringh_put16_iotlb(const struct vringh *vrh, __virtio16 *p,
			      u16 val)
{
	__virtio16 v = cpu_to_vringh16(vrh, val);
	u64 io = (unsigned long)p, host, part;
	int err;

	err = vringh_iotlb_lookup(vrh, io, sizeof(v), VHOST_MAP_WO, &host,
				  &part);
	if (err)
		return err;
	if (part < sizeof(v) || !IS_ALIGNED(host, sizeof(v)))
		return vringh_iotlb_copy(vrh, io, &v, sizeof(v), true);
	if (vrh->use_va)
		return put_user(v, (__virtio16 __user *)(unsigned long)host) ?
		       -EFAULT : 0;
	WRITE_ONCE(*(__virtio16 *)phys_to_virt(host), v);
	return 0;
}

static int vringh_copy_in_iotlb(void *dst, const void *src, size_t len,
				const struct vringh *vrh)
{
	if (vringh_iotlb_copy(vrh, (unsigned long)src, dst, len, false))
		return -EFAULT;
	return 0;
}

static int vringh_copy_out_iotlb(void *dst, const void *src, size_t len,
				 const struct vringh *vrh)
{
	if (vringh_iotlb_copy(vrh, (unsigned long)dst, (void *)src, len, true))
		return -EFAULT;
	return 0;
}

static const struct vringh_access vringh_iotlb_access = {
	.get16		= vringh_get16_iotlb,
	.put16		= vringh_put16_iotlb,
	.copy_in	= vringh_copy_in_iotlb,
	.copy_out	= vringh_copy_out_iotlb,
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
	u16 end;		/* split: the table entry after the chain's last */
	/*
	 * Split: the chain's descriptors so far, in the ring's table and in
	 * an indirect table (not the descriptor pointing to the table).  A
	 * driver must not make a chain longer than the queue size (2.7.5.3.1).
	 */
	unsigned int length;
	/* Split: the chain's bytes so far; at most 2^32 (2.7.5.2). */
	u64 bytes;
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
	walk->length = 0;
	walk->bytes = 0;

	if (riov)
		riov->i = riov->used = riov->consumed = 0;
	if (wiov)
		wiov->i = wiov->used = wiov->consumed = 0;
}

/* Is [addr, addr + len) a sane span?  @len is not zero. */
static __always_inline bool vringh_span_ok(const struct vringh_walk *walk,
					   u64 addr, u64 len, const char *what)
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
		err = walk->acc->copy_in(dst, src, part, walk->vrh);
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

	/* 2.7.5.2: a split chain holds at most 2^32 bytes in total. */
	walk->bytes += len;
	if (unlikely(walk->bytes > VRINGH_CHAIN_MAX_BYTES) &&
	    !walk->vrh->packed) {
		vringh_bad("head %u: the chain holds more than 2^32 bytes (%llu so far)",
			   walk->head, (unsigned long long)walk->bytes);
		return -EINVAL;
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
 * Mark @n bytes of the current iovec, @v, consumed.  A finished iovec gets
 * its original base and length back (vringh_kiov_reset() relies on that)
 * and the walk moves to the next one.
 */
static inline void vringh_kiov_consume(struct vringh_kiov *iov,
				       struct kvec *v, size_t n)
{
	size_t rest = v->iov_len - n;

	if (likely(rest)) {
		v->iov_base = (char *)v->iov_base + n;
		v->iov_len = rest;
		iov->consumed += n;
		return;
	}
	v->iov_base = (char *)v->iov_base - iov->consumed;
	v->iov_len = iov->consumed + n;
	iov->consumed = 0;
	iov->i++;
}

/*
 * Copy between the iovecs and @buf, consuming what was copied.  @xfer gets
 * (iovec memory, @buf, length, @vrh); @vrh matters only to the IOTLB
 * flavour, whose iovecs hold I/O addresses.  @verb says which way, for
 * messages.  Returns the bytes copied or -errno; on error nothing more is
 * consumed.
 */
static __always_inline ssize_t
vringh_kiov_xfer(const struct vringh *vrh, struct vringh_kiov *iov,
		 void *buf, size_t len,
		 int (*xfer)(void *iov_mem, void *buf, size_t n,
			     const struct vringh *vrh),
		 const char *verb)
{
	size_t asked;

	/* Nothing asked, or more than the return type can count. */
	if (unlikely((ssize_t)len <= 0)) {
		if (!len)
			return 0;
		len = (size_t)-1 >> 1;
	}
	asked = len;

	while (len && iov->i < iov->used) {
		struct kvec *v = &iov->iov[iov->i];
		size_t part = min(v->iov_len, len);
		int err;

		err = xfer(v->iov_base, buf, part, vrh);
		if (unlikely(err)) {
			vringh_bad("cannot %s %zu bytes of buffer memory at %p (iovec %u)",
				   verb, part, v->iov_base, iov->i);
			return err;
		}
		vringh_kiov_consume(iov, v, part);
		buf = (char *)buf + part;
		len -= part;
	}
	return asked - len;
}

static int vringh_pull_user(void *iov_mem, void *buf, size_t n,
			    const struct vringh *vrh)
{
	return vringh_copy_in_user(buf, iov_mem, n, vrh);
}

static int vringh_push_user(void *iov_mem, void *buf, size_t n,
			    const struct vringh *vrh)
{
	return vringh_copy_out_user(iov_mem, buf, n, vrh);
}

static int vringh_pull_kern(void *iov_mem, void *buf, size_t n,
			    const struct vringh *vrh)
{
	return vringh_copy_kern(buf, iov_mem, n, vrh);
}

static int vringh_push_kern(void *iov_mem, void *buf, size_t n,
			    const struct vringh *vrh)
{
	return vringh_copy_kern(iov_mem, buf, n, vrh);
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
	/* 2.7.1: the driver aligns each part (16, 2 and 4 bytes). */
	if (!IS_ALIGNED((unsigned long)desc, 16) ||
	    !IS_ALIGNED((unsigned long)avail, 2) ||
	    !IS_ALIGNED((unsigned long)used, 4)) {
		vringh_bad("ring parts at %p, %p, %p refused: the descriptor table, avail ring and used ring must be 16, 2 and 4-byte aligned",
			   desc, avail, used);
		return -EINVAL;
	}

	vrh->little_endian = !!(features & (1ULL << VIRTIO_F_VERSION_1));
	vrh->event_indices = !!(features & (1ULL << VIRTIO_RING_F_EVENT_IDX));
	vrh->weak_barriers = weak_barriers;
	vrh->last_avail_idx = 0;
	vrh->avail_idx_seen = 0;
	vrh->last_used_idx = 0;
	vrh->completed = 0;
	vrh->vring.num = num;
	vrh->vring.desc = desc;
	vrh->vring.avail = avail;
	vrh->vring.used = used;
	vrh->packed = false;
	vrh->packed_descs = NULL;
	vrh->packed_taken = NULL;
	vrh->indirect = !!(features & (1ULL << VIRTIO_RING_F_INDIRECT_DESC));
	vrh->in_order = !!(features & (1ULL << VIRTIO_F_IN_ORDER));
	/* In order, the first chain starts at offset 0 (2.7.5). */
	vrh->next_head = 0;
	vrh->packed_use_idx = 0;
	return 0;
}

/*
 * In-order split rings (VIRTIO_F_IN_ORDER): what the specification lets
 * the device infer, and what it does not.
 *
 *  - 2.7.5: "If VIRTIO_F_IN_ORDER has been negotiated, driver uses
 *    descriptors in ring order: starting from offset 0 in the table, and
 *    wrapping around at the end of the table."  2.7.5.2: a descriptor at
 *    offset x with NEXT has next = x + 1, or 0 for x = queue_size - 1.
 *    6.2 (the feature bit): buffers are used in the order in which they
 *    have been made available.  So the chains of successive buffers lie
 *    back to back in the table, and the next head is where the previous
 *    chain ended: the avail ring entry holds nothing a driver keeping
 *    these rules can choose.  That is what lets a device take the head
 *    from its own index (vrh->next_head).
 *  - Nothing lets it skip avail->idx: 2.7.13 still has the driver put
 *    every head in the avail ring and then publish avail->idx, and only
 *    avail->idx says how many buffers are available (and its read, with
 *    the barrier after it, is what makes their descriptors safe to read).
 *    The head can be inferred; the count cannot.
 *  - The specification says the driver MUST keep ring order; it says
 *    nothing of a device checking it.  We do (the guest is untrusted): the
 *    avail entry is still read and must name the inferred head, and a
 *    chain's next must be x + 1; anything else is refused with -EINVAL.
 *    The chain is walked from the inferred head, so reading it does not
 *    wait for the avail entry: only the comparison does.
 *  - Batched used entries (2.7.9) are vringh_complete_batch_*().
 */

/*
 * Look at the next available head without taking it.  Returns 1 and sets
 * *@head, 0 if the guest has made nothing new available, or -errno.  In
 * order, *@head is the inferred head, which the avail entry must match.
 */
static __always_inline int
vringh_split_peek_head(struct vringh *vrh,
		       const struct vringh_access *acc, u16 *head)
{
	const struct vring *vr = &vrh->vring;
	u16 avail_idx, pending, seen, slot, h;
	int err;

	err = acc->get16(vrh, &avail_idx, &vr->avail->idx);
	if (unlikely(err)) {
		vringh_bad("cannot read the avail index at %p", &vr->avail->idx);
		return err;
	}

	pending = avail_idx - vrh->last_avail_idx;
	/*
	 * 2.7.6.1: the driver never decrements the avail index.  What we saw
	 * last is ahead of what we took, unless the caller moved
	 * last_avail_idx itself (vhost-user's base): then it is forgotten.
	 */
	seen = vrh->avail_idx_seen - vrh->last_avail_idx;
	if (unlikely(pending < seen) && seen <= vr->num) {
		vringh_bad("avail index went back from %u to %u",
			   vrh->avail_idx_seen, avail_idx);
		return -EINVAL;
	}
	vrh->avail_idx_seen = avail_idx;
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

	if (vrh->in_order && likely(vrh->next_head != VRINGH_HEAD_UNKNOWN)) {
		if (unlikely(h != vrh->next_head)) {
			vringh_bad("avail ring slot %u offers head %u, but in order (VIRTIO_F_IN_ORDER) the next chain starts at %u, where the last one ended",
				   slot, h, vrh->next_head);
			return -EINVAL;
		}
		*head = vrh->next_head;
		return 1;
	}

	*head = h;
	return 1;
}

/*
 * Count one more descriptor of the chain, in the ring's table or in an
 * indirect table.  2.7.5.3.1: "A driver MUST NOT create a descriptor chain
 * longer than the Queue Size of the device", counting every descriptor that
 * describes a buffer, direct or indirect.  It is also what bounds the work
 * of one getdesc: at most num descriptors of the ring's table and num
 * entries of an indirect table are read.
 */
static __always_inline bool vringh_split_count(struct vringh_walk *walk)
{
	if (likely(++walk->length <= walk->vrh->vring.num))
		return true;
	vringh_bad("chain at head %u has more than %u descriptors (ring and indirect table together): a chain may not be longer than the queue size",
		   walk->head, walk->vrh->vring.num);
	return false;
}

/*
 * Walk the indirect table that descriptor @at points to.  Its entries may
 * chain in any order.  A walk that visits more entries than the table has
 * is a loop; one that makes the chain longer than the ring is refused
 * before that, so a table larger than the ring ends no later.
 */
static __always_inline int
vringh_split_walk_table(struct vringh_walk *walk, u16 at,
			const struct vring_desc *ind)
{
	const struct vringh *vrh = walk->vrh;
	u64 base = vringh64_to_cpu(vrh, ind->addr);
	u32 len = vringh32_to_cpu(vrh, ind->len);
	unsigned int size, count = 0;
	u16 i = 0;

	if (unlikely(!vrh->indirect)) {
		vringh_bad("descriptor %u (head %u) is indirect, but VIRTIO_RING_F_INDIRECT_DESC was not negotiated",
			   at, walk->head);
		return -EINVAL;
	}
	if (unlikely(!len || len % sizeof(struct vring_desc))) {
		vringh_bad("descriptor %u (head %u): indirect table of %u bytes is not a whole, nonzero number of %zu-byte descriptors",
			   at, walk->head, len, sizeof(struct vring_desc));
		return -EINVAL;
	}
	if (!vringh_span_ok(walk, base, len, "indirect table"))
		return -EINVAL;

	size = len / sizeof(struct vring_desc);

	for (;;) {
		struct vring_desc desc;
		u16 flags, next;
		int err;

		if (unlikely(++count > size)) {
			vringh_bad("indirect table at 0x%llx (head %u) chains through more than its %u entries: a loop",
				   (unsigned long long)base, walk->head, size);
			return -ELOOP;
		}
		if (unlikely(!vringh_split_count(walk)))
			return -EINVAL;

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
		/* In order, table entries are used 0, 1, 2, ... (2.7.5.3.1). */
		if (vrh->in_order && unlikely(next != i + 1)) {
			vringh_bad("indirect table at 0x%llx (head %u): entry %u chains to %u, but in order (VIRTIO_F_IN_ORDER) it must be %u",
				   (unsigned long long)base, walk->head, i,
				   next, i + 1);
			return -EINVAL;
		}
		i = next;
	}
}

/*
 * Walk the chain that starts at descriptor @head of the ring's table: zero
 * or more direct descriptors, then at most one that points to an indirect
 * table, which ends the chain (2.7.5.3.1: not both INDIRECT and NEXT).  A
 * chain that visits more than num descriptors of the table must be a loop.
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

		err = walk->acc->copy_in(&desc, &vr->desc[i], sizeof(desc),
					 walk->vrh);
		if (unlikely(err)) {
			vringh_bad("cannot read descriptor %u at %p (head %u)",
				   i, &vr->desc[i], walk->head);
			return err;
		}

		flags = vringh16_to_cpu(vrh, desc.flags);
		if (unlikely(flags & VRING_DESC_F_INDIRECT)) {
			if (unlikely(flags & VRING_DESC_F_NEXT)) {
				vringh_bad("descriptor %u (head %u) has both INDIRECT and NEXT: an indirect descriptor must end its chain",
					   i, walk->head);
				return -EINVAL;
			}
			err = vringh_split_walk_table(walk, i, &desc);
		} else {
			/* Never past num: count is at least as far. */
			walk->length++;
			err = vringh_walk_add(walk,
					      vringh64_to_cpu(vrh, desc.addr),
					      vringh32_to_cpu(vrh, desc.len),
					      flags & VRING_DESC_F_WRITE);
		}
		if (err)
			return err;

		if (!(flags & VRING_DESC_F_NEXT)) {
			walk->end = (i + 1) & (vr->num - 1);
			return 0;
		}

		next = vringh16_to_cpu(vrh, desc.next);
		if (unlikely(next >= vr->num)) {
			vringh_bad("descriptor %u (head %u): next %u is past the ring's %u descriptors",
				   i, walk->head, next, vr->num);
			return -EINVAL;
		}
		/* In order, a chain runs in ring order (2.7.5.2). */
		if (vrh->in_order &&
		    unlikely(next != ((i + 1) & (vr->num - 1)))) {
			vringh_bad("descriptor %u (head %u): next %u, but in order (VIRTIO_F_IN_ORDER) it must be %u",
				   i, walk->head, next, (i + 1) & (vr->num - 1));
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
	/* In order, the next chain starts where this one ended. */
	vrh->next_head = walk.end;
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
			    first * sizeof(*elems), vrh);
	if (!err && first < n)
		err = acc->copy_out(&vr->used->ring[0], elems + first,
				    (n - first) * sizeof(*elems), vrh);
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

/*
 * In order: one used element for the @count oldest buffers, in the slot of
 * the first of them, and the used index moved on by @count (2.7.9).  Only
 * the count can be checked: which heads those buffers had, vringh does not
 * record.
 */
static __always_inline int
vringh_split_complete_batch(struct vringh *vrh,
			    const struct vringh_access *acc, u16 last_head,
			    u32 len, unsigned int count)
{
	const struct vring *vr = &vrh->vring;
	u16 used_idx = vrh->last_used_idx + vrh->completed;
	u16 held = vrh->last_avail_idx - used_idx;
	unsigned int off = used_idx & (vr->num - 1);
	struct vring_used_elem elem;
	int err;

	if (unlikely(!count || count > held || last_head >= vr->num)) {
		vringh_bad("cannot complete a batch of %u buffers ending with head %u: %u are taken and not used, in a ring of %u",
			   count, last_head, held, vr->num);
		return -EINVAL;
	}

	elem.id = cpu_to_vringh32(vrh, last_head);
	elem.len = cpu_to_vringh32(vrh, len);
	err = acc->copy_out(&vr->used->ring[off], &elem, sizeof(elem), vrh);
	if (unlikely(err)) {
		vringh_bad("cannot write the used element at slot %u (%p)",
			   off, &vr->used->ring[off]);
		return err;
	}

	/* The guest must see the element before the index that covers it. */
	virtio_wmb(vrh->weak_barriers);

	err = acc->put16(vrh, &vr->used->idx, used_idx + count);
	if (unlikely(err)) {
		vringh_bad("cannot write the used index at %p", &vr->used->idx);
		return err;
	}
	vrh->completed += count;
	return 0;
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

	err = acc->get16(vrh, &val, &vr->avail->flags);
	if (unlikely(err)) {
		vringh_bad("cannot read the avail flags at %p",
			   &vr->avail->flags);
		return err;
	}
	/* 2.7.7: 0 or 1 (NO_INTERRUPT); 0 with VIRTIO_RING_F_EVENT_IDX. */
	if (unlikely(val & ~(vrh->event_indices ? 0 :
			     VRING_AVAIL_F_NO_INTERRUPT))) {
		vringh_bad("avail flags 0x%x: the driver may set only %s",
			   val, vrh->event_indices ?
			   "0 with VIRTIO_RING_F_EVENT_IDX" : "0 or 1");
		return -EINVAL;
	}

	if (!vrh->event_indices) {
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
 * The packed ring (virtio 2.8).
 *
 * One ring of descriptors.  The driver writes each list of descriptors in
 * ring order, the first one's flags last, after a write barrier (2.8.6); a
 * descriptor is available when its AVAIL flag equals the driver's wrap
 * counter for that lap and its USED flag does not (2.8.1).  The device
 * reads lists in ring order and writes one used descriptor per buffer, in
 * completion order, at its own used offset, which then moves on by the
 * number of descriptors the buffer took (2.8.6, 2.8.12): the driver keeps
 * that number per buffer id and skips the same way.  So does the device
 * (vrh->packed_descs), whatever order buffers complete in.
 *
 * Positions along the ring count modulo 2 * num: the offset in laps with
 * wrap counter 1, the offset plus num in laps with 0.  The descriptors the
 * device holds (taken, not yet used) run from the used position to the
 * avail position: never more than num.
 */
#define VRINGH_PACKED_F_AVAIL	(1 << VRING_PACKED_DESC_F_AVAIL)
#define VRINGH_PACKED_F_USED	(1 << VRING_PACKED_DESC_F_USED)
#define VRINGH_PACKED_MAX_NUM	32768
/* The flags of an event suppression structure: the rest is reserved. */
#define VRINGH_PACKED_EVENT_FLAGS	0x3
/* Marks an id in packed_descs while a batch is checked. */
#define VRINGH_PACKED_MARK	(1U << 31)
/* Indirect table entries read at a time. */
#define VRINGH_PACKED_TABLE_CHUNK	16U

/* Is a descriptor with @flags available in a lap with driver wrap @wrap? */
static inline bool vringh_packed_is_avail(u16 flags, bool wrap)
{
	return !!(flags & VRINGH_PACKED_F_AVAIL) == wrap &&
	       !!(flags & VRINGH_PACKED_F_USED) != wrap;
}

static inline unsigned int vringh_packed_pos(const struct vringh *vrh,
					     u16 off, bool wrap)
{
	return wrap ? off : off + vrh->vring.num;
}

/* Move (@off, @wrap) on by @n positions, @n at most the ring size. */
static inline void vringh_packed_forward(const struct vringh *vrh, u16 *off,
					 bool *wrap, unsigned int n)
{
	unsigned int o = *off + n;

	if (o >= vrh->vring.num) {
		o -= vrh->vring.num;
		*wrap = !*wrap;
	}
	*off = o;
}

/* Move (@off, @wrap) back by @n positions, @n at most the ring size. */
static inline void vringh_packed_back(const struct vringh *vrh, u16 *off,
				      bool *wrap, unsigned int n)
{
	if (n > *off) {
		*off = *off + vrh->vring.num - n;
		*wrap = !*wrap;
	} else {
		*off -= n;
	}
}

/* Descriptors the device holds: taken and not yet used. */
static inline unsigned int vringh_packed_held(const struct vringh *vrh)
{
	unsigned int avail = vringh_packed_pos(vrh, vrh->last_avail_idx,
					       vrh->avail_wrap_counter);
	unsigned int used = vringh_packed_pos(vrh, vrh->last_used_idx,
					      vrh->used_wrap_counter);

	return avail >= used ? avail - used : avail + 2 * vrh->vring.num - used;
}

static int vringh_init_packed(struct vringh *vrh, u64 features,
			      unsigned int num, bool weak_barriers,
			      struct vring_packed_desc *desc,
			      struct vring_packed_desc_event *driver,
			      struct vring_packed_desc_event *device)
{
	u32 *descs;

	if (!num || num > VRINGH_PACKED_MAX_NUM) {
		vringh_bad("packed ring size %u refused: it must be 1 to %u",
			   num, VRINGH_PACKED_MAX_NUM);
		return -EINVAL;
	}
	/* 2.8.10.1: the driver aligns each part (16, 4 and 4 bytes). */
	if (!IS_ALIGNED((unsigned long)desc, 16) ||
	    !IS_ALIGNED((unsigned long)driver, 4) ||
	    !IS_ALIGNED((unsigned long)device, 4)) {
		vringh_bad("packed ring parts at %p, %p, %p refused: the descriptor ring and both event suppression structures must be 16, 4 and 4-byte aligned",
			   desc, driver, device);
		return -EINVAL;
	}
	/* Per id the descriptors it took, then the ids in the order taken. */
	descs = kcalloc(num, sizeof(u32) + sizeof(u16), GFP_KERNEL);
	if (!descs) {
		vringh_bad("cannot allocate the state of a packed ring of %u",
			   num);
		return -ENOMEM;
	}

	/* Packed rings exist only in virtio 1.x: always little endian. */
	vrh->little_endian = true;
	vrh->event_indices = !!(features & (1ULL << VIRTIO_RING_F_EVENT_IDX));
	vrh->weak_barriers = weak_barriers;
	vrh->last_avail_idx = 0;
	vrh->last_used_idx = 0;
	vrh->completed = 0;
	vrh->vring.num = num;
	vrh->vring.desc = NULL;
	vrh->vring.avail = NULL;
	vrh->vring.used = NULL;
	vrh->packed = true;
	vrh->avail_wrap_counter = true;
	vrh->used_wrap_counter = true;
	vrh->vring_packed.num = num;
	vrh->vring_packed.desc = desc;
	vrh->vring_packed.driver = driver;
	vrh->vring_packed.device = device;
	vrh->packed_descs = descs;
	vrh->packed_taken = (u16 *)(descs + num);
	vrh->packed_take_idx = 0;
	vrh->indirect = !!(features & (1ULL << VIRTIO_RING_F_INDIRECT_DESC));
	vrh->in_order = !!(features & (1ULL << VIRTIO_F_IN_ORDER));
	vrh->next_head = 0;
	vrh->packed_use_idx = 0;
	return 0;
}

/*
 * Has the driver made the next descriptor available?  Returns 1 with its
 * flags in *@flags (read once, a read barrier behind them), 0, or -errno.
 */
static __always_inline int
vringh_packed_peek(const struct vringh *vrh, const struct vringh_access *acc,
		   u16 *flags)
{
	const struct vring_packed_desc *d =
		&vrh->vring_packed.desc[vrh->last_avail_idx];
	bool wrap = vrh->avail_wrap_counter;
	int err;

	err = acc->get16(vrh, flags, (const __virtio16 *)&d->flags);
	if (unlikely(err)) {
		vringh_bad("cannot read the flags of descriptor %u at %p",
			   vrh->last_avail_idx, &d->flags);
		return err;
	}
	if (likely(vringh_packed_is_avail(*flags, wrap))) {
		/* The rest of the list is valid once we saw these flags. */
		virtio_rmb(vrh->weak_barriers);
		return 1;
	}
	/*
	 * Not available: the previous lap's descriptor, used by us or not
	 * (or the zeroed ring of the first lap).  Used in this lap it cannot
	 * be, as we have not used it yet.
	 */
	if (unlikely(!!(*flags & VRINGH_PACKED_F_AVAIL) == wrap)) {
		vringh_bad("descriptor %u has flags 0x%x: used in the current lap (wrap counter %u), which the device has not done: wrap counter confusion",
			   vrh->last_avail_idx, *flags, wrap);
		return -EINVAL;
	}
	return 0;
}

/*
 * Walk the indirect table that descriptor @at points to: its entries follow
 * each other, and WRITE is the only flag they may use (2.8.7).
 */
static __always_inline int
vringh_packed_walk_table(struct vringh_walk *walk, u16 at,
			 const struct vring_packed_desc *ind)
{
	const unsigned int num = walk->vrh->vring.num;
	u64 base = le64_to_cpu(ind->addr);
	u32 len = le32_to_cpu(ind->len);
	unsigned int size, i, j, n;

	if (unlikely(!walk->vrh->indirect)) {
		vringh_bad("descriptor %u is indirect, but VIRTIO_RING_F_INDIRECT_DESC was not negotiated",
			   at);
		return -EINVAL;
	}
	if (unlikely(!len || len % sizeof(struct vring_packed_desc))) {
		vringh_bad("descriptor %u: indirect table of %u bytes is not a whole, nonzero number of %zu-byte descriptors",
			   at, len, sizeof(struct vring_packed_desc));
		return -EINVAL;
	}
	size = len / sizeof(struct vring_packed_desc);
	if (unlikely(size > num)) {
		vringh_bad("descriptor %u: indirect table at 0x%llx has %u entries, more than the ring's %u: a list may not be longer than the queue size",
			   at, (unsigned long long)base, size, num);
		return -EINVAL;
	}
	if (!vringh_span_ok(walk, base, len, "indirect table"))
		return -EINVAL;

	for (i = 0; i < size; i += n) {
		struct vring_packed_desc chunk[VRINGH_PACKED_TABLE_CHUNK];
		int err;

		n = min(size - i, VRINGH_PACKED_TABLE_CHUNK);
		err = vringh_walk_read(walk, chunk,
				       base + (u64)i * sizeof(chunk[0]),
				       n * sizeof(chunk[0]),
				       "indirect table entry");
		if (err)
			return err;

		for (j = 0; j < n; j++) {
			u16 flags = le16_to_cpu(chunk[j].flags);

			if (unlikely(flags & VRING_DESC_F_INDIRECT)) {
				vringh_bad("indirect table at 0x%llx (descriptor %u): entry %u is indirect again; only one level is allowed",
					   (unsigned long long)base, at, i + j);
				return -EINVAL;
			}
			/* 2.8.19: WRITE is the only flag a table entry has. */
			if (unlikely(flags & ~VRING_DESC_F_WRITE)) {
				vringh_bad("indirect table at 0x%llx (descriptor %u): entry %u has flags 0x%x; only WRITE is allowed in a table",
					   (unsigned long long)base, at, i + j,
					   flags);
				return -EINVAL;
			}
			err = vringh_walk_add(walk, le64_to_cpu(chunk[j].addr),
					      le32_to_cpu(chunk[j].len),
					      flags & VRING_DESC_F_WRITE);
			if (err)
				return err;
		}
	}
	return 0;
}

/*
 * Walk the list whose first descriptor, with flags @flags (already read),
 * is at vrh->last_avail_idx.  Sets *@id from its last descriptor (2.8.6)
 * and *@count to the ring descriptors it takes.  The list may not run into
 * descriptors the device still holds, so it is at most the ring long.
 */
static __always_inline int
vringh_packed_walk(struct vringh_walk *walk, u16 flags, u16 *id,
		   unsigned int *count)
{
	const struct vringh *vrh = walk->vrh;
	const struct vring_packed *vr = &vrh->vring_packed;
	unsigned int room = vr->num - vringh_packed_held(vrh);
	u16 off = vrh->last_avail_idx;
	bool wrap = vrh->avail_wrap_counter;
	unsigned int n = 0;

	for (;;) {
		struct vring_packed_desc desc;
		int err;

		if (unlikely(++n > room)) {
			if (room == vr->num) {
				vringh_bad("descriptor list at %u is longer than the ring (%u descriptors)",
					   walk->head, vr->num);
				return -ELOOP;
			}
			vringh_bad("descriptor list at %u runs past the %u free descriptors into the %u the device holds",
				   walk->head, room, vr->num - room);
			return -EINVAL;
		}

		err = walk->acc->copy_in(&desc, &vr->desc[off], sizeof(desc),
					 walk->vrh);
		if (unlikely(err)) {
			vringh_bad("cannot read descriptor %u at %p (list at %u)",
				   off, &vr->desc[off], walk->head);
			return err;
		}
		/* The first one's flags were read before the barrier. */
		if (n > 1) {
			flags = le16_to_cpu(desc.flags);
			if (unlikely(!vringh_packed_is_avail(flags, wrap))) {
				vringh_bad("descriptor %u (list at %u) has flags 0x%x: not available in its lap (wrap counter %u), though the list's first one is",
					   off, walk->head, flags, wrap);
				return -EINVAL;
			}
		}

		if (unlikely(flags & VRING_DESC_F_INDIRECT)) {
			if (unlikely(n > 1 || (flags & VRING_DESC_F_NEXT))) {
				vringh_bad("descriptor %u (list at %u): INDIRECT inside a list of descriptors; an indirect descriptor must stand alone",
					   off, walk->head);
				return -EINVAL;
			}
			err = vringh_packed_walk_table(walk, off, &desc);
		} else {
			err = vringh_walk_add(walk, le64_to_cpu(desc.addr),
					      le32_to_cpu(desc.len),
					      flags & VRING_DESC_F_WRITE);
		}
		if (err)
			return err;

		if (!(flags & VRING_DESC_F_NEXT)) {
			*id = le16_to_cpu(desc.id);
			*count = n;
			return 0;
		}
		vringh_packed_forward(vrh, &off, &wrap, 1);
	}
}

static __always_inline int
vringh_packed_getdesc(struct vringh *vrh, const struct vringh_access *acc,
		      struct vringh_kiov *riov, struct vringh_kiov *wiov,
		      bool (*getrange)(struct vringh *, u64,
				       struct vringh_range *),
		      gfp_t gfp, u16 *head)
{
	const unsigned int num = vrh->vring.num;
	struct vringh_walk walk;
	unsigned int count = 0;
	u16 flags = 0, id = 0;	/* only read on success; quiets gcc -O1 */
	int err;

	/* On error the buffer id is not known, or not to be trusted. */
	*head = num;

	if (unlikely(!riov && !wiov)) {
		vringh_bad("getdesc needs somewhere to put buffers: riov and wiov are both NULL");
		return -EINVAL;
	}

	err = vringh_packed_peek(vrh, acc, &flags);
	if (err <= 0)
		return err;

	vringh_walk_init(&walk, vrh, acc, getrange, riov, wiov, gfp,
			 vrh->last_avail_idx);
	err = vringh_packed_walk(&walk, flags, &id, &count);
	if (err)
		return err;

	if (unlikely(id >= num)) {
		vringh_bad("descriptor list at %u names buffer id %u, but ids stop at %u",
			   vrh->last_avail_idx, id, num - 1);
		return -EINVAL;
	}
	if (unlikely(vrh->packed_descs[id])) {
		vringh_bad("descriptor list at %u names buffer id %u, which is still in use",
			   vrh->last_avail_idx, id);
		return -EINVAL;
	}

	/* Take it only now: a refused list leaves the ring where it was. */
	vrh->packed_descs[id] = count;
	vrh->packed_taken[vrh->packed_take_idx] = id;
	if (++vrh->packed_take_idx == num)
		vrh->packed_take_idx = 0;
	vringh_packed_forward(vrh, &vrh->last_avail_idx,
			      &vrh->avail_wrap_counter, count);
	*head = id;
	return 1;
}

/* The flags of a used descriptor in a lap with device wrap @wrap. */
static inline u16 vringh_packed_used_flags(bool wrap, u32 len)
{
	return (wrap ? VRINGH_PACKED_F_AVAIL | VRINGH_PACKED_F_USED : 0) |
	       (len ? VRING_DESC_F_WRITE : 0);
}

/* Write a used descriptor's len and id (2.8.3), not yet its flags. */
static __always_inline int
vringh_packed_put_used(const struct vringh *vrh,
		       const struct vringh_access *acc, u16 off, u16 id,
		       u32 len)
{
	struct vring_packed_desc *d = &vrh->vring_packed.desc[off];
	__le32 le_len = cpu_to_le32(len);
	__le16 le_id = cpu_to_le16(id);
	u8 buf[sizeof(le_len) + sizeof(le_id)];
	int err;

	/* len and id are neighbours: one copy writes both. */
	BUILD_BUG_ON(offsetof(struct vring_packed_desc, id) !=
		     offsetof(struct vring_packed_desc, len) + sizeof(le_len));
	memcpy(buf, &le_len, sizeof(le_len));
	memcpy(buf + sizeof(le_len), &le_id, sizeof(le_id));
	err = acc->copy_out(&d->len, buf, sizeof(buf), vrh);
	if (unlikely(err))
		vringh_bad("cannot write used descriptor %u at %p (buffer id %u)",
			   off, d, id);
	return err;
}

static __always_inline int
vringh_packed_put_flags(const struct vringh *vrh,
			const struct vringh_access *acc, u16 off, u16 flags)
{
	struct vring_packed_desc *d = &vrh->vring_packed.desc[off];
	int err;

	err = acc->put16(vrh, (__virtio16 *)&d->flags, flags);
	if (unlikely(err))
		vringh_bad("cannot write the flags of used descriptor %u at %p",
			   off, &d->flags);
	return err;
}

/* Count @n more positions moved, stopping at twice the ring. */
static inline void vringh_packed_moved(struct vringh *vrh, unsigned int n)
{
	vrh->completed = min(vrh->completed + n, 2 * vrh->vring.num);
}

/* @i entries on from @idx in the ring of taken ids. */
static inline unsigned int vringh_packed_taken_at(const struct vringh *vrh,
						  unsigned int idx,
						  unsigned int i)
{
	idx += i;
	return idx >= vrh->vring.num ? idx - vrh->vring.num : idx;
}

/*
 * In order, is @id the buffer @i places after the oldest one taken and not
 * yet used?  (@id was checked to be taken.)  Says why not if it is not.
 */
static inline bool vringh_packed_in_order_ok(const struct vringh *vrh,
					     u16 id, unsigned int i)
{
	u16 want = vrh->packed_taken[vringh_packed_taken_at(vrh,
					vrh->packed_use_idx, i)];

	if (likely(id == want))
		return true;
	vringh_bad("cannot complete buffer id %u: in order (VIRTIO_F_IN_ORDER) buffer id %u, taken before it, must be used first",
		   id, want);
	return false;
}

static __always_inline int
vringh_packed_complete_one(struct vringh *vrh, const struct vringh_access *acc,
			   u16 id, u32 len)
{
	const unsigned int num = vrh->vring.num;
	u16 off = vrh->last_used_idx;
	u32 count;
	int err;

	if (unlikely(id >= num || !vrh->packed_descs[id])) {
		vringh_bad("cannot complete buffer id %u: %s", id,
			   id >= num ? "past the ring's ids" : "it was not taken");
		return -EINVAL;
	}
	if (vrh->in_order && unlikely(!vringh_packed_in_order_ok(vrh, id, 0)))
		return -EINVAL;
	count = vrh->packed_descs[id];

	err = vringh_packed_put_used(vrh, acc, off, id, len);
	if (err)
		return err;
	/* The driver must see id and len before the flags that publish them. */
	virtio_wmb(vrh->weak_barriers);
	err = vringh_packed_put_flags(vrh, acc, off,
			vringh_packed_used_flags(vrh->used_wrap_counter, len));
	if (err)
		return err;

	vrh->packed_descs[id] = 0;
	if (vrh->in_order)
		vrh->packed_use_idx = vringh_packed_taken_at(vrh,
						vrh->packed_use_idx, 1);
	vringh_packed_forward(vrh, &vrh->last_used_idx,
			      &vrh->used_wrap_counter, count);
	vringh_packed_moved(vrh, count);
	return 0;
}

static void vringh_packed_unmark(struct vringh *vrh,
				 const struct vring_used_elem *elems,
				 unsigned int n)
{
	while (n--)
		vrh->packed_descs[vringh32_to_cpu(vrh, elems[n].id)] &=
			~VRINGH_PACKED_MARK;
}

/*
 * Write @n used descriptors from the used offset on, each moving it by its
 * buffer's descriptor count.  Every id is checked first (taken, and once
 * only), so a refused batch writes nothing.  Ids and lengths go first, then
 * the flags of all but the first, then the first's: the driver sees the
 * whole batch at once (2.8.9).
 */
static __always_inline int
vringh_packed_complete(struct vringh *vrh, const struct vringh_access *acc,
		       const struct vring_used_elem *elems, unsigned int n)
{
	const unsigned int num = vrh->vring.num;
	unsigned int i, moved = 0;
	u16 off, first_flags = 0;
	bool wrap;
	int err;

	if (unlikely(n > num)) {
		vringh_bad("cannot complete %u buffers at once in a ring of %u",
			   n, num);
		return -EINVAL;
	}

	for (i = 0; i < n; i++) {
		u32 id = vringh32_to_cpu(vrh, elems[i].id);
		const char *why = NULL;

		if (id >= num)
			why = "past the ring's ids";
		else if (!vrh->packed_descs[id])
			why = "it was not taken";
		else if (vrh->packed_descs[id] & VRINGH_PACKED_MARK)
			why = "it is in the batch twice";
		if (unlikely(why)) {
			vringh_bad("cannot complete buffer id %u (element %u of %u): %s",
				   id, i, n, why);
			vringh_packed_unmark(vrh, elems, i);
			return -EINVAL;
		}
		if (vrh->in_order &&
		    unlikely(!vringh_packed_in_order_ok(vrh, id, i))) {
			vringh_packed_unmark(vrh, elems, i);
			return -EINVAL;
		}
		vrh->packed_descs[id] |= VRINGH_PACKED_MARK;
	}

	off = vrh->last_used_idx;
	wrap = vrh->used_wrap_counter;
	for (i = 0; i < n; i++) {
		u16 id = vringh32_to_cpu(vrh, elems[i].id);

		err = vringh_packed_put_used(vrh, acc, off, id,
					     vringh32_to_cpu(vrh, elems[i].len));
		if (err)
			goto out;
		vringh_packed_forward(vrh, &off, &wrap,
			vrh->packed_descs[id] & ~VRINGH_PACKED_MARK);
	}

	virtio_wmb(vrh->weak_barriers);

	off = vrh->last_used_idx;
	wrap = vrh->used_wrap_counter;
	for (i = 0; i < n; i++) {
		u16 id = vringh32_to_cpu(vrh, elems[i].id);
		u32 count = vrh->packed_descs[id] & ~VRINGH_PACKED_MARK;
		u16 flags = vringh_packed_used_flags(wrap,
					vringh32_to_cpu(vrh, elems[i].len));

		if (!i) {
			first_flags = flags;
		} else {
			err = vringh_packed_put_flags(vrh, acc, off, flags);
			if (err)
				goto out;
		}
		vringh_packed_forward(vrh, &off, &wrap, count);
		moved += count;
	}

	if (n) {
		virtio_wmb(vrh->weak_barriers);
		err = vringh_packed_put_flags(vrh, acc, vrh->last_used_idx,
					      first_flags);
		if (err)
			goto out;
	}

	for (i = 0; i < n; i++)
		vrh->packed_descs[vringh32_to_cpu(vrh, elems[i].id)] = 0;
	if (vrh->in_order)
		vrh->packed_use_idx = vringh_packed_taken_at(vrh,
						vrh->packed_use_idx, n);
	vrh->last_used_idx = off;
	vrh->used_wrap_counter = wrap;
	vringh_packed_moved(vrh, moved);
	return 0;

out:
	vringh_packed_unmark(vrh, elems, n);
	return err;
}

/*
 * In order: one used descriptor for the @count oldest buffers, over the
 * first descriptor of the first of them, and the used offset moved past
 * all their descriptors (2.8.8).  The buffers are the next @count in
 * packed_taken from packed_use_idx; the descriptors they hold add up to at
 * most what the device holds, so a @count past the buffers held shows as
 * an id not taken or a sum too big.  Checked before anything is written.
 */
static __always_inline int
vringh_packed_complete_batch(struct vringh *vrh,
			     const struct vringh_access *acc, u16 last_id,
			     u32 len, unsigned int count)
{
	const unsigned int num = vrh->vring.num;
	unsigned int held = vringh_packed_held(vrh);
	unsigned int idx = vrh->packed_use_idx, i, descs = 0;
	u16 off = vrh->last_used_idx, id = 0;
	int err;

	if (unlikely(!count || count > num)) {
		vringh_bad("cannot complete a batch of %u buffers in a ring of %u",
			   count, num);
		return -EINVAL;
	}
	for (i = 0; i < count; i++) {
		id = vrh->packed_taken[vringh_packed_taken_at(vrh, idx, i)];
		if (unlikely(!vrh->packed_descs[id] ||
			     descs + vrh->packed_descs[id] > held)) {
			vringh_bad("cannot complete a batch of %u buffers: only %u are taken and not used",
				   count, i);
			return -EINVAL;
		}
		descs += vrh->packed_descs[id];
	}
	if (unlikely(id != last_id)) {
		vringh_bad("cannot complete a batch of %u buffers ending with buffer id %u: in order (VIRTIO_F_IN_ORDER) the %u oldest taken end with id %u",
			   count, last_id, count, id);
		return -EINVAL;
	}

	err = vringh_packed_put_used(vrh, acc, off, last_id, len);
	if (err)
		return err;
	/* The driver must see id and len before the flags that publish them. */
	virtio_wmb(vrh->weak_barriers);
	err = vringh_packed_put_flags(vrh, acc, off,
			vringh_packed_used_flags(vrh->used_wrap_counter, len));
	if (err)
		return err;

	for (i = 0; i < count; i++)
		vrh->packed_descs[vrh->packed_taken[
			vringh_packed_taken_at(vrh, idx, i)]] = 0;
	vrh->packed_use_idx = vringh_packed_taken_at(vrh, idx, count);
	vringh_packed_forward(vrh, &vrh->last_used_idx,
			      &vrh->used_wrap_counter, descs);
	vringh_packed_moved(vrh, descs);
	return 0;
}

static __always_inline int
vringh_packed_need_notify(struct vringh *vrh, const struct vringh_access *acc)
{
	const struct vring_packed *vr = &vrh->vring_packed;
	const unsigned int num = vr->num;
	unsigned int moved = vrh->completed, new, event, behind;
	u16 flags, off_wrap, off;
	int err;

	if (!moved)
		return 0;

	/*
	 * Our used descriptors must be visible before we read what the
	 * driver wants; the driver orders the other way round when it
	 * re-enables.
	 */
	virtio_mb(vrh->weak_barriers);

	err = acc->get16(vrh, &flags, (const __virtio16 *)&vr->driver->flags);
	if (unlikely(err)) {
		vringh_bad("cannot read the driver event flags at %p",
			   &vr->driver->flags);
		return err;
	}
	flags &= VRINGH_PACKED_EVENT_FLAGS;
	if (flags == VRING_PACKED_EVENT_FLAG_DISABLE) {
		vrh->completed = 0;
		return 0;
	}
	/* ENABLE; DESC without EVENT_IDX, or the reserved value: as ENABLE. */
	if (flags != VRING_PACKED_EVENT_FLAG_DESC || !vrh->event_indices) {
		vrh->completed = 0;
		return 1;
	}

	/* The driver writes off_wrap before the flags that make it count. */
	virtio_rmb(vrh->weak_barriers);
	err = acc->get16(vrh, &off_wrap,
			 (const __virtio16 *)&vr->driver->off_wrap);
	if (unlikely(err)) {
		vringh_bad("cannot read the driver event offset at %p",
			   &vr->driver->off_wrap);
		return err;
	}
	vrh->completed = 0;

	off = off_wrap & ~(1 << VRING_PACKED_EVENT_F_WRAP_CTR);
	/* Not a ring position, or we moved too far to tell: notify. */
	if (unlikely(off >= num) || moved >= 2 * num)
		return 1;

	/*
	 * Did the used position pass the event position?  That is, does the
	 * event lie among the @moved positions just before the new one?
	 * vring_need_event() modulo 2 * num.
	 */
	new = vringh_packed_pos(vrh, vrh->last_used_idx, vrh->used_wrap_counter);
	event = vringh_packed_pos(vrh, off,
				  off_wrap >> VRING_PACKED_EVENT_F_WRAP_CTR);
	behind = new > event ? new - event - 1 : new + 2 * num - event - 1;
	return behind < moved;
}

static __always_inline bool
vringh_packed_notify_enable(struct vringh *vrh, const struct vringh_access *acc)
{
	const struct vring_packed *vr = &vrh->vring_packed;
	struct vring_packed_desc_event *ev = vr->device;
	u16 flags = VRING_PACKED_EVENT_FLAG_ENABLE;

	if (vrh->event_indices) {
		/* Kick me when you make the next descriptor available. */
		u16 off_wrap = vrh->last_avail_idx |
			(u16)vrh->avail_wrap_counter << VRING_PACKED_EVENT_F_WRAP_CTR;

		if (acc->put16(vrh, (__virtio16 *)&ev->off_wrap, off_wrap)) {
			vringh_bad("cannot write the device event offset at %p",
				   &ev->off_wrap);
			return true;
		}
		/* The offset counts once the driver sees DESC: write it first. */
		virtio_wmb(vrh->weak_barriers);
		flags = VRING_PACKED_EVENT_FLAG_DESC;
	}
	if (acc->put16(vrh, (__virtio16 *)&ev->flags, flags)) {
		vringh_bad("cannot write the device event flags at %p",
			   &ev->flags);
		return true;
	}

	/* Publish the request before looking again, or a kick may be lost. */
	virtio_mb(vrh->weak_barriers);

	if (acc->get16(vrh, &flags, (const __virtio16 *)
		       &vr->desc[vrh->last_avail_idx].flags)) {
		vringh_bad("cannot re-read the flags of descriptor %u at %p",
			   vrh->last_avail_idx,
			   &vr->desc[vrh->last_avail_idx].flags);
		return true;
	}
	return !vringh_packed_is_avail(flags, vrh->avail_wrap_counter);
}

static __always_inline void
vringh_packed_notify_disable(struct vringh *vrh,
			     const struct vringh_access *acc)
{
	struct vring_packed_desc_event *ev = vrh->vring_packed.device;

	/*
	 * Unlike a split ring's avail_event, a stale DESC position comes round
	 * again every two laps: say DISABLE even with EVENT_IDX.
	 */
	if (acc->put16(vrh, (__virtio16 *)&ev->flags,
		       VRING_PACKED_EVENT_FLAG_DISABLE))
		vringh_bad("cannot write the device event flags at %p",
			   &ev->flags);
}

/* Give back the last @n buffers taken: none of them may be completed. */
static void vringh_packed_abandon(struct vringh *vrh, unsigned int n)
{
	const unsigned int num = vrh->vring.num;
	unsigned int idx = vrh->packed_take_idx, i;

	if (unlikely(n > num)) {
		vringh_bad("cannot abandon %u buffers of a ring of %u", n, num);
		return;
	}
	/* Check them all first, so that a refusal changes nothing. */
	for (i = 0; i < n; i++) {
		u16 id;

		idx = idx ? idx - 1 : num - 1;
		id = vrh->packed_taken[idx];
		if (unlikely(!vrh->packed_descs[id] ||
			     (vrh->packed_descs[id] & VRINGH_PACKED_MARK))) {
			vringh_bad("cannot abandon the last %u buffers taken: buffer id %u (%u back) was completed meanwhile",
				   n, id, i + 1);
			while (i--) {
				idx = idx + 1 == num ? 0 : idx + 1;
				vrh->packed_descs[vrh->packed_taken[idx]] &=
					~VRINGH_PACKED_MARK;
			}
			return;
		}
		vrh->packed_descs[id] |= VRINGH_PACKED_MARK;
	}
	for (i = 0; i < n; i++) {
		u16 id = vrh->packed_taken[idx];

		vringh_packed_back(vrh, &vrh->last_avail_idx,
				   &vrh->avail_wrap_counter,
				   vrh->packed_descs[id] & ~VRINGH_PACKED_MARK);
		vrh->packed_descs[id] = 0;
		idx = idx + 1 == num ? 0 : idx + 1;
	}
	vrh->packed_take_idx = (vrh->packed_take_idx + num - n) % num;
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

/* Documented in linux/vringh.h, with the packed ring's rules. */
int vringh_init_packed_user(struct vringh *vrh, u64 features,
			    unsigned int num, bool weak_barriers,
			    struct vring_packed_desc __user *desc,
			    struct vring_packed_desc_event __user *driver,
			    struct vring_packed_desc_event __user *device)
{
	return vringh_init_packed(vrh, features, num, weak_barriers,
				  (__force struct vring_packed_desc *)desc,
				  (__force struct vring_packed_desc_event *)driver,
				  (__force struct vring_packed_desc_event *)device);
}
EXPORT_SYMBOL(vringh_init_packed_user);

/**
 * vringh_getdesc_user - take the next available buffer of a user ring
 * @vrh: the ring
 * @riov: filled with the device-readable parts (NULL: none expected)
 * @wiov: filled with the device-writable parts (NULL: none expected)
 * @getrange: maps a guest address to the range of guest memory holding it
 * @head: set to the buffer's head (packed: its buffer id), for
 *	  vringh_complete_user()
 *
 * Every guest address, of buffers and of indirect tables, goes through
 * @getrange; a buffer that spans several ranges takes one iovec per range.
 * @riov and @wiov are reset, and grown (kmalloc'ed) if too small; the
 * caller must vringh_iov_cleanup() them when done, even after an error.
 *
 * On error nothing is taken: the next call sees the same buffer again.
 * *@head is vrh->vring.num if the ring itself is broken, or the head of
 * the refused chain (packed: always vrh->vring.num).  A chain is walked at
 * most as far as the queue size allows, ring descriptors and indirect
 * entries together (2.7.5.3.1), so one call reads at most num descriptors
 * and num table entries.
 *
 * Return: 1 if a buffer was taken, 0 if none is available, -EINVAL for a
 * malformed ring or chain (one that breaks a rule of the specification:
 * README "Hostile rings"), -ELOOP for a chain that loops (packed: a list
 * longer than the ring), -EPROTO for a buffer in a direction the caller
 * gave no iov for, -EFAULT if ring memory cannot be read, -ENOMEM if an
 * iov cannot grow.
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
	if (vrh->packed)
		return vringh_packed_getdesc(vrh, &vringh_user_access,
				riov ? vringh_iov_as_kiov(riov) : NULL,
				wiov ? vringh_iov_as_kiov(wiov) : NULL,
				getrange, GFP_KERNEL, head);
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
	return vringh_kiov_xfer(NULL, vringh_iov_as_kiov(riov), dst, len,
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
	return vringh_kiov_xfer(NULL, vringh_iov_as_kiov(wiov), (void *)src,
				len, vringh_push_user, "write");
}
EXPORT_SYMBOL(vringh_iov_push_user);

/**
 * vringh_abandon_user - give back buffers taken but not used
 * @vrh: the ring
 * @num: how many vringh_getdesc_user() calls to undo
 *
 * The next vringh_getdesc_user() returns the first of them again.  On a
 * packed ring they must be the last @num taken, none completed since:
 * otherwise nothing is given back, and the refusal is printed.  On an
 * in-order split ring the next vringh_getdesc_user() takes its head from
 * the avail ring, not from where the last chain taken ended.
 */
void vringh_abandon_user(struct vringh *vrh, unsigned int num)
{
	if (vrh->packed) {
		vringh_packed_abandon(vrh, num);
		return;
	}
	/* avail_event is written only when enabling, so it needs no fixing. */
	vrh->last_avail_idx -= num;
	/* In order: where the first of them starts, the avail ring says. */
	if (num)
		vrh->next_head = VRINGH_HEAD_UNKNOWN;
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
 * Return: 0, -EINVAL (packed) if @head is not a buffer id taken and not
 * yet completed (in order: not the oldest of them), or -EFAULT if the used
 * ring cannot be written.
 */
int vringh_complete_user(struct vringh *vrh, u16 head, u32 len)
{
	if (vrh->packed)
		return vringh_packed_complete_one(vrh, &vringh_user_access,
						  head, len);
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
 * On a packed ring (ids are buffer ids) the used descriptors are written,
 * then the first one's flags publish them all.
 *
 * Return: 0, -EINVAL if @num_used exceeds the ring size (packed: or an id
 * is not taken, or twice in @used, or in order the ids are not the oldest
 * taken in the order taken: then nothing is written), or -EFAULT if the
 * used ring cannot be written.
 */
int vringh_complete_multi_user(struct vringh *vrh,
			       const struct vring_used_elem used[],
			       unsigned int num_used)
{
	if (vrh->packed)
		return vringh_packed_complete(vrh, &vringh_user_access, used,
					      num_used);
	return vringh_split_complete(vrh, &vringh_user_access, used, num_used);
}
EXPORT_SYMBOL(vringh_complete_multi_user);

/* Refuse a batch unless VIRTIO_F_IN_ORDER was negotiated. */
static bool vringh_batch_ok(const struct vringh *vrh)
{
	if (likely(vrh->in_order))
		return true;
	vringh_bad("a batch of buffers in one used entry needs VIRTIO_F_IN_ORDER, which was not negotiated");
	return false;
}

/* Documented in linux/vringh.h, with the in-order rules. */
int vringh_complete_batch_user(struct vringh *vrh, u16 last_head, u32 len,
			       unsigned int count)
{
	if (unlikely(!vringh_batch_ok(vrh)))
		return -EINVAL;
	if (vrh->packed)
		return vringh_packed_complete_batch(vrh, &vringh_user_access,
						    last_head, len, count);
	return vringh_split_complete_batch(vrh, &vringh_user_access,
					   last_head, len, count);
}
EXPORT_SYMBOL(vringh_complete_batch_user);

/**
 * vringh_need_notify_user - must the guest be told about used buffers?
 * @vrh: the ring, after vringh_complete_user() calls
 *
 * With event indices, says whether the used index passed the guest's
 * used_event since the previous call; without, whether the guest left
 * VRING_AVAIL_F_NO_INTERRUPT clear.  On a packed ring, whether anything was
 * completed since the previous call and the driver event suppression
 * structure asks for it (see linux/vringh.h).
 *
 * Return: 1 to notify, 0 not to, or -EFAULT if the ring cannot be read.
 */
int vringh_need_notify_user(struct vringh *vrh)
{
	if (vrh->packed)
		return vringh_packed_need_notify(vrh, &vringh_user_access);
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
	if (vrh->packed)
		return vringh_packed_notify_enable(vrh, &vringh_user_access);
	return vringh_split_notify_enable(vrh, &vringh_user_access);
}
EXPORT_SYMBOL(vringh_notify_enable_user);

/**
 * vringh_notify_disable_user - tell the guest not to kick us
 * @vrh: the ring
 *
 * The normal state while the device is busy.  Without event indices this
 * sets VRING_USED_F_NO_NOTIFY; with them nothing needs doing, as the guest
 * kicks only when it reaches the avail_event we last published.  A packed
 * ring's device event flags say DISABLE, with event indices or without.
 */
void vringh_notify_disable_user(struct vringh *vrh)
{
	if (vrh->packed) {
		vringh_packed_notify_disable(vrh, &vringh_user_access);
		return;
	}
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

/* Documented in linux/vringh.h, with the packed ring's rules. */
int vringh_init_packed_kern(struct vringh *vrh, u64 features,
			    unsigned int num, bool weak_barriers,
			    struct vring_packed_desc *desc,
			    struct vring_packed_desc_event *driver,
			    struct vring_packed_desc_event *device)
{
	return vringh_init_packed(vrh, features, num, weak_barriers,
				  desc, driver, device);
}
EXPORT_SYMBOL(vringh_init_packed_kern);

/* Documented in linux/vringh.h. */
void vringh_cleanup(struct vringh *vrh)
{
	if (!vrh->packed)
		return;
	kfree(vrh->packed_descs);
	vrh->packed_descs = NULL;
	vrh->packed_taken = NULL;
}
EXPORT_SYMBOL(vringh_cleanup);

/**
 * vringh_kiov_advance - skip bytes of a kiov without copying them
 * @kiov: the kiov from vringh_getdesc_kern()
 * @len: how many bytes to skip (stops early if @kiov runs out)
 */
void vringh_kiov_advance(struct vringh_kiov *kiov, size_t len)
{
	while (len && kiov->i < kiov->used) {
		struct kvec *v = &kiov->iov[kiov->i];
		size_t part = min(v->iov_len, len);

		vringh_kiov_consume(kiov, v, part);
		len -= part;
	}
}
EXPORT_SYMBOL(vringh_kiov_advance);

/**
 * vringh_getdesc_kern - take the next available buffer of a kernel ring
 * @vrh: the ring
 * @riov: filled with the device-readable parts (NULL: none expected)
 * @wiov: filled with the device-writable parts (NULL: none expected)
 * @head: set to the buffer's head (packed: its buffer id), for
 *	  vringh_complete_kern()
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
	if (vrh->packed)
		return vringh_packed_getdesc(vrh, &vringh_kern_access, riov,
					     wiov, NULL, gfp, head);
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
	return vringh_kiov_xfer(NULL, riov, dst, len, vringh_pull_kern, "read");
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
	return vringh_kiov_xfer(NULL, wiov, (void *)src, len, vringh_push_kern,
				"write");
}
EXPORT_SYMBOL(vringh_iov_push_kern);

/**
 * vringh_abandon_kern - give back buffers taken but not used
 * @vrh: the ring
 * @num: how many vringh_getdesc_kern() calls to undo
 *
 * The next vringh_getdesc_kern() returns the first of them again.  As
 * vringh_abandon_user() on a packed ring.
 */
void vringh_abandon_kern(struct vringh *vrh, unsigned int num)
{
	if (vrh->packed) {
		vringh_packed_abandon(vrh, num);
		return;
	}
	vrh->last_avail_idx -= num;
	if (num)
		vrh->next_head = VRINGH_HEAD_UNKNOWN;
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
 * Return: 0, or -EINVAL (packed) if @head is not a buffer id taken and not
 * yet completed (in order: not the oldest of them).
 */
int vringh_complete_kern(struct vringh *vrh, u16 head, u32 len)
{
	if (vrh->packed)
		return vringh_packed_complete_one(vrh, &vringh_kern_access,
						  head, len);
	return vringh_split_complete_one(vrh, &vringh_kern_access, head, len);
}
EXPORT_SYMBOL(vringh_complete_kern);

/* Documented in linux/vringh.h, with the in-order rules. */
int vringh_complete_batch_kern(struct vringh *vrh, u16 last_head, u32 len,
			       unsigned int count)
{
	if (unlikely(!vringh_batch_ok(vrh)))
		return -EINVAL;
	if (vrh->packed)
		return vringh_packed_complete_batch(vrh, &vringh_kern_access,
						    last_head, len, count);
	return vringh_split_complete_batch(vrh, &vringh_kern_access,
					   last_head, len, count);
}
EXPORT_SYMBOL(vringh_complete_batch_kern);

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
	if (vrh->packed)
		return vringh_packed_notify_enable(vrh, &vringh_kern_access);
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
	if (vrh->packed) {
		vringh_packed_notify_disable(vrh, &vringh_kern_access);
		return;
	}
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
	if (vrh->packed)
		return vringh_packed_need_notify(vrh, &vringh_kern_access);
	return vringh_split_need_notify(vrh, &vringh_kern_access);
}
EXPORT_SYMBOL(vringh_need_notify_kern);

/*
 * The exported API: rings behind an IOTLB (vdpa devices).
 */

static int vringh_pull_iotlb(void *iov_mem, void *buf, size_t n,
			     const struct vringh *vrh)
{
	return vringh_copy_in_iotlb(buf, iov_mem, n, vrh);
}

static int vringh_push_iotlb(void *iov_mem, void *buf, size_t n,
			     const struct vringh *vrh)
{
	return vringh_copy_out_iotlb(iov_mem, buf, n, vrh);
}

/**
 * vringh_init_iotlb - set up a vringh for a ring at I/O addresses
 * @vrh: the vringh to set up
 * @features: the negotiated feature bits
 * @num: the ring size
 * @weak_barriers: true if the guest is another CPU, not a device
 * @desc: the descriptor table (I/O address)
 * @avail: the available ring (I/O address)
 * @used: the used ring (I/O address)
 *
 * A split ring whose parts and buffers are reached through the IOTLB that
 * vringh_set_iotlb() gives (before any other call), its maps giving
 * physical addresses.  As vringh_init_kern() otherwise.
 *
 * Return: 0, or -EINVAL if @num is 0, not a power of 2 or above 0xffff.
 */
int vringh_init_iotlb(struct vringh *vrh, u64 features,
		      unsigned int num, bool weak_barriers,
		      struct vring_desc *desc,
		      struct vring_avail *avail,
		      struct vring_used *used)
{
	vrh->use_va = false;
	return vringh_init(vrh, features, num, weak_barriers,
			   desc, avail, used);
}
EXPORT_SYMBOL(vringh_init_iotlb);

/**
 * vringh_init_iotlb_va - vringh_init_iotlb() for maps to user addresses
 * @vrh: the vringh to set up
 * @features: the negotiated feature bits
 * @num: the ring size
 * @weak_barriers: true if the guest is another CPU, not a device
 * @desc: the descriptor table (I/O address)
 * @avail: the available ring (I/O address)
 * @used: the used ring (I/O address)
 *
 * As vringh_init_iotlb(), but the IOTLB's maps give user virtual
 * addresses, reached through copy_from_user() and copy_to_user().
 *
 * Return: 0, or -EINVAL as vringh_init_iotlb().
 */
int vringh_init_iotlb_va(struct vringh *vrh, u64 features,
			 unsigned int num, bool weak_barriers,
			 struct vring_desc *desc,
			 struct vring_avail *avail,
			 struct vring_used *used)
{
	vrh->use_va = true;
	return vringh_init(vrh, features, num, weak_barriers,
			   desc, avail, used);
}
EXPORT_SYMBOL(vringh_init_iotlb_va);

/**
 * vringh_set_iotlb - give a vringh the IOTLB its addresses go through
 * @vrh: the vringh, from vringh_init_iotlb() or vringh_init_iotlb_va()
 * @iotlb: the translation table
 * @iotlb_lock: held around every look-up in @iotlb
 *
 * The table may change between calls: every access looks it up afresh.
 */
void vringh_set_iotlb(struct vringh *vrh, struct vhost_iotlb *iotlb,
		      spinlock_t *iotlb_lock)
{
	vrh->iotlb = iotlb;
	vrh->iotlb_lock = iotlb_lock;
}
EXPORT_SYMBOL(vringh_set_iotlb);

/**
 * vringh_getdesc_iotlb - take the next available buffer of an IOTLB ring
 * @vrh: the ring
 * @riov: filled with the device-readable parts (NULL: none expected)
 * @wiov: filled with the device-writable parts (NULL: none expected)
 * @head: set to the buffer's head, for vringh_complete_iotlb()
 * @gfp: how to allocate if @riov or @wiov must grow
 *
 * As vringh_getdesc_kern(), except that the ring and the indirect tables
 * are read through the IOTLB, and the kiovs hold the buffers' I/O
 * addresses: only vringh_iov_pull_iotlb() and vringh_iov_push_iotlb(),
 * which translate at each access, can reach their bytes.
 *
 * Return: 1 if a buffer was taken, 0 if none is available, or -errno as
 * for vringh_getdesc_kern(); also -EINVAL or -EPERM if the avail ring is
 * not mapped or not readable, -EFAULT if a descriptor or table is not.
 */
int vringh_getdesc_iotlb(struct vringh *vrh,
			 struct vringh_kiov *riov,
			 struct vringh_kiov *wiov,
			 u16 *head,
			 gfp_t gfp)
{
	if (vrh->packed)
		return vringh_packed_getdesc(vrh, &vringh_iotlb_access, riov,
					     wiov, NULL, gfp, head);
	return vringh_split_getdesc(vrh, &vringh_iotlb_access, riov, wiov,
				    NULL, gfp, head);
}
EXPORT_SYMBOL(vringh_getdesc_iotlb);

/**
 * vringh_iov_pull_iotlb - copy bytes out of the device-readable buffers
 * @vrh: the ring
 * @riov: the riov from vringh_getdesc_iotlb(), consumed as it is read
 * @dst: where to copy to
 * @len: the most bytes to copy
 *
 * Return: the bytes copied (less than @len once @riov runs out, 0 when it
 * is exhausted); -EFAULT if a byte to copy is not mapped, not readable,
 * or (vringh_init_iotlb_va()) at a user address that cannot be read.
 */
ssize_t vringh_iov_pull_iotlb(struct vringh *vrh,
			      struct vringh_kiov *riov,
			      void *dst, size_t len)
{
	return vringh_kiov_xfer(vrh, riov, dst, len, vringh_pull_iotlb,
				"read");
}
EXPORT_SYMBOL(vringh_iov_pull_iotlb);

/**
 * vringh_iov_push_iotlb - copy bytes into the device-writable buffers
 * @vrh: the ring
 * @wiov: the wiov from vringh_getdesc_iotlb(), consumed as it is written
 * @src: where to copy from
 * @len: the most bytes to copy
 *
 * Return: the bytes copied (less than @len once @wiov runs out, 0 when it
 * is exhausted); -EFAULT if a byte to write is not mapped, not writable,
 * or at a user address that cannot be written.
 */
ssize_t vringh_iov_push_iotlb(struct vringh *vrh,
			      struct vringh_kiov *wiov,
			      const void *src, size_t len)
{
	return vringh_kiov_xfer(vrh, wiov, (void *)src, len,
				vringh_push_iotlb, "write");
}
EXPORT_SYMBOL(vringh_iov_push_iotlb);

/**
 * vringh_abandon_iotlb - give back buffers taken but not used
 * @vrh: the ring
 * @num: how many vringh_getdesc_iotlb() calls to undo
 *
 * The next vringh_getdesc_iotlb() returns the first of them again.
 */
void vringh_abandon_iotlb(struct vringh *vrh, unsigned int num)
{
	vringh_abandon_kern(vrh, num);
}
EXPORT_SYMBOL(vringh_abandon_iotlb);

/**
 * vringh_complete_iotlb - return one buffer to the guest
 * @vrh: the ring
 * @head: the head vringh_getdesc_iotlb() gave
 * @len: how many bytes were written into the buffer
 *
 * Call vringh_need_notify_iotlb() afterwards.
 *
 * Return: 0; -EFAULT if the used element cannot be written, -EINVAL or
 * -EPERM if the used index is not mapped or not writable.
 */
int vringh_complete_iotlb(struct vringh *vrh, u16 head, u32 len)
{
	if (vrh->packed)
		return vringh_packed_complete_one(vrh, &vringh_iotlb_access,
						  head, len);
	return vringh_split_complete_one(vrh, &vringh_iotlb_access, head, len);
}
EXPORT_SYMBOL(vringh_complete_iotlb);

/**
 * vringh_notify_enable_iotlb - ask the guest to kick us for new buffers
 * @vrh: the ring
 *
 * As vringh_notify_enable_kern().
 *
 * Return: true if the ring is still empty (safe to sleep), false if
 * buffers arrived meanwhile.
 */
bool vringh_notify_enable_iotlb(struct vringh *vrh)
{
	if (vrh->packed)
		return vringh_packed_notify_enable(vrh, &vringh_iotlb_access);
	return vringh_split_notify_enable(vrh, &vringh_iotlb_access);
}
EXPORT_SYMBOL(vringh_notify_enable_iotlb);

/**
 * vringh_notify_disable_iotlb - tell the guest not to kick us
 * @vrh: the ring
 *
 * As vringh_notify_disable_kern().
 */
void vringh_notify_disable_iotlb(struct vringh *vrh)
{
	if (vrh->packed) {
		vringh_packed_notify_disable(vrh, &vringh_iotlb_access);
		return;
	}
	vringh_split_notify_disable(vrh, &vringh_iotlb_access);
}
EXPORT_SYMBOL(vringh_notify_disable_iotlb);

/**
 * vringh_need_notify_iotlb - must the guest be told about used buffers?
 * @vrh: the ring, after vringh_complete_iotlb() calls
 *
 * As vringh_need_notify_kern().
 *
 * Return: 1 to notify, 0 not to, or -errno if the ring cannot be read.
 */
int vringh_need_notify_iotlb(struct vringh *vrh)
{
	if (vrh->packed)
		return vringh_packed_need_notify(vrh, &vringh_iotlb_access);
	return vringh_split_need_notify(vrh, &vringh_iotlb_access);
}
EXPORT_SYMBOL(vringh_need_notify_iotlb);

MODULE_DESCRIPTION("Device side of the virtio split and packed rings");
MODULE_LICENSE("GPL");
