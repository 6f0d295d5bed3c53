// SPDX-License-Identifier: GPL-2.0
/*
 * virtio_test: the driver's virtio_ring.c against a device built on vringh.c.
 *
 * The kernel's tools/virtio/virtio_test drives an in-kernel vhost device
 * through /dev/vhost-test.  Here the device is a thread of this process,
 * shaped like vhost's worker: it sleeps on the kick eventfd while the ring is
 * empty, re-checks after re-enabling notifications, checks the bytes of
 * every buffer and signals the call eventfd when vringh says the driver
 * wants it.  The driver (the main thread) adds buffers, kicks, and waits for
 * calls with poll().  Each side is pinned to its own CPU.
 *
 * Both are threads of one process, so the device uses the vringh _kern
 * accessors on the driver's ring and buffers directly: descriptor addresses
 * are plain pointers.
 *
 * Queue reset (--reset): the device thread is stopped and joined, unused
 * buffers are detached and the queue is deleted and created afresh.  A new
 * vring_new_virtqueue() starts at avail/used index 0 on zeroed ring memory,
 * so the device's vringh is re-initialised at index 0 too (what the kernel's
 * test does with VHOST_SET_VRING_BASE 0).  What carries on is the device's
 * place in the stream of buffers: it expects buffer number dev.done next, and
 * the driver re-adds the detached buffers under the same numbers.  Each
 * reset checks that the device stopped between buffers, having returned
 * every buffer it took.
 *
 * --packed runs the same on a packed ring (VIRTIO_F_RING_PACKED, which
 * implies VIRTIO_F_VERSION_1).  The rig's driver builds it on our ring
 * memory (vring_new_virtqueue_packed(), a rig extension); a kernel tree's
 * driver allocates it in vring_create_virtqueue(), and the device finds
 * its parts with virtqueue_get_desc_addr() and friends.  The kernel's
 * vringh has no packed ring: with it, --packed is a SKIP (exit 77).
 *
 * --in-order negotiates VIRTIO_F_IN_ORDER: the device checks each buffer as
 * it takes it but returns them in batches, one used entry each
 * (vringh_complete_batch_kern()), whenever it finds the ring empty, holds
 * N buffers (--in-order=N) or is told to stop.  The buffers are all
 * device-readable, so the driver gives each back with length 0 whether its
 * used entry was written or skipped.  The kernel's vringh has no batches
 * and its virtio_ring drops the feature: with either, a SKIP.
 *
 * --vhost replaces the device thread with the kernel's vhost core and its
 * test device (drivers/vhost/vhost.c and test.c from a kernel tree, built
 * with KSRC=; kernel/vhost_core.h), set up as the kernel's own
 * virtio_test sets up /dev/vhost-test: the ring and the buffers live in
 * the one region of the device's memory table, the kick and call
 * eventfds are the same two, and a reset stops the queue
 * (VHOST_TEST_SET_BACKEND -1), re-creates it and restarts the device at
 * avail index 0.  The test device checks that each buffer is one
 * readable part of some bytes, not its contents; the kernel's vhost
 * worker is a thread of its own, pinned to the device's CPU as the device
 * thread is (so is the thread that turns a kick into the worker's wake-up),
 * and the program says so on stderr.  --vhost=batch, and --vhost with
 * --in-order, put the rig's own device on the same core instead
 * (kernel/vhost_batch.c, where the tree's core has the in-order path): it
 * offers VIRTIO_F_IN_ORDER and returns what it takes in batches with
 * vhost_add_used_n(), in order one used entry for up to N buffers
 * (--in-order=N), so the core's in-order code runs.  What the device does
 * not offer (VHOST_GET_FEATURES: no packed ring; test.c no
 * VIRTIO_F_IN_ORDER) is a SKIP, and so is --device-bug: neither device
 * has a bug to plant.  Without a kernel tree --vhost is a SKIP.
 *
 * --device-bug spoils one buffer halfway (a used id out of range, or a used
 * length past the buffer).  The driver must break the queue: then the
 * program says so and exits 3 (EXIT_BUG_CAUGHT), told apart from a real
 * failure (1), which an unnoticed bug also gives.  Ctrl-C stops the run and
 * prints the counts so far (exit 130); progress goes to stderr while it is
 * a terminal.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/virtio.h>
#include <linux/virtio_config.h>
#include <linux/virtio_ring.h>
#include <linux/vringh.h>

#include "harness/harness.h"
#include "harness/mockdev.h"
#include "kernel/vhost_core.h"

#ifdef vringh_init_packed_user
#define HAVE_PACKED_HOST	1
#else
#define HAVE_PACKED_HOST	0
#endif
#ifdef vringh_complete_batch_kern
#define HAVE_IN_ORDER_HOST	1
#else
#define HAVE_IN_ORDER_HOST	0
#endif

#define RING_SIZE	256
#define BUF_LEN		1024
#define BUF_WORDS	(BUF_LEN / sizeof(u64))
#define DEFAULT_BUFS	0x100000UL
#define CALL_TIMEOUT_MS	10000	/* no call for this long: a lost notification */
/* --vhost: the device's memory (ring, buffers, the driver's allocations). */
#define VHOST_MEM_BYTES	(4UL << 20)
/* --device-bug: the device's bug was caught, as it must be. */
#define EXIT_BUG_CAUGHT	3

enum device_bug { BUG_NONE, BUG_WRONG_ID, BUG_LONG_LEN };
static const char *const device_bug_name[] = {
	[BUG_WRONG_ID] = "wrong-id", [BUG_LONG_LEN] = "long-len",
};

static struct {
	u64 features;
	int delayed;		/* int: getopt_long sets the flag options */
	bool packed;
	bool in_order;
	unsigned long used_batch; /* --in-order=N: most buffers per used entry */
	unsigned long batch;	/* 0: random, 1..RING_SIZE per round */
	unsigned long reset;	/* 0: never */
	unsigned long bufs;
	enum device_bug bug;
	bool vhost;
	int vhost_device;	/* enum vhost_core_device; -1: by --in-order */
	bool json;
} opt = {
	.features = 1ULL << VIRTIO_RING_F_INDIRECT_DESC |
		    1ULL << VIRTIO_RING_F_EVENT_IDX |
		    1ULL << VIRTIO_F_VERSION_1,
	.batch = 1,
	.used_batch = RING_SIZE,
	.bufs = DEFAULT_BUFS,
	.vhost_device = -1,
};

static const char *const vhost_device_name[] = VHOST_CORE_DEVICE_NAMES;

static struct rig_chan kick, call;

/* Ring memory and buffers: buffer n lives in slot n % RING_SIZE. */
static void *ring;
static u64 *slots;

static u64 *slot(unsigned long n)
{
	return slots + (n % RING_SIZE) * BUF_WORDS;
}

/* Word @i of buffer @n: no two buffers (and no two words) look alike. */
static u64 pattern(unsigned long n, unsigned int i)
{
	return ((u64)n << 7 | i) * 0x9e3779b97f4a7c15ULL;
}

/* The driver (its code is below the device's). */
static struct {
	struct virtio_device vdev;
	struct rig_queue q;
	struct virtqueue *vq;		/* q.vq */
	unsigned long started, completed, next_reset;
	unsigned long long spurious;
	u64 random;
	char why[160];		/* why the driver broke the queue */
} drv = { .random = 0x5eed5eed5eed5eedULL };

/*
 * The device.
 */
static struct {
	pthread_t thread;
	bool running;
	int cpu;
	struct vringh vrh;
	unsigned long done;	/* buffers used */
	unsigned long held;	/* in order: checked, not yet used (done + held:
				   the next buffer's number) */
	u16 held_head;		/* in order: the last held buffer's head */
	unsigned long ring_base; /* @done when this ring was set up */
	unsigned long bug_at;	/* the buffer --device-bug spoils */
	int stop;		/* set by the driver */
	int failed;		/* set by the device before it gives up */
	/* --vhost: the kernel's vhost core is the device */
	struct vhost_core *core;
	bool core_started;	/* once: VHOST_TEST_RUN; then restarts */
	u16 last_avail;		/* its avail index when it last stopped */
} dev;

static void __attribute__((format(printf, 1, 2))) device_fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "virtio_test: device: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	__atomic_store_n(&dev.failed, 1, __ATOMIC_RELEASE);
	rig_chan_signal(&call);		/* don't leave the driver waiting */
}

#if HAVE_PACKED_HOST
/*
 * --device-bug=wrong-id on a packed ring: vringh refuses to complete an
 * id it did not hand out, so the mock device (harness/mockdev.h) writes the broken
 * used descriptor, at the used offset vringh would write next (struct
 * vringh's public state).
 */
static void device_bad_used_packed(void)
{
	struct mockdev liar;

	mockdev_init(&liar, &drv.vdev, &drv.q.ring);
	mockdev_write_used_packed(&liar, dev.vrh.last_used_idx, RING_SIZE + 1, 0,
				  mockdev_used_flags(dev.vrh.used_wrap_counter, 0));
}

/* After a stop: each buffer took one descriptor, and all came back. */
static void device_check_stopped_packed(u16 taken)
{
	const struct vringh *v = &dev.vrh;
	bool lap = !((taken / RING_SIZE) & 1);

	CHECKF(v->last_avail_idx == taken % RING_SIZE &&
	       v->last_used_idx == taken % RING_SIZE &&
	       v->avail_wrap_counter == lap && v->used_wrap_counter == lap,
	       "device stopped at avail %u/%u used %u/%u, expected %u/%u",
	       v->last_avail_idx, v->avail_wrap_counter, v->last_used_idx,
	       v->used_wrap_counter, taken % RING_SIZE, lap);
}
#else
/* A kernel tree's vringh has no packed ring: main() said SKIP already. */
static void device_bad_used_packed(void)
{
}

static void device_check_stopped_packed(u16 taken __attribute__((unused)))
{
}
#endif

/* Tell the driver about used buffers if it wants; false on error. */
static bool device_notify(void)
{
	int err = vringh_need_notify_kern(&dev.vrh);

	if (err < 0) {
		device_fail("vringh_need_notify_kern: %d", err);
		return false;
	}
	if (err)
		rig_chan_signal(&call);
	return true;
}

/* In order: return the buffers held with one used entry (length @len). */
static bool device_flush(u16 head __attribute__((unused)), u32 len __attribute__((unused)))
{
	int err;

	if (!dev.held)
		return true;
#if HAVE_IN_ORDER_HOST
	err = vringh_complete_batch_kern(&dev.vrh, head, len, dev.held);
#else
	err = -ENOSYS;		/* main() said SKIP already */
#endif
	if (err) {
		device_fail("vringh_complete_batch_kern(head %u, %lu buffers): %d",
			    head, dev.held, err);
		return false;
	}
	dev.done += dev.held;
	dev.held = 0;
	return device_notify();
}

/* Check one buffer and return it; false if the device must give up. */
static bool device_use(struct vringh_kiov *riov, struct vringh_kiov *wiov,
		       u16 head)
{
	unsigned long n = dev.done + dev.held;
	u64 data[BUF_WORDS];
	unsigned int i;
	u32 len = 0;
	int err;

	if (wiov->used || vringh_kiov_length(riov) != BUF_LEN) {
		device_fail("buffer 0x%lx: %zu readable bytes and %u writable parts, expected %d and none",
			    n, vringh_kiov_length(riov), wiov->used, BUF_LEN);
		return false;
	}
	if (rig_kiov_pull(riov, data, BUF_LEN) != BUF_LEN) {
		device_fail("buffer 0x%lx: short pull", n);
		return false;
	}
	for (i = 0; i < BUF_WORDS; i++) {
		if (data[i] != pattern(n, i)) {
			device_fail("buffer 0x%lx: word %u is 0x%llx, expected 0x%llx",
				    n, i, (unsigned long long)data[i],
				    (unsigned long long)pattern(n, i));
			return false;
		}
	}

	if (n == dev.bug_at && opt.bug == BUG_WRONG_ID) {
		if (opt.packed) {
			/* A broken device stops after the damage. */
			device_bad_used_packed();
			rig_chan_signal(&call);
			return false;
		}
		if (opt.in_order) {
			/*
			 * A batch that claims to end with the next buffer's
			 * head (in flight or not: either breaks the queue),
			 * and the device stops there.
			 */
			dev.held++;
			device_flush((head + 1) % dev.vrh.vring.num, 0);
			rig_chan_signal(&call);
			return false;
		}
		head = dev.vrh.vring.num + 1;
	}
	if (n == dev.bug_at && opt.bug == BUG_LONG_LEN)
		len = BUF_LEN + 1;
	if (opt.in_order) {
		dev.held++;
		dev.held_head = head;
		/* A spoilt length goes out at once, as its batch's last. */
		if (dev.held == opt.used_batch || len)
			return device_flush(head, len);
		return true;
	}
	err = vringh_complete_kern(&dev.vrh, head, len);
	if (err) {
		device_fail("vringh_complete_kern: %d", err);
		return false;
	}
	dev.done++;
	return device_notify();
}

static bool device_stopping(void)
{
	return __atomic_load_n(&dev.stop, __ATOMIC_ACQUIRE);
}

/* vhost's worker loop: work until the ring is empty, then sleep on kicks. */
static void *device_thread(void *arg __attribute__((unused)))
{
	struct kvec rk[2], wk[2];
	struct vringh_kiov riov, wiov;

	rig_pin_thread(dev.cpu);
	vringh_kiov_init(&riov, rk, ARRAY_SIZE(rk));
	vringh_kiov_init(&wiov, wk, ARRAY_SIZE(wk));
	vringh_notify_disable_kern(&dev.vrh);

	for (;;) {
		u16 head;
		int err;

		if (device_stopping()) {
			/* In order: return what is held before stopping. */
			device_flush(dev.held_head, 0);
			break;
		}
		err = vringh_getdesc_kern(&dev.vrh, &riov, &wiov, &head, GFP_KERNEL);
		if (err < 0) {
			device_fail("vringh_getdesc_kern: %d", err);
			break;
		}
		if (err == 0) {
			/* In order: the ring is empty, return what is held. */
			if (!device_flush(dev.held_head, 0))
				break;
			/* Buffers arrived while notifications were off? */
			if (!vringh_notify_enable_kern(&dev.vrh)) {
				vringh_notify_disable_kern(&dev.vrh);
				continue;
			}
			rig_chan_wait(&kick);
			vringh_notify_disable_kern(&dev.vrh);
			continue;
		}
		if (!device_use(&riov, &wiov, head))
			break;
	}
	vringh_kiov_cleanup(&riov);
	vringh_kiov_cleanup(&wiov);
	return NULL;
}

static void __attribute__((noreturn, format(printf, 1, 2))) fail(const char *fmt, ...);

/* --vhost: start the kernel's vhost core on the (new) ring. */
static void vhost_device_start(void)
{
	const struct vring *vr = &drv.q.ring.vring;
	const char *what = "";
	int err;

	if (!dev.core_started)
		err = vhost_core_start(dev.core, opt.features, RING_SIZE, vr->desc,
				       vr->avail, vr->used, kick.fd, call.fd, &what);
	else
		err = vhost_core_restart(dev.core, 0, &what);
	if (err)
		fail("--vhost: %s: %d", what, err);
	dev.core_started = true;
	dev.ring_base = dev.done;
	dev.running = true;
}

/*
 * --vhost: stop the core between buffers.  What it used is read off the
 * ring: the used index counts buffers modulo 2^16 since the ring was
 * made, and the device holds at most RING_SIZE of those started.
 */
static void vhost_device_stop(void)
{
	const char *what = "";
	u16 used;
	int err;

	dev.running = false;
	err = vhost_core_stop(dev.core, &dev.last_avail, &what);
	if (err)
		fail("--vhost: %s: %d", what, err);
	used = virtio16_to_cpu(&drv.vdev, READ_ONCE(drv.q.ring.vring.used->idx));
	dev.done = drv.started - (u16)((u16)(drv.started - dev.ring_base) - used);
}

/* Start the device on a freshly created ring: its indices start at 0. */
static void device_start(void)
{
	if (opt.vhost) {
		vhost_device_start();
		return;
	}
	/* Device and driver share this process: the driver's view will do. */
	CHECK(rig_vringh_init_kern(&dev.vrh, opt.features, &drv.q.ring) == 0);
	dev.ring_base = dev.done;
	dev.stop = 0;
	rig_thread_create(&dev.thread, device_thread, NULL);
	dev.running = true;
}

/* Stop the device between two buffers and wait until it has. */
static void device_stop(void)
{
	if (!dev.running)
		return;
	if (opt.vhost) {
		vhost_device_stop();
		return;
	}
	__atomic_store_n(&dev.stop, 1, __ATOMIC_RELEASE);
	rig_chan_signal(&kick);
	pthread_join(dev.thread, NULL);
	dev.running = false;
	rig_vringh_cleanup(&dev.vrh, &drv.q.ring);
}

static bool notify_device(struct virtqueue *vq __attribute__((unused)))
{
	rig_chan_signal(&kick);
	return true;
}

static void vq_callback(struct virtqueue *vq __attribute__((unused)))
{
}

/* A queue on zeroed ring memory (packed, from a kernel driver: its own). */
static void queue_create(void)
{
	rig_queue_make(&drv.q, &drv.vdev, RING_SIZE, ring, false,
		       notify_device, vq_callback, "test");
	drv.vq = drv.q.vq;
}

/* Stop everything and exit with a message. */
static void __attribute__((noreturn, format(printf, 1, 2))) fail(const char *fmt, ...)
{
	va_list ap;

	device_stop();
	fprintf(stderr, "virtio_test: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (started=0x%lx completed=0x%lx)\n",
		drv.started, drv.completed);
	exit(1);
}

/*
 * The queue is broken.  With --device-bug that is the bug caught, as it
 * must be: say by whom (the ring code, or this program's own check of what
 * the ring code let through: drv.why) and exit EXIT_BUG_CAUGHT; without,
 * a failure.
 */
static void __attribute__((noreturn)) queue_broken(void)
{
	const char *why = drv.why[0] ? drv.why :
			  "the ring code refused what the device returned (see above)";

	if (!opt.bug)
		fail("queue broken: %s", why);
	device_stop();
	fprintf(stderr, "virtio_test: queue broken: %s (started=0x%lx completed=0x%lx)\n",
		why, drv.started, drv.completed);
	if (drv.why[0])
		fprintf(stderr, "virtio_test: virtio_test's own check caught the device's bug; the driver's ring code (%s) let it through (exit %d)\n",
			rig_guest_impl(), EXIT_BUG_CAUGHT);
	else
		fprintf(stderr, "virtio_test: the driver's ring code (%s) caught the device's bug (exit %d)\n",
			rig_guest_impl(), EXIT_BUG_CAUGHT);
	exit(EXIT_BUG_CAUGHT);
}

static void check_health(void)
{
	if (virtqueue_is_broken(drv.vq))
		queue_broken();
	if (__atomic_load_n(&dev.failed, __ATOMIC_ACQUIRE))
		fail("the device gave up (see above)");
	if (opt.vhost && vhost_core_failed(dev.core))
		fail("the vhost core signalled its error eventfd (vq_err())");
}

/* xorshift64: the same "random" batches on every run. */
static unsigned long next_random(void)
{
	drv.random ^= drv.random << 13;
	drv.random ^= drv.random >> 7;
	drv.random ^= drv.random << 17;
	return drv.random;
}

/* Add and kick buffers up to this round's batch; how many were added. */
static unsigned long add_bufs(void)
{
	unsigned long batch = opt.batch ? opt.batch : 1 + next_random() % RING_SIZE;
	unsigned long added = 0;

	while (drv.started < opt.bufs && drv.started - drv.completed < batch &&
	       drv.started - drv.completed < RING_SIZE) {
		u64 *buf = slot(drv.started);
		struct scatterlist sg;
		unsigned int i;
		int err;

		for (i = 0; i < BUF_WORDS; i++)
			buf[i] = pattern(drv.started, i);
		sg_init_one(&sg, buf, BUF_LEN);
		err = virtqueue_add_outbuf(drv.vq, &sg, 1, buf, GFP_ATOMIC);
		if (err == -ENOSPC || (err && virtqueue_is_broken(drv.vq)))
			break;
		CHECKF(err == 0, "virtqueue_add_outbuf: %d", err);
		drv.started++;
		added++;
		if (!virtqueue_kick(drv.vq))
			break;		/* only a broken queue refuses */
	}
	return added;
}

/* Take back what the device used; how many buffers that was. */
static unsigned long collect(void)
{
	unsigned long got = 0;
	unsigned int len;

	while (rig_queue_next_used(drv.vq, &len, slot(drv.completed), "buffer", drv.completed)) {
		/* The ring code may not check this: a careful driver does. */
		if (len) {
			snprintf(drv.why, sizeof(drv.why),
				 "the device used buffer 0x%lx with length %u, but it had no writable bytes",
				 drv.completed, len);
			__virtqueue_break(drv.vq);
			break;
		}
		drv.completed++;
		got++;
	}
	return got;
}

/*
 * Queue reset: stop the device, take back every buffer, delete and recreate
 * the queue, restart the device on the new ring.
 */
static void reset_queue(void)
{
	unsigned long detached = 0;
	u16 taken;
	void *token;

	device_stop();
	collect();
	check_health();
	while ((token = virtqueue_detach_unused_buf(drv.vq)) != NULL) {
		CHECK((u64 *)token >= slots &&
		      (u64 *)token < slots + RING_SIZE * BUF_WORDS);
		detached++;
	}
	CHECKF(detached == drv.started - drv.completed,
	       "detached %lu buffers, but %lu were outstanding",
	       detached, drv.started - drv.completed);

	/* The device returned each buffer it took before it stopped. */
	taken = dev.done - dev.ring_base;
	CHECKF(dev.done == drv.completed, "device used 0x%lx buffers, driver got 0x%lx",
	       dev.done, drv.completed);
	if (opt.packed) {
		device_check_stopped_packed(taken);
	} else {
		u16 used = virtio16_to_cpu(&drv.vdev,
					   READ_ONCE(drv.q.ring.vring.used->idx));

		u16 avail = opt.vhost ? dev.last_avail : dev.vrh.last_avail_idx;

		CHECKF(avail == taken && used == taken,
		       "device stopped at avail %u used %u, expected %u",
		       avail, used, taken);
	}

	rig_queue_destroy(&drv.q);
	queue_create();
	virtqueue_disable_cb(drv.vq);	/* as it was: we are mid-pass */
	drv.started = drv.completed;	/* the detached ones go again */
	device_start();
	while (drv.completed > drv.next_reset)
		drv.next_reset += drv.completed;
}

/*
 * Sleep until the device calls, showing the progress meanwhile (each second):
 * a device thread kept off its CPU shows as a count that stands still.  No
 * call for CALL_TIMEOUT_MS fails, and says which: the device thread has
 * not taken the last kick (it has not run), or a notification was lost.
 */
static void wait_for_call(struct rig_progress *progress)
{
	int waited;

	for (waited = 0; waited < CALL_TIMEOUT_MS; waited += 500) {
		if (rig_chan_wait_timeout(&call, 500) || rig_interrupted)
			return;
		rig_progress_show(progress, drv.completed);
	}
	check_health();
	if (!kick.raw && __atomic_load_n(&kick.pending, __ATOMIC_ACQUIRE))
		fail("no call from the device for %d ms, and its thread has not taken the last kick: not scheduled on CPU %d?",
		     CALL_TIMEOUT_MS, dev.cpu);
	fail("no call from the device for %d ms with 0x%lx buffers outstanding: lost notification?",
	     CALL_TIMEOUT_MS, drv.started - drv.completed);
}

/*
 * The canonical receive loop: callbacks off, add and take back until a pass
 * moves nothing, callbacks on, and sleep only if nothing was used meanwhile.
 * (The kernel's loop spins instead while its batch is full, so it rarely
 * sleeps; this one exercises enable_cb and the call path every round.)
 */
static void run(void)
{
	struct rig_progress progress;

	rig_progress_init(&progress, "buffers", opt.bufs, true);
	while (!rig_interrupted) {
		unsigned long started_before = drv.started;
		unsigned long completed_before = drv.completed;
		bool moved;

		virtqueue_disable_cb(drv.vq);
		do {
			if (opt.reset && drv.completed > drv.next_reset)
				reset_queue();
			moved = add_bufs() != 0;
			moved |= collect() != 0;
			check_health();
		} while (moved);

		if (drv.started == started_before && drv.completed == completed_before)
			drv.spurious++;
		if (drv.completed == opt.bufs)
			break;
		rig_progress_show(&progress, drv.completed);
		if (opt.delayed ? virtqueue_enable_cb_delayed(drv.vq) :
				  virtqueue_enable_cb(drv.vq))
			wait_for_call(&progress);
	}
	rig_progress_end(&progress);
}

static void usage(void)
{
	printf(
"Usage: virtio_test [-h|--help] [--version] [--[no-]indirect] [--[no-]event-idx]\n"
"                   [--[no-]virtio-1] [--[no-]delayed-interrupt] [--batch=random/N]\n"
"                   [--reset[=N]] [--buf-num=N] [--device-bug=wrong-id/long-len]\n"
"                   [--packed] [--in-order[=N]] [--vhost[=test/batch]] [--json]\n"
"\n"
"Pass N buffers (default 0x%lx) of one %d-byte out sg each from the driver\n"
"(virtio_ring) to a device thread (vringh) through one %d-entry queue, and\n"
"check every byte.  Prints the spurious wakeups and buffer counts on stderr;\n"
"progress goes to stderr while it is a terminal, and Ctrl-C stops the run\n"
"and prints the counts so far.\n"
"\n"
"  --[no-]indirect           VIRTIO_RING_F_INDIRECT_DESC (default on)\n"
"  --[no-]event-idx          VIRTIO_RING_F_EVENT_IDX (default on)\n"
"  --[no-]virtio-1           VIRTIO_F_VERSION_1 (default on)\n"
"  --packed                  a packed ring (VIRTIO_F_RING_PACKED; needs virtio-1)\n"
"  --in-order[=N]            VIRTIO_F_IN_ORDER: the device returns buffers in\n"
"                            batches, one used entry each, when it finds the\n"
"                            ring empty or holds N (default %d)\n"
"  --[no-]delayed-interrupt  virtqueue_enable_cb_delayed, not virtqueue_enable_cb\n"
"  --batch=N, --batch=random most buffers outstanding per round (default 1;\n"
"                            random: 1..%d each round)\n"
"  --reset[=N]               reset the queue once more than N (default 1) buffers\n"
"                            completed, then at roughly doubling counts\n"
"  --buf-num=N               buffers to pass\n"
"  --device-bug=BUG          the device spoils one buffer midway: wrong-id (used id\n"
"                            out of range) or long-len (used length past the buffer)\n"
"  --vhost[=DEVICE]          the device is the kernel's vhost core, from the\n"
"                            kernel tree this was built with (KSRC=), with\n"
"                            its test device (test: drivers/vhost/test.c) or\n"
"                            the rig's (batch: kernel/vhost_batch.c, which\n"
"                            offers IN_ORDER and batches used entries);\n"
"                            default: batch with --in-order, else test\n"
"  --json                    also print the result as one JSON object on\n"
"                            stdout (ab/README: fields)\n"
"  --version                 print how this binary was built\n"
"\n"
"Exit status: 0 every buffer passed and checked; 1 a check failed; 2 usage\n"
"error; 3 (--device-bug) the device's bug was caught, as it must be (the\n"
"last line says by whom: the ring code, or this program's own check);\n"
"77 SKIP (the linked ring code lacks the feature); 130 interrupted.\n",
		DEFAULT_BUFS, BUF_LEN, RING_SIZE, RING_SIZE, RING_SIZE);
}

static void parse_options(int argc, char *argv[])
{
	enum {
		OPT_BATCH = 256, OPT_RESET, OPT_BUF_NUM, OPT_DEVICE_BUG, OPT_VHOST,
	};
	static const struct option longopts[] = {
		RIG_HELP_OPTION,
		RIG_DRIVER_OPTIONS(&opt.delayed),
		RIG_PACKED_OPTION,
		RIG_IN_ORDER_OPTION(optional_argument),
		{ "batch", required_argument, NULL, OPT_BATCH },
		{ "reset", optional_argument, NULL, OPT_RESET },
		{ "buf-num", required_argument, NULL, OPT_BUF_NUM },
		{ "device-bug", required_argument, NULL, OPT_DEVICE_BUG },
		RIG_VERSION_OPTION,
		RIG_JSON_OPTION,
		{ "vhost", optional_argument, NULL, OPT_VHOST },
		{ }
	};
	static const struct rig_number_opt numbers[] = {
		RIG_NUMBER_OPT(OPT_BUF_NUM, opt.bufs, 1, 1UL << 40),
	};
	static const struct rig_getopt common = {
		.prog = "virtio_test", .usage = usage, .features = &opt.features,
		.packed = &opt.packed, .in_order = &opt.in_order,
		.batch = &opt.used_batch, .batch_max = RING_SIZE, .json = &opt.json,
		.numbers = numbers, .nnumbers = ARRAY_SIZE(numbers), .no_operands = true,
	};
	int c, bug;

	while ((c = rig_getopt(argc, argv, longopts, &common)) != -1) {
		switch (c) {
		case OPT_BATCH:
			if (!strcmp(optarg, "random"))
				opt.batch = 0;
			else if (!rig_parse_ulong(optarg, 1, 1UL << 31, &opt.batch))
				rig_usage_error("bad --batch '%s': 'random' or a number in 1..2^31",
						optarg);
			break;
		case OPT_RESET:
			opt.reset = 1;
			if (optarg && !rig_parse_ulong(optarg, 1, 1UL << 40, &opt.reset))
				rig_usage_error("bad --reset '%s': a number in 1..2^40",
						optarg);
			break;
		case OPT_DEVICE_BUG:
			bug = rig_name_index(optarg, device_bug_name,
					     ARRAY_SIZE(device_bug_name));
			if (bug < 0)
				rig_usage_error("bad --device-bug '%s': wrong-id or long-len",
						optarg);
			opt.bug = bug;
			break;
		case OPT_VHOST:
			opt.vhost = true;
			if (!optarg)
				break;
			opt.vhost_device = rig_name_index(optarg, vhost_device_name,
							  ARRAY_SIZE(vhost_device_name));
			if (opt.vhost_device < 0)
				rig_usage_error("bad --vhost '%s': test or batch", optarg);
			break;
		default:	/* getopt has said what */
			rig_usage_hint();
		}
	}
	if (opt.packed) {
		/* Packed rings exist only in virtio 1.x. */
		if (!(opt.features & (1ULL << VIRTIO_F_VERSION_1)))
			rig_usage_error("--packed needs VIRTIO_F_VERSION_1 (drop --no-virtio-1)");
		if (!opt.vhost)
			rig_require_packed_host("--packed");
		opt.features |= 1ULL << VIRTIO_F_RING_PACKED;
	}
	if (opt.in_order) {
		rig_require_in_order("--in-order", !opt.vhost);
		opt.features |= 1ULL << VIRTIO_F_IN_ORDER;
	}
	/* The tree's test device has no IN_ORDER: the rig's device has. */
	if (opt.vhost_device < 0)
		opt.vhost_device = opt.in_order ? VHOST_CORE_BATCH : VHOST_CORE_TEST;
}

/*
 * --vhost: open the kernel's vhost test device; SKIP if there is none, or
 * it lacks what was asked for.
 */
static void vhost_open(int cpu_driver)
{
	const char *why, *what = "";
	u64 missing;
	int err;

	dev.core = vhost_core_open(opt.vhost_device, VHOST_MEM_BYTES, dev.cpu, &why);
	if (!dev.core)
		rig_skip("--vhost=%s: %s", vhost_device_name[opt.vhost_device], why);
	fprintf(stderr, "virtio_test: --vhost=%s: the driver on CPU %d, the vhost worker on CPU %d\n",
		vhost_device_name[opt.vhost_device], cpu_driver, dev.cpu);
	missing = opt.features & ~vhost_core_features(dev.core);
	if (opt.bug || missing)
		vhost_core_close(dev.core);
	if (opt.bug && opt.vhost_device == VHOST_CORE_BATCH)
		rig_skip("--vhost=batch --device-bug: the rig's batch device (kernel/vhost_batch.c) has no bug to plant in it");
	if (opt.bug)
		rig_skip("--vhost --device-bug: the kernel's test device (drivers/vhost/test.c) is the tree's, unmodified: there is no bug to plant in it");
	if (missing & (1ULL << VIRTIO_F_RING_PACKED))
		rig_skip("--vhost --packed: the kernel's vhost core does not offer VIRTIO_F_RING_PACKED (VHOST_GET_FEATURES): it has no packed ring");
	if (missing & (1ULL << VIRTIO_F_IN_ORDER))
		rig_skip("--vhost=%s --in-order: the device does not offer VIRTIO_F_IN_ORDER (VHOST_GET_FEATURES): the tree's test device has none, --vhost=batch has",
			 vhost_device_name[opt.vhost_device]);
	if (missing)
		rig_skip("--vhost: the kernel's vhost core does not offer features 0x%llx (VHOST_GET_FEATURES)",
			 (unsigned long long)missing);
	/* In order: one used entry for at most --in-order=N buffers. */
	if (opt.in_order) {
		err = vhost_core_set_batch(dev.core, opt.used_batch, &what);
		if (err)
			fail("--vhost: %s: %d", what, err);
	}
}

/* --json: the counts of the stderr line, the options, the elapsed time. */
static void print_json(int cpu_driver, unsigned long long ns)
{
	rig_json_begin("virtio_test");
	rig_json_features(opt.features);
	rig_json_str("vhost", opt.vhost ? vhost_device_name[opt.vhost_device] : "none");
	rig_json_num("in_order_batch", "%lu", opt.in_order ? opt.used_batch : 0);
	rig_json_num("delayed_interrupt", "%s", opt.delayed ? "true" : "false");
	rig_json_num("batch", "%lu", opt.batch);	/* 0: random */
	rig_json_num("reset", "%lu", opt.reset);	/* 0: never */
	rig_json_num("cpu_driver", "%d", cpu_driver);
	rig_json_num("cpu_device", "%d", dev.cpu);
	rig_json_num("buffers", "%lu", opt.bufs);
	rig_json_num("started", "%lu", drv.started);
	rig_json_num("completed", "%lu", drv.completed);
	rig_json_num("spurious_wakeups", "%llu", drv.spurious);
	rig_json_num("ns", "%llu", ns);
	rig_json_end();
}

int main(int argc, char *argv[])
{
	struct timespec t0, t1;
	int cpu_driver;

	parse_options(argc, argv);
	rig_pick_two_cpus(&cpu_driver, &dev.cpu);
	rig_pin_thread(cpu_driver);

	if (opt.vhost) {
		vhost_open(cpu_driver);
		/* Page-aligned, in the device's memory, as is all the driver takes. */
		ring = vhost_core_alloc(dev.core, rig_ring_bytes(RING_SIZE, opt.packed));
		slots = vhost_core_alloc(dev.core, RING_SIZE * BUF_LEN);
		vhost_core_guest(dev.core, true);
	} else {
		ring = aligned_alloc(RIG_RING_ALIGN, rig_ring_bytes(RING_SIZE, opt.packed));
		slots = aligned_alloc(RIG_RING_ALIGN, RING_SIZE * BUF_LEN);
	}
	CHECK(ring && slots);
	rig_chan_init(&kick);
	rig_chan_init(&call);
	/* The kernel's vhost core reads kicks and writes calls itself. */
	kick.raw = call.raw = opt.vhost;

	rig_vdev_init(&drv.vdev, opt.features);
	drv.next_reset = opt.reset;
	dev.bug_at = opt.bug ? opt.bufs / 2 : ~0UL;

	rig_catch_interrupt();
	queue_create();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	device_start();
	run();
	device_stop();
	clock_gettime(CLOCK_MONOTONIC, &t1);

	if (rig_interrupted) {
		fprintf(stderr, "virtio_test: interrupted: spurious wakeups: 0x%llx started=0x%lx completed=0x%lx of 0x%lx\n",
			drv.spurious, drv.started, drv.completed, opt.bufs);
		exit(RIG_EXIT_INTERRUPTED);
	}
	if (opt.bug)
		fail("--device-bug: the driver took the spoilt buffer without complaint");
	CHECKF(drv.started == opt.bufs && drv.completed == opt.bufs && dev.done == opt.bufs,
	       "started 0x%lx, completed 0x%lx, device used 0x%lx of 0x%lx",
	       drv.started, drv.completed, dev.done, opt.bufs);
	fprintf(stderr, "spurious wakeups: 0x%llx started=0x%lx completed=0x%lx\n",
		drv.spurious, drv.started, drv.completed);
	if (opt.json)
		print_json(cpu_driver, (t1.tv_sec - t0.tv_sec) * 1000000000ULL +
			   t1.tv_nsec - t0.tv_nsec);

	rig_queue_destroy(&drv.q);
	if (opt.vhost) {
		vhost_core_guest(dev.core, false);
		vhost_core_close(dev.core);	/* the ring and buffers go with it */
	} else {
		free(slots);
		free(ring);
	}
	rig_chan_destroy(&kick);
	rig_chan_destroy(&call);
	return 0;
}
