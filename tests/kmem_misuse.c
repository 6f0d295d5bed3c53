// SPDX-License-Identifier: GPL-2.0
/*
 * Deliberate misuse of what kmalloc() hands out, which a checking tool
 * must report: the kmalloc shim (linux/slab.c) keeps its own caches, and
 * this proves they do not hide an indirect table from AddressSanitizer or
 * valgrind's memcheck.  Every case exits 0 when nothing catches it, so a
 * check expects the tool's exit status and report, never 0.
 *
 *   tests/kmem_misuse --list   the case names
 *   tests/kmem_misuse CASE     commit one misuse:
 *     indirect-use-after-free  read a buffer's indirect table after
 *                              virtqueue_get_buf() freed it
 *     indirect-leak            delete a queue with an indirect buffer still
 *                              in it (the driver's caller must detach it
 *                              first): the table leaks
 *     double-free              kfree() one object twice; without a tool the
 *                              shim itself stops the program (abort)
 *     use-after-free           read an object of 64 bytes after kfree()
 *     overflow-SIZE            write the byte after a kmalloc(SIZE) object,
 *                              SIZE each class's largest and the next
 *                              class's smallest (16, 17, ... 8192, 8193:
 *                              a large object)
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#include <linux/slab.h>
#include <linux/virtio.h>
#include <linux/virtio_config.h>
#include <linux/virtio_ring.h>

#include "harness/harness.h"
#include "harness/mockdev.h"

#define NUM	8	/* ring entries */
#define NSG	4	/* entries a buffer: one indirect table of 4 */

static struct virtio_device vdev;
static struct rig_queue queue;
static struct mockdev dev;
static char bufs[NSG][16];

static bool notify(struct virtqueue *q __attribute__((unused)))
{
	return true;
}

/* A split queue with INDIRECT_DESC and one buffer of NSG entries in it. */
static void add_indirect_buffer(void)
{
	struct scatterlist sg[NSG];
	unsigned int i;

	rig_vdev_init(&vdev, 1ULL << VIRTIO_RING_F_INDIRECT_DESC);
	rig_queue_make(&queue, &vdev, NUM, NULL, false, notify, NULL,
		       "kmem_misuse vq");
	mockdev_init(&dev, &vdev, &queue.ring);
	sg_init_table(sg, NSG);
	for (i = 0; i < NSG; i++)
		sg_set_buf(&sg[i], bufs[i], sizeof(bufs[i]));
	CHECK(virtqueue_add_outbuf(queue.vq, sg, NSG, bufs, GFP_KERNEL) == 0);
	CHECK(queue.vq->num_free == NUM - 1);	/* one descriptor: indirect */
}

static void indirect_use_after_free(void)
{
	const volatile struct vring_desc *table;
	unsigned int ndesc, len;
	u16 id;

	add_indirect_buffer();
	virtqueue_kick(queue.vq);
	CHECK(mockdev_take(&dev, &id, &ndesc));
	table = (const void *)(uintptr_t)virtio64_to_cpu(&vdev,
				queue.ring.vring.desc[id].addr);
	CHECK(virtio16_to_cpu(&vdev, queue.ring.vring.desc[id].flags) &
	      VRING_DESC_F_INDIRECT);
	mockdev_use(&dev, id, 0, 1, ndesc);
	mockdev_publish(&dev);
	CHECK(virtqueue_get_buf(queue.vq, &len) == bufs);	/* frees it */
	printf("the table's first length, read after free: %u\n",
	       (unsigned int)virtio32_to_cpu(&vdev, table[0].len));
	rig_queue_destroy(&queue);
}

static void indirect_leak(void)
{
	add_indirect_buffer();
	rig_queue_destroy(&queue);
}

static void double_free(void)
{
	void *p = kmalloc(64, GFP_KERNEL);

	CHECK(p);
	kfree(p);
	kfree(p);
}

static void use_after_free(size_t size __attribute__((unused)))
{
	volatile unsigned char *p = kmalloc(64, GFP_KERNEL);

	CHECK(p);
	p[0] = 1;
	kfree((void *)p);
	printf("byte 0 of a freed object: %u\n", p[0]);
}

/* One byte written past a kmalloc(@size) object. */
static void overflow(size_t size)
{
	volatile unsigned char *p = kmalloc(size, GFP_KERNEL);

	CHECK(p);
	p[size] = 1;
	kfree((void *)p);
}

#define OVERFLOW(n)	{ .name = "overflow-" #n, .run_size = overflow, .size = n }

static const struct {
	const char *name;
	void (*run)(void);
	void (*run_size)(size_t size);
	size_t size;
} cases[] = {
	{ .name = "indirect-use-after-free", .run = indirect_use_after_free },
	{ .name = "indirect-leak", .run = indirect_leak },
	{ .name = "double-free", .run = double_free },
	{ .name = "use-after-free", .run_size = use_after_free },
	OVERFLOW(16), OVERFLOW(17), OVERFLOW(32), OVERFLOW(33), OVERFLOW(64), OVERFLOW(65),
	OVERFLOW(128), OVERFLOW(129), OVERFLOW(256), OVERFLOW(257), OVERFLOW(512),
	OVERFLOW(513), OVERFLOW(1024), OVERFLOW(1025), OVERFLOW(2048), OVERFLOW(2049),
	OVERFLOW(4096), OVERFLOW(4097), OVERFLOW(8192), OVERFLOW(8193),
};

static const char *case_name(unsigned int i)
{
	return cases[i].name;
}

int main(int argc, char *argv[])
{
	unsigned int i = rig_case_pick(argc, argv, case_name, NULL, ARRAY_SIZE(cases),
"Usage: kmem_misuse --list | kmem_misuse CASE\n"
"Misuse kmalloc()ed memory on purpose (an indirect table read after it\n"
"was freed, leaked, an object freed twice, read after it was freed, or\n"
"written one byte past its end): a checking tool must report it.  Exit 0\n"
"means nothing caught it.\n");

	if (cases[i].run)
		cases[i].run();
	else
		cases[i].run_size(cases[i].size);
	return 0;
}
