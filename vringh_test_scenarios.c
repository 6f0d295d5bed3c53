// SPDX-License-Identifier: GPL-2.0
/*
 * vringh_test's single-threaded scenarios: guest (virtio_ring) and host
 * (vringh) take turns on one ring in shared memory mapped twice, and every
 * step is checked.  See vringh_test.c for the options.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vringh_test.h"

static unsigned long st_notifies, st_callbacks;

/* The tree's own push where it has one (Linux 7.x removed it). */
#ifdef RIG_VRINGH_IOV_PUSH_KERN_ARGS
#define kiov_push(kiov, src, len)	vringh_iov_push_kern(kiov, src, len)
#else
#define kiov_push(kiov, src, len)	(ssize_t)rig_kiov_push(kiov, src, len)
#endif

static bool st_notify(struct virtqueue *vq __attribute__((unused)))
{
	st_notifies++;
	return true;
}

static void st_callback(struct virtqueue *vq __attribute__((unused)))
{
	st_callbacks++;
}

/* One scenario's guest and host: a queue on shared memory, a vringh. */
struct fixture {
	struct rig_shm shm;
	struct virtio_device vdev;
	struct rig_queue q;
	struct virtqueue *vq;		/* q.vq */
	struct vringh vrh;
	struct iovec riov_stack[4], wiov_stack[4];
	struct vringh_iov riov, wiov;
	struct rig_arena tables;		/* the guest's indirect tables */
};

static void *guest_ptr(struct fixture *t, size_t off)
{
	return (char *)t->shm.guest + off;
}

static void *host_ptr(struct fixture *t, size_t off)
{
	return (char *)t->shm.host + off;
}

static void fixture_setup(struct fixture *t, bool guest_indirect)
{
	u64 features;

	rig_shm_create(&t->shm, USER_MEM);
	memset(t->shm.guest, 0, USER_MEM);
	rig_user_map(t->shm.guest, t->shm.host, USER_MEM, opt.slow_range);

	/* Without @guest_indirect, indirect tables come only from the test. */
	features = opt.features;
	if (!guest_indirect)
		features &= ~(1ULL << VIRTIO_RING_F_INDIRECT_DESC);
	new_queue(&t->q, &t->vdev, features, t->shm.guest, false, st_notify,
		  st_callback, "guest vq");
	t->vq = t->q.vq;
	/* The guest's tables where the host can see them. */
	if (guest_indirect)
		guest_tables_arena(&t->tables, &t->shm);
	init_host(&t->vrh, &t->q, &t->shm);
	vringh_iov_init(&t->riov, t->riov_stack, ARRAY_SIZE(t->riov_stack));
	vringh_iov_init(&t->wiov, t->wiov_stack, ARRAY_SIZE(t->wiov_stack));
}

static void fixture_teardown(struct fixture *t)
{
	vringh_iov_cleanup(&t->riov);
	vringh_iov_cleanup(&t->wiov);
	rig_vringh_cleanup(&t->vrh, &t->q.ring);
	rig_queue_destroy(&t->q);
	guest_tables_arena(NULL, NULL);
	rig_shm_destroy(&t->shm);
}

/* Total bytes described by an iov, and a check it is a host address. */
static size_t iov_bytes(struct fixture *t, const struct vringh_iov *iov)
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
	struct fixture t;
	int err;

	fixture_setup(&t, true);

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
	err = virtqueue_add_sgs(t.vq, sgs, 1, 1, &t, GFP_KERNEL);
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

	fixture_teardown(&t);
}

/* Partial pulls and pushes across iovec boundaries. */
static void scenario_partial(void)
{
	struct scatterlist sg[3];
	unsigned int len, i;
	char buf[16];
	u16 head;
	struct fixture t;
	char *d;

	fixture_setup(&t, true);
	d = guest_ptr(&t, OFF_DATA);
	for (i = 0; i < 12; i++)
		d[i] = 'A' + i;
	sg_init_table(sg, 3);
	sg_set_buf(&sg[0], d, 3);
	sg_set_buf(&sg[1], d + 100, 0);
	sg_set_buf(&sg[2], d + 3, 9);
	CHECK(virtqueue_add_outbuf(t.vq, sg, 3, &t, GFP_KERNEL) == 0);

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
	fixture_teardown(&t);
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
	struct fixture t;
	int err;

	fixture_setup(&t, true);
	d = guest_ptr(&t, OFF_DATA);
	for (i = 0; i < HUGE_ELEM_LEN; i++)
		d[i] = i;
	sg_init_table(sg, HUGE_ELEMS);
	for (i = 0; i < HUGE_ELEMS; i++)
		sg_set_buf(&sg[i], d, HUGE_ELEM_LEN);

	/* One table of 256 descriptors: give it the whole indirect area. */
	err = virtqueue_add_outbuf(t.vq, sg, HUGE_ELEMS, &t, GFP_KERNEL);
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
	fixture_teardown(&t);
}

/* Fill the ring to -ENOSPC, then complete all of it across the ring end. */
static void scenario_fill_and_wrap(void)
{
	static struct vring_used_elem used[RING_SIZE];
	static struct scatterlist sg[RING_SIZE];
	unsigned int len, i;
	u16 used_idx, head;
	struct fixture t;
	char *d;
	int err;

	fixture_setup(&t, true);
	d = guest_ptr(&t, OFF_DATA);

	/* Move the indices off zero so the batch below wraps the ring. */
	for (i = 0; i < 3; i++) {
		sg_init_one(&sg[0], d, 1);
		CHECK(virtqueue_add_outbuf(t.vq, sg, 1, d, GFP_KERNEL) == 0);
		CHECK(vringh_getdesc_user(&t.vrh, &t.riov, &t.wiov, rig_getrange, &head) == 1);
		CHECK(vringh_complete_user(&t.vrh, head, 0) == 0);
		CHECK(virtqueue_get_buf(t.vq, &len) == d);
	}

	for (i = 0; i < RING_SIZE; i++) {
		sg_init_one(&sg[i], d + i, 1);
		err = virtqueue_add_outbuf(t.vq, &sg[i], 1, d + i, GFP_KERNEL);
		CHECKF(err == 0, "add %u: %d", i, err);
	}
	sg_init_one(&sg[0], d, 1);
	CHECK(virtqueue_add_outbuf(t.vq, sg, 1, d, GFP_KERNEL) == -ENOSPC);

	for (i = 0; i < RING_SIZE; i++) {
		err = vringh_getdesc_user(&t.vrh, &t.riov, &t.wiov, rig_getrange, &head);
		CHECKF(err == 1, "getdesc %u: %d", i, err);
		used[i].id = cpu_to_vringh32(&t.vrh, head);
		used[i].len = cpu_to_vringh32(&t.vrh, 0);
	}
	CHECK(vringh_getdesc_user(&t.vrh, &t.riov, &t.wiov, rig_getrange, &head) == 0);

	/* Packed: used_idx is the used offset, which must wrap too. */
	used_idx = opt.packed ? t.vrh.last_used_idx :
		vringh16_to_cpu(&t.vrh, READ_ONCE(t.vrh.vring.used->idx));
	CHECK(used_idx % RING_SIZE != 0);
	CHECK(vringh_complete_multi_user(&t.vrh, used, RING_SIZE) == 0);
	if (opt.packed)
		CHECK(t.vrh.last_used_idx == used_idx);
	for (i = 0; i < RING_SIZE; i++) {
		CHECK(virtqueue_get_buf(t.vq, &len) == d + i);
		CHECK(len == 0);
	}
	CHECK(virtqueue_get_buf(t.vq, &len) == NULL);
	fixture_teardown(&t);
}

/* Buffers in and out, a context pointer, and the kern accessors. */
static void scenario_ctx(void)
{
	struct scatterlist sg;
	unsigned int len;
	void *ctx = NULL;
	u16 head;
	struct fixture t;
	char *d;

	rig_shm_create(&t.shm, USER_MEM);
	memset(t.shm.guest, 0, USER_MEM);
	new_queue(&t.q, &t.vdev, opt.features, t.shm.guest, true, st_notify, st_callback,
		  "ctx vq");
	t.vq = t.q.vq;
	d = guest_ptr(&t, OFF_DATA);
	sg_init_one(&sg, d, 8);
	CHECK(virtqueue_add_inbuf_ctx(t.vq, &sg, 1, d, &st_notifies, GFP_KERNEL) == 0);

	/* The kern accessors read the same ring through the guest's view. */
	{
		struct kvec rk[2], wk[2];
		struct vringh_kiov riov, wiov;
		struct vringh vrh;

		CHECK(rig_vringh_init_kern(&vrh, opt.features, &t.q.ring) == 0);
		vringh_kiov_init(&riov, rk, 2);
		vringh_kiov_init(&wiov, wk, 2);
		CHECK(vringh_getdesc_kern(&vrh, &riov, &wiov, &head, GFP_KERNEL) == 1);
		CHECK(riov.used == 0 && wiov.used == 1);
		CHECK(wiov.iov[0].iov_base == d && wiov.iov[0].iov_len == 8);
		CHECK(vringh_kiov_length(&wiov) == 8);
		CHECK(kiov_push(&wiov, "0123", 4) == 4);
		vringh_kiov_advance(&wiov, 2);
		CHECK(kiov_push(&wiov, "xy", 2) == 2);
		CHECK(kiov_push(&wiov, "z", 1) == 0);
		CHECK(vringh_complete_kern(&vrh, head, 6) == 0);
		vringh_kiov_cleanup(&riov);
		vringh_kiov_cleanup(&wiov);
		rig_vringh_cleanup(&vrh, &t.q.ring);
	}
	CHECK(virtqueue_get_buf_ctx(t.vq, &len, &ctx) == d);
	CHECK(len == 6);
	CHECK(ctx == &st_notifies);
	CHECK(memcmp(d, "0123\0\0xy", 8) == 0);
	rig_queue_destroy(&t.q);
	rig_shm_destroy(&t.shm);
}

/* Notification suppression, seen from both ends. */
static void scenario_notify(void)
{
	bool event_idx = opt.features & (1ULL << VIRTIO_RING_F_EVENT_IDX);
	struct scatterlist sg;
	unsigned int len;
	u16 head;
	struct fixture t;
	char *d;

	fixture_setup(&t, true);
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
	rig_vringh_abandon(&t.vrh, 1);
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
	fixture_teardown(&t);
}

/*
 * A legal but unusual indirect layout, which the driver never makes: the
 * test rewrites a 4-descriptor direct chain so that three plain entries
 * are followed by one pointing at a table (2.7.5.3.2: the device MUST
 * handle that), the table chaining its own entries out of order.  The host
 * must still see bytes 0..27 in order.  (An indirect descriptor that still
 * chains on with NEXT is not legal, 2.7.5.3.1: tests/spec.c.)
 */
static void scenario_weird_indirect(void)
{
	struct vring_desc *table = NULL;
	struct scatterlist sg[4];
	unsigned int chain[4], len, i;
	struct vring vr;
	unsigned char buf[28], *d;
	u16 head, idx;
	struct fixture t;
	size_t got;

	fixture_setup(&t, false);
	d = guest_ptr(&t, OFF_DATA);
	for (i = 0; i < 28; i++)
		d[i] = i;

	sg_init_table(sg, 4);
	for (i = 0; i < 4; i++)
		sg_set_buf(&sg[i], d, 1);
	CHECK(virtqueue_add_outbuf(t.vq, sg, 4, &t, GFP_KERNEL) == 0);

	/* Find the chain through the spec's ring layout. */
	vr = t.q.ring.vring;
	idx = vringh16_to_cpu(&t.vrh, vr.avail->idx);
	chain[0] = vringh16_to_cpu(&t.vrh, vr.avail->ring[(u16)(idx - 1) % RING_SIZE]);
	for (i = 1; i < 4; i++)
		chain[i] = vringh16_to_cpu(&t.vrh, vr.desc[chain[i - 1]].next);

	table = guest_ptr(&t, OFF_INDIRECT);
#define SETDESC(d_, addr_, len_, flags_, next_) do {			\
	(d_)->addr = cpu_to_vringh64(&t.vrh, (uintptr_t)(addr_));	\
	(d_)->len = cpu_to_vringh32(&t.vrh, (len_));			\
	(d_)->flags = cpu_to_vringh16(&t.vrh, (flags_));		\
	(d_)->next = cpu_to_vringh16(&t.vrh, (next_));			\
} while (0)
	/* chain[0..2] are plain descriptors: bytes 0..3, 4..7, 8..15. */
	SETDESC(&vr.desc[chain[0]], d + 0, 4, VRING_DESC_F_NEXT, chain[1]);
	SETDESC(&vr.desc[chain[1]], d + 4, 4, VRING_DESC_F_NEXT, chain[2]);
	SETDESC(&vr.desc[chain[2]], d + 8, 8, VRING_DESC_F_NEXT, chain[3]);
	/*
	 * chain[3] -> a table chained 0 -> 2 -> 1: bytes 16..19, 20..23,
	 * 24..27.  In order its entries must run 0, 1, 2 (2.7.5.3.1).
	 */
	if (opt.in_order) {
		SETDESC(&table[0], d + 16, 4, VRING_DESC_F_NEXT, 1);
		SETDESC(&table[1], d + 20, 4, VRING_DESC_F_NEXT, 2);
		SETDESC(&table[2], d + 24, 4, 0, 0);
	} else {
		SETDESC(&table[0], d + 16, 4, VRING_DESC_F_NEXT, 2);
		SETDESC(&table[1], d + 24, 4, 0, 0);
		SETDESC(&table[2], d + 20, 4, VRING_DESC_F_NEXT, 1);
	}
	SETDESC(&vr.desc[chain[3]], &table[0], 3 * sizeof(*table),
		VRING_DESC_F_INDIRECT, 0);
#undef SETDESC

	CHECK(vringh_getdesc_user(&t.vrh, &t.riov, &t.wiov, rig_getrange, &head) == 1);
	CHECK(head == chain[0]);
	CHECK(t.riov.used == (opt.slow_range ? 28 : 6));
	CHECK(t.wiov.used == 0);
	got = vringh_iov_pull_user(&t.riov, buf, sizeof(buf));
	CHECK(got == sizeof(buf));
	for (i = 0; i < sizeof(buf); i++)
		CHECK(buf[i] == i);

	CHECK(vringh_complete_user(&t.vrh, head, 0) == 0);
	CHECK(virtqueue_get_buf(t.vq, &len) == &t);
	fixture_teardown(&t);
}

#if HAVE_PACKED_HOST
/*
 * Packed: eight in buffers of 1 to 4 one-byte parts (direct lists without
 * --indirect) are taken and completed out of order, one at a time or in
 * batches through complete_multi, round after round over several laps.
 * Each used descriptor goes at the device's used offset, which then skips
 * that buffer's descriptors: the driver must get every token back in
 * completion order, with its length and bytes.  Abandon gives back the
 * last three taken, which come again in the same order.
 */
/* Take an in buffer of @parts bytes and fill it with @val: its id. */
static u16 packed_take(struct fixture *t, unsigned int parts, unsigned char val)
{
	unsigned char bytes[4];
	u16 head;

	CHECK(vringh_getdesc_user(&t->vrh, &t->riov, &t->wiov, rig_getrange,
				  &head) == 1);
	CHECK(t->riov.used == 0 && t->wiov.used == parts * iovs_for(1));
	memset(bytes, val, sizeof(bytes));
	CHECK(vringh_iov_push_user(&t->wiov, bytes, sizeof(bytes)) == parts);
	return head;
}

static void scenario_packed_order(void)
{
	static const unsigned char orders[4][8] = {
		{ 7, 6, 5, 4, 3, 2, 1, 0 }, { 1, 0, 3, 2, 5, 4, 7, 6 },
		{ 2, 7, 0, 5, 3, 1, 6, 4 }, { 0, 1, 2, 3, 4, 5, 6, 7 },
	};
	struct vring_used_elem used[8];
	struct scatterlist sg[4];
	unsigned int round, k, i, j, len;
	unsigned char *d;
	u16 ids[8], head;
	struct fixture t;

	fixture_setup(&t, true);
	d = guest_ptr(&t, OFF_DATA);
	for (round = 0; round < 3 * RING_SIZE / 8; round++) {
		const unsigned char *order = orders[round % 4];

		for (k = 0; k < 8; k++) {
			unsigned int nsg = k % 4 + 1;

			memset(d + k * 4, 0, 4);
			sg_init_table(sg, nsg);
			for (i = 0; i < nsg; i++)
				sg_set_buf(&sg[i], d + k * 4 + i, 1);
			CHECK(virtqueue_add_inbuf(t.vq, sg, nsg, d + k * 4,
						  GFP_KERNEL) == 0);
		}
		for (k = 0; k < 8; k++)
			ids[k] = packed_take(&t, k % 4 + 1, round * 8 + k);
		/* Every other round, give back the last three: they come again. */
		if (round % 2) {
			rig_vringh_abandon(&t.vrh, 3);
			for (k = 5; k < 8; k++)
				CHECK(packed_take(&t, k % 4 + 1, round * 8 + k) == ids[k]);
		}
		CHECK(vringh_getdesc_user(&t.vrh, &t.riov, &t.wiov,
					  rig_getrange, &head) == 0);

		for (i = 0; i < 8; i++) {
			used[i].id = cpu_to_vringh32(&t.vrh, ids[order[i]]);
			used[i].len = cpu_to_vringh32(&t.vrh, order[i] % 4 + 1);
		}
		if (round % 3 == 0) {
			for (i = 0; i < 8; i++)
				CHECK(vringh_complete_user(&t.vrh, ids[order[i]],
							   order[i] % 4 + 1) == 0);
		} else {
			CHECK(vringh_complete_multi_user(&t.vrh, used, 3) == 0);
			CHECK(vringh_complete_multi_user(&t.vrh, used + 3, 4) == 0);
			CHECK(vringh_complete_multi_user(&t.vrh, used + 7, 1) == 0);
		}

		for (i = 0; i < 8; i++) {
			k = order[i];
			CHECK(virtqueue_get_buf(t.vq, &len) == d + k * 4);
			CHECK(len == k % 4 + 1);
			for (j = 0; j < 4; j++)
				CHECK(d[k * 4 + j] ==
				      (j < len ? (unsigned char)(round * 8 + k) : 0));
		}
		CHECK(virtqueue_get_buf(t.vq, &len) == NULL);
	}
	fixture_teardown(&t);
}

/* @n one-byte out buffers at @d, each added, taken, completed and reaped. */
static void pass_singles(struct fixture *t, char *d, unsigned int n)
{
	struct scatterlist sg;
	unsigned int i, len;
	u16 head;

	for (i = 0; i < n; i++) {
		sg_init_one(&sg, d, 1);
		CHECK(virtqueue_add_outbuf(t->vq, &sg, 1, d, GFP_KERNEL) == 0);
		CHECK(vringh_getdesc_user(&t->vrh, &t->riov, &t->wiov, rig_getrange, &head) == 1);
		CHECK(vringh_complete_user(&t->vrh, head, 0) == 0);
		CHECK(virtqueue_get_buf(t->vq, &len) == d);
	}
}

/*
 * Packed: direct lists that cross the end of the ring, so that their
 * descriptors carry two laps' AVAIL/USED bits, and used offsets that wrap
 * inside a buffer's skip.
 */
static void scenario_packed_cross_end(void)
{
	struct scatterlist sg[4];
	unsigned int i, len;
	char buf[4], *d;
	u16 head;
	struct fixture t;

	fixture_setup(&t, false);
	d = guest_ptr(&t, OFF_DATA);
	memcpy(d, "abcd", 4);

	/* Single descriptors up to two before the end of the ring. */
	pass_singles(&t, d, RING_SIZE - 2);
	CHECK(t.vrh.last_avail_idx == RING_SIZE - 2 && t.vrh.avail_wrap_counter);

	/* Four descriptors: two in this lap, two in the next. */
	sg_init_table(sg, 4);
	for (i = 0; i < 4; i++)
		sg_set_buf(&sg[i], d + i, 1);
	CHECK(virtqueue_add_outbuf(t.vq, sg, 4, d + 1, GFP_KERNEL) == 0);
	CHECK(vringh_getdesc_user(&t.vrh, &t.riov, &t.wiov, rig_getrange, &head) == 1);
	CHECK(t.riov.used == 4 && t.wiov.used == 0);
	CHECK(vringh_iov_pull_user(&t.riov, buf, sizeof(buf)) == 4);
	CHECK(memcmp(buf, "abcd", 4) == 0);
	CHECK(t.vrh.last_avail_idx == 2 && !t.vrh.avail_wrap_counter);
	CHECK(vringh_complete_user(&t.vrh, head, 0) == 0);
	CHECK(t.vrh.last_used_idx == 2 && !t.vrh.used_wrap_counter);
	CHECK(virtqueue_get_buf(t.vq, &len) == d + 1);

	/* Across the end of the second lap: an in list of three. */
	pass_singles(&t, d, RING_SIZE - 3);
	CHECK(t.vrh.last_avail_idx == RING_SIZE - 1 && !t.vrh.avail_wrap_counter);
	sg_init_table(sg, 3);
	for (i = 0; i < 3; i++)
		sg_set_buf(&sg[i], d + 8 + i, 1);
	CHECK(virtqueue_add_inbuf(t.vq, sg, 3, d + 8, GFP_KERNEL) == 0);
	CHECK(vringh_getdesc_user(&t.vrh, &t.riov, &t.wiov, rig_getrange, &head) == 1);
	CHECK(t.riov.used == 0 && t.wiov.used == 3);
	CHECK(vringh_iov_push_user(&t.wiov, "xyz", 3) == 3);
	CHECK(t.vrh.last_avail_idx == 2 && t.vrh.avail_wrap_counter);
	CHECK(vringh_complete_user(&t.vrh, head, 3) == 0);
	CHECK(virtqueue_get_buf(t.vq, &len) == d + 8);
	CHECK(len == 3 && memcmp(d + 8, "xyz", 3) == 0);
	fixture_teardown(&t);
}

/*
 * Packed: legal lists the driver never writes.  Only a list's last
 * descriptor carries the buffer id (2.8.6): here the others hold junk.
 * WRITE on an INDIRECT descriptor is reserved and ignored (2.8.7), and so
 * are the ids inside a table; a table may hold empty entries.  (Any flag
 * but WRITE inside a table breaks 2.8.19: tests/hostile_host.c.)  The
 * test rewrites what the driver wrote, keeping each list's length, so the
 * driver's own bookkeeping still holds.
 */
static void scenario_packed_hand(void)
{
	struct vring_packed_desc *table;
	struct vring_packed vr;
	struct scatterlist sg[3];
	unsigned char buf[16], *d;
	unsigned int i, len;
	u16 head, flags;
	struct fixture t;

	fixture_setup(&t, false);
	vr = t.q.ring.vring_packed;
	d = guest_ptr(&t, OFF_DATA);
	for (i = 0; i < 32; i++)
		d[i] = i;

	/* Three descriptors at 0, 1 and 2: junk ids in the first two. */
	sg_init_table(sg, 3);
	for (i = 0; i < 3; i++)
		sg_set_buf(&sg[i], d + 4 * i, 4);
	CHECK(virtqueue_add_outbuf(t.vq, sg, 3, &t, GFP_KERNEL) == 0);
	vr.desc[0].id = cpu_to_le16(0xffff);
	vr.desc[1].id = cpu_to_le16(RING_SIZE + 7);
	CHECK(vringh_getdesc_user(&t.vrh, &t.riov, &t.wiov, rig_getrange, &head) == 1);
	CHECK(head == le16_to_cpu(vr.desc[2].id));
	CHECK(vringh_iov_pull_user(&t.riov, buf, sizeof(buf)) == 12);
	for (i = 0; i < 12; i++)
		CHECK(buf[i] == i);
	CHECK(vringh_complete_user(&t.vrh, head, 0) == 0);
	CHECK(virtqueue_get_buf(t.vq, &len) == &t);

	/*
	 * A one-descriptor buffer (at 3) made indirect, WRITE set on it: a
	 * table of bytes 12..15, an empty entry, 16..19 and 8
	 * device-writable bytes.  Only with --indirect: without
	 * VIRTIO_RING_F_INDIRECT_DESC a table is refused (2.8.19).
	 */
	if (!(opt.features & (1ULL << VIRTIO_RING_F_INDIRECT_DESC))) {
		fixture_teardown(&t);
		return;
	}
	sg_init_one(&sg[0], d, 1);
	CHECK(virtqueue_add_outbuf(t.vq, sg, 1, d, GFP_KERNEL) == 0);
	table = guest_ptr(&t, OFF_INDIRECT);
#define SETDESC(d_, addr_, len_, flags_) do {				\
	(d_)->addr = cpu_to_le64((uintptr_t)(addr_));			\
	(d_)->len = cpu_to_le32(len_);					\
	(d_)->id = cpu_to_le16(0x5a5a);					\
	(d_)->flags = cpu_to_le16(flags_);				\
} while (0)
	SETDESC(&table[0], d + 12, 4, 0);
	SETDESC(&table[1], d + 30, 0, 0);
	SETDESC(&table[2], d + 16, 4, 0);
	SETDESC(&table[3], d + 20, 8, VRING_DESC_F_WRITE);
#undef SETDESC
	flags = le16_to_cpu(vr.desc[3].flags);
	vr.desc[3].addr = cpu_to_le64((uintptr_t)table);
	vr.desc[3].len = cpu_to_le32(4 * sizeof(*table));
	vr.desc[3].flags = cpu_to_le16(flags | VRING_DESC_F_INDIRECT |
				       VRING_DESC_F_WRITE);
	CHECK(vringh_getdesc_user(&t.vrh, &t.riov, &t.wiov, rig_getrange, &head) == 1);
	CHECK(head == le16_to_cpu(vr.desc[3].id));
	CHECK(iov_bytes(&t, &t.riov) == 8 && iov_bytes(&t, &t.wiov) == 8);
	CHECK(vringh_iov_pull_user(&t.riov, buf, sizeof(buf)) == 8);
	for (i = 0; i < 8; i++)
		CHECK(buf[i] == 12 + i);
	CHECK(vringh_iov_push_user(&t.wiov, "01234567", 8) == 8);
	CHECK(memcmp(d + 20, "01234567", 8) == 0);
	/* The driver gave no writable bytes: it takes no length. */
	CHECK(vringh_complete_user(&t.vrh, head, 0) == 0);
	CHECK(virtqueue_get_buf(t.vq, &len) == d);
	CHECK(len == 0);
	fixture_teardown(&t);
}

static void run_single_packed(void)
{
	/* It uses buffers out of order: in order, a broken device. */
	if (!opt.in_order)
		scenario_packed_order();
	scenario_packed_cross_end();
	scenario_packed_hand();
}
#else
static void run_single_packed(void)
{
}
#endif

/*
 * In order (--in-order): rounds of 1 to IO_MAX buffers of several shapes
 * (out, in, both; one or two parts each way, so direct chains that cross
 * the end of the table, or indirect tables with --indirect), over a dozen
 * laps of the ring.  The host checks every byte it reads, fills every
 * writable byte, and returns the buffers in batches of 1 to 4 with one used
 * entry each (now and then a batch of one through vringh_complete_user()),
 * the guest reaping some between batches, so that get_buf is often in the
 * middle of a batch when the next one comes.  Every buffer must come back
 * in order: a batch's last with the length the host gave (one byte short of
 * its writable length, when it has any), every other with its whole
 * writable length (2.7.9, 2.8.8), and each holding the host's bytes.
 */
#define IO_MAX		12
#define IO_ROUNDS	200

struct io_buf {
	unsigned char *data;	/* guest view: out bytes, then in bytes */
	unsigned long n;	/* its number: what its bytes are made of */
	unsigned int out, in;	/* bytes each way */
	unsigned int want_len;	/* the used length get_buf must give */
	u16 head;
};

static unsigned char io_out_byte(unsigned long n, unsigned int j)
{
	return n * 7 + j;
}

static unsigned char io_in_byte(unsigned long n, unsigned int j)
{
	return (n * 13 + j) ^ 0xa5;
}

static void io_add(struct fixture *t, struct io_buf *b, unsigned long n)
{
	struct scatterlist sg[4], *sgs[2];
	unsigned int nout = n % 3, nin = n / 3 % 3, parts, i, j, len;
	unsigned char *p;
	int err;

	if (!nout && !nin)
		nin = 1;
	nout = min(nout, 2U);
	nin = min(nin, 2U);
	b->n = n;
	b->data = p = guest_ptr(t, OFF_DATA + (n % SLOTS) * 16);
	b->out = b->in = 0;
	parts = nout + nin;
	sg_init_table(sg, parts);
	for (i = 0; i < parts; i++) {
		len = 1 + (n + i) % 4;
		sg_set_buf(&sg[i], p, len);
		if (i < nout) {
			for (j = 0; j < len; j++)
				p[j] = io_out_byte(n, b->out + j);
			b->out += len;
		} else {
			memset(p, 0, len);
			b->in += len;
		}
		p += len;
	}
	if (nout)
		sg_mark_end(&sg[nout - 1]);
	sgs[0] = sg;
	sgs[1] = sg + nout;
	err = virtqueue_add_sgs(t->vq, nout ? sgs : sgs + 1, nout ? 1 : 0,
				nin ? 1 : 0, b, GFP_KERNEL);
	CHECKF(err == 0, "in order: adding buffer %lu: %d", n, err);
}

/* The host takes @b: checks what it reads, fills what it may write. */
static void io_take(struct fixture *t, struct io_buf *b)
{
	unsigned char buf[16];
	unsigned int j;
	u16 head;
	int err;

	err = vringh_getdesc_user(&t->vrh, &t->riov, &t->wiov, rig_getrange,
				  &head);
	CHECKF(err == 1, "in order: getdesc for buffer %lu: %d", b->n, err);
	CHECK(iov_bytes(t, &t->riov) == b->out);
	CHECK(iov_bytes(t, &t->wiov) == b->in);
	CHECK(vringh_iov_pull_user(&t->riov, buf, sizeof(buf)) == b->out);
	for (j = 0; j < b->out; j++)
		CHECKF(buf[j] == io_out_byte(b->n, j),
		       "in order: buffer %lu byte %u", b->n, j);
	for (j = 0; j < b->in; j++)
		buf[j] = io_in_byte(b->n, j);
	CHECK(vringh_iov_push_user(&t->wiov, buf, b->in) == b->in);
	b->head = head;
}

/* The guest reaps the next buffer, which must be @b, intact. */
static void io_reap(struct fixture *t, struct io_buf *b)
{
	unsigned int len = ~0U, j;
	void *token = virtqueue_get_buf(t->vq, &len);

	CHECKF(token == b, "in order: buffer %lu came back as %p, expected %p",
	       b->n, token, (void *)b);
	CHECKF(len == b->want_len, "in order: buffer %lu used len %u, expected %u",
	       b->n, len, b->want_len);
	for (j = 0; j < b->out; j++)
		CHECK(b->data[j] == io_out_byte(b->n, j));
	for (j = 0; j < b->in; j++)
		CHECKF(b->data[b->out + j] == io_in_byte(b->n, j),
		       "in order: buffer %lu in byte %u", b->n, j);
}

static void scenario_in_order_batches(void)
{
	static struct io_buf bufs[IO_MAX];
	unsigned int round, k, taken, done, reaped, size;
	unsigned long n = 0;
	struct fixture t;
	u16 head;

	fixture_setup(&t, true);
	for (round = 0; round < IO_ROUNDS; round++) {
		k = 1 + round * 5 % IO_MAX;
		for (taken = 0; taken < k; taken++)
			io_add(&t, &bufs[taken], n++);
		virtqueue_kick(t.vq);
		for (taken = 0; taken < k; taken++)
			io_take(&t, &bufs[taken]);
		CHECK(vringh_getdesc_user(&t.vrh, &t.riov, &t.wiov,
					  rig_getrange, &head) == 0);

		for (done = reaped = 0; done < k; done += size) {
			struct io_buf *last;
			unsigned int i;

			size = min(1 + (round + done) % 4, k - done);
			last = &bufs[done + size - 1];
			for (i = done; i < done + size; i++)
				bufs[i].want_len = bufs[i].in;
			if (last->in)
				last->want_len--;
			if (size == 1 && round % 3 == 0)
				CHECK(vringh_complete_user(&t.vrh, last->head,
							   last->want_len) == 0);
			else
				host_complete_batch(&t.vrh, last->head,
						    last->want_len, size);
			/* Leave half of this batch: get_buf stops mid-batch. */
			while (reaped < done + size / 2)
				io_reap(&t, &bufs[reaped++]);
		}
		while (reaped < k)
			io_reap(&t, &bufs[reaped++]);
		CHECK(virtqueue_get_buf(t.vq, &size) == NULL);
		CHECK(!virtqueue_is_broken(t.vq));
	}
	fixture_teardown(&t);
}

/*
 * In order, the driver may ask to hear about a used position in the middle
 * of a batch: eight buffers out, the driver asks (enable_cb_delayed) for a
 * notification once 3/4 of them are used, i.e. at the 6th used position
 * (split: used_event 6; packed: the descriptor at offset 6, each buffer
 * one descriptor).  A batch of four passes no wanted position; the next
 * batch of four jumps from 4 to 8, over 6: need_notify must say yes.
 * Without EVENT_IDX every completion with callbacks on must notify.
 */
static void scenario_in_order_notify(void)
{
	bool event_idx = opt.features & (1ULL << VIRTIO_RING_F_EVENT_IDX);
	struct scatterlist sg;
	unsigned int len, i;
	u16 heads[8];
	struct fixture t;
	char *d;

	fixture_setup(&t, true);
	d = guest_ptr(&t, OFF_DATA);
	for (i = 0; i < 8; i++) {
		sg_init_one(&sg, d + i, 1);
		CHECK(virtqueue_add_inbuf(t.vq, &sg, 1, d + i, GFP_KERNEL) == 0);
	}
	virtqueue_kick(t.vq);
	for (i = 0; i < 8; i++) {
		CHECK(vringh_getdesc_user(&t.vrh, &t.riov, &t.wiov, rig_getrange,
					  &heads[i]) == 1);
		CHECK(vringh_iov_push_user(&t.wiov, "N", 1) == 1);
	}
	virtqueue_disable_cb(t.vq);
	/* Nothing used yet: enable_cb_delayed says "sleep". */
	CHECK(virtqueue_enable_cb_delayed(t.vq));

	host_complete_batch(&t.vrh, heads[3], 1, 4);
	CHECK(vringh_need_notify_user(&t.vrh) == !event_idx);
	host_complete_batch(&t.vrh, heads[7], 1, 4);
	CHECK(vringh_need_notify_user(&t.vrh) == 1);

	for (i = 0; i < 8; i++) {
		CHECK(virtqueue_get_buf(t.vq, &len) == d + i);
		CHECK(len == 1 && d[i] == 'N');
	}
	CHECK(virtqueue_get_buf(t.vq, &len) == NULL);

	/*
	 * Callbacks off: with EVENT_IDX the event is a lap behind and no
	 * batch reaches it; without, the flags say no.
	 */
	virtqueue_disable_cb(t.vq);
	for (i = 0; i < 4; i++) {
		sg_init_one(&sg, d + i, 1);
		CHECK(virtqueue_add_inbuf(t.vq, &sg, 1, d + i, GFP_KERNEL) == 0);
		CHECK(vringh_getdesc_user(&t.vrh, &t.riov, &t.wiov, rig_getrange,
					  &heads[i]) == 1);
		CHECK(vringh_iov_push_user(&t.wiov, "M", 1) == 1);
	}
	host_complete_batch(&t.vrh, heads[3], 1, 4);
	CHECK(vringh_need_notify_user(&t.vrh) == 0);
	for (i = 0; i < 4; i++) {
		CHECK(virtqueue_get_buf(t.vq, &len) == d + i);
		CHECK(len == 1 && d[i] == 'M');
	}
	fixture_teardown(&t);
}

void run_single(void)
{
	scenario_basic();
	scenario_partial();
	scenario_huge();
	scenario_fill_and_wrap();
	scenario_ctx();
	scenario_notify();
	if (opt.in_order) {
		scenario_in_order_batches();
		scenario_in_order_notify();
	}
	if (opt.packed)
		run_single_packed();
	else if (opt.features & (1ULL << VIRTIO_RING_F_INDIRECT_DESC))
		scenario_weird_indirect();
}

