// SPDX-License-Identifier: GPL-2.0
/*
 * Allocation-failure sweeps: for each scenario, make allocation number 1
 * fail, then number 2, and so on (the kmalloc shim's kmalloc_fail_nth()),
 * until the scenario runs to the end without reaching the failure.  Every
 * run must end cleanly: the call that could not allocate returns its
 * documented error (NULL, -ENOMEM, -ENOSPC) or takes its documented
 * fallback (direct descriptors instead of an indirect table, a smaller
 * ring), leaves the queue or ring usable and unchanged, and nothing leaks
 * (kmalloc_outstanding() is back to where it was).
 *
 * Usage: allocfail --list | allocfail SCENARIO | allocfail -h
 * Exit 0 when every run of the sweep was clean; a broken rule stops the
 * program with its location; 2 for a usage error; 78 (a TODO) when the
 * ring code under test is a kernel tree's, which is known not to promise
 * what the scenario checks, and a rule broke (struct scenario.kernel_gap).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/virtio.h>
#include <linux/virtio_config.h>
#include <linux/virtio_ring.h>
#include <linux/vringh.h>
#include <linux/uaccess.h>

#include "harness/arena.h"
#include "harness/harness.h"

/* Every check names the allocation that failed. */
#define ALLOCFAIL_CHECK(cond, gap) do {					\
	if (!(cond))							\
		rig_check_failedf(__FILE__, __LINE__, gap, #cond,	\
				  "allocation %lu failing", fail_n);	\
} while (0)
#undef CHECK
#define CHECK(cond) ALLOCFAIL_CHECK(cond, false)
#undef CHECK_GAP
#define CHECK_GAP(cond) ALLOCFAIL_CHECK(cond, true)

static unsigned long fail_n;	/* the allocation that fails in this run */

/* Has the failing allocation happened yet? */
static bool failed_yet(void)
{
	return kmalloc_count() >= fail_n;
}

#define MEM_SIZE	(256 * 1024)
#define OFF_TABLE	(32 * 1024)	/* indirect tables, see roundtrip() */
#define OFF_DATA	(64 * 1024)

/* VIRTIO_F_IN_ORDER on every queue of an in-order scenario, else 0. */
static u64 in_order;

/* One area standing for guest memory: the ring at its start, data after. */
static char *mem;

static struct virtio_device vdev;

static bool notify(struct virtqueue *vq __attribute__((unused)))
{
	return true;
}

static unsigned long reset_calls;

static int disable_reset(struct virtqueue *vq __attribute__((unused)))
{
	reset_calls++;
	return 0;
}

static int enable_after(struct virtqueue *vq __attribute__((unused)))
{
	return 0;
}

static const struct virtio_config_ops cfgops = {
	.disable_vq_and_reset = disable_reset,
	.enable_vq_after_reset = enable_after,
};

static bool getrange(struct vringh *vrh __attribute__((unused)), u64 addr,
		     struct vringh_range *r)
{
	if (addr < (uintptr_t)mem || addr >= (uintptr_t)mem + MEM_SIZE)
		return false;
	r->start = (uintptr_t)mem;
	r->end_incl = (uintptr_t)mem + MEM_SIZE - 1;
	r->offset = 0;
	return true;
}

/* Single-byte ranges: every byte of a buffer becomes its own iovec. */
static bool getrange_slow(struct vringh *vrh, u64 addr, struct vringh_range *r)
{
	if (!getrange(vrh, addr, r))
		return false;
	r->start = r->end_incl = addr;
	return true;
}

/* ---- driver: creating queues ---- */

/*
 * A split queue of @num in mem (zeroed first) with INDIRECT_DESC, by
 * vring_new_virtqueue(); NULL only where an allocation was failed.
 */
static struct virtqueue *new_indirect_queue(unsigned int num)
{
	struct virtqueue *vq;

	rig_vdev_init(&vdev, 1ULL << VIRTIO_RING_F_INDIRECT_DESC | in_order);
	memset(mem, 0, vring_size(num, RIG_RING_ALIGN));
	vq = vring_new_virtqueue(0, num, RIG_RING_ALIGN, &vdev, true, false, mem,
				 notify, NULL, "allocfail");
	if (!vq)
		CHECK(failed_yet());
	return vq;
}

static void new_virtqueue(void)
{
	struct virtqueue *vq;

	vq = new_indirect_queue(256);
	if (!vq) {
		CHECK(list_empty(&vdev.vqs));
		return;
	}
	CHECK(vq->num_free == 256);
	vring_del_virtqueue(vq);
}

/*
 * vring_create_virtqueue() of @num entries on a device of @features: a
 * failure leaves no queue on the device; a queue has @num entries, all
 * free.
 */
static void create_and_delete(u64 features, unsigned int num)
{
	struct virtqueue *vq;

	rig_vdev_init(&vdev, features | in_order);
	vq = vring_create_virtqueue(0, num, RIG_RING_ALIGN, &vdev, true, false,
				    false, notify, NULL, "allocfail");
	if (!vq) {
		CHECK(failed_yet());
		CHECK(list_empty(&vdev.vqs));
		return;
	}
	CHECK(virtqueue_get_vring_size(vq) == num && vq->num_free == num);
	vring_del_virtqueue(vq);
}

static void create_virtqueue(void)
{
	create_and_delete(1ULL << VIRTIO_F_VERSION_1, 1024);
}

/* may_reduce_num: a ring allocation that fails is retried at half size. */
static void create_virtqueue_reduce(void)
{
	unsigned long before = kmalloc_count();
	struct virtqueue *vq;
	unsigned int num;

	rig_vdev_init(&vdev, in_order);
	vq = vring_create_virtqueue(0, 1024, RIG_RING_ALIGN, &vdev, true, true,
				    false, notify, NULL, "allocfail");
	if (!vq) {
		/* Only the queue's own state can fail it: the ring shrinks. */
		CHECK(failed_yet() && fail_n > before + 1);
		return;
	}
	num = virtqueue_get_vring_size(vq);
	if (fail_n == before + 1)
		CHECK(num == 512);	/* the documented fallback */
	else
		CHECK(num == 1024);
	CHECK(vq->num_free == num);
	vring_del_virtqueue(vq);
}

/* ---- driver and device: one buffer there and back ---- */

/* The host takes the next buffer; -ENOMEM takes nothing and may be retried. */
static int host_getdesc(struct vringh *vrh, struct vringh_iov *riov,
			struct vringh_iov *wiov, bool slow, u16 *head)
{
	for (;;) {
		u16 before = vrh->last_avail_idx;
		int err = vringh_getdesc_user(vrh, riov, wiov,
					      slow ? getrange_slow : getrange, head);

		if (err != -ENOMEM)
			return err;
		CHECK(failed_yet());
		CHECK_GAP(vrh->last_avail_idx == before);	/* HOST_TAKES */
	}
}

static size_t pull_all(struct vringh_iov *riov, unsigned char *buf, size_t len)
{
	size_t got = 0;
	ssize_t n;

	while ((n = vringh_iov_pull_user(riov, buf + got, len - got)) > 0)
		got += n;
	CHECK(n == 0);
	return got;
}

/*
 * Create a queue of @num entries with @features (split or packed, on the
 * memory area), add a buffer of @nsg out sgs (an indirect table if the
 * feature is on, unless its allocation fails: then a chain), let the host
 * read it with iovs of @stack entries (grown as needed; one-byte ranges if
 * @slow), complete it, get it back.  A packed vringh allocates at init,
 * which may fail: then the buffer is detached instead.
 */
static void roundtrip(u64 features, unsigned int num, unsigned int nsg,
		      unsigned int stack, bool slow)
{
	bool indirect = features & (1ULL << VIRTIO_RING_F_INDIRECT_DESC);
	struct scatterlist sg[64];
	struct iovec rs[4], ws[4];
	struct vringh_iov riov, wiov;
	static unsigned char got[64 * 32];
	struct rig_queue q;
	struct rig_arena tables;
	struct virtqueue *vq;
	struct vringh vrh;
	unsigned int i, len, before;
	unsigned char *d = (unsigned char *)mem + OFF_DATA;
	u16 head;
	int err;

	rig_vdev_init(&vdev, features | in_order);
	if (!rig_queue_create(&q, &vdev, num, mem, false, notify, NULL,
			      "allocfail")) {
		CHECK(failed_yet());
		return;
	}
	vq = q.vq;

	for (i = 0; i < nsg * 32; i++)
		d[i] = i * 7;
	sg_init_table(sg, nsg);
	for (i = 0; i < nsg; i++)
		sg_set_buf(&sg[i], d + i * 32, 32);
	before = vq->num_free;
	/* The table must be in memory the host can see (a kmalloc arena). */
	rig_arena_init(&tables, "allocfail's table area", mem + OFF_TABLE,
		       OFF_DATA - OFF_TABLE);
	rig_arena_attach(&tables);
	err = virtqueue_add_outbuf(vq, sg, nsg, d, GFP_KERNEL);
	rig_arena_attach(NULL);
	CHECK(err == 0);
	if (indirect && nsg > 1 && before - vq->num_free != 1)
		CHECK(failed_yet() && before - vq->num_free == nsg);	/* direct */
	virtqueue_kick(vq);

	/* One mapping: the host's view of the ring is the driver's. */
	err = rig_vringh_init_user(&vrh, features, &q.ring);
	if (err) {
		CHECK(err == -ENOMEM && failed_yet());
	} else {
		vringh_iov_init(&riov, rs, stack);
		vringh_iov_init(&wiov, ws, stack);
		CHECK(host_getdesc(&vrh, &riov, &wiov, slow, &head) == 1);
		CHECK(riov.used == (slow ? nsg * 32 : nsg) && wiov.used == 0);
		CHECK(pull_all(&riov, got, sizeof(got)) == nsg * 32);
		CHECK(memcmp(got, d, nsg * 32) == 0);
		CHECK(vringh_complete_user(&vrh, head, 0) == 0);
		vringh_iov_cleanup(&riov);
		vringh_iov_cleanup(&wiov);
		rig_vringh_cleanup(&vrh, &q.ring);
	}
	/* The driver frees its table back to the arena. */
	rig_arena_attach(&tables);
	if (!err)
		CHECK(virtqueue_get_buf(vq, &len) == d);
	CHECK(!virtqueue_is_broken(vq));
	if (err)
		CHECK(virtqueue_detach_unused_buf(vq) == d);
	CHECK(vq->num_free == num);
	rig_queue_destroy(&q);
	rig_arena_attach(NULL);
}

static void add_indirect(void)
{
	roundtrip(1ULL << VIRTIO_RING_F_INDIRECT_DESC | 1ULL << VIRTIO_F_VERSION_1,
		  64, 4, 4, false);
}

static void vringh_iov_grow(void)
{
	roundtrip(1ULL << VIRTIO_F_VERSION_1, 64, 40, 1, false);
}

static void vringh_iov_grow_slow_range(void)
{
	roundtrip(1ULL << VIRTIO_RING_F_INDIRECT_DESC | 1ULL << VIRTIO_F_VERSION_1,
		  64, 40, 0, true);
}

/* A full ring: without its table the buffer cannot go in at all. */
static void add_indirect_ring_full(void)
{
	struct scatterlist sg[4], one;
	struct virtqueue *vq;
	unsigned int i, free_before;
	char *d = mem + OFF_DATA;
	int err;

	vq = new_indirect_queue(4);
	if (!vq)
		return;
	for (i = 0; i < 2; i++) {
		sg_init_one(&one, d + i, 1);
		CHECK(virtqueue_add_inbuf(vq, &one, 1, d + i, GFP_KERNEL) == 0);
	}
	sg_init_table(sg, 4);
	for (i = 0; i < 4; i++)
		sg_set_buf(&sg[i], d + 8 * i, 8);
	free_before = vq->num_free;
	err = virtqueue_add_outbuf(vq, sg, 4, d + 100, GFP_KERNEL);
	if (err) {
		CHECK(err == -ENOSPC && failed_yet());
		CHECK(vq->num_free == free_before);
	} else {
		CHECK(vq->num_free == free_before - 1);
	}
	for (i = 0; i < 3; i++)
		if (!virtqueue_detach_unused_buf(vq))
			break;
	CHECK(i == (err ? 2 : 3));
	CHECK(vq->num_free == 4);
	vring_del_virtqueue(vq);
}

/* The kern accessors grow kiovs with the caller's gfp. */
static void vringh_kern_iov_grow(void)
{
	struct vring_desc *desc;
	struct vringh_kiov riov, wiov;
	struct kvec rk[1], wk[1];
	struct vringh vrh;
	struct vring vr;
	unsigned int i;
	u16 head, before;
	int err;

	memset(mem, 0, vring_size(32, RIG_RING_ALIGN));
	vring_init(&vr, 32, mem, RIG_RING_ALIGN);
	CHECK(vringh_init_kern(&vrh, 0, 32, true, vr.desc, vr.avail, vr.used) == 0);
	/* One chain of 32 descriptors: 12 readable, 20 writable. */
	desc = vr.desc;
	for (i = 0; i < 32; i++) {
		desc[i].addr = (uintptr_t)(mem + OFF_DATA + i * 16);
		desc[i].len = 16;
		desc[i].flags = (i < 31 ? VRING_DESC_F_NEXT : 0) |
				(i >= 12 ? VRING_DESC_F_WRITE : 0);
		desc[i].next = i + 1;
	}
	vr.avail->ring[0] = 0;
	vr.avail->idx = 1;

	vringh_kiov_init(&riov, rk, 1);
	vringh_kiov_init(&wiov, wk, 1);
	for (;;) {
		before = vrh.last_avail_idx;
		err = vringh_getdesc_kern(&vrh, &riov, &wiov, &head, GFP_KERNEL);
		if (err != -ENOMEM)
			break;
		CHECK(failed_yet());
		CHECK_GAP(vrh.last_avail_idx == before);	/* HOST_TAKES */
	}
	CHECK(err == 1 && head == 0);
	CHECK(riov.used == 12 && wiov.used == 20);
	CHECK(vringh_kiov_length(&riov) == 12 * 16);
	CHECK(vringh_kiov_length(&wiov) == 20 * 16);
	vringh_kiov_cleanup(&riov);
	vringh_kiov_cleanup(&wiov);
}

/*
 * ---- the packed layout (the rig's extensions: a kernel tree's ring code,
 * make KSRC=..., has neither packed vringh nor vring_new_virtqueue_packed)
 */
#if defined(vring_new_virtqueue_packed) && defined(vringh_init_packed_user)

static void create_virtqueue_packed(void)
{
	create_and_delete(1ULL << VIRTIO_F_VERSION_1 | 1ULL << VIRTIO_F_RING_PACKED |
			  1ULL << VIRTIO_RING_F_INDIRECT_DESC, 256);
}

static void packed_add_indirect(void)
{
	/* A packed vringh reading it with one-entry iovs it must grow. */
	roundtrip(1ULL << VIRTIO_F_VERSION_1 | 1ULL << VIRTIO_F_RING_PACKED |
		  1ULL << VIRTIO_RING_F_INDIRECT_DESC, 32, 12, 1, false);
}
#endif

/*
 * virtqueue_resize() gives each buffer still in the ring to recycle()
 * (the kernel's calls it unconditionally: it may not be NULL); older trees
 * (Debian's 6.1) take no recycle_done argument.  kernel/ksrc-features.sh
 * reads which from the tree's header.
 */
#if RIG_VIRTQUEUE_RESIZE_ARGS == 3
#define resize_vq(vq, num) virtqueue_resize(vq, num, recycle)
#elif RIG_VIRTQUEUE_RESIZE_ARGS == 4
#define resize_vq(vq, num) virtqueue_resize(vq, num, recycle, NULL)
#endif

#ifdef resize_vq
static unsigned int recycled;

static void recycle(struct virtqueue *vq __attribute__((unused)), void *buf)
{
	CHECK(buf >= (void *)(mem + OFF_DATA) && buf < (void *)(mem + OFF_DATA + 8));
	recycled++;
}

/* Resize: without memory the old ring stays, emptied, and still works. */
static void resize(void)
{
	struct scatterlist sg;
	struct virtqueue *vq;
	unsigned int i, num;
	char *d = mem + OFF_DATA;
	int err;

	rig_vdev_init(&vdev, 1ULL << VIRTIO_RING_F_INDIRECT_DESC | in_order);
	vdev.config = &cfgops;
	vq = vring_create_virtqueue(0, 64, RIG_RING_ALIGN, &vdev, true, false,
				    false, notify, NULL, "allocfail");
	if (!vq) {
		CHECK(failed_yet());
		return;
	}
	vring_del_virtqueue(vq);
	vq = vring_create_virtqueue(0, 256, RIG_RING_ALIGN, &vdev, true, false,
				    false, notify, NULL, "allocfail");
	if (!vq) {
		CHECK(failed_yet());
		return;
	}
	/* The largest size, as a transport sets it (a kernel's driver does not). */
	vq->num_max = 256;
	recycled = 0;
	err = resize_vq(vq, 64);
	if (err) {
		CHECK(err == -ENOMEM && failed_yet());
		CHECK(virtqueue_get_vring_size(vq) == 256);
	}
	for (i = 0; i < 8; i++) {
		sg_init_one(&sg, d + i, 1);
		CHECK(virtqueue_add_inbuf(vq, &sg, 1, d + i, GFP_KERNEL) == 0);
	}
	err = resize_vq(vq, 128);
	num = virtqueue_get_vring_size(vq);
	if (err) {
		CHECK(err == -ENOMEM && failed_yet());
		CHECK(num == 256 || num == 64);
	} else {
		CHECK(num == 128);
	}
	/* Either way the old buffers were recycled and the ring is empty. */
	CHECK(recycled == 8);
	CHECK(vq->num_free == num);
	CHECK(!virtqueue_detach_unused_buf(vq));
	sg_init_one(&sg, d, 1);
	CHECK(virtqueue_add_inbuf(vq, &sg, 1, d, GFP_KERNEL) == 0);
	CHECK(virtqueue_detach_unused_buf(vq) == d);
	CHECK(!virtqueue_is_broken(vq));
	vring_del_virtqueue(vq);
}
#endif

struct scenario {
	const char *name;
	void (*run)(void);
	bool host;		/* what it checks is vringh's (else virtio_ring's) */
	bool in_order;		/* its queues negotiate VIRTIO_F_IN_ORDER */
	/*
	 * What a kernel tree's code is known not to promise: the sweep runs,
	 * and a broken rule is a TODO, a clean sweep says the gap is gone.
	 */
	const char *kernel_gap;
};

#define HOST_TAKES "the kernel's vringh takes the buffer even when getdesc fails"

static const struct scenario scenarios[] = {
	{ .name = "new-virtqueue", .run = new_virtqueue },
	{ .name = "create-virtqueue", .run = create_virtqueue },
	{ .name = "create-virtqueue-reduce", .run = create_virtqueue_reduce },
	{ .name = "add-indirect", .run = add_indirect },
	{ .name = "add-indirect-ring-full", .run = add_indirect_ring_full },
	{ .name = "vringh-iov-grow", .run = vringh_iov_grow, .host = true, .kernel_gap = HOST_TAKES },
	{ .name = "vringh-iov-grow-slow-range", .run = vringh_iov_grow_slow_range, .host = true,
	  .kernel_gap = HOST_TAKES },
	{ .name = "vringh-kern-iov-grow", .run = vringh_kern_iov_grow, .host = true,
	  .kernel_gap = HOST_TAKES },
	/* The driver's in-order paths (Linux 7.x keeps VIRTIO_F_IN_ORDER). */
	{ .name = "create-virtqueue-in-order", .run = create_virtqueue, .in_order = true },
	{ .name = "add-indirect-in-order", .run = add_indirect, .in_order = true },
	{ .name = "add-indirect-ring-full-in-order", .run = add_indirect_ring_full, .in_order = true },
#ifdef resize_vq
	{ .name = "resize", .run = resize },
	{ .name = "resize-in-order", .run = resize, .in_order = true },
#endif
#if defined(vring_new_virtqueue_packed) && defined(vringh_init_packed_user)
	{ .name = "create-virtqueue-packed", .run = create_virtqueue_packed },
	{ .name = "packed-add-indirect", .run = packed_add_indirect },
	{ .name = "create-virtqueue-packed-in-order", .run = create_virtqueue_packed, .in_order = true },
	{ .name = "packed-add-indirect-in-order", .run = packed_add_indirect, .in_order = true },
#endif
};

static int sweep(const struct scenario *sc)
{
	unsigned long n;

	for (n = 1; n < 100000; n++) {
		long base = kmalloc_outstanding();
		bool reached;

		fail_n = n;
		kmalloc_fail_nth(n);
		sc->run();
		reached = kmalloc_count() >= n;
		kmalloc_fail_nth(0);
		CHECKF(kmalloc_outstanding() == base,
		       "%s: allocation %lu failing leaked %ld allocations",
		       sc->name, n, kmalloc_outstanding() - base);
		if (!reached) {
			printf("%s: %lu runs, allocations 1..%lu failed in turn\n",
			       sc->name, n, n - 1);
			return 0;
		}
	}
	fprintf(stderr, "allocfail: %s never finished without a failure\n", sc->name);
	return 1;
}

static const char *scenario_name(unsigned int i)
{
	return scenarios[i].name;
}

static const char *scenario_gap(unsigned int i)
{
	return scenarios[i].kernel_gap;
}

int main(int argc, char *argv[])
{
	const struct scenario *sc;
	int err;

	sc = &scenarios[rig_case_pick(argc, argv, scenario_name, scenario_gap,
				      ARRAY_SIZE(scenarios),
"Usage: allocfail --list | allocfail --gaps | allocfail SCENARIO\n"
"Sweep one scenario's allocation failures (--list names them).  Exit 0:\n"
"every run was clean; 1: a rule broke; 2: usage error; 78: TODO, a kernel\n"
"tree's code broke a rule it is known not to promise (a clean sweep then\n"
"says the gap is gone).\n")];
	rig_expect_kernel_gap(sc->host, sc->kernel_gap);
	if (sc->in_order) {
		rig_require_in_order(sc->name, false);
		in_order = 1ULL << VIRTIO_F_IN_ORDER;
	}
	mem = aligned_alloc(RIG_RING_ALIGN, MEM_SIZE);
	if (!mem)
		return RIG_EXIT_FAIL;
	__user_addr_min = mem;
	__user_addr_max = mem + MEM_SIZE;
	err = sweep(sc);
	free(mem);
	return rig_kernel_gap_end(err);
}
