// SPDX-License-Identifier: GPL-2.0
/*
 * vhost_user_frontend: the driver's ring code against a real vhost-user backend.
 *
 *   vhost_user_frontend --socket=PATH --device=net|blk [options]
 *
 * The virtqueues are made with vring_create_virtqueue() and driven only
 * through the kernel API, so a kernel tree's virtio_ring.c (GUEST=kernel)
 * runs unchanged.  Everything the ring code allocates comes from one memfd
 * region that the backend maps (vhost-user/shm.h), and the frontend
 * (vhost-user/protocol/frontend.h) describes it with guest_phys_addr == userspace_addr
 * == our mapping: descriptor addresses and ring addresses are the same
 * numbers on both sides.
 *
 * Set-up follows the vhost-user specification: SET_OWNER, GET_FEATURES,
 * protocol features (REPLY_ACK, so every message is confirmed; MQ; CONFIG;
 * STATUS where offered), SET_FEATURES, SET_MEM_TABLE, then per ring NUM,
 * BASE, ADDR, KICK, CALL and ENABLE, and DRIVER_OK.  At the end every ring
 * is stopped with GET_VRING_BASE (a split ring's answer must equal the
 * buffers it used) and the connection is closed.
 *
 * A bad peer never hangs or crashes the program: every wait is bounded by
 * --timeout without progress, and a used id not in flight, a used length
 * past the buffer, a broken queue, a closed socket or a dead peer process
 * (--peer-pid) each give one message with the ring state, exit 1.  A
 * feature the peer or the ring code lacks (--packed with a split-only
 * peer, --in-order with a ring code that drops it) is exit 77 with the
 * reason on the first line, the check runner's SKIP.  Usage errors: exit 2.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/eventfd.h>

#include <linux/virtio.h>
#include <linux/virtio_config.h>
#include <linux/virtio_ring.h>

#include "harness/harness.h"
#include "vhost-user/frontend/vhost_user_frontend.h"

#define VIRTIO_NET_F_MQ		22
#define VIRTIO_BLK_F_SEG_MAX	2
#define VIRTIO_BLK_F_BLK_SIZE	6
#define VIRTIO_BLK_F_FLUSH	9
#define VIRTIO_BLK_F_MQ		12

struct vt vt = {
	.ring_features = 1ULL << VIRTIO_RING_F_INDIRECT_DESC | 1ULL << VIRTIO_RING_F_EVENT_IDX,
	.ring_size = 256,
	.queues = 1,
	.timeout_ms = 10000,
	.seed = 1,
	.cpu = -1,
};

static unsigned long long idle_since_ns;
static uint64_t random_state;

unsigned long long vt_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

uint64_t vt_random(void)
{
	random_state ^= random_state >> 12;
	random_state ^= random_state << 25;
	random_state ^= random_state >> 27;
	return random_state * 0x2545f4914f6cdd1dULL;
}

void *vt_alloc(size_t size)
{
	void *p = rig_arena_alloc(&vt.arena, size);

	if (!p)
		vt_fail("shared memory full (%zu bytes asked, %zu of %zu in use)",
			size, vt.arena.in_use, vt.region.size);
	return p;
}

static const char *queue_role(unsigned int i)
{
	if (vt.device == VT_BLK)
		return "request";
	return i % 2 ? "tx" : "rx";
}

static void print_ring_state(void)
{
	unsigned int i;

	for (i = 0; i < vt.nq; i++) {
		struct vt_queue *q = &vt.q[i];

		fprintf(stderr, "  ring %u (%s): size %u, added %lu, used %lu, in flight %lu, kicks %lu%s",
			i, queue_role(i), q->num, q->added, q->used,
			q->added - q->used, q->kicks,
			q->vq && virtqueue_is_broken(q->vq) ? ", broken" : "");
		if (q->vq && !vt.packed) {
			const struct vring *r = virtqueue_get_vring(q->vq);

			fprintf(stderr, "; avail idx %u, used idx %u, used flags 0x%x",
				(u16)__atomic_load_n(&r->avail->idx, __ATOMIC_RELAXED),
				(u16)__atomic_load_n(&r->used->idx, __ATOMIC_RELAXED),
				(u16)__atomic_load_n(&r->used->flags, __ATOMIC_RELAXED));
		}
		fputc('\n', stderr);
	}
}

void vt_fail(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "vhost_user_frontend: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	print_ring_state();
	exit(1);
}

static void front_fail(int err)
{
	(void)err;
	vt_fail("vhost-user: %s", vt.front.why);
}

/* Is the peer process gone (or a zombie)? */
static bool peer_dead(void)
{
	char path[64], buf[256], *p;
	FILE *f;
	bool dead = true;

	if (!vt.peer_pid)
		return false;
	snprintf(path, sizeof(path), "/proc/%d/stat", vt.peer_pid);
	f = fopen(path, "r");
	if (!f)
		return true;
	if (fgets(buf, sizeof(buf), f)) {
		p = strrchr(buf, ')');
		dead = !p || p[1] != ' ' || p[2] == 'Z' || p[2] == 'X';
	}
	fclose(f);
	return dead;
}

void vt_progress(void)
{
	idle_since_ns = vt_now_ns();
}

static bool notify(struct virtqueue *vq)
{
	struct vt_queue *q = vq->priv;
	uint64_t one = 1;

	q->kicks++;
	return write(q->kick_fd, &one, sizeof(one)) == sizeof(one);
}

void vt_kick(struct vt_queue *q)
{
	if (virtqueue_kick_prepare(q->vq))
		virtqueue_notify(q->vq);
}

static void check_peer(const char *what)
{
	if (!vu_alive(&vt.front))
		vt_fail("the backend closed the connection while %s", what);
	if (peer_dead())
		vt_fail("the backend process %d died while %s", vt.peer_pid, what);
}

void vt_wait(const char *what)
{
	struct pollfd p[VT_MAX_QUEUES + 1];
	unsigned int i, n = 0;
	bool pending = false;
	unsigned long long now = vt_now_ns();

	if (now - idle_since_ns > vt.timeout_ms * 1000000ULL) {
		check_peer(what);
		vt_fail("no progress for %u ms while %s", vt.timeout_ms, what);
	}
	if (vt.poll) {
		static unsigned int spins;

		if (!(++spins & 0xfff))
			check_peer(what);
		return;
	}
	for (i = 0; i < vt.nq; i++) {
		struct vt_queue *q = &vt.q[i];

		if (q->added == q->used)
			continue;
		if (!virtqueue_enable_cb(q->vq))
			pending = true;
		p[n].fd = q->call_fd;
		p[n].events = POLLIN;
		n++;
	}
	if (!pending) {
		p[n].fd = vt.front.sock;
		p[n].events = POLLIN;
		if (poll(p, n + 1, 100) < 0 && errno != EINTR)
			vt_fail("poll: %s", strerror(errno));
		if (p[n].revents)
			check_peer(what);
		if (peer_dead())
			check_peer(what);
	}
	for (i = 0; i < vt.nq; i++) {
		struct vt_queue *q = &vt.q[i];
		uint64_t v;

		if (q->added == q->used)
			continue;
		virtqueue_disable_cb(q->vq);
		if (read(q->call_fd, &v, sizeof(v)) == sizeof(v))
			vt.calls++;
	}
}

/*
 * Connecting and negotiating.
 */
static uint64_t wanted_features(void)
{
	uint64_t f = 1ULL << VIRTIO_F_VERSION_1 | vt.ring_features;

	if (vt.packed)
		f |= 1ULL << VIRTIO_F_RING_PACKED;
	if (vt.in_order)
		f |= 1ULL << VIRTIO_F_IN_ORDER;
	if (vt.device == VT_NET) {
		if (vt.queues > 1)
			f |= 1ULL << VIRTIO_NET_F_MQ;
	} else {
		f |= 1ULL << VIRTIO_BLK_F_SEG_MAX | 1ULL << VIRTIO_BLK_F_BLK_SIZE |
		     1ULL << VIRTIO_BLK_F_FLUSH;
		if (vt.queues > 1)
			f |= 1ULL << VIRTIO_BLK_F_MQ;
	}
	return f;
}

static void set_status(uint8_t bits)
{
	int err;

	vt.status |= bits;
	if (!(vt.front.protocol_features & (1ULL << VHOST_USER_PROTOCOL_F_STATUS)))
		return;
	err = vu_set_status(&vt.front, vt.status);
	if (err)
		front_fail(err);
}

/* Connect, negotiate, and hand over the memory table. */
void vt_connect(void)
{
	uint64_t offered, proto = 0, want, qnum;
	int err;

	/* Waiting for a backend that is starting is fine, silently is not. */
	if (access(vt.socket, F_OK))
		fprintf(stderr, "vhost_user_frontend: no socket at %s yet: waiting up to "
			"%u s for a backend to listen there (--timeout)\n",
			vt.socket, (vt.timeout_ms + 999) / 1000);
	err = vu_connect(&vt.front, vt.socket, vt.timeout_ms);
	if (err)
		front_fail(err);
	err = vu_set_owner(&vt.front);
	if (err)
		front_fail(err);
	err = vu_get_features(&vt.front, &offered);
	if (err)
		front_fail(err);
	vt.device_features = offered;
	if (offered & (1ULL << VHOST_USER_F_PROTOCOL_FEATURES)) {
		err = vu_get_protocol_features(&vt.front, &proto);
		if (err)
			front_fail(err);
		proto &= 1ULL << VHOST_USER_PROTOCOL_F_REPLY_ACK |
			 1ULL << VHOST_USER_PROTOCOL_F_MQ |
			 1ULL << VHOST_USER_PROTOCOL_F_CONFIG |
			 1ULL << VHOST_USER_PROTOCOL_F_STATUS;
		err = vu_set_protocol_features(&vt.front, proto);
		if (err)
			front_fail(err);
	}
	set_status(VIRTIO_CONFIG_S_ACKNOWLEDGE | VIRTIO_CONFIG_S_DRIVER);

	want = wanted_features();
	if (!(offered & (1ULL << VIRTIO_F_VERSION_1)))
		rig_skip("the backend does not offer VIRTIO_F_VERSION_1 (offered 0x%llx)",
		     (unsigned long long)offered);
	if (vt.packed && !(offered & (1ULL << VIRTIO_F_RING_PACKED)))
		rig_skip("--packed: the backend does not offer VIRTIO_F_RING_PACKED (offered 0x%llx)",
		     (unsigned long long)offered);
	if (vt.in_order && !(offered & (1ULL << VIRTIO_F_IN_ORDER)))
		rig_skip("--in-order: the backend does not offer VIRTIO_F_IN_ORDER (offered 0x%llx)",
		     (unsigned long long)offered);
	vt.vdev.features = offered & want;
	vring_transport_features(&vt.vdev);
	if (vt.in_order && !virtio_has_feature(&vt.vdev, VIRTIO_F_IN_ORDER))
		rig_skip("--in-order: the guest ring code (%s) drops VIRTIO_F_IN_ORDER in vring_transport_features()",
		     rig_guest_impl());
	if (vt.packed && !virtio_has_feature(&vt.vdev, VIRTIO_F_RING_PACKED))
		rig_skip("--packed: the guest ring code (%s) drops VIRTIO_F_RING_PACKED",
		     rig_guest_impl());
	if (vt.queues > 1) {
		if (!(vt.front.protocol_features & (1ULL << VHOST_USER_PROTOCOL_F_MQ)))
			rig_skip("--queues=%u: the backend does not offer the MQ protocol feature",
			     vt.queues);
		err = vu_get_queue_num(&vt.front, &qnum);
		if (err)
			front_fail(err);
		if (qnum < vt.nq)
			vt_fail("--queues=%u needs %u rings, the backend has %llu",
				vt.queues, vt.nq, (unsigned long long)qnum);
	}
	err = vu_set_features(&vt.front, vt.vdev.features |
			      (offered & (1ULL << VHOST_USER_F_PROTOCOL_FEATURES)));
	if (err)
		front_fail(err);
	set_status(VIRTIO_CONFIG_S_FEATURES_OK);
	err = vu_set_mem_table(&vt.front, &vt.region, 1);
	if (err)
		front_fail(err);
}

/* Make queue @i and hand it to the backend. */
static void queue_start(unsigned int i)
{
	struct vt_queue *q = &vt.q[i];
	int err;

	snprintf(q->name, sizeof(q->name), "%s%u", queue_role(i), i);
	q->index = i;
	q->vq = vring_create_virtqueue(i, vt.ring_size, 4096, &vt.vdev, true,
				       false, false, notify, NULL, q->name);
	if (!q->vq)
		vt_fail("vring_create_virtqueue(%u entries) failed", vt.ring_size);
	q->vq->priv = q;
	q->num = virtqueue_get_vring_size(q->vq);
	q->kick_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	q->call_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (q->kick_fd < 0 || q->call_fd < 0)
		vt_fail("eventfd: %s", strerror(errno));
	err = vu_set_vring_num(&vt.front, i, q->num);
	if (!err)
		/* A packed ring starts at index 0 with wrap counter 1. */
		err = vu_set_vring_base(&vt.front, i, vt.packed ? 1u << 15 : 0);
	if (!err)
		err = vu_set_vring_addr(&vt.front, i,
					virtqueue_get_desc_addr(q->vq),
					virtqueue_get_avail_addr(q->vq),
					virtqueue_get_used_addr(q->vq));
	if (!err)
		err = vu_set_vring_kick(&vt.front, i, q->kick_fd);
	if (!err)
		err = vu_set_vring_call(&vt.front, i, q->call_fd);
	if (!err && vt.front.acked_protocol)
		err = vu_set_vring_enable(&vt.front, i, true);
	if (err)
		front_fail(err);
	q->enabled = true;
	/* Callbacks stay off until vt_wait() wants one. */
	virtqueue_disable_cb(q->vq);
}

void vt_start_queues(unsigned int n)
{
	unsigned int i;

	vt.nq = n;
	for (i = 0; i < n; i++)
		queue_start(i);
	set_status(VIRTIO_CONFIG_S_DRIVER_OK);
	vt_progress();
}

/*
 * Stop every ring.  A split ring's base is the backend's next avail index:
 * with nothing in flight it must equal the buffers it used.
 */
void vt_stop_queues(bool check)
{
	unsigned int i, base;
	int err;

	for (i = 0; i < vt.nq; i++) {
		struct vt_queue *q = &vt.q[i];

		err = vu_get_vring_base(&vt.front, i, &base);
		if (err)
			front_fail(err);
		if (check && !vt.packed && q->added == q->used &&
		    base != (u16)q->used)
			vt_fail("GET_VRING_BASE of ring %u says %u, the backend used %lu buffers (%u mod 65536)",
				i, base, q->used, (u16)q->used);
	}
	if (vt.front.protocol_features & (1ULL << VHOST_USER_PROTOCOL_F_STATUS)) {
		vt.status = 0;
		err = vu_set_status(&vt.front, 0);
		if (err)
			front_fail(err);
	}
}

static void queues_destroy(void)
{
	unsigned int i;

	for (i = 0; i < vt.nq; i++) {
		struct vt_queue *q = &vt.q[i];
		void *buf;

		while ((buf = virtqueue_detach_unused_buf(q->vq)))
			;
		vring_del_virtqueue(q->vq);
		close(q->kick_fd);
		close(q->call_fd);
	}
	vt.nq = 0;
}

static void usage(void)
{
	printf(
"Usage: vhost_user_frontend --socket=PATH --device=net|blk [--packed]\n"
"                           [--in-order] [--[no-]indirect] [--[no-]event-idx]\n"
"                           [--ring-size=N] [--queues=N] [--count=N]\n"
"                           [--seconds=S] [--timeout=S] [--frame-len=N]\n"
"                           [--burst=N] [--poll] [--seed=N] [--peer-pid=PID]\n"
"                           [--cpu=N] [--torture=CASE|list] [--version] [--help]\n"
"\n"
"Drive a vhost-user backend listening on PATH with this build's ring code\n"
"(%s), checking everything that comes back.\n"
"\n"
"  --device=net        frames through queue pairs (rx 2i, tx 2i+1) to a backend\n"
"                      that echoes them (testpmd io forwarding); each frame's\n"
"                      payload and sequence are checked, none may be lost\n"
"  --device=blk        virtio-blk reads, writes, flushes and get-id against a\n"
"                      disk; every byte read is checked against what was\n"
"                      written (the test area is written first, read back last)\n"
"  --packed            a packed ring (VIRTIO_F_RING_PACKED)\n"
"  --in-order          VIRTIO_F_IN_ORDER\n"
"  --[no-]indirect     VIRTIO_RING_F_INDIRECT_DESC (default on)\n"
"  --[no-]event-idx    VIRTIO_RING_F_EVENT_IDX (default on)\n"
"  --ring-size=N       entries per ring (default 256)\n"
"  --queues=N          queue pairs (net) or request queues (blk) (default 1)\n"
"  --count=N           frames (net, default 100000) or requests (blk, default\n"
"                      10000); 0: until --seconds\n"
"  --seconds=S         stop after S seconds (default: no limit)\n"
"  --timeout=S         fail after S seconds without progress (default 10)\n"
"  --frame-len=N       net: every frame N bytes, 60..1514 (default: varying)\n"
"  --burst=N           net, benchmark mode: DPDK's io forwarding's work, N\n"
"                      frames in flight (testpmd: 32), one descriptor each,\n"
"                      --frame-len bytes (61..1514, default 64) never compared;\n"
"                      counts and lengths still checked; adds CPU ns/frame\n"
"  --poll              never sleep: poll the used rings (no interrupts)\n"
"  --seed=N            seed of the random request mix and frame lengths\n"
"  --peer-pid=PID      the backend's process, to tell a dead peer from a hung one\n"
"  --cpu=N             run on CPU N (default: the last allowed CPU)\n"
"  --torture=CASE      break one rule of the spec and report what the backend\n"
"                      did; --torture=list names the cases\n"
"\n"
"Output: one figure per line.  Exit 0: all checked; 1: the backend failed a\n"
"check (the message gives the ring state); 2: usage; 77: the backend or the\n"
"ring code lacks a feature asked for (the reason on stdout).\n",
		rig_guest_impl());
}

static void parse_options(int argc, char *argv[])
{
	enum {
		OPT_SOCKET = 256, OPT_DEVICE,
		OPT_RING_SIZE, OPT_QUEUES, OPT_COUNT, OPT_SECONDS, OPT_TIMEOUT,
		OPT_FRAME_LEN, OPT_POLL, OPT_SEED, OPT_PEER_PID, OPT_CPU,
		OPT_TORTURE, OPT_BURST,
	};
	static const struct option longopts[] = {
		RIG_HELP_OPTION,
		{ "socket", required_argument, NULL, OPT_SOCKET },
		{ "device", required_argument, NULL, OPT_DEVICE },
		RIG_PACKED_OPTION,
		RIG_IN_ORDER_OPTION(no_argument),
		RIG_FEATURE_OPTIONS("indirect", VIRTIO_RING_F_INDIRECT_DESC),
		RIG_FEATURE_OPTIONS("event-idx", VIRTIO_RING_F_EVENT_IDX),
		{ "ring-size", required_argument, NULL, OPT_RING_SIZE },
		{ "queues", required_argument, NULL, OPT_QUEUES },
		{ "count", required_argument, NULL, OPT_COUNT },
		{ "seconds", required_argument, NULL, OPT_SECONDS },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "frame-len", required_argument, NULL, OPT_FRAME_LEN },
		{ "poll", no_argument, NULL, OPT_POLL },
		{ "burst", required_argument, NULL, OPT_BURST },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "peer-pid", required_argument, NULL, OPT_PEER_PID },
		{ "cpu", required_argument, NULL, OPT_CPU },
		{ "torture", required_argument, NULL, OPT_TORTURE },
		RIG_VERSION_OPTION,
		{ }
	};
	static const struct rig_getopt common = {
		.prog = "vhost_user_frontend", .usage = usage, .features = &vt.ring_features,
		.packed = &vt.packed, .in_order = &vt.in_order, .no_operands = true,
	};
	unsigned int timeout = 0;	/* --timeout's seconds */
	const struct rig_number_opt numbers[] = {
		RIG_NUMBER_OPT(OPT_RING_SIZE, vt.ring_size, 2, 32768),
		RIG_NUMBER_OPT(OPT_QUEUES, vt.queues, 1, VT_MAX_QUEUES / 2),
		RIG_NUMBER_OPT(OPT_COUNT, vt.count, 0, 1UL << 48),
		RIG_NUMBER_OPT(OPT_SECONDS, vt.seconds, 1, 86400),
		RIG_NUMBER_OPT(OPT_TIMEOUT, timeout, 1, 3600),
		RIG_NUMBER_OPT(OPT_FRAME_LEN, vt.frame_len, 60, 1514),
		RIG_NUMBER_OPT(OPT_BURST, vt.burst, 1, 32768),
		RIG_NUMBER_OPT(OPT_SEED, vt.seed, 1, ~0UL),
		RIG_NUMBER_OPT(OPT_PEER_PID, vt.peer_pid, 1, 1UL << 22),
		RIG_NUMBER_OPT(OPT_CPU, vt.cpu, 0, CPU_SETSIZE - 1),
	};
	static const char *const device_name[] = { [VT_NET] = "net", [VT_BLK] = "blk" };
	bool have_device = false, have_count = false;
	int c, device;

	opterr = 0;
	while ((c = rig_getopt(argc, argv, longopts, &common)) != -1) {
		if (rig_number_option(c, numbers, ARRAY_SIZE(numbers), longopts)) {
			have_count |= c == OPT_COUNT;
			continue;
		}
		switch (c) {
		case OPT_SOCKET:
			vt.socket = optarg;
			break;
		case OPT_DEVICE:
			device = rig_name_index(optarg, device_name, ARRAY_SIZE(device_name));
			if (device < 0)
				rig_usage_error("bad --device '%s' (net or blk)", optarg);
			vt.device = device;
			have_device = true;
			break;
		case OPT_POLL:
			vt.poll = true;
			break;
		case OPT_TORTURE:
			if (!strcmp(optarg, "list")) {
				vt_torture_list();
				exit(0);
			}
			if (!vt_torture_known(optarg))
				rig_usage_error("unknown --torture case '%s' (--torture=list names them)",
					  optarg);
			vt.torture = optarg;
			break;
		default:
			if (optopt)
				rig_usage_error("bad option or missing value: '%s'", argv[optind - 1]);
			rig_usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (timeout)
		vt.timeout_ms = timeout * 1000;
	if (!vt.socket)
		rig_usage_error("--socket=PATH is required");
	if (!have_device)
		rig_usage_error("--device=net or --device=blk is required");
	if (!vt.packed && (vt.ring_size & (vt.ring_size - 1)))
		rig_usage_error("--ring-size: a split ring's size is a power of 2");
	if (vt.frame_len && vt.device != VT_NET)
		rig_usage_error("--frame-len is for --device=net");
	if (vt.burst) {
		if (vt.device != VT_NET)
			rig_usage_error("--burst is for --device=net");
		if (vt.burst > vt.ring_size)
			rig_usage_error("--burst=%u: more frames in flight than the %u entries of a ring",
					vt.burst, vt.ring_size);
		if (!vt.frame_len)
			vt.frame_len = 64;
		if (vt.frame_len == 60)
			rig_usage_error("--burst: --frame-len must be 61..1514 (a 60-byte frame is a probe)");
	}
	if (!have_count)
		vt.count = vt.device == VT_NET ? 100000 : 10000;
	if (!vt.count && !vt.seconds)
		rig_usage_error("--count=0 needs --seconds");
}

static size_t region_size(void)
{
	size_t per_buf = vt.device == VT_NET ? 2 * 2200 : 70 * 1024;
	size_t per_queue = (size_t)vt.ring_size * (per_buf + 256) + (1 << 20);

	/* Rings, buffers, the ring code's bookkeeping, and room to spare. */
	return ((16UL << 20) + 2 * vt.queues * per_queue + (2UL << 20) - 1) &
	       ~((2UL << 20) - 1);
}

int main(int argc, char *argv[])
{
	int a, b, rc;

	parse_options(argc, argv);
	signal(SIGPIPE, SIG_IGN);
	rig_pick_two_cpus(&a, &b);
	rig_pin_thread(vt.cpu >= 0 ? vt.cpu : b);
	random_state = vt.seed * 0x9e3779b97f4a7c15ULL | 1;

	if (!vu_region_create(&vt.region, region_size()))
		rig_die("shared memory of %zu bytes", region_size());
	rig_arena_init(&vt.arena, "vhost_user_frontend shared memory", vt.region.addr,
		       vt.region.size);
	/* From here every kmalloc() of the ring code is shared memory. */
	rig_arena_attach(&vt.arena);
	rig_vdev_init(&vt.vdev, 0);

	if (vt.torture) {
		rc = vt_torture_run();
	} else {
		vt_connect();
		vt_start_queues(vt.device == VT_NET ? 2 * vt.queues : vt.queues);
		rc = vt.device == VT_NET ? vt_net_run() : vt_blk_run();
		vt_stop_queues(true);
		vu_disconnect(&vt.front);
		queues_destroy();
	}
	rig_arena_attach(NULL);
	vu_region_destroy(&vt.region);
	return rc;
}
