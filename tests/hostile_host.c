// SPDX-License-Identifier: GPL-2.0
/*
 * tests/hostile, host side: split and packed rings the test writes by hand,
 * as a malicious guest would, and vringh must refuse with the right error
 * and a printed message; in-order rings; and the specification's rules
 * the host can observe.  The cases' table is in hostile.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include <linux/virtio_config.h>
#include <linux/virtio_ring.h>
#include <linux/vringh.h>
#include <linux/uaccess.h>

#include "harness/harness.h"
#include "tests/chain.h"
#include "tests/hostile.h"
#include "tests/said.h"
#include "tests/vringh_hand.h"

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

/*
 * vringh_init_user(), or with @packed its packed twin, for a ring of @num
 * entries at the ring parts @p.
 */
static int init_parts(bool packed __attribute__((unused)), unsigned int num,
		      void *const p[3])
{
#ifdef vringh_init_packed_user
	if (packed)
		return vringh_init_packed_user(&vrh, host_features, num, true,
					       p[0], p[1], p[2]);
#endif
	return vringh_init_user(&vrh, host_features, num, true, p[0], p[1], p[2]);
}

/* The init must refuse each of the @n ring sizes @bad: -EINVAL, and why. */
static void refuse_sizes(bool packed, void *const p[3],
			 const unsigned int *bad, size_t n)
{
	size_t i, said;
	int err;

	for (i = 0; i < n; i++) {
		capture_begin();
		err = init_parts(packed, bad[i], p);
		said = capture_end();
		CHECKF(err == -EINVAL, "vringh_init_%suser(num %u) returned %d",
		       packed ? "packed_" : "", bad[i], err);
		CHECK(said > 0);
	}
}

static void *gaddr(size_t off)
{
	return (char *)shm.guest + off;
}

static void set_desc(struct vring_desc *d, u64 addr, u32 len, u16 flags, u16 next)
{
	vringh_hand_set_desc(&vrh, d, addr, len, flags, next);
}

/* Make head @head available as the next avail entry. */
static void offer(u16 head)
{
	vringh_hand_offer(&vrh, &gvr, head);
}

static u64 data_addr(unsigned int n)
{
	return (uintptr_t)gaddr(OFF_DATA + n * 64);
}

/* LAY: rows (tests/chain.h) into table @t; OFFER: into the ring, first row the head. */
#define LAY(t, ...)	chain_lay(set_desc, t, CHAIN_ROWS(__VA_ARGS__))
#define OFFER(...)	chain_offer(set_desc, offer, gvr.desc, CHAIN_ROWS(__VA_ARGS__))

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

	err = vringh_hand_getdesc(&vrh, getrange, &head, &said);
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

	CHECK(vringh_hand_getdesc(&vrh, range_getrange, &head, &said) == 1);
	return head;
}

int host_head_out_of_range(void)
{
	host_setup();
	offer(RING_SIZE);
	return expect_getdesc_why(-EINVAL, range_getrange,
				  "but the ring has only");
}

int host_next_out_of_range(void)
{
	host_setup();
	set_desc(&gvr.desc[0], data_addr(0), 8, VRING_DESC_F_NEXT, RING_SIZE);
	offer(0);
	return expect_getdesc_why(-EINVAL, range_getrange,
				  "past the ring's");
}

int host_desc_loop(void)
{
	host_setup();
	OFFER(CHAIN_LOOP(data_addr));
	return expect_getdesc_why(-ELOOP, range_getrange,
				  "longer than the ring");
}

/* A chain through zero-length descriptors still may not exceed the ring. */
int host_chain_longer_than_ring(void)
{
	host_setup();
	chain_offer_ring_loop(set_desc, offer, gvr.desc, RING_SIZE, data_addr(0));
	return expect_getdesc_why(-ELOOP, range_getrange,
				  "longer than the ring");
}

static struct vring_desc *table(void)
{
	return gaddr(OFF_TABLE);
}

int host_indirect_loop(void)
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

int host_nested_indirect(void)
{
	struct vring_desc *t;

	host_setup();
	t = table();
	LAY(t, { 0, (uintptr_t)&t[4], 2 * sizeof(*t), VRING_DESC_F_INDIRECT, 0 },
	       { 4, data_addr(0), 8, 0, 0 });
	OFFER({ 0, (uintptr_t)t, sizeof(*t), VRING_DESC_F_INDIRECT, 0 });
	return expect_getdesc(-EINVAL, range_getrange);
}

int host_indirect_len_zero(void)
{
	host_setup();
	set_desc(&gvr.desc[0], (uintptr_t)table(), 0, VRING_DESC_F_INDIRECT, 0);
	offer(0);
	/* The kernel's vringh refuses it too, as a loop (-ELOOP). */
	return expect_getdesc_why(strcmp(rig_host_impl(), "kernel") ?
				  -EINVAL : ANY_REFUSAL,
				  range_getrange, "nonzero number");
}

int host_indirect_len_odd(void)
{
	host_setup();
	set_desc(&gvr.desc[0], (uintptr_t)table(), 24, VRING_DESC_F_INDIRECT, 0);
	offer(0);
	return expect_getdesc_why(-EINVAL, range_getrange,
				  "nonzero number");
}

int host_indirect_outside_range(void)
{
	host_setup();
	set_desc(&gvr.desc[0], (uintptr_t)gaddr(MEM_SIZE + 4096), 32,
		 VRING_DESC_F_INDIRECT, 0);
	offer(0);
	return expect_getdesc(-EINVAL, range_getrange);
}

int host_readable_after_writable(void)
{
	host_setup();
	OFFER({ 0, data_addr(0), 8, VRING_DESC_F_WRITE | VRING_DESC_F_NEXT, 1 },
	      { 1, data_addr(1), 8, 0, 0 });
	return expect_getdesc(-EINVAL, range_getrange);
}

int host_addr_outside_range(void)
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

int host_addr_wraps(void)
{
	host_setup();
	set_desc(&gvr.desc[0], ~0ULL - 15, 64, 0, 0);
	offer(0);
	return expect_getdesc(-EINVAL, everything_getrange);
}

int host_avail_idx_jump(void)
{
	host_setup();
	set_desc(&gvr.desc[0], data_addr(0), 8, 0, 0);
	gvr.avail->idx = cpu_to_vringh16(&vrh, RING_SIZE + 1);
	return expect_getdesc_why(-EINVAL, range_getrange,
				  "avail index jumped");
}

int host_ring_outside_window(void)
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
int host_bad_ring_size(void)
{
	static const unsigned int bad[] = { 0, 3, 65536 }, good[] = { 1, 32768 };
	struct vring hvr;
	unsigned int i;
	int err;

	rig_shm_create(&shm, MEM_SIZE);
	vring_init(&hvr, RING_SIZE, shm.host, RIG_RING_ALIGN);
	refuse_sizes(false, (void *const[3]){ hvr.desc, hvr.avail, hvr.used },
		     bad, ARRAY_SIZE(bad));
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
	size_t said;
	u16 head;
	int err;

	err = vringh_hand_getdesc(&vrh, getrange, &head, &said);
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
int host_head_last(void)
{
	host_setup();
	set_desc(&gvr.desc[RING_SIZE - 1], data_addr(0), 8, 0, 0);
	offer(RING_SIZE - 1);
	return expect_getdesc_ok(range_getrange);
}

/* Edge of host-next-out-of-range: a chain into the last descriptor. */
int host_next_last(void)
{
	host_setup();
	set_desc(&gvr.desc[0], data_addr(0), 8, VRING_DESC_F_NEXT, RING_SIZE - 1);
	set_desc(&gvr.desc[RING_SIZE - 1], data_addr(1), 8, 0, 0);
	offer(0);
	return expect_getdesc_ok(range_getrange);
}

/* Edge of host-avail-idx-jump: a whole ring available at once. */
int host_avail_idx_full(void)
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
int host_chain_whole_ring(void)
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
int host_addr_ends_at_top(void)
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
int host_addr_ends_at_memory_end(void)
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

int host_indirect_next_out_of_range(void)
{
	offer_table_chaining_to_2(2);
	return expect_getdesc_why(-EINVAL, range_getrange, "past its");
}

int host_indirect_next_last(void)
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

int host_complete_multi_too_many(void)
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

int host_complete_multi_whole_ring(void)
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
		CHECK(vringh_hand_getdesc(&vrh, getrange, &head, &said) == 1);
	before = vrh.last_avail_idx;
	wrap = vrh.avail_wrap_counter;
	err = vringh_hand_getdesc(&vrh, getrange, &head, &said);
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

int host_packed_id_out_of_range(void)
{
	packed_setup();
	set_pdesc(0, data_addr(0), 8, RING_SIZE, 0, true);
	return expect_packed_why(-EINVAL, 0, range_getrange,
				 "but ids stop at");
}

/* Two buffers in flight under one id. */
int host_packed_id_in_use(void)
{
	packed_setup();
	set_pdesc(0, data_addr(0), 8, 3, 0, true);
	set_pdesc(1, data_addr(1), 8, 3, 0, true);
	return expect_packed(-EINVAL, 1, range_getrange);
}

/* Every descriptor chained, across the end of the ring and on. */
int host_packed_list_longer_than_ring(void)
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
int host_packed_list_overruns_held(void)
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

int host_packed_indirect_in_list(void)
{
	packed_setup();
	set_pentry(0, data_addr(0), 8, 0);
	set_pdesc(0, data_addr(1), 8, 0, VRING_DESC_F_NEXT, true);
	set_pdesc(1, (uintptr_t)ptable(), 16, 0, VRING_DESC_F_INDIRECT, true);
	return expect_packed(-EINVAL, 0, range_getrange);
}

int host_packed_indirect_with_next(void)
{
	packed_setup();
	set_pentry(0, data_addr(0), 8, 0);
	set_pdesc(0, (uintptr_t)ptable(), 16, 0,
		  VRING_DESC_F_INDIRECT | VRING_DESC_F_NEXT, true);
	set_pdesc(1, data_addr(1), 8, 0, 0, true);
	return expect_packed(-EINVAL, 0, range_getrange);
}

int host_packed_nested_indirect(void)
{
	packed_setup();
	set_pentry(0, data_addr(0), 8, 0);
	set_pentry(1, (uintptr_t)&ptable()[4], 16, VRING_DESC_F_INDIRECT);
	set_pdesc(0, (uintptr_t)ptable(), 32, 0, VRING_DESC_F_INDIRECT, true);
	return expect_packed(-EINVAL, 0, range_getrange);
}

int host_packed_indirect_len_zero(void)
{
	packed_setup();
	set_pdesc(0, (uintptr_t)ptable(), 0, 0, VRING_DESC_F_INDIRECT, true);
	return expect_packed_why(-EINVAL, 0, range_getrange,
				 "nonzero number");
}

int host_packed_indirect_len_odd(void)
{
	packed_setup();
	set_pdesc(0, (uintptr_t)ptable(), 24, 0, VRING_DESC_F_INDIRECT, true);
	return expect_packed(-EINVAL, 0, range_getrange);
}

/* A table of more entries than the ring: a list longer than the ring. */
int host_packed_indirect_too_long(void)
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

int host_packed_indirect_outside_range(void)
{
	packed_setup();
	set_pdesc(0, (uintptr_t)gaddr(MEM_SIZE + 4096), 32, 0,
		  VRING_DESC_F_INDIRECT, true);
	return expect_packed(-EINVAL, 0, range_getrange);
}

/* AVAIL and USED both equal to the driver's wrap counter at the head. */
int host_packed_wrap_confusion_head(void)
{
	packed_setup();
	set_pdesc(0, data_addr(0), 8, 0, PACKED_F_USED, true);
	return expect_packed_why(-EINVAL, 0, range_getrange,
				 "wrap counter confusion");
}

/* A list whose second descriptor still has the previous lap's flags. */
int host_packed_wrap_confusion_list(void)
{
	packed_setup();
	set_pdesc(0, data_addr(0), 8, 0, VRING_DESC_F_NEXT, true);
	set_pdesc(1, data_addr(1), 8, 0, 0, false);
	return expect_packed(-EINVAL, 0, range_getrange);
}

int host_packed_readable_after_writable(void)
{
	packed_setup();
	set_pdesc(0, data_addr(0), 8, 0, VRING_DESC_F_WRITE | VRING_DESC_F_NEXT,
		  true);
	set_pdesc(1, data_addr(1), 8, 0, 0, true);
	return expect_packed(-EINVAL, 0, range_getrange);
}

int host_packed_addr_outside_range(void)
{
	packed_setup();
	set_pdesc(0, (uintptr_t)gaddr(MEM_SIZE - 4), 8, 0, 0, true);
	return expect_packed(-EINVAL, 0, range_getrange);
}

int host_packed_addr_wraps(void)
{
	packed_setup();
	set_pdesc(0, ~0ULL - 15, 64, 0, 0, true);
	return expect_packed(-EINVAL, 0, everything_getrange);
}

int host_packed_ring_outside_window(void)
{
	packed_setup();
	set_pdesc(0, data_addr(0), 8, 0, 0, true);
	/* The host's view of the ring lies outside the user window. */
	__user_addr_min = (char *)shm.host + 8192;
	return expect_packed(-EFAULT, 0, range_getrange);
}

int host_packed_bad_ring_size(void)
{
	static const unsigned int bad[] = { 0, 32769, 65536 };
	struct vring_packed hpr;

	rig_shm_create(&shm, MEM_SIZE);
	vring_packed_init(&hpr, RING_SIZE, shm.host);
	refuse_sizes(true, (void *const[3]){ hpr.desc, hpr.driver, hpr.device },
		     bad, ARRAY_SIZE(bad));
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
int host_packed_complete_bad_id(void)
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
int host_packed_abandon_completed(void)
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
int host_packed_unexpected_direction(void)
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
int host_packed_id_last(void)
{
	packed_setup();
	set_pdesc(0, data_addr(0), 8, RING_SIZE - 1, 0, true);
	return expect_packed_ok();
}

/* Edge of host-packed-list-longer-than-ring: a list of every descriptor. */
int host_packed_list_whole_ring(void)
{
	unsigned int i;

	packed_setup();
	for (i = 0; i < RING_SIZE; i++)
		set_pdesc(i, data_addr(0), 0, 0,
			  i + 1 < RING_SIZE ? VRING_DESC_F_NEXT : 0, true);
	return expect_packed_ok();
}

/* Edge of host-packed-indirect-too-long: a table as long as the ring. */
int host_packed_indirect_whole_ring(void)
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
int host_packed_complete_multi_bounds(void)
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

#endif

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
int host_in_order_first_head(void)
{
	in_order_setup();
	OFFER({ 3, data_addr(0), 8, 0, 0 });
	return expect_getdesc(-EINVAL, range_getrange);
}

/* A chain of two at 0, then a buffer at 5 where 2 was due. */
int host_in_order_head_skips(void)
{
	in_order_setup();
	OFFER({ 0, data_addr(0), 8, VRING_DESC_F_NEXT, 1 },
	      { 1, data_addr(1), 8, 0, 0 });
	OFFER({ 5, data_addr(2), 8, 0, 0 });
	CHECK(take() == 0);
	return expect_getdesc(-EINVAL, range_getrange);
}

/* Descriptor 0 chains to 2, not 1 (2.7.5.2). */
int host_in_order_next_skips(void)
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
int host_in_order_bad_batch(void)
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
int host_batch_without_in_order(void)
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
int host_packed_in_order_out_of_order(void)
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
int host_packed_in_order_id_reused(void)
{
	host_features |= IN_ORDER_F;
	packed_setup();
	set_pdesc(0, data_addr(0), 8, 3, 0, true);
	set_pdesc(1, data_addr(1), 8, 3, 0, true);
	return expect_packed(-EINVAL, 1, range_getrange);
}

#endif

/*
 * The specification's rules (issue 13): one case per MUST or MUST NOT of the
 * ring chapters that the other side can observe and that no case above
 * already covers.  Each names its section; README "Hostile rings" lists
 * every rule, with these cases and the ones above.
 */

/* 2.7.5.3.1: no INDIRECT unless VIRTIO_RING_F_INDIRECT_DESC. */
int spec_indirect_not_negotiated(void)
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
int spec_indirect_with_next(void)
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
int spec_chain_longer_than_queue(void)
{
	offer_chain_with_table(4, RING_SIZE - 3);
	return expect_getdesc_why(-EINVAL, range_getrange,
				  "may not be longer than the queue size");
}

/* The same rule for one table of RING_SIZE + 1 entries (packed: 2.8.18). */
int spec_table_longer_than_queue(void)
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
int spec_chain_over_4gib(void)
{
	offer_4gib_chain(1);
	return expect_getdesc_why(-EINVAL, everything_getrange,
				  "more than 2^32 bytes");
}

/* Edges of the three above: a chain, a table, and bytes just at the limit. */
int spec_chain_as_long_as_queue(void)
{
	offer_chain_with_table(4, RING_SIZE - 4);
	return expect_getdesc_ok(range_getrange);
}

int spec_table_as_long_as_queue(void)
{
	offer_chain_with_table(0, RING_SIZE);
	return expect_getdesc_ok(range_getrange);
}

int spec_chain_of_4gib(void)
{
	offer_4gib_chain(0);
	return expect_getdesc_ok(everything_getrange);
}

/* 2.7.6.1: the avail index never goes back, here from 2 to 1. */
int spec_avail_idx_back(void)
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
int spec_avail_flags(void)
{
	host_setup();
	gvr.avail->flags = cpu_to_vringh16(&vrh, 2);
	return expect_need_notify_refused();
}

/* ... and 0 with VIRTIO_RING_F_EVENT_IDX. */
int spec_avail_flags_event_idx(void)
{
	host_features |= 1ULL << VIRTIO_RING_F_EVENT_IDX;
	host_setup();
	gvr.avail->flags = cpu_to_vringh16(&vrh, VRING_AVAIL_F_NO_INTERRUPT);
	return expect_need_notify_refused();
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
		err[i] = init_parts(packed, RING_SIZE, p);
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
int spec_ring_misaligned(void)
{
	struct vring r;

	rig_shm_create(&shm, MEM_SIZE);
	vring_init(&r, RING_SIZE, shm.host, RIG_RING_ALIGN);
	return expect_misaligned_refused(false, (void *const[3]){ r.desc, r.avail, r.used },
					 (const unsigned int[3]){ 8, 1, 2 });
}

#ifdef vringh_init_packed_user
/* 2.8.19: no INDIRECT unless VIRTIO_RING_F_INDIRECT_DESC. */
int spec_packed_indirect_not_negotiated(void)
{
	host_features = 0;
	packed_setup();
	set_pentry(0, data_addr(0), 8, 0);
	set_pdesc(0, (uintptr_t)ptable(), sizeof(struct vring_packed_desc), 0,
		  VRING_DESC_F_INDIRECT, true);
	return expect_packed(-EINVAL, 0, range_getrange);
}

/* 2.8.19: WRITE is the only flag inside a table. */
int spec_packed_table_flags(void)
{
	packed_setup();
	set_pentry(0, data_addr(0), 8, VRING_DESC_F_NEXT);
	set_pentry(1, data_addr(1), 8, 0);
	set_pdesc(0, (uintptr_t)ptable(), 2 * sizeof(struct vring_packed_desc),
		  0, VRING_DESC_F_INDIRECT, true);
	return expect_packed(-EINVAL, 0, range_getrange);
}

/* 2.8.10.1: descriptor ring 16-byte, event structures 4-byte aligned. */
int spec_packed_misaligned(void)
{
	struct vring_packed r;

	rig_shm_create(&shm, MEM_SIZE);
	vring_packed_init(&r, RING_SIZE, shm.host);
	return expect_misaligned_refused(true, (void *const[3]){ r.desc, r.driver, r.device },
					 (const unsigned int[3]){ 8, 2, 2 });
}
#endif

#ifdef vringh_complete_batch_user
/* 2.7.5.3.1: in order, a table's entries run 0, 1, 2, ... */
int spec_in_order_table_unordered(void)
{
	in_order_setup();
	LAY(table(), { 0, data_addr(0), 8, VRING_DESC_F_NEXT, 2 },
		     { 2, data_addr(1), 8, VRING_DESC_F_NEXT, 1 },
		     { 1, data_addr(2), 8, 0, 0 });
	OFFER({ 0, (uintptr_t)table(), 3 * sizeof(struct vring_desc), VRING_DESC_F_INDIRECT, 0 });
	return expect_getdesc(-EINVAL, range_getrange);
}
#endif
