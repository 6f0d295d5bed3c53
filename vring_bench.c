// SPDX-License-Identifier: GPL-2.0
/*
 * vring_bench: how fast is the driver side of a split (or packed) ring?
 *
 * One thread adds buffers with virtqueue_add_*() until the ring is full and
 * then kicks.  The notify callback plays the device: it marks every available
 * buffer used (length 0), publishes avail_event as a real device does (so
 * with EVENT_IDX the next kick is really wanted) and raises an "interrupt"
 * if the driver's used_event or flags ask for one.  vring_interrupt() then
 * runs the queue's callback, which reaps with virtqueue_get_buf() and checks
 * that every buffer comes back, in order, with its own token.
 *
 * Prints "<N>ns" (CLOCK_MONOTONIC, the whole add/kick/reap loop) and
 * "<M> returned".  Only the kernel API is used, so this builds against a
 * kernel tree's virtio_ring.c too.  The ring is legacy (guest-native byte
 * order) unless --virtio-1, as in vringh_test.
 *
 * --packed: a packed ring (VIRTIO_F_RING_PACKED, implying --virtio-1; any
 * ring size).  The device then takes each list in ring order and writes it
 * used at once, at the offset of its first descriptor (2.8.6), and keeps
 * the device event suppression structure at DESC with the next offset it
 * will read (ENABLE without EVENT_IDX).  The rig's driver builds the ring
 * on our memory (vring_new_virtqueue_packed(), a rig extension); a kernel
 * tree's allocates it in vring_create_virtqueue(), and the device finds it
 * with virtqueue_get_desc_addr() and friends.
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
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/virtio.h>
#include <linux/virtio_config.h>
#include <linux/virtio_ring.h>

#include "harness.h"

#define RING_ALIGN	4096
#define MAX_RING	32768
#define SG_BYTES	64	/* bytes each scatterlist entry describes */

enum mode { MODE_OUT, MODE_IN, MODE_MIXED };

static struct virtio_device vdev;

/* The device's side: its own view of the ring memory and its indices. */
static struct {
	struct vring vring;
	bool event_idx;
	u16 last_avail;		/* next available entry to consume */
	u16 used_idx;		/* next used entry to fill */
	bool irq;		/* an interrupt is owed to the driver */
} dev;

/* The device of a packed ring: its view, and its place in the ring. */
static struct {
	struct vring_packed vring;
	u16 next;		/* next descriptor to take, and to use */
	bool wrap;		/* the wrap counter there */
} pdev;

/* Buffer k's token is &tokens[k % ring size]: never two in flight at once. */
static char tokens[MAX_RING];
static unsigned int ring_num;
static unsigned long returned;

/* --in-order: batches of one used entry; what each buffer may be written. */
static bool in_order;
static unsigned char *in_data;
static unsigned int in_bytes;
static unsigned char in_fill;

static void *token_for(unsigned long k)
{
	/* Split rings are a power of 2 long; packed ones may not be. */
	if (likely(!(ring_num & (ring_num - 1))))
		return &tokens[k & (ring_num - 1)];
	return &tokens[k % ring_num];
}

/* The device: consume every available buffer, write it used with len 0. */
static bool device_notify(struct virtqueue *vq)
{
	struct vring *vr = &dev.vring;
	u16 avail, old_used = dev.used_idx;
	bool want_irq;

	avail = virtio16_to_cpu(vq->vdev,
				__atomic_load_n(&vr->avail->idx, __ATOMIC_ACQUIRE));
	CHECKF((u16)(avail - dev.last_avail) <= vr->num,
	       "avail idx %u is more than %u entries past the device's %u",
	       avail, vr->num, dev.last_avail);

	/* In order: all of them in one used element, at the first's slot. */
	if (in_order && dev.last_avail != avail) {
		u16 head = virtio16_to_cpu(vq->vdev,
				vr->avail->ring[(u16)(avail - 1) & (vr->num - 1)]);
		vring_used_elem_t *e = &vr->used->ring[dev.used_idx & (vr->num - 1)];

		CHECKF(head < vr->num, "avail entry %u holds head %u",
		       (u16)(avail - 1), head);
		memset(in_data, ++in_fill, in_bytes);
		e->id = cpu_to_virtio32(vq->vdev, head);
		e->len = cpu_to_virtio32(vq->vdev, in_bytes);
		dev.used_idx += (u16)(avail - dev.last_avail);
		dev.last_avail = avail;
	}

	while (dev.last_avail != avail) {
		u16 head = virtio16_to_cpu(vq->vdev,
			vr->avail->ring[dev.last_avail++ & (vr->num - 1)]);
		vring_used_elem_t *e =
			&vr->used->ring[dev.used_idx++ & (vr->num - 1)];

		CHECKF(head < vr->num, "avail entry %u holds head %u",
		       (u16)(dev.last_avail - 1), head);
		e->id = cpu_to_virtio32(vq->vdev, head);
		e->len = cpu_to_virtio32(vq->vdev, 0);
	}
	/* Used elements before the index that publishes them. */
	__atomic_store_n(&vr->used->idx, cpu_to_virtio16(vq->vdev, dev.used_idx),
			 __ATOMIC_RELEASE);
	if (dev.event_idx)	/* "kick me when you pass what I have seen" */
		__atomic_store_n(&vring_avail_event(vr),
				 cpu_to_virtio16(vq->vdev, dev.last_avail),
				 __ATOMIC_RELAXED);
	virt_mb();

	if (dev.event_idx)
		want_irq = vring_need_event(virtio16_to_cpu(vq->vdev,
					    vring_used_event(vr)),
					    dev.used_idx, old_used);
	else
		want_irq = dev.used_idx != old_used &&
			   !(virtio16_to_cpu(vq->vdev, vr->avail->flags) &
			     VRING_AVAIL_F_NO_INTERRUPT);
	dev.irq |= want_irq;
	return true;
}

/* A packed ring's descriptor is available if AVAIL is @wrap, USED is not. */
static bool packed_avail(u16 flags, bool wrap)
{
	return !!(flags & 1 << VRING_PACKED_DESC_F_AVAIL) == wrap &&
	       !!(flags & 1 << VRING_PACKED_DESC_F_USED) != wrap;
}

/* Write the used descriptor at @off in lap @wrap: id and len, then flags. */
static void packed_put_used(struct vring_packed *vr, u16 off, bool wrap,
			    u16 id, u32 len)
{
	vr->desc[off].id = cpu_to_le16(id);
	vr->desc[off].len = cpu_to_le32(len);
	/* id and len before the flags that publish them. */
	__atomic_store_n(&vr->desc[off].flags,
			 cpu_to_le16((wrap ? 1 << VRING_PACKED_DESC_F_AVAIL |
					     1 << VRING_PACKED_DESC_F_USED : 0) |
				     (len ? VRING_DESC_F_WRITE : 0)),
			 __ATOMIC_RELEASE);
}

/* Ring positions count modulo twice the ring: laps with wrap 0 add num. */
static unsigned int packed_pos(u16 off, bool wrap)
{
	return wrap ? off : off + ring_num;
}

/*
 * The device of a packed ring: take every available list in ring order and
 * use it at once (the id of its last descriptor, len 0, at the offset of
 * its first), then ask to be kicked at the next offset and raise an
 * interrupt if the driver event suppression structure asks for one.
 */
static bool device_notify_packed(struct virtqueue *vq __attribute__((unused)))
{
	struct vring_packed *vr = &pdev.vring;
	unsigned int num = vr->num, moved = 0, new, event, flags;
	u16 first = pdev.next, last_id = 0;
	bool first_wrap = pdev.wrap, want_irq;

	for (;;) {
		u16 off = pdev.next, f, id;
		bool wrap = pdev.wrap;
		unsigned int n = 1;

		f = le16_to_cpu(__atomic_load_n(&vr->desc[off].flags,
						__ATOMIC_ACQUIRE));
		if (!packed_avail(f, wrap))
			break;
		while (f & VRING_DESC_F_NEXT) {
			CHECKF(++n <= num, "list at %u longer than the ring",
			       pdev.next);
			if (++off == num) {
				off = 0;
				wrap = !wrap;
			}
			f = le16_to_cpu(vr->desc[off].flags);
			CHECKF(packed_avail(f, wrap),
			       "descriptor %u of the list at %u not available",
			       off, pdev.next);
		}
		id = le16_to_cpu(vr->desc[off].id);
		CHECKF(id < num, "list at %u has id %u", pdev.next, id);

		if (in_order)
			last_id = id;	/* one used descriptor for all, below */
		else
			packed_put_used(vr, pdev.next, pdev.wrap, id, 0);
		pdev.next += n;
		if (pdev.next >= num) {
			pdev.next -= num;
			pdev.wrap = !pdev.wrap;
		}
		moved += n;
	}
	if (in_order && moved) {
		memset(in_data, ++in_fill, in_bytes);
		packed_put_used(vr, first, first_wrap, last_id, in_bytes);
	}
	if (dev.event_idx)	/* "kick me when you make this one available" */
		__atomic_store_n(&vr->device->off_wrap,
				 cpu_to_le16(pdev.next | pdev.wrap <<
					     VRING_PACKED_EVENT_F_WRAP_CTR),
				 __ATOMIC_RELAXED);
	virt_mb();

	flags = le16_to_cpu(vr->driver->flags) & 3;
	if (!moved || flags == VRING_PACKED_EVENT_FLAG_DISABLE) {
		want_irq = false;
	} else if (flags != VRING_PACKED_EVENT_FLAG_DESC || !dev.event_idx) {
		want_irq = true;
	} else {
		u16 off_wrap = le16_to_cpu(vr->driver->off_wrap);

		/* Did we pass the event position?  Modulo 2 * num. */
		new = packed_pos(pdev.next, pdev.wrap);
		event = packed_pos(off_wrap & ~(1 << VRING_PACKED_EVENT_F_WRAP_CTR),
				   off_wrap >> VRING_PACKED_EVENT_F_WRAP_CTR);
		want_irq = (new + 2 * num - event - 1) % (2 * num) < moved;
	}
	dev.irq |= want_irq;
	return true;
}

/* The driver's interrupt handler: reap and check every used buffer. */
static void driver_callback(struct virtqueue *vq)
{
	unsigned int len;
	void *token;

	while ((token = virtqueue_get_buf(vq, &len))) {
		CHECKF(token == token_for(returned),
		       "buffer %lu came back as token %p, expected %p",
		       returned, token, token_for(returned));
		CHECKF(len == (in_order ? in_bytes : 0),
		       "buffer %lu came back with len %u", returned, len);
		returned++;
	}
}

/* Ring full (or done): kick, let the device work, take its interrupt. */
static void kick_and_reap(struct virtqueue *vq)
{
	unsigned long before = returned;

	CHECKF(virtqueue_kick(vq), "virtqueue_kick says the queue is broken");
	CHECKF(dev.irq, "after a kick the device owes no interrupt "
	       "(%lu buffers reaped so far)", before);
	dev.irq = false;
	CHECK(vring_interrupt(0, vq) == IRQ_HANDLED);
	CHECKF(returned > before, "an interrupt but no buffer to reap");
}

/*
 * The packed queue, and the device's view of its ring: on memory of ours
 * (*@mem, to free) with the rig's driver, or where a kernel driver put it.
 */
static struct virtqueue *new_packed_vq(unsigned int num, void **mem)
{
	struct virtqueue *vq;

#ifdef vring_new_virtqueue_packed
	size_t bytes = ALIGN(vring_packed_size(num), RING_ALIGN);

	*mem = aligned_alloc(RING_ALIGN, bytes);
	if (!*mem)
		rig_die("aligned_alloc(%zu)", bytes);
	memset(*mem, 0, bytes);
	vring_packed_init(&pdev.vring, num, *mem);
	vq = vring_new_virtqueue_packed(0, num, &vdev, true, false,
					pdev.vring.desc, pdev.vring.driver,
					pdev.vring.device, device_notify_packed,
					driver_callback, "bench");
	CHECKF(vq, "vring_new_virtqueue_packed(%u entries) failed", num);
#else
	*mem = NULL;
	vq = vring_create_virtqueue(0, num, RING_ALIGN, &vdev, true, false,
				    false, device_notify_packed,
				    driver_callback, "bench");
	CHECKF(vq, "vring_create_virtqueue(%u entries, packed) failed", num);
	pdev.vring.num = num;
	pdev.vring.desc = phys_to_virt(virtqueue_get_desc_addr(vq));
	pdev.vring.driver = phys_to_virt(virtqueue_get_avail_addr(vq));
	pdev.vring.device = phys_to_virt(virtqueue_get_used_addr(vq));
#endif
	pdev.next = 0;
	pdev.wrap = true;
	/* Kick me for the first descriptor (DESC), or for every one. */
	pdev.vring.device->off_wrap =
		cpu_to_le16(1 << VRING_PACKED_EVENT_F_WRAP_CTR);
	pdev.vring.device->flags = cpu_to_le16(dev.event_idx ?
					       VRING_PACKED_EVENT_FLAG_DESC :
					       VRING_PACKED_EVENT_FLAG_ENABLE);
	return vq;
}

static void usage(FILE *f)
{
	fprintf(f,
"Usage: vring_bench [OPTIONS] [ITERATIONS]\n"
"Add ITERATIONS buffers (default 10000000) to a split ring, playing the\n"
"device each time the ring is full; print the elapsed time (\"<N>ns\") and\n"
"the number of buffers returned (\"<M> returned\").\n"
"  --packed       a packed ring (VIRTIO_F_RING_PACKED; implies --virtio-1)\n"
"  --ring-size N  ring entries, a power of 2 in 1..%d (default 128); any\n"
"                 number in that range with --packed\n"
"  --sg N         scatterlist entries per buffer, 1..ring size (default 16)\n"
"  --no-indirect  do not offer VIRTIO_RING_F_INDIRECT_DESC\n"
"  --no-eventidx  do not offer VIRTIO_RING_F_EVENT_IDX\n"
"  --virtio-1     offer VIRTIO_F_VERSION_1 (little-endian ring fields)\n"
"  --in           device-writable buffers (virtqueue_add_inbuf)\n"
"  --mixed        readable and writable parts (virtqueue_add_sgs, --sg >= 2)\n"
"  --in-order     offer VIRTIO_F_IN_ORDER: the device returns each ring-full\n"
"                 with one used entry\n"
"  --cpu N        pin to CPU N\n"
"  --version      how this binary was built\n"
"  --help         this text\n", MAX_RING);
}

/* Say what was wrong, then how to use us; exit 1. */
static void __attribute__((noreturn, format(printf, 1, 2)))
bad_usage(const char *fmt, ...)
{
	va_list ap;

	fputs("vring_bench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	usage(stderr);
	exit(1);
}

int main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "ring-size",	 required_argument, NULL, 'r' },
		{ "sg",		 required_argument, NULL, 's' },
		{ "no-indirect", no_argument,	    NULL, 'I' },
		{ "no-eventidx", no_argument,	    NULL, 'E' },
		{ "virtio-1",	 no_argument,	    NULL, '1' },
		{ "packed",	 no_argument,	    NULL, 'P' },
		{ "in",		 no_argument,	    NULL, 'i' },
		{ "mixed",	 no_argument,	    NULL, 'm' },
		{ "in-order",	 no_argument,	    NULL, 'o' },
		{ "cpu",	 required_argument, NULL, 'c' },
		{ "version",	 no_argument,	    NULL, 'V' },
		{ "help",	 no_argument,	    NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	unsigned long iterations = 10000000, num = 128, nsg = 16, cpu = 0;
	bool indirect = true, event_idx = true, version_1 = false, pin = false;
	bool packed = false;
	const char *ring_arg = NULL;
	enum mode mode = MODE_OUT;
	unsigned int out_sg, in_sg, i;
	struct scatterlist *sg, *sgs[2];
	struct timespec t0, t1;
	struct virtqueue *vq;
	unsigned long added;
	size_t bytes;
	char *data;
	void *mem;
	int opt;

	while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (opt) {
		case 'r':
			if (!rig_parse_ulong(optarg, 1, MAX_RING, &num))
				bad_usage("bad --ring-size '%s': a power of 2 "
					  "in 1..%d", optarg, MAX_RING);
			ring_arg = optarg;
			break;
		case 's':
			if (!rig_parse_ulong(optarg, 1, MAX_RING, &nsg))
				bad_usage("bad --sg '%s'", optarg);
			break;
		case 'I': indirect = false; break;
		case 'E': event_idx = false; break;
		case '1': version_1 = true; break;
		case 'P': packed = true; break;
		case 'o': in_order = true; break;
		case 'i':
		case 'm':
			if (mode != MODE_OUT)
				bad_usage("--in and --mixed exclude each other");
			mode = opt == 'i' ? MODE_IN : MODE_MIXED;
			break;
		case 'c':
			if (!rig_parse_ulong(optarg, 0, CPU_SETSIZE - 1, &cpu))
				bad_usage("bad --cpu '%s'", optarg);
			pin = true;
			break;
		case 'V':
			rig_print_version("vring_bench");
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		default:	/* getopt has said what */
			usage(stderr);
			return 1;
		}
	}
	if (optind < argc &&
	    !rig_parse_ulong(argv[optind], 0, ~0UL, &iterations))
		bad_usage("bad iteration count '%s'", argv[optind]);
	if (optind + 1 < argc)
		bad_usage("unexpected argument '%s'", argv[optind + 1]);
	if (!packed && (num & (num - 1)))
		bad_usage("bad --ring-size '%s': a power of 2 in 1..%d (any "
			  "size with --packed)", ring_arg, MAX_RING);
	if (nsg > num)	/* the spec caps a chain, indirect or not, at num */
		bad_usage("--sg %lu is more than the ring size %lu", nsg, num);
	if (mode == MODE_MIXED && nsg < 2)
		bad_usage("--mixed needs --sg 2 or more");
	if (pin)
		rig_pin_thread(cpu);

	/* One table, or an out part and an in part for --mixed. */
	out_sg = mode == MODE_MIXED ? nsg - nsg / 2 : nsg;
	in_sg = nsg - out_sg;
	sg = calloc(nsg, sizeof(*sg));
	data = calloc(nsg, SG_BYTES);
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

	INIT_LIST_HEAD(&vdev.vqs);
	spin_lock_init(&vdev.vqs_list_lock);
	vdev.features = (indirect ? 1ULL << VIRTIO_RING_F_INDIRECT_DESC : 0) |
			(event_idx ? 1ULL << VIRTIO_RING_F_EVENT_IDX : 0) |
			(version_1 ? 1ULL << VIRTIO_F_VERSION_1 : 0);
	ring_num = num;
	dev.event_idx = event_idx;
	if (in_order) {
		vdev.features |= 1ULL << VIRTIO_F_IN_ORDER;
		vring_transport_features(&vdev);
		if (!virtio_has_feature(&vdev, VIRTIO_F_IN_ORDER)) {
			/* The check runner's SKIP: exit 77, the reason first. */
			printf("vring_bench: --in-order: the guest ring code (%s) drops VIRTIO_F_IN_ORDER in vring_transport_features()\n",
			       rig_guest_impl());
			return 77;
		}
	}

	if (packed) {
		/* Packed rings exist only in virtio 1.x. */
		vdev.features |= 1ULL << VIRTIO_F_RING_PACKED |
				 1ULL << VIRTIO_F_VERSION_1;
		vq = new_packed_vq(num, &mem);
	} else {
		bytes = (vring_size(num, RING_ALIGN) + RING_ALIGN - 1) &
			~(size_t)(RING_ALIGN - 1);
		mem = aligned_alloc(RING_ALIGN, bytes);
		if (!mem)
			rig_die("aligned_alloc(%zu)", bytes);
		memset(mem, 0, bytes);
		vq = vring_new_virtqueue(0, num, RING_ALIGN, &vdev, true, false,
					 mem, device_notify, driver_callback,
					 "bench");
		CHECKF(vq, "vring_new_virtqueue(%lu entries) failed", num);
		vring_init(&dev.vring, num, mem, RING_ALIGN);
	}

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (added = 0; added < iterations; ) {
		int err;

		if (mode == MODE_OUT)
			err = virtqueue_add_outbuf(vq, sg, nsg,
						   token_for(added), GFP_ATOMIC);
		else if (mode == MODE_IN)
			err = virtqueue_add_inbuf(vq, sg, nsg,
						  token_for(added), GFP_ATOMIC);
		else
			err = virtqueue_add_sgs(vq, sgs, 1, 1,
						token_for(added), GFP_ATOMIC);
		if (!err) {
			added++;
			continue;
		}
		CHECKF(err == -ENOSPC, "adding buffer %lu: error %d",
		       added, err);
		kick_and_reap(vq);
	}
	if (returned != added)
		kick_and_reap(vq);
	clock_gettime(CLOCK_MONOTONIC, &t1);

	CHECKF(returned == added, "%lu buffers added, %lu returned",
	       added, returned);
	CHECK(virtqueue_detach_unused_buf(vq) == NULL);
	vring_del_virtqueue(vq);
	free(mem);
	free(data);
	free(sg);

	printf("%lluns\n%lu returned\n",
	       (t1.tv_sec - t0.tv_sec) * 1000000000ULL + t1.tv_nsec - t0.tv_nsec,
	       returned);
	return 0;
}
