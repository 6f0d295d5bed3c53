// SPDX-License-Identifier: GPL-2.0
/*
 * Bounds at their edges, as a table: one row per bound the ring code
 * checks and per variant of the code that checks it (split and packed,
 * in order and not, an IOTLB map, a region's last byte), each row two
 * cases: "at", the largest value the bound accepts, which must be taken
 * without a word, and "past", the first value past it, which must be
 * refused with the bound's own message (tests/said.h: a bound moved by
 * one and caught later, for another reason, still fails).  A missing
 * twin is a missing row: the table shows it.
 *
 * The host rows (vringh.c) write a ring as a guest would; the guest rows
 * (virtio_ring.c) let the driver add buffers and play the device with
 * harness/mockdev.  A kernel tree's code that does not refuse what the
 * spec lets it refuse is a TODO naming why (the row's gap); a variant
 * its code lacks (a packed or in-order vringh) is a SKIP.
 *
 * Usage: edges --list | edges --gaps | edges CASE.  Exit 0: the code kept
 * the bound; 1: it did not; 2: usage error; 77: SKIP; 78: TODO.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/virtio.h>
#include <linux/virtio_config.h>
#include <linux/virtio_ring.h>
#include <linux/vringh.h>
#include <linux/uaccess.h>
#include <linux/vhost_iotlb.h>
#include <linux/dma-mapping.h>

#include "harness/harness.h"
#include "harness/mockdev.h"
#include "tests/fence.h"
#include "tests/said.h"
#include "tests/vringh_hand.h"

static const char help[] =
"Usage: edges --list | edges --gaps | edges CASE\n"
"Run one case of a bound at its edge, BOUND:VARIANT:at (the largest value\n"
"accepted) or BOUND:VARIANT:past (the first refused); --list names them.\n"
"Exit 0: the ring code kept the bound; 1: it did not; 2: usage error;\n"
"77: SKIP, the linked ring code lacks the variant; 78: TODO, a kernel\n"
"tree's code is known not to refuse it.\n";

#define NUM		16		/* ring entries */
#define MEM		(64 * 1024)	/* guest memory */
#define OFF_TABLE	16384		/* an indirect table */
#define OFF_DATA	32768		/* buffers */

/* A row's variant. */
#define V_PACKED	(1u << 0)	/* VIRTIO_F_RING_PACKED */
#define V_IN_ORDER	(1u << 1)	/* VIRTIO_F_IN_ORDER */
#define V_EVENT		(1u << 2)	/* VIRTIO_RING_F_EVENT_IDX */
#define V_HELD		(1u << 3)	/* the device holds buffers already */
#define V_MULTI		(1u << 4)	/* complete_multi, not complete */
#define V_INDIRECT	(1u << 5)	/* the driver uses indirect tables */
#define V_TWO		(1u << 6)	/* two regions or maps, split at every byte */
#define V_DMA		(1u << 7)	/* VIRTIO_F_ACCESS_PLATFORM: the DMA API */

struct edge {
	const char *bound;	/* the check: FILE-WHAT */
	const char *variant;
	unsigned int v;		/* V_* */
	bool host;		/* vringh.c, else virtio_ring.c */
	int (*run)(const struct edge *e, bool past);
	const char *why;	/* what the rig's refusal says */
	const char *gap;	/* past: what a kernel tree does not refuse */
	const char *gap_at;	/* at: what a kernel tree does not take */
};

static const struct edge *edge;	/* the row running */

/* ---- Host rows: a ring written as a guest would, vringh reading it ---- */

static struct rig_shm shm;
static struct vring gvr;		/* split, the guest's view */
static struct vring_packed gpr;		/* packed, the guest's view */
static struct vringh vrh;
static u64 host_features;

static void *gaddr(size_t off)
{
	return (char *)shm.guest + off;
}

static u64 data_addr(unsigned int n)
{
	return (uintptr_t)gaddr(OFF_DATA + n * 64);
}

/* What the linked vringh lacks of the variant is a SKIP. */
static void host_needs(unsigned int v)
{
	if (v & V_PACKED)
		rig_require_packed_host(rig_case_name);
	if ((v & V_IN_ORDER) && !rig_host_has_in_order())
		rig_skip("%s: the host ring code (%s) has no VIRTIO_F_IN_ORDER",
			 rig_case_name, rig_host_impl());
}

/*
 * A packed vringh's own: its set-up, cleanup and wrap counters (a vringh
 * without one never gets here: host_needs() skipped).
 */
#ifdef vringh_init_packed_user
static int init_packed(struct vring_packed *r)
{
	return vringh_init_packed_user(&vrh, host_features, NUM, true, r->desc,
				       r->driver, r->device);
}

static void cleanup_packed(void)
{
	vringh_cleanup(&vrh);
}

static bool avail_wrap(void)
{
	return vrh.avail_wrap_counter;
}

static bool used_wrap(void)
{
	return vrh.used_wrap_counter;
}
#else
static int init_packed(struct vring_packed *r __attribute__((unused)))
{
	return -ENOSYS;
}

static void cleanup_packed(void)
{
}

static bool avail_wrap(void)
{
	return true;
}

static bool used_wrap(void)
{
	return true;
}
#endif

/* The row's ring on fresh memory, vringh on its host view. */
static void host_ring(void)
{
	unsigned int v = edge->v;
	struct vring_packed hpr;
	struct vring hvr;

	host_needs(v);
	host_features = 1ULL << VIRTIO_RING_F_INDIRECT_DESC | 1ULL << VIRTIO_F_VERSION_1;
	if (v & V_IN_ORDER)
		host_features |= 1ULL << VIRTIO_F_IN_ORDER;
	if (v & V_EVENT)
		host_features |= 1ULL << VIRTIO_RING_F_EVENT_IDX;
	rig_shm_create(&shm, MEM);
	memset(shm.guest, 0, MEM);
	rig_user_map(shm.guest, shm.host, MEM, false);
	if (v & V_PACKED) {
		vring_packed_init(&gpr, NUM, shm.guest);
		vring_packed_init(&hpr, NUM, shm.host);
		CHECK(init_packed(&hpr) == 0);
	} else {
		vring_init(&gvr, NUM, shm.guest, RIG_RING_ALIGN);
		vring_init(&hvr, NUM, shm.host, RIG_RING_ALIGN);
		CHECK(vringh_init_user(&vrh, host_features, NUM, true, hvr.desc,
				       hvr.avail, hvr.used) == 0);
	}
}

static void host_done(void)
{
	if (edge->v & V_PACKED)
		cleanup_packed();
	rig_shm_destroy(&shm);
}

static void set_desc(struct vring_desc *d, u64 addr, u32 len, u16 flags, u16 next)
{
	vringh_hand_set_desc(&vrh, d, addr, len, flags, next);
}

static void offer(u16 head)
{
	vringh_hand_offer(&vrh, &gvr, head);
}

/* Packed descriptor @i as the driver writes it in lap @wrap. */
static void set_pdesc(unsigned int i, u64 addr, u32 len, u16 id, u16 flags, bool wrap)
{
	struct vring_packed_desc *d = &gpr.desc[i];

	d->addr = cpu_to_le64(addr);
	d->len = cpu_to_le32(len);
	d->id = cpu_to_le16(id);
	d->flags = cpu_to_le16(flags | (wrap ? 1 << VRING_PACKED_DESC_F_AVAIL :
					       1 << VRING_PACKED_DESC_F_USED));
}

/* Take the next buffer, which must come without a word; its head or id. */
static u16 take(void)
{
	size_t said;
	u16 head;
	int err;

	err = vringh_hand_getdesc(&vrh, rig_getrange, &head, &said);
	CHECKF(err == 1, "getdesc returned %d (%s), expected a buffer", err,
	       err < 0 ? strerror(-err) : "nothing there");
	CHECKF(!said, "a buffer within bounds taken with a message");
	return head;
}

/*
 * An error of vringh's (@err, @said bytes said) must be @want (any, if 0)
 * with the row's message; a kernel tree's vringh, known not to refuse it
 * (the row's gap), makes that the TODO.
 */
static void refused(int err, int want, size_t said)
{
	if (want)
		CHECKF_GAP(err == want, "returned %d (%s), expected %d (%s)", err,
			   err < 0 ? strerror(-err) : "no error", want, strerror(-want));
	else
		CHECKF_GAP(err < 0, "returned %d, expected a refusal", err);
	if (!strcmp(rig_host_impl(), "kernel"))
		return;
	CHECKF(said > 0, "refused (%d) without a message", err);
	CHECKF(said_why(true, edge->why), "refused, but not because \"%s\"", edge->why);
}

/* The next getdesc: taken (at), or refused with @want and the ring unmoved. */
static int getdesc_edge(bool past, int want)
{
	u16 before = vrh.last_avail_idx, head;
	size_t said;
	int err;

	if (!past) {
		take();
		host_done();
		return 0;
	}
	err = vringh_hand_getdesc(&vrh, rig_getrange, &head, &said);
	refused(err, want, said);
	if (strcmp(rig_host_impl(), "kernel"))
		CHECKF(vrh.last_avail_idx == before, "the ring moved on a refusal");
	host_done();
	return 0;
}

/* Heads 0 .. @n - 1, one descriptor each, offered and taken. */
static void take_singles(unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		set_desc(&gvr.desc[i], data_addr(i % 8), 8, 0, 0);
		offer(i);
		CHECK(take() == i);
	}
}

/*
 * vringh-head: an avail entry names a head < the ring size.  In order
 * the heads before it come first, so the last descriptor is the next.
 */
static int head(const struct edge *e, bool past)
{
	host_ring();
	if (e->v & V_IN_ORDER)
		take_singles(NUM - 1);
	set_desc(&gvr.desc[NUM - 1], data_addr(0), 8, 0, 0);
	offer(past ? NUM : NUM - 1);
	return getdesc_edge(past, -EINVAL);
}

/* vringh-avail-idx: at most a ring of buffers available at once. */
static int avail_idx(const struct edge *e __attribute__((unused)), bool past)
{
	unsigned int i;

	host_ring();
	for (i = 0; i < NUM; i++) {
		set_desc(&gvr.desc[i], data_addr(i % 8), 8, 0, 0);
		offer(i);
	}
	if (past) {
		gvr.avail->idx = cpu_to_vringh16(&vrh, NUM + 1);
		return getdesc_edge(true, -EINVAL);
	}
	for (i = 0; i + 1 < NUM; i++)
		CHECK(take() == i);
	return getdesc_edge(false, 0);
}

/*
 * vringh-next: a descriptor's next < the ring size.  In order a chain's
 * next is the following descriptor: the chain runs into the last one
 * (at), or the last one chains on past the ring (past).
 */
static int next(const struct edge *e, bool past)
{
	u16 at = 0;

	host_ring();
	if (e->v & V_IN_ORDER) {
		at = past ? NUM - 1 : NUM - 2;
		take_singles(at);
	}
	if (past) {
		set_desc(&gvr.desc[at], data_addr(0), 8, VRING_DESC_F_NEXT, NUM);
	} else {
		set_desc(&gvr.desc[at], data_addr(0), 8, VRING_DESC_F_NEXT, NUM - 1);
		set_desc(&gvr.desc[NUM - 1], data_addr(1), 8, 0, 0);
	}
	offer(at);
	return getdesc_edge(past, -EINVAL);
}

/*
 * vringh-chain: a chain visits at most the ring's descriptors: all of
 * them in ring order (at), or the last one chaining back to the first
 * (past: a loop, which in order is also the next descriptor).
 */
static int chain(const struct edge *e __attribute__((unused)), bool past)
{
	unsigned int i;

	host_ring();
	for (i = 0; i < NUM; i++)
		set_desc(&gvr.desc[i], data_addr(0), 0,
			 i + 1 < NUM || past ? VRING_DESC_F_NEXT : 0, (i + 1) % NUM);
	offer(0);
	return getdesc_edge(past, -ELOOP);
}

/* Entries 0 .. @n - 1 of the table at OFF_TABLE, chained in order. */
static struct vring_desc *table_of(unsigned int n)
{
	struct vring_desc *t = gaddr(OFF_TABLE);
	unsigned int i;

	for (i = 0; i < n; i++)
		set_desc(&t[i], data_addr(i % 8), 1, i + 1 < n ? VRING_DESC_F_NEXT : 0, i + 1);
	return t;
}

/*
 * vringh-queue: a chain's descriptors, in the ring and in its indirect
 * table together, at most the queue size (2.7.5.3.1): 7 in the ring, then
 * a table of 9 (at) or 10 (past).
 */
static int queue_size(const struct edge *e __attribute__((unused)), bool past)
{
	unsigned int i, ring = 7, entries = NUM - ring + past;
	struct vring_desc *t;

	host_ring();
	t = table_of(entries);
	for (i = 0; i < ring; i++)
		set_desc(&gvr.desc[i], data_addr(i % 8), 1, VRING_DESC_F_NEXT, i + 1);
	set_desc(&gvr.desc[ring], (uintptr_t)t, entries * sizeof(*t), VRING_DESC_F_INDIRECT, 0);
	offer(0);
	return getdesc_edge(past, -EINVAL);
}

/*
 * vringh-table-next: an indirect entry's next < the table's entries: a
 * table of three whose entry chains into its last (at), of two chaining
 * to 2 (past).  Not in order, entry 0 chains straight to 2; in order,
 * through 1.
 */
static int table_next(const struct edge *e, bool past)
{
	unsigned int n = past ? 2 : 3;
	struct vring_desc *t = NULL;

	host_ring();
	t = gaddr(OFF_TABLE);
	if (e->v & V_IN_ORDER) {
		set_desc(&t[0], data_addr(0), 8, VRING_DESC_F_NEXT, 1);
		set_desc(&t[1], data_addr(1), 8, VRING_DESC_F_NEXT, 2);
		if (!past)
			set_desc(&t[2], data_addr(2), 8, 0, 0);
	} else {
		set_desc(&t[0], data_addr(0), 8, VRING_DESC_F_NEXT, 2);
		set_desc(&t[n - 1], data_addr(1), 8, 0, 0);
	}
	set_desc(&gvr.desc[0], (uintptr_t)t, n * sizeof(*t), VRING_DESC_F_INDIRECT, 0);
	offer(0);
	return getdesc_edge(past, -EINVAL);
}

/* Every buffer of the ring taken: heads 0 .. NUM - 1 (packed: ids). */
static void take_ring(void)
{
	unsigned int i;

	for (i = 0; i < NUM; i++) {
		if (edge->v & V_PACKED) {
			set_pdesc(i, data_addr(i % 8), 8, i, 0, true);
		} else {
			set_desc(&gvr.desc[i], data_addr(i % 8), 8, 0, 0);
			offer(i);
		}
		CHECK(take() == i);
	}
}

/* Where the device's used index (split) or offset and lap (packed) is. */
static unsigned int used_pos(void)
{
	if (edge->v & V_PACKED)
		return vrh.last_used_idx + (used_wrap() ? 0 : NUM);
	return vringh16_to_cpu(&vrh, gvr.used->idx);
}

/*
 * A completion of vringh's (@err, @said): done (at), moving the used
 * position from 0 to @moved; or refused (past) writing nothing.
 */
static int completed(bool past, int err, size_t said, unsigned int moved)
{
	if (!past) {
		CHECKF(err == 0, "returned %d (%s)", err, strerror(-err));
		CHECKF(!said, "done with a message");
		CHECKF(used_pos() == moved, "the used position is %u, not %u", used_pos(), moved);
	} else {
		refused(err, -EINVAL, said);
		CHECKF(used_pos() == 0, "the used position moved to %u on a refusal", used_pos());
	}
	host_done();
	return 0;
}

/* vringh-complete-multi: at most a ring of used elements at once. */
static int complete_multi(const struct edge *e __attribute__((unused)), bool past)
{
	struct vring_used_elem elems[NUM + 1];
	unsigned int i, n = NUM + past;
	size_t said;
	int err;

	host_ring();
	take_ring();
	for (i = 0; i < n; i++) {
		elems[i].id = cpu_to_vringh32(&vrh, i % NUM);
		elems[i].len = 0;
	}
	capture_begin();
	err = vringh_complete_multi_user(&vrh, elems, n);
	said = capture_end();
	return completed(past, err, said, NUM);
}

#ifdef vringh_complete_batch_user
static int complete_batch(u16 last, unsigned int count)
{
	return vringh_complete_batch_user(&vrh, last, 0, count);
}
#else
static int complete_batch(u16 last __attribute__((unused)),
			  unsigned int count __attribute__((unused)))
{
	return -ENOSYS;		/* host_needs() skipped already */
}
#endif

/*
 * vringh-batch-count: an in-order batch of at most the buffers the device
 * holds: with the whole ring taken, NUM (at) or NUM + 1 (past); with
 * two taken (V_HELD), two or three.
 */
static int batch_count(const struct edge *e, bool past)
{
	unsigned int held = e->v & V_HELD ? 2 : NUM;
	size_t said;
	int err;

	host_ring();
	if (e->v & V_HELD) {
		if (e->v & V_PACKED) {
			set_pdesc(0, data_addr(0), 8, 0, 0, true);
			set_pdesc(1, data_addr(1), 8, 1, 0, true);
			CHECK(take() == 0 && take() == 1);
		} else {
			take_singles(2);
		}
	} else {
		take_ring();
	}
	capture_begin();
	err = complete_batch(held - 1, held + past);
	said = capture_end();
	return completed(past, err, said, held);
}

/* vringh-batch-head: a split in-order batch's last head < the ring size. */
static int batch_head(const struct edge *e __attribute__((unused)), bool past)
{
	size_t said;
	int err;

	host_ring();
	take_ring();
	capture_begin();
	err = complete_batch(past ? NUM : NUM - 1, 1);
	said = capture_end();
	return completed(past, err, said, 1);
}

/* vringh-packed-id: a list's buffer id < the ring size. */
static int packed_id(const struct edge *e __attribute__((unused)), bool past)
{
	host_ring();
	set_pdesc(0, data_addr(0), 8, past ? NUM : NUM - 1, 0, true);
	return getdesc_edge(past, -EINVAL);
}

/*
 * vringh-packed-list: a list runs over at most the descriptors the device
 * does not hold: the whole ring (at), one more (past: a loop); with the
 * descriptor at 0 held (V_HELD), the other 15 (at), or on into 0, which
 * the driver wrote again for the next lap (past).
 */
static int packed_list(const struct edge *e, bool past)
{
	unsigned int i, from = 0;

	host_ring();
	if (e->v & V_HELD) {
		set_pdesc(0, data_addr(0), 8, 0, 0, true);
		CHECK(take() == 0);
		from = 1;
	}
	for (i = from; i < NUM; i++)
		set_pdesc(i, data_addr(i % 8), 1, 1,
			  i + 1 < NUM || past ? VRING_DESC_F_NEXT : 0, true);
	if (past && from)
		set_pdesc(0, data_addr(0), 1, 1, 0, false);
	return getdesc_edge(past, past && !from ? -ELOOP : -EINVAL);
}

/* vringh-packed-table: a packed indirect table of at most the ring's entries. */
static int packed_table(const struct edge *e __attribute__((unused)), bool past)
{
	struct vring_packed_desc *t;
	unsigned int i, n = NUM + past;

	host_ring();
	t = gaddr(OFF_TABLE);
	for (i = 0; i < n; i++) {
		t[i].addr = cpu_to_le64(data_addr(i % 8));
		t[i].len = cpu_to_le32(1);
		t[i].id = 0;
		t[i].flags = 0;
	}
	set_pdesc(0, (uintptr_t)t, n * sizeof(*t), 0, VRING_DESC_F_INDIRECT, true);
	return getdesc_edge(past, -EINVAL);
}

/*
 * vringh-packed-complete-id: a completed id < the ring size: one buffer
 * with id 15 taken, then 15 completed (at) or 16 (past), alone or in
 * complete_multi (V_MULTI).
 */
static int packed_complete_id(const struct edge *e, bool past)
{
	struct vring_used_elem elem;
	u16 id = past ? NUM : NUM - 1;
	size_t said;
	int err;

	host_ring();
	set_pdesc(0, data_addr(0), 8, NUM - 1, 0, true);
	CHECK(take() == NUM - 1);
	elem.id = cpu_to_vringh32(&vrh, id);
	elem.len = 0;
	capture_begin();
	err = e->v & V_MULTI ? vringh_complete_multi_user(&vrh, &elem, 1) :
	      vringh_complete_user(&vrh, id, 0);
	said = capture_end();
	return completed(past, err, said, 1);
}

/*
 * vringh-packed-abandon: at most a ring of buffers given back: the whole
 * ring taken, all of it abandoned (at: the same buffers are taken again)
 * or one more (past: refused, nothing given back).
 */
static int packed_abandon(const struct edge *e __attribute__((unused)), bool past)
{
	size_t said;

	host_ring();
	take_ring();
	capture_begin();
	rig_vringh_abandon(&vrh, NUM + past);
	said = capture_end();
	if (past) {
		CHECKF(said > 0 && said_why(true, edge->why),
		       "abandon of %u refused without saying \"%s\"", NUM + 1, edge->why);
		CHECKF(vrh.last_avail_idx == 0 && !avail_wrap(),
		       "the avail offset moved back on a refusal");
	} else {
		CHECKF(!said, "abandon of the whole ring said something");
		CHECKF(vrh.last_avail_idx == 0 && avail_wrap(),
		       "the avail offset is %u (wrap %u), not back at 0", vrh.last_avail_idx,
		       avail_wrap());
		CHECK(take() == 0);
	}
	host_done();
	return 0;
}

/*
 * vringh-packed-event-off: the driver's event offset is a position of the
 * ring: one buffer used (the used offset moves from 0 to 1), the driver
 * asking for an event at offset 15 of this lap (at: not passed, no
 * notification) or at 16, no position at all (past: notify, as the
 * device cannot tell).
 */
static int packed_event_off(const struct edge *e __attribute__((unused)), bool past)
{
	u16 off = past ? NUM : NUM - 1;
	int n;

	host_ring();
	set_pdesc(0, data_addr(0), 8, 0, 0, true);
	CHECK(take() == 0);
	gpr.driver->off_wrap = cpu_to_le16(off | 1 << VRING_PACKED_EVENT_F_WRAP_CTR);
	gpr.driver->flags = cpu_to_le16(VRING_PACKED_EVENT_FLAG_DESC);
	CHECK(vringh_complete_user(&vrh, 0, 0) == 0);
	n = vringh_need_notify_user(&vrh);
	CHECKF(n == past, "need_notify said %d with the driver's event at offset %u of a ring of %u",
	       n, off, NUM);
	host_done();
	return 0;
}

/*
 * vringh-buffer-region: a buffer within a getrange region.  One region
 * (all of guest memory): a 64-byte buffer ending at its last byte (at),
 * one byte further (past).  Two regions (V_TWO) split at every byte of
 * that buffer, the second reached through the guest's own mapping, so
 * each part is translated by its own region: at, two iovecs of exactly
 * the parts' lengths, at their own addresses; past, refused.
 */
static u64 region_split;	/* V_TWO: where the second region starts */

static bool two_regions(struct vringh *v __attribute__((unused)), u64 addr,
			struct vringh_range *r)
{
	u64 start = (uintptr_t)shm.guest, end = start + MEM;

	if (addr < start || addr >= end)
		return false;
	if (addr < region_split) {
		r->start = start;
		r->end_incl = region_split - 1;
		r->offset = (uintptr_t)shm.host - (uintptr_t)shm.guest;
	} else {
		r->start = region_split;
		r->end_incl = end - 1;
		r->offset = 0;
	}
	return true;
}

static void offer_buffer(u64 addr, u32 len)
{
	if (edge->v & V_PACKED) {
		set_pdesc(0, addr, len, 0, 0, true);
	} else {
		set_desc(&gvr.desc[0], addr, len, 0, 0);
		offer(0);
	}
}

static int buffer_region(const struct edge *e, bool past)
{
	unsigned int j, splits = e->v & V_TWO ? 63 : 1;

	for (j = 1; j <= splits; j++) {
		struct iovec rs[4];
		struct vringh_iov riov;
		size_t said;
		u64 at;
		u16 id;
		int err;

		host_ring();
		at = (uintptr_t)gaddr(MEM - 64) + past;
		region_split = e->v & V_TWO ? at + j : ~0ULL;
		if (e->v & V_TWO) {
			/* The user window takes in both mappings. */
			__user_addr_min = min(shm.host, shm.guest);
			__user_addr_max = (char *)max(shm.host, shm.guest) + MEM;
		}
		offer_buffer(at, 64);
		vringh_iov_init(&riov, rs, 4);
		err = vringh_hand_getdesc_iov(&vrh, e->v & V_TWO ? two_regions : rig_getrange,
					      &riov, NULL, &id, &said);
		if (past) {
			refused(err, -EINVAL, said);
		} else if (e->v & V_TWO) {
			CHECKF(err == 1 && !said, "split at byte %u: getdesc returned %d", j, err);
			CHECKF(riov.used == 2 && riov.iov[0].iov_len == j &&
			       riov.iov[1].iov_len == 64 - j,
			       "split at byte %u: %u iovecs of %zu and %zu bytes", j, riov.used,
			       riov.iov[0].iov_len, riov.used > 1 ? riov.iov[1].iov_len : 0);
			CHECK(riov.iov[0].iov_base == (char *)shm.host + MEM - 64 &&
			      riov.iov[1].iov_base == (void *)(uintptr_t)(at + j));
		} else {
			CHECKF(err == 1 && !said, "getdesc returned %d", err);
			CHECK(riov.used == 1 && riov.iov[0].iov_len == 64);
		}
		vringh_iov_cleanup(&riov);
		host_done();
	}
	return 0;
}

/*
 * The ring's last field at the end of what the host may reach (the user
 * window): the used ring's avail_event, which notify_enable writes with
 * EVENT_IDX (split), the device event structure's flags (packed).  At:
 * its last byte is the window's last, notify_enable works; past: it runs
 * a byte out, notify_enable says it cannot write it.
 */
static int ring_window(const struct edge *e, bool past)
{
	char *end;
	size_t said;
	bool empty;

	host_ring();
	if (e->v & V_PACKED)
		end = (char *)shm.host + ((char *)&gpr.device->flags - (char *)shm.guest) + 2;
	else
		end = (char *)shm.host + ((char *)&vring_avail_event(&gvr) - (char *)shm.guest) + 2;
	__user_addr_max = end - past;
	capture_begin();
	empty = vringh_notify_enable_user(&vrh);
	said = capture_end();
	if (past) {
		CHECKF(said > 0 && said_why(true, e->why),
		       "notify_enable past the window said nothing of \"%s\"", e->why);
	} else {
		CHECKF(!said && empty, "notify_enable within the window said %zu bytes, returned %d",
		       said, empty);
	}
	host_done();
	return 0;
}

/* ---- Host rows through the IOTLB accessors ---- */
#ifdef RIG_VRINGH_INIT_IOTLB_ARGS
#define IOVA		0x40000000ULL
#define IO_BYTES	(2 * PAGE_SIZE)	/* the ring's page, a buffer's page */

static char *io_mem;			/* where the maps go: two halves apart */
static struct vhost_iotlb iotlb;
static spinlock_t iotlb_lock;
static struct vring io_vr;		/* at I/O addresses */

/*
 * I/O range [IOVA, IOVA + IO_BYTES) as maps: one, or (V_TWO) two split
 * at @split, the second onto memory a page away from the first's end, so
 * that a copy run on past a map's end reads the wrong bytes.  @end: the
 * last map ends there (the rest of the range unmapped).
 */
static void *io_host(u64 io, u64 split)
{
	u64 off = io - IOVA;

	return io_mem + off + (io >= IOVA + split ? PAGE_SIZE : 0);
}

static void iotlb_ring(u64 split, u64 end)
{
	host_needs(edge->v);
	io_mem = aligned_alloc(PAGE_SIZE, IO_BYTES + PAGE_SIZE);
	CHECK(io_mem);
	memset(io_mem, 0, IO_BYTES + PAGE_SIZE);
	vhost_iotlb_init(&iotlb, 4, 0);
	spin_lock_init(&iotlb_lock);
	if (split < end) {
		CHECK(vhost_iotlb_add_range(&iotlb, IOVA, IOVA + split - 1,
					    (uintptr_t)io_host(IOVA, split), VHOST_MAP_RW) == 0);
		CHECK(vhost_iotlb_add_range(&iotlb, IOVA + split, IOVA + end - 1,
					    (uintptr_t)io_host(IOVA + split, split),
					    VHOST_MAP_RW) == 0);
	} else {
		CHECK(vhost_iotlb_add_range(&iotlb, IOVA, IOVA + end - 1,
					    (uintptr_t)io_host(IOVA, split), VHOST_MAP_RW) == 0);
	}
	vring_init(&io_vr, NUM, (void *)(uintptr_t)IOVA, 64);
	host_features = 1ULL << VIRTIO_F_VERSION_1;
	if (edge->v & V_EVENT)
		host_features |= 1ULL << VIRTIO_RING_F_EVENT_IDX;
	CHECK(vringh_init_iotlb(&vrh, host_features, NUM, true, io_vr.desc, io_vr.avail,
				io_vr.used) == 0);
	vringh_set_iotlb(&vrh, &iotlb, &iotlb_lock);
}

static void iotlb_done(void)
{
	vhost_iotlb_reset(&iotlb);
	free(io_mem);
}

/* Write @len bytes at I/O address @io through the maps. */
static void io_write(u64 io, u64 split, const void *src, size_t len)
{
	const char *s = src;

	for (; len; len--, io++)
		*(char *)io_host(io, split) = *s++;
}

static void io_offer(u64 split, u64 addr, u32 len, u16 flags)
{
	struct vring_desc d = {
		.addr = cpu_to_le64(addr), .len = cpu_to_le32(len),
		.flags = cpu_to_le16(flags),
	};
	__le16 head = 0, idx = cpu_to_le16(1);

	io_write((uintptr_t)&io_vr.desc[0], split, &d, sizeof(d));
	io_write((uintptr_t)&io_vr.avail->ring[0], split, &head, 2);
	io_write((uintptr_t)&io_vr.avail->idx, split, &idx, 2);
}

/*
 * The maps split at the avail index's (or, @used, the used index's) last
 * byte (at) or its second (@past: the word across both maps), one 8-byte
 * buffer offered from the ring's page; the split, and in *@idx the
 * index's I/O address.
 */
static u64 iotlb_word_ring(bool used, bool past, u64 *idx)
{
	u64 split;

	vring_init(&io_vr, NUM, (void *)(uintptr_t)IOVA, 64);
	*idx = used ? (uintptr_t)&io_vr.used->idx : (uintptr_t)&io_vr.avail->idx;
	split = *idx - IOVA + 2 - past;
	iotlb_ring(split, IO_BYTES);
	io_offer(split, IOVA + PAGE_SIZE, 8, 0);
	return split;
}

/*
 * vringh-iotlb-buffer: a buffer's bytes within the maps.  A 64-byte
 * buffer whose last byte is the last mapped one (at: pulled whole, its
 * bytes) or one further (past: -EFAULT); one map, or two split at every
 * byte of the buffer (V_TWO).
 */
static int iotlb_buffer(const struct edge *e, bool past)
{
	u64 end = IO_BYTES, at = IOVA + end - 64 + past;
	unsigned int j, splits = e->v & V_TWO ? 63 : 1;

	for (j = 1; j <= splits; j++) {
		u64 split = e->v & V_TWO ? at - IOVA + j : end;
		unsigned char want[64], got[64];
		struct vringh_kiov riov;
		ssize_t n;
		size_t said;
		u16 id;
		int err, k;

		iotlb_ring(split, end);
		for (k = 0; k < 64; k++)
			want[k] = (unsigned char)(k * 13 + j);
		if (!past)
			io_write(at, split, want, 64);
		io_offer(split, at, 64, 0);
		vringh_kiov_init(&riov, NULL, 0);
		capture_begin();
		err = vringh_getdesc_iotlb(&vrh, &riov, NULL, &id, GFP_KERNEL);
		n = err == 1 ? vringh_iov_pull_iotlb(&vrh, &riov, got, 64) : err;
		said = capture_end();
		if (past) {
			refused((int)n, -EFAULT, said);
		} else {
			CHECKF(n == 64 && !said, "split at byte %u: pulled %zd", j, n);
			CHECKF(!memcmp(got, want, 64), "split at byte %u: not the buffer's bytes", j);
		}
		vringh_kiov_cleanup(&riov);
		iotlb_done();
	}
	return 0;
}

/*
 * vringh-iotlb-ring: the ring's last field at the end of the maps: the
 * avail ring's used_event (EVENT_IDX), which need_notify reads, its last
 * byte the last one mapped (at: read, no notification wanted) or one
 * past (past: its first byte in the last map, the second in no map:
 * refused); one map, or two split at the field's second byte (V_TWO: at,
 * the field is read across both).
 */
static int iotlb_ring_end(const struct edge *e, bool past)
{
	u64 ev, end, split;
	size_t said;
	int n;

	vring_init(&io_vr, NUM, (void *)(uintptr_t)IOVA, 64);
	ev = (uintptr_t)&vring_used_event(&io_vr);
	end = ev + 2 - IOVA - past;
	split = e->v & V_TWO ? ev + 1 - IOVA : end;
	iotlb_ring(split, end);
	capture_begin();
	n = vringh_need_notify_iotlb(&vrh);
	said = capture_end();
	if (past)
		CHECKF(n < 0 && said > 0 && said_why(true, e->why),
		       "need_notify past the maps returned %d and said nothing of \"%s\"", n, e->why);
	else
		CHECKF_GAP(n == 0 && !said, "need_notify said %zu bytes, returned %d", said, n);
	iotlb_done();
	return 0;
}

/*
 * vringh-iotlb-word: a ring word across two maps.  The avail index, its
 * last byte the last of the first map (at: read whole from it), or its
 * second byte in the second map, onto other memory (past: read from
 * both): either way index 0x0101 is read, with vringh where 0x0100 was,
 * so the one buffer at avail slot 0 is taken.
 */
static int iotlb_word(const struct edge *e __attribute__((unused)), bool past)
{
	__le16 v = cpu_to_le16(0x0101);
	struct vringh_kiov riov;
	u64 idx, split;
	size_t said;
	u16 id;
	int err;

	split = iotlb_word_ring(false, past, &idx);
	io_write(idx, split, &v, 2);
	vrh.last_avail_idx = 0x0100;
	vringh_kiov_init(&riov, NULL, 0);
	capture_begin();
	err = vringh_getdesc_iotlb(&vrh, &riov, NULL, &id, GFP_KERNEL);
	said = capture_end();
	CHECKF_GAP(err == 1 && !said && id == 0,
	       "getdesc with avail index 0x0101 %s a map's end returned %d (head %u), said \"%s\"",
	       past ? "across" : "at", err, id, said ? said_text : "");
	vringh_kiov_cleanup(&riov);
	iotlb_done();
	return 0;
}
/*
 * vringh-iotlb-word, the used index: complete writes it whole in the
 * first map, its last byte the map's last (at), or across two maps, its
 * second byte in the second, onto other memory (past): either way both
 * bytes say 1, where they said 0xffff before.
 */
static int iotlb_used_word(const struct edge *e __attribute__((unused)), bool past)
{
	struct vringh_kiov riov;
	u64 idx, split;
	__le16 got;
	u16 id;
	int err;

	split = iotlb_word_ring(true, past, &idx);
	/* Not 0 before, so that a byte not written shows. */
	memset(io_host(idx, split), 0xff, 1);
	memset(io_host(idx + 1, split), 0xff, 1);
	vringh_kiov_init(&riov, NULL, 0);
	CHECK(vringh_getdesc_iotlb(&vrh, &riov, NULL, &id, GFP_KERNEL) == 1 && id == 0);
	capture_begin();
	err = vringh_complete_iotlb(&vrh, 0, 0);
	capture_end();
	memcpy(&got, io_host(idx, split), 1);
	memcpy((char *)&got + 1, io_host(idx + 1, split), 1);
	CHECKF_GAP(err == 0 && le16_to_cpu(got) == 1,
		   "complete with the used index %s a map's end returned %d, the index reads %u",
		   past ? "across" : "at", err, le16_to_cpu(got));
	vringh_kiov_cleanup(&riov);
	iotlb_done();
	return 0;
}
#else
static int no_iotlb(const struct edge *e __attribute__((unused)),
		    bool past __attribute__((unused)))
{
	rig_skip("%s: the linked vringh (%s) has no IOTLB accessors", rig_case_name,
		 rig_host_impl());
}
#define iotlb_buffer	no_iotlb
#define iotlb_ring_end	no_iotlb
#define iotlb_word	no_iotlb
#define iotlb_used_word	no_iotlb
#endif

/* ---- Guest rows: the driver's queue, a device played by hand ---- */

static struct virtio_device vdev;
static struct rig_queue queue;
static struct virtqueue *vq;
static struct mockdev dev;
static char bufs[NUM][16];

static bool notify(struct virtqueue *q __attribute__((unused)))
{
	return true;
}

/* V_DMA: the device's DMA hooks count the driver's mappings. */
static unsigned int dma_maps, dma_live;

static dma_addr_t dma_map(struct device *d __attribute__((unused)), phys_addr_t phys,
			  size_t size __attribute__((unused)),
			  enum dma_data_direction dir __attribute__((unused)),
			  unsigned long attrs __attribute__((unused)))
{
	dma_maps++;
	dma_live++;
	return phys;
}

static void dma_unmap(struct device *d __attribute__((unused)),
		      dma_addr_t addr __attribute__((unused)),
		      size_t size __attribute__((unused)),
		      enum dma_data_direction dir __attribute__((unused)))
{
	dma_live--;
}

static const struct rig_dma_ops dma_ops = { dma_map, dma_unmap, NULL, NULL };
static struct device dma_dev = { .init_name = "edges dma", .rig_dma = &dma_ops };

/* The row's queue: features from its variant. */
static void guest_queue(void)
{
	unsigned int v = edge->v;
	u64 f = 1ULL << VIRTIO_F_VERSION_1;

	if (v & V_PACKED)
		f |= 1ULL << VIRTIO_F_RING_PACKED;
	if (v & V_IN_ORDER) {
		rig_require_in_order(rig_case_name, false);
		f |= 1ULL << VIRTIO_F_IN_ORDER;
	}
	if (v & V_EVENT)
		f |= 1ULL << VIRTIO_RING_F_EVENT_IDX;
	if (v & V_INDIRECT)
		f |= 1ULL << VIRTIO_RING_F_INDIRECT_DESC;
	if (v & V_DMA)
		f |= 1ULL << VIRTIO_F_ACCESS_PLATFORM;
	rig_vdev_init(&vdev, f);
	if (v & V_DMA)
		vdev.dev.parent = &dma_dev;
	rig_queue_make(&queue, &vdev, NUM, NULL, false, notify, NULL, "edges vq");
	vq = queue.vq;
	mockdev_init(&dev, &vdev, &queue.ring);
}

/* @n 16-byte in buffers added (bufs[0 .. n - 1]) and kicked. */
static void add_bufs(unsigned int n)
{
	struct scatterlist sg;
	unsigned int i;

	for (i = 0; i < n; i++) {
		sg_init_one(&sg, bufs[i], sizeof(bufs[i]));
		CHECK(virtqueue_add_inbuf(vq, &sg, 1, bufs[i], GFP_KERNEL) == 0);
	}
	virtqueue_kick(vq);
}

/* The id the driver gave buffer @i (its head; packed, its buffer id). */
static u16 id_of(unsigned int i)
{
	if (edge->v & V_PACKED)
		return le16_to_cpu(queue.ring.vring_packed.desc[i].id);
	return virtio16_to_cpu(&vdev, queue.ring.vring.avail->ring[i]);
}

/* One used entry {@id, @len} for @count buffers, in the first slot. */
static void device_uses(u16 id, u32 len, u16 count)
{
	if (edge->v & V_PACKED) {
		mockdev_write_used_packed(&dev, 0, id, len, mockdev_used_flags(true, len));
	} else {
		mockdev_write_used(&dev, 0, id, len);
		mockdev_set_used_idx(&dev, count);
	}
}

static void guest_done(void)
{
	while (virtqueue_detach_unused_buf(vq))
		;
	rig_queue_destroy(&queue);
}

/* get_buf must break the queue with the row's message, returning nothing. */
static int broken(void)
{
	unsigned int len = 0;
	size_t said;
	void *buf;

	buf = said_get_buf(vq, &len, &said);
	CHECKF_GAP(buf == NULL && virtqueue_is_broken(vq),
		   "get_buf returned %p (len %u) from a lying device, the queue %sbroken", buf,
		   len, virtqueue_is_broken(vq) ? "" : "not ");
	CHECKF(said > 0, "queue broken without a message");
	CHECKF(said_why(false, edge->why), "broken, but not because \"%s\"", edge->why);
	guest_done();
	return 0;
}

/* get_buf must return buffer @i with @len, no word said, the queue fine. */
static void returned(unsigned int i, unsigned int want)
{
	unsigned int len = 0;
	size_t said;
	void *buf;

	buf = said_get_buf(vq, &len, &said);
	CHECKF(buf == bufs[i], "get_buf returned %p, not buffer %u", buf, i);
	CHECKF(len == want, "buffer %u came back with length %u, not %u", i, len, want);
	CHECKF(!said && !virtqueue_is_broken(vq), "a used entry within bounds broke the queue");
}

/*
 * virtio_ring-used-id: a used id < the ring size: a ring of buffers out,
 * one used entry naming the last buffer's id (at: it comes back; in
 * order, the batch of all of them from the first) or the ring size
 * (past).  The queue is made in the kmalloc fence (tests/fence.h): a
 * check moved by one reads the driver's state one id past its array,
 * which faults there, where a plain heap would most likely give "not in
 * flight" and the same refusal.
 */
static int used_id(const struct edge *e, bool past)
{
	u16 last;

	fence_begin();
	guest_queue();
	add_bufs(NUM);
	last = id_of(NUM - 1);
	device_uses(past ? NUM : last, 8, e->v & V_IN_ORDER ? NUM : 1);
	if (past) {
		broken();
	} else {
		if (e->v & V_IN_ORDER)
			returned(0, sizeof(bufs[0]));
		else
			returned(NUM - 1, 8);
		guest_done();
	}
	fence_end();
	return 0;
}

/*
 * virtio_ring-used-idx: the used index at most a ring ahead: a ring of
 * buffers out, each used in its own entry, the index moved by NUM (at:
 * all come back) or NUM + 1 (past).
 */
static int used_idx(const struct edge *e __attribute__((unused)), bool past)
{
	unsigned int i, n;
	u16 id;

	guest_queue();
	add_bufs(NUM);
	for (i = 0; i < NUM; i++) {
		CHECK(mockdev_take(&dev, &id, &n));
		mockdev_use(&dev, id, i, 1, n);
	}
	if (past) {
		mockdev_set_used_idx(&dev, NUM + 1);
		return broken();
	}
	mockdev_publish(&dev);
	for (i = 0; i < NUM; i++)
		returned(i, i);
	guest_done();
	return 0;
}

/*
 * virtio_ring-used-len: a used length at most the buffer's writable
 * bytes: 16 (at) or 17 (past), one buffer (in order: a batch of one).
 */
static int used_len(const struct edge *e __attribute__((unused)), bool past)
{
	guest_queue();
	add_bufs(1);
	device_uses(id_of(0), sizeof(bufs[0]) + past, 1);
	if (past)
		return broken();
	returned(0, sizeof(bufs[0]));
	guest_done();
	return 0;
}

/*
 * virtio_ring-batch: in order, a batch is no longer than the used index
 * moved: three buffers out, one used entry naming the third, the index
 * moved by 3 (at: all three back, the first two whole) or 2 (past).
 */
static int batch(const struct edge *e __attribute__((unused)), bool past)
{
	guest_queue();
	add_bufs(3);
	device_uses(id_of(2), 5, 3 - past);
	if (past)
		return broken();
	returned(0, sizeof(bufs[0]));
	returned(1, sizeof(bufs[1]));
	returned(2, 5);
	guest_done();
	return 0;
}

/*
 * virtio_ring-event-off: the device's event offset (packed, EVENT_IDX) is
 * a position of the ring: one buffer added (the avail offset moves from 0
 * to 1), the device asking for a kick at offset 15 of this lap (at: not
 * reached, no kick) or at 16, no position (past: kick, as the driver
 * cannot tell).
 */
static int event_off(const struct edge *e __attribute__((unused)), bool past)
{
	struct vring_packed_desc_event *ev;
	u16 off = past ? NUM : NUM - 1;
	struct scatterlist sg;
	bool kick;

	guest_queue();
	ev = queue.ring.vring_packed.device;
	WRITE_ONCE(ev->off_wrap, cpu_to_le16(off | 1 << VRING_PACKED_EVENT_F_WRAP_CTR));
	WRITE_ONCE(ev->flags, cpu_to_le16(VRING_PACKED_EVENT_FLAG_DESC));
	sg_init_one(&sg, bufs[0], sizeof(bufs[0]));
	CHECK(virtqueue_add_inbuf(vq, &sg, 1, bufs[0], GFP_KERNEL) == 0);
	kick = virtqueue_kick_prepare(vq);
	CHECKF_GAP(kick == past, "kick_prepare said %d with the device's event at offset %u of a ring of %u",
		   kick, off, NUM);
	CHECK(!virtqueue_is_broken(vq));
	guest_done();
	return 0;
}

/*
 * virtio_ring-event-flags: the device event flags (packed) are ENABLE,
 * DISABLE or DESC: DESC (at: no harm, the queue fine) or the reserved 3
 * (past: the queue breaks).
 */
static int event_flags(const struct edge *e, bool past)
{
	size_t said;

	guest_queue();
	add_bufs(1);
	WRITE_ONCE(queue.ring.vring_packed.device->flags,
		   cpu_to_le16(VRING_PACKED_EVENT_FLAG_DESC + past));
	capture_begin();
	virtqueue_kick_prepare(vq);
	said = capture_end();
	if (past) {
		CHECK_GAP(virtqueue_is_broken(vq));
		CHECKF(said > 0 && said_why(false, e->why),
		       "broken, but not because \"%s\"", e->why);
	} else {
		CHECKF(!said && !virtqueue_is_broken(vq), "DESC broke the queue");
	}
	guest_done();
	return 0;
}

/*
 * virtio_ring-add-sgs: a buffer of at most the ring's entries, direct or
 * (V_INDIRECT) in an indirect table (2.7.5.3.1: no chain longer than the
 * queue): NUM parts (at: added) or NUM + 1 (past: -ENOSPC, nothing
 * added).  Through the DMA API (V_DMA), at maps every part; past maps
 * nothing (and so unmaps nothing).
 */
static int add_sgs(const struct edge *e, bool past)
{
	static char parts[NUM + 1][4];
	struct scatterlist sg[NUM + 1];
	unsigned int i, n = NUM + past;
	int err;

	guest_queue();
	sg_init_table(sg, n);
	for (i = 0; i < n; i++)
		sg_set_buf(&sg[i], parts[i], sizeof(parts[i]));
	dma_maps = dma_live = 0;
	err = virtqueue_add_inbuf(vq, sg, n, parts, GFP_KERNEL);
	if (past) {
		CHECKF_GAP(err == -ENOSPC, "a buffer of %u parts in a ring of %u: %d", n, NUM, err);
		CHECK(vq->num_free == NUM);
		CHECKF(!dma_maps, "%u DMA mappings made for a buffer that never fits", dma_maps);
	} else {
		CHECKF(err == 0, "a buffer of %u parts in a ring of %u: %d", n, NUM, err);
		CHECKF(!(e->v & V_DMA) || dma_maps >= n, "%u DMA mappings for %u parts",
		       dma_maps, n);
	}
	guest_done();
	CHECKF(!dma_live, "%u DMA mappings left after the queue went", dma_live);
	return 0;
}

/*
 * virtio_ring-create-num: the ring size vring_create_virtqueue() takes:
 * 32768 (at), 65536 (split) or 32769 (packed) past; and its lower end, 1
 * (at) and 0 (past), with V_HELD.
 */
static struct virtqueue *create(unsigned int num, size_t *said)
{
	struct virtqueue *q;

	capture_begin();
	q = vring_create_virtqueue(0, num, RIG_RING_ALIGN, &vdev, true, false, false,
				   notify, NULL, "edges vq");
	*said = capture_end();
	return q;
}

static int create_num(const struct edge *e, bool past)
{
	unsigned int num;
	struct virtqueue *q;
	size_t said;
	int status;
	pid_t pid;

	if (e->v & V_HELD)
		num = past ? 0 : 1;
	else
		num = past ? (e->v & V_PACKED ? 32769 : 65536) : 32768;
	rig_vdev_init(&vdev, 1ULL << VIRTIO_F_VERSION_1 |
			     (e->v & V_PACKED ? 1ULL << VIRTIO_F_RING_PACKED : 0));
	if (!past) {
		q = create(num, &said);
		CHECKF(q && !said, "a queue of %u entries: %p", num, (void *)q);
		CHECK(virtqueue_get_vring_size(q) == num);
		vring_del_virtqueue(q);
		return 0;
	}
	/* A driver that takes it may not survive it: try in a child. */
	fflush(NULL);
	pid = fork();
	CHECK(pid >= 0);
	if (!pid) {
		q = create(num, &said);
		_exit(q ? 1 : said ? 0 : 2);
	}
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECKF_GAP(WIFEXITED(status) && WEXITSTATUS(status) != 1,
		   "a queue of %u entries was created%s", num,
		   WIFSIGNALED(status) ? ", and the driver crashed on it" : "");
	CHECKF_GAP(WIFEXITED(status) && WEXITSTATUS(status) == 0, "refused without a message");
	return 0;
}

/*
 * The table.  Names: BOUND:VARIANT, each run :at and :past.  The files'
 * bounds and the rows that take them to their edges are listed in
 * tests/README ("Bounds at their edges").
 */
#define HOST(b, var, v, fn, why, gap)	{ b, var, v, true, fn, why, gap, NULL }
#define GUEST(b, var, v, fn, why, gap)	{ b, var, v, false, fn, why, gap, NULL }
/* A row whose at (the largest value taken) is a kernel tree's gap too. */
#define HOST2(b, var, v, fn, why, gap, gap_at)	{ b, var, v, true, fn, why, gap, gap_at }
#define KV_AVAIL	"the kernel's vringh does not bound the avail index"
#define KV_MULTI	"the kernel's vringh does not bound complete_multi by the ring size"
#define KV_QUEUE	"the kernel's vringh bounds an indirect table by its own length, not the queue size"
#define KR_LEN		"the kernel's virtio_ring does not check used lengths"
#define KR_IDX		"the kernel's virtio_ring does not bound the used index"
#define KR_BATCH	"the kernel's in-order virtio_ring does not check a batch against the used index"
#define KR_FLAGS	"the kernel's virtio_ring kicks on reserved device event flags"
#define KR_OFF		"the kernel's packed virtio_ring reads a device event offset past the ring as a position (no kick)"
#define KR_SGS		"the kernel's virtio_ring puts a chain longer than the queue in an indirect table"
#define KR_NUM		"the kernel's split virtio_ring creates a ring of 65536, more than the 32768 of the spec (2.7)"
#define KR_PNUM		"the kernel's packed virtio_ring creates a ring of 32769, more than the 32768 of the spec (2.8)"
#define KR_NUM0		"a kernel tree's split virtio_ring refuses a ring of 0 entries without a message (Debian's 6.1)"
#define KR_PNUM0	"the kernel's packed virtio_ring takes a ring of 0 entries and writes past the state it allocated for it (a crash)"
#define KG_IN_ORDER_ID	"the kernel's in-order virtio_ring returns the buffers before a batch's id without checking that the id is one in flight"
#define KV_WORD		"the kernel's vringh reaches a ring word only within one IOTLB map: a word across two is refused (-ENOBUFS)"

static const struct edge edges[] = {
	/* vringh.c, split: vringh_split_peek_head(), _walk(), _walk_table(), _count() */
	HOST("vringh-head", "split", 0, head, "but the ring has only", NULL),
	HOST("vringh-head", "split-in-order", V_IN_ORDER, head, "but the ring has only", NULL),
	HOST("vringh-avail-idx", "split", 0, avail_idx, "avail index jumped", KV_AVAIL),
	HOST("vringh-avail-idx", "split-in-order", V_IN_ORDER, avail_idx, "avail index jumped", NULL),
	HOST("vringh-next", "split", 0, next, "past the ring's", NULL),
	HOST("vringh-next", "split-in-order", V_IN_ORDER, next, "past the ring's", NULL),
	HOST("vringh-chain", "split", 0, chain, "longer than the ring", NULL),
	HOST("vringh-chain", "split-in-order", V_IN_ORDER, chain, "longer than the ring", NULL),
	HOST("vringh-queue", "split", 0, queue_size, "longer than the queue size", KV_QUEUE),
	HOST("vringh-queue", "split-in-order", V_IN_ORDER, queue_size, "longer than the queue size", NULL),
	HOST("vringh-table-next", "split", 0, table_next, "past its", NULL),
	HOST("vringh-table-next", "split-in-order", V_IN_ORDER, table_next, "past its", NULL),
	/* vringh.c: vringh_split_complete(), vringh_packed_complete() */
	HOST("vringh-complete-multi", "split", 0, complete_multi, "at once in a ring of", KV_MULTI),
	HOST("vringh-complete-multi", "split-in-order", V_IN_ORDER, complete_multi, "at once in a ring of", NULL),
	HOST("vringh-complete-multi", "packed", V_PACKED, complete_multi, "at once in a ring of", NULL),
	HOST("vringh-complete-multi", "packed-in-order", V_PACKED | V_IN_ORDER, complete_multi, "at once in a ring of", NULL),
	/* vringh.c: vringh_split_complete_batch(), vringh_packed_complete_batch() */
	HOST("vringh-batch-count", "split-in-order", V_IN_ORDER, batch_count, "are taken and not used", NULL),
	HOST("vringh-batch-count", "split-in-order-two-held", V_IN_ORDER | V_HELD, batch_count, "2 are taken and not used", NULL),
	HOST("vringh-batch-count", "packed-in-order", V_PACKED | V_IN_ORDER, batch_count, "in a ring of", NULL),
	HOST("vringh-batch-count", "packed-in-order-two-held", V_PACKED | V_IN_ORDER | V_HELD, batch_count, "only 2 are taken", NULL),
	HOST("vringh-batch-head", "split-in-order", V_IN_ORDER, batch_head, "ending with head 16", NULL),
	/* vringh.c, packed: vringh_packed_getdesc(), _walk(), _walk_table() */
	HOST("vringh-packed-id", "packed", V_PACKED, packed_id, "but ids stop at", NULL),
	HOST("vringh-packed-id", "packed-in-order", V_PACKED | V_IN_ORDER, packed_id, "but ids stop at", NULL),
	HOST("vringh-packed-list", "packed", V_PACKED, packed_list, "longer than the ring", NULL),
	HOST("vringh-packed-list", "packed-one-held", V_PACKED | V_HELD, packed_list, "runs past the 15 free descriptors", NULL),
	HOST("vringh-packed-list", "packed-in-order", V_PACKED | V_IN_ORDER, packed_list, "longer than the ring", NULL),
	HOST("vringh-packed-table", "packed", V_PACKED, packed_table, "more than the ring's", NULL),
	HOST("vringh-packed-table", "packed-in-order", V_PACKED | V_IN_ORDER, packed_table, "more than the ring's", NULL),
	/* vringh.c, packed: _complete_one(), _complete(), _abandon(), _need_notify() */
	HOST("vringh-packed-complete-id", "packed", V_PACKED, packed_complete_id, "past the ring's ids", NULL),
	HOST("vringh-packed-complete-id", "packed-multi", V_PACKED | V_MULTI, packed_complete_id, "past the ring's ids", NULL),
	HOST("vringh-packed-complete-id", "packed-in-order", V_PACKED | V_IN_ORDER, packed_complete_id, "past the ring's ids", NULL),
	HOST("vringh-packed-complete-id", "packed-in-order-multi", V_PACKED | V_IN_ORDER | V_MULTI, packed_complete_id, "past the ring's ids", NULL),
	HOST("vringh-packed-abandon", "packed", V_PACKED, packed_abandon, "cannot abandon 17 buffers", NULL),
	HOST("vringh-packed-event-off", "packed-event-idx", V_PACKED | V_EVENT, packed_event_off, NULL, NULL),
	/* vringh.c: vringh_translate() against getrange's regions */
	HOST("vringh-buffer-region", "split", 0, buffer_region, "is not in guest memory", NULL),
	HOST("vringh-buffer-region", "split-two-regions", V_TWO, buffer_region, "is not in guest memory", NULL),
	HOST("vringh-buffer-region", "packed", V_PACKED, buffer_region, "is not in guest memory", NULL),
	HOST("vringh-buffer-region", "packed-two-regions", V_PACKED | V_TWO, buffer_region, "is not in guest memory", NULL),
	/* the ring's last field against the end of the host's reach (linux/uaccess.h) */
	HOST("vringh-ring-window", "split-event-idx", V_EVENT, ring_window, "cannot write the avail event index", NULL),
	HOST("vringh-ring-window", "packed", V_PACKED, ring_window, "cannot write the device event flags", NULL),
	/* vringh.c: vringh_iotlb_lookup(), _copy(), vringh_get16_iotlb(), _put16_iotlb() */
	HOST("vringh-iotlb-buffer", "one-map", 0, iotlb_buffer, "is not mapped", NULL),
	HOST("vringh-iotlb-buffer", "two-maps", V_TWO, iotlb_buffer, "is not mapped", NULL),
	HOST("vringh-iotlb-ring", "split-event-idx-one-map", V_EVENT, iotlb_ring_end,
	     "cannot read the used event index", NULL),
	HOST2("vringh-iotlb-ring", "split-event-idx-two-maps", V_EVENT | V_TWO, iotlb_ring_end,
	      "cannot read the used event index", NULL, KV_WORD),
	HOST("vringh-iotlb-word", "two-maps", V_TWO, iotlb_word, NULL, KV_WORD),
	HOST("vringh-iotlb-word", "two-maps-used-idx", V_TWO, iotlb_used_word, NULL, KV_WORD),
	/* virtio_ring.c: get_buf, split and packed, in order and not */
	GUEST("virtio_ring-used-id", "split", 0, used_id, "out of range", NULL),
	GUEST("virtio_ring-used-id", "split-in-order", V_IN_ORDER, used_id, "out of range", KG_IN_ORDER_ID),
	GUEST("virtio_ring-used-id", "packed", V_PACKED, used_id, "out of range", NULL),
	GUEST("virtio_ring-used-id", "packed-in-order", V_PACKED | V_IN_ORDER, used_id, "out of range", KG_IN_ORDER_ID),
	GUEST("virtio_ring-used-idx", "split", 0, used_idx, "ahead of", KR_IDX),
	GUEST("virtio_ring-used-idx", "split-in-order", V_IN_ORDER, used_idx, "ahead of", KR_IDX),
	GUEST("virtio_ring-used-len", "split", 0, used_len, "writable bytes", KR_LEN),
	GUEST("virtio_ring-used-len", "split-in-order", V_IN_ORDER, used_len, "writable bytes", KR_LEN),
	GUEST("virtio_ring-used-len", "packed", V_PACKED, used_len, "writable bytes", KR_LEN),
	GUEST("virtio_ring-used-len", "packed-in-order", V_PACKED | V_IN_ORDER, used_len, "writable bytes", KR_LEN),
	GUEST("virtio_ring-batch", "split-in-order", V_IN_ORDER, batch, "used out of order", KR_BATCH),
	/* virtio_ring.c: kick_prepare, packed */
	GUEST("virtio_ring-event-off", "packed-event-idx", V_PACKED | V_EVENT, event_off, NULL, KR_OFF),
	GUEST("virtio_ring-event-flags", "packed", V_PACKED, event_flags, "reserved", KR_FLAGS),
	/* virtio_ring.c: virtqueue_add_split(), _packed() */
	GUEST("virtio_ring-add-sgs", "split", 0, add_sgs, NULL, NULL),
	GUEST("virtio_ring-add-sgs", "split-indirect", V_INDIRECT, add_sgs, NULL, KR_SGS),
	GUEST("virtio_ring-add-sgs", "split-in-order", V_IN_ORDER, add_sgs, NULL, NULL),
	GUEST("virtio_ring-add-sgs", "packed", V_PACKED, add_sgs, NULL, NULL),
	GUEST("virtio_ring-add-sgs", "packed-indirect", V_PACKED | V_INDIRECT, add_sgs, NULL, KR_SGS),
	GUEST("virtio_ring-add-sgs", "packed-in-order", V_PACKED | V_IN_ORDER, add_sgs, NULL, NULL),
	/* virtio_ring.c: virtqueue_add_mapped(), the DMA API's path */
	GUEST("virtio_ring-add-sgs", "split-dma", V_DMA, add_sgs, NULL, NULL),
	GUEST("virtio_ring-add-sgs", "split-dma-indirect", V_DMA | V_INDIRECT, add_sgs, NULL, KR_SGS),
	GUEST("virtio_ring-add-sgs", "packed-dma", V_PACKED | V_DMA, add_sgs, NULL, NULL),
	GUEST("virtio_ring-add-sgs", "packed-dma-indirect", V_PACKED | V_DMA | V_INDIRECT, add_sgs, NULL, KR_SGS),
	/* virtio_ring.c: vring_split_num_ok(), vring_packed_num_ok() */
	GUEST("virtio_ring-create-num", "split", 0, create_num, NULL, KR_NUM),
	GUEST("virtio_ring-create-num", "split-lower", V_HELD, create_num, NULL, KR_NUM0),
	GUEST("virtio_ring-create-num", "packed", V_PACKED, create_num, NULL, KR_PNUM),
	GUEST("virtio_ring-create-num", "packed-lower", V_PACKED | V_HELD, create_num, NULL, KR_PNUM0),
};

static struct rig_case cases[2 * ARRAY_SIZE(edges)];
static char names[2 * ARRAY_SIZE(edges)][96];

static int run_edge(unsigned long arg)
{
	edge = &edges[arg / 2];
	return edge->run(edge, arg & 1);
}

int main(int argc, char *argv[])
{
	unsigned int i;

	for (i = 0; i < 2 * ARRAY_SIZE(edges); i++) {
		const struct edge *e = &edges[i / 2];

		snprintf(names[i], sizeof(names[i]), "%s:%s:%s", e->bound, e->variant,
			 i & 1 ? "past" : "at");
		cases[i].name = names[i];
		cases[i].run_arg = run_edge;
		cases[i].arg = i;
		cases[i].host = e->host;
		cases[i].kernel_gap = i & 1 ? e->gap : e->gap_at;
	}
	return rig_case_main(argc, argv, cases, ARRAY_SIZE(cases), help);
}
