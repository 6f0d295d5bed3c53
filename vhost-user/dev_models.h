/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Device models served over vhost-user (vhost-user/backend.h): a virtio-blk
 * disk and a virtio-net port.  They know their request formats and reach
 * the rings only through the vringh API.
 */
#ifndef RIG_VHOST_USER_DEV_MODELS_H
#define RIG_VHOST_USER_DEV_MODELS_H

#include <stdint.h>
#include <stdio.h>
#include "vhost-user/backend.h"

struct dev_torture;

struct blk_model {
	uint8_t *disk;			/* the whole disk, mapped */
	uint64_t size;			/* bytes, a multiple of 512 */
	int fd;				/* backing file, or -1 (memory) */
	const char *id;			/* GET_ID answer (at most 20 bytes) */
	unsigned int queue_size;	/* for seg_max */
	struct dev_torture *torture;	/* --torture, or NULL */
	unsigned long reads, writes, flushes, ids, bad;
	uint64_t bytes_read, bytes_written;
};

/* Fill @dev for @b, whose disk is set up.  @features: virtio bits to offer. */
void blk_model_init(struct vub_device *dev, struct blk_model *b, uint64_t features);

enum net_mode { NET_LOOPBACK, NET_SINK, NET_SOURCE };

struct net_model {
	enum net_mode mode;
	uint64_t frames;		/* source: how many to send (0: no end) */
	unsigned int window;		/* source: most frames in flight */
	/* Counters over the process's life. */
	uint64_t rx_frames, tx_frames, dropped, bad, returned;
	bool done;			/* source: every frame came back */
	bool counting;			/* source: a probe came back */
	uint64_t probes;		/* source: probe frames sent */
	FILE *report;			/* where "net: ..." result lines go */
	struct dev_torture *torture;	/* --torture, or NULL */
	/* Internal: a receive buffer taken and not yet filled. */
	bool rx_pending;
	u16 rx_head;
	uint8_t buf[65536 + 64];
};

void net_model_init(struct vub_device *dev, struct net_model *n, uint64_t features);
/* "net: mode=... rx=... tx=... dropped=... bad=..." */
void net_model_report(struct net_model *n, FILE *f);

#endif /* RIG_VHOST_USER_DEV_MODELS_H */
