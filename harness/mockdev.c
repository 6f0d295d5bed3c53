// SPDX-License-Identifier: GPL-2.0
/* A device played by hand on a queue's ring: see mockdev.h. */
#define _GNU_SOURCE
#include <string.h>

#include <linux/virtio.h>
#include <linux/virtio_config.h>
#include <linux/virtio_ring.h>

#include "harness/mockdev.h"
#include "harness/outcome.h"

#define AVAIL_BIT	(1 << VRING_PACKED_DESC_F_AVAIL)
#define USED_BIT	(1 << VRING_PACKED_DESC_F_USED)

void mockdev_init(struct mockdev *d, struct virtio_device *vdev,
		  const struct rig_ring *ring)
{
	memset(d, 0, sizeof(*d));
	d->vdev = vdev;
	d->ring = *ring;
	d->event_idx = virtio_has_feature(vdev, VIRTIO_RING_F_EVENT_IDX);
	d->avail_wrap = d->used_wrap = true;
}

void mockdev_want_kicks(struct mockdev *d)
{
	struct vring_packed_desc_event *ev = d->ring.vring_packed.device;

	if (!d->ring.packed)
		return;
	ev->off_wrap = cpu_to_le16(d->avail_off | d->avail_wrap <<
				   VRING_PACKED_EVENT_F_WRAP_CTR);
	ev->flags = cpu_to_le16(d->event_idx ? VRING_PACKED_EVENT_FLAG_DESC :
					       VRING_PACKED_EVENT_FLAG_ENABLE);
}

static __always_inline void write_used_packed(struct vring_packed_desc *e,
					      u16 id, u32 len, u16 flags)
{
	e->id = cpu_to_le16(id);
	e->len = cpu_to_le32(len);
	/* id and len before the flags that publish them. */
	__atomic_store_n(&e->flags, cpu_to_le16(flags), __ATOMIC_RELEASE);
}

/*
 * A packed ring offset, and the AVAIL and USED bits a descriptor there
 * carries in the current lap: available (AVAIL is the wrap counter, USED
 * not) for the device's next descriptor to take, used (both the wrap
 * counter) for its next to write used.  A new lap flips both bits, either
 * way, so a batch tests and writes flags without recomputing them.
 */
struct packed_pos {
	unsigned int off;
	u16 bits;
};

#define LAP_BITS	(AVAIL_BIT | USED_BIT)

static inline struct packed_pos avail_pos(u16 off, bool wrap)
{
	return (struct packed_pos){ off, wrap ? AVAIL_BIT : USED_BIT };
}

static inline struct packed_pos used_pos(u16 off, bool wrap)
{
	return (struct packed_pos){ off, wrap ? LAP_BITS : 0 };
}

static __always_inline void packed_advance(struct packed_pos *p,
					   unsigned int num)
{
	if (++p->off == num) {
		p->off = 0;
		p->bits ^= LAP_BITS;
	}
}

/* Is a descriptor with @flags available at @p? */
static inline bool packed_avail(u16 flags, const struct packed_pos *p)
{
	return (flags & LAP_BITS) == p->bits;
}

/* Where a chained list ends: its last descriptor, and how many it has. */
struct packed_chain {
	struct packed_pos last;
	unsigned int n;
};

/*
 * Follow the list at @p, whose first descriptor has NEXT set, to its last
 * descriptor.  Out of line: a batch of single descriptors (indirect
 * tables) keeps its registers.
 */
static noinline struct packed_chain follow_chain(struct vring_packed_desc *desc,
						 unsigned int num,
						 struct packed_pos p)
{
	struct packed_chain c = { p, 1 };
	u16 f;

	do {
		CHECKF(++c.n <= num, "list at %u longer than the ring", p.off);
		packed_advance(&c.last, num);
		f = le16_to_cpu(__atomic_load_n(&desc[c.last.off].flags,
						__ATOMIC_ACQUIRE));
		/* a gap of Debian's 6.1 packed add that fails (tests/dma.c) */
		CHECKF_GAP(packed_avail(f, &c.last),
		           "descriptor %u of the list at %u not available",
		           c.last.off, p.off);
	} while (f & VRING_DESC_F_NEXT);
	return c;
}

/*
 * Take the list available at @p in @desc (@num long), moving @p past it.
 * @p is the caller's copy of the device's offset and @desc and @num its
 * copies of the ring's, so a batch keeps them all in registers.
 */
static __always_inline bool take_packed_at(struct vring_packed_desc *desc,
					   unsigned int num,
					   struct packed_pos *p, u16 *id,
					   unsigned int *ndesc)
{
	unsigned int start = p->off;
	u16 f;

	f = le16_to_cpu(__atomic_load_n(&desc[p->off].flags, __ATOMIC_ACQUIRE));
	if (!packed_avail(f, p))
		return false;
	*ndesc = 1;
	if (unlikely(f & VRING_DESC_F_NEXT)) {
		struct packed_chain c = follow_chain(desc, num, *p);

		*p = c.last;
		*ndesc = c.n;
	}
	*id = le16_to_cpu(desc[p->off].id);
	CHECKF(*id < num, "list at %u has id %u", start, *id);
	packed_advance(p, num);
	return true;
}

static bool take_packed(struct mockdev *d, u16 *id, unsigned int *ndesc)
{
	struct packed_pos p = avail_pos(d->avail_off, d->avail_wrap);

	if (!take_packed_at(d->ring.vring_packed.desc, d->ring.num, &p, id,
			    ndesc))
		return false;
	d->avail_off = p.off;
	d->avail_wrap = p.bits == AVAIL_BIT;
	return true;
}

/* The next available split entry's head, at the device's @slot. */
static inline u16 take_split_head(struct mockdev *d, unsigned int slot)
{
	struct vring *vr = &d->ring.vring;
	u16 head = virtio16_to_cpu(d->vdev, vr->avail->ring[slot]);

	CHECKF(head < vr->num, "avail entry %u holds head %u",
	       d->last_avail, head);
	return head;
}

/* How many split entries the driver made available, checked. */
static inline u16 split_avail_count(struct mockdev *d)
{
	struct vring *vr = &d->ring.vring;
	u16 avail = virtio16_to_cpu(d->vdev, __atomic_load_n(&vr->avail->idx,
							     __ATOMIC_ACQUIRE));
	u16 count = avail - d->last_avail;

	CHECKF(count <= vr->num,
	       "avail idx %u is more than %u entries past the device's %u",
	       avail, vr->num, d->last_avail);
	return count;
}

bool mockdev_take(struct mockdev *d, u16 *id, unsigned int *ndesc)
{
	if (d->ring.packed)
		return take_packed(d, id, ndesc);
	if (!split_avail_count(d))
		return false;
	*id = take_split_head(d, d->last_avail % d->ring.vring.num);
	d->last_avail++;
	*ndesc = 1;
	return true;
}

unsigned int mockdev_take_all(struct mockdev *d, u16 *last_id,
			      unsigned int *ndesc)
{
	struct vring *vr = &d->ring.vring;
	unsigned int count = 0, n;
	u16 avail, id;

	*ndesc = 0;
	if (d->ring.packed) {
		while (take_packed(d, &id, &n)) {
			*last_id = id;
			*ndesc += n;
			count++;
		}
		return count;
	}
	count = split_avail_count(d);
	if (!count)
		return 0;
	avail = d->last_avail + count;
	id = virtio16_to_cpu(d->vdev, vr->avail->ring[(u16)(avail - 1) % vr->num]);
	CHECKF(id < vr->num, "avail entry %u holds head %u", (u16)(avail - 1), id);
	d->last_avail = avail;
	*last_id = id;
	*ndesc = count;
	return count;
}

u16 mockdev_used_flags(bool wrap, u32 len)
{
	return (wrap ? AVAIL_BIT | USED_BIT : 0) | (len ? VRING_DESC_F_WRITE : 0);
}

void mockdev_write_used_packed(struct mockdev *d, u16 off, u16 id, u32 len,
			       u16 flags)
{
	write_used_packed(&d->ring.vring_packed.desc[off], id, len, flags);
}

void mockdev_write_used(struct mockdev *d, unsigned int slot, u32 id,
			u32 len)
{
	vring_used_elem_t *e = &d->ring.vring.used->ring[slot % d->ring.num];

	e->id = cpu_to_virtio32(d->vdev, id);
	e->len = cpu_to_virtio32(d->vdev, len);
}

void mockdev_set_used_idx(struct mockdev *d, u16 idx)
{
	/* Used elements before the index that publishes them. */
	__atomic_store_n(&d->ring.vring.used->idx, cpu_to_virtio16(d->vdev, idx),
			 __ATOMIC_RELEASE);
}

/*
 * A packed used descriptor {@id, @len} at @u in @desc (@num long), moving
 * @u (the caller's copy of the used offset) and @laps on by @ndesc offsets
 * (at most @num).
 */
static __always_inline void use_packed_at(struct vring_packed_desc *desc,
					  unsigned int num,
					  struct packed_pos *u,
					  unsigned long *laps, u16 id, u32 len,
					  unsigned int ndesc)
{
	unsigned int off;

	write_used_packed(&desc[u->off], id, len,
			  u->bits | (len ? VRING_DESC_F_WRITE : 0));
	off = u->off + ndesc;
	if (off >= num) {
		off -= num;
		u->bits ^= LAP_BITS;
		++*laps;
	}
	u->off = off;
}

static void use_packed(struct mockdev *d, u16 id, u32 len, unsigned int ndesc)
{
	struct packed_pos u = used_pos(d->used_off, d->used_wrap);

	use_packed_at(d->ring.vring_packed.desc, d->ring.num, &u, &d->used_laps,
		      id, len, ndesc % (d->ring.num + 1));
	d->used_off = u.off;
	d->used_wrap = u.bits;
}

void mockdev_use(struct mockdev *d, u16 id, u32 len, unsigned int count,
		 unsigned int ndesc)
{
	if (!d->ring.packed) {
		mockdev_write_used(d, d->used_idx, id, len);
		d->used_idx += count;
		return;
	}
	use_packed(d, id, len, ndesc);
}

/*
 * Packed, with no list taken and not yet used (the device's used offset
 * is its available offset, in the same lap): use each list of one
 * descriptor in place, so one position runs for both and the list already
 * holds its own id where the used descriptor goes.  Stops at the first
 * descriptor not available or with NEXT set; how many it used.
 */
static unsigned int use_all_packed_in_place(struct mockdev *d, u32 len)
{
	struct vring_packed_desc *desc = d->ring.vring_packed.desc;
	unsigned int num = d->ring.num, start = d->avail_off;
	struct vring_packed_desc *e = desc + start, *end = desc + num;
	u16 bits = avail_pos(d->avail_off, d->avail_wrap).bits;
	u16 used = (d->used_wrap ? LAP_BITS : 0) | (len ? VRING_DESC_F_WRITE : 0);
	unsigned long laps0 = d->used_laps, laps = laps0;
	u16 f, id;

	for (;;) {
		f = le16_to_cpu(__atomic_load_n(&e->flags, __ATOMIC_ACQUIRE));
		/* One test: available in this lap, and no NEXT. */
		if ((f & (LAP_BITS | VRING_DESC_F_NEXT)) != bits)
			break;
		id = le16_to_cpu(e->id);
		CHECKF(id < num, "list at %u has id %u", (unsigned int)(e - desc), id);
		e->len = cpu_to_le32(len);
		/* len before the flags that publish it. */
		__atomic_store_n(&e->flags, cpu_to_le16(used), __ATOMIC_RELEASE);
		if (++e == end) {
			e = desc;
			bits ^= LAP_BITS;
			used ^= LAP_BITS;
			laps++;
		}
	}
	d->avail_off = d->used_off = e - desc;
	d->avail_wrap = d->used_wrap = bits == AVAIL_BIT;
	d->used_laps = laps;
	return (laps - laps0) * num + (e - desc) - start;
}

/*
 * Split: every available entry's head checked and used with @len, in
 * runs that wrap neither the available nor the used slot, one division
 * each per batch.
 */
static unsigned int use_all_split(struct mockdev *d, u32 len)
{
	struct vring *vr = &d->ring.vring;
	const __virtio16 *avail = vr->avail->ring;
	vring_used_elem_t *used = vr->used->ring;
	unsigned int num = vr->num, count, left, a, u, run, i;
	__virtio32 vlen = cpu_to_virtio32(d->vdev, len);
	u16 head;

	count = split_avail_count(d);
	a = d->last_avail % num;
	u = d->used_idx % num;
	for (left = count; left; left -= run) {
		run = left;
		if (run > num - a)
			run = num - a;
		if (run > num - u)
			run = num - u;
		for (i = 0; i < run; i++) {
			head = virtio16_to_cpu(d->vdev, avail[a + i]);
			CHECKF(head < num, "avail entry %u holds head %u",
			       (u16)(d->last_avail + count - left + i), head);
			used[u + i].id = cpu_to_virtio32(d->vdev, head);
			used[u + i].len = vlen;
		}
		a += run;
		if (a == num)
			a = 0;
		u += run;
		if (u == num)
			u = 0;
	}
	d->last_avail += count;
	d->used_idx += count;
	return count;
}

unsigned int mockdev_use_all(struct mockdev *d, u32 len)
{
	unsigned int num = d->ring.num, count, i;
	struct packed_pos p, up;
	struct vring_packed_desc *desc;
	unsigned long laps;
	u16 id;

	if (!d->ring.packed)
		return use_all_split(d, len);
	count = 0;
	if (d->used_off == d->avail_off && d->used_wrap == d->avail_wrap)
		count = use_all_packed_in_place(d, len);
	/*
	 * The rest, if a chain stopped that, or lists were taken and not
	 * used yet (the used offset runs behind).
	 */
	p = avail_pos(d->avail_off, d->avail_wrap);
	up = used_pos(d->used_off, d->used_wrap);
	desc = d->ring.vring_packed.desc;
	laps = d->used_laps;
	for (; take_packed_at(desc, num, &p, &id, &i); count++)
		use_packed_at(desc, num, &up, &laps, id, len, i);
	d->avail_off = p.off;
	d->avail_wrap = p.bits == AVAIL_BIT;
	d->used_off = up.off;
	d->used_wrap = up.bits;
	d->used_laps = laps;
	return count;
}

/* Ring positions count modulo twice the ring: laps with wrap 0 add num. */
static unsigned int packed_pos(unsigned int num, u16 off, bool wrap)
{
	return wrap ? off : off + num;
}

static bool publish_packed(struct mockdev *d)
{
	struct vring_packed *vr = &d->ring.vring_packed;
	unsigned int num = d->ring.num, now, event, flags;
	unsigned long pos = d->used_laps * num + d->used_off;
	unsigned long moved = pos - d->published_pos;
	u16 off_wrap;

	if (d->event_idx)	/* "kick me when you make this one available" */
		__atomic_store_n(&vr->device->off_wrap,
				 cpu_to_le16(d->avail_off | d->avail_wrap <<
					     VRING_PACKED_EVENT_F_WRAP_CTR),
				 __ATOMIC_RELAXED);
	virt_mb();
	d->published_pos = pos;

	flags = le16_to_cpu(READ_ONCE(vr->driver->flags)) & 3;
	if (!moved || flags == VRING_PACKED_EVENT_FLAG_DISABLE)
		return false;
	if (flags != VRING_PACKED_EVENT_FLAG_DESC || !d->event_idx)
		return true;
	/* Two laps or more: every offset of either lap was passed. */
	if (moved >= 2 * num)
		return true;
	/* Did the used offset pass the driver's event offset? */
	now = packed_pos(num, d->used_off, d->used_wrap);
	off_wrap = le16_to_cpu(READ_ONCE(vr->driver->off_wrap));
	event = packed_pos(num, off_wrap & ~(1 << VRING_PACKED_EVENT_F_WRAP_CTR),
			   off_wrap >> VRING_PACKED_EVENT_F_WRAP_CTR);
	return (now + 2 * num - event - 1) % (2 * num) < moved;
}

bool mockdev_publish(struct mockdev *d)
{
	struct vring *vr = &d->ring.vring;
	u16 old = d->published;

	if (d->ring.packed)
		return publish_packed(d);
	mockdev_set_used_idx(d, d->used_idx);
	if (d->event_idx)	/* "kick me when you pass what I have seen" */
		__atomic_store_n(&vring_avail_event(vr),
				 cpu_to_virtio16(d->vdev, d->last_avail),
				 __ATOMIC_RELAXED);
	virt_mb();
	d->published = d->used_idx;
	if (d->event_idx)
		return vring_need_event(virtio16_to_cpu(d->vdev,
					READ_ONCE(vring_used_event(vr))),
					d->used_idx, old);
	return d->used_idx != old &&
	       !(virtio16_to_cpu(d->vdev, READ_ONCE(vr->avail->flags)) &
		 VRING_AVAIL_F_NO_INTERRUPT);
}
