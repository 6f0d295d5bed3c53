/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The backend (device) side of vhost-user: one frontend at a time on a unix
 * socket; its memory table mapped, each ring served through the vringh
 * _user API with a getrange callback that translates guest addresses one
 * memory region at a time.
 *
 * A device model (blk, net: vhost-user/backend/dev_models.c) fills in a struct vub_device:
 * the features it offers, its config space, and what to do when a queue is
 * kicked.  It reaches its rings only through the vringh API and the helpers
 * below, so a kernel tree's vringh.c (HOST=kernel) serves the same drivers.
 *
 * Every message is untrusted.  A message that breaks the protocol (bad
 * size, wrong order, a memory table that wraps or lacks its fds, a ring
 * outside every region, an index or ring size out of range) prints one
 * line "vhost-user: REQUEST: what was wrong" on stderr and drops the
 * connection (so does memory that faults: a memory file the frontend
 * shrank after we mapped it); vub_serve() then returns and the caller may
 * accept the next frontend.
 */
#ifndef RIG_VHOST_USER_BACKEND_H
#define RIG_VHOST_USER_BACKEND_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/uio.h>
#include <linux/vringh.h>
#include "vhost-user/protocol/wire.h"

/* blk: 16 request queues; net: 16 queue pairs and the control queue. */
#define VUB_MAX_QUEUES	33
#define VUB_MAX_RING	32768
#define VUB_IOV		16
/*
 * One event loop serves every queue (vhost-user/README says why): a queue
 * is served at most VUB_BUDGET buffers a turn, then the model sets
 * q->again and returns, and the loop serves the other queues (and the
 * socket) before it comes back to this one, kicked or not.
 */
#define VUB_BUDGET	256
/* Bytes of the window's scratch page each queue may use (inflight.c). */
#define VUB_SCRATCH_AVAIL	8

struct vub_inflight;

struct vub;

/* One virtqueue as the frontend set it up. */
struct vub_queue {
	struct vringh vrh;		/* valid while @started */
	struct vub *vub;
	unsigned int index;
	unsigned int num;		/* SET_VRING_NUM; 0: not set */
	bool addr_set;
	uint64_t desc, avail, used;	/* frontend addresses (SET_VRING_ADDR) */
	uint32_t base;			/* SET_VRING_BASE */
	int kick_fd, call_fd;		/* -1: none */
	bool kick_set;			/* SET_VRING_KICK seen */
	bool enabled;
	bool started;			/* vringh set up, being served */
	bool broken;			/* vringh refused the ring: not served */
	bool again;			/* used up its turn (VUB_BUDGET): serve again */
	/* For the device model: iovs it may use for one request at a time. */
	struct vringh_iov riov, wiov;
	struct iovec rvec[VUB_IOV], wvec[VUB_IOV];
	unsigned long kicks, calls;
};

struct vub_device {
	const char *name;
	uint64_t features;		/* virtio feature bits offered */
	uint64_t protocol_features;	/* vhost-user protocol bits offered */
	unsigned int num_queues;	/* queues the device has */
	/* Fill @len bytes of config space from @off; false if out of range. */
	bool (*get_config)(void *priv, uint32_t off, uint32_t len, uint8_t *buf);
	/* @q was kicked (or just started): serve what it holds. */
	void (*kick)(struct vub *vub, struct vub_queue *q);
	/* If set: called every 100 ms that passes without an event. */
	void (*tick)(struct vub *vub);
	/* @q is about to stop (GET_VRING_BASE, reset, disconnect). */
	void (*stop)(struct vub *vub, struct vub_queue *q);
	void *priv;
};

struct vub_region {
	uint64_t gpa, size, uva;
	uint8_t *host;			/* where the region's bytes are here */
};

struct vub {
	const struct vub_device *dev;
	int listen_fd, conn_fd;
	bool quiet;
	uint64_t features;		/* acked by SET_FEATURES */
	uint64_t last_features;		/* what the last frontend acked */
	bool features_set;
	uint64_t protocol_features;	/* acked */
	bool protocol_set;		/* SET_PROTOCOL_FEATURES seen */
	uint8_t status;			/* SET_STATUS */
	unsigned int status_msgs;	/* SET_STATUS messages (the last frontend) */
	unsigned int max_regions;	/* most regions one table had (the last frontend) */
	unsigned long kicks, calls;	/* kicks seen, calls sent (the last frontend) */
	unsigned int nregions;
	struct vub_region region[VHOST_USER_MAX_REGIONS];
	void *window;			/* one reservation holding every region */
	size_t window_len;
	/*
	 * The window's last page: the backend's own, inside the uaccess
	 * window but in no region, so no guest address reaches it.
	 */
	uint8_t *scratch;
	struct vub_inflight *inflight;	/* SET_INFLIGHT_FD's region, or NULL */
	struct vub_queue q[VUB_MAX_QUEUES];
	const char *error;		/* set when the connection must drop */
	unsigned long messages, errors;
};

/*
 * A protocol error, reported once: "vhost-user: WHAT: " and the message
 * of @fmt on stderr; the connection will be dropped, @error says why.
 * Returns -EPROTO.  (For the backend's own files: backend.c, inflight.c.)
 */
int vub_verror(struct vub *vub, const char *error, const char *what, const char *fmt,
	       va_list ap) __attribute__((format(printf, 4, 0)));

/* Listen on the unix socket @path (replacing a stale one).  -errno. */
int vub_listen(struct vub *vub, const struct vub_device *dev, const char *path);
/* Or connect to a frontend listening there.  -errno. */
int vub_connect(struct vub *vub, const struct vub_device *dev, const char *path);
/*
 * Serve one frontend until it disconnects or breaks the protocol (accepting
 * it first if listening).  0 when the frontend hung up cleanly, -EPROTO
 * after a protocol error (already reported), other -errno for socket
 * errors.  Everything the connection set up is released on return.
 */
int vub_serve(struct vub *vub);
void vub_close(struct vub *vub);

/*
 * The pieces vub_serve() is made of, for fuzzing and tests that drive the
 * backend without a listening socket: vub_init() a struct vub, set
 * conn_fd (replies go there), then vub_handle_msg() each received message
 * (0, or -EPROTO after a protocol error: drop the connection; an fd it
 * keeps is taken out of @fds, the caller closes the rest), vub_kick_all() to
 * serve every running queue as if kicked (-EPROTO if the frontend's memory
 * faulted: drop the connection), vub_disconnect() to release
 * everything the frontend set up and close conn_fd.
 */
void vub_init(struct vub *vub, const struct vub_device *dev);
int vub_handle_msg(struct vub *vub, struct vhost_user_msg *m,
		   struct vhost_user_fds *fds);
int vub_kick_all(struct vub *vub);
void vub_disconnect(struct vub *vub);

/* Feature @bit negotiated? */
static inline bool vub_has(const struct vub *vub, unsigned int bit)
{
	return vub->features & (1ull << bit);
}

/* The vringh getrange callback: one range per memory region. */
bool vub_getrange(struct vringh *vrh, u64 addr, struct vringh_range *r);
/* Ask vringh whether the driver wants an interrupt; signal it if so. */
void vub_queue_notify(struct vub_queue *q);
/* vringh refused the ring (@err): report it, stop serving the queue. */
void vub_queue_fail(struct vub_queue *q, int err, const char *what);

#endif /* RIG_VHOST_USER_BACKEND_H */
