// SPDX-License-Identifier: GPL-2.0
/*
 * vhost_user_frontend's device models: what goes into the buffers and how what
 * comes back is checked.  They know the virtio-net and virtio-blk request
 * formats (the virtio specification, 5.1 and 5.2) and nothing of
 * vhost-user; queues come ready from vhost_user_frontend.c.
 *
 * net: queue pair p is rx ring 2p and tx ring 2p + 1.  Each frame is a
 * virtio-net header (12 bytes: VERSION_1, no offloads) and an Ethernet
 * frame carrying the pair, a sequence number, its length and a pattern
 * derived from them.  The backend echoes it (testpmd io forwarding); every
 * echo's length, pattern and sequence (per pair, in order) is checked.
 * Flow control by credit: a frame is sent only while the frames between
 * our tx and rx rings are fewer than the receive buffers posted, since a
 * backend with nowhere to put a frame drops it (net semantics).  Before
 * counting, a probe frame must come back: until both rings are set up at
 * the backend, frames may be dropped.
 *
 * net --burst=N, the benchmark mode: the work DPDK's virtio driver does
 * under testpmd's io forwarding (--tx-first).  N frames in flight, each
 * frame and rx buffer one descriptor (the virtio-net header and the frame
 * in one piece, as DPDK's driver and the kernel's virtio-net put them when
 * they can), the frames' bytes written once at the start and never
 * compared.  What stays checked: every buffer comes back, its used length
 * (a counted frame is exactly --frame-len bytes, a probe 60), the tokens,
 * the used index, and that no frame is lost.  The CPU time of the counted
 * phase per frame is printed beside the rate.
 *
 * blk: requests are an out header, the data (one to four segments, within
 * seg_max) and a status byte set to 0xff, so a status the device never
 * wrote is seen.  A shadow of the test area (the disk's first 64 MiB at
 * most) says what every sector holds: the area is written first, then
 * --count random reads, writes, flushes and get-ids run (no two requests
 * in flight overlap unless both read), then the area is read back.  Every
 * byte read is compared with the shadow.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/virtio.h>
#include <linux/virtio_config.h>
#include <linux/scatterlist.h>

#include "harness/harness.h"
#include "vhost-user/frontend/vhost_user_frontend.h"

/* Used lengths past what the buffer offers fail; shorter ones are counted. */
static void check_len(struct vt_queue *q, unsigned int len, unsigned int max,
		      const char *what)
{
	if (len > max)
		vt_fail("ring %u: used length %u past the buffer's %u writable bytes (%s)",
			q->index, len, max, what);
}

/*
 * A split ring's used index may run ahead of what we reaped by at most the
 * buffers in flight: more, and the ring code would read stale entries as
 * used (a kernel tree's does not check).  Read before the ring code looks,
 * reported after it had its chance to break the queue, so that who caught
 * the device is named right.
 */
static bool used_idx_jumped(struct vt_queue *q, u16 *idx)
{
	const struct vring *r;

	if (vt.packed)
		return false;
	r = virtqueue_get_vring(q->vq);
	*idx = le16_to_cpu((__force __le16)__atomic_load_n(&r->used->idx, __ATOMIC_ACQUIRE));
	return (u16)(*idx - (u16)q->used) > q->added - q->used;
}

/* The ring code broke @q (it said why on stderr): say so and fail. */
static void check_broken(struct vt_queue *q)
{
	if (virtqueue_is_broken(q->vq))
		vt_fail("ring %u: the ring code marked the queue broken (the backend's used ring is bad)",
			q->index);
}

static void *get_buf(struct vt_queue *q, unsigned int *len)
{
	u16 idx = 0;
	bool jumped = used_idx_jumped(q, &idx);
	void *tok = virtqueue_get_buf(q->vq, len);

	if (!tok)
		check_broken(q);
	if (jumped)
		vt_fail("ring %u: used idx %u jumped: %lu buffers reaped, %lu in flight; the ring code %s",
			q->index, idx, q->used, q->added - q->used,
			tok ? "returned a buffer" : "returned nothing");
	if (tok)
		q->used++;
	return tok;
}

static bool time_up(void)
{
	return vt.seconds &&
	       vt_now_ns() - vt.start_ns >= vt.seconds * 1000000000ULL;
}

static void print_rate(const char *what, unsigned long n, unsigned long long ns)
{
	unsigned long kicks = 0;
	unsigned int i;

	for (i = 0; i < vt.nq; i++)
		kicks += vt.q[i].kicks;
	printf("%lluns\n", ns);
	printf("%s/s: %.0f\n", what, ns ? n * 1e9 / ns : 0.0);
	printf("Kicks: %lu\n", kicks);
	printf("Calls: %lu\n", vt.calls);
}

/*
 * net
 */
#define NET_HDR		12
#define RX_DATA		2048
#define ETH_HDR		14
#define FRAME_MIN	60
#define FRAME_MAX	1514
#define ETH_COUNTED	0x88b5	/* IEEE local experimental ethertypes */
#define ETH_PROBE	0x88b6
#define PROBE_EVERY_NS	200000000ULL
#define TX_STRIDE	(NET_HDR + FRAME_MAX + 18)
#define RX_STRIDE	(NET_HDR + RX_DATA + 4)

struct net_buf {
	bool in_flight;
	bool probe;			/* --burst: refill when it is back */
	u8 *hdr;
	u8 *data;
};

struct pair {
	unsigned int index;
	struct vt_queue *rx, *tx;
	struct net_buf *rxb, *txb;
	struct net_buf **tx_free;
	unsigned int ntx_free;
	unsigned long target;		/* counted frames to send */
	unsigned long sent, received;	/* counted frames */
	unsigned long probes_sent, probes_back;
	unsigned long rx_posted, rx_done;
	unsigned long long bytes;
};

static struct pair pairs[VT_MAX_QUEUES / 2];

static unsigned int frame_len(unsigned long seq)
{
	if (vt.frame_len)
		return vt.frame_len;
	return FRAME_MIN + (seq * 0x9e3779b97f4a7c15ULL >> 40) % (FRAME_MAX - FRAME_MIN + 1);
}

static u64 word(unsigned long seq, unsigned int pair, unsigned int i)
{
	return ((u64)seq << 24 ^ (u64)pair << 16 ^ i) * 0xff51afd7ed558ccdULL;
}

/* Frame header after the Ethernet one: sequence, pair, length. */
struct frame_id {
	u64 seq;
	u32 pair;
	u32 len;
};

#define PAYLOAD_OFF	(ETH_HDR + sizeof(struct frame_id))

static void frame_fill(u8 *f, unsigned int len, unsigned long seq,
		       unsigned int pair, bool probe)
{
	static const u8 macs[12] = { 2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2 };
	struct frame_id id = { seq, pair, len };
	unsigned int i, off;
	u16 type = probe ? ETH_PROBE : ETH_COUNTED;

	memcpy(f, macs, sizeof(macs));
	f[12] = type >> 8;
	f[13] = type & 0xff;
	memcpy(f + ETH_HDR, &id, sizeof(id));
	for (i = 0, off = PAYLOAD_OFF; off < len; i++, off += 8) {
		u64 w = word(seq, pair, i);

		memcpy(f + off, &w, len - off < 8 ? len - off : 8);
	}
}

/* Where the echoed frame differs from what was sent, or -1. */
static long frame_diff(const u8 *f, unsigned int len, unsigned long seq,
		       unsigned int pair)
{
	unsigned int i, off;

	for (i = 0, off = PAYLOAD_OFF; off < len; i++, off += 8) {
		u64 w = word(seq, pair, i);
		unsigned int n = len - off < 8 ? len - off : 8;

		if (memcmp(f + off, &w, n)) {
			while (((const u8 *)&w)[0] == f[off]) {
				w >>= 8;
				off++;
			}
			return off;
		}
	}
	return -1;
}

/*
 * @b's header and @len bytes of its data in @sg: one entry with --burst
 * (the data follows the header), else two.  Returns the entries.
 */
static unsigned int net_sg(struct scatterlist sg[2], struct net_buf *b, unsigned int len)
{
	if (vt.burst) {
		sg_init_one(sg, b->hdr, NET_HDR + len);
		return 1;
	}
	sg_init_table(sg, 2);
	sg_set_buf(&sg[0], b->hdr, NET_HDR);
	sg_set_buf(&sg[1], b->data, len);
	return 2;
}

static void rx_post(struct pair *p, struct net_buf *b)
{
	struct scatterlist sg[2];
	int err;

	err = virtqueue_add_inbuf(p->rx->vq, sg, net_sg(sg, b, RX_DATA), b, GFP_ATOMIC);
	if (err)
		check_broken(p->rx);
	if (err)
		vt_fail("pair %u: virtqueue_add_inbuf: %d (rx ring full with %lu posted?)",
			p->index, err, p->rx_posted - p->rx_done);
	b->in_flight = true;
	p->rx->added++;
	p->rx_posted++;
}

/* Send one frame; false if the tx ring is full. */
static bool tx_send(struct pair *p, unsigned long seq, bool probe)
{
	struct scatterlist sg[2];
	struct net_buf *b;
	unsigned int len = probe ? FRAME_MIN : frame_len(seq);
	int err;

	if (!p->ntx_free)
		return false;
	b = p->tx_free[p->ntx_free - 1];
	/* With --burst filled once (pair_init); a probe's buffer is refilled after. */
	if (!vt.burst || probe)
		frame_fill(b->data, len, seq, p->index, probe);
	err = virtqueue_add_outbuf(p->tx->vq, sg, net_sg(sg, b, len), b, GFP_ATOMIC);
	if (err)
		check_broken(p->tx);
	if (err == -ENOSPC)
		return false;
	if (err)
		vt_fail("pair %u: virtqueue_add_outbuf: %d", p->index, err);
	p->ntx_free--;
	b->in_flight = true;
	b->probe = vt.burst && probe;
	p->tx->added++;
	if (probe)
		p->probes_sent++;
	else
		p->sent++;
	return true;
}

/*
 * The next buffer @q (pair @p's @what queue, buffers @bufs) used, which
 * must be one of those in flight; NULL when there is none.
 */
static struct net_buf *reap_one(struct pair *p, struct vt_queue *q, struct net_buf *bufs,
				const char *what, unsigned int *len)
{
	struct net_buf *b = get_buf(q, len);

	if (b && (b < bufs || b >= bufs + q->num || !b->in_flight))
		vt_fail("pair %u: %s used a buffer not in flight (token %p)",
			p->index, what, (void *)b);
	return b;
}

static bool tx_reap(struct pair *p)
{
	struct net_buf *b;
	unsigned int len;
	bool any = false;

	while ((b = reap_one(p, p->tx, p->txb, "tx", &len))) {
		/*
		 * A transmit buffer has nothing writable.  In a packed ring
		 * the length of such a used descriptor is reserved (2.8.4):
		 * DPDK leaves the driver's there, and a kernel tree's ring
		 * code passes it on.
		 */
		if (!vt.packed)
			check_len(p->tx, len, 0, "tx");
		if (b->probe)
			frame_fill(b->data, vt.frame_len, 0, p->index, false);
		b->in_flight = false;
		p->tx_free[p->ntx_free++] = b;
		any = true;
	}
	return any;
}

static void rx_check(struct pair *p, struct net_buf *b, unsigned int len)
{
	struct frame_id id;
	unsigned int flen;
	u16 type;
	long at;

	check_len(p->rx, len, NET_HDR + RX_DATA, "rx");
	if (len < NET_HDR + PAYLOAD_OFF)
		vt_fail("pair %u: received %u bytes, too short for one of our frames",
			p->index, len);
	flen = len - NET_HDR;
	type = b->data[12] << 8 | b->data[13];
	memcpy(&id, b->data + ETH_HDR, sizeof(id));
	if ((type != ETH_COUNTED && type != ETH_PROBE) || id.pair != p->index)
		vt_fail("pair %u: received a frame that is not ours (type 0x%04x, pair %u)",
			p->index, type, id.pair);
	if (id.len != flen)
		vt_fail("pair %u: frame %llu: sent %u bytes, received %u",
			p->index, (unsigned long long)id.seq, id.len, flen);
	at = frame_diff(b->data, flen, id.seq, p->index);
	if (at >= 0)
		vt_fail("pair %u: frame %llu (%u bytes) differs at byte %ld",
			p->index, (unsigned long long)id.seq, flen, at);
	if (type == ETH_PROBE) {
		p->probes_back++;
		return;
	}
	if (id.seq != p->received)
		vt_fail("pair %u: expected frame %lu, received %llu (%s)",
			p->index, p->received, (unsigned long long)id.seq,
			id.seq > p->received ? "frames lost" : "out of order");
	p->received++;
	p->bytes += flen;
}

/* --burst: a frame's used length alone says what it is. */
static void rx_count(struct pair *p, unsigned int len)
{
	if (len == NET_HDR + vt.frame_len) {
		p->received++;
		p->bytes += vt.frame_len;
	} else if (len == NET_HDR + FRAME_MIN) {
		p->probes_back++;
	} else {
		vt_fail("pair %u: received %u bytes, not a %u-byte frame (nor a %u-byte probe) and its header",
			p->index, len, vt.frame_len, FRAME_MIN);
	}
}

static bool rx_reap(struct pair *p)
{
	struct net_buf *b;
	unsigned int len;
	bool any = false;

	while ((b = reap_one(p, p->rx, p->rxb, "rx", &len))) {
		b->in_flight = false;
		p->rx_done++;
		if (vt.burst)
			rx_count(p, len);
		else
			rx_check(p, b, len);
		rx_post(p, b);
		any = true;
	}
	if (any)
		vt_kick(p->rx);
	return any;
}

/*
 * Frames between our tx and rx rings may not outnumber the rx buffers;
 * with --burst, counted frames in flight not the burst (the probes lost
 * before the backend forwarded are not waited for).
 */
static bool may_send(struct pair *p)
{
	unsigned long in_net = p->sent + p->probes_sent - p->received - p->probes_back;

	if (vt.burst)
		return p->sent - p->received < vt.burst;
	return in_net < p->rx_posted - p->rx_done;
}

static void pair_init(struct pair *p, unsigned int i)
{
	unsigned int k;
	u8 *txmem, *rxmem;

	p->index = i;
	p->rx = &vt.q[2 * i];
	p->tx = &vt.q[2 * i + 1];
	p->rxb = calloc(p->rx->num, sizeof(*p->rxb));
	p->txb = calloc(p->tx->num, sizeof(*p->txb));
	p->tx_free = calloc(p->tx->num, sizeof(*p->tx_free));
	CHECK(p->rxb && p->txb && p->tx_free);
	txmem = vt_alloc((size_t)p->tx->num * TX_STRIDE);
	rxmem = vt_alloc((size_t)p->rx->num * RX_STRIDE);
	for (k = 0; k < p->tx->num; k++) {
		p->txb[k].hdr = txmem + (size_t)k * TX_STRIDE;
		p->txb[k].data = p->txb[k].hdr + NET_HDR;
		memset(p->txb[k].hdr, 0, NET_HDR);
		if (vt.burst)
			frame_fill(p->txb[k].data, vt.frame_len, 0, i, false);
		p->tx_free[p->ntx_free++] = &p->txb[k];
	}
	/* Without indirect descriptors each rx buffer takes two. */
	for (k = 0; k < p->rx->num; k++) {
		p->rxb[k].hdr = rxmem + (size_t)k * RX_STRIDE;
		p->rxb[k].data = p->rxb[k].hdr + NET_HDR;
		if (p->rx->vq->num_free >= (vt.ring_features & 1ULL << VIRTIO_RING_F_INDIRECT_DESC ? 1 : 2))
			rx_post(p, &p->rxb[k]);
	}
	vt_kick(p->rx);
}

/* Send probes until one comes back: then the backend forwards. */
static void pair_probe(struct pair *p)
{
	unsigned long long last = 0;

	vt_progress();
	while (!p->probes_back) {
		if (vt_now_ns() - last > PROBE_EVERY_NS && may_send(p) &&
		    tx_send(p, p->probes_sent, true)) {
			vt_kick(p->tx);
			last = vt_now_ns();
		}
		tx_reap(p);
		if (!rx_reap(p))
			vt_wait("waiting for the first echoed probe frame");
	}
}

/*
 * The CPU time this thread has used, in ns.  Not getrusage(RUSAGE_THREAD):
 * a thread that polls and never sleeps has its runtime counted there only
 * at the scheduler's tick, so a phase of a few ms could read 0.
 */
static unsigned long long cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

int vt_net_run(void)
{
	unsigned int i, n = vt.queues;
	unsigned long total = 0, lost = 0, probes = 0;
	unsigned long long bytes = 0, ns;
	unsigned long long cpu0, cpu1;
	bool done;

	for (i = 0; i < n; i++) {
		pair_init(&pairs[i], i);
		pairs[i].target = vt.count ? vt.count / n + (i < vt.count % n) : ~0UL;
	}
	for (i = 0; i < n; i++)
		pair_probe(&pairs[i]);

	cpu0 = cpu_ns();
	vt.start_ns = vt_now_ns();
	vt_progress();
	do {
		bool progress = false, stop = time_up();

		done = true;
		for (i = 0; i < n; i++) {
			struct pair *p = &pairs[i];
			unsigned long before = p->sent;

			if (stop && p->target > p->sent)
				p->target = p->sent;
			progress |= tx_reap(p);
			progress |= rx_reap(p);
			while (p->sent < p->target && may_send(p) &&
			       tx_send(p, p->sent, false))
				;
			if (p->sent != before) {
				vt_kick(p->tx);
				progress = true;
			}
			if (p->received < p->target || p->ntx_free < p->tx->num)
				done = false;
		}
		if (progress)
			vt_progress();
		else if (!done)
			vt_wait("waiting for frames to come back");
	} while (!done);
	ns = vt_now_ns() - vt.start_ns;
	cpu1 = cpu_ns();

	for (i = 0; i < n; i++) {
		total += pairs[i].received;
		lost += pairs[i].sent - pairs[i].received;
		probes += pairs[i].probes_sent;
		bytes += pairs[i].bytes;
	}
	printf("Frames: %lu\n", total);
	printf("Lost: %lu\n", lost);
	printf("Bytes: %llu\n", bytes);
	printf("Probes: %lu\n", probes);
	print_rate("Frames", total, ns);
	if (vt.burst)
		printf("CPU ns/frame: %.1f\n", total ?
		       (cpu1 - cpu0) / (double)total : 0.0);
	return lost ? 1 : 0;
}

/*
 * blk
 */
#define SECTOR		512
#define BLK_T_IN	0
#define BLK_T_OUT	1
#define BLK_T_FLUSH	4
#define BLK_T_GET_ID	8
#define BLK_S_OK	0
#define BLK_ID_BYTES	20
#define REQ_MAX		(64 * 1024)
#define AREA_MAX	(64ULL << 20)
#define VIRTIO_BLK_F_RO		5
#define VIRTIO_BLK_F_SEG_MAX	2
#define VIRTIO_BLK_F_FLUSH	9

struct blk_outhdr {
	__le32 type;
	__le32 ioprio;
	__le64 sector;
};

struct blk_req {
	struct blk_outhdr *hdr;
	u8 *status;
	u8 *data;
	unsigned int type, len;
	u64 sector;
	bool in_flight;
};

static struct {
	struct vt_queue *q;
	struct blk_req *reqs, **free;
	unsigned int nfree;
	u64 area;		/* bytes under test */
	u8 *shadow;
	u8 *writer;		/* per sector: a write in flight */
	u16 *readers;		/* per sector: reads in flight */
	unsigned int seg_max;
	unsigned long writes_issued;
	unsigned long reads, writes, flushes, get_ids;
	unsigned long long bytes_checked;
	unsigned long short_len;
	char id[BLK_ID_BYTES + 1];
} blk;

static u64 blk_word(unsigned long write, u64 byte)
{
	return ((u64)write << 40 ^ byte) * 0xc4ceb9fe1a85ec53ULL;
}

static bool range_free(u64 sector, unsigned int n, bool write)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (blk.writer[sector + i] || (write && blk.readers[sector + i]))
			return false;
	return true;
}

static void range_mark(u64 sector, unsigned int n, bool write, int d)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (write)
			blk.writer[sector + i] += d;
		else
			blk.readers[sector + i] += d;
	}
}

/* Queue one request; false when the ring is full. */
static bool blk_submit(struct blk_req *r)
{
	struct scatterlist sgs[6], *sgv[6];
	unsigned int nseg = 1, i, out, in, off;
	int err;

	r->hdr->type = cpu_to_le32(r->type);
	r->hdr->ioprio = 0;
	r->hdr->sector = cpu_to_le64(r->sector);
	*r->status = 0xff;
	sg_init_one(&sgs[0], r->hdr, sizeof(*r->hdr));
	sgv[0] = &sgs[0];
	if (r->len) {
		nseg = 1 + vt_random() % (blk.seg_max < 4 ? blk.seg_max : 4);
		if (nseg > r->len)
			nseg = r->len;
	} else {
		nseg = 0;
	}
	for (i = 0, off = 0; i < nseg; i++) {
		unsigned int left = r->len - off, n;

		n = i == nseg - 1 ? left : 1 + vt_random() % (left - (nseg - 1 - i));
		sg_init_one(&sgs[1 + i], r->data + off, n);
		sgv[1 + i] = &sgs[1 + i];
		off += n;
	}
	sg_init_one(&sgs[1 + nseg], r->status, 1);
	sgv[1 + nseg] = &sgs[1 + nseg];
	if (r->type == BLK_T_OUT) {
		out = 1 + nseg;
		in = 1;
	} else {
		out = 1;
		in = nseg + 1;
	}
	err = virtqueue_add_sgs(blk.q->vq, sgv, out, in, r, GFP_ATOMIC);
	if (err)
		check_broken(blk.q);
	if (err == -ENOSPC)
		return false;
	if (err)
		vt_fail("virtqueue_add_sgs: %d", err);
	r->in_flight = true;
	blk.q->added++;
	return true;
}

static const char *blk_type(unsigned int t)
{
	switch (t) {
	case BLK_T_IN: return "read";
	case BLK_T_OUT: return "write";
	case BLK_T_FLUSH: return "flush";
	default: return "get-id";
	}
}

static void blk_complete(struct blk_req *r, unsigned int len)
{
	unsigned int in = (r->type == BLK_T_OUT ? 0 : r->len) + 1;
	unsigned int n = r->len / SECTOR;

	check_len(blk.q, len, in, blk_type(r->type));
	if (len < in)
		blk.short_len++;
	if (*r->status != BLK_S_OK)
		vt_fail("%s of %u bytes at sector %llu: status %u%s", blk_type(r->type),
			r->len, (unsigned long long)r->sector, *r->status,
			*r->status == 0xff ? " (never written)" : "");
	switch (r->type) {
	case BLK_T_IN: {
		const u8 *want = blk.shadow + r->sector * SECTOR;

		if (memcmp(r->data, want, r->len)) {
			unsigned int i = 0;

			while (r->data[i] == want[i])
				i++;
			vt_fail("read of %u bytes at sector %llu: byte %u is 0x%02x, wrote 0x%02x",
				r->len, (unsigned long long)r->sector, i,
				r->data[i], want[i]);
		}
		blk.bytes_checked += r->len;
		range_mark(r->sector, n, false, -1);
		break;
	}
	case BLK_T_OUT:
		range_mark(r->sector, n, true, -1);
		break;
	case BLK_T_GET_ID:
		if (!blk.id[0]) {
			memcpy(blk.id, r->data, BLK_ID_BYTES);
			blk.id[BLK_ID_BYTES] = 0;
		}
		break;
	}
	r->in_flight = false;
	blk.free[blk.nfree++] = r;
}

static bool blk_reap(void)
{
	struct blk_req *r;
	unsigned int len;
	bool any = false;

	while ((r = get_buf(blk.q, &len))) {
		if (r < blk.reqs || r >= blk.reqs + blk.q->num || !r->in_flight)
			vt_fail("request ring used a buffer not in flight (token %p)",
				(void *)r);
		blk_complete(r, len);
		any = true;
	}
	return any;
}

/* Take a free request slot, waiting for one. */
static struct blk_req *blk_slot(void)
{
	while (!blk.nfree) {
		if (blk_reap())
			vt_progress();
		else
			vt_wait("waiting for block requests to complete");
	}
	return blk.free[--blk.nfree];
}

static void blk_fill(struct blk_req *r)
{
	unsigned long w = ++blk.writes_issued;
	u64 base = r->sector * SECTOR;
	unsigned int i;

	for (i = 0; i < r->len; i += 8) {
		u64 v = blk_word(w, base + i);

		memcpy(r->data + i, &v, 8);
	}
	memcpy(blk.shadow + base, r->data, r->len);
}

/* Issue @r (slot taken, type/sector/len set), waiting for ring room. */
static void blk_issue(struct blk_req *r)
{
	unsigned int n = r->len / SECTOR;

	if (r->type == BLK_T_OUT || r->type == BLK_T_IN) {
		while (!range_free(r->sector, n, r->type == BLK_T_OUT)) {
			if (blk_reap())
				vt_progress();
			else
				vt_wait("waiting for overlapping requests");
		}
		range_mark(r->sector, n, r->type == BLK_T_OUT, 1);
		if (r->type == BLK_T_OUT)
			blk_fill(r);
	}
	while (!blk_submit(r)) {
		vt_kick(blk.q);
		if (blk_reap())
			vt_progress();
		else
			vt_wait("waiting for room in the request ring");
	}
	vt_kick(blk.q);
}

static void blk_drain(void)
{
	while (blk.q->added != blk.q->used) {
		if (blk_reap())
			vt_progress();
		else
			vt_wait("waiting for the last block requests");
	}
}

/* Write (or read back) the whole area in REQ_MAX pieces. */
static void blk_sweep(unsigned int type)
{
	u64 off;

	for (off = 0; off < blk.area; off += REQ_MAX) {
		struct blk_req *r = blk_slot();

		r->type = type;
		r->sector = off / SECTOR;
		r->len = blk.area - off < REQ_MAX ? blk.area - off : REQ_MAX;
		blk_issue(r);
	}
	blk_drain();
}

static void blk_config(void)
{
	u8 cfg[24];
	u64 capacity;
	u32 seg_max;
	int err;

	if (!(vt.front.protocol_features & (1ULL << VHOST_USER_PROTOCOL_F_CONFIG)))
		vt_fail("the backend offers no CONFIG protocol feature: the disk's capacity is unknown");
	err = vu_get_config(&vt.front, 0, sizeof(cfg), cfg);
	if (err)
		vt_fail("vhost-user: %s", vt.front.why);
	memcpy(&capacity, cfg, 8);
	memcpy(&seg_max, cfg + 12, 4);
	capacity = le64_to_cpu(capacity);
	blk.seg_max = virtio_has_feature(&vt.vdev, VIRTIO_BLK_F_SEG_MAX) ?
		      le32_to_cpu(seg_max) : 1;
	if (!blk.seg_max)
		blk.seg_max = 1;
	blk.area = capacity * SECTOR < AREA_MAX ? capacity * SECTOR : AREA_MAX;
	blk.area &= ~(u64)(REQ_MAX - 1);
	if (blk.area < REQ_MAX)
		vt_fail("the disk has %llu sectors: at least %d needed",
			(unsigned long long)capacity, REQ_MAX / SECTOR);
	if (virtio_has_feature(&vt.vdev, VIRTIO_BLK_F_RO) ||
	    (vt.device_features & (1ULL << VIRTIO_BLK_F_RO)))
		vt_fail("the disk is read-only: writes cannot be checked");
}

int vt_blk_run(void)
{
	unsigned long done = 0, k;
	unsigned long long ns;
	u64 sectors;
	u8 *hdrs, *data;

	blk.q = &vt.q[0];
	blk_config();
	sectors = blk.area / SECTOR;
	blk.shadow = calloc(1, blk.area);
	blk.writer = calloc(sectors, 1);
	blk.readers = calloc(sectors, sizeof(*blk.readers));
	blk.reqs = calloc(blk.q->num, sizeof(*blk.reqs));
	blk.free = calloc(blk.q->num, sizeof(*blk.free));
	CHECK(blk.shadow && blk.writer && blk.readers && blk.reqs && blk.free);
	hdrs = vt_alloc((size_t)blk.q->num * 32);
	data = vt_alloc((size_t)blk.q->num * REQ_MAX);
	for (k = 0; k < blk.q->num; k++) {
		struct blk_req *r = &blk.reqs[k];

		r->hdr = (struct blk_outhdr *)(hdrs + 32 * k);
		r->status = (u8 *)(r->hdr + 1);
		r->data = data + (size_t)k * REQ_MAX;
		blk.free[blk.nfree++] = r;
	}

	blk_sweep(BLK_T_OUT);
	vt.start_ns = vt_now_ns();
	while ((!vt.count || done < vt.count) && !time_up()) {
		struct blk_req *r = blk_slot();
		unsigned int pick = vt_random() % 100;

		if (pick >= 85 && pick < 95 &&
		    !virtio_has_feature(&vt.vdev, VIRTIO_BLK_F_FLUSH))
			pick = 50;	/* no flush: a write instead */
		r->sector = 0;
		if (pick < 85) {
			unsigned int n = 1 + vt_random() % (REQ_MAX / SECTOR);

			r->type = pick < 45 ? BLK_T_IN : BLK_T_OUT;
			r->len = n * SECTOR;
			r->sector = vt_random() % (sectors - n + 1);
			if (r->type == BLK_T_IN)
				blk.reads++;
			else
				blk.writes++;
		} else if (pick < 95) {
			r->type = BLK_T_FLUSH;
			r->len = 0;
			blk.flushes++;
		} else {
			r->type = BLK_T_GET_ID;
			r->len = BLK_ID_BYTES;
			blk.get_ids++;
		}
		blk_issue(r);
		done++;
	}
	blk_drain();
	ns = vt_now_ns() - vt.start_ns;
	blk_sweep(BLK_T_IN);

	if (blk.id[0])
		fprintf(stderr, "vhost_user_frontend: the disk's id: \"%s\"\n", blk.id);
	printf("Requests: %lu\n", done);
	printf("Reads: %lu\n", blk.reads);
	printf("Writes: %lu\n", blk.writes);
	printf("Flushes: %lu\n", blk.flushes);
	printf("Get-ids: %lu\n", blk.get_ids);
	printf("Bytes checked: %llu\n", blk.bytes_checked);
	printf("Short used lengths: %lu\n", blk.short_len);
	print_rate("Requests", done, ns);
	return 0;
}
