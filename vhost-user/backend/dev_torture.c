// SPDX-License-Identifier: GPL-2.0
/*
 * vhost_dev --torture=CASE: see vhost-user/backend/dev_torture.h.  Rules from the
 * virtio 1.2 specification: used ring 2.7.8, used flags 2.7.10, packed
 * used descriptors and wrap counters 2.8.1-2.8.6, notifications 2.7.7,
 * virtio-blk config 5.2.4, virtio-net config 5.1.4.
 *
 * Every write below is a rule broken on purpose; the correct completions
 * are vringh's (vringh_complete_user), never done here.  The position
 * vringh would write next is vrh.last_used_idx + vrh.completed (split) or
 * vrh.last_used_idx with its wrap counter (packed), and a broken entry
 * that takes the place of a correct one moves that position as vringh
 * would, so that the device goes on serving correctly afterwards.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <sched.h>
#include <sys/socket.h>
#include <time.h>
#include <string.h>
#include <unistd.h>
#include <linux/virtio_config.h>
#include <linux/virtio_ring.h>
#include "vhost-user/backend/dev_models.h"
#include "vhost-user/backend/dev_torture.h"

static const struct dev_torture_case cases[] = {
	{ "used-id-range", DT_ANY, "a used entry names a buffer id past the ring (id = ring size)" },
	{ "used-id-free", DT_ANY, "a used entry names a buffer id in range but not in flight" },
	{ "used-id-twice", DT_ANY, "a buffer is used twice (split: a second entry after its correct one; packed: in the next buffer's place)" },
	{ "used-len", DT_ANY, "a used length one byte past the buffer's writable bytes" },
	{ "used-idx-ahead", DT_SPLIT, "the used index jumps a whole ring ahead (past every buffer in flight)" },
	{ "used-idx-back", DT_SPLIT, "the used index goes back by 2 after a correct entry" },
	{ "used-flags", DT_ANY, "undefined bits in the used flags (packed: the reserved device event flags value 3)" },
	{ "no-signal", DT_ANY, "buffers go on being used, but the driver is never signalled again" },
	{ "signal-storm", DT_ANY, "100000 used-buffer notifications (0.5 s at most) with nothing used, then the buffer" },
	{ "packed-wrong-lap", DT_PACKED, "a used descriptor written with the other lap's wrap counter" },
	{ "packed-mid-id", DT_PACKED, "the used buffer id is the id field of the list's first descriptor, not its last (needs --no-indirect)" },
	{ "blk-capacity", DT_CONFIG, "virtio-blk config: capacity 2^64 - 1 sectors" },
	{ "blk-seg-max", DT_CONFIG, "virtio-blk config: seg_max 0 (SEG_MAX offered)" },
	{ "blk-size", DT_CONFIG, "virtio-blk config: blk_size 1000, not a power of 2 (BLK_SIZE offered)" },
	{ "net-mtu", DT_CONFIG, "virtio-net config: mtu 67, below the spec's least 68 (MTU offered)" },
	{ "net-queue-pairs", DT_CONFIG, "virtio-net config: max_virtqueue_pairs 0, below 1 (MQ offered: not with --queues=1)" },
};

const struct dev_torture_case *dev_torture_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (!strcmp(cases[i].name, name))
			return &cases[i];
	return NULL;
}

void dev_torture_list(FILE *f)
{
	static const char *const rings[] = {
		[DT_ANY] = "", [DT_SPLIT] = "split: ", [DT_PACKED] = "packed: ",
		[DT_CONFIG] = "",
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		fprintf(f, "%-18s %s%s\n", cases[i].name, rings[cases[i].ring],
			cases[i].what);
}

static bool is(const struct dev_torture *t, const char *name)
{
	return !strcmp(t->c->name, name);
}

static bool packed(const struct vub_queue *q)
{
	return vub_has(q->vub, VIRTIO_F_RING_PACKED);
}

static void put16(const struct vub_queue *q, void *p, u16 v)
{
	v = vringh_is_little_endian(&q->vrh) ? htole16(v) : htobe16(v);
	__atomic_store_n((u16 *)p, v, __ATOMIC_RELEASE);
}

static void put32(const struct vub_queue *q, void *p, u32 v)
{
	v = vringh_is_little_endian(&q->vrh) ? htole32(v) : htobe32(v);
	__atomic_store_n((u32 *)p, v, __ATOMIC_RELAXED);
}

static u16 get16(const struct vub_queue *q, const void *p)
{
	u16 v = __atomic_load_n((const u16 *)p, __ATOMIC_ACQUIRE);

	return vringh_is_little_endian(&q->vrh) ? le16toh(v) : be16toh(v);
}

/* The writable bytes of the buffer being served (what vringh mapped). */
static size_t writable(const struct vub_queue *q)
{
	size_t n = q->wiov.consumed;
	unsigned int i;

	for (i = 0; i < q->wiov.used; i++)
		n += q->wiov.iov[i].iov_len;
	return n;
}

/* ---- split ---- */

/*
 * Write used entry {@id, @len} @times over where vringh would write next,
 * and publish them with one index update.
 */
static void split_put_used(struct vub_queue *q, u32 id, u32 len, unsigned int times)
{
	struct vring *vr = &q->vrh.vring;
	u16 pos = q->vrh.last_used_idx + q->vrh.completed;
	unsigned int i;

	for (i = 0; i < times; i++) {
		put32(q, &vr->used->ring[(u16)(pos + i) & (vr->num - 1)].id, id);
		put32(q, &vr->used->ring[(u16)(pos + i) & (vr->num - 1)].len, len);
	}
	put16(q, &vr->used->idx, pos + times);
	q->vrh.completed += times;
}

/*
 * A buffer id not in flight: one that none of the last ring-size avail
 * entries names (the driver made each buffer in flight available within
 * them, as this device uses buffers one at a time).  @head is in flight.
 */
static bool split_free_id(const struct vub_queue *q, u16 head, u32 *id)
{
	const struct vring *vr = &q->vrh.vring;
	u16 idx = get16(q, &vr->avail->idx), k;
	u32 cand;

	for (cand = 0; cand < vr->num; cand++) {
		if (cand == head)
			continue;
		for (k = 1; k <= vr->num; k++)
			if (get16(q, &vr->avail->ring[(u16)(idx - k) & (vr->num - 1)]) == cand)
				break;
		if (k > vr->num) {
			*id = cand;
			return true;
		}
	}
	return false;
}

/* ---- packed (only where the linked vringh has packed rings) ---- */

#ifdef vringh_init_packed_user
static u16 packed_used_flags(bool wrap, u32 len)
{
	return (wrap ? 1u << VRING_PACKED_DESC_F_AVAIL | 1u << VRING_PACKED_DESC_F_USED : 0) |
	       (len ? VRING_DESC_F_WRITE : 0);
}

/* Write a used descriptor {@id, @len, @wrap's flags} at vringh's next slot. */
static void packed_write(struct vub_queue *q, u16 slot, u16 id, u32 len, bool wrap)
{
	struct vring_packed_desc *d = &q->vrh.vring_packed.desc[slot];

	put32(q, &d->len, len);
	put16(q, &d->id, id);
	put16(q, &d->flags, packed_used_flags(wrap, len));
}

/* In place of buffer @head's correct used descriptor: skip its list. */
static void packed_put_used(struct vub_queue *q, u16 head, u16 id, u32 len, bool wrap)
{
	u32 count = q->vrh.packed_descs[head];

	packed_write(q, q->vrh.last_used_idx, id, len, wrap);
	q->vrh.packed_descs[head] = 0;
	q->vrh.last_used_idx += count;
	if (q->vrh.last_used_idx >= q->vrh.vring.num) {
		q->vrh.last_used_idx -= q->vrh.vring.num;
		q->vrh.used_wrap_counter = !q->vrh.used_wrap_counter;
	}
	q->vrh.completed += count;
}

/*
 * A buffer id neither taken by this device nor named by any descriptor of
 * the ring, available or used (a driver may be reusing a just-used one).
 */
static bool packed_free_id(const struct vub_queue *q, u16 head, u32 *id)
{
	const struct vring_packed *vr = &q->vrh.vring_packed;
	unsigned int num = q->vrh.vring.num, i;
	u32 cand;

	for (cand = 0; cand < num; cand++) {
		if (cand == head || q->vrh.packed_descs[cand])
			continue;
		for (i = 0; i < num; i++) {
			/*
			 * Any id a descriptor names, available or used:
			 * the driver may be reusing a just-used one now.
			 */
			if (get16(q, &vr->desc[i].id) == cand)
				break;
		}
		if (i == num) {
			*id = cand;
			return true;
		}
	}
	return false;
}
#endif

/* ---- notifications ---- */

static void no_call(struct vringh *vrh)
{
	(void)vrh;
}

/* A call whatever the driver's event index asks for. */
static void force_call(struct vub_queue *q)
{
	uint64_t one = 1;

	if (q->call_fd >= 0 && write(q->call_fd, &one, sizeof(one)) == sizeof(one))
		q->calls++;
}

static void storm(struct vub_queue *q)
{
	struct timespec t0, now;
	unsigned int i;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < 100000 && q->call_fd >= 0; i++) {
		/* At most 0.5 s: the driver's timeout must not count it. */
		if (i % 256 == 0) {
			clock_gettime(CLOCK_MONOTONIC, &now);
			if ((now.tv_sec - t0.tv_sec) * 1000000000L +
			    now.tv_nsec - t0.tv_nsec > 500000000L)
				break;
		}
		force_call(q);
		if (i % 16 == 0)
			sched_yield();
	}
}

/* ---- waiting for the driver: on its progress, not the wall clock ---- */

/* The driver's process CPU time in ns (the socket's peer), or -1 if gone. */
static long long driver_cpu_ns(const struct vub_queue *q)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);
	struct timespec ts;
	clockid_t clock;

	if (getsockopt(q->vub->conn_fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) ||
	    clock_getcpuclockid(cred.pid, &clock) || clock_gettime(clock, &ts))
		return -1;
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static long long mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/*
 * Has the driver reaped the used ring up to the index it holds now?  With
 * VIRTIO_RING_F_EVENT_IDX its used_event says how far it reaped (2.7.10);
 * without, a buffer made available since @avail_was is the sign (a driver
 * refills what it reaps).
 */
static bool driver_reaped(const struct vub_queue *q, u16 avail_was)
{
	const struct vring *vr = &q->vrh.vring;

	if (q->vrh.event_indices)
		return (s16)(get16(q, &vr->avail->ring[vr->num]) -
			     get16(q, &vr->used->idx)) >= 0;
	return get16(q, &vr->avail->idx) != avail_was;
}

/*
 * Wait at least @min_ms, and until the driver's process has run @cpu_ms
 * of CPU time since the call, or (if @reaped) until it reaped the used
 * ring.  A loaded machine can leave the driver without a CPU for longer
 * than any fixed wait; the time it ran is what shows it had its chance.
 * At most @max_ms: a driver asleep for good, or gone.
 */
static void wait_driver(const struct vub_queue *q, long min_ms, long cpu_ms,
			bool reaped, long max_ms)
{
	u16 avail_was = get16(q, &q->vrh.vring.avail->idx);
	long long t0 = mono_ms(), c0 = driver_cpu_ns(q), c, ms;

	for (;;) {
		usleep(5000);
		ms = mono_ms() - t0;
		c = c0 < 0 ? -1 : driver_cpu_ns(q);
		if (ms >= max_ms || (c0 >= 0 && c < 0))
			return;		/* the bound, or the driver is gone */
		if (ms < min_ms)
			continue;
		if (reaped && driver_reaped(q, avail_was))
			return;
		if (c0 < 0 || c - c0 >= cpu_ms * 1000000LL)
			return;		/* (its CPU time unknown: @min_ms alone) */
	}
}

/*
 * Wait for the driver to reap the used ring, for at least 0.2 s, or until
 * it has run 2 s of CPU without doing so.
 */
static void wait_reaped(const struct vub_queue *q)
{
	wait_driver(q, 200, 2000, true, 20000);
}

/*
 * Signal what is used so far and give the driver time to reap it and add
 * what it will: which ids are in flight must not change under the choice
 * of one that is not (or of one used before).  A fixed 0.5 s, not a bound
 * on the driver's progress: the longer the driver runs, the more of the
 * ring it fills, and an id in no avail entry is what the case needs.
 */
static void settle(struct vub_queue *q)
{
	vub_queue_notify(q);
	usleep(500000);
}

/* An id not in flight (chosen again once the driver settled). */
static bool free_id(const struct vub_queue *q, u16 head, u32 *id)
{
#ifdef vringh_init_packed_user
	if (packed(q))
		return packed_free_id(q, head, id);
#endif
	return split_free_id(q, head, id);
}

/* Break the rule now, in place of completing @head.  false: not yet. */
static bool fire(struct dev_torture *t, struct vub_queue *q, u16 head, u32 len,
		 int *rc)
{
	u32 id;

	*rc = 0;
	if (is(t, "used-id-twice") ||
	    (is(t, "used-id-free") && free_id(q, head, &id)))
		settle(q);
#ifdef vringh_init_packed_user
	if (packed(q)) {
		bool wrap = q->vrh.used_wrap_counter;
		u16 num = q->vrh.vring.num;

		if (is(t, "used-id-range")) {
			packed_put_used(q, head, num, len, wrap);
		} else if (is(t, "used-id-free")) {
			if (!packed_free_id(q, head, &id))
				return false;
			packed_put_used(q, head, id, len, wrap);
		} else if (is(t, "used-id-twice")) {
			/*
			 * No slot is free for a second descriptor: this one
			 * names the buffer used before it instead.
			 */
			if (!t->have_prev[q->index])
				return false;
			packed_put_used(q, head, t->prev[q->index], len, wrap);
		} else if (is(t, "used-len")) {
			packed_put_used(q, head, head, writable(q) + 1, wrap);
		} else if (is(t, "used-flags")) {
			put16(q, &q->vrh.vring_packed.device->flags, 3);
			*rc = vringh_complete_user(&q->vrh, head, len);
		} else if (is(t, "packed-wrong-lap")) {
			packed_put_used(q, head, head, len, !wrap);
		} else if (is(t, "packed-mid-id")) {
			if (q->vrh.packed_descs[head] < 2)
				return false;
			/* The list starts where it is used: one at a time. */
			packed_put_used(q, head,
					get16(q, &q->vrh.vring_packed.desc[q->vrh.last_used_idx].id),
					len, wrap);
		} else {
			return false;
		}
		return true;
	}
#endif
	if (is(t, "used-id-range")) {
		split_put_used(q, q->vrh.vring.num, len, 1);
	} else if (is(t, "used-id-free")) {
		if (!split_free_id(q, head, &id))
			return false;
		split_put_used(q, id, len, 1);
	} else if (is(t, "used-id-twice")) {
		/* Both entries, published by one index update. */
		split_put_used(q, head, len, 2);
	} else if (is(t, "used-len")) {
		split_put_used(q, head, writable(q) + 1, 1);
	} else if (is(t, "used-idx-ahead")) {
		u16 jump = q->vrh.vring.num;

		*rc = vringh_complete_user(&q->vrh, head, len);
		put16(q, &q->vrh.vring.used->idx,
		      (u16)(q->vrh.last_used_idx + q->vrh.completed + jump));
		q->vrh.completed += jump;	/* and never back */
	} else if (is(t, "used-idx-back")) {
		u16 *idx = &q->vrh.vring.used->idx;

		/*
		 * Let the driver reap up to the correct index first, then
		 * show it an index 2 lower, with a call it cannot have
		 * suppressed, for 0.5 s and until the driver has run 50 ms
		 * of CPU since (on a loaded machine it may otherwise be
		 * behind the index, or asleep, and the lower index unseen).
		 */
		*rc = vringh_complete_user(&q->vrh, head, len);
		vringh_notify(&q->vrh);
		wait_reaped(q);
		put16(q, idx, get16(q, idx) - 2);
		force_call(q);
		wait_driver(q, 500, 50, false, 20000);
		put16(q, idx, get16(q, idx) + 2);
	} else if (is(t, "used-flags")) {
		u16 *flags = &q->vrh.vring.used->flags;

		put16(q, flags, get16(q, flags) | 0xfffe);
		*rc = vringh_complete_user(&q->vrh, head, len);
	} else {
		return false;
	}
	return true;
}

/* Break the rule now if the moment has come: true if it did. */
static bool torture(struct dev_torture *t, struct vub_queue *q, u16 head,
		    u32 len, int *rc)
{
	if (t->fired || t->used++ < t->after || t->c->ring == DT_CONFIG ||
	    (t->c->ring == DT_SPLIT && packed(q)) ||
	    (t->c->ring == DT_PACKED && !packed(q)))
		return false;

	if (is(t, "no-signal")) {
		unsigned int i;

		for (i = 0; i < VUB_MAX_QUEUES; i++)
			q->vub->q[i].vrh.notify = no_call;
		*rc = vringh_complete_user(&q->vrh, head, len);
	} else if (is(t, "signal-storm")) {
		storm(q);
		*rc = vringh_complete_user(&q->vrh, head, len);
	} else if (!fire(t, q, head, len, rc)) {
		return false;
	}
	t->fired = true;
	fprintf(t->log ? t->log : stderr,
		"torture: %s: done on queue %u at used buffer %lu (buffer id %u)\n",
		t->c->name, q->index, t->used, head);
	fflush(t->log ? t->log : stderr);
	return true;
}

int dev_torture_complete(struct dev_torture *t, struct vub_queue *q,
			 u16 head, u32 len)
{
	int rc;

	if (!torture(t, q, head, len, &rc))
		rc = vringh_complete_user(&q->vrh, head, len);
	if (q->index < VUB_MAX_QUEUES) {
		t->prev[q->index] = head;
		t->have_prev[q->index] = true;
	}
	return rc;
}

void dev_torture_blk_config(const struct dev_torture *t, uint8_t *cfg)
{
	if (!t)
		return;
	if (is(t, "blk-capacity"))
		memset(cfg + 0, 0xff, 8);
	else if (is(t, "blk-seg-max"))
		memset(cfg + 12, 0, 4);
	else if (is(t, "blk-size")) {
		uint32_t v = htole32(1000);

		memcpy(cfg + 20, &v, 4);
	}
}

void dev_torture_net_config(const struct dev_torture *t, struct net_config *cfg)
{
	if (!t)
		return;
	if (is(t, "net-mtu"))
		cfg->mtu = 67;
	else if (is(t, "net-queue-pairs"))
		cfg->max_virtqueue_pairs = 0;
}
