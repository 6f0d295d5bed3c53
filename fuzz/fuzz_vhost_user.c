// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_vhost_user: the vhost-user backend (vhost-user/protocol/backend.c) and its blk
 * and net models fed a hostile frontend's message stream.
 *
 * Input layout (little endian):
 *   u8 device        even: blk (1 MiB in memory), odd: net (loopback)
 *   u16 mem_len      then mem_len bytes (at most 64 KiB) written at the
 *                    start of the 64 KiB memfd that every memory region's
 *                    fd refers to: rings and buffers the backend will read
 *   then messages until the input ends:
 *     u8 nfds        low 4 bits: how many fds come with it (at most 8):
 *                    dups of the memfd for SET_MEM_TABLE, eventfds else
 *     12-byte header, then its payload (hdr.size bytes; a message the
 *                    input cuts short ends the input, as a dropped socket)
 * After each message every running queue is served as if kicked.  A
 * message the backend refuses ends the connection (and the input), as in
 * vub_serve().  The invariants: no crash, no sanitizer report, and after
 * the disconnect nothing stays mapped or open.
 */
#include "fuzz/fuzz.h"
#include <errno.h>
#include <fcntl.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include "vhost-user/backend/dev_models.h"

#define MEM_SIZE	(64 << 10)

static int memfd = -1;

static void drain(int s)
{
	char buf[4096];

	while (recv(s, buf, sizeof(buf), MSG_DONTWAIT) > 0)
		;
}

static int count_open_fds(void)
{
	int fd, n = 0;

	for (fd = 0; fd < 256; fd++)
		if (fcntl(fd, F_GETFD) >= 0)
			n++;
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct blk_model blk;
	static struct net_model net;
	static uint8_t *disk;
	static const uint8_t zero[MEM_SIZE];
	struct vub_device dev;
	struct vub vub;
	size_t pos = 0, mem_len;
	int sv[2], fds_before;
	bool is_net;

	if (memfd < 0) {
		memfd = memfd_create("fuzz_vhost_user", MFD_CLOEXEC);
		FUZZ_CHECK(memfd >= 0 && ftruncate(memfd, MEM_SIZE) == 0, "memfd");
		disk = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		FUZZ_CHECK(disk != MAP_FAILED, "disk");
		fuzz_quiet_stderr();
	}
	if (size < 3)
		return 0;
	is_net = data[0] & 1;
	mem_len = data[1] | data[2] << 8;
	pos = 3;
	if (mem_len > size - pos)
		mem_len = size - pos;
	if (mem_len > MEM_SIZE)
		mem_len = MEM_SIZE;
	FUZZ_CHECK(pwrite(memfd, zero, MEM_SIZE, 0) == MEM_SIZE, "clear memfd");
	FUZZ_CHECK(pwrite(memfd, data + pos, mem_len, 0) == (ssize_t)mem_len, "fill memfd");
	pos += mem_len;

	if (is_net) {
		memset(&net, 0, sizeof(net));
		net.report = stderr;
		net_model_init(&dev, &net, (1ull << 32) | (1ull << 28) | (1ull << 29) |
			       (1ull << 34) | (1ull << 35));
	} else {
		memset(&blk, 0, sizeof(blk));
		blk.fd = -1;
		blk.id = "fuzz";
		blk.queue_size = 128;
		blk.disk = disk;
		blk.size = 1 << 20;
		blk_model_init(&dev, &blk, (1ull << 32) | (1ull << 28) | (1ull << 29) |
			       (1ull << 34) | (1ull << 35));
	}
	fds_before = count_open_fds();
	FUZZ_CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0, "socketpair");
	vub_init(&vub, &dev);
	vub.conn_fd = sv[0];

	while (pos + 1 + sizeof(struct vhost_user_hdr) <= size) {
		struct vhost_user_msg m;
		struct vhost_user_fds fds = { .n = 0 };
		unsigned int nfds = data[pos] & 15, i;
		int err;

		pos++;
		memset(&m, 0, sizeof(m));
		memcpy(&m.hdr, data + pos, sizeof(m.hdr));
		pos += sizeof(m.hdr);
		/* What vhost_user_recv() refuses before the backend sees it. */
		if ((m.hdr.flags & VHOST_USER_VERSION_MASK) != VHOST_USER_VERSION ||
		    m.hdr.size > sizeof(m.payload) || m.hdr.size > size - pos)
			break;
		memcpy(&m.payload, data + pos, m.hdr.size);
		pos += m.hdr.size;
		if (nfds > VHOST_USER_MAX_FDS)
			nfds = VHOST_USER_MAX_FDS;
		for (i = 0; i < nfds; i++) {
			fds.fd[i] = m.hdr.request == VHOST_USER_SET_MEM_TABLE ?
				    dup(memfd) : eventfd(1, EFD_NONBLOCK);
			FUZZ_CHECK(fds.fd[i] >= 0, "fd %u", i);
		}
		fds.n = nfds;
		err = vub_handle_msg(&vub, &m, &fds);
		vhost_user_fds_close(&fds);
		drain(sv[1]);
		if (err)
			break;
		err = vub_kick_all(&vub);
		drain(sv[1]);
		if (err)
			break;
	}
	if (fuzz_verbose) {
		if (is_net)
			net_model_report(&net, stderr);
		else
			fprintf(stderr, "blk: reads=%lu writes=%lu flushes=%lu get_id=%lu bad=%lu\n",
				blk.reads, blk.writes, blk.flushes, blk.ids, blk.bad);
	}
	vub_disconnect(&vub);
	close(sv[1]);
	FUZZ_CHECK(vub.window == NULL && vub.nregions == 0, "memory still mapped");
	FUZZ_CHECK(count_open_fds() == fds_before, "fds leaked: %d open, %d before",
		   count_open_fds(), fds_before);
	return 0;
}
