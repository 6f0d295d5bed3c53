// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: the driver side (virtio_ring.c), its device played by the
 * input.
 *
 * A real virtqueue, split or packed, with or without VIRTIO_F_IN_ORDER (on
 * guarded memory of ours, or a ring it allocates itself, with reset and
 * resize hooks) takes adds, kicks, get_bufs,
 * callback enabling and disabling, interrupts, detaches, resets and
 * resizes; between them the device either behaves (takes the buffers the
 * driver offered, checks every chain it finds against what was added,
 * and returns them with lengths that fit; in order, now and then a batch
 * answered by one used entry) or lies: arbitrary used
 * elements and lengths, used index jumps, event index and flag values,
 * bytes scribbled anywhere in the ring.  Allocations fail now and then.
 *
 * Invariants, beyond "no crash" (ASan, UBSan, guard pages):
 *  - get_buf only returns a token that is in flight, once, with a length
 *    the buffer can hold and the ctx it was added with;
 *  - a queue broken by a lying device says so, and stays broken: adds
 *    fail with -EIO, get_buf returns nothing, kicks fail;
 *  - while the device behaves, nothing breaks, every chain the device
 *    reads is exactly the buffer that was added, get_buf returns exactly
 *    what the device used, in order, and adds, kicks, enable_cb and
 *    interrupts give the results the ring state predicts;
 *  - after teardown every token came back exactly once (get_buf, detach
 *    or recycle) and kmalloc_outstanding() is where it was.
 */
#include "fuzz/fuzz.h"

#include <errno.h>
#include <linux/virtio.h>
#include <linux/virtio_config.h>
#include <linux/virtio_ring.h>

#include "harness/harness.h"
#include "harness/mockdev.h"

#define MAX_RING_SIZE		64
#define MAX_SG		6
#define MAX_TOK		512

static size_t pg;
static char *rpage;		/* guarded page for caller-owned rings */
static char data[8192];		/* what the buffers point at */

struct tok {
	unsigned int nsg, nout;
	struct { const char *p; uint32_t len; } sg[MAX_SG];
	uint32_t in_len;
	void *ctx;
};

static struct fuzz_state {
	struct virtio_device vdev;
	struct virtio_config_ops cfgops;
	struct virtqueue *vq;
	bool created;		/* vring_create_virtqueue: ring is the queue's */
	bool ctxq, indirect, event, callback, in_order;
	unsigned int num, num_max;
	const struct vring *vr;		/* split */
	bool packed;
	struct vring_packed vp;		/* packed */

	struct tok *live[MAX_TOK];	/* in flight */
	unsigned int nlive;
	bool broken;
	bool notify_ok;
	unsigned long notifies, callbacks;
	int reset_err, enable_err;
	unsigned long fail_at;	/* kmalloc_fail_nth() armed with this */
	bool may_reduce;

	/* The device: its writes go through the mock device (harness/mockdev.h). */
	struct mockdev dev;
	bool valid;		/* it has behaved so far */
	uint16_t avail_idx;	/* what the driver has published */
	uint16_t kick_old;	/* avail index at the last kick decision */
	uint16_t dlast_avail;	/* next avail entry the device takes */
	uint16_t dused;		/* used index the device wrote */
	uint16_t drv_used;	/* used entries the driver consumed */
	struct tok *by_pos[MAX_RING_SIZE];	/* avail position -> token */
	struct { uint16_t head; struct tok *t; unsigned int n; } pend[MAX_RING_SIZE]; /* taken, unused */
	unsigned int npend;
	struct { struct tok *t; uint32_t len; } usedq[MAX_RING_SIZE];	/* used, not got */
	unsigned int nusedq;
	/* The packed device: positions and wrap counters, tokens in add order. */
	uint16_t d_avail, d_used;
	bool d_avail_wrap, d_used_wrap;
	struct tok *addq[MAX_RING_SIZE];
	unsigned int naddq;
	unsigned int added, got, predicted;	/* FUZZ_VERBOSE */
} s;

/* Could the next allocation fail? */
static bool fail_pending(void)
{
	return s.fail_at && kmalloc_count() < s.fail_at;
}

static bool notify_cb(struct virtqueue *vq __attribute__((unused)))
{
	s.notifies++;
	return s.notify_ok;
}

static void callback_cb(struct virtqueue *vq __attribute__((unused)))
{
	s.callbacks++;
}

static int disable_reset(struct virtqueue *vq __attribute__((unused)))
{
	return s.reset_err;
}

static int enable_after_reset(struct virtqueue *vq __attribute__((unused)))
{
	return s.enable_err;
}

/* Index of @t among the live tokens, or -1 (compares pointers only). */
static int live_index(const void *t)
{
	unsigned int i;

	for (i = 0; i < s.nlive; i++)
		if (s.live[i] == t)
			return i;
	return -1;
}

/* A token came back from the driver: it must be live; it is freed. */
static struct tok *came_back(void *p, const char *how)
{
	int i = live_index(p);
	struct tok *t;

	FUZZ_CHECK(i >= 0, "%s returned %p, not a buffer in flight", how, p);
	t = s.live[i];
	s.live[i] = s.live[--s.nlive];
	return t;
}

static void check_broken_stays(void)
{
	if (!s.broken)
		return;
	FUZZ_CHECK(virtqueue_is_broken(s.vq), "a broken queue came back");
}

static void note_broken(size_t said_before, const char *how)
{
	if (!s.broken && virtqueue_is_broken(s.vq)) {
		FUZZ_CHECK(!s.valid, "%s broke the queue of a device that behaved", how);
		FUZZ_CHECK(fuzz_said > said_before, "%s broke the queue silently", how);
		s.broken = true;
	}
}

static void ring_view(void)
{
	struct rig_ring ring = { .packed = s.packed };

	if (s.packed) {
		s.vr = NULL;
		s.num = virtqueue_get_vring_size(s.vq);
		s.vp.num = s.num;
		s.vp.desc = phys_to_virt(virtqueue_get_desc_addr(s.vq));
		s.vp.driver = phys_to_virt(virtqueue_get_avail_addr(s.vq));
		s.vp.device = phys_to_virt(virtqueue_get_used_addr(s.vq));
		ring.vring_packed = s.vp;
	} else {
		s.vr = virtqueue_get_vring(s.vq);
		s.num = s.vr->num;
		ring.vring = *s.vr;
	}
	ring.num = s.num;
	mockdev_init(&s.dev, &s.vdev, &ring);
}

/* ---- driver operations ---- */

static void op_add(struct fin *in)
{
	uint8_t shape = fin_u8(in), api = fin_u8(in) % 4;
	unsigned int nout = (shape & 15) % (MAX_SG + 1), nin = (shape >> 4) % (MAX_SG + 1);
	struct scatterlist sg[MAX_SG], *sgs[MAX_SG];
	unsigned int total, i, before = s.vq->num_free;
	bool could_indirect, may_fail;
	struct tok *t;
	size_t said = fuzz_said;
	void *ctx = NULL;
	int err, want;

	if (s.nlive == MAX_TOK)
		return;
	if (api == 1)		/* add_outbuf: one scatterlist of nout */
		nin = 0;
	if (api == 2 || api == 3)	/* add_inbuf(_ctx) */
		nout = 0;
	if (api == 3 && !s.ctxq)
		api = 2;
	total = nout + nin;
	if (nout + nin > MAX_SG)
		nin = MAX_SG - nout, total = MAX_SG;

	t = calloc(1, sizeof(*t));
	if (!t)
		abort();
	t->nout = nout;
	t->nsg = total;
	for (i = 0; i < total; i++) {
		uint16_t off = fin_u16(in) % sizeof(data);
		uint32_t len = fin_u8(in);

		if (len > sizeof(data) - off)
			len = sizeof(data) - off;
		t->sg[i].p = data + off;
		t->sg[i].len = len;
		if (i >= nout)
			t->in_len += len;
	}
	if (api == 3)
		t->ctx = ctx = data + fin_u8(in);
	may_fail = fail_pending();

	if (api == 0) {
		/* One scatterlist per sg, as a driver with headers does. */
		for (i = 0; i < total; i++) {
			sg_init_one(&sg[i], t->sg[i].p, t->sg[i].len);
			sgs[i] = &sg[i];
		}
		err = virtqueue_add_sgs(s.vq, sgs, nout, nin, t, GFP_ATOMIC);
	} else {
		sg_init_table(sg, total ? total : 1);
		for (i = 0; i < total; i++)
			sg_set_buf(&sg[i], t->sg[i].p, t->sg[i].len);
		if (api == 1)
			err = virtqueue_add_outbuf(s.vq, sg, total, t, GFP_ATOMIC);
		else if (api == 2)
			err = virtqueue_add_inbuf(s.vq, sg, total, t, GFP_ATOMIC);
		else
			err = virtqueue_add_inbuf_ctx(s.vq, sg, total, t, ctx, GFP_ATOMIC);
	}

	/* What the ring state says must happen. */
	could_indirect = s.indirect && total > 1 && before > 0;
	if (!total)
		want = -EINVAL;
	else if (s.broken)
		want = -EIO;
	else if (total > s.num)
		want = -ENOSPC;
	else if (could_indirect && !may_fail)
		want = 0;
	else
		want = before >= total ? 0 : -ENOSPC;
	if (could_indirect && may_fail && !s.broken && total <= s.num &&
	    err == 0 && before - s.vq->num_free == 1)
		want = 0;	/* the table was allocated after all */
	FUZZ_CHECK(err == want, "add %u+%u (%u free): %d, expected %d", nout, nin,
		   before, err, want);
	(void)said;

	if (err) {
		FUZZ_CHECK(s.vq->num_free == before, "failed add took descriptors");
		free(t);
		return;
	}
	FUZZ_CHECK(before - s.vq->num_free == total ||
		   (could_indirect && before - s.vq->num_free == 1),
		   "add of %u sgs took %u descriptors", total, before - s.vq->num_free);
	s.live[s.nlive++] = t;
	s.added++;
	if (s.packed) {
		if (s.naddq < MAX_RING_SIZE)
			s.addq[s.naddq++] = t;
		else
			s.valid = false;
	} else {
		s.by_pos[s.avail_idx % s.num] = t;
	}
	s.avail_idx++;
}

/*
 * A kick (@how & 1: kick_prepare) on flags the device may not write (@what,
 * @fl): no notification past @before, and the queue is broken from now on.
 */
static void kick_breaks(uint8_t how, unsigned long before, const char *what,
			uint16_t fl)
{
	bool got = (how & 1) ? virtqueue_kick_prepare(s.vq) : virtqueue_kick(s.vq);

	FUZZ_CHECK(!got && s.notifies == before, "kick with %s %#x: %d", what,
		   fl, got);
	FUZZ_CHECK(virtqueue_is_broken(s.vq), "%s %#x left the queue working",
		   what, fl);
	s.broken = true;
}

static void op_kick(struct fin *in)
{
	uint8_t how = fin_u8(in);
	unsigned long before = s.notifies;
	bool want_kick = false, got;
	bool predict = s.valid && !s.packed;	/* packed: not modelled */

	if (!s.packed) {
		uint16_t ev = virtio16_to_cpu(&s.vdev, vring_avail_event(s.vr));
		uint16_t fl = virtio16_to_cpu(&s.vdev, s.vr->used->flags);

		/* Used flags other than 0/1 (0 with EVENT_IDX) break 2.7.10. */
		if (!s.broken && (fl & ~(s.event ? 0 : VRING_USED_F_NO_NOTIFY))) {
			kick_breaks(how, before, "used flags", fl);
			return;
		}
		if (s.event)
			want_kick = vring_need_event(ev, s.avail_idx, s.kick_old);
		else
			want_kick = !(fl & VRING_USED_F_NO_NOTIFY);
	} else if (!s.broken && le16_to_cpu(s.vp.device->flags) > 2) {
		/* Device event flags past DESC (0x2) are reserved (2.8.10). */
		kick_breaks(how, before, "device event flags",
			    le16_to_cpu(s.vp.device->flags));
		return;
	}

	if (how & 1) {
		got = virtqueue_kick_prepare(s.vq);
		if (!s.broken) {
			if (predict)
				FUZZ_CHECK(got == want_kick, "kick_prepare %d, expected %d", got, want_kick);
			s.kick_old = s.avail_idx;
		} else {
			FUZZ_CHECK(!got, "kick_prepare on a broken queue");
		}
		if (how & 2) {
			got = virtqueue_notify(s.vq);
			FUZZ_CHECK(got == (!s.broken && s.notify_ok), "notify %d", got);
			if (!s.broken && !s.notify_ok)
				s.broken = true;	/* the transport failed */
		}
	} else {
		got = virtqueue_kick(s.vq);
		if (s.broken) {
			FUZZ_CHECK(!got && s.notifies == before, "kick on a broken queue");
		} else {
			if (predict)
				FUZZ_CHECK((s.notifies - before) == want_kick,
					   "kick notified %lu times, expected %d",
					   s.notifies - before, want_kick);
			s.kick_old = s.avail_idx;
			if (s.notifies != before && !s.notify_ok)
				s.broken = true;
			FUZZ_CHECK(got == !s.broken, "kick returned %d", got);
		}
	}
	FUZZ_CHECK(s.broken == virtqueue_is_broken(s.vq), "broken %d, expected %d",
		   virtqueue_is_broken(s.vq), s.broken);
}

static void op_get_buf(struct fin *in)
{
	bool with_ctx = fin_u8(in) & 1;
	unsigned int len = 0xdeadbeef;
	size_t said = fuzz_said;
	void *ctx = (void *)1, *p;
	struct tok *t;

	p = with_ctx ? virtqueue_get_buf_ctx(s.vq, &len, &ctx)
		     : virtqueue_get_buf(s.vq, &len);
	if (s.broken)
		FUZZ_CHECK(!p, "get_buf returned a buffer from a broken queue");
	note_broken(said, "get_buf");
	if (s.valid && !s.broken) {
		if (!s.nusedq) {
			FUZZ_CHECK(!p, "get_buf returned %p, nothing was used", p);
			return;
		}
		FUZZ_CHECK(p == s.usedq[0].t, "get_buf returned %p, device used %p",
			   p, (void *)s.usedq[0].t);
		FUZZ_CHECK(len == s.usedq[0].len, "get_buf len %u, device said %u",
			   len, s.usedq[0].len);
		memmove(&s.usedq[0], &s.usedq[1], --s.nusedq * sizeof(s.usedq[0]));
		s.drv_used++;
		s.predicted++;
	}
	if (!p)
		return;
	FUZZ_CHECK(!virtqueue_is_broken(s.vq), "a buffer and a broken queue");
	t = came_back(p, "get_buf");
	s.got++;
	FUZZ_CHECK(len <= t->in_len, "used len %u > %u writable", len, t->in_len);
	if (with_ctx && s.ctxq)
		FUZZ_CHECK(ctx == t->ctx, "ctx %p, added with %p", ctx, t->ctx);
	free(t);
}

static void op_cb(struct fin *in)
{
	uint8_t how = fin_u8(in) % 5;
	bool more = s.packed ? s.nusedq > 0 :
		    virtio16_to_cpu(&s.vdev, s.vr->used->idx) != (uint16_t)s.drv_used;
	unsigned long before = s.callbacks;
	unsigned int cookie;
	bool got;

	switch (how) {
	case 0:
		virtqueue_disable_cb(s.vq);
		if (!s.event && !s.broken && !s.packed)
			FUZZ_CHECK(virtio16_to_cpu(&s.vdev, s.vr->avail->flags) &
				   VRING_AVAIL_F_NO_INTERRUPT || !s.valid,
				   "disable_cb left interrupts on");
		break;
	case 1:
		got = virtqueue_enable_cb(s.vq);
		if (s.valid && !s.broken)
			FUZZ_CHECK(got == !more, "enable_cb %d with %s used", got,
				   more ? "some" : "none");
		if (s.broken)
			FUZZ_CHECK(got, "enable_cb on a broken queue asks to poll");
		if (s.valid && s.event && !s.broken && !s.packed)
			FUZZ_CHECK(virtio16_to_cpu(&s.vdev, vring_used_event(s.vr)) ==
				   s.drv_used, "used_event not at the next entry");
		break;
	case 2:
		cookie = virtqueue_enable_cb_prepare(s.vq);
		got = virtqueue_poll(s.vq, cookie);
		if (s.valid && !s.broken)
			FUZZ_CHECK(got == more, "poll %d", got);
		if (s.broken)
			FUZZ_CHECK(!got, "poll on a broken queue");
		break;
	case 3:
		got = virtqueue_enable_cb_delayed(s.vq);
		if (s.broken)
			FUZZ_CHECK(got, "enable_cb_delayed on a broken queue");
		break;
	case 4:
		got = vring_interrupt(0, s.vq) == IRQ_HANDLED;
		FUZZ_CHECK(got == more || !s.valid, "interrupt %d", got);
		if (s.broken || !s.callback || !got)
			FUZZ_CHECK(s.callbacks == before, "callback ran");
		else
			FUZZ_CHECK(s.callbacks == before + 1, "no callback");
		break;
	}
}

/* Stop the device and take one buffer back. */
static void op_detach(void)
{
	void *p = virtqueue_detach_unused_buf(s.vq);

	s.valid = false;
	if (!p) {
		FUZZ_CHECK(s.nlive == 0, "detach found nothing, %u in flight", s.nlive);
		FUZZ_CHECK(s.vq->num_free == s.num, "%u of %u free, nothing in flight",
			   s.vq->num_free, s.num);
		return;
	}
	free(came_back(p, "detach"));
}

static void recycle(struct virtqueue *vq __attribute__((unused)), void *p)
{
	free(came_back(p, "recycle"));
}

/* After a reset the device starts over, like the driver. */
static void device_restart(void)
{
	ring_view();
	s.avail_idx = s.kick_old = s.dlast_avail = s.dused = s.drv_used = 0;
	s.npend = s.nusedq = s.naddq = 0;
	s.d_avail = s.d_used = 0;
	s.d_avail_wrap = s.d_used_wrap = true;
}

static void op_reset(struct fin *in)
{
	uint8_t how = fin_u8(in);
	bool resize = how & 1;
	unsigned int num = resize ? 1u << ((how >> 1) % 8) : s.num;
	int err, want;

	bool could_fail = fail_pending();

	s.reset_err = (how & 0x40) ? -EIO : 0;
	s.enable_err = (how & 0x80) ? -ETIMEDOUT : 0;
	if (resize)
		err = virtqueue_resize(s.vq, num, recycle, NULL);
	else
		err = virtqueue_reset(s.vq, recycle, NULL);

	if (resize && num > s.num_max)
		want = -E2BIG;
	else if (resize && num == s.num)
		want = 0;
	else if (!s.created)
		want = -EPERM;
	else if (s.reset_err)
		want = s.reset_err;
	else if (s.enable_err)
		want = -EBUSY;
	else
		want = 0;
	if (err == -ENOMEM && resize && could_fail && !s.reset_err && !s.enable_err)
		want = -ENOMEM;
	FUZZ_CHECK(err == want, "%s(%u): %d, expected %d", resize ? "resize" : "reset",
		   num, err, want);
	if (err == -E2BIG || err == -EPERM || err == -EIO || (resize && num == s.num && !err))
		return;
	/* The device was stopped: every buffer came back through recycle. */
	FUZZ_CHECK(s.nlive == 0, "%u buffers not recycled", s.nlive);
	FUZZ_CHECK(s.broken == virtqueue_is_broken(s.vq), "reset changed broken");
	device_restart();
	s.valid = true;		/* a fresh start for the device too */
	FUZZ_CHECK(s.vq->num_free == s.num, "%u of %u free after reset", s.vq->num_free, s.num);
	if (resize && !err)
		FUZZ_CHECK(s.num == num || (s.may_reduce && could_fail && s.num < num),
			   "resized to %u, asked %u", s.num, num);
}

/* ---- the device ---- */

/* Take what the driver made available since last time. */
static void device_take(void)
{
	uint16_t idx = virtio16_to_cpu(&s.vdev, READ_ONCE(s.vr->avail->idx));

	FUZZ_CHECK(idx == s.avail_idx, "avail idx %u, driver added up to %u", idx, s.avail_idx);
	while (s.dlast_avail != idx) {
		uint16_t head = virtio16_to_cpu(&s.vdev,
				s.vr->avail->ring[s.dlast_avail % s.num]);

		FUZZ_CHECK(head < s.num, "driver offered head %u of %u", head, s.num);
		FUZZ_CHECK(s.npend < MAX_RING_SIZE, "more in flight than the ring holds");
		s.pend[s.npend].head = head;
		s.pend[s.npend].t = s.by_pos[s.dlast_avail % s.num];
		s.npend++;
		s.dlast_avail++;
	}
}

/* The chain at @head must be exactly the buffer @t. */
static void device_check_chain(uint16_t head, const struct tok *t)
{
	const struct vring_desc *d = s.vr->desc, *tbl = NULL;
	unsigned int i = head, n = 0, size = s.num, k = 0;
	uint16_t f;

	f = virtio16_to_cpu(&s.vdev, d[i].flags);
	if (f & VRING_DESC_F_INDIRECT) {
		uint32_t len = virtio32_to_cpu(&s.vdev, d[i].len);

		FUZZ_CHECK(!(f & VRING_DESC_F_NEXT), "indirect head chains on");
		FUZZ_CHECK(s.indirect, "indirect without the feature");
		FUZZ_CHECK(len == t->nsg * sizeof(*d), "table of %u bytes for %u sgs",
			   len, t->nsg);
		tbl = phys_to_virt(virtio64_to_cpu(&s.vdev, d[i].addr));
		d = tbl;
		size = t->nsg;
		i = 0;
	}
	for (;;) {
		uint64_t a;
		uint32_t l;

		FUZZ_CHECK(i < size && n < t->nsg, "chain runs past the buffer");
		a = virtio64_to_cpu(&s.vdev, d[i].addr);
		l = virtio32_to_cpu(&s.vdev, d[i].len);
		f = virtio16_to_cpu(&s.vdev, d[i].flags);
		FUZZ_CHECK(!(f & VRING_DESC_F_INDIRECT), "indirect inside a chain");
		FUZZ_CHECK(a == (uintptr_t)t->sg[k].p && l == t->sg[k].len,
			   "descriptor %u: %u@%#llx, sg %u is %u@%p", i, l,
			   (unsigned long long)a, k, t->sg[k].len, (const void *)t->sg[k].p);
		FUZZ_CHECK(!!(f & VRING_DESC_F_WRITE) == (k >= t->nout),
			   "descriptor %u: wrong direction", i);
		k++;
		n++;
		if (!(f & VRING_DESC_F_NEXT))
			break;
		i = virtio16_to_cpu(&s.vdev, d[i].next);
	}
	FUZZ_CHECK(k == t->nsg, "chain of %u, buffer of %u", k, t->nsg);
}

static void publish_used(uint16_t new_idx)
{
	mockdev_set_used_idx(&s.dev, new_idx);
}

/* Packed: the device takes every list the driver made available. */
static void device_take_packed(void)
{
	const struct vring_packed_desc *d = s.vp.desc;

	for (;;) {
		uint16_t f = le16_to_cpu(READ_ONCE(d[s.d_avail].flags));
		bool avail = f & (1 << VRING_PACKED_DESC_F_AVAIL);
		bool used = f & (1 << VRING_PACKED_DESC_F_USED);
		unsigned int n = 0, k = 0, at = s.d_avail;
		bool wrap = s.d_avail_wrap;
		struct tok *t;
		uint16_t id;

		if (avail != s.d_avail_wrap || used == s.d_avail_wrap)
			return;
		FUZZ_CHECK(s.naddq && s.npend < MAX_RING_SIZE, "a list nobody added");
		t = s.addq[0];
		memmove(&s.addq[0], &s.addq[1], --s.naddq * sizeof(s.addq[0]));
		virt_rmb();
		/* Walk the list, checking it is exactly the buffer. */
		for (;;) {
			const struct vring_packed_desc *e = &d[at];

			f = le16_to_cpu(e->flags);
			FUZZ_CHECK(!!(f & (1 << VRING_PACKED_DESC_F_AVAIL)) == wrap &&
				   !!(f & (1 << VRING_PACKED_DESC_F_USED)) != wrap,
				   "descriptor %u of a list not available", at);
			n++;
			id = le16_to_cpu(e->id);
			if (f & VRING_DESC_F_INDIRECT) {
				const struct vring_packed_desc *tbl =
					phys_to_virt(le64_to_cpu(e->addr));
				unsigned int j, m = le32_to_cpu(e->len) / sizeof(*tbl);

				FUZZ_CHECK(s.indirect && n == 1 && !(f & VRING_DESC_F_NEXT) &&
					   m == t->nsg, "bad indirect list");
				for (j = 0; j < m; j++, k++)
					FUZZ_CHECK(le64_to_cpu(tbl[j].addr) == (uintptr_t)t->sg[k].p &&
						   le32_to_cpu(tbl[j].len) == t->sg[k].len &&
						   !!(le16_to_cpu(tbl[j].flags) & VRING_DESC_F_WRITE) ==
						   (k >= t->nout), "table entry %u is not sg %u", j, k);
			} else {
				FUZZ_CHECK(k < t->nsg, "list longer than the buffer");
				FUZZ_CHECK(le64_to_cpu(e->addr) == (uintptr_t)t->sg[k].p &&
					   le32_to_cpu(e->len) == t->sg[k].len &&
					   !!(f & VRING_DESC_F_WRITE) == (k >= t->nout),
					   "descriptor %u is not sg %u", at, k);
				k++;
			}
			if (++at == s.num) {
				at = 0;
				wrap = !wrap;
			}
			if (!(f & VRING_DESC_F_NEXT))
				break;
			FUZZ_CHECK(n < s.num, "list longer than the ring");
		}
		FUZZ_CHECK(k == t->nsg, "list of %u, buffer of %u", k, t->nsg);
		s.d_avail = at;
		s.d_avail_wrap = wrap;
		s.pend[s.npend].head = id;
		s.pend[s.npend].t = t;
		s.pend[s.npend].n = n;
		s.npend++;
	}
}

/* Packed: write a used descriptor at the device's position, skip @n. */
static void packed_write_used(uint16_t id, uint32_t len, uint16_t flags, unsigned int n)
{
	mockdev_write_used_packed(&s.dev, s.d_used, id, len, flags);
	s.d_used += n % (s.num + 1);
	if (s.d_used >= s.num) {
		s.d_used -= s.num;
		s.d_used_wrap = !s.d_used_wrap;
	}
}

static uint16_t used_flags(uint32_t len)
{
	return mockdev_used_flags(s.d_used_wrap, len);
}

/*
 * Which buffers the well-behaved device uses now: one it took, any (from
 * @pick); in order, the oldest, or a batch of the oldest few, of which
 * the used entry names only the last (2.7.9, 2.8.8).  Returns how many
 * (the first of them is pend[*first]).
 */
static unsigned int dev_pick(uint8_t pick, unsigned int *first)
{
	if (!s.in_order) {
		*first = pick % s.npend;
		return 1;
	}
	*first = 0;
	return pick & 0x80 ? 1 + (pick & 0x7f) % s.npend : 1;
}

/* The driver will return @k buffers from pend[@first], the last with @len. */
static void dev_used(unsigned int first, unsigned int k, uint32_t len)
{
	unsigned int i;

	FUZZ_CHECK(s.nusedq + k <= MAX_RING_SIZE, "used queue overflow");
	for (i = 0; i < k; i++) {
		struct tok *t = s.pend[first + i].t;

		s.usedq[s.nusedq].t = t;
		s.usedq[s.nusedq].len = i + 1 < k ? t->in_len : len;
		s.nusedq++;
	}
	/* Keep the order of the rest: in order, it is the ring's. */
	memmove(&s.pend[first], &s.pend[first + k],
		(s.npend - first - k) * sizeof(s.pend[0]));
	s.npend -= k;
}

static void op_dev_use_packed(uint8_t pick, uint32_t len)
{
	unsigned int first, k, i, n = 0;
	struct tok *t;
	uint16_t id;

	device_take_packed();
	if (!s.npend)
		return;
	k = dev_pick(pick, &first);
	for (i = 0; i < k; i++)
		n += s.pend[first + i].n;
	id = s.pend[first + k - 1].head;
	t = s.pend[first + k - 1].t;
	len = t->in_len ? len % (t->in_len + 1) : 0;
	packed_write_used(id, len, used_flags(len), n);
	dev_used(first, k, len);
}

static void op_dev_lie_packed(struct fin *in, uint8_t what)
{
	s.valid = false;
	switch (what) {
	case 0: {	/* a used descriptor of its own making */
		uint8_t sel = fin_u8(in);
		uint16_t id = fin_u16(in);
		uint32_t len = fin_u32(in);
		unsigned int n = 1 + fin_u8(in) % 4;

		if (sel < 0xc0 && s.npend) {
			id = s.pend[sel % s.npend].head;	/* in flight */
			n = s.pend[sel % s.npend].n;
			len %= 512;
		} else if (sel < 0xe0) {
			id %= s.num + 2;
		}
		packed_write_used(id, len, sel & 1 ? fin_u16(in) : used_flags(len), n);
		break;
	}
	case 1:		/* the device moves on without writing */
		packed_write_used(le16_to_cpu(s.vp.desc[s.d_used].id),
				  le32_to_cpu(s.vp.desc[s.d_used].len),
				  le16_to_cpu(s.vp.desc[s.d_used].flags), fin_u8(in));
		break;
	case 2: {	/* rewrite any descriptor */
		uint16_t off = fin_u8(in) % s.num, id = fin_u16(in) % (s.num + 1);
		uint32_t len = fin_u32(in);

		mockdev_write_used_packed(&s.dev, off, id, len, fin_u16(in));
		break;
	}
	case 3: {	/* scribble on the ring or the event structures */
		size_t size = s.num * sizeof(struct vring_packed_desc);
		size_t off = fin_u16(in) % (size + 8);
		char *p = off < size ? (char *)s.vp.desc + off
				     : off < size + 4 ? (char *)s.vp.driver + (off - size)
				     : (char *)s.vp.device + (off - size - 4);
		char *end = off < size ? (char *)s.vp.desc + size
				       : off < size + 4 ? (char *)s.vp.driver + 4
				       : (char *)s.vp.device + 4;

		for (uint8_t i = fin_u8(in) % 16; i && p < end; i--)
			*p++ = fin_u8(in);
		break;
	}
	}
}

/* The well-behaved device uses one buffer it took (any, in any order). */
static void op_dev_use(struct fin *in)
{
	uint8_t pick = fin_u8(in);
	uint32_t len = fin_u32(in);
	unsigned int first, k, i;
	struct tok *t;
	uint16_t head;

	if (!s.valid)
		return;
	if (s.packed) {
		op_dev_use_packed(pick, len);
		return;
	}
	device_take();
	if (!s.npend)
		return;
	k = dev_pick(pick, &first);
	for (i = 0; i < k; i++)
		device_check_chain(s.pend[first + i].head, s.pend[first + i].t);
	head = s.pend[first + k - 1].head;
	t = s.pend[first + k - 1].t;
	len = t->in_len ? len % (t->in_len + 1) : 0;

	/* One entry, at the slot of the batch's first buffer. */
	mockdev_write_used(&s.dev, s.dused, head, len);
	s.dused += k;
	publish_used(s.dused);
	dev_used(first, k, len);
}

/* Legal device writes: its event index and flags. */
static void op_dev_event(struct fin *in)
{
	uint8_t what = fin_u8(in);
	uint16_t v = fin_u16(in);

	if (s.packed) {		/* the device's event suppression */
		if (what & 1)
			s.vp.device->off_wrap = cpu_to_le16(v);
		else
			s.vp.device->flags = cpu_to_le16(what & 2 ? v : v % 3);
		if (what & 2 && !(what & 1))
			s.valid = false;
		return;
	}
	if (what & 1)
		vring_avail_event(s.vr) = cpu_to_virtio16(&s.vdev, v);
	else
		s.vr->used->flags = cpu_to_virtio16(&s.vdev,
				(what & 2) ? v : (v & VRING_USED_F_NO_NOTIFY));
	if (what & 2 && !(what & 1))
		s.valid = false;	/* reserved flag bits */
}

/* The lying device. */
static void op_dev_lie(struct fin *in)
{
	uint8_t what = fin_u8(in) % 4;

	if (s.packed) {
		op_dev_lie_packed(in, what);
		return;
	}
	s.valid = false;
	switch (what) {
	case 0: {	/* a used element of its own making */
		uint8_t sel = fin_u8(in);
		uint32_t id = fin_u32(in), len = fin_u32(in);

		if (sel < 0xc0 && s.npend) {
			id = s.pend[sel % s.npend].head;	/* in flight */
			len %= 512;
		} else if (sel < 0xe0) {
			id %= s.num + 2;
		}
		mockdev_write_used(&s.dev, s.dused, id, len);
		s.dused++;
		publish_used(s.dused);
		break;
	}
	case 1:		/* jump the used index */
		s.dused += (int16_t)fin_u16(in);
		publish_used(s.dused);
		break;
	case 2: {	/* rewrite an element, index unchanged */
		uint16_t slot = fin_u8(in) % s.num, id = fin_u16(in) % (s.num + 1);

		mockdev_write_used(&s.dev, slot, id, fin_u32(in));
		break;
	}
	case 3: {	/* scribble anywhere in the ring */
		size_t size = (char *)&s.vr->used->ring[s.num] + 2 - (char *)s.vr->desc;
		size_t off = fin_u16(in) % size;
		uint8_t n = fin_u8(in) % 16, i;

		for (i = 0; i < n && off + i < size; i++)
			((char *)s.vr->desc)[off + i] = fin_u8(in);
		break;
	}
	}
}

/* ---- set-up, one input, teardown ---- */

static void setup(struct fin *in)
{
	uint8_t cfg = fin_u8(in), sel = fin_u8(in), cfg2 = fin_u8(in);
	unsigned int num = 1u << (sel % 7), align;
	bool packed = sel & 0x80;

	memset(&s, 0, sizeof(s));
	rig_vdev_init(&s.vdev, 0);
	if (cfg & 1)
		__virtio_set_bit(&s.vdev, VIRTIO_RING_F_INDIRECT_DESC);
	if (cfg & 2)
		__virtio_set_bit(&s.vdev, VIRTIO_RING_F_EVENT_IDX);
	if (cfg & 4)
		__virtio_set_bit(&s.vdev, VIRTIO_F_VERSION_1);
	if (cfg & 0x80)
		__virtio_set_bit(&s.vdev, VIRTIO_F_ORDER_PLATFORM);
	if (packed) {
		__virtio_set_bit(&s.vdev, VIRTIO_F_RING_PACKED);
		__virtio_set_bit(&s.vdev, VIRTIO_F_VERSION_1);
		s.packed = true;
		if (!(cfg & 0x20))
			num = 1 + (sel & 0x3f);		/* any size will do */
	}
	if (cfg2 & 1) {
		__virtio_set_bit(&s.vdev, VIRTIO_F_IN_ORDER);
		s.in_order = true;
	}
	s.d_avail_wrap = s.d_used_wrap = true;
	s.ctxq = cfg & 8;
	s.callback = cfg & 0x10;
	s.created = cfg & 0x20;
	s.may_reduce = cfg & 0x40;
	s.indirect = (cfg & 1) && !s.ctxq;
	s.event = cfg & 2;
	s.notify_ok = true;
	s.valid = true;
	s.cfgops.disable_vq_and_reset = disable_reset;
	s.cfgops.enable_vq_after_reset = enable_after_reset;
	s.vdev.config = &s.cfgops;

	if (s.created) {
		align = 1u << (2 + (sel >> 4) % 11);	/* 4 .. 4096 */
		s.vq = vring_create_virtqueue(0, num, align, &s.vdev, true,
					      cfg & 0x40, s.ctxq, notify_cb,
					      s.callback ? callback_cb : NULL,
					      "fuzz vq");
	} else {
		size_t size = packed ? vring_packed_size(num)
				     : vring_size(num, VRING_USED_ALIGN_SIZE);
		char *ring = rpage + pg - ((size + 15) & ~(size_t)15);

		memset(rpage, 0, pg);
		fuzz_poison(rpage, ring - rpage);
		fuzz_poison(ring + size, rpage + pg - (ring + size));
		if (packed) {
			struct vring_packed vp;

			vring_packed_init(&vp, num, ring);
			s.vq = vring_new_virtqueue_packed(0, num, &s.vdev, true, s.ctxq,
							  vp.desc, vp.driver, vp.device,
							  notify_cb,
							  s.callback ? callback_cb : NULL,
							  "fuzz vq");
		} else {
			s.vq = vring_new_virtqueue(0, num, VRING_USED_ALIGN_SIZE, &s.vdev,
						   true, s.ctxq, ring, notify_cb,
						   s.callback ? callback_cb : NULL, "fuzz vq");
		}
	}
	FUZZ_CHECK(s.vq, "no queue");
	s.num_max = num;
	ring_view();
	FUZZ_CHECK(s.num == num, "ring of %u, asked for %u", s.num, num);
	FUZZ_CHECK(s.vq->num_free == num, "%u free in a new ring of %u", s.vq->num_free, num);
}

static void teardown(void)
{
	void *p;

	kmalloc_fail_nth(0);
	while ((p = virtqueue_detach_unused_buf(s.vq)) != NULL)
		free(came_back(p, "detach"));
	FUZZ_CHECK(s.nlive == 0, "%u buffers never came back", s.nlive);
	FUZZ_CHECK(s.vq->num_free == s.num, "%u of %u free at the end", s.vq->num_free, s.num);
	vring_del_virtqueue(s.vq);
	if (!s.created)
		fuzz_unpoison(rpage, pg);
}

int LLVMFuzzerInitialize(int *argc __attribute__((unused)), char ***argv __attribute__((unused)))
{
	pg = (size_t)sysconf(_SC_PAGESIZE);
	rpage = fuzz_guarded_pages(1);
	fuzz_quiet_stderr();
	return 0;
}

/* Op 10: one of the rarer events, picked by a byte of its own. */
static void op_other(struct fin *in)
{
	uint8_t what = fin_u8(in);

	if (what < 0x10)
		op_detach();
	else if (what < 0x30)
		op_reset(in);
	else if (what < 0x40)
		s.notify_ok = !s.notify_ok;
	else if (what < 0x50) {
		s.fail_at = 1 + what % 4;
		kmalloc_fail_nth(s.fail_at);
	}
}

/* Op 11: the broken queue stays broken. */
static void op_broken(struct fin *in __attribute__((unused)))
{
	struct scatterlist sg;
	unsigned int len;

	if (!s.broken)
		return;
	sg_init_one(&sg, data, 1);
	FUZZ_CHECK(virtqueue_add_inbuf(s.vq, &sg, 1, data, GFP_KERNEL) == -EIO,
		   "add to a broken queue");
	FUZZ_CHECK(!virtqueue_get_buf(s.vq, &len), "get_buf from a broken queue");
	FUZZ_CHECK(!virtqueue_kick(s.vq), "kick of a broken queue");
}

/*
 * The operations, numbered by their place here: an input's op byte picks
 * one (fuzz/mkseeds.py numbers them the same, and the corpus depends on
 * it).  Adding, using and getting back come up twice as often.
 */
static fuzz_op_fn *const ops[] = {
	op_add, op_add, op_kick, op_get_buf, op_get_buf, op_cb,
	op_dev_use, op_dev_use, op_dev_event, op_dev_lie, op_other, op_broken,
};

/* After each op: a queue that said it broke is broken, and stays so. */
static void check_broken(size_t said_before)
{
	note_broken(said_before, "an operation");
	check_broken_stays();
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t size)
{
	struct fin in = { d, size };
	long base = kmalloc_outstanding();

	setup(&in);
	fuzz_run_ops(&in, ops, ARRAY_SIZE(ops), check_broken);
	if (fuzz_verbose)
		dprintf(2, "fuzz_virtqueue: %u added, %u got back (%u predicted), device %s, queue %s\n",
			s.added, s.got, s.predicted, s.valid ? "behaved" : "lied",
			s.broken ? "broken" : "working");
	teardown();
	FUZZ_CHECK(kmalloc_outstanding() == base, "%ld allocations leaked",
		   kmalloc_outstanding() - base);
	return 0;
}
