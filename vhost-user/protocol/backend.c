// SPDX-License-Identifier: GPL-2.0
/*
 * The vhost-user backend: see vhost-user/protocol/backend.h.  The protocol is QEMU's
 * docs/interop/vhost-user.rst; the wire format is vhost-user/protocol/wire.[ch].
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <linux/vringh.h>
#include <linux/virtio_config.h>
#include "vhost-user/protocol/backend.h"
#include "vhost-user/protocol/inflight.h"

_Static_assert(VUB_MAX_QUEUES * VUB_SCRATCH_AVAIL <= 4096,
	       "the scratch page holds every queue's own avail ring");

/* The fake user-address window of linux/uaccess.h. */
extern void *__user_addr_min, *__user_addr_max;

/* How long the rest of a message may take once its first byte is in. */
#define VUB_MSG_TIMEOUT_MS	2000

#define VIRTIO_F_RING_PACKED_BIT	34

static int vub_err(struct vub *vub, uint32_t req, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

int vub_verror(struct vub *vub, const char *error, const char *what, const char *fmt,
	       va_list ap)
{
	fprintf(stderr, "vhost-user: %s: ", what);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	vub->errors++;
	vub->error = error;
	return -EPROTO;
}

/* Report a protocol error in request @req. */
static int vub_err(struct vub *vub, uint32_t req, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vub_verror(vub, "protocol error", vhost_user_request_name(req), fmt, ap);
	va_end(ap);
	return ret;
}

static bool vub_packed(const struct vub *vub)
{
	return vub_has(vub, VIRTIO_F_RING_PACKED_BIT);
}

/* ---- Memory: the table, one reservation, translation ---- */

static void vub_unmap(struct vub *vub)
{
	if (vub->window)
		munmap(vub->window, vub->window_len);
	vub->window = NULL;
	vub->window_len = 0;
	vub->scratch = NULL;
	vub->nregions = 0;
	__user_addr_min = NULL;
	__user_addr_max = NULL;
}

/* Frontend (user) address range -> our pointer, within one region. */
static void *vub_uva_to_host(struct vub *vub, uint64_t uva, uint64_t len)
{
	unsigned int i;

	for (i = 0; i < vub->nregions; i++) {
		struct vub_region *r = &vub->region[i];

		if (uva >= r->uva && uva - r->uva < r->size &&
		    len <= r->size - (uva - r->uva))
			return r->host + (uva - r->uva);
	}
	return NULL;
}

bool vub_getrange(struct vringh *vrh, u64 addr, struct vringh_range *range)
{
	struct vub_queue *q = container_of(vrh, struct vub_queue, vrh);
	struct vub *vub = q->vub;
	unsigned int i;

	for (i = 0; i < vub->nregions; i++) {
		struct vub_region *r = &vub->region[i];

		if (addr >= r->gpa && addr - r->gpa < r->size) {
			range->start = r->gpa;
			range->end_incl = r->gpa + r->size - 1;
			range->offset = (u64)(uintptr_t)r->host - r->gpa;
			return true;
		}
	}
	return false;
}

/*
 * Map a new table into one fresh reservation (regions back to back, a
 * guard page after each), so the uaccess window covers exactly them.
 */
static int vub_map_table(struct vub *vub, const struct vhost_user_mem_table *t,
			 struct vhost_user_fds *fds)
{
	const uint32_t req = VHOST_USER_SET_MEM_TABLE;
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), total = 0, at = 0;
	uint64_t maplen[VHOST_USER_MAX_REGIONS], delta[VHOST_USER_MAX_REGIONS];
	struct vub_region reg[VHOST_USER_MAX_REGIONS];
	unsigned int i, j, n = t->nregions;
	uint8_t *win;

	if (n == 0)
		return vub_err(vub, req, "no regions");
	if (fds->n != n)
		return vub_err(vub, req, "%u regions but %u fds", n, fds->n);
	for (i = 0; i < n; i++) {
		const struct vhost_user_region *r = &t->regions[i];
		struct stat st;

		if (r->memory_size == 0)
			return vub_err(vub, req, "region %u is empty", i);
		if (r->guest_phys_addr + r->memory_size < r->guest_phys_addr ||
		    r->userspace_addr + r->memory_size < r->userspace_addr ||
		    r->mmap_offset + r->memory_size < r->mmap_offset)
			return vub_err(vub, req, "region %u: address + size 0x%llx wraps",
				       i, (unsigned long long)r->memory_size);
		if (fstat(fds->fd[i], &st) || !S_ISREG(st.st_mode))
			return vub_err(vub, req, "region %u: fd is not a memory file", i);
		if ((uint64_t)st.st_size < r->mmap_offset + r->memory_size)
			return vub_err(vub, req, "region %u: offset 0x%llx + size 0x%llx past the end of its fd (0x%llx)",
				       i, (unsigned long long)r->mmap_offset,
				       (unsigned long long)r->memory_size,
				       (unsigned long long)st.st_size);
		for (j = 0; j < i; j++) {
			const struct vhost_user_region *o = &t->regions[j];

			if (r->guest_phys_addr < o->guest_phys_addr + o->memory_size &&
			    o->guest_phys_addr < r->guest_phys_addr + r->memory_size)
				return vub_err(vub, req, "regions %u and %u overlap", j, i);
		}
		delta[i] = r->mmap_offset & (pg - 1);
		maplen[i] = (r->memory_size + delta[i] + pg - 1) & ~(uint64_t)(pg - 1);
		if (maplen[i] < r->memory_size || total + maplen[i] + pg < total)
			return vub_err(vub, req, "regions too large");
		total += maplen[i] + pg;
	}
	total += pg;	/* the scratch page */
	win = mmap(NULL, total, PROT_NONE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (win == MAP_FAILED)
		return vub_err(vub, req, "cannot reserve 0x%zx bytes: %s", total,
			       strerror(errno));
	if (mprotect(win + total - pg, pg, PROT_READ | PROT_WRITE)) {
		int e = errno;

		munmap(win, total);
		return vub_err(vub, req, "scratch page: mprotect: %s", strerror(e));
	}
	for (i = 0; i < n; i++) {
		const struct vhost_user_region *r = &t->regions[i];

		if (mmap(win + at, maplen[i], PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_FIXED, fds->fd[i],
			 r->mmap_offset - delta[i]) == MAP_FAILED) {
			int e = errno;

			munmap(win, total);
			return vub_err(vub, req, "region %u: mmap: %s", i, strerror(e));
		}
		reg[i].gpa = r->guest_phys_addr;
		reg[i].size = r->memory_size;
		reg[i].uva = r->userspace_addr;
		reg[i].host = win + at + delta[i];
		at += maplen[i] + pg;
	}
	vub_unmap(vub);
	memcpy(vub->region, reg, sizeof(reg[0]) * n);
	vub->nregions = n;
	if (n > vub->max_regions)
		vub->max_regions = n;
	vub->window = win;
	vub->window_len = total;
	vub->scratch = win + total - pg;
	__user_addr_min = win;
	__user_addr_max = win + total;
	return 0;
}

/*
 * ---- The SIGBUS guard ----
 *
 * A frontend may shrink a memory file after we mapped it: touching the
 * pages it cut off raises SIGBUS.  Ring work (the device's kick and tick)
 * runs under this guard, which turns the fault into a protocol error: the
 * connection drops, and the process goes on serving.  One thread serves,
 * so one jump buffer does.
 */
static sigjmp_buf vub_guard_env;
static volatile sig_atomic_t vub_guarded;

static void vub_sigbus(int sig)
{
	if (vub_guarded)
		siglongjmp(vub_guard_env, 1);
	signal(sig, SIG_DFL);	/* not ours: die as usual */
	raise(sig);
}

static void vub_catch_sigbus(void)
{
	static bool done;
	struct sigaction sa = { .sa_handler = vub_sigbus, .sa_flags = SA_NODEFER };

	if (!done && sigaction(SIGBUS, &sa, NULL) == 0)
		done = true;
}

/* dev->kick(@q), or dev->tick() if @q is NULL; -EPROTO if it faulted. */
static int vub_guarded_run(struct vub *vub, struct vub_queue *q)
{
	vub_catch_sigbus();
	if (sigsetjmp(vub_guard_env, 1)) {
		vub_guarded = 0;
		fprintf(stderr, "vhost-user: the frontend's memory is gone (SIGBUS): a memory file shrank under its mapping\n");
		vub->errors++;
		vub->error = "memory gone";
		return -EPROTO;
	}
	vub_guarded = 1;
	if (q)
		vub->dev->kick(vub, q);
	else
		vub->dev->tick(vub);
	vub_guarded = 0;
	/* The device found the frontend's data bad (inflight.c): drop it. */
	return vub->error ? -EPROTO : 0;
}

/* ---- Queues ---- */

static void vub_call(struct vringh *vrh)
{
	struct vub_queue *q = container_of(vrh, struct vub_queue, vrh);
	uint64_t one = 1;

	if (q->call_fd >= 0 && write(q->call_fd, &one, sizeof(one)) == sizeof(one)) {
		q->calls++;
		q->vub->calls++;
	}
}

void vub_queue_notify(struct vub_queue *q)
{
	if (q->started && vringh_need_notify_user(&q->vrh) > 0)
		vringh_notify(&q->vrh);
}

void vub_queue_fail(struct vub_queue *q, int err, const char *what)
{
	fprintf(stderr, "vhost-user: queue %u: %s: vringh refused the ring (%s); queue stopped\n",
		q->index, what, strerror(-err));
	q->vub->errors++;
	q->broken = true;
}

/* The ring's next position as GET_VRING_BASE reports it. */
static uint32_t vub_queue_base(struct vub_queue *q)
{
#ifdef vringh_init_packed_user
	/* Packed: bits 0-14 the offset, 15 the wrap counter; avail, then used. */
	if (q->vrh.packed)
		return (q->vrh.last_avail_idx | (uint32_t)q->vrh.avail_wrap_counter << 15) |
		       (q->vrh.last_used_idx | (uint32_t)q->vrh.used_wrap_counter << 15) << 16;
#endif
	return q->vrh.last_avail_idx;
}

static void vub_queue_stop(struct vub *vub, struct vub_queue *q)
{
	if (!q->started)
		return;
	if (vub->dev->stop)
		vub->dev->stop(vub, q);
	q->base = vub_queue_base(q);
	vringh_iov_cleanup(&q->riov);
	vringh_iov_cleanup(&q->wiov);
#ifdef vringh_init_packed_user
	vringh_cleanup(&q->vrh);
#endif
	q->started = false;
	q->broken = false;
	q->again = false;
}

/* Start @q if it has everything it needs; -EPROTO if it cannot be. */
static int vub_queue_try_start(struct vub *vub, struct vub_queue *q, uint32_t req)
{
	uint64_t n = q->num, dlen = 16 * n, alen, ulen;
	void *desc, *avail, *used;
	int err;

	if (q->started || !q->num || !q->addr_set || !q->kick_set ||
	    !q->enabled || !vub->nregions)
		return 0;
	if (vub_packed(vub)) {
		alen = ulen = 4;	/* the event suppression structures */
	} else {
		if (n & (n - 1))
			return vub_err(vub, req, "queue %u: split ring size %u is not a power of 2",
				       q->index, q->num);
		alen = 6 + 2 * n;
		ulen = 6 + 8 * n;
	}
	desc = vub_uva_to_host(vub, q->desc, dlen);
	avail = vub_uva_to_host(vub, q->avail, alen);
	used = vub_uva_to_host(vub, q->used, ulen);
	if (!desc || !avail || !used)
		return vub_err(vub, req, "queue %u: %s ring at 0x%llx is outside every memory region",
			       q->index, !desc ? "descriptor" : !avail ? "avail" : "used",
			       (unsigned long long)(!desc ? q->desc : !avail ? q->avail : q->used));
	/* virtio 2.7 / 2.8: descriptors 16, split avail 2, used 4, events 4. */
	if (((uintptr_t)desc & 15) ||
	    ((uintptr_t)avail & (vub_packed(vub) ? 3 : 1)) || ((uintptr_t)used & 3))
		return vub_err(vub, req, "queue %u: ring parts misaligned (0x%llx, 0x%llx, 0x%llx)",
			       q->index, (unsigned long long)q->desc,
			       (unsigned long long)q->avail, (unsigned long long)q->used);
	memset(&q->vrh, 0, sizeof(q->vrh));
	if (vub_packed(vub)) {
#ifdef vringh_init_packed_user
		err = vringh_init_packed_user(&q->vrh, vub->features, q->num, true,
					      desc, avail, used);
		if (!err) {
			/*
			 * Resume where a stopped ring left off: bits 0-15 the
			 * avail offset and wrap counter (bit 15), 16-31 the
			 * used ones (0: as avail).  0x8000 is a fresh ring.
			 */
			uint32_t a = q->base & 0xffff, u = q->base >> 16;

			if (!u)
				u = a;
			q->vrh.last_avail_idx = a & 0x7fff;
			q->vrh.avail_wrap_counter = a >> 15;
			q->vrh.last_used_idx = u & 0x7fff;
			q->vrh.used_wrap_counter = u >> 15;
			if (q->vrh.last_avail_idx >= q->num || q->vrh.last_used_idx >= q->num) {
				vringh_cleanup(&q->vrh);
				return vub_err(vub, req, "queue %u: base 0x%x past the ring's end",
					       q->index, q->base);
			}
		}
#else
		err = -EOPNOTSUPP;
#endif
	} else {
		err = vringh_init_user(&q->vrh, vub->features, q->num, true,
				       desc, avail, used);
		if (!err) {
			q->vrh.last_avail_idx = q->vrh.last_used_idx = q->base;
#ifdef VRINGH_HEAD_UNKNOWN
			if (q->base)
				q->vrh.next_head = VRINGH_HEAD_UNKNOWN;
#endif
		}
	}
	if (err)
		return vub_err(vub, req, "queue %u: vringh init failed: %s",
			       q->index, strerror(-err));
	q->vrh.notify = vub_call;
	vringh_iov_init(&q->riov, q->rvec, VUB_IOV);
	vringh_iov_init(&q->wiov, q->wvec, VUB_IOV);
	q->started = true;
	q->broken = false;
	vub_inflight_queue_start(vub, q);
	/* The driver may have made buffers available before the kick fd came. */
	return vub_guarded_run(vub, q);
}

static void vub_queue_reset(struct vub *vub, struct vub_queue *q)
{
	vub_queue_stop(vub, q);
	if (q->kick_fd >= 0)
		close(q->kick_fd);
	if (q->call_fd >= 0)
		close(q->call_fd);
	memset(q, 0, offsetof(struct vub_queue, riov));
	q->vub = vub;
	q->index = q - vub->q;
	q->kick_fd = q->call_fd = -1;
}

/* Drop everything a frontend set up (disconnect, RESET_OWNER). */
static void vub_reset(struct vub *vub)
{
	unsigned int i;

	for (i = 0; i < VUB_MAX_QUEUES; i++)
		vub_queue_reset(vub, &vub->q[i]);
	vub_inflight_drop(vub);
	vub_unmap(vub);
	vub->features = 0;
	vub->features_set = false;
	vub->protocol_features = 0;
	vub->protocol_set = false;
	vub->status = 0;
}

/* ---- Messages ---- */

static int vub_reply(struct vub *vub, struct vhost_user_msg *m, uint32_t size)
{
	m->hdr.flags = VHOST_USER_VERSION | VHOST_USER_FLAG_REPLY;
	m->hdr.size = size;
	return vhost_user_send(vub->conn_fd, m, NULL, 0);
}

static int vub_reply_u64(struct vub *vub, struct vhost_user_msg *m, uint64_t v)
{
	m->payload.u64 = v;
	return vub_reply(vub, m, sizeof(v));
}

/* The queue a message names, or NULL (error reported). */
static struct vub_queue *vub_msg_queue(struct vub *vub, uint32_t req, uint64_t index)
{
	if (index >= vub->dev->num_queues) {
		vub_err(vub, req, "queue index %llu out of range (the device has %u)",
			(unsigned long long)index, vub->dev->num_queues);
		return NULL;
	}
	return &vub->q[index];
}

/*
 * SET_VRING_KICK/CALL/ERR: the queue, and the fd (-1 with NOFD), taken out
 * of @fds.
 */
static int vub_take_fd(struct vub *vub, struct vhost_user_msg *m,
			struct vhost_user_fds *fds, struct vub_queue **qp, int *fd)
{
	uint32_t req = m->hdr.request;
	uint64_t v = m->payload.u64;
	bool nofd = v & VHOST_USER_VRING_NOFD;

	if (v & ~(VHOST_USER_VRING_INDEX_MASK | VHOST_USER_VRING_NOFD))
		return vub_err(vub, req, "unknown bits in 0x%llx", (unsigned long long)v);
	*qp = vub_msg_queue(vub, req, v & VHOST_USER_VRING_INDEX_MASK);
	if (!*qp)
		return -EPROTO;
	if (nofd ? fds->n != 0 : fds->n != 1)
		return vub_err(vub, req, "%s but %u fds", nofd ? "NOFD set" : "no NOFD",
			       fds->n);
	*fd = nofd ? -1 : fds->fd[0];
	fds->n = 0;
	return 0;
}

/*
 * ---- Requests: one handler each, and a table ----
 *
 * A handler gets a message whose header, payload size and fds the
 * dispatcher already checked, with the queue it names already looked up
 * (struct vub_request.queue).  It returns 0 or -EPROTO (vub_err() said
 * why); one that answers (struct vub_request.replies) returns what sending
 * the answer did.
 */
struct vub_msg {
	struct vhost_user_msg *m;
	union vhost_user_payload *p;	/* &m->payload */
	struct vhost_user_fds *fds;
	uint32_t req;
	struct vub_queue *q;		/* the queue it names, if it names one */
	int fd;				/* SET_VRING_KICK/CALL/ERR's, -1 with NOFD */
};

static int vub_get_features(struct vub *vub, struct vub_msg *msg)
{
	return vub_reply_u64(vub, msg->m, vub->dev->features |
			     (1ull << VHOST_USER_F_PROTOCOL_FEATURES));
}

static int vub_set_features(struct vub *vub, struct vub_msg *msg)
{
	const struct vub_device *dev = vub->dev;
	uint64_t f = msg->p->u64;
	unsigned int i;

	if (f & ~(dev->features | (1ull << VHOST_USER_F_PROTOCOL_FEATURES)))
		return vub_err(vub, msg->req, "features 0x%llx were not offered",
			       (unsigned long long)(f & ~dev->features));
	for (i = 0; i < dev->num_queues; i++)
		if (vub->q[i].started && f != vub->features)
			return vub_err(vub, msg->req, "features changed while queue %u runs", i);
	vub->features = vub->last_features = f;
	vub->features_set = true;
	return 0;
}

static int vub_get_protocol_features(struct vub *vub, struct vub_msg *msg)
{
	return vub_reply_u64(vub, msg->m, vub->dev->protocol_features);
}

static int vub_set_protocol_features(struct vub *vub, struct vub_msg *msg)
{
	uint64_t f = msg->p->u64, offered = vub->dev->protocol_features;

	if (f & ~offered)
		return vub_err(vub, msg->req, "protocol features 0x%llx were not offered",
			       (unsigned long long)(f & ~offered));
	vub->protocol_features = f;
	vub->protocol_set = true;
	return 0;
}

/* One frontend at a time: owning the connection is all there is to it. */
static int vub_set_owner(struct vub *vub, struct vub_msg *msg)
{
	(void)vub;
	(void)msg;
	return 0;
}

static int vub_reset_owner(struct vub *vub, struct vub_msg *msg)
{
	(void)msg;
	vub_reset(vub);
	return 0;
}

static bool vub_negotiated(const struct vub *vub, unsigned int protocol_bit)
{
	return vub->protocol_features & (1ull << protocol_bit);
}

/* Every queue the device has (net: the control queue too). */
static int vub_get_queue_num(struct vub *vub, struct vub_msg *msg)
{
	if (!vub_negotiated(vub, VHOST_USER_PROTOCOL_F_MQ))
		return vub_err(vub, msg->req, "MQ was not negotiated");
	return vub_reply_u64(vub, msg->m, vub->dev->num_queues);
}

/* Running rings stop, and restart on the new mapping. */
static int vub_set_mem_table(struct vub *vub, struct vub_msg *msg)
{
	bool was[VUB_MAX_QUEUES];
	unsigned int i;
	int err;

	for (i = 0; i < VUB_MAX_QUEUES; i++) {
		was[i] = vub->q[i].started;
		vub_queue_stop(vub, &vub->q[i]);
	}
	err = vub_map_table(vub, &msg->p->mem, msg->fds);
	for (i = 0; i < VUB_MAX_QUEUES && !err; i++)
		if (was[i])
			err = vub_queue_try_start(vub, &vub->q[i], msg->req);
	return err;
}

static int vub_set_vring_num(struct vub *vub, struct vub_msg *msg)
{
	uint32_t num = msg->p->state.num;
	struct vub_queue *q = msg->q;

	if (num == 0 || num > VUB_MAX_RING)
		return vub_err(vub, msg->req, "queue %u: ring size %u out of range 1..%u",
			       q->index, num, VUB_MAX_RING);
	if (vub->features_set && !vub_packed(vub) && (num & (num - 1)))
		return vub_err(vub, msg->req, "queue %u: split ring size %u is not a power of 2",
			       q->index, num);
	q->num = num;
	return 0;
}

static int vub_set_vring_addr(struct vub *vub, struct vub_msg *msg)
{
	const struct vhost_user_vring_addr *a = &msg->p->addr;
	struct vub_queue *q = msg->q;

	if (a->flags & ~(1u << VHOST_VRING_F_LOG))
		return vub_err(vub, msg->req, "unknown flags 0x%x", a->flags);
	if (a->flags)
		return vub_err(vub, msg->req, "dirty logging was not offered");
	if (!vub->nregions)
		return vub_err(vub, msg->req, "queue %u: ring addresses before the memory table",
			       q->index);
	q->desc = a->desc;
	q->avail = a->avail;
	q->used = a->used;
	q->addr_set = true;
	if (!vub_uva_to_host(vub, q->desc, 1) || !vub_uva_to_host(vub, q->avail, 1) ||
	    !vub_uva_to_host(vub, q->used, 1))
		return vub_err(vub, msg->req, "queue %u: ring address outside every memory region",
			       q->index);
	return 0;
}

static int vub_set_vring_base(struct vub *vub, struct vub_msg *msg)
{
	uint32_t base = msg->p->state.num;
	struct vub_queue *q = msg->q;

	if (!vub_packed(vub) && base > 0xffff)
		return vub_err(vub, msg->req, "queue %u: base 0x%x out of range",
			       q->index, base);
	q->base = base;
	return 0;
}

/* Stops the ring and forgets its kick fd; answers where it stopped. */
static int vub_get_vring_base(struct vub *vub, struct vub_msg *msg)
{
	struct vub_queue *q = msg->q;

	vub_queue_stop(vub, q);
	if (q->kick_fd >= 0)
		close(q->kick_fd);
	q->kick_fd = -1;
	q->kick_set = false;
	msg->p->state.num = q->base;
	return vub_reply(vub, msg->m, sizeof(msg->p->state));
}

static int vub_set_vring_kick(struct vub *vub, struct vub_msg *msg)
{
	struct vub_queue *q = msg->q;

	if (msg->fd < 0)
		return vub_err(vub, msg->req, "queue %u: polling (no kick fd) is not supported",
			       q->index);
	vub_queue_stop(vub, q);
	if (q->kick_fd >= 0)
		close(q->kick_fd);
	q->kick_fd = msg->fd;
	q->kick_set = true;
	/* Without PROTOCOL_FEATURES a ring is enabled by its kick fd. */
	if (!vub_has(vub, VHOST_USER_F_PROTOCOL_FEATURES))
		q->enabled = true;
	return vub_queue_try_start(vub, q, msg->req);
}

static int vub_set_vring_call(struct vub *vub, struct vub_msg *msg)
{
	struct vub_queue *q = msg->q;

	(void)vub;
	if (q->call_fd >= 0)
		close(q->call_fd);
	q->call_fd = msg->fd;
	return 0;
}

/* Errors go to stderr: the fd is checked, then closed. */
static int vub_set_vring_err(struct vub *vub, struct vub_msg *msg)
{
	(void)vub;
	if (msg->fd >= 0)
		close(msg->fd);
	return 0;
}

static int vub_set_vring_enable(struct vub *vub, struct vub_msg *msg)
{
	uint32_t on = msg->p->state.num;
	struct vub_queue *q = msg->q;

	/* QEMU sends it after SET_PROTOCOL_FEATURES, before SET_FEATURES. */
	if (!vub_has(vub, VHOST_USER_F_PROTOCOL_FEATURES) && !vub->protocol_set)
		return vub_err(vub, msg->req, "without PROTOCOL_FEATURES negotiated");
	if (on > 1)
		return vub_err(vub, msg->req, "queue %u: enable %u is neither 0 nor 1",
			       q->index, on);
	q->enabled = on;
	if (!q->enabled)
		vub_queue_stop(vub, q);
	return vub_queue_try_start(vub, q, msg->req);
}

static int vub_get_config(struct vub *vub, struct vub_msg *msg)
{
	const struct vub_device *dev = vub->dev;
	struct vhost_user_config *c = &msg->p->config;

	if (!vub_negotiated(vub, VHOST_USER_PROTOCOL_F_CONFIG) || !dev->get_config)
		return vub_err(vub, msg->req, "CONFIG was not negotiated");
	if (!dev->get_config(dev->priv, c->offset, c->size, c->data))
		return vub_err(vub, msg->req, "offset %u size %u outside the config space",
			       c->offset, c->size);
	return vub_reply(vub, msg->m, msg->m->hdr.size);
}

static int vub_set_status(struct vub *vub, struct vub_msg *msg)
{
	uint64_t status = msg->p->u64;
	unsigned int i;

	if (!vub_negotiated(vub, VHOST_USER_PROTOCOL_F_STATUS))
		return vub_err(vub, msg->req, "STATUS was not negotiated");
	if (status > 0xff)
		return vub_err(vub, msg->req, "status 0x%llx is not a byte",
			       (unsigned long long)status);
	vub->status = status;
	vub->status_msgs++;
	if (!vub->status)
		for (i = 0; i < VUB_MAX_QUEUES; i++)
			vub_queue_stop(vub, &vub->q[i]);
	return 0;
}

static int vub_get_status(struct vub *vub, struct vub_msg *msg)
{
	if (!vub_negotiated(vub, VHOST_USER_PROTOCOL_F_STATUS))
		return vub_err(vub, msg->req, "STATUS was not negotiated");
	return vub_reply_u64(vub, msg->m, vub->status);
}

/*
 * GET_INFLIGHT_FD: a fresh region (vhost-user/protocol/inflight.c), sent with its
 * fd; SET_INFLIGHT_FD: the region to track in (checked, mapped).
 */
static int vub_get_inflight_fd(struct vub *vub, struct vub_msg *msg)
{
	char why[200];
	int fd, err;

	if (!vub_negotiated(vub, VHOST_USER_PROTOCOL_F_INFLIGHT_SHMFD))
		return vub_err(vub, msg->req, "INFLIGHT_SHMFD was not negotiated");
	fd = vub_inflight_create(vub, &msg->p->inflight, why, sizeof(why));
	if (fd < 0)
		return vub_err(vub, msg->req, "%s", why);
	msg->m->hdr.flags = VHOST_USER_VERSION | VHOST_USER_FLAG_REPLY;
	msg->m->hdr.size = sizeof(msg->p->inflight);
	err = vhost_user_send(vub->conn_fd, msg->m, &fd, 1);
	close(fd);
	return err;
}

static int vub_set_inflight_fd(struct vub *vub, struct vub_msg *msg)
{
	char why[200];

	if (!vub_negotiated(vub, VHOST_USER_PROTOCOL_F_INFLIGHT_SHMFD))
		return vub_err(vub, msg->req, "INFLIGHT_SHMFD was not negotiated");
	if (msg->fds->n != 1)
		return vub_err(vub, msg->req, "%u fds, not 1", msg->fds->n);
	if (vub_inflight_set(vub, &msg->p->inflight, msg->fds->fd[0], why, sizeof(why)))
		return vub_err(vub, msg->req, "%s", why);
	return 0;
}

/* Which queue a request names, looked up (and checked) before its handler. */
enum vub_queue_arg {
	VUB_NO_QUEUE,
	VUB_QUEUE,		/* the index of payload.state (SET_VRING_ADDR: .addr) */
	VUB_STOPPED_QUEUE,	/* the same, and it must not be running */
	VUB_FD_QUEUE,		/* payload.u64: the index and NOFD; the fd comes along */
};

/*
 * What this backend serves.  @queue: which queue the request names;
 * @fds: the request may carry fds (any other that does is refused);
 * @replies: the handler answers, so no REPLY_ACK follows.  A request
 * without a handler is refused as not supported.  The payload's size
 * rules are the wire's (vhost_user_payload_ok()), shared with the
 * frontend.
 */
struct vub_request {
	int (*handle)(struct vub *vub, struct vub_msg *msg);
	enum vub_queue_arg queue;
	bool fds;
	bool replies;
};

static const struct vub_request vub_requests[VHOST_USER_REQUEST_MAX] = {
	[VHOST_USER_GET_FEATURES]		= { .handle = vub_get_features, .replies = true },
	[VHOST_USER_SET_FEATURES]		= { .handle = vub_set_features },
	[VHOST_USER_GET_PROTOCOL_FEATURES]	= { .handle = vub_get_protocol_features, .replies = true },
	[VHOST_USER_SET_PROTOCOL_FEATURES]	= { .handle = vub_set_protocol_features },
	[VHOST_USER_SET_OWNER]			= { .handle = vub_set_owner },
	[VHOST_USER_RESET_OWNER]		= { .handle = vub_reset_owner },
	[VHOST_USER_GET_QUEUE_NUM]		= { .handle = vub_get_queue_num, .replies = true },
	[VHOST_USER_SET_MEM_TABLE]		= { .handle = vub_set_mem_table, .fds = true },
	[VHOST_USER_SET_VRING_NUM]		= { .handle = vub_set_vring_num,
						    .queue = VUB_STOPPED_QUEUE },
	[VHOST_USER_SET_VRING_ADDR]		= { .handle = vub_set_vring_addr,
						    .queue = VUB_STOPPED_QUEUE },
	[VHOST_USER_SET_VRING_BASE]		= { .handle = vub_set_vring_base,
						    .queue = VUB_STOPPED_QUEUE },
	[VHOST_USER_GET_VRING_BASE]		= { .handle = vub_get_vring_base,
						    .queue = VUB_QUEUE, .replies = true },
	[VHOST_USER_SET_VRING_KICK]		= { .handle = vub_set_vring_kick,
						    .queue = VUB_FD_QUEUE, .fds = true },
	[VHOST_USER_SET_VRING_CALL]		= { .handle = vub_set_vring_call,
						    .queue = VUB_FD_QUEUE, .fds = true },
	[VHOST_USER_SET_VRING_ERR]		= { .handle = vub_set_vring_err,
						    .queue = VUB_FD_QUEUE, .fds = true },
	[VHOST_USER_SET_VRING_ENABLE]		= { .handle = vub_set_vring_enable,
						    .queue = VUB_QUEUE },
	[VHOST_USER_GET_CONFIG]			= { .handle = vub_get_config, .replies = true },
	[VHOST_USER_SET_STATUS]			= { .handle = vub_set_status },
	[VHOST_USER_GET_STATUS]			= { .handle = vub_get_status, .replies = true },
	[VHOST_USER_GET_INFLIGHT_FD]		= { .handle = vub_get_inflight_fd, .replies = true },
	[VHOST_USER_SET_INFLIGHT_FD]		= { .handle = vub_set_inflight_fd, .fds = true },
};

/* The queue @msg names, as @r says, into @msg->q: 0 or -EPROTO (reported). */
static int vub_find_queue(struct vub *vub, const struct vub_request *r,
			  struct vub_msg *msg)
{
	uint32_t index;

	if (r->queue == VUB_NO_QUEUE)
		return 0;
	if (r->queue == VUB_FD_QUEUE)
		return vub_take_fd(vub, msg->m, msg->fds, &msg->q, &msg->fd);
	index = msg->req == VHOST_USER_SET_VRING_ADDR ? msg->p->addr.index :
		msg->p->state.index;
	msg->q = vub_msg_queue(vub, msg->req, index);
	if (!msg->q)
		return -EPROTO;
	if (r->queue == VUB_STOPPED_QUEUE && msg->q->started)
		return vub_err(vub, msg->req, "queue %u is running", msg->q->index);
	return 0;
}

int vub_handle_msg(struct vub *vub, struct vhost_user_msg *m,
		   struct vhost_user_fds *fds)
{
	struct vub_msg msg = { m, &m->payload, fds, m->hdr.request, NULL, -1 };
	const struct vub_request *r;
	int err;

	if (msg.req == 0 || msg.req >= VHOST_USER_REQUEST_MAX)
		return vub_err(vub, msg.req, "unknown request");
	if (m->hdr.flags & VHOST_USER_FLAG_REPLY)
		return vub_err(vub, msg.req, "a reply where a request was due");
	/* Said apart from the size rule it breaks, so the frontend knows why. */
	if (msg.req == VHOST_USER_SET_MEM_TABLE && m->hdr.size >= 4 &&
	    msg.p->mem.nregions > VHOST_USER_MAX_REGIONS)
		return vub_err(vub, msg.req, "%u regions, at most %u allowed",
			       msg.p->mem.nregions, VHOST_USER_MAX_REGIONS);
	if (!vhost_user_payload_ok(m))
		return vub_err(vub, msg.req, "payload of %u bytes does not fit the request",
			       m->hdr.size);
	r = &vub_requests[msg.req];
	if (fds->n && !r->fds)
		return vub_err(vub, msg.req, "%u unexpected fds", fds->n);
	if (!r->handle)
		return vub_err(vub, msg.req, "not supported by this backend");
	err = vub_find_queue(vub, r, &msg);
	if (!err)
		err = r->handle(vub, &msg);
	if (err || r->replies)
		return err;
	if ((m->hdr.flags & VHOST_USER_FLAG_NEED_REPLY) &&
	    vub_negotiated(vub, VHOST_USER_PROTOCOL_F_REPLY_ACK))
		return vub_reply_u64(vub, m, 0);
	return 0;
}

/* ---- Sockets and the loop ---- */

static int vub_addr(struct sockaddr_un *sa, const char *path)
{
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sa->sun_path))
		return -ENAMETOOLONG;
	strcpy(sa->sun_path, path);
	return 0;
}

void vub_init(struct vub *vub, const struct vub_device *dev)
{
	unsigned int i;

	memset(vub, 0, sizeof(*vub));
	vub->dev = dev;
	vub->listen_fd = vub->conn_fd = -1;
	for (i = 0; i < VUB_MAX_QUEUES; i++) {
		vub->q[i].vub = vub;
		vub->q[i].index = i;
		vub->q[i].kick_fd = vub->q[i].call_fd = -1;
	}
}

/* vub_init(), then a socket for @path, its address in @sa: the fd, or -errno. */
static int vub_socket(struct vub *vub, const struct vub_device *dev, const char *path,
		      struct sockaddr_un *sa)
{
	int fd, err = vub_addr(sa, path);

	vub_init(vub, dev);
	if (err)
		return err;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	return fd < 0 ? -errno : fd;
}

/* After a failed call on @fd: close it, and return that call's -errno. */
static int vub_socket_failed(int fd)
{
	int err = -errno;

	close(fd);
	return err;
}

int vub_listen(struct vub *vub, const struct vub_device *dev, const char *path)
{
	struct sockaddr_un sa;
	int fd = vub_socket(vub, dev, path, &sa);

	if (fd < 0)
		return fd;
	unlink(path);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) || listen(fd, 1))
		return vub_socket_failed(fd);
	vub->listen_fd = fd;
	return 0;
}

int vub_connect(struct vub *vub, const struct vub_device *dev, const char *path)
{
	struct sockaddr_un sa;
	int fd = vub_socket(vub, dev, path, &sa);

	if (fd < 0)
		return fd;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)))
		return vub_socket_failed(fd);
	vub->conn_fd = fd;
	return 0;
}

int vub_kick_all(struct vub *vub)
{
	unsigned int i;
	int err;

	for (i = 0; i < vub->dev->num_queues; i++)
		if (vub->q[i].started && !vub->q[i].broken &&
		    (err = vub_guarded_run(vub, &vub->q[i])))
			return err;
	return 0;
}

void vub_disconnect(struct vub *vub)
{
	vub_reset(vub);
	if (vub->conn_fd >= 0)
		close(vub->conn_fd);
	vub->conn_fd = -1;
}

/* Serve @q (kicked, or it used up its last turn). */
static int vub_served_again(struct vub *vub, struct vub_queue *q)
{
	q->again = false;
	if (q->started && !q->broken)
		return vub_guarded_run(vub, q);
	return 0;
}

static int vub_kicked(struct vub *vub, struct vub_queue *q)
{
	uint64_t v;

	if (read(q->kick_fd, &v, sizeof(v)) < 0 && errno != EAGAIN)
		return 0;
	q->kicks++;
	vub->kicks++;
	return vub_served_again(vub, q);
}

int vub_serve(struct vub *vub)
{
	struct pollfd pfd[1 + VUB_MAX_QUEUES];
	struct vub_queue *pq[1 + VUB_MAX_QUEUES];
	struct vhost_user_msg m;
	struct vhost_user_fds fds;
	int err = 0, r;

	if (vub->conn_fd < 0) {
		vub->conn_fd = accept4(vub->listen_fd, NULL, NULL, SOCK_CLOEXEC);
		if (vub->conn_fd < 0)
			return -errno;
	}
	vub->error = NULL;
	while (!err) {
		unsigned int n = 1, i;
		bool again = false;

		pfd[0].fd = vub->conn_fd;
		pfd[0].events = POLLIN;
		for (i = 0; i < vub->dev->num_queues; i++) {
			struct vub_queue *q = &vub->q[i];

			if (q->started && !q->broken && q->kick_fd >= 0) {
				pfd[n].fd = q->kick_fd;
				pfd[n].events = POLLIN;
				pq[n++] = q;
				again |= q->again;
			}
		}
		r = poll(pfd, n, again ? 0 : vub->dev->tick ? 100 : -1);
		if (r < 0) {
			err = -errno;	/* -EINTR: a signal, let the caller look */
			break;
		}
		if (r == 0 && !again) {
			err = vub_guarded_run(vub, NULL);
			continue;
		}
		/* Kicked queues first, then those that used up their turn. */
		for (i = 1; i < n && !err; i++)
			if (pfd[i].revents & POLLIN)
				err = vub_kicked(vub, pq[i]);
		for (i = 1; i < n && !err; i++)
			if (pq[i]->again && !(pfd[i].revents & POLLIN))
				err = vub_served_again(vub, pq[i]);
		if (err)
			break;
		if (!pfd[0].revents)
			continue;
		err = vhost_user_recv(vub->conn_fd, &m, &fds, VUB_MSG_TIMEOUT_MS);
		if (err == -ECONNRESET) {
			err = 0;
			break;
		}
		if (err) {
			fprintf(stderr, "vhost-user: receiving a message: %s\n",
				err == -EMSGSIZE ? "size beyond any payload" :
				err == -EPROTO ? "bad version or fds" :
				err == -ETIMEDOUT ? "message cut short" : strerror(-err));
			vub->errors++;
			err = -EPROTO;
			break;
		}
		vub->messages++;
		err = vub_handle_msg(vub, &m, &fds);
		vhost_user_fds_close(&fds);
		if (err && err != -EPROTO)
			fprintf(stderr, "vhost-user: %s: reply: %s\n",
				vhost_user_request_name(m.hdr.request), strerror(-err));
	}
	vub_disconnect(vub);
	return err;
}

void vub_close(struct vub *vub)
{
	if (vub->conn_fd >= 0)
		vub_disconnect(vub);
	if (vub->listen_fd >= 0)
		close(vub->listen_fd);
	vub->listen_fd = -1;
}
