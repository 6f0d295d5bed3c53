/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host's side of a queue (host.c): the host's view of guest memory
 * (the "user" window and the guest-address translation of a vringh
 * getrange callback), the ring as the host sees it there, and vringh on
 * that ring.
 */
#ifndef RIG_HARNESS_HOST_H
#define RIG_HARNESS_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/machine.h"
#include "harness/queue.h"

/*
 * Guest-address translation for the vringh _user accessors.  After
 * rig_user_map(), the "user" window is the host view [host, host + size),
 * and rig_getrange() maps guest addresses [guest, guest + size) onto it.
 * With @slow every range it hands out is a single byte, so vringh must split
 * each descriptor into one iovec per byte.
 */
struct vringh;
struct vringh_range;

void rig_user_map(const void *guest, void *host, size_t size, bool slow);
bool rig_getrange(struct vringh *vrh, uint64_t addr, struct vringh_range *r);

/*
 * @guest's ring as the host's _user accessors reach it: through @shm's
 * host mapping when the ring is in @shm, else (a kernel driver's packed
 * ring) at the same addresses, the "user" window widened to take them in.
 */
void rig_ring_host_view(struct rig_ring *host, const struct rig_ring *guest,
			const struct rig_shm *shm);

/*
 * vringh on @ring (a host view for _user, a view the host can dereference
 * for _kern): vringh_init_{user,kern}() or, packed,
 * vringh_init_packed_{user,kern}().  Returns what they return; -ENOSYS
 * for a packed ring without a packed vringh.  rig_vringh_cleanup() frees
 * what a packed vringh allocated (a split one allocates nothing).
 */
int rig_vringh_init_user(struct vringh *vrh, u64 features,
			 const struct rig_ring *ring);
int rig_vringh_init_kern(struct vringh *vrh, u64 features,
			 const struct rig_ring *ring);
void rig_vringh_cleanup(struct vringh *vrh, const struct rig_ring *ring);

/*
 * Put back the @num buffers the host took last, unused, so that it takes
 * them again: vringh_abandon_user() where the host has it.  Linux 7.x
 * removed it; there the split ring's cursor in struct vringh goes back, as
 * the kernel's own vDPA simulator sets it.
 */
void rig_vringh_abandon(struct vringh *vrh, unsigned int num);

/*
 * Copy up to @len bytes out of (pull) or into (push) what a _kern
 * getdesc returned, consuming them from @kiov as the kernel's
 * vringh_iov_{pull,push}_kern() did (Linux 7.x removed those): the
 * number of bytes copied, 0 once @kiov is used up.
 */
struct vringh_kiov;

size_t rig_kiov_pull(struct vringh_kiov *kiov, void *dst, size_t len);
size_t rig_kiov_push(struct vringh_kiov *kiov, const void *src, size_t len);

#endif /* RIG_HARNESS_HOST_H */
