// SPDX-License-Identifier: GPL-2.0
/*
 * vringh_test --parallel: a guest thread (virtio_ring) and a host thread
 * (vringh; with --fast-vringh buffers untouched), each pinned to its own
 * CPU, exchange buffers through shared memory mapped at two addresses; the
 * guest checks the contents of every buffer that comes back.  Each side
 * sleeps on its notification once it has nothing to do: the guest fills
 * the ring before it waits, the host takes everything available before it
 * does.  The main thread waits: progress on a terminal, figures so far
 * on Ctrl-C, and a watchdog: when neither side has moved a buffer for
 * STALL_MS (a lost notification leaves both asleep for ever), it says which
 * side waits for what, with the counts and the ring's state, and fails.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/cache.h>

#include "vringh_test.h"

/*
 * What one side writes while the other reads it sits on a cache line of
 * its own (____cacheline_aligned_in_smp): two sides writing one line would
 * pass it between their CPUs for every buffer.
 */
struct par {
	struct rig_shm shm;
	int cpu_guest, cpu_host;
	/*
	 * Created before both threads start (a kernel driver's packed ring is
	 * where the host finds it) and deleted once both have stopped.
	 */
	struct virtio_device vdev;
	struct rig_queue q;
	struct virtqueue *vq;		/* q.vq */
	int stop;			/* Ctrl-C: the guest stops adding */
	int done;			/* guest finished: host may stop */
	struct rig_chan to_host ____cacheline_aligned_in_smp;
	struct rig_chan to_guest ____cacheline_aligned_in_smp;
	/* transfers the guest got back */
	unsigned long finished ____cacheline_aligned_in_smp;
};

static struct par par;

/* No buffer added, taken or returned for this long: a stall. */
#define STALL_MS	10000

/* What a side is asleep waiting for: its wait's name while it waits. */
static const char *guest_waits, *host_waits;
/*
 * How far each side got: buffers the guest added, the host took.  Each
 * side writes its own for every buffer, so each has a cache line of its
 * own: on one line, the two CPUs would pass it to and fro every buffer.
 */
static unsigned long guest_added ____cacheline_aligned_in_smp;
static unsigned long host_taken ____cacheline_aligned_in_smp;

static void wait_for(struct rig_chan *c, const char **waits, const char *what)
{
	__atomic_store_n(waits, what, __ATOMIC_RELAXED);
	rig_chan_wait(c);
	__atomic_store_n(waits, NULL, __ATOMIC_RELAXED);
}

static void count(unsigned long *counter)
{
	__atomic_store_n(counter, *counter + 1, __ATOMIC_RELAXED);
}

static bool par_notify_host(struct virtqueue *vq __attribute__((unused)))
{
	rig_chan_signal(&par.to_host);
	return true;
}

static void par_callback_guest(struct virtqueue *vq __attribute__((unused)))
{
}

/*
 * Four sg shapes over a 4-byte slot: 1+2+1, 1+3, 4, 1+1+1+1.  Even
 * transfers are out buffers (the guest wrote the transfer number), odd ones
 * in buffers the host fills with the last number it read.
 */
static unsigned int make_sgs(struct scatterlist *sg, struct scatterlist **sgs,
			     unsigned char *p, unsigned long xfer)
{
	static const unsigned char shapes[4][4] = {
		{ 1, 2, 1 }, { 1, 3 }, { 4 }, { 1, 1, 1, 1 },
	};
	static const unsigned char count[4] = { 3, 2, 1, 4 };
	const unsigned char *shape = shapes[xfer % 4];
	unsigned int n, off = 0;

	for (n = 0; n < count[xfer % 4]; n++) {
		sg_init_one(&sg[n], p + off, shape[n]);
		sgs[n] = &sg[n];
		off += shape[n];
	}
	return n;
}

static void guest_check(unsigned long xfer, u32 *slot, void *token,
			unsigned int len)
{
	u32 val;

	memcpy(&val, slot, sizeof(val));
	CHECKF(token == slot, "transfer %lu: token %p, expected %p", xfer,
	       token, (void *)slot);
	if (xfer % 2 == 0) {
		CHECKF(len == 0, "out transfer %lu: used len %u", xfer, len);
		CHECKF(val == (u32)xfer, "out transfer %lu: buffer holds %u",
		       xfer, val);
	} else if (opt.fast_vringh) {
		CHECKF(len == 0, "in transfer %lu: used len %u", xfer, len);
		CHECKF(val == (u32)-1, "in transfer %lu: buffer holds %u",
		       xfer, val);
	} else {
		CHECKF(len == 4, "in transfer %lu: used len %u", xfer, len);
		CHECKF(val == (u32)(xfer - 1), "in transfer %lu: holds %u, expected %lu",
		       xfer, val, xfer - 1);
	}
}

static void *guest_thread(void *arg __attribute__((unused)))
{
	char *mem = par.shm.guest;
	u32 *slots = (void *)(mem + OFF_DATA);
	unsigned long added = 0, finished = 0;
	struct virtqueue *vq = par.vq;
	struct rig_arena tables;

	rig_pin_thread(par.cpu_guest);
	/* Its indirect tables (if any) go where the host can see them. */
	guest_tables_arena(&tables, &par.shm);

	for (;;) {
		unsigned long reaped = 0;
		unsigned int len;
		void *token;

		/*
		 * Offer buffers until the ring is full or all are offered,
		 * kicking after each as the kernel's rig does: the ring code
		 * decides whether the host asked for it.
		 */
		while (added < opt.xfers &&
		       !__atomic_load_n(&par.stop, __ATOMIC_RELAXED)) {
			struct scatterlist sg[4], *sgs[4];
			u32 *slot = &slots[added % SLOTS];
			u32 val = added % 2 ? (u32)-1 : (u32)added;
			unsigned int nsg;
			int err;

			memcpy(slot, &val, sizeof(val));
			nsg = make_sgs(sg, sgs, (unsigned char *)slot, added);
			if (added % 2)
				err = virtqueue_add_sgs(vq, sgs, 0, nsg, slot, GFP_ATOMIC);
			else
				err = virtqueue_add_sgs(vq, sgs, nsg, 0, slot, GFP_ATOMIC);
			if (err == -ENOSPC)
				break;
			CHECKF(err == 0, "add_sgs: %d", err);
			added++;
			count(&guest_added);
			virtqueue_kick(vq);
		}

		while ((token = virtqueue_get_buf(vq, &len)) != NULL) {
			guest_check(finished, &slots[finished % SLOTS], token, len);
			finished++;
			reaped++;
		}
		__atomic_store_n(&par.finished, finished, __ATOMIC_RELAXED);
		CHECK(!virtqueue_is_broken(vq));
		if (finished == opt.xfers)
			break;
		/* Ctrl-C: what was offered has come back, or never will. */
		if (__atomic_load_n(&par.stop, __ATOMIC_RELAXED) &&
		    (finished == added || !reaped))
			break;
		if (reaped)
			continue;

		/* Buffers are out and none came back: sleep until some do. */
		if (!virtqueue_enable_cb_delayed(vq))
			continue;
		wait_for(&par.to_guest, &guest_waits,
			 "a call from the host (buffers used)");
		virtqueue_disable_cb(vq);
	}

	guest_tables_arena(NULL, NULL);
	/* Tell the host to stop; this last signal is not a kick. */
	__atomic_store_n(&par.done, 1, __ATOMIC_RELEASE);
	rig_chan_signal(&par.to_host);
	par.to_host.signalled--;
	return NULL;
}

/*
 * In order, the buffers the host took and has not yet returned: the last
 * one's head and used length, and how many.  Returned with one used entry.
 */
struct host_batch {
	unsigned int count;
	u16 head;
	u32 len;
};

static void host_flush(struct vringh *vrh, struct host_batch *b)
{
	if (!b->count)
		return;
	host_complete_batch(vrh, b->head, b->len, b->count);
	b->count = 0;
}

static void host_notify_guest(struct vringh *vrh)
{
	int err = vringh_need_notify_user(vrh);

	CHECKF(err >= 0, "vringh_need_notify_user: %d", err);
	if (err > 0)
		rig_chan_signal(&par.to_guest);
}

/*
 * The host takes each buffer (getdesc walks and range-checks its
 * descriptors) and, in order, reads an out buffer's 4 bytes or writes the
 * last ones read into an in buffer.  --fast-vringh: it touches no byte and
 * returns each buffer at once with length 0 (vringh_complete_user).
 * Whenever it finds the ring empty it returns what it holds, asks vringh
 * whether the guest wants a call (vringh_need_notify_user), and sleeps
 * until kicked.
 */
static void *host_thread(void *arg __attribute__((unused)))
{
	struct iovec riov_stack[4], wiov_stack[4];
	struct vringh_iov riov, wiov;
	struct host_batch batch = { 0 };
	struct vringh vrh;
	u32 last = 0;

	rig_pin_thread(par.cpu_host);
	init_host(&vrh, &par.q, &par.shm);
	vringh_iov_init(&riov, riov_stack, ARRAY_SIZE(riov_stack));
	vringh_iov_init(&wiov, wiov_stack, ARRAY_SIZE(wiov_stack));

	for (;;) {
		unsigned int written = 0;
		u16 head;
		int err;

		err = vringh_getdesc_user(&vrh, &riov, &wiov, rig_getrange,
					  &head);
		CHECKF(err >= 0, "host getdesc: %d", err);
		if (err > 0)
			count(&host_taken);

		if (err == 0) {
			/* In order: the ring is empty, return what we hold. */
			host_flush(&vrh, &batch);
			host_notify_guest(&vrh);
			if (__atomic_load_n(&par.done, __ATOMIC_ACQUIRE))
				break;
			/* Buffers came in meanwhile: kicks off again, go on. */
			if (!vringh_notify_enable_user(&vrh)) {
				vringh_notify_disable_user(&vrh);
				continue;
			}
			wait_for(&par.to_host, &host_waits,
				 "a kick from the guest (buffers available)");
			/* The guest's goodbye is not a kick: don't count it. */
			if (__atomic_load_n(&par.done, __ATOMIC_ACQUIRE))
				par.to_host.woken--;
			vringh_notify_disable_user(&vrh);
			continue;
		}

		if (opt.fast_vringh) {
			CHECK(vringh_complete_user(&vrh, head, 0) == 0);
			continue;
		}
		if (riov.used) {
			CHECK(wiov.used == 0);
			CHECK(vringh_iov_pull_user(&riov, &last, 4) == 4);
		} else {
			CHECK(wiov.used > 0);
			CHECK(vringh_iov_push_user(&wiov, &last, 4) == 4);
			written = 4;
		}
		if (opt.in_order) {
			/* Each buffer was read, or written whole (4 bytes). */
			batch.head = head;
			batch.len = written;
			if (++batch.count == opt.batch)
				host_flush(&vrh, &batch);
			continue;
		}
		CHECK(vringh_complete_user(&vrh, head, written) == 0);
	}
	CHECK(batch.count == 0);
	vringh_iov_cleanup(&riov);
	vringh_iov_cleanup(&wiov);
	rig_vringh_cleanup(&vrh, &par.q.ring);
	return NULL;
}

/* A side as the watchdog reports it. */
static const char *side_state(const char **waits)
{
	const char *what = __atomic_load_n(waits, __ATOMIC_RELAXED);

	return what ? what : "nothing (it is running, not asleep)";
}

/* The watchdog fires: who waits for what, how far each got, the ring. */
static void __attribute__((noreturn)) stalled(long ms)
{
	char ring[256];

	fprintf(stderr,
		"vringh_test: watchdog: no buffer moved for %ld ms: lost notification?\n"
		"vringh_test: the guest waits for %s\n"
		"vringh_test: the host waits for %s\n"
		"vringh_test: guest: added %lu, got back %lu of %lu, kicked %lu, woken %lu; host (%s): took %lu, called %lu, woken %lu\n"
		"vringh_test: %s\n",
		ms, side_state(&guest_waits), side_state(&host_waits),
		__atomic_load_n(&guest_added, __ATOMIC_RELAXED),
		__atomic_load_n(&par.finished, __ATOMIC_RELAXED), opt.xfers,
		__atomic_load_n(&par.to_host.signalled, __ATOMIC_RELAXED),
		__atomic_load_n(&par.to_guest.woken, __ATOMIC_RELAXED),
		opt.fast_vringh ? "vringh, --fast-vringh" : "vringh",
		__atomic_load_n(&host_taken, __ATOMIC_RELAXED),
		__atomic_load_n(&par.to_guest.signalled, __ATOMIC_RELAXED),
		__atomic_load_n(&par.to_host.woken, __ATOMIC_RELAXED),
		rig_ring_describe(&par.q.ring, &par.vdev, ring, sizeof(ring)));
	exit(RIG_EXIT_FAIL);
}

/*
 * Wait for the guest to finish: progress on a terminal, on Ctrl-C stop
 * the guest (waking it if it sleeps), and the watchdog: fail when no
 * buffer was added, taken or returned for STALL_MS.  True if it was
 * interrupted.
 */
static bool wait_guest(void)
{
	unsigned long moved, last_moved = ~0UL;
	struct timespec now, last_move = { 0, 0 };
	struct rig_progress progress;
	bool interrupted = false;
	long still_ms;

	rig_progress_init(&progress, "transfers", opt.xfers, false);
	while (!__atomic_load_n(&par.done, __ATOMIC_ACQUIRE)) {
		struct timespec tick = { 0, 50 * 1000 * 1000 };

		nanosleep(&tick, NULL);		/* Ctrl-C cuts it short */
		moved = __atomic_load_n(&guest_added, __ATOMIC_RELAXED) +
			__atomic_load_n(&host_taken, __ATOMIC_RELAXED) +
			__atomic_load_n(&par.finished, __ATOMIC_RELAXED);
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (moved != last_moved) {
			last_moved = moved;
			last_move = now;
		}
		still_ms = (now.tv_sec - last_move.tv_sec) * 1000 +
			   (now.tv_nsec - last_move.tv_nsec) / 1000000;
		if (still_ms >= STALL_MS) {
			rig_progress_end(&progress);
			stalled(still_ms);
		}
		if (rig_interrupted && !interrupted) {
			interrupted = true;
			__atomic_store_n(&par.stop, 1, __ATOMIC_RELAXED);
			/* The guest's "pinged" may count this wake-up. */
			rig_chan_wake(&par.to_guest);
		}
		rig_progress_show(&progress,
				  __atomic_load_n(&par.finished, __ATOMIC_RELAXED));
	}
	rig_progress_end(&progress);
	return interrupted;
}

/* --json: the figures of the text lines, the options, the elapsed time. */
static void print_json(bool interrupted, unsigned long long ns)
{
	rig_json_begin("vringh_test");
	rig_json_features(opt.features);
	rig_json_num("in_order_batch", "%lu", opt.in_order ? opt.batch : 0);
	rig_json_num("slow_range", "%s", opt.slow_range ? "true" : "false");
	rig_json_num("fast_vringh", "%s", opt.fast_vringh ? "true" : "false");
	rig_json_num("cpu_guest", "%d", par.cpu_guest);
	rig_json_num("cpu_host", "%d", par.cpu_host);
	rig_json_num("xfers", "%lu", opt.xfers);
	rig_json_num("completed", "%lu", par.finished);
	rig_json_num("interrupted", "%s", interrupted ? "true" : "false");
	rig_json_num("guest_notified", "%lu", par.to_host.signalled);
	rig_json_num("guest_pinged", "%lu", par.to_guest.woken);
	rig_json_num("host_notified", "%lu", par.to_guest.signalled);
	rig_json_num("host_pinged", "%lu", par.to_host.woken);
	rig_json_num("ns", "%llu", ns);
	rig_json_end();
}

void run_parallel(void)
{
	struct timespec t0, t1;
	pthread_t guest, host;
	bool interrupted;

	/* One allowed CPU: both the same. */
	rig_pick_two_cpus(&par.cpu_guest, &par.cpu_host);
	if (opt.json)
		;	/* the CPUs are in the JSON object */
	else if (par.cpu_host == par.cpu_guest)
		printf("Using CPU %d only (guest and host share it)\n", par.cpu_guest);
	else
		printf("Using CPUS %d and %d\n", par.cpu_guest, par.cpu_host);
	fflush(stdout);

	rig_shm_create(&par.shm, USER_MEM);
	rig_user_map(par.shm.guest, par.shm.host, USER_MEM, opt.slow_range);
	rig_chan_init(&par.to_host);
	rig_chan_init(&par.to_guest);
	par.to_host.peer = &par.to_guest;
	par.to_guest.peer = &par.to_host;
	if (par.cpu_host == par.cpu_guest) {
		/* Neither can signal while the other spins. */
		par.to_host.spin_max_ns = 0;
		par.to_guest.spin_max_ns = 0;
	}
	new_queue(&par.q, &par.vdev, opt.features, par.shm.guest, false,
		  par_notify_host, par_callback_guest, "guest vq");
	par.vq = par.q.vq;

	rig_catch_interrupt();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	rig_thread_create(&host, host_thread, NULL);
	rig_thread_create(&guest, guest_thread, NULL);
	interrupted = wait_guest();
	pthread_join(guest, NULL);
	pthread_join(host, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	rig_queue_destroy(&par.q);

	if (opt.json)
		print_json(interrupted, (t1.tv_sec - t0.tv_sec) * 1000000000ULL +
			   t1.tv_nsec - t0.tv_nsec);
	else if (interrupted)
		printf("Interrupted after %lu of %lu transfers\n",
		       par.finished, opt.xfers);
	if (!opt.json) {
		printf("Guest: notified %lu, pinged %lu\n",
		       par.to_host.signalled, par.to_guest.woken);
		printf("Host: notified %lu, pinged %lu\n",
		       par.to_guest.signalled, par.to_host.woken);
	}

	rig_chan_destroy(&par.to_host);
	rig_chan_destroy(&par.to_guest);
	rig_shm_destroy(&par.shm);
	if (interrupted)
		exit(RIG_EXIT_INTERRUPTED);
}
