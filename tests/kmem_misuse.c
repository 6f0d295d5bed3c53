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

static const struct {
	const char *name;
	void (*run)(void);
} cases[] = {
	{ "indirect-use-after-free", indirect_use_after_free },
	{ "indirect-leak", indirect_leak },
	{ "double-free", double_free },
};

static const char *case_name(unsigned int i)
{
	return cases[i].name;
}

int main(int argc, char *argv[])
{
	cases[rig_case_pick(argc, argv, case_name, NULL, ARRAY_SIZE(cases),
"Usage: kmem_misuse --list | kmem_misuse CASE\n"
"Misuse kmalloc()ed memory on purpose (an indirect table read after it\n"
"was freed, leaked, or an object freed twice): a checking tool must\n"
"report it.  Exit 0 means nothing caught it.\n")].run();
	return 0;
}
