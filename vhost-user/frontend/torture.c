// SPDX-License-Identifier: GPL-2.0
/*
 * vhost_user_frontend --torture=CASE: break one rule of the virtio or vhost-user
 * specification and record what the backend did.  A report about the
 * peer, not a pass or fail of ours: the line printed is
 *
 *   torture CASE: OUTCOME; details
 *
 * OUTCOME is one of
 *   kept serving   a good request after the bad one was served
 *   refused        the backend said no (a REPLY_ACK error, or an error
 *                  status for the bad request) and served the good one
 *   closed         the backend closed the connection (its process lives)
 *   crashed        the backend's process died (needs --peer-pid)
 *   hung           the connection and process are alive, but the good
 *                  request was not served within the observation time
 * and the details say what became of the bad request itself.
 *
 * The rule breaking needs ring contents that the ring code never writes,
 * so these cases drive a split ring of their own (the spec's layout from
 * uapi/linux/virtio_ring.h), not virtio_ring.c: ours or a kernel tree's
 * is never touched.  The ring lives in the same shared region, and the
 * set-up goes through the same frontend.  First a good request must be
 * served (the baseline: else exit 1, "the backend does not work even
 * before"); then the bad act; then another good request.
 *
 * Device: net (testpmd echoes: a good request is a frame on ring 1 that
 * must come back on ring 0) or blk (a good request is a one-sector read
 * with status OK).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/eventfd.h>

#include <linux/virtio_config.h>
#include <linux/virtio_ring.h>

#include "harness/harness.h"
#include "vhost-user/frontend/vhost_user_frontend.h"

#define RING_NUM	64
#define OBSERVE_MS	1500
#define NET_HDR		12
#define FRAME_LEN	64
#define RX_BUF		2048
#define BLK_T_IN	0
#define BLK_HDR		16

struct raw_ring {
	unsigned int index, num;
	struct vring vr;
	u16 avail_idx, last_used, next_desc;
	int kick_fd, call_fd;
};

static struct raw_ring rings[2];
static struct raw_ring *req;		/* where requests go: net tx, blk */
static u8 *bufs;			/* request buffers: 4 KiB each */
static unsigned int nbufs;
static unsigned long good_seq;
static char detail[512];

enum outcome { KEPT_SERVING, REFUSED, CLOSED, CRASHED, HUNG };
static const char *const outcome_name[] = {
	[KEPT_SERVING] = "kept serving",
	[REFUSED] = "refused",
	[CLOSED] = "closed",
	[CRASHED] = "crashed",
	[HUNG] = "hung",
};

static u8 *buf(void)
{
	return bufs + (size_t)(nbufs++ % 256) * 4096;
}

static u64 addr(const void *p)
{
	return (uintptr_t)p;
}

static void raw_ring_start(struct raw_ring *r, unsigned int index, bool enable)
{
	void *mem = vt_alloc(vring_size(RING_NUM, 4096));
	int err;

	memset(mem, 0, vring_size(RING_NUM, 4096));
	r->index = index;
	r->num = RING_NUM;
	vring_init(&r->vr, RING_NUM, mem, 4096);
	r->kick_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	r->call_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	err = vu_set_vring_num(&vt.front, index, RING_NUM);
	if (!err)
		err = vu_set_vring_base(&vt.front, index, 0);
	if (!err)
		err = vu_set_vring_addr(&vt.front, index, addr(r->vr.desc),
					addr(r->vr.avail), addr(r->vr.used));
	if (!err)
		err = vu_set_vring_kick(&vt.front, index, r->kick_fd);
	if (!err)
		err = vu_set_vring_call(&vt.front, index, r->call_fd);
	if (!err && enable && vt.front.acked_protocol)
		err = vu_set_vring_enable(&vt.front, index, true);
	if (err)
		vt_fail("setting up ring %u: %s", index, vt.front.why);
}

static void kick(struct raw_ring *r)
{
	u64 one = 1;

	if (write(r->kick_fd, &one, sizeof(one)) != sizeof(one))
		vt_fail("kick: %s", strerror(errno));
}

/* One descriptor, at the next free slot; returns its index. */
static u16 desc(struct raw_ring *r, u64 a, u32 len, u16 flags, u16 next)
{
	u16 i = r->next_desc++ % r->num;

	r->vr.desc[i].addr = (__force __virtio64)cpu_to_le64(a);
	r->vr.desc[i].len = (__force __virtio32)cpu_to_le32(len);
	r->vr.desc[i].flags = (__force __virtio16)cpu_to_le16(flags);
	r->vr.desc[i].next = (__force __virtio16)cpu_to_le16(next);
	return i;
}

/* The index the next desc() call will use. */
static u16 next_slot(struct raw_ring *r, unsigned int ahead)
{
	return (r->next_desc + ahead) % r->num;
}

static void publish(struct raw_ring *r, u16 head)
{
	r->vr.avail->ring[r->avail_idx % r->num] = (__force __virtio16)cpu_to_le16(head);
	r->avail_idx++;
	/* The release store orders the entry before the index; the kick is
	 * a system call, after both. */
	__atomic_store_n(&r->vr.avail->idx, (__force __virtio16)cpu_to_le16(r->avail_idx),
			 __ATOMIC_RELEASE);
	kick(r);
}

/* The next used element of @r, if any within @ms. */
static bool used_next(struct raw_ring *r, unsigned int ms, u32 *id, u32 *len)
{
	unsigned long long end = vt_now_ns() + ms * 1000000ULL;

	do {
		u16 idx = le16_to_cpu((__force __le16)__atomic_load_n(&r->vr.used->idx,
								  __ATOMIC_ACQUIRE));

		if (idx != r->last_used) {
			struct vring_used_elem *e = &r->vr.used->ring[r->last_used % r->num];

			*id = le32_to_cpu((__force __le32)e->id);
			*len = le32_to_cpu((__force __le32)e->len);
			r->last_used++;
			return true;
		}
		if (!vu_alive(&vt.front))
			return false;
		usleep(1000);
	} while (vt_now_ns() < end);
	return false;
}

/*
 * Good requests.
 */
static void net_post_rx(unsigned int n)
{
	while (n--)
		publish(&rings[0], desc(&rings[0], addr(buf()), RX_BUF,
					VRING_DESC_F_WRITE, 0));
}

static void frame(u8 *p, unsigned long seq)
{
	memset(p, 0, NET_HDR);
	memset(p + NET_HDR, 0xff, 6);
	memcpy(p + NET_HDR + 6, "\x02\0\0\0\0\x02\x88\xb5", 8);
	memcpy(p + NET_HDR + 14, &seq, sizeof(seq));
	memset(p + NET_HDR + 22, 0x5a, FRAME_LEN - 22);
}

/* blk: a one-sector read; returns its head.  *status is set to 0xff. */
static u16 blk_read(u8 **status)
{
	u8 *p = buf();
	u16 h = next_slot(req, 0);

	memset(p, 0, 4096);
	*(__le32 *)p = cpu_to_le32(BLK_T_IN);
	p[BLK_HDR + 512] = 0xff;
	*status = p + BLK_HDR + 512;
	desc(req, addr(p), BLK_HDR, VRING_DESC_F_NEXT, next_slot(req, 1));
	desc(req, addr(p + BLK_HDR), 512, VRING_DESC_F_NEXT | VRING_DESC_F_WRITE,
	     next_slot(req, 1));
	desc(req, addr(p + BLK_HDR + 512), 1, VRING_DESC_F_WRITE, 0);
	return h;
}

/* Send a good request; true if it was served within @ms. */
static bool good_request(unsigned int ms)
{
	u32 id, len;

	if (vt.device == VT_NET) {
		u8 *p = buf();
		unsigned long seq = 0x600d0000 + good_seq++;
		unsigned long long end = vt_now_ns() + ms * 1000000ULL;

		frame(p, seq);
		publish(req, desc(req, addr(p), NET_HDR + FRAME_LEN, 0, 0));
		/* Its echo on ring 0 (tx completions are read elsewhere). */
		while (vt_now_ns() < end) {
			if (!used_next(&rings[0], 50, &id, &len))
				continue;
			net_post_rx(1);
			if (len == NET_HDR + FRAME_LEN && id < RING_NUM) {
				u8 *rx = (u8 *)(uintptr_t)le64_to_cpu(
					(__force __le64)rings[0].vr.desc[id].addr);
				unsigned long got;

				memcpy(&got, rx + NET_HDR + 14, sizeof(got));
				if (got == seq)
					return true;
			}
		}
		return false;
	} else {
		u8 *status;
		u16 h = blk_read(&status);

		publish(req, h);
		while (used_next(req, ms, &id, &len))
			if (id == h)
				return *status == 0;
		return false;
	}
}

/* What became of the bad request on the request ring. */
static void note_bad_used(u16 head, const u8 *status)
{
	u32 id, len;
	int n = 0;

	while (used_next(req, vt.device == VT_NET ? 300 : OBSERVE_MS, &id, &len)) {
		n++;
		if (id == head) {
			snprintf(detail, sizeof(detail), "bad buffer used, len %u%s", len,
				 status && *status != 0xff ?
				 (*status == 0 ? ", status OK" :
				  *status == 1 ? ", status IOERR" :
				  *status == 2 ? ", status UNSUPP" : ", status ?") : "");
			return;
		}
	}
	snprintf(detail, sizeof(detail), n ? "bad buffer not used (%d other used entries)" :
		 "bad buffer not used", n);
}

/*
 * The cases.  Each does its bad act and fills in detail; returns true if
 * the backend refused it outright.
 */
struct tcase {
	const char *name;
	const char *what;
	bool (*run)(void);
	bool disabled;		/* the request ring is never enabled first */
};

/* A chain of @n descriptors at consecutive slots: hdr/request first. */
static u16 bad_chain_start(u8 **p)
{
	*p = buf();
	memset(*p, 0, 4096);
	if (vt.device == VT_NET)
		frame(*p, 0xbad);
	else
		*(__le32 *)*p = cpu_to_le32(BLK_T_IN);
	return next_slot(req, 0);
}

static u32 first_len(void)
{
	return vt.device == VT_NET ? NET_HDR + FRAME_LEN : BLK_HDR;
}

static bool t_desc_loop(void)
{
	u8 *p;
	u16 h = bad_chain_start(&p);

	desc(req, addr(p), first_len(), VRING_DESC_F_NEXT, next_slot(req, 1));
	desc(req, addr(p + 512), 16, VRING_DESC_F_NEXT, h);
	publish(req, h);
	note_bad_used(h, NULL);
	return false;
}

static bool t_next_out_of_range(void)
{
	u8 *p;
	u16 h = bad_chain_start(&p);

	desc(req, addr(p), first_len(), VRING_DESC_F_NEXT, RING_NUM + 7);
	publish(req, h);
	note_bad_used(h, NULL);
	return false;
}

static bool t_head_out_of_range(void)
{
	publish(req, RING_NUM + 3);
	note_bad_used(RING_NUM + 3, NULL);
	return false;
}

/* A request whose one buffer has address @a, length @len. */
static bool bad_buffer(u64 a, u32 len)
{
	u16 h;

	if (vt.device == VT_NET) {
		h = desc(req, a, len, 0, 0);
		publish(req, h);
		note_bad_used(h, NULL);
	} else {
		u8 *p = buf(), *status = p + 1024;

		memset(p, 0, 4096);
		*(__le32 *)p = cpu_to_le32(BLK_T_IN);
		*status = 0xff;
		h = next_slot(req, 0);
		desc(req, addr(p), BLK_HDR, VRING_DESC_F_NEXT, next_slot(req, 1));
		desc(req, a, len, VRING_DESC_F_NEXT | VRING_DESC_F_WRITE, next_slot(req, 1));
		desc(req, addr(status), 1, VRING_DESC_F_WRITE, 0);
		publish(req, h);
		note_bad_used(h, status);
	}
	return false;
}

static u64 region_end(void)
{
	return addr(vt.region.addr) + vt.region.size;
}

static bool t_addr_outside_table(void)
{
	return bad_buffer(region_end() + (64ULL << 20), 512);
}

static bool t_len_past_region(void)
{
	return bad_buffer(region_end() - 256, 4096);
}

static bool t_addr_wraps(void)
{
	return bad_buffer(~0ULL - 255, 4096);
}

static bool t_zero_len(void)
{
	return bad_buffer(addr(buf()), 0);
}

static bool t_huge_len(void)
{
	return bad_buffer(addr(vt.region.addr), 0xffffffffu);
}

/* An indirect descriptor pointing at @table of @n entries (@len bytes). */
static bool bad_indirect(struct vring_desc *table, u32 len)
{
	u16 h = desc(req, addr(table), len, VRING_DESC_F_INDIRECT, 0);

	publish(req, h);
	note_bad_used(h, NULL);
	return false;
}

static struct vring_desc *table_of(unsigned int n, u8 **p)
{
	struct vring_desc *t = vt_alloc(n * sizeof(*t) + 4096);
	unsigned int i;

	*p = buf();
	memset(*p, 0, 4096);
	if (vt.device == VT_NET)
		frame(*p, 0xbad);
	else
		*(__le32 *)*p = cpu_to_le32(BLK_T_IN);
	for (i = 0; i < n; i++) {
		t[i].addr = (__force __virtio64)cpu_to_le64(addr(*p + (i ? 512 : 0)));
		t[i].len = (__force __virtio32)cpu_to_le32(i ? 16 : first_len());
		t[i].flags = (__force __virtio16)cpu_to_le16(i + 1 < n ? VRING_DESC_F_NEXT : 0);
		t[i].next = (__force __virtio16)cpu_to_le16(i + 1);
	}
	return t;
}

static bool t_nested_indirect(void)
{
	u8 *p;
	struct vring_desc *inner = table_of(2, &p), *outer = table_of(2, &p);

	outer[1].addr = (__force __virtio64)cpu_to_le64(addr(inner));
	outer[1].len = (__force __virtio32)cpu_to_le32(2 * sizeof(*inner));
	outer[1].flags = (__force __virtio16)cpu_to_le16(VRING_DESC_F_INDIRECT);
	return bad_indirect(outer, 2 * sizeof(*outer));
}

/* An indirect table of @n whose last entry chains on to entry @next. */
static bool table_last_chains_to(unsigned int n, u16 next)
{
	u8 *p;
	struct vring_desc *t = table_of(n, &p);

	t[n - 1].flags = (__force __virtio16)cpu_to_le16(VRING_DESC_F_NEXT);
	t[n - 1].next = (__force __virtio16)cpu_to_le16(next);
	return bad_indirect(t, n * sizeof(*t));
}

static bool t_indirect_loop(void)
{
	return table_last_chains_to(3, 0);
}

static bool t_indirect_len_odd(void)
{
	u8 *p;

	return bad_indirect(table_of(2, &p), 20);
}

static bool t_indirect_len_zero(void)
{
	u8 *p;

	return bad_indirect(table_of(2, &p), 0);
}

static bool t_chain_longer_than_ring(void)
{
	u8 *p;
	unsigned int n = RING_NUM + 1;

	return bad_indirect(table_of(n, &p), n * sizeof(struct vring_desc));
}

static bool t_indirect_next_out_of_table(void)
{
	return table_last_chains_to(2, 9);
}

static bool t_readable_after_writable(void)
{
	u8 *p;
	u16 h = bad_chain_start(&p);

	desc(req, addr(p + 1024), 512, VRING_DESC_F_NEXT | VRING_DESC_F_WRITE,
	     next_slot(req, 1));
	desc(req, addr(p), first_len(), 0, 0);
	publish(req, h);
	note_bad_used(h, NULL);
	return false;
}

static bool t_avail_idx_jump(void)
{
	u16 jumped = req->avail_idx + RING_NUM + 5;

	__atomic_store_n(&req->vr.avail->idx, (__force __virtio16)cpu_to_le16(jumped),
			 __ATOMIC_RELEASE);
	kick(req);
	note_bad_used(0xffff, NULL);
	return false;
}

/* Protocol level: a message, and what the backend answered. */
static bool refused_msg(int err, const char *what)
{
	if (err == -EREMOTEIO) {
		snprintf(detail, sizeof(detail), "%s: %s", what, vt.front.why);
		return true;
	}
	if (err)
		snprintf(detail, sizeof(detail), "%s: %s", what, vt.front.why);
	else
		snprintf(detail, sizeof(detail), "%s accepted%s", what,
			 vt.front.reply_ack ? " (REPLY_ACK 0)" : " (no REPLY_ACK)");
	return false;
}

static bool t_ring_addr_outside_table(void)
{
	/* A third ring whose parts lie outside every region. */
	u64 a = region_end() + (64ULL << 20);
	int err = vu_set_vring_num(&vt.front, 2, RING_NUM);

	if (!err)
		err = vu_set_vring_addr(&vt.front, 2, a, a + 4096, a + 8192);
	return refused_msg(err, "SET_VRING_ADDR outside the memory table");
}

static bool t_bad_ring_num(void)
{
	return refused_msg(vu_set_vring_num(&vt.front, 2, 3),
			   "SET_VRING_NUM 3 (not a power of 2)");
}

static bool t_huge_ring_num(void)
{
	return refused_msg(vu_set_vring_num(&vt.front, 2, 65536),
			   "SET_VRING_NUM 65536 (past the spec's 32768)");
}

static bool t_ring_index_out_of_range(void)
{
	return refused_msg(vu_set_vring_num(&vt.front, 200, RING_NUM),
			   "SET_VRING_NUM for ring 200");
}

static bool t_kick_unset_ring(void)
{
	int fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	u64 one = 1;
	bool r = refused_msg(vu_set_vring_kick(&vt.front, 3, fd),
			     "SET_VRING_KICK for ring 3, never set up");

	if (write(fd, &one, sizeof(one)) != sizeof(one))
		vt_fail("kick: %s", strerror(errno));
	return r;
}

/*
 * Send a malformed @msg asking for an answer (NEED_REPLY), and wait a
 * little for one: an error code is a refusal, none at all is noted.
 */
static bool raw_msg(struct vhost_user_msg *msg, const char *what, bool get)
{
	struct vhost_user_msg reply;
	int saved = vt.front.timeout_ms, err;

	msg->hdr.flags |= VHOST_USER_FLAG_NEED_REPLY;
	vt.front.timeout_ms = 500;
	err = vu_request(&vt.front, msg, NULL, 0, &reply);
	vt.front.timeout_ms = saved;
	if (err == -ETIMEDOUT) {
		snprintf(detail, sizeof(detail), "%s: no answer", what);
		return false;
	}
	if (err) {
		snprintf(detail, sizeof(detail), "%s: %s", what, vt.front.why);
		return false;
	}
	if (get) {
		snprintf(detail, sizeof(detail), "%s: answered as if valid (%u bytes)",
			 what, reply.hdr.size);
		return false;
	}
	if (reply.hdr.size == sizeof(reply.payload.u64) && reply.payload.u64) {
		snprintf(detail, sizeof(detail), "%s: answered error 0x%llx", what,
			 (unsigned long long)reply.payload.u64);
		return true;
	}
	snprintf(detail, sizeof(detail), "%s: answered (%u bytes, 0x%llx)", what,
		 reply.hdr.size, (unsigned long long)reply.payload.u64);
	return false;
}

/* A request on a ring set up but never enabled (SET_VRING_ENABLE). */
static bool t_kick_disabled_ring(void)
{
	bool served = good_request(OBSERVE_MS);
	int err;

	snprintf(detail, sizeof(detail), "a request on the never-enabled ring was %s%s",
		 served ? "served" : "not served",
		 vt.front.acked_protocol ? "" : " (no protocol features: kicks enable)");
	/* Now enable it, for the good request that follows. */
	err = vu_set_vring_enable(&vt.front, req->index, true);
	if (err)
		snprintf(detail + strlen(detail), sizeof(detail) - strlen(detail),
			 "; enabling it then: %s", vt.front.why);
	return false;
}

static bool t_unknown_request(void)
{
	struct vhost_user_msg msg;

	vhost_user_msg_u64(&msg, 99, 0);
	return raw_msg(&msg, "request 99", false);
}

static bool t_bad_version(void)
{
	struct vhost_user_msg msg;

	vhost_user_msg_init(&msg, VHOST_USER_GET_FEATURES);
	msg.hdr.flags = 2;
	return raw_msg(&msg, "GET_FEATURES with version 2", true);
}

static bool t_short_payload(void)
{
	struct vhost_user_msg msg;

	/* SET_VRING_NUM says 4 bytes of payload: half a vring state. */
	vhost_user_msg_state(&msg, VHOST_USER_SET_VRING_NUM, 2, RING_NUM);
	msg.hdr.size = 4;
	return raw_msg(&msg, "SET_VRING_NUM with a 4-byte payload", false);
}

static bool t_mem_table_overflow(void)
{
	struct vhost_user_msg msg;

	vhost_user_msg_init(&msg, VHOST_USER_SET_MEM_TABLE);
	msg.payload.mem.nregions = 200;
	msg.hdr.size = sizeof(msg.payload.mem);
	return raw_msg(&msg, "SET_MEM_TABLE claiming 200 regions, no fds", false);
}

static const struct tcase cases[] = {
	{ "desc-loop", "a descriptor chain that loops", t_desc_loop, false },
	{ "next-out-of-range", "a descriptor's next past the ring", t_next_out_of_range, false },
	{ "head-out-of-range", "an avail entry naming a head past the ring", t_head_out_of_range, false },
	{ "addr-outside-table", "a buffer outside every memory region", t_addr_outside_table, false },
	{ "len-past-region", "a buffer running past the end of its region", t_len_past_region, false },
	{ "addr-wraps", "a buffer whose address + length wraps", t_addr_wraps, false },
	{ "zero-len", "a buffer of 0 bytes", t_zero_len, false },
	{ "huge-len", "a buffer of 4 GiB - 1 bytes", t_huge_len, false },
	{ "avail-idx-jump", "avail idx jumping past the ring", t_avail_idx_jump, false },
	{ "nested-indirect", "an indirect descriptor inside an indirect table", t_nested_indirect, false },
	{ "indirect-loop", "a loop inside an indirect table", t_indirect_loop, false },
	{ "indirect-len-odd", "an indirect table of 20 bytes", t_indirect_len_odd, false },
	{ "indirect-len-zero", "an indirect table of 0 bytes", t_indirect_len_zero, false },
	{ "indirect-next-out-of-table", "a next past an indirect table's end", t_indirect_next_out_of_table, false },
	{ "chain-longer-than-ring", "an indirect chain of ring size + 1 descriptors", t_chain_longer_than_ring, false },
	{ "readable-after-writable", "a device-readable descriptor after a writable one", t_readable_after_writable, false },
	{ "ring-addr-outside-table", "SET_VRING_ADDR outside the memory table", t_ring_addr_outside_table, false },
	{ "bad-ring-num", "SET_VRING_NUM not a power of 2", t_bad_ring_num, false },
	{ "huge-ring-num", "SET_VRING_NUM 65536", t_huge_ring_num, false },
	{ "ring-index-out-of-range", "a ring index past the device's", t_ring_index_out_of_range, false },
	{ "kick-unset-ring", "a kick for a ring never set up", t_kick_unset_ring, false },
	{ "kick-disabled-ring", "a request and kick on a ring never enabled", t_kick_disabled_ring, true },
	{ "unknown-request", "vhost-user request 99", t_unknown_request, false },
	{ "bad-version", "a message with protocol version 2", t_bad_version, false },
	{ "short-payload", "a payload shorter than its request's", t_short_payload, false },
	{ "mem-table-overflow", "SET_MEM_TABLE with 200 regions", t_mem_table_overflow, false },
};

void vt_torture_list(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		printf("%-28s %s\n", cases[i].name, cases[i].what);
}

bool vt_torture_known(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		if (!strcmp(cases[i].name, name))
			return true;
	return false;
}

static bool peer_gone(void)
{
	char path[64];

	if (!vt.peer_pid)
		return false;
	snprintf(path, sizeof(path), "/proc/%d", vt.peer_pid);
	if (access(path, F_OK))
		return true;
	snprintf(path, sizeof(path), "/proc/%d/stat", vt.peer_pid);
	{
		FILE *f = fopen(path, "r");
		char b[256], *p;
		bool z = false;

		if (!f)
			return true;
		if (fgets(b, sizeof(b), f) && (p = strrchr(b, ')')))
			z = p[2] == 'Z' || p[2] == 'X';
		fclose(f);
		return z;
	}
}

int vt_torture_run(void)
{
	const struct tcase *c = NULL;
	enum outcome o;
	bool refused;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		if (!strcmp(cases[i].name, vt.torture))
			c = &cases[i];
	/* Our own split ring: no packed, no in-order, no event index. */
	vt.packed = vt.in_order = false;
	vt.ring_features &= ~(1ULL << VIRTIO_RING_F_EVENT_IDX);
	vt.queues = 1;
	vt_connect();
	bufs = vt_alloc(256 * 4096);
	if (vt.device == VT_NET) {
		raw_ring_start(&rings[0], 0, true);
		raw_ring_start(&rings[1], 1, !c->disabled);
		req = &rings[1];
		net_post_rx(RING_NUM / 2);
	} else {
		raw_ring_start(&rings[0], 0, !c->disabled);
		req = &rings[0];
	}
	if (vt.front.protocol_features & (1ULL << VHOST_USER_PROTOCOL_F_STATUS)) {
		int err = vu_set_status(&vt.front, VIRTIO_CONFIG_S_ACKNOWLEDGE |
					VIRTIO_CONFIG_S_DRIVER | VIRTIO_CONFIG_S_FEATURES_OK |
					VIRTIO_CONFIG_S_DRIVER_OK);

		if (err)
			vt_fail("vhost-user: %s", vt.front.why);
	}
	/* The baseline: a good request is served (DPDK may need a second). */
	if (!c->disabled && !good_request(5000))
		vt_fail("torture %s: the backend does not serve a good request even before",
			c->name);
	/* The tx completions of the baseline, for net. */
	if (vt.device == VT_NET) {
		u32 id, len;

		while (used_next(req, 100, &id, &len))
			;
	}

	detail[0] = 0;
	refused = c->run();
	if (peer_gone())
		o = CRASHED;
	else if (!vu_alive(&vt.front))
		o = CLOSED;
	else if (good_request(OBSERVE_MS))
		o = refused || strstr(detail, "IOERR") || strstr(detail, "UNSUPP") ?
		    REFUSED : KEPT_SERVING;
	else if (peer_gone())
		o = CRASHED;
	else if (!vu_alive(&vt.front))
		o = CLOSED;
	else
		o = HUNG;
	printf("torture %s: %s; %s\n", c->name, outcome_name[o],
	       detail[0] ? detail : "-");
	vu_disconnect(&vt.front);
	return 0;
}
