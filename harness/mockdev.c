// SPDX-License-Identifier: GPL-2.0
/* A device played by hand on a queue's ring: see mockdev.h. */
#define _GNU_SOURCE
#include <string.h>

#include <linux/virtio.h>
#include <linux/virtio_config.h>
#include <linux/virtio_ring.h>

#include "harness/harness.h"
#include "harness/mockdev.h"

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

/* A packed descriptor is available in lap @wrap: AVAIL is @wrap, USED not. */
static bool packed_avail(u16 flags, bool wrap)
{
	return !!(flags & AVAIL_BIT) == wrap && !!(flags & USED_BIT) != wrap;
}

static bool take_packed(struct mockdev *d, u16 *id, unsigned int *ndesc)
{
	struct vring_packed_desc *desc = d->ring.vring_packed.desc;
	unsigned int num = d->ring.num, n = 1;
	u16 off = d->avail_off, f;
	bool wrap = d->avail_wrap;

	f = le16_to_cpu(__atomic_load_n(&desc[off].flags, __ATOMIC_ACQUIRE));
	if (!packed_avail(f, wrap))
		return false;
	while (f & VRING_DESC_F_NEXT) {
		CHECKF(++n <= num, "list at %u longer than the ring",
		       d->avail_off);
		if (++off == num) {
			off = 0;
			wrap = !wrap;
		}
		f = le16_to_cpu(__atomic_load_n(&desc[off].flags,
						__ATOMIC_ACQUIRE));
		/* a gap of Debian's 6.1 packed add that fails (tests/dma.c) */
		CHECKF_GAP(packed_avail(f, wrap),
		           "descriptor %u of the list at %u not available",
		           off, d->avail_off);
	}
	*id = le16_to_cpu(desc[off].id);
	CHECKF(*id < num, "list at %u has id %u", d->avail_off, *id);
	*ndesc = n;
	if (++off == num) {
		off = 0;
		wrap = !wrap;
	}
	d->avail_off = off;
	d->avail_wrap = wrap;
	return true;
}

bool mockdev_take(struct mockdev *d, u16 *id, unsigned int *ndesc)
{
	struct vring *vr = &d->ring.vring;
	u16 avail, head;

	if (d->ring.packed)
		return take_packed(d, id, ndesc);
	avail = virtio16_to_cpu(d->vdev, __atomic_load_n(&vr->avail->idx,
							 __ATOMIC_ACQUIRE));
	if (avail == d->last_avail)
		return false;
	CHECKF((u16)(avail - d->last_avail) <= vr->num,
	       "avail idx %u is more than %u entries past the device's %u",
	       avail, vr->num, d->last_avail);
	head = virtio16_to_cpu(d->vdev,
			       vr->avail->ring[d->last_avail % vr->num]);
	CHECKF(head < vr->num, "avail entry %u holds head %u",
	       d->last_avail, head);
	d->last_avail++;
	*id = head;
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
	avail = virtio16_to_cpu(d->vdev, __atomic_load_n(&vr->avail->idx,
							 __ATOMIC_ACQUIRE));
	count = (u16)(avail - d->last_avail);
	if (!count)
		return 0;
	CHECKF(count <= vr->num,
	       "avail idx %u is more than %u entries past the device's %u",
	       avail, vr->num, d->last_avail);
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
	struct vring_packed_desc *e = &d->ring.vring_packed.desc[off];

	e->id = cpu_to_le16(id);
	e->len = cpu_to_le32(len);
	/* id and len before the flags that publish them. */
	__atomic_store_n(&e->flags, cpu_to_le16(flags), __ATOMIC_RELEASE);
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

void mockdev_use(struct mockdev *d, u16 id, u32 len, unsigned int count,
		 unsigned int ndesc)
{
	unsigned int num = d->ring.num;

	if (!d->ring.packed) {
		mockdev_write_used(d, d->used_idx, id, len);
		d->used_idx += count;
		return;
	}
	mockdev_write_used_packed(d, d->used_off, id, len,
				  mockdev_used_flags(d->used_wrap, len));
	d->used_off += ndesc % (num + 1);
	if (d->used_off >= num) {
		d->used_off -= num;
		d->used_wrap = !d->used_wrap;
		d->used_laps++;
	}
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
