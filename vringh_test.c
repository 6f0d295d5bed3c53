// SPDX-License-Identifier: GPL-2.0
/*
 * vringh_test: the guest's virtio_ring.c against the host's vringh.c.
 *
 * Without --parallel it runs single-threaded scenarios, guest and host taking
 * turns on one ring, and checks every step.  With --parallel a guest thread
 * and a host thread, each pinned to its own CPU, exchange millions of
 * buffers through shared memory mapped at two addresses, and the guest checks
 * the contents of every buffer that comes back.
 *
 * Only the kernel API is used, so the same program builds against a kernel
 * tree's ring code.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/virtio.h>
#include <linux/virtio_config.h>
#include <linux/virtio_ring.h>
#include <linux/vringh.h>
#include <linux/uaccess.h>

#include "harness.h"

#define RINGSIZE	256
#define ALIGN_RING	4096
#define RING_BYTES	16384		/* >= vring_size(RINGSIZE, ALIGN_RING) */
/*
 * Per-buffer slots for indirect tables and data: one more than the ring
 * holds, so the slot of the buffer being added is never one in flight.
 */
#define SLOTS		(RINGSIZE + 1)
#define INDIRECT_BYTES	(SLOTS * 4 * sizeof(struct vring_desc))
#define DATA_BYTES	(1 << 20)
#define USER_MEM	(RING_BYTES + INDIRECT_BYTES + DATA_BYTES)
#define DEFAULT_XFERS	10000000UL

static struct {
	u64 features;
	bool slow_range;
	bool fast_vringh;
	bool parallel;
	unsigned long xfers;
} opt = { .xfers = DEFAULT_XFERS };

/* Where things live inside the shared memory, as offsets. */
#define OFF_INDIRECT	RING_BYTES
#define OFF_DATA	(RING_BYTES + INDIRECT_BYTES)

static void init_vdev(struct virtio_device *vdev)
{
	memset(vdev, 0, sizeof(*vdev));
	INIT_LIST_HEAD(&vdev->vqs);
	spin_lock_init(&vdev->vqs_list_lock);
	vdev->features = opt.features;
}

/* The host's vringh on the host view of the ring at the start of @shm. */
static void init_host(struct vringh *vrh, struct rig_shm *shm)
{
	struct vring vr;

	vring_init(&vr, RINGSIZE, shm->host, ALIGN_RING);
	CHECK(vringh_init_user(vrh, opt.features, RINGSIZE, true,
			       vr.desc, vr.avail, vr.used) == 0);
}

/*
 * Single-threaded scenarios.
 */
static unsigned long st_notifies, st_callbacks;

static bool st_notify(struct virtqueue *vq __attribute__((unused)))
{
	st_notifies++;
	return true;
}

static void st_callback(struct virtqueue *vq __attribute__((unused)))
{
	st_callbacks++;
}

struct st {
	struct rig_shm shm;
	struct virtio_device vdev;
	struct virtqueue *vq;
	struct vringh vrh;
	struct iovec riov_stack[4], wiov_stack[4];
	struct vringh_iov riov, wiov;
};

static void *guest_ptr(struct st *t, size_t off)
{
	return (char *)t->shm.guest + off;
}

static void *host_ptr(struct st *t, size_t off)
{
	return (char *)t->shm.host + off;
}

/* Let the guest's next indirect table land in the shared indirect area. */
static void fake_indirect(struct st *t, unsigned int slot)
{
	__kmalloc_fake = guest_ptr(t, OFF_INDIRECT + slot * 4 * sizeof(struct vring_desc));
}

static void st_setup(struct st *t, bool guest_indirect)
{
	rig_shm_create(&t->shm, USER_MEM);
	memset(t->shm.guest, 0, USER_MEM);
	rig_user_map(t->shm.guest, t->shm.host, USER_MEM, opt.slow_range);
	__kfree_ignore_start = guest_ptr(t, OFF_INDIRECT);
	__kfree_ignore_end = guest_ptr(t, OFF_DATA);

	init_vdev(&t->vdev);
	if (!guest_indirect)
		__virtio_clear_bit(&t->vdev, VIRTIO_RING_F_INDIRECT_DESC);
	t->vq = vring_new_virtqueue(0, RINGSIZE, ALIGN_RING, &t->vdev, true,
				    false, t->shm.guest, st_notify,
				    st_callback, "guest vq");
	CHECK(t->vq);
	init_host(&t->vrh, &t->shm);
	vringh_iov_init(&t->riov, t->riov_stack, ARRAY_SIZE(t->riov_stack));
	vringh_iov_init(&t->wiov, t->wiov_stack, ARRAY_SIZE(t->wiov_stack));
}

static void st_teardown(struct st *t)
{
	vringh_iov_cleanup(&t->riov);
	vringh_iov_cleanup(&t->wiov);
	vring_del_virtqueue(t->vq);
	__kmalloc_fake = NULL;
	__kfree_ignore_start = __kfree_ignore_end = NULL;
	rig_shm_destroy(&t->shm);
}

/* Total bytes described by an iov, and a check it is a host address. */
static size_t iov_bytes(struct st *t, const struct vringh_iov *iov)
{
	size_t n = 0;
	unsigned int i;

	for (i = 0; i < iov->used; i++) {
		char *base = iov->iov[i].iov_base;

		CHECK(base >= (char *)t->shm.host &&
		      base + iov->iov[i].iov_len <= (char *)t->shm.host + USER_MEM);
		n += iov->iov[i].iov_len;
	}
	return n;
}

/* How many iovecs a buffer of @len contiguous bytes must become. */
static unsigned int iovs_for(unsigned int len)
{
	return opt.slow_range ? len : 1;
}

static void scenario_basic(void)
{
	struct scatterlist guest_sg[2], *sgs[2];
	char *out = NULL, *in = NULL;
	unsigned int len;
	char buf[8];
	u16 head;
	struct st t;
	int err;

	st_setup(&t, true);

	/* An empty ring has nothing for the host. */
	CHECK(vringh_getdesc_user(&t.vrh, &t.riov, &t.wiov, rig_getrange, &head) == 0);

	/* One readable byte at the very end of memory, two writable bytes. */
	out = guest_ptr(&t, USER_MEM - 1);
	in = guest_ptr(&t, OFF_DATA);
	*out = 'a';
	sg_init_one(&guest_sg[0], out, 1);
	sg_init_one(&guest_sg[1], in, 2);
	sgs[0] = &guest_sg[0];
	sgs[1] = &guest_sg[1];
	fake_indirect(&t, 0);
	err = virtqueue_add_sgs(t.vq, sgs, 1, 1, &t, GFP_KERNEL);
	__kmalloc_fake = NULL;
	CHECKF(err == 0, "add_sgs: %d", err);

	err = vringh_getdesc_user(&t.vrh, &t.riov, &t.wiov, rig_getrange, &head);
	CHECKF(err == 1, "getdesc: %d", err);
	CHECK(t.riov.used == 1);
	CHECK(t.riov.iov[0].iov_base == host_ptr(&t, USER_MEM - 1));
	CHECK(t.riov.iov[0].iov_len == 1);
	CHECK(t.wiov.used == iovs_for(2));
	CHECK(iov_bytes(&t, &t.wiov) == 2);
	CHECK(t.wiov.iov[0].iov_base == host_ptr(&t, OFF_DATA));

	/* Pull: one byte, then the iov is exhausted. */
	CHECK(vringh_iov_pull_user(&t.riov, buf, 5) == 1);
	CHECK(buf[0] == 'a');
	CHECK(t.riov.i == t.riov.used);
	CHECK(vringh_iov_pull_user(&t.riov, buf, 1) == 0);

	/* Push five bytes into two: only two fit. */
	CHECK(vringh_iov_push_user(&t.wiov, "bcdef", 5) == 2);
	CHECK(memcmp(host_ptr(&t, OFF_DATA), "bc", 2) == 0);
	CHECK(vringh_iov_push_user(&t.wiov, "x", 1) == 0);

	/* Nothing used yet: the guest gets nothing. */
	CHECK(virtqueue_get_buf(t.vq, &len) == NULL);
	CHECK(vringh_complete_user(&t.vrh, head, 2) == 0);
	CHECK(virtqueue_get_buf(t.vq, &len) == &t);
	CHECK(len == 2);
	CHECK(memcmp(in, "bc", 2) == 0);
	CHECK(virtqueue_get_buf(t.vq, &len) == NULL);

	st_teardown(&t);
}

/* Partial pulls and pushes across iovec boundaries. */
static void scenario_partial(void)
{
	struct scatterlist sg[3];
	unsigned int len, i;
	char buf[16];
	u16 head;
	struct st t;
	char *d;

	st_setup(&t, true);
	d = guest_ptr(&t, OFF_DATA);
	for (i = 0; i < 12; i++)
		d[i] = 'A' + i;
	sg_init_table(sg, 3);
	sg_set_buf(&sg[0], d, 3);
	sg_set_buf(&sg[1], d + 100, 0);
	sg_set_buf(&sg[2], d + 3, 9);
	fake_indirect(&t, 0);
	CHECK(virtqueue_add_outbuf(t.vq, sg, 3, &t, GFP_KERNEL) == 0);
	__kmalloc_fake = NULL;

	CHECK(vringh_getdesc_user(&t.vrh, &t.riov, &t.wiov, rig_getrange, &head) == 1);
	CHECK(t.wiov.used == 0);
	CHECK(iov_bytes(&t, &t.riov) == 12);
	CHECK(vringh_iov_pull_user(&t.riov, buf, 2) == 2);
	CHECK(memcmp(buf, "AB", 2) == 0);
	CHECK(vringh_iov_pull_user(&t.riov, buf, 4) == 4);
	CHECK(memcmp(buf, "CDEF", 4) == 0);
	CHECK(vringh_iov_pull_user(&t.riov, buf, sizeof(buf)) == 6);
	CHECK(memcmp(buf, "GHIJKL", 6) == 0);
	CHECK(vringh_iov_pull_user(&t.riov, buf, sizeof(buf)) == 0);
	/* A readable-only buffer has nothing to push into. */
	CHECK(vringh_iov_push_user(&t.wiov, "z", 1) == 0);

	CHECK(vringh_complete_user(&t.vrh, head, 0) == 0);
	CHECK(virtqueue_get_buf(t.vq, &len) == &t);
	CHECK(len == 0);
	st_teardown(&t);
}

#define HUGE_ELEMS	256
#define HUGE_ELEM_LEN	64

/* A 256-element buffer: the host must grow its iov beyond the caller's. */
static void scenario_huge(void)
{
	static struct scatterlist sg[HUGE_ELEMS];
	size_t total = 0;
	unsigned int len, i;
	unsigned char *d;
	u16 head;
	struct st t;
	int err;

	st_setup(&t, true);
	d = guest_ptr(&t, OFF_DATA);
	for (i = 0; i < HUGE_ELEM_LEN; i++)
		d[i] = i;
	sg_init_table(sg, HUGE_ELEMS);
	for (i = 0; i < HUGE_ELEMS; i++)
		sg_set_buf(&sg[i], d, HUGE_ELEM_LEN);

	/* One table of 256 descriptors: give it the whole indirect area. */
	fake_indirect(&t, 0);
	err = virtqueue_add_outbuf(t.vq, sg, HUGE_ELEMS, &t, GFP_KERNEL);
	__kmalloc_fake = NULL;
	CHECKF(err == 0, "add_outbuf of %d: %d", HUGE_ELEMS, err);

	err = vringh_getdesc_user(&t.vrh, &t.riov, &t.wiov, rig_getrange, &head);
	CHECKF(err == 1, "getdesc: %d", err);
	CHECK(t.riov.max_num & VRINGH_IOV_ALLOCATED);
	CHECK(t.riov.iov != t.riov_stack);
	CHECK(t.riov.used == HUGE_ELEMS * iovs_for(HUGE_ELEM_LEN));
	CHECK(t.wiov.used == 0);
	CHECK(iov_bytes(&t, &t.riov) == HUGE_ELEMS * HUGE_ELEM_LEN);

	/* Pull it all back in 3-byte bites and check the pattern. */
	for (;;) {
		unsigned char bite[3];
		ssize_t got = vringh_iov_pull_user(&t.riov, bite, sizeof(bite));

		CHECK(got >= 0);
		if (got == 0)
			break;
		for (i = 0; i < got; i++)
			CHECK(bite[i] == (total + i) % HUGE_ELEM_LEN);
		total += got;
	}
	CHECK(total == HUGE_ELEMS * HUGE_ELEM_LEN);

	/* Complete it through complete_multi with one element. */
	{
		struct vring_used_elem used = {
			.id = cpu_to_vringh32(&t.vrh, head),
			.len = cpu_to_vringh32(&t.vrh, 0),
		};

		CHECK(vringh_complete_multi_user(&t.vrh, &used, 1) == 0);
	}
	CHECK(virtqueue_get_buf(t.vq, &len) == &t);
	CHECK(len == 0);
	st_teardown(&t);
}

/* Fill the ring to -ENOSPC, then complete all of it across the ring end. */
static void scenario_fill_and_wrap(void)
{
	static struct vring_used_elem used[RINGSIZE];
	static struct scatterlist sg[RINGSIZE];
	unsigned int len, i;
	u16 used_idx, head;
	struct st t;
	char *d;
	int err;

	st_setup(&t, true);
	d = guest_ptr(&t, OFF_DATA);

	/* Move the indices off zero so the batch below wraps the ring. */
	for (i = 0; i < 3; i++) {
		sg_init_one(&sg[0], d, 1);
		CHECK(virtqueue_add_outbuf(t.vq, sg, 1, d, GFP_KERNEL) == 0);
		CHECK(vringh_getdesc_user(&t.vrh, &t.riov, &t.wiov, rig_getrange, &head) == 1);
		CHECK(vringh_complete_user(&t.vrh, head, 0) == 0);
		CHECK(virtqueue_get_buf(t.vq, &len) == d);
	}

	for (i = 0; i < RINGSIZE; i++) {
		sg_init_one(&sg[i], d + i, 1);
		err = virtqueue_add_outbuf(t.vq, &sg[i], 1, d + i, GFP_KERNEL);
		CHECKF(err == 0, "add %u: %d", i, err);
	}
	sg_init_one(&sg[0], d, 1);
	CHECK(virtqueue_add_outbuf(t.vq, sg, 1, d, GFP_KERNEL) == -ENOSPC);

	for (i = 0; i < RINGSIZE; i++) {
		err = vringh_getdesc_user(&t.vrh, &t.riov, &t.wiov, rig_getrange, &head);
		CHECKF(err == 1, "getdesc %u: %d", i, err);
		used[i].id = cpu_to_vringh32(&t.vrh, head);
		used[i].len = cpu_to_vringh32(&t.vrh, 0);
	}
	CHECK(vringh_getdesc_user(&t.vrh, &t.riov, &t.wiov, rig_getrange, &head) == 0);

	used_idx = vringh16_to_cpu(&t.vrh, READ_ONCE(t.vrh.vring.used->idx));
	CHECK(used_idx % RINGSIZE != 0);
	CHECK(vringh_complete_multi_user(&t.vrh, used, RINGSIZE) == 0);
	for (i = 0; i < RINGSIZE; i++) {
		CHECK(virtqueue_get_buf(t.vq, &len) == d + i);
		CHECK(len == 0);
	}
	CHECK(virtqueue_get_buf(t.vq, &len) == NULL);
	st_teardown(&t);
}

/* Buffers in and out, a context pointer, and the kern accessors. */
static void scenario_ctx(void)
{
	struct scatterlist sg;
	unsigned int len;
	void *ctx = NULL;
	u16 head;
	struct st t;
	char *d;

	rig_shm_create(&t.shm, USER_MEM);
	memset(t.shm.guest, 0, USER_MEM);
	init_vdev(&t.vdev);
	t.vq = vring_new_virtqueue(0, RINGSIZE, ALIGN_RING, &t.vdev, true,
				   true, t.shm.guest, st_notify, st_callback,
				   "ctx vq");
	CHECK(t.vq);
	d = guest_ptr(&t, OFF_DATA);
	sg_init_one(&sg, d, 8);
	CHECK(virtqueue_add_inbuf_ctx(t.vq, &sg, 1, d, &st_notifies, GFP_KERNEL) == 0);

	/* The kern accessors read the same ring through the guest's view. */
	{
		struct kvec rk[2], wk[2];
		struct vringh_kiov riov, wiov;
		struct vringh vrh;
		struct vring vr;

		vring_init(&vr, RINGSIZE, t.shm.guest, ALIGN_RING);
		CHECK(vringh_init_kern(&vrh, opt.features, RINGSIZE, true,
				       vr.desc, vr.avail, vr.used) == 0);
		vringh_kiov_init(&riov, rk, 2);
		vringh_kiov_init(&wiov, wk, 2);
		CHECK(vringh_getdesc_kern(&vrh, &riov, &wiov, &head, GFP_KERNEL) == 1);
		CHECK(riov.used == 0 && wiov.used == 1);
		CHECK(wiov.iov[0].iov_base == d && wiov.iov[0].iov_len == 8);
		CHECK(vringh_kiov_length(&wiov) == 8);
		CHECK(vringh_iov_push_kern(&wiov, "0123", 4) == 4);
		vringh_kiov_advance(&wiov, 2);
		CHECK(vringh_iov_push_kern(&wiov, "xy", 2) == 2);
		CHECK(vringh_iov_push_kern(&wiov, "z", 1) == 0);
		CHECK(vringh_complete_kern(&vrh, head, 6) == 0);
		vringh_kiov_cleanup(&riov);
		vringh_kiov_cleanup(&wiov);
	}
	CHECK(virtqueue_get_buf_ctx(t.vq, &len, &ctx) == d);
	CHECK(len == 6);
	CHECK(ctx == &st_notifies);
	CHECK(memcmp(d, "0123\0\0xy", 8) == 0);
	vring_del_virtqueue(t.vq);
	rig_shm_destroy(&t.shm);
}

/* Notification suppression, seen from both ends. */
static void scenario_notify(void)
{
	bool event_idx = opt.features & (1ULL << VIRTIO_RING_F_EVENT_IDX);
	struct scatterlist sg;
	unsigned int len;
	u16 head;
	struct st t;
	char *d;

	st_setup(&t, true);
	d = guest_ptr(&t, OFF_DATA);
	sg_init_one(&sg, d, 1);
	/*
	 * Count from here: earlier scenarios may have notified (the kernel's
	 * virtio_ring kicks when an add with out sgs fails with -ENOSPC).
	 */
	st_notifies = st_callbacks = 0;

	/* The host wants kicks: the first add must be kicked. */
	CHECK(vringh_notify_enable_user(&t.vrh));
	CHECK(virtqueue_add_outbuf(t.vq, &sg, 1, d, GFP_KERNEL) == 0);
	CHECK(virtqueue_kick_prepare(t.vq));
	CHECK(virtqueue_notify(t.vq));
	CHECK(st_notifies == 1);

	/* Buffers are there: enabling again says "don't sleep". */
	CHECK(!vringh_notify_enable_user(&t.vrh));
	vringh_notify_disable_user(&t.vrh);

	/* Callbacks disabled: completing needs no interrupt. */
	virtqueue_disable_cb(t.vq);
	CHECK(vringh_getdesc_user(&t.vrh, &t.riov, &t.wiov, rig_getrange, &head) == 1);
	CHECK(vringh_complete_user(&t.vrh, head, 0) == 0);
	if (!event_idx)
		CHECK(vringh_need_notify_user(&t.vrh) == 0);
	else
		CHECK(vringh_need_notify_user(&t.vrh) >= 0);

	/* Enable callbacks with a buffer pending: enable_cb says so. */
	CHECK(!virtqueue_enable_cb(t.vq));
	CHECK(vring_interrupt(0, t.vq) == IRQ_HANDLED);
	CHECK(st_callbacks == 1);
	CHECK(virtqueue_get_buf(t.vq, &len) == d);
	CHECK(vring_interrupt(0, t.vq) == IRQ_NONE);

	/* Callbacks enabled and ring drained: the next completion interrupts. */
	CHECK(virtqueue_enable_cb(t.vq));
	CHECK(virtqueue_add_outbuf(t.vq, &sg, 1, d, GFP_KERNEL) == 0);
	virtqueue_kick(t.vq);
	CHECK(vringh_getdesc_user(&t.vrh, &t.riov, &t.wiov, rig_getrange, &head) == 1);
	CHECK(vringh_complete_user(&t.vrh, head, 0) == 0);
	CHECK(vringh_need_notify_user(&t.vrh) == 1);
	CHECK(virtqueue_get_buf(t.vq, &len) == d);

	/* Abandon: the host puts a buffer back and finds it again. */
	CHECK(virtqueue_add_outbuf(t.vq, &sg, 1, d, GFP_KERNEL) == 0);
	CHECK(vringh_getdesc_user(&t.vrh, &t.riov, &t.wiov, rig_getrange, &head) == 1);
	vringh_abandon_user(&t.vrh, 1);
	{
		u16 again;

		CHECK(vringh_getdesc_user(&t.vrh, &t.riov, &t.wiov, rig_getrange, &again) == 1);
		CHECK(again == head);
	}
	CHECK(vringh_complete_user(&t.vrh, head, 0) == 0);
	CHECK(virtqueue_get_buf(t.vq, &len) == d);

	/* A buffer never used by the host comes back through detach. */
	CHECK(virtqueue_add_outbuf(t.vq, &sg, 1, d, GFP_KERNEL) == 0);
	CHECK(virtqueue_detach_unused_buf(t.vq) == d);
	CHECK(virtqueue_detach_unused_buf(t.vq) == NULL);
	st_teardown(&t);
}

/*
 * Legal but unusual indirect layouts, which the driver never makes: the
 * test rewrites a 4-descriptor direct chain so that three of its entries
 * point at tables (while still chained with NEXT), one table chaining its
 * own entries out of order.  The host must still see bytes 0..27 in order.
 */
static void scenario_weird_indirect(void)
{
	struct vring_desc *table = NULL;
	struct scatterlist sg[4];
	unsigned int chain[4], len, i;
	struct vring vr;
	unsigned char buf[28], *d;
	u16 head, idx;
	struct st t;
	size_t got;

	st_setup(&t, false);
	d = guest_ptr(&t, OFF_DATA);
	for (i = 0; i < 28; i++)
		d[i] = i;

	sg_init_table(sg, 4);
	for (i = 0; i < 4; i++)
		sg_set_buf(&sg[i], d, 1);
	CHECK(virtqueue_add_outbuf(t.vq, sg, 4, &t, GFP_KERNEL) == 0);

	/* Find the chain through the spec's ring layout. */
	vring_init(&vr, RINGSIZE, t.shm.guest, ALIGN_RING);
	idx = vringh16_to_cpu(&t.vrh, vr.avail->idx);
	chain[0] = vringh16_to_cpu(&t.vrh, vr.avail->ring[(u16)(idx - 1) % RINGSIZE]);
	for (i = 1; i < 4; i++)
		chain[i] = vringh16_to_cpu(&t.vrh, vr.desc[chain[i - 1]].next);

	table = guest_ptr(&t, OFF_INDIRECT);
#define SETDESC(d_, addr_, len_, flags_, next_) do {			\
	(d_)->addr = cpu_to_vringh64(&t.vrh, (uintptr_t)(addr_));	\
	(d_)->len = cpu_to_vringh32(&t.vrh, (len_));			\
	(d_)->flags = cpu_to_vringh16(&t.vrh, (flags_));		\
	(d_)->next = cpu_to_vringh16(&t.vrh, (next_));			\
} while (0)
	/* chain[0] -> table A: two entries, bytes 0..1 and 2..3. */
	SETDESC(&table[0], d + 0, 2, VRING_DESC_F_NEXT, 1);
	SETDESC(&table[1], d + 2, 2, 0, 0);
	SETDESC(&vr.desc[chain[0]], &table[0], 2 * sizeof(*table),
		VRING_DESC_F_INDIRECT | VRING_DESC_F_NEXT, chain[1]);
	/* chain[1] -> table B: one entry, bytes 4..7. */
	SETDESC(&table[2], d + 4, 4, 0, 0);
	SETDESC(&vr.desc[chain[1]], &table[2], sizeof(*table),
		VRING_DESC_F_INDIRECT | VRING_DESC_F_NEXT, chain[2]);
	/* chain[2] is a plain descriptor: bytes 8..15. */
	SETDESC(&vr.desc[chain[2]], d + 8, 8, VRING_DESC_F_NEXT, chain[3]);
	/* chain[3] -> table C chained 0 -> 2 -> 1: bytes 16..19, 20..23, 24..27. */
	SETDESC(&table[3], d + 16, 4, VRING_DESC_F_NEXT, 2);
	SETDESC(&table[4], d + 24, 4, 0, 0);
	SETDESC(&table[5], d + 20, 4, VRING_DESC_F_NEXT, 1);
	SETDESC(&vr.desc[chain[3]], &table[3], 3 * sizeof(*table),
		VRING_DESC_F_INDIRECT, 0);
#undef SETDESC

	CHECK(vringh_getdesc_user(&t.vrh, &t.riov, &t.wiov, rig_getrange, &head) == 1);
	CHECK(head == chain[0]);
	CHECK(t.riov.used == (opt.slow_range ? 28 : 7));
	CHECK(t.wiov.used == 0);
	got = vringh_iov_pull_user(&t.riov, buf, sizeof(buf));
	CHECK(got == sizeof(buf));
	for (i = 0; i < sizeof(buf); i++)
		CHECK(buf[i] == i);

	CHECK(vringh_complete_user(&t.vrh, head, 0) == 0);
	CHECK(virtqueue_get_buf(t.vq, &len) == &t);
	st_teardown(&t);
}

static void run_single(void)
{
	scenario_basic();
	scenario_partial();
	scenario_huge();
	scenario_fill_and_wrap();
	scenario_ctx();
	scenario_notify();
	if (opt.features & (1ULL << VIRTIO_RING_F_INDIRECT_DESC))
		scenario_weird_indirect();
}

/*
 * The parallel test.
 */
struct par {
	struct rig_shm shm;
	int cpu_guest, cpu_host;
	struct rig_chan to_host, to_guest;
	int done;			/* guest finished: host may stop */
};

static struct par par;

static bool par_notify_host(struct virtqueue *vq __attribute__((unused)))
{
	if (!opt.fast_vringh)
		rig_chan_signal(&par.to_host);
	return true;
}

static void par_callback_guest(struct virtqueue *vq __attribute__((unused)))
{
}

/*
 * Four sg shapes over a 4-byte slot: 1+2+1, 1+3, 4, 1+1+1+1.  Even
 * transfers are out buffers (the guest wrote the transfer number), odd ones
 * in buffers the host fills with the last number it read.
 */
static unsigned int make_sgs(struct scatterlist *sg, struct scatterlist **sgs,
			     unsigned char *p, unsigned long xfer)
{
	static const unsigned char shapes[4][4] = {
		{ 1, 2, 1 }, { 1, 3 }, { 4 }, { 1, 1, 1, 1 },
	};
	static const unsigned char count[4] = { 3, 2, 1, 4 };
	const unsigned char *shape = shapes[xfer % 4];
	unsigned int n, off = 0;

	for (n = 0; n < count[xfer % 4]; n++) {
		sg_init_one(&sg[n], p + off, shape[n]);
		sgs[n] = &sg[n];
		off += shape[n];
	}
	return n;
}

static void guest_check(unsigned long xfer, u32 *slot, void *token,
			unsigned int len)
{
	u32 val;

	memcpy(&val, slot, sizeof(val));
	CHECKF(token == slot, "transfer %lu: token %p, expected %p", xfer,
	       token, (void *)slot);
	if (xfer % 2 == 0) {
		CHECKF(len == 0, "out transfer %lu: used len %u", xfer, len);
		CHECKF(val == (u32)xfer, "out transfer %lu: buffer holds %u",
		       xfer, val);
	} else if (opt.fast_vringh) {
		CHECKF(len == 0, "in transfer %lu: used len %u", xfer, len);
		CHECKF(val == (u32)-1, "in transfer %lu: buffer holds %u",
		       xfer, val);
	} else {
		CHECKF(len == 4, "in transfer %lu: used len %u", xfer, len);
		CHECKF(val == (u32)(xfer - 1), "in transfer %lu: holds %u, expected %lu",
		       xfer, val, xfer - 1);
	}
}

static void *guest_thread(void *arg __attribute__((unused)))
{
	char *mem = par.shm.guest;
	struct vring_desc *indirects = (void *)(mem + OFF_INDIRECT);
	u32 *slots = (void *)(mem + OFF_DATA);
	unsigned long added = 0, finished = 0;
	struct virtio_device vdev;
	struct virtqueue *vq;

	rig_pin_thread(par.cpu_guest);
	init_vdev(&vdev);
	vq = vring_new_virtqueue(0, RINGSIZE, ALIGN_RING, &vdev, true, false,
				 mem, par_notify_host, par_callback_guest,
				 "guest vq");
	CHECK(vq);
	__kfree_ignore_start = indirects;
	__kfree_ignore_end = mem + OFF_DATA;

	for (;;) {
		unsigned long reaped = 0;
		unsigned int len;
		void *token;

		/* Offer buffers until the ring is full or all are offered. */
		while (added < opt.xfers) {
			struct scatterlist sg[4], *sgs[4];
			u32 *slot = &slots[added % SLOTS];
			u32 val = added % 2 ? (u32)-1 : (u32)added;
			unsigned int nsg;
			int err;

			memcpy(slot, &val, sizeof(val));
			nsg = make_sgs(sg, sgs, (unsigned char *)slot, added);
			/* Its indirect table (if any) goes where the host can see it. */
			__kmalloc_fake = &indirects[(added % SLOTS) * 4];
			if (added % 2)
				err = virtqueue_add_sgs(vq, sgs, 0, nsg, slot, GFP_ATOMIC);
			else
				err = virtqueue_add_sgs(vq, sgs, nsg, 0, slot, GFP_ATOMIC);
			__kmalloc_fake = NULL;
			if (err == -ENOSPC)
				break;
			CHECKF(err == 0, "add_sgs: %d", err);
			added++;
			virtqueue_kick(vq);
		}

		while ((token = virtqueue_get_buf(vq, &len)) != NULL) {
			guest_check(finished, &slots[finished % SLOTS], token, len);
			finished++;
			reaped++;
		}
		CHECK(!virtqueue_is_broken(vq));
		if (finished == opt.xfers)
			break;
		if (reaped)
			continue;

		/* Buffers are out and none came back: sleep until some do. */
		if (!virtqueue_enable_cb_delayed(vq))
			continue;
		rig_chan_wait(&par.to_guest);
		virtqueue_disable_cb(vq);
	}

	/* Tell the host to stop; this last signal is not a kick. */
	vring_del_virtqueue(vq);
	__atomic_store_n(&par.done, 1, __ATOMIC_RELEASE);
	rig_chan_signal(&par.to_host);
	par.to_host.signalled--;
	return NULL;
}

/* --fast-vringh: take heads straight off the avail ring, complete unread. */
static int host_fast_get_head(struct vringh *vrh, u16 *head)
{
	u16 avail_idx, raw_head;
	__virtio16 raw;

	if (get_user(raw, &vrh->vring.avail->idx))
		return -EFAULT;
	avail_idx = vringh16_to_cpu(vrh, raw);
	if (avail_idx == vrh->last_avail_idx)
		return 0;
	virtio_rmb(vrh->weak_barriers);
	if (get_user(raw, &vrh->vring.avail->ring[vrh->last_avail_idx % vrh->vring.num]))
		return -EFAULT;
	raw_head = vringh16_to_cpu(vrh, raw);
	CHECKF(raw_head < vrh->vring.num, "guest offered head %u", raw_head);
	*head = raw_head;
	vrh->last_avail_idx++;
	return 1;
}

static void host_notify_guest(struct vringh *vrh)
{
	int err = vringh_need_notify_user(vrh);

	CHECKF(err >= 0, "vringh_need_notify_user: %d", err);
	if (err > 0)
		rig_chan_signal(&par.to_guest);
}

static void *host_thread(void *arg __attribute__((unused)))
{
	struct iovec riov_stack[2], wiov_stack[2];
	struct vringh_iov riov, wiov;
	struct vringh vrh;
	u32 last = 0;

	rig_pin_thread(par.cpu_host);
	init_host(&vrh, &par.shm);
	vringh_iov_init(&riov, riov_stack, ARRAY_SIZE(riov_stack));
	vringh_iov_init(&wiov, wiov_stack, ARRAY_SIZE(wiov_stack));

	for (;;) {
		unsigned int written = 0;
		u16 head;
		int err;

		if (opt.fast_vringh)
			err = host_fast_get_head(&vrh, &head);
		else
			err = vringh_getdesc_user(&vrh, &riov, &wiov,
						  rig_getrange, &head);
		CHECKF(err >= 0, "host getdesc: %d", err);

		if (err == 0) {
			host_notify_guest(&vrh);
			if (__atomic_load_n(&par.done, __ATOMIC_ACQUIRE))
				break;
			if (opt.fast_vringh)
				continue;	/* busy-poll, never sleep */
			if (!vringh_notify_enable_user(&vrh))
				continue;
			rig_chan_wait(&par.to_host);
			/* The guest's goodbye is not a kick: don't count it. */
			if (__atomic_load_n(&par.done, __ATOMIC_ACQUIRE))
				par.to_host.woken--;
			vringh_notify_disable_user(&vrh);
			continue;
		}

		if (!opt.fast_vringh) {
			if (riov.used) {
				CHECK(wiov.used == 0);
				CHECK(vringh_iov_pull_user(&riov, &last, 4) == 4);
			} else {
				CHECK(wiov.used > 0);
				CHECK(vringh_iov_push_user(&wiov, &last, 4) == 4);
				written = 4;
			}
		}
		CHECK(vringh_complete_user(&vrh, head, written) == 0);
	}
	vringh_iov_cleanup(&riov);
	vringh_iov_cleanup(&wiov);
	return NULL;
}

static void run_parallel(void)
{
	pthread_t guest, host;
	int ncpus, err;

	ncpus = rig_pick_two_cpus(&par.cpu_guest, &par.cpu_host);
	if (ncpus < 2)
		printf("Using CPU %d only (guest and host share it)\n", par.cpu_guest);
	else
		printf("Using CPUS %d and %d\n", par.cpu_guest, par.cpu_host);
	fflush(stdout);

	rig_shm_create(&par.shm, USER_MEM);
	rig_user_map(par.shm.guest, par.shm.host, USER_MEM, opt.slow_range);
	rig_chan_init(&par.to_host);
	rig_chan_init(&par.to_guest);

	err = pthread_create(&host, NULL, host_thread, NULL);
	if (!err)
		err = pthread_create(&guest, NULL, guest_thread, NULL);
	if (err) {
		errno = err;
		rig_die("pthread_create");
	}
	pthread_join(guest, NULL);
	pthread_join(host, NULL);

	printf("Guest: notified %lu, pinged %lu\n",
	       par.to_host.signalled, par.to_guest.woken);
	printf("Host: notified %lu, pinged %lu\n",
	       par.to_guest.signalled, par.to_host.woken);

	rig_chan_destroy(&par.to_host);
	rig_chan_destroy(&par.to_guest);
	rig_shm_destroy(&par.shm);
}

static void usage(FILE *f)
{
	fprintf(f,
"Usage: vringh_test [--indirect] [--eventidx] [--virtio-1] [--slow-range]\n"
"                   [--parallel [--fast-vringh] [--xfers=N]] [--version] [--help]\n"
"\n"
"Without --parallel, run single-threaded guest/host scenarios (silent on\n"
"success).  With --parallel, a guest and a host thread on two CPUs exchange\n"
"N buffers (default %lu) and print what notifications they needed.\n"
"\n"
"  --indirect     negotiate VIRTIO_RING_F_INDIRECT_DESC\n"
"  --eventidx     negotiate VIRTIO_RING_F_EVENT_IDX\n"
"  --virtio-1     negotiate VIRTIO_F_VERSION_1 (little-endian ring)\n"
"  --slow-range   the host's address ranges are one byte each\n"
"  --parallel     run the two-thread transfer test\n"
"  --fast-vringh  (--parallel) the guest never kicks; the host busy-polls and\n"
"                 completes buffers without reading their descriptors\n"
"  --xfers=N      (--parallel) number of buffers to transfer\n"
"  --version      print how this binary was built\n",
		DEFAULT_XFERS);
}

int main(int argc, char *argv[])
{
	enum { OPT_XFERS = 256, OPT_VERSION };
	static const struct option longopts[] = {
		{ "indirect", no_argument, NULL, 'i' },
		{ "eventidx", no_argument, NULL, 'e' },
		{ "virtio-1", no_argument, NULL, '1' },
		{ "slow-range", no_argument, NULL, 's' },
		{ "fast-vringh", no_argument, NULL, 'f' },
		{ "parallel", no_argument, NULL, 'p' },
		{ "xfers", required_argument, NULL, OPT_XFERS },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	bool xfers_given = false;
	int c;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			opt.features |= 1ULL << VIRTIO_RING_F_INDIRECT_DESC;
			break;
		case 'e':
			opt.features |= 1ULL << VIRTIO_RING_F_EVENT_IDX;
			break;
		case '1':
			opt.features |= 1ULL << VIRTIO_F_VERSION_1;
			break;
		case 's':
			opt.slow_range = true;
			break;
		case 'f':
			opt.fast_vringh = true;
			break;
		case 'p':
			opt.parallel = true;
			break;
		case OPT_XFERS:
			if (!rig_parse_ulong(optarg, 1, 1UL << 40, &opt.xfers)) {
				fprintf(stderr, "vringh_test: bad --xfers '%s'\n", optarg);
				usage(stderr);
				return 1;
			}
			xfers_given = true;
			break;
		case OPT_VERSION:
			rig_print_version("vringh_test");
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "vringh_test: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return 1;
	}
	if (!opt.parallel && (opt.fast_vringh || xfers_given)) {
		fprintf(stderr, "vringh_test: --fast-vringh and --xfers need --parallel\n");
		usage(stderr);
		return 1;
	}

	if (opt.parallel)
		run_parallel();
	else
		run_single();
	return 0;
}
