// SPDX-License-Identifier: GPL-2.0
/*
 * vring_bench: how fast is the driver side of a split (or packed) ring?
 *
 * One thread adds buffers with virtqueue_add_*() until the ring is full and
 * then kicks.  The notify callback plays the device, the harness's mock
 * device (harness/mockdev.h): it marks every available buffer used (length 0), publishes avail_event as a real device does (so
 * with EVENT_IDX the next kick is really wanted) and raises an "interrupt"
 * if the driver's used_event or flags ask for one.  vring_interrupt() then
 * runs the queue's callback, which reaps with virtqueue_get_buf() and checks
 * that every buffer comes back, in order, with its own token.
 *
 * Prints "<N>ns" (CLOCK_MONOTONIC, the whole add/kick/reap loop) and
 * "<M> returned"; progress on stderr while it is a terminal.  Ctrl-C stops
 * the loop: "Interrupted after <K> of <BUFFERS> buffers", then the figures
 * so far, exit 130.  Only the kernel API is used, so this builds against a
 * kernel tree's virtio_ring.c too.  The ring is legacy (guest-native byte
 * order) unless --virtio-1, as in vringh_test.
 *
 * --packed: a packed ring (VIRTIO_F_RING_PACKED, implying --virtio-1; any
 * ring size).  The device then takes each list in ring order and writes it
 * used at once, at the offset of its first descriptor (2.8.6), and keeps
 * the device event suppression structure at DESC with the next offset it
 * will read (ENABLE without EVENT_IDX).  rig_queue_create() makes the
 * queue: the rig's driver builds the ring on memory of the harness's
 * (vring_new_virtqueue_packed(), a rig extension); a kernel tree's
 * allocates it in vring_create_virtqueue(), and the device finds it with
 * virtqueue_get_desc_addr() and friends.
 *
 * --in-order: VIRTIO_F_IN_ORDER.  The device then returns everything a kick
 * made available with one used entry (2.7.9, 2.8.8): split, one used
 * element {head of the last buffer, its length} in the slot of the first,
 * used->idx moved on by their number; packed, one used descriptor (id of
 * the last list) over the first list's first descriptor, the used offset
 * moved past them all.  The driver takes every buffer of such a batch but
 * the last as written whole, so the device writes the device-writable bytes
 * (every buffer shares the same data memory: once per batch does it) and
 * gives the last its whole writable length too: every buffer must come back
 * with that length.  A kernel tree's virtio_ring drops the feature in
 * vring_transport_features(): then --in-order is a SKIP (exit 77).
 *
 * --vhost: the device is the kernel's vhost core (drivers/vhost/vhost.c
 * from the tree this was built with, KSRC=; kernel/vhost_core.h), set up
 * through its test device's ioctls with no kick eventfd, and served in
 * this thread on each kick with the core's own functions
 * (vhost_core_serve(): vhost_get_vq_desc(), vhost_add_used(),
 * vhost_signal()); the interrupt is its call eventfd.  The ring, the data
 * and the driver's allocations are in the memory the core was given.
 * --vhost=batch, and --vhost with --in-order, open the rig's own device
 * on the core instead (kernel/vhost_batch.c, where the tree's core has the
 * in-order path), served in this thread with that device's worker
 * function, vhost_batch_serve(): everything a kick made available is used
 * with one vhost_add_used_n() call, in order with one used entry (a
 * buffer with device-writable parts ends its entry, as the device writes
 * nothing: every buffer comes back with length 0).  One thread:
 * ab/count.sh counts the core's instructions per buffer (inside
 * vhost_core_serve()).  Split rings only: what the device lacks is a SKIP;
 * without a kernel tree, a SKIP.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/eventfd.h>

#include <linux/virtio.h>
#include <linux/virtio_config.h>
#include <linux/virtio_ring.h>

#include "harness/harness.h"
#include "harness/mockdev.h"
#include "kernel/vhost_core.h"

#define SG_BYTES	64	/* bytes each scatterlist entry describes */
#define MAX_BUFFERS	1000000000000UL	/* 10^12: hours, not for ever */
/* --vhost: the core's memory beyond the ring, data and indirect tables. */
#define VHOST_SLACK	(1UL << 20)

enum mode { MODE_OUT, MODE_IN, MODE_MIXED, MODE_CALLS };

static struct virtio_device vdev;
static struct rig_queue queue;

/* The device (harness/mockdev.h), and whether it owes the driver an interrupt. */
static struct mockdev dev;
static bool irq;

/* Buffer k's token is &tokens[k % ring size]: never two in flight at once. */
static char tokens[RIG_RING_MAX];
static unsigned int ring_num;
static unsigned long returned;
static char *reap_token = tokens;	/* token_for(returned), kept as it runs */

/*
 * --calls: every exported data-path call of the driver, each called by
 * this program itself so that a count per call (ab/calls.sh) sees it on
 * its own.  Buffer k is added by add_outbuf, add_inbuf, add_sgs and (when
 * the queue has contexts: without --indirect, as the kernel's driver has
 * no indirect tables on a queue with contexts) add_inbuf_ctx, in turn; the
 * kick is kick_prepare then notify; the interrupt handler disables
 * callbacks, reaps with get_buf until NULL and enables them again, and
 * reaps again when enable_cb says more came.
 */
static bool calls;

/* --in-order: batches of one used entry; what each buffer may be written. */
static bool in_order;
static unsigned char *in_data;
static unsigned int in_bytes;
static unsigned char in_fill;

/* --vhost: the kernel's vhost core, and its call eventfd. */
static const char *const vhost_device_name[] = VHOST_CORE_DEVICE_NAMES;
static struct vhost_core *core;
static int call_fd = -1;

static void *token_for(unsigned long k)
{
	/* Split rings are a power of 2 long; packed ones may not be. */
	if (likely(!(ring_num & (ring_num - 1))))
		return &tokens[k & (ring_num - 1)];
	return &tokens[k % ring_num];
}

/*
 * The device, on a kick: take every available buffer and use it at once
 * with length 0 (in order: all of them with one used entry, the
 * device-writable bytes written once), then publish and raise an interrupt
 * if the driver asked for one.
 */
static bool device_notify(struct virtqueue *vq __attribute__((unused)))
{
	unsigned int ndesc, count;
	u64 calls_signalled;
	u16 id;

	if (core) {
		int used = vhost_core_serve(core);

		CHECKF(used >= 0, "the vhost core: vhost_get_vq_desc: %d", used);
		/* The core signals its call eventfd when the driver wants it. */
		if (read(call_fd, &calls_signalled, sizeof(calls_signalled)) ==
		    sizeof(calls_signalled))
			irq = true;
		return true;
	}
	if (in_order) {
		count = mockdev_take_all(&dev, &id, &ndesc);
		if (count) {
			memset(in_data, ++in_fill, in_bytes);
			mockdev_use(&dev, id, in_bytes, count, ndesc);
		}
	} else {
		mockdev_use_all(&dev, 0);
	}
	irq |= mockdev_publish(&dev);
	return true;
}

/* Buffer @n came back wrong: as @token, with @len (not @want_len). */
static noinline void __attribute__((__noreturn__))
reap_failed(unsigned long n, void *token, unsigned int len,
	    unsigned int want_len)
{
	CHECKF(token == token_for(n),
	       "buffer %lu came back as token %p, expected %p",
	       n, token, token_for(n));
	CHECKF(len == want_len, "buffer %lu came back with len %u", n, len);
	abort();	/* one of the two failed */
}

/*
 * The driver's interrupt handler: reap and check every used buffer.  The
 * count of buffers reaped is kept as where the expected token is in its
 * lap of the tokens (@start: where this call or the lap began).
 */
static void driver_callback(struct virtqueue *vq)
{
	unsigned int len, want_len = in_order && !core ? in_bytes : 0;
	char *expect = reap_token, *start = expect, *tokens_end = tokens + ring_num;
	unsigned long n = returned;	/* reaped before @start */
	void *token;

	do {
		if (calls)
			virtqueue_disable_cb(vq);
		for (;;) {
			token = virtqueue_get_buf(vq, &len);
			/* One test for the common case: NULL is never expected. */
			if (unlikely(token != expect)) {
				if (!token)
					break;
				reap_failed(n + (expect - start), token, len,
					    want_len);
			}
			if (unlikely(len != want_len))
				reap_failed(n + (expect - start), token, len,
					    want_len);
			if (unlikely(++expect == tokens_end)) {
				n += expect - start;
				expect = start = tokens;
			}
		}
	} while (calls && !virtqueue_enable_cb(vq));
	returned = n + (expect - start);
	reap_token = expect;
}

/* Ring full (or done): kick, let the device work, take its interrupt. */
static void kick_and_reap(struct virtqueue *vq)
{
	unsigned long before = returned;

	if (!calls)
		CHECKF(virtqueue_kick(vq), "virtqueue_kick says the queue is broken");
	else if (virtqueue_kick_prepare(vq))
		CHECKF(virtqueue_notify(vq), "virtqueue_notify says the queue is broken");
	CHECKF(irq, "after a kick the device owes no interrupt "
	       "(%lu buffers reaped so far)", before);
	irq = false;
	CHECK(vring_interrupt(0, vq) == IRQ_HANDLED);
	CHECKF(returned > before, "an interrupt but no buffer to reap");
}

/* --calls: add buffer k with the (k mod kinds)th add call. */
static int add_in_turn(struct virtqueue *vq, unsigned long k,
		       struct scatterlist *sgs[2], unsigned int out_sg,
		       unsigned int in_sg, unsigned int kinds)
{
	switch (k % kinds) {
	case 0:
		return virtqueue_add_outbuf(vq, sgs[0], out_sg, token_for(k),
					    GFP_ATOMIC);
	case 1:
		return virtqueue_add_inbuf(vq, sgs[1], in_sg, token_for(k),
					   GFP_ATOMIC);
	case 2:
		return virtqueue_add_sgs(vq, sgs, 1, 1, token_for(k),
					 GFP_ATOMIC);
	default:
		return virtqueue_add_inbuf_ctx(vq, sgs[1], in_sg, token_for(k),
					       &tokens[0], GFP_ATOMIC);
	}
}

/*
 * The timed loop: add @buffers buffers (fewer if interrupted) as @mode
 * says, from @sgs[0] (@nsg entries, or @out_sg and @in_sg of @sgs[0] and
 * @sgs[1] for add_sgs and --calls, whose add calls come in @kinds kinds),
 * kicking and reaping each time the ring is full; how many it added.  A
 * function of its own, so that its state stays in registers.
 */
static noinline unsigned long add_buffers(struct virtqueue *vq, enum mode mode,
					  struct scatterlist *sgs[2],
					  unsigned int nsg, unsigned int out_sg,
					  unsigned int in_sg, unsigned int kinds,
					  unsigned long buffers,
					  struct rig_progress *progress)
{
	struct scatterlist *sg = sgs[0];
	char *token = tokens, *tokens_end = tokens + ring_num;
	unsigned long added = 0;

	/*
	 * A lap of the tokens at a time, or what is left of one: each add
	 * moves the token on, and the count follows from how far it moved.
	 * Ctrl-C is seen when the ring is full, as often as the device runs.
	 */
	while (added < buffers) {
		char *start = token, *stop = tokens_end;
		int err = 0;

		if (buffers - added < (unsigned long)(stop - token))
			stop = token + (buffers - added);
		if (mode == MODE_OUT)
			while (token != stop &&
			       !(err = virtqueue_add_outbuf(vq, sg, nsg, token,
							    GFP_ATOMIC)))
				token++;
		else if (mode == MODE_IN)
			while (token != stop &&
			       !(err = virtqueue_add_inbuf(vq, sg, nsg, token,
							   GFP_ATOMIC)))
				token++;
		else if (mode == MODE_MIXED)
			while (token != stop &&
			       !(err = virtqueue_add_sgs(vq, sgs, 1, 1, token,
							 GFP_ATOMIC)))
				token++;
		else
			while (token != stop &&
			       !(err = add_in_turn(vq, added + (token - start),
						   sgs, out_sg, in_sg, kinds)))
				token++;
		added += token - start;
		if (token == tokens_end)
			token = tokens;
		if (likely(!err))
			continue;
		CHECKF(err == -ENOSPC, "adding buffer %lu: error %d",
		       added, err);
		kick_and_reap(vq);
		rig_progress_show(progress, added);
		if (rig_interrupted)
			break;
	}
	return added;
}

static void usage(void)
{
	printf(
"Usage: vring_bench [OPTIONS] [BUFFERS]\n"
"Add BUFFERS buffers (1..10^12, default 10000000; decimal, or hex after 0x)\n"
"to a split ring, playing the device each time the ring is full; print the\n"
"elapsed time (\"<N>ns\") and the number of buffers returned (\"<M> returned\").\n"
"Progress goes to stderr while it is a terminal.  Ctrl-C prints the figures\n"
"so far.\n"
"  --packed        a packed ring (VIRTIO_F_RING_PACKED; implies --virtio-1)\n"
"  --ring-size N   ring entries: a power of 2 in 1..%d (default 128); with\n"
"                  --packed any number in 1..%d\n"
"  --sg N          scatterlist entries per buffer, 1..ring size (default 16)\n"
"  --no-indirect   do not offer VIRTIO_RING_F_INDIRECT_DESC\n"
"  --no-event-idx  do not offer VIRTIO_RING_F_EVENT_IDX (also --no-eventidx)\n"
"  --virtio-1      offer VIRTIO_F_VERSION_1 (little-endian ring fields)\n"
"  --in            device-writable buffers (virtqueue_add_inbuf)\n"
"  --mixed         readable and writable parts (virtqueue_add_sgs, --sg >= 2)\n"
"  --calls         every add call in turn (add_outbuf, add_inbuf, add_sgs,\n"
"                  and add_inbuf_ctx with --no-indirect; the out and in parts\n"
"                  as --mixed, --sg >= 2), kick_prepare and notify, and\n"
"                  disable_cb, get_buf and enable_cb in the interrupt\n"
"  --in-order      offer VIRTIO_F_IN_ORDER: the device returns each ring-full\n"
"                  with one used entry\n"
"  --vhost[=DEV]   the device is the kernel's vhost core, from the kernel tree\n"
"                  this was built with (KSRC=), served in this thread, with\n"
"                  its test device (test: drivers/vhost/test.c) or the rig's\n"
"                  (batch: kernel/vhost_batch.c, IN_ORDER offered, used\n"
"                  entries batched); default: batch with --in-order, else test\n"
"  --cpu N         pin to CPU N (one this process may run on)\n"
"  --json          print the result as one JSON object (ab/README: fields)\n"
"  --version       how this binary was built\n"
"  -h, --help      this text\n"
"Exit status: 0 done, 1 a check failed, 2 usage error, 77 SKIP (the linked\n"
"ring code lacks the feature asked for), 130 interrupted (Ctrl-C).\n", RIG_RING_MAX, RIG_RING_MAX);
}

int main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "ring-size",	 required_argument, NULL, 'r' },
		{ "sg",		 required_argument, NULL, 's' },
		RIG_FEATURE_OFF_OPTION("no-indirect", VIRTIO_RING_F_INDIRECT_DESC),
		RIG_FEATURE_OFF_OPTION("no-event-idx", VIRTIO_RING_F_EVENT_IDX),
		RIG_FEATURE_OFF_OPTION("no-eventidx", VIRTIO_RING_F_EVENT_IDX),
		RIG_FEATURE_ON_OPTION("virtio-1", VIRTIO_F_VERSION_1),
		RIG_PACKED_OPTION,
		{ "in",		 no_argument,	    NULL, 'i' },
		{ "mixed",	 no_argument,	    NULL, 'm' },
		{ "calls",	 no_argument,	    NULL, 'C' },
		RIG_IN_ORDER_OPTION(no_argument),
		{ "vhost",	 optional_argument, NULL, 'H' },
		{ "cpu",	 required_argument, NULL, 'c' },
		RIG_JSON_OPTION,
		RIG_VERSION_OPTION,
		RIG_HELP_OPTION,
		{ NULL, 0, NULL, 0 }
	};
	unsigned long buffers = 10000000, num = 128, nsg = 16, cpu = 0;
	u64 features = 1ULL << VIRTIO_RING_F_INDIRECT_DESC | 1ULL << VIRTIO_RING_F_EVENT_IDX;
	bool packed = false, json = false, vhost = false, pin = false, indirect;
	int vhost_device = -1;	/* enum vhost_core_device; -1: by --in-order */
	const char *ring_arg = NULL;
	enum mode mode = MODE_OUT;
	unsigned int out_sg, in_sg, i;
	struct scatterlist *sg, *sgs[2];
	struct timespec t0, t1;
	unsigned long long ns;
	struct rig_progress progress;
	struct virtqueue *vq;
	unsigned long added;
	char *data;
	const struct rig_getopt common = {
		.prog = "vring_bench", .usage = usage, .features = &features,
		.packed = &packed, .in_order = &in_order, .json = &json,
	};
	int opt;

	while ((opt = rig_getopt(argc, argv, longopts, &common)) != -1) {
		switch (opt) {
		case 'r':
			/* Which rule applies waits for --packed, below. */
			if (!rig_parse_ulong(optarg, 0, ~0UL, &num))
				rig_usage_error("bad --ring-size '%s': not a number",
						optarg);
			ring_arg = optarg;
			break;
		case 's':
			if (!rig_parse_ulong(optarg, 1, RIG_RING_MAX, &nsg))
				rig_usage_error("bad --sg '%s': 1..ring size",
						optarg);
			break;
		case 'H':
			vhost = true;
			if (!optarg)
				break;
			vhost_device = rig_name_index(optarg, vhost_device_name,
						      ARRAY_SIZE(vhost_device_name));
			if (vhost_device < 0)
				rig_usage_error("bad --vhost '%s': test or batch", optarg);
			break;
		case 'i':
		case 'm':
		case 'C':
			if (mode != MODE_OUT)
				rig_usage_error("--in, --mixed and --calls exclude each other");
			mode = opt == 'i' ? MODE_IN : opt == 'm' ? MODE_MIXED :
			       MODE_CALLS;
			break;
		case 'c':
			if (!rig_parse_ulong(optarg, 0, CPU_SETSIZE - 1, &cpu) ||
			    !rig_cpu_allowed(cpu))
				rig_usage_error("bad --cpu '%s': this process may run on CPUs %s",
						optarg, rig_cpus_allowed_list());
			pin = true;
			break;
		default:	/* getopt has said what */
			rig_usage_hint();
		}
	}
	if (optind < argc &&
	    !rig_parse_ulong(argv[optind], 1, MAX_BUFFERS, &buffers))
		rig_usage_error("bad buffer count '%s': a number in 1..%lu",
				argv[optind], MAX_BUFFERS);
	if (optind + 1 < argc)
		rig_usage_error("unexpected argument '%s'", argv[optind + 1]);
	if (packed && (num < 1 || num > RIG_RING_MAX))
		rig_usage_error("bad --ring-size '%s': a packed ring has 1..%d entries",
				ring_arg, RIG_RING_MAX);
	if (!packed && (num < 1 || num > RIG_RING_MAX || (num & (num - 1))))
		rig_usage_error("bad --ring-size '%s': a split ring's size is a power of 2 in 1..%d (any number with --packed)",
				ring_arg, RIG_RING_MAX);
	if (nsg > num)	/* the spec caps a chain, indirect or not, at num */
		rig_usage_error("--sg %lu is more than the ring size %lu",
				nsg, num);
	if (mode == MODE_MIXED && nsg < 2)
		rig_usage_error("--mixed needs --sg 2 or more");
	if (mode == MODE_CALLS && nsg < 2)
		rig_usage_error("--calls needs --sg 2 or more");
	if (mode == MODE_CALLS && in_order)
		rig_usage_error("--calls and --in-order exclude each other");
	calls = mode == MODE_CALLS;
	indirect = features & (1ULL << VIRTIO_RING_F_INDIRECT_DESC);
	if (pin)
		rig_pin_thread(cpu);

	/* One table, or an out part and an in part for --mixed. */
	out_sg = mode == MODE_MIXED || calls ? nsg - nsg / 2 : nsg;
	in_sg = nsg - out_sg;
	sg = calloc(nsg, sizeof(*sg));
	if (vhost) {
		/* The ring, the data, an indirect table per entry, and more. */
		const char *why;
		u64 missing;

		/* The tree's test device has no IN_ORDER: the rig's device has. */
		if (vhost_device < 0)
			vhost_device = in_order ? VHOST_CORE_BATCH : VHOST_CORE_TEST;
		core = vhost_core_open(vhost_device, rig_ring_bytes(num, packed) +
				       nsg * SG_BYTES + num * nsg * 16 + VHOST_SLACK, -1, &why);
		if (!core)
			rig_skip("--vhost=%s: %s", vhost_device_name[vhost_device], why);
		missing = (in_order ? 1ULL << VIRTIO_F_IN_ORDER : 0) &
			  ~vhost_core_features(core);
		if (packed || missing) {
			vhost_core_close(core);
			if (packed)
				rig_skip("--vhost: the kernel's vhost core has no packed ring");
			rig_skip("--vhost=%s --in-order: the device does not offer VIRTIO_F_IN_ORDER (VHOST_GET_FEATURES): the tree's test device has none, --vhost=batch has",
				 vhost_device_name[vhost_device]);
		}
		data = vhost_core_alloc(core, nsg * SG_BYTES);
		if (data)
			memset(data, 0, nsg * SG_BYTES);
	} else {
		data = calloc(nsg, SG_BYTES);
	}
	if (!sg || !data)
		rig_die("calloc");
	sg_init_table(sg, out_sg);
	if (in_sg)
		sg_init_table(sg + out_sg, in_sg);
	for (i = 0; i < nsg; i++)
		sg_set_buf(&sg[i], data + i * SG_BYTES, SG_BYTES);
	sgs[0] = sg;
	sgs[1] = sg + out_sg;
	/* --in: the whole table is device-writable; --mixed: its second part. */
	in_data = (unsigned char *)data +
		  (mode == MODE_IN ? 0 : out_sg * SG_BYTES);
	in_bytes = (mode == MODE_IN ? nsg : mode == MODE_MIXED ? in_sg : 0) *
		   SG_BYTES;

	ring_num = num;
	if (in_order)
		rig_require_in_order("--in-order", false);
	rig_vdev_init(&vdev, features |
		      (in_order ? 1ULL << VIRTIO_F_IN_ORDER : 0) |
		      /* Packed rings exist only in virtio 1.x. */
		      (packed ? 1ULL << VIRTIO_F_RING_PACKED |
				1ULL << VIRTIO_F_VERSION_1 : 0));
	if (core) {
		void *mem = vhost_core_alloc(core, rig_ring_bytes(num, false));
		const struct vring *vr = &queue.ring.vring;
		const char *what = "";
		int err;

		CHECK(mem);
		call_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		if (call_fd < 0)
			rig_die("eventfd");
		vhost_core_guest(core, true);
		rig_queue_make(&queue, &vdev, num, mem, calls && !indirect,
			       device_notify, driver_callback, "bench");
		err = vhost_core_start(core, vdev.features, num, vr->desc, vr->avail,
				       vr->used, -1, call_fd, &what);
		CHECKF(err == 0, "--vhost: %s: %d", what, err);
	} else {
		rig_queue_make(&queue, &vdev, num, NULL, calls && !indirect, device_notify,
			       driver_callback, "bench");
	}
	vq = queue.vq;
	/* The device and the driver share this process: one view. */
	if (!core) {
		mockdev_init(&dev, &vdev, &queue.ring);
		mockdev_want_kicks(&dev);
	}
	rig_progress_init(&progress, "buffers", buffers, false);
	rig_catch_interrupt();

	clock_gettime(CLOCK_MONOTONIC, &t0);
	added = add_buffers(vq, mode, sgs, nsg, out_sg, in_sg, indirect ? 3 : 4,
			    buffers, &progress);
	if (returned != added)
		kick_and_reap(vq);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	rig_progress_end(&progress);

	CHECKF(returned == added, "%lu buffers added, %lu returned",
	       added, returned);
	CHECK(virtqueue_detach_unused_buf(vq) == NULL);
	rig_queue_destroy(&queue);
	if (core) {
		vhost_core_guest(core, false);
		vhost_core_close(core);		/* the ring and data go with it */
		close(call_fd);
	} else {
		free(data);
	}
	free(sg);

	ns = (t1.tv_sec - t0.tv_sec) * 1000000000ULL + t1.tv_nsec - t0.tv_nsec;
	if (!json) {
		if (rig_interrupted)
			printf("Interrupted after %lu of %lu buffers\n",
			       returned, buffers);
		printf("%lluns\n%lu returned\n", ns, returned);
		return rig_interrupted ? RIG_EXIT_INTERRUPTED : 0;
	}
	rig_json_begin("vring_bench");
	rig_json_features(vdev.features);
	rig_json_str("vhost", vhost ? vhost_device_name[vhost_device] : "none");
	rig_json_num("ring_size", "%lu", num);
	rig_json_num("sg", "%lu", nsg);
	rig_json_str("buffer", mode == MODE_OUT ? "out" :
		     mode == MODE_IN ? "in" : mode == MODE_MIXED ? "mixed" :
		     "calls");
	rig_json_num("buffers", "%lu", buffers);
	rig_json_num("returned", "%lu", returned);
	rig_json_num("ns", "%llu", ns);
	rig_json_num("ns_per_buffer", "%.3f",
		     returned ? (double)ns / returned : 0.0);
	rig_json_num("interrupted", "%s", rig_interrupted ? "true" : "false");
	rig_json_end();
	return rig_interrupted ? RIG_EXIT_INTERRUPTED : 0;
}
