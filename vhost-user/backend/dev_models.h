/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Device models served over vhost-user (vhost-user/protocol/backend.h): a virtio-blk
 * disk and a virtio-net port.  They know their request formats and reach
 * the rings only through the vringh API.
 */
#ifndef RIG_VHOST_USER_DEV_MODELS_H
#define RIG_VHOST_USER_DEV_MODELS_H

#include <stdint.h>
#include <stdio.h>
#include "vhost-user/protocol/backend.h"

struct dev_torture;

struct blk_model {
	uint8_t *disk;			/* the whole disk, mapped */
	uint64_t size;			/* bytes, a multiple of 512 */
	int fd;				/* backing file, or -1 (memory) */
	const char *id;			/* GET_ID answer (at most 20 bytes) */
	unsigned int queue_size;	/* for seg_max */
	unsigned int queues;		/* request queues (0: 1); >1 offers VIRTIO_BLK_F_MQ */
	struct dev_torture *torture;	/* --torture, or NULL */
	unsigned long hold_after;	/* --hold-after: 0, or when to start holding */
	unsigned int held;		/* requests held (never completed) */
	bool hold_skip;			/* the next one is served */
	unsigned long reads, writes, flushes, ids, unsupp, bad;
	uint64_t bytes_read, bytes_written;
};

/* Fill @dev for @b, whose disk is set up.  @features: virtio bits to offer. */
void blk_model_init(struct vub_device *dev, struct blk_model *b, uint64_t features);

enum net_mode { NET_LOOPBACK, NET_SINK, NET_SOURCE };

#define NET_MAX_PAIRS	16

/* One queue pair: receive queue 2p, transmit queue 2p + 1. */
struct net_pair {
	uint64_t sent, returned;	/* source: this pair's counted frames */
	/* A receive buffer taken and not yet filled. */
	bool rx_pending;
	u16 rx_head;
};

/*
 * struct virtio_net_config as this device serves it (GET_CONFIG, with
 * VIRTIO_NET_F_MAC, _STATUS and _MTU offered; max_virtqueue_pairs with
 * _MQ): net_model_init() fills it in, and the device serves whatever it
 * holds, so a config lie is a change to it.
 */
struct net_config {
	uint8_t mac[6];
	uint16_t status;		/* VIRTIO_NET_S_LINK_UP */
	uint16_t max_virtqueue_pairs;
	uint16_t mtu;
};

struct net_model {
	enum net_mode mode;
	uint64_t frames;		/* source: how many to send (0: no end) */
	unsigned int window;		/* source: most frames in flight per pair */
	unsigned int pairs;		/* queue pairs offered (0: 1); >1 offers MQ and a control queue */
	struct net_config config;
	/* Counters over the process's life (every pair). */
	uint64_t rx_frames, tx_frames, dropped, bad, returned;
	uint64_t ctrl_ok, ctrl_err;	/* control commands answered OK, ERR */
	unsigned int pairs_run;		/* 1 + the highest pair that ran */
	bool done;			/* source: every frame came back */
	bool counting;			/* source: a probe came back */
	uint64_t probes;		/* source: probe frames sent */
	FILE *report;			/* where "net: ..." result lines go */
	struct dev_torture *torture;	/* --torture, or NULL */
	/* Internal. */
	unsigned int active_pairs;	/* VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET */
	struct net_pair pair[NET_MAX_PAIRS];
	uint8_t buf[65536 + 64];
};

void net_model_init(struct vub_device *dev, struct net_model *n, uint64_t features);
/* "net: mode=... rx=... tx=... dropped=... bad=..." */
void net_model_report(struct net_model *n, FILE *f);

#endif /* RIG_VHOST_USER_DEV_MODELS_H */
