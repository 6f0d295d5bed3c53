// SPDX-License-Identifier: GPL-2.0
/*
 * The vhost-user frontend: see vhost-user/protocol/frontend.h.  Written from the
 * protocol specification (QEMU's docs/interop/vhost-user.rst).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "vhost-user/protocol/frontend.h"

bool vu_region_create(struct vu_region *r, size_t size)
{
	r->fd = memfd_create("vhost-user-guest", MFD_CLOEXEC);
	if (r->fd < 0)
		return false;
	if (ftruncate(r->fd, size))
		goto fail;
	r->addr = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 0);
	if (r->addr == MAP_FAILED)
		goto fail;
	r->size = size;
	return true;
fail:
	close(r->fd);
	r->fd = -1;
	return false;
}

void vu_region_destroy(struct vu_region *r)
{
	if (r->fd < 0)
		return;
	munmap(r->addr, r->size);
	close(r->fd);
	r->fd = -1;
}

static int __attribute__((format(printf, 3, 4)))
why(struct vu_front *f, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(f->why, sizeof(f->why), fmt, ap);
	va_end(ap);
	return err;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

int vu_connect(struct vu_front *f, const char *path, int timeout_ms)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	long long deadline = now_ms() + timeout_ms;
	int err;

	memset(f, 0, sizeof(*f));
	f->sock = -1;
	f->timeout_ms = timeout_ms;
	if (strlen(path) >= sizeof(sa.sun_path))
		return why(f, -ENAMETOOLONG, "socket path too long: %s", path);
	strcpy(sa.sun_path, path);
	for (;;) {
		f->sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (f->sock < 0)
			return why(f, -errno, "socket: %s", strerror(errno));
		if (!connect(f->sock, (struct sockaddr *)&sa, sizeof(sa)))
			return 0;
		err = errno;
		close(f->sock);
		f->sock = -1;
		/* Not there yet, or not listening yet: the peer is starting. */
		if ((err != ENOENT && err != ECONNREFUSED) ||
		    now_ms() >= deadline)
			return why(f, -err, "cannot connect to %s: %s", path,
				   strerror(err));
		usleep(20000);
	}
}

void vu_disconnect(struct vu_front *f)
{
	if (f->sock >= 0)
		close(f->sock);
	f->sock = -1;
}

bool vu_alive(struct vu_front *f)
{
	struct pollfd p = { .fd = f->sock, .events = POLLIN };
	char c;

	if (f->sock < 0)
		return false;
	if (poll(&p, 1, 0) <= 0)
		return true;
	if (p.revents & (POLLHUP | POLLERR))
		return false;
	/* Readable: EOF, or an unsolicited message (still alive). */
	return recv(f->sock, &c, 1, MSG_PEEK | MSG_DONTWAIT) > 0;
}

static const char *recv_error(int err)
{
	switch (err) {
	case -ECONNRESET:
		return "the backend closed the connection";
	case -ETIMEDOUT:
		return "no answer in time";
	case -EMSGSIZE:
		return "the answer's size exceeds any payload";
	case -EPROTO:
		return "the answer has a bad version or cut descriptors";
	default:
		return strerror(-err);
	}
}

int vu_request(struct vu_front *f, struct vhost_user_msg *msg,
	       const int *fds, unsigned int nfds,
	       struct vhost_user_msg *reply)
{
	const char *name = vhost_user_request_name(msg->hdr.request);
	struct vhost_user_fds rfds;
	int err;

	if (f->sock < 0)
		return why(f, -ENOTCONN, "%s: not connected", name);
	err = vhost_user_send(f->sock, msg, fds, nfds);
	if (err)
		return why(f, err, "%s: send: %s", name,
			   err == -EPIPE ? "the backend closed the connection" :
			   strerror(-err));
	f->sent++;
	if (!reply)
		return 0;
	err = vhost_user_recv(f->sock, reply, &rfds, f->timeout_ms);
	if (err)
		return why(f, err, "%s: %s", name, recv_error(err));
	if (rfds.n) {
		vhost_user_fds_close(&rfds);
		return why(f, -EPROTO, "%s: the answer carried %u file descriptors",
			   name, rfds.n);
	}
	if (!(reply->hdr.flags & VHOST_USER_FLAG_REPLY))
		/* A request from the backend: we opened no channel for them. */
		return why(f, -EPROTO, "%s: the backend sent request %s instead of an answer",
			   name, vhost_user_request_name(reply->hdr.request));
	if (reply->hdr.request != msg->hdr.request)
		return why(f, -EPROTO, "%s: the answer is for %s", name,
			   vhost_user_request_name(reply->hdr.request));
	return 0;
}

/* A GET: the answer must be a u64. */
static int get_u64(struct vu_front *f, uint32_t request, uint64_t *val)
{
	struct vhost_user_msg msg, reply;
	int err;

	vhost_user_msg_init(&msg, request);
	err = vu_request(f, &msg, NULL, 0, &reply);
	if (err)
		return err;
	if (reply.hdr.size != sizeof(reply.payload.u64))
		return why(f, -EPROTO, "%s: answer of %u bytes, not 8",
			   vhost_user_request_name(request), reply.hdr.size);
	*val = reply.payload.u64;
	return 0;
}

/*
 * A SET: with REPLY_ACK negotiated it asks for the acknowledgement and
 * checks it, so every failure is seen at the message that caused it.
 */
static int set_msg(struct vu_front *f, struct vhost_user_msg *msg,
		   const int *fds, unsigned int nfds)
{
	const char *name = vhost_user_request_name(msg->hdr.request);
	struct vhost_user_msg reply;
	int err;

	if (!f->reply_ack)
		return vu_request(f, msg, fds, nfds, NULL);
	msg->hdr.flags |= VHOST_USER_FLAG_NEED_REPLY;
	err = vu_request(f, msg, fds, nfds, &reply);
	if (err)
		return err;
	if (reply.hdr.size != sizeof(reply.payload.u64))
		return why(f, -EPROTO, "%s: acknowledgement of %u bytes, not 8",
			   name, reply.hdr.size);
	if (reply.payload.u64)
		return why(f, -EREMOTEIO, "%s: the backend refused it (0x%llx)",
			   name, (unsigned long long)reply.payload.u64);
	return 0;
}

static int set_u64(struct vu_front *f, uint32_t request, uint64_t val)
{
	struct vhost_user_msg msg;

	vhost_user_msg_u64(&msg, request, val);
	return set_msg(f, &msg, NULL, 0);
}

static int set_state(struct vu_front *f, uint32_t request, unsigned int idx,
		     unsigned int num)
{
	struct vhost_user_msg msg;

	vhost_user_msg_state(&msg, request, idx, num);
	return set_msg(f, &msg, NULL, 0);
}

int vu_get_features(struct vu_front *f, uint64_t *features)
{
	int err = get_u64(f, VHOST_USER_GET_FEATURES, features);

	if (!err)
		f->features = *features;
	return err;
}

int vu_set_features(struct vu_front *f, uint64_t features)
{
	/*
	 * SET_FEATURES is answered only when REPLY_ACK is negotiated; the
	 * protocol-features bit must be kept or the backend turns them off.
	 */
	return set_u64(f, VHOST_USER_SET_FEATURES, features);
}

int vu_get_protocol_features(struct vu_front *f, uint64_t *features)
{
	if (!(f->features & (1ULL << VHOST_USER_F_PROTOCOL_FEATURES)))
		return why(f, -EOPNOTSUPP, "GET_PROTOCOL_FEATURES: the backend offers no protocol features");
	return get_u64(f, VHOST_USER_GET_PROTOCOL_FEATURES, features);
}

int vu_set_protocol_features(struct vu_front *f, uint64_t features)
{
	int err;

	/* Not acknowledged: REPLY_ACK is what this message turns on. */
	f->reply_ack = false;
	err = set_u64(f, VHOST_USER_SET_PROTOCOL_FEATURES, features);
	if (err)
		return err;
	f->acked_protocol = true;
	f->protocol_features = features;
	f->reply_ack = features & (1ULL << VHOST_USER_PROTOCOL_F_REPLY_ACK);
	return 0;
}

int vu_set_owner(struct vu_front *f)
{
	struct vhost_user_msg msg;

	vhost_user_msg_init(&msg, VHOST_USER_SET_OWNER);
	return set_msg(f, &msg, NULL, 0);
}

int vu_get_queue_num(struct vu_front *f, uint64_t *num)
{
	return get_u64(f, VHOST_USER_GET_QUEUE_NUM, num);
}

int vu_set_mem_table(struct vu_front *f, const struct vu_region *r,
		     unsigned int n)
{
	struct vhost_user_msg msg;
	int fds[VHOST_USER_MAX_REGIONS];
	unsigned int i;

	if (n > VHOST_USER_MAX_REGIONS)
		return why(f, -EINVAL, "SET_MEM_TABLE: %u regions, at most %d",
			   n, VHOST_USER_MAX_REGIONS);
	vhost_user_msg_init(&msg, VHOST_USER_SET_MEM_TABLE);
	msg.payload.mem.nregions = n;
	msg.payload.mem.padding = 0;
	for (i = 0; i < n; i++) {
		struct vhost_user_region *reg = &msg.payload.mem.regions[i];

		reg->guest_phys_addr = (uintptr_t)r[i].addr;
		reg->userspace_addr = (uintptr_t)r[i].addr;
		reg->memory_size = r[i].size;
		reg->mmap_offset = 0;
		fds[i] = r[i].fd;
	}
	msg.hdr.size = offsetof(struct vhost_user_mem_table, regions) +
		       n * sizeof(struct vhost_user_region);
	return set_msg(f, &msg, fds, n);
}

int vu_set_vring_num(struct vu_front *f, unsigned int idx, unsigned int num)
{
	return set_state(f, VHOST_USER_SET_VRING_NUM, idx, num);
}

int vu_set_vring_base(struct vu_front *f, unsigned int idx, unsigned int base)
{
	return set_state(f, VHOST_USER_SET_VRING_BASE, idx, base);
}

int vu_get_vring_base(struct vu_front *f, unsigned int idx, unsigned int *base)
{
	struct vhost_user_msg msg, reply;
	int err;

	vhost_user_msg_state(&msg, VHOST_USER_GET_VRING_BASE, idx, 0);
	err = vu_request(f, &msg, NULL, 0, &reply);
	if (err)
		return err;
	if (reply.hdr.size != sizeof(reply.payload.state))
		return why(f, -EPROTO, "GET_VRING_BASE: answer of %u bytes, not %zu",
			   reply.hdr.size, sizeof(reply.payload.state));
	if (reply.payload.state.index != idx)
		return why(f, -EPROTO, "GET_VRING_BASE: answer for ring %u, asked for %u",
			   reply.payload.state.index, idx);
	*base = reply.payload.state.num;
	return 0;
}

int vu_set_vring_addr(struct vu_front *f, unsigned int idx, uint64_t desc,
		      uint64_t avail, uint64_t used)
{
	struct vhost_user_msg msg;

	vhost_user_msg_init(&msg, VHOST_USER_SET_VRING_ADDR);
	msg.hdr.size = sizeof(msg.payload.addr);
	msg.payload.addr.index = idx;
	msg.payload.addr.flags = 0;
	msg.payload.addr.desc = desc;
	msg.payload.addr.used = used;
	msg.payload.addr.avail = avail;
	msg.payload.addr.log = 0;
	return set_msg(f, &msg, NULL, 0);
}

static int set_vring_fd(struct vu_front *f, uint32_t request,
			unsigned int idx, int fd)
{
	struct vhost_user_msg msg;

	vhost_user_msg_u64(&msg, request,
			   (idx & VHOST_USER_VRING_INDEX_MASK) |
			   (fd < 0 ? VHOST_USER_VRING_NOFD : 0));
	return set_msg(f, &msg, fd < 0 ? NULL : &fd, fd < 0 ? 0 : 1);
}

int vu_set_vring_kick(struct vu_front *f, unsigned int idx, int fd)
{
	return set_vring_fd(f, VHOST_USER_SET_VRING_KICK, idx, fd);
}

int vu_set_vring_call(struct vu_front *f, unsigned int idx, int fd)
{
	return set_vring_fd(f, VHOST_USER_SET_VRING_CALL, idx, fd);
}

int vu_set_vring_enable(struct vu_front *f, unsigned int idx, bool on)
{
	return set_state(f, VHOST_USER_SET_VRING_ENABLE, idx, on);
}

int vu_set_status(struct vu_front *f, uint8_t status)
{
	return set_u64(f, VHOST_USER_SET_STATUS, status);
}

int vu_get_config(struct vu_front *f, uint32_t offset, uint32_t size,
		  void *buf)
{
	struct vhost_user_msg msg, reply;
	size_t head = offsetof(struct vhost_user_config, data);
	int err;

	if (size > VHOST_USER_MAX_CONFIG_SIZE)
		return why(f, -EINVAL, "GET_CONFIG: %u bytes asked, at most %d",
			   size, VHOST_USER_MAX_CONFIG_SIZE);
	vhost_user_msg_init(&msg, VHOST_USER_GET_CONFIG);
	msg.hdr.size = head + size;
	msg.payload.config.offset = offset;
	msg.payload.config.size = size;
	msg.payload.config.flags = 0;
	memset(msg.payload.config.data, 0, size);
	err = vu_request(f, &msg, NULL, 0, &reply);
	if (err)
		return err;
	if (reply.hdr.size != head + size || reply.payload.config.size != size)
		return why(f, -EPROTO, "GET_CONFIG: answer of %u bytes (config size %u), asked %zu (%u)",
			   reply.hdr.size, reply.payload.config.size,
			   head + size, size);
	memcpy(buf, reply.payload.config.data, size);
	return 0;
}
