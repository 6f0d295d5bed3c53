/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The vhost-user protocol: the wire format both ends of a vhost-user socket
 * share, and sending and receiving one message with its file descriptors.
 *
 * The specification is QEMU's docs/interop/vhost-user.rst.  Every number
 * below is a fact it fixes: request codes, header flags, payload layouts,
 * protocol feature bits.  All fields are in the host's byte order.
 *
 * This file knows nothing about rings or devices: the frontend (the driver's
 * side) and the backend (the device's side) build on it.
 */
#ifndef RIG_VHOST_USER_WIRE_H
#define RIG_VHOST_USER_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Requests the frontend sends (spec: "Front-end message types"). */
enum vhost_user_request {
	VHOST_USER_GET_FEATURES = 1,
	VHOST_USER_SET_FEATURES = 2,
	VHOST_USER_SET_OWNER = 3,
	VHOST_USER_RESET_OWNER = 4,
	VHOST_USER_SET_MEM_TABLE = 5,
	VHOST_USER_SET_LOG_BASE = 6,
	VHOST_USER_SET_LOG_FD = 7,
	VHOST_USER_SET_VRING_NUM = 8,
	VHOST_USER_SET_VRING_ADDR = 9,
	VHOST_USER_SET_VRING_BASE = 10,
	VHOST_USER_GET_VRING_BASE = 11,
	VHOST_USER_SET_VRING_KICK = 12,
	VHOST_USER_SET_VRING_CALL = 13,
	VHOST_USER_SET_VRING_ERR = 14,
	VHOST_USER_GET_PROTOCOL_FEATURES = 15,
	VHOST_USER_SET_PROTOCOL_FEATURES = 16,
	VHOST_USER_GET_QUEUE_NUM = 17,
	VHOST_USER_SET_VRING_ENABLE = 18,
	VHOST_USER_SEND_RARP = 19,
	VHOST_USER_NET_SET_MTU = 20,
	VHOST_USER_SET_BACKEND_REQ_FD = 21,
	VHOST_USER_IOTLB_MSG = 22,
	VHOST_USER_SET_VRING_ENDIAN = 23,
	VHOST_USER_GET_CONFIG = 24,
	VHOST_USER_SET_CONFIG = 25,
	VHOST_USER_CREATE_CRYPTO_SESSION = 26,
	VHOST_USER_CLOSE_CRYPTO_SESSION = 27,
	VHOST_USER_POSTCOPY_ADVISE = 28,
	VHOST_USER_POSTCOPY_LISTEN = 29,
	VHOST_USER_POSTCOPY_END = 30,
	VHOST_USER_GET_INFLIGHT_FD = 31,
	VHOST_USER_SET_INFLIGHT_FD = 32,
	VHOST_USER_GPU_SET_SOCKET = 33,
	VHOST_USER_RESET_DEVICE = 34,
	VHOST_USER_VRING_KICK = 35,
	VHOST_USER_GET_MAX_MEM_SLOTS = 36,
	VHOST_USER_ADD_MEM_REG = 37,
	VHOST_USER_REM_MEM_REG = 38,
	VHOST_USER_SET_STATUS = 39,
	VHOST_USER_GET_STATUS = 40,
	VHOST_USER_REQUEST_MAX
};

/* Header flags: bits 0-1 are the protocol version. */
#define VHOST_USER_VERSION		0x1u
#define VHOST_USER_VERSION_MASK		0x3u
#define VHOST_USER_FLAG_REPLY		(1u << 2)
#define VHOST_USER_FLAG_NEED_REPLY	(1u << 3)

/* The virtio feature bit (an unused one) that gates protocol features. */
#define VHOST_USER_F_PROTOCOL_FEATURES	30

/* Protocol feature bits. */
#define VHOST_USER_PROTOCOL_F_MQ		0
#define VHOST_USER_PROTOCOL_F_LOG_SHMFD		1
#define VHOST_USER_PROTOCOL_F_RARP		2
#define VHOST_USER_PROTOCOL_F_REPLY_ACK		3
#define VHOST_USER_PROTOCOL_F_MTU		4
#define VHOST_USER_PROTOCOL_F_BACKEND_REQ	5
#define VHOST_USER_PROTOCOL_F_CROSS_ENDIAN	6
#define VHOST_USER_PROTOCOL_F_CRYPTO_SESSION	7
#define VHOST_USER_PROTOCOL_F_PAGEFAULT		8
#define VHOST_USER_PROTOCOL_F_CONFIG		9
#define VHOST_USER_PROTOCOL_F_BACKEND_SEND_FD	10
#define VHOST_USER_PROTOCOL_F_HOST_NOTIFIER	11
#define VHOST_USER_PROTOCOL_F_INFLIGHT_SHMFD	12
#define VHOST_USER_PROTOCOL_F_RESET_DEVICE	13
#define VHOST_USER_PROTOCOL_F_INBAND_NOTIFICATIONS 14
#define VHOST_USER_PROTOCOL_F_CONFIGURE_MEM_SLOTS 15
#define VHOST_USER_PROTOCOL_F_STATUS		16

/* The u64 payload of SET_VRING_KICK/CALL/ERR: ring index and "no fd". */
#define VHOST_USER_VRING_INDEX_MASK	0xffull
#define VHOST_USER_VRING_NOFD		(1ull << 8)

/* SET_MEM_TABLE carries at most this many regions (one fd each). */
#define VHOST_USER_MAX_REGIONS		8
/* The largest device config space GET/SET_CONFIG may carry. */
#define VHOST_USER_MAX_CONFIG_SIZE	256

struct vhost_user_hdr {
	uint32_t request;
	uint32_t flags;
	uint32_t size;		/* bytes of payload that follow */
};

/* SET_VRING_NUM, SET/GET_VRING_BASE, SET_VRING_ENABLE, VRING_KICK. */
struct vhost_user_vring_state {
	uint32_t index;
	uint32_t num;
};

/* SET_VRING_ADDR: frontend (user) addresses of the ring's three parts. */
struct vhost_user_vring_addr {
	uint32_t index;
	uint32_t flags;		/* VHOST_VRING_F_LOG */
	uint64_t desc;
	uint64_t used;
	uint64_t avail;
	uint64_t log;
};

#define VHOST_VRING_F_LOG		0

struct vhost_user_region {
	uint64_t guest_phys_addr;
	uint64_t memory_size;
	uint64_t userspace_addr;
	uint64_t mmap_offset;	/* where the region starts in its fd */
};

/* SET_MEM_TABLE: the regions' fds come in the same order. */
struct vhost_user_mem_table {
	uint32_t nregions;
	uint32_t padding;
	struct vhost_user_region regions[VHOST_USER_MAX_REGIONS];
};

/* ADD_MEM_REG / REM_MEM_REG. */
struct vhost_user_mem_reg {
	uint64_t padding;
	struct vhost_user_region region;
};

/* GET_CONFIG / SET_CONFIG. */
struct vhost_user_config {
	uint32_t offset;
	uint32_t size;
	uint32_t flags;
	uint8_t data[VHOST_USER_MAX_CONFIG_SIZE];
};

/*
 * GET/SET_INFLIGHT_FD: the region tracking requests in flight (its layout
 * is the backend's: vhost-user/protocol/inflight.h).  24 bytes on the wire, the
 * trailing padding included, as QEMU sends it.
 */
struct vhost_user_inflight {
	uint64_t mmap_size;
	uint64_t mmap_offset;
	uint16_t num_queues;
	uint16_t queue_size;
	uint32_t padding;
};

union vhost_user_payload {
	uint64_t u64;
	struct vhost_user_vring_state state;
	struct vhost_user_vring_addr addr;
	struct vhost_user_mem_table mem;
	struct vhost_user_mem_reg mem_reg;
	struct vhost_user_config config;
	struct vhost_user_inflight inflight;
	uint8_t bytes[sizeof(struct vhost_user_mem_table)];
};

/*
 * One message in memory.  On the wire the payload follows the 12-byte
 * header directly; here it is aligned, and send/recv move the two parts
 * separately.
 */
struct vhost_user_msg {
	struct vhost_user_hdr hdr;
	union vhost_user_payload payload;
};

/* Most file descriptors one message may carry (SET_MEM_TABLE's). */
#define VHOST_USER_MAX_FDS		VHOST_USER_MAX_REGIONS

/*
 * A received message's descriptors: closed by vhost_user_fds_close() unless
 * the receiver took them (set the slot to -1).
 */
struct vhost_user_fds {
	int fd[VHOST_USER_MAX_FDS];
	unsigned int n;
};

void vhost_user_fds_close(struct vhost_user_fds *fds);

/*
 * Send @msg (its header and hdr.size bytes of payload) and @nfds descriptors
 * in one sendmsg.  0, or a negative errno (-EPIPE when the peer is gone).
 */
int vhost_user_send(int sock, const struct vhost_user_msg *msg,
		    const int *fds, unsigned int nfds);

/*
 * Receive one whole message and the descriptors sent with it, waiting at
 * most @timeout_ms (negative: for ever).  0 on success; otherwise nothing
 * is left open and the result is:
 *   -ECONNRESET  the peer closed the connection (also mid-message)
 *   -ETIMEDOUT   nothing (or only part of a message) came in time
 *   -EMSGSIZE    the header's size exceeds every payload the spec defines
 *   -EPROTO      a bad version in the flags, or descriptors cut short
 *   other        a socket error
 * The payload's size is not checked against the request: see
 * vhost_user_payload_ok().
 */
int vhost_user_recv(int sock, struct vhost_user_msg *msg,
		    struct vhost_user_fds *fds, int timeout_ms);

/*
 * Does @msg's payload size fit its request?  Fixed-size payloads must match
 * exactly; GET/SET_CONFIG must hold their own size field; replies are
 * checked by the frontend against what it asked.
 */
bool vhost_user_payload_ok(const struct vhost_user_msg *msg);

/* "SET_MEM_TABLE", or "request 99" (in a static buffer) if unknown. */
const char *vhost_user_request_name(uint32_t request);

/* A message with no payload, version set. */
void vhost_user_msg_init(struct vhost_user_msg *msg, uint32_t request);
/* A message with a u64 payload. */
void vhost_user_msg_u64(struct vhost_user_msg *msg, uint32_t request,
			uint64_t value);
/* A message with a vring state payload. */
void vhost_user_msg_state(struct vhost_user_msg *msg, uint32_t request,
			  uint32_t index, uint32_t num);

#endif /* RIG_VHOST_USER_WIRE_H */
