// SPDX-License-Identifier: GPL-2.0
/*
 * Inflight I/O tracking for the vhost-user backend: see
 * vhost-user/protocol/inflight.h.  The protocol is QEMU's docs/interop/vhost-user.rst
 * ("Inflight I/O tracking").
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/vringh.h>
#include <linux/virtio_config.h>
#include "vhost-user/protocol/inflight.h"

#define INFLIGHT_VERSION	1
#define INFLIGHT_ALIGN		64

struct inflight_desc {
	uint8_t inflight;
	uint8_t pad[5];
	uint16_t next;
	uint64_t counter;
};

struct inflight_queue {
	uint64_t features;
	uint16_t version;
	uint16_t desc_num;
	uint16_t last_batch_head;
	uint16_t used_idx;
	struct inflight_desc desc[];
};

/* What we know of one queue while it runs. */
struct inflight_state {
	bool checked;			/* the region part was read at start */
	bool tracked;			/* marks go to the region */
	uint16_t used;			/* the used index we published last */
	unsigned int nresub, next;	/* heads to serve again, served */
	uint16_t *resub;
};

struct vub_inflight {
	uint8_t *map;
	size_t map_len;
	uint8_t *base;			/* the region, in map */
	unsigned int nqueues, queue_size;
	uint64_t counter;		/* next take's order */
	struct inflight_state q[VUB_MAX_QUEUES];
};

size_t vub_inflight_qsize(unsigned int queue_size)
{
	size_t n = sizeof(struct inflight_queue) +
		   (size_t)queue_size * sizeof(struct inflight_desc);

	return (n + INFLIGHT_ALIGN - 1) & ~(size_t)(INFLIGHT_ALIGN - 1);
}

static int why_fail(char *why, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int why_fail(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -1;
}

/* The queue count and ring size a message names, checked. */
static int inflight_shape(struct vub *vub, const struct vhost_user_inflight *d,
			  char *why, size_t whylen)
{
	if (d->num_queues == 0 || d->num_queues > vub->dev->num_queues)
		return why_fail(why, whylen, "%u queues, the device has %u",
				d->num_queues, vub->dev->num_queues);
	if (d->queue_size == 0 || d->queue_size > VUB_MAX_RING)
		return why_fail(why, whylen, "queue size %u out of range 1..%u",
				d->queue_size, VUB_MAX_RING);
	return 0;
}

int vub_inflight_create(struct vub *vub, struct vhost_user_inflight *d,
			char *why, size_t whylen)
{
	size_t size;
	int fd;

	if (inflight_shape(vub, d, why, whylen))
		return -1;
	size = vub_inflight_qsize(d->queue_size) * d->num_queues;
	fd = memfd_create("vhost_dev-inflight", MFD_CLOEXEC);
	if (fd < 0)
		return why_fail(why, whylen, "memfd_create: %s", strerror(errno));
	if (ftruncate(fd, size)) {
		int e = errno;

		close(fd);
		return why_fail(why, whylen, "ftruncate to %zu bytes: %s", size, strerror(e));
	}
	d->mmap_size = size;
	d->mmap_offset = 0;
	return fd;
}

void vub_inflight_drop(struct vub *vub)
{
	struct vub_inflight *in = vub->inflight;
	unsigned int i;

	if (!in)
		return;
	for (i = 0; i < VUB_MAX_QUEUES; i++)
		free(in->q[i].resub);
	munmap(in->map, in->map_len);
	free(in);
	vub->inflight = NULL;
}

int vub_inflight_set(struct vub *vub, const struct vhost_user_inflight *d,
		     int fd, char *why, size_t whylen)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), want, delta;
	struct vub_inflight *in;
	struct stat st;
	unsigned int i;
	void *map;

	if (inflight_shape(vub, d, why, whylen))
		return -1;
	for (i = 0; i < VUB_MAX_QUEUES; i++)
		if (vub->q[i].started)
			return why_fail(why, whylen, "queue %u is running", i);
	want = vub_inflight_qsize(d->queue_size) * d->num_queues;
	if (d->mmap_size != want)
		return why_fail(why, whylen, "size 0x%llx, but %u queues of %u need 0x%zx",
				(unsigned long long)d->mmap_size, d->num_queues,
				d->queue_size, want);
	if (d->mmap_offset + d->mmap_size < d->mmap_offset)
		return why_fail(why, whylen, "offset 0x%llx + size wraps",
				(unsigned long long)d->mmap_offset);
	if (fstat(fd, &st) || !S_ISREG(st.st_mode))
		return why_fail(why, whylen, "the fd is not a memory file");
	if ((uint64_t)st.st_size < d->mmap_offset + d->mmap_size)
		return why_fail(why, whylen, "offset 0x%llx + size 0x%llx past the end of its fd (0x%llx)",
				(unsigned long long)d->mmap_offset,
				(unsigned long long)d->mmap_size,
				(unsigned long long)st.st_size);
	delta = d->mmap_offset & (pg - 1);
	map = mmap(NULL, want + delta, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   d->mmap_offset - delta);
	if (map == MAP_FAILED)
		return why_fail(why, whylen, "mmap: %s", strerror(errno));
	in = calloc(1, sizeof(*in));
	if (!in) {
		munmap(map, want + delta);
		return why_fail(why, whylen, "out of memory");
	}
	vub_inflight_drop(vub);
	in->map = map;
	in->map_len = want + delta;
	in->base = (uint8_t *)map + delta;
	in->nqueues = d->num_queues;
	in->queue_size = d->queue_size;
	vub->inflight = in;
	return 0;
}

void vub_inflight_queue_start(struct vub *vub, struct vub_queue *q)
{
	struct vub_inflight *in = vub->inflight;

	if (!in)
		return;
	free(in->q[q->index].resub);
	memset(&in->q[q->index], 0, sizeof(in->q[0]));
}

static struct inflight_queue *inflight_part(struct vub_inflight *in, unsigned int index)
{
	return (struct inflight_queue *)(in->base + vub_inflight_qsize(in->queue_size) * index);
}

static int inflight_err(struct vub *vub, struct vub_queue *q, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A bad region: one line, and the connection drops. */
static int inflight_err(struct vub *vub, struct vub_queue *q, const char *fmt, ...)
{
	char what[48];
	va_list ap;
	int ret;

	snprintf(what, sizeof(what), "queue %u: inflight region", q->index);
	va_start(ap, fmt);
	ret = vub_verror(vub, "bad inflight region", what, fmt, ap);
	va_end(ap);
	return ret;
}

struct resub {
	uint64_t counter;
	uint16_t head;
};

static int resub_cmp(const void *a, const void *b)
{
	const struct resub *x = a, *y = b;

	if (x->counter != y->counter)
		return x->counter < y->counter ? -1 : 1;
	return x->head - y->head;
}

/*
 * Read @q's part of the region once, check it, and list what is in flight,
 * oldest first.  The spec's reconnect steps: a used index in the region
 * behind the ring's means the last batch was published but not cleared
 * (clear it); then every entry still marked is in flight.
 */
static int inflight_check(struct vub *vub, struct vub_queue *q)
{
	struct vub_inflight *in = vub->inflight;
	struct inflight_state *s = &in->q[q->index];
	struct inflight_queue *r;
	unsigned int i, n = 0, num = q->num, batch;
	uint16_t ring_used, used_idx, head;
	struct resub *list;
	uint16_t version;

	s->checked = true;
	if (q->index >= in->nqueues)
		return inflight_err(vub, q, "it covers %u queues", in->nqueues);
	if (vub_has(vub, VIRTIO_F_RING_PACKED)) {
		fprintf(stderr, "vhost-user: queue %u: inflight tracking covers split rings only: this packed ring is served untracked (a backend restart loses its requests in flight)\n",
			q->index);
		return 0;
	}
	if (in->queue_size < num)
		return inflight_err(vub, q, "%u descriptors, but the ring has %u",
				    in->queue_size, num);
	r = inflight_part(in, q->index);
	ring_used = vringh16_to_cpu(&q->vrh, READ_ONCE(q->vrh.vring.used->idx));
	version = READ_ONCE(r->version);
	if (version == 0) {
		/* A fresh region: nothing was in flight. */
		memset(r->desc, 0, in->queue_size * sizeof(r->desc[0]));
		r->features = 0;
		r->desc_num = in->queue_size;
		r->last_batch_head = 0;
		WRITE_ONCE(r->used_idx, q->vrh.last_used_idx);
		WRITE_ONCE(r->version, INFLIGHT_VERSION);
		s->used = q->vrh.last_used_idx;
		s->tracked = true;
		return 0;
	}
	if (version != INFLIGHT_VERSION)
		return inflight_err(vub, q, "version %u (this backend knows 1)", version);
	if (READ_ONCE(r->features))
		return inflight_err(vub, q, "features 0x%llx (none are defined)",
				    (unsigned long long)READ_ONCE(r->features));
	if (READ_ONCE(r->desc_num) != in->queue_size)
		return inflight_err(vub, q, "desc_num %u, the region was made for %u",
				    READ_ONCE(r->desc_num), in->queue_size);
	used_idx = READ_ONCE(r->used_idx);
	batch = (uint16_t)(ring_used - used_idx);
	if (batch > num)
		return inflight_err(vub, q, "used_idx %u is %u behind the ring's used index %u, in a ring of %u",
				    used_idx, batch, ring_used, num);
	/* The last batch: published, not yet cleared.  A list of @batch heads. */
	head = READ_ONCE(r->last_batch_head);
	for (i = 0; i < batch; i++) {
		if (head >= num)
			return inflight_err(vub, q, "last batch entry %u is head %u, past the ring's %u",
					    i, head, num);
		WRITE_ONCE(r->desc[head].inflight, 0);
		head = READ_ONCE(r->desc[head].next);
	}
	WRITE_ONCE(r->used_idx, ring_used);
	list = malloc(sizeof(*list) * (num ? num : 1));
	if (!list)
		return inflight_err(vub, q, "out of memory");
	for (i = 0; i < in->queue_size; i++) {
		uint8_t f = READ_ONCE(r->desc[i].inflight);

		if (f > 1) {
			free(list);
			return inflight_err(vub, q, "descriptor %u: inflight flag %u is neither 0 nor 1",
					    i, f);
		}
		if (!f)
			continue;
		if (i >= num) {
			free(list);
			return inflight_err(vub, q, "descriptor %u is in flight, but the ring has %u",
					    i, num);
		}
		list[n].counter = READ_ONCE(r->desc[i].counter);
		list[n].head = i;
		n++;
	}
	qsort(list, n, sizeof(*list), resub_cmp);
	s->resub = malloc(sizeof(*s->resub) * (n ? n : 1));
	if (!s->resub) {
		free(list);
		return inflight_err(vub, q, "out of memory");
	}
	for (i = 0; i < n; i++) {
		s->resub[i] = list[i].head;
		/* Later takes come after everything in flight. */
		if (list[i].counter >= in->counter)
			in->counter = list[i].counter + 1;
	}
	free(list);
	s->nresub = n;
	s->used = ring_used;
	s->tracked = true;
	/*
	 * Every buffer the driver made available before the last one in
	 * flight was either used or is in flight: the ring goes on after
	 * them, and the used ring where the driver saw it last.
	 */
	q->vrh.last_used_idx = ring_used;
	q->vrh.last_avail_idx = ring_used;
	if (n)
		printf("inflight: queue %u: resubmitting %u requests in flight\n", q->index, n);
	fflush(stdout);
	return 0;
}

/*
 * Take the chain at @head through vringh as if the driver had just made it
 * available: vringh's avail ring is pointed for one getdesc at a one-entry
 * ring of the backend's own (in the window's scratch page), holding @head.
 */
static int inflight_fetch(struct vub *vub, struct vub_queue *q, u16 head, u16 *got)
{
	struct vring_avail *own = (struct vring_avail *)(vub->scratch +
							   q->index * VUB_SCRATCH_AVAIL);
	struct vring_avail *avail = q->vrh.vring.avail;
	u16 last = q->vrh.last_avail_idx;
	int rc;
#ifdef VRINGH_HEAD_UNKNOWN
	u16 seen = q->vrh.avail_idx_seen;

	q->vrh.avail_idx_seen = 0;
	q->vrh.next_head = VRINGH_HEAD_UNKNOWN;
#endif
	own->flags = 0;
	own->ring[0] = cpu_to_vringh16(&q->vrh, head);
	own->idx = cpu_to_vringh16(&q->vrh, 1);
	q->vrh.vring.avail = own;
	q->vrh.last_avail_idx = 0;
	rc = vringh_getdesc_user(&q->vrh, &q->riov, &q->wiov, vub_getrange, got);
	q->vrh.vring.avail = avail;
	q->vrh.last_avail_idx = last + (rc > 0);
#ifdef VRINGH_HEAD_UNKNOWN
	q->vrh.avail_idx_seen = seen;
	q->vrh.next_head = VRINGH_HEAD_UNKNOWN;
#endif
	if (rc == 0)
		rc = -EINVAL;	/* cannot be: the ring holds one */
	return rc;
}

int vub_inflight_resubmit(struct vub *vub, struct vub_queue *q, u16 *head)
{
	struct vub_inflight *in = vub->inflight;
	struct inflight_state *s;
	int err;

	if (!in)
		return 0;
	s = &in->q[q->index];
	if (!s->checked && (err = inflight_check(vub, q)))
		return err;
	if (s->next >= s->nresub)
		return 0;
	err = inflight_fetch(vub, q, s->resub[s->next], head);
	if (err < 0)
		return err == -EPROTO ? -EINVAL : err;
	s->next++;
	return 1;
}

static struct inflight_queue *inflight_tracked(struct vub_queue *q, u16 head)
{
	struct vub_inflight *in = q->vub->inflight;

	if (!in || !in->q[q->index].tracked || head >= in->queue_size)
		return NULL;
	return inflight_part(in, q->index);
}

void vub_inflight_take(struct vub_queue *q, u16 head)
{
	struct inflight_queue *r = inflight_tracked(q, head);

	if (!r)
		return;
	r->desc[head].counter = __atomic_fetch_add(&q->vub->inflight->counter, 1,
						   __ATOMIC_RELAXED);
	__atomic_store_n(&r->desc[head].inflight, 1, __ATOMIC_RELEASE);
}

void vub_inflight_completing(struct vub_queue *q, u16 head)
{
	struct inflight_queue *r = inflight_tracked(q, head);

	if (!r)
		return;
	r->desc[head].next = r->last_batch_head;
	__atomic_store_n(&r->last_batch_head, head, __ATOMIC_RELEASE);
}

void vub_inflight_completed(struct vub_queue *q, u16 head)
{
	struct inflight_queue *r = inflight_tracked(q, head);
	struct inflight_state *s;

	if (!r)
		return;
	s = &q->vub->inflight->q[q->index];
	__atomic_store_n(&r->desc[head].inflight, 0, __ATOMIC_RELEASE);
	s->used++;
	__atomic_store_n(&r->used_idx, s->used, __ATOMIC_RELEASE);
}
