// SPDX-License-Identifier: GPL-2.0
/*
 * Notification channels (eventfds) whose waiter spins first, for as long
 * as a wake-up costs here: see chan.h.
 *
 * A signal sets @pending and writes the eventfd only when the waiter is
 * asleep (or may be about to be: @asleep is set before its last look at
 * @pending, and the signaller looks at @asleep after setting @pending, both
 * with full barriers, so one of them sees the other).  Both can happen: the
 * eventfd then holds a count for a signal already taken, and the next wait
 * that reads it finds nothing pending and sleeps again.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "harness/chan.h"
#include "harness/outcome.h"

unsigned long long rig_now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000ULL + t.tv_nsec;
}

void rig_chan_init(struct rig_chan *c)
{
	c->fd = eventfd(0, EFD_CLOEXEC);
	if (c->fd < 0)
		rig_die("eventfd");
	c->signalled = 0;
	c->woken = 0;
	c->slept = 0;
	c->raw = false;
	c->spin_max_ns = RIG_SPIN_MAX_NS;
	c->peer = NULL;
	c->pending = 0;
	c->asleep = 0;
	c->signal_ns = 0;
	c->wake_ns = 0;
}

void rig_chan_destroy(struct rig_chan *c)
{
	close(c->fd);
	c->fd = -1;
}

static void chan_write(struct rig_chan *c)
{
	uint64_t one = 1;

	if (write(c->fd, &one, sizeof(one)) != sizeof(one))
		rig_die("eventfd write");
}

void rig_chan_wake(struct rig_chan *c)
{
	__atomic_store_n(&c->pending, 1, __ATOMIC_SEQ_CST);
	chan_write(c);
}

void rig_chan_signal(struct rig_chan *c)
{
	c->signalled++;
	if (c->raw) {
		chan_write(c);
		return;
	}
	__atomic_store_n(&c->pending, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&c->asleep, __ATOMIC_SEQ_CST)) {
		__atomic_store_n(&c->signal_ns, rig_now_ns(), __ATOMIC_RELAXED);
		chan_write(c);
	}
}

/* Take a pending signal, if there is one. */
static bool chan_take(struct rig_chan *c)
{
	return c->raw ? false : __atomic_exchange_n(&c->pending, 0, __ATOMIC_ACQUIRE);
}

/*
 * The waiter ran again at @now after going to sleep at @from: when the
 * last signal was written after that, @now less that signal's time is
 * what the wake-up took, which goes into the running mean (weight 1/8).
 */
static void chan_timed(struct rig_chan *c, unsigned long long from,
		       unsigned long long now)
{
	unsigned long long sent = __atomic_load_n(&c->signal_ns, __ATOMIC_RELAXED);

	if (sent <= from || sent > now)
		return;		/* written before it slept: no wake-up */
	c->slept++;
	if (c->wake_ns)
		c->wake_ns = c->wake_ns - c->wake_ns / 8 + (now - sent) / 8;
	else
		c->wake_ns = now - sent;
}

/* A spinning CPU's hint that it spins (x86's PAUSE). */
static inline void spin_hint(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

/* Spin for a pending signal, for as long as a wake-up costs; taken? */
static bool chan_spin(struct rig_chan *c)
{
	unsigned long long end;

	if (c->raw)
		return false;
	if (chan_take(c))
		return true;
	end = rig_now_ns() + rig_chan_spin_ns(c);
	while (rig_now_ns() < end) {
		if (__atomic_load_n(&c->pending, __ATOMIC_RELAXED) && chan_take(c))
			return true;
		if (c->peer && __atomic_load_n(&c->peer->asleep, __ATOMIC_RELAXED))
			break;		/* the signaller waits too */
		spin_hint();
	}
	return false;
}

/*
 * Sleep on the eventfd until a signal is taken: blocking read() when
 * @timeout_ms is negative, else poll() for at most that long (false when
 * it timed out, or Ctrl-C came: rig_interrupted).
 */
static bool chan_sleep(struct rig_chan *c, int timeout_ms)
{
	struct pollfd p = { .fd = c->fd, .events = POLLIN };
	uint64_t count;

	for (;;) {
		unsigned long long from = rig_now_ns();
		int n;

		if (!c->raw) {
			__atomic_store_n(&c->asleep, 1, __ATOMIC_SEQ_CST);
			if (chan_take(c)) {
				__atomic_store_n(&c->asleep, 0, __ATOMIC_RELAXED);
				return true;
			}
		}
		if (timeout_ms >= 0) {
			do
				n = poll(&p, 1, timeout_ms);
			while (n < 0 && errno == EINTR && !rig_interrupted);
			if (n <= 0) {
				__atomic_store_n(&c->asleep, 0, __ATOMIC_RELAXED);
				if (n < 0 && errno != EINTR)
					rig_die("poll");
				return false;	/* timed out, or Ctrl-C */
			}
		}
		while (read(c->fd, &count, sizeof(count)) != sizeof(count))
			if (errno != EINTR)
				rig_die("eventfd read");
		__atomic_store_n(&c->asleep, 0, __ATOMIC_RELAXED);
		chan_timed(c, from, rig_now_ns());
		if (c->raw || chan_take(c))
			return true;
		/* A count for a signal already taken: sleep again. */
	}
}

void rig_chan_wait(struct rig_chan *c)
{
	if (!chan_spin(c))
		chan_sleep(c, -1);
	c->woken++;
}

bool rig_chan_wait_timeout(struct rig_chan *c, int timeout_ms)
{
	if (!chan_spin(c) && !chan_sleep(c, timeout_ms))
		return false;
	c->woken++;
	return true;
}

unsigned long long rig_chan_spin_ns(const struct rig_chan *c)
{
	return c->wake_ns < c->spin_max_ns ? c->wake_ns : c->spin_max_ns;
}
