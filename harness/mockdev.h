/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A device played by hand, one step at a time, on a queue's ring (split or
 * packed): the one device the benchmark, the hostile cases and the
 * driver fuzz target share.  It reads and writes the ring through plain
 * pointers (the spec's layout, never a ring implementation's state), so it
 * plays against any driver, the rig's or a kernel tree's.
 *
 * Well-behaved steps:
 *   mockdev_take()     the next buffer the driver made available
 *   mockdev_take_all() all of them (an in-order device's batch)
 *   mockdev_use()      one used entry for the oldest buffers taken and not
 *                      yet used (one, or an in-order batch)
 *   mockdev_use_all()  take every available buffer and use each at once
 *                      (what a device that completes in a batch does)
 *   mockdev_publish()  make the uses visible (split: the used index), ask
 *                      to be kicked at the next available entry (with
 *                      EVENT_IDX), and say whether the driver wants an
 *                      interrupt for what was used since the last publish
 *
 * Raw steps, for a device that lies (hostile cases, fuzzing):
 *   mockdev_write_used()        any split used element, any slot
 *   mockdev_set_used_idx()      any split used index
 *   mockdev_write_used_packed() any used descriptor, any offset, any flags
 *
 * A mockdev serves one thread; the driver may run in another (the barriers
 * are those a device needs).  It stops the program (CHECKF) when the
 * driver breaks the ring's rules, e.g. an available entry naming a head
 * past the ring.
 */
#ifndef RIG_MOCKDEV_H
#define RIG_MOCKDEV_H

#include "harness/queue.h"

struct mockdev {
	struct virtio_device *vdev;	/* features: byte order, EVENT_IDX */
	struct rig_ring ring;		/* the device's view of the ring */
	bool event_idx;
	/* Split. */
	u16 last_avail;		/* next available entry to take */
	u16 used_idx;		/* next used entry to write */
	u16 published;		/* used index at the last publish */
	/* Packed: next descriptor to take and to write used, with laps. */
	u16 avail_off, used_off;
	bool avail_wrap, used_wrap;
	/*
	 * Laps the used offset completed, and where it was (laps * num +
	 * offset) at the last publish.  A driver may reap used descriptors
	 * before any publish and offer the slots again, so the device can
	 * move a lap, or two, between publishes, where offsets alone would
	 * wrap and hide the driver's event.
	 */
	unsigned long used_laps, published_pos;
};

/*
 * Start on @ring (the device's view of a new queue's ring, all indices 0).
 * Nothing is written to the ring.
 */
void mockdev_init(struct mockdev *d, struct virtio_device *vdev,
		  const struct rig_ring *ring);
/*
 * Packed: set the device event suppression structure to ask for every kick
 * or, with EVENT_IDX, for one at the next available offset (which
 * mockdev_publish() then keeps up to date).  Split rings need nothing: the
 * used flags start at 0 and the avail event is written on publish.
 */
void mockdev_want_kicks(struct mockdev *d);

/*
 * Take the next available buffer: its head (split) or buffer id (packed:
 * the id of its list's last descriptor), and how many ring descriptors it
 * spans (split: 1, its chain is not followed).  False if there is none.
 */
bool mockdev_take(struct mockdev *d, u16 *id, unsigned int *ndesc);

/*
 * Take every buffer available: how many (0 if none), the last one's id and
 * the descriptors they span.  A split ring's entries before the last are
 * not read: what an in-order device needs to return them all with one
 * used entry.
 */
unsigned int mockdev_take_all(struct mockdev *d, u16 *last_id,
			      unsigned int *ndesc);

/*
 * One used entry {@id, @len} for the @count oldest buffers taken and not
 * yet used, which span @ndesc ring descriptors: split, in the next used
 * slot, the used index moving on by @count (published later); packed, a
 * used descriptor at the next used offset (visible at once), the offset
 * moving on by @ndesc.  In order, @id is the last buffer's (2.7.9, 2.8.8).
 */
void mockdev_use(struct mockdev *d, u16 id, u32 len, unsigned int count,
		 unsigned int ndesc);

/*
 * Take every available buffer and use each at once with length @len, as
 * mockdev_take() and mockdev_use() would one by one; how many.
 */
unsigned int mockdev_use_all(struct mockdev *d, u32 len);

/* See above.  True if the driver asked for an interrupt. */
bool mockdev_publish(struct mockdev *d);

/* Raw: a split used element in slot @slot (mod the ring size). */
void mockdev_write_used(struct mockdev *d, unsigned int slot, u32 id,
			u32 len);
/* Raw: publish split used index @idx (after the elements before it). */
void mockdev_set_used_idx(struct mockdev *d, u16 idx);
/* Raw: a packed used descriptor at @off, @flags written last. */
void mockdev_write_used_packed(struct mockdev *d, u16 off, u16 id, u32 len,
			       u16 flags);
/* The flags a used descriptor carries in lap @wrap (WRITE if @len). */
u16 mockdev_used_flags(bool wrap, u32 len);

#endif /* RIG_MOCKDEV_H */
