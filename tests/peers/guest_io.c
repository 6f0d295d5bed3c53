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
 *                                        comes back (a loopback device)
 *
 * Built statically for the guest's initramfs, and normally for the host.
 * Exit status 0 on success, 1 on a failed check, 2 on a usage error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <net/if.h>
#include <netinet/in.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
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
#define ETH_P_RIG	0x88b5		/* IEEE local experimental ethertype */

static void usage(const char *why)
{
	fprintf(stderr, "guest_io: %s\ntry --help\n", why);
	exit(2);
}

static const char help[] =
	"Usage: guest_io mkdisk FILE SIZE SEED | sum DEV [BS] | write DEV OFF LEN SEED\n"
	"       | verify FILE OFF LEN SEED | net IFNAME COUNT\n";

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

/* Frame @seq: our MAC both ends, ETH_P_RIG, then seq and a pattern. */
static size_t make_frame(unsigned char *f, const unsigned char *mac,
			 uint32_t seq)
{
	size_t len = 60 + (seq * 97) % (1514 - 60 + 1), i;

	memcpy(f, mac, 6);
	memcpy(f + 6, mac, 6);
	f[12] = ETH_P_RIG >> 8;
	f[13] = ETH_P_RIG & 0xff;
	memcpy(f + 14, &seq, 4);
	for (i = 18; i < len; i++)
		f[i] = (unsigned char)(seq * 31 + i);
	return len;
}

static int do_net(const char *ifname, uint64_t count)
{
	unsigned char mac[6], f[1600], g[1600];
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };
	struct timeval tv = { .tv_sec = 3 };
	struct ifreq ifr = { 0 };
	uint64_t sent = 0, got = 0, bad = 0;
	int s = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_RIG));

	if (s < 0 || strlen(ifname) >= IFNAMSIZ) {
		perror("guest_io: socket");
		return 1;
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
	sll.sll_ifindex = ifr.ifr_ifindex;
	sll.sll_protocol = htons(ETH_P_RIG);
	if (bind(s, (struct sockaddr *)&sll, sizeof(sll)) < 0 ||
	    setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0)
		goto fail;
	/* Up to 32 frames in flight: fewer than the receive buffers posted. */
	while (got < count) {
		struct sockaddr_ll from;
		socklen_t fl = sizeof(from);
		size_t want;
		ssize_t n;
		uint32_t seq;

		while (sent < count && sent - got < 32) {
			size_t len = make_frame(f, mac, sent);

			if (send(s, f, len, 0) != (ssize_t)len)
				goto fail;
			sent++;
		}
		n = recvfrom(s, g, sizeof(g), 0, (struct sockaddr *)&from, &fl);
		if (n < 0) {
			fprintf(stderr, "guest_io: frame %" PRIu64 " did not come back: %s\n",
				got, strerror(errno));
			break;
		}
		if (from.sll_pkttype == PACKET_OUTGOING)
			continue;
		want = make_frame(f, mac, got);
		memcpy(&seq, g + 14, 4);
		if ((size_t)n != want || memcmp(f, g, want)) {
			fprintf(stderr, "guest_io: frame %" PRIu64 " differs (seq %u, %zd bytes, wanted %zu)\n",
				got, seq, n, want);
			bad++;
		}
		got++;
	}
	printf("net sent %" PRIu64 " received %" PRIu64 " bad %" PRIu64 "\n",
	       sent, got, bad);
	return got == count && !bad ? 0 : 1;
fail:
	fprintf(stderr, "guest_io: %s: %s\n", ifname, strerror(errno));
	return 1;
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
	usage(argc > 1 ? "unknown mode or wrong number of arguments" : "no mode given");
}
