/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Requests in flight that outlive the backend: the vhost-user inflight I/O
 * tracking of QEMU's docs/interop/vhost-user.rst (protocol feature
 * INFLIGHT_SHMFD, GET_INFLIGHT_FD and SET_INFLIGHT_FD), for split rings.
 *
 * GET_INFLIGHT_FD makes a zeroed memory file; the frontend keeps it and
 * hands it back with SET_INFLIGHT_FD to every backend it connects to, so
 * a backend started after a crash finds there which requests the last one
 * took and never completed.  Per queue the region holds a header and one
 * 16-byte entry per descriptor (the spec's QueueRegionSplit and
 * DescStateSplit):
 *
 *   u64 features (0)  u16 version (1; 0: not yet initialised)
 *   u16 desc_num      u16 last_batch_head  u16 used_idx
 *   desc[desc_num]:   u8 inflight, u8 pad[5], u16 next, u64 counter
 *
 * each queue's part 64-byte aligned, queue i at i * vub_inflight_qsize().
 * The device model marks a head when it takes it (vub_inflight_take())
 * and clears it around its completion (vub_inflight_completing() before,
 * vub_inflight_completed() after).  When a ring starts, the first
 * vub_inflight_resubmit() calls hand back, oldest first, every request
 * the region says is in flight, as if just taken from the ring; new ones
 * come after.  Every field of the region is untrusted (the frontend can
 * write it): it is read once, checked, and a bad one drops the connection
 * with a "vhost-user: queue N: inflight region: ..." line.
 *
 * Packed rings are not tracked (the spec's packed layout is not built):
 * such a ring is served without tracking and says so once.
 */
#ifndef RIG_VHOST_USER_INFLIGHT_H
#define RIG_VHOST_USER_INFLIGHT_H

#include <stddef.h>
#include <stdint.h>
#include "vhost-user/protocol/backend.h"

/* Bytes of one queue's part of the region for rings of @queue_size. */
size_t vub_inflight_qsize(unsigned int queue_size);

/*
 * GET_INFLIGHT_FD: check @d's queue count and size, make the region, fill
 * in its size and offset.  The memory file's fd (the caller sends and
 * closes it), or -1 with the reason in @why.
 */
int vub_inflight_create(struct vub *vub, struct vhost_user_inflight *d,
			char *why, size_t whylen);
/* SET_INFLIGHT_FD: check @d against @fd and map it.  0, or -1 with @why. */
int vub_inflight_set(struct vub *vub, const struct vhost_user_inflight *d,
		     int fd, char *why, size_t whylen);
/* Unmap the region (disconnect, RESET_OWNER). */
void vub_inflight_drop(struct vub *vub);

/* @q starts: its region part is read again at the next resubmit call. */
void vub_inflight_queue_start(struct vub *vub, struct vub_queue *q);

/*
 * The next request to serve again on @q, its buffers in q->riov/wiov and
 * its head in *@head: 1, or 0 when none is left (serve the ring), or
 * negative: -EPROTO when the region is bad (reported; the connection
 * drops), else vringh refused the chain (the caller fails the queue).
 */
int vub_inflight_resubmit(struct vub *vub, struct vub_queue *q, u16 *head);

/* Mark @head of @q in flight (just taken from the ring). */
void vub_inflight_take(struct vub_queue *q, u16 head);
/* @head is about to be completed / has been: see the header comment. */
void vub_inflight_completing(struct vub_queue *q, u16 head);
void vub_inflight_completed(struct vub_queue *q, u16 head);

#endif /* RIG_VHOST_USER_INFLIGHT_H */
