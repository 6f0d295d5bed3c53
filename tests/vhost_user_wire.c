// SPDX-License-Identifier: GPL-2.0
/*
 * The vhost-user wire layer (vhost-user/protocol/wire.c) on a socketpair: whole messages
 * with descriptors, and each way a peer can send a broken one.
 *
 *   tests/vhost_user_wire --list     the case names
 *   tests/vhost_user_wire CASE       run one case: exit 0 if it held
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "harness/harness.h"
#include "vhost-user/protocol/wire.h"

static const char help[] =
"Usage: vhost_user_wire --list | vhost_user_wire --gaps | vhost_user_wire CASE\n"
"Run one case of the vhost-user wire format (--list names them).  Exit 0:\n"
"it held; 1: it did not; 2: usage error.\n";

static int sv[2];

static void pair(void)
{
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		rig_die("socketpair");
}

static void unpair(void)
{
	close(sv[0]);
	close(sv[1]);
}

static int open_fds(void)
{
	int n = 0, fd;

	for (fd = 0; fd < 1024; fd++)
		if (fcntl(fd, F_GETFD) >= 0)
			n++;
	return n;
}

/* A memory table with three regions and three descriptors arrives whole. */
static int case_roundtrip(void)
{
	struct vhost_user_msg m, r;
	struct vhost_user_fds fds;
	int sent[3];
	unsigned int i;

	pair();
	vhost_user_msg_init(&m, VHOST_USER_SET_MEM_TABLE);
	m.payload.mem.nregions = 3;
	for (i = 0; i < 3; i++) {
		m.payload.mem.regions[i].guest_phys_addr = 0x1000 * i;
		m.payload.mem.regions[i].memory_size = 0x1000;
		sent[i] = dup(2);
	}
	m.hdr.size = 8 + 3 * sizeof(m.payload.mem.regions[0]);
	CHECK(vhost_user_send(sv[0], &m, sent, 3) == 0);
	CHECK(vhost_user_recv(sv[1], &r, &fds, 1000) == 0);
	CHECK(r.hdr.request == VHOST_USER_SET_MEM_TABLE);
	CHECK(r.hdr.size == m.hdr.size);
	CHECK(vhost_user_payload_ok(&r));
	CHECK(r.payload.mem.nregions == 3);
	CHECK(r.payload.mem.regions[2].guest_phys_addr == 0x2000);
	CHECK(fds.n == 3);
	for (i = 0; i < 3; i++) {
		CHECK(fcntl(fds.fd[i], F_GETFD) & FD_CLOEXEC);
		close(sent[i]);
	}
	vhost_user_fds_close(&fds);
	CHECK(fds.n == 0);

	/* A message with no payload, then a u64 one, back to back. */
	vhost_user_msg_init(&m, VHOST_USER_SET_OWNER);
	CHECK(vhost_user_send(sv[0], &m, NULL, 0) == 0);
	vhost_user_msg_u64(&m, VHOST_USER_SET_FEATURES, 1ull << 32);
	CHECK(vhost_user_send(sv[0], &m, NULL, 0) == 0);
	CHECK(vhost_user_recv(sv[1], &r, &fds, 1000) == 0);
	CHECK(r.hdr.request == VHOST_USER_SET_OWNER && r.hdr.size == 0);
	CHECK(vhost_user_recv(sv[1], &r, &fds, 1000) == 0);
	CHECK(r.payload.u64 == 1ull << 32 && fds.n == 0);
	unpair();
	return RIG_EXIT_OK;
}

/* Raw bytes as a hostile peer would write them. */
static void send_raw(const void *buf, size_t len)
{
	CHECK(write(sv[0], buf, len) == (ssize_t)len);
}

/* The header @h alone: the receiver must refuse it with @err. */
static int header_refused(const struct vhost_user_hdr *h, int err)
{
	struct vhost_user_msg r;
	struct vhost_user_fds fds;

	pair();
	send_raw(h, sizeof(*h));
	CHECK(vhost_user_recv(sv[1], &r, &fds, 1000) == err);
	unpair();
	return RIG_EXIT_OK;
}

/* One byte more than the largest payload: refused before it is read. */
static int case_too_big(void)
{
	struct vhost_user_hdr h = { VHOST_USER_SET_MEM_TABLE, VHOST_USER_VERSION,
				    sizeof(union vhost_user_payload) + 1 };

	return header_refused(&h, -EMSGSIZE);
}

/*
 * The edges of the wire's bounds: the largest payload and the most
 * descriptors a message may carry arrive whole; one more of either is
 * refused, by the sender too.
 */
static int case_max_size(void)
{
	struct vhost_user_msg m, r;
	struct vhost_user_fds fds;

	pair();
	vhost_user_msg_init(&m, VHOST_USER_SET_MEM_TABLE);
	memset(&m.payload, 0xab, sizeof(m.payload));
	m.hdr.size = sizeof(m.payload);
	CHECK(vhost_user_send(sv[0], &m, NULL, 0) == 0);
	CHECK(vhost_user_recv(sv[1], &r, &fds, 1000) == 0);
	CHECK(r.hdr.size == sizeof(m.payload) &&
	      !memcmp(&r.payload, &m.payload, sizeof(m.payload)));
	m.hdr.size = sizeof(m.payload) + 1;
	CHECK(vhost_user_send(sv[0], &m, NULL, 0) == -EINVAL);
	unpair();
	return RIG_EXIT_OK;
}

static int case_max_fds(void)
{
	int sent[VHOST_USER_MAX_FDS + 1], i, before;
	struct vhost_user_msg m, r;
	struct vhost_user_fds fds;

	pair();
	for (i = 0; i <= VHOST_USER_MAX_FDS; i++)
		sent[i] = dup(2);
	vhost_user_msg_init(&m, VHOST_USER_SET_OWNER);
	CHECK(vhost_user_send(sv[0], &m, sent, VHOST_USER_MAX_FDS + 1) == -EINVAL);
	CHECK(vhost_user_send(sv[0], &m, sent, VHOST_USER_MAX_FDS) == 0);
	for (i = 0; i <= VHOST_USER_MAX_FDS; i++)
		close(sent[i]);
	before = open_fds();
	CHECK(vhost_user_recv(sv[1], &r, &fds, 1000) == 0);
	CHECK(fds.n == VHOST_USER_MAX_FDS);
	CHECK(open_fds() == before + VHOST_USER_MAX_FDS);
	vhost_user_fds_close(&fds);
	unpair();
	return RIG_EXIT_OK;
}

static int case_bad_version(void)
{
	struct vhost_user_hdr h = { VHOST_USER_GET_FEATURES, 2, 0 };

	return header_refused(&h, -EPROTO);
}

/* The peer goes away in the middle of a header, then of a payload. */
static int case_truncated(void)
{
	struct vhost_user_hdr h = { VHOST_USER_SET_FEATURES,
				    VHOST_USER_VERSION, 8 };
	struct vhost_user_msg r;
	struct vhost_user_fds fds;
	uint32_t half = 1;

	pair();
	send_raw(&h, 6);
	close(sv[0]);
	CHECK(vhost_user_recv(sv[1], &r, &fds, 1000) == -ECONNRESET);
	close(sv[1]);

	pair();
	send_raw(&h, sizeof(h));
	send_raw(&half, sizeof(half));
	close(sv[0]);
	CHECK(vhost_user_recv(sv[1], &r, &fds, 1000) == -ECONNRESET);
	close(sv[1]);
	return RIG_EXIT_OK;
}

/* Half a message and then silence is a timeout, not a hang. */
static int case_timeout(void)
{
	struct vhost_user_hdr h = { VHOST_USER_SET_FEATURES,
				    VHOST_USER_VERSION, 8 };
	struct vhost_user_msg r;
	struct vhost_user_fds fds;

	pair();
	CHECK(vhost_user_recv(sv[1], &r, &fds, 50) == -ETIMEDOUT);
	send_raw(&h, sizeof(h));
	CHECK(vhost_user_recv(sv[1], &r, &fds, 50) == -ETIMEDOUT);
	unpair();
	return RIG_EXIT_OK;
}

/* One descriptor more than any message may carry: refused, none leaked. */
static int case_too_many_fds(void)
{
	union {
		char buf[CMSG_SPACE(sizeof(int) * (VHOST_USER_MAX_FDS + 1))];
		struct cmsghdr align;
	} control;
	struct vhost_user_hdr h = { VHOST_USER_SET_OWNER, VHOST_USER_VERSION, 0 };
	struct iovec iov = { .iov_base = &h, .iov_len = sizeof(h) };
	struct msghdr mh = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = control.buf, .msg_controllen = sizeof(control.buf),
	};
	struct cmsghdr *cmsg;
	struct vhost_user_msg r;
	struct vhost_user_fds fds;
	int fd[VHOST_USER_MAX_FDS + 1], i, before;

	pair();
	for (i = 0; i <= VHOST_USER_MAX_FDS; i++)
		fd[i] = dup(2);
	cmsg = CMSG_FIRSTHDR(&mh);
	cmsg->cmsg_level = SOL_SOCKET;
	cmsg->cmsg_type = SCM_RIGHTS;
	cmsg->cmsg_len = CMSG_LEN(sizeof(fd));
	memcpy(CMSG_DATA(cmsg), fd, sizeof(fd));
	CHECK(sendmsg(sv[0], &mh, 0) == sizeof(h));
	for (i = 0; i <= VHOST_USER_MAX_FDS; i++)
		close(fd[i]);
	before = open_fds();
	CHECK(vhost_user_recv(sv[1], &r, &fds, 1000) == -EPROTO);
	CHECK(fds.n == 0);
	CHECKF(open_fds() == before, "%d descriptors open, %d before",
	       open_fds(), before);
	unpair();
	return RIG_EXIT_OK;
}

/* Payload sizes are checked against what each request carries. */
static int case_payload_sizes(void)
{
	struct vhost_user_msg m;

	vhost_user_msg_init(&m, VHOST_USER_GET_FEATURES);
	CHECK(vhost_user_payload_ok(&m));
	m.hdr.size = 8;
	CHECK(!vhost_user_payload_ok(&m));
	m.hdr.flags |= VHOST_USER_FLAG_REPLY;
	CHECK(vhost_user_payload_ok(&m));

	vhost_user_msg_state(&m, VHOST_USER_SET_VRING_NUM, 0, 256);
	CHECK(vhost_user_payload_ok(&m));
	m.hdr.size = 4;
	CHECK(!vhost_user_payload_ok(&m));

	vhost_user_msg_init(&m, VHOST_USER_SET_VRING_ADDR);
	m.hdr.size = sizeof(m.payload.addr);
	CHECK(m.hdr.size == 40);
	CHECK(vhost_user_payload_ok(&m));
	m.hdr.size = 32;
	CHECK(!vhost_user_payload_ok(&m));

	vhost_user_msg_init(&m, VHOST_USER_SET_MEM_TABLE);
	m.payload.mem.nregions = 2;
	m.hdr.size = 8 + 32;
	CHECK(!vhost_user_payload_ok(&m));
	m.hdr.size = 8 + 64;
	CHECK(vhost_user_payload_ok(&m));
	m.payload.mem.nregions = 9;
	m.hdr.size = sizeof(m.payload.mem);
	CHECK(!vhost_user_payload_ok(&m));
	m.payload.mem.nregions = 8;
	CHECK(vhost_user_payload_ok(&m));
	m.hdr.size -= 1;
	CHECK(!vhost_user_payload_ok(&m));
	m.hdr.size = 7;
	CHECK(!vhost_user_payload_ok(&m));

	vhost_user_msg_init(&m, VHOST_USER_GET_CONFIG);
	m.payload.config.size = 8;
	m.hdr.size = 12 + 8;
	CHECK(vhost_user_payload_ok(&m));
	m.payload.config.size = VHOST_USER_MAX_CONFIG_SIZE;
	m.hdr.size = 12 + VHOST_USER_MAX_CONFIG_SIZE;
	CHECK(vhost_user_payload_ok(&m));
	m.hdr.size -= 1;
	CHECK(!vhost_user_payload_ok(&m));
	m.payload.config.size = VHOST_USER_MAX_CONFIG_SIZE + 1;
	m.hdr.size = 12 + VHOST_USER_MAX_CONFIG_SIZE + 1;
	CHECK(!vhost_user_payload_ok(&m));

	vhost_user_msg_init(&m, 999);
	CHECK(!vhost_user_payload_ok(&m));
	CHECK(!strcmp(vhost_user_request_name(999), "request 999"));
	CHECK(!strcmp(vhost_user_request_name(VHOST_USER_GET_VRING_BASE),
		      "GET_VRING_BASE"));
	return RIG_EXIT_OK;
}

static const struct rig_case cases[] = {
	RIG_CASE("roundtrip", case_roundtrip),
	RIG_CASE("too-big", case_too_big),
	RIG_CASE("max-size", case_max_size),
	RIG_CASE("max-fds", case_max_fds),
	RIG_CASE("bad-version", case_bad_version),
	RIG_CASE("truncated", case_truncated),
	RIG_CASE("timeout", case_timeout),
	RIG_CASE("too-many-fds", case_too_many_fds),
	RIG_CASE("payload-sizes", case_payload_sizes),
};

RIG_CASE_MAIN(cases, help)
