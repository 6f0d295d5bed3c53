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
 * Usage: hostile --list | hostile CASE | hostile -h
 * Exit 0 when the ring code handled the case, 1 when it did not, 2 for a
 * usage error, 77 when the ring code under test lacks what the case needs
 * (a SKIP: a packed vringh, VIRTIO_F_IN_ORDER), 78 when a kernel tree's
 * code did not detect what it is known not to (a TODO, struct
 * hostile_case.kernel_gap, shown by the CHECKF_GAP it is about; any other
 * check failing is a failure).  Every case runs, whichever code is linked.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
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

#include "harness/harness.h"
#include "harness/mockdev.h"
#include "tests/chain.h"
#include "tests/said.h"

static const char help[] =
"Usage: hostile --list | hostile --gaps | hostile CASE\n"
"Run one hostile-ring case (--list names them all).  Exit 0: the ring code\n"
"handled it; 1: it did not; 2: usage error; 77: SKIP, the linked ring code\n"
"lacks what the case needs; 78: TODO, a kernel tree's code did not detect\n"
"what it is known not to (a pass then says the gap is gone).\n";

#define RING_SIZE	16
#define MEM_SIZE	(64 * 1024)
#define OFF_TABLE	16384
#define OFF_DATA	32768

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
	vring_init(&gvr, RING_SIZE, shm.guest, RIG_RING_ALIGN);
	vring_init(&hvr, RING_SIZE, shm.host, RIG_RING_ALIGN);
	CHECK(vringh_init_user(&vrh, host_features, RING_SIZE, true,
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

	gvr.avail->ring[idx % RING_SIZE] = cpu_to_vringh16(&vrh, head);
	gvr.avail->idx = cpu_to_vringh16(&vrh, idx + 1);
}

static u64 data_addr(unsigned int n)
{
	return (uintptr_t)gaddr(OFF_DATA + n * 64);
}

/* LAY: rows (tests/chain.h) into table @t; OFFER: into the ring, first row the head. */
#define LAY(t, ...)	chain_lay(set_desc, t, CHAIN_ROWS(__VA_ARGS__))
#define OFFER(...)	chain_offer(set_desc, offer, gvr.desc, CHAIN_ROWS(__VA_ARGS__))

/*
 * One getdesc on fresh iovs, what the ring code printed captured (*said:
 * how many bytes); returns getdesc's result.
 */
static int getdesc_said(bool (*getrange)(struct vringh *, u64, struct vringh_range *),
			u16 *head, size_t *said)
{
	struct iovec rstack[4], wstack[4];
	struct vringh_iov riov, wiov;
	int err;

	vringh_iov_init(&riov, rstack, 4);
	vringh_iov_init(&wiov, wstack, 4);
	capture_begin();
	err = vringh_getdesc_user(&vrh, &riov, &wiov, getrange, head);
	*said = capture_end();
	vringh_iov_cleanup(&riov);
	vringh_iov_cleanup(&wiov);
	return err;
}

/* For check_refused(): any error will do. */
#define ANY_REFUSAL INT_MIN

/*
 * What vringh_getdesc_*() returned, in words: an errno's name, or what a
 * 0 or 1 means (strerror() of a positive value is "Unknown error -1").
 */
static const char *getdesc_words(int err)
{
	if (err < 0)
		return strerror(-err);
	return err ? "a buffer taken" : "nothing there";
}

/*
 * getdesc's @err must be @want (any error: ANY_REFUSAL), and the rig's
 * vringh must have said why (with @why in it, see said_why()).
 */
static void check_refused(int err, int want, size_t said, const char *why)
{
	if (want == ANY_REFUSAL)
		CHECKF_GAP(err < 0, "getdesc returned %d, expected a refusal", err);
	else
		CHECKF_GAP(err == want, "getdesc returned %d (%s), expected %d (%s)",
		           err, getdesc_words(err), want, getdesc_words(want));
	/*
	 * The kernel's vringh takes the head before walking its chain and
	 * refuses some addresses silently; the rig's promises more.
	 */
	if (strcmp(rig_host_impl(), "kernel") == 0)
		return;
	CHECKF(said > 0, "error %d returned without a message", err);
	CHECKF(said_why(true, why), "refused, but not because \"%s\"", why);
}

/* Run getdesc once; it must be refused (check_refused()), and not advance. */
static int expect_getdesc_why(int want,
			      bool (*getrange)(struct vringh *, u64, struct vringh_range *),
			      const char *why)
{
	u16 before = vrh.last_avail_idx;
	size_t said;
	u16 head;
	int err;

	err = getdesc_said(getrange, &head, &said);
	rig_shm_destroy(&shm);
	check_refused(err, want, said, why);
	if (strcmp(rig_host_impl(), "kernel") == 0)
		return 0;	/* it may take the head: see check_refused() */
	CHECKF(vrh.last_avail_idx == before, "the avail index moved on error");
	return 0;
}

static int expect_getdesc(int want,
			  bool (*getrange)(struct vringh *, u64, struct vringh_range *))
{
	return expect_getdesc_why(want, getrange, NULL);
}

static bool range_getrange(struct vringh *v, u64 addr, struct vringh_range *r)
{
	return rig_getrange(v, addr, r);
}

/* Take the next buffer, which must come; return its head (or id). */
static u16 take(void)
{
	size_t said;
	u16 head;

	CHECK(getdesc_said(range_getrange, &head, &said) == 1);
	return head;
}

static int host_head_out_of_range(void)
{
	host_setup();
	offer(RING_SIZE);
	return expect_getdesc_why(-EINVAL, range_getrange,
				  "but the ring has only");
}

static int host_next_out_of_range(void)
{
	host_setup();
	set_desc(&gvr.desc[0], data_addr(0), 8, VRING_DESC_F_NEXT, RING_SIZE);
	offer(0);
	return expect_getdesc_why(-EINVAL, range_getrange,
				  "past the ring's");
}

static int host_desc_loop(void)
{
	host_setup();
	OFFER(CHAIN_LOOP(data_addr));
	return expect_getdesc_why(-ELOOP, range_getrange,
				  "longer than the ring");
}

/* A chain through zero-length descriptors still may not exceed the ring. */
static int host_chain_longer_than_ring(void)
{
	unsigned int i;

	host_setup();
	for (i = 0; i < RING_SIZE; i++)
		set_desc(&gvr.desc[i], data_addr(0), 0, VRING_DESC_F_NEXT,
			 (i + 1) % RING_SIZE);
	offer(0);
	return expect_getdesc_why(-ELOOP, range_getrange,
				  "longer than the ring");
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
	LAY(t, { 0, data_addr(0), 8, VRING_DESC_F_NEXT, 1 },
	       { 1, data_addr(1), 8, VRING_DESC_F_NEXT, 0 });
	OFFER({ 0, (uintptr_t)t, 2 * sizeof(*t), VRING_DESC_F_INDIRECT, 0 });
	return expect_getdesc_why(-ELOOP, range_getrange,
				  "chains through more than its");
}

static int host_nested_indirect(void)
{
	struct vring_desc *t;

	host_setup();
	t = table();
	LAY(t, { 0, (uintptr_t)&t[4], 2 * sizeof(*t), VRING_DESC_F_INDIRECT, 0 },
	       { 4, data_addr(0), 8, 0, 0 });
	OFFER({ 0, (uintptr_t)t, sizeof(*t), VRING_DESC_F_INDIRECT, 0 });
	return expect_getdesc(-EINVAL, range_getrange);
}

static int host_indirect_len_zero(void)
{
	host_setup();
	set_desc(&gvr.desc[0], (uintptr_t)table(), 0, VRING_DESC_F_INDIRECT, 0);
	offer(0);
	/* The kernel's vringh refuses it too, as a loop (-ELOOP). */
	return expect_getdesc_why(strcmp(rig_host_impl(), "kernel") ?
				  -EINVAL : ANY_REFUSAL,
				  range_getrange, "nonzero number");
}

static int host_indirect_len_odd(void)
{
	host_setup();
	set_desc(&gvr.desc[0], (uintptr_t)table(), 24, VRING_DESC_F_INDIRECT, 0);
	offer(0);
	return expect_getdesc_why(-EINVAL, range_getrange,
				  "nonzero number");
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
	OFFER({ 0, data_addr(0), 8, VRING_DESC_F_WRITE | VRING_DESC_F_NEXT, 1 },
	      { 1, data_addr(1), 8, 0, 0 });
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
	gvr.avail->idx = cpu_to_vringh16(&vrh, RING_SIZE + 1);
	return expect_getdesc_why(-EINVAL, range_getrange,
				  "avail index jumped");
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

/*
 * Split ring sizes: powers of 2 from 1 to 32768.  Refused: 0, 3 (no power
 * of 2) and 65536 (its index would not fit the 16-bit ring indices);
 * accepted: both ends, 1 and 32768.
 */
static int host_bad_ring_size(void)
{
	static const unsigned int bad[] = { 0, 3, 65536 }, good[] = { 1, 32768 };
	struct vring hvr;
	unsigned int i;
	size_t said;
	int err;

	rig_shm_create(&shm, MEM_SIZE);
	vring_init(&hvr, RING_SIZE, shm.host, RIG_RING_ALIGN);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		capture_begin();
		err = vringh_init_user(&vrh, host_features, bad[i], true,
				       hvr.desc, hvr.avail, hvr.used);
		said = capture_end();
		CHECKF(err == -EINVAL, "vringh_init_user(num %u) returned %d",
		       bad[i], err);
		CHECK(said > 0);
	}
	/* The parts' addresses matter, not the memory behind them here. */
	for (i = 0; i < ARRAY_SIZE(good); i++) {
		err = vringh_init_user(&vrh, host_features, good[i], true,
				       hvr.desc, hvr.avail, hvr.used);
		CHECKF(err == 0, "vringh_init_user(num %u) returned %d",
		       good[i], err);
	}
	rig_shm_destroy(&shm);
	return 0;
}

/*
 * The largest values each bound accepts, just inside the edges that the
 * cases above refuse: getdesc must take the buffer (1) without a message;
 * then @teardown (split or packed).
 */
static void host_teardown(void)
{
	rig_shm_destroy(&shm);
}

static int expect_taken(bool (*getrange)(struct vringh *, u64, struct vringh_range *),
			void (*teardown)(void))
{
	struct iovec rstack[4], wstack[4];
	struct vringh_iov riov, wiov;
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
	teardown();
	CHECKF(err == 1, "getdesc returned %d (%s), expected 1", err,
	       getdesc_words(err));
	CHECKF(said == 0, "a buffer within bounds taken with a message");
	return 0;
}

static int expect_getdesc_ok(bool (*getrange)(struct vringh *, u64, struct vringh_range *))
{
	return expect_taken(getrange, host_teardown);
}

/* Edge of host-head-out-of-range: the last descriptor as a head. */
static int host_head_last(void)
{
	host_setup();
	set_desc(&gvr.desc[RING_SIZE - 1], data_addr(0), 8, 0, 0);
	offer(RING_SIZE - 1);
	return expect_getdesc_ok(range_getrange);
}

/* Edge of host-next-out-of-range: a chain into the last descriptor. */
static int host_next_last(void)
{
	host_setup();
	set_desc(&gvr.desc[0], data_addr(0), 8, VRING_DESC_F_NEXT, RING_SIZE - 1);
	set_desc(&gvr.desc[RING_SIZE - 1], data_addr(1), 8, 0, 0);
	offer(0);
	return expect_getdesc_ok(range_getrange);
}

/* Edge of host-avail-idx-jump: a whole ring available at once. */
static int host_avail_idx_full(void)
{
	unsigned int i;

	host_setup();
	for (i = 0; i < RING_SIZE; i++) {
		set_desc(&gvr.desc[i], data_addr(i), 8, 0, 0);
		offer(i);
	}
	for (i = 0; i + 1 < RING_SIZE; i++)
		CHECK(take() == i);
	return expect_getdesc_ok(range_getrange);
}

/* Edge of host-chain-longer-than-ring: a chain of every descriptor. */
static int host_chain_whole_ring(void)
{
	unsigned int i;

	host_setup();
	for (i = 0; i < RING_SIZE; i++)
		set_desc(&gvr.desc[i], data_addr(0), 0,
			 i + 1 < RING_SIZE ? VRING_DESC_F_NEXT : 0, i + 1);
	offer(0);
	return expect_getdesc_ok(range_getrange);
}

/* Edge of host-addr-wraps: a buffer whose last byte is the last address. */
static int host_addr_ends_at_top(void)
{
	host_setup();
	set_desc(&gvr.desc[0], ~0ULL - 63, 64, 0, 0);
	offer(0);
	return expect_getdesc_ok(everything_getrange);
}

/*
 * Edge of host-addr-outside-range: a buffer whose last byte is the last
 * byte of guest memory.
 */
static int host_addr_ends_at_memory_end(void)
{
	host_setup();
	set_desc(&gvr.desc[0], (uintptr_t)gaddr(MEM_SIZE - 8), 8, 0, 0);
	offer(0);
	return expect_getdesc_ok(range_getrange);
}

/*
 * A table of @entries whose entry 0 chains to entry 2, and 2 ends it: with
 * two entries, 2 is the table's length (refused); with three, its last
 * entry (accepted).
 */
static void offer_table_chaining_to_2(unsigned int entries)
{
	struct vring_desc *t;

	host_setup();
	t = table();
	set_desc(&t[0], data_addr(0), 8, VRING_DESC_F_NEXT, 2);
	set_desc(&t[entries - 1], data_addr(1), 8, 0, 0);
	set_desc(&gvr.desc[0], (uintptr_t)t, entries * sizeof(*t),
		 VRING_DESC_F_INDIRECT, 0);
	offer(0);
}

static int host_indirect_next_out_of_range(void)
{
	offer_table_chaining_to_2(2);
	return expect_getdesc_why(-EINVAL, range_getrange, "past its");
}

static int host_indirect_next_last(void)
{
	offer_table_chaining_to_2(3);
	return expect_getdesc_ok(range_getrange);
}

/*
 * complete_multi of more used elements than the ring has (refused, the
 * used index unmoved) and of a whole ring's worth (accepted): every
 * buffer of the ring taken, @elems the used elements for them and one
 * more.
 */
static void take_whole_ring(struct vring_used_elem *elems)
{
	unsigned int i;

	host_setup();
	for (i = 0; i < RING_SIZE; i++) {
		set_desc(&gvr.desc[i], data_addr(i), 8, 0, 0);
		offer(i);
		CHECK(take() == i);
	}
	for (i = 0; i <= RING_SIZE; i++) {
		elems[i].id = cpu_to_vringh32(&vrh, i % RING_SIZE);
		elems[i].len = 0;
	}
}

static int host_complete_multi_too_many(void)
{
	struct vring_used_elem elems[RING_SIZE + 1];
	size_t said;
	int err;

	take_whole_ring(elems);
	capture_begin();
	err = vringh_complete_multi_user(&vrh, elems, RING_SIZE + 1);
	said = capture_end();
	CHECKF_GAP(err == -EINVAL, "complete_multi of %u returned %d",
	           RING_SIZE + 1, err);
	CHECK(said > 0 && vringh16_to_cpu(&vrh, gvr.used->idx) == 0);
	rig_shm_destroy(&shm);
	return 0;
}

static int host_complete_multi_whole_ring(void)
{
	struct vring_used_elem elems[RING_SIZE + 1];
	int err;

	take_whole_ring(elems);
	err = vringh_complete_multi_user(&vrh, elems, RING_SIZE);
	CHECKF(err == 0, "complete_multi of %u returned %d", RING_SIZE, err);
	CHECK(vringh16_to_cpu(&vrh, gvr.used->idx) == RING_SIZE);
	rig_shm_destroy(&shm);
	return 0;
}

/*
 * Host side, packed ring: descriptors the test writes as a guest would, on
 * a ring of RING_SIZE at the start of the shared memory (vring_packed_init()).
 * A vringh without a packed ring (a kernel tree's) cannot run these: they
 * are SKIPs, as linux/vringh.h says (no vringh_init_packed_user).
 */
#ifdef vringh_init_packed_user
#define PACKED_F_AVAIL	(1 << VRING_PACKED_DESC_F_AVAIL)
#define PACKED_F_USED	(1 << VRING_PACKED_DESC_F_USED)

static struct vring_packed gpr;	/* guest view */

static void packed_setup(void)
{
	struct vring_packed hpr;

	rig_shm_create(&shm, MEM_SIZE);
	memset(shm.guest, 0, MEM_SIZE);
	rig_user_map(shm.guest, shm.host, MEM_SIZE, false);
	vring_packed_init(&gpr, RING_SIZE, shm.guest);
	vring_packed_init(&hpr, RING_SIZE, shm.host);
	CHECK(vringh_init_packed_user(&vrh, host_features, RING_SIZE, true,
				      hpr.desc, hpr.driver, hpr.device) == 0);
}

/* Write descriptor @i as the driver would in lap @wrap, with @flags. */
static void set_pdesc(unsigned int i, u64 addr, u32 len, u16 id, u16 flags,
		      bool wrap)
{
	struct vring_packed_desc *d = &gpr.desc[i];

	d->addr = cpu_to_le64(addr);
	d->len = cpu_to_le32(len);
	d->id = cpu_to_le16(id);
	d->flags = cpu_to_le16(flags | (wrap ? PACKED_F_AVAIL : PACKED_F_USED));
}

static struct vring_packed_desc *ptable(void)
{
	return gaddr(OFF_TABLE);
}

/* An entry of the packed indirect table at OFF_TABLE. */
static void set_pentry(unsigned int i, u64 addr, u32 len, u16 flags)
{
	struct vring_packed_desc *t = ptable();

	t[i].addr = cpu_to_le64(addr);
	t[i].len = cpu_to_le32(len);
	t[i].id = 0;
	t[i].flags = cpu_to_le16(flags);
}

static void packed_teardown(void)
{
	vringh_cleanup(&vrh);
	rig_shm_destroy(&shm);
}

/*
 * Take @takes buffers, which must come; then getdesc must fail with @want,
 * say why, and leave the ring where it was.
 */
static int expect_packed_why(int want, unsigned int takes,
			     bool (*getrange)(struct vringh *, u64, struct vringh_range *),
			     const char *why)
{
	u16 before, head;
	size_t said;
	bool wrap;
	int err;

	while (takes--)
		CHECK(getdesc_said(getrange, &head, &said) == 1);
	before = vrh.last_avail_idx;
	wrap = vrh.avail_wrap_counter;
	err = getdesc_said(getrange, &head, &said);
	check_refused(err, want, said, why);
	CHECKF(vrh.last_avail_idx == before && vrh.avail_wrap_counter == wrap,
	       "the avail offset moved on error");
	CHECKF(head == RING_SIZE, "head %u on error", head);
	packed_teardown();
	return 0;
}

static int expect_packed(int want, unsigned int takes,
			 bool (*getrange)(struct vringh *, u64, struct vringh_range *))
{
	return expect_packed_why(want, takes, getrange, NULL);
}

static int host_packed_id_out_of_range(void)
{
	packed_setup();
	set_pdesc(0, data_addr(0), 8, RING_SIZE, 0, true);
	return expect_packed_why(-EINVAL, 0, range_getrange,
				 "but ids stop at");
}

/* Two buffers in flight under one id. */
static int host_packed_id_in_use(void)
{
	packed_setup();
	set_pdesc(0, data_addr(0), 8, 3, 0, true);
	set_pdesc(1, data_addr(1), 8, 3, 0, true);
	return expect_packed(-EINVAL, 1, range_getrange);
}

/* Every descriptor chained, across the end of the ring and on. */
static int host_packed_list_longer_than_ring(void)
{
	unsigned int i;

	packed_setup();
	for (i = 0; i < RING_SIZE; i++)
		set_pdesc(i, data_addr(0), 0, 0, VRING_DESC_F_NEXT, true);
	return expect_packed_why(-ELOOP, 0, range_getrange,
				 "longer than the ring");
}

/*
 * The device holds the buffer at 0; a list from 1 chains all round the
 * ring into it, the driver having rewritten it for the next lap.
 */
static int host_packed_list_overruns_held(void)
{
	struct iovec rstack[4];
	struct vringh_iov riov;
	unsigned int i;
	u16 head;

	packed_setup();
	set_pdesc(0, data_addr(0), 8, 0, 0, true);
	vringh_iov_init(&riov, rstack, 4);
	CHECK(vringh_getdesc_user(&vrh, &riov, NULL, range_getrange, &head) == 1);
	vringh_iov_cleanup(&riov);
	for (i = 1; i < RING_SIZE; i++)
		set_pdesc(i, data_addr(1), 8, 1, VRING_DESC_F_NEXT, true);
	set_pdesc(0, data_addr(2), 8, 1, 0, false);
	return expect_packed(-EINVAL, 0, range_getrange);
}

static int host_packed_indirect_in_list(void)
{
	packed_setup();
	set_pentry(0, data_addr(0), 8, 0);
	set_pdesc(0, data_addr(1), 8, 0, VRING_DESC_F_NEXT, true);
	set_pdesc(1, (uintptr_t)ptable(), 16, 0, VRING_DESC_F_INDIRECT, true);
	return expect_packed(-EINVAL, 0, range_getrange);
}

static int host_packed_indirect_with_next(void)
{
	packed_setup();
	set_pentry(0, data_addr(0), 8, 0);
	set_pdesc(0, (uintptr_t)ptable(), 16, 0,
		  VRING_DESC_F_INDIRECT | VRING_DESC_F_NEXT, true);
	set_pdesc(1, data_addr(1), 8, 0, 0, true);
	return expect_packed(-EINVAL, 0, range_getrange);
}

static int host_packed_nested_indirect(void)
{
	packed_setup();
	set_pentry(0, data_addr(0), 8, 0);
	set_pentry(1, (uintptr_t)&ptable()[4], 16, VRING_DESC_F_INDIRECT);
	set_pdesc(0, (uintptr_t)ptable(), 32, 0, VRING_DESC_F_INDIRECT, true);
	return expect_packed(-EINVAL, 0, range_getrange);
}

static int host_packed_indirect_len_zero(void)
{
	packed_setup();
	set_pdesc(0, (uintptr_t)ptable(), 0, 0, VRING_DESC_F_INDIRECT, true);
	return expect_packed_why(-EINVAL, 0, range_getrange,
				 "nonzero number");
}

static int host_packed_indirect_len_odd(void)
{
	packed_setup();
	set_pdesc(0, (uintptr_t)ptable(), 24, 0, VRING_DESC_F_INDIRECT, true);
	return expect_packed(-EINVAL, 0, range_getrange);
}

/* A table of more entries than the ring: a list longer than the ring. */
static int host_packed_indirect_too_long(void)
{
	unsigned int i;

	packed_setup();
	for (i = 0; i <= RING_SIZE; i++)
		set_pentry(i, data_addr(0), 1, 0);
	set_pdesc(0, (uintptr_t)ptable(), (RING_SIZE + 1) * 16, 0,
		  VRING_DESC_F_INDIRECT, true);
	return expect_packed_why(-EINVAL, 0, range_getrange,
				 "more than the ring's");
}

static int host_packed_indirect_outside_range(void)
{
	packed_setup();
	set_pdesc(0, (uintptr_t)gaddr(MEM_SIZE + 4096), 32, 0,
		  VRING_DESC_F_INDIRECT, true);
	return expect_packed(-EINVAL, 0, range_getrange);
}

/* AVAIL and USED both equal to the driver's wrap counter at the head. */
static int host_packed_wrap_confusion_head(void)
{
	packed_setup();
	set_pdesc(0, data_addr(0), 8, 0, PACKED_F_USED, true);
	return expect_packed_why(-EINVAL, 0, range_getrange,
				 "wrap counter confusion");
}

/* A list whose second descriptor still has the previous lap's flags. */
static int host_packed_wrap_confusion_list(void)
{
	packed_setup();
	set_pdesc(0, data_addr(0), 8, 0, VRING_DESC_F_NEXT, true);
	set_pdesc(1, data_addr(1), 8, 0, 0, false);
	return expect_packed(-EINVAL, 0, range_getrange);
}

static int host_packed_readable_after_writable(void)
{
	packed_setup();
	set_pdesc(0, data_addr(0), 8, 0, VRING_DESC_F_WRITE | VRING_DESC_F_NEXT,
		  true);
	set_pdesc(1, data_addr(1), 8, 0, 0, true);
	return expect_packed(-EINVAL, 0, range_getrange);
}

static int host_packed_addr_outside_range(void)
{
	packed_setup();
	set_pdesc(0, (uintptr_t)gaddr(MEM_SIZE - 4), 8, 0, 0, true);
	return expect_packed(-EINVAL, 0, range_getrange);
}

static int host_packed_addr_wraps(void)
{
	packed_setup();
	set_pdesc(0, ~0ULL - 15, 64, 0, 0, true);
	return expect_packed(-EINVAL, 0, everything_getrange);
}

static int host_packed_ring_outside_window(void)
{
	packed_setup();
	set_pdesc(0, data_addr(0), 8, 0, 0, true);
	/* The host's view of the ring lies outside the user window. */
	__user_addr_min = (char *)shm.host + 8192;
	return expect_packed(-EFAULT, 0, range_getrange);
}

static int host_packed_bad_ring_size(void)
{
	static const unsigned int bad[] = { 0, 32769, 65536 };
	struct vring_packed hpr;
	unsigned int i;
	size_t said;
	int err;

	rig_shm_create(&shm, MEM_SIZE);
	vring_packed_init(&hpr, RING_SIZE, shm.host);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		capture_begin();
		err = vringh_init_packed_user(&vrh, host_features, bad[i], true,
					      hpr.desc, hpr.driver, hpr.device);
		said = capture_end();
		CHECKF(err == -EINVAL, "vringh_init_packed_user(num %u) returned %d",
		       bad[i], err);
		CHECK(said > 0);
	}
	/*
	 * Any other size will do: packed rings need no power of 2.  Both ends,
	 * 1 and 32768, and 3.
	 */
	CHECK(vringh_init_packed_user(&vrh, host_features, 32768, true,
				      hpr.desc, hpr.driver, hpr.device) == 0);
	vringh_cleanup(&vrh);
	CHECK(vringh_init_packed_user(&vrh, host_features, 1, true, hpr.desc,
				      hpr.driver, hpr.device) == 0);
	vringh_cleanup(&vrh);
	CHECK(vringh_init_packed_user(&vrh, host_features, 3, true, hpr.desc,
				      hpr.driver, hpr.device) == 0);
	packed_teardown();
	return 0;
}

/*
 * The device's own mistakes: completing an id it does not hold, or one
 * twice in a batch, writes nothing; the right ids then complete, out of
 * order, each at the next used offset.
 */
static int host_packed_complete_bad_id(void)
{
	struct vring_used_elem twice[2];
	struct iovec rstack[4];
	struct vringh_iov riov;
	int err1, err2, err3;
	size_t said;
	u16 head;

	packed_setup();
	set_pdesc(0, data_addr(0), 8, 3, 0, true);
	set_pdesc(1, data_addr(1), 8, 5, 0, true);
	vringh_iov_init(&riov, rstack, 4);
	CHECK(vringh_getdesc_user(&vrh, &riov, NULL, range_getrange, &head) == 1);
	CHECK(head == 3);
	CHECK(vringh_getdesc_user(&vrh, &riov, NULL, range_getrange, &head) == 1);
	CHECK(head == 5);
	vringh_iov_cleanup(&riov);

	twice[0].id = twice[1].id = cpu_to_vringh32(&vrh, 5);
	twice[0].len = twice[1].len = 0;
	capture_begin();
	err1 = vringh_complete_user(&vrh, 4, 0);
	err2 = vringh_complete_user(&vrh, RING_SIZE, 0);
	err3 = vringh_complete_multi_user(&vrh, twice, 2);
	said = capture_end();
	CHECKF(err1 == -EINVAL && err2 == -EINVAL && err3 == -EINVAL,
	       "complete returned %d, %d, %d", err1, err2, err3);
	CHECK(said > 0 && said_why(true, "past the ring's ids"));
	CHECK(vrh.last_used_idx == 0);
	CHECK(le16_to_cpu(gpr.desc[0].flags) == PACKED_F_AVAIL &&
	      le16_to_cpu(gpr.desc[0].id) == 3);

	CHECK(vringh_complete_user(&vrh, 5, 0) == 0);
	CHECK(vringh_complete_user(&vrh, 3, 0) == 0);
	CHECK(le16_to_cpu(gpr.desc[0].id) == 5 && le16_to_cpu(gpr.desc[1].id) == 3);
	CHECK(le16_to_cpu(gpr.desc[0].flags) == (PACKED_F_AVAIL | PACKED_F_USED));
	CHECK(le16_to_cpu(gpr.desc[1].flags) == (PACKED_F_AVAIL | PACKED_F_USED));
	packed_teardown();
	return 0;
}

/* Abandon may only give back buffers not completed since. */
static int host_packed_abandon_completed(void)
{
	struct iovec rstack[4];
	struct vringh_iov riov;
	unsigned int i;
	size_t said;
	u16 head;

	packed_setup();
	for (i = 0; i < 3; i++)
		set_pdesc(i, data_addr(i), 8, i, 0, true);
	vringh_iov_init(&riov, rstack, 4);
	for (i = 0; i < 3; i++)
		CHECK(vringh_getdesc_user(&vrh, &riov, NULL, range_getrange,
					  &head) == 1);
	vringh_iov_cleanup(&riov);
	CHECK(vringh_complete_user(&vrh, 1, 0) == 0);

	capture_begin();
	vringh_abandon_user(&vrh, 2);
	said = capture_end();
	CHECK(said > 0);
	CHECK(vrh.last_avail_idx == 3);
	/* The last one alone may go back. */
	vringh_abandon_user(&vrh, 1);
	CHECK(vrh.last_avail_idx == 2);
	packed_teardown();
	return 0;
}

/* A device-writable buffer when the caller takes only readable ones. */
static int host_packed_unexpected_direction(void)
{
	struct iovec rstack[4];
	struct vringh_iov riov;
	size_t said;
	u16 head;
	int err;

	packed_setup();
	set_pdesc(0, data_addr(0), 8, 0, VRING_DESC_F_WRITE, true);
	vringh_iov_init(&riov, rstack, 4);
	capture_begin();
	err = vringh_getdesc_user(&vrh, &riov, NULL, range_getrange, &head);
	said = capture_end();
	vringh_iov_cleanup(&riov);
	CHECKF(err == -EPROTO, "getdesc returned %d", err);
	CHECK(said > 0 && vrh.last_avail_idx == 0);
	packed_teardown();
	return 0;
}

/* A packed list within bounds: taken (1), without a message. */
static int expect_packed_ok(void)
{
	return expect_taken(range_getrange, packed_teardown);
}

/* Edge of host-packed-id-out-of-range: the last id. */
static int host_packed_id_last(void)
{
	packed_setup();
	set_pdesc(0, data_addr(0), 8, RING_SIZE - 1, 0, true);
	return expect_packed_ok();
}

/* Edge of host-packed-list-longer-than-ring: a list of every descriptor. */
static int host_packed_list_whole_ring(void)
{
	unsigned int i;

	packed_setup();
	for (i = 0; i < RING_SIZE; i++)
		set_pdesc(i, data_addr(0), 0, 0,
			  i + 1 < RING_SIZE ? VRING_DESC_F_NEXT : 0, true);
	return expect_packed_ok();
}

/* Edge of host-packed-indirect-too-long: a table as long as the ring. */
static int host_packed_indirect_whole_ring(void)
{
	unsigned int i;

	packed_setup();
	for (i = 0; i < RING_SIZE; i++)
		set_pentry(i, data_addr(0), 1, 0);
	set_pdesc(0, (uintptr_t)ptable(), RING_SIZE * 16, 0,
		  VRING_DESC_F_INDIRECT, true);
	return expect_packed_ok();
}

/*
 * complete_multi of more buffers than the ring holds (refused, nothing
 * written) and of a whole ring's worth, every id taken (accepted).
 */
static int host_packed_complete_multi_bounds(void)
{
	struct vring_used_elem elems[RING_SIZE + 1];
	unsigned int i;
	size_t said;
	int err;

	packed_setup();
	for (i = 0; i < RING_SIZE; i++) {
		set_pdesc(i, data_addr(i), 8, i, 0, true);
		CHECK(take() == i);
	}
	for (i = 0; i <= RING_SIZE; i++) {
		elems[i].id = cpu_to_vringh32(&vrh, i % RING_SIZE);
		elems[i].len = 0;
	}
	capture_begin();
	err = vringh_complete_multi_user(&vrh, elems, RING_SIZE + 1);
	said = capture_end();
	CHECKF(err == -EINVAL, "complete_multi of %u returned %d",
	       RING_SIZE + 1, err);
	CHECK(said > 0 && vrh.last_used_idx == 0);
	err = vringh_complete_multi_user(&vrh, elems, RING_SIZE);
	CHECKF(err == 0, "complete_multi of %u returned %d", RING_SIZE, err);
	CHECK(vrh.last_used_idx == 0 && !vrh.used_wrap_counter);
	packed_teardown();
	return 0;
}

#define PACKED_HOST_CASE(name, fn)	RIG_HOST_CASE(name, fn)
#else
static int no_packed_host(void)
{
	rig_require_packed_host(rig_case_name);
	return RIG_EXIT_FAIL;
}

#define PACKED_HOST_CASE(name, fn)	RIG_HOST_CASE(name, no_packed_host)
#endif

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

/* get_buf must return nothing, break the queue and say so (@why). */
static int expect_broken_why(const char *why)
{
	unsigned int len = 0;
	struct scatterlist sg;
	size_t said;
	void *buf;

	capture_begin();
	buf = virtqueue_get_buf(vq, &len);
	said = capture_end();
	CHECKF_GAP(buf == NULL, "get_buf returned %p from a lying device", buf);
	CHECK_GAP(virtqueue_is_broken(vq));
	CHECKF(said > 0, "queue broken without a message");
	CHECKF(said_why(false, why), "broken, but not because \"%s\"", why);

	/* Broken stays broken. */
	CHECK(virtqueue_get_buf(vq, &len) == NULL);
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

static int guest_id_out_of_range(void)
{
	guest_setup();
	device_uses_at(0, RING_SIZE, 0, 1);
	return expect_broken_why("out of range");
}

static int guest_id_not_in_flight(void)
{
	u16 head = guest_setup();

	device_uses_at(0, (head + 1) % RING_SIZE, 0, 1);
	return expect_broken();
}

static int guest_len_too_big(void)
{
	u16 head = guest_setup();

	device_uses_at(0, head, sizeof(inbuf) + 1, 1);
	return expect_broken();
}

static int guest_used_idx_jump(void)
{
	u16 head = guest_setup();

	device_uses_at(0, head, 0, RING_SIZE + 1);
	return expect_broken_why("ahead of");
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

static int guest_packed_id_out_of_range(void)
{
	guest_packed_setup();
	device_uses_packed_at(0, RING_SIZE, 0);
	return expect_broken_why("out of range");
}

static int guest_packed_id_not_in_flight(void)
{
	u16 id = guest_packed_setup();

	device_uses_packed_at(0, (id + 1) % RING_SIZE, 0);
	return expect_broken();
}

static int guest_packed_len_too_big(void)
{
	u16 id = guest_packed_setup();

	device_uses_packed_at(0, id, sizeof(inbuf) + 1);
	return expect_broken();
}

/*
 * The used descriptor written with the other lap's flags (AVAIL = USED = 0
 * where the device's wrap counter is 1): the buffer would never come back.
 */
static int guest_packed_wrong_lap(void)
{
	u16 id = guest_packed_setup();

	mockdev_write_used_packed(&dev, 0, id, 0, mockdev_used_flags(false, 0));
	return expect_broken_why("wrong lap");
}

/* The reserved device event flags value 0x3: kick_prepare breaks the queue. */
static int guest_packed_device_flags_reserved(void)
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
	void *buf;

	capture_begin();
	buf = virtqueue_get_buf(vq, &len);
	said = capture_end();
	CHECKF(buf == inbuf, "get_buf returned %p, not the buffer used", buf);
	CHECKF(len == want_len, "get_buf said %u bytes, the device %u", len,
	       want_len);
	CHECK(!virtqueue_is_broken(vq) && said == 0);
	rig_queue_destroy(&queue);
	return 0;
}

/* Edges of guest-len-too-big: the whole buffer written, split and packed. */
static int guest_len_whole_buffer(void)
{
	u16 head = guest_setup();

	device_uses_at(0, head, sizeof(inbuf), 1);
	return expect_returned(sizeof(inbuf));
}

static int guest_packed_len_whole_buffer(void)
{
	u16 id = guest_packed_setup();

	device_uses_packed_at(0, id, sizeof(inbuf));
	return expect_returned(sizeof(inbuf));
}

/*
 * Edge of guest-used-idx-jump: a whole ring of buffers used at once, the
 * used index RING_SIZE ahead; every one comes back, in the order used.
 */
static int guest_used_idx_full(void)
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
 * In order (VIRTIO_F_IN_ORDER), host side: a driver that breaks ring order
 * (split: a first chain not at 0, a chain not where the last one ended, a
 * chain whose next is not x + 1; packed, where lists are always taken in
 * ring order, the one thing that makes a batch ambiguous: a buffer id
 * offered again while outstanding), and a device that misuses batches or
 * uses buffers out of order.  Only the rig's vringh does IN_ORDER.
 */
#ifdef vringh_complete_batch_user
#define IN_ORDER_F	(1ULL << VIRTIO_F_IN_ORDER)

/* A split ring of the host's, VIRTIO_F_IN_ORDER negotiated. */
static void in_order_setup(void)
{
	host_features |= IN_ORDER_F;
	host_setup();
}

/* The first chain starts at offset 0 (2.7.5). */
static int host_in_order_first_head(void)
{
	in_order_setup();
	OFFER({ 3, data_addr(0), 8, 0, 0 });
	return expect_getdesc(-EINVAL, range_getrange);
}

/* A chain of two at 0, then a buffer at 5 where 2 was due. */
static int host_in_order_head_skips(void)
{
	in_order_setup();
	OFFER({ 0, data_addr(0), 8, VRING_DESC_F_NEXT, 1 },
	      { 1, data_addr(1), 8, 0, 0 });
	OFFER({ 5, data_addr(2), 8, 0, 0 });
	CHECK(take() == 0);
	return expect_getdesc(-EINVAL, range_getrange);
}

/* Descriptor 0 chains to 2, not 1 (2.7.5.2). */
static int host_in_order_next_skips(void)
{
	in_order_setup();
	OFFER({ 0, data_addr(0), 8, VRING_DESC_F_NEXT, 2 },
	      { 2, data_addr(1), 8, 0, 0 });
	return expect_getdesc(-EINVAL, range_getrange);
}

/*
 * A device's bad batches write nothing: more buffers than it holds, none,
 * a head past the ring; then a right one writes one element, in the slot
 * of the batch's first buffer, and moves the used index by two.
 */
static int host_in_order_bad_batch(void)
{
	int err1, err2, err3;
	size_t said;

	in_order_setup();
	OFFER({ 0, data_addr(0), 8, 0, 0 });
	OFFER({ 1, data_addr(1), 8, VRING_DESC_F_WRITE, 0 });
	CHECK(take() == 0 && take() == 1);

	capture_begin();
	err1 = vringh_complete_batch_user(&vrh, 1, 0, 3);
	err2 = vringh_complete_batch_user(&vrh, 1, 0, 0);
	err3 = vringh_complete_batch_user(&vrh, RING_SIZE, 0, 2);
	said = capture_end();
	CHECKF(err1 == -EINVAL && err2 == -EINVAL && err3 == -EINVAL,
	       "complete_batch returned %d, %d, %d", err1, err2, err3);
	CHECK(said > 0);
	CHECK(vringh16_to_cpu(&vrh, gvr.used->idx) == 0);

	CHECK(vringh_complete_batch_user(&vrh, 1, 8, 2) == 0);
	CHECK(vringh16_to_cpu(&vrh, gvr.used->idx) == 2);
	CHECK(vringh32_to_cpu(&vrh, gvr.used->ring[0].id) == 1);
	CHECK(vringh32_to_cpu(&vrh, gvr.used->ring[0].len) == 8);
	rig_shm_destroy(&shm);
	return 0;
}

/* Without VIRTIO_F_IN_ORDER a batch is refused, split or packed. */
static int host_batch_without_in_order(void)
{
	size_t said;
	int err;

	host_setup();
	set_desc(&gvr.desc[0], data_addr(0), 8, 0, 0);
	offer(0);
	CHECK(take() == 0);
	capture_begin();
	err = vringh_complete_batch_user(&vrh, 0, 0, 1);
	said = capture_end();
	CHECKF(err == -EINVAL, "complete_batch returned %d", err);
	CHECK(said > 0 && vringh16_to_cpu(&vrh, gvr.used->idx) == 0);
	rig_shm_destroy(&shm);

	packed_setup();
	set_pdesc(0, data_addr(0), 8, 0, 0, true);
	CHECK(take() == 0);
	capture_begin();
	err = vringh_complete_batch_user(&vrh, 0, 0, 1);
	said = capture_end();
	CHECKF(err == -EINVAL, "packed complete_batch returned %d", err);
	CHECK(said > 0 && vrh.last_used_idx == 0);
	CHECK(le16_to_cpu(gpr.desc[0].flags) == PACKED_F_AVAIL);
	packed_teardown();
	return 0;
}

/*
 * Packed: ids 3 (one descriptor) and 5 (two) taken.  Completing 5 before
 * 3, alone or in complete_multi, a batch that does not end with 5, or
 * that holds more than two buffers, or none: refused, nothing written.
 * Then the batch {5, 8 bytes} of two goes over descriptor 0, and the used
 * offset skips all three descriptors.
 */
static int host_packed_in_order_out_of_order(void)
{
	struct vring_used_elem backwards[2];
	int err[5];
	size_t said;

	host_features |= IN_ORDER_F;
	packed_setup();
	set_pdesc(0, data_addr(0), 8, 3, 0, true);
	set_pdesc(1, data_addr(1), 8, 0, VRING_DESC_F_NEXT, true);
	set_pdesc(2, data_addr(2), 8, 5, VRING_DESC_F_WRITE, true);
	CHECK(take() == 3 && take() == 5);

	backwards[0].id = cpu_to_vringh32(&vrh, 5);
	backwards[1].id = cpu_to_vringh32(&vrh, 3);
	backwards[0].len = backwards[1].len = 0;
	capture_begin();
	err[0] = vringh_complete_user(&vrh, 5, 0);
	err[1] = vringh_complete_multi_user(&vrh, backwards, 2);
	err[2] = vringh_complete_batch_user(&vrh, 3, 0, 2);
	err[3] = vringh_complete_batch_user(&vrh, 5, 0, 3);
	err[4] = vringh_complete_batch_user(&vrh, 5, 0, 0);
	said = capture_end();
	CHECKF(err[0] == -EINVAL && err[1] == -EINVAL && err[2] == -EINVAL &&
	       err[3] == -EINVAL && err[4] == -EINVAL,
	       "complete returned %d, %d, %d, %d, %d",
	       err[0], err[1], err[2], err[3], err[4]);
	CHECK(said > 0);
	CHECK(vrh.last_used_idx == 0);
	CHECK(le16_to_cpu(gpr.desc[0].flags) == PACKED_F_AVAIL &&
	      le16_to_cpu(gpr.desc[0].id) == 3);

	CHECK(vringh_complete_batch_user(&vrh, 5, 8, 2) == 0);
	CHECK(le16_to_cpu(gpr.desc[0].id) == 5 &&
	      le32_to_cpu(gpr.desc[0].len) == 8);
	CHECK(le16_to_cpu(gpr.desc[0].flags) ==
	      (PACKED_F_AVAIL | PACKED_F_USED | VRING_DESC_F_WRITE));
	CHECK(vrh.last_used_idx == 3 && vrh.used_wrap_counter);
	packed_teardown();
	return 0;
}

/* Packed: an id offered again while outstanding makes a batch ambiguous. */
static int host_packed_in_order_id_reused(void)
{
	host_features |= IN_ORDER_F;
	packed_setup();
	set_pdesc(0, data_addr(0), 8, 3, 0, true);
	set_pdesc(1, data_addr(1), 8, 3, 0, true);
	return expect_packed(-EINVAL, 1, range_getrange);
}

#define IN_ORDER_HOST_CASE(name, fn)	RIG_HOST_CASE(name, fn)
#else
static int no_in_order_host(void)
{
	rig_require_in_order(rig_case_name, true);
	return RIG_EXIT_FAIL;
}

#define IN_ORDER_HOST_CASE(name, fn)	RIG_HOST_CASE(name, no_in_order_host)
#endif

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
	unsigned int len = 0, detached = 0;
	size_t said;
	void *buf;

	capture_begin();
	buf = virtqueue_get_buf(vq, &len);
	said = capture_end();
	CHECKF_GAP(buf == NULL, "get_buf returned %p from a lying device", buf);
	CHECK(virtqueue_is_broken(vq));
	CHECKF(said > 0, "queue broken without a message");
	CHECK(virtqueue_get_buf(vq, &len) == NULL);
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

/*
 * Linux 7.x's in-order driver takes a batch's last id on trust: it hands
 * back the buffers before it, as used in full, and breaks the queue only
 * on reaching a slot that holds no buffer (kernel/GAPS).
 */
#define IN_ORDER_ID_GAP \
	"the kernel's in-order virtio_ring returns the buffers before a batch's id without checking that the id is one in flight"

/* Two buffers out (heads 0, 1); a batch ends with head 2. */
static int guest_in_order_batch_id_not_in_flight(void)
{
	guest_in_order_setup(false, 2, 1);
	device_uses_at(0, 2, 0, 2);
	return expect_broken_in_order(2);
}

/* Three out; a batch ends with head 2, but the used index moves by two. */
static int guest_in_order_batch_too_long(void)
{
	guest_in_order_setup(false, 3, 1);
	device_uses_at(0, 2, 0, 2);
	return expect_broken_in_order(3);
}

/* A batch of two (0, 1) comes back; then one names head 0 again. */
static int guest_in_order_batch_id_used(void)
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
static int guest_packed_in_order_batch_id_not_a_buffer(void)
{
	guest_in_order_setup(true, 2, 2);
	device_uses_packed_at(0, 1, 0);
	return expect_broken_in_order(2);
}

/* Packed: a batch of two (ids 0, 1) comes back; then one names 0 again. */
static int guest_packed_in_order_batch_id_used(void)
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
 * The specification's rules (issue 13): one case per MUST or MUST NOT of the
 * ring chapters that the other side can observe and that no case above
 * already covers.  Each names its section; README "Hostile rings" lists
 * every rule, with these cases and the ones above.
 */

/* 2.7.5.3.1: no INDIRECT unless VIRTIO_RING_F_INDIRECT_DESC. */
static int spec_indirect_not_negotiated(void)
{
	host_features = 0;
	host_setup();
	set_desc(&table()[0], data_addr(0), 8, 0, 0);
	set_desc(&gvr.desc[0], (uintptr_t)table(), sizeof(struct vring_desc),
		 VRING_DESC_F_INDIRECT, 0);
	offer(0);
	return expect_getdesc(-EINVAL, range_getrange);
}

/* 2.7.5.3.1: not both INDIRECT and NEXT. */
static int spec_indirect_with_next(void)
{
	host_setup();
	set_desc(&table()[0], data_addr(0), 8, 0, 0);
	set_desc(&gvr.desc[0], (uintptr_t)table(), sizeof(struct vring_desc),
		 VRING_DESC_F_INDIRECT | VRING_DESC_F_NEXT, 1);
	set_desc(&gvr.desc[1], data_addr(1), 8, 0, 0);
	offer(0);
	return expect_getdesc(-EINVAL, range_getrange);
}

/* Entries 0..@n-1 of the table at OFF_TABLE, chained in order. */
static void fill_table(unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		set_desc(&table()[i], data_addr(0), 1,
			 i + 1 < n ? VRING_DESC_F_NEXT : 0, i + 1);
}

/*
 * On a fresh ring, offer one chain: ring descriptors 0..@ring-1 of one
 * byte each, then descriptor @ring, the table at OFF_TABLE of @n entries.
 */
static void offer_chain_with_table(unsigned int ring, unsigned int n)
{
	unsigned int i;

	host_setup();
	for (i = 0; i < ring; i++)
		set_desc(&gvr.desc[i], data_addr(0), 1, VRING_DESC_F_NEXT, i + 1);
	fill_table(n);
	set_desc(&gvr.desc[ring], (uintptr_t)table(),
		 n * sizeof(struct vring_desc), VRING_DESC_F_INDIRECT, 0);
	offer(0);
}

/*
 * On a fresh ring, offer one chain of two 2 GiB descriptors, then, unless
 * @last is 0, one of @last bytes.
 */
static void offer_4gib_chain(u32 last)
{
	host_setup();
	set_desc(&gvr.desc[0], data_addr(0), 0x80000000u, VRING_DESC_F_NEXT, 1);
	set_desc(&gvr.desc[1], data_addr(0), 0x80000000u,
		 last ? VRING_DESC_F_NEXT : 0, last ? 2 : 0);
	if (last)
		set_desc(&gvr.desc[2], data_addr(0), last, 0, 0);
	offer(0);
}

/*
 * 2.7.5.3.1: no chain longer than the queue size, indirect entries
 * included: four ring descriptors and a table of RING_SIZE - 3.
 */
static int spec_chain_longer_than_queue(void)
{
	offer_chain_with_table(4, RING_SIZE - 3);
	return expect_getdesc_why(-EINVAL, range_getrange,
				  "may not be longer than the queue size");
}

/* The same rule for one table of RING_SIZE + 1 entries (packed: 2.8.18). */
static int spec_table_longer_than_queue(void)
{
	offer_chain_with_table(0, RING_SIZE + 1);
	return expect_getdesc_why(-EINVAL, range_getrange,
				  "may not be longer than the queue size");
}

/*
 * 2.7.5.2: no chain of more than 2^32 bytes.  Two 2 GiB descriptors and one
 * more byte; the getrange that claims all memory lets the sizes through
 * (getdesc only describes buffers, it does not touch them).
 */
static int spec_chain_over_4gib(void)
{
	offer_4gib_chain(1);
	return expect_getdesc_why(-EINVAL, everything_getrange,
				  "more than 2^32 bytes");
}

/* Edges of the three above: a chain, a table, and bytes just at the limit. */
static int spec_chain_as_long_as_queue(void)
{
	offer_chain_with_table(4, RING_SIZE - 4);
	return expect_getdesc_ok(range_getrange);
}

static int spec_table_as_long_as_queue(void)
{
	offer_chain_with_table(0, RING_SIZE);
	return expect_getdesc_ok(range_getrange);
}

static int spec_chain_of_4gib(void)
{
	offer_4gib_chain(0);
	return expect_getdesc_ok(everything_getrange);
}

/* 2.7.6.1: the avail index never goes back, here from 2 to 1. */
static int spec_avail_idx_back(void)
{
	host_setup();
	set_desc(&gvr.desc[0], data_addr(0), 8, 0, 0);
	set_desc(&gvr.desc[1], data_addr(1), 8, 0, 0);
	offer(0);
	offer(1);
	CHECK(take() == 0);
	gvr.avail->idx = cpu_to_vringh16(&vrh, 1);
	return expect_getdesc(-EINVAL, range_getrange);
}

/* vringh_need_notify_user() must fail with -EINVAL and say why. */
static int expect_need_notify_refused(void)
{
	size_t said;
	int err;

	capture_begin();
	err = vringh_need_notify_user(&vrh);
	said = capture_end();
	rig_shm_destroy(&shm);
	CHECKF_GAP(err == -EINVAL, "need_notify returned %d, expected -EINVAL", err);
	CHECKF(said > 0, "error %d returned without a message", err);
	return 0;
}

/* 2.7.7: avail flags are 0 or 1 ... */
static int spec_avail_flags(void)
{
	host_setup();
	gvr.avail->flags = cpu_to_vringh16(&vrh, 2);
	return expect_need_notify_refused();
}

/* ... and 0 with VIRTIO_RING_F_EVENT_IDX. */
static int spec_avail_flags_event_idx(void)
{
	host_features |= 1ULL << VIRTIO_RING_F_EVENT_IDX;
	host_setup();
	gvr.avail->flags = cpu_to_vringh16(&vrh, VRING_AVAIL_F_NO_INTERRUPT);
	return expect_need_notify_refused();
}

/* vringh_init_user(), or with @packed its packed twin, on the ring parts @p. */
static int init_parts(bool packed __attribute__((unused)), void *const p[3])
{
#ifdef vringh_init_packed_user
	if (packed)
		return vringh_init_packed_user(&vrh, host_features, RING_SIZE, true,
					       p[0], p[1], p[2]);
#endif
	return vringh_init_user(&vrh, host_features, RING_SIZE, true, p[0], p[1], p[2]);
}

/*
 * The ring's three parts @part, each moved off its alignment by @by[i]
 * bytes in turn, the others as they are: the init must refuse every one
 * with -EINVAL, and say why.  Destroys shm.
 */
static int expect_misaligned_refused(bool packed, void *const part[3],
				     const unsigned int by[3])
{
	void *p[3];
	int err[3];
	size_t said;

	capture_begin();
	for (int i = 0; i < 3; i++) {
		memcpy(p, part, sizeof(p));
		p[i] = (char *)p[i] + by[i];
		err[i] = init_parts(packed, p);
	}
	said = capture_end();
	rig_shm_destroy(&shm);
	CHECKF_GAP(err[0] == -EINVAL && err[1] == -EINVAL && err[2] == -EINVAL,
		   "vringh_init_%suser with a misaligned part returned %d, %d, %d",
		   packed ? "packed_" : "", err[0], err[1], err[2]);
	CHECK(said > 0);
	return 0;
}

/* 2.7.1: descriptor table, avail and used ring 16, 2 and 4-byte aligned. */
static int spec_ring_misaligned(void)
{
	struct vring r;

	rig_shm_create(&shm, MEM_SIZE);
	vring_init(&r, RING_SIZE, shm.host, RIG_RING_ALIGN);
	return expect_misaligned_refused(false, (void *const[3]){ r.desc, r.avail, r.used },
					 (const unsigned int[3]){ 8, 1, 2 });
}

#ifdef vringh_init_packed_user
/* 2.8.19: no INDIRECT unless VIRTIO_RING_F_INDIRECT_DESC. */
static int spec_packed_indirect_not_negotiated(void)
{
	host_features = 0;
	packed_setup();
	set_pentry(0, data_addr(0), 8, 0);
	set_pdesc(0, (uintptr_t)ptable(), sizeof(struct vring_packed_desc), 0,
		  VRING_DESC_F_INDIRECT, true);
	return expect_packed(-EINVAL, 0, range_getrange);
}

/* 2.8.19: WRITE is the only flag inside a table. */
static int spec_packed_table_flags(void)
{
	packed_setup();
	set_pentry(0, data_addr(0), 8, VRING_DESC_F_NEXT);
	set_pentry(1, data_addr(1), 8, 0);
	set_pdesc(0, (uintptr_t)ptable(), 2 * sizeof(struct vring_packed_desc),
		  0, VRING_DESC_F_INDIRECT, true);
	return expect_packed(-EINVAL, 0, range_getrange);
}

/* 2.8.10.1: descriptor ring 16-byte, event structures 4-byte aligned. */
static int spec_packed_misaligned(void)
{
	struct vring_packed r;

	rig_shm_create(&shm, MEM_SIZE);
	vring_packed_init(&r, RING_SIZE, shm.host);
	return expect_misaligned_refused(true, (void *const[3]){ r.desc, r.driver, r.device },
					 (const unsigned int[3]){ 8, 2, 2 });
}
#else
#define spec_packed_indirect_not_negotiated	no_packed_host
#define spec_packed_table_flags			no_packed_host
#define spec_packed_misaligned			no_packed_host
#define host_packed_id_last			no_packed_host
#define host_packed_list_whole_ring		no_packed_host
#define host_packed_indirect_whole_ring		no_packed_host
#define host_packed_complete_multi_bounds	no_packed_host
#endif

#ifdef vringh_complete_batch_user
/* 2.7.5.3.1: in order, a table's entries run 0, 1, 2, ... */
static int spec_in_order_table_unordered(void)
{
	in_order_setup();
	LAY(table(), { 0, data_addr(0), 8, VRING_DESC_F_NEXT, 2 },
		     { 2, data_addr(1), 8, VRING_DESC_F_NEXT, 1 },
		     { 1, data_addr(2), 8, 0, 0 });
	OFFER({ 0, (uintptr_t)table(), 3 * sizeof(struct vring_desc), VRING_DESC_F_INDIRECT, 0 });
	return expect_getdesc(-EINVAL, range_getrange);
}
#else
#define spec_in_order_table_unordered	no_in_order_host
#endif

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

static int spec_used_flags(void)
{
	return expect_kick_refused(0, 2);
}

static int spec_used_flags_event_idx(void)
{
	return expect_kick_refused(1ULL << VIRTIO_RING_F_EVENT_IDX,
				   VRING_USED_F_NO_NOTIFY);
}

/*
 * A case's kernel_gap is what a kernel tree's code is known not to check:
 * the case runs, and fails as a TODO, or passes saying the gap is gone.
 */
static const struct rig_case cases[] = {
	RIG_HOST_CASE("host-head-out-of-range", host_head_out_of_range),
	RIG_HOST_CASE("host-next-out-of-range", host_next_out_of_range),
	RIG_HOST_CASE("host-desc-loop", host_desc_loop),
	RIG_HOST_CASE("host-chain-longer-than-ring", host_chain_longer_than_ring),
	RIG_HOST_CASE("host-indirect-loop", host_indirect_loop),
	RIG_HOST_CASE("host-nested-indirect", host_nested_indirect),
	RIG_HOST_CASE("host-indirect-len-zero", host_indirect_len_zero),
	RIG_HOST_CASE("host-indirect-len-odd", host_indirect_len_odd),
	RIG_HOST_CASE("host-indirect-outside-range", host_indirect_outside_range),
	RIG_HOST_CASE("host-readable-after-writable", host_readable_after_writable),
	RIG_HOST_CASE("host-addr-outside-range", host_addr_outside_range),
	RIG_HOST_CASE("host-addr-wraps", host_addr_wraps),
	RIG_HOST_CASE_GAP("host-avail-idx-jump", host_avail_idx_jump,
	                  "the kernel's vringh does not bound the avail index"),
	RIG_HOST_CASE("host-ring-outside-window", host_ring_outside_window),
	RIG_HOST_CASE("host-bad-ring-size", host_bad_ring_size),
	RIG_HOST_CASE("host-head-last", host_head_last),
	RIG_HOST_CASE("host-next-last", host_next_last),
	RIG_HOST_CASE("host-avail-idx-full", host_avail_idx_full),
	RIG_HOST_CASE("host-chain-whole-ring", host_chain_whole_ring),
	RIG_HOST_CASE("host-addr-ends-at-top", host_addr_ends_at_top),
	RIG_HOST_CASE("host-addr-ends-at-memory-end", host_addr_ends_at_memory_end),
	RIG_HOST_CASE("host-indirect-next-out-of-range", host_indirect_next_out_of_range),
	RIG_HOST_CASE("host-indirect-next-last", host_indirect_next_last),
	RIG_HOST_CASE_GAP("host-complete-multi-too-many", host_complete_multi_too_many,
	                  "the kernel's vringh does not bound complete_multi by the ring size"),
	RIG_HOST_CASE("host-complete-multi-whole-ring", host_complete_multi_whole_ring),
	RIG_CASE("guest-id-out-of-range", guest_id_out_of_range),
	RIG_CASE("guest-id-not-in-flight", guest_id_not_in_flight),
	RIG_CASE_GAP("guest-len-too-big", guest_len_too_big,
	             "the kernel's virtio_ring does not check used lengths"),
	RIG_CASE_GAP("guest-used-idx-jump", guest_used_idx_jump,
	             "the kernel's virtio_ring does not bound the used index"),
	RIG_CASE("guest-break-device", guest_break_device),
	RIG_CASE("guest-len-whole-buffer", guest_len_whole_buffer),
	RIG_CASE("guest-used-idx-full", guest_used_idx_full),
	PACKED_HOST_CASE("host-packed-id-out-of-range", host_packed_id_out_of_range),
	PACKED_HOST_CASE("host-packed-id-in-use", host_packed_id_in_use),
	PACKED_HOST_CASE("host-packed-list-longer-than-ring",
			 host_packed_list_longer_than_ring),
	PACKED_HOST_CASE("host-packed-list-overruns-held",
			 host_packed_list_overruns_held),
	PACKED_HOST_CASE("host-packed-indirect-in-list", host_packed_indirect_in_list),
	PACKED_HOST_CASE("host-packed-indirect-with-next",
			 host_packed_indirect_with_next),
	PACKED_HOST_CASE("host-packed-nested-indirect", host_packed_nested_indirect),
	PACKED_HOST_CASE("host-packed-indirect-len-zero",
			 host_packed_indirect_len_zero),
	PACKED_HOST_CASE("host-packed-indirect-len-odd", host_packed_indirect_len_odd),
	PACKED_HOST_CASE("host-packed-indirect-too-long",
			 host_packed_indirect_too_long),
	PACKED_HOST_CASE("host-packed-indirect-outside-range",
			 host_packed_indirect_outside_range),
	PACKED_HOST_CASE("host-packed-wrap-confusion-head",
			 host_packed_wrap_confusion_head),
	PACKED_HOST_CASE("host-packed-wrap-confusion-list",
			 host_packed_wrap_confusion_list),
	PACKED_HOST_CASE("host-packed-readable-after-writable",
			 host_packed_readable_after_writable),
	PACKED_HOST_CASE("host-packed-addr-outside-range",
			 host_packed_addr_outside_range),
	PACKED_HOST_CASE("host-packed-addr-wraps", host_packed_addr_wraps),
	PACKED_HOST_CASE("host-packed-ring-outside-window",
			 host_packed_ring_outside_window),
	PACKED_HOST_CASE("host-packed-bad-ring-size", host_packed_bad_ring_size),
	PACKED_HOST_CASE("host-packed-complete-bad-id", host_packed_complete_bad_id),
	PACKED_HOST_CASE("host-packed-id-last", host_packed_id_last),
	PACKED_HOST_CASE("host-packed-list-whole-ring", host_packed_list_whole_ring),
	PACKED_HOST_CASE("host-packed-indirect-whole-ring",
			 host_packed_indirect_whole_ring),
	PACKED_HOST_CASE("host-packed-complete-multi-bounds",
			 host_packed_complete_multi_bounds),
	PACKED_HOST_CASE("host-packed-abandon-completed",
			 host_packed_abandon_completed),
	PACKED_HOST_CASE("host-packed-unexpected-direction",
			 host_packed_unexpected_direction),
	RIG_CASE("guest-packed-id-out-of-range", guest_packed_id_out_of_range),
	RIG_CASE("guest-packed-id-not-in-flight", guest_packed_id_not_in_flight),
	RIG_CASE_GAP("guest-packed-len-too-big", guest_packed_len_too_big,
	             "the kernel's virtio_ring does not check used lengths"),
	RIG_CASE("guest-packed-len-whole-buffer", guest_packed_len_whole_buffer),
	RIG_CASE_GAP("guest-packed-wrong-lap", guest_packed_wrong_lap,
	             "the kernel's virtio_ring waits for a descriptor used in the wrong lap"),
	RIG_CASE_GAP("guest-packed-device-flags-reserved", guest_packed_device_flags_reserved,
	             "the kernel's virtio_ring kicks on reserved device event flags"),
	IN_ORDER_HOST_CASE("host-in-order-first-head", host_in_order_first_head),
	IN_ORDER_HOST_CASE("host-in-order-head-skips", host_in_order_head_skips),
	IN_ORDER_HOST_CASE("host-in-order-next-skips", host_in_order_next_skips),
	IN_ORDER_HOST_CASE("host-in-order-bad-batch", host_in_order_bad_batch),
	IN_ORDER_HOST_CASE("host-batch-without-in-order",
			   host_batch_without_in_order),
	IN_ORDER_HOST_CASE("host-packed-in-order-out-of-order",
			   host_packed_in_order_out_of_order),
	IN_ORDER_HOST_CASE("host-packed-in-order-id-reused",
			   host_packed_in_order_id_reused),
	RIG_CASE_GAP("guest-in-order-batch-id-not-in-flight",
		     guest_in_order_batch_id_not_in_flight, IN_ORDER_ID_GAP),
	RIG_CASE_GAP("guest-in-order-batch-too-long",
		     guest_in_order_batch_too_long,
		     "the kernel's in-order virtio_ring does not check a batch against the used index"),
	RIG_CASE_GAP("guest-in-order-batch-id-used",
		     guest_in_order_batch_id_used, IN_ORDER_ID_GAP),
	RIG_CASE_GAP("guest-packed-in-order-batch-id-not-a-buffer",
		     guest_packed_in_order_batch_id_not_a_buffer, IN_ORDER_ID_GAP),
	RIG_CASE_GAP("guest-packed-in-order-batch-id-used",
		     guest_packed_in_order_batch_id_used, IN_ORDER_ID_GAP),
	RIG_HOST_CASE_GAP("spec-indirect-not-negotiated", spec_indirect_not_negotiated,
			  "the kernel's vringh takes indirect tables whether or not VIRTIO_RING_F_INDIRECT_DESC was negotiated"),
	RIG_HOST_CASE_GAP("spec-indirect-with-next", spec_indirect_with_next,
			  "the kernel's vringh follows NEXT after an indirect table"),
	RIG_HOST_CASE_GAP("spec-chain-longer-than-queue", spec_chain_longer_than_queue,
			  "the kernel's vringh bounds an indirect table by its own length, not the queue size"),
	RIG_HOST_CASE_GAP("spec-table-longer-than-queue", spec_table_longer_than_queue,
			  "the kernel's vringh bounds an indirect table by its own length, not the queue size"),
	RIG_HOST_CASE_GAP("spec-chain-over-4gib", spec_chain_over_4gib,
			  "the kernel's vringh does not bound a chain's bytes"),
	RIG_HOST_CASE("spec-chain-as-long-as-queue", spec_chain_as_long_as_queue),
	RIG_HOST_CASE("spec-table-as-long-as-queue", spec_table_as_long_as_queue),
	RIG_HOST_CASE("spec-chain-of-4gib", spec_chain_of_4gib),
	RIG_HOST_CASE_GAP("spec-avail-idx-back", spec_avail_idx_back,
			  "the kernel's vringh does not remember the avail index it read"),
	RIG_HOST_CASE_GAP("spec-avail-flags", spec_avail_flags,
			  "the kernel's vringh reads only the NO_INTERRUPT bit"),
	RIG_HOST_CASE_GAP("spec-avail-flags-event-idx", spec_avail_flags_event_idx,
			  "the kernel's vringh does not read the avail flags with VIRTIO_RING_F_EVENT_IDX"),
	RIG_HOST_CASE_GAP("spec-ring-misaligned", spec_ring_misaligned,
			  "the kernel's vringh does not check the ring's alignment"),
	PACKED_HOST_CASE("spec-packed-indirect-not-negotiated",
			 spec_packed_indirect_not_negotiated),
	PACKED_HOST_CASE("spec-packed-table-flags", spec_packed_table_flags),
	PACKED_HOST_CASE("spec-packed-misaligned", spec_packed_misaligned),
	IN_ORDER_HOST_CASE("spec-in-order-table-unordered",
			   spec_in_order_table_unordered),
	RIG_CASE_GAP("spec-used-flags", spec_used_flags,
		     "the kernel's virtio_ring reads only the NO_NOTIFY bit"),
	RIG_CASE_GAP("spec-used-flags-event-idx", spec_used_flags_event_idx,
		     "the kernel's virtio_ring does not read the used flags with VIRTIO_RING_F_EVENT_IDX"),
};

RIG_CASE_MAIN(cases, help)
