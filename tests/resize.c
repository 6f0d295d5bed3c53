// SPDX-License-Identifier: GPL-2.0
/*
 * virtqueue_resize() and virtqueue_reset() with buffers in flight: some
 * the device has not taken, some it took and has not used, some it used
 * that the driver has not reaped.  Every one of them must go to the
 * recycle callback exactly once (recycle_done after them, where the tree
 * has it), none may come back from get_buf afterwards, the queue must
 * reset the transport once (disable_vq_and_reset, enable_vq_after_reset),
 * and the new (resize) or renewed (reset) ring must start afresh: all
 * entries free, and a device starting at index 0 on it gets the next
 * buffers, which come back.  Split and packed, in order (the device uses
 * its buffers in batches of one used entry) and not, against any driver;
 * a tree without the call (virtqueue_reset before 6.6), or whose driver
 * drops VIRTIO_F_IN_ORDER (before 7.2), is a SKIP saying so.
 *
 * Usage: resize --list | resize CASE | resize -h.  Exit 0: the driver did
 * it; 1: it did not; 2: usage error; 77: SKIP.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/virtio.h>
#include <linux/virtio_config.h>
#include <linux/virtio_ring.h>

#include "harness/harness.h"
#include "harness/mockdev.h"

static const char help[] =
"Usage: resize --list | resize --gaps | resize CASE\n"
"Resize or reset a queue with buffers in flight (--list names the cases).\n"
"Exit 0: every buffer was recycled once and the ring starts afresh; 1:\n"
"not; 2: usage error; 77: SKIP, the tree lacks the call.\n";

#define NBUFS	8

static struct virtio_device vdev;
static struct virtqueue *vq;
static char bufs[2 * NBUFS][16];
static unsigned int recycled[NBUFS], resets, enables, dones;

static int disable_reset(struct virtqueue *q __attribute__((unused)))
{
	resets++;
	return 0;
}

static int enable_after(struct virtqueue *q __attribute__((unused)))
{
	enables++;
	return 0;
}

static const struct virtio_config_ops cfgops = {
	.disable_vq_and_reset = disable_reset,
	.enable_vq_after_reset = enable_after,
};

static bool notify(struct virtqueue *q __attribute__((unused)))
{
	return true;
}

static void recycle(struct virtqueue *q __attribute__((unused)), void *buf)
{
	char (*b)[16] = buf;

	CHECKF(b >= bufs && b < bufs + NBUFS, "recycled %p, not a buffer in flight", buf);
	recycled[b - bufs]++;
}

static void __attribute__((unused)) recycle_done(struct virtqueue *q __attribute__((unused)))
{
	dones++;
}

#if RIG_VIRTQUEUE_RESIZE_ARGS == 3
#define resize_vq(q, num)	virtqueue_resize(q, num, recycle)
#elif RIG_VIRTQUEUE_RESIZE_ARGS == 4
#define resize_vq(q, num)	virtqueue_resize(q, num, recycle, recycle_done)
#define HAS_RECYCLE_DONE
#endif
#if RIG_VIRTQUEUE_RESET_ARGS == 2
#define reset_vq(q)		virtqueue_reset(q, recycle)
#elif RIG_VIRTQUEUE_RESET_ARGS == 3
#define reset_vq(q)		virtqueue_reset(q, recycle, recycle_done)
#endif

/* Where the driver's ring is now (it moves on resize). */
static void ring_of(struct rig_ring *r, bool packed)
{
	memset(r, 0, sizeof(*r));
	r->num = virtqueue_get_vring_size(vq);
	r->packed = packed;
	if (packed) {
		r->vring_packed.num = r->num;
		r->vring_packed.desc = phys_to_virt(virtqueue_get_desc_addr(vq));
		r->vring_packed.driver = phys_to_virt(virtqueue_get_avail_addr(vq));
		r->vring_packed.device = phys_to_virt(virtqueue_get_used_addr(vq));
	} else {
		r->vring.num = r->num;
		r->vring.desc = phys_to_virt(virtqueue_get_desc_addr(vq));
		r->vring.avail = phys_to_virt(virtqueue_get_avail_addr(vq));
		r->vring.used = phys_to_virt(virtqueue_get_used_addr(vq));
	}
}

static void add(unsigned int b)
{
	struct scatterlist sg;

	sg_init_one(&sg, bufs[b], sizeof(bufs[b]));
	CHECK(virtqueue_add_inbuf(vq, &sg, 1, bufs[b], GFP_KERNEL) == 0);
}

/* What a row of the case table varies. */
#define PACKED		0x1UL	/* a packed ring, else split */
#define RESIZE		0x2UL	/* virtqueue_resize() to 32, else reset */
#define IN_ORDER	0x4UL	/* VIRTIO_F_IN_ORDER: used in batches */
#define UPPER		0x8UL	/* an edge row: num_max (128), else 1 */
#define PAST		0x10UL	/* ... one past it: 129, or 0 */

/*
 * The device uses @n buffers it took: in order, one used entry for all of
 * them (the last one's id); else one entry each.
 */
static void use(struct mockdev *dev, unsigned long how, const u16 *ids,
		const unsigned int *ndescs, unsigned int n)
{
	unsigned int i, ndesc = 0;

	if (how & IN_ORDER) {
		for (i = 0; i < n; i++)
			ndesc += ndescs[i];
		mockdev_use(dev, ids[n - 1], 16, n, ndesc);
		return;
	}
	for (i = 0; i < n; i++)
		mockdev_use(dev, ids[i], 16, 1, ndescs[i]);
}

/*
 * NBUFS buffers out: the device takes 5, uses 3 (publishing them), and the
 * driver reaps one; so one is reaped, two used and not reaped, two taken
 * and not used, three not taken.
 */
static void in_flight(unsigned long how, struct mockdev *dev, struct rig_ring *r)
{
	bool packed = how & PACKED;
	unsigned int i, ndesc[5], len;
	u16 id[5];

	rig_vdev_init(&vdev, (packed ? 1ULL << VIRTIO_F_RING_PACKED |
				       1ULL << VIRTIO_F_VERSION_1 : 0) |
			     (how & IN_ORDER ? 1ULL << VIRTIO_F_IN_ORDER : 0));
	vdev.config = &cfgops;
	vq = vring_create_virtqueue(0, 64, RIG_RING_ALIGN, &vdev, true, false,
				    false, notify, NULL, "resize vq");
	CHECK(vq);
	vq->num_max = 64;	/* as a transport sets it */
	ring_of(r, packed);
	mockdev_init(dev, &vdev, r);
	for (i = 0; i < NBUFS; i++)
		add(i);
	virtqueue_kick(vq);
	for (i = 0; i < 5; i++)
		CHECK(mockdev_take(dev, &id[i], &ndesc[i]));
	use(dev, how, id, ndesc, 3);
	mockdev_publish(dev);
	CHECK(virtqueue_get_buf(vq, &len) == bufs[0] && len == 16);
	memset(recycled, 0, sizeof(recycled));
	resets = enables = dones = 0;
}

/*
 * After a resize or reset to @num: what went where, and a fresh ring (as
 * many new buffers as it holds, at most 3).
 */
static int check_after(unsigned long how, unsigned int num)
{
	unsigned int i, len, ndesc[3], k = min(num, 3U);
	struct rig_ring r;
	struct mockdev dev;
	u16 id[3];

	CHECKF(recycled[0] == 0, "buffer 0 was reaped, then recycled");
	for (i = 1; i < NBUFS; i++)
		CHECKF(recycled[i] == 1, "buffer %u recycled %u times", i,
		       recycled[i]);
#ifdef HAS_RECYCLE_DONE
	CHECKF(dones == 1, "recycle_done called %u times", dones);
#endif
	CHECKF(resets == 1 && enables == 1,
	       "the transport was reset %u times, enabled %u times", resets,
	       enables);
	CHECK(virtqueue_get_buf(vq, &len) == NULL);
	CHECK(!virtqueue_detach_unused_buf(vq));
	CHECK(virtqueue_get_vring_size(vq) == num);
	CHECK(vq->num_free == num);
	CHECK_GAP(!virtqueue_is_broken(vq));

	/* The device starts again at index 0; new buffers go and come back. */
	ring_of(&r, how & PACKED);
	mockdev_init(&dev, &vdev, &r);
	for (i = NBUFS; i < NBUFS + k; i++)
		add(i);
	virtqueue_kick(vq);
	for (i = 0; i < k; i++)
		CHECK(mockdev_take(&dev, &id[i], &ndesc[i]));
	use(&dev, how, id, ndesc, k);
	CHECK(!mockdev_take(&dev, &id[0], &ndesc[0]));
	mockdev_publish(&dev);
	for (i = NBUFS; i < NBUFS + k; i++)
		CHECK(virtqueue_get_buf(vq, &len) == bufs[i] && len == 16);
	vring_del_virtqueue(vq);
	return 0;
}

/* Resize to 32 or reset (the ring stays 64) with buffers out. */
static int resize_or_reset(unsigned long how)
{
	bool resize = how & RESIZE;
	struct rig_ring r;
	struct mockdev dev;
	int err = -ENOSYS;

#ifndef resize_vq
	if (resize)
		rig_skip("%s: linux/virtio.h declares no virtqueue_resize", rig_case_name);
#endif
#ifndef reset_vq
	if (!resize)
		rig_skip("%s: linux/virtio.h declares no virtqueue_reset", rig_case_name);
#endif
	if (how & IN_ORDER)
		rig_require_in_order(rig_case_name, false);
	in_flight(how, &dev, &r);
#ifdef resize_vq
	if (resize)
		err = resize_vq(vq, 32);
#endif
#ifdef reset_vq
	if (!resize)
		err = reset_vq(vq);
#endif
	CHECKF(err == 0, "virtqueue_%s returned %d", resize ? "resize(32)" : "reset", err);
	return check_after(how, resize ? 32 : 64);
}

/*
 * virtqueue_resize()'s bounds at their edges, the queue's num_max 128 (a
 * transport's) and buffers in flight: 128 (UPPER) or 1 (at: done, as
 * above), or one past, 129 or 0 (PAST: refused with -E2BIG or -EINVAL,
 * nothing recycled, the transport not reset, the ring as it was).
 */
static int resize_edge(unsigned long how)
{
	unsigned int num = how & UPPER ? 128 + !!(how & PAST) : 1 - !!(how & PAST);
	struct rig_ring r;
	struct mockdev dev;
	unsigned int i;
	int err = -ENOSYS;

#ifndef resize_vq
	rig_skip("%s: linux/virtio.h declares no virtqueue_resize", rig_case_name);
#endif
	if (how & IN_ORDER)
		rig_require_in_order(rig_case_name, false);
	in_flight(how, &dev, &r);
	vq->num_max = 128;
#ifdef resize_vq
	err = resize_vq(vq, num);
#endif
	if (!(how & PAST)) {
		CHECKF(err == 0, "virtqueue_resize(%u) returned %d", num, err);
		return check_after(how, num);
	}
	CHECKF(err == (how & UPPER ? -E2BIG : -EINVAL), "virtqueue_resize(%u) returned %d, not %d",
	       num, err, how & UPPER ? -E2BIG : -EINVAL);
	for (i = 0; i < NBUFS; i++)
		CHECKF(!recycled[i], "a refused resize recycled buffer %u", i);
	CHECKF(!resets && !enables && virtqueue_get_vring_size(vq) == 64 && !virtqueue_is_broken(vq),
	       "a refused resize touched the queue (reset %u, enabled %u, ring of %u)", resets,
	       enables, virtqueue_get_vring_size(vq));
	while (virtqueue_detach_unused_buf(vq))
		;
	vring_del_virtqueue(vq);
	return 0;
}

/*
 * Linux 7.x's in-order driver keeps its in-order state across
 * virtqueue_reset(): a batch it was half way through reaping (a used
 * entry read, not all its buffers returned), and, split, the descriptor it
 * would add at next.  The next get_buf on the renewed ring acts on the
 * stale entry, or looks for buffers where none were added, and breaks
 * the queue ("id 0 is not a head!").  Resize makes a new ring and is not
 * affected (kernel/GAPS; tests/ksrc-edits/in-order-reset.edit fixes it).
 */
#define IN_ORDER_RESET_GAP \
	"the kernel's in-order virtio_ring keeps its in-order state across virtqueue_reset() and breaks the renewed queue"

static const struct rig_case cases[] = {
	RIG_CASE_ARG("split-resize-in-flight", resize_or_reset, RESIZE),
	RIG_CASE_ARG("packed-resize-in-flight", resize_or_reset, PACKED | RESIZE),
	RIG_CASE_ARG("split-reset-in-flight", resize_or_reset, 0),
	RIG_CASE_ARG("packed-reset-in-flight", resize_or_reset, PACKED),
	RIG_CASE_ARG("split-in-order-resize-in-flight", resize_or_reset,
		     IN_ORDER | RESIZE),
	RIG_CASE_ARG("packed-in-order-resize-in-flight", resize_or_reset,
		     IN_ORDER | PACKED | RESIZE),
	RIG_CASE_ARG_GAP("split-in-order-reset-in-flight", resize_or_reset,
			 IN_ORDER, IN_ORDER_RESET_GAP),
	RIG_CASE_ARG_GAP("packed-in-order-reset-in-flight", resize_or_reset,
			 IN_ORDER | PACKED, IN_ORDER_RESET_GAP),
	/* The bounds, a row a variant: the largest and smallest size, one past. */
	RIG_CASE_ARG("split-resize-to-num-max", resize_edge, UPPER),
	RIG_CASE_ARG("split-resize-past-num-max", resize_edge, UPPER | PAST),
	RIG_CASE_ARG("split-resize-to-1", resize_edge, 0),
	RIG_CASE_ARG("split-resize-to-0", resize_edge, PAST),
	RIG_CASE_ARG("packed-resize-to-num-max", resize_edge, PACKED | UPPER),
	RIG_CASE_ARG("packed-resize-past-num-max", resize_edge, PACKED | UPPER | PAST),
	RIG_CASE_ARG("packed-resize-to-1", resize_edge, PACKED),
	RIG_CASE_ARG("packed-resize-to-0", resize_edge, PACKED | PAST),
	RIG_CASE_ARG("split-in-order-resize-to-num-max", resize_edge, IN_ORDER | UPPER),
	RIG_CASE_ARG("split-in-order-resize-past-num-max", resize_edge, IN_ORDER | UPPER | PAST),
	RIG_CASE_ARG("split-in-order-resize-to-1", resize_edge, IN_ORDER),
	RIG_CASE_ARG("split-in-order-resize-to-0", resize_edge, IN_ORDER | PAST),
	RIG_CASE_ARG("packed-in-order-resize-to-num-max", resize_edge, IN_ORDER | PACKED | UPPER),
	RIG_CASE_ARG("packed-in-order-resize-past-num-max", resize_edge,
		     IN_ORDER | PACKED | UPPER | PAST),
	RIG_CASE_ARG("packed-in-order-resize-to-1", resize_edge, IN_ORDER | PACKED),
	RIG_CASE_ARG("packed-in-order-resize-to-0", resize_edge, IN_ORDER | PACKED | PAST),
};

RIG_CASE_MAIN(cases, help)
