// SPDX-License-Identifier: GPL-2.0
/*
 * vhost_hostile: a hostile vhost-user frontend against vhost_dev.
 *
 * Starts VHOST_DEV three times (--type=blk, and --type=net --queues=2 and
 * --type=blk --queues=2 for the multiqueue cases) on sockets in a private folder, then for each case of
 * the table (cases[]) connects to its device, sends what the case sends,
 * and checks that the backend drops the connection (or, for a case that
 * only stops a queue, keeps it) and says the expected thing on stderr.
 * After every case a well-behaved frontend must still be served.  Prints
 * KTAP (harness/ktap.h), a result per case; exit status 1 if any failed.
 *
 * Usage: tests/vhost_hostile VHOST_DEV
 */
#define _GNU_SOURCE
#include <dirent.h>
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
#include "harness/harness.h"
#include "harness/ktap.h"
#include "vhost-user/protocol/wire.h"

/* One vhost_dev under test. */
struct vh_dev {
	const char *args[4];		/* its options besides --socket */
	uint64_t features;		/* what hello() acks */
	char sock[128], err[128];
	long err_seen;			/* bytes of its stderr already read */
	pid_t pid;
};

#define VIRTIO_NET_F_CTRL_VQ	17
#define VIRTIO_NET_F_MQ		22

enum { DEV_BLK, DEV_NET, DEV_BLK2 };
static struct vh_dev devs[] = {
	[DEV_BLK] = { .args = { "--type=blk", "--size=1048576" },
		      .features = (1ull << VIRTIO_F_VERSION_1) |
				  (1ull << VHOST_USER_F_PROTOCOL_FEATURES) },
	/* Queues 0-3 the two pairs, 4 the control queue. */
	[DEV_NET] = { .args = { "--type=net", "--queues=2" },
		      .features = (1ull << VIRTIO_F_VERSION_1) |
				  (1ull << VHOST_USER_F_PROTOCOL_FEATURES) |
				  (1ull << VIRTIO_NET_F_CTRL_VQ) | (1ull << VIRTIO_NET_F_MQ) },
	/* Two request queues: the multiqueue twins of blk's one. */
	[DEV_BLK2] = { .args = { "--type=blk", "--size=1048576", "--queues=2" },
		       .features = (1ull << VIRTIO_F_VERSION_1) |
				   (1ull << VHOST_USER_F_PROTOCOL_FEATURES) },
};
#define NDEVS	(sizeof(devs) / sizeof(devs[0]))
static struct vh_dev *dev = &devs[DEV_BLK];	/* the one the case runs against */
static char dir[64];
static uint8_t *mem;			/* the frontend's memory, as its addresses */
static int fds[VHOST_USER_MAX_FDS];	/* memory files of MEM_SIZE bytes */
/* Every result's name starts with the suite's. */
#define SUITE	"vhost-user hostile frontend: "
static const char *this_case;		/* the case running, if one is */
static uint64_t packed_feature;		/* its .packed: hello() negotiates it */

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

static void stop_dev(void)
{
	unsigned int i;
	int status;

	for (i = 0; i < NDEVS; i++) {
		struct vh_dev *d = &devs[i];

		if (d->pid <= 0)
			continue;
		kill(d->pid, SIGTERM);
		if (waitpid(d->pid, &status, 0) == d->pid &&
		    !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
			ktap_test_fail(SUITE "vhost_dev %s did not exit cleanly (status 0x%x)",
				       d->args[0], status);
		}
		d->pid = 0;
		unlink(d->sock);
		unlink(d->err);
	}
	rmdir(dir);
}

/* This program cannot go on (@what: the reason, with errno): exit 1. */
static void give_up(const char *what)
{
	perror(what);
	stop_dev();
	exit(1);
}

static int connect_dev(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int s = socket(AF_UNIX, SOCK_STREAM, 0), i, e;

	strcpy(sa.sun_path, dev->sock);
	for (i = 0; i < 200; i++) {
		if (connect(s, (struct sockaddr *)&sa, sizeof(sa)) == 0)
			return s;
		usleep(10000);
	}
	/*
	 * The case that brought it down is the one that fails, under its own
	 * name (make mutate looks for it), the reason after it.
	 */
	e = errno;
	ktap_test_fail(SUITE "%s", this_case ? this_case : "vhost_dev serves");
	ktap_print_msg("  vhost_dev no longer serves (connect: %s)", strerror(e));
	stop_dev();
	exit(ktap_finished());
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

/* @req with @size bytes of @payload and, when @fd >= 0, that descriptor. */
static void send_payload(int s, uint32_t req, const void *payload, size_t size, int fd)
{
	struct vhost_user_msg m;

	vhost_user_msg_init(&m, req);
	memcpy(&m.payload, payload, size);
	m.hdr.size = size;
	send_msg(s, &m, fd >= 0 ? &fd : NULL, fd >= 0);
}

/* SET_VRING_ADDR of queue @index: the rings at these frontend addresses. */
static void send_addr_of(int s, uint32_t index, uint64_t desc, uint64_t avail, uint64_t used)
{
	const struct vhost_user_vring_addr a = {
		.index = index, .desc = desc, .avail = avail, .used = used,
	};

	send_payload(s, VHOST_USER_SET_VRING_ADDR, &a, sizeof(a), -1);
}

static void send_addr(int s, uint64_t desc, uint64_t avail, uint64_t used)
{
	send_addr_of(s, 0, desc, avail, used);
}

/* SET_VRING_KICK of queue @index with @kick. */
static void send_kick_of(int s, uint32_t index, int kick)
{
	struct vhost_user_msg m;

	vhost_user_msg_u64(&m, VHOST_USER_SET_VRING_KICK, index);
	send_msg(s, &m, &kick, 1);
}

static void send_kick(int s, int kick)
{
	send_kick_of(s, 0, kick);
}

/*
 * A table of @nregions regions of @size bytes, back to back from @gpa and
 * @uva, each at @off in its fd (@fds, @nfds of them).
 */
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

/* The table every ring case uses: all of memory, in fds[0]. */
static void send_good_table(int s)
{
	send_table(s, 1, fds, 1, MEM_GPA, MEM_SIZE, (uintptr_t)mem, 0);
}

/* A message back on @s within @ms (its fds closed): its request, or 0. */
static uint32_t recv_reply(int s, int ms)
{
	struct vhost_user_msg m;
	struct vhost_user_fds fds;

	if (vhost_user_recv(s, &m, &fds, ms))
		return 0;
	vhost_user_fds_close(&fds);
	return m.hdr.request;
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

/* Whether the backend still answers GET_FEATURES on @s; closes @s. */
static bool answers(int s)
{
	bool ok;

	send_plain(s, VHOST_USER_GET_FEATURES);
	ok = recv_reply(s, 5000) == VHOST_USER_GET_FEATURES;
	close(s);
	return ok;
}

/* The backend's stderr since the last call. */
static char *new_errors(void)
{
	static char buf[65536];
	FILE *f = fopen(dev->err, "r");
	size_t n = 0;

	buf[0] = 0;
	if (!f)
		return buf;
	if (fseek(f, dev->err_seen, SEEK_SET) == 0)
		n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	dev->err_seen += n;
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
	if (ok)
		vhost_user_fds_close(&fds);
	close(s);
	return ok;
}

static int memfd(size_t size)
{
	int fd = memfd_create("vhost_hostile", MFD_CLOEXEC);

	if (fd < 0 || ftruncate(fd, size))
		give_up("vhost_hostile: memfd");
	return fd;
}

/*
 * Negotiate features as a frontend would: VERSION_1 + PROTOCOL_FEATURES
 * (and for net, the control queue and MQ).
 */
static void hello_protocol(int s, uint64_t protocol_features)
{
	send_plain(s, VHOST_USER_SET_OWNER);
	send_u64(s, VHOST_USER_SET_FEATURES, dev->features | packed_feature);
	send_u64(s, VHOST_USER_SET_PROTOCOL_FEATURES, protocol_features);
}

static void hello(int s)
{
	hello_protocol(s, 0);
}

static void start_dev(struct vh_dev *d, const char *prog)
{
	char sock_arg[160];

	snprintf(sock_arg, sizeof(sock_arg), "--socket=%s", d->sock);
	d->pid = fork();
	if (d->pid == 0) {
		int fd = open(d->err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		int nul = open("/dev/null", O_WRONLY);

		dup2(fd, 2);
		dup2(nul, 1);
		execl(prog, prog, d->args[0], d->args[1], sock_arg, d->args[2], (char *)NULL);
		_exit(127);
	}
}

/* ---- The cases ---- */

/*
 * One hostile frontend.  On a fresh connection (after hello() if @hello)
 * @send sends what the case sends; the generic senders send one message,
 * @req with the values @a and @b; the others read @a, @b and @d as their
 * row's macro says.  Then the backend must have said @want
 * on stderr, dropped the connection (or kept it, if @stays) and still
 * serve the next frontend.  @want_kernel: what the backend says instead
 * when a kernel tree's vringh refuses the ring (it names no reason of its
 * own); NULL: @want either way.  @skip: the case cannot run in this
 * build, and why.  @net: against the net device (two queue pairs and the
 * control queue), not the blk one; @blk2: against blk with two request
 * queues (--queues=2).  @packed: a packed ring (a SKIP where
 * the build's vringh has none, and vhost_dev does not offer it).
 */
struct ctrl_cmd;

struct vh_case {
	const char *name;
	bool net;
	bool hello;
	void (*send)(int s, const struct vh_case *c);
	uint32_t req;
	uint64_t a, b, d;
	const char *want;
	const char *want_kernel;
	bool stays;
	const char *skip;
	const struct ctrl_cmd *ctrl;	/* CTRL()'s command */
	bool packed;			/* VIRTIO_F_RING_PACKED negotiated too */
	bool blk2;			/* against blk --queues=2 */
};


static void send_plain_case(int s, const struct vh_case *c)
{
	send_plain(s, c->req);
}

static void send_u64_case(int s, const struct vh_case *c)
{
	send_u64(s, c->req, c->a);
}

static void send_state_case(int s, const struct vh_case *c)
{
	send_state(s, c->req, c->a, c->b);
}

/* The request alone, a u64 (@v), or a vring state (@index, @num). */
#define PLAIN(r)	.send = send_plain_case, .req = (r)
#define U64(r, v)	.send = send_u64_case, .req = (r), .a = (v)
#define STATE(r, i, n)	.send = send_state_case, .req = (r), .a = (i), .b = (n)

/* Writes the raw header @h and @len bytes of @payload. */
static void send_raw(int s, const struct vhost_user_hdr *h, const void *payload, size_t len)
{
	if (write(s, h, sizeof(*h)) != sizeof(*h) ||
	    (len && write(s, payload, len) != (ssize_t)len))
		perror("write");
}

static void truncated(int s, const struct vh_case *c)
{
	struct vhost_user_hdr h = { VHOST_USER_SET_FEATURES, VHOST_USER_VERSION, 8 };

	(void)c;
	send_raw(s, &h, "abcd", 4);
}

/* A header alone that says @flags and @size. */
static void send_header_case(int s, const struct vh_case *c)
{
	struct vhost_user_hdr h = { c->req, c->a, c->b };

	send_raw(s, &h, NULL, 0);
}

#define HEADER(r, flags, size)	.send = send_header_case, .req = (r), .a = (flags), .b = (size)

static void short_payload(int s, const struct vh_case *c)
{
	struct vhost_user_msg m;

	(void)c;
	vhost_user_msg_u64(&m, VHOST_USER_SET_FEATURES, 1ull << VIRTIO_F_VERSION_1);
	m.hdr.size = 4;
	send_msg(s, &m, NULL, 0);
}

/* GET_FEATURES, then its answer sent back as a request. */
static void reply_as_request(int s, const struct vh_case *c)
{
	struct vhost_user_msg m;
	struct vhost_user_fds fds;

	(void)c;
	send_plain(s, VHOST_USER_GET_FEATURES);
	if (vhost_user_recv(s, &m, &fds, 2000) == 0)
		vhost_user_fds_close(&fds);
	m.hdr.flags = VHOST_USER_VERSION | VHOST_USER_FLAG_REPLY;
	send_msg(s, &m, NULL, 0);
}

static void fd_on_set_owner(int s, const struct vh_case *c)
{
	struct vhost_user_msg m;
	int fd = memfd(MEM_SIZE);

	(void)c;
	vhost_user_msg_init(&m, VHOST_USER_SET_OWNER);
	send_msg(s, &m, &fd, 1);
	close(fd);
}

static void nine_regions(int s, const struct vh_case *c)
{
	struct vhost_user_msg m;

	(void)c;
	vhost_user_msg_init(&m, VHOST_USER_SET_MEM_TABLE);
	m.payload.mem.nregions = 9;
	m.hdr.size = sizeof(m.payload.mem);
	send_msg(s, &m, fds, 8);
}

static void region_without_fd(int s, const struct vh_case *c)
{
	(void)c;
	send_table(s, 1, NULL, 0, MEM_GPA, MEM_SIZE, (uintptr_t)mem, 0);
}

/* One region of @size bytes at guest @gpa, at @offset in its fd. */
static void one_region_case(int s, const struct vh_case *c)
{
	send_table(s, 1, fds, 1, c->a, c->b, (uintptr_t)mem, c->d);
}

#define ONE_REGION(gpa, size, offset)	.send = one_region_case, .a = (gpa), .b = (size), .d = (offset)

static void region_fd_is_pipe(int s, const struct vh_case *c)
{
	int pipefd[2];

	(void)c;
	if (pipe(pipefd))
		give_up("vhost_hostile: pipe");
	send_table(s, 1, pipefd, 1, MEM_GPA, MEM_SIZE, (uintptr_t)mem, 0);
	close(pipefd[0]);
	close(pipefd[1]);
}

static void regions_overlap(int s, const struct vh_case *c)
{
	struct vhost_user_msg m;
	int i;

	(void)c;
	vhost_user_msg_init(&m, VHOST_USER_SET_MEM_TABLE);
	m.payload.mem.nregions = 2;
	for (i = 0; i < 2; i++) {
		m.payload.mem.regions[i].guest_phys_addr = MEM_GPA + i * 4096;
		m.payload.mem.regions[i].memory_size = MEM_SIZE;
		m.payload.mem.regions[i].userspace_addr = (uintptr_t)mem;
	}
	m.hdr.size = sizeof(m.payload.mem);
	send_msg(s, &m, fds, 2);
}

static void addr_before_table(int s, const struct vh_case *c)
{
	(void)c;
	send_addr(s, (uintptr_t)mem, 0, 0);
}

static void addr_outside_regions(int s, const struct vh_case *c)
{
	(void)c;
	send_good_table(s);
	send_addr(s, (uintptr_t)mem + MEM_SIZE, (uintptr_t)mem, (uintptr_t)mem);
}

static void set_status_not_a_byte(int s, const struct vh_case *c)
{
	(void)c;
	send_u64(s, VHOST_USER_SET_PROTOCOL_FEATURES, 1ull << VHOST_USER_PROTOCOL_F_STATUS);
	send_u64(s, VHOST_USER_SET_STATUS, 0x100);
}

static void get_config_unnegotiated(int s, const struct vh_case *c)
{
	struct vhost_user_msg m;

	(void)c;
	vhost_user_msg_init(&m, VHOST_USER_GET_CONFIG);
	m.hdr.size = offsetof(struct vhost_user_config, data) + 8;
	m.payload.config.size = 8;
	send_msg(s, &m, NULL, 0);
}

/*
 * Memory that vanishes: the frontend shrinks its memory file after the
 * table was mapped; serving the ring would fault (SIGBUS).
 */
static void memory_shrinks(int s, const struct vh_case *c)
{
	int fd = memfd(MEM_SIZE), kick = eventfd(0, 0);

	(void)c;
	send_table(s, 1, &fd, 1, MEM_GPA, MEM_SIZE, (uintptr_t)mem, 0);
	send_state(s, VHOST_USER_SET_VRING_NUM, 0, 8);
	send_addr(s, (uintptr_t)mem, (uintptr_t)mem + 4096, (uintptr_t)mem + 8192);
	send_kick(s, kick);
	close(kick);
	send_plain(s, VHOST_USER_GET_FEATURES);	/* a reply: the table is mapped */
	(void)recv_reply(s, 5000);
	if (ftruncate(fd, 0))
		perror("ftruncate");
	send_state(s, VHOST_USER_SET_VRING_ENABLE, 0, 1);
	close(fd);
}

/*
 * A ring whose descriptor points outside every region, kicked: vringh's
 * getrange refuses it, the queue stops, the connection stays.
 */
static void desc_outside_regions(int s, const struct vh_case *c)
{
	uint8_t *g = mmap(NULL, MEM_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fds[0], 0);
	int kick = eventfd(0, 0);
	uint64_t one = 1;
	struct vring vr;

	(void)c;
	if (g == MAP_FAILED)
		give_up("vhost_hostile: mmap");
	send_good_table(s);
	vring_init(&vr, 8, g, 4096);
	vr.desc[0].addr = 0xdead0000;
	vr.desc[0].len = 16;
	vr.avail->ring[0] = 0;
	vr.avail->idx = 1;
	send_state(s, VHOST_USER_SET_VRING_NUM, 0, 8);
	send_addr(s, (uintptr_t)mem + ((uint8_t *)vr.desc - g),
		  (uintptr_t)mem + ((uint8_t *)vr.avail - g),
		  (uintptr_t)mem + ((uint8_t *)vr.used - g));
	send_kick(s, kick);
	send_state(s, VHOST_USER_SET_VRING_ENABLE, 0, 1);
	if (write(kick, &one, 8) != 8)
		perror("write");
	close(kick);
	munmap(g, MEM_SIZE);
}

/*
 * ---- Bounds at their edges ----
 *
 * The largest value each bound accepts, which must be served without a
 * word on stderr (.want NULL), next to the first one past it.  A case that
 * sees something wrong itself (a request not served) says so here.
 */
static const char *case_problem;

/* Queue 0 of @num entries on rings at these frontend addresses, started. */
static void start_ring(int s, uint32_t num, uint64_t desc, uint64_t avail, uint64_t used)
{
	int kick = eventfd(0, 0);

	send_state(s, VHOST_USER_SET_VRING_NUM, 0, num);
	send_addr(s, desc, avail, used);
	send_kick(s, kick);
	send_state(s, VHOST_USER_SET_VRING_ENABLE, 0, 1);
	close(kick);
}

/*
 * Queue @index on the split ring of 8 @vr, written in @g (the mapping of
 * fds[0]: frontend address mem): set up, enabled and kicked.  If @wait:
 * whether the device used the one buffer within 2 s.
 */
static bool run_ring(int s, uint32_t index, uint8_t *g, struct vring *vr, bool wait)
{
	int kick = eventfd(0, 0), i;
	uint64_t one = 1;

	send_state(s, VHOST_USER_SET_VRING_NUM, index, 8);
	send_addr_of(s, index, (uintptr_t)mem + ((uint8_t *)vr->desc - g),
		     (uintptr_t)mem + ((uint8_t *)vr->avail - g),
		     (uintptr_t)mem + ((uint8_t *)vr->used - g));
	send_kick_of(s, index, kick);
	send_state(s, VHOST_USER_SET_VRING_ENABLE, index, 1);
	if (write(kick, &one, 8) != 8)
		perror("write");
	close(kick);
	for (i = 0; wait && i < 200 && *(volatile uint16_t *)&vr->used->idx != 1; i++)
		usleep(10000);
	return !wait || *(volatile uint16_t *)&vr->used->idx == 1;
}

/*
 * @nregions regions of MEM_SIZE back to back from MEM_GPA (fds[0], ...), a
 * split ring of 8 at the start of the first, and one blk request on it: a
 * 16-byte header (@type, @sector), @dlen writable data bytes at MEM_GPA +
 * 0x10000 if @dlen, and a writable descriptor of @len bytes at guest
 * address @gpa, whose last byte is the status.  @status: the status the
 * request must come back with, or -1 if it must not be served.
 */
/* The head blk_request() lays its chain at (descriptors on from it, mod 8). */
static unsigned int chain_at;

static void blk_request(int s, unsigned int nregions, uint32_t type, uint64_t sector,
			uint32_t dlen, uint64_t gpa, uint32_t len, int status)
{
	uint8_t *g[2], *st;
	uint64_t at = gpa + len - 1 - MEM_GPA;
	struct { uint32_t type, ioprio; uint64_t sector; } hdr = { type, 0, sector };
	struct vring vr;
	unsigned int i, d = chain_at;

	for (i = 0; i < nregions; i++) {
		g[i] = mmap(NULL, MEM_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fds[i], 0);
		if (g[i] == MAP_FAILED)
			give_up("vhost_hostile: mmap");
		memset(g[i], 0, MEM_SIZE);
	}
	st = at / MEM_SIZE < nregions ? &g[at / MEM_SIZE][at % MEM_SIZE] : NULL;
	if (st)
		*st = 0xff;
	send_table(s, nregions, fds, nregions, MEM_GPA, MEM_SIZE, (uintptr_t)mem, 0);
	vring_init(&vr, 8, g[0], 4096);
	memcpy(g[0] + 0x8000, &hdr, sizeof(hdr));
	vr.desc[d].addr = MEM_GPA + 0x8000;
	vr.desc[d].len = sizeof(hdr);
	vr.desc[d].flags = VRING_DESC_F_NEXT;
	vr.desc[d].next = (d + 1) % 8;
	if (dlen) {
		d = (d + 1) % 8;
		vr.desc[d].addr = MEM_GPA + 0x10000;
		vr.desc[d].len = dlen;
		vr.desc[d].flags = VRING_DESC_F_WRITE | VRING_DESC_F_NEXT;
		vr.desc[d].next = (d + 1) % 8;
	}
	d = (d + 1) % 8;
	vr.desc[d].addr = gpa;
	vr.desc[d].len = len;
	vr.desc[d].flags = VRING_DESC_F_WRITE;
	vr.avail->ring[0] = chain_at;
	vr.avail->idx = 1;
	if (!run_ring(s, 0, g[0], &vr, status >= 0))
		case_problem = "the request was not served";
	else if (status >= 0 && *(volatile uint8_t *)st != status)
		case_problem = "the status byte is not the one wanted";
	for (i = 0; i < nregions; i++)
		munmap(g[i], MEM_SIZE);
}

/* A status descriptor of @len bytes at @gpa, a GET_ID of no room (type 8). */
static void blk_status_at(int s, unsigned int nregions, uint64_t gpa, uint32_t len,
			  bool served)
{
	blk_request(s, nregions, 8, 0, 0, gpa, len, served ? 0 : -1);
}

/*
 * blk reads of the disk's end (vhost_dev --size=1048576: 2048 sectors):
 * the last sector, and two sectors from it (IOERR); 0 bytes at the end
 * (OK), and at one sector past it (IOERR).
 */
#define BLK_SECTORS	2048
#define BLK_STATUS	(MEM_GPA + 0x20000)

/* A read of @len bytes at @sector; the status byte must say @status. */
static void blk_read_case(int s, const struct vh_case *c)
{
	blk_request(s, 1, 0, c->a, c->b, BLK_STATUS, 1, c->d);
}

#define BLK_READ(sector, len, status)	.send = blk_read_case, .a = (sector), .b = (len), .d = (status)

/*
 * A status descriptor of @len bytes at @gpa, @nregions regions mapped:
 * served unless the case wants the backend to refuse it.
 */
static void status_at_case(int s, const struct vh_case *c)
{
	blk_status_at(s, c->a, c->b, c->d, !c->want);
}

#define STATUS_AT(nregions, gpa, len)	.send = status_at_case, .a = (nregions), .b = (gpa), .d = (len)

/*
 * GET_CONFIG of @size bytes at @off of blk's config space (256 bytes),
 * CONFIG negotiated; unless the case wants it refused, the reply must
 * come, whole.
 */
static void config_at_case(int s, const struct vh_case *c)
{
	uint32_t off = c->a, size = c->b;
	struct vhost_user_msg m;
	struct vhost_user_fds rfds;

	send_u64(s, VHOST_USER_SET_PROTOCOL_FEATURES, 1ull << VHOST_USER_PROTOCOL_F_CONFIG);
	vhost_user_msg_init(&m, VHOST_USER_GET_CONFIG);
	m.hdr.size = offsetof(struct vhost_user_config, data) + size;
	m.payload.config.offset = off;
	m.payload.config.size = size;
	send_msg(s, &m, NULL, 0);
	if (c->want)
		return;
	if (vhost_user_recv(s, &m, &rfds, 5000) != 0) {
		case_problem = "GET_CONFIG was not answered";
		return;
	}
	vhost_user_fds_close(&rfds);
	if (m.hdr.request != VHOST_USER_GET_CONFIG || m.payload.config.size != size)
		case_problem = "GET_CONFIG answered with something else";
}

#define CONFIG_AT(off, size)	.send = config_at_case, .a = (off), .b = (size)

static void eight_regions(int s, const struct vh_case *c)
{
	(void)c;
	send_table(s, 8, fds, 8, MEM_GPA, MEM_SIZE, (uintptr_t)mem, 0);
}

/* Two regions whose guest ranges overlap by @overlap bytes (0: adjacent). */
static void two_regions_case(int s, const struct vh_case *c)
{
	uint64_t overlap = c->a;
	struct vhost_user_msg m;
	int i;

	vhost_user_msg_init(&m, VHOST_USER_SET_MEM_TABLE);
	m.payload.mem.nregions = 2;
	for (i = 0; i < 2; i++) {
		m.payload.mem.regions[i].guest_phys_addr = MEM_GPA + i * (MEM_SIZE - overlap);
		m.payload.mem.regions[i].memory_size = MEM_SIZE;
		m.payload.mem.regions[i].userspace_addr = (uintptr_t)mem + i * MEM_SIZE;
	}
	m.hdr.size = sizeof(m.payload.mem);
	send_msg(s, &m, fds, 2);
}

#define TWO_REGIONS(overlap)	.send = two_regions_case, .a = (overlap)

/* The split avail ring of 8 (22 bytes) ending @past bytes past memory. */
static void avail_ring_case(int s, const struct vh_case *c)
{
	send_good_table(s);
	start_ring(s, 8, (uintptr_t)mem, (uintptr_t)mem + MEM_SIZE - 22 + c->a,
		   (uintptr_t)mem + 4096);
}

#define AVAIL_RING_PAST(past)	.send = avail_ring_case, .a = (past)

static void addr_at_last_byte(int s, const struct vh_case *c)
{
	(void)c;
	send_good_table(s);
	send_addr(s, (uintptr_t)mem + MEM_SIZE - 1, (uintptr_t)mem, (uintptr_t)mem);
}

/*
 * A ring part at the end of memory: part @a (0 the descriptor ring, 1
 * the driver area, 2 the device area) of a ring of 8 ends at the last
 * byte of the region (the region's size cut so that the part stays
 * aligned), or @d bytes past it; the others at the start of memory.
 * Split: 128, 22 and 70 bytes (the avail and used rings with their event
 * fields: only the last field crosses the end); packed: 128, 4 and 4.
 */
/* The frontend's memory (fds[0]) zeroed: a ring there has nothing in it. */
static void zero_memory(void)
{
	uint8_t *g = mmap(NULL, MEM_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fds[0], 0);

	if (g == MAP_FAILED)
		give_up("vhost_hostile: mmap");
	memset(g, 0, MEM_SIZE);
	munmap(g, MEM_SIZE);
}

static void ring_part_case(int s, const struct vh_case *c)
{
	static const uint64_t split_len[] = { 128, 22, 70 }, packed_len[] = { 128, 4, 4 };
	static const uint64_t split_align[] = { 16, 2, 4 }, packed_align[] = { 16, 4, 4 };
	uint64_t len = c->packed ? packed_len[c->a] : split_len[c->a];
	uint64_t align = c->packed ? packed_align[c->a] : split_align[c->a];
	uint64_t size = MEM_SIZE - (MEM_SIZE - len) % align;
	uint64_t at[3] = { (uintptr_t)mem, (uintptr_t)mem + 4096, (uintptr_t)mem + 8192 };

	zero_memory();
	send_table(s, 1, fds, 1, MEM_GPA, size, (uintptr_t)mem, 0);
	/* A fresh packed ring starts in the lap of wrap counter 1. */
	if (c->packed)
		send_state(s, VHOST_USER_SET_VRING_BASE, 0, 0x8000);
	at[c->a] = (uintptr_t)mem + size - len + c->d;
	start_ring(s, 8, at[0], at[1], at[2]);
}

#define RING_PART(part, past)	.send = ring_part_case, .a = (part), .d = (past)

/*
 * A packed ring of 8 started at base @a (bits 0-14 the avail offset, 15
 * its wrap counter; 16-31 the used ones): an offset of 7 starts, 8 is
 * past the ring's end.
 */
static void packed_base_case(int s, const struct vh_case *c)
{
	zero_memory();
	send_good_table(s);
	send_state(s, VHOST_USER_SET_VRING_BASE, 0, c->a);
	start_ring(s, 8, (uintptr_t)mem, (uintptr_t)mem + 4096, (uintptr_t)mem + 8192);
}

#define PACKED_BASE(base)	.send = packed_base_case, .a = (base)

/* Queue 0 started (a split ring of 8), then @req (NUM or ADDR) for it. */
static void running_queue_case(int s, const struct vh_case *c)
{
	uint64_t desc = (uintptr_t)mem, avail = desc + 4096, used = desc + 8192;

	zero_memory();
	send_good_table(s);
	start_ring(s, 8, desc, avail, used);
	if (c->req == VHOST_USER_SET_VRING_ADDR)
		send_addr(s, desc, avail, used);
	else
		send_state(s, c->req, 0, 8);
}

#define RUNNING(r)	.send = running_queue_case, .req = (r)

/*
 * ---- Multiqueue ----
 *
 * GET_QUEUE_NUM with MQ negotiated must answer @a, the device's queues.
 */
static void queue_num_is(int s, const struct vh_case *c)
{
	struct vhost_user_msg m;
	struct vhost_user_fds rfds;

	send_u64(s, VHOST_USER_SET_PROTOCOL_FEATURES, 1ull << VHOST_USER_PROTOCOL_F_MQ);
	send_plain(s, VHOST_USER_GET_QUEUE_NUM);
	if (vhost_user_recv(s, &m, &rfds, 5000) != 0) {
		case_problem = "GET_QUEUE_NUM was not answered";
		return;
	}
	vhost_user_fds_close(&rfds);
	if (m.hdr.request != VHOST_USER_GET_QUEUE_NUM || m.payload.u64 != c->a)
		case_problem = "GET_QUEUE_NUM answered another number";
}

/*
 * One command on the net device's control queue (index 4; 2 once MQ is
 * dropped from the features, @no_mq): class @cls,
 * command @cmd, and @dlen bytes of @data in one readable descriptor, then
 * a writable ack byte unless @no_ack.  The device must use the buffer and
 * ack @want (VIRTIO_NET_OK 0, VIRTIO_NET_ERR 1); with @no_ack, use it
 * writing nothing.
 */
static void ctrl_command(int s, bool no_mq, uint8_t cls, uint8_t cmd, const void *data,
			 uint32_t dlen, bool no_ack, uint8_t want)
{
	uint8_t *g = mmap(NULL, MEM_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fds[0], 0);
	volatile uint8_t *ack;
	struct vring vr;

	if (g == MAP_FAILED)
		give_up("vhost_hostile: mmap");
	memset(g, 0, MEM_SIZE);
	if (no_mq)
		send_u64(s, VHOST_USER_SET_FEATURES, dev->features & ~(1ull << VIRTIO_NET_F_MQ));
	send_good_table(s);
	vring_init(&vr, 8, g, 4096);
	g[0x8000] = cls;
	g[0x8001] = cmd;
	memcpy(g + 0x8002, data, dlen);
	ack = g + 0x9000;
	*ack = 0xff;
	vr.desc[0].addr = MEM_GPA + 0x8000;
	vr.desc[0].len = 2 + dlen;
	if (!no_ack) {
		vr.desc[0].flags = VRING_DESC_F_NEXT;
		vr.desc[0].next = 1;
		vr.desc[1].addr = MEM_GPA + 0x9000;
		vr.desc[1].len = 1;
		vr.desc[1].flags = VRING_DESC_F_WRITE;
	}
	vr.avail->ring[0] = 0;
	vr.avail->idx = 1;
	if (!run_ring(s, no_mq ? 2 : 4, g, &vr, true))
		case_problem = "the control command was not used";
	else if (no_ack ? vr.used->ring[0].len != 0 : *ack != want)
		case_problem = no_ack ? "a used length for a buffer with no room" :
			       "the ack byte is not the one wanted";
	munmap(g, MEM_SIZE);
}

#define VIRTIO_NET_CTRL_MQ	4

/*
 * One control command, as ctrl_command() sends it: class @cls (command
 * 0), the first @dlen bytes of @data (as the CPU holds it), @no_ack and
 * @no_mq as there; the device must ack @ack.
 */
struct ctrl_cmd {
	uint8_t cls;
	uint16_t data;
	uint32_t dlen;
	bool no_ack, no_mq;
	uint8_t ack;
};

static void ctrl_case(int s, const struct vh_case *c)
{
	const struct ctrl_cmd *k = c->ctrl;

	ctrl_command(s, k->no_mq, k->cls, 0, &k->data, k->dlen, k->no_ack, k->ack);
}

#define CTRL(...)	.send = ctrl_case, .ctrl = &(const struct ctrl_cmd){ __VA_ARGS__ }
/* VQ_PAIRS_SET of @n pairs, acked @want. */
#define CTRL_PAIRS(n, want)	CTRL(.cls = VIRTIO_NET_CTRL_MQ, .data = (n), .dlen = 2, .ack = (want))

/*
 * ---- The inflight region (vhost-user/protocol/inflight.h) ----
 *
 * The frontend hands the backend a region it can write at any time: every
 * field the backend reads there is a hostile input too.
 */
#define VIRTIO_INFLIGHT_SHMFD	(1ull << VHOST_USER_PROTOCOL_F_INFLIGHT_SHMFD)
#define INFL_QSIZE		16		/* entries; the rings here have 8 */
#define INFL_BYTES		320		/* one queue: 16 + 16 * 16, 64-aligned */

/* hello() with INFLIGHT_SHMFD negotiated. */
static void hello_inflight(int s)
{
	hello_protocol(s, VIRTIO_INFLIGHT_SHMFD);
}

static void send_inflight(int s, uint32_t req, uint64_t size, uint64_t off,
			  uint16_t nqueues, uint16_t qsize, int fd)
{
	const struct vhost_user_inflight in = {
		.mmap_size = size, .mmap_offset = off, .num_queues = nqueues, .queue_size = qsize,
	};

	send_payload(s, req, &in, sizeof(in), fd);
}

static void get_inflight_case(int s, const struct vh_case *c)
{
	if (c->b)
		hello_inflight(s);
	send_inflight(s, VHOST_USER_GET_INFLIGHT_FD, 0, 0, c->a >> 16, c->a & 0xffff, -1);
}

/* GET_INFLIGHT_FD for @a >> 16 queues of @a & 0xffff, answered with a region. */
static void get_inflight_ok(int s, const struct vh_case *c)
{
	struct vhost_user_msg m;
	struct vhost_user_fds rfds;

	hello_inflight(s);
	send_inflight(s, VHOST_USER_GET_INFLIGHT_FD, 0, 0, c->a >> 16, c->a & 0xffff, -1);
	if (vhost_user_recv(s, &m, &rfds, 5000) != 0) {
		case_problem = "GET_INFLIGHT_FD was not answered";
		return;
	}
	if (m.hdr.request != VHOST_USER_GET_INFLIGHT_FD || rfds.n != 1 ||
	    m.payload.inflight.num_queues != c->a >> 16)
		case_problem = "GET_INFLIGHT_FD answered with something else";
	vhost_user_fds_close(&rfds);
}

/* SET_INFLIGHT_FD: @a the size sent, @b the fd's size (0: no fd). */
static void set_inflight_case(int s, const struct vh_case *c)
{
	int fd = c->b ? memfd(c->b) : -1;

	hello_inflight(s);
	send_inflight(s, VHOST_USER_SET_INFLIGHT_FD, c->a, 0, 1, INFL_QSIZE, fd);
	if (fd >= 0)
		close(fd);
}

/* Field offsets in one queue's part (the spec's QueueRegionSplit). */
#define INFL_VERSION	8
#define INFL_DESC_NUM	10
#define INFL_BATCH	12
#define INFL_USED	14
#define INFL_DESC(i)	(16 + 16 * (i))

/*
 * A region of one queue, version 1, its fields then changed by @edit,
 * handed over; then blk_request()'s ring of 8 with one GET_ID request at
 * head 0, started.  @served: the request must come back OK.  Returns the
 * region, mapped (the caller unmaps INFL_BYTES).
 */
static uint8_t *inflight_ring(int s, void (*edit)(uint8_t *r), bool served)
{
	int fd = memfd(INFL_BYTES);
	uint8_t *r = mmap(NULL, INFL_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	uint16_t one = 1, num = INFL_QSIZE;

	if (r == MAP_FAILED)
		give_up("vhost_hostile: mmap");
	memcpy(r + INFL_VERSION, &one, 2);
	memcpy(r + INFL_DESC_NUM, &num, 2);
	edit(r);
	hello_inflight(s);
	send_inflight(s, VHOST_USER_SET_INFLIGHT_FD, INFL_BYTES, 0, 1, INFL_QSIZE, fd);
	close(fd);
	blk_status_at(s, 1, BLK_STATUS, 21, served);
	return r;
}

static void edit_version(uint8_t *r)
{
	uint16_t v = 7;

	memcpy(r + INFL_VERSION, &v, 2);
}

static void edit_flag(uint8_t *r)
{
	r[INFL_DESC(3)] = 2;
}

static void edit_past_ring(uint8_t *r)
{
	r[INFL_DESC(12)] = 1;	/* a head of 12 in a ring of 8 */
}

static void edit_head8(uint8_t *r)
{
	r[INFL_DESC(8)] = 1;	/* the first head past a ring of 8 */
}

static void edit_used_behind(uint8_t *r)
{
	uint16_t u = 0xfff0;	/* 16 behind the ring's 0 */

	memcpy(r + INFL_USED, &u, 2);
}

/* A last batch of @n entries, published and not cleared: heads 0 .. @n - 1. */
static void last_batch(uint8_t *r, uint16_t n, uint16_t first)
{
	uint16_t u = -n, i;

	memcpy(r + INFL_USED, &u, 2);
	memcpy(r + INFL_BATCH, &first, 2);
	for (i = 0; i < 8; i++) {
		uint16_t next = i + 1;

		memcpy(r + INFL_DESC(i) + 2, &next, 2);
	}
}

static void edit_used_ring_behind(uint8_t *r)
{
	last_batch(r, 8, 0);	/* a whole ring behind: the most there can be */
}

static void edit_used_ring_and_one_behind(uint8_t *r)
{
	last_batch(r, 9, 0);
}

static void edit_batch_head(uint8_t *r)
{
	uint16_t u = 0xffff, h = 9;	/* one entry published, head 9 */

	memcpy(r + INFL_USED, &u, 2);
	memcpy(r + INFL_BATCH, &h, 2);
}

static void edit_batch_head7(uint8_t *r)
{
	last_batch(r, 1, 7);	/* the ring's last head */
}

static void edit_batch_head8(uint8_t *r)
{
	last_batch(r, 1, 8);	/* the first past it */
}

/* Head 0 in flight (the GET_ID request): resubmitted, not taken again. */
static void edit_head0(uint8_t *r)
{
	uint64_t counter = 5;

	r[INFL_DESC(0)] = 1;
	memcpy(r + INFL_DESC(0) + 8, &counter, 8);
}

static void inflight_bad(int s, const struct vh_case *c)
{
	void (*edit)(uint8_t *) = (void (*)(uint8_t *))(uintptr_t)c->a;

	munmap(inflight_ring(s, edit, false), INFL_BYTES);
}

/* The region edited by @a is taken: the request at head 0 is served. */
static void inflight_good(int s, const struct vh_case *c)
{
	void (*edit)(uint8_t *) = (void (*)(uint8_t *))(uintptr_t)c->a;

	munmap(inflight_ring(s, edit, true), INFL_BYTES);
}

/*
 * Head 7, the ring's last, in flight: the request laid there is
 * resubmitted and completed once.
 */
static void edit_head7(uint8_t *r)
{
	uint64_t counter = 5;

	r[INFL_DESC(7)] = 1;
	memcpy(r + INFL_DESC(7) + 8, &counter, 8);
}

static void inflight_head7_resubmitted(int s, const struct vh_case *c)
{
	uint8_t *r;
	uint16_t used;

	(void)c;
	chain_at = 7;
	r = inflight_ring(s, edit_head7, true);
	chain_at = 0;
	usleep(100000);
	memcpy(&used, r + INFL_USED, 2);
	if (!case_problem && (r[INFL_DESC(7)] != 0 || used != 1))
		case_problem = "the region does not say the request at head 7 completed once";
	munmap(r, INFL_BYTES);
}

/*
 * A region made for rings of @a entries, the ring of 8 started on it:
 * 8 (at) fits, 4 (past) does not.
 */
static void inflight_size_case(int s, const struct vh_case *c)
{
	size_t bytes = ALIGN(16 + 16 * c->a, 64);
	int fd = memfd(bytes);
	uint8_t *r = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	uint16_t one = 1, num = c->a;

	if (r == MAP_FAILED)
		give_up("vhost_hostile: mmap");
	memcpy(r + INFL_VERSION, &one, 2);
	memcpy(r + INFL_DESC_NUM, &num, 2);
	hello_inflight(s);
	send_inflight(s, VHOST_USER_SET_INFLIGHT_FD, bytes, 0, 1, c->a, fd);
	close(fd);
	blk_status_at(s, 1, BLK_STATUS, 21, !c->want);
	munmap(r, bytes);
}

static void inflight_resubmitted(int s, const struct vh_case *c)
{
	uint8_t *r = inflight_ring(s, edit_head0, true);
	uint16_t used;

	(void)c;
	usleep(100000);		/* a second completion would come by now */
	memcpy(&used, r + INFL_USED, 2);
	if (!case_problem && (r[INFL_DESC(0)] != 0 || used != 1))
		case_problem = "the region does not say the request completed once (inflight 0, used_idx 1)";
	munmap(r, INFL_BYTES);
}

#define INFL_BAD(e)	.send = inflight_bad, .a = (uintptr_t)(e)
#define INFL_GOOD(e)	.send = inflight_good, .a = (uintptr_t)(e), .stays = true

static const struct vh_case cases[] = {
	/* The wire: truncated, bad version, oversized, wrong payload size. */
	{ "truncated message (4 of 8 payload bytes, then silence)",
	  .send = truncated, .want = "message cut short" },
	{ "bad version in the header flags", HEADER(VHOST_USER_GET_FEATURES, 2, 0),
	  .want = "bad version" },
	{ "header size beyond any payload",
	  HEADER(VHOST_USER_SET_FEATURES, VHOST_USER_VERSION, 0x100000),
	  .want = "size beyond any payload" },
	{ "SET_FEATURES with a 4-byte payload",
	  .send = short_payload, .want = "SET_FEATURES: payload of 4 bytes" },
	{ "unknown request 99", PLAIN(99), .want = "request 99: unknown request" },
	{ "a reply sent as a request",
	  .send = reply_as_request, .want = "a reply where a request was due" },
	{ "an fd on SET_OWNER", .send = fd_on_set_owner, .want = "SET_OWNER: 1 unexpected fds" },
	{ "SET_FEATURES with a bit not offered",
	  U64(VHOST_USER_SET_FEATURES, 1ull << 63), .want = "were not offered" },

	/* The memory table. */
	{ "memory table with 9 regions", .hello = true,
	  .send = nine_regions, .want = "9 regions, at most 8 allowed" },
	{ "memory region without its fd", .hello = true,
	  .send = region_without_fd, .want = "1 regions but 0 fds" },
	{ "memory region whose offset + size wraps", .hello = true,
	  ONE_REGION(MEM_GPA, MEM_SIZE, ~0ull - 4095), .want = "wraps" },
	{ "memory region whose guest address + size wraps", .hello = true,
	  ONE_REGION(~0ull - 4095, MEM_SIZE, 0), .want = "wraps" },
	{ "memory region larger than its fd", .hello = true,
	  ONE_REGION(MEM_GPA, 2 * MEM_SIZE, 0), .want = "past the end of its fd" },
	{ "memory region fd that is a pipe", .hello = true,
	  .send = region_fd_is_pipe, .want = "fd is not a memory file" },
	{ "overlapping memory regions", .hello = true,
	  .send = regions_overlap, .want = "regions 0 and 1 overlap" },

	/* Rings. */
	{ "ring addresses before the memory table (wrong order)", .hello = true,
	  .send = addr_before_table, .want = "ring addresses before the memory table" },
	{ "ring address outside every region", .hello = true,
	  .send = addr_outside_regions, .want = "outside every memory region" },
	{ "queue index out of range (16: blk offers 16 queues by default)", .hello = true,
	  STATE(VHOST_USER_SET_VRING_NUM, 16, 256),
	  .want = "queue index 16 out of range (the device has 16)" },
	{ "edge: queue index 15 (blk's last by default)", .hello = true,
	  STATE(VHOST_USER_SET_VRING_NUM, 15, 256), .stays = true },
	{ "SET_VRING_NUM of a running queue", .hello = true,
	  RUNNING(VHOST_USER_SET_VRING_NUM), .want = "queue 0 is running" },
	{ "SET_VRING_ADDR of a running queue", .hello = true,
	  RUNNING(VHOST_USER_SET_VRING_ADDR), .want = "queue 0 is running" },
	{ "SET_VRING_CALL with a bit past the index and NOFD", .hello = true,
	  U64(VHOST_USER_SET_VRING_CALL, 1 << 9 | VHOST_USER_VRING_NOFD),
	  .want = "unknown bits in 0x300" },
	{ "ring size 32769", .hello = true,
	  STATE(VHOST_USER_SET_VRING_NUM, 0, 32769), .want = "ring size 32769 out of range" },
	{ "ring size 0", .hello = true,
	  STATE(VHOST_USER_SET_VRING_NUM, 0, 0), .want = "ring size 0 out of range" },
	{ "split ring size not a power of 2", .hello = true,
	  STATE(VHOST_USER_SET_VRING_NUM, 0, 100), .want = "not a power of 2" },
	{ "kick without an fd (polling)",
	  U64(VHOST_USER_SET_VRING_KICK, 0 | VHOST_USER_VRING_NOFD),
	  .want = "polling (no kick fd) is not supported" },
	{ "SET_VRING_CALL without NOFD and without an fd",
	  U64(VHOST_USER_SET_VRING_CALL, 0), .want = "no NOFD but 0 fds" },
	{ "SET_VRING_ENABLE before protocol features (wrong order)",
	  STATE(VHOST_USER_SET_VRING_ENABLE, 0, 1),
	  .want = "without PROTOCOL_FEATURES negotiated" },

	/* Protocol features a request needs. */
	{ "GET_CONFIG before CONFIG was negotiated",
	  .send = get_config_unnegotiated, .want = "CONFIG was not negotiated" },
	{ "SET_PROTOCOL_FEATURES with a bit not offered",
	  U64(VHOST_USER_SET_PROTOCOL_FEATURES, 1ull << 63),
	  .want = "protocol features 0x8000000000000000 were not offered" },
	{ "SET_STATUS without STATUS negotiated",
	  U64(VHOST_USER_SET_STATUS, 0xf), .want = "STATUS was not negotiated" },
	{ "SET_STATUS 0x100 (not a byte)",
	  .send = set_status_not_a_byte, .want = "status 0x100 is not a byte" },
	{ "split ring base 0x10000", .hello = true,
	  STATE(VHOST_USER_SET_VRING_BASE, 0, 0x10000), .want = "base 0x10000 out of range" },
	{ "GET_QUEUE_NUM without MQ negotiated", .hello = true,
	  PLAIN(VHOST_USER_GET_QUEUE_NUM), .want = "MQ was not negotiated" },

	/*
	 * Multiqueue: vhost_dev --type=blk offers 16 queues, as many as a
	 * frontend may ask for; --type=net --queues=2 (a limit) has queues
	 * 0-3 and control queue 4.
	 */
	{ "edge: GET_QUEUE_NUM of blk (no --queues) answers 16", .hello = true,
	  .send = queue_num_is, .a = 16, .stays = true },
	{ "edge: GET_QUEUE_NUM of net --queues=2 answers 5 (two pairs, the control queue)",
	  .net = true, .hello = true, .send = queue_num_is, .a = 5, .stays = true },
	{ "edge: GET_QUEUE_NUM of blk --queues=2 answers 2", .blk2 = true, .hello = true,
	  .send = queue_num_is, .a = 2, .stays = true },
	{ "edge: blk --queues=2: queue index 1", .blk2 = true, .hello = true,
	  STATE(VHOST_USER_SET_VRING_NUM, 1, 256), .stays = true },
	{ "edge: blk --queues=2: queue index 2 out of range", .blk2 = true, .hello = true,
	  STATE(VHOST_USER_SET_VRING_NUM, 2, 256),
	  .want = "queue index 2 out of range (the device has 2)" },
	{ "edge: net --queues=2: queue index 4 (the control queue)", .net = true, .hello = true,
	  STATE(VHOST_USER_SET_VRING_NUM, 4, 256), .stays = true },
	{ "net --queues=2: queue index 5 out of range", .net = true, .hello = true,
	  STATE(VHOST_USER_SET_VRING_NUM, 5, 256),
	  .want = "queue index 5 out of range (the device has 5)" },
	{ "edge: net --queues=2: SET_VRING_CALL of queue 4 (NOFD)", .net = true, .hello = true,
	  U64(VHOST_USER_SET_VRING_CALL, 4 | VHOST_USER_VRING_NOFD), .stays = true },
	{ "net --queues=2: SET_VRING_CALL of queue 5 (NOFD)", .net = true, .hello = true,
	  U64(VHOST_USER_SET_VRING_CALL, 5 | VHOST_USER_VRING_NOFD),
	  .want = "queue index 5 out of range (the device has 5)" },
	{ "edge: net --queues=2: SET_VRING_ENABLE of queue 4", .net = true, .hello = true,
	  STATE(VHOST_USER_SET_VRING_ENABLE, 4, 1), .stays = true },
	{ "net --queues=2: SET_VRING_ENABLE of queue 0x7fffffff", .net = true, .hello = true,
	  STATE(VHOST_USER_SET_VRING_ENABLE, 0x7fffffff, 1),
	  .want = "queue index 2147483647 out of range" },
	{ "edge: ctrl VQ_PAIRS_SET 2 of 2 pairs (VIRTIO_NET_OK)", .net = true, .hello = true,
	  CTRL_PAIRS(2, 0), .stays = true },
	{ "ctrl VQ_PAIRS_SET 3 of 2 pairs (VIRTIO_NET_ERR, connection stays)", .net = true,
	  .hello = true, CTRL_PAIRS(3, 1),
	  .want = "VQ_PAIRS_SET pair count out of range", .stays = true },
	{ "ctrl VQ_PAIRS_SET 0 (VIRTIO_NET_ERR, connection stays)", .net = true, .hello = true,
	  CTRL_PAIRS(0, 1), .want = "VQ_PAIRS_SET pair count out of range", .stays = true },
	{ "ctrl VQ_PAIRS_SET with a 1-byte pair count (VIRTIO_NET_ERR)", .net = true,
	  .hello = true, CTRL(.cls = VIRTIO_NET_CTRL_MQ, .data = 2, .dlen = 1, .ack = 1),
	  .want = "VQ_PAIRS_SET without its 2-byte pair count", .stays = true },
	{ "ctrl class not offered (RX mode: VIRTIO_NET_ERR)", .net = true, .hello = true,
	  CTRL(.cls = 0, .data = 1, .dlen = 1, .ack = 1),
	  .want = "class and command not supported", .stays = true },
	{ "ctrl command without a writable ack byte (used, 0 bytes)", .net = true,
	  .hello = true, CTRL(.cls = VIRTIO_NET_CTRL_MQ, .data = 1, .dlen = 2, .no_ack = true),
	  .want = "no writable ack byte", .stays = true },
	{ "ctrl VQ_PAIRS_SET on queue 2, CTRL_VQ without MQ (VIRTIO_NET_ERR)", .net = true,
	  .hello = true,
	  CTRL(.cls = VIRTIO_NET_CTRL_MQ, .data = 1, .dlen = 2, .no_mq = true, .ack = 1),
	  .want = "VQ_PAIRS_SET without VIRTIO_NET_F_MQ negotiated", .stays = true },

	/* Bounds at their edges: the largest value accepted (.want NULL). */
	{ "edge: memory table with 8 regions", .hello = true,
	  .send = eight_regions, .stays = true },
	{ "edge: memory region of its fd's size + 1", .hello = true,
	  ONE_REGION(MEM_GPA, MEM_SIZE + 1, 0), .want = "past the end of its fd" },
	{ "edge: memory regions adjacent", .hello = true,
	  TWO_REGIONS(0), .stays = true },
	{ "edge: memory regions overlapping by one byte", .hello = true,
	  TWO_REGIONS(1), .want = "regions 0 and 1 overlap" },
	{ "edge: ring size 32768", .hello = true,
	  STATE(VHOST_USER_SET_VRING_NUM, 0, 32768), .stays = true },
	{ "edge: ring size 1", .hello = true,
	  STATE(VHOST_USER_SET_VRING_NUM, 0, 1), .stays = true },
	{ "edge: split ring base 0xffff", .hello = true,
	  STATE(VHOST_USER_SET_VRING_BASE, 0, 0xffff), .stays = true },
	{ "edge: ring address at the last byte of memory", .hello = true,
	  .send = addr_at_last_byte, .stays = true },
	{ "edge: avail ring ending at the end of memory (queue starts)", .hello = true,
	  AVAIL_RING_PAST(0), .stays = true },
	{ "edge: avail ring one byte past the end of memory", .hello = true,
	  AVAIL_RING_PAST(1), .want = "avail ring at 0x" },
	{ "edge: split descriptor table ending at the end of memory (queue starts)", .hello = true,
	  RING_PART(0, 0), .stays = true },
	{ "edge: split descriptor table one byte past the end of memory", .hello = true,
	  RING_PART(0, 1), .want = "descriptor ring at 0x" },
	{ "edge: split avail ring, its used_event at the end of memory (queue starts)", .hello = true,
	  RING_PART(1, 0), .stays = true },
	{ "edge: split avail ring, its used_event one byte past the end of memory", .hello = true,
	  RING_PART(1, 1), .want = "avail ring at 0x" },
	{ "edge: split used ring, its avail_event at the end of memory (queue starts)", .hello = true,
	  RING_PART(2, 0), .stays = true },
	{ "edge: split used ring, its avail_event one byte past the end of memory", .hello = true,
	  RING_PART(2, 1), .want = "used ring at 0x" },
	{ "edge: packed descriptor ring ending at the end of memory (queue starts)", .hello = true,
	  .packed = true, RING_PART(0, 0), .stays = true },
	{ "edge: packed descriptor ring one byte past the end of memory", .hello = true,
	  .packed = true, RING_PART(0, 1), .want = "descriptor ring at 0x" },
	{ "edge: packed driver event area ending at the end of memory (queue starts)", .hello = true,
	  .packed = true, RING_PART(1, 0), .stays = true },
	{ "edge: packed driver event area one byte past the end of memory", .hello = true,
	  .packed = true, RING_PART(1, 1), .want = "avail ring at 0x" },
	{ "edge: packed device event area ending at the end of memory (queue starts)", .hello = true,
	  .packed = true, RING_PART(2, 0), .stays = true },
	{ "edge: packed device event area one byte past the end of memory", .hello = true,
	  .packed = true, RING_PART(2, 1), .want = "used ring at 0x" },
	{ "edge: packed ring size 32768", .hello = true, .packed = true,
	  STATE(VHOST_USER_SET_VRING_NUM, 0, 32768), .stays = true },
	{ "edge: packed ring size 32769", .hello = true, .packed = true,
	  STATE(VHOST_USER_SET_VRING_NUM, 0, 32769), .want = "ring size 32769 out of range" },
	{ "edge: packed ring size 3 (no power of 2 needed)", .hello = true, .packed = true,
	  STATE(VHOST_USER_SET_VRING_NUM, 0, 3), .stays = true },
	{ "edge: packed ring base: avail offset 7 of a ring of 8 (queue starts)", .hello = true,
	  .packed = true, PACKED_BASE(0x8007), .stays = true },
	{ "edge: packed ring base: avail offset 8 of a ring of 8", .hello = true,
	  .packed = true, PACKED_BASE(0x8008), .want = "base 0x8008 past the ring's end" },
	/* The used offset within the ring: only the avail check can refuse it. */
	{ "edge: packed ring base: avail offset 8, used offset 7, of a ring of 8", .hello = true,
	  .packed = true, PACKED_BASE(0x80078008), .want = "base 0x80078008 past the ring's end" },
	{ "edge: packed ring base: used offset 7 of a ring of 8 (queue starts)", .hello = true,
	  .packed = true, PACKED_BASE(0x80078007), .stays = true },
	{ "edge: packed ring base: used offset 8 of a ring of 8", .hello = true,
	  .packed = true, PACKED_BASE(0x80088007), .want = "base 0x80088007 past the ring's end" },
	{ "edge: status byte at the last byte of memory (served)", .hello = true,
	  STATUS_AT(1, MEM_GPA + MEM_SIZE - 1, 1), .stays = true },
	{ "edge: status descriptor one byte past memory (queue stops)", .hello = true,
	  STATUS_AT(1, MEM_GPA + MEM_SIZE - 1, 2), .want = "is not in guest memory",
	  .want_kernel = "queue 0: getdesc: vringh refused the ring", .stays = true },
	{ "edge: status byte at the last byte of a second region (served)", .hello = true,
	  STATUS_AT(2, MEM_GPA + 2 * MEM_SIZE - 1, 1), .stays = true },
	{ "edge: status descriptor across two adjacent regions (served)", .hello = true,
	  STATUS_AT(2, MEM_GPA + MEM_SIZE - 1, 2), .stays = true },
	{ "edge: GET_CONFIG of the config space's last 8 bytes", .hello = true,
	  CONFIG_AT(VHOST_USER_MAX_CONFIG_SIZE - 8, 8), .stays = true },
	{ "edge: GET_CONFIG of 8 bytes ending a byte past the config space", .hello = true,
	  CONFIG_AT(VHOST_USER_MAX_CONFIG_SIZE - 7, 8), .want = "outside the config space" },
	{ "edge: GET_CONFIG of 0 bytes at the config space's end", .hello = true,
	  CONFIG_AT(VHOST_USER_MAX_CONFIG_SIZE, 0), .stays = true },
	{ "edge: GET_CONFIG of 0 bytes a byte past the config space", .hello = true,
	  CONFIG_AT(VHOST_USER_MAX_CONFIG_SIZE + 1, 0), .want = "outside the config space" },
	{ "edge: blk read of the last sector (OK)", .hello = true,
	  BLK_READ(BLK_SECTORS - 1, 512, 0), .stays = true },
	{ "edge: blk read of two sectors from the last (IOERR)", .hello = true,
	  BLK_READ(BLK_SECTORS - 1, 1024, 1), .stays = true },
	{ "edge: blk read of 0 bytes at the disk's end (OK)", .hello = true,
	  BLK_READ(BLK_SECTORS, 0, 0), .stays = true },
	{ "edge: blk read of 0 bytes a sector past the end (IOERR)", .hello = true,
	  BLK_READ(BLK_SECTORS + 1, 0, 1), .stays = true },

	/* The inflight region: the messages, then what is in it at ring start. */
	{ "GET_INFLIGHT_FD without INFLIGHT_SHMFD negotiated", .hello = true,
	  .send = get_inflight_case, .a = 1 << 16 | 128,
	  .want = "GET_INFLIGHT_FD: INFLIGHT_SHMFD was not negotiated" },
	{ "GET_INFLIGHT_FD for 17 queues (blk has 16)",
	  .send = get_inflight_case, .a = 17 << 16 | 128, .b = 1,
	  .want = "GET_INFLIGHT_FD: 17 queues, the device has 16" },
	{ "edge: GET_INFLIGHT_FD for 16 queues (blk has 16)",
	  .send = get_inflight_ok, .a = 16 << 16 | 128, .stays = true },
	{ "edge: GET_INFLIGHT_FD for 1 queue of 32768 (blk has 16)",
	  .send = get_inflight_ok, .a = 1 << 16 | 32768, .stays = true },
	{ "edge: GET_INFLIGHT_FD for queues of 32769",
	  .send = get_inflight_case, .a = 1 << 16 | 32769, .b = 1,
	  .want = "GET_INFLIGHT_FD: queue size 32769 out of range" },
	{ "edge: blk --queues=2: GET_INFLIGHT_FD for 2 queues", .blk2 = true,
	  .send = get_inflight_ok, .a = 2 << 16 | 256, .stays = true },
	{ "edge: blk --queues=2: GET_INFLIGHT_FD for 3 queues", .blk2 = true,
	  .send = get_inflight_case, .a = 3 << 16 | 256, .b = 1,
	  .want = "GET_INFLIGHT_FD: 3 queues, the device has 2" },
	{ "GET_INFLIGHT_FD for queues of 0",
	  .send = get_inflight_case, .a = 1 << 16 | 0, .b = 1,
	  .want = "GET_INFLIGHT_FD: queue size 0 out of range" },
	{ "SET_INFLIGHT_FD without its fd",
	  .send = set_inflight_case, .a = INFL_BYTES, .b = 0, .want = "SET_INFLIGHT_FD: 0 fds, not 1" },
	{ "SET_INFLIGHT_FD of a size the layout does not have",
	  .send = set_inflight_case, .a = INFL_BYTES + 64, .b = 4096,
	  .want = "SET_INFLIGHT_FD: size 0x180, but 1 queues of 16 need 0x140" },
	{ "SET_INFLIGHT_FD larger than its fd",
	  .send = set_inflight_case, .a = INFL_BYTES, .b = 64, .want = "past the end of its fd" },
	{ "inflight region of version 7", INFL_BAD(edit_version),
	  .want = "queue 0: inflight region: version 7" },
	{ "inflight region: a flag that is neither 0 nor 1", INFL_BAD(edit_flag),
	  .want = "inflight region: descriptor 3: inflight flag 2 is neither 0 nor 1" },
	{ "inflight region: head 12 in flight in a ring of 8", INFL_BAD(edit_past_ring),
	  .want = "inflight region: descriptor 12 is in flight, but the ring has 8" },
	{ "inflight region: used_idx 16 behind the ring's", INFL_BAD(edit_used_behind),
	  .want = "inflight region: used_idx 65520 is 16 behind" },
	{ "inflight region: last batch head past the ring", INFL_BAD(edit_batch_head),
	  .want = "inflight region: last batch entry 0 is head 9, past the ring's 8" },
	{ "edge: inflight region with head 7 in flight in a ring of 8 (resubmitted)",
	  .send = inflight_head7_resubmitted, .stays = true },
	{ "edge: inflight region: head 8 in flight in a ring of 8", INFL_BAD(edit_head8),
	  .want = "inflight region: descriptor 8 is in flight, but the ring has 8" },
	{ "edge: inflight region: used_idx a ring (8) behind the ring's (served)",
	  INFL_GOOD(edit_used_ring_behind) },
	{ "edge: inflight region: used_idx 9 behind the ring's", INFL_BAD(edit_used_ring_and_one_behind),
	  .want = "inflight region: used_idx 65527 is 9 behind" },
	{ "edge: inflight region: last batch head 7, the ring's last (served)",
	  INFL_GOOD(edit_batch_head7) },
	{ "edge: inflight region: last batch head 8", INFL_BAD(edit_batch_head8),
	  .want = "inflight region: last batch entry 0 is head 8, past the ring's 8" },
	{ "edge: inflight region made for rings of 8, a ring of 8 (served)",
	  .send = inflight_size_case, .a = 8, .stays = true },
	{ "edge: inflight region made for rings of 4, a ring of 8",
	  .send = inflight_size_case, .a = 4,
	  .want = "inflight region: 4 descriptors, but the ring has 8" },
	{ "edge: inflight region with head 0 in flight (resubmitted, completed once)",
	  .send = inflight_resubmitted, .stays = true },

	/* Rings that turn bad while they run. */
	{ "memory file shrunk after the table was mapped (SIGBUS)", .hello = true,
	  .send = memory_shrinks, .want = "the frontend's memory is gone (SIGBUS)",
	  .skip = TSAN_BUILD ? "a TSan build cannot resume after a fault inside its own atomics"
			     : NULL },
	{ "descriptor outside every region (queue stops, connection stays)", .hello = true,
	  .send = desc_outside_regions, .want = "queue 0: getdesc: vringh refused the ring",
	  .stays = true },
};

/*
 * ---- A frontend gone at any moment: nothing leaked ----
 *
 * One well-behaved session, step by step (the messages QEMU sends for a
 * vhost-user-blk disk, inflight region included, then requests kicked and
 * the ring stopped).  A whole session first, then the frontend drops the
 * connection after each step in turn; after each, the next frontend must
 * be served and vhost_dev must hold no more fds, mappings and threads than
 * it did fresh (having served one GET_FEATURES), before any of them.  The
 * mappings counted are those of memory files (memfd): the only kind
 * vhost_dev makes for a frontend (its memory table, the inflight region),
 * and not the kind an allocator makes on its own (ASan's, glibc's arenas).
 */
#define SESSION_STEPS	16

struct footprint {
	int fds, maps, threads;
};

static int count_entries(const char *path)
{
	char p[96];
	FILE *f;
	int n = 0;

	snprintf(p, sizeof(p), "/proc/%d/%s", (int)dev->pid, path);
	if (!strcmp(path, "maps")) {
		char *line = NULL;
		size_t cap = 0;

		f = fopen(p, "r");
		if (!f)
			return -1;
		while (getline(&line, &cap, f) > 0)
			n += strstr(line, "/memfd:") != NULL;
		free(line);
		fclose(f);
		return n;
	} else {
		DIR *d = opendir(p);
		struct dirent *e;

		if (!d)
			return -1;
		while ((e = readdir(d)))
			n += e->d_name[0] != '.';
		closedir(d);
		return n;
	}
}

static struct footprint footprint(void)
{
	struct footprint f = { count_entries("fd"), count_entries("maps"),
			       count_entries("task") };

	return f;
}

static bool within(struct footprint f, struct footprint base)
{
	return f.fds <= base.fds && f.maps <= base.maps && f.threads <= base.threads;
}

/* What vhost_dev holds once it is done with the last frontend (<= 1 s). */
static struct footprint settled(struct footprint base)
{
	struct footprint f = footprint();
	int i;

	for (i = 0; i < 50 && !within(f, base); i++) {
		usleep(20000);
		f = footprint();
	}
	return f;
}

/* Send the first @upto steps of the session on @s (all: SESSION_STEPS). */
static void session(int s, unsigned int upto)
{
	struct vhost_user_msg m;
	struct vhost_user_fds rfds = { .n = 0 };
	uint8_t *g = mmap(NULL, MEM_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fds[0], 0);
	int kick = eventfd(0, 0), call = eventfd(0, 0), inflight = -1;
	uint64_t one = 1;
	struct vring vr;
	unsigned int step, i;

	if (g == MAP_FAILED || kick < 0 || call < 0)
		give_up("vhost_hostile: session set-up");
	memset(g, 0, 0x10000);
	vring_init(&vr, 8, g, 4096);
	for (i = 0; i < 2; i++) {
		struct { uint32_t type, ioprio; uint64_t sector; } hdr = { 8, 0, 0 };

		memcpy(g + 0x8000 + 64 * i, &hdr, sizeof(hdr));
		vr.desc[2 * i].addr = MEM_GPA + 0x8000 + 64 * i;
		vr.desc[2 * i].len = sizeof(hdr);
		vr.desc[2 * i].flags = VRING_DESC_F_NEXT;
		vr.desc[2 * i].next = 2 * i + 1;
		vr.desc[2 * i + 1].addr = MEM_GPA + 0x9000 + 64 * i;
		vr.desc[2 * i + 1].len = 21;
		vr.desc[2 * i + 1].flags = VRING_DESC_F_WRITE;
		vr.avail->ring[i] = 2 * i;
	}
	for (step = 0; step < upto && step < SESSION_STEPS; step++) {
		switch (step) {
		case 0: send_plain(s, VHOST_USER_SET_OWNER); break;
		case 1: send_plain(s, VHOST_USER_GET_FEATURES); recv_reply(s, 5000); break;
		case 2:
			send_u64(s, VHOST_USER_SET_FEATURES, (1ull << VIRTIO_F_VERSION_1) |
				 (1ull << VHOST_USER_F_PROTOCOL_FEATURES));
			break;
		case 3: send_plain(s, VHOST_USER_GET_PROTOCOL_FEATURES); recv_reply(s, 5000); break;
		case 4: send_u64(s, VHOST_USER_SET_PROTOCOL_FEATURES, VIRTIO_INFLIGHT_SHMFD); break;
		case 5:
			send_inflight(s, VHOST_USER_GET_INFLIGHT_FD, 0, 0, 1, 8, -1);
			if (vhost_user_recv(s, &m, &rfds, 5000) == 0 && rfds.n == 1) {
				inflight = rfds.fd[0];
				rfds.n = 0;
			}
			vhost_user_fds_close(&rfds);
			break;
		case 6:
			if (inflight < 0)
				give_up("vhost_hostile: GET_INFLIGHT_FD gave no fd");
			send_inflight(s, VHOST_USER_SET_INFLIGHT_FD, m.payload.inflight.mmap_size,
				      m.payload.inflight.mmap_offset, 1, 8, inflight);
			break;
		case 7: send_good_table(s); break;
		case 8: send_state(s, VHOST_USER_SET_VRING_NUM, 0, 8); break;
		case 9:
			send_addr(s, (uintptr_t)mem + ((uint8_t *)vr.desc - g),
				  (uintptr_t)mem + ((uint8_t *)vr.avail - g),
				  (uintptr_t)mem + ((uint8_t *)vr.used - g));
			break;
		case 10: send_state(s, VHOST_USER_SET_VRING_BASE, 0, 0); break;
		case 11:
			vhost_user_msg_u64(&m, VHOST_USER_SET_VRING_CALL, 0);
			send_msg(s, &m, &call, 1);
			break;
		case 12: send_kick(s, kick); break;
		case 13: send_state(s, VHOST_USER_SET_VRING_ENABLE, 0, 1); break;
		case 14:
			/* Two requests made available and kicked: in flight if we go now. */
			*(volatile uint16_t *)&vr.avail->idx = 2;
			if (write(kick, &one, 8) != 8)
				perror("write");
			break;
		case 15:
			for (i = 0; i < 200 && *(volatile uint16_t *)&vr.used->idx != 2; i++)
				usleep(10000);
			send_state(s, VHOST_USER_GET_VRING_BASE, 0, 0);
			recv_reply(s, 5000);
			break;
		}
	}
	if (inflight >= 0)
		close(inflight);
	close(kick);
	close(call);
	munmap(g, MEM_SIZE);
}

static void no_leaks(void)
{
	const char *name = "a whole session, then the frontend dropped after each of its steps (no fd, mapping or thread leaked)";
	struct footprint base, f;
	unsigned int round, k;
	int s;

	this_case = name;
	dev = &devs[DEV_BLK];
	/* A fresh vhost_dev that served one frontend (a GET_FEATURES). */
	usleep(200000);
	base = footprint();
	if (base.fds < 0 || base.maps < 0 || base.threads < 0) {
		char why[64];

		snprintf(why, sizeof(why), "/proc/%d is not readable here", (int)dev->pid);
		ktap_test_skip(why, SUITE "%s", name);
		return;
	}
	for (round = 0; round < 2; round++) {
		for (k = round ? 0 : SESSION_STEPS; k <= SESSION_STEPS; k++) {
			s = connect_dev();
			session(s, k);
			close(s);
			if (!still_serving()) {
				ktap_test_fail(SUITE "%s", name);
				ktap_print_msg("  dropped after step %u: the next frontend was not served: %s",
					       k, new_errors());
				return;
			}
			f = settled(base);
			if (!within(f, base)) {
				ktap_test_fail(SUITE "%s", name);
				ktap_print_msg("  dropped after step %u (round %u): fds %d -> %d, mappings %d -> %d, threads %d -> %d",
					       k, round + 1, base.fds, f.fds, base.maps, f.maps,
					       base.threads, f.threads);
				return;
			}
		}
	}
	new_errors();	/* a frontend gone mid-session is no protocol error */
	ktap_test_pass(SUITE "%s", name);
	ktap_print_msg(SUITE "%s: %d fds, %d mappings, %d threads after each of %d sessions",
		       name, base.fds, base.maps, base.threads, SESSION_STEPS + 2);
}

static void run_case(const struct vh_case *c)
{
	const char *want = c->want;
	int s;
	bool conn_ok, serving, said;
	char *e;

	if (c->skip) {
		ktap_test_skip(c->skip, SUITE "%s", c->name);
		return;
	}
	if (c->packed && !rig_host_has_packed()) {
		printf("SKIP: vhost-user hostile frontend: %s: the host ring code (%s) has no packed vringh\n",
		       c->name, rig_host_impl());
		return;
	}
	packed_feature = c->packed ? 1ull << VIRTIO_F_RING_PACKED : 0;
	this_case = c->name;
	dev = &devs[c->net ? DEV_NET : c->blk2 ? DEV_BLK2 : DEV_BLK];
	s = connect_dev();
	if (c->hello)
		hello(s);
	case_problem = NULL;
	c->send(s, c);
	conn_ok = c->stays ? answers(s) : dropped(s);
	usleep(20000);
	e = new_errors();
	serving = still_serving();
	if (c->want_kernel && !strcmp(rig_host_impl(), "kernel"))
		want = c->want_kernel;
	said = want ? strstr(e, want) != NULL : !strstr(e, "vhost-");
	if (conn_ok && said && serving && !case_problem) {
		ktap_test_pass(SUITE "%s", c->name);
	} else {
		ktap_test_fail(SUITE "%s", c->name);
		ktap_print_msg("  connection %s, backend %s serving%s%s, wanted %s%s%s in: %s",
			       c->stays ? (conn_ok ? "stayed up" : "LOST") :
			       (conn_ok ? "dropped" : "NOT dropped"),
			       serving ? "still" : "NOT", case_problem ? ", " : "",
			       case_problem ? case_problem : "",
			       want ? "\"" : "", want ? want : "no error",
			       want ? "\"" : "", e);
	}
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc != 2) {
		fprintf(stderr, "usage: vhost_hostile VHOST_DEV\n");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	ktap_print_header();
	strcpy(dir, "/tmp/vhost_hostile.XXXXXX");
	if (!mkdtemp(dir)) {
		perror("vhost_hostile: mkdtemp");
		return 1;
	}
	for (i = 0; i < NDEVS; i++) {
		snprintf(devs[i].sock, sizeof(devs[i].sock), "%s/sock%zu", dir, i);
		snprintf(devs[i].err, sizeof(devs[i].err), "%s/err%zu", dir, i);
		start_dev(&devs[i], argv[1]);
	}
	for (i = 0; i < NDEVS; i++) {
		dev = &devs[i];
		if (!still_serving()) {
			ktap_test_fail(SUITE "%s %s %s does not serve",
				       argv[1], dev->args[0], dev->args[1]);
		}
	}
	if (!ktap_failed()) {
		mem = mmap(NULL, MEM_SIZE, PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (mem == MAP_FAILED)
			give_up("vhost_hostile: mmap");
		for (i = 0; i < VHOST_USER_MAX_FDS; i++)
			fds[i] = memfd(MEM_SIZE);
		no_leaks();
		for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
			run_case(&cases[i]);
	}
	stop_dev();
	return ktap_finished();
}
