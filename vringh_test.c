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
 * With --packed both run on a packed ring (virtio 2.8) instead of a split
 * one: the same scenarios where they make sense, and packed ones (lists
 * that cross the ring end, out-of-order completion, hand-made lists).
 *
 * With --in-order both sides negotiate VIRTIO_F_IN_ORDER: the scenarios
 * that make sense in order, in-order ones (batches returned with one used
 * entry, notifications asked for in the middle of a batch), and with
 * --parallel a host that returns what it took in batches, one used entry
 * each, whenever it finds the ring empty or holds N (--in-order=N).
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
	bool packed;
	bool in_order;
	unsigned long batch;		/* --in-order=N: most per used entry */
	unsigned long xfers;
} opt = { .xfers = DEFAULT_XFERS, .batch = RINGSIZE };

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

/*
 * Packed rings (--packed).  The rig's driver puts a packed queue on memory
 * we give it (vring_new_virtqueue_packed(), a rig extension): the start of
 * the shared memory, as for a split ring, which the host sees through its
 * own mapping.  A kernel tree's driver has no such call: its
 * vring_create_virtqueue() allocates the ring itself (VIRTIO_F_RING_PACKED
 * in the features), and the host finds the parts with
 * virtqueue_get_desc_addr(), _avail_addr() (the driver event suppression
 * structure) and _used_addr() (the device's).  That memory lies outside
 * the shared memory, so the host's "user" window is widened to take it in;
 * buffers and indirect tables are in the shared memory as always, and
 * rig_getrange() still translates every guest address the ring holds.
 *
 * Packed rings exist only in virtio 1.x: --packed implies --virtio-1.
 * The kernel's vringh has no packed ring: with it, --packed is a SKIP.
 */
#ifdef vringh_init_packed_user
#define HAVE_PACKED_HOST	1
#else
#define HAVE_PACKED_HOST	0
#endif

/* A queue of RINGSIZE on ring memory @mem (guest view), split or packed. */
static struct virtqueue *new_vq(struct virtio_device *vdev, void *mem,
				bool ctx, bool (*notify)(struct virtqueue *),
				void (*callback)(struct virtqueue *),
				const char *name)
{
	if (!opt.packed)
		return vring_new_virtqueue(0, RINGSIZE, ALIGN_RING, vdev, true,
					   ctx, mem, notify, callback, name);
#ifdef vring_new_virtqueue_packed
	{
		struct vring_packed vr;

		vring_packed_init(&vr, RINGSIZE, mem);
		return vring_new_virtqueue_packed(0, RINGSIZE, vdev, true, ctx,
						  vr.desc, vr.driver, vr.device,
						  notify, callback, name);
	}
#else
	(void)mem;
	return vring_create_virtqueue(0, RINGSIZE, ALIGN_RING, vdev, true,
				      false, ctx, notify, callback, name);
#endif
}

/*
 * In order (--in-order): the rig's vringh returns a batch of buffers with
 * one used entry (vringh_complete_batch_user(), not in Linux 6.12).  The
 * kernel's vringh has none, and the kernel's virtio_ring drops
 * VIRTIO_F_IN_ORDER in vring_transport_features(): either way, --in-order
 * is a SKIP.
 */
#ifdef vringh_complete_batch_user
#define HAVE_IN_ORDER_HOST	1
#else
#define HAVE_IN_ORDER_HOST	0
#endif

/* Return the @count oldest buffers taken, @head's the last, in one entry. */
static void host_complete_batch(struct vringh *vrh, u16 head, u32 len,
				unsigned int count)
{
#if HAVE_IN_ORDER_HOST
	int err = vringh_complete_batch_user(vrh, head, len, count);

	CHECKF(err == 0, "vringh_complete_batch_user(head %u, len %u, %u buffers): %d",
	       head, len, count, err);
#else
	(void)vrh; (void)head; (void)len; (void)count;
	CHECK(!"an in-order vringh");	/* main() said SKIP already */
#endif
}

#if HAVE_PACKED_HOST
/* The parts of @vq's packed ring as the guest sees them (@mem: new_vq's). */
static void packed_guest_ring(struct vring_packed *vr, struct virtqueue *vq,
			      void *mem)
{
#ifdef vring_new_virtqueue_packed
	(void)vq;
	vring_packed_init(vr, RINGSIZE, mem);
#else
	(void)mem;
	vr->num = RINGSIZE;
	vr->desc = phys_to_virt(virtqueue_get_desc_addr(vq));
	vr->driver = phys_to_virt(virtqueue_get_avail_addr(vq));
	vr->device = phys_to_virt(virtqueue_get_used_addr(vq));
#endif
}

/* The same parts as the host's _user accessors reach them. */
static void packed_host_ring(struct vring_packed *vr, struct virtqueue *vq,
			     struct rig_shm *shm)
{
#ifdef vring_new_virtqueue_packed
	(void)vq;
	vring_packed_init(vr, RINGSIZE, shm->host);
#else
	char *lo = __user_addr_min, *hi = __user_addr_max;

	(void)shm;
	packed_guest_ring(vr, vq, NULL);
	/* The driver's own allocations: let the "user" window hold them. */
	lo = min(lo, (char *)vr->desc);
	lo = min(lo, (char *)vr->driver);
	lo = min(lo, (char *)vr->device);
	hi = max(hi, (char *)(vr->desc + RINGSIZE));
	hi = max(hi, (char *)(vr->driver + 1));
	hi = max(hi, (char *)(vr->device + 1));
	__user_addr_min = lo;
	__user_addr_max = hi;
#endif
}

static void init_host_packed(struct vringh *vrh, struct rig_shm *shm,
			     struct virtqueue *vq)
{
	struct vring_packed vr;

	packed_host_ring(&vr, vq, shm);
	CHECK(vringh_init_packed_user(vrh, opt.features, RINGSIZE, true,
				      vr.desc, vr.driver, vr.device) == 0);
}

static void host_cleanup(struct vringh *vrh)
{
	vringh_cleanup(vrh);
}

/* The _kern accessors on the guest's own view of @vq's ring. */
static void init_kern_packed(struct vringh *vrh, struct virtqueue *vq,
			     void *mem)
{
	struct vring_packed vr;

	packed_guest_ring(&vr, vq, mem);
	CHECK(vringh_init_packed_kern(vrh, opt.features, RINGSIZE, true,
				      vr.desc, vr.driver, vr.device) == 0);
}
#else
static void init_host_packed(struct vringh *vrh __attribute__((unused)),
			     struct rig_shm *shm __attribute__((unused)),
			     struct virtqueue *vq __attribute__((unused)))
{
	CHECK(!"a packed vringh");	/* main() said SKIP already */
}

static void host_cleanup(struct vringh *vrh __attribute__((unused)))
{
}

static void init_kern_packed(struct vringh *vrh __attribute__((unused)),
			     struct virtqueue *vq __attribute__((unused)),
			     void *mem __attribute__((unused)))
{
	CHECK(!"a packed vringh");
}
#endif

/*
 * The host's vringh on the host view of the ring at the start of @shm, or
 * for a packed queue from a kernel driver, on @vq's own ring.
 */
static void init_host(struct vringh *vrh, struct rig_shm *shm,
		      struct virtqueue *vq)
{
	struct vring vr;

	if (opt.packed) {
		init_host_packed(vrh, shm, vq);
		return;
	}
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
	t->vq = new_vq(&t->vdev, t->shm.guest, false, st_notify, st_callback,
		       "guest vq");
	CHECK(t->vq);
	init_host(&t->vrh, &t->shm, t->vq);
	vringh_iov_init(&t->riov, t->riov_stack, ARRAY_SIZE(t->riov_stack));
	vringh_iov_init(&t->wiov, t->wiov_stack, ARRAY_SIZE(t->wiov_stack));
}

static void st_teardown(struct st *t)
{
	vringh_iov_cleanup(&t->riov);
	vringh_iov_cleanup(&t->wiov);
	if (opt.packed)
		host_cleanup(&t->vrh);
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

	/* Packed: used_idx is the used offset, which must wrap too. */
	used_idx = opt.packed ? t.vrh.last_used_idx :
		vringh16_to_cpu(&t.vrh, READ_ONCE(t.vrh.vring.used->idx));
	CHECK(used_idx % RINGSIZE != 0);
	CHECK(vringh_complete_multi_user(&t.vrh, used, RINGSIZE) == 0);
	if (opt.packed)
		CHECK(t.vrh.last_used_idx == used_idx);
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
	t.vq = new_vq(&t.vdev, t.shm.guest, true, st_notify, st_callback,
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

		if (opt.packed) {
			init_kern_packed(&vrh, t.vq, t.shm.guest);
		} else {
			vring_init(&vr, RINGSIZE, t.shm.guest, ALIGN_RING);
			CHECK(vringh_init_kern(&vrh, opt.features, RINGSIZE,
					       true, vr.desc, vr.avail,
					       vr.used) == 0);
		}
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
		if (opt.packed)
			host_cleanup(&vrh);
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
	st_teardown(&t);
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
static u16 packed_take(struct st *t, unsigned int parts, unsigned char val)
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
	struct st t;

	st_setup(&t, true);
	d = guest_ptr(&t, OFF_DATA);
	for (round = 0; round < 3 * RINGSIZE / 8; round++) {
		const unsigned char *order = orders[round % 4];

		for (k = 0; k < 8; k++) {
			unsigned int nsg = k % 4 + 1;

			memset(d + k * 4, 0, 4);
			sg_init_table(sg, nsg);
			for (i = 0; i < nsg; i++)
				sg_set_buf(&sg[i], d + k * 4 + i, 1);
			fake_indirect(&t, k);
			CHECK(virtqueue_add_inbuf(t.vq, sg, nsg, d + k * 4,
						  GFP_KERNEL) == 0);
			__kmalloc_fake = NULL;
		}
		for (k = 0; k < 8; k++)
			ids[k] = packed_take(&t, k % 4 + 1, round * 8 + k);
		/* Every other round, give back the last three: they come again. */
		if (round % 2) {
			vringh_abandon_user(&t.vrh, 3);
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
	st_teardown(&t);
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
	struct st t;

	st_setup(&t, false);
	d = guest_ptr(&t, OFF_DATA);
	memcpy(d, "abcd", 4);

	/* Single descriptors up to two before the end of the ring. */
	for (i = 0; i < RINGSIZE - 2; i++) {
		sg_init_one(&sg[0], d, 1);
		CHECK(virtqueue_add_outbuf(t.vq, sg, 1, d, GFP_KERNEL) == 0);
		CHECK(vringh_getdesc_user(&t.vrh, &t.riov, &t.wiov, rig_getrange, &head) == 1);
		CHECK(vringh_complete_user(&t.vrh, head, 0) == 0);
		CHECK(virtqueue_get_buf(t.vq, &len) == d);
	}
	CHECK(t.vrh.last_avail_idx == RINGSIZE - 2 && t.vrh.avail_wrap_counter);

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
	for (i = 0; i < RINGSIZE - 3; i++) {
		sg_init_one(&sg[0], d, 1);
		CHECK(virtqueue_add_outbuf(t.vq, sg, 1, d, GFP_KERNEL) == 0);
		CHECK(vringh_getdesc_user(&t.vrh, &t.riov, &t.wiov, rig_getrange, &head) == 1);
		CHECK(vringh_complete_user(&t.vrh, head, 0) == 0);
		CHECK(virtqueue_get_buf(t.vq, &len) == d);
	}
	CHECK(t.vrh.last_avail_idx == RINGSIZE - 1 && !t.vrh.avail_wrap_counter);
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
	st_teardown(&t);
}

/*
 * Packed: legal lists the driver never writes.  Only a list's last
 * descriptor carries the buffer id (2.8.6): here the others hold junk.
 * WRITE on an INDIRECT descriptor, and any flag but WRITE inside a table,
 * are reserved and ignored (2.8.7); a table may hold empty entries.  The
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
	struct st t;

	st_setup(&t, false);
	packed_guest_ring(&vr, t.vq, t.shm.guest);
	d = guest_ptr(&t, OFF_DATA);
	for (i = 0; i < 32; i++)
		d[i] = i;

	/* Three descriptors at 0, 1 and 2: junk ids in the first two. */
	sg_init_table(sg, 3);
	for (i = 0; i < 3; i++)
		sg_set_buf(&sg[i], d + 4 * i, 4);
	CHECK(virtqueue_add_outbuf(t.vq, sg, 3, &t, GFP_KERNEL) == 0);
	vr.desc[0].id = cpu_to_le16(0xffff);
	vr.desc[1].id = cpu_to_le16(RINGSIZE + 7);
	CHECK(vringh_getdesc_user(&t.vrh, &t.riov, &t.wiov, rig_getrange, &head) == 1);
	CHECK(head == le16_to_cpu(vr.desc[2].id));
	CHECK(vringh_iov_pull_user(&t.riov, buf, sizeof(buf)) == 12);
	for (i = 0; i < 12; i++)
		CHECK(buf[i] == i);
	CHECK(vringh_complete_user(&t.vrh, head, 0) == 0);
	CHECK(virtqueue_get_buf(t.vq, &len) == &t);

	/*
	 * A one-descriptor buffer (at 3) made indirect, WRITE set on it: a
	 * table of bytes 12..15 (NEXT set), an empty entry, 16..19 (NEXT
	 * set) and 8 device-writable bytes.  Only with --indirect: without
	 * VIRTIO_RING_F_INDIRECT_DESC a table is refused (2.8.19).
	 */
	if (!(opt.features & (1ULL << VIRTIO_RING_F_INDIRECT_DESC))) {
		st_teardown(&t);
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
	SETDESC(&table[0], d + 12, 4, VRING_DESC_F_NEXT);
	SETDESC(&table[1], d + 30, 0, 0);
	SETDESC(&table[2], d + 16, 4, VRING_DESC_F_NEXT);
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
	st_teardown(&t);
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

static void io_add(struct st *t, struct io_buf *b, unsigned long n)
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
	fake_indirect(t, n % SLOTS);
	err = virtqueue_add_sgs(t->vq, nout ? sgs : sgs + 1, nout ? 1 : 0,
				nin ? 1 : 0, b, GFP_KERNEL);
	__kmalloc_fake = NULL;
	CHECKF(err == 0, "in order: adding buffer %lu: %d", n, err);
}

/* The host takes @b: checks what it reads, fills what it may write. */
static void io_take(struct st *t, struct io_buf *b)
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
static void io_reap(struct st *t, struct io_buf *b)
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
	struct st t;
	u16 head;

	st_setup(&t, true);
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
	st_teardown(&t);
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
	struct st t;
	char *d;

	st_setup(&t, true);
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
	if (opt.in_order) {
		scenario_in_order_batches();
		scenario_in_order_notify();
	}
	if (opt.packed)
		run_single_packed();
	else if (opt.features & (1ULL << VIRTIO_RING_F_INDIRECT_DESC))
		scenario_weird_indirect();
}

/*
 * The parallel test.
 */
struct par {
	struct rig_shm shm;
	int cpu_guest, cpu_host;
	struct rig_chan to_host, to_guest;
	/*
	 * Created before both threads start (a kernel driver's packed ring is
	 * where the host finds it) and deleted once both have stopped.
	 */
	struct virtio_device vdev;
	struct virtqueue *vq;
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
	struct virtqueue *vq = par.vq;

	rig_pin_thread(par.cpu_guest);
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
	__atomic_store_n(&par.done, 1, __ATOMIC_RELEASE);
	rig_chan_signal(&par.to_host);
	par.to_host.signalled--;
	return NULL;
}

/* --fast-vringh: take heads straight off the avail ring, complete unread. */
#if HAVE_PACKED_HOST
/*
 * --fast-vringh on a packed ring: read the next descriptor's flags; if the
 * driver made it available, follow NEXT through the flags alone to the
 * list's last descriptor, whose id names the buffer.  Then do what
 * vringh_getdesc_user() would have done to the public state (see struct
 * vringh): move last_avail_idx and the wrap counter past the list and note
 * its length under its id, so that vringh_complete_user() can return it.
 */
static int host_fast_get_packed(struct vringh *vrh, u16 *head)
{
	const struct vring_packed_desc *desc = vrh->vring_packed.desc;
	const u16 avail = 1 << VRING_PACKED_DESC_F_AVAIL;
	const u16 used = 1 << VRING_PACKED_DESC_F_USED;
	u16 off = vrh->last_avail_idx, flags, id;
	bool wrap = vrh->avail_wrap_counter;
	unsigned int n = 1;
	__le16 raw;

	if (get_user(raw, &desc[off].flags))
		return -EFAULT;
	flags = le16_to_cpu(raw);
	if (!!(flags & avail) != wrap || !!(flags & used) == wrap)
		return 0;
	virtio_rmb(vrh->weak_barriers);
	while (flags & VRING_DESC_F_NEXT) {
		CHECKF(++n <= RINGSIZE, "list at %u longer than the ring",
		       vrh->last_avail_idx);
		if (++off == RINGSIZE)
			off = 0;
		if (get_user(raw, &desc[off].flags))
			return -EFAULT;
		flags = le16_to_cpu(raw);
	}
	if (get_user(raw, &desc[off].id))
		return -EFAULT;
	id = le16_to_cpu(raw);
	CHECKF(id < RINGSIZE && !vrh->packed_descs[id],
	       "guest offered buffer id %u", id);
	vrh->packed_descs[id] = n;
	off = vrh->last_avail_idx + n;
	if (off >= RINGSIZE) {
		off -= RINGSIZE;
		vrh->avail_wrap_counter = !wrap;
	}
	vrh->last_avail_idx = off;
	*head = id;
	return 1;
}
#else
static int host_fast_get_packed(struct vringh *vrh __attribute__((unused)),
				u16 *head __attribute__((unused)))
{
	return -ENOSYS;
}
#endif

static int host_fast_get_head(struct vringh *vrh, u16 *head)
{
	u16 avail_idx, raw_head;
	__virtio16 raw;

	if (opt.packed)
		return host_fast_get_packed(vrh, head);

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

/*
 * In order, the buffers the host took and has not yet returned: the last
 * one's head and used length, and how many.  Returned with one used entry.
 */
struct host_batch {
	unsigned int count;
	u16 head;
	u32 len;
};

static void host_flush(struct vringh *vrh, struct host_batch *b)
{
	if (!b->count)
		return;
	host_complete_batch(vrh, b->head, b->len, b->count);
	b->count = 0;
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
	struct host_batch batch = { 0 };
	struct vringh vrh;
	u32 last = 0;

	rig_pin_thread(par.cpu_host);
	init_host(&vrh, &par.shm, par.vq);
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
			/* In order: the ring is empty, return what we hold. */
			host_flush(&vrh, &batch);
			host_notify_guest(&vrh);
			if (__atomic_load_n(&par.done, __ATOMIC_ACQUIRE))
				break;
			if (opt.fast_vringh)
				continue;	/* busy-poll, never sleep */
			/* Buffers came in meanwhile: kicks off again, go on. */
			if (!vringh_notify_enable_user(&vrh)) {
				vringh_notify_disable_user(&vrh);
				continue;
			}
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
		if (opt.in_order) {
			/* Each buffer was read, or written whole (4 bytes). */
			batch.head = head;
			batch.len = written;
			if (++batch.count == opt.batch)
				host_flush(&vrh, &batch);
			continue;
		}
		CHECK(vringh_complete_user(&vrh, head, written) == 0);
	}
	CHECK(batch.count == 0);
	vringh_iov_cleanup(&riov);
	vringh_iov_cleanup(&wiov);
	if (opt.packed)
		host_cleanup(&vrh);
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
	init_vdev(&par.vdev);
	par.vq = new_vq(&par.vdev, par.shm.guest, false, par_notify_host,
			par_callback_guest, "guest vq");
	CHECK(par.vq);

	err = pthread_create(&host, NULL, host_thread, NULL);
	if (!err)
		err = pthread_create(&guest, NULL, guest_thread, NULL);
	if (err) {
		errno = err;
		rig_die("pthread_create");
	}
	pthread_join(guest, NULL);
	pthread_join(host, NULL);
	vring_del_virtqueue(par.vq);

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
"                   [--packed] [--in-order] [--parallel [--fast-vringh]\n"
"                   [--xfers=N] [--in-order=N]] [--version] [--help]\n"
"\n"
"Without --parallel, run single-threaded guest/host scenarios (silent on\n"
"success).  With --parallel, a guest and a host thread on two CPUs exchange\n"
"N buffers (default %lu) and print what notifications they needed.\n"
"\n"
"  --indirect     negotiate VIRTIO_RING_F_INDIRECT_DESC\n"
"  --eventidx     negotiate VIRTIO_RING_F_EVENT_IDX\n"
"  --virtio-1     negotiate VIRTIO_F_VERSION_1 (little-endian ring)\n"
"  --slow-range   the host's address ranges are one byte each\n"
"  --packed       a packed ring (VIRTIO_F_RING_PACKED; implies --virtio-1)\n"
"  --in-order     negotiate VIRTIO_F_IN_ORDER: the host returns buffers in\n"
"                 batches, one used entry each\n"
"  --in-order=N   (--parallel) so, returning a batch whenever the ring is\n"
"                 empty or N are held (default: the ring size, %d)\n"
"  --parallel     run the two-thread transfer test\n"
"  --fast-vringh  (--parallel) the guest never kicks; the host busy-polls and\n"
"                 completes buffers without reading their descriptors (packed:\n"
"                 reading only their flags and ids)\n"
"  --xfers=N      (--parallel) number of buffers to transfer\n"
"  --version      print how this binary was built\n",
		DEFAULT_XFERS, RINGSIZE);
}

int main(int argc, char *argv[])
{
	enum { OPT_XFERS = 256, OPT_VERSION, OPT_IN_ORDER };
	static const struct option longopts[] = {
		{ "indirect", no_argument, NULL, 'i' },
		{ "eventidx", no_argument, NULL, 'e' },
		{ "virtio-1", no_argument, NULL, '1' },
		{ "slow-range", no_argument, NULL, 's' },
		{ "packed", no_argument, NULL, 'P' },
		{ "in-order", optional_argument, NULL, OPT_IN_ORDER },
		{ "fast-vringh", no_argument, NULL, 'f' },
		{ "parallel", no_argument, NULL, 'p' },
		{ "xfers", required_argument, NULL, OPT_XFERS },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	bool xfers_given = false, batch_given = false;
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
		case 'P':
			opt.packed = true;
			break;
		case OPT_IN_ORDER:
			opt.in_order = true;
			if (!optarg)
				break;
			if (!rig_parse_ulong(optarg, 1, RINGSIZE, &opt.batch)) {
				fprintf(stderr, "vringh_test: bad --in-order '%s': 1 to %d buffers per used entry\n",
					optarg, RINGSIZE);
				usage(stderr);
				return 1;
			}
			batch_given = true;
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
	if (!opt.parallel && (opt.fast_vringh || xfers_given || batch_given)) {
		fprintf(stderr, "vringh_test: --fast-vringh, --xfers and --in-order=N need --parallel\n");
		usage(stderr);
		return 1;
	}
	if (opt.in_order && opt.fast_vringh) {
		/* Its host bypasses getdesc, which in order checks and records. */
		fprintf(stderr, "vringh_test: --fast-vringh and --in-order exclude each other\n");
		usage(stderr);
		return 1;
	}
	if (opt.packed) {
		if (!HAVE_PACKED_HOST) {
			/* The check runner's SKIP: exit 77, the reason first. */
			printf("vringh_test: --packed: the host ring code (%s) has no packed vringh\n",
			       rig_host_impl());
			return 77;
		}
		opt.features |= 1ULL << VIRTIO_F_RING_PACKED |
				1ULL << VIRTIO_F_VERSION_1;
	}
	if (opt.in_order) {
		struct virtio_device vdev;

		/* The check runner's SKIPs: exit 77, the reason first. */
		if (!HAVE_IN_ORDER_HOST) {
			printf("vringh_test: --in-order: the host ring code (%s) has no VIRTIO_F_IN_ORDER (no vringh_complete_batch_user)\n",
			       rig_host_impl());
			return 77;
		}
		opt.features |= 1ULL << VIRTIO_F_IN_ORDER;
		init_vdev(&vdev);
		vring_transport_features(&vdev);
		if (!virtio_has_feature(&vdev, VIRTIO_F_IN_ORDER)) {
			printf("vringh_test: --in-order: the guest ring code (%s) drops VIRTIO_F_IN_ORDER in vring_transport_features()\n",
			       rig_guest_impl());
			return 77;
		}
	}

	if (opt.parallel)
		run_parallel();
	else
		run_single();
	return 0;
}
