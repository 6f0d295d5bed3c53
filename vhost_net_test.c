// SPDX-License-Identifier: GPL-2.0
/*
 * vhost_net_test: the driver's virtio_ring.c against the kernel's
 * vhost-net (drivers/vhost/net.c), as tools/virtio/vhost_net_test pits it
 * against /dev/vhost-net.  Here vhost-net is compiled unmodified from the
 * kernel tree this was built with (KSRC=) and driven through its file
 * operations (kernel/vhost_net.h); its backend is the rig's raw packet
 * socket, whose far end, the wire, this program holds.
 *
 * Two queues, as a virtio-net device has them: the receive queue (0) and
 * the transmit queue (1), 256 entries each, in the device's one region of
 * guest memory with every buffer and everything the driver allocates.
 * Frames are Ethernet frames of 60 to 1514 bytes, each with its number in
 * every byte (frame_len(), make_frame()), behind a virtio-net header.
 *   TX: the driver adds header and frame, as one buffer or as two (header
 *   and frame apart, frame by frame in turn); vhost-net sends each on the
 *   socket, and the program takes it off the wire and checks it (content,
 *   length, order) once the driver got its buffer back.
 *   RX: the program puts frames on the wire; vhost-net receives each into
 *   the receive buffers the driver keeps posted (with
 *   VIRTIO_NET_F_MRG_RXBUF one frame may fill several, its header saying
 *   how many), and the driver checks header, content, length and order.
 * Who supplies the header (--vnet-hdr): vhost-net itself
 * (VHOST_NET_F_VIRTIO_NET_HDR acked: it strips it on TX and writes its own
 * on RX; the wire carries bare frames), or the socket, as a tap device
 * with IFF_VNET_HDR does (the wire carries the header with each frame,
 * vhost-net only fills in num_buffers).
 *
 * The vhost worker runs vhost-net's handlers on kicks and on the socket's
 * wake-ups, a thread pinned to the device's CPU.  --serve instead runs
 * them in the driver's thread, one handler call per kick and per batch of
 * frames delivered, with nothing waking the worker: the same run costs
 * the same instructions every time (ab/count.sh's vhost-net rows).
 * --detach sets both backends to -1 now and then (VHOST_NET_SET_BACKEND),
 * checks the device stopped between buffers, goes on adding buffers and
 * delivering frames while it is detached, then sets the socket back:
 * nothing is lost or repeated.  Ctrl-C stops the run and prints the
 * counts so far (exit 130).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/virtio.h>
#include <linux/virtio_config.h>
#include <linux/virtio_net.h>
#include <linux/virtio_ring.h>

#include "harness/harness.h"
#include "kernel/vhost_core.h"
#include "kernel/vhost_net.h"

#define RING_SIZE	256
#define ETH_ALEN	6
#define ETH_HDR		14
#define FRAME_MIN	60
#define FRAME_MAX	1514
#define HDR_MAX		sizeof(struct virtio_net_hdr_mrg_rxbuf)
#define TX_SLOT		2048		/* header and the longest frame */
#define RX_BUF_MRG	512		/* --rx-buf's default with MRG_RXBUF */
#define RX_BUF_MAX	65536
#define DEFAULT_FRAMES	0x100000UL
#define CALL_TIMEOUT_MS	10000		/* no call for this long: a lost notification */
/* The socket: frames sent not yet taken, delivered not yet received. */
#define SINK_FRAMES	64
#define QUEUE_FRAMES	256
/* --serve: at most this many frames a handler call (its weight is 256). */
#define SERVE_BATCH	64
#define ETHERTYPE	0x88b5		/* IEEE 802 local experimental */

static struct {
	u64 features;		/* the driver's */
	int delayed;		/* int: getopt_long sets the flag options */
	int serve;
	bool in_order;
	bool socket_hdr;	/* --vnet-hdr=socket */
	bool tx, rx;
	unsigned long detach;	/* 0: never */
	unsigned long frames;
	unsigned long rx_buf;	/* bytes a receive buffer has; 0: the default */
	bool json;
} opt = {
	.features = 1ULL << VIRTIO_RING_F_INDIRECT_DESC |
		    1ULL << VIRTIO_RING_F_EVENT_IDX |
		    1ULL << VIRTIO_F_VERSION_1 |
		    1ULL << VIRTIO_NET_F_MRG_RXBUF,
	.tx = true,
	.rx = true,
	.frames = DEFAULT_FRAMES,
};

/* The device and its socket. */
static struct vhost_net_dev *net;
static struct vhost_core *core;
static size_t hdr_len;		/* the virtio-net header both sides use */
static bool mergeable;

/* One of the two queues, as the driver keeps it. */
struct netq {
	const char *name;
	unsigned int index;		/* VHOST_NET_RX or VHOST_NET_TX */
	struct rig_queue q;
	struct virtqueue *vq;		/* q.vq */
	void *ring;
	char *slots;			/* buffer n lives in slot n % RING_SIZE */
	size_t slot_len;
	struct rig_chan kick, call;
	unsigned long added, used;	/* buffers */
};

static struct virtio_device vdev;
static struct netq rxq = { .name = "rx", .index = VHOST_NET_RX };
static struct netq txq = { .name = "tx", .index = VHOST_NET_TX };

static struct {
	unsigned long sunk;		/* TX frames taken off the wire and checked */
	unsigned long delivered;	/* RX frames put on the wire */
	unsigned long received;		/* RX frames the driver checked */
	unsigned long detaches;
	unsigned long long spurious;
} st;

static char *slot(struct netq *nq, unsigned long n)
{
	return nq->slots + (n % RING_SIZE) * nq->slot_len;
}

/* A mix of frame number @n and @i: no two frames, nor two words, alike. */
static u64 pattern(unsigned long n, unsigned long i)
{
	return ((u64)n << 20 | i) * 0x9e3779b97f4a7c15ULL;
}

/* Frame @n's length: 60 to 1514 bytes, every length in turn. */
static unsigned int frame_len(unsigned long n)
{
	return FRAME_MIN + pattern(n, 0) % (FRAME_MAX - FRAME_MIN + 1);
}

/* Frame @n: an Ethernet header, then its payload, into @buf. */
static void make_frame(unsigned long n, unsigned char *buf)
{
	static const unsigned char dst[ETH_ALEN] = { 0x02, 0, 0, 0, 0, 0x01 };
	static const unsigned char src[ETH_ALEN] = { 0x02, 0, 0, 0, 0, 0x02 };
	unsigned int len = frame_len(n), i;

	memcpy(buf, dst, ETH_ALEN);
	memcpy(buf + ETH_ALEN, src, ETH_ALEN);
	buf[12] = ETHERTYPE >> 8;
	buf[13] = ETHERTYPE & 0xff;
	for (i = ETH_HDR; i < len; i += 8) {
		u64 w = pattern(n, i);
		unsigned int k = len - i < 8 ? len - i : 8;

		memcpy(buf + i, &w, k);
	}
}

/* The header the driver puts before frame @n on TX. */
static void tx_header(struct virtio_net_hdr_mrg_rxbuf *h)
{
	memset(h, 0, sizeof(*h));
	h->hdr.flags = 0;
	h->hdr.gso_type = VIRTIO_NET_HDR_GSO_NONE;
	h->hdr.hdr_len = cpu_to_virtio16(&vdev, ETH_HDR);
}

/*
 * The header the socket carries with a frame on RX (--vnet-hdr=socket):
 * what a tap device writes for a frame whose checksum it checked.
 */
static void wire_header(struct virtio_net_hdr_mrg_rxbuf *h)
{
	memset(h, 0, sizeof(*h));
	h->hdr.flags = VIRTIO_NET_HDR_F_DATA_VALID;
	h->hdr.gso_type = VIRTIO_NET_HDR_GSO_NONE;
}

static void __attribute__((noreturn, format(printf, 1, 2))) fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "vhost_net_test: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(RIG_EXIT_FAIL);
}

static void check_health(void)
{
	if (opt.tx && virtqueue_is_broken(txq.vq))
		fail("the driver broke the tx queue (see above)");
	if (opt.rx && virtqueue_is_broken(rxq.vq))
		fail("the driver broke the rx queue (see above)");
	if (vhost_core_failed(core))
		fail("vhost-net signalled its error eventfd (vq_err())");
}

/* ---- The device's side: kicks, and --serve ---- */

static bool notify(struct virtqueue *vq)
{
	struct netq *nq = vq == txq.vq ? &txq : &rxq;

	if (!opt.serve) {
		rig_chan_signal(&nq->kick);
		return true;
	}
	/* --serve: the handler the worker would run, here and now. */
	return vhost_core_kick(core, nq->index) == 0;
}

static void vq_callback(struct virtqueue *vq __attribute__((unused)))
{
}

/* --serve: frames were delivered; run what the socket's wake-up would. */
static void serve_rx(void)
{
	if (opt.serve)
		CHECK(vhost_core_kick(core, VHOST_NET_RX) == 0);
}

/*
 * --serve: frames were taken off the wire; if vhost-net found it full
 * since the last look, run what the socket's wake-up for room would.
 */
static void serve_tx_room(void)
{
	static unsigned long full_seen;
	struct rig_packet_stats ws;

	vhost_net_stats(net, &ws);
	if (ws.full == full_seen)
		return;
	full_seen = ws.full;
	CHECK(vhost_core_kick(core, VHOST_NET_TX) == 0);
}

/*
 * Add @nq's next slot, its first @len bytes: the header and the rest as
 * two parts (@apart), or as one.  Out on tx, in on rx.  False when the
 * ring is full.
 */
static bool netq_add(struct netq *nq, unsigned int len, bool apart)
{
	char *buf = slot(nq, nq->added);
	struct scatterlist sg[2];
	unsigned int parts = 1;
	bool tx = nq == &txq;
	int err;

	if (apart) {
		sg_init_table(sg, 2);
		sg_set_buf(&sg[0], buf, hdr_len);
		sg_set_buf(&sg[1], buf + hdr_len, len - hdr_len);
		parts = 2;
	} else {
		sg_init_one(sg, buf, len);
	}
	err = tx ? virtqueue_add_outbuf(nq->vq, sg, parts, buf, GFP_ATOMIC) :
		   virtqueue_add_inbuf(nq->vq, sg, parts, buf, GFP_ATOMIC);
	if (err == -ENOSPC)
		return false;
	CHECKF(err == 0, "%s: virtqueue_add_%sbuf: %d", nq->name, tx ? "out" : "in", err);
	nq->added++;
	return true;
}

/*
 * Add @nq's slots while its ring has room, at most @most, each made by
 * @next (its length and whether apart; false: none to add); one kick for
 * them all.  How many were added.
 */
static unsigned long netq_fill(struct netq *nq, unsigned long most,
			       bool (*next)(unsigned int *len, bool *apart))
{
	unsigned long added = 0;
	unsigned int len;
	bool apart;

	while (added < most && nq->added - nq->used < RING_SIZE &&
	       next(&len, &apart) && netq_add(nq, len, apart))
		added++;
	if (added)
		virtqueue_kick(nq->vq);
	return added;
}

/* ---- TX ---- */

/* The next frame, header first, into its slot; false when all were added. */
static bool tx_next(unsigned int *len, bool *apart)
{
	char *buf = slot(&txq, txq.added);

	if (txq.added >= opt.frames)
		return false;
	tx_header((void *)buf);
	make_frame(txq.added, (unsigned char *)buf + hdr_len);
	*len = hdr_len + frame_len(txq.added);
	/* Header and frame as one buffer, or apart, in turn. */
	*apart = txq.added & 1;
	return true;
}

/* Add frames while there is room; one kick for them all. */
static unsigned long tx_add(void)
{
	return netq_fill(&txq, opt.serve ? SERVE_BATCH : RING_SIZE, tx_next);
}

/* Take back what vhost-net sent: buffers in order, none written to. */
static unsigned long tx_collect(void)
{
	unsigned long got = 0;
	unsigned int len;

	while (rig_queue_next_used(txq.vq, &len, slot(&txq, txq.used), "tx buffer", txq.used)) {
		CHECKF(len == 0, "tx buffer 0x%lx: used length %u, but it has no writable bytes",
		       txq.used, len);
		txq.used++;
		got++;
	}
	return got;
}

/*
 * Take what vhost-net sent off the wire and check it: the frames in the
 * order they were added, each as the driver wrote it (header first, when
 * the socket carries it).  Every buffer the driver got back was sent
 * before it came back.
 */
static unsigned long tx_take(void)
{
	static unsigned char want[HDR_MAX + FRAME_MAX], got[HDR_MAX + FRAME_MAX + 1];
	size_t hdr = opt.socket_hdr ? hdr_len : 0;
	unsigned long taken = 0;
	long n;

	while ((n = vhost_net_take(net, got, sizeof(got))) != 0) {
		unsigned int len = frame_len(st.sunk);

		CHECKF(n > 0, "tx frame 0x%lx: taking it off the wire: %ld", st.sunk, n);
		CHECKF(st.sunk < txq.added, "tx: a frame 0x%lx on the wire, but only 0x%lx were added",
		       st.sunk, txq.added);
		CHECKF((size_t)n == hdr + len, "tx frame 0x%lx: %ld bytes on the wire, expected %zu",
		       st.sunk, n, hdr + len);
		tx_header((void *)want);
		make_frame(st.sunk, want + hdr);
		if (memcmp(got, want, n)) {
			long i = 0;

			while (got[i] == want[i])
				i++;
			fail("tx frame 0x%lx: byte %ld on the wire is 0x%02x, expected 0x%02x",
			     st.sunk, i, got[i], want[i]);
		}
		st.sunk++;
		taken++;
	}
	CHECKF(st.sunk >= txq.used, "tx: the driver got back 0x%lx buffers, but only 0x%lx frames were sent",
	       txq.used, st.sunk);
	if (opt.serve && taken)
		serve_tx_room();
	return taken;
}

/* ---- RX ---- */

/* The next receive buffer, its header room marked. */
static bool rx_next(unsigned int *len, bool *apart)
{
	memset(slot(&rxq, rxq.added), 0xa5, hdr_len);
	*len = rxq.slot_len;
	/* Without merging: header and frame room apart, in turn. */
	*apart = !mergeable && (rxq.added & 1);
	return true;
}

/* Keep every receive buffer posted; one kick for them all. */
static unsigned long rx_refill(void)
{
	return netq_fill(&rxq, RING_SIZE, rx_next);
}

/* Put frames on the wire, never more ahead than the socket queues. */
static unsigned long rx_deliver(void)
{
	static unsigned char frame[FRAME_MAX];
	struct virtio_net_hdr_mrg_rxbuf h;
	unsigned long ahead = opt.serve ? SERVE_BATCH : QUEUE_FRAMES / 2;
	unsigned long n = 0;

	wire_header(&h);
	while (st.delivered < opt.frames && st.delivered - st.received < ahead &&
	       n < ahead) {
		int err;

		make_frame(st.delivered, frame);
		err = vhost_net_deliver(net, &h, frame, frame_len(st.delivered));
		CHECKF(err == 0, "rx frame 0x%lx: putting it on the wire: %d", st.delivered, err);
		st.delivered++;
		n++;
	}
	if (n)
		serve_rx();
	return n;
}

/* The frame being gathered from its receive buffers. */
static struct {
	unsigned char buf[HDR_MAX + FRAME_MAX];
	size_t len;
	unsigned int bufs, want_bufs;	/* buffers so far, and in all */
} gather;

static void rx_check_frame(void)
{
	static unsigned char want[FRAME_MAX];
	const struct virtio_net_hdr *h = (void *)gather.buf;
	unsigned long n = st.received;
	unsigned int len = frame_len(n);

	CHECKF(n < st.delivered, "rx: frame 0x%lx received, but only 0x%lx were delivered",
	       n, st.delivered);
	CHECKF(gather.len == hdr_len + len, "rx frame 0x%lx: %zu bytes in %u buffers, expected %zu",
	       n, gather.len, gather.bufs, hdr_len + len);
	/* Header: vhost-net's own (none of its fields set), or the socket's. */
	if (opt.socket_hdr) {
		struct virtio_net_hdr_mrg_rxbuf w;

		wire_header(&w);
		CHECKF(!memcmp(h, &w.hdr, sizeof(*h)),
		       "rx frame 0x%lx: the header is not the one the socket gave", n);
	} else {
		CHECKF(h->flags == 0 && h->gso_type == VIRTIO_NET_HDR_GSO_NONE &&
		       !h->hdr_len && !h->gso_size && !h->csum_start && !h->csum_offset,
		       "rx frame 0x%lx: header flags 0x%x gso_type 0x%x hdr_len %u gso_size %u csum %u/%u, expected all 0",
		       n, h->flags, h->gso_type, virtio16_to_cpu(&vdev, h->hdr_len),
		       virtio16_to_cpu(&vdev, h->gso_size), virtio16_to_cpu(&vdev, h->csum_start),
		       virtio16_to_cpu(&vdev, h->csum_offset));
	}
	make_frame(n, want);
	if (memcmp(gather.buf + hdr_len, want, len)) {
		unsigned int i = 0;

		while (gather.buf[hdr_len + i] == want[i])
			i++;
		fail("rx frame 0x%lx: byte %u is 0x%02x, expected 0x%02x",
		     n, i, gather.buf[hdr_len + i], want[i]);
	}
	st.received++;
}

/*
 * Take back what vhost-net received into, in order; a frame is checked
 * once its last buffer is back.
 */
static unsigned long rx_collect(void)
{
	unsigned long got = 0;
	unsigned int len;
	void *token;

	while ((token = rig_queue_next_used(rxq.vq, &len, slot(&rxq, rxq.used), "rx buffer",
					    rxq.used))) {
		CHECKF(len <= rxq.slot_len, "rx buffer 0x%lx: used length %u > its %zu bytes",
		       rxq.used, len, rxq.slot_len);
		CHECKF(gather.len + len <= sizeof(gather.buf),
		       "rx frame 0x%lx: more than %zu bytes so far", st.received, sizeof(gather.buf));
		if (!gather.bufs) {
			const struct virtio_net_hdr_mrg_rxbuf *h = token;

			CHECKF(len >= hdr_len, "rx frame 0x%lx: its first buffer has %u bytes, less than the header",
			       st.received, len);
			gather.want_bufs = 1;
			if (mergeable)
				gather.want_bufs = virtio16_to_cpu(&vdev, h->num_buffers);
			CHECKF(gather.want_bufs >= 1 && gather.want_bufs <= RING_SIZE,
			       "rx frame 0x%lx: num_buffers %u", st.received, gather.want_bufs);
		}
		memcpy(gather.buf + gather.len, token, len);
		gather.len += len;
		gather.bufs++;
		rxq.used++;
		got++;
		if (gather.bufs == gather.want_bufs) {
			rx_check_frame();
			gather.len = 0;
			gather.bufs = 0;
		}
	}
	return got;
}

/* ---- Detaching the backend ---- */

static void backends(int fd)
{
	const char *what = "";
	int err;

	if (opt.rx && (err = vhost_net_backend(net, VHOST_NET_RX, fd, &what)))
		fail("rx: %s %d: %d", what, fd, err);
	if (opt.tx && (err = vhost_net_backend(net, VHOST_NET_TX, fd, &what)))
		fail("tx: %s %d: %d", what, fd, err);
}

/* The device stopped queue @nq between buffers: all it took came back. */
static void check_stopped(struct netq *nq)
{
	const char *what = "";
	u16 base, used;
	int err;

	err = vhost_net_get_base(net, nq->index, &base, &what);
	CHECKF(err == 0, "%s: %s: %d", nq->name, what, err);
	used = virtio16_to_cpu(&vdev, READ_ONCE(nq->q.ring.vring.used->idx));
	CHECKF(base == used, "%s: the device stopped at avail index %u, but used index %u",
	       nq->name, base, used);
}

/*
 * With VIRTIO_RING_F_EVENT_IDX the used ring's flags stay 0 (2.7.10).
 * The kernel's vhost core may write NO_NOTIFY there when the backend is
 * set again; where it does, that is its known gap (a TODO, exit 78),
 * before the driver sees it (ours would break the queue).
 */
static void check_used_flags(struct netq *nq)
{
	u16 flags = virtio16_to_cpu(&vdev, READ_ONCE(nq->q.ring.vring.used->flags));

	if (!(opt.features & (1ULL << VIRTIO_RING_F_EVENT_IDX)) || !flags)
		return;
	rig_expect_kernel_gap(true, VHOST_CORE_GAP_USED_FLAGS);
	CHECKF_GAP(flags == 0, "%s: used flags 0x%x once the backend was set again", nq->name,
		   flags);
}

/*
 * Set both backends to -1: the device must stop between buffers.  While
 * detached the driver adds and posts buffers and the wire brings frames;
 * nothing may be used.  Then the socket goes back and all goes on.
 */
static void detach(void)
{
	u16 tx_used, rx_used;

	backends(-1);
	st.detaches++;
	if (opt.tx)
		check_stopped(&txq);
	if (opt.rx)
		check_stopped(&rxq);
	if (opt.tx) {
		tx_collect();
		tx_take();
		tx_add();
	}
	if (opt.rx) {
		rx_collect();
		rx_refill();
		rx_deliver();
	}
	tx_used = opt.tx ? virtio16_to_cpu(&vdev, READ_ONCE(txq.q.ring.vring.used->idx)) : 0;
	rx_used = opt.rx ? virtio16_to_cpu(&vdev, READ_ONCE(rxq.q.ring.vring.used->idx)) : 0;
	if (opt.serve) {
		/* What the worker would do on those kicks: nothing. */
		if (opt.tx)
			CHECK(vhost_core_kick(core, VHOST_NET_TX) == 0);
		if (opt.rx)
			CHECK(vhost_core_kick(core, VHOST_NET_RX) == 0);
	} else {
		vhost_core_flush(core);
	}
	CHECKF(!opt.tx || tx_used == virtio16_to_cpu(&vdev, READ_ONCE(txq.q.ring.vring.used->idx)),
	       "tx: the device used buffers with its backend set to -1");
	CHECKF(!opt.rx || rx_used == virtio16_to_cpu(&vdev, READ_ONCE(rxq.q.ring.vring.used->idx)),
	       "rx: the device used buffers with its backend set to -1");
	backends(vhost_net_socket_fd(net));
	if (opt.tx)
		check_used_flags(&txq);
	if (opt.rx)
		check_used_flags(&rxq);
	if (opt.serve) {
		vhost_core_flush(core);	/* the socket's first poll queued the handlers */
		if (opt.tx)
			CHECK(vhost_core_kick(core, VHOST_NET_TX) == 0);
		serve_rx();
	}
}

/* ---- The run ---- */

static bool done(void)
{
	return (!opt.tx || (txq.used == opt.frames && st.sunk == opt.frames)) &&
	       (!opt.rx || st.received == opt.frames);
}

/* Frames checked so far, both ways. */
static unsigned long progress(void)
{
	return (opt.tx ? st.sunk : 0) + (opt.rx ? st.received : 0);
}

/* Anything that moved: buffers back, frames checked. */
static unsigned long events(void)
{
	return txq.used + rxq.used + progress();
}

/*
 * Sleep until a queue's call eventfd fires, or (TX) a frame lands on the
 * wire, which the program reads as the wire's other end would, whatever
 * the driver's interrupts (or Ctrl-C).
 */
static void wait_for_call(void)
{
	struct pollfd p[3];
	unsigned int n = 0, i;
	uint64_t v;
	int r;

	if (opt.tx)
		p[n++] = (struct pollfd){ .fd = txq.call.fd, .events = POLLIN };
	if (opt.tx)
		p[n++] = (struct pollfd){ .fd = vhost_net_wire_fd(net), .events = POLLIN };
	if (opt.rx)
		p[n++] = (struct pollfd){ .fd = rxq.call.fd, .events = POLLIN };
	r = poll(p, n, CALL_TIMEOUT_MS);
	if (r < 0 && errno == EINTR)
		return;
	if (r < 0)
		rig_die("poll");
	if (r == 0) {
		check_health();
		fail("no call from the device for %d ms (tx: 0x%lx buffers out, rx: 0x%lx frames on the wire): lost notification?",
		     CALL_TIMEOUT_MS, txq.added - txq.used, st.delivered - st.received);
	}
	for (i = 0; i < n; i++)
		if ((p[i].revents & POLLIN) && read(p[i].fd, &v, sizeof(v)) != sizeof(v))
			rig_die("read of a call eventfd");
}

static void run(void)
{
	unsigned long total = (opt.tx ? opt.frames : 0) + (opt.rx ? opt.frames : 0);
	unsigned long next_detach = opt.detach;
	struct rig_progress prog;

	rig_progress_init(&prog, "frames", total, true);
	while (!rig_interrupted) {
		unsigned long before = events();
		bool moved, wait;

		if (opt.tx)
			virtqueue_disable_cb(txq.vq);
		if (opt.rx)
			virtqueue_disable_cb(rxq.vq);
		do {
			moved = false;
			if (opt.detach && progress() > next_detach) {
				detach();
				next_detach += progress();
			}
			if (opt.tx) {
				moved |= tx_add() != 0;
				moved |= tx_collect() != 0;
				moved |= tx_take() != 0;
			}
			if (opt.rx) {
				moved |= rx_refill() != 0;
				moved |= rx_deliver() != 0;
				moved |= rx_collect() != 0;
			}
			check_health();
		} while (moved && !rig_interrupted);

		if (events() == before)
			st.spurious++;
		if (done() || rig_interrupted)
			break;
		rig_progress_show(&prog, progress());
		CHECKF(!opt.serve, "--serve: stuck with tx 0x%lx of 0x%lx back, rx 0x%lx of 0x%lx received",
		       txq.used, opt.frames, st.received, opt.frames);
		/*
		 * Sleep only if no queue has something used meanwhile.  A
		 * delayed callback suits the transmit queue only: receive
		 * buffers wait for frames that may never come (Linux's
		 * virtio-net delays transmit completions alone, too).
		 */
		wait = true;
		if (opt.tx)
			wait &= opt.delayed ? virtqueue_enable_cb_delayed(txq.vq) :
					      virtqueue_enable_cb(txq.vq);
		if (opt.rx)
			wait &= virtqueue_enable_cb(rxq.vq);
		if (wait)
			wait_for_call();
	}
	rig_progress_end(&prog);
}

/* ---- Setting up ---- */

static void queue_setup(struct netq *nq, size_t slot_len)
{
	const struct vring *vr;
	const char *what = "";
	int err;

	nq->slot_len = slot_len;
	nq->ring = vhost_core_alloc(core, rig_ring_bytes(RING_SIZE, false));
	nq->slots = vhost_core_alloc(core, RING_SIZE * slot_len);
	CHECK(nq->ring && nq->slots);
	rig_chan_init(&nq->kick);
	rig_chan_init(&nq->call);
	/* The vhost core reads kicks and writes calls itself: plain eventfds. */
	nq->kick.raw = nq->call.raw = true;
	rig_queue_make(&nq->q, &vdev, RING_SIZE, nq->ring, false, notify, vq_callback,
		       nq->name);
	nq->vq = nq->q.vq;
	vr = &nq->q.ring.vring;
	err = vhost_core_vring(core, nq->index, RING_SIZE, vr->desc, vr->avail, vr->used,
			       opt.serve ? -1 : nq->kick.fd, nq->call.fd, &what);
	if (err)
		fail("%s: %s: %d", nq->name, what, err);
}

static void queue_teardown(struct netq *nq)
{
	rig_queue_destroy(&nq->q);
	rig_chan_destroy(&nq->kick);
	rig_chan_destroy(&nq->call);
}

/* Open vhost-net; SKIP if there is none, or it lacks what was asked for. */
static void net_open(int cpu_driver, int cpu_device, size_t mem)
{
	struct rig_packet_opts wire = {
		.mtu = FRAME_MAX,
		.sink_frames = SINK_FRAMES,
		.queue_frames = QUEUE_FRAMES,
		.wake = !opt.serve,
	};
	const char *why;
	u64 missing;

	if (opt.socket_hdr)
		wire.vnet_hdr = hdr_len;
	net = vhost_net_open(mem, opt.serve ? -1 : cpu_device, &wire, &why);
	if (!net)
		rig_skip("%s", why);
	core = vhost_net_core(net);
	if (!opt.serve)
		fprintf(stderr, "vhost_net_test: the driver on CPU %d, the vhost worker on CPU %d\n",
			cpu_driver, cpu_device);
	missing = opt.features & ~vhost_core_features(core);
	if (missing) {
		vhost_net_close(net);
		if (missing & (1ULL << VIRTIO_F_IN_ORDER))
			rig_skip("--in-order: the kernel's vhost-net does not offer VIRTIO_F_IN_ORDER (VHOST_GET_FEATURES)");
		rig_skip("the kernel's vhost-net does not offer features 0x%llx (VHOST_GET_FEATURES)",
			 (unsigned long long)missing);
	}
}

static void usage(void)
{
	printf(
"Usage: vhost_net_test [-h|--help] [--version] [--[no-]indirect] [--[no-]event-idx]\n"
"                      [--[no-]virtio-1] [--[no-]mrg-rxbuf] [--in-order]\n"
"                      [--[no-]delayed-interrupt] [--vnet-hdr=vhost|socket]\n"
"                      [--tx | --rx] [--detach[=N]] [--serve] [--buf-num=N]\n"
"                      [--rx-buf=N] [--json]\n"
"\n"
"Pass N frames (default 0x%lx) each way through the kernel's vhost-net,\n"
"compiled from the kernel tree this was built with (KSRC=): on the\n"
"transmit queue from the driver (virtio_ring) to the wire of vhost-net's\n"
"packet socket, on the receive queue from the wire to the driver, both\n"
"queues %d entries, and check every frame's bytes, length and order.\n"
"Prints the frame and buffer counts on stderr; Ctrl-C stops the run and\n"
"prints the counts so far.\n"
"\n"
"  --[no-]indirect           VIRTIO_RING_F_INDIRECT_DESC (default on)\n"
"  --[no-]event-idx          VIRTIO_RING_F_EVENT_IDX (default on)\n"
"  --[no-]virtio-1           VIRTIO_F_VERSION_1 (default on)\n"
"  --[no-]mrg-rxbuf          VIRTIO_NET_F_MRG_RXBUF: a frame may fill several\n"
"                            receive buffers (default on)\n"
"  --in-order                VIRTIO_F_IN_ORDER (a tree whose vhost-net offers it)\n"
"  --[no-]delayed-interrupt  virtqueue_enable_cb_delayed, not virtqueue_enable_cb,\n"
"                            on the transmit queue\n"
"  --vnet-hdr=WHO            who supplies the virtio-net header: vhost (default:\n"
"                            VHOST_NET_F_VIRTIO_NET_HDR, the wire carries bare\n"
"                            frames) or socket (the wire carries it, as a tap\n"
"                            device's does)\n"
"  --tx, --rx                one way only\n"
"  --detach[=N]              set both backends to -1 once more than N (default 1)\n"
"                            frames passed, then at roughly doubling counts;\n"
"                            buffers and frames keep coming, then the socket\n"
"                            goes back\n"
"  --serve                   vhost-net's handlers run in the driver's thread,\n"
"                            on each kick and each batch of frames delivered\n"
"  --buf-num=N               frames each way\n"
"  --rx-buf=N                bytes a receive buffer has (default: %d with\n"
"                            merging, else the header and a 1514-byte frame)\n"
"  --json                    also print the result as one JSON object on stdout\n"
"  --version                 print how this binary was built\n"
"\n"
"Exit status: 0 every frame passed and checked; 1 a check failed; 2 usage\n"
"error; 77 SKIP (no vhost-net in this build, or it lacks a feature asked\n"
"for); 130 interrupted.\n",
		DEFAULT_FRAMES, RING_SIZE, RX_BUF_MRG);
}

static void parse_options(int argc, char *argv[])
{
	enum { OPT_BUF_NUM = 256, OPT_RX_BUF, OPT_DETACH, OPT_VNET_HDR, OPT_TX, OPT_RX };
	static const struct option longopts[] = {
		RIG_HELP_OPTION,
		RIG_DRIVER_OPTIONS(&opt.delayed),
		RIG_FEATURE_OPTIONS("mrg-rxbuf", VIRTIO_NET_F_MRG_RXBUF),
		RIG_IN_ORDER_OPTION(no_argument),
		{ "vnet-hdr", required_argument, NULL, OPT_VNET_HDR },
		{ "tx", no_argument, NULL, OPT_TX },
		{ "rx", no_argument, NULL, OPT_RX },
		{ "detach", optional_argument, NULL, OPT_DETACH },
		{ "serve", no_argument, &opt.serve, true },
		{ "buf-num", required_argument, NULL, OPT_BUF_NUM },
		{ "rx-buf", required_argument, NULL, OPT_RX_BUF },
		RIG_VERSION_OPTION,
		RIG_JSON_OPTION,
		{ }
	};
	static const struct rig_number_opt numbers[] = {
		RIG_NUMBER_OPT(OPT_BUF_NUM, opt.frames, 1, 1UL << 40),
		RIG_NUMBER_OPT(OPT_RX_BUF, opt.rx_buf, 1, RX_BUF_MAX),
	};
	static const struct rig_getopt common = {
		.prog = "vhost_net_test", .usage = usage, .features = &opt.features,
		.in_order = &opt.in_order, .json = &opt.json,
		.numbers = numbers, .nnumbers = ARRAY_SIZE(numbers), .no_operands = true,
	};
	bool tx_only = false, rx_only = false;
	int c;

	while ((c = rig_getopt(argc, argv, longopts, &common)) != -1) {
		switch (c) {
		case OPT_VNET_HDR:
			if (!strcmp(optarg, "socket"))
				opt.socket_hdr = true;
			else if (strcmp(optarg, "vhost"))
				rig_usage_error("bad --vnet-hdr '%s': vhost or socket", optarg);
			break;
		case OPT_TX:
			tx_only = true;
			break;
		case OPT_RX:
			rx_only = true;
			break;
		case OPT_DETACH:
			opt.detach = 1;
			if (optarg && !rig_parse_ulong(optarg, 1, 1UL << 40, &opt.detach))
				rig_usage_error("bad --detach '%s': a number in 1..2^40", optarg);
			break;
		default:	/* getopt has said what */
			rig_usage_hint();
		}
	}
	if (tx_only && rx_only)
		rig_usage_error("--tx and --rx: one way, or neither for both");
	opt.tx = !rx_only;
	opt.rx = !tx_only;
	mergeable = opt.features & (1ULL << VIRTIO_NET_F_MRG_RXBUF);
	hdr_len = opt.features & (1ULL << VIRTIO_NET_F_MRG_RXBUF | 1ULL << VIRTIO_F_VERSION_1) ?
		  sizeof(struct virtio_net_hdr_mrg_rxbuf) : sizeof(struct virtio_net_hdr);
	/* The spec's rule for receive buffers (5.1.6.3.1). */
	if (!opt.rx_buf)
		opt.rx_buf = mergeable ? RX_BUF_MRG : hdr_len + FRAME_MAX;
	if (mergeable && opt.rx_buf < hdr_len)
		rig_usage_error("bad --rx-buf '%lu': with merging a buffer holds at least the %zu-byte header",
				opt.rx_buf, hdr_len);
	if (!mergeable && opt.rx_buf < hdr_len + FRAME_MAX)
		rig_usage_error("bad --rx-buf '%lu': without merging a buffer holds the %zu-byte header and a %d-byte frame",
				opt.rx_buf, hdr_len, FRAME_MAX);
	if (opt.in_order) {
		rig_require_in_order("--in-order", false);
		opt.features |= 1ULL << VIRTIO_F_IN_ORDER;
	}
}

/* --json: the counts of the stderr line, the options, the elapsed time. */
static void print_json(int cpu_driver, int cpu_device, const struct rig_packet_stats *ws,
		       unsigned long long ns)
{
	rig_json_begin("vhost_net_test");
	rig_json_features(opt.features);
	rig_json_num("mrg_rxbuf", "%s", mergeable ? "true" : "false");
	rig_json_str("vnet_hdr", opt.socket_hdr ? "socket" : "vhost");
	rig_json_num("delayed_interrupt", "%s", opt.delayed ? "true" : "false");
	rig_json_num("serve", "%s", opt.serve ? "true" : "false");
	rig_json_num("detach", "%lu", opt.detach);
	rig_json_num("rx_buf", "%lu", opt.rx_buf);
	rig_json_num("cpu_driver", "%d", cpu_driver);
	rig_json_num("cpu_device", "%d", opt.serve ? cpu_driver : cpu_device);
	rig_json_num("frames", "%lu", opt.frames);
	rig_json_num("tx_frames", "%lu", opt.tx ? st.sunk : 0);
	rig_json_num("rx_frames", "%lu", opt.rx ? st.received : 0);
	rig_json_num("rx_buffers", "%lu", opt.rx ? rxq.used : 0);
	rig_json_num("detaches", "%lu", st.detaches);
	rig_json_num("spurious_wakeups", "%llu", st.spurious);
	rig_json_num("wire_full", "%lu", ws->full);
	rig_json_num("ns", "%llu", ns);
	rig_json_end();
}

int main(int argc, char *argv[])
{
	struct rig_packet_stats ws;
	struct timespec t0, t1;
	int cpu_driver, cpu_device, err;
	const char *what = "";
	size_t mem;

	parse_options(argc, argv);
	rig_pick_two_cpus(&cpu_driver, &cpu_device);
	rig_pin_thread(cpu_driver);

	mem = 2 * rig_ring_bytes(RING_SIZE, false) + RING_SIZE * (TX_SLOT + opt.rx_buf) +
	      (1UL << 20);	/* the driver's allocations: indirect tables */
	net_open(cpu_driver, cpu_device, mem);
	rig_vdev_init(&vdev, opt.features);
	vhost_core_guest(core, true);
	queue_setup(&rxq, opt.rx_buf);
	queue_setup(&txq, TX_SLOT);
	err = vhost_net_set_features(net, opt.features, &what);
	if (err)
		fail("%s 0x%llx: %d", what, (unsigned long long)opt.features, err);
	backends(vhost_net_socket_fd(net));
	if (opt.serve)
		vhost_core_flush(core);	/* the socket's first poll queued the handlers */

	rig_catch_interrupt();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	run();
	clock_gettime(CLOCK_MONOTONIC, &t1);

	if (rig_interrupted) {
		fprintf(stderr, "vhost_net_test: interrupted: tx 0x%lx of 0x%lx frames sent, rx 0x%lx received\n",
			opt.tx ? st.sunk : 0, opt.frames, opt.rx ? st.received : 0);
		exit(RIG_EXIT_INTERRUPTED);
	}
	vhost_net_stats(net, &ws);
	CHECKF(!ws.refused && !ws.dropped && ws.sent == (opt.tx ? opt.frames : 0) &&
	       ws.received == (opt.rx ? opt.frames : 0),
	       "the socket: 0x%lx frames sent, 0x%lx refused, 0x%lx received, 0x%lx dropped",
	       ws.sent, ws.refused, ws.received, ws.dropped);
	fprintf(stderr, "tx frames: 0x%lx, rx frames: 0x%lx in 0x%lx buffers, spurious wakeups: 0x%llx\n",
		opt.tx ? st.sunk : 0, opt.rx ? st.received : 0, opt.rx ? rxq.used : 0,
		st.spurious);
	if (opt.json)
		print_json(cpu_driver, cpu_device, &ws, (t1.tv_sec - t0.tv_sec) * 1000000000ULL +
			   t1.tv_nsec - t0.tv_nsec);

	queue_teardown(&txq);
	queue_teardown(&rxq);
	vhost_core_guest(core, false);
	vhost_net_close(net);		/* the rings and buffers go with it */
	return 0;
}
