// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile buffers against the kernel's vhost-net (kernel/vhost_net.h):
 * transmit and receive buffers written by hand as a malicious guest would
 * write them, on split rings of a virtio 1.x device, served by the tree's
 * net.c in this thread (vhost_core_kick(): its handle_tx and handle_rx,
 * with nothing waking the worker).  Each case says what refusing means
 * for it: vhost-net calls vq_err() (its error eventfd) and uses nothing;
 * or the frame goes nowhere (neither on the wire nor into a buffer) and
 * what comes next passes as it should; or an ioctl fails.  What the spec
 * lets a device refuse and the kernel's net.c takes is the case's gap: a
 * TODO (exit 78), a pass saying the gap is gone if a tree does refuse.
 *
 * Usage: vhost_net_hostile --list | --gaps | CASE
 * Exit 0 refused, 1 not, 2 usage error, 77 no vhost-net in this build
 * (SKIP), 78 a known gap.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/eventfd.h>

#include <linux/virtio_config.h>
#include <linux/virtio_net.h>
#include <linux/virtio_ring.h>

#include "harness/harness.h"
#include "kernel/vhost_core.h"
#include "kernel/vhost_net.h"
#include "tests/chain.h"

static const char help[] =
"Usage: vhost_net_hostile --list | vhost_net_hostile --gaps | vhost_net_hostile CASE\n"
"Run one hostile-buffer case against the kernel's vhost-net (--list names\n"
"them all).  Exit 0: vhost-net refused it; 1: it did not; 2: usage error;\n"
"77: SKIP, no vhost-net in this build (make KSRC=); 78: TODO, vhost-net is\n"
"known not to refuse it (a pass then says the gap is gone).\n";

#define RING_SIZE	16
#define MEM_BYTES	(128 * 1024)
#define HDR		sizeof(struct virtio_net_hdr_mrg_rxbuf)	/* virtio 1.x's */
#define MTU		1514
#define FEATURES	(1ULL << VIRTIO_F_VERSION_1)
#define MRG		(1ULL << VIRTIO_NET_F_MRG_RXBUF)
#define GUARD		0x5a		/* bytes no buffer owns */

static struct vhost_net_dev *net;
static struct vhost_core *core;
static struct vring ring[2];		/* VHOST_NET_RX, VHOST_NET_TX */
static unsigned char *data;		/* buffers, in the device's memory */
static int call_fd = -1;

/* The device with both queues on zeroed rings, its socket attached. */
static void setup(u64 features)
{
	struct rig_packet_opts wire = {
		.mtu = MTU, .sink_frames = 16, .queue_frames = 16, .wake = false,
	};
	const char *why, *what = "";
	unsigned int i;
	int err;

	net = vhost_net_open(MEM_BYTES, -1, &wire, &why);
	if (!net)
		rig_skip("%s: %s", rig_case_name, why);
	core = vhost_net_core(net);
	call_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	CHECK(call_fd >= 0);
	err = vhost_net_set_features(net, features, &what);
	CHECKF(err == 0, "%s: %d", what, err);
	for (i = 0; i < 2; i++) {
		void *mem = vhost_core_alloc(core, vring_size(RING_SIZE, RIG_RING_ALIGN));

		CHECK(mem);
		memset(mem, 0, vring_size(RING_SIZE, RIG_RING_ALIGN));
		vring_init(&ring[i], RING_SIZE, mem, RIG_RING_ALIGN);
		err = vhost_core_vring(core, i, RING_SIZE, ring[i].desc, ring[i].avail,
				       ring[i].used, -1, call_fd, &what);
		CHECKF(err == 0, "queue %u: %s: %d", i, what, err);
		err = vhost_net_backend(net, i, vhost_net_socket_fd(net), &what);
		CHECKF(err == 0, "queue %u: %s: %d", i, what, err);
	}
	vhost_core_flush(core);		/* the socket's first poll queued the handlers */
	data = vhost_core_alloc(core, 16 * 4096);
	CHECK(data);
	memset(data, GUARD, 16 * 4096);
}

static void teardown(void)
{
	vhost_net_close(net);
	close(call_fd);
}

/* Byte @i of buffer @n's room: buffers are 4 KiB apart. */
static u64 buf(unsigned int n)
{
	return (uintptr_t)(data + n * 4096);
}

static struct vring *queue;		/* the queue OFFER() writes */

static void offer(u16 head)
{
	u16 idx = le16_to_cpu(queue->avail->idx);

	queue->avail->ring[idx % RING_SIZE] = cpu_to_le16(head);
	queue->avail->idx = cpu_to_le16(idx + 1);
}

/* OFFER(q, rows...): the chain into queue @q's ring, its first row the head. */
#define OFFER(q, ...) do {						\
	queue = &ring[q];						\
	chain_offer(chain_set_desc_le, offer, queue->desc, CHAIN_ROWS(__VA_ARGS__)); \
} while (0)

static u16 used_idx(unsigned int q)
{
	return le16_to_cpu(READ_ONCE(ring[q].used->idx));
}

static void kick(unsigned int q)
{
	CHECK(vhost_core_kick(core, q) == 0);
}

/* Frame @n of @len bytes: every byte says which frame and where. */
static void make_frame(unsigned int n, unsigned char *f, unsigned int len)
{
	unsigned int i;

	for (i = 0; i < len; i++)
		f[i] = (unsigned char)(n * 37 + i);
}

static void deliver(unsigned int n, unsigned int len)
{
	static unsigned char f[MTU];
	int err;

	make_frame(n, f, len);
	err = vhost_net_deliver(net, NULL, f, len);
	CHECKF(err == 0, "putting frame %u on the wire: %d", n, err);
}

static struct rig_packet_stats wire_stats(void)
{
	struct rig_packet_stats s;

	vhost_net_stats(net, &s);
	return s;
}

/*
 * vhost-net must refuse queue @q's buffer: no buffer used, vq_err()
 * called; and (TX) nothing on the wire, or (RX) the frame still there.
 */
static int expect_vq_err(unsigned int q)
{
	struct rig_packet_stats s;
	u16 used;
	bool said;

	kick(q);
	used = used_idx(q);
	said = vhost_core_failed(core);
	s = wire_stats();
	teardown();
	CHECKF_GAP(used == 0, "vhost-net used the buffer: used index %u", used);
	CHECKF(said, "vhost-net used nothing but said nothing (no vq_err())");
	CHECKF(s.sent == 0 && s.received == 0,
	       "yet the socket sent 0x%lx frames and received 0x%lx", s.sent, s.received);
	return 0;
}

/*
 * TX: a frame longer than the wire takes goes nowhere (the socket says
 * -EMSGSIZE); its buffer comes back, with nothing written.
 */
static int tx_frame_too_long(void)
{
	struct rig_packet_stats s;
	u16 used;
	u32 len;

	setup(FEATURES);
	memset(data, 0, HDR);
	OFFER(VHOST_NET_TX, { 0, buf(0), HDR + MTU + 1, 0, 0 });
	kick(VHOST_NET_TX);
	s = wire_stats();
	used = used_idx(VHOST_NET_TX);
	len = le32_to_cpu(ring[VHOST_NET_TX].used->ring[0].len);
	teardown();
	CHECKF_GAP(s.sent == 0, "vhost-net sent a frame of %d bytes on a wire of MTU %d", MTU + 1, MTU);
	CHECKF(s.refused == 1, "the socket refused 0x%lx frames", s.refused);
	CHECKF(used == 1 && len == 0, "the buffer did not come back (used index %u, length %u)",
	       used, len);
	return 0;
}

/* TX: a buffer shorter than the virtio-net header. */
static int tx_header_short(void)
{
	setup(FEATURES);
	OFFER(VHOST_NET_TX, { 0, buf(0), HDR - 2, 0, 0 });
	return expect_vq_err(VHOST_NET_TX);
}

/* TX: the header and no frame. */
static int tx_header_only(void)
{
	setup(FEATURES);
	OFFER(VHOST_NET_TX, { 0, buf(0), HDR, 0, 0 });
	return expect_vq_err(VHOST_NET_TX);
}

/* TX: a chain with a device-writable part, which the device would only read. */
static int tx_chain_writable(void)
{
	setup(FEATURES);
	OFFER(VHOST_NET_TX, { 0, buf(0), HDR, VRING_DESC_F_NEXT, 1 },
	      { 1, buf(1), 100, VRING_DESC_F_WRITE, 0 });
	return expect_vq_err(VHOST_NET_TX);
}

/* RX: a chain with a device-readable part, where the device writes. */
static int rx_chain_readable(void)
{
	setup(FEATURES);
	OFFER(VHOST_NET_RX, { 0, buf(0), HDR, VRING_DESC_F_NEXT, 1 },
	      { 1, buf(1), 2000, VRING_DESC_F_WRITE, 0 });
	deliver(0, 100);
	return expect_vq_err(VHOST_NET_RX);
}

/*
 * The guard bytes around receive buffer @n (@len bytes at its start) are
 * untouched, but for the one byte vhost-net's overrun path reads into a
 * buffer it then gives back unused.
 */
static void check_guard(unsigned int n, unsigned int len)
{
	const unsigned char *b = data + n * 4096;
	unsigned int i;

	for (i = len; i < 4096; i++)
		CHECKF(b[i] == GUARD, "buffer %u: byte %u past its %u bytes was written", n, i, len);
}

/*
 * RX without merging: a frame longer than the buffer goes nowhere, and
 * the buffer takes the next frame, which fits.
 */
static int rx_frame_too_long(void)
{
	unsigned char f[200];
	u16 used;

	setup(FEATURES);
	OFFER(VHOST_NET_RX, { 0, buf(0), HDR + 200, VRING_DESC_F_WRITE, 0 });
	deliver(1, 1000);
	kick(VHOST_NET_RX);
	used = used_idx(VHOST_NET_RX);
	CHECKF_GAP(used == 0, "vhost-net used the %zu-byte buffer for a 1000-byte frame",
		   HDR + 200);
	CHECKF(wire_stats().received == 1, "the frame is still on the wire");
	CHECKF(!vhost_core_failed(core), "vq_err() for a frame that is dropped");
	check_guard(0, HDR + 200);
	deliver(2, 200);
	kick(VHOST_NET_RX);
	CHECKF(used_idx(VHOST_NET_RX) == 1, "the next frame, which fits, was not received");
	CHECKF(le32_to_cpu(ring[VHOST_NET_RX].used->ring[0].len) == HDR + 200,
	       "used length %u, expected %zu", le32_to_cpu(ring[VHOST_NET_RX].used->ring[0].len),
	       HDR + 200);
	make_frame(2, f, sizeof(f));
	CHECKF(!memcmp(data + HDR, f, sizeof(f)), "the frame received is not frame 2");
	check_guard(0, HDR + 200);
	teardown();
	return 0;
}

/* RX without merging: a buffer shorter than the header itself. */
static int rx_header_short(void)
{
	struct rig_packet_stats s;
	u16 used;

	setup(FEATURES);
	OFFER(VHOST_NET_RX, { 0, buf(0), HDR - 4, VRING_DESC_F_WRITE, 0 });
	deliver(1, 60);
	kick(VHOST_NET_RX);
	used = used_idx(VHOST_NET_RX);
	s = wire_stats();
	check_guard(0, HDR - 4);
	teardown();
	CHECKF_GAP(used == 0, "vhost-net used a %zu-byte buffer for the header and a frame",
		   HDR - 4);
	CHECKF(s.received == 1, "the frame is still on the wire (0x%lx received)", s.received);
	return 0;
}

/*
 * RX with merging: every buffer shorter than the header (5.1.6.3.1: with
 * VIRTIO_NET_F_MRG_RXBUF each buffer MUST be at least the header's size),
 * so the header would span buffers.
 */
static int rx_mrg_header_short(void)
{
	u16 used;

	setup(FEATURES | MRG);
	OFFER(VHOST_NET_RX, { 0, buf(0), 8, VRING_DESC_F_WRITE, 0 });
	OFFER(VHOST_NET_RX, { 1, buf(1), 8, VRING_DESC_F_WRITE, 0 });
	OFFER(VHOST_NET_RX, { 2, buf(2), 8, VRING_DESC_F_WRITE, 0 });
	OFFER(VHOST_NET_RX, { 3, buf(3), 8, VRING_DESC_F_WRITE, 0 });
	deliver(1, 14);
	kick(VHOST_NET_RX);
	used = used_idx(VHOST_NET_RX);
	check_guard(0, 8);
	teardown();
	CHECKF_GAP(used == 0, "vhost-net spread the header over %u buffers of 8 bytes", used);
	return 0;
}

/*
 * RX without merging, virtio 1.x: the header's num_buffers is 1
 * (5.1.6.4.1: the device MUST set it to 1 when VIRTIO_NET_F_MRG_RXBUF is
 * not negotiated).
 */
static int spec_rx_num_buffers(void)
{
	const struct virtio_net_hdr_mrg_rxbuf *h;
	u16 used, num;

	setup(FEATURES);
	h = (const void *)data;
	OFFER(VHOST_NET_RX, { 0, buf(0), HDR + 100, VRING_DESC_F_WRITE, 0 });
	deliver(1, 100);
	kick(VHOST_NET_RX);
	used = used_idx(VHOST_NET_RX);
	num = le16_to_cpu(h->num_buffers);
	teardown();
	CHECKF(used == 1, "the frame was not received (used index %u)", used);
	CHECKF_GAP(num == 1, "num_buffers is 0x%x (the buffer's byte was 0x%x), not 1", num,
		   GUARD);
	return 0;
}

/*
 * With VIRTIO_RING_F_EVENT_IDX the used ring's flags are 0 (2.7.10), also
 * after the backend is set to -1 and back once vhost-net has run dry.
 */
static int spec_used_flags_event_idx(void)
{
	const char *what = "";
	u16 flags;
	int err;

	setup(FEATURES | 1ULL << VIRTIO_RING_F_EVENT_IDX);
	kick(VHOST_NET_RX);		/* nothing on the wire */
	err = vhost_net_backend(net, VHOST_NET_RX, -1, &what);
	CHECKF(err == 0, "%s -1: %d", what, err);
	err = vhost_net_backend(net, VHOST_NET_RX, vhost_net_socket_fd(net), &what);
	CHECKF(err == 0, "%s: %d", what, err);
	flags = le16_to_cpu(READ_ONCE(ring[VHOST_NET_RX].used->flags));
	teardown();
	CHECKF_GAP(flags == 0, "used flags 0x%x with VIRTIO_RING_F_EVENT_IDX", flags);
	return 0;
}

/* VHOST_NET_SET_BACKEND with a descriptor that is no socket. */
static int backend_not_a_socket(void)
{
	const char *what = "";
	int fd, err;

	setup(FEATURES);
	fd = eventfd(0, EFD_CLOEXEC);
	CHECK(fd >= 0);
	err = vhost_net_backend(net, VHOST_NET_TX, fd, &what);
	close(fd);
	teardown();
	CHECKF_GAP(err < 0, "vhost-net took an eventfd as its socket");
	CHECKF(err == -ENOTSOCK, "%s: %d, expected -ENOTSOCK", what, err);
	return 0;
}

/* A case's gap is what the kernel's vhost-net does not refuse. */
static const struct rig_case cases[] = {
	RIG_HOST_CASE("tx-frame-too-long", tx_frame_too_long),
	RIG_HOST_CASE("tx-header-short", tx_header_short),
	RIG_HOST_CASE("tx-header-only", tx_header_only),
	RIG_HOST_CASE("tx-chain-writable", tx_chain_writable),
	RIG_HOST_CASE("rx-frame-too-long", rx_frame_too_long),
	RIG_HOST_CASE("rx-header-short", rx_header_short),
	RIG_HOST_CASE_GAP("rx-mrg-header-short", rx_mrg_header_short,
			  "the kernel's vhost-net takes merged receive buffers shorter than the header, the header spanning them"),
	RIG_HOST_CASE("rx-chain-readable", rx_chain_readable),
	RIG_HOST_CASE_GAP("spec-rx-num-buffers", spec_rx_num_buffers,
			  "the kernel's vhost-net writes num_buffers only with VIRTIO_NET_F_MRG_RXBUF, not for every virtio 1.x header"),
	RIG_HOST_CASE_GAP("spec-used-flags-event-idx", spec_used_flags_event_idx,
			  VHOST_CORE_GAP_USED_FLAGS),
	RIG_HOST_CASE("backend-not-a-socket", backend_not_a_socket),
};

RIG_CASE_MAIN(cases, help)
