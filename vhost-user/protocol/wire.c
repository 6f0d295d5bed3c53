// SPDX-License-Identifier: GPL-2.0
/* The vhost-user wire format: see vhost-user/protocol/wire.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "vhost-user/protocol/wire.h"

static const char *const request_names[VHOST_USER_REQUEST_MAX] = {
	[VHOST_USER_GET_FEATURES] = "GET_FEATURES",
	[VHOST_USER_SET_FEATURES] = "SET_FEATURES",
	[VHOST_USER_SET_OWNER] = "SET_OWNER",
	[VHOST_USER_RESET_OWNER] = "RESET_OWNER",
	[VHOST_USER_SET_MEM_TABLE] = "SET_MEM_TABLE",
	[VHOST_USER_SET_LOG_BASE] = "SET_LOG_BASE",
	[VHOST_USER_SET_LOG_FD] = "SET_LOG_FD",
	[VHOST_USER_SET_VRING_NUM] = "SET_VRING_NUM",
	[VHOST_USER_SET_VRING_ADDR] = "SET_VRING_ADDR",
	[VHOST_USER_SET_VRING_BASE] = "SET_VRING_BASE",
	[VHOST_USER_GET_VRING_BASE] = "GET_VRING_BASE",
	[VHOST_USER_SET_VRING_KICK] = "SET_VRING_KICK",
	[VHOST_USER_SET_VRING_CALL] = "SET_VRING_CALL",
	[VHOST_USER_SET_VRING_ERR] = "SET_VRING_ERR",
	[VHOST_USER_GET_PROTOCOL_FEATURES] = "GET_PROTOCOL_FEATURES",
	[VHOST_USER_SET_PROTOCOL_FEATURES] = "SET_PROTOCOL_FEATURES",
	[VHOST_USER_GET_QUEUE_NUM] = "GET_QUEUE_NUM",
	[VHOST_USER_SET_VRING_ENABLE] = "SET_VRING_ENABLE",
	[VHOST_USER_SEND_RARP] = "SEND_RARP",
	[VHOST_USER_NET_SET_MTU] = "NET_SET_MTU",
	[VHOST_USER_SET_BACKEND_REQ_FD] = "SET_BACKEND_REQ_FD",
	[VHOST_USER_IOTLB_MSG] = "IOTLB_MSG",
	[VHOST_USER_SET_VRING_ENDIAN] = "SET_VRING_ENDIAN",
	[VHOST_USER_GET_CONFIG] = "GET_CONFIG",
	[VHOST_USER_SET_CONFIG] = "SET_CONFIG",
	[VHOST_USER_CREATE_CRYPTO_SESSION] = "CREATE_CRYPTO_SESSION",
	[VHOST_USER_CLOSE_CRYPTO_SESSION] = "CLOSE_CRYPTO_SESSION",
	[VHOST_USER_POSTCOPY_ADVISE] = "POSTCOPY_ADVISE",
	[VHOST_USER_POSTCOPY_LISTEN] = "POSTCOPY_LISTEN",
	[VHOST_USER_POSTCOPY_END] = "POSTCOPY_END",
	[VHOST_USER_GET_INFLIGHT_FD] = "GET_INFLIGHT_FD",
	[VHOST_USER_SET_INFLIGHT_FD] = "SET_INFLIGHT_FD",
	[VHOST_USER_GPU_SET_SOCKET] = "GPU_SET_SOCKET",
	[VHOST_USER_RESET_DEVICE] = "RESET_DEVICE",
	[VHOST_USER_VRING_KICK] = "VRING_KICK",
	[VHOST_USER_GET_MAX_MEM_SLOTS] = "GET_MAX_MEM_SLOTS",
	[VHOST_USER_ADD_MEM_REG] = "ADD_MEM_REG",
	[VHOST_USER_REM_MEM_REG] = "REM_MEM_REG",
	[VHOST_USER_SET_STATUS] = "SET_STATUS",
	[VHOST_USER_GET_STATUS] = "GET_STATUS",
};

const char *vhost_user_request_name(uint32_t request)
{
	static __thread char unknown[24];

	if (request < VHOST_USER_REQUEST_MAX && request_names[request])
		return request_names[request];
	snprintf(unknown, sizeof(unknown), "request %u", request);
	return unknown;
}

void vhost_user_fds_close(struct vhost_user_fds *fds)
{
	unsigned int i;

	for (i = 0; i < fds->n; i++) {
		if (fds->fd[i] >= 0)
			close(fds->fd[i]);
		fds->fd[i] = -1;
	}
	fds->n = 0;
}

void vhost_user_msg_init(struct vhost_user_msg *msg, uint32_t request)
{
	memset(msg, 0, sizeof(*msg));
	msg->hdr.request = request;
	msg->hdr.flags = VHOST_USER_VERSION;
}

void vhost_user_msg_u64(struct vhost_user_msg *msg, uint32_t request,
			uint64_t value)
{
	vhost_user_msg_init(msg, request);
	msg->hdr.size = sizeof(msg->payload.u64);
	msg->payload.u64 = value;
}

void vhost_user_msg_state(struct vhost_user_msg *msg, uint32_t request,
			  uint32_t index, uint32_t num)
{
	vhost_user_msg_init(msg, request);
	msg->hdr.size = sizeof(msg->payload.state);
	msg->payload.state.index = index;
	msg->payload.state.num = num;
}

int vhost_user_send(int sock, const struct vhost_user_msg *msg,
		    const int *fds, unsigned int nfds)
{
	union {
		char buf[CMSG_SPACE(sizeof(int) * VHOST_USER_MAX_FDS)];
		struct cmsghdr align;
	} control;
	struct iovec iov[2] = {
		{ .iov_base = (void *)&msg->hdr, .iov_len = sizeof(msg->hdr) },
		{ .iov_base = (void *)&msg->payload, .iov_len = msg->hdr.size },
	};
	struct msghdr mh = { .msg_iov = iov, .msg_iovlen = 2 };
	ssize_t n;

	if (msg->hdr.size > sizeof(msg->payload) || nfds > VHOST_USER_MAX_FDS)
		return -EINVAL;
	if (nfds) {
		struct cmsghdr *cmsg;

		memset(&control, 0, sizeof(control));
		mh.msg_control = control.buf;
		mh.msg_controllen = CMSG_SPACE(sizeof(int) * nfds);
		cmsg = CMSG_FIRSTHDR(&mh);
		cmsg->cmsg_level = SOL_SOCKET;
		cmsg->cmsg_type = SCM_RIGHTS;
		cmsg->cmsg_len = CMSG_LEN(sizeof(int) * nfds);
		memcpy(CMSG_DATA(cmsg), fds, sizeof(int) * nfds);
	}
	/* The descriptors go with the first byte; the rest may need more. */
	while (mh.msg_iovlen) {
		do {
			n = sendmsg(sock, &mh, MSG_NOSIGNAL);
		} while (n < 0 && errno == EINTR);
		if (n < 0)
			return -errno;
		mh.msg_control = NULL;
		mh.msg_controllen = 0;
		while (mh.msg_iovlen && (size_t)n >= mh.msg_iov->iov_len) {
			n -= mh.msg_iov->iov_len;
			mh.msg_iov++;
			mh.msg_iovlen--;
		}
		if (mh.msg_iovlen) {
			mh.msg_iov->iov_base = (char *)mh.msg_iov->iov_base + n;
			mh.msg_iov->iov_len -= n;
		}
	}
	return 0;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* Wait until @sock is readable or @deadline (ms, negative: never) passes. */
static int wait_readable(int sock, long long deadline)
{
	struct pollfd pfd = { .fd = sock, .events = POLLIN };
	int r;

	for (;;) {
		int left = -1;

		if (deadline >= 0) {
			long long d = deadline - now_ms();

			left = d > 0 ? (int)(d > 1 << 30 ? 1 << 30 : d) : 0;
		}
		r = poll(&pfd, 1, left);
		if (r > 0)
			return 0;
		if (r == 0)
			return -ETIMEDOUT;
		if (errno != EINTR)
			return -errno;
	}
}

/* Take the SCM_RIGHTS descriptors of @mh into @fds; -EPROTO if cut short. */
static int take_fds(struct msghdr *mh, struct vhost_user_fds *fds)
{
	struct cmsghdr *cmsg;
	int ret = 0;

	for (cmsg = CMSG_FIRSTHDR(mh); cmsg; cmsg = CMSG_NXTHDR(mh, cmsg)) {
		unsigned int i, n;
		int fd;

		if (cmsg->cmsg_level != SOL_SOCKET ||
		    cmsg->cmsg_type != SCM_RIGHTS)
			continue;
		n = (cmsg->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (i = 0; i < n; i++) {
			memcpy(&fd, CMSG_DATA(cmsg) + i * sizeof(int),
			       sizeof(int));
			if (fds->n < VHOST_USER_MAX_FDS) {
				fds->fd[fds->n++] = fd;
			} else {
				close(fd);
				ret = -EPROTO;
			}
		}
	}
	if (mh->msg_flags & MSG_CTRUNC)
		ret = -EPROTO;
	return ret;
}

/* Read exactly @len bytes into @buf, descriptors into @fds. */
static int recv_exact(int sock, void *buf, size_t len,
		      struct vhost_user_fds *fds, long long deadline)
{
	union {
		char buf[CMSG_SPACE(sizeof(int) * (VHOST_USER_MAX_FDS + 1))];
		struct cmsghdr align;
	} control;
	char *p = buf;
	int bad = 0;

	while (len) {
		struct iovec iov = { .iov_base = p, .iov_len = len };
		struct msghdr mh = {
			.msg_iov = &iov, .msg_iovlen = 1,
			.msg_control = control.buf,
			.msg_controllen = sizeof(control.buf),
		};
		ssize_t n;
		int r;

		r = wait_readable(sock, deadline);
		if (r)
			return r;
		n = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return -errno;
		}
		if (take_fds(&mh, fds))
			bad = -EPROTO;
		if (n == 0)
			return -ECONNRESET;
		p += n;
		len -= n;
	}
	return bad;
}

int vhost_user_recv(int sock, struct vhost_user_msg *msg,
		    struct vhost_user_fds *fds, int timeout_ms)
{
	long long deadline = timeout_ms < 0 ? -1 : now_ms() + timeout_ms;
	int r;

	fds->n = 0;
	memset(msg, 0, sizeof(*msg));
	r = recv_exact(sock, &msg->hdr, sizeof(msg->hdr), fds, deadline);
	if (r)
		goto fail;
	if ((msg->hdr.flags & VHOST_USER_VERSION_MASK) != VHOST_USER_VERSION) {
		r = -EPROTO;
		goto fail;
	}
	if (msg->hdr.size > sizeof(msg->payload)) {
		r = -EMSGSIZE;
		goto fail;
	}
	r = recv_exact(sock, &msg->payload, msg->hdr.size, fds, deadline);
	if (r)
		goto fail;
	return 0;
fail:
	vhost_user_fds_close(fds);
	return r;
}

bool vhost_user_payload_ok(const struct vhost_user_msg *msg)
{
	const union vhost_user_payload *p = &msg->payload;
	uint32_t size = msg->hdr.size;
	bool reply = msg->hdr.flags & VHOST_USER_FLAG_REPLY;
	size_t head = offsetof(struct vhost_user_config, data);

	switch (msg->hdr.request) {
	case VHOST_USER_GET_FEATURES:
	case VHOST_USER_GET_PROTOCOL_FEATURES:
	case VHOST_USER_GET_QUEUE_NUM:
	case VHOST_USER_GET_MAX_MEM_SLOTS:
	case VHOST_USER_GET_STATUS:
		return size == (reply ? sizeof(p->u64) : 0);
	case VHOST_USER_SET_OWNER:
	case VHOST_USER_RESET_OWNER:
	case VHOST_USER_SET_LOG_FD:
	case VHOST_USER_SET_BACKEND_REQ_FD:
	case VHOST_USER_RESET_DEVICE:
		/* A REPLY_ACK answer to any request is a u64. */
		return size == (reply ? sizeof(p->u64) : 0);
	case VHOST_USER_SET_FEATURES:
	case VHOST_USER_SET_PROTOCOL_FEATURES:
	case VHOST_USER_SET_VRING_KICK:
	case VHOST_USER_SET_VRING_CALL:
	case VHOST_USER_SET_VRING_ERR:
	case VHOST_USER_SEND_RARP:
	case VHOST_USER_NET_SET_MTU:
	case VHOST_USER_SET_STATUS:
		return size == sizeof(p->u64);
	case VHOST_USER_SET_LOG_BASE:
		return size == sizeof(p->u64) || size == 2 * sizeof(p->u64);
	case VHOST_USER_SET_VRING_NUM:
	case VHOST_USER_SET_VRING_BASE:
	case VHOST_USER_GET_VRING_BASE:
	case VHOST_USER_SET_VRING_ENABLE:
	case VHOST_USER_SET_VRING_ENDIAN:
	case VHOST_USER_VRING_KICK:
		if (reply && msg->hdr.request != VHOST_USER_GET_VRING_BASE)
			return size == sizeof(p->u64);
		return size == sizeof(p->state);
	case VHOST_USER_SET_VRING_ADDR:
		if (reply)
			return size == sizeof(p->u64);
		return size == sizeof(p->addr);
	case VHOST_USER_SET_MEM_TABLE:
		if (reply)
			return size == sizeof(p->u64);
		if (size < offsetof(struct vhost_user_mem_table, regions) ||
		    p->mem.nregions > VHOST_USER_MAX_REGIONS)
			return false;
		return size >= offsetof(struct vhost_user_mem_table, regions) +
			       p->mem.nregions * sizeof(p->mem.regions[0]);
	case VHOST_USER_ADD_MEM_REG:
	case VHOST_USER_REM_MEM_REG:
		if (reply)
			return size == sizeof(p->u64) ||
			       size == sizeof(p->mem_reg);
		return size == sizeof(p->mem_reg);
	case VHOST_USER_GET_INFLIGHT_FD:
	case VHOST_USER_SET_INFLIGHT_FD:
		if (reply && msg->hdr.request == VHOST_USER_SET_INFLIGHT_FD)
			return size == sizeof(p->u64);
		return size == sizeof(p->inflight);
	case VHOST_USER_GET_CONFIG:
	case VHOST_USER_SET_CONFIG:
		if (reply && msg->hdr.request == VHOST_USER_SET_CONFIG)
			return size == sizeof(p->u64);
		/* A backend answers a GET_CONFIG it refuses with no payload. */
		if (reply && size == 0)
			return true;
		return size >= head && p->config.size <= VHOST_USER_MAX_CONFIG_SIZE &&
		       size == head + p->config.size;
	default:
		return false;
	}
}
