// SPDX-License-Identifier: GPL-2.0
/*
 * guest_io: the I/O a test guest does on the devices our vhost-user backend
 * serves, and the host-side halves of the same checks (one program, so the
 * guest and the host compute the same checksum and the same pattern).
 *
 *   guest_io mkdisk FILE SIZE SEED       host: a disk image of SIZE bytes
 *   guest_io sum DEV|FILE [BS]           read it all, BS bytes a read (default
 *                                        1 MiB): "sum BYTES HEX MB/S"
 *   guest_io write DEV OFF LEN SEED      write the pattern, then fsync
 *   guest_io verify FILE OFF LEN SEED    host: is the pattern there?
 *   guest_io net IFNAME COUNT            send COUNT frames, check each one
 *                                        comes back (a loopback device); "lost":
 *                                        frames skipped by a later intact one
 *   guest_io cpus blk DEV OFF LEN DSEED WSEED ROUNDS
 *   guest_io cpus net IFNAME COUNT       I/O from every online CPU at once
 *                                        (do_cpus() below)
 *   guest_io ethstats IFNAME             the driver's counters (ethtool -S)
 *   guest_io qstats IFNAME               each queue's packets, from netdev
 *                                        netlink's queue statistics (do_qstats())
 *   guest_io qdiscs IFNAME               each queueing discipline's drops
 *
 * Built statically for the guest's initramfs, and normally for the host.
 * Exit status 0 on success, 1 on a failed check, 2 on a usage error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <net/if.h>
#include <linux/sockios.h>
#include <netinet/in.h>
#include <linux/if_ether.h>
#include <linux/ethtool.h>
#include <linux/filter.h>
#include <linux/if_packet.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/gen_stats.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define CHUNK		(1u << 20)
#define PIECE_MAX	(256u << 10)	/* cpus blk: pieces of 4 KiB to this */
#define NET_WAIT_S	30		/* for a frame to come back (a liveness bound: TCG on a loaded host) */
#define ETH_P_RIG	0x88b5		/* IEEE local experimental ethertype */
#define NET_PROBE	UINT32_MAX	/* a probe frame's sequence (net_probe()) */
#define NET_END		(UINT32_MAX - 1)	/* an end marker's (net_run()) */

static void usage(const char *why)
{
	fprintf(stderr, "guest_io: %s\ntry --help\n", why);
	exit(2);
}

static const char help[] =
	"Usage: guest_io mkdisk FILE SIZE SEED | sum DEV [BS] | write DEV OFF LEN SEED\n"
	"       | verify FILE OFF LEN SEED | net IFNAME COUNT\n"
	"       | cpus blk DEV OFF LEN DSEED WSEED ROUNDS | cpus net IFNAME COUNT\n"
	"       | ethstats IFNAME | qstats IFNAME | qdiscs IFNAME\n";

static uint64_t num(const char *s)
{
	char *end;
	uint64_t v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || *s == '-')
		usage("not a number");
	return v;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The 8-byte word at byte offset @off (a multiple of 8) of pattern @seed. */
static uint64_t pattern(uint64_t off, uint64_t seed)
{
	uint64_t x = (off / 8 + 1) * 0x9e3779b97f4a7c15ull ^ seed;

	x ^= x >> 29;
	x *= 0xbf58476d1ce4e5b9ull;
	return x ^ (x >> 32);
}

static void fill(uint64_t *buf, uint64_t off, size_t len, uint64_t seed)
{
	size_t i;

	for (i = 0; i < len / 8; i++)
		buf[i] = pattern(off + i * 8, seed);
}

static void *chunk_buf(void)
{
	void *p;

	if (posix_memalign(&p, 4096, CHUNK)) {
		perror("guest_io: posix_memalign");
		exit(1);
	}
	return p;
}

/* O_DIRECT where the file system allows it (not tmpfs). */
static int open_direct(const char *path, int flags)
{
	int fd = open(path, flags | O_DIRECT);

	if (fd < 0 && errno == EINVAL)
		fd = open(path, flags);
	if (fd < 0) {
		fprintf(stderr, "guest_io: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	return fd;
}

static int do_mkdisk(const char *path, uint64_t size, uint64_t seed)
{
	uint64_t *buf = chunk_buf(), off;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0 || size % 512)
		usage(fd < 0 ? strerror(errno) : "SIZE must be a multiple of 512");
	for (off = 0; off < size; off += CHUNK) {
		size_t n = size - off < CHUNK ? size - off : CHUNK;

		fill(buf, off, n, seed);
		if (write(fd, buf, n) != (ssize_t)n) {
			perror("guest_io: write");
			return 1;
		}
	}
	return close(fd) ? 1 : 0;
}

/* Word-wise FNV-1a: fast enough for 64 MiB in an emulated guest. */
static int do_sum(const char *path, uint64_t bs)
{
	uint64_t *buf = chunk_buf(), h = 0xcbf29ce484222325ull, total = 0;
	double busy = 0;
	int fd = open_direct(path, O_RDONLY);

	for (;;) {
		double t = now();
		ssize_t n = read(fd, buf, bs), i;

		busy += now() - t;
		if (n < 0) {
			perror("guest_io: read");
			return 1;
		}
		if (n == 0)
			break;
		for (i = 0; i < n / 8; i++)
			h = (h ^ buf[i]) * 0x100000001b3ull;
		total += n;
	}
	printf("sum %" PRIu64 " %016" PRIx64 " %.1f\n", total, h,
	       busy > 0 ? total / busy / 1e6 : 0.0);
	return 0;
}

static int do_write(const char *path, uint64_t off, uint64_t len,
		    uint64_t seed, int verify)
{
	uint64_t *buf = chunk_buf(), *want = verify ? chunk_buf() : NULL, pos;
	int fd = open_direct(path, verify ? O_RDONLY : O_WRONLY);

	if (off % 4096 || len % 4096)
		usage("OFF and LEN must be multiples of 4096");
	for (pos = off; pos < off + len; pos += CHUNK) {
		size_t n = off + len - pos < CHUNK ? off + len - pos : CHUNK;

		if (verify) {
			fill(want, pos, n, seed);
			if (pread(fd, buf, n, pos) != (ssize_t)n) {
				fprintf(stderr, "guest_io: short read at %" PRIu64 "\n", pos);
				return 1;
			}
			if (memcmp(buf, want, n)) {
				fprintf(stderr, "guest_io: pattern differs in the %zu bytes at %" PRIu64 "\n",
					n, pos);
				return 1;
			}
		} else {
			fill(buf, pos, n, seed);
			if (pwrite(fd, buf, n, pos) != (ssize_t)n) {
				perror("guest_io: pwrite");
				return 1;
			}
		}
	}
	if (!verify && fsync(fd)) {
		perror("guest_io: fsync");
		return 1;
	}
	printf("%s %" PRIu64 "\n", verify ? "verified" : "wrote", len);
	return 0;
}

/*
 * Frame @seq of sender @id: our MAC both ends, ETH_P_RIG, then seq, id and
 * a pattern.
 */
static size_t make_frame(unsigned char *f, const unsigned char *mac,
			 uint8_t id, uint32_t seq)
{
	size_t len = 60 + (seq * 97 + id * 13) % (1514 - 60 + 1), i;

	memcpy(f, mac, 6);
	memcpy(f + 6, mac, 6);
	f[12] = ETH_P_RIG >> 8;
	f[13] = ETH_P_RIG & 0xff;
	memcpy(f + 14, &seq, 4);
	f[18] = id;
	for (i = 19; i < len; i++)
		f[i] = (unsigned char)(seq * 31 + id + i);
	return len;
}

/*
 * A packet socket on @ifname (brought up) for ETH_P_RIG frames, with @mac
 * filled in.  With @own, it sees only the frames sender @id received
 * (a filter on the id byte, our own transmissions left out) and has room
 * for every frame in flight: several senders share the interface.  It
 * takes no frame before bind() names the interface (protocol 0 until
 * then): another interface's frames would queue on it meanwhile.
 */
static int net_open(const char *ifname, unsigned char *mac, bool own, uint8_t id)
{
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_B | BPF_ABS, 18),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, id, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, 0xffff),
		BPF_STMT(BPF_RET | BPF_K, 0),
	};
	struct sock_fprog prog = { .len = 4, .filter = code };
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };
	struct timeval tv = { .tv_sec = NET_WAIT_S };
	struct ifreq ifr = { 0 };
	int s = socket(AF_PACKET, SOCK_RAW, 0), one = 1, big = 4 << 20;

	if (s < 0 || strlen(ifname) >= IFNAMSIZ) {
		perror("guest_io: socket");
		return -1;
	}
	strcpy(ifr.ifr_name, ifname);
	if (ioctl(s, SIOCGIFFLAGS, &ifr) < 0)
		goto fail;
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(s, SIOCSIFFLAGS, &ifr) < 0 || ioctl(s, SIOCGIFHWADDR, &ifr) < 0)
		goto fail;
	memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
	if (ioctl(s, SIOCGIFINDEX, &ifr) < 0)
		goto fail;
	if (own && (setsockopt(s, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog)) < 0 ||
		    setsockopt(s, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof(one)) < 0 ||
		    setsockopt(s, SOL_SOCKET, SO_RCVBUFFORCE, &big, sizeof(big)) < 0))
		goto fail;
	sll.sll_ifindex = ifr.ifr_ifindex;
	sll.sll_protocol = htons(ETH_P_RIG);
	if (bind(s, (struct sockaddr *)&sll, sizeof(sll)) < 0 ||
	    setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0)
		goto fail;
	return s;
fail:
	fprintf(stderr, "guest_io: %s: %s\n", ifname, strerror(errno));
	close(s);
	return -1;
}

/*
 * Wait until the link carries frames: sender @id's probe frame (sequence
 * NET_PROBE, never a counted one) sent every 100 ms until one comes back,
 * for up to NET_WAIT_S.  Linux 7.3's virtio_net turns its carrier on from
 * a work item after IFF_UP, and until the link is up the interface's
 * queueing discipline drops frames without a word (a send still succeeds).
 */
static int net_probe(int s, const unsigned char *mac, uint8_t id, uint64_t *probes)
{
	struct timeval tick = { .tv_usec = 100000 }, tv = { .tv_sec = NET_WAIT_S };
	unsigned char f[1600], g[1600];
	size_t len = make_frame(f, mac, id, NET_PROBE);
	double t0 = now();

	if (setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tick, sizeof(tick)) < 0)
		goto fail;
	while (now() - t0 < NET_WAIT_S) {
		if (send(s, f, len, 0) != (ssize_t)len)
			goto fail;
		++*probes;
		for (;;) {
			struct sockaddr_ll from;
			socklen_t fl = sizeof(from);
			ssize_t n = recvfrom(s, g, sizeof(g), 0, (struct sockaddr *)&from, &fl);

			if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
				break;
			if (n < 0)
				goto fail;
			if (from.sll_pkttype != PACKET_OUTGOING && (size_t)n == len && !memcmp(f, g, len))
				return setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0;
		}
	}
	fprintf(stderr, "guest_io: sender %u: no probe frame came back in %d s\n", id, NET_WAIT_S);
	return 1;
fail:
	fprintf(stderr, "guest_io: sender %u: probe: %s\n", id, strerror(errno));
	return 1;
}

/* What a sender did (net_run()). */
struct net_tally {
	uint64_t got;		/* frames back, counted in order */
	uint64_t bad;		/* of those, not the frame expected */
	uint64_t lost;		/* skipped by a later intact frame (when counted) */
	uint64_t probes;	/* probe frames and end markers sent */
	double wait_ms;		/* the longest wait for a frame (a figure, not a limit) */
};

/* Sender @id's end marker, once more. */
static int net_send_end(int s, const unsigned char *mac, uint8_t id, struct net_tally *t)
{
	unsigned char f[1600];
	size_t len = make_frame(f, mac, id, NET_END);

	if (send(s, f, len, 0) == (ssize_t)len) {
		t->probes++;
		return 0;
	}
	fprintf(stderr, "guest_io: sender %u: end marker: %s\n", id, strerror(errno));
	return 1;
}

/* Frames of net_run(): a lost one counted, the run ended by a marker. */
#define NET_COUNT_LOST	1
#define NET_END_MARK	2

/*
 * Send @count frames as sender @id on @s, once a probe came back, checking
 * each one that comes back; frames of other senders (before the filter
 * was on) and late probes are skipped.  With NET_COUNT_LOST in @flags, a
 * frame skipped by a later intact one is counted lost (@t->lost), else it
 * makes each later one bad.  With NET_END_MARK, once all are sent, an end
 * marker (sequence NET_END) follows them every 100 ms until one comes back:
 * a queue keeps its order, so the frames not back by then were lost, the
 * last ones too.  Adds to @t; 0 if every frame that came back was right.
 */
static int net_run(int s, const unsigned char *mac, uint8_t id, uint64_t count,
		   struct net_tally *t, unsigned int flags)
{
	struct timeval tick = { .tv_usec = 100000 };
	unsigned char f[1600], g[1600];
	uint64_t sent = 0;
	bool ending = false;
	double t0;

	if (net_probe(s, mac, id, &t->probes))
		return 1;
	/* Up to 32 frames in flight: fewer than the receive buffers posted. */
	t0 = now();
	while (t->got < count) {
		struct sockaddr_ll from;
		socklen_t fl = sizeof(from);
		size_t want;
		ssize_t n;
		uint32_t seq;

		while (sent < count && sent - t->got < 32) {
			size_t len = make_frame(f, mac, id, sent);

			if (send(s, f, len, 0) != (ssize_t)len) {
				fprintf(stderr, "guest_io: sender %u: send: %s\n", id, strerror(errno));
				return 1;
			}
			sent++;
		}
		if ((flags & NET_END_MARK) && sent == count && !ending) {
			if (setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tick, sizeof(tick)) < 0 ||
			    net_send_end(s, mac, id, t))
				return 1;
			ending = true;
		}
		n = recvfrom(s, g, sizeof(g), 0, (struct sockaddr *)&from, &fl);
		if (n < 0 && ending && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) &&
		    now() - t0 < NET_WAIT_S) {
			if (net_send_end(s, mac, id, t))
				return 1;
			continue;
		}
		if ((now() - t0) * 1e3 > t->wait_ms)
			t->wait_ms = (now() - t0) * 1e3;
		t0 = now();
		if (n < 0) {
			fprintf(stderr, "guest_io: sender %u: frame %" PRIu64 " did not come back in %d s: %s\n",
				id, t->got, NET_WAIT_S, strerror(errno));
			return 1;
		}
		if (from.sll_pkttype == PACKET_OUTGOING || n < 19 || g[18] != id)
			continue;
		memcpy(&seq, g + 14, 4);
		if (seq == NET_PROBE)
			continue;
		if (seq == NET_END) {
			want = make_frame(f, mac, id, NET_END);
			if (!ending || (size_t)n != want || memcmp(f, g, want)) {
				fprintf(stderr, "guest_io: sender %u: a stray or damaged end marker (%zd bytes)\n",
					id, n);
				++t->bad;
				continue;
			}
			/* Whatever was sent before it and is not back was lost. */
			fprintf(stderr, "guest_io: sender %u: frames %" PRIu64 " to %" PRIu64 " lost\n",
				id, t->got, count - 1);
			t->lost += count - t->got;
			t->got = count;
			break;
		}
		/* A later frame, intact: the ones before it were lost. */
		if ((flags & NET_COUNT_LOST) && seq > t->got && seq < sent) {
			want = make_frame(f, mac, id, seq);
			if ((size_t)n == want && !memcmp(f, g, want)) {
				fprintf(stderr, "guest_io: sender %u: frames %" PRIu64 " to %u lost\n",
					id, t->got, seq - 1);
				t->lost += seq - t->got;
				t->got = seq;
			}
		}
		want = make_frame(f, mac, id, t->got);
		if ((size_t)n != want || memcmp(f, g, want)) {
			fprintf(stderr, "guest_io: sender %u: frame %" PRIu64 " differs (seq %u, %zd bytes, wanted %zu)\n",
				id, t->got, seq, n, want);
			++t->bad;
		}
		++t->got;
	}
	return t->bad ? 1 : 0;
}

static int do_net(const char *ifname, uint64_t count)
{
	unsigned char mac[6];
	struct net_tally t = { 0 };
	int s = net_open(ifname, mac, false, 0), rc, cpu = sched_getcpu();
	cpu_set_t set;

	if (s < 0)
		return 1;
	/*
	 * One sender on one CPU: with several queue pairs the driver picks a
	 * transmit queue by the sending CPU (XPS), and the device loops each
	 * back on its own receive queue.  A sender that moved would spread its
	 * frames over two queues, which owe each other no order.
	 */
	CPU_ZERO(&set);
	CPU_SET(cpu < 0 ? 0 : cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "guest_io: net: sched_setaffinity: %s\n", strerror(errno));
		close(s);
		return 1;
	}
	rc = net_run(s, mac, 0, count, &t, NET_COUNT_LOST) || t.lost;
	printf("net sent %" PRIu64 " received %" PRIu64 " bad %" PRIu64 " wait_ms %.0f lost %" PRIu64 "\n",
	       count, t.got - t.lost, t.bad, t.wait_ms, t.lost);
	close(s);
	return rc;
}

/* The driver's statistics (ethtool -S): one "NAME VALUE" line each. */
static int do_ethstats(const char *ifname)
{
	struct ethtool_drvinfo info = { .cmd = ETHTOOL_GDRVINFO };
	struct ethtool_gstrings *names;
	struct ethtool_stats *stats;
	struct ifreq ifr = { 0 };
	int s = socket(AF_INET, SOCK_DGRAM, 0);
	unsigned int i, n;

	if (s < 0 || strlen(ifname) >= IFNAMSIZ)
		usage("no socket, or IFNAME too long");
	strcpy(ifr.ifr_name, ifname);
	ifr.ifr_data = (void *)&info;
	if (ioctl(s, SIOCETHTOOL, &ifr) < 0)
		goto fail;
	n = info.n_stats;
	names = calloc(1, sizeof(*names) + (size_t)n * ETH_GSTRING_LEN);
	stats = calloc(1, sizeof(*stats) + (size_t)n * sizeof(uint64_t));
	if (!names || !stats)
		goto fail;
	names->cmd = ETHTOOL_GSTRINGS;
	names->string_set = ETH_SS_STATS;
	names->len = n;
	stats->cmd = ETHTOOL_GSTATS;
	stats->n_stats = n;
	ifr.ifr_data = (void *)names;
	if (ioctl(s, SIOCETHTOOL, &ifr) < 0)
		goto fail;
	ifr.ifr_data = (void *)stats;
	if (ioctl(s, SIOCETHTOOL, &ifr) < 0)
		goto fail;
	for (i = 0; i < n; i++)
		printf("%.*s %llu\n", ETH_GSTRING_LEN, (char *)names->data + i * ETH_GSTRING_LEN,
		       (unsigned long long)stats->data[i]);
	return 0;
fail:
	fprintf(stderr, "guest_io: %s: ethtool statistics: %s\n", ifname, strerror(errno));
	return 1;
}

/*
 * ---- netdev netlink's queue statistics ----
 *
 * Linux 6.1's virtio_net counts each queue's packets in ethtool -S
 * (rx_queue_N_packets); from Linux 6.10 its ethtool -S no longer has them,
 * and the netdev generic netlink family reports them (NETDEV_CMD_QSTATS_GET,
 * a dump with one message a queue).  The values are those of
 * include/uapi/linux/netdev.h, which the host's headers may predate.
 */
#define NETDEV_FAMILY		"netdev"
#define NETDEV_CMD_QSTATS	12	/* NETDEV_CMD_QSTATS_GET */
#define QSTATS_IFINDEX		1	/* NETDEV_A_QSTATS_IFINDEX, u32 */
#define QSTATS_QUEUE_TYPE	2	/* NETDEV_A_QSTATS_QUEUE_TYPE: 0 rx, 1 tx */
#define QSTATS_QUEUE_ID		3	/* NETDEV_A_QSTATS_QUEUE_ID, u32 */
#define QSTATS_SCOPE		4	/* NETDEV_A_QSTATS_SCOPE */
#define QSTATS_SCOPE_QUEUE	1	/* NETDEV_QSTATS_SCOPE_QUEUE */
#define QSTATS_RX_PACKETS	8	/* NETDEV_A_QSTATS_RX_PACKETS, uint */
#define QSTATS_TX_PACKETS	10	/* NETDEV_A_QSTATS_TX_PACKETS, uint */
#define QSTATS_QUEUES		256

struct nl_msg {
	struct nlmsghdr n;
	struct genlmsghdr g;
	char attrs[64];
};

/* Append attribute @type of @len bytes to @m. */
static void nl_put(struct nl_msg *m, unsigned short type, const void *data, unsigned short len)
{
	struct nlattr *a = (struct nlattr *)((char *)m + NLMSG_ALIGN(m->n.nlmsg_len));

	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	memcpy((char *)a + NLA_HDRLEN, data, len);
	m->n.nlmsg_len = NLMSG_ALIGN(m->n.nlmsg_len) + NLA_ALIGN(a->nla_len);
}

/* An unsigned attribute's value (netlink's uint: 1, 2, 4 or 8 bytes). */
static uint64_t nl_uint(const struct nlattr *a)
{
	const void *p = (const char *)a + NLA_HDRLEN;
	uint8_t v8;
	uint16_t v16;
	uint32_t v32;
	uint64_t v64;

	switch (a->nla_len - NLA_HDRLEN) {
	case 1: memcpy(&v8, p, 1); return v8;
	case 2: memcpy(&v16, p, 2); return v16;
	case 4: memcpy(&v32, p, 4); return v32;
	case 8: memcpy(&v64, p, 8); return v64;
	}
	return UINT64_MAX;
}

/* Attribute @type of reply @h, or NULL. */
static const struct nlattr *nl_get(const struct nlmsghdr *h, unsigned short type)
{
	const char *p = (const char *)NLMSG_DATA(h) + GENL_HDRLEN;
	int left = (int)h->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);

	while (left >= NLA_HDRLEN) {
		const struct nlattr *a = (const struct nlattr *)p;

		if (a->nla_len < NLA_HDRLEN || a->nla_len > left)
			return NULL;
		if ((a->nla_type & NLA_TYPE_MASK) == type)
			return a;
		p += NLA_ALIGN(a->nla_len);
		left -= NLA_ALIGN(a->nla_len);
	}
	return NULL;
}

/*
 * Send @m on netlink socket @s and give each reply message to @fn(@arg, it),
 * to the end of a dump: 0, or the kernel's -errno.  A dump ends with
 * NLMSG_DONE (its messages need not carry NLM_F_MULTI: netdev's do not).
 */
static int nl_talk(int s, struct nlmsghdr *m, void (*fn)(void *, const struct nlmsghdr *), void *arg)
{
	static uint32_t seq;
	static uint64_t buf[8192];
	struct sockaddr_nl to = { .nl_family = AF_NETLINK };

	m->nlmsg_seq = ++seq;
	if (sendto(s, m, m->nlmsg_len, 0, (struct sockaddr *)&to, sizeof(to)) < 0)
		return -errno;
	for (;;) {
		ssize_t len = recv(s, buf, sizeof(buf), 0);
		struct nlmsghdr *h;

		if (len < 0)
			return -errno;
		for (h = (struct nlmsghdr *)buf; NLMSG_OK(h, len); h = NLMSG_NEXT(h, len)) {
			int err = 0;

			if (h->nlmsg_seq != seq)
				continue;
			/* NLMSG_ERROR: an error (0 acknowledges); NLMSG_DONE
			 * ends a dump, with its status. */
			if (h->nlmsg_type == NLMSG_ERROR) {
				if (h->nlmsg_len >= NLMSG_LENGTH(sizeof(struct nlmsgerr)))
					err = ((struct nlmsgerr *)NLMSG_DATA(h))->error;
				return err;
			}
			if (h->nlmsg_type == NLMSG_DONE) {
				if (h->nlmsg_len >= NLMSG_LENGTH(sizeof(int)))
					memcpy(&err, NLMSG_DATA(h), sizeof(int));
				return err;
			}
			fn(arg, h);
			if (!(m->nlmsg_flags & NLM_F_DUMP) && !(h->nlmsg_flags & NLM_F_MULTI))
				return 0;
		}
	}
}

/* A request of generic netlink family @family, command @cmd. */
static void nl_start(struct nl_msg *m, uint16_t family, uint8_t cmd, uint16_t flags)
{
	memset(m, 0, sizeof(*m));
	m->n.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
	m->n.nlmsg_type = family;
	m->n.nlmsg_flags = NLM_F_REQUEST | flags;
	m->g.cmd = cmd;
	m->g.version = 1;
}

static void family_reply(void *arg, const struct nlmsghdr *h)
{
	const struct nlattr *a = nl_get(h, CTRL_ATTR_FAMILY_ID);

	if (a)
		*(uint16_t *)arg = (uint16_t)nl_uint(a);
}

/* Each queue's packets, by type (0 rx, 1 tx) and id; n: ids seen + 1. */
struct qstats {
	uint64_t packets[2][QSTATS_QUEUES];
	bool seen[2][QSTATS_QUEUES];
	unsigned int n[2];
};

/* One message of the dump: one queue. */
static void qstats_reply(void *arg, const struct nlmsghdr *h)
{
	struct qstats *q = arg;
	const struct nlattr *type = nl_get(h, QSTATS_QUEUE_TYPE), *id = nl_get(h, QSTATS_QUEUE_ID);
	const struct nlattr *p;
	uint64_t t, i;

	if (!type || !id)
		return;
	t = nl_uint(type);
	i = nl_uint(id);
	if (t > 1 || i >= QSTATS_QUEUES)
		return;
	p = nl_get(h, t ? QSTATS_TX_PACKETS : QSTATS_RX_PACKETS);
	if (!p)
		return;
	q->packets[t][i] = nl_uint(p);
	q->seen[t][i] = true;
	if (i >= q->n[t])
		q->n[t] = i + 1;
}

/*
 * Each queue's packets from netdev netlink's queue statistics, as Linux
 * 6.1's ethtool -S names them: "rx_queue_N_packets V", then the tx queues.
 */
static int do_qstats(const char *ifname)
{
	uint32_t ifindex = if_nametoindex(ifname), scope = QSTATS_SCOPE_QUEUE;
	struct qstats *q = calloc(1, sizeof(*q));
	uint16_t family = 0;
	struct nl_msg m;
	unsigned int t, i;
	int s, err;

	if (!ifindex || !q) {
		fprintf(stderr, "guest_io: %s: %s\n", ifname, q ? "no such interface" : strerror(errno));
		return 1;
	}
	s = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (s < 0) {
		fprintf(stderr, "guest_io: netlink socket: %s\n", strerror(errno));
		return 1;
	}
	nl_start(&m, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 0);
	nl_put(&m, CTRL_ATTR_FAMILY_NAME, NETDEV_FAMILY, sizeof(NETDEV_FAMILY));
	err = nl_talk(s, &m.n, family_reply, &family);
	if (err || !family) {
		fprintf(stderr, "guest_io: no netdev netlink family: %s\n",
			err ? strerror(-err) : "no family id in the reply");
		return 1;
	}
	nl_start(&m, family, NETDEV_CMD_QSTATS, NLM_F_DUMP);
	nl_put(&m, QSTATS_IFINDEX, &ifindex, sizeof(ifindex));
	nl_put(&m, QSTATS_SCOPE, &scope, sizeof(scope));
	err = nl_talk(s, &m.n, qstats_reply, q);
	close(s);
	if (err || (!q->n[0] && !q->n[1])) {
		fprintf(stderr, "guest_io: %s: netdev queue statistics: %s\n", ifname,
			err ? strerror(-err) : "no queue's packets reported");
		return 1;
	}
	for (t = 0; t < 2; t++)
		for (i = 0; i < q->n[t]; i++)
			if (q->seen[t][i])
				printf("%s_queue_%u_packets %llu\n", t ? "tx" : "rx", i,
				       (unsigned long long)q->packets[t][i]);
	free(q);
	return 0;
}

/*
 * ---- The queueing disciplines' drops ----
 *
 * A frame the transmit path's queueing discipline dropped never reaches
 * the driver, and the sender is not told (fq_codel drops on dequeue, after
 * send() returned).  The qdiscs of an interface come from an rtnetlink
 * dump; with several transmit queues the root (mq) has one child a queue,
 * child N + 1 that of queue N, and sums their drops.
 */
struct qdiscs {
	int ifindex;
	bool print;			/* a line a qdisc (do_qdiscs()) */
	uint32_t drops[QSTATS_QUEUES];	/* transmit queue N's child's */
	bool seen[QSTATS_QUEUES];
};

static void qdisc_reply(void *arg, const struct nlmsghdr *h)
{
	struct qdiscs *qs = arg;
	const struct tcmsg *tc = NLMSG_DATA(h);
	const char *p = (const char *)tc + NLMSG_ALIGN(sizeof(*tc));
	int left = (int)h->nlmsg_len - NLMSG_LENGTH(NLMSG_ALIGN(sizeof(*tc)));
	const char *kind = "?";
	struct gnet_stats_queue q = { 0 };
	struct tc_fq_codel_xstats x = { .type = UINT32_MAX };
	uint32_t child = TC_H_MIN(tc->tcm_parent);
	bool have = false;

	if (h->nlmsg_type != RTM_NEWQDISC || tc->tcm_ifindex != qs->ifindex)
		return;
	for (; left >= NLA_HDRLEN; ) {
		const struct nlattr *a = (const struct nlattr *)p;

		if (a->nla_len < NLA_HDRLEN || a->nla_len > left)
			break;
		if (a->nla_type == TCA_KIND)
			kind = (const char *)a + NLA_HDRLEN;
		if ((a->nla_type & NLA_TYPE_MASK) == TCA_STATS2) {
			const char *n = (const char *)a + NLA_HDRLEN;
			int nl = a->nla_len - NLA_HDRLEN;

			while (nl >= NLA_HDRLEN) {
				const struct nlattr *b = (const struct nlattr *)n;

				if (b->nla_len < NLA_HDRLEN || b->nla_len > nl)
					break;
				if ((b->nla_type & NLA_TYPE_MASK) == TCA_STATS_QUEUE &&
				    b->nla_len - NLA_HDRLEN >= (int)sizeof(q)) {
					memcpy(&q, (const char *)b + NLA_HDRLEN, sizeof(q));
					have = true;
				}
				if ((b->nla_type & NLA_TYPE_MASK) == TCA_STATS_APP &&
				    b->nla_len - NLA_HDRLEN >= (int)sizeof(x))
					memcpy(&x, (const char *)b + NLA_HDRLEN, sizeof(x));
				n += NLA_ALIGN(b->nla_len);
				nl -= NLA_ALIGN(b->nla_len);
			}
		}
		p += NLA_ALIGN(a->nla_len);
		left -= NLA_ALIGN(a->nla_len);
	}
	if (!have)
		return;
	if (tc->tcm_parent != TC_H_ROOT && child >= 1 && child <= QSTATS_QUEUES) {
		qs->drops[child - 1] = q.drops;
		qs->seen[child - 1] = true;
	}
	if (!qs->print)
		return;
	if (tc->tcm_parent == TC_H_ROOT)
		printf("qdisc %s parent root drops %u", kind, q.drops);
	else
		printf("qdisc %s parent %x:%x drops %u", kind, TC_H_MAJ(tc->tcm_parent) >> 16,
		       child, q.drops);
	/* fq_codel: the drops of a full queue; the others are codel's. */
	if (!strcmp(kind, "fq_codel") && x.type == TCA_FQ_CODEL_XSTATS_QDISC)
		printf(" overlimit %u overmemory %u", x.qdisc_stats.drop_overlimit,
		       x.qdisc_stats.drop_overmemory);
	putchar('\n');
}

/* @ifname's qdiscs into @qs: 0, or 1 with the reason on stderr. */
static int qdiscs_get(const char *ifname, struct qdiscs *qs)
{
	struct {
		struct nlmsghdr n;
		struct tcmsg t;
	} m = {
		.n = { .nlmsg_len = NLMSG_LENGTH(sizeof(struct tcmsg)), .nlmsg_type = RTM_GETQDISC,
		       .nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP },
		.t = { .tcm_family = AF_UNSPEC },
	};
	int s, err;

	qs->ifindex = (int)if_nametoindex(ifname);
	if (!qs->ifindex) {
		fprintf(stderr, "guest_io: %s: no such interface\n", ifname);
		return 1;
	}
	m.t.tcm_ifindex = qs->ifindex;
	s = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (s < 0) {
		fprintf(stderr, "guest_io: netlink socket: %s\n", strerror(errno));
		return 1;
	}
	err = nl_talk(s, &m.n, qdisc_reply, qs);
	close(s);
	if (err) {
		fprintf(stderr, "guest_io: %s: qdisc dump: %s\n", ifname, strerror(-err));
		return 1;
	}
	return 0;
}

/*
 * One line a qdisc of @ifname: "qdisc KIND parent root|MAJ:MIN drops N",
 * for fq_codel then "overlimit N overmemory N" (those of a full queue; the
 * rest are codel's, of frames that waited too long).
 */
static int do_qdiscs(const char *ifname)
{
	struct qdiscs qs = { .print = true };

	return qdiscs_get(ifname, &qs);
}

/*
 * The transmit queue the driver gives frames sent from @cpu (XPS: the
 * queue whose xps_cpus has the CPU), or -1.
 */
static int xps_queue(const char *ifname, int cpu)
{
	char path[128], mask[256];
	int q, found = -1;

	for (q = 0; q < QSTATS_QUEUES && found < 0; q++) {
		FILE *f;
		size_t len;
		int bit = 0;

		snprintf(path, sizeof(path), "/sys/class/net/%s/queues/tx-%d/xps_cpus", ifname, q);
		f = fopen(path, "r");
		if (!f)
			break;
		len = fgets(mask, sizeof(mask), f) ? strcspn(mask, "\n") : 0;
		fclose(f);
		/* Hex digits, the lowest CPUs last, commas between words. */
		while (len-- > 0 && found < 0) {
			int d = mask[len];

			if (d == ',')
				continue;
			d = d >= 'a' ? d - 'a' + 10 : d >= 'A' ? d - 'A' + 10 : d - '0';
			if (cpu >= bit && cpu < bit + 4 && (d >> (cpu - bit) & 1))
				found = q;
			bit += 4;
		}
	}
	return found;
}

/*
 * ---- The same from every CPU at once ----
 *
 * One thread per online CPU, pinned there (sched_setaffinity), all started
 * together.  blk: worker i owns stripe i of [OFF, OFF + LEN); each round it
 * reads a piece (checked against what the disk held: pattern DSEED in the
 * first round, WSEED after), writes pattern WSEED there and reads it back
 * (checked), piece sizes 4 KiB to 256 KiB in turn, O_DIRECT.  net: worker i
 * sends COUNT frames as sender i and checks each one that comes back, in
 * order; a frame that never came back is counted lost, not failed: the
 * guest's own stack may drop a frame (its queueing discipline, fq_codel,
 * does when frames wait too long), and the host weighs the losses against
 * the drops the guest counted (guest-init.sh reports both).
 * Output: one line per worker, "cpu I ios N bytes N bad N moved N high N"
 * (ios: blk reads and writes, net frames back; moved: I/Os after which it
 * found itself off its CPU, net asks once at the end; high: its blk buffer
 * lies above guest physical 4 GiB; net adds "probes N lost N sock_packets
 * N sock_drops N txq Q qdisc_drops N": its probes and end markers, its
 * frames lost, what its socket's PACKET_STATISTICS counted (frames its
 * filter let through, of those dropped for want of room), its CPU's
 * transmit queue (XPS) and what that queue's qdisc dropped, "-" when
 * unknown), then "cpus N ..." with the totals
 * and the seconds from the start to the last worker's end, and for net the
 * longest any worker waited for a frame (wait_ms).  Once every worker
 * is under way (blk: one I/O done), "RIG-BUSY cpus N" goes to stderr (the
 * console).
 */
struct worker {
	pthread_t thread;
	unsigned int idx;		/* its stripe, its sender id */
	int cpu;
	struct job *job;
	uint64_t ios, bytes, bad, moved;
	double wait_ms;			/* net: the longest wait for a frame */
	uint64_t probes, lost;		/* net: probes and end markers sent, frames lost */
	uint64_t sock_packets, sock_drops;	/* net: PACKET_STATISTICS */
	bool high, started;
	int rc;
};

struct job {
	bool blk;
	const char *path;		/* the disk or the interface */
	uint64_t off, len, dseed, wseed, rounds, count;
	int fd;				/* blk: shared by the workers */
	unsigned int n;
	struct worker *w;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned int ready, started;
	bool go;
};

/* Is every page of @buf above guest physical 4 GiB?  (/proc/self/pagemap) */
static bool above_4g(const void *buf, size_t len)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), i;
	int fd = open("/proc/self/pagemap", O_RDONLY);
	bool high = fd >= 0;

	for (i = 0; high && i < len; i += pg) {
		uint64_t e;
		off_t at = (off_t)((uintptr_t)buf + i) / pg * 8;

		/* bit 63: present; bits 0-54: the frame number */
		if (pread(fd, &e, 8, at) != 8 || !(e >> 63) ||
		    (e & ((1ull << 55) - 1)) * pg < (1ull << 32))
			high = false;
	}
	if (fd >= 0)
		close(fd);
	return high;
}

static void worker_start(struct worker *w)
{
	struct job *j = w->job;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "guest_io: cpu %d: sched_setaffinity: %s\n", w->cpu, strerror(errno));
		w->rc = 1;
	}
	pthread_mutex_lock(&j->lock);
	j->ready++;
	pthread_cond_broadcast(&j->cond);
	while (!j->go)
		pthread_cond_wait(&j->cond, &j->lock);
	pthread_mutex_unlock(&j->lock);
}

/* @w is under way: once every worker is, RIG-BUSY. */
static void worker_busy(struct worker *w)
{
	struct job *j = w->job;

	if (w->started)
		return;
	w->started = true;
	pthread_mutex_lock(&j->lock);
	if (++j->started == j->n)
		fprintf(stderr, "RIG-BUSY cpus %u\n", j->n);
	pthread_mutex_unlock(&j->lock);
}

static void worker_did_io(struct worker *w)
{
	w->ios++;
	if (sched_getcpu() != w->cpu)
		w->moved++;
	worker_busy(w);
}

static bool blk_check(struct worker *w, const uint64_t *got, uint64_t *want,
		      uint64_t pos, size_t n, uint64_t seed)
{
	fill(want, pos, n, seed);
	if (!memcmp(got, want, n))
		return true;
	if (w->bad++ < 3)
		fprintf(stderr, "guest_io: cpu %d: the %zu bytes at %" PRIu64 " differ from pattern %" PRIu64 "\n",
			w->cpu, n, pos, seed);
	return false;
}

static void *blk_worker(void *arg)
{
	struct worker *w = arg;
	const struct job *j = w->job;
	uint64_t stripe = j->len / j->n / 4096 * 4096, r, pos, k = 0;
	uint64_t start = j->off + w->idx * stripe;
	uint64_t end = w->idx + 1 == j->n ? j->off + j->len : start + stripe;
	uint64_t *buf = chunk_buf(), *want = chunk_buf();

	worker_start(w);
	memset(buf, 0, PIECE_MAX);	/* in memory before asking where */
	w->high = above_4g(buf, PIECE_MAX);
	for (r = 0; r < j->rounds && !w->rc; r++) {
		for (pos = start; pos < end && !w->rc; pos += PIECE_MAX >> (k++ % 7)) {
			size_t n = PIECE_MAX >> (k % 7);

			if (n > end - pos)
				n = end - pos;
			if (pread(j->fd, buf, n, pos) != (ssize_t)n)
				goto io_error;
			worker_did_io(w);
			blk_check(w, buf, want, pos, n, r ? j->wseed : j->dseed);
			fill(buf, pos, n, j->wseed);
			if (pwrite(j->fd, buf, n, pos) != (ssize_t)n)
				goto io_error;
			worker_did_io(w);
			memset(buf, 0, n);
			if (pread(j->fd, buf, n, pos) != (ssize_t)n)
				goto io_error;
			worker_did_io(w);
			blk_check(w, buf, want, pos, n, j->wseed);
			w->bytes += 3 * n;
			continue;
io_error:
			fprintf(stderr, "guest_io: cpu %d: I/O of %zu bytes at %" PRIu64 ": %s\n",
				w->cpu, n, pos, strerror(errno));
			w->rc = 1;
		}
	}
	free(buf);
	free(want);
	if (w->bad)
		w->rc = 1;
	return NULL;
}

static void *net_worker(void *arg)
{
	struct worker *w = arg;
	const struct job *j = w->job;
	struct net_tally t = { 0 };
	struct tpacket_stats st = { 0 };
	socklen_t sl = sizeof(st);
	unsigned char mac[6];
	int s;

	worker_start(w);
	s = net_open(j->path, mac, true, (uint8_t)w->idx);
	if (s < 0) {
		w->rc = 1;
		return NULL;
	}
	worker_busy(w);
	if (net_run(s, mac, (uint8_t)w->idx, j->count, &t, NET_COUNT_LOST | NET_END_MARK))
		w->rc = 1;
	w->ios += t.got - t.lost;
	w->lost = t.lost;
	w->bad += t.bad;
	w->wait_ms = t.wait_ms;
	w->probes = t.probes;
	if (sched_getcpu() != w->cpu)	/* net: asked once, at the end */
		w->moved++;
	/* The frames the filter let through, and those the socket dropped. */
	if (getsockopt(s, SOL_PACKET, PACKET_STATISTICS, &st, &sl) < 0) {
		fprintf(stderr, "guest_io: sender %u: PACKET_STATISTICS: %s\n", w->idx, strerror(errno));
		w->rc = 1;
	}
	w->sock_packets = st.tp_packets;
	w->sock_drops = st.tp_drops;
	close(s);
	return NULL;
}

static int do_cpus(struct job *j)
{
	cpu_set_t set;
	uint64_t ios = 0, bytes = 0, bad = 0, moved = 0;
	unsigned int i, high = 0;
	struct qdiscs qs = { 0 };
	double t0, t1, wait_ms = 0;
	int cpu, rc = 0;

	if (sched_getaffinity(0, sizeof(set), &set)) {
		perror("guest_io: sched_getaffinity");
		return 1;
	}
	j->n = CPU_COUNT(&set);
	if (j->n > 255)
		usage("more than 255 CPUs");
	j->w = calloc(j->n, sizeof(*j->w));
	if (!j->w || pthread_mutex_init(&j->lock, NULL) || pthread_cond_init(&j->cond, NULL)) {
		perror("guest_io: cpus");
		return 1;
	}
	if (j->blk) {
		if (j->off % 4096 || j->len % 4096 || j->len / j->n < 4096)
			usage("OFF and LEN must be multiples of 4096, LEN at least 4096 a CPU");
		j->fd = open_direct(j->path, O_RDWR);
	}
	for (i = 0, cpu = 0; i < j->n; cpu++) {
		if (!CPU_ISSET(cpu, &set))
			continue;
		j->w[i].idx = i;
		j->w[i].cpu = cpu;
		j->w[i].job = j;
		if (pthread_create(&j->w[i].thread, NULL, j->blk ? blk_worker : net_worker, &j->w[i])) {
			perror("guest_io: pthread_create");
			exit(1);
		}
		i++;
	}
	/* All pinned first, then all at once. */
	pthread_mutex_lock(&j->lock);
	while (j->ready < j->n)
		pthread_cond_wait(&j->cond, &j->lock);
	t0 = now();
	j->go = true;
	pthread_cond_broadcast(&j->cond);
	pthread_mutex_unlock(&j->lock);
	for (i = 0; i < j->n; i++)
		pthread_join(j->w[i].thread, NULL);
	t1 = now();
	/* net: what the qdisc of each sender's transmit queue dropped */
	if (!j->blk && qdiscs_get(j->path, &qs))
		rc = 1;
	for (i = 0; i < j->n; i++) {
		struct worker *w = &j->w[i];
		int q = xps_queue(j->path, w->cpu);

		printf("cpu %d ios %" PRIu64 " bytes %" PRIu64 " bad %" PRIu64 " moved %" PRIu64 " high %d",
		       w->cpu, w->ios, w->bytes, w->bad, w->moved, w->high);
		if (!j->blk && q >= 0 && qs.seen[q])
			printf(" probes %" PRIu64 " lost %" PRIu64 " sock_packets %" PRIu64 " sock_drops %" PRIu64 " txq %d qdisc_drops %u",
			       w->probes, w->lost, w->sock_packets, w->sock_drops, q, qs.drops[q]);
		else if (!j->blk)
			printf(" probes %" PRIu64 " lost %" PRIu64 " sock_packets %" PRIu64 " sock_drops %" PRIu64 " txq - qdisc_drops -",
			       w->probes, w->lost, w->sock_packets, w->sock_drops);
		putchar('\n');
		ios += w->ios;
		bytes += w->bytes;
		bad += w->bad;
		moved += w->moved;
		high += w->high;
		if (w->wait_ms > wait_ms)
			wait_ms = w->wait_ms;
		rc |= w->rc;
	}
	if (j->blk && fsync(j->fd)) {
		perror("guest_io: fsync");
		rc = 1;
	}
	printf("cpus %u ios %" PRIu64 " bytes %" PRIu64 " bad %" PRIu64 " moved %" PRIu64 " high %u seconds %.2f wait_ms %.0f\n",
	       j->n, ios, bytes, bad, moved, high, t1 - t0, wait_ms);
	return rc;
}

int main(int argc, char **argv)
{
	const char *m = argc > 1 ? argv[1] : "";

	if (!strcmp(m, "--help")) {
		fputs(help, stdout);
		return 0;
	}
	if (!strcmp(m, "mkdisk") && argc == 5)
		return do_mkdisk(argv[2], num(argv[3]), num(argv[4]));
	if (!strcmp(m, "sum") && (argc == 3 || argc == 4)) {
		uint64_t bs = argc == 4 ? num(argv[3]) : CHUNK;

		if (bs < 512 || bs > CHUNK || bs % 512)
			usage("BS must be a multiple of 512 from 512 to 1 MiB");
		return do_sum(argv[2], bs);
	}
	if (!strcmp(m, "write") && argc == 6)
		return do_write(argv[2], num(argv[3]), num(argv[4]), num(argv[5]), 0);
	if (!strcmp(m, "verify") && argc == 6)
		return do_write(argv[2], num(argv[3]), num(argv[4]), num(argv[5]), 1);
	if (!strcmp(m, "net") && argc == 4)
		return do_net(argv[2], num(argv[3]));
	if (!strcmp(m, "ethstats") && argc == 3)
		return do_ethstats(argv[2]);
	if (!strcmp(m, "qstats") && argc == 3)
		return do_qstats(argv[2]);
	if (!strcmp(m, "qdiscs") && argc == 3)
		return do_qdiscs(argv[2]);
	if (!strcmp(m, "cpus") && argc == 9 && !strcmp(argv[2], "blk")) {
		struct job j = { .blk = true, .path = argv[3], .off = num(argv[4]),
				 .len = num(argv[5]), .dseed = num(argv[6]),
				 .wseed = num(argv[7]), .rounds = num(argv[8]) };

		return do_cpus(&j);
	}
	if (!strcmp(m, "cpus") && argc == 5 && !strcmp(argv[2], "net")) {
		struct job j = { .path = argv[3], .count = num(argv[4]) };

		return do_cpus(&j);
	}
	usage(argc > 1 ? "unknown mode or wrong number of arguments" : "no mode given");
}
