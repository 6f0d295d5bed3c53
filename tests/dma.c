// SPDX-License-Identifier: GPL-2.0
/*
 * The driver's DMA-API path: with VIRTIO_F_ACCESS_PLATFORM a driver maps
 * every buffer it puts in the ring (and each indirect table) through the
 * DMA API and unmaps it when the buffer comes back.  Here the device's
 * DMA hooks (struct rig_dma_ops, linux/dma-mapping.h) record every map and
 * unmap and hand out bus addresses that are not the CPU's, so each case
 * sees that:
 *   - every mapping is unmapped once, with its size and direction: none
 *     leaked (after get_buf, detach_unused_buf and del_virtqueue), none
 *     unmapped twice or never mapped;
 *   - out buffers map DMA_TO_DEVICE, in buffers DMA_FROM_DEVICE, tables
 *     DMA_TO_DEVICE, and the ring holds the bus addresses, not the CPU's;
 *   - a mapping that fails (the Nth, each N in turn) fails the add with an
 *     error, unmaps what that add had mapped, and leaves the queue working;
 *   - premapped buffers (virtqueue_set_dma_premapped()) are neither mapped
 *     nor unmapped by the driver, and the ring holds their bus addresses;
 *   - a ring the driver allocates (vring_create_virtqueue()) is coherent
 *     DMA memory for the device, the device is told its bus addresses,
 *     and it is freed with the queue.
 * Split and packed rings alike, against any driver (the rig's and a kernel
 * tree's both have a DMA-API path: no mapping made is a failure); a case
 * SKIPs only where the tree lacks the call it needs.
 *
 * Usage: dma --list | dma CASE | dma -h.  Exit 0: the driver did it; 1: it
 * did not; 2: usage error; 77: SKIP; 78: TODO, a kernel tree's driver got
 * wrong what some are known to (cases[].kernel_gap).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/virtio.h>
#include <linux/virtio_config.h>
#include <linux/virtio_ring.h>
#include <linux/dma-mapping.h>

#include "harness/harness.h"
#include "harness/mockdev.h"

static const char help[] =
"Usage: dma --list | dma --gaps | dma CASE\n"
"Run one case of the driver's DMA-API path (--list names them).  Exit 0:\n"
"every mapping was made and unmapped as it must be; 1: not; 2: usage\n"
"error; 77: SKIP, the tree lacks the call the case needs; 78: TODO, a\n"
"known gap of a kernel tree's.\n";

#define RING_SIZE	16
#define MAX_MAPS	256
/* Bus addresses are the CPU's moved by this: a driver must use ours. */
#define BUS_OFFSET	(1ULL << 44)

struct mapping {
	phys_addr_t phys;
	size_t size;
	enum dma_data_direction dir;
	bool live;
};

static struct mapping maps[MAX_MAPS];
static unsigned int nmaps, live, fail_at, mapped_count;

static dma_addr_t rec_map(struct device *dev __attribute__((unused)),
			  phys_addr_t phys, size_t size,
			  enum dma_data_direction dir)
{
	struct mapping *m;

	mapped_count++;
	if (fail_at && mapped_count == fail_at)
		return DMA_MAPPING_ERROR;
	CHECK(nmaps < MAX_MAPS);
	m = &maps[nmaps++];
	*m = (struct mapping){ phys, size, dir, true };
	live++;
	return phys + BUS_OFFSET;
}

static void rec_unmap(struct device *dev __attribute__((unused)),
		      dma_addr_t addr, size_t size, enum dma_data_direction dir)
{
	unsigned int i;

	for (i = 0; i < nmaps; i++) {
		struct mapping *m = &maps[i];

		if (!m->live || m->phys + BUS_OFFSET != addr)
			continue;
		CHECKF(m->size == size && m->dir == dir,
		       "unmap of 0x%llx: size %zu dir %d, mapped with size %zu dir %d",
		       (unsigned long long)addr, size, dir, m->size, m->dir);
		m->live = false;
		live--;
		return;
	}
	CHECKF(false, "unmap of 0x%llx (size %zu): not mapped, or unmapped already",
	       (unsigned long long)addr, size);
}

#define MAX_COHERENT	8

static struct coherent {
	void *cpu;
	size_t size;
	dma_addr_t bus;
} coherent[MAX_COHERENT];
static unsigned int ncoherent, coherent_live;

static void *rec_alloc(struct device *dev __attribute__((unused)),
		       size_t size, dma_addr_t *handle)
{
	struct coherent *c;

	CHECK(ncoherent < MAX_COHERENT);
	c = &coherent[ncoherent++];
	c->cpu = aligned_alloc(PAGE_SIZE, ALIGN(size, PAGE_SIZE));
	CHECK(c->cpu);
	memset(c->cpu, 0, size);
	c->size = size;
	c->bus = virt_to_phys(c->cpu) + BUS_OFFSET;
	coherent_live++;
	*handle = c->bus;
	return c->cpu;
}

static void rec_free(struct device *dev __attribute__((unused)), size_t size,
		     void *cpu, dma_addr_t handle)
{
	unsigned int i;

	for (i = 0; i < ncoherent; i++) {
		struct coherent *c = &coherent[i];

		if (c->cpu != cpu)
			continue;
		CHECKF(c->size == size && c->bus == handle,
		       "coherent free of %p: size %zu handle 0x%llx, allocated %zu at 0x%llx",
		       cpu, size, (unsigned long long)handle, c->size,
		       (unsigned long long)c->bus);
		free(cpu);
		c->cpu = NULL;
		coherent_live--;
		return;
	}
	CHECKF(false, "coherent free of %p: not allocated, or freed already", cpu);
}

/* Does [@addr, @addr + @len) lie in a coherent allocation's bus range? */
static bool in_coherent(dma_addr_t addr, size_t len)
{
	unsigned int i;

	for (i = 0; i < ncoherent; i++)
		if (coherent[i].cpu && coherent[i].bus <= addr &&
		    addr + len <= coherent[i].bus + coherent[i].size)
			return true;
	return false;
}

static const struct rig_dma_ops rec_ops = { rec_map, rec_unmap, NULL, NULL };

/*
 * Only ring_coherent() gives a device its coherent memory at bus
 * addresses: the harness's device finds a ring the driver allocated at
 * the addresses the driver reports, and reads them as the CPU's.
 */
static const struct rig_dma_ops ring_ops = {
	rec_map, rec_unmap, rec_alloc, rec_free
};
static struct device ring_dev = { .init_name = "dma ring", .rig_dma = &ring_ops };

/* Was [@p, @p + @size) mapped, and is it now, with direction @dir? */
static bool mapped_as(const void *p, size_t size, enum dma_data_direction dir,
		      bool now)
{
	phys_addr_t phys = virt_to_phys((void *)p);
	unsigned int i;

	for (i = 0; i < nmaps; i++)
		if (maps[i].phys <= phys && phys + size <= maps[i].phys + maps[i].size &&
		    maps[i].dir == dir && (!now || maps[i].live))
			return true;
	return false;
}

static struct device dma_dev = { .init_name = "dma", .rig_dma = &rec_ops };
static struct virtio_device vdev;
static struct rig_queue queue;
static struct virtqueue *vq;
static struct mockdev dev;
static char bufs[8][64];

static bool notify(struct virtqueue *q __attribute__((unused)))
{
	return true;
}

/* A case's ring, the argument of its row in cases[]: OR of these. */
enum { SPLIT = 0, PACKED = 1, INDIRECT = 2 };

static void setup(unsigned long layout)
{
	u64 f = 1ULL << VIRTIO_F_ACCESS_PLATFORM | 1ULL << VIRTIO_F_VERSION_1;

	if (layout & PACKED)
		f |= 1ULL << VIRTIO_F_RING_PACKED;
	if (layout & INDIRECT)
		f |= 1ULL << VIRTIO_RING_F_INDIRECT_DESC;
	rig_vdev_init(&vdev, f);
	vdev.dev.parent = &dma_dev;
	rig_queue_make(&queue, &vdev, RING_SIZE, NULL, false, notify, NULL,
		       "dma vq");
	vq = queue.vq;
	mockdev_init(&dev, &vdev, &queue.ring);
	nmaps = live = fail_at = mapped_count = 0;
}

/* Buffer @b: @nout out parts then @nin in parts of 16 bytes. */
static int add(unsigned int b, unsigned int nout, unsigned int nin)
{
	struct scatterlist sg[4], *sgs[4];
	unsigned int i;

	for (i = 0; i < nout + nin; i++) {
		sg_init_one(&sg[i], bufs[b] + 16 * i, 16);
		sgs[i] = &sg[i];
	}
	return virtqueue_add_sgs(vq, sgs, nout, nin, bufs[b], GFP_KERNEL);
}

/* The driver's mappings of buffer @b, as add(@b, @nout, @nin) made them. */
static void check_mapped(unsigned int b, unsigned int nout, unsigned int nin,
			 bool now)
{
	unsigned int i;

	for (i = 0; i < nout + nin; i++)
		CHECKF(mapped_as(bufs[b] + 16 * i, 16,
				 i < nout ? DMA_TO_DEVICE : DMA_FROM_DEVICE, now),
		       "buffer %u part %u: not mapped %s", b, i,
		       i < nout ? "DMA_TO_DEVICE" : "DMA_FROM_DEVICE");
}

/*
 * Every driver under test has a DMA-API path (vring_use_dma_api() with
 * VIRTIO_F_ACCESS_PLATFORM): no mapping from it is a failure.
 */
static void require_dma_api(void)
{
	CHECKF(mapped_count,
	       "%s: the %s driver made no DMA mapping with VIRTIO_F_ACCESS_PLATFORM",
	       rig_case_name, rig_guest_impl());
}

/* Every descriptor address in the ring is a bus address, not a CPU one. */
static void check_ring_addresses(void)
{
	unsigned int i;

	for (i = 0; i < RING_SIZE; i++) {
		u64 a = queue.ring.packed ?
			le64_to_cpu(queue.ring.vring_packed.desc[i].addr) :
			virtio64_to_cpu(&vdev, queue.ring.vring.desc[i].addr);

		CHECKF(!a || a >= BUS_OFFSET,
		       "descriptor %u holds 0x%llx, a CPU address, not the bus address",
		       i, (unsigned long long)a);
	}
}

/* The device uses every buffer it can take; get_buf gets each back. */
static unsigned int device_returns_all(void)
{
	unsigned int ndesc, n = 0, len;
	u16 id;

	while (mockdev_take(&dev, &id, &ndesc)) {
		mockdev_use(&dev, id, 0, 1, ndesc);
		n++;
	}
	mockdev_publish(&dev);
	while (n && virtqueue_get_buf(vq, &len))
		n--;
	CHECKF(n == 0, "%u buffers used but not returned", n);
	return n;
}

static void teardown(void)
{
	while (virtqueue_detach_unused_buf(vq))
		;
	CHECK(!virtqueue_is_broken(vq));
	rig_queue_destroy(&queue);
	CHECKF(live == 0, "%u mappings left after the queue was deleted", live);
}

/* Buffers out, in and both, direct and (if INDIRECT) through tables. */
static int map_unmap(unsigned long layout)
{
	setup(layout);
	CHECK(add(0, 1, 0) == 0);
	require_dma_api();
	CHECK(add(1, 0, 1) == 0);
	CHECK(add(2, 2, 1) == 0);
	CHECK(add(3, 1, 3) == 0);
	virtqueue_kick(vq);
	check_mapped(0, 1, 0, true);
	check_mapped(1, 0, 1, true);
	check_mapped(2, 2, 1, true);
	check_mapped(3, 1, 3, true);
	check_ring_addresses();
	device_returns_all();
	CHECKF(live == 0, "%u mappings left after every buffer came back", live);

	/* Buffers still out when the queue goes: detach unmaps them. */
	CHECK(add(4, 2, 2) == 0);
	CHECK(add(5, 1, 0) == 0);
	teardown();
	return 0;
}

/*
 * A 4-part buffer whose Nth mapping fails, N = 1, 2, ... until the add
 * maps no more than N - 1 times, each beside a buffer already out: the add
 * fails with an error and unmaps what it mapped, or (a failed table) falls
 * back to direct descriptors and succeeds; the buffer already out stays
 * mapped; the queue still works, and once both come back nothing is left.
 */
static int map_fails(unsigned long layout)
{
	unsigned int n, before, failures = 0;
	bool reached;
	int err;

	setup(layout);
	CHECK(add(0, 1, 0) == 0);
	require_dma_api();
	device_returns_all();
	for (n = 1; ; n++) {
		CHECK(n < 32);
		CHECK(add(0, 1, 0) == 0);
		before = live;
		fail_at = mapped_count + n;
		err = add(1, 2, 2);
		reached = mapped_count >= fail_at;
		fail_at = 0;
		if (err) {
			CHECKF(reached && (err == -ENOMEM || err == -EIO),
			       "add with mapping %u failing returned %d", n, err);
			CHECKF(live == before,
			       "mapping %u failing left %u mappings, %u before",
			       n, live, before);
			failures++;
		} else {
			check_mapped(1, 2, 2, true);
		}
		check_mapped(0, 1, 0, true);
		CHECK(!virtqueue_is_broken(vq));
		virtqueue_kick(vq);
		device_returns_all();
		CHECKF(live == 0, "%u mappings left after mapping %u failed", live, n);
		if (!reached)
			break;
	}
	CHECKF(n > 1, "no mapping of the add failed");
	teardown();
	printf("%s: %u mappings failed in turn, %u adds refused, %u recovered\n",
	       rig_case_name, n - 1, failures, n - 1 - failures);
	return 0;
}

/*
 * A full ring: the add that finds no room says -ENOSPC and maps nothing
 * (a driver spinning on a full ring must not map and unmap every part).
 */
static int full_maps_nothing(unsigned long layout)
{
	unsigned int b, before;
	int err = 0;

	setup(layout);
	for (b = 0; b <= RING_SIZE && !err; b++) {
		before = mapped_count;
		err = add(b % ARRAY_SIZE(bufs), 2, 1);
	}
	CHECKF(err == -ENOSPC, "add %u to a ring of %u returned %d", b,
	       RING_SIZE, err);
	require_dma_api();
	CHECKF(mapped_count == before,
	       "the add that found the ring full mapped %u parts",
	       mapped_count - before);
	virtqueue_kick(vq);
	device_returns_all();
	CHECKF(live == 0, "%u mappings left after every buffer came back", live);
	teardown();
	return 0;
}

#ifdef RIG_VIRTQUEUE_SET_DMA_PREMAPPED_ARGS
/*
 * Premapped: the caller maps; the driver takes sg_dma_address() as it is
 * and unmaps nothing of it (an indirect table is still the driver's).
 */
static int premapped(unsigned long layout)
{
	struct scatterlist sg[2], *sgs[2];
	unsigned int i, len, ndesc, ours, first;
	dma_addr_t bus[2];
	u16 id;

	setup(layout | INDIRECT);
	CHECK(add(0, 1, 0) == 0);
	require_dma_api();
	device_returns_all();
	CHECKF(virtqueue_set_dma_premapped(vq) == 0,
	       "virtqueue_set_dma_premapped refused an empty queue");
	for (i = 0; i < 2; i++) {
		bus[i] = dma_map_single(&dma_dev, bufs[1] + 16 * i, 16,
					i ? DMA_FROM_DEVICE : DMA_TO_DEVICE);
		sg_init_one(&sg[i], bufs[1] + 16 * i, 16);
		sg_dma_address(&sg[i]) = bus[i];
		sg_dma_len(&sg[i]) = 16;
		sgs[i] = &sg[i];
	}
	ours = live;
	first = nmaps;
	CHECK(virtqueue_add_sgs(vq, sgs, 1, 1, bufs[1], GFP_KERNEL) == 0);
	virtqueue_kick(vq);
	for (i = first; i < nmaps; i++)
		CHECKF_GAP(maps[i].phys + maps[i].size <= virt_to_phys(bufs[1]) ||
		           maps[i].phys >= virt_to_phys(bufs[1] + 32),
		           "the driver mapped a premapped buffer");
	check_ring_addresses();
	CHECK(mockdev_take(&dev, &id, &ndesc));
	mockdev_use(&dev, id, 16, 1, ndesc);
	mockdev_publish(&dev);
	CHECK(virtqueue_get_buf(vq, &len) == bufs[1] && len == 16);
	CHECKF(live == ours,
	       "%u mappings live, %u expected (ours): the driver unmapped a premapped buffer, or leaked its table",
	       live, ours);
	for (i = 0; i < 2; i++)
		dma_unmap_single(&dma_dev, bus[i], 16,
				 i ? DMA_FROM_DEVICE : DMA_TO_DEVICE);
	teardown();
	return 0;
}
#else
static int premapped(unsigned long layout __attribute__((unused)))
{
	rig_skip("%s: linux/virtio.h declares no virtqueue_set_dma_premapped",
		 rig_case_name);
}
#endif

/*
 * A ring vring_create_virtqueue() allocates: coherent DMA memory for the
 * device (the DMA API's, not the page allocator's), its three parts at
 * the bus addresses the driver reports, freed when the queue goes.
 */
static int ring_coherent(unsigned long layout)
{
	u64 f = 1ULL << VIRTIO_F_ACCESS_PLATFORM | 1ULL << VIRTIO_F_VERSION_1;
	struct virtqueue *q;

	if (layout & PACKED)
		f |= 1ULL << VIRTIO_F_RING_PACKED;
	rig_vdev_init(&vdev, f);
	vdev.dev.parent = &ring_dev;
	ncoherent = coherent_live = 0;
	q = vring_create_virtqueue(0, RING_SIZE, PAGE_SIZE, &vdev, true, false,
				   false, notify, NULL, "dma ring");
	CHECK(q);
	CHECKF(ncoherent > 0,
	       "the driver allocated its ring without dma_alloc_coherent()");
	CHECKF(in_coherent(virtqueue_get_desc_addr(q), 16) &&
	       in_coherent(virtqueue_get_avail_addr(q), 4) &&
	       in_coherent(virtqueue_get_used_addr(q), 4),
	       "the ring's addresses 0x%llx, 0x%llx, 0x%llx are not the bus addresses of its coherent memory",
	       (unsigned long long)virtqueue_get_desc_addr(q),
	       (unsigned long long)virtqueue_get_avail_addr(q),
	       (unsigned long long)virtqueue_get_used_addr(q));
	vring_del_virtqueue(q);
	CHECKF(coherent_live == 0, "%u coherent allocations left after the queue was deleted",
	       coherent_live);
	return 0;
}

/*
 * What some kernel trees' drivers are known to get wrong (Debian's 6.1):
 * the case runs, and is a TODO there, a pass saying so where it is mended.
 */
#define PACKED_FAIL_GAP \
	"a kernel tree's packed add that fails leaves its other descriptors available (Debian's 6.1)"
#define PREMAPPED_GAP \
	"a kernel tree's virtqueue_set_dma_premapped() may only set a flag nothing reads (Debian's 6.1): the driver maps premapped buffers again"

/*
 * The rows of case @name on each ring: split, split-indirect, packed,
 * packed-indirect; @packed_gap is the packed direct one's kernel gap.
 */
#define EVERY_LAYOUT(name, run, packed_gap)				\
	RIG_CASE_ARG("split-" name, run, SPLIT),			\
	RIG_CASE_ARG("split-indirect-" name, run, SPLIT | INDIRECT),	\
	RIG_CASE_ARG_GAP("packed-" name, run, PACKED, packed_gap),	\
	RIG_CASE_ARG("packed-indirect-" name, run, PACKED | INDIRECT)

static const struct rig_case cases[] = {
	EVERY_LAYOUT("map-unmap", map_unmap, NULL),
	EVERY_LAYOUT("map-fails", map_fails, PACKED_FAIL_GAP),
	EVERY_LAYOUT("full-maps-nothing", full_maps_nothing, NULL),
	RIG_CASE_ARG_GAP("split-premapped", premapped, SPLIT, PREMAPPED_GAP),
	RIG_CASE_ARG_GAP("packed-premapped", premapped, PACKED, PREMAPPED_GAP),
	RIG_CASE_ARG("split-ring-coherent", ring_coherent, SPLIT),
	RIG_CASE_ARG("packed-ring-coherent", ring_coherent, PACKED),
};

RIG_CASE_MAIN(cases, help)
