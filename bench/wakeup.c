// SPDX-License-Identifier: GPL-2.0
/*
 * bench/wakeup: what one round trip between two CPUs costs on this
 * machine, the floor under every notification the programs send.  Two
 * threads, pinned to the two allowed CPUs farthest apart (as vringh_test
 * --parallel and virtio_test pin theirs), hand a token back and forth:
 *
 *   cache line  each spins on a shared word until the other has changed
 *               it: two cache-line transfers a round trip, no system call
 *               (what a ring index costs when both sides poll)
 *   eventfd     each sleeps in read() on its eventfd until the other
 *               write()s it: two wake-ups and four system calls a round
 *               trip (virtio_test's kick and call, vringh_test's
 *               notifications)
 *   futex       each sleeps in FUTEX_WAIT on a shared word until the
 *               other changes it and calls FUTEX_WAKE
 *
 * Each is timed over --rounds rounds of --round-trips round trips, after
 * one round not timed; the line gives the median round's time per round
 * trip, and its lowest and highest.  A measurement, never a check: make
 * check asserts only the output's shape.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "harness/harness.h"

static struct {
	unsigned long round_trips;
	unsigned int rounds;
	bool json;
} opt = {
	.round_trips = 20000,
	.rounds = 7,
};

/* One way of handing the token over: the two sides of a round trip. */
struct method {
	const char *name, *key;
	void (*init)(void);
	void (*ping)(unsigned long i);	/* pass token i, wait for it back */
	void (*pong)(unsigned long i);	/* wait for token i, pass it back */
	void (*fini)(void);
};

/* The word the cache-line and futex methods share, alone in its line. */
static struct {
	uint32_t word;
} __attribute__((aligned(64))) line;

static int cpu_ping, cpu_pong;

static uint32_t load(void)
{
	return __atomic_load_n(&line.word, __ATOMIC_ACQUIRE);
}

static void store(uint32_t v)
{
	__atomic_store_n(&line.word, v, __ATOMIC_RELEASE);
}

/* Token i goes out as 2i + 1 and comes back as 2i + 2 (modulo 2^32). */
static void line_init(void)
{
	store(0);
}

static void spin_until(uint32_t v)
{
	while (load() != v) {
#if defined(__x86_64__) || defined(__i386__)
		__builtin_ia32_pause();
#else
		__asm__ __volatile__("" ::: "memory");
#endif
	}
}

static void line_ping(unsigned long i)
{
	store(2 * i + 1);
	spin_until(2 * i + 2);
}

static void line_pong(unsigned long i)
{
	spin_until(2 * i + 1);
	store(2 * i + 2);
}

static int efd_out, efd_back;

static void efd_init(void)
{
	efd_out = eventfd(0, EFD_CLOEXEC);
	efd_back = eventfd(0, EFD_CLOEXEC);
	if (efd_out < 0 || efd_back < 0)
		rig_die("eventfd");
}

static void efd_put(int fd)
{
	uint64_t one = 1;

	if (write(fd, &one, sizeof(one)) != sizeof(one))
		rig_die("eventfd write");
}

static void efd_take(int fd)
{
	uint64_t n;

	while (read(fd, &n, sizeof(n)) != sizeof(n))
		if (errno != EINTR)
			rig_die("eventfd read");
}

static void efd_ping(unsigned long i __attribute__((unused)))
{
	efd_put(efd_out);
	efd_take(efd_back);
}

static void efd_pong(unsigned long i __attribute__((unused)))
{
	efd_take(efd_out);
	efd_put(efd_back);
}

static void efd_fini(void)
{
	close(efd_out);
	close(efd_back);
}

static void futex_op(int op, uint32_t val)
{
	if (syscall(SYS_futex, &line.word, op | FUTEX_PRIVATE_FLAG, val,
		    NULL, NULL, 0) < 0 && errno != EAGAIN && errno != EINTR)
		rig_die("futex");
}

/* Sleep while the word still holds @was, the value before the handover. */
static void futex_until(uint32_t was, uint32_t v)
{
	while (load() != v)
		futex_op(FUTEX_WAIT, was);
}

static void futex_ping(unsigned long i)
{
	store(2 * i + 1);
	futex_op(FUTEX_WAKE, 1);
	futex_until(2 * i + 1, 2 * i + 2);
}

static void futex_pong(unsigned long i)
{
	futex_until(2 * i, 2 * i + 1);
	store(2 * i + 2);
	futex_op(FUTEX_WAKE, 1);
}

static const struct method methods[] = {
	{ "cache line", "cache_line_ns", line_init, line_ping, line_pong, NULL },
	{ "eventfd", "eventfd_ns", efd_init, efd_ping, efd_pong, efd_fini },
	{ "futex", "futex_ns", line_init, futex_ping, futex_pong, NULL },
};

/* The far side: every round's round trips, the untimed one included. */
static void *pong_thread(void *arg)
{
	const struct method *m = arg;
	unsigned long i, n = (opt.rounds + 1UL) * opt.round_trips;

	rig_pin_thread(cpu_pong);
	for (i = 0; i < n; i++)
		m->pong(i);
	return NULL;
}

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Per round trip: the median round's (@out[0]), the lowest, the highest. */
static void measure(const struct method *m, double out[3])
{
	double ns[opt.rounds], t;
	unsigned long i = 0, end;
	unsigned int r;
	pthread_t pong;

	m->init();
	rig_thread_create(&pong, pong_thread, (void *)m);
	for (r = 0; r <= opt.rounds; r++) {
		t = now_ns();
		for (end = i + opt.round_trips; i < end; i++)
			m->ping(i);
		if (r)		/* round 0 warms both CPUs up */
			ns[r - 1] = (now_ns() - t) / opt.round_trips;
	}
	pthread_join(pong, NULL);
	if (m->fini)
		m->fini();
	qsort(ns, opt.rounds, sizeof(ns[0]), cmp_double);
	out[0] = opt.rounds % 2 ? ns[opt.rounds / 2] :
		 (ns[opt.rounds / 2 - 1] + ns[opt.rounds / 2]) / 2;
	out[1] = ns[0];
	out[2] = ns[opt.rounds - 1];
}

static void usage(void)
{
	printf(
"Usage: bench/wakeup [-h|--help] [--version] [--round-trips=N] [--rounds=N]\n"
"                    [--json]\n"
"\n"
"What one round trip between two CPUs costs: two threads pinned to the two\n"
"allowed CPUs farthest apart hand a token back and forth, by a shared cache\n"
"line both spin on, by eventfds each sleeps on in read(), and by a futex.\n"
"One line each: the median round's nanoseconds per round trip, and the\n"
"lowest and highest round's.\n"
"\n"
"  --round-trips=N  round trips a round (default %lu)\n"
"  --rounds=N       timed rounds, after one that is not (default %u)\n"
"  --json           the figures as one JSON object on stdout instead\n"
"  --version        print how this binary was built\n"
"\n"
"Exit status: 0 done; 1 a run-time error; 2 usage error; 77 SKIP (fewer\n"
"than two CPUs allowed).\n",
		opt.round_trips, opt.rounds);
}

int main(int argc, char *argv[])
{
	enum { OPT_ROUND_TRIPS = 256, OPT_ROUNDS };
	static const struct option longopts[] = {
		RIG_HELP_OPTION,
		RIG_VERSION_OPTION,
		RIG_JSON_OPTION,
		{ "round-trips", required_argument, NULL, OPT_ROUND_TRIPS },
		{ "rounds", required_argument, NULL, OPT_ROUNDS },
		{ }
	};
	static const struct rig_number_opt numbers[] = {
		RIG_NUMBER_OPT(OPT_ROUND_TRIPS, opt.round_trips, 1, 1UL << 30),
		RIG_NUMBER_OPT(OPT_ROUNDS, opt.rounds, 1, 1000),
	};
	static const struct rig_getopt common = {
		.prog = "bench/wakeup", .usage = usage, .json = &opt.json,
		.numbers = numbers, .nnumbers = ARRAY_SIZE(numbers), .no_operands = true,
	};
	double figs[ARRAY_SIZE(methods)][3];
	unsigned int m;

	/* Its messages name it as it is run from the top folder. */
	program_invocation_short_name = "bench/wakeup";
	while (rig_getopt(argc, argv, longopts, &common) != -1)
		rig_usage_hint();
	if (rig_pick_two_cpus(&cpu_ping, &cpu_pong) < 2)
		rig_skip("needs two CPUs; this process may run on CPU %s only",
			 rig_cpus_allowed_list());
	rig_pin_thread(cpu_ping);

	for (m = 0; m < ARRAY_SIZE(methods); m++)
		measure(&methods[m], figs[m]);

	if (opt.json) {
		rig_json_begin("bench/wakeup");
		rig_json_num("cpu_ping", "%d", cpu_ping);
		rig_json_num("cpu_pong", "%d", cpu_pong);
		rig_json_num("round_trips", "%lu", opt.round_trips);
		rig_json_num("rounds", "%u", opt.rounds);
		for (m = 0; m < ARRAY_SIZE(methods); m++)
			rig_json_num(methods[m].key, "%.0f", figs[m][0]);
		rig_json_end();
		return RIG_EXIT_OK;
	}
	printf("CPUs %d and %d, %u rounds of %lu round trips\n", cpu_ping,
	       cpu_pong, opt.rounds, opt.round_trips);
	for (m = 0; m < ARRAY_SIZE(methods); m++)
		printf("%s round trip: %.0f ns (rounds %.0f to %.0f)\n",
		       methods[m].name, figs[m][0], figs[m][1], figs[m][2]);
	return RIG_EXIT_OK;
}
