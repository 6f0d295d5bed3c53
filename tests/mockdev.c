// SPDX-License-Identifier: GPL-2.0
/*
 * The mock device (harness/mockdev.h) against the linked driver: does it
 * notify exactly when the driver's event says it must?  vring_bench and
 * the fuzz target decide their interrupts with mockdev_publish(), so a
 * wrong answer there is a lost wake-up (a hang) or a figure that counts
 * interrupts nobody asked for.
 *
 *   tests/mockdev --list     the case names
 *   tests/mockdev CASE       run one case: exit 0 if it held
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include <linux/virtio.h>
#include <linux/virtio_config.h>
#include <linux/virtio_ring.h>

#include "harness/harness.h"
#include "harness/mockdev.h"

static const char help[] =
"Usage: mockdev --list | mockdev --gaps | mockdev CASE\n"
"Play the mock device against the linked driver and check when it says\n"
"the driver wants an interrupt.  Exit 0: it held; 1: it did not; 2: usage\n"
"error.\n";

#define NUM	8	/* ring entries */

static struct virtio_device vdev;
static struct rig_queue queue;
static struct virtqueue *vq;		/* queue.vq */
static struct mockdev dev;
static char bufs[NUM];

static bool notify(struct virtqueue *q __attribute__((unused)))
{
	return true;
}

static void callback(struct virtqueue *q __attribute__((unused)))
{
}

static void setup(bool packed)
{
	u64 features = 1ULL << VIRTIO_RING_F_EVENT_IDX;

	if (packed)
		features |= 1ULL << VIRTIO_F_RING_PACKED |
			    1ULL << VIRTIO_F_VERSION_1;
	rig_vdev_init(&vdev, features);
	rig_queue_make(&queue, &vdev, NUM, NULL, false, notify, callback,
		       "mockdev vq");
	vq = queue.vq;
	mockdev_init(&dev, &vdev, &queue.ring);
}

static void teardown(void)
{
	rig_queue_destroy(&queue);
}

/* The driver offers @n one-descriptor out buffers. */
static void driver_adds(unsigned int n)
{
	struct scatterlist sg;

	while (n--) {
		sg_init_one(&sg, &bufs[0], 1);
		CHECK(virtqueue_add_outbuf(vq, &sg, 1, bufs, GFP_KERNEL) == 0);
	}
	virtqueue_kick(vq);
}

/* The driver takes back every buffer it can see used: how many. */
static unsigned int driver_reaps(void)
{
	unsigned int len, n = 0;

	while (virtqueue_get_buf(vq, &len))
		n++;
	return n;
}

/* The device takes and uses @n buffers, without publishing. */
static void device_uses(unsigned int n)
{
	unsigned int ndesc;
	u16 id;

	while (n--) {
		CHECK(mockdev_take(&dev, &id, &ndesc));
		mockdev_use(&dev, id, 0, 1, ndesc);
	}
}

/*
 * How many more buffers the device must use before it has used the one
 * the driver's event names: the distance from the device's next used
 * entry (split: used index; packed: offset and lap) to the event.
 */
static unsigned int to_event(void)
{
	if (queue.ring.packed) {
		u16 ow = le16_to_cpu(queue.ring.vring_packed.driver->off_wrap);
		unsigned int off = ow & ~(1 << VRING_PACKED_EVENT_F_WRAP_CTR);
		bool wrap = ow >> VRING_PACKED_EVENT_F_WRAP_CTR;
		unsigned int ev = wrap ? off : off + NUM;
		unsigned int now = dev.used_wrap ? dev.used_off
						 : dev.used_off + NUM;

		return (ev + 2 * NUM - now) % (2 * NUM);
	}
	return (u16)(virtio16_to_cpu(&vdev,
			vring_used_event(&queue.ring.vring)) - dev.used_idx);
}

/*
 * A full ring, callbacks on "when most have come back": no interrupt
 * until the device has used the buffer the event names, one right after.
 */
static void event_window(bool packed)
{
	unsigned int before;

	setup(packed);
	driver_adds(NUM);
	/*
	 * As a driver's interrupt handler does.  A packed queue that never
	 * had callbacks off stays at "every buffer" (ENABLE) in both the
	 * rig's driver and the kernel's.
	 */
	virtqueue_disable_cb(vq);
	CHECK(virtqueue_enable_cb_delayed(vq));
	before = to_event();
	CHECKF(before < NUM, "the driver's event is %u buffers away", before);
	device_uses(before);
	CHECKF(!mockdev_publish(&dev),
	       "an interrupt after %u buffers, before the event's", before);
	device_uses(1);
	CHECKF(mockdev_publish(&dev),
	       "no interrupt after the event's buffer (%u in)", before + 1);
	CHECK(driver_reaps() == before + 1);
	teardown();
}

static int split_event_window(void)
{
	event_window(false);
	return RIG_EXIT_OK;
}

static int packed_event_window(void)
{
	event_window(true);
	return RIG_EXIT_OK;
}

/*
 * Packed used descriptors are visible as soon as they are written, so the
 * driver may reap them and offer the slots again before the device ever
 * publishes: here one whole lap, then a full ring with the event inside it.
 * The device has then moved two laps since its last publish, and its
 * offset is back where it was: it must still see that it passed the event.
 */
static int packed_event_two_laps(void)
{
	unsigned int i;

	setup(true);
	virtqueue_disable_cb(vq);
	for (i = 0; i < NUM; i++) {
		driver_adds(1);
		device_uses(1);
		CHECK(driver_reaps() == 1);
	}
	driver_adds(NUM);
	CHECK(virtqueue_enable_cb_delayed(vq));
	CHECK(to_event() < NUM);
	device_uses(NUM);
	CHECKF(mockdev_publish(&dev),
	       "no interrupt: %u descriptors used since the last publish, the event among them",
	       2 * NUM);
	CHECK(driver_reaps() == NUM);
	teardown();
	return RIG_EXIT_OK;
}

static const struct rig_case cases[] = {
	RIG_CASE("split-event-window", split_event_window),
	RIG_CASE("packed-event-window", packed_event_window),
	RIG_CASE("packed-event-two-laps", packed_event_two_laps),
};

RIG_CASE_MAIN(cases, help)
