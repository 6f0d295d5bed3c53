/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The frontend (driver) side of vhost-user: connect to a backend's socket,
 * negotiate, hand it the memory table and the rings, stop the rings and
 * disconnect.  Protocol only: which rings and what goes in them is the
 * caller's business.  Built on vhost-user/protocol/wire.[ch] (the wire format).
 *
 * Every call waits at most f->timeout_ms for an answer.  On failure it
 * returns a negative errno and leaves one line saying what happened in
 * f->why ("GET_FEATURES: the backend closed the connection"); nothing is
 * printed, so a caller probing a misbehaving backend decides what to say.
 *
 * Memory: one memfd region mapped shared, sent with SET_MEM_TABLE with
 * guest_phys_addr == userspace_addr == our mapping, so the addresses the
 * ring code writes into descriptors are valid for the backend as they are.
 */
#ifndef RIG_VHOST_USER_FRONTEND_H
#define RIG_VHOST_USER_FRONTEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vhost-user/protocol/wire.h"

/* Memory the backend maps: a memfd, mapped once at @addr. */
struct vu_region {
	void *addr;
	size_t size;
	int fd;
};

/* Create a zeroed shared region of @size bytes; false (errno set) on failure. */
bool vu_region_create(struct vu_region *r, size_t size);
void vu_region_destroy(struct vu_region *r);

struct vu_front {
	int sock;
	int timeout_ms;		/* per answer */
	uint64_t features;	/* what GET_FEATURES offered */
	uint64_t protocol_features; /* offered, then what SET_PROTOCOL_FEATURES acked */
	bool acked_protocol;	/* VHOST_USER_F_PROTOCOL_FEATURES was acked */
	bool reply_ack;		/* REPLY_ACK negotiated: every set is confirmed */
	unsigned long sent;	/* messages sent */
	char why[256];
};

/*
 * Connect to the backend listening on @path, retrying until @timeout_ms
 * passes (the socket may not exist yet).  Sets f->timeout_ms.
 */
int vu_connect(struct vu_front *f, const char *path, int timeout_ms);
/* Close the connection (a clean disconnect: the backend sees EOF). */
void vu_disconnect(struct vu_front *f);

int vu_get_features(struct vu_front *f, uint64_t *features);
int vu_set_features(struct vu_front *f, uint64_t features);
int vu_get_protocol_features(struct vu_front *f, uint64_t *features);
/* Sets f->protocol_features and f->reply_ack from what is acked. */
int vu_set_protocol_features(struct vu_front *f, uint64_t features);
int vu_set_owner(struct vu_front *f);
int vu_get_queue_num(struct vu_front *f, uint64_t *num);
int vu_set_mem_table(struct vu_front *f, const struct vu_region *r,
		     unsigned int n);
int vu_set_vring_num(struct vu_front *f, unsigned int idx, unsigned int num);
/* Split: avail index; packed: next index | driver wrap counter << 15. */
int vu_set_vring_base(struct vu_front *f, unsigned int idx, unsigned int base);
/* Stops the ring; *base as vu_set_vring_base()'s. */
int vu_get_vring_base(struct vu_front *f, unsigned int idx, unsigned int *base);
/*
 * The ring's three parts as frontend addresses: split desc/avail/used;
 * packed: descriptor ring, driver and device event suppression areas.
 */
int vu_set_vring_addr(struct vu_front *f, unsigned int idx, uint64_t desc,
		      uint64_t avail, uint64_t used);
/* @fd < 0 sends the "no fd" bit (the backend polls, or never calls). */
int vu_set_vring_kick(struct vu_front *f, unsigned int idx, int fd);
int vu_set_vring_call(struct vu_front *f, unsigned int idx, int fd);
int vu_set_vring_enable(struct vu_front *f, unsigned int idx, bool on);
int vu_set_status(struct vu_front *f, uint8_t status);
int vu_get_config(struct vu_front *f, uint32_t offset, uint32_t size,
		  void *buf);

/*
 * Send any message (the torture mode's malformed ones too), with
 * @nfds descriptors; wait for a reply when @reply is given (for a GET, or
 * the REPLY_ACK u64 when NEED_REPLY is in the flags).
 */
int vu_request(struct vu_front *f, struct vhost_user_msg *msg,
	       const int *fds, unsigned int nfds,
	       struct vhost_user_msg *reply);

/* Is the connection still up (no EOF or error waiting on the socket)? */
bool vu_alive(struct vu_front *f);

#endif /* RIG_VHOST_USER_FRONTEND_H */
