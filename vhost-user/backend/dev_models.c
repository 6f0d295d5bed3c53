// SPDX-License-Identifier: GPL-2.0
/*
 * virtio-blk and virtio-net device models for the vhost-user backend: see
 * vhost-user/backend/dev_models.h.  Request formats: virtio 1.2 sections 5.2 (block) and
 * 5.1 (network).
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <linux/vringh.h>
#include <linux/virtio_config.h>
#include "harness/harness.h"
#include "vhost-user/backend/dev_models.h"
#include "vhost-user/backend/dev_torture.h"
#include "vhost-user/protocol/inflight.h"

/* Bytes left in an iov from where it stands. */
static size_t iov_left(const struct vringh_iov *v)
{
	size_t n = 0;
	unsigned int i;

	for (i = v->i; i < v->used; i++)
		n += v->iov[i].iov_len;
	return n;
}

/*
 * What a model's one-request handler may return instead of a length: the
 * request is held (taken, left in flight, never completed), and serving
 * goes on or, with DEV_HELD_LAST, stops.
 */
#define DEV_HELD	(-2L)
#define DEV_HELD_LAST	(-3L)

/* Complete @head, its inflight mark cleared around the used index moving. */
static int serve_complete(struct dev_torture *t, struct vub_queue *q, u16 head, u32 len)
{
	int rc;

	vub_inflight_completing(q, head);
	rc = dev_complete(t, q, head, len);
	if (rc >= 0)
		vub_inflight_completed(q, head);
	return rc;
}

/*
 * Serve @q until the driver has nothing more: first what a backend before
 * us left in flight (vhost-user/protocol/inflight.h), then the ring.  @one handles
 * one request (returns the bytes it wrote into the buffer, negative to
 * complete it with 0, or DEV_HELD/DEV_HELD_LAST).
 */
static void serve_queue(struct vub *vub, struct vub_queue *q,
			long (*one)(struct vub *vub, struct vub_queue *q),
			struct dev_torture *t)
{
	unsigned int served = 0;

	vringh_notify_disable_user(&q->vrh);
	for (;;) {
		u16 head;
		long len;
		int rc;

		if (served++ == VUB_BUDGET) {
			q->again = true;	/* the other queues' turn */
			break;
		}
		rc = vub_inflight_resubmit(vub, q, &head);
		if (rc == -EPROTO)
			return;		/* reported: the connection drops */
		if (rc == 0) {
			rc = vringh_getdesc_user(&q->vrh, &q->riov, &q->wiov,
						 vub_getrange, &head);
			if (rc > 0)
				vub_inflight_take(q, head);
		}
		if (rc < 0) {
			vub_queue_fail(q, rc, "getdesc");
			return;
		}
		if (rc == 0) {
			if (vringh_notify_enable_user(&q->vrh))
				break;
			vringh_notify_disable_user(&q->vrh);
			continue;
		}
		len = one(vub, q);
		if (len == DEV_HELD)
			continue;
		if (len == DEV_HELD_LAST)
			break;
		rc = serve_complete(t, q, head, len < 0 ? 0 : len);
		if (rc < 0) {
			vub_queue_fail(q, rc, "complete");
			return;
		}
	}
	vub_queue_notify(q);
}

/* ---- virtio-blk ---- */

#define VIRTIO_BLK_F_SEG_MAX	2
#define VIRTIO_BLK_F_BLK_SIZE	6
#define VIRTIO_BLK_F_FLUSH	9
#define VIRTIO_BLK_F_MQ		12
#define VIRTIO_BLK_T_IN		0
#define VIRTIO_BLK_T_OUT	1
#define VIRTIO_BLK_T_FLUSH	4
#define VIRTIO_BLK_T_GET_ID	8
#define VIRTIO_BLK_S_OK		0
#define VIRTIO_BLK_S_IOERR	1
#define VIRTIO_BLK_S_UNSUPP	2
#define VIRTIO_BLK_ID_BYTES	20

static void blk_bad(struct blk_model *b, const char *what)
{
	if (b->bad++ < 10)
		fprintf(stderr, "vhost-blk: bad request: %s\n", what);
}

/* Push @len zero bytes (padding up to the status byte). */
static bool push_zeros(struct vringh_iov *w, size_t len)
{
	static const uint8_t zero[512];

	while (len) {
		size_t n = len < sizeof(zero) ? len : sizeof(zero);

		if (vringh_iov_push_user(w, zero, n) != (ssize_t)n)
			return false;
		len -= n;
	}
	return true;
}

/*
 * --hold-after=N: once N requests were served, every other request taken
 * is held (never completed), up to BLK_HOLD of them, so that a restart
 * test kills the backend with requests in flight, completed out of order.
 */
#define BLK_HOLD	4

static bool blk_hold(struct blk_model *b, struct vub_queue *q)
{
	unsigned long served = b->reads + b->writes + b->flushes + b->ids + b->unsupp;

	if (!b->hold_after || served < b->hold_after || b->held >= BLK_HOLD)
		return false;
	if (b->hold_skip) {
		b->hold_skip = false;
		return false;
	}
	b->hold_skip = true;
	b->held++;
	printf("blk: holding %u requests in flight (queue %u) after serving %lu\n",
	       b->held, q->index, served);
	fflush(stdout);
	return true;
}

static long blk_one(struct vub *vub, struct vub_queue *q)
{
	struct blk_model *b = vub->dev->priv;
	struct { uint32_t type, ioprio; uint64_t sector; } hdr;
	size_t wlen = iov_left(&q->wiov), dlen = 0, done = 0;
	uint8_t status = VIRTIO_BLK_S_OK;
	uint64_t off;

	if (vringh_iov_pull_user(&q->riov, &hdr, sizeof(hdr)) != sizeof(hdr)) {
		blk_bad(b, "no 16-byte header");
		return 0;
	}
	if (wlen < 1) {
		blk_bad(b, "no status byte");
		return 0;
	}
	if (blk_hold(b, q))
		return b->held >= BLK_HOLD ? DEV_HELD_LAST : DEV_HELD;
	off = le64toh(hdr.sector) * 512;
	switch (le32toh(hdr.type)) {
	case VIRTIO_BLK_T_IN:
	case VIRTIO_BLK_T_OUT: {
		bool in = le32toh(hdr.type) == VIRTIO_BLK_T_IN;
		ssize_t r;

		dlen = in ? wlen - 1 : iov_left(&q->riov);
		if (le64toh(hdr.sector) > b->size / 512 || dlen > b->size - off ||
		    dlen % 512) {
			status = VIRTIO_BLK_S_IOERR;
			break;
		}
		if (in) {
			r = vringh_iov_push_user(&q->wiov, b->disk + off, dlen);
			b->reads++;
			b->bytes_read += dlen;
		} else {
			r = vringh_iov_pull_user(&q->riov, b->disk + off, dlen);
			b->writes++;
			b->bytes_written += dlen;
		}
		if (r != (ssize_t)dlen) {
			blk_bad(b, "data buffer not accessible");
			status = VIRTIO_BLK_S_IOERR;
		}
		if (in && r > 0)
			done = r;
		break;
	}
	case VIRTIO_BLK_T_FLUSH:
		b->flushes++;
		if (b->fd >= 0 && msync(b->disk, b->size, MS_SYNC))
			status = VIRTIO_BLK_S_IOERR;
		break;
	case VIRTIO_BLK_T_GET_ID: {
		char id[VIRTIO_BLK_ID_BYTES] = { 0 };
		size_t n = wlen - 1 < sizeof(id) ? wlen - 1 : sizeof(id);

		b->ids++;
		memcpy(id, b->id, strnlen(b->id, sizeof(id)));
		if (vringh_iov_push_user(&q->wiov, id, n) == (ssize_t)n)
			done = n;
		else
			status = VIRTIO_BLK_S_IOERR;
		break;
	}
	default:
		b->unsupp++;
		status = VIRTIO_BLK_S_UNSUPP;
	}
	if (!push_zeros(&q->wiov, wlen - 1 - done) ||
	    vringh_iov_push_user(&q->wiov, &status, 1) != 1) {
		blk_bad(b, "status byte not accessible");
		return 0;
	}
	return wlen;
}

static void blk_kick(struct vub *vub, struct vub_queue *q)
{
	struct blk_model *b = vub->dev->priv;

	if (b->hold_after && b->held >= BLK_HOLD)
		return;		/* holding: take nothing more */
	serve_queue(vub, q, blk_one, b->torture);
}

/* @len bytes at @off of a config space of VHOST_USER_MAX_CONFIG_SIZE? */
static bool config_range_ok(uint32_t off, uint32_t len)
{
	return off <= VHOST_USER_MAX_CONFIG_SIZE && len <= VHOST_USER_MAX_CONFIG_SIZE - off;
}

/*
 * struct virtio_blk_config: capacity (0), size_max (8), seg_max (12),
 * geometry (16), blk_size (20), topology (24), writeback (32), num_queues
 * (34).
 */
static bool blk_get_config(void *priv, uint32_t off, uint32_t len, uint8_t *buf)
{
	struct blk_model *b = priv;
	uint8_t cfg[VHOST_USER_MAX_CONFIG_SIZE] = { 0 };
	uint64_t cap = htole64(b->size / 512);
	uint32_t seg_max = htole32(b->queue_size - 2), blk_size = htole32(512);
	uint16_t nq = htole16(b->queues);

	if (!config_range_ok(off, len))
		return false;
	memcpy(cfg + 0, &cap, 8);
	memcpy(cfg + 12, &seg_max, 4);
	memcpy(cfg + 20, &blk_size, 4);
	memcpy(cfg + 34, &nq, 2);
	dev_torture_blk_config(b->torture, cfg);
	memcpy(buf, cfg + off, len);
	return true;
}

void blk_model_init(struct vub_device *dev, struct blk_model *b, uint64_t features)
{
	memset(dev, 0, sizeof(*dev));
	if (!b->queue_size)
		b->queue_size = 128;
	if (!b->queues)
		b->queues = 1;
	dev->name = "blk";
	dev->features = features | (1ull << VIRTIO_BLK_F_SEG_MAX) |
		(1ull << VIRTIO_BLK_F_BLK_SIZE) | (1ull << VIRTIO_BLK_F_FLUSH);
	if (b->queues > 1)
		dev->features |= 1ull << VIRTIO_BLK_F_MQ;
	dev->protocol_features = (1ull << VHOST_USER_PROTOCOL_F_CONFIG) |
		(1ull << VHOST_USER_PROTOCOL_F_REPLY_ACK) |
		(1ull << VHOST_USER_PROTOCOL_F_STATUS) |
		(1ull << VHOST_USER_PROTOCOL_F_MQ) |
		(1ull << VHOST_USER_PROTOCOL_F_INFLIGHT_SHMFD);
	dev->num_queues = b->queues;
	dev->get_config = blk_get_config;
	dev->kick = blk_kick;
	dev->priv = b;
}

/* ---- virtio-net ---- */

#define VIRTIO_NET_F_MTU	3
#define VIRTIO_NET_F_MAC	5
#define VIRTIO_NET_F_MRG_RXBUF	15
#define VIRTIO_NET_F_STATUS	16
#define VIRTIO_NET_F_CTRL_VQ	17
#define VIRTIO_NET_F_MQ		22
#define VIRTIO_NET_S_LINK_UP	1
#define VIRTIO_NET_OK		0
#define VIRTIO_NET_ERR		1
#define VIRTIO_NET_CTRL_MQ	4
#define VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET	0
#define ETH_P_RIG		0x88b5

/* The virtio-net header: 12 bytes in virtio 1.x or with MRG_RXBUF. */
static size_t net_hdr_len(struct vub *vub)
{
	return vub_has(vub, VIRTIO_F_VERSION_1) || vub_has(vub, VIRTIO_NET_F_MRG_RXBUF) ?
		12 : 10;
}

/*
 * Source frame @id after a header of @hdr bytes: returns the total.  @id is
 * the frame's sequence number on its pair, the pair in bits 48-62 (so pair
 * 0's frames are those of a single-queue device) or NET_PROBE.
 */
static size_t net_make_frame(uint8_t *f, size_t hdr, uint64_t id)
{
	static const uint8_t macs[12] = { 2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2 };
	size_t len = 60 + (id * 97) % (1514 - 60 + 1), i;
	uint64_t le = htole64(id);

	memset(f, 0, hdr);
	if (hdr == 12)
		f[10] = 1;	/* num_buffers */
	f += hdr;
	memcpy(f, macs, 12);
	f[12] = ETH_P_RIG >> 8;
	f[13] = ETH_P_RIG & 0xff;
	memcpy(f + 14, &le, 8);
	for (i = 22; i < len; i++)
		f[i] = (uint8_t)(id * 31 + i);
	return hdr + len;
}

static uint64_t net_frame_id(unsigned int pair, uint64_t seq)
{
	return seq | (uint64_t)pair << 48;
}

/*
 * Source mode starts with probes: a driver may drop what it receives before
 * it is ready (testpmd flushes its receive queues when forwarding starts).
 * Every 100 ms one probe frame (sequence number with the top bit set) goes
 * out on pair 0 until one comes back; only then do the counted frames
 * start, on every pair.
 */
#define NET_PROBE	(1ull << 63)

static bool net_has_ctrl(const struct net_model *n)
{
	return n->pairs > 1;
}

/* The pairs the negotiated device has: all with MQ, else one. */
static unsigned int net_pairs(struct vub *vub, const struct net_model *n)
{
	return vub_has(vub, VIRTIO_NET_F_MQ) ? n->pairs : 1;
}

/*
 * What queue @index is to the negotiated device (virtio 5.1.2): receive
 * 2p and transmit 2p + 1 of pair p (*@pair) for each pair, then the
 * control queue if VIRTIO_NET_F_CTRL_VQ was negotiated (index 2 without
 * MQ).  A queue past those is no part of the device: never served.
 */
enum net_role { NET_PAIR, NET_CTRL, NET_NONE };

static enum net_role net_role(struct vub *vub, const struct net_model *n,
			      unsigned int index, unsigned int *pair)
{
	unsigned int pairs = net_pairs(vub, n);

	*pair = index / 2;
	if (index < 2 * pairs)
		return NET_PAIR;
	if (index == 2 * pairs && net_has_ctrl(n) && vub_has(vub, VIRTIO_NET_F_CTRL_VQ))
		return NET_CTRL;
	return NET_NONE;
}

/*
 * The pairs the driver uses: all it enabled, unless it negotiated the
 * control queue, which says how many (one until then: virtio 5.1.6.5.5).
 */
static unsigned int net_pairs_in_use(struct vub *vub, const struct net_model *n)
{
	if (vub_has(vub, VIRTIO_NET_F_CTRL_VQ) && vub_has(vub, VIRTIO_NET_F_MQ))
		return n->active_pairs;
	return net_pairs(vub, n);
}

/* Pair @p's two queues both run. */
static bool net_pair_runs(struct vub *vub, unsigned int p)
{
	const struct vub_queue *rx = &vub->q[2 * p], *tx = &vub->q[2 * p + 1];

	return rx->started && !rx->broken && tx->started && !tx->broken;
}

/* Take a receive buffer into @pr's pending one; false if none. */
static bool net_take_rx(struct vub_queue *rx, struct net_pair *pr, bool *failed)
{
	int rc;

	if (pr->rx_pending)
		return true;
	rc = vringh_getdesc_user(&rx->vrh, &rx->riov, &rx->wiov, vub_getrange,
				 &pr->rx_head);
	if (rc < 0) {
		vub_queue_fail(rx, rc, "getdesc");
		*failed = true;
	}
	pr->rx_pending = rc > 0;
	return rc > 0;
}

/* Fill @pr's pending receive buffer with @len bytes of n->buf and use it. */
static bool net_give_rx(struct vub_queue *rx, struct net_model *n, struct net_pair *pr,
			size_t len, bool *failed)
{
	int rc;

	if (iov_left(&rx->wiov) < len ||
	    vringh_iov_push_user(&rx->wiov, n->buf, len) != (ssize_t)len) {
		n->dropped++;
		return false;	/* too small: keep it for the next frame */
	}
	pr->rx_pending = false;
	rc = dev_complete(n->torture, rx, pr->rx_head, len);
	if (rc < 0) {
		vub_queue_fail(rx, rc, "complete");
		*failed = true;
		return false;
	}
	n->rx_frames++;
	return true;
}

/* Source: a frame of @len bytes in n->buf came back on pair @p. */
static void net_check_returned(struct vub *vub, struct net_model *n, unsigned int p,
			       size_t len)
{
	static uint8_t want[65536 + 64];
	struct net_pair *pr = &n->pair[p];
	size_t hdr = net_hdr_len(vub), wl;
	uint64_t id;

	memcpy(&id, n->buf + hdr + 14, 8);
	if (len >= hdr + 22 && (le64toh(id) & NET_PROBE)) {
		unsigned int i;

		n->tx_frames--;
		n->counting = true;	/* the driver is ready: every pair sends */
		for (i = 0; i < n->pairs; i++)
			vub->q[2 * i + 1].again = true;
		return;
	}
	wl = net_make_frame(want, hdr, net_frame_id(p, pr->returned));
	if ((len != wl || memcmp(n->buf + hdr, want + hdr, len - hdr)) && n->bad++ < 5)
		fprintf(stderr, "vhost-net: pair %u: frame %llu came back wrong (%zu bytes, wanted %zu)\n",
			p, (unsigned long long)pr->returned, len, wl);
	pr->returned++;
	n->returned++;
}

/*
 * One step of work on pair @p: 1 if something moved, 0 if blocked (wait_rx
 * or wait_tx say on which empty queue), -1 if a queue broke.
 */
static int net_step(struct vub *vub, struct net_model *n, unsigned int p,
		    bool *wait_rx, bool *wait_tx)
{
	struct vub_queue *rx = &vub->q[2 * p], *tx = &vub->q[2 * p + 1];
	struct net_pair *pr = &n->pair[p];
	size_t hdr = net_hdr_len(vub), len;
	bool failed = false;
	u16 head;
	int rc;

	if (n->mode == NET_SOURCE && n->counting && n->returned < n->frames && !n->done &&
	    n->rx_frames < n->frames && pr->sent - pr->returned < n->window &&
	    p < net_pairs_in_use(vub, n)) {
		if (net_take_rx(rx, pr, &failed)) {
			len = net_make_frame(n->buf, hdr, net_frame_id(p, pr->sent));
			if (net_give_rx(rx, n, pr, len, &failed))
				pr->sent++;
			return failed ? -1 : 1;
		}
		if (failed)
			return -1;
		*wait_rx = true;
	}
	if (n->mode == NET_LOOPBACK && !net_take_rx(rx, pr, &failed)) {
		*wait_rx = true;
		return failed ? -1 : 0;
	}
	rc = vringh_getdesc_user(&tx->vrh, &tx->riov, &tx->wiov, vub_getrange, &head);
	if (rc < 0) {
		vub_queue_fail(tx, rc, "getdesc");
		return -1;
	}
	if (rc == 0) {
		*wait_tx = true;
		return 0;
	}
	len = iov_left(&tx->riov);
	if (len > sizeof(n->buf) || len < hdr ||
	    vringh_iov_pull_user(&tx->riov, n->buf, len) != (ssize_t)len) {
		n->bad++;
	} else {
		n->tx_frames++;
		if (n->mode == NET_LOOPBACK) {
			if (hdr == 12) {
				n->buf[10] = 1;		/* num_buffers */
				n->buf[11] = 0;
			}
			net_give_rx(rx, n, pr, len, &failed);
		} else if (n->mode == NET_SOURCE) {
			net_check_returned(vub, n, p, len);
		}
	}
	rc = dev_complete(n->torture, tx, head, 0);
	if (rc < 0) {
		vub_queue_fail(tx, rc, "complete");
		return -1;
	}
	return failed ? -1 : 1;
}

void net_model_report(struct net_model *n, FILE *f)
{
	static const char *const names[] = { "loopback", "sink", "source" };

	fprintf(f, "net: mode=%s rx=%llu tx=%llu", names[n->mode],
		(unsigned long long)n->rx_frames, (unsigned long long)n->tx_frames);
	/* Only a source checks frames back and probes first. */
	if (n->mode == NET_SOURCE)
		fprintf(f, " returned=%llu", (unsigned long long)n->returned);
	fprintf(f, " dropped=%llu bad=%llu", (unsigned long long)n->dropped,
		(unsigned long long)n->bad);
	if (n->mode == NET_SOURCE)
		fprintf(f, " probes=%llu", (unsigned long long)n->probes);
	/* A frontend that ran one pair and no control queue: the line ends. */
	if (n->pairs_run > 1 || n->ctrl_ok || n->ctrl_err) {
		unsigned int p;

		fprintf(f, " ctrl_ok=%llu ctrl_err=%llu rx_per_pair=",
			(unsigned long long)n->ctrl_ok, (unsigned long long)n->ctrl_err);
		for (p = 0; p < n->pairs_run || p == 0; p++)
			fprintf(f, "%s%llu", p ? "," : "", (unsigned long long)n->pair[p].sent);
	}
	fputc('\n', f);
	fflush(f);
}

/* Move frames on pair @p until it is blocked or has used up its turn. */
static void net_serve_pair(struct vub *vub, struct net_model *n, unsigned int p)
{
	struct vub_queue *rx = &vub->q[2 * p], *tx = &vub->q[2 * p + 1];
	unsigned int steps = 0;

	/* Both queues must run: frames move from one to the other. */
	if (!net_pair_runs(vub, p))
		return;
	if (p >= n->pairs_run)
		n->pairs_run = p + 1;
	vringh_notify_disable_user(&rx->vrh);
	vringh_notify_disable_user(&tx->vrh);
	for (;;) {
		bool wait_rx = false, wait_tx = false, more = false;
		int r;

		while ((r = net_step(vub, n, p, &wait_rx, &wait_tx)) > 0) {
			if (++steps % 64 == 0) {
				vub_queue_notify(rx);
				vub_queue_notify(tx);
			}
			if (steps == VUB_BUDGET)
				break;
		}
		if (r > 0) {
			tx->again = true;	/* the other queues' turn */
			break;
		}
		if (r < 0)
			break;
		if (wait_rx && !vringh_notify_enable_user(&rx->vrh)) {
			vringh_notify_disable_user(&rx->vrh);
			more = true;
		}
		if (wait_tx && !vringh_notify_enable_user(&tx->vrh)) {
			vringh_notify_disable_user(&tx->vrh);
			more = true;
		}
		if (!more)
			break;
	}
	vub_queue_notify(rx);
	vub_queue_notify(tx);
}

/*
 * One control command (virtio 5.1.6.5): class, command, its data, and the
 * ack byte the device writes.  Only VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET is
 * served; anything else, or a pair count out of 1..max_virtqueue_pairs,
 * is answered VIRTIO_NET_ERR and said on stderr.
 */
static long net_ctrl_one(struct vub *vub, struct vub_queue *q)
{
	struct net_model *n = vub->dev->priv;
	size_t wlen = iov_left(&q->wiov);
	uint8_t hdr[2] = { 0, 0 }, ack = VIRTIO_NET_ERR;
	const char *why = NULL;
	uint16_t pairs = 0;

	if (wlen < 1)
		why = "no writable ack byte";
	else if (vringh_iov_pull_user(&q->riov, hdr, 2) != 2)
		why = "no 2-byte class and command";
	else if (hdr[0] != VIRTIO_NET_CTRL_MQ || hdr[1] != VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET)
		why = "class and command not supported";
	else if (!vub_has(vub, VIRTIO_NET_F_MQ))
		why = "VQ_PAIRS_SET without VIRTIO_NET_F_MQ negotiated";
	else if (vringh_iov_pull_user(&q->riov, &pairs, 2) != 2)
		why = "VQ_PAIRS_SET without its 2-byte pair count";
	else if (le16toh(pairs) < 1 || le16toh(pairs) > n->pairs)
		why = "VQ_PAIRS_SET pair count out of range";
	if (why) {
		n->ctrl_err++;
		if (n->ctrl_err <= 10)
			fprintf(stderr, "vhost-net: ctrl: %s (class %u, command %u, pairs %u, device has 1..%u)\n",
				why, hdr[0], hdr[1], le16toh(pairs), n->pairs);
		if (wlen < 1)
			return 0;
	} else {
		n->active_pairs = le16toh(pairs);
		n->ctrl_ok++;
		ack = VIRTIO_NET_OK;
	}
	if (!push_zeros(&q->wiov, wlen - 1) || vringh_iov_push_user(&q->wiov, &ack, 1) != 1)
		return 0;
	return wlen;
}

static void net_kick(struct vub *vub, struct vub_queue *q)
{
	struct net_model *n = vub->dev->priv;
	unsigned int p;

	switch (net_role(vub, n, q->index, &p)) {
	case NET_CTRL:
		serve_queue(vub, q, net_ctrl_one, n->torture);
		break;
	case NET_PAIR:
		net_serve_pair(vub, n, p);
		break;
	case NET_NONE:
		break;
	}
	if (n->mode == NET_SOURCE && n->frames && !n->done && n->returned >= n->frames) {
		n->done = true;
		net_model_report(n, n->report ? n->report : stdout);
	}
}

static void net_tick(struct vub *vub)
{
	struct net_model *n = vub->dev->priv;
	struct net_pair *pr = &n->pair[0];
	bool failed = false;
	unsigned int p;

	if (n->mode != NET_SOURCE || n->counting || !net_pair_runs(vub, 0))
		return;
	if (net_take_rx(&vub->q[0], pr, &failed)) {
		size_t len = net_make_frame(n->buf, net_hdr_len(vub), NET_PROBE | n->probes);

		if (net_give_rx(&vub->q[0], n, pr, len, &failed)) {
			n->rx_frames--;		/* not a counted frame */
			n->probes++;
		}
	}
	for (p = 0; p < net_pairs(vub, n); p++)
		net_kick(vub, &vub->q[2 * p + 1]);
}

static void net_stop(struct vub *vub, struct vub_queue *q)
{
	struct net_model *n = vub->dev->priv;
	struct net_pair *pr;
	unsigned int p;

	switch (net_role(vub, n, q->index, &p)) {
	case NET_CTRL:
		n->active_pairs = 1;	/* a driver that comes back starts anew */
		return;
	case NET_NONE:
		return;
	case NET_PAIR:
		break;
	}
	pr = &n->pair[p];
	if (q->index % 2 == 0 && pr->rx_pending) {
		rig_vringh_abandon(&q->vrh, 1);
		pr->rx_pending = false;
	}
	/*
	 * Source: frames in flight are lost with the rings; a driver that
	 * comes back is probed again and gets them anew, from the first one
	 * not returned.
	 */
	if (n->mode == NET_SOURCE) {
		n->counting = false;
		pr->sent = pr->returned;
		n->rx_frames = 0;
		for (p = 0; p < n->pairs; p++)
			n->rx_frames += n->pair[p].sent;
	}
}

/* struct virtio_net_config: mac (0), status (6), max_virtqueue_pairs (8), mtu (10). */
static bool net_get_config(void *priv, uint32_t off, uint32_t len, uint8_t *buf)
{
	struct net_model *n = priv;
	uint8_t cfg[VHOST_USER_MAX_CONFIG_SIZE] = { 0 };
	uint16_t status = htole16(n->config.status);
	uint16_t pairs = htole16(n->config.max_virtqueue_pairs), mtu = htole16(n->config.mtu);

	if (!config_range_ok(off, len))
		return false;
	memcpy(cfg + 0, n->config.mac, 6);
	memcpy(cfg + 6, &status, 2);
	memcpy(cfg + 8, &pairs, 2);
	memcpy(cfg + 10, &mtu, 2);
	memcpy(buf, cfg + off, len);
	return true;
}

void net_model_init(struct vub_device *dev, struct net_model *n, uint64_t features)
{
	static const uint8_t mac[6] = { 2, 0, 0, 0, 0, 2 };	/* locally administered */

	memset(dev, 0, sizeof(*dev));
	if (!n->window)
		n->window = 128;
	if (!n->pairs)
		n->pairs = 1;
	n->active_pairs = 1;
	memcpy(n->config.mac, mac, 6);
	n->config.status = VIRTIO_NET_S_LINK_UP;
	n->config.max_virtqueue_pairs = n->pairs;
	n->config.mtu = 1500;
	dev->name = "net";
	dev->features = features | (1ull << VIRTIO_NET_F_MAC) | (1ull << VIRTIO_NET_F_STATUS) |
		(1ull << VIRTIO_NET_F_MTU);
	if (net_has_ctrl(n))
		dev->features |= (1ull << VIRTIO_NET_F_CTRL_VQ) | (1ull << VIRTIO_NET_F_MQ);
	dev->protocol_features = (1ull << VHOST_USER_PROTOCOL_F_REPLY_ACK) |
		(1ull << VHOST_USER_PROTOCOL_F_STATUS) |
		(1ull << VHOST_USER_PROTOCOL_F_CONFIG) |
		(1ull << VHOST_USER_PROTOCOL_F_MQ);
	dev->num_queues = 2 * n->pairs + net_has_ctrl(n);
	dev->get_config = net_get_config;
	dev->kick = net_kick;
	dev->stop = net_stop;
	if (n->mode == NET_SOURCE)
		dev->tick = net_tick;
	dev->priv = n;
}
