// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile rings: one case per way a peer can break the rules.
 *
 * Host-side cases build a split ring by hand, as a malicious guest would,
 * and check that vringh refuses it with the right error and a printed
 * message.  Guest-side cases let a real driver queue add a buffer, then
 * scribble a bad used ring entry, and check that the queue is marked broken
 * with a message and returns nothing.
 *
 * Usage: hostile --list | hostile CASE
 * Exit 0 when the ring code handled the case, 1 when it did not, 77 when
 * the implementation under test does not claim to detect it (a SKIP).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/virtio.h>
#include <linux/virtio_config.h>
#include <linux/virtio_ring.h>
#include <linux/vringh.h>
#include <linux/uaccess.h>

#include "../harness.h"

#define NUM		16
#define RING_ALIGN	4096
#define MEM_SIZE	(64 * 1024)
#define OFF_TABLE	16384
#define OFF_DATA	32768

/* What the ring code printed while a case ran. */
static int saved_stderr = -1, capture_fd = -1;

static void capture_begin(void)
{
	fflush(stderr);
	capture_fd = memfd_create("stderr", 0);
	saved_stderr = dup(2);
	CHECK(capture_fd >= 0 && saved_stderr >= 0);
	dup2(capture_fd, 2);
}

/* Stop capturing; echo what was said; return how many bytes. */
static size_t capture_end(void)
{
	char buf[4096];
	ssize_t n;
	off_t len;

	fflush(stderr);
	dup2(saved_stderr, 2);
	close(saved_stderr);
	len = lseek(capture_fd, 0, SEEK_END);
	lseek(capture_fd, 0, SEEK_SET);
	while ((n = read(capture_fd, buf, sizeof(buf))) > 0)
		fwrite(buf, 1, n, stderr);
	close(capture_fd);
	return len;
}

/*
 * Host side: a ring the test writes as the guest.
 */
static struct rig_shm shm;
static struct vring gvr;	/* guest view */
static struct vringh vrh;
static u64 host_features = 1ULL << VIRTIO_RING_F_INDIRECT_DESC;

static void host_setup(void)
{
	struct vring hvr;

	rig_shm_create(&shm, MEM_SIZE);
	memset(shm.guest, 0, MEM_SIZE);
	rig_user_map(shm.guest, shm.host, MEM_SIZE, false);
	vring_init(&gvr, NUM, shm.guest, RING_ALIGN);
	vring_init(&hvr, NUM, shm.host, RING_ALIGN);
	CHECK(vringh_init_user(&vrh, host_features, NUM, true,
			       hvr.desc, hvr.avail, hvr.used) == 0);
}

static void *gaddr(size_t off)
{
	return (char *)shm.guest + off;
}

static void set_desc(struct vring_desc *d, u64 addr, u32 len, u16 flags,
		     u16 next)
{
	d->addr = cpu_to_vringh64(&vrh, addr);
	d->len = cpu_to_vringh32(&vrh, len);
	d->flags = cpu_to_vringh16(&vrh, flags);
	d->next = cpu_to_vringh16(&vrh, next);
}

/* Make head @head available as the next avail entry. */
static void offer(u16 head)
{
	u16 idx = vringh16_to_cpu(&vrh, gvr.avail->idx);

	gvr.avail->ring[idx % NUM] = cpu_to_vringh16(&vrh, head);
	gvr.avail->idx = cpu_to_vringh16(&vrh, idx + 1);
}

static u64 data_addr(unsigned int n)
{
	return (uintptr_t)gaddr(OFF_DATA + n * 64);
}

/* Run getdesc once; it must fail with @want, say why, and not advance. */
static int expect_getdesc(int want,
			  bool (*getrange)(struct vringh *, u64, struct vringh_range *))
{
	struct iovec rstack[4], wstack[4];
	struct vringh_iov riov, wiov;
	u16 before = vrh.last_avail_idx;
	size_t said;
	u16 head;
	int err;

	vringh_iov_init(&riov, rstack, 4);
	vringh_iov_init(&wiov, wstack, 4);
	capture_begin();
	err = vringh_getdesc_user(&vrh, &riov, &wiov, getrange, &head);
	said = capture_end();
	vringh_iov_cleanup(&riov);
	vringh_iov_cleanup(&wiov);
	rig_shm_destroy(&shm);

	CHECKF(err == want, "getdesc returned %d (%s), expected %d (%s)", err,
	       strerror(-err), want, strerror(-want));
	CHECKF(said > 0, "error %d returned without a message", err);
	CHECKF(vrh.last_avail_idx == before, "the avail index moved on error");
	return 0;
}

static bool range_getrange(struct vringh *v, u64 addr, struct vringh_range *r)
{
	return rig_getrange(v, addr, r);
}

static int host_head_out_of_range(void)
{
	host_setup();
	offer(NUM);
	return expect_getdesc(-EINVAL, range_getrange);
}

static int host_next_out_of_range(void)
{
	host_setup();
	set_desc(&gvr.desc[0], data_addr(0), 8, VRING_DESC_F_NEXT, NUM + 3);
	offer(0);
	return expect_getdesc(-EINVAL, range_getrange);
}

static int host_desc_loop(void)
{
	host_setup();
	set_desc(&gvr.desc[0], data_addr(0), 8, VRING_DESC_F_NEXT, 1);
	set_desc(&gvr.desc[1], data_addr(1), 8, VRING_DESC_F_NEXT, 2);
	set_desc(&gvr.desc[2], data_addr(2), 8, VRING_DESC_F_NEXT, 0);
	offer(0);
	return expect_getdesc(-ELOOP, range_getrange);
}

/* A chain through zero-length descriptors still may not exceed the ring. */
static int host_chain_longer_than_ring(void)
{
	unsigned int i;

	host_setup();
	for (i = 0; i < NUM; i++)
		set_desc(&gvr.desc[i], data_addr(0), 0, VRING_DESC_F_NEXT,
			 (i + 1) % NUM);
	offer(0);
	return expect_getdesc(-ELOOP, range_getrange);
}

static struct vring_desc *table(void)
{
	return gaddr(OFF_TABLE);
}

static int host_indirect_loop(void)
{
	struct vring_desc *t;

	host_setup();
	t = table();
	set_desc(&t[0], data_addr(0), 8, VRING_DESC_F_NEXT, 1);
	set_desc(&t[1], data_addr(1), 8, VRING_DESC_F_NEXT, 0);
	set_desc(&gvr.desc[0], (uintptr_t)t, 2 * sizeof(*t), VRING_DESC_F_INDIRECT, 0);
	offer(0);
	return expect_getdesc(-ELOOP, range_getrange);
}

static int host_nested_indirect(void)
{
	struct vring_desc *t;

	host_setup();
	t = table();
	set_desc(&t[0], (uintptr_t)&t[4], 2 * sizeof(*t), VRING_DESC_F_INDIRECT, 0);
	set_desc(&t[4], data_addr(0), 8, 0, 0);
	set_desc(&gvr.desc[0], (uintptr_t)t, sizeof(*t), VRING_DESC_F_INDIRECT, 0);
	offer(0);
	return expect_getdesc(-EINVAL, range_getrange);
}

static int host_indirect_len_zero(void)
{
	host_setup();
	set_desc(&gvr.desc[0], (uintptr_t)table(), 0, VRING_DESC_F_INDIRECT, 0);
	offer(0);
	return expect_getdesc(-EINVAL, range_getrange);
}

static int host_indirect_len_odd(void)
{
	host_setup();
	set_desc(&gvr.desc[0], (uintptr_t)table(), 24, VRING_DESC_F_INDIRECT, 0);
	offer(0);
	return expect_getdesc(-EINVAL, range_getrange);
}

static int host_indirect_outside_range(void)
{
	host_setup();
	set_desc(&gvr.desc[0], (uintptr_t)gaddr(MEM_SIZE + 4096), 32,
		 VRING_DESC_F_INDIRECT, 0);
	offer(0);
	return expect_getdesc(-EINVAL, range_getrange);
}

static int host_readable_after_writable(void)
{
	host_setup();
	set_desc(&gvr.desc[0], data_addr(0), 8, VRING_DESC_F_WRITE | VRING_DESC_F_NEXT, 1);
	set_desc(&gvr.desc[1], data_addr(1), 8, 0, 0);
	offer(0);
	return expect_getdesc(-EINVAL, range_getrange);
}

static int host_addr_outside_range(void)
{
	host_setup();
	set_desc(&gvr.desc[0], (uintptr_t)gaddr(MEM_SIZE - 4), 8, 0, 0);
	offer(0);
	return expect_getdesc(-EINVAL, range_getrange);
}

/* A getrange that claims all of the 64-bit space. */
static bool everything_getrange(struct vringh *v __attribute__((unused)),
				u64 addr __attribute__((unused)),
				struct vringh_range *r)
{
	r->start = 0;
	r->end_incl = ~0ULL;
	r->offset = (uintptr_t)shm.host - (uintptr_t)shm.guest;
	return true;
}

static int host_addr_wraps(void)
{
	host_setup();
	set_desc(&gvr.desc[0], ~0ULL - 15, 64, 0, 0);
	offer(0);
	return expect_getdesc(-EINVAL, everything_getrange);
}

static int host_avail_idx_jump(void)
{
	host_setup();
	set_desc(&gvr.desc[0], data_addr(0), 8, 0, 0);
	gvr.avail->idx = cpu_to_vringh16(&vrh, NUM + 1);
	return expect_getdesc(-EINVAL, range_getrange);
}

static int host_ring_outside_window(void)
{
	host_setup();
	set_desc(&gvr.desc[0], data_addr(0), 8, 0, 0);
	offer(0);
	/* The host's view of the ring lies outside the user window. */
	__user_addr_min = (char *)shm.host + 8192;
	return expect_getdesc(-EFAULT, range_getrange);
}

static int host_bad_ring_size(void)
{
	struct vring hvr;
	size_t said;
	int err;

	rig_shm_create(&shm, MEM_SIZE);
	vring_init(&hvr, NUM, shm.host, RING_ALIGN);
	capture_begin();
	err = vringh_init_user(&vrh, host_features, 3, true, hvr.desc,
			       hvr.avail, hvr.used);
	said = capture_end();
	rig_shm_destroy(&shm);
	CHECKF(err == -EINVAL, "vringh_init_user(num 3) returned %d", err);
	CHECK(said > 0);
	return 0;
}

/*
 * Guest side: a real queue, a device that lies in the used ring.
 */
static struct virtio_device vdev;
static struct virtqueue *vq;
static void *ring_mem;
static char inbuf[16];

static bool guest_notify(struct virtqueue *q __attribute__((unused)))
{
	return true;
}

/* Add one 16-byte in buffer; return the head the driver used. */
static u16 guest_setup(void)
{
	struct scatterlist sg;

	CHECK(posix_memalign(&ring_mem, RING_ALIGN, MEM_SIZE) == 0);
	memset(ring_mem, 0, MEM_SIZE);
	memset(&vdev, 0, sizeof(vdev));
	INIT_LIST_HEAD(&vdev.vqs);
	spin_lock_init(&vdev.vqs_list_lock);
	vq = vring_new_virtqueue(0, NUM, RING_ALIGN, &vdev, true, false,
				 ring_mem, guest_notify, NULL, "hostile vq");
	CHECK(vq);
	vring_init(&gvr, NUM, ring_mem, RING_ALIGN);
	sg_init_one(&sg, inbuf, sizeof(inbuf));
	CHECK(virtqueue_add_inbuf(vq, &sg, 1, inbuf, GFP_KERNEL) == 0);
	virtqueue_kick(vq);
	return virtio16_to_cpu(&vdev, gvr.avail->ring[0]);
}

static void device_uses(u32 id, u32 len, u16 new_idx)
{
	gvr.used->ring[0].id = cpu_to_virtio32(&vdev, id);
	gvr.used->ring[0].len = cpu_to_virtio32(&vdev, len);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	gvr.used->idx = cpu_to_virtio16(&vdev, new_idx);
}

/* get_buf must return nothing, break the queue and say so. */
static int expect_broken(void)
{
	unsigned int len = 0;
	struct scatterlist sg;
	size_t said;
	void *buf;

	capture_begin();
	buf = virtqueue_get_buf(vq, &len);
	said = capture_end();
	CHECKF(buf == NULL, "get_buf returned %p from a lying device", buf);
	CHECK(virtqueue_is_broken(vq));
	CHECKF(said > 0, "queue broken without a message");

	/* Broken stays broken. */
	CHECK(virtqueue_get_buf(vq, &len) == NULL);
	sg_init_one(&sg, inbuf, sizeof(inbuf));
	CHECK(virtqueue_add_inbuf(vq, &sg, 1, inbuf, GFP_KERNEL) == -EIO);
	CHECK(virtqueue_is_broken(vq));

	/* The buffer can still be reclaimed, and nothing leaks. */
	CHECK(virtqueue_detach_unused_buf(vq) == inbuf);
	vring_del_virtqueue(vq);
	free(ring_mem);
	return 0;
}

static int guest_id_out_of_range(void)
{
	guest_setup();
	device_uses(NUM + 5, 0, 1);
	return expect_broken();
}

static int guest_id_not_in_flight(void)
{
	u16 head = guest_setup();

	device_uses((head + 1) % NUM, 0, 1);
	return expect_broken();
}

static int guest_len_too_big(void)
{
	u16 head = guest_setup();

	device_uses(head, sizeof(inbuf) + 1, 1);
	return expect_broken();
}

static int guest_used_idx_jump(void)
{
	u16 head = guest_setup();

	device_uses(head, 0, NUM + 2);
	return expect_broken();
}

/* virtio_break_device: every queue of the device stops. */
static int guest_break_device(void)
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
	vring_del_virtqueue(vq);
	free(ring_mem);
	return 0;
}

struct hostile_case {
	const char *name;
	int (*run)(void);
	bool host;		/* exercises vringh (else virtio_ring) */
	const char *kernel_gap;	/* the kernel's code does not check this */
};

static const struct hostile_case cases[] = {
	{ "host-head-out-of-range", host_head_out_of_range, true, NULL },
	{ "host-next-out-of-range", host_next_out_of_range, true, NULL },
	{ "host-desc-loop", host_desc_loop, true, NULL },
	{ "host-chain-longer-than-ring", host_chain_longer_than_ring, true, NULL },
	{ "host-indirect-loop", host_indirect_loop, true, NULL },
	{ "host-nested-indirect", host_nested_indirect, true, NULL },
	{ "host-indirect-len-zero", host_indirect_len_zero, true,
	  "the kernel's vringh accepts an empty indirect table" },
	{ "host-indirect-len-odd", host_indirect_len_odd, true, NULL },
	{ "host-indirect-outside-range", host_indirect_outside_range, true, NULL },
	{ "host-readable-after-writable", host_readable_after_writable, true, NULL },
	{ "host-addr-outside-range", host_addr_outside_range, true, NULL },
	{ "host-addr-wraps", host_addr_wraps, true, NULL },
	{ "host-avail-idx-jump", host_avail_idx_jump, true,
	  "the kernel's vringh does not bound the avail index" },
	{ "host-ring-outside-window", host_ring_outside_window, true, NULL },
	{ "host-bad-ring-size", host_bad_ring_size, true, NULL },
	{ "guest-id-out-of-range", guest_id_out_of_range, false, NULL },
	{ "guest-id-not-in-flight", guest_id_not_in_flight, false, NULL },
	{ "guest-len-too-big", guest_len_too_big, false,
	  "the kernel's virtio_ring does not check used lengths" },
	{ "guest-used-idx-jump", guest_used_idx_jump, false,
	  "the kernel's virtio_ring does not bound the used index" },
	{ "guest-break-device", guest_break_device, false, NULL },
};

int main(int argc, char *argv[])
{
	unsigned int i;

	if (argc == 2 && strcmp(argv[1], "--list") == 0) {
		for (i = 0; i < ARRAY_SIZE(cases); i++)
			printf("%s\n", cases[i].name);
		return 0;
	}
	if (argc != 2) {
		fprintf(stderr, "Usage: hostile --list | hostile CASE\n");
		return 1;
	}
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct hostile_case *c = &cases[i];
		const char *impl;

		if (strcmp(argv[1], c->name))
			continue;
		impl = c->host ? rig_host_impl() : rig_guest_impl();
		if (c->kernel_gap && strcmp(impl, "kernel") == 0) {
			printf("%s\n", c->kernel_gap);
			return 77;
		}
		return c->run();
	}
	fprintf(stderr, "hostile: no case '%s'\n", argv[1]);
	fprintf(stderr, "Usage: hostile --list | hostile CASE\n");
	return 1;
}
