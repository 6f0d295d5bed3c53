// SPDX-License-Identifier: GPL-2.0
/*
 * vhost_hostile: a hostile vhost-user frontend against vhost_dev.
 *
 * Starts VHOST_DEV (--type=blk) on a socket in a private folder, then for
 * each case connects, sends what the case sends, and checks that the
 * backend drops the connection and says the expected thing on stderr.
 * After every case a well-behaved frontend must still be served.  Prints
 * one PASS:/FAIL: line per case; exit status 1 if any failed.
 *
 * Usage: tests/vhost_hostile VHOST_DEV
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/virtio_config.h>
#include <uapi/linux/virtio_ring.h>
#include "vhost-user/wire.h"

static char dir[64], sock_path[128], err_path[128];
static long err_seen;		/* bytes of the backend's stderr already read */
static int failures;
static pid_t dev_pid;

/*
 * A TSan build cannot take the SIGBUS case: the fault comes inside TSan's
 * own atomic store, with its internal lock held, and the backend's
 * siglongjmp out of the handler leaves that lock held for good.
 */
#if defined(__SANITIZE_THREAD__)
#define TSAN_BUILD 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TSAN_BUILD 1
#endif
#endif
#ifndef TSAN_BUILD
#define TSAN_BUILD 0
#endif

#define MEM_SIZE	(1 << 20)
#define MEM_GPA		0x40000000ull

static int connect_dev(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int s = socket(AF_UNIX, SOCK_STREAM, 0), i;

	strcpy(sa.sun_path, sock_path);
	for (i = 0; i < 200; i++) {
		if (connect(s, (struct sockaddr *)&sa, sizeof(sa)) == 0)
			return s;
		usleep(10000);
	}
	printf("FAIL: vhost-user hostile frontend: vhost_dev no longer serves (connect: %s)\n",
	       strerror(errno));
	exit(1);
}

static void send_msg(int s, struct vhost_user_msg *m, const int *fds, unsigned int n)
{
	if (vhost_user_send(s, m, fds, n))
		fprintf(stderr, "vhost_hostile: send failed (backend gone early?)\n");
}

static void send_u64(int s, uint32_t req, uint64_t v)
{
	struct vhost_user_msg m;

	vhost_user_msg_u64(&m, req, v);
	send_msg(s, &m, NULL, 0);
}

static void send_state(int s, uint32_t req, uint32_t index, uint32_t num)
{
	struct vhost_user_msg m;

	vhost_user_msg_state(&m, req, index, num);
	send_msg(s, &m, NULL, 0);
}

static void send_plain(int s, uint32_t req)
{
	struct vhost_user_msg m;

	vhost_user_msg_init(&m, req);
	send_msg(s, &m, NULL, 0);
}

/* A one-region table of @size bytes of @fd at @off (n regions, fds). */
static void send_table(int s, uint32_t nregions, const int *fds, unsigned int nfds,
		       uint64_t gpa, uint64_t size, uint64_t uva, uint64_t off)
{
	struct vhost_user_msg m;
	uint32_t i;

	vhost_user_msg_init(&m, VHOST_USER_SET_MEM_TABLE);
	m.payload.mem.nregions = nregions;
	for (i = 0; i < nregions && i < VHOST_USER_MAX_REGIONS; i++) {
		m.payload.mem.regions[i].guest_phys_addr = gpa + i * size;
		m.payload.mem.regions[i].memory_size = size;
		m.payload.mem.regions[i].userspace_addr = uva + i * size;
		m.payload.mem.regions[i].mmap_offset = off;
	}
	m.hdr.size = sizeof(m.payload.mem);
	send_msg(s, &m, fds, nfds);
}

/* Wait until the backend closes @s (true) or 5 s pass (false). */
static bool dropped(int s)
{
	struct vhost_user_msg m;
	struct vhost_user_fds fds;
	int r, i;

	for (i = 0; i < 10; i++) {
		r = vhost_user_recv(s, &m, &fds, 500);
		if (r == -ECONNRESET)
			break;
		if (r == 0)
			vhost_user_fds_close(&fds);	/* a reply: keep reading */
	}
	close(s);
	return r == -ECONNRESET;
}

/* The backend's stderr since the last call. */
static char *new_errors(void)
{
	static char buf[65536];
	FILE *f = fopen(err_path, "r");
	size_t n = 0;

	buf[0] = 0;
	if (!f)
		return buf;
	if (fseek(f, err_seen, SEEK_SET) == 0)
		n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	err_seen += n;
	fclose(f);
	return buf;
}

/* A well-behaved frontend: GET_FEATURES answered with VERSION_1 offered. */
static bool still_serving(void)
{
	struct vhost_user_msg m;
	struct vhost_user_fds fds;
	int s = connect_dev();
	bool ok;

	send_plain(s, VHOST_USER_GET_FEATURES);
	ok = vhost_user_recv(s, &m, &fds, 5000) == 0 &&
	     m.hdr.request == VHOST_USER_GET_FEATURES &&
	     (m.payload.u64 & (1ull << VIRTIO_F_VERSION_1));
	close(s);
	return ok;
}

static void verdict(const char *name, int s, const char *want)
{
	bool gone = dropped(s);
	char *e;
	bool serving;

	usleep(20000);
	e = new_errors();
	serving = still_serving();
	if (gone && strstr(e, want) && serving) {
		printf("PASS: vhost-user hostile frontend: %s\n", name);
	} else {
		printf("FAIL: vhost-user hostile frontend: %s\n", name);
		printf("  connection %s, backend %s serving, wanted \"%s\" in: %s\n",
		       gone ? "dropped" : "NOT dropped", serving ? "still" : "NOT",
		       want, e);
		failures++;
	}
	fflush(stdout);
}

static int memfd(size_t size)
{
	int fd = memfd_create("vhost_hostile", MFD_CLOEXEC);

	if (fd < 0 || ftruncate(fd, size)) {
		perror("vhost_hostile: memfd");
		exit(1);
	}
	return fd;
}

/* Negotiate features (VERSION_1 + PROTOCOL_FEATURES) as a frontend would. */
static void hello(int s)
{
	send_plain(s, VHOST_USER_SET_OWNER);
	send_u64(s, VHOST_USER_SET_FEATURES, (1ull << VIRTIO_F_VERSION_1) |
		 (1ull << VHOST_USER_F_PROTOCOL_FEATURES));
	send_u64(s, VHOST_USER_SET_PROTOCOL_FEATURES, 0);
}

static void start_dev(const char *prog)
{
	char sock_arg[160];

	snprintf(sock_arg, sizeof(sock_arg), "--socket=%s", sock_path);
	dev_pid = fork();
	if (dev_pid == 0) {
		int fd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		int nul = open("/dev/null", O_WRONLY);

		dup2(fd, 2);
		dup2(nul, 1);
		execl(prog, prog, "--type=blk", "--size=1048576", sock_arg, (char *)NULL);
		_exit(127);
	}
}

int main(int argc, char **argv)
{
	struct vhost_user_msg m;
	int s, fd, fds[VHOST_USER_MAX_FDS], pipefd[2], i, status;
	uint8_t *mem;

	if (argc != 2) {
		fprintf(stderr, "usage: vhost_hostile VHOST_DEV\n");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	strcpy(dir, "/tmp/vhost_hostile.XXXXXX");
	if (!mkdtemp(dir)) {
		perror("vhost_hostile: mkdtemp");
		return 1;
	}
	snprintf(sock_path, sizeof(sock_path), "%s/sock", dir);
	snprintf(err_path, sizeof(err_path), "%s/err", dir);
	start_dev(argv[1]);
	if (!still_serving()) {
		printf("FAIL: vhost-user hostile frontend: %s does not serve\n", argv[1]);
		failures++;
		goto out;
	}

	/* The wire: truncated, bad version, oversized, wrong payload size. */
	s = connect_dev();
	{
		struct vhost_user_hdr h = { VHOST_USER_SET_FEATURES, VHOST_USER_VERSION, 8 };

		if (write(s, &h, sizeof(h)) != sizeof(h) || write(s, "abcd", 4) != 4)
			perror("write");
	}
	verdict("truncated message (4 of 8 payload bytes, then silence)", s, "message cut short");

	s = connect_dev();
	vhost_user_msg_init(&m, VHOST_USER_GET_FEATURES);
	m.hdr.flags = 2;
	if (write(s, &m.hdr, sizeof(m.hdr)) != sizeof(m.hdr))
		perror("write");
	verdict("bad version in the header flags", s, "bad version");

	s = connect_dev();
	vhost_user_msg_init(&m, VHOST_USER_SET_FEATURES);
	m.hdr.size = 0x100000;
	if (write(s, &m.hdr, sizeof(m.hdr)) != sizeof(m.hdr))
		perror("write");
	verdict("header size beyond any payload", s, "size beyond any payload");

	s = connect_dev();
	vhost_user_msg_u64(&m, VHOST_USER_SET_FEATURES, 1ull << VIRTIO_F_VERSION_1);
	m.hdr.size = 4;
	send_msg(s, &m, NULL, 0);
	verdict("SET_FEATURES with a 4-byte payload", s, "SET_FEATURES: payload of 4 bytes");

	s = connect_dev();
	send_plain(s, 99);
	verdict("unknown request 99", s, "request 99: unknown request");

	s = connect_dev();
	send_plain(s, VHOST_USER_GET_FEATURES);
	(void)vhost_user_recv(s, &m, (struct vhost_user_fds[1]){}, 2000);
	m.hdr.flags = VHOST_USER_VERSION | VHOST_USER_FLAG_REPLY;
	send_msg(s, &m, NULL, 0);
	verdict("a reply sent as a request", s, "a reply where a request was due");

	s = connect_dev();
	fd = memfd(MEM_SIZE);
	vhost_user_msg_init(&m, VHOST_USER_SET_OWNER);
	send_msg(s, &m, &fd, 1);
	close(fd);
	verdict("an fd on SET_OWNER", s, "SET_OWNER: 1 unexpected fds");

	s = connect_dev();
	send_u64(s, VHOST_USER_SET_FEATURES, 1ull << 63);
	verdict("SET_FEATURES with a bit not offered", s, "were not offered");

	/* The memory table. */
	mem = mmap(NULL, MEM_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	for (i = 0; i < VHOST_USER_MAX_FDS; i++)
		fds[i] = memfd(MEM_SIZE);

	s = connect_dev();
	hello(s);
	vhost_user_msg_init(&m, VHOST_USER_SET_MEM_TABLE);
	m.payload.mem.nregions = 9;
	m.hdr.size = sizeof(m.payload.mem);
	send_msg(s, &m, fds, 8);
	verdict("memory table with 9 regions", s, "9 regions, at most 8 allowed");

	s = connect_dev();
	hello(s);
	send_table(s, 1, NULL, 0, MEM_GPA, MEM_SIZE, (uintptr_t)mem, 0);
	verdict("memory region without its fd", s, "1 regions but 0 fds");

	s = connect_dev();
	hello(s);
	send_table(s, 1, fds, 1, MEM_GPA, MEM_SIZE, (uintptr_t)mem, ~0ull - 4095);
	verdict("memory region whose offset + size wraps", s, "wraps");

	s = connect_dev();
	hello(s);
	send_table(s, 1, fds, 1, ~0ull - 4095, MEM_SIZE, (uintptr_t)mem, 0);
	verdict("memory region whose guest address + size wraps", s, "wraps");

	s = connect_dev();
	hello(s);
	send_table(s, 1, fds, 1, MEM_GPA, 2 * MEM_SIZE, (uintptr_t)mem, 0);
	verdict("memory region larger than its fd", s, "past the end of its fd");

	s = connect_dev();
	hello(s);
	if (pipe(pipefd))
		return 1;
	send_table(s, 1, pipefd, 1, MEM_GPA, MEM_SIZE, (uintptr_t)mem, 0);
	close(pipefd[0]);
	close(pipefd[1]);
	verdict("memory region fd that is a pipe", s, "fd is not a memory file");

	s = connect_dev();
	hello(s);
	vhost_user_msg_init(&m, VHOST_USER_SET_MEM_TABLE);
	m.payload.mem.nregions = 2;
	for (i = 0; i < 2; i++) {
		m.payload.mem.regions[i].guest_phys_addr = MEM_GPA + i * 4096;
		m.payload.mem.regions[i].memory_size = MEM_SIZE;
		m.payload.mem.regions[i].userspace_addr = (uintptr_t)mem;
	}
	m.hdr.size = sizeof(m.payload.mem);
	send_msg(s, &m, fds, 2);
	verdict("overlapping memory regions", s, "regions 0 and 1 overlap");

	/* Rings. */
	s = connect_dev();
	hello(s);
	vhost_user_msg_init(&m, VHOST_USER_SET_VRING_ADDR);
	m.hdr.size = sizeof(m.payload.addr);
	m.payload.addr.desc = (uintptr_t)mem;
	send_msg(s, &m, NULL, 0);
	verdict("ring addresses before the memory table (wrong order)", s,
		"ring addresses before the memory table");

	s = connect_dev();
	hello(s);
	send_table(s, 1, fds, 1, MEM_GPA, MEM_SIZE, (uintptr_t)mem, 0);
	vhost_user_msg_init(&m, VHOST_USER_SET_VRING_ADDR);
	m.hdr.size = sizeof(m.payload.addr);
	m.payload.addr.desc = (uintptr_t)mem + MEM_SIZE + 4096;
	m.payload.addr.avail = m.payload.addr.used = (uintptr_t)mem;
	send_msg(s, &m, NULL, 0);
	verdict("ring address outside every region", s, "outside every memory region");

	s = connect_dev();
	hello(s);
	send_state(s, VHOST_USER_SET_VRING_NUM, 5, 256);
	verdict("queue index out of range", s, "queue index 5 out of range");

	s = connect_dev();
	hello(s);
	send_state(s, VHOST_USER_SET_VRING_NUM, 0, 65536);
	verdict("ring size 65536", s, "ring size 65536 out of range");

	s = connect_dev();
	hello(s);
	send_state(s, VHOST_USER_SET_VRING_NUM, 0, 100);
	verdict("split ring size not a power of 2", s, "not a power of 2");

	s = connect_dev();
	send_u64(s, VHOST_USER_SET_VRING_KICK, 0 | VHOST_USER_VRING_NOFD);
	verdict("kick without an fd (polling)", s, "polling (no kick fd) is not supported");

	s = connect_dev();
	send_u64(s, VHOST_USER_SET_VRING_CALL, 0);
	verdict("SET_VRING_CALL without NOFD and without an fd", s, "no NOFD but 0 fds");

	s = connect_dev();
	send_state(s, VHOST_USER_SET_VRING_ENABLE, 0, 1);
	verdict("SET_VRING_ENABLE before protocol features (wrong order)", s,
		"without PROTOCOL_FEATURES negotiated");

	s = connect_dev();
	vhost_user_msg_init(&m, VHOST_USER_GET_CONFIG);
	m.hdr.size = offsetof(struct vhost_user_config, data) + 8;
	m.payload.config.size = 8;
	send_msg(s, &m, NULL, 0);
	verdict("GET_CONFIG before CONFIG was negotiated", s, "CONFIG was not negotiated");

	s = connect_dev();
	send_u64(s, VHOST_USER_SET_PROTOCOL_FEATURES, 1ull << 63);
	verdict("SET_PROTOCOL_FEATURES with a bit not offered", s,
		"protocol features 0x8000000000000000 were not offered");

	s = connect_dev();
	send_u64(s, VHOST_USER_SET_STATUS, 0xf);
	verdict("SET_STATUS without STATUS negotiated", s, "STATUS was not negotiated");

	s = connect_dev();
	send_u64(s, VHOST_USER_SET_PROTOCOL_FEATURES, 1ull << VHOST_USER_PROTOCOL_F_STATUS);
	send_u64(s, VHOST_USER_SET_STATUS, 0x100);
	verdict("SET_STATUS 0x100 (not a byte)", s, "status 0x100 is not a byte");

	s = connect_dev();
	hello(s);
	send_state(s, VHOST_USER_SET_VRING_BASE, 0, 0x10000);
	verdict("split ring base 0x10000", s, "base 0x10000 out of range");

	/*
	 * Memory that vanishes: the frontend shrinks its memory file after
	 * the table was mapped; serving the ring would fault (SIGBUS).
	 */
	if (TSAN_BUILD) {
		printf("SKIP: vhost-user hostile frontend: memory file shrunk after the table was mapped (SIGBUS): "
		       "a TSan build cannot resume after a fault inside its own atomics\n");
	} else {
		s = connect_dev();
		hello(s);
		fd = memfd(MEM_SIZE);
		send_table(s, 1, &fd, 1, MEM_GPA, MEM_SIZE, (uintptr_t)mem, 0);
		send_state(s, VHOST_USER_SET_VRING_NUM, 0, 8);
		vhost_user_msg_init(&m, VHOST_USER_SET_VRING_ADDR);
		m.hdr.size = sizeof(m.payload.addr);
		m.payload.addr.desc = (uintptr_t)mem;
		m.payload.addr.avail = (uintptr_t)mem + 4096;
		m.payload.addr.used = (uintptr_t)mem + 8192;
		send_msg(s, &m, NULL, 0);
		{
			int kick = eventfd(0, 0);

			vhost_user_msg_u64(&m, VHOST_USER_SET_VRING_KICK, 0);
			send_msg(s, &m, &kick, 1);
			close(kick);
		}
		send_plain(s, VHOST_USER_GET_FEATURES);	/* a reply: the table is mapped */
		(void)vhost_user_recv(s, &m, (struct vhost_user_fds[1]){}, 5000);
		if (ftruncate(fd, 0))
			perror("ftruncate");
		send_state(s, VHOST_USER_SET_VRING_ENABLE, 0, 1);
		close(fd);
		verdict("memory file shrunk after the table was mapped (SIGBUS)", s,
			"the frontend's memory is gone (SIGBUS)");
	}

	/*
	 * A ring whose descriptor points outside every region: vringh's
	 * getrange refuses it, the queue stops, the connection stays.
	 */
	s = connect_dev();
	hello(s);
	send_table(s, 1, fds, 1, MEM_GPA, MEM_SIZE, (uintptr_t)mem, 0);
	{
		uint8_t *g = mmap(NULL, MEM_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fds[0], 0);
		struct vring vr;
		int kick = eventfd(0, 0);
		uint64_t one = 1;
		char *e;
		bool ok;

		vring_init(&vr, 8, g, 4096);
		vr.desc[0].addr = 0xdead0000;
		vr.desc[0].len = 16;
		vr.avail->ring[0] = 0;
		vr.avail->idx = 1;
		send_state(s, VHOST_USER_SET_VRING_NUM, 0, 8);
		vhost_user_msg_init(&m, VHOST_USER_SET_VRING_ADDR);
		m.hdr.size = sizeof(m.payload.addr);
		m.payload.addr.desc = (uintptr_t)mem + ((uint8_t *)vr.desc - g);
		m.payload.addr.avail = (uintptr_t)mem + ((uint8_t *)vr.avail - g);
		m.payload.addr.used = (uintptr_t)mem + ((uint8_t *)vr.used - g);
		send_msg(s, &m, NULL, 0);
		vhost_user_msg_u64(&m, VHOST_USER_SET_VRING_KICK, 0);
		send_msg(s, &m, &kick, 1);
		send_state(s, VHOST_USER_SET_VRING_ENABLE, 0, 1);
		if (write(kick, &one, 8) != 8)
			perror("write");
		/* The connection stays up: GET_FEATURES still answered here. */
		send_plain(s, VHOST_USER_GET_FEATURES);
		ok = vhost_user_recv(s, &m, (struct vhost_user_fds[1]){}, 5000) == 0 &&
		     m.hdr.request == VHOST_USER_GET_FEATURES;
		usleep(20000);
		e = new_errors();
		if (ok && strstr(e, "queue 0: getdesc: vringh refused the ring")) {
			printf("PASS: vhost-user hostile frontend: descriptor outside every region (queue stops, connection stays)\n");
		} else {
			printf("FAIL: vhost-user hostile frontend: descriptor outside every region\n  %s; stderr: %s\n",
			       ok ? "connection up" : "connection lost", e);
			failures++;
		}
		close(s);
		close(kick);
		munmap(g, MEM_SIZE);
	}
out:
	kill(dev_pid, SIGTERM);
	if (waitpid(dev_pid, &status, 0) == dev_pid &&
	    !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
		printf("FAIL: vhost-user hostile frontend: vhost_dev did not exit cleanly (status 0x%x)\n",
		       status);
		failures++;
	}
	unlink(sock_path);
	unlink(err_path);
	rmdir(dir);
	return failures ? 1 : 0;
}
