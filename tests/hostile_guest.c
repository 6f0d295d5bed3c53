// SPDX-License-Identifier: GPL-2.0
/*
 * tests/hostile, guest side: a real driver queue adds buffers, then a
 * mock device scribbles a bad used ring entry (split, packed, in order)
 * or bad used flags, and the queue must be marked broken with a message
 * and return nothing.  The cases' table is in hostile.c.
 */
#include <linux/virtio.h>
#include <linux/virtio_config.h>
#include <linux/virtio_ring.h>

#include "harness/harness.h"
#include "harness/mockdev.h"
#include "tests/fence.h"
#include "tests/hostile.h"

/*
 * Guest side: a real queue, a device that lies in the used ring.
 */
static struct virtio_device vdev;
static struct rig_queue queue;
static struct virtqueue *vq;		/* queue.vq */
static struct mockdev dev;		/* the device, which lies */
static char inbuf[16];

static bool guest_notify(struct virtqueue *q __attribute__((unused)))
{
	return true;
}

/* A real queue with @features; the mock device on its ring. */
static void guest_queue(u64 features, const char *name)
{
	rig_vdev_init(&vdev, features);
	rig_queue_make(&queue, &vdev, RING_SIZE, NULL, false, guest_notify,
		       NULL, name);
	vq = queue.vq;
	mockdev_init(&dev, &vdev, &queue.ring);
}

/* Add one 16-byte in buffer; return the head the driver used. */
static u16 guest_setup(void)
{
	struct scatterlist sg;

	guest_queue(0, "hostile vq");
	sg_init_one(&sg, inbuf, sizeof(inbuf));
	CHECK(virtqueue_add_inbuf(vq, &sg, 1, inbuf, GFP_KERNEL) == 0);
	virtqueue_kick(vq);
	return virtio16_to_cpu(&vdev, queue.ring.vring.avail->ring[0]);
}

/* A split used element in @slot, the used index moved to @new_idx. */
static void device_uses_at(unsigned int slot, u32 id, u32 len, u16 new_idx)
{
	mockdev_write_used(&dev, slot, id, len);
	mockdev_set_used_idx(&dev, new_idx);
}

/* A packed used descriptor at @off, in the first lap. */
static void device_uses_packed_at(unsigned int off, u16 id, u32 len)
{
	mockdev_write_used_packed(&dev, off, id, len,
				  mockdev_used_flags(true, len));
}

/*
 * get_buf from the lying device must return nothing, break the queue and
 * say so.  With @gap_unbroken, a queue left unbroken is the case's known
 * gap showing too, not only a buffer returned.
 */
static void get_buf_breaks(bool gap_unbroken)
{
	unsigned int len = 0;
	size_t said;
	void *buf = said_get_buf(vq, &len, &said);

	CHECKF_GAP(buf == NULL, "get_buf returned %p from a lying device", buf);
	if (gap_unbroken)
		CHECK_GAP(virtqueue_is_broken(vq));
	else
		CHECK(virtqueue_is_broken(vq));
	CHECKF(said > 0, "queue broken without a message");
	/* Broken stays broken. */
	CHECK(virtqueue_get_buf(vq, &len) == NULL);
}

/* get_buf must return nothing, break the queue and say so (@why). */
static int expect_broken_why(const char *why)
{
	struct scatterlist sg;

	get_buf_breaks(true);
	CHECKF(said_why(false, why), "broken, but not because \"%s\"", why);
	sg_init_one(&sg, inbuf, sizeof(inbuf));
	CHECK(virtqueue_add_inbuf(vq, &sg, 1, inbuf, GFP_KERNEL) == -EIO);
	CHECK(virtqueue_is_broken(vq));

	/* The buffer can still be reclaimed, and nothing leaks. */
	CHECK(virtqueue_detach_unused_buf(vq) == inbuf);
	rig_queue_destroy(&queue);
	return 0;
}

static int expect_broken(void)
{
	return expect_broken_why(NULL);
}

/* In the kmalloc fence: a read of the state one id past the ring faults. */
int guest_id_out_of_range(void)
{
	fence_begin();
	guest_setup();
	device_uses_at(0, RING_SIZE, 0, 1);
	expect_broken_why("out of range");
	fence_end();
	return 0;
}

int guest_id_not_in_flight(void)
{
	u16 head = guest_setup();

	device_uses_at(0, (head + 1) % RING_SIZE, 0, 1);
	return expect_broken();
}

int guest_len_too_big(void)
{
	u16 head = guest_setup();

	device_uses_at(0, head, sizeof(inbuf) + 1, 1);
	return expect_broken();
}

int guest_used_idx_jump(void)
{
	u16 head = guest_setup();

	device_uses_at(0, head, 0, RING_SIZE + 1);
	return expect_broken_why("ahead of");
}

/* virtio_break_device: every queue of the device stops. */
int guest_break_device(void)
{
	struct scatterlist sg;
	unsigned int len;

	guest_setup();
	virtio_break_device(&vdev);
	CHECK(virtqueue_is_broken(vq));
	CHECK(virtqueue_get_buf(vq, &len) == NULL);
	sg_init_one(&sg, inbuf, sizeof(inbuf));
	CHECK(virtqueue_add_inbuf(vq, &sg, 1, inbuf, GFP_KERNEL) == -EIO);
	CHECK(!virtqueue_kick(vq));
	CHECK(virtqueue_detach_unused_buf(vq) == inbuf);
	rig_queue_destroy(&queue);
	return 0;
}

/*
 * Guest side, packed ring: a real packed queue (on memory of the harness's
 * with the rig's driver, else where vring_create_virtqueue() puts it), one
 * in buffer added, then a device that lies in the used descriptor it
 * writes at offset 0.
 */
/* Add one 16-byte in buffer to a new packed queue; return its id. */
static u16 guest_packed_setup(void)
{
	struct scatterlist sg;

	guest_queue(1ULL << VIRTIO_F_RING_PACKED | 1ULL << VIRTIO_F_VERSION_1,
		    "hostile packed vq");
	sg_init_one(&sg, inbuf, sizeof(inbuf));
	CHECK(virtqueue_add_inbuf(vq, &sg, 1, inbuf, GFP_KERNEL) == 0);
	virtqueue_kick(vq);
	return le16_to_cpu(queue.ring.vring_packed.desc[0].id);
}

int guest_packed_id_out_of_range(void)
{
	fence_begin();
	guest_packed_setup();
	device_uses_packed_at(0, RING_SIZE, 0);
	expect_broken_why("out of range");
	fence_end();
	return 0;
}

int guest_packed_id_not_in_flight(void)
{
	u16 id = guest_packed_setup();

	device_uses_packed_at(0, (id + 1) % RING_SIZE, 0);
	return expect_broken();
}

int guest_packed_len_too_big(void)
{
	u16 id = guest_packed_setup();

	device_uses_packed_at(0, id, sizeof(inbuf) + 1);
	return expect_broken();
}

/*
 * The used descriptor written with the other lap's flags (AVAIL = USED = 0
 * where the device's wrap counter is 1): the buffer would never come back.
 */
int guest_packed_wrong_lap(void)
{
	u16 id = guest_packed_setup();

	mockdev_write_used_packed(&dev, 0, id, 0, mockdev_used_flags(false, 0));
	return expect_broken_why("wrong lap");
}

/* The reserved device event flags value 0x3: kick_prepare breaks the queue. */
int guest_packed_device_flags_reserved(void)
{
	size_t said;
	bool kick;

	guest_packed_setup();
	WRITE_ONCE(queue.ring.vring_packed.device->flags, cpu_to_le16(3));
	capture_begin();
	kick = virtqueue_kick_prepare(vq);
	said = capture_end();
	CHECK_GAP(!kick && virtqueue_is_broken(vq));
	CHECKF(said > 0 && said_why(false, "reserved"),
	       "broken without saying the flags are reserved");
	CHECK(virtqueue_detach_unused_buf(vq) == inbuf);
	rig_queue_destroy(&queue);
	return 0;
}

/* get_buf must return inbuf with @len, the queue not broken, no message. */
static int expect_returned(unsigned int want_len)
{
	unsigned int len = 0;
	size_t said;
	void *buf = said_get_buf(vq, &len, &said);

	CHECKF(buf == inbuf, "get_buf returned %p, not the buffer used", buf);
	CHECKF(len == want_len, "get_buf said %u bytes, the device %u", len,
	       want_len);
	CHECK(!virtqueue_is_broken(vq) && said == 0);
	rig_queue_destroy(&queue);
	return 0;
}

/* Edges of guest-len-too-big: the whole buffer written, split and packed. */
int guest_len_whole_buffer(void)
{
	u16 head = guest_setup();

	device_uses_at(0, head, sizeof(inbuf), 1);
	return expect_returned(sizeof(inbuf));
}

int guest_packed_len_whole_buffer(void)
{
	u16 id = guest_packed_setup();

	device_uses_packed_at(0, id, sizeof(inbuf));
	return expect_returned(sizeof(inbuf));
}

/*
 * Edge of guest-used-idx-jump: a whole ring of buffers used at once, the
 * used index RING_SIZE ahead; every one comes back, in the order used.
 */
int guest_used_idx_full(void)
{
	static char bufs[RING_SIZE][16];
	struct scatterlist sg;
	unsigned int i, n, len;
	u16 id;

	guest_queue(0, "hostile vq");
	for (i = 0; i < RING_SIZE; i++) {
		sg_init_one(&sg, bufs[i], sizeof(bufs[i]));
		CHECK(virtqueue_add_inbuf(vq, &sg, 1, bufs[i], GFP_KERNEL) == 0);
	}
	virtqueue_kick(vq);
	for (i = 0; i < RING_SIZE; i++) {
		CHECK(mockdev_take(&dev, &id, &n));
		mockdev_use(&dev, id, i, 1, n);
	}
	mockdev_publish(&dev);
	for (i = 0; i < RING_SIZE; i++) {
		CHECKF(virtqueue_get_buf(vq, &len) == bufs[i] && len == i,
		       "buffer %u of a full ring used did not come back", i);
	}
	CHECK(!virtqueue_is_broken(vq) && !virtqueue_get_buf(vq, &len));
	rig_queue_destroy(&queue);
	return 0;
}

/*
 * In order, guest side: a device that reports a batch whose id is not an
 * outstanding buffer (never made available, already used, or not a
 * buffer's id at all), or (split) a batch longer than the used index says.
 * The buffers are 16-byte in buffers of @parts parts; the rig's driver
 * puts them in ring order from 0 (split heads 0, 1, ...; packed ids are
 * the offsets of their first descriptors).
 */
static char io_bufs[4][16];
static unsigned int io_added;

static void guest_in_order_add(unsigned int parts)
{
	struct scatterlist sg[2];
	unsigned int i;

	sg_init_table(sg, parts);
	for (i = 0; i < parts; i++)
		sg_set_buf(&sg[i], io_bufs[io_added] + i * 8, 16 / parts);
	CHECK(virtqueue_add_inbuf(vq, sg, parts, io_bufs[io_added],
				  GFP_KERNEL) == 0);
	io_added++;
}

static void guest_in_order_setup(bool packed, unsigned int n,
				 unsigned int parts)
{
	rig_require_in_order(rig_case_name, false);
	guest_queue(1ULL << VIRTIO_F_IN_ORDER |
		    (packed ? 1ULL << VIRTIO_F_RING_PACKED |
			      1ULL << VIRTIO_F_VERSION_1 : 0),
		    packed ? "hostile in-order packed vq" : "hostile in-order vq");
	io_added = 0;
	while (io_added < n)
		guest_in_order_add(parts);
	virtqueue_kick(vq);
}

/* The queue must break with a message; the @left buffers out come back. */
static int expect_broken_in_order(unsigned int left)
{
	unsigned int detached = 0;
	void *buf;

	get_buf_breaks(false);
	while ((buf = virtqueue_detach_unused_buf(vq)) != NULL) {
		CHECK(buf == io_bufs[io_added - 1 - detached] ||
		      buf == io_bufs[io_added - left + detached]);
		detached++;
	}
	CHECKF(detached == left, "detached %u buffers, %u were out",
	       detached, left);
	rig_queue_destroy(&queue);
	return 0;
}

/* Two buffers out (heads 0, 1); a batch ends with head 2. */
int guest_in_order_batch_id_not_in_flight(void)
{
	guest_in_order_setup(false, 2, 1);
	device_uses_at(0, 2, 0, 2);
	return expect_broken_in_order(2);
}

/* Three out; a batch ends with head 2, but the used index moves by two. */
int guest_in_order_batch_too_long(void)
{
	guest_in_order_setup(false, 3, 1);
	device_uses_at(0, 2, 0, 2);
	return expect_broken_in_order(3);
}

/* A batch of two (0, 1) comes back; then one names head 0 again. */
int guest_in_order_batch_id_used(void)
{
	unsigned int len;

	guest_in_order_setup(false, 2, 1);
	device_uses_at(0, 1, 16, 2);
	CHECK(virtqueue_get_buf(vq, &len) == io_bufs[0] && len == 16);
	CHECK(virtqueue_get_buf(vq, &len) == io_bufs[1] && len == 16);
	guest_in_order_add(1);
	device_uses_at(2, 0, 0, 3);
	return expect_broken_in_order(1);
}

/* Packed: lists of two at 0 and 2; the used descriptor names id 1. */
int guest_packed_in_order_batch_id_not_a_buffer(void)
{
	guest_in_order_setup(true, 2, 2);
	device_uses_packed_at(0, 1, 0);
	return expect_broken_in_order(2);
}

/* Packed: a batch of two (ids 0, 1) comes back; then one names 0 again. */
int guest_packed_in_order_batch_id_used(void)
{
	unsigned int len;

	guest_in_order_setup(true, 2, 1);
	device_uses_packed_at(0, 1, 16);
	CHECK(virtqueue_get_buf(vq, &len) == io_bufs[0] && len == 16);
	CHECK(virtqueue_get_buf(vq, &len) == io_bufs[1] && len == 16);
	guest_in_order_add(1);
	device_uses_packed_at(2, 0, 0);
	return expect_broken_in_order(1);
}

/*
 * 2.7.10: used flags are 0 or 1, and 0 with VIRTIO_RING_F_EVENT_IDX.  The
 * driver reads them when it decides whether to notify: the kick must not
 * happen, the queue must break and say so.
 */
static int expect_kick_refused(u64 features, u16 used_flags)
{
	struct scatterlist sg;
	size_t said;
	bool kick;

	guest_queue(features, "spec vq");
	sg_init_one(&sg, inbuf, sizeof(inbuf));
	CHECK(virtqueue_add_inbuf(vq, &sg, 1, inbuf, GFP_KERNEL) == 0);
	queue.ring.vring.used->flags = cpu_to_virtio16(&vdev, used_flags);
	capture_begin();
	kick = virtqueue_kick_prepare(vq);
	said = capture_end();
	CHECKF_GAP(!kick, "kick_prepare said notify with used flags 0x%x",
	           used_flags);
	CHECK(virtqueue_is_broken(vq));
	CHECKF(said > 0, "queue broken without a message");
	CHECK(virtqueue_detach_unused_buf(vq) == inbuf);
	rig_queue_destroy(&queue);
	return 0;
}

int spec_used_flags(void)
{
	return expect_kick_refused(0, 2);
}

int spec_used_flags_event_idx(void)
{
	return expect_kick_refused(1ULL << VIRTIO_RING_F_EVENT_IDX,
				   VRING_USED_F_NO_NOTIFY);
}
