// SPDX-License-Identifier: GPL-2.0
/* The rig's shared harness: see harness.h. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/virtio_config.h>
#include <linux/vringh.h>
#include <linux/uaccess.h>

#include "harness/harness.h"

#ifndef RIG_BUILD_CC
#define RIG_BUILD_CC "unknown compiler"
#endif
#ifndef RIG_BUILD_CFLAGS
#define RIG_BUILD_CFLAGS "unknown"
#endif
#ifndef RIG_GUEST_IMPL
#define RIG_GUEST_IMPL "rig"
#endif
#ifndef RIG_HOST_IMPL
#define RIG_HOST_IMPL "rig"
#endif
#ifndef RIG_GUEST_SRC
#define RIG_GUEST_SRC { "unknown", "", "unknown" }
#endif
#ifndef RIG_HOST_SRC
#define RIG_HOST_SRC { "unknown", "", "unknown" }
#endif

/* Where a side's ring code came from (kernel/ring-id.sh writes these). */
struct rig_ring_src {
	const char *tree;	/* the tree's path */
	const char *describe;	/* its git describe, or "" */
	const char *files;	/* a hash of the ring files compiled */
};
static const struct rig_ring_src guest_src = RIG_GUEST_SRC;
static const struct rig_ring_src host_src = RIG_HOST_SRC;

void rig_check_failed(const char *file, int line, const char *cond)
{
	fprintf(stderr, "%s: %s:%d: check failed: %s\n",
		program_invocation_short_name, file, line, cond);
	rig_kernel_gap_check_failed();
	exit(1);
}

void rig_check_failedf(const char *file, int line, const char *cond,
		       const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: %s:%d: check failed: %s: ",
		program_invocation_short_name, file, line, cond);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	rig_kernel_gap_check_failed();
	exit(1);
}

void rig_die(const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	fprintf(stderr, "%s: ", program_invocation_short_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, ": %s\n", strerror(saved));
	exit(1);
}

bool rig_parse_ulong(const char *s, unsigned long min, unsigned long max,
		     unsigned long *out)
{
	unsigned long v;
	char *end;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return false;
	errno = 0;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		if (!isxdigit((unsigned char)*s))
			return false;
		v = strtoul(s, &end, 16);
	} else {
		v = strtoul(s, &end, 10);
	}
	if (errno || *end || v < min || v > max)
		return false;
	*out = v;
	return true;
}

const char *rig_guest_impl(void)
{
	return RIG_GUEST_IMPL;
}

const char *rig_host_impl(void)
{
	return RIG_HOST_IMPL;
}

static void print_src(const char *side, const struct rig_ring_src *src)
{
	printf("%s from %s (%s%sring files %s)", side, src->tree,
	       src->describe, *src->describe ? ", " : "", src->files);
}

void rig_print_version(const char *prog)
{
	printf("%s: built by %s with CFLAGS=%s; guest ring code: %s, host ring code: %s; ",
	       prog, RIG_BUILD_CC, RIG_BUILD_CFLAGS, RIG_GUEST_IMPL,
	       RIG_HOST_IMPL);
	print_src("guest", &guest_src);
	printf(", ");
	print_src("host", &host_src);
	putchar('\n');
}

static void json_quoted(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

/* , "KEY": {"tree", "describe" (null when not known), "files"} */
static void json_src(const char *key, const struct rig_ring_src *src)
{
	printf(", ");
	json_quoted(key);
	printf(": {\"tree\": ");
	json_quoted(src->tree);
	printf(", \"describe\": ");
	if (*src->describe)
		json_quoted(src->describe);
	else
		printf("null");
	printf(", \"files\": ");
	json_quoted(src->files);
	putchar('}');
}

void rig_json_begin(const char *prog)
{
	printf("{\"program\": ");
	json_quoted(prog);
	printf(", \"build\": {\"cc\": ");
	json_quoted(RIG_BUILD_CC);
	printf(", \"cflags\": ");
	json_quoted(RIG_BUILD_CFLAGS);
	printf(", \"guest\": ");
	json_quoted(RIG_GUEST_IMPL);
	printf(", \"host\": ");
	json_quoted(RIG_HOST_IMPL);
	json_src("guest_src", &guest_src);
	json_src("host_src", &host_src);
	putchar('}');
}

void rig_json_num(const char *key, const char *fmt, ...)
{
	va_list ap;

	printf(", ");
	json_quoted(key);
	printf(": ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

void rig_json_str(const char *key, const char *value)
{
	printf(", ");
	json_quoted(key);
	printf(": ");
	json_quoted(value);
}

static const char *json_bool(bool b)
{
	return b ? "true" : "false";
}

void rig_json_features(u64 f)
{
	rig_json_str("ring", f & (1ULL << VIRTIO_F_RING_PACKED) ? "packed" : "split");
	rig_json_num("indirect", "%s",
		     json_bool(f & (1ULL << VIRTIO_RING_F_INDIRECT_DESC)));
	rig_json_num("event_idx", "%s",
		     json_bool(f & (1ULL << VIRTIO_RING_F_EVENT_IDX)));
	rig_json_num("virtio_1", "%s", json_bool(f & (1ULL << VIRTIO_F_VERSION_1)));
	rig_json_num("in_order", "%s", json_bool(f & (1ULL << VIRTIO_F_IN_ORDER)));
}

void rig_json_end(void)
{
	printf("}\n");
	fflush(stdout);
}

int rig_cpus_allowed(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		rig_die("sched_getaffinity");
	return CPU_COUNT(&set);
}

int rig_pick_two_cpus(int *a, int *b)
{
	cpu_set_t set;
	int cpu, n = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		rig_die("sched_getaffinity");
	*a = *b = -1;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &set))
			continue;
		if (*a < 0)
			*a = cpu;
		*b = cpu;
		n++;
	}
	return n;
}

void rig_pin_thread(int cpu)
{
	cpu_set_t set;
	int err;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	err = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (err) {
		errno = err;
		rig_die("cannot pin to CPU %d", cpu);
	}
}

bool rig_cpu_allowed(long cpu)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		rig_die("sched_getaffinity");
	return cpu >= 0 && cpu < CPU_SETSIZE && CPU_ISSET(cpu, &set);
}

const char *rig_cpus_allowed_list(void)
{
	static char buf[256];
	size_t used = 0;
	int cpu, first = -1;
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		rig_die("sched_getaffinity");
	buf[0] = 0;
	for (cpu = 0; cpu <= CPU_SETSIZE; cpu++) {
		bool in = cpu < CPU_SETSIZE && CPU_ISSET(cpu, &set);

		if (in && first < 0)
			first = cpu;
		if (in || first < 0 || used >= sizeof(buf) - 24)
			continue;
		if (cpu - 1 > first)
			used += snprintf(buf + used, sizeof(buf) - used, "%s%d-%d",
					 used ? "," : "", first, cpu - 1);
		else
			used += snprintf(buf + used, sizeof(buf) - used, "%s%d",
					 used ? "," : "", first);
		first = -1;
	}
	return buf;
}

#if defined(__SANITIZE_THREAD__)
#define RIG_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RIG_TSAN 1
#endif
#endif

void rig_shm_create(struct rig_shm *shm, size_t size)
{
	int fd = memfd_create("vring-rig", MFD_CLOEXEC);

	if (fd < 0)
		rig_die("memfd_create");
	if (ftruncate(fd, size))
		rig_die("ftruncate shared memory to %zu bytes", size);
	shm->size = size;
	shm->guest = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
#ifdef RIG_TSAN
	/*
	 * ThreadSanitizer tracks memory by virtual address: through two
	 * mappings the guest's and the host's accesses to the same byte
	 * would never meet, and no race on the ring could be seen.
	 */
	shm->host = shm->guest;
#else
	shm->host = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
#endif
	if (shm->guest == MAP_FAILED || shm->host == MAP_FAILED)
		rig_die("mmap shared memory");
	close(fd);
}

void rig_shm_destroy(struct rig_shm *shm)
{
	munmap(shm->guest, shm->size);
	if (shm->host != shm->guest)
		munmap(shm->host, shm->size);
	shm->guest = shm->host = NULL;
}

void rig_chan_init(struct rig_chan *c)
{
	c->fd = eventfd(0, EFD_CLOEXEC);
	if (c->fd < 0)
		rig_die("eventfd");
	c->signalled = 0;
	c->woken = 0;
}

void rig_chan_destroy(struct rig_chan *c)
{
	close(c->fd);
	c->fd = -1;
}

void rig_chan_wake(struct rig_chan *c)
{
	uint64_t one = 1;

	if (write(c->fd, &one, sizeof(one)) != sizeof(one))
		rig_die("eventfd write");
}

void rig_chan_signal(struct rig_chan *c)
{
	c->signalled++;
	rig_chan_wake(c);
}

void rig_chan_wait(struct rig_chan *c)
{
	uint64_t n;

	while (read(c->fd, &n, sizeof(n)) != sizeof(n))
		if (errno != EINTR)
			rig_die("eventfd read");
	c->woken++;
}

bool rig_chan_wait_timeout(struct rig_chan *c, int timeout_ms)
{
	struct pollfd p = { .fd = c->fd, .events = POLLIN };
	int n;

	do
		n = poll(&p, 1, timeout_ms);
	while (n < 0 && errno == EINTR && !rig_interrupted);
	if (n < 0 && errno == EINTR)
		return false;		/* Ctrl-C: see rig_catch_interrupt() */
	if (n < 0)
		rig_die("poll");
	if (n == 0)
		return false;
	rig_chan_wait(c);
	return true;
}

static struct {
	uint64_t start, end;	/* guest addresses [start, end) */
	uint64_t offset;	/* host = guest + offset (mod 2^64) */
	bool slow;
} user_map;

void rig_user_map(const void *guest, void *host, size_t size, bool slow)
{
	user_map.start = (uintptr_t)guest;
	user_map.end = (uintptr_t)guest + size;
	user_map.offset = (uintptr_t)host - (uintptr_t)guest;
	user_map.slow = slow;
	__user_addr_min = host;
	__user_addr_max = (char *)host + size;
}

bool rig_getrange(struct vringh *vrh __attribute__((unused)), uint64_t addr,
		  struct vringh_range *r)
{
	if (addr < user_map.start || addr >= user_map.end)
		return false;
	r->start = user_map.slow ? addr : user_map.start;
	r->end_incl = user_map.slow ? addr : user_map.end - 1;
	r->offset = user_map.offset;
	return true;
}
