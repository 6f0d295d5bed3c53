// SPDX-License-Identifier: GPL-2.0
/*
 * The host's side of a queue: its view of guest memory (the "user" window
 * the _user accessors reach, and the guest-address translation of a
 * getrange callback), the ring in that view, and vringh on that ring
 * (split, or packed with the rig's vringh).  See host.h.
 */
#define _GNU_SOURCE
#include <errno.h>

#include <linux/virtio.h>
#include <linux/virtio_ring.h>
#include <linux/vringh.h>
#include <linux/uaccess.h>

#include "harness/host.h"
#include "harness/outcome.h"

/* ---- The host's view of guest memory ---- */

static struct {
	uint64_t start, end;	/* guest addresses [start, end) */
	uint64_t offset;	/* host = guest + offset (mod 2^64) */
	bool slow;
} user_map;

void rig_user_map(const void *guest, void *host, size_t size, bool slow)
{
	user_map.start = (uintptr_t)guest;
	user_map.end = (uintptr_t)guest + size;
	user_map.offset = (uintptr_t)host - (uintptr_t)guest;
	user_map.slow = slow;
	__user_addr_min = host;
	__user_addr_max = (char *)host + size;
}

bool rig_getrange(struct vringh *vrh __attribute__((unused)), uint64_t addr,
		  struct vringh_range *r)
{
	if (addr < user_map.start || addr >= user_map.end)
		return false;
	r->start = user_map.slow ? addr : user_map.start;
	r->end_incl = user_map.slow ? addr : user_map.end - 1;
	r->offset = user_map.offset;
	return true;
}

/* @p (a guest address) in @shm's host mapping, or NULL if not in @shm. */
static void *host_addr(const struct rig_shm *shm, const void *p)
{
	const char *g = shm->guest;

	if ((const char *)p < g || (const char *)p >= g + shm->size)
		return NULL;
	return (char *)shm->host + ((const char *)p - g);
}

/* Let the "user" window take in [p, p + len) too. */
static void widen_user_window(const void *p, size_t len)
{
	char *lo = __user_addr_min, *hi = __user_addr_max;

	if (!lo || (char *)p < lo)
		lo = (char *)p;
	if (!hi || (char *)p + len > hi)
		hi = (char *)p + len;
	__user_addr_min = lo;
	__user_addr_max = hi;
}

void rig_ring_host_view(struct rig_ring *host, const struct rig_ring *guest,
			const struct rig_shm *shm)
{
	const struct vring_packed *gp = &guest->vring_packed;
	struct vring_packed *hp = &host->vring_packed;

	*host = *guest;
	if (!guest->packed) {
		void *mem = host_addr(shm, guest->vring.desc);

		CHECKF(mem, "split ring at %p outside the shared memory",
		       (void *)guest->vring.desc);
		vring_init(&host->vring, guest->num, mem, RIG_RING_ALIGN);
		return;
	}
	hp->desc = host_addr(shm, gp->desc);
	hp->driver = host_addr(shm, gp->driver);
	hp->device = host_addr(shm, gp->device);
	if (hp->desc && hp->driver && hp->device)
		return;
	/* The driver's own allocations: the host reaches them directly. */
	*hp = *gp;
	widen_user_window(gp->desc, sizeof(*gp->desc) * guest->num);
	widen_user_window(gp->driver, sizeof(*gp->driver));
	widen_user_window(gp->device, sizeof(*gp->device));
}

/*
 * vringh_init_KIND() on the split or packed ring @r (KIND user or kern:
 * the same arguments); -ENOSYS for a packed ring where the linked vringh
 * has no packed init (its _user and _kern come together).
 */
#ifdef vringh_init_packed_user
#define INIT_PACKED(kind, vrh, features, r)				\
	vringh_init_packed_##kind(vrh, features, (r)->num, true,	\
				  (r)->vring_packed.desc,		\
				  (r)->vring_packed.driver,		\
				  (r)->vring_packed.device)
#else
#define INIT_PACKED(kind, vrh, features, r) (-ENOSYS)
#endif
#define INIT(kind, vrh, features, r)					\
	((r)->packed ? INIT_PACKED(kind, vrh, features, r) :		\
	 vringh_init_##kind(vrh, features, (r)->num, true,		\
			    (r)->vring.desc, (r)->vring.avail,		\
			    (r)->vring.used))

int rig_vringh_init_user(struct vringh *vrh, u64 features,
			 const struct rig_ring *r)
{
	return INIT(user, vrh, features, r);
}

int rig_vringh_init_kern(struct vringh *vrh, u64 features,
			 const struct rig_ring *r)
{
	return INIT(kern, vrh, features, r);
}

/* Parameters unused with a kernel tree's vringh. */
void rig_vringh_cleanup(struct vringh *vrh __attribute__((unused)),
			const struct rig_ring *r __attribute__((unused)))
{
#ifdef vringh_init_packed_user
	if (r->packed)
		vringh_cleanup(vrh);
#endif
}

void rig_vringh_abandon(struct vringh *vrh, unsigned int num)
{
#ifdef RIG_VRINGH_ABANDON_USER_ARGS
	vringh_abandon_user(vrh, num);
#else
	vrh->last_avail_idx -= num;
#endif
}

/* Copy between @buf and @kiov's parts, consuming them; @out: into @buf. */
static size_t kiov_copy(struct vringh_kiov *kiov, void *buf, size_t len,
			bool out)
{
	size_t done = 0;

	while (done < len && kiov->i < kiov->used) {
		struct kvec *v = &kiov->iov[kiov->i];
		size_t n = min(len - done, v->iov_len);

		if (!v->iov_len) {	/* an empty part: nothing to consume */
			kiov->i++;
			continue;
		}
		if (out)
			memcpy((char *)buf + done, v->iov_base, n);
		else
			memcpy(v->iov_base, (const char *)buf + done, n);
		done += n;
		vringh_kiov_advance(kiov, n);
	}
	return done;
}

size_t rig_kiov_pull(struct vringh_kiov *kiov, void *dst, size_t len)
{
	return kiov_copy(kiov, dst, len, true);
}

size_t rig_kiov_push(struct vringh_kiov *kiov, const void *src, size_t len)
{
	return kiov_copy(kiov, (void *)src, len, false);
}
