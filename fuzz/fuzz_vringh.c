// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: the device side (vringh.c), its guest played by the input.
 *
 * The input sets up a split or packed ring (size, features, user, kern or
 * IOTLB accessors, which guest memory getrange allows or, IOTLB, where the
 * maps of the ring and of guest memory start and end, at any byte; how big
 * the caller's iovecs start), fills the ring and guest memory with
 * whatever it likes,
 * then runs a
 * sequence of operations: the host's (getdesc, pull, push, complete,
 * complete_multi, abandon, notify enable/disable, need_notify, iov reset,
 * advance, cleanup), the guest's (add a well-formed buffer, set its flags
 * or used_event) and the hostile guest's (scribble on the ring or memory),
 * and an allocation failure now and then.
 *
 * Invariants, beyond "no crash" (ASan, UBSan):
 *  - vringh touches nothing but the ring and the guest memory getrange
 *    allowed: the ring ends at a guard page and the bytes around it are
 *    poisoned, guest pages no allowed range touches are inaccessible, and
 *    every iovec handed out lies inside an allowed range (kern: inside
 *    guest memory);
 *  - every error is one the API documents, comes with a message, takes
 *    nothing (last_avail_idx stays), and the same ring gives the same
 *    error again;
 *  - complete writes exactly the used element and index it should
 *    (packed, always: the used descriptor's id, length and lap flags, at
 *    the used offset, which moves on by the descriptors that buffer took
 *    when vringh took it; an in-order batch names its last buffer and
 *    moves past all of them); split notify enable/disable and
 *    need_notify do what the ring says;
 *  - while the guest has only added well-formed buffers, a model predicts
 *    every result: which head getdesc returns, the exact bytes each iovec
 *    covers, what pull reads and where push writes;
 *  - nothing leaks: kmalloc_outstanding() is back where it was.
 */
#include "fuzz/fuzz.h"

#include <errno.h>
#include <linux/virtio_config.h>
#include <linux/virtio_ring.h>
#include <linux/vringh.h>
#include <linux/uaccess.h>
#include <linux/vhost_iotlb.h>

#define MAX_RING_SIZE		64
#define G_PAGES		4
#define GBASE		0x10000ULL	/* guest address of guest memory */
#define MAX_RANGES	4
#define MAX_SEGS	8
#define MAX_SEG_LEN	128
#define MAX_TAKEN	64
#define RECENT		256
#define IO_RING		0x40000000ULL	/* IOTLB: I/O address of the ring */

/* The host's own pointers; kept across inputs. */
static size_t pg, gsize;
static char *rpage;		/* the page whose end holds the ring */
static char *g;			/* guest memory, G_PAGES pages */
static unsigned char *shadow;	/* what the model says g holds */
static bool g_page_rw[G_PAGES];

struct seg {
	uint32_t off;		/* into guest memory */
	uint32_t len;
	bool w;
};

struct mbuf {
	bool live;
	uint8_t nseg;
	struct seg seg[MAX_SEGS];
	uint8_t ndesc;
	uint16_t desc[MAX_SEGS];	/* split: its descriptors; packed: its id */
	uint8_t nring;			/* packed: ring descriptors it took */
	bool indirect;
	uint32_t toff, tlen;	/* the indirect table, if any */
};

static struct fuzz_state {
	/* configuration */
	unsigned int num;
	bool event_idx, version_1, kern, slow, outside_window;
	bool iotlb;		/* the IOTLB accessors: kiovs of I/O addresses */
	bool indirect;		/* VIRTIO_RING_F_INDIRECT_DESC */
	struct { uint64_t s, e; } range[MAX_RANGES];	/* guest, inclusive */
	unsigned int nranges;
	size_t rsize;
	char *rstart;
	struct vring vr;
	bool packed;		/* packed layout: vp, not vr */
	bool in_order;		/* VIRTIO_F_IN_ORDER: no model */
	struct vring_packed vp;

	struct vringh vrh;
	struct iovec rstack[4], wstack[4];
	unsigned int rcap, wcap;
	bool no_riov, no_wiov;
	union { struct vringh_iov u; struct vringh_kiov k; } riov, wiov;

	uint16_t used_total;	/* used index the host should have written */
	uint16_t nn_old;	/* used index at the last need_notify */
	bool fail_armed;
	unsigned long gen;	/* bumps whenever getdesc's answer may change */
	unsigned long err_gen;
	int last_err;
	bool err_repeated;	/* and asked again: the refusal repeated */
	unsigned int loops;	/* -ELOOPs: each may have cost 65536 steps */
	bool dirty;		/* an operation wrote guest memory or the ring */
	size_t dlo, dhi;	/* guest memory it wrote */
	unsigned int taken, model_taken, model_bytes;	/* FUZZ_VERBOSE */

	/*
	 * Packed: the buffers vringh holds, oldest first, and how many ring
	 * descriptors each took; what complete must use (always checked).
	 */
	struct { uint16_t id, nd; } held[MAX_RING_SIZE];
	unsigned int nheld;

	/* The model of a well-behaved guest; valid while ok. */
	struct {
		bool ok;
		uint16_t free[MAX_RING_SIZE];
		unsigned int nfree;
		struct mbuf buf[MAX_RING_SIZE];
		uint16_t order[MAX_RING_SIZE];	/* avail ring, by idx % num */
		uint16_t avail_idx, host_idx;
		struct { uint16_t head; bool done; } recent[RECENT];
		uint16_t taken[MAX_TAKEN];
		uint16_t taken_pos[MAX_TAKEN];
		unsigned int ntaken;
		int cur;		/* head whose iovs riov/wiov hold, or -1 */
		uint32_t pk_avail, pk_used;	/* packed: descriptors made available, used */
		uint64_t rpos, wpos, rtotal, wtotal;
	} m;
} s;

static void packed_check_used(uint16_t id, uint32_t len);

/* IOTLB: the maps, rebuilt for each input. */
static struct vhost_iotlb fz_iotlb;
static spinlock_t fz_iotlb_lock;

/* IOTLB: the I/O address of ring memory at host pointer @p. */
static void *io_of(const void *p)
{
	return (void *)(uintptr_t)(IO_RING + ((const char *)p - s.rstart));
}

/* Kernel iovecs (kern, IOTLB) rather than user ones? */
static bool kiovs(void)
{
	return s.kern || s.iotlb;
}

/* Guest address (user) or host pointer (kern) of guest memory offset. */
static uint64_t g_addr(uint32_t off)
{
	return s.kern ? (uint64_t)(uintptr_t)(g + off) : GBASE + off;
}

static bool getrange(struct vringh *vrh __attribute__((unused)), u64 addr,
		     struct vringh_range *r)
{
	unsigned int i;

	for (i = 0; i < s.nranges; i++) {
		if (addr < s.range[i].s || addr > s.range[i].e)
			continue;
		if (s.slow) {
			/* Small ranges: buffers split into many iovecs. */
			r->start = addr;
			r->end_incl = (addr | 127) < s.range[i].e ? addr | 127 : s.range[i].e;
		} else {
			r->start = s.range[i].s;
			r->end_incl = s.range[i].e;
		}
		r->offset = (uint64_t)(uintptr_t)g - GBASE;
		return true;
	}
	return false;
}

/* Is guest memory offset [off, off + len) inside one allowed range? */
static int range_holding(uint32_t off, uint32_t len)
{
	unsigned int i;

	if (kiovs())
		return off + (uint64_t)len <= gsize ? 0 : -1;
	for (i = 0; i < s.nranges; i++)
		if (GBASE + off >= s.range[i].s &&
		    GBASE + off + len - (len ? 1 : 0) <= s.range[i].e)
			return i;
	return -1;
}

/* May the host touch host bytes [p, p + len)?  (An iovec's memory.) */
static bool host_span_allowed(const char *p, size_t len)
{
	unsigned int i;

	if (p < g || len > gsize || p + len > g + gsize)
		return false;
	if (s.kern)
		return true;
	for (i = 0; i < s.nranges; i++) {
		uint64_t lo = s.range[i].s - GBASE, hi = s.range[i].e - GBASE;

		if ((uint64_t)(p - g) >= lo && (uint64_t)(p - g) + len - 1 <= hi)
			return true;
	}
	return false;
}

static void set_g_protection(bool all_rw)
{
	unsigned int p, i;

	for (p = 0; p < G_PAGES; p++) {
		bool rw = all_rw || kiovs();

		for (i = 0; !rw && i < s.nranges; i++)
			rw = s.range[i].s - GBASE <= (p + 1) * pg - 1 &&
			     s.range[i].e - GBASE >= p * pg;
		if (rw == g_page_rw[p])
			continue;
		if (mprotect(g + p * pg, pg, rw ? PROT_READ | PROT_WRITE : PROT_NONE))
			abort();
		g_page_rw[p] = rw;
	}
}

/*
 * Kern accessors take descriptor addresses as host pointers and trust
 * them.  The fuzzer's guest may only hand out pointers into guest memory,
 * so every 16-byte slot that could be read as a descriptor is made one
 * that stays inside it (an indirect table 16-aligned, so its entries are
 * slots too).  Done to the ring, the memory and the model's shadow alike.
 */
static void kern_sanitize(unsigned char *mem, size_t len)
{
	uintptr_t lo = (uintptr_t)g, hi = lo + gsize;
	size_t o;

	for (o = 0; o + 16 <= len; o += 16) {
		struct vring_desc d;
		uint64_t a;
		uint32_t l;
		uint16_t f;

		memcpy(&d, mem + o, sizeof(d));
		a = vringh64_to_cpu(&s.vrh, d.addr);
		l = vringh32_to_cpu(&s.vrh, d.len);
		f = vringh16_to_cpu(&s.vrh, d.flags);
		if (s.packed)	/* struct vring_packed_desc: id, then flags */
			f = vringh16_to_cpu(&s.vrh, d.next);
		if (a >= lo && a < hi && l <= hi - a &&
		    !((f & VRING_DESC_F_INDIRECT) && (a & 15)))
			continue;
		a = lo + (a % gsize);
		if (f & VRING_DESC_F_INDIRECT)
			a &= ~(uint64_t)15;
		if (l > hi - a)
			l %= (uint32_t)(hi - a + 1);
		d.addr = cpu_to_vringh64(&s.vrh, a);
		d.len = cpu_to_vringh32(&s.vrh, l);
		memcpy(mem + o, &d, sizeof(d));
	}
}

/* Guest memory bytes [off, off + len) were written: look at them again. */
static void touch(size_t off, size_t len)
{
	s.dirty = true;
	if (!len)
		return;
	if (off < s.dlo)
		s.dlo = off;
	if (off + len > s.dhi)
		s.dhi = off + len;
}

static void sanitize_all(void)
{
	size_t lo = s.dlo & ~(size_t)15, hi = (s.dhi + 15) & ~(size_t)15;

	if (!s.kern || !s.dirty)
		return;
	kern_sanitize(s.packed ? (unsigned char *)s.vp.desc : (unsigned char *)s.vr.desc,
		      s.num * sizeof(struct vring_desc));
	if (hi > gsize)
		hi = gsize;
	if (lo < hi) {
		kern_sanitize((unsigned char *)g + lo, hi - lo);
		kern_sanitize(shadow + lo, hi - lo);
	}
}

/* The riov/wiov as vringh sees them. */
static struct vringh_kiov *kr(void) { return s.no_riov ? NULL : &s.riov.k; }
static struct vringh_kiov *kw(void) { return s.no_wiov ? NULL : &s.wiov.k; }

static void iovs_init(void)
{
	vringh_iov_init(&s.riov.u, s.rstack, s.rcap);
	vringh_iov_init(&s.wiov.u, s.wstack, s.wcap);
}

static void iovs_cleanup(void)
{
	if (kiovs()) {
		vringh_kiov_cleanup(&s.riov.k);
		vringh_kiov_cleanup(&s.wiov.k);
	} else {
		vringh_iov_cleanup(&s.riov.u);
		vringh_iov_cleanup(&s.wiov.u);
	}
}

/* Every iovec sane and inside memory the host may touch. */
static void check_iov(const struct vringh_kiov *v, const char *which)
{
	unsigned int i, cap;

	if (!v)
		return;
	cap = v->max_num & ~VRINGH_IOV_ALLOCATED;
	FUZZ_CHECK(v->used <= cap, "%s: %u used of %u", which, v->used, cap);
	for (i = 0; i < v->used; i++) {
		FUZZ_CHECK(v->iov[i].iov_len > 0, "%s[%u] is empty", which, i);
		/* IOTLB: I/O addresses, translated (or refused) at each copy. */
		if (s.iotlb)
			continue;
		FUZZ_CHECK(host_span_allowed(v->iov[i].iov_base, v->iov[i].iov_len),
			   "%s[%u] = %zu bytes at %p, outside allowed memory",
			   which, i, v->iov[i].iov_len, v->iov[i].iov_base);
	}
}

/*
 * The model's expected bytes for one direction, as a list of host spans
 * with neighbours merged, against what vringh produced.
 */
struct span { uintptr_t p; size_t n; };

static unsigned int merge_add(struct span *sp, unsigned int n, uintptr_t p, size_t len)
{
	if (!len)
		return n;
	if (n && sp[n - 1].p + sp[n - 1].n == p) {
		sp[n - 1].n += len;
		return n;
	}
	sp[n].p = p;
	sp[n].n = len;
	return n + 1;
}

static void check_model_iov(const struct vringh_kiov *v, const struct mbuf *b, bool w)
{
	static struct span want[MAX_SEGS + 1], got[4096];
	unsigned int nw = 0, ng = 0, i;

	for (i = 0; i < b->nseg; i++)
		if (b->seg[i].w == w)
			nw = merge_add(want, nw, s.iotlb ? (uintptr_t)g_addr(b->seg[i].off) :
				       (uintptr_t)(g + b->seg[i].off), b->seg[i].len);
	if (!v) {
		FUZZ_CHECK(nw == 0, "model gave a NULL iov buffers");
		return;
	}
	for (i = 0; i < v->used; i++) {
		uintptr_t p = (uintptr_t)v->iov[i].iov_base;

		if (ng && got[ng - 1].p + got[ng - 1].n == p) {
			got[ng - 1].n += v->iov[i].iov_len;
			continue;
		}
		FUZZ_CHECK(ng < 4096, "too many separate iovecs");
		ng = merge_add(got, ng, p, v->iov[i].iov_len);
	}
	FUZZ_CHECK(nw == ng, "%s: %u spans, model says %u", w ? "wiov" : "riov", ng, nw);
	for (i = 0; i < nw; i++)
		FUZZ_CHECK(want[i].p == got[i].p && want[i].n == got[i].n,
			   "%s span %u: %zu@%#lx, model says %zu@%#lx",
			   w ? "wiov" : "riov", i, got[i].n, (unsigned long)got[i].p,
			   want[i].n, (unsigned long)want[i].p);
}

static uint64_t mbuf_total(const struct mbuf *b, bool w)
{
	uint64_t t = 0;
	unsigned int i;

	for (i = 0; i < b->nseg; i++)
		if (b->seg[i].w == w)
			t += b->seg[i].len;
	return t;
}

/* Guest memory offset of byte @pos of buffer @b's @w direction. */
static uint32_t mbuf_byte(const struct mbuf *b, bool w, uint64_t pos)
{
	unsigned int i;

	for (i = 0; i < b->nseg; i++) {
		if (b->seg[i].w != w)
			continue;
		if (pos < b->seg[i].len)
			return b->seg[i].off + (uint32_t)pos;
		pos -= b->seg[i].len;
	}
	abort();
}

static bool overlaps_live_table(uint32_t off, uint32_t len)
{
	unsigned int h;

	for (h = 0; h < s.num; h++) {
		const struct mbuf *b = &s.m.buf[h];

		if (b->live && b->indirect && off < b->toff + b->tlen &&
		    b->toff < off + len)
			return true;
	}
	return false;
}

static void model_off(void)
{
	s.m.ok = false;
}

/* ---- the operations ---- */

/* Each vringh call in the input's flavour: user, kern or IOTLB. */
static int do_getdesc(u16 *head)
{
	if (s.iotlb)
		return vringh_getdesc_iotlb(&s.vrh, kr(), kw(), head, GFP_KERNEL);
	if (s.kern)
		return vringh_getdesc_kern(&s.vrh, kr(), kw(), head, GFP_KERNEL);
	return vringh_getdesc_user(&s.vrh, kr() ? &s.riov.u : NULL,
				   kw() ? &s.wiov.u : NULL, getrange, head);
}

static int do_complete(u16 head, u32 len)
{
	if (s.iotlb)
		return vringh_complete_iotlb(&s.vrh, head, len);
	return s.kern ? vringh_complete_kern(&s.vrh, head, len)
		      : vringh_complete_user(&s.vrh, head, len);
}

static void do_abandon(unsigned int k)
{
	if (s.iotlb)
		vringh_abandon_iotlb(&s.vrh, k);
	else if (s.kern)
		vringh_abandon_kern(&s.vrh, k);
	else
		vringh_abandon_user(&s.vrh, k);
}

static bool do_notify_enable(void)
{
	if (s.iotlb)
		return vringh_notify_enable_iotlb(&s.vrh);
	return s.kern ? vringh_notify_enable_kern(&s.vrh) : vringh_notify_enable_user(&s.vrh);
}

static void do_notify_disable(void)
{
	if (s.iotlb)
		vringh_notify_disable_iotlb(&s.vrh);
	else if (s.kern)
		vringh_notify_disable_kern(&s.vrh);
	else
		vringh_notify_disable_user(&s.vrh);
}

static int do_need_notify(void)
{
	if (s.iotlb)
		return vringh_need_notify_iotlb(&s.vrh);
	return s.kern ? vringh_need_notify_kern(&s.vrh) : vringh_need_notify_user(&s.vrh);
}

/* Packed: a position along the ring, counting laps modulo two. */
static unsigned int packed_pos(u16 off, bool wrap)
{
	return wrap ? off : off + s.num;
}

/* Packed: how far from (@off, @wrap) the position (@off2, @wrap2) is. */
static unsigned int packed_dist(u16 off, bool wrap, u16 off2, bool wrap2)
{
	unsigned int a = packed_pos(off, wrap), b = packed_pos(off2, wrap2);

	return b >= a ? b - a : b + 2 * s.num - a;
}

/* Packed: the one in vringh's hands with @id, or -1. */
static int held_find(uint16_t id)
{
	unsigned int i;

	for (i = 0; i < s.nheld; i++)
		if (s.held[i].id == id)
			return i;
	return -1;
}

static void held_drop(unsigned int i)
{
	memmove(&s.held[i], &s.held[i + 1], (s.nheld - i - 1) * sizeof(s.held[0]));
	s.nheld--;
}

/*
 * Packed: the used descriptor at @off, written in lap @wrap for buffer @id
 * with @len, as complete must write it.
 */
static void held_check_used(u16 off, bool wrap, uint16_t id, uint32_t len)
{
	const struct vring_packed_desc *d = &s.vp.desc[off];
	uint16_t f = le16_to_cpu(d->flags);

	FUZZ_CHECK(le16_to_cpu(d->id) == id && le32_to_cpu(d->len) == len,
		   "used descriptor %u: id %u len %u, completed id %u len %u", off,
		   le16_to_cpu(d->id), le32_to_cpu(d->len), id, len);
	FUZZ_CHECK(!!(f & (1 << VRING_PACKED_DESC_F_AVAIL)) == wrap &&
		   !!(f & (1 << VRING_PACKED_DESC_F_USED)) == wrap &&
		   !!(f & VRING_DESC_F_WRITE) == !!len,
		   "used descriptor %u: flags %#x in lap %d", off, f, wrap);
}

/* Packed: move (@off, @wrap) on by @n positions. */
static void packed_step(u16 *off, bool *wrap, unsigned int n)
{
	*off += n;
	if (*off >= s.num) {
		*off -= s.num;
		*wrap = !*wrap;
	}
}

/*
 * Packed, after a completion of @n buffers (@ids, @lens) from the used
 * position (@off, @wrap) that worked: each was held (in order, the
 * oldest), each used descriptor is where and what it must be, and the used
 * position moved past all their descriptors.
 */
static void held_completed(u16 off, bool wrap, const uint16_t *ids, const uint32_t *lens,
			   unsigned int n)
{
	unsigned int i, moved = 0;

	for (i = 0; i < n; i++) {
		int h = held_find(ids[i]);

		FUZZ_CHECK(h >= 0, "completed id %u, which vringh did not hold", ids[i]);
		FUZZ_CHECK(!s.in_order || h == 0,
			   "in order, completed id %u, but id %u was taken before it",
			   ids[i], s.held[0].id);
		held_check_used(off, wrap, ids[i], lens[i]);
		packed_step(&off, &wrap, s.held[h].nd);
		moved += s.held[h].nd;
		held_drop(h);
	}
	FUZZ_CHECK(s.vrh.last_used_idx == off && s.vrh.used_wrap_counter == wrap,
		   "the used offset is %u (lap %d) after using %u descriptors, not %u (lap %d)",
		   s.vrh.last_used_idx, s.vrh.used_wrap_counter, moved, off, wrap);
}

static void op_getdesc(struct fin *in __attribute__((unused)))
{
	u16 before = s.vrh.last_avail_idx, head = 0xdead;
	bool wrap_before = s.vrh.avail_wrap_counter;
	size_t said = fuzz_said;
	int err;

	/*
	 * A refusal is checked to repeat once; asking again and again would
	 * only repeat the work (a table walked through 65536 entries, say).
	 */
	if ((s.err_gen == s.gen && s.err_repeated) || s.loops >= 4)
		return;
	err = do_getdesc(&head);
	s.err_repeated = s.err_gen == s.gen;
	s.loops += err == -ELOOP;

	switch (err) {
	case 1:
		if (!s.packed)
			FUZZ_CHECK(s.vrh.last_avail_idx == (u16)(before + 1), "took %u",
				   (u16)(s.vrh.last_avail_idx - before));
		FUZZ_CHECK(head < s.num, "head %u in a ring of %u", head, s.num);
		if (s.packed) {
			unsigned int nd = packed_dist(before, wrap_before, s.vrh.last_avail_idx,
						      s.vrh.avail_wrap_counter), i, sum = nd;

			for (i = 0; i < s.nheld; i++)
				sum += s.held[i].nd;
			FUZZ_CHECK(nd >= 1 && sum <= s.num && held_find(head) < 0,
				   "took id %u over %u descriptors, holding %u of %u (or it again)",
				   head, nd, sum - nd, s.num);
			s.held[s.nheld].id = head;
			s.held[s.nheld++].nd = nd;
		}
		check_iov(kr(), "riov");
		check_iov(kw(), "wiov");
		s.taken++;
		break;
	case 0:
	case -EINVAL: case -ELOOP: case -EPROTO: case -EFAULT: case -ENOMEM:
		FUZZ_CHECK(s.vrh.last_avail_idx == before &&
			   s.vrh.avail_wrap_counter == wrap_before, "moved on %d", err);
		if (err)
			FUZZ_CHECK(fuzz_said > said, "error %d without a message", err);
		break;
	default:
		FUZZ_CHECK(0, "getdesc returned %d", err);
	}
	FUZZ_CHECK(err != -ENOMEM || s.fail_armed, "-ENOMEM without a failed allocation");
	/* Same ring, same caller state: same refusal. */
	if (err < 0 && err != -ENOMEM && s.err_gen == s.gen)
		FUZZ_CHECK(err == s.last_err, "getdesc said %d, then %d", s.last_err, err);
	if (err < 0 && err != -ENOMEM) {
		s.last_err = err;
		s.err_gen = s.gen;
	}
	if (err == 1 && !s.m.ok && s.m.ntaken < MAX_TAKEN) {
		/* Remember it, so complete and abandon can name it. */
		s.m.taken[s.m.ntaken] = head;
		s.m.taken_pos[s.m.ntaken++] = 0;
	}

	if (!s.m.ok)
		return;
	if (s.m.avail_idx == s.m.host_idx) {
		FUZZ_CHECK(err == 0, "model: empty ring, getdesc %d", err);
		return;
	}
	if (err == -ENOMEM) {
		s.m.cur = -1;
		s.m.rtotal = s.m.wtotal = s.m.rpos = s.m.wpos = 0;
		return;
	}
	FUZZ_CHECK(err == 1, "model: buffer offered, getdesc %d", err);
	{
		uint16_t want = s.m.order[s.m.host_idx % s.num];
		const struct mbuf *b = &s.m.buf[want];

		FUZZ_CHECK(head == want, "model: head %u, getdesc %u", want, head);
		s.model_taken++;
		check_model_iov(kr(), b, false);
		check_model_iov(kw(), b, true);
		s.m.cur = head;
		s.m.rpos = s.m.wpos = 0;
		s.m.rtotal = kr() ? mbuf_total(b, false) : 0;
		s.m.wtotal = kw() ? mbuf_total(b, true) : 0;
		s.m.recent[s.m.host_idx % RECENT].head = head;
		s.m.recent[s.m.host_idx % RECENT].done = false;
		if (s.m.ntaken < MAX_TAKEN) {
			s.m.taken[s.m.ntaken] = head;
			s.m.taken_pos[s.m.ntaken++] = s.m.host_idx;
		} else {
			model_off();
		}
		s.m.host_idx++;
	}
}

/*
 * What the model says a pull or push (@op) of @len bytes moves, of the
 * @total bytes of the buffer's readable or writable part at @pos; the
 * @got the accessor moved must be that.
 */
static uint64_t model_moved(const char *op, size_t len, ssize_t got, uint64_t total,
			    uint64_t pos)
{
	uint64_t want = total - pos < len ? total - pos : len;

	FUZZ_CHECK((uint64_t)got == want, "%s %zu: %zd, model says %llu",
		   op, len, got, (unsigned long long)want);
	return want;
}

/*
 * Push @len bytes of @buf into the writable iov, or (!@push) pull them
 * from the readable one, with the accessors of the ring's kind.
 */
static ssize_t iov_xfer(bool push, unsigned char *buf, size_t len)
{
	__typeof__(s.riov) *v = push ? &s.wiov : &s.riov;

	if (s.iotlb)
		return push ? vringh_iov_push_iotlb(&s.vrh, &v->k, buf, len) :
			      vringh_iov_pull_iotlb(&s.vrh, &v->k, buf, len);
	if (s.kern)
		return push ? vringh_iov_push_kern(&v->k, buf, len) :
			      vringh_iov_pull_kern(&v->k, buf, len);
	return push ? vringh_iov_push_user(&v->u, buf, len) :
		      vringh_iov_pull_user(&v->u, buf, len);
}

static void op_pull(struct fin *in)
{
	static unsigned char buf[4096];
	size_t len = fin_u16(in) % sizeof(buf);
	ssize_t got;
	uint64_t i;

	if (s.no_riov)
		return;
	got = iov_xfer(false, buf, len);
	/* IOTLB: an I/O address a map refuses shows only now. */
	if (s.iotlb && got == -EFAULT && !(s.m.ok && s.m.cur >= 0))
		return;
	FUZZ_CHECK(got >= 0 && (size_t)got <= len, "pull %zu: %zd", len, got);
	if (!s.m.ok || s.m.cur < 0)
		return;
	{
		uint64_t want = model_moved("pull", len, got, s.m.rtotal, s.m.rpos);
		const struct mbuf *b = &s.m.buf[s.m.cur];

		for (i = 0; i < want; i++) {
			uint32_t o = mbuf_byte(b, false, s.m.rpos + i);

			FUZZ_CHECK(buf[i] == shadow[o], "pull byte %llu: %#x, memory holds %#x",
				   (unsigned long long)i, buf[i], shadow[o]);
		}
		s.m.rpos += want;
		s.model_bytes += want;
	}
}

static void op_push(struct fin *in)
{
	static unsigned char buf[4096];
	size_t len = fin_u16(in) % sizeof(buf), i;
	uint8_t seed = fin_u8(in);
	ssize_t got;

	if (s.no_wiov)
		return;
	for (i = 0; i < len; i++)
		buf[i] = (uint8_t)(seed + i * 7);
	got = iov_xfer(true, buf, len);
	s.gen++;
	if (s.iotlb && got == -EFAULT && !(s.m.ok && s.m.cur >= 0)) {
		/* Refused part way: what it wrote before is anyone's guess. */
		touch(0, gsize);
		model_off();
		return;
	}
	FUZZ_CHECK(got >= 0 && (size_t)got <= len, "push %zu: %zd", len, got);
	for (i = 0; got && i < s.wiov.k.used; i++) {
		/* The iovec being consumed has its start moved on. */
		size_t back = i == s.wiov.k.i ? s.wiov.k.consumed : 0;
		char *p = (char *)s.wiov.k.iov[i].iov_base - back;

		if (s.iotlb) {
			/* An I/O address: guest memory's, or a map's elsewhere. */
			uint64_t io = (uintptr_t)p;

			if (io < GBASE || io - GBASE >= gsize)
				continue;
			p = g + (io - GBASE);
		}
		touch(p - g, s.wiov.k.iov[i].iov_len + back);
	}
	if (!s.m.ok)
		return;
	if (s.m.cur < 0) {
		if (got)
			model_off();
		return;
	}
	{
		uint64_t want = model_moved("push", len, got, s.m.wtotal, s.m.wpos);
		const struct mbuf *b = &s.m.buf[s.m.cur];

		for (i = 0; i < want; i++) {
			uint32_t o = mbuf_byte(b, true, s.m.wpos + i);

			if (overlaps_live_table(o, 1))
				model_off();
			shadow[o] = buf[i];
		}
		s.m.wpos += want;
		s.model_bytes += want;
	}
}

static void check_used(uint16_t at, uint32_t id, uint32_t len)
{
	const struct vring_used_elem *e = &s.vr.used->ring[at % s.num];

	FUZZ_CHECK(vringh32_to_cpu(&s.vrh, e->id) == id &&
		   vringh32_to_cpu(&s.vrh, e->len) == len,
		   "used[%u] = {%u, %u}, wrote {%u, %u}", at % s.num,
		   vringh32_to_cpu(&s.vrh, e->id), vringh32_to_cpu(&s.vrh, e->len),
		   id, len);
}

/* A head the host took (most of the time), or any number. */
static uint16_t pick_head(struct fin *in, bool *from_list, unsigned int *idx)
{
	uint8_t sel = fin_u8(in);

	uint16_t head;
	unsigned int i;

	*from_list = false;
	if (s.m.ntaken && sel < 0xf0) {
		*idx = sel % s.m.ntaken;
		*from_list = true;
		return s.m.taken[*idx];
	}
	head = fin_u16(in);
	for (i = 0; i < s.m.ntaken; i++) {
		if (s.m.taken[i] == head) {	/* a taken one after all */
			*idx = i;
			*from_list = true;
			break;
		}
	}
	return head;
}

static void model_completed(unsigned int idx)
{
	uint16_t head = s.m.taken[idx], pos = s.m.taken_pos[idx];
	struct mbuf *b = &s.m.buf[head];
	unsigned int i;

	s.m.taken[idx] = s.m.taken[s.m.ntaken - 1];
	s.m.taken_pos[idx] = s.m.taken_pos[s.m.ntaken - 1];
	s.m.ntaken--;
	s.m.recent[pos % RECENT].done = true;
	if (!s.m.ok || !b->live)
		return;
	/* The guest takes it back at once: its descriptors are free again. */
	b->live = false;
	for (i = 0; i < b->ndesc; i++)
		s.m.free[s.m.nfree++] = b->desc[i];
	if (s.m.cur == head)
		s.m.cur = -1;
}

static void op_complete(struct fin *in)
{
	unsigned int idx = 0;
	bool listed;
	uint16_t head = pick_head(in, &listed, &idx);
	uint32_t len = fin_u32(in);
	u16 used_off = s.vrh.last_used_idx;
	bool used_wrap = s.vrh.used_wrap_counter;
	int err;

	err = do_complete(head, len);
	s.gen++;	/* packed: the descriptors it held are free again */
	if (s.packed) {
		FUZZ_CHECK(err == 0 || err == -EINVAL || (err == -EFAULT && s.outside_window),
			   "packed complete(%u): %d", head, err);
		if (!err)
			held_completed(used_off, used_wrap, &head, &len, 1);
		if (s.m.ok && listed) {
			FUZZ_CHECK(err == 0, "model: complete of taken id %u: %d", head, err);
			packed_check_used(head, len);
		}
		if (!err && listed)
			model_completed(idx);
		return;
	}
	if (s.outside_window) {
		FUZZ_CHECK(err == -EFAULT, "complete outside the window: %d", err);
		return;
	}
	FUZZ_CHECK(err == 0, "complete: %d", err);
	check_used(s.used_total, head, len);
	s.used_total++;
	FUZZ_CHECK(vringh16_to_cpu(&s.vrh, s.vr.used->idx) == s.used_total,
		   "used idx %u, expected %u",
		   vringh16_to_cpu(&s.vrh, s.vr.used->idx), s.used_total);
	if (listed)
		model_completed(idx);
}

/*
 * The taken-list entries @idx[i] of the @n whose @listed[i] is set, all
 * completed: removed highest index first (model_completed() moves the last
 * entry into the hole, so a lower index stays valid), @listed cleared.
 */
static void model_completed_listed(const unsigned int *idx, bool *listed, unsigned int n)
{
	for (;;) {
		int best = -1;
		unsigned int i;

		for (i = 0; i < n; i++)
			if (listed[i] && (best < 0 || idx[i] > idx[best]))
				best = i;
		if (best < 0)
			break;
		model_completed(idx[best]);
		listed[best] = false;
	}
}

static void op_complete_multi(struct fin *in)
{
	static struct vring_used_elem el[MAX_RING_SIZE + 2];
	static unsigned int idx[MAX_RING_SIZE + 2];
	static bool listed[MAX_RING_SIZE + 2];
	unsigned int n = fin_u8(in) % (s.num + 2), i, j;
	int err;

	if (kiovs() && n > s.num)	/* one at a time: no refusal to test */
		n = s.num;

	for (i = 0; i < n; i++) {
		uint16_t head = pick_head(in, &listed[i], &idx[i]);

		/* One list entry per element: complete each head once. */
		for (j = 0; listed[i] && j < i; j++)
			if (listed[j] && idx[j] == idx[i])
				listed[i] = false;
		el[i].id = cpu_to_vringh32(&s.vrh, head);
		el[i].len = cpu_to_vringh32(&s.vrh, fin_u16(in));
	}
	s.gen++;
	if (s.packed && !kiovs()) {
		u16 used_off = s.vrh.last_used_idx;
		bool used_wrap = s.vrh.used_wrap_counter;

		err = vringh_complete_multi_user(&s.vrh, el, n);
		FUZZ_CHECK(err == 0 || err == -EINVAL || (err == -EFAULT && s.outside_window),
			   "packed complete_multi(%u): %d", n, err);
		if (!err) {
			static uint16_t ids[MAX_RING_SIZE + 2];
			static uint32_t lens[MAX_RING_SIZE + 2];

			for (i = 0; i < n; i++) {
				ids[i] = vringh32_to_cpu(&s.vrh, el[i].id);
				lens[i] = vringh32_to_cpu(&s.vrh, el[i].len);
			}
			held_completed(used_off, used_wrap, ids, lens, n);
		}
		if (s.m.ok) {
			bool all = n <= s.num;

			for (i = 0; i < n; i++)
				all = all && listed[i];
			if (all) {
				FUZZ_CHECK(err == 0, "model: complete_multi of taken ids: %d", err);
				for (i = 0; i < n; i++)
					packed_check_used(vringh32_to_cpu(&s.vrh, el[i].id),
							  vringh32_to_cpu(&s.vrh, el[i].len));
			} else if (!err) {
				model_off();	/* ids it did not take: not modelled */
			}
		}
		if (!err)
			model_completed_listed(idx, listed, n);
		return;
	}
	if (s.packed)
		return;		/* (kern, IOTLB) one at a time is op_complete */
	if (kiovs()) {
		/* No kern or IOTLB flavour of complete_multi: one at a time. */
		for (i = 0; i < n; i++) {
			err = do_complete(vringh32_to_cpu(&s.vrh, el[i].id),
					  vringh32_to_cpu(&s.vrh, el[i].len));
			FUZZ_CHECK(err == 0, "complete (kern, IOTLB): %d", err);
		}
		err = 0;
	} else {
		err = vringh_complete_multi_user(&s.vrh, el, n);
	}
	if (n > s.num) {
		FUZZ_CHECK(err == -EINVAL || kiovs(), "complete_multi(%u) of %u: %d", n, s.num, err);
		if (!kiovs())
			return;
	} else if (s.outside_window && n) {
		FUZZ_CHECK(err == -EFAULT, "complete_multi outside the window: %d", err);
		return;
	} else {
		FUZZ_CHECK(err == 0, "complete_multi(%u): %d", n, err);
	}
	for (i = 0; i < n; i++)
		check_used(s.used_total + i, vringh32_to_cpu(&s.vrh, el[i].id),
			   vringh32_to_cpu(&s.vrh, el[i].len));
	s.used_total += n;
	if (n)
		FUZZ_CHECK(vringh16_to_cpu(&s.vrh, s.vr.used->idx) == s.used_total,
			   "used idx %u, expected %u",
			   vringh16_to_cpu(&s.vrh, s.vr.used->idx), s.used_total);
	model_completed_listed(idx, listed, n);
}

static void op_abandon(struct fin *in)
{
	unsigned int k = fin_u8(in), i;

	u16 before = s.vrh.last_avail_idx;
	bool wrap_before = s.vrh.avail_wrap_counter;

	if (k >= 0xf8)
		k = 0xffff - (k & 7);		/* far back: the index must cope */
	else
		k %= 5;
	do_abandon(k);
	s.gen++;
	if (s.packed && (before != s.vrh.last_avail_idx || wrap_before != s.vrh.avail_wrap_counter)) {
		/* Given back: the last k taken, their descriptors with them. */
		unsigned int back = 0;

		FUZZ_CHECK(k <= s.nheld, "abandoned %u of the %u it holds", k, s.nheld);
		for (i = 0; i < k; i++)
			back += s.held[--s.nheld].nd;
		FUZZ_CHECK(packed_dist(s.vrh.last_avail_idx, s.vrh.avail_wrap_counter, before,
				       wrap_before) == back,
			   "abandon of %u moved the avail offset back by %u, not their %u descriptors",
			   k, packed_dist(s.vrh.last_avail_idx, s.vrh.avail_wrap_counter, before,
					  wrap_before), back);
	}
	if (!s.m.ok || !k)
		return;
	if (s.packed || k > s.m.ntaken) {
		model_off();
		return;
	}
	for (i = 1; i <= k; i++) {
		uint16_t pos = s.m.host_idx - i;
		unsigned int j;

		if (s.m.recent[pos % RECENT].done) {
			model_off();
			return;
		}
		for (j = 0; j < s.m.ntaken; j++)
			if (s.m.taken_pos[j] == pos)
				break;
		if (j == s.m.ntaken) {
			model_off();
			return;
		}
		s.m.taken[j] = s.m.taken[s.m.ntaken - 1];
		s.m.taken_pos[j] = s.m.taken_pos[s.m.ntaken - 1];
		s.m.ntaken--;
	}
	s.m.host_idx -= k;
}

static void op_notify_enable(struct fin *in __attribute__((unused)))
{
	size_t said = fuzz_said;
	u16 avail = s.packed ? 0 : vringh16_to_cpu(&s.vrh, s.vr.avail->idx);
	bool empty = do_notify_enable();

	if (s.packed) {
		FUZZ_CHECK(!s.outside_window || (empty && fuzz_said > said),
			   "enable outside the window");
		return;
	}

	if (s.outside_window) {
		FUZZ_CHECK(empty && fuzz_said > said, "enable outside the window");
		return;
	}
	FUZZ_CHECK(empty == (avail == s.vrh.last_avail_idx),
		   "notify_enable said %d; avail %u, host at %u", empty, avail,
		   s.vrh.last_avail_idx);
	if (s.event_idx)
		FUZZ_CHECK(vringh16_to_cpu(&s.vrh, vring_avail_event(&s.vr)) ==
			   s.vrh.last_avail_idx, "avail_event not written");
	else
		FUZZ_CHECK(vringh16_to_cpu(&s.vrh, s.vr.used->flags) == 0,
			   "used flags not cleared");
}

static void op_notify_disable(struct fin *in __attribute__((unused)))
{
	do_notify_disable();
	if (!s.event_idx && !s.outside_window && !s.packed)
		FUZZ_CHECK(vringh16_to_cpu(&s.vrh, s.vr.used->flags) ==
			   VRING_USED_F_NO_NOTIFY, "used flags not set");
}

static void op_need_notify(struct fin *in __attribute__((unused)))
{
	u16 flags, used_event;
	int want, got;

	if (s.packed) {
		got = do_need_notify();
		FUZZ_CHECK(got == 0 || got == 1 || (got == -EFAULT && s.outside_window),
			   "packed need_notify: %d", got);
		return;
	}
	flags = vringh16_to_cpu(&s.vrh, s.vr.avail->flags);
	used_event = vringh16_to_cpu(&s.vrh, vring_used_event(&s.vr));
	if (s.event_idx)
		want = vring_need_event(used_event, s.used_total, s.nn_old);
	else
		want = !(flags & VRING_AVAIL_F_NO_INTERRUPT);
	got = do_need_notify();
	if (s.outside_window) {
		FUZZ_CHECK(got == -EFAULT, "need_notify outside the window: %d", got);
		return;
	}
	/* Flags other than 0/1 (0 with EVENT_IDX) break 2.7.7: refused. */
	if (flags & ~(s.event_idx ? 0 : VRING_AVAIL_F_NO_INTERRUPT)) {
		FUZZ_CHECK(got == -EINVAL, "need_notify with avail flags %#x: %d",
			   flags, got);
		return;
	}
	FUZZ_CHECK(got == want, "need_notify %d, expected %d (event %u, %u -> %u)",
		   got, want, used_event, s.nn_old, s.used_total);
	s.nn_old = s.used_total;
}

/* Snap [off, off + len) into allowed memory; false if there is none. */
static bool snap(uint16_t sel, uint16_t off, uint32_t *o, uint32_t *len)
{
	uint64_t lo, hi;

	if (kiovs()) {
		lo = 0;
		hi = gsize - 1;
	} else {
		if (!s.nranges)
			return false;
		lo = s.range[sel % s.nranges].s - GBASE;
		hi = s.range[sel % s.nranges].e - GBASE;
	}
	*o = lo + off % (hi - lo + 1);
	if (*len > hi - *o + 1)
		*len = hi - *o + 1;
	return true;
}

static void write_desc(struct vring_desc *d, uint64_t addr, uint32_t len,
		       uint16_t flags, uint16_t next)
{
	d->addr = cpu_to_vringh64(&s.vrh, addr);
	d->len = cpu_to_vringh32(&s.vrh, len);
	d->flags = cpu_to_vringh16(&s.vrh, flags);
	d->next = cpu_to_vringh16(&s.vrh, next);
}

/* Is the packed ring position @p (counted from the start) in an odd lap? */
static bool packed_lap_wrap(uint32_t p)
{
	return !((p / s.num) & 1);	/* the wrap counters start at 1 */
}

/*
 * Packed: the well-behaved driver writes buffer @b as a list at its avail
 * position, first descriptor's flags last (2.8.6), under a free id.
 */
static bool packed_add(struct mbuf *b, uint8_t idsel)
{
	unsigned int n = b->indirect ? 1 : b->nseg, j;
	uint16_t id, first_flags = 0;

	if (!s.m.nfree || s.m.pk_avail - s.m.pk_used + n > s.num)
		return false;
	j = idsel % s.m.nfree;
	id = s.m.free[j];
	s.m.free[j] = s.m.free[--s.m.nfree];
	if (b->indirect) {
		struct vring_packed_desc t[MAX_SEGS];

		for (j = 0; j < b->nseg; j++) {
			t[j].addr = cpu_to_le64(g_addr(b->seg[j].off));
			t[j].len = cpu_to_le32(b->seg[j].len);
			t[j].id = 0;
			t[j].flags = cpu_to_le16(b->seg[j].w ? VRING_DESC_F_WRITE : 0);
		}
		memcpy(g + b->toff, t, b->tlen);
		memcpy(shadow + b->toff, t, b->tlen);
	}
	for (j = 0; j < n; j++) {
		uint32_t p = s.m.pk_avail + j;
		struct vring_packed_desc *d = &s.vp.desc[p % s.num];
		bool w = packed_lap_wrap(p);
		uint16_t f = w << VRING_PACKED_DESC_F_AVAIL | !w << VRING_PACKED_DESC_F_USED;

		if (j + 1 < n)
			f |= VRING_DESC_F_NEXT;
		if (b->indirect) {
			f |= VRING_DESC_F_INDIRECT;
			d->addr = cpu_to_le64(g_addr(b->toff));
			d->len = cpu_to_le32(b->tlen);
		} else {
			f |= b->seg[j].w ? VRING_DESC_F_WRITE : 0;
			d->addr = cpu_to_le64(g_addr(b->seg[j].off));
			d->len = cpu_to_le32(b->seg[j].len);
		}
		d->id = cpu_to_le16(id);
		if (j)
			d->flags = cpu_to_le16(f);
		else
			first_flags = f;
	}
	s.vp.desc[s.m.pk_avail % s.num].flags = cpu_to_le16(first_flags);
	s.m.pk_avail += n;
	b->ndesc = 1;
	b->desc[0] = id;
	b->nring = n;
	return true;
}

/* Packed: the used descriptor complete wrote for buffer @id. */
static void packed_check_used(uint16_t id, uint32_t len)
{
	const struct vring_packed_desc *d = &s.vp.desc[s.m.pk_used % s.num];
	bool w = packed_lap_wrap(s.m.pk_used);
	uint16_t f = le16_to_cpu(d->flags);

	FUZZ_CHECK(le16_to_cpu(d->id) == id && le32_to_cpu(d->len) == len,
		   "used descriptor %u: id %u len %u, completed id %u len %u",
		   s.m.pk_used % s.num, le16_to_cpu(d->id), le32_to_cpu(d->len), id, len);
	FUZZ_CHECK(!!(f & (1 << VRING_PACKED_DESC_F_AVAIL)) == w &&
		   !!(f & (1 << VRING_PACKED_DESC_F_USED)) == w &&
		   !!(f & VRING_DESC_F_WRITE) == !!len,
		   "used descriptor %u: flags %#x in lap %d", s.m.pk_used % s.num, f, w);
	s.m.pk_used += s.m.buf[id].nring;
}

/* The well-behaved guest adds a buffer. */
static void op_model_add(struct fin *in)
{
	uint8_t shape = fin_u8(in);
	unsigned int nseg = 1 + shape % MAX_SEGS, nread, i;
	bool want_indirect = shape & 0x80;
	uint16_t toff_in = fin_u16(in), tsel = fin_u16(in);
	struct mbuf b = { .live = true };
	uint16_t head;

	nread = fin_u8(in) % (nseg + 1);
	if (s.no_riov)
		nread = 0;
	if (s.no_wiov)
		nread = nseg;
	for (i = 0; i < nseg; i++) {
		uint16_t sel = fin_u16(in), off = fin_u16(in);
		uint32_t len = fin_u8(in) % MAX_SEG_LEN;

		b.seg[i].w = i >= nread;
		if (!snap(sel, off, &b.seg[i].off, &len))
			len = 0;
		b.seg[i].len = len;
	}
	b.nseg = nseg;

	/*
	 * An indirect table where the host may read it, clear of others: only
	 * if negotiated, and no longer than the ring (2.7.5.3.1, 2.8.18).
	 */
	if (want_indirect && s.indirect && nseg <= s.num) {
		uint32_t tlen = nseg * sizeof(struct vring_desc), o;
		uint32_t l = tlen;

		if (snap(tsel, toff_in, &o, &l) && l == tlen) {
			if (s.kern)
				o &= ~15u;
			if (range_holding(o, tlen) >= 0 && !overlaps_live_table(o, tlen)) {
				b.indirect = true;
				b.toff = o;
				b.tlen = tlen;
			}
		}
	}
	if (s.packed) {
		/* The same input bytes as the split layout's below. */
		uint8_t idsel = b.indirect ? fin_u8(in) : 0;

		idsel += fin_u16(in);
		/* No list may be longer than the ring, a table's neither (2.8.5). */
		if (b.nseg > s.num)
			return;
		if (!packed_add(&b, idsel))
			return;
		head = b.desc[0];
	} else if (s.m.nfree < (b.indirect ? 1 : nseg)) {
		return;
	} else if (b.indirect) {
		struct vring_desc t[MAX_SEGS];
		unsigned int rot = fin_u8(in), slot[MAX_SEGS];

		/* Entry 0 first; the rest in a rotated order. */
		slot[0] = 0;
		for (i = 1; i < nseg; i++)
			slot[i] = 1 + (i - 1 + rot) % (nseg - 1);
		for (i = 0; i < nseg; i++)
			write_desc(&t[slot[i]], g_addr(b.seg[i].off), b.seg[i].len,
				   (i + 1 < nseg ? VRING_DESC_F_NEXT : 0) |
				   (b.seg[i].w ? VRING_DESC_F_WRITE : 0),
				   i + 1 < nseg ? slot[i + 1] : 0);
		memcpy(g + b.toff, t, b.tlen);
		memcpy(shadow + b.toff, t, b.tlen);
		head = s.m.free[--s.m.nfree];
		b.ndesc = 1;
		b.desc[0] = head;
		write_desc(&s.vr.desc[head], g_addr(b.toff), b.tlen,
			   VRING_DESC_F_INDIRECT, fin_u16(in));
	} else {
		for (i = 0; i < nseg; i++)
			b.desc[i] = s.m.free[--s.m.nfree];
		b.ndesc = nseg;
		head = b.desc[0];
		for (i = 0; i < nseg; i++)
			write_desc(&s.vr.desc[b.desc[i]], g_addr(b.seg[i].off),
				   b.seg[i].len,
				   (i + 1 < nseg ? VRING_DESC_F_NEXT : 0) |
				   (b.seg[i].w ? VRING_DESC_F_WRITE : 0),
				   i + 1 < nseg ? b.desc[i + 1] : fin_u16(in));
	}
	s.m.buf[head] = b;
	s.m.order[s.m.avail_idx % s.num] = head;
	if (!s.packed)
		s.vr.avail->ring[s.m.avail_idx % s.num] = cpu_to_vringh16(&s.vrh, head);
	s.m.avail_idx++;
	if (!s.packed)
		s.vr.avail->idx = cpu_to_vringh16(&s.vrh, s.m.avail_idx);
	s.gen++;
	touch(b.indirect ? b.toff : 0, b.indirect ? b.tlen : 0);
}

static void op_model_flags(struct fin *in)
{
	uint8_t what = fin_u8(in);
	uint16_t v = fin_u16(in);

	if (s.packed) {		/* the driver's event suppression */
		if (what & 1)
			s.vp.driver->flags = cpu_to_le16(v % 3);
		else
			s.vp.driver->off_wrap = cpu_to_le16(v);
		return;
	}
	if (what & 1)
		s.vr.avail->flags = cpu_to_vringh16(&s.vrh, v & VRING_AVAIL_F_NO_INTERRUPT);
	else
		vring_used_event(&s.vr) = cpu_to_vringh16(&s.vrh, v);
}

/* The hostile guest writes anywhere in the ring. */
static void op_poke16(struct fin *in)
{
	size_t off = (fin_u16(in) % s.rsize) & ~(size_t)1;
	uint16_t v = fin_u16(in);

	memcpy(s.rstart + off, &v, sizeof(v));
	model_off();
	s.gen++;
	s.dirty = true;
}

static void op_poke_desc(struct fin *in)
{
	unsigned int i = fin_u8(in) % s.num;
	uint64_t a = fin_u64(in);
	uint32_t l = fin_u32(in);
	uint16_t f = fin_u16(in), n = fin_u16(in);

	if (a < gsize + 64 && !s.kern)
		a = GBASE + a - 32;	/* small: an offset near guest memory */
	if (s.packed) {
		struct vring_packed_desc *d = &s.vp.desc[i];

		/* Flag 0x40 (unused by virtio): "available in this lap". */
		if (f & 0x40) {
			bool w = s.vrh.avail_wrap_counter;

			f &= ~(0x40 | 1 << VRING_PACKED_DESC_F_AVAIL |
			       1 << VRING_PACKED_DESC_F_USED);
			f |= w << VRING_PACKED_DESC_F_AVAIL | !w << VRING_PACKED_DESC_F_USED;
		}
		d->addr = cpu_to_le64(a);
		d->len = cpu_to_le32(l);
		d->id = cpu_to_le16(n);
		d->flags = cpu_to_le16(f);
	} else {
		write_desc(&s.vr.desc[i], a, l, f, n);
	}
	model_off();
	s.gen++;
	s.dirty = true;
}

/* ...or anywhere in guest memory it can reach. */
static void op_poke_g(struct fin *in)
{
	uint32_t off = fin_u16(in) % gsize;
	uint8_t n = fin_u8(in) % 64, i;

	for (i = 0; i < n && off + i < gsize; i++) {
		uint8_t v = fin_u8(in);

		if (!g_page_rw[(off + i) / pg])
			continue;
		g[off + i] = v;
		shadow[off + i] = v;
	}
	model_off();
	s.gen++;
	touch(off, i);
}

static void op_iov_reset(struct fin *in)
{
	bool w = fin_u8(in) & 1;

	if (w ? s.no_wiov : s.no_riov)
		return;
	if (kiovs())
		vringh_kiov_reset(w ? &s.wiov.k : &s.riov.k);
	else
		vringh_iov_reset(w ? &s.wiov.u : &s.riov.u);
	if (w)
		s.m.wpos = 0;
	else
		s.m.rpos = 0;
}

static void op_advance(struct fin *in)
{
	bool w = fin_u8(in) & 1;
	size_t n = fin_u16(in);
	uint64_t *pos = w ? &s.m.wpos : &s.m.rpos;
	uint64_t total = w ? s.m.wtotal : s.m.rtotal;

	if (!kiovs() || (w ? s.no_wiov : s.no_riov))
		return;
	vringh_kiov_advance(w ? &s.wiov.k : &s.riov.k, n);
	*pos += total - *pos < n ? total - *pos : n;
}

static void op_cleanup(struct fin *in)
{
	uint8_t caps = fin_u8(in);

	iovs_cleanup();
	s.rcap = caps % 5;
	s.wcap = (caps >> 3) % 5;
	iovs_init();
	s.m.cur = -1;
	s.m.rpos = s.m.wpos = s.m.rtotal = s.m.wtotal = 0;
	s.gen++;
}

/* In order: one used entry for the oldest @count buffers taken. */
static void op_complete_batch(struct fin *in)
{
	unsigned int idx = 0, count = fin_u8(in) % (s.num + 2);
	bool listed;
	uint16_t head = pick_head(in, &listed, &idx);
	uint32_t len = fin_u32(in);
	u16 used_off = s.vrh.last_used_idx;
	bool used_wrap = s.vrh.used_wrap_counter;
	int err = -EINVAL;

	if (s.iotlb)
		return;		/* no IOTLB flavour of complete_batch */
#ifdef vringh_complete_batch_user
	err = s.kern ? vringh_complete_batch_kern(&s.vrh, head, len, count)
		     : vringh_complete_batch_user(&s.vrh, head, len, count);
#endif
	FUZZ_CHECK(err == 0 || err == -EINVAL || (err == -EFAULT && s.outside_window),
		   "complete_batch(%u, %u): %d", head, count, err);
	FUZZ_CHECK(err || s.in_order, "complete_batch without IN_ORDER: 0");
	s.gen++;
	if (err)
		return;
	s.m.ntaken = 0;		/* which ones it used is not tracked */
	if (s.packed) {
		/*
		 * The oldest @count it held, the last of them @head: one used
		 * descriptor over the first one's, the used offset past all.
		 */
		unsigned int i, nd = 0;

		FUZZ_CHECK(count && count <= s.nheld && s.held[count - 1].id == head,
			   "a batch of %u ending with id %u, holding %u (the %u-th oldest: id %u)",
			   count, head, s.nheld, count, count && count <= s.nheld ?
			   s.held[count - 1].id : 0xffff);
		held_check_used(used_off, used_wrap, head, len);
		for (i = 0; i < count; i++)
			nd += s.held[i].nd;
		packed_step(&used_off, &used_wrap, nd);
		FUZZ_CHECK(s.vrh.last_used_idx == used_off && s.vrh.used_wrap_counter == used_wrap,
			   "a batch of %u buffers over %u descriptors moved the used offset to %u (lap %d)",
			   count, nd, s.vrh.last_used_idx, s.vrh.used_wrap_counter);
		for (i = 0; i < count; i++)
			held_drop(0);
		return;
	}
	/* One element, at the slot of the batch's first buffer. */
	check_used(s.used_total, head, len);
	s.used_total += count;
	FUZZ_CHECK(vringh16_to_cpu(&s.vrh, s.vr.used->idx) == s.used_total,
		   "used idx %u after a batch of %u, expected %u",
		   vringh16_to_cpu(&s.vrh, s.vr.used->idx), count, s.used_total);
}

static void op_fail_alloc(struct fin *in)
{
	kmalloc_fail_nth(1 + fin_u8(in) % 4);
	s.fail_armed = true;
}

/* Guest memory holds what the model says (where the host may look). */
static void check_shadow(size_t lo, size_t hi)
{
	unsigned int p;

	for (p = lo / pg; p < G_PAGES && p * pg < hi; p++)
		if (g_page_rw[p])
			FUZZ_CHECK(memcmp(g + p * pg, shadow + p * pg, pg) == 0,
				   "guest memory page %u differs from the model", p);
}

/* ---- set-up and one input ---- */

/* Map I/O range [@base, @base + @len) onto @host in pieces split at @cut[]. */
static void map_pieces(uint64_t base, char *host, uint64_t len, const uint64_t *cut,
		       unsigned int ncut)
{
	uint64_t at = 0;

	while (at < len) {
		uint64_t end = len;
		unsigned int i;

		for (i = 0; i < ncut; i++)
			if (cut[i] > at && cut[i] < end)
				end = cut[i];
		FUZZ_CHECK(vhost_iotlb_add_range(&fz_iotlb, base + at, base + end - 1,
						 (uintptr_t)(host + at), VHOST_MAP_RW) == 0,
			   "vhost_iotlb_add_range failed");
		at = end;
	}
}

/*
 * IOTLB: the ring at IO_RING and guest memory at GBASE (where descriptors
 * point), each as maps split at byte offsets the input's ranges give (any
 * byte: a ring word, a descriptor, a buffer may be split across two).
 */
static void iotlb_maps(void)
{
	uint64_t gcut[2 * MAX_RANGES], rcut[2 * MAX_RANGES];
	unsigned int i;

	vhost_iotlb_reset(&fz_iotlb);
	for (i = 0; i < s.nranges; i++) {
		gcut[2 * i] = s.range[i].s - GBASE;
		gcut[2 * i + 1] = s.range[i].e - GBASE + 1;
		rcut[2 * i] = gcut[2 * i] % s.rsize;
		rcut[2 * i + 1] = gcut[2 * i + 1] % s.rsize;
	}
	map_pieces(IO_RING, s.rstart, s.rsize, rcut, 2 * s.nranges);
	map_pieces(GBASE, g, gsize, gcut, 2 * s.nranges);
	vringh_set_iotlb(&s.vrh, &fz_iotlb, &fz_iotlb_lock);
}

static void setup(struct fin *in)
{
	uint8_t cfg = fin_u8(in), numsel = fin_u8(in), caps = fin_u8(in);
	uint8_t rsel = fin_u8(in);
	uint64_t features = 0;
	uint16_t rlen, glen, goff;
	unsigned int i;
	int err;

	memset(&s, 0, sizeof(s));
	if (cfg & 1)
		features |= 1ULL << VIRTIO_RING_F_INDIRECT_DESC;
	if (cfg & 2)
		features |= 1ULL << VIRTIO_RING_F_EVENT_IDX;
	if (cfg & 4)
		features |= 1ULL << VIRTIO_F_VERSION_1;
	s.indirect = cfg & 1;
	s.event_idx = cfg & 2;
	s.version_1 = cfg & 4;
	s.kern = cfg & 8;
	s.slow = cfg & 0x10;
	s.outside_window = !s.kern && (cfg & 0xe0) == 0xe0;
	/* Kern with those three bits too: the IOTLB accessors instead. */
	s.iotlb = s.kern && (cfg & 0xe0) == 0xe0;
	if (s.iotlb)
		s.kern = false;
	s.num = 1u << (numsel % 7);
	s.packed = numsel & 0x80;
	if (s.packed) {		/* any size will do */
		s.num = 1 + (numsel & 0x7f) % MAX_RING_SIZE;
		s.version_1 = true;
		features |= 1ULL << VIRTIO_F_VERSION_1 | 1ULL << VIRTIO_F_RING_PACKED;
	}

	s.rcap = caps % 5;
	s.wcap = (caps >> 3) % 5;
	s.no_riov = (caps & 0xc0) == 0x40;
	s.no_wiov = (caps & 0xc0) == 0x80;
	if ((caps & 0xc0) == 0xc0 && (cfg & 0x20))
		s.no_riov = s.no_wiov = true;	/* getdesc must refuse */

	/* Allowed guest ranges (user accessors). */
	s.nranges = (rsel & 0x7f) % (MAX_RANGES + 1);
	s.in_order = rsel & 0x80;
	if (s.in_order)
		features |= 1ULL << VIRTIO_F_IN_ORDER;
	for (i = 0; i < s.nranges; i++) {
		uint64_t a = fin_u16(in) % gsize, l = 1 + fin_u16(in) % gsize;

		if (a + l > gsize)
			l = gsize - a;
		s.range[i].s = GBASE + a;
		s.range[i].e = GBASE + a + l - 1;
	}

	/* The ring at the very end of its page, everything around poisoned. */
	s.rsize = s.packed ? vring_packed_size(s.num)
			   : vring_size(s.num, VRING_USED_ALIGN_SIZE);
	s.rstart = rpage + pg - ((s.rsize + 15) & ~(size_t)15);
	memset(rpage, 0, pg);
	if (s.packed) {
		vring_packed_init(&s.vp, s.num, s.rstart);
		if (s.iotlb)	/* the ring at I/O addresses, as the maps say */
			err = vringh_init_packed_kern(&s.vrh, features, s.num, true,
						      io_of(s.vp.desc), io_of(s.vp.driver),
						      io_of(s.vp.device));
		else
			err = s.kern ? vringh_init_packed_kern(&s.vrh, features, s.num, true,
							       s.vp.desc, s.vp.driver, s.vp.device)
				     : vringh_init_packed_user(&s.vrh, features, s.num, true,
							       s.vp.desc, s.vp.driver, s.vp.device);
	} else {
		vring_init(&s.vr, s.num, s.rstart, VRING_USED_ALIGN_SIZE);
		if (s.iotlb)
			err = vringh_init_iotlb(&s.vrh, features, s.num, true, io_of(s.vr.desc),
						io_of(s.vr.avail), io_of(s.vr.used));
		else
			err = s.kern ? vringh_init_kern(&s.vrh, features, s.num, true,
							s.vr.desc, s.vr.avail, s.vr.used)
				     : vringh_init_user(&s.vrh, features, s.num, true,
							s.vr.desc, s.vr.avail, s.vr.used);
	}
	FUZZ_CHECK(err == 0, "init: %d", err);
	if (s.iotlb)
		iotlb_maps();

	/* Initial contents: the ring and guest memory as the input says. */
	rlen = fin_u16(in);
	if (rlen)
		fin_bytes(in, s.rstart, rlen % (s.rsize + 1));
	set_g_protection(true);
	memset(g, 0, gsize);
	goff = fin_u16(in) % gsize;
	glen = fin_u16(in);
	if (glen)
		fin_bytes(in, g + goff, glen % (gsize - goff + 1));
	fuzz_poison(rpage, s.rstart - rpage);
	fuzz_poison(s.rstart + s.rsize, rpage + pg - (s.rstart + s.rsize));

	__user_addr_min = s.outside_window ? (void *)g : (void *)rpage;
	__user_addr_max = g + gsize;

	s.m.ok = !rlen && !s.outside_window && !(s.no_riov && s.no_wiov) &&
		 !s.in_order;
	for (i = 0; i < s.num; i++)
		s.m.free[i] = s.num - 1 - i;
	s.m.nfree = s.num;
	s.m.cur = -1;
	s.err_gen = ~0UL;
	iovs_init();
	s.dirty = true;
	s.dlo = 0;
	s.dhi = gsize;
	sanitize_all();
	s.dirty = false;
	s.dlo = gsize;
	s.dhi = 0;
	memcpy(shadow, g, gsize);
	set_g_protection(false);
}

int LLVMFuzzerInitialize(int *argc __attribute__((unused)), char ***argv __attribute__((unused)))
{
	pg = (size_t)sysconf(_SC_PAGESIZE);
	gsize = G_PAGES * pg;
	/* Ring page, guard, guest memory: one window of "user" memory. */
	rpage = fuzz_guarded_pages(1 + 1 + G_PAGES);
	if (mprotect(rpage + pg, pg, PROT_NONE))
		abort();
	g = rpage + 2 * pg;
	for (unsigned int p = 0; p < G_PAGES; p++)
		g_page_rw[p] = true;
	shadow = malloc(gsize);
	if (!shadow)
		abort();
	vhost_iotlb_init(&fz_iotlb, 0, 0);
	spin_lock_init(&fz_iotlb_lock);
	fuzz_quiet_stderr();
	return 0;
}

/*
 * The operations, numbered by their place here: an input's op byte picks
 * one (fuzz/mkseeds.py numbers them the same, and the corpus depends on
 * it: a new one goes at the end).
 */
static fuzz_op_fn *const ops[] = {
	op_getdesc, op_pull, op_push, op_complete, op_complete_multi,
	op_abandon, op_notify_enable, op_notify_disable, op_need_notify,
	op_model_add, op_model_flags, op_poke16, op_poke_desc, op_poke_g,
	op_iov_reset, op_advance, op_cleanup, op_fail_alloc, op_complete_batch,
};

/* After each op: guest memory it wrote checked against the model. */
static void check_dirty(size_t said_before __attribute__((unused)))
{
	if (!s.dirty)
		return;
	sanitize_all();
	if (s.m.ok && s.dlo < s.dhi)
		check_shadow(s.dlo, s.dhi);
	s.dirty = false;
	s.dlo = gsize;
	s.dhi = 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fin in = { data, size };
	long base = kmalloc_outstanding();

	setup(&in);
	fuzz_run_ops(&in, ops, ARRAY_SIZE(ops), check_dirty);
	if (s.m.ok)
		check_shadow(0, gsize);

	if (fuzz_verbose)
		dprintf(2, "fuzz_vringh: %u buffers taken, %u predicted by the model (%s at the end), %u bytes checked\n",
			s.taken, s.model_taken, s.m.ok ? "valid" : "off", s.model_bytes);
	iovs_cleanup();
	vringh_cleanup(&s.vrh);
	kmalloc_fail_nth(0);
	FUZZ_CHECK(kmalloc_outstanding() == base, "%ld allocations leaked",
		   kmalloc_outstanding() - base);
	fuzz_unpoison(rpage, pg);
	return 0;
}
