// SPDX-License-Identifier: GPL-2.0
/*
 * vringh's IOTLB accessors (what vdpa_sim uses): the ring and its buffers
 * are at I/O addresses, which vringh translates through a vhost_iotlb at
 * every access.  The translation here splits: each I/O page is its own
 * map, onto memory pages in reverse order, so anything longer than a page
 * is pieces in a different order in memory (and more than the 16 pieces
 * vringh translates at a time, for one buffer); and it refuses: a hole (no
 * map), a read-only and a write-only page.  The cases check that a chain
 * and an indirect table across pages are read whole, that pulled and
 * pushed bytes land where the translation says, that the used entry is
 * written through it, and that what the translation refuses is refused
 * with the error Linux 6.1 and 6.12 give (-EFAULT for buffer bytes, tables
 * and used elements, -EINVAL for a ring index not mapped):
 * a buffer or a table in the hole, a push into the read-only page, a pull
 * from the write-only one (also from a buffer only partly readable, which
 * consumes nothing), a buffer wrapping past 2^64, a ring not mapped, a
 * used ring not writable.  Against any vringh: one without the accessors
 * is a SKIP saying so.
 *
 * Usage: iotlb --list | iotlb CASE | iotlb -h.  Exit 0: vringh did it;
 * 1: it did not; 2: usage error; 77: SKIP.
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

#include "harness/harness.h"

/*
 * A case's argument: for refuses(), which of its refusals[]; ORed with VA
 * for the map in user addresses (else pages).
 */
enum { HOLE, TABLE_IN_HOLE, WRAPPING, VA = 0x100 };

#ifdef RIG_VRINGH_INIT_IOTLB_ARGS
#include <linux/vhost_iotlb.h>

static const char help[] =
"Usage: iotlb --list | iotlb --gaps | iotlb CASE\n"
"Run one case of vringh's IOTLB accessors (--list names them).  Exit 0:\n"
"vringh translated or refused as it must; 1: not; 2: usage error; 77:\n"
"SKIP, the linked vringh has no IOTLB accessors.\n";

#define PAGES		33
#define RW_PAGES	30		/* I/O pages 0..29: read-write */
#define HOLE_PAGE	30		/* no map */
#define RO_PAGE		31		/* read-only */
#define WO_PAGE		32		/* write-only */
#define IOVA		0x40000000ULL	/* where the I/O address space starts */
#define RING_SIZE	16
#define OFF_TABLE	(2 * PAGE_SIZE - 48)	/* a table across a page end */

static char *mem;			/* PAGES pages */
static struct vhost_iotlb iotlb;
static spinlock_t iotlb_lock;
static struct vringh vrh;
static struct vring gvr;		/* I/O addresses */

/* The memory behind I/O address @io (it must be mapped). */
static void *mem_at(u64 io)
{
	u64 page = (io - IOVA) / PAGE_SIZE;

	CHECK(io >= IOVA && page < PAGES);
	return mem + (PAGES - 1 - page) * PAGE_SIZE + (io - IOVA) % PAGE_SIZE;
}

/* Write/read @len bytes at I/O address @io, piece by piece. */
static void io_write(u64 io, const void *src, size_t len)
{
	while (len) {
		size_t n = min_t(size_t, len, PAGE_SIZE - (io - IOVA) % PAGE_SIZE);

		memcpy(mem_at(io), src, n);
		io += n;
		src = (const char *)src + n;
		len -= n;
	}
}

static void io_read(u64 io, void *dst, size_t len)
{
	while (len) {
		size_t n = min_t(size_t, len, PAGE_SIZE - (io - IOVA) % PAGE_SIZE);

		memcpy(dst, mem_at(io), n);
		io += n;
		dst = (char *)dst + n;
		len -= n;
	}
}

static void set_desc(unsigned int i, u64 table, u64 addr, u32 len, u16 flags,
		     u16 next)
{
	struct vring_desc d = {
		.addr = cpu_to_vringh64(&vrh, addr),
		.len = cpu_to_vringh32(&vrh, len),
		.flags = cpu_to_vringh16(&vrh, flags),
		.next = cpu_to_vringh16(&vrh, next),
	};

	io_write(table + i * sizeof(d), &d, sizeof(d));
}

static void offer(u16 head)
{
	__virtio16 v;
	u16 idx;

	io_read((uintptr_t)&gvr.avail->idx, &v, sizeof(v));
	idx = vringh16_to_cpu(&vrh, v);
	v = cpu_to_vringh16(&vrh, head);
	io_write((uintptr_t)&gvr.avail->ring[idx % RING_SIZE], &v, sizeof(v));
	v = cpu_to_vringh16(&vrh, idx + 1);
	io_write((uintptr_t)&gvr.avail->idx, &v, sizeof(v));
}

/* Fill @len bytes at @io with a pattern from @seed. */
static void io_pattern(u64 io, size_t len, unsigned int seed)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)(seed + i * 7 + i / 251);

		io_write(io + i, &c, 1);
	}
}

static bool pattern_is(const unsigned char *p, size_t len, unsigned int seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i] != (unsigned char)(seed + i * 7 + i / 251))
			return false;
	return true;
}

/* A page of the ring a case takes away: no map, or another permission. */
static unsigned int bad_page = PAGES;
static unsigned int bad_perm;

static unsigned int page_perm(unsigned int i)
{
	if (i == bad_page)
		return bad_perm;
	if (i == HOLE_PAGE)
		return 0;
	return i == RO_PAGE ? VHOST_MAP_RO :
	       i == WO_PAGE ? VHOST_MAP_WO : VHOST_MAP_RW;
}

static void setup(bool va)
{
	unsigned int i;
	int err;

	mem = aligned_alloc(PAGE_SIZE, PAGES * PAGE_SIZE);
	CHECK(mem);
	memset(mem, 0, PAGES * PAGE_SIZE);
	/* Room for every page (the kernel's iotlb.c refuses maps with limit 0). */
	vhost_iotlb_init(&iotlb, PAGES, 0);
	for (i = 0; i < PAGES; i++) {
		if (!page_perm(i))
			continue;
		CHECK(vhost_iotlb_add_range(&iotlb, IOVA + i * PAGE_SIZE,
					    IOVA + (i + 1) * PAGE_SIZE - 1,
					    (uintptr_t)mem_at(IOVA + i * PAGE_SIZE),
					    page_perm(i)) == 0);
	}
	spin_lock_init(&iotlb_lock);
	/* With _va, what the map gives is a user address: this memory. */
	__user_addr_min = mem;
	__user_addr_max = mem + PAGES * PAGE_SIZE;
	vring_init(&gvr, RING_SIZE, (void *)(uintptr_t)IOVA, PAGE_SIZE);
#ifdef RIG_VRINGH_INIT_IOTLB_VA_ARGS
	if (va)
		err = vringh_init_iotlb_va(&vrh, 1ULL << VIRTIO_RING_F_INDIRECT_DESC,
					   RING_SIZE, true, gvr.desc, gvr.avail,
					   gvr.used);
	else
#else
	if (va)
		rig_skip("%s: linux/vringh.h declares no vringh_init_iotlb_va",
			 rig_case_name);
#endif
		err = vringh_init_iotlb(&vrh, 1ULL << VIRTIO_RING_F_INDIRECT_DESC,
					RING_SIZE, true, gvr.desc, gvr.avail,
					gvr.used);
	CHECK(err == 0);
	vringh_set_iotlb(&vrh, &iotlb, &iotlb_lock);
}

static void teardown(void)
{
	vhost_iotlb_reset(&iotlb);
	__user_addr_min = __user_addr_max = NULL;
	free(mem);
}

/*
 * Head 0: a 6000-byte out buffer from I/O page 2 (three pieces), then an
 * indirect table across the end of page 1 holding a 21-page out buffer
 * (more pieces than vringh translates at once) and a 5000-byte in
 * buffer.  vringh reads the chain whole, the bytes pulled are the
 * pattern, the bytes pushed land through the translation, and the used
 * entry reads back through it.
 */
static int split(unsigned long arg)
{
	static unsigned char got[21 * PAGE_SIZE], push[5000];
	u64 table = IOVA + OFF_TABLE;
	u64 out1 = IOVA + 2 * PAGE_SIZE + 100, out2 = IOVA + 5 * PAGE_SIZE + 8;
	u64 in = IOVA + 27 * PAGE_SIZE + 3000;
	struct vringh_kiov riov, wiov;
	struct vring_used_elem used;
	__virtio16 idx;
	ssize_t n;
	u16 head;
	int err;

	setup(arg & VA);
	io_pattern(out1, 6000, 1);
	io_pattern(out2, 21 * PAGE_SIZE, 2);
	set_desc(0, (uintptr_t)gvr.desc, out1, 6000, VRING_DESC_F_NEXT, 1);
	set_desc(1, (uintptr_t)gvr.desc, table, 2 * sizeof(struct vring_desc),
		 VRING_DESC_F_INDIRECT, 0);
	set_desc(0, table, out2, 21 * PAGE_SIZE, VRING_DESC_F_NEXT, 1);
	set_desc(1, table, in, sizeof(push), VRING_DESC_F_WRITE, 0);
	offer(0);

	vringh_kiov_init(&riov, NULL, 0);
	vringh_kiov_init(&wiov, NULL, 0);
	err = vringh_getdesc_iotlb(&vrh, &riov, &wiov, &head, GFP_KERNEL);
	CHECKF(err == 1, "getdesc_iotlb returned %d", err);
	CHECK(head == 0);
	n = vringh_iov_pull_iotlb(&vrh, &riov, got, 6000);
	CHECKF(n == 6000 && pattern_is(got, 6000, 1),
	       "pulled %zd bytes of the first buffer, or not its bytes", n);
	n = vringh_iov_pull_iotlb(&vrh, &riov, got, sizeof(got));
	CHECKF(n == (ssize_t)sizeof(got) && pattern_is(got, sizeof(got), 2),
	       "pulled %zd bytes of the 21-page buffer, or not its bytes", n);
	memset(push, 0x5a, sizeof(push));
	n = vringh_iov_push_iotlb(&vrh, &wiov, push, sizeof(push));
	CHECKF(n == (ssize_t)sizeof(push), "pushed %zd bytes", n);
	io_read(in, got, sizeof(push));
	CHECK(!memcmp(got, push, sizeof(push)));
	CHECK(vringh_complete_iotlb(&vrh, head, sizeof(push)) == 0);
	io_read((uintptr_t)&gvr.used->idx, &idx, sizeof(idx));
	io_read((uintptr_t)&gvr.used->ring[0], &used, sizeof(used));
	CHECK(vringh16_to_cpu(&vrh, idx) == 1);
	CHECK(vringh32_to_cpu(&vrh, used.id) == 0 &&
	      vringh32_to_cpu(&vrh, used.len) == sizeof(push));
	CHECK(vringh_need_notify_iotlb(&vrh) == 1);
	vringh_kiov_cleanup(&riov);
	vringh_kiov_cleanup(&wiov);
	teardown();
	return 0;
}

/*
 * Offer head @head, one descriptor (@addr, @len, @flags), take it and
 * transfer @want bytes: pushed if @flags has VRING_DESC_F_WRITE, else
 * pulled.  Returns the pull or push result.
 */
static ssize_t transfer(u16 head, u64 addr, u32 len, u16 flags, size_t want)
{
	static unsigned char buf[PAGE_SIZE];
	struct vringh_kiov riov, wiov;
	ssize_t n;
	int err;

	set_desc(head, (uintptr_t)gvr.desc, addr, len, flags, 0);
	offer(head);
	vringh_kiov_init(&riov, NULL, 0);
	vringh_kiov_init(&wiov, NULL, 0);
	err = vringh_getdesc_iotlb(&vrh, &riov, &wiov, &head, GFP_KERNEL);
	if (err != 1) {
		vringh_kiov_cleanup(&riov);
		vringh_kiov_cleanup(&wiov);
		return err < 0 ? err : -ENODATA;
	}
	n = flags & VRING_DESC_F_WRITE ?
		vringh_iov_push_iotlb(&vrh, &wiov, buf, want) :
		vringh_iov_pull_iotlb(&vrh, &riov, buf, want);
	vringh_kiov_cleanup(&riov);
	vringh_kiov_cleanup(&wiov);
	return n;
}

/* First a good buffer (head 2, page 10), which must go through. */
static void good_buffer_first(void)
{
	ssize_t n = transfer(2, IOVA + 10 * PAGE_SIZE, 64, 0, 64);

	CHECKF(n == 64, "a good buffer: %zd", n);
}

/* After a good buffer, one that must be refused (head 0, pulled). */
static const struct refusal {
	u64 addr;
	u32 len;
	u16 flags;
	size_t want;
	bool any_error;		/* any error will do, else -EFAULT */
	const char *what;
} refusals[] = {
	/* from the last read-write page into the hole */
	[HOLE] = { IOVA + HOLE_PAGE * PAGE_SIZE - 16, 64, 0, 64, false,
	  "a buffer into the unmapped page" },
	/* an indirect table in the hole */
	[TABLE_IN_HOLE] = { IOVA + HOLE_PAGE * PAGE_SIZE, sizeof(struct vring_desc),
	  VRING_DESC_F_INDIRECT, 8, false,
	  "an indirect table in the unmapped page" },
	/* a buffer whose end wraps past 2^64: never translated */
	[WRAPPING] = { ~0ULL - 15, 64, 0, 64, true, "a buffer wrapping past 2^64" },
};

static int refuses(unsigned long arg)
{
	const struct refusal *r = &refusals[arg & ~VA];
	ssize_t n;

	setup(arg & VA);
	good_buffer_first();
	n = transfer(0, r->addr, r->len, r->flags, r->want);
	CHECKF(r->any_error ? n < 0 : n == -EFAULT, "%s: %zd (bytes pulled, or not %s)",
	       r->what, n, r->any_error ? "an error" : "-EFAULT");
	teardown();
	return 0;
}

/* The read-only page: read from, yes; written to, no. */
static int refuses_readonly(unsigned long arg)
{
	ssize_t n;

	setup(arg & VA);
	n = transfer(0, IOVA + RO_PAGE * PAGE_SIZE, 64, 0, 64);
	CHECKF(n == 64, "pull from the read-only page: %zd", n);
	n = transfer(1, IOVA + RO_PAGE * PAGE_SIZE, 64, VRING_DESC_F_WRITE, 64);
	CHECKF(n == -EFAULT, "push into the read-only page: %zd (bytes pushed, or not -EFAULT)", n);
	teardown();
	return 0;
}

/* The write-only page: written to, yes; read from, no. */
static int refuses_writeonly(unsigned long arg)
{
	ssize_t n;

	setup(arg & VA);
	n = transfer(0, IOVA + WO_PAGE * PAGE_SIZE, 64, VRING_DESC_F_WRITE, 64);
	CHECKF(n == 64, "push into the write-only page: %zd", n);
	n = transfer(1, IOVA + WO_PAGE * PAGE_SIZE, 64, 0, 64);
	CHECKF(n == -EFAULT, "pull from the write-only page: %zd (bytes pulled, or not -EFAULT)", n);
	teardown();
	return 0;
}

/*
 * A device-readable buffer from the end of the read-only page into the
 * write-only one, pulled: refused with -EFAULT, and nothing consumed: a
 * pull of the readable part alone then gives its bytes.
 */
static int refuses_writeonly_tail(unsigned long arg)
{
	static unsigned char buf[64];
	u64 at = IOVA + WO_PAGE * PAGE_SIZE - 32;
	struct vringh_kiov riov, wiov;
	ssize_t n;
	u16 head;

	setup(arg & VA);
	io_pattern(at, 64, 3);
	set_desc(0, (uintptr_t)gvr.desc, at, 64, 0, 0);
	offer(0);
	vringh_kiov_init(&riov, NULL, 0);
	vringh_kiov_init(&wiov, NULL, 0);
	CHECK(vringh_getdesc_iotlb(&vrh, &riov, &wiov, &head, GFP_KERNEL) == 1);
	n = vringh_iov_pull_iotlb(&vrh, &riov, buf, sizeof(buf));
	CHECKF(n == -EFAULT, "pull across into the write-only page: %zd (bytes pulled, or not -EFAULT)", n);
	n = vringh_iov_pull_iotlb(&vrh, &riov, buf, 32);
	CHECKF(n == 32 && pattern_is(buf, 32, 3),
	       "the readable part after the refusal: %zd bytes, or not its bytes", n);
	vringh_kiov_cleanup(&riov);
	vringh_kiov_cleanup(&wiov);
	teardown();
	return 0;
}

/* The descriptor table and avail ring (I/O page 0) not mapped at all. */
static int refuses_ring_unmapped(unsigned long arg)
{
	struct vringh_kiov riov, wiov;
	u16 head;
	int err;

	bad_page = 0;
	bad_perm = 0;
	setup(arg & VA);
	bad_page = PAGES;
	set_desc(0, (uintptr_t)gvr.desc, IOVA + 10 * PAGE_SIZE, 64, 0, 0);
	offer(0);
	vringh_kiov_init(&riov, NULL, 0);
	vringh_kiov_init(&wiov, NULL, 0);
	err = vringh_getdesc_iotlb(&vrh, &riov, &wiov, &head, GFP_KERNEL);
	CHECKF(err == -EINVAL, "getdesc with the ring unmapped: %d, not -EINVAL", err);
	vringh_kiov_cleanup(&riov);
	vringh_kiov_cleanup(&wiov);
	teardown();
	return 0;
}

/*
 * The used ring (I/O page 1) read-only: a buffer is taken and read, and
 * completing it is refused, the used index left as it was.
 */
static int refuses_used_readonly(unsigned long arg)
{
	__virtio16 idx;
	int err;

	bad_page = 1;
	bad_perm = VHOST_MAP_RO;
	setup(arg & VA);
	bad_page = PAGES;
	good_buffer_first();
	err = vringh_complete_iotlb(&vrh, 2, 0);
	CHECKF(err == -EFAULT, "complete into a read-only used ring: %d, not -EFAULT", err);
	io_read((uintptr_t)&gvr.used->idx, &idx, sizeof(idx));
	CHECKF(vringh16_to_cpu(&vrh, idx) == 0,
	       "the used index moved to %u", vringh16_to_cpu(&vrh, idx));
	teardown();
	return 0;
}
#else
static int no_iotlb(unsigned long arg __attribute__((unused)))
{
	rig_skip("%s: linux/vringh.h declares no vringh_init_iotlb (the %s vringh has no IOTLB accessors)",
		 rig_case_name, rig_host_impl());
}
#define split			no_iotlb
#define refuses		no_iotlb
#define refuses_readonly	no_iotlb
#define refuses_writeonly	no_iotlb
#define refuses_writeonly_tail	no_iotlb
#define refuses_ring_unmapped	no_iotlb
#define refuses_used_readonly	no_iotlb
#endif

static const struct rig_case cases[] = {
	RIG_HOST_CASE_ARG("split-across-pages", split, 0),
	RIG_HOST_CASE_ARG("split-across-pages-va", split, VA),
	RIG_HOST_CASE_ARG("refuses-hole", refuses, HOLE),
	RIG_HOST_CASE_ARG("refuses-hole-va", refuses, HOLE | VA),
	RIG_HOST_CASE_ARG("refuses-table-in-hole", refuses, TABLE_IN_HOLE),
	RIG_HOST_CASE_ARG("refuses-readonly", refuses_readonly, 0),
	RIG_HOST_CASE_ARG("refuses-readonly-va", refuses_readonly, VA),
	RIG_HOST_CASE_ARG("refuses-writeonly", refuses_writeonly, 0),
	RIG_HOST_CASE_ARG("refuses-writeonly-tail", refuses_writeonly_tail, 0),
	RIG_HOST_CASE_ARG("refuses-wrapping", refuses, WRAPPING),
	RIG_HOST_CASE_ARG("refuses-ring-unmapped", refuses_ring_unmapped, 0),
	RIG_HOST_CASE_ARG("refuses-used-readonly", refuses_used_readonly, 0),
	RIG_HOST_CASE_ARG("refuses-used-readonly-va", refuses_used_readonly, VA),
};

RIG_CASE_MAIN(cases, help)
