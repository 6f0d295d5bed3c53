// SPDX-License-Identifier: GPL-2.0
/*
 * vringh_test: the guest's virtio_ring.c against the host's vringh.c.
 *
 * Without --parallel it runs single-threaded scenarios, guest and host taking
 * turns on one ring, and checks every step.  With --parallel a guest thread
 * and a host thread, each pinned to its own CPU, exchange millions of
 * buffers through shared memory mapped at two addresses, and the guest checks
 * the contents of every buffer that comes back.
 *
 * With --packed both run on a packed ring (virtio 2.8) instead of a split
 * one: the same scenarios where they make sense, and packed ones (lists
 * that cross the ring end, out-of-order completion, hand-made lists).
 *
 * With --in-order both sides negotiate VIRTIO_F_IN_ORDER: the scenarios
 * that make sense in order, in-order ones (batches returned with one used
 * entry, notifications asked for in the middle of a batch), and with
 * --parallel a host that returns what it took in batches, one used entry
 * each, whenever it finds the ring empty or holds N (--in-order=N).
 *
 * Only the kernel API is used, so the same program builds against a kernel
 * tree's ring code.  This file holds main() and the options; the scenarios
 * are in vringh_test_scenarios.c, the parallel test in vringh_test_parallel.c.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vringh_test.h"

struct vringh_test_options opt = { .xfers = DEFAULT_XFERS, .batch = RING_SIZE };

void new_queue(struct rig_queue *q, struct virtio_device *vdev, u64 features,
	       void *mem, bool ctx, bool (*notify)(struct virtqueue *),
	       void (*callback)(struct virtqueue *), const char *name)
{
	rig_vdev_init(vdev, features);
	rig_queue_make(q, vdev, RING_SIZE, mem, ctx, notify, callback, name);
}

void guest_tables_arena(struct rig_arena *arena, const struct rig_shm *shm)
{
	if (!arena) {
		rig_arena_attach(NULL);
		return;
	}
	rig_arena_init(arena, "vringh_test's indirect area",
		       (char *)shm->guest + OFF_INDIRECT, INDIRECT_BYTES);
	rig_arena_attach(arena);
}

void init_host(struct vringh *vrh, const struct rig_queue *q,
	       const struct rig_shm *shm)
{
	struct rig_ring host;

	rig_ring_host_view(&host, &q->ring, shm);
	CHECK(rig_vringh_init_user(vrh, opt.features, &host) == 0);
}

/* Parameters unused without an in-order vringh. */
void host_complete_batch(struct vringh *vrh __attribute__((unused)), u16 head __attribute__((unused)),
			 u32 len __attribute__((unused)), unsigned int count __attribute__((unused)))
{
#if HAVE_IN_ORDER_HOST
	int err = vringh_complete_batch_user(vrh, head, len, count);

	CHECKF(err == 0, "vringh_complete_batch_user(head %u, len %u, %u buffers): %d",
	       head, len, count, err);
#else
	CHECK(!"an in-order vringh");	/* main() said SKIP already */
#endif
}

static void usage(void)
{
	printf(
"Usage: vringh_test [--indirect] [--event-idx] [--virtio-1] [--slow-range]\n"
"                   [--packed] [--in-order] [--parallel [--fast-vringh]\n"
"                   [--xfers=N] [--in-order=N] [--json]] [--version]\n"
"                   [-h|--help]\n"
"\n"
"Without --parallel, run single-threaded guest/host scenarios (silent on\n"
"success).  With --parallel, a guest and a host thread on two CPUs exchange\n"
"N buffers (default %lu) and print what notifications they needed;\n"
"progress goes to stderr while it is a terminal, and Ctrl-C stops the run\n"
"and prints the figures so far.  The two threads share a memfd mapped at\n"
"two addresses, so the host translates guest addresses through getrange;\n"
"the guest checks every buffer's bytes and length.  Output:\n"
"\n"
"  Using CPUS 0 and 1                 (or: Using CPU 0 only ...)\n"
"  Guest: notified N, pinged N        kicks that reached the host; times\n"
"  Host: notified N, pinged N         the guest woke; likewise the host\n"
"\n"
"A watchdog ends a run in which no buffer moved for 10 s (a lost\n"
"notification), saying which side waits for what (exit 1).\n"
"\n"
"  --indirect     negotiate VIRTIO_RING_F_INDIRECT_DESC\n"
"  --event-idx    negotiate VIRTIO_RING_F_EVENT_IDX (also --eventidx)\n"
"  --virtio-1     negotiate VIRTIO_F_VERSION_1 (little-endian ring)\n"
"  --slow-range   the host's address ranges are one byte each\n"
"  --packed       a packed ring (VIRTIO_F_RING_PACKED; implies --virtio-1)\n"
"  --in-order     negotiate VIRTIO_F_IN_ORDER: the host returns buffers in\n"
"                 batches, one used entry each\n"
"  --in-order=N   (--parallel) so, returning a batch whenever the ring is\n"
"                 empty or N are held (default: the ring size, %d)\n"
"  --parallel     run the two-thread transfer test\n"
"  --fast-vringh  (--parallel) the host takes each buffer through vringh\n"
"                 and returns it at once with length 0 without touching\n"
"                 its bytes\n"
"  --xfers=N      (--parallel) number of buffers to transfer\n"
"  --json         (--parallel) print the result as one JSON object\n"
"                 (ab/README: its fields)\n"
"  --version      print how this binary was built\n"
"\n"
"Exit status: 0 every check held, 1 a check failed, 2 usage error, 77 SKIP\n"
"(the linked ring code lacks the feature), 130 interrupted (Ctrl-C).\n",
		DEFAULT_XFERS, RING_SIZE);
}

int main(int argc, char *argv[])
{
	enum { OPT_XFERS = 256 };
	static const struct option longopts[] = {
		RIG_FEATURE_ON_OPTION("indirect", VIRTIO_RING_F_INDIRECT_DESC),
		RIG_FEATURE_ON_OPTION("event-idx", VIRTIO_RING_F_EVENT_IDX),
		RIG_FEATURE_ON_OPTION("eventidx", VIRTIO_RING_F_EVENT_IDX),
		RIG_FEATURE_ON_OPTION("virtio-1", VIRTIO_F_VERSION_1),
		{ "slow-range", no_argument, &opt.slow_range, true },
		RIG_PACKED_OPTION,
		RIG_IN_ORDER_OPTION(optional_argument),
		{ "fast-vringh", no_argument, &opt.fast_vringh, true },
		{ "parallel", no_argument, &opt.parallel, true },
		{ "xfers", required_argument, NULL, OPT_XFERS },
		RIG_JSON_OPTION,
		RIG_VERSION_OPTION,
		RIG_HELP_OPTION,
		{ }
	};
	bool xfers_given = false, batch_given = false;
	const struct rig_getopt common = {
		.prog = "vringh_test", .usage = usage, .features = &opt.features,
		.packed = &opt.packed, .in_order = &opt.in_order,
		.batch = &opt.batch, .batch_max = RING_SIZE, .batch_given = &batch_given,
		.json = &opt.json, .no_operands = true,
	};
	int c;

	while ((c = rig_getopt(argc, argv, longopts, &common)) != -1) {
		switch (c) {
		case OPT_XFERS:
			if (!rig_parse_ulong(optarg, 1, 1UL << 40, &opt.xfers))
				rig_usage_error("bad --xfers '%s': a number in 1..2^40 (decimal, or hex after 0x)",
						optarg);
			xfers_given = true;
			break;
		default:	/* getopt has said what */
			rig_usage_hint();
		}
	}
	if (!opt.parallel && (opt.fast_vringh || xfers_given || batch_given ||
			      opt.json))
		rig_usage_error("--fast-vringh, --xfers, --in-order=N and --json need --parallel");
	if (opt.in_order && opt.fast_vringh)
		/* Its host returns buffers one by one, never in batches. */
		rig_usage_error("--fast-vringh and --in-order exclude each other");
	if (opt.packed) {
		rig_require_packed_host("--packed");
		opt.features |= 1ULL << VIRTIO_F_RING_PACKED |
				1ULL << VIRTIO_F_VERSION_1;
	}
	if (opt.in_order) {
		rig_require_in_order("--in-order", true);
		opt.features |= 1ULL << VIRTIO_F_IN_ORDER;
	}

	if (opt.parallel)
		run_parallel();
	else
		run_single();
	return RIG_EXIT_OK;
}
