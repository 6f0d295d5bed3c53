/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vhost_user_frontend: the driver (virtio_ring.c through the kernel API)
 * against a vhost-user backend in another process.  What the program's
 * parts share: the connection, the shared memory, the queues, waiting with
 * a timeout, failing with the ring state.  vhost_user_frontend.c sets up
 * and tears down, requests.c holds the device models (net, blk), torture.c
 * the backend torture cases.
 */
#ifndef RIG_VU_FRONTEND_PROG_H
#define RIG_VU_FRONTEND_PROG_H

#include <stdbool.h>
#include <stdint.h>

#include <linux/virtio.h>

#include "harness/arena.h"
#include "vhost-user/protocol/frontend.h"

#define VT_MAX_QUEUES	16

enum vt_device { VT_NET, VT_BLK };

struct vt_queue {
	struct virtqueue *vq;
	char name[32];		/* the queue's name, which the ring keeps */
	unsigned int index;
	unsigned int num;
	int kick_fd, call_fd;
	unsigned long added, used;	/* buffers */
	unsigned long kicks;
	bool enabled;
};

struct vt {
	/* Options. */
	const char *socket;
	enum vt_device device;
	bool packed, in_order, poll;
	uint64_t ring_features;		/* INDIRECT_DESC, EVENT_IDX: rig_feature_option() */
	unsigned int ring_size;
	unsigned int queues;		/* net: pairs; blk: request queues */
	unsigned long count;		/* frames or requests; 0: no bound */
	unsigned long seconds;		/* 0: no bound */
	unsigned int timeout_ms;	/* longest wait for anything */
	unsigned int frame_len;		/* 0: varying */
	unsigned int burst;		/* net: frames in flight, benchmark mode; 0: off */
	unsigned long seed;
	int peer_pid;			/* 0: not watched */
	int cpu;			/* -1: the last allowed one */
	const char *torture;		/* a case name, or NULL */

	/* State. */
	struct vu_front front;
	struct vu_region region;
	struct rig_arena arena;
	struct virtio_device vdev;
	struct vt_queue q[VT_MAX_QUEUES];
	unsigned int nq;
	uint64_t device_features;	/* what the backend offered */
	uint8_t status;
	unsigned long calls;		/* wakeups by a call eventfd */
	unsigned long long start_ns;
};

extern struct vt vt;

unsigned long long vt_now_ns(void);

/* Stop with a message, the ring state of every queue, and exit 1. */
void vt_fail(const char *fmt, ...)
	__attribute__((noreturn, format(printf, 1, 2)));

/* Set-up and tear-down (vhost_user_frontend.c). */
void vt_connect(void);
void vt_start_queues(unsigned int n);
void vt_stop_queues(bool check);

/* Kick @q if the ring code says the device wants it. */
void vt_kick(struct vt_queue *q);

/*
 * Nothing to do until the backend uses a buffer: turn callbacks on, and
 * if nothing is pending sleep on the call eventfds (with --poll, just
 * look again).  Fails after vt.timeout_ms without progress, on a closed
 * socket or a dead peer.  @what says what we wait for, for the message.
 */
void vt_wait(const char *what);
/* Note progress (a buffer came back): the idle clock restarts. */
void vt_progress(void);

/* A buffer of @size bytes in shared memory; fails when memory is full. */
void *vt_alloc(size_t size);

/* Random numbers: xorshift64*, seeded by --seed. */
uint64_t vt_random(void);

/* The device models: run the traffic, print the figures, 0 on success. */
int vt_net_run(void);
int vt_blk_run(void);

/* The torture mode (runs instead of the device model). */
int vt_torture_run(void);
void vt_torture_list(void);
bool vt_torture_known(const char *name);

#endif /* RIG_VU_FRONTEND_PROG_H */
