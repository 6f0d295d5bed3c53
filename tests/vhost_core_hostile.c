// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile rings against the kernel's vhost core (kernel/vhost_core.h): the
 * host-side cases of tests/hostile_host.c and its spec-rule cases, on a
 * split ring written by hand as a malicious guest would, served by the tree's
 * vhost_get_vq_desc() (vhost_core_serve()).  A case passes when the core
 * refuses: no buffer used, an error returned, and vq_err() called (its
 * error eventfd signalled); or, for a bad ring set-up, when the ioctl that
 * sets it up fails.  What the core is known not to check is the case's
 * gap: a TODO (exit 78), a pass saying the gap is gone if a tree does.
 *
 * The in-order-* cases run the core's in-order path through the rig's
 * batch device (kernel/vhost_batch.c, VIRTIO_F_IN_ORDER negotiated): its
 * error paths (a bad buffer after good ones, requests it refuses), the
 * batches it writes (2.7.9), and a queue stopped and started again at its
 * avail index.  A tree without the in-order vhost core SKIPs them (77).
 *
 * Usage: vhost_core_hostile --list | vhost_core_hostile CASE
 * Exit 0 refused, 1 not, 2 usage error, 77 no vhost core in this build
 * (SKIP), 78 a known gap.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>

#include <linux/virtio_config.h>
#include <linux/virtio_ring.h>

#include "harness/harness.h"
#include "kernel/vhost_core.h"
#include "tests/chain.h"

static const char help[] =
"Usage: vhost_core_hostile --list | vhost_core_hostile --gaps | vhost_core_hostile CASE\n"
"Run one hostile-ring case against the kernel's vhost core (--list names\n"
"them all).  Exit 0: the core refused it; 1: it did not; 2: usage error;\n"
"77: SKIP, no vhost core in this build (make KSRC=); 78: TODO, the core is\n"
"known not to check it (a pass then says the gap is gone).\n";

#define RING_SIZE	16
#define MEM_BYTES	(64 * 1024)
#define FEATURES	(1ULL << VIRTIO_F_VERSION_1 | 1ULL << VIRTIO_RING_F_INDIRECT_DESC)

static struct vhost_core *core;
static enum vhost_core_device device = VHOST_CORE_TEST;
static size_t mem_bytes = MEM_BYTES;
static struct vring vr;
static void *ring;
static struct vring_desc *tbl;	/* room for an indirect table */
static char *data;
static int call_fd = -1;

/* The core, with a zeroed ring, a table page and a data page in its memory. */
static void open_core(void)
{
	const char *why;

	core = vhost_core_open(device, mem_bytes, -1, &why);
	if (!core)
		rig_skip("%s: %s", rig_case_name, why);
	ring = vhost_core_alloc(core, vring_size(RING_SIZE, RIG_RING_ALIGN));
	tbl = vhost_core_alloc(core, 4096);
	data = vhost_core_alloc(core, 4096);
	CHECK(ring && tbl && data);
	memset(ring, 0, vring_size(RING_SIZE, RIG_RING_ALIGN));
	vring_init(&vr, RING_SIZE, ring, RIG_RING_ALIGN);
	call_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	CHECK(call_fd >= 0);
}

static void close_core(void)
{
	vhost_core_close(core);
	close(call_fd);
}

static void setup_features(u64 features)
{
	const char *what = "";
	int err;

	open_core();
	err = vhost_core_start(core, features, RING_SIZE, vr.desc, vr.avail,
			       vr.used, -1, call_fd, &what);
	CHECKF(err == 0, "%s: %d", what, err);
}

static void setup(void)
{
	setup_features(FEATURES);
}

static u64 data_addr(unsigned int n)
{
	return (uintptr_t)(data + n * 64);
}

static void offer(u16 head)
{
	u16 idx = le16_to_cpu(vr.avail->idx);

	vr.avail->ring[idx % RING_SIZE] = cpu_to_le16(head);
	vr.avail->idx = cpu_to_le16(idx + 1);
}

/* LAY: rows (tests/chain.h) into table @t; OFFER: into the ring, first row the head. */
#define LAY(t, ...)	chain_lay(chain_set_desc_le, t, CHAIN_ROWS(__VA_ARGS__))
#define OFFER(...)	chain_offer(chain_set_desc_le, offer, vr.desc, CHAIN_ROWS(__VA_ARGS__))

/*
 * Serve the ring: the core must refuse, say so (vq_err()), and use nothing
 * more than the @used buffers it had.
 */
static int expect_refused_at(u16 used)
{
	int r = vhost_core_serve(core);
	u16 now = le16_to_cpu(vr.used->idx);
	bool said = vhost_core_failed(core);

	close_core();
	CHECKF_GAP(r < 0 && now == used, "the vhost core took it: vhost_core_serve() %d, used index %u",
	           r, now);
	CHECKF(said, "refused (%d) without vq_err()", r);
	return 0;
}

static int expect_refused(void)
{
	return expect_refused_at(0);
}

static int head_out_of_range(void)
{
	setup();
	offer(RING_SIZE);
	return expect_refused();
}

static int next_out_of_range(void)
{
	setup();
	chain_set_desc_le(&vr.desc[0], data_addr(0), 8, VRING_DESC_F_NEXT, RING_SIZE + 3);
	offer(0);
	return expect_refused();
}

static int desc_loop(void)
{
	setup();
	OFFER(CHAIN_LOOP(data_addr));
	return expect_refused();
}

static int chain_longer_than_ring(void)
{
	setup();
	chain_offer_ring_loop(chain_set_desc_le, offer, vr.desc, RING_SIZE, data_addr(0));
	return expect_refused();
}

static int indirect_loop(void)
{
	setup();
	LAY(tbl, { 0, data_addr(0), 8, VRING_DESC_F_NEXT, 1 },
		 { 1, data_addr(1), 8, VRING_DESC_F_NEXT, 0 });
	OFFER({ 0, (uintptr_t)tbl, 2 * sizeof(*tbl), VRING_DESC_F_INDIRECT, 0 });
	return expect_refused();
}

static int nested_indirect(void)
{
	setup();
	LAY(tbl, { 0, (uintptr_t)&tbl[4], 2 * sizeof(*tbl), VRING_DESC_F_INDIRECT, 0 },
		 { 4, data_addr(0), 8, 0, 0 });
	OFFER({ 0, (uintptr_t)tbl, sizeof(*tbl), VRING_DESC_F_INDIRECT, 0 });
	return expect_refused();
}

static int indirect_len_zero(void)
{
	setup();
	chain_set_desc_le(&vr.desc[0], (uintptr_t)tbl, 0, VRING_DESC_F_INDIRECT, 0);
	offer(0);
	return expect_refused();
}

static int indirect_len_odd(void)
{
	setup();
	chain_set_desc_le(&vr.desc[0], (uintptr_t)tbl, 24, VRING_DESC_F_INDIRECT, 0);
	offer(0);
	return expect_refused();
}

/* Past the end of the memory table's one region. */
static u64 outside(void)
{
	return (uintptr_t)data + MEM_BYTES + 4096;
}

static int indirect_outside_range(void)
{
	setup();
	chain_set_desc_le(&vr.desc[0], outside(), 32, VRING_DESC_F_INDIRECT, 0);
	offer(0);
	return expect_refused();
}

static int readable_after_writable(void)
{
	setup();
	OFFER({ 0, data_addr(0), 8, VRING_DESC_F_WRITE | VRING_DESC_F_NEXT, 1 },
	      { 1, data_addr(1), 8, 0, 0 });
	return expect_refused();
}

static int addr_outside_range(void)
{
	setup();
	chain_set_desc_le(&vr.desc[0], outside(), 8, 0, 0);
	offer(0);
	return expect_refused();
}

static int addr_wraps(void)
{
	setup();
	chain_set_desc_le(&vr.desc[0], ~0ULL - 15, 64, 0, 0);
	offer(0);
	return expect_refused();
}

static int avail_idx_jump(void)
{
	setup();
	chain_set_desc_le(&vr.desc[0], data_addr(0), 8, 0, 0);
	vr.avail->idx = cpu_to_le16(RING_SIZE + 1);
	return expect_refused();
}

/* A ring set-up the core must refuse: the ioctl fails. */
static int expect_start_refused(unsigned int num, void *desc, void *avail, void *used)
{
	const char *what = "";
	int err;

	err = vhost_core_start(core, FEATURES, num, desc, avail, used, -1, call_fd, &what);
	close_core();
	CHECKF_GAP(err < 0, "the vhost core took the ring (num %u, desc %p avail %p used %p)",
	           num, desc, avail, used);
	return 0;
}

static int bad_ring_size(void)
{
	open_core();
	return expect_start_refused(RING_SIZE - 1, vr.desc, vr.avail, vr.used);
}

static int ring_outside_memory(void)
{
	open_core();
	return expect_start_refused(RING_SIZE, (void *)(uintptr_t)outside(), vr.avail, vr.used);
}

/* A descriptor table 8 bytes off its 16-byte alignment (2.7.2). */
static int spec_ring_misaligned(void)
{
	open_core();
	return expect_start_refused(RING_SIZE, (char *)vr.desc + 8, vr.avail, vr.used);
}

static int spec_indirect_not_negotiated(void)
{
	setup_features(1ULL << VIRTIO_F_VERSION_1);
	LAY(tbl, { 0, data_addr(0), 8, 0, 0 });
	OFFER({ 0, (uintptr_t)tbl, sizeof(*tbl), VRING_DESC_F_INDIRECT, 0 });
	return expect_refused();
}

static int spec_indirect_with_next(void)
{
	setup();
	LAY(tbl, { 0, data_addr(0), 8, 0, 0 });
	OFFER({ 0, (uintptr_t)tbl, sizeof(*tbl), VRING_DESC_F_INDIRECT | VRING_DESC_F_NEXT, 1 },
	      { 1, data_addr(1), 8, 0, 0 });
	return expect_refused();
}

/* An indirect table of RING_SIZE + 1 entries (2.7.5.3.1: at most the queue size). */
static int spec_table_longer_than_queue(void)
{
	unsigned int i;

	setup();
	for (i = 0; i <= RING_SIZE; i++)
		chain_set_desc_le(&tbl[i], data_addr(0), 8, i < RING_SIZE ? VRING_DESC_F_NEXT : 0, i + 1);
	chain_set_desc_le(&vr.desc[0], (uintptr_t)tbl, (RING_SIZE + 1) * sizeof(*tbl),
		 VRING_DESC_F_INDIRECT, 0);
	offer(0);
	return expect_refused();
}

/* The driver moved the avail index back (2.7.13: it only grows). */
static int spec_avail_idx_back(void)
{
	setup();
	chain_set_desc_le(&vr.desc[0], data_addr(0), 8, 0, 0);
	offer(0);
	CHECK(vhost_core_serve(core) == 1);
	vr.avail->idx = cpu_to_le16(0);
	return expect_refused_at(1);
}

/*
 * In order, through the batch device: what the core's in-order path (no
 * avail ring read; batches of used entries, vhost_add_used_n() with
 * nheads) does with a ring.
 */
#define IN_ORDER	(FEATURES | 1ULL << VIRTIO_F_IN_ORDER)

static void setup_in_order(u64 features)
{
	device = VHOST_CORE_BATCH;
	setup_features(features);
}

/* One used entry: at slot @slot, buffer @id, length 0. */
static void expect_used(unsigned int slot, u16 id)
{
	CHECKF(le32_to_cpu(vr.used->ring[slot].id) == id && vr.used->ring[slot].len == 0,
	       "used slot %u holds id %u length %u, expected id %u length 0", slot,
	       le32_to_cpu(vr.used->ring[slot].id), le32_to_cpu(vr.used->ring[slot].len), id);
}

/* A buffer the core cannot translate, after one it can: the first is used. */
static int in_order_bad_after_good(void)
{
	setup_in_order(IN_ORDER);
	OFFER({ 0, data_addr(0), 8, 0, 0 });
	OFFER({ 1, outside(), 8, 0, 0 });
	CHECKF(vhost_core_serve(core) < 0, "the core took a buffer outside its memory");
	CHECKF(le16_to_cpu(vr.used->idx) == 1, "used index %u, expected 1: the good buffer used",
	       le16_to_cpu(vr.used->idx));
	expect_used(0, 0);
	CHECKF(vhost_core_failed(core), "refused without vq_err()");
	close_core();
	return 0;
}

/*
 * Requests the batch device refuses: a feature it does not offer, a batch
 * of 0 or more than a used entry can count (nheads is a u16); and the
 * test device, which has no batches, refuses VHOST_BATCH_SET_SIZE.
 */
static int in_order_bad_requests(void)
{
	const char *what = "";
	int err;

	device = VHOST_CORE_BATCH;
	open_core();
	err = vhost_core_start(core, IN_ORDER | 1ULL << VIRTIO_F_RING_PACKED, RING_SIZE,
			       vr.desc, vr.avail, vr.used, -1, call_fd, &what);
	CHECKF(err == -EOPNOTSUPP, "VHOST_SET_FEATURES with a packed ring: %d (%s)", err, what);
	CHECKF(vhost_core_set_batch(core, 0, &what) == -EINVAL, "a batch of 0 taken");
	CHECKF(vhost_core_set_batch(core, 65536, &what) == -EINVAL, "a batch of 65536 taken");
	CHECK(vhost_core_set_batch(core, 65535, &what) == 0);
	close_core();
	device = VHOST_CORE_TEST;
	open_core();
	err = vhost_core_set_batch(core, 4, &what);
	CHECKF(err < 0, "the test device took VHOST_BATCH_SET_SIZE: %d", err);
	close_core();
	return 0;
}

/*
 * 2.7.9: a batch is one used entry, in the slot of its first buffer,
 * naming its last, and the used index moves by the batch's length.  At
 * most 4 buffers a batch here; a buffer with writable parts ends its
 * batch (the driver takes earlier ones as written whole); the second
 * round wraps the descriptor table and the used ring.
 */
static int in_order_batches(void)
{
	const char *what = "";
	unsigned int i, d;

	setup_in_order(IN_ORDER);
	CHECK(vhost_core_set_batch(core, 4, &what) == 0);
	for (i = 0; i < 10; i++)
		OFFER({ i, data_addr(i), 8, i == 5 ? VRING_DESC_F_WRITE : 0, 0 });
	CHECKF(vhost_core_serve(core) == 10, "round 1: not 10 buffers used");
	CHECKF(le16_to_cpu(vr.used->idx) == 10, "round 1: used index %u", le16_to_cpu(vr.used->idx));
	expect_used(0, 3);	/* 0..3 */
	expect_used(4, 5);	/* 4, 5: writable */
	expect_used(6, 9);	/* 6..9 */
	for (i = 10; i < 20; i++) {
		d = i % RING_SIZE;
		OFFER({ d, data_addr(d), 8, 0, 0 });
	}
	CHECKF(vhost_core_serve(core) == 10, "round 2: not 10 buffers used");
	CHECKF(le16_to_cpu(vr.used->idx) == 20, "round 2: used index %u", le16_to_cpu(vr.used->idx));
	expect_used(10, 13);	/* 10..13 */
	expect_used(14, 1);	/* 14, 15, 0, 1 */
	expect_used(2, 3);	/* 2, 3 */
	CHECKF(!vhost_core_failed(core), "vq_err() on a good ring");
	close_core();
	return 0;
}

/*
 * ---- Bounds at their edges ----
 *
 * The largest value each bound of the core accepts, next to its cases
 * above that take the first one past it: served, every buffer used, no
 * vq_err().
 */
static int expect_served(u16 used)
{
	int r = vhost_core_serve(core);
	u16 now = le16_to_cpu(vr.used->idx);
	bool said = vhost_core_failed(core);

	close_core();
	CHECKF(r == used && now == used && !said,
	       "vhost_core_serve() %d, used index %u (wanted %u), vq_err() %s", r, now, used,
	       said ? "called" : "not called");
	return 0;
}

/* Edge of head-out-of-range: the last descriptor as a head. */
static int head_last(void)
{
	setup();
	chain_set_desc_le(&vr.desc[RING_SIZE - 1], data_addr(0), 8, 0, 0);
	offer(RING_SIZE - 1);
	return expect_served(1);
}

/* Edges of next-out-of-range: a chain into the last descriptor; to the ring size. */
static int next_last(void)
{
	setup();
	OFFER({ 0, data_addr(0), 8, VRING_DESC_F_NEXT, RING_SIZE - 1 },
	      { RING_SIZE - 1, data_addr(1), 8, 0, 0 });
	return expect_served(1);
}

static int next_at_ring_size(void)
{
	setup();
	chain_set_desc_le(&vr.desc[0], data_addr(0), 8, VRING_DESC_F_NEXT, RING_SIZE);
	offer(0);
	return expect_refused();
}

/* Edge of avail-idx-jump: a whole ring available at once. */
static int avail_idx_full(void)
{
	unsigned int i;

	setup();
	for (i = 0; i < RING_SIZE; i++) {
		chain_set_desc_le(&vr.desc[i], data_addr(i % 8), 8, 0, 0);
		offer(i);
	}
	return expect_served(RING_SIZE);
}

/* Edge of chain-longer-than-ring: a chain of every descriptor. */
static int chain_whole_ring(void)
{
	unsigned int i;

	setup();
	for (i = 0; i < RING_SIZE; i++)
		chain_set_desc_le(&vr.desc[i], data_addr(0), 1, i + 1 < RING_SIZE ? VRING_DESC_F_NEXT : 0,
			 i + 1);
	offer(0);
	return expect_served(1);
}

/*
 * The core reads an indirect table's entries in order, whatever their
 * next fields say, and at most the table's entries: a table of three
 * chained to its last (at), or whose last entry chains on (past: a loop,
 * refused).
 */
static void offer_table_of_3(bool chains_on)
{
	unsigned int i;

	setup();
	for (i = 0; i < 3; i++)
		chain_set_desc_le(&tbl[i], data_addr(i), 8, i < 2 || chains_on ? VRING_DESC_F_NEXT : 0, i + 1);
	chain_set_desc_le(&vr.desc[0], (uintptr_t)tbl, 3 * sizeof(*tbl), VRING_DESC_F_INDIRECT, 0);
	offer(0);
}

static int indirect_table_whole(void)
{
	offer_table_of_3(false);
	return expect_served(1);
}

static int indirect_table_one_more(void)
{
	offer_table_of_3(true);
	return expect_refused();
}

/* A buffer whose last byte is the region's last (at), or one past it. */
static int addr_at_memory_end(unsigned long past)
{
	setup();
	chain_set_desc_le(&vr.desc[0], (uintptr_t)vhost_core_mem_end(core) - 8 + past, 8, 0, 0);
	offer(0);
	return past ? expect_refused() : expect_served(1);
}

/*
 * The used ring with its last field, avail_event (EVENT_IDX), at the end
 * of the region: the last 4-aligned place it fits, its last byte 2 short
 * of the end (at: set up, it serves), or the next one, avail_event's 2
 * bytes past the end (past: VHOST_SET_VRING_ADDR refuses it).
 */
static int used_ring_at_memory_end(unsigned long past)
{
	const size_t used_bytes = 6 + 8 * RING_SIZE;
	u64 features = FEATURES | 1ULL << VIRTIO_RING_F_EVENT_IDX;
	const char *what = "";
	void *used;
	int err;

	open_core();
	used = (char *)vhost_core_mem_end(core) - used_bytes - 2 + (past ? 4 : 0);
	err = vhost_core_start(core, features, RING_SIZE, vr.desc, vr.avail, used, -1, call_fd,
			       &what);
	if (past) {
		close_core();
		CHECKF_GAP(err < 0, "the vhost core took a used ring whose last field lies past its memory");
		return 0;
	}
	CHECKF(err == 0, "%s: %d", what, err);
	vr.used = used;
	chain_set_desc_le(&vr.desc[0], data_addr(0), 8, 0, 0);
	offer(0);
	return expect_served(1);
}

/* Ring sizes: 32768 (the largest: set up, serves), 65536 (refused). */
static int ring_size_edge(unsigned long past)
{
	unsigned int num = past ? 65536 : 32768;
	const char *what = "";
	void *r;
	int err;

	mem_bytes = 2 << 20;
	open_core();
	r = vhost_core_alloc(core, vring_size(32768, RIG_RING_ALIGN));
	CHECK(r);
	memset(r, 0, vring_size(32768, RIG_RING_ALIGN));
	vring_init(&vr, 32768, r, RIG_RING_ALIGN);
	err = vhost_core_start(core, FEATURES, num, vr.desc, vr.avail, vr.used, -1, call_fd, &what);
	close_core();
	if (past)
		CHECKF_GAP(err < 0, "the vhost core took a ring of %u", num);
	else
		CHECKF(err == 0, "a ring of %u: %s: %d", num, what, err);
	return 0;
}

/*
 * A queue stopped between buffers and started again where it stopped, as
 * VHOST_GET_VRING_BASE then VHOST_SET_VRING_BASE with the same avail
 * index do (a backend restarted, a migration).  In order, buffers of two
 * chained descriptors: the second buffer's head is descriptor 2, the
 * avail ring says so, and a device that resumes in ring order starts
 * there.  The core resumes at the avail index (1), as if every buffer
 * took one descriptor, and uses descriptor 1, the first buffer's tail.
 */
static int in_order_restart_chained(void)
{
	const char *what = "";
	u16 base;
	u32 id;
	int r;

	setup_in_order(IN_ORDER & ~(1ULL << VIRTIO_RING_F_INDIRECT_DESC));
	OFFER({ 0, data_addr(0), 8, VRING_DESC_F_NEXT, 1 }, { 1, data_addr(1), 8, 0, 0 });
	CHECK(vhost_core_serve(core) == 1);
	expect_used(0, 0);
	CHECKF(vhost_core_stop(core, &base, &what) == 0 && base == 1,
	       "stop: %s, avail index %u", what, base);
	CHECKF(vhost_core_restart(core, base, &what) == 0, "restart: %s", what);
	OFFER({ 2, data_addr(2), 8, VRING_DESC_F_NEXT, 3 }, { 3, data_addr(3), 8, 0, 0 });
	r = vhost_core_serve(core);
	CHECKF(r == 1 && le16_to_cpu(vr.used->idx) == 2, "after the restart: %d used, used index %u",
	       r, le16_to_cpu(vr.used->idx));
	id = le32_to_cpu(vr.used->ring[1].id);
	close_core();
	CHECKF_GAP(id == 2, "after the restart the core used descriptor %u, not the second buffer's head 2",
		   id);
	return 0;
}

/*
 * The glue's argument page and the core's region count: VHOST_SET_MEM_TABLE
 * with @a one-page regions.  The core takes 64 (its max_mem_regions
 * default) and refuses 65 (-E2BIG); 127 fill the argument page, which the
 * core refuses (-E2BIG) but the page holds; 128 do not fit it, and the
 * glue refuses them itself (-E2BIG) without writing past the page into
 * guest memory.
 */
struct core_mem_region {
	u64 guest_phys_addr, memory_size, userspace_addr, flags_padding;
};
struct core_mem {
	u32 nregions, padding;
	struct core_mem_region regions[];
};
#define CORE_SET_MEM_TABLE	_IOW(0xAF, 0x03, struct core_mem)

static int mem_table(unsigned long nregions)
{
	size_t bytes = sizeof(struct core_mem) + nregions * sizeof(struct core_mem_region);
	struct core_mem *t = calloc(1, bytes);
	char *mem, *start;
	unsigned int i;
	long r;

	CHECK(t);
	mem_bytes = 128 * 4096;
	open_core();
	start = (char *)vhost_core_mem_end(core) - mem_bytes;
	mem = vhost_core_alloc(core, 64 * 4096);
	CHECK(mem);
	t->nregions = nregions;
	for (i = 0; i < nregions; i++) {
		t->regions[i].guest_phys_addr = (uintptr_t)mem + (i % 64) * 4096 + (i / 64) * (1ULL << 40);
		t->regions[i].memory_size = 4096;
		t->regions[i].userspace_addr = (uintptr_t)mem + (i % 64) * 4096;
		/* Past the core's 64, a mark: copied past the page, it shows. */
		t->regions[i].flags_padding = i < 64 ? 0 : ~0ULL;
	}
	/* The guest memory right after the argument page: it must stay 0. */
	memset(start, 0, 64);
	r = vhost_core_ioctl(core, CORE_SET_MEM_TABLE, t, bytes);
	free(t);
	for (i = 0; i < 64; i++)
		CHECKF(!start[i], "a memory table of %lu regions wrote byte %u of guest memory", nregions, i);
	close_core();
	if (nregions <= 64)
		CHECKF(r == 0, "a memory table of %lu regions: %ld", nregions, r);
	else
		CHECKF(r == -E2BIG, "a memory table of %lu regions: %ld, not -E2BIG", nregions, r);
	return 0;
}

/* A case's gap is what the kernel's vhost core does not check. */
static const struct rig_case cases[] = {
	RIG_HOST_CASE("head-out-of-range", head_out_of_range),
	RIG_HOST_CASE("next-out-of-range", next_out_of_range),
	RIG_HOST_CASE("desc-loop", desc_loop),
	RIG_HOST_CASE("chain-longer-than-ring", chain_longer_than_ring),
	RIG_HOST_CASE("indirect-loop", indirect_loop),
	RIG_HOST_CASE("nested-indirect", nested_indirect),
	RIG_HOST_CASE("indirect-len-zero", indirect_len_zero),
	RIG_HOST_CASE("indirect-len-odd", indirect_len_odd),
	RIG_HOST_CASE("indirect-outside-range", indirect_outside_range),
	RIG_HOST_CASE("readable-after-writable", readable_after_writable),
	RIG_HOST_CASE("addr-outside-range", addr_outside_range),
	RIG_HOST_CASE("addr-wraps", addr_wraps),
	RIG_HOST_CASE("avail-idx-jump", avail_idx_jump),
	RIG_HOST_CASE("bad-ring-size", bad_ring_size),
	RIG_HOST_CASE("ring-outside-memory", ring_outside_memory),
	RIG_HOST_CASE_GAP("spec-ring-misaligned", spec_ring_misaligned,
			  "the kernel's vhost core checks the avail and used rings' alignment, not the descriptor table's"),
	RIG_HOST_CASE_GAP("spec-indirect-not-negotiated", spec_indirect_not_negotiated,
			  "the kernel's vhost core takes indirect tables whether or not VIRTIO_RING_F_INDIRECT_DESC was negotiated"),
	RIG_HOST_CASE_GAP("spec-indirect-with-next", spec_indirect_with_next,
			  "the kernel's vhost core follows NEXT after an indirect table"),
	RIG_HOST_CASE_GAP("spec-table-longer-than-queue", spec_table_longer_than_queue,
			  "the kernel's vhost core bounds an indirect table by its own length, not the queue size"),
	RIG_HOST_CASE("spec-avail-idx-back", spec_avail_idx_back),
	RIG_HOST_CASE("in-order-bad-after-good", in_order_bad_after_good),
	RIG_HOST_CASE("in-order-bad-requests", in_order_bad_requests),
	RIG_HOST_CASE("in-order-batches", in_order_batches),
	RIG_HOST_CASE_GAP("in-order-restart-chained", in_order_restart_chained,
			  "the kernel's vhost core restarts an in-order split ring at its avail index, not at the descriptor where the ring stopped"),
	/* Bounds at their edges: the largest value taken, beside the first refused. */
	RIG_HOST_CASE("head-last", head_last),
	RIG_HOST_CASE("next-last", next_last),
	RIG_HOST_CASE("next-at-ring-size", next_at_ring_size),
	RIG_HOST_CASE("avail-idx-full", avail_idx_full),
	RIG_HOST_CASE("chain-whole-ring", chain_whole_ring),
	RIG_HOST_CASE("indirect-table-whole", indirect_table_whole),
	RIG_HOST_CASE("indirect-table-one-more", indirect_table_one_more),
	RIG_HOST_CASE_ARG("addr-ends-at-memory-end", addr_at_memory_end, 0),
	RIG_HOST_CASE_ARG("addr-one-past-memory-end", addr_at_memory_end, 1),
	RIG_HOST_CASE_ARG("used-ring-ends-at-memory-end", used_ring_at_memory_end, 0),
	RIG_HOST_CASE_ARG("used-ring-one-past-memory-end", used_ring_at_memory_end, 1),
	RIG_HOST_CASE_ARG("ring-size-32768", ring_size_edge, 0),
	RIG_HOST_CASE_ARG("ring-size-65536", ring_size_edge, 1),
	RIG_HOST_CASE_ARG("mem-table-64-regions", mem_table, 64),
	RIG_HOST_CASE_ARG("mem-table-65-regions", mem_table, 65),
	RIG_HOST_CASE_ARG("mem-table-filling-the-argument-page", mem_table, 127),
	RIG_HOST_CASE_ARG("mem-table-past-the-argument-page", mem_table, 128),
};

RIG_CASE_MAIN(cases, help)
